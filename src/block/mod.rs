//! The vocabulary every part of tirage speaks of a block in, with no I/O: what a block is
//! ([`Kind`]), what a specimen deck promises ([`Promise`], [`Composition`]), what a
//! manifest records besides the block ([`Provenance`], [`Tool`]), the one judge of a face
//! ([`judge()`]), and the layout of a block directory ([`layout`]: every file name tirage
//! writes, and which entries are tirage's).
//!
//! The generator, `verify`, `render` and the output formats depend on it; it depends on
//! none of them.

pub mod deck;
pub mod identity;
pub mod judge;
pub mod layout;
pub mod serial;

pub use judge::{judge, Judgement};

use crate::spec::{GameSpec, WayId};
use crate::styles::FeatureId;
use std::collections::HashMap;

/// What a block's tickets are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A production block (blocks 1..=999): the spec's exact counts, payable codes.
    Production,
    /// A specimen deck for QA (block 0 in every serial): chosen counts, validation codes under
    /// the specimen key — never payable.
    Specimen,
}

impl Kind {
    /// The kind's name in messages and signature comments: `production` or `specimen`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Production => "production",
            Kind::Specimen => "specimen",
        }
    }
}

/// A feature a specimen deck promises to show on a ticket of a way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Promise {
    /// The feature, in the game's table ([`crate::styles::game::Game::features`]).
    pub feature: FeatureId,
    /// The way of the ticket that shows it.
    pub way: WayId,
    /// True: a ticket of `way` is built asked to show it; false: every ticket of `way` shows
    /// it anyway ([`crate::styles::game::Game::always_shows`]).
    pub forced: bool,
}

/// A specimen deck promises more features on a way than it holds tickets of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the deck promises {promised} feature(s) on way \"{way}\" but holds {tickets} ticket(s) of it"
)]
pub struct TooManyPromises {
    /// Way id.
    pub way: String,
    /// Features promised on it that need a ticket of their own.
    pub promised: usize,
    /// Tickets of the way.
    pub tickets: usize,
}

/// The ticket (0-based index) of each of `promises`, given the allocated way of every
/// ticket in print order: the k-th forced promise of a way goes to that way's k-th ticket;
/// a promise not forced to the way's first ticket asked for nothing (else its first).
/// Errors: more forced promises on a way than it has tickets.
pub fn place_promises(
    spec: &GameSpec,
    promises: &[Promise],
    ways: &[WayId],
) -> Result<Vec<u32>, TooManyPromises> {
    // Only the tickets of promised ways are listed (none for a production block).
    let mut of_way: HashMap<WayId, Vec<u32>> =
        promises.iter().map(|p| (p.way, Vec::new())).collect();
    for (i, w) in ways.iter().enumerate() {
        if let Some(v) = of_way.get_mut(w) {
            v.push(i as u32);
        }
    }
    let mut used: HashMap<WayId, usize> = HashMap::new();
    let mut at = vec![0u32; promises.len()];
    for (k, p) in promises.iter().enumerate().filter(|(_, p)| p.forced) {
        let n = used.entry(p.way).or_default();
        let tickets = of_way.get(&p.way).map_or(&[][..], |v| v.as_slice());
        at[k] = *tickets.get(*n).ok_or_else(|| TooManyPromises {
            way: spec.ways[p.way as usize].id.clone(),
            promised: promises
                .iter()
                .filter(|q| q.forced && q.way == p.way)
                .count(),
            tickets: tickets.len(),
        })?;
        *n += 1;
    }
    for (k, p) in promises.iter().enumerate().filter(|(_, p)| !p.forced) {
        let tickets = of_way.get(&p.way).map_or(&[][..], |v| v.as_slice());
        let free = used.get(&p.way).copied().unwrap_or(0);
        at[k] = *tickets
            .get(free)
            .or(tickets.first())
            .ok_or_else(|| TooManyPromises {
                way: spec.ways[p.way as usize].id.clone(),
                promised: 1,
                tickets: 0,
            })?;
    }
    Ok(at)
}

/// How a deck's counts were chosen; recorded in its manifest (`composition`) so that
/// `verify` can recompute the counts and promises from the spec and the deck's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Composition {
    /// The default deck (`deck::every_way`): every way, every feature, the rest losers.
    EveryWay,
    /// The lot table's mix rounded to the deck's size (`deck::proportional`); promises
    /// nothing.
    Proportional,
}

/// What the manifest records besides the block itself.
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// The published commitment lines of the seed shares the master seed was combined
    /// from, in order, each with its signature if signed (`crate::crypto::ceremony`); `None` when
    /// the seed was given whole.
    pub seed_shares: Option<Vec<String>>,
    /// The public beacon mixed into the seed made of shares (hex), if any.
    pub seed_beacon: Option<String>,
    /// The tool identity to record; `None`: this build's ([`Tool::this_build`]).
    /// A replay sets the block's recorded identity, so that the manifest can match.
    pub tool: Option<Tool>,
    /// The spec name to record as `spec.source`; `None`: the file name of the path the spec
    /// was loaded from.
    pub spec_source: Option<String>,
    /// True when the seed was accepted with `--insecure-seed` (a test block): the manifest
    /// and the signature's trusted comment say so.
    pub insecure_seed: bool,
}

/// The tool that wrote a block, as its manifest records it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// `tirage`.
    pub name: String,
    /// Cargo package version.
    pub version: String,
    /// Git commit the tool was built from (40 hex digits), or `unknown`
    /// (see [`crate::block::identity`]). Empty in manifests written before it was recorded.
    #[serde(default)]
    pub git_commit: String,
    /// Hex SHA-256 of the `Cargo.lock` the tool was built with. Empty in manifests written
    /// before it was recorded.
    #[serde(default)]
    pub cargo_lock_sha256: String,
    /// Whether the sources were those of `git_commit` at build time: `clean`, `modified`
    /// or `unknown` (empty in manifests written before it was recorded).
    #[serde(default)]
    pub source: String,
    /// Hex SHA-256 of the executable that wrote the block, or `unknown` (empty in
    /// manifests written before it was recorded).
    #[serde(default)]
    pub binary_sha256: String,
}

impl Tool {
    /// This build's identity ([`crate::block::identity`]).
    pub fn this_build() -> Tool {
        Tool {
            name: "tirage".into(),
            version: crate::block::identity::VERSION.into(),
            git_commit: crate::block::identity::GIT_COMMIT.into(),
            cargo_lock_sha256: crate::block::identity::cargo_lock_sha256().into(),
            source: crate::block::identity::SOURCE_STATE.into(),
            binary_sha256: crate::block::identity::binary_sha256().into(),
        }
    }

    /// True when `self` (the build that generated a block) and `verifying` are the same
    /// build: both binary SHA-256 are recorded (neither empty nor `unknown`) and equal. A
    /// verification by the generating build is not independent of it: a flaw or a tampering
    /// of that build would be shared by both.
    pub fn same_build_as(&self, verifying: &Tool) -> bool {
        let known = |h: &str| !h.is_empty() && h != "unknown";
        known(&self.binary_sha256) && self.binary_sha256 == verifying.binary_sha256
    }
}
