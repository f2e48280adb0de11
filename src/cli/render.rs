//! `tirage render DIR --tickets 1,5,9`: SVG proofs of chosen tickets.

use super::Outcome;
use anyhow::{Context, Result};
use std::path::PathBuf;
use tirage::output::manifest::Manifest;
use tirage::output::{CSV, MANIFEST, SPEC};
use tirage::render::{find_rows, ticket_svg};
use tirage::spec::GameSpec;

/// Arguments of `tirage render`.
#[derive(clap::Args, Debug)]
#[command(
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
    let spec = GameSpec::load(&a.dir.join(SPEC))?;
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(a.dir.join(MANIFEST))
            .with_context(|| format!("cannot read {}", a.dir.join(MANIFEST).display()))?,
    )
    .with_context(|| format!("{} does not parse", a.dir.join(MANIFEST).display()))?;
    let out = a.out.clone().unwrap_or_else(|| a.dir.join("proofs"));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let rows = find_rows(&a.dir.join(CSV), &a.tickets)?;
    for (t, row) in a.tickets.iter().zip(rows) {
        let svg = ticket_svg(&spec, manifest.kind, &row)?;
        let path = out.join(format!("ticket-{t}.svg"));
        std::fs::write(&path, svg).with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(Outcome::Success)
}
