//! `verify`: the independent re-check of a finished block.
//!
//! It trusts nothing in the block but the spec copy (`spec.toml`), and checks that copy
//! against `SHA256SUMS`, the manifest and, optionally, a reference spec held by the auditor.
//! Then it re-reads `tickets.bin` and `tickets.csv` together, record by record, re-evaluates
//! every face with the rules (the mechanic's evaluator, which never sees how a face was
//! built), and re-tallies. A mismatch is a finding in the [`Report`], never a panic; only a
//! block directory that cannot be read at all is an error.
//!
//! The two ticket files are read once, in large blocks, by a reader thread that hashes them
//! as it goes; the records of each block are checked in parallel and the findings merged in
//! ticket order, so the report never depends on the number of threads.

pub mod report;

use crate::audit::leakage::{self, Tally};
use crate::audit::Audit;
use crate::games::{ColumnKind, Face};
use crate::generate::{self, Provenance};
use crate::output::manifest::Manifest;
use crate::output::{print_file, sums, tickets_csv, Ticket, BIN, CSV, MANIFEST, SPEC, SUMS};
use crate::rng::{Seed, SeedShare};
use crate::serial::{is_valid, serial};
use crate::spec::{GameSpec, WayId};
use rayon::prelude::*;
pub use report::{CheckId, CheckResult, FileDigest, Findings, Report, WayTally};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};

/// CSV bytes read per block.
const READ_BLOCK: usize = 8 << 20;
/// Tickets checked per parallel task.
const TASK_TICKETS: usize = 4096;

/// The way recorded for a ticket whose face realises no way of the spec (or has a face code
/// out of range) in [`Verified::ways`].
pub const NO_WAY: WayId = WayId::MAX;

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
    /// The evaluated way of every print record in order ([`NO_WAY`] when the face realises
    /// none); 2 bytes per ticket.
    pub ways: Vec<WayId>,
    /// The leakage gate's measures, when the ticket pass ran.
    pub leakage: Option<Vec<leakage::FieldResult>>,
    /// The replay's files, when a replay ran to the end.
    pub replay: Option<Vec<ReplayFile>>,
}

/// Why verify could not run at all (exit 2). Anything wrong *inside* a block is a finding.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The path is not a readable directory.
    #[error("{0}: not a block directory (expected a directory holding SHA256SUMS, manifest.json, tickets.csv, tickets.bin, spec.toml)")]
    NotADirectory(PathBuf),
}

type Checks = BTreeMap<CheckId, Findings>;

fn add(checks: &mut Checks, id: CheckId, ticket: Option<u32>, detail: impl Into<String>) {
    checks.entry(id).or_default().add(ticket, detail);
}

/// Verifies the block in `dir`. `reference`: the spec the auditor expects the block to be
/// made from (its text must equal the block's copy). `progress` is called with the number
/// of tickets checked so far. No replay (see [`audit`]).
pub fn verify(
    dir: &Path,
    reference: Option<&GameSpec>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, VerifyError> {
    let opts = Options {
        reference,
        seed: None,
    };
    Ok(inspect(dir, &opts, progress)?.report)
}

/// Verifies the block in `dir` (with a replay if `opts.seed` is given) and builds the audit
/// report: procedures, findings, randomness evidence, leakage measures. Errors: as
/// [`verify`]; anything wrong inside the block is a finding.
pub fn audit(
    dir: &Path,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Audit, VerifyError> {
    Ok(Audit::build(inspect(dir, opts, progress)?))
}

/// Every procedure of verify; returns the report and what the audit needs.
pub fn inspect(
    dir: &Path,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Verified, VerifyError> {
    let reference = opts.reference;
    if !dir.is_dir() {
        return Err(VerifyError::NotADirectory(dir.to_path_buf()));
    }
    let mut checks: Checks = BTreeMap::new();
    let mut not_run: Vec<CheckId> = Vec::new();
    let read = |name: &str| std::fs::read(dir.join(name));

    // SHA256SUMS.
    let listed: Vec<(String, String)> = match read(SUMS) {
        Ok(b) => match sums::parse(&String::from_utf8_lossy(&b)) {
            Ok(l) => l,
            Err((line, text)) => {
                add(
                    &mut checks,
                    CheckId::Sha256sums,
                    None,
                    format!("SHA256SUMS line {line} is malformed: {text:?}"),
                );
                Vec::new()
            }
        },
        Err(e) => {
            add(
                &mut checks,
                CheckId::Sha256sums,
                None,
                format!("cannot read SHA256SUMS: {e}"),
            );
            Vec::new()
        }
    };
    for name in [CSV, BIN, SPEC, MANIFEST] {
        if !listed.iter().any(|(n, _)| n == name) {
            add(
                &mut checks,
                CheckId::Sha256sums,
                None,
                format!("SHA256SUMS does not list {name}"),
            );
        }
    }
    let mut actual: BTreeMap<String, (u64, String)> = BTreeMap::new();
    for name in [SPEC, MANIFEST, SUMS] {
        if let Ok(b) = read(name) {
            actual.insert(
                name.into(),
                (b.len() as u64, hex::encode(Sha256::digest(&b))),
            );
        }
    }

    // The spec copy.
    let spec = match std::fs::read_to_string(dir.join(SPEC)) {
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

    let mut tickets = 0u64;
    let mut tally: Option<Vec<u64>> = None;
    let mut payout = 0u64;
    let mut block = manifest.as_ref().map(|m| m.block);
    let mut ways: Vec<WayId> = Vec::new();
    let mut leak: Option<Vec<leakage::FieldResult>> = None;
    match &spec {
        None => not_run.extend([
            CheckId::PrintHeader,
            CheckId::CsvHeader,
            CheckId::RecordCount,
            CheckId::Counts,
            CheckId::Leakage,
        ]),
        Some(spec) => {
            let mut run = check_tickets(dir, spec, block, &mut checks, progress);
            ways = std::mem::take(&mut run.ways);
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
            block = block.or(run.block);
            tickets = run.tickets;
            payout = run.payout;
            for (name, h) in run.hashes {
                actual.insert(name, h);
            }
            if let Some(counts) = &run.counts {
                for (i, w) in spec.ways.iter().enumerate() {
                    if counts[i] != u64::from(w.count) {
                        add(
                            &mut checks,
                            CheckId::Counts,
                            None,
                            format!(
                                "way \"{}\" ({}): {} tickets, the spec says {}",
                                w.id, w.amount, counts[i], w.count
                            ),
                        );
                    }
                }
                if payout != spec.payout().cents() {
                    add(
                        &mut checks,
                        CheckId::Counts,
                        None,
                        format!(
                            "evaluated payout {} differs from the spec's {}",
                            crate::money::Money(payout),
                            spec.payout()
                        ),
                    );
                }
            } else {
                not_run.push(CheckId::Counts);
            }
            tally = run.counts;
            if let Some(m) = &manifest {
                check_manifest(m, spec, &mut checks);
            }
        }
    }

    // Digests: SHA256SUMS and the manifest against what was read.
    for (name, hash) in &listed {
        match actual.get(name) {
            None => add(
                &mut checks,
                CheckId::Sha256sums,
                None,
                format!("{name} is listed but missing"),
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
                None => add(
                    &mut checks,
                    CheckId::Manifest,
                    None,
                    format!("{} is in the manifest but missing", f.name),
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
    if let (Some(given), Some(spec)) = (&opts.seed, &spec) {
        replayed = replay(
            spec,
            manifest.as_ref(),
            block,
            given,
            &actual,
            &mut checks,
            progress,
        );
        if replayed.is_none() && !checks.contains_key(&CheckId::Replay) {
            not_run.push(CheckId::Replay);
        }
    }

    let files: Vec<FileDigest> = [CSV, BIN, SPEC, MANIFEST, SUMS]
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

    let results: Vec<CheckResult> = CheckId::ALL
        .iter()
        .map(|&id| {
            let f = checks.remove(&id).unwrap_or_default();
            let result = if f.count > 0 {
                "fail"
            } else if id == CheckId::Replay && opts.seed.is_none() {
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
    let way_tallies = match (&spec, &tally) {
        (Some(s), Some(t)) => s
            .ways
            .iter()
            .enumerate()
            .map(|(i, w)| WayTally {
                way: w.id.clone(),
                amount: w.amount.to_string(),
                expected: u64::from(w.count),
                found: t[i],
            })
            .collect(),
        _ => Vec::new(),
    };
    let report = Report {
        dir: dir.display().to_string(),
        game: spec.as_ref().map(|s| s.id.clone()),
        block,
        tickets,
        clean,
        checks: results,
        ways: way_tallies,
        payout: tally.map(|_| crate::money::Money(payout).to_string()),
        files,
    };
    Ok(Verified {
        report,
        spec,
        manifest,
        ways,
        leakage: leak,
        replay: replayed,
    })
}

/// Replays the block from `given` in memory and compares every file's SHA-256 with the
/// block's (`actual`: name → (bytes, hex SHA-256) of what was read). Findings go to
/// [`CheckId::Replay`]; returns the files compared, or `None` when the replay could not run.
fn replay(
    spec: &GameSpec,
    manifest: Option<&Manifest>,
    block: Option<u32>,
    given: &SeedInput,
    actual: &BTreeMap<String, (u64, String)>,
    checks: &mut Checks,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<Vec<ReplayFile>> {
    let mut bad = |what: String| add(checks, CheckId::Replay, None, what);
    if let Some(m) = manifest {
        if !given.shares.is_empty() {
            let mine: Vec<String> = given.shares.iter().map(SeedShare::commitment).collect();
            match &m.seed_shares {
                None => bad("seed shares were given, but the manifest records none: the block was generated from a whole seed".into()),
                Some(theirs) if theirs.len() != mine.len() => bad(format!(
                    "{} seed shares were given, the manifest records {}",
                    mine.len(),
                    theirs.len()
                )),
                Some(theirs) => {
                    for (i, (a, b)) in mine.iter().zip(theirs).enumerate() {
                        if a != b {
                            bad(format!(
                                "seed share {} has commitment {a}, the manifest records {b} at that place",
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
    let Some(block) = block else {
        bad("the block number is unknown (no manifest, no print header): no replay".into());
        return None;
    };
    let provenance = match manifest {
        Some(m) => Provenance {
            seed_shares: m.seed_shares.clone(),
            tool: Some(m.tool.clone()),
            spec_source: Some(m.spec.source.clone()),
        },
        None => Provenance::default(),
    };
    let built = match generate::replay(spec, &given.seed, block, &provenance, progress) {
        Ok(b) => b,
        Err(e) => {
            bad(format!("the replay failed: {e}"));
            return None;
        }
    };
    let mut expected: Vec<(String, String)> = sums::parse(&built.sums).expect("own SHA256SUMS");
    expected.push((
        SUMS.into(),
        hex::encode(Sha256::digest(built.sums.as_bytes())),
    ));
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

/// The manifest's description of the block against the spec.
fn check_manifest(m: &Manifest, spec: &GameSpec, checks: &mut Checks) {
    let mut bad = |what: String| add(checks, CheckId::Manifest, None, what);
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
    if m.tickets != spec.block_size || m.pack_size != spec.pack_size || m.packs != spec.packs() {
        bad(format!(
            "{} tickets in {} packs of {}, the spec says {} in {} of {}",
            m.tickets,
            m.packs,
            m.pack_size,
            spec.block_size,
            spec.packs(),
            spec.pack_size
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
    if m.losers != u64::from(spec.ways[0].count) {
        bad(format!(
            "{} losers, the spec says {}",
            m.losers, spec.ways[0].count
        ));
    }
    let listed: Vec<(String, u64)> = m
        .tiers
        .iter()
        .flat_map(|t| t.ways.iter().map(|w| (w.id.clone(), w.count)))
        .collect();
    let want: Vec<(String, u64)> = spec.ways[1..]
        .iter()
        .map(|w| (w.id.clone(), u64::from(w.count)))
        .collect();
    if listed != want {
        bad("way counts differ from the spec's".into());
    }
}

/// What the ticket pass found besides findings.
struct TicketRun {
    block: Option<u32>,
    tickets: u64,
    counts: Option<Vec<u64>>,
    payout: u64,
    hashes: Vec<(String, (u64, String))>,
    /// Evaluated way of every print record, in order.
    ways: Vec<WayId>,
    /// Printed fields against win / lose (None when the record pass did not run).
    leakage: Option<Tally>,
}

/// One block of input for the checkers: complete CSV lines and the matching print records.
struct Batch {
    /// 0-based index of the first ticket.
    first: u64,
    csv: Vec<u8>,
    bin: Vec<u8>,
}

/// Reads `f` to fill `buf` up to `want` bytes (less at end of file), hashing what it reads.
fn read_hashed(
    f: &mut File,
    h: &mut Sha256,
    buf: &mut Vec<u8>,
    want: usize,
) -> std::io::Result<()> {
    let start = buf.len();
    buf.resize(start + want, 0);
    let mut got = 0;
    while got < want {
        let n = f.read(&mut buf[start + got..])?;
        if n == 0 {
            break;
        }
        got += n;
    }
    buf.truncate(start + got);
    h.update(&buf[start..]);
    Ok(())
}

/// Reads both ticket files after their headers, sends batches, returns the byte counts and
/// digests of both whole files. `csv_head`/`bin_head` are the header bytes already read.
fn reader(
    mut csv: File,
    mut bin: File,
    csv_head: &[u8],
    bin_head: &[u8],
    rec: usize,
    tx: SyncSender<Batch>,
) -> std::io::Result<[(u64, String); 2]> {
    let (mut hc, mut hb) = (Sha256::new(), Sha256::new());
    hc.update(csv_head);
    hb.update(bin_head);
    let (mut nc, mut nb) = (csv_head.len() as u64, bin_head.len() as u64);
    let mut carry: Vec<u8> = Vec::new();
    let mut first = 0u64;
    let mut csv_done = false;
    loop {
        let mut block = std::mem::take(&mut carry);
        if !csv_done {
            let before = block.len();
            read_hashed(&mut csv, &mut hc, &mut block, READ_BLOCK)?;
            nc += (block.len() - before) as u64;
            if block.len() - before < READ_BLOCK {
                csv_done = true;
            }
        }
        // Keep an incomplete last line for the next block (or send it as the last line).
        if !csv_done {
            match memchr::memrchr(b'\n', &block) {
                Some(p) => carry = block.split_off(p + 1),
                None => {
                    carry = block;
                    continue;
                }
            }
        } else if !block.is_empty() && block.last() != Some(&b'\n') {
            block.push(b'\n');
        }
        let lines = memchr::memchr_iter(b'\n', &block).count();
        let mut records = Vec::new();
        // At the end of the CSV, take every remaining record.
        let want = if csv_done {
            usize::MAX / 2
        } else {
            lines * rec
        };
        if csv_done {
            bin.read_to_end(&mut records)?;
            hb.update(&records);
        } else {
            read_hashed(&mut bin, &mut hb, &mut records, want)?;
        }
        nb += records.len() as u64;
        let n = lines.max(records.len().div_ceil(rec.max(1))) as u64;
        let batch = Batch {
            first,
            csv: block,
            bin: records,
        };
        if (!batch.csv.is_empty() || !batch.bin.is_empty()) && tx.send(batch).is_err() {
            break;
        }
        first += n;
        if csv_done {
            break;
        }
    }
    Ok([
        (nc, hex::encode(hc.finalize())),
        (nb, hex::encode(hb.finalize())),
    ])
}

/// Per-task accumulator of the ticket checks.
struct Acc {
    checks: Checks,
    counts: Vec<u64>,
    payout: u64,
    tickets: u64,
    extra_csv: u64,
    missing_csv: u64,
    first_extra: Option<u64>,
    first_missing: Option<u64>,
    ways: Vec<WayId>,
    leakage: Tally,
}

impl Acc {
    fn new(n_ways: usize, pack_size: u32) -> Acc {
        Acc {
            ways: Vec::new(),
            leakage: Tally::new(pack_size),
            checks: Checks::new(),
            counts: vec![0; n_ways],
            payout: 0,
            tickets: 0,
            extra_csv: 0,
            missing_csv: 0,
            first_extra: None,
            first_missing: None,
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
        self.extra_csv += later.extra_csv;
        self.missing_csv += later.missing_csv;
        self.first_extra = self.first_extra.or(later.first_extra);
        self.first_missing = self.first_missing.or(later.first_missing);
        self.ways.extend_from_slice(&later.ways);
        self.leakage.merge(&later.leakage);
    }
}

/// Everything a checker task needs about the block.
struct Ctx<'a> {
    spec: &'a GameSpec,
    block: u32,
    ncols: usize,
    expected_tickets: u64,
}

impl Ctx<'_> {
    /// Checks ticket index `i` (0-based) from its print record and CSV line (either may be
    /// missing when the files disagree in length).
    fn check(
        &self,
        i: u64,
        line: Option<&[u8]>,
        rec: Option<&[u8]>,
        rows: &mut tickets_csv::RowWriter,
        acc: &mut Acc,
    ) {
        let spec = self.spec;
        let t = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let Some(rec) = rec else {
            acc.extra_csv += 1;
            acc.first_extra.get_or_insert(i + 1);
            return;
        };
        if line.is_none() {
            acc.missing_csv += 1;
            acc.first_missing.get_or_insert(i + 1);
        }
        acc.tickets += 1;
        let r = print_file::read_record(rec, self.ncols);
        let ps = u64::from(spec.pack_size);
        let (pack, pos) = ((i / ps + 1) as u32, (i % ps + 1) as u32);
        if u64::from(r.ticket) != i + 1 || r.pack != pack || r.pack_position != pos {
            add(
                &mut acc.checks,
                CheckId::Positions,
                Some(t),
                format!("record {} says ticket {}, pack {}, position {}; expected ticket {}, pack {pack}, position {pos}", i + 1, r.ticket, r.pack, r.pack_position, i + 1),
            );
        }
        let want = serial(spec.game_code, spec.emission, self.block, pack, pos);
        if r.serial != want || !is_valid(&r.serial) {
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
            acc.ways.push(NO_WAY);
            return;
        }
        let ev = spec.mechanic.evaluate(&r.face);
        if !ev.ambiguities.is_empty() {
            add(
                &mut acc.checks,
                CheckId::Ambiguity,
                Some(t),
                ev.ambiguities.join("; "),
            );
        }
        let prize = ev.prize();
        acc.payout += prize.cents();
        let way = spec.recognise(&ev.wins);
        acc.ways.push(way.unwrap_or(NO_WAY));
        acc.leakage.add(
            r.ticket,
            r.pack,
            r.pack_position,
            &r.serial,
            prize.cents() > 0,
        );
        match way {
            Some(w) => acc.counts[w as usize] += 1,
            None => add(
                &mut acc.checks,
                CheckId::WayRecognised,
                Some(t),
                format!("the face wins {prize}, which no way of the spec gives"),
            ),
        }
        self.check_captions(&r.face, t, acc);
        if let Some(line) = line {
            let ticket = Ticket {
                block: self.block,
                pack: r.pack,
                pack_position: r.pack_position,
                ticket: r.ticket,
                serial: r.serial,
                prize,
                way: way.unwrap_or(0),
                face: r.face,
            };
            rows.clear();
            rows.push(&ticket);
            let expected = &rows.bytes()[..rows.bytes().len() - 1];
            if line != expected || way.is_none() {
                let detail = explain(line, expected, way.is_none(), prize);
                if !detail.is_empty() {
                    add(&mut acc.checks, CheckId::CsvMatchesPrint, Some(t), detail);
                }
            }
        }
    }

    /// Every amount column's caption column holds the spec's caption of that amount
    /// (décret n°78-1067 and GAMES.md: a missing or wrong caption is a printing anomaly).
    fn check_captions(&self, face: &Face, t: u32, acc: &mut Acc) {
        let cols = self.spec.mechanic.columns();
        for (ci, c) in cols.iter().enumerate() {
            if let ColumnKind::Caption { of } = c.kind {
                let shown = &c.values[face.codes[ci] as usize];
                if let ColumnKind::Amount(amounts) = &cols[of].kind {
                    let amount = amounts[face.codes[of] as usize];
                    if self.spec.caption(amount) != Some(shown.as_str()) {
                        add(
                            &mut acc.checks,
                            CheckId::Captions,
                            Some(t),
                            format!("{} shows {amount} captioned \"{shown}\"; the spec's caption is \"{}\"", cols[of].name, self.spec.caption(amount).unwrap_or("(none)")),
                        );
                    }
                }
            }
        }
    }
}

/// Names the columns where a CSV row differs from the expected one.
fn explain(line: &[u8], expected: &[u8], unrecognised: bool, prize: crate::money::Money) -> String {
    let got = tickets_csv::fields(line);
    let want = tickets_csv::fields(expected);
    let mut names: Vec<&str> = tickets_csv::META_COLUMNS.to_vec();
    let face_names: Vec<String> = (0..want.len().saturating_sub(names.len()))
        .map(|k| format!("face column {}", k + 1))
        .collect();
    names.extend(face_names.iter().map(String::as_str));
    let mut diffs = Vec::new();
    if got.len() != want.len() {
        diffs.push(format!("{} fields, expected {}", got.len(), want.len()));
    }
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        if g != w {
            let name = names.get(k).copied().unwrap_or("?");
            let why = match name {
                "prize" | "way" if unrecognised => {
                    format!(" (the face wins {prize}, no way of the spec)")
                }
                "prize" | "way" => " (by the evaluation of the face)".to_string(),
                _ => " (per tickets.bin)".to_string(),
            };
            if unrecognised && matches!(name, "way") {
                continue;
            }
            diffs.push(format!(
                "{name}: tickets.csv has {g:?}, expected {w:?}{why}"
            ));
        }
    }
    diffs.join("; ")
}

/// The record-by-record pass over both ticket files.
fn check_tickets(
    dir: &Path,
    spec: &GameSpec,
    block: Option<u32>,
    checks: &mut Checks,
    progress: &(dyn Fn(u64) + Sync),
) -> TicketRun {
    let mut run = TicketRun {
        block,
        tickets: 0,
        counts: None,
        payout: 0,
        hashes: Vec::new(),
        ways: Vec::new(),
        leakage: None,
    };
    let open = |name: &str, checks: &mut Checks| match File::open(dir.join(name)) {
        Ok(f) => Some(f),
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
    let (Some(mut csv), Some(mut bin)) = (open(CSV, checks), open(BIN, checks)) else {
        return run;
    };
    // Print file header.
    let mut fixed = Vec::new();
    let mut hdr_hash = Sha256::new();
    let _ = read_hashed(&mut bin, &mut hdr_hash, &mut fixed, 30);
    let header = match print_file::read_header(&fixed) {
        Ok(h) => h,
        Err(e) => {
            add(checks, CheckId::PrintHeader, None, e);
            return run;
        }
    };
    let block = *run.block.get_or_insert(header.block);
    let mut bin_head = fixed;
    if header.header_size > 30 && header.header_size < (1 << 24) {
        let _ = read_hashed(
            &mut bin,
            &mut hdr_hash,
            &mut bin_head,
            header.header_size - 30,
        );
    }
    let want_head = print_file::header(spec, block, spec.block_size);
    let rec = print_file::record_size(spec);
    if bin_head != want_head {
        let got = print_file::read_header(&bin_head).ok();
        let want = print_file::read_header(&want_head).expect("own header");
        let detail = match got {
            Some(g) if g != want => format!("header fields {g:?}, expected {want:?}"),
            _ => "the column dictionaries differ from the spec's".into(),
        };
        add(checks, CheckId::PrintHeader, None, detail);
        if header.record_size != rec || header.header_size != want_head.len() {
            return run;
        }
    }
    // CSV header line.
    let want_csv_head = tickets_csv::header(spec);
    let mut csv_head = Vec::new();
    let mut byte = [0u8; 1];
    while csv_head.len() < 1 << 16 {
        match csv.read(&mut byte) {
            Ok(1) => {
                csv_head.push(byte[0]);
                if byte[0] == b'\n' {
                    break;
                }
            }
            _ => break,
        }
    }
    if csv_head != want_csv_head {
        add(
            checks,
            CheckId::CsvHeader,
            None,
            format!(
                "header {:?}, expected {:?}",
                String::from_utf8_lossy(&csv_head).trim_end(),
                String::from_utf8_lossy(&want_csv_head).trim_end()
            ),
        );
    }

    let ctx = Ctx {
        spec,
        block,
        ncols: spec.mechanic.columns().len(),
        expected_tickets: u64::from(spec.block_size),
    };
    let (tx, rx) = sync_channel::<Batch>(2);
    let mut total = Acc::new(spec.ways.len(), spec.pack_size);
    total.ways.reserve(spec.block_size as usize);
    let reader_result = std::thread::scope(|s| {
        let h = s.spawn(|| reader(csv, bin, &csv_head, &bin_head, rec, tx));
        for batch in rx {
            let ends: Vec<usize> = memchr::memchr_iter(b'\n', &batch.csv).collect();
            let nrec = batch.bin.len() / rec;
            let n = ends.len().max(nrec);
            let starts = |k: usize| if k == 0 { 0 } else { ends[k - 1] + 1 };
            let accs: Vec<Acc> = (0..n.div_ceil(TASK_TICKETS))
                .into_par_iter()
                .map_init(
                    || tickets_csv::RowWriter::new(spec),
                    |rows, task| {
                        let mut acc = Acc::new(spec.ways.len(), spec.pack_size);
                        for k in task * TASK_TICKETS..((task + 1) * TASK_TICKETS).min(n) {
                            let line = (k < ends.len()).then(|| &batch.csv[starts(k)..ends[k]]);
                            let r = (k < nrec).then(|| &batch.bin[k * rec..(k + 1) * rec]);
                            ctx.check(batch.first + k as u64, line, r, rows, &mut acc);
                        }
                        acc
                    },
                )
                .collect();
            for a in accs {
                total.merge(a);
            }
            progress(batch.first + n as u64);
        }
        h.join().expect("reader thread panicked")
    });
    match reader_result {
        Ok([c, b]) => run.hashes = vec![(CSV.into(), c), (BIN.into(), b)],
        Err(e) => add(
            checks,
            CheckId::RecordCount,
            None,
            format!("read error: {e}"),
        ),
    }
    if total.tickets != ctx.expected_tickets {
        add(
            checks,
            CheckId::RecordCount,
            None,
            format!(
                "tickets.bin holds {} records, the block has {} tickets",
                total.tickets, ctx.expected_tickets
            ),
        );
    }
    if total.extra_csv > 0 {
        add(
            checks,
            CheckId::RecordCount,
            total.first_extra.map(|t| t as u32),
            format!(
                "tickets.csv has {} rows more than tickets.bin",
                total.extra_csv
            ),
        );
    }
    if total.missing_csv > 0 {
        add(
            checks,
            CheckId::RecordCount,
            total.first_missing.map(|t| t as u32),
            format!(
                "tickets.csv has {} rows fewer than tickets.bin",
                total.missing_csv
            ),
        );
    }
    for (id, f) in std::mem::take(&mut total.checks) {
        checks.entry(id).or_default().merge(f);
    }
    run.tickets = total.tickets;
    run.payout = total.payout;
    run.counts = Some(total.counts);
    run.ways = total.ways;
    run.leakage = Some(total.leakage);
    run
}
