//! The manifest against the spec: what it says of the game, the block and the files, and
//! what it derives from its own counts; the block's number against its folder's name and
//! its kind.

use super::tickets::Expect;
use super::{add, Block, CheckId, Checks, Found, Procedure};
use crate::block::layout::{BIN, CSV, SPEC, VALIDATION};
use crate::block::Kind;
use crate::money::Money;
use crate::output::manifest::Manifest;
use crate::spec::GameSpec;

/// The manifest describes the block the spec makes, and the folder's name gives no other
/// block number ([`CheckId::Manifest`]).
pub(super) struct Describes;

impl Procedure for Describes {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Manifest]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        if let (Some(m), Some(spec)) = (&block.manifest, &block.spec) {
            check_manifest(m, spec, &mut found.checks);
        }
        if let Some(why) = block
            .manifest
            .as_ref()
            .and_then(|m| super::signature::folder_finding(block.dir, m))
        {
            add(&mut found.checks, CheckId::Manifest, None, why);
        }
    }
}

/// The block's number is one of its kind's ([`CheckId::Kind`]).
pub(super) struct BlockNumber;

impl Procedure for BlockNumber {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Kind]
    }

    /// Without a readable manifest the kind is not known (the block is held as a production
    /// block of the number its print header gives): the check is not run.
    fn run(&self, block: &Block, found: &mut Found) {
        if block.manifest.is_none() {
            found.not_run.push(CheckId::Kind);
        } else if let Some((_, e, _)) = block.tallied() {
            check_kind(e, &mut found.checks);
        }
    }
}

/// Production blocks are numbered 1..=999; specimen decks are block 0. (The serials carry
/// the block number, so the Serials check extends this to every ticket.)
fn check_kind(e: &Expect, checks: &mut Checks) {
    match e.kind {
        Kind::Production if e.block == 0 || e.block > 999 => add(
            checks,
            CheckId::Kind,
            None,
            format!("a production block numbered {}, expected 1..=999 (0 is reserved for specimens)", e.block),
        ),
        Kind::Specimen if e.block != 0 => add(
            checks,
            CheckId::Kind,
            None,
            format!("a specimen deck numbered {}: specimens are block 0, outside every production range", e.block),
        ),
        _ => {}
    }
}

/// The manifest's game against the spec's: each field that differs is a finding given to
/// `bad`, named with both values as JSON writes them.
fn check_game(m: &Manifest, spec: &GameSpec, bad: &mut impl FnMut(String)) {
    let g = &m.game;
    let fields: [(&str, String, String); 9] = [
        ("name", json(&g.name), json(&spec.name)),
        (
            "mechanic",
            json(&g.mechanic),
            json(&spec.game.layout().name),
        ),
        (
            "surfaces",
            json(&g.surfaces),
            json(&crate::output::manifest::surfaces(spec)),
        ),
        (
            "legal_reference",
            json(&g.legal_reference),
            json(&spec.legal_reference),
        ),
        (
            "reconstructed",
            json(&g.reconstructed),
            json(&spec.reconstructed),
        ),
        ("note", json(&g.note), json(&spec.note)),
        ("game_code", json(&g.game_code), json(&spec.game_code)),
        ("emission", json(&g.emission), json(&spec.emission)),
        ("currency", json(&g.currency), json(&spec.currency)),
    ];
    for (field, said, want) in fields.iter().filter(|(_, a, b)| a != b) {
        bad(format!(
            "game.{field} is {said}, where spec.toml gives {want}"
        ));
    }
}

/// `v` as compact JSON: how the manifest writes its fields, to name a field's two values
/// alike.
fn json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("(not writable as JSON: {e})"))
}

/// The manifest's description of the block against the spec.
fn check_manifest(m: &Manifest, spec: &GameSpec, checks: &mut Checks) {
    let mut bad = |what: String| add(checks, CheckId::Manifest, None, what);
    // What the manifest says of the game must be what the spec says.
    check_game(m, spec, &mut bad);
    if m.price != spec.price.to_string() {
        bad(format!("price {}, the spec says {}", m.price, spec.price));
    }
    let amounts: Vec<String> = m.tiers.iter().map(|t| t.amount.clone()).collect();
    let want: Vec<String> = spec.tiers.iter().map(|t| t.amount.to_string()).collect();
    if amounts != want {
        bad(format!(
            "tier amounts {amounts:?}, the spec's lot table has {want:?}"
        ));
    }
    let mut names: Vec<&str> = m.files.iter().map(|f| f.name.as_str()).collect();
    names.sort_unstable();
    let mut want_files = vec![CSV, BIN, VALIDATION, SPEC];
    want_files.sort_unstable();
    if names != want_files {
        bad(format!(
            "it lists files {names:?}, expected {want_files:?} once each"
        ));
    }
    if m.format != crate::output::manifest::FORMAT {
        bad(format!(
            "format \"{}\", expected \"{}\"",
            m.format,
            crate::output::manifest::FORMAT
        ));
    }
    if m.game.id != spec.id {
        bad(format!(
            "game \"{}\", the spec is \"{}\"",
            m.game.id, spec.id
        ));
    }
    if m.spec.sha256 != spec.sha256 {
        bad(format!(
            "spec SHA-256 {}, spec.toml has {}",
            m.spec.sha256, spec.sha256
        ));
    }
    if m.pack_size != spec.pack_size || m.packs != m.tickets.div_ceil(spec.pack_size) {
        bad(format!(
            "{} tickets in {} packs of {}; the spec's packs are of {}",
            m.tickets, m.packs, m.pack_size, spec.pack_size
        ));
    }
    let listed: Vec<(String, u64)> = m
        .tiers
        .iter()
        .flat_map(|t| t.ways.iter().map(|w| (w.id.clone(), w.count)))
        .collect();
    // Sums saturate: a count near 2⁶⁴ is a finding, never an overflow.
    let listed_total = listed.iter().fold(m.losers, |a, w| a.saturating_add(w.1));
    if listed_total != u64::from(m.tickets) {
        bad(format!(
            "the way counts add up to {listed_total} tickets, the manifest says {}",
            m.tickets
        ));
    }
    let lots = listed.iter().fold(0u64, |a, w| a.saturating_add(w.1));
    if m.lots != lots {
        bad(format!("{} lots, its way counts give {lots}", m.lots));
    }
    check_manifest_sums(m, spec, &mut bad);
    if m.kind == Kind::Production {
        check_against_lot_table(m, spec, &listed, &mut bad);
    }
}

/// What the manifest derives from its own counts and the spec, worked out again: each
/// tier's ways (the spec's, in order) and count (the sum of its ways'), the payout and its
/// ratio to sales, every file's record count; and the form of what only a replay can check
/// (commitments: 64 hex digits; tool identity; allocation attempts).
fn check_manifest_sums(m: &Manifest, spec: &GameSpec, bad: &mut impl FnMut(String)) {
    check_tiers_and_payout(m, spec, bad);
    for f in &m.files {
        let want = if f.name == SPEC {
            0
        } else {
            u64::from(m.tickets)
        };
        if f.records != want {
            bad(format!(
                "{}: {} records, expected {}",
                f.name,
                crate::money::grouped(f.records),
                crate::money::grouped(want)
            ));
        }
    }
    for (what, c) in [
        ("seed commitment", &m.seed_commitment),
        ("validation-key commitment", &m.validation_key_commitment),
    ] {
        if !hex(c, 64) {
            bad(format!("{what} \"{c}\" is not 64 lowercase hex digits"));
        }
    }
    super::ceremony::check_recorded(m, bad);
    check_tool(&m.tool, bad);
    if m.spec.file != SPEC {
        bad(format!(
            "spec file \"{}\", expected \"{SPEC}\"",
            m.spec.file
        ));
    }
    let unconstrained = m.pack_rules.is_empty();
    if m.allocation_attempts == 0
        || m.allocation_attempts > crate::alloc::MAX_ROUNDS
        || (unconstrained && m.allocation_attempts != 1)
    {
        bad(format!(
            "{} allocation attempt(s): 1..={}, and exactly 1 without pack constraints",
            m.allocation_attempts,
            crate::alloc::MAX_ROUNDS
        ));
    }
}

/// True when `s` is `n` lowercase hex digits.
fn hex(s: &str, n: usize) -> bool {
    s.len() == n
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// A production block's manifest against the spec's lot table: its pack constraints,
/// tickets, lots, payout and way counts (`listed`, losing way apart) are the spec's.
fn check_against_lot_table(
    m: &Manifest,
    spec: &GameSpec,
    listed: &[(String, u64)],
    bad: &mut impl FnMut(String),
) {
    if m.pack_rules != spec.pack_rules.describe() {
        bad(format!(
            "pack constraints {:?}, the spec's are {:?}",
            m.pack_rules,
            spec.pack_rules.describe()
        ));
    }
    if m.tickets != spec.block_size {
        bad(format!(
            "{} tickets, the spec's block has {}",
            m.tickets, spec.block_size
        ));
    }
    if m.lots != spec.lots() || m.payout != spec.payout().to_string() {
        bad(format!(
            "{} lots paying {}, the spec says {} paying {}",
            m.lots,
            m.payout,
            spec.lots(),
            spec.payout()
        ));
    }
    let want: Vec<(String, u64)> = spec.ways[1..]
        .iter()
        .map(|w| (w.id.clone(), u64::from(w.count)))
        .collect();
    if listed != want.as_slice() {
        bad("way counts differ from the spec's lot table".into());
    }
}

/// Each tier's ways (the spec's, in order) and count (the sum of its ways'), the payout
/// and its ratio to sales, worked out again from the manifest's way counts and the spec.
fn check_tiers_and_payout(m: &Manifest, spec: &GameSpec, bad: &mut impl FnMut(String)) {
    for (t, st) in m.tiers.iter().zip(&spec.tiers) {
        let ids: Vec<&str> = t.ways.iter().map(|w| w.id.as_str()).collect();
        let want: Vec<&str> = st
            .ways
            .iter()
            .map(|&w| spec.ways[w as usize].id.as_str())
            .collect();
        if ids != want {
            bad(format!(
                "tier {}: ways {ids:?}, the spec's are {want:?}",
                t.amount
            ));
        }
        if t.item != st.item {
            bad(format!(
                "tier {}: item {:?}, the spec's is {:?}",
                t.amount, t.item, st.item
            ));
        }
        let sum = t.ways.iter().fold(0u64, |a, w| a.saturating_add(w.count));
        if t.count != sum {
            bad(format!(
                "tier {}: count {}, its ways add up to {sum}",
                t.amount, t.count
            ));
        }
    }
    let cents: Option<u64> = m
        .tiers
        .iter()
        .flat_map(|t| &t.ways)
        .map(|w| {
            let way = spec.ways.iter().find(|x| x.id == w.id)?;
            way.amount.cents().checked_mul(w.count)
        })
        .try_fold(0u64, |a, c| a.checked_add(c?));
    match cents {
        Some(c) if Money(c).to_string() != m.payout => bad(format!(
            "payout {}, its way counts give {}",
            m.payout,
            Money(c)
        )),
        Some(c) => {
            let ratio = c as f64 / (spec.price.cents() as f64 * f64::from(m.tickets));
            // JSON's decimal form of a float reads back within an ulp or so, not exactly.
            if (m.payout_ratio - ratio).abs() > 1e-12 * ratio.abs().max(1.0) {
                bad(format!(
                    "payout ratio {}, its payout and sales give {ratio}",
                    m.payout_ratio
                ));
            }
        }
        None => bad("its way counts name a way the spec does not have, or overflow".into()),
    }
    check_item_value(m, spec, bad);
}

/// The payout's split into cash and prizes that are not money (`cash_payout`,
/// `item_value`), worked out again from the manifest's way counts: both present exactly
/// when a tier of the spec is an item, and adding up to the payout.
fn check_item_value(m: &Manifest, spec: &GameSpec, bad: &mut impl FnMut(String)) {
    let item: u64 = m
        .tiers
        .iter()
        .zip(&spec.tiers)
        .filter(|(_, st)| st.item.is_some())
        .flat_map(|(t, _)| &t.ways)
        .filter_map(|w| {
            let way = spec.ways.iter().find(|x| x.id == w.id)?;
            way.amount.cents().checked_mul(w.count)
        })
        .fold(0u64, u64::saturating_add);
    let total: u64 = m.payout.parse::<Money>().map_or(0, Money::cents);
    let want = spec.has_items().then(|| {
        (
            Money(total.saturating_sub(item)).to_string(),
            Money(item).to_string(),
        )
    });
    let got = m.cash_payout.clone().zip(m.item_value.clone());
    if got != want || m.cash_payout.is_some() != m.item_value.is_some() {
        bad(format!(
            "cash payout {:?} and item value {:?}, its way counts give {:?} and {:?}",
            m.cash_payout,
            m.item_value,
            want.as_ref().map(|w| &w.0),
            want.as_ref().map(|w| &w.1)
        ));
    }
}

/// The form of the tool identity the manifest records: name `tirage`, a version, a git
/// commit of 40 hex digits, a Cargo.lock and a binary SHA-256 of 64, a source state (each
/// may be unknown, or empty in manifests written before it was recorded).
fn check_tool(t: &crate::output::manifest::Tool, bad: &mut impl FnMut(String)) {
    let commit_ok = t.git_commit.is_empty() || t.git_commit == "unknown" || hex(&t.git_commit, 40);
    let lock_ok = t.cargo_lock_sha256.is_empty() || hex(&t.cargo_lock_sha256, 64);
    let binary_ok =
        ["", "unknown"].contains(&t.binary_sha256.as_str()) || hex(&t.binary_sha256, 64);
    let source_ok = ["", "clean", "modified", "unknown"].contains(&t.source.as_str());
    let version_ok = !t.version.is_empty()
        && t.version.len() <= 64
        && t.version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".+-".contains(&b));
    if t.name != "tirage" || !version_ok || !commit_ok || !lock_ok || !binary_ok || !source_ok {
        bad("tool: expected name \"tirage\", a version (letters, digits, . + -), a git commit of 40 hex digits (\"unknown\" when not known, empty in manifests written before it was recorded), a Cargo.lock SHA-256 of 64 hex digits (empty likewise), a source state (clean, modified or unknown) and the binary's SHA-256 (64 hex digits or unknown)".into());
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run};
    use super::super::Options;
    use super::*;

    #[test]
    fn a_manifest_with_another_price_than_the_spec_is_a_finding() {
        let mut m = made();
        let opts = Options::default();
        assert_eq!(
            findings(&run(&Describes, &block(&m, &opts)), CheckId::Manifest),
            0
        );
        m.manifest.price = "9.99".into();
        assert_eq!(
            findings(&run(&Describes, &block(&m, &opts)), CheckId::Manifest),
            1
        );
    }

    #[test]
    fn a_production_block_numbered_0_is_a_finding() {
        let m = made();
        let opts = Options::default();
        let mut b = block(&m, &opts);
        assert_eq!(findings(&run(&BlockNumber, &b), CheckId::Kind), 0);
        b.run.expect.as_mut().unwrap().block = 0;
        assert_eq!(findings(&run(&BlockNumber, &b), CheckId::Kind), 1);
    }
}
