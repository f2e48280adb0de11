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

use super::common::LosingNearMiss;
use super::common::{self, AmountBox};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, Evaluation, Face, FaceRng, FeatureId, FeatureKind, Layout, Mark,
    MarkKind, Panel, Plan, Refusal, Style, INLINE_CELLS, MAX_COLUMNS,
};
use crate::crypto::rng::{below, chance, shuffle};
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
}

fn three() -> usize {
    3
}

/// The library's entry for this style.
pub static INFO: StyleInfo = StyleInfo {
    name: "match_amounts",
    term: "match amounts (match 3 like amounts, win that amount)",
    about: "Each cell shows an amount with its caption; an amount shown exactly `match` times \
            (default 3) wins that amount. The surface wins at most once.",
    naive: "Any amount shown `match` times or more reads as a win, and two amounts shown that \
            often as two wins: so no amount is ever shown more than `match` times, never two \
            amounts `match` times, and on a losing face every amount at most `match` − 1 times.",
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
        let mut columns = Vec::with_capacity(2 * raw.cells);
        for c in 1..=raw.cells {
            let at = columns.len();
            columns.push(amounts.column(format!("{}_amt{c}", ctx.id)));
            columns.push(Column::caption(
                format!("{}_cap{c}", ctx.id),
                at,
                ctx.captions,
            ));
        }
        let mut layout = Layout::new(INFO.name, vec![area.clone()], columns);
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
        let mut m = MatchAmounts {
            near_miss_id,
            layout,
            amounts,
            cells: raw.cells,
            k: raw.k,
            per_row,
            near_miss,
            description: Vec::new(),
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
        v.push(format!(
            "never printed: an amount more than {}, two amounts {} each",
            times_word(self.k),
            times_word(self.k)
        ));
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
    /// A way is feasible when it has at most one win, of an amount the cells show, and the
    /// other cells can be filled with the other amounts at most `k − 1` times each (the
    /// losing face's fill is checked at load, and implies this one: kept as a guard).
    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        if way.wins.len() > 1 {
            return Err(Refusal::TooManyWins {
                area: self.layout.areas[0].clone(),
                wins: way.wins.len(),
                most: 1,
                why: "one amount shown as often as the match",
            });
        }
        let Some(w) = way.wins.first() else {
            return self.losing_fits();
        };
        if let Some(a) = w.area.filter(|&a| a != 0) {
            return Err(Refusal::NoSuchArea { area: a });
        }
        let code = self
            .amounts
            .code(w.amount)
            .ok_or_else(|| Refusal::CannotWin {
                area: self.layout.areas[0].clone(),
                amount: w.amount,
                can: format!("its cells show {}", list(self.amounts.amounts())),
            })?;
        let room: usize = self
            .room(Some(code), false)
            .iter()
            .map(|&r| usize::from(r))
            .sum();
        let other = self.cells - self.k;
        if room < other {
            return Err(Refusal::NoRoom {
                area: self.layout.areas[0].clone(),
                need: other,
                cells: room,
                what: format!(
                    "the amounts beside a win of {}, each shown at most {}",
                    w.amount,
                    times_word(self.k - 1)
                ),
                hint: "; list more amounts",
            });
        }
        Ok(())
    }

    fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), Refusal> {
        self.near()
            .can_show(way, id, &self.layout, &self.layout.areas[0])?;
        self.check_way(way)
    }

    fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        self.near().always_shows(way)
    }

    /// A winning face: its amount `k` times; a losing one: the near miss at its share (or
    /// when asked). The other cells are drawn one by one, uniformly among the amounts with
    /// room left (see `MatchAmounts::room`; load checked there is room for every cell),
    /// then every cell is shuffled.
    fn draw(&self, way: &Way, show: Option<FeatureId>, rng: &mut FaceRng) -> Face {
        let mut cells: SmallVec<[u8; INLINE_CELLS]> = SmallVec::new();
        let win = way
            .wins
            .first()
            .map(|w| self.amounts.code(w.amount).expect("checked when planned"));
        let near_miss = win.is_none()
            && (show.is_some() || (self.near_miss > 0 && chance(rng, self.near_miss)));
        let mut room = self.room(win, near_miss);
        if let Some(c) = win {
            cells.extend(std::iter::repeat_n(c, self.k));
        } else if near_miss {
            cells.extend(std::iter::repeat_n(self.top(), self.k - 1));
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
        shuffle(rng, &mut cells);
        let mut face = Face::zeroed(self.layout.columns.len());
        for (c, &code) in cells.iter().enumerate() {
            self.amounts.show(&mut face, 2 * c, 2 * c + 1, code);
        }
        face
    }
}

/// The presentation of the style, computed once by its constructor.
impl MatchAmounts {
    /// `self` with its layout completed: panels, printed lines, shown amounts and
    /// description, computed once from its settings.
    fn with_layout(mut self) -> Self {
        self.layout.shown_amounts = self.shown_amounts();
        self.layout.panels = self.panels();
        self.layout.description = self.describe();
        self
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

    /// Judges the face: the amount shown exactly `k` times wins (the largest, should two
    /// be: flagged); a losing face showing the largest amount `k − 1` times is the near
    /// miss. An amount shown more than `k` times, or two shown `k` times or more, is
    /// flagged as ambiguous.
    fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
        let counts = self.counts(face);
        let n = self.amounts.amounts().len();
        let k = self.k as u16;
        if counts[..n].iter().any(|&c| c > k) {
            ev.ambiguities.push(AMB_OVER);
        }
        if counts[..n].iter().filter(|&&c| c >= k).count() >= 2 {
            ev.ambiguities.push(AMB_TWO);
        }
        match (0..n).rev().find(|&a| counts[a] == k) {
            Some(a) => ev.wins.push(AreaWin {
                area: 0,
                amount: self.amounts.amount(a as u8),
            }),
            None => {
                if counts[self.top() as usize] == k - 1 {
                    ev.losing_features.push(AreaFeature {
                        area: 0,
                        id: self.near_miss_id,
                    });
                }
            }
        }
        ev
    }

    /// A win: the cells of the winning amount. A near miss: the cells of the largest amount.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let (code, kind) = if let Some(w) = ev.wins.first() {
            match self.amounts.code(w.amount) {
                Some(c) => (c, MarkKind::Win),
                None => return Vec::new(),
            }
        } else if ev.shows(self.near_miss_id) {
            (self.top(), MarkKind::NearMiss)
        } else {
            return Vec::new();
        };
        (0..self.cells)
            .filter(|&c| face.codes[2 * c] == code)
            .map(|c| Mark {
                area: 0,
                column: 2 * c,
                kind,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{
        self, count_showing, drawn_twice, example_surface, round_trip, round_trip_showing, way, Ctx,
    };
    use crate::styles::testkit::{Planning, Tested};
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
            "« jeu » needs 6 cells for a losing face from 3 amount(s), each shown at most twice \
             (the largest once), and can fill only 5; list more amounts or fewer cells"
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
        assert!(m.check_way(&way(&[])).is_ok());
        assert!(m.check_way(&way(&[5])).is_ok());
        let e = m.check_way(&way(&[10])).unwrap_err();
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
            m.check_way(&way(&[5, 5])),
            Err(Refusal::TooManyWins {
                area: "jeu".into(),
                wins: 2,
                most: 1,
                why: "one amount shown as often as the match"
            })
        );
        let mut w = way(&[5]);
        w.wins[0].area = Some(1);
        assert_eq!(m.check_way(&w), Err(Refusal::NoSuchArea { area: 1 }));
        w.wins[0].area = Some(0);
        assert!(m.check_way(&w).is_ok());
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

    const VECTOR: [u8; 12] = [3, 4, 3, 4, 3, 4, 0, 0, 2, 2, 0, 0];
    const LOSING: [u64; 6] = [1, 5, 50, 500, 500, 5];
}
