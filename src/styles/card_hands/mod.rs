//! The *card hands* play style (industry: "poker hands", "three like cards"; WAC 315-10-024
//! "poker"): player zones of own cards and an amount box each, beside shared community
//! cards. A zone wins its amount when its best hand, made with at least `min_own` of its own
//! cards and at least `min_community` community cards, is one of the spec's
//! **combinations**; only its best combination counts (one win per zone), and the winning
//! zones add up. The seed game « Poker » (JORF n°0080 du 5 avril 2011, art. 3.1–3.8) is one
//! instance: `game_specs/poker.toml`.
//!
//! **The spec gives** the zones (`zones`, or their ids `zone_ids`), the cards (`own_cards`,
//! `community_cards`), the usage rule (`min_own`, `min_community`), the printed inscriptions
//! of the 13 ranks and 4 suits, the combinations **in ascending order**, each a kind of the
//! catalogue (`pair`, `two_pair`, `three_of_a_kind`, `straight`, `flush`, `full_house`,
//! `four_of_a_kind`, `straight_flush`, `royal_flush`) with its id, printed name and
//! definition options, the combination weights per tier or way, the zone amounts, decoy
//! weights and near-miss rates. This engine carries exactly: 2 own cards per zone, 5
//! community cards, 1 to [`MAX_ZONES`] zones, `min_own = 1`, `min_community = 1` or `0` (a
//! pocket pair wins by itself), and any
//! ascending subset of `pair`, `three_of_a_kind`, `straight` (`not_flush = true`, ace high
//! only, `ace_low = false`, or also A-2-3-4-5, `ace_low = true`), `flush` (`not_straight =
//! true`, in the same sense of consecutive), `four_of_a_kind`,
//! `royal_flush`. Anything else is refused when the spec is loaded, naming the field.
//!
//! Cards are coded `0..52` as `rank * 4 + suit`, rank `0..13` for `23456789TJQKA` and suit
//! `0..4` for `cdhs`; files show the standard two-character codes (`Ah`, `Td`); proofs show
//! the spec's inscription (`card_name`, e.g. `QUEEN OF HEARTS`). **Columns**: `{zone}_c1
//! {zone}_c2 {zone}_gain {zone}_caption` for each zone (`p1` … `pN` unless `zone_ids` says
//! otherwise), then the community cards `{prefix}1` … `{prefix}5` (`community_prefix`,
//! default `b`). **Panels**: one per zone (its id), and the community cards
//! (`community_id`, default `{surface id}_board`).
//!
//! Two readings of a zone are computed ([`read_zone`]): the **strict** one (the letter of
//! the combinations' definitions and the usage rule, ace high only unless `ace_low`) and the **naive** one
//! (any standard poker hand of a pair or better among the zone's seven cards, wherever they
//! come from, ace high or low). A face where they could differ is reported as an ambiguity
//! and is never produced: a losing zone shows no pair, straight or flush among its seven
//! cards; the community cards alone show none unless every zone wins; no zone is decided by
//! a straight flush other than the royal one.
//!
//! **Features**: each combination (its spec id) on a winning zone; `near_miss_flush` (a
//! losing zone's own cards, with the community cards, make four to a flush) and `near_miss_straight` (four to a
//! straight) on losing zones, at the spec's rates; the GAIN of a losing zone is a decoy.

mod cards;
mod deal;
mod hands;
mod params;
mod rule;

pub use cards::*;
#[allow(unused_imports)]
use deal::*;
pub use hands::*;
pub use params::*;

use super::common::{self, AmountBox};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Features, Layout, Mark, MarkKind, Panel, Plan, Refusal, Style,
};
use crate::crypto::rng::{below, below_mixed, shuffle, weighted, Weights};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most player zones on one surface.
pub const MAX_ZONES: usize = 6;
/// Own cards per player zone (the only count this engine deals).
pub const OWN: usize = 2;
/// Community cards per surface (the only count this engine deals).
pub const COMMUNITY: usize = 5;
/// Cards in the deck all cards of a ticket come from.
pub const DECK: u8 = 52;
/// Face columns per player zone: two cards, the GAIN amount and its caption.
const ZONE_COLUMNS: usize = 4;
/// Whole-face attempts before synthesis gives up with an `Err` (see
/// [`CardHands::synthesize_counted`]).
pub const MAX_ATTEMPTS: usize = 32;
/// Plain random draws tried before a card is drawn from the enumerated candidates.
const QUICK_TRIES: usize = 12;

/// Ambiguity: the same card twice on a ticket (all cards come from one 52-card deck).
pub const AMB_DUPLICATE: &str = "the same card twice on the ticket";
/// Ambiguity: a face code outside its column's dictionary (not a card, not a zone amount).
pub const AMB_BAD_CODE: &str = "a face code outside its column's dictionary";
/// Ambiguity: a losing zone (by the letter) shows a pair among its seven cards (pocket pair,
/// community pair, or two pairs of the wrong origin): a naive player sees a win.
pub const AMB_LOSER_PAIR: &str = "a losing zone with a pair among its seven cards";
/// Ambiguity: a losing zone shows five consecutive ranks among its seven cards (A-2-3-4-5
/// included, or a straight of the community cards alone).
pub const AMB_LOSER_STRAIGHT: &str = "a losing zone with a straight among its seven cards";
/// Ambiguity: a losing zone shows five cards of one suit among its seven cards.
pub const AMB_LOSER_FLUSH: &str = "a losing zone with five of a suit among its seven cards";
/// Ambiguity: a pair inside the community cards while not every zone wins by the letter.
pub const AMB_COMMUNITY_PAIR: &str = "a pair in the community cards, not every zone winning";
/// Ambiguity: a straight (A-2-3-4-5 included) inside the community cards while not every
/// zone wins by the letter.
pub const AMB_COMMUNITY_STRAIGHT: &str =
    "a straight in the community cards, not every zone winning";
/// Ambiguity: five community cards of one suit while not every zone wins by the letter.
pub const AMB_COMMUNITY_FLUSH: &str = "a flush in the community cards, not every zone winning";
/// Ambiguity: a zone's best naive hand is a straight flush other than the royal one
/// (A-2-3-4-5 suited included): neither a straight (not all of one suit) nor a flush (not
/// consecutive) by the letter.
pub const AMB_STRAIGHT_FLUSH: &str = "a non-royal straight flush deciding a zone";

/// One value per player zone.
type Zoned<T> = ArrayVec<T, MAX_ZONES>;

/// What a zone must show in a face being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// Win with exactly this best combination, under both readings.
    Win(Combination),
    /// Lose under both readings, with this near miss.
    Lose(Draw),
}

/// Near miss wanted on a losing zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Draw {
    /// No four to a flush or to a straight made with the zone's own cards.
    None,
    /// Four to a flush made with the zone's own cards (and no four to a straight).
    Flush,
    /// Four to a straight made with the zone's own cards (and no four to a flush).
    Straight,
    /// Anything that still loses under both readings.
    Any,
}

/// Feature: a losing zone whose own cards make four to a flush (near miss).
pub const NEAR_MISS_FLUSH: &str = "near_miss_flush";
/// Feature: a losing zone whose own cards make four to a straight (near miss).
pub const NEAR_MISS_STRAIGHT: &str = "near_miss_straight";
/// [`NEAR_MISS_FLUSH`] in the layout's feature table (the first entry).
const NEAR_MISS_FLUSH_ID: FeatureId = FeatureId(0);
/// [`NEAR_MISS_STRAIGHT`] in the layout's feature table (the second entry).
const NEAR_MISS_STRAIGHT_ID: FeatureId = FeatureId(1);

/// A feature asked of a face being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// A winning zone showing this combination.
    Win(Combination),
    /// A losing zone showing this near miss.
    Draw(Draw),
}

/// A card_hands surface, built from its `[[surfaces]]` table.
pub struct CardHands {
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    /// Player zones.
    zones: usize,
    /// Face column of the first community card.
    board_column: usize,
    /// Face columns holding a card: two per zone, then the community cards.
    card_columns: Vec<usize>,
    /// Panel id of the community cards.
    community_id: String,
    /// Printed name of each zone (`[labels]`, else its id).
    zone_labels: Vec<String>,
    /// Printed name of the community cards.
    board_label: String,
    /// The spec's combinations, as a set of kinds.
    kinds: u8,
    /// The feature of each kind the spec lists ([`Combination::index`]), in the layout's
    /// feature table.
    ids: [Option<FeatureId>; 6],
    /// Printed name of each kind the spec lists.
    names: [Option<String>; 6],
    /// The GAIN box of every zone: its amounts and their captions.
    gain: AmountBox,
    /// Weight of each GAIN amount code as a decoy on a losing zone.
    decoy_weights: Vec<u32>,
    /// Per-million weights of no near miss, four to a flush, four to a straight.
    near_miss: [u32; 3],
    /// `decoy_weights` and `near_miss` as drawn (the same rates).
    decoy_draw: Weights,
    near_miss_draw: Weights,
    rank_captions: Vec<String>,
    suit_captions: Vec<String>,
    card_name: String,
    /// Combination weights per tier amount (`combination_weights`).
    tier_weights: BTreeMap<Money, [u32; 6]>,
    way_weights: BTreeMap<String, [u32; 6]>,
    /// The amount of every tier, by tier index ([`Way::tier`]): a way's tier weights are
    /// found from its tier, never from the amount this surface wins (in a game of several
    /// surfaces that is only the surface's share of the ticket's lot).
    tier_amounts: Vec<Money>,
}

/// The style's entry in the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "card_hands",
    term: "poker hands / three like cards (WAC 315-10-024 \"poker\")",
    about: "Player zones of own cards, each with an amount box, beside shared community cards. A zone wins its amount when its best hand, made under the spec's usage rule (at least one own card, and at least one community card unless min_community = 0), is one of the spec's combinations, listed in ascending order; only the best counts, winning zones add up.",
    naive: "Any standard poker hand of a pair or better among a zone's cards (own and community), wherever the cards come from, ace high or low: a losing zone shows none, the community cards alone show none unless every zone wins, and no zone is decided by a straight flush that is not royal.",
    columns: "{zone}_c1 {zone}_c2 {zone}_gain {zone}_caption per zone (p1 … pN unless zone_ids), then {community_prefix}1 … {community_prefix}5; cards as Ah Td 7s",
    params: &[
        Param { name: "zones", kind: "integer", default: None, about: "Number of player zones, 1 to 6 (or give zone_ids)." },
        Param { name: "zone_ids", kind: "array of strings", default: Some("[\"p1\", …]"), about: "The zones' ids: play areas, panels ([labels] keys) and column prefixes." },
        Param { name: "own_cards", kind: "integer", default: Some("2"), about: "Own cards per zone (this engine deals 2)." },
        Param { name: "community_cards", kind: "integer", default: Some("5"), about: "Community cards (this engine deals 5)." },
        Param { name: "community_prefix", kind: "string", default: Some("\"b\""), about: "Column prefix of the community cards (b1 … b5)." },
        Param { name: "community_id", kind: "string", default: Some("\"{id}_board\""), about: "Panel id ([labels] key) of the community cards." },
        Param { name: "min_own", kind: "integer", default: Some("1"), about: "Fewest own cards in a winning hand (this engine judges 1)." },
        Param { name: "min_community", kind: "integer", default: Some("1"), about: "Fewest community cards in a winning hand: 1, or 0 (a zone's two own cards of one rank are a pair by themselves)." },
        Param { name: "rank_names", kind: "array of 13 strings", default: None, about: "The ranks 2 … ace as printed (TWO … ACE)." },
        Param { name: "suit_names", kind: "array of 4 strings", default: None, about: "The suits c d h s as printed (CLUBS DIAMONDS HEARTS SPADES)." },
        Param { name: "card_name", kind: "string", default: Some("\"{rank} OF {suit}\""), about: "How a card's inscription is written." },
        Param { name: "combinations", kind: "array of tables {id, kind, name, not_flush, not_straight, ace_low}", default: None, about: "The winning combinations in ascending order; kind one of pair, three_of_a_kind, straight (not_flush = true; ace_low = false or true), flush (not_straight = true), four_of_a_kind, royal_flush (two_pair, full_house, straight_flush are refused)." },
        Param { name: "zone_amounts", kind: "array of amounts", default: None, about: "Every amount a zone's GAIN can show." },
        Param { name: "decoy_weights", kind: "table amount → integer", default: None, about: "Weight of each amount shown in the GAIN of a losing zone." },
        Param { name: "near_miss_flush", kind: "number 0..1", default: Some("0"), about: "Share of losing zones whose own cards, with the community cards, make four to a flush; above 0 only when a flush (or royal_flush) pays." },
        Param { name: "near_miss_straight", kind: "number 0..1", default: Some("0"), about: "Share of losing zones whose own cards, with the community cards, make four to a straight; above 0 only when a straight (or royal_flush) pays." },
        Param { name: "combination_weights", kind: "table tier amount → table combination id → integer", default: None, about: "Which combination a winning zone shows, per tier (key: the tier's amount, the ticket's whole lot, even when another surface wins part of it)." },
        Param { name: "way_combination_weights", kind: "table way id → table combination id → integer", default: Some("{}"), about: "Combination weights of one way, replacing its tier's." },
    ],
    example: r#"[[surfaces]]
style = "card_hands"
id = "hands"
zones = 3
community_prefix = "b"
community_id = "board"
rank_names = ["TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN", "KING", "ACE"]
suit_names = ["CLUBS", "DIAMONDS", "HEARTS", "SPADES"]
zone_amounts = [2, 5, 20]
decoy_weights = { "2" = 5, "5" = 3, "20" = 1 }
near_miss_straight = 0.1
combinations = [
  { id = "pair", kind = "pair", name = "PAIR" },
  { id = "three", kind = "three_of_a_kind", name = "THREE OF A KIND" },
  { id = "straight", kind = "straight", name = "STRAIGHT", not_flush = true, ace_low = false },
]
[surfaces.combination_weights."2"]
pair = 1
[surfaces.combination_weights."5"]
three = 1
[surfaces.combination_weights."20"]
straight = 1
"#,
    build,
};

/// Builds a `card_hands` surface ([`StyleInfo::build`]).
pub fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    let raw: RawCardHands = style::parse(table)?;
    Ok(Box::new(CardHands::new(&raw, ctx)?))
}

#[cfg(test)]
mod tests;

/// The style's own parameters: combinations, zones and columns from the spec, on the example
/// game TROIS MAINS (three hands, paire / brelan / suite) and on variants of it.
#[cfg(test)]
mod style_tests;

/// A card_hands surface beside a reveal box: the combination weights are keyed by the tier's
/// amount (the ticket's whole lot), not by the poker zones' share of it.
#[cfg(test)]
mod mixed_tests;
