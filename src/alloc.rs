//! Allocation: the exact multiset of ways placed at uniformly random positions in a block
//! (décret n°78-1067: "les lots sont répartis par la voie du sort" inside each block).
//!
//! The block starts as every way repeated exactly its count, in spec order (losers first),
//! then a Fisher–Yates shuffle on the block's allocation stream (ChaCha20, unbiased bounded
//! draws) makes every arrangement of that multiset equally likely.

use crate::rng::{shuffle, stream, Purpose, Seed};
use crate::spec::{GameSpec, PackRules, WayId};

/// The way of every ticket of `block`, indexed by position (0-based print order), for
/// `counts[w]` tickets of way `w`. Shape: `Vec` of `counts.iter().sum()` way ids.
pub fn allocate(counts: &[u32], seed: &Seed, block: u32) -> Vec<WayId> {
    let mut ways = Vec::with_capacity(counts.iter().map(|&c| c as usize).sum());
    for (id, &count) in counts.iter().enumerate() {
        ways.extend(std::iter::repeat_n(id as WayId, count as usize));
    }
    let mut rng = stream(seed, Purpose::Allocation, block, 0);
    shuffle(&mut rng, &mut ways);
    ways
}

/// Most arrangements drawn before allocation gives up on the pack constraints.
pub const MAX_ATTEMPTS: u32 = 1000;

/// Like [`allocate`], under pack constraints: arrangements are drawn one after the other
/// from the block's allocation stream (each a fresh Fisher–Yates shuffle) until one meets
/// `rules`. Rejection keeps every arrangement that meets them equally likely, and the counts
/// exact. Returns the ways by position and how many arrangements were drawn; `Err(n)` when
/// none of [`MAX_ATTEMPTS`] met them (the constraints are too tight for this table).
pub fn allocate_packs(
    spec: &GameSpec,
    counts: &[u32],
    rules: &PackRules,
    seed: &Seed,
    block: u32,
) -> Result<(Vec<WayId>, u32), u32> {
    let mut ways = Vec::with_capacity(counts.iter().map(|&c| c as usize).sum());
    for (id, &count) in counts.iter().enumerate() {
        ways.extend(std::iter::repeat_n(id as WayId, count as usize));
    }
    let mut rng = stream(seed, Purpose::Allocation, block, 0);
    for attempt in 1..=MAX_ATTEMPTS {
        shuffle(&mut rng, &mut ways);
        if rules.is_empty() {
            return Ok((ways, attempt));
        }
        let (w, f, full) = rules.tally(spec, &ways);
        if rules.breaches(&w, &f, &full).is_empty() {
            return Ok((ways, attempt));
        }
    }
    Err(MAX_ATTEMPTS)
}

/// Number of tickets of each way in `ways` (index = way id).
pub fn tally(ways: &[WayId], n_ways: usize) -> Vec<u64> {
    let mut t = vec![0u64; n_ways];
    for &w in ways {
        t[w as usize] += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Seed;
    use proptest::prelude::*;
    use std::path::Path;

    fn small() -> GameSpec {
        GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_small.toml"))
            .unwrap()
    }

    fn counts(s: &GameSpec) -> Vec<u32> {
        s.ways.iter().map(|w| w.count).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// The exact count of every way, whatever the seed and block.
        #[test]
        fn counts_are_exact(seed in any::<[u8; 32]>(), block in 1u32..999) {
            let s = small();
            let ways = allocate(&counts(&s), &Seed(seed), block);
            prop_assert_eq!(ways.len(), 3000);
            let t = tally(&ways, s.ways.len());
            for (i, w) in s.ways.iter().enumerate() {
                prop_assert_eq!(t[i], u64::from(w.count));
            }
        }
    }

    #[test]
    fn without_constraints_allocate_packs_is_allocate() {
        let s = small();
        let (ways, attempts) =
            allocate_packs(&s, &counts(&s), &PackRules::default(), &Seed([5; 32]), 1).unwrap();
        assert_eq!(attempts, 1);
        assert_eq!(ways, allocate(&counts(&s), &Seed([5; 32]), 1));
    }

    #[test]
    fn pack_constraints_are_met_with_exact_counts() {
        let s = small();
        // 20 packs of 150; about 46 winners each. At most one ticket of 200 or more per
        // pack (4 such tickets), and at least 40 winners in every pack.
        let rules = PackRules {
            min_winners: Some(40),
            max_from_tier: vec![(crate::money::Money::units(200), 1)],
        };
        for k in 0..20u8 {
            let (ways, attempts) =
                allocate_packs(&s, &counts(&s), &rules, &Seed([k; 32]), 1).unwrap();
            assert!(attempts >= 1);
            let (w, f, full) = rules.tally(&s, &ways);
            assert!(rules.breaches(&w, &f, &full).is_empty());
            assert!(w.iter().all(|&n| n >= 40), "{w:?}");
            assert!(f[0].iter().all(|&n| n <= 1));
            let t = tally(&ways, s.ways.len());
            for (i, way) in s.ways.iter().enumerate() {
                assert_eq!(t[i], u64::from(way.count));
            }
        }
    }

    #[test]
    fn impossible_constraints_give_up() {
        let s = small();
        // 919 lots in 20 packs: at least 46 in every pack is (just) possible in count but
        // essentially never drawn.
        let rules = PackRules {
            min_winners: Some(46),
            max_from_tier: vec![],
        };
        assert_eq!(
            allocate_packs(&s, &counts(&s), &rules, &Seed([1; 32]), 1),
            Err(MAX_ATTEMPTS)
        );
    }

    #[test]
    fn positions_differ_by_block_and_seed() {
        let s = small();
        let a = allocate(&counts(&s), &Seed([1; 32]), 1);
        assert_ne!(a, allocate(&counts(&s), &Seed([1; 32]), 2));
        assert_ne!(a, allocate(&counts(&s), &Seed([2; 32]), 1));
        assert_eq!(a, allocate(&counts(&s), &Seed([1; 32]), 1));
    }

    /// Each position is equally likely to hold the top prize: over 3 000 seeds, the top
    /// prize's position falls in each tenth of the block about 300 times (chi-square, 9
    /// degrees of freedom; 27.88 is the 0.1 % critical value).
    #[test]
    fn top_prize_position_is_uniform() {
        let s = small();
        let mut bins = [0f64; 10];
        for k in 0..3000u32 {
            let mut seed = [0u8; 32];
            seed[..4].copy_from_slice(&k.to_le_bytes());
            let ways = allocate(&counts(&s), &Seed(seed), 1);
            let pos = ways.iter().position(|&w| w == 1).unwrap();
            bins[pos * 10 / 3000] += 1.0;
        }
        let chi2: f64 = bins.iter().map(|&o| (o - 300.0).powi(2) / 300.0).sum();
        assert!(chi2 < 27.88, "chi2 {chi2}, bins {bins:?}");
    }
}
