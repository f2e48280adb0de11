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
