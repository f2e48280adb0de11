//! The audit report: verify's procedures and findings, shaped like an agreed-upon-procedures
//! report (procedures performed, factual findings, exceptions), with the evidence that the
//! block's winners sit where nobody could choose or predict them.
//!
//! [`Audit::build`] takes what [`crate::verify::inspect`] found — verify's own [`Report`]
//! (every face re-evaluated, counts, digests), the evaluated way of every ticket in print
//! order, the leakage measures and the replay — and adds the randomness statistics
//! ([`randomness`]). [`Audit::write`] puts `audit.md`, `audit.json`, `audit.pdf` and
//! `audit.svg` in a directory beside the block ([`default_dir`]: `block-001.audit/`, never
//! inside the delivered block, nor inside an emission) or one given, each through a temporary name and a rename, so
//! a re-run replaces them whole. Each file is created mode 0600, in a directory only its
//! owner can enter (0700), whatever the umask. They are not deliverables of the block:
//! SHA256SUMS does not list them and verify reads only the files it lists.
//!
//! Decisions: a statistic with p < [`FLAG_P`] is an **exception** — reported in words, but
//! not a finding (verify still exits 0), since 1 % of honest blocks flag any given test by
//! chance. The leakage gate (p < [`leakage::GATE_P`]) and a replay that does not give the
//! same bytes are **findings** (verify exits 1), like every other failed procedure.

pub mod chart;
pub mod doc;
pub mod emission;
pub use crate::verify::leakage;
pub mod randomness;

use crate::money::grouped;
use crate::output::manifest::{Game, Tool};
use crate::spec::{GameSpec, WayId};
use crate::verify::{CheckId, CheckResult, ReplayFile, Report, SeedInput, Verified};
use doc::Block;
use randomness::Evidence;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use crate::alloc::stats::FLAG_P;

/// Audit report format identifier (`audit.json`'s `format`).
pub const FORMAT: &str = "tirage-audit/1";

pub use crate::block::layout::{AUDIT_JSON, AUDIT_MD, AUDIT_PDF, AUDIT_SVG};

/// What one exception means, in words.
pub const EXCEPTION_MEANING: &str = "a result this far from what an honest random block gives happens by chance in 1 % of honest blocks; an exception calls for a look (for instance at the chart, or at the next blocks), it is not by itself evidence of bias";

/// Counts of one tier against the spec.
#[derive(Clone, Debug, Serialize)]
pub struct TierTally {
    /// Lot amount (currency units): an item's stated value.
    pub amount: String,
    /// The prize when it is not money (`FREE TICKET`); absent for cash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// Tickets the spec requires.
    pub expected: u64,
    /// Tickets found by evaluating every face; `None` (null) when no face was evaluated
    /// (the ticket pass did not run: see the procedures).
    pub found: Option<u64>,
    /// Its ways (ids).
    pub ways: Vec<String>,
}

/// Money totals of the block.
#[derive(Clone, Debug, Serialize)]
pub struct Totals {
    /// Ticket price (currency units).
    pub price: String,
    /// Tickets.
    pub tickets: u64,
    /// Winning tickets found.
    pub lots: u64,
    /// Winning tickets the spec requires.
    pub lots_expected: u64,
    /// Total payout found by evaluating every face (currency units).
    pub payout: String,
    /// Total payout the spec requires.
    pub payout_expected: String,
    /// Tickets the block must hold (every way's count, losers included).
    pub tickets_expected: u64,
    /// Payout found ÷ (tickets read × price); 0 when no ticket was read.
    pub payout_ratio: f64,
    /// Payout required ÷ (tickets required × price).
    pub payout_ratio_expected: f64,
    /// When a tier's prize is not money: the found payout's cash and its items' stated
    /// value (currency units), adding up to `payout`; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cash_and_items: Option<(String, String)>,
}

/// One exception: a test at p < 1 %.
#[derive(Clone, Debug, Serialize)]
pub struct Exception {
    /// Test id.
    pub id: String,
    /// What it tests.
    pub test: String,
    /// Its p-value.
    pub p_value: f64,
    /// What it means.
    pub meaning: &'static str,
}

/// The seed a replay used, by commitment (never the secret itself).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReplaySeed {
    /// Commitment of the master seed the replay ran from (`Seed::commitment`).
    pub seed_commitment: String,
    /// When the seed was combined from shares (`--seed-share`): for each share in order,
    /// the manifest's commitment it opens (`(opens none)` when it opens none). Empty when
    /// the seed was given whole (`--seed-file`).
    pub share_commitments: Vec<String>,
}

impl ReplaySeed {
    /// What `seed` is, by commitment; a share is named by the commitment of `recorded`
    /// (the manifest's) at its place that it opens.
    pub fn of(seed: &SeedInput, recorded: Option<&[String]>) -> ReplaySeed {
        ReplaySeed {
            seed_commitment: seed.seed.commitment(),
            share_commitments: seed
                .shares
                .iter()
                .enumerate()
                .map(|(i, sh)| {
                    recorded
                        .and_then(|r| r.get(i))
                        .filter(|c| crate::crypto::ceremony::opens(c, sh))
                        .cloned()
                        .unwrap_or_else(|| "(opens none)".into())
                })
                .collect(),
        }
    }
}

/// The whole audit report (`audit.json`; `audit.md` and `audit.pdf` render it).
#[derive(Clone, Debug, Serialize)]
pub struct Audit {
    /// Always [`FORMAT`].
    pub format: &'static str,
    /// `clean`, `clean, with exceptions` or `findings` (verify exits 1 only on findings).
    pub verdict: &'static str,
    /// What the verdict rests on, in words: signer, reference spec, replay, encryption,
    /// codes (the `held against` of verify's verdict line).
    pub held_against: String,
    /// What the counts were held against: the reference spec (`--spec`, with its SHA-256)
    /// or only the block's own spec copy.
    pub lot_table_held_against: String,
    /// When the procedures ran, UTC, as `YYYY-MM-DD HH:MM:SS UTC` ([`report_time`]: the
    /// clock, or `SOURCE_DATE_EPOCH` when set).
    pub date_utc: String,
    /// The host name of the machine verify ran on.
    pub host: String,
    /// The auditor named on the command line (`--auditor`), if any.
    pub auditor: Option<String>,
    /// The operator named on the command line (`--operator`), if any.
    pub operator: Option<String>,
    /// The game as the block's manifest describes it (full name, legal reference, game
    /// code, emission).
    pub game: Option<Game>,
    /// The seed the replay used, by commitment; `None` when no seed was given.
    pub replay_seed: Option<ReplaySeed>,
    /// The tool that generated the block (from its manifest).
    pub generated_by: Option<Tool>,
    /// The tool that ran these procedures (this build).
    pub verified_by: Tool,
    /// True when the same build generated and verified the block (the manifest's and this
    /// build's binary SHA-256 are one): the procedures then ran through the generator's own
    /// code, so the verification is not independent of it ([`Tool::same_build_as`]).
    pub same_build: bool,
    /// The block's seed commitment (manifest).
    pub seed_commitment: Option<String>,
    /// The commitments of its seed shares (manifest), when it was made from shares.
    pub seed_shares: Option<Vec<String>>,
    /// Hex SHA-256 of the block's spec.toml.
    pub spec_sha256: Option<String>,
    /// Verify's report: every procedure, the counts per way, every file's digests.
    pub report: Report,
    /// Counts per tier against the spec.
    pub tiers: Vec<TierTally>,
    /// Money totals.
    pub totals: Option<Totals>,
    /// How uniqueness of the serials is established.
    pub serials: String,
    /// The randomness tests, when every ticket was evaluated to a way.
    pub randomness: Option<Evidence>,
    /// Why the randomness tests did not run, if they did not.
    pub randomness_not_run: Option<String>,
    /// Each printed field's association with win / lose.
    pub leakage: Option<Vec<leakage::FieldResult>>,
    /// The replay's files, when a replay ran.
    pub replay: Option<Vec<ReplayFile>>,
    /// Every test at p < 1 % (randomness, and leakage below the gate's threshold).
    pub exceptions: Vec<Exception>,
    /// Number of tests with a p-value (randomness and leakage).
    pub tests_with_p_values: usize,
}

/// Why the audit report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A file could not be written or renamed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The directory given for the report is not one only its owner can enter.
    #[error("{}: {why}: the audit report goes only into a directory its owner alone can enter (mode 0700): chmod 700 it, or name a new directory (tirage creates it 0700)", path.display())]
    NotPrivate {
        /// The directory.
        path: PathBuf,
        /// What is wrong with it (its mode, its owner, not a directory).
        why: String,
    },
}

/// The directory beside block directory `block` that receives its audit report by
/// default: `<block>.audit` (`output/coq/block-001` → `output/coq/block-001.audit`), never
/// inside the block, which is what is delivered; for a block of an emission, beside the
/// emission, which is delivered as it is too: `<emission>.<block>.audit` (`EM/block-003`
/// → `EM.block-003.audit`, by the emission's real path), as render puts its proofs. `None`
/// when `block` names no directory that has a name and a parent (`/`).
pub fn default_dir(block: &Path) -> Option<PathBuf> {
    let named = |p: &Path| {
        let name = p.file_name()?.to_str()?.to_string();
        // A bare name (`block-002`) lies in the current directory.
        let parent = p.parent().map(|e| {
            if e.as_os_str().is_empty() {
                Path::new(".")
            } else {
                e
            }
        });
        match parent.filter(|e| crate::verify::emission::is_emission(e)) {
            Some(e) => {
                let emission = std::fs::canonicalize(e).ok()?;
                let of = emission.file_name()?.to_str()?;
                Some(
                    emission
                        .with_file_name(crate::block::layout::audit_dir(&format!("{of}.{name}"))),
                )
            }
            None => Some(p.with_file_name(crate::block::layout::audit_dir(&name))),
        }
    };
    // `.`, `..` or `x/..` have no name of their own: the real path's.
    match block.components().next_back() {
        Some(std::path::Component::Normal(_)) => named(block),
        _ => named(&std::fs::canonicalize(block).ok()?),
    }
}

/// Writes each `(name, bytes)` as the report in `dir` (a report's private directory, which
/// exists): the whole report is written and flushed first into a new private directory
/// beside `dir` (`.<dir>.report-*`), which then takes `dir`'s place in one step
/// (`renameat2(RENAME_EXCHANGE)`), and the earlier report, now under the temporary name, is
/// removed. So a run that fails, is stopped or crashes leaves the earlier report whole
/// under `dir`, or the new one, never part of each. A `dir` that holds files other than a
/// report (a `--report` directory of the user's, another run's temporary file), or on a
/// file system that cannot exchange names, gets each file written to a temporary name in it
/// and renamed into place, one after the other. Temporaries of runs that died are removed
/// last. Returns the paths written. Errors: [`AuditError::Io`], naming the file.
pub(crate) fn write_files(
    dir: &Path,
    files: Vec<(&str, Vec<u8>)>,
) -> Result<Vec<PathBuf>, AuditError> {
    let written: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
    // A directory given through a link is written where the link points, the link kept.
    let real = std::fs::canonicalize(dir).map_err(|error| AuditError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let only_a_report = std::fs::read_dir(&real).is_ok_and(|entries| {
        entries.flatten().all(|e| {
            e.file_type().is_ok_and(|t| t.is_file())
                && e.file_name()
                    .to_str()
                    .is_some_and(|n| [AUDIT_MD, AUDIT_JSON, AUDIT_PDF, AUDIT_SVG].contains(&n))
        })
    });
    if only_a_report && swap_in(&real, &files)? {
        remove_stale_reports(&real);
        return Ok(written);
    }
    let mut staged = Vec::new();
    for (name, bytes) in files {
        let path = dir.join(name);
        let io = |error| AuditError::Io {
            path: path.clone(),
            error,
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .tempfile_in(dir)
            .map_err(io)?;
        std::io::Write::write_all(&mut tmp, &bytes).map_err(io)?;
        staged.push((path, tmp));
    }
    for (path, tmp) in staged {
        tmp.persist(&path).map_err(|e| AuditError::Io {
            path: path.clone(),
            error: e.error,
        })?;
    }
    remove_stale_temporaries(dir);
    Ok(written)
}

/// The prefix of the directory a report of `dir` is staged in, beside it.
fn staging_prefix(dir: &Path) -> Option<String> {
    Some(format!(".{}.report-", dir.file_name()?.to_str()?))
}

/// Writes `files` into a new private directory beside `dir` (a real path, a directory that
/// holds only a report), flushes it, and exchanges the two names; the earlier report is
/// then removed with the temporary directory. Returns true when the report is in place,
/// false when it must be written file by file instead (no name or parent to stage beside,
/// or a file system that cannot exchange names). Errors: [`AuditError::Io`].
fn swap_in(dir: &Path, files: &[(&str, Vec<u8>)]) -> Result<bool, AuditError> {
    let (Some(prefix), Some(parent)) = (staging_prefix(dir), dir.parent()) else {
        return Ok(false);
    };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| AuditError::Io { path, error }
    };
    let staged = crate::store::durable::private_tempdir(parent, &prefix).map_err(io(dir))?;
    for (name, bytes) in files {
        let path = staged.path().join(name);
        crate::store::durable::write_file(&path, bytes).map_err(io(&path))?;
    }
    crate::store::durable::sync_dir(staged.path()).map_err(io(staged.path()))?;
    match crate::store::durable::exchange(staged.path(), dir) {
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => return Ok(false),
        r => r.map_err(io(dir))?,
    }
    // The earlier report is under the temporary name now, and goes with it.
    let _ = crate::store::durable::sync_dir(parent);
    Ok(true)
}

/// Removes the staging directories of reports of `dir` (beside it) that runs which died
/// left, ten minutes old or more, holding only report files.
fn remove_stale_reports(dir: &Path) {
    let (Some(prefix), Some(parent)) = (staging_prefix(dir), dir.parent()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let old = std::time::Duration::from_secs(600);
    for e in entries.flatten() {
        let ours = e
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(&prefix));
        let stale = e
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_dir)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > old);
        if ours && stale {
            let Ok(inner) = std::fs::read_dir(e.path()) else {
                continue;
            };
            for f in inner.flatten() {
                if f.file_name()
                    .to_str()
                    .is_some_and(crate::block::layout::is_report_file)
                {
                    let _ = std::fs::remove_file(f.path());
                }
            }
            let _ = std::fs::remove_dir(e.path());
        }
    }
}

/// Makes `dir` a directory only its owner can enter, for a report: created mode 0700
/// (whatever the umask; missing parents as `mkdir -p` makes them) when missing. An existing
/// one must be a directory of this user; `beside` (tirage's own `<block>.audit`) is
/// narrowed to 0700 when it is wider, a directory given (`--report`) must be 0700 already
/// ([`AuditError::NotPrivate`] otherwise, nothing written).
fn private_dir(dir: &Path, beside: bool) -> Result<(), AuditError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    let io = |error| AuditError::Io {
        path: dir.to_path_buf(),
        error,
    };
    let not_private = |why: String| AuditError::NotPrivate {
        path: dir.to_path_buf(),
        why,
    };
    // Tirage's own directory is never followed through a link; a directory given is.
    let meta = if beside {
        std::fs::symlink_metadata(dir)
    } else {
        std::fs::metadata(dir)
    };
    match meta {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(io)?;
            }
            std::fs::DirBuilder::new()
                .mode(0o700)
                .create(dir)
                .map_err(io)?;
            // Exactly 0700 whatever the umask took away (it is still empty).
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io)
        }
        Err(e) => Err(io(e)),
        Ok(m) if !m.is_dir() => Err(not_private("not a directory".into())),
        Ok(m) if m.uid() != rustix::process::getuid().as_raw() => Err(not_private(format!(
            "owned by user {}, not by this user",
            m.uid()
        ))),
        Ok(m) if m.mode() & 0o077 == 0 => Ok(()),
        Ok(_) if beside => {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io)
        }
        Ok(m) => Err(not_private(format!(
            "mode {:04o} lets others in",
            m.mode() & 0o7777
        ))),
    }
}

/// Checks, before any work, that a directory given for the report (`--report DIR`) can
/// receive it as [`Audit::write`] would: a missing one is made then; an existing one must
/// be a directory of this user that only its owner can enter. Creates nothing. Errors:
/// [`AuditError::NotPrivate`] (its mode, its owner, not a directory), or [`AuditError::Io`]
/// when it cannot be looked at.
pub fn report_dir_usable(dir: &Path) -> Result<(), AuditError> {
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(AuditError::Io {
            path: dir.to_path_buf(),
            error,
        }),
        // Exactly the checks of the write, which makes nothing for an existing directory.
        Ok(_) => private_dir(dir, false),
    }
}

/// The time the report states, UTC: `SOURCE_DATE_EPOCH` (seconds since 1970, the
/// reproducible-builds convention) when set, so that a report can be made byte for byte
/// again; else the clock. Errors: a `SOURCE_DATE_EPOCH` that is not a whole number of
/// seconds from 0 to 253402300799 (year 9999), named with its value.
pub fn report_time() -> Result<String, String> {
    let secs = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(v) => v
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|s| (0..=253_402_300_799).contains(s))
            .ok_or_else(|| {
                format!(
                    "SOURCE_DATE_EPOCH={v:?}: expected whole seconds since 1970-01-01 00:00:00 UTC (0 to 253402300799)"
                )
            })?,
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64),
    };
    Ok(utc_text(secs))
}

/// `secs` since 1970-01-01 00:00:00 UTC as `YYYY-MM-DD HH:MM:SS UTC` (proleptic
/// Gregorian calendar; `secs` ≥ 0).
pub fn utc_text(secs: i64) -> String {
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days to civil date (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// This machine's host name (`/proc/sys/kernel/hostname`, else `/etc/hostname`), or
/// `unknown`.
pub fn host_name() -> String {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|s| s.trim().to_string())
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// The tiers of `spec` with the tickets the block must hold of each and those found, and
/// the totals (lots, payout, payout ratio) when verify tallied the ways. What the block must
/// hold: the lot table's counts for a production block, a deck's own counts (from its
/// composition and size) for a deck; verify's way tallies carry them either way.
fn counts_of(report: &Report, spec: &GameSpec) -> (Vec<TierTally>, Option<Totals>) {
    let found = |w: usize| {
        report
            .ways
            .get(w)
            .map_or(0, |t: &crate::verify::WayTally| t.found)
    };
    let expected = |w: usize| {
        report
            .ways
            .get(w)
            .map_or(u64::from(spec.ways[w].count), |t| t.expected)
    };
    let payout_expected: u64 = (1..spec.ways.len())
        .map(|w| expected(w) * spec.ways[w].amount.cents())
        .sum();
    let tiers: Vec<TierTally> = spec
        .tiers
        .iter()
        .map(|t| TierTally {
            amount: t.amount.to_string(),
            item: t.item.clone(),
            expected: t.ways.iter().map(|&w| expected(w as usize)).sum(),
            found: (!report.ways.is_empty())
                .then(|| t.ways.iter().map(|&w| found(w as usize)).sum()),
            ways: t
                .ways
                .iter()
                .map(|&w| spec.ways[w as usize].id.clone())
                .collect(),
        })
        .collect();
    if report.ways.is_empty() {
        return (tiers, None);
    }
    // Each ratio over the sales of its own tickets: those read, those the block must hold
    // (every way's count, losers included); 0 when there are none.
    let ratio = |payout: u64, tickets: u64| {
        let sales = spec.price.cents() as f64 * tickets as f64;
        if sales > 0.0 {
            payout as f64 / sales
        } else {
            0.0
        }
    };
    let tickets_expected: u64 = (0..spec.ways.len()).map(expected).sum();
    let payout_cents: u64 = report
        .payout
        .as_deref()
        .and_then(|p| p.parse::<crate::money::Money>().ok())
        .map_or(0, |m| m.cents());
    let totals = Totals {
        price: spec.price.to_string(),
        tickets: report.tickets,
        lots: tiers.iter().filter_map(|t| t.found).sum(),
        lots_expected: tiers.iter().map(|t| t.expected).sum(),
        payout: report.payout.clone().unwrap_or_default(),
        payout_expected: crate::money::Money(payout_expected).to_string(),
        tickets_expected,
        payout_ratio: ratio(payout_cents, report.tickets),
        payout_ratio_expected: ratio(payout_expected, tickets_expected),
        cash_and_items: spec.has_items().then(|| {
            let items: u64 = spec
                .tiers
                .iter()
                .filter(|t| t.item.is_some())
                .flat_map(|t| &t.ways)
                .map(|&w| found(w as usize) * spec.ways[w as usize].amount.cents())
                .sum();
            (
                crate::money::Money(payout_cents.saturating_sub(items)).to_string(),
                crate::money::Money(items).to_string(),
            )
        }),
    };
    (tiers, Some(totals))
}

/// The randomness tests of the arrangement `ways` (the way of every print record), under
/// the pack constraints in force (none on a specimen deck). Errors: why they cannot run
/// (no spec, not every ticket read, tickets that realise no way), in words.
fn arrangement(
    report: &Report,
    spec: Option<&GameSpec>,
    ways: &[WayId],
) -> Result<Evidence, String> {
    let Some(spec) = spec else {
        return Err("the spec could not be read".into());
    };
    // Each face that cannot be judged (`face_codes`) is also a `way_recognised` finding.
    let unrecognised = report
        .checks
        .iter()
        .filter(|c| c.id.name() == "way_recognised")
        .map(|c| c.findings)
        .sum::<u64>();
    if report.ways.is_empty() {
        // The ticket pass did not run (no tally of the ways).
        return Err(format!(
            "no face was evaluated{}: the arrangement cannot be tested",
            why_no_face(report)
        ));
    }
    if unrecognised > 0 {
        return Err(format!(
            "{} (see `way_recognised`): the arrangement cannot be tested",
            match unrecognised {
                1 => "1 ticket realises no way of the spec".to_string(),
                n => format!("{} tickets realise no way of the spec", grouped(n)),
            }
        ));
    }
    let tickets = report.ways.iter().map(|w| w.expected).sum::<u64>();
    if tickets == 0 || ways.len() as u64 != tickets {
        return Err(format!(
            "{} print records read, the block has {} tickets: the arrangement cannot be tested",
            grouped(ways.len() as u64),
            grouped(tickets)
        ));
    }
    // The laws the randomness tests expect are the allocation's under the constraints.
    let rules = if report.pack_rules.is_empty() {
        crate::spec::PackRules::default()
    } else {
        spec.pack_rules.clone()
    };
    Ok(randomness::analyze(spec, &rules, ways))
}

/// Why no face was evaluated, when the ticket pass did not run, as a clause to follow "no
/// face was evaluated": the first of the procedures that stop it (the spec, the print
/// file's header, tickets.csv's header, the files' records) that failed, which section 1
/// names with its findings; empty when none of them failed.
fn why_no_face(report: &Report) -> String {
    let stopping = |id| {
        matches!(
            id,
            CheckId::Spec | CheckId::PrintHeader | CheckId::CsvHeader | CheckId::RecordCount
        )
    };
    let failed = |c: &&CheckResult| c.result == "fail" && stopping(c.id);
    match report.checks.iter().find(failed) {
        Some(c) => format!(
            " (the tickets were not read once `{}` failed: see section 1)",
            c.id.name()
        ),
        None => String::new(),
    }
}

/// The exceptions (p < 1 %) of the randomness tests and of the leakage measures, with the
/// number of tests that gave a p-value.
fn exceptions_of(
    randomness: Option<&Evidence>,
    leakage: Option<&[leakage::FieldResult]>,
) -> (Vec<Exception>, usize) {
    let mut exceptions: Vec<Exception> = Vec::new();
    let mut tests = 0;
    if let Some(e) = randomness {
        tests += e.statistics.iter().filter(|s| s.p_value.is_some()).count();
        exceptions.extend(e.exceptions().map(|s| Exception {
            id: s.id.clone(),
            test: s.test.clone(),
            p_value: s.p_value.unwrap_or(0.0),
            meaning: EXCEPTION_MEANING,
        }));
    }
    if let Some(l) = leakage {
        tests += l.iter().filter(|r| r.p_value.is_some()).count();
        exceptions.extend(
            l.iter()
                .filter(|r| r.result == "exception")
                .map(|r| Exception {
                    id: format!("leakage_{}", r.field),
                    test: format!("association of the {} with win/lose", r.measures),
                    p_value: r.p_value.unwrap_or(0.0),
                    meaning: EXCEPTION_MEANING,
                }),
        );
    }
    (exceptions, tests)
}

/// What the report says of the uniqueness of serials, from the result of the serials
/// procedure.
fn serials_text(report: &Report) -> String {
    let serials_check = report.checks.iter().find(|c| c.id.name() == "serials");
    match serials_check.map(|c| c.result) {
        Some("pass") => format!(
            "Each of the {} serials is the documented serial of its own print position (game, emission, block, pack, position in fixed-width fields, Luhn digit); that encoding is injective and positions run 1..N, so the {} serials are distinct",
            report.tickets, report.tickets
        ),
        Some(r) => format!("Not established: the serials procedure's result is \"{r}\""),
        None => "Not established".into(),
    }
}

impl Audit {
    /// Builds the audit report from what verify found.
    pub fn build(v: Verified) -> Audit {
        let Verified {
            report,
            spec,
            manifest,
            ways,
            leakage,
            replay,
            codes: _,
        } = v;
        let (tiers, totals) = match &spec {
            Some(spec) => counts_of(&report, spec),
            None => (Vec::new(), None),
        };
        let (randomness, randomness_not_run) = match arrangement(&report, spec.as_ref(), &ways) {
            Ok(e) => (Some(e), None),
            Err(why) => (None, Some(why)),
        };
        let (exceptions, tests) = exceptions_of(randomness.as_ref(), leakage.as_deref());
        let verdict = if !report.clean {
            "findings"
        } else if exceptions.is_empty() {
            "clean"
        } else {
            "clean, with exceptions"
        };
        let held_against = report.held_against_apart_from_build();
        let lot_table_held_against = match &report.authenticated.reference_spec {
            Some(h) => match &report.spec_comparison {
                Some(c) if !c.same_meaning() => format!(
                    "only the block's own spec copy, which differs from the reference spec given with --spec (SHA-256 `{h}`) in {} field(s) (see `spec`)",
                    c.differences.len()
                ),
                Some(c) if !c.bytes_identical => format!(
                    "the reference spec given with --spec (SHA-256 `{h}`), field by field: {}",
                    c.summary()
                ),
                _ => format!("the reference spec given with --spec (SHA-256 `{h}`)"),
            },
            None => "only the block's own spec copy (no reference spec: --spec)".into(),
        };
        let verified_by = Tool::this_build();
        let same_build = manifest
            .as_ref()
            .is_some_and(|m| m.tool.same_build_as(&verified_by));
        Audit {
            format: FORMAT,
            verdict,
            held_against,
            lot_table_held_against,
            date_utc: report_time().unwrap_or_else(|_| utc_text(0)),
            host: host_name(),
            auditor: None,
            operator: None,
            game: manifest.as_ref().map(|m| m.game.clone()),
            replay_seed: None,
            generated_by: manifest.as_ref().map(|m| m.tool.clone()),
            verified_by,
            same_build,
            seed_commitment: manifest.as_ref().map(|m| m.seed_commitment.clone()),
            seed_shares: manifest.as_ref().and_then(|m| m.seed_shares.clone()),
            spec_sha256: spec.as_ref().map(|s| s.sha256.clone()),
            serials: serials_text(&report),
            report,
            tiers,
            totals,
            randomness,
            randomness_not_run,
            leakage,
            replay,
            exceptions,
            tests_with_p_values: tests,
        }
    }

    /// `audit.json`: the report as pretty JSON, with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("audit serializes");
        s.push('\n');
        s
    }

    /// The chart's title: the game's id and the block number (or "specimen deck").
    fn chart_title(&self) -> String {
        format!(
            "tirage audit — {} {}",
            self.report.game.as_deref().unwrap_or("?"),
            self.what()
        )
    }

    /// What was verified, as a title names it: `block 7`, or `specimen deck` for a QA deck
    /// (numbered 0, which would read as a block of the emission).
    fn what(&self) -> String {
        match (self.report.kind, self.report.block) {
            (Some(crate::block::Kind::Specimen), _) => "specimen deck".into(),
            (_, Some(b)) => format!("block {b}"),
            (_, None) => "block ?".into(),
        }
    }

    /// The chart on a canvas, when the randomness tests ran ([`chart::canvas`]).
    pub fn chart_canvas(&self) -> Option<crate::proof::draw::Canvas> {
        let title = self.chart_title();
        self.randomness.as_ref().map(|e| chart::canvas(e, &title))
    }

    /// The chart (`audit.svg`), when the randomness tests ran.
    pub fn chart(&self) -> Option<String> {
        self.chart_canvas()
            .map(|c| crate::proof::draw::svg::to_svg(&c))
    }

    /// `audit.pdf`: the report on A4 pages, the chart drawn in section 5, the signature
    /// block last. Text is real text (standard fonts), so it can be searched and copied.
    pub fn to_pdf(&self) -> Vec<u8> {
        let head = format!(
            "tirage audit report — {}, {} — {}",
            self.game_name(),
            self.what(),
            self.date_utc
        );
        let chart = match &self.randomness {
            Some(e) => chart::pieces(e, &self.chart_title()),
            None => Vec::new(),
        };
        let pages = doc::pages(&self.document(), &head, &chart);
        crate::proof::draw::pdf::document(&head, &pages)
    }

    /// Writes `audit.md`, `audit.json`, `audit.pdf` and (when the randomness tests ran)
    /// `audit.svg` into `dir`, each created mode 0600 under a temporary name then renamed
    /// over any previous one. `dir` is made a directory only its owner can enter: created
    /// 0700 when missing; `beside` says it is tirage's own
    /// ([`default_dir`]), narrowed to 0700 when wider, else it must be 0700 already.
    /// Returns the paths written. Errors: [`AuditError`].
    pub fn write(&self, dir: &Path, beside: bool) -> Result<Vec<PathBuf>, AuditError> {
        private_dir(dir, beside)?;
        let mut files = vec![
            (AUDIT_MD, self.to_markdown().into_bytes()),
            (AUDIT_JSON, self.to_json().into_bytes()),
            (AUDIT_PDF, self.to_pdf()),
        ];
        if let Some(svg) = self.chart() {
            files.push((AUDIT_SVG, svg.into_bytes()));
        }
        let written = write_files(dir, files)?;
        // A chart of an earlier run, when this run draws none, would not belong to the set.
        if !written.iter().any(|p| p.ends_with(AUDIT_SVG)) {
            let _ = std::fs::remove_file(dir.join(AUDIT_SVG));
        }
        Ok(written)
    }

    /// The game's full name (the manifest's, else the spec id).
    fn game_name(&self) -> String {
        match (&self.game, &self.report.game) {
            (Some(g), _) => g.name.clone(),
            (None, Some(id)) => id.clone(),
            (None, None) => "?".into(),
        }
    }

    /// `audit.md`: the report in Markdown.
    pub fn to_markdown(&self) -> String {
        doc::markdown(&self.document())
    }

    /// The report as blocks, for `audit.md` and `audit.pdf` alike.
    pub fn document(&self) -> Vec<Block> {
        let mut d = Vec::new();
        let (game, _) = self.game_and_block();
        d.push(Block::Title(format!(
            "Audit report — {game}, {}",
            self.what()
        )));
        d.push(Block::Para(format!(
            "Agreed-upon procedures performed by `tirage verify` on the {} in `{}`. This report \
             states the procedures performed and the factual findings; it draws no conclusion beyond \
             them.",
            if self.report.kind == Some(crate::block::Kind::Specimen) {
                "specimen deck"
            } else {
                "block"
            },
            self.report.dir
        )));
        self.identification(&mut d);
        self.summary(&mut d);
        self.section_procedures(&mut d);
        self.section_counts(&mut d);
        self.section_serials(&mut d);
        self.section_digests(&mut d);
        self.section_randomness(&mut d);
        self.section_leakage(&mut d);
        self.section_replay(&mut d);
        self.section_exceptions(&mut d);
        self.sign_off(&mut d);
        d
    }

    /// The game's id and the block number, as the report names them (`?` when unknown).
    fn game_and_block(&self) -> (&str, String) {
        let r = &self.report;
        let game = r.game.as_deref().unwrap_or("?");
        (game, r.block.map_or("?".into(), |b| b.to_string()))
    }

    /// The identification table: date, auditor, operator, host, the game, the block and its
    /// commitments, the tools that generated and verified it.
    fn identification(&self, d: &mut Vec<Block>) {
        let r = &self.report;
        let (game, block) = self.game_and_block();
        d.push(Block::Heading("Identification".into()));
        let named = |n: &Option<String>, flag: &str| {
            n.clone()
                .unwrap_or_else(|| format!("(not named: `tirage verify {flag} NAME`)"))
        };
        let mut rows = vec![
            vec![
                "date and time of the procedures (UTC)".to_string(),
                self.date_utc.clone(),
            ],
            vec!["auditor".into(), named(&self.auditor, "--auditor")],
            vec!["operator".into(), named(&self.operator, "--operator")],
            vec!["host".into(), format!("`{}`", self.host)],
        ];
        if let Some(g) = &self.game {
            rows.push(vec!["game".into(), g.name.clone()]);
            rows.push(vec!["legal reference".into(), g.legal_reference.clone()]);
            rows.push(vec![
                "game code / emission / block".into(),
                format!("{} / {} / {block}", g.game_code, g.emission),
            ]);
        } else {
            rows.push(vec!["game / block".into(), format!("{game} / {block}")]);
        }
        rows.push(vec![
            "kind".into(),
            match r.kind {
                Some(crate::block::Kind::Production) if r.authenticated.test_seed => {
                    "TEST BLOCK (a production block made with a test seed, never for sale)".into()
                }
                Some(crate::block::Kind::Production) => "production block".into(),
                Some(crate::block::Kind::Specimen) => {
                    "specimen deck (QA; its codes are never payable)".into()
                }
                None => "? (the manifest could not be read)".to_string(),
            },
        ]);
        rows.push(vec!["block directory".into(), format!("`{}`", r.dir)]);
        rows.push(vec!["tickets read".into(), r.tickets.to_string()]);
        if let Some(h) = &self.spec_sha256 {
            rows.push(vec!["spec.toml SHA-256".into(), format!("`{h}`")]);
        }
        rows.push(vec![
            "lot table held against".into(),
            self.lot_table_held_against.clone(),
        ]);
        if let Some(c) = &self.seed_commitment {
            rows.push(vec!["seed commitment".into(), format!("`{c}`")]);
        }
        match &self.seed_shares {
            Some(sh) => {
                for (i, c) in sh.iter().enumerate() {
                    rows.push(vec![
                        format!("seed share {} commitment", i + 1),
                        format!("`{c}`"),
                    ]);
                }
            }
            None => rows.push(vec![
                "seed shares".into(),
                "none recorded (the seed was not combined from shares)".into(),
            ]),
        }
        rows.push(vec!["replay used".into(), self.replay_used_text()]);
        if let Some(t) = &self.generated_by {
            rows.push(vec!["generated by".into(), tool_text(t)]);
        }
        rows.push(vec!["verified by".into(), tool_text(&self.verified_by)]);
        rows.push(vec!["independence".into(), self.independence_text()]);
        d.push(doc::table(&["item", "value"], rows));
    }

    /// The summary: the verdict and what it was held against, the procedures by result, and
    /// what a finding and an exception mean.
    fn summary(&self, d: &mut Vec<Block>) {
        let r = &self.report;
        let count = |res: &str| r.checks.iter().filter(|c| c.result == res).count();
        d.push(Block::Heading("Summary".into()));
        d.push(Block::Para(format!(
            "**Verdict: {}.** Held against: {}.",
            self.verdict.to_uppercase(),
            self.held_against
        )));
        if self.same_build {
            d.push(Block::Warning(same_build_warning(
                &self.verified_by,
                "this block",
            )));
        }
        d.push(Block::Para(format!(
            "{} procedures: {} passed, {} with findings, {} not run, {} skipped, {} not \
             applicable (N/A: the procedure has nothing to check on this block). \
             {} statistical tests with p-values, {} exception(s) at p < 1 %.",
            r.checks.len(),
            count("pass"),
            count("fail"),
            count("not run"),
            count("skipped"),
            count("n/a"),
            self.tests_with_p_values,
            self.exceptions.len()
        )));
        d.push(Block::Para(format!(
            "Findings (a failed procedure, including the leakage gate and the replay) make \
             `tirage verify` exit 1. Exceptions (a statistic at p < 1 %) are reported but do not: \
             about 1 % of honest blocks flag any given test by chance, so with {} tests about {} % \
             of honest blocks show at least one exception.",
            self.tests_with_p_values, self.tests_with_p_values
        )));
    }

    /// Section 1: every procedure with its result, then the first findings of each failed one.
    fn section_procedures(&self, d: &mut Vec<Block>) {
        let r = &self.report;
        d.push(Block::Heading("1. Procedures and findings".into()));
        let rows = r
            .checks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                vec![
                    (i + 1).to_string(),
                    format!("`{}`", c.id.name()),
                    c.procedure.to_string(),
                    c.result.to_uppercase(),
                    c.findings.to_string(),
                ]
            })
            .collect();
        d.push(doc::table(
            &[
                ">#",
                "procedure",
                "what it establishes",
                "result",
                ">findings",
            ],
            rows,
        ));
        let failed: Vec<&CheckResult> = r.checks.iter().filter(|c| c.findings > 0).collect();
        if failed.is_empty() {
            d.push(Block::Para("No findings.".into()));
        } else {
            d.push(Block::Subheading(format!(
                "Findings (first {} of each)",
                crate::verify::report::EXAMPLES
            )));
            for c in failed {
                d.push(Block::Item(
                    0,
                    format!("**{}** — {} finding(s):", c.id.name(), c.findings),
                ));
                for f in &c.examples {
                    d.push(Block::Item(
                        1,
                        match f.ticket {
                            Some(t) => format!("ticket {t}: {}", f.detail),
                            None => f.detail.clone(),
                        },
                    ));
                }
            }
        }
    }

    /// The first sentence of section 2: the counts are the evaluation's, held against the
    /// lot table of [`Audit::lot_table_held_against`]; or, when no face was evaluated, that
    /// nothing was counted, and why.
    fn counts_intro(&self) -> String {
        if self.report.ways.is_empty() {
            format!(
                "Not established: no face was evaluated{}. The counts the block must hold, from {}, are below; nothing was counted.",
                why_no_face(&self.report),
                self.lot_table_held_against
            )
        } else {
            format!(
                "Every face was re-evaluated by the rules alone; the counts below are the evaluation's, held against {}.",
                self.lot_table_held_against
            )
        }
    }

    /// Section 2: the counts per tier and per way against the lot table, lots and payout.
    fn section_counts(&self, d: &mut Vec<Block>) {
        let r = &self.report;
        d.push(Block::Heading("2. Counts per tier and way, payout".into()));
        if self.tiers.is_empty() {
            d.push(Block::Para(
                "Not established (the spec could not be read).".into(),
            ));
        } else {
            d.push(Block::Para(self.counts_intro()));
            let rows = self
                .tiers
                .iter()
                .map(|t| {
                    vec![
                        match &t.item {
                            Some(item) => format!("{} ({item}, not money)", t.amount),
                            None => t.amount.clone(),
                        },
                        t.expected.to_string(),
                        t.found.map_or("—".into(), |n| n.to_string()),
                        match t.found {
                            None => "—".into(),
                            Some(n) if n == t.expected => "yes".into(),
                            Some(_) => "**no**".into(),
                        },
                        t.ways.join(", "),
                    ]
                })
                .collect();
            d.push(doc::table(
                &[">tier (amount)", ">required", ">found", "agree", "ways"],
                rows,
            ));
            let rows = r
                .ways
                .iter()
                .map(|w| {
                    vec![
                        format!("`{}`", w.way),
                        w.amount.clone(),
                        w.expected.to_string(),
                        w.found.to_string(),
                    ]
                })
                .collect();
            if !r.ways.is_empty() {
                d.push(doc::table(&["way", ">amount", ">required", ">found"], rows));
            }
            if let Some(t) = &self.totals {
                let found = match t.tickets {
                    0 => "none found (no ticket read)".to_string(),
                    n => format!("{:.2} % found over {n} tickets", 100.0 * t.payout_ratio),
                };
                d.push(Block::Para(format!(
                    "Lots: {} found, {} required. Payout: {} found, {} required. \
                     Payout ratio (payout ÷ (tickets × {})): {found}, {:.2} % required over {} tickets.",
                    t.lots,
                    t.lots_expected,
                    t.payout,
                    t.payout_expected,
                    t.price,
                    100.0 * t.payout_ratio_expected,
                    t.tickets_expected
                )));
                if let Some((cash, items)) = &t.cash_and_items {
                    d.push(Block::Para(format!(
                        "Of the payout found, {cash} is cash and {items} the stated value of prizes that are not money (the tiers marked so above)."
                    )));
                }
            }
        }
    }

    /// Section 3: the uniqueness of serials.
    fn section_serials(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("3. Uniqueness of serials".into()));
        d.push(Block::Para(format!("{}.", self.serials)));
    }

    /// Section 4: every file's SHA-256 against `SHA256SUMS` and the manifest.
    fn section_digests(&self, d: &mut Vec<Block>) {
        let r = &self.report;
        d.push(Block::Heading("4. Digests".into()));
        let rows = r
            .files
            .iter()
            .map(|f| {
                let cmp = |listed: &Option<String>| match (listed, &f.sha256) {
                    (None, _) => "not listed".to_string(),
                    (Some(l), Some(h)) if l == h => "agrees".to_string(),
                    (Some(l), _) => format!("**differs**: `{l}`"),
                };
                vec![
                    f.name.clone(),
                    f.bytes.map_or("—".into(), |b| b.to_string()),
                    format!("`{}`", f.sha256.as_deref().unwrap_or("unreadable")),
                    cmp(&f.sha256sums),
                    cmp(&f.manifest),
                ]
            })
            .collect();
        d.push(doc::table(
            &[
                "file",
                ">bytes",
                "SHA-256 of the bytes read",
                "SHA256SUMS",
                "manifest",
            ],
            rows,
        ));
    }

    /// Section 5: the randomness of the arrangement.
    fn section_randomness(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("5. Randomness of the arrangement".into()));
        match (&self.randomness, &self.randomness_not_run) {
            (Some(e), _) => randomness_blocks(d, e),
            (None, Some(why)) => d.push(Block::Para(format!("Not run: {why}."))),
            (None, None) => d.push(Block::Para("Not run.".into())),
        }
    }

    /// Section 6: the leakage gate, one row per printed field.
    fn section_leakage(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading(
            "6. Leakage gate: printed fields against win / lose".into(),
        ));
        match &self.leakage {
            None if self.report.ways.is_empty() => d.push(Block::Para(format!(
                "Not run: no face was evaluated{}.",
                why_no_face(&self.report)
            ))),
            None => d.push(Block::Para(
                "Not run: no face could be judged, so no ticket is known to win or lose (see `face_codes` and `way_recognised`).".into(),
            )),
            Some(l) => {
                d.push(Block::Para(
                    "For each field printed outside the scratch layer, the tickets are tallied by the \
                     field's value and by win / lose; a chi-square test of independence gives the \
                     p-value, and the mutual information says how many bits about win / lose the \
                     field carries (beside the mean for an independent field of the same shape). \
                     The gate fails (a finding, exit 1) at p < 10⁻⁶; p < 1 % is an exception."
                        .into(),
                ));
                let rows = l
                    .iter()
                    .map(|f| {
                        vec![
                            f.measures.to_string(),
                            f.values.to_string(),
                            opt(f.chi_square, 2),
                            opt(f.df, 0),
                            p_text(f.p_value),
                            f.mi_bits.map_or("—".into(), |v| format!("{v:.6}")),
                            f.mi_baseline_bits.map_or("—".into(), |v| format!("{v:.6}")),
                            f.result.to_uppercase(),
                        ]
                    })
                    .collect();
                d.push(doc::table(
                    &[
                        "field",
                        ">values",
                        ">χ²",
                        ">df",
                        ">p-value",
                        ">MI (bits)",
                        ">independent field (bits)",
                        "result",
                    ],
                    rows,
                ));
                d.push(Block::Para("The association with the pack number itself is the test `pack_dispersion` of section 5.".into()));
            }
        }
    }

    /// Section 7: the audit replay, file by file.
    fn section_replay(&self, d: &mut Vec<Block>) {
        let r = &self.report;
        d.push(Block::Heading("7. Audit replay".into()));
        let replay_check = r.checks.iter().find(|c| c.id.name() == "replay");
        match (&self.replay, replay_check.map(|c| c.result)) {
            (_, Some("skipped")) => d.push(Block::Para("Skipped: no seed was given (`--seed-file` or `--seed-share`). With the seed, verify regenerates the block in memory and compares every file's bytes.".into())),
            (Some(files), _) => {
                d.push(Block::Para(format!(
                    "The block was regenerated in memory from {} and each file compared by SHA-256.",
                    self.replay_used_text()
                )));
                let rows = files
                    .iter()
                    .map(|f| {
                        vec![
                            f.name.clone(),
                            format!("`{}`", f.block_sha256.as_deref().unwrap_or("missing")),
                            format!("`{}`", f.replay_sha256),
                            if f.identical { "yes".into() } else { "**no**".into() },
                        ]
                    })
                    .collect();
                d.push(doc::table(&["file", "block", "replay", "identical"], rows));
            }
            (None, res) => d.push(Block::Para(format!(
                "Result: {}; see the findings of `replay` in section 1.",
                res.unwrap_or("not run")
            ))),
        }
    }

    /// Section 8: the exceptions at p < 1 %, and how to read the p-values.
    fn section_exceptions(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("8. Exceptions".into()));
        if self.exceptions.is_empty() {
            d.push(Block::Para("None: no test has a p-value below 1 %.".into()));
        } else {
            for x in &self.exceptions {
                d.push(Block::Item(
                    0,
                    format!(
                        "`{}` ({}): p = {} — {}.",
                        x.id,
                        x.test,
                        p_text(Some(x.p_value)),
                        x.meaning
                    ),
                ));
            }
        }
        d.push(Block::Heading("Reading the p-values".into()));
        d.push(Block::Para(
            "A p-value is the probability that an honest block — every \
             arrangement of the lot table's tickets equally likely — gives a result at least as far \
             from expectation as this one. Small values are rare for honest blocks: below 1 % \
             (flagged here) in one honest block in a hundred, below 10⁻⁶ (the leakage gate) in one \
             in a million. Uniform p-values across many blocks are what honest generation looks like."
                .into(),
        ));
    }

    /// The sign-off: who did what on which block, and the signature lines.
    fn sign_off(&self, d: &mut Vec<Block>) {
        d.push(Block::Heading("Sign-off".into()));
        d.push(Block::Para(format!(
            "The procedures above were performed on {} on host `{}` by tirage {} (git commit `{}`), on the block {}; verdict: {}. \
             By signing, the auditor attests that this report states the procedures performed and their \
             results, and the operator that the block is the one delivered.",
            self.date_utc,
            self.host,
            self.verified_by.version,
            self.verified_by.git_commit,
            self.seed_commitment
                .as_deref()
                .map_or("(no manifest)".into(), |c| format!("with seed commitment `{c}`")),
            self.verdict.to_uppercase()
        )));
        if self.same_build {
            d.push(Block::Para(
                "This build also generated the block: the verification is not independent of \
                 the generator (see the warning in the summary)."
                    .into(),
            ));
        }
        d.push(Block::Signatures(vec![
            ("Auditor".into(), self.auditor.clone()),
            ("Operator".into(), self.operator.clone()),
        ]));
    }

    /// Whether the build that verified the block is the one that generated it, in words.
    fn independence_text(&self) -> String {
        match &self.generated_by {
            _ if self.same_build => "**not independent**: the same build generated and verified the block (the same binary SHA-256)".into(),
            Some(g) if known(&g.binary_sha256) && known(&self.verified_by.binary_sha256) => {
                "another build verified the block than the one the manifest says generated it (the binary SHA-256 differ)".into()
            }
            _ => "unknown: a build's binary SHA-256 is not recorded".into(),
        }
    }

    /// What the replay used, in words: the seed file or the shares, by commitment.
    fn replay_used_text(&self) -> String {
        match &self.replay_seed {
            None => "no replay (no seed given)".into(),
            Some(s) if s.share_commitments.is_empty() => format!(
                "the seed given whole (`--seed-file`), whose commitment is `{}`",
                s.seed_commitment
            ),
            Some(s) => format!(
                "{} seed shares (`--seed-share`), in order opening the commitments {} (combined seed commitment `{}`)",
                s.share_commitments.len(),
                s.share_commitments
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{}: `{c}`", i + 1))
                    .collect::<Vec<_>>()
                    .join(", "),
                s.seed_commitment
            ),
        }
    }
}

/// A build's identity in words: version, git commit and source state, the executable's
/// SHA-256 and Cargo.lock's.
fn tool_text(t: &Tool) -> String {
    let or = |v: &str| {
        if v.is_empty() {
            "(not recorded)".to_string()
        } else {
            v.to_string()
        }
    };
    format!(
        "{} {}, git commit `{}` (sources {}), binary SHA-256 `{}`, Cargo.lock SHA-256 `{}`",
        t.name,
        t.version,
        or(&t.git_commit),
        or(&t.source),
        or(&t.binary_sha256),
        or(&t.cargo_lock_sha256)
    )
}

/// True when `sha256` names a binary (neither empty, in manifests written before it was
/// recorded, nor `unknown`).
/// True when `sha256` was recorded: neither empty (a manifest older than the field) nor
/// `unknown`.
fn known(sha256: &str) -> bool {
    !sha256.is_empty() && sha256 != "unknown"
}

/// The warning a report gives when the build `t` generated what it verified: what it
/// means for independence, and how to get an independent verification.
/// `what` names what was verified (`this block`, `every block`).
pub fn same_build_warning(t: &Tool, what: &str) -> String {
    format!(
        "**Not an independent verification: the same build generated and verified {what}.** \
         The generating and the verifying tool have the same binary SHA-256 (`{}`). Every \
         procedure ran, but through the generator's own code: a flaw in that build, or a \
         tampered build, would be shared by both and could pass here unseen. For an \
         independent verification, run `tirage verify` with a build made separately (by the \
         auditor, on another machine, from the sources of git commit `{}`) and compare the \
         reports.",
        t.binary_sha256, t.git_commit
    )
}

/// A bin of counts as text: `54` for one value, `43–46` for a range, `59 or more` when
/// open above (`to` is `None`).
fn range_text(from: u64, to: Option<u64>) -> String {
    match to {
        Some(to) if to == from => from.to_string(),
        Some(to) => format!("{from}–{to}"),
        None => format!("{from} or more"),
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("—".into(), |v| format!("{v:.digits$}"))
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "—".into(),
        Some(p) if p < 1e-4 => format!("{p:.1e}"),
        Some(p) => format!("{p:.4}"),
    }
}

fn randomness_blocks(d: &mut Vec<Block>, e: &Evidence) {
    d.push(Block::Para(format!(
        "Tests on the evaluated way of every ticket in print order. This report gives their \
         statistics and p-values, never the place of a winner: the chart (`{AUDIT_SVG}`; drawn \
         here in the PDF) shows how many full packs hold each number of winners against their \
         law, and for each tier of at least {} tickets the gaps between its consecutive tickets \
         against a uniform shuffle's, as histograms over counts. Smaller tiers are described \
         by their counts and p-values alone.",
        randomness::GAP_MIN
    )));
    d.push(Block::Chart {
        alt: "winners per full pack and gaps between winners, as histograms".into(),
        file: AUDIT_SVG.into(),
    });
    d.push(Block::Para(format!("{}.", packs_text(&e.packs))));
    statistics_table(d, &e.statistics);
    detail_tables(d, e);
    if !e.small_tiers.is_empty() {
        d.push(Block::Para(format!(
            "The tiers with fewer than {} tickets are described by their counts alone: {}. \
             Their positions, gaps and packs are not published (once one of their tickets is \
             claimed, they would narrow where the others are).",
            randomness::KS_MIN,
            e.small_tiers
                .iter()
                .map(|t| format!(
                    "{} ({} ticket{})",
                    t.amount,
                    t.count,
                    if t.count == 1 { "" } else { "s" }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
}

/// What the report says of the winners per pack: their range, the mean of a full pack
/// against its expectation, and the short last pack's expectation.
fn packs_text(p: &randomness::PackSummary) -> String {
    let mut summary = format!(
        "{} pack(s) of {} tickets, {} of them full: {}..{} winners per pack; ",
        p.packs, p.pack_size, p.full_packs, p.min, p.max
    );
    if p.full_packs > 0 {
        let _ = write!(
            summary,
            "a full pack holds {:.2} winners on average, {:.2} ± {:.2} expected",
            p.mean, p.expected, p.expected_sd
        );
    } else {
        summary.push_str("no pack is full");
    }
    if let Some(s) = &p.short_pack {
        let _ = write!(
            summary,
            "; the last pack holds {} tickets, {:.2} ± {:.2} winners expected for its size",
            s.tickets, s.expected, s.expected_sd
        );
    }
    summary
}

/// The table of the randomness tests (statistic, degrees of freedom, p-value, result),
/// then each test's note.
fn statistics_table(d: &mut Vec<Block>, statistics: &[randomness::Statistic]) {
    let rows = statistics
        .iter()
        .map(|t| {
            vec![
                format!("`{}`", t.id),
                t.test.clone(),
                t.n.to_string(),
                opt(t.statistic, 4),
                opt(t.df, 0),
                p_text(t.p_value),
                t.result.to_uppercase(),
            ]
        })
        .collect();
    d.push(doc::table(
        &[
            "test",
            "what it tests",
            ">n",
            ">statistic",
            ">df",
            ">p-value",
            "result",
        ],
        rows,
    ));
    for t in statistics {
        if !t.note.is_empty() {
            d.push(Block::Item(0, format!("`{}`: {}.", t.id, t.note)));
        }
    }
}

/// The details of the randomness tests: the correlation per lag, the bins of winners per
/// pack, the bins of the gaps of every tier tested.
fn detail_tables(d: &mut Vec<Block>, e: &Evidence) {
    for t in e.statistics.iter().filter(|t| !t.lags.is_empty()) {
        d.push(Block::Para(format!("`{}`, per lag:", t.id)));
        let rows = t
            .lags
            .iter()
            .map(|l| {
                vec![
                    l.lag.to_string(),
                    format!("{:.6}", l.r),
                    format!("{:.3}", l.z),
                    p_text(Some(l.p_value)),
                ]
            })
            .collect();
        d.push(doc::table(&[">lag", ">r", ">z", ">p-value"], rows));
    }
    for t in e.statistics.iter().filter(|t| !t.bins.is_empty()) {
        d.push(Block::Para(format!("`{}`, bins (winners per pack):", t.id)));
        let rows = t
            .bins
            .iter()
            .map(|b| {
                vec![
                    range_text(b.from as u64, Some(b.to as u64)),
                    b.observed.to_string(),
                    format!("{:.2}", b.expected),
                ]
            })
            .collect();
        d.push(doc::table(
            &["winners", ">packs observed", ">packs expected"],
            rows,
        ));
    }
    for g in &e.gaps {
        d.push(Block::Para(format!(
            "`gaps_{}`, bins (tickets apart, between consecutive tickets of the tier):",
            g.amount
        )));
        let rows = g
            .bins
            .iter()
            .map(|b| {
                vec![
                    range_text(b.from, b.to),
                    b.observed.to_string(),
                    format!("{:.2}", b.expected),
                ]
            })
            .collect();
        d.push(doc::table(
            &["tickets apart", ">gaps observed", ">gaps expected"],
            rows,
        ));
    }
}

/// Removes the temporary report files (`.audit.md.XXXX.tmp`, …) a run stopped by a crash or
/// `kill -9` left in `dir`, when they are more than ten minutes old: a run still writing
/// its own takes seconds. Errors are ignored: a leftover only takes room.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let old = std::time::Duration::from_secs(600);
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let ours = crate::block::layout::is_report_file(name)
            && ![AUDIT_MD, AUDIT_JSON, AUDIT_PDF, AUDIT_SVG].contains(&name);
        let stale = e
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > old);
        if ours && stale {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_are_one_value_or_a_range() {
        assert_eq!(range_text(54, Some(54)), "54");
        assert_eq!(range_text(43, Some(46)), "43–46");
        assert_eq!(range_text(59, None), "59 or more");
    }

    #[test]
    fn the_same_binary_is_the_same_build_and_an_unrecorded_one_is_not() {
        let t = |sha: &str| Tool {
            binary_sha256: sha.into(),
            ..Tool::this_build()
        };
        assert!(t("ab12").same_build_as(&t("ab12")));
        assert!(!t("ab12").same_build_as(&t("cd34")));
        assert!(!t("").same_build_as(&t("")));
        assert!(!t("unknown").same_build_as(&t("unknown")));
    }

    #[test]
    fn utc_text_is_the_civil_date() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_text(1_700_000_000), "2023-11-14 22:13:20 UTC");
        // A leap day, and the last second of 9999.
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_text(253_402_300_799), "9999-12-31 23:59:59 UTC");
    }
}
