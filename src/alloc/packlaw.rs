//! The law of winners per pack under pack constraints, and uniform valid orders in a pack.
//!
//! An arrangement of a block is: the number of winners `c_p` in each pack `p`, the sequence
//! of winning ways in slot order (every pack's winners, pack after pack), and in each pack
//! the positions of its winners. For a fixed `c`, every winning-way sequence is possible and
//! each pack has `w_p(c_p)` orders: `C(size_p, c_p)`, or with `max_losers_in_a_row` the
//! number `R_p(c_p)` of orders with no longer run of losers. So, uniform over arrangements,
//! `c` has law `∝ Π w_p(c_p)` on the vectors with `Σ c_p = K` (the block's winners) and
//! every `c_p` allowed (`min_winners` on full packs).
//!
//! [`WinnerLaw::draw`] samples that law by Boltzmann sampling with rejection on the sum:
//! every pack but one draws `c_p` independently from `q_p(c) ∝ w_p(c) t^c` (the tilt `t` puts
//! the mean at `K`); the remaining pack takes `c_f = K − Σ`, and the try is kept with chance
//! `q_f(c_f) / max q_f`. A kept try has law `∝ Π q_p(c_p) = t^K Π w_p(c_p)`: the target, `t`
//! cancelling. The weights are integer tables ([`IntTable`], largest entry 2⁵³) drawn
//! without bias, so the law is exactly `∝ Π table_p(c_p)`; the tables approximate `w_p t^c`
//! as docs/FORMAT.md ("Pack constraints") bounds.

use crate::crypto::rng::below;
use rand_core::RngCore;

/// The largest entry of an [`IntTable`]: 2⁵³.
pub const TOP: u64 = 1 << 53;

/// A uniform integer in `0..n` (Lemire's multiply-and-reject on 64-bit draws: no bias).
/// Panics if `n == 0`.
pub fn below_u64<R: RngCore + ?Sized>(rng: &mut R, n: u64) -> u64 {
    assert!(n > 0, "below_u64(0)");
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as u64
}

/// A law on the integers `lo..lo + len` given by integer weights (the largest is [`TOP`]),
/// drawn exactly: index `i` comes with chance `weight[i] / Σ weight`.
#[derive(Clone, Debug)]
pub struct IntTable {
    lo: u32,
    weights: Vec<u64>,
    cumulative: Vec<u64>,
    /// `guide[b]`: the first index whose cumulative weight exceeds `b << shift` (a
    /// search shortcut: the drawn index is the same as a binary search's).
    guide: Vec<u32>,
    shift: u32,
}

impl IntTable {
    /// Weights `round_down(TOP × v / max v)` of the non-negative values `v` (of `lo`,
    /// `lo + 1`, …). `None` when no value is positive.
    pub fn new(lo: u32, values: &[f64]) -> Option<IntTable> {
        let max = values.iter().copied().fold(0.0f64, f64::max);
        if max <= 0.0 || max.is_nan() {
            return None;
        }
        let weights: Vec<u64> = values
            .iter()
            .map(|&v| {
                if v >= max {
                    TOP
                } else {
                    ((v / max) * TOP as f64) as u64
                }
            })
            .collect();
        let mut total = 0u64;
        let cumulative: Vec<u64> = weights
            .iter()
            .map(|&w| {
                total += w;
                total
            })
            .collect();
        let last = *cumulative.last().unwrap_or(&1) - 1;
        let shift = (64u32 - last.leading_zeros()).saturating_sub(8);
        let guide = (0..=(last >> shift))
            .map(|b| cumulative.partition_point(|&c| c <= b << shift) as u32)
            .collect();
        Some(IntTable {
            lo,
            weights,
            cumulative,
            guide,
            shift,
        })
    }

    /// The weight of value `c` (0 outside the table).
    pub fn weight(&self, c: u64) -> u64 {
        c.checked_sub(u64::from(self.lo))
            .and_then(|i| self.weights.get(i as usize))
            .copied()
            .unwrap_or(0)
    }

    /// The sum of the weights.
    pub fn total(&self) -> u64 {
        *self.cumulative.last().unwrap_or(&0)
    }

    /// One value, drawn from the table's law.
    pub fn draw<R: RngCore + ?Sized>(&self, rng: &mut R) -> u32 {
        let u = below_u64(rng, self.total());
        let mut i = self.guide[(u >> self.shift) as usize] as usize;
        while self.cumulative[i] <= u {
            i += 1;
        }
        self.lo + i as u32
    }

    /// The law as probabilities (for reports): `(value, chance)`.
    pub fn probabilities(&self) -> Vec<(u32, f64)> {
        let t = self.total() as f64;
        (0..self.weights.len())
            .map(|i| (self.lo + i as u32, self.weights[i] as f64 / t))
            .collect()
    }
}

/// An index of `weights` (non-negative, at least one positive), with chance
/// `⌊2⁵³ wᵢ / max w⌋ / Σ`: the integer law of [`IntTable`], without building one.
pub fn draw_weights<R: RngCore + ?Sized>(rng: &mut R, weights: &[f64]) -> usize {
    let max = weights.iter().copied().fold(0.0f64, f64::max);
    assert!(max > 0.0, "draw_weights: no positive weight");
    let scale = |w: f64| -> u64 {
        if w >= max {
            TOP
        } else {
            ((w / max) * TOP as f64) as u64
        }
    };
    let total: u64 = weights.iter().map(|&w| scale(w)).sum();
    let mut u = below_u64(rng, total);
    for (i, &w) in weights.iter().enumerate() {
        let x = scale(w);
        if u < x {
            return i;
        }
        u -= x;
    }
    unreachable!("u is below the total")
}

/// Orders of a pack with no run of losers longer than `max_run`: for `r` gaps (runs of
/// losers, each 0..=max_run long) holding `m` losers in all, `a(r, m) = N(r, m) 2^−(r−1+m)`
/// where `N` counts them. A pack of `size` tickets with `c` winners has `c + 1` gaps and
/// `size − c` losers. Only sums of products by powers of two: every entry is within
/// `size` roundings of the exact value, and deterministic.
#[derive(Clone, Debug)]
pub struct RunCounts {
    size: u32,
    max_run: u32,
    /// `a(r, m)` at `(r − 1) × (size + 1) + m`, `r` in `1..=size + 1`, `m` in `0..=size`.
    table: Vec<f64>,
}

impl RunCounts {
    /// The table for packs of `size` tickets and at most `max_run` losers in a row.
    pub fn new(size: u32, max_run: u32) -> RunCounts {
        let w = size as usize + 1;
        let mut table = vec![0.0f64; w * w];
        let mut p = 1.0f64;
        for (m, a) in table[..w].iter_mut().enumerate() {
            if m as u32 <= max_run {
                *a = p;
            }
            p *= 0.5;
        }
        for r in 1..w {
            for m in 0..w {
                let mut s = 0.0f64;
                let mut f = 0.5f64;
                for j in 0..=m.min(max_run as usize) {
                    s += table[(r - 1) * w + m - j] * f;
                    f *= 0.5;
                }
                table[r * w + m] = s;
            }
        }
        RunCounts {
            size,
            max_run,
            table,
        }
    }

    fn a(&self, r: usize, m: usize) -> f64 {
        self.table[(r - 1) * (self.size as usize + 1) + m]
    }

    /// `R(c) × 2^−size`: the orders with `c` winners, scaled (0 when none).
    pub fn orders(&self, c: u32) -> f64 {
        if c > self.size {
            return 0.0;
        }
        self.a(c as usize + 1, (self.size - c) as usize)
    }

    /// The chance that a uniform valid order with `c` winners starts with exactly `j`
    /// losers (0 when none does).
    pub fn first_run(&self, c: u32, j: u32) -> f64 {
        let m = self.size.saturating_sub(c);
        if c > self.size || j > m || j > self.max_run || self.orders(c) == 0.0 {
            return 0.0;
        }
        if c == 0 {
            return f64::from(u8::from(j == m));
        }
        self.a(c as usize, (m - j) as usize) * 0.5f64.powi(j as i32 + 1)
            / self.a(c as usize + 1, m as usize)
    }

    /// The winners' positions (0-based, ascending) of an order of a pack with `c` winners,
    /// drawn uniformly among the valid orders: each run of losers in turn, with the chance
    /// of its length given the runs left. Panics if no order has `c` winners.
    pub fn draw<R: RngCore + ?Sized>(&self, rng: &mut R, c: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut m = (self.size - c) as usize;
        let mut pos = 0u32;
        let mut weights = Vec::with_capacity(self.max_run as usize + 1);
        for r in (2..=c as usize + 1).rev() {
            weights.clear();
            let mut f = 0.5f64;
            for j in 0..=m.min(self.max_run as usize) {
                weights.push(self.a(r - 1, m - j) * f);
                f *= 0.5;
            }
            let gap = draw_weights(rng, &weights);
            pos += gap as u32;
            out.push(pos);
            pos += 1;
            m -= gap;
        }
        debug_assert!(m as u32 <= self.max_run);
    }
}

/// Positions of `c` winners among `size` tickets, every `c`-subset equally likely (a
/// partial Fisher–Yates shuffle of `0..size`); in draw order.
pub fn draw_subset<R: RngCore + ?Sized>(
    rng: &mut R,
    size: u32,
    c: u32,
    scratch: &mut Vec<u32>,
    out: &mut Vec<u32>,
) {
    scratch.clear();
    scratch.extend(0..size);
    for i in 0..c as usize {
        let j = i + below(rng, size - i as u32) as usize;
        scratch.swap(i, j);
    }
    out.clear();
    out.extend_from_slice(&scratch[..c as usize]);
}

/// The orders of one kind of pack (full or short): `w(c)`, for the allowed `c`.
#[derive(Clone, Debug)]
pub struct PackOrders {
    /// Tickets in the pack.
    pub size: u32,
    /// Fewest winners allowed.
    pub lo: u32,
    /// `w(c + 1) / w(c)` for `c` in `lo..size` (the untilted weights' ratios).
    ratios: Vec<f64>,
    /// With `max_losers_in_a_row`, its counts; else every subset is an order.
    pub runs: Option<RunCounts>,
}

impl PackOrders {
    /// Packs of `size` tickets holding at least `min` winners, with at most `max_run`
    /// losers in a row if given. `None` when no `c` is allowed.
    pub fn new(size: u32, min: u32, max_run: Option<u32>) -> Option<PackOrders> {
        let runs = max_run
            .filter(|&l| l < size)
            .map(|l| RunCounts::new(size, l));
        let lo = match &runs {
            Some(r) => (min..=size).find(|&c| r.orders(c) > 0.0)?,
            None if min <= size => min,
            None => return None,
        };
        let ratios = (lo..size)
            .map(|c| match &runs {
                Some(r) => r.orders(c + 1) / r.orders(c),
                None => f64::from(size - c) / f64::from(c + 1),
            })
            .collect();
        Some(PackOrders {
            size,
            lo,
            ratios,
            runs,
        })
    }

    /// `w(c) t^c` for `c` in `lo..=size`, up to a common factor (largest 1); tail entries
    /// may underflow to 0.
    fn tilted(&self, t: f64) -> Vec<f64> {
        let mut v = Vec::with_capacity(self.ratios.len() + 1);
        let mut q = 1.0f64;
        v.push(q);
        for &r in &self.ratios {
            q *= r * t;
            if q > 1e200 {
                for x in v.iter_mut() {
                    *x *= 1e-200;
                }
                q *= 1e-200;
            }
            v.push(q);
        }
        let max = v.iter().copied().fold(0.0f64, f64::max);
        v.iter().map(|x| x / max).collect()
    }

    fn mean(&self, t: f64) -> f64 {
        let v = self.tilted(t);
        let (mut s, mut m) = (0.0, 0.0);
        for (i, x) in v.iter().enumerate() {
            s += x;
            m += x * f64::from(self.lo + i as u32);
        }
        m / s
    }
}

/// For a full pack of `size` tickets whose winners follow `pmf` (`pmf[c]`, `c` =
/// 0..=size) in uniform orders (uniform valid orders under `runs`): `cond[i]`, the chance
/// that ticket `i + 1` wins once the first `i` have all lost (0 where that never happens).
/// The pack-exploitation risk: what a buyer who watched a pack's first tickets lose can
/// expect of the next one.
pub fn after_losses(pmf: &[f64], size: u32, runs: Option<&RunCounts>) -> Vec<f64> {
    let s = size as usize;
    let mut cond = vec![0.0; s];
    match runs {
        None => {
            // P(first i lost | c) = C(s − i, c) / C(s, c), updated factor by factor.
            let mut lost: Vec<f64> = pmf.to_vec();
            for (i, out) in cond.iter_mut().enumerate() {
                let (mut num, mut den) = (0.0, 0.0);
                for (c, l) in lost.iter_mut().enumerate() {
                    den += *l;
                    num += *l * c as f64 / (s - i) as f64;
                    *l *= (s - i).saturating_sub(c) as f64 / (s - i) as f64;
                }
                *out = if den > 0.0 { num / den } else { 0.0 };
            }
        }
        Some(r) => {
            for (i, out) in cond.iter_mut().enumerate() {
                let (mut num, mut den) = (0.0, 0.0);
                for (c, &p) in pmf.iter().enumerate() {
                    if p == 0.0 {
                        continue;
                    }
                    let at = r.first_run(c as u32, i as u32);
                    let beyond: f64 = (i as u32..=size).map(|j| r.first_run(c as u32, j)).sum();
                    num += p * at;
                    den += p * beyond;
                }
                *out = if den > 0.0 { num / den } else { 0.0 };
            }
        }
    }
    cond
}

/// The tables of one kind of pack for `k` = 0..=kmax capped tickets: the law of its
/// winners `∝ w(c) C(c, k) tᶜ` (`None` where it cannot hold `k`), and the factors
/// `a(k)` the capped tickets' law weighs them by (1 for `k` = 0).
fn tables(
    orders: &PackOrders,
    t: f64,
    kmax: u32,
    forced: bool,
) -> (Vec<Option<IntTable>>, Vec<f64>) {
    let base = orders.tilted(t);
    let mut out = Vec::new();
    let mut a = Vec::new();
    let mut total0 = 0.0;
    for k in 0..=kmax {
        let values: Vec<f64> = base
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let c = orders.lo + i as u32;
                if c < k {
                    return 0.0;
                }
                let mut b = 1.0f64;
                for j in 0..k {
                    b = b * f64::from(c - j) / f64::from(j + 1);
                }
                v * b
            })
            .collect();
        let g = values.iter().copied().fold(0.0f64, f64::max);
        let table = IntTable::new(orders.lo, &values);
        let total = table.as_ref().map_or(0.0, |t| t.total() as f64);
        if k == 0 {
            total0 = total;
        }
        a.push(match &table {
            None => 0.0,
            Some(_) if forced => g,
            Some(_) => g * total / total0,
        });
        out.push(table);
    }
    (out, a)
}

/// The law of the winners per pack of a block: `full` packs of one kind and perhaps one
/// short last pack, `total` winners in all; with capped tickets, one table per number of
/// capped tickets a pack holds (packcaps).
#[derive(Clone, Debug)]
pub struct WinnerLaw {
    /// Full packs.
    pub full_packs: u32,
    /// The full packs' tables, per number of capped tickets (index 0: none).
    pub full: Vec<Option<IntTable>>,
    /// The short last pack's tables, if the block has one.
    pub short: Option<Vec<Option<IntTable>>>,
    /// The capped tickets' factors `a(k)`: a full pack, the last full pack (the one that
    /// takes the rest), the short pack.
    pub cap_factors: [Vec<f64>; 3],
    /// Winners in the block.
    pub total: u64,
    /// The tilt `t` (it changes how many tries a draw takes, never the law).
    pub tilt: f64,
}

impl WinnerLaw {
    /// The law for `full_packs` packs of `full` and one of `short` if any, `total` winners,
    /// with tables for packs holding up to `kmax` capped tickets. `None` when no vector of
    /// allowed counts sums to `total`.
    pub fn new(
        full_packs: u32,
        full: &PackOrders,
        short: Option<&PackOrders>,
        total: u64,
        kmax: u32,
    ) -> Option<WinnerLaw> {
        let lo = u64::from(full.lo) * u64::from(full_packs) + short.map_or(0, |s| u64::from(s.lo));
        let hi =
            u64::from(full.size) * u64::from(full_packs) + short.map_or(0, |s| u64::from(s.size));
        if full_packs == 0 || total < lo || total > hi {
            return None;
        }
        let mean = |t: f64| f64::from(full_packs) * full.mean(t) + short.map_or(0.0, |s| s.mean(t));
        // Geometric bisection on t (only correctly rounded operations: deterministic).
        let (mut a, mut b) = (1e-30f64, 1e30f64);
        for _ in 0..80 {
            let m = (a * b).sqrt();
            if mean(m) < total as f64 {
                a = m;
            } else {
                b = m;
            }
        }
        let tilt = (a * b).sqrt();
        let (f, af) = tables(full, tilt, kmax.min(full.size), false);
        let (_, aforced) = tables(full, tilt, kmax.min(full.size), true);
        let (sh, ash) = match short {
            Some(s) => {
                let (t, a) = tables(s, tilt, kmax.min(s.size), false);
                t[0].as_ref()?;
                (Some(t), a)
            }
            None => (None, Vec::new()),
        };
        f[0].as_ref()?;
        Some(WinnerLaw {
            full_packs,
            full: f,
            short: sh,
            cap_factors: [af, aforced, ash],
            total,
            tilt,
        })
    }

    /// The law of one full pack's winners, `pmf[c]` for `c` = 0..=`size`: the full packs'
    /// table, times the chance that the other packs hold the rest (normal approximation,
    /// relative error O(1/packs²)); for the audit's expectations (capped tickets aside).
    pub fn full_pack_pmf(&self, size: u32) -> Vec<f64> {
        let q = self.full[0]
            .as_ref()
            .expect("checked in new")
            .probabilities();
        let mean: f64 = q.iter().map(|&(c, p)| f64::from(c) * p).sum();
        let var: f64 = q
            .iter()
            .map(|&(c, p)| (f64::from(c) - mean).powi(2) * p)
            .sum();
        let others = f64::from(self.full_packs.max(2) - 1) * var.max(1e-12);
        let mut pmf = vec![0.0; size as usize + 1];
        for (c, p) in q {
            pmf[c as usize] = p * (-(f64::from(c) - mean).powi(2) / (2.0 * others)).exp();
        }
        let t: f64 = pmf.iter().sum();
        pmf.iter().map(|p| p / t).collect()
    }

    /// One try: the winners of every pack (full packs, then the short one) into `out`;
    /// false when the try is rejected. `ks[p]` is the number of capped tickets pack `p`
    /// holds (empty: none anywhere). The last full pack is the one that takes the rest.
    pub fn try_draw<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        ks: &[u32],
        out: &mut Vec<u32>,
    ) -> bool {
        let k = |p: usize| ks.get(p).copied().unwrap_or(0) as usize;
        out.clear();
        let mut sum = 0u64;
        let n = self.full_packs as usize;
        for p in 0..n - 1 {
            let t = self.full[k(p)]
                .as_ref()
                .expect("a capped law holds what a pack can");
            let c = t.draw(rng);
            sum += u64::from(c);
            out.push(c);
        }
        let short = self.short.as_ref().map(|s| {
            s[k(n)]
                .as_ref()
                .expect("a capped law holds what a pack can")
                .draw(rng)
        });
        sum += u64::from(short.unwrap_or(0));
        let Some(rest) = self.total.checked_sub(sum) else {
            return false;
        };
        let w = self.full[k(n - 1)].as_ref().map_or(0, |t| t.weight(rest));
        if w == 0 || below_u64(rng, TOP) >= w {
            return false;
        }
        out.push(rest as u32);
        out.extend(short);
        true
    }

    /// Draws until a try is kept, with no capped tickets: the winners of every pack and
    /// the tries it took, or `Err(tries)` after `max_tries`.
    pub fn draw<R: RngCore + ?Sized>(
        &self,
        rng: &mut R,
        max_tries: u32,
        out: &mut Vec<u32>,
    ) -> Result<u32, u32> {
        for t in 1..=max_tries {
            if self.try_draw(rng, &[], out) {
                return Ok(t);
            }
        }
        Err(max_tries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::rng::{stream, Purpose, Seed};

    #[test]
    fn run_counts_are_exact_on_small_packs() {
        // Packs of 6, at most 2 losers in a row: brute force over the 64 orders.
        let r = RunCounts::new(6, 2);
        for c in 0..=6u32 {
            let brute = (0u32..64)
                .filter(|m| m.count_ones() == c)
                .filter(|m| {
                    let mut run = 0;
                    (0..6).all(|i| {
                        run = if m >> i & 1 == 1 { 0 } else { run + 1 };
                        run <= 2
                    })
                })
                .count();
            assert_eq!(r.orders(c) * 64.0, brute as f64, "c = {c}");
        }
        assert_eq!(r.orders(1), 0.0);
        // 4 losers in 3 runs of at most 2: 2+2+0 (3 orders) and 2+1+1 (3 orders).
        assert_eq!(r.orders(2) * 64.0, 6.0);
    }

    #[test]
    fn int_table_scales_to_top() {
        let t = IntTable::new(3, &[0.5, 1.0, 0.25, 0.0]).unwrap();
        assert_eq!(
            (
                t.weight(3),
                t.weight(4),
                t.weight(5),
                t.weight(6),
                t.weight(7)
            ),
            (TOP / 2, TOP, TOP / 4, 0, 0)
        );
        assert_eq!(t.total(), TOP / 2 + TOP + TOP / 4);
        // The guide gives the binary search's index.
        let mut rng = stream(&Seed([2; 32]), Purpose::Allocation, 1, 0);
        let mut seen = [0u32; 3];
        for _ in 0..7000 {
            seen[(t.draw(&mut rng) - 3) as usize] += 1;
        }
        assert!(
            seen.iter()
                .zip([2000, 4000, 1000])
                .all(|(&o, e)| o.abs_diff(e) < 200),
            "{seen:?}"
        );
        assert!(IntTable::new(0, &[0.0]).is_none());
    }

    #[test]
    fn winner_counts_sum_and_respect_the_minimum() {
        let full = PackOrders::new(150, 40, None).unwrap();
        let law = WinnerLaw::new(20, &full, None, 919, 0).unwrap();
        let mut rng = stream(&Seed([3; 32]), Purpose::Allocation, 1, 0);
        let mut c = Vec::new();
        for _ in 0..50 {
            law.draw(&mut rng, 100_000, &mut c).unwrap();
            assert_eq!(c.len(), 20);
            assert_eq!(c.iter().map(|&x| u64::from(x)).sum::<u64>(), 919);
            assert!(c.iter().all(|&x| x >= 40), "{c:?}");
        }
    }

    #[test]
    fn drawn_orders_respect_the_run_limit() {
        let r = RunCounts::new(30, 4);
        let mut rng = stream(&Seed([4; 32]), Purpose::Allocation, 1, 0);
        let mut pos = Vec::new();
        for c in [6u32, 10, 29, 30] {
            r.draw(&mut rng, c, &mut pos);
            assert_eq!(pos.len(), c as usize);
            let mut last = -1i64;
            for &p in pos.iter().chain(std::iter::once(&30)) {
                assert!(i64::from(p) - last - 1 <= 4, "c {c}: {pos:?}");
                last = i64::from(p);
            }
        }
    }
}
