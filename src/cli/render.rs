//! `tirage render DIR --tickets 1,5,9`: SVG proofs of chosen tickets, or a PDF proof sheet
//! (`--pdf FILE`) of a deck or of chosen tickets.

use super::Outcome;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use tirage::proof::render::{load, ticket_svg, Marks};

/// Most tickets drawn when `--tickets` is not given: a deck's, never a whole block's.
const ALL_TICKETS_UP_TO: u32 = 2000;

/// Arguments of `tirage render`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A proof's face, serial, pack and position come from the ticket's record in \
tickets.bin (or its tickets.csv row when only that file opens); its prize and way from the \
spec's rules (--help: what is checked first). The printer's proofs (tickets.bin alone, a \
production block) show no prize. Proofs go beside the block: <DIR>.proofs/.\n\n\
Examples:\n  tirage render output/coq/block-001 --tickets 1,5,9 --out /tmp/proofs\n  tirage render output/coq/deck --pdf /tmp/coq-deck.pdf",
    after_long_help = "Which ticket files are read: those that are here in clear, or as .age \
with an --identity that opens them. From tickets.bin alone (the printer's), the proofs of a \
production block are plain: no prize, way, mark or note. From tickets.csv alone (QA's, the \
auditor's), the face is read from the ticket's row.\n\n\
Where a proof's data comes from:\n  \
face, serial, barcode, pack, position: the ticket's record in tickets.bin (the print file), \
else its tickets.csv row\n  \
prize, way: the spec's rules evaluating that face (no CSV column is drawn)\n  \
SPECIMEN: the manifest's kind\n\n\
Checked first (any failure: exit 2, no proof written):\n  \
- spec.toml, manifest.json and the ticket files read match SHA256SUMS (each read once;\n    \
the rest of verify is not run)\n  \
- spec.toml loads; the manifest describes its game; the print header is the manifest's block\n  \
- each record is at its place and its face codes are values of their columns\n  \
- the rules judge the face unambiguous and its wins are a way of the spec\n  \
- the ticket's tickets.csv row (when read) is the row of that record, prize and way\n\n\
Examples:\n  tirage render output/coq/block-001 --tickets 1,5,9 --out /tmp/proofs\n  \
tirage render output/coq/deck --pdf /tmp/coq-deck.pdf"
)]
pub(super) struct Args {
    /// The block (or deck) directory.
    dir: PathBuf,
    /// Ticket numbers (1-based, print order), comma-separated; each is drawn once. Default:
    /// every ticket, for a deck or block of at most 2000 tickets.
    #[arg(long, value_delimiter = ',', value_parser = ticket_number)]
    tickets: Vec<u32>,
    /// Output directory for ticket-<N>.svg, outside the block. Default: <DIR>.proofs, beside
    /// the block (mode 0700).
    #[arg(long, conflicts_with = "pdf")]
    out: Option<PathBuf>,
    /// Write one PDF proof sheet (A4 pages: a cover with the composition, then the
    /// proofs) to FILE instead of SVG files.
    #[arg(long, value_name = "FILE")]
    pdf: Option<PathBuf>,
    /// Draw what the ticket prints only: no prize, way, marks or notes, and a proof sheet
    /// that does not say which tickets win.
    #[arg(long)]
    plain: bool,
    /// Replace an existing --pdf file (SVG proofs always replace older proofs).
    #[arg(long, requires = "pdf")]
    force: bool,
    /// Print nothing (by default, the path of every file written).
    #[arg(short, long)]
    quiet: bool,
    /// An age identity file that opens the block's encrypted tickets.bin.age (the
    /// printer's) or tickets.csv.age (the auditor's); repeat for several.
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
    if !a.dir.is_dir() {
        anyhow::bail!(
            "{}: no such directory: expected a block or deck directory (tirage generate, tirage deck)",
            a.dir.display()
        );
    }
    let ids = tirage::output::seal::Identities::load(&a.identity)?;
    if a.tickets.is_empty() {
        // The count only: load() then checks the manifest against SHA256SUMS.
        let path = a.dir.join(tirage::block::layout::MANIFEST);
        let n = tirage::store::regular::read_regular(&path, tirage::output::MAX_JSON)
            .ok()
            .and_then(|b| serde_json::from_slice::<tirage::output::manifest::Manifest>(&b).ok())
            .map(|m| m.tickets)
            .with_context(|| {
                format!(
                    "{}: no ticket asked for (--tickets), and it cannot be read as a block's manifest",
                    path.display()
                )
            })?;
        if n > ALL_TICKETS_UP_TO {
            anyhow::bail!(
                "{} holds {n} tickets: name the ones to draw with --tickets (every ticket is drawn by default only for at most {ALL_TICKETS_UP_TO})",
                a.dir.display()
            );
        }
        a.tickets = (1..=n).collect();
    }
    let asked = if a.plain { Marks::Hidden } else { Marks::Shown };
    // Every check and every drawing before the first file is written.
    let proofs = load(&a.dir, &a.tickets, &ids)?;
    let marks = proofs.marks(asked);
    if marks != asked && !a.quiet {
        eprintln!(
            "tirage: note: tickets.csv is not read (absent, or encrypted to others): proofs of a production block from the print file alone are plain (no prize, way, mark or note)"
        );
    }
    let block = std::fs::canonicalize(&a.dir)
        .with_context(|| format!("cannot read {}", a.dir.display()))?;
    if let Some(pdf) = &a.pdf {
        let parent = pdf.parent().filter(|p| !p.as_os_str().is_empty());
        outside_block(parent.unwrap_or(std::path::Path::new(".")), &block, pdf)?;
        let bytes = tirage::proof::sheet::proof_sheet(&proofs, marks)?;
        write_proof(pdf, &bytes, a.force)?;
        if !a.quiet {
            println!("{}", pdf.display());
        }
        return Ok(Outcome::Success);
    }
    let svgs = proofs
        .tickets
        .iter()
        .map(|t| ticket_svg(&proofs.spec, proofs.manifest.kind, t, marks))
        .collect::<Result<Vec<_>, _>>()?;
    let out = match &a.out {
        Some(out) => {
            outside_block(out, &block, out)?;
            // Folders made here are the owner's only (0700), like `<block>.proofs`: a proof
            // shows its ticket whole. An existing folder keeps the mode its owner gave it.
            std::os::unix::fs::DirBuilderExt::mode(
                std::fs::DirBuilder::new().recursive(true),
                0o700,
            )
            .create(out)
            .with_context(|| format!("cannot create {}", out.display()))?;
            out.clone()
        }
        None => {
            let out = proofs_dir(&a.dir)?;
            private_dir(&out)?;
            out
        }
    };
    for (t, svg) in a.tickets.iter().zip(svgs) {
        let path = out.join(format!("ticket-{t}.svg"));
        write_proof(&path, svg.as_bytes(), true)?;
        if !a.quiet {
            println!("{}", path.display());
        }
    }
    Ok(Outcome::Success)
}

/// The directory beside block directory `dir` that receives its proofs by default:
/// `<dir>.proofs` (`output/coq/block-001` → `output/coq/block-001.proofs`), never inside
/// the block, which is what is delivered (a `tar` of the block ships no proof). A `dir` with
/// no name of its own (`.`, `..`) is named by its real path.
fn proofs_dir(dir: &Path) -> Result<PathBuf> {
    let named = |p: &Path| {
        let name = p.file_name()?.to_str()?;
        Some(p.with_file_name(tirage::block::layout::proofs_dir(name)))
    };
    match dir.components().next_back() {
        Some(std::path::Component::Normal(_)) => named(dir),
        _ => std::fs::canonicalize(dir).ok().and_then(|d| named(&d)),
    }
    .with_context(|| {
        format!(
            "{} has no name to put proofs beside; give --out",
            dir.display()
        )
    })
}

/// Makes `dir` (tirage's own `<block>.proofs`) a directory only its owner can enter: created
/// mode 0700 when missing; an existing one must be a directory (never a link), and is
/// narrowed to 0700.
fn private_dir(dir: &Path) -> Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    match std::fs::symlink_metadata(dir) {
        Ok(m) if !m.is_dir() => anyhow::bail!(
            "{} is not a directory (a link or a file): no proof is written through it; remove it, or write elsewhere with --out",
            dir.display()
        ),
        Ok(_) => {}
        Err(_) => std::fs::DirBuilder::new()
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("cannot create {}", dir.display()))?,
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .with_context(|| format!("cannot make {} private (mode 0700)", dir.display()))
}

/// Refuses `dir` (where `what` goes, made or not yet) when it is the block directory
/// `block` (canonical) or inside it: what is in the block is delivered with it, and a proof
/// shows a prize. `dir` is judged by its nearest ancestor that exists.
fn outside_block(dir: &Path, block: &Path, what: &Path) -> Result<()> {
    let real = dir.ancestors().find_map(|d| {
        let d = if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        };
        std::fs::canonicalize(d).ok()
    });
    if real.is_some_and(|d| d.starts_with(block)) {
        anyhow::bail!(
            "{}: proofs are not written inside the block directory {}, which is delivered as it is; write them beside it (by default, {}) or elsewhere",
            what.display(),
            block.display(),
            proofs_dir(block).map_or_else(|_| "--out".into(), |p| p.display().to_string())
        );
    }
    Ok(())
}

/// Writes proof `path` whole: into a new file beside it (mode 0600, like the ticket files,
/// since a proof shows a ticket's serial and prize), moved into place only when complete.
/// An older proof (a regular file) is replaced when `replace` is true, else refused; a
/// link or anything else there is never written through, nor is a file another name links
/// to (the move replaces the name, not the file).
fn write_proof(path: &std::path::Path, bytes: &[u8], replace: bool) -> Result<()> {
    use std::io::Write;
    let cannot = || format!("cannot write {}", path.display());
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if !m.is_file() {
            anyhow::bail!(
                "{} is not a regular file (a link, a directory…): no proof is written through it; remove it",
                path.display()
            );
        }
        if !replace {
            anyhow::bail!(
                "{} exists: nothing was written; give --force to replace it, or another file",
                path.display()
            );
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let mut f = tempfile::Builder::new()
        .prefix(".tirage-proof-")
        .tempfile_in(dir)
        .with_context(cannot)?;
    f.write_all(bytes).with_context(cannot)?;
    f.as_file().sync_all().with_context(cannot)?;
    if replace {
        f.persist(path).map_err(|e| e.error).with_context(cannot)?;
    } else {
        f.persist_noclobber(path)
            .map_err(|e| e.error)
            .with_context(cannot)?;
    }
    Ok(())
}
