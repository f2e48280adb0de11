//! Reading one player zone: the combinations this engine carries and both readings of
//! a zone's seven cards (the letter of the definitions, and what a naive player sees).

use super::*;

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
    pub(super) const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The set of every kind.
pub const ALL_KINDS: u8 = 0x3F;

/// A flag beside the kinds of a set: the straight's `ace_low = true` (A-2-3-4-5 is five
/// consecutive ranks, for the straight and for the flush's `not_straight` alike).
pub(super) const ACE_LOW: u8 = 0x40;

/// A flag beside the kinds of a set: `min_community = 0`, so a zone's own two cards of one
/// rank are a pair by themselves (every other combination needs community cards anyway).
pub(super) const POCKET: u8 = 0x80;

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
pub(super) const WHEEL: u16 = 0x100F;
/// Rank bits of 10-V-D-R-A.
pub(super) const ROYAL: u16 = 0x1F00;

/// Bit `i` set when ranks `i..i + 5` are all in `m` (ace-high straights only).
pub(super) const fn straight_starts(m: u16) -> u16 {
    m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)
}

/// True when `m` holds five consecutive ranks, ace high or low.
pub(super) const fn has_straight(m: u16) -> bool {
    straight_starts(m) != 0 || m & WHEEL == WHEEL
}

/// The ten straights' rank masks: A-2-3-4-5 and 2-6 … 10-A.
pub(super) const STRAIGHTS: [u16; 10] = {
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
pub(super) const WINDOWS_OF: [u16; 13] = {
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
pub(super) const ACE_HIGH_WINDOWS: u16 = 0x3FE;

/// For every 13-bit rank mask `m`: bit `i` set when `STRAIGHTS[i]` holds `n` or more of
/// the ranks in `m` (tabulated for `n` = 3 and 4, which synthesis asks often).
pub(super) const fn window_table(n: u32) -> [u16; 8192] {
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
pub(super) static WINDOWS_3: [u16; 8192] = window_table(3);
pub(super) static WINDOWS_4: [u16; 8192] = window_table(4);

/// The 1 277 sets of five ranks with no straight (A-2-3-4-5 included), as ascending rank
/// masks: the community cards of a losing ticket hold one of them.
pub(super) static LOSING_RANK_SETS: [u16; 1277] = {
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
pub(super) static LOSING_SET_INDEX: [u16; 8192] = {
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
pub(super) struct Runs<const N: usize> {
    pub(super) items: [u8; N],
    pub(super) plain: u8,
    pub(super) len: u8,
}

impl<const N: usize> Runs<N> {
    pub(super) const EMPTY: Runs<N> = Runs {
        items: [0; N],
        plain: 0,
        len: 0,
    };

    /// Appends `x` (to the first run while [`Runs::close_first`] was not called).
    pub(super) const fn push(&mut self, x: u8) {
        self.items[self.len as usize] = x;
        self.len += 1;
    }

    /// Ends the first run.
    pub(super) const fn close_first(&mut self) {
        self.plain = self.len;
    }

    /// The codes of the first run (`first`), of the second (`second`), or of both.
    pub(super) fn runs(&self, first: bool, second: bool) -> &[u8] {
        let (p, n) = (usize::from(self.plain), usize::from(self.len));
        &self.items[if first { 0 } else { p }..if second { n } else { p }]
    }
}

/// The rank pairs `a | b << 4` (`a < b`) a losing zone may hold as its own cards beside the
/// community ranks of one of the [`LOSING_RANK_SETS`] (neither rank there, and no straight,
/// A-2-3-4-5 included, among the seven ranks): first those with no four to a straight made
/// with an own rank, then those with one (a near miss). At most 28: two of the eight ranks
/// left.
pub(super) type LosingRankPairs = Runs<28>;

/// [`LosingRankPairs`] of each of the [`LOSING_RANK_SETS`], in the same order (worked
/// out at compile time).
pub(super) static LOSING_RANK_PAIRS: [LosingRankPairs; 1277] = {
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
pub(super) struct Board {
    /// Ranks present.
    pub(super) ranks: u16,
    /// Cards of each rank.
    pub(super) count: [u8; 13],
    /// Cards of each suit.
    pub(super) suits: [u8; 4],
    /// Ranks present in each suit.
    pub(super) suit_ranks: [u16; 4],
    /// Some rank twice or more.
    pub(super) pair: bool,
    /// The suit with five cards, if any.
    pub(super) flush_suit: Option<usize>,
}

impl Board {
    pub(super) fn new(cards: [Card; COMMUNITY]) -> Board {
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
pub(super) fn read(own: [Card; 2], b: &Board, kinds: u8) -> ZoneReading {
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
pub(super) fn best_of(kinds: u8) -> Option<Combination> {
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
pub(super) fn five_card_kinds(own: [Card; 2], b: &Board, ace_low: bool) -> u8 {
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
pub(super) fn each_bit(mut m: u16, mut f: impl FnMut(u16)) {
    while m != 0 {
        let x = m & m.wrapping_neg();
        f(x);
        m &= m - 1;
    }
}
