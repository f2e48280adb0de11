//! The signature of `SHA256SUMS`, by the operator's key, and the block it vouches for.

use super::{add, Block, CheckId, Checks, Found, Options, Procedure};
use crate::block::layout::SUMS_SIG;
use crate::block::Kind;
use crate::crypto::sign::{Verifier, Vouched};
use crate::output::manifest::Manifest;
use std::path::Path;

/// `SHA256SUMS.minisig` holds for the operator's key — the one the reference spec pins
/// (`[signing] public_key`), else the signer given — and vouches for this block
/// ([`CheckId::Signature`]); a test block is no production block when the key is pinned
/// ([`CheckId::Manifest`]).
pub(super) struct Signature;

impl Procedure for Signature {
    fn checks(&self) -> &'static [CheckId] {
        &[CheckId::Signature]
    }

    fn run(&self, block: &Block, found: &mut Found) {
        let kind = block.manifest.as_ref().map(|m| m.kind).or(block
            .run
            .expect
            .as_ref()
            .map(|e| e.kind));
        match check_signature(block, kind, &mut found.checks) {
            Ok(Signed::Holds(key, vouched)) => {
                found.signer = Some(key);
                found.vouched = Some(vouched.describe());
            }
            Ok(Signed::NotChecked) => {}
            Ok(Signed::Missing) => found.unsigned = true,
            Err(id) => found.mismatched_key = id,
        }
        found.test_seed = test_block(block, &mut found.checks);
    }
}

/// The key the signature must hold for: the reference spec's pinned key (`[signing]
/// public_key`), else the `--signer` given; `None` when neither is there.
pub(super) fn signature_key(opts: &Options) -> Option<Result<Verifier, String>> {
    match opts.reference.and_then(|r| r.signing_key.as_deref()) {
        Some(pinned) => Some(Verifier::from_base64(pinned).map_err(|e| e.to_string())),
        None => opts
            .signer
            .map(|v| Verifier::from_base64(&v.public_key()).map_err(|e| e.to_string())),
    }
}

/// True when the reference spec pins the operator's key (`[signing] public_key`): the
/// signature is checked against that key, whatever `--signer` gives.
pub(super) fn pins_a_key(opts: &Options) -> bool {
    opts.reference.is_some_and(|r| r.signing_key.is_some())
}

/// How a signature's error names the key it was checked against ([`signature_key`]): the
/// reference spec's pinned key, else the key given.
pub(super) fn checked_against(opts: &Options) -> &'static str {
    if pins_a_key(opts) {
        "the operator's key the reference spec pins"
    } else {
        "the key given"
    }
}

/// The id of the signer given (`--signer`) when it is not the key the reference spec pins
/// (`[signing] public_key`): the key the signature, by the pinned key, does not match;
/// `None` when they agree or either is missing.
pub(super) fn mismatched_signer(opts: &Options) -> Option<String> {
    pinned_mismatch(opts).and(opts.signer.map(|v| v.id().to_string()))
}

/// The finding when the signer given (`--signer`) is not the key the reference spec pins
/// (`[signing] public_key`); `None` when they agree or either is missing.
pub(super) fn pinned_mismatch(opts: &Options) -> Option<String> {
    let pinned = opts.reference.and_then(|r| r.signing_key.as_deref())?;
    let given = opts.signer?.public_key();
    (given != pinned).then(|| {
        format!(
            "the key given (--signer, {given}) is not the operator's key the reference spec pins ({pinned}): only the pinned key can sign this game's blocks"
        )
    })
}

/// What [`check_signature`] found, when it found no key that does not match.
enum Signed {
    /// The signature holds: the whole public key, and what its trusted comment vouches for.
    Holds(String, Vouched),
    /// No signature was checked: no key was given, or there was no `SHA256SUMS` to check
    /// it over.
    NotChecked,
    /// A key was given and the block has no readable `SHA256SUMS.minisig`: it is not signed.
    Missing,
}

/// Checks `SHA256SUMS.minisig` over the bytes of `SHA256SUMS` read when the block was
/// opened (never read again: the digests every file was held to are the ones signed), with
/// the key of [`signature_key`]; then what its trusted comment vouches for against the
/// manifest and the folder's name. Returns the whole public key and what it vouches for
/// when the signature holds ([`Signed`]), or whether it was not checked or is missing. With no
/// key, the check is "skipped", or a finding for a production block when
/// `opts.require_signature` is set. Errors: the id of the key the signature was checked
/// against and does not match ([`mismatched_signer`] when the signer given is not the
/// pinned key), or `None` when the pinned key is malformed or what it signed is not this
/// block.
fn check_signature(
    block: &Block,
    kind: Option<Kind>,
    checks: &mut Checks,
) -> Result<Signed, Option<String>> {
    let (dir, opts) = (block.dir, block.opts);
    let mut bad = |what: String| add(checks, CheckId::Signature, None, what);
    let v = match signature_key(opts) {
        None => {
            if opts.require_signature && kind != Some(Kind::Specimen) {
                bad("no signature was checked: anyone could have written these files and their digests; give the operator's public key (--signer KEY.pub, or a reference spec that pins it: [signing] public_key), or --unauthenticated to check the block without it".into());
            }
            return Ok(Signed::NotChecked);
        }
        Some(Err(e)) => {
            bad(format!("the reference spec's [signing] public_key: {e}"));
            return Err(None);
        }
        Some(Ok(v)) => v,
    };
    if let Some(why) = pinned_mismatch(opts) {
        bad(why);
    }
    let Some(sums) = block.sums.as_deref() else {
        bad("SHA256SUMS could not be read: nothing to check the signature over".into());
        return Ok(Signed::NotChecked);
    };
    let sig = crate::output::read_regular(&dir.join(SUMS_SIG), 64 << 10).and_then(|b| {
        String::from_utf8(b)
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"))
    });
    let sig = match sig {
        Ok(t) => t,
        Err(e) => {
            bad(format!("{SUMS_SIG}: {e}: the block is not signed"));
            return Ok(Signed::Missing);
        }
    };
    let comment = match v.verify_as(sums, &sig, checked_against(opts)) {
        Ok(c) => c,
        Err(e) => {
            bad(format!("{SUMS_SIG}: {e}"));
            return Err(Some(
                mismatched_signer(opts).unwrap_or_else(|| v.id().to_string()),
            ));
        }
    };
    let Some(vouched) = vouched_for(&comment, block.manifest.as_ref(), dir, &mut bad) else {
        return Err(None);
    };
    // Signed by the pinned key, but not by the key given: no key vouches for the block.
    if let Some(id) = mismatched_signer(opts) {
        return Err(Some(id));
    }
    if let Some(why) = own_pin_finding(block.spec.as_ref(), opts, &v.public_key()) {
        bad(format!("{SUMS_SIG}: {why}"));
    }
    Ok(Signed::Holds(v.public_key(), vouched))
}

/// The finding when, with no reference spec (`--spec`), the block's own spec `spec` pins
/// a key (`[signing] public_key`) other than `signer`, the whole public key its signature
/// holds for: a block that contradicts its own spec. Whoever wrote the files could drop the
/// pin, so this is a consistency check; the reference spec is the authority. `None` when
/// they agree, a reference spec is given, or nothing is pinned.
pub(super) fn own_pin_finding(
    spec: Option<&crate::spec::GameSpec>,
    opts: &Options,
    signer: &str,
) -> Option<String> {
    let pinned = spec.and_then(|s| s.signing_key.as_deref())?;
    (opts.reference.is_none() && pinned != signer).then(|| {
        format!(
            "signed by key {signer}, but the block's own spec.toml pins key {pinned}: a block of a game that pins its operator's key is signed by that key; hold the block to the game's reference spec (--spec)"
        )
    })
}

/// The finding ([`CheckId::Manifest`]) when the name of folder `dir` gives another block
/// number than the manifest `m`'s ([`misnamed_folder`]); `None` when it gives none or the
/// same.
pub(super) fn folder_finding(dir: &Path, m: &Manifest) -> Option<String> {
    let production = m.kind == crate::block::Kind::Production;
    let (name, number) = misnamed_folder(dir, &m.game.id, m.block, production)?;
    Some(format!(
        "the folder is named {name}, which says block {number}; the manifest says block {}: a block is filed, printed and claimed under its own number",
        m.block
    ))
}

/// What the signature's trusted comment `comment` vouches for, held to `manifest` and to
/// the name of `dir` ([`vouched_mismatches`]): each difference goes to `bad`, as does a
/// comment that is not tirage's (then `None`).
pub(super) fn vouched_for(
    comment: &str,
    manifest: Option<&Manifest>,
    dir: &Path,
    bad: &mut impl FnMut(String),
) -> Option<Vouched> {
    let vouched = Vouched::parse(comment)
        .map_err(|e| bad(format!("{SUMS_SIG}: {e}")))
        .ok()?;
    for what in vouched_mismatches(&vouched, manifest, dir) {
        bad(format!("{SUMS_SIG}: {what}"));
    }
    Some(vouched)
}

/// Where what the signature vouches for is not this block: the manifest's game, emission,
/// block, kind and test seed, and the number in the folder's name ([`misnamed_folder`]).
fn vouched_mismatches(v: &Vouched, manifest: Option<&Manifest>, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let vouches = v.describe();
    if let Some(m) = manifest {
        let says = format!(
            "game {}, emission {}, block {}, {}{}",
            m.game.id,
            m.game.emission,
            m.block,
            m.kind.name(),
            if m.insecure_seed {
                ", made with --insecure-seed"
            } else {
                ""
            }
        );
        if says != vouches {
            out.push(format!(
                "the signature vouches for {vouches}; the manifest says {says}"
            ));
        }
    }
    let production = v.kind == crate::block::Kind::Production.name();
    if let Some((n, number)) = misnamed_folder(dir, &v.game, v.block, production) {
        out.push(format!(
            "the folder is named {n}, which says block {number}; the signature vouches for block {}: a signed block passes for no other",
            v.block
        ));
    }
    out
}

/// The name of folder `dir` when it gives a block number other than `block`
/// ([`crate::block::layout::folder_number`], `game` the block's game id), as named on the command line or as it
/// really is (a symbolic link named `block-002` to block 1's folder is block 2 to whoever
/// reads the name): each binds. A production block's folder binds in every form; a deck's
/// or a specimen's only as `block-NNN` (`deck-2` or `coq-2` is a QA deck, not block 2).
/// Returns the name and the number it gives; `None` when no name disagrees.
pub(super) fn misnamed_folder(
    dir: &Path,
    game: &str,
    block: u32,
    production: bool,
) -> Option<(String, u32)> {
    let given = dir.components().next_back().and_then(|c| match c {
        std::path::Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
        _ => None,
    });
    let real = std::fs::canonicalize(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
    let mut names: Vec<String> = given.into_iter().chain(real).collect();
    names.dedup();
    let game = production.then_some(game);
    names.into_iter().find_map(|name| {
        crate::block::layout::folder_number(&name, game)
            .filter(|&number| number != block)
            .map(|number| (name, number))
    })
}

/// True when the block is a production block made with a test seed: `--insecure-seed`
/// (its manifest says so), or a seed whose commitment is a published test seed's. Against a
/// reference spec that pins the operator's key (a production check) that is a finding
/// ([`CheckId::Manifest`]); otherwise the verdict says it is a test block.
fn test_block(block: &Block, checks: &mut Checks) -> bool {
    let Some(m) = &block.manifest else {
        return false;
    };
    if let Some(why) = test_block_finding(m, block.opts) {
        add(checks, CheckId::Manifest, None, why);
    }
    m.is_test_block()
}

/// The finding ([`CheckId::Manifest`]) when the manifest `m` is of a production block made
/// with a test seed and the reference spec pins the operator's key (a production check);
/// `None` otherwise.
pub(super) fn test_block_finding(m: &Manifest, opts: &Options) -> Option<&'static str> {
    let pinned = opts.reference.is_some_and(|r| r.signing_key.is_some());
    if !m.is_test_block() || !pinned {
        return None;
    }
    Some(if m.insecure_seed {
        "made with --insecure-seed: a test block, whose seed may be a published test value; never a production block of the operator whose key the reference spec pins"
    } else {
        "its seed commitment is a published test seed's: a test block, never a production block of the operator whose key the reference spec pins"
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{block, findings, made, run};
    use super::*;

    #[test]
    fn an_unsigned_production_block_is_a_finding_when_a_signature_is_required() {
        let m = made();
        let lax = Options::default();
        assert_eq!(
            findings(&run(&Signature, &block(&m, &lax)), CheckId::Signature),
            0
        );
        let strict = Options {
            require_signature: true,
            ..Options::default()
        };
        let found = run(&Signature, &block(&m, &strict));
        assert_eq!(findings(&found, CheckId::Signature), 1);
        assert!(found.signer.is_none());
    }

    #[test]
    fn what_the_signature_vouches_for_is_held_to_the_manifest_and_the_folder() {
        let m = made();
        let v = Vouched {
            game: m.manifest.game.id.clone(),
            emission: m.manifest.game.emission,
            block: m.manifest.block,
            kind: "production".into(),
            insecure_seed: false,
        };
        let d = tempfile::tempdir().unwrap();
        let b1 = d.path().join("block-001");
        let b2 = d.path().join("block-002");
        let other = d.path().join("anything");
        let year = d.path().join("coq-2026");
        let named = d.path().join("coq-002");
        let bare = d.path().join("2");
        let run = d.path().join("run2");
        for p in [&b1, &b2, &other, &year, &named, &bare, &run] {
            std::fs::create_dir(p).unwrap();
        }
        assert!(vouched_mismatches(&v, Some(&m.manifest), &run).is_empty());
        // Other spellings of block 2, and block 2's name given to block 1's folder.
        for name in ["block-0002", "block002", "Block_2", "coq.002", "coq 2"] {
            let p = d.path().join(name);
            std::fs::create_dir(&p).unwrap();
            assert_eq!(
                vouched_mismatches(&v, Some(&m.manifest), &p),
                [format!("the folder is named {name}, which says block 2; the signature vouches for block 1: a signed block passes for no other")]
            );
        }
        let link = d.path().join("coq-block-002");
        std::os::unix::fs::symlink(&b1, &link).unwrap();
        assert_eq!(
            vouched_mismatches(&v, Some(&m.manifest), &link),
            ["the folder is named coq-block-002, which says block 2; the signature vouches for block 1: a signed block passes for no other"]
        );
        let dotted = link.join(".");
        assert_eq!(vouched_mismatches(&v, Some(&m.manifest), &dotted).len(), 1);
        assert!(vouched_mismatches(&v, Some(&m.manifest), &b1).is_empty());
        assert!(vouched_mismatches(&v, Some(&m.manifest), &other).is_empty());
        assert!(vouched_mismatches(&v, Some(&m.manifest), &year).is_empty());
        assert_eq!(
            vouched_mismatches(&v, Some(&m.manifest), &named),
            ["the folder is named coq-002, which says block 2; the signature vouches for block 1: a signed block passes for no other"]
        );
        assert_eq!(
            vouched_mismatches(&v, Some(&m.manifest), &bare),
            ["the folder is named 2, which says block 2; the signature vouches for block 1: a signed block passes for no other"]
        );
        let deck = Vouched {
            kind: "specimen".into(),
            ..v.clone()
        };
        assert!(vouched_mismatches(&deck, None, &named).is_empty());
        assert_eq!(
            vouched_mismatches(&deck, None, &b2),
            ["the folder is named block-002, which says block 2; the signature vouches for block 1: a signed block passes for no other"]
        );
        assert_eq!(
            vouched_mismatches(&v, Some(&m.manifest), &b2),
            ["the folder is named block-002, which says block 2; the signature vouches for block 1: a signed block passes for no other"]
        );
        let two = Vouched {
            block: 2,
            ..v.clone()
        };
        assert_eq!(
            vouched_mismatches(&two, Some(&m.manifest), &b2),
            ["the signature vouches for game coq, emission 1, block 2, production; the manifest says game coq, emission 1, block 1, production"]
        );
        let test = Vouched {
            insecure_seed: true,
            ..v.clone()
        };
        assert_eq!(vouched_mismatches(&test, Some(&m.manifest), &b1).len(), 1);
    }
}
