//! « ASTRO ANNEE DU COQ » (JORF n°0303, 30 December 2016): eight symbol cells and two GAIN
//! boxes. Rules: règlement art. 4.5 (Jeu 1: two identical COQ win GAIN 1), art. 4.6
//! (Jeu 2: two identical vœux win GAIN 2), art. 4.7 (losing otherwise); art. 3 (the lot is
//! the sum of the winning games). Ambiguity policy: GAMES.md, section coq.

use super::common::{self, AmountBox};
use super::{
    AreaFeature, AreaWin, Captions, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureInfo,
    FeatureKind, Mark, MarkKind, Mechanic, Panel,
};
use crate::lots::Way;
use crate::money::Money;
use crate::rng::{below, chance, weighted};
use crate::spec_error::{ErrorAt, SpecError};
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The twelve signs of the Chinese zodiac, as coded in files (GAMES.md).
pub const SIGNS: [&str; 12] = [
    "RAT", "BUFFLE", "TIGRE", "LAPIN", "DRAGON", "SERPENT", "CHEVAL", "CHEVRE", "SINGE", "COQ",
    "CHIEN", "COCHON",
];
/// The sign that wins Jeu 1 (art. 4.5.1).
pub const COQ: &str = "COQ";
/// Number of symbol cells ("pastilles", art. 4.2).
pub const CELLS: usize = 8;
const COQ_CODE: u8 = 9;
const GAIN1: usize = CELLS;
const GAIN1_CAPTION: usize = CELLS + 1;
const GAIN2: usize = CELLS + 2;
const GAIN2_CAPTION: usize = CELLS + 3;

/// Ambiguity: three or more COQ ("two identical" read as "exactly two" or "at least two").
pub const AMB_COQ3: &str = "three or more COQ";
/// Ambiguity: two different vœux each appear twice or more.
pub const AMB_TWO_VOEUX: &str = "two different repeated voeux";
/// Ambiguity: one vœu appears three times or more.
pub const AMB_VOEU3: &str = "a voeu three times or more";
/// Ambiguity: a zodiac sign other than COQ appears twice or more (reads as a win).
pub const AMB_SIGN_PAIR: &str = "a repeated zodiac sign other than COQ";

/// Feature: Jeu 1 loses and the cells show one single COQ (near miss).
pub const NEAR_MISS_COQ: &str = "near_miss_coq";
/// Feature: Jeu 2 loses and the cells show one single vœu (near miss).
pub const NEAR_MISS_VOEU: &str = "near_miss_voeu";

/// `[coq]` in the spec.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCoq {
    /// The vœux (Jeu 2 symbols): uppercase ASCII words other than the twelve signs.
    pub voeux: Vec<String>,
    /// Every amount a GAIN box may show.
    pub box_amounts: Vec<Money>,
    /// Weight of each amount shown as a decoy in the GAIN box of a losing game
    /// (key: amount, e.g. `"2" = 30`); amounts not listed are never decoys.
    pub decoy_weights: BTreeMap<String, u32>,
    /// Share (0..=1) of tickets whose Jeu 1 loses that show one single COQ (near miss).
    pub near_miss_coq: f64,
    /// Share (0..=1) of tickets whose Jeu 2 loses that show one single vœu (near miss).
    pub near_miss_voeu: f64,
}

/// The coq mechanic, built from a validated `[coq]` section.
pub struct Coq {
    areas: Vec<String>,
    columns: Vec<Column>,
    /// Symbol codes: 0..12 are [`SIGNS`], 12.. are the vœux.
    n_voeux: u8,
    /// The GAIN boxes' amounts and captions (both boxes show the same set).
    gain: AmountBox,
    decoy_weights: Vec<u32>,
    near_miss_coq: u32,
    near_miss_voeu: u32,
}

impl Coq {
    /// Validates `[coq]`. Errors: a vœu that is a sign, not uppercase ASCII or repeated;
    /// fewer than 2 or more than 116 vœux; no box amounts or a repeated one; a decoy weight for an amount
    /// that is not a box amount; all decoy weights zero; a rate outside 0..=1; a box
    /// amount without a caption.
    pub fn new(sec: &Spanned<RawCoq>, captions: &Captions, at: &ErrorAt) -> Result<Coq, SpecError> {
        let span = Some(sec.span().start);
        let raw = sec.get_ref();
        let err = |field: &str, msg: String| at.at(span, format!("coq.{field}"), msg);
        let symbols =
            common::symbol_set(&raw.voeux, &SIGNS, &[], 2).map_err(|e| err("voeux", e))?;
        if symbols.len() > 128 {
            return Err(err("voeux", "at most 116 voeux".into()));
        }
        if raw.box_amounts.is_empty() {
            return Err(err("box_amounts", "expected at least one amount".into()));
        }
        let mut sorted = raw.box_amounts.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != raw.box_amounts.len() || sorted.iter().any(|m| m.is_zero()) {
            return Err(err(
                "box_amounts",
                "amounts must be distinct and above 0".into(),
            ));
        }
        let gain = AmountBox::new(sorted, captions).map_err(|e| at.at(span, "captions", e))?;
        let decoy_weights =
            common::decoy_weights(&raw.decoy_weights, gain.amounts(), "one of box_amounts")
                .map_err(|e| err("decoy_weights", e))?;
        let near_miss_coq =
            common::share(raw.near_miss_coq).map_err(|e| err("near_miss_coq", e))?;
        let near_miss_voeu =
            common::share(raw.near_miss_voeu).map_err(|e| err("near_miss_voeu", e))?;
        let mut columns: Vec<Column> = (1..=CELLS)
            .map(|i| Column {
                name: format!("s{i}"),
                kind: ColumnKind::Symbol,
                values: symbols.clone(),
            })
            .collect();
        columns.push(gain.column("gain1"));
        columns.push(Column::caption("gain1_caption", GAIN1, captions));
        columns.push(gain.column("gain2"));
        columns.push(Column::caption("gain2_caption", GAIN2, captions));
        Ok(Coq {
            areas: vec!["jeu1".into(), "jeu2".into()],
            columns,
            n_voeux: raw.voeux.len() as u8,
            gain,
            decoy_weights,
            near_miss_coq,
            near_miss_voeu,
        })
    }

    fn amount_code(&self, m: Money) -> Option<u8> {
        self.gain.code(m)
    }

    fn decoy(&self, rng: &mut FaceRng) -> u8 {
        weighted(rng, &self.decoy_weights) as u8
    }

    /// The game (0: Jeu 1, 1: Jeu 2) whose near miss `id` is, and the spec's rate of it.
    fn near_miss(&self, id: &str) -> Option<(usize, u32)> {
        match id {
            NEAR_MISS_COQ => Some((0, self.near_miss_coq)),
            NEAR_MISS_VOEU => Some((1, self.near_miss_voeu)),
            _ => None,
        }
    }

    /// Whether `way` can leave game `g` losing: not two wins, and not its single win fixed
    /// on `g` (a free win goes to the other game).
    fn can_lose(way: &Way, g: usize) -> bool {
        match way.wins.as_slice() {
            [] => true,
            [w] => w.area != Some(g as u8),
            _ => false,
        }
    }
}

impl Mechanic for Coq {
    fn name(&self) -> &'static str {
        "coq"
    }

    fn areas(&self) -> &[String] {
        &self.areas
    }

    fn columns(&self) -> &[Column] {
        &self.columns
    }

    fn shown_amounts(&self) -> Vec<Money> {
        self.gain.amounts().to_vec()
    }

    fn check_way(&self, way: &Way) -> Result<(), String> {
        if way.wins.len() > 2 {
            return Err(format!(
                "{} wins, but a coq ticket has 2 games",
                way.wins.len()
            ));
        }
        for w in &way.wins {
            if self.amount_code(w.amount).is_none() {
                return Err(format!("win {} is not one of coq.box_amounts", w.amount));
            }
        }
        if let [a, b] = way.wins.as_slice() {
            if a.area.is_some() && a.area == b.area {
                return Err("both wins name the same game".into());
            }
        }
        Ok(())
    }

    /// `near_miss_coq` (Jeu 1 loses, one single COQ) and `near_miss_voeu` (Jeu 2 loses, one
    /// single vœu), each when the spec's rate is above 0.
    fn features(&self) -> Vec<FeatureInfo> {
        let mut v = Vec::new();
        if self.near_miss_coq > 0 {
            v.push(FeatureInfo {
                id: NEAR_MISS_COQ,
                kind: FeatureKind::NearMiss,
                about: "Jeu 1 loses with one single COQ",
            });
        }
        if self.near_miss_voeu > 0 {
            v.push(FeatureInfo {
                id: NEAR_MISS_VOEU,
                kind: FeatureKind::NearMiss,
                about: "Jeu 2 loses with one single voeu",
            });
        }
        v
    }

    /// A near miss of a game needs a spec rate above 0 and a way that can leave that game
    /// losing (no win, or one win that is not fixed on it).
    fn can_show(&self, way: &Way, id: &str) -> Result<(), String> {
        let (g, rate) = self
            .near_miss(id)
            .ok_or_else(|| format!("the coq mechanic shows no feature \"{id}\""))?;
        if rate == 0 {
            return Err(format!("{id} has a rate of 0 in this spec"));
        }
        if !Self::can_lose(way, g) {
            return Err(format!(
                "{id} needs Jeu {} to lose, and way \"{}\" cannot leave it losing",
                g + 1,
                way.id
            ));
        }
        Ok(())
    }

    /// A near miss whose rate is 1 on a way that never wins its game.
    fn always_shows(&self, way: &Way) -> Vec<&'static str> {
        [(NEAR_MISS_COQ, 0), (NEAR_MISS_VOEU, 1)]
            .into_iter()
            .filter(|&(id, g)| {
                let never_wins = match way.wins.as_slice() {
                    [] => true,
                    [w] => w.area == Some(1 - g as u8),
                    _ => false,
                };
                self.near_miss(id).map(|(_, r)| r) == Some(1_000_000) && never_wins
            })
            .map(|(id, _)| id)
            .collect()
    }

    /// Builds a face for `way` (GAMES.md, coq): each winning game shows its pair (two COQ for
    /// Jeu 1, one vœu twice for Jeu 2) and its amount in its GAIN box; a losing game's box
    /// shows a decoy; the other cells are distinct signs other than COQ, plus one single COQ
    /// or one single vœu as near misses at the spec's rates; cells are then shuffled.
    /// Asked to show a near miss (`show`), a free win goes to the other game and the near
    /// miss is shown instead of drawn at its rate.
    fn synthesize_showing(
        &self,
        way: &Way,
        show: Option<&str>,
        rng: &mut FaceRng,
    ) -> Result<Face, String> {
        let forced = match show {
            Some(id) => {
                self.can_show(way, id)?;
                self.near_miss(id).map(|(g, _)| g)
            }
            None => None,
        };
        // Which game each win goes to: fixed areas first, then free wins to the open games,
        // in an order drawn at random when both are open.
        let mut game_amount: [Option<Money>; 2] = [None, None];
        for w in way.wins.iter().filter(|w| w.area.is_some()) {
            game_amount[w.area.unwrap_or(0) as usize] = Some(w.amount);
        }
        let mut open: ArrayVec<usize, 2> = (0..2).filter(|&g| game_amount[g].is_none()).collect();
        let mut free: ArrayVec<Money, 2> = ArrayVec::new();
        for w in way.wins.iter().filter(|w| w.area.is_none()) {
            free.try_push(w.amount)
                .map_err(|_| "more wins than games")?;
        }
        if !free.is_empty() && open.len() == 2 {
            // A game that must lose for the near miss asked comes last, out of the free
            // win's reach.
            let swap = match forced {
                Some(g) => g == 0,
                None => below(rng, 2) == 1,
            };
            if swap {
                open.swap(0, 1);
            }
        }
        if free.len() > open.len() {
            return Err("more wins than games".into());
        }
        for (g, m) in open.into_iter().zip(free) {
            game_amount[g] = Some(m);
        }

        let mut face = Face::default();
        let mut cells: [u8; CELLS] = [0; CELLS];
        let mut n = 0;
        let nv = u32::from(self.n_voeux);
        if game_amount[0].is_some() {
            cells[0] = COQ_CODE;
            cells[1] = COQ_CODE;
            n = 2;
        } else if forced == Some(0) || chance(rng, self.near_miss_coq) {
            cells[n] = COQ_CODE;
            n += 1;
        }
        if game_amount[1].is_some() {
            let v = 12 + below(rng, nv) as u8;
            cells[n] = v;
            cells[n + 1] = v;
            n += 2;
        } else if forced == Some(1) || chance(rng, self.near_miss_voeu) {
            cells[n] = 12 + below(rng, nv) as u8;
            n += 1;
        }
        // Fill with distinct signs other than COQ: a partial Fisher–Yates over the 11.
        let mut pool: [u8; 11] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11];
        for (k, slot) in (n..CELLS).enumerate() {
            let j = k + below(rng, (pool.len() - k) as u32) as usize;
            pool.swap(k, j);
            cells[slot] = pool[k];
        }
        crate::rng::shuffle(rng, &mut cells);
        face.codes[..CELLS].copy_from_slice(&cells);

        for (g, (col, cap)) in [(GAIN1, GAIN1_CAPTION), (GAIN2, GAIN2_CAPTION)]
            .into_iter()
            .enumerate()
        {
            let code = match game_amount[g] {
                Some(m) => self
                    .amount_code(m)
                    .ok_or("win amount is not a box amount")?,
                None => self.decoy(rng),
            };
            self.gain.show(&mut face, col, cap, code);
        }
        Ok(face)
    }

    /// Judges the face by art. 4.5–4.7: Jeu 1 wins GAIN 1 when two identical COQ appear,
    /// Jeu 2 wins GAIN 2 when two identical vœux appear; the lot is the sum (art. 3).
    /// "Two identical" is read as "at least two"; the cases where readings differ are
    /// reported as ambiguities (GAMES.md policy). Near misses are reported as losing
    /// features: `near_miss_coq` when Jeu 1 loses with one single COQ, `near_miss_voeu` when
    /// Jeu 2 loses with a vœu shown once.
    fn evaluate(&self, face: &Face) -> Evaluation {
        // Bit sets of the symbols seen at least once, twice and three times.
        let (mut once, mut twice, mut thrice) = (0u128, 0u128, 0u128);
        for &c in &face.codes[..CELLS] {
            let bit = 1u128 << c;
            thrice |= twice & bit;
            twice |= once & bit;
            once |= bit;
        }
        let coq = 1u128 << COQ_CODE;
        let signs = (1u128 << SIGNS.len()) - 1;
        let voeux = !signs;
        let repeated_voeux = (twice & voeux).count_ones();
        let coqs_twice = twice & coq != 0;
        let mut ev = Evaluation::default();
        let amounts = |col: usize| self.gain.amount(face.codes[col]);
        if coqs_twice {
            ev.wins.push(AreaWin {
                area: 0,
                amount: amounts(GAIN1),
            });
        }
        if repeated_voeux >= 1 {
            ev.wins.push(AreaWin {
                area: 1,
                amount: amounts(GAIN2),
            });
        }
        if thrice & coq != 0 {
            ev.ambiguities.push(AMB_COQ3);
        }
        if repeated_voeux >= 2 {
            ev.ambiguities.push(AMB_TWO_VOEUX);
        }
        if thrice & voeux != 0 {
            ev.ambiguities.push(AMB_VOEU3);
        }
        if twice & signs & !coq != 0 {
            ev.ambiguities.push(AMB_SIGN_PAIR);
        }
        if !coqs_twice && once & coq != 0 {
            ev.losing_features.push(AreaFeature {
                area: 0,
                name: NEAR_MISS_COQ,
            });
        }
        if repeated_voeux == 0 && once & voeux != 0 {
            ev.losing_features.push(AreaFeature {
                area: 1,
                name: NEAR_MISS_VOEU,
            });
        }
        ev
    }

    /// The eight cells (`cells`), then GAIN 1 (`jeu1`) and GAIN 2 (`jeu2`).
    fn panels(&self) -> Vec<Panel> {
        let panel = |id: &str, cols: Vec<usize>| Panel {
            id: id.into(),
            rows: vec![cols],
        };
        vec![
            panel("cells", (0..CELLS).collect()),
            panel("jeu1", vec![GAIN1]),
            panel("jeu2", vec![GAIN2]),
        ]
    }

    /// Jeu 1: the two COQ and GAIN 1 when it wins (art. 4.5), else the single COQ (a near
    /// miss) and GAIN 1 (a decoy). Jeu 2: the repeated vœu and GAIN 2 when it wins
    /// (art. 4.6), else every vœu shown once (a near miss) and GAIN 2 (a decoy).
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let cells = &face.codes[..CELLS];
        let is_voeu = |c: u8| usize::from(c) >= SIGNS.len();
        let count = |c: u8| cells.iter().filter(|&&d| d == c).count();
        let mut out = Vec::new();
        let mut mark =
            |area: u8, column: usize, kind: MarkKind| out.push(Mark { area, column, kind });
        for (area, gain) in [(0u8, GAIN1), (1, GAIN2)] {
            let wins = ev.wins.iter().any(|w| w.area == area);
            let kind = if wins {
                MarkKind::Win
            } else {
                MarkKind::NearMiss
            };
            for (i, &c) in cells.iter().enumerate() {
                let shown = match (area, wins) {
                    (0, _) => c == COQ_CODE,
                    (_, true) => is_voeu(c) && count(c) >= 2,
                    (_, false) => is_voeu(c),
                };
                if shown {
                    mark(area, i, kind);
                }
            }
            mark(
                area,
                gain,
                if wins { MarkKind::Win } else { MarkKind::Decoy },
            );
        }
        out
    }

    fn describe(&self) -> Vec<String> {
        let sym = &self.columns[0].values;
        let weights: Vec<String> = self
            .gain
            .amounts()
            .iter()
            .zip(&self.decoy_weights)
            .filter(|(_, &w)| w > 0)
            .map(|(m, w)| format!("{m}×{w}"))
            .collect();
        vec![
            format!("play areas: jeu1 (two {COQ} win GAIN 1), jeu2 (two identical voeux win GAIN 2)"),
            format!("signs: {}", sym[..12].join(" ")),
            format!("voeux: {}", sym[12..].join(" ")),
            format!("GAIN box amounts: {}", self.gain.amounts().iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")),
            format!("decoy weights (losing game's GAIN box): {}", weights.join(" ")),
            format!(
                "near misses: one single COQ on {:.2}% of tickets whose Jeu 1 loses, one single voeu on {:.2}% of those whose Jeu 2 loses",
                f64::from(self.near_miss_coq) / 1e4,
                f64::from(self.near_miss_voeu) / 1e4
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::judge;
    use crate::spec::GameSpec;
    use proptest::prelude::*;
    use rand_core::SeedableRng;
    use std::path::Path;

    fn spec() -> GameSpec {
        GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("game_specs/coq.toml"))
            .expect("coq spec loads")
    }

    /// A face from symbol names and the two GAIN amounts (whole euros), captions correct.
    fn face(spec: &GameSpec, cells: [&str; 8], g1: u64, g2: u64) -> Face {
        let cols = spec.mechanic.columns();
        let code = |col: usize, v: &str| {
            cols[col]
                .values
                .iter()
                .position(|x| x == v)
                .expect("known value") as u8
        };
        let mut f = Face::default();
        for (i, c) in cells.iter().enumerate() {
            f.codes[i] = code(i, c);
        }
        for (col, cap, g) in [(GAIN1, GAIN1_CAPTION, g1), (GAIN2, GAIN2_CAPTION, g2)] {
            let m = Money::units(g);
            f.codes[col] = code(col, &m.to_string());
            f.codes[cap] = code(cap, spec.caption(m).expect("caption"));
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
    fn art_4_5_two_coq_win_gain_1() {
        let s = spec();
        let ev = s.mechanic.evaluate(&face(
            &s,
            [
                "COQ", "RAT", "COQ", "TIGRE", "LAPIN", "DRAGON", "CHIEN", "SINGE",
            ],
            500,
            4,
        ));
        assert_eq!(wins(&ev), vec![(0, 500)]);
        assert!(ev.ambiguities.is_empty());
    }

    #[test]
    fn art_4_6_two_identical_voeux_win_gain_2() {
        let s = spec();
        let ev = s.mechanic.evaluate(&face(
            &s,
            [
                "SANTE", "RAT", "COQ", "TIGRE", "SANTE", "DRAGON", "AMOUR", "SINGE",
            ],
            8,
            20,
        ));
        assert_eq!(wins(&ev), vec![(1, 20)]);
        assert!(ev.ambiguities.is_empty());
        assert_eq!(ev.prize(), Money::units(20));
    }

    #[test]
    fn art_3_both_games_add_up() {
        let s = spec();
        let ev = s.mechanic.evaluate(&face(
            &s,
            [
                "SANTE", "COQ", "COQ", "TIGRE", "SANTE", "DRAGON", "RAT", "SINGE",
            ],
            10,
            20,
        ));
        assert_eq!(wins(&ev), vec![(0, 10), (1, 20)]);
        assert_eq!(ev.prize(), Money::units(30));
        assert_eq!(
            s.recognise(&ev.wins)
                .map(|w| s.ways[w as usize].id.as_str()),
            Some("10+20")
        );
    }

    #[test]
    fn art_4_7_no_pair_loses() {
        let s = spec();
        let ev = s.mechanic.evaluate(&face(
            &s,
            [
                "COQ", "RAT", "SANTE", "TIGRE", "LAPIN", "DRAGON", "AMOUR", "SINGE",
            ],
            20000,
            500,
        ));
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.is_empty());
        assert_eq!(s.recognise(&ev.wins), Some(0));
        // One single COQ and single vœux: both near misses, reported on their games.
        let near: Vec<(u8, &str)> = ev
            .losing_features
            .iter()
            .map(|f| (f.area, f.name))
            .collect();
        assert_eq!(near, vec![(0, NEAR_MISS_COQ), (1, NEAR_MISS_VOEU)]);
        assert!(ev.features.is_empty());
    }

    /// Proof marks: the winning pair and its GAIN box; on the losing game, its near miss
    /// and its GAIN box as a decoy.
    #[test]
    fn marks_show_each_games_pair_near_miss_and_decoy() {
        let s = spec();
        let m = &s.mechanic;
        let marks = |f: &Face| {
            let mut v: Vec<(u8, usize, MarkKind)> = m
                .marks(f, &m.evaluate(f))
                .into_iter()
                .map(|k| (k.area, k.column, k.kind))
                .collect();
            v.sort_unstable();
            v
        };
        use MarkKind::{Decoy, NearMiss, Win};
        // Two COQ win GAIN 1; SANTE once is Jeu 2's near miss.
        let f = face(
            &s,
            [
                "COQ", "RAT", "COQ", "SANTE", "TIGRE", "LAPIN", "DRAGON", "CHIEN",
            ],
            8,
            4,
        );
        assert_eq!(
            marks(&f),
            vec![
                (0, 0, Win),
                (0, 2, Win),
                (0, GAIN1, Win),
                (1, 3, NearMiss),
                (1, GAIN2, Decoy)
            ]
        );
        // Two AMOUR win GAIN 2; a single COQ is Jeu 1's near miss.
        let f = face(
            &s,
            [
                "AMOUR", "RAT", "COQ", "AMOUR", "TIGRE", "LAPIN", "DRAGON", "CHIEN",
            ],
            8,
            4,
        );
        assert_eq!(
            marks(&f),
            vec![
                (0, 2, NearMiss),
                (0, GAIN1, Decoy),
                (1, 0, Win),
                (1, 3, Win),
                (1, GAIN2, Win)
            ]
        );
    }

    #[test]
    fn near_misses_only_on_losing_games() {
        let s = spec();
        // Jeu 1 wins (two COQ): no COQ near miss; Jeu 2 loses with one single vœu.
        let ev = s.mechanic.evaluate(&face(
            &s,
            [
                "COQ", "RAT", "COQ", "TIGRE", "SANTE", "DRAGON", "CHIEN", "SINGE",
            ],
            500,
            4,
        ));
        let near: Vec<(u8, &str)> = ev
            .losing_features
            .iter()
            .map(|f| (f.area, f.name))
            .collect();
        assert_eq!(near, vec![(1, NEAR_MISS_VOEU)]);
        let way = |id: &str| &s.ways[s.way_by_id(id).unwrap() as usize];
        assert_eq!(
            s.mechanic.can_show(way("500+500"), NEAR_MISS_COQ),
            Err(
                "near_miss_coq needs Jeu 1 to lose, and way \"500+500\" cannot leave it losing"
                    .into()
            )
        );
        assert_eq!(s.mechanic.can_show(way("20000"), NEAR_MISS_COQ), Ok(()));
        assert_eq!(
            s.mechanic.can_show(way("2"), "carre"),
            Err("the coq mechanic shows no feature \"carre\"".into())
        );
        assert!(s
            .mechanic
            .synthesize_showing(
                way("500+500"),
                Some(NEAR_MISS_VOEU),
                &mut FaceRng::seed_from_u64(1)
            )
            .is_err());
    }

    #[test]
    fn every_ambiguous_case_is_flagged() {
        let s = spec();
        let cases: [([&str; 8], &str); 4] = [
            (
                [
                    "COQ", "COQ", "COQ", "TIGRE", "LAPIN", "DRAGON", "RAT", "SINGE",
                ],
                AMB_COQ3,
            ),
            (
                [
                    "SANTE", "SANTE", "AMOUR", "AMOUR", "LAPIN", "DRAGON", "RAT", "SINGE",
                ],
                AMB_TWO_VOEUX,
            ),
            (
                [
                    "SANTE", "SANTE", "SANTE", "TIGRE", "LAPIN", "DRAGON", "RAT", "SINGE",
                ],
                AMB_VOEU3,
            ),
            (
                [
                    "RAT", "RAT", "COQ", "TIGRE", "LAPIN", "DRAGON", "CHIEN", "SINGE",
                ],
                AMB_SIGN_PAIR,
            ),
        ];
        for (cells, amb) in cases {
            let ev = s.mechanic.evaluate(&face(&s, cells, 2, 2));
            assert_eq!(ev.ambiguities, vec![amb], "{cells:?}");
        }
        // A repeated sign other than COQ wins nothing by the letter.
        let ev = s.mechanic.evaluate(&face(&s, cases[3].0, 2, 2));
        assert!(ev.wins.is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Every way of the spec round-trips: synthesize → evaluate → the same way, no ambiguity.
        #[test]
        fn every_way_round_trips(seed in any::<u64>()) {
            let s = spec();
            let mut rng = FaceRng::seed_from_u64(seed);
            for (id, way) in s.ways.iter().enumerate() {
                for _ in 0..20 {
                    let f = s.mechanic.synthesize(way, &mut rng).unwrap();
                    prop_assert_eq!(judge(&s, &f).realises(&s, id as u16), Ok(()));
                }
            }
        }
    }

    #[test]
    fn synthesis_is_deterministic() {
        let s = spec();
        let make = || {
            let mut rng = FaceRng::seed_from_u64(7);
            (0..50)
                .map(|i| {
                    s.mechanic
                        .synthesize(&s.ways[i % s.ways.len()], &mut rng)
                        .unwrap()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(make(), make());
    }

    #[test]
    fn near_misses_and_decoys_follow_the_spec() {
        let s = spec();
        let mut rng = FaceRng::seed_from_u64(1);
        let n = 20_000;
        let (mut coq, mut voeu) = (0, 0);
        let mut decoys = vec![0u32; 8];
        for _ in 0..n {
            let f = s.mechanic.synthesize(&s.ways[0], &mut rng).unwrap();
            coq += usize::from(f.codes[..CELLS].contains(&COQ_CODE));
            voeu += usize::from(f.codes[..CELLS].iter().any(|&c| c >= 12));
            decoys[f.codes[GAIN1] as usize] += 1;
        }
        // 30 % each; the standard deviation of the share over 20 000 draws is 0.32 %.
        for share in [coq, voeu] {
            let p = share as f64 / n as f64;
            assert!((p - 0.30).abs() < 0.015, "near-miss share {p}");
        }
        // Decoy weights 300:250:150:100:80:60:40:20 over 1000.
        let p2 = f64::from(decoys[0]) / n as f64;
        assert!((p2 - 0.30).abs() < 0.015, "decoy 2 share {p2}");
        assert!(decoys.iter().all(|&d| d > 0), "{decoys:?}");
    }
}
