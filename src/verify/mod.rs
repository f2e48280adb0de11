//! `verify`: the independent re-check of a finished block.
//!
//! It trusts nothing in the block but the spec copy (`spec.toml`), and checks that copy
//! against `SHA256SUMS`, the manifest and, optionally, a reference spec held by the auditor.
//! Then it re-reads `tickets.bin` and `tickets.csv` together, record by record, re-evaluates
//! every face with the rules (the game's evaluator, which never sees how a face was
//! built), and re-tallies. A mismatch is a finding in the [`Report`], never a panic; only a
//! block directory that cannot be read at all is an error.
//!
//! The three ticket files are read once, in large blocks, by a reader thread that hashes them
//! as it goes; the records of each block are checked in parallel and the findings merged in
//! ticket order, so the report never depends on the number of threads.
//!
//! [`inspect`] is a runner: it opens the block (`open.rs`: `SHA256SUMS`, the spec copy, the
//! manifest), makes the ticket pass (`tickets.rs`), then runs every procedure (one trait,
//! `Procedure`: its check, and a run on the opened block that says what it finds) in
//! order on what it opened, and writes the report. One file holds each group of
//! procedures; a new check is a new procedure. Only `replay.rs` names the generator.

pub mod bundle;
mod ceremony;
pub mod codes;
mod deck;
mod digests;
pub mod emission;
pub mod leakage;
mod manifest;
mod open;
mod replay;
pub mod report;
pub mod seal;
mod signature;
pub mod spec_diff;
mod tally;
mod tickets;

use crate::block::layout::{BIN, CSV, MANIFEST, SPEC, SUMS, VALIDATION};
use crate::block::Kind;
use crate::crypto::ceremony::Commitment;
use crate::crypto::rng::{Beacon, Seed, SeedShare};
use crate::crypto::sign::Verifier;
use crate::crypto::validation::ValidationKey;
use crate::money::Money;
use crate::output::manifest::Manifest;
use crate::output::seal::Identities;
use crate::spec::{GameSpec, PackRules, WayId};
use crate::styles::FeatureId;
pub use report::{
    Authenticated, CheckId, CheckResult, FeatureTally, FileDigest, Findings, LosingFeatureTally,
    PromiseCheck, Report, WayTally,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tickets::{Expect, TicketRun};

/// The master seed an auditor holds, to replay the block.
#[derive(Clone, Debug)]
pub struct SeedInput {
    /// The master seed.
    pub seed: Seed,
    /// The shares it was combined from, in order (empty when the seed was given whole):
    /// their commitments are checked against the manifest's `seed_shares`.
    pub shares: Vec<SeedShare>,
    /// The beacon mixed into the seed made of the shares, if any: checked against the
    /// manifest's `seed_beacon`.
    pub beacon: Option<Beacon>,
}

impl SeedInput {
    /// A whole seed.
    pub fn whole(seed: Seed) -> SeedInput {
        SeedInput {
            seed,
            shares: Vec::new(),
            beacon: None,
        }
    }

    /// The seed combined from `shares`, in order, and `beacon` if any
    /// ([`Seed::from_shares_and_beacon`]).
    pub fn from_shares(shares: Vec<SeedShare>, beacon: Option<Beacon>) -> SeedInput {
        SeedInput {
            seed: Seed::from_shares_and_beacon(&shares, beacon.as_ref()),
            shares,
            beacon,
        }
    }
}

/// What verify is asked to do besides the re-check.
#[derive(Clone, Debug, Default)]
pub struct Options<'a> {
    /// The spec the auditor expects the block to be made from (its text must equal the
    /// block's copy).
    pub reference: Option<&'a GameSpec>,
    /// The master seed, to replay the block and compare every file byte for byte.
    pub seed: Option<SeedInput>,
    /// The emission's validation key, which a production block's replay needs (its codes
    /// are made with it, not with the seed).
    pub validation_key: Option<&'a ValidationKey>,
    /// The public key SHA256SUMS must be signed with (`SHA256SUMS.minisig`). A reference
    /// spec that pins the operator's key (`[signing] public_key`) overrides it: a signer
    /// other than the pinned key is then a finding.
    pub signer: Option<&'a Verifier>,
    /// When no signer is given, a production block is a finding (its files could be
    /// anyone's): the command line sets this unless told `--unauthenticated`.
    pub require_signature: bool,
    /// The age identities that open the block's encrypted ticket files (`.age`).
    pub identities: Option<&'a Identities>,
    /// The share commitments the parties published (`--commitments`), in order: the
    /// manifest must record these and no other.
    pub commitments: Option<&'a [Commitment]>,
    /// The beacon published after the commitments (`--beacon`): the manifest must record it.
    pub beacon: Option<Beacon>,
}

/// One file of the replay: the block's digest against the regenerated one.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayFile {
    /// File name.
    pub name: String,
    /// Hex SHA-256 of the block's file, if it could be read.
    pub block_sha256: Option<String>,
    /// Hex SHA-256 of the regenerated file.
    pub replay_sha256: String,
    /// Byte-identical (equal SHA-256).
    pub identical: bool,
}

/// Everything verify found, for the audit report.
#[derive(Debug)]
pub struct Verified {
    /// The report of every procedure.
    pub report: Report,
    /// The block's spec copy, if it loads.
    pub spec: Option<GameSpec>,
    /// The block's manifest, if it parses.
    pub manifest: Option<Manifest>,
    /// The evaluated way of every print record in order (0 when the face realises none, or
    /// no entry when its face codes are out of range); 2 bytes per ticket.
    pub ways: Vec<WayId>,
    /// The leakage gate's measures, when the ticket pass ran.
    pub leakage: Option<Vec<leakage::FieldResult>>,
    /// The replay's files, when a replay ran to the end.
    pub replay: Option<Vec<ReplayFile>>,
    /// The block's validation codes, sorted (for emission checks).
    pub codes: Vec<u64>,
}

/// Why verify could not run at all (exit 2). Anything wrong *inside* a block is a finding.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The path is not a readable directory (`exists`: something is there, a file say).
    #[error("{path}: {}: expected a block directory holding SHA256SUMS, manifest.json, spec.toml, tickets.csv, tickets.bin and validation.csv", if *.exists { "not a directory" } else { "no such file or directory" })]
    NotADirectory {
        /// The path given.
        path: PathBuf,
        /// Whether anything exists at `path`.
        exists: bool,
    },
    /// A thread of the check could not start (the limit on threads reached): nothing
    /// was found, nothing can be said of the block.
    #[error("{error}")]
    Thread {
        /// The error, saying which thread and what to do.
        error: std::io::Error,
    },
    /// The validation codes of an emission could not be sorted on disk (in a temporary
    /// directory): the cross-block check could not run.
    #[error("cannot sort the emission's validation codes in a temporary directory ({}): {error}; set TMPDIR to a directory with room (8 bytes a ticket)", std::env::temp_dir().display())]
    Scratch {
        /// The operating system's error.
        error: std::io::Error,
    },
}

impl VerifyError {
    /// [`VerifyError::NotADirectory`] for `path`, saying whether anything is there.
    pub fn not_a_directory(path: &Path) -> VerifyError {
        VerifyError::NotADirectory {
            path: path.to_path_buf(),
            exists: std::fs::symlink_metadata(path).is_ok(),
        }
    }
}

/// Findings per check.
type Checks = BTreeMap<CheckId, Findings>;

/// `n` and its noun, `one` when `n` is 1, else `many`, the number grouped: "1 row",
/// "3,000 rows".
fn counted(n: u64, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{} {many}", crate::money::grouped(n)),
    }
}

/// Adds a finding to check `id` (on `ticket`, 1-based, when it is about one).
fn add(checks: &mut Checks, id: CheckId, ticket: Option<u32>, detail: impl Into<String>) {
    checks.entry(id).or_default().add(ticket, detail);
}

/// A block as the procedures see it: opened once, its ticket files read once.
pub(crate) struct Block<'a> {
    /// The block directory.
    dir: &'a Path,
    /// What verify was asked to do.
    opts: &'a Options<'a>,
    /// `SHA256SUMS` as listed: (name, hex SHA-256); empty when it cannot be read.
    listed: Vec<(String, String)>,
    /// The bytes of `SHA256SUMS` as read, once: `listed` was parsed from them and the
    /// signature is checked over them (`None` when it cannot be read).
    sums: Option<Vec<u8>>,
    /// Every file read: name → (bytes, hex SHA-256).
    actual: BTreeMap<String, (u64, String)>,
    /// The block's spec copy, if it loads.
    spec: Option<GameSpec>,
    /// The block's manifest, if it parses.
    manifest: Option<Manifest>,
    /// The block's spec copy held against the reference spec, when both load.
    spec_comparison: Option<spec_diff::SpecComparison>,
    /// What the ticket pass found (nothing when it did not run).
    run: TicketRun,
    /// Called with the tickets checked (or replayed) so far.
    progress: &'a (dyn Fn(u64) + Sync),
}

impl Block<'_> {
    /// The spec, what the block must be and the evaluated count of every way, when the
    /// ticket pass went through the whole print file.
    fn tallied(&self) -> Option<(&GameSpec, &Expect, &[u64])> {
        match (&self.spec, &self.run.expect, &self.run.counts) {
            (Some(s), Some(e), Some(c)) => Some((s, e, c)),
            _ => None,
        }
    }
}

/// What the procedures found: findings per check, the checks that could not run, and what
/// the report shows besides.
#[derive(Default)]
pub(crate) struct Found {
    /// Findings per check.
    checks: Checks,
    /// Checks that could not run (reported `not run`, never `pass`).
    not_run: Vec<CheckId>,
    /// Each promise of a deck, as checked.
    promised: Vec<PromiseCheck>,
    /// The replay's files, when a replay ran to the end.
    replay: Option<Vec<ReplayFile>>,
    /// The whole public key (`RW…`) whose signature holds.
    signer: Option<String>,
    /// What that signature vouches for, in words (game, emission, block, kind).
    vouched: Option<String>,
    /// The id of the key the signature was checked against and does not match
    /// ([`Authenticated::mismatched_key`]).
    mismatched_key: Option<String>,
    /// True when a key was given and the block has no readable `SHA256SUMS.minisig`
    /// ([`Authenticated::unsigned`]).
    unsigned: bool,
    /// True for a production block made with a test seed.
    test_seed: bool,
    /// The leakage gate's measures, when the ticket pass ran.
    leakage: Option<Vec<leakage::FieldResult>>,
}

/// One procedure of verify: a check (or a few close ones) run on the opened block after
/// the ticket pass. It reads the block, never writes it, and says what it finds in
/// [`Found`].
pub(crate) trait Procedure: Sync {
    /// The checks it reports under: its findings, and the checks it says it could not run,
    /// are theirs only (the unit tests hold it to that).
    #[cfg_attr(not(test), allow(dead_code))]
    fn checks(&self) -> &'static [CheckId];
    /// Runs it on `block`; findings (and what the report shows besides) go to `found`.
    fn run(&self, block: &Block, found: &mut Found);
}

/// Every procedure after the ticket pass, in the order they run (a check's examples keep
/// that order).
const PROCEDURES: &[&dyn Procedure] = &[
    &manifest::Describes,
    &tally::Leakage,
    &manifest::BlockNumber,
    &tally::PackRules,
    &tally::Counts,
    &deck::Composition,
    &deck::Promises,
    &digests::Digests,
    &replay::Replay,
    &ceremony::Published,
    &signature::Signature,
];

/// Verifies the block in `dir`. `reference`: the spec the auditor expects the block to be
/// made from (its text must equal the block's copy). `progress` is called with the number
/// of tickets checked so far. No replay (see [`inspect`]). Errors:
/// [`VerifyError::NotADirectory`], [`VerifyError::Thread`].
pub fn verify(
    dir: &Path,
    reference: Option<&GameSpec>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, VerifyError> {
    let opts = Options {
        reference,
        ..Options::default()
    };
    verify_block(dir, &opts, progress).map(|(r, _)| r)
}

/// [`verify`], also returning the block's validation codes, sorted (for emission checks).
pub fn verify_block(
    dir: &Path,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Report, Vec<u64>), VerifyError> {
    inspect(dir, opts, progress).map(|v| (v.report, v.codes))
}

/// Every procedure of verify; returns the report and what the audit needs.
pub fn inspect(
    dir: &Path,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Verified, VerifyError> {
    if !dir.is_dir() {
        return Err(VerifyError::not_a_directory(dir));
    }
    // The report compares this executable's SHA-256 with the generating build's: hashed
    // from now on, beside the checks.
    crate::block::identity::hash_binary_ahead();
    let mut found = Found::default();
    let mut block = open::open(dir, opts, progress, &mut found.checks);
    tickets::pass(&mut block, &mut found)?;
    for p in PROCEDURES {
        p.run(&block, &mut found);
    }
    Ok(report(block, found))
}

/// What the verdict of `block` rests on, from what the procedures `found`: the signer and
/// what it vouches for, the reference spec, the replay, the ceremony, the kind
/// (`expect_kind`), encryption and how the codes were made.
fn authenticated(block: &Block, found: &Found, expect_kind: Option<Kind>) -> Authenticated {
    let (opts, manifest) = (block.opts, block.manifest.as_ref());
    let keyed = signature::signature_key(opts).is_some();
    let ceremony = manifest.and_then(|m| {
        let clean = found
            .checks
            .get(&CheckId::Ceremony)
            .is_none_or(|f| f.count == 0);
        ceremony::held_against(m, opts, clean)
    });
    Authenticated {
        ceremony,
        signature_rejected: keyed && found.signer.is_none(),
        vouched: found.vouched.clone(),
        mismatched_key: found.mismatched_key.clone(),
        signer_not_pinned: signature::pinned_mismatch(block.opts).is_some(),
        unsigned: found.unsigned,
        test_seed: found.test_seed,
        specimen: expect_kind == Some(Kind::Specimen),
        manifest_read: manifest.is_some(),
        same_build: Authenticated::same_build_of(manifest),
        validation_key_from_seed: manifest.is_some_and(|m| m.validation_key_from_seed),
        encrypted: manifest.is_some_and(|m| m.files.iter().any(|f| f.encrypted_for.is_some())),
        signer: found.signer.clone(),
        signer_pinned: found.signer.is_some() && signature::pins_a_key(opts),
        reference_spec: opts.reference.map(|r| r.sha256.clone()),
        reference_spec_text_differs: block
            .spec_comparison
            .as_ref()
            .is_some_and(|c| !c.bytes_identical && c.same_meaning()),
        reference_spec_differs: block
            .spec_comparison
            .as_ref()
            .is_some_and(|c| !c.same_meaning()),
        replayed: found
            .replay
            .as_ref()
            .is_some_and(|f| f.iter().all(|f| f.identical)),
        replay_differs: found
            .replay
            .as_ref()
            .is_some_and(|f| f.iter().any(|f| !f.identical)),
    }
}

/// The report of `block` from what the procedures `found`.
fn report(mut block: Block, found: Found) -> Verified {
    let expect_kind = block.manifest.as_ref().map(|m| m.kind).or(block
        .run
        .expect
        .as_ref()
        .map(|e| e.kind));
    let authenticated = authenticated(&block, &found, expect_kind);
    let Found {
        checks,
        not_run,
        promised,
        replay: replayed,
        leakage: leak,
        ..
    } = found;
    let (dir, opts) = (block.dir, block.opts);
    let (spec, manifest) = (block.spec.take(), block.manifest.take());
    let spec_comparison = block.spec_comparison.take();
    let mut run = std::mem::take(&mut block.run);
    let (actual, listed) = (&block.actual, &block.listed);
    let block_number = manifest
        .as_ref()
        .map(|m| m.block)
        .or(run.expect.as_ref().map(|e| e.block));
    let (ways, pack_rules) = way_tallies(spec.as_ref(), &run);
    let files = file_digests(actual, listed, manifest.as_ref());
    let keyed = signature::signature_key(opts).is_some();
    let waived = not_applicable(manifest.as_ref(), opts, &pack_rules, !ways.is_empty());
    let results = check_results(checks, (&not_run, &waived), opts, spec.is_some(), keyed);
    let clean = results.iter().all(CheckResult::is_clean);
    let codes = std::mem::take(&mut run.codes);
    let (features, losing_features) = feature_tallies(spec.as_ref(), &run);
    let report = Report {
        dir: dir.display().to_string(),
        bundle: None,
        game: spec.as_ref().map(|s| s.id.clone()),
        currency: spec.as_ref().map(|s| s.currency.clone()),
        kind: expect_kind,
        block: block_number,
        tickets: run.tickets,
        clean,
        checks: results,
        ways,
        payout: run.counts.as_ref().map(|_| Money(run.payout).to_string()),
        pack_rules: pack_rules.describe(),
        features,
        losing_features,
        promised,
        files,
        spec_comparison,
        authenticated,
        generated_by: manifest.as_ref().map(|m| m.tool.clone()),
    };
    Verified {
        report,
        spec,
        manifest,
        ways: std::mem::take(&mut run.ways),
        leakage: leak,
        replay: replayed,
        codes,
    }
}

/// Every way's tally (the count the block must hold against the evaluated count) and the
/// pack constraints in force, when the spec, what the block must be and the evaluated
/// counts are all known; else none.
fn way_tallies(spec: Option<&GameSpec>, run: &TicketRun) -> (Vec<WayTally>, PackRules) {
    match (spec, &run.expect, &run.counts) {
        (Some(spec), Some(e), Some(counts)) => (
            spec.ways
                .iter()
                .enumerate()
                .map(|(i, w)| WayTally {
                    way: w.id.clone(),
                    amount: w.amount.to_string(),
                    expected: e.counts[i],
                    found: counts[i],
                })
                .collect(),
            tally::pack_rules(spec, e.kind),
        ),
        _ => (Vec::new(), PackRules::default()),
    }
}

/// The digest of every file of a block as read (`actual`: bytes and hex SHA-256 per name),
/// beside what `SHA256SUMS` (`listed`) and the manifest say of it.
fn file_digests(
    actual: &BTreeMap<String, (u64, String)>,
    listed: &[(String, String)],
    manifest: Option<&Manifest>,
) -> Vec<FileDigest> {
    [CSV, BIN, VALIDATION, SPEC, MANIFEST, SUMS]
        .iter()
        .map(|&name| FileDigest {
            name: name.into(),
            bytes: actual.get(name).map(|a| a.0),
            sha256: actual.get(name).map(|a| a.1.clone()),
            sha256sums: listed
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, h)| h.clone()),
            manifest: manifest
                .and_then(|m| m.files.iter().find(|f| f.name == name))
                .map(|f| f.sha256.clone()),
        })
        .collect()
}

/// The procedures that do not apply to a block: the ceremony when its manifest records no
/// seed shares and no beacon and none was published to hold it to (`--commitments`,
/// `--beacon`); the pack constraints when the block is held to none (`rules`: a spec that
/// states none, or a specimen deck), once the counts were evaluated (`tallied`).
fn not_applicable(
    manifest: Option<&Manifest>,
    opts: &Options,
    rules: &PackRules,
    tallied: bool,
) -> Vec<CheckId> {
    let mut out = Vec::new();
    let no_ceremony = manifest.is_some_and(|m| m.seed_shares.is_none() && m.seed_beacon.is_none());
    if no_ceremony && opts.commitments.is_none() && opts.beacon.is_none() {
        out.push(CheckId::Ceremony);
    }
    if tallied && *rules == PackRules::default() {
        out.push(CheckId::PackRules);
    }
    out
}

/// The result of every procedure, in report order: `fail` with findings in `checks`, `n/a`
/// when it does not apply to the block (`not_applicable`), `skipped` when what it needs
/// was not given (a seed, a signer's key, commitments), `not run` when it could not run
/// (`not_run`, or no spec read), else `pass`.
fn check_results(
    mut checks: Checks,
    (not_run, not_applicable): (&[CheckId], &[CheckId]),
    opts: &Options,
    spec_read: bool,
    keyed: bool,
) -> Vec<CheckResult> {
    CheckId::ALL
        .iter()
        .map(|&id| {
            let f = checks.remove(&id).unwrap_or_default();
            let result = if f.count > 0 {
                "fail"
            } else if not_applicable.contains(&id) {
                "n/a"
            } else if (id == CheckId::Replay && opts.seed.is_none())
                || (id == CheckId::Signature && !keyed)
                || (id == CheckId::Ceremony && opts.commitments.is_none() && opts.beacon.is_none())
            {
                "skipped"
            } else if not_run.contains(&id) || (!spec_read && id > CheckId::Spec) {
                "not run"
            } else {
                "pass"
            };
            CheckResult::new(id, result, f)
        })
        .collect()
}

/// The wins per tier and feature shown, and the tally of every losing feature (the
/// style's own first, then any other seen), from the ticket pass `run`.
fn feature_tallies(
    spec: Option<&GameSpec>,
    run: &TicketRun,
) -> (Vec<FeatureTally>, Vec<LosingFeatureTally>) {
    let features = match spec {
        Some(sp) => {
            // By tier, then by the feature's name.
            let mut v: Vec<(usize, &str, u64)> = run
                .features
                .iter()
                .map(|(&(tier, id), &wins)| (tier, sp.game.feature_name(id), wins))
                .collect();
            v.sort_unstable();
            v.into_iter()
                .map(|(tier, name, wins)| FeatureTally {
                    tier: sp.tiers[tier].amount.to_string(),
                    feature: name.to_string(),
                    wins,
                })
                .collect()
        }
        None => Vec::new(),
    };
    let losing_features = match spec {
        Some(sp) if run.counts.is_some() => {
            let known: Vec<FeatureId> = sp
                .game
                .features()
                .iter()
                .filter(|(_, f)| f.kind.losing())
                .map(|&(id, _)| id)
                .collect();
            // The others by name.
            let mut others: Vec<FeatureId> = run
                .losing
                .keys()
                .filter(|k| !known.contains(k))
                .copied()
                .collect();
            others.sort_by_key(|&id| sp.game.feature_name(id));
            known
                .iter()
                .chain(&others)
                .map(|id| {
                    let (areas, tickets) = run.losing.get(id).copied().unwrap_or_default();
                    LosingFeatureTally {
                        feature: sp.game.feature_name(*id).to_string(),
                        areas,
                        tickets,
                    }
                })
                .collect()
        }
        _ => Vec::new(),
    };
    (features, losing_features)
}

/// An in-memory block for the procedures' unit tests: block 1 of the small coq spec, its
/// manifest and digests as the generator makes them (replayed in memory, nothing on the
/// disk), and the tallies the ticket pass gives of it.
#[cfg(test)]
mod testing {
    use super::*;
    use crate::generate::{BlockPlan, Digests};
    use sha2::Digest;

    /// The fixed test seed (never a production seed).
    pub(super) fn seed() -> Seed {
        Seed::from_hex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff").unwrap()
    }

    /// The small coq spec, as a block's copy.
    pub(super) fn spec() -> GameSpec {
        let text = include_str!("../../tests/specs/coq_small.toml");
        GameSpec::parse(Path::new(SPEC), text.into()).unwrap()
    }

    /// What a clean block holds: its spec, manifest, `SHA256SUMS` and digests.
    pub(super) struct Made {
        pub(super) spec: GameSpec,
        pub(super) manifest: Manifest,
        pub(super) listed: Vec<(String, String)>,
        pub(super) sums: Vec<u8>,
        pub(super) actual: BTreeMap<String, (u64, String)>,
        pub(super) ways: Vec<WayId>,
    }

    /// Block 1 of [`spec`] from [`seed`], its validation key derived from the seed.
    pub(super) fn made() -> Made {
        let spec = spec();
        let seed = seed();
        let key = ValidationKey::from_seed(&seed, spec.game_code, spec.emission, &spec.sha256);
        let plan = BlockPlan::production(&spec, &seed, 1)
            .unwrap()
            .validated_by_seed(&key);
        let built = crate::generate::build(&plan, &mut Digests::default()).unwrap();
        let listed = crate::output::sums::parse(&built.sums).unwrap();
        let mut actual: BTreeMap<String, (u64, String)> = built
            .manifest
            .files
            .iter()
            .map(|f| (f.name.clone(), (f.bytes, f.sha256.clone())))
            .collect();
        let sums = built.sums.as_bytes();
        actual.insert(
            SUMS.into(),
            (sums.len() as u64, hex::encode(sha2::Sha256::digest(sums))),
        );
        let json = &built.manifest_json;
        actual.insert(
            MANIFEST.into(),
            (json.len() as u64, hex::encode(sha2::Sha256::digest(json))),
        );
        let counts: Vec<u32> = spec.ways.iter().map(|w| w.count).collect();
        let keys = seed.bound_to(spec.game_code, spec.emission, &spec.sha256);
        let (ways, _) =
            crate::alloc::allocate_packs(&spec, &counts, &spec.pack_rules, &keys, 1).unwrap();
        drop(plan);
        Made {
            manifest: built.manifest,
            listed,
            sums: built.sums.clone().into_bytes(),
            actual,
            ways,
            spec,
        }
    }

    /// The opened block of `m`, as the ticket pass leaves a clean one.
    pub(super) fn block<'a>(m: &Made, opts: &'a Options<'a>) -> Block<'a> {
        let mut checks = Checks::new();
        let expect = Expect::from_manifest(&m.manifest, &m.spec, &mut checks);
        assert!(checks.is_empty());
        let payout = m
            .spec
            .ways
            .iter()
            .zip(&expect.counts)
            .map(|(w, &n)| w.amount.cents() * n)
            .sum();
        let run = TicketRun {
            tickets: expect.tickets,
            counts: Some(expect.counts.clone()),
            ways: m.ways.clone(),
            payout,
            expect: Some(expect),
            ..TicketRun::default()
        };
        Block {
            dir: Path::new("/nonexistent/tirage-block"),
            opts,
            listed: m.listed.clone(),
            sums: Some(m.sums.clone()),
            actual: m.actual.clone(),
            spec: Some(spec()),
            manifest: Some(m.manifest.clone()),
            spec_comparison: None,
            run,
            progress: &|_| {},
        }
    }

    /// Runs `p` alone on `block`, and checks that it reports under its own checks only:
    /// every finding, and every check it says it could not run, is of `p.checks()`.
    pub(super) fn run(p: &dyn Procedure, block: &Block) -> Found {
        let mut found = Found::default();
        p.run(block, &mut found);
        let reported: Vec<CheckId> = found.checks.keys().chain(&found.not_run).copied().collect();
        assert!(
            reported.iter().all(|c| p.checks().contains(c)),
            "a procedure of {:?} reports under {reported:?}",
            p.checks()
        );
        found
    }

    /// Findings of check `id` in `found`.
    pub(super) fn findings(found: &Found, id: CheckId) -> u64 {
        found.checks.get(&id).map_or(0, |f| f.count)
    }
}
