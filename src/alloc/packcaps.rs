//! Capped tickets per pack, by construction: how many tickets of each capped band every
//! pack holds, drawn from their exact law under `max_from_tier` and `max_per_carton`.
//!
//! The caps' amounts cut the winning tiers into *bands*: band 0 below the lowest capped
//! amount, band j from the j-th capped amount (ascending) to the next. A pack's capped
//! tickets are its vector h of tickets per band 1..=L. Uniform over arrangements, the packs'
//! winners c and capped vectors h have law ∝ Πₚ w(cₚ) C(cₚ, |hₚ|) M(hₚ) (M the multinomial
//! |h|! / Π hʲ!: which of a pack's winner slots hold which band), on the vectors meeting the
//! caps and the totals. [`CapLaw`] draws h first, from its law with the winner counts summed
//! out, in the form the winner law's tries need (docs/FORMAT.md, "Pack constraints"):
//! ∝ Πₚ φₚ(hₚ), φₚ(h) = M(h) aₚ(|h|), by a backward pass over the packs (the weight of every
//! way to finish the block from each state: remaining tickets per band, capped tickets in
//! the current carton) and a forward draw. It is used only when that table is small
//! ([`MAX_CELLS`]); otherwise the caps are met by rejection.

use crate::alloc::packlaw::{below_u64, TOP};
use rand_core::RngCore;

/// Largest backward table (packs × states) [`CapLaw::new`] builds.
pub const MAX_CELLS: usize = 20_000_000;

/// Largest number of choices × states × packs [`CapLaw::new`] spends on the table.
pub const MAX_WORK: usize = 200_000_000;

/// A cap on a sum of bands: tickets of band `from` or above, at most `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandCap {
    /// First band counted (1-based band index).
    pub from: usize,
    /// Most tickets.
    pub count: u32,
}

/// The law of the capped tickets per pack; see the module documentation.
#[derive(Clone, Debug)]
pub struct CapLaw {
    bands: usize,
    /// Every allowed h of a pack (per-pack caps met), `bands` entries each.
    choices: Vec<Vec<u32>>,
    /// Per choice: |h|, M(h), and per carton cap the tickets it counts.
    size: Vec<u32>,
    multinomial: Vec<f64>,
    carton_counts: Vec<Vec<u32>>,
    carton_caps: Vec<u32>,
    carton_size: usize,
    /// State radices: remaining tickets per band (H_j + 1), then per carton cap (count + 1).
    radix: Vec<usize>,
    states: usize,
    packs: usize,
    /// `a(k)` per pack: `kinds[p]` indexes `a`.
    kinds: Vec<usize>,
    a: Vec<Vec<f64>>,
    /// Backward weights of each state before pack `p` (0..=packs), state-major; each
    /// pack's weights scaled to a largest 1.
    v: Vec<f64>,
    totals: Vec<u32>,
    /// `trans[(ends × states + state) × choices + c]`: the state after a pack takes
    /// choice `c` in `state` (`ends`: the pack ends its carton), or `u32::MAX`.
    trans: Vec<u32>,
    /// `phi[kind][c]`: φ of choice `c` for a pack of that kind.
    phi: Vec<Vec<f64>>,
}

impl CapLaw {
    /// The law for `totals[j]` tickets of band `j + 1`, per-pack caps `pack_caps`, carton
    /// caps `carton_caps` over cartons of `carton_size` packs; pack `p` of kind `kinds[p]`
    /// weighs `a[kind][k]` for `k` capped tickets (0 where it cannot hold them). `None`
    /// when the table would be too large, or no arrangement meets the caps.
    pub fn new(
        totals: &[u32],
        pack_caps: &[BandCap],
        carton_caps: &[BandCap],
        carton_size: usize,
        kinds: Vec<usize>,
        a: Vec<Vec<f64>>,
    ) -> Option<CapLaw> {
        let bands = totals.len();
        let packs = kinds.len();
        let kmax = a
            .iter()
            .map(|v| v.len())
            .max()
            .unwrap_or(1)
            .saturating_sub(1) as u32;
        // Every choice within the per-pack caps, the carton caps and the largest pack.
        let bound = |h: &[u32]| {
            let over = |c: &BandCap| h[c.from - 1..].iter().sum::<u32>() > c.count;
            h.iter().sum::<u32>() <= kmax
                && !pack_caps.iter().any(over)
                && !carton_caps.iter().any(over)
                && h.iter().zip(totals).all(|(x, t)| x <= t)
        };
        let mut choices = vec![vec![0u32; bands]];
        for j in 0..bands {
            let mut more = Vec::new();
            for c in &choices {
                let mut h = c.clone();
                loop {
                    h[j] += 1;
                    if !bound(&h) {
                        break;
                    }
                    more.push(h.clone());
                }
            }
            choices.extend(more);
        }
        let mut radix: Vec<usize> = totals.iter().map(|&t| t as usize + 1).collect();
        radix.extend(carton_caps.iter().map(|c| c.count as usize + 1));
        let states = radix
            .iter()
            .try_fold(1usize, |s, &r| s.checked_mul(r))
            .filter(|&s| s.checked_mul(packs + 1).is_some_and(|c| c <= MAX_CELLS))?;
        if states.saturating_mul(packs).saturating_mul(choices.len()) > MAX_WORK {
            return None;
        }
        let size: Vec<u32> = choices.iter().map(|h| h.iter().sum()).collect();
        let multinomial = choices
            .iter()
            .map(|h| {
                let mut m = 1.0f64;
                let mut n = 0u32;
                for &x in h {
                    for i in 1..=x {
                        n += 1;
                        m = m * f64::from(n) / f64::from(i);
                    }
                }
                m
            })
            .collect();
        let carton_counts = choices
            .iter()
            .map(|h| {
                carton_caps
                    .iter()
                    .map(|c| h[c.from - 1..].iter().sum())
                    .collect()
            })
            .collect();
        let mut law = CapLaw {
            bands,
            choices,
            size,
            multinomial,
            carton_counts,
            carton_caps: carton_caps.iter().map(|c| c.count).collect(),
            carton_size: carton_size.max(1),
            radix,
            states,
            packs,
            kinds,
            a,
            v: vec![0.0; states * (packs + 1)],
            totals: totals.to_vec(),
            trans: Vec::new(),
            phi: Vec::new(),
        };
        law.tabulate();
        law.backward();
        let start = law.start();
        (law.v[start * (packs + 1)] > 0.0).then_some(law)
    }

    /// The state index of the block's start: every ticket left, empty carton.
    fn start(&self) -> usize {
        self.encode(&self.totals, &vec![0; self.carton_caps.len()])
    }

    fn encode(&self, left: &[u32], carton: &[u32]) -> usize {
        let mut i = 0usize;
        for (d, &x) in left.iter().chain(carton).enumerate() {
            i = i * self.radix[d] + x as usize;
        }
        i
    }

    fn decode(&self, mut i: usize, digits: &mut [u32]) {
        for d in (0..self.radix.len()).rev() {
            digits[d] = (i % self.radix[d]) as u32;
            i /= self.radix[d];
        }
    }

    /// The state after pack `p` takes choice `c` in state `digits`, or `None` when it
    /// cannot (too few tickets left, a carton cap broken).
    fn next(&self, p: usize, digits: &[u32], c: usize, out: &mut [u32]) -> Option<usize> {
        let h = &self.choices[c];
        for j in 0..self.bands {
            out[j] = digits[j].checked_sub(h[j])?;
        }
        let ends = (p + 1) % self.carton_size == 0 || p + 1 == self.packs;
        for (k, &cap) in self.carton_caps.iter().enumerate() {
            let z = digits[self.bands + k] + self.carton_counts[c][k];
            if z > cap {
                return None;
            }
            out[self.bands + k] = if ends { 0 } else { z };
        }
        Some(self.encode(&out[..self.bands], &out[self.bands..]))
    }

    /// φ of choice `c` for a pack of `kind`: 0 when it cannot hold it.
    fn phi_of(&self, kind: usize, c: usize) -> f64 {
        let a = &self.a[kind];
        a.get(self.size[c] as usize).copied().unwrap_or(0.0) * self.multinomial[c]
    }

    /// Fills [`Self::trans`] and [`Self::phi`].
    fn tabulate(&mut self) {
        let (s, nc) = (self.states, self.choices.len());
        let mut digits = vec![0u32; self.radix.len()];
        let mut out = vec![0u32; self.radix.len()];
        let mut trans = vec![u32::MAX; 2 * s * nc];
        for ends in 0..2 {
            for i in 0..s {
                self.decode(i, &mut digits);
                for c in 0..nc {
                    // The block's last pack ends its carton.
                    let next = if ends == 1 {
                        self.next(self.packs - 1, &digits, c, &mut out)
                    } else {
                        self.next_within(&digits, c, &mut out)
                    };
                    if let Some(j) = next {
                        trans[(ends * s + i) * nc + c] = j as u32;
                    }
                }
            }
        }
        self.trans = trans;
        self.phi = (0..self.a.len())
            .map(|k| (0..nc).map(|c| self.phi_of(k, c)).collect())
            .collect();
    }

    /// Like [`Self::next`] for a pack that does not end its carton.
    fn next_within(&self, digits: &[u32], c: usize, out: &mut [u32]) -> Option<usize> {
        let h = &self.choices[c];
        for j in 0..self.bands {
            out[j] = digits[j].checked_sub(h[j])?;
        }
        for (k, &cap) in self.carton_caps.iter().enumerate() {
            let z = digits[self.bands + k] + self.carton_counts[c][k];
            if z > cap {
                return None;
            }
            out[self.bands + k] = z;
        }
        Some(self.encode(&out[..self.bands], &out[self.bands..]))
    }

    /// True when pack `p` ends its carton.
    fn ends(&self, p: usize) -> usize {
        usize::from((p + 1) % self.carton_size == 0 || p + 1 == self.packs)
    }

    /// `v` is stored state-major (`v[state × (packs + 1) + p]`) so that the forward draw,
    /// whose state changes rarely, reads it sequentially.
    fn backward(&mut self) {
        let (s, n, nc) = (self.states, self.packs, self.choices.len());
        let w = n + 1;
        let mut digits = vec![0u32; self.radix.len()];
        for i in 0..s {
            self.decode(i, &mut digits);
            if digits[..self.bands].iter().all(|&x| x == 0) {
                self.v[i * w + n] = 1.0;
            }
        }
        let mut col = vec![0.0f64; s];
        for p in (0..n).rev() {
            let base = self.ends(p) * s;
            let phi = &self.phi[self.kinds[p]];
            let mut max = 0.0f64;
            for (i, x) in col.iter_mut().enumerate() {
                let t = &self.trans[(base + i) * nc..(base + i + 1) * nc];
                let mut sum = 0.0;
                for (c, &j) in t.iter().enumerate() {
                    if j != u32::MAX {
                        sum += phi[c] * self.v[j as usize * w + p + 1];
                    }
                }
                *x = sum;
                max = max.max(sum);
            }
            for (i, &x) in col.iter().enumerate() {
                self.v[i * w + p] = if max > 0.0 { x / max } else { x };
            }
        }
    }

    /// Bands counted (L).
    pub fn bands(&self) -> usize {
        self.bands
    }

    /// Draws every pack's capped tickets into `out` (pack after pack, `bands` entries each)
    /// and their totals per pack into `k`. Each pack's choice has chance
    /// `⌊φ × weight × 2⁵³ / largest⌋ / Σ` (an integer law, drawn without bias).
    pub fn draw<R: RngCore + ?Sized>(&self, rng: &mut R, out: &mut Vec<u32>, k: &mut Vec<u32>) {
        out.clear();
        k.clear();
        let (s, nc) = (self.states, self.choices.len());
        let mut w = vec![0u64; nc];
        let mut state = self.start();
        for p in 0..self.packs {
            let at = |j: u32| self.v[j as usize * (self.packs + 1) + p + 1];
            let phi = &self.phi[self.kinds[p]];
            let base = (self.ends(p) * s + state) * nc;
            let t = &self.trans[base..base + nc];
            let mut max = 0.0f64;
            for (c, &j) in t.iter().enumerate() {
                if j != u32::MAX {
                    max = max.max(phi[c] * at(j));
                }
            }
            let scale = TOP as f64 / max;
            let mut total = 0u64;
            for (c, &j) in t.iter().enumerate() {
                w[c] = if j == u32::MAX {
                    0
                } else {
                    (phi[c] * at(j) * scale) as u64
                };
                total += w[c];
            }
            let mut u = below_u64(rng, total);
            let mut c = 0;
            while u >= w[c] {
                u -= w[c];
                c += 1;
            }
            out.extend_from_slice(&self.choices[c]);
            k.push(self.size[c]);
            state = t[c] as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::rng::{stream, Purpose, Seed};

    #[test]
    fn caps_and_totals_hold() {
        // 40 packs, cartons of 4; band 1: 12 tickets, band 2: 5; at most 1 of band 1 or
        // above per pack, at most 1 of band 2 per carton.
        let law = CapLaw::new(
            &[12, 5],
            &[BandCap { from: 1, count: 1 }],
            &[BandCap { from: 2, count: 1 }],
            4,
            vec![0; 40],
            vec![vec![1.0, 40.0]],
        )
        .unwrap();
        assert_eq!(law.choices, vec![vec![0, 0], vec![1, 0], vec![0, 1]]);
        let mut rng = stream(&Seed([9; 32]), Purpose::Allocation, 1, 0);
        let (mut h, mut k) = (Vec::new(), Vec::new());
        for _ in 0..20 {
            law.draw(&mut rng, &mut h, &mut k);
            assert_eq!(k.len(), 40);
            assert!(k.iter().all(|&x| x <= 1));
            assert_eq!(h.chunks(2).map(|x| x[0]).sum::<u32>(), 12);
            assert_eq!(h.chunks(2).map(|x| x[1]).sum::<u32>(), 5);
            for carton in h.chunks(8) {
                assert!(carton.chunks(2).map(|x| x[1]).sum::<u32>() <= 1, "{h:?}");
            }
        }
    }

    #[test]
    fn impossible_caps_give_none() {
        // 3 tickets, at most 1 per pack, 2 packs.
        assert!(CapLaw::new(
            &[3],
            &[BandCap { from: 1, count: 1 }],
            &[],
            1,
            vec![0; 2],
            vec![vec![1.0, 1.0]]
        )
        .is_none());
    }
}
