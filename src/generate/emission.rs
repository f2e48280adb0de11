//! Emissions: several blocks of one game sharing one lot table and one master seed
//! (décret n°78-1067). Each block gets its own directory and manifest; `emission.json`
//! beside them lists the blocks and the digest of each block's manifest, and is written
//! last. Keys are derived per block from the emission seed, so no two blocks share a
//! stream; validation codes come from one emission-wide permutation of (block, ticket), so
//! they are unique across the emission by construction, and serials are unique because
//! each carries its block number.

use crate::block::layout::MANIFEST;
use crate::block::Kind;
use crate::crypto::rng::Seed;
use crate::crypto::sign::Signer;
use crate::crypto::validation::{ValidationKey, Validator};
use crate::derived::{Removed, StaleReport};
use crate::generate::place::{existing_block, Held, LeftOver, PlaceError, SeedPlacement, Staged};
use crate::generate::{build, io, BlockPlan, Folder, GenerateError};
use crate::spec::GameSpec;
use crate::store::durable;
use sha2::{Digest, Sha256};
use std::path::Path;

use crate::block::layout::{block_dir, EMISSION, EMISSION_SIG};
use crate::output::emission_manifest::{BlockEntry, EmissionManifest, FORMAT};

/// What an emission is made with besides its seed.
pub struct EmissionOptions<'a> {
    /// The validation key every block's codes are made with.
    pub validation: &'a ValidationKey,
    /// True when that key was derived from the seed (no key of its own was given).
    pub validation_from_seed: bool,
    /// The key each block's `SHA256SUMS` is signed with; `None`: unsigned.
    pub signer: Option<&'a Signer>,
    /// Permission bits of the blocks' files ([`crate::generate::DEFAULT_MODE`]).
    pub mode: u32,
    /// What every block's manifest records of the seed (share commitments).
    pub provenance: &'a crate::block::Provenance,
    /// The recipients every block's ticket files are encrypted to.
    pub recipients: &'a crate::output::seal::Recipients,
    /// Set, it stops the emission before it is put in place (a block being built stops
    /// between two batches of packs): it then fails as interrupted and nothing of it stays.
    pub cancel: &'a crate::generate::cancel::Cancel,
}

/// What [`generate_emission_placing`] made.
#[derive(Debug)]
pub struct GeneratedEmission {
    /// The emission manifest written.
    pub manifest: EmissionManifest,
    /// Older blocks replaced (with `force`) that could not be removed.
    pub left_over: Vec<LeftOver>,
    /// The audit reports and proofs of the emission replaced
    /// ([`crate::derived::set_aside_stale_emission`]): `Ok` with each
    /// directory removed, `Err` for each one left; empty when no emission was replaced.
    pub stale_reports: Vec<Result<Removed, StaleReport>>,
}

/// Generates blocks `blocks` of `spec` from the emission seed `seed` with `opts` (their
/// validation key, signer, file mode, recipients and provenance) into `out/block-NNN`, then
/// writes `out/emission.json`; the seed file beside `out` is put in place with the emission
/// as `seed_file` says. Nothing is started if any destination exists and `force` is not
/// given. `progress(block, tickets done)`. The caller holds `out`'s exclusive lock
/// ([`crate::store::lock`]).
///
/// An emission is put in place whole or not at all: the emission directory is built
/// beside its destination (every block, then `emission.json`, all flushed to the disk),
/// then moved there in one rename, an older emission moved aside first and removed last
/// (see [`crate::generate::place::Staged::put_in_place`]). Errors:
/// [`PlaceError::BlockNotEmission`] when `out` holds a block; a block's destination
/// error ([`PlaceError::Exists`], …); [`GenerateError::EmissionIncomplete`] when a part
/// fails, and then what is at `out` is as it was.
#[allow(clippy::too_many_arguments)]
pub fn generate_emission_placing(
    spec: &GameSpec,
    seed: &Seed,
    opts: &EmissionOptions,
    blocks: std::ops::RangeInclusive<u32>,
    out: &Path,
    force: bool,
    seed_file: Option<&SeedPlacement>,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<GeneratedEmission, GenerateError> {
    let reports: Vec<_> = blocks.clone().map(|b| move |n| progress(b, n)).collect();
    let plans = blocks
        .clone()
        .zip(&reports)
        .map(|(b, report)| block_plan(spec, seed, opts, b).map(|p| p.reporting(report)))
        .collect::<Result<Vec<_>, _>>()?;
    check_emission_destination(&blocks, out, force)?;
    let parent = durable::parent_of(out);
    std::fs::create_dir_all(&parent)
        .map_err(io(&parent))
        .map_err(incomplete(EMISSION))?;
    // The whole emission built beside its place; removed when dropped on any error below.
    let tmp = durable::private_tempdir(&parent, &crate::store::lock::staging_prefix(out, "tmp"))
        .map_err(io(&parent))
        .map_err(incomplete(EMISSION))?;
    let mut entries = Vec::new();
    for plan in &plans {
        entries.push(build_block(plan, tmp.path())?);
        // What the block's build freed goes back to the system, so that each block starts
        // from the same heap: without it, the peak grew by about 3 MiB a block.
        crate::store::memory::give_back_free();
    }
    let manifest = EmissionManifest {
        format: FORMAT.into(),
        game: spec.id.clone(),
        emission: spec.emission,
        spec_sha256: spec.sha256.clone(),
        seed_commitment: seed.commitment(),
        validation_key_commitment: Validator::key_commitment(opts.validation),
        blocks: entries,
    };
    write_emission_manifest(&manifest, opts, tmp.path()).map_err(incomplete(EMISSION))?;
    if opts.cancel.is_cancelled() {
        return Err(incomplete(EMISSION)(GenerateError::Interrupted));
    }
    let staged = Staged::new(tmp, out.to_path_buf(), parent, "emission").emission(foreign_entries);
    // Under the caller's lock, an older emission there is what is replaced: its reports and
    // proofs are set aside (hidden names) before the new emission takes its place, so that no
    // stop leaves them beside it, removed once it is there, put back if it could not be.
    staged
        .check_before_placing(seed_file)
        .map_err(|e| incomplete(EMISSION)(e.into()))?;
    let aside = if out.join(EMISSION).is_file() {
        crate::derived::set_aside_stale_emission(out)
    } else {
        Vec::new()
    };
    let (placed, stale_reports) = staged
        .put_in_place_after(seed_file, aside)
        .map_err(|e| incomplete(EMISSION)(e.into()))?;
    let left_over = placed.finish().err().into_iter().collect();
    Ok(GeneratedEmission {
        manifest,
        left_over,
        stale_reports,
    })
}

/// The plan of production block `block` of the emission: its validation key, file mode,
/// recipients, signer, cancel token and provenance from `opts`. Errors: the block number
/// is not in 1..=999.
fn block_plan<'a>(
    spec: &'a GameSpec,
    seed: &'a Seed,
    opts: &EmissionOptions<'a>,
    block: u32,
) -> Result<BlockPlan<'a>, GenerateError> {
    let p = BlockPlan::production(spec, seed, block)?;
    let p = if opts.validation_from_seed {
        p.validated_by_seed(opts.validation)
    } else {
        p.validated_by(opts.validation)
    };
    let p = p.with_mode(opts.mode).sealed_for(opts.recipients);
    Ok(p.signed_by(opts.signer)
        .cancelled_by(opts.cancel)
        .recording(opts.provenance))
}

/// Wraps what went wrong in `at` (`block N`, the emission manifest) of the emission.
fn incomplete(at: impl Into<String>) -> impl FnOnce(GenerateError) -> GenerateError {
    let at = at.into();
    move |e| GenerateError::EmissionIncomplete {
        at,
        cause: Box::new(e),
    }
}

/// Builds the block `plan` describes into its directory `block-NNN` (made here) of the
/// staged emission `tmp`, every file flushed to the disk; returns its entry in
/// `emission.json`. Errors: [`GenerateError::EmissionIncomplete`] naming the block.
fn build_block(plan: &BlockPlan, tmp: &Path) -> Result<BlockEntry, GenerateError> {
    let dir = block_dir(plan.block);
    let at = format!("block {}", plan.block);
    let bdir = tmp.join(&dir);
    durable::create_private_dir(&bdir)
        .map_err(io(&bdir))
        .map_err(incomplete(at.clone()))?;
    let built = build(plan, &mut Folder::new(&bdir, plan.mode)).map_err(incomplete(at))?;
    let m = built.manifest;
    Ok(BlockEntry {
        block: plan.block,
        dir,
        manifest_sha256: hex::encode(Sha256::digest(&built.manifest_json)),
        tickets: m.tickets,
        lots: m.lots,
        payout: m.payout,
    })
}

/// Writes `emission.json` (`manifest`) into the staged emission `tmp`, and its signature
/// when `opts` has a signer; gives them and `tmp` the blocks' permission bits and flushes
/// `tmp` to the disk. Errors: [`GenerateError::Io`], [`GenerateError::Sign`].
fn write_emission_manifest(
    manifest: &EmissionManifest,
    opts: &EmissionOptions,
    tmp: &Path,
) -> Result<(), GenerateError> {
    let mut json = serde_json::to_vec_pretty(manifest).expect("serializes");
    json.push(b'\n');
    let path = tmp.join(EMISSION);
    durable::write_file(&path, &json).map_err(io(&path))?;
    if let Some(signer) = opts.signer {
        let comment = format!(
            "tirage {EMISSION} game:{} emission:{} blocks:{}",
            manifest.game,
            manifest.emission,
            manifest.blocks.len()
        );
        let sig = signer
            .sign(&json, &comment)
            .map_err(|e| GenerateError::Sign(e.to_string()))?;
        let sig_path = tmp.join(EMISSION_SIG);
        durable::write_file(&sig_path, sig.as_bytes()).map_err(io(&sig_path))?;
    }
    // The emission's own files and directory get the blocks' permission bits.
    use std::os::unix::fs::PermissionsExt;
    let set = |p: &Path, m: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).map_err(io(p))
    };
    for name in [EMISSION, EMISSION_SIG] {
        let p = tmp.join(name);
        if p.exists() {
            set(&p, opts.mode)?;
        }
    }
    set(tmp, opts.mode | ((opts.mode & 0o444) >> 2))?;
    durable::sync_dir(tmp).map_err(io(tmp))
}

/// What in emission directory `dir` generate did not write, which replacing the emission
/// would delete: anything but `emission.json`, `block-NNN` directories (and what in them
/// tirage did not write, as `block-NNN/name`), their proofs `block-NNN.proofs` (and what in
/// them is no proof) and the blocks' lock files. An audit report `verify` wrote of one block
/// (`block-NNN.audit`) is an auditor's and among them.
fn foreign_entries(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let ft = e.file_type().ok();
        let is_block = name
            .strip_prefix("block-")
            .is_some_and(|n| n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit()));
        let lock = name.starts_with(".block-") && name.ends_with(".tirage-lock");
        // A block's proofs beside it, as `render` writes them.
        let proofs = name
            .strip_suffix(crate::block::layout::PROOFS_DIR_SUFFIX)
            .and_then(|b| b.strip_prefix("block-"))
            .is_some_and(|n| n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit()));
        match ft {
            Some(t) if t.is_dir() && proofs => names.extend(
                std::fs::read_dir(e.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter(|r| {
                        !crate::block::layout::is_proof(
                            &r.file_name().to_string_lossy(),
                            r.file_type().is_ok_and(|t| t.is_file()),
                        )
                    })
                    .map(|r| format!("{name}/{}", r.file_name().to_string_lossy())),
            ),
            Some(t) if t.is_dir() && is_block => names.extend(
                crate::generate::place::foreign_in_block(&e.path())
                    .into_iter()
                    .map(|n| format!("{name}/{n}")),
            ),
            Some(t) if t.is_file() && (name == EMISSION || name == EMISSION_SIG || lock) => {}
            _ => names.push(name),
        }
    }
    names.sort();
    names
}

/// The first (by name) audit report of a block that emission directory `dir` holds,
/// `block-NNN.audit` as an earlier version of `tirage verify EMISSION/block-NNN` wrote it
/// (it now writes `EMISSION.block-NNN.audit` beside the emission), if any.
fn block_report(dir: &Path) -> Option<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_suffix(crate::block::layout::AUDIT_DIR_SUFFIX)
                .and_then(|b| b.strip_prefix("block-"))
                .is_some_and(|n| n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|e| e.path())
        .min()
}

/// An emission's `--out` that exists and is not a directory (a file, a link) is never
/// replaced, with `--force` or without: call it before anything is made beside `out`, its
/// lock file included. Errors: [`PlaceError::InTheWay`].
pub fn check_directory_or_nothing(out: &Path) -> Result<(), PlaceError> {
    match std::fs::symlink_metadata(out) {
        Ok(meta) if !meta.is_dir() => Err(PlaceError::InTheWay {
            path: out.to_path_buf(),
            why: "not a directory: an emission goes to a directory of its own; nothing was written; choose another --out".into(),
        }),
        _ => Ok(()),
    }
}

/// The emission the tirage emission at `out` says it is (its `emission.json`), its game
/// code read from its first block's manifest; `None` when `out` holds no tirage emission
/// manifest or it does not say.
pub fn existing_emission(out: &Path) -> Option<Held> {
    let bytes = crate::output::read_regular(&out.join(EMISSION), crate::output::MAX_JSON).ok()?;
    let v = serde_json::from_slice::<serde_json::Value>(&bytes).ok()?;
    if v["format"] != FORMAT {
        return None;
    }
    // Read from the first block's folder, only where the emission puts it (`block-001`):
    // a listed folder elsewhere is not this emission's.
    let first = &v["blocks"][0];
    let game_code = first["block"]
        .as_u64()
        .and_then(|b| u32::try_from(b).ok())
        .filter(|&b| first["dir"].as_str() == Some(block_dir(b).as_str()))
        .and_then(|b| existing_block(&out.join(block_dir(b))))
        .and_then(|b| b.game_code);
    Some(Held {
        game: crate::text::escaped(v["game"].as_str()?, 80),
        game_code,
        emission: v["emission"].as_u64()?,
        block: None,
    })
}

/// Where an emission of `blocks` may go (call before anything is staged, a fresh seed
/// included): `out` is not a block; an existing `emission.json` is tirage's and replaced
/// only with `force`; each block's destination may be replaced
/// ([`crate::generate::place::check_destination`]) and has no seed file of a block made alone;
/// no block there lies outside `blocks`. Errors: [`PlaceError::BlockNotEmission`],
/// [`PlaceError::Exists`] (`out`, an emission already), a block's destination error,
/// [`PlaceError::InTheWay`].
pub fn check_emission_destination(
    blocks: &std::ops::RangeInclusive<u32>,
    out: &Path,
    force: bool,
) -> Result<(), PlaceError> {
    if out.join(MANIFEST).exists() {
        return Err(PlaceError::BlockNotEmission(out.to_path_buf()));
    }
    if out.join(EMISSION).exists() {
        if !force {
            return Err(PlaceError::Exists(out.to_path_buf()));
        }
        let ours = crate::output::read_regular(&out.join(EMISSION), crate::output::MAX_JSON)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| v["format"] == FORMAT);
        if !ours {
            return Err(PlaceError::InTheWay {
                path: out.join(EMISSION),
                why: "not a tirage emission manifest: --force replaces only those".into(),
            });
        }
    }
    for b in blocks.clone() {
        let dir = out.join(block_dir(b));
        crate::generate::place::check_destination(&dir, force, Kind::Production)?;
        // A block made alone there has its own seed file, which would not replay the
        // emission's block (they share `<out>.seed`).
        let own_seed = dir.with_extension("seed");
        if own_seed.exists() {
            return Err(PlaceError::InTheWay {
                path: own_seed,
                why: "the seed file of a block made alone there: it would sit beside a block of the emission it does not replay; move the block and its seed file away, or make the emission elsewhere (--out)".into(),
            });
        }
    }
    // Replacing the emission replaces its whole directory: without force only an empty
    // one, and nothing tirage did not write goes with it.
    check_directory_or_nothing(out)?;
    if let Ok(meta) = std::fs::symlink_metadata(out) {
        let empty = meta.is_dir() && std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none());
        if !force && !empty {
            return Err(PlaceError::Exists(out.to_path_buf()));
        }
    }
    if force && out.is_dir() {
        // An audit report of one of its blocks (`tirage verify EMISSION/block-NNN`) is the
        // auditor's, not generate's to delete.
        if let Some(report) = block_report(out) {
            return Err(PlaceError::InTheWay {
                path: report,
                why: "an audit report verify wrote of a block of the emission: replacing the emission would delete it, and an auditor's report is not generate's to delete; move it out of the emission first".into(),
            });
        }
        // The blocks of the range were checked above, each with its own error.
        let in_range = |n: &str| {
            n.strip_prefix("block-")
                .and_then(|r| r.split('/').next())
                .and_then(|b| b.parse::<u32>().ok())
                .is_some_and(|b| blocks.contains(&b))
        };
        let names = foreign_entries(out)
            .into_iter()
            .filter(|n| !in_range(n))
            .collect::<Vec<_>>();
        if !names.is_empty() {
            return Err(PlaceError::ForeignFiles {
                path: out.to_path_buf(),
                names,
            });
        }
    }
    // Blocks of an older emission there that this one would not replace would stay beside
    // blocks of another seed.
    for e in std::fs::read_dir(out).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let number = name
            .strip_prefix("block-")
            .and_then(|n| n.parse::<u32>().ok());
        if let Some(b) = number.filter(|b| !blocks.contains(b)) {
            if e.path().join(MANIFEST).exists() {
                return Err(PlaceError::InTheWay {
                    path: e.path(),
                    why: format!("block {b} is not in this emission's range {}..{}: it would stay beside blocks of another seed; include it, or move it away", blocks.start(), blocks.end()),
                });
            }
        }
    }
    Ok(())
}

/// Parses a block range: `3` or `1..4` / `1-4` (inclusive). `Err` says what was expected.
pub fn parse_blocks(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    let bad = || format!("`{s}` is not a block range: expected N or A..B (1 ≤ A ≤ B ≤ 999)");
    let (a, b) = match s.split_once("..").or_else(|| s.split_once('-')) {
        Some((a, b)) => (a.trim(), b.trim().trim_start_matches('=')),
        None => (s.trim(), s.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    if a == 0 || a > b || b > 999 {
        return Err(bad());
    }
    Ok(a..=b)
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn block_ranges() {
        assert_eq!(parse_blocks("1..3"), Ok(1..=3));
        assert_eq!(parse_blocks("1..=3"), Ok(1..=3));
        assert_eq!(parse_blocks("2-5"), Ok(2..=5));
        assert_eq!(parse_blocks("7"), Ok(7..=7));
        for bad in ["0..2", "3..1", "1..1000", "x", ""] {
            assert!(parse_blocks(bad).is_err(), "{bad}");
        }
    }
}
