//! A specimen deck's composition and promises against the spec and the evaluated tickets.

use super::tickets::TicketRun;
use super::{add, Block, CheckId, Checks, Found, Procedure, PromiseCheck};
use crate::block::Kind;
use crate::output::manifest::Manifest;
use crate::spec::GameSpec;
use crate::styles::{FeatureId, FeatureInfo};

/// A deck's counts and promises are those of its composition ([`CheckId::Features`]).
pub(super) struct Composition;

impl Procedure for Composition {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Features]
    }

    /// Without a readable manifest, a deck's composition and promises are not known: the
    /// check is not run.
    fn run(&self, block: &Block, found: &mut Found) {
        if block.manifest.is_none() {
            found.not_run.push(CheckId::Features);
        } else if let Some((spec, _, _)) = block.tallied() {
            check_composition(block.manifest.as_ref(), spec, &block.run, &mut found.checks);
        }
    }
}

/// Every promised ticket shows its feature on its way ([`CheckId::Features`]); the report
/// lists each promise as checked.
pub(super) struct Promises;

impl Procedure for Promises {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Features]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        if let Some((spec, _, _)) = block.tallied() {
            found.promised =
                check_features(block.manifest.as_ref(), spec, &block.run, &mut found.checks);
        }
    }
}

/// A specimen deck states its composition (manifest `composition`), and its counts and
/// promises are exactly those that composition gives for the spec and the deck's size
/// ([`crate::block::deck::compose`]): the same count of every way (evaluated), the same features
/// on the same ways in the same order, and each promise on the ticket the deck's rule puts
/// it on ([`crate::block::place_promises`], from the evaluated way of every ticket). So a
/// promise removed, added, duplicated or moved is a finding without the seed. A production
/// block states no composition.
fn check_composition(m: Option<&Manifest>, spec: &GameSpec, run: &TicketRun, checks: &mut Checks) {
    let Some(m) = m else {
        return;
    };
    let mut bad = |t: Option<u32>, what: String| add(checks, CheckId::Features, t, what);
    let c = match (m.kind, m.composition) {
        (Kind::Production, None) => return,
        (Kind::Production, Some(_)) => {
            return bad(None, "a production block states a deck composition".into())
        }
        (Kind::Specimen, None) => {
            return bad(
                None,
                "a specimen deck states no composition (every_way or proportional)".into(),
            )
        }
        (Kind::Specimen, Some(c)) => c,
    };
    let name = serde_json::to_value(c)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let deck = match crate::block::deck::compose(spec, c, m.tickets) {
        Ok(d) => d,
        Err(e) => {
            return bad(
                None,
                format!("no {name} deck of {} tickets: {e}", m.tickets),
            )
        }
    };
    let complete = run.ways.len() as u64 == u64::from(m.tickets);
    if complete {
        check_deck_counts(&deck.counts, &name, m.tickets, spec, run, &mut bad);
    }
    let want = deck.promises.unwrap_or_default();
    let listed = m.promised_features.as_deref().unwrap_or_default();
    let same = want.len() == listed.len()
        && want.iter().zip(listed).all(|(p, l)| {
            spec.game.feature_name(p.feature) == l.feature
                && spec.ways[p.way as usize].id == l.way
                && p.forced == l.forced
        });
    if !same {
        let show = |v: Vec<String>| {
            let n = v.len();
            let mut s: Vec<String> = v.into_iter().take(8).collect();
            if n > 8 {
                s.push(format!("… {} more", n - 8));
            }
            format!("{n} [{}]", s.join(", "))
        };
        return bad(
            None,
            format!(
                "the promised features are not those of a {name} deck of {} tickets: expected {}, the manifest lists {}",
                m.tickets,
                show(want.iter().map(|p| format!("{} on {}", spec.game.feature_name(p.feature), spec.ways[p.way as usize].id)).collect()),
                show(listed.iter().map(|l| format!("{} on {}", l.feature, l.way)).collect()),
            ),
        );
    }
    if complete && !want.is_empty() {
        check_placements(&want, listed, spec, run, &mut bad);
    }
}

/// The features a default specimen deck promises (manifest `promised_features`): every
/// feature the spec can show on some way is promised, each promise names a feature of the
/// game and a way of the spec, a promise not built asked for is one its way shows on every
/// ticket, and each promised ticket, evaluated by the rules, is of its way and shows its
/// feature. Production blocks promise nothing. Returns each promise as checked.
fn check_features(
    m: Option<&Manifest>,
    spec: &GameSpec,
    run: &TicketRun,
    checks: &mut Checks,
) -> Vec<PromiseCheck> {
    let Some(m) = m else {
        return Vec::new();
    };
    let Some(list) = &m.promised_features else {
        return Vec::new();
    };
    let mut bad = |t: Option<u32>, what: String| add(checks, CheckId::Features, t, what);
    if m.kind == Kind::Production {
        bad(
            None,
            "a production block with promised features: only specimen decks promise any".into(),
        );
    }
    let mech = &spec.game;
    let known = mech.features();
    for &(id, f) in &known {
        let showable = spec
            .ways
            .iter()
            .any(|w| mech.always_shows(w).contains(&id) || mech.can_show(w, id).is_ok());
        if showable && !list.iter().any(|p| p.feature == f.name) {
            bad(
                None,
                format!(
                    "the deck promises no ticket showing {} ({}), which the spec can show",
                    f.name, f.about
                ),
            );
        }
    }
    let mut out = Vec::new();
    for p in list {
        let shown = check_promise(p, spec, run, &known, &mut bad);
        out.push(PromiseCheck {
            feature: p.feature.clone(),
            way: p.way.clone(),
            ticket: p.ticket,
            forced: p.forced,
            shown,
        });
    }
    out
}

/// Checks promise `p` of a deck of `spec`: it names a feature of the style (`known`) and a
/// way of the spec, a promise not built asked for is one its way shows on every ticket,
/// and its ticket, evaluated by the rules in the pass `run`, is of its way and shows its
/// feature. Findings go to `bad`; returns true when the ticket shows it.
fn check_promise(
    p: &crate::output::manifest::PromisedFeature,
    spec: &GameSpec,
    run: &TicketRun,
    known: &[(FeatureId, &FeatureInfo)],
    bad: &mut impl FnMut(Option<u32>, String),
) -> bool {
    let mech = &spec.game;
    let way = spec.way_by_id(&p.way);
    let mut shown = false;
    let feature = known
        .iter()
        .find(|(_, f)| f.name == p.feature)
        .map(|&(id, _)| id);
    let (Some(feature), Some(w)) = (feature, way) else {
        if feature.is_none() {
            bad(
                Some(p.ticket),
                format!(
                    "promised feature \"{}\" is not one this spec's play styles show",
                    p.feature
                ),
            );
        } else {
            bad(
                Some(p.ticket),
                format!(
                    "promised on way \"{}\", which the spec does not have",
                    p.way
                ),
            );
        }
        return false;
    };
    if !p.forced && !mech.always_shows(&spec.ways[w as usize]).contains(&feature) {
        bad(
            Some(p.ticket),
            format!(
                "{} is promised as shown on every ticket of way \"{}\", which does not always show it",
                p.feature, p.way
            ),
        );
    }
    match run.promised.get(&p.ticket) {
        None => bad(
            Some(p.ticket),
            format!(
                "{} is promised on ticket {}, which the deck does not hold (or whose face could not be read)",
                p.feature, p.ticket
            ),
        ),
        Some((got, shows)) => {
            shown = *got == way && shows.contains(&feature);
            if !shown {
                let got_way = got.map_or("no way".to_string(), |g| {
                    format!("way \"{}\"", spec.ways[g as usize].id)
                });
                let names: Vec<&str> = shows.iter().map(|&f| mech.feature_name(f)).collect();
                bad(
                    Some(p.ticket),
                    format!(
                        "promised to show {} on way \"{}\"; by the rules it is {got_way} showing [{}]",
                        p.feature,
                        p.way,
                        names.join(", ")
                    ),
                );
            }
        }
    }
    shown
}

/// Checks that the ways evaluated in the pass `run` hold `counts`, the count of every way a
/// `name` deck of `tickets` tickets holds. Findings go to `bad`.
fn check_deck_counts(
    counts: &[u32],
    name: &str,
    tickets: u32,
    spec: &GameSpec,
    run: &TicketRun,
    bad: &mut impl FnMut(Option<u32>, String),
) {
    let mut got = vec![0u32; spec.ways.len()];
    for &w in &run.ways {
        got[w as usize] += 1;
    }
    for (w, (&want, &n)) in counts.iter().zip(&got).enumerate() {
        if want != n {
            bad(
                None,
                format!(
                    "a {name} deck of {} tickets holds {want} of way \"{}\"; this one {n}",
                    tickets, spec.ways[w].id
                ),
            );
        }
    }
}

/// Checks that each promise `listed` is on the ticket the deck's rule puts it on
/// ([`crate::block::place_promises`] of `want` over the ways evaluated in the pass `run`).
/// Findings go to `bad`.
fn check_placements(
    want: &[crate::block::Promise],
    listed: &[crate::output::manifest::PromisedFeature],
    spec: &GameSpec,
    run: &TicketRun,
    bad: &mut impl FnMut(Option<u32>, String),
) {
    if let Ok(at) = crate::block::place_promises(spec, want, &run.ways) {
        for (l, &t) in listed.iter().zip(&at) {
            if l.ticket != t + 1 {
                bad(
                    Some(l.ticket),
                    format!(
                        "{} is promised on ticket {}; the deck's rule puts it on ticket {} (its way's ticket in print order)",
                        l.feature,
                        l.ticket,
                        t + 1
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run};
    use super::super::Options;
    use super::*;

    #[test]
    fn a_production_block_stating_a_deck_composition_is_a_finding() {
        let mut m = made();
        let opts = Options::default();
        assert_eq!(
            findings(&run(&Composition, &block(&m, &opts)), CheckId::Features),
            0
        );
        m.manifest.composition = Some(crate::block::Composition::EveryWay);
        assert_eq!(
            findings(&run(&Composition, &block(&m, &opts)), CheckId::Features),
            1
        );
    }

    #[test]
    fn a_production_block_promising_features_is_a_finding() {
        let mut m = made();
        let opts = Options::default();
        let found = run(&Promises, &block(&m, &opts));
        assert_eq!(findings(&found, CheckId::Features), 0);
        assert!(found.promised.is_empty());
        m.manifest.promised_features = Some(Vec::new());
        let found = run(&Promises, &block(&m, &opts));
        assert!(findings(&found, CheckId::Features) > 0);
    }
}
