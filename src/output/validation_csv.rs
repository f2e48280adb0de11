//! `validation.csv`: for the central system that pays tickets — the one file that maps a
//! ticket to its prize, and one that reveals nothing without the ticket in hand.
//!
//! One row per ticket, sorted by claim (never in print order, which would place every
//! winner): `claim,way,prize` (then `item` when a tier's prize is not money: its item,
//! empty for cash) — the claim is 32 hex digits, the first 128 bits of
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

use crate::block::serial;
use crate::crypto::validation;
use crate::spec::{GameSpec, WayId};

/// Column names, in order.
pub const COLUMNS: [&str; 3] = ["claim", "way", "prize"];

/// Column names when a tier's prize is not money: `item` (the prize printed, `FREE
/// TICKET`; empty for cash and losers) follows, and `prize` holds the item's stated value.
pub const ITEM_COLUMNS: [&str; 4] = ["claim", "way", "prize", "item"];

/// Bytes of a claim (printed as twice as many hex digits).
pub const CLAIM_BYTES: usize = 16;

/// The column names of a block whose lot table has items (`items`) or not.
pub fn columns(items: bool) -> &'static [&'static str] {
    if items {
        &ITEM_COLUMNS
    } else {
        &COLUMNS
    }
}

/// The header row of `spec`'s file, with its terminator.
pub fn header(spec: &GameSpec) -> Vec<u8> {
    let mut h = columns(spec.has_items()).join(",").into_bytes();
    h.push(b'\n');
    h
}

/// The first bytes of every claim's message: its domain, then a zero byte.
const CLAIM_DOMAIN: &[u8; 16] = b"tirage/v1/claim\0";

/// Bytes of a claim's message: the domain, the serial and the code's digits.
const CLAIM_MESSAGE: usize = CLAIM_DOMAIN.len() + serial::LEN + validation::DIGITS;

/// SHA-256's initial hash value (FIPS 180-4, section 5.3.3).
const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// The claim of the ticket with `serial` and validation code `code`: the first
/// [`CLAIM_BYTES`] of SHA-256 of its message. The message (55 bytes) and SHA-256's padding
/// (FIPS 180-4, section 5.1.1: a 0x80 byte, zeros, the length in bits on 8 bytes) fill one
/// 64-byte block, compressed once from the initial hash value. The block is put together
/// from 16-byte pieces (the domain, the serial's first 16 bytes, then two of words made in
/// registers), so that the compression's 16-byte reads of it do not wait on many small
/// stores of bytes.
pub fn claim(serial: &[u8; serial::LEN], code: u64) -> [u8; CLAIM_BYTES] {
    const _: () = assert!(CLAIM_MESSAGE + 9 == 64 && serial::LEN == 20);
    let (head, middle, tail) = validation::digits(code);
    let serial_end = u32::from_le_bytes([serial[16], serial[17], serial[18], serial[19]]);
    // Bytes 32..48: the serial's last 4, the code's first 3 digits, 8 more, then 1.
    let third = [
        u64::from(serial_end) | (u64::from(head) << 32) | (middle << 56),
        (middle >> 8) | (tail << 56),
    ];
    // Bytes 48..64: the code's last 7 digits, 0x80, the message's length in bits.
    let fourth = [
        (tail >> 8) | (0x80 << 56),
        (CLAIM_MESSAGE as u64 * 8).swap_bytes(),
    ];
    let mut block = [0u8; 64];
    block[..16].copy_from_slice(CLAIM_DOMAIN);
    block[16..32].copy_from_slice(&serial[..16]);
    block[32..48].copy_from_slice(&words(third));
    block[48..].copy_from_slice(&words(fourth));
    let mut state = SHA256_IV;
    sha2::compress256(&mut state, &[block.into()]);
    let mut c = [0u8; CLAIM_BYTES];
    for (out, word) in c.chunks_exact_mut(4).zip(state) {
        out.copy_from_slice(&word.to_be_bytes());
    }
    c
}

/// The 16 little-endian bytes of two words, the first first.
fn words([a, b]: [u64; 2]) -> [u8; 16] {
    (u128::from(a) | (u128::from(b) << 64)).to_le_bytes()
}

/// One row before rendering: a ticket's claim and way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Row {
    /// The claim ([`claim`]).
    pub claim: [u8; CLAIM_BYTES],
    /// The way the ticket realises.
    pub way: WayId,
}

impl Row {
    /// The row's place in file order as two integers: its claim read big-endian, then its
    /// way. They compare as the rows do (claim byte by byte, then way), without a call to
    /// `memcmp` per comparison.
    #[inline]
    fn key(&self) -> (u128, WayId) {
        (u128::from_be_bytes(self.claim), self.way)
    }
}

/// Renders rows (already sorted) into text.
pub struct RowWriter {
    /// `,way,prize\n` of every way, by way id (ids and prizes never need quoting).
    tails: Vec<Tail>,
}

/// Bytes of a [`Tail`] appended by one fixed-size copy.
const TAIL: usize = 32;

/// The text of a row after its claim, padded to [`TAIL`] bytes when it fits, so that
/// appending it is one fixed-size copy (a longer one is appended as it is).
struct Tail {
    padded: [u8; TAIL],
    bytes: Vec<u8>,
}

impl Tail {
    fn new(bytes: Vec<u8>) -> Tail {
        let mut padded = [0u8; TAIL];
        if bytes.len() <= TAIL {
            padded[..bytes.len()].copy_from_slice(&bytes);
        }
        Tail { padded, bytes }
    }

    #[inline(always)]
    fn append_to(&self, buf: &mut Vec<u8>) {
        let len = self.bytes.len();
        if len <= TAIL {
            super::tickets_csv::append_padded(buf, &self.padded, len);
        } else {
            buf.extend_from_slice(&self.bytes);
        }
    }
}

/// The two lowercase hex digits of every byte, by byte.
const HEX_PAIRS: [[u8; 2]; 256] = {
    let digits = b"0123456789abcdef";
    let mut pairs = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        pairs[b] = [digits[b >> 4], digits[b & 15]];
        b += 1;
    }
    pairs
};

/// `claim` in lowercase hexadecimal, two digits a byte from [`HEX_PAIRS`]: the first
/// field of its `validation.csv` row.
#[inline(always)]
fn hexed(claim: &[u8; CLAIM_BYTES]) -> [u8; 2 * CLAIM_BYTES] {
    let mut text = [0u8; 2 * CLAIM_BYTES];
    for (pair, &b) in text.chunks_exact_mut(2).zip(claim) {
        pair.copy_from_slice(&HEX_PAIRS[usize::from(b)]);
    }
    text
}

/// The claim a row of the file begins with (32 lowercase hex digits, then a comma); `None`
/// when the line does not begin so.
pub fn claim_of(line: &[u8]) -> Option<[u8; CLAIM_BYTES]> {
    let (text, rest) = line.split_first_chunk::<{ 2 * CLAIM_BYTES }>()?;
    if rest.first() != Some(&b',') || text.iter().any(u8::is_ascii_uppercase) {
        return None;
    }
    let mut claim = [0u8; CLAIM_BYTES];
    hex::decode_to_slice(text, &mut claim).ok()?;
    Some(claim)
}

impl RowWriter {
    /// A writer for `spec`'s rows.
    pub fn new(spec: &GameSpec) -> Self {
        RowWriter {
            tails: spec
                .ways
                .iter()
                .map(|w| {
                    let item = w.tier.and_then(|t| spec.tiers[t].item.as_deref());
                    Tail::new(
                        match (spec.has_items(), item) {
                            (false, _) => format!(",{},{}\n", w.id, w.amount),
                            (true, item) => {
                                format!(",{},{},{}\n", w.id, w.amount, item.unwrap_or(""))
                            }
                        }
                        .into_bytes(),
                    )
                })
                .collect(),
        }
    }

    /// Appends the text of `row` to `buf`.
    pub fn push(&self, buf: &mut Vec<u8>, row: &Row) {
        buf.extend_from_slice(&hexed(&row.claim));
        self.tails[row.way as usize].append_to(buf);
    }

    /// True when `line` (with its `\n`) is the text [`RowWriter::push`] appends for `row`.
    /// Renders nothing: the claim is compared in hexadecimal, then the rest.
    pub fn matches(&self, line: &[u8], row: &Row) -> bool {
        match line.split_first_chunk::<{ 2 * CLAIM_BYTES }>() {
            Some((claim, tail)) => {
                *claim == hexed(&row.claim) && tail == self.tails[row.way as usize].bytes
            }
            None => false,
        }
    }
}

/// A block's rows, gathered in groups by their claim's first byte as they come (in any
/// order), then put in file order by [`Claims::sort`]: by claim, then way, so that the
/// order is total. Claims are uniform, so the 256 groups are of about equal size and are
/// sorted, and rendered, in parallel.
pub struct Claims {
    /// `groups[b]`: the rows whose claim starts with byte `b`.
    groups: Vec<Vec<Row>>,
}

impl Claims {
    /// No rows yet, room for about `rows` of them (claims spread evenly over the groups).
    pub fn with_capacity(rows: usize) -> Claims {
        let each = rows / 256 + rows / 4096 + 64;
        Claims {
            groups: (0..256).map(|_| Vec::with_capacity(each)).collect(),
        }
    }

    /// Adds `rows`, each to the group of its claim's first byte.
    pub fn extend(&mut self, rows: &[Row]) {
        for r in rows {
            self.groups[usize::from(r.claim[0])].push(*r);
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }

    /// True when there is no row.
    pub fn is_empty(&self) -> bool {
        self.groups.iter().all(Vec::is_empty)
    }

    /// Puts the rows in file order, on the current rayon pool (the same order for any
    /// number of threads): each group by a radix sort in place on the claim's next bytes
    /// (a block of 4.5 M rows leaves about 70 rows per 16-bit prefix); only the rows
    /// sharing two leading bytes are compared.
    pub fn sort(&mut self) {
        use rayon::prelude::*;
        self.groups
            .par_iter_mut()
            .for_each(|group| radix_sort(group, 1));
    }

    /// The groups, in order of their first byte: once sorted, their rows one after the
    /// other are the file's.
    pub fn groups(&self) -> &[Vec<Row>] {
        &self.groups
    }

    /// Every row, group after group (in file order once sorted).
    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        self.groups.iter().flatten()
    }
}

/// Below this many rows a group is sorted by comparison.
const SMALL_GROUP: usize = 64;

/// Sorts `rows`, all of which share their first `byte` bytes of claim.
fn radix_sort(rows: &mut [Row], byte: usize) {
    if rows.len() <= SMALL_GROUP || byte == CLAIM_BYTES {
        rows.sort_unstable_by_key(Row::key);
        return;
    }
    for group in radix_pass(rows, byte) {
        radix_sort(group, byte + 1);
    }
}

/// Puts `rows` in order of their claim's byte `byte` (in place, American flag sort: each
/// row swapped straight into its group) and returns the groups that hold more than one row.
fn radix_pass(rows: &mut [Row], byte: usize) -> Vec<&mut [Row]> {
    let mut counts = [0usize; 256];
    for r in rows.iter() {
        counts[usize::from(r.claim[byte])] += 1;
    }
    let (mut next, mut ends) = ([0usize; 256], [0usize; 256]);
    let mut at = 0;
    for d in 0..256 {
        next[d] = at;
        at += counts[d];
        ends[d] = at;
    }
    for d in 0..256 {
        while next[d] < ends[d] {
            let to = usize::from(rows[next[d]].claim[byte]);
            if to == d {
                next[d] += 1;
            } else {
                rows.swap(next[d], next[to]);
                next[to] += 1;
            }
        }
    }
    let mut groups = Vec::new();
    let mut rest = rows;
    for n in counts {
        let (group, tail) = rest.split_at_mut(n);
        if n > 1 {
            groups.push(group);
        }
        rest = tail;
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The radix sort puts rows in the order of a comparison sort: uniform claims (a
    /// block's), claims sharing long prefixes (every level of the recursion, down to rows
    /// equal in every byte and told apart by their way), exact duplicates, and few rows.
    #[test]
    fn claims_sort_as_a_comparison_sort_does() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut rows: Vec<Row> = Vec::new();
        for _ in 0..50_000 {
            let mut claim = [0u8; CLAIM_BYTES];
            claim[..8].copy_from_slice(&next().to_le_bytes());
            claim[8..].copy_from_slice(&next().to_le_bytes());
            rows.push(Row {
                claim,
                way: (next() % 7) as WayId,
            });
        }
        // 3 000 rows sharing 15 leading bytes, some sharing all 16, then exact copies.
        for k in 0..3_000u64 {
            let mut claim = [0xab; CLAIM_BYTES];
            claim[15] = (next() % 4) as u8;
            rows.push(Row {
                claim,
                way: (k % 300) as WayId,
            });
        }
        let copies: Vec<Row> = rows[..500].to_vec();
        rows.extend(copies);
        for n in [0, 1, 2, 65, 1_000, rows.len()] {
            let mut claims = Claims::with_capacity(n / 2);
            for part in rows[..n].chunks(777) {
                claims.extend(part);
            }
            claims.sort();
            let ours: Vec<Row> = claims.rows().copied().collect();
            let mut want = rows[..n].to_vec();
            want.sort();
            assert_eq!(claims.len(), n);
            assert!(ours == want, "{n} rows");
        }
    }

    /// A claim is SHA-256 over its whole message, the code written on 19 digits, for codes
    /// of every length (leading zeros) and serials of every digit.
    #[test]
    fn claim_is_the_sha256_of_its_message() {
        use sha2::{Digest, Sha256};
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for k in 0..2_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let code = match k % 4 {
                0 => x % 10_000_000_000_000_000_000,
                1 => x % 1_000,
                2 => 9_999_999_999_999_999_999,
                _ => k,
            };
            let mut serial = [b'0'; serial::LEN];
            for (i, d) in serial.iter_mut().enumerate() {
                *d = b'0' + ((x >> (i * 3)) % 10) as u8;
            }
            let mut h = Sha256::new();
            h.update(b"tirage/v1/claim\0");
            h.update(serial);
            h.update(format!("{code:019}"));
            assert_eq!(
                claim(&serial, code)[..],
                h.finalize()[..CLAIM_BYTES],
                "{code}"
            );
        }
    }

    /// A row is its claim in lowercase hex, then its way's tail, whether that tail is
    /// copied padded or, longer than [`TAIL`], as it is.
    #[test]
    fn rows_are_the_claim_in_hex_then_the_tail() {
        let rows = RowWriter {
            tails: vec![
                Tail::new(b",lose,0\n".to_vec()),
                Tail::new(format!(",{},5000\n", "w".repeat(40)).into_bytes()),
            ],
        };
        let mut buf = Vec::new();
        for (b, way) in [(0x00u8, 0), (0x9f, 1), (0xff, 0), (0x5a, 1)] {
            let mut claim = [b; CLAIM_BYTES];
            claim[3] = 0xc7;
            let row = Row { claim, way };
            let start = buf.len();
            rows.push(&mut buf, &row);
            let tail = [
                ",lose,0\n".to_string(),
                format!(",{},5000\n", "w".repeat(40)),
            ];
            let want = format!("{}{}", hex::encode(claim), tail[usize::from(way)]);
            assert_eq!(String::from_utf8_lossy(&buf[start..]), want);
        }
    }

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

    /// A row matches exactly the text `push` appends for it: every byte changed, a byte
    /// short or more, a carriage return, another way's text, each fails.
    #[test]
    fn a_row_matches_exactly_what_push_renders() {
        let spec = GameSpec::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_small.toml"),
        )
        .unwrap();
        let w = RowWriter::new(&spec);
        for way in 0..spec.ways.len() as WayId {
            let row = Row {
                claim: std::array::from_fn(|k| (k as u8).wrapping_mul(37).wrapping_add(way as u8)),
                way,
            };
            let mut text = Vec::new();
            w.push(&mut text, &row);
            assert!(w.matches(&text, &row));
            let mut other = text.clone();
            for k in 0..text.len() {
                for b in [b'0', b'a', b',', b'\r', b'\n', text[k] ^ 1] {
                    other[k] = b;
                    assert_eq!(w.matches(&other, &row), b == text[k], "byte {k} made {b}");
                }
                other[k] = text[k];
            }
            let short = text[..text.len() - 1].to_vec();
            for changed in [
                short.clone(),
                [&text[..], b"\n"].concat(),
                [&short[..], b"\r\n"].concat(),
                Vec::new(),
            ] {
                assert!(!w.matches(&changed, &row), "{changed:?}");
            }
            let next = Row {
                way: (way + 1) % spec.ways.len() as WayId,
                ..row
            };
            assert!(!w.matches(&text, &next));
        }
    }
}
