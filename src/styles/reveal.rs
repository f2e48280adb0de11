//! The *reveal* play style ("instant cash"): each box under the scratch layer shows an
//! amount in figures with its caption, and wins what it shows; a box that shows 0 € loses.
//!
//! Pharaon's surface I (art. 3.2: the sarcophagus shows a table amount or 0 €) is one box
//! of this style.
//!
//! - **Rule**: every box showing an amount above 0 wins that amount; the wins of the boxes
//!   add up, one win per box, all in the surface's one play area.
//! - **Naive reading**: the same as the rule — a player wins what a box shows. No face can
//!   read otherwise, so the style has no ambiguous case, no near miss and no decoy: any
//!   amount it showed on a losing box would be a win.
//! - **Columns**: one box: `{id}_amount`, `{id}_caption`; `n` boxes: `{id}_amount1` …,
//!   `{id}_caption1` … (amount then caption, box by box).
//! - **Synthesis**: the boxes that win are drawn at random among the surface's boxes; each
//!   shows its win; every other box shows 0 €.
//! - **No special symbols**: `specials` is refused with what to use instead ([`NO_SPECIALS`]):
//!   a box shows an amount and wins it, so a multiplier, auto-win or win-all symbol would
//!   have nothing to act on.

use super::common::{each_pick, AmountBox, MAX_SYMBOLS};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaWin, Column, Evaluation, Face, FaceRng, Layout, Mark, MarkKind, Panel, Plan, Refusal,
    Style, MAX_COLUMNS,
};
use crate::lots::Way;
use crate::money::Money;
use serde::Deserialize;
use std::sync::Arc;

/// The surface's parameters as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReveal {
    /// Number of boxes.
    #[serde(default = "one")]
    boxes: usize,
    /// The amounts a box may show and win; by default every amount of the lot table (up to
    /// the surface's `max`).
    #[serde(default)]
    amounts: Option<Vec<Money>>,
    /// The play area's name; by default the surface id.
    #[serde(default)]
    area: Option<String>,
    /// Refused with what to use instead: a box wins the amount it shows, so a special
    /// symbol would have nothing to act on.
    #[serde(default)]
    specials: Option<toml::Value>,
}

/// Why a reveal surface refuses `specials`, and what to use instead.
pub const NO_SPECIALS: &str = "a reveal box shows an amount and wins it, so a special symbol \
     has nothing to act on here: to multiply the ticket's wins, add the multiplier box ([box], \
     game_specs/README.md \"Multiplied play areas and the multiplier box\") or give the surface \
     `multiply`; for a symbol that wins the prize under it, multiplies it or wins them all, \
     use a symbol_to_prize or key_match surface with specials";

fn one() -> usize {
    1
}

/// The library's entry for this style.
pub static INFO: StyleInfo = StyleInfo {
    name: "reveal",
    term: "reveal (instant cash)",
    about: "Each box shows an amount and wins it; a box showing 0 loses. The wins of the \
            boxes add up.",
    naive: "The same as the rule: a player wins what a box shows. A losing box shows 0, never \
            an amount.",
    columns: "{id}_amount, {id}_caption (one box); {id}_amount1, {id}_caption1, … (several)",
    params: &[
        Param {
            name: "boxes",
            kind: "integer",
            default: Some("1"),
            about: "Number of boxes on the surface.",
        },
        Param {
            name: "amounts",
            kind: "array of amounts",
            default: Some("every amount of the lot table, up to `max`"),
            about: "The amounts a box may show (each needs a caption, and so does 0).",
        },
        Param {
            name: "area",
            kind: "string",
            default: Some("the surface id"),
            about: "The play area's name, as ways' `areas` name it.",
        },
    ],
    example: r#"[[surfaces]]
style = "reveal"
id = "cash"
boxes = 2
amounts = [2, 5, 50]"#,
    build,
};

/// The reveal style on one surface.
pub struct Reveal {
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    /// Amounts a box shows, 0 first.
    amounts: AmountBox,
    boxes: usize,
    panel: String,
    about: String,
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    let raw: RawReveal = style::parse(table)?;
    if raw.specials.is_some() {
        return Err(FieldError::new("specials", NO_SPECIALS));
    }
    if raw.boxes == 0 || raw.boxes > MAX_COLUMNS / 2 {
        return Err(FieldError::new(
            "boxes",
            format!(
                "expected 1 to {} boxes (two face columns each), got {}",
                MAX_COLUMNS / 2,
                raw.boxes
            ),
        ));
    }
    let mut amounts: Vec<Money> = match raw.amounts {
        Some(a) => {
            if a.iter().any(|m| m.is_zero()) {
                return Err(FieldError::new(
                    "amounts",
                    "0 is what a losing box shows; list only winning amounts",
                ));
            }
            a
        }
        None => ctx
            .tier_amounts
            .iter()
            .copied()
            .filter(|&m| ctx.max.is_none_or(|max| m <= max))
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
    if amounts.len() >= MAX_SYMBOLS {
        return Err(FieldError::new(
            "amounts",
            format!(
                "{} amounts: at most {} (a box shows at most {MAX_SYMBOLS}, the 0 of a losing box included)",
                amounts.len(),
                MAX_SYMBOLS - 1
            ),
        ));
    }
    let mut with_zero = vec![Money::ZERO];
    with_zero.extend(amounts);
    let amounts =
        AmountBox::new(with_zero, ctx.captions).map_err(|e| FieldError::new("amounts", e))?;
    let area = raw.area.unwrap_or_else(|| ctx.id.to_string());
    let mut columns = Vec::new();
    for b in 1..=raw.boxes {
        let n = if raw.boxes == 1 {
            String::new()
        } else {
            b.to_string()
        };
        let at = columns.len();
        columns.push(amounts.column(format!("{}_amount{n}", ctx.id)));
        columns.push(Column::caption(
            format!("{}_caption{n}", ctx.id),
            at,
            ctx.captions,
        ));
    }
    let shown: Vec<String> = amounts.amounts()[1..]
        .iter()
        .map(|m| m.to_string())
        .collect();
    let about = if raw.boxes == 1 {
        format!(
            "« {} » shows one box; it wins the amount it shows ({}), and loses when it shows 0.",
            ctx.label(&area),
            shown.join(", ")
        )
    } else {
        format!(
            "« {} » shows {} boxes; each box wins the amount it shows ({}), and a box showing \
             0 loses; the boxes' wins add up.",
            ctx.label(&area),
            raw.boxes,
            shown.join(", ")
        )
    };
    Ok(Box::new(
        Reveal {
            panel: area.clone(),
            layout: Layout::new(INFO.name, vec![area], columns),
            amounts,
            boxes: raw.boxes,
            about,
        }
        .with_layout(),
    ))
}

impl Reveal {
    /// Whether this style can realise `way`: at most one win per box, each an amount a box
    /// shows.
    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        if way.wins.len() > self.boxes {
            return Err(Refusal::TooManyWins {
                area: self.layout.areas[0].clone(),
                wins: way.wins.len(),
                most: self.boxes,
                why: "one win per box",
            });
        }
        for w in &way.wins {
            if self.amounts.code(w.amount).is_none() || w.amount.is_zero() {
                return Err(Refusal::CannotWin {
                    area: self.layout.areas[0].clone(),
                    amount: w.amount,
                    can: format!(
                        "a box shows {}",
                        self.amounts.amounts()[1..]
                            .iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            }
        }
        Ok(())
    }

    /// A face of a way whose wins show amount codes `codes` (planned): every box shows 0,
    /// then each win is shown in a distinct box drawn at random. Drawn into `face`, whatever
    /// it held.
    fn draw(&self, codes: &[u8], rng: &mut FaceRng, face: &mut Face) {
        face.reset(self.layout.columns.len());
        for b in 0..self.boxes {
            self.amounts.show(face, 2 * b, 2 * b + 1, 0);
        }
        let mut codes = codes.iter();
        each_pick(rng, self.boxes as u32, codes.len(), |b| {
            let code = *codes.next().expect("one box a code");
            self.amounts
                .show(face, 2 * b as usize, 2 * b as usize + 1, code);
        });
    }
}

/// The presentation of the style, computed once by its constructor.
impl Reveal {
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
        vec![Panel {
            id: self.panel.clone(),
            rows: vec![(0..self.boxes).map(|b| 2 * b).collect()],
        }]
    }

    fn describe(&self) -> Vec<String> {
        vec![self.about.clone()]
    }
}

impl Style for Reveal {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        self.check_way(way)?;
        // Checked: every win is an amount a box shows.
        let codes: Vec<u8> = way
            .wins
            .iter()
            .filter_map(|w| self.amounts.code(w.amount))
            .collect();
        let me = Arc::clone(&self);
        Ok(Plan::new(
            &*self,
            way,
            |_| Ok(()),
            Vec::new(),
            move |_, rng, face| me.draw(&codes, rng, face),
        ))
    }

    fn marks(&self, face: &Face, _ev: &Evaluation) -> Vec<Mark> {
        (0..self.boxes)
            .filter(|&b| !self.amounts.amount(face.codes[2 * b]).is_zero())
            .map(|b| Mark {
                area: 0,
                column: 2 * b,
                kind: MarkKind::Win,
            })
            .collect()
    }

    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        for b in 0..self.boxes {
            let amount = self.amounts.amount(face.codes[2 * b]);
            if !amount.is_zero() {
                ev.wins.push(AreaWin { area: 0, amount });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::testkit::{round_trip, way, worded, Ctx};
    use crate::styles::testkit::{Planning, Tested};
    use rand_core::SeedableRng;

    fn reveal(toml: &str) -> Result<Arc<dyn Style>, FieldError> {
        let captions = worded(&[
            (0, "ZERO EURO"),
            (2, "DEUX EUROS"),
            (5, "CINQ EUROS"),
            (50, "CINQUANTE EUROS"),
        ]);
        let ctx = Ctx::new("cash")
            .captions(captions)
            .label("cash", "Cash")
            .tiers(&[5, 2]);
        build(toml::from_str(toml).unwrap(), &ctx.get()).map(Arc::from)
    }

    #[test]
    fn specials_are_refused_with_what_to_use_instead() {
        let e = reveal("amounts = [2, 50]\nspecials = [{ symbol = \"2X\", multiplies = 2 }]")
            .err()
            .unwrap();
        assert_eq!(e.field, "specials");
        assert_eq!(
            e.message,
            "a reveal box shows an amount and wins it, so a special symbol has nothing to act on \
             here: to multiply the ticket's wins, add the multiplier box ([box], \
             game_specs/README.md \"Multiplied play areas and the multiplier box\") or give the \
             surface `multiply`; for a symbol that wins the prize under it, multiplies it or \
             wins them all, use a symbol_to_prize or key_match surface with specials"
        );
    }

    #[test]
    fn each_box_wins_what_it_shows_and_zero_loses() {
        let m = reveal("boxes = 2\namounts = [2, 50]").unwrap();
        let names: Vec<&str> = m.layout().columns.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "cash_amount1",
                "cash_caption1",
                "cash_amount2",
                "cash_caption2"
            ]
        );
        // Codes: 0 → 0 €, 1 → 2 €, 2 → 50 €.
        let mut f = Face::default();
        f.codes[0] = 1;
        f.codes[2] = 2;
        let ev = m.evaluate(&f);
        assert_eq!(
            ev.wins.as_slice(),
            [
                AreaWin {
                    area: 0,
                    amount: Money(200)
                },
                AreaWin {
                    area: 0,
                    amount: Money(5000)
                }
            ]
        );
        f.codes[2] = 0;
        assert_eq!(m.evaluate(&f).prize(), Money(200));
        f.codes[0] = 0;
        assert!(m.evaluate(&f).wins.is_empty());
    }

    #[test]
    fn default_amounts_are_the_lot_tables_and_one_box_has_plain_names() {
        let m = reveal("").unwrap();
        assert_eq!(m.layout().shown_amounts, [0, 200, 500].map(Money));
        assert_eq!(m.layout().columns[0].name, "cash_amount");
        assert_eq!(m.layout().columns[1].name, "cash_caption");
        assert_eq!(
            m.layout().description,
            [
                "« Cash » shows one box; it wins the amount it shows (2, 5), and loses when it \
                 shows 0."
            ]
        );
    }

    #[test]
    fn bad_parameters_name_their_field() {
        let e = reveal("boxes = 0").err().unwrap();
        assert_eq!(e.field, "boxes");
        let e = reveal("amounts = [0, 2]").err().unwrap();
        assert_eq!(e.field, "amounts");
        let e = reveal("amounts = [3]").err().unwrap();
        assert_eq!(e.field, "amounts");
        assert!(e.message.contains("caption"), "{}", e.message);
        let e = reveal("boxe = 2").err().unwrap();
        assert_eq!(e.field, "boxe");
    }

    #[test]
    fn ways_it_cannot_show_are_refused() {
        let m = reveal("boxes = 2\namounts = [2, 50]").unwrap();
        assert!(m.check_way(&way(&[2, 50])).is_ok());
        assert_eq!(
            m.check_way(&way(&[2, 2, 2])),
            Err(Refusal::TooManyWins {
                area: "cash".into(),
                wins: 3,
                most: 2,
                why: "one win per box"
            })
        );
        let e = m.check_way(&way(&[5])).unwrap_err();
        assert_eq!(
            e,
            Refusal::CannotWin {
                area: "cash".into(),
                amount: Money(500),
                can: "a box shows 2, 50".into()
            }
        );
        assert_eq!(e.to_string(), "« cash » cannot win 5: a box shows 2, 50");
    }

    #[test]
    fn every_way_round_trips_and_the_draw_is_stable() {
        let m = reveal("boxes = 3\namounts = [2, 5, 50]").unwrap();
        for wins in [&[][..], &[2], &[5, 50], &[2, 2, 50]] {
            let w = way(wins);
            for (seed, f, ev) in round_trip(&m, &w, 0..200) {
                assert_eq!(m.marks(&f, &ev).len(), wins.len(), "{} seed {seed}", w.id);
            }
        }
        let f = m
            .synthesize(&way(&[5]), &mut FaceRng::seed_from_u64(7))
            .unwrap();
        assert_eq!(&f.codes[..6], [2, 2, 0, 0, 0, 0]);
    }
}
