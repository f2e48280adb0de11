//! The leakage gate: nothing printed outside the scratch layer may predict a ticket's prize.
//!
//! What a player, a retailer or a printer sees without scratching is the ticket number, the
//! pack, the position in the pack and the serial (whose 20 digits are also the barcode
//! payload). For each such field, verify tallies a field value (its last digit, a bucket of
//! the pack position, the serial's check digit, …) against win / lose on every ticket, then
//! measures the association: Pearson's chi-square test of independence with its p-value, and
//! the mutual information in bits beside what an independent field of the same shape shows
//! on average. In an honest block all these fields are fixed by the print position, and the
//! positions of the winners are a uniform random arrangement, so each test has a uniform
//! p-value.
//!
//! Decision: p < [`GATE_P`] (one in a million) **fails** the gate — a finding: verify
//! exits with status 1. An exact leak (say, a check digit that is the win flag) gives p ≈ 0 on any block of a
//! few hundred tickets, while an honest block fails with probability 10⁻⁶ per field. A p
//! below [`crate::alloc::stats::FLAG_P`] (1 %) but above the gate is an *exception*: reported, not failed.
//! The association with the pack number itself is the randomness test "winners per pack".

use crate::alloc::stats::association;
use crate::block::serial::LEN;
use serde::Serialize;

/// The gate: a field whose association with win / lose has a p-value below this fails.
pub const GATE_P: f64 = 1e-6;

/// Values each field is reduced to.
pub const LEVELS: usize = 10;

/// A field printed outside the scratch layer, reduced to one of [`LEVELS`] values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Last digit of the ticket number (position in the block).
    TicketLastDigit,
    /// Last digit of the pack number.
    PackLastDigit,
    /// Position in the pack, in ten equal buckets (first tenth of the pack … last tenth).
    PackPositionBucket,
    /// Last digit of the position in the pack.
    PackPositionLastDigit,
    /// The serial's check digit (its last digit, also the barcode's last digit).
    SerialCheckDigit,
    /// Sum of the serial's 20 digits (the barcode payload) modulo 10.
    SerialDigitSum,
}

impl Field {
    /// Every field, in report order.
    pub const ALL: [Field; 6] = [
        Field::TicketLastDigit,
        Field::PackLastDigit,
        Field::PackPositionBucket,
        Field::PackPositionLastDigit,
        Field::SerialCheckDigit,
        Field::SerialDigitSum,
    ];

    /// Name in reports (snake case).
    pub fn name(self) -> &'static str {
        match self {
            Field::TicketLastDigit => "ticket_last_digit",
            Field::PackLastDigit => "pack_last_digit",
            Field::PackPositionBucket => "pack_position_tenth",
            Field::PackPositionLastDigit => "pack_position_last_digit",
            Field::SerialCheckDigit => "serial_check_digit",
            Field::SerialDigitSum => "serial_digit_sum_mod_10",
        }
    }

    /// What is measured, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Field::TicketLastDigit => "last digit of the ticket number",
            Field::PackLastDigit => "last digit of the pack number",
            Field::PackPositionBucket => "tenth of the pack the ticket sits in (position buckets)",
            Field::PackPositionLastDigit => "last digit of the position in the pack",
            Field::SerialCheckDigit => "check digit of the serial (last barcode digit)",
            Field::SerialDigitSum => "sum of the serial / barcode digits, modulo 10",
        }
    }
}

/// Win / lose counts per value of every [`Field`], accumulated ticket by ticket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pack_size: u32,
    /// `counts[field][value] = [winners, losers]`.
    counts: [[[u64; 2]; LEVELS]; 6],
}

/// The digit a serial's byte counts as: `b - '0'` modulo 10 (wrapping), so that a byte
/// that is no digit still counts as one of 0 to 9.
const fn digit(b: u8) -> u8 {
    b.wrapping_sub(b'0') % 10
}

/// [`digit`] of every byte, read from a table rather than computed (a serial's 20 bytes
/// are summed for every ticket of a block).
const DIGITS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = digit(b as u8);
        b += 1;
    }
    t
};

impl Tally {
    /// An empty tally for a block whose packs hold `pack_size` tickets.
    pub fn new(pack_size: u32) -> Tally {
        Tally {
            pack_size: pack_size.max(1),
            counts: [[[0; 2]; LEVELS]; 6],
        }
    }

    /// The value of every field for one ticket, from what is printed on it: ticket number,
    /// pack, position in the pack (all 1-based) and serial (ASCII digits).
    pub fn values(&self, ticket: u32, pack: u32, position: u32, serial: &[u8]) -> [usize; 6] {
        let bucket = (u64::from(position.saturating_sub(1)) * LEVELS as u64
            / u64::from(self.pack_size))
        .min(LEVELS as u64 - 1) as usize;
        [
            (ticket % 10) as usize,
            (pack % 10) as usize,
            bucket,
            (position % 10) as usize,
            serial
                .last()
                .map_or(0, |&b| usize::from(DIGITS[usize::from(b)])),
            serial
                .iter()
                .take(LEN)
                .map(|&b| usize::from(DIGITS[usize::from(b)]))
                .sum::<usize>()
                % 10,
        ]
    }

    /// Tickets counted so far (winners and losers).
    pub fn tickets(&self) -> u64 {
        self.counts[0].iter().flatten().sum()
    }

    /// Counts one ticket; `win` is true when its evaluated prize is not 0.
    pub fn add(&mut self, ticket: u32, pack: u32, position: u32, serial: &[u8], win: bool) {
        let v = self.values(ticket, pack, position, serial);
        let col = usize::from(!win);
        for (f, &x) in v.iter().enumerate() {
            self.counts[f][x][col] += 1;
        }
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &Tally) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            for (x, y) in a.iter_mut().zip(b) {
                x[0] += y[0];
                x[1] += y[1];
            }
        }
    }

    /// The association of each field with win / lose. When packs hold a multiple of 10
    /// tickets, the last digit of the position in the pack is the last digit of the ticket
    /// number: that field is `not run`, and says why ([`SAME_AS_TICKET`]), so that one test
    /// is not counted twice.
    pub fn results(&self) -> Vec<FieldResult> {
        let position_is_ticket = self.pack_size % 10 == 0;
        Field::ALL
            .iter()
            .zip(&self.counts)
            .map(|(&f, table)| {
                let again = f == Field::PackPositionLastDigit && position_is_ticket;
                let a = if again { None } else { association(table) };
                let result = match a {
                    None => "not run",
                    Some(a) if a.chi_square.p < GATE_P => "fail",
                    Some(a) if a.chi_square.p < crate::alloc::stats::FLAG_P => "exception",
                    Some(_) => "pass",
                };
                FieldResult {
                    field: f.name(),
                    measures: if again { SAME_AS_TICKET } else { f.describe() },
                    values: table.iter().filter(|r| r[0] + r[1] > 0).count(),
                    chi_square: a.map(|a| a.chi_square.statistic),
                    df: a.map(|a| a.chi_square.df),
                    p_value: a.map(|a| a.chi_square.p),
                    mi_bits: a.map(|a| a.mi_bits),
                    mi_baseline_bits: a.map(|a| a.mi_baseline_bits),
                    result,
                }
            })
            .collect()
    }
}

/// What [`Field::PackPositionLastDigit`] measures when packs hold a multiple of 10 tickets,
/// and why it is then `not run`.
pub const SAME_AS_TICKET: &str =
    "last digit of the position in the pack: the ticket number's (packs of a multiple of 10)";

/// The association of one printed field with win / lose.
#[derive(Clone, Debug, Serialize)]
pub struct FieldResult {
    /// Field name ([`Field::name`]).
    pub field: &'static str,
    /// What it is, in words.
    pub measures: &'static str,
    /// Distinct values that occur.
    pub values: usize,
    /// Pearson's X² of the values × {win, lose} table.
    pub chi_square: Option<f64>,
    /// Degrees of freedom (values − 1).
    pub df: Option<f64>,
    /// p-value of the test of independence.
    pub p_value: Option<f64>,
    /// Mutual information between the field and win / lose, bits.
    pub mi_bits: Option<f64>,
    /// Mean mutual information of an independent field of the same shape, bits.
    pub mi_baseline_bits: Option<f64>,
    /// `pass`, `exception` (p < 1 %), `fail` (p < 10⁻⁶: the gate fails), `not run`
    /// (every ticket wins, or every ticket loses, or the field takes one value, or it is
    /// the ticket number's last digit again: the position's, with packs of a multiple of
    /// 10 tickets).
    pub result: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::allocate;
    use crate::block::serial::serial;
    use crate::crypto::rng::Seed;
    use crate::spec::GameSpec;
    use std::path::Path;

    fn counts(s: &GameSpec) -> Vec<u32> {
        s.ways.iter().map(|w| w.count).collect()
    }

    fn small() -> GameSpec {
        GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_small.toml"))
            .unwrap()
    }

    /// Tallies a block whose winners come from the honest allocation, with serials from
    /// `serial_of(pack, position, win)`.
    fn tally_with(seed: u8, serial_of: impl Fn(u32, u32, bool) -> [u8; LEN]) -> Tally {
        let s = small();
        let ways = allocate(&counts(&s), &Seed([seed; 32]), 1);
        let mut t = Tally::new(s.pack_size);
        for (i, &w) in ways.iter().enumerate() {
            let i = i as u32;
            let (pack, pos) = (i / s.pack_size + 1, i % s.pack_size + 1);
            let win = w != 0;
            t.add(i + 1, pack, pos, &serial_of(pack, pos, win), win);
        }
        t
    }

    #[test]
    fn values_of_a_ticket() {
        let t = Tally::new(150);
        let s = serial(1703, 1, 1, 12, 150, 150);
        let sum = s.iter().map(|&b| usize::from(b - b'0')).sum::<usize>() % 10;
        assert_eq!(
            t.values(1800, 12, 150, &s),
            [0, 2, 9, 0, usize::from(s[19] - b'0'), sum]
        );
        assert_eq!(t.values(1, 1, 1, &s)[2], 0);
        assert_eq!(t.values(15, 1, 15, &s)[2], 0);
        assert_eq!(t.values(16, 1, 16, &s)[2], 1);
    }

    #[test]
    fn a_byte_that_is_no_digit_counts_as_its_distance_from_0_modulo_10() {
        let t = Tally::new(150);
        // 'A' is '0' + 17: 7. '/' is '0' − 1, 255 wrapping: 5. 0xFF is '0' + 207: 7.
        let mut s = *b"00000000000000000000";
        s[0] = b'A';
        s[1] = b'/';
        s[19] = 0xFF;
        assert_eq!(t.values(1, 1, 1, &s)[4..], [7, (7 + 5 + 7) % 10]);
        // Only the first 20 bytes are summed.
        let long = [&s[..], b"9"].concat();
        assert_eq!(t.values(1, 1, 1, &long)[4..], [9, 9]);
    }

    #[test]
    fn honest_serials_pass_the_gate() {
        for seed in 0..5 {
            let t = tally_with(seed, |pack, pos, _| serial(1703, 1, 1, pack, pos, 150));
            for r in t.results() {
                assert_ne!(r.result, "fail", "{r:?}");
                // Packs of 150: the position's last digit is the ticket number's.
                let twice = r.field == "pack_position_last_digit";
                assert_eq!(r.result == "not run", twice, "{r:?}");
            }
        }
    }

    /// The position's last digit is tested when packs hold no multiple of 10 tickets (it
    /// then differs from the ticket number's), and not when they do (the same test again).
    #[test]
    fn the_position_s_last_digit_is_tested_unless_it_is_the_ticket_number_s() {
        for (size, run) in [(150, false), (50, false), (25, true), (7, true)] {
            let mut t = Tally::new(size);
            for i in 0..2000u32 {
                let (pack, pos) = (i / size + 1, i % size + 1);
                t.add(i + 1, pack, pos, b"17030010010000010012", i % 7 == 0);
            }
            let r = t.results();
            let position = r
                .iter()
                .find(|r| r.field == "pack_position_last_digit")
                .unwrap();
            assert_eq!(position.p_value.is_some(), run, "{size}");
            let said = if run {
                "last digit of the position in the pack"
            } else {
                SAME_AS_TICKET
            };
            assert_eq!(position.measures, said, "{size}");
            let ticket = r.iter().find(|r| r.field == "ticket_last_digit").unwrap();
            assert!(ticket.p_value.is_some(), "{size}");
        }
    }

    /// A test-only leaky serial scheme: the check digit is the win flag. The gate fails on
    /// that field, and only on the fields it leaks through.
    #[test]
    fn a_check_digit_that_is_the_win_flag_fails_the_gate() {
        let t = tally_with(1, |pack, pos, win| {
            let mut s = serial(1703, 1, 1, pack, pos, 150);
            s[LEN - 1] = if win { b'1' } else { b'0' };
            s
        });
        let r = t.results();
        let check = r.iter().find(|r| r.field == "serial_check_digit").unwrap();
        assert_eq!(check.result, "fail");
        assert!(check.p_value.unwrap() < 1e-100);
        // Win share 919/3000: the field carries all of H(win) ≈ 0.889 bits.
        let p: f64 = 919.0 / 3000.0;
        let h = -(p * p.log2() + (1.0 - p) * (1.0 - p).log2());
        assert!((check.mi_bits.unwrap() - h).abs() < 1e-9);
        let ticket = r.iter().find(|r| r.field == "ticket_last_digit").unwrap();
        assert_ne!(ticket.result, "fail");
    }

    /// A subtler leak: winners' serials get an even check digit one time in two more
    /// often than chance (the digit sum shifts) — still caught on 3 000 tickets.
    #[test]
    fn a_partial_leak_through_the_digit_sum_is_caught() {
        let t = tally_with(2, |pack, pos, win| {
            let mut s = serial(1703, 1, 1, pack, pos, 150);
            if win {
                s[LEN - 1] = b'0' + (s[LEN - 1] - b'0') / 2 * 2;
            }
            s
        });
        let r = t.results();
        let check = r.iter().find(|r| r.field == "serial_check_digit").unwrap();
        assert_eq!(check.result, "fail", "{check:?}");
    }

    #[test]
    fn merge_adds_counts() {
        let s = serial(1703, 1, 1, 1, 1, 150);
        let mut a = Tally::new(150);
        a.add(1, 1, 1, &s, true);
        let mut b = Tally::new(150);
        b.add(2, 1, 2, &s, false);
        a.merge(&b);
        let mut c = Tally::new(150);
        c.add(1, 1, 1, &s, true);
        c.add(2, 1, 2, &s, false);
        assert_eq!(a, c);
    }
}
