//! The language a ticket is printed in (`[game] language` of a spec): how proofs write an
//! amount with its currency, as the ticket prints it, and in which language they write
//! their own words (notes, marks, the SPECIMEN mark) and what the ticket prints beside its
//! panels ([`Phrase`]: pay legends, maxima, fixed winning symbols), which the styles give
//! as data.

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

/// A line of a grid that wins whole ([`Phrase::Full`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridLine {
    /// A full row.
    Row,
    /// A full column.
    Column,
    /// A full diagonal.
    Diagonal,
    /// The four corners.
    Corners,
    /// An X: both diagonals.
    X,
    /// The full card: every cell.
    Card,
}

/// Symbols as words list them: separated by spaces (`COQ LION`), or by commas when one is
/// written with a space (`GOLD BAR, LUCKY 7`), so that every symbol reads whole.
pub fn join_symbols(symbols: &[impl AsRef<str>]) -> String {
    let sep = if symbols.iter().any(|s| s.as_ref().contains(' ')) {
        ", "
    } else {
        " "
    };
    symbols
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<&str>>()
        .join(sep)
}

/// What a pay legend's entry pays as the ticket prints it: an amount, or the prize that is
/// not money whose stated value that amount is (`3 matches: FREE TICKET`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payout {
    /// An amount, in cents.
    Amount(Money),
    /// A tier's item (`FREE TICKET`), printed in place of its stated value.
    Item(String),
}

impl From<Money> for Payout {
    fn from(m: Money) -> Payout {
        Payout::Amount(m)
    }
}

/// One entry of what a ticket prints beside a panel, outside the scratch layer, as data:
/// its amounts in cents, its symbols as the spec writes them. [`Language::phrase`] writes
/// it as a ticket in that language prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phrase {
    /// A pay legend's entry: the symbol and what it pays (`COQ = 5 000 €`).
    Pays {
        /// The symbol.
        symbol: String,
        /// What it pays.
        amount: Payout,
    },
    /// A symbol that wins the amount in its play area's box on its own, whatever else
    /// shows (`ETOILE = gain immédiat`, `STAR = instant win`).
    InstantWin {
        /// The symbol.
        symbol: String,
    },
    /// A symbol that wins every amount its surface shows, added up (`TOUT = tous les
    /// montants affichés, additionnés`, `ALL = every amount shown, added up`): those amounts
    /// are not wins until it shows.
    WinsEveryBox {
        /// The symbol.
        symbol: String,
    },
    /// A multiplier symbol and its factor (`X2 = gain ×2`, `X2 = win ×2`).
    Multiplies {
        /// The symbol.
        symbol: String,
        /// The factor.
        factor: u64,
    },
    /// A match-amounts rule: an amount shown `count` times wins that amount (`Trouvez 3
    /// montants identiques : gagnez ce montant`, `Find 3 identical amounts: win that
    /// amount`).
    SameAmounts {
        /// How many times the amount must show.
        count: usize,
    },
    /// A match-symbols rule: `count` identical symbols win. With one of `symbols` (the
    /// play area's winning symbols, printed when the rule names them) they win the amount
    /// in the box (`Trouvez 2 COQ : gagnez le montant de la case`, `Trouvez 2 symboles
    /// identiques parmi SANTE AMOUR : …`); with `symbols` empty, any symbol of the legend
    /// wins its amount (`Trouvez 3 symboles identiques : gagnez le montant du symbole`).
    SameSymbols {
        /// How many times the symbol must show.
        count: usize,
        /// The winning symbols, for a box; empty for a legend.
        symbols: Vec<String>,
    },
    /// A pay table's row: so many numbers matched pay so much (`3 bons numéros : 10 €`,
    /// `3 matches: €10`).
    Matches {
        /// The count of numbers matched.
        count: usize,
        /// What it pays.
        amount: Payout,
    },
    /// A pay table's row of a word game: so many words found pay so much (`3 mots : 10 €`,
    /// `3 words: €10`).
    Words {
        /// The count of words.
        count: usize,
        /// What it pays.
        amount: Payout,
    },
    /// A word game's bonus word and what it pays when every letter of it is among your
    /// letters: a fixed amount printed with it, or (`None`) the amount in its box under the
    /// scratch (`Mot bonus : toutes ses lettres parmi les vôtres, gagnez 50 €`).
    BonusWord {
        /// What it pays, when printed; `None` for the amount in its box.
        amount: Option<Payout>,
    },
    /// A full line of a grid and what it pays (`Ligne complète : 100 €`, `Full row: €100`).
    Full {
        /// Which line.
        line: GridLine,
        /// What it pays.
        amount: Payout,
    },
    /// How a card completing several patterns at once (an X, a full card) pays: only the
    /// highest amount among them, or each (`each`), added up.
    PatternRule {
        /// Each pattern completed pays; the wins add up.
        each: bool,
    },
    /// A grid's rule: `count` symbols in a row, a column or a diagonal win; one of
    /// `symbols` to win the amount in the box, or (`symbols` empty) any symbol of the
    /// legend to win its amount (`Alignez 3 TREFLE (ligne, colonne ou diagonale) : gagnez
    /// le GAIN`).
    LineUp {
        /// Symbols a line needs.
        count: usize,
        /// The symbols that win the box; empty for a legend's.
        symbols: Vec<String>,
    },
    /// A grid paying per line: each winning line pays, the wins add up.
    EachLine,
    /// A surface's printed maximum, in cents (`Gain maximum : 20 000 €`, `Maximum:
    /// €20,000`).
    Maximum(Money),
    /// The winning symbols the rules fix (`Symboles gagnants : IBIS HALEUR`).
    WinningSymbols(Vec<String>),
    /// A card-total game's rule: beat the dealer's total without going over 21.
    BeatTheDealer,
    /// A natural (an ace and a ten or figure) wins this many times the GAIN.
    NaturalTimes(u32),
    /// A natural wins this amount, in cents.
    NaturalPays(Money),
    /// What a tie with the dealer does: wins the GAIN (`true`) or loses.
    Tie {
        /// A tie wins the GAIN.
        wins: bool,
    },
    /// A multiplied surface's factor: every win on it pays so many times what it shows
    /// (`5X : chaque gain ×5`, `5X: every win ×5`).
    MultipliedBy(u32),
    /// The multiplier box's rule: every win on the ticket is multiplied by it.
    BoxMultiplies,
    /// A comparison's rule: a row wins the amount in its box when the player's number, on
    /// top, is higher than theirs, below (`Votre numéro (en haut) plus fort que le leur (en
    /// bas) : gagnez le montant de la case`); `sums` when each side is several numbers that
    /// add up.
    Sides {
        /// Each side is the sum of its numbers.
        sums: bool,
    },
    /// A key-match rule: a spot showing a winning number (`numbers`) or symbol wins the
    /// amount under it (`Un de vos numéros est un numéro gagnant : gagnez le montant indiqué
    /// dessous`); `each` when a repeated one pays each time it shows.
    KeyMatch {
        /// The symbols are numbers.
        numbers: bool,
        /// A winning symbol shown on several spots pays on each.
        each: bool,
    },
}

/// A line a ticket prints beside a panel: its phrases joined by ` · `, after the printed
/// name of the play area it belongs to when one panel carries several areas' legends
/// (`Jeu 1 : COQ = 5 000 €`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintedLine {
    /// The play area's printed name, when the line names it.
    pub title: Option<String>,
    /// The entries, in print order.
    pub phrases: Vec<Phrase>,
}

impl PrintedLine {
    /// A line of `phrases` with no title.
    pub fn of(phrases: Vec<Phrase>) -> PrintedLine {
        PrintedLine {
            title: None,
            phrases,
        }
    }
}

impl Phrase {
    /// Prints `item` where this entry pays `amount`, the item's stated value.
    pub fn show_item(&mut self, amount: Money, item: &str) {
        if let Phrase::Pays { amount: p, .. }
        | Phrase::Matches { amount: p, .. }
        | Phrase::Words { amount: p, .. }
        | Phrase::Full { amount: p, .. }
        | Phrase::BonusWord { amount: Some(p) } = self
        {
            if *p == Payout::Amount(amount) {
                *p = Payout::Item(item.to_string());
            }
        }
    }
}

impl Language {
    /// What a legend entry pays as this language prints it: the amount with `currency`, or
    /// the item as it is written.
    pub fn payout(self, p: &Payout, currency: &str) -> String {
        match p {
            Payout::Amount(m) => self.amount(*m, currency),
            Payout::Item(item) => item.clone(),
        }
    }

    /// A colon as this language sets it: `: ` in English, ` : ` in French.
    pub fn colon(self) -> &'static str {
        match self {
            Language::Fr => " : ",
            Language::En => ": ",
        }
    }

    /// Phrase `p` as a ticket in this language prints it, amounts in `currency`.
    pub fn phrase(self, p: &Phrase, currency: &str) -> String {
        let fr = self == Language::Fr;
        let c = self.colon();
        match p {
            Phrase::Pays { symbol, amount } => {
                format!("{symbol} = {}", self.payout(amount, currency))
            }
            Phrase::LineUp { count, symbols } => match (fr, symbols.is_empty()) {
                (true, false) => format!(
                    "Alignez {count} {} (ligne, colonne ou diagonale) : gagnez le GAIN",
                    symbols.join(" ou ")
                ),
                (true, true) => format!(
                    "Alignez {count} symboles identiques (ligne, colonne ou diagonale) : gagnez le montant du symbole"
                ),
                (false, false) => format!(
                    "Line up {count} {} (row, column or diagonal): win the amount in the box",
                    symbols.join(" or ")
                ),
                (false, true) => format!(
                    "Line up {count} identical symbols (row, column or diagonal): win the symbol's amount"
                ),
            },
            Phrase::InstantWin { symbol } => {
                format!("{symbol} = {}", if fr { "gain immédiat" } else { "instant win" })
            }
            Phrase::WinsEveryBox { symbol } => format!(
                "{symbol} = {}",
                if fr {
                    "tous les montants affichés, additionnés"
                } else {
                    "every amount shown, added up"
                }
            ),
            Phrase::Multiplies { symbol, factor } => {
                format!("{symbol} = {} ×{factor}", if fr { "gain" } else { "win" })
            }
            Phrase::SameAmounts { count } => {
                if fr {
                    format!("Trouvez {count} montants identiques : gagnez ce montant")
                } else {
                    format!("Find {count} identical amounts: win that amount")
                }
            }
            Phrase::SameSymbols { count, symbols } => match (fr, symbols.as_slice()) {
                (true, []) => format!(
                    "Trouvez {count} symboles identiques : gagnez le montant du symbole"
                ),
                (false, []) => {
                    format!("Find {count} identical symbols: win the symbol's amount")
                }
                (true, [one]) => {
                    format!("Trouvez {count} {one} : gagnez le montant de la case")
                }
                (false, [one]) => format!("Find {count} {one}: win the amount in the box"),
                (true, many) => format!(
                    "Trouvez {count} symboles identiques parmi {} : gagnez le montant de la case",
                    join_symbols(many)
                ),
                (false, many) => format!(
                    "Find {count} identical symbols among {}: win the amount in the box",
                    join_symbols(many)
                ),
            },
            Phrase::Matches { count, amount } => {
                let words = match (fr, *count == 1) {
                    (true, true) => "bon numéro",
                    (true, false) => "bons numéros",
                    (false, true) => "match",
                    (false, false) => "matches",
                };
                format!("{count} {words}{c}{}", self.payout(amount, currency))
            }
            Phrase::Words { count, amount } => {
                let words = match (fr, *count == 1) {
                    (true, true) => "mot",
                    (true, false) => "mots",
                    (false, true) => "word",
                    (false, false) => "words",
                };
                format!("{count} {words}{c}{}", self.payout(amount, currency))
            }
            Phrase::BonusWord { amount } => match (fr, amount) {
                (true, Some(p)) => format!(
                    "Mot bonus{c}toutes ses lettres parmi les vôtres, gagnez {}",
                    self.payout(p, currency)
                ),
                (false, Some(p)) => format!(
                    "Bonus word{c}every letter of it among your letters wins {}",
                    self.payout(p, currency)
                ),
                (true, None) => format!(
                    "Mot bonus{c}toutes ses lettres parmi les vôtres, gagnez le gain de sa case"
                ),
                (false, None) => format!(
                    "Bonus word{c}every letter of it among your letters wins the prize in its box"
                ),
            },
            Phrase::Full { line, amount } => {
                let words = match (line, fr) {
                    (GridLine::Row, true) => "Ligne complète",
                    (GridLine::Column, true) => "Colonne complète",
                    (GridLine::Diagonal, true) => "Diagonale complète",
                    (GridLine::Corners, true) => "Quatre coins",
                    (GridLine::Corners, false) => "Four corners",
                    (GridLine::Row, false) => "Full row",
                    (GridLine::Column, false) => "Full column",
                    (GridLine::Diagonal, false) => "Full diagonal",
                    (GridLine::X, true) => "X (deux diagonales)",
                    (GridLine::X, false) => "X (both diagonals)",
                    (GridLine::Card, true) => "Carton plein",
                    (GridLine::Card, false) => "Full card",
                };
                format!("{words}{c}{}", self.payout(amount, currency))
            }
            Phrase::PatternRule { each } => match (fr, each) {
                (true, false) => "Seul le motif complété le mieux payé est gagnant".into(),
                (true, true) => "Chaque motif complété est payé : les gains s'additionnent".into(),
                (false, false) => "Only the highest-paying pattern completed pays".into(),
                (false, true) => "Each pattern completed pays: the wins add up".into(),
            },
            Phrase::EachLine => if fr {
                "Chaque ligne gagnante est payée : les gains s'additionnent"
            } else {
                "Each winning line pays: the wins add up"
            }
            .into(),
            Phrase::Maximum(m) => {
                let words = if fr { "Gain maximum" } else { "Maximum" };
                format!("{words}{c}{}", self.amount(*m, currency))
            }
            Phrase::WinningSymbols(symbols) => {
                let words = if fr {
                    "Symboles gagnants"
                } else {
                    "Winning symbols"
                };
                format!("{words}{c}{}", join_symbols(symbols))
            }
            Phrase::BeatTheDealer => if fr {
                "Battez le total du croupier sans dépasser 21 : une figure compte 10, un as 1 ou 11"
            } else {
                "Beat the dealer's total without going over 21: figures count 10, an ace 1 or 11"
            }
            .into(),
            Phrase::NaturalTimes(m) => {
                if fr {
                    format!("Blackjack (as + dix ou figure) : gagne {m} × le GAIN")
                } else {
                    format!("Natural (ace + ten or figure): wins {m} × the GAIN")
                }
            }
            Phrase::NaturalPays(amount) => {
                if fr {
                    format!(
                        "Blackjack (as + dix ou figure) : gagne {}",
                        self.amount(*amount, currency)
                    )
                } else {
                    format!(
                        "Natural (ace + ten or figure): wins {}",
                        self.amount(*amount, currency)
                    )
                }
            }
            Phrase::Tie { wins } => match (fr, wins) {
                (true, true) => "Une égalité gagne le GAIN".into(),
                (true, false) => "Une égalité perd".into(),
                (false, true) => "A tie wins the GAIN".into(),
                (false, false) => "A tie loses".into(),
            },
            Phrase::MultipliedBy(f) => {
                let words = if fr { "chaque gain" } else { "every win" };
                format!("{f}X{c}{words} ×{f}")
            }
            Phrase::BoxMultiplies => if fr {
                "Multiplicateur : tous les gains du ticket sont multipliés par la valeur de la case"
            } else {
                "Multiplier box: every win on the ticket is multiplied by the value in the box"
            }
            .into(),
            Phrase::Sides { sums } => match (fr, sums) {
                (true, false) => {
                    "Votre numéro (en haut) plus fort que le leur (en bas) : gagnez le montant de la case"
                }
                (true, true) => {
                    "La somme de vos numéros (en haut) plus forte que la leur (en bas) : gagnez le montant de la case"
                }
                (false, false) => "Your number (top) higher than theirs (below): win the amount in the box",
                (false, true) => {
                    "The sum of your numbers (top) higher than theirs (below): win the amount in the box"
                }
            }
            .into(),
            Phrase::KeyMatch { numbers, each } => {
                let rule = match (fr, numbers) {
                    (true, true) => "Un de vos numéros est un numéro gagnant : gagnez le montant indiqué dessous",
                    (true, false) => "Un de vos symboles est un symbole gagnant : gagnez le montant indiqué dessous",
                    (false, true) => "One of your numbers is a winning number: win the amount shown under it",
                    (false, false) => "One of your symbols is a winning symbol: win the amount shown under it",
                };
                match (fr, each) {
                    (_, false) => rule.into(),
                    (true, true) => format!("{rule}, à chaque fois"),
                    (false, true) => format!("{rule}, each time"),
                }
            }
        }
    }

    /// Line `l` as a ticket in this language prints it: its title and a colon, then its
    /// phrases joined by ` · `.
    pub fn line(self, l: &PrintedLine, currency: &str) -> String {
        let body: Vec<String> = l.phrases.iter().map(|p| self.phrase(p, currency)).collect();
        match &l.title {
            Some(t) => format!("{t}{}{}", self.colon(), body.join(" · ")),
            None => body.join(" · "),
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
    }

    #[test]
    fn printed_lines_are_written_in_each_language_with_the_currency() {
        let line = PrintedLine {
            title: None,
            phrases: vec![
                Phrase::Pays {
                    symbol: "COQ".into(),
                    amount: Money(500_000).into(),
                },
                Phrase::Matches {
                    count: 3,
                    amount: Money(450).into(),
                },
                Phrase::Maximum(Money(2_000)),
                Phrase::Multiplies {
                    symbol: "7".into(),
                    factor: 2,
                },
            ],
        };
        assert_eq!(
            Language::En.line(&line, "EUR"),
            "COQ = €5,000 · 3 matches: €4.50 · Maximum: €20 · 7 = win ×2"
        );
        assert_eq!(
            Language::Fr.line(&line, "EUR"),
            "COQ = 5 000 € · 3 bons numéros : 4,50 € · Gain maximum : 20 € · 7 = gain ×2"
        );
        let titled = PrintedLine {
            title: Some("Jeu 1".into()),
            phrases: vec![
                Phrase::Matches {
                    count: 1,
                    amount: Money(200).into(),
                },
                Phrase::Full {
                    line: GridLine::Diagonal,
                    amount: Money(100_000).into(),
                },
                Phrase::Words {
                    count: 3,
                    amount: Money(1_000).into(),
                },
            ],
        };
        assert_eq!(
            Language::Fr.line(&titled, "CHF"),
            "Jeu 1 : 1 bon numéro : 2 CHF · Diagonale complète : 1 000 CHF · 3 mots : 10 CHF"
        );
        assert_eq!(
            Language::En.line(&titled, "USD"),
            "Jeu 1: 1 match: $2 · Full diagonal: $1,000 · 3 words: $10"
        );
        // An entry paying an item's stated value prints the item; the others their amount.
        let mut items = titled.clone();
        for p in &mut items.phrases {
            p.show_item(Money(200), "FREE TICKET");
        }
        assert_eq!(
            Language::En.line(&items, "USD"),
            "Jeu 1: 1 match: FREE TICKET · Full diagonal: $1,000 · 3 words: $10"
        );
        let mut pays = Phrase::Pays {
            symbol: "CLOVER".into(),
            amount: Money(200).into(),
        };
        pays.show_item(Money(200), "FREE TICKET");
        assert_eq!(Language::Fr.phrase(&pays, "EUR"), "CLOVER = FREE TICKET");
        let fixed = PrintedLine::of(vec![Phrase::WinningSymbols(vec![
            "IBIS".into(),
            "OUDJAT".into(),
        ])]);
        assert_eq!(
            Language::Fr.line(&fixed, "EUR"),
            "Symboles gagnants : IBIS OUDJAT"
        );
        assert_eq!(
            Language::En.line(&fixed, "EUR"),
            "Winning symbols: IBIS OUDJAT"
        );
        let spaced = PrintedLine::of(vec![Phrase::WinningSymbols(vec![
            "LUCKY 7".into(),
            "GOLD BAR".into(),
        ])]);
        assert_eq!(
            Language::En.line(&spaced, "EUR"),
            "Winning symbols: LUCKY 7, GOLD BAR"
        );
        let sides = PrintedLine::of(vec![Phrase::Sides { sums: true }]);
        assert_eq!(
            Language::Fr.line(&sides, "EUR"),
            "La somme de vos numéros (en haut) plus forte que la leur (en bas) : gagnez le montant de la case"
        );
        assert_eq!(
            Language::En.line(&sides, "EUR"),
            "The sum of your numbers (top) higher than theirs (below): win the amount in the box"
        );
        let key = |numbers, each| {
            let l = PrintedLine::of(vec![Phrase::KeyMatch { numbers, each }]);
            [Language::Fr.line(&l, "EUR"), Language::En.line(&l, "EUR")]
        };
        assert_eq!(
            key(true, true),
            [
                "Un de vos numéros est un numéro gagnant : gagnez le montant indiqué dessous, à chaque fois",
                "One of your numbers is a winning number: win the amount shown under it, each time"
            ]
        );
        assert_eq!(
            key(false, false),
            [
                "Un de vos symboles est un symbole gagnant : gagnez le montant indiqué dessous",
                "One of your symbols is a winning symbol: win the amount shown under it"
            ]
        );
        assert_eq!(Language::parse("de"), None);
    }
}
