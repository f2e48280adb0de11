//! The *key match* play style (`style = "key_match"`; the industry's "match one or more to
//! the winning symbols", "your numbers against the winning numbers", WAC 315-10-024).
//!
//! **Rule.** The surface shows `spots` spots, each a symbol (a word or a number such as
//! `07`) over an amount in figures with its caption. The **winning symbols** are either
//! fixed by the rules (`winning = ["IBIS", "HALEUR", "OUDJAT"]`: printed on the ticket outside
//! the scratch layer, so no face column holds them) or printed under the scratch layer
//! (`winning_cells = k`: k cells drawn per ticket from `symbols`). Each spot whose symbol is
//! one of the winning symbols wins the amount under it; these wins add up, one win of the
//! play area per winning spot (a way writes `areas = ["II", "II"]` for two of them).
//!
//! **Naive reading.** A player looks for each spot's symbol among the winning symbols and
//! adds up the amounts of the spots found. That agrees with the rule unless a symbol is
//! shown twice: the same symbol on two spots (does a player who found it once look for it
//! again? does one winning symbol pay two spots?), or the same symbol in two winning cells
//! (does it count for two matches?). Policy: **never the same symbol on two spots, never
//! the same symbol in two winning cells**; the evaluator flags both
//! ([`AMB_SPOT_TWICE`], [`AMB_WINNING_TWICE`]).
//!
//! **Columns** (surface id `{id}`): `{id}_win1..k` (winning cells, only with
//! `winning_cells`), then `{id}_sym1..n`, `{id}_amt1..n`, `{id}_cap1..n` (pharaon's surface II
//! with id `j2`: `j2_sym1..3 j2_amt1..3 j2_cap1..3`). The face has one play area, named
//! `area` (default the surface id); its panel has the same name (the key of its printed name
//! in `[labels]`), and the winning cells are the panel `{area}_win`.
//!
//! **Repeated symbols** (`repeats = true`, for rules that pay "each spot that matches a
//! winning number"): a symbol may show on several spots, and each spot showing a winning
//! symbol wins, so a face may win more times than there are winning symbols. Read the other
//! way ("a winning number pays once") such a face would pay less; the switch says which
//! reading the rules give, and `check` prints it. Winning cells stay distinct, and a special
//! symbol still shows on one spot at most.
//!
//! **Special symbols** (`specials`, the industry's auto-win, spot multiplier and win-all
//! symbols). A spot may show, instead of an ordinary symbol, a special symbol the spec
//! lists: an **auto-win** symbol (a money bag) wins the amount under it whatever the winning
//! symbols; a **multiplier** (`X5`, `times = 5`) wins that many times the amount under it; a
//! **win-all** symbol wins every amount shown on the surface's spots (its own included),
//! added up, once. Each special wins in a play area of its own (default `{area}_{symbol}`
//! in lower case), which ways name in `areas` (`areas = ["chance_x5"]`, `wins = [50]`: a
//! `X5` over 10). Naive reading: a player who sees a special symbol takes its prize; beside
//! a win-all symbol a matching number would add nothing (counted once), so no face shows
//! one ([`AMB_WIN_ALL_BESIDE`]). Special symbols show only on the spots of a way that wins
//! by them, at most once each; never in winning cells, never on a losing spot. Refused at
//! load: a multiplier below 2, or whose every multiplied amount is above the largest lot
//! ("can never multiply"); a second win-all; a special no way wins by.
//!
//! **Reading a shared draw** (`reads`, [`super::shared`]): the draw's cells are the last of
//! the winning cells, printed once for every grid that reads them; `winning_cells` gives
//! the grid's own beside them (bonus numbers that win on every grid), or none (several
//! grids reading one set of winning numbers). The symbols are the draw's. Given any draw,
//! the own winning cells are drawn among the symbols the draw does not show, the winning
//! spots among every winning cell and the other spots among the symbols of none, so every
//! way is reachable whatever the draw; the evaluation is the one above. Across grids
//! reading one draw, a player may read "a number I see among the winning numbers anywhere
//! wins": no spot of a grid shows a number among another grid's own winning cells
//! ([`crate::styles::game::AMB_OTHER_GRID`], judged by the ticket's game). The grids are
//! drawn in surface order, each given what those before show ([`super::Plan::draw_beside`]):
//! its own winning cells avoid their winning cells and spots, its other spots their
//! winning cells.
//!
//! **Features.** `top_decoy` (a decoy): a spot that does not win shows the largest amount
//! of `decoy_weights`, on exactly the spec's rate `top_decoy` of the faces with a spot that
//! does not win. Amounts under spots that do not win are decoys, drawn at `decoy_weights`;
//! when `top_decoy` is above 0, the largest is shown only on a face drawn to show it (on one
//! spot), the other spots drawing among the other decoy amounts (so `decoy_weights` then
//! lists at least two amounts, checked at load). Proofs mark them as decoys.

use super::common::{self, AmountBox};
use super::shared::{self, Beside};
use super::special::{self, RawSpecial, Special, SpecialKind, Specials, Sums};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Layout, Mark, MarkKind, Panel, Plan, Refusal, Style, MAX_WINS,
};
use crate::crypto::rng::{below, chance, shuffle, weighted};
use crate::language::{Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Ambiguity: the same symbol on two spots.
pub const AMB_SPOT_TWICE: &str = "the same symbol on two spots (key match)";
/// Ambiguity: the same symbol in two winning cells.
pub const AMB_WINNING_TWICE: &str = "the same symbol in two winning cells (key match)";
/// Feature: a spot that does not win shows the largest decoy amount.
pub const TOP_DECOY: &str = "top_decoy";

/// Ambiguity: a win-all symbol beside another win (the win-all symbol already wins every
/// amount of the surface: counted once, and never printed).
pub const AMB_WIN_ALL_BESIDE: &str = "a win-all symbol beside another win (key match)";

/// Most spots on one surface.
pub const MAX_SPOTS: usize = MAX_WINS;

/// The parameters of a `key_match` surface.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKeyMatch {
    spots: usize,
    #[serde(default)]
    symbols: Option<style::SymbolList>,
    #[serde(default)]
    winning: Option<Vec<String>>,
    #[serde(default)]
    winning_cells: Option<usize>,
    #[serde(default)]
    amounts: Option<Vec<Money>>,
    decoy_weights: BTreeMap<String, u32>,
    #[serde(default)]
    area: Option<String>,
    #[serde(default)]
    top_decoy: f64,
    #[serde(default)]
    specials: Vec<RawSpecial>,
    #[serde(default)]
    repeats: bool,
}

/// Where the winning symbols come from.
#[derive(Debug, Clone)]
enum Winning {
    /// Fixed by the rules: codes `0..n` of the spot columns are the winning symbols.
    Fixed(usize),
    /// Printed under the scratch layer in this many cells, drawn from every symbol.
    Cells(usize),
}

/// A `key_match` surface.
pub struct KeyMatch {
    /// Areas, columns, panels, printed lines, shown amounts, description and features.
    layout: Layout,
    /// The [`TOP_DECOY`] feature, in the layout's feature table.
    top_decoy_id: FeatureId,
    /// Symbols of the spot columns (for fixed winners: the winning ones first).
    symbols: Vec<String>,
    winning: Winning,
    spots: usize,
    amounts: AmountBox,
    decoy_weights: Vec<u32>,
    /// Code (in `amounts`) of the largest amount with a decoy weight.
    top_code: u8,
    /// `decoy_weights` without the largest amount: the draws of spots not drawn to show it
    /// (when `top_decoy` is above 0).
    other_weights: Vec<u32>,
    top_decoy: u32,
    /// The special symbols, in the spec's order; special `j` wins in play area `1 + j`.
    specials: Specials,
    /// The rules pay every spot showing a winning symbol, even a symbol shown on several
    /// spots (`repeats = true`): spots then draw their symbols with repeats.
    repeats: bool,
    /// The plain-words description, with the printed names.
    lines: Vec<String>,
    /// With a shared draw read (`reads`): its cells, the last of the winning cells (bonus
    /// numbers beside the surface's own winning cells, or all of them), and its printed
    /// name.
    bonus: Option<(usize, String)>,
}

impl KeyMatch {
    /// Index of the first winning-cell column (only with winning cells).
    const WIN: usize = 0;

    fn k(&self) -> usize {
        match self.winning {
            Winning::Fixed(_) => 0,
            Winning::Cells(k) => k,
        }
    }
    fn sym(&self, i: usize) -> usize {
        self.k() + i
    }
    fn amt(&self, i: usize) -> usize {
        self.k() + self.spots + i
    }
    fn cap(&self, i: usize) -> usize {
        self.k() + 2 * self.spots + i
    }

    /// Most winning spots on one face: the spots, bounded by the winning symbols.
    fn capacity(&self) -> usize {
        if self.repeats {
            return self.spots;
        }
        match self.winning {
            Winning::Fixed(n) => self.spots.min(n),
            Winning::Cells(k) => self.spots.min(k),
        }
    }

    /// Whether symbol `code` of a spot column wins on `face`.
    fn wins_on(&self, face: &Face, code: u8) -> bool {
        match self.winning {
            Winning::Fixed(n) => usize::from(code) < n,
            Winning::Cells(k) => face.codes[Self::WIN..Self::WIN + k].contains(&code),
        }
    }

    /// Builds the surface from its table.
    fn build(table: toml::Table, ctx: &StyleCtx) -> Result<KeyMatch, FieldError> {
        let raw: RawKeyMatch = style::parse(table)?;
        if raw.spots == 0 || raw.spots > MAX_SPOTS {
            return Err(FieldError::new(
                "spots",
                format!("expected 1 to {MAX_SPOTS} spots, got {}", raw.spots),
            ));
        }
        let (all, winning_cells) = match (ctx.reads, &raw.symbols) {
            (None, Some(s)) => (style::symbols(&s.0, 1, "symbols")?, raw.winning_cells),
            (None, None) => return Err(FieldError::new("symbols", "missing field `symbols`")),
            (Some(e), given) => {
                let field = if given.is_some() {
                    Some("symbols")
                } else if raw.winning.is_some() {
                    Some("winning")
                } else {
                    None
                };
                if let Some(field) = field {
                    return Err(FieldError::new(
                        field,
                        format!(
                            "the surface reads the shared draw \"{}\": its symbols are the \
                             draw's, which adds its cells to the winning cells (give the \
                             surface's own with `winning_cells`); leave `{field}` out",
                            e.id
                        ),
                    ));
                }
                let own = raw.winning_cells.unwrap_or(0);
                (e.values.clone(), Some(own + e.count))
            }
        };
        let (symbols, winning) = match (&raw.winning, winning_cells) {
            (Some(_), Some(_)) => {
                return Err(FieldError::new(
                    "winning_cells",
                    "give either `winning` (symbols fixed by the rules) or `winning_cells` \
                     (cells under the scratch layer), not both",
                ))
            }
            (None, None) => {
                return Err(FieldError::new(
                    "winning",
                    "expected `winning` (the symbols fixed by the rules) or `winning_cells` \
                     (how many winning cells are printed under the scratch layer)",
                ))
            }
            (Some(w), None) => {
                let w = style::symbols(w, 1, "winning")?;
                if let Some(s) = w.iter().find(|s| !all.contains(s)) {
                    return Err(FieldError::new(
                        "winning",
                        format!("\"{s}\" is not one of `symbols`"),
                    ));
                }
                let decoys: Vec<String> = all.iter().filter(|s| !w.contains(s)).cloned().collect();
                if raw.repeats && decoys.is_empty() {
                    return Err(FieldError::new(
                        "symbols",
                        "every symbol is a winning one: a spot that does not win needs another",
                    ));
                }
                if !raw.repeats && decoys.len() < raw.spots {
                    return Err(FieldError::new(
                        "symbols",
                        format!(
                            "a losing face shows {} different symbols that do not win, but \
                             `symbols` has only {} besides the winning ones (or set \
                             `repeats = true` if the rules pay a symbol on several spots)",
                            raw.spots,
                            decoys.len()
                        ),
                    ));
                }
                let n = w.len();
                let mut v = w;
                v.extend(decoys);
                (v, Winning::Fixed(n))
            }
            (None, Some(k)) => {
                if k == 0 || k > MAX_WINS {
                    return Err(FieldError::new(
                        "winning_cells",
                        match ctx.reads {
                            Some(e) => format!(
                                "expected 0 to {} winning cells of its own beside the {} of \
                                 the shared draw \"{}\", got {}",
                                MAX_WINS.saturating_sub(e.count),
                                e.count,
                                e.id,
                                k - e.count
                            ),
                            None => format!("expected 1 to {MAX_WINS} winning cells, got {k}"),
                        },
                    ));
                }
                if raw.repeats && all.len() <= k {
                    return Err(FieldError::new(
                        "symbols",
                        format!(
                            "{k} winning cells show {k} different symbols, and a spot that \
                             does not win needs another: expected more than {k} symbols, got {}",
                            all.len()
                        ),
                    ));
                }
                if !raw.repeats && all.len() < k + raw.spots {
                    return Err(FieldError::new(
                        "symbols",
                        format!(
                            "a losing face shows {k} winning cells and {} other symbols on the \
                             spots, all different: expected at least {} symbols, got {}",
                            raw.spots,
                            k + raw.spots,
                            all.len()
                        ),
                    ));
                }
                (all, Winning::Cells(k))
            }
        };
        let k = match winning {
            Winning::Fixed(_) => 0,
            Winning::Cells(k) => k,
        };
        let amounts: Vec<Money> = match raw.amounts {
            Some(a) => {
                if a.is_empty() || a.iter().any(|m| m.is_zero()) {
                    return Err(FieldError::new(
                        "amounts",
                        "expected one or more amounts above 0 (a spot that does not win \
                         still shows an amount)",
                    ));
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
        if let Some(m) = ctx.max.and_then(|max| amounts.iter().find(|&&m| m > max)) {
            return Err(FieldError::new(
                "amounts",
                format!("{m} is above the surface's printed maximum; a spot never shows it"),
            ));
        }
        let amounts =
            AmountBox::new(amounts, ctx.captions).map_err(|e| FieldError::new("amounts", e))?;
        let decoy_weights = common::decoy_weights(
            &raw.decoy_weights,
            amounts.amounts(),
            "one of the spots' `amounts`",
        )
        .map_err(|e| FieldError::new("decoy_weights", e))?;
        let top_code = decoy_weights
            .iter()
            .rposition(|&w| w > 0)
            .expect("decoy weights sum above 0") as u8;
        let top_decoy =
            common::share(raw.top_decoy).map_err(|e| FieldError::new("top_decoy", e))?;
        let mut other_weights = decoy_weights.clone();
        if top_decoy > 0 {
            other_weights[top_code as usize] = 0;
            if top_decoy < 1_000_000 && other_weights.iter().all(|&w| w == 0) {
                return Err(FieldError::new(
                    "top_decoy",
                    "decoy_weights lists only the largest amount, so every spot that does not \
                     win shows it: list another decoy amount, or set top_decoy to 0 or 1",
                ));
            }
            if other_weights.iter().all(|&w| w == 0) {
                other_weights = decoy_weights.clone();
            }
        }
        let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
        if area.is_empty() || !area.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(FieldError::new(
                "area",
                format!("\"{area}\" is not a play area name: expected ASCII letters, digits or _"),
            ));
        }

        let special::Parsed {
            specials,
            areas,
            inscriptions,
        } = Specials::parse(
            &raw.specials,
            &symbols,
            "`symbols`",
            std::slice::from_ref(&area),
            &area,
            amounts.amounts(),
            ctx,
        )?;

        let id = ctx.id;
        let sym_col = |name: String, values: &[String], inscriptions: &[String]| Column {
            name,
            kind: ColumnKind::Symbol,
            values: values.to_vec(),
            inscriptions: inscriptions.to_vec(),
        };
        let mut spot_symbols = symbols.clone();
        spot_symbols.extend(specials.list().iter().map(|s| s.symbol.clone()));
        let mut columns = Vec::new();
        columns.extend((1..=k).map(|i| sym_col(format!("{id}_win{i}"), &symbols, &[])));
        columns.extend(
            (1..=raw.spots).map(|i| sym_col(format!("{id}_sym{i}"), &spot_symbols, &inscriptions)),
        );
        columns.extend((1..=raw.spots).map(|i| amounts.column(format!("{id}_amt{i}"))));
        columns.extend(
            (1..=raw.spots).map(|i| {
                Column::caption(format!("{id}_cap{i}"), k + raw.spots + i - 1, ctx.captions)
            }),
        );
        let mut layout = Layout::new(INFO.name, areas, columns);
        layout.specials = specials.named(&layout.areas);
        let top_decoy_id = layout.features.add(
            TOP_DECOY,
            FeatureKind::Decoy,
            "a spot that does not win shows the largest decoy amount (key match)",
            "une case qui ne gagne pas montre le plus grand montant leurre",
        );
        let mut m = KeyMatch {
            layout,
            top_decoy_id,
            symbols,
            winning,
            spots: raw.spots,
            amounts,
            decoy_weights,
            top_code,
            other_weights,
            top_decoy,
            specials,
            repeats: raw.repeats,
            lines: Vec::new(),
            bonus: ctx.reads.map(|e| (e.count, ctx.label(&e.id).to_string())),
        };
        if let Some((b, _)) = &m.bonus {
            m.layout.reads = (k - b..k).collect();
            m.layout.own_winning = (Self::WIN..Self::WIN + k - b).collect();
            m.layout.spots = (0..m.spots).map(|i| m.sym(i)).collect();
        }
        m.lines = m.description(ctx.labels);
        Ok(m.with_layout())
    }

    /// The special symbol `code` of a spot column, if it is one.
    fn special(&self, code: u8) -> Option<(usize, &Special)> {
        self.specials.get(code)
    }

    /// The label of the play area, as printed.
    fn printed<'a>(&'a self, ctx_labels: &'a BTreeMap<String, String>) -> &'a str {
        ctx_labels
            .get(&self.layout.areas[0])
            .map_or(self.layout.areas[0].as_str(), String::as_str)
    }
}

/// A way's wins on the surface, sorted by how a face shows them.
#[derive(Debug, Default, Clone)]
struct Split {
    /// Wins by a winning symbol on a spot (area 0), in the way's order: amount codes.
    matched: ArrayVec<u8, MAX_SPOTS>,
    /// Wins by special symbols: (special index, amount code of the amount under it).
    special: ArrayVec<(usize, u8), MAX_SPOTS>,
    /// The win-all amount, when the way wins by the win-all symbol.
    all: Option<Money>,
}

impl KeyMatch {
    /// Feasible: every win in this surface's areas; in its own area at most one per spot
    /// and per winning symbol, each one of the spots' `amounts`; in a special symbol's area
    /// at most one, an amount a spot shows (times the multiplier); a win-all alone, the sum
    /// of the amounts of every spot.
    fn split(&self, way: &Way) -> Result<Split, Refusal> {
        let mut out = Split::default();
        let shown = || {
            let v: Vec<String> = self
                .amounts
                .amounts()
                .iter()
                .map(|m| m.to_string())
                .collect();
            v.join(", ")
        };
        for w in &way.wins {
            let area = usize::from(w.area.unwrap_or(0));
            if area > self.specials.list().len() {
                return Err(Refusal::NoSuchArea { area: area as u8 });
            }
            let name = || self.layout.areas[area].clone();
            let cannot = |can: String| Refusal::CannotWin {
                area: name(),
                amount: w.amount,
                can,
            };
            if area == 0 {
                let code = self
                    .amounts
                    .code(w.amount)
                    .ok_or_else(|| cannot(format!("a spot shows {}", shown())))?;
                out.matched.push(code);
                continue;
            }
            let j = area - 1;
            if out.special.iter().any(|&(k, _)| k == j)
                || (out.all.is_some() && j == self.all_index())
            {
                return Err(Refusal::TooManyWins {
                    area: name(),
                    wins: way.wins.iter().filter(|x| x.area == w.area).count(),
                    most: 1,
                    why: "a special symbol shows on one spot at most",
                });
            }
            match self.specials.list()[j].kind {
                kind @ (SpecialKind::AutoWin | SpecialKind::Multiplier(_)) => {
                    let code = kind
                        .under(w.amount)
                        .and_then(|m| self.amounts.code(m))
                        .ok_or_else(|| cannot(kind.cannot_win("a spot", &shown())))?;
                    out.special.push((j, code));
                }
                SpecialKind::WinAll => out.all = Some(w.amount),
            }
        }
        let cap = self.capacity();
        if out.matched.len() > cap {
            return Err(Refusal::TooManyWins {
                area: self.layout.areas[0].clone(),
                wins: out.matched.len(),
                most: cap,
                why: "one win per spot and per winning symbol",
            });
        }
        if out.matched.len() + out.special.len() > self.spots {
            return Err(Refusal::TooManyWins {
                area: self.layout.areas[0].clone(),
                wins: out.matched.len() + out.special.len(),
                most: self.spots,
                why: "one win per spot",
            });
        }
        if let Some(all) = out.all {
            if way.wins.len() > 1 {
                return Err(Refusal::TooManyWins {
                    area: self.layout.areas[1 + self.all_index()].clone(),
                    wins: way.wins.len(),
                    most: 1,
                    why: "a win-all symbol wins every amount of the surface, alone",
                });
            }
            if Sums::new(self.amounts.amounts(), self.spots, all).is_none() {
                return Err(Refusal::CannotWin {
                    area: self.layout.areas[1 + self.all_index()].clone(),
                    amount: all,
                    can: format!("no {} amounts among {} add up to it", self.spots, shown()),
                });
            }
        }
        Ok(out)
    }

    /// Index of the win-all symbol among the specials (`usize::MAX` when there is none).
    fn all_index(&self) -> usize {
        self.specials.win_all().unwrap_or(usize::MAX)
    }

    /// The symbols of a face's spots when the rules pay a symbol on several spots: each
    /// winning spot shows a winning symbol drawn with repeats (fixed, or among the winning
    /// cells, which stay distinct), and each of the `others` spots a symbol that does not
    /// win, drawn with repeats.
    #[allow(clippy::too_many_arguments)]
    fn draw_repeating(
        &self,
        split: &Split,
        others: usize,
        given: Option<(&Face, &Beside)>,
        face: &mut Face,
        spots: &mut ArrayVec<(u8, u8), MAX_SPOTS>,
        losers: &mut ArrayVec<u8, MAX_SPOTS>,
        rng: &mut FaceRng,
    ) {
        let n = self.symbols.len() as u32;
        if let Some((given, beside)) = given {
            let cells = self.winning_given(given, beside, face, rng);
            let k = cells.len() as u32;
            for &a in &split.matched {
                spots.push((cells[below(rng, k) as usize], a));
            }
            let taken = shared::taken(&[&cells, &beside.winning]);
            for _ in 0..others {
                losers.push(shared::nth_free(&taken, below(rng, n - taken.len() as u32)));
            }
            return;
        }
        match self.winning {
            Winning::Fixed(w) => {
                let w = w as u32;
                for &a in &split.matched {
                    spots.push((below(rng, w) as u8, a));
                }
                for _ in 0..others {
                    losers.push((w + below(rng, n - w)) as u8);
                }
            }
            Winning::Cells(k) => {
                let cells = common::pick_distinct::<MAX_WINS>(rng, n, k);
                for (i, &s) in cells.iter().enumerate() {
                    face.codes[Self::WIN + i] = s as u8;
                }
                for &a in &split.matched {
                    spots.push((cells[below(rng, k as u32) as usize] as u8, a));
                }
                let mut sorted = cells.clone();
                sorted.sort_unstable();
                for _ in 0..others {
                    // The r-th symbol of no winning cell.
                    let mut r = below(rng, n - k as u32);
                    for &s in &sorted {
                        if r >= s {
                            r += 1;
                        }
                    }
                    losers.push(r as u8);
                }
            }
        }
    }

    /// The winning cells of a face given the shared draw the surface reads (in its bonus
    /// columns of `given`): the surface's own winning cells show different symbols that
    /// neither the draw nor the other readers drawn before (`beside`: their own winning
    /// cells and spots) show, drawn uniformly, and the draw is copied as given. Returns
    /// every winning cell's symbol, its own first.
    fn winning_given(
        &self,
        given: &Face,
        beside: &Beside,
        face: &mut Face,
        rng: &mut FaceRng,
    ) -> ArrayVec<u8, MAX_WINS> {
        let k = self.k();
        let b = self.bonus.as_ref().map_or(0, |(b, _)| *b);
        let bonus = &given.codes[Self::WIN + k - b..Self::WIN + k];
        let taken = shared::taken(&[bonus, &beside.winning, &beside.spots]);
        let n = (self.symbols.len() - taken.len()) as u32;
        let mut cells: ArrayVec<u8, MAX_WINS> = common::pick_distinct::<MAX_WINS>(rng, n, k - b)
            .iter()
            .map(|&r| shared::nth_free(&taken, r))
            .collect();
        cells.extend(bonus.iter().copied());
        face.codes[Self::WIN..Self::WIN + k].copy_from_slice(&cells);
        cells
    }

    /// A face of `split` given the shared draw the surface reads, or, drawn alone (a
    /// style's own tests), with a draw of its own, uniform; drawn into `face`, whatever it
    /// held.
    fn draw_reading(
        &self,
        split: &Split,
        all: Option<&Sums>,
        show: Option<FeatureId>,
        given: Option<(&Face, &Beside)>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        match given {
            Some(g) => self.draw(split, all, show, Some(g), rng, face),
            None => {
                let k = self.k();
                let b = self.bonus.as_ref().map_or(0, |(b, _)| *b);
                let mut g = Face::zeroed(self.layout.columns.len());
                let drawn = common::pick_distinct::<MAX_WINS>(rng, self.symbols.len() as u32, b);
                for (i, &c) in drawn.iter().enumerate() {
                    g.codes[Self::WIN + k - b + i] = c as u8;
                }
                self.draw(split, all, show, Some((&g, &Beside::default())), rng, face)
            }
        }
    }

    /// Spots of a face of `split` that win nothing (none beside a win-all symbol).
    fn losing_spots(&self, split: &Split) -> usize {
        if split.all.is_some() {
            0
        } else {
            self.spots - split.matched.len() - split.special.len()
        }
    }

    fn can_show(&self, way: &Way, split: &Split, id: FeatureId) -> Result<(), Refusal> {
        let feature = self.layout.features.name(id).to_string();
        if id != self.top_decoy_id {
            return Err(Refusal::NoFeature {
                style: INFO.name,
                feature,
            });
        }
        if self.top_decoy == 0 {
            return Err(Refusal::ZeroRate {
                feature,
                area: self.layout.areas[0].clone(),
            });
        }
        if self.losing_spots(split) == 0 {
            return Err(Refusal::NeedsLosing {
                feature,
                needs: format!("a spot of « {} » that does not win", self.layout.areas[0]),
                way: way.id.clone(),
            });
        }
        Ok(())
    }

    fn always_shows(&self, split: &Split) -> Vec<FeatureId> {
        if self.top_decoy == 1_000_000 && self.losing_spots(split) > 0 {
            vec![self.top_decoy_id]
        } else {
            Vec::new()
        }
    }

    /// The winning spots show distinct winning symbols over their amounts, and each win of
    /// a special symbol that symbol over its amount (divided by the multiplier); the others
    /// show distinct symbols that do not win, over decoy amounts (`decoy_weights`), one of
    /// them the largest decoy amount at the `top_decoy` rate (or when asked). Beside a
    /// win-all symbol, the other spots show symbols that do not win, and every spot an
    /// amount drawn so that they add up to the win (`all`, with its table of sums). Winning
    /// cells show distinct symbols: those of the winning spots and others no spot shows.
    /// Spots are shuffled. Every choice is one bounded draw: no retry.
    /// With `given` (a surface reading a shared draw, beside the readers drawn before it),
    /// the winning cells are the surface's own, drawn among the symbols that neither the
    /// draw nor the other readers' own winning cells and spots show, then the draw's; the
    /// winning spots show different winning cells' symbols, drawn among them all, and the
    /// other spots different symbols of no winning cell of any reader. Drawn into `face`,
    /// whatever it held.
    fn draw(
        &self,
        split: &Split,
        all: Option<&Sums>,
        show: Option<FeatureId>,
        given: Option<(&Face, &Beside)>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        let m = split.matched.len();
        let others = self.spots - m - split.special.len() - usize::from(split.all.is_some());
        face.reset(self.layout.columns.len());
        // (symbol code, amount code) of each spot.
        let mut spots: ArrayVec<(u8, u8), MAX_SPOTS> = ArrayVec::new();
        let mut losers: ArrayVec<u8, MAX_SPOTS> = ArrayVec::new();
        match self.winning {
            _ if self.repeats => {
                self.draw_repeating(split, others, given, face, &mut spots, &mut losers, rng)
            }
            Winning::Cells(_) if given.is_some() => {
                let (given, beside) = given.expect("given");
                let cells = self.winning_given(given, beside, face, rng);
                let win = common::pick_distinct::<MAX_SPOTS>(rng, cells.len() as u32, m);
                for (&i, &a) in win.iter().zip(&split.matched) {
                    spots.push((cells[i as usize], a));
                }
                let taken = shared::taken(&[&cells, &beside.winning]);
                let n = (self.symbols.len() - taken.len()) as u32;
                for &r in &common::pick_distinct::<MAX_SPOTS>(rng, n, others) {
                    losers.push(shared::nth_free(&taken, r));
                }
            }
            Winning::Fixed(n) => {
                let win = common::pick_distinct::<MAX_SPOTS>(rng, n as u32, m);
                for (&s, &a) in win.iter().zip(&split.matched) {
                    spots.push((s as u8, a));
                }
                let decoys = self.symbols.len() - n;
                for &d in &common::pick_distinct::<MAX_SPOTS>(rng, decoys as u32, others) {
                    losers.push((n as u32 + d) as u8);
                }
            }
            Winning::Cells(k) => {
                // k + others distinct symbols: the first k in the winning cells (the first
                // m of them also on the winning spots), the rest on the other spots.
                // At most MAX_WINS winning cells and MAX_SPOTS other spots.
                let picked = common::pick_distinct::<{ MAX_WINS + MAX_SPOTS }>(
                    rng,
                    self.symbols.len() as u32,
                    k + others,
                );
                for (i, &s) in picked[..k].iter().enumerate() {
                    face.codes[Self::WIN + i] = s as u8;
                }
                for (&s, &a) in picked[..m].iter().zip(&split.matched) {
                    spots.push((s as u8, a));
                }
                losers.extend(picked[k..].iter().map(|&s| s as u8));
            }
        }
        for &(j, a) in &split.special {
            spots.push((self.specials.list()[j].code, a));
        }
        if let Some(sums) = all {
            let mut amounts = sums.draw(self.amounts.amounts(), rng);
            shuffle(rng, &mut amounts);
            spots.push((self.specials.list()[self.all_index()].code, amounts[0]));
            spots.extend(losers.iter().zip(&amounts[1..]).map(|(&s, &a)| (s, a)));
        } else {
            let top = !losers.is_empty()
                && (show == Some(self.top_decoy_id)
                    || (show.is_none() && chance(rng, self.top_decoy)));
            for (i, &s) in losers.iter().enumerate() {
                let amount = if top && i == 0 {
                    self.top_code
                } else {
                    weighted(rng, &self.other_weights) as u8
                };
                spots.push((s, amount));
            }
        }
        shuffle(rng, &mut spots);
        for (i, &(s, a)) in spots.iter().enumerate() {
            face.codes[self.sym(i)] = s;
            self.amounts.show(face, self.amt(i), self.cap(i), a);
        }
    }
}

/// The presentation of the style, computed once by its constructor.
impl KeyMatch {
    /// `self` with its layout completed: panels, printed lines, shown amounts and
    /// description, computed once from its settings.
    fn with_layout(mut self) -> Self {
        self.layout.shown_amounts = self.shown_amounts();
        self.layout.panels = self.panels();
        self.layout.printed = self.printed_lines();
        self.layout.description = self.describe();
        self
    }

    fn shown_amounts(&self) -> Vec<Money> {
        self.amounts.amounts().to_vec()
    }

    fn panels(&self) -> Vec<Panel> {
        let mut v = Vec::new();
        if let Winning::Cells(k) = self.winning {
            v.push(Panel {
                id: format!("{}_win", self.layout.areas[0]),
                rows: vec![(Self::WIN..Self::WIN + k).collect()],
            });
        }
        v.push(Panel {
            id: self.layout.areas[0].clone(),
            rows: vec![
                (0..self.spots).map(|i| self.sym(i)).collect(),
                (0..self.spots).map(|i| self.amt(i)).collect(),
            ],
        });
        v
    }

    /// The spots: symbols on one row, amounts on the next (panel `{area}`); the winning
    /// cells on a row of their own (panel `{area}_win`), when printed under the scratch.
    /// The winning symbols the rules fix, printed on the ticket beside the spots.
    /// What the ticket prints beside the spots: the rule (« Un de vos numéros est un numéro
    /// gagnant : gagnez le montant indiqué dessous », « à chaque fois » when a repeated one
    /// pays on each spot), the winning symbols the rules fix, then what each special symbol
    /// does (`X5 = gain ×5`), so that the proof says every way a spot can win.
    fn printed_lines(&self) -> Vec<super::Printed> {
        let numbers = self
            .symbols
            .iter()
            .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
        let mut lines = vec![PrintedLine::of(vec![Phrase::KeyMatch {
            numbers,
            each: self.repeats,
        }])];
        if let Winning::Fixed(n) = self.winning {
            lines.push(PrintedLine::of(vec![Phrase::WinningSymbols(
                self.symbols[..n].to_vec(),
            )]));
        }
        lines.extend(super::common::legend_lines(self.specials.phrases(None)));
        vec![super::Printed {
            panel: self.layout.areas[0].clone(),
            lines,
        }]
    }

    fn describe(&self) -> Vec<String> {
        self.lines.clone()
    }
}

impl Style for KeyMatch {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Sorts the way's wins among the surface's own area and its special symbols' areas
    /// once; a win-all way also gets its table of sums here.
    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        let split = self.split(way)?;
        let all = split
            .all
            .and_then(|total| Sums::new(self.amounts.amounts(), self.spots, total));
        let always = self.always_shows(&split);
        let drawer = Arc::clone(&self);
        let drawn = split.clone();
        if self.bonus.is_some() {
            let reader = Arc::clone(&self);
            let (given_split, given_all) = (split.clone(), all.clone());
            return Ok(Plan::new(
                &*self,
                way,
                |id| self.can_show(way, &split, id),
                always,
                move |show, rng, face| {
                    drawer.draw_reading(&drawn, all.as_ref(), show, None, rng, face)
                },
            )
            .with_beside(move |show, given, beside, rng, face| {
                reader.draw_reading(
                    &given_split,
                    given_all.as_ref(),
                    show,
                    Some((given, beside)),
                    rng,
                    face,
                )
            }));
        }
        Ok(Plan::new(
            &*self,
            way,
            |id| self.can_show(way, &split, id),
            always,
            move |show, rng, face| drawer.draw(&drawn, all.as_ref(), show, None, rng, face),
        ))
    }

    /// Refuses a special symbol no way wins by: no face would ever show it.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        self.specials.check_ways(plans, &self.layout.areas)
    }

    fn features(&self) -> Vec<FeatureId> {
        if self.top_decoy == 0 {
            return Vec::new();
        }
        vec![self.top_decoy_id]
    }

    /// A winning spot's symbol and amount (and the winning cell it matches) are wins; the
    /// amount under a spot that does not win is a decoy.
    /// A special symbol that wins is marked with its amount; beside a win-all symbol every
    /// amount is a win.
    fn marks(&self, face: &Face, _ev: &Evaluation) -> Vec<Mark> {
        let mut out = Vec::new();
        let all = (0..self.spots).find_map(|i| {
            self.special(face.codes[self.sym(i)])
                .filter(|(_, sp)| sp.kind == SpecialKind::WinAll)
                .map(|(j, _)| (i, 1 + j as u8))
        });
        if let Some((at, area)) = all {
            out.push(Mark {
                area,
                column: self.sym(at),
                kind: MarkKind::Win,
            });
            out.extend((0..self.spots).map(|i| Mark {
                area,
                column: self.amt(i),
                kind: MarkKind::Win,
            }));
            return out;
        }
        for i in 0..self.spots {
            let s = face.codes[self.sym(i)];
            if let Some((j, _)) = self.special(s) {
                for column in [self.sym(i), self.amt(i)] {
                    out.push(Mark {
                        area: 1 + j as u8,
                        column,
                        kind: MarkKind::Win,
                    });
                }
            } else if self.wins_on(face, s) {
                for column in [self.sym(i), self.amt(i)] {
                    out.push(Mark {
                        area: 0,
                        column,
                        kind: MarkKind::Win,
                    });
                }
                if let Winning::Cells(k) = self.winning {
                    if let Some(c) = (0..k).find(|&c| face.codes[Self::WIN + c] == s) {
                        out.push(Mark {
                            area: 0,
                            column: Self::WIN + c,
                            kind: MarkKind::Win,
                        });
                    }
                }
            } else {
                out.push(Mark {
                    area: 0,
                    column: self.amt(i),
                    kind: MarkKind::Decoy,
                });
            }
        }
        out
    }

    /// Each spot whose symbol is a winning symbol (fixed, or in a winning cell) wins the
    /// amount under it; a spot showing an auto-win symbol wins the amount under it, and one
    /// showing a multiplier that many times the amount under it, each in the special's play
    /// area. A win-all symbol wins the sum of every spot's amount, once, in its play area,
    /// and nothing else on the surface wins. Ambiguous: a symbol on two spots, a symbol in
    /// two winning cells, a win-all symbol beside another win.
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let mut top_shown = false;
        let mut all: Option<usize> = None;
        let mut sum = 0;
        for i in 0..self.spots {
            let s = face.codes[self.sym(i)];
            let a = face.codes[self.amt(i)];
            let amount = self.amounts.amount(a);
            sum += amount.cents();
            let win = |area: usize, amount: Money| AreaWin {
                area: area as u8,
                amount,
            };
            match self.special(s) {
                Some((j, sp)) => match sp.kind {
                    SpecialKind::AutoWin => {
                        let _ = ev.wins.try_push(win(1 + j, amount));
                    }
                    SpecialKind::Multiplier(t) => {
                        let _ = ev
                            .wins
                            .try_push(win(1 + j, Money(amount.cents() * u64::from(t))));
                    }
                    SpecialKind::WinAll => all = Some(j),
                },
                None if self.wins_on(face, s) => {
                    let _ = ev.wins.try_push(win(0, amount));
                }
                None if a == self.top_code && self.top_decoy > 0 => top_shown = true,
                None => {}
            }
        }
        if let Some(j) = all {
            if !ev.wins.is_empty() {
                ev.ambiguities.push(AMB_WIN_ALL_BESIDE);
            }
            ev.wins.clear();
            ev.wins.push(AreaWin {
                area: (1 + j) as u8,
                amount: Money(sum),
            });
            top_shown = false;
        }
        if top_shown {
            ev.losing_features.push(AreaFeature {
                area: 0,
                id: self.top_decoy_id,
            });
        }
        let spots = &face.codes[self.sym(0)..self.sym(0) + self.spots];
        let twice = |i: usize| spots[..i].contains(&spots[i]);
        if (1..spots.len()).any(|i| twice(i) && (!self.repeats || self.special(spots[i]).is_some()))
        {
            ev.ambiguities.push(AMB_SPOT_TWICE);
        }
        if let Winning::Cells(k) = self.winning {
            let cells = &face.codes[Self::WIN..Self::WIN + k];
            if (1..k).any(|i| cells[..i].contains(&cells[i])) {
                ev.ambiguities.push(AMB_WINNING_TWICE);
            }
        }
    }
}

impl KeyMatch {
    /// The plain-words description, with the printed names `labels`.
    fn description(&self, labels: &BTreeMap<String, String>) -> Vec<String> {
        let name = self.printed(labels);
        let amounts: Vec<String> = self
            .amounts
            .amounts()
            .iter()
            .map(|m| m.to_string())
            .collect();
        let mut v = Vec::new();
        match self.winning {
            Winning::Fixed(n) => {
                v.push(format!(
                    "« {name} » wins, on each of its {} spots showing one of the winning symbols \
                     printed on the ticket ({}), the amount under that spot; these wins add up.",
                    self.spots,
                    self.symbols[..n].join(", ")
                ));
                v.push(format!(
                    "Spots that do not win show other symbols: {}.",
                    self.symbols[n..].join(", ")
                ));
            }
            Winning::Cells(k) => v.push(match &self.bonus {
                None => format!(
                    "« {name} » wins, on each of its {} spots showing a symbol of its {k} \
                     winning cells, the amount under that spot; these wins add up. Symbols: {}.",
                    self.spots,
                    self.symbols.join(", ")
                ),
                Some((b, shared)) => {
                    format!(
                    "« {name} » wins, on each of its {} spots showing {}one of the {b} symbols \
                     of the shared draw « {shared} » (printed once, and winning alike on every \
                     surface that reads it), the amount under that spot; these wins add up. \
                     Symbols: {}.",
                    self.spots,
                    match k - b {
                        0 => String::new(),
                        own => format!("a symbol of its {own} own winning cells or "),
                    },
                    self.symbols.join(", ")
                ) + if k > *b {
                        " No spot of another surface reading the draw shows a symbol of its own \
                     winning cells (a player could take it for a win there)."
                    } else {
                        ""
                    }
                }
            }),
        }
        let cells = if self.k() > 0 {
            " nor in two winning cells"
        } else {
            ""
        };
        v.push(if self.repeats {
            format!(
                "A spot shows one of {}; a symbol may show on several spots, and every spot \
                 showing a winning symbol wins (repeats = true: the rules pay each matching \
                 spot; read as \"a winning symbol pays once\", such a face would pay less); \
                 no special symbol shows on two spots{cells}.",
                amounts.join(", ")
            )
        } else {
            format!(
                "A spot shows one of {}; no symbol is shown on two spots{cells}.",
                amounts.join(", ")
            )
        });
        for (j, sp) in self.specials.list().iter().enumerate() {
            let area = labels
                .get(&self.layout.areas[1 + j])
                .map_or(self.layout.areas[1 + j].as_str(), String::as_str);
            v.push(match sp.kind {
                SpecialKind::AutoWin => format!(
                    "A spot showing {} wins the amount under it, whatever the winning symbols \
                     (play area « {area} »).",
                    sp.symbol
                ),
                SpecialKind::Multiplier(t) => format!(
                    "A spot showing {} wins {t} times the amount under it (play area « {area} »).",
                    sp.symbol
                ),
                SpecialKind::WinAll => format!(
                    "A spot showing {} wins every amount shown on the {} spots, added up, once \
                     (play area « {area} »); no face shows it beside another win.",
                    sp.symbol, self.spots
                ),
            });
        }
        if !self.specials.is_empty() {
            let names: Vec<&str> = self
                .specials
                .list()
                .iter()
                .map(|s| s.symbol.as_str())
                .collect();
            v.push(format!(
                "Only a winning spot shows {}{}; no face shows one that wins nothing.",
                names.join(", "),
                if self.k() > 0 {
                    ", never a winning cell"
                } else {
                    ""
                }
            ));
        }
        let decoys: Vec<String> = self
            .decoy_weights
            .iter()
            .enumerate()
            .filter(|&(_, &w)| w > 0)
            .map(|(i, _)| self.amounts.amount(i as u8).to_string())
            .collect();
        v.push(if self.top_decoy > 0 {
            format!(
                "A spot that does not win shows a decoy amount ({}); the largest, {}, shows \
                 (on one such spot) on {:.2}% of faces with a spot that does not win \
                 (top_decoy), and on no other face.",
                decoys.join(", "),
                self.amounts.amount(self.top_code),
                f64::from(self.top_decoy) / 1e4
            )
        } else {
            format!(
                "A spot that does not win shows a decoy amount ({}).",
                decoys.join(", ")
            )
        });
        v
    }
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(KeyMatch::build(table, ctx)?))
}

/// The `key_match` entry of the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "key_match",
    term: "key match (match one or more to the winning symbols; your numbers against the winning numbers)",
    about: "Each spot shows a symbol over an amount; each spot whose symbol is one of the winning \
            symbols (fixed by the rules, or printed in winning cells under the scratch layer) wins \
            the amount under it, and these wins add up.",
    naive: "A player looks each spot's symbol up among the winning symbols and adds the amounts \
            found (a special symbol: the amount under it, times its multiplier, or every amount \
            for a win-all); a symbol shown on two spots or in two winning cells, or a win-all \
            beside another win, would make that reading differ, so no face shows one. Grids \
            reading shared bonus numbers: a player may take a number seen among the winning \
            numbers anywhere on the ticket as a win, so no spot of a grid shows a number among \
            another grid's own winning numbers.",
    columns: "{id}_win1..k (winning cells, with winning_cells only), {id}_sym1..n, {id}_amt1..n, \
              {id}_cap1..n",
    params: &[
        Param {
            name: "spots",
            kind: "integer",
            default: None,
            about: "How many spots (symbol over an amount) the surface shows, 1 to 32.",
        },
        Param {
            name: "symbols",
            kind: "array of strings, or { from, to, width }",
            default: None,
            about: "Every symbol a spot or winning cell may show (words or numbers such as \"07\"); printed numbers may be given as a range, { from = 1, to = 50, width = 2 } for \"01\" … \"50\".",
        },
        Param {
            name: "winning",
            kind: "array of strings",
            default: Some("none: give this or `winning_cells`"),
            about: "The winning symbols fixed by the rules, printed outside the scratch layer \
                    (among `symbols`; the others are decoys). Either this or `winning_cells`.",
        },
        Param {
            name: "winning_cells",
            kind: "integer",
            default: Some("none: give this or `winning`"),
            about: "How many winning cells are printed under the scratch layer, each a different \
                    symbol drawn from `symbols`. Either this or `winning`. On a surface that \
                    reads a shared draw (`reads`), the surface's own winning cells beside the \
                    draw's (default 0: the draw's alone), and `symbols` and `winning` are left \
                    out.",
        },
        Param {
            name: "amounts",
            kind: "array of amounts",
            default: Some("every lot table amount, up to `max`"),
            about: "The amounts a spot may show (each with a caption).",
        },
        Param {
            name: "decoy_weights",
            kind: "table amount → weight",
            default: None,
            about: "Weight of each amount under a spot that does not win (amounts not listed are \
                    never decoys).",
        },
        Param {
            name: "area",
            kind: "string",
            default: Some("the surface id"),
            about: "The play area's name, as ways write it in `areas` and `[labels]` prints it.",
        },
        Param {
            name: "specials",
            kind: "array of tables",
            default: Some("none"),
            about: "Special symbols a winning spot may show instead of a winning symbol: \
                    `{ symbol = \"SAC\", kind = \"auto_win\" }` wins the amount under it, \
                    `{ symbol = \"X5\", kind = \"multiplier\", times = 5 }` five times that amount, \
                    `{ symbol = \"TOUT\", kind = \"win_all\" }` every amount of the spots added up. \
                    Each wins in a play area of its own (`area`, default `{area}_{symbol}` in \
                    lower case) that ways name in `areas`; optional `caption`, printed under it.",
        },
        Param {
            name: "repeats",
            kind: "boolean",
            default: Some("false"),
            about: "True when the rules pay every spot showing a winning symbol, even a symbol \
                    shown on several spots: spots then draw their symbols with repeats. Leave \
                    false for rules that do not say so (no symbol then shows on two spots).",
        },
        Param {
            name: "top_decoy",
            kind: "share",
            default: Some("0"),
            about: "Share of faces with a spot that does not win where one such spot shows the \
                    largest decoy amount (feature `top_decoy`; exact: no other face shows it).",
        },
    ],
    example: r#"[[surfaces]]
style = "key_match"
id = "chance"
spots = 5
winning_cells = 2
symbols = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"]
amounts = [2, 5, 10, 100]
decoy_weights = { "2" = 40, "5" = 30, "10" = 20, "100" = 5 }
top_decoy = 0.1
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        count_showing, drawn_twice, features_as_asked, round_trip, texts, way_at, way_in, worded,
        Ctx,
    };
    use crate::styles::testkit::{printed_text, Planning, Tested};

    /// Surface `j2` printed « Jeu II », with captions `3 EUROS` … and no tiers.
    fn ctx() -> Ctx {
        let units = [0u64, 3, 6, 10, 20, 50, 100, 1000, 5000];
        let texts: Vec<_> = units.iter().map(|&u| (u, format!("{u} EUROS"))).collect();
        Ctx::new("j2")
            .captions(worded(&texts))
            .label("II", "Jeu II")
    }

    fn make(toml_text: &str) -> Result<Arc<KeyMatch>, FieldError> {
        let table: toml::Table = toml::from_str(toml_text).unwrap();
        KeyMatch::build(table, &ctx().tiers(&[3, 10, 5000]).get()).map(Arc::new)
    }

    const FIXED: &str = r#"
        spots = 3
        area = "II"
        symbols = ["IBIS", "HALEUR", "OUDJAT", "VAUTOUR", "LOTUS", "PLUME", "ROSEAU"]
        winning = ["IBIS", "HALEUR", "OUDJAT"]
        amounts = [3, 10, 50, 1000, 5000]
        decoy_weights = { "3" = 5, "10" = 3, "1000" = 1 }
        top_decoy = 0.2
    "#;

    /// 20 spots against 12 winning numbers fixed by the rules: up to 12 wins on a face.
    const FIXED20: &str = r#"
        spots = 20
        symbols = ["01","02","03","04","05","06","07","08","09","10","11","12","13","14","15",
                   "16","17","18","19","20","21","22","23","24","25","26","27","28","29","30",
                   "31","32"]
        winning = ["01","02","03","04","05","06","07","08","09","10","11","12"]
        amounts = [3, 6, 10]
        decoy_weights = { "3" = 1, "6" = 1, "10" = 1 }
        top_decoy = 1.0
    "#;

    const CELLS: &str = r#"
        spots = 15
        winning_cells = 12
        symbols = ["01","02","03","04","05","06","07","08","09","10","11","12","13","14","15",
                   "16","17","18","19","20","21","22","23","24","25","26","27","28","29","30",
                   "31","32","33","34","35","36","37","38","39","40"]
        amounts = [3, 6, 10, 20, 50, 100]
        decoy_weights = { "3" = 10, "6" = 5, "100" = 1 }
    "#;

    /// The way of wins of `amounts` (whole units), all in the surface's one play area.
    fn way(amounts: &[u64]) -> Way {
        way_at(0, amounts)
    }

    fn code(m: &KeyMatch, col: usize, text: &str) -> u8 {
        m.layout.columns[col]
            .values
            .iter()
            .position(|v| v == text)
            .unwrap() as u8
    }

    /// A face of `m` from its texts: winning cells, then (symbol, amount) per spot.
    fn face(m: &KeyMatch, cells: &[&str], spots: &[(&str, &str)]) -> Face {
        let mut f = Face::default();
        for (i, c) in cells.iter().enumerate() {
            f.codes[i] = code(m, i, c);
        }
        for (i, (s, a)) in spots.iter().enumerate() {
            f.codes[m.sym(i)] = code(m, m.sym(i), s);
            let ac = code(m, m.amt(i), a);
            m.amounts.show(&mut f, m.amt(i), m.cap(i), ac);
        }
        f
    }

    /// Two bonus numbers among 01 to 20, shared.
    fn bonus() -> crate::styles::shared::Shared {
        crate::styles::shared::Shared {
            id: "bonus".into(),
            kind: crate::styles::shared::SharedKind::Draw,
            count: 2,
            values: style::numbers(1, 20, 2),
        }
    }

    fn make_reading(toml_text: &str) -> Result<Arc<KeyMatch>, FieldError> {
        let table: toml::Table = toml::from_str(toml_text).unwrap();
        let ctx = ctx()
            .tiers(&[3, 10, 5000])
            .label("bonus", "Bonus")
            .reads(bonus());
        KeyMatch::build(table, &ctx.get()).map(Arc::new)
    }

    const READING: &str = r#"
        spots = 6
        winning_cells = 2
        amounts = [3, 10, 50]
        decoy_weights = { "3" = 5, "10" = 3 }
    "#;

    #[test]
    fn a_grid_reading_bonus_numbers_has_them_as_its_last_winning_cells() {
        let m = make_reading(READING).unwrap();
        assert_eq!(m.k(), 4);
        assert_eq!(m.layout().reads, vec![2, 3]);
        assert_eq!(m.layout().columns[3].values, bonus().values);
        assert!(m.layout().description[0].contains(
            "showing a symbol of its 2 own winning cells or one of the 2 symbols of the shared \
             draw « Bonus »"
        ));
        // A bonus number in a winning cell wins on a spot, as an own winning number does.
        let f = face(
            &m,
            &["01", "02", "03", "04"],
            &[
                ("04", "10"),
                ("02", "3"),
                ("05", "50"),
                ("06", "3"),
                ("07", "3"),
                ("08", "3"),
            ],
        );
        assert_eq!(cents(&m.evaluate(&f)), [10, 3]);
        // A bonus number equal to an own winning number: a symbol in two winning cells.
        let f = face(
            &m,
            &["01", "02", "01", "04"],
            &[
                ("09", "10"),
                ("12", "3"),
                ("05", "50"),
                ("06", "3"),
                ("07", "3"),
                ("08", "3"),
            ],
        );
        assert_eq!(m.evaluate(&f).ambiguities, [AMB_WINNING_TWICE]);
        // Only the draw's cells, when the surface gives none of its own.
        let only = make_reading(&READING.replace("winning_cells = 2\n", "")).unwrap();
        assert_eq!((only.k(), only.layout().reads.clone()), (2, vec![0, 1]));
        // Symbols and fixed winners come from the draw: given, refused by name.
        for (field, line) in [
            ("symbols", "symbols = [\"01\", \"02\"]"),
            ("winning", "winning = [\"01\"]"),
        ] {
            let e = make_reading(&format!("{READING}{line}\n")).err().unwrap();
            assert_eq!(e.field, field);
            assert!(
                e.message.contains("reads the shared draw \"bonus\""),
                "{e:?}"
            );
        }
        // 20 symbols cannot hold 4 winning cells and 17 other spots apart.
        let e = make_reading(&READING.replace("spots = 6", "spots = 17"))
            .err()
            .unwrap();
        assert_eq!(e.field, "symbols");
    }

    /// Given any bonus draw, every way is reached: the draw is kept as given, the winning
    /// spots show winning cells' symbols (the bonus ones among them), the others none.
    #[test]
    fn a_grid_reading_bonus_numbers_reaches_every_way_whatever_the_draw() {
        for text in [
            READING.to_string(),
            READING.replace("winning_cells = 2\n", ""),
        ] {
            let m = make_reading(&text).unwrap();
            let k = m.k();
            let mut bonus_wins = 0;
            for w in [way(&[]), way(&[3]), way(&[10, 3]), way(&[50, 10])] {
                round_trip(&m, &w, 0..50);
                let plan = Arc::clone(&m).plan(&w).unwrap();
                assert!(plan.reads());
                for seed in 0..100u64 {
                    let mut rng = <FaceRng as rand_core::SeedableRng>::seed_from_u64(seed);
                    let mut given = Face::zeroed(m.layout().columns.len());
                    for (i, c) in common::pick_distinct::<2>(&mut rng, 20, 2)
                        .into_iter()
                        .enumerate()
                    {
                        given.codes[k - 2 + i] = c as u8;
                    }
                    let f = plan.draw_given(None, &given, &mut rng);
                    assert_eq!(f.codes[k - 2..k], given.codes[k - 2..k]);
                    let ev = m.evaluate(&f);
                    assert!(ev.ambiguities.is_empty(), "{ev:?}");
                    assert_eq!(ev.prize(), w.amount, "seed {seed}");
                    bonus_wins += (0..m.spots)
                        .filter(|&i| given.codes[k - 2..k].contains(&f.codes[m.sym(i)]))
                        .count();
                }
            }
            // The bonus numbers win too, not only the grid's own.
            assert!(bonus_wins > 0);
        }
    }

    fn cents(ev: &Evaluation) -> Vec<u64> {
        ev.wins.iter().map(|w| w.amount.cents() / 100).collect()
    }

    #[test]
    fn columns_are_named_from_the_surface_id() {
        let m = make(FIXED).unwrap();
        let names: Vec<&str> = m.layout.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names.join(" "),
            "j2_sym1 j2_sym2 j2_sym3 j2_amt1 j2_amt2 j2_amt3 j2_cap1 j2_cap2 j2_cap3"
        );
        assert_eq!(m.layout.areas, vec!["II"]);
        assert_eq!(m.layout.columns[6].kind, ColumnKind::Caption { of: 3 });
        let m = make(CELLS).unwrap();
        assert_eq!(m.layout.columns.len(), 12 + 45);
        assert_eq!(m.layout.columns[0].name, "j2_win1");
        assert_eq!(m.layout.columns[12].name, "j2_sym1");
        assert_eq!(m.layout.areas, vec!["j2"]);
        let ids: Vec<String> = m.panels().into_iter().map(|p| p.id).collect();
        assert_eq!(ids, vec!["j2_win", "j2"]);
    }

    #[test]
    fn fixed_winners_each_win_the_amount_under_them() {
        let m = make(FIXED).unwrap();
        let f = face(
            &m,
            &[],
            &[("LOTUS", "1000"), ("IBIS", "10"), ("OUDJAT", "50")],
        );
        let ev = m.evaluate(&f);
        assert_eq!(cents(&ev), vec![10, 50]);
        assert!(ev.ambiguities.is_empty());
        assert!(m.shows(&ev, TOP_DECOY));
        let f = face(&m, &[], &[("LOTUS", "3"), ("PLUME", "10"), ("ROSEAU", "3")]);
        let ev = m.evaluate(&f);
        assert!(ev.wins.is_empty());
        assert!(!m.shows(&ev, TOP_DECOY));
        let mut marks: Vec<(usize, MarkKind)> = m
            .marks(&f, &ev)
            .into_iter()
            .map(|k| (k.column, k.kind))
            .collect();
        marks.sort();
        assert_eq!(
            marks,
            vec![
                (3, MarkKind::Decoy),
                (4, MarkKind::Decoy),
                (5, MarkKind::Decoy)
            ]
        );
    }

    #[test]
    fn winning_cells_decide_which_spots_win() {
        let m = make(CELLS).unwrap();
        let cells = [
            "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12",
        ];
        let mut spots: Vec<(&str, &str)> = vec![("40", "100"), ("05", "20"), ("12", "3")];
        let rest = [
            "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24",
        ];
        spots.extend(rest.iter().map(|s| (*s, "6")));
        let f = face(&m, &cells, &spots);
        let ev = m.evaluate(&f);
        assert_eq!(cents(&ev), vec![20, 3]);
        assert!(ev.ambiguities.is_empty());
        // The winning symbol's cell is marked with its spot.
        let marks = m.marks(&f, &ev);
        assert!(marks
            .iter()
            .any(|k| k.column == 4 && k.kind == MarkKind::Win));
        assert!(marks
            .iter()
            .any(|k| k.column == m.amt(0) && k.kind == MarkKind::Decoy));
    }

    #[test]
    fn a_symbol_shown_twice_is_ambiguous() {
        let m = make(FIXED).unwrap();
        let f = face(&m, &[], &[("IBIS", "3"), ("IBIS", "10"), ("LOTUS", "3")]);
        assert_eq!(m.evaluate(&f).ambiguities, vec![AMB_SPOT_TWICE]);
        let f = face(&m, &[], &[("LOTUS", "3"), ("PLUME", "10"), ("LOTUS", "3")]);
        assert_eq!(m.evaluate(&f).ambiguities, vec![AMB_SPOT_TWICE]);
        let m = make(CELLS).unwrap();
        let mut cells = vec!["01"; 12];
        cells[1..].copy_from_slice(&[
            "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "01",
        ]);
        let spots: Vec<(&str, &str)> = (13..28)
            .map(|n| (Box::leak(format!("{n}").into_boxed_str()) as &str, "3"))
            .collect();
        let f = face(&m, &cells, &spots);
        assert_eq!(m.evaluate(&f).ambiguities, vec![AMB_WINNING_TWICE]);
    }

    #[test]
    fn infeasible_ways_and_bad_specs_are_refused() {
        let m = make(FIXED).unwrap();
        assert!(m.check_way(&way(&[3, 3, 3])).is_ok());
        let e = m.check_way(&way(&[3, 3, 3, 3])).unwrap_err();
        assert!(
            matches!(
                e,
                Refusal::TooManyWins {
                    wins: 4,
                    most: 3,
                    ..
                }
            ),
            "{e}"
        );
        let e = m.check_way(&way(&[6])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "« II » cannot win 6: a spot shows 3, 10, 50, 1000, 5000"
        );
        assert!(matches!(
            e,
            Refusal::CannotWin {
                amount: Money(600),
                ..
            }
        ));
        let m = make(CELLS).unwrap();
        assert!(m.check_way(&way(&[3; 12])).is_ok());
        assert!(matches!(
            m.check_way(&way(&[3; 13])),
            Err(Refusal::TooManyWins {
                wins: 13,
                most: 12,
                ..
            })
        ));

        let bad = |text: &str| make(text).err().map(|e| e.field).unwrap_or_default();
        assert_eq!(bad(&FIXED.replace("spots = 3", "spots = 5")), "symbols");
        assert_eq!(
            bad(&FIXED.replace("\"OUDJAT\"]\n", "\"SPHINX\"]\n")),
            "winning"
        );
        assert_eq!(
            bad(&FIXED.replace("winning =", "winning_cells = 2\nx =")),
            "x"
        );
        assert_eq!(
            bad(&FIXED.replace("winning = [", "winning_cells = 2\nwinning = [")),
            "winning_cells"
        );
        assert_eq!(
            bad(&FIXED.replace("\"10\" = 3", "\"6\" = 3")),
            "decoy_weights"
        );
        assert_eq!(bad(&FIXED.replace("5000]", "5000, 7]")), "amounts");
        assert_eq!(bad(&FIXED.replace("0.2", "1.2")), "top_decoy");
        assert_eq!(bad(&CELLS.replace("spots = 15", "spots = 29")), "symbols");
        assert_eq!(bad(&CELLS.replace("spots = 15", "spots = 33")), "spots");
        // Amounts default to the lot table's.
        let m = make(
            &FIXED
                .replace("amounts = [3, 10, 50, 1000, 5000]", "")
                .replace(", \"1000\" = 1", ""),
        )
        .unwrap();
        assert_eq!(
            m.shown_amounts(),
            vec![Money(300), Money(1000), Money(500_000)]
        );
    }

    /// Every way synthesizes to a face the evaluator judges as that way, with no ambiguity,
    /// over 300 seeds; losers never win; the feature shows when asked.
    #[test]
    fn round_trips_and_features() {
        for (text, ways) in [
            (
                FIXED,
                vec![vec![], vec![3], vec![10, 50], vec![5000, 5000, 3]],
            ),
            (
                FIXED20,
                vec![vec![], vec![3; 12], vec![10, 6, 3, 3, 3, 3, 3, 3, 3]],
            ),
            (
                CELLS,
                vec![
                    vec![],
                    vec![6],
                    vec![3, 3],
                    vec![100; 12],
                    vec![20, 50, 3, 6, 10],
                ],
            ),
        ] {
            let m = make(text).unwrap();
            for amounts in ways {
                let w = way(&amounts);
                m.check_way(&w).unwrap();
                round_trip(&m, &w, 0..300);
                features_as_asked(&m, &w, 0..50);
            }
        }
        let m = make(FIXED).unwrap();
        assert!(matches!(
            m.can_show_why(&way(&[3, 3, 3]), TOP_DECOY),
            Err(Refusal::NeedsLosing { .. })
        ));
        assert!(make(CELLS).unwrap().features().is_empty());
    }

    #[test]
    fn same_seed_same_face() {
        let m = make(FIXED).unwrap();
        let f = drawn_twice(&m, &way(&[10]), 42);
        assert_eq!(
            texts(&m, &f)[..9],
            vec!["PLUME", "VAUTOUR", "OUDJAT", "3", "3", "10", "3 EUROS", "3 EUROS", "10 EUROS"]
        );
    }

    #[test]
    fn describe_uses_the_printed_name() {
        let table: toml::Table = toml::from_str(FIXED).unwrap();
        let m = build(table, &ctx().get()).unwrap();
        assert_eq!(
            m.layout().description[0],
            "« Jeu II » wins, on each of its 3 spots showing one of the winning symbols printed \
             on the ticket (IBIS, HALEUR, OUDJAT), the amount under that spot; these wins add up."
        );
    }

    #[test]
    fn the_top_decoy_rate_is_the_spec_s() {
        // 2 000 faces with spots that do not win: the largest decoy is drawn with
        // probability r and shown on no other face, so the count is binomial(2000, r);
        // 4 standard deviations (r = 0.1: ±54, r = 0.2: ±72) hold it (fixed seed).
        for (rate, lo, hi) in [("0.1", 200 - 54, 200 + 54), ("0.2", 400 - 72, 400 + 72)] {
            let m =
                make(&FIXED.replace("top_decoy = 0.2", &format!("top_decoy = {rate}"))).unwrap();
            for w in [way(&[]), way(&[10])] {
                let n = count_showing(&m, &w, TOP_DECOY, 2000, 5);
                assert!((lo..=hi).contains(&n), "{rate} {n}");
            }
        }
        // Rate 0: the feature is not offered, and the largest amount is an ordinary decoy.
        let m = make(&FIXED.replace("top_decoy = 0.2", "top_decoy = 0")).unwrap();
        assert_eq!(count_showing(&m, &way(&[]), TOP_DECOY, 2000, 5), 0);
        assert!(m.features().is_empty());
        // Only the largest amount listed as a decoy: the rate cannot hold.
        let only = FIXED.replace("\"3\" = 5, \"10\" = 3, \"1000\" = 1", "\"1000\" = 1");
        assert_eq!(make(&only).err().unwrap().field, "top_decoy");
        let d = make(FIXED).unwrap().describe();
        assert!(d.last().unwrap().contains("1000") && d.last().unwrap().contains("20.00% "));
        assert!(d.last().unwrap().contains("top_decoy"), "{d:?}");
    }

    /// FIXED with an auto-win, a ×5 multiplier and a win-all symbol, and 5 spots.
    fn specials() -> String {
        FIXED
            .replace("spots = 3", "spots = 5")
            .replace("\"ROSEAU\"]", "\"ROSEAU\", \"SPHINX\"]")
            .replace(
                "top_decoy = 0.2",
                "top_decoy = 0.2\n        specials = [\n\
             { symbol = \"SAC\", kind = \"auto_win\", caption = \"SAC D'OR\" },\n\
             { symbol = \"X5\", kind = \"multiplier\", times = 5 },\n\
             { symbol = \"TOUT\", kind = \"win_all\", area = \"tout\" },\n]",
            )
    }

    /// The spots print the winning symbols the rules fix, then what each special symbol
    /// does; a surface with neither prints nothing.
    #[test]
    fn the_spots_print_the_winning_symbols_and_the_special_symbols() {
        let text = |m: &KeyMatch| printed_text(&m.printed_lines(), crate::language::Language::Fr);
        let m = make(&specials()).unwrap();
        assert_eq!(m.printed_lines()[0].panel, "II");
        assert_eq!(
            text(&m),
            [
                "Un de vos symboles est un symbole gagnant : gagnez le montant indiqué dessous",
                "Symboles gagnants : IBIS HALEUR OUDJAT",
                "SAC = gain immédiat · X5 = gain ×5 · TOUT = tous les montants affichés, additionnés"
            ]
        );
        assert_eq!(
            text(&make(CELLS).unwrap()),
            ["Un de vos numéros est un numéro gagnant : gagnez le montant indiqué dessous"]
        );
    }

    #[test]
    fn special_symbols_have_their_areas_codes_and_captions() {
        let m = make(&specials()).unwrap();
        assert_eq!(m.layout.areas, vec!["II", "II_sac", "II_x5", "tout"]);
        let spot = &m.layout.columns[m.sym(0)];
        assert_eq!(spot.values[8..], ["SAC", "X5", "TOUT"]);
        assert_eq!(m.layout.inscription(m.sym(0), 8), Some("SAC D'OR"));
        assert_eq!(m.layout.inscription(m.sym(0), 9), None);
        assert_eq!(m.layout.inscription(m.sym(0), 2), None);
        let d = m.describe().join("\n");
        assert!(
            d.contains("A spot showing X5 wins 5 times the amount under it (play area « II_x5 »)."),
            "{d}"
        );
        assert!(
            d.contains(
                "A spot showing TOUT wins every amount shown on the 5 spots, added up, once"
            ),
            "{d}"
        );
        // Without specials the spot columns print no inscription.
        assert!(make(FIXED).unwrap().layout.columns[0]
            .inscriptions
            .is_empty());
    }

    #[test]
    fn special_symbols_win_as_the_rules_say() {
        let m = make(&specials()).unwrap();
        let wins = |ev: &Evaluation| -> Vec<(u8, u64)> {
            ev.wins
                .iter()
                .map(|w| (w.area, w.amount.cents() / 100))
                .collect()
        };
        let sp = [
            ("SAC", "10"),
            ("X5", "10"),
            ("IBIS", "3"),
            ("LOTUS", "1000"),
            ("PLUME", "3"),
        ];
        let ev = m.evaluate(&face(&m, &[], &sp));
        assert_eq!(wins(&ev), vec![(1, 10), (2, 50), (0, 3)]);
        assert!(ev.ambiguities.is_empty());
        assert!(m.shows(&ev, TOP_DECOY));
        // A win-all symbol wins the five amounts, its own included, once.
        let sp = [
            ("TOUT", "3"),
            ("LOTUS", "10"),
            ("PLUME", "50"),
            ("ROSEAU", "3"),
            ("VAUTOUR", "1000"),
        ];
        let f = face(&m, &[], &sp);
        let ev = m.evaluate(&f);
        assert_eq!(wins(&ev), vec![(3, 1066)]);
        assert!(ev.ambiguities.is_empty());
        assert!(!m.shows(&ev, TOP_DECOY), "every amount wins beside TOUT");
        let marks = m.marks(&f, &ev);
        assert_eq!(marks.len(), 6);
        assert!(marks.iter().all(|k| k.area == 3 && k.kind == MarkKind::Win));
        // Beside another win it still wins once, and the face is ambiguous.
        let sp = [
            ("TOUT", "3"),
            ("IBIS", "10"),
            ("X5", "50"),
            ("ROSEAU", "3"),
            ("VAUTOUR", "3"),
        ];
        let ev = m.evaluate(&face(&m, &[], &sp));
        assert_eq!(wins(&ev), vec![(3, 69)]);
        assert_eq!(ev.ambiguities, vec![AMB_WIN_ALL_BESIDE]);
    }

    #[test]
    fn ways_through_special_symbols_round_trip() {
        let m = make(&specials()).unwrap();
        for w in [
            way_at(1, &[10]),
            way_at(2, &[50]),
            way_at(2, &[5000]),
            way_in(&[(Some(0), 3), (Some(1), 10), (Some(2), 15)]),
            way_in(&[
                (Some(0), 3),
                (Some(0), 10),
                (Some(0), 50),
                (Some(1), 3),
                (Some(2), 50),
            ]),
            way_at(3, &[15]),
            way_at(3, &[1066]),
            way_at(3, &[25000]),
        ] {
            m.check_way(&w).unwrap_or_else(|e| panic!("{}: {e}", w.id));
            for (_, f, _) in round_trip(&m, &w, 0..300) {
                // Losing spots never show a special symbol.
                let shown = (0..5)
                    .filter(|&i| m.special(f.codes[m.sym(i)]).is_some())
                    .count();
                assert_eq!(shown, w.wins.iter().filter(|x| x.area != Some(0)).count());
            }
        }
        features_as_asked(&m, &way_at(1, &[10]), 0..50);
        assert!(matches!(
            m.can_show_why(&way_at(3, &[15]), TOP_DECOY),
            Err(Refusal::NeedsLosing { .. })
        ));
        // Every decomposition of a win-all amount is reachable: 15 = 3+3+3+3+3 only.
        for (_, f, _) in round_trip(&m, &way_at(3, &[15]), 0..20) {
            assert!((0..5).all(|i| m.amounts.amount(f.codes[m.amt(i)]) == Money(300)));
        }
    }

    #[test]
    fn ways_special_symbols_cannot_show_are_refused() {
        let m = make(&specials()).unwrap();
        let e = m.check_way(&way_at(2, &[52])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "« II_x5 » cannot win 52: it wins 5 times an amount a spot shows (3, 10, 50, 1000, 5000)"
        );
        assert!(matches!(
            m.check_way(&way_at(1, &[3, 3])),
            Err(Refusal::TooManyWins { most: 1, .. })
        ));
        assert!(matches!(
            m.check_way(&way_in(&[(Some(3), 15), (Some(0), 3)])),
            Err(Refusal::TooManyWins { most: 1, .. })
        ));
        let e = m.check_way(&way_at(3, &[14])).unwrap_err();
        assert_eq!(
            e.to_string(),
            "« tout » cannot win 14: no 5 amounts among 3, 10, 50, 1000, 5000 add up to it"
        );
        assert!(matches!(
            m.check_way(&way_at(4, &[3])),
            Err(Refusal::NoSuchArea { area: 4 })
        ));
        // A special no way wins by never shows: refused once every way is planned.
        let plans: Vec<Plan> = [way_at(1, &[10]), way_at(2, &[50]), way(&[3])]
            .iter()
            .map(|w| Arc::clone(&m).plan(w).unwrap())
            .collect();
        let e = m.check_ways(&plans.iter().collect::<Vec<_>>()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "specials (\"TOUT\") never applies: no way wins in its play area « tout » (`areas`), \
             so no face shows it"
        );
        let all = Arc::clone(&m).plan(&way_at(3, &[15])).unwrap();
        let refs: Vec<&Plan> = plans.iter().chain([&all]).collect();
        assert_eq!(m.check_ways(&refs), Ok(()));
        // Six wins on five spots.
        assert!(matches!(
            m.check_way(&way_in(&[
                (Some(0), 3),
                (Some(0), 3),
                (Some(0), 3),
                (Some(1), 3),
                (Some(2), 15),
                (Some(0), 3)
            ])),
            Err(Refusal::TooManyWins { .. })
        ));
    }

    #[test]
    fn bad_special_symbols_are_refused_with_the_reason() {
        let err = |from: &str, to: &str| {
            let e = make(&specials().replace(from, to)).err().expect(to);
            assert_eq!(e.field, "specials");
            e.message
        };
        assert_eq!(
            err("\"SAC\", kind", "\"LOTUS\", kind"),
            "\"LOTUS\" is also one of `symbols`: a special symbol is none of them"
        );
        assert_eq!(
            err(", times = 5", ""),
            "\"X5\" is a multiplier: give `times`, 2 or more"
        );
        assert_eq!(
            err("times = 5", "times = 1"),
            "\"X5\" is a multiplier: give `times`, 2 or more"
        );
        assert_eq!(
            err("kind = \"win_all\"", "kind = \"win_all\", times = 2"),
            "\"TOUT\": `times` is only for a multiplier"
        );
        assert_eq!(
            err("times = 5", "times = 5000"),
            "\"X5\" can never multiply: 5000 times the smallest amount a spot shows is above the largest lot, 5000"
        );
        assert_eq!(
            err("\"auto_win\", caption", "\"win_all\", caption"),
            "at most one win-all symbol"
        );
        assert_eq!(
            err("area = \"tout\"", "area = \"II\""),
            "play area \"II\" is named twice"
        );
        assert_eq!(
            err("\"X5\", kind", "\"SAC\", kind"),
            "\"SAC\" is listed twice"
        );
        assert_eq!(
            err("SAC D'OR", "SAC\\nD'OR"),
            "the caption of \"SAC\" is not one line of 1 to 64 characters"
        );
        let e = make(&specials().replace("kind = \"auto_win\"", "kind = \"bonus\""))
            .err()
            .unwrap();
        assert_eq!(e.field, "specials[0].kind", "{e:?}");
    }

    /// Every spot that shows a winning symbol pays, however many spots show it; a face drawn
    /// with repeats pays the way's wins under this reading, and the other reading (a winning
    /// symbol pays once) pays some of them less: the switch matters, and says which holds.
    #[test]
    fn with_repeats_every_matching_spot_wins() {
        let text = FIXED.replace("spots = 3", "spots = 5\nrepeats = true");
        let m = make(&text).unwrap();
        let sp = [
            ("IBIS", "3"),
            ("IBIS", "10"),
            ("LOTUS", "3"),
            ("LOTUS", "1000"),
            ("HALEUR", "50"),
        ];
        let ev = m.evaluate(&face(&m, &[], &sp));
        assert_eq!(cents(&ev), vec![3, 10, 50]);
        assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
        // Without the switch the same face is ambiguous, and refused.
        let strict = make(
            &FIXED
                .replace("spots = 3", "spots = 5")
                .replace("\"ROSEAU\"]", "\"ROSEAU\", \"SPHINX\"]"),
        )
        .unwrap();
        assert_eq!(
            strict.evaluate(&face(&strict, &[], &sp)).ambiguities,
            vec![AMB_SPOT_TWICE]
        );
        // Five wins against three winning symbols: more than the symbols, as the rules allow.
        let w = way(&[3, 3, 10, 50, 5000]);
        let mut fewer = 0;
        for (_, f, ev) in round_trip(&m, &w, 0..300) {
            let winners: Vec<u8> = (0..5)
                .map(|i| f.codes[m.sym(i)])
                .filter(|&s| m.wins_on(&f, s))
                .collect();
            assert_eq!(winners.len(), 5);
            assert_eq!(ev.prize(), Money(506_600));
            // Read as "a winning symbol pays once" (its largest amount), the face pays less.
            let mut once = 0;
            for s in 0..3u8 {
                once += (0..5)
                    .filter(|&i| f.codes[m.sym(i)] == s)
                    .map(|i| m.amounts.amount(f.codes[m.amt(i)]).cents())
                    .max()
                    .unwrap_or(0);
            }
            fewer += usize::from(once < 506_600);
        }
        assert_eq!(fewer, 300, "five wins on three symbols always repeat one");
        round_trip(&m, &way(&[]), 0..100);
        round_trip(&m, &way(&[10]), 0..100);
        assert!(m
            .describe()
            .iter()
            .any(|l| l.contains("a symbol may show on several spots")));
    }

    #[test]
    fn with_repeats_winning_cells_stay_distinct_and_losers_never_match() {
        let m = make(&CELLS.replace("spots = 15", "spots = 15\nrepeats = true")).unwrap();
        let w = way(&[3; 15]);
        m.check_way(&w).unwrap();
        let mut repeated = 0;
        for (_, f, _) in round_trip(&m, &way(&[3, 6, 6, 10]), 0..300)
            .into_iter()
            .chain(round_trip(&m, &w, 0..50))
        {
            let cells = &f.codes[0..12];
            assert!((1..12).all(|i| !cells[..i].contains(&cells[i])));
            let spots = &f.codes[m.sym(0)..m.sym(0) + 15];
            repeated += usize::from((1..15).any(|i| spots[..i].contains(&spots[i])));
        }
        assert!(repeated > 100, "{repeated}");
        assert!(matches!(
            m.check_way(&way(&[3; 16])),
            Err(Refusal::TooManyWins { most: 15, .. })
        ));
        // Only winning symbols: a spot that does not win has nothing to show.
        let e = make(
            &CELLS
                .replace("spots = 15", "spots = 15\nrepeats = true")
                .replace("winning_cells = 12", "winning_cells = 32")
                .replace(
                    ",\"33\",\"34\",\"35\",\"36\",\"37\",\"38\",\"39\",\"40\"",
                    "",
                ),
        )
        .err()
        .unwrap();
        assert_eq!(e.field, "symbols");
        assert!(
            e.message
                .starts_with("32 winning cells show 32 different symbols"),
            "{}",
            e.message
        );
    }
}
