//! The lot table's vocabulary, shared by the spec and the games: ways of winning and
//! what a file may not begin a text with.

use crate::money::Money;

/// The index of a way in `GameSpec::ways`; way 0 is always the losing ticket.
pub type WayId = u16;

/// One win of a way: a play area (or any area the game chooses) showing an amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Win {
    /// The play area's index in the game's [`crate::styles::Layout::areas`], or `None` when the
    /// game places the win in any free area (at random).
    pub area: Option<u8>,
    /// The amount this play area wins, in cents.
    pub amount: Money,
}

/// One concrete way a ticket reaches a tier (GAMES.md vocabulary), e.g. `500 + 500`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Way {
    /// The spec's id of the way, written in the `way` column of every file.
    pub id: String,
    /// Index of its tier in `GameSpec::tiers`; `None` for the losing way.
    pub tier: Option<usize>,
    /// The ticket's total lot (sum of `wins`), in cents.
    pub amount: Money,
    /// Exact number of tickets of this way in every block.
    pub count: u32,
    /// The winning play areas, in the spec's order (empty for the losing way).
    pub wins: Vec<Win>,
}

/// First characters a spreadsheet reads as the start of a formula (CSV injection): no
/// caption or way id written to a CSV file begins with one.
pub const FORMULA_START: [char; 4] = ['=', '+', '-', '@'];

/// The id of the losing way, in files.
pub const LOSE: &str = "lose";
