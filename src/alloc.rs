//! Allocation: the exact multiset of ways placed at uniformly random positions in a block
//! (décret n°78-1067: "les lots sont répartis par la voie du sort" inside each block).
//!
//! The block starts as every way repeated exactly its count, in spec order (losers first),
//! then a Fisher–Yates shuffle on the block's allocation stream (ChaCha20, unbiased bounded
//! draws) makes every arrangement of that multiset equally likely.

use crate::rng::{shuffle, stream, Purpose, Seed};
use crate::spec::{GameSpec, WayId};

/// The way of every ticket of `block`, indexed by position (0-based print order).
/// Shape: `Vec` of `spec.block_size` way ids; way 0 is the losing way.
pub fn allocate(spec: &GameSpec, seed: &Seed, block: u32) -> Vec<WayId> {
    let mut ways = Vec::with_capacity(spec.block_size as usize);
    for (id, way) in spec.ways.iter().enumerate() {
        ways.extend(std::iter::repeat_n(id as WayId, way.count as usize));
    }
    debug_assert_eq!(ways.len(), spec.block_size as usize);
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
    use proptest::prelude::*;
    use std::path::Path;

    fn small() -> GameSpec {
        GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_small.toml"))
            .unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// The exact count of every way, whatever the seed and block.
        #[test]
        fn counts_are_exact(seed in any::<[u8; 32]>(), block in 1u32..999) {
            let s = small();
            let ways = allocate(&s, &Seed(seed), block);
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
        let a = allocate(&s, &Seed([1; 32]), 1);
        assert_ne!(a, allocate(&s, &Seed([1; 32]), 2));
        assert_ne!(a, allocate(&s, &Seed([2; 32]), 1));
        assert_eq!(a, allocate(&s, &Seed([1; 32]), 1));
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
            let ways = allocate(&s, &Seed(seed), 1);
            let pos = ways.iter().position(|&w| w == 1).unwrap();
            bins[pos * 10 / 3000] += 1.0;
        }
        let chi2: f64 = bins.iter().map(|&o| (o - 300.0).powi(2) / 300.0).sum();
        assert!(chi2 < 27.88, "chi2 {chi2}, bins {bins:?}");
    }
}
