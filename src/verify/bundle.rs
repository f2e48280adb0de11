//! A party's bundle (`tirage package --for printer` or `--for central`): its ticket file as
//! delivered, the public files and the operator's key (`operator.pub`), not the whole
//! block. verify checks what it holds: the signature of `SHA256SUMS` by the operator's
//! key, every file it holds against `SHA256SUMS` (as delivered) and, in clear, against the
//! manifest's record, and that it holds nothing else. The auditor's bundle is the whole
//! block, verified as one ([`super::inspect`]).

use crate::block::layout::{
    BIN, CSV, MANIFEST, PUBLIC_KEY, SEALED_SUFFIX, SPEC, SUMS, SUMS_SIG, VALIDATION,
};
use crate::crypto::sign::Verifier;
use crate::output::manifest::{holds_block, Manifest};
use crate::output::{open_regular, read_regular, sums, MAX_JSON};
use crate::package::Role;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// The party whose bundle `dir` is when it holds one party's ticket file, not the whole
/// block: a block's directory holding the operator's key (`operator.pub`) whose ticket
/// files (in clear or `.age`) are exactly the printer's or the central system's. `None`
/// for a block, a deck, or the auditor's bundle (the whole block).
pub fn partial_bundle(dir: &Path) -> Option<Role> {
    if !dir.join(PUBLIC_KEY).is_file() || !holds_block(dir) {
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
#[derive(Debug, Clone, serde::Serialize)]
pub struct BundleReport {
    /// The bundle's directory.
    pub dir: String,
    /// Whose bundle it is: `printer` or `central`.
    pub role: &'static str,
    /// The block it is of, in words (`game coq, emission 1, production block 1`), when its
    /// manifest was read.
    pub block: Option<String>,
    /// The files it holds and that were checked, as delivered.
    pub held: Vec<String>,
    /// The whole public key (`RW…`) whose signature of `SHA256SUMS` holds, if one was
    /// checked and held.
    pub signed_by: Option<String>,
    /// What is wrong, one line each.
    pub findings: Vec<String>,
    /// True when the block is a test block (made with a test seed, never for sale).
    pub test_block: bool,
    /// True when nothing is wrong.
    pub clean: bool,
}

impl BundleReport {
    /// The party in words: `the printer's`, `the central system's`.
    fn whose(&self) -> &'static str {
        if self.role == "printer" {
            "the printer's"
        } else {
            "the central system's"
        }
    }

    /// The verdict alone (what `verify -q` prints), one line.
    pub fn verdict_text(&self) -> String {
        let mut s = if self.clean {
            format!(
                "verify: CLEAN, as {} bundle: what it holds was checked, not the whole block",
                self.whose()
            )
        } else {
            format!(
                "verify: FINDINGS in {} bundle ({} finding(s))",
                self.whose(),
                self.findings.len()
            )
        };
        if self.test_block {
            s.push_str("; a TEST BLOCK's (made with a test seed, never for sale)");
        }
        if self.signed_by.is_none() {
            s.push_str("; unauthenticated: no signature was checked");
        }
        s.push('\n');
        s
    }

    /// The report as text: what the bundle is and holds, each finding, the verdict.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "tirage verify {} — {} bundle{}: it holds {}; the block's other ticket files are the other parties', checked from the auditor's bundle\n",
            self.dir,
            self.whose(),
            self.block
                .as_deref()
                .map_or_else(String::new, |b| format!(" of {b}")),
            self.held.join(", ")
        );
        match &self.signed_by {
            Some(k) => s.push_str(&format!(
                "signed: SHA256SUMS.minisig is the signature of SHA256SUMS by key {k} (--signer)\n"
            )),
            None => s.push_str("signed: not checked\n"),
        }
        for f in &self.findings {
            s.push_str(&format!("FINDING {f}\n"));
        }
        s.push_str(&self.verdict_text());
        s
    }
}

/// The hex SHA-256 of regular file `path`, read once. Errors: the reason, for a finding.
fn digest(path: &Path) -> Result<String, String> {
    let mut f = open_regular(path).map_err(|e| format!("cannot be read: {e}"))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(k) => h.update(&buf[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot be read: {e}")),
        }
    }
    Ok(hex::encode(h.finalize()))
}

/// Checks the bundle of `role` in `dir` ([`partial_bundle`]): the signature of
/// `SHA256SUMS` by `signer` (none given: a finding when `require_signature`), every file
/// the role's bundle holds (its ticket file as delivered, `spec.toml`, `manifest.json`)
/// against `SHA256SUMS` and, a ticket file in clear, the manifest's record, and no other
/// entry than a bundle's. Reads each file once.
pub fn verify_bundle(
    dir: &Path,
    role: Role,
    signer: Option<&Verifier>,
    require_signature: bool,
) -> BundleReport {
    let mut findings = Vec::new();
    let sums_bytes = match sums::read_bytes(dir) {
        Ok(b) => Some(b),
        Err(e) => {
            findings.push(format!("{SUMS}: cannot read it: {e}"));
            None
        }
    };
    let listed = match sums_bytes.as_deref().map(sums::parse_bytes) {
        Some(Ok(l)) => l,
        Some(Err(m)) => {
            findings.push(format!("{SUMS}: {m}"));
            Vec::new()
        }
        None => Vec::new(),
    };
    let signed_by = signed(
        dir,
        signer,
        sums_bytes.as_deref(),
        require_signature,
        &mut findings,
    );
    let held = held_files(dir, role);
    let manifest: Option<Manifest> = read_regular(&dir.join(MANIFEST), MAX_JSON)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    if manifest.is_none() {
        findings.push(format!(
            "{MANIFEST}: cannot be read or parsed as a tirage manifest"
        ));
    }
    check_held(dir, &held, &listed, manifest.as_ref(), &mut findings);
    others(dir, &held, role, &mut findings);
    BundleReport {
        dir: dir.display().to_string(),
        role: role.name(),
        block: manifest.as_ref().map(|m| {
            format!(
                "game {}, emission {}, {} block {}",
                m.game.id,
                m.game.emission,
                m.kind.name(),
                m.block
            )
        }),
        held,
        signed_by,
        clean: findings.is_empty(),
        findings,
        test_block: manifest.as_ref().is_some_and(Manifest::is_test_block),
    }
}

/// The whole public key of `signer` when `SHA256SUMS.minisig` in `dir` is its signature of
/// `sums` (the bytes of `SHA256SUMS` as read); else `None`, and a finding when a key was
/// given, or none was and `require_signature`.
fn signed(
    dir: &Path,
    signer: Option<&Verifier>,
    sums: Option<&[u8]>,
    require_signature: bool,
    findings: &mut Vec<String>,
) -> Option<String> {
    match (signer, sums) {
        (Some(key), Some(bytes)) => {
            let sig = read_regular(&dir.join(SUMS_SIG), 64 * 1024)
                .map_err(|e| format!("cannot read it: {e}"))
                .and_then(|s| {
                    String::from_utf8(s)
                        .map_err(|_| "not a minisign signature (not text)".to_string())
                })
                .and_then(|s| key.verify(bytes, &s).map_err(|e| e.to_string()));
            match sig {
                Ok(_) => return Some(key.public_key()),
                Err(m) => findings.push(format!("{SUMS_SIG}: {m}")),
            }
        }
        (None, _) if require_signature => findings.push(
            "no signature was checked: anyone could have written these files and their digests; give the operator's public key as you hold it (--signer KEY.pub), or --unauthenticated"
                .to_string(),
        ),
        _ => {}
    }
    None
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
/// the record of `manifest` when it has one (a file in clear); findings go to `findings`.
fn check_held(
    dir: &Path,
    held: &[String],
    listed: &[(String, String)],
    manifest: Option<&Manifest>,
    findings: &mut Vec<String>,
) {
    for name in held {
        let d = match digest(&dir.join(name)) {
            Ok(d) => d,
            Err(m) => {
                findings.push(format!("{name} {m}"));
                continue;
            }
        };
        if !listed.is_empty() {
            if let Err(m) = sums::check(listed, name, &d) {
                findings.push(format!("{name}: {m}"));
            }
        }
        if let Some(rec) = manifest.and_then(|m| m.files.iter().find(|f| f.name == *name)) {
            if rec.sha256 != d {
                findings.push(format!(
                    "{name}: SHA-256 {d}, the manifest says {}",
                    rec.sha256
                ));
            }
        }
    }
}

/// Names each entry of `dir` that is none of the bundle's (`held`, `SHA256SUMS`, its
/// signature, `operator.pub`): another party's file or a note slipped in.
fn others(dir: &Path, held: &[String], role: Role, findings: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut other: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !(held.contains(n) || [SUMS, SUMS_SIG, PUBLIC_KEY].contains(&n.as_str())))
        .collect();
    other.sort();
    let whose = if role == Role::Printer {
        "the printer's"
    } else {
        "the central system's"
    };
    for n in other {
        findings.push(format!("{n} is in the bundle but is none of {whose} files"));
    }
}
