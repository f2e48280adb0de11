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

use super::common::{self, AmountBox};
use super::style::{self, FieldError, Param, StyleCtx, StyleInfo};
use super::{
    AreaFeature, AreaWin, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureInfo, FeatureKind,
    Mark, MarkKind, Panel, Style,
};
use crate::crypto::rng::{below, below_mixed, shuffle, weighted, Weights};
use crate::lots::Way;
use crate::money::Money;
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Rank characters in ascending order (2 … 10, J, Q, K, A), as written in files.
pub const RANK_CHARS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
/// Suit characters (clubs, diamonds, hearts, spades).
pub const SUIT_CHARS: [char; 4] = ['c', 'd', 'h', 's'];
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

/// A card code, `rank * 4 + suit` (see the module doc).
pub type Card = u8;

/// The card of `rank` (`0..13`, 2 to ace) and `suit` (`0..4`, `cdhs`).
pub const fn card(rank: u8, suit: u8) -> Card {
    rank * 4 + suit
}

/// Rank of `c`: `0..13` for 2 … ace.
pub const fn rank(c: Card) -> u8 {
    c / 4
}

/// Suit of `c`: `0..4` for `cdhs`.
pub const fn suit(c: Card) -> u8 {
    c % 4
}

/// The standard two-character code of `c` (`Ah`, `Td`). Panics if `c >= 52`.
pub fn card_code(c: Card) -> String {
    format!(
        "{}{}",
        RANK_CHARS[rank(c) as usize],
        SUIT_CHARS[suit(c) as usize]
    )
}

/// Parses a standard two-character code (`Ah`, `Td`; rank upper case, suit lower case).
pub fn parse_card(s: &str) -> Option<Card> {
    let mut it = s.chars();
    let (r, su) = (it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    let r = RANK_CHARS.iter().position(|&x| x == r)? as u8;
    let su = SUIT_CHARS.iter().position(|&x| x == su)? as u8;
    Some(card(r, su))
}

/// The combinations this engine can judge and build, in ascending order (the standard
/// poker order, the carried part of the catalogue). A spec lists an ascending subset of
/// them, each under its own id and printed name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Combination {
    /// `pair`: two cards of the same rank.
    Pair,
    /// `three_of_a_kind`: three cards of the same rank.
    ThreeOfAKind,
    /// `straight` with `not_flush`: five consecutive ranks (ace high only), not all of one
    /// suit.
    Straight,
    /// `flush` with `not_straight`: five cards of one suit, not consecutive.
    Flush,
    /// `four_of_a_kind`: four cards of the same rank.
    FourOfAKind,
    /// `royal_flush`: 10, J, Q, K, A of one suit.
    RoyalFlush,
}

/// Every kind of the catalogue, in ascending order, and whether this engine carries it.
pub const CATALOGUE: [(&str, Option<Combination>); 9] = [
    ("pair", Some(Combination::Pair)),
    ("two_pair", None),
    ("three_of_a_kind", Some(Combination::ThreeOfAKind)),
    ("straight", Some(Combination::Straight)),
    ("flush", Some(Combination::Flush)),
    ("full_house", None),
    ("four_of_a_kind", Some(Combination::FourOfAKind)),
    ("straight_flush", None),
    ("royal_flush", Some(Combination::RoyalFlush)),
];

impl Combination {
    /// All six, ascending.
    pub const ALL: [Combination; 6] = [
        Combination::Pair,
        Combination::ThreeOfAKind,
        Combination::Straight,
        Combination::Flush,
        Combination::FourOfAKind,
        Combination::RoyalFlush,
    ];

    /// The catalogue's name of the kind (`pair`, `three_of_a_kind`, …).
    pub const fn kind(self) -> &'static str {
        match self {
            Combination::Pair => "pair",
            Combination::ThreeOfAKind => "three_of_a_kind",
            Combination::Straight => "straight",
            Combination::Flush => "flush",
            Combination::FourOfAKind => "four_of_a_kind",
            Combination::RoyalFlush => "royal_flush",
        }
    }

    /// The definition, in words, as the engine judges it.
    pub const fn definition(self) -> &'static str {
        match self {
            Combination::Pair => "two cards of the same rank",
            Combination::ThreeOfAKind => "three cards of the same rank",
            Combination::Straight => "five consecutive ranks, ace high only, not all of one suit",
            Combination::Flush => "five cards of one suit, not of consecutive ranks",
            Combination::FourOfAKind => "four cards of the same rank",
            Combination::RoyalFlush => "10, jack, queen, king and ace of one suit",
        }
    }

    /// Position in [`Combination::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Bit of the kind in a set of kinds.
    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The set of every kind.
pub const ALL_KINDS: u8 = 0x3F;

/// A flag beside the kinds of a set: the straight's `ace_low = true` (A-2-3-4-5 is five
/// consecutive ranks, for the straight and for the flush's `not_straight` alike).
const ACE_LOW: u8 = 0x40;

/// A flag beside the kinds of a set: `min_community = 0`, so a zone's own two cards of one
/// rank are a pair by themselves (every other combination needs community cards anyway).
const POCKET: u8 = 0x80;

/// Both readings of one player zone (its two cards and the five community cards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ZoneReading {
    /// Best combination by the letter (the spec's combinations and usage rule): formed with at least one of the
    /// zone's cards and at least one community card; `None` for a losing zone.
    pub strict: Option<Combination>,
    /// Naive: some rank appears twice or more among the seven cards (from anywhere).
    pub pair: bool,
    /// Naive: five consecutive ranks among the seven, ace high or low (A-2-3-4-5).
    pub straight: bool,
    /// Naive: five or more cards of one suit among the seven.
    pub flush: bool,
    /// Naive best hand is a straight flush other than the royal one (A-2-3-4-5 included).
    pub straight_flush: bool,
    /// Near miss: a suit has exactly four cards among the seven, one of them the zone's own.
    pub flush_draw: bool,
    /// Near miss: four of the five ranks of some straight (ace high or low) among the seven,
    /// one of them a rank only the zone's own cards bring.
    pub straight_draw: bool,
}

impl ZoneReading {
    /// True when a naive player sees a hand of a pair or better.
    pub fn naive_wins(&self) -> bool {
        self.pair || self.straight || self.flush
    }
}

/// Rank bits of A-2-3-4-5 (ace is bit 12).
const WHEEL: u16 = 0x100F;
/// Rank bits of 10-V-D-R-A.
const ROYAL: u16 = 0x1F00;

/// Bit `i` set when ranks `i..i + 5` are all in `m` (ace-high straights only).
const fn straight_starts(m: u16) -> u16 {
    m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)
}

/// True when `m` holds five consecutive ranks, ace high or low.
const fn has_straight(m: u16) -> bool {
    straight_starts(m) != 0 || m & WHEEL == WHEEL
}

/// The ten straights' rank masks: A-2-3-4-5 and 2-6 … 10-A.
const STRAIGHTS: [u16; 10] = {
    let mut s = [0u16; 10];
    s[0] = WHEEL;
    let mut i = 0;
    while i < 9 {
        s[i + 1] = 0x1F << i;
        i += 1;
    }
    s
};

/// `WINDOWS_OF[r]`: bit `i` set when straight `STRAIGHTS[i]` holds rank `r`.
const WINDOWS_OF: [u16; 13] = {
    let mut t = [0u16; 13];
    let mut r = 0;
    while r < 13 {
        let mut i = 0;
        while i < 10 {
            if STRAIGHTS[i] & (1 << r) != 0 {
                t[r] |= 1 << i;
            }
            i += 1;
        }
        r += 1;
    }
    t
};

/// Bits of the ace-high straights in a window mask (all but A-2-3-4-5, bit 0).
const ACE_HIGH_WINDOWS: u16 = 0x3FE;

/// For every 13-bit rank mask `m`: bit `i` set when `STRAIGHTS[i]` holds `n` or more of
/// the ranks in `m` (tabulated for `n` = 3 and 4, which synthesis asks often).
const fn window_table(n: u32) -> [u16; 8192] {
    let mut t = [0u16; 8192];
    let mut m = 0;
    while m < 8192 {
        let mut i = 0;
        while i < 10 {
            if (m as u16 & STRAIGHTS[i]).count_ones() >= n {
                t[m] |= 1 << i;
            }
            i += 1;
        }
        m += 1;
    }
    t
}
static WINDOWS_3: [u16; 8192] = window_table(3);
static WINDOWS_4: [u16; 8192] = window_table(4);

/// The 1 277 sets of five ranks with no straight (A-2-3-4-5 included), as ascending rank
/// masks: the community cards of a losing ticket hold one of them.
static LOSING_RANK_SETS: [u16; 1277] = {
    let mut t = [0u16; 1277];
    let (mut m, mut i) = (0u16, 0);
    while m < 8192 {
        if m.count_ones() == 5 && !has_straight(m) {
            t[i] = m;
            i += 1;
        }
        m += 1;
    }
    t
};

/// Index of every rank mask in [`LOSING_RANK_SETS`], `u16::MAX` for masks not there.
static LOSING_SET_INDEX: [u16; 8192] = {
    let mut t = [u16::MAX; 8192];
    let mut i = 0;
    while i < LOSING_RANK_SETS.len() {
        t[LOSING_RANK_SETS[i] as usize] = i as u16;
        i += 1;
    }
    t
};

/// Up to `N` byte codes in two runs: `items[..plain]` then `items[plain..len]`.
#[derive(Clone, Copy)]
struct Runs<const N: usize> {
    items: [u8; N],
    plain: u8,
    len: u8,
}

impl<const N: usize> Runs<N> {
    const EMPTY: Runs<N> = Runs {
        items: [0; N],
        plain: 0,
        len: 0,
    };

    /// Appends `x` (to the first run while [`Runs::close_first`] was not called).
    const fn push(&mut self, x: u8) {
        self.items[self.len as usize] = x;
        self.len += 1;
    }

    /// Ends the first run.
    const fn close_first(&mut self) {
        self.plain = self.len;
    }

    /// The codes of the first run (`first`), of the second (`second`), or of both.
    fn runs(&self, first: bool, second: bool) -> &[u8] {
        let (p, n) = (usize::from(self.plain), usize::from(self.len));
        &self.items[if first { 0 } else { p }..if second { n } else { p }]
    }
}

/// The rank pairs `a | b << 4` (`a < b`) a losing zone may hold as its own cards beside the
/// community ranks of one of the [`LOSING_RANK_SETS`] (neither rank there, and no straight,
/// A-2-3-4-5 included, among the seven ranks): first those with no four to a straight made
/// with an own rank, then those with one (a near miss). At most 28: two of the eight ranks
/// left.
type LosingRankPairs = Runs<28>;

/// [`LosingRankPairs`] of each of the [`LOSING_RANK_SETS`], in the same order (worked
/// out at compile time).
static LOSING_RANK_PAIRS: [LosingRankPairs; 1277] = {
    let mut t = [Runs::EMPTY; 1277];
    let mut i = 0;
    while i < t.len() {
        let m = LOSING_RANK_SETS[i];
        let mut pass = 0;
        while pass < 2 {
            let mut a = 0u8;
            while a < 13 {
                let mut b = a + 1;
                while b < 13 {
                    let own = 1u16 << a | 1 << b;
                    let with = m | own;
                    let windows = WINDOWS_OF[a as usize] | WINDOWS_OF[b as usize];
                    if m & own == 0
                        && !has_straight(with)
                        && (WINDOWS_4[with as usize] & windows != 0) == (pass == 1)
                    {
                        t[i].push(a | b << 4);
                    }
                    b += 1;
                }
                a += 1;
            }
            if pass == 0 {
                t[i].close_first();
            }
            pass += 1;
        }
        i += 1;
    }
    t
};

/// The community cards, summarised once for all four zones.
#[derive(Clone, Copy, Debug)]
struct Board {
    /// Ranks present.
    ranks: u16,
    /// Cards of each rank.
    count: [u8; 13],
    /// Cards of each suit.
    suits: [u8; 4],
    /// Ranks present in each suit.
    suit_ranks: [u16; 4],
    /// Some rank twice or more.
    pair: bool,
    /// The suit with five cards, if any.
    flush_suit: Option<usize>,
}

impl Board {
    fn new(cards: [Card; COMMUNITY]) -> Board {
        let mut b = Board {
            ranks: 0,
            count: [0; 13],
            suits: [0; 4],
            suit_ranks: [0; 4],
            pair: false,
            flush_suit: None,
        };
        for &c in &cards {
            let (r, s) = (rank(c) as usize, suit(c) as usize);
            b.ranks |= 1 << r;
            b.count[r] += 1;
            b.suits[s] += 1;
            b.suit_ranks[s] |= 1 << r;
        }
        b.pair = b.ranks.count_ones() < COMMUNITY as u32;
        b.flush_suit = (0..4).find(|&s| b.suits[s] >= 5);
        b
    }
}

/// Reads one player zone (cards coded `0..52`; panics on a larger code) under both readings,
/// with every kind of combination this engine carries listed. Strict reading: the best
/// combination formed by a set of cards that holds at least one of `own` and at least one
/// of `community` (worked out from rank masks; a test pins straight, flush and royal flush
/// against trying every five-card hand). Naive reading: see [`ZoneReading`].
pub fn read_zone(own: [Card; 2], community: [Card; COMMUNITY]) -> ZoneReading {
    read(own, &Board::new(community), ALL_KINDS)
}

/// [`read_zone`] on summarised community cards `b`, the strict best taken among the kinds
/// in `kinds` (a set of [`Combination::bit`]s: the spec's combinations, with [`ACE_LOW`]
/// when the straight counts A-2-3-4-5).
#[inline]
fn read(own: [Card; 2], b: &Board, kinds: u8) -> ZoneReading {
    let (r0, r1) = (rank(own[0]), rank(own[1]));
    let (s0, s1) = (suit(own[0]) as usize, suit(own[1]) as usize);
    let own_bits = (1u16 << r0) | (1u16 << r1);
    let ranks = b.ranks | own_bits;
    let (c0, c1) = (b.count[r0 as usize], b.count[r1 as usize]);
    // Cards of the own cards' suits among the seven.
    let both = u8::from(s0 == s1);
    let (n0, n1) = (b.suits[s0] + 1 + both, b.suits[s1] + 1 + both);
    // Five of a suit: at most one suit can have them among seven cards.
    let flush_suit = if n0 >= 5 {
        Some(s0)
    } else if n1 >= 5 {
        Some(s1)
    } else {
        b.flush_suit
    };
    // Straights with exactly four ranks here, one of them a rank only the own cards bring.
    let own_windows = if c0 == 0 { WINDOWS_OF[r0 as usize] } else { 0 }
        | if c1 == 0 { WINDOWS_OF[r1 as usize] } else { 0 };
    let full = (straight_starts(ranks) & 0x1FF) << 1 | u16::from(ranks & WHEEL == WHEEL);
    let mut z = ZoneReading {
        strict: None,
        pair: r0 == r1 || b.pair || c0 > 0 || c1 > 0,
        straight: has_straight(ranks),
        flush: flush_suit.is_some(),
        straight_flush: false,
        flush_draw: n0 == 4 || n1 == 4,
        straight_draw: WINDOWS_4[ranks as usize] & !full & own_windows != 0,
    };
    // Every strict combination is a naive pair, straight or flush: with none, the zone
    // loses under both readings.
    if !z.naive_wins() {
        return z;
    }

    // Pair, three and four of a kind: n cards of one rank, at least one own and one
    // community; they hold every smaller number of that rank with the same origins.
    let mut found = 0u8;
    if kinds & POCKET != 0 && r0 == r1 {
        found |= Combination::Pair.bit();
    }
    for (r, cb) in [(r0, c0), (r1, c1)] {
        if cb == 0 {
            continue;
        }
        let n = cb + u8::from(r0 == r) + u8::from(r1 == r);
        found |= match n {
            2 => Combination::Pair.bit(),
            3 => Combination::Pair.bit() | Combination::ThreeOfAKind.bit(),
            _ => {
                Combination::Pair.bit()
                    | Combination::ThreeOfAKind.bit()
                    | Combination::FourOfAKind.bit()
            }
        };
    }
    if let Some(f) = flush_suit {
        let m = b.suit_ranks[f] | u16::from(s0 == f) << r0 | u16::from(s1 == f) << r1;
        let royal = m & ROYAL == ROYAL;
        z.straight_flush = !royal && (straight_starts(m) & 0xFF != 0 || m & WHEEL == WHEEL);
    }

    // Straight, flush, royal flush: five cards, at least one own (then at least three are
    // community cards). Only worth trying when five consecutive ranks or five of a suit
    // are there at all.
    let ace_low = kinds & ACE_LOW != 0;
    if straight_starts(ranks) != 0 || z.flush || (ace_low && ranks & WHEEL == WHEEL) {
        found |= five_card_kinds(own, b, ace_low);
    }
    z.strict = best_of(found & kinds & ALL_KINDS);
    z
}

/// The highest kind in the set `kinds`, if any.
fn best_of(kinds: u8) -> Option<Combination> {
    (kinds != 0).then(|| Combination::ALL[7 - kinds.leading_zeros() as usize])
}

/// The straights, flushes and royal flushes among the five-card hands of the seven cards
/// (`own` and the community cards of `b`) that hold at least one own card, as a set of
/// kinds. By the letter a hand is a straight when its ranks are five consecutive (ace high
/// only, or also A-2-3-4-5 with `ace_low`) and its suits are not all one; a flush when its
/// suits are all one and its ranks not consecutive (in the same sense); a royal flush when
/// it is 10-J-Q-K-A of one suit; any other straight flush is none of them. The same
/// answers as trying each of the 21 hands (a test pins it against that reading), found
/// from rank masks.
fn five_card_kinds(own: [Card; 2], b: &Board, ace_low: bool) -> u8 {
    let mut all = b.suit_ranks;
    let mut mine = [0u16; 4];
    for &c in &own {
        all[suit(c) as usize] |= 1 << rank(c);
        mine[suit(c) as usize] |= 1 << rank(c);
    }
    let mut found = 0u8;
    // Five of one suit: every five of them holding an own card.
    for s in 0..4 {
        let m = all[s];
        if m.count_ones() < 5 || mine[s] == 0 {
            continue;
        }
        let mut consider = |hand: u16| {
            if hand & mine[s] != 0 {
                let consecutive =
                    hand >> hand.trailing_zeros() == 0x1F || (ace_low && hand == WHEEL);
                if !consecutive {
                    found |= Combination::Flush.bit();
                } else if hand == ROYAL {
                    found |= Combination::RoyalFlush.bit();
                }
            }
        };
        // Five of the five, six or seven: leave out none, one or two cards.
        match m.count_ones() {
            5 => consider(m),
            6 => each_bit(m, |x| consider(m & !x)),
            _ => each_bit(m, |x| {
                each_bit(m & !x & !(x - 1), |y| consider(m & !x & !y))
            }),
        }
    }
    // Five consecutive ranks holding own card (r, s), with a card of another suit
    // than s on one of the other four ranks.
    let ranks = all[0] | all[1] | all[2] | all[3];
    let starts = straight_starts(ranks) & 0x1FF;
    let windows = (0..9)
        .filter(|i| starts >> i & 1 == 1)
        .map(|i| 0x1Fu16 << i)
        .chain((ace_low && ranks & WHEEL == WHEEL).then_some(WHEEL));
    for window in windows {
        for &c in &own {
            let (r, s) = (rank(c), suit(c) as usize);
            let other_suits = (0..4).filter(|&t| t != s).fold(0, |m, t| m | all[t]);
            if window & 1 << r != 0 && window & !(1 << r) & other_suits != 0 {
                found |= Combination::Straight.bit();
            }
        }
    }
    found
}

/// Calls `f` with each set bit of `m`, as a one-bit mask, lowest first.
fn each_bit(mut m: u16, mut f: impl FnMut(u16)) {
    while m != 0 {
        let x = m & m.wrapping_neg();
        f(x);
        m &= m - 1;
    }
}

/// One entry of `combinations`: a kind of the catalogue under the spec's id and name.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawCombination {
    /// Feature id of the combination (`pair`), ASCII letters, digits and `_`.
    pub id: String,
    /// Its kind in the catalogue ([`CATALOGUE`]: `pair`, `straight`, …).
    pub kind: String,
    /// Its printed name (`royal flush`); the id when left out.
    #[serde(default)]
    pub name: Option<String>,
    /// `straight` only: not all five of one suit (the only reading carried: `true`).
    #[serde(default)]
    pub not_flush: Option<bool>,
    /// `flush` only: not five consecutive ranks (the only reading carried: `true`).
    #[serde(default)]
    pub not_straight: Option<bool>,
    /// `straight` only: whether A-2-3-4-5 counts (the only reading carried: `false`).
    #[serde(default)]
    pub ace_low: Option<bool>,
}

fn default_own() -> usize {
    OWN
}
fn default_community() -> usize {
    COMMUNITY
}
fn default_one() -> usize {
    1
}
fn default_card_name() -> String {
    "{rank} OF {suit}".into()
}

/// A `card_hands` surface's table in the spec.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCardHands {
    /// Number of player zones (1 to [`MAX_ZONES`]); from `zone_ids` when left out.
    #[serde(default)]
    pub zones: Option<usize>,
    /// The zones' ids (play areas, panels, column prefixes); `p1` … `pN` when left out.
    #[serde(default)]
    pub zone_ids: Option<Vec<String>>,
    /// Own cards per zone.
    #[serde(default = "default_own")]
    pub own_cards: usize,
    /// Community cards.
    #[serde(default = "default_community")]
    pub community_cards: usize,
    /// Column prefix of the community cards (`b` gives `b1` … `b5`).
    #[serde(default)]
    pub community_prefix: Option<String>,
    /// Panel id of the community cards (its `[labels]` key); `{surface id}_board` when left
    /// out.
    #[serde(default)]
    pub community_id: Option<String>,
    /// Fewest own cards a winning hand holds.
    #[serde(default = "default_one")]
    pub min_own: usize,
    /// Fewest community cards a winning hand holds.
    #[serde(default = "default_one")]
    pub min_community: usize,
    /// The 13 ranks in letters, 2 to ace (each card's inscription).
    pub rank_names: Vec<String>,
    /// The 4 suits in letters, in the order `c d h s` (clubs, diamonds, hearts, spades).
    pub suit_names: Vec<String>,
    /// How a card's inscription is written, with `{rank}` and `{suit}`.
    #[serde(default = "default_card_name")]
    pub card_name: String,
    /// The combinations, in ascending order.
    pub combinations: Vec<RawCombination>,
    /// Every amount a zone's GAIN may show.
    pub zone_amounts: Vec<Money>,
    /// Weight of each amount shown as a decoy in the GAIN of a losing zone (key: amount);
    /// amounts not listed are never decoys.
    pub decoy_weights: BTreeMap<String, u32>,
    /// Share (0..=1) of losing zones whose own cards, with the community cards, make four to a
    /// flush (near miss).
    #[serde(default)]
    pub near_miss_flush: f64,
    /// Share (0..=1) of losing zones whose own cards, with the community cards, make four to a
    /// straight (near miss).
    #[serde(default)]
    pub near_miss_straight: f64,
    /// Combination weights of each tier (key: the tier's amount, the ticket's whole lot, also
    /// when part of it is won on another surface; inner key: a combination id) for the
    /// winning zones of its ways; a combination not listed weighs 0.
    pub combination_weights: BTreeMap<String, BTreeMap<String, u32>>,
    /// Optional combination weights of one way (key: way id), replacing its tier's.
    #[serde(default)]
    pub way_combination_weights: BTreeMap<String, BTreeMap<String, u32>>,
}

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
    areas: Vec<String>,
    columns: Vec<Column>,
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
    /// Feature id of each kind the spec lists ([`Combination::index`]).
    ids: [Option<&'static str>; 6],
    /// Printed name of each kind the spec lists.
    names: [Option<&'static str>; 6],
    /// What a zone showing each kind has, in words.
    abouts: [&'static str; 6],
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

fn caption_list(v: &[String], n: usize, what: &str) -> Result<Vec<String>, String> {
    if v.len() != n {
        return Err(format!("expected {n} {what}, got {}", v.len()));
    }
    let mut seen: Vec<String> = Vec::new();
    for c in v {
        printed(c)?;
        let t = c.trim();
        if seen.contains(&t.to_uppercase()) {
            return Err(format!("\"{c}\" appears twice"));
        }
        seen.push(t.to_uppercase());
    }
    Ok(v.iter().map(|c| c.trim().to_string()).collect())
}

/// `Err` unless `c` may be printed in files and proofs as a name.
fn printed(c: &str) -> Result<(), String> {
    let t = c.trim();
    if t.is_empty()
        || t.contains([',', '"'])
        || t.chars().any(char::is_control)
        || t.starts_with(crate::lots::FORMULA_START)
    {
        return Err(format!(
            "\"{c}\": a caption is not empty, has no comma, double quote, line break or other control character, and does not begin with = + - or @"
        ));
    }
    Ok(())
}

/// `Err` unless `id` is an ASCII id (letters, digits, `_`).
fn ascii_id(id: &str, what: &str) -> Result<(), String> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(format!(
            "\"{id}\" is not {what}: expected ASCII letters, digits or _"
        ));
    }
    Ok(())
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
        Param { name: "near_miss_flush", kind: "number 0..1", default: Some("0"), about: "Share of losing zones whose own cards, with the community cards, make four to a flush." },
        Param { name: "near_miss_straight", kind: "number 0..1", default: Some("0"), about: "Share of losing zones whose own cards, with the community cards, make four to a straight." },
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
near_miss_flush = 0.1
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

impl CardHands {
    /// Validates a surface's table against the rest of the spec (its captions, tier amounts
    /// and way ids). Errors, each naming its field: zones not 1 to [`MAX_ZONES`] or not
    /// matching `zone_ids`, a zone id repeated or not an ASCII id; card counts or a usage
    /// rule this engine does not carry; a combination of an unknown kind, one the engine
    /// does not carry, a definition option it does not carry or that does not apply, out of
    /// ascending order, listed twice, or with a repeated id; no zone amounts, a repeated or
    /// zero one, or one without a caption; a decoy weight for an amount that is not a zone
    /// amount, or all decoy weights zero; a near miss rate outside 0..=1 or both summing
    /// above 1; not 13 rank names or 4 suit names (or a repeated one); a card name without
    /// `{rank}` and `{suit}`; combination weights for an amount that is no tier, a way id
    /// that is no way, a combination that is not listed, or all zero.
    pub fn new(p: &RawCardHands, ctx: &StyleCtx) -> Result<CardHands, FieldError> {
        let err = |field: &str, msg: String| FieldError::new(field, msg);
        // Zones.
        let zone_ids: Vec<String> = match (&p.zone_ids, p.zones) {
            (Some(ids), n) => {
                if n.is_some_and(|n| n != ids.len()) {
                    return Err(err(
                        "zones",
                        format!(
                            "zones = {} but zone_ids lists {}",
                            n.unwrap_or(0),
                            ids.len()
                        ),
                    ));
                }
                ids.clone()
            }
            // Checked before any zone is named: the count never sizes an allocation.
            (None, Some(n)) if !(1..=MAX_ZONES).contains(&n) => {
                return Err(err(
                    "zones",
                    format!("{n} zones; expected 1 to {MAX_ZONES}"),
                ));
            }
            (None, Some(n)) => (1..=n).map(|z| format!("p{z}")).collect(),
            (None, None) => {
                return Err(err("zones", "missing field `zones` (or `zone_ids`)".into()))
            }
        };
        let zones = zone_ids.len();
        if !(1..=MAX_ZONES).contains(&zones) {
            return Err(err(
                "zones",
                format!("{zones} zones; expected 1 to {MAX_ZONES}"),
            ));
        }
        for (i, z) in zone_ids.iter().enumerate() {
            ascii_id(z, "a zone id").map_err(|m| err("zone_ids", m))?;
            if zone_ids[..i].contains(z) {
                return Err(err("zone_ids", format!("\"{z}\" is listed twice")));
            }
        }
        if p.own_cards != OWN {
            return Err(err(
                "own_cards",
                format!(
                    "{} own cards per zone; this engine deals exactly {OWN}",
                    p.own_cards
                ),
            ));
        }
        if p.community_cards != COMMUNITY {
            return Err(err(
                "community_cards",
                format!(
                    "{} community cards; this engine deals exactly {COMMUNITY}",
                    p.community_cards
                ),
            ));
        }
        if p.min_own != 1 {
            return Err(err(
                "min_own",
                format!("min_own = {}; this engine judges exactly min_own = 1 (a hand holds at least one own card)", p.min_own),
            ));
        }
        if p.min_community > 1 {
            return Err(err(
                "min_community",
                format!("min_community = {}; this engine judges min_community = 1 (a hand holds at least one community card) or 0 (its own two cards may make a pair alone)", p.min_community),
            ));
        }
        let prefix = p.community_prefix.clone().unwrap_or_else(|| "b".into());
        ascii_id(&prefix, "a column prefix").map_err(|m| err("community_prefix", m))?;
        let community_id = p
            .community_id
            .clone()
            .unwrap_or_else(|| format!("{}_board", ctx.id));
        ascii_id(&community_id, "a panel id").map_err(|m| err("community_id", m))?;
        if zone_ids.contains(&community_id) {
            return Err(err(
                "community_id",
                format!("\"{community_id}\" is also a zone id"),
            ));
        }

        // Combinations.
        if p.combinations.is_empty() {
            return Err(err(
                "combinations",
                "expected at least one combination".into(),
            ));
        }
        let (mut ids, mut names) = ([None; 6], [None; 6]);
        let mut abouts = [""; 6];
        let mut kinds = if p.min_community == 0 { POCKET } else { 0 };
        let mut last: Option<(usize, &str)> = None;
        for (i, c) in p.combinations.iter().enumerate() {
            let field = format!("combinations[{i}]");
            let e = |sub: &str, m: String| err(&format!("{field}{sub}"), m);
            let known: Vec<&str> = CATALOGUE.iter().map(|k| k.0).collect();
            let pos = CATALOGUE
                .iter()
                .position(|k| k.0 == c.kind)
                .ok_or_else(|| {
                    e(
                        ".kind",
                        format!(
                            "unknown kind \"{}\"; expected one of: {}",
                            c.kind,
                            known.join(", ")
                        ),
                    )
                })?;
            let kind = CATALOGUE[pos].1.ok_or_else(|| {
                let carried: Vec<&str> = CATALOGUE
                    .iter()
                    .filter(|k| k.1.is_some())
                    .map(|k| k.0)
                    .collect();
                e(
                    ".kind",
                    format!(
                        "the card_hands engine does not build or judge \"{}\" hands yet; it carries: {}",
                        c.kind,
                        carried.join(", ")
                    ),
                )
            })?;
            if let Some((lp, lk)) = last {
                if pos <= lp {
                    return Err(e(
                        ".kind",
                        format!(
                            "combinations are listed in ascending order: \"{}\" cannot come after \"{lk}\" (ascending: {})",
                            c.kind,
                            known.join(", ")
                        ),
                    ));
                }
            }
            last = Some((pos, CATALOGUE[pos].0));
            let opt = |name: &str, v: Option<bool>, applies: bool, carried: bool| {
                match v {
                    Some(_) if !applies => Err(e(
                        &format!(".{name}"),
                        format!("{name} does not apply to a {} combination", c.kind),
                    )),
                    Some(x) if x != carried => Err(e(
                        &format!(".{name}"),
                        format!(
                            "{name} = {x} is not carried; this engine judges a {} with {name} = {carried}",
                            c.kind
                        ),
                    )),
                    _ => Ok(()),
                }
            };
            opt(
                "not_flush",
                c.not_flush,
                kind == Combination::Straight,
                true,
            )?;
            if c.ace_low.is_some() && kind != Combination::Straight {
                return Err(e(
                    ".ace_low",
                    format!("ace_low does not apply to a {} combination", c.kind),
                ));
            }
            if kind == Combination::Straight && c.ace_low == Some(true) {
                kinds |= ACE_LOW;
            }
            opt(
                "not_straight",
                c.not_straight,
                kind == Combination::Flush,
                true,
            )?;
            ascii_id(&c.id, "a combination id").map_err(|m| e(".id", m))?;
            if ids.contains(&Some(c.id.as_str()))
                || c.id == NEAR_MISS_FLUSH
                || c.id == NEAR_MISS_STRAIGHT
            {
                return Err(e(
                    ".id",
                    format!("\"{}\" names another feature already", c.id),
                ));
            }
            let name = c.name.clone().unwrap_or_else(|| c.id.clone());
            printed(&name).map_err(|m| e(".name", m))?;
            let id = style::intern(&c.id);
            ids[kind.index()] = Some(id);
            names[kind.index()] = Some(style::intern(name.trim()));
            abouts[kind.index()] =
                style::intern(&format!("a winning zone's best combination is a {id}"));
            kinds |= kind.bit();
        }

        // Amounts, decoys, near misses.
        let mut sorted = p.zone_amounts.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.is_empty()
            || sorted.len() != p.zone_amounts.len()
            || sorted.iter().any(|m| m.is_zero())
        {
            return Err(err(
                "zone_amounts",
                "expected distinct amounts above 0".into(),
            ));
        }
        if let Some(max) = ctx.max {
            if let Some(m) = sorted.iter().find(|&&m| m > max) {
                return Err(err(
                    "zone_amounts",
                    format!("{m} is above the surface's max {max}: a GAIN never shows more (not even as a decoy)"),
                ));
            }
        }
        let gain = AmountBox::new(sorted, ctx.captions).map_err(|e| err("zone_amounts", e))?;
        let decoy_weights =
            common::decoy_weights(&p.decoy_weights, gain.amounts(), "one of zone_amounts")
                .map_err(|e| err("decoy_weights", e))?;
        let nf = common::share(p.near_miss_flush).map_err(|e| err("near_miss_flush", e))?;
        let ns = common::share(p.near_miss_straight).map_err(|e| err("near_miss_straight", e))?;
        if nf + ns > 1_000_000 {
            return Err(err(
                "near_miss_flush",
                "near_miss_flush + near_miss_straight exceed 1".into(),
            ));
        }
        let rank_captions = caption_list(&p.rank_names, 13, "rank names (2 … ace)")
            .map_err(|m| err("rank_names", m))?;
        let suit_captions = caption_list(&p.suit_names, 4, "suit names (c d h s)")
            .map_err(|m| err("suit_names", m))?;
        if !p.card_name.contains("{rank}") || !p.card_name.contains("{suit}") {
            return Err(err(
                "card_name",
                format!(
                    "\"{}\" should hold {{rank}} and {{suit}} (e.g. \"{{rank}} DE {{suit}}\")",
                    p.card_name
                ),
            ));
        }
        printed(&p.card_name).map_err(|m| err("card_name", m))?;

        let check_weights =
            |field: &str, key: &str, w: &BTreeMap<String, u32>| -> Result<[u32; 6], FieldError> {
                let f = format!("{field}.\"{key}\"");
                let mut a = [0u32; 6];
                for (id, &x) in w {
                    let k = Combination::ALL
                        .iter()
                        .find(|c| ids[c.index()] == Some(id.as_str()))
                        .ok_or_else(|| {
                            err(
                                &format!("{f}.{id}"),
                                format!("\"{id}\" is not the id of one of the combinations"),
                            )
                        })?;
                    a[k.index()] = x;
                }
                let t: u64 = a.iter().map(|&x| u64::from(x)).sum();
                if t == 0 || t > u64::from(u32::MAX) {
                    return Err(err(&f, "expected weights summing to 1..=4294967295".into()));
                }
                Ok(a)
            };
        let mut tier_weights = BTreeMap::new();
        for (k, w) in &p.combination_weights {
            let m: Money = k.parse().map_err(|e| {
                err(
                    &format!("combination_weights.\"{k}\""),
                    format!("key \"{k}\": {e}"),
                )
            })?;
            if !ctx.tier_amounts.contains(&m) {
                return Err(err(
                    &format!("combination_weights.\"{k}\""),
                    format!("\"{k}\" is not the amount of a tier"),
                ));
            }
            if tier_weights
                .insert(m, check_weights("combination_weights", k, w)?)
                .is_some()
            {
                return Err(err(
                    "combination_weights",
                    format!("key \"{k}\" is the amount {m} a second time (written another way)"),
                ));
            }
        }
        let mut way_weights = BTreeMap::new();
        for (k, w) in &p.way_combination_weights {
            if !ctx.way_ids.iter().any(|x| x == k) {
                return Err(err(
                    &format!("way_combination_weights.\"{k}\""),
                    format!("\"{k}\" is not the id of a way"),
                ));
            }
            way_weights.insert(k.clone(), check_weights("way_combination_weights", k, w)?);
        }

        let cards: Vec<String> = (0..DECK).map(card_code).collect();
        let mut columns = Vec::new();
        let mut card_columns = Vec::new();
        for z in &zone_ids {
            for c in 1..=OWN {
                card_columns.push(columns.len());
                columns.push(Column {
                    name: format!("{z}_c{c}"),
                    kind: ColumnKind::Symbol,
                    values: cards.clone(),
                });
            }
            let gain_col = columns.len();
            columns.push(gain.column(format!("{z}_gain")));
            columns.push(Column::caption(
                format!("{z}_caption"),
                gain_col,
                ctx.captions,
            ));
        }
        let board_column = columns.len();
        for i in 1..=COMMUNITY {
            card_columns.push(columns.len());
            columns.push(Column {
                name: format!("{prefix}{i}"),
                kind: ColumnKind::Symbol,
                values: cards.clone(),
            });
        }
        let near_miss = [1_000_000 - nf - ns, nf, ns];
        Ok(CardHands {
            zone_labels: zone_ids.iter().map(|z| ctx.label(z).to_string()).collect(),
            board_label: ctx.label(&community_id).to_string(),
            areas: zone_ids,
            columns,
            zones,
            board_column,
            card_columns,
            community_id,
            kinds,
            ids,
            names,
            abouts,
            gain,
            decoy_draw: Weights::new(&decoy_weights),
            near_miss_draw: Weights::new(&near_miss),
            decoy_weights,
            near_miss,
            rank_captions,
            suit_captions,
            card_name: p.card_name.clone(),
            tier_weights,
            way_weights,
            tier_amounts: ctx.tier_amounts.to_vec(),
        })
    }

    /// The feature named `id`, or `None` for an id this surface does not know.
    fn parse_want(&self, id: &str) -> Option<Want> {
        match id {
            NEAR_MISS_FLUSH => Some(Want::Draw(Draw::Flush)),
            NEAR_MISS_STRAIGHT => Some(Want::Draw(Draw::Straight)),
            _ => self.kind_of(id).map(Want::Win),
        }
    }

    /// The kind of the combination with feature id `id`.
    fn kind_of(&self, id: &str) -> Option<Combination> {
        Combination::ALL
            .iter()
            .copied()
            .find(|c| self.ids[c.index()] == Some(id))
    }

    /// The feature id of kind `c` (listed in the spec).
    fn id(&self, c: Combination) -> &'static str {
        self.ids[c.index()].unwrap_or(c.kind())
    }

    /// The printed name of kind `c` (listed in the spec).
    fn printed_name(&self, c: Combination) -> &'static str {
        self.names[c.index()].unwrap_or(c.kind())
    }

    /// The rank of card `c` in letters, from the spec (`AS`, `DIX`).
    pub fn rank_caption(&self, c: Card) -> &str {
        &self.rank_captions[rank(c) as usize]
    }

    /// The suit of card `c` in letters, from the spec (`PIQUE`).
    pub fn suit_caption(&self, c: Card) -> &str {
        &self.suit_captions[suit(c) as usize]
    }

    /// The rates (per million) of near miss `d` on a losing zone.
    fn draw_rate(&self, d: Draw) -> u32 {
        match d {
            Draw::Flush => self.near_miss[1],
            Draw::Straight => self.near_miss[2],
            Draw::None | Draw::Any => 0,
        }
    }

    /// The GAIN code of each zone (its amount, or for a losing zone a decoy) and its goal,
    /// for a face of `way` showing feature `show` if given (an `Err` when `way` cannot show
    /// it, see [`Style::can_show`]). Wins with a fixed zone go there, the others to free
    /// zones in a random order; each winning zone draws its combination from the weights (a
    /// four of a kind or royal flush weighing 0 after it is drawn), each losing zone its near
    /// miss at the spec's rates and its decoy from `decoy_weights` (two zones per draw of
    /// [`below_mixed`] when their ranges fit). The combination or near miss asked is taken
    /// by the first winning, resp. losing, zone instead of drawn; with `show = None` the
    /// draws are those of every production face.
    fn goals(
        &self,
        way: &Way,
        show: Option<&str>,
        rng: &mut FaceRng,
    ) -> Result<(Zoned<u8>, Zoned<Goal>), String> {
        let zones = self.zones;
        let mut want = match show {
            Some(id) => {
                self.can_show(way, id)?;
                self.parse_want(id)
            }
            None => None,
        };
        // Which zone each win goes to.
        let mut zone_amount: Zoned<Option<Money>> = std::iter::repeat_n(None, zones).collect();
        for w in way.wins.iter() {
            if let Some(a) = w.area {
                let slot = zone_amount
                    .get_mut(a as usize)
                    .ok_or("win in an unknown zone")?;
                *slot = Some(w.amount);
            }
        }
        let mut open: Zoned<usize> = (0..zones).filter(|&z| zone_amount[z].is_none()).collect();
        if way.wins.iter().any(|w| w.area.is_none()) {
            shuffle(rng, &mut open);
        }
        let mut next = open.iter();
        for w in way.wins.iter().filter(|w| w.area.is_none()) {
            let z = *next.next().ok_or("more wins than zones")?;
            zone_amount[z] = Some(w.amount);
        }
        let wins = zone_amount.iter().filter(|a| a.is_some()).count();

        let mut weights = if wins > 0 {
            self.weights_for(way)
                .ok_or("no combination weights for this way")?
        } else {
            [0; 6]
        };
        let mut goals: Zoned<Goal> = std::iter::repeat_n(Goal::Lose(Draw::Any), zones).collect();
        let mut codes: Zoned<u8> = std::iter::repeat_n(0, zones).collect();
        // Near miss and decoy of each losing zone, two zones per call (one draw when their
        // ranges fit; a winning zone's radices are 1: nothing drawn).
        // A zone past the last (odd zone counts) has radices 1 too.
        let radices = |z: usize| match zone_amount.get(z) {
            Some(None) => [self.near_miss_draw.total(), self.decoy_draw.total()],
            _ => [1, 1],
        };
        let mut digits: ArrayVec<u32, { 2 * MAX_ZONES + 2 }> = ArrayVec::new();
        for z in (0..zones).step_by(2) {
            let [a, b] = radices(z);
            let [c, d] = radices(z + 1);
            digits.extend(below_mixed(rng, [a, b, c, d]));
        }
        for z in 0..zones {
            if let Some(m) = zone_amount[z] {
                codes[z] = self
                    .amount_code(m)
                    .ok_or("win amount is not a zone amount")?;
                if weights.iter().all(|&w| w == 0) {
                    return Err("the combination weights cannot fill every winning zone".into());
                }
                let c = match want {
                    Some(Want::Win(c)) => {
                        want = None;
                        c
                    }
                    _ => Combination::ALL[weighted(rng, &weights)],
                };
                if matches!(c, Combination::FourOfAKind | Combination::RoyalFlush) {
                    weights[c.index()] = 0;
                }
                if c == Combination::FourOfAKind && wins < zones {
                    return Err("a four of a kind needs every zone to win".into());
                }
                goals[z] = Goal::Win(c);
            } else {
                codes[z] = self.decoy_draw.index(digits[2 * z + 1]) as u8;
                let d = match want {
                    Some(Want::Draw(d)) => {
                        want = None;
                        d
                    }
                    _ => [Draw::None, Draw::Flush, Draw::Straight]
                        [self.near_miss_draw.index(digits[2 * z])],
                };
                goals[z] = Goal::Lose(d);
            }
        }
        if want.is_some() {
            return Err(format!("no zone of way \"{}\" can show {show:?}", way.id));
        }
        Ok((codes, goals))
    }

    fn amount_code(&self, m: Money) -> Option<u8> {
        self.gain.code(m)
    }

    /// The amount of `way`'s tier (`None` for the losing way).
    fn tier_amount(&self, way: &Way) -> Option<Money> {
        way.tier.and_then(|t| self.tier_amounts.get(t)).copied()
    }

    /// Combination weights of `way`: its own, else its tier's (keyed by the tier's amount,
    /// which is the ticket's whole lot, even when this surface wins only part of it).
    fn weights_for(&self, way: &Way) -> Option<[u32; 6]> {
        self.way_weights
            .get(&way.id)
            .or_else(|| self.tier_weights.get(&self.tier_amount(way)?))
            .copied()
    }
}

impl CardHands {
    /// [`Style::synthesize_showing`], also saying how many deals were tried (1 when the
    /// first reached no dead end; at most [`MAX_ATTEMPTS`]): the benchmark reports the
    /// rate of dead ends from it.
    pub fn synthesize_counted(
        &self,
        way: &Way,
        show: Option<&str>,
        rng: &mut FaceRng,
    ) -> Result<(Face, usize), String> {
        let (codes, goals) = self.goals(way, show, rng)?;
        let mut dealt = None;
        let mut attempts = 0;
        while attempts < MAX_ATTEMPTS && dealt.is_none() {
            attempts += 1;
            dealt = deal(&goals, rng);
        }
        let (own, board) = dealt.ok_or_else(|| {
            format!("no deal found for the goals {goals:?} in {MAX_ATTEMPTS} attempts")
        })?;

        let mut face = Face::default();
        for z in 0..self.zones {
            let base = z * ZONE_COLUMNS;
            face.codes[base] = own[z][0];
            face.codes[base + 1] = own[z][1];
            self.gain.show(&mut face, base + 2, base + 3, codes[z]);
        }
        face.codes[self.board_column..self.board_column + COMMUNITY].copy_from_slice(&board);

        // The face must be what was wanted, by the rules alone. The construction ensures it
        // (each zone is checked against the finished community cards as it is dealt, and a
        // zone reads only its own cards and those) and generation judges every face again,
        // so the check runs in debug builds, which the tests use.
        if cfg!(debug_assertions) {
            self.check_goals(&face, &goals)?;
        }
        Ok((face, attempts))
    }

    /// `Err` unless `face` is unambiguous and each zone shows exactly its goal.
    fn check_goals(&self, face: &Face, goals: &[Goal]) -> Result<(), String> {
        let ev = self.evaluate(face);
        if !ev.ambiguities.is_empty() {
            return Err(format!(
                "built an ambiguous face ({}): a bug",
                ev.ambiguities.join("; ")
            ));
        }
        for (z, goal) in goals.iter().enumerate() {
            let got = ev.feature(z as u8);
            let want = match goal {
                Goal::Win(c) => Some(self.id(*c)),
                Goal::Lose(_) => None,
            };
            if got != want {
                return Err(format!(
                    "zone {} shows {got:?} instead of {want:?}: a bug",
                    self.areas[z]
                ));
            }
        }
        Ok(())
    }
}

impl Style for CardHands {
    fn name(&self) -> &'static str {
        "card_hands"
    }

    fn areas(&self) -> &[String] {
        &self.areas
    }

    fn columns(&self) -> &[Column] {
        &self.columns
    }

    fn shown_amounts(&self) -> Vec<Money> {
        self.gain.amounts().to_vec()
    }

    /// A way is feasible when it has at most 4 wins, each a zone amount, in distinct zones,
    /// and its combination weights (the way's, else its tier's) are feasible under the
    /// policy: a four of a kind needs a community pair, which makes every zone a naive
    /// winner, so it must weigh 0 unless the way wins on every zone; at most one four of a
    /// kind and one royal flush fit on a ticket (two royals need six community cards of one
    /// suit; a second four of a kind a second community pair), so a way of two or more wins
    /// needs a positive weight on a pair, three of a kind, straight or flush.
    fn check_way(&self, way: &Way) -> Result<(), String> {
        let k = way.wins.len();
        let zones = self.zones;
        if k > zones {
            return Err(format!(
                "{k} wins, but this card_hands surface has {zones} player zone(s)"
            ));
        }
        for w in &way.wins {
            if self.amount_code(w.amount).is_none() {
                return Err(format!("win {} is not one of zone_amounts", w.amount));
            }
        }
        for (i, a) in way.wins.iter().enumerate() {
            if a.area.is_some() && way.wins[i + 1..].iter().any(|b| b.area == a.area) {
                return Err("two wins name the same zone".into());
            }
        }
        if k == 0 {
            return Ok(());
        }
        let w = self.weights_for(way).ok_or_else(|| match self.tier_amount(way) {
            Some(t) => format!(
                "no combination weights: add combination_weights.\"{t}\" (its tier's amount) or way_combination_weights.\"{}\"",
                way.id
            ),
            None => format!(
                "no combination weights: add way_combination_weights.\"{}\"",
                way.id
            ),
        })?;
        let four = Combination::FourOfAKind;
        if k < zones && w[four.index()] > 0 {
            return Err(format!(
                "{} weighs {} but this way wins on {k} zone(s): a four of a kind needs a community pair, which makes every zone a naive winner, so it is only possible when all {zones} zones win (give this way or its tier {} = 0, or give the way its own way_combination_weights)",
                self.id(four),
                w[four.index()],
                self.id(four),
            ));
        }
        let repeatable: u64 = w[..4].iter().map(|&x| u64::from(x)).sum();
        if k >= 2 && repeatable == 0 {
            let listed: Vec<&str> = Combination::ALL[..4]
                .iter()
                .filter_map(|c| self.ids[c.index()])
                .collect();
            return Err(format!(
                "this way wins on {k} zones but only four of a kind / royal flush weigh: at most one of each fits on a ticket; give {} a weight",
                if listed.is_empty() { "a pair, three of a kind, straight or flush combination".to_string() } else { listed.join(", ") }
            ));
        }
        Ok(())
    }

    /// Every weight table applies to some winning part of a way: `way_combination_weights`
    /// of a way that wins on a zone, `combination_weights` of a tier one of whose ways wins
    /// on a zone without weights of its own.
    fn check_ways(&self, ways: &[Way]) -> Result<(), String> {
        let winning = || ways.iter().filter(|w| !w.wins.is_empty());
        for id in self.way_weights.keys() {
            if !winning().any(|w| &w.id == id) {
                return Err(format!(
                    "way_combination_weights.\"{id}\" never applies: way \"{id}\" never wins on a zone of this surface"
                ));
            }
        }
        for m in self.tier_weights.keys() {
            let used = winning()
                .any(|w| self.tier_amount(w) == Some(*m) && !self.way_weights.contains_key(&w.id));
            if !used {
                return Err(format!(
                    "combination_weights.\"{m}\" never applies: no way of tier {m} wins on a zone of this surface without way_combination_weights of its own"
                ));
            }
        }
        Ok(())
    }

    /// The combinations that some tier or way weighs above 0, then `near_miss_flush`
    /// and `near_miss_straight` when their rates are above 0.
    fn features(&self) -> Vec<FeatureInfo> {
        let mut v: Vec<FeatureInfo> = Combination::ALL
            .iter()
            .filter(|c| {
                self.tier_weights
                    .values()
                    .chain(self.way_weights.values())
                    .any(|w| w[c.index()] > 0)
            })
            .map(|&c| FeatureInfo {
                id: self.id(c),
                kind: FeatureKind::Winning,
                about: self.abouts[c.index()],
            })
            .collect();
        for (d, id, about) in [
            (
                Draw::Flush,
                NEAR_MISS_FLUSH,
                "four to a flush: four of one suit among its own and the community cards",
            ),
            (
                Draw::Straight,
                NEAR_MISS_STRAIGHT,
                "four to a straight: four ranks of a straight among its own and the community cards, one that only its own cards bring",
            ),
        ] {
            if self.draw_rate(d) > 0 {
                v.push(FeatureInfo {
                    id,
                    kind: FeatureKind::NearMiss,
                    about,
                });
            }
        }
        v
    }

    /// A combination needs a weight above 0 in the way's weights (its own, else its
    /// tier's); a near miss a rate above 0 and a way with a losing zone (fewer wins than
    /// zones).
    fn can_show(&self, way: &Way, id: &str) -> Result<(), String> {
        match self.parse_want(id) {
            None => Err(format!("the card_hands style shows no feature \"{id}\"")),
            Some(Want::Win(c)) => match self.weights_for(way) {
                Some(w) if !way.wins.is_empty() && w[c.index()] > 0 => Ok(()),
                _ => Err(format!(
                    "way \"{}\" gives {id} no weight (combination_weights of its tier, or way_combination_weights)",
                    way.id
                )),
            },
            Some(Want::Draw(d)) => {
                if self.draw_rate(d) == 0 {
                    Err(format!("{id} has a rate of 0 in this spec"))
                } else if way.wins.len() >= self.zones {
                    Err(format!(
                        "{id} needs a losing zone, and way \"{}\" wins on all {} zones",
                        way.id, self.zones
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// The way's only combination, when its weights give exactly one a weight above 0.
    fn always_shows(&self, way: &Way) -> Vec<&'static str> {
        match self.weights_for(way) {
            Some(w) if !way.wins.is_empty() && w.iter().filter(|&&x| x > 0).count() == 1 => {
                Combination::ALL
                    .iter()
                    .filter(|c| w[c.index()] > 0)
                    .map(|&c| self.id(c))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Builds a face for `way` (GAMES.md, poker). Winning zones get the way's amounts (fixed
    /// zones as the spec says, the others in random free zones); each draws its combination
    /// from the way's weights (else its tier's), in zone order, a drawn four of a kind or
    /// royal flush weighing 0 for the zones after it. Each losing zone draws its near miss (four
    /// to a flush / to a straight made with its own cards, at the spec's rates, else none)
    /// and shows a decoy amount. Asked to show a feature (`show`), the first winning zone
    /// takes the combination asked, or the first losing zone the near miss asked, instead
    /// of drawing it (see `CardHands::goals`). Then the cards are dealt constructively
    /// (community cards first, shaped for the combinations wanted, then the zones, hardest
    /// first, each from the cards that give it exactly its goal under both readings); a
    /// deal that reaches a dead end is started again, at most [`MAX_ATTEMPTS`] times, with
    /// the same goals, and then an `Err`. A near miss the community cards leave no room for
    /// is dropped (the zone still loses under both readings). In debug builds the finished
    /// face is evaluated and any difference from the goals is an `Err`; generation judges
    /// every face anyway.
    fn synthesize_showing(
        &self,
        way: &Way,
        show: Option<&str>,
        rng: &mut FaceRng,
    ) -> Result<Face, String> {
        self.synthesize_counted(way, show, rng)
            .map(|(face, _)| face)
    }

    /// A card's inscription: its rank and suit in letters from the spec's `rank_names` and
    /// `suit_names`, written as `card_name` says (`{rank} OF {suit}`: `QUEEN OF HEARTS`).
    fn inscription(&self, column: usize, code: u8) -> Option<String> {
        (self.card_columns.contains(&column) && code < DECK).then(|| {
            self.card_name
                .replace("{rank}", self.rank_caption(code))
                .replace("{suit}", self.suit_caption(code))
        })
    }

    /// Judges the face: each zone whose best combination by the letter exists (see
    /// [`read_zone`]; the spec's combinations only) wins its GAIN amount (one win per
    /// zone), and the lot is the sum of the winning zones. Every case where the strict and
    /// the naive readings could differ, and every duplicate card, is reported as an
    /// ambiguity (GAMES.md).
    fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
        let codes = &face.codes;
        let push = |ev: &mut Evaluation, a: &'static str| {
            if !ev.ambiguities.contains(&a) {
                ev.ambiguities.push(a);
            }
        };
        let (mut seen, mut duplicate, mut highest) = (0u64, false, 0u8);
        for &i in &self.card_columns {
            let c = codes[i];
            highest = highest.max(c);
            duplicate |= seen & 1 << (c & 63) != 0;
            seen |= 1 << (c & 63);
        }
        if highest >= DECK {
            push(&mut ev, AMB_BAD_CODE);
            return ev;
        }
        if duplicate {
            push(&mut ev, AMB_DUPLICATE);
        }
        let mut cards = [0; COMMUNITY];
        cards.copy_from_slice(&codes[self.board_column..self.board_column + COMMUNITY]);
        let board = Board::new(cards);
        for z in 0..self.zones {
            let base = z * ZONE_COLUMNS;
            let r = read([codes[base], codes[base + 1]], &board, self.kinds);
            if let Some(c) = r.strict {
                match self.gain.amounts().get(codes[base + 2] as usize) {
                    Some(&amount) => {
                        ev.wins.push(AreaWin {
                            area: z as u8,
                            amount,
                        });
                        ev.features.push(AreaFeature {
                            area: z as u8,
                            name: self.id(c),
                        });
                    }
                    None => push(&mut ev, AMB_BAD_CODE),
                }
            } else {
                for (on, name) in [
                    (r.flush_draw, NEAR_MISS_FLUSH),
                    (r.straight_draw, NEAR_MISS_STRAIGHT),
                ] {
                    if on {
                        ev.losing_features.push(AreaFeature {
                            area: z as u8,
                            name,
                        });
                    }
                }
                if r.pair {
                    push(&mut ev, AMB_LOSER_PAIR);
                }
                if r.straight {
                    push(&mut ev, AMB_LOSER_STRAIGHT);
                }
                if r.flush {
                    push(&mut ev, AMB_LOSER_FLUSH);
                }
            }
            if r.straight_flush {
                push(&mut ev, AMB_STRAIGHT_FLUSH);
            }
        }
        if ev.wins.len() < self.zones {
            if board.pair {
                push(&mut ev, AMB_COMMUNITY_PAIR);
            }
            if has_straight(board.ranks) {
                push(&mut ev, AMB_COMMUNITY_STRAIGHT);
            }
            if board.suits.iter().any(|&n| n >= 5) {
                push(&mut ev, AMB_COMMUNITY_FLUSH);
            }
        }
        ev
    }

    /// Each zone (its id: its two cards and the GAIN), then the community cards
    /// (`community_id`).
    fn panels(&self) -> Vec<Panel> {
        let mut out: Vec<Panel> = (0..self.zones)
            .map(|z| Panel {
                id: self.areas[z].clone(),
                rows: vec![(z * ZONE_COLUMNS..z * ZONE_COLUMNS + 3).collect()],
            })
            .collect();
        out.push(Panel {
            id: self.community_id.clone(),
            rows: vec![(self.board_column..self.board_column + COMMUNITY).collect()],
        });
        out
    }

    /// A winning zone: its GAIN and the cards of its combination among its own and the
    /// community cards: the cards of the rank of its pair, three or four of a kind; one
    /// card of each rank of its straight; the cards of the suit of its flush; the five of
    /// its royal flush. A losing zone: its GAIN (a decoy), and the four cards of a
    /// suit or of four ranks of a straight that make its near miss.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let c = &face.codes;
        let mut out = Vec::new();
        let board = self.board_column..self.board_column + COMMUNITY;
        for z in 0..self.zones {
            let base = z * ZONE_COLUMNS;
            let seven: Vec<usize> = [base, base + 1].into_iter().chain(board.clone()).collect();
            let area = z as u8;
            let wins = ev.wins.iter().any(|w| w.area == area);
            let mut mark = |column: usize, kind: MarkKind| out.push(Mark { area, column, kind });
            let of_rank = |r: u8| seven.iter().copied().filter(move |&k| rank(c[k]) == r);
            let of_suit = |s: u8| seven.iter().copied().filter(move |&k| suit(c[k]) == s);
            let suit_count = |s: u8| of_suit(s).count();
            // One column for each rank of `window` (a bit set of ranks), own cards first.
            let straight = |window: u16| -> Vec<usize> {
                (0..13u8)
                    .filter(|r| window >> r & 1 == 1)
                    .filter_map(|r| of_rank(r).next())
                    .collect()
            };
            let ranks: u16 = seven.iter().fold(0, |m, &k| m | 1 << rank(c[k]));
            let windows = || {
                (0..=8u8)
                    .rev()
                    .map(|lo| 0x1Fu16 << lo)
                    .chain(std::iter::once(WHEEL))
            };
            let own = |k: &usize| *k == base || *k == base + 1;
            if wins {
                let kind = ev.feature(area).and_then(|id| self.kind_of(id));
                let cells: Vec<usize> = match kind {
                    Some(
                        Combination::Pair | Combination::ThreeOfAKind | Combination::FourOfAKind,
                    ) => {
                        let r = [c[base], c[base + 1]]
                            .into_iter()
                            .map(rank)
                            .filter(|&r| of_rank(r).any(|k| !own(&k)))
                            .max_by_key(|&r| (of_rank(r).count(), r))
                            // A pocket pair (min_community = 0).
                            .or((rank(c[base]) == rank(c[base + 1])).then(|| rank(c[base])));
                        r.map(|r| of_rank(r).collect()).unwrap_or_default()
                    }
                    Some(Combination::Flush) => (0..4u8)
                        .find(|&s| suit_count(s) >= 5)
                        .map(|s| of_suit(s).collect())
                        .unwrap_or_default(),
                    Some(Combination::Straight) => windows()
                        .take(if self.kinds & ACE_LOW != 0 { 10 } else { 9 })
                        .find(|&w| ranks & w == w && straight(w).iter().any(own))
                        .map(straight)
                        .unwrap_or_default(),
                    Some(Combination::RoyalFlush) => (0..4u8)
                        .map(|s| {
                            of_suit(s)
                                .filter(|&k| ROYAL >> rank(c[k]) & 1 == 1)
                                .collect::<Vec<_>>()
                        })
                        .find(|v| v.len() == 5)
                        .unwrap_or_default(),
                    None => Vec::new(),
                };
                for k in cells {
                    mark(k, MarkKind::Win);
                }
                mark(base + 2, MarkKind::Win);
                continue;
            }
            if ev
                .losing_features
                .iter()
                .any(|f| f.area == area && f.name == NEAR_MISS_FLUSH)
            {
                if let Some(s) =
                    (0..4u8).find(|&s| suit_count(s) == 4 && of_suit(s).any(|k| own(&k)))
                {
                    for k in of_suit(s) {
                        mark(k, MarkKind::NearMiss);
                    }
                }
            }
            if ev
                .losing_features
                .iter()
                .any(|f| f.area == area && f.name == NEAR_MISS_STRAIGHT)
            {
                let four = windows()
                    .find(|&w| (ranks & w).count_ones() == 4 && straight(w).iter().any(own));
                if let Some(w) = four {
                    for k in straight(ranks & w) {
                        mark(k, MarkKind::NearMiss);
                    }
                }
            }
            mark(base + 2, MarkKind::Decoy);
        }
        out
    }

    /// One sentence per zone, then the community cards, the combinations, the cards'
    /// inscriptions, the amounts, decoys, near misses and the combination weights.
    fn describe(&self) -> Vec<String> {
        let listed: Vec<Combination> = Combination::ALL
            .iter()
            .copied()
            .filter(|c| self.kinds & c.bit() != 0)
            .collect();
        let names: Vec<String> = listed
            .iter()
            .map(|&c| format!("« {} »", self.printed_name(c)))
            .collect();
        let board = &self.board_label;
        let mut lines: Vec<String> = (0..self.zones)
            .map(|z| {
                let usage = if self.kinds & POCKET != 0 {
                    format!("made with at least one of its 2 own cards and any of the {COMMUNITY} cards of « {board} » (its two cards alone may make a pair)")
                } else {
                    format!("made with at least one of its 2 own cards and at least one of the {COMMUNITY} cards of « {board} »")
                };
                format!(
                    "« {} » wins the amount in its GAIN when its best hand, {usage}, is one of: {} (only its best counts; winning zones add up).",
                    self.zone_labels[z],
                    names.join(", ")
                )
            })
            .collect();
        lines.push(format!(
            "« {board} » ({COMMUNITY} cards, {}1 to {}{COMMUNITY}) wins nothing by itself: it is read by every zone.",
            self.columns[self.board_column].name.trim_end_matches('1'),
            self.columns[self.board_column].name.trim_end_matches('1'),
        ));
        lines.push(format!(
            "Combinations, lowest to highest: {}.",
            listed
                .iter()
                .map(|&c| {
                    let def = if c == Combination::Straight && self.kinds & ACE_LOW != 0 {
                        "five consecutive ranks, ace high or low (A-2-3-4-5), not all of one suit"
                    } else {
                        c.definition()
                    };
                    format!("« {} » ({}: {def})", self.printed_name(c), self.id(c))
                })
                .collect::<Vec<_>>()
                .join("; ")
        ));
        lines.push(format!(
            "Cards: rank {} + suit {} in files; printed as \"{}\" with ranks {} and suits (c d h s) {}.",
            RANK_CHARS.iter().collect::<String>(),
            SUIT_CHARS.iter().collect::<String>(),
            self.card_name,
            self.rank_captions.join(" "),
            self.suit_captions.join(" ")
        ));
        let weights: Vec<String> = self
            .gain
            .amounts()
            .iter()
            .zip(&self.decoy_weights)
            .filter(|(_, &w)| w > 0)
            .map(|(m, w)| format!("{m}×{w}"))
            .collect();
        lines.push(format!(
            "GAIN amounts: {}; a losing zone's GAIN shows a decoy, weights {}.",
            self.gain
                .amounts()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            weights.join(" ")
        ));
        lines.push(format!(
            "Near misses: of losing zones, {:.2}% show four to a flush and {:.2}% four to a straight, their own cards with the community cards (when the community cards leave room).",
            f64::from(self.near_miss[1]) / 1e4,
            f64::from(self.near_miss[2]) / 1e4
        ));
        let show = |w: &[u32; 6]| {
            Combination::ALL
                .iter()
                .zip(w)
                .filter(|(_, &x)| x > 0)
                .map(|(&c, x)| format!("{}×{x}", self.id(c)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let unless = if self.way_weights.is_empty() {
            ""
        } else {
            " (unless its way has weights of its own)"
        };
        for (m, w) in &self.tier_weights {
            lines.push(format!(
                "Combinations shown, tier {m} (a ticket whose whole lot is {m}, part of it possibly won on another surface): each winning zone{unless} shows one drawn by weight from {}.",
                show(w)
            ));
        }
        for (id, w) in &self.way_weights {
            lines.push(format!(
                "Combinations shown, way {id}: each winning zone shows one drawn by weight from {}.",
                show(w)
            ));
        }
        lines
    }
}

fn bit(c: Card) -> u64 {
    1 << c
}

/// A card not in `excluded` for which `ok` holds, uniformly among them, or `None`.
/// A few plain draws first; then every candidate is enumerated (so the loop is bounded and
/// the result uniform either way).
fn draw_card(rng: &mut FaceRng, excluded: u64, ok: impl Fn(Card) -> bool) -> Option<Card> {
    for _ in 0..QUICK_TRIES {
        let c = below(rng, u32::from(DECK)) as Card;
        if excluded & bit(c) == 0 && ok(c) {
            return Some(c);
        }
    }
    let mut m = 0u64;
    for c in 0..DECK {
        if excluded & bit(c) == 0 && ok(c) {
            m |= bit(c);
        }
    }
    (m != 0).then(|| pick(rng, m))
}

/// Every card of the deck, as a card set (bit `c` for card `c`).
const ALL_CARDS: u64 = (1 << DECK) - 1;

/// One card of every rank of suit `c` (0) as a card set: multiply by a 4-bit suit set to get
/// the cards of those suits.
const ONE_PER_RANK: u64 = 0x1_1111_1111_1111;

/// The cards of the suits in `suits` (bit `s` for suit `s`).
const fn suit_cards(suits: u8) -> u64 {
    ONE_PER_RANK * (suits as u64 & 0xF)
}

/// The cards of the ranks in `ranks` (bit `r` for rank `r`).
fn rank_cards(ranks: u16) -> u64 {
    /// `SPREAD[x]`: bit `4i` set for every bit `i` of the 7-bit `x`.
    const SPREAD: [u64; 128] = {
        let mut t = [0u64; 128];
        let mut x = 0;
        while x < 128 {
            let mut i = 0;
            while i < 7 {
                if x & 1 << i != 0 {
                    t[x] |= 1 << (4 * i);
                }
                i += 1;
            }
            x += 1;
        }
        t
    };
    let (lo, hi) = (ranks as usize & 0x7F, (ranks as usize >> 7) & 0x3F);
    (SPREAD[lo] | SPREAD[hi] << 28) * 0xF
}

/// A card of the non-empty set `m`, uniformly.
fn pick(rng: &mut FaceRng, m: u64) -> Card {
    select(m, below(rng, m.count_ones())) as Card
}

/// The position of the `k`-th set bit of `m` (from 0; `k` below `m.count_ones()`).
fn select(mut m: u64, mut k: u32) -> u32 {
    let mut base = 0;
    loop {
        let n = (m & 0xFFFF).count_ones();
        if k < n {
            break;
        }
        k -= n;
        m >>= 16;
        base += 16;
    }
    for _ in 0..k {
        m &= m - 1;
    }
    base + m.trailing_zeros()
}

/// Community cards for a ticket whose zones lose or win with a pair or three of a kind, in the order
/// printed: uniformly one of the [`LOSING_RANK_SETS`] (five ranks, no pair, no straight),
/// each rank of a uniform suit but never all five of one suit, in a uniform order; with the
/// index of their rank set. One draw.
fn losing_board(rng: &mut FaceRng) -> ([Card; COMMUNITY], u16) {
    // 1 020 suit patterns: two bits per rank, less the four where all suits agree.
    let d = below_mixed(rng, [LOSING_RANK_SETS.len() as u32, 1020, 5, 4, 3, 2]);
    let mut ranks = LOSING_RANK_SETS[d[0] as usize];
    let mut suits = d[1] + 1;
    for monochrome in [0x155, 0x2AA] {
        if suits >= monochrome {
            suits += 1;
        }
    }
    let mut b = [0; COMMUNITY];
    for (i, c) in b.iter_mut().enumerate() {
        *c = card(ranks.trailing_zeros() as u8, (suits >> (2 * i) & 3) as u8);
        ranks &= ranks - 1;
    }
    permute(&mut b, [d[2], d[3], d[4], d[5]]);
    (b, d[0] as u16)
}

/// Fisher–Yates on the five community cards with the digits `j` (in `0..5`, `0..4`, `0..3`,
/// `0..2`): the card at 4 is swapped with the one at `j[0]`, then 3 with `j[1]`, and so on.
fn permute(b: &mut [Card; COMMUNITY], j: [u32; 4]) {
    for (i, &j) in (1..COMMUNITY).rev().zip(&j) {
        b.swap(i, j as usize);
    }
}

/// The five community cards in a uniform order (one draw).
fn shuffle_board(rng: &mut FaceRng, b: &mut [Card; COMMUNITY]) {
    permute(b, below_mixed(rng, [5, 4, 3, 2]));
}

/// Proposals drawn for a losing zone before every candidate is enumerated.
const LOSE_TRIES: usize = 24;

/// Suit pairs `sa | sb << 2` (suits of a losing zone's lower and higher own rank) that
/// leave at most four of a suit among its seven cards: first those with no four made with
/// an own card, then those with one (a near miss).
type SuitPairs = Runs<16>;

/// [`SuitPairs`] for every count of community cards per suit (`c + 5d + 25h + 125s`,
/// each count at most 4), worked out at compile time.
static SUIT_PAIRS: [SuitPairs; 625] = {
    let mut t = [Runs::EMPTY; 625];
    let mut key = 0;
    while key < t.len() {
        let counts = [key % 5, key / 5 % 5, key / 25 % 5, key / 125];
        let mut pass = 0;
        while pass < 2 {
            let mut x = 0u8;
            while x < 16 {
                let (sa, sb) = ((x & 3) as usize, (x >> 2) as usize);
                let both = (sa == sb) as usize;
                let (na, nb) = (counts[sa] + 1 + both, counts[sb] + 1 + both);
                if na <= 4 && nb <= 4 && (na == 4 || nb == 4) == (pass == 1) {
                    t[key].push(x);
                }
                x += 1;
            }
            if pass == 0 {
                t[key].close_first();
            }
            pass += 1;
        }
        key += 1;
    }
    t
};

/// What the community cards leave to losing zones, worked out once per ticket.
struct LosingRoom {
    /// Rank pairs for the community ranks.
    pairs: &'static LosingRankPairs,
    /// Suit pairs for the community suits.
    suits: &'static SuitPairs,
}

impl LosingRoom {
    /// The room on community cards `b`, whose ranks have index `set` in
    /// [`LOSING_SET_INDEX`], or `None` when they are not five distinct ranks with no
    /// straight and at most four of a suit (then no zone can lose: GAMES.md).
    fn new(b: &Board, set: u16) -> Option<LosingRoom> {
        debug_assert_eq!(set, LOSING_SET_INDEX[b.ranks as usize]);
        let pairs = LOSING_RANK_PAIRS.get(usize::from(set))?;
        if b.suits.iter().any(|&n| n > 4) {
            return None;
        }
        let [c, d, h, sp] = b.suits.map(usize::from);
        let suits = &SUIT_PAIRS[c + 5 * d + 25 * h + 125 * sp];
        Some(LosingRoom { pairs, suits })
    }
}

/// The own cards a losing zone with near miss `d` may hold on community cards with `room`,
/// ignoring cards already taken: each rank pair of `room` for `d` with each suit pair for
/// `d` (lower rank first). Exactly the pairs that lose under both readings with that near
/// miss (GAMES.md: no pair, no straight, no five of a suit among the seven cards; a four to
/// a flush / to a straight made with an own card only when `d` asks for it; `Any` allows
/// either or both). Pinned by a test against [`read`].
struct LosingChoice<'a> {
    /// Rank pairs `a | b << 4`.
    pairs: &'a [u8],
    /// Suit pairs `sa | sb << 2`.
    suits: &'a [u8],
}

impl<'a> LosingChoice<'a> {
    fn new(d: Draw, room: &'a LosingRoom) -> LosingChoice<'a> {
        let (p, s) = (&room.pairs, &room.suits);
        let (pairs, suits) = match d {
            Draw::None => (p.runs(true, false), s.runs(true, false)),
            Draw::Flush => (p.runs(true, false), s.runs(false, true)),
            Draw::Straight => (p.runs(false, true), s.runs(true, false)),
            Draw::Any => (p.runs(true, true), s.runs(true, true)),
        };
        LosingChoice { pairs, suits }
    }

    /// The choice of rank pair `k` (below `pairs.len()`) and suit pair `j` (below
    /// `suits.len()`).
    fn cards(&self, k: u32, j: u32) -> [Card; 2] {
        let (r, x) = (self.pairs[k as usize], self.suits[j as usize]);
        [card(r & 15, x & 3), card(r >> 4, x >> 2)]
    }

    /// Every choice whose cards are not in `used`.
    fn all(&self, used: u64) -> ArrayVec<[Card; 2], { 28 * 16 }> {
        (0..self.pairs.len() as u32)
            .flat_map(|k| (0..self.suits.len() as u32).map(move |j| self.cards(k, j)))
            .filter(|c| free(used, c))
            .collect()
    }
}

/// Neither card of `own` is in `used`.
fn free(used: u64, own: &[Card; 2]) -> bool {
    used & (bit(own[0]) | bit(own[1])) == 0
}

/// Own cards for a losing zone with near miss `d`, none in `used`, or `None` when there are
/// none: uniformly among the [`LosingChoice`]s, in random order. A choice and its order are
/// drawn (one draw) and redrawn while a card is taken, at most [`LOSE_TRIES`] times; then
/// every free choice is enumerated.
fn pick_losing(d: Draw, room: &LosingRoom, used: u64, rng: &mut FaceRng) -> Option<[Card; 2]> {
    let choice = LosingChoice::new(d, room);
    let radices = [choice.pairs.len() as u32, choice.suits.len() as u32, 2];
    if radices.contains(&0) {
        return None;
    }
    for _ in 0..LOSE_TRIES {
        let [k, j, order] = below_mixed(rng, radices);
        let own = choice.cards(k, j);
        if free(used, &own) {
            return Some(ordered(own, order));
        }
    }
    pick_losing_among_free(&choice, used, rng)
}

/// The end of [`pick_losing`] once its draws keep hitting taken cards: a choice among those
/// whose cards are free, uniformly, in random order.
#[cold]
#[inline(never)]
fn pick_losing_among_free(
    choice: &LosingChoice,
    used: u64,
    rng: &mut FaceRng,
) -> Option<[Card; 2]> {
    let all = choice.all(used);
    if all.is_empty() {
        return None;
    }
    let [i, order] = below_mixed(rng, [all.len() as u32, 2]);
    Some(ordered(all[i as usize], order))
}

/// `own` as it is (`order` 0) or swapped (1).
fn ordered(own: [Card; 2], order: u32) -> [Card; 2] {
    let swap = order as usize & 1;
    [own[swap], own[1 - swap]]
}

/// Ranks held exactly `n` times by the community cards.
fn ranks_counted(b: &Board, n: u8) -> u16 {
    (0..13)
        .filter(|&r| b.count[r] == n)
        .fold(0, |m, r| m | 1 << r)
}

/// Suits of which the community cards hold `n` cards with `ok(n)`.
fn suits_where(b: &Board, ok: impl Fn(u8) -> bool) -> u8 {
    (0..4)
        .filter(|&s| ok(b.suits[s]))
        .fold(0, |m, s| m | 1 << s)
}

/// Order in which zones are dealt: the most constrained first.
fn priority(g: Goal) -> u8 {
    match g {
        Goal::Win(Combination::FourOfAKind) => 0,
        Goal::Win(Combination::RoyalFlush) => 1,
        Goal::Win(Combination::Flush) => 2,
        Goal::Win(Combination::Straight) => 3,
        Goal::Win(Combination::ThreeOfAKind) => 4,
        Goal::Win(Combination::Pair) => 5,
        Goal::Lose(Draw::Flush) => 6,
        Goal::Lose(Draw::Straight) => 7,
        Goal::Lose(_) => 8,
    }
}

/// Some ace-high straight holds three or more of the ranks in `m`.
fn has_straight_core(m: u16) -> bool {
    STRAIGHTS[1..].iter().any(|&w| (m & w).count_ones() >= 3)
}

/// One attempt at dealing the cards for `goals` (one per zone): own cards per zone and the
/// community cards in the order printed. `None` on a dead end.
fn deal(goals: &[Goal], rng: &mut FaceRng) -> Option<(Zoned<[Card; 2]>, [Card; COMMUNITY])> {
    let losing = goals.iter().filter(|g| matches!(g, Goal::Lose(_))).count();
    // Pairs and threes of a kind need nothing of the community cards that losing zones do not.
    let plain = goals.iter().all(|g| {
        matches!(
            g,
            Goal::Lose(_) | Goal::Win(Combination::Pair | Combination::ThreeOfAKind)
        )
    });
    let (cards, set) = if plain {
        let (cards, set) = losing_board(rng);
        (cards, Some(set))
    } else {
        let mut cards = build_board(goals, rng)?;
        shuffle_board(rng, &mut cards);
        (cards, None)
    };
    let board = Board::new(cards);
    let set = set.unwrap_or_else(|| LOSING_SET_INDEX[board.ranks as usize]);
    let room = if losing > 0 {
        Some(LosingRoom::new(&board, set)?)
    } else {
        None
    };
    let mut used = cards.iter().fold(0u64, |u, &c| u | bit(c));
    let mut order: Zoned<usize> = (0..goals.len()).collect();
    if losing < goals.len() {
        order.sort_by_key(|&z| priority(goals[z]));
    }
    let mut own: Zoned<[Card; 2]> = std::iter::repeat_n([0; 2], goals.len()).collect();
    for z in order {
        let p = pick_own(goals[z], &board, &room, used, rng)?;
        used |= bit(p[0]) | bit(p[1]);
        own[z] = p;
    }
    Some((own, cards))
}

/// Community cards for `goals` (some zone winning with a four of a kind, royal flush, flush
/// or straight), not yet shuffled. Always five distinct ranks with no straight and at most
/// four of a suit, except one pair when a four of a kind is wanted (then every zone wins). A
/// royal flush gets three or four of its cards here, a flush three or four cards of its
/// suit, a straight three ranks of one straight, a four of a kind its pair.
fn build_board(goals: &[Goal], rng: &mut FaceRng) -> Option<[Card; COMMUNITY]> {
    let wants = |c: Combination| goals.contains(&Goal::Win(c));
    let four_kind = wants(Combination::FourOfAKind);
    let royal = wants(Combination::RoyalFlush);
    let straight_wanted = wants(Combination::Straight);
    let flush_suit = (royal || wants(Combination::Flush)).then(|| below(rng, 4) as u8);
    let mut b: ArrayVec<Card, COMMUNITY> = ArrayVec::new();
    let mut used = 0u64;
    let ranks = |b: &ArrayVec<Card, COMMUNITY>| b.iter().fold(0u16, |m, &c| m | 1 << rank(c));
    let suit_count =
        |b: &ArrayVec<Card, COMMUNITY>, s: u8| b.iter().filter(|&&c| suit(c) == s).count();
    let mut pair_rank = None;
    if four_kind {
        // Not a royal rank: the four of a kind takes all four cards of its rank.
        let r = below(rng, if royal { 8 } else { 13 }) as u8;
        let mut suits: ArrayVec<u8, 4> = (0..4).filter(|&s| Some(s) != flush_suit).collect();
        shuffle(rng, &mut suits);
        for &s in &suits[..2] {
            b.push(card(r, s));
        }
        pair_rank = Some(r);
    }
    if let Some(f) = flush_suit {
        if royal {
            let k = if four_kind {
                3
            } else {
                3 + below(rng, 2) as usize
            };
            let mut rr = [8u8, 9, 10, 11, 12];
            shuffle(rng, &mut rr);
            for &r in &rr[..k] {
                b.push(card(r, f));
            }
        } else {
            let n = if four_kind {
                3
            } else {
                3 + below(rng, 2) as usize
            };
            if straight_wanted {
                // The suited cards also hold three ranks of one straight.
                let w = below(rng, 9) as u8;
                let mut rs: ArrayVec<u8, 5> =
                    (w..w + 5).filter(|&r| Some(r) != pair_rank).collect();
                shuffle(rng, &mut rs);
                for &r in &rs[..3] {
                    b.push(card(r, f));
                }
            }
            while suit_count(&b, f) < n {
                let m = ranks(&b);
                let c = draw_card(rng, used_of(&b), |c| {
                    suit(c) == f && m & (1 << rank(c)) == 0 && !has_straight(m | 1 << rank(c))
                })?;
                b.push(c);
            }
        }
    }
    used |= used_of(&b);
    if straight_wanted && !has_straight_core(ranks(&b)) {
        let m = ranks(&b);
        let slots = (COMMUNITY - b.len()) as u32;
        let windows: ArrayVec<u16, 9> = STRAIGHTS[1..]
            .iter()
            .copied()
            .filter(|&w| 3u32.saturating_sub((m & w).count_ones()) <= slots)
            .collect();
        let w = windows[below(rng, windows.len() as u32) as usize];
        let mut need: ArrayVec<u8, 5> = (0..13u8)
            .filter(|&r| w & (1 << r) != 0 && m & (1 << r) == 0)
            .collect();
        shuffle(rng, &mut need);
        let missing = 3 - (m & w).count_ones() as usize;
        for &r in &need[..missing] {
            let c = draw_card(rng, used, |c| {
                rank(c) == r && Some(suit(c)) != flush_suit && suit_count(&b, suit(c)) < 4
            })?;
            b.push(c);
            used |= bit(c);
        }
    }
    while b.len() < COMMUNITY {
        let m = ranks(&b);
        let c = draw_card(rng, used, |c| {
            m & (1 << rank(c)) == 0
                && Some(suit(c)) != flush_suit
                && suit_count(&b, suit(c)) < 4
                && !has_straight(m | 1 << rank(c))
        })?;
        b.push(c);
        used |= bit(c);
    }
    let cards: [Card; COMMUNITY] = b.into_inner().ok()?;
    let board = Board::new(cards);
    let pairs = board.count.iter().filter(|&&n| n >= 2).count();
    let ok = !has_straight(board.ranks)
        && board.suits.iter().all(|&n| n <= 4)
        && pairs == usize::from(four_kind)
        && board.count.iter().all(|&n| n <= 2);
    ok.then_some(cards)
}

fn used_of(b: &[Card]) -> u64 {
    b.iter().fold(0u64, |u, &c| u | bit(c))
}

/// The cards a zone winning with `c` may take as its first own card: a necessary
/// condition, by rank and suit, for the zone to show exactly `c` (every pair of own cards
/// that does holds at least one such card; pinned by a test).
fn first_cards(c: Combination, b: &Board) -> u64 {
    match c {
        Combination::Pair | Combination::ThreeOfAKind => rank_cards(ranks_counted(b, 1)),
        Combination::FourOfAKind => rank_cards(ranks_counted(b, 2)),
        Combination::Straight => {
            let windows = WINDOWS_3[b.ranks as usize] & ACE_HIGH_WINDOWS;
            let ranks = (0..13)
                .filter(|&r| b.count[r] == 0 && WINDOWS_OF[r] & windows != 0)
                .fold(0, |m, r| m | 1 << r);
            rank_cards(ranks)
        }
        Combination::Flush => suit_cards(suits_where(b, |n| n >= 3)),
        Combination::RoyalFlush => (0..4u8)
            .filter(|&s| {
                let s = s as usize;
                b.suits[s] >= 3 && (b.suit_ranks[s] & ROYAL).count_ones() >= 3
            })
            .fold(0, |m, s| {
                m | rank_cards(ROYAL & !b.suit_ranks[s as usize]) & suit_cards(1 << s)
            }),
    }
}

/// The cards a zone winning with `c`, whose first own card is `c1`, may take as its second:
/// a necessary condition, by rank and suit, for the pair to show exactly `c` (pinned by a
/// test).
fn second_cards(c: Combination, c1: Card, b: &Board) -> u64 {
    let (r1, s1) = (rank(c1), suit(c1) as usize);
    // Suits the zone can take one more card of without five of a suit.
    let room = (0..4)
        .filter(|&s| b.suits[s] + u8::from(s == s1) < 4)
        .fold(0u8, |m, s| m | 1 << s);
    match c {
        Combination::Pair => {
            let ranks = (0..13u8)
                .filter(|&r| r != r1 && !has_straight(b.ranks | 1 << r))
                .fold(0, |m, r| m | 1 << r);
            rank_cards(ranks) & suit_cards(room)
        }
        Combination::ThreeOfAKind | Combination::FourOfAKind => rank_cards(1 << r1),
        Combination::Straight => {
            let with = b.ranks | 1 << r1;
            let ranks = (0..13u8)
                .filter(|&r| straight_starts(with | 1 << r) != 0)
                .fold(0, |m, r| m | 1 << r);
            rank_cards(ranks) & suit_cards(room)
        }
        Combination::Flush if b.suits[s1] >= 4 => ALL_CARDS,
        Combination::Flush => suit_cards(1 << s1),
        Combination::RoyalFlush => {
            let royal = b.suit_ranks[s1] | 1 << r1;
            if royal & ROYAL == ROYAL {
                ALL_CARDS
            } else {
                rank_cards(ROYAL & !royal) & suit_cards(1 << s1)
            }
        }
    }
}

/// True when own cards `own` give the zone exactly combination `c` under both readings:
/// `c` is its best by the letter among every kind this engine carries (then also among
/// the spec's, which list `c`), with no non-royal straight flush and no naive hand above
/// it (no straight or flush beside a pair, three or four of a kind, no flush beside a
/// straight).
fn win_ok(c: Combination, own: [Card; 2], b: &Board) -> bool {
    let z = read(own, b, ALL_KINDS);
    z.strict == Some(c)
        && !z.straight_flush
        && match c {
            Combination::Pair | Combination::ThreeOfAKind | Combination::FourOfAKind => {
                !z.straight && !z.flush
            }
            Combination::Straight => !z.flush,
            Combination::Flush | Combination::RoyalFlush => true,
        }
}

/// Own cards for a zone with goal `g`, none in `used`, or `None`. A losing zone: see
/// [`pick_losing`]; a near miss that cannot be shown is replaced by [`Draw::Any`]. A zone
/// winning with `c`: a first card is drawn uniformly among [`first_cards`], then a second
/// uniformly among those of [`second_cards`] that make [`win_ok`] hold (drawn without
/// replacement, so the loop ends); a first card with no second is set aside (at most 52).
fn pick_own(
    g: Goal,
    b: &Board,
    room: &Option<LosingRoom>,
    used: u64,
    rng: &mut FaceRng,
) -> Option<[Card; 2]> {
    let c = match g {
        Goal::Lose(d) => {
            let room = room.as_ref()?;
            return pick_losing(d, room, used, rng)
                .or_else(|| pick_losing(Draw::Any, room, used, rng));
        }
        Goal::Win(c) => c,
    };
    let mut firsts = first_cards(c, b) & !used;
    while firsts != 0 {
        let c1 = pick(rng, firsts);
        firsts &= !bit(c1);
        let mut seconds = second_cards(c, c1, b) & !used & !bit(c1);
        while seconds != 0 {
            let c2 = pick(rng, seconds);
            seconds &= !bit(c2);
            if win_ok(c, [c1, c2], b) {
                let mut p = [c1, c2];
                if below(rng, 2) == 1 {
                    p.swap(0, 1);
                }
                return Some(p);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::testkit::{drawn_twice, texts};
    use crate::spec::raw::RawSpec;
    use crate::spec::GameSpec;
    use proptest::prelude::*;
    use rand_core::SeedableRng;
    use std::path::PathBuf;
    use std::sync::OnceLock;

    fn load(rel: &str) -> GameSpec {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel);
        GameSpec::load(&p).unwrap_or_else(|e| panic!("{e}"))
    }

    fn full() -> &'static GameSpec {
        static S: OnceLock<GameSpec> = OnceLock::new();
        S.get_or_init(|| load("game_specs/poker.toml"))
    }

    fn small() -> &'static GameSpec {
        static S: OnceLock<GameSpec> = OnceLock::new();
        S.get_or_init(|| load("tests/specs/poker_small.toml"))
    }

    /// The card_hands style of the first surface of `spec`, built again as its own type.
    pub(super) fn surface(spec: &GameSpec) -> CardHands {
        spec.surface_style(0, |t, ctx| CardHands::new(&style::parse(t)?, ctx))
            .expect("a card_hands surface")
    }

    fn cards<const N: usize>(s: &str) -> [Card; N] {
        let v: Vec<Card> = s
            .split_whitespace()
            .map(|c| parse_card(c).unwrap_or_else(|| panic!("bad card {c}")))
            .collect();
        v.try_into()
            .unwrap_or_else(|_| panic!("expected {N} cards in {s}"))
    }

    /// A face of the full spec: four zones as "Ah 7c", the community as "As Kd 9c 4h 2s",
    /// GAIN amounts in euros.
    fn face(zones: [&str; 4], board: &str, gains: [u64; 4]) -> Face {
        let spec = full();
        let cols = spec.game.columns();
        let mut f = Face::default();
        for z in 0..4 {
            let own: [Card; 2] = cards(zones[z]);
            f.codes[z * 4] = own[0];
            f.codes[z * 4 + 1] = own[1];
            let ColumnKind::Amount(a) = &cols[z * 4 + 2].kind else {
                panic!("gain column")
            };
            let code = a
                .iter()
                .position(|&m| m == Money::units(gains[z]))
                .expect("a zone amount");
            f.codes[z * 4 + 2] = code as u8;
            f.codes[z * 4 + 3] = spec
                .captions
                .keys()
                .position(|&m| m == Money::units(gains[z]))
                .unwrap() as u8;
        }
        let b: [Card; 5] = cards(board);
        f.codes[16..21].copy_from_slice(&b);
        f
    }

    fn strict(own: &str, board: &str) -> Option<Combination> {
        read_zone(cards(own), cards(board)).strict
    }

    // Three harmless losing zones for a community "As Kd 9c 4h 2s"-like board are built per
    // test; these helpers keep the expected values explicit.
    fn wins(ev: &Evaluation) -> Vec<(u8, u64, &'static str)> {
        ev.wins
            .iter()
            .map(|w| (w.area, w.amount.cents() / 100, ev.feature(w.area).unwrap()))
            .collect()
    }

    #[test]
    fn card_codes_round_trip() {
        for c in 0..DECK {
            assert_eq!(parse_card(&card_code(c)), Some(c));
        }
        assert_eq!(card_code(card(12, 2)), "Ah");
        assert_eq!(card_code(card(8, 1)), "Td");
        assert_eq!(parse_card("10h"), None);
        assert_eq!(parse_card("ah"), None);
        let spec = full();
        let names: Vec<&str> = spec
            .game
            .columns()
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(names[..4], ["p1_c1", "p1_c2", "p1_gain", "p1_caption"]);
        assert_eq!(names[12..16], ["p4_c1", "p4_c2", "p4_gain", "p4_caption"]);
        assert_eq!(names[16..], ["b1", "b2", "b3", "b4", "b5"]);
        assert_eq!(spec.game.areas(), ["p1", "p2", "p3", "p4"]);
    }

    /// One hand-made zone per combination (art. 3.4), each the zone's best.
    #[test]
    fn each_combination_by_the_letter() {
        assert_eq!(strict("Ah 7c", "As Kd 9c 4h 2s"), Some(Combination::Pair));
        assert_eq!(
            strict("9h 9d", "9c Kd 5s 2h Jc"),
            Some(Combination::ThreeOfAKind)
        );
        assert_eq!(
            strict("Kc 3d", "Kd Kh 8s 5c 2h"),
            Some(Combination::ThreeOfAKind)
        );
        assert_eq!(
            strict("8h 2c", "4c 5d 6s 7h Kd"),
            Some(Combination::Straight)
        );
        assert_eq!(strict("Ah 3h", "7h 9h Jh 2c Kd"), Some(Combination::Flush));
        assert_eq!(strict("2h 9c", "4h 7h Jh Kh 3s"), Some(Combination::Flush));
        assert_eq!(
            strict("7c 7d", "7h 7s Kd 4c 2h"),
            Some(Combination::FourOfAKind)
        );
        assert_eq!(
            strict("7c Qd", "7h 7s 7d 4c 2h"),
            Some(Combination::FourOfAKind)
        );
        assert_eq!(
            strict("Ks As", "Ts Js Qs 3d 4c"),
            Some(Combination::RoyalFlush)
        );
        // Best only (art. 3.6): brelan beats the paire it contains, couleur beats quinte.
        assert_eq!(
            strict("9h Kc", "9c 9d Kd 5s 2h"),
            Some(Combination::ThreeOfAKind)
        );
        assert_eq!(strict("8h 2h", "4h 5h 6s 7h Kh"), Some(Combination::Flush));
        // Nothing: high card.
        assert_eq!(strict("Ah 7c", "Qs Kd 9c 4h 2s"), None);
    }

    /// The letter, where it differs from standard poker.
    #[test]
    fn the_letter_where_poker_differs() {
        // Art. 3.5: community cards alone never make a combination.
        assert_eq!(strict("3h 9c", "Kc Kd 5h 8s 2c"), None);
        assert_eq!(strict("Kh Jc", "5c 6d 7h 8s 4c"), None);
        assert_eq!(strict("3c 9d", "2h 5h 8h Th Qh"), None);
        // Art. 3.4: at least one community card: a pocket pair alone is nothing, nor a pocket
        // pair beside a community pair.
        assert_eq!(strict("8c 8d", "As Kd 5c 3h 2s"), None);
        assert_eq!(strict("7c 7d", "Kc Kd 5h 8s 2c"), None);
        // Ace high only: A-2-3-4-5 is no quinte.
        assert_eq!(strict("Ac 4d", "2s 3h 5c 9d Jh"), None);
        // A straight flush other than the royal one is neither quinte nor couleur...
        assert_eq!(strict("6s 2c", "7s 8s 9s Ts Kd"), None);
        // ...unless another card of a rank breaks the suit: then it is a quinte,
        assert_eq!(
            strict("6s Jh", "7s 8s 9s Ts Kd"),
            Some(Combination::Straight)
        );
        assert_eq!(
            strict("6h 2c", "6s 7s 8s 9s Ts"),
            Some(Combination::Straight)
        );
        // ...or a sixth suited card leaves five non-consecutive ones: then a couleur.
        assert_eq!(strict("6s 2s", "7s 8s 9s Ts Kd"), Some(Combination::Flush));
        // A-2-3-4-5 suited is not consecutive by the letter: a couleur.
        assert_eq!(strict("As 4s", "2s 3s 5s 9d Kc"), Some(Combination::Flush));
        // A card of the zone substitutes for a community card of the same rank.
        assert_eq!(
            strict("5d Kh", "5c 6d 7h 8s 9c"),
            Some(Combination::Straight)
        );
        // Royal with one own card.
        assert_eq!(
            strict("As 2d", "Ts Js Qs Ks 3c"),
            Some(Combination::RoyalFlush)
        );
    }

    #[test]
    fn a_clean_face_evaluates_with_amounts_added() {
        let f = face(
            ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
            "As Kd 9c 4h 2s",
            [5, 10, 50000, 3],
        );
        let ev = full().game.evaluate(&f);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(wins(&ev), vec![(0, 5, "paire"), (1, 10, "brelan")]);
        assert_eq!(ev.prize(), Money::units(15));
    }

    #[test]
    fn near_misses_on_losing_zones_are_reported() {
        // p1: 2h 7h Kh 5h, four hearts; p2: A 2 3 4, four of the wheel; p3: nothing;
        // p4 pairs the jack and wins.
        let f = face(
            ["Kh 5h", "Ac 3d", "Kd 6d", "Jh 3h"],
            "2h 7h Jc 9d 4s",
            [5, 10, 50, 3],
        );
        let ev = full().game.evaluate(&f);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(wins(&ev), vec![(3, 3, "paire")]);
        let near: Vec<(u8, &str)> = ev
            .losing_features
            .iter()
            .map(|f| (f.area, f.name))
            .collect();
        assert_eq!(near, vec![(0, NEAR_MISS_FLUSH), (1, NEAR_MISS_STRAIGHT)]);
        // The winning zones' features are unchanged by them.
        assert_eq!(ev.feature(0), None);
        assert_eq!(ev.feature(3), Some("paire"));
        assert!(ev.shows(NEAR_MISS_FLUSH) && ev.shows("paire") && !ev.shows("brelan"));
    }

    #[test]
    fn which_ways_can_show_which_feature() {
        let s = full();
        let m = surface(s);
        let way = |id: &str| &s.ways[s.way_by_id(id).unwrap() as usize];
        assert_eq!(m.can_show(way("50000"), "quinte_flush_royale"), Ok(()));
        assert_eq!(
            m.can_show(way("50000"), "paire"),
            Err("way \"50000\" gives paire no weight (combination_weights of its tier, or way_combination_weights)".into())
        );
        assert_eq!(
            m.can_show(way("lose"), "paire"),
            Err("way \"lose\" gives paire no weight (combination_weights of its tier, or way_combination_weights)".into())
        );
        assert_eq!(m.can_show(way("25+25+25+25"), "carre"), Ok(()));
        assert_eq!(
            m.can_show(way("25+25+25+25"), NEAR_MISS_FLUSH),
            Err(
                "near_miss_flush needs a losing zone, and way \"25+25+25+25\" wins on all 4 zones"
                    .into()
            )
        );
        assert_eq!(m.can_show(way("10+3"), NEAR_MISS_STRAIGHT), Ok(()));
        assert_eq!(m.always_shows(way("50000")), vec!["quinte_flush_royale"]);
        assert_eq!(m.always_shows(way("1000")), Vec::<&str>::new());
        let err = m
            .synthesize_showing(way("50000"), Some("carre"), &mut FaceRng::seed_from_u64(3))
            .unwrap_err();
        assert!(err.contains("gives carre no weight"), "{err}");
    }

    #[test]
    fn every_combination_on_a_face() {
        let spec = full();
        // Royale, quinte and couleur on one clean face (p4 loses).
        let f = face(
            ["Js As", "Jd 9c", "3s 5s", "2c 4d"],
            "Ts Qs Ks 6h 8h",
            [50000, 3, 4, 5],
        );
        let ev = spec.game.evaluate(&f);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(
            wins(&ev),
            vec![
                (0, 50000, "quinte_flush_royale"),
                (1, 3, "quinte"),
                (2, 4, "couleur")
            ]
        );
        // Carré: the community pair is fine when all four zones win.
        let f = face(
            ["7c 7d", "Kc 5d", "4h 4d", "Qs Qh"],
            "7h 7s Kd 4c Qd",
            [2, 2, 2, 2],
        );
        let ev = spec.game.evaluate(&f);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(
            wins(&ev),
            vec![
                (0, 2, "carre"),
                (1, 2, "paire"),
                (2, 2, "brelan"),
                (3, 2, "brelan")
            ]
        );
        assert_eq!(ev.prize(), Money::units(8));
    }

    #[test]
    fn ambiguous_faces_are_reported() {
        let spec = full();
        let amb = |zones: [&str; 4], board: &str| {
            spec.game
                .evaluate(&face(zones, board, [2, 3, 4, 5]))
                .ambiguities
        };
        let quiet = ["Jc Qd", "Jh Qh", "Jd Qs", "Js Qc"]; // losing, no draws, on the boards below
        let mut z = quiet;
        // Pocket pair on a losing zone.
        z[0] = "8c 8d";
        assert_eq!(amb(z, "As Kd 5c 3h 2s"), vec![AMB_LOSER_PAIR]);
        // A-2-3-4-5 on a losing zone.
        z[0] = "Ac 4d";
        assert_eq!(amb(z, "2s 3h 5c 9d 7h"), vec![AMB_LOSER_STRAIGHT]);
        // Community pair / straight / flush, not all four winning.
        assert_eq!(
            amb(quiet, "Kc Kd 5h 8s 2c"),
            vec![AMB_LOSER_PAIR, AMB_COMMUNITY_PAIR]
        );
        assert_eq!(
            amb(["Kc 2h", "Kh 3d", "Ks 3c", "Ad 2s"], "5c 6d 7h 8s 9c"),
            vec![AMB_LOSER_STRAIGHT, AMB_COMMUNITY_STRAIGHT]
        );
        assert_eq!(
            amb(["3c 4d", "3d Kd", "4s 7d", "Kc 7c"], "2h 5h 8h Th Qh"),
            vec![AMB_LOSER_FLUSH, AMB_COMMUNITY_FLUSH]
        );
        // Two pairs of the wrong origin (pocket pair, community pair) lose by the letter.
        assert_eq!(
            amb(["7c 7d", "Jh Qh", "Jd Qs", "Js Qc"], "Kc Kd 5h 8s 2c"),
            vec![AMB_LOSER_PAIR, AMB_COMMUNITY_PAIR]
        );
        // A non-royal straight flush deciding a zone: losing by the letter...
        assert_eq!(
            amb(["6s 2c", "3c 4d", "3d 5c", "4c Ah"], "7s 8s 9s Ts Kd"),
            vec![AMB_LOSER_STRAIGHT, AMB_LOSER_FLUSH, AMB_STRAIGHT_FLUSH]
        );
        // ...or winning a quinte / couleur by the letter while a player sees a straight flush.
        assert_eq!(
            amb(["6s Jh", "3c 4d", "3d 5c", "4c Ah"], "7s 8s 9s Ts 2d"),
            vec![AMB_STRAIGHT_FLUSH]
        );
        assert_eq!(
            amb(["As 4s", "6h 7d", "Jh Qd", "Td 8c"], "2s 3s 5s 9d Kc"),
            vec![AMB_STRAIGHT_FLUSH]
        );
        // The same card twice.
        let mut z = quiet;
        z[0] = "Ah 7c";
        z[1] = "Ah Qh";
        assert!(amb(z, "As Kd 9c 4h 2s").contains(&AMB_DUPLICATE));
        // A community straight when all four zones win is no ambiguity.
        let f = face(
            ["5d Kh", "6h Ah", "7d Qh", "8h Jh"],
            "5c 6d 7h 8s 9c",
            [2, 2, 2, 2],
        );
        let ev = spec.game.evaluate(&f);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(ev.wins.len(), 4);
        // A royal beside a 9-K straight flush is the royal: no ambiguity.
        let f = face(
            ["9s As", "Jc Qd", "Jd Qc", "Jh Qh"],
            "Ts Js Qs Ks 3c",
            [2, 2, 2, 2],
        );
        let ev = spec.game.evaluate(&f);
        assert!(!ev.ambiguities.contains(&AMB_STRAIGHT_FLUSH), "{ev:?}");
        assert_eq!(ev.feature(0), Some("quinte_flush_royale"));
    }

    #[test]
    fn bad_codes_are_findings_not_panics() {
        let mut f = face(
            ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
            "As Kd 9c 4h 2s",
            [5, 10, 2, 3],
        );
        f.codes[20] = 60;
        assert_eq!(full().game.evaluate(&f).ambiguities, vec![AMB_BAD_CODE]);
        let mut f = face(
            ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
            "As Kd 9c 4h 2s",
            [5, 10, 2, 3],
        );
        f.codes[2] = 200;
        assert_eq!(full().game.evaluate(&f).ambiguities, vec![AMB_BAD_CODE]);
    }

    fn every_goal_set() -> Vec<[Goal; 4]> {
        let kinds: Vec<Goal> = [
            Goal::Lose(Draw::None),
            Goal::Lose(Draw::Flush),
            Goal::Lose(Draw::Straight),
        ]
        .into_iter()
        .chain(Combination::ALL.iter().map(|&c| Goal::Win(c)))
        .collect();
        let mut out = Vec::new();
        let n = kinds.len();
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        let g = [kinds[a], kinds[b], kinds[c], kinds[d]];
                        let count = |x: Goal| g.iter().filter(|&&y| y == x).count();
                        let all_win = g.iter().all(|x| matches!(x, Goal::Win(_)));
                        if count(Goal::Win(Combination::FourOfAKind)) > 1
                            || count(Goal::Win(Combination::RoyalFlush)) > 1
                        {
                            continue;
                        }
                        if count(Goal::Win(Combination::FourOfAKind)) == 1 && !all_win {
                            continue;
                        }
                        out.push(g);
                    }
                }
            }
        }
        out
    }

    /// Every feasible set of goals deals, and the deal is read back exactly as wanted, with
    /// no ambiguity: the evaluator and the builder agree on every combination and near miss.
    #[test]
    fn every_goal_set_deals_and_reads_back() {
        let sets = every_goal_set();
        assert_eq!(sets.len(), 324);
        let mut rng = FaceRng::seed_from_u64(7);
        let mut dead_ends = 0;
        let mut near = [0u32; 2];
        for goals in &sets {
            for _ in 0..8 {
                let mut dealt = None;
                for _ in 0..MAX_ATTEMPTS {
                    dealt = deal(goals, &mut rng);
                    if dealt.is_some() {
                        break;
                    }
                    dead_ends += 1;
                }
                let (own, board) = dealt.unwrap_or_else(|| panic!("no deal for {goals:?}"));
                let b = Board::new(board);
                let mut seen = used_of(&board);
                for z in 0..4 {
                    assert_eq!(
                        seen & (bit(own[z][0]) | bit(own[z][1])),
                        0,
                        "duplicate card"
                    );
                    assert_ne!(own[z][0], own[z][1]);
                    seen |= bit(own[z][0]) | bit(own[z][1]);
                    let r = read(own[z], &b, ALL_KINDS);
                    match goals[z] {
                        Goal::Win(c) => assert_eq!(r.strict, Some(c), "{goals:?}"),
                        Goal::Lose(d) => {
                            assert!(r.strict.is_none() && !r.naive_wins(), "{goals:?}");
                            near[0] += u32::from(d == Draw::Flush && r.flush_draw);
                            near[1] += u32::from(d == Draw::Straight && r.straight_draw);
                        }
                    }
                    assert!(!r.straight_flush);
                }
            }
        }
        // Dead ends are rare: far from MAX_ATTEMPTS in a row.
        assert!(dead_ends < sets.len() * 8 / 10, "{dead_ends} dead ends");
        assert!(near[0] > 0 && near[1] > 0);
    }

    /// The losing choices are exactly the own cards that read as a loser with the near
    /// miss asked, on every board a losing zone can meet (all-losing tickets' and those built
    /// for winning zones), with cards taken by other zones left out.
    #[test]
    fn losing_choices_are_exactly_the_losers() {
        let mut rng = FaceRng::seed_from_u64(11);
        let goal_sets = every_goal_set();
        let mut sizes = [0usize; 4];
        for round in 0..600 {
            let goals = goal_sets[round % goal_sets.len()];
            let cards = if round % 2 == 0 {
                losing_board(&mut rng).0
            } else {
                match build_board(&goals, &mut rng) {
                    Some(c) => c,
                    None => continue,
                }
            };
            let b = Board::new(cards);
            if b.pair {
                continue; // a carré's board: every zone wins there
            }
            let room = LosingRoom::new(&b, LOSING_SET_INDEX[b.ranks as usize]).unwrap();
            // A few cards already taken by other zones.
            let mut used = used_of(&cards);
            for _ in 0..below(&mut rng, 7) {
                used |= bit(below(&mut rng, 52) as Card);
            }
            for (i, d) in [Draw::None, Draw::Flush, Draw::Straight, Draw::Any]
                .into_iter()
                .enumerate()
            {
                let mut got: Vec<[Card; 2]> = LosingChoice::new(d, &room).all(used).to_vec();
                got.sort();
                let mut want = Vec::new();
                for c0 in 0..DECK {
                    for c1 in 0..DECK {
                        if rank(c0) >= rank(c1) || !free(used, &[c0, c1]) {
                            continue;
                        }
                        let z = read([c0, c1], &b, ALL_KINDS);
                        let ok = z.strict.is_none()
                            && !z.naive_wins()
                            && match d {
                                Draw::None => !z.flush_draw && !z.straight_draw,
                                Draw::Flush => z.flush_draw && !z.straight_draw,
                                Draw::Straight => z.straight_draw && !z.flush_draw,
                                Draw::Any => true,
                            };
                        if ok {
                            want.push([c0, c1]);
                        }
                    }
                }
                assert_eq!(got, want, "{d:?} on {cards:?}");
                sizes[i] += got.len();
            }
        }
        // Every kind of choice was met, many times.
        assert!(sizes.iter().all(|&n| n > 1000), "{sizes:?}");
    }

    /// The first and second card sets of a winning zone hold every pair of own cards that
    /// shows the combination (one card in the first set, the other in that card's second).
    #[test]
    fn winning_card_sets_miss_no_winner() {
        let mut rng = FaceRng::seed_from_u64(13);
        let goal_sets: Vec<[Goal; 4]> = every_goal_set()
            .into_iter()
            .filter(|g| g.iter().any(|g| matches!(g, Goal::Win(_))))
            .collect();
        let mut winners = [0usize; 6];
        for round in 0..400 {
            let goals = goal_sets[round % goal_sets.len()];
            let Some(cards) = build_board(&goals, &mut rng) else {
                continue;
            };
            let b = Board::new(cards);
            let room = LosingRoom::new(&b, LOSING_SET_INDEX[b.ranks as usize]);
            let mut used = used_of(&cards);
            // Zones in dealing order, each checked against the cards dealt before it.
            let mut order = goals;
            order.sort_by_key(|&g| priority(g));
            for g in order {
                let Some(own) = pick_own(g, &b, &room, used, &mut rng) else {
                    break; // a dead end: the deal would start again
                };
                let before = used;
                used |= bit(own[0]) | bit(own[1]);
                let Goal::Win(c) = g else { continue };
                let used = before;
                let firsts = first_cards(c, &b);
                for c0 in 0..DECK {
                    for c1 in 0..DECK {
                        if c0 == c1 || !free(used, &[c0, c1]) || !win_ok(c, [c0, c1], &b) {
                            continue;
                        }
                        let reachable = |x: Card, y: Card| {
                            firsts & bit(x) != 0 && second_cards(c, x, &b) & bit(y) != 0
                        };
                        assert!(
                            reachable(c0, c1) || reachable(c1, c0),
                            "{c:?}: {} {} on {cards:?}",
                            card_code(c0),
                            card_code(c1),
                        );
                        winners[c.index()] += 1;
                    }
                }
            }
        }
        assert!(winners.iter().all(|&n| n > 40), "{winners:?}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Every way of both specs round-trips: synthesize → evaluate → recognise gives the
        /// way back, with no ambiguity, and each winning zone shows a combination its way's
        /// weights allow.
        #[test]
        fn every_way_round_trips(seed in any::<[u8; 32]>()) {
            for spec in [full(), small()] {
                let mut rng = FaceRng::from_seed(seed);
                let raw = raw_surface(spec);
                for (id, way) in spec.ways.iter().enumerate() {
                    let allowed = if id == 0 { BTreeMap::new() } else { spec_weights(&raw, way) };
                    for _ in 0..3 {
                        let f = spec.game.synthesize(way, &mut rng).map_err(|e| TestCaseError::fail(e.to_string()))?;
                        let ev = spec.game.evaluate(&f);
                        prop_assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
                        prop_assert_eq!(spec.recognise(&ev.wins), Some(id as u16));
                        prop_assert_eq!(ev.prize(), way.amount);
                        for w in &ev.wins {
                            let name = ev.feature(w.area).unwrap();
                            prop_assert!(allowed.get(name).is_some_and(|&w| w > 0), "{} on way {}", name, way.id);
                        }
                    }
                }
            }
        }
    }

    /// The way's weights as the spec text gives them (read independently of the mechanic).
    fn spec_weights(p: &RawCardHands, way: &Way) -> BTreeMap<String, u32> {
        p.way_combination_weights
            .get(&way.id)
            .or_else(|| {
                p.combination_weights
                    .iter()
                    .find(|(k, _)| k.parse::<Money>().unwrap() == way.amount)
                    .map(|x| x.1)
            })
            .unwrap()
            .clone()
    }

    /// The spec's card_hands table as written (read independently of the mechanic).
    fn raw_surface(spec: &GameSpec) -> RawCardHands {
        let raw: RawSpec = toml::from_str(&spec.text).unwrap();
        let mut t = raw.surfaces[0].get_ref().clone();
        t.remove("style");
        t.remove("id");
        style::parse(t).unwrap()
    }

    /// Value-stability vector: the same stream gives the same face, and these two faces are
    /// part of the reproducibility contract (a change here changes every block generated).
    #[test]
    fn synthesis_is_deterministic_and_pinned() {
        let spec = full();
        let way = &spec.ways[spec.way_by_id("4+3+3+3").unwrap() as usize];
        let a = drawn_twice(&spec.game, way, 42);
        let lose = spec
            .game
            .synthesize(&spec.ways[0], &mut FaceRng::seed_from_u64(42))
            .unwrap();
        let show = |f: &Face| texts(&spec.game, f).join(",");
        assert_eq!(show(&lose), PINNED_LOSE);
        assert_eq!(show(&a), PINNED_4333);
    }

    const PINNED_LOSE: &str = "Jh,Qc,2,DEUX EUROS,2c,9c,10,DIX EUROS,Td,Qd,15,QUINZE EUROS,Th,Qs,15,QUINZE EUROS,5s,8c,4h,Ah,7h";
    const PINNED_4333: &str = "5c,4d,4,QUATRE EUROS,Jh,7d,3,TROIS EUROS,3c,8d,3,TROIS EUROS,Th,Td,3,TROIS EUROS,Tc,8h,3d,4h,Js";

    /// Combination and near-miss frequencies follow the spec over many faces.
    #[test]
    fn synthesis_follows_the_weights() {
        let spec = full();
        let mut rng = FaceRng::seed_from_u64(3);
        // Tier 5 way "5": paire 8, brelan 2 → 80 % paire.
        let way = &spec.ways[spec.way_by_id("5").unwrap() as usize];
        let mut paires = 0;
        for _ in 0..2000 {
            let ev = spec
                .game
                .evaluate(&spec.game.synthesize(way, &mut rng).unwrap());
            paires += usize::from(ev.features[0].name == "paire");
        }
        assert!((1500..1700).contains(&paires), "{paires}");
        // Losing zones: near misses at the spec's rates (0.12 each) when there is room.
        let (mut flush, mut straight, mut zones) = (0, 0, 0);
        for _ in 0..1000 {
            let f = spec.game.synthesize(&spec.ways[0], &mut rng).unwrap();
            let board: [Card; 5] = f.codes[16..21].try_into().unwrap();
            for z in 0..4 {
                let r = read_zone([f.codes[z * 4], f.codes[z * 4 + 1]], board);
                flush += usize::from(r.flush_draw);
                straight += usize::from(r.straight_draw);
                zones += 1;
            }
        }
        assert_eq!(zones, 4000);
        assert!(
            (400..600).contains(&flush) && (400..600).contains(&straight),
            "{flush} flush draws, {straight} straight draws"
        );
    }

    fn spec_with(replace: &str, by: &str) -> Result<GameSpec, crate::spec::SpecError> {
        let text = full().text.replace(replace, by);
        assert_ne!(text, full().text, "the replaced text is in the spec");
        GameSpec::parse(&PathBuf::from("poker-variant.toml"), text)
    }

    #[test]
    fn infeasible_weights_are_rejected() {
        // A field error names the surface's field, and the field's line where the loader
        // finds it (a key of the surface, or its sub-table's header), else the surface's
        // (`[[surfaces]]`).
        let line_of = |key: &str| {
            full()
                .text
                .lines()
                .position(|l| l.starts_with(key))
                .map(|i| i + 1)
        };
        let e = spec_with("near_miss_flush = 0.12", "near_miss_flush = -0.12").unwrap_err();
        assert_eq!(e.field, "surfaces[0].near_miss_flush");
        assert_eq!(e.line, line_of("near_miss_flush ="));
        let e = spec_with(
            "[surfaces.combination_weights.\"5\"]\npaire = 8\nbrelan = 2",
            "[surfaces.combination_weights.\"5\"]\npaire = 0\nbrelan = 0",
        )
        .unwrap_err();
        assert_eq!(e.field, "surfaces[0].combination_weights.\"5\"");
        assert_eq!(e.line, line_of("[surfaces.combination_weights.\"5\"]"));
        // The same amount under two keys, in combination and decoy weights.
        let e = spec_with(
            "[surfaces.combination_weights.\"5\"]\npaire = 8",
            "[surfaces.combination_weights.\"5.0\"]\nquinte = 1\n[surfaces.combination_weights.\"5\"]\npaire = 8",
        )
        .unwrap_err();
        assert_eq!(e.field, "surfaces[0].combination_weights");
        assert!(e.message.contains("is the amount 5 a second time"), "{e}");
        let e = spec_with("\"2\" = 200\n", "\"2\" = 200\n\"2.00\" = 9\n").unwrap_err();
        assert_eq!(e.field, "surfaces[0].decoy_weights");
        assert!(e.message.contains("is the amount 2 a second time"), "{e}");
        // A carré on a tier that has single-zone ways.
        let e = spec_with(
            "[surfaces.combination_weights.\"5\"]\npaire = 8",
            "[surfaces.combination_weights.\"5\"]\ncarre = 1\npaire = 8",
        )
        .unwrap_err();
        assert!(
            e.message.contains("four of a kind needs a community pair"),
            "{e}"
        );
        assert_eq!(e.field, "way \"5\"");
        // Only royal on a way with two wins.
        let e = spec_with(
            "[surfaces.combination_weights.\"1000\"]\nquinte = 1\ncouleur = 2\n",
            "[surfaces.combination_weights.\"1000\"]\n",
        )
        .unwrap_err();
        assert!(e.message.contains("at most one of each fits"), "{e}");
        // Weights for an amount that is no tier, and a tier without weights.
        let e = spec_with(
            "[surfaces.combination_weights.\"5\"]",
            "[surfaces.combination_weights.\"6\"]",
        )
        .unwrap_err();
        assert!(
            e.message.contains("\"6\" is not the amount of a tier"),
            "{e}"
        );
        let e = spec_with(
            "[surfaces.combination_weights.\"5\"]\npaire = 8\nbrelan = 2\n",
            "",
        )
        .unwrap_err();
        assert!(e.message.contains("no combination weights"), "{e}");
        // An unknown field of the surface.
        let e = spec_with("near_miss_flush", "near_miss_flushes").unwrap_err();
        assert!(e.message.contains("unknown field"), "{e}");
    }

    #[test]
    fn small_spec_loads() {
        let s = small();
        assert_eq!(s.block_size, 3000);
        assert_eq!(s.pack_size, 100);
        assert_eq!(s.lots(), s.published_lots);
        assert_eq!(s.payout(), s.published_payout);
        let f = full();
        assert_eq!(f.block_size, 1_500_000);
        assert_eq!(f.lots(), 319_380);
        assert_eq!(f.payout(), Money::units(3_060_000));
        assert_eq!(f.price, Money::units(3));
    }

    /// Art. 3.4–3.5 by the letter: each of the 21 five-card hands of the seven cards but the
    /// community cards alone, judged as written; the best kept.
    fn best_five_by_letter(own: [Card; 2], community: [Card; COMMUNITY]) -> Option<Combination> {
        let seven = [
            own[0],
            own[1],
            community[0],
            community[1],
            community[2],
            community[3],
            community[4],
        ];
        let mut best = None;
        for i in 0..7 {
            for j in i + 1..7 {
                if (i, j) == (0, 1) {
                    continue; // the five community cards alone (art. 3.5)
                }
                let hand: Vec<Card> = (0..7)
                    .filter(|&k| k != i && k != j)
                    .map(|k| seven[k])
                    .collect();
                let bits = hand.iter().fold(0u16, |m, &c| m | 1 << rank(c));
                let same_suit = hand.iter().all(|&c| suit(c) == suit(hand[0]));
                let consecutive = bits.count_ones() == 5 && bits >> bits.trailing_zeros() == 0x1F;
                let c = match (consecutive, same_suit) {
                    (true, false) => Some(Combination::Straight),
                    (false, true) => Some(Combination::Flush),
                    (true, true) if bits == ROYAL => Some(Combination::RoyalFlush),
                    _ => None,
                };
                best = best.max(c);
            }
        }
        best
    }

    /// The bit-mask reading of quinte, couleur and quinte flush royale against the letter,
    /// on deals from small pools of cards (one to four suits, seven to thirteen ranks) where
    /// straights, flushes and straight flushes are common.
    #[test]
    fn best_five_is_the_letter() {
        let mut rng = FaceRng::seed_from_u64(35);
        let mut seen = [0u32; 4];
        for _ in 0..300_000 {
            let suits = 1 + below(&mut rng, 15) as u8;
            let width = 7 + below(&mut rng, 7) as u8;
            let low = below(&mut rng, u32::from(14 - width)) as u8;
            let pool: Vec<Card> = (0..4u8)
                .filter(|s| suits & 1 << s != 0)
                .flat_map(|s| (low..low + width).map(move |r| card(r, s)))
                .collect();
            if pool.len() < 7 {
                continue;
            }
            let mut pool = pool;
            shuffle(&mut rng, &mut pool);
            let own = [pool[0], pool[1]];
            let community: [Card; COMMUNITY] = pool[2..7].try_into().unwrap();
            let want = best_five_by_letter(own, community);
            assert_eq!(
                best_of(five_card_kinds(own, &Board::new(community), false)),
                want,
                "own {own:?}, community {community:?}"
            );
            if let Some(c) = want {
                seen[c.index() - 2] += 1;
            }
        }
        // Each of quinte, couleur, (carré slot unused), quinte flush royale came up often.
        assert!(
            seen[0] > 10_000 && seen[1] > 10_000 && seen[3] > 100,
            "{seen:?}"
        );
    }

    /// Cross-check against rs_poker (an established poker hand evaluator), on random
    /// seven-card sets enriched with straights, flushes and sets of a rank:
    /// - where rs_poker sees high card, ours finds no win and no naive hand;
    /// - ours equals a letter-of-the-rule oracle built on rs_poker's categories of every
    ///   card subset holding an own and a community card;
    /// - where standard poker and the rule agree (nothing in the community cards alone, no
    ///   pocket pair, best hand not A-2-3-4-5 nor a non-royal straight flush), the
    ///   categories agree.
    #[test]
    fn cross_check_with_rs_poker() {
        use rs_poker::core::{Card as PCard, Rank, Rankable};
        let to_p = |c: Card| PCard::try_from(card_code(c).as_str()).unwrap();
        let lib = |cs: &[Card]| cs.iter().map(|&c| to_p(c)).collect::<Vec<PCard>>().rank();
        let royal = lib(&cards::<5>("As Ks Qs Js Ts"));
        let wheel = lib(&cards::<5>("As 2d 3c 4h 5s"));
        // rs_poker's categories, numbered in poker order.
        const HIGH: u8 = 0;
        const SF: u8 = 8;
        let cat = |r: Rank| match r {
            Rank::HighCard(_) => HIGH,
            Rank::OnePair(_) => 1,
            Rank::TwoPair(_) => 2,
            Rank::ThreeOfAKind(_) => 3,
            Rank::Straight(_) => 4,
            Rank::Flush(_) => 5,
            Rank::FullHouse(_) => 6,
            Rank::FourOfAKind(_) => 7,
            Rank::StraightFlush(_) => SF,
        };
        let map = |r: Rank| match cat(r) {
            HIGH => None,
            1 | 2 => Some(Combination::Pair),
            3 | 6 => Some(Combination::ThreeOfAKind),
            4 => Some(Combination::Straight),
            5 => Some(Combination::Flush),
            7 => Some(Combination::FourOfAKind),
            _ => (r == royal).then_some(Combination::RoyalFlush),
        };
        // The letter via the library: the best listed combination over subsets of 2..=5 cards
        // with at least one own card and one community card, each judged by its category.
        let oracle = |seven: &[Card; 7]| {
            let mut best = None;
            for m in 0u32..128 {
                let n = m.count_ones();
                if !(2..=5).contains(&n) || m & 0b11 == 0 || m & !0b11 == 0 {
                    continue;
                }
                let sub: Vec<Card> = (0..7)
                    .filter(|i| m & (1 << i) != 0)
                    .map(|i| seven[i])
                    .collect();
                let mut sub5 = sub.clone();
                if n == 4 {
                    // rs_poker 4.1 ranks four cards of one rank only with a fifth card.
                    let other = (0..DECK)
                        .find(|&c| sub.iter().all(|&s| rank(s) != rank(c)))
                        .unwrap();
                    sub5.push(other);
                }
                let r = lib(&sub5);
                let c = match (n, cat(r)) {
                    (2, 1) => Some(Combination::Pair),
                    (3, 3) => Some(Combination::ThreeOfAKind),
                    (4, 7) => Some(Combination::FourOfAKind),
                    (5, 4) if r != wheel => Some(Combination::Straight),
                    (5, 5) => Some(Combination::Flush),
                    (5, SF) if r == royal => Some(Combination::RoyalFlush),
                    // A-2-3-4-5 suited: not consecutive by the letter, so five of a suit.
                    (5, SF)
                        if sub.iter().any(|&c| rank(c) == 3)
                            && sub.iter().any(|&c| rank(c) == 12) =>
                    {
                        Some(Combination::Flush)
                    }
                    _ => None,
                };
                best = best.max(c);
            }
            best
        };
        let mut rng = FaceRng::seed_from_u64(2011);
        let mut agree_checked = [0u32; 7];
        for i in 0..6_000 {
            // Pools: the whole deck, six ranks × two suits (straights, flushes, straight
            // flushes), three ranks (sets, carrés), the royal ranks of two suits.
            let pool: Vec<Card> = match i % 4 {
                0 => (0..DECK).collect(),
                1 => {
                    let r0 = below(&mut rng, 9) as u8;
                    (0..DECK)
                        .filter(|&c| (r0..r0 + 6).contains(&rank(c)) && suit(c) < 2)
                        .chain([card(12, 3)])
                        .collect()
                }
                2 => (0..DECK).filter(|&c| rank(c) % 5 == 0).collect(),
                _ => (0..DECK)
                    .filter(|&c| rank(c) >= 7 && suit(c) >= 2)
                    .collect(),
            };
            let mut pool = pool;
            shuffle(&mut rng, &mut pool);
            let seven: [Card; 7] = pool[..7].try_into().unwrap();
            let own = [seven[0], seven[1]];
            let board: [Card; 5] = seven[2..].try_into().unwrap();
            let ours = read_zone(own, board);
            let whole = lib(&seven);
            if cat(whole) == HIGH {
                assert!(ours.strict.is_none() && !ours.naive_wins(), "{seven:?}");
            }
            assert_eq!(ours.naive_wins(), cat(whole) != HIGH, "{seven:?}");
            assert_eq!(
                ours.straight_flush,
                cat(whole) == SF && whole != royal,
                "{seven:?}"
            );
            assert_eq!(ours.strict, oracle(&seven), "{:?}", seven.map(card_code));
            let board_nothing = cat(lib(&board)) == HIGH;
            let pocket_pair = rank(own[0]) == rank(own[1]);
            let odd = whole == wheel || (cat(whole) == SF && whole != royal);
            if board_nothing && !pocket_pair && !odd {
                assert_eq!(ours.strict, map(whole), "{:?}", seven.map(card_code));
                agree_checked[map(whole).map_or(0, |c| c.index() + 1)] += 1;
            }
        }
        // The agreeing cases cover nothing, paire, quinte, couleur and the royal flush.
        for k in [0, 1, 3, 4, 6] {
            assert!(agree_checked[k] > 0, "{agree_checked:?}");
        }
    }
}

/// The style's own parameters: combinations, zones and columns from the spec, on the example
/// game TROIS MAINS (three hands, paire / brelan / suite) and on variants of it.
#[cfg(test)]
mod style_tests {
    use super::tests::surface;
    use super::*;
    use crate::games::testkit::{
        assert_pays, drawn_twice, example_surface, round_trip, show, texts, worded, Ctx,
    };
    use crate::spec::GameSpec;
    use rand_core::SeedableRng;
    use std::path::PathBuf;
    use std::sync::OnceLock;

    const EXAMPLE: &str = "game_specs/examples/trois_mains.toml";

    fn text() -> String {
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE)).unwrap()
    }

    fn example() -> &'static GameSpec {
        static S: OnceLock<GameSpec> = OnceLock::new();
        S.get_or_init(|| variant(&[]).unwrap_or_else(|e| panic!("{e}")))
    }

    /// The example with each `(from, to)` replaced (each must be there).
    fn variant(edits: &[(&str, &str)]) -> Result<GameSpec, crate::spec::SpecError> {
        let mut t = text();
        for (from, to) in edits {
            assert!(t.contains(from), "{from:?} is in the example");
            t = t.replacen(from, to, 1);
        }
        GameSpec::parse(&PathBuf::from("trois_mains-variant.toml"), t)
    }

    /// The columns of `face` that `m` marks as part of the first zone's win, ascending.
    fn won_by_first(m: &CardHands, face: &Face, ev: &Evaluation) -> Vec<usize> {
        let marks = m.marks(face, ev);
        let won = marks
            .iter()
            .filter(|k| k.area == 0 && k.kind == MarkKind::Win);
        let mut columns: Vec<usize> = won.map(|k| k.column).collect();
        columns.sort_unstable();
        columns
    }

    /// A face of the example: three hands as "Ah 7c", the tapis as "As Kd 9c 4h 2s", GAIN
    /// amounts in euros.
    fn face(hands: [&str; 3], tapis: &str, gains: [u64; 3]) -> Face {
        let m = surface(example());
        let mut f = Face::default();
        for z in 0..3 {
            let own: Vec<Card> = hands[z]
                .split_whitespace()
                .map(|c| parse_card(c).unwrap())
                .collect();
            f.codes[z * 4] = own[0];
            f.codes[z * 4 + 1] = own[1];
            f.codes[z * 4 + 2] = m.gain.code(Money::units(gains[z])).unwrap();
            f.codes[z * 4 + 3] = 0;
        }
        for (i, c) in tapis.split_whitespace().enumerate() {
            f.codes[12 + i] = parse_card(c).unwrap();
        }
        f
    }

    fn wins(ev: &Evaluation) -> Vec<(u8, u64, &'static str)> {
        ev.wins
            .iter()
            .map(|w| (w.area, w.amount.cents() / 100, ev.feature(w.area).unwrap()))
            .collect()
    }

    #[test]
    fn columns_areas_panels_and_inscriptions_come_from_the_spec() {
        let s = example();
        let m = surface(s);
        let names: Vec<&str> = m.columns().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "m1_c1",
                "m1_c2",
                "m1_gain",
                "m1_caption",
                "m2_c1",
                "m2_c2",
                "m2_gain",
                "m2_caption",
                "m3_c1",
                "m3_c2",
                "m3_gain",
                "m3_caption",
                "t1",
                "t2",
                "t3",
                "t4",
                "t5"
            ]
        );
        assert_eq!(m.areas(), ["m1", "m2", "m3"]);
        let panels: Vec<String> = m.panels().into_iter().map(|p| p.id).collect();
        assert_eq!(panels, ["m1", "m2", "m3", "tapis"]);
        assert_eq!(m.name(), "card_hands");
        let ten_of_spades = parse_card("Ts").unwrap();
        assert_eq!(
            m.inscription(12, ten_of_spades).as_deref(),
            Some("10 DE PIQUE")
        );
        assert_eq!(
            m.inscription(0, parse_card("Qh").unwrap()).as_deref(),
            Some("DAME DE COEUR")
        );
        assert_eq!(m.inscription(2, 0), None, "a GAIN has no card inscription");
        // The features are the spec's ids, then the near misses.
        let ids: Vec<&str> = m.features().iter().map(|f| f.id).collect();
        assert_eq!(
            ids,
            [
                "paire",
                "brelan",
                "suite",
                NEAR_MISS_FLUSH,
                NEAR_MISS_STRAIGHT
            ]
        );
        // Defaults: p1 … pN, b1 … b5 and the surface's board panel.
        let d = variant(&[
            ("zone_ids = [\"m1\", \"m2\", \"m3\"]", "zones = 3"),
            ("community_prefix = \"t\"    # t1 … t5\n", ""),
            ("community_id = \"tapis\"\n", ""),
            (
                "m1 = \"Main 1\"\nm2 = \"Main 2\"\nm3 = \"Main 3\"\ntapis = \"Le Tapis\"\n",
                "",
            ),
        ])
        .unwrap();
        let m = surface(&d);
        assert_eq!(m.columns()[0].name, "p1_c1");
        assert_eq!(m.columns()[12].name, "b1");
        assert_eq!(m.areas(), ["p1", "p2", "p3"]);
        assert_eq!(m.panels()[3].id, "mains_board");
    }

    #[test]
    fn describe_says_how_each_hand_wins() {
        let lines = surface(example()).describe();
        assert_eq!(
            lines[0],
            "« Main 1 » wins the amount in its GAIN when its best hand, made with at least one of its 2 own cards and at least one of the 5 cards of « Le Tapis », is one of: « PAIRE », « BRELAN », « SUITE » (only its best counts; winning zones add up)."
        );
        assert!(lines[2].starts_with("« Main 3 »"), "{lines:?}");
        assert_eq!(
            lines[3],
            "« Le Tapis » (5 cards, t1 to t5) wins nothing by itself: it is read by every zone."
        );
        assert!(
            lines[4].contains(
                "« SUITE » (suite: five consecutive ranks, ace high only, not all of one suit)"
            ),
            "{lines:?}"
        );
    }

    /// The letter of the example, clause by clause: only the listed combinations win, the
    /// best listed one is the one reported, a hand needs one own and one tapis card.
    #[test]
    fn only_the_listed_combinations_win() {
        let m = surface(example());
        // Paire (own 9 + tapis 9), brelan (pocket 4s + tapis 4), suite 5-9 with own 8 and 5.
        let f = face(["9d 2c", "4c 4s", "8c 5d"], "9s 4h 7h 6s Kd", [2, 4, 10]);
        let ev = m.evaluate(&f);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(
            wins(&ev),
            vec![(0, 2, "paire"), (1, 4, "brelan"), (2, 10, "suite")]
        );
        // Five of a suit is no combination here: a hand with a flush and nothing listed
        // loses by the letter and is a naive win, so the face is ambiguous.
        let f = face(["2h 3h", "Jc Qd", "Ks Ad"], "9h 7h 5h Tc 4s", [2, 4, 10]);
        let ev = m.evaluate(&f);
        assert!(ev.wins.is_empty(), "{:?}", ev.wins);
        assert!(
            ev.ambiguities.contains(&AMB_LOSER_FLUSH),
            "{:?}",
            ev.ambiguities
        );
        // A flush beside a listed paire: the paire wins (best listed), no ambiguity of a
        // loser.
        let f = face(["9h 3h", "Jc Qd", "Ks 2d"], "9c 7h 5h 4h 8s", [2, 4, 10]);
        let ev = m.evaluate(&f);
        assert_eq!(wins(&ev), vec![(0, 2, "paire")]);
        // A pocket pair alone is no hand by the letter (no tapis card): ambiguous.
        let f = face(["8c 8d", "Jc Qd", "Ks 2d"], "9c 7h 5h 4s 3d", [2, 4, 10]);
        let ev = m.evaluate(&f);
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.contains(&AMB_LOSER_PAIR));
    }

    #[test]
    fn every_way_round_trips_over_many_streams() {
        let s = example();
        let m = &s.game;
        for way in &s.ways {
            for (seed, f, ev) in round_trip(m, way, 0..200) {
                for w in &ev.wins {
                    let shown = ev.feature(w.area);
                    assert!(
                        matches!(shown, Some("paire" | "brelan" | "suite")),
                        "{} seed {seed}: {shown:?} on {}",
                        way.id,
                        show(m, &f)
                    );
                }
            }
        }
    }

    #[test]
    fn every_feature_shows_when_asked() {
        let s = example();
        let m = &s.game;
        for way in &s.ways {
            for f in m.features() {
                if m.can_show(way, f.id).is_err() {
                    assert!(m
                        .synthesize_showing(way, Some(f.id), &mut FaceRng::seed_from_u64(1))
                        .is_err());
                    continue;
                }
                for seed in 0..8u64 {
                    let face = m
                        .synthesize_showing_checked(way, f.id, &mut FaceRng::seed_from_u64(seed))
                        .unwrap_or_else(|e| panic!("{} {}: {e}", way.id, f.id));
                    // It shows the feature (the checked synthesis returns no other face),
                    // and it pays its way.
                    assert_pays(m, way, &face, &format!("showing {}, seed {seed}", f.id));
                }
            }
        }
        let m = surface(s);
        let way = |id: &str| &s.ways[s.way_by_id(id).unwrap() as usize];
        assert_eq!(m.always_shows(way("1000")), vec!["suite"]);
        assert_eq!(m.always_shows(way("2")), vec!["paire"]);
        assert_eq!(
            m.can_show(way("4+4+2"), NEAR_MISS_FLUSH),
            Err(
                "near_miss_flush needs a losing zone, and way \"4+4+2\" wins on all 3 zones".into()
            )
        );
        assert_eq!(
            m.can_show(way("2"), "couleur"),
            Err("the card_hands style shows no feature \"couleur\"".into())
        );
    }

    /// Value-stability vector of the example: the same stream gives the same face.
    #[test]
    fn synthesis_is_deterministic_and_pinned() {
        let s = example();
        let way = &s.ways[s.way_by_id("4+4+2").unwrap() as usize];
        let face = drawn_twice(&s.game, way, 7);
        assert_eq!(texts(&s.game, &face).join(" "), PINNED);
    }

    /// Way 4+4+2, stream 7: brelan of 4 (GAIN 2), paire of kings (4), brelan of 8 (4).
    const PINNED: &str =
        "4c 4h 2 DEUX EUROS 7h Ks 4 QUATRE EUROS 8d 8c 4 QUATRE EUROS 8s As Kh 4d Jh";

    #[test]
    fn five_and_six_zones_round_trip() {
        for (ids, labels) in [
            (
                "[\"m1\", \"m2\", \"m3\", \"m4\", \"m5\"]",
                "m4 = \"Main 4\"\nm5 = \"Main 5\"\n",
            ),
            (
                "[\"m1\", \"m2\", \"m3\", \"m4\", \"m5\", \"m6\"]",
                "m4 = \"Main 4\"\nm5 = \"Main 5\"\nm6 = \"Main 6\"\n",
            ),
        ] {
            let s = variant(&[
                (
                    "zone_ids = [\"m1\", \"m2\", \"m3\"]",
                    &format!("zone_ids = {ids}"),
                ),
                (
                    "tapis = \"Le Tapis\"\n",
                    &format!("tapis = \"Le Tapis\"\n{labels}"),
                ),
            ])
            .unwrap_or_else(|e| panic!("{e}"));
            for way in &s.ways {
                round_trip(&s.game, way, 0..60);
            }
        }
    }

    /// What the engine does not carry is refused when the spec is loaded, naming the field.
    #[test]
    fn what_the_engine_cannot_carry_is_refused_at_load() {
        let refused = |edits: &[(&str, &str)]| {
            let e = variant(edits).unwrap_err();
            (e.field.clone(), e.message.clone())
        };
        let suite = "{ id = \"suite\", kind = \"straight\", name = \"SUITE\", not_flush = true, ace_low = false }";
        let (f, m) = refused(&[(
            "{ id = \"paire\", kind = \"pair\", name = \"PAIRE\" }",
            "{ id = \"paire\", kind = \"pair\", ace_low = true }",
        )]);
        assert_eq!(f, "surfaces[0].combinations[0].ace_low");
        assert_eq!(m, "ace_low does not apply to a pair combination");
        let (f, m) = refused(&[(
            suite,
            "{ id = \"suite\", kind = \"straight\", not_flush = false }",
        )]);
        assert_eq!(f, "surfaces[0].combinations[2].not_flush");
        assert!(m.contains("not_flush = false is not carried"), "{m}");
        let (f, m) = refused(&[(
            suite,
            "{ id = \"suite\", kind = \"straight\", not_straight = true }",
        )]);
        assert_eq!(f, "surfaces[0].combinations[2].not_straight");
        assert_eq!(m, "not_straight does not apply to a straight combination");
        let (f, m) = refused(&[(suite, "{ id = \"suite\", kind = \"full_house\" }")]);
        assert_eq!(f, "surfaces[0].combinations[2].kind");
        assert!(m.starts_with("the card_hands engine does not build or judge \"full_house\" hands yet; it carries: pair, three_of_a_kind, straight, flush, four_of_a_kind, royal_flush"), "{m}");
        let (f, m) = refused(&[(suite, "{ id = \"suite\", kind = \"quinte\" }")]);
        assert_eq!(f, "surfaces[0].combinations[2].kind");
        assert!(m.starts_with("unknown kind \"quinte\""), "{m}");
        // Out of ascending order.
        let (f, m) = refused(&[(
            "{ id = \"paire\", kind = \"pair\", name = \"PAIRE\" },",
            "{ id = \"paire\", kind = \"pair\", name = \"PAIRE\" },\n  { id = \"couleur\", kind = \"flush\" },",
        )]);
        assert_eq!(f, "surfaces[0].combinations[2].kind");
        assert!(m.contains("cannot come after \"flush\""), "{m}");
        // A repeated id, a weight of a combination not listed.
        let (f, _) = refused(&[(suite, "{ id = \"paire\", kind = \"straight\" }")]);
        assert_eq!(f, "surfaces[0].combinations[2].id");
        let (f, m) = refused(&[(
            "[surfaces.combination_weights.\"2\"]\npaire = 1",
            "[surfaces.combination_weights.\"2\"]\ncouleur = 1",
        )]);
        assert_eq!(f, "surfaces[0].combination_weights.\"2\".couleur");
        assert_eq!(m, "\"couleur\" is not the id of one of the combinations");
        // Card counts, usage rule, zones.
        for (key, value) in [
            ("own_cards", 3),
            ("community_cards", 3),
            ("min_own", 2),
            ("min_community", 2),
        ] {
            let tapis = "community_id = \"tapis\"";
            let (f, m) = refused(&[(tapis, &format!("{tapis}\n{key} = {value}"))]);
            assert_eq!(f, format!("surfaces[0].{key}"), "{m}");
            if key == "own_cards" {
                assert_eq!(m, "3 own cards per zone; this engine deals exactly 2");
            }
        }
        let (f, m) = refused(&[("zone_ids = [\"m1\", \"m2\", \"m3\"]", "zones = 7")]);
        assert_eq!(f, "surfaces[0].zones");
        assert_eq!(m, "7 zones; expected 1 to 6");
        let (f, m) = refused(&[(
            "zone_ids = [\"m1\", \"m2\", \"m3\"]",
            "zone_ids = [\"m1\", \"m1\", \"m3\"]",
        )]);
        assert_eq!(f, "surfaces[0].zone_ids");
        assert_eq!(m, "\"m1\" is listed twice");
        let (f, _) = refused(&[("card_name = \"{rank} DE {suit}\"", "card_name = \"{rank}\"")]);
        assert_eq!(f, "surfaces[0].card_name");
        // A way of more wins than zones.
        let e = variant(&[
            ("wins = [4, 4, 2]", "wins = [2, 2, 2, 2, 2]"),
            ("id = \"4+4+2\"", "id = \"2x5\""),
        ])
        .unwrap_err();
        assert!(
            e.message
                .contains("5 wins, but this card_hands surface has 3 player zone(s)"),
            "{e}"
        );
    }

    /// `ace_low = true`: A-2-3-4-5 with an own card and a tapis card not all of one suit is
    /// a SUITE; without it the same face is a loser a naive player reads as a win.
    #[test]
    fn an_ace_low_straight_wins_only_when_the_spec_says_so() {
        let wheel = face(["Ac 2d", "Jc Qd", "Ks 8d"], "3h 4s 5c 9d Th", [2, 4, 10]);
        let ev = surface(example()).evaluate(&wheel);
        assert!(ev.wins.is_empty());
        assert!(ev.ambiguities.contains(&AMB_LOSER_STRAIGHT), "{ev:?}");
        let s = variant(&[("ace_low = false", "ace_low = true")]).unwrap();
        let m = surface(&s);
        let ev = m.evaluate(&wheel);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(wins(&ev), vec![(0, 2, "suite")]);
        // Its five cards are marked: one per rank of A-2-3-4-5, and the GAIN.
        assert_eq!(won_by_first(&m, &wheel, &ev), [0, 1, 2, 12, 13, 14]);
        assert!(m.describe()[4].contains("ace high or low (A-2-3-4-5)"));
        // A suited A-2-3-4-5 is a straight flush: neither a SUITE nor five of a suit.
        let suited = face(["Ah 2h", "Jc Qd", "Ks 8d"], "3h 4h 5h 9d Tc", [2, 4, 10]);
        let ev = m.evaluate(&suited);
        assert!(ev.ambiguities.contains(&AMB_STRAIGHT_FLUSH), "{ev:?}");
        // Every way still round-trips.
        for way in &s.ways {
            round_trip(&s.game, way, 0..60);
        }
    }

    /// `min_community = 0`: a pocket pair wins by itself; with the default it is a loser a
    /// naive player reads as a win.
    #[test]
    fn a_pocket_pair_wins_only_when_the_spec_says_so() {
        let pocket = face(["8c 8d", "Jc Qd", "Ks 2d"], "9c 7h 5h 4s 3d", [2, 4, 10]);
        let ev = surface(example()).evaluate(&pocket);
        assert!(ev.wins.is_empty() && ev.ambiguities.contains(&AMB_LOSER_PAIR));
        let s = variant(&[(
            "community_id = \"tapis\"",
            "community_id = \"tapis\"\nmin_community = 0",
        )])
        .unwrap();
        let m = surface(&s);
        let ev = m.evaluate(&pocket);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(wins(&ev), vec![(0, 2, "paire")]);
        assert_eq!(won_by_first(&m, &pocket, &ev), [0, 1, 2]);
        assert!(
            m.describe()[0].contains("(its two cards alone may make a pair)"),
            "{:?}",
            m.describe()
        );
        for way in &s.ways {
            round_trip(&s.game, way, 0..60);
        }
    }

    /// The library's example entry builds as it is written.
    #[test]
    fn the_library_example_builds() {
        let (id, s) = example_surface(&INFO);
        let captions = worded(&[(2, "DEUX"), (5, "CINQ"), (20, "VINGT")]);
        let ctx = Ctx::new(&id).captions(captions).tiers(&[2, 5, 20]);
        let m = build(s, &ctx.get()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(m.areas(), ["p1", "p2", "p3"]);
        assert_eq!(m.panels()[3].id, "board");
    }
}

/// A card_hands surface beside a reveal box: the combination weights are keyed by the tier's
/// amount (the ticket's whole lot), not by the poker zones' share of it.
#[cfg(test)]
mod mixed_tests {
    use crate::games::FaceRng;
    use crate::spec::GameSpec;
    use rand_core::SeedableRng;
    use std::path::PathBuf;

    /// A game of two hands of poker and one reveal box; `weights` is the card_hands
    /// surface's combination weights, as TOML text.
    /// `areas` is the way 10+2's `areas` line (or nothing: free wins).
    fn mixed_at(weights: &str, areas: &str) -> Result<GameSpec, crate::spec::SpecError> {
        GameSpec::parse(&PathBuf::from("mixte.toml"), mixed_text(weights, areas))
    }

    /// The text of [`mixed_at`]'s spec.
    fn mixed_text(weights: &str, areas: &str) -> String {
        format!(
            r#"
[game]
id = "mixte"
name = "MIXTE"
legal_reference = "Test game"
currency = "EUR"
price = 1
block_size = 1_000
pack_size = 50
game_code = 9999

[published]
lots = 300
payout = 1_950

[captions]
"0" = "ZERO EURO"
"2" = "DEUX EUROS"
"5" = "CINQ EUROS"
"10" = "DIX EUROS"

[[surfaces]]
style = "card_hands"
id = "mains"
zone_ids = ["m1", "m2"]
rank_names = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A"]
suit_names = ["TREFLE", "CARREAU", "COEUR", "PIQUE"]
combinations = [
  {{ id = "paire", kind = "pair" }},
  {{ id = "brelan", kind = "three_of_a_kind" }},
]
zone_amounts = [5, 10]
decoy_weights = {{ "5" = 1, "10" = 1 }}
{weights}

[[surfaces]]
style = "reveal"
id = "cash"
boxes = 1
amounts = [2]

[[tiers]]
amount = 12
count = 50
total = 600
[[tiers.ways]]
id = "10+2"
count = 50
wins = [10, 2]
{areas}

[[tiers]]
amount = 7
count = 50
total = 350
[[tiers.ways]]
id = "5+2"
count = 50
wins = [5, 2]

[[tiers]]
amount = 5
count = 200
total = 1_000
[[tiers.ways]]
id = "5"
count = 200
wins = [5]
"#
        )
    }

    fn mixed(weights: &str) -> Result<GameSpec, crate::spec::SpecError> {
        mixed_at(weights, "")
    }

    const ALL_TIERS: &str = r#"
[surfaces.combination_weights."12"]
paire = 1
[surfaces.combination_weights."7"]
brelan = 1
[surfaces.combination_weights."5"]
paire = 1
"#;

    /// Way 5+2 of tier 7 shows tier 7's combination (brelan), not that of the amount 5 the
    /// zone wins; tier 12 (10+2) shows a paire.
    #[test]
    fn tier_weights_apply_to_the_tier_not_the_zone_amount() {
        let s = mixed(ALL_TIERS).unwrap_or_else(|e| panic!("{e}"));
        for (id, want) in [("5+2", "brelan"), ("10+2", "paire"), ("5", "paire")] {
            let way = s.ways.iter().find(|w| w.id == id).unwrap();
            for seed in 0..200u64 {
                let f = s
                    .game
                    .synthesize(way, &mut FaceRng::seed_from_u64(seed))
                    .unwrap();
                let ev = s.game.evaluate(&f);
                assert!(ev.ambiguities.is_empty(), "{id} seed {seed}");
                assert_eq!(ev.prize(), way.amount, "{id} seed {seed}");
                let names: Vec<&str> = ev
                    .features
                    .iter()
                    .map(|f| f.name)
                    .filter(|&n| n == "paire" || n == "brelan")
                    .collect();
                assert_eq!(names, [want], "{id} seed {seed}");
            }
        }
        let lines = s.game.describe();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("tier 7") && l.contains("brelan×1")),
            "{lines:?}"
        );
    }

    /// Errors inside a weight sub-table point at its own line, not the `[[surfaces]]` one.
    #[test]
    fn weight_errors_point_at_their_own_line() {
        let line_of = |text: &str, l: &str| text.lines().position(|x| x == l).unwrap() + 1;
        let w = ALL_TIERS.replace("brelan = 1", "carre = 1");
        let text = mixed_text(&w, "");
        let e = mixed(&w).unwrap_err();
        assert_eq!(e.field, "surfaces[0].combination_weights.\"7\".carre");
        assert_eq!(e.line, Some(line_of(&text, "carre = 1")));
        let w = ALL_TIERS.replace("\"7\"", "\"9\"");
        let text = mixed_text(&w, "");
        let e = mixed(&w).unwrap_err();
        assert_eq!(e.field, "surfaces[0].combination_weights.\"9\"");
        assert_eq!(
            e.line,
            Some(line_of(&text, "[surfaces.combination_weights.\"9\"]"))
        );
        assert_eq!(e.message, "\"9\" is not the amount of a tier");
    }

    /// A tier table that no way uses is an error naming it.
    #[test]
    fn a_tier_table_no_way_uses_is_an_error() {
        let e = mixed(&format!(
            "{ALL_TIERS}[surfaces.way_combination_weights.\"5\"]\nbrelan = 1\n"
        ))
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "mixte.toml:22: surfaces[0]: surface \"mains\": combination_weights.\"5\" never applies: no way of tier 5 wins on a zone of this surface without way_combination_weights of its own"
        );
    }

    /// A tier whose ways win on the poker zones but has no weights is an error naming it.
    #[test]
    fn a_tier_without_weights_is_an_error() {
        let only_5 = r#"
[surfaces.combination_weights."5"]
paire = 1
[surfaces.combination_weights."7"]
brelan = 1
"#;
        let why = "surface \"mains\": no combination weights: add combination_weights.\"12\" (its tier's amount) or way_combination_weights.\"10+2\"";
        for areas in ["", r#"areas = ["m1", "cash"]"#] {
            let e = mixed_at(only_5, areas).unwrap_err().to_string();
            assert!(e.starts_with("mixte.toml:51: way \"10+2\": "), "{e}");
            assert!(e.contains(why), "{e}");
        }
    }
}
