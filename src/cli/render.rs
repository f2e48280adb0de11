//! `tirage render DIR --tickets 1,5,9`: SVG proofs of chosen tickets.

use super::Outcome;
use anyhow::{Context, Result};
use std::path::PathBuf;
use tirage::render::{load, ticket_svg};

/// Arguments of `tirage render`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Draw SVG proofs of chosen tickets of a block or deck.\n\n\
A proof shows what will be printed and what the rules give for it. First the block's \
SHA256SUMS must match spec.toml, manifest.json, tickets.bin and tickets.csv (each file is \
read once; the rest of verify is not run), spec.toml must load and the manifest describe \
its game. Each ticket's face, serial, pack and position come from its record in \
tickets.bin (the print file); its prize and way come from the spec's rules evaluating that \
face. Its tickets.csv row must be the row of that record, prize and way. A digest that \
differs, a face the rules judge ambiguous or whose wins are no way of the spec, or a CSV \
row that differs is an error (exit 2), and no proof is written.",
    after_help = "Example:\n  tirage render output/coq/block-001 --tickets 1,5,9 --out /tmp/proofs"
)]
pub struct Args {
    /// The block (or deck) directory.
    dir: PathBuf,
    /// Ticket numbers (1-based, print order), comma-separated.
    #[arg(long, value_delimiter = ',', required = true)]
    tickets: Vec<u32>,
    /// Output directory for ticket-<N>.svg. Default: <DIR>/proofs.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<Outcome> {
    // Every check and every drawing before the first file is written.
    let proofs = load(&a.dir, &a.tickets)?;
    let svgs = proofs
        .tickets
        .iter()
        .map(|t| ticket_svg(&proofs.spec, proofs.manifest.kind, t))
        .collect::<Result<Vec<_>, _>>()?;
    let out = a.out.clone().unwrap_or_else(|| a.dir.join("proofs"));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    for (t, svg) in a.tickets.iter().zip(svgs) {
        let path = out.join(format!("ticket-{t}.svg"));
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(Outcome::Success)
}
