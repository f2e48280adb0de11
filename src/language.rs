//! The language a ticket is printed in (`[game] language` of a spec): how proofs write an
//! amount with its currency, as the ticket prints it, and in which language they write
//! their own words (notes, marks, the SPECIMEN mark).

use crate::money::{grouped, Money};
use std::fmt;

/// A ticket's language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Language {
    /// French (`fr`): `4,50 €`, `20 000 €`; the default, the language of every game tirage
    /// was first written for (a spec without the key is a French ticket).
    #[default]
    Fr,
    /// English (`en`): `€4.50`, `€20,000`.
    En,
}

impl Language {
    /// Every language, in the order the spec format lists them.
    pub const ALL: [Language; 2] = [Language::Fr, Language::En];

    /// The code written in a spec (`fr`, `en`).
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Fr => "fr",
        }
    }

    /// The language of code `s` (`fr`, `en`), or `None`.
    pub fn parse(s: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.code() == s)
    }

    /// Amount `m` of currency `currency` (ISO 4217) as a ticket in this language prints it:
    /// the currency's sign where it has a common one (EUR €, USD $, GBP £), else its code;
    /// cents only when there are some. French: `20 000 €`, `4,50 €`, `2 CHF`; English:
    /// `€20,000`, `€4.50`, `CHF 2`.
    pub fn amount(self, m: Money, currency: &str) -> String {
        let sign = match currency {
            "EUR" => Some("€"),
            "USD" => Some("$"),
            "GBP" => Some("£"),
            _ => None,
        };
        let units = m.cents() / 100;
        let cents = m.cents() % 100;
        match self {
            Language::Fr => {
                let mut s = grouped(units).replace(',', " ");
                if cents != 0 {
                    s.push_str(&format!(",{cents:02}"));
                }
                format!("{s} {}", sign.unwrap_or(currency))
            }
            Language::En => {
                let mut s = grouped(units);
                if cents != 0 {
                    s.push_str(&format!(".{cents:02}"));
                }
                match sign {
                    Some(sign) => format!("{sign}{s}"),
                    None => format!("{currency} {s}"),
                }
            }
        }
    }
}

impl Language {
    /// A count as this language writes it: grouped by three with a space in French
    /// (`4 500 000`), a comma in English (`4,500,000`).
    pub fn count(self, n: u64) -> String {
        match self {
            Language::Fr => grouped(n).replace(',', " "),
            Language::En => grouped(n),
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_written_as_each_language_prints_them() {
        let fr = |c: u64, cur: &str| Language::Fr.amount(Money(c), cur);
        let en = |c: u64, cur: &str| Language::En.amount(Money(c), cur);
        assert_eq!(fr(200, "EUR"), "2 €");
        assert_eq!(fr(2_000_000, "EUR"), "20 000 €");
        assert_eq!(fr(450, "EUR"), "4,50 €");
        assert_eq!(fr(100_000_000, "CHF"), "1 000 000 CHF");
        assert_eq!(en(200, "EUR"), "€2");
        assert_eq!(en(2_000_000, "GBP"), "£20,000");
        assert_eq!(en(450, "USD"), "$4.50");
        assert_eq!(en(5, "CHF"), "CHF 0.05");
        assert_eq!(Language::Fr.count(4_500_000), "4 500 000");
        assert_eq!(Language::En.count(4_500_000), "4,500,000");
        assert_eq!(Language::Fr.count(42), "42");
        assert_eq!(Language::parse("fr"), Some(Language::Fr));
        assert_eq!(Language::parse("de"), None);
    }
}
