//! `validation.csv`: for the central system that pays tickets — the one file that maps a
//! ticket to its prize, and one that reveals nothing without the ticket in hand.
//!
//! One row per ticket, sorted by claim (never in print order, which would place every
//! winner): `claim,way,prize` — the claim is 32 hex digits, the first 128 bits of
//! SHA-256(`"tirage/v1/claim"` ‖ 0x00 ‖ serial (20 ASCII digits) ‖ validation code (19
//! ASCII digits)); then the way id and the prize in currency units. No serial, pack or
//! position stands in the file: a leaked copy tells which prizes the block holds (the lot
//! table says as much) but not which unsold ticket holds them, since a claim is computed
//! only from the code under the scratch layer (about 2^63 candidates for each serial).
//!
//! A terminal validates a ticket by reading its serial (barcode) and its validation code,
//! computing the claim and looking it up: found, it pays the row's prize (0 for a loser);
//! not found, the code is wrong or the ticket forged. docs/FORMAT.md gives the threat model.
//!
//! It holds no face; `tickets.csv` holds no code; `tickets.bin` holds no prize.

use crate::serial;
use crate::spec::{GameSpec, WayId};
use crate::validation;
use sha2::{Digest, Sha256};

/// Column names, in order.
pub const COLUMNS: [&str; 3] = ["claim", "way", "prize"];

/// Bytes of a claim (printed as twice as many hex digits).
pub const CLAIM_BYTES: usize = 16;

/// The header row, with its terminator.
pub fn header() -> Vec<u8> {
    let mut h = COLUMNS.join(",").into_bytes();
    h.push(b'\n');
    h
}

/// The claim of the ticket with `serial` and validation code `code`.
pub fn claim(serial: &[u8; serial::LEN], code: u64) -> [u8; CLAIM_BYTES] {
    let mut h = Sha256::new();
    h.update(b"tirage/v1/claim\0");
    h.update(serial);
    h.update(validation::format(code));
    let d = h.finalize();
    let mut c = [0u8; CLAIM_BYTES];
    c.copy_from_slice(&d[..CLAIM_BYTES]);
    c
}

/// One row before rendering: a ticket's claim and way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Row {
    /// The claim ([`claim`]).
    pub claim: [u8; CLAIM_BYTES],
    /// The way the ticket realises.
    pub way: WayId,
}

/// Renders rows (already sorted) into text.
pub struct RowWriter {
    /// `,way,prize\n` of every way, by way id (ids and prizes never need quoting).
    tails: Vec<Vec<u8>>,
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
        }
    }

    /// Appends the text of `row` to `buf`.
    pub fn push(&self, buf: &mut Vec<u8>, row: &Row) {
        let mut hexed = [0u8; 2 * CLAIM_BYTES];
        hex::encode_to_slice(row.claim, &mut hexed).expect("twice the bytes");
        buf.extend_from_slice(&hexed);
        buf.extend_from_slice(&self.tails[row.way as usize]);
    }
}

/// Sorts `rows` into file order: by claim (then way, so that the order is total), on the
/// current rayon pool (the order is the same for any number of threads).
pub fn sort(rows: &mut [Row]) {
    use rayon::slice::ParallelSliceMut;
    rows.par_sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_known_vector() {
        // sha256(b"tirage/v1/claim\0" + b"20170010010000010017" + b"0000000000000000042")
        // with Python's hashlib, first 16 bytes.
        let serial = *b"20170010010000010017";
        assert_eq!(
            hex::encode(claim(&serial, 42)),
            "fbdd8646aaddee07c6284454c16d6d47"
        );
        assert_ne!(claim(&serial, 42), claim(&serial, 43));
    }
}
