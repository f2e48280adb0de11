//! Printed tokens a player could confuse: no two different words printed on one ticket may
//! read the same.
//!
//! A player reads `GOLD_COIN` as `GOLD COIN` and `03` as `3`: a decoy that reads as a
//! legend symbol, a symbol captioned like another symbol, or a spot number that reads as a
//! winning number shows a win that pays nothing. At load, every token a ticket of the game
//! can print is gathered, over every surface and shared element (they print on one
//! ticket): symbols, decoys, winning and special symbols, legend and multiplier keys, the
//! captions printed under symbols (`[symbol_captions]`, a special's `caption`) and the
//! items printed in place of amounts. Two tokens that stand for different things and read
//! the same ([`reading`]) are refused, naming both; a symbol and its own caption may read
//! the same. The tokens are the symbols the game's layout prints ([`Layout`] columns and
//! printed lines), each found where the spec writes it for the error's field and line;
//! codes the spec does not write (cards, a crossword's letters and grid numbers) are not
//! spec tokens and are left out.

use super::raw::RawSpec;
use super::{ErrorAt, SpecError};
use crate::language::Phrase;
use crate::styles::game::Game;
use crate::styles::shared::SharedKind;
use crate::styles::{ColumnKind, Layout};
use crate::text::reading;
use std::collections::{BTreeMap, HashSet};

/// Fields of a surface's table that list symbols, each with the noun for one of them.
const LISTS: [(&str, &str); 3] = [
    ("symbols", "symbol"),
    ("decoys", "decoy"),
    ("winning", "winning symbol"),
];

/// Fields of a surface's table keyed by symbol, each with the noun for one of its keys.
const KEYED: [(&str, &str); 2] = [
    ("legend", "legend symbol"),
    ("multiplier", "multiplier symbol"),
];

/// What a printed token stands for: two tokens standing for the same thing may read the
/// same (a symbol and its own caption, a symbol printed on two surfaces).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Meaning {
    /// The play symbol written so in files.
    Symbol(String),
    /// The item of tier `n`.
    Item(usize),
    /// The amount whose caption it is (`[captions]`), as the spec writes its key.
    Amount(String),
}

/// One printed token and where the spec writes it.
struct Token {
    text: String,
    meaning: Meaning,
    /// The field that writes it (`surfaces[1].decoys`) and the byte offset of its table.
    field: String,
    offset: usize,
    /// How the field gives it (`decoys lists "GOLD_COIN"`).
    given: String,
    /// What it is (`the legend symbol "GOLD COIN"`).
    what: String,
}

/// Refuses two different printed tokens of the game that read the same ([`reading`]),
/// unless they stand for the same thing (a symbol and its own caption). The error is
/// about the token written later in the file: its field and line, naming both tokens
/// (`decoys lists "GOLD_COIN", which reads as the legend symbol "GOLD COIN"`).
pub(super) fn check(raw: &RawSpec, game: &Game, at: &ErrorAt) -> Result<(), SpecError> {
    let mut tokens = Vec::new();
    for (e, (shared, rs)) in game.shared().iter().zip(&raw.shared).enumerate() {
        if shared.kind == SharedKind::Draw {
            for v in &shared.values {
                tokens.push(symbol(v, format!("shared[{e}].symbols"), rs.span().start));
            }
        }
    }
    for (i, (surface, rs)) in game.surfaces().iter().zip(&raw.surfaces).enumerate() {
        surface_tokens(
            surface.rule.layout(),
            rs.get_ref(),
            &format!("surfaces[{i}]"),
            rs.span().start,
            &mut tokens,
        );
    }
    if let Some(t) = &raw.symbol_captions {
        for (s, c) in t.get_ref() {
            let c = c.trim();
            tokens.push(Token {
                text: c.to_string(),
                meaning: Meaning::Symbol(s.clone()),
                field: format!("symbol_captions.\"{s}\""),
                offset: t.span().start,
                given: format!("caption \"{c}\" of symbol \"{s}\""),
                what: format!("the caption \"{c}\" of symbol \"{s}\""),
            });
        }
    }
    for (n, t) in raw.tiers.iter().enumerate() {
        if let Some(item) = &t.get_ref().item {
            let (item, amount) = (item.trim(), t.get_ref().amount);
            tokens.push(Token {
                text: item.to_string(),
                meaning: Meaning::Item(n),
                field: format!("tiers[{n}].item (amount {amount})"),
                offset: t.span().start,
                given: format!("item \"{item}\""),
                what: format!("the item \"{item}\" of tier {n}"),
            });
        }
    }
    // Amounts' captions print under amounts: a symbol's caption or an item reading as one
    // would read as a prize. (Two amounts' captions are compared where they are checked.)
    if let Some(offset) = raw.captions_span() {
        for (k, c) in raw.caption_entries() {
            let c = c.trim();
            tokens.push(Token {
                text: c.to_string(),
                meaning: Meaning::Amount(k.clone()),
                field: format!("captions.\"{k}\""),
                offset,
                given: format!("caption \"{c}\" of the amount {k}"),
                what: format!("the caption \"{c}\" of the amount {k}"),
            });
        }
    }
    // The later of two tokens is at fault: tokens in the order the file writes them.
    let line = |t: &Token| at.at(Some(t.offset), t.field.clone(), "").line;
    let mut lines: Vec<(Option<usize>, usize)> = tokens
        .iter()
        .enumerate()
        .map(|(k, t)| (line(t), k))
        .collect();
    lines.sort_by_key(|&(l, k)| (l.unwrap_or(usize::MAX), k));
    let mut seen = HashSet::new();
    let mut read: BTreeMap<String, usize> = BTreeMap::new();
    for (_, k) in lines {
        let t = &tokens[k];
        if !seen.insert((t.text.as_str(), &t.meaning)) {
            continue;
        }
        match read.get(&reading(&t.text)) {
            Some(&f)
                if tokens[f].meaning != t.meaning
                    && !matches!(
                        (&tokens[f].meaning, &t.meaning),
                        (Meaning::Amount(_), Meaning::Amount(_))
                    ) =>
            {
                let first = &tokens[f];
                return Err(at.at(
                    Some(t.offset),
                    t.field.clone(),
                    format!(
                        "{}{}, which reads as {} ({}): a player could not tell them apart (case, spaces, _ - ., leading zeros, O for 0, I for 1 and look-alike letters of other scripts aside); write them so that they read differently",
                        t.given, crate::text::look_alike_note(&t.text), first.what, first.field
                    ),
                ));
            }
            Some(_) => {}
            None => {
                read.insert(reading(&t.text), k);
            }
        }
    }
    Ok(())
}

/// A symbol of the field `field` (a shared draw's `symbols`).
fn symbol(text: &str, field: String, offset: usize) -> Token {
    Token {
        text: text.to_string(),
        meaning: Meaning::Symbol(text.to_string()),
        given: format!("symbols lists \"{text}\""),
        what: format!("the symbol \"{text}\""),
        field,
        offset,
    }
}

/// The tokens surface `surface` (its style's `layout`, its spec `table` at byte `offset`)
/// prints: every symbol its symbol columns and printed lines show that the table writes
/// (or a number of its range), and each special's caption.
fn surface_tokens(
    layout: &Layout,
    table: &toml::Table,
    surface: &str,
    offset: usize,
    tokens: &mut Vec<Token>,
) {
    let mut shown: Vec<&str> = Vec::new();
    for (c, col) in layout.columns.iter().enumerate() {
        if layout.reads.contains(&c) {
            continue;
        }
        match &col.kind {
            ColumnKind::Symbol => shown.extend(col.values.iter().map(String::as_str)),
            // Symbols shown in place of an amount (match_amounts' specials).
            ColumnKind::Amount(a) => shown.extend(col.values[a.len()..].iter().map(String::as_str)),
            ColumnKind::Caption { .. } => {}
        }
    }
    for p in &layout.printed {
        for phrase in p.lines.iter().flat_map(|l| &l.phrases) {
            match phrase {
                Phrase::Pays { symbol, .. } | Phrase::Multiplies { symbol, .. } => {
                    shown.push(symbol);
                }
                Phrase::WinningSymbols(s) => shown.extend(s.iter().map(String::as_str)),
                _ => {}
            }
        }
    }
    let mut written = Vec::new();
    written_symbols(table, "", &mut written);
    let range = ["symbols", "from"]
        .into_iter()
        .find(|k| table.contains_key(*k));
    let mut done = HashSet::new();
    for s in shown {
        if !done.insert(s) {
            continue;
        }
        let mut found = false;
        for w in written.iter().filter(|w| w.text == s) {
            found = true;
            tokens.push(Token {
                text: s.to_string(),
                meaning: Meaning::Symbol(s.to_string()),
                field: format!("{surface}.{}", w.path),
                offset,
                given: w.given.clone(),
                what: w.what.clone(),
            });
        }
        // A number of a range (`symbols = { from = 1, to = 50 }`, `from`/`to`).
        if let (false, Some(key)) = (found, range) {
            if s.bytes().all(|b| b.is_ascii_digit()) {
                tokens.push(Token {
                    text: s.to_string(),
                    meaning: Meaning::Symbol(s.to_string()),
                    field: format!("{surface}.{key}"),
                    offset,
                    given: format!("the numbers of {key} include \"{s}\""),
                    what: format!("the number \"{s}\""),
                });
            }
        }
    }
    if let Some(toml::Value::Array(specials)) = table.get("specials") {
        for (j, sp) in specials.iter().enumerate() {
            let (Some(s), Some(c)) = (
                sp.get("symbol").and_then(toml::Value::as_str),
                sp.get("caption").and_then(toml::Value::as_str),
            ) else {
                continue;
            };
            tokens.push(Token {
                text: c.to_string(),
                meaning: Meaning::Symbol(s.to_string()),
                field: format!("{surface}.specials[{j}].caption"),
                offset,
                given: format!("caption \"{c}\" of the special symbol \"{s}\""),
                what: format!("the caption \"{c}\" of the special symbol \"{s}\""),
            });
        }
    }
}

/// A symbol a surface's table writes, with the field's path inside the table (`decoys`,
/// `games[0].legend`), how the field gives it and what it is.
struct Written {
    text: String,
    path: String,
    given: String,
    what: String,
}

/// Every symbol `table` writes in a field of [`LISTS`] or [`KEYED`], or as a special's
/// `symbol`, at any depth of its arrays of tables (`games[0].legend`), after `prefix`.
fn written_symbols(table: &toml::Table, prefix: &str, out: &mut Vec<Written>) {
    for (key, value) in table {
        let path = format!("{prefix}{key}");
        let mut add = |text: &str, given: String, noun: &str| {
            out.push(Written {
                text: text.to_string(),
                path: path.clone(),
                given,
                what: format!("the {noun} \"{text}\""),
            });
        };
        if let (Some((_, noun)), toml::Value::Array(items)) =
            (LISTS.iter().find(|(k, _)| k == key), value)
        {
            for s in items.iter().filter_map(toml::Value::as_str) {
                add(s, format!("{key} lists \"{s}\""), noun);
            }
        } else if let (Some((_, noun)), toml::Value::Table(t)) =
            (KEYED.iter().find(|(k, _)| k == key), value)
        {
            for s in t.keys() {
                add(s, format!("{key} has \"{s}\""), noun);
            }
        } else if let toml::Value::Array(items) = value {
            for (j, t) in items.iter().enumerate() {
                let Some(t) = t.as_table() else { continue };
                if key == "specials" {
                    if let Some(s) = t.get("symbol").and_then(toml::Value::as_str) {
                        out.push(Written {
                            text: s.to_string(),
                            path: format!("{path}[{j}].symbol"),
                            given: format!("special symbol \"{s}\""),
                            what: format!("the special symbol \"{s}\""),
                        });
                    }
                } else {
                    written_symbols(t, &format!("{path}[{j}]."), out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reading;

    #[test]
    fn tokens_read_as_a_player_reads_them() {
        assert_eq!(reading("GOLD_COIN"), "G0LDC01N");
        assert_eq!(reading("gold coin"), reading("GOLD COIN"));
        assert_eq!(reading("Gold-Coin."), "G0LDC01N");
        assert_eq!(reading("03"), "3");
        // Letters that print like digits read as them; a lowercase l does not.
        assert_eq!(reading("C0UPE"), reading("COUPE"));
        assert_eq!(reading("O5"), "5");
        assert_eq!(reading("o5"), reading("05"));
        assert_eq!(reading("I0"), "10");
        assert_eq!(reading("STAR O7"), reading("STAR 07"));
        assert_eq!(reading("OO"), "0");
        assert_eq!(reading("D00R"), reading("DOOR"));
        assert_ne!(reading("DOOR"), reading("DOR"));
        assert_ne!(reading("l0"), reading("10"));
        assert_eq!(reading("gold"), reading("GOLD"));
        assert_ne!(reading("COIN"), reading("CIN"));
        assert_eq!(reading("STAR 07"), "STAR7");
        assert_eq!(reading("07"), reading("7"));
        assert_eq!(reading("100"), "100");
        assert_eq!(reading("00"), "0");
        assert_eq!(reading("0"), "0");
        assert_eq!(reading("A0B"), "A0B");
        assert_eq!(reading("X 05 Y"), "X5Y");
        assert_eq!(reading("GOLD\u{a0}COIN"), reading("GOLDCOIN"));
        assert_eq!(reading("\u{ff27}OLD \u{ff13}"), reading("GOLD 3"));
        assert_ne!(reading("GOLD COIN"), reading("GOLD COINS"));
        assert_ne!(reading("3"), reading("30"));
    }
}
