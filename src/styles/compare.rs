//! The *compare* play style (industry: "higher number", "beat the dealer", "add up yours
//! against theirs"; WAC 315-10-024).
//!
//! **Rule.** The surface has `games` rows. Each row shows your number(s) (`yours` of them)
//! and their number(s) (`theirs` of them), every number in `from..=to`, and an amount box.
//! A row wins the amount in its box when yours beats theirs: your number is strictly higher
//! than theirs, or with `sum = true` the sum of your numbers is strictly higher than the sum
//! of theirs ("add up"). Every row is a play area of its own, so a ticket wins as many rows
//! as beat theirs (up to `games`, more than 8 included); the lot is their sum.
//!
//! **Naive reading.** A player compares (or adds up and compares) the row's two sides; a tie
//! reads as a win to some players ("I did not lose") and as a loss to the letter. So no face
//! ever prints a tie: every row is strictly won or strictly lost, and a tie is flagged as an
//! ambiguity by the evaluator.
//!
//! **Columns.** Per row `r` (1-based): `{id}_g{r}_you{i}` (i = 1..=yours),
//! `{id}_g{r}_them{i}` (i = 1..=theirs), `{id}_g{r}_gain`, `{id}_g{r}_caption`. Play areas
//! and panels: `areas` when given, else `{id}_g{r}`.
//!
//! **Features.** `near_miss_<id>` (near miss, one feature for every row of the surface, so a
//! QA deck asks for it once per surface; the spec may name it `near_miss_feature`): a losing
//! row where yours is exactly one below theirs, on `near_miss` of the losing rows (the other
//! losing rows are at least two below). The amount box of a losing row shows a decoy (`decoy_weights`), marked as such.
//!
//! **Special symbols** (`specials`, the shared `special` module; the industry's "reveal a $
//! symbol, win the prize shown automatically; reveal a 5X, win 5 times the prize shown;
//! reveal WIN ALL, win all 10 prizes"). With one number per side, a row may show, in place of your number, a
//! special symbol the spec lists: an **auto-win** symbol wins the amount in the row's box,
//! whatever their number; a **multiplier** (`5X`, `times = 5`) wins that many times it; a
//! **win-all** symbol wins every amount in the surface's boxes (its own row's included),
//! added up, once. Each special wins in a play area of its own after the rows (default
//! `{id}_{symbol}` in lower case), which ways name in `areas`. Naive reading: a player who
//! sees a special symbol takes its prize; beside a win-all symbol a row where yours beats
//! theirs would add nothing (counted once), so no face shows one ([`AMB_WIN_ALL_BESIDE`]):
//! the other rows of a win-all face lose by two or more, their boxes showing the amounts it
//! adds up. Special symbols show only on the rows of a way that wins by them, once each
//! ([`AMB_SPECIAL_TWICE`]), never on a losing row (a near miss or a decoy never shows one).
//! Refused at load: specials with several numbers per side, a multiplier whose every
//! multiplied box amount is above the largest lot ("can never multiply"), a second win-all,
//! a special no way wins by.

use super::common::{self, AmountBox};
use super::special::{self, RawSpecial, SpecialKind, Specials, Sums};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Layout, Mark, MarkKind, Panel, Plan, Refusal, Style, MAX_COLUMNS, MAX_WINS,
};
use crate::crypto::rng::{below, chance, shuffle, weighted};
use crate::language::{Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Ambiguity: a row where yours equals theirs (a tie reads as a win to some players).
pub const AMB_TIE: &str = "a compare row where yours equals theirs";
/// Ambiguity: a win-all symbol beside another win (the win-all symbol already wins every
/// box of the surface: counted once, and never printed).
pub const AMB_WIN_ALL_BESIDE: &str = "a win-all symbol beside another win (compare)";
/// Ambiguity: one special symbol on two rows (each special shows on one row at most).
pub const AMB_SPECIAL_TWICE: &str = "a special symbol on two rows (compare)";

/// Most numbers on each side of a row (`yours`, `theirs`).
const MAX_SIDE: usize = 8;

fn one() -> u32 {
    1
}

/// A `compare` surface's table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCompare {
    games: u32,
    #[serde(default = "one")]
    yours: u32,
    #[serde(default = "one")]
    theirs: u32,
    from: u32,
    to: u32,
    #[serde(default)]
    width: Option<usize>,
    #[serde(default)]
    sum: bool,
    box_amounts: Vec<Money>,
    decoy_weights: BTreeMap<String, u32>,
    #[serde(default)]
    near_miss: f64,
    #[serde(default)]
    areas: Option<Vec<String>>,
    #[serde(default)]
    near_miss_feature: Option<String>,
    #[serde(default)]
    specials: Vec<RawSpecial>,
}

/// The compare style, built from a validated surface table.
pub struct Compare {
    id: String,
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    labels: Vec<String>,
    games: usize,
    yours: usize,
    theirs: usize,
    from: i64,
    to: i64,
    gain: AmountBox,
    decoy_weights: Vec<u32>,
    near_miss: u32,
    /// The near miss, one for every row of the surface (`near_miss_<id>` or the spec's
    /// `near_miss_feature`), in the layout's feature table.
    near_miss_id: FeatureId,
    /// The special symbols, in the spec's order; special `j` wins in play area
    /// `games + j` and shows in place of your number.
    specials: Specials,
}

/// What one row of a face must show.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Want {
    /// Yours beats theirs; the box shows the amount of this code.
    Win(u8),
    /// Yours loses by at least two.
    Lose,
    /// Yours is exactly one below theirs.
    Near,
    /// Special symbol `j` in place of your number; the box shows the amount of this code.
    Special(usize, u8),
    /// Beside a win-all symbol: yours loses by at least two, and the box shows the amount
    /// of this code (one of those the win-all adds up).
    Beside(u8),
}

/// A way's wins by special symbols, sorted once when the spec loads.
#[derive(Debug, Clone, Default)]
struct Split {
    /// Wins by an auto-win or multiplier symbol: (special index, code of the box amount).
    special: ArrayVec<(usize, u8), MAX_WINS>,
    /// The win by the win-all symbol: its index and the box amounts that add up to it.
    all: Option<(usize, Sums)>,
}

impl Compare {
    fn new(raw: RawCompare, ctx: &StyleCtx) -> Result<Compare, FieldError> {
        if raw.games == 0 || raw.games as usize > MAX_WINS {
            return Err(FieldError::new(
                "games",
                format!("expected 1 to {MAX_WINS} rows, got {}", raw.games),
            ));
        }
        let side = |n: u32| n == 0 || n as usize > MAX_SIDE;
        if side(raw.yours) || side(raw.theirs) {
            return Err(FieldError::new(
                if side(raw.yours) { "yours" } else { "theirs" },
                format!("expected 1 to {MAX_SIDE} numbers per side"),
            ));
        }
        if !raw.sum && (raw.yours != 1 || raw.theirs != 1) {
            return Err(FieldError::new(
                "sum",
                "several numbers per side are compared by their sums: set sum = true, or \
                 yours = theirs = 1",
            ));
        }
        if raw.to < raw.from || raw.to - raw.from + 1 < 3 || raw.to - raw.from + 1 > 256 {
            return Err(FieldError::new(
                "to",
                format!(
                    "expected a range of 3 to 256 numbers, got {}..={}",
                    raw.from, raw.to
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
        let games = raw.games as usize;
        let (yours, theirs) = (raw.yours as usize, raw.theirs as usize);
        let (from, to) = (i64::from(raw.from), i64::from(raw.to));
        // Yours must be able both to beat theirs and to lose by two.
        let dmax = yours as i64 * to - theirs as i64 * from;
        let dmin = yours as i64 * from - theirs as i64 * to;
        if dmax < 1 || dmin > -2 {
            return Err(FieldError::new(
                "yours",
                "with these counts and range yours cannot both win and lose",
            ));
        }
        let per_row = yours + theirs + 2;
        if games * per_row > MAX_COLUMNS {
            return Err(FieldError::new(
                "games",
                format!(
                    "{games} rows of {per_row} columns are {} face columns; at most {MAX_COLUMNS}",
                    games * per_row
                ),
            ));
        }
        let areas: Vec<String> = match raw.areas {
            Some(a) => {
                if a.len() != games {
                    return Err(FieldError::new(
                        "areas",
                        format!("expected one name per row ({games}), got {}", a.len()),
                    ));
                }
                for (i, n) in a.iter().enumerate() {
                    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                        return Err(FieldError::new(
                            "areas",
                            format!("\"{n}\" is not an id: expected ASCII letters, digits or _"),
                        ));
                    }
                    if a[..i].contains(n) {
                        return Err(FieldError::new("areas", format!("\"{n}\" is listed twice")));
                    }
                }
                a
            }
            None => (1..=games).map(|r| format!("{}_g{r}", ctx.id)).collect(),
        };
        if raw.box_amounts.is_empty() || raw.box_amounts.iter().any(|m| m.is_zero()) {
            return Err(FieldError::new(
                "box_amounts",
                "expected one or more amounts above 0",
            ));
        }
        if let Some(m) = (1..raw.box_amounts.len()).find_map(|i| {
            raw.box_amounts[..i]
                .contains(&raw.box_amounts[i])
                .then(|| raw.box_amounts[i])
        }) {
            return Err(FieldError::new(
                "box_amounts",
                format!("{m} is listed twice"),
            ));
        }
        if let Some(m) = raw
            .box_amounts
            .iter()
            .find(|&&m| ctx.max.is_some_and(|x| m > x))
        {
            return Err(FieldError::new(
                "box_amounts",
                format!("{m} is above the surface's max; a box never shows more"),
            ));
        }
        let gain = AmountBox::new(raw.box_amounts, ctx.captions)
            .map_err(|e| FieldError::new("box_amounts", e))?;
        let decoy_weights =
            common::decoy_weights(&raw.decoy_weights, gain.amounts(), "one of box_amounts")
                .map_err(|e| FieldError::new("decoy_weights", e))?;
        let near_miss =
            common::share(raw.near_miss).map_err(|e| FieldError::new("near_miss", e))?;
        let values = style::numbers(raw.from, raw.to, width);
        let special::Parsed {
            specials,
            areas,
            inscriptions,
        } = Specials::parse(
            &raw.specials,
            &values,
            "the numbers `from` to `to`",
            &areas,
            ctx.id,
            gain.amounts(),
            ctx,
        )?;
        if !specials.is_empty() && yours != 1 {
            return Err(FieldError::new(
                "specials",
                format!(
                    "a special symbol shows in place of your number, and a row shows {yours}: \
                     give yours = 1"
                ),
            ));
        }
        let mut your_values = values.clone();
        your_values.extend(specials.list().iter().map(|s| s.symbol.clone()));
        let mut columns = Vec::new();
        for r in 1..=games {
            let base = columns.len();
            for i in 1..=yours {
                columns.push(Column {
                    name: format!("{}_g{r}_you{i}", ctx.id),
                    kind: ColumnKind::Symbol,
                    values: your_values.clone(),
                    inscriptions: inscriptions.clone(),
                });
            }
            for i in 1..=theirs {
                columns.push(Column {
                    name: format!("{}_g{r}_them{i}", ctx.id),
                    kind: ColumnKind::Symbol,
                    values: values.clone(),
                    inscriptions: Vec::new(),
                });
            }
            columns.push(gain.column(format!("{}_g{r}_gain", ctx.id)));
            columns.push(super::Column::caption(
                format!("{}_g{r}_caption", ctx.id),
                base + yours + theirs,
                ctx.captions,
            ));
        }
        let labels = areas.iter().map(|a| ctx.label(a).to_string()).collect();
        let near_miss_name = match &raw.near_miss_feature {
            Some(id) => super::match_symbols::feature_id(id, "near_miss_feature")?,
            None => format!("near_miss_{}", ctx.id),
        };
        let mut layout = Layout::new(INFO.name, areas, columns);
        layout.specials = specials.named(&layout.areas);
        let near_miss_id = layout.features.add(
            near_miss_name,
            FeatureKind::NearMiss,
            "a losing compare row where yours is one below theirs",
            "une ligne perdante où le vôtre est à un point sous le leur",
        );
        Ok(Compare {
            id: ctx.id.to_string(),
            layout,
            labels,
            games,
            yours,
            theirs,
            from,
            to,
            gain,
            decoy_weights,
            near_miss,
            near_miss_id,
            specials,
        }
        .with_layout())
    }

    fn per_row(&self) -> usize {
        self.yours + self.theirs + 2
    }

    /// First column of row `r` (0-based).
    fn base(&self, r: usize) -> usize {
        r * self.per_row()
    }

    fn gain_col(&self, r: usize) -> usize {
        self.base(r) + self.yours + self.theirs
    }

    /// Yours minus theirs on row `r` (numbers or sums).
    fn diff(&self, face: &Face, r: usize) -> i64 {
        let b = self.base(r);
        let val = |c: usize| i64::from(face.codes[c]) + self.from;
        let you: i64 = (b..b + self.yours).map(val).sum();
        let them: i64 = (b + self.yours..b + self.yours + self.theirs)
            .map(val)
            .sum();
        you - them
    }

    /// The row each win sits on: fixed rows first, then the free wins and the wins by
    /// special symbols (`split`) drawn among the other rows.
    /// The way was planned: every win is on a row of its own, a box amount or a special's.
    fn place(&self, way: &Way, split: &Split, rng: &mut FaceRng) -> ArrayVec<Want, MAX_WINS> {
        let mut want: ArrayVec<Want, MAX_WINS> = (0..self.games).map(|_| Want::Lose).collect();
        let mut taken = [false; MAX_WINS];
        for w in &way.wins {
            match w.area.map(usize::from) {
                Some(a) if a < self.games => {
                    want[a] = Want::Win(self.gain.code(w.amount).expect("checked"));
                    taken[a] = true;
                }
                _ => {}
            }
        }
        let free_rows: ArrayVec<usize, MAX_WINS> = (0..self.games).filter(|&r| !taken[r]).collect();
        let mut free: ArrayVec<Want, MAX_WINS> = way
            .wins
            .iter()
            .filter(|w| w.area.is_none())
            .map(|w| Want::Win(self.gain.code(w.amount).expect("checked")))
            .collect();
        free.extend(
            split
                .special
                .iter()
                .map(|&(j, code)| Want::Special(j, code)),
        );
        if !free.is_empty() {
            let picks = common::pick_distinct::<MAX_WINS>(rng, free_rows.len() as u32, free.len());
            for (&w, &p) in free.iter().zip(&picks) {
                want[free_rows[p as usize]] = w;
            }
        }
        want
    }

    /// Writes row `r` showing `want`. A special symbol's row shows their numbers drawn
    /// evenly (no comparison is read there).
    fn fill_row(&self, face: &mut Face, r: usize, want: Want, rng: &mut FaceRng) {
        let n = (self.to - self.from + 1) as u32;
        let b = self.base(r);
        let cells = self.yours + self.theirs;
        let gain = self.gain_col(r);
        if let Want::Special(j, code) = want {
            face.codes[b] = self.specials.list()[j].code;
            for c in b + self.yours..b + cells {
                face.codes[c] = below(rng, n) as u8;
            }
            self.gain.show(face, gain, gain + 1, code);
            return;
        }
        for c in b..b + cells {
            face.codes[c] = below(rng, n) as u8;
        }
        let d0 = self.diff(face, r);
        let dmax = self.yours as i64 * self.to - self.theirs as i64 * self.from;
        let dmin = self.yours as i64 * self.from - self.theirs as i64 * self.to;
        // The drawn difference if it already fits, else its mirror image, within reach.
        let target = match want {
            Want::Win(_) if d0 >= 1 => d0,
            Want::Win(_) => (-d0).clamp(1, dmax),
            Want::Lose | Want::Beside(_) if d0 <= -2 => d0,
            Want::Lose | Want::Beside(_) => (-d0).clamp(dmin, -2),
            Want::Near => -1,
            Want::Special(..) => unreachable!("written above"),
        };
        let mut delta = target - d0;
        if delta != 0 {
            // Move the cells one by one, in a drawn order, as far as needed and allowed.
            let order = common::pick_distinct::<{ 2 * MAX_SIDE }>(rng, cells as u32, cells);
            for &o in &order {
                if delta == 0 {
                    break;
                }
                let c = b + o as usize;
                let v = i64::from(face.codes[c]);
                let mine = (o as usize) < self.yours;
                // Raising one of yours or lowering one of theirs raises the difference.
                let up = (delta > 0) == mine;
                let room = if up { n as i64 - 1 - v } else { v };
                let step = delta.abs().min(room);
                face.codes[c] = (if up { v + step } else { v - step }) as u8;
                delta -= delta.signum() * step;
            }
            debug_assert_eq!(delta, 0, "target within dmin..=dmax");
        }
        let code = match want {
            Want::Win(code) | Want::Beside(code) => code,
            _ => weighted(rng, &self.decoy_weights) as u8,
        };
        self.gain.show(face, gain, gain + 1, code);
    }
}

impl Compare {
    /// Feasible: at most one win per row; a win on a row (fixed or free) is a box amount,
    /// fixed rows distinct; a win by a special symbol is in its play area, once: an
    /// auto-win a box amount, a multiplier `times` a box amount, a win-all alone, the sum
    /// of `games` box amounts (the table to draw them from made here).
    fn split(&self, way: &Way) -> Result<Split, Refusal> {
        if way.wins.len() > self.games {
            return Err(Refusal::TooManyWins {
                area: self.id.clone(),
                wins: way.wins.len(),
                most: self.games,
                why: "one win per row",
            });
        }
        let mut out = Split::default();
        let mut seen = vec![false; self.games];
        for w in &way.wins {
            let a = w.area.map(usize::from);
            if let Some(a) = a.filter(|&a| a >= self.games) {
                self.split_special(way, w, a, &mut out)?;
                continue;
            }
            if self.gain.code(w.amount).is_none() {
                return Err(Refusal::CannotWin {
                    area: self.id.clone(),
                    amount: w.amount,
                    can: "the amount is not one of its box_amounts".into(),
                });
            }
            if let Some(a) = a {
                if seen[a] {
                    return Err(Refusal::SameArea {
                        area: self.layout.areas[a].clone(),
                    });
                }
                seen[a] = true;
            }
        }
        if let Some(&(j, _)) = out.all.as_ref() {
            if way.wins.len() > 1 {
                return Err(Refusal::TooManyWins {
                    area: self.layout.areas[usize::from(self.specials.area(j))].clone(),
                    wins: way.wins.len(),
                    most: 1,
                    why: "a win-all symbol wins every box of the surface, alone",
                });
            }
        }
        Ok(out)
    }

    /// Adds to `out` the win `w` of `way` in play area `a`, a special symbol's (or refuses
    /// it: no such area, the special twice, an amount it cannot win).
    fn split_special(
        &self,
        way: &Way,
        w: &crate::lots::Win,
        a: usize,
        out: &mut Split,
    ) -> Result<(), Refusal> {
        let j = a - self.games;
        let Some(sp) = self.specials.list().get(j) else {
            return Err(Refusal::NoSuchArea { area: a as u8 });
        };
        let name = || self.layout.areas[a].clone();
        if out.special.iter().any(|&(k, _)| k == j)
            || out.all.as_ref().is_some_and(|(k, _)| *k == j)
        {
            return Err(Refusal::TooManyWins {
                area: name(),
                wins: way.wins.iter().filter(|x| x.area == w.area).count(),
                most: 1,
                why: "a special symbol shows on one row at most",
            });
        }
        let shown = || {
            let v: Vec<String> = self.gain.amounts().iter().map(|m| m.to_string()).collect();
            v.join(", ")
        };
        let cannot = |can: String| Refusal::CannotWin {
            area: name(),
            amount: w.amount,
            can,
        };
        match sp.kind {
            kind @ (SpecialKind::AutoWin | SpecialKind::Multiplier(_)) => {
                let code = kind
                    .under(w.amount)
                    .and_then(|m| self.gain.code(m))
                    .ok_or_else(|| cannot(kind.cannot_win("a row's box", &shown())))?;
                out.special.push((j, code));
            }
            SpecialKind::WinAll => {
                let sums =
                    Sums::new(self.gain.amounts(), self.games, w.amount).ok_or_else(|| {
                        cannot(format!(
                            "no {} box amounts among {} add up to it",
                            self.games,
                            shown()
                        ))
                    })?;
                out.all = Some((j, sums));
            }
        }
        Ok(())
    }

    /// Rows of a face of the way that lose (none beside a win-all symbol).
    fn losing_rows(&self, way: &Way, split: &Split) -> usize {
        if split.all.is_some() {
            0
        } else {
            self.games - way.wins.len()
        }
    }

    fn can_show(&self, way: &Way, split: &Split, id: FeatureId) -> Result<(), Refusal> {
        let feature = self.layout.features.name(id).to_string();
        if id != self.near_miss_id {
            return Err(Refusal::NoFeature {
                style: INFO.name,
                feature,
            });
        }
        if self.near_miss == 0 {
            return Err(Refusal::ZeroRate {
                feature,
                area: self.id.clone(),
            });
        }
        if self.losing_rows(way, split) == 0 {
            return Err(Refusal::NeedsLosing {
                feature,
                needs: format!("a losing row of « {} »", self.id),
                way: way.id.clone(),
            });
        }
        Ok(())
    }

    fn always_shows(&self, way: &Way, split: &Split) -> Vec<FeatureId> {
        if self.near_miss == 1_000_000 && self.losing_rows(way, split) > 0 {
            vec![self.near_miss_id]
        } else {
            Vec::new()
        }
    }

    /// A face of `way`: each win on its row, the other rows losing, a near miss at the
    /// spec's rate (or on one of them when asked); a win-all face by [`Compare::draw_all`].
    /// Drawn into `face`, whatever it held.
    fn draw(
        &self,
        way: &Way,
        split: &Split,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) {
        if let Some((j, sums)) = &split.all {
            return self.draw_all(*j, sums, rng, face);
        }
        let mut want = self.place(way, split, rng);
        let losing: ArrayVec<usize, MAX_WINS> =
            (0..self.games).filter(|&r| want[r] == Want::Lose).collect();
        let forced = if show.is_some() {
            Some(losing[below(rng, losing.len() as u32) as usize])
        } else {
            None
        };
        for &r in &losing {
            if Some(r) == forced || chance(rng, self.near_miss) {
                want[r] = Want::Near;
            }
        }
        face.reset(self.layout.columns.len());
        for (r, &w) in want.iter().enumerate() {
            self.fill_row(face, r, w, rng);
        }
    }

    /// A face won by win-all symbol `j`: box amounts drawn to add up to the win
    /// (`sums`), shuffled over the rows; the symbol on a row drawn evenly, every other row
    /// losing by two or more (no near miss: nothing there loses). Drawn into `face`,
    /// whatever it held.
    fn draw_all(&self, j: usize, sums: &Sums, rng: &mut FaceRng, face: &mut Face) {
        let mut codes = sums.draw(self.gain.amounts(), rng);
        shuffle(rng, &mut codes);
        let at = below(rng, self.games as u32) as usize;
        face.reset(self.layout.columns.len());
        for (r, &code) in codes.iter().enumerate() {
            let want = if r == at {
                Want::Special(j, code)
            } else {
                Want::Beside(code)
            };
            self.fill_row(face, r, want, rng);
        }
    }
}

/// The presentation of the style, computed once by its constructor.
impl Compare {
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
        self.gain.amounts().to_vec()
    }

    fn panels(&self) -> Vec<Panel> {
        (0..self.games)
            .map(|r| {
                let b = self.base(r);
                Panel {
                    id: self.layout.areas[r].clone(),
                    rows: vec![
                        (b..b + self.yours).collect(),
                        (b + self.yours..b + self.yours + self.theirs).collect(),
                        vec![self.gain_col(r)],
                    ],
                }
            })
            .collect()
    }

    /// What the ticket prints once, with the first row: the rule, which also says which
    /// side is yours, then what each special symbol does (`$ = gain immédiat`, `5X = gain
    /// ×5`), so that the proof says every way a row can win. The other rows print nothing
    /// (a ticket states its rule once), so they stay as narrow as their cells.
    fn printed(&self) -> Vec<super::Printed> {
        let mut lines = vec![PrintedLine::of(vec![Phrase::Sides {
            sums: self.yours != 1 || self.theirs != 1,
        }])];
        lines.extend(super::common::legend_lines(self.specials.phrases(None)));
        vec![super::Printed {
            panel: self.layout.areas[0].clone(),
            lines,
        }]
    }

    fn describe(&self) -> Vec<String> {
        // Their numbers: the numbers alone (your column also lists the special symbols).
        let numbers = &self.layout.columns[self.yours].values;
        let range = format!(
            "{} to {}",
            numbers[0],
            numbers.last().expect("3 or more numbers")
        );
        let side = |n: usize, whose: &str| {
            if n == 1 {
                format!("{whose} number")
            } else {
                format!("the sum of {whose} {n} numbers")
            }
        };
        let mut v: Vec<String> = self.labels[..self.games]
            .iter()
            .map(|l| {
                format!(
                    "« {l} » wins the amount in its box when {} is strictly higher than {} \
                     (numbers {range}; a tie is never printed).",
                    side(self.yours, "your"),
                    side(self.theirs, "their"),
                )
            })
            .collect();
        v.push(format!(
            "Box amounts: {}; a losing row's box shows a decoy.",
            self.gain
                .amounts()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        v.push(format!(
            "Near miss {} (yours one below theirs; one feature for every row) on {:.2}% of \
             losing rows; every other losing row is at least two below.",
            self.layout.features.name(self.near_miss_id),
            f64::from(self.near_miss) / 1e4
        ));
        for (j, sp) in self.specials.list().iter().enumerate() {
            let area = &self.labels[usize::from(self.specials.area(j))];
            let symbol = &sp.symbol;
            v.push(match sp.kind {
                SpecialKind::AutoWin => format!(
                    "A row showing {symbol} in place of your number wins the amount in its box, \
                     whatever their number (play area « {area} »)."
                ),
                SpecialKind::Multiplier(t) => format!(
                    "A row showing {symbol} in place of your number wins {t} times the amount \
                     in its box, whatever their number (play area « {area} »)."
                ),
                SpecialKind::WinAll => format!(
                    "A row showing {symbol} in place of your number wins every amount in the {} \
                     boxes, added up, once (play area « {area} »); no face shows it beside \
                     another win: every other row then loses by two or more.",
                    self.games
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
                "Only a winning row shows {}, each on one row at most; no losing row (near \
                 miss or not) shows one.",
                names.join(", ")
            ));
        }
        v
    }
}

impl Style for Compare {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        let split = self.split(way)?;
        let always = self.always_shows(way, &split);
        let drawer = Arc::clone(&self);
        let (drawn, w) = (split.clone(), way.clone());
        Ok(Plan::new(
            &*self,
            way,
            |id| self.can_show(way, &split, id),
            always,
            move |show, rng, face| drawer.draw(&w, &drawn, show, rng, face),
        ))
    }

    /// Refuses a special symbol no way wins by: no face would ever show it.
    fn check_ways(&self, plans: &[&Plan]) -> Result<(), Refusal> {
        self.specials.check_ways(plans, &self.layout.areas)
    }

    fn features(&self) -> Vec<FeatureId> {
        if self.near_miss == 0 {
            return Vec::new();
        }
        vec![self.near_miss_id]
    }

    /// A winning row's numbers and box are wins; a losing row's box is a decoy, and its
    /// numbers a near miss when it is one. A special symbol's row: the symbol and the box,
    /// in its play area; beside a win-all symbol every box is a win.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let mut out = Vec::new();
        let special = |r: usize| self.specials.get(face.codes[self.base(r)]);
        let all = (0..self.games).find_map(|r| {
            special(r)
                .filter(|(_, sp)| sp.kind == SpecialKind::WinAll)
                .map(|(j, _)| (r, self.specials.area(j)))
        });
        if let Some((at, area)) = all {
            let win = |column: usize| Mark {
                area,
                column,
                kind: MarkKind::Win,
            };
            out.push(win(self.base(at)));
            out.extend((0..self.games).map(|r| win(self.gain_col(r))));
            return out;
        }
        for r in 0..self.games {
            let area = r as u8;
            let b = self.base(r);
            let cells = b..b + self.yours + self.theirs;
            let gain = self.gain_col(r);
            if let Some((j, _)) = special(r) {
                for column in [b, gain] {
                    out.push(Mark {
                        area: self.specials.area(j),
                        column,
                        kind: MarkKind::Win,
                    });
                }
                continue;
            }
            let mut mark = |column: usize, kind: MarkKind| out.push(Mark { area, column, kind });
            if ev.wins.iter().any(|w| w.area == area) {
                for c in cells {
                    mark(c, MarkKind::Win);
                }
                mark(gain, MarkKind::Win);
            } else {
                if ev
                    .losing_features
                    .iter()
                    .any(|f| f.area == area && f.id == self.near_miss_id)
                {
                    for c in cells {
                        mark(c, MarkKind::NearMiss);
                    }
                }
                mark(gain, MarkKind::Decoy);
            }
        }
        out
    }

    /// Each row where yours is strictly higher than theirs wins the amount in its box. A
    /// row showing an auto-win symbol in place of your number wins the amount in its box,
    /// and one showing a multiplier that many times it, each in the special's play area; a
    /// win-all symbol wins every box's amount, added up, once, in its play area, and nothing
    /// else on the surface wins. Ambiguous: a tie, a win-all symbol beside another win, a
    /// special symbol on two rows.
    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let mut all: Option<usize> = None;
        let mut seen: ArrayVec<usize, MAX_WINS> = ArrayVec::new();
        for r in 0..self.games {
            let area = r as u8;
            let box_code = face.codes[self.gain_col(r)];
            if let Some((j, sp)) = self.specials.get(face.codes[self.base(r)]) {
                if seen.contains(&j) {
                    ev.ambiguities.push(AMB_SPECIAL_TWICE);
                } else {
                    seen.push(j);
                }
                let amount = self.gain.amount(box_code);
                let area = self.specials.area(j);
                match sp.kind {
                    SpecialKind::AutoWin => {
                        let _ = ev.wins.try_push(AreaWin { area, amount });
                    }
                    SpecialKind::Multiplier(t) => {
                        let amount = Money(amount.cents() * u64::from(t));
                        let _ = ev.wins.try_push(AreaWin { area, amount });
                    }
                    SpecialKind::WinAll => all = Some(j),
                }
                continue;
            }
            let d = self.diff(face, r);
            if d > 0 {
                let amount = self.gain.amount(face.codes[self.gain_col(r)]);
                let _ = ev.wins.try_push(AreaWin { area, amount });
            } else if d == 0 {
                ev.ambiguities.push(AMB_TIE);
            } else if d == -1 {
                let _ = ev.losing_features.try_push(AreaFeature {
                    area,
                    id: self.near_miss_id,
                });
            }
        }
        if let Some(j) = all {
            if !ev.wins.is_empty() {
                ev.ambiguities.push(AMB_WIN_ALL_BESIDE);
            }
            let sum = (0..self.games)
                .map(|r| self.gain.amount(face.codes[self.gain_col(r)]).cents())
                .sum();
            ev.wins.clear();
            ev.wins.push(AreaWin {
                area: self.specials.area(j),
                amount: Money(sum),
            });
            ev.losing_features.clear();
        }
    }
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(Compare::new(style::parse(table)?, ctx)?))
}

/// The compare style's entry in the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "compare",
    term: "higher number / beat the dealer / add up yours against theirs",
    about: "Rows of your number(s) against their number(s), each row with an amount box; a \
            row wins its amount when yours is strictly higher than theirs (with sum = true, \
            the sum of yours against the sum of theirs). Each row is a play area. With one \
            number per side, a row may show a special symbol in place of your number \
            (`specials`): an auto-win wins the amount in its box, a multiplier that many \
            times it, a win-all every box's amount added up.",
    naive: "A player compares (or adds up) the two sides of each row; a tie reads as a win to \
            some players, so no face ever prints a tie. A player who sees a special symbol \
            takes its prize; beside a win-all, a winning row would add nothing (counted \
            once), so no face shows one there.",
    columns: "{id}_g{r}_you{i}, {id}_g{r}_them{i}, {id}_g{r}_gain, {id}_g{r}_caption per row r",
    params: &[
        Param {
            name: "games",
            kind: "integer",
            default: None,
            about: "number of rows (play areas), 1 to 32",
        },
        Param {
            name: "yours",
            kind: "integer",
            default: Some("1"),
            about: "your numbers per row",
        },
        Param {
            name: "theirs",
            kind: "integer",
            default: Some("1"),
            about: "their numbers per row",
        },
        Param {
            name: "from",
            kind: "integer",
            default: None,
            about: "lowest number printed",
        },
        Param {
            name: "to",
            kind: "integer",
            default: None,
            about: "highest number printed (3 to 256 numbers in all)",
        },
        Param {
            name: "width",
            kind: "integer",
            default: Some("digits of `to`"),
            about: "digits each number is written with (zero-padded)",
        },
        Param {
            name: "sum",
            kind: "boolean",
            default: Some("false"),
            about: "compare the sums of the numbers of each side (needed for several per side)",
        },
        Param {
            name: "box_amounts",
            kind: "array of amounts",
            default: None,
            about: "amounts a row's box may show; every win is one of them",
        },
        Param {
            name: "decoy_weights",
            kind: "table amount → weight",
            default: None,
            about: "weight of each amount in the box of a losing row",
        },
        Param {
            name: "near_miss",
            kind: "share",
            default: Some("0"),
            about: "share of losing rows where yours is one below theirs (exact: the other losing \
                    rows are at least two below)",
        },
        Param {
            name: "near_miss_feature",
            kind: "string",
            default: Some("\"near_miss_<id>\""),
            about: "the near miss's feature id, one for every row of the surface (lowercase \
                    letters, digits, _)",
        },
        Param {
            name: "areas",
            kind: "array of strings",
            default: Some("[\"{id}_g1\", …]"),
            about: "the play areas' ids, one per row",
        },
        Param {
            name: "specials",
            kind: "array of tables",
            default: Some("none"),
            about: "Special symbols a winning row may show in place of your number (yours = 1): \
                    `{ symbol = \"SAC\", kind = \"auto_win\" }` wins the amount in its box, \
                    `{ symbol = \"5X\", kind = \"multiplier\", times = 5 }` five times it, \
                    `{ symbol = \"TOUT\", kind = \"win_all\" }` every box's amount added up. \
                    Each wins in a play area of its own (`area`, default `{id}_{symbol}` in \
                    lower case) that ways name in `areas`; optional `caption`, printed under it.",
        },
    ],
    example: r#"[[surfaces]]
style = "compare"
id = "ph"
games = 10
from = 1
to = 20
box_amounts = [1, 2, 5, 10, 100]
near_miss = 0.3
[surfaces.decoy_weights]
"1" = 5
"2" = 4
"5" = 3
"10" = 2
"100" = 1
"#,
    build,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        captions, drawn_twice, judge_any_faces, round_trip, round_trip_showing, way_in, Ctx,
    };
    use crate::styles::testkit::{printed_text, Planning, Tested};
    use rand_core::SeedableRng;

    /// The near miss's feature id on surface `ph`, one for every row.
    const NEAR_MISS: &str = "near_miss_ph";

    /// The captions of every amount the tests' surfaces may show.
    const SHOWN: [u64; 5] = [1, 2, 5, 10, 100];

    fn make(extra: &str) -> Arc<Compare> {
        let games = if extra.contains("games") {
            ""
        } else {
            "games = 10\n"
        };
        let near = if extra.contains("near_miss =") {
            ""
        } else {
            "near_miss = 0.3\n"
        };
        let ctx = Ctx::new("ph")
            .captions(captions(&SHOWN))
            .label("ph_g1", "Jeu 1");
        let text = format!(
            "{games}from = 1\nto = 20\nbox_amounts = [1, 2, 5, 10, 100]\n{near}\
             {extra}\n[decoy_weights]\n\"1\" = 5\n\"2\" = 4\n\"100\" = 1\n"
        );
        Arc::new(
            Compare::new(
                style::parse(toml::from_str(&text).unwrap()).unwrap(),
                &ctx.get(),
            )
            .unwrap(),
        )
    }

    /// A face of single-number rows: (you, them, box amount) per row.
    fn face(m: &Compare, rows: &[(u8, u8, u64)]) -> Face {
        let mut f = Face::default();
        for (r, &(y, t, a)) in rows.iter().enumerate() {
            let b = m.base(r);
            f.codes[b] = y - 1;
            f.codes[b + 1] = t - 1;
            let code = m.gain.code(Money(a * 100)).unwrap();
            m.gain.show(&mut f, b + 2, b + 3, code);
        }
        f
    }

    #[test]
    fn columns_and_areas_are_named_from_the_surface() {
        let m = make("");
        assert_eq!(m.layout().columns.len(), 40);
        let names: Vec<&str> = m.layout().columns[..4]
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(
            names,
            ["ph_g1_you1", "ph_g1_them1", "ph_g1_gain", "ph_g1_caption"]
        );
        assert_eq!(m.layout().columns[39].name, "ph_g10_caption");
        assert_eq!(m.layout().areas[9], "ph_g10");
        assert_eq!(m.layout().columns[0].values[0], "01");
        assert!(m.describe()[0].starts_with("« Jeu 1 » wins the amount in its box when your number is strictly higher than their number (numbers 01 to 20"));
        let s = make("sum = true\nyours = 2\ntheirs = 2\ngames = 3");
        assert_eq!(s.layout().columns[3].name, "ph_g1_them2");
    }

    #[test]
    fn hand_made_faces_are_judged_by_the_rule() {
        let m = make("");
        let mut rows = vec![(3, 9, 1); 10];
        rows[0] = (12, 11, 5); // higher: wins 5
        rows[1] = (8, 9, 100); // one below: near miss, box a decoy
        rows[9] = (20, 1, 10); // wins 10
        let ev = m.evaluate(&face(&m, &rows));
        assert_eq!(
            ev.wins.as_slice(),
            [
                AreaWin {
                    area: 0,
                    amount: Money(500)
                },
                AreaWin {
                    area: 9,
                    amount: Money(1000)
                }
            ]
        );
        assert_eq!(ev.prize(), Money(1500));
        assert!(ev.ambiguities.is_empty());
        assert_eq!(
            ev.losing_features.as_slice(),
            [AreaFeature {
                area: 1,
                id: m.layout.features.find(NEAR_MISS).unwrap()
            }]
        );
        rows[2] = (7, 7, 2);
        let ev = m.evaluate(&face(&m, &rows));
        assert_eq!(ev.ambiguities, vec![AMB_TIE]);
        assert_eq!(ev.wins.len(), 2);
    }

    #[test]
    fn sums_are_compared_in_sum_mode() {
        let m = make("sum = true\nyours = 2\ntheirs = 1\ngames = 2");
        let mut f = Face::default();
        // Row 1: 3 + 4 = 7 against 6: wins. Row 2: 1 + 2 = 3 against 4: near miss.
        for (c, v) in [(0, 3), (1, 4), (2, 6), (5, 1), (6, 2), (7, 4)] {
            f.codes[c] = v - 1;
        }
        m.gain.show(&mut f, 3, 4, 2);
        m.gain.show(&mut f, 8, 9, 0);
        let ev = m.evaluate(&f);
        assert_eq!(
            ev.wins.as_slice(),
            [AreaWin {
                area: 0,
                amount: Money(500)
            }]
        );
        assert!(m.shows(&ev, NEAR_MISS));
    }

    #[test]
    fn every_way_round_trips_and_never_ties() {
        for extra in ["", "sum = true\nyours = 3\ntheirs = 2\ngames = 6"] {
            let m = make(extra);
            let g = m.games as u8;
            let mut ways = vec![
                way_in(&[]),
                way_in(&[(None, 5)]),
                way_in(&[(Some(2), 100), (None, 1)]),
                way_in(&[(None, 2), (None, 2), (None, 2)]),
            ];
            ways.push(way_in(&vec![(None, 1); g as usize]));
            for w in &ways {
                m.split(w).unwrap();
                round_trip(&m, w, 0..300);
            }
        }
    }

    #[test]
    fn ten_rows_win_ten_amounts() {
        let m = make("");
        let w = way_in(&[(None, 10); 10]);
        let f = m.synthesize(&w, &mut FaceRng::seed_from_u64(1)).unwrap();
        let ev = m.evaluate(&f);
        assert_eq!(ev.wins.len(), 10);
        assert_eq!(ev.prize(), Money(10_000));
        assert_eq!(
            m.can_show_why(&w, NEAR_MISS),
            Err(Refusal::NeedsLosing {
                feature: NEAR_MISS.into(),
                needs: "a losing row of « ph »".into(),
                way: w.id.clone()
            })
        );
        assert_eq!(
            m.synthesize_showing(&w, Some(NEAR_MISS), &mut FaceRng::seed_from_u64(1)),
            Err(m.can_show_why(&w, NEAR_MISS).unwrap_err().to_string())
        );
    }

    #[test]
    fn near_miss_shows_when_asked_and_at_its_rate() {
        let m = make("");
        let w = way_in(&[(None, 5)]);
        round_trip_showing(&m, &w, NEAR_MISS, 0..200);
        let lose = way_in(&[]);
        let mut rng = FaceRng::seed_from_u64(3);
        let mut near = 0;
        for _ in 0..1000 {
            let ev = m.evaluate(&m.synthesize(&lose, &mut rng).unwrap());
            near += ev.losing_features.len();
        }
        // 10 000 losing rows at 0.3.
        assert!((2800..3200).contains(&near), "{near}");
    }

    #[test]
    fn infeasible_ways_and_tables_are_refused() {
        let m = make("");
        assert_eq!(
            m.split(&way_in(&[(None, 1); 11])).err(),
            Some(Refusal::TooManyWins {
                area: "ph".into(),
                wins: 11,
                most: 10,
                why: "one win per row"
            })
        );
        let e = m.split(&way_in(&[(None, 3)])).unwrap_err();
        assert!(matches!(
            e,
            Refusal::CannotWin {
                amount: Money(300),
                ..
            }
        ));
        assert!(e.to_string().contains("box_amounts"), "{e}");
        assert_eq!(
            m.split(&way_in(&[(Some(1), 1), (Some(1), 2)])).err(),
            Some(Refusal::SameArea {
                area: "ph_g2".into()
            })
        );
        let ctx = Ctx::new("x").captions(captions(&SHOWN));
        let bad = |t: &str| {
            Compare::new(
                style::parse(toml::from_str(t).unwrap()).unwrap(),
                &ctx.get(),
            )
            .err()
            .unwrap()
            .field
        };
        let base = "box_amounts = [1]\ndecoy_weights = { \"1\" = 1 }\n";
        assert_eq!(bad(&format!("{base}games = 33\nfrom = 1\nto = 9")), "games");
        assert_eq!(bad(&format!("{base}games = 2\nfrom = 1\nto = 2")), "to");
        assert_eq!(
            bad(&format!("{base}games = 2\nfrom = 1\nto = 9\nyours = 2")),
            "sum"
        );
        assert_eq!(
            bad("games = 2\nfrom = 1\nto = 9\nbox_amounts = [3]\ndecoy_weights = { \"3\" = 1 }"),
            "box_amounts"
        );
    }

    #[test]
    fn same_seed_same_face() {
        let m = make("");
        let w = way_in(&[(None, 5), (Some(0), 1)]);
        let f = drawn_twice(&m, &w, 42);
        assert_eq!(&f.codes[..8], &VECTOR[..]);
    }

    /// Face codes of the first two rows for seed 42 (value stability).
    const VECTOR: [u8; 8] = [19, 3, 0, 0, 3, 16, 4, 4];

    #[test]
    fn any_face_of_the_columns_dictionaries_is_judged_without_panic() {
        for text in ["", "sum = true\nyours = 3\ntheirs = 2\ngames = 6"] {
            let m = make(text);
            for ev in judge_any_faces(&m, 2000) {
                assert!(
                    ev.wins.len() <= m.layout().areas.len(),
                    "{text}: {:?}",
                    ev.wins
                );
            }
        }
    }

    #[test]
    fn marks_show_wins_near_misses_and_decoys() {
        let m = make("games = 3");
        let f = face(&m, &[(12, 11, 5), (8, 9, 100), (3, 9, 1)]);
        let ev = m.evaluate(&f);
        let mut got: Vec<(u8, usize, MarkKind)> = m
            .marks(&f, &ev)
            .into_iter()
            .map(|k| (k.area, k.column, k.kind))
            .collect();
        got.sort_unstable();
        use MarkKind::{Decoy, NearMiss, Win};
        assert_eq!(
            got,
            vec![
                (0, 0, Win),
                (0, 1, Win),
                (0, 2, Win),
                (1, 4, NearMiss),
                (1, 5, NearMiss),
                (1, 6, Decoy),
                (2, 10, Decoy)
            ]
        );
    }

    #[test]
    fn the_near_miss_rate_is_the_spec_s() {
        // 2 000 faces of 3 rows, one winning: 4 000 losing rows, each a near miss with
        // probability r and never otherwise (the others at least two below), so the count
        // is binomial(4000, r); 4 standard deviations (r = 0.2: ±101) hold it (fixed seed).
        for (rate, lo, hi) in [
            ("0", 0, 0),
            ("0.2", 800 - 101, 800 + 101),
            ("1.0", 4000, 4000),
        ] {
            let m = make(&format!("games = 3\nnear_miss = {rate}"));
            let w = way_in(&[(None, 5)]);
            let mut rng = FaceRng::seed_from_u64(4);
            let mut near = 0;
            for _ in 0..2000 {
                let ev = m.evaluate(&m.synthesize(&w, &mut rng).unwrap());
                assert_eq!(ev.prize(), Money(500));
                near += ev.losing_features.len();
            }
            assert!((lo..=hi).contains(&near), "{rate} {near}");
        }
    }

    #[test]
    fn the_near_miss_feature_is_the_surface_s_or_named_by_the_spec() {
        let m = make("");
        assert_eq!(m.features()[0].name, "near_miss_ph");
        let m = make("near_miss_feature = \"near_miss_duel\"");
        assert_eq!(m.features()[0].name, "near_miss_duel");
        let (_, _, ev) = &round_trip_showing(&m, &way_in(&[]), "near_miss_duel", 1..2)[0];
        assert!(ev
            .losing_features
            .iter()
            .all(|f| m.layout.features.name(f.id) == "near_miss_duel"));
        assert!(m.describe().last().unwrap().contains("near_miss_duel"));
    }

    /// `make`'s surface with an auto-win, a ×5 multiplier and a win-all symbol: play areas
    /// 10, 11 and 12, after the ten rows.
    fn specials() -> &'static str {
        "specials = [\n\
         { symbol = \"SAC\", kind = \"auto_win\", caption = \"GAGNE\" },\n\
         { symbol = \"5X\", kind = \"multiplier\", times = 5, area = \"ph_x5\" },\n\
         { symbol = \"TOUT\", kind = \"win_all\", caption = \"GAGNE TOUT\" },\n]"
    }

    /// The first row prints the rule and what each special symbol does; the other rows
    /// print nothing, nor do the specials' play areas, which have no panel.
    #[test]
    fn the_first_row_prints_the_rule_and_the_special_symbols() {
        let m = make_specials(specials()).unwrap();
        let p = m.printed();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].panel, m.panels()[0].id);
        assert_eq!(
            printed_text(&p, crate::language::Language::Fr),
            [
                "Votre numéro (en haut) plus fort que le leur (en bas) : gagnez le montant de la case",
                "SAC = gain immédiat · 5X = gain ×5 · TOUT = tous les montants affichés, additionnés"
            ]
        );
    }

    /// `make`, with the lot table's largest amount 1000 (for the multiplier's check).
    fn make_specials(extra: &str) -> Result<Arc<Compare>, FieldError> {
        let ctx = Ctx::new("ph")
            .captions(captions(&SHOWN))
            .tiers(&[1000, 10])
            .label("ph_x5", "Multiplicateur 5X");
        let text = format!(
            "games = 10\nfrom = 1\nto = 20\nbox_amounts = [1, 2, 5, 10, 100]\nnear_miss = 0.3\n\
             {extra}\n[decoy_weights]\n\"1\" = 5\n\"2\" = 4\n\"100\" = 1\n"
        );
        Compare::new(
            style::parse(toml::from_str(&text).unwrap()).unwrap(),
            &ctx.get(),
        )
        .map(Arc::new)
    }

    /// A face of single-number rows where `you` may be a special symbol: (you, them, box
    /// amount) per row; `you` is the number, or a special's code offset by 100.
    fn face_with(m: &Compare, rows: &[(&str, u8, u64)]) -> Face {
        let mut f = Face::default();
        let you = &m.layout.columns[0].values;
        for (r, &(y, t, a)) in rows.iter().enumerate() {
            let b = m.base(r);
            f.codes[b] = you.iter().position(|v| v == y).unwrap() as u8;
            f.codes[b + 1] = t - 1;
            let code = m.gain.code(Money(a * 100)).unwrap();
            m.gain.show(&mut f, b + 2, b + 3, code);
        }
        f
    }

    fn wins(ev: &Evaluation) -> Vec<(u8, u64)> {
        ev.wins
            .iter()
            .map(|w| (w.area, w.amount.cents() / 100))
            .collect()
    }

    #[test]
    fn special_symbols_have_their_areas_codes_and_captions() {
        let m = make_specials(specials()).unwrap();
        assert_eq!(
            &m.layout.areas[9..],
            ["ph_g10", "ph_sac", "ph_x5", "ph_tout"]
        );
        let you = &m.layout.columns[0];
        assert_eq!(you.values.len(), 23);
        assert_eq!(&you.values[19..], ["20", "SAC", "5X", "TOUT"]);
        assert_eq!(&you.inscriptions[19..], ["", "GAGNE", "", "GAGNE TOUT"]);
        // Their numbers never show a special symbol.
        assert_eq!(m.layout.columns[1].values.len(), 20);
        assert!(m.layout.columns[1].inscriptions.is_empty());
        let d = m.describe();
        assert!(d[0].contains("(numbers 01 to 20;"), "{}", d[0]);
        assert!(d.contains(
            &"A row showing 5X in place of your number wins 5 times the amount in its box, \
              whatever their number (play area « Multiplicateur 5X »)."
                .to_string()
        ));
        assert_eq!(
            d.last().unwrap(),
            "Only a winning row shows SAC, 5X, TOUT, each on one row at most; no losing row \
             (near miss or not) shows one."
        );
        // Without specials: the numbers alone, no inscription.
        let plain = make("");
        assert_eq!(plain.layout.columns[0].values.len(), 20);
        assert!(plain.layout.columns[0].inscriptions.is_empty());
        assert_eq!(plain.layout.areas.len(), 10);
    }

    #[test]
    fn special_symbols_win_as_the_rules_say() {
        let m = make_specials(specials()).unwrap();
        let mut rows = vec![("03", 9, 1); 10];
        rows[0] = ("SAC", 20, 10); // the box, whatever their number
        rows[1] = ("5X", 1, 2); // five times the box
        rows[2] = ("12", 11, 5); // yours higher: the row's own win
        rows[3] = ("08", 9, 100); // a near miss, its box a decoy
        let f = face_with(&m, &rows);
        let ev = m.evaluate(&f);
        assert_eq!(wins(&ev), vec![(10, 10), (11, 10), (2, 5)]);
        assert!(ev.ambiguities.is_empty());
        assert!(m.shows(&ev, NEAR_MISS));
        let mut marks: Vec<(u8, usize, MarkKind)> = m
            .marks(&f, &ev)
            .into_iter()
            .map(|k| (k.area, k.column, k.kind))
            .collect();
        marks.sort_unstable();
        assert_eq!(
            &marks[..4],
            [
                (2, 8, MarkKind::Win),
                (2, 9, MarkKind::Win),
                (2, 10, MarkKind::Win),
                (3, 12, MarkKind::NearMiss)
            ]
        );
        assert_eq!(
            &marks[marks.len() - 4..],
            [
                (10, 0, MarkKind::Win),
                (10, 2, MarkKind::Win),
                (11, 4, MarkKind::Win),
                (11, 6, MarkKind::Win)
            ]
        );
        // A win-all symbol wins the ten boxes, its own included, once.
        let mut rows = vec![("03", 9, 1); 10];
        rows[4] = ("TOUT", 2, 5);
        rows[5] = ("01", 19, 100);
        rows[6] = ("08", 9, 2); // one below: beside TOUT no near miss, nothing loses
        let f = face_with(&m, &rows);
        let ev = m.evaluate(&f);
        assert_eq!(wins(&ev), vec![(12, 5 + 100 + 2 + 7)]);
        assert!(ev.ambiguities.is_empty());
        assert!(ev.losing_features.is_empty());
        let marks = m.marks(&f, &ev);
        assert_eq!(marks.len(), 11);
        assert!(marks
            .iter()
            .all(|k| k.area == 12 && k.kind == MarkKind::Win));
        assert!(marks.iter().any(|k| k.column == m.base(4)));
        // Beside another win it still wins once, and the face is ambiguous.
        rows[5] = ("20", 19, 100);
        let ev = m.evaluate(&face_with(&m, &rows));
        assert_eq!(wins(&ev), vec![(12, 114)]);
        assert_eq!(ev.ambiguities, vec![AMB_WIN_ALL_BESIDE]);
        // One special on two rows: each wins, and the face is ambiguous.
        let mut rows = vec![("03", 9, 1); 10];
        rows[0] = ("SAC", 20, 10);
        rows[9] = ("SAC", 2, 2);
        let ev = m.evaluate(&face_with(&m, &rows));
        assert_eq!(wins(&ev), vec![(10, 10), (10, 2)]);
        assert_eq!(ev.ambiguities, vec![AMB_SPECIAL_TWICE]);
    }

    #[test]
    fn ways_through_special_symbols_round_trip() {
        let m = make_specials(specials()).unwrap();
        let special = |f: &Face, r: usize| m.specials.get(f.codes[m.base(r)]).is_some();
        for w in [
            way_in(&[(Some(10), 10)]),
            way_in(&[(Some(11), 500)]),
            way_in(&[(Some(11), 5), (Some(10), 1), (None, 2), (Some(0), 100)]),
            way_in(&[(Some(12), 10)]),
            way_in(&[(Some(12), 1000)]),
        ] {
            let split = m.split(&w).unwrap_or_else(|e| panic!("{}: {e}", w.id));
            let all = split.all.is_some();
            for (_, f, ev) in round_trip(&m, &w, 0..300) {
                // Special symbols only on the rows that win by them; the other rows of a
                // win-all face lose by two or more.
                let shown = (0..10).filter(|&r| special(&f, r)).count();
                assert_eq!(shown, w.wins.iter().filter(|x| x.area >= Some(10)).count());
                if all {
                    assert!((0..10)
                        .filter(|&r| !special(&f, r))
                        .all(|r| m.diff(&f, r) <= -2));
                    assert!(ev.losing_features.is_empty());
                }
            }
        }
        // 10 = ten boxes of 1 only.
        for (_, f, _) in round_trip(&m, &way_in(&[(Some(12), 10)]), 0..20) {
            assert!((0..10).all(|r| m.gain.amount(f.codes[m.gain_col(r)]) == Money(100)));
        }
        // A losing face, and one asked for a near miss, never show a special symbol.
        for (_, f, _) in round_trip_showing(&m, &way_in(&[(Some(10), 5)]), NEAR_MISS, 0..100)
            .into_iter()
            .chain(round_trip(&m, &way_in(&[]), 0..100))
        {
            assert!((0..10).filter(|&r| special(&f, r)).count() <= 1);
        }
        let all = way_in(&[(Some(12), 10)]);
        assert!(matches!(
            m.can_show_why(&all, NEAR_MISS),
            Err(Refusal::NeedsLosing { .. })
        ));
    }

    #[test]
    fn ways_special_symbols_cannot_show_are_refused() {
        let m = make_specials(specials()).unwrap();
        let refused = |w: &[(Option<u8>, u64)]| m.split(&way_in(w)).unwrap_err();
        assert_eq!(
            refused(&[(Some(11), 52)]).to_string(),
            "« ph_x5 » cannot win 52: it wins 5 times an amount a row's box shows (1, 2, 5, 10, 100)"
        );
        assert_eq!(
            refused(&[(Some(10), 3)]).to_string(),
            "« ph_sac » cannot win 3: a row's box shows 1, 2, 5, 10, 100"
        );
        assert_eq!(
            refused(&[(Some(12), 9)]).to_string(),
            "« ph_tout » cannot win 9: no 10 box amounts among 1, 2, 5, 10, 100 add up to it"
        );
        assert!(matches!(
            refused(&[(Some(10), 1), (Some(10), 2)]),
            Refusal::TooManyWins { most: 1, .. }
        ));
        assert_eq!(
            refused(&[(Some(12), 10), (None, 1)]).to_string(),
            "2 wins, but « ph_tout » shows at most 1 at once (a win-all symbol wins every box \
             of the surface, alone)"
        );
        assert_eq!(refused(&[(Some(13), 1)]), Refusal::NoSuchArea { area: 13 });
        // A special no way wins by never shows: refused once every way is planned.
        let plans: Vec<Plan> = [
            way_in(&[(Some(10), 1)]),
            way_in(&[(Some(11), 5)]),
            way_in(&[(None, 1)]),
        ]
        .iter()
        .map(|w| Arc::clone(&m).plan(w).unwrap())
        .collect();
        let e = m.check_ways(&plans.iter().collect::<Vec<_>>()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "specials (\"TOUT\") never applies: no way wins in its play area « ph_tout » \
             (`areas`), so no face shows it"
        );
        let all = Arc::clone(&m).plan(&way_in(&[(Some(12), 10)])).unwrap();
        let refs: Vec<&Plan> = plans.iter().chain([&all]).collect();
        assert_eq!(m.check_ways(&refs), Ok(()));
    }

    #[test]
    fn bad_special_symbols_are_refused_with_the_field() {
        let err = |from: &str, to: &str| {
            let e = make_specials(&specials().replace(from, to))
                .err()
                .expect(to);
            assert_eq!(e.field, "specials");
            e.message
        };
        assert_eq!(
            err("times = 5", "times = 2000"),
            "\"5X\" can never multiply: 2000 times the smallest amount a spot shows is above \
             the largest lot, 1000"
        );
        assert_eq!(
            err("\"SAC\", kind", "\"07\", kind"),
            "\"07\" is also one of the numbers `from` to `to`: a special symbol is none of them"
        );
        assert_eq!(
            err("\"auto_win\", caption", "\"win_all\", caption"),
            "at most one win-all symbol"
        );
        assert_eq!(
            err("area = \"ph_x5\"", "area = \"ph_g2\""),
            "play area \"ph_g2\" is named twice"
        );
        let e = make_specials(&format!("sum = true\nyours = 2\n{}", specials()))
            .err()
            .unwrap();
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "specials",
                "a special symbol shows in place of your number, and a row shows 2: give yours = 1"
            )
        );
    }
}
