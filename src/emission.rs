//! Emissions: several blocks of one game sharing one lot table and one master seed
//! (décret n°78-1067). Each block gets its own directory and manifest; `emission.json`
//! beside them lists the blocks and the digest of each block's manifest, and is written
//! last. Keys are derived per block from the emission seed, so no two blocks share a
//! stream; validation codes come from one emission-wide permutation of (block, ticket), so
//! they are unique across the emission by construction, and serials are unique because
//! each carries its block number.

use crate::generate::{stage, BlockPlan, GenerateError, Kind, LeftOver, Placed};
use crate::output::MANIFEST;
use crate::rng::Seed;
use crate::sign::Signer;
use crate::spec::GameSpec;
use crate::validation::{ValidationKey, Validator};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;

/// File name of the emission manifest.
pub const EMISSION: &str = "emission.json";
/// Emission manifest format identifier.
pub const FORMAT: &str = "tirage-emission/1";

/// `emission.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EmissionManifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// Game id.
    pub game: String,
    /// Emission number.
    pub emission: u16,
    /// Hex SHA-256 of the spec every block was made from.
    pub spec_sha256: String,
    /// Commitment to the emission's master seed (the same in every block manifest).
    pub seed_commitment: String,
    /// Commitment to the emission's validation-code key.
    pub validation_key_commitment: String,
    /// The blocks, in block order.
    pub blocks: Vec<BlockEntry>,
}

/// One block of an emission.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BlockEntry {
    /// Block number.
    pub block: u32,
    /// Directory, relative to the emission directory.
    pub dir: String,
    /// Hex SHA-256 of the block's manifest.json.
    pub manifest_sha256: String,
    /// Tickets in the block.
    pub tickets: u32,
    /// Lots in the block.
    pub lots: u64,
    /// Payout of the block, currency units.
    pub payout: String,
}

/// The directory name of block `b` inside an emission directory.
pub fn block_dir(b: u32) -> String {
    format!("block-{b:03}")
}

/// What an emission is made with besides its seed.
pub struct EmissionOptions<'a> {
    /// The validation key every block's codes are made with.
    pub validation: &'a ValidationKey,
    /// The key each block's `SHA256SUMS` is signed with; `None`: unsigned.
    pub signer: Option<&'a Signer>,
    /// Permission bits of the blocks' files ([`crate::generate::DEFAULT_MODE`]).
    pub mode: u32,
    /// What every block's manifest records of the seed (share commitments).
    pub provenance: &'a crate::generate::Provenance,
    /// The recipients every block's ticket files are encrypted to.
    pub recipients: &'a crate::seal::Recipients,
}

/// What [`generate_emission_with`] made.
#[derive(Debug)]
pub struct GeneratedEmission {
    /// The emission manifest written.
    pub manifest: EmissionManifest,
    /// Older blocks replaced (with `force`) that could not be removed.
    pub left_over: Vec<LeftOver>,
}

/// Generates blocks `blocks` of `spec` from the emission seed `seed` with `opts` (their
/// validation key, signer, file mode and provenance) into `out/block-NNN`, then writes
/// `out/emission.json`. Nothing is started if any destination exists and `force` is not
/// given. `progress(block, tickets done)`.
///
/// An emission is put in place whole or not at all: every block is built beside its
/// destination first; only when all are complete are they moved into place (older blocks
/// moved aside), then `emission.json`, and only then are the older blocks removed. Errors:
/// [`GenerateError::BlockNotEmission`] when `out` holds a block; a block's destination
/// error ([`GenerateError::Exists`], …); [`GenerateError::EmissionIncomplete`] when a part
/// fails, and then the blocks and `emission.json` already at `out` are as they were.
pub fn generate_emission_with(
    spec: &GameSpec,
    seed: &Seed,
    keys: &EmissionOptions,
    blocks: std::ops::RangeInclusive<u32>,
    out: &Path,
    force: bool,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<GeneratedEmission, GenerateError> {
    let created = std::fs::symlink_metadata(out).is_err();
    let made = emission_into(spec, seed, keys, blocks, out, force, progress);
    if made.is_err() && created {
        // The directory this run made, left empty by the failure: not left behind.
        let _ = std::fs::remove_dir(out);
    }
    made
}

/// [`generate_emission_with`] but for removing the directory it created on a failure.
fn emission_into(
    spec: &GameSpec,
    seed: &Seed,
    keys: &EmissionOptions,
    blocks: std::ops::RangeInclusive<u32>,
    out: &Path,
    force: bool,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<GeneratedEmission, GenerateError> {
    let plans = blocks
        .clone()
        .map(|b| {
            BlockPlan::production(spec, b).map(|p| {
                let p = p
                    .validated_by(keys.validation)
                    .with_mode(keys.mode)
                    .sealed_for(keys.recipients);
                match keys.signer {
                    Some(s) => p.signed_by(s),
                    None => p,
                }
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_emission_destination(&blocks, out, force)?;
    let incomplete = |at: String| {
        move |e: GenerateError| GenerateError::EmissionIncomplete {
            at,
            cause: Box::new(e),
        }
    };
    // Every block built beside its place; dropped (removed) on any error below.
    let mut entries = Vec::new();
    let mut staged = Vec::new();
    for plan in &plans {
        let dir = block_dir(plan.block);
        let at = format!("block {}", plan.block);
        let (s, m) = stage(plan, seed, &out.join(&dir), force, keys.provenance, &|n| {
            progress(plan.block, n)
        })
        .map_err(incomplete(at.clone()))?;
        let path = s.path().join(MANIFEST);
        let bytes = std::fs::read(&path)
            .map_err(|error| GenerateError::Io { path, error })
            .map_err(incomplete(at))?;
        entries.push(BlockEntry {
            block: plan.block,
            dir,
            manifest_sha256: hex::encode(Sha256::digest(&bytes)),
            tickets: m.tickets,
            lots: m.lots,
            payout: m.payout,
        });
        staged.push(s);
    }
    let manifest = EmissionManifest {
        format: FORMAT.into(),
        game: spec.id.clone(),
        emission: spec.emission,
        spec_sha256: spec.sha256.clone(),
        seed_commitment: seed.commitment(),
        validation_key_commitment: Validator::production(
            keys.validation,
            spec.game_code,
            spec.emission,
        )
        .commitment()
        .to_string(),
        blocks: entries,
    };
    let mut json = serde_json::to_vec_pretty(&manifest).expect("serializes");
    json.push(b'\n');
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| GenerateError::Io { path, error }
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{EMISSION}."))
        .tempfile_in(out)
        .map_err(io(out))
        .map_err(incomplete(EMISSION.into()))?;
    tmp.write_all(&json)
        .map_err(io(tmp.path()))
        .map_err(incomplete(EMISSION.into()))?;
    // A temporary file is created 0600; emission.json is for every reader, as the blocks.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(io(tmp.path()))
            .map_err(incomplete(EMISSION.into()))?;
    }

    if crate::generate::stop_requested() {
        return Err(incomplete(EMISSION.into())(GenerateError::Interrupted));
    }
    // Into place: the blocks, then emission.json; on a failure every block goes back.
    let mut placed: Vec<Placed> = Vec::new();
    let undo = |placed: Vec<Placed>, at: String, e: GenerateError| {
        for p in placed.into_iter().rev() {
            let _ = p.undo();
        }
        incomplete(at)(e)
    };
    for (s, plan) in staged.into_iter().zip(&plans) {
        match s.put_in_place() {
            Ok(p) => placed.push(p),
            Err(e) => return Err(undo(placed, format!("block {}", plan.block), e)),
        }
    }
    if let Err(e) = tmp.persist(out.join(EMISSION)) {
        return Err(undo(
            placed,
            EMISSION.into(),
            io(&out.join(EMISSION))(e.error),
        ));
    }
    let left_over = placed
        .into_iter()
        .filter_map(|p| p.finish().err())
        .collect();
    Ok(GeneratedEmission {
        manifest,
        left_over,
    })
}

/// Where an emission of `blocks` may go (call before anything is staged, a fresh seed
/// included): `out` is not a block; an existing `emission.json` is tirage's and replaced
/// only with `force`; each block's destination may be replaced
/// ([`crate::generate::check_destination`]) and has no seed file of a block made alone;
/// no block there lies outside `blocks`. Errors: [`GenerateError::BlockNotEmission`],
/// [`GenerateError::Exists`] (`out`, an emission already), a block's destination error,
/// [`GenerateError::InTheWay`].
pub fn check_emission_destination(
    blocks: &std::ops::RangeInclusive<u32>,
    out: &Path,
    force: bool,
) -> Result<(), GenerateError> {
    if out.join(MANIFEST).exists() {
        return Err(GenerateError::BlockNotEmission(out.to_path_buf()));
    }
    if out.join(EMISSION).exists() {
        if !force {
            return Err(GenerateError::Exists(out.to_path_buf()));
        }
        let ours = std::fs::read(out.join(EMISSION))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| v["format"] == FORMAT);
        if !ours {
            return Err(GenerateError::InTheWay {
                path: out.join(EMISSION),
                why: "not a tirage emission manifest: --force replaces only those".into(),
            });
        }
    }
    for b in blocks.clone() {
        let dir = out.join(block_dir(b));
        crate::generate::check_destination(&dir, force, Kind::Production)?;
        // A block made alone there has its own seed file, which would not replay the
        // emission's block (they share `<out>.seed`).
        let own_seed = dir.with_extension("seed");
        if own_seed.exists() {
            return Err(GenerateError::InTheWay {
                path: own_seed,
                why: "the seed file of a block made alone there: it would sit beside a block of the emission it does not replay; move the block and its seed file away, or make the emission elsewhere (--out)".into(),
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
                return Err(GenerateError::InTheWay {
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
