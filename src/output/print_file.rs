//! `tickets.bin`: the print file the printer images tickets from. Layout (all integers
//! little-endian; docs/FORMAT.md has the same table):
//!
//! Header:
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `TIRAGEPF` |
//! | 8 | 2 | format version (1) |
//! | 10 | 2 | record size in bytes (38 + face columns) |
//! | 12 | 4 | header size in bytes: records start here |
//! | 16 | 2 | game code |
//! | 18 | 2 | emission |
//! | 20 | 4 | block |
//! | 24 | 4 | record count |
//! | 28 | 2 | face column count `k` |
//! | 30 | … | game id (u16 length + UTF-8), then per face column: name (u16 length + UTF-8), kind (u8: 0 symbol, 1 amount, 2 caption), value count (u16), values (each u16 length + UTF-8) |
//!
//! Record (fixed width, in print order):
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 4 | ticket (1-based position in the block) |
//! | 4 | 4 | pack (1-based) |
//! | 8 | 2 | position in the pack (1-based) |
//! | 10 | 20 | serial, ASCII digits |
//! | 30 | 8 | validation code (u64; printed as 20 digits, zero-padded) |
//! | 38 | k | face: one code per face column, an index into that column's values |
//!
//! The print file carries no prize and no way: the printer needs only what it images.

use super::Ticket;
use crate::block::serial;
use crate::spec::GameSpec;
use crate::styles::{Column, ColumnKind, Face};

/// First 8 bytes of every print file.
pub const MAGIC: &[u8; 8] = b"TIRAGEPF";
/// Format version written in the header.
pub const VERSION: u16 = 1;
/// Bytes of a record before the face codes.
pub const RECORD_META: usize = 38;

/// Record size for `spec` in bytes.
pub fn record_size(spec: &GameSpec) -> usize {
    RECORD_META + spec.game.layout().columns.len()
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u16).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// The header of a print file of `records` tickets of `spec`'s block `block`.
pub fn header(spec: &GameSpec, block: u32, records: u32) -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&(record_size(spec) as u16).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes()); // header size, patched below
    h.extend_from_slice(&spec.game_code.to_le_bytes());
    h.extend_from_slice(&spec.emission.to_le_bytes());
    h.extend_from_slice(&block.to_le_bytes());
    h.extend_from_slice(&records.to_le_bytes());
    debug_assert_eq!(h.len(), FIXED);
    for (_, bytes) in dictionaries(spec) {
        h.extend_from_slice(&bytes);
    }
    let len = h.len() as u32;
    h[12..16].copy_from_slice(&len.to_le_bytes());
    h
}

/// Bytes of a header's fixed fields, before its dictionaries.
const FIXED: usize = 28;

/// The dictionaries of `spec`'s print file header, in the order they are written, each
/// part with what it is in words: the column count, the game id, then each column's
/// name, kind (0 symbol, 1 amount, 2 caption), value count and values (`column s4's code
/// 5 (the spec's value is "RAT")`, codes counted from 0 as a record holds them).
fn dictionaries(spec: &GameSpec) -> Vec<(String, Vec<u8>)> {
    let cols = &spec.game.layout().columns;
    let text = |s: &str| {
        let mut b = Vec::new();
        put_str(&mut b, s);
        b
    };
    let mut parts = vec![
        (
            format!("the column count (the spec's is {})", cols.len()),
            (cols.len() as u16).to_le_bytes().to_vec(),
        ),
        (
            format!("the game id (the spec's is {:?})", spec.id),
            text(&spec.id),
        ),
    ];
    for c in cols {
        let name = &c.name;
        parts.push((format!("the name of column {name}"), text(name)));
        let kind = match c.kind {
            ColumnKind::Symbol => 0,
            ColumnKind::Amount(_) => 1,
            ColumnKind::Caption { .. } => 2,
        };
        parts.push((
            format!("column {name}'s kind (the spec's is {kind})"),
            vec![kind],
        ));
        parts.push((
            format!(
                "column {name}'s value count (the spec's is {})",
                c.values.len()
            ),
            (c.values.len() as u16).to_le_bytes().to_vec(),
        ));
        for (i, v) in c.values.iter().enumerate() {
            parts.push((
                format!("column {name}'s code {i} (the spec's value is {v:?})"),
                text(v),
            ));
        }
    }
    parts
}

/// Where the dictionaries of the print file header `got` first differ from those `spec`
/// writes, named as a part of the header: `the game id (the spec's is "coq")`, `column
/// s4's code 5 (the spec's value is "RAT")`. `None` when they agree as far as `got` goes
/// (a header cut short is said elsewhere). The fixed fields before them are not compared
/// ([`Header::differences`] names those).
pub fn dictionary_difference(spec: &GameSpec, got: &[u8]) -> Option<String> {
    let mut at = FIXED;
    for (said, want) in dictionaries(spec) {
        let end = (at + want.len()).min(got.len());
        if at >= end {
            return None;
        }
        if got[at..end] != want[..end - at] {
            return Some(said);
        }
        at += want.len();
    }
    None
}

/// Appends the record of `t` (with `ncols` face codes) to `out`.
pub fn push_record(out: &mut Vec<u8>, t: &Ticket, ncols: usize) {
    let place = [t.ticket, t.pack, t.pack_position];
    push(out, place, &t.serial, t.validation, &t.face.codes[..ncols]);
}

/// Appends a record to `out`: its ticket, pack and position in the pack (`place`), its
/// serial, validation code and face codes.
#[inline(always)]
pub fn push(
    out: &mut Vec<u8>,
    [ticket, pack, position]: [u32; 3],
    serial: &[u8; serial::LEN],
    validation: u64,
    codes: &[u8],
) {
    out.extend_from_slice(&ticket.to_le_bytes());
    out.extend_from_slice(&pack.to_le_bytes());
    out.extend_from_slice(&(position as u16).to_le_bytes());
    out.extend_from_slice(serial);
    out.extend_from_slice(&validation.to_le_bytes());
    out.extend_from_slice(codes);
}

/// The serial and the face codes of record `rec` (with `ncols` face codes), read in place.
#[inline(always)]
pub fn serial_and_face(rec: &[u8], ncols: usize) -> (&[u8; serial::LEN], &[u8]) {
    let serial = rec[10..30].try_into().expect("20 bytes");
    (serial, &rec[RECORD_META..RECORD_META + ncols])
}

/// The fixed fields of a print file header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u16,
    /// Record size in bytes.
    pub record_size: usize,
    /// Header size in bytes.
    pub header_size: usize,
    /// Game code.
    pub game_code: u16,
    /// Emission.
    pub emission: u16,
    /// Block.
    pub block: u32,
    /// Record count.
    pub records: u32,
}

impl Header {
    /// Each fixed field that differs from `want`'s, named with both values ("header field
    /// game code: 1704, expected 1703"), joined by "; "; empty when they are all equal.
    pub fn differences(&self, want: &Header) -> String {
        let fields = [
            (
                "format version",
                u64::from(self.version),
                u64::from(want.version),
            ),
            (
                "record size in bytes",
                self.record_size as u64,
                want.record_size as u64,
            ),
            (
                "header size in bytes",
                self.header_size as u64,
                want.header_size as u64,
            ),
            (
                "game code",
                u64::from(self.game_code),
                u64::from(want.game_code),
            ),
            (
                "emission",
                u64::from(self.emission),
                u64::from(want.emission),
            ),
            ("block", u64::from(self.block), u64::from(want.block)),
            (
                "record count",
                u64::from(self.records),
                u64::from(want.records),
            ),
        ];
        fields
            .iter()
            .filter(|(_, got, want)| got != want)
            .map(|(name, got, want)| format!("header field {name}: {got}, expected {want}"))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Reads the fixed fields of a header. `Err` says what is wrong (too short, bad magic).
pub fn read_header(bytes: &[u8]) -> Result<Header, String> {
    if bytes.len() < 30 {
        return Err(format!(
            "{} bytes: shorter than a print file header",
            bytes.len()
        ));
    }
    if &bytes[..8] != MAGIC {
        return Err("bad magic: not a tirage print file".into());
    }
    let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
    Ok(Header {
        version: u16_at(8),
        record_size: usize::from(u16_at(10)),
        header_size: u32_at(12) as usize,
        game_code: u16_at(16),
        emission: u16_at(18),
        block: u32_at(20),
        records: u32_at(24),
    })
}

/// One record as read back: the fields it holds (no prize, no way).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Ticket, 1-based.
    pub ticket: u32,
    /// Pack, 1-based.
    pub pack: u32,
    /// Position in the pack, 1-based.
    pub pack_position: u32,
    /// Serial digits.
    pub serial: [u8; serial::LEN],
    /// Validation code.
    pub validation: u64,
    /// Face codes.
    pub face: Face,
}

/// Decodes one record of `rec.len()` bytes with `ncols` face codes into `ticket`, whose
/// face holds at least `ncols` codes: its ticket, pack, position, serial, validation code
/// and first `ncols` face codes. Its block, prize and way, which a record does not carry,
/// and its face codes past `ncols` are left as they were. A checker reading millions of
/// records reuses one ticket rather than building a [`Record`] for each.
pub fn read_into(rec: &[u8], ncols: usize, ticket: &mut Ticket) {
    ticket.ticket = u32::from_le_bytes(rec[0..4].try_into().expect("4 bytes"));
    ticket.pack = u32::from_le_bytes(rec[4..8].try_into().expect("4 bytes"));
    ticket.pack_position = u32::from(u16::from_le_bytes([rec[8], rec[9]]));
    ticket.serial = rec[10..30].try_into().expect("20 bytes");
    ticket.validation = u64::from_le_bytes(rec[30..38].try_into().expect("8 bytes"));
    ticket.face.codes[..ncols].copy_from_slice(&rec[RECORD_META..RECORD_META + ncols]);
}

/// Decodes one record of `rec.len()` bytes with `ncols` face codes.
pub fn read_record(rec: &[u8], ncols: usize) -> Record {
    let mut face = Face::zeroed(ncols);
    face.codes[..ncols].copy_from_slice(&rec[RECORD_META..RECORD_META + ncols]);
    Record {
        ticket: u32::from_le_bytes(rec[0..4].try_into().expect("4 bytes")),
        pack: u32::from_le_bytes(rec[4..8].try_into().expect("4 bytes")),
        pack_position: u32::from(u16::from_le_bytes([rec[8], rec[9]])),
        serial: rec[10..30].try_into().expect("20 bytes"),
        validation: u64::from_le_bytes(rec[30..38].try_into().expect("8 bytes")),
        face,
    }
}

/// True when every face code of `face` indexes its column's values.
pub fn codes_in_range(face: &Face, cols: &[Column]) -> bool {
    cols.iter()
        .zip(&face.codes)
        .all(|(c, &k)| (k as usize) < c.values.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_pushed_and_its_serial_and_face_in_place() {
        let (serial, codes) = (*b"17030010010000010012", [3u8, 0, 19, 7, 255]);
        let mut out = vec![0xaa];
        push(
            &mut out,
            [4_500_000, 30_000, 150],
            &serial,
            u64::MAX - 5,
            &codes,
        );
        let rec = &out[1..];
        assert_eq!(rec.len(), RECORD_META + codes.len());
        let r = read_record(rec, codes.len());
        assert_eq!(
            (r.ticket, r.pack, r.pack_position, r.serial, r.validation),
            (4_500_000, 30_000, 150, serial, u64::MAX - 5)
        );
        assert_eq!(&r.face.codes[..codes.len()], &codes);
        assert_eq!(serial_and_face(rec, codes.len()), (&serial, &codes[..]));
    }
}
