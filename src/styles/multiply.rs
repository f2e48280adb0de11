//! Multiplied surfaces and the ticket-wide multiplier box, which any game may add to its
//! surfaces ([`super::game::Game`]).
//!
//! A surface with `multiply = 5` pays five times every win it shows: the face prints its
//! amounts (or legend) as usual and "5X" beside them. The ticket's **multiplier box**
//! (`[box] multipliers = [1, 2, 5]`) is one more face column under the scratch layer,
//! showing one of its values (`2X`); it multiplies every win on the ticket. The lot is the
//! multiplied sum: every win of a surface times the surface's factor, times the box. A way
//! names its wins by what they pay; planning finds the amounts the face prints (a win of 50
//! on a `5X` surface prints 10) and refuses, naming the way, an amount no factor gives.
//!
//! A losing ticket shows a box value too. It is drawn from the law the winning tickets'
//! box values follow in the block (each way's count, spread evenly over the values it may
//! show), so that the box value says nothing of whether the ticket wins: for every value
//! `v`, the chance that a ticket showing `v` wins is the block's chance of winning.

use super::{Column, ColumnKind, FaceRng, Panel, Printed};
use crate::crypto::rng::weighted;
use crate::language::{Phrase, PrintedLine};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use std::collections::HashMap;
use std::ops::Range;

/// The face column, panel and `[labels]` id of the multiplier box.
pub const BOX: &str = "box";

/// Most values a multiplier box may show (so that the losing tickets' law is exact in
/// 32-bit draws).
pub const MAX_BOX_VALUES: usize = 8;

/// Largest factor of a multiplied surface or of a box value.
pub const MAX_FACTOR: u32 = 1000;

/// The ticket-wide multiplier box of a game, as the spec gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MultiplierBox {
    /// The values it may show, in the spec's order; value `i` is face code `i`.
    pub values: Vec<u32>,
    /// The value a way must show (`box = 5` in its `[[tiers.ways]]` entry), by way id; a
    /// way not listed shows any value that can carry it.
    pub fixed: HashMap<String, u32>,
}

impl MultiplierBox {
    /// The box's face column: `box`, its values written `1X`, `2X`, ….
    pub fn column(&self) -> Column {
        Column {
            name: BOX.to_string(),
            kind: ColumnKind::Symbol,
            values: self.values.iter().map(|v| caption(*v)).collect(),
            inscriptions: Vec::new(),
        }
    }

    /// The box's panel: its one cell, face column `column`.
    pub fn panel(column: usize) -> Panel {
        Panel {
            id: BOX.to_string(),
            rows: vec![vec![column]],
        }
    }

    /// What the ticket prints beside the box: that it multiplies every win.
    pub fn printed() -> Printed {
        Printed {
            panel: BOX.to_string(),
            lines: vec![PrintedLine::of(vec![Phrase::BoxMultiplies])],
        }
    }

    /// The codes (indices into [`MultiplierBox::values`]) way `way` may show, with their
    /// values: the one it fixes, or every one.
    pub fn choices(&self, way: &Way) -> Vec<(u8, u32)> {
        let all = self.values.iter().enumerate().map(|(i, &v)| (i as u8, v));
        match self.fixed.get(&way.id) {
            Some(f) => all.filter(|(_, v)| v == f).collect(),
            None => all.collect(),
        }
    }

    /// Plain-words lines for `tirage check`.
    pub fn describe(&self) -> Vec<String> {
        let shown: Vec<String> = self.values.iter().map(|v| caption(*v)).collect();
        vec![
            format!("the multiplier box (\"{BOX}\"), over the whole ticket:"),
            format!(
                "  shows one of {} under the scratch layer; every win on the ticket is \
                 multiplied by it (the lot is the multiplied sum)",
                shown.join(", ")
            ),
            "  a losing ticket shows a value too, drawn as the winning tickets' values are \
             spread, so that the box says nothing of whether a ticket wins"
                .to_string(),
        ]
    }
}

/// The printed form of a factor: `5X`.
pub fn caption(factor: u32) -> String {
    format!("{factor}X")
}

/// The feature a box showing `factor` is on a losing ticket: its name
/// (`decoy_box_5x`) and what the face shows, in English and in French.
pub fn decoy(factor: u32) -> (String, String, String) {
    (
        format!("decoy_box_{factor}x"),
        format!("the multiplier box shows {factor}X on a ticket that wins nothing"),
        format!("la case multiplicateur montre {factor}X sur un ticket qui ne gagne rien"),
    )
}

/// `way` with every win divided by `factor`: the amounts a face prints for it when
/// everything it wins is multiplied by `factor`. `Err` gives the first win `factor` does
/// not divide (in cents).
pub fn divided(way: &Way, factor: u32) -> Result<Way, Money> {
    let mut out = way.clone();
    for w in &mut out.wins {
        w.amount = divide(w.amount, factor).ok_or(w.amount)?;
    }
    out.amount = Money(out.wins.iter().map(|w| w.amount.cents()).sum());
    Ok(out)
}

/// `amount / factor` when `factor` divides it exactly, in cents.
pub fn divide(amount: Money, factor: u32) -> Option<Money> {
    let f = u64::from(factor);
    (f > 0 && amount.cents() % f == 0).then(|| Money(amount.cents() / f))
}

/// `amount × factor`, saturating (no face shows an amount that comes near).
pub fn times(amount: Money, factor: u32) -> Money {
    Money(amount.cents().saturating_mul(u64::from(factor)))
}

/// One box value a way may show: its code, the way's splits drawn with it (a range of the
/// way's planned splits) and its weight among the way's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxChoice {
    /// The box's face code.
    pub code: u8,
    /// The way's splits that show it.
    pub splits: Range<usize>,
    /// Its weight: 1 for each value of a winning way (drawn evenly), the decoy law for the
    /// losing way.
    pub weight: u32,
}

/// The weight of each box code on a losing ticket: the number of winning tickets that show
/// it in law, `Σ count(w) / values(w)` over the winning ways `w` that may show it, scaled to
/// whole numbers by the least common multiple of the ways' numbers of values and reduced.
/// `ways` gives each winning way's count and the codes it may show; `codes` is the box's
/// number of values. The weights add up to at most 840 (the least common multiple of 1 to
/// [`MAX_BOX_VALUES`]) times the block's tickets, which fits 32 bits for a block of at most
/// 5 000 000 tickets.
pub fn losing_weights(ways: &[(u32, Vec<u8>)], codes: usize) -> Vec<u32> {
    let parts: Vec<(u32, Vec<Option<u8>>)> = ways
        .iter()
        .map(|(count, cs)| (*count, cs.iter().copied().map(Some).collect()))
        .collect();
    spread_weights(&parts, codes).expect("box weights fit in 32 bits")
}

/// The weight of each of `codes` codes in the law of what winning faces show, when each
/// entry's count is spread evenly over its parts and a part shows one code or none (`None`:
/// its share goes to no code): `Σ count(e) / parts(e)` over every part of every entry `e`
/// showing the code, scaled to whole numbers by the least common multiple of the entries'
/// numbers of parts and reduced. A face that must not tell winners from losers draws a
/// losing face's code by these weights ([`crate::crypto::rng::weighted`]). `None` when the
/// weights do not add up within 32 bits.
pub fn spread_weights(entries: &[(u32, Vec<Option<u8>>)], codes: usize) -> Option<Vec<u32>> {
    let lcm = entries
        .iter()
        .map(|(_, c)| c.len().max(1) as u64)
        .try_fold(1u64, |a, b| (a / gcd(a, b)).checked_mul(b))?;
    let mut w = vec![0u64; codes];
    for (count, cs) in entries {
        for &c in cs.iter().flatten() {
            let add = u64::from(*count).checked_mul(lcm / cs.len() as u64)?;
            w[usize::from(c)] = w[usize::from(c)].checked_add(add)?;
        }
    }
    let g = w.iter().copied().fold(0, gcd).max(1);
    let out: Vec<u32> = w
        .iter()
        .map(|x| u32::try_from(x / g).ok())
        .collect::<Option<_>>()?;
    out.iter().try_fold(0u32, |a, &b| a.checked_add(b))?;
    Some(out)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// One of `choices` drawn by weight from `rng` ([`weighted`]); a single choice draws
/// nothing. The weights add up to at most `u32::MAX` ([`losing_weights`]).
pub fn pick<'a>(choices: &'a [BoxChoice], rng: &mut FaceRng) -> &'a BoxChoice {
    if choices.len() == 1 {
        return &choices[0];
    }
    let weights: ArrayVec<u32, MAX_BOX_VALUES> = choices.iter().map(|c| c.weight).collect();
    &choices[weighted(rng, &weights)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lots::Win;

    #[test]
    fn losing_weights_follow_the_winners_law() {
        // 30 tickets showing only 2X, 10 free among 1X and 5X (5 each in law), 4 showing 5X.
        let w = losing_weights(&[(30, vec![1]), (10, vec![0, 2]), (4, vec![2])], 3);
        // 1X: 5, 2X: 30, 5X: 9 (doubled by the lcm 2, then reduced by 2).
        assert_eq!(w, vec![5, 30, 9]);
        assert_eq!(losing_weights(&[(7, vec![0])], 2), vec![1, 0]);
    }

    #[test]
    fn spread_weights_share_each_count_over_its_parts() {
        // 30 tickets over 3 parts (2 showing code 0, one showing nothing), 10 over 1 part
        // showing code 1: code 0 gets 20, code 1 gets 10 (scaled by 3, then reduced by 10).
        let w = spread_weights(
            &[(30, vec![Some(0), None, Some(0)]), (10, vec![Some(1)])],
            2,
        );
        assert_eq!(w, Some(vec![2, 1]));
        // Weights past 32 bits in all are refused.
        let big = spread_weights(&[(u32::MAX, vec![Some(0)]), (1, vec![Some(1), None])], 2);
        assert_eq!(big, None);
    }

    #[test]
    fn a_way_is_divided_only_by_a_factor_of_every_win() {
        let way = Way {
            id: "w".into(),
            tier: Some(0),
            amount: Money(3_000),
            count: 1,
            wins: vec![
                Win {
                    area: None,
                    amount: Money(1_000),
                },
                Win {
                    area: Some(1),
                    amount: Money(2_000),
                },
            ],
        };
        let d = divided(&way, 5).unwrap();
        assert_eq!(d.amount, Money(600));
        assert_eq!(d.wins[0].amount, Money(200));
        assert_eq!(d.wins[1].area, Some(1));
        assert_eq!(divided(&way, 3), Err(Money(1_000)));
        assert_eq!(times(Money(200), 5), Money(1_000));
    }
}
