//! QA decks: small specimen blocks made through the same pipeline as production blocks and
//! verifiable by the same `verify`. Deck tickets are specimens: serials of block 000 (never a
//! production block) and validation codes under the specimen key, so a deck ticket can never
//! be paid.
//!
//! A default deck shows every way of the spec and every feature its game can show with
//! this spec (poker's combinations, every game's near misses and named decoys; see
//! [`crate::styles::game::Game::features`]), each *guaranteed*: the manifest lists the features
//! promised with the ticket that shows each, and `verify` checks them.

use crate::block::Composition;
use crate::block::Promise;
use crate::spec::{GameSpec, WayId};

/// The tickets a default deck needs, in words: `10 ways, 2 tickets each asked to show a
/// feature and 1 loser` (`1 way`, `1 ticket asked to show a feature`; no features said
/// when there are none).
fn shown(ways: u32, features: u32) -> String {
    let ways = match ways {
        1 => "1 way".to_string(),
        n => format!("{n} ways"),
    };
    match features {
        0 => format!("{ways} and 1 loser"),
        1 => format!("{ways}, 1 ticket asked to show a feature and 1 loser"),
        n => format!("{ways}, {n} tickets each asked to show a feature and 1 loser"),
    }
}

/// Why a deck cannot be composed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DeckError {
    /// Fewer tickets than the ways and features a default deck must show.
    #[error("a deck showing every way and every feature needs at least {needed} tickets ({}); got {got}", shown(*ways, *features))]
    TooSmall {
        /// Tickets needed.
        needed: u32,
        /// Ways of the spec (losing way excluded).
        ways: u32,
        /// Tickets added to show a feature no way shows on every ticket.
        features: u32,
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

/// The deck of `composition` with `tickets` tickets: [`every_way`] or [`proportional`].
/// Errors: theirs.
pub fn compose(spec: &GameSpec, composition: Composition, tickets: u32) -> Result<Deck, DeckError> {
    match composition {
        Composition::EveryWay => every_way(spec, Some(tickets)),
        Composition::Proportional => proportional(spec, tickets),
    }
}

/// What a deck holds: the count of every way and the features it promises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// How the counts were chosen.
    pub composition: Composition,
    /// Tickets of every way (index = way id).
    pub counts: Vec<u32>,
    /// The features promised, in the game's order ([`crate::styles::game::Game::features`]);
    /// `None` for a proportional deck, which promises none.
    pub promises: Option<Vec<Promise>>,
}

/// The features a default deck of `spec` promises, in the game's order: a feature some
/// way shows on every ticket ([`crate::styles::game::Game::always_shows`]) is promised on the
/// first such way (lowest id) and costs no ticket; any other on the first way that can show
/// it ([`crate::styles::game::Game::can_show`]; near misses land on the losing way), on a ticket
/// added and built asked to show it (`forced`). A feature no way can show is not promised.
pub fn promises(spec: &GameSpec) -> Vec<Promise> {
    let m = &spec.game;
    let mut out = Vec::new();
    for (id, _) in m.features() {
        let always = (0..spec.ways.len()).find(|&w| m.always_shows(&spec.ways[w]).contains(&id));
        let promise = match always {
            Some(w) => Some((w, false)),
            None => (0..spec.ways.len())
                .find(|&w| m.can_show(&spec.ways[w], id).is_ok())
                .map(|w| (w, true)),
        };
        if let Some((w, forced)) = promise {
            out.push(Promise {
                feature: id,
                way: w as WayId,
                forced,
            });
        }
    }
    out
}

/// The default deck: every way of the spec once, one more ticket for each feature no way
/// shows on every ticket, built asked to show it (see [`promises`]), and the rest losers
/// (which show near misses at the spec's rates). `tickets`: total size, default ways +
/// forced features + [`DEFAULT_LOSERS`]. Errors: fewer tickets than ways + forced features
/// + 1 loser ([`DeckError::TooSmall`], saying how many are needed), more than a block.
pub fn every_way(spec: &GameSpec, tickets: Option<u32>) -> Result<Deck, DeckError> {
    let ways = spec.ways.len() as u32 - 1;
    let promises = promises(spec);
    let features = promises.iter().filter(|p| p.forced).count() as u32;
    let needed = ways + features + 1;
    let n = tickets.unwrap_or(ways + features + DEFAULT_LOSERS);
    at_most_a_block(spec, n)?;
    if n < needed {
        return Err(DeckError::TooSmall {
            needed,
            ways,
            features,
            got: n,
        });
    }
    let mut counts = vec![1u32; spec.ways.len()];
    for p in promises.iter().filter(|p| p.forced) {
        counts[p.way as usize] += 1;
    }
    counts[0] = n - (ways + features) + (counts[0] - 1);
    Ok(Deck {
        composition: Composition::EveryWay,
        counts,
        promises: Some(promises),
    })
}

/// A deck of `n` tickets whose mix follows the lot table: each way's block count scaled to
/// `n` and rounded by largest remainder (ties to the lower way id), so the counts sum to `n`.
/// It promises no feature: its tickets show them at the spec's weights and rates, like a
/// production block. Errors: `n` is 0 or more than a block.
pub fn proportional(spec: &GameSpec, n: u32) -> Result<Deck, DeckError> {
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
    Ok(Deck {
        composition: Composition::Proportional,
        counts,
        promises: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn load(rel: &str) -> GameSpec {
        GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
    }

    fn coq() -> GameSpec {
        load("game_specs/coq.toml")
    }

    /// Each promise as (feature, way id, forced).
    fn shown(s: &GameSpec) -> Vec<(String, String, bool)> {
        promises(s)
            .into_iter()
            .map(|p| {
                (
                    s.game.feature_name(p.feature).to_string(),
                    s.ways[p.way as usize].id.clone(),
                    p.forced,
                )
            })
            .collect()
    }

    fn owned(v: &[(&str, &str, bool)]) -> Vec<(String, String, bool)> {
        v.iter()
            .map(|&(f, w, b)| (f.to_string(), w.to_string(), b))
            .collect()
    }

    #[test]
    fn default_deck_has_every_way_once_and_a_ticket_per_feature() {
        let s = coq();
        let d = every_way(&s, None).unwrap();
        let c = &d.counts;
        assert_eq!(c.len(), 11);
        // 30 losers + near_miss_jeu1 + near_miss_jeu2, each on a losing ticket of its own.
        assert_eq!(c[0], DEFAULT_LOSERS + 2);
        assert!(c[1..].iter().all(|&n| n == 1));
        assert_eq!(
            every_way(&s, Some(12)),
            Err(DeckError::TooSmall {
                needed: 13,
                ways: 10,
                features: 2,
                got: 12
            })
        );
        assert_eq!(
            every_way(&s, Some(12)).unwrap_err().to_string(),
            "a deck showing every way and every feature needs at least 13 tickets (10 ways, 2 tickets each asked to show a feature and 1 loser); got 12"
        );
        // Each count said in the singular when it is one, and no feature when none.
        let small = |ways, features| DeckError::TooSmall {
            needed: ways + features + 1,
            ways,
            features,
            got: 1,
        };
        assert_eq!(
            small(1, 1).to_string(),
            "a deck showing every way and every feature needs at least 3 tickets (1 way, 1 ticket asked to show a feature and 1 loser); got 1"
        );
        assert_eq!(
            small(4, 0).to_string(),
            "a deck showing every way and every feature needs at least 5 tickets (4 ways and 1 loser); got 1"
        );
        assert_eq!(every_way(&s, Some(13)).unwrap().counts[0], 3);
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
    fn every_game_promises_every_feature() {
        let expect_coq = owned(&[
            ("near_miss_jeu1", "lose", true),
            ("near_miss_jeu2", "lose", true),
        ]);
        assert_eq!(shown(&coq()), expect_coq);
        assert_eq!(shown(&load("tests/specs/coq_small.toml")), expect_coq);

        // The royal flush is the only combination of way "50000": no ticket added for it.
        let expect_poker = owned(&[
            ("paire", "30", true),
            ("brelan", "100", true),
            ("quinte", "1000", true),
            ("couleur", "1000", true),
            ("carre", "25+25+25+25", true),
            ("quinte_flush_royale", "50000", false),
            ("near_miss_flush", "lose", true),
            ("near_miss_straight", "lose", true),
        ]);
        for rel in ["game_specs/poker.toml", "tests/specs/poker_small.toml"] {
            let s = load(rel);
            assert_eq!(shown(&s), expect_poker, "{rel}");
            let d = every_way(&s, None).unwrap();
            assert_eq!(d.counts.iter().sum::<u32>(), 19 + 7 + DEFAULT_LOSERS);
            assert_eq!(d.counts[0], DEFAULT_LOSERS + 2);
            assert_eq!(d.counts[s.way_by_id("1000").unwrap() as usize], 3);
            assert_eq!(
                every_way(&s, Some(26)),
                Err(DeckError::TooSmall {
                    needed: 27,
                    ways: 19,
                    features: 7,
                    got: 26
                })
            );
        }

        let expect_pharaon = owned(&[
            ("near_miss_half", "lose", true),
            ("decoy_rebuilt", "lose", true),
            ("near_miss_pyramid", "lose", true),
            ("decoy_mask", "lose", true),
        ]);
        for rel in ["game_specs/pharaon.toml", "tests/specs/pharaon_small.toml"] {
            let s = load(rel);
            assert_eq!(shown(&s), expect_pharaon, "{rel}");
            let ways = s.ways.len() as u32 - 1;
            assert_eq!(
                every_way(&s, Some(ways + 4)),
                Err(DeckError::TooSmall {
                    needed: ways + 5,
                    ways,
                    features: 4,
                    got: ways + 4
                })
            );
        }
    }

    #[test]
    fn proportional_deck_follows_the_lot_table() {
        let s = coq();
        let d = proportional(&s, 1000).unwrap();
        assert_eq!(d.promises, None);
        let c = d.counts;
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
