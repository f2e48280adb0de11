//! Allocation: the exact multiset of ways placed at uniformly random positions in a block
//! (décret n°78-1067: "les lots sont répartis par la voie du sort" inside each block).
//!
//! The block starts as every way repeated exactly its count, in spec order (losers first),
//! then a Fisher–Yates shuffle on the block's allocation stream (ChaCha20, unbiased bounded
//! draws) makes every arrangement of that multiset equally likely.

use crate::rng::{shuffle, stream, Purpose, Seed};
use crate::spec::WayId;

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
    use crate::spec::GameSpec;
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
