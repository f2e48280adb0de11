//! Randomness evidence on a block: is the arrangement of the ways in print order what an
//! honest uniform shuffle gives?
//!
//! Input: the evaluated way of every ticket in print order (verify's ticket pass), and the
//! spec. Tests, each with its p-value (the probability of a result at least as extreme in an
//! honest block):
//! - **winners per pack** against their expectation, two ways: the spread over packs
//!   (chi-square of the packs × {win, lose} table, packs − 1 degrees of freedom) and the
//!   distribution of per-pack counts against their law (chi-square goodness of fit, full
//!   packs only, bins pooled to expect ≥ 5 packs). The law is hypergeometric, or for a
//!   block drawn under pack constraints the allocation's law under them (packlaw);
//! - **the chance a pack's next ticket wins once its first ones all lost**, observed first
//!   winners against that law (the pack-exploitation risk);
//! - **Wald–Wolfowitz runs** of win / lose in print order (two-sided: clustered or too
//!   regular);
//! - **serial correlation** at lags 1..=[`MAX_LAG`] of the prize amounts, and of their
//!   mid-ranks (the amounts alone are dominated by the few top prizes; ranks weigh every
//!   ticket alike): Ljung–Box portmanteau with [`MAX_LAG`] degrees of freedom, per-lag values
//!   shown;
//! - **positions of each tier** against the uniform law on the block (Kolmogorov–Smirnov),
//!   for tiers of at least [`KS_MIN`] tickets. Tiers with fewer are pooled into one group;
//!   if the group still has fewer than [`KS_MIN`] tickets it is not tested (no test can tell
//!   a fair from a biased placement of so few tickets);
//! - **gaps between consecutive tickets of a tier** against their law under a uniform
//!   shuffle (chi-square goodness of fit over [`GAP_BINS`] bins by length, near equal chance), for tiers
//!   of at least [`GAP_MIN`] tickets only.
//!
//! A p-value below [`super::FLAG_P`] (1 %) is an *exception*: reported in words, never a
//! finding by itself, since 1 % of honest blocks flag any given test by chance.
//!
//! Nothing here names, draws or lets one infer the place of a winner: the evidence is test
//! statistics, p-values and histograms over counts (packs by their number of winners, gaps
//! by their length), each bin holding many winners and no position. A tier of fewer than
//! [`GAP_MIN`] tickets is described by its count and p-values alone (its gaps, its closest
//! two, the packs holding it would narrow where its tickets are once one is claimed); the
//! positions a test reads stay in memory.

use super::FLAG_P;
use crate::alloc::packlaw::{after_losses, RunCounts};
use crate::alloc::stats::{self, ChiSquare};
use crate::alloc::PackSampler;
use crate::spec::{GameSpec, PackRules, WayId};
use rayon::prelude::*;
use serde::Serialize;

/// Largest lag of the serial-correlation tests.
pub const MAX_LAG: usize = 10;

/// Fewest tickets a tier (or the pooled small tiers) needs for its positions to be tested.
pub const KS_MIN: usize = 20;

/// Minimum expected number of packs per bin of the per-pack distribution test.
pub const MIN_EXPECTED: f64 = 5.0;

/// Fewest tickets a tier needs for the gaps between its tickets to be tested and charted:
/// each of the [`GAP_BINS`] bins then expects about 50 gaps or more.
pub const GAP_MIN: usize = 1000;

/// Bins of the gaps test and histogram, bounded at the twentieths of the gaps' law under a
/// uniform shuffle (as near as whole gap lengths allow: a dense tier's shortest gaps may each
/// take more than a twentieth).
pub const GAP_BINS: usize = 20;

/// One lag of a serial-correlation test.
#[derive(Clone, Debug, Serialize)]
pub struct LagResult {
    /// k.
    pub lag: usize,
    /// Autocorrelation r_k.
    pub r: f64,
    /// Standardised r_k.
    pub z: f64,
    /// Two-sided p-value of this lag alone (information; the test is the portmanteau).
    pub p_value: f64,
}

/// One bin of the per-pack distribution test.
#[derive(Clone, Debug, Serialize)]
pub struct Bin {
    /// Fewest winners in a pack of this bin.
    pub from: usize,
    /// Most winners in a pack of this bin.
    pub to: usize,
    /// Packs observed.
    pub observed: f64,
    /// Packs expected (hypergeometric law × full packs).
    pub expected: f64,
}

/// One statistical test.
#[derive(Clone, Debug, Serialize)]
pub struct Statistic {
    /// Identifier (`pack_dispersion`, `pack_distribution`, `pack_after_losses`, `runs`,
    /// `serial_amounts`, `serial_ranks`, `positions_small_tiers`, `positions_<amount>`,
    /// `gaps_<amount>`).
    pub id: String,
    /// What is tested, in words.
    pub test: String,
    /// Sample size (tickets, packs or positions).
    pub n: u64,
    /// The statistic (X², z, Q or D).
    pub statistic: Option<f64>,
    /// Degrees of freedom, for chi-square statistics.
    pub df: Option<f64>,
    /// p-value.
    pub p_value: Option<f64>,
    /// `no exception`, `exception` (p < 1 %) or `not run`.
    pub result: &'static str,
    /// Details: observed against expected, or why the test was not run.
    pub note: String,
    /// Per-lag values (serial correlation only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lags: Vec<LagResult>,
    /// Bins (per-pack distribution only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bins: Vec<Bin>,
}

impl Statistic {
    fn new(id: impl Into<String>, test: impl Into<String>, n: u64) -> Statistic {
        Statistic {
            id: id.into(),
            test: test.into(),
            n,
            statistic: None,
            df: None,
            p_value: None,
            result: "not run",
            note: String::new(),
            lags: Vec::new(),
            bins: Vec::new(),
        }
    }

    fn with_p(mut self, statistic: f64, df: Option<f64>, p: f64) -> Statistic {
        self.statistic = Some(statistic);
        self.df = df;
        self.p_value = Some(p);
        self.result = if p < FLAG_P {
            "exception"
        } else {
            "no exception"
        };
        self
    }

    fn chi(self, t: ChiSquare) -> Statistic {
        self.with_p(t.statistic, Some(t.df), t.p)
    }

    fn note(mut self, note: impl Into<String>) -> Statistic {
        self.note = note.into();
        self
    }

    /// True when the p-value is below 1 %.
    pub fn flagged(&self) -> bool {
        self.result == "exception"
    }
}

/// Positions of the tickets of one tier (1-based print order), read by the tests in memory
/// and never written.
struct TierPositions {
    amount: String,
    positions: Vec<u32>,
}

/// What the report says of a tier too small to be tested on its own: its count, never its
/// positions, gaps or packs (with one of its tickets claimed, they would narrow where the
/// others are).
#[derive(Clone, Debug, Serialize)]
pub struct RareTier {
    /// Lot amount (currency units).
    pub amount: String,
    /// Tickets of the tier.
    pub count: usize,
}

/// One bin of a gaps histogram: consecutive tickets of a tier `from..=to` tickets apart.
#[derive(Clone, Debug, Serialize)]
pub struct GapBin {
    /// Shortest gap of the bin (1: adjacent tickets).
    pub from: u64,
    /// Longest gap of the bin; `None` for the last bin, open above.
    pub to: Option<u64>,
    /// Gaps observed in the bin.
    pub observed: u64,
    /// Gaps expected in the bin under a uniform shuffle.
    pub expected: f64,
}

/// The gaps between consecutive tickets of one tier of at least [`GAP_MIN`] tickets, as a
/// histogram over their length: how far apart the tier's tickets are, never where.
#[derive(Clone, Debug, Serialize)]
pub struct GapHistogram {
    /// Lot amount (currency units).
    pub amount: String,
    /// Tickets of the tier (the histogram counts one gap fewer).
    pub count: usize,
    /// [`GAP_BINS`] bins (fewer when the law has fewer distinct gaps), in order of length.
    pub bins: Vec<GapBin>,
}

/// The law of the gap between two consecutive tickets of a tier of `m` tickets placed
/// uniformly among `n` (drawn without replacement), cut into at most `k` bins of about
/// equal chance: `(from, to, chance)` per bin, `to` `None` for the last (open) bin.
/// P(gap ≥ d) = C(n − d + 1, m) / C(n, m) = Π_{i<d−1} (n − m − i)/(n − i).
pub fn gap_law_bins(n: u64, m: u64, k: usize) -> Vec<(u64, Option<u64>, f64)> {
    let mut bins = Vec::new();
    if m < 2 || m > n || k == 0 {
        return bins;
    }
    let max_gap = n - m + 1;
    // survival = P(gap ≥ d), from d = 1.
    let (mut d, mut survival, mut from, mut taken) = (1u64, 1.0f64, 1u64, 0.0f64);
    while bins.len() + 1 < k && d < max_gap {
        let next = survival * (n - m + 1 - d) as f64 / (n + 1 - d) as f64;
        let after = next * (n - m).saturating_sub(d) as f64 / (n - d) as f64;
        let target = (bins.len() + 1) as f64 / k as f64;
        // Close the bin at d when the chance so far, P(gap ≤ d), is nearer the next
        // quantile than P(gap ≤ d + 1) would be.
        if (target - (1.0 - next)) <= ((1.0 - after) - target) {
            bins.push((from, Some(d), (1.0 - next) - taken));
            taken = 1.0 - next;
            from = d + 1;
        }
        survival = next;
        d += 1;
    }
    bins.push((from, None, (1.0 - taken).max(0.0)));
    bins
}

/// The gaps test and histogram of one tier (positions ascending, at least [`GAP_MIN`]).
fn gaps_test(t: &TierPositions, n: usize, constrained: bool) -> (Statistic, GapHistogram) {
    let m = t.positions.len();
    let law = gap_law_bins(n as u64, m as u64, GAP_BINS);
    let mut observed = vec![0u64; law.len()];
    for w in t.positions.windows(2) {
        let g = u64::from(w[1] - w[0]);
        let i = law.partition_point(|b| b.1.is_some_and(|to| to < g));
        observed[i.min(law.len() - 1)] += 1;
    }
    let gaps = (m - 1) as f64;
    let bins: Vec<GapBin> = law
        .iter()
        .zip(&observed)
        .map(|(&(from, to, q), &o)| GapBin {
            from,
            to,
            observed: o,
            expected: q * gaps,
        })
        .collect();
    let s = Statistic::new(
        format!("gaps_{}", t.amount),
        format!(
            "gaps between consecutive tickets of tier {} against a uniform shuffle's (chi-square goodness of fit)",
            t.amount
        ),
        (m - 1) as u64,
    );
    let s = if constrained {
        s.note("not tested: the pack constraints change the law of the gaps, which is not computed here; the histogram shows them against a uniform shuffle's for reference")
    } else if bins.len() < 2 || bins.iter().any(|b| b.expected <= 0.0) {
        s.note("too few distinct gaps to form two bins")
    } else {
        let x2: f64 = bins
            .iter()
            .map(|b| (b.observed as f64 - b.expected).powi(2) / b.expected)
            .sum();
        s.chi(ChiSquare::new(x2, (bins.len() - 1) as f64))
            .note(format!(
                "{} gaps in {} bins bounded at the twentieths of their law (as near as whole gap lengths allow)",
                m - 1,
                bins.len()
            ))
    };
    (
        s,
        GapHistogram {
            amount: t.amount.clone(),
            count: m,
            bins,
        },
    )
}

/// Winners per pack, summarised.
#[derive(Clone, Debug, Serialize)]
pub struct PackSummary {
    /// Packs in the block.
    pub packs: usize,
    /// Tickets in a full pack (the spec's pack size).
    pub pack_size: u64,
    /// Packs holding the spec's pack size of tickets (all but a shorter last one).
    pub full_packs: usize,
    /// Fewest winners in a pack (any pack, the short one included).
    pub min: u64,
    /// Most winners in a pack (any pack, the short one included).
    pub max: u64,
    /// Tickets in each pack that `mean`, `expected` and `expected_sd` describe: the pack
    /// size, or with no full pack (a deck smaller than one pack) the short pack's tickets.
    pub pack_tickets: u64,
    /// Mean winners per full pack (with no full pack: the short pack's winners).
    pub mean: f64,
    /// Expected winners in such a pack (its tickets × winners / tickets of the block, or
    /// under the pack constraints the mean of their law).
    pub expected: f64,
    /// Standard deviation of that pack's winners under the same law.
    pub expected_sd: f64,
    /// The last pack, when it holds fewer tickets than the pack size.
    pub short_pack: Option<ShortPack>,
}

/// The last pack of a block (or deck) whose tickets do not fill a pack: its own
/// expectation, hypergeometric for its size (the pack constraints apply to full packs).
/// Its own count of winners is not said: it would tell one pack from the others.
#[derive(Clone, Debug, Serialize)]
pub struct ShortPack {
    /// Tickets in it.
    pub tickets: u64,
    /// Expected winners (tickets × winners / tickets of the block).
    pub expected: f64,
    /// Standard deviation of the hypergeometric law of a pack of that size.
    pub expected_sd: f64,
}

/// Mean and standard deviation of the winners among `size` tickets drawn without
/// replacement from `n` tickets holding `winners` (the hypergeometric law).
pub fn hypergeometric_mean_sd(n: u64, winners: u64, size: u64) -> (f64, f64) {
    let (nf, s) = (n as f64, size as f64);
    let p = winners as f64 / nf.max(1.0);
    let var = s * p * (1.0 - p) * (nf - s) / (nf - 1.0).max(1.0);
    (s * p, var.max(0.0).sqrt())
}

/// All randomness evidence of one block.
#[derive(Clone, Debug, Serialize)]
pub struct Evidence {
    /// Every test, in report order.
    pub statistics: Vec<Statistic>,
    /// Winners per pack, summarised.
    pub packs: PackSummary,
    /// The tiers too small to be tested one by one (fewer than [`KS_MIN`]), by their count.
    pub small_tiers: Vec<RareTier>,
    /// The gaps between consecutive tickets of each tier of [`GAP_MIN`] tickets or more,
    /// in spec order.
    pub gaps: Vec<GapHistogram>,
    /// Full packs holding k winners, k = 0..=pack size (the chart's histogram over counts).
    #[serde(skip)]
    pub pack_histogram: Vec<u64>,
    /// Probability of k winners in a full pack under the law in force, k = 0..=pack size
    /// (chart).
    #[serde(skip)]
    pub pack_pmf: Vec<f64>,
    /// Tickets in the block.
    pub tickets: u64,
}

impl Evidence {
    /// The tests flagged at p < 1 %.
    pub fn exceptions(&self) -> impl Iterator<Item = &Statistic> {
        self.statistics.iter().filter(|s| s.flagged())
    }
}

/// Per full pack of `win` (print order), the 0-based position of its first winner (`size`
/// when it has none).
fn full_wins_first(win: &[bool], size: usize) -> Vec<usize> {
    win.chunks_exact(size)
        .map(|p| p.iter().position(|&w| w).unwrap_or(size))
        .collect()
}

/// Losers' run ahead, a few lengths reported in words.
const AFTER: [usize; 3] = [10, 25, 50];

/// The pack-exploitation test: in every full pack, each ticket whose pack-mates before it
/// all lost wins with the law's chance `cond[i]` (packlaw::after_losses); observed wins
/// against that expectation, z = (O − E)/√Σ p(1 − p) (a martingale: normal in the limit),
/// two-sided.
fn after_losses_test(
    size: usize,
    first: &[usize],
    pmf: &[f64],
    runs: Option<&RunCounts>,
    law_name: &str,
) -> Statistic {
    let s = Statistic::new(
        "pack_after_losses",
        format!(
            "chance a pack's next ticket wins once its first ones all lost, against {law_name}"
        ),
        first.len() as u64,
    );
    if first.is_empty() || pmf.len() != size + 1 {
        return s.note("needs a full pack");
    }
    let cond = after_losses(pmf, size as u32, runs);
    let (mut o, mut e, mut v) = (0.0, 0.0, 0.0);
    for &f in first {
        for (i, &q) in cond.iter().enumerate().take((f + 1).min(size)) {
            o += f64::from(u8::from(i == f));
            e += q;
            v += q * (1.0 - q);
        }
    }
    let words: Vec<String> = AFTER
        .iter()
        .filter(|&&i| i < size)
        .map(|&i| format!("after {i} losers {:.1} %", 100.0 * cond[i]))
        .collect();
    let note = format!(
        "next ticket wins {} (first ticket {:.1} %); first winners observed {o:.0}, expected {e:.1}",
        words.join(", "),
        100.0 * cond[0]
    );
    if v <= 0.0 {
        return s.note(note);
    }
    let z = (o - e) / v.sqrt();
    s.with_p(z, None, stats::normal_two_sided(z)).note(note)
}

/// Runs every test on `ways`, the way of every ticket in print order (`ways.len()` must be
/// the spec's block size, every id a way of the spec; the caller checks).
pub fn analyze(spec: &GameSpec, rules: &PackRules, ways: &[WayId]) -> Evidence {
    let n = ways.len();
    // Every test below reads the tickets of each way; counted once.
    let counts = crate::alloc::tally(ways, spec.ways.len());
    let packs = Packs::of(spec, rules, ways, &counts);
    let summary = packs.summary();
    let shift = packs.shift();
    // The packs' tests, the amounts' serial correlations and the tiers' positions read
    // `ways` apart from each other: they run side by side, each keeping its order.
    let (head, (amounts, (positions, (tier_tests, gap_tests)))) = rayon::join(
        || {
            [
                dispersion_test(&packs, &summary),
                distribution_test(&packs),
                after_losses_test(
                    packs.size,
                    &full_wins_first(&packs.win, packs.size),
                    &packs.pmf,
                    packs.runs.as_ref(),
                    packs.law_name,
                ),
                runs_test(&packs, &shift),
            ]
        },
        || {
            rayon::join(
                || amount_tests(spec, ways, &counts, &shift),
                || {
                    let positions = tier_positions(spec, ways, &counts);
                    let tests = rayon::join(
                        || positions_tests(&positions, n),
                        || {
                            positions
                                .par_iter()
                                .filter(|t| t.positions.len() >= GAP_MIN)
                                .map(|t| gaps_test(t, n, packs.constrained))
                                .collect::<Vec<_>>()
                        },
                    );
                    (positions, tests)
                },
            )
        },
    );
    let mut out = Vec::from(head);
    out.extend(amounts);
    let small: Vec<&TierPositions> = positions
        .iter()
        .filter(|t| t.positions.len() < KS_MIN)
        .collect();
    out.extend(tier_tests);
    let mut gaps = Vec::new();
    for (s, h) in gap_tests {
        out.push(s);
        gaps.push(h);
    }
    let mut pack_histogram = vec![0u64; packs.size + 1];
    for &w in &packs.full {
        pack_histogram[w as usize] += 1;
    }
    Evidence {
        statistics: out,
        packs: summary,
        small_tiers: small
            .iter()
            .map(|t| RareTier {
                amount: t.amount.clone(),
                count: t.positions.len(),
            })
            .collect(),
        gaps,
        pack_histogram,
        pack_pmf: packs.pmf,
        tickets: n as u64,
    }
}

/// What the block's packs hold in print order, and the law one full pack's winners follow.
struct Packs {
    /// Tickets in the block.
    n: usize,
    /// Tickets per pack.
    size: usize,
    /// Per ticket in print order: it wins.
    win: Vec<bool>,
    /// Winners in the block.
    winners: u64,
    /// Winners per pack, packs in print order.
    per_pack: Vec<u64>,
    /// Tickets per pack (the last may be short).
    sizes: Vec<u64>,
    /// Winners per full pack.
    full: Vec<u64>,
    /// True under pack constraints: the law is the allocation's, not the hypergeometric.
    constrained: bool,
    /// Chance of each number of winners in one full pack.
    pmf: Vec<f64>,
    /// The law's counts of win/lose orders in a full pack, when it has them.
    runs: Option<RunCounts>,
    /// The law's name, as the report says it.
    law_name: &'static str,
    /// Mean and standard deviation of one full pack's winners under the law.
    expected: f64,
    expected_sd: f64,
}

impl Packs {
    /// The packs of the arrangement `ways` of `spec` (`counts[w]`: its tickets of way `w`),
    /// under the pack constraints `rules`: under constraints, the law is the allocation's
    /// (packlaw); else hypergeometric.
    fn of(spec: &GameSpec, rules: &PackRules, ways: &[WayId], counts: &[u64]) -> Packs {
        let n = ways.len();
        let ps = spec.pack_size.max(1) as usize;
        let win: Vec<bool> = ways.iter().map(|&w| w != 0).collect();
        let winners = win.iter().filter(|&&b| b).count() as u64;
        let per_pack: Vec<u64> = win
            .chunks(ps)
            .map(|p| p.iter().filter(|&&w| w).count() as u64)
            .collect();
        let sizes: Vec<u64> = win.chunks(ps).map(|p| p.len() as u64).collect();
        let full: Vec<u64> = per_pack
            .iter()
            .zip(&sizes)
            .filter(|(_, &s)| s == ps as u64)
            .map(|(&w, _)| w)
            .collect();
        let counts: Vec<u32> = counts
            .iter()
            .map(|&c| u32::try_from(c).expect("a block holds fewer than 2³² tickets"))
            .collect();
        let law = (!rules.is_empty() && ps <= n)
            .then(|| PackSampler::new(spec, &counts, rules).ok())
            .flatten();
        let (pmf, runs, law_name) = match &law {
            Some(l) => (
                l.law().full_pack_pmf(ps as u32),
                l.full_orders().runs.clone(),
                "their law under the pack constraints",
            ),
            None if n > 0 && ps <= n => (
                stats::hypergeometric_pmf(n as u64, winners, ps as u64),
                None,
                "the hypergeometric law",
            ),
            None => (Vec::new(), None, "the hypergeometric law"),
        };
        let (expected, expected_sd) = match &law {
            Some(_) => {
                let m: f64 = pmf.iter().enumerate().map(|(c, q)| c as f64 * q).sum();
                let v: f64 = pmf
                    .iter()
                    .enumerate()
                    .map(|(c, q)| (c as f64 - m).powi(2) * q)
                    .sum();
                (m, v.sqrt())
            }
            None => hypergeometric_mean_sd(n as u64, winners, ps as u64),
        };
        Packs {
            n,
            size: ps,
            win,
            winners,
            per_pack,
            sizes,
            full,
            constrained: law.is_some(),
            pmf,
            runs,
            law_name,
            expected,
            expected_sd,
        }
    }

    /// The summary of winners per pack the report gives (the short last pack apart).
    fn summary(&self) -> PackSummary {
        let (n, ps, winners) = (self.n, self.size, self.winners);
        let packs = self.per_pack.len();
        let short_pack = self
            .sizes
            .last()
            .filter(|&&s| s < ps as u64)
            .map(|&tickets| {
                let (expected, expected_sd) = hypergeometric_mean_sd(n as u64, winners, tickets);
                ShortPack {
                    tickets,
                    expected,
                    expected_sd,
                }
            });
        match (&short_pack, self.full.is_empty()) {
            // No full pack: the one short pack is what there is to describe.
            (Some(sp), true) => PackSummary {
                packs,
                pack_size: ps as u64,
                full_packs: 0,
                min: winners,
                max: winners,
                pack_tickets: sp.tickets,
                mean: winners as f64,
                expected: sp.expected,
                expected_sd: sp.expected_sd,
                short_pack: short_pack.clone(),
            },
            _ => PackSummary {
                packs,
                pack_size: ps as u64,
                full_packs: self.full.len(),
                min: self.per_pack.iter().copied().min().unwrap_or(0),
                max: self.per_pack.iter().copied().max().unwrap_or(0),
                pack_tickets: ps as u64,
                mean: self.full.iter().sum::<u64>() as f64 / self.full.len().max(1) as f64,
                expected: self.expected,
                expected_sd: self.expected_sd,
                short_pack: short_pack.clone(),
            },
        }
    }

    /// How the pack constraints move the tests in print order. Under constraints two
    /// tickets of one full pack win together more or less often than under a plain
    /// shuffle: their correlation moves by Δρ (from the law's variance of one pack's
    /// winners), which moves the runs and the serial correlations' expectations.
    fn shift(&self) -> PackShift {
        let (ps, nf) = (self.size, self.n as f64);
        let p = self.winners as f64 / self.n.max(1) as f64;
        let pq = p * (1.0 - p);
        let drho = if self.constrained && pq > 0.0 && ps > 1 {
            let psf = ps as f64;
            (self.expected_sd * self.expected_sd - psf * pq) / (psf * (psf - 1.0) * pq)
                + 1.0 / (nf - 1.0)
        } else {
            0.0
        };
        PackShift {
            drho,
            pq,
            size: ps,
            full_share: (self.full.len() * ps) as f64 / nf.max(1.0),
        }
    }
}

/// `pack_dispersion`: winners per pack against their expectation (chi-square). Under
/// constraints, over full packs only; when every pack is full their sum is fixed: one
/// degree of freedom less, and the variance of one pack free of that condition (the
/// marginal's × n/(n − 1)).
fn dispersion_test(packs: &Packs, summary: &PackSummary) -> Statistic {
    let (full, expected, expected_sd) = (&packs.full, packs.expected, packs.expected_sd);
    let count = packs.per_pack.len();
    let dispersion = match packs.constrained {
        true if full.len() >= 2 && expected_sd > 0.0 => {
            let nfull = full.len() as f64;
            let fixed = full.len() == count;
            let var = expected_sd * expected_sd * if fixed { nfull / (nfull - 1.0) } else { 1.0 };
            let x2 = full
                .iter()
                .map(|&o| (o as f64 - expected).powi(2) / var)
                .sum();
            let df = full.len() - usize::from(fixed);
            Some(ChiSquare::new(x2, df as f64))
        }
        true => None,
        false => stats::pack_dispersion(&packs.per_pack, &packs.sizes),
    };
    let s = Statistic::new(
        "pack_dispersion",
        match packs.constrained {
            true => "winners per full pack against their expectation under the pack constraints (chi-square)",
            false => "winners per pack against their hypergeometric expectation (chi-square of packs × win/lose)",
        },
        count as u64,
    );
    match dispersion {
        Some(t) => s.chi(t).note(format!(
            "{} packs: {}..{} winners per pack, mean {:.2}, expected {:.2} ± {:.2}",
            count, summary.min, summary.max, summary.mean, expected, expected_sd
        )),
        None => s.note("needs at least two packs and both winners and losers"),
    }
}

/// `pack_distribution`: the distribution of winners per full pack against the law
/// (chi-square goodness of fit over bins each expecting at least [`MIN_EXPECTED`] packs).
fn distribution_test(packs: &Packs) -> Statistic {
    let full = &packs.full;
    let s = Statistic::new(
        "pack_distribution",
        format!(
            "distribution of winners per full pack against {} (chi-square goodness of fit)",
            packs.law_name
        ),
        full.len() as u64,
    );
    let mut hist = vec![0.0; packs.size + 1];
    for &w in full {
        hist[w as usize] += 1.0;
    }
    let exp: Vec<f64> = packs.pmf.iter().map(|q| q * full.len() as f64).collect();
    match stats::goodness_of_fit(&hist, &exp, MIN_EXPECTED) {
        Some((t, bins)) => {
            let mut s = s.chi(t).note(format!(
                "{} full packs in {} bins, each expecting at least {MIN_EXPECTED} packs",
                full.len(),
                bins.len()
            ));
            s.bins = bins
                .into_iter()
                .map(|(from, to, observed, expected)| Bin {
                    from,
                    to,
                    observed,
                    expected,
                })
                .collect();
            s
        }
        None => s.note(format!(
            "{} full packs: too few to form two bins expecting {MIN_EXPECTED} packs each",
            full.len()
        )),
    }
}

/// `runs`: Wald–Wolfowitz runs of win/lose in print order, their expectation moved by
/// `shift` under pack constraints.
fn runs_test(packs: &Packs, shift: &PackShift) -> Statistic {
    let s = Statistic::new(
        "runs",
        "Wald–Wolfowitz runs of win/lose in print order (two-sided)",
        packs.n as u64,
    );
    match stats::runs_test(&packs.win).map(|r| shift.runs(r, packs.full.len())) {
        Some(r) => s.with_p(r.z, None, r.p).note(format!(
            "{} runs, expected {:.1} ± {:.1} ({} winners, {} losers)",
            r.runs,
            r.expected,
            r.variance.sqrt(),
            r.n1,
            r.n2
        )),
        None => s.note("needs at least two winners and two losers"),
    }
}

/// `serial_amounts` and `serial_ranks`: the serial correlation of prize amounts, and of
/// their mid-ranks, in print order. Per way: its amount on a log scale, ln(1 + amount ÷
/// price), and the mid-rank of that amount among all tickets (`counts[w]`: the tickets of
/// way `w`); the series are read through the way ids (2 bytes per ticket), never built.
///
/// The log scale keeps the test calibrated: on amounts as they are, a block's one top prize
/// carries nearly all the variance, every r_k is then the prizes of the top prize's
/// neighbours divided by the top prize — about 0 — and Q sits far below its χ² law (p near
/// 1 in almost every honest block: a test that cannot fire). ln(1 + amount ÷ price) grows
/// with the amount but leaves no ticket most of the variance.
fn amount_tests(
    spec: &GameSpec,
    ways: &[WayId],
    counts: &[u64],
    shift: &PackShift,
) -> [Statistic; 2] {
    let price = spec.price.cents() as f64;
    let logs: Vec<f64> = spec
        .ways
        .iter()
        .map(|w| (w.amount.cents() as f64 / price).ln_1p())
        .collect();
    let amounts: Vec<f64> = spec
        .ways
        .iter()
        .map(|w| w.amount.cents() as f64 / 100.0)
        .collect();
    let ranks_of = stats::mid_rank_table(&amounts, counts);
    // The two series are read side by side.
    let (mut sa, ranks) = rayon::join(
        || {
            serial(
                "serial_amounts",
                "serial correlation of prize amounts, ln(1 + amount ÷ price), in print order, lags 1..10 (Ljung–Box)",
                ways,
                counts,
                &logs,
                shift,
            )
        },
        || {
            serial(
                "serial_ranks",
                "serial correlation of the ranks of prize amounts in print order, lags 1..10 (Ljung–Box)",
                ways,
                counts,
                &ranks_of,
                shift,
            )
        },
    );
    // Each r_k still weighs the larger prizes most: published per lag, they would hint at
    // the prizes beside the top prizes. Only Q and its p-value are given; the rank version
    // (every ticket weighing alike) keeps its lags.
    sa.lags.clear();
    sa.note = "Q over lags 1..10 of ln(1 + amount ÷ price); the correlation at each lag is not published: it weighs the top prizes most and would hint at the prizes of their neighbours".to_string();
    [sa, ranks]
}

/// The positions tests of the tiers `positions` of a block of `n` tickets, in tier order:
/// the small tiers pooled (`positions_small_tiers`), then one per tier of at least
/// [`KS_MIN`] tickets (`positions_<amount>`).
fn positions_tests(positions: &[TierPositions], n: usize) -> Vec<Statistic> {
    let small: Vec<&TierPositions> = positions
        .iter()
        .filter(|t| t.positions.len() < KS_MIN)
        .collect();
    let mut out: Vec<Statistic> = small_tiers_test(&small, n).into_iter().collect();
    let large: Vec<&TierPositions> = positions
        .iter()
        .filter(|t| t.positions.len() >= KS_MIN)
        .collect();
    out.par_extend(large.par_iter().map(|t| {
        let s = Statistic::new(
            format!("positions_{}", t.amount),
            format!(
                "positions of the tickets of tier {} against the uniform law (Kolmogorov–Smirnov)",
                t.amount
            ),
            t.positions.len() as u64,
        );
        ks(s, &t.positions, n)
    }));
    out
}

/// The print positions (1-based) of the tickets of every tier of `spec`, in memory only
/// (`counts[w]`: the tickets of way `w`, to make each tier's room at once).
fn tier_positions(spec: &GameSpec, ways: &[WayId], counts: &[u64]) -> Vec<TierPositions> {
    let mut tiers: Vec<TierPositions> = spec
        .tiers
        .iter()
        .map(|t| TierPositions {
            amount: t.amount.to_string(),
            positions: Vec::new(),
        })
        .collect();
    // Each tier's room made at once, from its ways' counts.
    for (w, &c) in spec.ways.iter().zip(counts) {
        if let Some(t) = w.tier {
            tiers[t].positions.reserve(c as usize);
        }
    }
    let tier_of: Vec<Option<usize>> = spec.ways.iter().map(|w| w.tier).collect();
    for (i, &w) in ways.iter().enumerate() {
        if let Some(t) = tier_of[w as usize] {
            tiers[t].positions.push(i as u32 + 1);
        }
    }
    tiers
}

/// `positions_small_tiers`: the positions of the tiers `small` (each with fewer than
/// [`KS_MIN`] tickets), pooled, against the uniform law over `n` positions; tested only
/// when the pool holds [`KS_MIN`] tickets. `None` when there is no small tier.
fn small_tiers_test(small: &[&TierPositions], n: usize) -> Option<Statistic> {
    if small.is_empty() {
        return None;
    }
    let mut pooled: Vec<u32> = small
        .iter()
        .flat_map(|t| t.positions.iter().copied())
        .collect();
    pooled.sort_unstable();
    let names: Vec<&str> = small.iter().map(|t| t.amount.as_str()).collect();
    let s = Statistic::new(
        "positions_small_tiers",
        format!(
            "positions of the pooled tiers with fewer than {KS_MIN} tickets ({}) against the uniform law (Kolmogorov–Smirnov)",
            names.join(", ")
        ),
        pooled.len() as u64,
    );
    Some(if pooled.len() >= KS_MIN {
        ks(s, &pooled, n)
    } else {
        s.note(format!(
            "not tested: {} tickets in all, fewer than {KS_MIN}; no test can tell a fair from a biased placement of so few tickets",
            pooled.len()
        ))
    })
}

/// Serial correlation test of the series `values[ways[t]]`.
/// How pack constraints move the expectations of the tests in print order: `drho`, the
/// change of the correlation of two tickets of one full pack winning (0 without
/// constraints); `pq` = p(1 − p) of the block's winning share; `full_share` of the tickets
/// in full packs of `size`.
struct PackShift {
    drho: f64,
    pq: f64,
    size: usize,
    full_share: f64,
}

impl PackShift {
    /// The runs test with its expectation moved: each adjacent pair within a full pack
    /// differs with chance 2pq(1 − ρ).
    fn runs(&self, mut r: stats::Runs, full_packs: usize) -> stats::Runs {
        if self.drho != 0.0 {
            r.expected -= 2.0 * self.pq * self.drho * (full_packs * (self.size - 1)) as f64;
            r.z = (r.runs as f64 - r.expected) / r.variance.sqrt();
            r.p = stats::normal_two_sided(r.z);
        }
        r
    }

    /// The move of E[r_k], k = 1..=[`MAX_LAG`], of the series `values[way]` over a block
    /// with `counts[w]` tickets of way `w`:
    /// pairs k apart in one full pack (a share (size − k)/size of the full packs' pairs)
    /// covary by (mean winner value − loser value)² × pq × Δρ more, over the variance.
    fn serial(&self, counts: &[u64], values: &[f64]) -> Vec<f64> {
        let n = counts.iter().sum::<u64>() as f64;
        if self.drho == 0.0 || n == 0.0 {
            return Vec::new();
        }
        let mean = counts
            .iter()
            .zip(values)
            .map(|(&c, v)| c as f64 * v)
            .sum::<f64>()
            / n;
        let var = counts
            .iter()
            .zip(values)
            .map(|(&c, v)| c as f64 * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        let winners: u64 = counts[1..].iter().sum();
        if var <= 0.0 || winners == 0 {
            return Vec::new();
        }
        let mean_w = counts[1..]
            .iter()
            .zip(&values[1..])
            .map(|(&c, v)| c as f64 * v)
            .sum::<f64>()
            / winners as f64;
        let cov = (mean_w - values[0]).powi(2) * self.pq * self.drho / var;
        (1..=MAX_LAG)
            .map(|k| cov * self.full_share * self.size.saturating_sub(k) as f64 / self.size as f64)
            .collect()
    }
}

/// The serial-correlation test `id` of the series `values[way]` over `ways`, whose way
/// counts are `counts`: Ljung–Box over lags 1..=[`MAX_LAG`], shifted by the pack law.
fn serial(
    id: &str,
    test: &str,
    ways: &[WayId],
    counts: &[u64],
    values: &[f64],
    shift: &PackShift,
) -> Statistic {
    let s = Statistic::new(id, test, ways.len() as u64);
    match stats::autocorrelations_coded::<MAX_LAG>(ways, values) {
        Some(r) => {
            let (lags, q) = stats::ljung_box_shifted(&r, ways.len(), &shift.serial(counts, values));
            let worst = lags
                .iter()
                .max_by(|a, b| a.z.abs().total_cmp(&b.z.abs()))
                .expect("lags");
            let mut s = s.chi(q).note(format!(
                "largest |z| at lag {}: r = {:.5}, z = {:.2}; |r_k| of an honest block is about 1/√N = {:.5}",
                worst.lag,
                worst.r,
                worst.z,
                1.0 / (ways.len() as f64).sqrt()
            ));
            s.lags = lags
                .into_iter()
                .map(|l| LagResult {
                    lag: l.lag,
                    r: l.r,
                    z: l.z,
                    p_value: l.p,
                })
                .collect();
            s
        }
        None => s.note("needs at least two distinct values and more tickets than lags"),
    }
}

/// Kolmogorov–Smirnov test of 1-based positions (ascending) in a block of `n` tickets.
/// Positions are mapped to the middle of their cell, u = (pos − ½)/n; since a tier's
/// positions are drawn without replacement, the effective size is m·(n − 1)/(n − m) (the
/// finite-population correction of the empirical distribution's variance).
fn ks(s: Statistic, positions: &[u32], n: usize) -> Statistic {
    let u: Vec<f64> = positions
        .iter()
        .map(|&p| (f64::from(p) - 0.5) / n as f64)
        .collect();
    let m = u.len() as f64;
    let d = stats::ks_uniform(&u);
    let n_eff = if (n as f64) > m {
        m * (n as f64 - 1.0) / (n as f64 - m)
    } else {
        m
    };
    let p = stats::ks_p(d, n_eff);
    s.with_p(d, None, p).note(format!(
        "D = {d:.4} on {} positions (effective size {n_eff:.0})",
        positions.len()
    ))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::alloc::allocate;
    use crate::crypto::rng::{below, stream, Purpose, Seed};
    use std::path::Path;

    fn counts(s: &GameSpec) -> Vec<u32> {
        s.ways.iter().map(|w| w.count).collect()
    }

    fn small() -> GameSpec {
        GameSpec::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_small.toml"))
            .unwrap()
    }

    fn seed(k: u32) -> Seed {
        let mut s = [0u8; 32];
        s[..4].copy_from_slice(&k.to_le_bytes());
        s[31] = 0xa5;
        Seed(s)
    }

    fn get<'a>(e: &'a Evidence, id: &str) -> &'a Statistic {
        e.statistics.iter().find(|s| s.id == id).unwrap()
    }

    #[test]
    fn small_block_runs_every_test_it_can() {
        let s = small();
        let e = analyze(
            &s,
            &PackRules::default(),
            &allocate(&counts(&s), &seed(0), 1),
        );
        let ids: Vec<&str> = e.statistics.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "pack_dispersion",
                "pack_distribution",
                "pack_after_losses",
                "runs",
                "serial_amounts",
                "serial_ranks",
                "positions_small_tiers",
                "positions_18",
                "positions_8",
                "positions_4",
                "positions_2"
            ]
        );
        // 20000, 1000, 200, 30: 1 + 1 + 2 + 3 = 7 tickets, too few to test.
        let small_t = get(&e, "positions_small_tiers");
        assert_eq!(small_t.result, "not run");
        assert_eq!(small_t.n, 7);
        assert_eq!(e.small_tiers.len(), 4);
        assert_eq!(e.small_tiers[0].count, 1);
        assert_eq!(e.packs.packs, 20);
        // 20 full packs, holding the 919 winners between them.
        assert_eq!(e.pack_histogram.iter().sum::<u64>(), 20);
        let held: u64 = (0u64..).zip(&e.pack_histogram).map(|(k, &p)| k * p).sum();
        assert_eq!(held, 919);
        assert!((e.packs.expected - 150.0 * 919.0 / 3000.0).abs() < 1e-12);
        for id in ids.iter().filter(|i| **i != "positions_small_tiers") {
            assert_ne!(get(&e, id).result, "not run", "{id}");
        }
        // Per-lag correlations of the amounts are the top prize's neighbours' prizes
        // (r_k·SS/(top − mean) + 2·mean is a_{t−k} + a_{t+k}): never published.
        let sa = get(&e, "serial_amounts");
        assert!(sa.lags.is_empty());
        assert!(!sa.note.contains("r ="), "{}", sa.note);
        assert!(sa.p_value.is_some());
        assert_eq!(get(&e, "serial_ranks").lags.len(), MAX_LAG);
    }

    /// The false-alarm rate: over 200 honest small blocks, each test flags at most 4 % of
    /// them at the 1 % level (8 of 200; the expected number is 2). And no test sits near
    /// p = 1 (at least 2.5 % of its p-values below 0.10, nominally 10 %), which would mean a
    /// test that cannot see anything. (The per-pack distribution, with 20 packs and 3 bins,
    /// is conservative, about 4 % below 0.10.)
    /// Blocks drawn under pack constraints, read against the law under them: the per-pack
    /// tests, the runs and the serial correlation of ranks flag about as often as their nominal level (at most 4 % at 1 %, 2.5..=20 % at
    /// 10 %, over 200 blocks; the per-pack distribution, 20 packs in 3 bins, is
    /// conservative). Read against the hypergeometric law, the same blocks' winners per
    /// pack are too even (p > 0.99 in at least 20 of the 200 blocks, 2 expected).
    #[test]
    fn constrained_blocks_are_read_against_their_own_law() {
        let s = small();
        let rules = PackRules {
            min_winners: Some(42),
            max_losers_in_a_row: Some(16),
            ..PackRules::default()
        };
        let blocks = 200;
        let mut flags: std::collections::BTreeMap<String, (u32, u32)> = Default::default();
        let mut naive = 0;
        for k in 0..blocks {
            let (ways, _) =
                crate::alloc::allocate_packs(&s, &counts(&s), &rules, &seed(k), 1).unwrap();
            let e = analyze(&s, &rules, &ways);
            let in_order = ["runs", "serial_ranks"];
            for st in e
                .statistics
                .iter()
                .filter(|st| st.id.starts_with("pack_") || in_order.contains(&st.id.as_str()))
            {
                let p = st.p_value.unwrap();
                let f = flags.entry(st.id.clone()).or_default();
                f.0 += u32::from(p < 0.01);
                f.1 += u32::from(p < 0.10);
            }
            let h = analyze(&s, &PackRules::default(), &ways);
            naive += u32::from(get(&h, "pack_dispersion").p_value.unwrap() > 0.99);
        }
        assert_eq!(flags.len(), 5, "{flags:?}");
        for (id, (f1, f10)) in &flags {
            assert!(*f1 <= blocks * 4 / 100, "{id}: {flags:?}");
            assert!((5..=40).contains(f10), "{id}: {flags:?}");
        }
        // Too even for the hypergeometric law: p near 1 in many blocks.
        assert!(naive >= 20, "{naive}");
    }

    #[test]
    fn false_alarm_rate_stays_near_its_nominal_level() {
        let s = small();
        let blocks = 200;
        let mut flags: std::collections::BTreeMap<String, (u32, u32, u32)> = Default::default();
        for k in 0..blocks {
            let e = analyze(
                &s,
                &PackRules::default(),
                &allocate(&counts(&s), &seed(k), 1),
            );
            for st in &e.statistics {
                let Some(p) = st.p_value else { continue };
                let f = flags.entry(st.id.clone()).or_default();
                f.0 += u32::from(p < 0.01);
                f.1 += u32::from(p < 0.10);
                f.2 += 1;
            }
        }
        assert_eq!(flags.len(), 10, "{flags:?}");
        for (id, (f1, f10, runs)) in &flags {
            assert_eq!(*runs, blocks, "{id}");
            assert!(
                *f1 <= blocks * 4 / 100,
                "{id}: {f1} of {blocks} flagged at 1 %"
            );
            assert!(
                *f10 >= blocks / 40,
                "{id}: only {f10} of {blocks} below 0.10"
            );
        }
    }

    /// The serial correlation of amounts can fire: over 20 honest small blocks its p-value
    /// is spread out, not pinned near 1 (under a uniform law, 18 of 20 are below 0.9; on
    /// amounts as they are, with the top prize carrying the variance, almost none were).
    #[test]
    fn serial_amounts_p_values_spread_over_honest_blocks() {
        let s = small();
        let ps: Vec<f64> = (0..20)
            .map(|k| {
                let e = analyze(
                    &s,
                    &PackRules::default(),
                    &allocate(&counts(&s), &seed(k), 1),
                );
                get(&e, "serial_amounts").p_value.unwrap()
            })
            .collect();
        let below = ps.iter().filter(|&&p| p < 0.9).count();
        assert!(below >= 12, "{below} of 20 below 0.9: {ps:?}");
        assert!(ps.iter().any(|&p| p < 0.5), "{ps:?}");
    }

    /// A planted pattern: the honest shuffle, then every ticket whose number ends in 7
    /// (positions 7, 17, 27, …) made a winner by swapping it with a winner elsewhere. The
    /// serial correlation of amounts finds it (a period of 10 tickets): an exception, with
    /// p below 10⁻⁶.
    #[test]
    fn winners_planted_on_tickets_ending_in_7_are_an_exception() {
        let s = small();
        let mut ways = allocate(&counts(&s), &seed(0), 1);
        let sevens = |i: usize| (i + 1) % 10 == 7;
        let mut donors: Vec<usize> = (0..ways.len())
            .filter(|&i| !sevens(i) && ways[i] != 0)
            .collect();
        for i in (0..ways.len()).filter(|&i| sevens(i)) {
            if ways[i] == 0 {
                let j = donors.pop().expect("enough winners");
                ways.swap(i, j);
            }
        }
        assert!(ways.iter().enumerate().all(|(i, &w)| !sevens(i) || w != 0));
        let e = analyze(&s, &PackRules::default(), &ways);
        let sa = get(&e, "serial_amounts");
        assert_eq!(sa.result, "exception");
        assert!(sa.p_value.unwrap() < 1e-6, "{:?}", sa.p_value);
        let honest = analyze(
            &s,
            &PackRules::default(),
            &allocate(&counts(&s), &seed(0), 1),
        );
        assert_eq!(get(&honest, "serial_amounts").result, "no exception");
    }

    /// A test-only biased allocator: the honest shuffle, then each winner in the last five
    /// packs is swapped, with probability ½, with a random loser of the first five packs.
    fn biased_towards_first_packs(spec: &GameSpec, k: u32) -> Vec<WayId> {
        let mut ways = allocate(&counts(spec), &seed(k), 1);
        let mut rng = stream(&seed(k), Purpose::Faces, 1, 999);
        let ps = spec.pack_size as usize;
        let n = ways.len();
        for i in n - 5 * ps..n {
            if ways[i] != 0 && below(&mut rng, 2) == 0 {
                for _ in 0..100 {
                    let j = below(&mut rng, (5 * ps) as u32) as usize;
                    if ways[j] == 0 {
                        ways.swap(i, j);
                        break;
                    }
                }
            }
        }
        ways
    }

    #[test]
    fn a_biased_allocator_is_caught() {
        let s = small();
        for k in 0..20 {
            let e = analyze(
                &s,
                &PackRules::default(),
                &biased_towards_first_packs(&s, k),
            );
            let d = get(&e, "pack_dispersion");
            assert_eq!(d.result, "exception", "block {k}: {d:?}");
            assert!(d.p_value.unwrap() < 1e-6, "block {k}: {d:?}");
        }
    }

    /// A test-only allocator that spreads winners too evenly: winners and losers dealt
    /// in a fixed rhythm. The runs test sees the alternation.
    #[test]
    fn a_too_regular_allocation_is_caught_by_the_runs_test() {
        let s = small();
        let honest = allocate(&counts(&s), &seed(3), 1);
        let mut winners: Vec<WayId> = honest.iter().copied().filter(|&w| w != 0).collect();
        let losers = honest.len() - winners.len();
        let mut ways = Vec::with_capacity(honest.len());
        // Loser, loser, winner, … until one kind runs out.
        let mut l = losers;
        while !winners.is_empty() || l > 0 {
            for _ in 0..2 {
                if l > 0 {
                    ways.push(0);
                    l -= 1;
                }
            }
            if let Some(w) = winners.pop() {
                ways.push(w);
            }
        }
        let e = analyze(&s, &PackRules::default(), &ways);
        let r = get(&e, "runs");
        assert_eq!(r.result, "exception");
        assert!(r.statistic.unwrap() > 10.0, "{r:?}");
    }

    /// The small spec on a block of 30 000 tickets with 1 000 more 2 € tickets: a tier of
    /// 1 432 tickets, whose gaps are tested.
    pub(in crate::audit) fn with_a_large_tier() -> GameSpec {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/specs/coq_small.toml");
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("lots = 919", "lots = 1_919")
            .replace("payout = 25_294", "payout = 27_294")
            .replace("count = 432", "count = 1_432")
            .replace("block_size = 3_000", "block_size = 30_000");
        GameSpec::parse(&path, text).unwrap()
    }

    #[test]
    fn gap_law_bins_are_the_enumerated_law() {
        // Every 3 tickets of 10: the gaps between consecutive ones, counted.
        let n = 10u64;
        let mut counts = [0u64; 10];
        for a in 1..=n {
            for b in a + 1..=n {
                for c in b + 1..=n {
                    counts[(b - a) as usize] += 1;
                    counts[(c - b) as usize] += 1;
                }
            }
        }
        let total: u64 = counts.iter().sum();
        let bins = gap_law_bins(n, 3, 4);
        let ranges: Vec<(u64, Option<u64>)> = bins.iter().map(|b| (b.0, b.1)).collect();
        assert_eq!(
            ranges,
            [(1, Some(1)), (2, Some(2)), (3, Some(3)), (4, None)]
        );
        for (from, to, q) in bins {
            let brute: u64 = (from..=to.unwrap_or(8)).map(|d| counts[d as usize]).sum();
            assert!(
                (q - brute as f64 / total as f64).abs() < 1e-12,
                "{from}: {q}"
            );
        }
        assert!(gap_law_bins(10, 1, 4).is_empty());
    }

    /// A tier of 1 432 tickets: its gaps are tested and binned (20 bins, every gap counted,
    /// each bin expecting many gaps: 35 or more, the law being discrete); spread evenly (every twentieth ticket), the
    /// tier's gaps are an exception.
    #[test]
    fn a_large_tier_too_evenly_spread_is_caught_by_its_gaps() {
        let s = with_a_large_tier();
        let honest = allocate(&counts(&s), &seed(5), 1);
        let e = analyze(&s, &PackRules::default(), &honest);
        assert_eq!(e.gaps.len(), 1);
        let g = &e.gaps[0];
        assert_eq!(
            (g.amount.as_str(), g.count, g.bins.len()),
            ("2", 1432, GAP_BINS)
        );
        assert_eq!(g.bins.iter().map(|b| b.observed).sum::<u64>(), 1431);
        for b in &g.bins {
            assert!(b.expected >= 35.0, "{:?}", g.bins);
        }
        let expected: f64 = g.bins.iter().map(|b| b.expected).sum();
        assert!((expected - 1431.0).abs() < 1e-6, "{expected}");
        let t = get(&e, "gaps_2");
        assert_ne!(t.result, "not run");
        assert_eq!(t.df, Some((GAP_BINS - 1) as f64));

        let two = s.ways.iter().position(|w| w.id == "2").unwrap() as WayId;
        let others: Vec<WayId> = honest.iter().copied().filter(|&w| w != two).collect();
        let mut even = Vec::with_capacity(honest.len());
        let mut rest = others.into_iter();
        let mut left = 1432;
        for i in 0..honest.len() {
            if i % 20 == 19 && left > 0 {
                even.push(two);
                left -= 1;
            } else {
                even.push(rest.next().unwrap());
            }
        }
        let e = analyze(&s, &PackRules::default(), &even);
        let t = get(&e, "gaps_2");
        assert_eq!(t.result, "exception", "{t:?}");
        assert!(t.p_value.unwrap() < 1e-6, "{t:?}");
    }

    /// The top prize always in the first pack (a predictable placement) is seen by the
    /// position test of a tier once the tier is large enough: every 2 € winner in the first
    /// half of the block.
    #[test]
    fn a_tier_placed_in_half_the_block_is_caught_by_kolmogorov_smirnov() {
        let s = small();
        let mut ways = allocate(&counts(&s), &seed(4), 1);
        let two = s.ways.iter().position(|w| w.id == "2").unwrap() as WayId;
        let half = ways.len() / 2;
        for i in half..ways.len() {
            if ways[i] == two {
                let j = (0..half).find(|&j| ways[j] == 0).unwrap();
                ways.swap(i, j);
            }
        }
        let e = analyze(&s, &PackRules::default(), &ways);
        let t = get(&e, "positions_2");
        assert_eq!(t.result, "exception");
        assert!(t.statistic.unwrap() > 0.4, "{t:?}");
    }
}
