//! `tirage render DIR --tickets 1,5,9`: SVG proofs of chosen tickets, or a PDF proof sheet
//! (`--pdf FILE`) of a deck or of chosen tickets.

use super::Outcome;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use tirage::block::layout::{AUDIT_JSON, AUDIT_MD, PROOF_TMP};
use tirage::generate::GenerateError;
use tirage::money::Money;
use tirage::proof::render::{load, ticket_svg, Marks, Stamp};
use tirage::proof::select::{Selection, Span};

/// Arguments of `tirage render`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A proof's face, serial, pack and position come from the ticket's record in \
tickets.bin (or its tickets.csv row when only that file opens); its prize and way from the \
spec's rules (--help: what is checked first). The printer's proofs (tickets.bin alone, a \
production block) show no prize. Proofs go beside the block: <DIR>.proofs/ (beside the emission \
for a block of one: <EMISSION>.<BLOCK>.proofs/), never inside a block, bundle, emission or audit report. An existing \
proof is replaced only with --force (without it, nothing is written).\n\n\
Exit status: 0 the proofs written, 2 error (a ticket file that does not match SHA256SUMS, a \
selection of no ticket, a proof that exists without --force, an output inside a delivery, an \
I/O error: no proof written), 130 interrupted (Ctrl-C, SIGTERM, SIGHUP: no proof written, \
what was written so far removed, the proofs that were there as they were; proofs already \
complete when the signal comes are put in place, exit 0, and said so).\n\n\
Examples (after the README's quick start):\n  \
tirage render output/coq/block-001 --tickets 1,5,9..12 --out /tmp/proofs --force\n  \
tirage render output/coq/block-001 --pack 7 --tier 2 --out /tmp/proofs --force\n  \
tirage render output/coq/block-001 --way 20000,500+500 --pdf /tmp/coq-top.pdf --force\n  \
tirage deck game_specs/coq.toml -q --force && tirage render output/coq/deck --pdf /tmp/coq-deck.pdf --force",
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
Which tickets: --tickets names them (numbers and ranges, drawn in the order named, each named once); --pack, \
--way and --tier narrow the selection, each option the others (--way and --tier judge each \
face by the rules, so the whole print file is read; they need the prize, which the printer's \
print file alone of a production block does not give). Without --tickets, a selection of \
more than 2000 tickets is refused: narrow it, or name the tickets. A ticket or pack past the block, a way or tier the spec has not, or a \
selection of no ticket: exit 2.\n\n\
A file the run would write that exists (a ticket-<N>.svg, the --pdf file): exit 2 and \
nothing is written, naming the first one; --force replaces them.\n\n\
Exit status: 0 the proofs written, 2 error (any of the above: no proof written), 130 \
interrupted (Ctrl-C, SIGTERM, SIGHUP: no proof written, what was written so far removed, the \
proofs that were there as they were; proofs already complete when the signal comes are put in \
place, exit 0, and said so).\n\n\
Examples (after the README's quick start):\n  \
tirage render output/coq/block-001 --tickets 1,5,9..12 --out /tmp/proofs --force\n  \
tirage render output/coq/block-001 --pack 7 --tier 2 --out /tmp/proofs --force\n  \
tirage render output/coq/block-001 --way 20000,500+500 --pdf /tmp/coq-top.pdf --force\n  \
tirage deck game_specs/coq.toml -q --force && tirage render output/coq/deck --pdf /tmp/coq-deck.pdf --force"
)]
pub(super) struct Args {
    /// The block (or deck) directory. An emission is refused: name one of its blocks
    /// (EMISSION/block-001).
    dir: PathBuf,
    /// Ticket numbers and ranges (1-based, print order), comma-separated: `1,5,9..12`; drawn
    /// in the order named; a ticket named twice is an error. Default: every ticket selected by the options below,
    /// when they select at most 2000.
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    tickets: Vec<Span>,
    /// Only the tickets of these packs (numbers and ranges, `3` or `1..4`).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pack: Vec<Span>,
    /// Only the tickets of these ways (the lot table's way ids, as `tirage check` lists
    /// them; `lose` for losing tickets), comma-separated. Needs the prize: not from the
    /// print file alone of a production block.
    #[arg(long, value_delimiter = ',', value_name = "ID")]
    way: Vec<String>,
    /// Only the tickets of this tier, named by its amount in the lot table (`--tier 20000`,
    /// `--tier 4.50`); repeat for several. Needs the prize, as --way.
    #[arg(long, value_name = "AMOUNT", value_parser = amount)]
    tier: Vec<Money>,
    /// Output directory for ticket-<N>.svg, outside every block, bundle and emission.
    /// Default: <DIR>.proofs, beside the block (mode 0700); for a block of an emission,
    /// <EMISSION>.<BLOCK>.proofs beside the emission.
    #[arg(long, conflicts_with = "pdf")]
    out: Option<PathBuf>,
    /// Write one PDF proof sheet (A4 pages: a cover with the composition, then the
    /// proofs) to FILE instead of SVG files.
    #[arg(long, value_name = "FILE")]
    pdf: Option<PathBuf>,
    /// Draw what the ticket prints only: no prize, way, marks or notes, and a proof sheet
    /// that does not say which tickets win. With --way or --tier, refused on a production
    /// block (the selection would say it); fine on a deck or a test block.
    #[arg(long)]
    plain: bool,
    /// Replace the files the run writes that exist: the ticket-<N>.svg of the tickets drawn,
    /// or the --pdf file, when they are proofs (an SVG, a PDF); a file that is no proof is
    /// never replaced. Without it, nothing is written when one exists.
    #[arg(long)]
    force: bool,
    /// Print nothing (by default, the path of every file written).
    #[arg(short, long)]
    quiet: bool,
    /// An age identity file that opens the block's encrypted tickets.bin.age (the
    /// printer's) or tickets.csv.age (the auditor's); repeat for several.
    #[arg(long, value_name = "FILE")]
    identity: Vec<PathBuf>,
}

/// A tier's amount, as the lot table writes it (`20000`, `4.5`, `4,50`).
fn amount(s: &str) -> Result<Money, String> {
    s.parse()
        .map_err(|e: tirage::money::MoneyError| e.to_string())
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    // Before anything is written: a signal from now on stops the run between two proofs,
    // and what it wrote so far is removed.
    let stop = super::stop_on_signal()?;
    // No run replaces the block while it is read.
    let _locks = super::lock_shared(&a.dir)?;
    super::not_an_emission(&a.dir, None)?;
    if !a.dir.is_dir() {
        anyhow::bail!(
            "{}: no such directory: expected a block or deck directory (tirage generate, tirage deck)",
            a.dir.display()
        );
    }
    let ids = super::seed::load_identities(&a.identity)?;
    // Refused before the selection is resolved: its advice when too many tickets are
    // selected (narrow with --pack …) would only lead here. A manifest that does not read
    // is load's error.
    if a.plain && (!a.way.is_empty() || !a.tier.is_empty()) {
        let read = tirage::output::read_regular(
            &a.dir.join(tirage::block::layout::MANIFEST),
            tirage::output::MAX_JSON,
        );
        if let Some(m) = read.ok().and_then(|b| serde_json::from_slice(&b).ok()) {
            plain_not_by_prize(&a, &m)?;
        }
    }
    let selection = Selection {
        tickets: a.tickets.clone(),
        packs: a.pack.clone(),
        ways: a.way.iter().map(|w| w.trim().to_string()).collect(),
        tiers: a.tier.clone(),
    };
    let asked = if a.plain { Marks::Hidden } else { Marks::Shown };
    // Every check and every drawing before the first file is written.
    let proofs = load(&a.dir, &selection, &ids, &stop).map_err(|e| match e {
        tirage::proof::render::RenderError::Interrupted => GenerateError::Interrupted.into(),
        e => anyhow::Error::from(e),
    })?;
    plain_not_by_prize(&a, &proofs.manifest)?;
    let marks = proofs.marks(asked);
    if marks != asked && !a.quiet {
        errln!(
            "tirage: note: tickets.csv is not read (absent, or encrypted to others): proofs of a production block from the print file alone are plain (no prize, way, mark or note)"
        );
    }
    let block = std::fs::canonicalize(&a.dir)
        .with_context(|| format!("cannot read {}", a.dir.display()))?;
    if let Some(pdf) = &a.pdf {
        names_a_file(pdf)?;
        let parent = pdf.parent().filter(|p| !p.as_os_str().is_empty());
        outside_block(parent.unwrap_or(std::path::Path::new(".")), &block, pdf)?;
        super::outside_deliveries(parent.unwrap_or(std::path::Path::new(".")), "an --out")?;
        outside_reports(parent.unwrap_or(std::path::Path::new(".")), pdf)?;
        let bytes = tirage::proof::sheet::proof_sheet(&proofs, marks)?;
        may_write(pdf, a.force, PDF, "another file")?;
        remove_left_proofs(parent.unwrap_or(std::path::Path::new(".")), a.quiet);
        let staged = stage(pdf, &bytes)?;
        if stop.is_cancelled() {
            // The staged sheet is removed as it is dropped.
            return Err(GenerateError::Interrupted.into());
        }
        put(staged, pdf, a.force, PDF, "another file")?;
        said_late(&stop);
        if !a.quiet {
            outln!("{}", pdf.display());
        }
        return Ok(Outcome::Success);
    }
    let svgs = proofs
        .tickets
        .iter()
        .map(|t| ticket_svg(&proofs.spec, Stamp::of(&proofs.manifest), t, marks))
        .collect::<Result<Vec<_>, _>>()?;
    if stop.is_cancelled() {
        return Err(GenerateError::Interrupted.into());
    }
    let out = match &a.out {
        Some(out) => {
            outside_block(out, &block, out)?;
            super::outside_deliveries(out, "an --out")?;
            outside_reports(out, out)?;
            out.clone()
        }
        None => {
            // The default folder too: a deck or bundle may have been made under its name.
            let out = proofs_dir(&a.dir)?;
            super::outside_deliveries(&out, "an --out")?;
            outside_reports(&out, &out)?;
            out
        }
    };
    let paths: Vec<PathBuf> = proofs
        .tickets
        .iter()
        .map(|t| out.join(format!("ticket-{}.svg", t.ticket)))
        .collect();
    // Every file to write may be written before the first is.
    for path in &paths {
        may_write(path, a.force, SVG, "another --out")?;
    }
    // The folders this run makes, the deepest first: removed again if it is stopped.
    let made: Vec<PathBuf> = out
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && std::fs::symlink_metadata(d).is_err())
        .map(Path::to_path_buf)
        .collect();
    if a.out.is_some() {
        super::refuse_dangling_link(&out)?;
        // Folders made here are the owner's only (0700), like `<block>.proofs`: a proof
        // shows its ticket whole. An existing folder keeps the mode its owner gave it.
        std::os::unix::fs::DirBuilderExt::mode(std::fs::DirBuilder::new().recursive(true), 0o700)
            .create(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
    } else {
        private_dir(&out)?;
    }
    remove_left_proofs(&out, a.quiet);
    // Every proof written whole beside its place, then moved into place: a run stopped
    // before the moves leaves the proofs that were there as they were.
    let mut staged = Vec::with_capacity(paths.len());
    for (path, svg) in paths.iter().zip(svgs) {
        if stop.is_cancelled() {
            break;
        }
        match stage(path, svg.as_bytes()) {
            Ok(t) => staged.push(t),
            Err(e) => {
                drop(staged);
                remove_made(&made);
                return Err(e);
            }
        }
    }
    if stop.is_cancelled() {
        drop(staged);
        remove_made(&made);
        return Err(GenerateError::Interrupted.into());
    }
    for (path, t) in paths.iter().zip(staged) {
        put(t, path, a.force, SVG, "another --out")?;
        if !a.quiet {
            outln!("{}", path.display());
        }
    }
    said_late(&stop);
    Ok(Outcome::Success)
}

/// Removes the folders `made` (the deepest first) that a stopped run made for its proofs,
/// each only when empty: nothing another run put there is removed.
fn remove_made(made: &[PathBuf]) {
    for d in made {
        let _ = std::fs::remove_dir(d);
    }
}

/// Says that a stop (`stop` set) came once every proof was in place, too late to leave
/// them out.
fn said_late(stop: &tirage::generate::cancel::Cancel) {
    if stop.is_cancelled() {
        errln!("tirage: the stop came once the proofs were written: they are in place");
    }
}

/// Refuses plain proofs (`--plain`) selected by prize (`--way`, `--tier`) of a production
/// block (`manifest`): the tickets drawn would be exactly those of the ways asked, a list
/// of winners (or of losers) printed without a mark, though a plain sheet must not say
/// which tickets win. A deck (specimen) or a test block is no secret. Errors: the
/// selection and what to use instead.
fn plain_not_by_prize(a: &Args, manifest: &tirage::output::manifest::Manifest) -> Result<()> {
    let by_prize = !a.way.is_empty() || !a.tier.is_empty();
    let secret = manifest.kind == tirage::block::Kind::Production && !manifest.is_test_block();
    if a.plain && by_prize && secret {
        anyhow::bail!(
            "{}: --plain with --way or --tier on a production block: the tickets drawn would be exactly those of the ways asked, a list of winners, while a plain proof must not say which tickets win; draw plain proofs selected by ticket or pack (--tickets, --pack), or select by prize on a deck (tirage deck) or a test block (--insecure-seed); nothing was written",
            a.dir.display()
        );
    }
    Ok(())
}

/// The directory beside block directory `dir` that receives its proofs by default:
/// `<dir>.proofs` (`output/coq/block-001` → `output/coq/block-001.proofs`), never inside
/// the block, which is what is delivered (a `tar` of the block ships no proof); for a block
/// of an emission, beside the emission (`A/block-001` → `A.block-001.proofs`). A `dir`
/// with no name of its own (`.`, `..`) is named by its real path.
fn proofs_dir(dir: &Path) -> Result<PathBuf> {
    let named = |p: &Path| {
        let name = p.file_name()?.to_str()?;
        // A bare name (`block-001`) is in the current directory, which may be an emission.
        let parent = p.parent().map(|e| {
            if e.as_os_str().is_empty() {
                Path::new(".")
            } else {
                e
            }
        });
        match parent.filter(|e| tirage::verify::emission::is_emission(e)) {
            Some(e) => {
                let emission = std::fs::canonicalize(e).ok()?;
                let of = emission.file_name()?.to_str()?;
                Some(
                    emission
                        .with_file_name(tirage::block::layout::proofs_dir(&format!("{of}.{name}"))),
                )
            }
            None => Some(p.with_file_name(tirage::block::layout::proofs_dir(name))),
        }
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

/// Refuses proofs written at `what`, in directory `dir`, when `dir` (or, not made yet, its
/// nearest ancestor that exists) holds an audit report (`audit.md` or `audit.json`, as
/// `verify` writes them): a proof there would pass for part of the report, or replace one
/// of its files (a proof sheet over `audit.pdf`), and it shows tickets' serials and prizes.
fn outside_reports(dir: &Path, what: &Path) -> Result<()> {
    let nearest = dir
        .ancestors()
        .find(|d| d.as_os_str().is_empty() || d.is_dir());
    let report = nearest.filter(|d| {
        let d = if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        };
        [AUDIT_MD, AUDIT_JSON].iter().any(|f| d.join(f).is_file())
    });
    if let Some(r) = report {
        anyhow::bail!(
            "{}: inside the audit report {}, which verify wrote: a proof there would pass for part of it; nothing was written; choose an --out outside it",
            what.display(),
            if r.as_os_str().is_empty() { Path::new(".") } else { r }.display()
        );
    }
    Ok(())
}

/// Refuses a `--pdf` that names no file to write: `-` (a proof sheet shows serials and
/// prizes, and is written only to a file of mode 0600, never to standard output) and a
/// path ending with `/` (a folder: the sheet's own file name is missing).
fn names_a_file(pdf: &Path) -> Result<()> {
    if pdf.as_os_str() == "-" {
        anyhow::bail!(
            "--pdf -: a proof sheet is written to a file (mode 0600: it shows serials and prizes), never to standard output; nothing was written; name the file (--pdf proofs.pdf)"
        );
    }
    let bytes = pdf.as_os_str().as_encoded_bytes();
    let last = bytes.rsplit(|&b| b == b'/').find(|s| !s.is_empty());
    if bytes.ends_with(b"/") || matches!(last, Some(b".") | Some(b"..")) {
        // The folder meant, without its trailing `/` and `.` (`x/.` is `x`, `./` is `.`).
        let named = pdf.components().as_path();
        let advice = if std::fs::metadata(named).is_ok_and(|m| !m.is_dir()) {
            format!("{} is a file, not a folder", named.display())
        } else {
            format!(
                "name the proof file to write (--pdf {})",
                named.join("proofs.pdf").display()
            )
        };
        anyhow::bail!(
            "--pdf {}: the path names a folder, not a file; nothing was written; {advice}",
            pdf.display(),
        );
    }
    Ok(())
}

/// How a PDF proof sheet begins (`%PDF-`, ISO 32000-1 § 7.5.2).
const PDF: &[u8] = b"%PDF-";
/// How an SVG proof begins ([`tirage::proof::draw::svg::to_svg`]).
const SVG: &[u8] = b"<svg";

/// Refuses proof `path` when something is there that may not be replaced: an older proof
/// (a regular file beginning with `magic`) unless `replace` (the error offers `--force`
/// or `elsewhere`); a file that is no proof (a seed, a key, a spec), which `--force` does
/// not replace either; and a link or anything else, which is never written through.
fn may_write(path: &Path, replace: bool, magic: &[u8], elsewhere: &str) -> Result<()> {
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if m.is_dir() {
            anyhow::bail!(
                "{} is a directory: nothing was written; name the proof file to write (--pdf DIR/proofs.pdf), or choose {elsewhere}",
                path.display()
            );
        }
        if m.file_type().is_symlink() {
            anyhow::bail!(
                "{} is a link: no proof is written through it; nothing was written; remove the link, or choose {elsewhere}",
                path.display()
            );
        }
        if !m.is_file() {
            anyhow::bail!(
                "{} is not a regular file (a device, a pipe…): no proof is written to it; nothing was written; choose {elsewhere}",
                path.display()
            );
        }
        if !begins_with(path, magic) {
            anyhow::bail!(
                "{} exists and is not a proof (it does not begin with {}): nothing was written, and --force would not replace it (it replaces only proofs); choose {elsewhere}",
                path.display(),
                String::from_utf8_lossy(magic)
            );
        }
        if !replace {
            anyhow::bail!(
                "{} exists: nothing was written; give --force to replace it, or {elsewhere}",
                path.display()
            );
        }
    }
    Ok(())
}

/// True when the file at `path` begins with `magic`.
fn begins_with(path: &Path, magic: &[u8]) -> bool {
    use std::io::Read;
    let mut head = vec![0u8; magic.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == magic
}

/// Removes from directory `dir` the temporary proof files ([`PROOF_TMP`]) runs stopped
/// before naming them left there (they show a ticket's serial and prize), saying each
/// unless `quiet`.
fn remove_left_proofs(dir: &Path, quiet: bool) {
    for p in tirage::store::owner::remove_left_files(dir, PROOF_TMP, super::LEFTOVER_AGE) {
        if quiet {
            continue;
        }
        errln!(
            "tirage: removed {}, a proof an earlier run left unnamed when it was stopped",
            p.display()
        );
    }
}

/// Writes the bytes of proof `path` whole into a new file beside it (mode 0600, like the
/// ticket files, since a proof shows a ticket's serial and prize), synced: [`put`] moves
/// it into place; dropped, it is removed. Holds no file open. Errors: the file cannot be
/// made or written (`cannot write PATH`), its folder missing among them.
fn stage(path: &Path, bytes: &[u8]) -> Result<tempfile::TempPath> {
    use std::io::Write;
    let cannot = || format!("cannot write {}", path.display());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        // Where the system cannot tell (no permission to look, a path too long), its
        // words say why.
        Err(e)
            if e.kind() != std::io::ErrorKind::NotFound
                && e.raw_os_error() != Some(libc::ENOTDIR)
                && e.raw_os_error() != Some(libc::ELOOP) =>
        {
            anyhow::bail!("{}: {e}; nothing was written", cannot())
        }
        _ => return Err(no_folder(dir, &cannot())),
    }
    // tempfile's error names the hidden file it tried (`… at path "…"`); the operating
    // system's words and the proof's own name say enough.
    let words = |e: std::io::Error| {
        let words = e.to_string();
        let words = words.split(" at path ").next().unwrap_or("").to_string();
        anyhow::anyhow!("{}: {words}; nothing was written", cannot())
    };
    let mut f = tempfile::Builder::new()
        .prefix(PROOF_TMP)
        .tempfile_in(dir)
        .map_err(words)?;
    f.write_all(bytes).map_err(words)?;
    f.as_file().sync_all().map_err(words)?;
    Ok(f.into_temp_path())
}

/// The error for folder `dir` of a proof's path (`cannot` its start) when it is missing
/// or no folder: the nearest part of it that is there but no folder, or a link to
/// nothing, else its first missing folder.
fn no_folder(dir: &Path, cannot: &str) -> anyhow::Error {
    // The nearest folder of the path that is there but is no folder (`f/../x.pdf`
    // with `f` a file).
    let file = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .find(|a| std::fs::symlink_metadata(a).is_ok_and(|m| !m.is_dir()));
    if let Some(file) = file {
        // A link that leads nowhere, or to itself, is no file either.
        let what = match std::fs::metadata(file) {
            Err(e) => format!("a link that leads to no folder ({e})"),
            Ok(_) => "not a folder".to_string(),
        };
        return anyhow::anyhow!(
            "{cannot}: {} is {what}; nothing was written",
            file.display()
        );
    }
    // The first folder of the path that is missing (`nodir` of `nodir/../y.pdf`).
    let missing = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && std::fs::symlink_metadata(a).is_err())
        .last()
        .unwrap_or(dir);
    anyhow::anyhow!(
        "{cannot}: the folder {} does not exist; nothing was written",
        missing.display()
    )
}

/// Moves `staged` ([`stage`]) into place as proof `path`. What is there is replaced only
/// as [`may_write`] allows; a file another name links to is never written (the move
/// replaces the name, not the file).
fn put(
    staged: tempfile::TempPath,
    path: &Path,
    replace: bool,
    magic: &[u8],
    elsewhere: &str,
) -> Result<()> {
    let cannot = || format!("cannot write {}", path.display());
    may_write(path, replace, magic, elsewhere)?;
    let placed = if replace {
        staged.persist(path)
    } else {
        staged.persist_noclobber(path)
    };
    // The staged file is removed as the error drops it: the destination is as it was.
    placed.map_err(|e| anyhow::anyhow!("{}: {}; nothing was written", cannot(), e.error))?;
    Ok(())
}
