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
