//! The *match count* play style (industry: bingo-like cards and lotto-like grids).
//!
//! **Rule.** The surface shows your numbers (`numbers` cells, e.g. a 5×5 bingo card of 25
//! numbers, or a lotto grid of 6) and, under the scratch, the drawn numbers (`drawn` cells),
//! every number from `from..=to`, none twice on the card nor twice among the drawn ones. The
//! surface's one play area wins by the **number of matches**, the card numbers found among
//! the drawn numbers: the prize legend (`prizes = { "5" = 10, "6" = 100 }`, printed on the
//! ticket) pays each listed count; any other count loses.
//!
//! **Pattern mode.** A grid card (`grid`) may instead pay by **pattern**: with `patterns =
//! { row = 5, column = 5, diagonal = 20 }` in place of `prizes`, the area wins when every
//! number of a full row, column or diagonal of the card is among the drawn numbers (the free
//! centre counting as drawn), the amount of that pattern; the number of matches then does
//! not count.
//!
//! **Naive reading.** A player counts matches, and reads a legend "5 matches: 10 €" as "5 or
//! more": so no face shows a count above the lowest prized count that the legend does not
//! pay (`check_way` refuses a prize only such counts could show). A number printed twice (on
//! the card or among the drawn ones) makes the count doubtful: never. On a card laid out as a
//! grid (`grid = 5`), a bingo player reads a full row, column or diagonal of matches as a win
//! whatever the count: no face shows one, on losing and winning cards alike, so a grid card
//! holds at most `numbers − grid` matches.
//!
//! **Four corners.** `patterns` may also pay `corners`: the numbers of the card's four
//! corners all drawn (a free corner counting as drawn) is a pattern of its own, one more
//! line for every rule above. Refused: free cells that make one pattern a part of another
//! (completing the top row would complete the corners left).
//!
//! **X and full card.** `patterns` may also pay `x` (both diagonals complete) and `full`
//! (every number of the card drawn). These hold other patterns (an X both diagonals and the
//! four corners, a full card every pattern), so the spec says how a card completing them
//! pays, printed under the legend: `pattern_rule = "highest"` (only the highest amount
//! among the patterns completed) or `"each"` (each pattern completed pays, added up). A
//! card shows one *largest* pattern at most (one no other completed pattern holds), with
//! what it holds: it wins that pattern's amount by the rule. Refused: `x` or `full` without
//! a rule; under `"highest"` a pattern paying less than one it holds; two patterns of the
//! same cells (free cells can make a row the four corners); fewer drawn numbers than a
//! pattern's numbers. The near miss is a paid pattern one short that leaves nothing inside
//! it complete.
//!
//! **Free cells.** A grid card paid by pattern may have free (joker) cells: the centre of an
//! odd grid (`free_centre`) or any cells the spec places (`free_cells = [[1, 1], [3, 4]]`,
//! rows and columns from 1, on even grids too). A free cell is printed FREE, holds no number
//! and counts as matched in every line through it. Refused: a whole row, column or diagonal
//! free (a line on every card); a line left with fewer than two numbers (a losing card could
//! not keep it open); a free cell on a card paid by its number of matches (`prizes`): a
//! player counts it as one more match, so 8 numbers and FREE would read as the 9 matches of
//! the legend, which the letter does not pay, on winning and losing cards alike.
//!
//! **Multipliers in the free cell** (`specials = [{ symbol = "5X", kind = "multiplier",
//! times = 5 }]`, see `styles::special`): on a grid card with exactly one free cell, the
//! free cell shows, under the scratch, FREE or one of the multipliers (face column
//! `{id}_free`). It still counts as matched; a card that wins with a multiplier there wins
//! `times` the legend's amount, in the multiplier's play area (default `{area}_{symbol}`),
//! and a multiplier on a losing card wins nothing (a decoy, `decoy_<its area>`). A way
//! names that area to win through the multiplier (the amount is `times` an amount the card
//! pays); a win in the card's own area shows FREE. A losing card's free cell is drawn from
//! the law the winning cards' free cells follow in the block (each winning way's count
//! spread evenly over its splits), as the multiplier box is ([`super::multiply`]), so a card
//! showing 5X wins as often as one showing FREE. Refused: an auto-win or win-all (a free
//! cell has no amount under it), specials without exactly one free cell, a multiplier that
//! can never multiply, one no way wins by.
//!
//! **Reading a shared draw** (`reads`, [`super::shared`]): the drawn numbers are the shared
//! draw's, printed once for every card that reads it (`drawn`, `from`, `to`, `width` left
//! out; the card's numbers are of the draw's symbols). The card is judged as above against
//! them; its `{id}_d{i}` columns are the draw's ([`Layout::reads`]). Given any draw, the
//! card's matched cells take drawn numbers and its other cells numbers not drawn (the
//! symbols hold the card and the draw apart, checked at load), so every way is reachable
//! whatever the draw.
//!
//! **Columns.** `{id}_n{i}` (the card, row by row, the free cells left out), `{id}_d{i}`
//! (the drawn numbers). The prize legend is printed, not a face column. Play area: `area`,
//! by default the surface id; panels: `{id}` (the card) and `{id}_drawn`.
//!
//! In pattern mode, a bingo player reads any full line as a win and two full lines as two:
//! a losing card shows no full line, a winning card exactly one, never one of a pattern
//! that does not pay (the evaluator flags two lines and an unpaid line).
//!
//! **Features.** `near_miss_<area>` (near miss; the spec may name it `near_miss_feature`):
//! a losing card one match short of the lowest prized count, on exactly `near_miss` of
//! losing faces; the other losing faces show fewer matches, every count from 0 to two short
//! equally likely. In pattern mode: a losing card with a paid line one match short; every
//! other losing card keeps two cells of each paid line unmatched (a line holds two or more
//! cells, the grid being 3 to 7 wide), so none shows one.
//!
//! **Synthesis.** The count is chosen first (a winning count paying the way's amount, drawn
//! among those the legend lists); on a grid card one cell per line is kept unmatched (a
//! drawn placement of one cell per row and per column hitting both diagonals, never the
//! centre); the matched cells are drawn among the others; then distinct numbers are drawn
//! for the matches, the card's other cells and the other drawn numbers, so no other number
//! can match. In pattern mode: the winning line (or the near miss's line less one cell) is
//! matched first; every other line then keeps one unmatched cell, drawn among its cells
//! off the placed line (two lines share at most one cell, so there is always one); further
//! matches are drawn among the cells left.

use super::common::{
    self, each_pick, pick_distinct, pick_distinct_into, pick_few, LosingNearMiss, MAX_PICK,
};
use super::multiply;
use super::special::{self, RawSpecial, SpecialKind, Specials};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Layout, Mark, MarkKind, Panel, Plan, Printed, Refusal, Style, FREE_CELL, MAX_VALUES,
};
use crate::crypto::rng::{below, chance, weighted};
use crate::language::{GridLine, Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// Ambiguity: a number twice on the card.
pub const AMB_CARD_REPEAT: &str = "a number twice on the card";
/// Ambiguity: a number drawn twice.
pub const AMB_DRAWN_REPEAT: &str = "a number drawn twice";
/// Ambiguity: more matches than a prized count, with no prize of their own ("5 or more").
pub const AMB_UNPAID_ABOVE: &str = "more matches than a prized count, with no prize of its own";
/// Ambiguity: a full line of matches on a grid card (reads as a bingo).
pub const AMB_LINE: &str = "a full line of matches on a card that pays by count";

/// Most lines of a grid card: rows, columns, two diagonals, the four corners, the X and
/// the full card.
const MAX_LINES: usize = 2 * 7 + 5;

/// The patterns a grid card may pay, as `patterns` keys them.
const PATTERNS: [&str; 6] = ["row", "column", "diagonal", "corners", "x", "full"];
/// Pattern kinds (indices into [`PATTERNS`]) of the patterns that hold others.
const CORNERS: usize = 3;
const X: usize = 4;
const FULL: usize = 5;
/// Each pattern in words, completed, with its verb: "a full row wins 5".
const PATTERN_WORDS: [&str; 6] = [
    "a full row wins",
    "a full column wins",
    "a full diagonal wins",
    "the four corners win",
    "an X (both diagonals) wins",
    "a full card wins",
];
/// Each pattern as the card's legend prints it.
const PATTERN_PRINTED: [GridLine; 6] = [
    GridLine::Row,
    GridLine::Column,
    GridLine::Diagonal,
    GridLine::Corners,
    GridLine::X,
    GridLine::Card,
];

/// How a card completing a pattern that holds others (an X holds both diagonals and the
/// four corners, a full card every pattern) pays: the legend's rule, printed on the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum PatternRule {
    /// Only the highest amount among the patterns completed pays.
    Highest,
    /// Each pattern completed pays its amount; the card wins the sum.
    Each,
}
/// Ambiguity: two or more full lines of matches on a card that pays by pattern.
pub const AMB_TWO_LINES: &str = "two or more full lines of matches";
/// Ambiguity: a full line of a pattern the card does not pay.
pub const AMB_UNPAID_LINE: &str = "a full line of matches of a pattern that does not pay";
/// Ambiguity: a free cell showing a symbol that is neither FREE nor a multiplier of the card.
pub const AMB_FREE_SYMBOL: &str = "a free cell showing neither FREE nor a multiplier";

/// What a free cell shows when it shows no multiplier.
pub const FREE: &str = "FREE";

/// A `match_count` surface's table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatchCount {
    numbers: usize,
    #[serde(default)]
    drawn: Option<usize>,
    #[serde(default)]
    from: Option<u32>,
    #[serde(default)]
    to: Option<u32>,
    #[serde(default)]
    width: Option<usize>,
    #[serde(default)]
    prizes: Option<BTreeMap<String, Money>>,
    #[serde(default)]
    patterns: Option<BTreeMap<String, Money>>,
    #[serde(default)]
    pattern_rule: Option<PatternRule>,
    #[serde(default)]
    grid: Option<usize>,
    #[serde(default)]
    free_centre: bool,
    #[serde(default)]
    free_cells: Vec<[usize; 2]>,
    #[serde(default)]
    near_miss: f64,
    #[serde(default)]
    area: Option<String>,
    #[serde(default)]
    near_miss_feature: Option<String>,
    #[serde(default)]
    specials: Vec<RawSpecial>,
}

/// The match count style, built from a validated surface table.
pub struct MatchCount {
    id: String,
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    label: String,
    numbers: usize,
    drawn: usize,
    range: u32,
    /// `prizes[m]`: the amount `m` matches win.
    prizes: Vec<Option<Money>>,
    /// The lowest prized count (0 when the card pays by pattern).
    lowest: usize,
    /// When the card pays by pattern: the amount of each of [`PATTERNS`].
    patterns: Option<[Option<Money>; 6]>,
    /// The legend's rule for patterns that hold others (`pattern_rule`), if given.
    rule: Option<PatternRule>,
    /// The kind of each of `lines`, an index into [`PATTERNS`]: 0 a row, 1 a column, 2 a
    /// diagonal, 3 the four corners, 4 the X, 5 the full card.
    line_kind: Vec<u8>,
    /// What a card whose largest completed pattern is line `l` wins, by the legend's rule
    /// (none when its pattern does not pay).
    amount_of: Vec<Option<Money>>,
    /// For each line, the cells that may be its one unmatched cell on a losing near miss:
    /// those leaving no other line complete (none for a line that does not pay).
    gaps: Vec<Vec<usize>>,
    /// Side of the grid card, if laid out as one.
    grid: Option<usize>,
    /// Grid positions (row × side + column, ascending) of the free cells: printed FREE,
    /// holding no number, counting as matched (`free_centre`, `free_cells`).
    free: Vec<usize>,
    /// The grid's lines as card cell indices (the free centre left out: it counts as matched).
    lines: Vec<Vec<usize>>,
    /// Line `l`'s cells as bits (bit `c` for card cell `c`, a grid holding at most 49), so
    /// that a line is tested, counted and searched a word at a time; 0 past the lines.
    line_bits: [u64; MAX_LINES],
    /// For each line `a`, the lines holding it as bits: bit `b` when line `a` is part of
    /// line `b` (`a != b`), so that completing `b` completes `a` (the diagonals and corners
    /// inside the X, every line inside the card).
    holders: [u32; MAX_LINES],
    /// For each set of card cells one per row and per column hitting both diagonals (one such
    /// set is kept unmatched on every grid face), the card cells outside it, which may match.
    open: Vec<ArrayVec<u8, MAX_VALUES>>,
    near_miss: u32,
    /// The near miss (`near_miss_<area>` or the spec's `near_miss_feature`), in the
    /// layout's feature table.
    near_miss_id: FeatureId,
    /// The shared draw the card reads (`reads`): its drawn numbers are the draw's cells.
    reads: Option<String>,
    /// The multipliers the free cell may show (`specials`); multiplier `j` wins in play
    /// area `1 + j` and is free code `1 + j`, FREE code 0.
    specials: Specials,
    /// The decoy of each multiplier: a losing card showing it in its free cell.
    decoys: Vec<FeatureId>,
    /// The label of each multiplier's play area.
    special_labels: Vec<String>,
    /// The weight of each free code on a losing card: the law of the codes winning cards
    /// show, set once every way is planned ([`Style::check_ways`]).
    free_law: OnceLock<Vec<u32>>,
}

/// Line `l` of an `n`×`n` grid card, of kind `kind` (an index into [`PATTERNS`]), in
/// words: rows and columns alternate (`row 1`, `column 1`, `row 2`, …), then `diagonal 1`
/// (top left to bottom right), `diagonal 2`, then `the four corners`, `the X`, `the full
/// card`.
fn line_name(n: usize, l: usize, kind: u8) -> String {
    match kind as usize {
        0 | 1 => format!("{} {}", ["row", "column"][l % 2], l / 2 + 1),
        2 => format!("diagonal {}", l - 2 * n + 1),
        CORNERS => "the four corners".to_string(),
        X => "the X".to_string(),
        _ => "the full card".to_string(),
    }
}

/// The free cells of an `n`×`n` grid card as grid positions (row × n + column), ascending:
/// the centre for `free_centre`, and each `[row, column]` (from 1) of `free_cells`.
/// Errors: `free_centre` on an even grid (no centre), a position off the grid, a cell given
/// twice, a whole row, column or diagonal free (it would always read as a bingo line).
fn free_cells(n: usize, centre: bool, cells: &[[usize; 2]]) -> Result<Vec<usize>, FieldError> {
    let mut free = Vec::new();
    if centre {
        if n % 2 == 0 {
            return Err(FieldError::new("free_centre", "an even grid has no centre"));
        }
        free.push((n / 2) * n + n / 2);
    }
    for &[r, c] in cells {
        if !(1..=n).contains(&r) || !(1..=n).contains(&c) {
            return Err(FieldError::new(
                "free_cells",
                format!("[{r}, {c}] is off the {n}×{n} grid: rows and columns go from 1 to {n}"),
            ));
        }
        let p = (r - 1) * n + c - 1;
        if free.contains(&p) {
            return Err(FieldError::new(
                "free_cells",
                format!("[{r}, {c}] is free twice (free_centre frees the centre)"),
            ));
        }
        free.push(p);
    }
    free.sort_unstable();
    let full = |at: &dyn Fn(usize) -> usize| (0..n).all(|j| free.contains(&at(j)));
    if full(&|j| j * n + j)
        || full(&|j| j * n + n - 1 - j)
        || (0..n).any(|i| full(&|j| i * n + j) || full(&|j| j * n + i))
    {
        return Err(FieldError::new(
            "free_cells",
            "a whole row, column or diagonal is free: it would read as a line on every card",
        ));
    }
    Ok(free)
}

/// Every permutation of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut p: Vec<usize> = (0..n).collect();
    loop {
        out.push(p.clone());
        // Next permutation (lexicographic); stop after the last.
        let Some(i) = (1..n).rev().find(|&i| p[i - 1] < p[i]) else {
            return out;
        };
        let j = (i..n)
            .rev()
            .find(|&j| p[j] > p[i - 1])
            .expect("p[i] qualifies");
        p.swap(i - 1, j);
        p[i..].reverse();
    }
}

/// The set bits of `bits`, lowest first, as bit numbers.
fn bits(mut bits: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        let b = (bits != 0).then(|| bits.trailing_zeros() as u8);
        bits &= bits.wrapping_sub(1);
        b
    })
}

impl MatchCount {
    /// The card's near miss, as a feature.
    fn near(&self) -> LosingNearMiss {
        LosingNearMiss {
            id: self.near_miss_id,
            rate: self.near_miss,
        }
    }

    /// The drawn numbers (their count) and the numbers a cell may show (code → text):
    /// `drawn` and `from`..=`to` in `width` digits, or those of the shared draw the card
    /// reads. Errors: a field missing, or given beside `reads`; a range above 256
    /// numbers; a width that cannot write `to`.
    /// Also returns what holds the numbers, in words, for errors (`1..=75`, `the shared
    /// draw "caller"`).
    fn numbers(
        raw: &RawMatchCount,
        ctx: &StyleCtx,
    ) -> Result<(usize, Vec<String>, String), FieldError> {
        if let Some(e) = ctx.reads {
            let given = [
                ("drawn", raw.drawn.is_some()),
                ("from", raw.from.is_some()),
                ("to", raw.to.is_some()),
                ("width", raw.width.is_some()),
            ];
            if let Some((field, _)) = given.iter().find(|g| g.1) {
                return Err(FieldError::new(
                    *field,
                    format!(
                        "the card reads the shared draw \"{}\": its drawn numbers and their \
                         symbols are the draw's, leave `{field}` out",
                        e.id
                    ),
                ));
            }
            let what = format!("the shared draw \"{}\"", e.id);
            return Ok((e.count, e.values.clone(), what));
        }
        let need = |v: Option<u32>, f: &str| {
            v.ok_or_else(|| FieldError::new(f, format!("missing field `{f}`")))
        };
        let drawn = raw
            .drawn
            .ok_or_else(|| FieldError::new("drawn", "missing field `drawn`"))?;
        let (from, to) = (need(raw.from, "from")?, need(raw.to, "to")?);
        if to < from || to - from + 1 > 256 {
            return Err(FieldError::new(
                "to",
                format!("expected a range of at most 256 numbers, got {from}..={to}"),
            ));
        }
        let width = raw.width.unwrap_or_else(|| to.to_string().len());
        if width == 0 || width > 9 || to.to_string().len() > width {
            return Err(FieldError::new(
                "width",
                format!("{width} digits cannot write {to}"),
            ));
        }
        Ok((
            drawn,
            style::numbers(from, to, width),
            format!("{from}..={to}"),
        ))
    }

    fn new(raw: RawMatchCount, ctx: &StyleCtx) -> Result<MatchCount, FieldError> {
        let (drawn, values, what) = Self::numbers(&raw, ctx)?;
        let numbers = raw.numbers;
        if numbers == 0 || drawn == 0 || numbers + drawn > MAX_VALUES {
            return Err(FieldError::new(
                "numbers",
                format!(
                    "expected 1 or more numbers and drawn numbers, {MAX_VALUES} in all at most \
                     (all told apart, each number a one-byte code); got {numbers} + {drawn}"
                ),
            ));
        }
        let range = values.len() as u32;
        if (range as usize) < numbers + drawn {
            let field = if ctx.reads.is_some() { "numbers" } else { "to" };
            return Err(FieldError::new(
                field,
                format!(
                    "{what} has {range} numbers; the card's {numbers} and the {drawn} drawn \
                     need {} to be told apart",
                    numbers + drawn
                ),
            ));
        }
        let (prize_table, patterns) = match (raw.prizes, raw.patterns) {
            (Some(p), None) => (p, None),
            (None, Some(t)) => {
                let mut kinds = [None; 6];
                for (k, &m) in &t {
                    let field = format!("patterns.{k}");
                    let i = PATTERNS.iter().position(|p| p == k).ok_or_else(|| {
                        FieldError::new(
                            &field,
                            "expected row, column, diagonal, corners, x (both diagonals) or \
                             full (the full card)",
                        )
                    })?;
                    if m.is_zero() || ctx.max.is_some_and(|x| m > x) {
                        return Err(FieldError::new(
                            &field,
                            "expected an amount above 0 and not above the surface's max",
                        ));
                    }
                    kinds[i] = Some(m);
                }
                if kinds.iter().all(Option::is_none) {
                    return Err(FieldError::new("patterns", "expected one or more patterns"));
                }
                (BTreeMap::new(), Some(kinds))
            }
            _ => {
                return Err(FieldError::new(
                    "prizes",
                    "give either prizes (by number of matches) or patterns (by full line of a \
                     grid card)",
                ))
            }
        };
        let mut prizes = vec![None; numbers.min(drawn) + 1];
        for (k, &m) in &prize_table {
            let field = format!("prizes.{k}");
            let count: usize = k.parse().map_err(|_| {
                FieldError::new(&field, format!("\"{k}\" is not a number of matches"))
            })?;
            if count == 0 || count >= prizes.len() {
                return Err(FieldError::new(
                    &field,
                    format!(
                        "expected a number of matches from 1 to {}",
                        prizes.len() - 1
                    ),
                ));
            }
            if m.is_zero() || ctx.max.is_some_and(|x| m > x) {
                return Err(FieldError::new(
                    &field,
                    "expected an amount above 0 and not above the surface's max",
                ));
            }
            if prizes[count].is_some() {
                return Err(FieldError::new(&field, "this count is listed twice"));
            }
            prizes[count] = Some(m);
        }
        // A player reads a legend count as "that many or more": more matches never pay less.
        let mut paid: Option<(usize, Money)> = None;
        for (count, m) in prizes.iter().enumerate() {
            if let Some(m) = *m {
                if let Some((c0, m0)) = paid.filter(|&(_, m0)| m < m0) {
                    return Err(FieldError::new(
                        format!("prizes.{count}"),
                        format!(
                            "{count} matches win {m}, less than the {m0} of {c0} matches: a \
                             player reads a count as that many or more, so more matches may \
                             not pay less"
                        ),
                    ));
                }
                paid = Some((count, m));
            }
        }
        let lowest = match prizes.iter().position(Option::is_some) {
            Some(l) => l,
            None if patterns.is_some() => 0,
            None => {
                return Err(FieldError::new(
                    "prizes",
                    "expected one or more prized counts",
                ))
            }
        };
        let near_miss =
            super::common::share(raw.near_miss).map_err(|e| FieldError::new("near_miss", e))?;
        if near_miss > 0 && lowest < 2 && patterns.is_none() {
            return Err(FieldError::new(
                "near_miss",
                "one match short of 1 is every losing card: set near_miss = 0 or prize 2 or \
                 more matches",
            ));
        }
        let (lines, line_kind, blockers) = match raw.grid {
            None => {
                if patterns.is_some() {
                    return Err(FieldError::new("patterns", "patterns need a grid card"));
                }
                if raw.free_centre {
                    return Err(FieldError::new("free_centre", "a free centre needs a grid"));
                }
                if !raw.free_cells.is_empty() {
                    return Err(FieldError::new("free_cells", "free cells need a grid"));
                }
                if raw.pattern_rule.is_some() {
                    return Err(FieldError::new(
                        "pattern_rule",
                        "a pattern rule needs patterns on a grid card",
                    ));
                }
                (Vec::new(), Vec::new(), Vec::new())
            }
            Some(n) => {
                // A side past 2³² would overflow n × n: refuse it before any cell is counted.
                if n > u32::MAX as usize {
                    return Err(FieldError::new(
                        "grid",
                        format!(
                            "expected a side of 3 to 7 holding the card's {numbers} numbers \
                             ({n}×{n})"
                        ),
                    ));
                }
                let free = free_cells(n, raw.free_centre, &raw.free_cells)?;
                if patterns.is_none() && !free.is_empty() {
                    // A free cell counts as matched in every line, so a player counts it
                    // as one more match too: 8 numbers and FREE read as 9, which the letter
                    // of a legend "9 matches" does not pay. No face could be read alike.
                    return Err(FieldError::new(
                        if raw.free_centre {
                            "free_centre"
                        } else {
                            "free_cells"
                        },
                        format!(
                            "a card paid by its number of matches (prizes) has no free cell: \
                             a player would count it as one more match; fill the {n}×{n} grid \
                             with {} numbers, or pay the card by patterns",
                            n * n
                        ),
                    ));
                }
                let cells = n * n - free.len();
                if !(3..=7).contains(&n) || cells != numbers {
                    return Err(FieldError::new(
                        "grid",
                        format!(
                            "expected a side of 3 to 7 holding the card's {numbers} numbers \
                             ({n}×{n}{})",
                            match free.len() {
                                0 => String::new(),
                                1 if raw.free_centre => " less the centre".to_string(),
                                1 => " less the free cell".to_string(),
                                k => format!(" less the {k} free cells"),
                            }
                        ),
                    ));
                }
                // Grid position → card cell (None for a free cell).
                let cell = |p: usize| {
                    (!free.contains(&p)).then(|| p - free.iter().filter(|&&f| f < p).count())
                };
                let mut lines = Vec::new();
                for i in 0..n {
                    lines.push((0..n).filter_map(|j| cell(i * n + j)).collect::<Vec<_>>());
                    lines.push((0..n).filter_map(|j| cell(j * n + i)).collect());
                }
                lines.push((0..n).filter_map(|i| cell(i * n + i)).collect());
                lines.push((0..n).filter_map(|i| cell(i * n + n - 1 - i)).collect());
                let paid = |k: usize| patterns.is_some_and(|p| p[k].is_some());
                if paid(CORNERS) {
                    // The four corners, as one more line (paid only).
                    lines.push(
                        [0, n - 1, n * (n - 1), n * n - 1]
                            .into_iter()
                            .filter_map(cell)
                            .collect(),
                    );
                }
                if paid(X) {
                    // Both diagonals, as one more line (paid only).
                    let mut x: Vec<usize> = (0..n)
                        .flat_map(|i| [cell(i * n + i), cell(i * n + n - 1 - i)])
                        .flatten()
                        .collect();
                    x.sort_unstable();
                    x.dedup();
                    lines.push(x);
                }
                if paid(FULL) {
                    lines.push((0..numbers).collect());
                }
                // Rows and columns alternate, then the diagonals, then the paid patterns
                // that hold others, in the order of PATTERNS.
                let mut line_kind: Vec<u8> = (0..2 * n).map(|i| (i % 2) as u8).collect();
                line_kind.extend([2, 2]);
                line_kind.extend(
                    [CORNERS, X, FULL]
                        .into_iter()
                        .filter(|&k| paid(k))
                        .map(|k| k as u8),
                );
                let blockers: Vec<Vec<usize>> = permutations(n)
                    .into_iter()
                    .filter(|p| {
                        (0..n).all(|r| cell(r * n + p[r]).is_some())
                            && (0..n).any(|r| p[r] == r)
                            && (0..n).any(|r| p[r] == n - 1 - r)
                    })
                    .map(|p| (0..n).filter_map(|r| cell(r * n + p[r])).collect())
                    .collect();
                if let Some(pay) = patterns {
                    if let Some(l) = lines.iter().position(|l| l.len() < 2) {
                        return Err(FieldError::new(
                            "free_cells",
                            format!(
                                "{} holds {} number(s) besides its free cells: a line paid by \
                                 pattern needs two, so that a losing card can keep it open",
                                line_name(n, l, line_kind[l]),
                                lines[l].len()
                            ),
                        ));
                    }
                    let within = |a: &Vec<usize>, b: &Vec<usize>| a.iter().all(|c| b.contains(c));
                    let pairs = || {
                        (0..lines.len())
                            .flat_map(|a| (0..lines.len()).map(move |b| (a, b)))
                            .filter(|&(a, b)| a != b && within(&lines[a], &lines[b]))
                    };
                    let name = |l: usize| line_name(n, l, line_kind[l]);
                    if raw.pattern_rule.is_none() && (paid(X) || paid(FULL)) {
                        return Err(FieldError::new(
                            "pattern_rule",
                            "an X completes both diagonals and the four corners, a full card \
                             every pattern: say how such a card pays, pattern_rule = \
                             \"highest\" (only the highest amount among the patterns \
                             completed) or \"each\" (every pattern completed, added up)",
                        ));
                    }
                    if let Some((a, b)) = pairs().find(|&(a, b)| within(&lines[b], &lines[a])) {
                        return Err(FieldError::new(
                            "free_cells",
                            format!(
                                "with these free cells, {} and {} are the same cells: a card \
                                 completing one completes the other, and no rule tells which \
                                 it shows",
                                name(a),
                                name(b)
                            ),
                        ));
                    }
                    let amount = |l: usize| pay[line_kind[l] as usize];
                    if raw.pattern_rule == Some(PatternRule::Highest) {
                        if let Some((a, b)) =
                            pairs().find(|&(a, b)| amount(b).is_some() && amount(a) > amount(b))
                        {
                            return Err(FieldError::new(
                                format!("patterns.{}", PATTERNS[line_kind[b] as usize]),
                                format!(
                                    "completing {} also completes {}, which pays more: with \
                                     pattern_rule = \"highest\" the card would never pay what \
                                     the legend says of {}",
                                    name(b),
                                    name(a),
                                    name(b)
                                ),
                            ));
                        }
                    }
                    if let Some((a, b)) = pairs().find(|_| raw.pattern_rule.is_none()) {
                        return Err(FieldError::new(
                            "free_cells",
                            format!(
                                "with these free cells, completing {} also completes {}: a card \
                                 would show two patterns at once",
                                name(b),
                                name(a)
                            ),
                        ));
                    }
                    if drawn < n {
                        return Err(FieldError::new(
                            "drawn",
                            format!("a full line needs {n} drawn numbers"),
                        ));
                    }
                    if let Some(l) = (0..lines.len()).find(|&l| {
                        line_kind[l] as usize > CORNERS
                            && amount(l).is_some()
                            && drawn < lines[l].len()
                    }) {
                        return Err(FieldError::new(
                            "drawn",
                            format!("{} needs {} drawn numbers", name(l), lines[l].len()),
                        ));
                    }
                } else if blockers.is_empty() {
                    return Err(FieldError::new(
                        "grid",
                        format!("a {n}×{n} card cannot keep one unmatched cell on every line"),
                    ));
                }
                if patterns.is_none() && lowest > numbers - n + 1 {
                    return Err(FieldError::new(
                        "prizes",
                        format!(
                            "a {n}×{n} card shows at most {} matches with no full line",
                            numbers - n
                        ),
                    ));
                }
                (lines, line_kind, blockers)
            }
        };
        let n_lines = lines.len();
        let inside: Vec<Vec<bool>> = (0..n_lines)
            .map(|a| {
                (0..n_lines)
                    .map(|b| {
                        a != b
                            && patterns.is_some()
                            && lines[a].iter().all(|c| lines[b].contains(c))
                    })
                    .collect()
            })
            .collect();
        // Each line's cells ascend, so that its `k`-th cell is its bits' `k`-th.
        debug_assert!(lines.iter().all(|l| l.windows(2).all(|w| w[0] < w[1])));
        let mut line_bits = [0u64; MAX_LINES];
        let mut holders = [0u32; MAX_LINES];
        for (l, line) in lines.iter().enumerate() {
            line_bits[l] = line.iter().fold(0, |b, &c| b | 1 << c);
            holders[l] = (0..n_lines)
                .filter(|&b| inside[l][b])
                .fold(0, |h, b| h | 1 << b);
        }
        let pay = |l: usize| patterns.and_then(|p| p[line_kind[l] as usize]);
        let mut amount_of = Vec::with_capacity(n_lines);
        for l in 0..n_lines {
            let Some(own) = pay(l) else {
                amount_of.push(None);
                continue;
            };
            let total = match raw.pattern_rule {
                Some(PatternRule::Each) => (0..n_lines)
                    .filter(|&a| inside[a][l])
                    .filter_map(pay)
                    .try_fold(own, Money::checked_add)
                    .filter(|t| ctx.max.is_none_or(|x| *t <= x))
                    .ok_or_else(|| {
                        FieldError::new(
                            format!("patterns.{}", PATTERNS[line_kind[l] as usize]),
                            format!(
                                "with pattern_rule = \"each\", {} pays every pattern it \
                                 completes, above the surface's max",
                                line_name(raw.grid.unwrap_or(0), l, line_kind[l])
                            ),
                        )
                    })?,
                _ => own,
            };
            amount_of.push(Some(total));
        }
        // A losing near miss leaves one cell of a paid line unmatched, and no line inside it
        // complete.
        let gaps: Vec<Vec<usize>> = (0..n_lines)
            .map(|l| match pay(l) {
                None => Vec::new(),
                Some(_) => lines[l]
                    .iter()
                    .copied()
                    .filter(|g| (0..n_lines).all(|a| !inside[a][l] || lines[a].contains(g)))
                    .collect(),
            })
            .collect();
        if patterns.is_some() && near_miss > 0 && gaps.iter().all(Vec::is_empty) {
            return Err(FieldError::new(
                "near_miss",
                "no paid pattern can be one number short on a losing card (each would leave \
                 a pattern inside it complete): set near_miss = 0 or pay a row, column or \
                 diagonal",
            ));
        }
        let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
        let free = match raw.grid {
            Some(n) => free_cells(n, raw.free_centre, &raw.free_cells)?,
            None => Vec::new(),
        };
        let paid: Vec<Money> = if patterns.is_some() {
            amount_of.iter().flatten().copied().collect()
        } else {
            prizes.iter().flatten().copied().collect()
        };
        let special::Parsed {
            specials,
            areas,
            inscriptions,
        } = Specials::parse(
            &raw.specials,
            &[FREE.to_string()],
            "the free cell's FREE",
            std::slice::from_ref(&area),
            &area,
            &paid,
            ctx,
        )?;
        Self::free_specials(&specials, free.len())?;
        let mut columns: Vec<Column> = (1..=numbers)
            .map(|i| Column {
                name: format!("{}_n{i}", ctx.id),
                kind: ColumnKind::Symbol,
                values: values.clone(),
                inscriptions: Vec::new(),
            })
            .collect();
        columns.extend((1..=drawn).map(|i| Column {
            name: format!("{}_d{i}", ctx.id),
            kind: ColumnKind::Symbol,
            values: values.clone(),
            inscriptions: Vec::new(),
        }));
        if !specials.is_empty() {
            let mut shown = vec![FREE.to_string()];
            shown.extend(specials.list().iter().map(|s| s.symbol.clone()));
            columns.push(Column {
                name: format!("{}_free", ctx.id),
                kind: ColumnKind::Symbol,
                values: shown,
                inscriptions,
            });
        }
        let open = blockers
            .iter()
            .map(|b| {
                (0..numbers as u8)
                    .filter(|c| !b.contains(&(*c as usize)))
                    .collect()
            })
            .collect();
        let near_miss_name = match &raw.near_miss_feature {
            Some(id) => super::match_symbols::feature_id(id, "near_miss_feature")?,
            None => format!("near_miss_{area}"),
        };
        let label = ctx.label(&area).to_string();
        let mut layout = Layout::new(INFO.name, areas, columns);
        layout.specials = specials.named(&layout.areas);
        if ctx.reads.is_some() {
            layout.reads = (numbers..numbers + drawn).collect();
        }
        let near_miss_id = layout.features.add(
            near_miss_name,
            FeatureKind::NearMiss,
            "a losing card one match short of a win",
            "une carte perdante à un numéro d'un gain",
        );
        let special_labels = (1..=specials.list().len())
            .map(|a| ctx.label(&layout.areas[a]).to_string())
            .collect();
        let decoys = specials
            .list()
            .iter()
            .enumerate()
            .map(|(j, sp)| {
                layout.features.add(
                    format!("decoy_{}", layout.areas[1 + j]),
                    FeatureKind::Decoy,
                    format!("a losing card shows {} in its free cell", sp.symbol),
                    format!("une carte perdante montre {} dans sa case libre", sp.symbol),
                )
            })
            .collect();
        Ok(MatchCount {
            id: ctx.id.to_string(),
            label,
            near_miss_id,
            layout,
            numbers,
            drawn,
            range,
            prizes,
            lowest,
            patterns,
            rule: raw.pattern_rule,
            line_kind,
            amount_of,
            gaps,
            grid: raw.grid,
            free,
            lines,
            line_bits,
            holders,
            open,
            near_miss,
            reads: ctx.reads.map(|e| ctx.label(&e.id).to_string()),
            special_labels,
            specials,
            decoys,
            free_law: OnceLock::new(),
        }
        .with_layout())
    }

    /// Refuses (field `specials`) a special symbol that is not a multiplier (a free cell has
    /// no amount under it to win, nor a surface of amounts to win all of), and specials on a
    /// card without exactly one free cell (`free`: the card's number of free cells) to show
    /// them in.
    fn free_specials(specials: &Specials, free: usize) -> Result<(), FieldError> {
        let err = |m: String| Err(FieldError::new("specials", m));
        if let Some(sp) = specials
            .list()
            .iter()
            .find(|s| !matches!(s.kind, SpecialKind::Multiplier(_)))
        {
            return err(format!(
                "\"{}\": a bingo card's special symbols are multipliers shown in its free cell \
                 (kind = \"multiplier\", times = 2 or more); a free cell has no amount under it \
                 to win on its own or all of",
                sp.symbol
            ));
        }
        if !specials.is_empty() && free != 1 {
            return err(format!(
                "a multiplier shows in the card's free cell: give a grid card exactly one free \
                 cell (free_centre, or one of free_cells), not {free}"
            ));
        }
        Ok(())
    }

    /// The face column of the free cell (after the card and the drawn numbers), when the
    /// card has specials.
    fn free_column(&self) -> usize {
        self.numbers + self.drawn
    }

    /// The factor of free code `code`: 1 for FREE, a multiplier's `times`; `None` for a
    /// code that is neither.
    fn factor(&self, code: u8) -> Option<(u8, u32)> {
        if code == 0 {
            return Some((0, 1));
        }
        let (j, sp) = self.specials.get(code)?;
        match sp.kind {
            SpecialKind::Multiplier(t) => Some((1 + j as u8, t)),
            _ => None,
        }
    }

    /// A way's free code and the way the card's numbers show: a win in the card's own area
    /// shows FREE (code 0) and its amount; a win in multiplier `j`'s area (`1 + j`) shows
    /// the multiplier and wins `times` the amount the numbers pay; a losing way shows a code
    /// drawn from the law of the winning cards' (`None`). Errors: an area the card does not
    /// have, an amount that is not `times` an amount the card pays.
    fn free_split(&self, way: &Way) -> Result<(Option<u8>, Way), Refusal> {
        let Some(w) = way.wins.first().filter(|_| way.wins.len() == 1) else {
            return Ok((None, way.clone()));
        };
        let a = w.area.unwrap_or(0);
        if a == 0 {
            return Ok((Some(0), way.clone()));
        }
        let Some((_, t)) = self.factor(a) else {
            return Err(Refusal::NoSuchArea { area: a });
        };
        let can = || {
            let paid: Vec<String> = self.paid().iter().map(|m| m.to_string()).collect();
            format!(
                "it wins {t} times an amount the card pays ({})",
                paid.join(", ")
            )
        };
        let mut base = multiply::divided(way, t)
            .ok()
            .filter(|b| self.paid().contains(&b.amount))
            .ok_or_else(|| Refusal::CannotWin {
                area: self.layout.areas[usize::from(a)].clone(),
                amount: w.amount,
                can: can(),
            })?;
        base.wins[0].area = None;
        Ok((Some(a), base))
    }

    /// The amounts the card pays (its legend's, or its patterns' by the legend's rule),
    /// ascending, each once.
    fn paid(&self) -> Vec<Money> {
        let mut v: Vec<Money> = if self.patterns.is_some() {
            self.amount_of.iter().flatten().copied().collect()
        } else {
            (0..=self.most())
                .filter_map(|m| self.prizes.get(m).copied().flatten())
                .collect()
        };
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The multiplier whose decoy is feature `id`, as its free code.
    fn decoy_code(&self, id: FeatureId) -> Option<u8> {
        self.decoys
            .iter()
            .position(|&d| d == id)
            .map(|j| 1 + j as u8)
    }

    /// Whether a face of `way` (whose card shows `base`) can show feature `id`: a
    /// multiplier's decoy on a losing card only, the near miss as without specials.
    fn can_show_free(&self, way: &Way, base: &Way, id: FeatureId) -> Result<(), Refusal> {
        if self.decoy_code(id).is_none() {
            return self.can_show(base, id);
        }
        if way.wins.is_empty() {
            return Ok(());
        }
        Err(Refusal::NeedsLosing {
            feature: self.layout.features.name(id).to_string(),
            needs: format!("a losing card of « {} »", self.label),
            way: way.id.clone(),
        })
    }

    /// A face of a card with specials: its numbers drawn for `base` (given the shared draw
    /// `given`, for a card that reads one), its free cell showing `free` (a winning way's),
    /// or on a losing card the decoy asked, else a code drawn from the winning cards' law.
    /// Drawn into `face`, whatever it held.
    fn draw_free(
        &self,
        base: &Way,
        free: Option<u8>,
        show: Option<FeatureId>,
        given: Option<&Face>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        let decoy = show.and_then(|id| self.decoy_code(id));
        let show = show.filter(|_| decoy.is_none());
        let code = match free.or(decoy) {
            Some(c) => c,
            None => {
                let law = self.free_law.get().expect("set when every way was planned");
                weighted(rng, law) as u8
            }
        };
        match given {
            Some(g) => self.draw_given(base, show, g, rng, face),
            None => self.draw(base, show, rng, face),
        }
        face.codes[self.free_column()] = code;
    }

    /// The free cells in words, between `before` and `after`: `the free centre`, `a free
    /// cell at row 1, column 5`, `4 free cells (row 1, column 1; …)`; nothing without one.
    fn free_words(&self, before: &str, after: &str) -> String {
        let Some(n) = self.grid else {
            return String::new();
        };
        let at = |p: &usize| format!("row {}, column {}", p / n + 1, p % n + 1);
        let what = match self.free.as_slice() {
            [] => return String::new(),
            [c] if n % 2 == 1 && *c == (n / 2) * n + n / 2 => "the free centre".to_string(),
            [c] => format!("a free cell at {}", at(c)),
            many => format!(
                "{} free cells ({})",
                many.len(),
                many.iter().map(at).collect::<Vec<_>>().join("; ")
            ),
        };
        let what = if before.ends_with("with ") {
            what.replacen("the free centre", "a free centre", 1)
        } else {
            what
        };
        format!("{before}{what}{after}")
    }

    /// The most matches a face may show (fewer on a grid card: one cell per line unmatched).
    fn most(&self) -> usize {
        let m = self.numbers.min(self.drawn);
        match self.grid {
            Some(n) => m.min(self.numbers - n),
            None => m,
        }
    }

    /// The counts a win of `amount` may show.
    fn counts_for(&self, amount: Money) -> Vec<usize> {
        (0..=self.most())
            .filter(|&m| self.prizes.get(m).copied().flatten() == Some(amount))
            .collect()
    }

    /// Which card cells match on `face`.
    fn matched(&self, face: &Face) -> [bool; MAX_VALUES] {
        let mut drawn = [false; 256];
        for &c in &face.codes[self.numbers..self.numbers + self.drawn] {
            drawn[c as usize] = true;
        }
        let mut out = [false; MAX_VALUES];
        for (o, &c) in out.iter_mut().zip(&face.codes[..self.numbers]) {
            *o = drawn[c as usize];
        }
        out
    }

    /// A face whose card cells `cells` (in a drawn order) match and no other: distinct
    /// numbers are drawn for the matches, the card's other cells and the other drawn
    /// numbers, and each matched number is put at a drawn place among the drawn. Written
    /// into `face`, whatever it held.
    fn write_numbers(&self, cells: &[u8], rng: &mut FaceRng, face: &mut Face) {
        let m = cells.len();
        let mut vals = ArrayVec::<u32, MAX_PICK>::new();
        pick_distinct_into(rng, self.range, self.numbers + self.drawn - m, &mut vals);

        face.reset(self.layout.columns.len());
        // The matched numbers, then the card's other numbers, then the other drawn ones.
        let (shared, rest) = vals.split_at(m);
        // Each matched number at its own drawn position, on the card and among the drawn.
        let mut taken = [false; MAX_VALUES];
        let mut j = 0;
        each_pick(rng, self.drawn as u32, m, |at| {
            let c = cells[j] as usize;
            let d = self.numbers + at as usize;
            face.codes[c] = shared[j] as u8;
            face.codes[d] = shared[j] as u8;
            taken[c] = true;
            taken[d] = true;
            j += 1;
        });
        // Each place left, card then drawn, reads the next of `rest`: a taken place keeps
        // its code by a mask, not a branch (a place is taken or not at random).
        let mut next = 0;
        let places = &mut face.codes[..self.numbers + self.drawn];
        for (code, &t) in places.iter_mut().zip(&taken) {
            let keep = u8::from(t).wrapping_neg();
            let v = rest.get(next).map_or(0, |&v| v as u8);
            *code = (*code & keep) | (v & !keep);
            next += usize::from(!t);
        }
    }

    /// A face whose card cells `cells` (in a drawn order) match the drawn numbers `given`
    /// shows (a shared draw, in its columns) and no other: each matched cell shows a
    /// different drawn number, drawn among them, and the card's other cells different
    /// numbers the draw does not show. The range holds the card and the draw together
    /// (checked at load), so every count of matches is reachable whatever the draw. Written
    /// into `face`, whatever it held.
    fn write_given(&self, cells: &[u8], given: &Face, rng: &mut FaceRng, face: &mut Face) {
        let m = cells.len();
        face.reset(self.layout.columns.len());
        let drawn = &given.codes[self.numbers..self.numbers + self.drawn];
        face.codes[self.numbers..self.numbers + self.drawn].copy_from_slice(drawn);
        let mut j = 0;
        each_pick(rng, self.drawn as u32, m, |d| {
            face.codes[cells[j] as usize] = drawn[d as usize];
            j += 1;
        });
        let mut others = ArrayVec::<u32, MAX_PICK>::new();
        pick_distinct_into(
            rng,
            self.range - self.drawn as u32,
            self.numbers - m,
            &mut others,
        );
        // The numbers the draw does not show, in increasing order: the `r`-th is `free[r]`,
        // as `shared::nth_free` counts it.
        let mut shown = [false; 256];
        for &d in drawn {
            shown[usize::from(d)] = true;
        }
        let mut free = [0u8; 256];
        let mut n_free = 0;
        for (v, &s) in shown[..self.range as usize].iter().enumerate() {
            free[n_free] = v as u8;
            n_free += usize::from(!s);
        }
        let mut matched = [false; MAX_VALUES];
        for &c in cells {
            matched[usize::from(c)] = true;
        }
        // Each unmatched cell reads the next of `others`; a matched cell keeps its code by a
        // mask, not a branch (a cell matches or not at random).
        let mut next = 0;
        for (code, &m) in face.codes[..self.numbers].iter_mut().zip(&matched) {
            let keep = u8::from(m).wrapping_neg();
            let v = others.get(next).map_or(0, |&r| free[usize::from(r as u8)]);
            *code = (*code & keep) | (v & !keep);
            next += usize::from(!m);
        }
    }

    /// Pattern mode: the card cells that match, in a drawn order. A winning card fills one
    /// line of a pattern paying the way's amount; a near miss fills a paid line but one
    /// cell; every other line keeps one unmatched cell (drawn line by line, in a drawn
    /// order); then more matches are drawn among the cells left, as many as the drawn
    /// numbers allow. The cells are appended to `order` (empty).
    fn pattern_cells(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
        order: &mut ArrayVec<u8, MAX_VALUES>,
    ) {
        let n_lines = self.lines.len();
        // Card cells as bits (a grid holds at most 49), as the lines are.
        let mut matched = 0u64;
        let mut blocked = 0u64;
        let mut full = None;
        let mut clean = false;
        let paid = |l: usize| self.amount_of[l];
        match way.wins.first() {
            Some(w) => {
                let lines: ArrayVec<usize, MAX_LINES> = (0..n_lines)
                    .filter(|&l| paid(l) == Some(w.amount))
                    .collect();
                let l = lines[below(rng, lines.len() as u32) as usize];
                matched = self.line_bits[l];
                full = Some(l);
            }
            None if show.is_some() || chance(rng, self.near_miss) => {
                let lines: ArrayVec<usize, MAX_LINES> =
                    (0..n_lines).filter(|&l| !self.gaps[l].is_empty()).collect();
                let l = lines[below(rng, lines.len() as u32) as usize];
                let gaps = &self.gaps[l];
                let gap = 1u64 << gaps[below(rng, gaps.len() as u32) as usize];
                matched = self.line_bits[l] & !gap;
                blocked = gap;
            }
            None => clean = true,
        }
        // Every other line not inside the placed one has a cell outside it (no two lines
        // hold the same cells), so one is always left to keep unmatched; a near miss's gap
        // leaves no line inside its line complete. A losing card not drawn to show the near
        // miss has nothing placed: each paid line keeps two of its cells (it holds two or
        // more) unmatched, so none is one match short.
        for &l in &pick_few::<MAX_LINES>(rng, n_lines as u32, n_lines) {
            let l = l as usize;
            if full.is_some_and(|f| f == l || self.holders[l] >> f & 1 == 1) {
                continue;
            }
            let need = if clean && paid(l).is_some() { 2 } else { 1 };
            let line = self.line_bits[l];
            for _ in (line & blocked).count_ones()..need {
                // The `k`-th of the line's cells neither matched nor blocked, in the line's
                // order (its cells ascend, as its bits do).
                let free = line & !matched & !blocked;
                let k = below(rng, free.count_ones());
                blocked |= 1 << common::nth_set_bit(free, k).expect("k below the count");
            }
        }
        // A grid card's cells fit in the 64 bits of `matched`.
        let mut cells: ArrayVec<u8, 64> = bits(matched).collect();
        let open: ArrayVec<u8, 64> =
            bits(!(matched | blocked) & (u64::MAX >> (64 - self.numbers))).collect();
        let room = open.len().min(self.drawn - cells.len());
        let extra = below(rng, room as u32 + 1) as usize;
        each_pick(rng, open.len() as u32, extra, |p| {
            cells.push(open[p as usize])
        });
        each_pick(rng, cells.len() as u32, cells.len(), |i| {
            order.push(cells[i as usize])
        });
    }

    /// Which card cells of a grid card (at most 49) match on `face`, as bits: bit `c` for
    /// card cell `c`, as the lines' bits.
    fn matched_bits(&self, face: &Face) -> u64 {
        let mut drawn = [0u64; 4];
        for &c in &face.codes[self.numbers..self.numbers + self.drawn] {
            drawn[usize::from(c >> 6)] |= 1 << (c & 63);
        }
        face.codes[..self.numbers]
            .iter()
            .enumerate()
            .fold(0, |m, (i, &c)| {
                m | (drawn[usize::from(c >> 6)] >> (c & 63) & 1) << i
            })
    }

    /// Pattern mode: the full lines of matches on a card whose matched cells are the bits
    /// `matched` (line indices).
    fn full_lines(&self, matched: u64) -> ArrayVec<usize, MAX_LINES> {
        (0..self.lines.len())
            .filter(|&l| self.line_bits[l] & !matched == 0)
            .collect()
    }

    /// Pattern mode: the full lines of matches that no other full line holds (the
    /// patterns a player sees: an X, not its diagonals).
    fn largest(&self, matched: u64) -> ArrayVec<usize, MAX_LINES> {
        let mut full = self.full_lines(matched);
        let set = full.iter().fold(0u32, |s, &l| s | 1 << l);
        full.retain(|a| self.holders[*a] & set == 0);
        full
    }

    /// Pattern mode: the first paid line one match short.
    fn near_line(&self, matched: u64) -> Option<usize> {
        let pay = self.patterns?;
        (0..self.lines.len()).find(|&l| {
            pay[self.line_kind[l] as usize].is_some()
                && (self.line_bits[l] & !matched).count_ones() == 1
        })
    }
}

impl MatchCount {
    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        match way.wins.as_slice() {
            [] => Ok(()),
            [w] => {
                if let Some(a) = w.area.filter(|&a| a != 0) {
                    return Err(Refusal::NoSuchArea { area: a });
                }
                let cannot = |can: String| Refusal::CannotWin {
                    area: self.id.clone(),
                    amount: w.amount,
                    can,
                };
                if self.patterns.is_some() {
                    if !self.amount_of.contains(&Some(w.amount)) {
                        return Err(cannot("the amount is no pattern's amount".into()));
                    }
                } else if self.counts_for(w.amount).is_empty() {
                    return Err(cannot(format!(
                        "the amount is no prized count's amount{}",
                        if self.grid.is_some() {
                            format!(" (at most {} matches, with no full line)", self.most())
                        } else {
                            String::new()
                        }
                    )));
                }
                Ok(())
            }
            _ => Err(Refusal::TooManyWins {
                area: self.id.clone(),
                wins: way.wins.len(),
                most: 1,
                why: "it wins by its count of matches",
            }),
        }
    }

    fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), Refusal> {
        self.near().can_show(way, id, &self.layout, &self.id)
    }

    fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        self.near().always_shows(way)
    }

    /// A face of `way`, drawn into `face`, whatever it held.
    fn draw(&self, way: &Way, show: Option<FeatureId>, rng: &mut FaceRng, face: &mut Face) {
        if self.reads.is_some() {
            // Alone (a style's own tests), the card draws its shared draw itself, uniformly.
            let mut given = Face::zeroed(self.layout.columns.len());
            for (i, &c) in pick_distinct::<MAX_PICK>(rng, self.range, self.drawn)
                .iter()
                .enumerate()
            {
                given.codes[self.numbers + i] = c as u8;
            }
            return self.draw_given(way, show, &given, rng, face);
        }
        let mut cells = ArrayVec::new();
        self.cells(way, show, rng, &mut cells);
        self.write_numbers(&cells, rng, face)
    }

    /// A face of `way` whose drawn numbers are those `given` shows (the shared draw),
    /// drawn into `face`, whatever it held.
    fn draw_given(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        given: &Face,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        let mut cells = ArrayVec::new();
        self.cells(way, show, rng, &mut cells);
        self.write_given(&cells, given, rng, face)
    }

    /// The card cells that match on a face of `way`, in a drawn order, appended to `cells`
    /// (empty: the caller's, so that nothing is copied out of a result).
    fn cells(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
        cells: &mut ArrayVec<u8, MAX_VALUES>,
    ) {
        if self.patterns.is_some() {
            return self.pattern_cells(way, show, rng, cells);
        }
        let m = match way.wins.first() {
            Some(w) => {
                let counts = self.counts_for(w.amount);
                counts[below(rng, counts.len() as u32) as usize]
            }
            None if self.lowest >= 2 && (show.is_some() || chance(rng, self.near_miss)) => {
                self.lowest - 1
            }
            None if self.lowest >= 2 => below(rng, self.lowest as u32 - 1) as usize,
            None => 0,
        };
        // The card cells that match, in a drawn order (each matched number's cell).
        if self.grid.is_some() {
            let open = &self.open[below(rng, self.open.len() as u32) as usize];
            each_pick(rng, open.len() as u32, m, |p| cells.push(open[p as usize]));
        } else {
            each_pick(rng, self.numbers as u32, m, |p| cells.push(p as u8));
        }
    }
}

/// The presentation of the style, computed once by its constructor.
impl MatchCount {
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
        Vec::new()
    }

    fn panels(&self) -> Vec<Panel> {
        let card_rows: Vec<Vec<usize>> = match self.grid {
            Some(n) => {
                let mut rows = vec![Vec::new(); n];
                let mut cell = 0;
                // With specials, the free cell shows its face column (FREE or a multiplier).
                let free = if self.specials.is_empty() {
                    FREE_CELL
                } else {
                    self.free_column()
                };
                for p in 0..n * n {
                    if self.free.contains(&p) {
                        rows[p / n].push(free);
                    } else {
                        rows[p / n].push(cell);
                        cell += 1;
                    }
                }
                rows
            }
            None => vec![(0..self.numbers).collect()],
        };
        let drawn: Vec<usize> = (self.numbers..self.numbers + self.drawn).collect();
        vec![
            Panel {
                id: self.id.clone(),
                rows: card_rows,
            },
            Panel {
                id: format!("{}_drawn", self.id),
                rows: drawn.chunks(8).map(<[usize]>::to_vec).collect(),
            },
        ]
    }

    /// The pay table the card prints: the amount of each prized number of matches, or of
    /// each full line.
    fn printed(&self) -> Vec<Printed> {
        let lines: Vec<Phrase> = match self.patterns {
            Some(p) => PATTERN_PRINTED
                .into_iter()
                .zip(p)
                .filter_map(|(line, m)| {
                    m.map(|m| Phrase::Full {
                        line,
                        amount: m.into(),
                    })
                })
                .collect(),
            None => self
                .prizes
                .iter()
                .enumerate()
                .filter_map(|(count, m)| {
                    m.map(|m| Phrase::Matches {
                        count,
                        amount: m.into(),
                    })
                })
                .collect(),
        };
        let mut lines = super::common::legend_lines(lines);
        if let Some(rule) = self.rule {
            lines.push(PrintedLine::of(vec![Phrase::PatternRule {
                each: rule == PatternRule::Each,
            }]));
        }
        let times: Vec<Phrase> = (1..=self.specials.list().len() as u8)
            .filter_map(|c| {
                let (_, t) = self.factor(c)?;
                Some(Phrase::Multiplies {
                    symbol: self.specials.list()[usize::from(c) - 1].symbol.clone(),
                    factor: u64::from(t),
                })
            })
            .collect();
        lines.extend(super::common::legend_lines(times));
        vec![Printed {
            panel: self.id.clone(),
            lines,
        }]
    }

    /// The drawn numbers in words: `20 drawn numbers`, or for a card reading a shared draw
    /// `20 numbers of the shared draw « Tirage », which every card reading it reads alike`.
    fn drawn_words(&self) -> String {
        match &self.reads {
            None => format!("{} drawn numbers", self.drawn),
            Some(label) => format!(
                "{} numbers of the shared draw « {label} », printed once and read alike by \
                 every card that reads it",
                self.drawn
            ),
        }
    }

    fn describe(&self) -> Vec<String> {
        let mut v = self.describe_card();
        if self.specials.is_empty() {
            return v;
        }
        let mut each: Vec<String> = Vec::new();
        for (j, sp) in self.specials.list().iter().enumerate() {
            if let SpecialKind::Multiplier(t) = sp.kind {
                each.push(format!(
                    "{} multiplies the card's win by {t} (play area « {} »)",
                    sp.symbol, self.special_labels[j]
                ));
            }
        }
        v.push(format!(
            "The free cell shows {FREE} or a multiplier: {}. A multiplier counts as matched as \
             FREE does and wins nothing on its own: on a losing card it is a decoy. The lot is \
             the multiplied win.",
            each.join("; ")
        ));
        v.push(
            "A losing card shows a multiplier too, drawn as the winning cards' free cells are \
             spread, so that the free cell says nothing of whether a card wins; a near miss \
             shows one as often as any losing card."
                .to_string(),
        );
        v
    }

    /// The card's description, its free cell's symbols aside.
    fn describe_card(&self) -> Vec<String> {
        let vals = &self.layout.columns[0].values;
        if let (Some(pay), Some(n)) = (self.patterns, self.grid) {
            let legend: Vec<String> = PATTERN_WORDS
                .iter()
                .zip(pay)
                .filter_map(|(p, a)| a.map(|a| format!("{p} {a}")))
                .collect();
            let mut v = vec![
                format!(
                    "« {} » wins when every number of a full row, column or diagonal of its \
                     {n}×{n} card{} is among the {} (numbers {} to {}): {}.",
                    self.label,
                    self.free_words(" (", " counting as drawn)"),
                    self.drawn_words(),
                    vals[0],
                    vals.last().expect("a range"),
                    legend.join(", ")
                ),
                format!(
                    "A card shows at most one full line, never one of a pattern that does not \
                     pay. Near miss {} (a paid line one match short) on {:.2}% of losing \
                     cards; every other losing card keeps two numbers of each paid line \
                     unmatched.",
                    self.layout.features.name(self.near_miss_id),
                    f64::from(self.near_miss) / 1e4
                ),
            ];
            if pay[CORNERS].is_some() {
                v.insert(
                    1,
                    "The four corners are a pattern of their own: they win when the numbers of \
                     all four corners (a free one counting as drawn) are among the drawn \
                     numbers."
                        .to_string(),
                );
            }
            if let Some(rule) = self.rule {
                let mut s = String::new();
                if pay[X].is_some() {
                    s.push_str(
                        "An X is both diagonals complete (it also completes the four corners). ",
                    );
                }
                if pay[FULL].is_some() {
                    s.push_str("A full card is every number of the card drawn. ");
                }
                s.push_str(match rule {
                    PatternRule::Highest => {
                        "A card completing a pattern that holds others (an X its diagonals, a \
                         full card every line) pays only the highest amount among them, the \
                         one the legend gives the largest pattern."
                    }
                    PatternRule::Each => {
                        "A card completing a pattern that holds others (an X its diagonals, a \
                         full card every line) pays each pattern it completes, added up."
                    }
                });
                v.insert(v.len() - 1, s);
                let last = v.len() - 1;
                v[last] = format!(
                    "A card shows at most one largest pattern (with the patterns it holds), \
                     never one of a pattern that does not pay. Near miss {} (a paid pattern one \
                     match short, with nothing inside it complete) on {:.2}% of losing cards; \
                     every other losing card keeps two numbers of each paid pattern unmatched.",
                    self.layout.features.name(self.near_miss_id),
                    f64::from(self.near_miss) / 1e4
                );
            }
            return v;
        }
        let legend: Vec<String> = self
            .prizes
            .iter()
            .enumerate()
            .filter_map(|(m, p)| p.map(|a| format!("{m} matches win {a}")))
            .collect();
        let mut v = vec![format!(
            "« {} » wins by the number of its {} numbers found among the {} (numbers {} to \
             {}): {}; any other count loses.",
            self.label,
            self.numbers,
            self.drawn_words(),
            vals[0],
            vals.last().expect("a range"),
            legend.join(", ")
        )];
        if let Some(n) = self.grid {
            v.push(format!(
                "The card is a {n}×{n} grid{}; it pays by count only, and no card shows a full \
                 row, column or diagonal of matches{}, so it never reads as a bingo line.",
                self.free_words(" with ", ""),
                self.free_words(" (", " counting as matched)"),
            ));
        }
        v.push(format!(
            "No face shows more matches than a prized count without a prize of its own. Near \
             miss {} (one match short of {}) on {:.2}% of losing cards; every other losing \
             card shows at most {} match{}.",
            self.layout.features.name(self.near_miss_id),
            self.lowest,
            f64::from(self.near_miss) / 1e4,
            self.lowest.saturating_sub(2),
            if self.lowest == 3 { "" } else { "es" }
        ));
        v
    }
}

impl Style for MatchCount {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    /// A card that reads a shared draw also draws given it ([`Plan::draw_given`]). A card
    /// with specials decides its free code (or that it is drawn) and the way its numbers
    /// show (`free_split`).
    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        if !self.specials.is_empty() {
            let (free, base) = self.free_split(way)?;
            self.check_way(&base)?;
            let (drawer, b) = (Arc::clone(&self), base.clone());
            let plan = Plan::new(
                &*self,
                way,
                |id| self.can_show_free(way, &base, id),
                self.always_shows(&base),
                move |show, rng, face| drawer.draw_free(&b, free, show, None, rng, face),
            );
            if self.reads.is_none() {
                return Ok(plan);
            }
            return Ok(plan.with_given(move |show, given, rng, face| {
                self.draw_free(&base, free, show, Some(given), rng, face)
            }));
        }
        let reader = self.reads.is_some().then(|| Arc::clone(&self));
        let plan = Plan::of_checked_way(
            self,
            way,
            Self::check_way,
            Self::can_show,
            Self::always_shows,
            Self::draw,
        )?;
        Ok(match reader {
            Some(s) => {
                let w = way.clone();
                plan.with_given(move |show, given, rng, face| {
                    s.draw_given(&w, show, given, rng, face)
                })
            }
            None => plan,
        })
    }

    /// Refuses a multiplier no way wins by; then sets the law of the free codes losing
    /// cards show: each winning way's count spread evenly over its splits, to the free code
    /// the card shows in each (none where the card loses), so that a card showing any free
    /// symbol wins as often as a card showing another ([`multiply::spread_weights`]).
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        if self.specials.is_empty() {
            return Ok(());
        }
        self.specials.check_ways(plans, &self.layout.areas)?;
        let mut ways: Vec<(&str, u32, Vec<Option<u8>>)> = Vec::new();
        for p in plans {
            let w = p.way();
            let code = w.wins.first().map(|x| x.area.unwrap_or(0));
            match ways.iter_mut().find(|e| e.0 == w.id) {
                Some(e) => e.2.push(code),
                None => ways.push((&w.id, w.count, vec![code])),
            }
        }
        let entries: Vec<(u32, Vec<Option<u8>>)> =
            ways.into_iter().map(|(_, c, v)| (c, v)).collect();
        let law = multiply::spread_weights(&entries, 1 + self.specials.list().len()).ok_or_else(
            || Refusal::LawTooFine {
                area: self.layout.areas[0].clone(),
            },
        )?;
        // Planned once per spec load: a second plan of the same ways finds the same law.
        let _ = self.free_law.set(law);
        Ok(())
    }

    fn features(&self) -> Vec<FeatureId> {
        let mut v = self.near().features();
        v.extend(&self.decoys);
        v
    }

    /// The cells of a win or near miss; a multiplier in the free cell is marked with the
    /// win it multiplies, or as a decoy on a losing card.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let mut out = Vec::new();
        if !self.specials.is_empty() {
            let column = self.free_column();
            let code = face.codes[column];
            if let Some(w) = ev.wins.first().filter(|w| w.area > 0) {
                out.push(Mark {
                    area: w.area,
                    column,
                    kind: MarkKind::Win,
                });
            } else if let Some((a, _)) = self.factor(code).filter(|&(a, _)| a > 0) {
                if ev.wins.is_empty() {
                    out.push(Mark {
                        area: a,
                        column,
                        kind: MarkKind::Decoy,
                    });
                }
            }
        }
        let area = ev.wins.first().map_or(0, |w| w.area);
        let kind = if !ev.wins.is_empty() {
            MarkKind::Win
        } else if ev.shows(self.near_miss_id) {
            MarkKind::NearMiss
        } else {
            return out;
        };
        let mut matched = self.matched(face);
        if self.patterns.is_some() {
            // Only the cells of the winning line, or of the line one match short.
            let bits = self.matched_bits(face);
            let line = if kind == MarkKind::Win {
                self.largest(bits)
                    .into_iter()
                    .find(|&l| self.amount_of[l].is_some())
            } else {
                self.near_line(bits)
            };
            let on: Vec<usize> = line.map_or(Vec::new(), |l| self.lines[l].clone());
            for (c, m) in matched.iter_mut().enumerate() {
                *m = *m && on.contains(&c);
            }
        }
        let card: Vec<u8> = (0..self.numbers)
            .filter(|&c| matched[c])
            .map(|c| face.codes[c])
            .collect();
        out.extend(
            (0..self.numbers)
                .filter(|&c| matched[c])
                .map(|column| Mark { area, column, kind }),
        );
        for d in 0..self.drawn {
            let col = self.numbers + d;
            if card.contains(&face.codes[col]) {
                out.push(Mark {
                    area,
                    column: col,
                    kind,
                });
            }
        }
        out
    }

    /// Judges the card (`evaluate_card`), then its free cell: a multiplier
    /// there multiplies the card's win, in the multiplier's play area, and on a losing card
    /// is a decoy.
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        self.evaluate_card(face, ev);
        if self.specials.is_empty() {
            return;
        }
        match self.factor(face.codes[self.free_column()]) {
            None => ev.ambiguities.push(AMB_FREE_SYMBOL),
            Some((0, _)) => {}
            Some((a, t)) => match ev.wins.first_mut() {
                Some(w) => {
                    w.area = a;
                    w.amount = multiply::times(w.amount, t);
                }
                None => ev.losing_features.push(AreaFeature {
                    area: a,
                    id: self.decoys[usize::from(a) - 1],
                }),
            },
        }
    }
}

impl MatchCount {
    /// The card's judgement, its free cell aside, by count or pattern of matches, added to
    /// `ev` (empty on entry).
    fn evaluate_card(&self, face: &Face, ev: &mut Evaluation) {
        let repeats = |codes: &[u8]| {
            let mut seen = [false; 256];
            codes
                .iter()
                .any(|&c| std::mem::replace(&mut seen[c as usize], true))
        };
        if repeats(&face.codes[..self.numbers]) {
            ev.ambiguities.push(AMB_CARD_REPEAT);
        }
        if repeats(&face.codes[self.numbers..self.numbers + self.drawn]) {
            ev.ambiguities.push(AMB_DRAWN_REPEAT);
        }
        if self.grid.is_none() {
            let m = self.matched(face)[..self.numbers]
                .iter()
                .filter(|&&x| x)
                .count();
            self.judge_count(m, ev);
            return;
        }
        let matched = self.matched_bits(face);
        if self.patterns.is_some() {
            // The largest patterns completed: the lines inside them are part of what they
            // pay (by the legend's rule, in `amount_of`).
            let full = self.largest(matched);
            if full.len() >= 2 {
                ev.ambiguities.push(AMB_TWO_LINES);
            }
            let paid = |l: usize| self.amount_of[l];
            if full.iter().any(|&l| paid(l).is_none()) {
                ev.ambiguities.push(AMB_UNPAID_LINE);
            }
            match full.iter().find_map(|&l| paid(l)) {
                Some(amount) => ev.wins.push(AreaWin { area: 0, amount }),
                None => {
                    if self.near_line(matched).is_some() {
                        ev.losing_features.push(AreaFeature {
                            area: 0,
                            id: self.near_miss_id,
                        });
                    }
                }
            }
            return;
        }
        if self.line_bits[..self.lines.len()]
            .iter()
            .any(|&line| line & !matched == 0)
        {
            ev.ambiguities.push(AMB_LINE);
        }
        self.judge_count(matched.count_ones() as usize, ev);
    }

    /// A card paid by count, judged by its `m` matches: added to `ev`.
    fn judge_count(&self, m: usize, ev: &mut Evaluation) {
        match self.prizes.get(m).copied().flatten() {
            Some(amount) => ev.wins.push(AreaWin { area: 0, amount }),
            None => {
                if m > self.lowest {
                    ev.ambiguities.push(AMB_UNPAID_ABOVE);
                } else if m + 1 == self.lowest && self.lowest >= 2 {
                    ev.losing_features.push(AreaFeature {
                        area: 0,
                        id: self.near_miss_id,
                    });
                }
            }
        }
    }
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(MatchCount::new(style::parse(table)?, ctx)?))
}

/// The match count style's entry in the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "match_count",
    term: "match count (bingo-like cards, lotto-like grids)",
    about: "Your numbers against drawn numbers; the prize legend pays by the number of \
            matches (prizes = { \"5\" = 10, \"6\" = 100 }); any other count loses. A grid \
            card may pay by full line or pattern instead (patterns = { row = 5, diagonal = \
            20, corners = 10, x = 50, full = 500 }).",
    naive: "A player counts matches and reads a legend count as \"that many or more\", and a \
            bingo player reads a full line of a grid card as a win: no face shows an unpaid \
            count above a paid one, a repeated number, or a full line of matches; a card paid \
            by pattern shows, when it wins, one line or the one larger pattern it is paid for \
            (four corners, an X, a full card, with the lines inside it), and none when it \
            loses. A multiplier in the free cell multiplies the card's win and alone wins \
            nothing; losing cards show it as often as winning ones.",
    columns: "{id}_n{i} (the card, row by row, free centre left out), {id}_d{i} (drawn), \
              {id}_free (with specials: FREE or a multiplier)",
    params: &[
        Param {
            name: "numbers",
            kind: "integer",
            default: None,
            about: "numbers on the card",
        },
        Param {
            name: "drawn",
            kind: "integer",
            default: None,
            about: "drawn numbers shown under the scratch (left out on a card that reads a shared draw: `reads`)",
        },
        Param {
            name: "from",
            kind: "integer",
            default: None,
            about: "lowest number (left out on a card that reads a shared draw: its symbols)",
        },
        Param {
            name: "to",
            kind: "integer",
            default: None,
            about: "highest number (the range holds the card's and the drawn numbers apart; left out on a card that reads a shared draw)",
        },
        Param {
            name: "width",
            kind: "integer",
            default: Some("digits of `to`"),
            about: "digits each number is written with (zero-padded)",
        },
        Param {
            name: "prizes",
            kind: "table count → amount",
            default: Some("none (give this or patterns)"),
            about:
                "the amount each number of matches wins (the printed legend); give this or patterns",
        },
        Param {
            name: "patterns",
            kind: "table pattern → amount",
            default: Some("none (give this or prizes)"),
            about: "a grid card paid by pattern instead: row, column, diagonal, corners (the \
                    four corners), x (both diagonals), full (the full card) → amount",
        },
        Param {
            name: "pattern_rule",
            kind: "\"highest\" or \"each\"",
            default: Some("none (needed with x or full)"),
            about: "how a card completing a pattern that holds others pays: only the highest \
                    amount among them, or each, added up (printed under the legend)",
        },
        Param {
            name: "grid",
            kind: "integer",
            default: Some("none (a row of numbers)"),
            about: "side of a square grid card (3 to 7); no full line of matches is shown",
        },
        Param {
            name: "free_centre",
            kind: "boolean",
            default: Some("false"),
            about: "an odd grid's centre is a free cell (not a number)",
        },
        Param {
            name: "free_cells",
            kind: "array of [row, column]",
            default: Some("none"),
            about: "free (joker) cells placed anywhere on the grid, rows and columns from 1: \
                    each is printed FREE, holds no number and counts as matched",
        },
        Param {
            name: "specials",
            kind: "array of { symbol, kind, times, area, caption }",
            default: Some("none"),
            about: "multipliers (kind = \"multiplier\", times = 2 or more) the card's one free \
                    cell may show instead of FREE: the card's win times `times`, in the \
                    multiplier's play area (default {area}_{symbol}); losing cards show them \
                    as often as winning ones",
        },
        Param {
            name: "near_miss",
            kind: "share",
            default: Some("0"),
            about: "share of losing cards one match short of the lowest prized count (pattern \
                    mode: a paid line one short); exact: no other losing card shows one",
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
    ],
    example: r#"[[surfaces]]
style = "match_count"
id = "bingo"
numbers = 25
drawn = 24
from = 1
to = 75
grid = 5
near_miss = 0.3
prizes = { "9" = 2, "10" = 5, "11" = 20, "12" = 100 }
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        count_showing, drawn_twice, features_as_asked, judge_any_faces, round_trip,
        round_trip_showing, way, way_at, Ctx,
    };
    use crate::styles::testkit::{Planning, Tested};
    use rand_core::SeedableRng;

    /// The near miss's feature id on surface `b` (area `b`).
    const NEAR_MISS: &str = "near_miss_b";

    const BINGO: &str = "numbers = 25\ndrawn = 24\nfrom = 1\nto = 75\ngrid = 5\n\
        near_miss = 0.3\n\
        prizes = { \"9\" = 2, \"10\" = 5, \"11\" = 20, \"12\" = 100 }\n";
    const LOTTO: &str = "numbers = 6\ndrawn = 6\nfrom = 1\nto = 49\nnear_miss = 0.5\n\
        prizes = { \"3\" = 2, \"4\" = 20, \"5\" = 100, \"6\" = 100 }\n";

    fn make(text: &str) -> Result<Arc<MatchCount>, FieldError> {
        let ctx = Ctx::new("b").label("b", "Bingo");
        MatchCount::new(style::parse(toml::from_str(text).unwrap())?, &ctx.get()).map(Arc::new)
    }

    /// A face from its numbers as printed.
    fn face(card: &[u8], drawn: &[u8]) -> Face {
        let mut f = Face::default();
        for (i, &n) in card.iter().chain(drawn).enumerate() {
            f.codes[i] = n - 1;
        }
        f
    }

    /// A 5×5 card paid by pattern whose free centre may show 2X (with a caption) or 5X.
    const MULTI: &str = "numbers = 24\ndrawn = 24\nfrom = 1\nto = 75\ngrid = 5\n\
        free_centre = true\nnear_miss = 0.25\npatterns = { row = 2, column = 2, diagonal = 10 }\n\
        specials = [{ symbol = \"2X\", kind = \"multiplier\", times = 2, caption = \"GAIN X2\" },\n\
        { symbol = \"5X\", kind = \"multiplier\", times = 5 }]\n";

    fn make_multi(text: &str) -> Result<Arc<MatchCount>, FieldError> {
        let ctx = Ctx::new("b").label("b", "Bingo").tiers(&[2, 4, 10, 20, 50]);
        MatchCount::new(style::parse(toml::from_str(text).unwrap())?, &ctx.get()).map(Arc::new)
    }

    /// `way` with its count set.
    fn counted(mut w: Way, count: u32) -> Way {
        w.count = count;
        w
    }

    #[test]
    fn a_multiplier_in_the_free_cell_multiplies_the_card_win() {
        let m = make_multi(MULTI).unwrap();
        let l = m.layout();
        assert_eq!(l.areas, ["b", "b_2x", "b_5x"]);
        assert_eq!(l.columns.len(), 49);
        assert_eq!(l.columns[48].name, "b_free");
        assert_eq!(l.columns[48].values, ["FREE", "2X", "5X"]);
        assert_eq!(l.columns[48].inscriptions, ["", "GAIN X2", ""]);
        // The free centre shows its face column.
        assert_eq!(l.panels[0].rows[2], vec![10, 11, 48, 12, 13]);
        let printed: Vec<String> = l.printed[0]
            .lines
            .iter()
            .map(|x| crate::language::Language::En.line(x, "EUR"))
            .collect();
        assert_eq!(printed.last().unwrap(), "2X = win ×2 · 5X = win ×5");
        // 6 plain wins of 2, 3 lines doubled (4), one diagonal times 5 (50).
        let ways = [
            counted(way(&[2]), 6),
            counted(way_at(1, &[4]), 3),
            counted(way_at(2, &[50]), 1),
        ];
        let plans: Vec<Plan> = ways
            .iter()
            .map(|w| Arc::clone(&m).plan(w).unwrap())
            .collect();
        m.check_ways(&plans.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!(m.free_law.get(), Some(&vec![6, 3, 1]));
        for (w, code) in ways.iter().zip([0, 1, 2]) {
            for (seed, face, ev) in round_trip(&m, w, 0..40) {
                assert_eq!(face.codes[48], code, "way {} seed {seed}", w.id);
                assert_eq!(ev.wins[0].area, code);
                let marks = m.marks(&face, &ev);
                assert_eq!(marks.iter().any(|k| k.column == 48), code > 0, "{marks:?}");
                assert!(marks
                    .iter()
                    .all(|k| k.area == code && k.kind == MarkKind::Win));
            }
            features_as_asked(&m, w, 0..10);
        }
        // Losing cards show every free symbol, by the winners' law (6:3:1 of 3,000).
        let lose = way(&[]);
        let mut seen = [0usize; 3];
        for (_, face, ev) in round_trip(&m, &lose, 0..3_000) {
            let c = face.codes[48];
            seen[usize::from(c)] += 1;
            let decoy = m.marks(&face, &ev).into_iter().find(|k| k.column == 48);
            match c {
                0 => assert_eq!(decoy, None),
                _ => {
                    assert_eq!(decoy.map(|k| (k.area, k.kind)), Some((c, MarkKind::Decoy)));
                    assert!(m.shows(&ev, &format!("decoy_b_{}x", [2, 5][usize::from(c) - 1])));
                }
            }
        }
        // 1,800, 900 and 300 in law: a chi-square of 3.4 (2 degrees of freedom).
        assert_eq!(seen, [1_842, 854, 304]);
        features_as_asked(&m, &lose, 0..10);
        assert!(m
            .can_show(&ways[1], "decoy_b_5x")
            .unwrap_err()
            .contains("needs a losing card of « Bingo »"));
        // By hand: a plain winning card with 5X put in its free cell wins five times.
        let (_, mut face, _) = round_trip(&m, &ways[0], 0..1).remove(0);
        face.codes[48] = 2;
        let ev = m.evaluate(&face);
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 2,
                amount: Money(1_000)
            }]
        );
        face.codes[48] = 3;
        assert_eq!(m.evaluate(&face).ambiguities, vec![AMB_FREE_SYMBOL]);
        judge_any_faces(&m, 200);
        assert!(m.describe()[2].starts_with(
            "The free cell shows FREE or a multiplier: 2X multiplies the card's win by 2 \
             (play area « b_2x »)"
        ));
    }

    #[test]
    fn free_cell_specials_are_refused_by_field() {
        let refused = |text: &str| make_multi(text).err().unwrap();
        let e = refused(&MULTI.replace("kind = \"multiplier\", times = 5", "kind = \"auto_win\""));
        assert_eq!(e.field, "specials");
        assert!(e
            .message
            .starts_with("\"5X\": a bingo card's special symbols are multipliers"));
        let e = refused(
            &MULTI
                .replace("numbers = 24", "numbers = 23")
                .replace("free_centre = true", "free_cells = [[1, 1], [5, 5]]"),
        );
        assert_eq!(e.field, "specials");
        assert!(e
            .message
            .ends_with("exactly one free cell (free_centre, or one of free_cells), not 2"));
        let e = refused(&MULTI.replace("times = 5", "times = 30"));
        assert_eq!(e.field, "specials");
        assert!(e.message.starts_with("\"5X\" can never multiply"), "{e:?}");
        let e = refused(&MULTI.replace("\"5X\"", "\"FREE\""));
        assert!(
            e.message.contains("is also one of the free cell's FREE"),
            "{e:?}"
        );
        // Ways the free cell cannot carry.
        let m = make_multi(MULTI).unwrap();
        let plan = |w: &Way| Arc::clone(&m).plan(w).err().unwrap().to_string();
        assert_eq!(
            plan(&way_at(1, &[6])),
            "« b_2x » cannot win 6: it wins 2 times an amount the card pays (2, 10)"
        );
        assert_eq!(plan(&way_at(3, &[4])), "play area 3 is not on this surface");
        // A multiplier no way wins by.
        let only = Arc::clone(&m).plan(&way_at(1, &[4])).unwrap();
        assert_eq!(
            m.check_ways(&[&only]).unwrap_err().to_string(),
            "specials (\"5X\") never applies: no way wins in its play area « b_5x » (`areas`), \
             so no face shows it"
        );
    }

    #[test]
    fn columns_panels_and_blockers() {
        let m = make(BINGO).unwrap();
        assert_eq!(m.layout().columns.len(), 49);
        assert_eq!(m.layout().columns[0].name, "b_n1");
        assert_eq!(m.layout().columns[25].name, "b_d1");
        assert_eq!(m.layout().columns[0].values[0], "01");
        let p = m.panels();
        assert_eq!(p[0].rows[2], vec![10, 11, 12, 13, 14]);
        let printed = m.printed();
        assert_eq!(printed.len(), 1);
        assert_eq!(printed[0].panel, "b");
        let lines: Vec<String> = printed[0]
            .lines
            .iter()
            .map(|l| crate::language::Language::En.line(l, "EUR"))
            .collect();
        assert_eq!(
            lines,
            [
                "9 matches: €2 · 10 matches: €5 · 11 matches: €20",
                "12 matches: €100"
            ]
        );
        assert_eq!(p[1].id, "b_drawn");
        assert_eq!(m.lines.len(), 12);
        assert!(m.lines.iter().all(|l| l.len() == 5));
        assert_eq!(m.most(), 20);
        // Permutations of 5 meeting both diagonals.
        assert!(!m.open.is_empty());
        assert!(m.open.iter().all(|o| o.len() == 20));
        assert_eq!(permutations(3).len(), 6);
        assert!(m.describe()[0].starts_with("« Bingo » wins by the number of its 25 numbers"));
        // A card paid by pattern around a FREE centre: the centre keeps its place in the
        // middle row; the centre row and column hold 4 cells, the diagonals too.
        let m = make(PATTERN).unwrap();
        assert_eq!(m.layout().columns.len(), 48);
        assert_eq!(m.layout().columns[24].name, "b_d1");
        assert_eq!(m.panels()[0].rows[2], vec![10, 11, FREE_CELL, 12, 13]);
        assert_eq!(m.lines.len(), 12);
        assert_eq!(m.lines.iter().filter(|l| l.len() == 4).count(), 4);
    }

    /// A caller's draw of 20 numbers from 01 to 75, shared.
    fn caller() -> crate::styles::shared::Shared {
        crate::styles::shared::Shared {
            id: "caller".into(),
            kind: crate::styles::shared::SharedKind::Draw,
            count: 20,
            values: style::numbers(1, 75, 2),
        }
    }

    fn make_reading(text: &str) -> Result<Arc<MatchCount>, FieldError> {
        let ctx = Ctx::new("b")
            .label("b", "Bingo")
            .label("caller", "Tirage")
            .reads(caller());
        MatchCount::new(style::parse(toml::from_str(text).unwrap())?, &ctx.get()).map(Arc::new)
    }

    const READING: &str = "numbers = 25\ngrid = 5\nnear_miss = 0.3\n\
        prizes = { \"8\" = 2, \"9\" = 5, \"10\" = 20 }\n";

    #[test]
    fn a_card_reading_a_shared_draw_takes_its_numbers_from_it() {
        let m = make_reading(READING).unwrap();
        assert_eq!(m.layout().columns.len(), 45);
        assert_eq!(m.layout().reads, (25..45).collect::<Vec<_>>());
        assert_eq!(m.layout().columns[31].values, caller().values);
        assert!(m.describe()[0].contains(
            "among the 20 numbers of the shared draw « Tirage », printed once and read alike \
             by every card that reads it (numbers 01 to 75)"
        ));
        // Its drawn numbers are the draw's: given beside `reads`, refused by name.
        for field in ["drawn = 20", "from = 1", "to = 75", "width = 2"] {
            let e = make_reading(&format!("{READING}{field}\n")).err().unwrap();
            assert_eq!(e.field, field.split(' ').next().unwrap());
            assert!(
                e.message.contains("reads the shared draw \"caller\""),
                "{e:?}"
            );
        }
        // Too few numbers for the card and the draw apart.
        let ctx = Ctx::new("b").reads(crate::styles::shared::Shared {
            values: style::numbers(1, 40, 2),
            ..caller()
        });
        let raw = style::parse(toml::from_str(READING).unwrap()).unwrap();
        let e = MatchCount::new(raw, &ctx.get()).err().unwrap();
        assert_eq!(e.field, "numbers");
        assert!(
            e.message
                .starts_with("the shared draw \"caller\" has 40 numbers"),
            "{e:?}"
        );
    }

    /// Given any draw, every way is reached: the draw is kept as given, the card's matches
    /// are numbers of the draw and its other numbers are not.
    #[test]
    fn a_card_reading_a_shared_draw_reaches_every_way_whatever_the_draw() {
        let m = make_reading(READING).unwrap();
        for w in [way(&[]), way(&[2]), way(&[5]), way(&[20])] {
            round_trip(&m, &w, 0..100);
            let plan = Arc::clone(&m).plan(&w).unwrap();
            assert!(plan.reads());
            for seed in 0..100u64 {
                let mut rng = FaceRng::seed_from_u64(seed);
                let mut given = Face::zeroed(m.layout().columns.len());
                let draw = pick_distinct::<MAX_PICK>(&mut rng, 75, 20);
                for (i, &c) in draw.iter().enumerate() {
                    given.codes[25 + i] = c as u8;
                }
                let face = plan.draw_given(None, &given, &mut rng);
                assert_eq!(face.codes[25..45], given.codes[25..45]);
                let ev = m.evaluate(&face);
                assert!(ev.ambiguities.is_empty(), "{ev:?}");
                assert_eq!(ev.prize(), w.amount, "seed {seed}");
            }
        }
    }

    #[test]
    fn hand_made_faces_are_judged_by_the_count() {
        let m = make(LOTTO).unwrap();
        // 3 matches: 2.
        let ev = m.evaluate(&face(&[1, 2, 3, 4, 5, 6], &[3, 2, 1, 40, 41, 42]));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(200)
            }]
        );
        assert!(ev.ambiguities.is_empty());
        // 2 matches: near miss.
        let ev = m.evaluate(&face(&[1, 2, 3, 4, 5, 6], &[6, 2, 10, 40, 41, 42]));
        assert!(ev.wins.is_empty() && m.shows(&ev, NEAR_MISS));
        // A repeated drawn number.
        let ev = m.evaluate(&face(&[1, 2, 3, 4, 5, 6], &[7, 7, 10, 40, 41, 42]));
        assert_eq!(ev.ambiguities, vec![AMB_DRAWN_REPEAT]);
        let ev = m.evaluate(&face(&[1, 1, 3, 4, 5, 6], &[7, 8, 10, 40, 41, 42]));
        assert_eq!(ev.ambiguities, vec![AMB_CARD_REPEAT]);
        // A count above the lowest with no prize of its own.
        let gap = make(&LOTTO.replace("\"4\" = 20, ", "")).unwrap();
        let ev = gap.evaluate(&face(&[1, 2, 3, 4, 5, 6], &[1, 2, 3, 4, 41, 42]));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, vec![AMB_UNPAID_ABOVE]);
        assert!(matches!(
            gap.check_way(&way(&[20])),
            Err(Refusal::CannotWin {
                amount: Money(2000),
                ..
            })
        ));
    }

    #[test]
    fn a_full_line_on_a_grid_card_is_flagged() {
        let m = make(BINGO).unwrap();
        // Card 1..=25; drawn: the top row (1..=5) and 19 others not on the card.
        let card: Vec<u8> = (1..=25).collect();
        let mut drawn: Vec<u8> = (1..=5).collect();
        drawn.extend(50..69);
        let ev = m.evaluate(&face(&card, &drawn));
        assert_eq!(ev.ambiguities, vec![AMB_LINE]);
        // The centre column: cells 2, 7, 12, 17, 22 (numbers 3 8 13 18 23).
        let mut drawn: Vec<u8> = vec![3, 8, 13, 18, 23];
        drawn.extend(50..69);
        let ev = m.evaluate(&face(&card, &drawn));
        assert_eq!(ev.ambiguities, vec![AMB_LINE]);
        // Four of the top row only: no line, 4 matches, losing.
        let mut drawn: Vec<u8> = (1..=4).collect();
        drawn.extend(50..70);
        let ev = m.evaluate(&face(&card, &drawn));
        assert!(ev.ambiguities.is_empty() && ev.wins.is_empty());
    }

    #[test]
    fn every_way_round_trips_with_no_line_and_no_repeat() {
        for (text, wins) in [(BINGO, vec![2, 5, 20, 100]), (LOTTO, vec![2, 20, 100])] {
            let m = make(text).unwrap();
            let mut ways = vec![way(&[])];
            ways.extend(wins.iter().map(|&a| way(&[a])));
            for w in &ways {
                m.check_way(w).unwrap();
                round_trip(&m, w, 0..300);
            }
        }
        // 100 is paid by 5 and 6 matches on the lotto grid: both show.
        let m = make(LOTTO).unwrap();
        let mut rng = FaceRng::seed_from_u64(0);
        let counts: Vec<usize> = (0..100)
            .map(|_| {
                let f = m.synthesize(&way(&[100]), &mut rng).unwrap();
                m.matched(&f).iter().filter(|&&x| x).count()
            })
            .collect();
        assert!(counts.contains(&5) && counts.contains(&6));
    }

    #[test]
    fn near_miss_when_asked_and_at_its_rate() {
        let m = make(BINGO).unwrap();
        let lose = way(&[]);
        for (seed, f, ev) in round_trip_showing(&m, &lose, NEAR_MISS, 0..200) {
            // 8 matched numbers on the card and 8 among the drawn.
            assert_eq!(m.marks(&f, &ev).len(), 16, "seed {seed}");
        }
        assert!(matches!(
            m.can_show_why(&way(&[2]), NEAR_MISS),
            Err(Refusal::NeedsLosing { .. })
        ));
        let shown = count_showing(&m, &lose, NEAR_MISS, 1000, 1);
        assert!((260..340).contains(&shown), "{shown}");
    }

    #[test]
    fn infeasible_cards_and_ways_are_refused() {
        assert_eq!(
            make(&BINGO.replace("to = 75", "to = 40"))
                .err()
                .unwrap()
                .field,
            "to"
        );
        assert_eq!(
            make(&BINGO.replace("\"12\" = 100", "\"25\" = 100"))
                .err()
                .unwrap()
                .field,
            "prizes.25"
        );
        assert_eq!(
            make(&BINGO.replace("grid = 5", "grid = 7"))
                .err()
                .unwrap()
                .field,
            "grid"
        );
        // 21 matches and more always make a line on a 5×5 card.
        let high = BINGO.replace("\"12\" = 100", "\"12\" = 100, \"21\" = 500");
        let m = make(&high).unwrap();
        let e = m.check_way(&way(&[500])).unwrap_err();
        assert!(matches!(e, Refusal::CannotWin { .. }));
        assert!(e.to_string().contains("at most 20"), "{e}");
        let m = make(LOTTO).unwrap();
        assert!(matches!(
            m.check_way(&way(&[2, 2])),
            Err(Refusal::TooManyWins { wins: 2, .. })
        ));
        assert!(matches!(
            m.check_way(&way(&[5])),
            Err(Refusal::CannotWin { .. })
        ));
        let one = LOTTO.replace("\"3\" = 2", "\"1\" = 2");
        assert_eq!(make(&one).err().unwrap().field, "near_miss");
    }

    #[test]
    fn same_seed_same_face() {
        let m = make(LOTTO).unwrap();
        let f = drawn_twice(&m, &way(&[20]), 42);
        assert_eq!(&f.codes[..12], &VECTOR[..]);
    }

    /// Face codes for seed 42, way 20 (value stability).
    const VECTOR: [u8; 12] = [10, 45, 19, 31, 20, 43, 31, 10, 19, 43, 2, 5];

    #[test]
    fn any_face_of_the_columns_dictionaries_is_judged_without_panic() {
        for text in [BINGO, LOTTO] {
            let m = make(text).unwrap();
            for ev in judge_any_faces(&m, 2000) {
                assert!(
                    ev.wins.len() <= m.layout().areas.len(),
                    "{text}: {:?}",
                    ev.wins
                );
            }
        }
    }

    const PATTERN: &str = "numbers = 24\ndrawn = 24\nfrom = 1\nto = 75\ngrid = 5\n\
        free_centre = true\nnear_miss = 0.3\n\
        patterns = { row = 5, column = 5, diagonal = 20 }\n";

    /// Drawn numbers: `on` then numbers from 50 up, none on a card of 1..=24.
    fn drawn_with(on: &[u8]) -> Vec<u8> {
        let mut d = on.to_vec();
        d.extend((50..).take(24 - on.len()));
        d
    }

    #[test]
    fn a_card_paid_by_pattern_is_judged_by_its_full_lines() {
        let m = make(PATTERN).unwrap();
        let card: Vec<u8> = (1..=24).collect();
        // The top row: 5.
        let ev = m.evaluate(&face(&card, &drawn_with(&[1, 2, 3, 4, 5])));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(500)
            }]
        );
        assert!(ev.ambiguities.is_empty());
        // The main diagonal through the free centre (cells 0, 6, 17, 23): 20.
        let ev = m.evaluate(&face(&card, &drawn_with(&[1, 7, 18, 24])));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(2000)
            }]
        );
        // Two rows.
        let ev = m.evaluate(&face(&card, &drawn_with(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])));
        assert_eq!(ev.ambiguities, vec![AMB_TWO_LINES]);
        // Four of the top row: a near miss, however many other matches.
        let ev = m.evaluate(&face(&card, &drawn_with(&[1, 2, 3, 4, 9, 15])));
        assert!(ev.wins.is_empty() && ev.ambiguities.is_empty() && m.shows(&ev, NEAR_MISS));
        // A full column on a card paying rows only.
        let rows = make(&PATTERN.replace("row = 5, column = 5, diagonal = 20", "row = 5")).unwrap();
        let ev = rows.evaluate(&face(&card, &drawn_with(&[1, 6, 11, 15, 20])));
        assert!(ev.wins.is_empty());
        assert_eq!(ev.ambiguities, vec![AMB_UNPAID_LINE]);
        let e = rows.check_way(&way(&[20])).unwrap_err();
        assert!(matches!(e, Refusal::CannotWin { .. }));
        assert!(e.to_string().contains("no pattern"), "{e}");
        assert!(m.describe()[0]
            .contains("a full row wins 5, a full column wins 5, a full diagonal wins 20"));
    }

    #[test]
    fn pattern_ways_round_trip_with_one_line_at_most() {
        let m = make(PATTERN).unwrap();
        for w in [way(&[]), way(&[5]), way(&[20])] {
            m.check_way(&w).unwrap();
            for (seed, f, _) in round_trip(&m, &w, 0..300) {
                let lines = m.full_lines(m.matched_bits(&f));
                assert_eq!(lines.len(), w.wins.len(), "{} seed {seed}", w.id);
            }
        }
        for (seed, f, ev) in round_trip_showing(&m, &way(&[]), NEAR_MISS, 0..200) {
            let marks = m.marks(&f, &ev);
            assert!(
                marks.iter().all(|k| k.kind == MarkKind::NearMiss),
                "seed {seed}"
            );
        }
        let f = m
            .synthesize(&way(&[20]), &mut FaceRng::seed_from_u64(42))
            .unwrap();
        assert_eq!(&f.codes[..4], &PATTERN_VECTOR[..]);
    }

    /// The first card numbers for seed 42, way 20, pattern mode (value stability).
    const PATTERN_VECTOR: [u8; 4] = [69, 49, 11, 35];

    #[test]
    fn pattern_cards_are_checked() {
        let e = |t: &str| make(t).err().unwrap().field;
        assert_eq!(
            e(&PATTERN.replace("grid = 5\nfree_centre = true\n", "")),
            "patterns"
        );
        assert_eq!(e(&format!("{PATTERN}prizes = {{ \"9\" = 2 }}\n")), "prizes");
        // More matches never pay less.
        assert_eq!(
            e(&LOTTO.replace("\"5\" = 100, \"6\" = 100", "\"5\" = 100, \"6\" = 50")),
            "prizes.6"
        );
        assert_eq!(e(&PATTERN.replace("row = 5", "line = 5")), "patterns.line");
    }

    #[test]
    fn the_near_miss_rate_is_the_spec_s() {
        // 2 000 losing cards: the near miss is drawn with probability r and no other losing
        // card is one match short (at most lowest − 2 matches; in pattern mode two cells of
        // every paid line unmatched), so the count is binomial(2000, r); 4 standard
        // deviations (r = 0.2: ±72, r = 0.5: ±90) hold it (fixed seed).
        for text in [BINGO, LOTTO, PATTERN] {
            for (rate, lo, hi) in [("0", 0, 0), ("0.2", 400 - 72, 400 + 72), ("0.5", 910, 1090)] {
                let t = text
                    .replace("near_miss = 0.3", &format!("near_miss = {rate}"))
                    .replace("near_miss = 0.5", &format!("near_miss = {rate}"));
                let m = make(&t).unwrap();
                let n = count_showing(&m, &way(&[]), NEAR_MISS, 2000, 9);
                assert!((lo..=hi).contains(&n), "{rate} {n} {text}");
            }
        }
    }

    #[test]
    fn feature_ids_are_per_play_area_or_named_by_the_spec() {
        let m = make(&format!("{LOTTO}near_miss_feature = \"near_miss_loto\"\n")).unwrap();
        assert_eq!(m.features()[0].name, "near_miss_loto");
        round_trip_showing(&m, &way(&[]), "near_miss_loto", 2..3);
        let m = make(&format!("{LOTTO}area = \"jeu1\"\n")).unwrap();
        assert_eq!(m.features()[0].name, "near_miss_jeu1");
        let bad = format!("{LOTTO}near_miss_feature = \"\"\n");
        assert_eq!(make(&bad).err().unwrap().field, "near_miss_feature");
    }

    /// A 4×4 card (an even grid: no centre) with jokers placed by the spec at row 1,
    /// column 1 and row 3, column 4: 14 numbers.
    const JOKERS: &str = "numbers = 14\ndrawn = 20\nfrom = 1\nto = 60\ngrid = 4\n\
        free_cells = [[1, 1], [3, 4]]\nnear_miss = 0.3\n\
        patterns = { row = 5, column = 5, diagonal = 20 }\n";

    #[test]
    fn free_cells_go_where_the_spec_puts_them_and_count_as_matched() {
        let m = make(JOKERS).unwrap();
        assert_eq!(m.free, vec![0, 11]);
        let p = m.panels();
        assert_eq!(p[0].rows[0], vec![FREE_CELL, 0, 1, 2]);
        assert_eq!(p[0].rows[2], vec![7, 8, 9, FREE_CELL]);
        assert_eq!(p[0].rows[3], vec![10, 11, 12, 13]);
        // Row 1 holds cells 0, 1, 2 beside its joker; the main diagonal cells 4, 9, 13.
        assert_eq!(m.lines[0], vec![0, 1, 2]);
        assert_eq!(m.lines[8], vec![4, 9, 13]);
        let card: Vec<u8> = (1..=14).collect();
        let drawn = |on: &[u8]| {
            let mut d = on.to_vec();
            d.extend((40..).take(20 - on.len()));
            d
        };
        // Numbers 1, 2, 3 complete row 1 with its joker: a row, 5.
        let ev = m.evaluate(&face(&card, &drawn(&[1, 2, 3])));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(500)
            }]
        );
        assert!(ev.ambiguities.is_empty());
        // 5, 10, 14 complete the main diagonal through the first joker: 20.
        let ev = m.evaluate(&face(&card, &drawn(&[5, 10, 14])));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(2000)
            }]
        );
        assert!(m
            .describe()
            .join(" ")
            .contains("(2 free cells (row 1, column 1; row 3, column 4) counting as drawn)"));
        for w in [way(&[]), way(&[5]), way(&[20])] {
            m.check_way(&w).unwrap();
            round_trip(&m, &w, 0..300);
        }
        round_trip_showing(&m, &way(&[]), NEAR_MISS, 0..100);
        // Paid by count, the same jokers would read as matches: refused, as a free centre is.
        let count = JOKERS.replace(
            "patterns = { row = 5, column = 5, diagonal = 20 }",
            "prizes = { \"6\" = 2, \"7\" = 5 }",
        );
        let e = make(&count).err().unwrap();
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "free_cells",
                "a card paid by its number of matches (prizes) has no free cell: a player \
                 would count it as one more match; fill the 4×4 grid with 16 numbers, or pay \
                 the card by patterns"
            )
        );
        let e = make(&BINGO.replace("numbers = 25", "numbers = 24\nfree_centre = true"))
            .err()
            .unwrap();
        assert_eq!(e.field, "free_centre");
        assert!(e
            .message
            .ends_with("fill the 5×5 grid with 25 numbers, or pay the card by patterns"));
        // The free centre is the same as a free cell at the centre.
        let a = make(PATTERN).unwrap();
        let b = make(&PATTERN.replace("free_centre = true", "free_cells = [[3, 3]]")).unwrap();
        assert_eq!(
            (a.free.clone(), a.lines.clone()),
            (b.free.clone(), b.lines.clone())
        );
        assert_eq!(a.describe(), b.describe());
    }

    #[test]
    fn free_cells_that_cannot_be_are_refused() {
        let e = |from: &str, to: &str| {
            let e = make(&JOKERS.replace(from, to)).err().expect(to);
            (e.field, e.message)
        };
        assert_eq!(
            e("[3, 4]]", "[3, 5]]"),
            (
                "free_cells".into(),
                "[3, 5] is off the 4×4 grid: rows and columns go from 1 to 4".into()
            )
        );
        assert_eq!(
            e("[3, 4]]", "[1, 1]]"),
            (
                "free_cells".into(),
                "[1, 1] is free twice (free_centre frees the centre)".into()
            )
        );
        assert_eq!(
            e("[[1, 1], [3, 4]]", "[[1, 1], [2, 2], [3, 3], [4, 4]]").1,
            "a whole row, column or diagonal is free: it would read as a line on every card"
        );
        // Row 1 left with one number: paid by pattern, it could not be kept open.
        assert_eq!(
            e(
                "numbers = 14\ndrawn = 20\nfrom = 1\nto = 60\ngrid = 4\nfree_cells = [[1, 1], [3, 4]]",
                "numbers = 13\ndrawn = 20\nfrom = 1\nto = 60\ngrid = 4\nfree_cells = [[1, 1], [1, 2], [1, 3]]"
            )
            .1,
            "row 1 holds 1 number(s) besides its free cells: a line paid by pattern needs two, \
             so that a losing card can keep it open"
        );
        assert_eq!(e("numbers = 14", "numbers = 15").0, "grid");
        let no_grid = JOKERS.replace("grid = 4\n", "").replace(
            "patterns = { row = 5, column = 5, diagonal = 20 }",
            "prizes = { \"6\" = 2 }",
        );
        assert_eq!(
            make(&no_grid).err().unwrap().message,
            "free cells need a grid"
        );
        assert_eq!(
            make(
                &PATTERN
                    .replace("grid = 5", "grid = 4")
                    .replace("numbers = 24", "numbers = 15")
            )
            .err()
            .unwrap()
            .message,
            "an even grid has no centre"
        );
    }

    #[test]
    fn the_four_corners_are_a_pattern_of_their_own() {
        let text = PATTERN.replace("diagonal = 20 }", "diagonal = 20, corners = 50 }");
        let m = make(&text).unwrap();
        assert_eq!(m.lines.len(), 13);
        // Corners at grid positions 0, 4, 20, 24: card cells 0, 4, 19, 23 (the free centre
        // left out).
        assert_eq!(m.lines[12], vec![0, 4, 19, 23]);
        let card: Vec<u8> = (1..=24).collect();
        let ev = m.evaluate(&face(&card, &drawn_with(&[1, 5, 20, 24])));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(5000)
            }]
        );
        assert!(ev.ambiguities.is_empty());
        // The top row completes a row, not the corners.
        let ev = m.evaluate(&face(&card, &drawn_with(&[1, 2, 3, 4, 5])));
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(500)
            }]
        );
        let legend: Vec<String> = m.printed()[0]
            .lines
            .iter()
            .map(|l| crate::language::Language::En.line(l, "EUR"))
            .collect();
        assert!(
            legend.join(" · ").contains("Four corners: €50"),
            "{legend:?}"
        );
        assert!(
            m.describe()[0].contains("the four corners win 50"),
            "{:?}",
            m.describe()
        );
        for w in [way(&[]), way(&[5]), way(&[20]), way(&[50])] {
            m.check_way(&w).unwrap();
            for (seed, f, ev) in round_trip(&m, &w, 0..300) {
                let full = m.full_lines(m.matched_bits(&f));
                assert_eq!(full.len(), w.wins.len(), "seed {seed}");
                if w.wins.first().is_some_and(|x| x.amount == Money(5000)) {
                    assert_eq!(full.as_slice(), [12], "seed {seed}");
                }
                assert_eq!(ev.wins.len(), w.wins.len());
            }
        }
        round_trip_showing(&m, &way(&[]), NEAR_MISS, 0..100);
        // Unpaid, the corners are no pattern: no thirteenth line.
        assert_eq!(make(PATTERN).unwrap().lines.len(), 12);
        // A 4×4 card with both bottom corners free: the top row holds the corners left.
        let e = make(
            "numbers = 14\ndrawn = 20\nfrom = 1\nto = 60\ngrid = 4\n\
             free_cells = [[4, 1], [4, 4]]\npatterns = { row = 5, corners = 50 }\n",
        )
        .err()
        .unwrap();
        assert_eq!(
            e.message,
            "with these free cells, completing row 1 also completes the four corners: a card \
             would show two patterns at once"
        );
    }

    /// A 5×5 card around a free centre paying rows, diagonals, the X and the full card.
    const CROSS: &str = "numbers = 24\ndrawn = 24\nfrom = 1\nto = 75\ngrid = 5\n\
        free_centre = true\nnear_miss = 0.3\npattern_rule = \"highest\"\n\
        patterns = { row = 5, diagonal = 20, x = 100, full = 1000 }\n";

    /// Card numbers 1..=24: the X is cells 0, 6, 17, 23 (diagonal 1) and 4, 8, 15, 19
    /// (diagonal 2), numbers 1 7 18 24 and 5 9 16 20.
    const X_NUMBERS: [u8; 8] = [1, 7, 18, 24, 5, 9, 16, 20];

    fn won(m: &MatchCount, drawn: &[u8]) -> Evaluation {
        let card: Vec<u8> = (1..=24).collect();
        let ev = m.evaluate(&face(&card, &drawn_with(drawn)));
        assert!(ev.ambiguities.is_empty(), "{drawn:?}: {:?}", ev.ambiguities);
        ev
    }

    fn amount(ev: &Evaluation) -> Option<u64> {
        ev.wins.first().map(|w| w.amount.0)
    }

    #[test]
    fn an_x_and_a_full_card_pay_by_the_legend_s_rule() {
        let m = make(CROSS).unwrap();
        // Rows 10, columns 10, diagonals 2, the X, the full card.
        assert_eq!(m.lines.len(), 14);
        assert_eq!(m.lines[12], vec![0, 4, 6, 8, 15, 17, 19, 23]);
        assert_eq!(m.lines[13].len(), 24);
        // The X pays the X, not its diagonals; one diagonal pays a diagonal.
        assert_eq!(amount(&won(&m, &X_NUMBERS)), Some(10_000));
        assert_eq!(amount(&won(&m, &X_NUMBERS[..4])), Some(2_000));
        // The full card: 24 drawn numbers, every one on the card.
        let all: Vec<u8> = (1..=24).collect();
        assert_eq!(amount(&won(&m, &all)), Some(100_000));
        // Each: the X pays itself and both diagonals; the full card every row, both
        // diagonals and the X (columns do not pay).
        let each = make(&CROSS.replace("\"highest\"", "\"each\"")).unwrap();
        assert_eq!(amount(&won(&each, &X_NUMBERS)), Some(14_000));
        assert_eq!(
            amount(&won(&each, &all)),
            Some(100_000 + 5 * 500 + 2 * 2000 + 10_000)
        );
        assert_eq!(
            each.amount_of
                .iter()
                .flatten()
                .map(|m| m.0)
                .collect::<Vec<_>>(),
            [500, 500, 500, 500, 500, 2000, 2000, 14_000, 116_500]
        );
        // An X beside a full row is two patterns; a full column does not pay.
        let card: Vec<u8> = (1..=24).collect();
        let mut two = X_NUMBERS.to_vec();
        two.extend([2, 3, 4]);
        let ev = m.evaluate(&face(&card, &drawn_with(&two)));
        assert_eq!(ev.ambiguities, vec![AMB_TWO_LINES]);
        let ev = m.evaluate(&face(&card, &drawn_with(&[1, 6, 11, 15, 20])));
        assert_eq!(ev.ambiguities, vec![AMB_UNPAID_LINE]);
        // Marks: the X's eight numbers on the card and among the drawn.
        let f = face(&card, &drawn_with(&X_NUMBERS));
        let ev = m.evaluate(&f);
        assert_eq!(m.marks(&f, &ev).len(), 16);
        // The legend prints the X, the full card and the rule.
        let legend: Vec<String> = m.printed()[0]
            .lines
            .iter()
            .map(|l| crate::language::Language::En.line(l, "EUR"))
            .collect();
        assert_eq!(
            legend,
            [
                "Full row: €5 · Full diagonal: €20 · X (both diagonals): €100",
                "Full card: €1,000",
                "Only the highest-paying pattern completed pays"
            ]
        );
        let fr: Vec<String> = each.printed()[0]
            .lines
            .iter()
            .map(|l| crate::language::Language::Fr.line(l, "EUR"))
            .collect();
        assert_eq!(
            fr[2],
            "Chaque motif complété est payé : les gains s'additionnent"
        );
        assert!(
            m.describe()
                .join(" ")
                .contains("pays only the highest amount"),
            "{:?}",
            m.describe()
        );
    }

    #[test]
    fn x_and_full_card_ways_round_trip_showing_their_pattern_alone() {
        for (text, amounts) in [
            (CROSS.to_string(), vec![5, 20, 100, 1000]),
            (
                CROSS.replace("\"highest\"", "\"each\""),
                vec![5, 20, 140, 1165],
            ),
            (
                CROSS.replace("x = 100", "x = 100, corners = 50"),
                vec![5, 20, 50, 100, 1000],
            ),
        ] {
            let m = make(&text).unwrap();
            m.check_way(&way(&[])).unwrap();
            round_trip(&m, &way(&[]), 0..300);
            for a in amounts {
                let w = way(&[a]);
                m.check_way(&w).unwrap();
                for (seed, f, _) in round_trip(&m, &w, 0..200) {
                    let top = m.largest(m.matched_bits(&f));
                    assert_eq!(top.len(), 1, "{a} seed {seed}");
                    assert_eq!(m.amount_of[top[0]], Some(Money::units(a)), "seed {seed}");
                }
            }
            // The near miss is a row, a diagonal or the corners one short: an X or a full card one
            // short leaves a line inside it complete.
            for (seed, f, _) in round_trip_showing(&m, &way(&[]), NEAR_MISS, 0..200) {
                let l = m.near_line(m.matched_bits(&f)).unwrap();
                assert!((m.line_kind[l] as usize) < X, "seed {seed}");
            }
        }
        let m = make(CROSS).unwrap();
        assert!(m.gaps[12].is_empty() && m.gaps[13].is_empty());
        // 140 is an X's amount by "each", no pattern's by "highest".
        assert!(matches!(
            m.check_way(&way(&[140])),
            Err(Refusal::CannotWin { .. })
        ));
        // Without the four corners, the X one short at the centre (a card with no free
        // centre) leaves both diagonals open: a near miss of the X.
        let m = make(
            "numbers = 25\ndrawn = 25\nfrom = 1\nto = 75\ngrid = 5\nnear_miss = 0.3\n\
             pattern_rule = \"highest\"\npatterns = { row = 5, x = 100 }\n",
        )
        .unwrap();
        assert_eq!(m.gaps[12], vec![12]);
    }

    #[test]
    fn patterns_that_hold_others_need_a_rule_that_reads_one_way() {
        let e = |t: &str| {
            let e = make(t).err().expect(t);
            (e.field, e.message)
        };
        let (field, msg) = e(&CROSS.replace("pattern_rule = \"highest\"\n", ""));
        assert_eq!(field, "pattern_rule");
        assert!(
            msg.contains("\"highest\"") && msg.contains("\"each\""),
            "{msg}"
        );
        // Under "highest", an X paying less than a diagonal would never pay its amount.
        let (field, msg) = e(&CROSS.replace("x = 100", "x = 10"));
        assert_eq!(field, "patterns.x");
        assert_eq!(
            msg,
            "completing the X also completes diagonal 1, which pays more: with pattern_rule = \
             \"highest\" the card would never pay what the legend says of the X"
        );
        make(
            &CROSS
                .replace("x = 100", "x = 10")
                .replace("\"highest\"", "\"each\""),
        )
        .unwrap();
        assert_eq!(
            e(&CROSS.replace("drawn = 24", "drawn = 20")),
            (
                "drawn".into(),
                "the full card needs 24 drawn numbers".into()
            )
        );
        assert_eq!(
            e(&CROSS.replace("pattern_rule = \"highest\"", "pattern_rule = \"first\"")).0,
            "pattern_rule"
        );
        assert_eq!(
            e(&format!("{LOTTO}pattern_rule = \"each\"\n")).0,
            "pattern_rule"
        );
        // A full card alone cannot be one short on a losing card.
        assert_eq!(
            e(&CROSS.replace(
                "row = 5, diagonal = 20, x = 100, full = 1000",
                "full = 1000"
            ))
            .0,
            "near_miss"
        );
        make(
            &CROSS
                .replace(
                    "row = 5, diagonal = 20, x = 100, full = 1000",
                    "full = 1000",
                )
                .replace("near_miss = 0.3", "near_miss = 0"),
        )
        .unwrap();
        // Free cells making the top row the same cells as the four corners on a 4×4 card
        // (its two middle cells and the bottom corners free): no rule tells which a card
        // shows.
        let (field, msg) = e("numbers = 12\ndrawn = 20\nfrom = 1\nto = 60\ngrid = 4\n\
             free_cells = [[1, 2], [1, 3], [4, 1], [4, 4]]\npattern_rule = \"each\"\n\
             patterns = { row = 5, corners = 50, full = 100 }\n");
        assert_eq!(field, "free_cells");
        assert!(msg.contains("are the same cells"), "{msg}");
    }
}
