//! `tirage check SPEC`: validate a spec and print its lot table, ways, odds and payout.

use super::Outcome;
use anyhow::Result;
use std::path::PathBuf;
use tirage::money::Money;
use tirage::spec::GameSpec;

/// Arguments of `tirage check`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  tirage check game_specs/coq.toml")]
pub struct Args {
    /// The game spec (TOML), e.g. game_specs/coq.toml.
    spec: PathBuf,
}

pub fn run(a: Args) -> Result<Outcome> {
    let spec = GameSpec::load(&a.spec)?;
    print!("{}", report(&spec));
    Ok(Outcome::Success)
}

/// The text `check` prints.
fn report(spec: &GameSpec) -> String {
    let mut s = String::new();
    let n = f64::from(spec.block_size);
    s += &format!("{} — {} ({})\n", spec.id, spec.name, spec.legal_reference);
    if spec.reconstructed {
        s += "NOTE: the lot table is a RECONSTRUCTION, not the published table.\n";
    }
    if let Some(note) = &spec.note {
        s += &format!("the spec's note: {note}\n");
    }
    s += &format!(
        "mechanic {}, price {} {}, block {} tickets in {} packs of {}, game code {:04}, emission {:03}\n\n",
        spec.mechanic.name(),
        spec.price,
        spec.currency,
        spec.block_size,
        spec.packs(),
        spec.pack_size,
        spec.game_code,
        spec.emission
    );
    s += &format!(
        "{:>12} {:>10} {:>14} {:>16}  ways\n",
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
                        Some(a) => format!("{}@{}", x.amount, spec.mechanic.areas()[a as usize]),
                        None => x.amount.to_string(),
                    })
                    .collect();
                format!("{} ×{} [{}]", w.id, w.count, areas.join(" + "))
            })
            .collect();
        s += &format!(
            "{:>12} {:>10} {:>14.2} {:>16}  {}{}\n",
            t.amount.to_string(),
            t.count,
            n / f64::from(t.count),
            Money(t.amount.cents() * u64::from(t.count)).to_string(),
            ways.join(", "),
            if t.combined_only {
                "  (combined only)"
            } else {
                ""
            }
        );
    }
    let lots = spec.lots();
    let sales = Money(spec.price.cents() * u64::from(spec.block_size));
    s += &format!(
        "{:>12} {:>10} {:>14.2} {:>16}  (published: {} lots, {})\n",
        "total",
        lots,
        n / lots as f64,
        spec.payout().to_string(),
        spec.published_lots,
        spec.published_payout
    );
    s += &format!(
        "losers {} ; sales {} {} ; payout ratio {:.4}\n\n",
        spec.ways[0].count,
        sales,
        spec.currency,
        spec.payout().cents() as f64 / sales.cents() as f64
    );
    if !spec.pack_rules.is_empty() {
        s += "pack constraints:\n";
        for r in spec.pack_rules.describe() {
            s += &format!("  {r}\n");
        }
        s += "\n";
    }
    s += "captions:\n";
    for (m, c) in &spec.captions {
        s += &format!("  {m:>10}  {c}\n");
    }
    s += "\n";
    for line in spec.mechanic.describe() {
        s += &format!("{line}\n");
    }
    s += "\nspec OK\n";
    s
}
