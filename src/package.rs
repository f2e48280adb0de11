//! The bundle each recipient of a block gets, and nothing else: its ticket file as delivered
//! (in clear, or `.age` to it), `spec.toml`, `manifest.json`, `SHA256SUMS`,
//! `SHA256SUMS.minisig` and the operator's public key (`operator.pub`). The printer gets
//! `tickets.bin`, the central system `validation.csv`, the auditor every ticket file (it
//! verifies the whole block). No audit report, proof, seed or other party's file goes in.
//!
//! Inside a bundle, `sha256sum -c --ignore-missing SHA256SUMS` checks every file it holds
//! (SHA256SUMS lists the block's other files too: it is the signed list, left whole) and
//! `minisign -Vm SHA256SUMS -p KEY.pub` checks the signature, with the operator's key as
//! the recipient holds it (the bundle's `operator.pub` is whoever wrote the bundle's: the
//! CLI refuses a `--signer` key lying inside the directory it authenticates). Before anything is
//! written, the signature is checked with the key given and every file copied is held to
//! SHA256SUMS as it is read; the bundle is made in a temporary directory beside the
//! destination and moved into place only when complete.

use crate::block::layout::{
    BIN, CSV, MANIFEST, PUBLIC_KEY, SEALED_SUFFIX, SPEC, SUMS, SUMS_SIG, VALIDATION,
};
use crate::crypto::sign::Verifier;
use crate::derived::{finish_stale, restore_stale, set_aside_stale, Removed, StaleReport};
use crate::output::sums;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// Who a bundle is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The printer: the print file.
    Printer,
    /// The central system that pays tickets: the validation file.
    Central,
    /// The auditor: every ticket file.
    Auditor,
}

impl Role {
    /// The ticket files of the role (their names in clear).
    pub fn ticket_files(self) -> &'static [&'static str] {
        match self {
            Role::Printer => &[BIN],
            Role::Central => &[VALIDATION],
            Role::Auditor => &[CSV, BIN, VALIDATION],
        }
    }

    /// The role's name, as `--for` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Printer => "printer",
            Role::Central => "central",
            Role::Auditor => "auditor",
        }
    }

    /// The role of name `name` ([`Role::name`], as `--for` and `--recipient` take it), if any.
    pub fn named(name: &str) -> Option<Role> {
        [Role::Printer, Role::Central, Role::Auditor]
            .into_iter()
            .find(|r| r.name() == name)
    }

    /// The role's party in words, as whose (`the printer's`, `the central system's`,
    /// `the auditor's`).
    pub fn whose(self) -> &'static str {
        match self {
            Role::Printer => "the printer's",
            Role::Central => "the central system's",
            Role::Auditor => "the auditor's",
        }
    }
}

/// Why a bundle cannot be made. Nothing is written at the destination when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// A file of the block cannot be read, is not listed in or differs from `SHA256SUMS`,
    /// or the signature does not hold.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// The operator's public key (`--signer`) cannot be read or is no minisign public key
    /// (the error names the file).
    #[error(transparent)]
    Signer(crate::crypto::sign::SignError),
    /// The destination exists and `--force` was not given, or it holds what is no bundle's.
    #[error("{path}: {message}")]
    Destination {
        /// The destination.
        path: String,
        /// What is there and what to do.
        message: String,
    },
    /// The block is a test block ([`crate::output::manifest::Manifest::is_test_block`])
    /// and the caller did not say that a test bundle is meant.
    #[error("{path}: a TEST BLOCK (made with a test seed, never for sale: whoever knows the seed computes every validation code); no bundle was written: a test block never reaches a printer, the central system or an auditor unnoticed; give --test-block to package it for a test")]
    TestBlock {
        /// The block directory.
        path: String,
    },
    /// Another run writes the same bundle, or its lock cannot be taken.
    #[error(transparent)]
    Lock(#[from] crate::store::lock::LockError),
    /// The caller asked the run to stop (a signal) before the bundle was complete: what
    /// was staged is removed, nothing is at the destination.
    #[error("stopped before the bundle was complete: what was copied is removed, and nothing was written at the destination")]
    Interrupted,
    /// Writing the bundle failed.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: String,
        /// The operating system's error.
        error: std::io::Error,
    },
}

/// Refuses a block whose own `spec.toml` (as `SHA256SUMS` lists it) pins an operator's key
/// (`[signing] public_key`) other than `verifier`'s, the key its signature was just checked
/// against: a block of a game that pins its operator's key is signed by that key, and
/// `verify` reports the bundle otherwise. Errors: `spec.toml` unreadable, differing from
/// `SHA256SUMS`, not TOML, or pinning another key ([`PackageError::File`]).
fn own_pin(
    block: &Path,
    listed: &[(String, String)],
    verifier: &Verifier,
) -> Result<(), PackageError> {
    let file = |message: String| PackageError::File {
        path: block.join(SPEC).display().to_string(),
        message,
    };
    let bytes = crate::output::read_regular(&block.join(SPEC), crate::spec::MAX_SPEC_BYTES)
        .map_err(|e| file(format!("cannot read it: {e}")))?;
    sums::check(listed, SPEC, &hex::encode(Sha256::digest(&bytes))).map_err(file)?;
    let spec: toml::Table = std::str::from_utf8(&bytes)
        .ok()
        .and_then(|t| toml::from_str(t).ok())
        .ok_or_else(|| file("is not a spec (not TOML)".into()))?;
    let pinned = spec
        .get("signing")
        .and_then(|t| t.get("public_key"))
        .and_then(toml::Value::as_str)
        .map(str::trim);
    match pinned {
        Some(pinned) if pinned != verifier.public_key() => Err(file(format!(
            "pins the operator's key {pinned} ([signing] public_key), but the files are signed by the --signer key {} (key ID {}): a block or deck of a game that pins its operator's key is signed by that key; no bundle was written",
            verifier.public_key(),
            verifier.id()
        ))),
        _ => Ok(()),
    }
}

/// Every name a bundle of any role may hold: its ticket files (in clear or `.age`) and the
/// public files.
fn bundle_name(name: &str) -> bool {
    [SPEC, MANIFEST, SUMS, SUMS_SIG, PUBLIC_KEY].contains(&name)
        || [CSV, BIN, VALIDATION].iter().any(|f| {
            name.strip_prefix(f)
                .is_some_and(|s| s.is_empty() || s == SEALED_SUFFIX)
        })
}

/// Makes the bundle of `role` from block (or deck) directory `block` at `out`, the
/// operator's public key read from `signer` (minisign's `.pub` format, or its key line).
/// An existing `out` is replaced only with `force`, and only when it holds a bundle's files
/// alone, the audit report and proofs beside the older bundle removed with it (see
/// [`set_aside_stale`]). Returns the names written, in order, and what became of those.
///
/// A test block is bundled only with `test_block` (the caller's word that a test bundle
/// is meant); its bundle's manifest says what it is, so `claim` pays none of its tickets.
///
/// Errors ([`PackageError`]): `SHA256SUMS` or its signature missing or unreadable; the
/// signature not the key's; the block's own `spec.toml` pinning another operator's key
/// than the one the signature holds for; the manifest unreadable, or a test block's
/// without `test_block`; a file of the bundle missing (the role's ticket file in neither
/// form), not listed in or differing from `SHA256SUMS`; the destination exists (without
/// `force`) or holds other files; another run writes the same bundle; a write fails;
/// `stopped()` true before the bundle is complete ([`PackageError::Interrupted`]: what
/// was staged is removed; asked between two chunks of a copy, and before the moves).
pub fn package(
    block: &Path,
    role: Role,
    signer: &Path,
    out: &Path,
    (force, test_block): (bool, bool),
    stopped: &dyn Fn() -> bool,
) -> Result<Packaged, PackageError> {
    let file = |name: &str, message: String| PackageError::File {
        path: block.join(name).display().to_string(),
        message,
    };
    let verifier = Verifier::load(signer).map_err(PackageError::Signer)?;
    let sums_bytes =
        sums::read_bytes(block).map_err(|e| file(SUMS, format!("cannot read it: {e}")))?;
    let listed = sums::parse_bytes(&sums_bytes).map_err(|m| file(SUMS, m))?;
    let sig = crate::output::read_regular(&block.join(SUMS_SIG), 64 * 1024).map_err(|e| {
        // The advice names the command that made it, by the manifest's kind (read here
        // for the words only; it is held to SHA256SUMS below).
        let deck = crate::output::read_regular(&block.join(MANIFEST), crate::output::MAX_JSON)
            .ok()
            .and_then(|b| serde_json::from_slice::<crate::output::manifest::Manifest>(&b).ok())
            .is_some_and(|m| m.kind == crate::block::Kind::Specimen);
        file(
            SUMS_SIG,
            format!(
                "cannot read it ({e}): a bundle carries the operator's signature; {}",
                if deck {
                    "sign the deck (deck --sign)"
                } else {
                    "sign the block (generate --sign)"
                }
            ),
        )
    })?;
    let sig_text = String::from_utf8(sig.clone())
        .map_err(|_| file(SUMS_SIG, "not a minisign signature (not text)".into()))?;
    verifier
        .verify(&sums_bytes, &sig_text)
        .map_err(|e| file(SUMS_SIG, e.to_string()))?;

    // A test block never leaves unnoticed: its manifest, as signed, says what it is.
    let manifest = crate::output::read_regular(&block.join(MANIFEST), crate::output::MAX_JSON)
        .map_err(|e| file(MANIFEST, format!("cannot read it: {e}")))?;
    sums::check(&listed, MANIFEST, &hex::encode(Sha256::digest(&manifest)))
        .map_err(|m| file(MANIFEST, m))?;
    let manifest_len = manifest.len() as u64;
    let manifest: crate::output::manifest::Manifest = serde_json::from_slice(&manifest)
        .map_err(|e| file(MANIFEST, format!("does not parse: {e}")))?;
    if manifest.is_test_block() && !test_block {
        return Err(PackageError::TestBlock {
            path: block.display().to_string(),
        });
    }

    own_pin(block, &listed, &verifier)?;

    // The names, as delivered: a ticket file in clear when it is there, else its `.age`.
    let mut names: Vec<String> = Vec::new();
    for f in role.ticket_files() {
        let sealed = format!("{f}{SEALED_SUFFIX}");
        if std::fs::symlink_metadata(block.join(f)).is_ok() {
            names.push((*f).to_string());
        } else if std::fs::symlink_metadata(block.join(&sealed)).is_ok() {
            names.push(sealed);
        } else {
            return Err(file(
                f,
                format!(
                    "neither it nor {sealed} is in the block: the {} bundle needs it",
                    role.name()
                ),
            ));
        }
    }
    names.extend([SPEC.to_string(), MANIFEST.to_string()]);

    let parent = crate::store::durable::parent_of(out);
    let io = |path: &Path, error: std::io::Error| PackageError::Io {
        path: path.display().to_string(),
        error,
    };
    if out.file_name().is_none() {
        return Err(PackageError::Destination {
            path: out.display().to_string(),
            message: "names no directory to make".into(),
        });
    }
    check_destination(out, block, force)?;
    std::fs::create_dir_all(&parent).map_err(|e| io(&parent, e))?;
    // One run writes the bundle at a time; what a killed run left beside it (its staged
    // copy, an older bundle moved aside) is removed: the new bundle replaces both.
    let lock =
        crate::store::lock::OutputLock::acquire(out, crate::store::lock::Mode::Exclusive, false)?;
    lock.remove_leftovers()
        .map_err(|e| io(&e.path.clone(), std::io::Error::other(e)))?;
    let staged = crate::store::durable::private_tempdir(
        &parent,
        &crate::store::lock::staging_prefix(out, "tmp"),
    )
    .map_err(|e| io(&parent, e))?;
    // Each file copied as it is hashed, its digest then held to SHA256SUMS; never more
    // copied than the manifest says the file holds as delivered (and one byte, to see that
    // it holds more).
    for name in &names {
        let from = block.join(name);
        // The manifest itself: as long as it was when checked above.
        let most = if name == MANIFEST {
            Some(manifest_len)
        } else {
            delivered_bound(&manifest, name)
        }
        .ok_or_else(|| file(name, format!("{MANIFEST} records no {name}")))?;
        let src = crate::output::open_regular(&from)
            .map_err(|e| file(name, format!("cannot read it: {e}")))?;
        let mut src = src.take(most.saturating_add(1));
        let to = staged.path().join(name);
        let mut dst = crate::store::durable::create_private(&to).map_err(|e| io(&to, e))?;
        let mut h = Sha256::new();
        let mut buf = vec![0u8; 1 << 20];
        let mut copied = 0u64;
        loop {
            if stopped() {
                return Err(PackageError::Interrupted);
            }
            let k = match src.read(&mut buf) {
                Ok(0) => break,
                Ok(k) => k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(file(name, format!("cannot read it: {e}"))),
            };
            copied += k as u64;
            if copied > most {
                return Err(file(
                    name,
                    format!(
                        "it holds more than the {most} bytes {MANIFEST} allows it as delivered"
                    ),
                ));
            }
            h.update(&buf[..k]);
            std::io::Write::write_all(&mut dst, &buf[..k]).map_err(|e| io(&to, e))?;
        }
        dst.sync_all().map_err(|e| io(&to, e))?;
        sums::check(&listed, name, &hex::encode(h.finalize())).map_err(|m| file(name, m))?;
    }
    // The signed list and its signature as they were checked, and the key that checks them.
    let key = crate::crypto::sign::public_key_file(verifier.id(), &verifier.public_key());
    for (name, bytes) in [
        (SUMS, sums_bytes.as_slice()),
        (SUMS_SIG, sig.as_slice()),
        (PUBLIC_KEY, key.as_bytes()),
    ] {
        let to = staged.path().join(name);
        crate::store::durable::write_file(&to, bytes).map_err(|e| io(&to, e))?;
        names.push(name.to_string());
    }
    crate::store::durable::sync_dir(staged.path()).map_err(|e| io(staged.path(), e))?;
    // The last moment to stop: the moves that follow are never cut short.
    if stopped() {
        return Err(PackageError::Interrupted);
    }
    // Into place: an older bundle (checked above) moved aside first, removed last; the
    // audit report and proofs beside it set aside before, removed once the new bundle is
    // in place, put back if it could not be.
    let replacing = std::fs::symlink_metadata(out).is_ok();
    let reports = if replacing {
        set_aside_stale(out)
    } else {
        Vec::new()
    };
    let aside = if replacing {
        let aside = match crate::store::lock::hidden_name(out, "old") {
            Ok(a) => a,
            Err(e) => {
                restore_stale(reports);
                return Err(io(&parent, e));
            }
        };
        if let Err(e) = std::fs::rename(out, &aside) {
            restore_stale(reports);
            return Err(io(out, e));
        }
        Some(aside)
    } else {
        None
    };
    let staged = staged.keep();
    if let Err(e) = crate::store::durable::rename_noreplace(&staged, out) {
        if let Some(a) = &aside {
            let _ = std::fs::rename(a, out);
        }
        let _ = std::fs::remove_dir_all(&staged);
        restore_stale(reports);
        return Err(io(out, e));
    }
    crate::store::durable::sync_dir(&parent).map_err(|e| io(&parent, e))?;
    let stale_reports = finish_stale(reports);
    if let Some(a) = aside {
        std::fs::remove_dir_all(&a).map_err(|e| io(&a, e))?;
    }
    Ok(Packaged {
        names,
        stale_reports,
    })
}

/// The most bytes file `name` of a block (as delivered: `NAME.age` for an encrypted one)
/// may hold by `manifest`: the bytes it records for the file in clear; for an encrypted
/// one, those bytes as age encrypts them (a 16-byte nonce, a 16-byte tag per chunk of 64
/// KiB, the last chunk included) and 64 KiB for its header, far more than its recipients'
/// stanzas take. `None`: the manifest records no such file.
fn delivered_bound(manifest: &crate::output::manifest::Manifest, name: &str) -> Option<u64> {
    let (clear, sealed) = match name.strip_suffix(SEALED_SUFFIX) {
        Some(clear) => (clear, true),
        None => (name, false),
    };
    let bytes = manifest.files.iter().find(|f| f.name == clear)?.bytes;
    if !sealed {
        return Some(bytes);
    }
    const CHUNK: u64 = 64 << 10;
    let chunks = bytes / CHUNK + 1;
    Some(bytes + 16 * chunks + 16 + CHUNK)
}

/// What [`package`] made.
#[derive(Debug)]
pub struct Packaged {
    /// The names of the bundle's files, in the order written.
    pub names: Vec<String>,
    /// The audit report and proofs of the bundle replaced ([`set_aside_stale`]): `Ok` with
    /// each directory removed, `Err` with each left; empty when no bundle was replaced or
    /// it had neither beside it.
    pub stale_reports: Vec<Result<Removed, StaleReport>>,
}

/// Checks destination `out`: absent, or (with `force`) a directory holding a bundle's files
/// alone; never block directory `block` itself, another block (a `manifest.json` without
/// the bundle's `operator.pub`: a block's names are a bundle's too) or a place inside a
/// block or bundle. Errors: [`PackageError::Destination`].
fn check_destination(out: &Path, block: &Path, force: bool) -> Result<(), PackageError> {
    let dest = |message: String| PackageError::Destination {
        path: out.display().to_string(),
        message,
    };
    let same = |a: &Path, b: &Path| {
        std::fs::canonicalize(a).is_ok_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
    };
    if same(out, block)
        || (crate::output::manifest::holds_block(out) && !out.join(PUBLIC_KEY).exists())
    {
        return Err(dest(
            "is a block directory, not a bundle: nothing was written, not even with --force; write the bundle elsewhere".into(),
        ));
    }
    if let Some(b) = crate::output::manifest::enclosing_block(out) {
        return Err(dest(format!(
            "inside the block or bundle directory {}, which is delivered as it is: nothing was written; write the bundle elsewhere",
            b.display()
        )));
    }
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    if !meta.is_dir() {
        return Err(dest(
            "exists and is not a directory: nothing was written".into(),
        ));
    }
    if !force {
        return Err(dest(
            "exists: nothing was written; give --force to replace the bundle there".into(),
        ));
    }
    let mut foreign: Vec<String> = std::fs::read_dir(out)
        .map_err(|e| dest(format!("cannot read it: {e}")))?
        .flatten()
        .filter(|e| {
            !(e.file_type().is_ok_and(|t| t.is_file())
                && bundle_name(&e.file_name().to_string_lossy()))
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    foreign.sort();
    if !foreign.is_empty() {
        return Err(dest(format!(
            "holds files that are no bundle's ({}): nothing was written, not even with --force; move them, or write elsewhere",
            foreign.join(", ")
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_names_are_the_block_files_and_the_key_only() {
        for n in [
            "tickets.bin",
            "tickets.bin.age",
            "validation.csv.age",
            "tickets.csv",
            "spec.toml",
            "manifest.json",
            "SHA256SUMS",
            "SHA256SUMS.minisig",
            "operator.pub",
        ] {
            assert!(bundle_name(n), "{n}");
        }
        for n in [
            "audit.md",
            "proofs",
            "block-001.seed",
            "notes.txt",
            "tickets.bin.bak",
        ] {
            assert!(!bundle_name(n), "{n}");
        }
        assert_eq!(Role::Central.ticket_files(), ["validation.csv"]);
    }
}
