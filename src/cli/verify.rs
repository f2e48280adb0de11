//! `tirage verify DIR`: the independent re-check of a block, and its audit report.

use super::{progress, with_threads, Outcome};
use anyhow::{Context, Result};
use sha2::Digest;
use std::path::PathBuf;
use tirage::audit::emission::EmissionAudit;
use tirage::audit::Audit;
use tirage::block::layout::{
    AUDIT_JSON, AUDIT_MD, AUDIT_PDF, AUDIT_SVG, EMISSION, MANIFEST, SPEC, SUMS,
};
use tirage::crypto::ceremony::{opens, Commitment};
use tirage::crypto::rng::{Beacon, Seed, SeedShare};
use tirage::crypto::sign::Verifier;
use tirage::crypto::validation::ValidationKey;
use tirage::output::seal::Identities;
use tirage::spec::GameSpec;
use tirage::verify::emission::{is_emission, verify_emission, EmissionReport};
use tirage::verify::seal::Seal;
use tirage::verify::{inspect, Options, SeedInput};

/// Arguments of `tirage verify`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The audit report (audit.md, audit.json, audit.pdf, audit.svg) goes beside the block, into <block>.audit/ (mode 0700, files 0600; for a block of an emission, beside the emission, into <emission>.<block>.audit/), or into --report DIR (one that already holds a report only with --force); an emission's report (every block's verdict and digests, the emission-wide checks, the totals against the lot table) goes beside the emission, into <emission>.audit/. It gives test statistics, p-values and histograms over counts, never a winner's ticket, pack or carton. It states the date and time of the procedures (UTC; SOURCE_DATE_EPOCH, in seconds since 1970, pins it so that a report can be made byte for byte again), the host, and the auditor and operator named.\n\nExit status: 0 clean (statistics flagged at p < 1 % are exceptions, reported in audit.md, not findings), 1 findings (including the leakage gate and a replay mismatch), 2 error.\n\nExamples:\n  tirage verify output/coq/block-001 --signer output/keys/operator.pub --spec game_specs/coq.toml\n  tirage verify output/coq/block-001 --signer output/keys/operator.pub --spec game_specs/coq.toml --auditor 'Claire Martin' --operator 'Jeux de Paris'\n  tirage verify output/coq/block-001 --unauthenticated --json > report.json\n  tirage verify output/coq/block-001 --signer output/keys/operator.pub --seed-file output/coq/block-001.seed --validation-key output/keys/coq.validation-key --report ~/audit-001 --force   # replacing a report there\n  tirage verify coq-001 --unauthenticated --seed-share alice.share --seed-share bob.share   # a block made from two shares, in their order (README, generate)"
)]
pub(super) struct Args {
    /// The block directory (holding SHA256SUMS, manifest.json, spec.toml, tickets.csv,
    /// tickets.bin, validation.csv), a party's bundle of one (`tirage package`), or an
    /// emission directory (holding emission.json).
    dir: PathBuf,
    /// The reference spec: every field of the block's spec.toml must have its value (held
    /// field by field: comments, spacing and key order may differ, and are said to). When it pins the
    /// operator's key (`[signing] public_key`), the signature is checked against that key,
    /// whatever --signer says, and a production block made with a test seed is a finding.
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Print the report as JSON instead of text. A party's bundle (`tirage package --for
    /// printer` or `central`) gets a block's keys: its findings under `checks` (the
    /// procedures over the ticket files `n/a`), the files it holds under `files`; `tickets`
    /// 0, `payout` null, `ways`, `features`, `losing_features`, `promised` and `pack_rules`
    /// empty.
    #[arg(long)]
    json: bool,
    /// Where to write the audit report (audit.md, audit.json, audit.pdf, audit.svg; an
    /// emission's: audit.md, audit.json, audit.pdf): a directory only its owner can enter
    /// (mode 0700; created so when missing), outside the block or emission. Default:
    /// `<block>.audit/` beside the block directory (`block-001.audit/`; for a block of an
    /// emission, `<emission>.<block>.audit/` beside the emission), or `<emission>.audit/`
    /// beside the emission, never inside what is delivered. Each file is
    /// created mode 0600.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Replace the audit report the --report directory already holds (without it, such a
    /// directory is refused and nothing is done; the default `<block>.audit/` is always
    /// replaced).
    #[arg(long, requires = "report")]
    force: bool,
    /// Do not write the audit report.
    #[arg(long, conflicts_with = "report")]
    no_audit: bool,
    /// The block's master seed file (64 hex digits): replay the block in memory and check
    /// every file is byte-identical.
    #[arg(long, value_name = "FILE", conflicts_with = "seed_share")]
    seed_file: Option<PathBuf>,
    /// One party's seed share file (64 hex digits); repeat in generation order to replay a
    /// block made with `generate --seed-share`.
    #[arg(long, value_name = "FILE")]
    seed_share: Vec<PathBuf>,
    /// The share commitments the parties published (`tirage seed commit`): the manifest
    /// must record exactly these, in order, signed by the same keys.
    #[arg(long, value_name = "FILE")]
    commitments: Option<PathBuf>,
    /// The beacon published after the commitments (hex, as given to `generate --beacon`):
    /// the manifest must record it, and a replay from shares mixes it in.
    #[arg(long, value_name = "HEX")]
    beacon: Option<String>,
    /// The operator's minisign public key (`tirage keygen`): SHA256SUMS.minisig must be its
    /// signature of SHA256SUMS. Without it (or a reference spec that pins the key), a
    /// production block is a finding unless --unauthenticated is given.
    #[arg(long, value_name = "KEY.pub")]
    signer: Option<PathBuf>,
    /// Check a production block without its signature: the verdict then says it is
    /// unauthenticated (anyone could have written the files and their digests).
    #[arg(long, conflicts_with = "signer")]
    unauthenticated: bool,
    /// The emission's validation key file (64 hex digits): a production block's replay
    /// needs it, since its validation codes are made with it, not with the seed.
    #[arg(long, value_name = "FILE")]
    validation_key: Option<PathBuf>,
    /// An age identity file (`age-keygen`'s AGE-SECRET-KEY-1… lines) that opens the block's
    /// encrypted ticket files (.age), decrypted as they are read; repeat for several. Each
    /// given for a party's bundle must open its encrypted file; the central system's rows
    /// are counted only when one opens validation.csv.age.
    #[arg(long, value_name = "FILE")]
    identity: Vec<PathBuf>,
    /// Worker threads (0: one per core). The report is identical for any value.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    threads: u16,
    /// The auditor who performs these procedures, named in the audit report's
    /// identification and signature block.
    #[arg(long, value_name = "NAME", value_parser = party_name)]
    auditor: Option<String>,
    /// The operator whose block this is, named in the audit report's identification and
    /// signature block.
    #[arg(long, value_name = "NAME", value_parser = party_name)]
    operator: Option<String>,
    /// The verdict line only (CLEAN or FINDINGS, and what it was held against): no report
    /// on stdout, no progress bar, no line saying where the audit report went.
    #[arg(short, long)]
    quiet: bool,
}

/// A name for the audit report: 1 to 120 characters, each shown as written (no control,
/// invisible or text-direction character: [`tirage::text::hidden`]).
fn party_name(s: &str) -> Result<String, String> {
    let t = s.trim();
    if t.is_empty() || t.chars().count() > 120 || tirage::text::first_hidden(t).is_some() {
        return Err("expected a name of 1 to 120 characters, without control, invisible, text-direction or stray combining characters".into());
    }
    Ok(t.to_string())
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    if let Some(r) = &a.report {
        report_dir_allowed(r, &a.dir)?;
        if !a.force {
            no_report_in(r)?;
        }
        // A directory that cannot take the report is said before any verdict is printed.
        tirage::audit::report_dir_usable(r)?;
    }
    // What a verify killed while it checked an emission left: its sorted runs of codes.
    for st in tirage::verify::codes::remove_stale() {
        match st.error {
            None => errln!(
                "tirage: removed {}: {} run(s) of validation codes a killed verify left (encrypted under a key that died with it)",
                st.path.display(),
                st.runs
            ),
            Some(e) => errln!(
                "tirage: warning: {}, left by a killed verify, could not be removed: {e}",
                st.path.display()
            ),
        }
    }
    // The report's date: refused before any work when SOURCE_DATE_EPOCH is malformed.
    tirage::audit::report_time().map_err(anyhow::Error::msg)?;
    // No run replaces the block (or its emission), nor the seed file beside it, while they
    // are read: the lock is taken before the seed is.
    let _locks = super::lock_shared(&a.dir)?;
    // A reference read from the directory it is to check is no reference.
    if let Some(spec) = &a.spec {
        super::spec_outside(spec, &a.dir)?;
    }
    let reference = a.spec.as_deref().map(GameSpec::load).transpose()?;
    let beacon = a
        .beacon
        .as_deref()
        .map(|b| Beacon::from_hex(b).map_err(|e| anyhow::anyhow!("--beacon: {e}")))
        .transpose()?;
    let commitments: Option<Vec<Commitment>> = match &a.commitments {
        Some(f) => Some(
            super::seed::read_commitments(f)?
                .into_iter()
                .map(|(_, c)| c)
                .collect(),
        ),
        None => None,
    };
    let signer = a.signer.as_deref().map(Verifier::load).transpose()?;
    // A key read from the directory it authenticates vouches for nothing, unless the
    // reference spec pins that very key.
    if let (Some(path), Some(key)) = (&a.signer, &signer) {
        let pinned = reference
            .as_ref()
            .and_then(|r| r.signing_key.as_deref())
            .is_some_and(|p| p.trim() == key.public_key());
        super::signer_outside(path, &a.dir, pinned, true)?;
    }
    let seed = match (&a.seed_file, a.seed_share.is_empty()) {
        (Some(f), _) => Some(SeedInput::whole(super::seed::read_secret(f, "seed file")?)),
        (None, false) => {
            let shares = super::seed::read_shares(&a.seed_share)?;
            let pinned = reference.as_ref().and_then(|r| r.signing_key.as_deref());
            let trust = Trust {
                key: pinned
                    .map(|p| Verifier::from_base64(p).map_err(drop))
                    .or_else(|| {
                        signer
                            .as_ref()
                            .map(|v| Verifier::from_base64(&v.public_key()).map_err(drop))
                    }),
                commitments: commitments.as_deref(),
            };
            shares_in_generation_order(&a.dir, &a.seed_share, &shares, beacon.as_ref(), &trust)?;
            Some(SeedInput::from_shares(shares, beacon.clone()))
        }
        (None, true) => None,
    };
    // The bar's total: the manifest's count (for the bar only; verify holds it to the
    // files), else the reference spec's block; twice that when the block is replayed too.
    let expected = manifest_tickets(&a.dir).or(reference.as_ref().map(|s| u64::from(s.block_size)));
    let identities = super::seed::load_identities(&a.identity)?;
    let validation_key = match &a.validation_key {
        Some(f) => {
            let key = super::seed::read_secret(f, "validation key file")?;
            // The seed (or a share) given as the key would replay codes the seed computes:
            // refused, as generate refuses it.
            let mut given = Vec::new();
            if let Some(s) = &a.seed_file {
                let text = super::seed::read_small(s, "seed file")?;
                let seed =
                    Seed::from_hex(&text).with_context(|| format!("seed file {}", s.display()))?;
                given.push((format!("--seed-file {}", s.display()), seed));
            }
            for (share, p) in super::seed::read_shares(&a.seed_share)?
                .iter()
                .zip(&a.seed_share)
            {
                given.push((format!("--seed-share {}", p.display()), Seed(share.0)));
            }
            super::seed::refuse_seed_as_key(&key.0, f, &given)?;
            Some(ValidationKey(key.0))
        }
        None => None,
    };
    let opts = Options {
        reference: reference.as_ref(),
        seed,
        validation_key: validation_key.as_ref(),
        signer: signer.as_ref(),
        require_signature: !a.unauthenticated,
        identities: Some(&identities),
        commitments: commitments.as_deref(),
        beacon,
    };
    if is_emission(&a.dir) {
        if opts_seed_given(&a) {
            anyhow::bail!(
                "{} is an emission: replay one block at a time (tirage verify <emission>/block-NNN --seed-file …)",
                a.dir.display()
            );
        }
        // The bar's total and each block's start, from emission.json (for the bar only).
        let listed = emission_tickets(&a.dir);
        // Each block's ticket files opened by the identities given, as a block alone needs.
        for (block, _) in &listed {
            let bdir = a.dir.join(tirage::block::layout::block_dir(*block));
            if bdir.is_dir() {
                every_file_opens(&bdir, &a.identity, &identities)?;
            }
        }
        let total = (!listed.is_empty()).then(|| listed.iter().map(|b| b.1).sum());
        let bar = progress::bar(total, "verify", a.quiet);
        let report = with_threads(usize::from(a.threads), || {
            verify_emission(&a.dir, &opts, &|block, n| {
                let before: u64 = listed
                    .iter()
                    .take_while(|b| b.0 != block)
                    .map(|b| b.1)
                    .sum();
                bar.set_position(before + n)
            })
        })??;
        bar.finish_and_clear();
        if a.json {
            outln!("{}", super::json(&report)?);
        } else if a.quiet {
            out!("{}", super::visible(&report.verdict_text()));
        } else {
            out!("{}", super::visible(&report.to_text()));
        }
        if !a.no_audit {
            write_emission_audit(&a, &report)?;
        }
        return Ok(if report.clean {
            Outcome::Success
        } else {
            Outcome::Findings
        });
    }
    // A party's bundle holds its own ticket file, not the whole block: what it holds is
    // checked, and nothing is said of what it is not meant to hold.
    if let Some(role) = tirage::verify::bundle::partial_bundle(&a.dir) {
        if opts_seed_given(&a) {
            anyhow::bail!(
                "{}: the {} bundle holds one party's ticket file: a replay needs the whole block (the auditor's bundle)",
                a.dir.display(),
                role.name()
            );
        }
        // An identity that opens none of the bundle's encrypted files was meant for another
        // party's: a usage error naming it, as a block's unopened file is.
        let sealed = tirage::verify::bundle::sealed_files(&a.dir, role);
        for p in a.identity.iter().filter(|_| !sealed.is_empty()) {
            let one = Identities::load(std::slice::from_ref(p))?;
            let opens_one = sealed.iter().any(|(f, _)| {
                let clear = f
                    .strip_suffix(tirage::block::layout::SEALED_SUFFIX)
                    .unwrap_or(f);
                tirage::output::seal::opens(&a.dir, clear, &one)
            });
            if !opens_one {
                let files: Vec<String> = sealed
                    .iter()
                    .map(|(f, r)| format!("{f} opens with {} identity", r.whose()))
                    .collect();
                anyhow::bail!(
                    "{}: --identity {} opens no file of {} bundle: {}; give that one (--identity FILE); nothing was verified",
                    a.dir.display(),
                    p.display(),
                    role.whose(),
                    files.join(", ")
                );
            }
        }
        let report = tirage::verify::bundle::verify_bundle(&a.dir, role, &opts);
        if a.json {
            outln!("{}", super::json(&report.report)?);
        } else if a.quiet {
            out!("{}", super::visible(&report.verdict_text()));
        } else {
            out!("{}", super::visible(&report.to_text()));
        }
        return Ok(if report.report.clean {
            Outcome::Success
        } else {
            Outcome::Findings
        });
    }
    let looks_like_block = [MANIFEST, SUMS, SPEC]
        .iter()
        .any(|n| a.dir.join(n).exists());
    if a.dir.is_dir() && !looks_like_block {
        anyhow::bail!(
            "{}: neither a block (no manifest.json, SHA256SUMS or spec.toml) nor an emission (no emission.json); nothing verified, nothing written",
            a.dir.display()
        );
    }
    every_file_opens(&a.dir, &a.identity, &identities)?;
    let seal = Seal::of(&a.dir).ok();
    let replaying = opts.seed.is_some();
    let bar = progress::bar(
        expected.map(|n| if replaying { 2 * n } else { n }),
        "verify",
        a.quiet,
    );
    // The replay counts its tickets from 0 again once the ticket pass reached the total.
    let replay_from = std::sync::atomic::AtomicU64::new(0);
    let progress = |n: u64| {
        use std::sync::atomic::Ordering::Relaxed;
        let from = replay_from.load(Relaxed);
        match expected {
            Some(total) if replaying && from == 0 && n >= total => {
                replay_from.store(total, Relaxed);
                bar.set_message("replay");
                bar.set_position(total);
            }
            _ => bar.set_position(from + n),
        }
    };
    // The audit (its randomness tests) is built only for the report it writes.
    let (report, audit) = with_threads(usize::from(a.threads), || {
        inspect(&a.dir, &opts, &progress).map(|v| {
            if a.no_audit {
                return (v.report, None);
            }
            let mut audit = Audit::build(v);
            audit.replay_seed = opts
                .seed
                .as_ref()
                .map(|s| tirage::audit::ReplaySeed::of(s, audit.seed_shares.as_deref()));
            audit.auditor = a.auditor.clone();
            audit.operator = a.operator.clone();
            (audit.report.clone(), Some(audit))
        })
    })??;
    bar.finish_and_clear();
    let report = &report;
    if a.json {
        outln!("{}", super::json(report)?);
    } else if a.quiet {
        out!("{}", super::visible(&report.verdict_text()));
    } else {
        out!("{}", super::visible(&report.to_text()));
    }
    if let Some(said) = held_to_emission(&a.dir) {
        if !a.quiet || said.starts_with("tirage: warning") {
            errln!("{said}");
        }
    }
    // An earlier run's report beside the block may say another verdict: never left unsaid.
    // So may one an earlier version wrote inside the block.
    let beside = tirage::audit::default_dir(&a.dir);
    let here = |d: &std::path::Path| {
        let c = |p: &std::path::Path| std::fs::canonicalize(p).ok();
        c(d).is_some() && c(d) == a.report.as_deref().and_then(c)
    };
    let mut earlier: Vec<PathBuf> = vec![a.dir.join(AUDIT_MD)];
    if let Some(d) = &beside {
        if a.no_audit || a.report.as_ref().is_some_and(|_| !here(d)) {
            earlier.push(d.join(AUDIT_MD));
        }
    }
    // A block of an emission: an earlier version wrote its report beside it, inside the
    // emission (`EM/block-003.audit/`).
    if let Some(name) = a
        .dir
        .parent()
        .filter(|e| is_emission(e))
        .and(a.dir.file_name())
        .and_then(|n| n.to_str())
    {
        let inside = a.dir.with_file_name(tirage::block::layout::audit_dir(name));
        if !here(&inside) {
            earlier.push(inside.join(AUDIT_MD));
        }
    }
    for e in earlier.iter().filter(|e| e.is_file()) {
        errln!(
            "tirage: note: {} is an earlier run's report, not this run's (this run: {})",
            e.display(),
            if report.clean { "clean" } else { "findings" },
        );
    }
    if let Some(audit) = &audit {
        let dir = match (&a.report, &beside) {
            (Some(r), _) => r.clone(),
            (None, Some(d)) => {
                // A deck or bundle may have been made under the default report's name.
                super::outside_deliveries(d, "a --report directory")?;
                d.clone()
            }
            (None, None) => anyhow::bail!(
                "{}: no directory beside it can hold its audit report: give one with --report DIR (or --no-audit)",
                a.dir.display()
            ),
        };
        // Only about the block that was read, never about one put there since.
        if a.report.is_none() && Seal::of(&a.dir).ok() != seal {
            anyhow::bail!(
                "{} changed while it was being verified (another run replaced or changed it): this report is not about what is there now, so none was written; verify it again",
                a.dir.display()
            );
        }
        // A report that cannot be written is said, but never hides findings (exit 1). On a
        // clean block, a report asked for with --report that could not be written is an
        // error (exit 2); at the default place (beside the block, perhaps on read-only
        // media) a warning.
        match audit.write(&dir, a.report.is_none()) {
            Err(e) if a.report.is_some() && report.clean => {
                anyhow::bail!(
                    "the block verified clean, but the audit report asked for could not be written to {}: {e:#}",
                    dir.display()
                )
            }
            Err(e) => errln!(
                "tirage: warning: the audit report could not be written to {}: {e:#}{}",
                dir.display(),
                if a.report.is_none() {
                    " (write it elsewhere with --report DIR)"
                } else {
                    ""
                }
            ),
            Ok(written) if !a.quiet => {
                let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
                errln!(
                    "audit report: {} ({}; {} exception(s) at p < 1 %)",
                    names.join(", "),
                    audit.verdict,
                    audit.exceptions.len()
                );
            }
            Ok(_) => {}
        }
    }
    Ok(if report.clean {
        Outcome::Success
    } else {
        Outcome::Findings
    })
}

/// Refuses block `dir` when the identities given (`given`, loaded as `identities`) do not
/// open every one of its encrypted ticket files: verify reads every ticket file, so this is
/// a usage error naming each file left unopened and whose identity opens it, before
/// anything is verified. Said alike of a block alone and of a block of an emission.
fn every_file_opens(
    dir: &std::path::Path,
    given: &[PathBuf],
    identities: &Identities,
) -> Result<()> {
    // An encrypted block with no identity at all: nothing of its tickets can be read.
    if given.is_empty() {
        let sealed: Vec<String> = tirage::block::layout::TICKET_FILES
            .iter()
            .map(|f| format!("{f}{}", tirage::block::layout::SEALED_SUFFIX))
            .filter(|f| dir.join(f).exists())
            .collect();
        if !sealed.is_empty() {
            anyhow::bail!(
                "{}: {} encrypted: give the identities that open them (--identity FILE, the auditor's); nothing was verified",
                dir.display(),
                if sealed.len() == 1 { format!("{} is", sealed[0]) } else { format!("{} are", sealed.join(", ")) }
            );
        }
    }
    // Identities that open some of the files but not every one: the whole block cannot be
    // read, which is a usage error (name whose identity to give), not findings.
    if !given.is_empty() {
        let unopened: Vec<String> = tirage::output::seal::ROLES
            .iter()
            .filter(|(_, f)| !tirage::output::seal::opens(dir, f, identities))
            .map(|(role, f)| {
                let whose = tirage::package::Role::named(role).map_or("", |r| r.whose());
                format!("{f}{} ({whose})", tirage::block::layout::SEALED_SUFFIX)
            })
            .collect();
        if !unopened.is_empty() {
            anyhow::bail!(
                "{}: no identity given opens {}: verify reads every ticket file; give the identity that opens {} (--identity FILE, repeatable), or have the auditor made a recipient of every role (generate --recipient printer=… --recipient central=… with the auditor's key); nothing was verified",
                dir.display(),
                unopened.join(", "),
                if unopened.len() == 1 { "it" } else { "each" }
            );
        }
    }
    Ok(())
}

/// Refuses `--report DIR` (`report`) where the report of the block or emission `dir`
/// must not go: another block's or emission's directory, whose report it would replace,
/// inside `dir`, which is what is delivered, or inside any other block, deck, bundle or
/// emission ([`super::outside_deliveries`]). The messages name which of the two `dir`
/// is.
fn report_dir_allowed(report: &std::path::Path, dir: &std::path::Path) -> Result<()> {
    let what = if is_emission(dir) {
        "emission"
    } else {
        "block"
    };
    let other = std::fs::canonicalize(report).ok() != std::fs::canonicalize(dir).ok();
    let holds = |names: &[&str]| names.iter().any(|n| report.join(n).exists());
    if other && holds(&[MANIFEST, SUMS]) {
        anyhow::bail!(
            "--report {}: that is another block's directory; its report would be replaced by this {what}'s: give a directory of its own",
            report.display()
        );
    }
    if other && holds(&[EMISSION]) {
        anyhow::bail!(
            "--report {}: that is another emission's directory; its report would be replaced by this {what}'s: give a directory of its own",
            report.display()
        );
    }
    if inside(report, dir) {
        anyhow::bail!(
            "--report {}: that is inside the {what} {}, which is what is delivered; the report goes beside it (by default {}) or into a directory of its own",
            report.display(),
            dir.display(),
            tirage::audit::default_dir(dir)
                .map_or(format!("<{what}>.audit"), |d| d.display().to_string())
        );
    }
    // Nor inside another block, deck, bundle or emission: a report there would fail its
    // own verify.
    super::outside_deliveries(report, "a --report directory")
}

/// Refuses `--report DIR` (`report`) when it already holds an audit report, which only
/// `--force` replaces. Errors: the first report file found, and the option that replaces it.
fn no_report_in(report: &std::path::Path) -> Result<()> {
    let held = [AUDIT_MD, AUDIT_JSON, AUDIT_PDF, AUDIT_SVG]
        .iter()
        .map(|n| report.join(n))
        .find(|p| std::fs::symlink_metadata(p).is_ok());
    match held {
        Some(p) => anyhow::bail!(
            "--report {}: it already holds an audit report ({}); nothing was done: --force replaces it, or give another directory",
            report.display(),
            p.display()
        ),
        None => Ok(()),
    }
}

/// True when `path` is `block` or lies inside it (by their real paths; a path not made yet
/// by its nearest existing ancestor's).
fn inside(path: &std::path::Path, block: &std::path::Path) -> bool {
    let Ok(block) = std::fs::canonicalize(block) else {
        return false;
    };
    let mut rest = Vec::new();
    let mut p = path.to_path_buf();
    loop {
        if let Ok(real) = std::fs::canonicalize(&p) {
            let full = rest.iter().rev().fold(real, |acc: PathBuf, c| acc.join(c));
            return full.starts_with(&block);
        }
        match (p.file_name().map(|n| n.to_os_string()), p.parent()) {
            (Some(n), Some(parent)) => {
                rest.push(n);
                p = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent.to_path_buf()
                };
            }
            _ => return false,
        }
    }
}

/// Writes the emission's audit report beside it (`<emission>.audit/`) or into `--report`,
/// as a block's: only about the emission that was read (its `emission.json` unchanged).
fn write_emission_audit(a: &Args, report: &EmissionReport) -> Result<()> {
    let dir = match (&a.report, tirage::audit::default_dir(&a.dir)) {
        (Some(r), _) => r.clone(),
        (None, Some(d)) => {
            super::outside_deliveries(&d, "a --report directory")?;
            d
        }
        (None, None) => anyhow::bail!(
            "{}: no directory beside it can hold its audit report: give one with --report DIR (or --no-audit)",
            a.dir.display()
        ),
    };
    let now = std::fs::read(a.dir.join(EMISSION))
        .ok()
        .map(|b| hex::encode(sha2::Sha256::digest(b)));
    if a.report.is_none() && now != report.emission_json_sha256 {
        anyhow::bail!(
            "{} changed while it was being verified (another run replaced or changed it): this report is not about what is there now, so none was written; verify it again",
            a.dir.display()
        );
    }
    let audit = EmissionAudit::build(report, a.auditor.clone(), a.operator.clone());
    match audit.write(&dir, a.report.is_none()) {
        Err(e) if a.report.is_some() && report.clean => anyhow::bail!(
            "the emission verified clean, but the audit report asked for could not be written to {}: {e:#}",
            dir.display()
        ),
        Err(e) => errln!(
            "tirage: warning: the emission's audit report could not be written to {}: {e:#}",
            dir.display()
        ),
        Ok(written) if !a.quiet => {
            let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            errln!("audit report: {} ({})", names.join(", "), audit.verdict);
        }
        Ok(_) => {}
    }
    Ok(())
}

/// Refuses seed shares given in another order than generation's, a usage mistake rather
/// than a finding: each share (read from `paths`) opens one of the commitments the block's
/// manifest records, and in the commitments' order, not in the order given, the shares
/// (with `beacon`) make the seed whose commitment the manifest records. Only a manifest
/// that is the block's as far as verify can tell orders the shares ([`trusted_manifest`]):
/// a tampered one is a finding the checks report, never a reason to refuse the shares.
/// Anything else (no manifest, a share opening no commitment, another seed in either
/// order) is left to the replay, which reports it. Errors: the order each share's
/// commitment has, and the order to give.
fn shares_in_generation_order(
    dir: &std::path::Path,
    paths: &[PathBuf],
    shares: &[SeedShare],
    beacon: Option<&Beacon>,
    trust: &Trust,
) -> Result<()> {
    let Ok(bytes) = tirage::output::read_regular(&dir.join(MANIFEST), tirage::output::MAX_JSON)
    else {
        return Ok(());
    };
    let Ok(m) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Ok(());
    };
    if !trusted_manifest(dir, &bytes, &m, trust) {
        return Ok(());
    }
    let lines: Vec<&str> = m
        .get("seed_shares")
        .and_then(|v| v.as_array())
        .map(|v| v.iter().filter_map(|l| l.as_str()).collect())
        .unwrap_or_default();
    let recorded = m.get("seed_commitment").and_then(|v| v.as_str());
    // Where each share's commitment is recorded.
    let places: Option<Vec<usize>> = shares
        .iter()
        .map(|s| lines.iter().position(|l| opens(l, s)))
        .collect();
    let Some(places) = places else {
        return Ok(());
    };
    let mut ordered: Vec<Option<&SeedShare>> = vec![None; lines.len()];
    for (s, &p) in shares.iter().zip(&places) {
        ordered[p] = Some(s);
    }
    let Some(ordered) = ordered
        .into_iter()
        .map(|s| s.cloned())
        .collect::<Option<Vec<SeedShare>>>()
    else {
        return Ok(());
    };
    let commitment = |s: &[SeedShare]| Seed::from_shares_and_beacon(s, beacon).commitment();
    if Some(commitment(shares).as_str()) == recorded
        || Some(commitment(&ordered).as_str()) != recorded
    {
        return Ok(());
    }
    let opened: Vec<String> = places
        .iter()
        .enumerate()
        .map(|(i, p)| format!("share {} opens commitment {}", i + 1, p + 1))
        .collect();
    let mut order: Vec<(usize, &PathBuf)> = places.iter().copied().zip(paths).collect();
    order.sort();
    let order: Vec<String> = order.iter().map(|(_, f)| f.display().to_string()).collect();
    anyhow::bail!(
        "the shares are given in another order than generation's: {} of the manifest's seed_shares; give --seed-share in the commitments' order: {}",
        opened.join(", "),
        order.join(", ")
    )
}

/// What a block's manifest is held to before it may order the seed shares given: the
/// operator's key (the reference spec's pinned key, else `--signer`) and the published
/// share commitments (`--commitments`), when given.
struct Trust<'a> {
    /// The key `SHA256SUMS` must be signed with (an error: the pinned key is malformed).
    key: Option<std::result::Result<Verifier, ()>>,
    /// The published share commitments.
    commitments: Option<&'a [Commitment]>,
}

/// True when manifest `bytes` (parsed: `m`) in block `dir` is the block's as far as verify
/// can tell: `SHA256SUMS` lists their digest, its signature holds for `trust.key` when one
/// is given, and the manifest records exactly the published commitments, in order, when
/// they are given. Otherwise the manifest is a finding of verify's checks (`sha256sums`,
/// `signature`, `ceremony`).
fn trusted_manifest(
    dir: &std::path::Path,
    bytes: &[u8],
    m: &serde_json::Value,
    trust: &Trust,
) -> bool {
    use sha2::Digest;
    let Ok(sums) = tirage::output::sums::read_bytes(dir) else {
        return false;
    };
    let digest = hex::encode(sha2::Sha256::digest(bytes));
    let listed = tirage::output::sums::parse_bytes(&sums)
        .is_ok_and(|l| tirage::output::sums::check(&l, MANIFEST, &digest).is_ok());
    let signed = trust.key.as_ref().is_none_or(|k| {
        let sig =
            tirage::output::read_regular(&dir.join(tirage::block::layout::SUMS_SIG), 64 << 10)
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
        matches!((k, sig), (Ok(k), Some(sig)) if k.verify(&sums, &sig).is_ok())
    });
    let published = trust.commitments.is_none_or(|p| {
        let recorded: Vec<Option<Commitment>> = m
            .get("seed_shares")
            .and_then(|v| v.as_array())
            .map(|v| {
                v.iter()
                    .map(|l| l.as_str().and_then(|l| Commitment::parse(l).ok()))
                    .collect()
            })
            .unwrap_or_default();
        recorded.len() == p.len() && recorded.iter().zip(p).all(|(r, p)| r.as_ref() == Some(p))
    });
    listed && signed && published
}

/// The tickets the block's manifest says it holds, for the progress bar only.
fn manifest_tickets(dir: &std::path::Path) -> Option<u64> {
    let bytes = tirage::output::read_regular(&dir.join(MANIFEST), tirage::output::MAX_JSON).ok()?;
    let m: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    m.get("tickets")?.as_u64()
}

/// What to say of block directory `dir` when it lies in an emission directory (by its real
/// path): verified alone, it was held to its own files, not to the emission's
/// `emission.json`. A note when `emission.json` lists it by its name with its
/// `manifest.json` (by SHA-256); a warning when it lists another `manifest.json` for that
/// name or does not list the name (the block is not the emission's: an older block left
/// there, or one put in its place; the name of the block whose `manifest.json` it holds, if
/// any), or cannot be read. `None` outside an emission.
fn held_to_emission(dir: &std::path::Path) -> Option<String> {
    // By the real path: `.`, a link or a name without its folder lie in an emission too.
    let real = std::fs::canonicalize(dir).ok()?;
    let em = real.parent().filter(|e| is_emission(e))?;
    let name = real.file_name()?.to_str()?;
    let whole = format!(
        "verify {} to hold every block to it and check its signature",
        em.display()
    );
    let Some(listed) = tirage::output::read_regular(&em.join(EMISSION), tirage::output::MAX_JSON)
        .ok()
        .and_then(|b| {
            serde_json::from_slice::<tirage::output::emission_manifest::EmissionManifest>(&b).ok()
        })
        .map(|m| m.blocks)
    else {
        return Some(format!(
            "tirage: warning: {} is in emission {}, whose {EMISSION} cannot be read: this block \
             was not held to it; {whole}",
            dir.display(),
            em.display()
        ));
    };
    let ours = tirage::output::read_regular(&dir.join(MANIFEST), tirage::output::MAX_JSON)
        .ok()
        .map(|b| hex::encode(sha2::Sha256::digest(b)));
    let ours = ours.as_deref();
    let entry = listed.iter().find(|b| b.dir == name);
    if entry.is_some_and(|e| ours == Some(e.manifest_sha256.as_str())) {
        return Some(format!(
            "tirage: note: {} is {name} of emission {}, whose {EMISSION} lists this {MANIFEST} \
             (verified alone, the block was held to its own files; {whole})",
            dir.display(),
            em.display()
        ));
    }
    let elsewhere = listed
        .iter()
        .find(|b| ours == Some(b.manifest_sha256.as_str()))
        .map(|b| format!(" (its {MANIFEST} is the one listed for {})", b.dir))
        .unwrap_or_default();
    let what = match entry {
        Some(_) => {
            format!("lists another {MANIFEST} for {name}: this block is not the emission's {name}")
        }
        None => format!("does not list {name}"),
    };
    Some(format!(
        "tirage: warning: {} is in emission {}, whose {EMISSION} {what}{elsewhere}; {whole}",
        dir.display(),
        em.display()
    ))
}

/// Each block's number and tickets as emission.json lists them, for the progress bar only.
fn emission_tickets(dir: &std::path::Path) -> Vec<(u32, u64)> {
    let Ok(bytes) = tirage::output::read_regular(&dir.join(EMISSION), tirage::output::MAX_JSON)
    else {
        return Vec::new();
    };
    let Ok(em) =
        serde_json::from_slice::<tirage::output::emission_manifest::EmissionManifest>(&bytes)
    else {
        return Vec::new();
    };
    em.blocks
        .iter()
        .map(|b| (b.block, u64::from(b.tickets)))
        .collect()
}

/// True when a seed or seed shares were given.
fn opts_seed_given(a: &Args) -> bool {
    a.seed_file.is_some() || !a.seed_share.is_empty()
}
