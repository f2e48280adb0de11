//! A party's bundle (`tirage package --for printer` or `--for central`): its ticket file as
//! delivered, the public files and the operator's key (`operator.pub`), not the whole
//! block. verify checks what it holds: the signature of `SHA256SUMS` by the operator's
//! key, every file it holds against `SHA256SUMS` (as delivered) and, in clear, against the
//! manifest's record, the central system's rows counted by way against the manifest's lot
//! table, and that it holds nothing else. The auditor's bundle is the whole
//! block, verified as one ([`super::inspect`]).

use super::report::{Authenticated, CheckId, CheckResult, FileDigest, Report};
use super::{add, signature, Checks, Options};
use crate::block::layout::{
    BIN, CSV, MANIFEST, PUBLIC_KEY, SEALED_SUFFIX, SPEC, SUMS, SUMS_SIG, VALIDATION,
};
use crate::crypto::sign::Verifier;
use crate::output::hashing::SummingReader;
use crate::output::manifest::{holds_block, Manifest};
use crate::output::seal::{self, Identities};
use crate::output::{open_regular, read_regular, sums, MAX_JSON};
use crate::package::Role;
use sha2::{Digest, Sha256};
use std::io::{BufRead, Read};
use std::path::Path;

/// The party whose bundle `dir` is when it holds one party's ticket file, not the whole
/// block: a block's directory whose ticket files (in clear or `.age`) are exactly the
/// printer's or the central system's. A bundle missing the operator's key
/// (`operator.pub`) is still one ([`verify_bundle`] says the key is missing). `None` for a
/// block, a deck, or the auditor's bundle (the whole block).
pub fn partial_bundle(dir: &Path) -> Option<Role> {
    if !holds_block(dir) {
        return None;
    }
    let held = |f: &str| {
        std::fs::symlink_metadata(dir.join(f)).is_ok()
            || std::fs::symlink_metadata(dir.join(format!("{f}{SEALED_SUFFIX}"))).is_ok()
    };
    match (held(CSV), held(BIN), held(VALIDATION)) {
        (false, true, false) => Some(Role::Printer),
        (false, false, true) => Some(Role::Central),
        _ => None,
    }
}

/// What verify found in a party's bundle ([`verify_bundle`]).
#[derive(Debug, Clone)]
pub struct BundleReport {
    /// Whose bundle it is: `printer` or `central`.
    pub role: &'static str,
    /// The block it is of, in words (`game coq, emission 1, production block 1`), when its
    /// manifest was read.
    pub block: Option<String>,
    /// The files it holds and that were checked, as delivered.
    pub held: Vec<String>,
    /// Why the central system's rows were not counted (`validation.csv is encrypted and no
    /// --identity opens it`), when they were not: the counts are then `not run` and the
    /// verdict is not clean. `None` when they were counted, or for the printer's bundle.
    pub not_counted: Option<String>,
    /// The report in a block's shape (`verify --json` prints it, with a block's top-level
    /// keys): `bundle` names the role, `checks` gives each finding under its procedure
    /// (`signature`, `sha256sums`, `manifest`, `spec`, and `counts` when the central
    /// system's rows were counted, `not run` when they could not be read; the other
    /// procedures over the ticket files are `n/a`,
    /// since the bundle holds one party's file only), `files` the files it holds,
    /// `spec_comparison` the
    /// spec held against `--spec`, `authenticated` what the verdict rests on; `tickets` is
    /// 0, `payout` null, and `ways`, `features`, `losing_features`, `promised` and
    /// `pack_rules` are empty: no ticket was read.
    pub report: Report,
}

impl BundleReport {
    /// The party in words: `the printer's`, `the central system's`.
    fn whose(&self) -> &'static str {
        Role::named(self.role).map_or("a party's", Role::whose)
    }

    /// The findings, one line each, in the order of the procedures.
    fn findings(&self) -> impl Iterator<Item = &str> {
        self.report
            .checks
            .iter()
            .flat_map(|c| c.examples.iter().map(|f| f.detail.as_str()))
    }

    /// The verdict alone (what `verify -q` prints), one line: CLEAN, or FINDINGS with the
    /// number of findings and, when the rows were not counted, `counts not run` and why (as
    /// a block's verdict names a check that could not run).
    pub fn verdict_text(&self) -> String {
        let mut s = if self.report.clean {
            format!(
                "verify: CLEAN, as {} bundle: what it holds was checked, not the whole block",
                self.whose()
            )
        } else {
            let n: u64 = self.report.checks.iter().map(|c| c.findings).sum();
            let mut why = Vec::new();
            if n > 0 {
                why.push(format!("{n} finding(s)"));
            }
            if let Some(r) = &self.not_counted {
                why.push(format!("counts not run — rows not counted: {r}"));
            }
            format!(
                "verify: FINDINGS in {} bundle ({})",
                self.whose(),
                why.join("; ")
            )
        };
        if self.report.authenticated.test_seed {
            s.push_str("; a TEST BLOCK's (made with a test seed, never for sale)");
        }
        let a = &self.report.authenticated;
        match (&a.signer, &a.mismatched_key) {
            (Some(_), _) => {}
            (None, Some(id)) if a.signer_not_pinned => s.push_str(&format!(
                "; NOT AUTHENTICATED: the key given (--signer, key {id}) is not the operator's key the reference spec pins"
            )),
            (None, Some(id)) => s.push_str(&format!(
                "; NOT AUTHENTICATED: the signature was checked and does not match key {id}"
            )),
            (None, None) if a.signature_rejected && a.unsigned => s.push_str(
                "; NOT AUTHENTICATED: the bundle is not signed (no readable SHA256SUMS.minisig)",
            ),
            (None, None) if a.signature_rejected => {
                s.push_str("; NOT AUTHENTICATED: the signature does not hold for the key given")
            }
            (None, None) => s.push_str("; unauthenticated: no signature was checked"),
        }
        s.push('\n');
        s
    }

    /// The report as text: what the bundle is and holds, its spec held against the
    /// reference, each finding, the verdict.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "tirage verify {} — {} bundle{}: it holds {}; the block's other ticket files are the other parties', checked from the auditor's bundle\n",
            self.report.dir,
            self.whose(),
            self.block
                .as_deref()
                .map_or_else(String::new, |b| format!(" of {b}")),
            self.held.join(", ")
        );
        let a = &self.report.authenticated;
        match (&a.signer, &a.mismatched_key) {
            (Some(k), _) => s.push_str(&format!(
                "signed: SHA256SUMS.minisig is the signature of SHA256SUMS by key {k} ({})\n",
                if a.signer_pinned {
                    "the operator's key the reference spec pins"
                } else {
                    "--signer"
                }
            )),
            (None, Some(id)) if a.signer_not_pinned => s.push_str(&format!(
                "signed: not checked against the key given (--signer, key {id}): it is not the operator's key the reference spec pins\n"
            )),
            (None, Some(id)) => s.push_str(&format!(
                "signed: SHA256SUMS.minisig was checked and does not match key {id}\n"
            )),
            (None, None) if a.signature_rejected && a.unsigned => {
                s.push_str("signed: no readable SHA256SUMS.minisig: the bundle is not signed\n")
            }
            (None, None) if a.signature_rejected => {
                s.push_str("signed: checked, and does not hold for the key given\n")
            }
            (None, None) => s.push_str("signed: not checked\n"),
        }
        if let Some(c) = &self.report.spec_comparison {
            s.push_str(&format!("spec: {} (--spec)\n", c.summary()));
        }
        for f in self.findings() {
            s.push_str(&format!("FINDING {f}\n"));
        }
        s.push_str(&self.verdict_text());
        s
    }
}

/// Size and hex SHA-256 of regular file `path`, read once. Errors: the reason, for a
/// finding.
fn digest(path: &Path) -> Result<(u64, String), String> {
    let mut f = open_regular(path).map_err(|e| format!("cannot be read: {e}"))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut n = 0u64;
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => {
                h.update(&buf[..k]);
                n += k as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot be read: {e}")),
        }
    }
    Ok((n, hex::encode(h.finalize())))
}

/// Checks the bundle of `role` in `dir` ([`partial_bundle`]): the signature of
/// `SHA256SUMS` by the operator's key (`opts.reference`'s pinned key, else `opts.signer`;
/// none: a finding when `opts.require_signature`), every file the role's bundle holds (its
/// ticket file as delivered, `spec.toml`, `manifest.json`) against `SHA256SUMS` and, a
/// ticket file in clear, the manifest's record, its `spec.toml` (it validates and, given
/// `opts.reference`, has the reference's every field, as a block's), the central system's
/// `validation.csv` rows counted by way against the manifest (when they cannot be read,
/// encrypted to no identity given, the counts are `not run` and the verdict not clean), and
/// no other entry than a bundle's. Reads each file once (the validation file twice: its
/// digest, then its rows); the other options do not apply to a bundle.
pub fn verify_bundle(dir: &Path, role: Role, opts: &Options) -> BundleReport {
    let mut checks = Checks::new();
    let (sums_bytes, listed) = read_sums(dir, &mut checks);
    let key = signature::signature_key(opts);
    let manifest = read_manifest(dir, opts, &mut checks);
    let signature = signed(
        dir,
        key.as_ref(),
        opts,
        sums_bytes.as_deref(),
        manifest.as_ref(),
        &mut checks,
    );
    let held = held_files(dir, role);
    let (files, spec_text) = check_held(dir, &held, &listed, manifest.as_ref(), &mut checks);
    // A spec.toml that cannot be read is already a finding of SHA256SUMS's.
    let spec = spec_text.and_then(|t| super::open::read_spec(t, dir, &mut checks));
    held_to_itself(
        dir,
        &signature,
        spec.as_ref(),
        manifest.as_ref(),
        opts,
        &mut checks,
    );
    let spec_comparison = match (&spec, opts.reference) {
        (Some(s), Some(r)) => Some(super::spec_diff::compare(s, r)),
        _ => None,
    };
    for d in spec_comparison.iter().flat_map(|c| &c.differences) {
        add(&mut checks, CheckId::Spec, None, d.describe());
    }
    others(dir, &held, role, &mut checks);
    let counted = party_files(dir, role, manifest.as_ref(), opts, &mut checks);
    let not_counted = counted.clone().and_then(Result::err);
    let results = results(checks, key.is_some(), counted.map(|c| c.is_ok()));
    let m = manifest.as_ref();
    let report = Report {
        dir: dir.display().to_string(),
        bundle: Some(role.name()),
        game: spec.as_ref().map(|s| s.id.clone()),
        currency: spec.as_ref().map(|s| s.currency.clone()),
        kind: m.map(|m| m.kind),
        block: m.map(|m| m.block),
        tickets: 0,
        clean: results.iter().all(CheckResult::is_clean),
        checks: results,
        ways: Vec::new(),
        features: Vec::new(),
        losing_features: Vec::new(),
        promised: Vec::new(),
        payout: None,
        pack_rules: Vec::new(),
        files,
        authenticated: authenticated(
            m,
            opts,
            signature,
            key.is_some(),
            spec_comparison.as_ref(),
            &held,
        ),
        spec_comparison,
        generated_by: m.map(|m| m.tool.clone()),
    };
    BundleReport {
        role: role.name(),
        block: m.map(|m| {
            format!(
                "game {}, emission {}, {} block {}",
                m.game.id,
                m.game.emission,
                m.kind.name(),
                m.block
            )
        }),
        held,
        not_counted,
        report,
    }
}

/// Holds the bundle in `dir` to itself, as a block is: its own spec.toml `spec` pinning
/// another key than the one its signature holds for ([`signature::own_pin_finding`],
/// [`CheckId::Signature`]), and a folder named for another block than its manifest's
/// ([`signature::folder_finding`], [`CheckId::Manifest`]).
fn held_to_itself(
    dir: &Path,
    signed: &Signed,
    spec: Option<&crate::spec::GameSpec>,
    manifest: Option<&Manifest>,
    opts: &Options,
    checks: &mut Checks,
) {
    let pin = signed
        .signer
        .as_deref()
        .and_then(|signer| signature::own_pin_finding(spec, opts, signer));
    if let Some(why) = pin {
        add(
            checks,
            CheckId::Signature,
            None,
            format!("{SUMS_SIG}: {why}"),
        );
    }
    if let Some(why) = manifest.and_then(|m| signature::folder_finding(dir, m)) {
        add(checks, CheckId::Manifest, None, why);
    }
}

/// What the bundle of `role` in `dir` holds for its party, beyond the digests: its copy of
/// the operator's key (a finding of [`CheckId::Sha256sums`] when it is missing), the
/// printer's print file decrypted and held to `manifest` ([`check_printer_plaintext`]),
/// the central system's rows counted ([`count_rows`]). Returns the count's outcome for the
/// central system's bundle whose manifest was read, else `None` (the printer's rows are
/// not its to count; a manifest not read is a finding already).
fn party_files(
    dir: &Path,
    role: Role,
    manifest: Option<&Manifest>,
    opts: &Options,
    checks: &mut Checks,
) -> Option<Result<(), String>> {
    if std::fs::symlink_metadata(dir.join(PUBLIC_KEY)).is_err() {
        add(
            checks,
            CheckId::Sha256sums,
            None,
            format!(
                "{PUBLIC_KEY} is missing: {} bundle holds no copy of the operator's public key (tirage package puts it there); ask the operator for the bundle again, and check it with the key as you hold it (--signer KEY.pub)",
                role.whose()
            ),
        );
    }
    match (role, manifest) {
        (Role::Printer, Some(m)) => {
            check_printer_plaintext(dir, m, opts, checks);
            None
        }
        (Role::Central, Some(m)) => Some(count_rows(dir, m, opts, checks)),
        _ => None,
    }
}

/// `SHA256SUMS` of the bundle in `dir`: its bytes as read and the entries (name, hex
/// SHA-256) of its well-formed lines; a file that cannot be read (`None`, no entries) and
/// each malformed line are findings of [`CheckId::Sha256sums`].
fn read_sums(dir: &Path, checks: &mut Checks) -> (Option<Vec<u8>>, Vec<(String, String)>) {
    let sums_bytes = match sums::read_bytes(dir) {
        Ok(b) => Some(b),
        Err(e) => {
            add(
                checks,
                CheckId::Sha256sums,
                None,
                format!("{SUMS}: cannot read it: {e}"),
            );
            None
        }
    };
    // Each malformed line is a finding; the well-formed lines still list their files.
    let (listed, why) = sums_bytes
        .as_deref()
        .map(sums::parse_bytes_lines)
        .unwrap_or_default();
    for m in why {
        add(checks, CheckId::Sha256sums, None, format!("{SUMS}: {m}"));
    }
    (sums_bytes, listed)
}

/// The manifest of the bundle in `dir`; one that cannot be read or parsed, and a test
/// block held to a reference spec that pins the operator's key, are findings of
/// [`CheckId::Manifest`].
fn read_manifest(dir: &Path, opts: &Options, checks: &mut Checks) -> Option<Manifest> {
    let manifest: Option<Manifest> = read_regular(&dir.join(MANIFEST), MAX_JSON)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    if manifest.is_none() {
        add(
            checks,
            CheckId::Manifest,
            None,
            format!("{MANIFEST}: cannot be read or parsed as a tirage manifest"),
        );
    }
    if let Some(why) = manifest
        .as_ref()
        .and_then(|m| signature::test_block_finding(m, opts))
    {
        add(checks, CheckId::Manifest, None, why);
    }
    manifest
}

/// Each procedure's result over a party's bundle from the findings `checks`: `fail` with
/// findings; the signature `skipped` without a key (`keyed` false); the signature,
/// `SHA256SUMS`, the manifest and the spec `pass`; the counts `pass` when the validation
/// file's rows were counted (`counted` `Some(true)`, [`count_rows`]), `not run` when they
/// could not be read (`Some(false)`), `n/a` when not the bundle's to count (`None`); the
/// other procedures over the ticket files `n/a` (checked from the auditor's bundle, which
/// holds them all).
fn results(mut checks: Checks, keyed: bool, counted: Option<bool>) -> Vec<CheckResult> {
    CheckId::ALL
        .iter()
        .map(|&id| {
            let f = checks.remove(&id).unwrap_or_default();
            let result = match id {
                _ if f.count > 0 => "fail",
                CheckId::Signature if !keyed => "skipped",
                CheckId::Signature | CheckId::Sha256sums | CheckId::Manifest | CheckId::Spec => {
                    "pass"
                }
                CheckId::Counts if counted == Some(true) => "pass",
                CheckId::Counts if counted == Some(false) => "not run",
                _ => "n/a",
            };
            CheckResult::new(id, result, f)
        })
        .collect()
}

/// What a party's bundle's verdict rests on: the key whose signature held, or the id of
/// the key it was checked against and does not match (`signed`; `keyed`: a key was asked
/// for), the reference spec and how the bundle's copy compares to
/// it, what its manifest `m` says (test block, specimen, validation key), and whether the
/// files it holds (`held`) are encrypted. Nothing is replayed.
fn authenticated(
    m: Option<&Manifest>,
    opts: &Options,
    signed: Signed,
    keyed: bool,
    comparison: Option<&super::spec_diff::SpecComparison>,
    held: &[String],
) -> Authenticated {
    Authenticated {
        signature_rejected: keyed && signed.signer.is_none(),
        unsigned: signed.unsigned,
        signer_pinned: signed.signer.is_some() && signature::pins_a_key(opts),
        signer: signed.signer,
        mismatched_key: signed.mismatched_key,
        signer_not_pinned: signature::pinned_mismatch(opts).is_some(),
        vouched: signed.vouched,
        test_seed: m.is_some_and(Manifest::is_test_block),
        reference_spec: opts.reference.map(|r| r.sha256.clone()),
        reference_spec_text_differs: comparison
            .is_some_and(|c| !c.bytes_identical && c.same_meaning()),
        reference_spec_differs: comparison.is_some_and(|c| !c.same_meaning()),
        replayed: false,
        replay_differs: false,
        ceremony: None,
        encrypted: held.iter().any(|f| f.ends_with(SEALED_SUFFIX)),
        validation_key_from_seed: m.is_some_and(|m| m.validation_key_from_seed),
        specimen: m.is_some_and(|m| m.kind == crate::block::Kind::Specimen),
        manifest_read: m.is_some(),
        same_build: Authenticated::same_build_of(m),
    }
}

/// Holds the bundle's own `operator.pub` to `key`, the key its signature is checked with:
/// nothing signs that file, so whoever wrote the bundle could have put another key there
/// for its reader to trust. Calls `bad` with a finding when it cannot be read (a missing
/// one is [`verify_bundle`]'s finding), is not a minisign public key (its last line, `RW…`), or is another key (both ids named).
fn own_key(dir: &Path, key: &Verifier, bad: &mut impl FnMut(String)) {
    let text = match read_regular(&dir.join(PUBLIC_KEY), 4096) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        // Said once, by verify_bundle.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        Err(e) => return bad(format!("{PUBLIC_KEY}: cannot read it: {e}")),
    };
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    match Verifier::from_base64(line) {
        Ok(own) if own.public_key() == key.public_key() => {}
        Ok(own) => bad(format!(
            "{PUBLIC_KEY} is key {}, not the key the signature was checked with ({}): a reader trusting the bundle's own key would trust whoever wrote the bundle",
            own.id(),
            key.id()
        )),
        Err(_) => bad(format!(
            "{PUBLIC_KEY} is not a minisign public key (expected its key line, RW…, last)"
        )),
    }
}

/// What the signature of a bundle was found to be.
#[derive(Default)]
struct Signed {
    /// The whole public key of the key the signature holds for.
    signer: Option<String>,
    /// The id of the key the signature was checked against and does not match.
    mismatched_key: Option<String>,
    /// What the signature's trusted comment vouches for, in words, when it holds.
    vouched: Option<String>,
    /// True when a key was given and the bundle has no readable `SHA256SUMS.minisig`.
    unsigned: bool,
}

/// Checks `SHA256SUMS.minisig` in `dir` as the signature of `sums` (the bytes of
/// `SHA256SUMS` as read) by `key` (the operator's: [`signature::signature_key`]), then
/// holds what its trusted comment vouches for to `manifest` and to the folder's name, as a
/// block's verify does. Findings of [`CheckId::Signature`]: a signature that does not hold
/// or cannot be read when a key was given, none checked when `opts.require_signature`, a
/// signer other than the key the reference spec pins, a trusted comment that names
/// another block, and the bundle's own `operator.pub` when it is not the key.
fn signed(
    dir: &Path,
    key: Option<&Result<Verifier, String>>,
    opts: &Options,
    sums: Option<&[u8]>,
    manifest: Option<&Manifest>,
    checks: &mut Checks,
) -> Signed {
    let mut bad = |what: String| add(checks, CheckId::Signature, None, what);
    if let Some(why) = signature::pinned_mismatch(opts) {
        bad(why);
    }
    match (key, sums) {
        (Some(Err(e)), _) => bad(format!("the reference spec's [signing] public_key: {e}")),
        (Some(Ok(key)), Some(bytes)) => {
            let sig = read_regular(&dir.join(SUMS_SIG), 64 * 1024)
                .map_err(|e| format!("cannot read it: {e}"))
                .and_then(|s| {
                    String::from_utf8(s)
                        .map_err(|_| "not a minisign signature (not text)".to_string())
                })
                .and_then(|s| {
                    key.verify_as(bytes, &s, signature::checked_against(opts))
                        .map_err(|e| e.to_string())
                });
            let given = signature::mismatched_signer(opts);
            match sig {
                // Signed by the key: the bundle's own copy of it must be that key too, and
                // what it vouches for must be this block.
                Ok(comment) => {
                    own_key(dir, key, &mut bad);
                    let vouched = signature::vouched_for(&comment, manifest, dir, &mut bad)
                        .map(|v| v.describe());
                    return Signed {
                        signer: given.is_none().then(|| key.public_key()),
                        mismatched_key: given,
                        vouched,
                        unsigned: false,
                    };
                }
                Err(m) => {
                    bad(format!("{SUMS_SIG}: {m}"));
                    // Read, and not of the key: it was checked and does not match.
                    if read_regular(&dir.join(SUMS_SIG), 64 * 1024).is_ok() {
                        return Signed {
                            mismatched_key: given.or_else(|| Some(key.id().to_string())),
                            ..Signed::default()
                        };
                    }
                    return Signed {
                        unsigned: true,
                        ..Signed::default()
                    };
                }
            }
        }
        (None, _) if opts.require_signature => bad(
            "no signature was checked: anyone could have written these files and their digests; give the operator's public key as you hold it (--signer KEY.pub), or --unauthenticated"
                .to_string(),
        ),
        _ => {}
    }
    Signed::default()
}

/// Counts the rows of the central system's `validation.csv` in `dir` (in clear, or its
/// `.age` opened with `opts.identities`) by way and prize, and holds each count to the lot
/// table of `manifest`: every way's count, and the losing rows (`lose`, prize 0) to the
/// tickets less the lots; a row of a way and prize not of the lot table is a finding too
/// ([`CheckId::Counts`], as a block's verify holds its tally). Errors: why the rows were
/// not counted, when the file cannot be opened here (`validation.csv is encrypted and no
/// --identity opens it`; unreadable, which is a finding of `SHA256SUMS`'s already).
fn count_rows(
    dir: &Path,
    manifest: &Manifest,
    opts: &Options,
    checks: &mut Checks,
) -> Result<(), String> {
    let none = Identities::default();
    let ids = opts.identities.unwrap_or(&none);
    let opened = seal::open(dir, VALIDATION, ids).map_err(|e| {
        if e.kind() == std::io::ErrorKind::PermissionDenied {
            format!("{VALIDATION} is encrypted and no --identity opens it")
        } else {
            format!("{VALIDATION} cannot be opened: {e}")
        }
    })?;
    // (way, prize, item) of each way of the lot table, with its count; then the losers.
    let mut want: Vec<([String; 3], u64)> = manifest
        .tiers
        .iter()
        .flat_map(|t| {
            let item = t.item.clone().unwrap_or_default();
            t.ways
                .iter()
                .map(move |w| ([w.id.clone(), t.amount.clone(), item.clone()], w.count))
        })
        .collect();
    let losers = u64::from(manifest.tickets).saturating_sub(manifest.lots);
    want.push((["lose".into(), "0".into(), String::new()], losers));
    let mut got = vec![0u64; want.len()];
    let (mut stray, mut first_stray) = (0u64, 0u64);
    let mut rows = std::io::BufReader::new(SummingReader::new(opened.reader));
    for (i, line) in (&mut rows).split(b'\n').enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                add(
                    checks,
                    CheckId::Counts,
                    None,
                    format!("{}: cannot be read: {e}", opened.delivered),
                );
                return Ok(());
            }
        };
        // The header row.
        if i == 0 {
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let mut f = text.split(',').skip(1);
        let row = [f.next(), f.next(), f.next()].map(|x| x.unwrap_or_default());
        match want.iter().position(|(w, _)| w == &row) {
            Some(k) => got[k] += 1,
            None => {
                if stray == 0 {
                    first_stray = i as u64 + 1;
                }
                stray += 1;
            }
        }
    }
    for ((w, n), g) in want.iter().zip(&got).filter(|((_, n), g)| n != *g) {
        add(
            checks,
            CheckId::Counts,
            None,
            format!(
                "{VALIDATION}: {g} row(s) of way \"{}\" (prize {}), the manifest's lot table says {n}",
                w[0], w[1]
            ),
        );
    }
    if stray > 0 {
        add(
            checks,
            CheckId::Counts,
            None,
            format!(
                "{VALIDATION}: {stray} row(s) of a way and prize not of the manifest's lot table (the first at line {first_stray})"
            ),
        );
    }
    if opened.sealed.is_some() {
        let read = rows.into_inner().finish();
        decrypted_to_manifest(&opened.delivered, VALIDATION, read, manifest, checks);
    }
    Ok(())
}

/// Decrypts `tickets.bin.age` of the printer's bundle in `dir` with `opts.identities`
/// and holds its plaintext to `manifest`'s record ([`decrypted_to_manifest`]). Nothing is
/// checked when the bundle holds the file in clear (its digest is held to the manifest
/// already) or no identity was given; one that opens nothing is refused before.
fn check_printer_plaintext(dir: &Path, manifest: &Manifest, opts: &Options, checks: &mut Checks) {
    let Some(ids) = opts.identities.filter(|ids| !ids.is_empty()) else {
        return;
    };
    let opened = match seal::open(dir, BIN, ids) {
        Ok(o) if o.sealed.is_some() => o,
        Ok(_) => return,
        Err(e) => {
            return add(
                checks,
                CheckId::Manifest,
                None,
                format!("{BIN}{SEALED_SUFFIX}: cannot be decrypted: {e}"),
            )
        }
    };
    let mut plain = SummingReader::new(opened.reader);
    match std::io::copy(&mut plain, &mut std::io::sink()) {
        Ok(_) => {
            let read = plain.finish();
            decrypted_to_manifest(&opened.delivered, BIN, read, manifest, checks);
        }
        Err(e) => add(
            checks,
            CheckId::Manifest,
            None,
            format!("{}: cannot be decrypted: {e}", opened.delivered),
        ),
    }
}

/// Holds the plaintext of `delivered` (the encrypted form of ticket file `name`), of
/// `read` bytes and hex SHA-256 as decrypted, to `manifest`'s record of `name`: a finding
/// of [`CheckId::Manifest`] when the size or the digest differs, or when the manifest has
/// no record of it. What the recipient decrypts must be what the block was made with,
/// not only what `SHA256SUMS` lists of the encrypted file.
fn decrypted_to_manifest(
    delivered: &str,
    name: &str,
    (bytes, sha256): (u64, String),
    manifest: &Manifest,
    checks: &mut Checks,
) {
    let what = match manifest.files.iter().find(|f| f.name == name) {
        None => format!("{delivered}: manifest.json records no {name}"),
        Some(rec) if rec.sha256 != sha256 => format!(
            "{delivered}: decrypted, its SHA-256 is {sha256}; manifest.json records {}",
            rec.sha256
        ),
        Some(rec) if rec.bytes != bytes => format!(
            "{delivered}: decrypted, it holds {bytes} bytes; manifest.json records {}",
            rec.bytes
        ),
        Some(_) => return,
    };
    add(checks, CheckId::Manifest, None, what);
}

/// The encrypted files the bundle of `role` in `dir` holds, as delivered (`validation.csv.age`
/// of the central system's, `tickets.bin.age` of the printer's), each with the role whose
/// identity opens it. Empty when it holds its ticket file in clear.
pub fn sealed_files(dir: &Path, role: Role) -> Vec<(String, Role)> {
    held_files(dir, role)
        .into_iter()
        .filter_map(|f| {
            let clear = f.strip_suffix(SEALED_SUFFIX)?;
            let name = seal::ROLES.iter().find(|(_, n)| *n == clear)?.0;
            Some((f, Role::named(name)?))
        })
        .collect()
}

/// The files the bundle of `role` in `dir` holds, as delivered: each ticket file in clear
/// when it is there, else its `.age`; then `spec.toml` and `manifest.json`.
fn held_files(dir: &Path, role: Role) -> Vec<String> {
    let mut held: Vec<String> = role
        .ticket_files()
        .iter()
        .map(|f| {
            if std::fs::symlink_metadata(dir.join(f)).is_ok() {
                (*f).to_string()
            } else {
                format!("{f}{SEALED_SUFFIX}")
            }
        })
        .collect();
    held.extend([SPEC.to_string(), MANIFEST.to_string()]);
    held
}

/// Holds each file of `held` in `dir` to `listed` (`SHA256SUMS`, when it was read) and to
/// the record of `manifest` when it has one (a file in clear); findings go to `checks`
/// ([`CheckId::Sha256sums`], [`CheckId::Manifest`]). Returns each file with its digests,
/// and the text of `spec.toml` as read (an error when it is not UTF-8; `None` when it
/// cannot be read, a finding already).
fn check_held(
    dir: &Path,
    held: &[String],
    listed: &[(String, String)],
    manifest: Option<&Manifest>,
    checks: &mut Checks,
) -> (Vec<FileDigest>, Option<std::io::Result<String>>) {
    let mut files = Vec::new();
    let mut spec_text = None;
    for name in held {
        // The spec is read whole, once: its digest is of the very bytes parsed.
        let read = if name == SPEC {
            read_regular(&dir.join(name), crate::spec::MAX_SPEC_BYTES)
                .map_err(|e| format!("cannot be read: {e}"))
                .map(|b| {
                    let d = (b.len() as u64, hex::encode(Sha256::digest(&b)));
                    spec_text = Some(String::from_utf8(b).map_err(|_| {
                        std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text")
                    }));
                    d
                })
        } else {
            digest(&dir.join(name))
        };
        let in_sums = listed
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d.clone());
        let rec = manifest.and_then(|m| m.files.iter().find(|f| f.name == *name));
        let mut file = FileDigest {
            name: name.clone(),
            bytes: None,
            sha256: None,
            sha256sums: in_sums,
            manifest: rec.map(|r| r.sha256.clone()),
        };
        match read {
            Err(m) => add(checks, CheckId::Sha256sums, None, format!("{name} {m}")),
            Ok((n, d)) => {
                if !listed.is_empty() {
                    if let Err(m) = sums::check(listed, name, &d) {
                        add(checks, CheckId::Sha256sums, None, format!("{name}: {m}"));
                    }
                }
                if let Some(rec) = rec.filter(|r| r.sha256 != d) {
                    add(
                        checks,
                        CheckId::Manifest,
                        None,
                        format!("{name}: SHA-256 {d}, the manifest says {}", rec.sha256),
                    );
                }
                (file.bytes, file.sha256) = (Some(n), Some(d));
            }
        }
        files.push(file);
    }
    (files, spec_text)
}

/// Names each entry of `dir` that is none of the bundle's (`held`, `SHA256SUMS`, its
/// signature, `operator.pub`): another party's file or a note slipped in.
fn others(dir: &Path, held: &[String], role: Role, checks: &mut Checks) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut other: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !(held.contains(n) || [SUMS, SUMS_SIG, PUBLIC_KEY].contains(&n.as_str())))
        .collect();
    other.sort();
    let whose = role.whose();
    for n in other {
        add(
            checks,
            CheckId::Sha256sums,
            None,
            format!("{n} is in the bundle but is none of {whose} files"),
        );
    }
}
