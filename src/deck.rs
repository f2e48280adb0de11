//! QA decks: small specimen blocks made through the same pipeline as production blocks and
//! verifiable by the same `verify`. Deck tickets are specimens: serials of block 000 (never a
//! production block) and validation codes under the specimen key, so a deck ticket can never
//! be paid.

use crate::spec::GameSpec;

/// Why a deck cannot be composed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DeckError {
    /// Fewer tickets than the ways a default deck must show.
    #[error("a deck showing every way needs at least {needed} tickets ({ways} ways and 1 loser); got {got}")]
    TooSmall {
        /// Tickets needed.
        needed: u32,
        /// Ways of the spec (losing way excluded).
        ways: u32,
        /// Tickets asked for.
        got: u32,
    },
    /// A deck of no tickets.
    #[error("a deck needs at least one ticket")]
    Empty,
    /// More tickets than a block: a deck is a small QA sample.
    #[error("a deck of {got} tickets is larger than a block ({max}); a deck is a small QA sample")]
    TooLarge {
        /// Tickets asked for.
        got: u32,
        /// The block size.
        max: u32,
    },
}

fn at_most_a_block(spec: &GameSpec, n: u32) -> Result<(), DeckError> {
    if n > spec.block_size {
        return Err(DeckError::TooLarge {
            got: n,
            max: spec.block_size,
        });
    }
    Ok(())
}

/// Default number of losing tickets added to every way in a default deck.
pub const DEFAULT_LOSERS: u32 = 30;

/// The default deck: every way of the spec once, the rest losers (which show near misses
/// at the spec's rates). `tickets`: total size, default ways + [`DEFAULT_LOSERS`].
/// Returns the count of every way (index = way id).
pub fn every_way(spec: &GameSpec, tickets: Option<u32>) -> Result<Vec<u32>, DeckError> {
    let ways = spec.ways.len() as u32 - 1;
    let n = tickets.unwrap_or(ways + DEFAULT_LOSERS);
    at_most_a_block(spec, n)?;
    if n < ways + 1 {
        return Err(DeckError::TooSmall {
            needed: ways + 1,
            ways,
            got: n,
        });
    }
    let mut counts = vec![1u32; spec.ways.len()];
    counts[0] = n - ways;
    Ok(counts)
}

/// A deck of `n` tickets whose mix follows the lot table: each way's block count scaled to
/// `n` and rounded by largest remainder (ties to the lower way id), so the counts sum to `n`.
pub fn proportional(spec: &GameSpec, n: u32) -> Result<Vec<u32>, DeckError> {
    if n == 0 {
        return Err(DeckError::Empty);
    }
    at_most_a_block(spec, n)?;
    let total = u64::from(spec.block_size);
    let exact: Vec<(u64, u64)> = spec
        .ways
        .iter()
        .map(|w| {
            let x = u64::from(w.count) * u64::from(n);
            (x / total, x % total)
        })
        .collect();
    let mut counts: Vec<u32> = exact.iter().map(|e| e.0 as u32).collect();
    let left = n - counts.iter().sum::<u32>();
    let mut order: Vec<usize> = (0..counts.len()).collect();
    order.sort_by(|&a, &b| exact[b].1.cmp(&exact[a].1).then(a.cmp(&b)));
    for &i in order.iter().take(left as usize) {
        counts[i] += 1;
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn coq() -> GameSpec {
        GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("game_specs/coq.toml")).unwrap()
    }

    #[test]
    fn default_deck_has_every_way_once() {
        let s = coq();
        let c = every_way(&s, None).unwrap();
        assert_eq!(c.len(), 11);
        assert_eq!(c[0], DEFAULT_LOSERS);
        assert!(c[1..].iter().all(|&n| n == 1));
        assert_eq!(
            every_way(&s, Some(10)),
            Err(DeckError::TooSmall {
                needed: 11,
                ways: 10,
                got: 10
            })
        );
        assert_eq!(every_way(&s, Some(11)).unwrap()[0], 1);
        assert_eq!(
            every_way(&s, Some(4_500_001)),
            Err(DeckError::TooLarge {
                got: 4_500_001,
                max: 4_500_000
            })
        );
        assert_eq!(
            proportional(&s, u32::MAX),
            Err(DeckError::TooLarge {
                got: u32::MAX,
                max: 4_500_000
            })
        );
        assert_eq!(proportional(&s, 0), Err(DeckError::Empty));
    }

    #[test]
    fn proportional_deck_follows_the_lot_table() {
        let s = coq();
        let c = proportional(&s, 1000).unwrap();
        assert_eq!(c.iter().sum::<u32>(), 1000);
        // 3 129 908 / 4 500 000 × 1000 = 695.5 losers; "2": 143.9; "4": 77.8; "8": 33.3;
        // "2+2": 22.2; "4+4": 16.7; "10+8": 10.0; the rest round to 0 or 1 by remainder.
        let by_id = |id: &str| c[s.way_by_id(id).unwrap() as usize];
        assert_eq!(by_id("lose"), 696);
        assert_eq!(by_id("2"), 144);
        assert_eq!(by_id("4"), 78);
        assert_eq!(by_id("8"), 33);
        assert_eq!(by_id("2+2"), 22);
        assert_eq!(by_id("4+4"), 17);
        assert_eq!(by_id("10+8"), 10);
        assert_eq!(by_id("20000"), 0);
    }
}
