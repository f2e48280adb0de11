//! `tickets.csv`: one row per ticket, for QA and audit. This module owns the dialect
//! (comma-separated, `\n`-terminated, UTF-8, a header row, fields quoted only where needed —
//! captions and ids are validated so none ever is) and the column order:
//!
//! `block,pack,pack_position,ticket,serial,prize,way,` then, when a tier's prize is not
//! money, `item`, then the game's face columns (GAMES.md, "Files a block produces").
//! `prize` is in currency units, plain decimal (an item's stated value).

use super::Ticket;
use crate::block::serial;
use crate::spec::{GameSpec, WayId};
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
/// it is one fixed-size copy (longer fields are appended as they are).
#[derive(Clone)]
struct Field {
    padded: [u8; FIELD],
    bytes: Vec<u8>,
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
        if bytes.len() <= FIELD {
            padded[..bytes.len()].copy_from_slice(&bytes);
        }
        Field { padded, bytes }
    }

    /// Writes the field and its separator at `out[*at..]` and moves `at` past them; the
    /// [`FIELD`] bytes from `at` must be room to write.
    #[inline]
    fn put(&self, out: &mut [u8], at: &mut usize) {
        let len = self.bytes.len();
        if len <= FIELD {
            put(out, at, &self.padded, len);
        } else {
            out[*at..*at + len].copy_from_slice(&self.bytes);
            *at += len;
        }
    }
}

/// What a row shows of one ticket: where it is, its serial, its way (whose prize, id and
/// item the row shows) and its face codes (one per face column, at least).
#[derive(Clone, Copy)]
pub struct Row<'a> {
    /// Block number.
    pub block: u32,
    /// Pack number, 1-based.
    pub pack: u32,
    /// Position in the pack, 1-based.
    pub pack_position: u32,
    /// Position in print order within the block, 1-based.
    pub ticket: u32,
    /// The serial's 20 ASCII digits.
    pub serial: &'a [u8; serial::LEN],
    /// The way realised.
    pub way: WayId,
    /// The face's codes, by face column.
    pub codes: &'a [u8],
}

/// Renders ticket rows of one spec into a byte buffer, the same way for `generate` and for
/// `verify` (which compares what it renders with what it reads). Every text field is escaped
/// once, by the csv crate, when the writer is built; a row is then a concatenation. A clone
/// shares the escaped fields and starts with an empty buffer (one per thread).
pub struct RowWriter {
    fields: Arc<Fields>,
    /// The rendered bytes, `buf[..end]`; the rest is room a row is written into by
    /// fixed-size copies, each field's padding overwritten by the next field.
    buf: Vec<u8>,
    end: usize,
    /// `block,pack,` of the last row's pack: the same for every row of a pack.
    head: PackHead,
    /// `pack_position,` and `ticket,` of the last row: one more from row to row of a pack.
    counters: [Counter; 2],
}

/// The first two fields of a pack's rows, `block,pack,`, padded to [`FIELD`] bytes.
#[derive(Clone, Copy)]
struct PackHead {
    block: u32,
    pack: u32,
    padded: [u8; FIELD],
    len: usize,
}

impl PackHead {
    /// No pack yet: an empty head (a pack's never is), so the first row renders its own.
    const NONE: PackHead = PackHead {
        block: 0,
        pack: 0,
        padded: [0; FIELD],
        len: 0,
    };

    /// The head of the rows of `pack` of `block` (at most 10 digits each, two commas).
    fn of(block: u32, pack: u32) -> PackHead {
        let mut padded = [0u8; FIELD];
        let mut len = 0;
        for n in [block, pack] {
            let (digits, k) = number(n);
            padded[len..len + k].copy_from_slice(&digits[..k]);
            len += k;
        }
        PackHead {
            block,
            pack,
            padded,
            len,
        }
    }
}

/// A row's integer field that goes up by one from a row to the next (a pack's positions
/// and tickets): its digits and comma, padded to [`NUMBER`] bytes, carried up in place
/// rather than rendered again.
#[derive(Clone, Copy)]
struct Counter {
    value: u32,
    padded: [u8; NUMBER],
    /// Bytes of `padded` in use, the comma included; 0 before the first row.
    len: usize,
}

impl Counter {
    const NONE: Counter = Counter {
        value: 0,
        padded: [0; NUMBER],
        len: 0,
    };

    /// The field for `n`: the last one plus one when `n` follows it, else rendered anew.
    #[inline(always)]
    fn set(&mut self, n: u32) {
        if self.len > 0 && self.value.checked_add(1) == Some(n) {
            self.step();
        } else if self.len == 0 || self.value != n {
            (self.padded, self.len) = number(n);
            self.value = n;
        }
    }

    /// Adds one to the digits: nines become zeros up to the first other digit, which goes
    /// up by one; a number of nines only gets a leading 1.
    #[inline(always)]
    fn step(&mut self) {
        self.value += 1;
        // The digits are padded[..len - 1], the comma after them.
        let mut k = self.len - 1;
        while k > 0 {
            k -= 1;
            if self.padded[k] != b'9' {
                self.padded[k] += 1;
                return;
            }
            self.padded[k] = b'0';
        }
        self.padded.copy_within(0..self.len, 1);
        self.padded[0] = b'1';
        self.len += 1;
    }
}

/// Bytes of a [`number`]: a `u32` has at most 10 digits, then its comma.
const NUMBER: usize = 16;

/// The decimal digits of `n` then a comma, left-aligned in [`NUMBER`] bytes, and how many
/// of them there are: the row's integer fields, appended by one fixed-size copy.
#[inline(always)]
fn number(mut n: u32) -> ([u8; NUMBER], usize) {
    let len = n.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut digits = [0u8; NUMBER];
    for d in digits[..len].iter_mut().rev() {
        *d = b'0' + (n % 10) as u8;
        n /= 10;
    }
    digits[len] = b',';
    (digits, len + 1)
}

/// Writes `padded` whole at `out[*at..]` and moves `at` past its first `len` bytes: one
/// fixed-size copy, the bytes past `len` left to be overwritten.
#[inline(always)]
fn put<const N: usize>(out: &mut [u8], at: &mut usize, padded: &[u8; N], len: usize) {
    out[*at..*at + N].copy_from_slice(padded);
    *at += len;
}

/// Appends the first `len` bytes of `padded` by copying it whole, then dropping the rest:
/// one fixed-size copy, cheaper than a copy of `len` bytes (the rows of `tickets.csv` and
/// `validation.csv`).
#[inline(always)]
pub(super) fn append_padded<const N: usize>(buf: &mut Vec<u8>, padded: &[u8; N], len: usize) {
    let end = buf.len() + len;
    buf.extend_from_slice(padded);
    buf.truncate(end);
}

/// Bytes of a [`Short`] entry: a field and its separator of up to `SHORT - 1` bytes, then
/// their length.
const SHORT: usize = 16;

/// A face value's field and separator padded to [`SHORT`] bytes, its last byte their length
/// (0 when they do not fit: the value is then appended from its [`Field`]).
type Short = [u8; SHORT];

/// The escaped fields of one spec, with their separators.
struct Fields {
    /// Every face column's values, by column then code.
    columns: Vec<Vec<Field>>,
    /// Every face column's values as [`Short`] entries, the columns of the same values and
    /// separator sharing theirs: column `c`'s are `short[starts[c]..starts[c] + counts[c]]`.
    short: Vec<Short>,
    starts: Vec<u32>,
    counts: Vec<u32>,
    /// The most bytes a row can take, its `\n` included.
    max_row: usize,
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
            buf: Vec::new(),
            end: 0,
            head: PackHead::NONE,
            counters: [Counter::NONE; 2],
        }
    }
}

impl RowWriter {
    /// A writer for `spec`'s rows.
    pub fn new(spec: &GameSpec) -> Self {
        let cols = &spec.game.layout().columns;
        let sep = |last: bool| if last { b'\n' } else { b',' };
        let columns: Vec<Vec<Field>> = cols
            .iter()
            .enumerate()
            .map(|(i, c): (usize, &Column)| {
                c.values
                    .iter()
                    .map(|v| Field::new(v, sep(i + 1 == cols.len())))
                    .collect()
            })
            .collect();
        let (mut short, mut starts, mut seen) = (Vec::new(), Vec::new(), Vec::new());
        for (i, (c, fields)) in cols.iter().zip(&columns).enumerate() {
            let key = (&c.values, i + 1 == cols.len());
            let start = match seen.iter().find(|(k, _)| *k == key) {
                Some(&(_, start)) => start,
                None => {
                    let start = u32::try_from(short.len()).expect("face values fit a u32");
                    short.extend(fields.iter().map(|f: &Field| {
                        let mut e = [0u8; SHORT];
                        if f.bytes.len() < SHORT {
                            e[..f.bytes.len()].copy_from_slice(&f.bytes);
                            e[SHORT - 1] = f.bytes.len() as u8;
                        }
                        e
                    }));
                    seen.push((key, start));
                    start
                }
            };
            starts.push(start);
        }
        let counts = columns.iter().map(|c| c.len() as u32).collect();
        let widest = |fs: &[Field]| fs.iter().map(|f| f.bytes.len()).max().unwrap_or(0);
        let mut fields = Fields {
            max_row: 0,
            short,
            starts,
            counts,
            columns,
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
        // `block,pack,pack_position,ticket,` of 10 digits each, the serial and its comma.
        fields.max_row = 4 * (NUMBER - 5)
            + serial::LEN
            + 1
            + widest(&fields.prizes)
            + widest(&fields.way_ids)
            + widest(&fields.items)
            + fields.columns.iter().map(|c| widest(c)).sum::<usize>();
        RowWriter {
            fields: Arc::new(fields),
            buf: Vec::new(),
            end: 0,
            head: PackHead::NONE,
            counters: [Counter::NONE; 2],
        }
    }

    /// Appends the row of `t`, with its `\n` (its prize and way text come from its way id).
    pub fn push(&mut self, t: &Ticket) {
        self.push_row(&Row {
            block: t.block,
            pack: t.pack,
            pack_position: t.pack_position,
            ticket: t.ticket,
            serial: &t.serial,
            way: t.way,
            codes: &t.face.codes,
        });
    }

    /// Appends the row `r`, with its `\n`: the same bytes as [`RowWriter::push`] of the
    /// ticket it describes.
    #[inline]
    pub fn push_row(&mut self, r: &Row) {
        // Room for the widest row and the padding of its last fixed-size copy.
        let need = self.end + self.room();
        if self.buf.len() < need {
            self.buf.resize(need.max(2 * self.buf.len()), 0);
        }
        let mut buf = std::mem::take(&mut self.buf);
        self.end = self.render_row(&mut buf, self.end, r);
        self.buf = buf;
    }

    /// The bytes a row needs in the buffer [`RowWriter::render_row`] writes it into: the
    /// widest row's and the padding of its last fixed-size copy.
    pub fn room(&self) -> usize {
        self.fields.max_row + FIELD
    }

    /// Writes the row `r`, with its `\n`, at `out[at..]`, the same bytes as
    /// [`RowWriter::push_row`]; returns where it ends. Bytes up to [`RowWriter::room`]
    /// past `at` may be overwritten. Panics when `out` is shorter than `at` plus that room.
    #[inline]
    pub fn render_row(&mut self, out: &mut [u8], at: usize, r: &Row) -> usize {
        if self.head.len == 0 || (r.block, r.pack) != (self.head.block, self.head.pack) {
            self.head = PackHead::of(r.block, r.pack);
        }
        let out = &mut out[..at + self.room()];
        let f = &*self.fields;
        let mut at = at;
        put(out, &mut at, &self.head.padded, self.head.len);
        for (c, n) in self.counters.iter_mut().zip([r.pack_position, r.ticket]) {
            c.set(n);
            put(out, &mut at, &c.padded, c.len);
        }
        out[at..at + serial::LEN].copy_from_slice(r.serial);
        out[at + serial::LEN] = b',';
        at += serial::LEN + 1;
        let way = r.way as usize;
        f.prizes[way].put(out, &mut at);
        f.way_ids[way].put(out, &mut at);
        if let Some(item) = f.items.get(way) {
            item.put(out, &mut at);
        }
        let short = &f.short[..];
        let columns = f.starts.iter().zip(&f.counts).zip(r.codes).enumerate();
        for (c, ((&start, &count), &code)) in columns {
            if u32::from(code) < count {
                let e = &short[start as usize + code as usize];
                let len = e[SHORT - 1] as usize;
                if len != 0 {
                    put(out, &mut at, e, len);
                    continue;
                }
            }
            f.columns[c][code as usize].put(out, &mut at);
        }
        at
    }

    /// True when `line`, a row of tickets.csv without its line end, is the row
    /// [`RowWriter::push`] renders for `t` without its `\n`. Renders that row in place of
    /// what was rendered before ([`RowWriter::bytes`] then holds it, with its `\n`) and
    /// compares the two whole: a fixed-size copy a field and one comparison cost less than
    /// comparing each field where it lies.
    pub fn matches(&mut self, t: &Ticket, line: &[u8]) -> bool {
        self.clear();
        self.push(t);
        let row = self.bytes();
        row.len() == line.len() + 1 && row[..line.len()] == *line
    }

    /// The bytes rendered since the last [`RowWriter::clear`].
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.end]
    }

    /// Forgets the rendered bytes, keeping the buffer.
    pub fn clear(&mut self) {
        self.end = 0;
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

    #[test]
    fn a_row_matches_exactly_what_push_renders() {
        for rel in [
            "tests/specs/coq_small.toml",
            "tests/specs/poker_small.toml",
            "tests/specs/mots_small.toml",
            "game_specs/examples/ticket_bonus.toml",
        ] {
            let spec = GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap();
            let mut w = RowWriter::new(&spec);
            let mut checked = 0;
            for (t, row) in rows(rel) {
                let line = &row[..row.len() - 1];
                assert!(w.matches(&t, line), "{rel}: {row:?}");
                assert_eq!(w.bytes(), &row[..], "{rel}: the row rendered");
                let mut other = line.to_vec();
                for k in 0..line.len() {
                    for b in [b'0', b'9', b',', b'"', b'\r', b'A', line[k] ^ 1] {
                        other[k] = b;
                        assert_eq!(
                            w.matches(&t, &other),
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
                    assert!(!w.matches(&t, &changed), "{rel}: {what}");
                }
            }
            assert!(checked > 0, "{rel}");
        }
    }

    /// A row's integer fields are their decimal digits whatever their length (1 to 10
    /// digits), whether rendered anew or counted up from the row before (across 9 → 10,
    /// 99 → 100, …), and a pack's head follows the rows from one pack, or block, to the next.
    #[test]
    fn rows_write_every_number_in_decimal() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_tiny.toml");
        let spec = GameSpec::load(&path).unwrap();
        let ncols = spec.game.layout().columns.len();
        let mut rows = RowWriter::new(&spec);
        let edges = [
            0,
            1,
            9,
            10,
            99,
            100,
            12_345,
            999_999_999,
            1_000_000_000,
            u32::MAX,
        ];
        let mut numbers: Vec<(u32, u32)> = Vec::new();
        for (k, &n) in edges.iter().enumerate() {
            let m = edges[edges.len() - 1 - k];
            numbers.extend([(n, m), (n, m), (m, n), (7, n)]);
        }
        // Runs of consecutive positions and tickets, across every carry.
        for start in [0u32, 7, 95, 995, 99_990, 999_999_990, u32::MAX - 3] {
            numbers.extend((0..12).map_while(|k| start.checked_add(k)).map(|n| (n, n)));
            numbers.extend((0..12).map_while(|k| start.checked_add(k)).map(|n| (3, n)));
        }
        for (k, &(n, m)) in numbers.iter().enumerate() {
            for (block, pack) in [(n, m), (7, (k / 5) as u32)] {
                let t = Ticket {
                    block,
                    pack,
                    pack_position: m,
                    ticket: n,
                    serial: *b"20170010010000010017",
                    validation: 0,
                    prize: spec.ways[0].amount,
                    way: 0,
                    face: crate::styles::Face::zeroed(ncols),
                };
                rows.clear();
                rows.push(&t);
                let row = String::from_utf8(rows.bytes().to_vec()).unwrap();
                let want = format!("{block},{pack},{m},{n},20170010010000010017,");
                assert!(row.starts_with(&want), "{row} against {want}");
                assert_eq!(
                    fields(row.trim_end().as_bytes()).len(),
                    column_names(&spec).len()
                );
            }
        }
    }

    /// A row is what the csv crate writes of its fields, for faces of values of every
    /// length (the long ones not in the shared table) and of many columns sharing it.
    #[test]
    fn a_row_is_what_the_csv_crate_writes() {
        let mut longest = 0;
        for rel in [
            "tests/specs/coq_small.toml",
            "tests/specs/poker_small.toml",
            "tests/specs/mots_small.toml",
            "game_specs/examples/six_bingo.toml",
            "game_specs/examples/ticket_bonus.toml",
            "game_specs/examples/casino.toml",
        ] {
            let spec = GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap();
            let cols = &spec.game.layout().columns;
            for (t, row) in rows(rel) {
                let way = &spec.ways[t.way as usize];
                let mut want: Vec<String> = [t.block, t.pack, t.pack_position, t.ticket]
                    .iter()
                    .map(u32::to_string)
                    .collect();
                want.push(String::from_utf8(t.serial.to_vec()).unwrap());
                want.push(way.amount.to_string());
                want.push(way.id.clone());
                if spec.has_items() {
                    let item = way.tier.and_then(|k| spec.tiers[k].item.clone());
                    want.push(item.unwrap_or_default());
                }
                for (c, &code) in cols.iter().zip(&t.face.codes) {
                    let v = &c.values[code as usize];
                    longest = longest.max(escaped(v).len());
                    want.push(v.clone());
                }
                let mut w = csv::WriterBuilder::new()
                    .terminator(csv::Terminator::Any(b'\n'))
                    .from_writer(Vec::new());
                w.write_record(&want).unwrap();
                assert_eq!(
                    String::from_utf8(row).unwrap(),
                    String::from_utf8(w.into_inner().unwrap()).unwrap(),
                    "{rel}"
                );
            }
        }
        // A value and its separator of more than a table entry holds.
        assert!(longest >= SHORT, "{longest}");
    }
}
