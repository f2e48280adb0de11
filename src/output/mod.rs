//! The files a block produces (GAMES.md, "Files a block produces"; docs/FORMAT.md).
//!
//! - [`tickets_csv`]: `tickets.csv`, for QA and audit (one place owns its dialect and columns);
//! - [`print_file`]: `tickets.bin`, the printer's fixed-width binary print file;
//! - [`validation_csv`]: `validation.csv`, serial → validation code → prize, for the central
//!   system (the one file that maps codes to prizes);
//! - [`manifest`]: `manifest.json`, what the block is and the digest of every file;
//! - [`sums`]: `SHA256SUMS`, in the format `sha256sum -c` reads;
//! - [`emission_manifest`]: `emission.json`, beside the blocks of an emission;
//! - [`hashing`]: the SHA-256 of a file as it is written and as it is read back;
//! - [`seal`]: the ticket files encrypted per recipient with age (`*.age`).

pub mod emission_manifest;
pub mod hashing;
pub mod manifest;
pub mod print_file;
pub mod seal;
pub mod sums;
pub mod tickets_csv;
pub mod validation_csv;

pub use crate::store::regular::{open_regular, read_regular};

use crate::block::serial;
use crate::money::Money;
use crate::spec::WayId;
use crate::styles::Face;

/// The largest `manifest.json` or `emission.json` read (they are a few kilobytes).
pub const MAX_JSON: u64 = 64 << 20;

/// One ticket as written: where it is, which way it realises, and its face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    /// Block number.
    pub block: u32,
    /// Pack number, 1-based.
    pub pack: u32,
    /// Position in the pack, 1-based.
    pub pack_position: u32,
    /// Position in print order within the block, 1-based.
    pub ticket: u32,
    /// The serial (20 ASCII digits, see [`serial`]).
    pub serial: [u8; serial::LEN],
    /// The validation code (printed as 20 digits; see [`crate::crypto::validation`]).
    pub validation: u64,
    /// The ticket's lot, in cents (0 for a loser).
    pub prize: Money,
    /// The way realised.
    pub way: WayId,
    /// Everything under the scratch layer.
    pub face: Face,
}
