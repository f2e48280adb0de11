//! The statistical tests of the audit report, on plain numbers (no block, no spec).
//!
//! Distributions come from `statrs` (chi-square, normal, hypergeometric); the Kolmogorov
//! distribution, the runs test, autocorrelations and contingency tables are written out here
//! with their textbook formulas, each named at its function. Every p-value is the
//! probability, under the null hypothesis that the block is an honest random arrangement, of
//! a result at least as extreme as the one observed.

/// A test whose p-value is below this (1 %) is reported as an exception.
pub const FLAG_P: f64 = 0.01;

use statrs::distribution::{ChiSquared, ContinuousCDF, Discrete, Hypergeometric, Normal};

/// Upper-tail probability P(X ≥ `x`) of a chi-square with `df` > 0 degrees of freedom.
/// Returns 1 for `x` ≤ 0 (or NaN). Panics if `df` ≤ 0 (a caller bug).
pub fn chi2_sf(x: f64, df: f64) -> f64 {
    assert!(df > 0.0, "chi-square with {df} degrees of freedom");
    if x.is_nan() || x <= 0.0 {
        return 1.0;
    }
    ChiSquared::new(df).expect("df > 0").sf(x)
}

/// Two-sided p-value of a standard normal score: P(|Z| ≥ |z|).
pub fn normal_two_sided(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    (2.0 * Normal::standard().sf(z.abs())).min(1.0)
}

/// A chi-square test's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    /// The statistic X².
    pub statistic: f64,
    /// Degrees of freedom.
    pub df: f64,
    /// Upper-tail p-value.
    pub p: f64,
}

impl ChiSquare {
    /// The test of `statistic` on `df` degrees of freedom.
    pub fn new(statistic: f64, df: f64) -> ChiSquare {
        ChiSquare {
            statistic,
            df,
            p: chi2_sf(statistic, df),
        }
    }
}

/// Wald–Wolfowitz runs test on a two-valued sequence (Wald & Wolfowitz 1940).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Runs {
    /// Number of runs (maximal blocks of equal values).
    pub runs: u64,
    /// Count of `true`.
    pub n1: u64,
    /// Count of `false`.
    pub n2: u64,
    /// E\[R\] = 2·n1·n2/N + 1.
    pub expected: f64,
    /// Var\[R\] = 2·n1·n2·(2·n1·n2 − N) / (N²·(N − 1)).
    pub variance: f64,
    /// (R − E\[R\]) / √Var\[R\].
    pub z: f64,
    /// Two-sided normal p-value (too few runs: clustering; too many: alternation).
    pub p: f64,
}

/// The runs test of `seq`; `None` when it has fewer than two values of either kind
/// (the variance is then 0 and there is nothing to test).
pub fn runs_test(seq: &[bool]) -> Option<Runs> {
    let n1 = seq.iter().filter(|&&b| b).count() as u64;
    let n2 = seq.len() as u64 - n1;
    if n1 < 2 || n2 < 2 {
        return None;
    }
    let runs = 1 + seq.windows(2).filter(|w| w[0] != w[1]).count() as u64;
    let (a, b, n) = (n1 as f64, n2 as f64, (n1 + n2) as f64);
    let expected = 2.0 * a * b / n + 1.0;
    let variance = 2.0 * a * b * (2.0 * a * b - n) / (n * n * (n - 1.0));
    let z = (runs as f64 - expected) / variance.sqrt();
    Some(Runs {
        runs,
        n1,
        n2,
        expected,
        variance,
        z,
        p: normal_two_sided(z),
    })
}

/// Sample autocorrelations r₁ … r_`max_lag` of `x`:
/// r_k = Σₜ (xₜ − x̄)(xₜ₊ₖ − x̄) / Σₜ (xₜ − x̄)². `None` when `x` is constant or shorter than
/// `max_lag + 2`.
pub fn autocorrelations(x: &[f64], max_lag: usize) -> Option<Vec<f64>> {
    if x.len() < max_lag + 2 {
        return None;
    }
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let d: Vec<f64> = x.iter().map(|v| v - mean).collect();
    let ss: f64 = d.iter().map(|v| v * v).sum();
    if ss <= 0.0 {
        return None;
    }
    Some(
        (1..=max_lag)
            .map(|k| d.iter().zip(&d[k..]).map(|(a, b)| a * b).sum::<f64>() / ss)
            .collect(),
    )
}

/// The elements of a coded series [`autocorrelations_coded`] turns into deviations at a
/// time: 64 KiB of them.
const CODED_WINDOW: usize = 8192;

/// The autocorrelations of [`autocorrelations`] at lags 1..=`L` for the series
/// xₜ = `values[codes[t]]` — a long series over a few distinct values, such as the prize of
/// every ticket given by its way — computed without building the series (2 bytes per
/// element instead of 8). `None` as for [`autocorrelations`]. Panics if a code is not an
/// index of `values`.
pub fn autocorrelations_coded<const L: usize>(codes: &[u16], values: &[f64]) -> Option<Vec<f64>> {
    if codes.len() < L + 2 {
        return None;
    }
    let (d, ss) = coded_deviations(codes, values);
    if ss <= 0.0 {
        return None;
    }
    // The sum of each lag's products, added in the series' order whatever the window.
    let mut acc = [0.0f64; L];
    // The series in windows of CODED_WINDOW deviations and the `L` after them, so that the
    // inner loop reads neither a code nor a bound and adds to every lag at once.
    let mut window: Vec<f64> = Vec::with_capacity(CODED_WINDOW + L);
    for start in (0..codes.len()).step_by(CODED_WINDOW) {
        let end = (start + CODED_WINDOW).min(codes.len());
        window.clear();
        window.extend(
            codes[start..(end + L).min(codes.len())]
                .iter()
                .map(|&c| d[c as usize]),
        );
        // Fewer than `L` elements follow only the series' last `L`.
        let full = (end - start).min(window.len().saturating_sub(L));
        acc = lagged_products(acc, &window, full);
        for (j, &a) in window.iter().enumerate().take(end - start).skip(full) {
            if a == 0.0 {
                continue;
            }
            for (slot, &b) in acc.iter_mut().zip(&window[j + 1..]) {
                *slot += a * b;
            }
        }
    }
    Some(acc.iter().map(|x| x / ss).collect())
}

/// The deviation from the series' mean of each of `values`, and the sum of the squared
/// deviations over the series xₜ = `values[codes[t]]` ([`autocorrelations_coded`]).
fn coded_deviations(codes: &[u16], values: &[f64]) -> (Vec<f64>, f64) {
    let counts = super::tally(codes, values.len());
    let n = codes.len() as f64;
    let mean = counts
        .iter()
        .zip(values)
        .map(|(&k, v)| k as f64 * v)
        .sum::<f64>()
        / n;
    let d: Vec<f64> = values.iter().map(|v| v - mean).collect();
    let ss: f64 = counts.iter().zip(&d).map(|(&k, v)| k as f64 * v * v).sum();
    (d, ss)
}

/// `acc` with the products of each of `window[..full]`'s elements and the `L` after it
/// added, lag by lag, in the window's order: the sums kept in registers, since the inner
/// loop's indices are constants.
fn lagged_products<const L: usize>(mut acc: [f64; L], window: &[f64], full: usize) -> [f64; L] {
    for (j, &a) in window[..full].iter().enumerate() {
        if a == 0.0 {
            continue;
        }
        let next: &[f64; L] = window[j + 1..j + 1 + L].try_into().expect("L after j");
        for k in 0..L {
            acc[k] += a * next[k];
        }
    }
    acc
}

/// Mid-ranks of a series given as `counts[c]` elements of value `values[c]` per code c:
/// the mid-rank of each code (1-based; equal values share the mean of their ranks), as
/// [`mid_ranks`] gives for every element of that value.
pub fn mid_rank_table(values: &[f64], counts: &[u64]) -> Vec<f64> {
    values
        .iter()
        .map(|&v| {
            let below: u64 = values
                .iter()
                .zip(counts)
                .filter(|(&w, _)| w < v)
                .map(|(_, &k)| k)
                .sum();
            let equal: u64 = values
                .iter()
                .zip(counts)
                .filter(|(&w, _)| w == v)
                .map(|(_, &k)| k)
                .sum();
            below as f64 + (equal as f64 + 1.0) / 2.0
        })
        .collect()
}

/// One lag of a serial-correlation test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lag {
    /// The lag k.
    pub lag: usize,
    /// r_k.
    pub r: f64,
    /// (r_k − E\[r_k\]) / sd, E\[r_k\] = −(N−k)/(N(N−1)) (exact for a random permutation of
    /// fixed values), sd = √((N−k)/(N(N+2))) (the Ljung–Box variance).
    pub z: f64,
    /// Two-sided normal p-value of this lag alone.
    pub p: f64,
}

/// Serial correlation at lags 1..=`max_lag` of a series of length `n` with autocorrelations
/// `r`, and the Ljung–Box portmanteau Q = Σ z_k² (Ljung & Box 1978, with r_k centred on its
/// permutation mean), chi-square with `max_lag` degrees of freedom.
pub fn ljung_box(r: &[f64], n: usize) -> (Vec<Lag>, ChiSquare) {
    ljung_box_shifted(r, n, &[])
}

/// [`ljung_box`] with each lag's mean moved by `shift[k − 1]` (0 where `shift` is short):
/// the expectation under a law other than the uniform permutation (pack constraints).
pub fn ljung_box_shifted(r: &[f64], n: usize, shift: &[f64]) -> (Vec<Lag>, ChiSquare) {
    let nf = n as f64;
    let lags: Vec<Lag> = r
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let k = (i + 1) as f64;
            let mean = -(nf - k) / (nf * (nf - 1.0)) + shift.get(i).copied().unwrap_or(0.0);
            let sd = ((nf - k) / (nf * (nf + 2.0))).sqrt();
            let z = (r - mean) / sd;
            Lag {
                lag: i + 1,
                r,
                z,
                p: normal_two_sided(z),
            }
        })
        .collect();
    let q = lags.iter().map(|l| l.z * l.z).sum();
    (lags, ChiSquare::new(q, r.len() as f64))
}

/// Mid-ranks of `x` (1-based; tied values share the mean of their ranks).
pub fn mid_ranks(x: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut out = vec![0.0; x.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            out[k] = rank;
        }
        i = j + 1;
    }
    out
}

/// Kolmogorov's limiting distribution, upper tail: Q(λ) = P(√n·D > λ) as n → ∞
/// = 2 Σ_{j≥1} (−1)^{j−1} e^{−2j²λ²}; for λ < 1.18 through the equivalent series
/// 1 − (√(2π)/λ) Σ_{j≥1} e^{−(2j−1)²π²/(8λ²)}, which converges fast there
/// (Numerical Recipes, 3rd ed., §6.14).
pub fn kolmogorov_sf(lambda: f64) -> f64 {
    if lambda.is_nan() || lambda <= 0.0 {
        return 1.0;
    }
    if lambda < 1.18 {
        let y = (-std::f64::consts::PI * std::f64::consts::PI / (8.0 * lambda * lambda)).exp();
        let s: f64 = (1..=10)
            .map(|j: i32| y.powi((2 * j - 1) * (2 * j - 1)))
            .sum();
        (1.0 - (2.0 * std::f64::consts::PI).sqrt() / lambda * s).clamp(0.0, 1.0)
    } else {
        let s: f64 = (1..=100)
            .map(|j: i32| {
                let sign = if j % 2 == 1 { 1.0 } else { -1.0 };
                sign * (-2.0 * f64::from(j * j) * lambda * lambda).exp()
            })
            .sum();
        (2.0 * s).clamp(0.0, 1.0)
    }
}

/// The Kolmogorov–Smirnov distance D = sup |F_n(u) − u| of a sample of (0, 1) against the
/// uniform distribution. `sorted` must be ascending.
pub fn ks_uniform(sorted: &[f64]) -> f64 {
    let n = sorted.len() as f64;
    sorted
        .iter()
        .enumerate()
        .map(|(i, &u)| {
            let i = i as f64;
            ((i + 1.0) / n - u).max(u - i / n)
        })
        .fold(0.0, f64::max)
}

/// p-value of a KS distance `d` on `n_eff` points, with Stephens' small-sample correction
/// λ = (√n + 0.12 + 0.11/√n)·D (Stephens 1970; accurate to a few per cent of p for n ≥ 5).
pub fn ks_p(d: f64, n_eff: f64) -> f64 {
    let s = n_eff.sqrt();
    kolmogorov_sf((s + 0.12 + 0.11 / s) * d)
}

/// Association between a categorical field (rows) and a two-valued outcome (columns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Association {
    /// Pearson's chi-square test of independence, (rows − 1) degrees of freedom over the
    /// rows that occur.
    pub chi_square: ChiSquare,
    /// Mutual information between field and outcome, in bits.
    pub mi_bits: f64,
    /// What the mutual information of an independent field of the same shape is on average:
    /// (rows − 1)/(2·N·ln 2) bits (the G-test identity G = 2·N·MI in nats is χ²(rows − 1)).
    pub mi_baseline_bits: f64,
}

/// Chi-square test of independence and mutual information of an r×2 table of counts
/// (`rows[i] = [outcome true, outcome false]`). Rows with no count are left out. `None` when
/// fewer than two rows occur or one outcome never does.
pub fn association(rows: &[[u64; 2]]) -> Option<Association> {
    let rows: Vec<[f64; 2]> = rows
        .iter()
        .filter(|r| r[0] + r[1] > 0)
        .map(|r| [r[0] as f64, r[1] as f64])
        .collect();
    let col = [
        rows.iter().map(|r| r[0]).sum::<f64>(),
        rows.iter().map(|r| r[1]).sum::<f64>(),
    ];
    let n = col[0] + col[1];
    if rows.len() < 2 || col[0] == 0.0 || col[1] == 0.0 {
        return None;
    }
    let (mut chi2, mut mi) = (0.0, 0.0);
    for r in &rows {
        let rt = r[0] + r[1];
        for c in 0..2 {
            let e = rt * col[c] / n;
            chi2 += (r[c] - e).powi(2) / e;
            if r[c] > 0.0 {
                mi += r[c] / n * (r[c] * n / (rt * col[c])).log2();
            }
        }
    }
    let df = (rows.len() - 1) as f64;
    Some(Association {
        chi_square: ChiSquare::new(chi2, df),
        mi_bits: mi.max(0.0),
        mi_baseline_bits: df / (2.0 * n * std::f64::consts::LN_2),
    })
}

/// One bin of a goodness-of-fit test: first value, last value, observed, expected.
pub type GofBin = (usize, usize, f64, f64);

/// Chi-square goodness of fit of observed counts per value against expected counts
/// (`observed[v]`, `expected[v]` for the same values), adjacent values pooled from the left
/// until each bin expects at least `min_expected` (a remainder joins the last bin).
/// Degrees of freedom: bins − 1. Returns the test and the bins as (first value, last value,
/// observed, expected); `None` when fewer than two bins can be formed.
pub fn goodness_of_fit(
    observed: &[f64],
    expected: &[f64],
    min_expected: f64,
) -> Option<(ChiSquare, Vec<GofBin>)> {
    let mut bins: Vec<GofBin> = Vec::new();
    let mut cur: Option<GofBin> = None;
    for (v, &e) in expected.iter().enumerate() {
        let c = cur.get_or_insert((v, v, 0.0, 0.0));
        c.1 = v;
        c.2 += observed.get(v).copied().unwrap_or(0.0);
        c.3 += e;
        if c.3 >= min_expected {
            bins.push(cur.take().expect("set"));
        }
    }
    if let Some(rest) = cur {
        match bins.last_mut() {
            Some(last) => {
                last.1 = rest.1;
                last.2 += rest.2;
                last.3 += rest.3;
            }
            None => bins.push(rest),
        }
    }
    if bins.len() < 2 {
        return None;
    }
    let x2 = bins.iter().map(|b| (b.2 - b.3).powi(2) / b.3).sum();
    Some((ChiSquare::new(x2, (bins.len() - 1) as f64), bins))
}

/// The hypergeometric probabilities P(X = x), x = 0..=`draws`, of `draws` tickets taken
/// without replacement from `population` tickets of which `successes` win (statrs, through
/// the log-pmf, which does not overflow on millions of tickets).
pub fn hypergeometric_pmf(population: u64, successes: u64, draws: u64) -> Vec<f64> {
    let h = Hypergeometric::new(population, successes, draws).expect("valid parameters");
    (0..=draws).map(|x| h.ln_pmf(x).exp()).collect()
}

/// Winners spread over packs against their hypergeometric expectation: with `n_i` tickets
/// in pack i, O_i winners, p = W/N the block's winning share and E_i = n_i·p,
/// X² = Σ (O_i − E_i)² / (n_i·p·(1 − p)) — the chi-square of the packs × {win, lose}
/// table — with (packs − 1) degrees of freedom. `None` with fewer than two packs or when
/// every ticket wins or every ticket loses.
pub fn pack_dispersion(winners: &[u64], sizes: &[u64]) -> Option<ChiSquare> {
    let n: u64 = sizes.iter().sum();
    let w: u64 = winners.iter().sum();
    if winners.len() < 2 || w == 0 || w == n {
        return None;
    }
    let p = w as f64 / n as f64;
    let x2 = winners
        .iter()
        .zip(sizes)
        .map(|(&o, &s)| {
            let e = s as f64 * p;
            (o as f64 - e).powi(2) / (s as f64 * p * (1.0 - p))
        })
        .sum();
    Some(ChiSquare::new(x2, (winners.len() - 1) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    /// Critical values from standard tables (e.g. NIST/SEMATECH e-Handbook, 1.3.6.7.4).
    #[test]
    fn chi_square_tail_matches_tables() {
        close(chi2_sf(3.841, 1.0), 0.05, 1e-4);
        close(chi2_sf(6.635, 1.0), 0.01, 1e-4);
        close(chi2_sf(21.666, 9.0), 0.01, 1e-4);
        close(chi2_sf(16.919, 9.0), 0.05, 1e-4);
        close(chi2_sf(36.191, 19.0), 0.01, 1e-4);
        // df = 2: exactly e^(-x/2).
        close(chi2_sf(4.0, 2.0), (-2.0f64).exp(), 1e-12);
        assert_eq!(chi2_sf(0.0, 3.0), 1.0);
    }

    #[test]
    fn normal_two_sided_matches_tables() {
        close(normal_two_sided(1.959964), 0.05, 1e-6);
        close(normal_two_sided(-2.575829), 0.01, 1e-6);
        close(normal_two_sided(0.0), 1.0, 1e-12);
    }

    /// Hand-computed: W W L L W L has 4 runs; n1 = n2 = 3, E = 2·9/6 + 1 = 4,
    /// Var = 2·9·(18 − 6)/(36·5) = 1.2, z = 0.
    #[test]
    fn runs_test_by_hand() {
        let r = runs_test(&[true, true, false, false, true, false]).unwrap();
        assert_eq!((r.runs, r.n1, r.n2), (4, 3, 3));
        close(r.expected, 4.0, 1e-12);
        close(r.variance, 1.2, 1e-12);
        close(r.z, 0.0, 1e-12);
        close(r.p, 1.0, 1e-12);
        // Perfect alternation of 10 + 10: R = 20, E = 11, Var = 2·100·180/(400·19) = 4.7368…
        let alt: Vec<bool> = (0..20).map(|i| i % 2 == 0).collect();
        let r = runs_test(&alt).unwrap();
        assert_eq!(r.runs, 20);
        close(r.variance, 36000.0 / 7600.0, 1e-12);
        close(r.z, 9.0 / (36000.0f64 / 7600.0).sqrt(), 1e-12);
        assert!(r.p < 1e-4);
        assert!(runs_test(&[true, false, false]).is_none());
    }

    /// Hand-computed: x = 1..5, x̄ = 3, Σd² = 10; lag 1: (−2)(−1) + (−1)0 + 0·1 + 1·2 = 4 → 0.4;
    /// lag 2: (−2)0 + (−1)1 + 0·2 = −1 → −0.1.
    #[test]
    fn autocorrelations_by_hand() {
        let r = autocorrelations(&[1.0, 2.0, 3.0, 4.0, 5.0], 2).unwrap();
        close(r[0], 0.4, 1e-12);
        close(r[1], -0.1, 1e-12);
        assert!(autocorrelations(&[2.0; 10], 1).is_none());
    }

    /// Ljung–Box by hand on n = 100, r = [0.2, −0.1]: E[r1] = −99/9900 = −0.01,
    /// sd1 = √(99/10200); z1 = 0.21/sd1; E[r2] = −98/9900, sd2 = √(98/10200).
    #[test]
    fn ljung_box_by_hand() {
        let (lags, q) = ljung_box(&[0.2, -0.1], 100);
        let z1 = 0.21 / (99.0f64 / 10200.0).sqrt();
        let z2 = (-0.1 + 98.0 / 9900.0) / (98.0f64 / 10200.0).sqrt();
        close(lags[0].z, z1, 1e-12);
        close(lags[1].z, z2, 1e-12);
        close(q.statistic, z1 * z1 + z2 * z2, 1e-9);
        assert_eq!(q.df, 2.0);
        close(q.p, (-(z1 * z1 + z2 * z2) / 2.0).exp(), 1e-9);
    }

    /// The coded autocorrelations add each lag's products in the series' order, one by one,
    /// whatever the window: the same bits as that loop over the series, across windows'
    /// edges and at the series' end, with values whose sums round, and with a value equal to
    /// the mean (whose products are skipped).
    #[test]
    fn coded_autocorrelations_are_the_series_loop_to_the_bit() {
        // The deviations as the function makes them; the products as the loop adds them.
        fn looped(codes: &[u16], values: &[f64]) -> Vec<f64> {
            let (d, ss) = coded_deviations(codes, values);
            let mut acc = [0.0f64; 10];
            for (t, &c) in codes.iter().enumerate() {
                let a = d[c as usize];
                if a == 0.0 {
                    continue;
                }
                for (k, slot) in acc.iter_mut().enumerate() {
                    if let Some(&c2) = codes.get(t + k + 1) {
                        *slot += a * d[c2 as usize];
                    }
                }
            }
            acc.iter().map(|x| x / ss).collect()
        }
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        // 14 codes, 0 and 2 three times each, 3 and 4 twice each, turned a little more each
        // time: 24 598 codes, three windows and 22.
        let pattern = [0u16, 1, 2, 3, 1, 4, 2, 0, 1, 3, 4, 2, 0, 1];
        let codes: Vec<u16> = (0..1757)
            .flat_map(|r| (0..14).map(move |i| pattern[(i + r * 5) % 14]))
            .collect();
        assert_eq!(codes.len(), 3 * CODED_WINDOW + 22);
        for values in [[0.0, 0.3, 2.7, 11.1, 0.05], [0.0, 1.0, 2.0, 0.5, 1.5]] {
            let coded = autocorrelations_coded::<10>(&codes, &values).unwrap();
            assert_eq!(bits(&coded), bits(&looped(&codes, &values)), "{values:?}");
        }
        // The second values' mean is 1.0: code 1 adds nothing, and is skipped.
        let exact = autocorrelations_coded::<10>(&codes, &[0.0, 1.0, 2.0, 0.5, 1.5]).unwrap();
        assert_ne!(exact, vec![0.0; 10]);
    }

    /// The coded forms agree with the plain ones on the expanded series.
    #[test]
    fn coded_series_agree_with_plain_ones() {
        let values = [0.0, 2.0, 20000.0, 2.0, 8.0];
        let codes: Vec<u16> = (0..500u32).map(|i| ((i * 7 + i / 13) % 5) as u16).collect();
        let x: Vec<f64> = codes.iter().map(|&c| values[c as usize]).collect();
        let plain = autocorrelations(&x, 10).unwrap();
        let coded = autocorrelations_coded::<10>(&codes, &values).unwrap();
        for (a, b) in plain.iter().zip(&coded) {
            close(*a, *b, 1e-12);
        }
        let mut counts = [0u64; 5];
        for &c in &codes {
            counts[c as usize] += 1;
        }
        let table = mid_rank_table(&values, &counts);
        let ranks = mid_ranks(&x);
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(ranks[i], table[c as usize]);
        }
        assert!(autocorrelations_coded::<1>(&[1, 1, 1, 1], &values).is_none());
    }

    #[test]
    fn mid_ranks_share_ties() {
        assert_eq!(
            mid_ranks(&[10.0, 0.0, 0.0, 5.0, 0.0]),
            vec![5.0, 2.0, 2.0, 4.0, 2.0]
        );
    }

    /// Kolmogorov's critical values: Q(1.2238) = 0.10, Q(1.3581) = 0.05, Q(1.6276) = 0.01
    /// (Smirnov 1948 tables); both series agree at the switch-over point.
    #[test]
    fn kolmogorov_tail_matches_tables() {
        close(kolmogorov_sf(1.2238), 0.10, 2e-4);
        close(kolmogorov_sf(1.3581), 0.05, 2e-4);
        close(kolmogorov_sf(1.6276), 0.01, 2e-4);
        close(kolmogorov_sf(0.8276), 0.50, 5e-4);
        close(kolmogorov_sf(1.1799), kolmogorov_sf(1.1801), 1e-3);
        assert_eq!(kolmogorov_sf(0.0), 1.0);
        assert!(kolmogorov_sf(0.1) > 0.999_999);
    }

    /// Hand-computed: sample 0.1, 0.2, 0.9 — deviations max(1/3 − 0.1, 2/3 − 0.2, 1 − 0.9,
    /// 0.1, 0.2 − 1/3, 0.9 − 2/3) = 2/3 − 0.2 = 0.4667.
    #[test]
    fn ks_distance_by_hand() {
        close(ks_uniform(&[0.1, 0.2, 0.9]), 2.0 / 3.0 - 0.2, 1e-12);
        close(ks_uniform(&[0.5]), 0.5, 1e-12);
        // All points at the start of the range: D near 1, p tiny.
        let bad: Vec<f64> = (0..50).map(|i| 0.001 * f64::from(i)).collect();
        assert!(ks_p(ks_uniform(&bad), 50.0) < 1e-10);
    }

    /// 2×2 table [[10, 0], [0, 10]]: X² = 20 (each of 4 cells (10 − 5)²/5 = 5), MI = 1 bit.
    /// Independent [[5, 5], [5, 5]]: X² = 0, MI = 0.
    #[test]
    fn association_by_hand() {
        let a = association(&[[10, 0], [0, 10]]).unwrap();
        close(a.chi_square.statistic, 20.0, 1e-12);
        close(a.mi_bits, 1.0, 1e-12);
        close(
            a.mi_baseline_bits,
            1.0 / (40.0 * std::f64::consts::LN_2),
            1e-12,
        );
        let b = association(&[[5, 5], [5, 5], [0, 0]]).unwrap();
        close(b.chi_square.statistic, 0.0, 1e-12);
        assert_eq!(b.chi_square.df, 1.0);
        close(b.mi_bits, 0.0, 1e-12);
        assert!(association(&[[5, 0], [5, 0]]).is_none());
        assert!(association(&[[5, 5]]).is_none());
    }

    /// Pooling: expected [1, 2, 3, 6, 1] with minimum 5 → bins {0,1,2} (6), {3,4} (6+1:
    /// the remainder joins the last bin); observed [0, 0, 8, 4, 0] → bins 8 and 4;
    /// X² = (8−6)²/6 + (4−7)²/7.
    #[test]
    fn goodness_of_fit_pools_bins() {
        let (t, bins) =
            goodness_of_fit(&[0.0, 0.0, 8.0, 4.0, 0.0], &[1.0, 2.0, 3.0, 6.0, 1.0], 5.0).unwrap();
        assert_eq!(bins, vec![(0, 2, 8.0, 6.0), (3, 4, 4.0, 7.0)]);
        close(t.statistic, 4.0 / 6.0 + 9.0 / 7.0, 1e-12);
        assert_eq!(t.df, 1.0);
        assert!(goodness_of_fit(&[1.0, 1.0], &[1.0, 1.0], 5.0).is_none());
    }

    /// Hypergeometric(N = 10, K = 4, n = 3): P(X = 0) = C(6,3)/C(10,3) = 20/120,
    /// P(1) = 4·15/120, P(2) = 6·6/120, P(3) = 4/120.
    #[test]
    fn hypergeometric_by_hand() {
        let p = hypergeometric_pmf(10, 4, 3);
        for (got, want) in p.iter().zip([20.0, 60.0, 36.0, 4.0]) {
            close(*got, want / 120.0, 1e-12);
        }
        // Millions of tickets: no overflow, sums to 1 (to statrs' log-factorial precision).
        let p = hypergeometric_pmf(4_500_000, 1_370_092, 150);
        close(p.iter().sum::<f64>(), 1.0, 1e-7);
    }

    /// Two packs of 10, winners 8 and 2 of 10 (p = 1/2): X² = (3² + 3²)/(10·¼) = 7.2, df 1.
    #[test]
    fn pack_dispersion_by_hand() {
        let t = pack_dispersion(&[8, 2], &[10, 10]).unwrap();
        close(t.statistic, 7.2, 1e-12);
        assert_eq!(t.df, 1.0);
        close(t.p, chi2_sf(7.2, 1.0), 1e-15);
        // Equal to the 2×2 contingency chi-square.
        let a = association(&[[8, 2], [2, 8]]).unwrap();
        close(a.chi_square.statistic, 7.2, 1e-12);
        assert!(pack_dispersion(&[0, 0], &[10, 10]).is_none());
    }
}
