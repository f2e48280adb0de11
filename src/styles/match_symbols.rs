//! The *match symbols* play style (WAC 315-10-024 "match symbols", "match two or more",
//! "three like symbols"): a surface of symbol cells read by one or more play areas.
//!
//! **Rule.** The surface shows `cells` symbol cells. Each play area (an entry of
//! `[[surfaces.games]]`) has a match count `k` (≥ 2) and its winning symbols. A play area wins
//! when one of its winning symbols shows exactly `k` times among the cells; it wins at most
//! once. Its prize is either the amount shown in its own amount box (`box`) or the amount
//! its pay legend gives the matched symbol (`legend`). A multiplier symbol (`multiplier`
//! table, e.g. `MASQUE = 2`) anywhere among the cells multiplies the win of every play area it
//! applies to (`multiplied`, default true). The surface's wins add up.
//!
//! **Naive reading.** A player who glances at the ticket reads any symbol shown `k` times
//! or more, for any play area's `k`, as a win, and a multiplier as multiplying whatever wins. So
//! no face ever shows (each is flagged in [`Evaluation::ambiguities`]):
//! - a winning symbol more times than its play area's `k` ([`AMB_OVER`]);
//! - two different symbols completing one play area ([`AMB_TWO_COMPLETE`]);
//! - a symbol shown as often as the surface's smallest `k` that completes no play area
//!   ([`AMB_IDLE_REPEAT`]);
//! - two multiplier symbols ([`AMB_TWO_MULTIPLIERS`]); a multiplier beside a win it does
//!   not multiply ([`AMB_MULTIPLIER_ELSEWHERE`]); a multiplier on a surface where nothing
//!   wins, unless the spec gives that decoy a rate ([`AMB_LONE_MULTIPLIER`]).
//!
//! Faces are built so that every symbol other than a winning match shows at most `k − 1`
//! times (and below the smallest `k` of the surface); a losing play area's winning symbols show
//! at most `k − 2` times, except one shown `k − 1` times as a near miss.
//!
//! **Special symbols** (`specials`, the shared `special` module; the industry's "reveal a
//! GOLD BAR, win the prize in the PRIZE box instantly" and "reveal a BANK, win all prizes
//! shown"). A cell may show a symbol the spec lists after `symbols`, which wins on its own in
//! a play area of its own after the surface's (default `{id}_{symbol}` in lower case), that
//! ways name in `areas`:
//! - an **auto-win** (`kind = "auto_win"`) wins the amount in the box of the surface's one
//!   play area with a box, whatever the other cells show. That play area does not also win
//!   by its match on such a face ([`AMB_AUTO_WIN_BESIDE`]): the box is paid once. Refused on
//!   a surface with no box (every play area pays by its `legend`) or with several boxes
//!   (which would it win?), and a second auto-win;
//! - a **win-all** (`kind = "win_all"`) wins every amount the surface's boxes show, added
//!   up, once; nothing else on the surface wins beside it ([`AMB_WIN_ALL_BESIDE`]: a match
//!   or a multiplier there would be paid once or twice?), and no near miss shows beside it.
//!   Refused on a surface where a play area pays by its `legend` (a legend amount is no box
//!   a player sees);
//! - a spot **multiplier** multiplies the amount under it, and a cell shows none: refused,
//!   naming the surface's `multiplier` table, which multiplies every win.
//!
//! Naive reading: a player who sees a special symbol takes its prize, and reads it as no
//! symbol of a match. So a special symbol shows only on a face of a way that wins by it,
//! once ([`AMB_SPECIAL_TWICE`]); it never counts towards a match (its code is none of the
//! play areas' symbols); no surface multiplier shows beside its win, which it does not
//! multiply ([`AMB_MULTIPLIER_ELSEWHERE`]).
//!
//! **Columns.** The cells `{cell_prefix}1` … `{cell_prefix}{cells}` (prefix default
//! `{id}_`), then for each play area with an amount box, in play-area order, `{box}` and
//! `{box}_caption`.
//!
//! **Features.** `near_miss_<play area id>` (a losing play area shows `k − 1` of one of its winning
//! symbols, at the play area's `near_miss` rate); `decoy_<multiplier, lowercase>` (a multiplier
//! on a surface where nothing wins, at the surface's `decoy_multiplier` rate). The amount
//! box of a losing play area always shows a decoy amount (`decoy_weights`), marked on proofs.

use super::common::{self, AmountBox};
use super::special::{self, RawSpecial, SpecialKind, Specials, Sums};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Features, Layout, Mark, MarkKind, Panel, Plan, Refusal, Style, MAX_COLUMNS,
};
use crate::crypto::rng::{below, below_falling, chance, shuffle, Weights};
use crate::language::{Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use smallvec::SmallVec;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Ambiguity: a winning symbol shows more times than its play area's match count.
pub const AMB_OVER: &str = "a winning symbol shown more times than its play area's match";
/// Ambiguity: two different winning symbols of one play area each show its match count.
pub const AMB_TWO_COMPLETE: &str = "two different symbols completing one play area";
/// Ambiguity: a symbol shows as often as the smallest match of the surface and wins nothing.
pub const AMB_IDLE_REPEAT: &str = "a repeated symbol that wins nothing";
/// Ambiguity: two or more multiplier symbols on one surface.
pub const AMB_TWO_MULTIPLIERS: &str = "two or more multiplier symbols";
/// Ambiguity: a multiplier shows beside a win of a play area it does not multiply.
pub const AMB_MULTIPLIER_ELSEWHERE: &str = "a multiplier beside a win it does not multiply";
/// Ambiguity: a multiplier on a surface where nothing wins, with no decoy rate for it.
pub const AMB_LONE_MULTIPLIER: &str = "a multiplier that multiplies nothing";
/// Ambiguity: a win-all symbol beside another win, a multiplier or a second special
/// symbol (the win-all already wins every box of the surface: counted once, and never
/// printed).
pub const AMB_WIN_ALL_BESIDE: &str = "a win-all symbol beside another win (match symbols)";
/// Ambiguity: one special symbol in two cells (each special shows once at most).
pub const AMB_SPECIAL_TWICE: &str = "a special symbol in two cells (match symbols)";
/// Ambiguity: an auto-win symbol beside a match of the play area whose box it wins (is the
/// box paid once or twice?).
pub const AMB_AUTO_WIN_BESIDE: &str =
    "an auto-win symbol beside a match winning the same box (match symbols)";

/// Most ways one way's wins may be placed on the surface's games.
pub const MAX_PLANS: usize = 4096;

/// `[[surfaces]]` of style `match_symbols`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSurface {
    cells: usize,
    symbols: style::SymbolList,
    #[serde(default)]
    cell_prefix: Option<String>,
    games: Vec<RawPlayArea>,
    #[serde(default)]
    multiplier: BTreeMap<String, u32>,
    #[serde(default)]
    decoy_multiplier: f64,
    #[serde(default)]
    panel: Option<String>,
    #[serde(default)]
    per_row: Option<usize>,
    #[serde(default)]
    decoy_feature: Option<String>,
    #[serde(default)]
    specials: Vec<RawSpecial>,
}

/// `[[surfaces.games]]`: one play area.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayArea {
    id: String,
    #[serde(rename = "match")]
    k: usize,
    #[serde(default)]
    winning: Option<Vec<String>>,
    #[serde(default, rename = "box")]
    amount_box: Option<String>,
    #[serde(default)]
    amounts: Option<Vec<Money>>,
    #[serde(default)]
    decoy_weights: Option<BTreeMap<String, u32>>,
    #[serde(default)]
    legend: Option<BTreeMap<String, Money>>,
    #[serde(default)]
    near_miss: f64,
    #[serde(default)]
    multiplied: Option<bool>,
    #[serde(default)]
    near_miss_feature: Option<String>,
}

/// Where a play area's prize comes from.
enum Prize {
    /// Its amount box: the amounts, the box's column and caption column, decoy weights
    /// (as the spec gives them, and tabulated to draw from).
    Box {
        amounts: AmountBox,
        col: usize,
        caption: usize,
        weights: Vec<u32>,
        decoys: Weights,
    },
    /// Its pay legend: the amount of each of its winning symbols (same order).
    Legend(Vec<Money>),
}

/// One play area of the surface.
struct PlayArea {
    id: String,
    k: usize,
    /// Its winning symbols' codes, in the spec's order.
    winning: Vec<u8>,
    prize: Prize,
    multiplied: bool,
    near_miss: u32,
    /// Its near miss, in the layout's feature table.
    near_miss_id: FeatureId,
}

/// The win of a way by a special symbol, checked once when the spec loads.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shown {
    /// The auto-win symbol of this code shows; the one box shows the amount of `box_code`.
    Auto { code: u8, box_code: u8 },
    /// The win-all symbol of this code shows; the boxes show amounts drawn from `sums`.
    All { code: u8, sums: Arc<Sums> },
}

/// One placement of a way's wins: the amount each play area wins (or `None`), the
/// multiplier symbol shown, if any, and the special symbol the way wins by, if any; with
/// what a face of it draws from, found once when the spec loads.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Placement {
    wins: Vec<Option<Money>>,
    multiplier: Option<u8>,
    special: Option<Shown>,
    /// `options[g]`: the symbols (and box codes) winning play area `g` can show its amount
    /// with under the multiplier ([`MatchSymbols::options`]); empty for a losing one.
    options: Vec<Vec<(u8, Option<u8>)>>,
    /// `room[s]`: how many times symbol `s` may be drawn as a filler ([`MatchSymbols::cap`]).
    room: Vec<u16>,
    /// The symbols of some room, ascending: those a filler is drawn among, but for the
    /// symbols a face's matches and near misses show.
    open: Vec<u8>,
    /// Whether every symbol's room is 0 or 1: a filler drawn is then never drawn again.
    single: bool,
}

/// The symbols (and box codes) a play area can win an amount with.
type Options = ArrayVec<(u8, Option<u8>), { common::MAX_SYMBOLS }>;

impl Placement {
    /// Whether a face of it shows the win-all symbol (nothing else wins there).
    fn all(&self) -> bool {
        matches!(self.special, Some(Shown::All { .. }))
    }
}

/// The match_symbols style of one surface.
pub struct MatchSymbols {
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    cells: usize,
    n_symbols: usize,
    play_areas: Vec<PlayArea>,
    /// `owner[s]`: the play area whose winning symbol `s` is.
    owner: Vec<Option<u8>>,
    /// `factor[s]`: the multiplier of symbol `s`, 0 for an ordinary symbol.
    factor: Vec<u32>,
    /// The multiplier symbols' codes.
    multipliers: Vec<u8>,
    /// `decoy_ids[i]`: the feature of a lone `multipliers[i]`, in the layout's feature
    /// table.
    decoy_ids: Vec<FeatureId>,
    decoy_multiplier: u32,
    min_match: usize,
    panel: String,
    per_row: usize,
    description: Vec<String>,
    /// The pay legends and multipliers the ticket prints, with the printed names.
    legend_text: Vec<PrintedLine>,
    /// The special symbols, in the spec's order; special `j` wins in play area
    /// `play_areas.len() + j`.
    specials: Specials,
    /// The play areas with a box, in play-area order (an auto-win wins the one box; a
    /// win-all every box).
    boxes: Vec<usize>,
}

/// Checks a feature id a spec names: lowercase ASCII letters, digits and `_`, 1 to 64.
/// Returns it as the feature's name.
pub(crate) fn feature_id(s: &str, field: &str) -> Result<String, FieldError> {
    if s.is_empty()
        || s.len() > 64
        || !s
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return Err(FieldError::new(
            field,
            format!("\"{s}\" is not a feature id: expected 1 to 64 lowercase letters, digits or _"),
        ));
    }
    Ok(s.to_string())
}

fn is_id(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn count_word(k: usize) -> String {
    const W: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    W.get(k).map_or_else(|| k.to_string(), |w| w.to_string())
}

fn times_word(k: usize) -> String {
    match k {
        1 => "once".into(),
        2 => "twice".into(),
        k => format!("{} times", count_word(k)),
    }
}

fn pct(x: u32) -> String {
    format!("{:.2}%", f64::from(x) / 1e4)
}

/// Builds the style from its surface table.
fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(MatchSymbols::new(table, ctx)?))
}

impl MatchSymbols {
    /// Validates a surface table. Errors name the field: too few or too many cells, a bad
    /// symbol list, a play area without a prize or with both a box and a legend, a match count
    /// below 2 or above the cells, a winning symbol not among `symbols`, listed by two play areas
    /// or used as a multiplier, a legend amount of 0, a box amount without a caption, a rate
    /// outside 0..=1, a near miss that would be a repeated symbol winning nothing.
    pub fn new(table: toml::Table, ctx: &StyleCtx) -> Result<MatchSymbols, FieldError> {
        let raw: RawSurface = style::parse(table)?;
        if raw.cells < 2 || raw.cells > MAX_COLUMNS {
            return Err(FieldError::new(
                "cells",
                format!("{} cells: expected 2 to {MAX_COLUMNS}", raw.cells),
            ));
        }
        let mut symbols = style::symbols(&raw.symbols.0, 1, "symbols")?;
        let mut multipliers = Vec::new();
        for (sym, &f) in &raw.multiplier {
            let field = format!("multiplier.{sym}");
            style::symbols(std::slice::from_ref(sym), 1, &field)?;
            if f < 2 {
                return Err(FieldError::new(
                    field,
                    format!("a factor of {f}: expected a whole number of at least 2"),
                ));
            }
            if let Some(why) = crate::text::other_factor(sym, u64::from(f)) {
                return Err(FieldError::new(
                    field,
                    format!("\"{sym}\" {why}, but it multiplies by {f}: a multiplier's symbol shows its own factor or none"),
                ));
            }
            let code = match symbols.iter().position(|s| s == sym) {
                Some(i) => i,
                None => {
                    symbols.push(sym.clone());
                    symbols.len() - 1
                }
            };
            multipliers.push((code, f));
        }
        if symbols.len() > common::MAX_SYMBOLS {
            return Err(FieldError::new(
                "symbols",
                format!(
                    "{} symbols with the multipliers: at most {}",
                    symbols.len(),
                    common::MAX_SYMBOLS
                ),
            ));
        }
        let code_of = |s: &str| symbols.iter().position(|x| x == s);
        let prefix = raw
            .cell_prefix
            .clone()
            .unwrap_or_else(|| format!("{}_", ctx.id));
        if !is_id(&prefix) {
            return Err(FieldError::new(
                "cell_prefix",
                format!("\"{prefix}\" is not a column prefix: expected ASCII letters, digits or _"),
            ));
        }
        let mut columns: Vec<Column> = (1..=raw.cells)
            .map(|i| Column {
                name: format!("{prefix}{i}"),
                kind: ColumnKind::Symbol,
                values: symbols.clone(),
                inscriptions: Vec::new(),
            })
            .collect();
        if raw.games.is_empty() {
            return Err(FieldError::new(
                "games",
                "a match_symbols surface needs at least one [[surfaces.games]] entry",
            ));
        }
        let mut owner: Vec<Option<u8>> = vec![None; symbols.len()];
        let mut factor = vec![0u32; symbols.len()];
        for &(c, f) in &multipliers {
            factor[c] = f;
        }
        // Explicit winning lists and legends first, so that defaults take what is left.
        let explicit = |g: &RawPlayArea| -> Option<Vec<String>> {
            g.winning.clone().or_else(|| {
                g.legend.as_ref().map(|l| {
                    // In the order of `symbols`.
                    let mut keys: Vec<String> = l.keys().cloned().collect();
                    keys.sort_by_key(|k| symbols.iter().position(|s| s == k));
                    keys
                })
            })
        };
        let mut taken: Vec<bool> = vec![false; symbols.len()];
        for (gi, g) in raw.games.iter().enumerate() {
            let field = format!("games[{gi}].winning");
            if let Some(list) = explicit(g) {
                for w in &list {
                    let c = code_of(w).ok_or_else(|| {
                        FieldError::new(&field, format!("\"{w}\" is not one of `symbols`"))
                    })?;
                    if factor[c] > 0 {
                        return Err(FieldError::new(
                            &field,
                            format!("\"{w}\" is a multiplier symbol; it cannot also win"),
                        ));
                    }
                    if taken[c] {
                        return Err(FieldError::new(
                            &field,
                            format!(
                                "\"{w}\" is a winning symbol of two play areas (or listed twice)"
                            ),
                        ));
                    }
                    taken[c] = true;
                }
            }
        }
        let mut play_areas: Vec<PlayArea> = Vec::new();
        let mut features = Features::default();
        let mut area_ids: Vec<String> = Vec::new();
        let mut box_names: Vec<String> = Vec::new();
        for (gi, g) in raw.games.iter().enumerate() {
            let f = |name: &str| format!("games[{gi}].{name}");
            if !is_id(&g.id) {
                return Err(FieldError::new(
                    f("id"),
                    format!(
                        "\"{}\" is not an id: expected ASCII letters, digits or _",
                        g.id
                    ),
                ));
            }
            if area_ids.contains(&g.id) {
                return Err(FieldError::new(
                    f("id"),
                    format!("play area \"{}\" is listed twice", g.id),
                ));
            }
            if g.k < 2 || g.k > raw.cells {
                return Err(FieldError::new(
                    f("match"),
                    format!("match = {}: expected 2 to the {} cells", g.k, raw.cells),
                ));
            }
            let winning: Vec<u8> = match explicit(g) {
                Some(list) => list
                    .iter()
                    .map(|w| code_of(w).expect("checked above") as u8)
                    .collect(),
                None => (0..symbols.len())
                    .filter(|&c| !taken[c] && factor[c] == 0)
                    .map(|c| c as u8)
                    .collect(),
            };
            if winning.is_empty() {
                return Err(FieldError::new(
                    f("winning"),
                    "no winning symbol: list them, or leave some symbols to it",
                ));
            }
            for &c in &winning {
                if let Some(o) = owner[c as usize] {
                    return Err(FieldError::new(
                        f("winning"),
                        format!(
                            "\"{}\" already wins play area \"{}\"",
                            symbols[c as usize], raw.games[o as usize].id
                        ),
                    ));
                }
                owner[c as usize] = Some(gi as u8);
            }
            let prize = match (&g.amount_box, &g.legend) {
                (Some(_), Some(_)) => {
                    return Err(FieldError::new(
                        f("legend"),
                        "a play area takes its prize from a box or a legend, not both",
                    ))
                }
                (None, None) => {
                    return Err(FieldError::new(
                        f("box"),
                        "a play area needs its prize: `box` (with `amounts`) or `legend`",
                    ))
                }
                (None, Some(legend)) => {
                    if g.amounts.is_some() || g.decoy_weights.is_some() {
                        return Err(FieldError::new(
                            f("amounts"),
                            "`amounts` and `decoy_weights` belong to a play area with a `box`",
                        ));
                    }
                    if let Some(w) = &g.winning {
                        let mut a: Vec<&String> = w.iter().collect();
                        let mut b: Vec<&String> = legend.keys().collect();
                        a.sort();
                        b.sort();
                        if a != b {
                            return Err(FieldError::new(
                                f("winning"),
                                "with a legend, the winning symbols are the legend's symbols",
                            ));
                        }
                    }
                    let amounts: Vec<Money> = winning
                        .iter()
                        .map(|&c| legend[&symbols[c as usize]])
                        .collect();
                    if let Some(i) = amounts.iter().position(|m| m.is_zero()) {
                        return Err(FieldError::new(
                            format!("games[{gi}].legend.{}", symbols[winning[i] as usize]),
                            "a legend amount of 0: expected an amount above 0",
                        ));
                    }
                    Prize::Legend(amounts)
                }
                (Some(name), None) => {
                    if !is_id(name) {
                        return Err(FieldError::new(
                            f("box"),
                            format!("\"{name}\" is not a column name: expected ASCII letters, digits or _"),
                        ));
                    }
                    let caption_name = format!("{name}_caption");
                    if box_names.contains(name)
                        || columns
                            .iter()
                            .any(|c| c.name == *name || c.name == caption_name)
                    {
                        return Err(FieldError::new(
                            f("box"),
                            format!("box \"{name}\" names a column the surface already has"),
                        ));
                    }
                    box_names.push(name.clone());
                    let list = g.amounts.clone().ok_or_else(|| {
                        FieldError::new(f("amounts"), "a play area with a box needs `amounts`")
                    })?;
                    if list.is_empty() || list.iter().any(|m| m.is_zero()) {
                        return Err(FieldError::new(
                            f("amounts"),
                            "expected one or more amounts above 0",
                        ));
                    }
                    if let Some(max) = ctx.max {
                        if let Some(m) = list.iter().find(|&&m| m > max) {
                            return Err(FieldError::new(
                                f("amounts"),
                                format!("{m} is above the surface's printed maximum {max}; a box shows no amount above it"),
                            ));
                        }
                    }
                    let amounts = AmountBox::new(list, ctx.captions)
                        .map_err(|e| FieldError::new(f("amounts"), e))?;
                    let weights = match &g.decoy_weights {
                        Some(t) => common::decoy_weights(t, amounts.amounts(), "one of `amounts`")
                            .map_err(|e| FieldError::new(f("decoy_weights"), e))?,
                        None => vec![1; amounts.amounts().len()],
                    };
                    let col = columns.len();
                    columns.push(amounts.column(name.clone()));
                    columns.push(Column::caption(caption_name, col, ctx.captions));
                    Prize::Box {
                        amounts,
                        col,
                        caption: col + 1,
                        decoys: Weights::unreduced(&weights),
                        weights,
                    }
                }
            };
            let near_miss =
                common::share(g.near_miss).map_err(|e| FieldError::new(f("near_miss"), e))?;
            play_areas.push(PlayArea {
                id: g.id.clone(),
                k: g.k,
                winning,
                prize,
                multiplied: g.multiplied.unwrap_or(true),
                near_miss,
                near_miss_id: features.add(
                    match &g.near_miss_feature {
                        Some(id) => feature_id(id, &f("near_miss_feature"))?,
                        None => format!("near_miss_{}", g.id),
                    },
                    FeatureKind::NearMiss,
                    format!(
                        "play area {} loses with one of its winning symbols shown {}",
                        g.id,
                        times_word(g.k - 1)
                    ),
                    format!(
                        "« {} » perd avec un de ses symboles gagnants montré {}",
                        ctx.label(&g.id),
                        super::common::fois(g.k - 1)
                    ),
                ),
            });
            area_ids.push(g.id.clone());
        }
        if columns.len() > MAX_COLUMNS {
            return Err(FieldError::new(
                "cells",
                format!(
                    "{} cells and {} boxes make {} face columns: at most {MAX_COLUMNS}",
                    raw.cells,
                    box_names.len(),
                    columns.len()
                ),
            ));
        }
        let min_match = play_areas.iter().map(|g| g.k).min().expect("one play area");
        for (gi, g) in play_areas.iter().enumerate() {
            if g.near_miss > 0 && g.k > min_match {
                return Err(FieldError::new(
                    format!("games[{gi}].near_miss"),
                    format!(
                        "a near miss shows {} of a symbol, which another play area's match of {min_match} reads as a win: expected 0",
                        g.k - 1
                    ),
                ));
            }
        }
        let decoy_multiplier = common::share(raw.decoy_multiplier)
            .map_err(|e| FieldError::new("decoy_multiplier", e))?;
        if decoy_multiplier > 0 && multipliers.is_empty() {
            return Err(FieldError::new(
                "decoy_multiplier",
                "a decoy multiplier rate needs a `multiplier` table",
            ));
        }
        if !multipliers.is_empty() && !play_areas.iter().any(|g| g.multiplied) {
            return Err(FieldError::new(
                "multiplier",
                "no play area is multiplied (every play area has `multiplied = false`)",
            ));
        }
        let decoy_ids: Vec<FeatureId> = match &raw.decoy_feature {
            Some(id) => {
                let name = feature_id(id, "decoy_feature")?;
                match multipliers.as_slice() {
                    [] => Vec::new(),
                    [(c, _)] => vec![features.add(
                        name,
                        FeatureKind::Decoy,
                        format!("a {} on a surface where nothing wins", symbols[*c]),
                        format!("un {} sur une surface où rien ne gagne", symbols[*c]),
                    )],
                    more => vec![
                        features.add(
                            name,
                            FeatureKind::Decoy,
                            "a multiplier on a surface where nothing wins",
                            "un multiplicateur sur une surface où rien ne gagne",
                        );
                        more.len()
                    ],
                }
            }
            None => multipliers
                .iter()
                .map(|&(c, _)| {
                    features.add(
                        format!("decoy_{}", style::symbol_id(&symbols[c])),
                        FeatureKind::Decoy,
                        format!("a {} on a surface where nothing wins", symbols[c]),
                        format!("un {} sur une surface où rien ne gagne", symbols[c]),
                    )
                })
                .collect(),
        };
        // Two near misses or decoys named alike share one entry of the table.
        let mut ids: Vec<FeatureId> = play_areas.iter().map(|g| g.near_miss_id).collect();
        ids.extend(decoy_ids.iter().take(if raw.decoy_feature.is_some() {
            1
        } else {
            usize::MAX
        }));
        for (i, id) in ids.iter().enumerate() {
            if ids[..i].contains(id) {
                return Err(FieldError::new(
                    "games",
                    format!(
                        "two near misses or decoys of the surface are both named \"{}\"",
                        features.name(*id)
                    ),
                ));
            }
        }
        let panel = raw.panel.clone().unwrap_or_else(|| ctx.id.to_string());
        if !is_id(&panel) {
            return Err(FieldError::new(
                "panel",
                format!("\"{panel}\" is not an id: expected ASCII letters, digits or _"),
            ));
        }
        if let Some(g) = play_areas
            .iter()
            .find(|g| matches!(g.prize, Prize::Box { .. }) && g.id == panel)
        {
            return Err(FieldError::new(
                "panel",
                format!(
                    "the cells' panel \"{panel}\" has the name of play area \"{}\", whose box is a panel of its own",
                    g.id
                ),
            ));
        }
        let per_row = raw.per_row.unwrap_or(raw.cells);
        if per_row == 0 || per_row > raw.cells {
            return Err(FieldError::new(
                "per_row",
                format!("{per_row} cells per row: expected 1 to {}", raw.cells),
            ));
        }
        let boxes: Vec<usize> = play_areas
            .iter()
            .enumerate()
            .filter(|(_, g)| matches!(g.prize, Prize::Box { .. }))
            .map(|(g, _)| g)
            .collect();
        let box_amounts: Vec<Money> = play_areas
            .iter()
            .filter_map(|g| match &g.prize {
                Prize::Box { amounts, .. } => Some(amounts.amounts().to_vec()),
                Prize::Legend(_) => None,
            })
            .flatten()
            .collect();
        let special::Parsed {
            specials,
            areas,
            inscriptions,
        } = Specials::parse(
            &raw.specials,
            &symbols,
            "`symbols` or `multiplier`",
            &area_ids,
            ctx.id,
            &box_amounts,
            ctx,
        )?;
        Self::check_specials(&specials, &play_areas, &boxes)?;
        for c in &mut columns[..raw.cells] {
            c.values
                .extend(specials.list().iter().map(|s| s.symbol.clone()));
            c.inscriptions.clone_from(&inscriptions);
        }
        let mut layout = Layout::new(INFO.name, areas, columns);
        layout.specials = specials.named(&layout.areas);
        layout.features = features;
        let mut m = MatchSymbols {
            layout,
            cells: raw.cells,
            n_symbols: symbols.len(),
            play_areas,
            owner,
            factor,
            multipliers: multipliers.iter().map(|&(c, _)| c as u8).collect(),
            decoy_ids,
            decoy_multiplier,
            min_match,
            panel,
            per_row,
            description: Vec::new(),
            legend_text: Vec::new(),
            specials,
            boxes,
        };
        m.description = m.describe_with(ctx);
        m.legend_text = m.legend_with(ctx);
        Ok(m.with_layout())
    }

    /// Refuses (field `specials`) what a special symbol cannot do here: a spot multiplier
    /// (a cell shows no amount under it: the surface's `multiplier` table multiplies its
    /// wins), an auto-win on a surface without exactly one box, a second auto-win, a
    /// win-all on a surface where a play area pays by its `legend`.
    fn check_specials(
        specials: &Specials,
        play_areas: &[PlayArea],
        boxes: &[usize],
    ) -> Result<(), FieldError> {
        let err = |m: String| Err(FieldError::new("specials", m));
        let legend = play_areas
            .iter()
            .position(|g| matches!(g.prize, Prize::Legend(_)));
        let mut auto = false;
        for sp in specials.list() {
            let s = &sp.symbol;
            match sp.kind {
                SpecialKind::Multiplier(t) => {
                    return err(format!(
                        "\"{s}\" is a spot multiplier, which multiplies the amount under it, \
                         and a cell shows none: a symbol that multiplies the surface's wins is \
                         a `multiplier` ({s} = {t})"
                    ))
                }
                SpecialKind::AutoWin if boxes.is_empty() => {
                    return err(format!(
                        "\"{s}\" is an auto-win symbol, which wins the amount in a box, and \
                         no play area has a `box` (games[{}] pays by its `legend`): a symbol \
                         that wins an amount of its own is a `legend` symbol",
                        legend.unwrap_or(0)
                    ))
                }
                SpecialKind::AutoWin if boxes.len() > 1 => {
                    let ids: Vec<&str> = boxes.iter().map(|&g| play_areas[g].id.as_str()).collect();
                    return err(format!(
                        "\"{s}\" is an auto-win symbol, which wins the amount in a box, and \
                         {} play areas have one ({}): an auto-win needs a surface with one box",
                        boxes.len(),
                        ids.join(", ")
                    ));
                }
                SpecialKind::AutoWin if auto => {
                    return err(format!(
                        "\"{s}\": at most one auto-win symbol, which wins the surface's one box"
                    ))
                }
                SpecialKind::AutoWin => auto = true,
                SpecialKind::WinAll => {
                    if let Some(g) = legend {
                        return err(format!(
                            "\"{s}\" is a win-all symbol, which wins every amount the surface's \
                             boxes show, and games[{g}] pays by its `legend`, which no box \
                             shows: give every play area a `box`"
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The multiplier of the symbol of code `c`: 0 for an ordinary or a special symbol.
    fn factor_of(&self, c: u8) -> u32 {
        self.factor.get(usize::from(c)).copied().unwrap_or(0)
    }

    fn symbol(&self, c: u8) -> &str {
        &self.layout.columns[0].values[c as usize]
    }

    /// How many times symbol `s` may be drawn as a filler, given what each play area does
    /// (`wins[g]`): never a multiplier; a symbol below every match it could complete.
    fn cap(&self, s: usize, wins: &[Option<Money>]) -> usize {
        if self.factor[s] > 0 {
            return 0;
        }
        let m1 = self.min_match - 1;
        match self.owner[s] {
            None => m1,
            Some(g) if wins[g as usize].is_some() => (self.play_areas[g as usize].k - 1).min(m1),
            Some(g) => (self.play_areas[g as usize].k - 2).min(m1),
        }
    }

    /// The winning symbols (and box codes) play area `g` can win `amount` with under factor `f`.
    fn options(&self, g: usize, amount: Money, f: u64) -> Options {
        let play_area = &self.play_areas[g];
        match &play_area.prize {
            Prize::Legend(amounts) => play_area
                .winning
                .iter()
                .zip(amounts)
                .filter(|(_, m)| m.checked_mul(f) == Some(amount))
                .map(|(&s, _)| (s, None))
                .collect(),
            Prize::Box { amounts, .. } => {
                if amount.cents() % f != 0 {
                    return Options::new();
                }
                match amounts.code(Money(amount.cents() / f)) {
                    Some(code) => play_area.winning.iter().map(|&s| (s, Some(code))).collect(),
                    None => Options::new(),
                }
            }
        }
    }

    /// Whether the cells can hold the plan's matches, its multiplier, every near miss and
    /// decoy the rates may draw, and fillers that break no rule.
    /// A special symbol (`special`) takes a cell; beside a win-all no near miss shows, and
    /// beside any special no lone multiplier.
    fn fits(
        &self,
        wins: &[Option<Money>],
        multiplier: bool,
        special: Option<&Shown>,
    ) -> Result<(), Refusal> {
        let all = matches!(special, Some(Shown::All { .. }));
        let mut fixed = usize::from(multiplier) + usize::from(special.is_some());
        let mut extras = 0;
        for (g, w) in self.play_areas.iter().zip(wins) {
            if w.is_some() {
                fixed += g.k;
            } else if g.near_miss > 0 && !all {
                extras += g.k - 1;
            }
        }
        if wins.iter().all(Option::is_none) && special.is_none() && self.decoy_multiplier > 0 {
            extras += 1;
        }
        if fixed + extras > self.cells {
            return Err(Refusal::NoRoom {
                area: self.panel.clone(),
                need: fixed + extras,
                cells: self.cells,
                what: if self.specials.is_empty() {
                    "its matches, multiplier, near misses and decoys".into()
                } else {
                    "its matches, multiplier, special symbol, near misses and decoys".into()
                },
                hint: "",
            });
        }
        let mut room: usize = (0..self.n_symbols).map(|s| self.cap(s, wins)).sum();
        for (g, w) in self.play_areas.iter().zip(wins) {
            if w.is_some() {
                room -= (g.k - 1).min(self.min_match - 1);
            }
        }
        let fill = self.cells - fixed;
        if fill > room {
            return Err(Refusal::NoRoom {
                area: self.panel.clone(),
                need: fill,
                cells: room,
                what: "the other symbols without a repeated symbol that wins nothing".into(),
                hint: "; list more symbols",
            });
        }
        Ok(())
    }

    /// Every placement of `way`'s wins on the play areas: one per way of the spec, found
    /// when it is planned. Errors: none fits (the reason of the last refused), or more than
    /// [`MAX_PLANS`].
    fn placements(&self, way: &Way) -> Result<Vec<Placement>, Refusal> {
        let n = self.play_areas.len();
        let mut special: Option<Shown> = None;
        for w in &way.wins {
            if let Some(a) = w.area.map(usize::from).filter(|&a| a >= n) {
                special = Some(self.special_win(way, w, a)?);
            }
        }
        // The play area whose box the auto-win symbol wins: no match wins it too.
        let boxed = match special {
            Some(Shown::Auto { .. }) => Some(self.boxes[0]),
            _ => None,
        };
        let own = way.wins.len() - usize::from(special.is_some());
        let most = n - usize::from(boxed.is_some());
        if own > most {
            return Err(Refusal::TooManyWins {
                area: self.panel.clone(),
                wins: way.wins.len(),
                most: most + usize::from(special.is_some()),
                why: if boxed.is_some() {
                    "each play area wins at most once, and the auto-win's box by it alone"
                } else {
                    "each play area wins at most once"
                },
            });
        }
        let mut base: Vec<Option<Money>> = vec![None; n];
        let mut free: Vec<Money> = Vec::new();
        for w in &way.wins {
            match w.area {
                Some(a) if usize::from(a) >= n => {}
                Some(a) if Some(usize::from(a)) == boxed => {
                    return Err(Refusal::CannotWin {
                        area: self.play_areas[usize::from(a)].id.clone(),
                        amount: w.amount,
                        can: "on this way the auto-win symbol wins its box".into(),
                    })
                }
                Some(a) => {
                    if base[usize::from(a)].is_some() {
                        return Err(Refusal::SameArea {
                            area: self.layout.areas[usize::from(a)].clone(),
                        });
                    }
                    base[usize::from(a)] = Some(w.amount);
                }
                None => free.push(w.amount),
            }
        }
        // Every assignment of the free wins to the play areas left, each distinct once.
        let mut assigns: Vec<Vec<Option<Money>>> = Vec::new();
        let mut visited = 0usize;
        fn place(
            free: &[Money],
            cur: &mut Vec<Option<Money>>,
            out: &mut Vec<Vec<Option<Money>>>,
            visited: &mut usize,
        ) -> Result<(), Refusal> {
            *visited += 1;
            if *visited > MAX_PLANS * 4 {
                return Err(Refusal::TooManyPlacements { most: MAX_PLANS });
            }
            let Some((&m, rest)) = free.split_first() else {
                if !out.contains(cur) {
                    out.push(cur.clone());
                }
                return Ok(());
            };
            for g in 0..cur.len() {
                if cur[g].is_none() {
                    cur[g] = Some(m);
                    place(rest, cur, out, visited)?;
                    cur[g] = None;
                }
            }
            Ok(())
        }
        place(&free, &mut base, &mut assigns, &mut visited)?;
        if let Some(b) = boxed {
            assigns.retain(|wins| wins[b].is_none());
        }
        let mut plans = Vec::new();
        let mut why = None;
        for wins in assigns {
            let mut choices: Vec<Option<u8>> = vec![None];
            if special.is_none() {
                choices.extend(self.multipliers.iter().map(|&c| Some(c)));
            }
            for mult in choices {
                let f = mult.map_or(1, |c| u64::from(self.factor[c as usize]));
                if mult.is_some() {
                    let winners: Vec<&PlayArea> = self
                        .play_areas
                        .iter()
                        .zip(&wins)
                        .filter(|(_, w)| w.is_some())
                        .map(|(g, _)| g)
                        .collect();
                    if winners.is_empty() || winners.iter().any(|g| !g.multiplied) {
                        continue;
                    }
                }
                let short = wins.iter().enumerate().find_map(|(g, w)| {
                    w.filter(|&a| self.options(g, a, f).is_empty())
                        .map(|a| (g, a))
                });
                if let Some((g, a)) = short {
                    if mult.is_none() {
                        why = Some(Refusal::CannotWin {
                            area: self.play_areas[g].id.clone(),
                            amount: a,
                            can: self.can_win(g),
                        });
                    }
                    continue;
                }
                if let Err(e) = self.fits(&wins, mult.is_some(), special.as_ref()) {
                    why = Some(e);
                    continue;
                }
                if plans.len() >= MAX_PLANS {
                    return Err(Refusal::TooManyPlacements { most: MAX_PLANS });
                }
                let options = wins
                    .iter()
                    .enumerate()
                    .map(|(g, w)| w.map_or_else(Vec::new, |a| self.options(g, a, f).to_vec()))
                    .collect();
                let room: Vec<u16> = (0..self.n_symbols)
                    .map(|s| self.cap(s, &wins) as u16)
                    .collect();
                let open = (0..self.n_symbols)
                    .filter(|&s| room[s] > 0)
                    .map(|s| s as u8)
                    .collect();
                let single = room.iter().all(|&r| r <= 1);
                plans.push(Placement {
                    wins: wins.clone(),
                    multiplier: mult,
                    special: special.clone(),
                    options,
                    room,
                    open,
                    single,
                });
            }
        }
        if plans.is_empty() {
            return Err(why.unwrap_or(Refusal::TooManyWins {
                area: self.panel.clone(),
                wins: way.wins.len(),
                most: n,
                why: "each play area wins at most once",
            }));
        }
        Ok(plans)
    }

    /// The win `w` of `way` in play area `a`, a special symbol's (or refuses it: no such
    /// area, the special twice, an amount it cannot win, a win-all beside another win).
    fn special_win(&self, way: &Way, w: &crate::lots::Win, a: usize) -> Result<Shown, Refusal> {
        let j = a - self.play_areas.len();
        let Some(sp) = self.specials.list().get(j) else {
            return Err(Refusal::NoSuchArea { area: a as u8 });
        };
        let name = || self.layout.areas[a].clone();
        let twice = way.wins.iter().filter(|x| x.area == w.area).count();
        if twice > 1 {
            return Err(Refusal::TooManyWins {
                area: name(),
                wins: twice,
                most: 1,
                why: "a special symbol shows once on a face",
            });
        }
        let lists = self.box_lists();
        let shown = |lists: &[&[Money]]| {
            let mut v: Vec<Money> = lists.iter().flat_map(|l| l.iter().copied()).collect();
            v.sort_unstable();
            v.dedup();
            v.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let cannot = |can: String| Refusal::CannotWin {
            area: name(),
            amount: w.amount,
            can,
        };
        match sp.kind {
            SpecialKind::AutoWin => {
                let g = self.boxes[0];
                let Prize::Box { amounts, col, .. } = &self.play_areas[g].prize else {
                    unreachable!("boxes lists the play areas with a box")
                };
                let box_code = amounts.code(w.amount).ok_or_else(|| {
                    cannot(sp.kind.cannot_win(
                        &format!("its box {}", self.layout.columns[*col].name),
                        &shown(&lists[..1]),
                    ))
                })?;
                Ok(Shown::Auto {
                    code: sp.code,
                    box_code,
                })
            }
            SpecialKind::WinAll => {
                if way.wins.len() > 1 {
                    return Err(Refusal::TooManyWins {
                        area: name(),
                        wins: way.wins.len(),
                        most: 1,
                        why: "a win-all symbol wins every box of the surface, alone",
                    });
                }
                let sums = Sums::of_lists(&lists, w.amount).ok_or_else(|| {
                    cannot(format!(
                        "no amounts of its {} boxes ({}) add up to it",
                        lists.len(),
                        shown(&lists)
                    ))
                })?;
                Ok(Shown::All {
                    code: sp.code,
                    sums: Arc::new(sums),
                })
            }
            SpecialKind::Multiplier(_) => unreachable!("refused when the spec loads"),
        }
    }

    /// The amounts each box may show, in play-area order.
    fn box_lists(&self) -> Vec<&[Money]> {
        self.boxes
            .iter()
            .map(|&g| match &self.play_areas[g].prize {
                Prize::Box { amounts, .. } => amounts.amounts(),
                Prize::Legend(_) => unreachable!("boxes lists the play areas with a box"),
            })
            .collect()
    }

    /// What play area `g` can win, in words (for errors).
    fn can_win(&self, g: usize) -> String {
        let play_area = &self.play_areas[g];
        let mults: Vec<String> = if play_area.multiplied {
            self.multipliers
                .iter()
                .map(|&c| format!("×{}", self.factor[c as usize]))
                .collect()
        } else {
            Vec::new()
        };
        let times = if mults.is_empty() {
            String::new()
        } else {
            format!(", or one of them {}", mults.join(" or "))
        };
        match &play_area.prize {
            Prize::Legend(a) => {
                let mut a = a.clone();
                a.sort_unstable();
                a.dedup();
                let a: Vec<String> = a.iter().map(|m| m.to_string()).collect();
                format!("its legend pays {}{times}", a.join(", "))
            }
            Prize::Box { amounts, .. } => {
                let a: Vec<String> = amounts.amounts().iter().map(|m| m.to_string()).collect();
                format!("its box shows {}{times}", a.join(", "))
            }
        }
    }

    /// The feature `id`: `Ok(play area)` for a near miss, `Err(multiplier index)` for a decoy.
    fn feature(&self, id: FeatureId) -> Option<Result<usize, usize>> {
        if let Some(g) = self.play_areas.iter().position(|g| g.near_miss_id == id) {
            return Some(Ok(g));
        }
        self.decoy_ids.iter().position(|&d| d == id).map(Err)
    }

    /// The play area a lone multiplier's decoy is reported on: the first multiplied one.
    fn decoy_area(&self) -> u8 {
        self.play_areas
            .iter()
            .position(|g| g.multiplied)
            .unwrap_or(0) as u8
    }

    /// The lines the ticket prints beside the cells: each play area's pay legend (under its
    /// printed name when the surface has several play areas), then the multipliers.
    fn legend_with(&self, ctx: &StyleCtx) -> Vec<PrintedLine> {
        let mut v = Vec::new();
        for g in &self.play_areas {
            if let Prize::Legend(amounts) = &g.prize {
                let entries: Vec<Phrase> = g
                    .winning
                    .iter()
                    .zip(amounts)
                    .map(|(&c, &m)| Phrase::Pays {
                        symbol: self.symbol(c).to_string(),
                        amount: m.into(),
                    })
                    .collect();
                // The rule first: a legend alone does not say how many must show.
                let mut lines = vec![PrintedLine::of(vec![Phrase::SameSymbols {
                    count: g.k,
                    symbols: Vec::new(),
                }])];
                lines.extend(common::legend_lines(entries));
                if self.play_areas.len() > 1 {
                    lines[0].title = Some(ctx.label(&g.id).to_string());
                }
                v.extend(lines);
            }
        }
        let mults: Vec<Phrase> = self
            .multipliers
            .iter()
            .map(|&c| Phrase::Multiplies {
                symbol: self.symbol(c).to_string(),
                factor: u64::from(self.factor[c as usize]),
            })
            .collect();
        v.extend(common::legend_lines(mults));
        // Each special symbol's rule (a multiplier is never a special here: refused at
        // load): a ticket that shows one prints what it does.
        let specials = self.specials.phrases(None);
        v.extend(common::legend_lines(specials));
        v
    }

    fn describe_with(&self, ctx: &StyleCtx) -> Vec<String> {
        let mut v = Vec::new();
        for g in &self.play_areas {
            let cells = if ctx.label(&self.panel) == ctx.label(&g.id) {
                format!("its {} cells", self.cells)
            } else {
                format!("the {} cells « {} »", self.cells, ctx.label(&self.panel))
            };
            let syms: Vec<&str> = g.winning.iter().map(|&c| self.symbol(c)).collect();
            let what = if syms.len() == 1 {
                format!("{} shows exactly {}", syms[0], times_word(g.k))
            } else {
                format!(
                    "one of {} shows exactly {}",
                    crate::language::join_symbols(&syms),
                    times_word(g.k)
                )
            };
            let mut line = match &g.prize {
                Prize::Box { col, .. } => format!(
                    "« {} » wins the amount in its box {} when {what} among {cells}.",
                    ctx.label(&g.id),
                    self.layout.columns[*col].name
                ),
                Prize::Legend(amounts) => {
                    let mut pairs: Vec<(Money, &str)> =
                        amounts.iter().copied().zip(syms.iter().copied()).collect();
                    pairs.sort();
                    let legend: Vec<String> =
                        pairs.iter().map(|(m, s)| format!("{s} {m}")).collect();
                    format!(
                        "« {} » wins when {what} among {cells}: the matched symbol's amount in its pay legend ({}).",
                        ctx.label(&g.id),
                        legend.join(", ")
                    )
                }
            };
            if g.multiplied && !self.multipliers.is_empty() {
                let m: Vec<String> = self
                    .multipliers
                    .iter()
                    .map(|&c| {
                        format!(
                            "a {} multiplies its win by {}",
                            self.symbol(c),
                            self.factor[c as usize]
                        )
                    })
                    .collect();
                line += &format!(" Anywhere among the cells, {}.", m.join("; "));
            }
            v.push(line);
            if g.near_miss > 0 {
                v.push(format!(
                    "  near miss: {} of the tickets where « {} » loses show one of its winning symbols {}, one short of the match",
                    pct(g.near_miss),
                    ctx.label(&g.id),
                    times_word(g.k - 1)
                ));
            }
            if let Prize::Box {
                amounts, weights, ..
            } = &g.prize
            {
                let w: Vec<String> = amounts
                    .amounts()
                    .iter()
                    .zip(weights)
                    .filter(|(_, &w)| w > 0)
                    .map(|(m, w)| format!("{m}×{w}"))
                    .collect();
                v.push(format!(
                    "  box amounts {}; a losing box shows a decoy amount (weights {})",
                    amounts
                        .amounts()
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    w.join(" ")
                ));
            }
        }
        if self.decoy_multiplier > 0 {
            v.push(format!(
                "decoy: {} of the tickets where nothing wins on the surface show one {}, which multiplies nothing",
                pct(self.decoy_multiplier),
                self.multipliers
                    .iter()
                    .map(|&c| self.symbol(c))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
        v.extend(self.describe_specials(ctx));
        v.push(format!(
            "never printed: a winning symbol more times than its match, two symbols completing one play area, any other symbol {} times or more{}",
            self.min_match,
            if self.multipliers.is_empty() { "" } else { ", two multipliers" }
        ));
        v
    }

    /// How each special symbol wins, in words, and where it never shows.
    fn describe_specials(&self, ctx: &StyleCtx) -> Vec<String> {
        let mut v = Vec::new();
        if self.specials.is_empty() {
            return v;
        }
        let n = self.play_areas.len();
        let box_name = |g: usize| match &self.play_areas[g].prize {
            Prize::Box { col, .. } => self.layout.columns[*col].name.clone(),
            Prize::Legend(_) => String::new(),
        };
        for (j, sp) in self.specials.list().iter().enumerate() {
            let area = ctx.label(&self.layout.areas[n + j]);
            v.push(match sp.kind {
                SpecialKind::AutoWin => {
                    let g = self.boxes[0];
                    format!(
                        "A cell showing {} wins the amount in the box {} of « {} », whatever the other cells show (play area « {area} »); « {} » then does not also win by its match: the box is paid once.",
                        sp.symbol,
                        box_name(g),
                        ctx.label(&self.play_areas[g].id),
                        ctx.label(&self.play_areas[g].id),
                    )
                }
                SpecialKind::WinAll => {
                    let names: Vec<String> = self.boxes.iter().map(|&g| box_name(g)).collect();
                    format!(
                        "A cell showing {} wins every amount in the boxes {}, added up, once (play area « {area} »); nothing else on the surface wins beside it, and no near miss shows there.",
                        sp.symbol,
                        names.join(", ")
                    )
                }
                SpecialKind::Multiplier(_) => unreachable!("refused when the spec loads"),
            });
        }
        let names: Vec<&str> = self
            .specials
            .list()
            .iter()
            .map(|s| s.symbol.as_str())
            .collect();
        v.push(format!(
            "Only a face winning by it shows {}, in one cell; a special symbol never counts towards a match{}.",
            names.join(", "),
            if self.multipliers.is_empty() {
                ""
            } else {
                ", and no multiplier shows beside its win"
            }
        ));
        v
    }
}

impl MatchSymbols {
    /// Whether a face of `way`, placed as `plans` says, can be asked to show feature `id`.
    fn can_show(&self, way: &Way, plans: &[Placement], id: FeatureId) -> Result<(), Refusal> {
        let feature = self.layout.features.name(id).to_string();
        let Some(f) = self.feature(id) else {
            return Err(Refusal::NoFeature {
                style: "match_symbols",
                feature,
            });
        };
        let (rate, area, loses, needs) = match f {
            Ok(g) => (
                self.play_areas[g].near_miss,
                self.play_areas[g].id.clone(),
                plans.iter().any(|p| p.wins[g].is_none() && !p.all()),
                if plans.iter().any(Placement::all) {
                    format!(
                        "« {} » to lose, with no win-all symbol",
                        self.play_areas[g].id
                    )
                } else {
                    format!("« {} » to lose", self.play_areas[g].id)
                },
            ),
            Err(_) => (
                self.decoy_multiplier,
                self.panel.clone(),
                way.wins.is_empty(),
                format!("every play area of « {} » to lose", self.panel),
            ),
        };
        if rate == 0 {
            return Err(Refusal::ZeroRate { feature, area });
        }
        if !loses {
            return Err(Refusal::NeedsLosing {
                feature,
                needs,
                way: way.id.clone(),
            });
        }
        Ok(())
    }

    /// The features every face of `way`, placed as `plans` says, shows unasked.
    fn always_shows(&self, way: &Way, plans: &[Placement]) -> Vec<FeatureId> {
        let mut v = Vec::new();
        for (g, play_area) in self.play_areas.iter().enumerate() {
            if play_area.near_miss == 1_000_000
                && plans.iter().all(|p| p.wins[g].is_none() && !p.all())
            {
                v.push(play_area.near_miss_id);
            }
        }
        if self.decoy_multiplier == 1_000_000
            && !self.decoy_ids.is_empty()
            && self.decoy_ids.iter().all(|&d| d == self.decoy_ids[0])
            && way.wins.is_empty()
        {
            v.push(self.decoy_ids[0]);
        }
        v
    }

    /// Places the way's wins on the play areas (a placement drawn among those found at
    /// load); each winning area shows its symbol `k` times (a legend's symbol of the amount,
    /// or any of its winning symbols over the box amount), the multiplier the amount needs;
    /// each losing area a near miss at its rate and a decoy amount in its box; a surface
    /// where nothing wins a lone multiplier at the decoy rate. The other cells are drawn
    /// uniformly among the symbols still allowed, then all cells are shuffled. The face is
    /// drawn into `face`, whatever it held.
    fn draw(
        &self,
        plans: &[Placement],
        show: Option<FeatureId>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        let asked = show.and_then(|id| self.feature(id));
        let plan = match asked {
            // With a near miss asked, only the placements leaving its play area losing. A
            // near miss is asked only when the plan can show it: some placement does.
            Some(Ok(g)) => {
                let usable = |p: &&Placement| p.wins[g].is_none() && !p.all();
                let pick = one_of(rng, plans.iter().filter(usable).count());
                plans
                    .iter()
                    .filter(usable)
                    .nth(pick)
                    .expect("a placement the feature asked can use")
            }
            _ => &plans[one_of(rng, plans.len())],
        };
        face.reset(self.layout.columns.len());
        // The box amounts a win-all adds up, box by box, and what each box shows beside a
        // special symbol (`None`: a decoy amount).
        let mut box_shows: SmallVec<[Option<u8>; 8]> = SmallVec::new();
        match &plan.special {
            Some(Shown::All { sums, .. }) => box_shows.extend(
                sums.draw_lists(&self.box_lists(), rng)
                    .into_iter()
                    .map(Some),
            ),
            Some(Shown::Auto { box_code, .. }) => box_shows.push(Some(*box_code)),
            None => {}
        }
        let all = plan.all();
        // The cells filled so far, shuffled at the end.
        let mut filled = 0;
        // The symbols the other cells are drawn among, ascending: the placement's, less
        // those its matches and near misses show.
        let mut open: ArrayVec<u8, { common::MAX_SYMBOLS }> = ArrayVec::new();
        open.try_extend_from_slice(&plan.open)
            .expect("at most MAX_SYMBOLS symbols");
        // The plan checked that the matches, near misses and decoys fit in the cells.
        let push = |face: &mut Face, filled: &mut usize, s: u8, times: usize| {
            face.codes[*filled..*filled + times].fill(s);
            *filled += times;
        };
        let close = |open: &mut ArrayVec<u8, { common::MAX_SYMBOLS }>, s: u8| {
            if let Ok(i) = open.binary_search(&s) {
                open.remove(i);
            }
        };
        for (g, play_area) in self.play_areas.iter().enumerate() {
            match plan.wins[g] {
                Some(_) => {
                    let opts = &plan.options[g];
                    // Placed when planned: the play area can win the amount.
                    let (s, code) = opts[one_of(rng, opts.len())];
                    push(face, &mut filled, s, play_area.k);
                    close(&mut open, s);
                    if let (
                        Prize::Box {
                            amounts,
                            col,
                            caption,
                            ..
                        },
                        Some(code),
                    ) = (&play_area.prize, code)
                    {
                        amounts.show(face, *col, *caption, code);
                    }
                }
                None => {
                    if !all && (asked == Some(Ok(g)) || chance(rng, play_area.near_miss)) {
                        let s =
                            play_area.winning[below(rng, play_area.winning.len() as u32) as usize];
                        push(face, &mut filled, s, play_area.k - 1);
                        close(&mut open, s);
                    }
                    if let Prize::Box {
                        amounts,
                        col,
                        caption,
                        decoys,
                        ..
                    } = &play_area.prize
                    {
                        // A special symbol's box: the amount it wins (the one box of an
                        // auto-win, each box of a win-all); else a decoy.
                        let shown = if box_shows.is_empty() {
                            None
                        } else {
                            self.boxes
                                .iter()
                                .position(|&b| b == g)
                                .and_then(|b| box_shows.get(b).copied().flatten())
                        };
                        let code = shown.unwrap_or_else(|| decoys.draw(rng) as u8);
                        amounts.show(face, *col, *caption, code);
                    }
                }
            }
        }
        if let Some(Shown::Auto { code, .. } | Shown::All { code, .. }) = &plan.special {
            push(face, &mut filled, *code, 1);
        } else if let Some(c) = plan.multiplier {
            push(face, &mut filled, c, 1);
        } else if plan.wins.iter().all(Option::is_none) && !self.multipliers.is_empty() {
            let lone = match asked {
                Some(Err(i)) => Some(self.multipliers[i]),
                _ if self.decoy_multiplier > 0 && chance(rng, self.decoy_multiplier) => {
                    Some(self.multipliers[one_of(rng, self.multipliers.len())])
                }
                _ => None,
            };
            if let Some(c) = lone {
                push(face, &mut filled, c, 1);
            }
        }
        // The other cells: each drawn uniformly among the symbols still allowed. The plan
        // checked that enough symbols are allowed: `open` is never empty here.
        let cells = &mut face.codes[..self.cells];
        if plan.single {
            // Every symbol at most once: the one drawn leaves the list, so each cell draws
            // among one fewer symbols than the cell before (several cells a 32-bit draw).
            let mut at = filled;
            below_falling(rng, open.len() as u32, cells.len() - filled, |k| {
                cells[at] = open.swap_remove(k as usize);
                at += 1;
            });
        } else {
            let mut room: SmallVec<[u16; 64]> = SmallVec::from_slice(&plan.room);
            for cell in &mut cells[filled..] {
                let k = below(rng, open.len() as u32) as usize;
                let s = open[k];
                room[s as usize] -= 1;
                if room[s as usize] == 0 {
                    open.swap_remove(k);
                }
                *cell = s;
            }
        }
        shuffle(rng, cells);
    }
}

/// An index drawn uniformly in `0..n`, drawing nothing when `n` is 0 or 1 (0 then).
fn one_of(rng: &mut FaceRng, n: usize) -> usize {
    match n {
        0 | 1 => 0,
        n => below(rng, n as u32) as usize,
    }
}

impl MatchSymbols {
    /// Adds to `ev` the wins of the special symbols the cells show (`counts`, per code),
    /// beside `n_mult` multiplier symbols, and flags what the naive reading would read
    /// otherwise (module docs). Returns whether a special symbol shows.
    fn evaluate_specials(
        &self,
        face: &Face,
        counts: &[u8],
        n_mult: usize,
        ev: &mut Evaluation,
    ) -> bool {
        let flag = |ev: &mut Evaluation, a: &'static str| {
            if !ev.ambiguities.contains(&a) {
                ev.ambiguities.push(a);
            }
        };
        let n = self.play_areas.len();
        let mut shown = false;
        let mut all = None;
        let mut others = ev.wins.len();
        for (j, sp) in self.specials.list().iter().enumerate() {
            let times = usize::from(counts[usize::from(sp.code)]);
            if times == 0 {
                continue;
            }
            shown = true;
            if times > 1 {
                flag(ev, AMB_SPECIAL_TWICE);
            }
            if n_mult > 0 {
                flag(ev, AMB_MULTIPLIER_ELSEWHERE);
            }
            match sp.kind {
                SpecialKind::AutoWin => {
                    let g = self.boxes[0];
                    if ev.wins.iter().any(|w| usize::from(w.area) == g) {
                        flag(ev, AMB_AUTO_WIN_BESIDE);
                    }
                    let Prize::Box { amounts, col, .. } = &self.play_areas[g].prize else {
                        unreachable!("boxes lists the play areas with a box")
                    };
                    let amount = amounts.amount(face.codes[*col]);
                    for _ in 0..times {
                        let _ = ev.wins.try_push(AreaWin {
                            area: (n + j) as u8,
                            amount,
                        });
                    }
                    others += 1;
                }
                SpecialKind::WinAll => all = Some(j),
                SpecialKind::Multiplier(_) => unreachable!("refused when the spec loads"),
            }
        }
        if let Some(j) = all {
            if others > 0 || n_mult > 0 {
                flag(ev, AMB_WIN_ALL_BESIDE);
            }
            let sum = self
                .boxes
                .iter()
                .map(|&g| match &self.play_areas[g].prize {
                    Prize::Box { amounts, col, .. } => amounts.amount(face.codes[*col]).cents(),
                    Prize::Legend(_) => 0,
                })
                .sum();
            ev.wins.clear();
            ev.wins.push(AreaWin {
                area: (n + j) as u8,
                amount: Money(sum),
            });
            ev.losing_features.clear();
        }
        shown
    }
}

/// The presentation of the style, computed once by its constructor.
impl MatchSymbols {
    /// `self` with its layout completed: panels, printed lines, shown amounts and
    /// description, computed once from its settings.
    fn with_layout(mut self) -> Self {
        self.layout.shown_amounts = self.shown_amounts();
        self.layout.panels = self.panels();
        self.layout.printed = self.printed();
        self.layout.description = self.describe();
        self
    }

    fn shown_amounts(&self) -> Vec<Money> {
        let mut v: Vec<Money> = self
            .play_areas
            .iter()
            .filter_map(|g| match &g.prize {
                Prize::Box { amounts, .. } => Some(amounts.amounts().to_vec()),
                Prize::Legend(_) => None,
            })
            .flatten()
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The cells (panel `panel`, default the surface id, `per_row` cells a row), then the
    /// box of each play area that has one (panel: the play area's id).
    fn panels(&self) -> Vec<Panel> {
        let cells: Vec<usize> = (0..self.cells).collect();
        let mut v = vec![Panel {
            id: self.panel.clone(),
            rows: cells.chunks(self.per_row).map(<[usize]>::to_vec).collect(),
        }];
        for g in &self.play_areas {
            if let Prize::Box { col, .. } = &g.prize {
                v.push(Panel {
                    id: g.id.clone(),
                    rows: vec![vec![*col]],
                });
            }
        }
        v
    }

    /// What the ticket prints: with the cells, each legend play area's rule and legend,
    /// and what each multiplier and special symbol does; with each play area's box, its
    /// rule (« Trouvez 2 COQ : gagnez le montant de la case »), so that the proof says how
    /// every play area wins.
    fn printed(&self) -> Vec<super::Printed> {
        let mut v = Vec::new();
        if !self.legend_text.is_empty() {
            v.push(super::Printed {
                panel: self.panel.clone(),
                lines: self.legend_text.clone(),
            });
        }
        for g in &self.play_areas {
            if let Prize::Box { .. } = g.prize {
                let symbols = g.winning.iter().map(|&c| self.symbol(c).to_string());
                v.push(super::Printed {
                    panel: g.id.clone(),
                    lines: vec![PrintedLine::of(vec![Phrase::SameSymbols {
                        count: g.k,
                        symbols: symbols.collect(),
                    }])],
                });
            }
        }
        v
    }

    fn describe(&self) -> Vec<String> {
        self.description.clone()
    }
}

impl Style for MatchSymbols {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    /// A way is feasible when its wins can be placed one per play area, each an amount its
    /// area can show (a box amount, a legend amount, or either times a multiplier), with
    /// room in the cells for the matches, the multiplier, every near miss and decoy the
    /// rates may draw, and fillers that repeat no symbol into a win. Every such placement
    /// is kept in the plan, and each face draws one.
    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        let plans = self.placements(way)?;
        let always = self.always_shows(way, &plans);
        let (me, mine) = (Arc::clone(&self), plans.clone());
        Ok(Plan::new(
            &*self,
            way,
            |id| self.can_show(way, &plans, id),
            always,
            move |show, rng, face| me.draw(&mine, show, rng, face),
        ))
    }

    /// Refuses a special symbol no way wins by: no face would ever show it.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        self.specials.check_ways(plans, &self.layout.areas)
    }

    fn features(&self) -> Vec<FeatureId> {
        let mut v = Vec::new();
        for g in &self.play_areas {
            if g.near_miss > 0 {
                v.push(g.near_miss_id);
            }
        }
        if self.decoy_multiplier > 0 {
            for (i, &id) in self.decoy_ids.iter().enumerate() {
                if !self.decoy_ids[..i].contains(&id) {
                    v.push(id);
                }
            }
        }
        v
    }

    /// Judges the face: a play area wins when one of its winning symbols shows exactly its match
    /// count (the first such symbol in the spec's order, if several: flagged); its prize is
    /// its box amount or the symbol's legend amount, times the factor of a multiplier shown
    /// anywhere among the cells when the play area is multiplied. Near misses and a lone
    /// multiplier are reported as losing features; every breach of the naive reading (module
    /// docs) as an ambiguity.
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let mut counts = [0u8; common::MAX_SYMBOLS];
        for &c in &face.codes[..self.cells] {
            counts[c as usize] = counts[c as usize].saturating_add(1);
        }
        let flag = |ev: &mut Evaluation, a: &'static str| {
            if !ev.ambiguities.contains(&a) {
                ev.ambiguities.push(a);
            }
        };
        let mut n_mult = 0;
        let mut f = 1u64;
        for &c in &self.multipliers {
            if counts[c as usize] > 0 {
                if n_mult == 0 {
                    f = u64::from(self.factor[c as usize]);
                }
                n_mult += usize::from(counts[c as usize]);
            }
        }
        let mut any_win = false;
        for (g, play_area) in self.play_areas.iter().enumerate() {
            let mut done: Option<usize> = None;
            for (i, &s) in play_area.winning.iter().enumerate() {
                if usize::from(counts[s as usize]) == play_area.k {
                    if done.is_some() {
                        flag(ev, AMB_TWO_COMPLETE);
                    } else {
                        done = Some(i);
                    }
                }
            }
            match done {
                Some(i) => {
                    any_win = true;
                    let base = match &play_area.prize {
                        Prize::Box { amounts, col, .. } => amounts.amount(face.codes[*col]),
                        Prize::Legend(a) => a[i],
                    };
                    let amount = if play_area.multiplied && n_mult > 0 {
                        Money(base.cents().saturating_mul(f))
                    } else {
                        if n_mult > 0 {
                            flag(ev, AMB_MULTIPLIER_ELSEWHERE);
                        }
                        base
                    };
                    ev.wins.push(AreaWin {
                        area: g as u8,
                        amount,
                    });
                }
                None => {
                    if play_area
                        .winning
                        .iter()
                        .any(|&s| usize::from(counts[s as usize]) == play_area.k - 1)
                    {
                        ev.losing_features.push(AreaFeature {
                            area: g as u8,
                            id: play_area.near_miss_id,
                        });
                    }
                }
            }
        }
        for (s, &c) in counts[..self.n_symbols].iter().enumerate() {
            let c = usize::from(c);
            if c < self.min_match || self.factor[s] > 0 {
                continue;
            }
            match self.owner[s] {
                Some(g) if c == self.play_areas[g as usize].k => {}
                Some(g) if c > self.play_areas[g as usize].k => flag(ev, AMB_OVER),
                _ => flag(ev, AMB_IDLE_REPEAT),
            }
        }
        if n_mult >= 2 {
            flag(ev, AMB_TWO_MULTIPLIERS);
        }
        if !self.specials.is_empty() {
            any_win |= self.evaluate_specials(face, &counts, n_mult, ev);
        }
        if n_mult >= 1 && !any_win {
            if self.decoy_multiplier > 0 {
                let i = self
                    .multipliers
                    .iter()
                    .position(|&c| counts[c as usize] > 0)
                    .expect("a multiplier is shown");
                ev.losing_features.push(AreaFeature {
                    area: self.decoy_area(),
                    id: self.decoy_ids[i],
                });
            } else {
                flag(ev, AMB_LONE_MULTIPLIER);
            }
        }
    }

    /// A winning play area: its matched symbols, its box, and the multiplier that multiplies
    /// it. A losing play area: the symbols of its near miss, its box (a decoy), and a lone
    /// multiplier on the play area its decoy is reported on. A special symbol's play area:
    /// its cell and the box it wins (every box, for a win-all, and nothing else then).
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let cells = &face.codes[..self.cells];
        let mut counts = [0u8; common::MAX_SYMBOLS];
        for &c in cells {
            counts[c as usize] = counts[c as usize].saturating_add(1);
        }
        let mut out = Vec::new();
        // The box an auto-win symbol wins, marked as its win rather than a decoy.
        let mut won_box = None;
        for (i, &c) in cells.iter().enumerate() {
            let Some((j, sp)) = self.specials.get(c) else {
                continue;
            };
            let area = self.specials.area(j);
            let win = |column: usize| Mark {
                area,
                column,
                kind: MarkKind::Win,
            };
            out.push(win(i));
            let boxes = match sp.kind {
                SpecialKind::WinAll => &self.boxes[..],
                _ => &self.boxes[..1],
            };
            for &g in boxes {
                if let Prize::Box { col, .. } = &self.play_areas[g].prize {
                    out.push(win(*col));
                    won_box = Some(g);
                }
            }
            if sp.kind == SpecialKind::WinAll {
                return out;
            }
        }
        for (g, play_area) in self.play_areas.iter().enumerate() {
            let area = g as u8;
            let wins = ev.wins.iter().any(|w| w.area == area);
            let mut mark = |column: usize, kind: MarkKind| out.push(Mark { area, column, kind });
            if wins {
                let s = play_area
                    .winning
                    .iter()
                    .copied()
                    .find(|&s| usize::from(counts[s as usize]) == play_area.k);
                for (i, &c) in cells.iter().enumerate() {
                    if Some(c) == s || (play_area.multiplied && self.factor_of(c) > 0) {
                        mark(i, MarkKind::Win);
                    }
                }
            } else {
                if ev
                    .losing_features
                    .iter()
                    .any(|f| f.area == area && f.id == play_area.near_miss_id)
                {
                    for (i, &c) in cells.iter().enumerate() {
                        if self.owner.get(usize::from(c)) == Some(&Some(area))
                            && usize::from(counts[c as usize]) == play_area.k - 1
                        {
                            mark(i, MarkKind::NearMiss);
                        }
                    }
                }
                if ev
                    .losing_features
                    .iter()
                    .any(|f| f.area == area && self.decoy_ids.contains(&f.id))
                {
                    for (i, &c) in cells.iter().enumerate() {
                        if self.factor_of(c) > 0 {
                            mark(i, MarkKind::Decoy);
                        }
                    }
                }
            }
            if let Prize::Box { col, .. } = &play_area.prize {
                if !wins && won_box == Some(g) {
                    continue;
                }
                mark(*col, if wins { MarkKind::Win } else { MarkKind::Decoy });
            }
        }
        out
    }
}

/// The style's entry in the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "match_symbols",
    term: "match symbols (match two or more, three like symbols; WAC 315-10-024)",
    about: "A surface of symbol cells read by one or more play areas: a play area wins when one of its winning symbols shows exactly its match count; it wins the amount in its box, or the matched symbol's amount in its pay legend, times any multiplier symbol shown among the cells. A special symbol (`specials`) wins on its own: an auto-win the amount in the one box, a win-all every box's amount added up.",
    naive: "Any symbol shown as often as a match (or more) reads as a win, and a multiplier as multiplying whatever wins: so never a winning symbol beyond its match, two symbols completing one play area, a repeated symbol that wins nothing, two multipliers, or a multiplier beside a win it does not multiply. A player who sees a special symbol takes its prize: it shows once, only on a face winning by it, never beside a match of the box it wins, a multiplier, or (a win-all) any other win.",
    columns: "{cell_prefix}1 … {cell_prefix}{cells} (prefix default {id}_), then {box} and {box}_caption for each play area with a box",
    params: &[
        Param { name: "cells", kind: "integer", default: None, about: "Number of symbol cells (2 to 64, with the boxes' columns)." },
        Param { name: "symbols", kind: "array of strings, or { from, to, width }", default: None, about: "The symbols the cells may show (words or numbers); printed numbers may be given as a range, { from = 1, to = 20, width = 2 } for \"01\" … \"20\"." },
        Param { name: "cell_prefix", kind: "string", default: Some("\"{id}_\""), about: "Column name prefix of the cells." },
        Param { name: "multiplier", kind: "table symbol → integer", default: Some("{}"), about: "Multiplier symbols and their factor: shown anywhere, it multiplies the win of the multiplied play areas." },
        Param { name: "decoy_multiplier", kind: "share 0..1", default: Some("0"), about: "Share of the faces where nothing wins on the surface that show one multiplier (a decoy)." },
        Param { name: "decoy_feature", kind: "string", default: Some("\"decoy_<multiplier, lowercase>\""), about: "The feature id of a lone multiplier (one id for every multiplier symbol)." },
        Param { name: "panel", kind: "string", default: Some("\"{id}\""), about: "Panel id (key in [labels]) of the cells on proofs." },
        Param { name: "per_row", kind: "integer", default: Some("cells"), about: "Cells per printed row on proofs." },
        Param { name: "games", kind: "array of tables", default: None, about: "The play areas: id, match, winning, box + amounts + decoy_weights or legend, near_miss, multiplied." },
        Param { name: "games.id", kind: "string", default: None, about: "The play area's id (its name in `areas` and [labels])." },
        Param { name: "games.match", kind: "integer", default: None, about: "How many identical symbols win (at least 2)." },
        Param { name: "games.winning", kind: "array of strings", default: Some("the legend's symbols, or every symbol no other play area lists"), about: "The symbols that win this play area." },
        Param { name: "games.box", kind: "string", default: Some("none: give `box` or `legend`"), about: "Name of the amount box (columns {box}, {box}_caption); the prize is the amount it shows." },
        Param { name: "games.amounts", kind: "array of amounts", default: Some("none: required with `box`"), about: "The amounts the box may show (each needs a caption)." },
        Param { name: "games.decoy_weights", kind: "table amount → integer", default: Some("equal weights"), about: "Weights of the decoy amount a losing play area's box shows." },
        Param { name: "games.legend", kind: "table symbol → amount", default: Some("none: give `box` or `legend`"), about: "Pay legend: the prize is the matched symbol's amount (instead of a box)." },
        Param { name: "games.near_miss", kind: "share 0..1", default: Some("0"), about: "Share of the faces where the play area loses that show one symbol fewer than its match of a winning symbol." },
        Param { name: "games.near_miss_feature", kind: "string", default: Some("\"near_miss_<id>\""), about: "The feature id of the play area's near miss." },
        Param { name: "games.multiplied", kind: "boolean", default: Some("true"), about: "Whether the surface's multipliers multiply this play area's win." },
        Param { name: "specials", kind: "array of tables", default: Some("none"), about: "Special symbols a cell may show on a face that wins by them: `{ symbol = \"LINGOT\", kind = \"auto_win\" }` wins the amount in the surface's one box, `{ symbol = \"BANQUE\", kind = \"win_all\" }` every box's amount added up (every play area with a box). Each wins in a play area of its own (`area`, default `{id}_{symbol}` in lower case) that ways name in `areas`; optional `caption`, printed under it. A spot multiplier is refused: use `multiplier`." },
    ],
    example: r#"[[surfaces]]
style = "match_symbols"
id = "trefle"
cells = 9
per_row = 3
symbols = ["TREFLE", "FER", "CLOCHE", "ETOILE", "LUNE", "POMME", "ROSE", "SOLEIL"]
multiplier = { X2 = 2 }
decoy_multiplier = 0.2

[[surfaces.games]]
id = "jeu"
match = 3
legend = { TREFLE = 100, FER = 20, CLOCHE = 5, ETOILE = 2 }
near_miss = 0.4
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        self, drawn_twice, example_surface, features_as_asked, round_trip, way_in, Ctx,
    };
    use crate::styles::testkit::{Planning, Tested};
    use crate::styles::Captions;
    use rand_core::SeedableRng;

    fn captions() -> Captions {
        testkit::captions(&[2, 3, 4, 6, 8, 10, 20, 100, 200, 500, 20000])
    }

    fn build_from(id: &str, text: &str) -> Result<Arc<MatchSymbols>, FieldError> {
        let ctx = Ctx::new(id).captions(captions()).label("jeu1", "Jeu 1");
        MatchSymbols::new(toml::from_str(text).unwrap(), &ctx.get()).map(Arc::new)
    }

    /// Coq's eight cells: jeu1 two COQ → gain1, jeu2 two of a vœu → gain2.
    const COQ: &str = r#"
cells = 8
cell_prefix = "s"
symbols = ["RAT", "BUFFLE", "TIGRE", "LAPIN", "DRAGON", "SERPENT", "CHEVAL", "CHEVRE",
           "SINGE", "COQ", "CHIEN", "COCHON", "SANTE", "AMOUR", "BONHEUR", "JOIE"]
[[games]]
id = "jeu1"
match = 2
winning = ["COQ"]
box = "gain1"
amounts = [2, 4, 8, 10, 20, 100, 500, 20000]
decoy_weights = { "2" = 3, "4" = 1 }
near_miss = 0.3
[[games]]
id = "jeu2"
match = 2
winning = ["SANTE", "AMOUR", "BONHEUR", "JOIE"]
box = "gain2"
amounts = [2, 4, 8, 10, 20, 100, 500, 20000]
near_miss = 0.3
"#;

    /// Pharaon's pyramid: six cells, three of a legend symbol, the mask doubles.
    const PYRAMID: &str = r#"
cells = 6
per_row = 3
panel = "IV"
symbols = ["LION", "OISEAU", "BATEAU", "MAIN", "CROIX", "MASQUE", "SOLEIL", "ETOILE", "PAPYRUS"]
multiplier = { MASQUE = 2 }
decoy_multiplier = 0.25
[[games]]
id = "IV"
match = 3
legend = { LION = 3, OISEAU = 10, BATEAU = 100, MAIN = 1000, CROIX = 10000 }
near_miss = 0.4
"#;

    fn coq() -> Arc<MatchSymbols> {
        build_from("cells", COQ).unwrap()
    }

    /// Every play area prints its rule: a box's under the box, naming its winning
    /// symbols; a legend's with the cells, before the legend and the multiplier.
    #[test]
    fn each_play_area_prints_its_rule() {
        use crate::language::Language;
        let m = coq();
        let p = m.printed();
        assert_eq!(
            p.iter().map(|x| x.panel.as_str()).collect::<Vec<_>>(),
            ["jeu1", "jeu2"]
        );
        assert_eq!(
            testkit::printed_text(&p, Language::Fr),
            [
                "Trouvez 2 COQ : gagnez le montant de la case",
                "Trouvez 2 symboles identiques parmi SANTE AMOUR BONHEUR JOIE : gagnez le montant de la case"
            ]
        );
        assert_eq!(
            testkit::printed_text(&p, Language::En),
            [
                "Find 2 COQ: win the amount in the box",
                "Find 2 identical symbols among SANTE AMOUR BONHEUR JOIE: win the amount in the box"
            ]
        );
        let m = pyramid();
        let p = m.printed();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].panel, "IV");
        assert_eq!(
            testkit::printed_text(&p, Language::Fr),
            [
                "Trouvez 3 symboles identiques : gagnez le montant du symbole",
                "LION = 3 € · OISEAU = 10 € · BATEAU = 100 €",
                "MAIN = 1 000 € · CROIX = 10 000 €",
                "MASQUE = gain ×2"
            ]
        );
    }

    fn pyramid() -> Arc<MatchSymbols> {
        build_from("j4", PYRAMID).unwrap()
    }

    fn face(m: &MatchSymbols, cells: &[&str], boxes: &[u64]) -> Face {
        let mut f = Face::default();
        for (i, s) in cells.iter().enumerate() {
            f.codes[i] = m.layout.columns[0]
                .values
                .iter()
                .position(|v| v == s)
                .unwrap() as u8;
        }
        let caps = captions();
        for (g, &b) in m
            .play_areas
            .iter()
            .filter(|g| matches!(g.prize, Prize::Box { .. }))
            .zip(boxes)
        {
            if let Prize::Box {
                amounts,
                col,
                caption,
                ..
            } = &g.prize
            {
                let code = amounts.code(Money::units(b)).unwrap();
                amounts.show(&mut f, *col, *caption, code);
                assert_eq!(caps.texts[f.codes[*caption] as usize], format!("C{b}"));
            }
        }
        f
    }

    fn wins(ev: &Evaluation) -> Vec<(u8, u64)> {
        ev.wins
            .iter()
            .map(|w| (w.area, w.amount.cents() / 100))
            .collect()
    }

    /// The way `id` of wins `(area, amount in whole units)` ([`way_in`]).
    fn way(id: &str, wins: &[(Option<u8>, u64)]) -> Way {
        Way {
            id: id.into(),
            ..way_in(wins)
        }
    }

    #[test]
    fn columns_and_panels_follow_the_ids() {
        let m = coq();
        let names: Vec<&str> = m.layout.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "s1",
                "s2",
                "s3",
                "s4",
                "s5",
                "s6",
                "s7",
                "s8",
                "gain1",
                "gain1_caption",
                "gain2",
                "gain2_caption"
            ]
        );
        assert_eq!(m.layout().areas, ["jeu1", "jeu2"]);
        let p = m.panels();
        assert_eq!(
            p.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            ["cells", "jeu1", "jeu2"]
        );
        let m = pyramid();
        let names: Vec<&str> = m.layout.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["j4_1", "j4_2", "j4_3", "j4_4", "j4_5", "j4_6"]);
        assert_eq!(m.layout().areas, ["IV"]);
        assert_eq!(
            m.panels(),
            vec![Panel {
                id: "IV".into(),
                rows: vec![vec![0, 1, 2], vec![3, 4, 5]]
            }]
        );
        assert!(m.shown_amounts().is_empty());
        assert_eq!(coq().shown_amounts().len(), 8);
    }

    #[test]
    fn a_box_game_wins_its_box_when_its_symbol_shows_match_times() {
        let m = coq();
        let ev = m.evaluate(&face(
            &m,
            &[
                "COQ", "RAT", "COQ", "TIGRE", "LAPIN", "DRAGON", "CHIEN", "SINGE",
            ],
            &[500, 4],
        ));
        assert_eq!(wins(&ev), vec![(0, 500)]);
        assert!(ev.ambiguities.is_empty());
        // Both play areas add up.
        let ev = m.evaluate(&face(
            &m,
            &[
                "SANTE", "COQ", "COQ", "TIGRE", "SANTE", "DRAGON", "RAT", "SINGE",
            ],
            &[10, 20],
        ));
        assert_eq!(wins(&ev), vec![(0, 10), (1, 20)]);
        assert_eq!(ev.prize(), Money::units(30));
        assert!(ev.ambiguities.is_empty());
        // No pair loses; one COQ and one vœu are near misses of their games.
        let ev = m.evaluate(&face(
            &m,
            &[
                "COQ", "RAT", "SANTE", "TIGRE", "LAPIN", "DRAGON", "AMOUR", "SINGE",
            ],
            &[20000, 500],
        ));
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.is_empty());
        let near = m.named(&ev.losing_features);
        assert_eq!(near, vec![(0, "near_miss_jeu1"), (1, "near_miss_jeu2")]);
    }

    #[test]
    fn a_legend_game_wins_the_symbols_amount_and_the_multiplier_doubles_it() {
        let m = pyramid();
        let ev = m.evaluate(&face(
            &m,
            &["LION", "MASQUE", "LION", "SOLEIL", "LION", "CROIX"],
            &[],
        ));
        assert_eq!(wins(&ev), vec![(0, 6)]);
        assert!(ev.ambiguities.is_empty());
        let ev = m.evaluate(&face(
            &m,
            &["MAIN", "SOLEIL", "MAIN", "SOLEIL", "MAIN", "CROIX"],
            &[],
        ));
        assert_eq!(wins(&ev), vec![(0, 1000)]);
        assert!(ev.ambiguities.is_empty());
        // Two LION (near miss), two SOLEIL (a pair of a decoy is below the match) and a
        // lone mask (decoy).
        let ev = m.evaluate(&face(
            &m,
            &["LION", "LION", "SOLEIL", "SOLEIL", "MASQUE", "CROIX"],
            &[],
        ));
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.is_empty());
        let f: Vec<&str> = m
            .named(&ev.losing_features)
            .into_iter()
            .map(|f| f.1)
            .collect();
        assert_eq!(f, vec!["near_miss_IV", "decoy_masque"]);
    }

    /// Coq's policy on its eight cells, each face with the case it breaches: three COQ, two
    /// different vœux each twice, a repeated sign that is neither. (A vœu three times is
    /// each test's own: a vœu of its symbols.)
    const COQ_POLICY: [([&str; 8], &str); 3] = [
        (
            [
                "COQ", "COQ", "COQ", "TIGRE", "LAPIN", "DRAGON", "RAT", "SINGE",
            ],
            AMB_OVER,
        ),
        (
            [
                "SANTE", "SANTE", "AMOUR", "AMOUR", "LAPIN", "DRAGON", "RAT", "SINGE",
            ],
            AMB_TWO_COMPLETE,
        ),
        (
            [
                "RAT", "RAT", "COQ", "TIGRE", "LAPIN", "DRAGON", "CHIEN", "SINGE",
            ],
            AMB_IDLE_REPEAT,
        ),
    ];

    #[test]
    fn every_ambiguous_case_is_flagged() {
        let m = coq();
        let thrice = [
            "SANTE", "SANTE", "SANTE", "TIGRE", "LAPIN", "DRAGON", "RAT", "SINGE",
        ];
        for (cells, amb) in COQ_POLICY.into_iter().chain([(thrice, AMB_OVER)]) {
            let ev = m.evaluate(&face(&m, &cells, &[2, 2]));
            assert_eq!(ev.ambiguities, vec![amb], "{cells:?}");
        }
        // A repeated other sign wins nothing by the letter; two vœux complete Jeu 2 once.
        assert!(m
            .evaluate(&face(&m, &COQ_POLICY[2].0, &[2, 2]))
            .wins
            .is_empty());
        assert_eq!(
            wins(&m.evaluate(&face(&m, &COQ_POLICY[1].0, &[2, 4]))),
            vec![(1, 4)]
        );
        let m = pyramid();
        let cases: [([&str; 6], &str); 5] = [
            (
                ["LION", "LION", "LION", "OISEAU", "OISEAU", "OISEAU"],
                AMB_TWO_COMPLETE,
            ),
            (
                ["LION", "LION", "LION", "LION", "SOLEIL", "CROIX"],
                AMB_OVER,
            ),
            (
                ["SOLEIL", "SOLEIL", "SOLEIL", "LION", "ETOILE", "CROIX"],
                AMB_IDLE_REPEAT,
            ),
            (
                ["LION", "LION", "LION", "MASQUE", "MASQUE", "CROIX"],
                AMB_TWO_MULTIPLIERS,
            ),
            (
                ["LION", "SOLEIL", "MASQUE", "MASQUE", "ETOILE", "CROIX"],
                AMB_TWO_MULTIPLIERS,
            ),
        ];
        for (cells, amb) in cases {
            let ev = m.evaluate(&face(&m, &cells, &[]));
            assert_eq!(ev.ambiguities, vec![amb], "{cells:?}");
        }
        // With no decoy rate, a lone multiplier is flagged.
        let m = build_from("j4", &PYRAMID.replace("decoy_multiplier = 0.25", "")).unwrap();
        let ev = m.evaluate(&face(
            &m,
            &["LION", "SOLEIL", "MASQUE", "OISEAU", "ETOILE", "CROIX"],
            &[],
        ));
        assert_eq!(ev.ambiguities, vec![AMB_LONE_MULTIPLIER]);
        // A multiplier beside a win it does not multiply.
        let text = format!("{COQ}\n").replace(
            "cell_prefix = \"s\"",
            "cell_prefix = \"s\"\nmultiplier = { X2 = 2 }",
        ) + "multiplied = false\n";
        let m = build_from("cells", &text).unwrap();
        let ev = m.evaluate(&face(
            &m,
            &[
                "SANTE", "SANTE", "X2", "TIGRE", "LAPIN", "DRAGON", "RAT", "SINGE",
            ],
            &[2, 4],
        ));
        assert_eq!(wins(&ev), vec![(1, 4)]);
        assert_eq!(ev.ambiguities, vec![AMB_MULTIPLIER_ELSEWHERE]);
        let ev = m.evaluate(&face(
            &m,
            &[
                "COQ", "COQ", "X2", "TIGRE", "LAPIN", "DRAGON", "RAT", "SINGE",
            ],
            &[2, 4],
        ));
        assert_eq!(wins(&ev), vec![(0, 4)]);
        assert!(ev.ambiguities.is_empty());
    }

    #[test]
    fn infeasible_ways_are_refused_with_the_reason() {
        let m = coq();
        assert_eq!(
            m.check_way(&way("3", &[(None, 3)])),
            Err(Refusal::CannotWin {
                area: "jeu2".into(),
                amount: Money(300),
                can: "its box shows 2, 4, 8, 10, 20, 100, 500, 20000".into()
            })
        );
        assert_eq!(
            m.check_way(&way("x", &[(None, 2), (None, 2), (None, 2)])),
            Err(Refusal::TooManyWins {
                area: "cells".into(),
                wins: 3,
                most: 2,
                why: "each play area wins at most once"
            })
        );
        assert_eq!(
            m.check_way(&way("x", &[(Some(0), 2), (Some(0), 2)])),
            Err(Refusal::SameArea {
                area: "jeu1".into()
            })
        );
        assert!(m
            .check_way(&way("10+20", &[(None, 10), (None, 20)]))
            .is_ok());
        let m = pyramid();
        assert!(m.check_way(&way("6", &[(None, 6)])).is_ok());
        assert!(m.check_way(&way("20000", &[(None, 20000)])).is_ok());
        let e = m.check_way(&way("4", &[(None, 4)])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "« IV » cannot win 4: its legend pays 3, 10, 100, 1000, 10000, or one of them ×2"
        );
        assert!(matches!(
            e,
            Refusal::CannotWin {
                amount: Money(400),
                ..
            }
        ));
        // Too few symbols to fill the cells without repeating one into a win.
        let text = COQ.replace(
            "\"RAT\", \"BUFFLE\", \"TIGRE\", \"LAPIN\", \"DRAGON\", \"SERPENT\", \"CHEVAL\", \"CHEVRE\",",
            "",
        );
        let m = build_from("cells", &text).unwrap();
        assert!(matches!(
            m.check_way(&way("lose", &[])),
            Err(Refusal::NoRoom { .. })
        ));
    }

    #[test]
    fn bad_tables_are_refused_naming_the_field() {
        let e = build_from(
            "x",
            &COQ.replace(
                "match = 2\nwinning = [\"COQ\"]",
                "match = 1\nwinning = [\"COQ\"]",
            ),
        )
        .err()
        .unwrap();
        assert_eq!(e.field, "games[0].match");
        let e = build_from(
            "x",
            &COQ.replace("winning = [\"COQ\"]", "winning = [\"SANTE\"]"),
        )
        .err()
        .unwrap();
        assert_eq!(e.field, "games[1].winning");
        assert!(e.message.contains("two play areas"), "{}", e.message);
        let e = build_from("x", &COQ.replace("box = \"gain2\"", "box = \"gain1\""))
            .err()
            .unwrap();
        assert_eq!(e.field, "games[1].box");
        let e = build_from(
            "x",
            &COQ.replace(
                "amounts = [2, 4, 8, 10, 20, 100, 500, 20000]\nnear",
                "amounts = [7]\nnear",
            ),
        )
        .err()
        .unwrap();
        assert_eq!(e.field, "games[1].amounts");
        let e = build_from("x", &COQ.replace("cells = 8", "cells = 8\ncolour = 1"))
            .err()
            .unwrap();
        assert_eq!(e.field, "colour");
        let e = build_from("x", &PYRAMID.replace("LION = 3,", "LION = 3, LAPIN = 5,"))
            .err()
            .unwrap();
        assert_eq!(e.field, "games[0].winning");
        let e = build_from("x", &PYRAMID.replace("MASQUE = 2", "MASQUE = 1"))
            .err()
            .unwrap();
        assert_eq!(e.field, "multiplier.MASQUE");
    }

    fn ways(m: &MatchSymbols) -> Vec<Way> {
        if m.play_areas.len() == 2 {
            vec![
                way("lose", &[]),
                way("2", &[(None, 2)]),
                way("20000", &[(None, 20000)]),
                way("500+500", &[(None, 500), (None, 500)]),
                way("10+20", &[(None, 10), (None, 20)]),
                way("jeu2:8", &[(Some(1), 8)]),
            ]
        } else {
            vec![
                way("lose", &[]),
                way("3", &[(None, 3)]),
                way("6", &[(None, 6)]),
                way("20", &[(None, 20)]),
                way("10000", &[(None, 10000)]),
                way("20000", &[(None, 20000)]),
            ]
        }
    }

    #[test]
    fn every_way_round_trips_and_losers_never_win() {
        for m in [coq(), pyramid()] {
            for w in ways(&m) {
                round_trip(&m, &w, 0..300);
            }
        }
    }

    #[test]
    fn every_feature_shows_when_asked_and_refusals_are_errors() {
        for m in [coq(), pyramid()] {
            let features = m.features();
            assert!(!features.is_empty());
            for w in ways(&m) {
                features_as_asked(&m, &w, 0..50);
            }
        }
        let m = coq();
        assert_eq!(
            m.can_show_why(&way("jeu2:8", &[(Some(1), 8)]), "near_miss_jeu2"),
            Err(Refusal::NeedsLosing {
                feature: "near_miss_jeu2".into(),
                needs: "« jeu2 » to lose".into(),
                way: "jeu2:8".into()
            })
        );
        assert!(matches!(
            m.can_show_why(
                &way("500+500", &[(None, 500), (None, 500)]),
                "near_miss_jeu1"
            ),
            Err(Refusal::NeedsLosing { .. })
        ));
        assert_eq!(
            m.can_show_why(&way("2", &[(None, 2)]), "carre"),
            Err(Refusal::NoFeature {
                style: "match_symbols",
                feature: "carre".into()
            })
        );
        let p = pyramid();
        assert_eq!(
            p.features()
                .iter()
                .map(|f| f.name.clone())
                .collect::<Vec<_>>(),
            ["near_miss_IV", "decoy_masque"]
        );
        assert!(matches!(
            p.can_show_why(&way("3", &[(None, 3)]), "decoy_masque"),
            Err(Refusal::NeedsLosing { .. })
        ));
    }

    #[test]
    fn rates_follow_the_spec() {
        let m = pyramid();
        let mut rng = FaceRng::seed_from_u64(1);
        let n = 20_000;
        let (mut near, mut mask) = (0, 0);
        for _ in 0..n {
            let ev = m.evaluate(&m.synthesize(&way("lose", &[]), &mut rng).unwrap());
            near += usize::from(m.shows(&ev, "near_miss_IV"));
            mask += usize::from(m.shows(&ev, "decoy_masque"));
        }
        let p = |x: usize| x as f64 / n as f64;
        assert!((p(near) - 0.40).abs() < 0.015, "{}", p(near));
        assert!((p(mask) - 0.25).abs() < 0.015, "{}", p(mask));
    }

    #[test]
    fn marks_follow_the_evaluation() {
        let m = coq();
        let marks = |f: &Face| {
            let mut v: Vec<(u8, usize, MarkKind)> = m
                .marks(f, &m.evaluate(f))
                .into_iter()
                .map(|k| (k.area, k.column, k.kind))
                .collect();
            v.sort_unstable();
            v
        };
        use MarkKind::{Decoy, NearMiss, Win};
        let f = face(
            &m,
            &[
                "COQ", "RAT", "COQ", "SANTE", "TIGRE", "LAPIN", "DRAGON", "CHIEN",
            ],
            &[8, 4],
        );
        assert_eq!(
            marks(&f),
            vec![
                (0, 0, Win),
                (0, 2, Win),
                (0, 8, Win),
                (1, 3, NearMiss),
                (1, 10, Decoy)
            ]
        );
        let p = pyramid();
        let f = face(
            &p,
            &["LION", "MASQUE", "LION", "SOLEIL", "LION", "CROIX"],
            &[],
        );
        let mut v: Vec<(usize, MarkKind)> = p
            .marks(&f, &p.evaluate(&f))
            .into_iter()
            .map(|k| (k.column, k.kind))
            .collect();
        v.sort_unstable();
        assert_eq!(v, vec![(0, Win), (1, Win), (2, Win), (4, Win)]);
        let f = face(
            &p,
            &["LION", "LION", "SOLEIL", "SOLEIL", "MASQUE", "CROIX"],
            &[],
        );
        let mut v: Vec<(usize, MarkKind)> = p
            .marks(&f, &p.evaluate(&f))
            .into_iter()
            .map(|k| (k.column, k.kind))
            .collect();
        v.sort_unstable();
        assert_eq!(v, vec![(0, NearMiss), (1, NearMiss), (4, Decoy)]);
    }

    #[test]
    fn describe_says_how_each_area_wins() {
        let d = coq().describe();
        assert_eq!(
            d[0],
            "« Jeu 1 » wins the amount in its box gain1 when COQ shows exactly twice among the 8 cells « cells »."
        );
        let d = pyramid().describe();
        assert_eq!(
            d[0],
            "« IV » wins when one of LION OISEAU BATEAU MAIN CROIX shows exactly three times among its 6 cells: the matched symbol's amount in its pay legend (LION 3, OISEAU 10, BATEAU 100, MAIN 1000, CROIX 10000). Anywhere among the cells, a MASQUE multiplies its win by 2."
        );
    }

    #[test]
    fn the_librarys_example_builds_and_carries_its_legend() {
        let (id, surface) = example_surface(&INFO);
        let m = build_from(&id, &toml::to_string(&surface).unwrap()).unwrap();
        assert!(m.check_way(&way("200", &[(None, 200)])).is_ok());
        assert!(m.check_way(&way("lose", &[])).is_ok());
    }

    #[test]
    fn feature_ids_may_be_named_by_the_spec() {
        let text = PYRAMID
            .replace(
                "decoy_multiplier = 0.25",
                "decoy_multiplier = 0.25\ndecoy_feature = \"decoy_mask\"",
            )
            .replace(
                "near_miss = 0.4",
                "near_miss = 0.4\nnear_miss_feature = \"near_miss_pyramid\"",
            );
        let m = build_from("j4", &text).unwrap();
        assert_eq!(
            m.features()
                .iter()
                .map(|f| f.name.clone())
                .collect::<Vec<_>>(),
            ["near_miss_pyramid", "decoy_mask"]
        );
        let f = m
            .synthesize_showing(
                &way("lose", &[]),
                Some("decoy_mask"),
                &mut FaceRng::seed_from_u64(1),
            )
            .unwrap();
        assert!(m.shows(&m.evaluate(&f), "decoy_mask"));
        let e = build_from(
            "j4",
            &text.replace("\"decoy_mask\"", "\"near_miss_pyramid\""),
        )
        .err()
        .unwrap();
        assert_eq!(e.field, "games");
        let e = build_from("j4", &text.replace("\"decoy_mask\"", "\"Decoy\""))
            .err()
            .unwrap();
        assert_eq!(e.field, "decoy_feature");
    }

    /// Two play areas of different matches and prizes under one multiplier: every win on a
    /// face is multiplied alike, and a near miss the smaller match would read as a win is
    /// refused.
    #[test]
    fn areas_of_different_matches_share_the_cells_and_the_multiplier() {
        let text = r#"
cells = 10
symbols = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]
multiplier = { X3 = 3 }
[[games]]
id = "a"
match = 2
winning = ["A"]
box = "ga"
amounts = [2, 4]
near_miss = 0.5
[[games]]
id = "b"
match = 3
legend = { B = 10, C = 20 }
"#;
        let m = build_from("s", text).unwrap();
        type Case<'a> = (&'a str, &'a [(Option<u8>, u64)], bool);
        let cases: [Case; 7] = [
            ("lose", &[], true),
            ("6", &[(None, 6)], true),
            ("30", &[(None, 30)], true),
            ("20+4", &[(None, 20), (None, 4)], true),
            ("60+12", &[(None, 60), (None, 12)], true),
            ("2+30", &[(None, 2), (None, 30)], false),
            ("a:20", &[(Some(0), 20)], false),
        ];
        for (id, wins, ok) in cases {
            let w = way(id, wins);
            assert_eq!(m.check_way(&w).is_ok(), ok, "{id}: {:?}", m.check_way(&w));
            if !ok {
                continue;
            }
            round_trip(&m, &w, 0..200);
        }
        // Three B beside a pair of A: both win; a pair of B reads as a win and is flagged.
        let ev = m.evaluate(&face(
            &m,
            &["A", "B", "A", "B", "B", "D", "E", "F", "G", "H"],
            &[4],
        ));
        assert_eq!(wins(&ev), vec![(0, 4), (1, 10)]);
        assert!(ev.ambiguities.is_empty());
        let ev = m.evaluate(&face(
            &m,
            &["A", "B", "A", "B", "C", "D", "E", "F", "G", "H"],
            &[4],
        ));
        assert_eq!(ev.ambiguities, vec![AMB_IDLE_REPEAT]);
        let e = build_from(
            "s",
            &text.replace("legend = {", "near_miss = 0.2\nlegend = {"),
        )
        .err()
        .unwrap();
        assert_eq!(e.field, "games[1].near_miss");
    }

    /// The coq spec over this style: the columns GAMES.md fixes, and its policy (three COQ,
    /// two different repeated vœux, a vœu three times, a repeated other sign: never).
    #[test]
    fn the_coq_spec_keeps_its_columns_and_its_policy() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("game_specs/coq.toml");
        let s = crate::spec::GameSpec::load(&path).unwrap();
        let m = &s.game;
        let names: Vec<&str> = m.layout().columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names.join(" "),
            "s1 s2 s3 s4 s5 s6 s7 s8 gain1 gain1_caption gain2 gain2_caption"
        );
        assert_eq!(m.layout().areas, ["jeu1", "jeu2"]);
        let face = |cells: [&str; 8]| {
            let cols = &m.layout().columns;
            let mut f = Face::default();
            for (i, c) in cells.iter().enumerate() {
                f.codes[i] = cols[i].values.iter().position(|v| v == c).unwrap() as u8;
            }
            // GAIN 1 shows 10, GAIN 2 shows 20, each with its caption.
            for (col, v) in [(8, "10"), (10, "20")] {
                f.codes[col] = cols[col].values.iter().position(|x| x == v).unwrap() as u8;
                let cap = s.caption(v.parse().unwrap()).unwrap();
                f.codes[col + 1] =
                    cols[col + 1].values.iter().position(|x| x == cap).unwrap() as u8;
            }
            m.evaluate(&f)
        };
        let ev = face([
            "SANTE", "COQ", "COQ", "TIGRE", "SANTE", "DRAGON", "RAT", "SINGE",
        ]);
        assert_eq!(wins(&ev), vec![(0, 10), (1, 20)]);
        assert!(ev.ambiguities.is_empty());
        let thrice = [
            "PAIX", "PAIX", "PAIX", "TIGRE", "LAPIN", "DRAGON", "RAT", "SINGE",
        ];
        for (cells, amb) in COQ_POLICY.into_iter().chain([(thrice, AMB_OVER)]) {
            assert_eq!(face(cells).ambiguities, vec![amb], "{cells:?}");
        }
        let features: Vec<&str> = m
            .features()
            .into_iter()
            .map(|f| f.1.name.as_str())
            .collect();
        assert_eq!(features, ["near_miss_jeu1", "near_miss_jeu2"]);
    }

    /// Two play areas, one with a box and one with a legend, an X2 and a gold bar that wins
    /// the box: play areas a, b and s_lingot.
    const AUTO: &str = r#"
cells = 9
symbols = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]
multiplier = { X2 = 2 }
specials = [{ symbol = "LINGOT", kind = "auto_win", caption = "GAGNE" }]
[[games]]
id = "a"
match = 3
winning = ["A", "B"]
box = "ga"
amounts = [2, 4, 10, 20]
near_miss = 0.5
[[games]]
id = "b"
match = 3
legend = { C = 20, D = 100 }
"#;

    /// Coq's cells with a bank that wins both boxes: play areas jeu1, jeu2, cells_banque.
    fn banque() -> Arc<MatchSymbols> {
        build_from(
            "cells",
            &COQ.replace(
                "cell_prefix = \"s\"",
                "cell_prefix = \"s\"\nspecials = [{ symbol = \"BANQUE\", kind = \"win_all\", caption = \"GAGNE TOUT\" }]",
            ),
        )
        .unwrap()
    }

    #[test]
    fn special_symbols_have_their_areas_codes_and_captions() {
        let m = build_from("s", AUTO).unwrap();
        assert_eq!(m.layout.areas, ["a", "b", "s_lingot"]);
        let cell = &m.layout.columns[0];
        assert_eq!(&cell.values[11..], ["L", "X2", "LINGOT"]);
        assert_eq!(cell.inscriptions.len(), 14);
        assert_eq!(&cell.inscriptions[12..], ["", "GAGNE"]);
        // The boxes show no special symbol.
        assert_eq!(m.layout.columns[9].values, ["2", "4", "10", "20"]);
        let d = m.describe();
        assert_eq!(
            &d[d.len() - 3..d.len() - 1],
            [
                "A cell showing LINGOT wins the amount in the box ga of « a », whatever the other \
                 cells show (play area « s_lingot »); « a » then does not also win by its match: \
                 the box is paid once.",
                "Only a face winning by it shows LINGOT, in one cell; a special symbol never \
                 counts towards a match, and no multiplier shows beside its win."
            ]
        );
        let d = banque().describe();
        assert_eq!(
            d[d.len() - 3],
            "A cell showing BANQUE wins every amount in the boxes gain1, gain2, added up, once \
             (play area « cells_banque »); nothing else on the surface wins beside it, and no \
             near miss shows there."
        );
        // Without specials: the symbols alone, no inscription.
        assert_eq!(coq().layout.columns[0].values.len(), 16);
        assert!(coq().layout.columns[0].inscriptions.is_empty());
    }

    #[test]
    fn an_auto_win_wins_its_box_once_and_never_counts_towards_a_match() {
        let m = build_from("s", AUTO).unwrap();
        let cells = ["LINGOT", "A", "A", "C", "C", "C", "E", "F", "G"];
        let f = face(&m, &cells, &[10]);
        let ev = m.evaluate(&f);
        // The box by the gold bar, the legend by three C; two A are a near miss of « a ».
        assert_eq!(wins(&ev), vec![(1, 20), (2, 10)]);
        assert!(ev.ambiguities.is_empty());
        assert_eq!(m.named(&ev.losing_features), vec![(0, "near_miss_a")]);
        let mut marks: Vec<(u8, usize, MarkKind)> = m
            .marks(&f, &ev)
            .into_iter()
            .map(|k| (k.area, k.column, k.kind))
            .collect();
        marks.sort_unstable();
        use MarkKind::{NearMiss, Win};
        assert_eq!(
            marks,
            [
                (0, 1, NearMiss),
                (0, 2, NearMiss),
                (1, 3, Win),
                (1, 4, Win),
                (1, 5, Win),
                (2, 0, Win),
                (2, 9, Win)
            ]
        );
        // Beside three A the box would be paid twice; two gold bars, or one beside an X2.
        let ev = m.evaluate(&face(
            &m,
            &["LINGOT", "A", "A", "A", "D", "E", "F", "G", "H"],
            &[4],
        ));
        assert_eq!(wins(&ev), vec![(0, 4), (2, 4)]);
        assert_eq!(ev.ambiguities, vec![AMB_AUTO_WIN_BESIDE]);
        let ev = m.evaluate(&face(
            &m,
            &["LINGOT", "LINGOT", "A", "D", "E", "F", "G", "H", "I"],
            &[4],
        ));
        assert_eq!(wins(&ev), vec![(2, 4), (2, 4)]);
        assert_eq!(ev.ambiguities, vec![AMB_SPECIAL_TWICE]);
        let ev = m.evaluate(&face(
            &m,
            &["LINGOT", "X2", "A", "D", "E", "F", "G", "H", "I"],
            &[4],
        ));
        assert_eq!(wins(&ev), vec![(2, 4)]);
        assert_eq!(ev.ambiguities, vec![AMB_MULTIPLIER_ELSEWHERE]);
    }

    #[test]
    fn a_win_all_wins_every_box_once_and_alone() {
        let m = banque();
        let cells = [
            "BANQUE", "RAT", "TIGRE", "LAPIN", "DRAGON", "CHIEN", "SINGE", "CHEVAL",
        ];
        let f = face(&m, &cells, &[10, 20]);
        let ev = m.evaluate(&f);
        assert_eq!(wins(&ev), vec![(2, 30)]);
        assert!(ev.ambiguities.is_empty());
        let marks: Vec<(u8, usize)> = m
            .marks(&f, &ev)
            .into_iter()
            .map(|k| (k.area, k.column))
            .collect();
        assert_eq!(marks, [(2, 0), (2, 8), (2, 10)]);
        // Beside a match it still wins once, and the face is ambiguous.
        let ev = m.evaluate(&face(
            &m,
            &[
                "BANQUE", "COQ", "COQ", "LAPIN", "DRAGON", "CHIEN", "SINGE", "CHEVAL",
            ],
            &[10, 20],
        ));
        assert_eq!(wins(&ev), vec![(2, 30)]);
        assert_eq!(ev.ambiguities, vec![AMB_WIN_ALL_BESIDE]);
        // Beside a near miss it reports none.
        let ev = m.evaluate(&face(
            &m,
            &[
                "BANQUE", "COQ", "SANTE", "LAPIN", "DRAGON", "CHIEN", "SINGE", "CHEVAL",
            ],
            &[2, 2],
        ));
        assert_eq!(wins(&ev), vec![(2, 4)]);
        assert!(ev.losing_features.is_empty());
        assert!(ev.ambiguities.is_empty());
    }

    #[test]
    fn ways_through_special_symbols_round_trip() {
        let m = build_from("s", AUTO).unwrap();
        let lingot = m.specials.list()[0].code;
        for w in [
            way("l10", &[(Some(2), 10)]),
            way("l2+20", &[(Some(2), 2), (None, 20)]),
            way("l20+b100", &[(Some(2), 20), (Some(1), 100)]),
            way("40", &[(None, 40)]),
            way("lose", &[]),
        ] {
            m.check_way(&w).unwrap_or_else(|e| panic!("{}: {e}", w.id));
            let by = w.wins.iter().any(|x| x.area == Some(2));
            for (_, f, _) in round_trip(&m, &w, 0..300) {
                let shown = f.codes[..9].iter().filter(|&&c| c == lingot).count();
                assert_eq!(shown, usize::from(by), "{}", w.id);
            }
            features_as_asked(&m, &w, 0..30);
        }
        let m = banque();
        let code = m.specials.list()[0].code;
        for w in [
            way("b1000", &[(Some(2), 1000)]),
            way("b30", &[(Some(2), 30)]),
            way("b12", &[(Some(2), 12)]),
            way("10+20", &[(None, 10), (None, 20)]),
        ] {
            m.check_way(&w).unwrap_or_else(|e| panic!("{}: {e}", w.id));
            let by = w.wins[0].area == Some(2);
            for (_, f, ev) in round_trip(&m, &w, 0..300) {
                let shown = f.codes[..8].iter().filter(|&&c| c == code).count();
                assert_eq!(shown, usize::from(by), "{}", w.id);
                if by {
                    assert!(ev.losing_features.is_empty());
                }
            }
            features_as_asked(&m, &w, 0..30);
        }
        assert_eq!(
            m.can_show_why(&way("b30", &[(Some(2), 30)]), "near_miss_jeu1"),
            Err(Refusal::NeedsLosing {
                feature: "near_miss_jeu1".into(),
                needs: "« jeu1 » to lose, with no win-all symbol".into(),
                way: "b30".into()
            })
        );
    }

    #[test]
    fn ways_special_symbols_cannot_carry_are_refused() {
        let m = build_from("s", AUTO).unwrap();
        let refused = |wins: &[(Option<u8>, u64)]| m.check_way(&way("w", wins)).unwrap_err();
        assert_eq!(
            refused(&[(Some(2), 3)]).to_string(),
            "« s_lingot » cannot win 3: its box ga shows 2, 4, 10, 20"
        );
        assert_eq!(
            refused(&[(Some(2), 10), (Some(0), 4)]).to_string(),
            "« a » cannot win 4: on this way the auto-win symbol wins its box"
        );
        assert_eq!(
            refused(&[(Some(2), 10), (Some(2), 4)]).to_string(),
            "2 wins, but « s_lingot » shows at most 1 at once (a special symbol shows once on a \
             face)"
        );
        assert_eq!(
            refused(&[(Some(2), 10), (None, 4), (None, 20)]).to_string(),
            "3 wins, but « s » shows at most 2 at once (each play area wins at most once, and \
             the auto-win's box by it alone)"
        );
        assert_eq!(refused(&[(Some(3), 10)]), Refusal::NoSuchArea { area: 3 });
        // A special no way wins by never shows: refused once every way is planned.
        let plans: Vec<Plan> = [way("4", &[(None, 4)]), way("lose", &[])]
            .iter()
            .map(|w| Arc::clone(&m).plan(w).unwrap())
            .collect();
        let e = m.check_ways(&plans.iter().collect::<Vec<_>>()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "specials (\"LINGOT\") never applies: no way wins in its play area « s_lingot » \
             (`areas`), so no face shows it"
        );
        let by = Arc::clone(&m).plan(&way("l4", &[(Some(2), 4)])).unwrap();
        let refs: Vec<&Plan> = plans.iter().chain([&by]).collect();
        assert_eq!(m.check_ways(&refs), Ok(()));
        let m = banque();
        let refused = |wins: &[(Option<u8>, u64)]| m.check_way(&way("w", wins)).unwrap_err();
        assert_eq!(
            refused(&[(Some(2), 3)]).to_string(),
            "« cells_banque » cannot win 3: no amounts of its 2 boxes (2, 4, 8, 10, 20, 100, \
             500, 20000) add up to it"
        );
        assert_eq!(
            refused(&[(Some(2), 30), (None, 2)]).to_string(),
            "2 wins, but « cells_banque » shows at most 1 at once (a win-all symbol wins every \
             box of the surface, alone)"
        );
    }

    #[test]
    fn special_symbols_that_cannot_work_are_refused_naming_the_field() {
        let refused = |id: &str, text: &str| {
            let e = build_from(id, text).err().unwrap();
            assert_eq!(e.field, "specials");
            e.message
        };
        let with = |text: &str, specials: &str| {
            text.replacen(
                "[[games]]",
                &format!("specials = [{specials}]\n[[games]]"),
                1,
            )
        };
        assert_eq!(
            refused(
                "s",
                &AUTO.replace("kind = \"auto_win\"", "kind = \"multiplier\", times = 5")
            ),
            "\"LINGOT\" is a spot multiplier, which multiplies the amount under it, and a cell \
             shows none: a symbol that multiplies the surface's wins is a `multiplier` \
             (LINGOT = 5)"
        );
        assert_eq!(
            refused(
                "j4",
                &with(PYRAMID, "{ symbol = \"SAC\", kind = \"auto_win\" }")
            ),
            "\"SAC\" is an auto-win symbol, which wins the amount in a box, and no play area \
             has a `box` (games[0] pays by its `legend`): a symbol that wins an amount of its \
             own is a `legend` symbol"
        );
        assert_eq!(
            refused(
                "cells",
                &with(COQ, "{ symbol = \"SAC\", kind = \"auto_win\" }")
            ),
            "\"SAC\" is an auto-win symbol, which wins the amount in a box, and 2 play areas \
             have one (jeu1, jeu2): an auto-win needs a surface with one box"
        );
        assert_eq!(
            refused(
                "s",
                &AUTO.replace(
                    "caption = \"GAGNE\" }",
                    "caption = \"GAGNE\" }, { symbol = \"SAC\", kind = \"auto_win\" }"
                )
            ),
            "\"SAC\": at most one auto-win symbol, which wins the surface's one box"
        );
        assert_eq!(
            refused(
                "s",
                &AUTO.replace("kind = \"auto_win\"", "kind = \"win_all\"")
            ),
            "\"LINGOT\" is a win-all symbol, which wins every amount the surface's boxes show, \
             and games[1] pays by its `legend`, which no box shows: give every play area a \
             `box`"
        );
        assert_eq!(
            refused("s", &AUTO.replace("symbol = \"LINGOT\"", "symbol = \"X2\"")),
            "\"X2\" is also one of `symbols` or `multiplier`: a special symbol is none of them"
        );
    }

    #[test]
    fn synthesis_is_deterministic() {
        let m = coq();
        let w = way("10+20", &[(None, 10), (None, 20)]);
        let f = drawn_twice(&m, &w, 7);
        // The value-stability vector (changes only with the style's draws).
        assert_eq!(f.codes[..12], VECTOR);
    }

    const VECTOR: [u8; 12] = [11, 12, 1, 9, 12, 10, 9, 13, 3, 5, 4, 6];
}
