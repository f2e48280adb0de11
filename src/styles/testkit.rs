//! Fixtures the play styles' unit tests share: a style's context, captions, ways, and the
//! round-trip assertion every style must pass (a face drawn for a way pays exactly that way;
//! a losing face wins nothing). Each style's tests keep only its own parameters and rule
//! cases.

use super::game::Game;
use super::style::{StyleCtx, StyleInfo};
use super::{
    AreaFeature, Captions, Evaluation, Face, FaceRng, FeatureId, FeatureInfo, Layout, Mark,
    Refusal, Style,
};
use crate::lots::{Way, Win, LOSE};
use crate::money::Money;
use rand_core::SeedableRng;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

/// The owned parts of a [`StyleCtx`]: a surface `id` with no captions, labels, tiers or
/// way ids and no maximum, until the builder methods add them.
pub(crate) struct Ctx {
    id: String,
    captions: Captions,
    labels: BTreeMap<String, String>,
    tiers: Vec<Money>,
    max: Option<Money>,
    reads: Option<super::shared::Shared>,
}

impl Ctx {
    /// A context for the surface `id`.
    pub(crate) fn new(id: &str) -> Ctx {
        Ctx {
            id: id.to_string(),
            captions: Captions::default(),
            labels: BTreeMap::new(),
            tiers: Vec::new(),
            max: None,
            reads: None,
        }
    }

    /// Reading the shared element `shared` (`reads`).
    pub(crate) fn reads(mut self, shared: super::shared::Shared) -> Ctx {
        self.reads = Some(shared);
        self
    }

    /// With the spec's captions `captions`.
    pub(crate) fn captions(mut self, captions: Captions) -> Ctx {
        self.captions = captions;
        self
    }

    /// With the printed name `text` for panel or play area `key` (`[labels]`).
    pub(crate) fn label(mut self, key: &str, text: &str) -> Ctx {
        self.labels.insert(key.to_string(), text.to_string());
        self
    }

    /// With the tiers' amounts `units`, in the spec's order, in whole units.
    pub(crate) fn tiers(mut self, units: &[u64]) -> Ctx {
        self.tiers = units.iter().map(|&u| Money::units(u)).collect();
        self
    }

    /// With the surface's printed maximum, in whole units.
    pub(crate) fn max(mut self, units: Option<u64>) -> Ctx {
        self.max = units.map(Money::units);
        self
    }

    /// The context a style's constructor gets.
    pub(crate) fn get(&self) -> StyleCtx<'_> {
        StyleCtx {
            id: &self.id,
            captions: &self.captions,
            labels: &self.labels,
            tier_amounts: &self.tiers,
            way_ids: &[],
            max: self.max,
            reads: self.reads.as_ref(),
        }
    }
}

/// Captions for amounts `units` (whole units, ascending), each written `C` and its units
/// (`C20`).
pub(crate) fn captions(units: &[u64]) -> Captions {
    worded(
        &units
            .iter()
            .map(|&u| (u, format!("C{u}")))
            .collect::<Vec<_>>(),
    )
}

/// Captions for `(amount in whole units, text)`, ascending.
pub(crate) fn worded<S: AsRef<str>>(pairs: &[(u64, S)]) -> Captions {
    Captions {
        amounts: pairs.iter().map(|(u, _)| Money::units(*u)).collect(),
        texts: pairs.iter().map(|(_, t)| t.as_ref().to_string()).collect(),
    }
}

/// The way of wins `(area, amount in whole units)`, one per winning play area (`None`: any
/// free area), in tier 0; no wins is the losing way. Its id lists the amounts (`5+2`,
/// `lose`), so a failure names it.
pub(crate) fn way_in(wins: &[(Option<u8>, u64)]) -> Way {
    let id = if wins.is_empty() {
        LOSE.to_string()
    } else {
        let parts: Vec<String> = wins
            .iter()
            .map(|(area, u)| match area {
                Some(a) => format!("{u}@{a}"),
                None => u.to_string(),
            })
            .collect();
        parts.join("+")
    };
    Way {
        id,
        tier: if wins.is_empty() { None } else { Some(0) },
        amount: Money::units(wins.iter().map(|w| w.1).sum()),
        count: 1,
        wins: wins
            .iter()
            .map(|&(area, u)| Win {
                area,
                amount: Money::units(u),
            })
            .collect(),
    }
}

/// The way of wins of `units` (whole units) in any free play areas; see [`way_in`].
pub(crate) fn way(units: &[u64]) -> Way {
    way_in(&units.iter().map(|&u| (None, u)).collect::<Vec<_>>())
}

/// The way of wins of `units` (whole units), all in play area `area`; see [`way_in`].
pub(crate) fn way_at(area: u8, units: &[u64]) -> Way {
    way_in(&units.iter().map(|&u| (Some(area), u)).collect::<Vec<_>>())
}

/// What the assertions need of a style or of a whole game: both draw and judge faces.
/// Features are named as the files print them and looked up in the layout's table.
pub(crate) trait Tested {
    /// The presentation: face columns, play areas, panels, features.
    fn layout(&self) -> &Layout;
    /// The rule's judgement of `face`.
    fn evaluate(&self, face: &Face) -> Evaluation;
    /// The cells a proof marks.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark>;
    /// The features a face can be asked to show, in report order.
    fn features(&self) -> Vec<FeatureInfo>;
    /// Whether a face of `way` can be asked to show feature `id` of the layout's table.
    fn can_show_id(&self, way: &Way, id: FeatureId) -> Result<(), String>;
    /// A face of `way`, showing feature `show` of the layout's table when asked.
    fn synthesize_id(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
    ) -> Result<Face, String>;
    /// Why a face cannot be asked to show `name`, a feature the layout's table lacks.
    fn unknown(&self, way: &Way, name: &str) -> String;
    /// Whether a face of `way` can be asked to show the feature named `name`.
    fn can_show(&self, way: &Way, name: &str) -> Result<(), String> {
        match self.layout().features.find(name) {
            Some(id) => self.can_show_id(way, id),
            None => Err(self.unknown(way, name)),
        }
    }
    /// A face of `way`, showing the feature named `show` when asked.
    fn synthesize_showing(
        &self,
        way: &Way,
        show: Option<&str>,
        rng: &mut FaceRng,
    ) -> Result<Face, String> {
        match show.map(|name| (name, self.layout().features.find(name))) {
            None => self.synthesize_id(way, None, rng),
            Some((_, Some(id))) => self.synthesize_id(way, Some(id), rng),
            Some((name, None)) => Err(self.unknown(way, name)),
        }
    }
    /// A production face of `way`.
    fn synthesize(&self, way: &Way, rng: &mut FaceRng) -> Result<Face, String> {
        self.synthesize_id(way, None, rng)
    }
    /// True when `ev` shows the feature named `name`.
    fn shows(&self, ev: &Evaluation, name: &str) -> bool {
        self.layout()
            .features
            .find(name)
            .is_some_and(|id| ev.shows(id))
    }
    /// The name of what winning play area `area` shows in `ev`, if any.
    fn feature_of(&self, ev: &Evaluation, area: u8) -> Option<&str> {
        ev.feature(area).map(|id| self.layout().features.name(id))
    }
    /// `features` (an evaluation's) as (play area, name).
    fn named(&self, features: &[AreaFeature]) -> Vec<(u8, &str)> {
        features
            .iter()
            .map(|f| (f.area, self.layout().features.name(f.id)))
            .collect()
    }
}

/// A style behind the [`Arc`] its plans keep: each face is drawn from the way planned
/// afresh, as the game plans it when the spec loads.
impl<S: Style + ?Sized> Tested for Arc<S> {
    fn layout(&self) -> &Layout {
        Style::layout(&**self)
    }
    fn evaluate(&self, face: &Face) -> Evaluation {
        Style::evaluate(&**self, face)
    }
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        Style::marks(&**self, face, ev)
    }
    fn features(&self) -> Vec<FeatureInfo> {
        Style::features(&**self)
            .into_iter()
            .map(|id| self.layout().features.get(id).clone())
            .collect()
    }
    fn can_show_id(&self, way: &Way, id: FeatureId) -> Result<(), String> {
        Arc::clone(self)
            .plan(way)
            .and_then(|p| p.can_show(id))
            .map_err(|e| e.to_string())
    }
    fn synthesize_id(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
    ) -> Result<Face, String> {
        let plan = Arc::clone(self).plan(way).map_err(|e| e.to_string())?;
        if let Some(id) = show {
            plan.can_show(id).map_err(|e| e.to_string())?;
        }
        Ok(plan.draw(show, rng))
    }
    fn unknown(&self, _way: &Way, name: &str) -> String {
        no_feature(self.layout(), name).to_string()
    }
}

/// The refusal of feature `name`, which `layout`'s style does not have.
fn no_feature(layout: &Layout, name: &str) -> Refusal {
    Refusal::NoFeature {
        style: layout.name,
        feature: name.to_string(),
    }
}

/// What a style's tests ask of its plan of one way.
pub(crate) trait Planning {
    /// Whether `way` can be planned: `Err` says why not.
    fn check_way(&self, way: &Way) -> Result<(), Refusal>;
    /// Whether a face of `way` can be asked to show the feature named `name`: `Err` says
    /// why not.
    fn can_show_why(&self, way: &Way, name: &str) -> Result<(), Refusal>;
    /// The names of the features every face of `way` shows unasked (none for a way that
    /// cannot be planned).
    fn always_shows(&self, way: &Way) -> Vec<String>;
}

impl<S: Style + ?Sized> Planning for Arc<S> {
    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        Arc::clone(self).plan(way).map(|_| ())
    }
    fn can_show_why(&self, way: &Way, name: &str) -> Result<(), Refusal> {
        let plan = Arc::clone(self).plan(way)?;
        match Style::layout(&**self).features.find(name) {
            Some(id) => plan.can_show(id),
            None => Err(no_feature(Style::layout(&**self), name)),
        }
    }
    fn always_shows(&self, way: &Way) -> Vec<String> {
        let table = &Style::layout(&**self).features;
        Arc::clone(self)
            .plan(way)
            .map(|p| {
                p.always_shows()
                    .iter()
                    .map(|&id| table.name(id).to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Tested for Game {
    fn layout(&self) -> &Layout {
        Game::layout(self)
    }
    fn evaluate(&self, face: &Face) -> Evaluation {
        Game::evaluate(self, face)
    }
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        Game::marks(self, face, ev)
    }
    fn features(&self) -> Vec<FeatureInfo> {
        Game::features(self)
            .into_iter()
            .map(|(_, f)| f.clone())
            .collect()
    }
    fn can_show_id(&self, way: &Way, id: FeatureId) -> Result<(), String> {
        Game::can_show(self, way, id).map_err(|e| e.to_string())
    }
    fn synthesize_id(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
    ) -> Result<Face, String> {
        Game::synthesize_showing(self, way, show, rng).map_err(|e| e.to_string())
    }
    fn unknown(&self, way: &Way, name: &str) -> String {
        format!(
            "way \"{}\" cannot show feature \"{name}\" on any surface: no surface's style has it",
            way.id
        )
    }
}

/// The lines `printed` (a surface's [`super::Printed`] panels, in order) as a ticket in
/// `language` prints them, amounts in euros.
pub(crate) fn printed_text(
    printed: &[super::Printed],
    language: crate::language::Language,
) -> Vec<String> {
    printed
        .iter()
        .flat_map(|p| &p.lines)
        .map(|l| language.line(l, "EUR"))
        .collect()
}

/// `face` as the files print it: `column=value` for every column of `m`.
pub(crate) fn show(m: &(impl Tested + ?Sized), face: &Face) -> String {
    m.layout()
        .columns
        .iter()
        .zip(face.codes.iter().copied())
        .map(|(c, code)| match c.values.get(code as usize) {
            Some(v) => format!("{}={v}", c.name),
            None => format!("{}=#{code}?", c.name),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The texts `face` prints in `m`'s columns, in column order, as the files write them.
pub(crate) fn texts<'m>(m: &'m (impl Tested + ?Sized), face: &Face) -> Vec<&'m str> {
    m.layout()
        .columns
        .iter()
        .zip(face.codes.iter().copied())
        .map(|(c, code)| c.values[code as usize].as_str())
        .collect()
}

/// The first `[[surfaces]]` entry of `info`'s example (`tirage styles`), checked to be of
/// `info`'s style: its id, and its table without `style` and `id` (what
/// [`StyleInfo::build`] takes).
pub(crate) fn example_surface(info: &StyleInfo) -> (String, toml::Table) {
    let doc: toml::Table = toml::from_str(info.example).unwrap();
    let mut t = doc["surfaces"].as_array().unwrap()[0]
        .as_table()
        .unwrap()
        .clone();
    assert_eq!(t.remove("style").unwrap().as_str(), Some(info.name));
    let id = t.remove("id").unwrap().as_str().unwrap().to_string();
    (id, t)
}

/// Evaluates `face` and asserts it pays exactly `way`: every code in its column's
/// dictionary, no ambiguity, one win per win of the way with the same amount and, where the
/// way fixes one, the same play area (a losing face wins nothing). `what` says where the
/// face comes from (a seed). Returns the evaluation.
pub(crate) fn assert_pays(
    m: &(impl Tested + ?Sized),
    way: &Way,
    face: &Face,
    what: &str,
) -> Evaluation {
    let at = || format!("way {} ({what}): {}", way.id, show(m, face));
    for (i, c) in m.layout().columns.iter().enumerate() {
        assert!((face.codes[i] as usize) < c.values.len(), "{}", at());
    }
    let ev = m.evaluate(face);
    assert!(ev.ambiguities.is_empty(), "{:?}, {}", ev.ambiguities, at());
    assert_eq!(ev.prize(), way.amount, "{}", at());
    let mut left: Vec<_> = ev.wins.to_vec();
    let fixed = way.wins.iter().filter(|w| w.area.is_some());
    for w in fixed.chain(way.wins.iter().filter(|w| w.area.is_none())) {
        let hit = left
            .iter()
            .position(|a| a.amount == w.amount && w.area.is_none_or(|x| x == a.area));
        let Some(i) = hit else {
            panic!("no win {w:?} in {:?}, {}", ev.wins, at());
        };
        left.remove(i);
    }
    assert!(left.is_empty(), "wins beyond the way's: {left:?}, {}", at());
    ev
}

/// Draws a face of `way` from each stream seeded in `seeds` and asserts it pays exactly
/// `way` ([`assert_pays`]); returns every seed with its face and evaluation, for the style's
/// own checks.
pub(crate) fn round_trip(
    m: &(impl Tested + ?Sized),
    way: &Way,
    seeds: Range<u64>,
) -> Vec<(u64, Face, Evaluation)> {
    seeds
        .map(|seed| {
            let face = m
                .synthesize(way, &mut FaceRng::seed_from_u64(seed))
                .unwrap_or_else(|e| panic!("way {} seed {seed}: {e}", way.id));
            let ev = assert_pays(m, way, &face, &format!("seed {seed}"));
            (seed, face, ev)
        })
        .collect()
}

/// The face of `way` drawn from stream `seed`, drawn twice to assert that the same stream
/// gives the same face.
pub(crate) fn drawn_twice(m: &(impl Tested + ?Sized), way: &Way, seed: u64) -> Face {
    let draw = || {
        m.synthesize(way, &mut FaceRng::seed_from_u64(seed))
            .unwrap_or_else(|e| panic!("way {} seed {seed}: {e}", way.id))
    };
    let face = draw();
    assert_eq!(
        face,
        draw(),
        "way {} seed {seed}: not deterministic",
        way.id
    );
    face
}

/// Draws `n` faces of `way` one after the other from the stream seeded `seed`, asserts each
/// pays `way` ([`assert_pays`]), and counts those showing feature `id` unasked.
pub(crate) fn count_showing(
    m: &(impl Tested + ?Sized),
    way: &Way,
    id: &str,
    n: usize,
    seed: u64,
) -> usize {
    let mut rng = FaceRng::seed_from_u64(seed);
    (0..n)
        .filter(|i| {
            let face = m
                .synthesize(way, &mut rng)
                .unwrap_or_else(|e| panic!("way {} stream {seed} face {i}: {e}", way.id));
            let ev = assert_pays(m, way, &face, &format!("stream {seed} face {i}"));
            m.shows(&ev, id)
        })
        .count()
}

/// [`round_trip`] for faces asked to show feature `id`: each also shows it.
pub(crate) fn round_trip_showing(
    m: &(impl Tested + ?Sized),
    way: &Way,
    id: &str,
    seeds: Range<u64>,
) -> Vec<(u64, Face, Evaluation)> {
    seeds
        .map(|seed| {
            let face = m
                .synthesize_showing(way, Some(id), &mut FaceRng::seed_from_u64(seed))
                .unwrap_or_else(|e| panic!("way {} showing {id} seed {seed}: {e}", way.id));
            let what = format!("showing {id}, seed {seed}");
            let ev = assert_pays(m, way, &face, &what);
            assert!(
                m.shows(&ev, id),
                "no {id}: way {} ({what}): {}",
                way.id,
                show(m, &face)
            );
            (seed, face, ev)
        })
        .collect()
}

/// Judges `n` faces of codes drawn at random from each column's dictionary (stream 7),
/// whatever they show: evaluation and marks never panic, every win and mark names one of
/// `m`'s play areas and every mark one of its columns. Returns the evaluations.
pub(crate) fn judge_any_faces(m: &(impl Tested + ?Sized), n: usize) -> Vec<Evaluation> {
    let mut rng = FaceRng::seed_from_u64(7);
    (0..n)
        .map(|i| {
            let mut f = Face::default();
            for (code, c) in f.codes.iter_mut().zip(&m.layout().columns) {
                *code = crate::crypto::rng::below(&mut rng, c.values.len() as u32) as u8;
            }
            let ev = m.evaluate(&f);
            let areas = m.layout().areas.len();
            let at = || format!("face {i}: {}", show(m, &f));
            for w in &ev.wins {
                assert!(usize::from(w.area) < areas, "{w:?}, {}", at());
            }
            for k in m.marks(&f, &ev) {
                let known = usize::from(k.area) < areas && k.column < m.layout().columns.len();
                assert!(known, "{k:?}, {}", at());
            }
            ev
        })
        .collect()
}

/// For every feature of `m`: when a face of `way` may be asked to show it
/// ([`super::Plan::can_show`]), the faces asked from streams `seeds` pay `way` and show it
/// ([`round_trip_showing`]); when not, asking for it is an error, never a face without it.
pub(crate) fn features_as_asked(m: &(impl Tested + ?Sized), way: &Way, seeds: Range<u64>) {
    for f in m.features() {
        match m.can_show(way, &f.name) {
            Ok(()) => {
                round_trip_showing(m, way, &f.name, seeds.clone());
            }
            Err(why) => {
                let mut rng = FaceRng::seed_from_u64(seeds.start);
                let face = m.synthesize_showing(way, Some(&f.name), &mut rng);
                assert_eq!(face, Err(why), "way {} showing {}", way.id, f.name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::styles::reveal;

    /// One reveal box showing 0, 2 or 5.
    fn one_box() -> Arc<dyn Style> {
        let ctx = Ctx::new("cash").captions(captions(&[0, 2, 5]));
        let table = toml::from_str("amounts = [2, 5]").unwrap();
        Arc::from((reveal::INFO.build)(table, &ctx.get()).unwrap())
    }

    /// The message `f` panics with.
    fn panic_of(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let e = std::panic::catch_unwind(f).expect_err("a panic");
        e.downcast_ref::<String>().cloned().unwrap_or_default()
    }

    #[test]
    fn ways_are_named_by_their_wins() {
        assert_eq!(way(&[]).id, "lose");
        assert_eq!(way(&[]).tier, None);
        let w = way_in(&[(Some(1), 5), (None, 2)]);
        assert_eq!(w.id, "5@1+2");
        assert_eq!(w.amount, Money(700));
        assert_eq!(w.wins[0].area, Some(1));
        assert_eq!(way_at(0, &[3]).wins[0].area, Some(0));
    }

    /// A face that pays another way, or wins on a losing way, fails the assertion, which
    /// names the way, where the face comes from and what it shows.
    #[test]
    fn a_face_paying_another_way_fails_and_is_shown() {
        let m = one_box();
        let mut five = Face::default();
        five.codes[0] = 2;
        five.codes[1] = 2;
        assert_eq!(show(&m, &five), "cash_amount=5 cash_caption=C5");
        let ev = assert_pays(&m, &way(&[5]), &five, "by hand");
        assert_eq!(ev.prize(), Money(500));
        let msg = panic_of(|| {
            assert_pays(&one_box(), &way(&[2]), &five, "by hand");
        });
        assert!(msg.contains("way 2 (by hand): cash_amount=5"), "{msg}");
        let msg = panic_of(|| {
            assert_pays(&one_box(), &way(&[]), &five, "seed 3");
        });
        assert!(msg.contains("way lose (seed 3): cash_amount=5"), "{msg}");
        // The right amount in an area the way does not fix.
        let msg = panic_of(|| {
            assert_pays(&one_box(), &way_at(1, &[5]), &five, "by hand");
        });
        assert!(msg.contains("no win"), "{msg}");
        // A code outside its column's dictionary.
        let mut bad = five;
        bad.codes[0] = 9;
        let msg = panic_of(|| {
            assert_pays(&one_box(), &way(&[5]), &bad, "by hand");
        });
        assert!(msg.contains("cash_amount=#9?"), "{msg}");
    }

    #[test]
    fn round_trips_draw_every_seed() {
        let m = one_box();
        let faces = round_trip(&m, &way(&[2]), 0..5);
        let seeds: Vec<u64> = faces.iter().map(|(s, _, _)| *s).collect();
        assert_eq!(seeds, [0, 1, 2, 3, 4]);
        assert!(faces.iter().all(|(_, _, ev)| ev.prize() == Money(200)));
    }

    /// Random faces of one box show each of its amounts, the losing 0 included.
    #[test]
    fn any_faces_are_random_codes_of_the_dictionaries() {
        let m = one_box();
        let mut prizes: Vec<u64> = judge_any_faces(&m, 60)
            .iter()
            .map(|ev| ev.prize().cents())
            .collect();
        prizes.sort_unstable();
        prizes.dedup();
        assert_eq!(prizes, [0, 200, 500]);
    }
}
