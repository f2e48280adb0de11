//! The *match amounts* play style ("match 3 like amounts, win that amount"): a surface of
//! `cells` amount cells, each showing an amount in figures with its caption (like a reveal
//! box); an amount shown `match` times wins that amount.
//!
//! - **Rule**: an amount shown exactly `k` times (`match`, default 3) among the cells wins
//!   that amount; the surface has one play area and wins at most once. (Should two amounts
//!   each show exactly `k` times, the rule's letter pays the largest: such a face is
//!   ambiguous and never printed.)
//! - **Naive reading**: a player reads any amount shown `k` times *or more* as a win, and two
//!   different amounts each shown `k` times (or more) as two wins. So no face shows an amount
//!   more than `k` times ([`AMB_OVER`]), or two amounts `k` times or more each ([`AMB_TWO`]);
//!   on a losing face every amount shows at most `k − 1` times. The evaluator flags each
//!   case in [`Evaluation::ambiguities`].
//! - **Columns**: `{id}_amt1`, `{id}_cap1`, `{id}_amt2`, `{id}_cap2`, … (amount then caption,
//!   cell by cell, as the reveal style orders its boxes). One panel, named after the play
//!   area (`area`, default the surface id), `per_row` cells a printed row.
//! - **Features**: `near_miss_<area>` (near miss): a losing face showing the largest amount
//!   of `amounts` (the top prize) `k − 1` times, one short of the match, drawn on a share
//!   `near_miss` of the losing faces. When it is not drawn, the largest amount shows at most
//!   `k − 2` times, so the share is exact. Other amounts may show `k − 1` times on any face:
//!   they are not counted as the near miss.
//! - **Synthesis**: a winning face shows its amount `k` times; every other amount fills the
//!   other cells at most `k − 1` times each (drawn cell by cell among the amounts with room
//!   left), then the cells are shuffled. A losing face does the same with no match, the
//!   largest amount at most `k − 2` times unless the near miss is drawn (then exactly
//!   `k − 1` times). Load checks that the cells can always be filled so.
//!
//! **Special symbols** (`specials`, the shared `special` module; the industry's "reveal a 2X,
//! win double the prize; reveal a MONEY BAG, win all amounts shown"). A cell may show, in
//! place of an amount, a special symbol the spec lists, with the special's `caption` in its
//! caption box (required here: every cell prints a caption). A **multiplier** (`2X`,
//! `times = 2`) multiplies the surface's match win by its factor; a **win-all** symbol wins
//! every amount the other cells show, added up, once. Each wins in a play area of its own
//! after the surface's (default `{id}_{symbol}` in lower case), which ways name in `areas`.
//! An **auto-win** is refused: a cell here shows no amount under a symbol, so it would have
//! nothing to win (a multiplier or a win-all says what the game means).
//! - **Naive reading**: a special never counts towards a match; a player who sees a
//!   multiplier beside a match takes the match times it, and a win-all all the amounts
//!   shown. So no face shows two special symbols ([`AMB_SPECIALS`]), a win-all beside a
//!   match (counted once: [`AMB_WIN_ALL_BESIDE`]), a special with a caption not its own
//!   ([`AMB_SPECIAL_CAPTION`]), or a multiplier on a face with no match unless the spec
//!   gives that decoy a rate ([`AMB_LONE_MULTIPLIER`]); a special symbol or caption that
//!   reads as an amount or an amount's caption is refused at load.
//! - **Features**: `decoy_<symbol>` (lower case): a losing face showing that multiplier, on
//!   a share `decoy_multiplier` of the losing faces (one multiplier drawn evenly).
//! - **Synthesis**: a multiplied win shows its amount `k` times and the multiplier once; a
//!   win-all face shows the symbol once and `cells − 1` amounts adding up to the win, none
//!   `k` times (`Fill`). Refused at load: a multiplier whose every multiplied amount is
//!   above the largest lot, a second win-all, a special no way wins by.

use super::common::LosingNearMiss;
use super::common::{self, AmountBox};
use super::special::{self, RawSpecial, SpecialKind, Specials};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, Evaluation, Face, FaceRng, FeatureId, FeatureKind, Layout, Mark,
    MarkKind, Panel, Plan, Refusal, Style, INLINE_CELLS, MAX_COLUMNS,
};
use crate::crypto::rng::{below, chance, shuffle};
use crate::language::{Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use smallvec::SmallVec;
use std::sync::Arc;

/// Ambiguity: an amount shows more times than the match (a naive player reads it as a win).
pub const AMB_OVER: &str = "an amount shown more times than the match";
/// Ambiguity: two different amounts each show the match count or more (two wins, naively).
pub const AMB_TWO: &str = "two amounts each shown as often as the match";
/// Ambiguity: two special symbols on one face (the same twice, or two different ones).
pub const AMB_SPECIALS: &str = "two special symbols on one face (match_amounts)";
/// Ambiguity: a win-all symbol beside a match (the win-all already wins every amount shown:
/// counted once, and never printed).
pub const AMB_WIN_ALL_BESIDE: &str = "a win-all symbol beside a match (match_amounts)";
/// Ambiguity: a multiplier on a face with no match, with no decoy rate for it.
pub const AMB_LONE_MULTIPLIER: &str = "a multiplier beside no match (match_amounts)";
/// Ambiguity: a special symbol's cell with a caption that is not the special's.
pub const AMB_SPECIAL_CAPTION: &str = "a special symbol with a caption not its own";

/// The surface's parameters as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatchAmounts {
    /// Number of amount cells.
    cells: usize,
    /// Identical amounts needed to win.
    #[serde(default = "three", rename = "match")]
    k: usize,
    /// The amounts a cell may show; by default every amount of the lot table (up to `max`).
    #[serde(default)]
    amounts: Option<Vec<Money>>,
    /// The play area's name; by default the surface id.
    #[serde(default)]
    area: Option<String>,
    /// Cells per printed row on proofs; by default all in one row.
    #[serde(default)]
    per_row: Option<usize>,
    /// Share of losing faces showing the largest amount `k − 1` times.
    #[serde(default)]
    near_miss: f64,
    /// Special symbols a cell may show in place of an amount.
    #[serde(default)]
    specials: Vec<RawSpecial>,
    /// Share of losing faces showing a multiplier (a decoy).
    #[serde(default)]
    decoy_multiplier: f64,
}

fn three() -> usize {
    3
}

/// The library's entry for this style.
pub static INFO: StyleInfo = StyleInfo {
    name: "match_amounts",
    term: "match amounts (match 3 like amounts, win that amount)",
    about: "Each cell shows an amount with its caption; an amount shown exactly `match` times \
            (default 3) wins that amount. The surface wins at most once. A cell may show a \
            special symbol in place of an amount (`specials`): a multiplier multiplies the \
            match's win, a win-all wins every amount the other cells show, added up.",
    naive: "Any amount shown `match` times or more reads as a win, and two amounts shown that \
            often as two wins: so no amount is ever shown more than `match` times, never two \
            amounts `match` times, and on a losing face every amount at most `match` − 1 times. \
            A special symbol counts towards no match; a player who sees one takes its prize: \
            so no face shows two, nor a win-all beside a match.",
    columns: "{id}_amt1, {id}_cap1, {id}_amt2, {id}_cap2, … (amount then caption, cell by cell)",
    params: &[
        Param {
            name: "cells",
            kind: "integer",
            default: None,
            about: "Number of amount cells (2 to 64).",
        },
        Param {
            name: "match",
            kind: "integer",
            default: Some("3"),
            about: "Identical amounts needed to win that amount (2 to `cells`).",
        },
        Param {
            name: "amounts",
            kind: "array of amounts",
            default: Some("every amount of the lot table, up to `max`"),
            about: "The amounts a cell may show (each needs a caption); enough of them to fill \
                    the cells without a repeat into a win.",
        },
        Param {
            name: "area",
            kind: "string",
            default: Some("the surface id"),
            about: "The play area's name (ways' `areas`, `[labels]`, the panel on proofs).",
        },
        Param {
            name: "per_row",
            kind: "integer",
            default: Some("`cells`"),
            about: "Cells per printed row on proofs.",
        },
        Param {
            name: "near_miss",
            kind: "share 0..1",
            default: Some("0"),
            about: "Share of losing faces showing the largest amount `match` − 1 times \
                    (feature near_miss_<area>).",
        },
        Param {
            name: "specials",
            kind: "array of tables",
            default: Some("none"),
            about: "Special symbols a cell may show in place of an amount, each with its \
                    `caption`: `{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \
                    \"DOUBLE\" }` wins the match's amount twice, `{ symbol = \"SAC\", kind = \
                    \"win_all\", caption = \"GAGNE TOUT\" }` every amount the other cells show, \
                    added up. Each wins in a play area of its own (`area`, default \
                    `{id}_{symbol}` in lower case) that ways name in `areas`; no auto-win.",
        },
        Param {
            name: "decoy_multiplier",
            kind: "share 0..1",
            default: Some("0"),
            about: "Share of losing faces showing a multiplier, which multiplies nothing \
                    (feature decoy_<symbol>).",
        },
    ],
    example: r#"[[surfaces]]
style = "match_amounts"
id = "jeu"
cells = 6
match = 3
per_row = 3
amounts = [1, 2, 5, 50, 500]
near_miss = 0.3"#,
    build,
};

/// The match-amounts style on one surface.
pub struct MatchAmounts {
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    /// Amounts a cell shows (code = index, ascending; the largest last).
    amounts: AmountBox,
    cells: usize,
    k: usize,
    per_row: usize,
    near_miss: u32,
    /// The near miss, in the layout's feature table.
    near_miss_id: FeatureId,
    description: Vec<String>,
    /// The special symbols, in the spec's order: special `j` shows in an amount column as
    /// code `amounts + j` and wins in play area `1 + j`.
    specials: Specials,
    /// `special_caption[j]`: the caption column's code of special `j`'s caption.
    special_caption: Vec<u8>,
    /// Share of losing faces showing a multiplier, per million.
    decoy_multiplier: u32,
    /// The multipliers, each with its decoy feature: (special index, feature).
    decoys: Vec<(usize, FeatureId)>,
}

/// What a face of a way shows, found once when the way is planned.
#[derive(Debug, Clone)]
enum Want {
    /// No match (a near miss or a decoy multiplier drawn at their rates, or asked).
    Lose,
    /// This amount code `k` times, and multiplier `Some(j)` once.
    Match(u8, Option<usize>),
    /// Win-all symbol `j` once, beside the amounts `fill` draws.
    All(usize, Fill),
}

fn is_id(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn times_word(k: usize) -> String {
    match k {
        0 => "never".into(),
        1 => "once".into(),
        2 => "twice".into(),
        k => format!("{k} times"),
    }
}

fn list(amounts: &[Money]) -> String {
    amounts
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// How a player reads a printed word or amount, for telling them apart: upper case, with
/// spaces, `_`, `-` and `.` aside.
fn read_as(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '_' | '-' | '.'))
        .flat_map(char::to_uppercase)
        .collect()
}

/// The captions of `specials` (`captions[j]` is special `j`'s, empty for none), checked:
/// every special is a multiplier or a win-all with a caption, and no special symbol or
/// caption reads as an amount, an amount's caption or another special's caption.
/// Errors (field `specials`): an auto-win, a special without a caption, a symbol or
/// caption that reads as one of those, more captions than a caption column holds.
fn special_captions(
    specials: &Specials,
    captions: &[String],
    ctx: &StyleCtx,
) -> Result<Vec<String>, FieldError> {
    let err = |m: String| FieldError::new("specials", m);
    let mut out: Vec<String> = Vec::new();
    for (j, sp) in specials.list().iter().enumerate() {
        let symbol = &sp.symbol;
        if sp.kind == SpecialKind::AutoWin {
            return Err(err(format!(
                "\"{symbol}\" is an auto-win, and a match_amounts cell shows no amount under a \
                 symbol for it to win: use kind = \"multiplier\" (times = N, the match's win N \
                 times) or kind = \"win_all\" (every amount shown, added up)"
            )));
        }
        let Some(caption) = captions.get(j).filter(|c| !c.is_empty()) else {
            return Err(err(format!(
                "\"{symbol}\" has no caption: a match_amounts cell prints a caption under what \
                 it shows; give it `caption`"
            )));
        };
        for text in [symbol, caption] {
            if text.parse::<Money>().is_ok() {
                return Err(err(format!(
                    "\"{text}\" (special symbol \"{symbol}\") reads as an amount in figures"
                )));
            }
            let read = read_as(text);
            if let Some(c) = ctx.captions.texts.iter().find(|c| read_as(c) == read) {
                return Err(err(format!(
                    "\"{text}\" (special symbol \"{symbol}\") reads as the caption \"{c}\" of \
                     an amount"
                )));
            }
            if let Some(c) = out.iter().find(|c| read_as(c) == read) {
                return Err(err(format!(
                    "\"{text}\" (special symbol \"{symbol}\") reads as the caption \"{c}\" of \
                     another special symbol"
                )));
            }
        }
        out.push(caption.clone());
    }
    if !out.is_empty() && ctx.captions.texts.len() + out.len() > common::MAX_SYMBOLS {
        return Err(err(format!(
            "{} captions and {} special captions: a caption box holds at most {}",
            ctx.captions.texts.len(),
            out.len(),
            common::MAX_SYMBOLS
        )));
    }
    Ok(out)
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(MatchAmounts::new(table, ctx)?))
}

impl MatchAmounts {
    /// The surface's near miss (its largest amount one short of the match), as a feature.
    fn near(&self) -> LosingNearMiss {
        LosingNearMiss {
            id: self.near_miss_id,
            rate: self.near_miss,
        }
    }

    /// Validates a surface table. Errors name the field: cells outside 2..=64, a match below
    /// 2 or above the cells, an amount of 0, listed twice, above `max` or without a caption,
    /// too few amounts to fill a losing face, a bad area name, `per_row` outside 1..=cells,
    /// a near-miss share outside 0..=1.
    pub fn new(table: toml::Table, ctx: &StyleCtx) -> Result<MatchAmounts, FieldError> {
        let raw: RawMatchAmounts = style::parse(table)?;
        if raw.cells < 2 || 2 * raw.cells > MAX_COLUMNS {
            return Err(FieldError::new(
                "cells",
                format!(
                    "{} cells: expected 2 to {} (two face columns each)",
                    raw.cells,
                    MAX_COLUMNS / 2
                ),
            ));
        }
        if raw.k < 2 || raw.k > raw.cells {
            return Err(FieldError::new(
                "match",
                format!("match = {}: expected 2 to the {} cells", raw.k, raw.cells),
            ));
        }
        let mut amounts: Vec<Money> = match raw.amounts {
            Some(a) => {
                if a.iter().any(|m| m.is_zero()) {
                    return Err(FieldError::new(
                        "amounts",
                        "0 wins nothing; list only amounts above 0",
                    ));
                }
                if let Some(max) = ctx.max {
                    if let Some(m) = a.iter().find(|&&m| m > max) {
                        return Err(FieldError::new(
                            "amounts",
                            format!(
                                "{m} is above the surface's printed maximum {max}; a cell shows no amount above it"
                            ),
                        ));
                    }
                }
                a
            }
            None => ctx
                .tier_amounts
                .iter()
                .copied()
                .filter(|&m| !m.is_zero() && ctx.max.is_none_or(|max| m <= max))
                .collect(),
        };
        amounts.sort_unstable();
        if let Some(w) = amounts.windows(2).find(|w| w[0] == w[1]) {
            return Err(FieldError::new(
                "amounts",
                format!("{} is listed twice", w[0]),
            ));
        }
        if amounts.is_empty() {
            return Err(FieldError::new("amounts", "expected at least one amount"));
        }
        let amounts =
            AmountBox::new(amounts, ctx.captions).map_err(|e| FieldError::new("amounts", e))?;
        let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
        if !is_id(&area) {
            return Err(FieldError::new(
                "area",
                format!("\"{area}\" is not an id: expected ASCII letters, digits or _"),
            ));
        }
        let per_row = raw.per_row.unwrap_or(raw.cells);
        if per_row == 0 || per_row > raw.cells {
            return Err(FieldError::new(
                "per_row",
                format!("{per_row} cells per row: expected 1 to {}", raw.cells),
            ));
        }
        let near_miss =
            common::share(raw.near_miss).map_err(|e| FieldError::new("near_miss", e))?;
        let figures: Vec<String> = amounts.amounts().iter().map(Money::to_string).collect();
        let special::Parsed {
            specials,
            areas,
            inscriptions,
        } = Specials::parse(
            &raw.specials,
            &figures,
            "amounts",
            std::slice::from_ref(&area),
            ctx.id,
            amounts.amounts(),
            ctx,
        )?;
        let special_captions = special_captions(
            &specials,
            inscriptions.get(figures.len()..).unwrap_or_default(),
            ctx,
        )?;
        let decoy_multiplier = common::share(raw.decoy_multiplier)
            .map_err(|e| FieldError::new("decoy_multiplier", e))?;
        let multiplies = specials
            .list()
            .iter()
            .any(|s| matches!(s.kind, SpecialKind::Multiplier(_)));
        if decoy_multiplier > 0 && !multiplies {
            return Err(FieldError::new(
                "decoy_multiplier",
                "a decoy multiplier rate needs a multiplier among `specials`",
            ));
        }
        let mut columns = Vec::with_capacity(2 * raw.cells);
        for c in 1..=raw.cells {
            let at = columns.len();
            let mut amt = amounts.column(format!("{}_amt{c}", ctx.id));
            amt.values
                .extend(specials.list().iter().map(|s| s.symbol.clone()));
            columns.push(amt);
            let mut cap = Column::caption(format!("{}_cap{c}", ctx.id), at, ctx.captions);
            cap.values.extend(special_captions.iter().cloned());
            columns.push(cap);
        }
        let mut layout = Layout::new(INFO.name, areas, columns);
        layout.specials = specials.named(&layout.areas);
        let near_miss_id = layout.features.add(
            format!("near_miss_{area}"),
            FeatureKind::NearMiss,
            format!(
                "{area} loses with its largest amount shown {}",
                times_word(raw.k - 1)
            ),
            format!(
                "« {} » perd avec son plus grand montant montré {}",
                ctx.label(&area),
                common::fois(raw.k - 1)
            ),
        );
        let decoys = specials
            .list()
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, SpecialKind::Multiplier(_)))
            .map(|(j, s)| {
                let id = layout.features.add(
                    format!("decoy_{}", style::symbol_id(&s.symbol)),
                    FeatureKind::Decoy,
                    format!("{area} loses with a {} that multiplies nothing", s.symbol),
                    format!(
                        "« {} » perd avec un {} qui ne multiplie rien",
                        ctx.label(&area),
                        s.symbol
                    ),
                );
                (j, id)
            })
            .collect();
        let first_caption = ctx.captions.texts.len();
        let mut m = MatchAmounts {
            near_miss_id,
            layout,
            amounts,
            cells: raw.cells,
            k: raw.k,
            per_row,
            near_miss,
            description: Vec::new(),
            special_caption: (0..specials.list().len())
                .map(|j| (first_caption + j) as u8)
                .collect(),
            specials,
            decoy_multiplier,
            decoys,
        };
        m.losing_fits()
            .map_err(|e| FieldError::new("amounts", e.to_string()))?;
        m.description = m.describe_with(ctx);
        Ok(m.with_layout())
    }

    /// Code of the largest amount (the top prize).
    fn top(&self) -> u8 {
        (self.amounts.amounts().len() - 1) as u8
    }

    /// How many cells may show each amount on a face winning `win` (an amount code), or on
    /// a losing face (`None`) with or without the near miss.
    fn room(&self, win: Option<u8>, near_miss: bool) -> ArrayVec<u16, { common::MAX_SYMBOLS }> {
        let n = self.amounts.amounts().len();
        let mut room: ArrayVec<u16, { common::MAX_SYMBOLS }> =
            (0..n).map(|_| (self.k - 1) as u16).collect();
        match win {
            Some(c) => room[c as usize] = 0,
            None => {
                // The near miss is placed apart; otherwise the top amount stays below it.
                room[self.top() as usize] = if near_miss { 0 } else { (self.k - 2) as u16 };
            }
        }
        room
    }

    /// Whether the cells of a losing face can be filled with every amount at most `k − 1`
    /// times and the largest at most `k − 2` (or exactly `k − 1` for the near miss), for
    /// each case the near-miss share may draw.
    fn losing_fits(&self) -> Result<(), Refusal> {
        let cap = |nm: bool| -> usize {
            let r: usize = self.room(None, nm).iter().map(|&r| usize::from(r)).sum();
            r + if nm { self.k - 1 } else { 0 }
        };
        let mut cases = Vec::new();
        if self.near_miss < 1_000_000 {
            cases.push(false);
        }
        if self.near_miss > 0 {
            cases.push(true);
        }
        for nm in cases {
            if cap(nm) < self.cells {
                return Err(Refusal::NoRoom {
                    area: self.layout.areas[0].clone(),
                    need: self.cells,
                    cells: cap(nm),
                    what: format!(
                        "a losing face from {} amount(s), each shown at most {} (the largest {}{})",
                        self.amounts.amounts().len(),
                        times_word(self.k - 1),
                        times_word(if nm { self.k - 1 } else { self.k - 2 }),
                        if nm { ", for the near miss" } else { "" },
                    ),
                    hint: "; list more amounts or fewer cells",
                });
            }
        }
        Ok(())
    }

    fn describe_with(&self, ctx: &StyleCtx) -> Vec<String> {
        let label = ctx.label(&self.layout.areas[0]);
        let mut v = vec![format!(
            "« {label} » wins an amount when it shows exactly {} among its {} cells (amounts {}).",
            times_word(self.k),
            self.cells,
            list(self.amounts.amounts())
        )];
        if self.near_miss > 0 {
            v.push(format!(
                "  near miss: {:.2}% of the tickets where « {label} » loses show {} {}, one short of the match",
                f64::from(self.near_miss) / 1e4,
                self.amounts.amount(self.top()),
                times_word(self.k - 1)
            ));
        }
        let n = self.amounts.amounts().len();
        for (j, sp) in self.specials.list().iter().enumerate() {
            let area = ctx.label(&self.layout.areas[usize::from(self.specials.area(j))]);
            let caption = &self.layout.columns[1].values[usize::from(self.special_caption[j])];
            let symbol = &sp.symbol;
            v.push(match sp.kind {
                SpecialKind::Multiplier(t) => format!(
                    "A cell showing {symbol} (caption « {caption} ») in place of an amount \
                     multiplies the match's win by {t} (play area « {area} »); it counts towards \
                     no match."
                ),
                _ => format!(
                    "A cell showing {symbol} (caption « {caption} ») in place of an amount wins \
                     every amount the other {} cells show, added up, once (play area « {area} »); \
                     no face shows it beside a match.",
                    self.cells - 1
                ),
            });
        }
        if self.decoy_multiplier > 0 {
            let names: Vec<&str> = self
                .decoys
                .iter()
                .map(|&(j, _)| self.layout.columns[0].values[n + j].as_str())
                .collect();
            v.push(format!(
                "  decoy: {:.2}% of the tickets where « {label} » loses show {}, which multiplies nothing",
                f64::from(self.decoy_multiplier) / 1e4,
                names.join(" or ")
            ));
        }
        let mut never = format!(
            "never printed: an amount more than {}, two amounts {} each",
            times_word(self.k),
            times_word(self.k)
        );
        if !self.specials.is_empty() {
            never += ", two special symbols";
            if !self.decoys.is_empty() && self.decoy_multiplier == 0 {
                never += ", a multiplier beside no match";
            }
        }
        v.push(never);
        v
    }

    /// Amount counts over the cells, by code.
    fn counts(&self, face: &Face) -> [u16; common::MAX_SYMBOLS] {
        let mut counts = [0u16; common::MAX_SYMBOLS];
        for c in 0..self.cells {
            let code = face.codes[2 * c] as usize;
            counts[code] = counts[code].saturating_add(1);
        }
        counts
    }
}

impl MatchAmounts {
    /// What a face of `way` shows. A way is feasible when it has at most one win: in the
    /// surface's own play area an amount the cells show, in a multiplier's `times` an amount
    /// the cells show, in the win-all's the sum of `cells − 1` amounts none shown `k` times
    /// ([`Fill`]); the cells beside a match must hold the other amounts at most `k − 1`
    /// times each (the losing face's fill is checked at load, and is checked again here).
    fn want(&self, way: &Way) -> Result<Want, Refusal> {
        if way.wins.len() > 1 {
            return Err(Refusal::TooManyWins {
                area: self.layout.areas[0].clone(),
                wins: way.wins.len(),
                most: 1,
                why: "one amount shown as often as the match",
            });
        }
        let Some(w) = way.wins.first() else {
            self.losing_fits()?;
            return Ok(Want::Lose);
        };
        let a = usize::from(w.area.unwrap_or(0));
        if a == 0 {
            let code = self
                .amounts
                .code(w.amount)
                .ok_or_else(|| Refusal::CannotWin {
                    area: self.layout.areas[0].clone(),
                    amount: w.amount,
                    can: format!("its cells show {}", list(self.amounts.amounts())),
                })?;
            self.room_beside(code, w.amount, 0)?;
            return Ok(Want::Match(code, None));
        }
        let j = a - 1;
        let Some(sp) = self.specials.list().get(j) else {
            return Err(Refusal::NoSuchArea { area: a as u8 });
        };
        let cannot = |can: String| Refusal::CannotWin {
            area: self.layout.areas[a].clone(),
            amount: w.amount,
            can,
        };
        let shown = list(self.amounts.amounts());
        match sp.kind {
            SpecialKind::Multiplier(_) => {
                let code = sp
                    .kind
                    .under(w.amount)
                    .and_then(|m| self.amounts.code(m))
                    .ok_or_else(|| cannot(sp.kind.cannot_win("a cell", &shown)))?;
                self.room_beside(code, w.amount, 1)?;
                Ok(Want::Match(code, Some(j)))
            }
            SpecialKind::WinAll => {
                let fill = Fill::new(self.amounts.amounts(), self.cells - 1, self.k - 1, w.amount)
                    .ok_or_else(|| {
                        cannot(format!(
                            "no {} amounts among {shown}, none shown {}, add up to it",
                            self.cells - 1,
                            times_word(self.k)
                        ))
                    })?;
                Ok(Want::All(j, fill))
            }
            SpecialKind::AutoWin => Err(cannot("an auto-win has no amount under it here".into())),
        }
    }

    /// Refuses a match of amount `code` (a win of `amount`) beside `specials` special
    /// symbols when the other cells cannot hold the other amounts at most `k − 1` times each.
    fn room_beside(&self, code: u8, amount: Money, specials: usize) -> Result<(), Refusal> {
        let room: usize = self
            .room(Some(code), false)
            .iter()
            .map(|&r| usize::from(r))
            .sum();
        let other = self.cells.saturating_sub(self.k + specials);
        if room < other || self.cells < self.k + specials {
            return Err(Refusal::NoRoom {
                area: self.layout.areas[0].clone(),
                need: other.max(self.k + specials),
                cells: room.min(self.cells),
                what: format!(
                    "the amounts beside a win of {amount}{}, each shown at most {}",
                    if specials > 0 {
                        " and its multiplier"
                    } else {
                        ""
                    },
                    times_word(self.k - 1)
                ),
                hint: "; list more amounts",
            });
        }
        Ok(())
    }

    /// The multiplier whose decoy feature is `id`, if it is one.
    fn decoy(&self, id: FeatureId) -> Option<usize> {
        self.decoys.iter().find(|&&(_, d)| d == id).map(|&(j, _)| j)
    }

    fn can_show(&self, way: &Way, want: &Want, id: FeatureId) -> Result<(), Refusal> {
        if self.decoy(id).is_none() {
            return self
                .near()
                .can_show(way, id, &self.layout, &self.layout.areas[0]);
        }
        let feature = self.layout.features.name(id).to_string();
        if self.decoy_multiplier == 0 {
            return Err(Refusal::ZeroRate {
                feature,
                area: self.layout.areas[0].clone(),
            });
        }
        if !matches!(want, Want::Lose) {
            return Err(Refusal::NeedsLosing {
                feature,
                needs: format!("« {} » to lose", self.layout.areas[0]),
                way: way.id.clone(),
            });
        }
        Ok(())
    }

    fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        let mut v = self.near().always_shows(way);
        if let [(_, id)] = self.decoys.as_slice() {
            if self.decoy_multiplier == 1_000_000 && way.wins.is_empty() {
                v.push(*id);
            }
        }
        v
    }

    /// Writes `code` (an amount, or a special symbol after the amounts) in cell `c` with
    /// its caption.
    fn show_cell(&self, face: &mut Face, c: usize, code: u8) {
        match self.specials.get(code) {
            Some((j, _)) => {
                face.codes[2 * c] = code;
                face.codes[2 * c + 1] = self.special_caption[j];
            }
            None => self.amounts.show(face, 2 * c, 2 * c + 1, code),
        }
    }

    /// A winning face: its amount `k` times (and its multiplier once); a losing one: the
    /// near miss at its share (or when asked), and a multiplier at the decoy share (or when
    /// asked). The other cells are drawn one by one, uniformly among the amounts with room
    /// left (see `MatchAmounts::room`; load checked there is room for every cell), then
    /// every cell is shuffled. A win-all face: the symbol beside the amounts [`Fill`] draws,
    /// shuffled. Drawn into `face`, whatever it held.
    fn draw(&self, want: &Want, show: Option<FeatureId>, rng: &mut FaceRng, face: &mut Face) {
        let mut cells: SmallVec<[u8; INLINE_CELLS]> = SmallVec::new();
        let n = self.amounts.amounts().len();
        let (win, multiplier) = match want {
            Want::All(j, fill) => {
                cells = fill.draw(self.amounts.amounts(), rng);
                cells.push((n + j) as u8);
                return self.write(cells, rng, face);
            }
            Want::Match(c, m) => (Some(*c), *m),
            Want::Lose => (None, None),
        };
        let asked_decoy = show.and_then(|id| self.decoy(id));
        let near_miss = win.is_none()
            && ((show.is_some() && asked_decoy.is_none())
                || (self.near_miss > 0 && chance(rng, self.near_miss)));
        let decoy = match asked_decoy {
            Some(j) => Some(j),
            None if win.is_none()
                && self.decoy_multiplier > 0
                && chance(rng, self.decoy_multiplier) =>
            {
                let d = self.decoys.len();
                Some(
                    self.decoys[if d == 1 {
                        0
                    } else {
                        below(rng, d as u32) as usize
                    }]
                    .0,
                )
            }
            None => None,
        };
        let mut room = self.room(win, near_miss);
        if let Some(c) = win {
            cells.extend(std::iter::repeat_n(c, self.k));
        } else if near_miss {
            cells.extend(std::iter::repeat_n(self.top(), self.k - 1));
        }
        if let Some(j) = multiplier.or(decoy) {
            cells.push((n + j) as u8);
        }
        let mut open: ArrayVec<u8, { common::MAX_SYMBOLS }> = (0..room.len())
            .filter(|&a| room[a] > 0)
            .map(|a| a as u8)
            .collect();
        // The plan checked that the other amounts can fill the cells: `open` is never
        // empty here.
        while cells.len() < self.cells {
            let i = below(rng, open.len() as u32) as usize;
            let a = open[i];
            room[a as usize] -= 1;
            if room[a as usize] == 0 {
                open.swap_remove(i);
            }
            cells.push(a);
        }
        self.write(cells, rng, face)
    }

    /// The face of `cells` (codes, one per cell) once shuffled, written into `face`,
    /// whatever it held.
    fn write(&self, mut cells: SmallVec<[u8; INLINE_CELLS]>, rng: &mut FaceRng, face: &mut Face) {
        shuffle(rng, &mut cells);
        face.reset(self.layout.columns.len());
        for (c, &code) in cells.iter().enumerate() {
            self.show_cell(face, c, code);
        }
    }
}

/// Most entries of the table a [`Fill`] is drawn from.
const MAX_FILL: usize = 1 << 20;

/// The amounts a face won by its win-all symbol shows beside it: `spots` amounts adding up
/// to the win, none shown more than `most` times (as often as the match, a repeat would
/// read as a match beside the win-all).
#[derive(Debug, Clone)]
struct Fill {
    /// `reach[i]`: the (amounts, sum in cents) pairs the amounts `i..` make, each shown at
    /// most `most` times, none past `spots` amounts or the win; sorted.
    reach: Vec<Vec<(usize, u64)>>,
    spots: usize,
    most: usize,
    total: u64,
}

impl Fill {
    /// The table for `spots` amounts among `amounts` (ascending), each at most `most`
    /// times, adding up to `total`. `None` when none do, or when the table would pass
    /// [`MAX_FILL`] entries.
    fn new(amounts: &[Money], spots: usize, most: usize, total: Money) -> Option<Fill> {
        let n = amounts.len();
        let mut reach = vec![Vec::new(); n + 1];
        reach[n] = vec![(0, 0)];
        let mut size = 1;
        for i in (0..n).rev() {
            let a = amounts[i].cents();
            let mut next: Vec<(usize, u64)> = reach[i + 1]
                .iter()
                .flat_map(|&(r, s)| (0..=most).map(move |c| (r + c, s + c as u64 * a)))
                .filter(|&(r, s)| r <= spots && s <= total.cents())
                .collect();
            next.sort_unstable();
            next.dedup();
            size += next.len();
            if size > MAX_FILL {
                return None;
            }
            reach[i] = next;
        }
        reach[0]
            .binary_search(&(spots, total.cents()))
            .is_ok()
            .then_some(Fill {
                reach,
                spots,
                most,
                total: total.cents(),
            })
    }

    /// Codes (in `amounts`, the list the table was made from) of the amounts of one face,
    /// amount by amount: how many times each shows, drawn evenly among the counts that leave
    /// a sum the larger amounts can make. One bounded draw per amount: no retry; the codes
    /// come in ascending order, unshuffled.
    fn draw(&self, amounts: &[Money], rng: &mut FaceRng) -> SmallVec<[u8; INLINE_CELLS]> {
        let (mut spots, mut left) = (self.spots, self.total);
        let mut out = SmallVec::new();
        for (i, a) in amounts.iter().enumerate() {
            let a = a.cents();
            let fits: SmallVec<[usize; 8]> = (0..=self.most.min(spots))
                .filter(|&c| {
                    let s = c as u64 * a;
                    s <= left
                        && self.reach[i + 1]
                            .binary_search(&(spots - c, left - s))
                            .is_ok()
                })
                .collect();
            let c = fits[below(rng, fits.len() as u32) as usize];
            spots -= c;
            left -= c as u64 * a;
            out.extend(std::iter::repeat_n(i as u8, c));
        }
        out
    }
}

/// The presentation of the style, computed once by its constructor.
impl MatchAmounts {
    /// `self` with its layout completed: panels, printed lines, shown amounts and
    /// description, computed once from its settings.
    fn with_layout(mut self) -> Self {
        self.layout.shown_amounts = self.shown_amounts();
        self.layout.panels = self.panels();
        self.layout.printed = self.printed();
        self.layout.description = self.describe();
        self
    }

    /// What the ticket prints beside the cells: the rule (`Trouvez 3 montants identiques :
    /// gagnez ce montant`), then what each special symbol does (`2X = gain ×2`, `SAC = tous
    /// les montants affichés, additionnés`), so that the proof says every way the face can win.
    fn printed(&self) -> Vec<super::Printed> {
        let mut lines = vec![PrintedLine::of(vec![Phrase::SameAmounts { count: self.k }])];
        lines.extend(common::legend_lines(self.specials.phrases(None)));
        vec![super::Printed {
            panel: self.layout.areas[0].clone(),
            lines,
        }]
    }

    fn shown_amounts(&self) -> Vec<Money> {
        self.amounts.amounts().to_vec()
    }

    fn panels(&self) -> Vec<Panel> {
        let cells: Vec<usize> = (0..self.cells).map(|c| 2 * c).collect();
        vec![Panel {
            id: self.layout.areas[0].clone(),
            rows: cells.chunks(self.per_row).map(<[usize]>::to_vec).collect(),
        }]
    }

    fn describe(&self) -> Vec<String> {
        self.description.clone()
    }
}

impl Style for MatchAmounts {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        let want = self.want(way)?;
        let always = self.always_shows(way);
        let drawer = Arc::clone(&self);
        let drawn = want.clone();
        Ok(Plan::new(
            &*self,
            way,
            |id| self.can_show(way, &want, id),
            always,
            move |show, rng, face| drawer.draw(&drawn, show, rng, face),
        ))
    }

    /// Refuses a special symbol no way wins by: no face would ever show it.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        self.specials.check_ways(plans, &self.layout.areas)
    }

    fn features(&self) -> Vec<FeatureId> {
        let mut v = self.near().features();
        if self.decoy_multiplier > 0 {
            v.extend(self.decoys.iter().map(|&(_, id)| id));
        }
        v
    }

    /// Judges the face: the amount shown exactly `k` times wins (the largest, should two
    /// be: flagged); beside a multiplier symbol it wins that many times as much, in the
    /// multiplier's play area. A win-all symbol wins every amount the other cells show,
    /// added up, once, in its play area, and nothing else wins. A losing face showing the
    /// largest amount `k − 1` times is the near miss; one showing a multiplier is its decoy
    /// (with a decoy share). Flagged as ambiguous: an amount shown more than `k` times, two
    /// shown `k` times or more, two special symbols, a win-all beside a match, a special's
    /// cell captioned otherwise, a multiplier beside no match with no decoy share.
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let counts = self.counts(face);
        let n = self.amounts.amounts().len();
        let k = self.k as u16;
        if counts[..n].iter().any(|&c| c > k) {
            ev.ambiguities.push(AMB_OVER);
        }
        if counts[..n].iter().filter(|&&c| c >= k).count() >= 2 {
            ev.ambiguities.push(AMB_TWO);
        }
        let mut shown: SmallVec<[(usize, SpecialKind); 2]> = SmallVec::new();
        let mut sum = 0;
        for c in 0..self.cells {
            let code = face.codes[2 * c];
            match self.specials.get(code) {
                Some((j, sp)) => {
                    if face.codes[2 * c + 1] != self.special_caption[j]
                        && !ev.ambiguities.contains(&AMB_SPECIAL_CAPTION)
                    {
                        ev.ambiguities.push(AMB_SPECIAL_CAPTION);
                    }
                    shown.push((j, sp.kind));
                }
                None => sum += self.amounts.amount(code).cents(),
            }
        }
        if shown.len() >= 2 {
            ev.ambiguities.push(AMB_SPECIALS);
        }
        let matched = (0..n).rev().find(|&a| counts[a] == k);
        if let Some(&(j, _)) = shown.iter().find(|(_, s)| *s == SpecialKind::WinAll) {
            if matched.is_some() {
                ev.ambiguities.push(AMB_WIN_ALL_BESIDE);
            }
            ev.wins.push(AreaWin {
                area: self.specials.area(j),
                amount: Money(sum),
            });
            return;
        }
        let multiplier = shown.iter().find_map(|&(j, s)| match s {
            SpecialKind::Multiplier(t) => Some((j, t)),
            _ => None,
        });
        match matched {
            Some(a) => {
                let amount = self.amounts.amount(a as u8);
                ev.wins.push(match multiplier {
                    Some((j, t)) => AreaWin {
                        area: self.specials.area(j),
                        amount: Money(amount.cents() * u64::from(t)),
                    },
                    None => AreaWin { area: 0, amount },
                });
            }
            None => {
                if counts[self.top() as usize] == k - 1 {
                    ev.losing_features.push(AreaFeature {
                        area: 0,
                        id: self.near_miss_id,
                    });
                }
                if let Some((j, _)) = multiplier {
                    match self.decoys.iter().find(|&&(d, _)| d == j) {
                        Some(&(_, id)) if self.decoy_multiplier > 0 => {
                            let _ = ev.losing_features.try_push(AreaFeature { area: 0, id });
                        }
                        _ => ev.ambiguities.push(AMB_LONE_MULTIPLIER),
                    }
                }
            }
        }
    }

    /// A win: the cells of the winning amount (and of its multiplier), in the win's play
    /// area; a win-all's: every cell. A near miss: the cells of the largest amount. A decoy
    /// multiplier: its cell.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let special = |c: usize| self.specials.get(face.codes[2 * c]);
        let cells = |code: Option<u8>, area: u8, kind: MarkKind| -> Vec<Mark> {
            (0..self.cells)
                .filter(|&c| match code {
                    Some(code) => face.codes[2 * c] == code,
                    None => special(c).is_some(),
                })
                .map(|c| Mark {
                    area,
                    column: 2 * c,
                    kind,
                })
                .collect()
        };
        if let Some(w) = ev.wins.first() {
            if w.area == 0 {
                return match self.amounts.code(w.amount) {
                    Some(c) => cells(Some(c), 0, MarkKind::Win),
                    None => Vec::new(),
                };
            }
            let j = usize::from(w.area) - 1;
            if self.specials.list().get(j).map(|s| s.kind) == Some(SpecialKind::WinAll) {
                return (0..self.cells)
                    .map(|c| Mark {
                        area: w.area,
                        column: 2 * c,
                        kind: MarkKind::Win,
                    })
                    .collect();
            }
            let counts = self.counts(face);
            let n = self.amounts.amounts().len();
            let Some(a) = (0..n).rev().find(|&a| usize::from(counts[a]) == self.k) else {
                return Vec::new();
            };
            let mut v = cells(Some(a as u8), w.area, MarkKind::Win);
            v.extend(cells(None, w.area, MarkKind::Win));
            return v;
        }
        let mut v = if ev.shows(self.near_miss_id) {
            cells(Some(self.top()), 0, MarkKind::NearMiss)
        } else {
            Vec::new()
        };
        if self.decoys.iter().any(|&(_, id)| ev.shows(id)) {
            v.extend(cells(None, 0, MarkKind::Decoy));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        self, count_showing, drawn_twice, example_surface, round_trip, round_trip_showing, way,
        way_in, Ctx,
    };
    use crate::styles::testkit::{printed_text, Planning, Tested};
    use crate::styles::Captions;
    use crate::styles::{FeatureInfo, FeatureKind};
    use rand_core::SeedableRng;

    fn captions() -> Captions {
        testkit::captions(&[1, 2, 5, 10, 50, 500])
    }

    fn build_with(text: &str, max: Option<u64>) -> Result<Arc<MatchAmounts>, FieldError> {
        let ctx = Ctx::new("jeu")
            .captions(captions())
            .label("jeu", "Jeu")
            .tiers(&[500, 10, 5, 2])
            .max(max);
        MatchAmounts::new(toml::from_str(text).unwrap(), &ctx.get()).map(Arc::new)
    }

    fn build_from(text: &str) -> Result<Arc<MatchAmounts>, FieldError> {
        build_with(text, None)
    }

    /// Six cells, match 3, amounts 1, 2, 5, 50, 500, near miss 0.3.
    const SIX: &str = "cells = 6\nper_row = 3\namounts = [1, 2, 5, 50, 500]\nnear_miss = 0.3";

    fn six() -> Arc<MatchAmounts> {
        build_from(SIX).unwrap()
    }

    /// A face showing `cells` (amounts in units), captions included.
    fn face(m: &MatchAmounts, cells: &[u64]) -> Face {
        assert_eq!(cells.len(), m.cells);
        let mut f = Face::default();
        for (c, &u) in cells.iter().enumerate() {
            let code = m.amounts.code(Money::units(u)).unwrap();
            m.amounts.show(&mut f, 2 * c, 2 * c + 1, code);
            assert_eq!(
                captions().texts[f.codes[2 * c + 1] as usize],
                format!("C{u}")
            );
        }
        f
    }

    fn wins(ev: &Evaluation) -> Vec<(u8, u64)> {
        ev.wins
            .iter()
            .map(|w| (w.area, w.amount.cents() / 100))
            .collect()
    }

    /// The amounts shown on `f`, in units, cell by cell.
    fn shown(m: &MatchAmounts, f: &Face) -> Vec<u64> {
        (0..m.cells)
            .map(|c| m.amounts.amount(f.codes[2 * c]).cents() / 100)
            .collect()
    }

    #[test]
    fn columns_and_panels_follow_the_surface_id() {
        let m = six();
        let names: Vec<&str> = m.layout().columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "jeu_amt1", "jeu_cap1", "jeu_amt2", "jeu_cap2", "jeu_amt3", "jeu_cap3", "jeu_amt4",
                "jeu_cap4", "jeu_amt5", "jeu_cap5", "jeu_amt6", "jeu_cap6"
            ]
        );
        assert_eq!(
            m.layout().columns[1].kind,
            crate::styles::ColumnKind::Caption { of: 0 }
        );
        assert_eq!(
            m.panels(),
            [Panel {
                id: "jeu".into(),
                rows: vec![vec![0, 2, 4], vec![6, 8, 10]],
            }]
        );
        assert_eq!(m.layout().areas, ["jeu"]);
        assert_eq!(m.shown_amounts(), [1, 2, 5, 50, 500].map(Money::units));
        let m = build_from("cells = 4\narea = \"j2\"\namounts = [1, 2, 5]").unwrap();
        assert_eq!(m.panels()[0].id, "j2");
        assert_eq!(m.panels()[0].rows, [vec![0, 2, 4, 6]]);
        assert_eq!(m.layout().areas, ["j2"]);
        assert_eq!(m.layout().columns[0].name, "jeu_amt1");
    }

    #[test]
    fn an_amount_shown_exactly_match_times_wins_it() {
        let m = six();
        // Three 5: wins 5.
        let ev = m.evaluate(&face(&m, &[5, 1, 5, 2, 50, 5]));
        assert_eq!(wins(&ev), [(0, 5)]);
        assert!(ev.ambiguities.is_empty());
        assert!(ev.losing_features.is_empty());
        // Three 500 beside two 1: wins 500.
        let ev = m.evaluate(&face(&m, &[500, 1, 500, 1, 500, 2]));
        assert_eq!(wins(&ev), [(0, 500)]);
        assert!(ev.ambiguities.is_empty());
        // Two of each: nothing wins, nothing is a near miss (500 is not shown).
        let ev = m.evaluate(&face(&m, &[5, 5, 1, 1, 2, 2]));
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.is_empty());
        assert!(ev.losing_features.is_empty());
        // Two 500 on a losing face: the near miss.
        let ev = m.evaluate(&face(&m, &[500, 5, 1, 500, 2, 50]));
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.is_empty());
        assert_eq!(
            ev.losing_features.as_slice(),
            [AreaFeature {
                area: 0,
                id: m.near_miss_id
            }]
        );
        // Two 500 beside a win of 5: a win, not a near miss.
        let ev = m.evaluate(&face(&m, &[500, 5, 5, 500, 5, 1]));
        assert_eq!(wins(&ev), [(0, 5)]);
        assert!(ev.losing_features.is_empty());
        // Two 50 (not the largest amount) is no near miss.
        let ev = m.evaluate(&face(&m, &[50, 50, 1, 2, 500, 5]));
        assert!(ev.wins.is_empty() && ev.losing_features.is_empty());
        // Match 2: two identical amounts win.
        let m2 = build_from("cells = 4\nmatch = 2\namounts = [1, 2, 5, 10, 50]").unwrap();
        let ev = m2.evaluate(&face(&m2, &[10, 1, 10, 2]));
        assert_eq!(wins(&ev), [(0, 10)]);
        assert!(ev.ambiguities.is_empty());
    }

    #[test]
    fn every_ambiguous_case_is_flagged() {
        let m = six();
        // Four 5: no win by the letter, a win to a naive player.
        let ev = m.evaluate(&face(&m, &[5, 5, 5, 5, 1, 2]));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, [AMB_OVER]);
        // Six 1.
        let ev = m.evaluate(&face(&m, &[1, 1, 1, 1, 1, 1]));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, [AMB_OVER]);
        // Three 5 and three 1: one win by the letter (the largest), two to a naive player.
        let ev = m.evaluate(&face(&m, &[5, 1, 5, 1, 5, 1]));
        assert_eq!(wins(&ev), [(0, 5)]);
        assert_eq!(ev.ambiguities, [AMB_TWO]);
        // Three 50 and three 500.
        let ev = m.evaluate(&face(&m, &[500, 50, 500, 50, 500, 50]));
        assert_eq!(wins(&ev), [(0, 500)]);
        assert_eq!(ev.ambiguities, [AMB_TWO]);
        // Eight cells: three 5 and four 1 (a win beside an amount over the match).
        let m8 = build_from("cells = 8\namounts = [1, 2, 5, 50, 500]").unwrap();
        let ev = m8.evaluate(&face(&m8, &[5, 1, 5, 1, 5, 1, 1, 2]));
        assert_eq!(wins(&ev), [(0, 5)]);
        assert_eq!(ev.ambiguities, [AMB_OVER, AMB_TWO]);
        // Eight cells: four 5 and four 1 (a losing face, both over).
        let ev = m8.evaluate(&face(&m8, &[5, 1, 5, 1, 5, 1, 1, 5]));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, [AMB_OVER, AMB_TWO]);
        // Eight cells: four 500 (a losing face; 500 over, so no near miss either).
        let ev = m8.evaluate(&face(&m8, &[500, 1, 500, 2, 500, 1, 5, 500]));
        assert!(ev.wins.is_empty());
        assert!(ev.losing_features.is_empty());
        assert_eq!(ev.ambiguities, [AMB_OVER]);
    }

    #[test]
    fn bad_tables_are_refused_naming_the_field() {
        let field = |t: &str| build_from(t).err().unwrap().field;
        assert_eq!(field("cells = 1"), "cells");
        assert_eq!(field("cells = 32749"), "cells");
        assert_eq!(
            build_from("cells = 32749").err().unwrap().message,
            "32749 cells: expected 2 to 32748 (two face columns each)"
        );
        let e = build_from("amounts = [1, 2]").err().unwrap();
        assert_eq!(e.field, "cells", "{e:?}");
        assert_eq!(field("cells = 6\nmatch = 1"), "match");
        assert_eq!(field("cells = 6\nmatch = 7"), "match");
        assert_eq!(field("cells = 6\namounts = [0, 1, 2, 5]"), "amounts");
        assert_eq!(field("cells = 6\namounts = [1, 1, 2, 5]"), "amounts");
        assert_eq!(field("cells = 6\namounts = []"), "amounts");
        let e = build_from("cells = 6\namounts = [1, 2, 3, 5]")
            .err()
            .unwrap();
        assert_eq!(e.field, "amounts");
        assert!(e.message.contains("caption"), "{}", e.message);
        assert_eq!(field("cells = 6\narea = \"a b\""), "area");
        assert_eq!(field("cells = 6\nper_row = 0"), "per_row");
        assert_eq!(field("cells = 6\nper_row = 7"), "per_row");
        assert_eq!(field("cells = 6\nnear_miss = 1.5"), "near_miss");
        assert_eq!(field("cells = 6\ncell = 2"), "cell");
        assert_eq!(field("match = 3"), "cells");
        // Too few amounts to fill a losing face: 1, 2 twice each and 5 once make 5 cells.
        let e = build_from("cells = 6\namounts = [1, 2, 5]").err().unwrap();
        assert_eq!(e.field, "amounts");
        assert_eq!(
            e.message,
            "« jeu »: a losing face from 3 amount(s), each shown at most twice (the largest \
             once): 6 cells to fill, and only 5 can be filled; list more amounts or fewer cells"
        );
        // With the near miss always drawn, 5 may show twice: 6 cells fit.
        assert!(build_from("cells = 6\namounts = [1, 2, 5]\nnear_miss = 1.0").is_ok());
        // An amount above the surface's maximum.
        let e = build_with("cells = 6\namounts = [1, 2, 5, 500]", Some(50))
            .err()
            .unwrap();
        assert_eq!(e.field, "amounts");
        assert!(e.message.contains("maximum 50"), "{}", e.message);
    }

    #[test]
    fn default_amounts_are_the_lot_tables_up_to_max() {
        let m = build_from("cells = 6").unwrap();
        assert_eq!(m.shown_amounts(), [2, 5, 10, 500].map(Money::units));
        assert_eq!(m.k, 3);
        let m = build_with("cells = 4", Some(10)).unwrap();
        assert_eq!(m.shown_amounts(), [2, 5, 10].map(Money::units));
    }

    #[test]
    fn ways_it_cannot_show_are_refused() {
        let m = six();
        assert!(check(&m, &way(&[])).is_ok());
        assert!(check(&m, &way(&[5])).is_ok());
        let e = check(&m, &way(&[10])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "« jeu » cannot win 10: its cells show 1, 2, 5, 50, 500"
        );
        assert!(matches!(
            e,
            Refusal::CannotWin {
                amount: Money(1000),
                ..
            }
        ));
        assert_eq!(
            check(&m, &way(&[5, 5])),
            Err(Refusal::TooManyWins {
                area: "jeu".into(),
                wins: 2,
                most: 1,
                why: "one amount shown as often as the match"
            })
        );
        let mut w = way(&[5]);
        w.wins[0].area = Some(1);
        assert_eq!(check(&m, &w), Err(Refusal::NoSuchArea { area: 1 }));
        w.wins[0].area = Some(0);
        assert!(check(&m, &w).is_ok());
    }

    /// Whether the surface can carry `w` (its refusal, if not).
    fn check(m: &MatchAmounts, w: &Way) -> Result<(), Refusal> {
        m.want(w).map(|_| ())
    }

    fn all_ways(m: &MatchAmounts) -> Vec<Way> {
        let mut v = vec![way(&[])];
        for a in m.amounts.amounts() {
            let u = a.cents() / 100;
            v.push(way(&[u]));
        }
        v
    }

    #[test]
    fn every_way_round_trips_and_losers_never_win() {
        for text in [
            SIX,
            "cells = 4\nmatch = 2\namounts = [1, 2, 5, 10, 50]\nnear_miss = 0.5",
            "cells = 9\nmatch = 4\namounts = [1, 2, 5]\nnear_miss = 1.0",
            "cells = 6\namounts = [1, 2, 5, 50]",
        ] {
            let m = build_from(text).unwrap();
            for w in all_ways(&m) {
                for (seed, f, ev) in round_trip(&m, &w, 0..250) {
                    let at = format!("{text}: {} seed {seed}", w.id);
                    let counts = m.counts(&f);
                    let top = usize::from(m.top());
                    if w.wins.is_empty() {
                        assert!(counts.iter().all(|&c| usize::from(c) < m.k), "{at}");
                        let near = ev.shows(m.near_miss_id);
                        assert!(usize::from(counts[top]) < m.k - 1 || near, "{at}");
                    }
                    // Captions follow their amounts.
                    for c in 0..m.cells {
                        let code = captions().code(m.amounts.amount(f.codes[2 * c])).unwrap();
                        assert_eq!(f.codes[2 * c + 1], code, "{at}");
                    }
                    let marks = m.marks(&f, &ev);
                    if w.wins.is_empty() {
                        let near = marks.iter().all(|k| k.kind == MarkKind::NearMiss);
                        assert!(near, "{at}");
                        assert_eq!(marks.is_empty(), !ev.shows(m.near_miss_id), "{at}");
                    } else {
                        assert_eq!(marks.len(), m.k, "{at}");
                        assert!(marks.iter().all(|k| k.kind == MarkKind::Win), "{at}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_near_miss_shows_when_asked_and_at_its_rate() {
        let m = six();
        assert_eq!(
            m.features(),
            [FeatureInfo {
                name: "near_miss_jeu".into(),
                kind: FeatureKind::NearMiss,
                about: "jeu loses with its largest amount shown twice".into(),
                about_fr: "« Jeu » perd avec son plus grand montant montré deux fois".into(),
            }]
        );
        let lose = way(&[]);
        for (seed, f, ev) in round_trip_showing(&m, &lose, "near_miss_jeu", 0..200) {
            let tops = shown(&m, &f).iter().filter(|&&u| u == 500).count();
            assert_eq!(tops, 2, "seed {seed}");
            let marks = m.marks(&f, &ev);
            assert_eq!(marks.len(), 2, "seed {seed}");
            assert!(
                marks.iter().all(|k| k.kind == MarkKind::NearMiss),
                "seed {seed}"
            );
        }
        let mut rng = FaceRng::seed_from_u64(1);
        assert!(matches!(
            m.can_show_why(&way(&[5]), "near_miss_jeu"),
            Err(Refusal::NeedsLosing { .. })
        ));
        assert_eq!(
            m.synthesize_showing(&way(&[5]), Some("near_miss_jeu"), &mut rng),
            Err("near_miss_jeu needs « jeu » to lose, and way \"5\" wins there".into())
        );
        assert!(matches!(
            m.can_show_why(&lose, "near_miss_x"),
            Err(Refusal::NoFeature { .. })
        ));
        assert_eq!(
            m.synthesize_showing(&lose, Some("decoy"), &mut rng),
            Err("the match_amounts style shows no feature \"decoy\"".into())
        );
        assert!(m.always_shows(&lose).is_empty());
        // Over 2 000 losing faces at 0.3: the share's standard deviation is
        // sqrt(0.3 × 0.7 / 2000) ≈ 0.0102; 0.04 is about 4 of them.
        let near = count_showing(&m, &lose, "near_miss_jeu", 2000, 3);
        let p = near as f64 / 2000.0;
        assert!((p - 0.3).abs() < 0.04, "{p}");
        // A rate of 0: no feature, none asked; a rate of 1: always shown.
        let m0 = build_from("cells = 6\namounts = [1, 2, 5, 50, 500]").unwrap();
        assert!(m0.features().is_empty());
        assert!(matches!(
            m0.can_show_why(&lose, "near_miss_jeu"),
            Err(Refusal::NoFeature { .. })
        ));
        let m1 = build_from("cells = 6\namounts = [1, 2, 5, 50, 500]\nnear_miss = 1").unwrap();
        assert_eq!(m1.always_shows(&lose), ["near_miss_jeu"]);
        assert!(m1.always_shows(&way(&[5])).is_empty());
    }

    #[test]
    fn describe_says_how_the_area_wins() {
        assert_eq!(
            six().describe(),
            [
                "« Jeu » wins an amount when it shows exactly 3 times among its 6 cells \
                 (amounts 1, 2, 5, 50, 500).",
                "  near miss: 30.00% of the tickets where « Jeu » loses show 500 twice, one \
                 short of the match",
                "never printed: an amount more than 3 times, two amounts 3 times each",
            ]
        );
    }

    #[test]
    fn the_librarys_example_builds() {
        let (id, t) = example_surface(&INFO);
        assert_eq!(id, "jeu");
        let text = toml::to_string(&t).unwrap();
        let m = build_from(&text).unwrap();
        assert_eq!(m.cells, 6);
        assert_eq!(m.features().len(), 1);
    }

    #[test]
    fn synthesis_is_deterministic() {
        let m = six();
        let w = way(&[50]);
        let f = drawn_twice(&m, &w, 7);
        // The value-stability vector (changes only with the style's draws): three 50,
        // two 1 and a 5, captions beside; the losing face of seed 7 draws the near miss.
        assert_eq!(&f.codes[..12], VECTOR);
        let l = m
            .synthesize(&way(&[]), &mut FaceRng::seed_from_u64(7))
            .unwrap();
        assert_eq!(shown(&m, &l), LOSING);
    }

    const VECTOR: [u8; 12] = [0, 0, 3, 4, 2, 2, 3, 4, 3, 4, 0, 0];
    const LOSING: [u64; 6] = [500, 5, 500, 1, 50, 5];

    /// `SIX` with a ×2 multiplier (play area 1, `jeu_2x`) and a win-all (play area 2,
    /// `jeu_sac`), and `extra`.
    fn with_specials(extra: &str) -> Result<Arc<MatchAmounts>, FieldError> {
        build_from(&format!(
            "{SIX}\nspecials = [\n\
             {{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \"DOUBLE\" }},\n\
             {{ symbol = \"SAC\", kind = \"win_all\", caption = \"GAGNE TOUT\" }},\n]\n{extra}"
        ))
    }

    /// What the cells print beside them, in French and in English: the rule, then each
    /// special symbol's, so that a proof says every way the face wins.
    #[test]
    fn the_cells_print_their_rule_and_their_special_symbols() {
        use crate::language::Language;
        let text = |m: &MatchAmounts, l: Language| {
            let p = &m.layout.printed;
            assert_eq!(p.len(), 1);
            assert_eq!(p[0].panel, m.layout.panels[0].id);
            printed_text(p, l)
        };
        assert_eq!(
            text(&six(), Language::Fr),
            ["Trouvez 3 montants identiques : gagnez ce montant"]
        );
        let m = with_specials("").unwrap();
        assert_eq!(
            text(&m, Language::Fr),
            [
                "Trouvez 3 montants identiques : gagnez ce montant",
                "2X = gain ×2 · SAC = tous les montants affichés, additionnés"
            ]
        );
        assert_eq!(
            text(&m, Language::En),
            [
                "Find 3 identical amounts: win that amount",
                "2X = win ×2 · SAC = every amount shown, added up"
            ]
        );
    }

    /// A face showing `cells`: an amount in units or a special symbol, each with its caption.
    fn face_of(m: &MatchAmounts, cells: &[&str]) -> Face {
        assert_eq!(cells.len(), m.cells);
        let mut f = Face::default();
        for (c, v) in cells.iter().enumerate() {
            let code = m.layout.columns[0].values.iter().position(|x| x == v);
            m.show_cell(&mut f, c, code.unwrap_or_else(|| panic!("{v}")) as u8);
        }
        f
    }

    /// What `f` shows, cell by cell, as files write it.
    fn cells_of(m: &MatchAmounts, f: &Face) -> Vec<String> {
        (0..m.cells)
            .map(|c| m.layout.columns[0].values[usize::from(f.codes[2 * c])].clone())
            .collect()
    }

    fn marked(m: &MatchAmounts, f: &Face, ev: &Evaluation) -> Vec<(u8, usize, MarkKind)> {
        let mut v: Vec<_> = m
            .marks(f, ev)
            .into_iter()
            .map(|k| (k.area, k.column / 2, k.kind))
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn special_symbols_have_their_areas_columns_captions_and_words() {
        let m = with_specials("decoy_multiplier = 0.1").unwrap();
        assert_eq!(m.layout.areas, ["jeu", "jeu_2x", "jeu_sac"]);
        let amt = &m.layout.columns[0];
        assert_eq!(amt.values, ["1", "2", "5", "50", "500", "2X", "SAC"]);
        assert_eq!(
            amt.kind,
            crate::styles::ColumnKind::Amount([1, 2, 5, 50, 500].map(Money::units).to_vec())
        );
        let cap = &m.layout.columns[1].values;
        assert_eq!(cap[cap.len() - 2..], ["DOUBLE", "GAGNE TOUT"]);
        let f = face_of(&m, &["2X", "5", "SAC", "5", "1", "5"]);
        assert_eq!(cap[usize::from(f.codes[1])], "DOUBLE");
        assert_eq!(cap[usize::from(f.codes[5])], "GAGNE TOUT");
        assert_eq!(cap[usize::from(f.codes[3])], "C5");
        let names: Vec<String> = m.features().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["near_miss_jeu", "decoy_2x"]);
        assert_eq!(
            m.describe()[2..],
            [
                "A cell showing 2X (caption « DOUBLE ») in place of an amount multiplies the \
                 match's win by 2 (play area « jeu_2x »); it counts towards no match.",
                "A cell showing SAC (caption « GAGNE TOUT ») in place of an amount wins every \
                 amount the other 5 cells show, added up, once (play area « jeu_sac »); no face \
                 shows it beside a match.",
                "  decoy: 10.00% of the tickets where « Jeu » loses show 2X, which multiplies \
                 nothing",
                "never printed: an amount more than 3 times, two amounts 3 times each, two \
                 special symbols",
            ]
        );
        let m0 = with_specials("").unwrap();
        assert!(m0.features().iter().all(|f| f.name != "decoy_2x"));
        assert!(m0
            .describe()
            .last()
            .unwrap()
            .ends_with("two special symbols, a multiplier beside no match"));
    }

    #[test]
    fn special_symbols_win_as_the_rules_say() {
        let m = with_specials("decoy_multiplier = 0.1").unwrap();
        let judge = |cells: &[&str]| {
            let f = face_of(&m, cells);
            let ev = m.evaluate(&f);
            let marks = marked(&m, &f, &ev);
            (wins(&ev), ev.ambiguities.to_vec(), ev, marks)
        };
        // Three 5 beside a 2X: twice 5, in the multiplier's play area.
        let (w, amb, _, marks) = judge(&["5", "2X", "5", "1", "5", "2"]);
        assert_eq!((w, amb), (vec![(1, 10)], vec![]));
        assert_eq!(
            marks,
            [
                (1, 0, MarkKind::Win),
                (1, 1, MarkKind::Win),
                (1, 2, MarkKind::Win),
                (1, 4, MarkKind::Win)
            ]
        );
        // SAC wins the five other amounts, added up, once.
        let (w, amb, _, marks) = judge(&["1", "SAC", "2", "5", "50", "500"]);
        assert_eq!((w, amb), (vec![(2, 558)], vec![]));
        assert_eq!(marks.len(), 6);
        assert!(marks.iter().all(|&(a, _, k)| a == 2 && k == MarkKind::Win));
        // Two 500 beside SAC: a win, no near miss.
        let (w, amb, ev, _) = judge(&["500", "SAC", "500", "1", "2", "1"]);
        assert_eq!((w, amb), (vec![(2, 1004)], vec![]));
        assert!(ev.losing_features.is_empty());
        // SAC beside a match: counted once, and ambiguous.
        let (w, amb, _, _) = judge(&["SAC", "5", "5", "5", "1", "2"]);
        assert_eq!((w, amb), (vec![(2, 18)], vec![AMB_WIN_ALL_BESIDE]));
        // A 2X with no match: the decoy, marked as such.
        let (w, amb, ev, marks) = judge(&["2X", "1", "2", "5", "50", "1"]);
        assert_eq!((w, amb), (vec![], vec![]));
        let decoy = m.layout.features.find("decoy_2x").unwrap();
        assert_eq!(
            ev.losing_features.as_slice(),
            [AreaFeature { area: 0, id: decoy }]
        );
        assert_eq!(marks, [(0, 0, MarkKind::Decoy)]);
        // Beside a near miss: both.
        let (_, amb, ev, marks) = judge(&["500", "2X", "500", "1", "2", "5"]);
        assert!(amb.is_empty());
        assert!(ev.shows(decoy) && ev.shows(m.near_miss_id));
        assert_eq!(
            marks,
            [
                (0, 0, MarkKind::NearMiss),
                (0, 1, MarkKind::Decoy),
                (0, 2, MarkKind::NearMiss)
            ]
        );
        // Two special symbols.
        let (w, amb, _, _) = judge(&["2X", "2X", "5", "5", "5", "1"]);
        assert_eq!((w, amb), (vec![(1, 10)], vec![AMB_SPECIALS]));
        let (w, amb, _, _) = judge(&["2X", "SAC", "5", "50", "1", "2"]);
        assert_eq!((w, amb), (vec![(2, 58)], vec![AMB_SPECIALS]));
        // A special captioned as an amount.
        let mut f = face_of(&m, &["5", "2X", "5", "1", "5", "2"]);
        f.codes[3] = f.codes[1];
        let ev = m.evaluate(&f);
        assert_eq!(ev.ambiguities, [AMB_SPECIAL_CAPTION]);
        // With no decoy share, a lone multiplier is never printed.
        let m0 = with_specials("").unwrap();
        let ev = m0.evaluate(&face_of(&m0, &["2X", "1", "2", "5", "50", "1"]));
        assert!(ev.wins.is_empty() && ev.losing_features.is_empty());
        assert_eq!(ev.ambiguities, [AMB_LONE_MULTIPLIER]);
    }

    #[test]
    fn ways_through_special_symbols_round_trip() {
        let m = with_specials("decoy_multiplier = 0.1").unwrap();
        let specials = |f: &Face| {
            cells_of(&m, f)
                .into_iter()
                .filter(|v| v == "2X" || v == "SAC")
                .collect::<Vec<_>>()
        };
        for (w, special) in [
            (way_in(&[(Some(1), 10)]), "2X"),
            (way_in(&[(Some(1), 1000)]), "2X"),
            (way_in(&[(Some(2), 11)]), "SAC"),
            (way_in(&[(Some(2), 558)]), "SAC"),
            (way_in(&[(Some(2), 1105)]), "SAC"),
        ] {
            for (seed, f, _) in round_trip(&m, &w, 0..200) {
                assert_eq!(specials(&f), [special], "{} seed {seed}", w.id);
                let counts = m.counts(&f);
                if special == "SAC" {
                    assert!(counts[..5].iter().all(|&c| c < 3), "{} seed {seed}", w.id);
                }
            }
        }
        // 11 in five amounts, none three times: 1 + 1 + 2 + 2 + 5 only.
        for (_, f, _) in round_trip(&m, &way_in(&[(Some(2), 11)]), 0..20) {
            let mut v: Vec<u64> = cells_of(&m, &f)
                .iter()
                .filter_map(|x| x.parse().ok())
                .collect();
            v.sort_unstable();
            assert_eq!(v, [1, 1, 2, 2, 5]);
        }
        // Plain wins and losing faces never show a special but the decoy.
        for (seed, f, ev) in round_trip(&m, &way(&[5]), 0..200)
            .into_iter()
            .chain(round_trip(&m, &way(&[]), 0..200))
        {
            let decoy = ev.shows(m.layout.features.find("decoy_2x").unwrap());
            let want: &[&str] = if decoy { &["2X"] } else { &[] };
            assert_eq!(specials(&f), want, "seed {seed}");
        }
        for (seed, f, _) in round_trip_showing(&m, &way(&[]), "decoy_2x", 0..100) {
            assert_eq!(specials(&f), ["2X"], "seed {seed}");
        }
        testkit::features_as_asked(&m, &way(&[]), 0..50);
        testkit::features_as_asked(&m, &way_in(&[(Some(1), 10)]), 0..50);
        let m1 = with_specials("decoy_multiplier = 1.0").unwrap();
        assert_eq!(m1.always_shows(&way(&[])), ["decoy_2x"]);
        assert!(m1.always_shows(&way_in(&[(Some(2), 11)])).is_empty());
    }

    #[test]
    fn ways_special_symbols_cannot_show_are_refused() {
        let m = with_specials("").unwrap();
        let refused = |w: &[(Option<u8>, u64)]| check(&m, &way_in(w)).unwrap_err().to_string();
        assert_eq!(
            refused(&[(Some(1), 3)]),
            "« jeu_2x » cannot win 3: it wins 2 times an amount a cell shows (1, 2, 5, 50, 500)"
        );
        assert_eq!(
            refused(&[(Some(1), 20)]),
            "« jeu_2x » cannot win 20: it wins 2 times an amount a cell shows (1, 2, 5, 50, 500)"
        );
        // 5 would be five 1: a match beside the win-all.
        assert_eq!(
            refused(&[(Some(2), 5)]),
            "« jeu_sac » cannot win 5: no 5 amounts among 1, 2, 5, 50, 500, none shown 3 times, \
             add up to it"
        );
        assert_eq!(
            refused(&[(Some(1), 10), (None, 5)]),
            "2 wins, but « jeu » shows at most 1 at once (one amount shown as often as the match)"
        );
        assert_eq!(
            check(&m, &way_in(&[(Some(3), 1)])),
            Err(Refusal::NoSuchArea { area: 3 })
        );
        // A multiplier beside a match of three in four cells leaves no room.
        let m4 = build_from(
            "cells = 4\namounts = [1, 2, 5, 50, 500]\n\
             specials = [{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \"DOUBLE\" }]",
        )
        .unwrap();
        assert!(check(&m4, &way_in(&[(Some(1), 10)])).is_ok());
        let m3 = build_from(
            "cells = 3\namounts = [1, 2, 5, 50, 500]\n\
             specials = [{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \"DOUBLE\" }]",
        )
        .unwrap();
        assert_eq!(
            check(&m3, &way_in(&[(Some(1), 10)]))
                .unwrap_err()
                .to_string(),
            "« jeu »: the amounts beside a win of 10 and its multiplier, each shown at most \
             twice: 4 cells to fill, and only 3 can be filled; list more amounts"
        );
        // A special no way wins by never shows: refused once every way is planned.
        let plans: Vec<Plan> = [way_in(&[(Some(1), 10)]), way(&[5])]
            .iter()
            .map(|w| Arc::clone(&m).plan(w).unwrap())
            .collect();
        assert_eq!(
            m.check_ways(&plans.iter().collect::<Vec<_>>())
                .unwrap_err()
                .to_string(),
            "specials (\"SAC\") never applies: no way wins in its play area « jeu_sac » \
             (`areas`), so no face shows it"
        );
        let all = Arc::clone(&m).plan(&way_in(&[(Some(2), 11)])).unwrap();
        let refs: Vec<&Plan> = plans.iter().chain([&all]).collect();
        assert_eq!(m.check_ways(&refs), Ok(()));
    }

    #[test]
    fn bad_special_symbols_are_refused_with_the_field() {
        let err = |specials: &str, extra: &str| {
            let e = build_from(&format!("{SIX}\nspecials = [{specials}]\n{extra}"))
                .err()
                .expect(specials);
            assert_eq!(e.field, "specials", "{}", e.message);
            e.message
        };
        assert_eq!(
            err(
                "{ symbol = \"SAC\", kind = \"auto_win\", caption = \"GAGNE\" }",
                ""
            ),
            "\"SAC\" is an auto-win, and a match_amounts cell shows no amount under a symbol \
             for it to win: use kind = \"multiplier\" (times = N, the match's win N times) or \
             kind = \"win_all\" (every amount shown, added up)"
        );
        assert_eq!(
            err("{ symbol = \"2X\", kind = \"multiplier\", times = 2 }", ""),
            "\"2X\" has no caption: a match_amounts cell prints a caption under what it shows; \
             give it `caption`"
        );
        assert_eq!(
            err(
                "{ symbol = \"10\", kind = \"win_all\", caption = \"TOUT\" }",
                ""
            ),
            "\"10\" (special symbol \"10\") reads as an amount in figures"
        );
        assert_eq!(
            err(
                "{ symbol = \"50\", kind = \"win_all\", caption = \"TOUT\" }",
                ""
            ),
            "\"50\" is also one of amounts: a special symbol is none of them"
        );
        assert_eq!(
            err(
                "{ symbol = \"TOUT\", kind = \"win_all\", caption = \"c 50\" }",
                ""
            ),
            "\"c 50\" (special symbol \"TOUT\") reads as the caption \"C50\" of an amount"
        );
        assert_eq!(
            err(
                "{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \"DOUBLE\" }, \
                 { symbol = \"3X\", kind = \"multiplier\", times = 3, caption = \"double\" }",
                ""
            ),
            "\"double\" (special symbol \"3X\") reads as the caption \"DOUBLE\" of another \
             special symbol"
        );
        assert_eq!(
            err(
                "{ symbol = \"9X\", kind = \"multiplier\", times = 1000, caption = \"MILLE\" }",
                ""
            ),
            "\"9X\" can never multiply: 1000 times the smallest amount a spot shows is above \
             the largest lot, 500"
        );
        let e = build_from(&format!("{SIX}\ndecoy_multiplier = 0.1"))
            .err()
            .unwrap();
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "decoy_multiplier",
                "a decoy multiplier rate needs a multiplier among `specials`"
            )
        );
    }

    #[test]
    fn special_synthesis_is_deterministic() {
        // Value-stability vectors (change only with the style's draws): SAC beside 2 + 50 +
        // 1 + 2 + 5; three 50 beside 2X.
        let m = with_specials("decoy_multiplier = 0.5").unwrap();
        let f = drawn_twice(&m, &way_in(&[(Some(2), 60)]), 7);
        assert_eq!(cells_of(&m, &f), SAC_60);
        let f = drawn_twice(&m, &way_in(&[(Some(1), 100)]), 7);
        assert_eq!(cells_of(&m, &f), X2_100);
    }

    const SAC_60: [&str; 6] = ["2", "50", "1", "2", "5", "SAC"];
    const X2_100: [&str; 6] = ["50", "50", "2X", "1", "50", "1"];
}
