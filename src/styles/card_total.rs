//! The *card total* play style (industry: "beat the dealer", blackjack / "21"; WAC
//! 315-10-024 "add up yours against theirs" with cards).
//!
//! **Rule.** The surface has `hands` player hands, each of `cards` cards with an amount box
//! (GAIN), and a dealer's hand of `dealer_cards` cards: one for the whole surface
//! (`dealer = "shared"`) or one beside each hand (`dealer = "per_hand"`). A card counts its
//! rank (2 to 10), a figure (jack, queen, king) counts 10 and an ace 1 or 11: a hand's
//! total is the highest one not over 21 (a *soft* hand counts an ace 11), and a hand whose
//! every ace counts 1 and still goes over 21 is *bust*. A player hand wins the amount in its
//! box when it is not bust and the dealer's hand is bust or has a lower total. With
//! `natural`, a two-card 21 (an ace and a ten or figure) is a *natural*: it beats any dealer
//! hand but a natural, and pays its box times `natural.multiplier`, or `natural.prize`
//! (the box then shows that prize). A tie (a *push*) is never printed (`ties = "never"`),
//! loses (`"lose"`) or pays the box (`"win"`), as the spec says. Every hand is a play area,
//! the winning hands add up.
//!
//! **Naive reading.** A player counts the cards as above but may count any ace 1 or 11
//! (without going over 21), for the hand and for the dealer, and reads a natural as 21. No
//! face is printed where any such reading gives a row another outcome than the rule: so a
//! soft hand appears only where counting its ace 1 or 11 changes nothing (a soft 17 against
//! a dealer's 19), a natural never meets a 21 of more cards, and no tie is printed unless
//! the spec says how it is paid. All the cards of a ticket come from one 52-card deck: no
//! card shows twice.
//!
//! **The dealers' law.** Every dealer's hand (the surface's one, one beside each hand, or
//! one shared by several surfaces) is dealt first, before anything that depends on the
//! ticket's way, by one law ([`draw_dealer`]): `dealer_cards` cards of no ace, their total
//! drawn from 12 to 19, each as likely ([`DEALER_TOTALS`]). Against any such hand every
//! want of a hand is reachable: a win by a higher total up to 20 (21 with three cards) or
//! by a natural, a loss at least two below (or bust, or tied where a tie loses), a near
//! miss one below. So a dealer is never drawn again for a way, and a dealer's hand alone
//! tells a winning hand or ticket from a losing one no better than chance. The rule still
//! judges a bust, soft or natural dealer (`verify` reads any face by it): such faces are
//! just never printed. The hands are then built to their wants from the cards left, tried
//! again against the same dealers when the deck runs short; when the spec loads, each
//! way's hands are dealt against dealers of every total of the law, and a way whose hands
//! too often run out of cards (many losing hands of three cards need more low cards than a
//! deck holds) is refused (`CardTotal::check_deals`).
//!
//! **A dealer shared by several surfaces.** With `reads` naming a `[[shared]]` dealer's hand
//! (`kind = "hand"`, [`super::shared`]), the hands play against that hand, printed once for
//! every surface that reads it, and the surface has no dealer of its own. The ticket's game
//! deals the dealer's cards first, by the same law, then each reader's, in surface order,
//! from the same deck ([`Plan::draw_beside`]). The deck's four aces serve every reader: a
//! reader refuses a win only a natural pays, shows a natural only while an ace is left, and
//! takes an ace for a soft hand only when none is needed for a natural still to deal.
//!
//! **Columns.** With a shared dealer: `{id}_d1..{id}_d{dealer_cards}` first; then per hand
//! `r`: `{id}_h{r}_c{i}` (its cards), with `dealer = "per_hand"` `{id}_h{r}_d{i}` (its
//! dealer's cards), then `{id}_h{r}_gain`, `{id}_h{r}_caption`. Cards are written as
//! `card_hands` writes them (`Ah`, `Td`, `7s`) and proofs print the spec's inscription
//! (`card_name`, `rank_names`, `suit_names`). Play areas and panels: `areas` when given,
//! else `{id}_h{r}`; the shared dealer's panel is `dealer_id` (default `{id}_dealer`).
//!
//! **Features.** `near_miss_<id>` (or `near_miss_feature`): a losing hand one below the
//! dealer's total (an 18 against 19), on exactly `near_miss` of the losing hands (the others
//! are at least two below, bust, or, with `ties = "lose"`, tied). `natural_<id>` (or
//! `natural_feature`), with `natural`: a hand winning by a natural. The box of a losing
//! hand shows a decoy (`decoy_weights`), marked as such.

use super::card_hands::{caption_list, card, card_code, printed, rank, rank_names, suit, Card};
use super::common::{self, AmountBox};
use super::shared::{SharedKind, DEALER_TOTALS};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureId, FeatureKind,
    Layout, Mark, MarkKind, Panel, Plan, Printed, Refusal, Style, MAX_COLUMNS, MAX_WINS,
};
use crate::crypto::rng::{below, chance, shuffle, weighted};
use crate::language::{Phrase, PrintedLine};
use crate::lots::{Way, Win};
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Ambiguity: a hand whose outcome changes when an ace is counted 1 instead of 11 (or the
/// other way), in the hand or in the dealer's, or when a natural is read as a plain 21.
pub const AMB_READING: &str = "a card_total hand whose outcome depends on how an ace is counted";
/// Ambiguity: a tie on a surface whose rules print none (`ties = "never"`).
pub const AMB_TIE: &str = "a card_total hand tied with the dealer, which the rules never print";
/// Ambiguity: the same card twice on a ticket (all its cards come from one 52-card deck).
pub const AMB_DUPLICATE: &str = "the same card twice on a card_total ticket";
/// Ambiguity: a natural whose box does not show the natural's prize (`natural.prize`).
pub const AMB_NATURAL_BOX: &str = "a natural whose box does not show the natural's prize";

/// Most player hands on a surface.
pub const MAX_HANDS: usize = 8;
/// Most cards printed on one surface (hands and dealers): a ticket's cards come from one
/// deck, and this leaves every draw room.
pub const MAX_SURFACE_CARDS: usize = 30;
/// Most naturals on one ticket (a deck has four aces).
pub const MAX_NATURALS: usize = 4;
/// Whole-face attempts before drawing gives up (a bug: see [`CardTotal::draw`]).
const MAX_ATTEMPTS: usize = 64;
/// Attempts at one hand before the face is drawn again.
const HAND_TRIES: usize = 24;
/// Deals of a way's hands sampled against dealers of each total when the spec loads
/// ([`CardTotal::check_deals`]).
const DEAL_SAMPLES: usize = 16;

fn two() -> u32 {
    2
}

/// Who the player hands play against.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
enum Dealer {
    /// One dealer's hand for the whole surface.
    #[default]
    Shared,
    /// One dealer's hand beside each player hand.
    PerHand,
}

/// How a tie (push) is paid.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
enum Ties {
    /// The rules print no tie: a tie is an ambiguity.
    #[default]
    Never,
    /// A tie loses.
    Lose,
    /// A tie wins the box.
    Win,
}

/// `natural`: how a two-card 21 pays.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNatural {
    #[serde(default)]
    multiplier: Option<u32>,
    #[serde(default)]
    prize: Option<Money>,
    #[serde(default)]
    share: f64,
}

/// A `card_total` surface's table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCardTotal {
    hands: u32,
    #[serde(default = "two")]
    cards: u32,
    #[serde(default)]
    dealer: Dealer,
    #[serde(default)]
    dealer_cards: Option<u32>,
    #[serde(default)]
    ties: Ties,
    #[serde(default)]
    natural: Option<RawNatural>,
    box_amounts: Vec<Money>,
    decoy_weights: BTreeMap<String, u32>,
    #[serde(default)]
    near_miss: f64,
    #[serde(default)]
    near_miss_feature: Option<String>,
    #[serde(default)]
    natural_feature: Option<String>,
    #[serde(default)]
    areas: Option<Vec<String>>,
    #[serde(default)]
    dealer_id: Option<String>,
    rank_names: Vec<String>,
    suit_names: Vec<String>,
    #[serde(default = "super::card_hands::default_card_name")]
    card_name: String,
}

/// What a natural pays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Natural {
    /// The box's amount times this factor.
    Times(u32),
    /// This amount, which the box shows.
    Prize(Money),
}

/// A hand's count: its cards with every ace as 1, its aces, and whether it is a natural.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The total with every ace counted 1.
    pub hard: u8,
    /// Aces in the hand.
    pub aces: u8,
    /// Two cards, an ace and a ten or figure.
    pub natural: bool,
}

/// The value of card `c` with an ace as 1: 2 to 10, a figure 10.
pub fn value(c: Card) -> u8 {
    VALUES[usize::from(c)]
}

/// `VALUES[c]`: [`value`] of code `c`, read from a table: ranks 0 to 7 count 2 to 9, 8 to 11
/// count 10, the ace (12) and any code past the deck's 1.
static VALUES: [u8; 256] = {
    let mut t = [1u8; 256];
    let mut c = 0;
    while c < 256 {
        let r = rank(c as Card);
        t[c] = match r {
            0..=7 => r + 2,
            8..=11 => 10,
            _ => 1,
        };
        c += 1;
    }
    t
};

impl Count {
    /// The count of `cards`.
    pub fn of(cards: &[Card]) -> Count {
        let hard = cards.iter().map(|&c| value(c)).sum();
        let aces = cards.iter().filter(|&&c| rank(c) == 12).count() as u8;
        Count {
            hard,
            aces,
            natural: cards.len() == 2 && aces == 1 && hard == 11,
        }
    }

    /// Over 21 with every ace counted 1.
    pub fn bust(self) -> bool {
        self.hard > 21
    }

    /// The rule's total: the highest count not over 21 (an ace 11 where it fits), or the
    /// hard total of a bust hand.
    pub fn total(self) -> u8 {
        if self.aces > 0 && self.hard + 10 <= 21 {
            self.hard + 10
        } else {
            self.hard
        }
    }

    /// Every total a player may read, ascending: a natural is 21; otherwise each ace 1 or
    /// 11, as long as the hand does not go over 21 (the hard total always).
    fn readings(self) -> impl Iterator<Item = u8> + Clone {
        let (first, more) = if self.natural {
            (21, 0)
        } else {
            // Each ace counted 11 adds 10: as many as fit under 21, at most 7.
            (
                self.hard,
                self.aces.min(7).min(21u8.saturating_sub(self.hard) / 10),
            )
        };
        (0..=more).map(move |k| first + 10 * k)
    }
}

/// A row's result before the tie rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win,
    Lose,
    Tie,
}

/// The rule's outcome of player hand `p` against dealer hand `d`; `naturals` when the spec
/// sets a natural (else a two-card 21 is a 21 like any other).
fn rule_outcome(p: Count, d: Count, naturals: bool) -> Outcome {
    if p.bust() {
        Outcome::Lose
    } else if naturals && (p.natural || d.natural) {
        match (p.natural, d.natural) {
            (true, true) => Outcome::Tie,
            (true, false) => Outcome::Win,
            _ => Outcome::Lose,
        }
    } else if d.bust() {
        Outcome::Win
    } else {
        by_totals(p.total(), d.total())
    }
}

/// Totals compared: over 21 loses for the player first, then wins against a dealer over 21.
fn by_totals(p: u8, d: u8) -> Outcome {
    if p > 21 {
        Outcome::Lose
    } else if d > 21 || p > d {
        Outcome::Win
    } else if p < d {
        Outcome::Lose
    } else {
        Outcome::Tie
    }
}

/// The judgement of one hand against its dealer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    /// Wins by the rule (with the tie rule applied).
    win: bool,
    /// Wins by a natural.
    natural: bool,
    /// A breach of the ambiguity policy.
    ambiguity: Option<&'static str>,
    /// Loses one below the dealer's total.
    near: bool,
}

/// The card_total style, built from a validated surface table.
pub struct CardTotal {
    id: String,
    /// Areas, columns, panels, printed lines, shown amounts and description.
    layout: Layout,
    labels: Vec<String>,
    dealer_label: String,
    hands: usize,
    cards: usize,
    dealer: Dealer,
    dealer_cards: usize,
    /// The dealer's hand is a shared element (`reads`), read by other surfaces too: the
    /// surface deals its cards from the ticket's one deck, given the dealer's.
    reading: bool,
    ties: Ties,
    natural: Option<Natural>,
    natural_share: u32,
    gain: AmountBox,
    /// The amounts a hand wins without a natural (the box amounts).
    box_amounts: Vec<Money>,
    decoy_weights: Vec<u32>,
    near_miss: u32,
    /// The near miss and the natural, in the layout's feature table.
    near_miss_id: FeatureId,
    natural_id: FeatureId,
    rank_captions: Vec<String>,
    suit_captions: Vec<String>,
    card_name: String,
    /// The deal checks of the wins of the ways planned so far ([`CardTotal::check_deals`]):
    /// a way planned again (for another split of a ticket, or each face a test draws) is
    /// not sampled again.
    deals: Mutex<Vec<DealCheck>>,
    /// Every card column of the surface ([`CardTotal::card_cols`]), listed once at load for
    /// the check of each face.
    card_columns: Vec<usize>,
}

/// The wins of a way and what sampling its deals found ([`CardTotal::check_deals`]).
type DealCheck = (Vec<Win>, Result<(), Refusal>);

/// What one hand of a face being drawn must show.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Want {
    /// Win, showing this box code, by a natural or not.
    Win { code: u8, natural: bool },
    /// Lose at least two below (or bust, or tied where a tie loses).
    Lose,
    /// Lose one below the dealer.
    Near,
}

/// How one win of a way can be paid on a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pay {
    /// The box code of a win without a natural.
    plain: Option<u8>,
    /// The box code of a win by a natural.
    natural: Option<u8>,
}

impl CardTotal {
    fn new(raw: RawCardTotal, ctx: &StyleCtx) -> Result<CardTotal, FieldError> {
        let hands = raw.hands as usize;
        if hands == 0 || hands > MAX_HANDS {
            return Err(FieldError::new(
                "hands",
                format!("expected 1 to {MAX_HANDS} player hands, got {hands}"),
            ));
        }
        let shared_hand = match ctx.reads {
            None => None,
            Some(e) if e.kind == SharedKind::Hand => Some(e),
            Some(e) => {
                return Err(FieldError::new(
                    "reads",
                    format!(
                        "shared \"{}\" is a draw of symbols; a card_total surface reads a \
                         dealer's hand (kind = \"hand\")",
                        e.id
                    ),
                ))
            }
        };
        if let Some(e) = shared_hand {
            if raw.dealer == Dealer::PerHand || raw.dealer_id.is_some() {
                let field = if raw.dealer_id.is_some() {
                    "dealer_id"
                } else {
                    "dealer"
                };
                return Err(FieldError::new(
                    field,
                    format!(
                        "the hands play against the shared dealer's hand \"{}\" (`reads`): \
                         leave `{field}` out",
                        e.id
                    ),
                ));
            }
            if let Some(n) = raw.dealer_cards {
                return Err(FieldError::new(
                    "dealer_cards",
                    format!(
                        "the shared dealer's hand \"{}\" has {} cards (its `count`): leave \
                         dealer_cards = {n} out",
                        e.id, e.count
                    ),
                ));
            }
        }
        let raw_dealer_cards = match shared_hand {
            Some(e) => e.count as u32,
            None => raw.dealer_cards.unwrap_or(2),
        };
        for (field, n) in [("cards", raw.cards), ("dealer_cards", raw_dealer_cards)] {
            if !(2..=3).contains(&n) {
                return Err(FieldError::new(
                    field,
                    format!("expected 2 or 3 cards to a hand, got {n}"),
                ));
            }
        }
        let (cards, dealer_cards) = (raw.cards as usize, raw_dealer_cards as usize);
        let dealers = match raw.dealer {
            Dealer::Shared => 1,
            Dealer::PerHand => hands,
        };
        let total_cards = hands * cards + dealers * dealer_cards;
        if total_cards > MAX_SURFACE_CARDS {
            return Err(FieldError::new(
                "hands",
                format!(
                    "{total_cards} cards on the surface; at most {MAX_SURFACE_CARDS} (one deck \
                     deals every card of a ticket)"
                ),
            ));
        }
        let per_row = cards
            + 2
            + if raw.dealer == Dealer::PerHand {
                dealer_cards
            } else {
                0
            };
        let columns_needed = hands * per_row + if dealers == 1 { dealer_cards } else { 0 };
        if columns_needed > MAX_COLUMNS {
            return Err(FieldError::new(
                "hands",
                format!("{columns_needed} face columns; at most {MAX_COLUMNS}"),
            ));
        }
        let areas: Vec<String> = match raw.areas {
            Some(a) => {
                if a.len() != hands {
                    return Err(FieldError::new(
                        "areas",
                        format!("expected one name per hand ({hands}), got {}", a.len()),
                    ));
                }
                for (i, n) in a.iter().enumerate() {
                    super::card_hands::ascii_id(n, "an id")
                        .map_err(|m| FieldError::new("areas", m))?;
                    if a[..i].contains(n) {
                        return Err(FieldError::new("areas", format!("\"{n}\" is listed twice")));
                    }
                }
                a
            }
            None => (1..=hands).map(|r| format!("{}_h{r}", ctx.id)).collect(),
        };
        let dealer_id = match shared_hand {
            Some(e) => e.id.clone(),
            None => raw
                .dealer_id
                .clone()
                .unwrap_or_else(|| format!("{}_dealer", ctx.id)),
        };
        super::card_hands::ascii_id(&dealer_id, "an id")
            .map_err(|m| FieldError::new("dealer_id", m))?;
        if raw.dealer_id.is_some() && raw.dealer == Dealer::PerHand {
            return Err(FieldError::new(
                "dealer_id",
                "names the shared dealer's panel; with dealer = \"per_hand\" each dealer is \
                 drawn with its hand",
            ));
        }
        if raw.box_amounts.is_empty() || raw.box_amounts.iter().any(|m| m.is_zero()) {
            return Err(FieldError::new(
                "box_amounts",
                "expected one or more amounts above 0",
            ));
        }
        if let Some(m) = (1..raw.box_amounts.len()).find_map(|i| {
            raw.box_amounts[..i]
                .contains(&raw.box_amounts[i])
                .then(|| raw.box_amounts[i])
        }) {
            return Err(FieldError::new(
                "box_amounts",
                format!("{m} is listed twice"),
            ));
        }
        let above_max = |m: Money| ctx.max.is_some_and(|x| m > x);
        if let Some(m) = raw.box_amounts.iter().find(|&&m| above_max(m)) {
            return Err(FieldError::new(
                "box_amounts",
                format!("{m} is above the surface's max; a box never shows more"),
            ));
        }
        let (natural, natural_share) = match &raw.natural {
            None => (None, 0),
            Some(n) => {
                if cards != 2 {
                    return Err(FieldError::new(
                        "natural",
                        "a natural is a two-card 21: it needs cards = 2",
                    ));
                }
                let share =
                    common::share(n.share).map_err(|e| FieldError::new("natural.share", e))?;
                let pays = match (n.multiplier, n.prize) {
                    (Some(m), None) if (2..=100).contains(&m) => Natural::Times(m),
                    (Some(m), None) => {
                        return Err(FieldError::new(
                            "natural.multiplier",
                            format!("expected a factor of 2 to 100, got {m}"),
                        ))
                    }
                    (None, Some(p)) if !p.is_zero() && !above_max(p) => Natural::Prize(p),
                    (None, Some(p)) => {
                        return Err(FieldError::new(
                            "natural.prize",
                            format!(
                            "{p} is no prize a box can show (above 0, at most the surface's max)"
                        ),
                        ))
                    }
                    _ => {
                        return Err(FieldError::new(
                            "natural",
                            "expected exactly one of multiplier and prize",
                        ))
                    }
                };
                (Some(pays), share)
            }
        };
        let mut shown = raw.box_amounts.clone();
        if let Some(Natural::Prize(p)) = natural {
            shown.push(p);
        }
        let gain =
            AmountBox::new(shown, ctx.captions).map_err(|e| FieldError::new("box_amounts", e))?;
        let decoy_weights = common::decoy_weights(
            &raw.decoy_weights,
            gain.amounts(),
            "an amount the box shows",
        )
        .map_err(|e| FieldError::new("decoy_weights", e))?;
        let near_miss =
            common::share(raw.near_miss).map_err(|e| FieldError::new("near_miss", e))?;
        let rank_captions =
            rank_names(&raw.rank_names).map_err(|m| FieldError::new("rank_names", m))?;
        let suit_captions = caption_list(&raw.suit_names, 4, "suit names (c d h s)")
            .map_err(|m| FieldError::new("suit_names", m))?;
        if !raw.card_name.contains("{rank}") || !raw.card_name.contains("{suit}") {
            return Err(FieldError::new(
                "card_name",
                format!(
                    "\"{}\" should hold {{rank}} and {{suit}} (e.g. \"{{rank}} DE {{suit}}\")",
                    raw.card_name
                ),
            ));
        }
        printed(&raw.card_name).map_err(|m| FieldError::new("card_name", m))?;
        let deck: Vec<String> = (0..52).map(card_code).collect();
        let card_column = |name: String| Column {
            name,
            kind: ColumnKind::Symbol,
            values: deck.clone(),
            inscriptions: Vec::new(),
        };
        let mut columns = Vec::new();
        match shared_hand {
            Some(e) => columns.extend(e.columns()),
            None if raw.dealer == Dealer::Shared => {
                for i in 1..=dealer_cards {
                    columns.push(card_column(format!("{}_d{i}", ctx.id)));
                }
            }
            None => {}
        }
        for r in 1..=hands {
            for i in 1..=cards {
                columns.push(card_column(format!("{}_h{r}_c{i}", ctx.id)));
            }
            if raw.dealer == Dealer::PerHand {
                for i in 1..=dealer_cards {
                    columns.push(card_column(format!("{}_h{r}_d{i}", ctx.id)));
                }
            }
            let g = columns.len();
            columns.push(gain.column(format!("{}_h{r}_gain", ctx.id)));
            columns.push(Column::caption(
                format!("{}_h{r}_caption", ctx.id),
                g,
                ctx.captions,
            ));
        }
        let feature = |given: &Option<String>, field: &str, lead: &str| match given {
            Some(id) => super::match_symbols::feature_id(id, field),
            None => Ok(format!("{lead}_{}", ctx.id)),
        };
        let near_miss_name = feature(&raw.near_miss_feature, "near_miss_feature", "near_miss")?;
        let natural_name = feature(&raw.natural_feature, "natural_feature", "natural")?;
        if raw.natural_feature.is_some() && natural.is_none() {
            return Err(FieldError::new(
                "natural_feature",
                "names the natural's feature, and the spec sets no natural",
            ));
        }
        let labels = areas.iter().map(|a| ctx.label(a).to_string()).collect();
        let mut layout = Layout::new(INFO.name, areas, columns);
        let natural_id = layout.features.add(
            natural_name,
            FeatureKind::Winning,
            "a card_total hand winning by a natural (an ace and a ten or figure)",
            "une main gagnante par un blackjack (un as et un dix ou une figure)",
        );
        // As the pay legend prints it: « Natural (ace + ten or figure) », « Blackjack (…) ».
        layout
            .features
            .call(natural_id, "a natural", "un blackjack");
        let near_miss_id = layout.features.add(
            near_miss_name,
            FeatureKind::NearMiss,
            "a losing card_total hand one below the dealer's total",
            "une main perdante à un point sous le total du croupier",
        );
        Ok(CardTotal {
            id: ctx.id.to_string(),
            dealer_label: ctx.label(&dealer_id).to_string(),
            layout,
            labels,
            hands,
            cards,
            dealer: raw.dealer,
            dealer_cards,
            reading: shared_hand.is_some(),
            ties: raw.ties,
            natural,
            natural_share,
            gain,
            box_amounts: raw.box_amounts,
            decoy_weights,
            near_miss,
            near_miss_id,
            natural_id,
            rank_captions,
            suit_captions,
            card_name: raw.card_name,
            deals: Mutex::new(Vec::new()),
            card_columns: Vec::new(),
        }
        .with_layout(dealer_id))
    }

    /// Face columns of one hand.
    fn per_row(&self) -> usize {
        self.cards
            + 2
            + if self.dealer == Dealer::PerHand {
                self.dealer_cards
            } else {
                0
            }
    }

    /// First column of hand `r` (0-based).
    fn base(&self, r: usize) -> usize {
        let lead = if self.dealer == Dealer::Shared {
            self.dealer_cards
        } else {
            0
        };
        lead + r * self.per_row()
    }

    /// The face columns of hand `r`'s cards.
    fn player_cols(&self, r: usize) -> std::ops::Range<usize> {
        self.base(r)..self.base(r) + self.cards
    }

    /// The face columns of the dealer's cards that hand `r` plays against.
    fn dealer_cols(&self, r: usize) -> std::ops::Range<usize> {
        match self.dealer {
            Dealer::Shared => 0..self.dealer_cards,
            Dealer::PerHand => {
                let b = self.base(r) + self.cards;
                b..b + self.dealer_cards
            }
        }
    }

    fn gain_col(&self, r: usize) -> usize {
        self.base(r) + self.per_row() - 2
    }

    /// Every card column of the surface.
    fn card_cols(&self) -> Vec<usize> {
        let mut v: Vec<usize> = Vec::new();
        if self.dealer == Dealer::Shared {
            v.extend(0..self.dealer_cards);
        }
        for r in 0..self.hands {
            v.extend(self.player_cols(r));
            if self.dealer == Dealer::PerHand {
                v.extend(self.dealer_cols(r));
            }
        }
        v
    }

    fn count(face: &Face, cols: std::ops::Range<usize>) -> Count {
        Count::of(&face.codes[cols])
    }

    /// Hand `p` against dealer `d`, by the rule and under every reading.
    fn judge(&self, p: Count, d: Count) -> Row {
        if p.aces == 0 && d.aces == 0 {
            return self.judge_aceless(p, d);
        }
        self.judge_read(p, d)
    }

    /// [`CardTotal::judge`] of two hands without an ace: each has one reading, its hard
    /// total, which the rule reads too (no natural, no soft total): only a tie the spec
    /// does not settle is flagged.
    fn judge_aceless(&self, p: Count, d: Count) -> Row {
        debug_assert!(p.aces == 0 && d.aces == 0);
        let rule = self.settle(by_totals(p.hard, d.hard));
        Row {
            win: rule == Some(true),
            natural: false,
            ambiguity: rule.is_none().then_some(AMB_TIE),
            near: rule == Some(false) && p.hard <= 21 && d.hard <= 21 && p.hard + 1 == d.hard,
        }
    }

    /// Whether `o` wins (`Some(true)`), loses (`Some(false)`), or is a tie the spec does
    /// not settle (`None`), under the spec's rule for ties.
    fn settle(&self, o: Outcome) -> Option<bool> {
        match (o, self.ties) {
            (Outcome::Win, _) | (Outcome::Tie, Ties::Win) => Some(true),
            (Outcome::Lose, _) | (Outcome::Tie, Ties::Lose) => Some(false),
            (Outcome::Tie, Ties::Never) => None,
        }
    }

    /// [`CardTotal::judge`] of any two hands: by the rule, then under every reading.
    fn judge_read(&self, p: Count, d: Count) -> Row {
        let rule = self.settle(rule_outcome(p, d, self.natural.is_some()));
        let mut ambiguity = rule.is_none().then_some(AMB_TIE);
        // A natural against a 21 of more cards: a blackjack player and the letter may differ.
        let plain_21 = |c: Count| !c.natural && !c.bust() && c.total() == 21;
        if ambiguity.is_none() && ((p.natural && plain_21(d)) || (d.natural && plain_21(p))) {
            ambiguity = Some(AMB_READING);
        }
        'readings: for pr in p.readings() {
            for dr in d.readings() {
                let naive = self.settle(by_totals(pr, dr));
                if naive != rule && ambiguity.is_none() {
                    ambiguity = Some(if naive.is_none() {
                        AMB_TIE
                    } else {
                        AMB_READING
                    });
                    break 'readings;
                }
            }
        }
        let natural = rule == Some(true) && p.natural && !d.natural && self.natural.is_some();
        let dealer_total = if d.natural { 21 } else { d.total() };
        let near = rule == Some(false) && !p.bust() && !d.bust() && p.total() + 1 == dealer_total;
        Row {
            win: rule == Some(true),
            natural,
            ambiguity,
            near,
        }
    }

    /// What a win of `amount` can show on a hand.
    fn pay(&self, amount: Money) -> Pay {
        let plain = self
            .box_amounts
            .contains(&amount)
            .then(|| self.gain.code(amount))
            .flatten();
        let natural = match self.natural {
            Some(Natural::Prize(p)) if p == amount => self.gain.code(p),
            Some(Natural::Times(m)) => self
                .box_amounts
                .iter()
                .find(|b| b.checked_mul(u64::from(m)) == Some(amount))
                .and_then(|&b| self.gain.code(b)),
            _ => None,
        };
        Pay { plain, natural }
    }

    /// At most one win per hand, each payable; fixed hands distinct; few enough naturals.
    fn check_way(&self, way: &Way) -> Result<(), Refusal> {
        if way.wins.len() > self.hands {
            return Err(Refusal::TooManyWins {
                area: self.id.clone(),
                wins: way.wins.len(),
                most: self.hands,
                why: "one win per hand",
            });
        }
        let mut seen = [false; MAX_HANDS];
        let mut forced = 0;
        for w in &way.wins {
            let pay = self.pay(w.amount);
            if pay.plain.is_none() && pay.natural.is_none() {
                return Err(Refusal::CannotWin {
                    area: self.id.clone(),
                    amount: w.amount,
                    can: self.can_win(),
                });
            }
            if pay.plain.is_none() {
                if self.reading {
                    return Err(Refusal::CannotWin {
                        area: self.id.clone(),
                        amount: w.amount,
                        can: format!(
                            "{}; only a natural pays it, and a surface reading a shared dealer \
                             never needs one (the deck's four aces are dealt to every reader)",
                            self.can_win()
                        ),
                    });
                }
                forced += 1;
            }
            if let Some(a) = w.area {
                if usize::from(a) >= self.hands {
                    return Err(Refusal::NoSuchArea { area: a });
                }
                if seen[usize::from(a)] {
                    return Err(Refusal::SameArea {
                        area: self.layout.areas[usize::from(a)].clone(),
                    });
                }
                seen[usize::from(a)] = true;
            }
        }
        if forced > MAX_NATURALS {
            return Err(Refusal::TooManyWins {
                area: self.id.clone(),
                wins: forced,
                most: MAX_NATURALS,
                why: "naturals: a deck has four aces",
            });
        }
        Ok(())
    }

    /// Checks `way` ([`CardTotal::check_way`]), then deals [`DEAL_SAMPLES`] faces of it
    /// against dealers of each total of [`DEALER_TOTALS`] (the dealer of the surface, or
    /// each dealer per hand in turn, at that total; the others by the law), from a fixed
    /// stream, and refuses the way ([`Refusal::CannotDeal`]) when more than three quarters
    /// of them run out of the cards a hand needs against some total. Every want is
    /// reachable against every dealer the law deals, but many hands of three cards may
    /// need more low cards than the deck holds; the drawer tries the hands
    /// [`MAX_ATTEMPTS`] times against the same dealers, so a dealer is dealt again for a way
    /// that passes with odds below (3/4)^64, and its law stays the same on every way.
    fn check_deals(&self, way: &Way) -> Result<(), Refusal> {
        self.check_way(way)?;
        let mut deals = self.deals.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, checked)) = deals.iter().find(|(wins, _)| *wins == way.wins) {
            return checked.clone();
        }
        let checked = self.sample_deals(way);
        deals.push((way.wins.clone(), checked.clone()));
        checked
    }

    /// [`CardTotal::check_deals`]'s sampling of a way the surface can carry.
    fn sample_deals(&self, way: &Way) -> Result<(), Refusal> {
        use rand_core::SeedableRng;
        let mut rng = FaceRng::seed_from_u64(0);
        for total in DEALER_TOTALS {
            let (mut fails, mut dealt_faces) = (0, 0);
            for s in 0..DEAL_SAMPLES {
                if (dealt_faces - fails) * 4 >= DEAL_SAMPLES {
                    // A quarter dealt: the total passes.
                    break;
                }
                let fixed = s % self.dealers();
                let mut given = Face::zeroed(self.layout.columns.len());
                let mut used = 0u64;
                let mut dealt = true;
                for r in std::iter::once(fixed).chain((0..self.dealers()).filter(|&r| r != fixed)) {
                    let d = (0..HAND_TRIES).find_map(|_| {
                        if r == fixed {
                            plain_hand(&mut rng, self.dealer_cards, total, used)
                        } else {
                            draw_dealer(&mut rng, self.dealer_cards, used)
                        }
                    });
                    let Some(d) = d else {
                        dealt = false;
                        break;
                    };
                    for (c, &card) in self.dealer_cols(r).zip(&d) {
                        given.codes[c] = card;
                        used |= 1u64 << card;
                    }
                }
                if !dealt {
                    // Dealers the law deals but rarely: nothing of the way is sampled.
                    continue;
                }
                let want = self.wants(way, None, free_aces(used), &mut rng);
                let mut face = Face::default();
                fails += usize::from(!self.try_face(&want, &given, used, &mut rng, &mut face));
                dealt_faces += 1;
            }
            if fails * 4 > DEAL_SAMPLES * 3 {
                return Err(Refusal::CannotDeal {
                    area: self.id.clone(),
                    total,
                    fails,
                    samples: DEAL_SAMPLES,
                });
            }
        }
        Ok(())
    }

    /// What a hand can win, in words.
    fn can_win(&self) -> String {
        let list = |v: &[Money]| {
            v.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self.natural {
            None => format!(
                "a hand wins one of its box_amounts ({})",
                list(&self.box_amounts)
            ),
            Some(Natural::Times(m)) => format!(
                "a hand wins one of its box_amounts ({}), or {m} times one with a natural",
                list(&self.box_amounts)
            ),
            Some(Natural::Prize(p)) => format!(
                "a hand wins one of its box_amounts ({}), or {p} with a natural",
                list(&self.box_amounts)
            ),
        }
    }

    /// Whether a face of `way` can be asked to show feature `id` (one of [`Style::features`]).
    fn can_show(&self, way: &Way, id: FeatureId) -> Result<(), Refusal> {
        let feature = self.layout.features.name(id).to_string();
        if id == self.near_miss_id && self.near_miss > 0 {
            if way.wins.len() >= self.hands {
                return Err(Refusal::NeedsLosing {
                    feature,
                    needs: format!("a losing hand of « {} »", self.id),
                    way: way.id.clone(),
                });
            }
            return Ok(());
        }
        if id == self.natural_id && self.natural.is_some() {
            if !way
                .wins
                .iter()
                .any(|w| self.pay(w.amount).natural.is_some())
            {
                return Err(Refusal::CannotShow {
                    feature,
                    way: way.id.clone(),
                    why: "none of its wins is an amount a natural pays".into(),
                });
            }
            return Ok(());
        }
        Err(Refusal::NoFeature {
            style: INFO.name,
            feature,
        })
    }

    fn always_shows(&self, way: &Way) -> Vec<FeatureId> {
        let mut v = Vec::new();
        if self.near_miss == 1_000_000 && way.wins.len() < self.hands {
            v.push(self.near_miss_id);
        }
        let forced = |w: &crate::lots::Win| {
            let p = self.pay(w.amount);
            p.plain.is_none() || (p.natural.is_some() && self.natural_share == 1_000_000)
        };
        if way.wins.iter().any(forced) {
            v.push(self.natural_id);
        }
        v
    }

    /// What each hand must show: the wins placed on hands (fixed ones first, the free ones
    /// drawn among the rest), each paid plainly or by a natural; the losing hands near
    /// misses at the spec's rate (one at least when `show` asks for it).
    /// `aces`: the aces left in the deck for naturals (four unless a shared dealer's readers
    /// dealt some already).
    fn wants(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        aces: usize,
        rng: &mut FaceRng,
    ) -> ArrayVec<Want, MAX_HANDS> {
        let mut rows: ArrayVec<Option<Money>, MAX_HANDS> = (0..self.hands).map(|_| None).collect();
        for w in way.wins.iter().filter(|w| w.area.is_some()) {
            rows[usize::from(w.area.expect("fixed"))] = Some(w.amount);
        }
        let free_rows: ArrayVec<usize, MAX_HANDS> =
            (0..self.hands).filter(|&r| rows[r].is_none()).collect();
        let free: ArrayVec<Money, MAX_WINS> = way
            .wins
            .iter()
            .filter(|w| w.area.is_none())
            .map(|w| w.amount)
            .collect();
        let picks = common::pick_few::<MAX_HANDS>(rng, free_rows.len() as u32, free.len());
        for (&a, &p) in free.iter().zip(&picks) {
            rows[free_rows[p as usize]] = Some(a);
        }
        // The hand forced to show a natural, when asked: the first that can, in a drawn order.
        let natural_asked = show == Some(self.natural_id) && self.natural.is_some() && aces > 0;
        let mut forced_natural = None;
        if natural_asked {
            let mut order: ArrayVec<usize, MAX_HANDS> = (0..self.hands).collect();
            shuffle(rng, &mut order);
            forced_natural = order
                .iter()
                .copied()
                .find(|&r| rows[r].is_some_and(|a| self.pay(a).natural.is_some()));
        }
        let mut naturals = 0;
        let mut want: ArrayVec<Want, MAX_HANDS> = ArrayVec::new();
        for (r, &amount) in rows.iter().enumerate() {
            want.push(match amount {
                Some(a) => {
                    let pay = self.pay(a);
                    let natural = match (pay.plain, pay.natural) {
                        (None, Some(_)) => true,
                        (Some(_), Some(_)) => {
                            let drawn = chance(rng, self.natural_share);
                            (Some(r) == forced_natural && naturals < aces)
                                || (drawn && naturals < (MAX_NATURALS - 1).min(aces))
                        }
                        _ => false,
                    };
                    naturals += usize::from(natural);
                    let code = if natural { pay.natural } else { pay.plain };
                    Want::Win {
                        code: code.expect("planned: every win is payable"),
                        natural,
                    }
                }
                None => Want::Lose,
            });
        }
        let losing: ArrayVec<usize, MAX_HANDS> =
            (0..self.hands).filter(|&r| want[r] == Want::Lose).collect();
        let forced_near = (show == Some(self.near_miss_id) && !losing.is_empty())
            .then(|| losing[below(rng, losing.len() as u32) as usize]);
        for &r in &losing {
            if Some(r) == forced_near || chance(rng, self.near_miss) {
                want[r] = Want::Near;
            }
        }
        want
    }

    /// A face of `way`. The surface's dealers' hands are dealt first, by the style's one
    /// law and before anything that depends on the way ([`CardTotal::deal_dealers`]); then
    /// every hand is built to its want against its dealer from the cards left in the deck
    /// and judged at once ([`CardTotal::draw_dealt`]). Every want is reachable against
    /// every dealer the law deals, but a deck short of the values a hand needs fails an
    /// attempt: the hands are drawn again, and after [`MAX_ATTEMPTS`] failures the dealers
    /// too. With at most [`MAX_SURFACE_CARDS`] of the 52 cards on a surface that is rare,
    /// and [`MAX_ATTEMPTS`] failed deals of the dealers in a row is a bug.
    ///
    /// A surface reading a shared dealer's hand deals that hand as the ticket's game does.
    /// The face is drawn into `face`, whatever it held.
    fn draw(&self, way: &Way, show: Option<FeatureId>, rng: &mut FaceRng, face: &mut Face) {
        let drawn = (0..MAX_ATTEMPTS).any(|_| {
            self.deal_dealers(rng)
                .is_some_and(|given| self.draw_dealt(way, show, &given, 0, rng, face))
        });
        if !drawn {
            self.no_face(way)
        }
    }

    /// The surface's dealers' hands on an otherwise empty face: the one dealer of the
    /// surface (or the shared dealer it reads) or one beside each hand, in hand order,
    /// each drawn by [`draw_dealer`] from the cards the dealers before it left. Nothing in
    /// it depends on the ticket's way. `None` when the cards left deal no hand of the
    /// totals drawn in [`HAND_TRIES`] tries (dealers per hand only: the first dealer is
    /// dealt from a full deck).
    fn deal_dealers(&self, rng: &mut FaceRng) -> Option<Face> {
        let mut face = Face::zeroed(self.layout.columns.len());
        let mut used = 0u64;
        for r in 0..self.dealers() {
            let d = (0..HAND_TRIES).find_map(|_| draw_dealer(rng, self.dealer_cards, used))?;
            for (c, &card) in self.dealer_cols(r).zip(&d) {
                face.codes[c] = card;
                used |= 1u64 << card;
            }
        }
        Some(face)
    }

    /// How many dealers' hands the surface prints (or reads): one, or one per hand.
    fn dealers(&self) -> usize {
        match self.dealer {
            Dealer::Shared => 1,
            Dealer::PerHand => self.hands,
        }
    }

    /// A face of `way` against the dealers' hands `given` shows, the hands dealt from the
    /// deck less the dealers' cards and `dealt` (the cards other surfaces show when the
    /// surface reads a shared dealer's hand, bit `c` for card `c`). Every planned way is
    /// reachable against every hand [`draw_dealer`] deals (see [`super::shared`]), but the
    /// cards already dealt may leave too few of the values a hand needs: false after
    /// [`MAX_ATTEMPTS`] attempts, and the dealers are dealt again (with a shared dealer's
    /// hand, the whole ticket). The face is drawn into `face`, whatever it held.
    fn draw_dealt(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        given: &Face,
        dealt: u64,
        rng: &mut FaceRng,
        face: &mut Face,
    ) -> bool {
        let used = (0..self.dealers())
            .flat_map(|r| self.dealer_cols(r))
            .fold(dealt, |u, c| u | 1u64 << given.codes[c]);
        let want = self.wants(way, show, free_aces(used), rng);
        (0..MAX_ATTEMPTS).any(|_| self.try_face(&want, given, used, rng, face))
    }

    /// No face of `way` in [`MAX_ATTEMPTS`] deals of the dealers, each followed by
    /// [`MAX_ATTEMPTS`] attempts at the hands: a bug, since every way is reachable against
    /// every dealer the law deals.
    fn no_face(&self, way: &Way) -> ! {
        panic!(
            "card_total « {} »: no face for way {} in {MAX_ATTEMPTS} attempts: a bug",
            self.id, way.id
        );
    }

    /// One attempt at a face showing `want` against the dealers' hands `given` shows;
    /// `used` holds their cards and every card already dealt on the ticket. Drawn into
    /// `face`, whatever it held; false when the cards left cannot build a hand (`face` then
    /// holds no face to use).
    fn try_face(
        &self,
        want: &[Want],
        given: &Face,
        used: u64,
        rng: &mut FaceRng,
        face: &mut Face,
    ) -> bool {
        face.reset(self.layout.columns.len());
        let mut used = used;
        for r in 0..self.dealers() {
            for c in self.dealer_cols(r) {
                face.codes[c] = given.codes[c];
            }
        }
        for (r, &w) in want.iter().enumerate() {
            let d = Self::count(face, self.dealer_cols(r));
            // A reader's soft hand takes an ace only where one is left for every natural
            // still to deal (the ticket's other surfaces took theirs already).
            let naturals_after = want[r + 1..]
                .iter()
                .filter(|w| matches!(w, Want::Win { natural: true, .. }))
                .count();
            let spare_ace = !self.reading || free_aces(used) > naturals_after;
            let Some(hand) = self.player_hand(w, d, spare_ace, rng, &mut used) else {
                return false;
            };
            for (c, &card) in self.player_cols(r).zip(&hand) {
                face.codes[c] = card;
            }
            let code = match w {
                Want::Win { code, .. } => code,
                _ => weighted(rng, &self.decoy_weights) as u8,
            };
            let g = self.gain_col(r);
            self.gain.show(face, g, g + 1, code);
        }
        true
    }

    /// A player hand showing `want` against dealer `d`, a hand [`draw_dealer`] deals (no
    /// ace, a total of [`DEALER_TOTALS`]), judged before it is kept: a win by a natural or
    /// by a higher total up to 20 (21 with three cards; the dealer's own where a tie
    /// wins), a near miss one below, a loss at least two below (or bust with three cards,
    /// or tied where a tie loses).
    fn player_hand(
        &self,
        want: Want,
        d: Count,
        spare_ace: bool,
        rng: &mut FaceRng,
        used: &mut u64,
    ) -> Option<ArrayVec<Card, 3>> {
        let dt = d.total();
        debug_assert!(d.aces == 0 && DEALER_TOTALS.contains(&dt), "{d:?}");
        let lo = 2 * self.cards as u8;
        let top = if self.cards == 2 { 20 } else { 21 };
        for _ in 0..HAND_TRIES {
            let hand = match want {
                Want::Win { natural: true, .. } => natural_hand(rng, *used),
                Want::Win { .. } => {
                    let from = if self.ties == Ties::Win { dt } else { dt + 1 };
                    let t = from + below(rng, u32::from(top - from + 1)) as u8;
                    plain_hand(rng, self.cards, t, *used)
                }
                Want::Near => self.soft_or_plain(rng, dt - 1, *used, spare_ace),
                Want::Lose => {
                    let roll = below(rng, 6);
                    if self.cards == 3 && roll == 0 {
                        // A bust of three cards.
                        let t = 22 + below(rng, 7) as u8;
                        plain_hand(rng, self.cards, t, *used)
                    } else if self.ties == Ties::Lose && roll == 1 {
                        plain_hand(rng, self.cards, dt, *used)
                    } else {
                        let t = lo + below(rng, u32::from(dt - 1 - lo)) as u8;
                        self.soft_or_plain(rng, t, *used, spare_ace)
                    }
                }
            };
            let Some(h) = hand else { continue };
            debug_assert!(h.iter().all(|&c| *used & (1u64 << c) == 0));
            let row = self.judge(Count::of(&h), d);
            let fits = match want {
                Want::Win { natural, .. } => row.win && row.natural == natural,
                Want::Lose => !row.win && !row.near,
                Want::Near => row.near,
            };
            if fits && row.ambiguity.is_none() {
                for &c in &h {
                    *used |= 1u64 << c;
                }
                return Some(h);
            }
        }
        None
    }

    /// A losing hand of total `t`: now and then a soft two-card hand (an ace and `t − 11`)
    /// whose every reading loses too, where `spare_ace` allows one; else cards of no ace.
    fn soft_or_plain(
        &self,
        rng: &mut FaceRng,
        t: u8,
        used: u64,
        spare_ace: bool,
    ) -> Option<ArrayVec<Card, 3>> {
        if self.cards == 2 && (13..=20).contains(&t) && spare_ace && below(rng, 3) == 0 {
            let ace = pick_of_values(rng, 1, used)?;
            let other = pick_of_values(rng, t - 11, used | (1u64 << ace))?;
            let mut h: ArrayVec<Card, 3> = [ace, other].into_iter().collect();
            shuffle(rng, &mut h);
            return Some(h);
        }
        plain_hand(rng, self.cards, t, used)
    }
}

/// A dealer's hand by the style's one law, the same for every dealer of every surface
/// (a surface's own, one beside each hand, or a `[[shared]] kind = "hand"` read by several
/// surfaces, [`super::shared`]): `n` cards (2 or 3) of no ace, their total drawn uniformly
/// from [`DEALER_TOTALS`], then each card as `plain_hand` draws them, from the cards not in
/// `used`. The law never depends on a ticket's way: a dealer is never a natural, never
/// bust and never soft, and every want of a hand is reachable against it. `None` when the
/// cards left deal no hand of the total drawn (never from a full deck).
pub fn draw_dealer(rng: &mut FaceRng, n: usize, used: u64) -> Option<ArrayVec<Card, 3>> {
    let lo = *DEALER_TOTALS.start();
    let t = lo + below(rng, u32::from(DEALER_TOTALS.end() - lo + 1)) as u8;
    plain_hand(rng, n, t, used)
}

/// The aces not in `used`.
fn free_aces(used: u64) -> usize {
    (0..4)
        .filter(|&s| used & (1u64 << card(12, s)) == 0)
        .count()
}

/// A random card of value `v` (1 for an ace, 10 for a ten or a figure) not in `used`: the
/// `k`-th left of its cards in increasing code order, `k` drawn below their number. Cards of
/// a value hold consecutive codes (`rank * 4 + suit`), read from `used` as one bit field.
fn pick_of_values(rng: &mut FaceRng, v: u8, used: u64) -> Option<Card> {
    let (first, cards) = match v {
        1 => (card(12, 0), 4),
        10 => (card(8, 0), 16),
        2..=9 => (card(v - 2, 0), 4),
        _ => return None,
    };
    let free = (!used >> first) & ((1u64 << cards) - 1);
    if free == 0 {
        return None;
    }
    let k = below(rng, free.count_ones());
    Some(first + common::nth_set_bit(free, k).expect("k below the count") as Card)
}

/// `n` cards of no ace totalling `t`, in a drawn order, from the cards not in `used`.
fn plain_hand(rng: &mut FaceRng, n: usize, t: u8, used: u64) -> Option<ArrayVec<Card, 3>> {
    let n8 = n as u8;
    if t < 2 * n8 || t > 10 * n8 {
        return None;
    }
    let mut left = t;
    let mut used = used;
    let mut hand: ArrayVec<Card, 3> = ArrayVec::new();
    for i in 0..n8 {
        let after = n8 - i - 1;
        let v = if after == 0 {
            left
        } else {
            let lo = left.saturating_sub(10 * after).max(2);
            let hi = (left - 2 * after).min(10);
            lo + below(rng, u32::from(hi - lo + 1)) as u8
        };
        let c = pick_of_values(rng, v, used)?;
        used |= 1u64 << c;
        hand.push(c);
        left -= v;
    }
    shuffle(rng, &mut hand);
    Some(hand)
}

/// A natural (an ace and a ten or figure, in a drawn order) from the cards not in `used`.
fn natural_hand(rng: &mut FaceRng, used: u64) -> Option<ArrayVec<Card, 3>> {
    let ace = pick_of_values(rng, 1, used)?;
    let ten = pick_of_values(rng, 10, used | (1u64 << ace))?;
    let mut h: ArrayVec<Card, 3> = [ace, ten].into_iter().collect();
    shuffle(rng, &mut h);
    Some(h)
}

/// The presentation of the style, computed once by its constructor.
impl CardTotal {
    /// `self` with its layout completed: card inscriptions, panels, printed lines, shown
    /// amounts and description.
    fn with_layout(mut self, dealer_id: String) -> Self {
        let names: Vec<String> = (0..52).map(|c| self.inscription(c)).collect();
        self.card_columns = self.card_cols();
        for &c in &self.card_columns {
            self.layout.columns[c].inscriptions = names.clone();
        }
        self.layout.shown_amounts = self.gain.amounts().to_vec();
        if self.reading {
            self.layout.reads = self.dealer_cols(0).collect();
            self.layout.deals = (0..self.hands).flat_map(|r| self.player_cols(r)).collect();
        }
        self.layout.panels = self.panels(&dealer_id);
        self.layout.printed = self.printed(&dealer_id);
        self.layout.description = self.describe();
        self
    }

    /// A card's inscription (`card_name` with its rank and suit in letters).
    fn inscription(&self, c: Card) -> String {
        self.card_name
            .replace("{rank}", &self.rank_captions[rank(c) as usize])
            .replace("{suit}", &self.suit_captions[suit(c) as usize])
    }

    fn panels(&self, dealer_id: &str) -> Vec<Panel> {
        let mut v = Vec::new();
        // A shared element's panel is the game's, printed once for all its readers.
        if self.dealer == Dealer::Shared && !self.reading {
            v.push(Panel {
                id: dealer_id.to_string(),
                rows: vec![self.dealer_cols(0).collect()],
            });
        }
        for r in 0..self.hands {
            let mut rows = vec![self.player_cols(r).collect::<Vec<_>>()];
            if self.dealer == Dealer::PerHand {
                rows.push(self.dealer_cols(r).collect());
            }
            rows.push(vec![self.gain_col(r)]);
            v.push(Panel {
                id: self.layout.areas[r].clone(),
                rows,
            });
        }
        v
    }

    /// The rule as the ticket prints it, with the dealer (shared) or with each hand.
    fn printed(&self, dealer_id: &str) -> Vec<Printed> {
        let mut lines = vec![PrintedLine::of(vec![Phrase::BeatTheDealer])];
        match self.natural {
            Some(Natural::Times(m)) => lines.push(PrintedLine::of(vec![Phrase::NaturalTimes(m)])),
            Some(Natural::Prize(p)) => lines.push(PrintedLine::of(vec![Phrase::NaturalPays(p)])),
            None => {}
        }
        match self.ties {
            Ties::Never => {}
            Ties::Lose => lines.push(PrintedLine::of(vec![Phrase::Tie { wins: false }])),
            Ties::Win => lines.push(PrintedLine::of(vec![Phrase::Tie { wins: true }])),
        }
        let panels: Vec<String> = match self.dealer {
            // Each reader of a shared dealer prints its rule with its first hand.
            Dealer::Shared if self.reading => vec![self.layout.areas[0].clone()],
            Dealer::Shared => vec![dealer_id.to_string()],
            Dealer::PerHand => self.layout.areas.clone(),
        };
        panels
            .into_iter()
            .map(|panel| Printed {
                panel,
                lines: lines.clone(),
            })
            .collect()
    }

    fn describe(&self) -> Vec<String> {
        let against = match self.dealer {
            Dealer::Shared if self.reading => format!(
                "the shared dealer's hand « {} » ({} cards, which other surfaces' hands play \
                 against too; the ticket's cards all come from one deck)",
                self.dealer_label, self.dealer_cards
            ),
            Dealer::Shared => format!(
                "the dealer's hand « {} » ({} cards, shared by every hand)",
                self.dealer_label, self.dealer_cards
            ),
            Dealer::PerHand => format!("its own dealer's hand of {} cards", self.dealer_cards),
        };
        let mut v: Vec<String> = self
            .labels
            .iter()
            .map(|l| {
                format!(
                    "« {l} » ({} cards) wins the amount in its GAIN when it is not over 21 and \
                     {against} is over 21 or lower.",
                    self.cards
                )
            })
            .collect();
        v.push(
            "Counts: 2 to 10 at their rank, a figure 10, an ace 1 or 11 (the highest total not \
             over 21); a hand over 21 with every ace at 1 is bust. A hand whose outcome would \
             change with an ace counted 1 instead of 11, or the other way, is never printed."
                .into(),
        );
        v.push(format!(
            "Every dealer's hand is dealt first, whatever the ticket's prize: {} cards of no \
             ace, a total of {} to {}, each as likely. The rule would judge a bust, soft or \
             natural dealer; none is printed.",
            self.dealer_cards,
            DEALER_TOTALS.start(),
            DEALER_TOTALS.end()
        ));
        v.push(match self.natural {
            None => "No natural: a two-card 21 is a 21 like any other, and never meets a 21 of \
                     more cards."
                .into(),
            Some(Natural::Times(m)) => format!(
                "A natural (two cards: an ace and a ten or figure) beats every dealer's hand but \
                 a natural and wins {m} times its GAIN; it never meets a 21 of more cards \
                 (feature {}; on {:.2}% of the wins a natural may pay).",
                self.layout.features.name(self.natural_id),
                f64::from(self.natural_share) / 1e4
            ),
            Some(Natural::Prize(p)) => format!(
                "A natural (two cards: an ace and a ten or figure) beats every dealer's hand but \
                 a natural and wins {p}, shown in its GAIN; it never meets a 21 of more cards \
                 (feature {}; on {:.2}% of the wins of {p} where a plain hand could pay).",
                self.layout.features.name(self.natural_id),
                f64::from(self.natural_share) / 1e4
            ),
        });
        v.push(
            match self.ties {
                Ties::Never => "A tie (push) is never printed.",
                Ties::Lose => "A tie (push) loses.",
                Ties::Win => "A tie (push) wins the GAIN.",
            }
            .into(),
        );
        v.push(format!(
            "Box amounts: {}; a losing hand's box shows a decoy.",
            self.gain
                .amounts()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let mut others = vec!["at least two below"];
        if self.cards == 3 {
            others.push("bust");
        }
        if self.ties == Ties::Lose {
            others.push("tied");
        }
        v.push(format!(
            "Near miss {} (a losing hand one below the dealer's total, an 18 against 19) on \
             {:.2}% of losing hands; every other losing hand is {}.",
            self.layout.features.name(self.near_miss_id),
            f64::from(self.near_miss) / 1e4,
            others.join(" or ")
        ));
        v
    }
}

impl Style for CardTotal {
    fn layout(&self) -> &Layout {
        &self.layout
    }

    /// A surface reading a shared dealer's hand also draws given it and the cards already
    /// dealt ([`Plan::draw_beside`]).
    fn plan(self: Arc<Self>, way: &Way) -> Result<Plan, Refusal> {
        let reader = self.reading.then(|| Arc::clone(&self));
        let plan = Plan::of_checked_way(
            self,
            way,
            Self::check_deals,
            Self::can_show,
            Self::always_shows,
            Self::draw,
        )?;
        Ok(match reader {
            Some(s) => {
                let w = way.clone();
                plan.with_dealt(move |show, given, dealt, rng, face| {
                    s.draw_dealt(&w, show, given, dealt, rng, face)
                })
            }
            None => plan,
        })
    }

    fn features(&self) -> Vec<FeatureId> {
        let mut v = Vec::new();
        if self.natural.is_some() {
            v.push(self.natural_id);
        }
        if self.near_miss > 0 {
            v.push(self.near_miss_id);
        }
        v
    }

    fn marks(&self, _face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let mut out = Vec::new();
        for r in 0..self.hands {
            let area = r as u8;
            // The hand's cards, never the dealer's: the dealer's cards are what a hand is
            // compared with, and a proof marking them « winning » would say the bank wins.
            let cells: Vec<usize> = self.player_cols(r).collect();
            let mut mark = |column: usize, kind: MarkKind| out.push(Mark { area, column, kind });
            if ev.wins.iter().any(|w| w.area == area) {
                for &c in &cells {
                    mark(c, MarkKind::Win);
                }
                mark(self.gain_col(r), MarkKind::Win);
            } else {
                let near = ev
                    .losing_features
                    .iter()
                    .any(|f| f.area == area && f.id == self.near_miss_id);
                if near {
                    for &c in &cells {
                        mark(c, MarkKind::NearMiss);
                    }
                }
                mark(self.gain_col(r), MarkKind::Decoy);
            }
        }
        out
    }

    fn evaluate_into(&self, face: &Face, ev: &mut Evaluation) {
        ev.clear();
        let mut seen = 0u64;
        for &c in &self.card_columns {
            let code = face.codes[c];
            if code >= 52 || seen & (1u64 << code) != 0 {
                if !ev.ambiguities.contains(&AMB_DUPLICATE) {
                    ev.ambiguities.push(AMB_DUPLICATE);
                }
            } else {
                seen |= 1u64 << code;
            }
        }
        for r in 0..self.hands {
            let area = r as u8;
            let p = Self::count(face, self.player_cols(r));
            let d = Self::count(face, self.dealer_cols(r));
            let row = self.judge(p, d);
            if let Some(a) = row.ambiguity {
                ev.ambiguities.push(a);
            }
            let shown = self.gain.amount(face.codes[self.gain_col(r)]);
            if row.win {
                let amount = match (row.natural, self.natural) {
                    (true, Some(Natural::Times(m))) => {
                        shown.checked_mul(u64::from(m)).unwrap_or(shown)
                    }
                    (true, Some(Natural::Prize(p))) => {
                        if shown != p {
                            ev.ambiguities.push(AMB_NATURAL_BOX);
                        }
                        p
                    }
                    _ => shown,
                };
                let _ = ev.wins.try_push(AreaWin { area, amount });
                if row.natural {
                    let _ = ev.features.try_push(AreaFeature {
                        area,
                        id: self.natural_id,
                    });
                }
            } else if row.near {
                let _ = ev.losing_features.try_push(AreaFeature {
                    area,
                    id: self.near_miss_id,
                });
            }
        }
    }
}

fn build(table: toml::Table, ctx: &StyleCtx) -> Result<Box<dyn Style>, FieldError> {
    Ok(Box::new(CardTotal::new(style::parse(table)?, ctx)?))
}

/// The card_total style's entry in the library.
pub static INFO: StyleInfo = StyleInfo {
    name: "card_total",
    term: "beat the dealer with cards / blackjack, 21 (add up yours against theirs)",
    about: "Player hands of cards, each with an amount box, against a dealer's hand (one for \
            the surface, one per hand, or one shared with other surfaces). Cards count their rank, a figure 10, an ace 1 or 11 \
            (the highest total not over 21); a hand over 21 is bust. A hand wins its amount \
            when it is not bust and the dealer's is bust or lower; an optional natural (a \
            two-card 21) beats all but a natural and pays as the spec says; a tie is never \
            printed, loses or wins, as the spec says. Each hand is a play area.",
    naive: "A player adds up each hand and the dealer's, may count any ace 1 or 11 (without \
            going over 21) and reads a natural as 21: no face shows a hand whose outcome would \
            change with such a reading (a soft hand appears only where counting its ace 1 or \
            11 changes nothing), a natural never meets a 21 of more cards, no card shows twice, \
            and no tie is printed unless the spec says how it pays.",
    columns: "{id}_d{i} (shared dealer), then per hand r: {id}_h{r}_c{i}, {id}_h{r}_d{i} (dealer per hand), {id}_h{r}_gain, {id}_h{r}_caption; cards as Ah Td 7s",
    params: &[
        Param { name: "hands", kind: "integer", default: None, about: "player hands (play areas), 1 to 8" },
        Param { name: "cards", kind: "integer", default: Some("2"), about: "cards per player hand, 2 or 3" },
        Param { name: "dealer", kind: "string", default: Some("\"shared\""), about: "\"shared\": one dealer's hand for the surface; \"per_hand\": one beside each hand" },
        Param { name: "dealer_cards", kind: "integer", default: Some("2"), about: "cards in a dealer's hand, 2 or 3 (left out when the surface reads a shared dealer's hand, which gives its count)" },
        Param { name: "ties", kind: "string", default: Some("\"never\""), about: "a tie (push): \"never\" printed, \"lose\" or \"win\"" },
        Param { name: "natural", kind: "table {multiplier | prize, share}", default: Some("none"), about: "a two-card 21 beats all but a natural and wins its GAIN times multiplier, or prize (shown in its GAIN); share: of the wins either could pay, those shown as a natural (needs cards = 2)" },
        Param { name: "box_amounts", kind: "array of amounts", default: None, about: "amounts a hand's GAIN may show; every plain win is one of them" },
        Param { name: "decoy_weights", kind: "table amount → weight", default: None, about: "weight of each amount in the GAIN of a losing hand" },
        Param { name: "near_miss", kind: "share", default: Some("0"), about: "share of losing hands one below the dealer's total (exact: the others are at least two below, bust, or tied where a tie loses)" },
        Param { name: "near_miss_feature", kind: "string", default: Some("\"near_miss_<id>\""), about: "the near miss's feature id" },
        Param { name: "natural_feature", kind: "string", default: Some("\"natural_<id>\""), about: "the natural's feature id" },
        Param { name: "areas", kind: "array of strings", default: Some("[\"{id}_h1\", …]"), about: "the play areas' ids, one per hand" },
        Param { name: "dealer_id", kind: "string", default: Some("\"{id}_dealer\""), about: "panel id ([labels] key) of the shared dealer's hand" },
        Param { name: "rank_names", kind: "array of 13 strings", default: None, about: "the ranks 2 … ace as printed" },
        Param { name: "suit_names", kind: "array of 4 strings", default: None, about: "the suits c d h s as printed" },
        Param { name: "card_name", kind: "string", default: Some("\"{rank} OF {suit}\""), about: "how a card's inscription is written" },
    ],
    example: r#"[[surfaces]]
style = "card_total"
id = "bj"
hands = 5
dealer = "shared"
ties = "never"
natural = { multiplier = 2, share = 0.2 }
box_amounts = [1, 2, 5, 10, 100]
near_miss = 0.2
rank_names = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "VALET", "DAME", "ROI", "AS"]
suit_names = ["TREFLE", "CARREAU", "COEUR", "PIQUE"]
card_name = "{rank} DE {suit}"
[surfaces.decoy_weights]
"1" = 5
"2" = 4
"5" = 3
"10" = 2
"100" = 1
"#,
    build,
};

#[cfg(test)]
mod tests;
