//! Allocation: the exact multiset of ways placed at uniformly random positions in a block
//! (décret n°78-1067: "les lots sont répartis par la voie du sort" inside each block).
//!
//! The block starts as every way repeated exactly its count, in spec order (losers first),
//! then a Fisher–Yates shuffle on the block's allocation stream (ChaCha20, unbiased bounded
//! draws) makes every arrangement of that multiset equally likely. Under pack constraints
//! ([`allocate_packs`], [`PackSampler`]), every arrangement that meets them is equally
//! likely: capped tickets and winners per pack from their exact law ([`crate::alloc::packcaps`],
//! [`crate::alloc::packlaw`]), then the ways and the orders within packs (docs/FORMAT.md, "Pack
//! constraints").

pub mod packcaps;
pub mod packlaw;
pub mod stats;

use crate::alloc::packcaps::{BandCap, CapLaw};
use crate::alloc::packlaw::{draw_subset, PackOrders, WinnerLaw};
use crate::crypto::rng::{shuffle, stream, Purpose, Seed};
use crate::money::Money;
use crate::spec::{GameSpec, PackConstraint, PackRules, WayId};
use rand_core::RngCore;

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

/// Most proposals drawn before allocation gives up on the constraints met by rejection
/// (`min_payout`; the caps when they cannot be tabulated).
pub const MAX_ROUNDS: u32 = 1000;

/// Most tries of the winners per pack (and capped tickets) for one proposal.
pub const MAX_TRIES: u32 = 1_000_000;

/// Why allocation cannot meet the pack constraints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    /// No arrangement of this lot table meets the constraints on winners per pack.
    #[error("{field}: no arrangement of the lot table's {winners} winning tickets meets it")]
    Impossible {
        /// The constraint (`packs.min_winners` or `packs.max_losers_in_a_row`).
        field: String,
        /// Winning tickets in the block.
        winners: u64,
    },
    /// The winners per pack drew no kept try (never seen with a sane table).
    #[error("the winners per pack were not drawn in {0} tries")]
    Tries(u32),
    /// Every proposal broke a constraint met by rejection.
    #[error("the pack constraints were not met by any of {rounds} proposals; {field} ({what}) broke {breaks} of them: it is too tight for this lot table")]
    NotMet {
        /// Proposals drawn.
        rounds: u32,
        /// The constraint broken most often.
        field: String,
        /// It, in words.
        what: String,
        /// Proposals it broke.
        breaks: u32,
    },
}

/// The pack-constrained allocation of one block (see docs/FORMAT.md, "Pack constraints"):
/// a proposal is each pack's capped tickets per band ([`CapLaw`], when there are caps and
/// their table is small) and winners ([`WinnerLaw`]), drawn from their exact law under the
/// caps, `min_winners` and `max_losers_in_a_row`, then the winning ways dealt to the slots;
/// a proposal that breaks `min_payout` (or a cap, when the caps could not be tabulated) is
/// dropped; a kept one gets each pack's order, uniform among the allowed ones.
pub struct PackSampler<'a> {
    spec: &'a GameSpec,
    rules: &'a PackRules,
    law: WinnerLaw,
    full: PackOrders,
    short: Option<PackOrders>,
    /// Every winning way, `counts[w]` times each, in way order.
    winners: Vec<WayId>,
    /// Tickets in the block.
    tickets: usize,
    /// With caps: their law (packcaps) and the winning ways of each band (band 0 first).
    caps: Option<(CapLaw, Vec<Vec<WayId>>)>,
}

/// One proposal: winners per pack, winning ways in slot order.
#[derive(Clone, Debug, Default)]
pub struct Proposal {
    /// Winners in each pack, in pack order.
    pub per_pack: Vec<u32>,
    /// Winning ways: pack 1's, then pack 2's, …
    pub ways: Vec<WayId>,
    /// Tries of the winner law it took.
    pub tries: u32,
    /// With caps by construction: each pack's capped tickets per band, pack after pack.
    pub capped: Vec<u32>,
}

impl<'a> PackSampler<'a> {
    /// The sampler for a block of `counts[w]` tickets of way `w` under `rules`.
    /// Errors: no vector of winners per pack meets `min_winners` and `max_losers_in_a_row`.
    pub fn new(
        spec: &'a GameSpec,
        counts: &[u32],
        rules: &'a PackRules,
    ) -> Result<PackSampler<'a>, PackError> {
        let tickets: usize = counts.iter().map(|&c| c as usize).sum();
        let ps = spec.pack_size;
        let full_packs = (tickets / ps as usize) as u32;
        let short_size = (tickets % ps as usize) as u32;
        let mut winners = Vec::new();
        for (id, &count) in counts.iter().enumerate().skip(1) {
            winners.extend(std::iter::repeat_n(id as WayId, count as usize));
        }
        let k = winners.len() as u64;
        let runs = rules.max_losers_in_a_row;
        let field = if rules.max_losers_in_a_row.is_some() {
            "packs.max_losers_in_a_row"
        } else {
            "packs.min_winners"
        };
        let impossible = || PackError::Impossible {
            field: field.into(),
            winners: k,
        };
        let full =
            PackOrders::new(ps, rules.min_winners.unwrap_or(0), runs).ok_or_else(impossible)?;
        let short = match short_size {
            0 => None,
            s => Some(PackOrders::new(s, 0, runs).ok_or_else(impossible)?),
        };
        // The caps' bands: amounts capped, ascending; band j holds the winning ways from
        // the j-th to the next (band 0: below them all).
        let mut cuts: Vec<Money> = rules
            .max_from_tier
            .iter()
            .chain(&rules.max_per_carton)
            .map(|&(m, _)| m)
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let band = |m: Money| cuts.iter().filter(|&&c| c <= m).count();
        let cap = |&(m, count): &(Money, u32)| BandCap {
            from: band(m),
            count,
        };
        let pack_caps: Vec<BandCap> = rules.max_from_tier.iter().map(cap).collect();
        let carton_caps: Vec<BandCap> = rules.max_per_carton.iter().map(cap).collect();
        let mut by_band = vec![Vec::new(); cuts.len() + 1];
        for &w in &winners {
            by_band[band(spec.ways[w as usize].amount)].push(w);
        }
        let kmax = pack_caps
            .iter()
            .chain(&carton_caps)
            .filter(|c| c.from == 1)
            .map(|c| c.count)
            .min()
            .unwrap_or(0)
            .min(ps);
        let law =
            WinnerLaw::new(full_packs, &full, short.as_ref(), k, kmax).ok_or_else(impossible)?;
        let caps = if cuts.is_empty() {
            None
        } else {
            let packs = full_packs as usize + usize::from(short.is_some());
            let mut kinds = vec![0usize; packs];
            kinds[full_packs as usize - 1] = 1;
            if short.is_some() {
                kinds[packs - 1] = 2;
            }
            let totals: Vec<u32> = by_band[1..].iter().map(|b| b.len() as u32).collect();
            CapLaw::new(
                &totals,
                &pack_caps,
                &carton_caps,
                rules.carton_size.unwrap_or(1) as usize,
                kinds,
                law.cap_factors.to_vec(),
            )
            .map(|c| (c, by_band))
        };
        Ok(PackSampler {
            spec,
            rules,
            law,
            full,
            short,
            winners,
            tickets,
            caps,
        })
    }

    /// True when the caps are met by construction (their law is small enough to tabulate);
    /// false when they are met by rejection, or there are none.
    pub fn caps_by_construction(&self) -> bool {
        self.caps.is_some()
    }

    /// The winner law (for reports).
    pub fn law(&self) -> &WinnerLaw {
        &self.law
    }

    /// The orders of a full pack.
    pub fn full_orders(&self) -> &PackOrders {
        &self.full
    }

    /// Draws a proposal into `p`: its counts ([`Self::draw_counts`]), then its ways
    /// ([`Self::deal`]).
    pub fn propose<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        p: &mut Proposal,
    ) -> Result<(), PackError> {
        self.draw_counts(rng, p)?;
        self.deal(rng, p);
        Ok(())
    }

    /// Draws the winners of every pack (and with caps by construction, first its capped
    /// tickets per band) from their exact law.
    pub fn draw_counts<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        p: &mut Proposal,
    ) -> Result<(), PackError> {
        let Some((caps, _)) = &self.caps else {
            p.tries = self
                .law
                .draw(rng, MAX_TRIES, &mut p.per_pack)
                .map_err(PackError::Tries)?;
            return Ok(());
        };
        // Capped tickets per pack, then the winners per pack given them; a rejected try
        // starts again from the capped tickets (their law accounts for the tries).
        let mut ks = Vec::new();
        p.tries = 0;
        loop {
            p.tries += 1;
            if p.tries > MAX_TRIES {
                return Err(PackError::Tries(MAX_TRIES));
            }
            caps.draw(rng, &mut p.capped, &mut ks);
            if self.law.try_draw(rng, &ks, &mut p.per_pack) {
                return Ok(());
            }
        }
    }

    /// Deals the winning ways to the slots of `p`'s counts: a uniform shuffle of them all,
    /// or with caps by construction each band's ways shuffled and dealt to the slots of
    /// that band, each pack's slots labelled by band in a uniform order.
    pub fn deal<R: RngCore + ?Sized>(&self, rng: &mut R, p: &mut Proposal) {
        let Some((caps, by_band)) = &self.caps else {
            p.ways.clear();
            p.ways.extend_from_slice(&self.winners);
            shuffle(rng, &mut p.ways);
            return;
        };
        let mut bands = by_band.clone();
        for b in &mut bands {
            shuffle(rng, b);
        }
        let mut next = vec![0usize; bands.len()];
        let l = caps.bands();
        let mut labels = Vec::new();
        p.ways.clear();
        for (i, &c) in p.per_pack.iter().enumerate() {
            labels.clear();
            for (j, &x) in p.capped[i * l..(i + 1) * l].iter().enumerate() {
                labels.extend(std::iter::repeat_n(j + 1, x as usize));
            }
            labels.resize(c as usize, 0);
            shuffle(rng, &mut labels);
            for &j in &labels {
                p.ways.push(bands[j][next[j]]);
                next[j] += 1;
            }
        }
    }

    /// The constraints met by rejection that `p` breaks, each once, in spec order.
    pub fn broken(&self, p: &Proposal) -> Vec<PackConstraint> {
        let r = self.rules;
        let ways = &self.spec.ways;
        let cs = r.carton_size.unwrap_or(1).max(1) as usize;
        let packs = p.per_pack.len();
        let mut broken = vec![false; 1 + r.max_from_tier.len() + r.max_per_carton.len()];
        let mut carton = vec![0u32; r.max_per_carton.len()];
        let mut from = vec![0u32; r.max_from_tier.len()];
        let mut off = 0usize;
        for (i, &c) in p.per_pack.iter().enumerate() {
            let slots = &p.ways[off..off + c as usize];
            off += c as usize;
            let full = (i + 1) * self.spec.pack_size as usize <= self.tickets;
            from.iter_mut().for_each(|x| *x = 0);
            let mut payout = 0u64;
            for &w in slots {
                let a = ways[w as usize].amount;
                payout += a.cents();
                for (k, (m, _)) in r.max_from_tier.iter().enumerate() {
                    from[k] += u32::from(a >= *m);
                }
                for (k, (m, _)) in r.max_per_carton.iter().enumerate() {
                    carton[k] += u32::from(a >= *m);
                }
            }
            if let Some(m) = r.min_payout {
                broken[0] |= full && payout < m.cents();
            }
            for (k, &(_, cap)) in r.max_from_tier.iter().enumerate() {
                broken[1 + k] |= from[k] > cap;
            }
            if (i + 1) % cs == 0 || i + 1 == packs {
                for (k, &(_, cap)) in r.max_per_carton.iter().enumerate() {
                    broken[1 + r.max_from_tier.len() + k] |= carton[k] > cap;
                    carton[k] = 0;
                }
            }
        }
        let mut out = Vec::new();
        if broken[0] {
            out.push(PackConstraint::MinPayout);
        }
        for k in 0..r.max_from_tier.len() {
            if broken[1 + k] {
                out.push(PackConstraint::MaxFromTier(k));
            }
        }
        for k in 0..r.max_per_carton.len() {
            if broken[1 + r.max_from_tier.len() + k] {
                out.push(PackConstraint::MaxPerCarton(k));
            }
        }
        out
    }

    /// The block of a kept proposal: each pack's winners at positions drawn uniformly among
    /// the allowed orders, in slot order; every other ticket loses (way 0).
    pub fn place<R: RngCore + ?Sized>(&self, rng: &mut R, p: &Proposal) -> Vec<WayId> {
        let ps = self.spec.pack_size as usize;
        let mut out = vec![0 as WayId; self.tickets];
        let (mut scratch, mut pos) = (Vec::new(), Vec::new());
        let mut off = 0usize;
        for (i, &c) in p.per_pack.iter().enumerate() {
            let size = ps.min(self.tickets - i * ps) as u32;
            let orders = if size as usize == ps {
                &self.full
            } else {
                self.short.as_ref().expect("a short pack has its orders")
            };
            match &orders.runs {
                Some(r) => r.draw(rng, c, &mut pos),
                None => draw_subset(rng, size, c, &mut scratch, &mut pos),
            }
            for (j, &q) in pos.iter().enumerate() {
                out[i * ps + q as usize] = p.ways[off + j];
            }
            off += c as usize;
        }
        out
    }
}

/// Like [`allocate`], under pack constraints (see [`PackSampler`]); without any, exactly
/// [`allocate`]. Every arrangement that meets `rules` is equally likely and the counts are
/// exact. Returns the ways by position and how many proposals were drawn (1 without
/// constraints). Errors: [`PackError`].
pub fn allocate_packs(
    spec: &GameSpec,
    counts: &[u32],
    rules: &PackRules,
    seed: &Seed,
    block: u32,
) -> Result<(Vec<WayId>, u32), PackError> {
    if rules.is_empty() {
        return Ok((allocate(counts, seed, block), 1));
    }
    let sampler = PackSampler::new(spec, counts, rules)?;
    let mut rng = stream(seed, Purpose::Allocation, block, 0);
    let mut p = Proposal::default();
    let mut breaks: Vec<(PackConstraint, u32)> = Vec::new();
    for round in 1..=MAX_ROUNDS {
        sampler.propose(&mut rng, &mut p)?;
        let broken = sampler.broken(&p);
        if broken.is_empty() {
            return Ok((sampler.place(&mut rng, &p), round));
        }
        for c in broken {
            match breaks.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => breaks.push((c, 1)),
            }
        }
    }
    let (c, n) = breaks
        .iter()
        .copied()
        .max_by_key(|&(c, n)| (n, std::cmp::Reverse(c)))
        .expect("a dropped proposal broke a constraint");
    Err(PackError::NotMet {
        rounds: MAX_ROUNDS,
        field: c.field(),
        what: rules.describe_one(c),
        breaks: n,
    })
}

/// What the pack law does, estimated by drawing proposals as [`allocate_packs`] does
/// (from a fixed stream: the same figures every run), for `tirage check`.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Proposals drawn: `draws` winner vectors × `shuffles` ways each.
    pub proposals: u32,
    /// Proposals that met every constraint.
    pub kept: u32,
    /// Per constraint met by rejection, the proposals it broke (spec order).
    pub breaks: Vec<(PackConstraint, u32)>,
    /// True when the caps are met by construction (see [`PackSampler::caps_by_construction`]).
    pub caps_by_construction: bool,
    /// Winners per full pack over the drawn winner vectors: mean, standard deviation,
    /// fewest and most.
    pub winners: (f64, f64, u32, u32),
    /// Mean tries of the winner law per winner vector.
    pub tries: f64,
    /// `after_losses[i]`: the chance a full pack's ticket `i + 1` wins once its first `i`
    /// lost, under the constraints ([`crate::alloc::packlaw::after_losses`]; caps and
    /// `min_payout` aside).
    pub after_losses: Vec<f64>,
}

/// Estimates the pack law of a block of `counts[w]` tickets of way `w` under `rules`:
/// `draws` winner vectors, each with `shuffles` shuffles of the ways. Errors: as
/// [`PackSampler::new`] and [`PackSampler::propose`].
pub fn estimate(
    spec: &GameSpec,
    counts: &[u32],
    rules: &PackRules,
    draws: u32,
    shuffles: u32,
) -> Result<Estimate, PackError> {
    let sampler = PackSampler::new(spec, counts, rules)?;
    let mut rng = stream(&Seed([0; 32]), Purpose::Allocation, 0, 0);
    let mut p = Proposal::default();
    let mut breaks: Vec<(PackConstraint, u32)> = rules
        .constraints()
        .into_iter()
        .filter(|c| match c {
            PackConstraint::MinPayout => true,
            PackConstraint::MaxFromTier(_) | PackConstraint::MaxPerCarton(_) => {
                !sampler.caps_by_construction()
            }
            _ => false,
        })
        .map(|c| (c, 0))
        .collect();
    let (mut kept, mut tries) = (0u32, 0u64);
    let (mut n, mut sum, mut sq, mut lo, mut hi) = (0u64, 0f64, 0f64, u32::MAX, 0u32);
    let full = sampler.law.full_packs as usize;
    for _ in 0..draws {
        sampler.draw_counts(&mut rng, &mut p)?;
        tries += u64::from(p.tries);
        for &c in &p.per_pack[..full] {
            n += 1;
            sum += f64::from(c);
            sq += f64::from(c) * f64::from(c);
            lo = lo.min(c);
            hi = hi.max(c);
        }
        for _ in 0..shuffles {
            sampler.deal(&mut rng, &mut p);
            let broken = sampler.broken(&p);
            kept += u32::from(broken.is_empty());
            for c in broken {
                if let Some(b) = breaks.iter_mut().find(|(x, _)| *x == c) {
                    b.1 += 1;
                }
            }
        }
    }
    let mean = sum / n.max(1) as f64;
    Ok(Estimate {
        proposals: draws * shuffles,
        kept,
        breaks,
        caps_by_construction: sampler.caps_by_construction(),
        winners: (
            mean,
            (sq / n.max(1) as f64 - mean * mean).max(0.0).sqrt(),
            lo,
            hi,
        ),
        tries: tries as f64 / f64::from(draws.max(1)),
        after_losses: crate::alloc::packlaw::after_losses(
            &sampler.law.full_pack_pmf(spec.pack_size),
            spec.pack_size,
            sampler.full.runs.as_ref(),
        ),
    })
}

/// Number of tickets of each way in `ways` (index = way id): `n_ways` counts. Panics if a
/// way id is not below `n_ways`.
///
/// Four tallies take the tickets in turn and are added at the end: a run of one way (most
/// tickets lose) then does not wait for each count to be stored before the next.
pub fn tally(ways: &[WayId], n_ways: usize) -> Vec<u64> {
    let mut t = [
        vec![0u64; n_ways],
        vec![0u64; n_ways],
        vec![0u64; n_ways],
        vec![0u64; n_ways],
    ];
    let quads = ways.chunks_exact(4);
    for &w in quads.remainder() {
        t[0][w as usize] += 1;
    }
    for q in quads {
        for (lane, &w) in t.iter_mut().zip(q) {
            lane[w as usize] += 1;
        }
    }
    (0..n_ways)
        .map(|w| t.iter().map(|lane| lane[w]).sum())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::rng::Seed;
    use crate::money::Money;
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

    /// Every length leaves its own remainder to the four tallies: each count is exact.
    #[test]
    fn tally_counts_every_way_whatever_the_length() {
        let ways: Vec<WayId> = vec![0, 2, 0, 0, 1, 2, 0, 3, 0, 0, 2];
        let expected: [[u64; 4]; 12] = [
            [0, 0, 0, 0],
            [1, 0, 0, 0],
            [1, 0, 1, 0],
            [2, 0, 1, 0],
            [3, 0, 1, 0],
            [3, 1, 1, 0],
            [3, 1, 2, 0],
            [4, 1, 2, 0],
            [4, 1, 2, 1],
            [5, 1, 2, 1],
            [6, 1, 2, 1],
            [6, 1, 3, 1],
        ];
        for (len, want) in expected.iter().enumerate() {
            assert_eq!(
                tally(&ways[..len], 4),
                want.to_vec(),
                "the first {len} ways"
            );
        }
        assert_eq!(tally(&ways, 6), vec![6, 1, 3, 1, 0, 0]);
    }

    #[test]
    fn without_constraints_allocate_packs_is_allocate() {
        let s = small();
        let (ways, attempts) =
            allocate_packs(&s, &counts(&s), &PackRules::default(), &Seed([5; 32]), 1).unwrap();
        assert_eq!(attempts, 1);
        assert_eq!(ways, allocate(&counts(&s), &Seed([5; 32]), 1));
    }

    fn seed_of(k: u32) -> Seed {
        let mut seed = [0u8; 32];
        seed[..4].copy_from_slice(&k.to_le_bytes());
        Seed(seed)
    }

    #[test]
    fn pack_constraints_are_met_with_exact_counts() {
        let s = small();
        // 20 packs of 150; about 46 winners each. At least 44 winners in every pack (919
        // lots: 880 are bound), at most one ticket of 200 or more per pack (4 such
        // tickets), cartons of 5 packs with at most one of 1000 or more (2 such), at most
        // 12 losers in a row, every pack paying at least 150.
        let rules = PackRules {
            min_winners: Some(44),
            min_payout: Some(Money::units(150)),
            max_from_tier: vec![(Money::units(200), 1)],
            carton_size: Some(5),
            max_per_carton: vec![(Money::units(1000), 1)],
            max_losers_in_a_row: Some(12),
        };
        for k in 0..10 {
            let (ways, rounds) = allocate_packs(&s, &counts(&s), &rules, &seed_of(k), 1).unwrap();
            assert!(rounds >= 1);
            assert_eq!(rules.breaches(&s, &ways), vec![]);
            let t = tally(&ways, s.ways.len());
            for (i, way) in s.ways.iter().enumerate() {
                assert_eq!(t[i], u64::from(way.count));
            }
        }
    }

    #[test]
    fn impossible_constraints_are_named() {
        let s = small();
        // 919 lots in 20 packs: 46 in every pack would need 920.
        let rules = PackRules {
            min_winners: Some(46),
            ..PackRules::default()
        };
        assert_eq!(
            allocate_packs(&s, &counts(&s), &rules, &Seed([1; 32]), 1),
            Err(PackError::Impossible {
                field: "packs.min_winners".into(),
                winners: 919
            })
        );
        // 45 in every pack is tight (900 of the 919 lots bound) but met by construction.
        let rules = PackRules {
            min_winners: Some(45),
            ..PackRules::default()
        };
        let (ways, rounds) = allocate_packs(&s, &counts(&s), &rules, &Seed([1; 32]), 1).unwrap();
        assert_eq!((rules.breaches(&s, &ways), rounds), (vec![], 1));
        // A pack payout no proposal reaches: named, with how often it broke.
        let rules = PackRules {
            min_payout: Some(Money::units(1000)),
            ..PackRules::default()
        };
        assert_eq!(
            allocate_packs(&s, &counts(&s), &rules, &Seed([1; 32]), 1),
            Err(PackError::NotMet {
                rounds: MAX_ROUNDS,
                field: "packs.min_payout".into(),
                what: "every full pack pays at least 1000".into(),
                breaks: MAX_ROUNDS
            })
        );
    }

    /// Every distinct arrangement of the multiset `items`, in lexicographic order.
    fn arrangements(items: &mut [WayId]) -> Vec<Vec<WayId>> {
        items.sort_unstable();
        let mut out = vec![items.to_vec()];
        loop {
            // Next permutation (lexicographic), or stop.
            let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
                return out;
            };
            let j = (i..items.len())
                .rev()
                .find(|&j| items[j] > items[i - 1])
                .unwrap();
            items.swap(i - 1, j);
            items[i..].reverse();
            out.push(items.to_vec());
        }
    }

    /// The tiny block (9 tickets, 3 packs of 3: 1 × 20000, 1 × 1000, 2 × 4, 1 × 2 and 4
    /// losers, 7 560 arrangements): under `rules`, each of the arrangements that meet them
    /// (found by enumeration, judged by [`PackRules::breaches`], the verify side) comes
    /// about equally often over 10 draws per arrangement from seeds 0, 1, 2, …, and no
    /// other: chi-square against the uniform law on them, p > 0.001; and pooled by pack
    /// profile, the same. Returns how many meet the rules. Deterministic: the seeds are
    /// fixed.
    fn uniform_over_valid(rules: &PackRules) -> usize {
        let s = GameSpec::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_tiny.toml"),
        )
        .unwrap();
        let c = counts(&s);
        let mut items: Vec<WayId> = c
            .iter()
            .enumerate()
            .flat_map(|(w, &n)| std::iter::repeat_n(w as WayId, n as usize))
            .collect();
        let all = arrangements(&mut items);
        assert_eq!(all.len(), 7560);
        let valid: Vec<Vec<WayId>> = all
            .into_iter()
            .filter(|a| rules.breaches(&s, a).is_empty())
            .collect();
        let index: std::collections::HashMap<&[WayId], usize> = valid
            .iter()
            .enumerate()
            .map(|(i, a)| (a.as_slice(), i))
            .collect();
        let draws = 10 * valid.len() as u32;
        let mut seen = vec![0u64; valid.len()];
        for k in 0..draws {
            let (ways, _) = allocate_packs(&s, &c, rules, &seed_of(k), 1).unwrap();
            let i = index
                .get(ways.as_slice())
                .unwrap_or_else(|| panic!("seed {k}: {ways:?} breaks the rules"));
            seen[*i] += 1;
        }
        let e = f64::from(draws) / valid.len() as f64;
        let chi2: f64 = seen.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
        let p = crate::alloc::stats::chi2_sf(chi2, (valid.len() - 1) as f64);
        assert!(p > 0.001, "chi2 {chi2} on {} df, p = {p}", valid.len() - 1);
        // The same draws, pooled by profile (winners and tickets of 1000 or more in each
        // pack): few cells, many draws each, so a law off by a few per cent shows.
        let profile = |a: &[WayId]| -> Vec<(u32, u32)> {
            a.chunks(3)
                .map(|p| {
                    let amount = |&w: &WayId| s.ways[w as usize].amount;
                    (
                        p.iter().filter(|&&w| w != 0).count() as u32,
                        p.iter().filter(|w| amount(w) >= Money::units(1000)).count() as u32,
                    )
                })
                .collect()
        };
        let mut cells: std::collections::BTreeMap<Vec<(u32, u32)>, (f64, f64)> = Default::default();
        for (a, &o) in valid.iter().zip(&seen) {
            let c = cells.entry(profile(a)).or_default();
            c.0 += o as f64;
            c.1 += e;
        }
        let chi2: f64 = cells.values().map(|(o, e)| (o - e).powi(2) / e).sum();
        let df = (cells.len() - 1) as f64;
        let p = crate::alloc::stats::chi2_sf(chi2, df);
        assert!(p > 0.001, "profiles: chi2 {chi2} on {df} df, p = {p}");
        valid.len()
    }

    #[test]
    fn min_winners_law_is_uniform() {
        let rules = PackRules {
            min_winners: Some(1),
            ..PackRules::default()
        };
        // 7 560 less the 3 × 360 with a pack of three losers.
        assert_eq!(uniform_over_valid(&rules), 6480);
    }

    #[test]
    fn max_losers_in_a_row_law_is_uniform() {
        let rules = PackRules {
            max_losers_in_a_row: Some(1),
            ..PackRules::default()
        };
        assert_eq!(uniform_over_valid(&rules), 1800);
    }

    #[test]
    fn max_from_tier_law_is_uniform() {
        let rules = PackRules {
            max_from_tier: vec![(Money::units(1000), 1)],
            ..PackRules::default()
        };
        // The two tickets of 1000 or more in different packs: 9 × 6 × 105.
        assert_eq!(uniform_over_valid(&rules), 5670);
    }

    #[test]
    fn max_per_carton_law_is_uniform() {
        let rules = PackRules {
            carton_size: Some(2),
            max_per_carton: vec![(Money::units(1000), 1)],
            ..PackRules::default()
        };
        // One of the two tickets of 1000 or more in pack 3 (3 places), the other in packs
        // 1–2 (6), either way round, the other 7 tickets anywhere: 2 × 3 × 6 × 105.
        assert_eq!(uniform_over_valid(&rules), 3780);
    }

    #[test]
    fn min_payout_law_is_uniform() {
        let rules = PackRules {
            min_payout: Some(Money::units(4)),
            ..PackRules::default()
        };
        assert_eq!(uniform_over_valid(&rules), 4860);
    }

    #[test]
    fn all_constraints_together_law_is_uniform() {
        let rules = PackRules {
            min_winners: Some(1),
            min_payout: Some(Money::units(4)),
            max_from_tier: vec![(Money::units(1000), 1)],
            carton_size: Some(2),
            max_per_carton: vec![(Money::units(20000), 1)],
            max_losers_in_a_row: Some(1),
        };
        assert_eq!(uniform_over_valid(&rules), 1170);
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
