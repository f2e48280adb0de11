//! Dealing a face: what each zone must show for a way, and the cards drawn for it
//! (constructive, with a bounded number of whole-face attempts).

use super::*;

impl CardHands {
    /// The GAIN code of each zone (its amount, or for a losing zone a decoy) and its goal,
    /// for a face of `way` (planned: see [`CardHands::check_way`]) showing feature `show`
    /// if given (one the plan can show: see [`CardHands::can_show`]). Wins with a fixed
    /// zone go there, the others to free zones in a random order; each winning zone draws its combination from the weights (a
    /// four of a kind or royal flush weighing 0 after it is drawn), each losing zone its near
    /// miss at the spec's rates and its decoy from `decoy_weights` (two zones per draw of
    /// [`below_mixed`] when their ranges fit). The combination or near miss asked is taken
    /// by the first winning, resp. losing, zone instead of drawn; with `show = None` the
    /// draws are those of every production face.
    pub(super) fn goals(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
    ) -> (Zoned<u8>, Zoned<Goal>) {
        let zones = self.zones;
        let mut want = show.and_then(|id| self.parse_want(id));
        // Which zone each win goes to.
        let mut zone_amount: Zoned<Option<Money>> = std::iter::repeat_n(None, zones).collect();
        for w in way.wins.iter() {
            if let Some(a) = w.area {
                let slot = zone_amount
                    .get_mut(a as usize)
                    .expect("planned: a fixed zone of this surface");
                *slot = Some(w.amount);
            }
        }
        let mut open: Zoned<usize> = (0..zones).filter(|&z| zone_amount[z].is_none()).collect();
        if way.wins.iter().any(|w| w.area.is_none()) {
            shuffle(rng, &mut open);
        }
        let mut next = open.iter();
        for w in way.wins.iter().filter(|w| w.area.is_none()) {
            let z = *next.next().expect("planned: at most one win per zone");
            zone_amount[z] = Some(w.amount);
        }
        let wins = zone_amount.iter().filter(|a| a.is_some()).count();

        let mut weights = if wins > 0 {
            self.weights_for(way)
                .expect("planned: a winning way has combination weights")
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
                    .expect("planned: every win is a zone amount");
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
        (codes, goals)
    }
}

impl CardHands {
    /// A face of `way` (planned) showing `show` if asked, as [`CardHands::plan`] says, and
    /// how many deals were tried (1 when the first reached no dead end; at most
    /// [`MAX_ATTEMPTS`]): the benchmark reports the rate of dead ends from it.
    pub fn synthesize_counted(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
    ) -> (Face, usize) {
        let mut face = Face::default();
        let attempts = self.synthesize_into(way, show, rng, &mut face);
        (face, attempts)
    }

    /// [`CardHands::synthesize_counted`] into `face`, whatever it held: the same face,
    /// built where it lies; returns how many deals were tried.
    pub fn synthesize_into(
        &self,
        way: &Way,
        show: Option<FeatureId>,
        rng: &mut FaceRng,
        face: &mut Face,
    ) -> usize {
        let (codes, goals) = self.goals(way, show, rng);
        let mut dealt = None;
        let mut attempts = 0;
        while attempts < MAX_ATTEMPTS && dealt.is_none() {
            attempts += 1;
            dealt = deal(&goals, rng);
        }
        let Some((own, board)) = dealt else {
            panic!("no deal found for the goals {goals:?} in {MAX_ATTEMPTS} attempts: a bug");
        };

        face.reset(self.layout.columns.len());
        for z in 0..self.zones {
            let base = z * ZONE_COLUMNS;
            face.codes[base] = own[z][0];
            face.codes[base + 1] = own[z][1];
            self.gain.show(face, base + 2, base + 3, codes[z]);
        }
        face.codes[self.board_column..self.board_column + COMMUNITY].copy_from_slice(&board);

        // The face must be what was wanted, by the rules alone. The construction ensures it
        // (each zone is checked against the finished community cards as it is dealt, and a
        // zone reads only its own cards and those) and generation judges every face again,
        // so the check runs in debug builds, which the tests use.
        if cfg!(debug_assertions) {
            if let Err(e) = self.check_goals(face, &goals) {
                panic!("{e}");
            }
        }
        attempts
    }

    /// `Err` unless `face` is unambiguous and each zone shows exactly its goal.
    pub(super) fn check_goals(&self, face: &Face, goals: &[Goal]) -> Result<(), String> {
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
                Goal::Win(c) => Some(self.feature(*c)),
                Goal::Lose(_) => None,
            };
            if got != want {
                return Err(format!(
                    "zone {} shows {got:?} instead of {want:?}: a bug",
                    self.layout.areas[z]
                ));
            }
        }
        Ok(())
    }
}

pub(super) fn bit(c: Card) -> u64 {
    1 << c
}

/// A card not in `excluded` for which `ok` holds, uniformly among them, or `None`.
/// A few plain draws first; then every candidate is enumerated (so the loop is bounded and
/// the result uniform either way).
pub(super) fn draw_card(
    rng: &mut FaceRng,
    excluded: u64,
    ok: impl Fn(Card) -> bool,
) -> Option<Card> {
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
pub(super) const ALL_CARDS: u64 = (1 << DECK) - 1;

/// One card of every rank of suit `c` (0) as a card set: multiply by a 4-bit suit set to get
/// the cards of those suits.
pub(super) const ONE_PER_RANK: u64 = 0x1_1111_1111_1111;

/// The cards of the suits in `suits` (bit `s` for suit `s`).
pub(super) const fn suit_cards(suits: u8) -> u64 {
    ONE_PER_RANK * (suits as u64 & 0xF)
}

/// The cards of the ranks in `ranks` (bit `r` for rank `r`).
pub(super) fn rank_cards(ranks: u16) -> u64 {
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
pub(super) fn pick(rng: &mut FaceRng, m: u64) -> Card {
    select(m, below(rng, m.count_ones())) as Card
}

/// The position of the `k`-th set bit of `m` (from 0; `k` below `m.count_ones()`).
pub(super) fn select(mut m: u64, mut k: u32) -> u32 {
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
pub(super) fn losing_board(rng: &mut FaceRng) -> ([Card; COMMUNITY], u16) {
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
pub(super) fn permute(b: &mut [Card; COMMUNITY], j: [u32; 4]) {
    for (i, &j) in (1..COMMUNITY).rev().zip(&j) {
        b.swap(i, j as usize);
    }
}

/// The five community cards in a uniform order (one draw).
pub(super) fn shuffle_board(rng: &mut FaceRng, b: &mut [Card; COMMUNITY]) {
    permute(b, below_mixed(rng, [5, 4, 3, 2]));
}

/// Proposals drawn for a losing zone before every candidate is enumerated.
pub(super) const LOSE_TRIES: usize = 24;

/// Suit pairs `sa | sb << 2` (suits of a losing zone's lower and higher own rank) that
/// leave at most four of a suit among its seven cards: first those with no four made with
/// an own card, then those with one (a near miss).
pub(super) type SuitPairs = Runs<16>;

/// [`SuitPairs`] for every count of community cards per suit (`c + 5d + 25h + 125s`,
/// each count at most 4), worked out at compile time.
pub(super) static SUIT_PAIRS: [SuitPairs; 625] = {
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
pub(super) struct LosingRoom {
    /// Rank pairs for the community ranks.
    pub(super) pairs: &'static LosingRankPairs,
    /// Suit pairs for the community suits.
    pub(super) suits: &'static SuitPairs,
}

impl LosingRoom {
    /// The room on community cards `b`, whose ranks have index `set` in
    /// [`LOSING_SET_INDEX`], or `None` when they are not five distinct ranks with no
    /// straight and at most four of a suit (then no zone can lose: GAMES.md).
    pub(super) fn new(b: &Board, set: u16) -> Option<LosingRoom> {
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
pub(super) struct LosingChoice<'a> {
    /// Rank pairs `a | b << 4`.
    pub(super) pairs: &'a [u8],
    /// Suit pairs `sa | sb << 2`.
    pub(super) suits: &'a [u8],
}

impl<'a> LosingChoice<'a> {
    pub(super) fn new(d: Draw, room: &'a LosingRoom) -> LosingChoice<'a> {
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
    pub(super) fn cards(&self, k: u32, j: u32) -> [Card; 2] {
        let (r, x) = (self.pairs[k as usize], self.suits[j as usize]);
        [card(r & 15, x & 3), card(r >> 4, x >> 2)]
    }

    /// Every choice whose cards are not in `used`.
    pub(super) fn all(&self, used: u64) -> ArrayVec<[Card; 2], { 28 * 16 }> {
        (0..self.pairs.len() as u32)
            .flat_map(|k| (0..self.suits.len() as u32).map(move |j| self.cards(k, j)))
            .filter(|c| free(used, c))
            .collect()
    }
}

/// Neither card of `own` is in `used`.
pub(super) fn free(used: u64, own: &[Card; 2]) -> bool {
    used & (bit(own[0]) | bit(own[1])) == 0
}

/// Own cards for a losing zone with near miss `d`, none in `used`, or `None` when there are
/// none: uniformly among the [`LosingChoice`]s, in random order. A choice and its order are
/// drawn (one draw) and redrawn while a card is taken, at most [`LOSE_TRIES`] times; then
/// every free choice is enumerated.
pub(super) fn pick_losing(
    d: Draw,
    room: &LosingRoom,
    used: u64,
    rng: &mut FaceRng,
) -> Option<[Card; 2]> {
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
pub(super) fn pick_losing_among_free(
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
pub(super) fn ordered(own: [Card; 2], order: u32) -> [Card; 2] {
    let swap = order as usize & 1;
    [own[swap], own[1 - swap]]
}

/// Ranks held exactly `n` times by the community cards.
pub(super) fn ranks_counted(b: &Board, n: u8) -> u16 {
    (0..13)
        .filter(|&r| b.count[r] == n)
        .fold(0, |m, r| m | 1 << r)
}

/// Suits of which the community cards hold `n` cards with `ok(n)`.
pub(super) fn suits_where(b: &Board, ok: impl Fn(u8) -> bool) -> u8 {
    (0..4)
        .filter(|&s| ok(b.suits[s]))
        .fold(0, |m, s| m | 1 << s)
}

/// Order in which zones are dealt: the most constrained first.
pub(super) fn priority(g: Goal) -> u8 {
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
pub(super) fn has_straight_core(m: u16) -> bool {
    STRAIGHTS[1..].iter().any(|&w| (m & w).count_ones() >= 3)
}

/// One attempt at dealing the cards for `goals` (one per zone): own cards per zone and the
/// community cards in the order printed. `None` on a dead end.
pub(super) fn deal(
    goals: &[Goal],
    rng: &mut FaceRng,
) -> Option<(Zoned<[Card; 2]>, [Card; COMMUNITY])> {
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
pub(super) fn build_board(goals: &[Goal], rng: &mut FaceRng) -> Option<[Card; COMMUNITY]> {
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

pub(super) fn used_of(b: &[Card]) -> u64 {
    b.iter().fold(0u64, |u, &c| u | bit(c))
}

/// The cards a zone winning with `c` may take as its first own card: a necessary
/// condition, by rank and suit, for the zone to show exactly `c` (every pair of own cards
/// that does holds at least one such card; pinned by a test).
pub(super) fn first_cards(c: Combination, b: &Board) -> u64 {
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
pub(super) fn second_cards(c: Combination, c1: Card, b: &Board) -> u64 {
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
pub(super) fn win_ok(c: Combination, own: [Card; 2], b: &Board) -> bool {
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
pub(super) fn pick_own(
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
