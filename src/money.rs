//! Amounts of money in integer cents.
//!
//! Every amount in tirage (ticket price, lot amounts, GAIN boxes, payouts) is a [`Money`]:
//! a whole number of cents of the spec's currency. Parsing accepts the forms a game team
//! writes (`20000`, `4.5`, `4,50`, `20 000`); display is the plain decimal used in every
//! file (`20000`, `4.5`): no thousands separator, no trailing zero, no currency sign.

use std::fmt;
use std::str::FromStr;

/// An amount in integer cents (`Money(250)` is 2.50 units of the currency).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(pub u64);

/// Why a text is not an amount.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// Empty text, or text that is not digits with at most one decimal separator.
    #[error(
        "`{0}` is not an amount (expected digits with at most 2 decimals, e.g. 20000, 4.5 or 4,50)"
    )]
    Syntax(String),
    /// More than two decimals: cents are the smallest unit.
    #[error("`{0}` has more than 2 decimals")]
    TooPrecise(String),
    /// The amount does not fit in 64 bits of cents.
    #[error("`{0}` is too large")]
    Overflow(String),
}

impl Money {
    /// Zero.
    pub const ZERO: Money = Money(0);

    /// `units` whole currency units (euros), as cents.
    pub const fn units(units: u64) -> Money {
        Money(units * 100)
    }

    /// The amount in cents.
    pub const fn cents(self) -> u64 {
        self.0
    }

    /// Sum, or `None` on overflow.
    pub fn checked_add(self, other: Money) -> Option<Money> {
        self.0.checked_add(other.0).map(Money)
    }

    /// Product by a count, or `None` on overflow.
    pub fn checked_mul(self, n: u64) -> Option<Money> {
        self.0.checked_mul(n).map(Money)
    }

    /// True for zero.
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The amount for a reader, with thousands separators and the currency code:
    /// `1,125,000 EUR`, `4.50 EUR`, `0.05 EUR` (cents shown only when there are some).
    /// Files keep the plain decimal of [`fmt::Display`]; reports and terminals use this.
    pub fn with_currency(self, currency: &str) -> String {
        let units = grouped(self.0 / 100);
        let amount = match self.0 % 100 {
            0 => units,
            c => format!("{units}.{c:02}"),
        };
        if currency.is_empty() {
            amount
        } else {
            format!("{amount} {currency}")
        }
    }
}

/// `n` with a comma between groups of three digits: `4,500,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl fmt::Display for Money {
    /// Plain decimal in currency units: `20000`, `4.5`, `0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (u, c) = (self.0 / 100, self.0 % 100);
        let s = if c == 0 {
            format!("{u}")
        } else if c % 10 == 0 {
            format!("{u}.{}", c / 10)
        } else {
            format!("{u}.{c:02}")
        };
        f.pad(&s)
    }
}

impl FromStr for Money {
    type Err = MoneyError;

    /// Parses `20000`, `20 000`, `4.5`, `4,50`, `0.05` (spaces and non-breaking spaces
    /// between digit groups are ignored; `.` or `,` is the decimal separator).
    fn from_str(s: &str) -> Result<Money, MoneyError> {
        let cleaned: String = s
            .trim()
            .chars()
            .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}'))
            .collect();
        let syntax = || MoneyError::Syntax(s.to_string());
        let (int, frac) = match cleaned.find(['.', ',']) {
            Some(i) => (&cleaned[..i], &cleaned[i + 1..]),
            None => (&cleaned[..], ""),
        };
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        if !frac.bytes().all(|b| b.is_ascii_digit())
            || (cleaned.len() > int.len() && frac.is_empty())
        {
            return Err(syntax());
        }
        if frac.len() > 2 {
            return Err(MoneyError::TooPrecise(s.to_string()));
        }
        let overflow = || MoneyError::Overflow(s.to_string());
        let units: u64 = int.parse().map_err(|_| overflow())?;
        let mut cents: u64 = frac.parse().unwrap_or(0);
        if frac.len() == 1 {
            cents *= 10;
        }
        units
            .checked_mul(100)
            .and_then(|c| c.checked_add(cents))
            .map(Money)
            .ok_or_else(overflow)
    }
}

impl<'de> serde::Deserialize<'de> for Money {
    /// From a TOML integer (whole units), a bare decimal (`4.5`) or a string parsed by
    /// [`Money::from_str`]. A float is read through its shortest decimal form (`4.5`): the
    /// spec loader refuses any float literal that form does not write exactly
    /// (`crate::spec::GameSpec::parse`), so an amount is read as written, never rounded.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Money, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Money;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "an amount: a whole number of currency units, or a string like \"4.50\"",
                )
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Money, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::custom(format!("{v} is not a non-negative amount"))),
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Money, E> {
                v.checked_mul(100)
                    .map(Money)
                    .ok_or_else(|| E::custom("amount too large"))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Money, E> {
                v.parse().map_err(E::custom)
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Money, E> {
                format!("{v}").parse().map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

impl serde::Serialize for Money {
    /// As the plain decimal string of [`fmt::Display`].
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_for_a_reader_have_separators_and_the_currency() {
        assert_eq!(Money(112_500_000).with_currency("EUR"), "1,125,000 EUR");
        assert_eq!(Money(450).with_currency("EUR"), "4.50 EUR");
        assert_eq!(Money(5).with_currency("EUR"), "0.05 EUR");
        assert_eq!(Money(0).with_currency("EUR"), "0 EUR");
        assert_eq!(Money(99_999_999).with_currency(""), "999,999.99");
        assert_eq!(grouped(4_500_000), "4,500,000");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn parses_the_forms_a_game_team_writes() {
        assert_eq!("20000".parse(), Ok(Money(2_000_000)));
        assert_eq!("20 000".parse(), Ok(Money(2_000_000)));
        assert_eq!("4.5".parse(), Ok(Money(450)));
        assert_eq!("4,50".parse(), Ok(Money(450)));
        assert_eq!("0.05".parse(), Ok(Money(5)));
        assert_eq!("0".parse(), Ok(Money(0)));
    }

    #[test]
    fn rejects_what_is_not_an_amount() {
        for bad in ["", "x", "4.", ".5", "-1", "4.5.0", "1e3", "4.505"] {
            assert!(bad.parse::<Money>().is_err(), "{bad:?} accepted");
        }
        assert_eq!(
            "4.505".parse::<Money>(),
            Err(MoneyError::TooPrecise("4.505".into()))
        );
        assert!("999999999999999999999".parse::<Money>().is_err());
    }

    #[test]
    fn displays_plain_decimals() {
        assert_eq!(Money(2_000_000).to_string(), "20000");
        assert_eq!(Money(450).to_string(), "4.5");
        assert_eq!(Money(405).to_string(), "4.05");
        assert_eq!(Money(0).to_string(), "0");
    }

    #[test]
    fn display_and_parse_round_trip() {
        for c in [0u64, 1, 10, 99, 100, 450, 123_456_789] {
            assert_eq!(Money(c).to_string().parse(), Ok(Money(c)));
        }
    }

    #[test]
    fn a_toml_integer_too_large_is_said_too_large_and_a_negative_one_negative() {
        #[derive(serde::Deserialize, Debug)]
        struct T {
            #[allow(dead_code)]
            amount: Money,
        }
        let e = toml::from_str::<T>("amount = 9223372036854775807").unwrap_err();
        assert!(e.message().contains("amount too large"), "{e}");
        let e = toml::from_str::<T>("amount = -5").unwrap_err();
        assert!(
            e.message().contains("-5 is not a non-negative amount"),
            "{e}"
        );
        assert_eq!(
            toml::from_str::<T>("amount = 12").unwrap().amount,
            Money(1200)
        );
    }
}
