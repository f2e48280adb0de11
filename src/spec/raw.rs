//! The spec file as written: serde structs with `deny_unknown_fields`, so a misspelt field
//! is an error, not a silent default. [`super::GameSpec::parse`] validates them.

use crate::money::Money;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The whole spec file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSpec {
    /// `[game]`: identity, price, block and pack geometry.
    pub game: Spanned<RawGame>,
    /// `[published]`: the totals printed under the lot table.
    pub published: Spanned<RawPublished>,
    /// `[captions]`: amount (as a string key, e.g. `"20000"`) → caption in letters. Needed
    /// only when a face shows an amount in figures.
    #[serde(default)]
    pub captions: Option<Spanned<BTreeMap<String, String>>>,
    /// `[symbol_captions]`: play symbol → the caption printed under it (`"16" = "SIXTN"`,
    /// `BUST = "BUST"`), as registers print them; optional.
    #[serde(default)]
    pub symbol_captions: Option<Spanned<BTreeMap<String, String>>>,
    /// `[packs]`: optional constraints on how lots spread over packs.
    #[serde(default)]
    pub packs: Option<Spanned<RawPacks>>,
    /// `[[tiers]]`: the lot table, one entry per amount.
    pub tiers: Vec<Spanned<RawTier>>,
    /// `[labels]`: the printed name of each panel and play area of the face (key: the
    /// game's id, e.g. `jeu1 = "Jeu 1"`, `board = "Cartes communes"`), as proofs show
    /// it. A panel with no label is named by its id.
    #[serde(default)]
    pub labels: Option<Spanned<BTreeMap<String, String>>>,
    /// `[[surfaces]]`: the game's surfaces, each of a play style of the library
    /// ([`crate::styles::style`]), with its `style`, its `id` and the style's own parameters.
    #[serde(default)]
    pub surfaces: Vec<Spanned<toml::Table>>,
    /// `[[shared]]`: elements of the face printed once and read by several surfaces
    /// (`reads = "id"` in each).
    #[serde(default)]
    pub shared: Vec<Spanned<RawShared>>,
    /// `[signing]`: the operator's public key, pinned.
    #[serde(default)]
    pub signing: Option<Spanned<RawSigning>>,
    /// `[box]`: the ticket-wide multiplier box, when the game has one.
    #[serde(default, rename = "box")]
    pub multiplier_box: Option<Spanned<RawBox>>,
}

/// `[box]`: the multiplier box printed under the scratch layer, which multiplies every win
/// on the ticket.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBox {
    /// The values it may show (`[1, 2, 5, 10]`, printed `1X`, `2X`, …), each 1 to 1000.
    pub multipliers: Vec<u32>,
}

/// One `[[shared]]` entry: an element of the face printed once, read by several surfaces.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawShared {
    /// Its id: an ASCII word, named by `reads` in the surfaces that read it.
    pub id: String,
    /// What it is: `draw` (different symbols drawn among `symbols`) or `hand` (a dealer's
    /// hand of cards, read by `card_total` surfaces).
    pub kind: String,
    /// How many cells it prints (a hand: its cards).
    pub count: usize,
    /// A draw's symbols, one by one or as a range of numbers (a hand has none: its cards
    /// come from the 52-card deck).
    #[serde(default)]
    pub symbols: Option<crate::styles::style::SymbolList>,
}

/// `[signing]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSigning {
    /// The operator's minisign public key: the key line of its `KEY.pub` (`RW…`).
    pub public_key: String,
}

/// `[game]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGame {
    /// Short lowercase id, e.g. `coq`.
    pub id: String,
    /// Published name, e.g. `ASTRO ANNEE DU COQ`.
    pub name: String,
    /// Which mechanic builds and judges faces: `styles` (the default: the game is its
    /// `[[surfaces]]`).
    #[serde(default = "styles")]
    pub mechanic: String,
    /// Journal officiel reference of the règlement.
    pub legal_reference: String,
    /// Free note (for example: the lot table is a reconstruction).
    #[serde(default)]
    pub note: Option<String>,
    /// True when the lot table is a reconstruction, not the published one.
    #[serde(default)]
    pub reconstructed: bool,
    /// ISO 4217 currency code.
    pub currency: String,
    /// The language the ticket is printed in (`fr`, `en`); default `fr`.
    #[serde(default)]
    pub language: Option<String>,
    /// Ticket price.
    pub price: Money,
    /// Tickets per block.
    pub block_size: u32,
    /// Tickets per pack.
    pub pack_size: u32,
    /// Operator's game code, 0..=9999.
    #[serde(deserialize_with = "game_code")]
    pub game_code: u16,
    /// Emission number, 0..=999.
    #[serde(default = "one", deserialize_with = "emission")]
    pub emission: u16,
}

fn styles() -> String {
    "styles".into()
}

fn one() -> u16 {
    1
}

/// `[packs]`: pack-level constraints, honoured exactly by allocation and checked by verify.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPacks {
    /// Every full pack holds at least this many winning tickets.
    #[serde(default)]
    pub min_winners: Option<u32>,
    /// Every full pack pays at least this much (sum of its lots).
    #[serde(default)]
    pub min_payout: Option<Money>,
    /// `[[packs.max_from_tier]]`: at most `count` tickets of a tier ≥ `amount` per pack.
    #[serde(default)]
    pub max_from_tier: Vec<RawMaxFromTier>,
    /// Packs per carton (consecutive packs in print order; the last carton may be short).
    #[serde(default)]
    pub carton_size: Option<u32>,
    /// `[[packs.max_per_carton]]`: at most `count` tickets of a tier ≥ `amount` per carton.
    #[serde(default)]
    pub max_per_carton: Vec<RawMaxFromTier>,
    /// No run of more than this many losing tickets in print order within a pack.
    #[serde(default)]
    pub max_losers_in_a_row: Option<u32>,
}

/// One `[[packs.max_from_tier]]` or `[[packs.max_per_carton]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMaxFromTier {
    /// Lots of this amount or more count.
    pub amount: Money,
    /// At most this many of them per pack (or carton).
    pub count: u32,
}

/// Printed odds as the spec writes them: a string (`"1 in 4.26"`). Errors: any other
/// type (`odds = 4000`), saying the format expected.
fn printed_odds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct Printed;
    impl serde::de::Visitor<'_> for Printed {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("printed odds in quotes, \"1 in N\" (\"1 in 4.26\", \"1 in 1,125,000\")")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
    }
    d.deserialize_any(Printed)
}

/// A whole number from 0 to `most`, which a serial prints in as many digits as `most` has;
/// `what` names those digits in the error. Errors: serde's "invalid value" (a number out of
/// range) or "invalid type" (not a number), expecting for instance "a whole number from 0
/// to 9,999 (the serial's four game code digits)".
fn serial_digits<'de, D: serde::Deserializer<'de>>(
    d: D,
    most: u16,
    what: &'static str,
) -> Result<u16, D::Error> {
    struct Digits(u16, &'static str);
    impl serde::de::Visitor<'_> for Digits {
        type Value = u16;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            let most = crate::money::grouped(u64::from(self.0));
            write!(
                f,
                "a whole number from 0 to {most} (the serial's {})",
                self.1
            )
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u16, E> {
            match u16::try_from(v) {
                Ok(n) if n <= self.0 => Ok(n),
                _ => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
            }
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u16, E> {
            match u16::try_from(v) {
                Ok(n) if n <= self.0 => Ok(n),
                _ => Err(E::invalid_value(serde::de::Unexpected::Unsigned(v), &self)),
            }
        }
    }
    d.deserialize_any(Digits(most, what))
}

/// `[game] game_code`: 0 to 9999, the serial's first four digits.
fn game_code<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
    serial_digits(d, 9999, "four game code digits")
}

/// `[game] emission`: 0 to 999, the serial's three emission digits.
fn emission<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u16, D::Error> {
    serial_digits(d, 999, "three emission digits")
}

/// `[published]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPublished {
    /// Number of lots per block.
    pub lots: u64,
    /// Total payout per block.
    pub payout: Money,
    /// Optional: the odds of winning any lot, as printed (`"1 in 4.26"`), checked against
    /// the block size and `lots`.
    #[serde(default, deserialize_with = "printed_odds")]
    pub odds: Option<String>,
    /// How the operator rounds the printed odds to their last decimal (`nearest`, the
    /// default; `down`; `up`).
    #[serde(default)]
    pub odds_rounding: super::odds::Rounding,
}

/// One `[[tiers]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTier {
    /// Lot amount.
    pub amount: Money,
    /// Lots of this amount per block.
    pub count: u32,
    /// Optional: the row's total as printed in the lot table (`count` × `amount`); a row
    /// whose total is not that product is refused, as a printed table with a typo must be.
    #[serde(default)]
    pub total: Option<Money>,
    /// Optional: the row's odds as printed (`"1 in 4.00"`): the block's tickets divided by
    /// `count`, at the printed decimals, rounded as `[published] odds_rounding` says.
    #[serde(default, deserialize_with = "printed_odds")]
    pub odds: Option<String>,
    /// Reachable only by adding the wins of several play areas (règlement).
    #[serde(default)]
    pub combined_only: bool,
    /// Optional: a prize that is not money (`"FREE TICKET"`, `"A CAR"`), as printed where a
    /// face would show an amount; `amount` is then its stated value, counted apart from
    /// the cash payout.
    #[serde(default)]
    pub item: Option<String>,
    /// `[[tiers.ways]]`: how the tier is reached.
    pub ways: Vec<Spanned<RawWay>>,
}

/// One `[[tiers.ways]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWay {
    /// Unique id, written in the `way` column.
    pub id: String,
    /// Tickets of this way per block.
    pub count: u32,
    /// The amounts of the winning play areas; they add up to the tier's amount.
    pub wins: Vec<Money>,
    /// Optional: the play area of each win, by name; by default the game picks free
    /// areas at random.
    #[serde(default)]
    pub areas: Option<Vec<String>>,
    /// Optional: the value the multiplier box shows on this way's tickets (`[box]`); by
    /// default any value that can carry the way.
    #[serde(default, rename = "box")]
    pub multiplier_box: Option<u32>,
}

impl RawSpec {
    /// Byte offset of `[captions]`, when the spec has one.
    pub fn captions_span(&self) -> Option<usize> {
        self.captions.as_ref().map(|c| c.span().start)
    }

    /// The `[captions]` entries as written (none when the table is absent).
    pub fn caption_entries(&self) -> impl Iterator<Item = (&String, &String)> {
        self.captions.iter().flat_map(|c| c.get_ref())
    }
}
