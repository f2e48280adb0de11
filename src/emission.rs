//! Emissions: several blocks of one game sharing one lot table and one master seed
//! (décret n°78-1067). Each block gets its own directory and manifest; `emission.json`
//! beside them lists the blocks and the digest of each block's manifest, and is written
//! last. Keys are derived per block from the emission seed, so no two blocks share a
//! stream; validation codes come from one emission-wide permutation of (block, ticket), so
//! they are unique across the emission by construction, and serials are unique because
//! each carries its block number.

use crate::generate::{BlockPlan, GenerateError};
use crate::output::MANIFEST;
use crate::rng::Seed;
use crate::spec::GameSpec;
use crate::validation::Validator;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

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

/// Generates blocks `blocks` of `spec` from the emission seed `seed` into `out/block-NNN`,
/// then writes `out/emission.json`. Nothing is started if any destination exists and
/// `force` is not given. `progress(block, tickets done)`.
pub fn generate_emission(
    spec: &GameSpec,
    seed: &Seed,
    blocks: std::ops::RangeInclusive<u32>,
    out: &Path,
    force: bool,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<EmissionManifest, GenerateError> {
    generate_emission_with(
        spec,
        seed,
        blocks,
        out,
        force,
        &crate::generate::Provenance::default(),
        progress,
    )
}

/// [`generate_emission`], every block's manifest recording `provenance` (seed share
/// commitments).
pub fn generate_emission_with(
    spec: &GameSpec,
    seed: &Seed,
    blocks: std::ops::RangeInclusive<u32>,
    out: &Path,
    force: bool,
    provenance: &crate::generate::Provenance,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<EmissionManifest, GenerateError> {
    let plans = blocks
        .clone()
        .map(|b| BlockPlan::production(spec, b))
        .collect::<Result<Vec<_>, _>>()?;
    for p in &plans {
        crate::generate::check_destination(&out.join(block_dir(p.block)), force, p.kind)?;
    }
    if !force && out.join(EMISSION).exists() {
        return Err(GenerateError::Exists(out.join(EMISSION)));
    }
    let mut entries = Vec::new();
    let mut written: Vec<PathBuf> = Vec::new();
    for plan in &plans {
        let dir = block_dir(plan.block);
        let made =
            crate::generate::generate_with(plan, seed, &out.join(&dir), force, provenance, &|n| {
                progress(plan.block, n)
            });
        let m = match made {
            Ok(m) => m,
            Err(e) => return Err(abandon(&written, format!("block {}", plan.block), e)),
        };
        written.push(out.join(&dir));
        let path = out.join(&dir).join(MANIFEST);
        let bytes = std::fs::read(&path).map_err(|source| GenerateError::Io {
            path: path.clone(),
            source,
        })?;
        entries.push(BlockEntry {
            block: plan.block,
            dir,
            manifest_sha256: hex::encode(Sha256::digest(&bytes)),
            tickets: m.tickets,
            lots: m.lots,
            payout: m.payout,
        });
    }
    let manifest = EmissionManifest {
        format: FORMAT.into(),
        game: spec.id.clone(),
        emission: spec.emission,
        spec_sha256: spec.sha256.clone(),
        seed_commitment: seed.commitment(),
        validation_key_commitment: Validator::production(seed).commitment().to_string(),
        blocks: entries,
    };
    let mut json = serde_json::to_vec_pretty(&manifest).expect("serializes");
    json.push(b'\n');
    let tmp: PathBuf = out.join(format!(".{EMISSION}.tmp"));
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GenerateError::Io { path, source }
    };
    let put = std::fs::write(&tmp, &json)
        .map_err(io(&tmp))
        .and_then(|()| std::fs::rename(&tmp, out.join(EMISSION)).map_err(io(&out.join(EMISSION))));
    if let Err(e) = put {
        let _ = std::fs::remove_file(&tmp);
        return Err(abandon(&written, EMISSION.to_string(), e));
    }
    Ok(manifest)
}

/// An emission is whole or absent: when one of its parts (`at`) fails with `e`, the blocks
/// already `written` from its seed are removed too (the seed is kept only once the emission
/// is complete), and the error says which.
fn abandon(written: &[PathBuf], at: String, e: GenerateError) -> GenerateError {
    let removed: Vec<PathBuf> = written
        .iter()
        .filter(|d| std::fs::remove_dir_all(d).is_ok())
        .cloned()
        .collect();
    GenerateError::EmissionIncomplete {
        at,
        removed,
        cause: Box::new(e),
    }
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

    /// An emission that fails part-way removes the blocks it already wrote, and says so.
    #[test]
    fn an_abandoned_emission_leaves_no_block() {
        let t = tempfile::tempdir().unwrap();
        let written: Vec<PathBuf> = ["block-001", "block-002"]
            .iter()
            .map(|d| t.path().join(d))
            .collect();
        for d in &written {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join(MANIFEST), "{}").unwrap();
        }
        let e = abandon(
            &written,
            "block 3".into(),
            GenerateError::Exists(t.path().join("x")),
        );
        assert!(written.iter().all(|d| !d.exists()));
        let msg = e.to_string();
        assert!(msg.starts_with("block 3 of the emission: "), "{msg}");
        assert!(
            msg.contains("the emission is incomplete: the blocks written before were removed (")
                && msg.contains("block-001")
                && msg.contains("block-002"),
            "{msg}"
        );
        match e {
            GenerateError::EmissionIncomplete { removed, .. } => assert_eq!(removed, written),
            other => panic!("{other:?}"),
        }
    }

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
