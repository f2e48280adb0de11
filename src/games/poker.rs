//! « Poker » (règlement particulier, JORF n°0080 du 5 avril 2011): four player zones of two
//! cards and a GAIN amount, and five community cards. Rules: art. 3.1–3.3 (the face),
//! art. 3.4 (a zone wins when it forms one of six combinations with at least one of its own
//! cards and one or more community cards), art. 3.5 (never with the community cards alone),
//! art. 3.6 (only the zone's best combination counts, at most one win per zone), art. 3.7
//! (winning zones add up), art. 3.8 (losing otherwise). Ambiguity policy: GAMES.md, section
//! poker.
//!
//! Cards are coded `0..52` as `rank * 4 + suit`, rank `0..13` for `23456789TJQKA` and suit
//! `0..4` for `cdhs`; files show the standard two-character codes (`Ah`, `Td`). Face
//! columns: `p1_c1 p1_c2 p1_gain p1_caption` … `p4_…`, then `b1`…`b5` (community).
//!
//! Two readings of a zone are computed ([`read_zone`]): the **strict** one (the letter of
//! art. 3.4–3.6, ace high only) and the **naive** one (any standard poker hand of a pair or
//! better among the zone's seven cards, ace high or low). A face where they could differ is
//! reported as an ambiguity and is never produced.

use super::common::{self, AmountBox};
use super::{
    AreaFeature, AreaWin, Captions, Column, ColumnKind, Evaluation, Face, FaceRng, FeatureInfo,
    FeatureKind, Mark, MarkKind, Mechanic, Panel,
};
use crate::lots::Way;
use crate::money::Money;
use crate::rng::{below, below_mixed, shuffle, weighted, Weights};
use crate::spec_error::{ErrorAt, SpecError};
use arrayvec::ArrayVec;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// Rank characters in ascending order (art. 3.2: 2 … 10, V, D, R, A), as written in files.
pub const RANK_CHARS: [char; 13] = [
    '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A',
];
/// Suit characters (clubs/trèfle, diamonds/carreau, hearts/cœur, spades/pique).
pub const SUIT_CHARS: [char; 4] = ['c', 'd', 'h', 's'];
/// Player zones per ticket (art. 3.1).
pub const ZONES: usize = 4;
/// Community cards per ticket (art. 3.1).
pub const COMMUNITY: usize = 5;
/// Cards in the deck all cards of a ticket come from.
pub const DECK: u8 = 52;
/// Face columns per player zone: two cards, the GAIN amount and its caption.
const ZONE_COLUMNS: usize = 4;
/// Face column of the first community card.
const BOARD_COLUMN: usize = ZONES * ZONE_COLUMNS;
/// Face columns holding a card: two per zone, then the community cards.
const CARD_COLUMNS: [usize; 2 * ZONES + COMMUNITY] = {
    let mut t = [0; 2 * ZONES + COMMUNITY];
    let mut i = 0;
    while i < ZONES {
        t[2 * i] = i * ZONE_COLUMNS;
        t[2 * i + 1] = i * ZONE_COLUMNS + 1;
        i += 1;
    }
    let mut k = 0;
    while k < COMMUNITY {
        t[2 * ZONES + k] = BOARD_COLUMN + k;
        k += 1;
    }
    t
};
/// Whole-face attempts before synthesis gives up with an `Err` (see [`Poker::synthesize`]).
pub const MAX_ATTEMPTS: usize = 32;
/// Plain random draws tried before a card is drawn from the enumerated candidates.
const QUICK_TRIES: usize = 12;

/// Ambiguity: the same card twice on a ticket (the 13 cards come from one 52-card deck).
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
/// Ambiguity: a pair inside the community cards while not all four zones win by the letter.
pub const AMB_COMMUNITY_PAIR: &str = "a pair in the community cards, not all four zones winning";
/// Ambiguity: a straight (A-2-3-4-5 included) inside the community cards while not all four
/// zones win by the letter.
pub const AMB_COMMUNITY_STRAIGHT: &str =
    "a straight in the community cards, not all four zones winning";
/// Ambiguity: five community cards of one suit while not all four zones win by the letter.
pub const AMB_COMMUNITY_FLUSH: &str = "a flush in the community cards, not all four zones winning";
/// Ambiguity: a zone's best naive hand is a straight flush other than the royal one
/// (A-2-3-4-5 suited included): neither « quinte » nor « couleur » by the letter.
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

/// The six combinations of art. 3.4, in the article's ascending order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Combination {
    /// « paire »: two cards of the same rank.
    Paire,
    /// « brelan »: three cards of the same rank.
    Brelan,
    /// « quinte »: five consecutive ranks (ace high only), not all of one suit.
    Quinte,
    /// « couleur »: five cards of one suit, not consecutive.
    Couleur,
    /// « carré »: four cards of the same rank.
    Carre,
    /// « quinte flush royale »: 10, V, D, R, A of one suit.
    QuinteFlushRoyale,
}

impl Combination {
    /// All six, ascending (art. 3.4).
    pub const ALL: [Combination; 6] = [
        Combination::Paire,
        Combination::Brelan,
        Combination::Quinte,
        Combination::Couleur,
        Combination::Carre,
        Combination::QuinteFlushRoyale,
    ];

    /// ASCII id used in specs and reports: `paire`, `brelan`, `quinte`, `couleur`, `carre`,
    /// `quinte_flush_royale`.
    pub const fn id(self) -> &'static str {
        match self {
            Combination::Paire => "paire",
            Combination::Brelan => "brelan",
            Combination::Quinte => "quinte",
            Combination::Couleur => "couleur",
            Combination::Carre => "carre",
            Combination::QuinteFlushRoyale => "quinte_flush_royale",
        }
    }

    /// What a zone showing it has, in words.
    pub const fn about(self) -> &'static str {
        match self {
            Combination::Paire => "a winning zone's best combination is a paire",
            Combination::Brelan => "a winning zone's best combination is a brelan",
            Combination::Quinte => "a winning zone's best combination is a quinte",
            Combination::Couleur => "a winning zone's best combination is a couleur",
            Combination::Carre => "a winning zone's best combination is a carre",
            Combination::QuinteFlushRoyale => {
                "a winning zone's best combination is a quinte flush royale"
            }
        }
    }

    /// Position in [`Combination::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Both readings of one player zone (its two cards and the five community cards).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ZoneReading {
    /// Best combination by the letter (art. 3.4–3.6): formed with at least one of the
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

/// Reads one player zone (cards coded `0..52`; panics on a larger code) under both readings.
/// Strict reading, art. 3.4–3.6: the best of the six combinations formed by a set of cards
/// that holds at least one of `own` and at least one of `community` (worked out from rank
/// masks; a test pins quinte, couleur and quinte flush royale against trying every
/// five-card hand). Naive reading: see [`ZoneReading`].
pub fn read_zone(own: [Card; 2], community: [Card; COMMUNITY]) -> ZoneReading {
    read(own, &Board::new(community))
}

#[inline]
fn read(own: [Card; 2], b: &Board) -> ZoneReading {
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

    // Art. 3.4 paire, brelan, carré: n cards of one rank, at least one own and one community.
    for (r, cb) in [(r0, c0), (r1, c1)] {
        if cb == 0 {
            continue;
        }
        let n = cb + u8::from(r0 == r) + u8::from(r1 == r);
        let c = match n {
            2 => Combination::Paire,
            3 => Combination::Brelan,
            _ => Combination::Carre,
        };
        z.strict = z.strict.max(Some(c));
    }
    if let Some(f) = flush_suit {
        let m = b.suit_ranks[f] | u16::from(s0 == f) << r0 | u16::from(s1 == f) << r1;
        let royal = m & ROYAL == ROYAL;
        z.straight_flush = !royal && (straight_starts(m) & 0xFF != 0 || m & WHEEL == WHEEL);
    }

    // Art. 3.4 quinte, couleur, quinte flush royale: five cards, at least one own (then at
    // least three are community cards). Only worth trying when five consecutive ranks (ace
    // high) or five of a suit are there at all.
    if straight_starts(ranks) != 0 || z.flush {
        z.strict = z.strict.max(best_five(own, b));
    }
    z
}

/// Art. 3.4–3.5: the best quinte, couleur or quinte flush royale among the five-card
/// hands of the seven cards (`own` and the community cards of `b`) that hold at least one
/// own card. By the letter a hand is a quinte when its ranks are five consecutive (ace high
/// only) and its suits are not all one; a couleur when its suits are all one and its ranks
/// not consecutive; a quinte flush royale when it is 10-V-D-R-A of one suit; any other
/// straight flush is none of them. The same answers as trying each of the 21 hands (a test
/// pins it against that reading), found from rank masks.
fn best_five(own: [Card; 2], b: &Board) -> Option<Combination> {
    let mut all = b.suit_ranks;
    let mut mine = [0u16; 4];
    for &c in &own {
        all[suit(c) as usize] |= 1 << rank(c);
        mine[suit(c) as usize] |= 1 << rank(c);
    }
    let mut best = None;
    // Five of one suit: every five of them holding an own card.
    for s in 0..4 {
        let m = all[s];
        if m.count_ones() < 5 || mine[s] == 0 {
            continue;
        }
        let mut consider = |hand: u16| {
            if hand & mine[s] != 0 {
                let c = if hand >> hand.trailing_zeros() != 0x1F {
                    Some(Combination::Couleur)
                } else if hand == ROYAL {
                    Some(Combination::QuinteFlushRoyale)
                } else {
                    None
                };
                best = best.max(c);
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
    // Five consecutive ranks (ace high) holding own card (r, s), with a card of another suit
    // than s on one of the other four ranks.
    let ranks = all[0] | all[1] | all[2] | all[3];
    let mut starts = straight_starts(ranks) & 0x1FF;
    while starts != 0 {
        let window = 0x1F << starts.trailing_zeros();
        starts &= starts - 1;
        for &c in &own {
            let (r, s) = (rank(c), suit(c) as usize);
            let other_suits = (0..4).filter(|&t| t != s).fold(0, |m, t| m | all[t]);
            if window & 1 << r != 0 && window & !(1 << r) & other_suits != 0 {
                best = best.max(Some(Combination::Quinte));
            }
        }
    }
    best
}

/// Calls `f` with each set bit of `m`, as a one-bit mask, lowest first.
fn each_bit(mut m: u16, mut f: impl FnMut(u16)) {
    while m != 0 {
        let x = m & m.wrapping_neg();
        f(x);
        m &= m - 1;
    }
}

/// Combination weights as written in the spec (`[poker.combination_weights."<tier>"]`);
/// a missing combination weighs 0.
#[derive(Debug, Deserialize, Default, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct RawWeights {
    /// Weight of « paire ».
    #[serde(default)]
    pub paire: u32,
    /// Weight of « brelan ».
    #[serde(default)]
    pub brelan: u32,
    /// Weight of « quinte ».
    #[serde(default)]
    pub quinte: u32,
    /// Weight of « couleur ».
    #[serde(default)]
    pub couleur: u32,
    /// Weight of « carré » (only on ways where all four zones win).
    #[serde(default)]
    pub carre: u32,
    /// Weight of « quinte flush royale » (at most one per ticket).
    #[serde(default)]
    pub quinte_flush_royale: u32,
}

impl RawWeights {
    fn array(&self) -> [u32; 6] {
        [
            self.paire,
            self.brelan,
            self.quinte,
            self.couleur,
            self.carre,
            self.quinte_flush_royale,
        ]
    }
}

/// `[poker]` in the spec.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPoker {
    /// Every amount a zone's GAIN may show (art. 3.2).
    pub zone_amounts: Vec<Money>,
    /// Weight of each amount shown as a decoy in the GAIN of a losing zone (key: amount);
    /// amounts not listed are never decoys.
    pub decoy_weights: BTreeMap<String, u32>,
    /// Share (0..=1) of losing zones whose own cards make four to a flush (near miss).
    pub near_miss_flush: f64,
    /// Share (0..=1) of losing zones whose own cards make four to a straight (near miss).
    pub near_miss_straight: f64,
    /// The 13 ranks in letters, 2 to ace (art. 3.2: the inscription of each card).
    pub rank_captions: Vec<String>,
    /// The 4 suits in letters, in the order `c d h s` (trèfle, carreau, cœur, pique).
    pub suit_captions: Vec<String>,
    /// Combination weights of each tier (key: the tier's amount) for its winning zones.
    pub combination_weights: BTreeMap<String, RawWeights>,
    /// Optional combination weights of one way (key: way id), replacing its tier's.
    #[serde(default)]
    pub way_combination_weights: BTreeMap<String, RawWeights>,
}

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

/// The feature named `id`, or `None` for an id poker does not know.
fn parse_want(id: &str) -> Option<Want> {
    match id {
        NEAR_MISS_FLUSH => Some(Want::Draw(Draw::Flush)),
        NEAR_MISS_STRAIGHT => Some(Want::Draw(Draw::Straight)),
        _ => Combination::ALL
            .iter()
            .find(|c| c.id() == id)
            .map(|&c| Want::Win(c)),
    }
}

/// The poker mechanic, built from a validated `[poker]` section.
pub struct Poker {
    areas: Vec<String>,
    columns: Vec<Column>,
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
    tier_weights: BTreeMap<Money, [u32; 6]>,
    way_weights: BTreeMap<String, [u32; 6]>,
}

fn caption_list(v: &[String], n: usize, what: &str) -> Result<Vec<String>, String> {
    if v.len() != n {
        return Err(format!("expected {n} {what}, got {}", v.len()));
    }
    let mut seen: Vec<String> = Vec::new();
    for c in v {
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
        if seen.contains(&t.to_uppercase()) {
            return Err(format!("\"{c}\" appears twice"));
        }
        seen.push(t.to_uppercase());
    }
    Ok(v.iter().map(|c| c.trim().to_string()).collect())
}

impl Poker {
    /// Validates `[poker]` against the rest of the spec: its tier amounts and way ids.
    /// Errors: no zone amounts, a repeated or zero one, or one without a caption; a decoy
    /// weight for an amount that is not a zone amount, or all decoy weights zero; a near
    /// miss rate outside 0..=1 or both summing above 1; not 13 rank captions or 4 suit
    /// captions (or a repeated one); combination weights for an amount that is no tier or
    /// a way id that is no way, or all zero.
    pub fn new(
        sec: &Spanned<RawPoker>,
        captions: &Captions,
        tier_amounts: &[Money],
        way_ids: &[&str],
        at: &ErrorAt,
    ) -> Result<Poker, SpecError> {
        let span = Some(sec.span().start);
        let p = sec.get_ref();
        let err = |field: &str, msg: String| at.at(span, format!("poker.{field}"), msg);
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
        let gain = AmountBox::new(sorted, captions).map_err(|e| at.at(span, "captions", e))?;
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
        let rank_captions = caption_list(&p.rank_captions, 13, "rank captions (2 … ace)")
            .map_err(|m| err("rank_captions", m))?;
        let suit_captions = caption_list(&p.suit_captions, 4, "suit captions (c d h s)")
            .map_err(|m| err("suit_captions", m))?;

        let check_weights =
            |field: &str, key: &str, w: &RawWeights| -> Result<[u32; 6], SpecError> {
                let a = w.array();
                let t: u64 = a.iter().map(|&x| u64::from(x)).sum();
                if t == 0 || t > u64::from(u32::MAX) {
                    return Err(err(
                        &format!("{field}.\"{key}\""),
                        "expected weights summing to 1..=4294967295".into(),
                    ));
                }
                Ok(a)
            };
        let mut tier_weights = BTreeMap::new();
        for (k, w) in &p.combination_weights {
            let m: Money = k
                .parse()
                .map_err(|e| err("combination_weights", format!("key \"{k}\": {e}")))?;
            if !tier_amounts.contains(&m) {
                return Err(err(
                    "combination_weights",
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
            if !way_ids.contains(&k.as_str()) {
                return Err(err(
                    "way_combination_weights",
                    format!("\"{k}\" is not the id of a way"),
                ));
            }
            way_weights.insert(k.clone(), check_weights("way_combination_weights", k, w)?);
        }

        let cards: Vec<String> = (0..DECK).map(card_code).collect();
        let mut columns = Vec::new();
        for z in 1..=ZONES {
            for c in 1..=2 {
                columns.push(Column {
                    name: format!("p{z}_c{c}"),
                    kind: ColumnKind::Symbol,
                    values: cards.clone(),
                });
            }
            let gain_col = columns.len();
            columns.push(gain.column(format!("p{z}_gain")));
            columns.push(Column::caption(format!("p{z}_caption"), gain_col, captions));
        }
        for i in 1..=COMMUNITY {
            columns.push(Column {
                name: format!("b{i}"),
                kind: ColumnKind::Symbol,
                values: cards.clone(),
            });
        }
        let near_miss = [1_000_000 - nf - ns, nf, ns];
        Ok(Poker {
            areas: (1..=ZONES).map(|z| format!("p{z}")).collect(),
            columns,
            gain,
            decoy_draw: Weights::new(&decoy_weights),
            near_miss_draw: Weights::new(&near_miss),
            decoy_weights,
            near_miss,
            rank_captions,
            suit_captions,
            tier_weights,
            way_weights,
        })
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
    /// it, see [`Mechanic::can_show`]). Wins with a fixed zone go there, the others to free
    /// zones in a random order; each winning zone draws its combination from the weights (a
    /// carré or quinte flush royale weighing 0 after it is drawn), each losing zone its near
    /// miss at the spec's rates and its decoy from `decoy_weights` (two zones per draw of
    /// [`below_mixed`] when their ranges fit). The combination or near miss asked is taken
    /// by the first winning, resp. losing, zone instead of drawn; with `show = None` the
    /// draws are those of every production face.
    fn goals(
        &self,
        way: &Way,
        show: Option<&str>,
        rng: &mut FaceRng,
    ) -> Result<([u8; ZONES], [Goal; ZONES]), String> {
        let mut want = match show {
            Some(id) => {
                self.can_show(way, id)?;
                parse_want(id)
            }
            None => None,
        };
        // Which zone each win goes to.
        let mut zone_amount: [Option<Money>; ZONES] = [None; ZONES];
        for w in way.wins.iter() {
            if let Some(a) = w.area {
                let slot = zone_amount
                    .get_mut(a as usize)
                    .ok_or("win in an unknown zone")?;
                *slot = Some(w.amount);
            }
        }
        let mut open: ArrayVec<usize, ZONES> =
            (0..ZONES).filter(|&z| zone_amount[z].is_none()).collect();
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
        let mut goals = [Goal::Lose(Draw::Any); ZONES];
        let mut codes = [0u8; ZONES];
        // Near miss and decoy of each losing zone, two zones per call (one draw when their
        // ranges fit; a winning zone's radices are 1: nothing drawn).
        let radices = |z: usize| match zone_amount[z] {
            Some(_) => [1, 1],
            None => [self.near_miss_draw.total(), self.decoy_draw.total()],
        };
        let digits: [u32; 2 * ZONES] = {
            let [a, b] = radices(0);
            let [c, d] = radices(1);
            let [e, f] = radices(2);
            let [g, h] = radices(3);
            let [a, b, c, d] = below_mixed(rng, [a, b, c, d]);
            let [e, f, g, h] = below_mixed(rng, [e, f, g, h]);
            [a, b, c, d, e, f, g, h]
        };
        for z in 0..ZONES {
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
                if matches!(c, Combination::Carre | Combination::QuinteFlushRoyale) {
                    weights[c.index()] = 0;
                }
                if c == Combination::Carre && wins < ZONES {
                    return Err("a carré needs all four zones to win".into());
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

    /// Combination weights of `way`: its own, else its tier's.
    fn weights_for(&self, way: &Way) -> Option<[u32; 6]> {
        self.way_weights
            .get(&way.id)
            .or_else(|| self.tier_weights.get(&way.amount))
            .copied()
    }
}

impl Poker {
    /// [`Mechanic::synthesize_showing`], also saying how many deals were tried (1 when the
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
        for z in 0..ZONES {
            let base = z * ZONE_COLUMNS;
            face.codes[base] = own[z][0];
            face.codes[base + 1] = own[z][1];
            self.gain.show(&mut face, base + 2, base + 3, codes[z]);
        }
        face.codes[BOARD_COLUMN..BOARD_COLUMN + COMMUNITY].copy_from_slice(&board);

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
    fn check_goals(&self, face: &Face, goals: &[Goal; ZONES]) -> Result<(), String> {
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
                Goal::Win(c) => Some(c.id()),
                Goal::Lose(_) => None,
            };
            if got != want {
                return Err(format!(
                    "zone p{} shows {got:?} instead of {want:?}: a bug",
                    z + 1
                ));
            }
        }
        Ok(())
    }
}

impl Mechanic for Poker {
    fn name(&self) -> &'static str {
        "poker"
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
    /// policy: a carré needs a community pair, which makes every zone a naive winner, so
    /// carré must weigh 0 unless the way wins on all four zones; at most one carré and one
    /// quinte flush royale fit on a ticket (two royals need six community cards of one
    /// suit; a third carré a third community pair), so a way of two or more wins needs a
    /// positive weight on paire, brelan, quinte or couleur.
    fn check_way(&self, way: &Way) -> Result<(), String> {
        let k = way.wins.len();
        if k > ZONES {
            return Err(format!(
                "{k} wins, but a poker ticket has {ZONES} player zones"
            ));
        }
        for w in &way.wins {
            if self.amount_code(w.amount).is_none() {
                return Err(format!("win {} is not one of poker.zone_amounts", w.amount));
            }
        }
        for (i, a) in way.wins.iter().enumerate() {
            if a.area.is_some() && way.wins[i + 1..].iter().any(|b| b.area == a.area) {
                return Err("two wins name the same zone".into());
            }
        }
        let w = self.weights_for(way).ok_or_else(|| {
            format!(
                "no combination weights: add poker.combination_weights.\"{}\" (its tier) or poker.way_combination_weights.\"{}\"",
                way.amount, way.id
            )
        })?;
        if k < ZONES && w[Combination::Carre.index()] > 0 {
            return Err(format!(
                "carre weighs {} but this way wins on {k} zone(s): a carré needs a community pair, which makes every zone a naive winner, so it is only possible when all {ZONES} zones win (give this way or tier carre = 0, or give the way its own poker.way_combination_weights)",
                w[Combination::Carre.index()]
            ));
        }
        let repeatable: u64 = w[..4].iter().map(|&x| u64::from(x)).sum();
        if k >= 2 && repeatable == 0 {
            return Err(format!(
                "this way wins on {k} zones but only carre / quinte_flush_royale weigh: at most one of each fits on a ticket; give paire, brelan, quinte or couleur a weight"
            ));
        }
        Ok(())
    }

    /// The six combinations that some tier or way weighs above 0, then `near_miss_flush`
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
            .map(|c| FeatureInfo {
                id: c.id(),
                kind: FeatureKind::Winning,
                about: c.about(),
            })
            .collect();
        for (d, id, about) in [
            (
                Draw::Flush,
                NEAR_MISS_FLUSH,
                "a losing zone's own cards make four to a flush",
            ),
            (
                Draw::Straight,
                NEAR_MISS_STRAIGHT,
                "a losing zone's own cards make four to a straight",
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
    /// tier's); a near miss a rate above 0 and a way with a losing zone (fewer than four
    /// wins).
    fn can_show(&self, way: &Way, id: &str) -> Result<(), String> {
        match parse_want(id) {
            None => Err(format!("the poker mechanic shows no feature \"{id}\"")),
            Some(Want::Win(c)) => match self.weights_for(way) {
                Some(w) if !way.wins.is_empty() && w[c.index()] > 0 => Ok(()),
                _ => Err(format!(
                    "way \"{}\" gives {id} no weight (poker.combination_weights of its tier, or poker.way_combination_weights)",
                    way.id
                )),
            },
            Some(Want::Draw(d)) => {
                if self.draw_rate(d) == 0 {
                    Err(format!("{id} has a rate of 0 in this spec"))
                } else if way.wins.len() >= ZONES {
                    Err(format!(
                        "{id} needs a losing zone, and way \"{}\" wins on all {ZONES} zones",
                        way.id
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
                    .map(|c| c.id())
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Builds a face for `way` (GAMES.md, poker). Winning zones get the way's amounts (fixed
    /// zones as the spec says, the others in random free zones); each draws its combination
    /// from the way's weights (else its tier's), in zone order, a drawn carré or quinte flush
    /// royale weighing 0 for the zones after it. Each losing zone draws its near miss (four
    /// to a flush / to a straight made with its own cards, at the spec's rates, else none)
    /// and shows a decoy amount. Asked to show a feature (`show`), the first winning zone
    /// takes the combination asked, or the first losing zone the near miss asked, instead
    /// of drawing it (see `Poker::goals`). Then the cards are dealt constructively
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

    /// Judges the face by art. 3.4–3.8: each zone whose best combination by the letter
    /// exists (see [`read_zone`]) wins its GAIN amount (art. 3.6), and the lot is the sum of
    /// the winning zones (art. 3.7). Every case where the strict and the naive readings
    /// could differ, and every duplicate card, is reported as an ambiguity (GAMES.md).
    /// A card's inscription, art. 3.2–3.3: its rank and suit in letters from the spec's
    /// `rank_captions` and `suit_captions`, as `<rank> DE <suit>` (`DAME DE COEUR`).
    fn inscription(&self, column: usize, code: u8) -> Option<String> {
        (CARD_COLUMNS.contains(&column) && code < DECK)
            .then(|| format!("{} DE {}", self.rank_caption(code), self.suit_caption(code)))
    }

    fn evaluate(&self, face: &Face) -> Evaluation {
        let mut ev = Evaluation::default();
        let codes = &face.codes;
        let push = |ev: &mut Evaluation, a: &'static str| {
            if !ev.ambiguities.contains(&a) {
                ev.ambiguities.push(a);
            }
        };
        let (mut seen, mut duplicate, mut highest) = (0u64, false, 0u8);
        for i in CARD_COLUMNS {
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
        cards.copy_from_slice(&codes[BOARD_COLUMN..BOARD_COLUMN + COMMUNITY]);
        let board = Board::new(cards);
        for z in 0..ZONES {
            let base = z * ZONE_COLUMNS;
            let r = read([codes[base], codes[base + 1]], &board);
            if let Some(c) = r.strict {
                match self.gain.amounts().get(codes[base + 2] as usize) {
                    Some(&amount) => {
                        ev.wins.push(AreaWin {
                            area: z as u8,
                            amount,
                        });
                        ev.features.push(AreaFeature {
                            area: z as u8,
                            name: c.id(),
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
        if ev.wins.len() < ZONES {
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

    /// Joueur 1 to 4 (`p1` … `p4`: two cards and the GAIN), then the community cards
    /// (`board`).
    fn panels(&self) -> Vec<Panel> {
        let mut out: Vec<Panel> = (0..ZONES)
            .map(|z| Panel {
                id: format!("p{}", z + 1),
                rows: vec![(z * ZONE_COLUMNS..z * ZONE_COLUMNS + 3).collect()],
            })
            .collect();
        out.push(Panel {
            id: "board".into(),
            rows: vec![(BOARD_COLUMN..BOARD_COLUMN + COMMUNITY).collect()],
        });
        out
    }

    /// A winning zone: its GAIN and the cards of its combination (art. 3.4) among its own
    /// and the community cards: the cards of the rank of its paire, brelan or carré; one
    /// card of each rank of its quinte; the cards of the suit of its couleur; the five of
    /// its quinte flush royale. A losing zone: its GAIN (a decoy), and the four cards of a
    /// suit or of four ranks of a straight that make its near miss.
    fn marks(&self, face: &Face, ev: &Evaluation) -> Vec<Mark> {
        let c = &face.codes;
        let mut out = Vec::new();
        for z in 0..ZONES {
            let base = z * ZONE_COLUMNS;
            let seven: Vec<usize> = [base, base + 1]
                .into_iter()
                .chain(BOARD_COLUMN..BOARD_COLUMN + COMMUNITY)
                .collect();
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
                let cells: Vec<usize> = match ev.feature(area) {
                    Some("paire" | "brelan" | "carre") => {
                        let r = [c[base], c[base + 1]]
                            .into_iter()
                            .map(rank)
                            .filter(|&r| of_rank(r).any(|k| !own(&k)))
                            .max_by_key(|&r| (of_rank(r).count(), r));
                        r.map(|r| of_rank(r).collect()).unwrap_or_default()
                    }
                    Some("couleur") => (0..4u8)
                        .find(|&s| suit_count(s) >= 5)
                        .map(|s| of_suit(s).collect())
                        .unwrap_or_default(),
                    Some("quinte") => windows()
                        .take(9)
                        .find(|&w| ranks & w == w && straight(w).iter().any(own))
                        .map(straight)
                        .unwrap_or_default(),
                    Some("quinte_flush_royale") => (0..4u8)
                        .map(|s| {
                            of_suit(s)
                                .filter(|&k| ROYAL >> rank(c[k]) & 1 == 1)
                                .collect::<Vec<_>>()
                        })
                        .find(|v| v.len() == 5)
                        .unwrap_or_default(),
                    _ => Vec::new(),
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

    fn describe(&self) -> Vec<String> {
        let weights: Vec<String> = self
            .gain
            .amounts()
            .iter()
            .zip(&self.decoy_weights)
            .filter(|(_, &w)| w > 0)
            .map(|(m, w)| format!("{m}×{w}"))
            .collect();
        let show = |w: &[u32; 6]| {
            Combination::ALL
                .iter()
                .zip(w)
                .filter(|(_, &x)| x > 0)
                .map(|(c, x)| format!("{}×{x}", c.id()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut lines = vec![
            "play areas: p1 p2 p3 p4 (two cards each + GAIN), community b1..b5; a zone wins its GAIN with a paire, brelan, quinte, couleur, carre or quinte_flush_royale made with at least one of its cards and at least one community card (art. 3.4-3.6)".to_string(),
            format!(
                "cards: rank {} + suit {}; ranks in letters: {}; suits in letters (c d h s): {}",
                RANK_CHARS.iter().collect::<String>(),
                SUIT_CHARS.iter().collect::<String>(),
                self.rank_captions.join(" "),
                self.suit_captions.join(" ")
            ),
            format!("GAIN amounts: {}", self.gain.amounts().iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")),
            format!("decoy weights (losing zone's GAIN): {}", weights.join(" ")),
            format!(
                "near misses: of losing zones, {:.2}% show four to a flush and {:.2}% four to a straight made with their own cards (when the community cards leave room)",
                f64::from(self.near_miss[1]) / 1e4,
                f64::from(self.near_miss[2]) / 1e4
            ),
        ];
        for (m, w) in &self.tier_weights {
            lines.push(format!("combinations, tier {m}: {}", show(w)));
        }
        for (id, w) in &self.way_weights {
            lines.push(format!("combinations, way {id}: {}", show(w)));
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

/// Community cards for a ticket whose zones lose or win with a paire or brelan, in the order
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
        Goal::Win(Combination::Carre) => 0,
        Goal::Win(Combination::QuinteFlushRoyale) => 1,
        Goal::Win(Combination::Couleur) => 2,
        Goal::Win(Combination::Quinte) => 3,
        Goal::Win(Combination::Brelan) => 4,
        Goal::Win(Combination::Paire) => 5,
        Goal::Lose(Draw::Flush) => 6,
        Goal::Lose(Draw::Straight) => 7,
        Goal::Lose(_) => 8,
    }
}

/// Some ace-high straight holds three or more of the ranks in `m`.
fn has_straight_core(m: u16) -> bool {
    STRAIGHTS[1..].iter().any(|&w| (m & w).count_ones() >= 3)
}

/// One attempt at dealing the 13 cards for `goals`: own cards per zone and the community
/// cards in the order printed. `None` on a dead end.
fn deal(
    goals: &[Goal; ZONES],
    rng: &mut FaceRng,
) -> Option<([[Card; 2]; ZONES], [Card; COMMUNITY])> {
    let losing = goals.iter().filter(|g| matches!(g, Goal::Lose(_))).count();
    // Paires and brelans need nothing of the community cards that losing zones do not.
    let plain = goals.iter().all(|g| {
        matches!(
            g,
            Goal::Lose(_) | Goal::Win(Combination::Paire | Combination::Brelan)
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
    let mut order = [0usize, 1, 2, 3];
    if losing < ZONES {
        order.sort_by_key(|&z| priority(goals[z]));
    }
    let mut own = [[0; 2]; ZONES];
    for z in order {
        let p = pick_own(goals[z], &board, &room, used, rng)?;
        used |= bit(p[0]) | bit(p[1]);
        own[z] = p;
    }
    Some((own, cards))
}

/// Community cards for `goals` (some zone winning with a carré, quinte flush royale,
/// couleur or quinte), not yet shuffled. Always five distinct ranks with no straight and at most
/// four of a suit, except one pair when a carré is wanted (then all four zones win). A
/// quinte flush royale gets three or four of its cards here, a couleur three or four cards
/// of its suit, a quinte three ranks of one straight, a carré its pair.
fn build_board(goals: &[Goal; ZONES], rng: &mut FaceRng) -> Option<[Card; COMMUNITY]> {
    let wants = |c: Combination| goals.contains(&Goal::Win(c));
    let carre = wants(Combination::Carre);
    let royal = wants(Combination::QuinteFlushRoyale);
    let quinte = wants(Combination::Quinte);
    let flush_suit = (royal || wants(Combination::Couleur)).then(|| below(rng, 4) as u8);
    let mut b: ArrayVec<Card, COMMUNITY> = ArrayVec::new();
    let mut used = 0u64;
    let ranks = |b: &ArrayVec<Card, COMMUNITY>| b.iter().fold(0u16, |m, &c| m | 1 << rank(c));
    let suit_count =
        |b: &ArrayVec<Card, COMMUNITY>, s: u8| b.iter().filter(|&&c| suit(c) == s).count();
    let mut pair_rank = None;
    if carre {
        // Not a royal rank: the carré takes all four cards of its rank.
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
            let k = if carre { 3 } else { 3 + below(rng, 2) as usize };
            let mut rr = [8u8, 9, 10, 11, 12];
            shuffle(rng, &mut rr);
            for &r in &rr[..k] {
                b.push(card(r, f));
            }
        } else {
            let n = if carre { 3 } else { 3 + below(rng, 2) as usize };
            if quinte {
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
    if quinte && !has_straight_core(ranks(&b)) {
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
        && pairs == usize::from(carre)
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
        Combination::Paire | Combination::Brelan => rank_cards(ranks_counted(b, 1)),
        Combination::Carre => rank_cards(ranks_counted(b, 2)),
        Combination::Quinte => {
            let windows = WINDOWS_3[b.ranks as usize] & ACE_HIGH_WINDOWS;
            let ranks = (0..13)
                .filter(|&r| b.count[r] == 0 && WINDOWS_OF[r] & windows != 0)
                .fold(0, |m, r| m | 1 << r);
            rank_cards(ranks)
        }
        Combination::Couleur => suit_cards(suits_where(b, |n| n >= 3)),
        Combination::QuinteFlushRoyale => (0..4u8)
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
        Combination::Paire => {
            let ranks = (0..13u8)
                .filter(|&r| r != r1 && !has_straight(b.ranks | 1 << r))
                .fold(0, |m, r| m | 1 << r);
            rank_cards(ranks) & suit_cards(room)
        }
        Combination::Brelan | Combination::Carre => rank_cards(1 << r1),
        Combination::Quinte => {
            let with = b.ranks | 1 << r1;
            let ranks = (0..13u8)
                .filter(|&r| straight_starts(with | 1 << r) != 0)
                .fold(0, |m, r| m | 1 << r);
            rank_cards(ranks) & suit_cards(room)
        }
        Combination::Couleur if b.suits[s1] >= 4 => ALL_CARDS,
        Combination::Couleur => suit_cards(1 << s1),
        Combination::QuinteFlushRoyale => {
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
/// `c` is its best by the letter, with no non-royal straight flush and no naive hand above
/// it (no straight or flush beside a paire, brelan or carré, no flush beside a quinte).
fn win_ok(c: Combination, own: [Card; 2], b: &Board) -> bool {
    let z = read(own, b);
    z.strict == Some(c)
        && !z.straight_flush
        && match c {
            Combination::Paire | Combination::Brelan | Combination::Carre => {
                !z.straight && !z.flush
            }
            Combination::Quinte => !z.flush,
            Combination::Couleur | Combination::QuinteFlushRoyale => true,
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
        let cols = spec.mechanic.columns();
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
            .mechanic
            .columns()
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(names[..4], ["p1_c1", "p1_c2", "p1_gain", "p1_caption"]);
        assert_eq!(names[12..16], ["p4_c1", "p4_c2", "p4_gain", "p4_caption"]);
        assert_eq!(names[16..], ["b1", "b2", "b3", "b4", "b5"]);
        assert_eq!(spec.mechanic.areas(), ["p1", "p2", "p3", "p4"]);
    }

    /// One hand-made zone per combination (art. 3.4), each the zone's best.
    #[test]
    fn each_combination_by_the_letter() {
        assert_eq!(strict("Ah 7c", "As Kd 9c 4h 2s"), Some(Combination::Paire));
        assert_eq!(strict("9h 9d", "9c Kd 5s 2h Jc"), Some(Combination::Brelan));
        assert_eq!(strict("Kc 3d", "Kd Kh 8s 5c 2h"), Some(Combination::Brelan));
        assert_eq!(strict("8h 2c", "4c 5d 6s 7h Kd"), Some(Combination::Quinte));
        assert_eq!(
            strict("Ah 3h", "7h 9h Jh 2c Kd"),
            Some(Combination::Couleur)
        );
        assert_eq!(
            strict("2h 9c", "4h 7h Jh Kh 3s"),
            Some(Combination::Couleur)
        );
        assert_eq!(strict("7c 7d", "7h 7s Kd 4c 2h"), Some(Combination::Carre));
        assert_eq!(strict("7c Qd", "7h 7s 7d 4c 2h"), Some(Combination::Carre));
        assert_eq!(
            strict("Ks As", "Ts Js Qs 3d 4c"),
            Some(Combination::QuinteFlushRoyale)
        );
        // Best only (art. 3.6): brelan beats the paire it contains, couleur beats quinte.
        assert_eq!(strict("9h Kc", "9c 9d Kd 5s 2h"), Some(Combination::Brelan));
        assert_eq!(
            strict("8h 2h", "4h 5h 6s 7h Kh"),
            Some(Combination::Couleur)
        );
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
        assert_eq!(strict("6s Jh", "7s 8s 9s Ts Kd"), Some(Combination::Quinte));
        assert_eq!(strict("6h 2c", "6s 7s 8s 9s Ts"), Some(Combination::Quinte));
        // ...or a sixth suited card leaves five non-consecutive ones: then a couleur.
        assert_eq!(
            strict("6s 2s", "7s 8s 9s Ts Kd"),
            Some(Combination::Couleur)
        );
        // A-2-3-4-5 suited is not consecutive by the letter: a couleur.
        assert_eq!(
            strict("As 4s", "2s 3s 5s 9d Kc"),
            Some(Combination::Couleur)
        );
        // A card of the zone substitutes for a community card of the same rank.
        assert_eq!(strict("5d Kh", "5c 6d 7h 8s 9c"), Some(Combination::Quinte));
        // Royal with one own card.
        assert_eq!(
            strict("As 2d", "Ts Js Qs Ks 3c"),
            Some(Combination::QuinteFlushRoyale)
        );
    }

    #[test]
    fn a_clean_face_evaluates_with_amounts_added() {
        let f = face(
            ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
            "As Kd 9c 4h 2s",
            [5, 10, 50000, 3],
        );
        let ev = full().mechanic.evaluate(&f);
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
        let ev = full().mechanic.evaluate(&f);
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
        let m = &s.mechanic;
        let way = |id: &str| &s.ways[s.way_by_id(id).unwrap() as usize];
        assert_eq!(m.can_show(way("50000"), "quinte_flush_royale"), Ok(()));
        assert_eq!(
            m.can_show(way("50000"), "paire"),
            Err("way \"50000\" gives paire no weight (poker.combination_weights of its tier, or poker.way_combination_weights)".into())
        );
        assert_eq!(
            m.can_show(way("lose"), "paire"),
            Err("way \"lose\" gives paire no weight (poker.combination_weights of its tier, or poker.way_combination_weights)".into())
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
        let ev = spec.mechanic.evaluate(&f);
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
        let ev = spec.mechanic.evaluate(&f);
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
            spec.mechanic
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
        let ev = spec.mechanic.evaluate(&f);
        assert_eq!(ev.ambiguities, Vec::<&str>::new());
        assert_eq!(ev.wins.len(), 4);
        // A royal beside a 9-K straight flush is the royal: no ambiguity.
        let f = face(
            ["9s As", "Jc Qd", "Jd Qc", "Jh Qh"],
            "Ts Js Qs Ks 3c",
            [2, 2, 2, 2],
        );
        let ev = spec.mechanic.evaluate(&f);
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
        assert_eq!(full().mechanic.evaluate(&f).ambiguities, vec![AMB_BAD_CODE]);
        let mut f = face(
            ["Ah 7c", "9h 9d", "3c 6d", "8h Jd"],
            "As Kd 9c 4h 2s",
            [5, 10, 2, 3],
        );
        f.codes[2] = 200;
        assert_eq!(full().mechanic.evaluate(&f).ambiguities, vec![AMB_BAD_CODE]);
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
                        if count(Goal::Win(Combination::Carre)) > 1
                            || count(Goal::Win(Combination::QuinteFlushRoyale)) > 1
                        {
                            continue;
                        }
                        if count(Goal::Win(Combination::Carre)) == 1 && !all_win {
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
                    let r = read(own[z], &b);
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
                        let z = read([c0, c1], &b);
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
                let raw: RawSpec = toml::from_str(&spec.text).unwrap();
                let raw = raw.poker.unwrap().into_inner();
                for (id, way) in spec.ways.iter().enumerate() {
                    let allowed = if id == 0 { [0; 6] } else { spec_weights(&raw, way) };
                    for _ in 0..3 {
                        let f = spec.mechanic.synthesize(way, &mut rng).map_err(TestCaseError::fail)?;
                        let ev = spec.mechanic.evaluate(&f);
                        prop_assert!(ev.ambiguities.is_empty(), "{:?}", ev.ambiguities);
                        prop_assert_eq!(spec.recognise(&ev.wins), Some(id as u16));
                        prop_assert_eq!(ev.prize(), way.amount);
                        for w in &ev.wins {
                            let name = ev.feature(w.area).unwrap();
                            let c = Combination::ALL.iter().find(|c| c.id() == name).unwrap();
                            prop_assert!(allowed[c.index()] > 0, "{} on way {}", name, way.id);
                        }
                    }
                }
            }
        }
    }

    /// The way's weights as the spec text gives them (read independently of the mechanic).
    fn spec_weights(p: &RawPoker, way: &Way) -> [u32; 6] {
        p.way_combination_weights
            .get(&way.id)
            .or_else(|| {
                p.combination_weights
                    .iter()
                    .find(|(k, _)| k.parse::<Money>().unwrap() == way.amount)
                    .map(|x| x.1)
            })
            .unwrap()
            .array()
    }

    /// Value-stability vector: the same stream gives the same face, and these two faces are
    /// part of the reproducibility contract (a change here changes every block generated).
    #[test]
    fn synthesis_is_deterministic_and_pinned() {
        let spec = full();
        let way = &spec.ways[spec.way_by_id("4+3+3+3").unwrap() as usize];
        let a = spec
            .mechanic
            .synthesize(way, &mut FaceRng::seed_from_u64(42))
            .unwrap();
        let b = spec
            .mechanic
            .synthesize(way, &mut FaceRng::seed_from_u64(42))
            .unwrap();
        assert_eq!(a, b);
        let lose = spec
            .mechanic
            .synthesize(&spec.ways[0], &mut FaceRng::seed_from_u64(42))
            .unwrap();
        let show = |f: &Face| -> String {
            spec.mechanic
                .columns()
                .iter()
                .zip(&f.codes)
                .map(|(c, &x)| c.values[x as usize].as_str())
                .collect::<Vec<_>>()
                .join(",")
        };
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
                .mechanic
                .evaluate(&spec.mechanic.synthesize(way, &mut rng).unwrap());
            paires += usize::from(ev.features[0].name == "paire");
        }
        assert!((1500..1700).contains(&paires), "{paires}");
        // Losing zones: near misses at the spec's rates (0.12 each) when there is room.
        let (mut flush, mut straight, mut zones) = (0, 0, 0);
        for _ in 0..1000 {
            let f = spec.mechanic.synthesize(&spec.ways[0], &mut rng).unwrap();
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
        // A field error names the field's own line, not its table's header.
        let line_of = |key: &str| {
            full()
                .text
                .lines()
                .position(|l| l.starts_with(key))
                .map(|i| i + 1)
        };
        let e = spec_with("near_miss_flush = 0.12", "near_miss_flush = -0.12").unwrap_err();
        assert_eq!(e.field, "poker.near_miss_flush");
        assert_eq!(e.line, line_of("near_miss_flush ="));
        let e = spec_with(
            "[poker.combination_weights.\"5\"]\npaire = 8\nbrelan = 2",
            "[poker.combination_weights.\"5\"]\npaire = 0\nbrelan = 0",
        )
        .unwrap_err();
        assert_eq!(e.field, "poker.combination_weights.\"5\"");
        assert_eq!(e.line, line_of("[poker.combination_weights.\"5\"]"));
        // The same amount under two keys, in combination and decoy weights.
        let e = spec_with(
            "[poker.combination_weights.\"5\"]\npaire = 8",
            "[poker.combination_weights.\"5.0\"]\nquinte = 1\n[poker.combination_weights.\"5\"]\npaire = 8",
        )
        .unwrap_err();
        assert_eq!(e.field, "poker.combination_weights");
        assert!(e.message.contains("is the amount 5 a second time"), "{e}");
        let e = spec_with("\"2\" = 200\n", "\"2\" = 200\n\"2.00\" = 9\n").unwrap_err();
        assert_eq!(e.field, "poker.decoy_weights");
        assert!(e.message.contains("is the amount 2 a second time"), "{e}");
        // A carré on a tier that has single-zone ways.
        let e = spec_with(
            "[poker.combination_weights.\"5\"]\npaire = 8",
            "[poker.combination_weights.\"5\"]\ncarre = 1\npaire = 8",
        )
        .unwrap_err();
        assert!(e.message.contains("carré needs a community pair"), "{e}");
        assert_eq!(e.field, "way \"5\"");
        // Only royal on a way with two wins.
        let e = spec_with(
            "[poker.combination_weights.\"1000\"]\nquinte = 1\ncouleur = 2\n",
            "[poker.combination_weights.\"1000\"]\n",
        )
        .unwrap_err();
        assert!(e.message.contains("at most one of each fits"), "{e}");
        // Weights for an amount that is no tier, and a tier without weights.
        let e = spec_with(
            "[poker.combination_weights.\"5\"]",
            "[poker.combination_weights.\"6\"]",
        )
        .unwrap_err();
        assert!(
            e.message.contains("\"6\" is not the amount of a tier"),
            "{e}"
        );
        let e = spec_with(
            "[poker.combination_weights.\"5\"]\npaire = 8\nbrelan = 2\n",
            "",
        )
        .unwrap_err();
        assert!(e.message.contains("no combination weights"), "{e}");
        // Unknown field in [poker].
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
                    (true, false) => Some(Combination::Quinte),
                    (false, true) => Some(Combination::Couleur),
                    (true, true) if bits == ROYAL => Some(Combination::QuinteFlushRoyale),
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
                best_five(own, &Board::new(community)),
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
            1 | 2 => Some(Combination::Paire),
            3 | 6 => Some(Combination::Brelan),
            4 => Some(Combination::Quinte),
            5 => Some(Combination::Couleur),
            7 => Some(Combination::Carre),
            _ => (r == royal).then_some(Combination::QuinteFlushRoyale),
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
                    (2, 1) => Some(Combination::Paire),
                    (3, 3) => Some(Combination::Brelan),
                    (4, 7) => Some(Combination::Carre),
                    (5, 4) if r != wheel => Some(Combination::Quinte),
                    (5, 5) => Some(Combination::Couleur),
                    (5, SF) if r == royal => Some(Combination::QuinteFlushRoyale),
                    // A-2-3-4-5 suited: not consecutive by the letter, so five of a suit.
                    (5, SF)
                        if sub.iter().any(|&c| rank(c) == 3)
                            && sub.iter().any(|&c| rank(c) == 12) =>
                    {
                        Some(Combination::Couleur)
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
