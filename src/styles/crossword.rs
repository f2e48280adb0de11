//! The *crossword* play style (industry: crossword, word list, "cashword").
//!
//! **Rule.** The surface shows a grid of words laid across and down (`grids`), or a printed
//! list of words (`lists`), and, under the scratch, **your letters** (`letters` of them,
//! distinct, from A to Z). A word is **complete** when every letter of it is among your
//! letters (a letter the word shows twice needs to be among yours once; a square two words
//! cross counts for both). The surface's one play area wins by the **number of complete
//! words**, as the printed legend pays (`prizes = { "3" = 2, "4" = 5, "10" = 10000 }`); any
//! other count loses.
//!
//! **Grids.** The spec gives a book of grids, each drawn as rows of letters with `.` for an
//! empty square; a grid's words are its runs of two or more letters, across (row by row)
//! then down (column by column, each from the top). Every grid of the book holds the same
//! number of words, no word twice. Each ticket draws its grid (or list) from the book,
//! uniformly and before anything else, so the grid, which may be printed outside the
//! scratch, tells nothing of the prize. A 11×11 grid has 121 squares: printed square by
//! square, a grid and 18 letters would exceed the 128 face columns of a ticket, so the face
//! holds the grid's number and its words, and the printer sets the grid from the spec.
//!
//! **Naive reading.** A player scratches the letters, marks each of them everywhere in the
//! grid, counts the words whose every square is marked, and reads a legend count as "that
//! many or more": no face shows a letter twice among yours, an unpaid count above the lowest
//! paid one, or words other than those of its grid.
//!
//! **Columns.** `{id}_grid` (the grid's number in the book, from 1), `{id}_w{i}` (its words
//! in the order above), `{id}_l{i}` (your letters). The legend is printed, not a face column.
//! Play area: `area`, by default the surface id; panels `{id}` (grid and words) and
//! `{id}_letters`. For a book of grids the layout also gives each grid's lattice (the
//! square of every letter of every word), on which proofs draw the words; a list's words
//! are drawn as a row of cells.
//!
//! **Features.** `near_miss_<area>` (or the spec's `near_miss_feature`): a losing face one
//! word short of the lowest paid count with an incomplete word one letter short, on exactly
//! `near_miss` of losing faces; every other losing face shows at most two words fewer than
//! the lowest paid count.
//!
//! **Synthesis.** At load, for every grid, every set of complete words that some letters can
//! show exactly (no other word complete) is found, with a set of excluded letters that proves
//! it; a count that some grid cannot show is refused. A face draws its grid, then the number
//! of complete words (a count the way's amount pays; a losing count), then one of the grid's
//! sets of that size; the letters of those words are yours; every other word is kept
//! incomplete by excluding one of its letters (drawn word by word in a drawn order, among
//! the letters that keep the most words incomplete), the excluded letters are completed at
//! random to `26 − letters`, and your letters are the rest, in a drawn order. When the drawn
//! exclusions overrun, the set's proof is used: every draw is bounded.

use super::common::{pick_distinct, LosingNearMiss};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Lattice, LatticeGrid, Layout, Mark, MarkKind, Panel, Plan, Printed, Refusal, Style,
};
use crate::crypto::rng::{below, chance};
use crate::language::Phrase;
use crate::lots::Way;
use crate::money::Money;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Ambiguity: a letter twice among your letters.
pub const AMB_LETTER_REPEAT: &str = "a letter twice among your letters";
/// Ambiguity: words that are not those of the face's grid.
pub const AMB_NOT_THE_GRID: &str = "words that are not those of the grid";
/// Ambiguity: more complete words than a paid count, with no prize of their own.
pub const AMB_UNPAID_ABOVE: &str =
    "more complete words than a paid count, with no prize of their own";

/// The letters of the alphabet, as a bit mask (bit `i` is letter `A + i`).
const ALPHABET: u32 = (1 << 26) - 1;
/// Most words a grid holds (every set of them is examined at load).
pub const MAX_WORDS: usize = 12;
/// Most grids (or lists) in a book.
pub const MAX_GRIDS: usize = 64;
/// Most squares across or down a grid.
pub const MAX_SIDE: usize = 15;
/// Exclusions drawn for a face before its set's proof is used.
const TRIES: usize = 3;

/// A `crossword` surface's table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrossword {
    letters: usize,
    prizes: BTreeMap<String, Money>,
    #[serde(default)]
    grids: Option<Vec<Vec<String>>>,
    #[serde(default)]
    lists: Option<Vec<Vec<String>>>,
    #[serde(default)]
    near_miss: f64,
    #[serde(default)]
    area: Option<String>,
    #[serde(default)]
    near_miss_feature: Option<String>,
}

/// A set of complete words a grid can show exactly, with excluded letters that prove it.
#[derive(Clone, Copy, Debug)]
struct Showing {
    /// The complete words, as a bit mask of the grid's word slots.
    complete: u32,
    /// The near miss's incomplete word (a slot) and its one missing letter, if any.
    short: Option<(u8, u8)>,
    /// Letters that are yours on every such face (those of the complete words, and of the
    /// near miss's word but its missing letter).
    yours: u32,
    /// Excluded letters that keep every other word incomplete, at most `26 − letters`.
    proof: u32,
}

/// One grid (or list) of the book.
#[derive(Clone, Debug)]
struct Grid {
    /// Its words, as codes of the word dictionary, in slot order.
    words: Vec<u8>,
    /// `by_count[k]`: every set of `k` complete words it can show exactly.
    by_count: Vec<Vec<Showing>>,
    /// The near misses it can show: one word short of the lowest paid count, with a word one
    /// letter short.
    near: Vec<Showing>,
}

/// The crossword style, built from a validated surface table.
pub struct Crossword {
    id: String,
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    label: String,
    /// Your letters on every face.
    letters: usize,
    /// The letters of each word of the dictionary, as a mask.
    masks: Vec<u32>,
    /// The grids as printed (empty rows for a book of lists).
    pictures: Vec<Vec<String>>,
    grids: Vec<Grid>,
    /// Words per grid.
    n: usize,
    /// `prizes[k]`: the amount `k` complete words win.
    prizes: Vec<Option<Money>>,
    /// The lowest paid count.
    lowest: usize,
    near_miss: u32,
    /// The near miss (`near_miss_<area>` or the spec's `near_miss_feature`), in the
    /// layout's feature table.
    near_miss_id: FeatureId,
}

/// The bit of letter `b` (`b'A'..=b'Z'`).
fn bit(b: u8) -> u32 {
    1 << (b - b'A')
}

/// The letters of `word`, as a mask.
fn mask(word: &str) -> u32 {
    word.bytes().fold(0, |m, b| m | bit(b))
}

/// The words of a grid drawn as `rows`, each as the squares of its letters in order
/// ((row, square) from 0 at the top left): its runs of two or more letters, across row by
/// row, then down column by column. Errors: a malformed row, or a letter in no word.
fn grid_runs(rows: &[String]) -> Result<Vec<Vec<(usize, usize)>>, String> {
    let h = rows.len();
    let w = rows.first().map_or(0, String::len);
    if h == 0 || w == 0 || h > MAX_SIDE || w > MAX_SIDE {
        return Err(format!(
            "expected 1 to {MAX_SIDE} rows of 1 to {MAX_SIDE} squares, got {h} rows of {w}"
        ));
    }
    let cells: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
    for r in rows {
        if r.len() != w || !r.bytes().all(|b| b == b'.' || b.is_ascii_uppercase()) {
            return Err(format!(
                "row \"{r}\": expected {w} squares, each a letter A to Z or . (empty)"
            ));
        }
    }
    let at = |i: usize, j: usize| cells[i][j] != b'.';
    let mut runs: Vec<Vec<(usize, usize)>> = Vec::new();
    // Across, row by row.
    for i in 0..h {
        let mut j = 0;
        while j < w {
            let start = j;
            while j < w && at(i, j) {
                j += 1;
            }
            if j - start >= 2 {
                runs.push((start..j).map(|k| (i, k)).collect());
            }
            j += 1;
        }
    }
    // Down, column by column.
    for j in 0..w {
        let mut i = 0;
        while i < h {
            let start = i;
            while i < h && at(i, j) {
                i += 1;
            }
            if i - start >= 2 {
                runs.push((start..i).map(|k| (k, j)).collect());
            }
            i += 1;
        }
    }
    let mut used = vec![vec![false; w]; h];
    for &(i, j) in runs.iter().flatten() {
        used[i][j] = true;
    }
    for i in 0..h {
        for j in 0..w {
            if at(i, j) && !used[i][j] {
                return Err(format!(
                    "the letter {} in row {}, square {} is in no word (a word has 2 letters or \
                     more)",
                    cells[i][j] as char,
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    Ok(runs)
}

/// The words of a grid drawn as `rows`, in the order of [`grid_runs`]. Errors: its.
fn grid_words(rows: &[String]) -> Result<Vec<String>, String> {
    Ok(grid_runs(rows)?
        .iter()
        .map(|run| {
            run.iter()
                .map(|&(i, j)| rows[i].as_bytes()[j] as char)
                .collect()
        })
        .collect())
}

/// Excluded letters, at most `budget`, none of `yours`, holding a letter of each of
/// `others` (word masks): the letter keeping the most of them incomplete first, the first
/// in the alphabet among equals. `None` when a word is all `yours` or `budget` is overrun.
fn proof(others: &[u32], yours: u32, start: u32, budget: u32) -> Option<u32> {
    let mut x = start;
    loop {
        let open: Vec<u32> = others.iter().copied().filter(|&w| w & x == 0).collect();
        if open.is_empty() {
            return (x.count_ones() <= budget).then_some(x);
        }
        if open.iter().any(|&w| w & !yours == 0) || x.count_ones() >= budget {
            return None;
        }
        let best = (0..26)
            .filter(|&l| yours & (1 << l) == 0)
            .max_by_key(|&l| {
                (
                    open.iter().filter(|&&w| w & (1 << l) != 0).count(),
                    std::cmp::Reverse(l),
                )
            })
            .expect("a letter outside yours");
        x |= 1 << best;
    }
}

impl Crossword {
    /// The surface's near miss, as a feature.
    fn near(&self) -> LosingNearMiss {
        LosingNearMiss {
            id: self.near_miss_id,
            rate: self.near_miss,
        }
    }

    /// Excluded letters the most a face may show.
    fn budget(&self) -> u32 {
        26 - self.letters as u32
    }

    fn new(raw: RawCrossword, ctx: &StyleCtx) -> Result<Crossword, FieldError> {
        let (book, field, crossword) =
            match (raw.grids, raw.lists) {
                (Some(g), None) => (g, "grids", true),
                (None, Some(l)) => (l, "lists", false),
                _ => return Err(FieldError::new(
                    "grids",
                    "give either grids (crosswords drawn as rows of letters) or lists (printed \
                     lists of words)",
                )),
            };
        if book.is_empty() || book.len() > MAX_GRIDS {
            return Err(FieldError::new(
                field,
                format!("expected 1 to {MAX_GRIDS}, got {}", book.len()),
            ));
        }
        let mut words: Vec<String> = Vec::new();
        let mut slots: Vec<Vec<u8>> = Vec::new();
        for (g, entry) in book.iter().enumerate() {
            let f = format!("{field}[{g}]");
            let ws = if crossword {
                grid_words(entry).map_err(|e| FieldError::new(&f, e))?
            } else {
                entry.clone()
            };
            let mut codes = Vec::new();
            for w in &ws {
                if w.len() < 2 || w.len() > 20 || !w.bytes().all(|b| b.is_ascii_uppercase()) {
                    return Err(FieldError::new(
                        &f,
                        format!("\"{w}\" is not a word: expected 2 to 20 letters A to Z"),
                    ));
                }
                let code = match words.iter().position(|x| x == w) {
                    Some(c) => c,
                    None => {
                        words.push(w.clone());
                        words.len() - 1
                    }
                };
                if ws.iter().filter(|x| *x == w).count() > 1 {
                    return Err(FieldError::new(
                        &f,
                        format!("\"{w}\" is twice in it: a player would count it twice"),
                    ));
                }
                codes.push(code.min(255) as u8);
            }
            if ws.is_empty() || ws.len() > MAX_WORDS {
                return Err(FieldError::new(
                    &f,
                    format!("expected 1 to {MAX_WORDS} words, got {}", ws.len()),
                ));
            }
            if let Some(first) = slots.first().filter(|s| s.len() != ws.len()) {
                return Err(FieldError::new(
                    &f,
                    format!(
                        "holds {} words and {field}[0] {}: every one holds the same number, \
                         which the legend counts",
                        ws.len(),
                        first.len()
                    ),
                ));
            }
            slots.push(codes);
        }
        if words.len() > 256 {
            return Err(FieldError::new(
                field,
                format!("at most 256 distinct words in all, got {}", words.len()),
            ));
        }
        let n = slots[0].len();
        let letters = raw.letters;
        if !(1..=25).contains(&letters) {
            return Err(FieldError::new(
                "letters",
                format!("expected 1 to 25 letters, got {letters}"),
            ));
        }
        let mut prizes = vec![None; n + 1];
        for (k, &m) in &raw.prizes {
            let f = format!("prizes.{k}");
            let count: usize = k
                .parse()
                .map_err(|_| FieldError::new(&f, format!("\"{k}\" is not a number of words")))?;
            if count == 0 || count > n {
                return Err(FieldError::new(
                    &f,
                    format!("expected a number of words from 1 to {n}"),
                ));
            }
            if m.is_zero() || ctx.max.is_some_and(|x| m > x) {
                return Err(FieldError::new(
                    &f,
                    "expected an amount above 0 and not above the surface's max",
                ));
            }
            if prizes[count].is_some() {
                return Err(FieldError::new(&f, "this count is listed twice"));
            }
            prizes[count] = Some(m);
        }
        // A player reads a legend count as "that many or more": more words never pay less.
        let mut paid: Option<(usize, Money)> = None;
        for (count, m) in prizes.iter().enumerate() {
            if let Some(m) = *m {
                if let Some((c0, m0)) = paid.filter(|&(_, m0)| m < m0) {
                    return Err(FieldError::new(
                        format!("prizes.{count}"),
                        format!(
                            "{count} words win {m}, less than the {m0} of {c0} words: a player \
                             reads a count as that many or more, so more words may not pay less"
                        ),
                    ));
                }
                paid = Some((count, m));
            }
        }
        let lowest = prizes.iter().position(Option::is_some).ok_or_else(|| {
            FieldError::new("prizes", "expected one or more paid counts of words")
        })?;
        let near_miss =
            super::common::share(raw.near_miss).map_err(|e| FieldError::new("near_miss", e))?;
        if near_miss > 0 && lowest < 2 {
            return Err(FieldError::new(
                "near_miss",
                "one word short of 1 is every losing face: set near_miss = 0 or pay 2 words or \
                 more",
            ));
        }
        let masks: Vec<u32> = words.iter().map(|w| mask(w)).collect();
        let budget = 26 - letters as u32;
        let grids: Vec<Grid> = slots
            .into_iter()
            .map(|s| Self::showings(&s, &masks, budget, lowest))
            .collect();
        // Losing faces are always drawn: their counts must show on every grid.
        for (g, grid) in grids.iter().enumerate() {
            let f = format!("{field}[{g}]");
            for k in 0..lowest.saturating_sub(1).max(1) {
                if grid.by_count[k].is_empty() {
                    return Err(FieldError::new(
                        &f,
                        format!(
                            "no {letters} letters leave exactly {k} of its words complete (a \
                             losing face): use fewer letters or words sharing fewer letters"
                        ),
                    ));
                }
            }
            if near_miss > 0 && grid.near.is_empty() {
                return Err(FieldError::new(
                    &f,
                    format!(
                        "no {letters} letters show its near miss ({} complete words and a word \
                         one letter short)",
                        lowest - 1
                    ),
                ));
            }
        }
        let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
        let mut columns = vec![Column {
            name: format!("{}_grid", ctx.id),
            kind: ColumnKind::Symbol,
            values: (1..=grids.len()).map(|g| g.to_string()).collect(),
            inscriptions: Vec::new(),
        }];
        columns.extend((1..=n).map(|i| Column {
            name: format!("{}_w{i}", ctx.id),
            kind: ColumnKind::Symbol,
            values: words.clone(),
            inscriptions: Vec::new(),
        }));
        let alphabet: Vec<String> = (b'A'..=b'Z').map(|b| (b as char).to_string()).collect();
        columns.extend((1..=letters).map(|i| Column {
            name: format!("{}_l{i}", ctx.id),
            kind: ColumnKind::Symbol,
            values: alphabet.clone(),
            inscriptions: Vec::new(),
        }));
        let near_miss_name = match &raw.near_miss_feature {
            Some(id) => super::match_symbols::feature_id(id, "near_miss_feature")?,
            None => format!("near_miss_{area}"),
        };
        let label = ctx.label(&area).to_string();
        let mut layout = Layout::new(INFO.name, vec![area], columns);
        let near_miss_id = layout.features.add(
            near_miss_name,
            FeatureKind::NearMiss,
            "a losing face one word short of a prize, with a word one letter short",
            "un ticket perdant à un mot d'un gain, avec un mot à une lettre près",
        );
        Ok(Crossword {
            id: ctx.id.to_string(),
            label,
            near_miss_id,
            layout,
            letters,
            masks,
            pictures: if crossword { book } else { Vec::new() },
            grids,
            n,
            prizes,
            lowest,
            near_miss,
        }
        .with_layout())
    }

    /// Every set of complete words grid `slots` can show exactly with `26 − budget`
    /// letters, by size, and its near misses one word short of `lowest`.
    fn showings(slots: &[u8], masks: &[u32], budget: u32, lowest: usize) -> Grid {
        let n = slots.len();
        let m: Vec<u32> = slots.iter().map(|&c| masks[c as usize]).collect();
        let mut by_count = vec![Vec::new(); n + 1];
        let mut near = Vec::new();
        let letters = 26 - budget;
        for complete in 0u32..1 << n {
            let yours = (0..n)
                .filter(|&i| complete & (1 << i) != 0)
                .fold(0, |u, i| u | m[i]);
            if yours.count_ones() > letters {
                continue;
            }
            let others: Vec<(usize, u32)> = (0..n)
                .filter(|&i| complete & (1 << i) == 0)
                .map(|i| (i, m[i]))
                .collect();
            let k = complete.count_ones() as usize;
            let all: Vec<u32> = others.iter().map(|&(_, w)| w).collect();
            if let Some(p) = proof(&all, yours, 0, budget) {
                by_count[k].push(Showing {
                    complete,
                    short: None,
                    yours,
                    proof: p,
                });
            }
            if lowest < 2 || k != lowest - 1 {
                continue;
            }
            for &(s, w) in &others {
                for l in 0..26u8 {
                    let missing = 1u32 << l;
                    if w & missing == 0 || yours & missing != 0 {
                        continue;
                    }
                    let with = yours | (w & !missing);
                    if with.count_ones() > letters {
                        continue;
                    }
                    let rest: Vec<u32> = others
                        .iter()
                        .filter(|&&(i, _)| i != s)
                        .map(|&(_, x)| x)
                        .collect();
                    if let Some(p) = proof(&rest, with, missing, budget) {
                        near.push(Showing {
                            complete,
                            short: Some((s as u8, l)),
                            yours: with,
                            proof: p,
                        });
                    }
                }
            }
        }
        Grid {
            words: slots.to_vec(),
            by_count,
            near,
        }
    }

    /// The counts a win of `amount` may show.
    fn counts_for(&self, amount: Money) -> Vec<usize> {
        (0..=self.n)
            .filter(|&k| self.prizes[k] == Some(amount))
            .collect()
    }

    /// The letters of `face`, as a mask, and whether one is shown twice.
    fn your_letters(&self, face: &Face) -> (u32, bool) {
        let start = 1 + self.n;
        let mut yours = 0u32;
        let mut twice = false;
        for &c in &face.codes[start..start + self.letters] {
            let b = 1u32 << c;
            twice |= yours & b != 0;
            yours |= b;
        }
        (yours, twice)
    }

    /// The face's words (dictionary codes), in slot order.
    fn face_words<'f>(&self, face: &'f Face) -> &'f [u8] {
        &face.codes[1..1 + self.n]
    }

    /// The slots of `face` whose word is complete, and those one letter short, as masks.
    fn complete_and_short(&self, face: &Face) -> (u32, u32) {
        let (yours, _) = self.your_letters(face);
        let mut complete = 0;
        let mut short = 0;
        for (i, &w) in self.face_words(face).iter().enumerate() {
            let missing = (self.masks[w as usize] & !yours).count_ones();
            if missing == 0 {
                complete |= 1 << i;
            } else if missing == 1 {
                short |= 1 << i;
            }
        }
        (complete, short)
    }

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
                let counts = self.counts_for(w.amount);
                if counts.is_empty() {
                    return Err(cannot("the amount is no paid count's amount".into()));
                }
                for &k in &counts {
                    if let Some(g) = self.grids.iter().position(|g| g.by_count[k].is_empty()) {
                        return Err(cannot(format!(
                            "grid {} cannot show exactly {k} complete words with {} letters, \
                             and every grid must serve every way (the grid tells nothing of \
                             the prize)",
                            g + 1,
                            self.letters
                        )));
                    }
                }
                Ok(())
            }
            _ => Err(Refusal::TooManyWins {
                area: self.id.clone(),
                wins: way.wins.len(),
                most: 1,
                why: "it wins by its count of complete words",
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
        // The grid first, whatever the way: it may be printed outside the scratch.
        let g = below(rng, self.grids.len() as u32) as usize;
        let grid = &self.grids[g];
        let pick = |set: &[Showing], rng: &mut FaceRng| set[below(rng, set.len() as u32) as usize];
        let showing = match way.wins.first() {
            Some(w) => {
                let counts = self.counts_for(w.amount);
                let k = counts[below(rng, counts.len() as u32) as usize];
                pick(&grid.by_count[k], rng)
            }
            None if self.lowest >= 2 && (show.is_some() || chance(rng, self.near_miss)) => {
                pick(&grid.near, rng)
            }
            None => {
                let k = below(rng, self.lowest.saturating_sub(1).max(1) as u32) as usize;
                pick(&grid.by_count[k], rng)
            }
        };
        let excluded = self.exclusions(grid, &showing, rng);
        let mut face = Face::zeroed(self.layout.columns.len());
        face.codes[0] = g as u8;
        face.codes[1..1 + self.n].copy_from_slice(&grid.words);
        let yours: Vec<u8> = (0..26u8).filter(|&l| excluded & (1 << l) == 0).collect();
        let start = 1 + self.n;
        for (i, p) in pick_distinct(rng, self.letters as u32, self.letters)
            .into_iter()
            .enumerate()
        {
            face.codes[start + i] = yours[p as usize];
        }
        face
    }

    /// The excluded letters of a face showing `s` on `grid`: one letter of every other word
    /// (drawn word by word in a drawn order, among its letters not yours that keep the most
    /// words incomplete), else the proof; then letters drawn among the rest up to
    /// `26 − letters`.
    fn exclusions(&self, grid: &Grid, s: &Showing, rng: &mut FaceRng) -> u32 {
        let budget = self.budget();
        let others: Vec<u32> = (0..self.n)
            .filter(|&i| s.complete & (1 << i) == 0 && s.short.map(|(w, _)| w as usize) != Some(i))
            .map(|i| self.masks[grid.words[i] as usize])
            .collect();
        let start = s.short.map_or(0, |(_, l)| 1u32 << l);
        let mut excluded = s.proof;
        for _ in 0..TRIES {
            let mut x = start;
            for p in pick_distinct(rng, others.len() as u32, others.len()) {
                let w = others[p as usize];
                if w & x != 0 {
                    continue;
                }
                let gain = |l: u32| others.iter().filter(|&&o| o & x == 0 && o & l != 0).count();
                let free: Vec<u32> = (0..26)
                    .map(|l| 1u32 << l)
                    .filter(|&l| w & l != 0 && s.yours & l == 0)
                    .collect();
                let best = free.iter().map(|&l| gain(l)).max().expect("a free letter");
                let top: Vec<u32> = free.into_iter().filter(|&l| gain(l) == best).collect();
                x |= top[below(rng, top.len() as u32) as usize];
            }
            if x.count_ones() <= budget {
                excluded = x;
                break;
            }
        }
        let rest: Vec<u32> = (0..26)
            .map(|l| 1u32 << l)
            .filter(|&l| excluded & l == 0 && s.yours & l == 0)
            .collect();
        let more = (budget - excluded.count_ones()) as usize;
        for p in pick_distinct(rng, rest.len() as u32, more) {
            excluded |= rest[p as usize];
        }
        excluded & ALPHABET
    }
}

/// The presentation of the style, computed once by its constructor.
impl Crossword {
    /// `self` with its layout completed: panels, printed lines and description.
    fn with_layout(mut self) -> Self {
        self.layout.panels = self.panels();
        self.layout.lattices = self.lattices();
        self.layout.printed = self.printed();
        self.layout.description = self.describe();
        self
    }

    fn panels(&self) -> Vec<Panel> {
        let words: Vec<usize> = (1..=self.n).collect();
        let mut rows = vec![vec![0]];
        rows.extend(words.chunks(4).map(<[usize]>::to_vec));
        let letters: Vec<usize> = (1 + self.n..1 + self.n + self.letters).collect();
        vec![
            Panel {
                id: self.id.clone(),
                rows,
            },
            Panel {
                id: format!("{}_letters", self.id),
                rows: letters.chunks(6).map(<[usize]>::to_vec).collect(),
            },
        ]
    }

    /// The book's grids drawn square by square in panel `{id}`, word `i` in face column
    /// `1 + i`; none for a book of lists, whose words stay a row of cells.
    fn lattices(&self) -> Vec<Lattice> {
        if self.pictures.is_empty() {
            return Vec::new();
        }
        let grids = self
            .pictures
            .iter()
            .map(|rows| LatticeGrid {
                rows: rows.len(),
                cols: rows[0].len(),
                words: grid_runs(rows)
                    .expect("a grid checked at load")
                    .into_iter()
                    .enumerate()
                    .map(|(i, run)| (1 + i, run))
                    .collect(),
            })
            .collect();
        vec![Lattice {
            panel: self.id.clone(),
            grid: 0,
            grids,
        }]
    }

    /// The legend the ticket prints: the amount of each paid count of words.
    fn printed(&self) -> Vec<Printed> {
        let lines: Vec<Phrase> = self
            .prizes
            .iter()
            .enumerate()
            .filter_map(|(count, m)| {
                m.map(|m| Phrase::Words {
                    count,
                    amount: m.into(),
                })
            })
            .collect();
        vec![Printed {
            panel: self.id.clone(),
            lines: super::common::legend_lines(lines),
        }]
    }

    fn describe(&self) -> Vec<String> {
        let legend: Vec<String> = self
            .prizes
            .iter()
            .enumerate()
            .filter_map(|(k, p)| p.map(|a| format!("{k} words win {a}")))
            .collect();
        let book = if self.pictures.is_empty() {
            format!(
                "a list of {} words (one of {} lists)",
                self.n,
                self.grids.len()
            )
        } else {
            format!(
                "a crossword grid of {} words across and down (one of {} grids)",
                self.n,
                self.grids.len()
            )
        };
        vec![
            format!(
                "« {} » shows {book}, drawn for each ticket whatever its prize, and {} letters \
                 under the scratch, none twice; a word is complete when every letter of it is \
                 among those letters; it wins by the number of complete words: {}; any other \
                 count loses.",
                self.label,
                self.letters,
                legend.join(", ")
            ),
            format!(
                "No face shows more complete words than a paid count without a prize of its \
                 own. Near miss {} ({} and a word one letter short) on {:.2}% of losing \
                 faces; every other losing face shows {}.",
                self.layout.features.name(self.near_miss_id),
                complete_words(self.lowest.saturating_sub(1)),
                f64::from(self.near_miss) / 1e4,
                match self.lowest {
                    0..=2 => "no complete word".to_string(),
                    l => format!("at most {}", complete_words(l - 2)),
                }
            ),
        ]
    }
}

/// `k` complete words, in words (`1 complete word`, `2 complete words`).
fn complete_words(k: usize) -> String {
    format!("{k} complete word{}", if k == 1 { "" } else { "s" })
}

impl Style for Crossword {
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
        let (complete, short) = self.complete_and_short(face);
        let (kind, words) = if !ev.wins.is_empty() {
            (MarkKind::Win, complete)
        } else if ev.shows(self.near_miss_id) {
            (MarkKind::NearMiss, complete | short)
        } else {
            return Vec::new();
        };
        let mut on = 0u32;
        let mut out = Vec::new();
        for (i, &w) in self.face_words(face).iter().enumerate() {
            if words & (1 << i) != 0 {
                on |= self.masks[w as usize];
                out.push(Mark {
                    area: 0,
                    column: 1 + i,
                    kind,
                });
            }
        }
        let start = 1 + self.n;
        for i in 0..self.letters {
            if on & (1 << face.codes[start + i]) != 0 {
                out.push(Mark {
                    area: 0,
                    column: start + i,
                    kind,
                });
            }
        }
        out
    }

    fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
        let (_, twice) = self.your_letters(face);
        if twice {
            ev.ambiguities.push(AMB_LETTER_REPEAT);
        }
        let g = self.grids.get(face.codes[0] as usize);
        if g.is_none_or(|g| g.words[..] != *self.face_words(face)) {
            ev.ambiguities.push(AMB_NOT_THE_GRID);
        }
        let (complete, short) = self.complete_and_short(face);
        let k = complete.count_ones() as usize;
        match self.prizes[k] {
            Some(amount) => ev.wins.push(AreaWin { area: 0, amount }),
            None if k > self.lowest => ev.ambiguities.push(AMB_UNPAID_ABOVE),
            None => {
                if self.lowest >= 2 && k + 1 == self.lowest && short != 0 {
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
    Ok(Box::new(Crossword::new(style::parse(table)?, ctx)?))
}

/// The crossword style's entry in the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "crossword",
    term: "crossword (word list, cashword)",
    about: "A grid of words across and down (or a printed list of words) and your letters \
            under the scratch; a word is complete when every letter of it is among your \
            letters; the legend pays by the number of complete words (prizes = { \"3\" = 2, \
            \"10\" = 10000 }); any other count loses.",
    naive: "A player marks each of his letters everywhere in the grid, counts the words whose \
            every square is marked, and reads a legend count as \"that many or more\": no face \
            shows a letter twice among his, an unpaid count above a paid one, or words other \
            than those of its grid.",
    columns: "{id}_grid (the grid's number in the book), {id}_w{i} (its words: across row by \
              row, then down column by column), {id}_l{i} (your letters)",
    params: &[
        Param {
            name: "letters",
            kind: "integer",
            default: None,
            about: "your letters under the scratch (distinct, A to Z)",
        },
        Param {
            name: "prizes",
            kind: "table count → amount",
            default: None,
            about: "the amount each number of complete words wins (the printed legend)",
        },
        Param {
            name: "grids",
            kind: "array of grids, each an array of rows",
            default: Some("none (give this or lists)"),
            about: "the book of crossword grids, each drawn as rows of letters with . for an \
                    empty square; each ticket draws one; every grid holds the same number of \
                    words (at most 12)",
        },
        Param {
            name: "lists",
            kind: "array of arrays of strings",
            default: Some("none (give this or grids)"),
            about: "a book of printed word lists instead of grids (the word-list game)",
        },
        Param {
            name: "near_miss",
            kind: "share",
            default: Some("0"),
            about: "share of losing faces one word short of the lowest paid count with a word \
                    one letter short; exact: every other losing face shows at most two words fewer",
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
style = "crossword"
id = "mots"
letters = 18
near_miss = 0.3
prizes = { "2" = 2, "3" = 20 }
grids = [
  ["CHAT.", "..I..", "..RAT", "..E.."],
  ["LOUP.", ".S...", ".E...", ".ROI."],
]
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        count_showing, drawn_twice, features_as_asked, judge_any_faces, round_trip,
        round_trip_showing, way, Ctx, Planning, Tested,
    };
    use rand_core::SeedableRng;

    /// The near miss's feature id on surface `m`.
    const NEAR_MISS: &str = "near_miss_m";

    /// Two grids of 3 words: CHAT, RAT, AIRE and LOUP, ROI, OSER.
    const GRIDS: &str = "letters = 18\nnear_miss = 0.4\n\
        prizes = { \"2\" = 2, \"3\" = 5, \"4\" = 50 }\n\
        grids = [\n\
          [\"CHAT.\", \"..I..\", \"..RAT\", \"..E..\"],\n\
          [\"LOUP.\", \".S...\", \".E...\", \".ROI.\"],\n\
        ]\n";
    const LISTS: &str = "letters = 16\nnear_miss = 0.5\n\
        prizes = { \"3\" = 2, \"4\" = 10, \"5\" = 100 }\n\
        lists = [[\"LION\", \"ZEBRE\", \"PANDA\", \"HIBOU\", \"CASTOR\"],\n\
                 [\"VELO\", \"TRAIN\", \"AVION\", \"BATEAU\", \"METRO\"]]\n";

    fn make(text: &str) -> Result<Arc<Crossword>, FieldError> {
        let ctx = Ctx::new("m").label("m", "Mots croisés");
        Crossword::new(style::parse(toml::from_str(text).unwrap())?, &ctx.get()).map(Arc::new)
    }

    /// A face of grid `g` (from 0) with `letters` as yours, in that order.
    fn face(m: &Crossword, g: usize, letters: &str) -> Face {
        let mut f = Face::default();
        f.codes[0] = g as u8;
        f.codes[1..1 + m.n].copy_from_slice(&m.grids[g].words);
        for (i, b) in letters.bytes().enumerate() {
            f.codes[1 + m.n + i] = b - b'A';
        }
        f
    }

    #[test]
    fn a_grid_s_words_are_its_runs_across_then_down() {
        let rows = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            grid_words(&rows(&["CHAT.", "..I..", "..RAT", "..E.."])).unwrap(),
            ["CHAT", "RAT", "AIRE"]
        );
        assert_eq!(
            grid_words(&rows(&["LOUP.", ".S...", ".E...", ".ROI."])).unwrap(),
            ["LOUP", "ROI", "OSER"]
        );
        // A letter in no word, a short row, a lowercase square.
        let e = grid_words(&rows(&["CHAT.", ".....", "...X."])).unwrap_err();
        assert!(e.contains("the letter X in row 3, square 4"), "{e}");
        assert!(grid_words(&rows(&["CHAT.", "..."])).is_err());
        assert!(grid_words(&rows(&["chat"])).is_err());
    }

    #[test]
    fn columns_panels_legend_and_description() {
        let m = make(GRIDS).err().unwrap();
        // The two grids hold 3 words each, the legend counts to 4.
        assert_eq!(m.field, "prizes.4");
        let m = make(&GRIDS.replace(", \"4\" = 50", "")).unwrap();
        let cols: Vec<&str> = m.layout().columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(&cols[..5], ["m_grid", "m_w1", "m_w2", "m_w3", "m_l1"]);
        assert_eq!(cols.len(), 1 + 3 + 18);
        assert_eq!(m.layout().columns[0].values, ["1", "2"]);
        assert_eq!(
            m.layout().columns[1].values,
            ["CHAT", "RAT", "AIRE", "LOUP", "ROI", "OSER"]
        );
        let p = &m.layout().panels;
        assert_eq!(p[0].rows, vec![vec![0], vec![1, 2, 3]]);
        assert_eq!(p[1].id, "m_letters");
        assert_eq!(p[1].rows.len(), 3);
        // Grid 1's words on its squares: CHAT across row 1, RAT across row 3, AIRE down
        // square 3; a book of lists has no lattice.
        let l = &m.layout().lattices;
        assert_eq!((l.len(), l[0].panel.as_str(), l[0].grid), (1, "m", 0));
        let g = &l[0].grids[0];
        assert_eq!((g.rows, g.cols), (4, 5));
        assert_eq!(
            g.words,
            [
                (1, vec![(0, 0), (0, 1), (0, 2), (0, 3)]),
                (2, vec![(2, 2), (2, 3), (2, 4)]),
                (3, vec![(0, 2), (1, 2), (2, 2), (3, 2)]),
            ]
        );
        assert_eq!(
            l[0].grids[1].words[2],
            (3, vec![(0, 1), (1, 1), (2, 1), (3, 1)])
        );
        assert!(make(LISTS).unwrap().layout().lattices.is_empty());
        let lines: Vec<String> = m.layout().printed[0]
            .lines
            .iter()
            .map(|l| crate::language::Language::En.line(l, "EUR"))
            .collect();
        assert_eq!(lines, ["2 words: €2 · 3 words: €5"]);
        assert!(m.layout().description[0].starts_with(
            "« Mots croisés » shows a crossword grid of 3 words across and down (one of 2 grids)"
        ));
    }

    #[test]
    fn hand_made_faces_are_judged_by_the_count_of_complete_words() {
        let m = make(LISTS).unwrap();
        // List 1: LION ZEBRE PANDA HIBOU CASTOR. Letters L I O N Z E B R P A D H X Y W Q:
        // LION, ZEBRE, PANDA complete; HIBOU lacks U, CASTOR lacks C S T.
        let f = face(&m, 0, "LIONZEBRPADHXYWQ");
        let ev = m.evaluate(&f);
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(200)
            }]
        );
        assert!(ev.ambiguities.is_empty());
        // Marks: the three words and the letters they use (all 12 but H).
        let marks = m.marks(&f, &ev);
        assert_eq!(marks.len(), 3 + 11);
        assert!(marks.iter().all(|k| k.kind == MarkKind::Win));
        // Two complete (LION, ZEBRE) and HIBOU one letter short: a near miss.
        let ev = m.evaluate(&face(&m, 0, "LIONZEBRHXYWQJKG"));
        assert!(ev.wins.is_empty() && ev.ambiguities.is_empty(), "{ev:?}");
        assert!(m.shows(&ev, NEAR_MISS));
        // Two complete, nothing one letter short: no near miss.
        let ev = m.evaluate(&face(&m, 0, "LIONZEBRXYWQJKGF"));
        assert!(ev.wins.is_empty() && !m.shows(&ev, NEAR_MISS), "{ev:?}");
        // A letter twice.
        let ev = m.evaluate(&face(&m, 0, "LIONZEBRPADHXYWL"));
        assert_eq!(ev.ambiguities, vec![AMB_LETTER_REPEAT]);
        // The words of list 1 under the number of list 2.
        let mut f = face(&m, 0, "LIONZEBRPADHXYWQ");
        f.codes[0] = 1;
        assert_eq!(m.evaluate(&f).ambiguities, vec![AMB_NOT_THE_GRID]);
        // Five complete on a legend without 5: more than a paid count, unpaid.
        let gap = make(&LISTS.replace(", \"5\" = 100", "")).unwrap();
        let f = face(&m, 0, "LIONZEBRPADHUCST");
        assert_eq!(
            m.evaluate(&f).wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(10_000)
            }]
        );
        assert_eq!(gap.evaluate(&f).ambiguities, vec![AMB_UNPAID_ABOVE]);
    }

    #[test]
    fn every_way_round_trips_and_shows_its_near_miss_when_asked() {
        for (text, wins) in [
            (GRIDS.replace(", \"4\" = 50", ""), vec![2, 5]),
            (LISTS.to_string(), vec![2, 10, 100]),
        ] {
            let m = make(&text).unwrap();
            let mut ways = vec![way(&[])];
            ways.extend(wins.iter().map(|&a| way(&[a])));
            for w in &ways {
                m.check_way(w).unwrap();
                round_trip(&m, w, 0..300);
                features_as_asked(&m, w, 0..20);
            }
            for (seed, f, ev) in round_trip_showing(&m, &way(&[]), NEAR_MISS, 0..100) {
                assert!(!m.marks(&f, &ev).is_empty(), "seed {seed}");
            }
        }
    }

    #[test]
    fn the_grid_is_drawn_first_whatever_the_way() {
        // Same stream, any way: the same grid. So the grid, which may be printed outside the
        // scratch, says nothing of the prize.
        let m = make(LISTS).unwrap();
        for seed in 0..200 {
            let grids: Vec<u8> = [way(&[]), way(&[2]), way(&[10]), way(&[100])]
                .iter()
                .map(|w| {
                    m.synthesize(w, &mut FaceRng::seed_from_u64(seed))
                        .unwrap()
                        .codes[0]
                })
                .collect();
            assert!(
                grids.iter().all(|&g| g == grids[0]),
                "seed {seed}: {grids:?}"
            );
        }
    }

    #[test]
    fn the_near_miss_rate_is_the_spec_s() {
        // 2 000 losing faces; every losing face not drawn as the near miss shows at most one
        // complete word, so the count is binomial(2000, r): 4 standard deviations hold it.
        for (rate, lo, hi) in [("0", 0, 0), ("0.2", 400 - 72, 400 + 72), ("0.5", 910, 1090)] {
            let m =
                make(&LISTS.replace("near_miss = 0.5", &format!("near_miss = {rate}"))).unwrap();
            let n = count_showing(&m, &way(&[]), NEAR_MISS, 2000, 9);
            assert!((lo..=hi).contains(&n), "{rate}: {n}");
        }
    }

    #[test]
    fn infeasible_books_and_ways_are_refused() {
        let e = |t: &str| make(t).err().unwrap();
        // Lists of different lengths.
        let t = LISTS.replace("\"METRO\"]", "\"METRO\", \"TAXI\"]");
        assert_eq!(e(&t).field, "lists[1]");
        // A word twice in a list.
        assert_eq!(e(&LISTS.replace("\"METRO\"", "\"VELO\"")).field, "lists[1]");
        assert_eq!(
            e(&LISTS.replace("\"METRO\"", "\"metro\"")).field,
            "lists[1]"
        );
        // Both or neither book.
        let both = format!("{LISTS}grids = [[\"AB\"]]\n");
        assert_eq!(e(&both).field, "grids");
        // A near miss with one word paid.
        let one = LISTS.replace("\"3\" = 2", "\"1\" = 2");
        assert_eq!(e(&one).field, "near_miss");
        // More words paying less.
        assert_eq!(
            e(&LISTS.replace("\"5\" = 100", "\"5\" = 5")).field,
            "prizes.5"
        );
        // 25 letters leave one out: no face of list 1 keeps its five words incomplete.
        let full = LISTS.replace("letters = 16", "letters = 25");
        assert_eq!(e(&full).field, "lists[0]");
        // 8 letters cannot complete five words: the top way is refused, naming the grid.
        let few = LISTS
            .replace("letters = 16", "letters = 8")
            .replace("near_miss = 0.5", "near_miss = 0");
        let few = make(&few).unwrap();
        let r = few.check_way(&way(&[100])).unwrap_err();
        assert!(matches!(r, Refusal::CannotWin { .. }), "{r}");
        assert!(
            r.to_string().contains("grid 1 cannot show exactly 5"),
            "{r}"
        );
        assert!(matches!(
            few.check_way(&way(&[2, 2])),
            Err(Refusal::TooManyWins { wins: 2, .. })
        ));
        assert!(matches!(
            few.check_way(&way(&[7])),
            Err(Refusal::CannotWin { .. })
        ));
    }

    #[test]
    fn same_seed_same_face_and_any_face_is_judged() {
        let m = make(LISTS).unwrap();
        let f = drawn_twice(&m, &way(&[10]), 42);
        assert_eq!(&f.codes[..18], &VECTOR[..]);
        for ev in judge_any_faces(&m, 2000) {
            assert!(ev.wins.len() <= 1);
        }
    }

    /// Face codes for seed 42, way 10 (value stability).
    const VECTOR: [u8; 18] = [
        1, 5, 6, 7, 8, 9, 21, 12, 13, 0, 14, 11, 19, 2, 24, 17, 20, 16,
    ];
}
