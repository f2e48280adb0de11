//! A spec's rules in words, surface by surface, beside the règlement's reference: what
//! `tirage check` prints and `tirage preview` shows, so that a reviewer holding the
//! règlement can see a game forced onto the wrong play style before anything is printed.
//!
//! Each surface gives its play style (its name and the industry's term), how the style wins
//! ([`crate::styles::style::StyleInfo::about`]), what a naive player reads as a win on it
//! ([`crate::styles::style::StyleInfo::naive`], which no face contradicts) and its settings
//! in this spec (the style's own description of the surface).

use super::GameSpec;
use crate::money::Money;
use crate::styles::style;

/// One surface's rule in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurfaceRule {
    /// The surface's id (`[[surfaces]] id`).
    pub id: String,
    /// Its play style's name (`reveal`).
    pub style: &'static str,
    /// The industry's name for the style (`reveal (instant cash)`).
    pub term: &'static str,
    /// The surface's printed maximum (`max`), in cents.
    pub max: Option<Money>,
    /// How the style wins, in general.
    pub rule: &'static str,
    /// What a naive player reads as a win on the style: no face contradicts it.
    pub naive: &'static str,
    /// The surface's settings in this spec, one sentence or item a line.
    pub settings: Vec<String>,
}

/// Every surface's rule in words, in the spec's order.
pub fn rules(spec: &GameSpec) -> Vec<SurfaceRule> {
    spec.game
        .surfaces()
        .iter()
        .map(|s| {
            let info = style::find(s.style);
            SurfaceRule {
                id: s.id.clone(),
                style: s.style,
                term: info.map_or("", |i| i.term),
                max: s.max,
                rule: info.map_or("", |i| i.about),
                naive: info.map_or("", |i| i.naive),
                settings: settings(s),
            }
        })
        .collect()
}

/// A surface's settings in words: its style's description, and what its factor does when
/// it is multiplied.
fn settings(s: &crate::styles::game::Surface) -> Vec<String> {
    let mut v = s.rule.layout().description.clone();
    if s.multiplier > 1 {
        v.push(format!(
            "Printed {}: every win on this surface pays {} times the amount it shows (the ways name what a win pays).",
            crate::styles::multiply::caption(s.multiplier),
            s.multiplier
        ));
    }
    v
}

/// What the ticket prints beside its surfaces and reads with them (its multiplier box), in
/// words; empty when it has none.
pub fn ticket_wide(spec: &GameSpec) -> Vec<String> {
    spec.game
        .multiplier_box()
        .map(|b| b.describe())
        .unwrap_or_default()
}

/// Every shared element (`[[shared]]`) in words, with the surfaces that read it, in the
/// spec's order; empty when the spec has none.
pub fn shared(spec: &GameSpec) -> Vec<String> {
    let surfaces = spec.game.surfaces();
    spec.game
        .shared()
        .iter()
        .enumerate()
        .map(|(e, element)| {
            let readers: Vec<&str> = surfaces
                .iter()
                .filter(|s| s.reads() == Some(e))
                .map(|s| s.id.as_str())
                .collect();
            element.describe(&readers)
        })
        .collect()
}

/// Each prize that is not money (a tier's `item`) in words, in the lot table's order: where
/// a face prints it and what it stands for, since the surfaces' settings give amounts in
/// figures and a face never shows this one's. Empty when every prize is cash.
pub fn items(spec: &GameSpec) -> Vec<String> {
    spec.tiers
        .iter()
        .filter_map(|t| {
            let item = t.item.as_deref()?;
            let value = t.amount.with_currency(&spec.currency);
            Some(format!(
                "Prize not money: \"{item}\" ({} of the block's tickets) is printed wherever a face would show {value}, in amount cells, amount boxes and pay legends alike; below, {} stands for it. It wins \"{item}\", not cash; {value} is its stated value, counted apart from the cash payout.",
                t.count,
                t.amount
            ))
        })
        .collect()
}

/// The rules in words as `tirage check` prints them: a heading, the spec's
/// `legal_reference` on the next line, its prizes that are not money, then per surface its style and term (and printed maximum), the style's
/// rule, its naive reading and the spec's settings, each indented under it.
pub fn text(spec: &GameSpec) -> String {
    let mut s = format!(
        "the rules in words, surface by surface, to hold against the règlement (legal_reference):\n  {}\n",
        spec.legal_reference
    );
    for line in items(spec).iter().chain(&shared(spec)) {
        s += &format!("{line}\n");
    }
    for r in rules(spec) {
        s += &format!("surface \"{}\": {} — {}", r.id, r.style, r.term);
        if let Some(m) = r.max {
            s += &format!(", printed maximum {}", m.with_currency(&spec.currency));
        }
        s += "\n";
        s += &format!("  the style's rule: {}\n", r.rule);
        s += &format!("  a naive player reads: {}\n", r.naive);
        s += "  as this spec sets it:\n";
        for line in &r.settings {
            s += &format!("    {line}\n");
        }
    }
    for line in ticket_wide(spec) {
        s += &format!("{line}\n");
    }
    s
}
