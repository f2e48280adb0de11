//! `tirage render DIR --tickets 1,5,9`: SVG proofs of chosen tickets.

use super::Outcome;
use anyhow::{Context, Result};
use std::path::PathBuf;
use tirage::render::{load, ticket_svg, PROOFS};

/// Arguments of `tirage render`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A proof's face, serial, pack and position come from the ticket's record in \
tickets.bin; its prize and way from the spec's rules (--help: what is checked first).\n\n\
Example:\n  tirage render output/coq/block-001 --tickets 1,5,9 --out /tmp/proofs",
    after_long_help = "Where a proof's data comes from:\n  \
face, serial, barcode, pack, position: the ticket's record in tickets.bin (the print file)\n  \
prize, way: the spec's rules evaluating that face (no CSV column is drawn)\n  \
SPECIMEN: the manifest's kind\n\n\
Checked first (any failure: exit 2, no proof written):\n  \
- spec.toml, manifest.json, tickets.bin, tickets.csv match SHA256SUMS (each read once;\n    \
the rest of verify is not run)\n  \
- spec.toml loads; the manifest describes its game; the print header is the manifest's block\n  \
- each record is at its place and its face codes are values of their columns\n  \
- the rules judge the face unambiguous and its wins are a way of the spec\n  \
- the ticket's tickets.csv row is the row of that record, prize and way\n\n\
Example:\n  tirage render output/coq/block-001 --tickets 1,5,9 --out /tmp/proofs"
)]
pub(super) struct Args {
    /// The block (or deck) directory.
    dir: PathBuf,
    /// Ticket numbers (1-based, print order), comma-separated; each is drawn once.
    #[arg(long, value_delimiter = ',', required = true, value_parser = ticket_number)]
    tickets: Vec<u32>,
    /// Output directory for ticket-<N>.svg. Default: <DIR>/proofs.
    #[arg(long)]
    out: Option<PathBuf>,
    /// An age identity file that opens the block's encrypted tickets.bin.age and
    /// tickets.csv.age (the auditor's); repeat for several.
    #[arg(long, value_name = "FILE")]
    identity: Vec<PathBuf>,
}

/// A ticket number, spaces around it allowed (`--tickets "1, 5"`).
fn ticket_number(s: &str) -> Result<u32, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a ticket number (1, 2, …)"))
}

pub(super) fn run(mut a: Args) -> Result<Outcome> {
    // Each ticket once, in the order first asked.
    let mut seen = std::collections::HashSet::new();
    a.tickets.retain(|t| seen.insert(*t));
    // No run replaces the block while it is read.
    let _locks = super::lock_shared(&a.dir);
    // Every check and every drawing before the first file is written.
    let proofs = load(
        &a.dir,
        &a.tickets,
        &tirage::seal::Identities::load(&a.identity)?,
    )?;
    let svgs = proofs
        .tickets
        .iter()
        .map(|t| ticket_svg(&proofs.spec, proofs.manifest.kind, t))
        .collect::<Result<Vec<_>, _>>()?;
    let out = a.out.clone().unwrap_or_else(|| a.dir.join(PROOFS));
    if a.out.is_none() {
        // Never through a link planted in the block: proofs/ is a directory of the block.
        match std::fs::symlink_metadata(&out) {
            Ok(m) if !m.is_dir() => anyhow::bail!(
                "{} is not a directory of the block (a link or a file): no proof is written through it; remove it, or write elsewhere with --out",
                out.display()
            ),
            Ok(_) => {}
            Err(_) => std::fs::create_dir(&out)
                .with_context(|| format!("cannot create {}", out.display()))?,
        }
    } else {
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
    }
    for (t, svg) in a.tickets.iter().zip(svgs) {
        let path = out.join(format!("ticket-{t}.svg"));
        write_proof(&path, svg.as_bytes())?;
        println!("{}", path.display());
    }
    Ok(Outcome::Success)
}

/// Writes proof `path`, replacing an older proof (a regular file) but never writing
/// through a link or into anything else there.
fn write_proof(path: &std::path::Path, svg: &[u8]) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let cannot = || format!("cannot write {}", path.display());
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if !m.is_file() {
            anyhow::bail!(
                "{} is not a regular file (a link, a directory…): no proof is written through it; remove it",
                path.display()
            );
        }
    }
    let mut f = std::fs::File::options()
        .write(true)
        .create(true)
        .truncate(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)
        .with_context(cannot)?;
    f.write_all(svg).with_context(cannot)
}
