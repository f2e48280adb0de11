//! `emission.json`: the blocks of an emission and the digest of each block's manifest,
//! beside the blocks (written last).

use serde::{Deserialize, Serialize};

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
