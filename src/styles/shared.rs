//! Shared elements of a face (`[[shared]]`): a part of the face printed once and read by
//! the play areas of several surfaces, each by its own style (one caller's draw read by
//! several bingo cards; one set of bonus numbers that wins on every key-number grid).
//!
//! A shared element is drawn first on every ticket, uniformly and independently of the
//! ticket's way ([`Shared::draw`]): it tells nothing of the prize. Each surface that reads
//! it (`reads = "caller"`) then draws its own cells *given* it ([`super::Plan::draw_given`]),
//! so that the surface shows its part of the way against it. The composed face holds the
//! element's columns once, before the surfaces' own ([`super::game::Game`]); a reading
//! surface's face is gathered from them, so its style judges it as it judges any face.
//!
//! A dealer's hand (`kind = "hand"`) is read by several `card_total` surfaces, whose hands
//! all play against it. Its law is fixed, whatever the readers and the way, and the same as
//! every `card_total` dealer's (a surface's own, one beside each hand): `count` cards
//! of no ace whose total is drawn uniformly from [`DEALER_TOTALS`], then its cards
//! ([`super::card_total::draw_dealer`]). Against any such hand every reader can show
//! every part of a way (a win: a hand of a higher total up to 20 of no ace, or a natural; a
//! loss at least two below; a near miss one below), so the dealer is never drawn again for
//! a way, and the dealer's hand alone tells a winning ticket from a losing one no better
//! than chance: its law is the same on both. A natural, a soft total or a bust dealer,
//! which would make a way impossible or show only on losers, is never drawn. The readers
//! then deal their own cards from the same deck, in surface order, none twice on the
//! ticket ([`super::Plan::draw_beside`]).

use super::{Column, ColumnKind, Face, FaceRng, Panel};
use crate::crypto::rng::below;
use arrayvec::ArrayVec;

/// One shared element as the spec declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shared {
    /// Its id (`[[shared]] id`): an ASCII word, the key of its printed name in `[labels]`,
    /// the name of its panel and the stem of its columns (`{id}_1`, `{id}_2`, …).
    pub id: String,
    /// What it is.
    pub kind: SharedKind,
    /// How many cells it prints.
    pub count: usize,
    /// The symbols a cell may show (code → text), in the spec's order.
    pub values: Vec<String>,
}

/// What a shared element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedKind {
    /// A draw of `count` different symbols among `values` (a caller's numbers, a set of
    /// winning or bonus numbers), in the order drawn.
    Draw,
    /// A dealer's hand of `count` cards (2 or 3; `values` is the 52-card deck, written as
    /// `card_hands` writes cards), dealt first from the ticket's one deck.
    Hand,
}

/// The totals every `card_total` dealer's hand shows (a shared one, a surface's own, one
/// beside each hand), each as likely: against each of them a `card_total` hand can win (a higher total up to 20 with two cards of no ace), lose at
/// least two below and lose one below.
pub const DEALER_TOTALS: std::ops::RangeInclusive<u8> = 12..=19;

impl Shared {
    /// The element's face columns, in its order: `{id}_1` to `{id}_{count}`, each over
    /// `values`.
    pub fn columns(&self) -> Vec<Column> {
        (1..=self.count)
            .map(|i| Column {
                name: format!("{}_{i}", self.id),
                kind: ColumnKind::Symbol,
                values: self.values.clone(),
                inscriptions: Vec::new(),
            })
            .collect()
    }

    /// The element's panel, its cells from face column `first` on, eight a row.
    pub fn panel(&self, first: usize) -> Panel {
        let cells: Vec<usize> = (first..first + self.count).collect();
        Panel {
            id: self.id.clone(),
            rows: cells.chunks(8).map(<[usize]>::to_vec).collect(),
        }
    }

    /// One ticket's element, drawn from `rng` whatever the ticket's way: `count` different
    /// codes of `values`, uniformly, in the order drawn, written at face columns
    /// `first..first + count` of `face`.
    pub fn draw(&self, face: &mut Face, first: usize, rng: &mut FaceRng) {
        let codes = match self.kind {
            SharedKind::Draw => draw_distinct(rng, self.values.len(), self.count),
            SharedKind::Hand => super::card_total::draw_dealer(rng, self.count, 0)
                .expect("a full deck deals every total of the law")
                .to_vec(),
        };
        for (i, c) in codes.into_iter().enumerate() {
            face.codes[first + i] = c;
        }
    }

    /// The element in words, for `tirage check`.
    pub fn describe(&self, readers: &[&str]) -> String {
        let readers: Vec<String> = readers.iter().map(|r| format!("\"{r}\"")).collect();
        let what = match self.kind {
            SharedKind::Draw => format!(
                "a draw of {} different symbols among {} ({} to {})",
                self.count,
                self.values.len(),
                self.values[0],
                self.values.last().expect("at least one symbol")
            ),
            SharedKind::Hand => format!(
                "a dealer's hand of {} cards, no ace, its total drawn from {} to {} (each as \
                 likely), dealt first from the ticket's one deck; the readers' hands are dealt \
                 from the same deck, no card twice on the ticket",
                self.count,
                DEALER_TOTALS.start(),
                DEALER_TOTALS.end()
            ),
        };
        format!(
            "shared \"{}\": {what}, printed once under the scratch layer and drawn on every \
             ticket whatever its prize; read by surface{} {}.",
            self.id,
            if readers.len() == 1 { "" } else { "s" },
            readers.join(", ")
        )
    }
}

/// What the surfaces drawn before one on a ticket already show of what it must not show
/// again: the cards dealt from the deck of a shared hand, or, beside a shared draw, the
/// symbols of the other readers' own winning cells and spots ([`super::Plan::draw_beside`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Beside {
    /// The cards already dealt from the ticket's one deck: bit `c` for card code `c`
    /// (`card_hands` codes, 0 to 51).
    pub cards: u64,
    /// The symbols of the own winning cells of the surfaces drawn before that read the same
    /// draw ([`super::Layout::own_winning`]): a spot of this surface shows none of them.
    pub winning: Vec<u8>,
    /// The symbols on the spots of the surfaces drawn before that read the same draw
    /// ([`super::Layout::spots`]): an own winning cell of this surface shows none of them.
    pub spots: Vec<u8>,
}

/// The codes of `lists`, each once, sorted: what [`nth_free`] skips. Gathered as a set of
/// 256 bits, then read in order: no allocation and no sort.
pub fn taken(lists: &[&[u8]]) -> ArrayVec<u8, 256> {
    let mut set = [0u64; 4];
    for &c in lists.iter().flat_map(|l| l.iter()) {
        set[usize::from(c >> 6)] |= 1 << (c & 63);
    }
    let mut v = ArrayVec::new();
    for (w, mut bits) in (0u8..).zip(set) {
        while bits != 0 {
            v.push(w * 64 + bits.trailing_zeros() as u8);
            bits &= bits - 1;
        }
    }
    v
}

/// `k` different codes below `n` (at most 256), uniformly, in the order drawn (a partial
/// Fisher–Yates shuffle).
fn draw_distinct(rng: &mut FaceRng, n: usize, k: usize) -> Vec<u8> {
    let mut pool: Vec<u8> = (0..n).map(|c| c as u8).collect();
    for i in 0..k {
        let j = i + below(rng, (n - i) as u32) as usize;
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool
}

/// The `r`-th code below `n` that is not in `taken` (each below `n`, distinct, in increasing
/// order, as [`taken`] gives them): how a surface reading a shared draw draws a symbol the
/// draw does not show.
pub fn nth_free(taken: &[u8], r: u32) -> u8 {
    debug_assert!(taken.windows(2).all(|w| w[0] < w[1]), "nth_free: {taken:?}");
    let mut r = r;
    for &s in taken {
        if r < u32::from(s) {
            break;
        }
        r += 1;
    }
    r as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn a_draw_is_distinct_and_within_its_symbols() {
        let s = Shared {
            id: "caller".into(),
            kind: SharedKind::Draw,
            count: 5,
            values: (1..=9).map(|n| format!("{n}")).collect(),
        };
        let mut rng = FaceRng::from_seed([7; 32]);
        for _ in 0..200 {
            let mut face = Face::default();
            s.draw(&mut face, 3, &mut rng);
            let mut got: Vec<u8> = face.codes[3..8].to_vec();
            assert!(got.iter().all(|&c| c < 9));
            got.sort_unstable();
            got.dedup();
            assert_eq!(got.len(), 5);
            assert_eq!(face.codes[..3], [0, 0, 0]);
            assert_eq!(face.codes[8], 0);
        }
        assert_eq!(
            s.columns()
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>(),
            ["caller_1", "caller_2", "caller_3", "caller_4", "caller_5"]
        );
        assert_eq!(s.panel(2).rows, vec![vec![2, 3, 4, 5, 6]]);
    }

    #[test]
    fn taken_is_every_code_once_in_order() {
        assert_eq!(taken(&[]).as_slice(), &[] as &[u8]);
        assert_eq!(
            taken(&[&[255, 3, 64], &[3, 0], &[], &[63, 128, 255]]).as_slice(),
            &[0, 3, 63, 64, 128, 255]
        );
        let all: Vec<u8> = (0..=255).rev().collect();
        assert_eq!(
            taken(&[&all, &all]).to_vec(),
            (0..=255).collect::<Vec<u8>>()
        );
    }

    #[test]
    fn the_nth_free_code_skips_the_taken_ones() {
        assert_eq!(nth_free(&[0, 3], 0), 1);
        assert_eq!(nth_free(&[0, 3], 1), 2);
        assert_eq!(nth_free(&[0, 3], 2), 4);
        assert_eq!(nth_free(&[0, 1, 2, 5], 2), 6);
        assert_eq!(nth_free(&[], 5), 5);
    }
}
