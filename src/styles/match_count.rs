//! The *match count* play style (industry: bingo-like cards and lotto-like grids).
//!
//! **Rule.** The surface shows your numbers (`numbers` cells, e.g. a 5×5 bingo card of 24
//! numbers around a free centre, or a lotto grid of 6) and, under the scratch, the drawn
//! numbers (`drawn` cells), every number from `from..=to`, none twice on the card nor twice
//! among the drawn ones. The surface's one play area wins by the **number of matches**, the
//! card numbers found among the drawn numbers: the prize legend (`prizes = { "5" = 10,
//! "6" = 100 }`, printed on the ticket) pays each listed count; any other count loses.
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
//! grid (`grid = 5`), a bingo player reads a full row, column or diagonal of matches (the
//! free centre counting as matched) as a win whatever the count: no face shows one, on
//! losing and winning cards alike, so a grid card holds at most `numbers − grid` matches.
//!
//! **Four corners.** `patterns` may also pay `corners`: the numbers of the card's four
//! corners all drawn (a free corner counting as drawn) is a pattern of its own, one more
//! line for every rule above. Refused: free cells that make one pattern a part of another
//! (completing the top row would complete the corners left).
//!
//! **Free cells.** A grid card may have free (joker) cells: the centre of an odd grid
//! (`free_centre`) or any cells the spec places (`free_cells = [[1, 1], [3, 4]]`, rows and
//! columns from 1, on even grids too). A free cell is printed FREE, holds no number and
//! counts as matched in every line through it. Refused: a whole row, column or diagonal
//! free (a line on every card), and, paid by pattern, a line left with fewer than two
//! numbers (a losing card could not keep it open).
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

use super::common::pick_distinct;
use super::common::LosingNearMiss;
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Layout, Mark, MarkKind, Panel, Plan, Printed, Refusal, Style, FREE_CELL, MAX_CELLS,
};
use crate::crypto::rng::{below, chance};
use crate::language::{GridLine, Phrase};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Ambiguity: a number twice on the card.
pub const AMB_CARD_REPEAT: &str = "a number twice on the card";
/// Ambiguity: a number drawn twice.
pub const AMB_DRAWN_REPEAT: &str = "a number drawn twice";
/// Ambiguity: more matches than a prized count, with no prize of their own ("5 or more").
pub const AMB_UNPAID_ABOVE: &str = "more matches than a prized count, with no prize of its own";
/// Ambiguity: a full line of matches on a grid card (reads as a bingo).
pub const AMB_LINE: &str = "a full line of matches on a card that pays by count";

/// Most lines of a grid card: rows, columns, two diagonals and the four corners.
const MAX_LINES: usize = 2 * 7 + 3;

/// The patterns a grid card may pay, as `patterns` keys them.
const PATTERNS: [&str; 4] = ["row", "column", "diagonal", "corners"];
/// Each pattern in words, completed, with its verb: "a full row wins 5".
const PATTERN_WORDS: [&str; 4] = [
    "a full row wins",
    "a full column wins",
    "a full diagonal wins",
    "the four corners win",
];
/// Each pattern as the card's legend prints it.
const PATTERN_PRINTED: [GridLine; 4] = [
    GridLine::Row,
    GridLine::Column,
    GridLine::Diagonal,
    GridLine::Corners,
];
/// Ambiguity: two or more full lines of matches on a card that pays by pattern.
pub const AMB_TWO_LINES: &str = "two or more full lines of matches";
/// Ambiguity: a full line of a pattern the card does not pay.
pub const AMB_UNPAID_LINE: &str = "a full line of matches of a pattern that does not pay";

/// A `match_count` surface's table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatchCount {
    numbers: usize,
    drawn: usize,
    from: u32,
    to: u32,
    #[serde(default)]
    width: Option<usize>,
    #[serde(default)]
    prizes: Option<BTreeMap<String, Money>>,
    #[serde(default)]
    patterns: Option<BTreeMap<String, Money>>,
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
    /// When the card pays by pattern: the amount of a full row, column and diagonal.
    patterns: Option<[Option<Money>; 4]>,
    /// The kind of each of `lines`: 0 a row, 1 a column, 2 a diagonal.
    line_kind: Vec<u8>,
    /// Side of the grid card, if laid out as one.
    grid: Option<usize>,
    /// Grid positions (row × side + column, ascending) of the free cells: printed FREE,
    /// holding no number, counting as matched (`free_centre`, `free_cells`).
    free: Vec<usize>,
    /// The grid's lines as card cell indices (the free centre left out: it counts as matched).
    lines: Vec<Vec<usize>>,
    /// For each set of card cells one per row and per column hitting both diagonals (one such
    /// set is kept unmatched on every grid face), the card cells outside it, which may match.
    open: Vec<ArrayVec<u8, MAX_CELLS>>,
    near_miss: u32,
    /// The near miss (`near_miss_<area>` or the spec's `near_miss_feature`), in the
    /// layout's feature table.
    near_miss_id: FeatureId,
}

/// Line `l` of an `n`×`n` grid card in words: rows and columns alternate (`row 1`,
/// `column 1`, `row 2`, …), then `diagonal 1` (top left to bottom right), `diagonal 2`,
/// then `the four corners`.
fn line_name(n: usize, l: usize) -> String {
    if l < 2 * n {
        format!("{} {}", ["row", "column"][l % 2], l / 2 + 1)
    } else if l < 2 * n + 2 {
        format!("diagonal {}", l - 2 * n + 1)
    } else {
        "the four corners".to_string()
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

impl MatchCount {
    /// The card's near miss, as a feature.
    fn near(&self) -> LosingNearMiss {
        LosingNearMiss {
            id: self.near_miss_id,
            rate: self.near_miss,
        }
    }

    fn new(raw: RawMatchCount, ctx: &StyleCtx) -> Result<MatchCount, FieldError> {
        let (numbers, drawn) = (raw.numbers, raw.drawn);
        if numbers == 0 || drawn == 0 || numbers + drawn > MAX_CELLS {
            return Err(FieldError::new(
                "numbers",
                format!(
                    "expected 1 or more numbers and drawn numbers, {MAX_CELLS} in all at most; \
                     got {numbers} + {drawn}"
                ),
            ));
        }
        if raw.to < raw.from || raw.to - raw.from + 1 > 256 {
            return Err(FieldError::new(
                "to",
                format!(
                    "expected a range of at most 256 numbers, got {}..={}",
                    raw.from, raw.to
                ),
            ));
        }
        let range = raw.to - raw.from + 1;
        if (range as usize) < numbers + drawn {
            return Err(FieldError::new(
                "to",
                format!(
                    "{}..={} has {range} numbers; the card's {numbers} and the {drawn} drawn \
                     need {} to be told apart",
                    raw.from,
                    raw.to,
                    numbers + drawn
                ),
            ));
        }
        let width = raw.width.unwrap_or_else(|| raw.to.to_string().len());
        if width == 0 || width > 9 || raw.to.to_string().len() > width {
            return Err(FieldError::new(
                "width",
                format!("{width} digits cannot write {}", raw.to),
            ));
        }
        let (prize_table, patterns) = match (raw.prizes, raw.patterns) {
            (Some(p), None) => (p, None),
            (None, Some(t)) => {
                let mut kinds = [None; 4];
                for (k, &m) in &t {
                    let field = format!("patterns.{k}");
                    let i = PATTERNS.iter().position(|p| p == k).ok_or_else(|| {
                        FieldError::new(&field, "expected row, column, diagonal or corners")
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
        let (lines, blockers) = match raw.grid {
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
                (Vec::new(), Vec::new())
            }
            Some(n) => {
                let free = free_cells(n, raw.free_centre, &raw.free_cells)?;
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
                if patterns.is_some_and(|p| p[3].is_some()) {
                    // The four corners, as one more line (paid only).
                    lines.push(
                        [0, n - 1, n * (n - 1), n * n - 1]
                            .into_iter()
                            .filter_map(cell)
                            .collect(),
                    );
                }
                let blockers: Vec<Vec<usize>> = permutations(n)
                    .into_iter()
                    .filter(|p| {
                        (0..n).all(|r| cell(r * n + p[r]).is_some())
                            && (0..n).any(|r| p[r] == r)
                            && (0..n).any(|r| p[r] == n - 1 - r)
                    })
                    .map(|p| (0..n).filter_map(|r| cell(r * n + p[r])).collect())
                    .collect();
                if patterns.is_some() {
                    if let Some(l) = lines.iter().position(|l| l.len() < 2) {
                        return Err(FieldError::new(
                            "free_cells",
                            format!(
                                "{} holds {} number(s) besides its free cells: a line paid by \
                                 pattern needs two, so that a losing card can keep it open",
                                line_name(n, l),
                                lines[l].len()
                            ),
                        ));
                    }
                    let within = |a: &Vec<usize>, b: &Vec<usize>| a.iter().all(|c| b.contains(c));
                    if let Some((a, b)) = (0..lines.len())
                        .flat_map(|a| (0..lines.len()).map(move |b| (a, b)))
                        .find(|&(a, b)| a != b && within(&lines[a], &lines[b]))
                    {
                        return Err(FieldError::new(
                            "free_cells",
                            format!(
                                "with these free cells, completing {} also completes {}: a card \
                                 would show two patterns at once",
                                line_name(n, b),
                                line_name(n, a)
                            ),
                        ));
                    }
                    if drawn < n {
                        return Err(FieldError::new(
                            "drawn",
                            format!("a full line needs {n} drawn numbers"),
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
                (lines, blockers)
            }
        };
        let values = style::numbers(raw.from, raw.to, width);
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
        let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
        let mut line_kind: Vec<u8> = (0..lines.len()).map(|i| (i % 2) as u8).collect();
        if let Some(n) = raw.grid {
            line_kind[2 * n] = 2;
            line_kind[2 * n + 1] = 2;
            if let Some(k) = line_kind.get_mut(2 * n + 2) {
                *k = 3;
            }
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
        let mut layout = Layout::new(INFO.name, vec![area], columns);
        let near_miss_id = layout.features.add(
            near_miss_name,
            FeatureKind::NearMiss,
            "a losing card one match short of a win",
            "une carte perdante à un numéro d'un gain",
        );
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
            line_kind,
            grid: raw.grid,
            free: match raw.grid {
                Some(n) => free_cells(n, raw.free_centre, &raw.free_cells)?,
                None => Vec::new(),
            },
            lines,
            open,
            near_miss,
        }
        .with_layout())
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
    fn matched(&self, face: &Face) -> [bool; MAX_CELLS] {
        let mut drawn = [false; 256];
        for &c in &face.codes[self.numbers..self.numbers + self.drawn] {
            drawn[c as usize] = true;
        }
        let mut out = [false; MAX_CELLS];
        for (o, &c) in out.iter_mut().zip(&face.codes[..self.numbers]) {
            *o = drawn[c as usize];
        }
        out
    }

    /// A face whose card cells `cells` (in a drawn order) match and no other: distinct
    /// numbers are drawn for the matches, the card's other cells and the other drawn
    /// numbers, and each matched number is put at a drawn place among the drawn.
    fn write_numbers(&self, cells: &[u8], rng: &mut FaceRng) -> Face {
        let m = cells.len();
        let vals = pick_distinct(rng, self.range, self.numbers + self.drawn - m);

        let mut face = Face::default();
        let (shared, rest) = vals.split_at(m);
        let (card_only, drawn_only) = rest.split_at(self.numbers - m);
        // Each matched number at its own drawn position, on the card and among the drawn.
        let drawn_at = pick_distinct(rng, self.drawn as u32, m);
        let mut taken = [false; MAX_CELLS];
        for j in 0..m {
            let c = cells[j] as usize;
            let d = self.numbers + drawn_at[j] as usize;
            face.codes[c] = shared[j] as u8;
            face.codes[d] = shared[j] as u8;
            taken[c] = true;
            taken[d] = true;
        }
        let mut others = card_only.iter().chain(drawn_only);
        for (c, &t) in taken[..self.numbers + self.drawn].iter().enumerate() {
            if !t {
                face.codes[c] = *others.next().expect("counted") as u8;
            }
        }
        face
    }

    /// Pattern mode: the card cells that match, in a drawn order. A winning card fills one
    /// line of a pattern paying the way's amount; a near miss fills a paid line but one
    /// cell; every other line keeps one unmatched cell (drawn line by line, in a drawn
    /// order); then more matches are drawn among the cells left, as many as the drawn
    /// numbers allow.
    fn pattern_cells(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
    ) -> ArrayVec<u8, MAX_CELLS> {
        let pay = self.patterns.expect("pattern mode");
        let n_lines = self.lines.len();
        let mut matched = [false; MAX_CELLS];
        let mut blocked = [false; MAX_CELLS];
        let mut full = None;
        let mut clean = false;
        let paid = |l: usize| pay[self.line_kind[l] as usize];
        match way.wins.first() {
            Some(w) => {
                let lines: ArrayVec<usize, MAX_LINES> = (0..n_lines)
                    .filter(|&l| paid(l) == Some(w.amount))
                    .collect();
                let l = lines[below(rng, lines.len() as u32) as usize];
                for &c in &self.lines[l] {
                    matched[c] = true;
                }
                full = Some(l);
            }
            None if show.is_some() || chance(rng, self.near_miss) => {
                let lines: ArrayVec<usize, MAX_LINES> =
                    (0..n_lines).filter(|&l| paid(l).is_some()).collect();
                let line = &self.lines[lines[below(rng, lines.len() as u32) as usize]];
                let gap = line[below(rng, line.len() as u32) as usize];
                for &c in line {
                    matched[c] = c != gap;
                }
                blocked[gap] = true;
            }
            None => clean = true,
        }
        // Every other line has a cell outside the placed one (two lines share at most one
        // cell and hold two or more), so one is always left to keep unmatched. A losing card
        // not drawn to show the near miss has nothing placed: each paid line keeps two of
        // its cells (it holds two or more) unmatched, so none is one match short.
        for l in pick_distinct(rng, n_lines as u32, n_lines) {
            let line = &self.lines[l as usize];
            let need = if clean && paid(l as usize).is_some() {
                2
            } else {
                1
            };
            if Some(l as usize) == full {
                continue;
            }
            for _ in line.iter().filter(|&&c| blocked[c]).count()..need {
                let free: ArrayVec<usize, 8> = line
                    .iter()
                    .copied()
                    .filter(|&c| !matched[c] && !blocked[c])
                    .collect();
                blocked[free[below(rng, free.len() as u32) as usize]] = true;
            }
        }
        let mut cells: ArrayVec<u8, MAX_CELLS> = (0..self.numbers)
            .filter(|&c| matched[c])
            .map(|c| c as u8)
            .collect();
        let open: ArrayVec<u8, MAX_CELLS> = (0..self.numbers)
            .filter(|&c| !matched[c] && !blocked[c])
            .map(|c| c as u8)
            .collect();
        let room = open.len().min(self.drawn - cells.len());
        let extra = below(rng, room as u32 + 1) as usize;
        for p in pick_distinct(rng, open.len() as u32, extra) {
            cells.push(open[p as usize]);
        }
        let order = pick_distinct(rng, cells.len() as u32, cells.len());
        order.iter().map(|&i| cells[i as usize]).collect()
    }

    /// Pattern mode: the full lines of matches on a card (line indices).
    fn full_lines(&self, matched: &[bool]) -> ArrayVec<usize, MAX_LINES> {
        (0..self.lines.len())
            .filter(|&l| self.lines[l].iter().all(|&c| matched[c]))
            .collect()
    }

    /// Pattern mode: the first paid line one match short.
    fn near_line(&self, matched: &[bool]) -> Option<usize> {
        let pay = self.patterns?;
        (0..self.lines.len()).find(|&l| {
            pay[self.line_kind[l] as usize].is_some()
                && self.lines[l].iter().filter(|&&c| !matched[c]).count() == 1
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
                if let Some(pay) = self.patterns {
                    if !pay.contains(&Some(w.amount)) {
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

    fn draw(&self, way: &Way, show: Option<FeatureId>, rng: &mut FaceRng) -> Face {
        if self.patterns.is_some() {
            let cells = self.pattern_cells(way, show, rng);
            return self.write_numbers(&cells, rng);
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
        let mut cells: ArrayVec<u8, MAX_CELLS> = ArrayVec::new();
        if self.grid.is_some() {
            let open = &self.open[below(rng, self.open.len() as u32) as usize];
            for p in pick_distinct(rng, open.len() as u32, m) {
                cells.push(open[p as usize]);
            }
        } else {
            for p in pick_distinct(rng, self.numbers as u32, m) {
                cells.push(p as u8);
            }
        }
        self.write_numbers(&cells, rng)
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
                for p in 0..n * n {
                    if self.free.contains(&p) {
                        rows[p / n].push(FREE_CELL);
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
                .filter_map(|(line, m)| m.map(|amount| Phrase::Full { line, amount }))
                .collect(),
            None => self
                .prizes
                .iter()
                .enumerate()
                .filter_map(|(count, m)| m.map(|amount| Phrase::Matches { count, amount }))
                .collect(),
        };
        vec![Printed {
            panel: self.id.clone(),
            lines: super::common::legend_lines(lines),
        }]
    }

    fn describe(&self) -> Vec<String> {
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
                     {n}×{n} card{} is among the {} drawn numbers (numbers {} to {}): {}.",
                    self.label,
                    self.free_words(" (", " counting as drawn)"),
                    self.drawn,
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
            if pay[3].is_some() {
                v.insert(
                    1,
                    "The four corners are a pattern of their own: they win when the numbers of \
                     all four corners (a free one counting as drawn) are among the drawn \
                     numbers."
                        .to_string(),
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
            "« {} » wins by the number of its {} numbers found among the {} drawn numbers \
             (numbers {} to {}): {}; any other count loses.",
            self.label,
            self.numbers,
            self.drawn,
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
        self.near().features()
    }

    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let kind = if !ev.wins.is_empty() {
            MarkKind::Win
        } else if ev.shows(self.near_miss_id) {
            MarkKind::NearMiss
        } else {
            return Vec::new();
        };
        let mut matched = self.matched(face);
        if let Some(pay) = self.patterns {
            // Only the cells of the winning line, or of the line one match short.
            let line = if kind == MarkKind::Win {
                self.full_lines(&matched)
                    .into_iter()
                    .find(|&l| pay[self.line_kind[l] as usize].is_some())
            } else {
                self.near_line(&matched)
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
        let mut out: Vec<Mark> = (0..self.numbers)
            .filter(|&c| matched[c])
            .map(|column| Mark {
                area: 0,
                column,
                kind,
            })
            .collect();
        for d in 0..self.drawn {
            let col = self.numbers + d;
            if card.contains(&face.codes[col]) {
                out.push(Mark {
                    area: 0,
                    column: col,
                    kind,
                });
            }
        }
        out
    }

    fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
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
        let matched = self.matched(face);
        if let Some(pay) = self.patterns {
            let full = self.full_lines(&matched);
            if full.len() >= 2 {
                ev.ambiguities.push(AMB_TWO_LINES);
            }
            let paid = |l: usize| pay[self.line_kind[l] as usize];
            if full.iter().any(|&l| paid(l).is_none()) {
                ev.ambiguities.push(AMB_UNPAID_LINE);
            }
            match full.iter().find_map(|&l| paid(l)) {
                Some(amount) => ev.wins.push(AreaWin { area: 0, amount }),
                None => {
                    if self.near_line(&matched).is_some() {
                        ev.losing_features.push(AreaFeature {
                            area: 0,
                            id: self.near_miss_id,
                        });
                    }
                }
            }
            return ev;
        }
        if self
            .lines
            .iter()
            .any(|line| line.iter().all(|&c| matched[c]))
        {
            ev.ambiguities.push(AMB_LINE);
        }
        let m = matched.iter().filter(|&&x| x).count();
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
        ev
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
            card may pay by full line instead (patterns = { row = 5, diagonal = 20 }).",
    naive: "A player counts matches and reads a legend count as \"that many or more\", and a \
            bingo player reads a full line of a grid card as a win: no face shows an unpaid \
            count above a paid one, a repeated number, or a full line of matches; a card paid \
            by pattern shows one full line when it wins, none when it loses.",
    columns: "{id}_n{i} (the card, row by row, free centre left out), {id}_d{i} (drawn)",
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
            about: "drawn numbers shown under the scratch",
        },
        Param {
            name: "from",
            kind: "integer",
            default: None,
            about: "lowest number",
        },
        Param {
            name: "to",
            kind: "integer",
            default: None,
            about: "highest number (the range holds the card's and the drawn numbers apart)",
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
                    four corners) → amount",
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
numbers = 24
drawn = 24
from = 1
to = 75
grid = 5
free_centre = true
near_miss = 0.3
prizes = { "9" = 2, "10" = 5, "11" = 20, "12" = 100 }
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        count_showing, drawn_twice, judge_any_faces, round_trip, round_trip_showing, way, Ctx,
    };
    use crate::styles::testkit::{Planning, Tested};
    use rand_core::SeedableRng;

    /// The near miss's feature id on surface `b` (area `b`).
    const NEAR_MISS: &str = "near_miss_b";

    const BINGO: &str = "numbers = 24\ndrawn = 24\nfrom = 1\nto = 75\ngrid = 5\n\
        free_centre = true\nnear_miss = 0.3\n\
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

    #[test]
    fn columns_panels_and_blockers() {
        let m = make(BINGO).unwrap();
        assert_eq!(m.layout().columns.len(), 48);
        assert_eq!(m.layout().columns[0].name, "b_n1");
        assert_eq!(m.layout().columns[24].name, "b_d1");
        assert_eq!(m.layout().columns[0].values[0], "01");
        let p = m.panels();
        // The FREE centre keeps its place in the middle row.
        assert_eq!(p[0].rows[2], vec![10, 11, FREE_CELL, 12, 13]);
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
        // The centre row and column hold 4 cells; the diagonals too.
        assert_eq!(m.lines.iter().filter(|l| l.len() == 4).count(), 4);
        assert_eq!(m.most(), 19);
        // Permutations of 5 avoiding the centre and meeting both diagonals.
        assert!(!m.open.is_empty());
        assert!(m.open.iter().all(|o| o.len() == 19));
        assert_eq!(permutations(3).len(), 6);
        assert!(m.describe()[0].starts_with("« Bingo » wins by the number of its 24 numbers"));
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
        // Card 1..=24; drawn: the top row (1..=5) and 20 others not on the card.
        let card: Vec<u8> = (1..=24).collect();
        let mut drawn: Vec<u8> = (1..=5).collect();
        drawn.extend(50..69);
        let ev = m.evaluate(&face(&card, &drawn));
        assert_eq!(ev.ambiguities, vec![AMB_LINE]);
        // The centre column through the free centre: cells 2, 7, 16, 21 (numbers 3 8 17 22).
        let mut drawn: Vec<u8> = vec![3, 8, 17, 22];
        drawn.extend(50..70);
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
        // 20 matches and more always make a line on a 5×5 card.
        let high = BINGO.replace("\"12\" = 100", "\"12\" = 100, \"20\" = 500");
        let m = make(&high).unwrap();
        let e = m.check_way(&way(&[500])).unwrap_err();
        assert!(matches!(e, Refusal::CannotWin { .. }));
        assert!(e.to_string().contains("at most 19"), "{e}");
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
    const VECTOR: [u8; 12] = [32, 8, 9, 4, 38, 48, 17, 8, 32, 10, 4, 38];

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
                let lines = m.full_lines(&m.matched(&f));
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
    const PATTERN_VECTOR: [u8; 4] = [20, 41, 48, 65];

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
        // By count, with the same jokers: never a full line through them.
        let count = JOKERS.replace(
            "patterns = { row = 5, column = 5, diagonal = 20 }",
            "prizes = { \"6\" = 2, \"7\" = 5 }",
        );
        let m = make(&count).unwrap();
        for w in [way(&[]), way(&[2]), way(&[5])] {
            round_trip(&m, &w, 0..300);
        }
        // The free centre is the same as a free cell at the centre.
        let a = make(BINGO).unwrap();
        let b = make(&BINGO.replace("free_centre = true", "free_cells = [[3, 3]]")).unwrap();
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
                &BINGO
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
                let full = m.full_lines(&m.matched(&f));
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
}
