//! The *lines* play style (industry: "tic-tac-toe"; WAC 315-10-024).
//!
//! **Rule.** A `rows × cols` grid of symbols. The surface's one play area wins when `k`
//! identical winning symbols fill a line: `k` consecutive cells of a row, a column or a
//! diagonal (either direction). The prize is the amount in the surface's amount box (`box`
//! mode: `box_amounts`, the winning symbols `winning`, all by default), or the legend amount
//! of the line's symbol (`legend` mode: `legend = { X = 10, O = 5 }`, printed on the ticket;
//! its keys are the winning symbols). The area wins once.
//!
//! **Naive reading.** A player reads any line of `k` identical symbols as a win, whatever the
//! symbol, and two lines as two wins (or a doubt about which pays). So a losing face never
//! shows a line of `k` identical symbols (of any symbol), and a winning face shows exactly
//! one, of a winning symbol: no second line, no line longer than `k` (it holds two windows of
//! `k`). The evaluator flags a line of a symbol that does not win and two or more lines.
//!
//! **Per line.** With `per_line = true` (legend mode), every completed line pays the legend
//! amount of its symbol and the area wins the sum: a way names one win per line (`wins =
//! [20, 5]`, up to three lines). Naive reading: a player counts each line of `k` identical
//! winning symbols once, so lines never share a cell (a line longer than `k`, or two lines
//! crossing, would read as one win or two); a line of a symbol that does not win never
//! shows. Synthesis places the planned lines on cells apart, drawn among the sets of lines
//! (checked when the spec is loaded) whose cells complete no other line and leave every
//! other cell a symbol to choose.
//!
//! **Special symbols** (`specials`, the shared `special` module; the industry's "reveal a
//! STAR, win the prize in the PRIZE box instantly" and "reveal a TOUT, win every prize of
//! the legend"). A cell may show a symbol the spec lists after `symbols`, which wins on its
//! own in a play area of its own after the grid's (default `{id}_{symbol}` in lower case),
//! that ways name in `areas`:
//! - an **auto-win** (`kind = "auto_win"`, box mode only) wins the amount in the box;
//! - a **win-all** (`kind = "win_all"`, legend mode only) wins every legend amount, added
//!   up, once;
//! - a spot **multiplier** (`kind = "multiplier"`, `times = N`; "reveal a 2X in the grid,
//!   win double the prize"): **a 2X anywhere on a winning grid multiplies that grid's win
//!   by 2** — the amount in the box times N (box mode), the legend amount of the line's
//!   symbol times N (legend mode), the sum of the grid's lines times N (`per_line`: each
//!   line's amount times N). The multiplier cell is never part of a line. A way won through
//!   it names the multiplier's play area for every win (`wins = [10]`, `areas =
//!   ["m_2x"]`: a line of a 5 box beside a 2X). On a grid that does not win, a multiplier
//!   multiplies nothing and shows only as a counted decoy (feature `decoy_<symbol>`, on a
//!   share `decoy_multiplier` of the losing grids, one multiplier drawn evenly), or never
//!   when the spec gives no rate.
//!
//! One auto-win at most, one win-all at most (`special` refuses a second), and no special
//! with lines of 2 (a cell beside it would read as a line with a wild). Naive reading: a
//! player who sees a special symbol takes its prize, and may read it as a wild completing a
//! line. So a special shows in one cell and never beside another ([`AMB_SPECIAL_TWICE`]),
//! and no line through it holds `k − 1` of one symbol ([`AMB_SPECIAL_IN_LINE`]: a wild?).
//! An auto-win or a win-all shows only on a face of a way that wins by it, alone: that grid
//! shows no line ([`AMB_SPECIAL_BESIDE`]: the box paid once or twice?); its fill is a
//! losing grid's with no near miss. A multiplier shows beside the grid's line (or lines),
//! which never run through its cell, or on a losing grid as its decoy, beside a near miss
//! only when both are drawn ([`AMB_LONE_MULTIPLIER`] flags a multiplier on a losing grid
//! of a spec with no decoy rate). Synthesis places the lines, then the multiplier in a cell
//! drawn evenly among those on no line whose other cells are all placed and that leave
//! every free cell a symbol to choose (placements with no such cell are dropped when the
//! spec loads; a way left none is refused).
//!
//! **Columns.** `{id}_r{row}c{col}` (1-based, row by row), then in box mode `{id}_gain`,
//! `{id}_caption`. Play area: `area`, by default the surface id; panel: the surface id.
//!
//! **Features.** `near_miss_<area>` (near miss; the spec may name it `near_miss_feature`): a
//! losing grid with a line holding `k − 1` of one winning symbol (and another symbol in its
//! last cell), on exactly `near_miss` of losing faces: the other losing grids are filled so
//! that no line holds `k − 1` of a winning symbol.
//! In box mode, the box of a losing face shows a decoy (`decoy_weights`), marked as such.
//! `decoy_<symbol>` (decoy, with a multiplier and a `decoy_multiplier` share): a losing
//! grid showing that multiplier.
//!
//! **Synthesis.** The winning line (or the near miss's `k − 1` cells) is placed first; the
//! other cells are filled row by row, each with a symbol drawn among those that do not
//! complete a line whose other cells are all placed. Each cell excludes at most one symbol
//! per line it completes, so it always has a choice when the grid has more symbols than that
//! (checked when the spec is loaded, over every placement). A losing grid not drawn to show
//! the near miss also bars from a cell every winning symbol that a line through it already
//! holds `k − 2` times (checked when the spec is loaded too, unless `near_miss = 1`).

use super::common::pick_few;
use super::common::LosingNearMiss;
use super::common::{self, AmountBox};
use super::special::{self, RawSpecial, SpecialKind, Specials};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Layout, Mark, MarkKind, Panel, Plan, Refusal, Style,
};
use crate::crypto::rng::{below, chance, weighted};
use crate::language::Phrase;
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most cells of a grid: 8 rows of 8.
const MAX_GRID: usize = 8 * 8;

/// Ambiguity: a line of `k` identical symbols that do not win (reads as a win).
pub const AMB_LOSING_LINE: &str = "a line of identical symbols that do not win";
/// Ambiguity: two or more lines of `k` identical symbols (one win or two?).
pub const AMB_TWO_LINES: &str = "two or more lines of identical symbols";
/// Ambiguity, per line: two lines of identical symbols sharing a cell (a line longer than
/// `k`, or two crossing: one win or two?).
pub const AMB_SHARED_CELL: &str = "two lines of identical symbols sharing a cell";
/// Ambiguity: a special symbol in two cells, or two special symbols (each shows once, alone).
pub const AMB_SPECIAL_TWICE: &str = "two special symbols on a grid (lines)";
/// Ambiguity: a special symbol beside a line of identical symbols (is the box, or the
/// legend, paid once or twice?).
pub const AMB_SPECIAL_BESIDE: &str = "a special symbol beside a line (lines)";
/// Ambiguity: a special symbol in a line whose other cells show one symbol (a wild
/// completing it?).
pub const AMB_SPECIAL_IN_LINE: &str = "a special symbol in a line one symbol short (lines)";
/// Ambiguity: a multiplier on a grid with no line, with no decoy share for it (a prize
/// multiplied, or nothing?).
pub const AMB_LONE_MULTIPLIER: &str = "a multiplier on a grid with no line (lines)";

/// Most lines a way may win on a grid paying per line.
const MOST_LINES: usize = 3;
/// Most lines of `k` a grid paying per line may hold (bounds the sets of lines checked at
/// load).
const MOST_WINDOWS: usize = 64;

/// A `lines` surface's table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLines {
    rows: usize,
    cols: usize,
    #[serde(default)]
    k: Option<usize>,
    symbols: style::SymbolList,
    #[serde(default)]
    winning: Option<Vec<String>>,
    #[serde(default)]
    box_amounts: Option<Vec<Money>>,
    #[serde(default)]
    decoy_weights: Option<BTreeMap<String, u32>>,
    #[serde(default)]
    legend: Option<BTreeMap<String, Money>>,
    #[serde(default)]
    per_line: bool,
    #[serde(default)]
    near_miss: f64,
    #[serde(default)]
    area: Option<String>,
    #[serde(default)]
    near_miss_feature: Option<String>,
    #[serde(default)]
    specials: Vec<RawSpecial>,
    #[serde(default)]
    decoy_multiplier: f64,
}

/// How a winning line is paid.
enum Pay {
    /// The amount box's amount.
    Box {
        gain: AmountBox,
        decoy_weights: Vec<u32>,
    },
    /// The legend amount of the line's symbol (`None` for a symbol that does not win).
    Legend(Vec<Option<Money>>),
}

/// The lines style, built from a validated surface table.
pub struct Lines {
    id: String,
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    label: String,
    rows: usize,
    cols: usize,
    k: usize,
    n_symbols: usize,
    /// `winning[code]`: the symbol wins when it fills a line (false for a special symbol).
    winning: Vec<bool>,
    /// Every line of `k` cells (cell indices, in row-major order).
    windows: Vec<ArrayVec<u8, 16>>,
    /// Bit `s`: play symbol `s` (below `n_symbols`) wins when it fills a line.
    winning_bits: [u64; common::MAX_SYMBOLS / 64],
    /// Per line, its cells as bits (bit `c`: cell `c`).
    masks: Vec<u64>,
    /// Per cell, the lines through it (indices into `windows`, ascending).
    through: Vec<Vec<u8>>,
    /// Per cell, the other cells of the lines through it, as bits (bit `c`: cell `c`).
    mates: Vec<u64>,
    pay: Pay,
    /// Every completed line pays (`per_line`): the area wins the sum.
    per_line: bool,
    /// Per line: `sets[j]`, every set of `j + 2` lines (window indices, ascending) on cells
    /// apart whose cells complete no other line and leave each other cell a symbol.
    sets: Vec<Vec<ArrayVec<u8, MOST_LINES>>>,
    near_miss: u32,
    /// The near miss (`near_miss_<area>` or the spec's `near_miss_feature`), in the
    /// layout's feature table.
    near_miss_id: FeatureId,
    /// The special symbols (codes from `n_symbols` on); special `j` wins in play area
    /// `1 + j`.
    specials: Specials,
    /// With a multiplier, per number of lines `n` (entry `n − 1`): the placements of `n`
    /// winning lines (window indices, ascending) beside which a multiplier has a cell
    /// ([`Lines::multiplier_cells`]); empty without a multiplier.
    beside: Vec<Vec<ArrayVec<u8, MOST_LINES>>>,
    /// Share of losing grids showing a multiplier (a decoy), per million.
    decoy_multiplier: u32,
    /// The multipliers, each with its decoy feature: (special index, feature).
    decoys: Vec<(usize, FeatureId)>,
}

/// The cells of every line of `k` in a `rows × cols` grid, row-major.
fn windows(rows: usize, cols: usize, k: usize) -> Vec<ArrayVec<u8, 16>> {
    let mut out = Vec::new();
    let dirs: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    for (dr, dc) in dirs {
        for r in 0..rows as isize {
            for c in 0..cols as isize {
                let end_r = r + dr * (k as isize - 1);
                let end_c = c + dc * (k as isize - 1);
                if end_r < 0 || end_r >= rows as isize || end_c < 0 || end_c >= cols as isize {
                    continue;
                }
                let mut w: ArrayVec<u8, 16> = (0..k as isize)
                    .map(|i| ((r + dr * i) * cols as isize + c + dc * i) as u8)
                    .collect();
                w.sort_unstable();
                out.push(w);
            }
        }
    }
    out
}

/// The cells `cells` as bits (bit `c`: cell `c`, below [`MAX_GRID`]).
fn cell_bits(cells: &[u8]) -> u64 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

/// The cells `placed` holds true as bits (bit `c`: cell `c`, below [`MAX_GRID`]).
fn placed_bits(placed: &[bool]) -> u64 {
    placed
        .iter()
        .enumerate()
        .fold(0, |m, (c, &p)| m | u64::from(p) << c)
}

/// The symbols of `0..n` whose bit is clear in `banned`, as bits.
fn allowed(banned: &[u64; common::MAX_SYMBOLS / 64], n: usize) -> [u64; common::MAX_SYMBOLS / 64] {
    let mut free = [0u64; common::MAX_SYMBOLS / 64];
    for (word, f) in free.iter_mut().enumerate().take(n.div_ceil(64)) {
        let left = n - word * 64;
        let valid = if left >= 64 {
            u64::MAX
        } else {
            (1 << left) - 1
        };
        *f = valid & !banned[word];
    }
    free
}

/// The `r`-th symbol (from 0) whose bit is set in `free`; `None` when fewer are set.
fn nth_set(free: &[u64; common::MAX_SYMBOLS / 64], mut r: u32) -> Option<u8> {
    for (word, &bits) in free.iter().enumerate() {
        let count = bits.count_ones();
        if r < count {
            return common::nth_set_bit(bits, r).map(|b| (word * 64) as u8 + b as u8);
        }
        r -= count;
    }
    None
}

impl Lines {
    /// The grid's near miss, as a feature.
    fn near(&self) -> LosingNearMiss {
        LosingNearMiss {
            id: self.near_miss_id,
            rate: self.near_miss,
        }
    }

    fn new(raw: RawLines, ctx: &StyleCtx) -> Result<Lines, FieldError> {
        let (rows, cols) = (raw.rows, raw.cols);
        if rows == 0 || cols == 0 || rows > 8 || cols > 8 {
            return Err(FieldError::new(
                "rows",
                format!("expected a grid of 1 to 8 rows and columns, got {rows}×{cols}"),
            ));
        }
        if rows.max(cols) < 2 {
            return Err(FieldError::new(
                "rows",
                format!("a {rows}×{cols} grid has no line of 2 cells: expected at least 2 rows or 2 columns"),
            ));
        }
        let k = raw.k.unwrap_or(rows.min(cols));
        if k < 2 || k > rows.max(cols) {
            return Err(FieldError::new(
                "k",
                format!(
                    "expected 2 to {} identical symbols in a line",
                    rows.max(cols)
                ),
            ));
        }
        let symbols = style::symbols(&raw.symbols.0, 2, "symbols")?;
        let code = |s: &str, field: &str| {
            symbols
                .iter()
                .position(|x| x == s)
                .ok_or_else(|| FieldError::new(field, format!("\"{s}\" is not one of symbols")))
        };
        let mut winning = vec![false; symbols.len()];
        let max_above = |m: Money, field: &str| match ctx.max {
            Some(x) if m > x => Err(FieldError::new(
                field,
                format!("{m} is above the surface's max; the surface never shows more"),
            )),
            _ => Ok(()),
        };
        let pay = match (raw.box_amounts, raw.legend) {
            (Some(amounts), None) => {
                match &raw.winning {
                    Some(w) if w.is_empty() => {
                        return Err(FieldError::new("winning", "expected one or more symbols"))
                    }
                    Some(w) => {
                        for s in w {
                            winning[code(s, "winning")?] = true;
                        }
                    }
                    None => winning.iter_mut().for_each(|w| *w = true),
                }
                if amounts.is_empty() || amounts.iter().any(|m| m.is_zero()) {
                    return Err(FieldError::new(
                        "box_amounts",
                        "expected one or more amounts above 0",
                    ));
                }
                for &m in &amounts {
                    max_above(m, "box_amounts")?;
                }
                let gain = AmountBox::new(amounts, ctx.captions)
                    .map_err(|e| FieldError::new("box_amounts", e))?;
                let table = raw.decoy_weights.ok_or_else(|| {
                    FieldError::new(
                        "decoy_weights",
                        "box mode needs decoy_weights (the amounts a losing face's box shows)",
                    )
                })?;
                let decoy_weights =
                    common::decoy_weights(&table, gain.amounts(), "one of box_amounts")
                        .map_err(|e| FieldError::new("decoy_weights", e))?;
                Pay::Box {
                    gain,
                    decoy_weights,
                }
            }
            (None, Some(legend)) => {
                if raw.winning.is_some() || raw.decoy_weights.is_some() {
                    return Err(FieldError::new(
                        if raw.winning.is_some() {
                            "winning"
                        } else {
                            "decoy_weights"
                        },
                        "a legend's symbols are the winning ones and there is no box: leave \
                         this out",
                    ));
                }
                if legend.is_empty() {
                    return Err(FieldError::new("legend", "expected one or more symbols"));
                }
                let mut pay = vec![None; symbols.len()];
                for (s, &m) in &legend {
                    let c = code(s, &format!("legend.{s}"))?;
                    if m.is_zero() {
                        return Err(FieldError::new(
                            format!("legend.{s}"),
                            "expected an amount above 0",
                        ));
                    }
                    max_above(m, &format!("legend.{s}"))?;
                    pay[c] = Some(m);
                    winning[c] = true;
                }
                Pay::Legend(pay)
            }
            _ => {
                return Err(FieldError::new(
                    "box_amounts",
                    "give either box_amounts (an amount box) or legend (an amount per symbol)",
                ))
            }
        };
        let near_miss =
            common::share(raw.near_miss).map_err(|e| FieldError::new("near_miss", e))?;
        let windows = windows(rows, cols, k);
        let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
        let near_miss_name = match &raw.near_miss_feature {
            Some(id) => super::match_symbols::feature_id(id, "near_miss_feature")?,
            None => format!("near_miss_{area}"),
        };
        let mut layout = Layout::new(INFO.name, vec![area], Vec::new());
        let near_miss_id = layout.features.add(
            near_miss_name,
            FeatureKind::NearMiss,
            "a losing grid with a line one winning symbol short",
            "une grille perdante avec une ligne à un symbole gagnant près",
        );
        let special_amounts: Vec<Money> = match &pay {
            Pay::Box { gain, .. } => gain.amounts().to_vec(),
            Pay::Legend(p) => p.iter().flatten().copied().collect(),
        };
        let special::Parsed {
            specials,
            areas,
            inscriptions,
        } = Specials::parse(
            &raw.specials,
            &symbols,
            "symbols",
            &layout.areas,
            ctx.id,
            &special_amounts,
            ctx,
        )?;
        Self::check_specials(&specials, &pay, k)?;
        let decoy_multiplier = common::share(raw.decoy_multiplier)
            .map_err(|e| FieldError::new("decoy_multiplier", e))?;
        let decoys: Vec<(usize, FeatureId)> = specials
            .list()
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, SpecialKind::Multiplier(_)))
            .map(|(j, s)| {
                let id = layout.features.add(
                    format!("decoy_{}", style::symbol_id(&s.symbol)),
                    FeatureKind::Decoy,
                    format!("a losing grid with a {} that multiplies nothing", s.symbol),
                    format!(
                        "une grille perdante avec un {} qui ne multiplie rien",
                        s.symbol
                    ),
                );
                (j, id)
            })
            .collect();
        if decoy_multiplier > 0 && decoys.is_empty() {
            return Err(FieldError::new(
                "decoy_multiplier",
                "a decoy multiplier rate needs a multiplier among `specials`",
            ));
        }
        layout.areas = areas;
        layout.specials = specials.named(&layout.areas);
        winning.resize(symbols.len() + specials.list().len(), false);
        if raw.per_line && !matches!(pay, Pay::Legend(_)) {
            return Err(FieldError::new(
                "per_line",
                "a prize per line needs legend (each line pays its symbol's amount)",
            ));
        }
        if raw.per_line && windows.len() > MOST_WINDOWS {
            return Err(FieldError::new(
                "per_line",
                format!(
                    "a {rows}×{cols} grid has {} lines of {k}; paying per line takes at most \
                     {MOST_WINDOWS}",
                    windows.len()
                ),
            ));
        }
        let mut m = Lines {
            id: ctx.id.to_string(),
            layout,
            label: String::new(),
            rows,
            cols,
            k,
            n_symbols: symbols.len(),
            winning_bits: (0..symbols.len()).filter(|&s| winning[s]).fold(
                [0; common::MAX_SYMBOLS / 64],
                |mut b, s| {
                    b[s / 64] |= 1 << (s % 64);
                    b
                },
            ),
            winning,
            masks: windows.iter().map(|w| cell_bits(w)).collect(),
            through: (0..rows * cols)
                .map(|cell| {
                    (0..windows.len())
                        .filter(|&i| windows[i].contains(&(cell as u8)))
                        .map(|i| i as u8)
                        .collect()
                })
                .collect(),
            mates: (0..rows * cols)
                .map(|cell| {
                    let lines = windows.iter().filter(|w| w.contains(&(cell as u8)));
                    lines.fold(0, |m, w| m | cell_bits(w)) & !(1 << cell)
                })
                .collect(),
            windows,
            pay,
            per_line: raw.per_line,
            sets: Vec::new(),
            near_miss,
            near_miss_id,
            specials,
            beside: Vec::new(),
            decoy_multiplier,
            decoys,
        };
        if m.per_line {
            m.sets = (2..=MOST_LINES).map(|j| m.line_sets(j)).collect();
        }
        m.label = ctx.label(&m.layout.areas[0]).to_string();
        let need = m.worst_exclusions() + 1;
        if m.near_miss < 1_000_000 || !m.specials.is_empty() {
            let clean = m.worst_exclusions_no_near_miss() + 1;
            if symbols.len() < clean {
                return Err(FieldError::new(
                    "symbols",
                    format!(
                        "a {rows}×{cols} grid with lines of {k} needs at least {clean} symbols \
                         to fill a losing grid with no near miss (no line {} winning symbol \
                         short), got {}",
                        if k == 2 { "holding a" } else { "one" },
                        symbols.len()
                    ),
                ));
            }
        }
        if symbols.len() < need {
            return Err(FieldError::new(
                "symbols",
                format!(
                    "a {rows}×{cols} grid with lines of {k} needs at least {need} symbols to be \
                     filled with no other line, got {}",
                    symbols.len()
                ),
            ));
        }
        if !m.specials.is_empty() {
            let beside = m.worst_exclusions_beside_special() + 1;
            if symbols.len() < beside {
                return Err(FieldError::new(
                    "symbols",
                    format!(
                        "a {rows}×{cols} grid with lines of {k} needs at least {beside} symbols \
                         to be filled around a special symbol with no line, no near miss and \
                         no line one symbol short through it, got {}",
                        symbols.len()
                    ),
                ));
            }
        }
        if let Some(&(j, _)) = m.decoys.first() {
            m.beside = m.placements_beside();
            if m.beside[0].is_empty() {
                return Err(FieldError::new(
                    "specials",
                    format!(
                        "\"{}\" is a multiplier, and beside any line of {k} a {rows}×{cols} grid \
                         leaves it no cell off the lines the winning line nearly fills: a \
                         multiplier needs a larger grid",
                        m.specials.list()[j].symbol
                    ),
                ));
            }
            m.check_decoy_beside_near_miss()?;
        }
        let mut values = symbols.clone();
        values.extend(m.specials.list().iter().map(|s| s.symbol.clone()));
        for r in 1..=rows {
            for c in 1..=cols {
                m.layout.columns.push(Column {
                    name: format!("{}_r{r}c{c}", ctx.id),
                    kind: ColumnKind::Symbol,
                    values: values.clone(),
                    inscriptions: inscriptions.clone(),
                });
            }
        }
        if let Pay::Box { gain, .. } = &m.pay {
            m.layout
                .columns
                .push(gain.column(format!("{}_gain", ctx.id)));
            m.layout.columns.push(Column::caption(
                format!("{}_caption", ctx.id),
                rows * cols,
                ctx.captions,
            ));
        }
        Ok(m.with_layout())
    }

    fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The cells a multiplier may take beside the `placed` cells (a line, lines or a near
    /// miss): each free cell on no line whose other cells are all placed (the multiplier
    /// would stand in a full line or beside one of its windows: a wild?), and that leaves
    /// every other free cell closing fewer lines than there are symbols (so the fill always
    /// has a choice). Row-major order.
    fn multiplier_cells(&self, placed: &[bool]) -> ArrayVec<u8, MAX_GRID> {
        let n = self.cells();
        let placed = placed_bits(placed);
        (0..n)
            .filter(|&p| placed & 1 << p == 0)
            .filter(|&p| {
                let taken = placed | 1 << p;
                // Per cell, the lines whose last free cell it is (at most 210 lines of 2).
                let mut count = [0u8; MAX_GRID];
                for &w in &self.masks {
                    match w & !taken {
                        0 if w & 1 << p != 0 => return false,
                        0 => {}
                        free => count[63 - free.leading_zeros() as usize] += 1,
                    }
                }
                count[..n].iter().all(|&c| usize::from(c) < self.n_symbols)
            })
            .map(|p| p as u8)
            .collect()
    }

    /// The placements of winning lines beside which a multiplier has a cell, per number of
    /// lines (entry `n − 1`): every line of `k`, and per line every set of 2 or 3 lines
    /// [`Lines::line_sets`] keeps.
    fn placements_beside(&self) -> Vec<Vec<ArrayVec<u8, MOST_LINES>>> {
        let one = (0..self.windows.len()).map(|w| [w as u8].into_iter().collect());
        let mut all: Vec<Vec<ArrayVec<u8, MOST_LINES>>> = vec![one.collect()];
        all.extend(self.sets.iter().cloned());
        let n = self.cells();
        for sets in &mut all {
            sets.retain(|set| {
                let mut placed = [false; MAX_GRID];
                for &w in set {
                    for &c in &self.windows[w as usize] {
                        placed[c as usize] = true;
                    }
                }
                !self.multiplier_cells(&placed[..n]).is_empty()
            });
        }
        all
    }

    /// Refuses (field `decoy_multiplier`) a decoy share when a near miss, drawn at its own
    /// share on the same losing grid, may leave a multiplier no cell.
    fn check_decoy_beside_near_miss(&self) -> Result<(), FieldError> {
        if self.decoy_multiplier == 0 || self.near_miss == 0 {
            return Ok(());
        }
        let n = self.cells();
        for w in &self.windows {
            for &gap in w {
                let mut placed = [false; MAX_GRID];
                for &c in w.iter().filter(|&&c| c != gap) {
                    placed[c as usize] = true;
                }
                if self.multiplier_cells(&placed[..n]).is_empty() {
                    return Err(FieldError::new(
                        "decoy_multiplier",
                        format!(
                            "a losing {}×{} grid's near miss may leave a decoy multiplier no \
                             cell on no line one symbol short: give no decoy share, or no near \
                             miss",
                            self.rows, self.cols
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The multiplier whose decoy feature is `id`, if it is one.
    fn decoy(&self, id: FeatureId) -> Option<usize> {
        self.decoys.iter().find(|&&(_, d)| d == id).map(|&(j, _)| j)
    }

    /// The factor of special `j` if it is a multiplier.
    fn times(&self, j: usize) -> Option<u32> {
        match self.specials.list().get(j)?.kind {
            SpecialKind::Multiplier(t) => Some(t),
            _ => None,
        }
    }

    /// Refuses (field `specials`) what a special symbol cannot do on a grid: an auto-win in
    /// legend mode (no box), a win-all in box mode (no legend), a second auto-win, any
    /// special with lines of 2. (`special` refuses a multiplier with `times` below 2, one
    /// that multiplies every amount above the largest lot, and a second win-all.)
    fn check_specials(specials: &Specials, pay: &Pay, k: usize) -> Result<(), FieldError> {
        let err = |m: String| Err(FieldError::new("specials", m));
        let boxed = matches!(pay, Pay::Box { .. });
        let list = specials.list();
        for (j, sp) in list.iter().enumerate() {
            let s = &sp.symbol;
            let second_auto_win = list[..j].iter().any(|o| o.kind == SpecialKind::AutoWin);
            match sp.kind {
                SpecialKind::AutoWin if !boxed => {
                    return err(format!(
                        "\"{s}\" is an auto-win symbol, which wins the amount in the box, and \
                         this grid pays by its `legend`: an auto-win needs `box_amounts`; a \
                         symbol that wins every legend amount is a `win_all`"
                    ))
                }
                SpecialKind::WinAll if boxed => {
                    return err(format!(
                        "\"{s}\" is a win-all symbol, which wins every legend amount, and this \
                         grid pays by its box (`box_amounts`): a symbol that wins the box on \
                         its own is an `auto_win`"
                    ))
                }
                SpecialKind::AutoWin if second_auto_win => {
                    return err(format!(
                        "\"{s}\": at most one auto-win symbol, which wins the grid's box"
                    ))
                }
                _ if k == 2 => {
                    return err(format!(
                        "\"{s}\" beside one symbol would read as a line of 2 with a wild: \
                         special symbols need lines of 3 or more (`k`)"
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The special symbols `face` shows: (cell, special index), at most 8.
    fn specials_shown(&self, face: &Face) -> ArrayVec<(usize, usize), 8> {
        let mut out = ArrayVec::new();
        if self.specials.is_empty() {
            return out;
        }
        for cell in 0..self.cells() {
            if let Some((j, _)) = self.specials.get(face.codes[cell]) {
                if out.try_push((cell, j)).is_err() {
                    break;
                }
            }
        }
        out
    }

    /// What special `j` wins on `face`: the box's amount (auto-win) or every legend amount
    /// added up (win-all).
    fn special_amount(&self, face: &Face, j: usize) -> Money {
        match &self.pay {
            Pay::Box { gain, .. } => gain.amount(face.codes[self.cells()]),
            Pay::Legend(_) => {
                debug_assert_eq!(self.specials.list()[j].kind, SpecialKind::WinAll);
                self.legend_sum()
            }
        }
    }

    /// What a win-all symbol wins: every legend amount added up (0 in box mode, where a
    /// win-all is refused).
    fn legend_sum(&self) -> Money {
        match &self.pay {
            Pay::Legend(pay) => Money(pay.iter().flatten().map(|m| m.cents()).sum()),
            Pay::Box { .. } => Money(0),
        }
    }

    /// The most symbols one cell may have to exclude when a grid is filled around one
    /// special symbol (placed anywhere) with no near miss: the no-near-miss bans, and one
    /// symbol per line it closes, a line through the special included (whose other cells
    /// must not all show one symbol).
    fn worst_exclusions_beside_special(&self) -> usize {
        let n_win = self.winning.iter().filter(|&&w| w).count();
        let mut worst = 0;
        for p in 0..self.cells() {
            for cell in (0..self.cells()).filter(|&c| c != p) {
                let (mut win, mut complete) = (0, 0);
                for w in self.windows.iter().filter(|w| w.contains(&(cell as u8))) {
                    let m = w
                        .iter()
                        .filter(|&&c| (c as usize) < cell && c as usize != p)
                        .count();
                    win += m / (self.k - 2);
                    let last = w.iter().rev().find(|&&c| c as usize != p);
                    complete += usize::from(last == Some(&(cell as u8)));
                }
                worst = worst.max(win.min(n_win) + complete);
            }
        }
        worst
    }

    /// Per line: every set of `j` lines (window indices, ascending) on cells apart such
    /// that, placed, their cells complete no other line and every other cell closes fewer
    /// lines than there are symbols (so the fill always has a choice).
    fn line_sets(&self, j: usize) -> Vec<ArrayVec<u8, MOST_LINES>> {
        let n = self.cells();
        let mut out = Vec::new();
        let mut set: ArrayVec<u8, MOST_LINES> = ArrayVec::new();
        self.extend_sets(j, 0, &mut set, &mut out);
        out.retain(|set| {
            let mut placed = vec![false; n];
            for &w in set {
                for &c in &self.windows[w as usize] {
                    placed[c as usize] = true;
                }
            }
            let mut count = vec![0usize; n];
            for (i, w) in self.windows.iter().enumerate() {
                match w.iter().rev().find(|&&c| !placed[c as usize]) {
                    Some(&last) => count[last as usize] += 1,
                    None if !set.contains(&(i as u8)) => return false,
                    None => {}
                }
            }
            count.into_iter().max().unwrap_or(0) < self.n_symbols
        });
        out
    }

    /// Adds to `out` every extension of `set` to `j` lines on cells apart, from window
    /// `from` on.
    fn extend_sets(
        &self,
        j: usize,
        from: usize,
        set: &mut ArrayVec<u8, MOST_LINES>,
        out: &mut Vec<ArrayVec<u8, MOST_LINES>>,
    ) {
        if set.len() == j {
            out.push(set.clone());
            return;
        }
        for w in from..self.windows.len() {
            let apart = set.iter().all(|&o| {
                !self.windows[o as usize]
                    .iter()
                    .any(|c| self.windows[w].contains(c))
            });
            if apart {
                set.push(w as u8);
                self.extend_sets(j, w + 1, set, out);
                set.pop();
            }
        }
    }

    /// The most symbols one free cell may have to exclude, over every placement synthesis
    /// makes (none, a full line, a line less one cell): for each free cell, the lines whose
    /// last free cell (row-major) it is.
    fn worst_exclusions(&self) -> usize {
        let n = self.cells();
        let mut placements: Vec<Vec<bool>> = vec![vec![false; n]];
        for w in &self.windows {
            let mut full = vec![false; n];
            for &c in w {
                full[c as usize] = true;
            }
            placements.push(full.clone());
            for &gap in w {
                let mut p = full.clone();
                p[gap as usize] = false;
                placements.push(p);
            }
        }
        let mut worst = 0;
        for placed in &placements {
            let mut count = vec![0usize; n];
            for w in &self.windows {
                if let Some(&last) = w.iter().rev().find(|&&c| !placed[c as usize]) {
                    count[last as usize] += 1;
                }
            }
            worst = worst.max(count.into_iter().max().unwrap_or(0));
        }
        worst
    }

    /// The most symbols one cell may have to exclude when a losing grid is filled with no
    /// near miss (row by row, nothing placed): the winning symbols that a line through the
    /// cell already holds `k − 2` times (at most `m / (k − 2)` per line of `m` filled
    /// cells, every winning symbol when `k` is 2), and a symbol per line it completes.
    fn worst_exclusions_no_near_miss(&self) -> usize {
        let n_win = self.winning.iter().filter(|&&w| w).count();
        (0..self.cells())
            .map(|cell| {
                let (mut win, mut complete) = (0, 0);
                for w in self.windows.iter().filter(|w| w.contains(&(cell as u8))) {
                    let m = w.iter().filter(|&&c| (c as usize) < cell).count();
                    win += if self.k == 2 { n_win } else { m / (self.k - 2) };
                    complete += usize::from(m == self.k - 1);
                }
                win.min(n_win) + complete
            })
            .max()
            .unwrap_or(0)
    }

    /// Every line of `k` identical symbols on `face`: (window index, symbol); at most 8.
    fn lines(&self, face: &Face) -> ArrayVec<(usize, u8), 8> {
        let mut out = ArrayVec::new();
        let codes = &face.codes[..self.cells()];
        for (i, w) in self.windows.iter().enumerate() {
            let s = codes[w[0] as usize];
            if w[1..].iter().all(|&c| codes[c as usize] == s) && out.try_push((i, s)).is_err() {
                break;
            }
        }
        out
    }

    /// The first line holding `k − 1` of one winning symbol and another symbol: (window,
    /// symbol).
    fn near_miss_line(&self, face: &Face) -> Option<(usize, u8)> {
        self.near_miss_lines(face).next()
    }

    /// Every line holding `k − 1` of one winning symbol and another symbol, in window
    /// order: (window, symbol).
    fn near_miss_lines<'a>(&'a self, face: &'a Face) -> impl Iterator<Item = (usize, u8)> + 'a {
        let codes = &face.codes[..self.cells()];
        self.windows.iter().enumerate().filter_map(move |(i, w)| {
            let (a, b) = (codes[w[0] as usize], codes[w[1] as usize]);
            [a, b].into_iter().find_map(|s| {
                (self.winning[s as usize]
                    && w.iter().filter(|&&c| codes[c as usize] == s).count() == self.k - 1)
                    .then_some((i, s))
            })
        })
    }

    /// The amount a line of symbol `s` wins on `face`.
    fn line_amount(&self, face: &Face, s: u8) -> Money {
        match &self.pay {
            Pay::Box { gain, .. } => gain.amount(face.codes[self.cells()]),
            Pay::Legend(pay) => pay[s as usize].expect("a winning symbol"),
        }
    }

    /// The symbols a win of `amount` may be shown with.
    fn symbols_for(&self, amount: Money) -> ArrayVec<u8, 256> {
        match &self.pay {
            Pay::Box { gain, .. } => {
                if gain.code(amount).is_none() {
                    return ArrayVec::new();
                }
                (0..self.n_symbols)
                    .map(|s| s as u8)
                    .filter(|&s| self.winning[s as usize])
                    .collect()
            }
            Pay::Legend(pay) => (0..self.n_symbols)
                .map(|s| s as u8)
                .filter(|&s| pay[s as usize] == Some(amount))
                .collect(),
        }
    }

    /// Fills every cell not `placed` so that no line but the placed one is complete; with
    /// `no_near_miss`, also so that no line holds `k − 1` of one winning symbol (a winning
    /// symbol is barred from a cell when a line through it already holds `k − 2` of it).
    fn fill(&self, face: &mut Face, placed: &[bool], no_near_miss: bool, rng: &mut FaceRng) {
        let n = self.cells();
        let codes = &mut face.codes[..n];
        let placed = placed_bits(placed);
        // Bit `c`: cell `c` shows its symbol (placed, or filled before this one).
        let mut done = placed;
        for cell in 0..n {
            let bit = 1u64 << cell;
            if placed & bit != 0 {
                continue;
            }
            // The cells after this one (row-major).
            let later = !((bit << 1).wrapping_sub(1));
            // Bit `s`: symbol `s` is barred from the cell (every barred symbol is a play symbol,
            // below `n_symbols`).
            let mut banned = [0u64; common::MAX_SYMBOLS / 64];
            let mut ban = |s: u8| banned[usize::from(s) / 64] |= 1u64 << (s % 64);
            for &wi in &self.through[cell] {
                let w = &self.windows[wi as usize];
                // The line's last free cell is this one: its other cells must not all show
                // one symbol. A special symbol's cell counts as any symbol (it must not read
                // as a wild).
                if self.masks[wi as usize] & !placed & later == 0 {
                    let mut others = w
                        .iter()
                        .filter(|&&c| usize::from(c) != cell)
                        .map(|&c| codes[c as usize])
                        .filter(|&s| usize::from(s) < self.n_symbols);
                    let first = others.next().expect("k ≥ 3");
                    if others.all(|s| s == first) {
                        ban(first);
                    }
                }
                if !no_near_miss || self.k == 3 {
                    continue;
                }
                if self.k <= 2 {
                    // Any winning symbol would hold `k − 1` of a line with the cell.
                    for s in (0..self.n_symbols).filter(|&s| self.winning[s]) {
                        ban(s as u8);
                    }
                    continue;
                }
                // A winning symbol the line already holds `k − 2` times (filled cells).
                for &c in w.iter().filter(|&&c| done & 1 << c != 0) {
                    let s = codes[c as usize];
                    if self.winning_bits[usize::from(s) / 64] & 1 << (s % 64) != 0
                        && w.iter()
                            .filter(|&&d| done & 1 << d != 0 && codes[d as usize] == s)
                            .count()
                            + 2
                            >= self.k
                    {
                        ban(s);
                    }
                }
            }
            if no_near_miss && self.k == 3 {
                // With lines of 3, every winning symbol a line through the cell holds: those
                // of the filled cells that share a line with it.
                // A symbol that does not win is masked out, without a branch.
                let mut mates = self.mates[cell] & done;
                while mates != 0 {
                    let s = codes[mates.trailing_zeros() as usize];
                    let word = usize::from(s) / 64;
                    banned[word] |= self.winning_bits[word] & 1u64 << (s % 64);
                    mates &= mates - 1;
                }
            }
            let free = allowed(&banned, self.n_symbols);
            let left: u32 = free.iter().map(|f| f.count_ones()).sum();
            let r = below(rng, left);
            codes[cell] = nth_set(&free, r).expect("checked when the spec is loaded");
            done |= bit;
        }
    }
}

impl Lines {
    /// Shows multiplier `j` in a cell drawn evenly among [`Lines::multiplier_cells`] beside
    /// the `placed` cells (never none: checked when the spec is loaded).
    fn place_multiplier(
        &self,
        face: &mut Face,
        placed: &mut [bool; MAX_GRID],
        j: usize,
        rng: &mut FaceRng,
    ) {
        let cells = self.multiplier_cells(&placed[..self.cells()]);
        let p = usize::from(cells[below(rng, cells.len() as u32) as usize]);
        face.codes[p] = self.specials.list()[j].code;
        placed[p] = true;
    }

    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        if let Some(a) = way.wins.iter().find_map(|w| w.area.filter(|&a| a != 0)) {
            return self.check_special_way(way, a);
        }
        match way.wins.as_slice() {
            [] => Ok(()),
            [w] => {
                if self.symbols_for(w.amount).is_empty() {
                    return Err(Refusal::CannotWin {
                        area: self.id.clone(),
                        amount: w.amount,
                        can: match self.pay {
                            Pay::Box { .. } => "the amount is not one of its box_amounts",
                            Pay::Legend(_) => "the amount is no symbol's legend amount",
                        }
                        .into(),
                    });
                }
                Ok(())
            }
            wins if self.per_line && wins.len() <= MOST_LINES => {
                for w in wins {
                    self.check_way(&Way {
                        wins: vec![w.clone()],
                        ..way.clone()
                    })?;
                }
                if self.sets[wins.len() - 2].is_empty() {
                    return Err(Refusal::TooManyWins {
                        area: self.id.clone(),
                        wins: wins.len(),
                        most: 1 + self.sets.iter().take_while(|s| !s.is_empty()).count(),
                        why: "lines on cells apart, completing no other line",
                    });
                }
                Ok(())
            }
            _ => Err(Refusal::TooManyWins {
                area: self.id.clone(),
                wins: way.wins.len(),
                most: if self.per_line { MOST_LINES } else { 1 },
                why: if self.per_line {
                    "a way wins three lines at most"
                } else {
                    "one line"
                },
            }),
        }
    }

    /// A way with a win in play area `a` (not the grid's own): the area of a special, its
    /// only win, of an amount the special wins (one of `box_amounts` for an auto-win, every
    /// legend amount added up for a win-all); for a multiplier, see
    /// [`Lines::check_multiplied_way`].
    fn check_special_way(&self, way: &Way, a: u8) -> Result<(), Refusal> {
        let j = usize::from(a) - 1;
        if j >= self.specials.list().len() {
            return Err(Refusal::NoSuchArea { area: a });
        }
        if let Some(t) = self.times(j) {
            return self.check_multiplied_way(way, a, t);
        }
        let area = self.layout.areas[usize::from(a)].clone();
        if way.wins.len() > 1 {
            return Err(Refusal::TooManyWins {
                area,
                wins: way.wins.len(),
                most: 1,
                why: "a special symbol wins alone: the grid shows no line beside it",
            });
        }
        let amount = way.wins[0].amount;
        let can = match &self.pay {
            Pay::Box { gain, .. } => gain.code(amount).is_none().then(|| {
                format!(
                    "its box shows {}",
                    gain.amounts()
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }),
            Pay::Legend(_) => {
                let all = self.legend_sum();
                (amount != all).then(|| format!("it wins every legend amount added up, {all}"))
            }
        };
        match can {
            Some(can) => Err(Refusal::CannotWin { area, amount, can }),
            None => Ok(()),
        }
    }

    /// A way won through multiplier ×`t` (play area `a`): every win in `a`, each `t` times
    /// a line's amount (one of `box_amounts`, or a legend amount), as many lines as the
    /// grid may win (one, or up to three per line), placed so that the multiplier has a
    /// cell beside them.
    fn check_multiplied_way(&self, way: &Way, a: u8, t: u32) -> Result<(), Refusal> {
        let area = self.layout.areas[usize::from(a)].clone();
        let symbol = &self.specials.list()[usize::from(a) - 1].symbol;
        if let Some(w) = way.wins.iter().find(|w| w.area != Some(a)) {
            return Err(Refusal::CannotWin {
                area: self.layout.areas[usize::from(w.area.unwrap_or(0))].clone(),
                amount: w.amount,
                can: format!(
                    "beside {symbol} a grid wins in the multiplier's play area « {area} » only"
                ),
            });
        }
        let most = if self.per_line { MOST_LINES } else { 1 };
        if way.wins.len() > most {
            return Err(Refusal::TooManyWins {
                area,
                wins: way.wins.len(),
                most,
                why: if self.per_line {
                    "a way wins three lines at most"
                } else {
                    "one line"
                },
            });
        }
        for w in &way.wins {
            let line = SpecialKind::Multiplier(t).under(w.amount);
            if line.is_none_or(|m| self.symbols_for(m).is_empty()) {
                let amounts: std::collections::BTreeSet<Money> = match &self.pay {
                    Pay::Box { gain, .. } => gain.amounts().iter().copied().collect(),
                    Pay::Legend(pay) => pay.iter().flatten().copied().collect(),
                };
                let shown: Vec<String> = amounts.iter().map(|m| m.to_string()).collect();
                let place = match self.pay {
                    Pay::Box { .. } => "its box",
                    Pay::Legend(_) => "its legend",
                };
                return Err(Refusal::CannotWin {
                    area,
                    amount: w.amount,
                    can: SpecialKind::Multiplier(t).cannot_win(place, &shown.join(", ")),
                });
            }
        }
        if self.beside[way.wins.len() - 1].is_empty() {
            return Err(Refusal::NoCellBeside {
                area,
                symbol: symbol.clone(),
                grid: format!("{}×{} grid (lines of {})", self.rows, self.cols, self.k),
                wins: way.wins.len(),
                most: self.beside.iter().take_while(|s| !s.is_empty()).count(),
            });
        }
        Ok(())
    }

    fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), Refusal> {
        if self.decoy(id).is_none() {
            return self.near().can_show(way, id, &self.layout, &self.id);
        }
        let feature = self.layout.features.name(id).to_string();
        if self.decoy_multiplier == 0 {
            return Err(Refusal::ZeroRate {
                feature,
                area: self.id.clone(),
            });
        }
        if !way.wins.is_empty() {
            return Err(Refusal::NeedsLosing {
                feature,
                needs: format!("« {} » to lose", self.id),
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

    /// A face of `way`, drawn into `face`, whatever it held.
    fn draw(&self, way: &Way, show: Option<FeatureId>, rng: &mut FaceRng, face: &mut Face) {
        let n = self.cells();
        face.reset(self.layout.columns.len());
        let mut placed = [false; MAX_GRID];
        let special = way.wins.first().and_then(|w| w.area).filter(|&a| a != 0);
        let times = special.and_then(|a| self.times(usize::from(a) - 1));
        // The amount of the grid's (first) line: a multiplied win divided by its factor.
        let win = way.wins.first().map(|w| match times {
            Some(t) => Money(w.amount.cents() / u64::from(t)),
            None => w.amount,
        });
        let mut near = win.is_some();
        match win {
            Some(_) if times.is_some() => {
                let j = usize::from(special.expect("a special's area")) - 1;
                let t = u64::from(times.expect("a multiplier"));
                let sets = &self.beside[way.wins.len() - 1];
                let set = &sets[below(rng, sets.len() as u32) as usize];
                let order = pick_few::<MOST_LINES>(rng, set.len() as u32, set.len());
                for (w, &o) in way.wins.iter().zip(&order) {
                    let syms = self.symbols_for(Money(w.amount.cents() / t));
                    let s = syms[below(rng, syms.len() as u32) as usize];
                    for &c in &self.windows[set[o as usize] as usize] {
                        face.codes[c as usize] = s;
                        placed[c as usize] = true;
                    }
                }
                self.place_multiplier(face, &mut placed, j, rng);
            }
            Some(_) if special.is_some() => {
                let j = usize::from(special.expect("a special's area")) - 1;
                let cell = below(rng, n as u32) as usize;
                face.codes[cell] = self.specials.list()[j].code;
                placed[cell] = true;
                near = false;
            }
            Some(_) if way.wins.len() >= 2 => {
                let sets = &self.sets[way.wins.len() - 2];
                let set = &sets[below(rng, sets.len() as u32) as usize];
                let order = pick_few::<MOST_LINES>(rng, set.len() as u32, set.len());
                for (w, &o) in way.wins.iter().zip(&order) {
                    let syms = self.symbols_for(w.amount);
                    let s = syms[below(rng, syms.len() as u32) as usize];
                    for &c in &self.windows[set[o as usize] as usize] {
                        face.codes[c as usize] = s;
                        placed[c as usize] = true;
                    }
                }
            }
            Some(amount) => {
                let syms = self.symbols_for(amount);
                let w = &self.windows[below(rng, self.windows.len() as u32) as usize];
                let s = syms[below(rng, syms.len() as u32) as usize];
                for &c in w {
                    face.codes[c as usize] = s;
                    placed[c as usize] = true;
                }
            }
            None => {
                let asked_decoy = show.and_then(|id| self.decoy(id));
                near = (show.is_some() && asked_decoy.is_none()) || chance(rng, self.near_miss);
                if near {
                    let syms: ArrayVec<u8, 256> = (0..self.n_symbols)
                        .map(|s| s as u8)
                        .filter(|&s| self.winning[s as usize])
                        .collect();
                    let w = &self.windows[below(rng, self.windows.len() as u32) as usize];
                    let s = syms[below(rng, syms.len() as u32) as usize];
                    let gap = below(rng, self.k as u32) as usize;
                    for (i, &c) in w.iter().enumerate() {
                        if i != gap {
                            face.codes[c as usize] = s;
                            placed[c as usize] = true;
                        }
                    }
                }
                let decoy = match asked_decoy {
                    Some(j) => Some(j),
                    None if self.decoy_multiplier > 0 && chance(rng, self.decoy_multiplier) => {
                        let d = self.decoys.len();
                        Some(self.decoys[below(rng, d as u32) as usize].0)
                    }
                    None => None,
                };
                if let Some(j) = decoy {
                    self.place_multiplier(face, &mut placed, j, rng);
                }
            }
        }
        self.fill(face, &placed[..n], !near, rng);
        if let Pay::Box {
            gain,
            decoy_weights,
        } = &self.pay
        {
            let code = match win {
                Some(a) => gain.code(a).expect("checked when planned"),
                None => weighted(rng, decoy_weights) as u8,
            };
            gain.show(face, n, n + 1, code);
        }
    }
}

/// The presentation of the style, computed once by its constructor.
impl Lines {
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
        match &self.pay {
            Pay::Box { gain, .. } => gain.amounts().to_vec(),
            Pay::Legend(_) => Vec::new(),
        }
    }

    fn panels(&self) -> Vec<Panel> {
        let mut rows: Vec<Vec<usize>> = (0..self.rows)
            .map(|r| (r * self.cols..(r + 1) * self.cols).collect())
            .collect();
        if matches!(self.pay, Pay::Box { .. }) {
            rows.push(vec![self.cells()]);
        }
        vec![Panel {
            id: self.id.clone(),
            rows,
        }]
    }

    /// The pay legend the ticket prints: each winning symbol with its amount.
    fn printed(&self) -> Vec<super::Printed> {
        let mut entries: Vec<Phrase> = match &self.pay {
            Pay::Legend(amounts) => self.layout.columns[0]
                .values
                .iter()
                .zip(amounts)
                .filter_map(|(s, m)| {
                    m.map(|m| Phrase::Pays {
                        symbol: s.clone(),
                        amount: m.into(),
                    })
                })
                .collect(),
            Pay::Box { .. } => Vec::new(),
        };
        // Each special symbol's rule: a ticket that shows one prints what it does.
        let win_all = matches!(self.pay, Pay::Legend(_)).then(|| self.legend_sum());
        entries.extend(self.specials.phrases(win_all));
        // The rule first: a legend alone does not say the symbols must be in a line.
        let symbols = match &self.pay {
            Pay::Box { .. } => (0..self.n_symbols)
                .filter(|&s| self.winning[s])
                .map(|s| self.layout.columns[0].values[s].clone())
                .collect(),
            Pay::Legend(_) => Vec::new(),
        };
        let rule = Phrase::LineUp {
            count: self.k,
            symbols,
        };
        let mut lines = vec![crate::language::PrintedLine::of(vec![rule])];
        lines.extend(super::common::legend_lines(entries));
        if self.per_line {
            lines.push(crate::language::PrintedLine::of(vec![Phrase::EachLine]));
        }
        vec![super::Printed {
            panel: self.id.clone(),
            lines,
        }]
    }

    fn describe(&self) -> Vec<String> {
        let sym = &self.layout.columns[0].values;
        let win: Vec<&str> = (0..self.n_symbols)
            .filter(|&s| self.winning[s])
            .map(|s| sym[s].as_str())
            .collect();
        let grid = format!(
            "{} identical {{}} fill a row, a column or a diagonal of the {}×{} grid",
            self.k, self.rows, self.cols
        );
        let mut v = match &self.pay {
            Pay::Box { gain, .. } => vec![
                format!(
                    "« {} » wins the amount in its box when {}.",
                    self.label,
                    grid.replace("{}", &format!("winning symbols ({})", win.join(", ")))
                ),
                format!(
                    "Box amounts: {}; a losing grid's box shows a decoy.",
                    gain.amounts()
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ],
            Pay::Legend(pay) => vec![format!(
                "« {} » wins the legend amount of the symbol when {}: {}.",
                self.label,
                grid.replace("{}", "legend symbols"),
                (0..self.n_symbols)
                    .filter_map(|s| pay[s].map(|m| format!("{} {m}", sym[s])))
                    .collect::<Vec<_>>()
                    .join(", ")
            )],
        };
        if self.per_line {
            v.push(format!(
                "Every line of {} identical legend symbols pays its amount and the grid wins \
                 the sum (up to {MOST_LINES} lines); lines never share a cell.",
                self.k
            ));
        }
        v.push(format!(
            "A losing grid shows no line of {} identical symbols of any kind; a winning one \
             shows {}. Near miss {} (a line one winning symbol short) on {:.2}% of \
             losing grids; no other losing grid shows one.",
            self.k,
            if self.per_line {
                "the lines its way wins, no other"
            } else {
                "exactly one"
            },
            self.layout.features.name(self.near_miss_id),
            f64::from(self.near_miss) / 1e4
        ));
        for (j, sp) in self.specials.list().iter().enumerate() {
            let area = &self.layout.areas[usize::from(self.specials.area(j))];
            if let SpecialKind::Multiplier(t) = sp.kind {
                v.extend(self.describe_multiplier(j, &sp.symbol, t, area));
                continue;
            }
            v.push(match sp.kind {
                SpecialKind::WinAll => format!(
                    "A cell showing {} wins every legend amount, added up, once: {} (play area \
                     « {area} »).",
                    sp.symbol,
                    self.legend_sum()
                ),
                _ => format!(
                    "A cell showing {} wins the amount in the box, whatever the other cells \
                     show (play area « {area} »).",
                    sp.symbol
                ),
            });
            v.push(format!(
                "Only a face winning by it shows {}, in one cell, with no line on the grid \
                 and no near miss; it is no wild: no line through it holds {} of one symbol.",
                sp.symbol,
                self.k - 1
            ));
        }
        v
    }
}

impl Lines {
    /// `check`'s words for multiplier `j` (`symbol`, ×`t`, play area `area`).
    fn describe_multiplier(&self, j: usize, symbol: &str, t: u32, area: &str) -> Vec<String> {
        let win = match (&self.pay, self.per_line) {
            (Pay::Box { .. }, _) => format!("the amount in the box times {t}"),
            (Pay::Legend(_), false) => format!("the legend amount of the line's symbol times {t}"),
            (Pay::Legend(_), true) => format!("the sum of its lines times {t}"),
        };
        let code = usize::from(self.specials.list()[j].code);
        let shown = match self.layout.columns[0].inscriptions.get(code) {
            Some(c) if !c.is_empty() => format!("{symbol} (caption « {c} »)"),
            _ => symbol.to_string(),
        };
        let decoy = self.decoys.iter().find(|&&(d, _)| d == j);
        let losing = match decoy {
            Some(&(_, id)) if self.decoy_multiplier > 0 => format!(
                "on {:.2}% of losing grids it shows all the same and multiplies nothing \
                 (decoy {})",
                f64::from(self.decoy_multiplier) / 1e4,
                self.layout.features.name(id)
            ),
            _ => "no losing grid shows it".to_string(),
        };
        vec![
            format!(
                "A cell showing {shown} on a winning grid multiplies the grid's win by {t}: \
                 {win} (play area « {area} »). {symbol} is never part of a line."
            ),
            format!(
                "{symbol} shows in one cell, never beside another special symbol, and no line \
                 through it holds {} of one symbol (it is no wild); {losing}.",
                self.k - 1
            ),
        ]
    }
}

impl Style for Lines {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        Plan::of_checked_way(
            self,
            way,
            Self::check_way,
            Self::can_show,
            Self::always_shows,
            Self::draw,
        )
    }

    fn features(&self) -> Vec<FeatureId> {
        let mut v = self.near().features();
        if self.decoy_multiplier > 0 {
            v.extend(self.decoys.iter().map(|&(_, id)| id));
        }
        v
    }

    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        self.specials.check_ways(plans, &self.layout.areas)
    }

    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let mut out = Vec::new();
        let boxed = matches!(self.pay, Pay::Box { .. });
        let shown = self.specials_shown(face);
        let multiplied = shown.iter().all(|&(_, j)| self.times(j).is_some());
        if !multiplied {
            for &(cell, j) in &shown {
                let area = self.specials.area(j);
                out.push(Mark {
                    area,
                    column: cell,
                    kind: MarkKind::Win,
                });
                if boxed {
                    out.push(Mark {
                        area,
                        column: self.cells(),
                        kind: MarkKind::Win,
                    });
                }
            }
            return out;
        }
        // A grid's wins are in the multiplier's play area when it shows one.
        let area = shown.first().map_or(0, |&(_, j)| self.specials.area(j));
        let mut mark =
            |area: u8, column: usize, kind: MarkKind| out.push(Mark { area, column, kind });
        if !ev.wins.is_empty() {
            let lines = self.lines(face);
            let winning = lines.iter().filter(|&&(_, s)| self.winning[s as usize]);
            for &(wi, _) in winning.take(if self.per_line { MOST_LINES } else { 1 }) {
                for &c in &self.windows[wi] {
                    mark(area, c as usize, MarkKind::Win);
                }
            }
            for &(cell, _) in &shown {
                mark(area, cell, MarkKind::Win);
            }
            if boxed {
                mark(area, self.cells(), MarkKind::Win);
            }
        } else {
            let mut mark = |column: usize, kind: MarkKind| mark(0, column, kind);
            if self.decoys.iter().any(|&(_, id)| ev.shows(id)) {
                for &(cell, _) in &shown {
                    mark(cell, MarkKind::Decoy);
                }
            }
            if ev.shows(self.near_miss_id) {
                // Every line the rules count as a near miss, each cell marked once.
                let mut near = 0u64;
                for (wi, s) in self.near_miss_lines(face) {
                    for &c in &self.windows[wi] {
                        if face.codes[c as usize] == s && near & 1 << c == 0 {
                            near |= 1 << c;
                            mark(c as usize, MarkKind::NearMiss);
                        }
                    }
                }
            }
            if boxed {
                mark(self.cells(), MarkKind::Decoy);
            }
        }
        out
    }

    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let lines = self.lines(face);
        let shown = self.specials_shown(face);
        if !shown.is_empty() {
            if shown.iter().all(|&(_, j)| self.times(j).is_some()) {
                return self.evaluate_multiplied(face, &lines, &shown, ev);
            }
            return self.evaluate_special(face, &lines, &shown, ev);
        }
        if self.per_line {
            return self.evaluate_per_line(face, &lines, ev);
        }
        self.evaluate_lines(face, &lines, ev)
    }
}

impl Lines {
    /// A grid paying one line: the line of a winning symbol wins (the box's amount, or its
    /// legend amount); a grid with no line showing `k − 1` of a winning symbol in a line
    /// is the near miss. Two lines, and a line of a symbol that does not win, are flagged.
    /// Adds to `ev` (empty on entry).
    fn evaluate_lines(&self, face: &Face, lines: &[(usize, u8)], ev: &mut Evaluation) {
        if lines.len() >= 2 {
            ev.ambiguities.push(AMB_TWO_LINES);
        }
        if lines.iter().any(|&(_, s)| !self.winning[s as usize]) {
            ev.ambiguities.push(AMB_LOSING_LINE);
        }
        match lines.iter().find(|&&(_, s)| self.winning[s as usize]) {
            Some(&(_, s)) => ev.wins.push(AreaWin {
                area: 0,
                amount: self.line_amount(face, s),
            }),
            None => {
                if self.near_miss_line(face).is_some() {
                    ev.losing_features.push(AreaFeature {
                        area: 0,
                        id: self.near_miss_id,
                    });
                }
            }
        }
    }

    /// Whether a line through a special symbol's cell (`shown`: cell, special index) holds
    /// `k − 1` of one symbol in its other cells (the special would read as a wild).
    fn wild(&self, face: &Face, shown: &[(usize, usize)]) -> bool {
        self.windows.iter().any(|w| {
            let mut rest = w
                .iter()
                .map(|&c| face.codes[c as usize])
                .filter(|&s| usize::from(s) < self.n_symbols);
            let first = rest.next();
            w.iter()
                .any(|&c| shown.iter().any(|&(x, _)| x == c as usize))
                && first.is_some()
                && rest.clone().count() + 2 == self.k
                && rest.all(|s| Some(s) == first)
        })
    }

    /// A grid showing multipliers only (`shown`: cell, special index): judged as a grid
    /// without them (its lines and their flags), then every win of a grid that wins is
    /// multiplied by the (first) multiplier's factor, in its play area. On a grid that
    /// does not win the multiplier is its decoy (`decoy_<symbol>`), flagged
    /// ([`AMB_LONE_MULTIPLIER`]) when the spec gives decoys no share. Two multipliers, and a
    /// line through one whose other cells show one symbol, are flagged. Adds to `ev` (empty
    /// on entry).
    fn evaluate_multiplied(
        &self,
        face: &Face,
        lines: &[(usize, u8)],
        shown: &[(usize, usize)],
        ev: &mut Evaluation,
    ) {
        if self.per_line {
            self.evaluate_per_line(face, lines, ev);
        } else {
            self.evaluate_lines(face, lines, ev);
        }
        if shown.len() >= 2 {
            ev.ambiguities.push(AMB_SPECIAL_TWICE);
        }
        if self.wild(face, shown) {
            ev.ambiguities.push(AMB_SPECIAL_IN_LINE);
        }
        let j = shown[0].1;
        let t = u64::from(self.times(j).expect("a multiplier"));
        if ev.wins.is_empty() {
            match self.decoys.iter().find(|&&(d, _)| d == j) {
                Some(&(_, id)) if self.decoy_multiplier > 0 => {
                    let _ = ev.losing_features.try_push(AreaFeature { area: 0, id });
                }
                _ => ev.ambiguities.push(AMB_LONE_MULTIPLIER),
            }
        }
        for w in &mut ev.wins {
            w.area = self.specials.area(j);
            w.amount = Money(w.amount.cents() * t);
        }
    }

    /// A grid showing special symbols (`shown`: cell, special index): each wins in its play
    /// area; the lines of winning symbols beside one win too, and the face is flagged
    /// ([`AMB_SPECIAL_BESIDE`]), as are two specials and a line through one whose other
    /// cells show one symbol. No near miss is reported: the grid wins. Adds to `ev` (empty
    /// on entry).
    fn evaluate_special(
        &self,
        face: &Face,
        lines: &[(usize, u8)],
        shown: &[(usize, usize)],
        ev: &mut Evaluation,
    ) {
        if shown.len() >= 2 {
            ev.ambiguities.push(AMB_SPECIAL_TWICE);
        }
        if !lines.is_empty() {
            ev.ambiguities.push(AMB_SPECIAL_BESIDE);
        }
        if self.wild(face, shown) {
            ev.ambiguities.push(AMB_SPECIAL_IN_LINE);
        }
        // A multiplier beside an auto-win or a win-all is flagged above (two specials);
        // it multiplies nothing here.
        for &(_, j) in shown.iter().filter(|&&(_, j)| self.times(j).is_none()) {
            ev.wins.push(AreaWin {
                area: self.specials.area(j),
                amount: self.special_amount(face, j),
            });
        }
        let winning = lines.iter().filter(|&&(_, s)| self.winning[s as usize]);
        for &(_, s) in winning.take(if self.per_line { MOST_LINES } else { 1 }) {
            ev.wins.push(AreaWin {
                area: 0,
                amount: self.line_amount(face, s),
            });
        }
    }

    /// Per line: each line of a winning symbol pays its legend amount; lines sharing a
    /// cell and a line of a symbol that does not win are flagged. Adds to `ev` (empty on
    /// entry).
    fn evaluate_per_line(&self, face: &Face, lines: &[(usize, u8)], ev: &mut Evaluation) {
        if lines.iter().any(|&(_, s)| !self.winning[s as usize]) {
            ev.ambiguities.push(AMB_LOSING_LINE);
        }
        let shared = lines.iter().enumerate().any(|(i, &(a, _))| {
            lines[i + 1..]
                .iter()
                .any(|&(b, _)| self.windows[a].iter().any(|c| self.windows[b].contains(c)))
        });
        if shared {
            ev.ambiguities.push(AMB_SHARED_CELL);
        }
        for &(_, s) in lines.iter().filter(|&&(_, s)| self.winning[s as usize]) {
            ev.wins.push(AreaWin {
                area: 0,
                amount: self.line_amount(face, s),
            });
        }
        if ev.wins.is_empty() && self.near_miss_line(face).is_some() {
            ev.losing_features.push(AreaFeature {
                area: 0,
                id: self.near_miss_id,
            });
        }
    }
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(Lines::new(style::parse(table)?, ctx)?))
}

/// The lines style's entry in the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "lines",
    term: "tic-tac-toe (lines)",
    about: "A grid of symbols; the surface wins when k identical winning symbols fill a row, a \
            column or a diagonal: the amount in its box, or the legend amount of the symbol.",
    naive: "Any line of k identical symbols reads as a win, whatever the symbol, and two lines \
            as two wins: a losing face shows no line at all, a winning face exactly one.",
    columns: "{id}_r{row}c{col} row by row, then {id}_gain, {id}_caption (box mode)",
    params: &[
        Param {
            name: "rows",
            kind: "integer",
            default: None,
            about: "rows of the grid (1 to 8)",
        },
        Param {
            name: "cols",
            kind: "integer",
            default: None,
            about: "columns of the grid (1 to 8)",
        },
        Param {
            name: "k",
            kind: "integer",
            default: Some("the smaller of rows and cols"),
            about: "identical symbols in a line that wins",
        },
        Param {
            name: "symbols",
            kind: "array of strings, or { from, to, width }",
            default: None,
            about: "the symbols the grid shows; printed numbers may be given as a range, { from = 1, to = 9 }",
        },
        Param {
            name: "winning",
            kind: "array of strings",
            default: Some("every symbol"),
            about: "box mode: the symbols whose line wins",
        },
        Param {
            name: "box_amounts",
            kind: "array of amounts",
            default: Some("none (give this or legend)"),
            about: "box mode: the amounts the box may show (give this or legend)",
        },
        Param {
            name: "decoy_weights",
            kind: "table amount → weight",
            default: Some("none (needed with box_amounts)"),
            about: "box mode: weight of each amount in the box of a losing grid",
        },
        Param {
            name: "legend",
            kind: "table symbol → amount",
            default: Some("none (give this or box_amounts)"),
            about: "legend mode: the amount a line of each winning symbol wins (give this or box_amounts)",
        },
        Param {
            name: "per_line",
            kind: "boolean",
            default: Some("false"),
            about: "legend mode: every completed line pays its symbol's amount, the area wins \
                    the sum (ways name one win per line, up to 3)",
        },
        Param {
            name: "near_miss",
            kind: "share",
            default: Some("0"),
            about: "share of losing grids with a line one winning symbol short (exact: no other \
                    losing grid shows one)",
        },
        Param {
            name: "near_miss_feature",
            kind: "string",
            default: Some("\"near_miss_<area>\""),
            about: "the near miss's feature id (lowercase letters, digits, _)",
        },
        Param {
            name: "area",
            kind: "string",
            default: Some("the surface id"),
            about: "the play area's name, as ways' `areas` name it",
        },
        Param {
            name: "specials",
            kind: "array of tables",
            default: Some("none"),
            about: "special symbols a cell may show: `{ symbol = \"STAR\", kind = \
                    \"auto_win\" }` wins the box (box mode), `{ symbol = \"TOUT\", kind = \
                    \"win_all\" }` every legend amount added up (legend mode), each alone on a \
                    grid that wins by it (no line beside it); `{ symbol = \"2X\", kind = \
                    \"multiplier\", times = 2 }` multiplies a winning grid's win by 2 (never \
                    part of a line). Each wins in a play area of its own (`area`, default \
                    `{id}_{symbol}` in lower case) that ways name in `areas`; optional \
                    `caption`, printed under it. Lines of 3 or more.",
        },
        Param {
            name: "decoy_multiplier",
            kind: "share",
            default: Some("0"),
            about: "share of losing grids showing a multiplier, which multiplies nothing \
                    (feature decoy_<symbol>); with none, no losing grid shows one",
        },
    ],
    example: r#"[[surfaces]]
style = "lines"
id = "morpion"
rows = 3
cols = 3
symbols = ["ETOILE", "LUNE", "SOLEIL", "COEUR", "TREFLE"]
winning = ["ETOILE"]
box_amounts = [2, 5, 20]
near_miss = 0.3
[surfaces.decoy_weights]
"2" = 3
"5" = 2
"20" = 1
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        captions, count_showing, drawn_twice, features_as_asked, judge_any_faces, round_trip,
        round_trip_showing, way, way_in, Ctx,
    };
    use crate::styles::testkit::{printed_text, Planning, Tested};
    use rand_core::SeedableRng;

    /// The near miss's feature id on surface `m` (area `m`).
    const NEAR_MISS: &str = "near_miss_m";

    const BOX: &str = "rows = 3\ncols = 3\nsymbols = [\"X\", \"O\", \"A\", \"B\", \"C\"]\n\
        winning = [\"X\"]\nbox_amounts = [2, 5, 20]\nnear_miss = 0.3\n\
        decoy_weights = { \"2\" = 3, \"5\" = 2, \"20\" = 1 }\n";
    const LEGEND: &str = "rows = 4\ncols = 4\nk = 3\n\
        symbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\", \"E\", \"F\", \"G\"]\n\
        legend = { X = 20, O = 5, A = 5 }\nnear_miss = 0.5\n";

    fn make(text: &str) -> Result<Arc<Lines>, FieldError> {
        let ctx = Ctx::new("m")
            .captions(captions(&[2, 5, 20]))
            .label("m", "Morpion");
        Lines::new(style::parse(toml::from_str(text).unwrap())?, &ctx.get()).map(Arc::new)
    }

    /// Why `m` refuses way `w` ([`Lines::check_way`]), as said.
    fn way_refused(m: &Lines, w: Way) -> String {
        m.check_way(&w).unwrap_err().to_string()
    }

    /// Why `m` refuses its ways once each of `ways` is planned ([`Lines::check_ways`]: a
    /// special no way wins by), as said.
    fn ways_refused(m: &Arc<Lines>, ways: &[Way]) -> String {
        let plans: Vec<Plan> = ways
            .iter()
            .map(|w| Arc::clone(m).plan(w).unwrap())
            .collect();
        m.check_ways(&plans.iter().collect::<Vec<_>>())
            .unwrap_err()
            .to_string()
    }

    /// The last two sentences of `m`'s description: those of its special symbol.
    fn special_words(m: &Lines) -> Vec<String> {
        let d = m.describe();
        d[d.len() - 2..].to_vec()
    }

    /// The field and the message of the refusal of surface `text` ([`make`]).
    fn make_refused(text: &str) -> (String, String) {
        let e = make(text).err().unwrap();
        (e.field, e.message)
    }

    /// A 3×3 box-mode face from its rows of symbols and its box amount.
    fn face(m: &Lines, grid: [&str; 3], amount: u64) -> Face {
        let mut f = Face::default();
        for (r, row) in grid.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                f.codes[r * 3 + c] = m.layout.columns[0]
                    .values
                    .iter()
                    .position(|v| v == &ch.to_string())
                    .unwrap() as u8;
            }
        }
        if let Pay::Box { gain, .. } = &m.pay {
            gain.show(&mut f, 9, 10, gain.code(Money(amount * 100)).unwrap());
        }
        f
    }

    #[test]
    fn lines_are_rows_columns_and_diagonals() {
        assert_eq!(windows(3, 3, 3).len(), 8);
        // 4×4 with k = 3: 8 per direction for rows and columns, 4 per diagonal direction.
        assert_eq!(windows(4, 4, 3).len(), 24);
        let m = make(BOX).unwrap();
        assert_eq!(m.layout.columns.len(), 11);
        assert_eq!(m.layout.columns[0].name, "m_r1c1");
        assert_eq!(m.layout.columns[8].name, "m_r3c3");
        assert_eq!(m.layout.columns[9].name, "m_gain");
        assert_eq!(m.worst_exclusions(), 3);
    }

    /// What a grid prints: the rule of a line first (a legend alone does not say the
    /// symbols must be in a line), then the legend and every special symbol's rule.
    #[test]
    fn a_grid_prints_its_line_rule_and_its_special_symbols() {
        let printed = |m: &Lines| printed_text(&m.printed(), crate::language::Language::En);
        let star = "specials = [{ symbol = \"STAR\", kind = \"auto_win\" }]\n";
        let m = make(&format!("{BOX}{star}")).unwrap();
        assert_eq!(
            printed(&m),
            [
                "Line up 3 X (row, column or diagonal): win the amount in the box",
                "STAR = instant win"
            ]
        );
        let all = "specials = [{ symbol = \"ALL\", kind = \"win_all\" }]\n";
        let m = make(&format!("{LEGEND}{all}")).unwrap();
        assert_eq!(
            printed(&m),
            [
                "Line up 3 identical symbols (row, column or diagonal): win the symbol's amount",
                "X = €20 · O = €5 · A = €5",
                "ALL = €30"
            ]
        );
    }

    #[test]
    fn hand_made_faces_are_judged_by_the_rule() {
        let m = make(BOX).unwrap();
        // A diagonal of X wins the box.
        let ev = m.evaluate(&face(&m, ["XOA", "BXC", "OAX"], 5));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(500)
            }]
        );
        assert!(ev.ambiguities.is_empty());
        // No line: loses; X X on the top row with O is a near miss.
        let ev = m.evaluate(&face(&m, ["XXO", "BAC", "OCB"], 20));
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.is_empty());
        assert!(m.shows(&ev, NEAR_MISS));
        // A column of O: loses by the letter, reads as a win.
        let ev = m.evaluate(&face(&m, ["OXA", "OBC", "OAX"], 2));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, vec![AMB_LOSING_LINE]);
        // Two lines of X.
        let ev = m.evaluate(&face(&m, ["XXX", "XBC", "XAO"], 2));
        assert_eq!(ev.wins.len(), 1);
        assert_eq!(ev.ambiguities, vec![AMB_TWO_LINES]);
    }

    #[test]
    fn legend_pays_the_lines_symbol() {
        let m = make(LEGEND).unwrap();
        assert_eq!(m.layout.columns.len(), 16);
        assert!(m.shown_amounts().is_empty());
        let w = way(&[5]);
        for seed in 0..50u64 {
            let f = m.synthesize(&w, &mut FaceRng::seed_from_u64(seed)).unwrap();
            let lines = m.lines(&f);
            assert_eq!(lines.len(), 1);
            assert!(["O", "A"].contains(&m.layout.columns[0].values[lines[0].1 as usize].as_str()));
        }
        let e = m.check_way(&way(&[2])).unwrap_err();
        assert!(matches!(
            e,
            Refusal::CannotWin {
                amount: Money(200),
                ..
            }
        ));
        assert!(e.to_string().contains("legend"), "{e}");
        assert!(
            m.describe()[0].contains("X 20, O 5, A 5"),
            "{:?}",
            m.describe()
        );
    }

    #[test]
    fn every_way_round_trips_and_losers_show_no_line() {
        for text in [BOX, LEGEND] {
            let m = make(text).unwrap();
            let ways: Vec<Way> = if text == BOX {
                vec![way(&[]), way(&[2]), way(&[5]), way(&[20])]
            } else {
                vec![way(&[]), way(&[5]), way(&[20])]
            };
            for w in &ways {
                for (seed, f, _) in round_trip(&m, w, 0..300) {
                    assert_eq!(m.lines(&f).len(), w.wins.len(), "{} seed {seed}", w.id);
                }
            }
        }
    }

    #[test]
    fn near_miss_when_asked_and_at_its_rate() {
        let m = make(BOX).unwrap();
        // Two lines of two X (row 1 and column 1 share the corner): all three cells marked.
        let f = face(&m, ["XXO", "XAB", "OBA"], 2);
        let ev = m.evaluate(&f);
        assert!(ev.shows(m.near_miss_id));
        let near: Vec<usize> = m
            .marks(&f, &ev)
            .iter()
            .filter(|k| k.kind == MarkKind::NearMiss)
            .map(|k| k.column)
            .collect();
        assert_eq!(near, [0, 1, 3]);
        for (seed, f, ev) in round_trip_showing(&m, &way(&[]), NEAR_MISS, 0..200) {
            let marks = m.marks(&f, &ev);
            let near = marks.iter().filter(|k| k.kind == MarkKind::NearMiss);
            assert!(near.count() >= 2, "seed {seed}");
        }
        assert!(matches!(
            m.can_show_why(&way(&[2]), NEAR_MISS),
            Err(Refusal::NeedsLosing { .. })
        ));
    }

    /// Losing faces of `text` with `near_miss = rate` showing the near miss, out of `n`.
    fn near_misses(text: &str, rate: &str, n: usize) -> usize {
        let t = text.replace("near_miss = 0.3", &format!("near_miss = {rate}"));
        let t = t.replace("near_miss = 0.5", &format!("near_miss = {rate}"));
        let m = make(&t).unwrap();
        count_showing(&m, &way(&[]), NEAR_MISS, n, 11)
    }

    #[test]
    fn the_near_miss_rate_is_the_spec_s() {
        // 2 000 losing faces: a near miss is drawn with probability r and the fill makes
        // none, so the count is binomial(2000, r); 4 standard deviations around 2000 r
        // (r = 0.2: ±72, r = 0.5: ±90) hold it (the seed is fixed: no flakiness either).
        for text in [BOX, LEGEND] {
            assert_eq!(near_misses(text, "0", 2000), 0);
            assert_eq!(near_misses(text, "1.0", 300), 300);
            let n = near_misses(text, "0.2", 2000);
            assert!((400 - 72..=400 + 72).contains(&n), "{n}");
            let n = near_misses(text, "0.5", 2000);
            assert!((1000 - 90..=1000 + 90).contains(&n), "{n}");
        }
        // k = 2: a losing grid with no near miss shows no winning symbol at all.
        let pairs =
            "rows = 2\ncols = 3\nk = 2\nsymbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\"]\n\
            legend = { X = 5 }\nnear_miss = 0.3\n";
        assert_eq!(near_misses(pairs, "0", 2000), 0);
        let n = near_misses(pairs, "0.2", 2000);
        assert!((400 - 72..=400 + 72).contains(&n), "{n}");
        // k = 4: a winning symbol is barred from a cell by a line through it holding two.
        let fours =
            "rows = 4\ncols = 4\nk = 4\nsymbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\"]\n\
            legend = { X = 5, O = 20 }\nnear_miss = 0.3\n";
        assert_eq!(near_misses(fours, "0", 2000), 0);
        let n = near_misses(fours, "0.2", 2000);
        assert!((400 - 72..=400 + 72).contains(&n), "{n}");
    }

    #[test]
    fn feature_ids_are_per_play_area_or_named_by_the_spec() {
        let m = make(BOX).unwrap();
        assert_eq!(m.features()[0].name, "near_miss_m");
        let m = make(&format!("{BOX}area = \"jeu2\"\n")).unwrap();
        assert_eq!(m.features()[0].name, "near_miss_jeu2");
        let m = make(&format!("{BOX}near_miss_feature = \"near_miss_morpion\"\n")).unwrap();
        assert_eq!(m.features()[0].name, "near_miss_morpion");
        round_trip_showing(&m, &way(&[]), "near_miss_morpion", 3..4);
        assert_eq!(
            m.can_show_why(&way(&[]), NEAR_MISS),
            Err(Refusal::NoFeature {
                style: "lines",
                feature: NEAR_MISS.into()
            })
        );
        let bad = format!("{BOX}near_miss_feature = \"Near Miss\"\n");
        assert_eq!(make(&bad).err().unwrap().field, "near_miss_feature");
    }

    /// The symbols of a grid that builds.
    fn m_ok(text: &str) -> usize {
        make(text).unwrap().n_symbols
    }

    #[test]
    fn infeasible_grids_and_ways_are_refused() {
        let few = BOX.replace("\"A\", \"B\", \"C\"", "\"A\"");
        assert_eq!(make(&few).err().unwrap().field, "symbols");
        // 4 symbols close every line of a 3×3 grid, but a losing grid with no near miss also
        // bars X from the last cell: 5 are needed unless every losing grid is a near miss.
        let four = BOX.replace("\"A\", \"B\", \"C\"", "\"A\", \"B\"");
        let e = make(&four).err().unwrap();
        assert_eq!(e.field, "symbols");
        assert!(e.message.contains("at least 5 symbols"), "{}", e.message);
        assert_eq!(m_ok(&four.replace("near_miss = 0.3", "near_miss = 1.0")), 4);
        let both = format!("{BOX}legend = {{ X = 2 }}\n");
        assert_eq!(make(&both).err().unwrap().field, "box_amounts");
        let neither = "rows = 3\ncols = 3\nsymbols = [\"X\", \"O\", \"A\", \"B\"]\n";
        assert_eq!(make(neither).err().unwrap().field, "box_amounts");
        let m = make(BOX).unwrap();
        assert!(matches!(
            m.check_way(&way(&[2, 2])),
            Err(Refusal::TooManyWins {
                wins: 2,
                most: 1,
                ..
            })
        ));
        assert!(matches!(
            m.check_way(&way(&[3])),
            Err(Refusal::CannotWin {
                amount: Money(300),
                ..
            })
        ));
    }

    #[test]
    fn same_seed_same_face() {
        let m = make(BOX).unwrap();
        let f = drawn_twice(&m, &way(&[5]), 42);
        assert_eq!(&f.codes[..11], &VECTOR[..]);
    }

    /// Face codes for seed 42, way 5 (value stability).
    const VECTOR: [u8; 11] = [0, 3, 2, 0, 0, 1, 4, 0, 0, 1, 1];

    #[test]
    fn any_face_of_the_columns_dictionaries_is_judged_without_panic() {
        for text in [BOX, LEGEND] {
            let m = make(text).unwrap();
            for ev in judge_any_faces(&m, 2000) {
                assert!(
                    ev.wins.len() <= m.layout.areas.len(),
                    "{text}: {:?}",
                    ev.wins
                );
            }
        }
    }

    /// A 4×4 grid with lines of 3 paying every line.
    const PER_LINE: &str = "rows = 4\ncols = 4\nk = 3\n\
        symbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\", \"E\", \"F\", \"G\"]\n\
        legend = { X = 20, O = 5, A = 5 }\nper_line = true\nnear_miss = 0.5\n";

    /// A 4×4 face from its rows of symbols.
    fn face4(m: &Lines, grid: [&str; 4]) -> Face {
        let mut f = Face::default();
        for (r, row) in grid.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                f.codes[r * 4 + c] = m.layout.columns[0]
                    .values
                    .iter()
                    .position(|v| v == &ch.to_string())
                    .unwrap() as u8;
            }
        }
        f
    }

    #[test]
    fn per_line_every_line_pays_and_the_grid_wins_the_sum() {
        let m = make(PER_LINE).unwrap();
        // X on row 1, O on row 3: 20 + 5.
        let ev = m.evaluate(&face4(&m, ["XXXB", "BCDE", "OOOF", "GBCD"]));
        assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
        assert_eq!(ev.prize(), Money(2500));
        assert_eq!(ev.wins.len(), 2);
        // Four X in a row hold two lines of 3 sharing cells: one win or two?
        let ev = m.evaluate(&face4(&m, ["XXXX", "BCDE", "FGBC", "DEFG"]));
        assert_eq!(ev.ambiguities, vec![AMB_SHARED_CELL]);
        // A line of B does not pay and reads as a win.
        let ev = m.evaluate(&face4(&m, ["XXXC", "BBBE", "FGAC", "DEFG"]));
        assert_eq!(ev.ambiguities, vec![AMB_LOSING_LINE]);
        let legend: Vec<String> = m.printed()[0]
            .lines
            .iter()
            .map(|l| crate::language::Language::En.line(l, "EUR"))
            .collect();
        assert_eq!(
            legend,
            [
                "Line up 3 identical symbols (row, column or diagonal): win the symbol's amount",
                "X = €20 · O = €5 · A = €5",
                "Each winning line pays: the wins add up"
            ]
        );
        assert!(m.describe().join(" ").contains("wins the sum"));
        for amounts in [&[][..], &[20], &[5], &[20, 5], &[5, 5], &[20, 20, 5]] {
            let w = way(amounts);
            m.check_way(&w).unwrap();
            for (seed, f, ev) in round_trip(&m, &w, 0..200) {
                assert_eq!(m.lines(&f).len(), amounts.len(), "seed {seed}");
                if !amounts.is_empty() {
                    assert_eq!(m.marks(&f, &ev).len(), 3 * amounts.len(), "seed {seed}");
                }
            }
        }
        round_trip_showing(&m, &way(&[]), NEAR_MISS, 0..100);
        assert!(matches!(
            m.check_way(&way(&[5, 5, 5, 5])),
            Err(Refusal::TooManyWins { most: 3, .. })
        ));
        // A 3×3 grid: two lines on cells apart (two rows) complete no third one.
        let small = make(
            "rows = 3\ncols = 3\nsymbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\"]\n\
             legend = { X = 20, O = 5 }\nper_line = true\n",
        )
        .unwrap();
        assert!(!small.sets[0].is_empty());
        round_trip(&small, &way(&[20, 5]), 0..100);
        // Three lines of 3 on cells apart fill the grid: never.
        assert!(small.sets[1].is_empty());
        assert!(matches!(
            small.check_way(&way(&[5, 5, 5])),
            Err(Refusal::TooManyWins { most: 2, .. })
        ));
        // Per line needs a legend.
        assert_eq!(
            make(&format!("{BOX}per_line = true\n"))
                .err()
                .unwrap()
                .field,
            "per_line"
        );
    }

    /// BOX with a star that wins the box (play areas m, m_s), one more symbol to fill
    /// around it.
    const STAR: &str = "rows = 3\ncols = 3\nsymbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\"]\n\
        winning = [\"X\"]\nbox_amounts = [2, 5, 20]\nnear_miss = 0.3\n\
        decoy_weights = { \"2\" = 3, \"5\" = 2, \"20\" = 1 }\n\
        specials = [{ symbol = \"S\", kind = \"auto_win\", caption = \"GAGNE\" }]\n";
    /// LEGEND with a TOUT that wins every legend amount, 30 (play areas m, m_t).
    const TOUT: &str = "rows = 4\ncols = 4\nk = 3\n\
        symbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\", \"E\", \"F\", \"G\"]\n\
        legend = { X = 20, O = 5, A = 5 }\nnear_miss = 0.5\n\
        specials = [{ symbol = \"T\", kind = \"win_all\" }]\n";

    /// (play area, whole units) of each win.
    fn wins(ev: &Evaluation) -> Vec<(u8, u64)> {
        ev.wins
            .iter()
            .map(|w| (w.area, w.amount.cents() / 100))
            .collect()
    }

    #[test]
    fn special_symbols_have_their_area_code_and_caption() {
        let m = make(STAR).unwrap();
        assert_eq!(m.layout.areas, ["m", "m_s"]);
        assert_eq!(
            m.layout.columns[0].values,
            ["X", "O", "A", "B", "C", "D", "S"]
        );
        assert_eq!(
            m.layout.columns[8].inscriptions,
            ["", "", "", "", "", "", "GAGNE"]
        );
        assert_eq!(m.layout.columns[9].values.len(), 3);
        assert_eq!(
            special_words(&m),
            [
                "A cell showing S wins the amount in the box, whatever the other cells show \
                 (play area « m_s »).",
                "Only a face winning by it shows S, in one cell, with no line on the grid and \
                 no near miss; it is no wild: no line through it holds 2 of one symbol."
            ]
        );
        let m = make(TOUT).unwrap();
        assert_eq!(m.layout.areas, ["m", "m_t"]);
        assert!(m.layout.columns[0].inscriptions.is_empty());
        assert_eq!(
            special_words(&m)[0],
            "A cell showing T wins every legend amount, added up, once: 30 (play area « m_t »)."
        );
        // Without specials: the symbols alone.
        assert_eq!(make(BOX).unwrap().layout.columns[0].values.len(), 5);
    }

    #[test]
    fn an_auto_win_wins_the_box_alone_and_is_no_wild() {
        let m = make(STAR).unwrap();
        let f = face(&m, ["SOA", "BXC", "OAB"], 5);
        let ev = m.evaluate(&f);
        assert_eq!(wins(&ev), [(1, 5)]);
        assert!(ev.ambiguities.is_empty());
        assert!(ev.losing_features.is_empty());
        let marks: Vec<(u8, usize, MarkKind)> = m
            .marks(&f, &ev)
            .into_iter()
            .map(|k| (k.area, k.column, k.kind))
            .collect();
        assert_eq!(marks, [(1, 0, MarkKind::Win), (1, 9, MarkKind::Win)]);
        // Beside a line of X the box would be paid once or twice.
        let ev = m.evaluate(&face(&m, ["SOA", "XXX", "OAB"], 20));
        assert_eq!(wins(&ev), [(1, 20), (0, 20)]);
        assert_eq!(ev.ambiguities, [AMB_SPECIAL_BESIDE]);
        // Two stars.
        let ev = m.evaluate(&face(&m, ["SOA", "BXC", "OAS"], 2));
        assert_eq!(wins(&ev), [(1, 2), (1, 2)]);
        assert_eq!(ev.ambiguities, [AMB_SPECIAL_TWICE]);
        // S X X, or S O O: the star would read as a wild completing the row.
        for row in ["SXX", "SOO"] {
            let ev = m.evaluate(&face(&m, [row, "BAC", "OCB"], 2));
            assert_eq!(wins(&ev), [(1, 2)]);
            assert_eq!(ev.ambiguities, [AMB_SPECIAL_IN_LINE], "{row}");
        }
    }

    #[test]
    fn a_win_all_wins_every_legend_amount_once() {
        let m = make(TOUT).unwrap();
        let ev = m.evaluate(&face4(&m, ["TXOB", "BCDE", "OXFA", "GBCD"]));
        assert_eq!(wins(&ev), [(1, 30)]);
        assert!(ev.ambiguities.is_empty());
        let ev = m.evaluate(&face4(&m, ["TXOB", "BCDE", "OOOA", "GBCD"]));
        assert_eq!(wins(&ev), [(1, 30), (0, 5)]);
        assert_eq!(ev.ambiguities, [AMB_SPECIAL_BESIDE]);
    }

    #[test]
    fn ways_through_special_symbols_round_trip() {
        for (text, ways) in [
            (
                STAR,
                vec![
                    way_in(&[(Some(1), 2)]),
                    way_in(&[(Some(1), 20)]),
                    way(&[5]),
                    way(&[]),
                ],
            ),
            (TOUT, vec![way_in(&[(Some(1), 30)]), way(&[20]), way(&[])]),
        ] {
            let m = make(text).unwrap();
            let code = m.specials.list()[0].code;
            for w in &ways {
                m.check_way(w).unwrap();
                let by = w.wins.iter().any(|x| x.area == Some(1));
                for (seed, f, ev) in round_trip(&m, w, 0..300) {
                    let shown = f.codes[..m.cells()].iter().filter(|&&c| c == code);
                    assert_eq!(shown.count(), usize::from(by), "seed {seed}");
                    if by {
                        assert!(m.lines(&f).is_empty(), "seed {seed}");
                        assert!(m.near_miss_line(&f).is_none(), "seed {seed}");
                        assert!(ev.ambiguities.is_empty(), "seed {seed}");
                    }
                }
                features_as_asked(&m, w, 0..30);
            }
        }
    }

    #[test]
    fn ways_special_symbols_cannot_carry_are_refused() {
        let m = make(STAR).unwrap();
        let refused = |w: Way| way_refused(&m, w);
        assert_eq!(
            refused(way_in(&[(Some(1), 3)])),
            "« m_s » cannot win 3: its box shows 2, 5, 20"
        );
        assert_eq!(
            refused(way_in(&[(Some(1), 2), (None, 5)])),
            "2 wins, but « m_s » shows at most 1 at once (a special symbol wins alone: the \
             grid shows no line beside it)"
        );
        assert_eq!(
            m.check_way(&way_in(&[(Some(2), 2)])),
            Err(Refusal::NoSuchArea { area: 2 })
        );
        let m = make(TOUT).unwrap();
        assert_eq!(
            way_refused(&m, way_in(&[(Some(1), 20)])),
            "« m_t » cannot win 20: it wins every legend amount added up, 30"
        );
        // A special no way wins by never shows: refused once every way is planned.
        assert_eq!(
            ways_refused(&m, &[way(&[20]), way(&[])]),
            "specials (\"T\") never applies: no way wins in its play area « m_t » (`areas`), \
             so no face shows it"
        );
    }

    #[test]
    fn special_symbols_that_cannot_work_are_refused_naming_the_field() {
        let refused = |text: &str| {
            let (field, message) = make_refused(text);
            assert_eq!(field, "specials", "{message}");
            message
        };
        assert_eq!(
            refused(&TOUT.replace("win_all", "auto_win")),
            "\"T\" is an auto-win symbol, which wins the amount in the box, and this grid pays \
             by its `legend`: an auto-win needs `box_amounts`; a symbol that wins every legend \
             amount is a `win_all`"
        );
        assert_eq!(
            refused(&STAR.replace("auto_win", "win_all")),
            "\"S\" is a win-all symbol, which wins every legend amount, and this grid pays by \
             its box (`box_amounts`): a symbol that wins the box on its own is an `auto_win`"
        );
        assert_eq!(
            refused(&STAR.replace(
                "caption = \"GAGNE\" }",
                "caption = \"GAGNE\" }, { symbol = \"M\", kind = \"auto_win\" }"
            )),
            "\"M\": at most one auto-win symbol, which wins the grid's box"
        );
        assert_eq!(
            refused(&TOUT.replace("k = 3", "k = 2")),
            "\"T\" beside one symbol would read as a line of 2 with a wild: special symbols \
             need lines of 3 or more (`k`)"
        );
        // Four symbols fill a grid where every losing grid is a near miss, not the grid
        // around a star, which shows no near miss.
        let four = STAR
            .replace(", \"C\", \"D\"]", "]")
            .replace("near_miss = 0.3", "near_miss = 1.0");
        assert_eq!(m_ok(&four.replace("specials", "# specials")), 4);
        let e = make(&four).err().unwrap();
        assert_eq!(e.field, "symbols");
        assert_eq!(
            e.message,
            "a 3×3 grid with lines of 3 needs at least 5 symbols to fill a losing grid with no \
             near miss (no line one winning symbol short), got 4"
        );
    }

    /// BOX with a ×2 multiplier M (play areas m, m_m) that shows on 20 % of losing grids.
    const DOUBLE: &str =
        "rows = 3\ncols = 3\nsymbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\"]\n\
        winning = [\"X\"]\nbox_amounts = [2, 5, 20]\nnear_miss = 0.3\ndecoy_multiplier = 0.2\n\
        decoy_weights = { \"2\" = 3, \"5\" = 2, \"20\" = 1 }\n\
        specials = [{ symbol = \"M\", kind = \"multiplier\", times = 2, caption = \"DOUBLE\" }]\n";
    /// LEGEND with a ×5 multiplier M and no decoy share.
    const FIVE: &str = "rows = 4\ncols = 4\nk = 3\n\
        symbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\", \"E\", \"F\", \"G\"]\n\
        legend = { X = 20, O = 5, A = 5 }\nnear_miss = 0.5\n\
        specials = [{ symbol = \"M\", kind = \"multiplier\", times = 5 }]\n";

    #[test]
    fn a_multiplier_has_its_area_decoy_and_words() {
        let m = make(DOUBLE).unwrap();
        assert_eq!(m.layout.areas, ["m", "m_m"]);
        assert_eq!(
            m.layout.columns[0].values,
            ["X", "O", "A", "B", "C", "D", "M"]
        );
        assert_eq!(
            m.layout.columns[4].inscriptions,
            ["", "", "", "", "", "", "DOUBLE"]
        );
        let names: Vec<String> = m.features().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["near_miss_m", "decoy_m"]);
        assert_eq!(
            special_words(&m),
            [
                "A cell showing M (caption « DOUBLE ») on a winning grid multiplies the grid's \
                 win by 2: the amount in the box times 2 (play area « m_m »). M is never part of \
                 a line.",
                "M shows in one cell, never beside another special symbol, and no line through \
                 it holds 2 of one symbol (it is no wild); on 20.00% of losing grids it shows \
                 all the same and multiplies nothing (decoy decoy_m)."
            ]
        );
        let m = make(FIVE).unwrap();
        assert!(m.features().iter().all(|f| f.name != "decoy_m"));
        assert_eq!(
            special_words(&m),
            [
                "A cell showing M on a winning grid multiplies the grid's win by 5: the legend \
                 amount of the line's symbol times 5 (play area « m_m »). M is never part of a \
                 line.",
                "M shows in one cell, never beside another special symbol, and no line through \
                 it holds 2 of one symbol (it is no wild); no losing grid shows it."
            ]
        );
        let per = make(&format!(
            "{PER_LINE}specials = [{{ symbol = \"M\", kind = \"multiplier\", times = 2 }}]\n"
        ))
        .unwrap();
        assert!(special_words(&per)[0]
            .contains("multiplies the grid's win by 2: the sum of its lines times 2"));
    }

    /// (area, column, kind) of each mark.
    fn marked(m: &Lines, f: &Face, ev: &Evaluation) -> Vec<(u8, usize, MarkKind)> {
        m.marks(f, ev)
            .into_iter()
            .map(|k| (k.area, k.column, k.kind))
            .collect()
    }

    #[test]
    fn a_multiplier_multiplies_the_grid_s_win_and_is_no_wild() {
        let m = make(DOUBLE).unwrap();
        // A row of X and its box of 5, beside M: 10, in M's play area.
        let f = face(&m, ["XXX", "OAB", "CMD"], 5);
        let ev = m.evaluate(&f);
        assert_eq!(wins(&ev), [(1, 10)]);
        assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
        assert_eq!(
            marked(&m, &f, &ev),
            [
                (1, 0, MarkKind::Win),
                (1, 1, MarkKind::Win),
                (1, 2, MarkKind::Win),
                (1, 7, MarkKind::Win),
                (1, 9, MarkKind::Win)
            ]
        );
        // No line: M multiplies nothing, and is the decoy.
        let f = face(&m, ["XOA", "BMC", "OAB"], 20);
        let ev = m.evaluate(&f);
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
        assert!(m.shows(&ev, "decoy_m"));
        assert!(!m.shows(&ev, NEAR_MISS));
        assert_eq!(
            marked(&m, &f, &ev),
            [(0, 4, MarkKind::Decoy), (0, 9, MarkKind::Decoy)]
        );
        // X M X on a diagonal, X X M on a row: a wild completing the line?
        for grid in [["XOA", "BMC", "OAX"], ["XXM", "OAB", "CDO"]] {
            let ev = m.evaluate(&face(&m, grid, 2));
            assert!(ev.wins.is_empty(), "{grid:?}");
            assert_eq!(ev.ambiguities, [AMB_SPECIAL_IN_LINE], "{grid:?}");
        }
        // Beside a line, O O M in a column: the line is multiplied, and flagged.
        let ev = m.evaluate(&face(&m, ["XOA", "XOB", "XMC"], 5));
        assert_eq!(wins(&ev), [(1, 10)]);
        assert_eq!(ev.ambiguities, [AMB_SPECIAL_IN_LINE]);
        // Two multipliers.
        let ev = m.evaluate(&face(&m, ["XXX", "MAB", "CMD"], 5));
        assert_eq!(wins(&ev), [(1, 10)]);
        assert_eq!(ev.ambiguities, [AMB_SPECIAL_TWICE]);
        // A line of O beside M: a loser that reads as a win.
        let ev = m.evaluate(&face(&m, ["OOO", "XAB", "CMD"], 5));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, [AMB_LOSING_LINE]);
        // With no decoy share, a multiplier on a losing grid is never printed.
        let m = make(&DOUBLE.replace("decoy_multiplier = 0.2\n", "")).unwrap();
        let ev = m.evaluate(&face(&m, ["XOA", "BMC", "OAB"], 20));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, [AMB_LONE_MULTIPLIER]);
        // Legend mode: a line of X (20) beside a 5X wins 100.
        let m = make(FIVE).unwrap();
        let ev = m.evaluate(&face4(&m, ["XXXB", "BCDE", "FGMA", "GBCD"]));
        assert_eq!(wins(&ev), [(1, 100)]);
        assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
        // Per line: 20 + 5 beside a 2X win 40 + 10.
        let per = make(&format!(
            "{PER_LINE}specials = [{{ symbol = \"M\", kind = \"multiplier\", times = 2 }}]\n"
        ))
        .unwrap();
        let ev = per.evaluate(&face4(&per, ["XXXB", "BCDE", "OOOF", "GBMD"]));
        assert_eq!(wins(&ev), [(1, 40), (1, 10)]);
        assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
    }

    #[test]
    fn ways_through_a_multiplier_round_trip() {
        let per_line = format!(
            "{PER_LINE}specials = [{{ symbol = \"M\", kind = \"multiplier\", times = 2 }}]\n"
        );
        for (text, ways) in [
            (
                DOUBLE,
                vec![
                    way_in(&[(Some(1), 4)]),
                    way_in(&[(Some(1), 10)]),
                    way_in(&[(Some(1), 40)]),
                    way(&[5]),
                    way(&[]),
                ],
            ),
            (
                FIVE,
                vec![
                    way_in(&[(Some(1), 25)]),
                    way_in(&[(Some(1), 100)]),
                    way(&[]),
                ],
            ),
            (
                per_line.as_str(),
                vec![
                    way_in(&[(Some(1), 10)]),
                    way_in(&[(Some(1), 40), (Some(1), 10)]),
                    way_in(&[(Some(1), 10), (Some(1), 10), (Some(1), 40)]),
                    way(&[5, 20]),
                    way(&[]),
                ],
            ),
        ] {
            let m = make(text).unwrap();
            let code = m.specials.list()[0].code;
            for w in &ways {
                m.check_way(w).unwrap();
                let by = w.wins.iter().any(|x| x.area == Some(1));
                for (seed, f, ev) in round_trip(&m, w, 0..300) {
                    let shown = f.codes[..m.cells()].iter().filter(|&&c| c == code).count();
                    assert!(ev.ambiguities.is_empty(), "seed {seed}");
                    if by {
                        assert_eq!(shown, 1, "seed {seed}");
                        assert_eq!(m.lines(&f).len(), w.wins.len(), "seed {seed}");
                    } else if !w.wins.is_empty() || !m.shows(&ev, "decoy_m") {
                        assert_eq!(shown, 0, "{} seed {seed}", w.id);
                    }
                }
                features_as_asked(&m, w, 0..30);
            }
        }
    }

    #[test]
    fn the_decoy_multiplier_rate_is_the_spec_s() {
        let m = make(DOUBLE).unwrap();
        // 2 000 losing grids at 0.2: binomial, mean 400, 4 standard deviations ±72; the
        // count of this fixed seed.
        let n = count_showing(&m, &way(&[]), "decoy_m", 2000, 11);
        assert!((400 - 72..=400 + 72).contains(&n), "{n}");
        assert_eq!(n, 399);
        // Asked, beside a near miss or not.
        for (seed, f, ev) in round_trip_showing(&m, &way(&[]), "decoy_m", 0..200) {
            let marks = marked(&m, &f, &ev);
            assert!(marks
                .iter()
                .any(|&(a, c, k)| (a, k) == (0, MarkKind::Decoy) && c < 9));
            assert!(ev.ambiguities.is_empty(), "seed {seed}");
        }
        let all =
            make(&DOUBLE.replace("decoy_multiplier = 0.2", "decoy_multiplier = 1.0")).unwrap();
        assert_eq!(count_showing(&all, &way(&[]), "decoy_m", 300, 11), 300);
        assert!(matches!(
            m.can_show_why(&way(&[5]), "decoy_m"),
            Err(Refusal::NeedsLosing { .. })
        ));
    }

    #[test]
    fn multipliers_and_their_ways_that_cannot_work_are_refused() {
        let m = make(DOUBLE).unwrap();
        let refused = |w: Way| way_refused(&m, w);
        assert_eq!(
            refused(way_in(&[(Some(1), 3)])),
            "« m_m » cannot win 3: it wins 2 times an amount its box shows (2, 5, 20)"
        );
        assert_eq!(
            refused(way_in(&[(Some(1), 4), (None, 5)])),
            "« m » cannot win 5: beside M a grid wins in the multiplier's play area « m_m » only"
        );
        assert_eq!(
            refused(way_in(&[(Some(1), 4), (Some(1), 4)])),
            "2 wins, but « m_m » shows at most 1 at once (one line)"
        );
        assert_eq!(
            way_refused(&make(FIVE).unwrap(), way_in(&[(Some(1), 50)])),
            "« m_m » cannot win 50: it wins 5 times an amount its legend shows (5, 20)"
        );
        // A multiplier no way wins by never shows.
        assert_eq!(
            ways_refused(&m, &[way(&[20]), way(&[])]),
            "specials (\"M\") never applies: no way wins in its play area « m_m » (`areas`), \
             so no face shows it"
        );
        let refused = make_refused;
        assert_eq!(
            refused(&DOUBLE.replace("times = 2", "times = 1")),
            (
                "specials".to_string(),
                "\"M\" is a multiplier: give `times`, 2 or more".to_string()
            )
        );
        assert_eq!(
            refused(&BOX.replace("near_miss = 0.3", "near_miss = 0.3\ndecoy_multiplier = 0.1")),
            (
                "decoy_multiplier".to_string(),
                "a decoy multiplier rate needs a multiplier among `specials`".to_string()
            )
        );
        assert_eq!(
            refused(&FIVE.replace("k = 3", "k = 2")),
            (
                "specials".to_string(),
                "\"M\" beside one symbol would read as a line of 2 with a wild: special \
                 symbols need lines of 3 or more (`k`)"
                    .to_string()
            )
        );
        // A 1×3 grid: its one line leaves the multiplier no cell.
        let strip =
            "rows = 1\ncols = 3\nk = 3\nsymbols = [\"X\", \"O\", \"A\", \"B\", \"C\", \"D\"]\n\
            winning = [\"X\"]\nbox_amounts = [2, 5, 20]\n\
            decoy_weights = { \"2\" = 1 }\n\
            specials = [{ symbol = \"M\", kind = \"multiplier\", times = 2 }]\n";
        assert_eq!(
            refused(strip),
            (
                "specials".to_string(),
                "\"M\" is a multiplier, and beside any line of 3 a 1×3 grid leaves it no cell \
                 off the lines the winning line nearly fills: a multiplier needs a larger grid"
                    .to_string()
            )
        );
    }

    #[test]
    fn a_multiplier_beside_an_auto_win_is_flagged() {
        let both = STAR.replace(
            "caption = \"GAGNE\" }",
            "caption = \"GAGNE\" }, { symbol = \"M\", kind = \"multiplier\", times = 2 }",
        );
        let m = make(&both).unwrap();
        assert_eq!(m.layout.areas, ["m", "m_s", "m_m"]);
        let ev = m.evaluate(&face(&m, ["SOA", "BXC", "OAM"], 5));
        assert_eq!(wins(&ev), [(1, 5)]);
        assert_eq!(ev.ambiguities, [AMB_SPECIAL_TWICE]);
        for w in [way_in(&[(Some(1), 5)]), way_in(&[(Some(2), 10)]), way(&[2])] {
            round_trip(&m, &w, 0..100);
        }
    }
}
