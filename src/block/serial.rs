//! Ticket serials: `GGGG EEE BBB PPPPPP TTT C`, 20 decimal digits.
//!
//! `GGGG` game code, `EEE` emission, `BBB` block, then 9 digits for the pack (1-based) and
//! the position in the pack (1-based), `C` a Luhn (ISO/IEC 7812-1 annex B) check digit over
//! the 19 digits before it. The position takes 3 digits (`PPPPPP TTT`) when a pack holds at
//! most 999 tickets, and as many digits as the pack size has when it holds more (a box of
//! 4 000 pull-tabs: `PPPPP TTTT`, at most 99 999 packs); the pack takes the rest
//! ([`position_digits`]). The split is fixed by the spec's `pack_size`, the same for every
//! block of the game, so two tickets of one emission share a serial only if they share
//! block, pack and position: serials are unique across the emission by construction. The 20 digits are also the Interleaved 2 of 5 barcode payload (an even
//! number of digits, as I2of5 requires). The serial is printed in the clear and carries no
//! information about the prize.

/// Digits in a serial.
pub const LEN: usize = 20;

pub use crate::spec::{max_packs, position_digits, PLACE_DIGITS};

/// The largest block number a serial writes (its three `BBB` digits).
pub const MAX_BLOCK: u32 = 999;

/// The pack and the position a serial writes, read with the split of packs of
/// `pack_size` tickets ([`position_digits`]); no check of the Luhn digit.
pub fn place(serial: &[u8; LEN], pack_size: u32) -> (u64, u64) {
    let w = position_digits(pack_size).min(PLACE_DIGITS);
    let number = |d: &[u8]| {
        d.iter()
            .fold(0u64, |n, &b| n * 10 + u64::from(b.wrapping_sub(b'0') % 10))
    };
    (
        number(&serial[10..LEN - 1 - w]),
        number(&serial[LEN - 1 - w..LEN - 1]),
    )
}

/// The Luhn check digit of `digits` (ASCII `0`–`9`): the digit that makes the whole
/// number pass the Luhn test.
pub fn luhn_digit(digits: &[u8]) -> u8 {
    let mut sum = 0u32;
    for (i, &d) in digits.iter().rev().enumerate() {
        let mut v = u32::from(d - b'0');
        if i % 2 == 0 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
    }
    b'0' + ((10 - sum % 10) % 10) as u8
}

/// True when `serial` is 20 digits whose last is the Luhn digit of the others.
pub fn is_valid(serial: &[u8]) -> bool {
    serial.len() == LEN
        && serial.iter().all(u8::is_ascii_digit)
        && luhn_digit(&serial[..LEN - 1]) == serial[LEN - 1]
}

/// The serial of one ticket of a game whose packs hold `pack_size` tickets, as 20 ASCII
/// digits. Fields wider than their digits are a caller bug (the spec check bounds them) and
/// panic.
pub fn serial(
    game_code: u16,
    emission: u16,
    block: u32,
    pack: u32,
    position: u32,
    pack_size: u32,
) -> [u8; LEN] {
    let w = position_digits(pack_size);
    assert!(
        game_code <= 9999
            && emission <= 999
            && block <= MAX_BLOCK
            && u64::from(pack) <= max_packs(pack_size)
            && u64::from(position) < 10u64.pow(w as u32)
    );
    let mut out = [0u8; LEN];
    let mut put = |at: usize, width: usize, mut v: u64| {
        for k in (at..at + width).rev() {
            out[k] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    };
    put(0, 4, u64::from(game_code));
    put(4, 3, u64::from(emission));
    put(7, 3, u64::from(block));
    put(10, PLACE_DIGITS - w, u64::from(pack));
    put(LEN - 1 - w, w, u64::from(position));
    out[LEN - 1] = luhn_digit(&out[..LEN - 1]);
    out
}

/// Serials of the tickets of one pack, computed from the pack's fixed digits once.
pub struct PackSerials {
    digits: [u8; LEN],
    /// Index of the position's first digit.
    from: usize,
    /// Luhn sum of the digits before the position (their weights do not depend on it).
    partial: u32,
}

/// Luhn weight of the digit at `index` (0-based from the left) of the 19 data digits.
fn luhn_term(index: usize, d: u8) -> u32 {
    let v = u32::from(d - b'0');
    if (LEN - 2 - index) % 2 == 0 {
        let v = v * 2;
        if v > 9 {
            v - 9
        } else {
            v
        }
    } else {
        v
    }
}

impl PackSerials {
    /// The serials of pack `pack` of `block`, packs holding `pack_size` tickets (see
    /// [`serial`] for the bounds).
    pub fn new(
        game_code: u16,
        emission: u16,
        block: u32,
        pack: u32,
        pack_size: u32,
    ) -> PackSerials {
        let digits = serial(game_code, emission, block, pack, 0, pack_size);
        let from = LEN - 1 - position_digits(pack_size);
        let partial = digits[..from]
            .iter()
            .enumerate()
            .map(|(i, &d)| luhn_term(i, d))
            .sum();
        PackSerials {
            digits,
            from,
            partial,
        }
    }

    /// The serial of position `position` (1-based, below 10 to the power of the position's
    /// digits) in the pack; equal to [`serial`]. The position's digits are written and
    /// added to the Luhn sum in one pass from the right, where the doubled digits are the
    /// first, third, … (the check digit's place follows them).
    pub fn at(&self, position: u32) -> [u8; LEN] {
        let mut s = self.digits;
        let (mut v, mut sum, mut doubled) = (position, self.partial, true);
        for k in (self.from..LEN - 1).rev() {
            let d = (v % 10) as u8;
            v /= 10;
            s[k] = b'0' + d;
            sum += u32::from(if doubled { DOUBLED[d as usize] } else { d });
            doubled = !doubled;
        }
        debug_assert_eq!(v, 0, "position wider than its field");
        s[LEN - 1] = b'0' + ((10 - sum % 10) % 10) as u8;
        s
    }
}

/// A digit's Luhn term where it is doubled: 2d, less 9 when that is above 9.
const DOUBLED: [u8; 10] = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luhn_known_vectors() {
        // Classic vectors: 7992739871 → 3; 4539 3195 0343 646 → 7 (a valid Visa test number).
        assert_eq!(luhn_digit(b"7992739871"), b'3');
        assert_eq!(luhn_digit(b"453931950343646"), b'7');
        assert_eq!(luhn_digit(b"0"), b'0');
    }

    #[test]
    fn serial_layout() {
        let s = serial(2017, 1, 1, 30000, 150, 150);
        assert_eq!(&s[..19], b"2017001001030000150");
        assert!(is_valid(&s));
        assert_eq!(place(&s, 150), (30000, 150));
        // Packs of up to 999 tickets: 6 pack digits, 3 position digits, whatever the size.
        assert_eq!(serial(2017, 1, 1, 30000, 150, 999), s);
        assert_eq!(
            serial(2017, 1, 1, 30000, 1, 1)[..19],
            *b"2017001001030000001"
        );
    }

    #[test]
    fn a_box_of_4000_takes_four_position_digits_and_five_pack_digits() {
        let s = serial(2017, 1, 1, 12, 3999, 4000);
        assert_eq!(&s[..19], b"2017001001000123999");
        assert!(is_valid(&s));
        assert_eq!(place(&s, 4000), (12, 3999));
        assert_eq!(position_digits(4000), 4);
        assert_eq!(max_packs(4000), 99_999);
        assert_eq!(position_digits(999), 3);
        assert_eq!(max_packs(999), 999_999);
        assert_eq!(position_digits(1000), 4);
        assert_eq!(position_digits(10_000), 5);
        assert_eq!(max_packs(10_000), 9_999);
        assert_eq!(position_digits(5_000_000), 7);
        assert_eq!(max_packs(5_000_000), 99);
        assert_eq!(position_digits(0), 3);
    }

    #[test]
    fn pack_serials_equal_serial() {
        for (size, packs, positions) in [
            (150, [1, 2, 999_999], vec![1, 2, 9, 10, 99, 150, 999]),
            (
                4000,
                [1, 2, 99_999],
                vec![1, 2, 999, 1000, 3999, 4000, 9999],
            ),
            (5_000_000, [1, 2, 99], vec![1, 4_999_999, 5_000_000]),
        ] {
            for pack in packs {
                let p = PackSerials::new(1703, 12, 345, pack, size);
                for &pos in &positions {
                    let s = serial(1703, 12, 345, pack, pos, size);
                    assert_eq!(p.at(pos), s);
                    assert_eq!(place(&s, size), (u64::from(pack), u64::from(pos)));
                }
            }
        }
    }

    #[test]
    fn any_single_digit_change_is_caught() {
        let s = serial(12, 3, 4, 5, 6, 10);
        for i in 0..LEN {
            for d in b'0'..=b'9' {
                let mut t = s;
                if t[i] == d {
                    continue;
                }
                t[i] = d;
                assert!(!is_valid(&t), "change at {i} to {} not caught", d as char);
            }
        }
    }
}
