//! `tickets.csv`: one row per ticket, for QA and audit. This module owns the dialect
//! (comma-separated, `\n`-terminated, UTF-8, a header row, fields quoted only where needed —
//! captions and ids are validated so none ever is) and the column order:
//!
//! `block,pack,pack_position,ticket,serial,prize,way,` then, when a tier's prize is not
//! money, `item`, then the game's face columns (GAMES.md, "Files a block produces").
//! `prize` is in currency units, plain decimal (an item's stated value).

use super::Ticket;
use crate::spec::GameSpec;
use crate::styles::Column;
use std::sync::Arc;

/// The columns that come before the face, in order.
pub const META_COLUMNS: [&str; 7] = [
    "block",
    "pack",
    "pack_position",
    "ticket",
    "serial",
    "prize",
    "way",
];

/// The column after `way` when a tier's prize is not money: the ticket's item
/// (`FREE TICKET`), empty for a cash lot or a loser; `prize` then holds an item's stated
/// value.
pub const ITEM_COLUMN: &str = "item";

/// Every column name of `spec`'s CSV, in order.
pub fn column_names(spec: &GameSpec) -> Vec<String> {
    let mut names: Vec<String> = META_COLUMNS.iter().map(|s| s.to_string()).collect();
    if spec.has_items() {
        names.push(ITEM_COLUMN.into());
    }
    names.extend(spec.game.layout().columns.iter().map(|c| c.name.clone()));
    names
}

/// The header row of `spec`'s CSV, with its line terminator.
pub fn header(spec: &GameSpec) -> Vec<u8> {
    let names = column_names(spec);
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(&names).expect("write to memory");
    w.into_inner().expect("flush to memory")
}

/// One field as the csv crate writes it (quoted only if needed), without a terminator.
fn escaped(field: &str) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .buffer_capacity(2 * field.len() + 8)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record([field]).expect("write to memory");
    let mut v = w.into_inner().expect("flush to memory");
    v.pop();
    v
}

/// Bytes of a [`Field`]: values up to this length are copied as one fixed-size block.
const FIELD: usize = 32;

/// A pre-escaped field followed by its separator, padded to [`FIELD`] bytes so that appending
/// it is one fixed-size copy (longer fields are appended as they are), and as words with
/// their masks so that comparing it is a few word operations.
#[derive(Clone)]
struct Field {
    padded: [u8; FIELD],
    bytes: Vec<u8>,
    /// `padded` as little-endian words, and the masks keeping its `bytes.len()` bytes.
    words: [u64; FIELD / 8],
    masks: [u64; FIELD / 8],
}

impl Field {
    fn new(text: &str, sep: u8) -> Field {
        // An empty field is written empty (the csv crate quotes a record of one empty field).
        let mut bytes = if text.is_empty() {
            Vec::new()
        } else {
            escaped(text)
        };
        bytes.push(sep);
        let mut padded = [0u8; FIELD];
        let mut kept = [0u8; FIELD];
        if bytes.len() <= FIELD {
            padded[..bytes.len()].copy_from_slice(&bytes);
            kept[..bytes.len()].fill(0xff);
        }
        Field {
            padded,
            bytes,
            words: words(&padded),
            masks: words(&kept),
        }
    }

    #[inline]
    fn append_to(&self, buf: &mut Vec<u8>) {
        let len = self.bytes.len();
        if len <= FIELD {
            // Copy the whole padded block, then drop the padding.
            let end = buf.len() + len;
            buf.extend_from_slice(&self.padded);
            buf.truncate(end);
        } else {
            buf.extend_from_slice(&self.bytes);
        }
    }

    /// True when `text[*at..]` starts with this field and its separator; moves `at` past
    /// them either way.
    #[inline(always)]
    fn matches_at(&self, text: &[u8], at: &mut usize) -> bool {
        let len = self.bytes.len();
        let window = text.get(*at..*at + FIELD).filter(|_| len <= FIELD);
        let same = match window {
            // The bytes past the field are read, then masked out.
            Some(w) => {
                let got = words(w.try_into().expect("FIELD bytes"));
                (0..FIELD / 8).fold(0, |d, k| d | ((got[k] ^ self.words[k]) & self.masks[k])) == 0
            }
            None => text.get(*at..*at + len) == Some(&self.bytes[..]),
        };
        *at += len;
        same
    }
}

/// `b` as little-endian words.
fn words(b: &[u8; FIELD]) -> [u64; FIELD / 8] {
    std::array::from_fn(|k| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().expect("8 bytes")))
}

/// True when `text[*at..]` starts with `n` in decimal, as [`RowWriter::push`] writes it (no
/// leading zero), and a comma; moves `at` past them either way.
#[inline(always)]
fn number_at(text: &[u8], at: &mut usize, n: u32) -> bool {
    let (from, mut i, mut v) = (*at, *at, 0u64);
    // Eleven digits at most: more cannot be a u32, and the value cannot overflow.
    while let Some(&c) = text.get(i).filter(|c| c.is_ascii_digit() && i - from < 11) {
        v = v * 10 + u64::from(c - b'0');
        i += 1;
    }
    let digits = i - from;
    let same = digits > 0
        && v == u64::from(n)
        && (digits == 1 || text[from] != b'0')
        && text.get(i) == Some(&b',');
    *at = i + 1;
    same
}

/// Renders ticket rows of one spec into a byte buffer, the same way for `generate` and for
/// `verify` (which compares what it renders with what it reads). Every text field is escaped
/// once, by the csv crate, when the writer is built; a row is then a concatenation. A clone
/// shares the escaped fields and starts with an empty buffer (one per thread).
pub struct RowWriter {
    fields: Arc<Fields>,
    buf: Vec<u8>,
}

/// The escaped fields of one spec, with their separators.
struct Fields {
    /// Every face column's values, by column then code.
    columns: Vec<Vec<Field>>,
    /// Prize and way id of every way, by way id.
    prizes: Vec<Field>,
    way_ids: Vec<Field>,
    /// The item of every way (empty for cash), by way id, when the spec has items.
    items: Vec<Field>,
}

impl Clone for RowWriter {
    fn clone(&self) -> Self {
        RowWriter {
            fields: Arc::clone(&self.fields),
            buf: Vec::with_capacity(self.buf.capacity()),
        }
    }
}

impl RowWriter {
    /// A writer for `spec`'s rows.
    pub fn new(spec: &GameSpec) -> Self {
        let cols = &spec.game.layout().columns;
        let sep = |last: bool| if last { b'\n' } else { b',' };
        let fields = Fields {
            columns: cols
                .iter()
                .enumerate()
                .map(|(i, c): (usize, &Column)| {
                    c.values
                        .iter()
                        .map(|v| Field::new(v, sep(i + 1 == cols.len())))
                        .collect()
                })
                .collect(),
            prizes: spec
                .ways
                .iter()
                .map(|w| Field::new(&w.amount.to_string(), b','))
                .collect(),
            way_ids: spec
                .ways
                .iter()
                .map(|w| Field::new(&w.id, sep(cols.is_empty() && !spec.has_items())))
                .collect(),
            items: if spec.has_items() {
                spec.ways
                    .iter()
                    .map(|w| {
                        let item = w.tier.and_then(|t| spec.tiers[t].item.as_deref());
                        Field::new(item.unwrap_or(""), sep(cols.is_empty()))
                    })
                    .collect()
            } else {
                Vec::new()
            },
        };
        RowWriter {
            fields: Arc::new(fields),
            buf: Vec::with_capacity(1 << 16),
        }
    }

    /// Appends the row of `t`, with its `\n` (its prize and way text come from its way id).
    pub fn push(&mut self, t: &Ticket) {
        let mut b = itoa::Buffer::new();
        let (f, buf) = (&*self.fields, &mut self.buf);
        buf.reserve(FIELD * (f.columns.len() + 8) + 64);
        for n in [t.block, t.pack, t.pack_position, t.ticket] {
            buf.extend_from_slice(b.format(n).as_bytes());
            buf.push(b',');
        }
        buf.extend_from_slice(&t.serial);
        buf.push(b',');
        f.prizes[t.way as usize].append_to(buf);
        f.way_ids[t.way as usize].append_to(buf);
        if let Some(item) = f.items.get(t.way as usize) {
            item.append_to(buf);
        }
        for (col, &code) in f.columns.iter().zip(&t.face.codes) {
            col[code as usize].append_to(buf);
        }
    }

    /// True when `line`, a row of tickets.csv without its line end, is the row
    /// [`RowWriter::push`] renders for `t` without its `\n`; `text` is `line`, its `\n`,
    /// then any bytes (read, never compared). Renders nothing: each field is compared in
    /// place.
    pub fn matches(&self, t: &Ticket, line: &[u8], text: &[u8]) -> bool {
        let f = &*self.fields;
        let way = t.way as usize;
        // Every field compared, without an early exit: `at` stays in a register and the
        // comparisons overlap.
        let mut at = 0;
        let mut same = true;
        for n in [t.block, t.pack, t.pack_position, t.ticket] {
            same &= number_at(text, &mut at, n);
        }
        same &= text.get(at..at + t.serial.len()) == Some(&t.serial[..])
            && text.get(at + t.serial.len()) == Some(&b',');
        at += t.serial.len() + 1;
        same &= f.prizes[way].matches_at(text, &mut at);
        same &= f.way_ids[way].matches_at(text, &mut at);
        if let Some(item) = f.items.get(way) {
            same &= item.matches_at(text, &mut at);
        }
        for (col, &code) in f.columns.iter().zip(&t.face.codes) {
            same &= col[code as usize].matches_at(text, &mut at);
        }
        // The row's last field ends with its `\n`: it ends where the line does.
        same && at == line.len() + 1
    }

    /// The bytes rendered since the last [`RowWriter::clear`].
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Forgets the rendered bytes, keeping the buffer.
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// Takes the rendered bytes out (the next rows go to a new buffer of the same capacity).
    pub fn take(&mut self) -> Vec<u8> {
        let cap = self.buf.capacity();
        std::mem::replace(&mut self.buf, Vec::with_capacity(cap))
    }
}

/// Splits one CSV line (without its terminator) into fields with the csv crate, for
/// explaining a row that differs from what verify expects.
pub fn fields(line: &[u8]) -> Vec<String> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line);
    let mut rec = csv::StringRecord::new();
    match r.read_record(&mut rec) {
        Ok(true) => rec.iter().map(str::to_string).collect(),
        _ => vec![String::from_utf8_lossy(line).into_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::FaceRng;
    use rand_core::SeedableRng;
    use std::path::Path;

    /// A ticket of every way of the spec at `rel`, its numbers of every width, and the row
    /// each renders to (with its `\n`).
    fn rows(rel: &str) -> Vec<(Ticket, Vec<u8>)> {
        let spec = GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap();
        let mut w = RowWriter::new(&spec);
        let mut rng = FaceRng::seed_from_u64(7);
        let numbers = [0, 1, 9, 10, 99_999, 4_500_000, u32::MAX];
        (0..spec.ways.len())
            .map(|id| {
                let n = numbers[id % numbers.len()];
                let t = Ticket {
                    block: n,
                    pack: numbers[(id + 1) % numbers.len()],
                    pack_position: numbers[(id + 2) % numbers.len()],
                    ticket: numbers[(id + 3) % numbers.len()],
                    serial: *b"01234567890123456789",
                    validation: 0,
                    prize: spec.ways[id].amount,
                    way: id as u16,
                    face: spec.game.synthesize(&spec.ways[id], &mut rng),
                };
                w.clear();
                w.push(&t);
                (t, w.bytes().to_vec())
            })
            .collect()
    }

    /// Whether `line` followed by `after` matches `t` by [`RowWriter::matches`].
    fn matches(w: &RowWriter, t: &Ticket, line: &[u8], after: &[u8]) -> bool {
        let text = [line, after].concat();
        w.matches(t, line, &text)
    }

    #[test]
    fn a_row_matches_exactly_what_push_renders() {
        for rel in [
            "tests/specs/coq_small.toml",
            "tests/specs/poker_small.toml",
            "tests/specs/mots_small.toml",
            "game_specs/examples/ticket_bonus.toml",
        ] {
            let spec = GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap();
            let w = RowWriter::new(&spec);
            let mut checked = 0;
            for (t, row) in rows(rel) {
                let line = &row[..row.len() - 1];
                // Followed by its `\n` alone, or by more rows.
                assert!(matches(&w, &t, line, b"\n"), "{rel}: {row:?}");
                assert!(matches(&w, &t, line, &[b'\n'; 80]), "{rel}: {row:?}");
                let mut other = line.to_vec();
                for k in 0..line.len() {
                    for b in [b'0', b'9', b',', b'"', b'\r', b'A', line[k] ^ 1] {
                        other[k] = b;
                        assert_eq!(
                            matches(&w, &t, &other, b"\n"),
                            b == line[k],
                            "{rel}: byte {k} of {row:?} made {b}"
                        );
                        checked += 1;
                    }
                    other[k] = line[k];
                }
                for (changed, what) in [
                    (line[..line.len() - 1].to_vec(), "a byte short"),
                    ([line, b"\r"].concat(), "a carriage return"),
                    ([line, b","].concat(), "a field more"),
                    ([b"0", line].concat(), "a leading zero"),
                    (Vec::new(), "empty"),
                ] {
                    assert!(!matches(&w, &t, &changed, b"\n"), "{rel}: {what}");
                }
            }
            assert!(checked > 0, "{rel}");
        }
    }
}
