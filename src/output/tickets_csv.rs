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
