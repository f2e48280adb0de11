//! `tirage check SPEC`: validate a spec and print its lot table, ways, odds and payout, and
//! its rules in words beside its legal reference ([`tirage::spec::words`]).

use super::Outcome;
use anyhow::Result;
use std::path::PathBuf;
use tirage::alloc::{self, packlaw, stats};
use tirage::money::{grouped, Money};
use tirage::spec::GameSpec;

/// Arguments of `tirage check`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Loads the spec as generate does (every field, rule, way and pack constraint), \
then prints its lot table, ways, odds, payout, pack law and its rules in words beside the legal \
reference; with -q, one line. Warnings (a payout above sales, a play area printed without a \
label) go to stderr and do not change the exit status.\n\n\
Exit status: 0 the spec is valid, 2 it is not, or cannot be read (the error names the file, \
the field, its line and what was expected).\n\n\
Examples:\n  tirage check game_specs/coq.toml\n  tirage check -q game_specs/coq.toml"
)]
pub(super) struct Args {
    /// The game spec (TOML), e.g. game_specs/coq.toml.
    spec: PathBuf,
    /// The verdict alone: one line saying the spec is valid (an invalid spec is an error,
    /// exit 2, as without -q).
    #[arg(short, long)]
    quiet: bool,
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    let spec = GameSpec::load(&a.spec)?;
    let packs = pack_law(&spec).map_err(|e| anyhow::anyhow!("{}: {e}", a.spec.display()))?;
    for w in [spec.payout_above_sales(), spec.unlabelled()]
        .into_iter()
        .flatten()
    {
        errln!("tirage: warning: {w}");
    }
    if a.quiet {
        outln!(
            "{}: valid ({}, {} tiers, {} ways, blocks of {} tickets)",
            a.spec.display(),
            spec.id,
            spec.tiers.len(),
            spec.ways.len() - 1,
            grouped(u64::from(spec.block_size))
        );
    } else {
        out!("{}", report(&spec, &packs));
    }
    Ok(Outcome::Success)
}

/// Winner vectors and shuffles of the ways each that `check` draws to estimate the pack law.
const DRAWS: u32 = 4;
const SHUFFLES: u32 = 10;

/// What the pack constraints do to the allocation's law, in words; an error naming the
/// constraint when they cannot be met (exactly, or in practice: no proposal kept).
pub(super) fn pack_law(spec: &GameSpec) -> Result<String> {
    let rules = &spec.pack_rules;
    if rules.is_empty() {
        return Ok(String::new());
    }
    let counts: Vec<u32> = spec.ways.iter().map(|w| w.count).collect();
    let e = alloc::estimate(spec, &counts, rules, DRAWS, SHUFFLES)?;
    if e.kept == 0 {
        let (c, n) = e
            .breaks
            .iter()
            .copied()
            .max_by_key(|&(c, n)| (n, std::cmp::Reverse(c)))
            .expect("a dropped proposal broke a constraint");
        anyhow::bail!(
            "{} ({}): broke {n} of {} proposals, no proposal met every constraint: it cannot be met in practice for this lot table",
            c.field(),
            rules.describe_one_in(c, &spec.currency),
            e.proposals
        );
    }
    let ps = u64::from(spec.pack_size);
    let (n, k) = (u64::from(spec.block_size), spec.lots());
    let pmf = stats::hypergeometric_pmf(n, k, ps);
    let mean = (ps * k) as f64 / n as f64;
    let var = pmf
        .iter()
        .enumerate()
        .map(|(c, p)| p * (c as f64 - mean).powi(2))
        .sum::<f64>();
    let mut s = String::from("pack constraints:\n");
    for c in rules.constraints() {
        s += &format!(
            "  {}  ({})\n",
            rules.describe_one_in(c, &spec.currency),
            c.field()
        );
    }
    s += &format!(
        "winners per full pack: without constraints mean {mean:.2}, sd {:.2} (hypergeometric)\n",
        var.sqrt()
    );
    if let Some(m) = rules.min_winners {
        let below: f64 = pmf[..m as usize].iter().sum();
        s += &format!(
            "  without packs.min_winners, {:.4} % of full packs would hold fewer than {m}\n",
            100.0 * below
        );
    }
    let (wm, wsd, lo, hi) = e.winners;
    s += &format!(
        "winners per full pack under the constraints: mean {wm:.2}, sd {wsd:.2}, {lo}..{hi} (from {DRAWS} drawn blocks, about {:.0} tries each)\n",
        e.tries
    );
    // The pack-exploitation risk: what a buyer who watched a pack's first tickets lose can
    // expect of the next one.
    let plain = packlaw::after_losses(&pmf, spec.pack_size, None);
    let i = (spec.pack_size as usize / 3)
        .min(50)
        .min(rules.max_losers_in_a_row.unwrap_or(u32::MAX) as usize);
    s += &format!(
        "once a full pack's first {i} tickets lost, its next one wins with chance {:.1} % under the constraints ({:.1} % without; its first ticket {:.1} %)\n",
        100.0 * e.after_losses[i],
        100.0 * plain[i],
        100.0 * e.after_losses[0]
    );
    if e.caps_by_construction {
        s += "  the caps per pack and per carton are met by construction\n";
    } else if !rules.max_from_tier.is_empty() || !rules.max_per_carton.is_empty() {
        s += "  the caps per pack and per carton hold too many tickets to tabulate: they are met by rejection\n";
    }
    for (c, n) in &e.breaks {
        s += &format!(
            "  {} is met by rejection: it broke {n} of {} proposals\n",
            c.field(),
            e.proposals
        );
    }
    s += &format!(
        "the constraints can be met: {} of {} proposals kept (generate draws until one is, at most {})\n\n",
        e.kept,
        e.proposals,
        alloc::MAX_ROUNDS
    );
    Ok(s)
}

/// `x` with two decimals and thousands separators: `1,125,000.00`.
fn odds(x: f64) -> String {
    let text = format!("{x:.2}");
    match text.split_once('.') {
        Some((units, cents)) => match units.parse::<u64>() {
            Ok(u) => format!("{}.{cents}", grouped(u)),
            Err(_) => text,
        },
        None => text,
    }
}

/// The text `check` prints: counts with thousands separators, amounts with the currency.
fn report(spec: &GameSpec, packs: &str) -> String {
    let mut s = String::new();
    let n = f64::from(spec.block_size);
    let cur = spec.currency.as_str();
    let count = |c: u64| grouped(c);
    s += &format!("{} — {} ({})\n", spec.id, spec.name, spec.legal_reference);
    if spec.reconstructed {
        s += "NOTE: the lot table is a RECONSTRUCTION, not the published table.\n";
    }
    if let Some(note) = &spec.note {
        s += &format!("the spec's note: {note}\n");
    }
    s += &format!(
        "play styles {}, price {}, block {} tickets in {} packs of {}, game code {:04}, emission {:03}\n\n",
        style_names(spec),
        spec.price.with_currency(cur),
        count(u64::from(spec.block_size)),
        count(u64::from(spec.packs())),
        count(u64::from(spec.pack_size)),
        spec.game_code,
        spec.emission
    );
    s += &format!(
        "{:>14} {:>10} {:>14} {:>18}  ways\n",
        "amount", "count", "odds 1 in", "payout"
    );
    for t in &spec.tiers {
        let ways: Vec<String> = t
            .ways
            .iter()
            .map(|&w| {
                let w = &spec.ways[w as usize];
                let areas: Vec<String> = w
                    .wins
                    .iter()
                    .map(|x| match x.area {
                        Some(a) => format!("{}@{}", x.amount, spec.game.layout().areas[a as usize]),
                        None => x.amount.to_string(),
                    })
                    .collect();
                format!(
                    "{} ×{} [{}]",
                    w.id,
                    count(u64::from(w.count)),
                    areas.join(" + ")
                )
            })
            .collect();
        s += &format!(
            "{:>14} {:>10} {:>14} {:>18}  {}{}\n",
            t.amount.with_currency(cur),
            count(u64::from(t.count)),
            odds(n / f64::from(t.count)),
            Money(t.amount.cents() * u64::from(t.count)).with_currency(cur),
            ways.join(", "),
            match (&t.item, t.combined_only) {
                (Some(item), _) =>
                    format!("  (item: {item}, not money; amount is its stated value)"),
                (None, true) => "  (combined only)".into(),
                (None, false) => String::new(),
            }
        );
    }
    let lots = spec.lots();
    let sales = spec.sales();
    s += &format!(
        "{:>14} {:>10} {:>14} {:>18}  (published: {} lots, {})\n",
        "total",
        count(lots),
        odds(n / lots as f64),
        spec.payout().with_currency(cur),
        count(spec.published_lots),
        spec.published_payout.with_currency(cur)
    );
    let ratio = |m: Money| 100.0 * m.cents() as f64 / sales.cents() as f64;
    if spec.has_items() {
        s += &format!(
            "cash payout {} ({:.2} %) ; items at their stated value {} ({:.2} %) ; total {}\n",
            spec.cash_payout().with_currency(cur),
            ratio(spec.cash_payout()),
            spec.item_value().with_currency(cur),
            ratio(spec.item_value()),
            spec.payout().with_currency(cur)
        );
    }
    s += &format!(
        "losers {} ; sales {} ; payout ratio {:.2} %\n\n",
        count(u64::from(spec.ways[0].count)),
        sales.with_currency(cur),
        ratio(spec.payout())
    );
    s += packs;
    s += "captions:\n";
    for (m, c) in &spec.captions {
        s += &format!("  {:>14}  {c}\n", m.with_currency(cur));
    }
    s += "\n";
    s += &tirage::spec::words::text(spec);
    s += "\nspec OK\n";
    s
}

/// The play styles of the spec's surfaces, each once, in surface order (`reveal, compare`).
fn style_names(spec: &GameSpec) -> String {
    let mut names: Vec<&str> = Vec::new();
    for s in spec.game.surfaces() {
        if !names.contains(&s.style) {
            names.push(s.style);
        }
    }
    names.join(", ")
}
