//! `validation.csv`: for the central system that pays tickets — the one file that maps
//! validation codes to prizes. One row per ticket, in print order:
//!
//! `serial,validation_code,way,prize` — the 20-digit serial, the 20-digit validation code
//! (see [`crate::validation`]), the way id and the prize in currency units.
//!
//! It holds no face; `tickets.csv` holds no code; `tickets.bin` holds no prize.

use super::Ticket;
use crate::spec::GameSpec;
use crate::validation;

/// Column names, in order.
pub const COLUMNS: [&str; 4] = ["serial", "validation_code", "way", "prize"];

/// The header row, with its terminator.
pub fn header() -> Vec<u8> {
    let mut h = COLUMNS.join(",").into_bytes();
    h.push(b'\n');
    h
}

/// Renders validation rows into a buffer (the same for `generate` and `verify`).
pub struct RowWriter {
    /// `,way,prize\n` of every way, by way id (ids and prizes never need quoting).
    tails: Vec<Vec<u8>>,
    buf: Vec<u8>,
}

impl RowWriter {
    /// A writer for `spec`'s rows.
    pub fn new(spec: &GameSpec) -> Self {
        RowWriter {
            tails: spec
                .ways
                .iter()
                .map(|w| format!(",{},{}\n", w.id, w.amount).into_bytes())
                .collect(),
            buf: Vec::with_capacity(1 << 14),
        }
    }

    /// Appends the row of `t`.
    pub fn push(&mut self, t: &Ticket) {
        self.buf.extend_from_slice(&t.serial);
        self.buf.push(b',');
        self.buf
            .extend_from_slice(&validation::format(t.validation));
        self.buf.extend_from_slice(&self.tails[t.way as usize]);
    }

    /// The bytes rendered since the last clear.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Forgets the rendered bytes.
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// Takes the rendered bytes out (the next rows go to a new buffer of the same capacity).
    pub fn take(&mut self) -> Vec<u8> {
        let cap = self.buf.capacity();
        std::mem::replace(&mut self.buf, Vec::with_capacity(cap))
    }
}
