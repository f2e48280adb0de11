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
//! **Bonus word.** A surface may print, beside its grid, a **BONUS WORD** box
//! (`bonus_words`): one word, drawn for each ticket from the spec's list, uniformly, right
//! after the grid and before anything else, so that it too tells nothing of the prize. If
//! every letter of the bonus word is among your letters, the bonus word wins its prize: the
//! amount printed with it (`bonus_prize`), or the amount its own box under the scratch shows
//! (`bonus_amounts`); it is a play area of its own (`bonus_area`, by default `{id}_bonus`),
//! paid in addition to the grid's legend. An incomplete bonus word wins nothing; its box, if
//! it has one, still shows one of its amounts, drawn evenly. The bonus word is not one of
//! the grid's words: the legend counts the grid's words only.
//!
//! **Naive reading.** A player scratches the letters, marks each of them everywhere in the
//! grid, counts the words whose every square is marked, and reads a legend count as "that
//! many or more": no face shows a letter twice among yours, an unpaid count above the lowest
//! paid one, or words other than those of its grid. He marks his letters in the bonus word
//! too: a complete bonus word always pays, an incomplete one never, which is the rule
//! itself. The bonus word has no near miss of its own: an incomplete one lacks one letter or
//! more, as the letters fall.
//!
//! **Columns.** `{id}_grid` (the grid's number in the book, from 1), `{id}_w{i}` (its words
//! in the order above), `{id}_l{i}` (your letters). The legend is printed, not a face column.
//! Play area: `area`, by default the surface id; panels `{id}` (grid and words) and
//! `{id}_letters`. With a bonus word, its columns follow the letters: `{id}_bonus` (the
//! bonus word), then with `bonus_amounts` `{id}_bonus_amount` and `{id}_bonus_caption`; its
//! panel is `{id}_bonus`, printed with the bonus word's rule. For a book of grids the
//! layout also gives each grid's lattice (the square of every letter of every word), on
//! which proofs draw the words; a list's words are drawn as a row of cells.
//!
//! **Features.** `near_miss_<area>` (or the spec's `near_miss_feature`): a losing face one
//! word short of the lowest paid count with an incomplete word one letter short, on exactly
//! `near_miss` of losing faces; every other losing face shows at most two words fewer than
//! the lowest paid count. A face whose grid loses beside a winning bonus word is a losing
//! face of the grid here.
//!
//! **Synthesis.** At load, for every grid, every set of complete words that some letters can
//! show exactly (no other word complete) is found, with a set of excluded letters that proves
//! it; a count that some grid cannot show is refused. With a bonus word, the same is found
//! for every grid and bonus word together, once with the bonus word complete and once
//! incomplete, and a way that some grid and bonus word cannot show together is refused,
//! naming both. A face draws its grid (then its bonus word), then the number of complete
//! words (a count the way's amount pays; a losing count), then one of the grid's sets of that
//! size; the letters of those words are yours; every other word is kept incomplete (the bonus
//! word too, when it does not win) by excluding one of its letters (drawn word by word in a
//! drawn order, among the letters that keep the most words incomplete), the excluded letters
//! are completed at random to `26 − letters`, and your letters are the rest, in a drawn
//! order. When the drawn exclusions overrun, the set's proof is used: every draw is bounded.

use super::common::{pick_few, AmountBox, LosingNearMiss, MAX_SYMBOLS};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Lattice, LatticeGrid, Layout, Mark, MarkKind, Panel, Plan, Printed, Refusal, Style,
};
use crate::crypto::rng::{below, chance};
use crate::language::{Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
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
/// Most bonus words in a list.
pub const MAX_BONUS_WORDS: usize = 16;
/// Most pairs of a grid and a bonus word (every set of words of each is examined at load).
pub const MAX_BONUS_PAIRS: usize = 256;

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
    #[serde(default)]
    bonus_words: Option<Vec<String>>,
    #[serde(default)]
    bonus_prize: Option<Money>,
    #[serde(default)]
    bonus_amounts: Option<Vec<Money>>,
    #[serde(default)]
    bonus_area: Option<String>,
}

/// What a bonus word wins when complete.
#[derive(Clone, Debug)]
enum BonusPrize {
    /// One amount, printed with the bonus word (`bonus_prize`).
    Fixed(Money),
    /// The amount its box under the scratch shows (`bonus_amounts`).
    Box(AmountBox),
}

/// The bonus word of a word game: a play area of its own, won when every letter of the
/// ticket's bonus word is among your letters.
#[derive(Clone, Debug)]
struct Bonus {
    /// The spec's bonus words, in order (a face's code is the index).
    words: Vec<String>,
    /// The letters of each, as a mask.
    masks: Vec<u32>,
    prize: BonusPrize,
}

impl Bonus {
    /// True when a complete bonus word can win `amount`.
    fn pays(&self, amount: Money) -> bool {
        match &self.prize {
            BonusPrize::Fixed(m) => *m == amount,
            BonusPrize::Box(b) => b.code(amount).is_some(),
        }
    }

    /// The amounts a complete bonus word can win, ascending, in cents.
    fn amounts(&self) -> Vec<Money> {
        match &self.prize {
            BonusPrize::Fixed(m) => vec![*m],
            BonusPrize::Box(b) => b.amounts().to_vec(),
        }
    }
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

/// What a grid can show with the bonus word in one state (or without a bonus word).
#[derive(Clone, Debug)]
struct Showings {
    /// `by_count[k]`: every set of `k` complete words it can show exactly.
    by_count: Vec<Vec<Showing>>,
    /// The near misses it can show: one word short of the lowest paid count, with a word one
    /// letter short.
    near: Vec<Showing>,
}

/// One grid (or list) of the book.
#[derive(Clone, Debug)]
struct Grid {
    /// Its words, as codes of the word dictionary, in slot order.
    words: Vec<u8>,
    /// `lost[b]`: what it shows with bonus word `b` incomplete; one entry, for no bonus
    /// word, on a surface without one.
    lost: Vec<Showings>,
    /// `won[b]`: what it shows with bonus word `b` complete; empty without a bonus word.
    won: Vec<Showings>,
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
    /// The bonus word, if the surface prints one (play area 1).
    bonus: Option<Bonus>,
    /// The bonus word's printed name (`[labels]`), empty without one.
    bonus_label: String,
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

    fn new(mut raw: RawCrossword, ctx: &StyleCtx) -> Result<Crossword, FieldError> {
        let (book, field, crossword) =
            match (raw.grids.take(), raw.lists.take()) {
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
        let bonus = Self::bonus(&raw, book.len(), ctx)?;
        let masks: Vec<u32> = words.iter().map(|w| mask(w)).collect();
        let budget = 26 - letters as u32;
        // Without a bonus word, one state: no bonus word.
        let states: Vec<Option<u32>> = match &bonus {
            Some(b) => b.masks.iter().copied().map(Some).collect(),
            None => vec![None],
        };
        let grids: Vec<Grid> = slots
            .into_iter()
            .map(|s| Grid {
                lost: states
                    .iter()
                    .map(|&b| Self::showings(&s, &masks, b.map(|m| (m, false)), budget, lowest))
                    .collect(),
                won: states
                    .iter()
                    .flatten()
                    .map(|&m| Self::showings(&s, &masks, Some((m, true)), budget, lowest))
                    .collect(),
                words: s,
            })
            .collect();
        // Losing faces are always drawn: their counts must show on every grid, beside every
        // bonus word incomplete.
        for (g, grid) in grids.iter().enumerate() {
            let f = format!("{field}[{g}]");
            for (b, lost) in grid.lost.iter().enumerate() {
                let beside = match &bonus {
                    Some(x) => format!(
                        " and the bonus word \"{}\" (bonus_words[{b}]) incomplete",
                        x.words[b]
                    ),
                    None => String::new(),
                };
                for k in 0..lowest.saturating_sub(1).max(1) {
                    if lost.by_count[k].is_empty() {
                        return Err(FieldError::new(
                            &f,
                            format!(
                                "no {letters} letters leave exactly {k} of its words \
                                 complete{beside} (a losing face): use fewer letters or words \
                                 sharing fewer letters"
                            ),
                        ));
                    }
                }
                if near_miss > 0 && lost.near.is_empty() {
                    return Err(FieldError::new(
                        &f,
                        format!(
                            "no {letters} letters show its near miss ({} complete words and a \
                             word one letter short){beside}",
                            lowest - 1
                        ),
                    ));
                }
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
        let mut areas = vec![area.clone()];
        if let Some(b) = &bonus {
            let bonus_area = raw
                .bonus_area
                .unwrap_or_else(|| format!("{}_bonus", ctx.id));
            if bonus_area == area {
                return Err(FieldError::new(
                    "bonus_area",
                    format!("\"{bonus_area}\" is the grid's play area: the bonus word pays apart"),
                ));
            }
            areas.push(bonus_area);
            columns.push(Column {
                name: format!("{}_bonus", ctx.id),
                kind: ColumnKind::Symbol,
                values: b.words.clone(),
                inscriptions: Vec::new(),
            });
            if let BonusPrize::Box(amounts) = &b.prize {
                let at = columns.len();
                columns.push(amounts.column(format!("{}_bonus_amount", ctx.id)));
                columns.push(Column::caption(
                    format!("{}_bonus_caption", ctx.id),
                    at,
                    ctx.captions,
                ));
            }
        }
        let near_miss_name = match &raw.near_miss_feature {
            Some(id) => super::match_symbols::feature_id(id, "near_miss_feature")?,
            None => format!("near_miss_{area}"),
        };
        let label = ctx.label(&area).to_string();
        let bonus_label = areas
            .get(1)
            .map_or(String::new(), |a| ctx.label(a).to_string());
        let mut layout = Layout::new(INFO.name, areas, columns);
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
            bonus,
            bonus_label,
        }
        .with_layout())
    }

    /// The surface's bonus word from `raw` (`bonus_words`, with `bonus_prize` or
    /// `bonus_amounts`), beside a book of `grids` grids; `None` without `bonus_words`.
    /// Errors name the field: a bonus setting without `bonus_words`, both prizes or neither,
    /// a word that is not 2 to 20 letters A to Z or is listed twice, too many words or pairs
    /// of a grid and a bonus word, an amount of 0, above the surface's `max`, listed twice
    /// or without a caption.
    fn bonus(
        raw: &RawCrossword,
        grids: usize,
        ctx: &StyleCtx,
    ) -> Result<Option<Bonus>, FieldError> {
        let Some(words) = &raw.bonus_words else {
            for (given, f) in [
                (raw.bonus_prize.is_some(), "bonus_prize"),
                (raw.bonus_amounts.is_some(), "bonus_amounts"),
                (raw.bonus_area.is_some(), "bonus_area"),
            ] {
                if given {
                    return Err(FieldError::new(
                        f,
                        "a bonus word's setting without bonus_words (the bonus words a ticket \
                         draws from)",
                    ));
                }
            }
            return Ok(None);
        };
        if words.is_empty() || words.len() > MAX_BONUS_WORDS {
            return Err(FieldError::new(
                "bonus_words",
                format!("expected 1 to {MAX_BONUS_WORDS} words, got {}", words.len()),
            ));
        }
        for (i, w) in words.iter().enumerate() {
            if w.len() < 2 || w.len() > 20 || !w.bytes().all(|b| b.is_ascii_uppercase()) {
                return Err(FieldError::new(
                    format!("bonus_words[{i}]"),
                    format!("\"{w}\" is not a word: expected 2 to 20 letters A to Z"),
                ));
            }
            if words[..i].contains(w) {
                return Err(FieldError::new(
                    format!("bonus_words[{i}]"),
                    format!("\"{w}\" is listed twice"),
                ));
            }
        }
        if grids * words.len() > MAX_BONUS_PAIRS {
            return Err(FieldError::new(
                "bonus_words",
                format!(
                    "{} bonus words beside {grids} grids make {} pairs of a grid and a bonus \
                     word: at most {MAX_BONUS_PAIRS} (each is examined when the spec loads)",
                    words.len(),
                    grids * words.len()
                ),
            ));
        }
        let above = |m: Money| m.is_zero() || ctx.max.is_some_and(|x| m > x);
        let prize = match (raw.bonus_prize, &raw.bonus_amounts) {
            (Some(m), None) => {
                if above(m) {
                    return Err(FieldError::new(
                        "bonus_prize",
                        "expected an amount above 0 and not above the surface's max",
                    ));
                }
                BonusPrize::Fixed(m)
            }
            (None, Some(amounts)) => {
                if amounts.is_empty() || amounts.len() > MAX_SYMBOLS {
                    return Err(FieldError::new(
                        "bonus_amounts",
                        format!("expected 1 to {MAX_SYMBOLS} amounts, got {}", amounts.len()),
                    ));
                }
                if let Some(&m) = amounts.iter().find(|&&m| above(m)) {
                    return Err(FieldError::new(
                        "bonus_amounts",
                        format!("{m}: expected amounts above 0 and not above the surface's max"),
                    ));
                }
                if let Some(m) = amounts
                    .iter()
                    .enumerate()
                    .find_map(|(i, m)| amounts[..i].contains(m).then_some(m))
                {
                    return Err(FieldError::new(
                        "bonus_amounts",
                        format!("{m} is listed twice"),
                    ));
                }
                BonusPrize::Box(
                    AmountBox::new(amounts.clone(), ctx.captions)
                        .map_err(|e| FieldError::new("bonus_amounts", e))?,
                )
            }
            _ => {
                return Err(FieldError::new(
                    "bonus_prize",
                    "give either bonus_prize (one amount, printed with the bonus word) or \
                     bonus_amounts (the amounts its box under the scratch may show)",
                ))
            }
        };
        Ok(Some(Bonus {
            masks: words.iter().map(|w| mask(w)).collect(),
            words: words.clone(),
            prize,
        }))
    }

    /// Every set of complete words grid `slots` can show exactly with `26 − budget`
    /// letters, by size, and its near misses one word short of `lowest`; with `bonus`, the
    /// bonus word's letters (a mask) and whether it is complete beside them.
    fn showings(
        slots: &[u8],
        masks: &[u32],
        bonus: Option<(u32, bool)>,
        budget: u32,
        lowest: usize,
    ) -> Showings {
        let n = slots.len();
        let m: Vec<u32> = slots.iter().map(|&c| masks[c as usize]).collect();
        let mut by_count = vec![Vec::new(); n + 1];
        let mut near = Vec::new();
        let letters = 26 - budget;
        // A complete bonus word's letters are yours; an incomplete one is kept so.
        let (plus, keep) = match bonus {
            Some((w, true)) => (w, None),
            Some((w, false)) => (0, Some(w)),
            None => (0, None),
        };
        for complete in 0u32..1 << n {
            let yours = (0..n)
                .filter(|&i| complete & (1 << i) != 0)
                .fold(plus, |u, i| u | m[i]);
            if yours.count_ones() > letters {
                continue;
            }
            let others: Vec<(usize, u32)> = (0..n)
                .filter(|&i| complete & (1 << i) == 0)
                .map(|i| (i, m[i]))
                .collect();
            let k = complete.count_ones() as usize;
            let all: Vec<u32> = others.iter().map(|&(_, w)| w).chain(keep).collect();
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
                        .chain(keep)
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
        Showings { by_count, near }
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

    /// Where `way`'s wins go on the surface: the grid's amount (play area 0) and the bonus
    /// word's (play area 1), each when it wins. A win without an area goes to the grid when
    /// the legend pays its amount and the grid has no win yet, else to the bonus word.
    /// Errors: more wins than play areas, an area the surface does not have or named twice,
    /// an amount the legend (or the bonus word) does not pay.
    fn place(&self, way: &Way) -> Result<(Option<Money>, Option<Money>), Refusal> {
        let areas = 1 + usize::from(self.bonus.is_some());
        if way.wins.len() > areas {
            return Err(Refusal::TooManyWins {
                area: self.id.clone(),
                wins: way.wins.len(),
                most: areas,
                why: if areas == 1 {
                    "it wins by its count of complete words"
                } else {
                    "the grid wins by its count of complete words, the bonus word once"
                },
            });
        }
        let mut at: [Option<Money>; 2] = [None, None];
        for w in &way.wins {
            if let Some(a) = w.area {
                let slot = at
                    .get_mut(a as usize)
                    .filter(|_| (a as usize) < areas)
                    .ok_or(Refusal::NoSuchArea { area: a })?;
                if slot.is_some() {
                    return Err(Refusal::SameArea {
                        area: self.layout.areas[a as usize].clone(),
                    });
                }
                *slot = Some(w.amount);
            }
        }
        let grid_pays = |m: Money| !self.counts_for(m).is_empty();
        let bonus_pays = |m: Money| self.bonus.as_ref().is_some_and(|b| b.pays(m));
        let free: Vec<Money> = way
            .wins
            .iter()
            .filter(|w| w.area.is_none())
            .map(|w| w.amount)
            .collect();
        match free.as_slice() {
            [] => {}
            [m] if at[0].is_none() && (grid_pays(*m) || at[1].is_some() || !bonus_pays(*m)) => {
                at[0] = Some(*m)
            }
            [m] => at[1] = Some(*m),
            [a, b] => {
                let swap = !(grid_pays(*a) && bonus_pays(*b)) && grid_pays(*b) && bonus_pays(*a);
                at = if swap {
                    [Some(*b), Some(*a)]
                } else {
                    [Some(*a), Some(*b)]
                };
            }
            _ => unreachable!("at most two wins"),
        }
        if let Some(m) = at[0].filter(|&m| !grid_pays(m)) {
            return Err(Refusal::CannotWin {
                area: self.id.clone(),
                amount: m,
                can: match &self.bonus {
                    None => "the amount is no paid count's amount".into(),
                    Some(b) => format!(
                        "the amount is no paid count's amount, nor the bonus word's ({})",
                        money_list(&b.amounts())
                    ),
                },
            });
        }
        if let (Some(m), Some(b)) = (at[1], &self.bonus) {
            if !b.pays(m) {
                return Err(Refusal::CannotWin {
                    area: self.layout.areas[1].clone(),
                    amount: m,
                    can: format!("a complete bonus word wins {}", money_list(&b.amounts())),
                });
            }
        }
        Ok((at[0], at[1]))
    }

    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        let (on_grid, on_bonus) = self.place(way)?;
        let won = on_bonus.is_some();
        // The counts a face of the way may show: those its grid amount pays, or when the
        // grid loses beside a winning bonus word, the losing counts (beside an incomplete
        // one they were checked when the spec loaded).
        let counts = match on_grid {
            Some(m) => self.counts_for(m),
            None if won => (0..self.lowest.saturating_sub(1).max(1)).collect(),
            None => return Ok(()),
        };
        let amount = on_grid.or(on_bonus).unwrap_or(Money::ZERO);
        let serve = if self.bonus.is_some() {
            "every grid and bonus word must serve every way (neither tells anything of the prize)"
        } else {
            "every grid must serve every way (the grid tells nothing of the prize)"
        };
        let beside = |b: usize| match &self.bonus {
            Some(x) => format!(
                " with the bonus word \"{}\" (bonus_words[{b}]) {}",
                x.words[b],
                if won { "complete" } else { "incomplete" }
            ),
            None => String::new(),
        };
        let cannot = |can: String| Refusal::CannotWin {
            area: self.id.clone(),
            amount,
            can,
        };
        fn tables(g: &Grid, won: bool) -> &[Showings] {
            if won {
                &g.won
            } else {
                &g.lost
            }
        }
        for &k in &counts {
            for (g, grid) in self.grids.iter().enumerate() {
                if let Some(b) = tables(grid, won)
                    .iter()
                    .position(|t| t.by_count[k].is_empty())
                {
                    return Err(cannot(format!(
                        "grid {}{} cannot show exactly {k} complete words with {} letters, and \
                         {serve}",
                        g + 1,
                        beside(b),
                        self.letters
                    )));
                }
            }
        }
        if on_grid.is_none() && self.near_miss > 0 {
            for (g, grid) in self.grids.iter().enumerate() {
                if let Some(b) = tables(grid, won).iter().position(|t| t.near.is_empty()) {
                    return Err(cannot(format!(
                        "grid {}{} cannot show its near miss ({} complete words and a word one \
                         letter short) with {} letters, and {serve}",
                        g + 1,
                        beside(b),
                        self.lowest - 1,
                        self.letters
                    )));
                }
            }
        }
        Ok(())
    }

    /// `way` as the grid's play area sees it: without its wins when the grid loses.
    fn on_grid(&self, way: &Way) -> Way {
        let mut w = way.clone();
        if self.place(way).is_ok_and(|(g, _)| g.is_none()) {
            w.wins.clear();
        }
        w
    }

    fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), Refusal> {
        self.near()
            .can_show(&self.on_grid(way), id, &self.layout, &self.id)
    }

    fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        self.near().always_shows(&self.on_grid(way))
    }

    /// A face of `way`, drawn into `face`, whatever it held.
    fn draw(&self, way: &Way, show: Option<FeatureId>, rng: &mut FaceRng, face: &mut Face) {
        // The grid first, whatever the way: it may be printed outside the scratch. The bonus
        // word next, for the same reason.
        let g = below(rng, self.grids.len() as u32) as usize;
        let grid = &self.grids[g];
        let b = match &self.bonus {
            Some(x) => below(rng, x.words.len() as u32) as usize,
            None => 0,
        };
        let (on_grid, on_bonus) = self.place(way).expect("a way planned at load");
        let table = match on_bonus {
            Some(_) => &grid.won[b],
            None => &grid.lost[b],
        };
        let pick = |set: &[Showing], rng: &mut FaceRng| set[below(rng, set.len() as u32) as usize];
        let showing = match on_grid {
            Some(amount) => {
                let counts = self.counts_for(amount);
                let k = counts[below(rng, counts.len() as u32) as usize];
                pick(&table.by_count[k], rng)
            }
            None if self.lowest >= 2 && (show.is_some() || chance(rng, self.near_miss)) => {
                pick(&table.near, rng)
            }
            None => {
                let k = below(rng, self.lowest.saturating_sub(1).max(1) as u32) as usize;
                pick(&table.by_count[k], rng)
            }
        };
        // An incomplete bonus word is kept so, like the grid's incomplete words.
        let keep = match (&self.bonus, on_bonus) {
            (Some(x), None) => Some(x.masks[b]),
            _ => None,
        };
        let excluded = self.exclusions(grid, &showing, keep, rng);
        face.reset(self.layout.columns.len());
        face.codes[0] = g as u8;
        face.codes[1..1 + self.n].copy_from_slice(&grid.words);
        let yours: ArrayVec<u8, 26> = (0..26u8).filter(|&l| excluded & (1 << l) == 0).collect();
        let start = 1 + self.n;
        for (i, &p) in pick_few::<26>(rng, self.letters as u32, self.letters)
            .iter()
            .enumerate()
        {
            face.codes[start + i] = yours[p as usize];
        }
        if let Some(x) = &self.bonus {
            let c = self.bonus_column();
            face.codes[c] = b as u8;
            if let BonusPrize::Box(amounts) = &x.prize {
                // A losing box shows one of its amounts, drawn evenly.
                let code = match on_bonus {
                    Some(m) => amounts.code(m).expect("an amount of the box"),
                    None => below(rng, amounts.amounts().len() as u32) as u8,
                };
                amounts.show(face, c + 1, c + 2, code);
            }
        }
    }

    /// The face column of the bonus word (its box's amount and caption follow it).
    fn bonus_column(&self) -> usize {
        1 + self.n + self.letters
    }

    /// The excluded letters of a face showing `s` on `grid`: one letter of every other word
    /// and of `keep` (an incomplete bonus word's letters), drawn word by word in a drawn
    /// order among its letters not yours that keep the most words incomplete, else the
    /// proof; then letters drawn among the rest up to `26 − letters`.
    fn exclusions(&self, grid: &Grid, s: &Showing, keep: Option<u32>, rng: &mut FaceRng) -> u32 {
        let budget = self.budget();
        let others: ArrayVec<u32, { MAX_WORDS + 1 }> = (0..self.n)
            .filter(|&i| s.complete & (1 << i) == 0 && s.short.map(|(w, _)| w as usize) != Some(i))
            .map(|i| self.masks[grid.words[i] as usize])
            .chain(keep)
            .collect();
        let start = s.short.map_or(0, |(_, l)| 1u32 << l);
        // `holding[l]`: the words of `others` holding letter `l`, bit `i` for `others[i]`.
        let mut holding = [0u32; 26];
        for (i, &w) in others.iter().enumerate() {
            let mut letters = w & ALPHABET;
            while letters != 0 {
                holding[letters.trailing_zeros() as usize] |= 1 << i;
                letters &= letters - 1;
            }
        }
        let unheld = |x: u32| {
            (0..others.len())
                .filter(|&i| others[i] & x == 0)
                .fold(0u32, |m, i| m | 1 << i)
        };
        let mut excluded = s.proof;
        for _ in 0..TRIES {
            let mut x = start;
            // The words of `others` not yet holding an excluded letter (kept incomplete).
            let mut open = unheld(x);
            for &p in &pick_few::<{ MAX_WORDS + 1 }>(rng, others.len() as u32, others.len()) {
                if open & (1 << p) == 0 {
                    continue;
                }
                // The word's letters not yours, each with the open words it would keep
                // incomplete (its gain); one of those of the highest gain, drawn in letter
                // order.
                let mut letters = others[p as usize] & !s.yours & ALPHABET;
                let (mut best, mut top) = (0, 0u32);
                while letters != 0 {
                    let l = letters.trailing_zeros();
                    letters &= letters - 1;
                    let gain = (holding[l as usize] & open).count_ones();
                    if gain > best {
                        (best, top) = (gain, 1 << l);
                    } else if gain == best {
                        top |= 1 << l;
                    }
                }
                assert!(top != 0, "a free letter");
                let mut pick = top;
                for _ in 0..below(rng, top.count_ones()) {
                    pick &= pick - 1;
                }
                let l = pick.trailing_zeros();
                x |= 1 << l;
                open &= !holding[l as usize];
            }
            if x.count_ones() <= budget {
                excluded = x;
                break;
            }
        }
        let rest: ArrayVec<u32, 26> = (0..26)
            .map(|l| 1u32 << l)
            .filter(|&l| excluded & l == 0 && s.yours & l == 0)
            .collect();
        let more = (budget - excluded.count_ones()) as usize;
        for &p in &pick_few::<26>(rng, rest.len() as u32, more) {
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
        // The grid's number, its words and the bonus word are printed in the open (they
        // are drawn first, and tell nothing of the prize); the letters and the bonus box's
        // amount under the scratch layer.
        self.layout.open = (0..=self.n).collect();
        if self.bonus.is_some() {
            self.layout.open.push(self.bonus_column());
        }
        self.layout.description = self.describe();
        if let Some(BonusPrize::Box(amounts)) = self.bonus.as_ref().map(|b| &b.prize) {
            self.layout.shown_amounts = amounts.amounts().to_vec();
        }
        self
    }

    fn panels(&self) -> Vec<Panel> {
        let words: Vec<usize> = (1..=self.n).collect();
        let mut rows = vec![vec![0]];
        rows.extend(words.chunks(4).map(<[usize]>::to_vec));
        let letters: Vec<usize> = (1 + self.n..1 + self.n + self.letters).collect();
        let mut panels = vec![
            Panel {
                id: self.id.clone(),
                rows,
            },
            Panel {
                id: format!("{}_letters", self.id),
                rows: letters.chunks(6).map(<[usize]>::to_vec).collect(),
            },
        ];
        if let Some(b) = &self.bonus {
            // The bonus word, then its box's amount (its caption is drawn under it).
            let c = self.bonus_column();
            let mut row = vec![c];
            if matches!(b.prize, BonusPrize::Box(_)) {
                row.push(c + 1);
            }
            panels.push(Panel {
                id: format!("{}_bonus", self.id),
                rows: vec![row],
            });
        }
        panels
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
        let mut printed = vec![Printed {
            panel: self.id.clone(),
            lines: super::common::legend_lines(lines),
        }];
        if let Some(b) = &self.bonus {
            let amount = match b.prize {
                BonusPrize::Fixed(m) => Some(m.into()),
                BonusPrize::Box(_) => None,
            };
            printed.push(Printed {
                panel: format!("{}_bonus", self.id),
                lines: vec![PrintedLine::of(vec![Phrase::BonusWord { amount }])],
            });
        }
        printed
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
        let mut lines = vec![
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
        ];
        if let Some(b) = &self.bonus {
            let wins = match &b.prize {
                BonusPrize::Fixed(m) => format!("wins {m}, printed with it"),
                BonusPrize::Box(amounts) => format!(
                    "wins the amount its box under the scratch shows ({}; an incomplete bonus \
                     word's box shows one of them too, drawn evenly)",
                    money_list(amounts.amounts())
                ),
            };
            lines.push(format!(
                "« {} » shows a bonus word (one of {}: {}), drawn for each ticket after the grid \
                 whatever its prize; when every letter of it is among the letters it {wins}, in \
                 addition to the grid's legend; an incomplete bonus word wins nothing. The \
                 legend counts the grid's words only.",
                self.bonus_label,
                b.words.len(),
                b.words.join(", ")
            ));
        }
        lines
    }
}

/// Amounts as a list in words (`5, 10, 500`).
fn money_list(amounts: &[Money]) -> String {
    amounts
        .iter()
        .map(Money::to_string)
        .collect::<Vec<_>>()
        .join(", ")
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

    /// Refuses a bonus word no way wins, and an amount of its box no way wins: they would
    /// be printed for nothing.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        let Some(b) = &self.bonus else {
            return Ok(());
        };
        let won: Vec<Money> = plans
            .iter()
            .filter_map(|p| self.place(p.way()).ok().and_then(|(_, m)| m))
            .collect();
        let unused = |what: String| Refusal::BonusUnused {
            what,
            area: self.layout.areas[1].clone(),
        };
        if won.is_empty() {
            return Err(unused("the bonus word".into()));
        }
        if let BonusPrize::Box(amounts) = &b.prize {
            if let Some(m) = amounts.amounts().iter().find(|m| !won.contains(m)) {
                return Err(unused(format!(
                    "{m} in the bonus word's box (bonus_amounts)"
                )));
            }
        }
        Ok(())
    }

    fn features(&self) -> Vec<FeatureId> {
        self.near().features()
    }

    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let mut out = self.grid_marks(face, ev);
        if ev.wins.iter().any(|w| w.area == 1) {
            // A complete bonus word: the word, its box and its letters among yours.
            let c = self.bonus_column();
            let boxed = matches!(
                self.bonus.as_ref().map(|b| &b.prize),
                Some(BonusPrize::Box(_))
            );
            let on = self
                .bonus
                .as_ref()
                .and_then(|b| b.masks.get(face.codes[c] as usize))
                .copied()
                .unwrap_or(0);
            let start = 1 + self.n;
            let letters = (start..start + self.letters).filter(|&i| on & (1 << face.codes[i]) != 0);
            let cells = std::iter::once(c)
                .chain(boxed.then_some(c + 1))
                .chain(letters);
            out.extend(cells.map(|column| Mark {
                area: 1,
                column,
                kind: MarkKind::Win,
            }));
        }
        out
    }

    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        self.evaluate_grid(face, ev);
        if let Some(b) = &self.bonus {
            let c = self.bonus_column();
            let (yours, _) = self.your_letters(face);
            let complete = b
                .masks
                .get(face.codes[c] as usize)
                .is_some_and(|&m| m & !yours == 0);
            let amount = match &b.prize {
                BonusPrize::Fixed(m) => Some(*m),
                BonusPrize::Box(amounts) => {
                    amounts.amounts().get(face.codes[c + 1] as usize).copied()
                }
            };
            if let Some(amount) = amount.filter(|_| complete) {
                ev.wins.push(AreaWin { area: 1, amount });
            }
        }
    }
}

/// The grid's play area (area 0), judged and marked apart from the bonus word.
impl Crossword {
    /// The marks of the grid's play area: on a winning grid its complete words and their
    /// letters among yours; on a near miss the first word one letter short and its letters
    /// among yours, that word alone. Marking the complete words too, or every word one
    /// letter short, would let a reader count as many marked words as the legend pays for
    /// on a losing ticket.
    fn grid_marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let (complete, short) = self.complete_and_short(face);
        let (kind, words) = if ev.wins.iter().any(|w| w.area == 0) {
            (MarkKind::Win, complete)
        } else if ev.shows(self.near_miss_id) {
            // The lowest set bit: the first word one letter short.
            (MarkKind::NearMiss, short & short.wrapping_neg())
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

    /// The grid's judgement: its win by the count of complete words, the ambiguities of
    /// the face, and its near miss.
    fn evaluate_grid(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
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
            \"10\" = 10000 }); any other count loses. A bonus word printed beside the grid \
            (bonus_words) wins its own prize when every letter of it is among your letters, in \
            addition to the legend.",
    naive: "A player marks each of his letters everywhere in the grid, counts the words whose \
            every square is marked, and reads a legend count as \"that many or more\": no face \
            shows a letter twice among his, an unpaid count above a paid one, or words other \
            than those of its grid. He marks his letters in the bonus word too: a complete \
            bonus word always pays, an incomplete one never.",
    columns: "{id}_grid (the grid's number in the book), {id}_w{i} (its words: across row by \
              row, then down column by column), {id}_l{i} (your letters); with a bonus word, \
              {id}_bonus, and with bonus_amounts {id}_bonus_amount, {id}_bonus_caption",
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
        Param {
            name: "bonus_words",
            kind: "array of strings",
            default: Some("none (no bonus word)"),
            about: "the BONUS WORD box: each ticket draws one of these words (at most 16), \
                    which wins when every letter of it is among your letters, in addition to \
                    the grid's legend",
        },
        Param {
            name: "bonus_prize",
            kind: "amount",
            default: Some("none (give this or bonus_amounts with bonus_words)"),
            about: "what a complete bonus word wins, printed with it",
        },
        Param {
            name: "bonus_amounts",
            kind: "array of amounts",
            default: Some("none (give this or bonus_prize with bonus_words)"),
            about: "the amounts the bonus word's own box under the scratch may show; a complete \
                    bonus word wins the amount its box shows (each needs a caption)",
        },
        Param {
            name: "bonus_area",
            kind: "string",
            default: Some("\"{id}_bonus\""),
            about: "the bonus word's play area, as ways' `areas` name it",
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
bonus_words = ["JOKER", "TAXI"]
bonus_prize = 50   # or bonus_amounts = [5, 10, 20, 100], shown under the scratch
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        count_showing, drawn_twice, features_as_asked, judge_any_faces, round_trip,
        round_trip_showing, way, way_at, way_in, Ctx, Planning, Tested,
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

    /// GRIDS paying 2 and 3 words, with the bonus words JOKER and WAGON and `prize`
    /// (`bonus_amounts = [5, 20]` or `bonus_prize = 50`).
    fn with_bonus(prize: &str) -> Result<Arc<Crossword>, FieldError> {
        let text = format!(
            "{}bonus_words = [\"JOKER\", \"WAGON\"]\n{prize}\n",
            GRIDS.replace(", \"4\" = 50", "")
        );
        let ctx = Ctx::new("m")
            .label("m", "Mots croisés")
            .label("m_bonus", "Mot bonus")
            .captions(crate::styles::testkit::captions(&[5, 20]));
        Crossword::new(style::parse(toml::from_str(&text).unwrap())?, &ctx.get()).map(Arc::new)
    }

    const BOX: &str = "bonus_amounts = [5, 20]";
    const FIXED: &str = "bonus_prize = 50";

    /// A face of grid `g` with `letters` as yours, bonus word `b` and box code `amount`.
    fn bonus_face(m: &Crossword, g: usize, letters: &str, b: u8, amount: u8) -> Face {
        let mut f = face(m, g, letters);
        let c = m.bonus_column();
        f.codes[c] = b;
        if matches!(m.bonus.as_ref().unwrap().prize, BonusPrize::Box(_)) {
            f.codes[c + 1] = amount;
            f.codes[c + 2] = amount;
        }
        f
    }

    #[test]
    fn a_bonus_word_has_its_columns_panel_rule_and_play_area() {
        let m = with_bonus(BOX).unwrap();
        let l = m.layout();
        assert_eq!(l.areas, ["m", "m_bonus"]);
        let cols: Vec<&str> = l.columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(cols.len(), 1 + 3 + 18 + 3);
        assert_eq!(
            cols[21..],
            ["m_l18", "m_bonus", "m_bonus_amount", "m_bonus_caption"]
        );
        assert_eq!(l.columns[22].values, ["JOKER", "WAGON"]);
        assert_eq!(l.columns[23].values, ["5", "20"]);
        assert_eq!(l.columns[24].kind, ColumnKind::Caption { of: 23 });
        assert_eq!(l.shown_amounts, [Money(500), Money(2000)]);
        assert_eq!(
            l.panels[2],
            Panel {
                id: "m_bonus".into(),
                rows: vec![vec![22, 23]]
            }
        );
        let line = |m: &Crossword, lang: crate::language::Language| {
            let p = &m.layout().printed[1];
            assert_eq!(p.panel, "m_bonus");
            lang.line(&p.lines[0], "EUR")
        };
        use crate::language::Language::{En, Fr};
        assert_eq!(
            line(&m, En),
            "Bonus word: every letter of it among your letters wins the prize in its box"
        );
        assert_eq!(
            l.description[2],
            "« Mot bonus » shows a bonus word (one of 2: JOKER, WAGON), drawn for each ticket \
             after the grid whatever its prize; when every letter of it is among the letters it \
             wins the amount its box under the scratch shows (5, 20; an incomplete bonus word's \
             box shows one of them too, drawn evenly), in addition to the grid's legend; an \
             incomplete bonus word wins nothing. The legend counts the grid's words only."
        );
        // A fixed prize: the word alone under the scratch, the prize printed with it.
        let f = with_bonus(FIXED).unwrap();
        assert_eq!(f.layout().columns.len(), 1 + 3 + 18 + 1);
        assert_eq!(f.layout().panels[2].rows, vec![vec![22]]);
        assert!(f.layout().shown_amounts.is_empty());
        assert_eq!(
            line(&f, Fr),
            "Mot bonus : toutes ses lettres parmi les vôtres, gagnez 50 €"
        );
        assert_eq!(
            line(&f, En),
            "Bonus word: every letter of it among your letters wins €50"
        );
        // Without a bonus word, one play area and the columns end with the letters.
        let plain = make(&GRIDS.replace(", \"4\" = 50", "")).unwrap();
        assert_eq!(plain.layout().areas, ["m"]);
        assert_eq!(plain.layout().columns.len(), 1 + 3 + 18);
        assert_eq!(plain.layout().panels.len(), 2);
    }

    /// The library's example (`tirage styles crossword`) prints a bonus word beside its
    /// grids, as the style's parameters and game_specs/README.md describe it.
    #[test]
    fn the_librarys_example_shows_a_bonus_word() {
        let (id, t) = crate::styles::testkit::example_surface(&INFO);
        let ctx = Ctx::new(&id)
            .captions(crate::styles::testkit::captions(&[2, 20, 50]))
            .tiers(&[2, 20, 50]);
        let m = (INFO.build)(t, &ctx.get()).unwrap();
        let l = m.layout();
        assert_eq!(l.areas, ["mots", "mots_bonus"]);
        let last = l.columns.last().unwrap();
        assert_eq!(
            (last.name.as_str(), &last.values[..]),
            ("mots_bonus", &["JOKER".to_string(), "TAXI".to_string()][..])
        );
    }

    #[test]
    fn a_complete_bonus_word_pays_beside_the_grid_and_an_incomplete_one_never() {
        let m = with_bonus(BOX).unwrap();
        let win = |area, units| AreaWin {
            area,
            amount: Money::units(units),
        };
        // Grid 1 (CHAT RAT AIRE): all three complete, 5; JOKER complete: its box's 20.
        let all = "CHATRIEJOKBDFLMPQS";
        let ev = m.evaluate(&bonus_face(&m, 0, all, 0, 1));
        assert!(ev.ambiguities.is_empty(), "{ev:?}");
        assert_eq!(ev.wins.as_slice(), [win(0, 5), win(1, 20)]);
        // The same letters under WAGON (W, G, N not among them): the grid alone.
        let ev = m.evaluate(&bonus_face(&m, 0, all, 1, 1));
        assert_eq!(ev.wins.as_slice(), [win(0, 5)]);
        // No T: CHAT and RAT incomplete, AIRE alone loses; JOKER complete pays its box's 5.
        let f = bonus_face(&m, 0, "CHARIEJOKBDFLMPQSU", 0, 0);
        let ev = m.evaluate(&f);
        assert_eq!(ev.wins.as_slice(), [win(1, 5)]);
        // CHAT and RAT are one letter short beside one complete word: the grid's near miss.
        assert!(m.shows(&ev, NEAR_MISS));
        // Its marks: CHAT alone, the first word one letter short (column 1), and its
        // letters among yours C H A (columns 4 to 6); neither RAT nor the complete AIRE.
        let mut grid_marks: Vec<(usize, MarkKind)> = m
            .marks(&f, &ev)
            .iter()
            .filter(|k| k.area == 0)
            .map(|k| (k.column, k.kind))
            .collect();
        grid_marks.sort_unstable_by_key(|&(c, _)| c);
        let near = MarkKind::NearMiss;
        assert_eq!(grid_marks, [(1, near), (4, near), (5, near), (6, near)]);
        // The bonus word's marks: the word, its box and its letters J O K E R among yours.
        let mut bonus_marks: Vec<usize> = m
            .marks(&f, &ev)
            .iter()
            .filter(|k| k.area == 1)
            .inspect(|k| assert_eq!(k.kind, MarkKind::Win))
            .map(|k| k.column)
            .collect();
        bonus_marks.sort_unstable();
        // Letters from column 4: C H A R I E J O K …, so E J O K R are 9, 10, 11, 12, 7.
        assert_eq!(bonus_marks, [7, 9, 10, 11, 12, 22, 23]);
        // A fixed prize pays 50 whatever else the face shows.
        let f = with_bonus(FIXED).unwrap();
        let ev = f.evaluate(&bonus_face(&f, 1, "JOKERLUPSIBCDFGHMN", 0, 0));
        // Grid 2 (LOUP ROI OSER): LOUP, ROI and OSER complete, 5; JOKER, 50.
        assert_eq!(ev.wins.as_slice(), [win(0, 5), win(1, 50)]);
        let ev = f.evaluate(&bonus_face(&f, 1, "JOKERLUPSIBCDFGHMN", 1, 0));
        assert_eq!(ev.wins.as_slice(), [win(0, 5)]);
    }

    #[test]
    fn every_way_with_a_bonus_word_round_trips() {
        for prize in [BOX, FIXED] {
            let m = with_bonus(prize).unwrap();
            let bonus = if prize == BOX { [5, 20] } else { [50, 50] };
            let ways = [
                way(&[]),
                way(&[2]),
                way_at(0, &[5]),
                way_at(1, &[bonus[0]]),
                way_at(1, &[bonus[1]]),
                way_in(&[(Some(0), 2), (Some(1), bonus[1])]),
                way(&[5, bonus[0]]),
            ];
            for w in &ways {
                m.check_way(w).unwrap_or_else(|e| panic!("{}: {e}", w.id));
                round_trip(&m, w, 0..200);
                features_as_asked(&m, w, 0..20);
            }
        }
    }

    #[test]
    fn the_grid_and_the_bonus_word_are_drawn_first_whatever_the_way() {
        let m = with_bonus(BOX).unwrap();
        let c = m.bonus_column();
        let mut seen = BTreeMap::new();
        for seed in 0..200 {
            let drawn: Vec<(u8, u8)> = [way(&[]), way(&[2]), way_at(1, &[20]), way(&[5, 5])]
                .iter()
                .map(|w| {
                    let f = m.synthesize(w, &mut FaceRng::seed_from_u64(seed)).unwrap();
                    (f.codes[0], f.codes[c])
                })
                .collect();
            assert!(
                drawn.iter().all(|&d| d == drawn[0]),
                "seed {seed}: {drawn:?}"
            );
            *seen.entry(drawn[0]).or_insert(0) += 1;
        }
        // Both grids with both bonus words.
        assert_eq!(seen.len(), 4, "{seen:?}");
    }

    #[test]
    fn bonus_settings_and_ways_it_cannot_serve_are_refused() {
        let e = |prize: &str| with_bonus(prize).err().unwrap();
        let x = e("bonus_prize = 50\nbonus_amounts = [5]");
        assert_eq!(x.field, "bonus_prize");
        assert_eq!(
            x.message,
            "give either bonus_prize (one amount, printed with the bonus word) or bonus_amounts \
             (the amounts its box under the scratch may show)"
        );
        assert_eq!(e("").field, "bonus_prize");
        let x = e("bonus_amounts = [5, 7]");
        assert_eq!(x.field, "bonus_amounts");
        assert!(x
            .message
            .starts_with("amount 7 can be shown on a face but has no caption"));
        let x = e("bonus_amounts = [5, 5]");
        assert_eq!(
            (x.field.as_str(), x.message.as_str()),
            ("bonus_amounts", "5 is listed twice")
        );
        let x = e("bonus_prize = 50\nbonus_area = \"m\"");
        assert_eq!(x.field, "bonus_area");
        assert_eq!(
            x.message,
            "\"m\" is the grid's play area: the bonus word pays apart"
        );
        let plain = GRIDS.replace(", \"4\" = 50", "");
        let x = make(&format!("{plain}bonus_prize = 50\n")).err().unwrap();
        assert_eq!(x.field, "bonus_prize");
        assert_eq!(
            x.message,
            "a bonus word's setting without bonus_words (the bonus words a ticket draws from)"
        );
        for (words, field, message) in [
            ("[]", "bonus_words", "expected 1 to 16 words, got 0"),
            (
                "[\"JOKER\", \"joker\"]",
                "bonus_words[1]",
                "\"joker\" is not a word: expected 2 to 20 letters A to Z",
            ),
            (
                "[\"JOKER\", \"JOKER\"]",
                "bonus_words[1]",
                "\"JOKER\" is listed twice",
            ),
        ] {
            let x = make(&format!("{plain}bonus_words = {words}\nbonus_prize = 50\n"))
                .err()
                .unwrap();
            assert_eq!((x.field.as_str(), x.message.as_str()), (field, message));
        }
        // TRAHIE complete makes RAT and AIRE of grid 1 complete: two words, which the
        // legend pays, so grid 1 cannot show a bonus word winning alone beside TRAHIE.
        let m = make(&format!(
            "{plain}bonus_words = [\"JOKER\", \"TRAHIE\"]\nbonus_prize = 50\n"
        ))
        .unwrap();
        m.check_way(&way_at(1, &[50])).unwrap_err();
        assert_eq!(
            m.check_way(&way_at(1, &[50])).unwrap_err().to_string(),
            "« m » cannot win 50: grid 1 with the bonus word \"TRAHIE\" (bonus_words[1]) \
             complete cannot show exactly 0 complete words with 18 letters, and every grid and \
             bonus word must serve every way (neither tells anything of the prize)"
        );
        // Beside a grid win of 2 words it can: RAT and AIRE.
        m.check_way(&way_in(&[(Some(0), 2), (Some(1), 50)]))
            .unwrap();
        // Amounts the bonus word does not pay, areas it does not have, three wins.
        assert_eq!(
            m.check_way(&way_at(1, &[20])).unwrap_err().to_string(),
            "« m_bonus » cannot win 20: a complete bonus word wins 50"
        );
        assert_eq!(
            m.check_way(&way(&[7])).unwrap_err().to_string(),
            "« m » cannot win 7: the amount is no paid count's amount, nor the bonus word's (50)"
        );
        assert_eq!(
            m.check_way(&way_at(2, &[50])).unwrap_err(),
            Refusal::NoSuchArea { area: 2 }
        );
        assert_eq!(
            m.check_way(&way_in(&[(Some(1), 50), (Some(1), 50)]))
                .unwrap_err(),
            Refusal::SameArea {
                area: "m_bonus".into()
            }
        );
        assert_eq!(
            m.check_way(&way(&[2, 50, 50])).unwrap_err().to_string(),
            "3 wins, but « m » shows at most 2 at once (the grid wins by its count of complete \
             words, the bonus word once)"
        );
    }

    #[test]
    fn a_bonus_word_or_box_amount_no_way_wins_is_refused() {
        let m = with_bonus(BOX).unwrap();
        let plans = |ways: &[Way]| -> Vec<Plan> {
            ways.iter()
                .map(|w| Arc::clone(&m).plan(w).unwrap())
                .collect()
        };
        let check = |ways: &[Way]| {
            let p = plans(ways);
            m.check_ways(&p.iter().collect::<Vec<_>>())
        };
        assert_eq!(
            check(&[way(&[2])]).unwrap_err().to_string(),
            "the bonus word never pays: no way wins it in « m_bonus » (`areas`), so it would be \
             printed for nothing"
        );
        assert_eq!(
            check(&[way(&[2]), way_at(1, &[5])])
                .unwrap_err()
                .to_string(),
            "20 in the bonus word's box (bonus_amounts) never pays: no way wins it in « m_bonus \
             » (`areas`), so it would be printed for nothing"
        );
        assert_eq!(check(&[way_at(1, &[5]), way(&[2, 20])]), Ok(()));
        // Without a bonus word, nothing to check.
        let plain = make(&GRIDS.replace(", \"4\" = 50", "")).unwrap();
        assert_eq!(plain.check_ways(&[]), Ok(()));
    }

    #[test]
    fn any_face_with_a_bonus_word_is_judged() {
        let m = with_bonus(BOX).unwrap();
        let evs = judge_any_faces(&m, 2000);
        assert!(evs.iter().any(|ev| ev.wins.iter().any(|w| w.area == 1)));
        let f = drawn_twice(&m, &way(&[5, 20]), 42);
        assert_eq!(m.evaluate(&f).prize(), Money::units(25));
    }

    /// Face codes for seed 42, way 10 (value stability).
    const VECTOR: [u8; 18] = [1, 5, 6, 7, 8, 9, 21, 14, 17, 0, 23, 16, 9, 25, 12, 6, 8, 4];
}
