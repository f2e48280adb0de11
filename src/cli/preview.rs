//! `tirage preview SPEC [--out DIR]`: a designer's page of a spec (one static HTML file).

use super::Outcome;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use tirage::proof::preview::{page, GENERATOR};
use tirage::spec::GameSpec;

/// The page's file name in `--out`.
const PAGE: &str = "index.html";

/// Arguments of `tirage preview`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The page (DIR/index.html) opens from disk in any browser: inline CSS and SVG, no script, \
nothing fetched. It shows the lot table (odds 1 in N, payout ratio), a chart of the prize \
structure, the pack guarantees and what they cost, near-miss and decoy rates, check's rules \
in words beside the legal reference, and every way with a specimen face drawn as a proof. \
Its faces come from a public stream derived from the spec alone, never from a seed: the \
page says nothing about any block.\n\n\
Exit status: 0 the page written, 2 error (a bad spec, refused as check refuses it; an --out \
inside a block, deck, bundle or emission; a file at DIR/index.html that is no earlier preview, \
without --force; an I/O error: nothing written).\n\n\
Examples:\n  tirage preview game_specs/coq.toml                 # → output/coq/preview/index.html\n  \
tirage preview game_specs/examples/cash.toml --out /tmp/cash-preview"
)]
pub(super) struct Args {
    /// The game spec (TOML).
    spec: PathBuf,
    /// Directory of the page (made if missing). Default: output/<game>/preview.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace a file at DIR/index.html that is an HTML page but no earlier preview (an
    /// earlier preview is always replaced; a file that is no HTML page never is).
    #[arg(long)]
    force: bool,
    /// Print nothing (by default, the path of the page).
    #[arg(short, long)]
    quiet: bool,
}

pub(super) fn run(a: Args) -> Result<Outcome> {
    let spec = GameSpec::load(&a.spec)?;
    let packs =
        super::check::pack_law(&spec).map_err(|e| anyhow::anyhow!("{}: {e}", a.spec.display()))?;
    if let Some(w) = spec.payout_above_sales() {
        errln!("tirage: warning: {w}");
    }
    let lines: Vec<String> = packs
        .lines()
        .filter(|l| !l.trim().is_empty() && *l != "pack constraints:")
        .map(str::to_string)
        .collect();
    let html = page(&spec, &lines)?;
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("output/{}/preview", spec.id)));
    let path = dir.join(PAGE);
    super::outside_deliveries(&dir, "an --out")?;
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    write_page(&path, html.as_bytes(), a.force)?;
    if !a.quiet {
        outln!("{}", path.display());
    }
    Ok(Outcome::Success)
}

/// Writes `bytes` to `path` whole: into a new file beside it (mode 0644: the page holds only
/// the spec), moved into place when complete. An earlier preview (a regular file starting
/// with [`GENERATOR`]) is replaced; another HTML page ([`is_html`]) only with `force`; any
/// other file (a seed, a key, a spec) never; a link, a directory or anything else there is
/// never written through.
fn write_page(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let cannot = || format!("cannot write {}", path.display());
    if let Ok(m) = std::fs::symlink_metadata(path) {
        if !m.is_file() {
            anyhow::bail!(
                "{} is not a regular file (a link, a directory…): no page is written through it; remove it",
                path.display()
            );
        }
        if !is_preview(path) && !is_html(path) {
            anyhow::bail!(
                "{} exists and is not an HTML page (it does not begin with a tag, <): nothing was written, and --force would not replace it (it replaces only pages); choose another --out",
                path.display()
            );
        }
        if !force && !is_preview(path) {
            anyhow::bail!(
                "{} exists and is no tirage preview: nothing was written; give --force to replace it, or another --out",
                path.display()
            );
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut f = tempfile::Builder::new()
        .prefix(".tirage-preview-")
        .tempfile_in(dir)
        .with_context(cannot)?;
    f.write_all(bytes).with_context(cannot)?;
    f.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o644))
        .with_context(cannot)?;
    f.as_file().sync_all().with_context(cannot)?;
    f.persist(path).map_err(|e| e.error).with_context(cannot)?;
    Ok(())
}

/// True when the file at `path` begins as HTML does: with a tag (`<`), after white space.
/// A seed, a key or a spec never does.
fn is_html(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(1024).read_to_end(&mut head));
    read.is_ok() && head.trim_ascii_start().starts_with(b"<")
}

/// True when the file at `path` begins as every page `preview` writes.
fn is_preview(path: &Path) -> bool {
    use std::io::Read;
    let mut head = vec![0u8; GENERATOR.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == GENERATOR.as_bytes()
}
