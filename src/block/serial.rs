//! Ticket serials: `GGGG EEE BBB PPPPPP TTT C`, 20 decimal digits.
//!
//! `GGGG` game code, `EEE` emission, `BBB` block, `PPPPPP` pack (1-based), `TTT` position in
//! the pack (1-based), `C` a Luhn (ISO/IEC 7812-1 annex B) check digit over the 19 digits
//! before it. Every field is fixed width, so two tickets of one emission share a serial only
//! if they share block, pack and position: serials are unique across the emission by
//! construction. The 20 digits are also the Interleaved 2 of 5 barcode payload (an even
//! number of digits, as I2of5 requires). The serial is printed in the clear and carries no
//! information about the prize.

/// Digits in a serial.
pub const LEN: usize = 20;

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

/// The serial of one ticket, as 20 ASCII digits. Fields wider than their digits are a caller
/// bug (the spec check bounds them) and panic.
pub fn serial(game_code: u16, emission: u16, block: u32, pack: u32, position: u32) -> [u8; LEN] {
    assert!(
        game_code <= 9999 && emission <= 999 && block <= 999 && pack <= 999_999 && position <= 999
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
    put(10, 6, u64::from(pack));
    put(16, 3, u64::from(position));
    out[LEN - 1] = luhn_digit(&out[..LEN - 1]);
    out
}

/// Serials of the tickets of one pack, computed from the pack's fixed digits once.
pub struct PackSerials {
    digits: [u8; LEN],
    /// Luhn sum of the first 16 digits (their weights do not depend on the position).
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
    /// The serials of pack `pack` of `block` (see [`serial`] for the bounds).
    pub fn new(game_code: u16, emission: u16, block: u32, pack: u32) -> PackSerials {
        let digits = serial(game_code, emission, block, pack, 0);
        let partial = digits[..16]
            .iter()
            .enumerate()
            .map(|(i, &d)| luhn_term(i, d))
            .sum();
        PackSerials { digits, partial }
    }

    /// The serial of position `position` (1..=999) in the pack; equal to [`serial`].
    pub fn at(&self, position: u32) -> [u8; LEN] {
        debug_assert!(position <= 999);
        let mut s = self.digits;
        s[16] = b'0' + (position / 100) as u8;
        s[17] = b'0' + (position / 10 % 10) as u8;
        s[18] = b'0' + (position % 10) as u8;
        let sum = self.partial + (16..19).map(|i| luhn_term(i, s[i])).sum::<u32>();
        s[LEN - 1] = b'0' + ((10 - sum % 10) % 10) as u8;
        s
    }
}

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
        let s = serial(2017, 1, 1, 30000, 150);
        assert_eq!(&s[..19], b"2017001001030000150");
        assert!(is_valid(&s));
    }

    #[test]
    fn pack_serials_equal_serial() {
        for pack in [1, 2, 999_999] {
            let p = PackSerials::new(1703, 12, 345, pack);
            for pos in [1, 2, 9, 10, 99, 150, 999] {
                assert_eq!(p.at(pos), serial(1703, 12, 345, pack, pos));
            }
        }
    }

    #[test]
    fn any_single_digit_change_is_caught() {
        let s = serial(12, 3, 4, 5, 6);
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
