//! `verify`: the independent re-check of a finished block.
//!
//! It trusts nothing in the block but the spec copy (`spec.toml`), and checks that copy
//! against `SHA256SUMS`, the manifest and, optionally, a reference spec held by the auditor.
//! Then it re-reads `tickets.bin` and `tickets.csv` together, record by record, re-evaluates
//! every face with the rules (the mechanic's evaluator, which never sees how a face was
//! built), and re-tallies. A mismatch is a finding in the [`Report`], never a panic; only a
//! block directory that cannot be read at all is an error.
//!
//! The three ticket files are read once, in large blocks, by a reader thread that hashes them
//! as it goes; the records of each block are checked in parallel and the findings merged in
//! ticket order, so the report never depends on the number of threads.

pub mod codes;
pub mod emission;
pub mod leakage;
pub mod report;
pub mod seal;

use crate::block::layout::{BIN, CSV, MANIFEST, SEALED_SUFFIX, SPEC, SUMS, SUMS_SIG, VALIDATION};
use crate::block::{judge, Kind, Promise, Provenance};
use crate::games::{ColumnKind, Face, FeatureKind};
use crate::generate::{self, BlockPlan};
use crate::money::Money;
use crate::output::manifest::{Manifest, PromisedFeature};
use crate::output::{print_file, sums, tickets_csv, validation_csv, Ticket};
use crate::rng::{Seed, SeedShare};
use crate::seal::{Identities, Recipients};
use crate::serial::{is_valid, PackSerials};
use crate::sign::Verifier;
use crate::spec::{GameSpec, PackRules, WayId};
use crate::validation::{ValidationKey, Validator};
use leakage::Tally;
use rayon::prelude::*;
pub use report::{
    Authenticated, CheckId, CheckResult, FeatureTally, FileDigest, Findings, LosingFeatureTally,
    PromiseCheck, Report, WayTally,
};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};

/// CSV bytes read per block.
const READ_BLOCK: usize = 8 << 20;
/// Tickets checked per parallel task.
const TASK_TICKETS: usize = 4096;

/// The master seed an auditor holds, to replay the block.
#[derive(Clone, Debug)]
pub struct SeedInput {
    /// The master seed.
    pub seed: Seed,
    /// The shares it was combined from, in order (empty when the seed was given whole):
    /// their commitments are checked against the manifest's `seed_shares`.
    pub shares: Vec<SeedShare>,
}

impl SeedInput {
    /// A whole seed.
    pub fn whole(seed: Seed) -> SeedInput {
        SeedInput {
            seed,
            shares: Vec::new(),
        }
    }

    /// The seed combined from `shares`, in order ([`Seed::from_shares`]).
    pub fn from_shares(shares: Vec<SeedShare>) -> SeedInput {
        SeedInput {
            seed: Seed::from_shares(&shares),
            shares,
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
    /// The public key SHA256SUMS must be signed with (`SHA256SUMS.minisig`).
    pub signer: Option<&'a Verifier>,
    /// When no signer is given, a production block is a finding (its files could be
    /// anyone's): the command line sets this unless told `--unauthenticated`.
    pub require_signature: bool,
    /// The age identities that open the block's encrypted ticket files (`.age`).
    pub identities: Option<&'a Identities>,
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

type Checks = BTreeMap<CheckId, Findings>;

fn add(checks: &mut Checks, id: CheckId, ticket: Option<u32>, detail: impl Into<String>) {
    checks.entry(id).or_default().add(ticket, detail);
}

/// What the block must be: its kind, number, size and the count of every way.
struct Expect {
    kind: Kind,
    block: u32,
    tickets: u64,
    counts: Vec<u64>,
}

impl Expect {
    /// From the manifest: a production block must have the spec's counts (checked
    /// separately); a specimen deck declares its own composition.
    fn from_manifest(m: &Manifest, spec: &GameSpec, checks: &mut Checks) -> Expect {
        let counts = match m.kind {
            Kind::Production => spec.ways.iter().map(|w| u64::from(w.count)).collect(),
            Kind::Specimen => {
                let mut c = vec![0u64; spec.ways.len()];
                c[0] = m.losers;
                for w in m.tiers.iter().flat_map(|t| &t.ways) {
                    match spec.way_by_id(&w.id) {
                        Some(id) => c[id as usize] = w.count,
                        None => add(
                            checks,
                            CheckId::Manifest,
                            None,
                            format!(
                                "the manifest lists way \"{}\", which the spec does not have",
                                w.id
                            ),
                        ),
                    }
                }
                c
            }
        };
        Expect {
            kind: m.kind,
            block: m.block,
            tickets: u64::from(m.tickets),
            counts,
        }
    }

    /// Without a readable manifest: a production block of the spec.
    fn production(spec: &GameSpec, block: u32) -> Expect {
        Expect {
            kind: Kind::Production,
            block,
            tickets: u64::from(spec.block_size),
            counts: spec.ways.iter().map(|w| u64::from(w.count)).collect(),
        }
    }
}

/// Verifies the block in `dir`. `reference`: the spec the auditor expects the block to be
/// made from (its text must equal the block's copy). `progress` is called with the number
/// of tickets checked so far. No replay (see [`inspect`]). Errors: only
/// [`VerifyError::NotADirectory`].
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
    let reference = opts.reference;
    let no_ids = Identities::default();
    let ids = opts.identities.unwrap_or(&no_ids);
    if !dir.is_dir() {
        return Err(VerifyError::not_a_directory(dir));
    }
    let mut checks: Checks = BTreeMap::new();
    let mut not_run: Vec<CheckId> = Vec::new();
    // Only regular files, never more than a block's file of that kind can hold.
    let read = |name: &str| {
        let limit = if name == SPEC {
            crate::spec::MAX_SPEC_BYTES
        } else {
            crate::output::MAX_JSON
        };
        crate::output::read_regular(&dir.join(name), limit)
    };

    // SHA256SUMS.
    let listed: Vec<(String, String)> = sums::read(dir).unwrap_or_else(|why| {
        add(
            &mut checks,
            CheckId::Sha256sums,
            None,
            format!("{SUMS}: {why}"),
        );
        Vec::new()
    });
    for name in [CSV, BIN, VALIDATION, SPEC, MANIFEST] {
        // A ticket file is listed as delivered: in clear, or encrypted (`.age`).
        let sealed = format!("{name}{}", SEALED_SUFFIX);
        let counted = |(n, _): &&(String, String)| {
            n == name || (n == &sealed && ![SPEC, MANIFEST].contains(&name))
        };
        match listed.iter().filter(counted).count() {
            0 => add(
                &mut checks,
                CheckId::Sha256sums,
                None,
                format!("SHA256SUMS does not list {name}"),
            ),
            1 => {}
            n => add(
                &mut checks,
                CheckId::Sha256sums,
                None,
                format!("SHA256SUMS lists {name} {n} times, expected once"),
            ),
        }
    }
    let mut actual: BTreeMap<String, (u64, String)> = BTreeMap::new();
    // The encrypted ticket files as delivered, for SHA256SUMS (their plaintexts are hashed
    // by the ticket pass, for the manifest).
    for name in [CSV, BIN, VALIDATION] {
        let sealed = format!("{name}{}", SEALED_SUFFIX);
        if let Some(h) = hash_file(&dir.join(&sealed)) {
            actual.insert(sealed, h);
        }
    }
    for name in [SPEC, MANIFEST, SUMS] {
        if let Ok(b) = read(name) {
            actual.insert(
                name.into(),
                (b.len() as u64, hex::encode(Sha256::digest(&b))),
            );
        }
    }

    // The spec copy.
    let spec_text = read(SPEC).and_then(|b| {
        String::from_utf8(b)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
    });
    let spec = match spec_text {
        Err(e) => {
            add(
                &mut checks,
                CheckId::Spec,
                None,
                format!("cannot read spec.toml: {e}"),
            );
            None
        }
        Ok(text) => match GameSpec::parse(&dir.join(SPEC), text) {
            Err(e) => {
                add(
                    &mut checks,
                    CheckId::Spec,
                    None,
                    format!("spec.toml does not validate: {e}"),
                );
                None
            }
            Ok(s) => Some(s),
        },
    };
    if let (Some(s), Some(r)) = (&spec, reference) {
        if s.sha256 != r.sha256 {
            add(
                &mut checks,
                CheckId::Spec,
                None,
                format!(
                    "spec.toml (SHA-256 {}) is not the reference spec {} (SHA-256 {})",
                    s.sha256,
                    r.path.display(),
                    r.sha256
                ),
            );
        }
    }

    // The manifest.
    let manifest: Option<Manifest> = match read(MANIFEST) {
        Err(e) => {
            add(
                &mut checks,
                CheckId::Manifest,
                None,
                format!("cannot read manifest.json: {e}"),
            );
            None
        }
        Ok(b) => match serde_json::from_slice::<Manifest>(&b) {
            Err(e) => {
                add(
                    &mut checks,
                    CheckId::Manifest,
                    None,
                    format!("manifest.json does not parse: {e}"),
                );
                None
            }
            Ok(m) => Some(m),
        },
    };

    let mut run = TicketRun::default();
    let mut expect_kind = manifest.as_ref().map(|m| m.kind);
    let mut block = manifest.as_ref().map(|m| m.block);
    let mut ways = Vec::new();
    let mut pack_rules = PackRules::default();
    let mut leak: Option<Vec<leakage::FieldResult>> = None;
    let mut promised = Vec::new();
    let promised_tickets: HashSet<u32> = manifest
        .iter()
        .flat_map(|m| m.promised_features.iter().flatten())
        .map(|p| p.ticket)
        .collect();
    match &spec {
        None => not_run.extend([
            CheckId::PrintHeader,
            CheckId::CsvHeader,
            CheckId::RecordCount,
            CheckId::Counts,
            CheckId::Leakage,
        ]),
        Some(spec) => {
            let expect = manifest
                .as_ref()
                .map(|m| Expect::from_manifest(m, spec, &mut checks));
            if let Some(m) = &manifest {
                check_manifest(m, spec, &mut checks);
            }
            run = check_tickets(
                dir,
                ids,
                spec,
                expect,
                &promised_tickets,
                &mut checks,
                progress,
            );
            match &run.leakage {
                Some(t) => {
                    let results = t.results();
                    for r in results.iter().filter(|r| r.result == "fail") {
                        add(
                            &mut checks,
                            CheckId::Leakage,
                            None,
                            format!(
                                "{} ({}): chi-square {:.1} on {} df, p = {:.1e}, mutual information {:.4} bits (an independent field: {:.6}): this printed field predicts win or lose",
                                r.field,
                                r.measures,
                                r.chi_square.unwrap_or(0.0),
                                r.df.unwrap_or(0.0),
                                r.p_value.unwrap_or(0.0),
                                r.mi_bits.unwrap_or(0.0),
                                r.mi_baseline_bits.unwrap_or(0.0),
                            ),
                        );
                    }
                    leak = Some(results);
                }
                None => not_run.push(CheckId::Leakage),
            }
            let expect = run.expect.as_ref();
            block = block.or(expect.map(|e| e.block));
            expect_kind = expect_kind.or(expect.map(|e| e.kind));
            if let (Some(e), Some(counts)) = (expect, &run.counts) {
                check_kind(e, &mut checks);
                pack_rules = match e.kind {
                    Kind::Production => spec.pack_rules.clone(),
                    Kind::Specimen => PackRules::default(),
                };
                for b in pack_rules.breaches(spec, &run.ways) {
                    add(
                        &mut checks,
                        CheckId::PackRules,
                        None,
                        format!("{}: {} ({})", b.place, b.what, b.constraint.field()),
                    );
                }
                for (i, w) in spec.ways.iter().enumerate() {
                    if counts[i] != e.counts[i] {
                        add(
                            &mut checks,
                            CheckId::Counts,
                            None,
                            format!(
                                "way \"{}\" ({}): {} tickets, expected {}",
                                w.id, w.amount, counts[i], e.counts[i]
                            ),
                        );
                    }
                }
                let want: u64 = spec
                    .ways
                    .iter()
                    .zip(&e.counts)
                    .map(|(w, &n)| w.amount.cents() * n)
                    .sum();
                if run.payout != want {
                    add(
                        &mut checks,
                        CheckId::Counts,
                        None,
                        format!(
                            "evaluated payout {} differs from the expected {}",
                            Money(run.payout),
                            Money(want)
                        ),
                    );
                }
                check_composition(manifest.as_ref(), spec, &run, &mut checks);
                promised = check_features(manifest.as_ref(), spec, &run, &mut checks);
                ways = spec
                    .ways
                    .iter()
                    .enumerate()
                    .map(|(i, w)| WayTally {
                        way: w.id.clone(),
                        amount: w.amount.to_string(),
                        expected: e.counts[i],
                        found: counts[i],
                    })
                    .collect();
            } else {
                // The ticket pass did not run (unreadable files or print header): nothing
                // was checked ticket by ticket, and the report must not say PASS for it,
                // nor for the headers it did not reach.
                not_run.extend(CheckId::ALL.into_iter().filter(|c| c.from_ticket_pass()));
                not_run.push(CheckId::CsvHeader);
                for id in [CheckId::PrintHeader, CheckId::RecordCount] {
                    if !checks.contains_key(&id) {
                        not_run.push(id);
                    }
                }
            }
            for (name, h) in std::mem::take(&mut run.hashes) {
                actual.insert(name, h);
            }
        }
    }
    // Ticket files the pass did not read (it stopped early): hashed here, so that the
    // digest checks tell a file that is there from one that is missing.
    for name in [CSV, BIN, VALIDATION] {
        if !actual.contains_key(name) {
            if let Some(h) = hash_file(&dir.join(name)) {
                actual.insert(name.into(), h);
            }
        }
    }

    // Why a file was not read: missing, or what it is instead (a FIFO, a link…).
    let unread = |name: &str| match crate::output::open_regular(&dir.join(name)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "missing".to_string(),
        Err(e) => format!("cannot be read: {e}"),
        Ok(_) => "cannot be read".to_string(),
    };
    // Digests: SHA256SUMS and the manifest against what was read.
    for (name, hash) in &listed {
        match actual.get(name) {
            None => add(
                &mut checks,
                CheckId::Sha256sums,
                None,
                format!("{name} is listed but {}", unread(name)),
            ),
            Some((_, h)) if h != hash => add(
                &mut checks,
                CheckId::Sha256sums,
                None,
                format!("{name}: SHA-256 {h}, SHA256SUMS says {hash}"),
            ),
            _ => {}
        }
    }
    if let Some(m) = &manifest {
        for f in &m.files {
            match actual.get(&f.name) {
                None if f.encrypted_for.is_some() => add(
                    &mut checks,
                    CheckId::Manifest,
                    None,
                    format!(
                        "{}: delivered encrypted ({}{}) and not opened: its plaintext digest was not checked",
                        f.name,
                        f.name,
                        SEALED_SUFFIX
                    ),
                ),
                None => add(
                    &mut checks,
                    CheckId::Manifest,
                    None,
                    format!("{} is in the manifest but {}", f.name, unread(&f.name)),
                ),
                Some((n, h)) => {
                    if *n != f.bytes {
                        add(
                            &mut checks,
                            CheckId::Manifest,
                            None,
                            format!("{}: {n} bytes, the manifest says {}", f.name, f.bytes),
                        );
                    }
                    if *h != f.sha256 {
                        add(
                            &mut checks,
                            CheckId::Manifest,
                            None,
                            format!("{}: SHA-256 {h}, the manifest says {}", f.name, f.sha256),
                        );
                    }
                }
            }
        }
    }

    // The replay.
    let mut replayed = None;
    // A block of as many records as it declares: a replay never builds more tickets than
    // the print file holds.
    let whole = run
        .expect
        .as_ref()
        .is_some_and(|e| e.tickets == run.tickets);
    if let (Some(given), Some(spec), true) = (&opts.seed, &spec, whole) {
        replayed = replay(
            spec,
            manifest.as_ref(),
            run.expect.as_ref(),
            (given, opts.validation_key),
            &actual,
            &mut checks,
            progress,
        );
        if replayed.is_none() && !checks.contains_key(&CheckId::Replay) {
            not_run.push(CheckId::Replay);
        }
    } else if opts.seed.is_some() {
        not_run.push(CheckId::Replay);
    }

    let files: Vec<FileDigest> = [CSV, BIN, VALIDATION, SPEC, MANIFEST, SUMS]
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
                .as_ref()
                .and_then(|m| m.files.iter().find(|f| f.name == name))
                .map(|f| f.sha256.clone()),
        })
        .collect();

    let signer = check_signature(dir, opts, expect_kind, &mut checks);
    let authenticated = Authenticated {
        signature_rejected: opts.signer.is_some() && signer.is_none(),
        specimen: expect_kind == Some(Kind::Specimen),
        validation_key_from_seed: manifest
            .as_ref()
            .is_some_and(|m| m.validation_key_from_seed),
        encrypted: manifest
            .as_ref()
            .is_some_and(|m| m.files.iter().any(|f| f.encrypted_for.is_some())),
        signer,
        reference_spec: reference.map(|r| r.sha256.clone()),
        replayed: replayed
            .as_ref()
            .is_some_and(|f| f.iter().all(|f| f.identical)),
    };
    let results: Vec<CheckResult> = CheckId::ALL
        .iter()
        .map(|&id| {
            let f = checks.remove(&id).unwrap_or_default();
            let result = if f.count > 0 {
                "fail"
            } else if (id == CheckId::Replay && opts.seed.is_none())
                || (id == CheckId::Signature && opts.signer.is_none())
            {
                "skipped"
            } else if not_run.contains(&id) || (spec.is_none() && id > CheckId::Spec) {
                "not run"
            } else {
                "pass"
            };
            CheckResult {
                id,
                procedure: id.procedure(),
                result,
                findings: f.count,
                examples: f.examples,
            }
        })
        .collect();
    let clean = results
        .iter()
        .all(|c| c.result == "pass" || c.result == "skipped");
    let codes = std::mem::take(&mut run.codes);
    let features = match &spec {
        Some(sp) => run
            .features
            .iter()
            .map(|(&(tier, name), &wins)| FeatureTally {
                tier: sp.tiers[tier].amount.to_string(),
                feature: name.to_string(),
                wins,
            })
            .collect(),
        None => Vec::new(),
    };
    let losing_features = match &spec {
        Some(sp) if run.counts.is_some() => {
            let known: Vec<&'static str> = sp
                .mechanic
                .features()
                .iter()
                .filter(|f| f.kind == FeatureKind::Losing)
                .map(|f| f.id)
                .collect();
            let others = run.losing.keys().filter(|k| !known.contains(k)).copied();
            known
                .iter()
                .copied()
                .chain(others.collect::<Vec<_>>())
                .map(|name| {
                    let (areas, tickets) = run.losing.get(name).copied().unwrap_or_default();
                    LosingFeatureTally {
                        feature: name.to_string(),
                        areas,
                        tickets,
                    }
                })
                .collect()
        }
        _ => Vec::new(),
    };
    let report = Report {
        dir: dir.display().to_string(),
        game: spec.as_ref().map(|s| s.id.clone()),
        kind: expect_kind,
        block,
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
        authenticated,
    };
    Ok(Verified {
        report,
        spec,
        manifest,
        ways: std::mem::take(&mut run.ways),
        leakage: leak,
        replay: replayed,
        codes,
    })
}

/// Checks `SHA256SUMS.minisig` with `opts.signer` ([`CheckId::Signature`]); returns the
/// signer's key id when the signature holds. With no signer, the check is "skipped", or a
/// finding for a production block when `opts.require_signature` is set.
fn check_signature(
    dir: &Path,
    opts: &Options,
    kind: Option<Kind>,
    checks: &mut Checks,
) -> Option<String> {
    let mut bad = |what: String| add(checks, CheckId::Signature, None, what);
    let Some(v) = opts.signer else {
        if opts.require_signature && kind != Some(Kind::Specimen) {
            bad("no signature was checked: anyone could have written these files and their digests; give the operator's public key (--signer KEY.pub), or --unauthenticated to check the block without it".into());
        }
        return None;
    };
    let sums = match std::fs::read(dir.join(SUMS)) {
        Ok(b) => b,
        Err(e) => {
            bad(format!("cannot read {SUMS}: {e}"));
            return None;
        }
    };
    let sig = match std::fs::read_to_string(dir.join(SUMS_SIG)) {
        Ok(t) => t,
        Err(e) => {
            bad(format!("{SUMS_SIG}: {e}: the block is not signed"));
            return None;
        }
    };
    match v.verify(&sums, &sig) {
        Ok(_) => Some(v.id().to_string()),
        Err(e) => {
            bad(format!("{SUMS_SIG}: {e}"));
            None
        }
    }
}

/// Replays the block from `given` in memory and compares every file's SHA-256 with the
/// block's (`actual`: name → (bytes, hex SHA-256) of what was read). Findings go to
/// [`CheckId::Replay`]; returns the files compared, or `None` when the replay could not run.
fn replay(
    spec: &GameSpec,
    manifest: Option<&Manifest>,
    expect: Option<&Expect>,
    (given, validation_key): (&SeedInput, Option<&ValidationKey>),
    actual: &BTreeMap<String, (u64, String)>,
    checks: &mut Checks,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Vec<ReplayFile>> {
    let mut bad = |what: String| add(checks, CheckId::Replay, None, what);
    if let Some(m) = manifest {
        if !given.shares.is_empty() {
            match &m.seed_shares {
                None => bad("seed shares were given, but the manifest records none: the block was generated from a whole seed".into()),
                Some(theirs) if theirs.len() != given.shares.len() => bad(format!(
                    "{} seed shares were given, the manifest records {}",
                    given.shares.len(),
                    theirs.len()
                )),
                Some(theirs) => {
                    for (i, (share, c)) in given.shares.iter().zip(theirs).enumerate() {
                        if !share.opens(c) {
                            bad(format!(
                                "seed share {} does not open the commitment the manifest records at that place ({c})",
                                i + 1
                            ));
                        }
                    }
                }
            }
        }
        let c = given.seed.commitment();
        if c != m.seed_commitment {
            bad(format!(
                "the seed given has commitment {c}, the manifest records {}: it is not this block's seed; no replay",
                m.seed_commitment
            ));
            return None;
        }
    }
    let Some(expect) = expect else {
        bad("the block number is unknown (no manifest, no print header): no replay".into());
        return None;
    };
    let derived;
    let plan = match expect.kind {
        Kind::Production => match (BlockPlan::production(spec, expect.block), validation_key) {
            (Err(e), _) => {
                bad(format!("no replay: {e}"));
                return None;
            }
            (Ok(p), _) if manifest.is_some_and(|m| m.validation_key_from_seed) => {
                derived = ValidationKey::from_seed(
                    &given.seed,
                    spec.game_code,
                    spec.emission,
                    &spec.sha256,
                );
                p.validated_by_seed(&derived)
            }
            (Ok(_), None) => {
                bad("no replay: a production block's validation codes are made with the emission's validation key, not the seed: give it too (--validation-key FILE)".into());
                return None;
            }
            (Ok(p), Some(key)) => {
                let c = Validator::production(key, spec.game_code, spec.emission);
                if let Some(m) = manifest.filter(|m| m.validation_key_commitment != c.commitment())
                {
                    bad(format!(
                        "the validation key given has commitment {}, the manifest records {}: it is not this block's key; no replay",
                        c.commitment(),
                        m.validation_key_commitment
                    ));
                    return None;
                }
                p.validated_by(key)
            }
        },
        Kind::Specimen => {
            let Ok(counts) = expect
                .counts
                .iter()
                .map(|&c| u32::try_from(c))
                .collect::<Result<Vec<u32>, _>>()
            else {
                bad("no replay: the specimen counts do not fit".into());
                return None;
            };
            let plan = BlockPlan {
                composition: manifest.and_then(|m| m.composition),
                ..BlockPlan::specimen(spec, counts)
            };
            match manifest.and_then(|m| m.promised_features.as_ref()) {
                None => plan,
                Some(list) => match promises_of(spec, list) {
                    Ok(p) => plan.promising(p),
                    Err(what) => {
                        bad(format!("no replay: {what}"));
                        return None;
                    }
                },
            }
        }
    };
    let provenance = match manifest {
        Some(m) => Provenance {
            seed_shares: m.seed_shares.clone(),
            tool: Some(m.tool.clone()),
            spec_source: Some(m.spec.source.clone()),
        },
        None => Provenance::default(),
    };
    // An encrypted block: the replay rebuilds its plaintexts and its manifest, which
    // records their recipients; the delivered `.age` files differ at each encryption.
    let sealed: Vec<(&str, &[String])> = manifest
        .map(|m| {
            m.files
                .iter()
                .filter_map(|f| f.encrypted_for.as_deref().map(|r| (f.name.as_str(), r)))
                .collect()
        })
        .unwrap_or_default();
    let recipients = match Recipients::from_manifest(&sealed) {
        Ok(r) => r,
        Err(e) => {
            bad(format!("no replay: the manifest's recipients: {e}"));
            return None;
        }
    };
    let plan = plan.sealed_for(&recipients);
    let built = match generate::replay(&plan, &given.seed, &provenance, progress) {
        Ok(b) => b,
        Err(e) => {
            bad(format!("the replay failed: {e}"));
            return None;
        }
    };
    let mut expected: Vec<(String, String)> = sums::parse(&built.sums).expect("own SHA256SUMS");
    if !recipients.any() {
        expected.push((
            SUMS.into(),
            hex::encode(Sha256::digest(built.sums.as_bytes())),
        ));
    }
    let files: Vec<ReplayFile> = expected
        .into_iter()
        .map(|(name, replay_sha256)| {
            let block_sha256 = actual.get(&name).map(|a| a.1.clone());
            let identical = block_sha256.as_deref() == Some(replay_sha256.as_str());
            ReplayFile {
                name,
                block_sha256,
                replay_sha256,
                identical,
            }
        })
        .collect();
    for f in files.iter().filter(|f| !f.identical) {
        bad(match &f.block_sha256 {
            Some(h) => format!(
                "{}: the replay gives SHA-256 {}, the block's file has {h}",
                f.name, f.replay_sha256
            ),
            None => format!("{}: missing or unreadable in the block", f.name),
        });
    }
    Some(files)
}

/// The promises a deck's manifest lists, as the generator takes them. Errors: a feature the
/// mechanic does not show with this spec, or a way the spec does not have.
fn promises_of(spec: &GameSpec, list: &[PromisedFeature]) -> Result<Vec<Promise>, String> {
    let known = spec.mechanic.features();
    list.iter()
        .map(|p| {
            let feature = known
                .iter()
                .find(|f| f.id == p.feature)
                .map(|f| f.id)
                .ok_or_else(|| {
                    format!(
                        "the manifest promises feature \"{}\", which this spec's {} mechanic does not show",
                        p.feature,
                        spec.mechanic.name()
                    )
                })?;
            let way = spec.way_by_id(&p.way).ok_or_else(|| {
                format!(
                    "the manifest promises {} on way \"{}\", which the spec does not have",
                    p.feature, p.way
                )
            })?;
            Ok(Promise {
                feature,
                way,
                forced: p.forced,
            })
        })
        .collect()
}

/// A specimen deck states its composition (manifest `composition`), and its counts and
/// promises are exactly those that composition gives for the spec and the deck's size
/// ([`crate::deck::compose`]): the same count of every way (evaluated), the same features
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
    let deck = match crate::deck::compose(spec, c, m.tickets) {
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
        let mut got = vec![0u32; spec.ways.len()];
        for &w in &run.ways {
            got[w as usize] += 1;
        }
        for (w, (&want, &n)) in deck.counts.iter().zip(&got).enumerate() {
            if want != n {
                bad(
                    None,
                    format!(
                        "a {name} deck of {} tickets holds {want} of way \"{}\"; this one {n}",
                        m.tickets, spec.ways[w].id
                    ),
                );
            }
        }
    }
    let want = deck.promises.unwrap_or_default();
    let listed = m.promised_features.as_deref().unwrap_or_default();
    let same = want.len() == listed.len()
        && want.iter().zip(listed).all(|(p, l)| {
            p.feature == l.feature && spec.ways[p.way as usize].id == l.way && p.forced == l.forced
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
                show(want.iter().map(|p| format!("{} on {}", p.feature, spec.ways[p.way as usize].id)).collect()),
                show(listed.iter().map(|l| format!("{} on {}", l.feature, l.way)).collect()),
            ),
        );
    }
    if complete && !want.is_empty() {
        if let Ok(at) = crate::block::place_promises(spec, &want, &run.ways) {
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
}

/// The features a default specimen deck promises (manifest `promised_features`): every
/// feature the spec can show on some way is promised, each promise names a feature of the
/// mechanic and a way of the spec, a promise not built asked for is one its way shows on every
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
    let mech = &spec.mechanic;
    let known = mech.features();
    for f in &known {
        let showable = spec
            .ways
            .iter()
            .any(|w| mech.always_shows(w).contains(&f.id) || mech.can_show(w, f.id).is_ok());
        if showable && !list.iter().any(|p| p.feature == f.id) {
            bad(
                None,
                format!(
                    "the deck promises no ticket showing {} ({}), which the spec can show",
                    f.id, f.about
                ),
            );
        }
    }
    let mut out = Vec::new();
    for p in list {
        let way = spec.way_by_id(&p.way);
        let mut shown = false;
        if !known.iter().any(|f| f.id == p.feature) {
            bad(
                Some(p.ticket),
                format!(
                    "promised feature \"{}\" is not one the {} mechanic shows with this spec",
                    p.feature,
                    mech.name()
                ),
            );
        } else if way.is_none() {
            bad(
                Some(p.ticket),
                format!(
                    "promised on way \"{}\", which the spec does not have",
                    p.way
                ),
            );
        } else {
            let w = way.unwrap_or(0);
            if !p.forced
                && !mech
                    .always_shows(&spec.ways[w as usize])
                    .contains(&p.feature.as_str())
            {
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
                Some((got, names)) => {
                    shown = *got == way && names.iter().any(|n| *n == p.feature);
                    if !shown {
                        let got_way = got.map_or("no way".to_string(), |g| {
                            format!("way \"{}\"", spec.ways[g as usize].id)
                        });
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
        }
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

/// The manifest's description of the block against the spec.
fn check_manifest(m: &Manifest, spec: &GameSpec, checks: &mut Checks) {
    let mut bad = |what: String| add(checks, CheckId::Manifest, None, what);
    // What the manifest says of the game must be what the spec says.
    let g = &m.game;
    let same_game = g.name == spec.name
        && g.mechanic == spec.mechanic.name()
        && g.legal_reference == spec.legal_reference
        && g.reconstructed == spec.reconstructed
        && g.note == spec.note
        && g.game_code == spec.game_code
        && g.emission == spec.emission
        && g.currency == spec.currency;
    if !same_game {
        bad("the game it describes (name, mechanic, legal reference, reconstructed, note, game code, emission or currency) differs from spec.toml".into());
    }
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
    let listed_total: u64 = listed.iter().map(|w| w.1).sum::<u64>() + m.losers;
    if listed_total != u64::from(m.tickets) {
        bad(format!(
            "the way counts add up to {listed_total} tickets, the manifest says {}",
            m.tickets
        ));
    }
    let lots: u64 = listed.iter().map(|w| w.1).sum();
    if m.lots != lots {
        bad(format!("{} lots, its way counts give {lots}", m.lots));
    }
    check_manifest_sums(m, spec, &mut bad);
    if m.kind == Kind::Production {
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
        if listed != want {
            bad("way counts differ from the spec's lot table".into());
        }
    }
}

/// What the manifest derives from its own counts and the spec, worked out again: each
/// tier's ways (the spec's, in order) and count (the sum of its ways'), the payout and its
/// ratio to sales, every file's record count; and the form of what only a replay can check
/// (commitments: 64 hex digits; tool identity; allocation attempts).
fn check_manifest_sums(m: &Manifest, spec: &GameSpec, bad: &mut impl FnMut(String)) {
    let hex = |s: &str, n: usize| {
        s.len() == n
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
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
        let sum: u64 = t.ways.iter().map(|w| w.count).sum();
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
    for f in &m.files {
        let want = if f.name == SPEC {
            0
        } else {
            u64::from(m.tickets)
        };
        if f.records != want {
            bad(format!(
                "{}: {} records, expected {want}",
                f.name, f.records
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
    if let Some(shares) = &m.seed_shares {
        let distinct = shares
            .iter()
            .enumerate()
            .all(|(i, c)| !shares[..i].contains(c));
        if shares.len() < 2 || !distinct || shares.iter().any(|c| !crate::rng::is_commitment(c)) {
            bad("seed share commitments: expected two or more, all different, each a salted commitment tirage-share/1:<32 hex>:<64 hex>".into());
        }
    }
    let t = &m.tool;
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

/// Size and hex SHA-256 of the regular file at `path`, or `None` when it is not one or
/// cannot be read.
fn hash_file(path: &Path) -> Option<(u64, String)> {
    let mut f = crate::output::open_regular(path).ok()?;
    let mut h = Sha256::new();
    let n = std::io::copy(&mut f, &mut h).ok()?;
    Some((n, hex::encode(h.finalize())))
}

/// What the ticket pass found besides findings.
#[derive(Default)]
struct TicketRun {
    expect: Option<Expect>,
    /// Evaluated way of every ticket, in print order.
    ways: Vec<WayId>,
    /// Wins per (tier index, feature shown).
    features: BTreeMap<(usize, &'static str), u64>,
    /// Per losing feature: (play areas showing it, tickets showing it).
    losing: BTreeMap<&'static str, (u64, u64)>,
    /// Per promised ticket (1-based): its evaluated way and every feature it shows.
    promised: HashMap<u32, (Option<WayId>, Vec<&'static str>)>,
    /// Validation codes of every ticket, sorted.
    codes: Vec<u64>,
    tickets: u64,
    counts: Option<Vec<u64>>,
    payout: u64,
    hashes: Vec<(String, (u64, String))>,
    /// Printed fields against win / lose (None when the record pass did not run).
    leakage: Option<Tally>,
}

/// One block of input for the checkers: complete lines of the two CSV files and the
/// matching print records.
struct Batch {
    /// 0-based index of the first ticket.
    first: u64,
    csv: Vec<u8>,
    bin: Vec<u8>,
}

/// A file read in blocks and hashed as it is read; its length so far.
struct Hashed {
    f: Box<dyn Read + Send>,
    h: Sha256,
    n: u64,
    eof: bool,
    /// Bytes it may still read: a file larger than its block could be is not read past it.
    left: u64,
    /// True when reading stopped at `left` with more in the file.
    truncated: bool,
}

impl Hashed {
    fn new(f: Box<dyn Read + Send>, head: &[u8]) -> Hashed {
        let mut h = Sha256::new();
        h.update(head);
        Hashed {
            f,
            h,
            n: head.len() as u64,
            eof: false,
            left: u64::MAX,
            truncated: false,
        }
    }

    /// At most `limit` more bytes will be read.
    fn limit(mut self, limit: u64) -> Hashed {
        self.left = limit;
        self
    }

    /// Appends up to `want` bytes to `buf` (fewer at end of file or at the limit).
    fn read(&mut self, buf: &mut Vec<u8>, want: usize) -> std::io::Result<()> {
        let start = buf.len();
        let want = want.min(usize::try_from(self.left).unwrap_or(usize::MAX));
        buf.reserve(want);
        let got = (&mut self.f).take(want as u64).read_to_end(buf)?;
        self.left -= got as u64;
        if got < want {
            self.eof = true;
        } else if self.left == 0 {
            self.eof = true;
            let mut probe = [0u8; 1];
            self.truncated = self.f.read(&mut probe).is_ok_and(|n| n > 0);
        }
        self.h.update(&buf[start..]);
        self.n += got as u64;
        Ok(())
    }

    /// Bytes read, their SHA-256, and whether the file went on past the limit.
    fn finish(self) -> (u64, String, bool) {
        (self.n, hex::encode(self.h.finalize()), self.truncated)
    }
}

/// A text file read line by line in large blocks.
struct Lines {
    src: Hashed,
    carry: Vec<u8>,
}

impl Lines {
    /// The complete lines of the next block of about [`READ_BLOCK`] bytes (at end of file,
    /// everything left, with a final `\n` added if missing).
    fn block(&mut self, mut buf: Vec<u8>) -> std::io::Result<Vec<u8>> {
        buf.clear();
        buf.extend_from_slice(&self.carry);
        self.carry.clear();
        loop {
            if !self.src.eof {
                self.src.read(&mut buf, READ_BLOCK)?;
            }
            if self.src.eof {
                if !buf.is_empty() && buf.last() != Some(&b'\n') {
                    buf.push(b'\n');
                }
                return Ok(buf);
            }
            if let Some(p) = memchr::memrchr(b'\n', &buf) {
                self.carry.extend_from_slice(&buf[p + 1..]);
                buf.truncate(p + 1);
                return Ok(buf);
            }
            if buf.len() > MAX_LINE {
                return Err(too_long());
            }
        }
    }

    /// The next `n` lines (fewer at end of file).
    fn lines(&mut self, n: usize) -> std::io::Result<Vec<u8>> {
        let mut buf = std::mem::take(&mut self.carry);
        loop {
            if n == 0 {
                self.carry = buf;
                return Ok(Vec::new());
            }
            if let Some(p) = memchr::memchr_iter(b'\n', &buf).nth(n - 1) {
                self.carry = buf.split_off(p + 1);
                return Ok(buf);
            }
            if self.src.eof {
                if !buf.is_empty() && buf.last() != Some(&b'\n') {
                    buf.push(b'\n');
                }
                return Ok(buf);
            }
            if buf.len() > MAX_LINE * n.max(1) {
                return Err(too_long());
            }
            self.src.read(&mut buf, READ_BLOCK / 2)?;
        }
    }
}

/// Longest line verify reads before it gives up on a file (real rows are a few hundred bytes).
const MAX_LINE: usize = 4 * READ_BLOCK;

fn too_long() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "a line longer than {} MiB: not a tirage ticket file",
            MAX_LINE >> 20
        ),
    )
}

/// Reads the three ticket files after their headers, in step, and sends batches; returns
/// the byte count and digest of each whole file (tickets.csv, tickets.bin, validation.csv).
fn reader(
    mut csv: Lines,
    mut bin: Hashed,
    rec: usize,
    tx: SyncSender<Batch>,
    spare: Receiver<Batch>,
) -> std::io::Result<[(u64, String, bool); 2]> {
    let mut first = 0u64;
    loop {
        // Reuse the buffers of a batch already checked: no fresh pages to fault in.
        let recycled = spare.try_recv().ok();
        let (old_csv, mut records) = match recycled {
            Some(b) => (b.csv, b.bin),
            None => (Vec::new(), Vec::new()),
        };
        records.clear();
        let block = csv.block(old_csv)?;
        let lines = memchr::memchr_iter(b'\n', &block).count();
        if lines == 0 {
            // tickets.csv is done: whatever is left of the print file.
            while !bin.eof {
                bin.read(&mut records, READ_BLOCK)?;
            }
        } else {
            bin.read(&mut records, lines * rec)?;
        }
        let n = lines.max(records.len().div_ceil(rec));
        if n == 0 {
            break;
        }
        if tx
            .send(Batch {
                first,
                csv: block,
                bin: records,
            })
            .is_err()
        {
            break;
        }
        first += n as u64;
        if lines == 0 {
            break;
        }
    }
    Ok([csv.src.finish(), bin.finish()])
}

/// Per-task accumulator of the ticket checks.
struct Acc {
    checks: Checks,
    counts: Vec<u64>,
    payout: u64,
    tickets: u64,
    codes: Vec<u64>,
    /// Evaluated way of every ticket with a print record, in order (0 when unrecognised).
    ways: Vec<WayId>,
    /// Wins per (tier index, feature the winning play area shows), for mechanics that name
    /// features (poker's combinations).
    features: BTreeMap<(usize, &'static str), u64>,
    /// Per losing feature: (play areas showing it, tickets showing it).
    losing: BTreeMap<&'static str, (u64, u64)>,
    /// Tickets a deck promises a feature on: (ticket, evaluated way, features shown).
    promised: Vec<(u32, Option<WayId>, Vec<&'static str>)>,
    /// Printed fields against win / lose.
    leakage: Tally,
    /// Rows of tickets.csv / validation.csv with no print record, and print records with no
    /// row: (count, first ticket).
    extra_csv: (u64, Option<u64>),
    missing_csv: (u64, Option<u64>),
    /// The validation row every print record calls for (claim, evaluated way).
    claims: Vec<validation_csv::Row>,
}

fn bump(c: &mut (u64, Option<u64>), ticket: u64) {
    c.0 += 1;
    c.1.get_or_insert(ticket);
}

fn join(a: &mut (u64, Option<u64>), b: (u64, Option<u64>)) {
    a.0 += b.0;
    a.1 = a.1.or(b.1);
}

impl Acc {
    fn new(n_ways: usize, pack_size: u32) -> Acc {
        Acc {
            leakage: Tally::new(pack_size),
            checks: Checks::new(),
            counts: vec![0; n_ways],
            payout: 0,
            tickets: 0,
            codes: Vec::new(),
            ways: Vec::new(),
            features: BTreeMap::new(),
            losing: BTreeMap::new(),
            promised: Vec::new(),
            extra_csv: (0, None),
            missing_csv: (0, None),
            claims: Vec::new(),
        }
    }

    /// Appends `later` (a task of later tickets).
    fn merge(&mut self, later: Acc) {
        for (id, f) in later.checks {
            self.checks.entry(id).or_default().merge(f);
        }
        for (a, b) in self.counts.iter_mut().zip(later.counts) {
            *a += b;
        }
        self.payout += later.payout;
        self.tickets += later.tickets;
        self.codes.extend(later.codes);
        self.ways.extend(later.ways);
        for (k, n) in later.features {
            *self.features.entry(k).or_default() += n;
        }
        for (k, (a, t)) in later.losing {
            let e = self.losing.entry(k).or_default();
            e.0 += a;
            e.1 += t;
        }
        self.promised.extend(later.promised);
        self.leakage.merge(&later.leakage);
        join(&mut self.extra_csv, later.extra_csv);
        join(&mut self.missing_csv, later.missing_csv);
        self.claims.extend(later.claims);
    }
}

/// Row renderers of one checker task.
struct Writers {
    rows: tickets_csv::RowWriter,
    /// The expected serials of the pack being checked.
    pack: Option<(u32, PackSerials)>,
}

impl Writers {
    /// The expected serials of pack `pack` (1-based) of `block`, computed once per pack.
    fn serials(&mut self, spec: &GameSpec, block: u32, pack: u32) -> &PackSerials {
        if self.pack.as_ref().is_none_or(|(p, _)| *p != pack) {
            self.pack = Some((
                pack,
                PackSerials::new(spec.game_code, spec.emission, block, pack),
            ));
        }
        &self.pack.as_ref().expect("just set").1
    }
}

/// Everything a checker task needs about the block.
struct Ctx<'a> {
    spec: &'a GameSpec,
    block: u32,
    ncols: usize,
    /// Per caption column: (its index, its amount column, the spec's caption code for each
    /// amount code — `None` when the amount has no caption).
    captions: Vec<(usize, usize, Vec<Option<u8>>)>,
    /// Tickets (1-based) a deck promises a feature on.
    promised: &'a HashSet<u32>,
}

/// The caption table of [`Ctx::captions`] for `spec`'s face columns.
fn caption_table(spec: &GameSpec) -> Vec<(usize, usize, Vec<Option<u8>>)> {
    let cols = spec.mechanic.columns();
    cols.iter()
        .enumerate()
        .filter_map(|(ci, c)| match c.kind {
            ColumnKind::Caption { of } => match &cols[of].kind {
                ColumnKind::Amount(amounts) => Some((
                    ci,
                    of,
                    amounts
                        .iter()
                        .map(|&m| {
                            let want = spec.caption(m)?;
                            c.values.iter().position(|v| v == want).map(|k| k as u8)
                        })
                        .collect(),
                )),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

impl Ctx<'_> {
    /// Checks ticket index `i` (0-based) from its print record, tickets.csv line and
    /// validation.csv line (any may be missing when the files disagree in length).
    fn check(
        &self,
        i: u64,
        line: Option<&[u8]>,
        rec: Option<&[u8]>,
        w: &mut Writers,
        acc: &mut Acc,
    ) {
        let spec = self.spec;
        let t = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let Some(rec) = rec else {
            if line.is_some() {
                bump(&mut acc.extra_csv, i + 1);
            }
            return;
        };
        if line.is_none() {
            bump(&mut acc.missing_csv, i + 1);
        }
        acc.tickets += 1;
        let r = print_file::read_record(rec, self.ncols);
        acc.codes.push(r.validation);
        let ps = u64::from(spec.pack_size);
        let (pack, pos) = ((i / ps + 1) as u32, (i % ps + 1) as u32);
        if u64::from(r.ticket) != i + 1 || r.pack != pack || r.pack_position != pos {
            add(
                &mut acc.checks,
                CheckId::Positions,
                Some(t),
                format!(
                    "record {} says ticket {}, pack {}, position {}; expected ticket {}, pack {pack}, position {pos}",
                    i + 1,
                    r.ticket,
                    r.pack,
                    r.pack_position,
                    i + 1
                ),
            );
        }
        let want = w.serials(spec, self.block, pack).at(pos);
        // `want` is valid by construction, so equality implies a valid check digit.
        if r.serial != want {
            debug_assert!(is_valid(&want));
            add(
                &mut acc.checks,
                CheckId::Serials,
                Some(t),
                format!(
                    "serial {}, expected {}",
                    String::from_utf8_lossy(&r.serial),
                    String::from_utf8_lossy(&want)
                ),
            );
        }
        if !print_file::codes_in_range(&r.face, spec.mechanic.columns()) {
            add(
                &mut acc.checks,
                CheckId::FaceCodes,
                Some(t),
                "a face code is not a value of its column",
            );
            return;
        }
        let judged = judge(spec, &r.face);
        if !judged.ambiguities.is_empty() {
            add(
                &mut acc.checks,
                CheckId::Ambiguity,
                Some(t),
                judged.ambiguities.join("; "),
            );
        }
        let (prize, way, ev) = (judged.prize, judged.way, &judged.evaluation);
        acc.payout += prize.cents();
        acc.ways.push(way.unwrap_or(0));
        if let Some(tier) = way.and_then(|w| spec.ways[w as usize].tier) {
            for f in &ev.features {
                *acc.features.entry((tier, f.name)).or_default() += 1;
            }
        }
        for (k, f) in ev.losing_features.iter().enumerate() {
            let e = acc.losing.entry(f.name).or_default();
            e.0 += 1;
            if !ev.losing_features[..k].iter().any(|g| g.name == f.name) {
                e.1 += 1;
            }
        }
        if self.promised.contains(&t) {
            let names = ev
                .features
                .iter()
                .chain(&ev.losing_features)
                .map(|f| f.name)
                .collect();
            acc.promised.push((t, way, names));
        }
        acc.leakage.add(
            r.ticket,
            r.pack,
            r.pack_position,
            &r.serial,
            prize.cents() > 0,
        );
        match way {
            Some(w) => acc.counts[w as usize] += 1,
            None => {
                add(
                    &mut acc.checks,
                    CheckId::WayRecognised,
                    Some(t),
                    format!("the face wins {prize}, which no way of the spec gives"),
                );
                add(
                    &mut acc.checks,
                    CheckId::ValidationFile,
                    Some(t),
                    format!("the face wins {prize}, which no way of the spec gives: no validation row can pay it"),
                );
            }
        }
        self.check_captions(&r.face, t, acc);
        let ticket = Ticket {
            block: self.block,
            pack: r.pack,
            pack_position: r.pack_position,
            ticket: r.ticket,
            serial: r.serial,
            validation: r.validation,
            prize,
            way: way.unwrap_or(0),
            face: r.face,
        };
        if let Some(line) = line {
            w.rows.clear();
            w.rows.push(&ticket);
            let expected = w.rows.bytes().strip_suffix(b"\n").unwrap_or_default();
            if line != expected || way.is_none() {
                let detail = explain(
                    CSV,
                    line,
                    expected,
                    &tickets_csv::column_names(spec),
                    way.is_none(),
                    prize,
                );
                if !detail.is_empty() {
                    add(&mut acc.checks, CheckId::CsvMatchesPrint, Some(t), detail);
                }
            }
        }
        acc.claims.push(validation_csv::Row {
            claim: validation_csv::claim(&ticket.serial, ticket.validation),
            way: ticket.way,
        });
    }

    /// Every amount column's caption column holds the spec's caption of that amount
    /// (décret n°78-1067 and GAMES.md: a missing or wrong caption is a printing anomaly).
    fn check_captions(&self, face: &Face, t: u32, acc: &mut Acc) {
        let cols = self.spec.mechanic.columns();
        for (ci, of, want) in &self.captions {
            let (ci, of) = (*ci, *of);
            if want[face.codes[of] as usize] == Some(face.codes[ci]) {
                continue;
            }
            let c = &cols[ci];
            {
                let shown = &c.values[face.codes[ci] as usize];
                if let ColumnKind::Amount(amounts) = &cols[of].kind {
                    let amount = amounts[face.codes[of] as usize];
                    if self.spec.caption(amount) != Some(shown.as_str()) {
                        add(
                            &mut acc.checks,
                            CheckId::Captions,
                            Some(t),
                            format!(
                                "{} shows {amount} captioned \"{shown}\"; the spec's caption is \"{}\"",
                                cols[of].name,
                                self.spec.caption(amount).unwrap_or("(none)")
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// Names the columns where a row differs from the expected one.
fn explain(
    file: &str,
    line: &[u8],
    expected: &[u8],
    names: &[String],
    unrecognised: bool,
    prize: Money,
) -> String {
    let got = tickets_csv::fields(line);
    let want = tickets_csv::fields(expected);
    let mut diffs = Vec::new();
    if got.len() != want.len() {
        diffs.push(format!("{} fields, expected {}", got.len(), want.len()));
    }
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        let name = names.get(k).map_or("?", String::as_str);
        let prize_or_way = name == "prize" || name == "way";
        // A face that realises no way: no row can agree with it, whatever it says.
        if unrecognised && prize_or_way {
            diffs.push(format!(
                "{name}: {file} has {g:?}, but the face wins {prize}, which no way of the spec gives"
            ));
            continue;
        }
        if g == w {
            continue;
        }
        let why = match name {
            "prize" | "way" => " (by the evaluation of the face)".to_string(),
            _ => " (per tickets.bin)".to_string(),
        };
        diffs.push(format!("{name}: {file} has {g:?}, expected {w:?}{why}"));
    }
    diffs.join("; ")
}

/// Checks `validation.csv` against the rows the print records call for (`claims`: each
/// ticket's claim from its serial and code, and its evaluated way): the header, then every
/// row in claim order, byte for byte; reads at most `limit` bytes. Findings go to
/// [`CheckId::ValidationFile`]. Returns the file's size and SHA-256 as read.
fn check_validation_file(
    file: Box<dyn Read + Send>,
    spec: &GameSpec,
    mut claims: Vec<validation_csv::Row>,
    limit: u64,
    checks: &mut Checks,
) -> (u64, String) {
    validation_csv::sort(&mut claims);
    let mut lines = Lines {
        src: Hashed::new(file, &[]).limit(limit),
        carry: Vec::new(),
    };
    let mut bad =
        |ticket: Option<u32>, what: String| add(checks, CheckId::ValidationFile, ticket, what);
    let head = lines.lines(1).unwrap_or_default();
    if head != validation_csv::header() {
        bad(
            None,
            format!(
                "{VALIDATION} header {:?}, expected {:?}",
                String::from_utf8_lossy(&head).trim_end(),
                String::from_utf8_lossy(&validation_csv::header()).trim_end()
            ),
        );
    }
    let rows = validation_csv::RowWriter::new(spec);
    let mut want = Vec::new();
    let mut k = 0usize;
    let mut more = 0u64;
    loop {
        let got = match lines.lines(4096) {
            Ok(b) => b,
            Err(e) => {
                bad(None, format!("{VALIDATION}: read error: {e}"));
                break;
            }
        };
        if got.is_empty() {
            break;
        }
        for line in got.split_inclusive(|&b| b == b'\n') {
            match claims.get(k) {
                Some(row) => {
                    want.clear();
                    rows.push(&mut want, row);
                    if line != want.as_slice() {
                        let names: Vec<String> = validation_csv::COLUMNS
                            .iter()
                            .map(|s| s.to_string())
                            .collect();
                        let strip = |b: &[u8]| b.strip_suffix(b"\n").unwrap_or(b).to_vec();
                        bad(
                            None,
                            format!(
                                "row {} (in claim order): {}",
                                k + 1,
                                explain(
                                    VALIDATION,
                                    &strip(line),
                                    &strip(&want),
                                    &names,
                                    false,
                                    Money(0)
                                )
                            ),
                        );
                    }
                }
                None => more += 1,
            }
            k += 1;
        }
    }
    if more > 0 {
        bad(
            None,
            format!("{VALIDATION} has {more} rows more than tickets.bin has tickets"),
        );
    }
    if k < claims.len() {
        bad(
            None,
            format!(
                "{VALIDATION} has {} rows fewer than tickets.bin has tickets",
                claims.len() - k
            ),
        );
    }
    let (n, h, truncated) = lines.src.finish();
    if truncated {
        bad(None, format!("{VALIDATION} goes on past what the block holds: only the first {n} bytes were read"));
    }
    (n, h)
}

/// The record-by-record pass over the three ticket files.
fn check_tickets(
    dir: &Path,
    ids: &Identities,
    spec: &GameSpec,
    expect: Option<Expect>,
    promised: &HashSet<u32>,
    checks: &mut Checks,
    progress: &(dyn Fn(u64) + Sync),
) -> TicketRun {
    let mut run = TicketRun::default();
    let open = |name: &str, checks: &mut Checks| match crate::seal::open(dir, name, ids) {
        Ok(o) => Some(o),
        Err(e) => {
            add(
                checks,
                CheckId::RecordCount,
                None,
                format!("cannot open {name}: {e}"),
            );
            None
        }
    };
    let (Some(csv), Some(bin)) = (open(CSV, checks), open(BIN, checks)) else {
        run.expect = expect;
        return run;
    };
    // The bytes present bound what the print file can hold (an encrypted file is a little
    // longer than its plaintext).
    let bin_len = std::fs::metadata(dir.join(&bin.delivered)).map_or(0, |m| m.len());
    let (csv, bin) = (csv.reader, bin.reader);
    // Print file header.
    let mut bin = Hashed::new(bin, &[]);
    let mut head = Vec::new();
    let _ = bin.read(&mut head, 30);
    let header = match print_file::read_header(&head) {
        Ok(h) => h,
        Err(e) => {
            add(checks, CheckId::PrintHeader, None, e);
            run.expect = expect;
            return run;
        }
    };
    let expect = expect.unwrap_or_else(|| Expect::production(spec, header.block));
    let want_head = print_file::header(spec, expect.block, expect.tickets as u32);
    if header.header_size > 30 && header.header_size < (1 << 24) {
        let _ = bin.read(&mut head, header.header_size - 30);
    }
    let rec = print_file::record_size(spec);
    let bin_records = bin_len.saturating_sub(want_head.len() as u64) / rec.max(1) as u64;
    // Never read past one record more than the block holds (a huge or endless file).
    let read_so_far = head.len() as u64;
    let bin = bin.limit(
        (want_head.len() as u64 + (expect.tickets + 1) * rec as u64).saturating_sub(read_so_far),
    );
    if head != want_head {
        let got = print_file::read_header(&head).ok();
        let want = print_file::read_header(&want_head).expect("own header");
        let detail = match got {
            Some(g) if g != want => format!("header fields {g:?}, expected {want:?}"),
            _ => "the column dictionaries differ from the spec's".into(),
        };
        add(checks, CheckId::PrintHeader, None, detail);
        if header.record_size != rec || header.header_size != want_head.len() {
            run.expect = Some(expect);
            return run;
        }
    }
    // Header lines of the two CSV files.
    // Rows are a few hundred bytes: 4 KiB per ticket bounds what is read of either CSV.
    let text_limit = (expect.tickets + 2) * 4096;
    let mut csv = Lines {
        src: Hashed::new(csv, &[]).limit(text_limit),
        carry: Vec::new(),
    };
    {
        let (lines, want, id, name) =
            (&mut csv, tickets_csv::header(spec), CheckId::CsvHeader, CSV);
        let got = lines.lines(1).unwrap_or_default();
        if got != want {
            add(
                checks,
                id,
                None,
                // Only the line's end is dropped: a carriage return before it stays visible.
                format!(
                    "{name} header {:?}, expected {:?}",
                    String::from_utf8_lossy(got.strip_suffix(b"\n").unwrap_or(&got)),
                    String::from_utf8_lossy(want.strip_suffix(b"\n").unwrap_or(&want))
                ),
            );
        }
    }

    let ctx = Ctx {
        spec,
        block: expect.block,
        ncols: spec.mechanic.columns().len(),
        captions: caption_table(spec),
        promised,
    };
    let (tx, rx) = sync_channel::<Batch>(2);
    let (spare_tx, spare_rx) = channel::<Batch>();
    let mut total = Acc::new(spec.ways.len(), spec.pack_size);
    // The records the print file can hold, whatever the manifest declares.
    total.ways.reserve(expect.tickets.min(bin_records) as usize);
    // Escaped once; each thread renders into its own clone.
    let row_writer = tickets_csv::RowWriter::new(spec);
    let reader_result = std::thread::scope(|s| {
        let h = s.spawn(|| reader(csv, bin, rec, tx, spare_rx));
        for batch in rx {
            let ends: Vec<usize> = memchr::memchr_iter(b'\n', &batch.csv).collect();
            let nrec = batch.bin.len() / rec;
            let n = ends.len().max(nrec);
            let line =
                |ends: &[usize], buf: &'_ [u8], k: usize| -> Option<std::ops::Range<usize>> {
                    (k < ends.len())
                        .then(|| if k == 0 { 0 } else { ends[k - 1] + 1 }..ends[k])
                        .map(|r| r.start.min(buf.len())..r.end)
                };
            let accs: Vec<Acc> = (0..n.div_ceil(TASK_TICKETS))
                .into_par_iter()
                .map_init(
                    || Writers {
                        rows: row_writer.clone(),
                        pack: None,
                    },
                    |w, task| {
                        let mut acc = Acc::new(spec.ways.len(), spec.pack_size);
                        for k in task * TASK_TICKETS..((task + 1) * TASK_TICKETS).min(n) {
                            let l = line(&ends, &batch.csv, k).map(|r| &batch.csv[r]);
                            let r = (k < nrec).then(|| &batch.bin[k * rec..(k + 1) * rec]);
                            ctx.check(batch.first + k as u64, l, r, w, &mut acc);
                        }
                        acc
                    },
                )
                .collect();
            for a in accs {
                total.merge(a);
            }
            progress(batch.first + n as u64);
            let _ = spare_tx.send(batch);
        }
        h.join().expect("reader thread panicked")
    });
    match reader_result {
        Ok(files) => {
            for ((n, h, truncated), name) in files.into_iter().zip([CSV, BIN]) {
                if truncated {
                    add(
                        checks,
                        CheckId::RecordCount,
                        None,
                        format!("{name} goes on past what a block of {} tickets holds: only the first {n} bytes were read", expect.tickets),
                    );
                }
                // The print file is exactly its header and whole records.
                let part = n.saturating_sub(want_head.len() as u64) % rec as u64;
                if name == BIN && !truncated && part != 0 {
                    add(
                        checks,
                        CheckId::RecordCount,
                        None,
                        format!("tickets.bin is {n} bytes: its header and whole records of {rec} bytes, then {part} byte(s) more"),
                    );
                }
                run.hashes.push((name.into(), (n, h)));
            }
        }
        Err(e) => add(
            checks,
            CheckId::RecordCount,
            None,
            format!("read error: {e}"),
        ),
    }
    if total.tickets != expect.tickets {
        add(
            checks,
            CheckId::RecordCount,
            None,
            format!(
                "tickets.bin holds {} records, the block has {} tickets",
                total.tickets, expect.tickets
            ),
        );
    }
    for (c, what) in [
        (
            total.extra_csv,
            "tickets.csv has {} rows more than tickets.bin",
        ),
        (
            total.missing_csv,
            "tickets.csv has {} rows fewer than tickets.bin",
        ),
    ] {
        if c.0 > 0 {
            add(
                checks,
                CheckId::RecordCount,
                c.1.map(|t| t as u32),
                what.replace("{}", &c.0.to_string()),
            );
        }
    }
    match open(VALIDATION, checks) {
        Some(val) => {
            let val = val.reader;
            let claims = std::mem::take(&mut total.claims);
            let read = check_validation_file(val, spec, claims, text_limit, checks);
            run.hashes.push((VALIDATION.into(), read));
        }
        None => add(
            checks,
            CheckId::ValidationFile,
            None,
            format!("{VALIDATION} cannot be read"),
        ),
    }
    let mut codes = std::mem::take(&mut total.codes);
    codes.sort_unstable();
    let dups = codes.windows(2).filter(|w| w[0] == w[1]).count();
    if dups > 0 {
        add(
            checks,
            CheckId::ValidationCodes,
            None,
            format!("{dups} validation codes appear more than once"),
        );
    }
    for (id, f) in std::mem::take(&mut total.checks) {
        checks.entry(id).or_default().merge(f);
    }
    run.codes = codes;
    run.tickets = total.tickets;
    run.ways = std::mem::take(&mut total.ways);
    run.features = std::mem::take(&mut total.features);
    run.losing = std::mem::take(&mut total.losing);
    run.promised = total
        .promised
        .drain(..)
        .map(|(t, w, names)| (t, (w, names)))
        .collect();
    run.leakage = Some(std::mem::replace(&mut total.leakage, Tally::new(1)));
    run.payout = total.payout;
    run.counts = Some(total.counts);
    run.expect = Some(expect);
    run
}
