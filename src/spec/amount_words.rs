//! Amounts written in words, as `[captions]` write them under an amount in figures
//! (`CINQ EUROS`, `QUATRE EUROS CINQUANTE`, `FIFTY CENTS`), read back in the game's
//! language, so that a caption that says another amount is refused (décret n°78-1067: a
//! caption that does not match its figures is a printing anomaly).
//!
//! A caption is read only when every word of it is a number word of the language, a
//! currency word or a joining word; any other word (`FREE TICKET`, `JACKPOT`, `4 EUROS`)
//! leaves it unread. Words are split at spaces and hyphens, in either case. French: `zéro`,
//! `un`/`une` … `seize`, `vingt` … `soixante`, `quatre-vingt(s)`, `soixante-dix`,
//! `quatre-vingt-dix`, `cent(s)`, `mille`, `million(s)`, `milliard(s)`, joined by `et`;
//! cents are `centime(s)`. English: `zero` … `nineteen`, `twenty` … `ninety`, `hundred`,
//! `thousand`, `million`, `billion`, joined by `and`; cents are `cent(s)`. Currency words
//! in both: `euro(s)`, `dollar(s)`, `franc(s)`, and the pound's, `livre(s)` in French and
//! `pound(s)` in English; a caption naming one must name the game's currency
//! ([`Currency::codes`]). An amount is a number of units, then optionally a
//! currency word and a number of cents below 100 with or without the cents' word
//! (`QUATRE EUROS CINQUANTE`, `FOUR DOLLARS AND FIFTY CENTS`), or a number of cents below
//! 100 and the cents' word alone (`CINQUANTE CENTIMES`, `FIFTY CENTS`).

use crate::language::Language;
use crate::money::Money;

/// What a caption reads as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    /// It is not an amount in words: some word is neither a number, a currency nor a
    /// joining word, or it has no number word.
    NotWords,
    /// The amount it says, in cents.
    Amount(Money),
    /// Every word is a number, currency or joining word, but together they say no amount
    /// (`DEUX TROIS EUROS`, `EUROS DEUX`).
    Unclear,
}

/// A currency a caption names by its unit's word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Currency {
    /// `euro(s)`.
    Euro,
    /// `dollar(s)`.
    Dollar,
    /// `franc(s)`.
    Franc,
    /// `livre(s)` in French, `pound(s)` in English.
    Pound,
}

impl Currency {
    /// The ISO 4217 codes of the currencies whose unit is called so (the dollar names the
    /// US, Canadian, Australian dollars and others alike).
    pub(super) fn codes(self) -> &'static [&'static str] {
        match self {
            Currency::Euro => &["EUR"],
            Currency::Dollar => &[
                "USD", "CAD", "AUD", "NZD", "HKD", "SGD", "TWD", "BBD", "BMD", "BSD", "BZD", "FJD",
                "JMD", "KYD", "LRD", "NAD", "SBD", "SRD", "TTD", "XCD",
            ],
            Currency::Franc => &[
                "CHF", "XOF", "XAF", "XPF", "BIF", "CDF", "DJF", "GNF", "KMF", "RWF",
            ],
            Currency::Pound => &["GBP", "EGP", "FKP", "GIP", "LBP", "SHP", "SSP", "SYP"],
        }
    }

    /// Its unit's word in `language`, plural, in capitals (`EUROS`, `LIVRES`).
    pub(super) fn word(self, language: Language) -> &'static str {
        match (self, language) {
            (Currency::Euro, _) => "EUROS",
            (Currency::Dollar, _) => "DOLLARS",
            (Currency::Franc, _) => "FRANCS",
            (Currency::Pound, Language::Fr) => "LIVRES",
            (Currency::Pound, Language::En) => "POUNDS",
        }
    }

    /// The currency of ISO 4217 code `code` (`EUR`: the euro), if the module knows its
    /// unit's word.
    pub(super) fn of(code: &str) -> Option<Currency> {
        [
            Currency::Euro,
            Currency::Dollar,
            Currency::Franc,
            Currency::Pound,
        ]
        .into_iter()
        .find(|c| c.codes().contains(&code))
    }
}

/// One word of an amount in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    /// A number below 100 written as one word (`QUINZE`, `TWENTY`).
    Num(u64),
    /// A power of ten that multiplies what comes before it: 100, 1 000, 10⁶, 10⁹.
    Scale(u64),
    /// A currency's unit (`EUROS`, `DOLLARS`).
    Unit(Currency),
    /// The currency's hundredth (`CENTIMES`, `CENTS`).
    Cent,
    /// A joining word (`ET`, `AND`).
    Join,
}

/// Word `w` (in capitals) in `language`, or `None` when it is not a word of an amount.
fn word(w: &str, language: Language) -> Option<Word> {
    use Word::*;
    // `D'EUROS` (un million d'euros) is the currency's word.
    let unit = w
        .strip_prefix("D'")
        .or_else(|| w.strip_prefix("D\u{2019}"))
        .unwrap_or(w);
    let common = match unit {
        "EURO" | "EUROS" => Some(Unit(Currency::Euro)),
        "DOLLAR" | "DOLLARS" => Some(Unit(Currency::Dollar)),
        "FRANC" | "FRANCS" => Some(Unit(Currency::Franc)),
        _ => None,
    };
    let own = match language {
        Language::Fr => match w {
            "ZERO" | "ZÉRO" => Num(0),
            "UN" | "UNE" => Num(1),
            "DEUX" => Num(2),
            "TROIS" => Num(3),
            "QUATRE" => Num(4),
            "CINQ" => Num(5),
            "SIX" => Num(6),
            "SEPT" => Num(7),
            "HUIT" => Num(8),
            "NEUF" => Num(9),
            "DIX" => Num(10),
            "ONZE" => Num(11),
            "DOUZE" => Num(12),
            "TREIZE" => Num(13),
            "QUATORZE" => Num(14),
            "QUINZE" => Num(15),
            "SEIZE" => Num(16),
            "VINGT" | "VINGTS" => Num(20),
            "TRENTE" => Num(30),
            "QUARANTE" => Num(40),
            "CINQUANTE" => Num(50),
            "SOIXANTE" => Num(60),
            "CENT" | "CENTS" => Scale(100),
            "MILLE" => Scale(1_000),
            "MILLION" | "MILLIONS" => Scale(1_000_000),
            "MILLIARD" | "MILLIARDS" => Scale(1_000_000_000),
            "CENTIME" | "CENTIMES" => Cent,
            "ET" => Join,
            "LIVRE" | "LIVRES" => Unit(Currency::Pound),
            _ => return common,
        },
        Language::En => match w {
            "ZERO" => Num(0),
            "ONE" | "A" => Num(1),
            "TWO" => Num(2),
            "THREE" => Num(3),
            "FOUR" => Num(4),
            "FIVE" => Num(5),
            "SIX" => Num(6),
            "SEVEN" => Num(7),
            "EIGHT" => Num(8),
            "NINE" => Num(9),
            "TEN" => Num(10),
            "ELEVEN" => Num(11),
            "TWELVE" => Num(12),
            "THIRTEEN" => Num(13),
            "FOURTEEN" => Num(14),
            "FIFTEEN" => Num(15),
            "SIXTEEN" => Num(16),
            "SEVENTEEN" => Num(17),
            "EIGHTEEN" => Num(18),
            "NINETEEN" => Num(19),
            "TWENTY" => Num(20),
            "THIRTY" => Num(30),
            "FORTY" => Num(40),
            "FIFTY" => Num(50),
            "SIXTY" => Num(60),
            "SEVENTY" => Num(70),
            "EIGHTY" => Num(80),
            "NINETY" => Num(90),
            "HUNDRED" => Scale(100),
            "THOUSAND" => Scale(1_000),
            "MILLION" => Scale(1_000_000),
            "BILLION" => Scale(1_000_000_000),
            "CENT" | "CENTS" => Cent,
            "AND" => Join,
            "POUND" | "POUNDS" => Unit(Currency::Pound),
            _ => return common,
        },
    };
    Some(own)
}

/// What `caption` says in `language` ([`Reading`]), its letters of other scripts read as
/// the Latin letters they look like ([`crate::text::prototype`]: a Cyrillic `Е` in `DЕUX`).
pub(super) fn read(caption: &str, language: Language) -> Reading {
    let caption = crate::text::prototype(caption);
    let mut words = Vec::new();
    for w in caption.split(|c: char| c.is_whitespace() || c == '-') {
        if w.is_empty() {
            continue;
        }
        match word(&w.to_uppercase(), language) {
            Some(Word::Join) => {}
            Some(x) => words.push(x),
            None => return Reading::NotWords,
        }
    }
    if !words
        .iter()
        .any(|w| matches!(w, Word::Num(_) | Word::Scale(_)))
    {
        return Reading::NotWords;
    }
    // Split at the currency words: numbers, then a unit or a cent word, and so on.
    let is_number = |w: &Word| matches!(w, Word::Num(_) | Word::Scale(_));
    let units_end = words
        .iter()
        .position(|w| !is_number(w))
        .unwrap_or(words.len());
    let (units, rest) = words.split_at(units_end);
    let Some(n) = number(units, language) else {
        return Reading::Unclear;
    };
    let cents_end = rest
        .iter()
        .skip(1)
        .position(|w| !is_number(w))
        .map_or(rest.len(), |p| p + 1);
    let after = rest.get(1..cents_end).unwrap_or(&[]);
    let amount = match (rest.first(), after.is_empty(), rest.get(cents_end..)) {
        // DEUX, DEUX EUROS
        (None, _, _) | (Some(Word::Unit(_)), true, Some([])) => n.checked_mul(100),
        // CINQUANTE CENTIMES, FIFTY EURO CENTS
        (Some(Word::Cent), true, Some([])) | (Some(Word::Unit(_)), true, Some([Word::Cent])) => {
            (n < 100).then_some(n)
        }
        // QUATRE EUROS CINQUANTE (CENTIMES)
        (Some(Word::Unit(_)), false, Some([] | [Word::Cent])) => match number(after, language) {
            Some(c) if c < 100 => n.checked_mul(100).and_then(|u| u.checked_add(c)),
            _ => None,
        },
        _ => None,
    };
    amount.map_or(Reading::Unclear, |c| Reading::Amount(Money(c)))
}

/// The currency `caption` names when it reads as an amount in `language` (`DIX DOLLARS`:
/// the dollar), or `None` when it names none or is not an amount in words.
pub(super) fn currency(caption: &str, language: Language) -> Option<Currency> {
    if !matches!(read(caption, language), Reading::Amount(_)) {
        return None;
    }
    // An amount in words names at most one unit (a second one makes it unclear).
    caption
        .split(|c: char| c.is_whitespace() || c == '-')
        .find_map(|w| match word(&w.to_uppercase(), language) {
            Some(Word::Unit(c)) => Some(c),
            _ => None,
        })
}

/// Why `text`, printed where a face shows an amount (an item), could be read as money, if
/// it could: a currency's word in a language proofs are written in (`DOLLARS`), or number
/// words that make an amount in one (`CENT`, `ONE HUNDRED`). Its words are its runs of
/// letters and digits, read through their look-alikes ([`crate::text::prototype`]):
/// `DOLLARS.` is `DOLLARS`.
pub(super) fn reads_as_money(text: &str) -> Option<String> {
    let words = plain_words(text);
    if let Some(w) = words.iter().find(|w| MONEY_WORDS.contains(&w.as_str())) {
        return Some(format!("names a currency (\"{w}\")"));
    }
    for language in Language::ALL {
        if let Some(w) = words
            .iter()
            .find(|w| matches!(word(w, language), Some(Word::Unit(_) | Word::Cent)))
        {
            return Some(format!("names a currency (\"{w}\")"));
        }
        if let Reading::Amount(m) = read(&words.join(" "), language) {
            return Some(format!("reads as {m} in {}", language.code()));
        }
    }
    None
}

/// Words that name money besides the currencies' units ([`Word::Unit`]): the ISO codes a
/// ticket could print (`EUR`) and the slang of either language (`BALLES`, `BUCKS`).
const MONEY_WORDS: [&str; 13] = [
    "EUR", "USD", "GBP", "CHF", "CAD", "AUD", "JPY", "XOF", "XAF", "BALLE", "BALLES", "BUCK",
    "BUCKS",
];

/// Words that say how many times (`DOUBLE` 2, `DÉCUPLE` 10), in either language, as
/// [`plain_words`] writes them.
const MULTIPLES: [(&str, u64); 7] = [
    ("DOUBLE", 2),
    ("TRIPLE", 3),
    ("QUADRUPLE", 4),
    ("QUINTUPLE", 5),
    ("SEXTUPLE", 6),
    ("DECUPLE", 10),
    ("CENTUPLE", 100),
];

/// The words of `text` as a reader tells them: read through look-alikes and without
/// accents ([`crate::text::prototype`]), in capitals, split at every character that is no
/// letter or digit (`DIX-SEPT.` is `DIX SEPT`).
pub(super) fn plain_words(text: &str) -> Vec<String> {
    crate::text::prototype(text)
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect::<String>()
        .split_whitespace()
        .map(str::to_uppercase)
        .collect()
}

/// The numbers `text` says in words, in either language proofs are written in, ascending,
/// each once: every run of number words read as one number where it makes one (`GAGNE DIX
/// FOIS` says 10, `CINQUANTE BALLES` 50, `DIX SEPT` 17), each of its number words alone
/// where it does not (`DEUX TROIS` says 2 and 3), and the words of a multiple (`DOUBLE` 2).
/// Figures are not words: `5X` says nothing here.
pub(super) fn numbers_in_words(text: &str) -> Vec<u64> {
    let words = plain_words(text);
    let mut out: Vec<u64> = words
        .iter()
        .filter_map(|w| MULTIPLES.iter().find(|m| m.0 == w).map(|m| m.1))
        .collect();
    for language in Language::ALL {
        let mut run: Vec<Word> = Vec::new();
        let end_run = |run: &mut Vec<Word>, out: &mut Vec<u64>| {
            match number(run, language) {
                Some(n) => out.push(n),
                None => out.extend(run.iter().filter_map(|w| match w {
                    Word::Num(n) | Word::Scale(n) => Some(*n),
                    _ => None,
                })),
            }
            run.clear();
        };
        for w in &words {
            match word(w, language) {
                Some(x @ (Word::Num(_) | Word::Scale(_))) => run.push(x),
                Some(Word::Join) if !run.is_empty() => {}
                _ if !run.is_empty() => end_run(&mut run, &mut out),
                _ => {}
            }
        }
        if !run.is_empty() {
            end_run(&mut run, &mut out);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The number `words` write (numbers and scales only), or `None` when they write none:
/// tens before units (`VINGT CINQ`, `TWENTY FIVE`), in French `DIX SEPT` … `DIX NEUF`,
/// `SOIXANTE DIX` … `SOIXANTE DIX NEUF` and `QUATRE VINGT(S)` … `QUATRE VINGT DIX NEUF`; a
/// hundred after a number below 100 (`DEUX CENTS`, `TWELVE HUNDRED`; in French after 2 to 9
/// or 11 to 19 only: `DIX CENTS` is ten cents); each larger scale
/// once, after the group below 1 000 it counts (`MILLE` and `HUNDRED` alone count one).
fn number(words: &[Word], language: Language) -> Option<u64> {
    if words.is_empty() {
        return None;
    }
    let fr = language == Language::Fr;
    let (mut total, mut hundreds, mut below) = (0u64, 0u64, 0u64);
    // Whether the group below 1 000 has a word yet, and whether `below` has.
    let (mut group, mut tens) = (false, false);
    let mut last_scale = u64::MAX;
    for &w in words {
        match w {
            Word::Num(v) => {
                below = if !tens {
                    v
                } else if fr && v == 20 && below == 4 {
                    80
                } else if (below >= 20 && below % 10 == 0 && v < 10)
                    || (fr && (below == 60 || below == 80) && v < 20)
                    || (fr && below == 10 && (7..=9).contains(&v))
                {
                    // Units after tens; in French 10 to 19 after SOIXANTE and
                    // QUATRE-VINGT, SEPT to NEUF after DIX.
                    below + v
                } else {
                    return None;
                };
                tens = true;
                group = true;
            }
            Word::Scale(100) => {
                if hundreds != 0 || below >= 100 {
                    return None;
                }
                let count = if tens { below } else { 1 };
                // French counts hundreds by DEUX to NEUF, and ONZE to DIX-NEUF (DOUZE
                // CENTS, 1 200); after another number CENTS names the euro's hundredth
                // (DIX CENTS, VINGT CENTS, UN CENT read as 10, 20 and 1 cent), so such
                // words write no number.
                let french_count = (2..=9).contains(&count) || (11..=19).contains(&count);
                if count == 0 || (fr && tens && !french_count) {
                    return None;
                }
                hundreds = count * 100;
                (below, tens, group) = (0, false, true);
            }
            Word::Scale(s) => {
                if s >= last_scale {
                    return None;
                }
                let g = if group { hundreds + below } else { 1 };
                if g == 0 || g >= 1_000 {
                    return None;
                }
                total = total.checked_add(g.checked_mul(s)?)?;
                last_scale = s;
                (hundreds, below, tens, group) = (0, 0, false, false);
            }
            _ => return None,
        }
    }
    total.checked_add(hundreds + below)
}

#[cfg(test)]
mod tests {
    use super::{currency, numbers_in_words, read, Currency, Reading};
    use crate::language::Language::{En, Fr};
    use crate::money::Money;

    fn cents(c: u64) -> Reading {
        Reading::Amount(Money(c))
    }

    #[test]
    fn french_amounts_in_words_read_as_their_cents() {
        for (text, c) in [
            ("ZERO EURO", 0),
            ("zéro", 0),
            ("UN EURO", 100),
            ("une", 100),
            ("DEUX EUROS", 200),
            ("DIX-SEPT EUROS", 1_700),
            ("VINGT-ET-UN EUROS", 2_100),
            ("vingt et un", 2_100),
            ("VINGT-CINQ EUROS", 2_500),
            ("SOIXANTE-DIX EUROS", 7_000),
            ("SOIXANTE ET ONZE", 7_100),
            ("SOIXANTE-DIX-NEUF", 7_900),
            ("QUATRE-VINGTS EUROS", 8_000),
            ("QUATRE-VINGT-UN", 8_100),
            ("QUATRE-VINGT-DIX EUROS", 9_000),
            ("QUATRE VINGT DIX NEUF", 9_900),
            ("CENT EUROS", 10_000),
            ("CINQ CENTS EUROS", 50_000),
            ("DEUX CENT CINQUANTE EUROS", 25_000),
            ("CINQ CENT SOIXANTE-SEPT EUROS", 56_700),
            ("MILLE EUROS", 100_000),
            ("MILLE CENT", 110_000),
            ("DOUZE CENTS", 120_000),
            ("VINGT MILLE EUROS", 2_000_000),
            ("DEUX CENT MILLE", 20_000_000),
            ("UN MILLION D'EUROS", 100_000_000),
            ("DEUX MILLIONS TROIS CENT MILLE", 230_000_000),
            ("QUATRE EUROS CINQUANTE", 450),
            ("UN EURO ET CINQUANTE CENTIMES", 150),
            ("CINQUANTE CENTIMES", 50),
            ("DIX CENTIMES", 10),
        ] {
            assert_eq!(read(text, Fr), cents(c), "{text}");
        }
    }

    #[test]
    fn english_amounts_in_words_read_as_their_cents() {
        for (text, c) in [
            ("ZERO", 0),
            ("ONE DOLLAR", 100),
            ("TWO DOLLARS", 200),
            ("NINETEEN DOLLARS", 1_900),
            ("TWENTY-ONE DOLLARS", 2_100),
            ("ninety nine", 9_900),
            ("ONE HUNDRED DOLLARS", 10_000),
            ("A HUNDRED DOLLARS", 10_000),
            ("A THOUSAND", 100_000),
            ("HUNDRED", 10_000),
            ("ONE HUNDRED AND FIVE", 10_500),
            ("TWELVE HUNDRED", 120_000),
            ("TWO THOUSAND FIVE HUNDRED EUROS", 250_000),
            ("ONE MILLION DOLLARS", 100_000_000),
            ("FOUR DOLLARS FIFTY", 450),
            ("FOUR DOLLARS AND FIFTY CENTS", 450),
            ("FIFTY CENTS", 50),
            ("FIFTY EURO CENTS", 50),
        ] {
            assert_eq!(read(text, En), cents(c), "{text}");
        }
    }

    /// A caption with a word that is not of an amount is not read; one made only of such
    /// words that say no amount is unclear; a word of the other language is not a word.
    #[test]
    fn numbers_are_found_in_words_of_either_language() {
        let said = |t: &str| numbers_in_words(t);
        assert_eq!(said("GAGNE DIX FOIS"), [10]);
        assert_eq!(said("GAGNE TEN TIMES"), [10]);
        assert_eq!(said("CINQUANTE BALLES"), [50]);
        assert_eq!(said("QUATRE-VINGT-DIX"), [90]);
        assert_eq!(said("UN TICKET GRATUIT"), [1]);
        assert_eq!(said("DEUX TROIS"), [2, 3]);
        assert_eq!(said("D\u{c9}CUPLE"), [10]);
        assert_eq!(said("M\u{130}LLE"), [1000]);
        assert!(said("GAGNE 5 FOIS").is_empty());
        assert!(said("FREE TICKET").is_empty());
    }

    #[test]
    fn other_captions_are_left_unread_or_unclear() {
        for text in [
            "FREE TICKET",
            "JACKPOT",
            "4 EUROS",
            "EUROS",
            "GAGNE TOUT",
            "DEUX FOIS",
        ] {
            assert_eq!(read(text, Fr), Reading::NotWords, "{text}");
        }
        assert_eq!(read("CINQ EUROS", En), Reading::NotWords);
        assert_eq!(read("FIVE DOLLARS", Fr), Reading::NotWords);
        for text in [
            "DEUX TROIS EUROS",
            "VINGT DIX",
            "TRENTE DOUZE",
            "CENT CENT",
            "MILLE MILLE",
            "EUROS DEUX",
            "DEUX EUROS CENT",
            "DEUX CENTIMES EUROS",
            "CENT CENTIMES",
            "DIX CENTS EUROS",
            "VINGT CENTS",
            "UN CENT",
            "CINQUANTE CENTS",
            "ZERO ZERO",
            "DEUX EUROS TROIS EUROS",
        ] {
            assert_eq!(read(text, Fr), Reading::Unclear, "{text}");
        }
        // English has no eighty of four twenties.
        assert_eq!(read("FOUR TWENTY", En), Reading::Unclear);
        assert_eq!(read("QUATRE VINGT", Fr), cents(8_000));
    }

    /// A caption in words names its currency by its unit's word, in either language; one
    /// without a unit word, or not an amount in words, names none.
    #[test]
    fn a_caption_in_words_names_its_currency() {
        for (text, lang, said) in [
            ("DIX EUROS", Fr, Some(Currency::Euro)),
            ("UN MILLION D'EUROS", Fr, Some(Currency::Euro)),
            ("DIX DOLLARS", Fr, Some(Currency::Dollar)),
            ("CINQ FRANCS", Fr, Some(Currency::Franc)),
            ("CINQ LIVRES", Fr, Some(Currency::Pound)),
            ("FIVE POUNDS", En, Some(Currency::Pound)),
            ("FIFTY EURO CENTS", En, Some(Currency::Euro)),
            ("DIX", Fr, None),
            ("CINQUANTE CENTIMES", Fr, None),
            ("FREE TICKET", En, None),
            ("DEUX EUROS TROIS DOLLARS", Fr, None),
        ] {
            assert_eq!(currency(text, lang), said, "{text}");
        }
        assert_eq!(read("CINQ LIVRES", Fr), cents(500));
        assert_eq!(read("FOUR POUNDS FIFTY", En), cents(450));
        assert_eq!(Currency::of("EUR"), Some(Currency::Euro));
        assert_eq!(Currency::of("CAD"), Some(Currency::Dollar));
        assert_eq!(Currency::of("CHF"), Some(Currency::Franc));
        assert_eq!(Currency::of("GBP"), Some(Currency::Pound));
        assert_eq!(Currency::of("JPY"), None);
    }
}
