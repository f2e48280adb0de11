//! The play-style library: how one surface of a ticket wins, as a game designer writes it in
//! the spec (`[[surfaces]]`, game_specs/README.md "Play styles").
//!
//! A **surface** is a group of cells printed together and read by one play style (a row of
//! symbol cells with its amount boxes; a card game's player zones with their community
//! cards; a bingo card with its drawn numbers). A surface holds one or more **play areas**:
//! the parts of it that each win once (two play areas may read the same cells, each with
//! its own winning symbols and amount box). The
//! ticket's lot is the sum of its winning play areas over every surface
//! ([`super::game::Game`]).
//!
//! Each play style is a [`Style`] built from its surface's TOML table by the
//! [`StyleInfo::build`] function of its entry in [`LIBRARY`]. A style names its columns from
//! the surface's id (see each style's docs), so the seed games keep the columns GAMES.md
//! fixes.

use super::{Captions, Style};
use crate::money::Money;
use serde::de::{DeserializeOwned, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// What a style's constructor gets besides its own table.
pub struct StyleCtx<'a> {
    /// The surface's id (`[[surfaces]] id`): an ASCII word, unique in the game. Styles name
    /// their panels and, unless the spec says otherwise, their play areas and columns from it.
    pub id: &'a str,
    /// The spec's captions (`[captions]`), in amount order.
    pub captions: &'a Captions,
    /// The spec's printed names (`[labels]`, key → label), for the plain-words description.
    pub labels: &'a BTreeMap<String, String>,
    /// The amount of every tier, in the spec's order, in cents.
    pub tier_amounts: &'a [Money],
    /// The id of every way of the lot table, in the spec's order.
    pub way_ids: &'a [String],
    /// The surface's printed maximum (`max`), in cents: the composed game never lets the
    /// surface win more, and a style shows no amount (not even a decoy) above it.
    pub max: Option<Money>,
    /// The shared element the surface reads (`reads`), if any. A style that can read one
    /// takes the element's symbols and count from it and lists the columns that hold it
    /// ([`super::Layout::reads`]); the spec refuses `reads` on any other style.
    pub reads: Option<&'a super::shared::Shared>,
}

impl StyleCtx<'_> {
    /// The printed name of panel or play area `id` (`[labels]`), or `id` itself.
    pub fn label<'b>(&'b self, id: &'b str) -> &'b str {
        self.labels.get(id).map_or(id, String::as_str)
    }
}

/// An error in one field of a surface's table. The spec loader adds the file, the line of
/// the surface and its index (`surfaces[2].cells`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The field's name inside the surface (`cells`, `legend.LION`); empty when the error is
    /// about the surface as a whole.
    pub field: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl FieldError {
    /// An error about `field` of the surface.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// A function that builds a style from its surface table (the `style` and `id`
/// keys already removed). Errors name the field at fault.
pub type Build = fn(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError>;

/// One parameter of a play style, as `tirage styles` lists it.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Param {
    /// Key in the surface's table.
    pub name: &'static str,
    /// Its TOML type in words (`integer`, `array of strings`, `table symbol → amount`).
    pub kind: &'static str,
    /// Its default when it may be left out, as TOML text; `None` when it is required.
    pub default: Option<&'static str>,
    /// What it sets, in a plain sentence.
    pub about: &'static str,
}

/// One play style of the library.
#[derive(Clone, Copy, serde::Serialize)]
pub struct StyleInfo {
    /// The value of `style` in a surface (`match_symbols`).
    pub name: &'static str,
    /// The industry's name for it (`match symbols`, WAC 315-10-024 where it is listed).
    pub term: &'static str,
    /// How it wins, in one or two plain sentences.
    pub about: &'static str,
    /// What a naive player reads as a win on it, which no face may contradict (the
    /// ambiguity policy, GAMES.md "Beyond the seed games").
    pub naive: &'static str,
    /// The face columns it writes, in words (`{id}_amount`, `{id}_caption`).
    pub columns: &'static str,
    /// Its parameters.
    pub params: &'static [Param],
    /// A complete `[[surfaces]]` entry using it, as TOML text.
    pub example: &'static str,
    /// Builds the style from a surface table.
    #[serde(skip)]
    pub build: Build,
}

/// Every play style tirage knows, by name.
pub static LIBRARY: &[StyleInfo] = &[
    super::card_hands::INFO,
    super::card_total::INFO,
    super::compare::INFO,
    super::crossword::INFO,
    super::key_match::INFO,
    super::lines::INFO,
    super::match_amounts::INFO,
    super::match_count::INFO,
    super::match_symbols::INFO,
    super::reveal::INFO,
    super::symbol_to_prize::INFO,
];

/// The style named `name`.
pub fn find(name: &str) -> Option<&'static StyleInfo> {
    LIBRARY.iter().find(|s| s.name == name)
}

/// Deserializes a surface's table into a style's raw parameters (a serde struct with
/// `deny_unknown_fields`). Errors: a missing or unknown key, or a value of the wrong type,
/// as the TOML library words it, about the field's full path (`games[0].amounts[1]`,
/// `games[0].near_mis`).
pub fn parse<T: DeserializeOwned>(table: toml::Table) -> Result<T, FieldError> {
    let keys = table.clone();
    serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(
        |e: serde_path_to_error::Error<toml::de::Error>| {
            let msg = plain_types(e.inner().message().trim());
            let path = e.path().to_string();
            let missing = msg
                .strip_prefix("missing field `")
                .and_then(|m| m.split('`').next());
            let field = match (path.as_str(), missing) {
                (".", _) => field_of(&msg, &keys),
                (_, Some(key)) => format!("{path}.{key}"),
                _ => path,
            };
            FieldError::new(field, msg)
        },
    )
}

/// The field a deserialization error is about: the one it names (`missing field `cells``,
/// `unknown field `boxez``), else the key whose value it quotes (`invalid value: integer
/// `-1``), else none (the surface as a whole).
fn field_of(msg: &str, table: &toml::Table) -> String {
    for lead in ["missing field `", "unknown field `", "duplicate field `"] {
        if let Some(rest) = msg.split(lead).nth(1) {
            return rest.split('`').next().unwrap_or("").to_string();
        }
    }
    // The value quoted in the message: `-1` or "NaN".
    let quoted = msg
        .split('`')
        .nth(1)
        .map(str::to_string)
        .or_else(|| msg.split('"').nth(1).map(|v| format!("\"{v}\"")));
    let Some(quoted) = quoted else {
        return String::new();
    };
    let mut found = Vec::new();
    find_value(table, "", &quoted, &mut found);
    if found.len() == 1 {
        found.remove(0)
    } else {
        String::new()
    }
}

/// Every key path under `table` whose value is written `text` in TOML.
fn find_value(table: &toml::Table, prefix: &str, text: &str, found: &mut Vec<String>) {
    for (k, v) in table {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => find_value(t, &path, text, found),
            toml::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    match item {
                        toml::Value::Table(t) => {
                            find_value(t, &format!("{path}[{i}]"), text, found)
                        }
                        other if other.to_string() == text => found.push(path.clone()),
                        _ => {}
                    }
                }
            }
            other if other.to_string() == text => found.push(path),
            _ => {}
        }
    }
}

/// True when `w` is a symbol name: 1 to 64 characters, uppercase ASCII letters, digits, `_`
/// and single spaces between them (`COQ`, `07`, `AS_DE_PIQUE`, `GOLD BAR`, `LUCKY 7`); no
/// leading, trailing or doubled space.
pub fn is_symbol(w: &str) -> bool {
    !w.is_empty()
        && w.len() <= 64
        && w.split(' ').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
}

/// The symbol as it enters a feature or play area id: lowercase, each space an `_`
/// (`GOLD BAR` → `gold_bar`).
pub fn symbol_id(symbol: &str) -> String {
    symbol.to_lowercase().replace(' ', "_")
}

/// Checks a style's symbol list and returns it as a column dictionary (code = index).
///
/// Symbols are what the files print, as [`is_symbol`] says: uppercase ASCII letters, digits,
/// `_` and single inner spaces (`COQ`, `07`, `AS_DE_PIQUE`, `GOLD BAR`), 1 to 64 characters,
/// none repeated. Errors (about `field`): an empty, long or malformed symbol, a repeat,
/// fewer than `min` or more than 256 symbols.
pub fn symbols(words: &[String], min: usize, field: &str) -> Result<Vec<String>, FieldError> {
    let err = |m: String| FieldError::new(field, m);
    let mut seen = HashSet::new();
    for w in words {
        if !is_symbol(w) {
            return Err(err(format!(
                "{w:?} is not a symbol: expected 1 to 64 uppercase letters, digits or _, words separated by single spaces"
            )));
        }
        if !seen.insert(w.as_str()) {
            return Err(err(format!("\"{w}\" is listed twice")));
        }
    }
    if words.len() < min {
        return Err(err(format!(
            "expected at least {min} symbols, got {}",
            words.len()
        )));
    }
    if words.len() > super::common::MAX_SYMBOLS {
        return Err(err(format!(
            "at most {} symbols, got {}",
            super::common::MAX_SYMBOLS,
            words.len()
        )));
    }
    Ok(words.to_vec())
}

/// The numbers `from..=to` written with `width` digits (`01`…`75`), as a symbol list.
pub fn numbers(from: u32, to: u32, width: usize) -> Vec<String> {
    (from..=to).map(|n| format!("{n:0width$}")).collect()
}

/// A list of symbols as a spec writes it: one by one (`symbols = ["COQ", "07"]`), or, for
/// printed numbers, as a range (`symbols = { from = 1, to = 50, width = 2 }`), which stands
/// for exactly the list of its numbers written with `width` digits (`["01", …, "50"]`;
/// `width` defaults to the digits of `to`). Checked as a list by [`symbols`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolList(pub Vec<String>);

/// A range of printed numbers in place of a symbol list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NumberRange {
    from: u32,
    to: u32,
    #[serde(default)]
    width: Option<usize>,
}

/// The numbers `from..=to` written with `width` digits (by default those of `to`). Errors:
/// `to` below `from`, more than [`super::common::MAX_SYMBOLS`] numbers, or a `width` that
/// cannot write `to` (or above 9).
pub fn number_range(from: u32, to: u32, width: Option<usize>) -> Result<Vec<String>, String> {
    if to < from {
        return Err(format!("`to` ({to}) is below `from` ({from})"));
    }
    let most = super::common::MAX_SYMBOLS as u64;
    if u64::from(to - from) + 1 > most {
        return Err(format!(
            "{from} to {to} are {} numbers; at most {most}",
            u64::from(to - from) + 1
        ));
    }
    let digits = to.to_string().len();
    let width = width.unwrap_or(digits);
    if width > 9 || width < digits {
        return Err(format!("`width` {width} cannot write {to}"));
    }
    Ok(numbers(from, to, width))
}

impl<'de> Deserialize<'de> for SymbolList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SymbolList, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = SymbolList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of symbols, or a range of numbers { from, to, width }")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SymbolList, A::Error> {
                let mut v = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    v.push(s);
                }
                Ok(SymbolList(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<SymbolList, A::Error> {
                let r =
                    NumberRange::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                number_range(r.from, r.to, r.width)
                    .map(SymbolList)
                    .map_err(A::Error::custom)
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit;

    #[test]
    fn symbols_allow_words_and_numbers_and_refuse_the_rest() {
        let w = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            symbols(&w(&["COQ", "07", "AS_DE_PIQUE"]), 2, "symbols").unwrap(),
            w(&["COQ", "07", "AS_DE_PIQUE"])
        );
        let e = symbols(&w(&["COQ", "coq"]), 1, "symbols").unwrap_err();
        assert_eq!(e.field, "symbols");
        assert!(
            e.message.contains("\"coq\" is not a symbol"),
            "{}",
            e.message
        );
        let e = symbols(&w(&["A", "A"]), 1, "x").unwrap_err();
        assert_eq!(e.message, "\"A\" is listed twice");
        let e = symbols(&w(&["A"]), 2, "x").unwrap_err();
        assert_eq!(e.message, "expected at least 2 symbols, got 1");
        assert!(symbols(&w(&["=1"]), 1, "x").is_err());
        assert_eq!(
            symbols(&w(&["GOLD BAR", "LUCKY 7", "A B C"]), 1, "x").unwrap(),
            w(&["GOLD BAR", "LUCKY 7", "A B C"])
        );
        for bad in [
            " GOLD",
            "GOLD ",
            "GOLD  BAR",
            " ",
            "GOLD\tBAR",
            "Gold Bar",
            "PO\nMME",
        ] {
            let e = symbols(&w(&[bad]), 1, "x").unwrap_err();
            assert_eq!(
                e.message,
                format!("{bad:?} is not a symbol: expected 1 to 64 uppercase letters, digits or _, words separated by single spaces")
            );
        }
        assert_eq!(symbol_id("GOLD BAR"), "gold_bar");
        assert_eq!(symbol_id("AS_DE_PIQUE"), "as_de_pique");
    }

    /// Every style's example in `tirage styles` builds as it is written, given captions for
    /// every amount it may show (at most the 256 a caption column codes).
    #[test]
    fn every_library_example_builds() {
        let mut units: Vec<u64> = (0..=200).collect();
        units.extend((250..=1000).step_by(50));
        units.extend([2000, 5000, 10_000, 15_000, 20_000, 50_000]);
        assert!(units.len() <= super::super::MAX_CAPTIONS);
        for info in LIBRARY {
            let (id, t) = testkit::example_surface(info);
            let ctx = testkit::Ctx::new(&id)
                .captions(testkit::captions(&units))
                .tiers(&units[1..]);
            let m = (info.build)(t, &ctx.get()).unwrap_or_else(|e| panic!("{}: {e:?}", info.name));
            assert!(!m.layout().areas.is_empty(), "{}", info.name);
        }
    }

    /// A range stands for exactly the list of its numbers; a bad range is refused, naming
    /// the field.
    #[test]
    fn symbol_lists_are_listed_or_a_range_of_numbers() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            symbols: SymbolList,
        }
        let read = |t: &str| parse::<Raw>(toml::from_str(t).unwrap()).map(|r| r.symbols.0);
        let listed = read("symbols = [\"01\", \"02\", \"03\"]").unwrap();
        assert_eq!(
            read("symbols = { from = 1, to = 3, width = 2 }").unwrap(),
            listed
        );
        assert_eq!(
            read("symbols = { from = 9, to = 10 }").unwrap(),
            ["09", "10"]
        );
        assert_eq!(
            read("symbols = { from = 1, to = 3 }").unwrap(),
            ["1", "2", "3"]
        );
        let fifty = read("symbols = { from = 1, to = 50, width = 2 }").unwrap();
        assert_eq!(fifty.len(), 50);
        assert_eq!((fifty[0].as_str(), fifty[49].as_str()), ("01", "50"));
        let err = |t: &str| read(t).unwrap_err();
        let e = err("symbols = { from = 5, to = 3 }");
        assert_eq!(e.field, "symbols");
        assert!(e.message.contains("`to` (3) is below `from` (5)"), "{e:?}");
        let e = err("symbols = { from = 1, to = 100, width = 2 }");
        assert!(e.message.contains("`width` 2 cannot write 100"), "{e:?}");
        let e = err("symbols = { from = 1, to = 300 }");
        assert!(e.message.contains("300 numbers; at most 256"), "{e:?}");
        let e = err("symbols = { from = 1, too = 3 }");
        assert!(e.message.contains("unknown field `too`"), "{e:?}");
        assert_eq!(e.field, "symbols.too");
        let e = err("symbols = 3");
        assert!(
            e.message
                .contains("an array of symbols, or a range of numbers"),
            "{e:?}"
        );
    }

    #[test]
    fn numbers_are_zero_padded() {
        assert_eq!(numbers(1, 3, 2), vec!["01", "02", "03"]);
        assert_eq!(numbers(9, 10, 1), vec!["9", "10"]);
    }

    #[test]
    fn parse_names_the_missing_or_unknown_field() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Raw {
            cells: u32,
        }
        let t: toml::Table = toml::from_str("cellz = 3").unwrap();
        let e = parse::<Raw>(t).unwrap_err();
        assert_eq!(e.field, "cellz", "{e:?}");
        let t: toml::Table = toml::from_str("").unwrap();
        let e = parse::<Raw>(t).unwrap_err();
        assert_eq!(e.field, "cells", "{e:?}");
        let t: toml::Table = toml::from_str("cells = -1").unwrap();
        let e = parse::<Raw>(t).unwrap_err();
        assert_eq!(e.field, "cells", "{e:?}");
        let t: toml::Table = toml::from_str("cells = \"NaN\"").unwrap();
        let e = parse::<Raw>(t).unwrap_err();
        assert_eq!(e.field, "cells", "{e:?}");
    }
}

/// Serde's type names in an `expected …` of a deserialization message (`invalid type:
/// string "x", expected usize`), each with its words for a spec's author.
const TYPE_WORDS: [(&str, &str); 14] = [
    ("u8", "a whole number from 0 to 255"),
    ("u16", "a whole number from 0 to 65,535"),
    ("u32", "a whole number from 0 to 4,294,967,295"),
    ("u64", "a whole number ≥ 0"),
    ("usize", "a whole number ≥ 0"),
    ("i8", "a whole number from -128 to 127"),
    ("i16", "a whole number from -32,768 to 32,767"),
    ("i32", "a whole number"),
    ("i64", "a whole number"),
    ("isize", "a whole number"),
    ("f32", "a number"),
    ("f64", "a number"),
    ("a sequence", "a list ([…])"),
    ("a map", "a table"),
];

/// `msg`, a deserialization message, with each `expected TYPE` naming a Rust type said in
/// words (an integer as a whole number with its range, a float as a number, a sequence as
/// a list, a map as a table): `invalid type: string "x", expected usize` becomes `invalid
/// type: string "x", expected a whole number ≥ 0`. Anything else is left as it is.
pub fn plain_types(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(i) = rest.find("expected ") {
        let (before, after) = rest.split_at(i + "expected ".len());
        out.push_str(before);
        rest = after;
        let word = TYPE_WORDS.iter().find(|(ty, _)| {
            rest.strip_prefix(ty)
                .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        });
        if let Some((ty, words)) = word {
            out.push_str(words);
            rest = &rest[ty.len()..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod type_words_tests {
    use super::plain_types;

    #[test]
    fn rust_type_names_are_said_in_words() {
        assert_eq!(
            plain_types("invalid type: string \"x\", expected usize"),
            "invalid type: string \"x\", expected a whole number ≥ 0"
        );
        assert_eq!(
            plain_types("invalid value: integer `-1`, expected u32"),
            "invalid value: integer `-1`, expected a whole number from 0 to 4,294,967,295"
        );
        assert_eq!(
            plain_types("invalid type: integer `2`, expected a sequence"),
            "invalid type: integer `2`, expected a list ([…])"
        );
        assert_eq!(
            plain_types("invalid type: string \"a\", expected f64 or expected u8"),
            "invalid type: string \"a\", expected a number or expected a whole number from 0 to 255"
        );
        // Names that only begin like a type, and other words, are kept.
        assert_eq!(
            plain_types("expected u8x, expected a string, expected a boolean"),
            "expected u8x, expected a string, expected a boolean"
        );
    }
}
