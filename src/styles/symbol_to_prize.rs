//! The *symbol to prize* play style (`style = "symbol_to_prize"`; the industry's "symbol to
//! prize", "find the symbol, win the prize").
//!
//! **Rule.** The surface shows `cells` symbol cells and prints a **legend**: symbol →
//! amount. Each cell showing a legend symbol wins its legend amount; the wins add up, one win
//! of the play area per winning cell, at most `max_wins` on a face. Cells that do not win show
//! **decoys** (symbols outside the legend).
//!
//! - **Multipliers** (`multiplier = { X2 = 2 }`, cells only): a multiplier symbol in any cell
//!   multiplies every win of the surface by its factor (so a way's wins there are legend
//!   amounts times one factor). A multiplier on a surface that wins nothing multiplies
//!   nothing: it is a decoy (feature `decoy_multiplier`).
//! - **Halves** (`halves = true`, pharaon's colossi): each cell is a pedestal hiding a left
//!   half and a right half of symbols. A pedestal whose two halves are of one symbol
//!   rebuilds it and wins its legend amount if it is a legend symbol; rebuilding any other
//!   symbol loses (feature `decoy_rebuilt`); a pedestal showing one half of a legend symbol
//!   beside a half of another symbol is a near miss (feature `near_miss_half`). A losing
//!   pedestal is a near miss at the `near_miss` rate, a rebuilt decoy at the `decoy_rebuilt`
//!   rate, and shows halves of two different decoys otherwise.
//!
//! **Naive reading.** A player finds each legend symbol shown (rebuilt, with halves) and wins
//! its legend amount, multiplied when a multiplier symbol is shown. That differs from the
//! rule when more cells win than `max_wins` allows (which of them pay?), or when two
//! multipliers show (do they multiply each other?). Policy: **never more winning cells than
//! `max_wins`, never two multipliers** ([`AMB_TOO_MANY_WINS`], [`AMB_TWO_MULTIPLIERS`]).
//! A player who knows *match symbols* games may also read a symbol repeated in the cells as a
//! win: **a decoy never shows in two cells** ([`AMB_DECOY_TWICE`]), so `decoys` must have at
//! least as many symbols as there are cells (a legend symbol may repeat: each cell wins).
//! Pharaon's colossi set `max_wins = 1`: both pedestals winning never happens.
//!
//! **Win-all symbol** (`specials = [{ symbol = "TOUT", kind = "win_all" }]`, cells only; see
//! `styles::special`): a cell showing it wins every amount of the legend, added up, once
//! (the legend prints it beside the symbols with that sum), in a play area of its own
//! (default `{area}_{symbol}` in lower case) that ways name in `areas`. Naive reading: a
//! player who sees it takes every legend prize; beside a legend symbol (counted once, or
//! again?) or a multiplier (does it multiply the lot?) the readings part, so **a win-all
//! shows alone, once, and only on a face winning by it** ([`AMB_WIN_ALL_BESIDE`]). The other
//! kinds of special symbol win the amount under them, and a cell shows none: refused, with
//! the field to use instead (`legend`, `multiplier`).
//!
//! **Columns** (surface id `{id}`): `{id}_1..n`, one symbol per cell; with halves
//! `{id}_p1_left {id}_p1_right … {id}_pn_left {id}_pn_right` (each the symbol whose left,
//! resp. right, half the pedestal shows). One play area, `area` (default the surface id);
//! its panel has the same name.

use super::common;
use super::special::{self, RawSpecial, SpecialKind, Specials};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Layout, Mark, MarkKind, Panel, Plan, Refusal, Style, MAX_WINS,
};
use crate::crypto::rng::{below, chance, shuffle};
use crate::language::Phrase;
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Ambiguity: more cells win than `max_wins` allows.
pub const AMB_TOO_MANY_WINS: &str = "more winning cells than the surface allows (symbol to prize)";
/// Ambiguity: the same decoy in two cells (a player may read a repeated symbol as a match).
pub const AMB_DECOY_TWICE: &str = "the same decoy in two cells (symbol to prize)";
/// Ambiguity: two multiplier symbols on one surface.
pub const AMB_TWO_MULTIPLIERS: &str = "two multiplier symbols on one surface (symbol to prize)";
/// Ambiguity: a win-all symbol beside a legend symbol, a multiplier or another win-all.
pub const AMB_WIN_ALL_BESIDE: &str =
    "a win-all symbol beside another win or a multiplier (symbol to prize)";
/// Feature: a pedestal shows one half of a legend symbol beside a half of another symbol.
pub const NEAR_MISS_HALF: &str = "near_miss_half";
/// Feature: a pedestal rebuilds a symbol outside the legend, which loses.
pub const DECOY_REBUILT: &str = "decoy_rebuilt";
/// Feature: a multiplier on a surface that wins nothing.
pub const DECOY_MULTIPLIER: &str = "decoy_multiplier";

/// The style's feature table, in id order: [`NEAR_MISS_HALF`], [`DECOY_REBUILT`],
/// [`DECOY_MULTIPLIER`].
const FEATURES: [(&str, FeatureKind, &str, &str); 3] = [
    (
        NEAR_MISS_HALF,
        FeatureKind::NearMiss,
        "a losing pedestal shows one half of a legend symbol (symbol to prize)",
        "un socle perdant montre une moitié d'un symbole de la légende",
    ),
    (
        DECOY_REBUILT,
        FeatureKind::Decoy,
        "a pedestal rebuilds a symbol outside the legend, which loses (symbol to prize)",
        "un socle reconstitue un symbole hors de la légende, qui perd",
    ),
    (
        DECOY_MULTIPLIER,
        FeatureKind::Decoy,
        "a multiplier on a surface that wins nothing (symbol to prize)",
        "un multiplicateur sur une surface qui ne gagne rien",
    ),
];
/// [`NEAR_MISS_HALF`] in the layout's feature table.
const NEAR_MISS_HALF_ID: FeatureId = FeatureId(0);
/// [`DECOY_REBUILT`] in the layout's feature table.
const DECOY_REBUILT_ID: FeatureId = FeatureId(1);
/// [`DECOY_MULTIPLIER`] in the layout's feature table.
const DECOY_MULTIPLIER_ID: FeatureId = FeatureId(2);

/// Most cells (or pedestals) on one surface.
pub const MAX_SPOTS: usize = MAX_WINS;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSymbolToPrize {
    cells: usize,
    legend: BTreeMap<String, Money>,
    decoys: Vec<String>,
    #[serde(default)]
    halves: bool,
    #[serde(default)]
    max_wins: Option<usize>,
    #[serde(default)]
    multiplier: BTreeMap<String, u32>,
    #[serde(default)]
    area: Option<String>,
    #[serde(default)]
    near_miss: f64,
    #[serde(default)]
    decoy_rebuilt: f64,
    #[serde(default)]
    decoy_multiplier: f64,
    #[serde(default)]
    specials: Vec<RawSpecial>,
}

/// A `symbol_to_prize` surface.
pub struct SymbolToPrize {
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    /// Legend symbols (codes `0..legend.len()`), by amount then name.
    legend: Vec<(String, Money)>,
    /// Decoy symbols: codes `legend.len()..legend.len() + n_decoys`.
    n_decoys: usize,
    /// Multiplier symbols and their factors: the codes after the decoys.
    multipliers: Vec<(String, u32)>,
    cells: usize,
    halves: bool,
    max_wins: usize,
    near_miss: u32,
    decoy_rebuilt: u32,
    decoy_multiplier: u32,
    /// The win-all symbol, if any (special `j` wins in play area `1 + j`; the codes after
    /// the multipliers).
    specials: Specials,
    /// What the win-all symbol wins: every legend amount, added up.
    all_amount: Money,
    lines: Vec<String>,
}

impl SymbolToPrize {
    fn build(table: toml::Table, ctx: &StyleCtx) -> Result<SymbolToPrize, FieldError> {
        let raw: RawSymbolToPrize = style::parse(table)?;
        if raw.cells == 0 || raw.cells > MAX_SPOTS {
            return Err(FieldError::new(
                "cells",
                format!("expected 1 to {MAX_SPOTS} cells, got {}", raw.cells),
            ));
        }
        if raw.legend.is_empty() {
            return Err(FieldError::new(
                "legend",
                "expected at least one symbol with its amount",
            ));
        }
        let mut legend: Vec<(String, Money)> = raw.legend.into_iter().collect();
        let names: Vec<String> = legend.iter().map(|(s, _)| s.clone()).collect();
        style::symbols(&names, 1, "legend")?;
        if let Some((s, _)) = legend.iter().find(|(_, m)| m.is_zero()) {
            return Err(FieldError::new(
                format!("legend.{s}"),
                "expected an amount above 0",
            ));
        }
        legend.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        let decoys = style::symbols(&raw.decoys, if raw.halves { 2 } else { 1 }, "decoys")?;
        if let Some(d) = decoys.iter().find(|d| names.contains(d)) {
            return Err(FieldError::new(
                "decoys",
                format!("\"{d}\" is in the legend; a decoy is a symbol outside it"),
            ));
        }
        if !raw.halves && decoys.len() < raw.cells {
            return Err(FieldError::new(
                "decoys",
                format!(
                    "a losing face shows {} different decoys: expected at least {} decoys, got {}",
                    raw.cells,
                    raw.cells,
                    decoys.len()
                ),
            ));
        }
        let mut multipliers: Vec<(String, u32)> = raw.multiplier.into_iter().collect();
        if raw.halves && !multipliers.is_empty() {
            return Err(FieldError::new(
                "multiplier",
                "multipliers are shown in cells, not on pedestals of halves",
            ));
        }
        for (s, k) in &multipliers {
            if *k < 2 || *k > 1000 {
                return Err(FieldError::new(
                    format!("multiplier.{s}"),
                    format!("expected a factor of 2 to 1000, got {k}"),
                ));
            }
            if names.contains(s) || decoys.contains(s) {
                return Err(FieldError::new(
                    format!("multiplier.{s}"),
                    format!("\"{s}\" is already a legend symbol or a decoy"),
                ));
            }
        }
        let mnames: Vec<String> = multipliers.iter().map(|(s, _)| s.clone()).collect();
        style::symbols(&mnames, 0, "multiplier")?;
        multipliers.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        if !multipliers.is_empty() && raw.cells < 2 {
            return Err(FieldError::new(
                "multiplier",
                "a multiplier takes a cell of its own: expected at least 2 cells",
            ));
        }
        let max_wins = raw.max_wins.unwrap_or(raw.cells);
        if max_wins == 0 || max_wins > raw.cells {
            return Err(FieldError::new(
                "max_wins",
                format!("expected 1 to {} (the cells), got {max_wins}", raw.cells),
            ));
        }
        let share = |x: f64, f: &str| common::share(x).map_err(|e| FieldError::new(f, e));
        let near_miss = share(raw.near_miss, "near_miss")?;
        let decoy_rebuilt = share(raw.decoy_rebuilt, "decoy_rebuilt")?;
        let decoy_multiplier = share(raw.decoy_multiplier, "decoy_multiplier")?;
        if !raw.halves && (near_miss > 0 || decoy_rebuilt > 0) {
            let f = if near_miss > 0 {
                "near_miss"
            } else {
                "decoy_rebuilt"
            };
            return Err(FieldError::new(
                f,
                "near misses and rebuilt decoys are shown on pedestals of halves \
                 (`halves = true`)",
            ));
        }
        if near_miss + decoy_rebuilt > 1_000_000 {
            return Err(FieldError::new(
                "decoy_rebuilt",
                "near_miss + decoy_rebuilt is above 1",
            ));
        }
        if decoy_multiplier > 0 && multipliers.is_empty() {
            return Err(FieldError::new(
                "decoy_multiplier",
                "no `multiplier` symbol to show",
            ));
        }
        let mut values: Vec<String> = names_in(&legend);
        values.extend(decoys.iter().cloned());
        values.extend(multipliers.iter().map(|(s, _)| s.clone()));
        if values.len() > common::MAX_SYMBOLS {
            return Err(FieldError::new(
                "decoys",
                format!("at most {} symbols in all", common::MAX_SYMBOLS),
            ));
        }
        let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
        if area.is_empty() || !area.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(FieldError::new(
                "area",
                format!("\"{area}\" is not a play area name: expected ASCII letters, digits or _"),
            ));
        }
        let amounts: Vec<Money> = legend.iter().map(|l| l.1).collect();
        let special::Parsed {
            specials,
            areas,
            inscriptions,
        } = Specials::parse(
            &raw.specials,
            &values,
            "`legend`, `decoys` or `multiplier`",
            std::slice::from_ref(&area),
            &area,
            &amounts,
            ctx,
        )?;
        Self::only_win_all(&specials, raw.halves)?;
        values.extend(specials.list().iter().map(|s| s.symbol.clone()));
        let all_amount = Money(amounts.iter().map(|m| m.cents()).sum());
        let id = ctx.id;
        let col = |name: String| Column {
            name,
            kind: ColumnKind::Symbol,
            values: values.clone(),
            inscriptions: inscriptions.clone(),
        };
        let columns: Vec<Column> = if raw.halves {
            (1..=raw.cells)
                .flat_map(|i| [format!("{id}_p{i}_left"), format!("{id}_p{i}_right")])
                .map(col)
                .collect()
        } else {
            (1..=raw.cells).map(|i| col(format!("{id}_{i}"))).collect()
        };
        let mut layout = Layout::new(INFO.name, areas, columns);
        layout.specials = specials.named(&layout.areas);
        for (name, kind, about, about_fr) in FEATURES {
            layout.features.add(name, kind, about, about_fr);
        }
        let mut m = SymbolToPrize {
            layout,
            legend,
            n_decoys: decoys.len(),
            multipliers,
            cells: raw.cells,
            halves: raw.halves,
            max_wins,
            near_miss,
            decoy_rebuilt,
            decoy_multiplier,
            specials,
            all_amount,
            lines: Vec::new(),
        };
        m.lines = m.description(ctx);
        Ok(m.with_layout())
    }

    /// Refuses (field `specials`) a special symbol on pedestals of halves, and every kind
    /// but the win-all: an auto-win or spot multiplier wins the amount under its cell, and
    /// a cell here shows none.
    fn only_win_all(specials: &Specials, halves: bool) -> Result<(), FieldError> {
        let err = |m: String| Err(FieldError::new("specials", m));
        for sp in specials.list() {
            match sp.kind {
                _ if halves => {
                    return err(format!(
                        "\"{}\": special symbols are shown in cells, not on pedestals of halves",
                        sp.symbol
                    ))
                }
                SpecialKind::WinAll => {}
                SpecialKind::AutoWin => {
                    return err(format!(
                        "\"{}\" is an auto-win symbol, which wins the amount under it, but a \
                         cell shows no amount: a symbol that wins an amount of its own is a \
                         `legend` symbol",
                        sp.symbol
                    ))
                }
                SpecialKind::Multiplier(_) => {
                    return err(format!(
                        "\"{}\" is a spot multiplier, which multiplies the amount under it, \
                         but a cell shows no amount: a symbol that multiplies the surface's \
                         wins is a `multiplier`",
                        sp.symbol
                    ))
                }
            }
        }
        Ok(())
    }

    /// The win-all symbol's code when `way` wins by it (its one win in the win-all's play
    /// area).
    fn win_all_code(&self, way: &Way) -> Option<u8> {
        let a = way.wins.first()?.area.filter(|&a| a != 0)?;
        self.specials
            .list()
            .get(usize::from(a) - 1)
            .map(|sp| sp.code)
    }

    fn n_legend(&self) -> usize {
        self.legend.len()
    }

    fn is_legend(&self, code: u8) -> bool {
        usize::from(code) < self.n_legend()
    }

    /// The factor of `code` if it is a multiplier symbol.
    fn factor(&self, code: u8) -> Option<u32> {
        let first = self.n_legend() + self.n_decoys;
        usize::from(code)
            .checked_sub(first)
            .and_then(|i| self.multipliers.get(i))
            .map(|m| m.1)
    }

    /// The factors (1 for none, else a multiplier's, each factor once, in that order) by
    /// which `way` can be carried: every win a legend amount times it, and a cell left for
    /// the multiplier. No allocation: faces call it.
    fn factors<'a>(&'a self, way: &'a Way) -> impl Iterator<Item = u32> + 'a {
        (0..=self.multipliers.len())
            .filter_map(move |i| {
                if i == 0 {
                    return Some(1);
                }
                let k = self.multipliers[i - 1].1;
                let first = !self.multipliers[..i - 1].iter().any(|m| m.1 == k);
                (first && !way.wins.is_empty() && way.wins.len() < self.cells).then_some(k)
            })
            .filter(move |&k| {
                way.wins
                    .iter()
                    .all(|w| self.candidates(w.amount, k).next().is_some())
            })
    }

    /// The legend codes whose amount times `k` is `amount`.
    fn candidates(&self, amount: Money, k: u32) -> impl Iterator<Item = u8> + '_ {
        (0..self.n_legend())
            .filter(move |&s| self.legend[s].1.cents() * u64::from(k) == amount.cents())
            .map(|s| s as u8)
    }

    /// The multiplier symbol code of factor `k` (the first of that factor).
    fn multiplier_code(&self, k: u32) -> Option<u8> {
        self.multipliers
            .iter()
            .position(|m| m.1 == k)
            .map(|i| (self.n_legend() + self.n_decoys + i) as u8)
    }

    fn share(&self, id: FeatureId) -> Option<u32> {
        match id {
            NEAR_MISS_HALF_ID if self.halves => Some(self.near_miss),
            DECOY_REBUILT_ID if self.halves => Some(self.decoy_rebuilt),
            DECOY_MULTIPLIER_ID if !self.halves => Some(self.decoy_multiplier),
            _ => None,
        }
    }

    /// A losing pedestal (left, right): of the kind `forced` names, else drawn at the rates.
    fn losing_pedestal(&self, forced: Option<FeatureId>, rng: &mut FaceRng) -> (u8, u8) {
        let n_win = self.n_legend() as u32;
        let n_dec = self.n_decoys as u32;
        let u = match forced {
            Some(NEAR_MISS_HALF_ID) => 0,
            Some(DECOY_REBUILT_ID) => self.near_miss,
            _ => below(rng, 1_000_000),
        };
        if u < self.near_miss {
            // One half of a legend symbol beside a half of any other symbol.
            let w = below(rng, n_win);
            let mut x = below(rng, n_win + n_dec - 1);
            if x >= w {
                x += 1;
            }
            if below(rng, 2) == 0 {
                (w as u8, x as u8)
            } else {
                (x as u8, w as u8)
            }
        } else if u < self.near_miss + self.decoy_rebuilt {
            let d = (n_win + below(rng, n_dec)) as u8;
            (d, d)
        } else {
            let d = common::pick_distinct::<2>(rng, n_dec, 2);
            ((n_win + d[0]) as u8, (n_win + d[1]) as u8)
        }
    }

    fn description(&self, ctx: &StyleCtx) -> Vec<String> {
        let name = ctx.label(&self.layout.areas[0]);
        let legend: Vec<String> = self
            .legend
            .iter()
            .map(|(s, m)| format!("{s} {m}"))
            .collect();
        let decoys =
            &self.layout.columns[0].values[self.n_legend()..self.n_legend() + self.n_decoys];
        let most = if self.max_wins == self.cells {
            "these wins add up".to_string()
        } else if self.max_wins == 1 {
            "at most one of them wins on a ticket".to_string()
        } else {
            format!(
                "at most {} of them win on a ticket, and their wins add up",
                self.max_wins
            )
        };
        let mut v = Vec::new();
        if self.halves {
            v.push(format!(
                "« {name} » shows {} pedestals, each hiding a left half and a right half; a \
                 pedestal whose halves rebuild a legend symbol wins its amount ({}); rebuilding \
                 any other symbol loses; {most}.",
                self.cells,
                legend.join(", ")
            ));
        } else {
            v.push(format!(
                "« {name} » shows {} cells; each cell showing a legend symbol wins its amount \
                 ({}); {most}.",
                self.cells,
                legend.join(", ")
            ));
        }
        v.push(format!(
            "Symbols outside the legend (decoys): {}.",
            decoys.join(", ")
        ));
        if !self.multipliers.is_empty() {
            let m: Vec<String> = self
                .multipliers
                .iter()
                .map(|(s, k)| format!("{s} multiplies by {k}"))
                .collect();
            v.push(format!(
                "A multiplier symbol in any cell multiplies every win of « {name} »: {}; never \
                 two on a ticket.",
                m.join(", ")
            ));
        }
        for (j, sp) in self.specials.list().iter().enumerate() {
            v.push(format!(
                "A cell showing {} wins every amount of the legend, added up, once: {} (play \
                 area « {} »); it shows only on a face winning by it, alone: never beside a \
                 legend symbol, a multiplier or a second {}.",
                sp.symbol,
                self.all_amount,
                ctx.label(&self.layout.areas[1 + j]),
                sp.symbol
            ));
        }
        v
    }
}

fn names_in(legend: &[(String, Money)]) -> Vec<String> {
    legend.iter().map(|(s, _)| s.clone()).collect()
}

impl SymbolToPrize {
    /// Feasible: every win in this surface's area, at most `max_wins` of them, each a legend
    /// amount, or all of them legend amounts times one multiplier's factor (with a cell left
    /// for the multiplier).
    /// A win in the win-all's play area: alone, every legend amount added up.
    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        let areas = self.layout.areas.len();
        if let Some(a) = way
            .wins
            .iter()
            .find_map(|w| w.area.filter(|&a| usize::from(a) >= areas))
        {
            return Err(Refusal::NoSuchArea { area: a });
        }
        if let Some(w) = way.wins.iter().find(|w| w.area.is_some_and(|a| a != 0)) {
            let area = self.layout.areas[usize::from(w.area.unwrap_or(0))].clone();
            if way.wins.len() > 1 {
                return Err(Refusal::TooManyWins {
                    area,
                    wins: way.wins.len(),
                    most: 1,
                    why: "a win-all symbol wins every amount of the legend, alone",
                });
            }
            if w.amount != self.all_amount {
                return Err(Refusal::CannotWin {
                    area,
                    amount: w.amount,
                    can: format!(
                        "it wins every amount of the legend, added up: {}",
                        self.all_amount
                    ),
                });
            }
            return Ok(());
        }
        if way.wins.len() > self.max_wins {
            return Err(Refusal::TooManyWins {
                area: self.layout.areas[0].clone(),
                wins: way.wins.len(),
                most: self.max_wins,
                why: "max_wins",
            });
        }
        if self.factors(way).next().is_none() {
            let amounts: Vec<String> = way.wins.iter().map(|w| w.amount.to_string()).collect();
            let legend: Vec<String> = self
                .legend
                .iter()
                .map(|(s, m)| format!("{s} {m}"))
                .collect();
            return Err(Refusal::CannotWin {
                area: self.layout.areas[0].clone(),
                amount: way.amount,
                can: format!(
                    "the legend ({}) cannot pay {}{}",
                    legend.join(", "),
                    amounts.join(" + "),
                    if self.multipliers.is_empty() {
                        ""
                    } else {
                        ", even with one multiplier on the face"
                    }
                ),
            });
        }
        Ok(())
    }

    fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), Refusal> {
        let feature = self.layout.features.name(id).to_string();
        let Some(share) = self.share(id) else {
            return Err(Refusal::NoFeature {
                style: INFO.name,
                feature,
            });
        };
        if share == 0 {
            return Err(Refusal::ZeroRate {
                feature,
                area: self.layout.areas[0].clone(),
            });
        }
        let needs = if id == DECOY_MULTIPLIER_ID && !way.wins.is_empty() {
            Some(format!("« {} » to win nothing", self.layout.areas[0]))
        } else if way.wins.len() >= self.cells {
            Some(format!("a losing pedestal of « {} »", self.layout.areas[0]))
        } else {
            None
        };
        match needs {
            Some(needs) => Err(Refusal::NeedsLosing {
                feature,
                needs,
                way: way.id.clone(),
            }),
            None => Ok(()),
        }
    }

    fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        [NEAR_MISS_HALF_ID, DECOY_REBUILT_ID, DECOY_MULTIPLIER_ID]
            .into_iter()
            .filter(|&id| {
                self.share(id) == Some(1_000_000)
                    && self.can_show(way, id).is_ok()
                    && (id != DECOY_MULTIPLIER_ID || way.wins.is_empty())
            })
            .collect()
    }

    /// Winning cells (pedestals) show a legend symbol of their amount (divided by the factor
    /// of the multiplier drawn among the feasible ones, which then shows in a cell); the
    /// others show decoys drawn uniformly (with halves: a near miss, a rebuilt decoy or two
    /// decoy halves, at the rates). A losing surface shows a multiplier at the
    /// `decoy_multiplier` rate. A way won by the win-all symbol shows it in one cell and
    /// decoys in the others. Cells are shuffled; each choice is one bounded draw. Drawn
    /// into `face`, whatever it held.
    fn draw(
        &self,
        way: &Way,
        factors: &[u32],
        show: Option<FeatureId>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        // One draw among the feasible factors (found when the way was planned: at least
        // one), then one per win among its legend symbols (no draw where there is a single
        // choice).
        let k = match factors.len() {
            0 | 1 => factors[0],
            n => factors[below(rng, n as u32) as usize],
        };
        let pick = |rng: &mut FaceRng, amount: Money| {
            let n = self.candidates(amount, k).count();
            let r = if n == 1 {
                0
            } else {
                below(rng, n as u32) as usize
            };
            self.candidates(amount, k)
                .nth(r)
                .expect("checked by factors")
        };
        face.reset(self.layout.columns.len());
        if self.halves {
            let mut peds: ArrayVec<(u8, u8), MAX_SPOTS> = ArrayVec::new();
            for w in &way.wins {
                let s = pick(rng, w.amount);
                peds.push((s, s));
            }
            let mut forced = show;
            while !peds.is_full() && peds.len() < self.cells {
                peds.push(self.losing_pedestal(forced.take(), rng));
            }
            shuffle(rng, &mut peds);
            for (p, &(l, r)) in peds.iter().enumerate() {
                face.codes[2 * p] = l;
                face.codes[2 * p + 1] = r;
            }
        } else {
            let mut cells: ArrayVec<u8, MAX_SPOTS> = ArrayVec::new();
            if let Some(code) = self.win_all_code(way) {
                cells.push(code);
            } else {
                for w in &way.wins {
                    cells.push(pick(rng, w.amount));
                }
            }
            if k > 1 {
                cells.push(self.multiplier_code(k).expect("a feasible factor"));
            } else if way.wins.is_empty()
                && (show == Some(DECOY_MULTIPLIER_ID)
                    || (show.is_none() && chance(rng, self.decoy_multiplier)))
            {
                let i = below(rng, self.multipliers.len() as u32) as usize;
                cells.push((self.n_legend() + self.n_decoys + i) as u8);
            }
            let rest = self.cells - cells.len();
            for &d in &common::pick_distinct::<MAX_SPOTS>(rng, self.n_decoys as u32, rest) {
                cells.push((self.n_legend() as u32 + d) as u8);
            }
            shuffle(rng, &mut cells);
            face.codes[..self.cells].copy_from_slice(&cells);
        }
    }
}

/// The presentation of the style, computed once by its constructor.
impl SymbolToPrize {
    /// `self` with its layout completed: panels, printed lines, shown amounts and
    /// description, computed once from its settings.
    fn with_layout(mut self) -> Self {
        self.layout.shown_amounts = self.shown_amounts();
        self.layout.panels = self.panels();
        self.layout.printed = self.printed();
        self.layout.description = self.describe();
        self
    }

    /// None: the legend's amounts are printed outside the scratch layer, not on the face.
    fn shown_amounts(&self) -> Vec<Money> {
        Vec::new()
    }

    fn panels(&self) -> Vec<Panel> {
        let rows = if self.halves {
            (0..self.cells).map(|p| vec![2 * p, 2 * p + 1]).collect()
        } else {
            vec![(0..self.cells).collect()]
        };
        vec![Panel {
            id: self.layout.areas[0].clone(),
            rows,
        }]
    }

    /// One row of cells; with halves, one row per pedestal (its left and right halves).
    /// The legend the ticket prints: each symbol with its amount, then each multiplier, then
    /// the win-all symbol with every legend amount added up.
    fn printed(&self) -> Vec<super::Printed> {
        let mut entries: Vec<Phrase> = self
            .legend
            .iter()
            .map(|(s, m)| Phrase::Pays {
                symbol: s.clone(),
                amount: (*m).into(),
            })
            .collect();
        entries.extend(self.multipliers.iter().map(|(s, f)| Phrase::Multiplies {
            symbol: s.clone(),
            factor: u64::from(*f),
        }));
        entries.extend(self.specials.phrases(Some(self.all_amount)));
        vec![super::Printed {
            panel: self.layout.areas[0].clone(),
            lines: super::common::legend_lines(entries),
        }]
    }

    fn describe(&self) -> Vec<String> {
        self.lines.clone()
    }
}

impl Style for SymbolToPrize {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        self.check_way(way)?;
        let factors: Vec<u32> = if self.win_all_code(way).is_some() {
            vec![1]
        } else {
            self.factors(way).collect()
        };
        let me = Arc::clone(&self);
        let w = way.clone();
        Ok(Plan::new(
            &*self,
            way,
            |id| self.can_show(way, id),
            self.always_shows(way),
            move |show, rng, face| me.draw(&w, &factors, show, rng, face),
        ))
    }

    /// Refuses a special symbol no way wins by: no face would ever show it.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        self.specials.check_ways(plans, &self.layout.areas)
    }

    fn features(&self) -> Vec<FeatureId> {
        [NEAR_MISS_HALF_ID, DECOY_REBUILT_ID, DECOY_MULTIPLIER_ID]
            .into_iter()
            .filter(|&id| self.share(id).is_some_and(|s| s > 0))
            .collect()
    }

    /// Winning cells (rebuilt legend symbols) and the multiplier of a win are wins; a
    /// rebuilt decoy and a multiplier on a losing surface are decoys; a legend half beside
    /// another half is a near miss. A win-all symbol is the win of its play area.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let c = &face.codes;
        let mut out = Vec::new();
        let mut mark = |area: usize, column: usize, kind: MarkKind| {
            out.push(Mark {
                area: area as u8,
                column,
                kind,
            })
        };
        if self.halves {
            for p in 0..self.cells {
                let (l, r) = (2 * p, 2 * p + 1);
                if c[l] == c[r] {
                    let kind = if self.is_legend(c[l]) {
                        MarkKind::Win
                    } else {
                        MarkKind::Decoy
                    };
                    mark(0, l, kind);
                    mark(0, r, kind);
                } else {
                    for k in [l, r].into_iter().filter(|&k| self.is_legend(c[k])) {
                        mark(0, k, MarkKind::NearMiss);
                    }
                }
            }
        } else {
            let wins = !ev.wins.is_empty();
            for (i, &s) in c[..self.cells].iter().enumerate() {
                if let Some((j, _)) = self.specials.get(s) {
                    mark(1 + j, i, MarkKind::Win);
                } else if self.is_legend(s) {
                    mark(0, i, MarkKind::Win);
                } else if self.factor(s).is_some() {
                    mark(0, i, if wins { MarkKind::Win } else { MarkKind::Decoy });
                }
            }
        }
        out
    }

    /// Each cell showing a legend symbol (each pedestal rebuilding one) wins its legend
    /// amount, times the factor of the multiplier shown; a cell showing the win-all symbol
    /// wins every legend amount, added up, once, in its play area, and nothing else wins.
    /// Ambiguous: more winning cells than `max_wins`, two multipliers, a win-all beside
    /// another win, a multiplier or another win-all.
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let c = &face.codes;
        if self.halves {
            for p in 0..self.cells {
                let (l, r) = (c[2 * p], c[2 * p + 1]);
                if l == r && self.is_legend(l) {
                    let _ = ev.wins.try_push(AreaWin {
                        area: 0,
                        amount: self.legend[usize::from(l)].1,
                    });
                } else {
                    let id = if l == r {
                        DECOY_REBUILT_ID
                    } else if self.is_legend(l) || self.is_legend(r) {
                        NEAR_MISS_HALF_ID
                    } else {
                        continue;
                    };
                    let _ = ev.losing_features.try_push(AreaFeature { area: 0, id });
                }
            }
        } else {
            let factors: ArrayVec<u32, MAX_SPOTS> = c[..self.cells]
                .iter()
                .filter_map(|&s| self.factor(s))
                .collect();
            let k = factors.first().copied().unwrap_or(1);
            for &s in &c[..self.cells] {
                if self.is_legend(s) {
                    let _ = ev.wins.try_push(AreaWin {
                        area: 0,
                        amount: Money(self.legend[usize::from(s)].1.cents() * u64::from(k)),
                    });
                }
            }
            if factors.len() >= 2 {
                ev.ambiguities.push(AMB_TWO_MULTIPLIERS);
            }
            let shown = &c[..self.cells];
            if !self.specials.is_empty() {
                let mut all = shown.iter().filter_map(|&s| self.specials.get(s));
                if let Some((j, _)) = all.next() {
                    if all.next().is_some() || !ev.wins.is_empty() || !factors.is_empty() {
                        ev.ambiguities.push(AMB_WIN_ALL_BESIDE);
                    }
                    ev.wins.clear();
                    ev.wins.push(AreaWin {
                        area: 1 + j as u8,
                        amount: self.all_amount,
                    });
                }
            }
            let decoy = |s: u8| {
                !self.is_legend(s) && self.factor(s).is_none() && self.specials.get(s).is_none()
            };
            if (1..self.cells).any(|i| decoy(shown[i]) && shown[..i].contains(&shown[i])) {
                ev.ambiguities.push(AMB_DECOY_TWICE);
            }
            if ev.wins.is_empty() && !factors.is_empty() {
                ev.losing_features.push(AreaFeature {
                    area: 0,
                    id: DECOY_MULTIPLIER_ID,
                });
            }
        }
        if ev.wins.len() > self.max_wins {
            ev.ambiguities.push(AMB_TOO_MANY_WINS);
        }
    }
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(SymbolToPrize::build(table, ctx)?))
}

/// The `symbol_to_prize` entry of the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "symbol_to_prize",
    term: "symbol to prize (find the symbol, win the prize)",
    about: "Each cell showing a symbol of the printed legend wins the legend's amount for it, \
            multiplied by a multiplier symbol shown on the surface; with halves, a pedestal wins \
            when its left and right halves rebuild a legend symbol; a win-all symbol wins every \
            amount of the legend, added up.",
    naive: "A player finds each legend symbol shown (rebuilt, with halves) and wins its amount, \
            multiplied when a multiplier shows, and may read a repeated symbol as a match; no \
            face has more winning cells than `max_wins`, two multipliers or a decoy in two \
            cells. A win-all symbol takes every legend prize, once: it shows alone, never \
            beside a legend symbol or a multiplier.",
    columns: "{id}_1..n (one symbol per cell); with halves {id}_p1_left {id}_p1_right … \
              {id}_pn_left {id}_pn_right",
    params: &[
        Param {
            name: "cells",
            kind: "integer",
            default: None,
            about: "How many cells (with halves: pedestals) the surface shows, 1 to 32.",
        },
        Param {
            name: "legend",
            kind: "table symbol → amount",
            default: None,
            about: "The printed legend: what a cell showing each symbol wins.",
        },
        Param {
            name: "decoys",
            kind: "array of strings",
            default: None,
            about: "Symbols outside the legend, shown on cells that do not win, never one in two \
                    cells: at least `cells` of them (with halves, at least 2).",
        },
        Param {
            name: "halves",
            kind: "boolean",
            default: Some("false"),
            about: "Each cell is a pedestal of a left and a right half; it wins when both are of \
                    one legend symbol.",
        },
        Param {
            name: "max_wins",
            kind: "integer",
            default: Some("the cells"),
            about: "Most cells that win on one ticket.",
        },
        Param {
            name: "multiplier",
            kind: "table symbol → factor",
            default: Some("{}"),
            about: "Multiplier symbols (not with halves): one in any cell multiplies every win \
                    of the surface by its factor.",
        },
        Param {
            name: "area",
            kind: "string",
            default: Some("the surface id"),
            about: "The play area's name, as ways write it in `areas` and `[labels]` prints it.",
        },
        Param {
            name: "near_miss",
            kind: "share",
            default: Some("0"),
            about: "With halves: share of losing pedestals showing one half of a legend symbol \
                    (feature `near_miss_half`).",
        },
        Param {
            name: "decoy_rebuilt",
            kind: "share",
            default: Some("0"),
            about: "With halves: share of losing pedestals rebuilding a decoy (feature \
                    `decoy_rebuilt`).",
        },
        Param {
            name: "decoy_multiplier",
            kind: "share",
            default: Some("0"),
            about: "Share of losing surfaces showing a multiplier, which multiplies nothing \
                    (feature `decoy_multiplier`).",
        },
        Param {
            name: "specials",
            kind: "array of tables",
            default: Some("none"),
            about: "A win-all symbol (cells only): `{ symbol = \"TOUT\", kind = \"win_all\" }` \
                    wins every amount of the legend, added up, once, in a play area of its own \
                    (`area`, default `{area}_{symbol}` in lower case) that ways name in `areas`; \
                    optional `caption`, printed under it. Auto-win and spot multipliers win the \
                    amount under a cell, and a cell here shows none: refused.",
        },
    ],
    example: r#"[[surfaces]]
style = "symbol_to_prize"
id = "phare"
cells = 2
halves = true
max_wins = 1
legend = { ANCRE = 3, PHARE = 50, COURONNE = 500 }
decoys = ["BOUEE", "RAME", "VOILE", "FILET", "MOUETTE"]
near_miss = 0.35
decoy_rebuilt = 0.20
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        drawn_twice, features_as_asked, round_trip, texts, way, way_at, way_in, Ctx,
    };
    use crate::styles::testkit::{Planning, Tested};

    fn make(text: &str) -> Result<Arc<SymbolToPrize>, FieldError> {
        let table: toml::Table = toml::from_str(text).unwrap();
        SymbolToPrize::build(table, &Ctx::new("j3").label("III", "Jeu III").get()).map(Arc::new)
    }

    const HALVES: &str = r#"
        cells = 2
        area = "III"
        halves = true
        max_wins = 1
        legend = { AMPHORE = 3, VOILIER = 50, OEIL = 500, SCARABEE = 15000 }
        decoys = ["VASE", "PALMIER", "COBRA", "SPHINX", "LUNE"]
        near_miss = 0.35
        decoy_rebuilt = 0.20
    "#;

    const CELLS: &str = r#"
        cells = 6
        legend = { RUBIS = 2, SAPHIR = 5, DIAMANT = 100, PERLE = 5 }
        decoys = ["PIERRE", "COQUILLE", "SABLE", "ALGUE", "CORAIL", "GALET"]
        multiplier = { X2 = 2, X5 = 5 }
        max_wins = 3
        decoy_multiplier = 0.3
    "#;

    fn face(m: &SymbolToPrize, texts: &[&str]) -> Face {
        let mut f = Face::default();
        for (i, t) in texts.iter().enumerate() {
            f.codes[i] = m.layout.columns[i]
                .values
                .iter()
                .position(|v| v == t)
                .unwrap() as u8;
        }
        f
    }

    fn units(ev: &Evaluation) -> Vec<u64> {
        let mut v: Vec<u64> = ev.wins.iter().map(|w| w.amount.cents() / 100).collect();
        v.sort();
        v
    }

    #[test]
    fn columns_and_panels() {
        let m = make(HALVES).unwrap();
        let names: Vec<&str> = m.layout.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names.join(" "),
            "j3_p1_left j3_p1_right j3_p2_left j3_p2_right"
        );
        assert_eq!(m.panels()[0].rows, vec![vec![0, 1], vec![2, 3]]);
        let m = make(CELLS).unwrap();
        assert_eq!(m.layout.columns[5].name, "j3_6");
        assert_eq!(
            m.layout.columns[0].values.join(" "),
            "RUBIS PERLE SAPHIR DIAMANT PIERRE COQUILLE SABLE ALGUE CORAIL GALET X2 X5"
        );
    }

    #[test]
    fn a_pedestal_wins_when_it_rebuilds_a_legend_symbol() {
        let m = make(HALVES).unwrap();
        let ev = m.evaluate(&face(&m, &["SCARABEE", "SCARABEE", "VASE", "OEIL"]));
        assert_eq!(units(&ev), vec![15000]);
        assert_eq!(ev.losing_features[0].id, NEAR_MISS_HALF_ID);
        assert!(ev.ambiguities.is_empty());
        let ev = m.evaluate(&face(&m, &["COBRA", "COBRA", "VASE", "LUNE"]));
        assert!(ev.wins.is_empty());
        assert!(m.shows(&ev, DECOY_REBUILT) && !m.shows(&ev, NEAR_MISS_HALF));
        let ev = m.evaluate(&face(&m, &["AMPHORE", "VOILIER", "VASE", "LUNE"]));
        assert!(ev.wins.is_empty());
        assert!(m.shows(&ev, NEAR_MISS_HALF));
        // Both pedestals winning: never (max_wins = 1).
        let ev = m.evaluate(&face(&m, &["OEIL", "OEIL", "AMPHORE", "AMPHORE"]));
        assert_eq!(units(&ev), vec![3, 500]);
        assert_eq!(ev.ambiguities, vec![AMB_TOO_MANY_WINS]);
    }

    #[test]
    fn cells_win_their_legend_amount_times_the_multiplier() {
        let m = make(CELLS).unwrap();
        let ev = m.evaluate(&face(
            &m,
            &["PIERRE", "RUBIS", "SABLE", "SAPHIR", "SABLE", "SABLE"],
        ));
        assert_eq!(units(&ev), vec![2, 5]);
        let ev = m.evaluate(&face(
            &m,
            &["PIERRE", "RUBIS", "X5", "SAPHIR", "SABLE", "GALET"],
        ));
        assert_eq!(units(&ev), vec![10, 25]);
        assert!(ev.ambiguities.is_empty());
        let f = face(&m, &["PIERRE", "X2", "SABLE", "COQUILLE", "ALGUE", "GALET"]);
        let ev = m.evaluate(&f);
        assert!(ev.wins.is_empty() && m.shows(&ev, DECOY_MULTIPLIER));
        assert_eq!(
            m.marks(&f, &ev),
            vec![Mark {
                area: 0,
                column: 1,
                kind: MarkKind::Decoy
            }]
        );
        let ev = m.evaluate(&face(&m, &["X2", "RUBIS", "X5", "SABLE", "ALGUE", "GALET"]));
        assert_eq!(ev.ambiguities, vec![AMB_TWO_MULTIPLIERS]);
        let ev = m.evaluate(&face(
            &m,
            &["RUBIS", "RUBIS", "RUBIS", "RUBIS", "SABLE", "GALET"],
        ));
        assert_eq!(ev.ambiguities, vec![AMB_TOO_MANY_WINS]);
    }

    #[test]
    fn infeasible_ways_and_bad_specs_are_refused() {
        let m = make(HALVES).unwrap();
        assert!(m.check_way(&way(&[500])).is_ok());
        assert_eq!(
            m.check_way(&way(&[3, 3])),
            Err(Refusal::TooManyWins {
                area: "III".into(),
                wins: 2,
                most: 1,
                why: "max_wins"
            })
        );
        let e = m.check_way(&way(&[6])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "« III » cannot win 6: the legend (AMPHORE 3, VOILIER 50, OEIL 500, SCARABEE 15000) \
             cannot pay 6"
        );
        assert!(matches!(
            e,
            Refusal::CannotWin {
                amount: Money(600),
                ..
            }
        ));
        let m = make(CELLS).unwrap();
        assert!(m.check_way(&way(&[10, 25])).is_ok());
        assert!(m.check_way(&way(&[4, 10])).is_ok());
        assert!(matches!(
            m.check_way(&way(&[4, 25])),
            Err(Refusal::CannotWin {
                amount: Money(2900),
                ..
            })
        ));
        assert!(matches!(
            m.check_way(&way(&[2, 2, 2, 2])),
            Err(Refusal::TooManyWins { wins: 4, .. })
        ));
        let bad = |t: String| make(&t).err().map(|e| e.field).unwrap_or_default();
        assert_eq!(bad(HALVES.replace("\"LUNE\"]", "\"OEIL\"]")), "decoys");
        assert_eq!(
            bad(HALVES.replace("max_wins = 1", "max_wins = 3")),
            "max_wins"
        );
        assert_eq!(bad(HALVES.replace("0.20", "0.70")), "decoy_rebuilt");
        assert_eq!(bad(HALVES.replace("halves = true", "")), "near_miss");
        assert_eq!(
            bad(HALVES.replace("AMPHORE = 3", "AMPHORE = 0")),
            "legend.AMPHORE"
        );
        assert_eq!(
            bad(HALVES.replace("decoy_rebuilt = 0.20", "multiplier = { X2 = 2 }")),
            "multiplier"
        );
        assert_eq!(bad(CELLS.replace("X5 = 5", "X1 = 1")), "multiplier.X1");
        assert_eq!(
            bad(CELLS.replace("X5 = 5", "SABLE = 5")),
            "multiplier.SABLE"
        );
        assert_eq!(bad(CELLS.replace("cells = 6", "cells = 33")), "cells");
        assert_eq!(bad(CELLS.replace("cells = 6", "cellz = 6")), "cellz");
    }

    #[test]
    fn round_trips_and_features() {
        for (text, ways) in [
            (HALVES, vec![vec![], vec![3], vec![50], vec![15000]]),
            (
                CELLS,
                vec![
                    vec![],
                    vec![2],
                    vec![5, 5, 100],
                    vec![10, 25],
                    vec![4, 200],
                    vec![500],
                ],
            ),
        ] {
            let m = make(text).unwrap();
            let features = m.features();
            assert!(!features.is_empty());
            for amounts in ways {
                let w = way(&amounts);
                m.check_way(&w).unwrap();
                round_trip(&m, &w, 0..300);
                features_as_asked(&m, &w, 0..50);
            }
        }
    }

    #[test]
    fn same_seed_same_face() {
        let m = make(HALVES).unwrap();
        let f = drawn_twice(&m, &way(&[50]), 42);
        assert_eq!(
            texts(&m, &f)[..4],
            ["VOILIER", "VOILIER", "COBRA", "SPHINX"]
        );
        let m = make(CELLS).unwrap();
        let f = drawn_twice(&m, &way(&[10]), 42);
        assert_eq!(
            texts(&m, &f)[..6],
            ["ALGUE", "GALET", "X5", "RUBIS", "SABLE", "PIERRE"]
        );
    }

    const ALL: &str = r#"
        cells = 5
        legend = { RUBIS = 2, SAPHIR = 5, DIAMANT = 100 }
        decoys = ["PIERRE", "COQUILLE", "SABLE", "ALGUE", "CORAIL"]
        multiplier = { X2 = 2 }
        decoy_multiplier = 0.3
        specials = [{ symbol = "TOUT", kind = "win_all", caption = "GAGNE TOUT" }]
    "#;

    #[test]
    fn a_win_all_symbol_wins_every_legend_amount_once_and_alone() {
        let m = make(ALL).unwrap();
        assert_eq!(m.layout.areas, ["j3", "j3_tout"]);
        let col = &m.layout.columns[0];
        assert_eq!(
            col.values.join(" "),
            "RUBIS SAPHIR DIAMANT PIERRE COQUILLE SABLE ALGUE CORAIL X2 TOUT"
        );
        assert_eq!(col.inscriptions[9], "GAGNE TOUT");
        assert_eq!(col.inscriptions[..9].concat(), "");
        let f = face(&m, &["PIERRE", "TOUT", "SABLE", "ALGUE", "CORAIL"]);
        let ev = m.evaluate(&f);
        assert_eq!(units(&ev), vec![107]);
        assert_eq!(ev.wins[0].area, 1);
        assert!(ev.ambiguities.is_empty() && ev.losing_features.is_empty());
        assert_eq!(
            m.marks(&f, &ev),
            vec![Mark {
                area: 1,
                column: 1,
                kind: MarkKind::Win
            }]
        );
        // Beside a legend symbol, a multiplier or a second win-all: counted once, never shown.
        for beside in ["RUBIS", "X2", "TOUT"] {
            let ev = m.evaluate(&face(&m, &["PIERRE", "TOUT", beside, "ALGUE", "CORAIL"]));
            assert_eq!(units(&ev), vec![107], "{beside}");
            assert_eq!(ev.ambiguities, vec![AMB_WIN_ALL_BESIDE], "{beside}");
        }
        assert_eq!(
            m.describe()[3],
            "A cell showing TOUT wins every amount of the legend, added up, once: 107 (play \
             area « j3_tout »); it shows only on a face winning by it, alone: never beside a \
             legend symbol, a multiplier or a second TOUT."
        );
    }

    #[test]
    fn ways_by_the_win_all_symbol_round_trip_and_others_never_show_it() {
        let m = make(ALL).unwrap();
        assert!(m.check_way(&way_at(1, &[107])).is_ok());
        assert_eq!(
            m.check_way(&way_at(1, &[100])).unwrap_err().to_string(),
            "« j3_tout » cannot win 100: it wins every amount of the legend, added up: 107"
        );
        assert!(matches!(
            m.check_way(&way_in(&[(Some(1), 107), (Some(0), 2)])),
            Err(Refusal::TooManyWins { most: 1, .. })
        ));
        assert_eq!(
            m.check_way(&way_at(2, &[107])),
            Err(Refusal::NoSuchArea { area: 2 })
        );
        let tout = m.layout.columns[0].values.len() as u8 - 1;
        for (w, shows) in [
            (way_at(1, &[107]), true),
            (way(&[]), false),
            (way(&[2, 5]), false),
            (way(&[200]), false),
        ] {
            m.check_way(&w).unwrap();
            for (_, f, _) in round_trip(&m, &w, 0..300) {
                let n = f.codes[..5].iter().filter(|&&c| c == tout).count();
                assert_eq!(n, usize::from(shows), "way {}", w.id);
            }
            features_as_asked(&m, &w, 0..50);
        }
        let f = drawn_twice(&m, &way_at(1, &[107]), 42);
        assert_eq!(
            texts(&m, &f)[..5],
            ["ALGUE", "CORAIL", "TOUT", "SABLE", "PIERRE"]
        );
    }

    #[test]
    fn special_symbols_other_than_win_all_are_refused_with_the_field_to_use() {
        let bad = |from: &str, to: &str| {
            let e = make(&ALL.replace(from, to)).err().expect(to);
            assert_eq!(e.field, "specials");
            e.message
        };
        assert_eq!(
            bad("kind = \"win_all\"", "kind = \"auto_win\""),
            "\"TOUT\" is an auto-win symbol, which wins the amount under it, but a cell shows \
             no amount: a symbol that wins an amount of its own is a `legend` symbol"
        );
        assert_eq!(
            bad("kind = \"win_all\"", "kind = \"multiplier\", times = 2"),
            "\"TOUT\" is a spot multiplier, which multiplies the amount under it, but a cell \
             shows no amount: a symbol that multiplies the surface's wins is a `multiplier`"
        );
        assert_eq!(
            bad("symbol = \"TOUT\"", "symbol = \"X2\""),
            "\"X2\" is also one of `legend`, `decoys` or `multiplier`: a special symbol is \
             none of them"
        );
        let e = make(&HALVES.replace(
            "near_miss = 0.35",
            "specials = [{ symbol = \"TOUT\", kind = \"win_all\" }]",
        ))
        .err()
        .unwrap();
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "specials",
                "\"TOUT\": special symbols are shown in cells, not on pedestals of halves"
            )
        );
    }

    #[test]
    fn describe_uses_the_printed_name() {
        let m = make(HALVES).unwrap();
        assert_eq!(
            m.describe()[0],
            "« Jeu III » shows 2 pedestals, each hiding a left half and a right half; a pedestal \
             whose halves rebuild a legend symbol wins its amount (AMPHORE 3, VOILIER 50, OEIL \
             500, SCARABEE 15000); rebuilding any other symbol loses; at most one of them wins \
             on a ticket."
        );
    }
}
