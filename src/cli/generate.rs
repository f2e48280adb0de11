//! `tirage generate SPEC`: write one block.

use super::{progress, with_threads, Outcome};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use tirage::generate::{generate_with, Provenance};
use tirage::rng::{Seed, SeedShare};
use tirage::spec::GameSpec;

/// Arguments of `tirage generate`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  tirage generate game_specs/coq.toml\n  tirage generate game_specs/coq.toml --block 2 --seed-file coq.seed --out /tmp/coq-2 --threads 2\n  tirage generate game_specs/coq.toml --seed-share lottery.share --seed-share auditor.share"
)]
pub struct Args {
    /// The game spec (TOML), e.g. game_specs/coq.toml.
    spec: PathBuf,
    /// Block number (1..=999).
    #[arg(long, default_value_t = 1)]
    block: u32,
    /// Master seed, 64 hex digits, to replay a block. Default: a fresh seed from the
    /// operating system's CSPRNG, saved with mode 0600 beside the block as <out>.seed.
    #[arg(long, conflicts_with = "seed_file")]
    seed: Option<String>,
    /// File holding the master seed (64 hex digits).
    #[arg(long, conflicts_with = "seed_share")]
    seed_file: Option<PathBuf>,
    /// File holding one party's seed share (64 hex digits); repeat for each party, in an
    /// agreed order. The master seed is SHA-256("tirage/v1/seed-shares" ‖ 0x00 ‖ share₁ ‖ …
    /// ‖ shareₙ); the manifest records a commitment to each share, never a share.
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    seed_share: Vec<PathBuf>,
    /// Output directory. Default: output/<game>/block-<NNN>.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads (0: one per core). The files are identical for any value.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Replace an existing block (and seed file) at the destination.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(a: Args) -> Result<Outcome> {
    let spec = GameSpec::load(&a.spec)?;
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("output/{}/block-{:03}", spec.id, a.block)));
    let shares = read_shares(&a.seed_share)?;
    let provenance = Provenance {
        seed_shares: (!shares.is_empty())
            .then(|| shares.iter().map(SeedShare::commitment).collect()),
        ..Provenance::default()
    };
    let (seed, fresh) = match (&a.seed, &a.seed_file) {
        _ if !shares.is_empty() => (Seed::from_shares(&shares), false),
        (Some(hex), _) => (Seed::from_hex(hex).context("--seed")?, false),
        (None, Some(f)) => {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("cannot read the seed file {}", f.display()))?;
            (
                Seed::from_hex(&text).with_context(|| format!("seed file {}", f.display()))?,
                false,
            )
        }
        (None, None) => (Seed::from_os()?, true),
    };
    let seed_path = seed_file_path(&out);
    if fresh && seed_path.exists() && !a.force {
        bail!(
            "{} already exists; pass --force to replace it",
            seed_path.display()
        );
    }
    let bar = progress::bar(u64::from(spec.block_size), "generate", a.quiet);
    let manifest = with_threads(a.threads, || {
        generate_with(&spec, &seed, a.block, &out, a.force, &provenance, &|n| {
            bar.set_position(n)
        })
    })??;
    bar.finish_and_clear();
    if fresh {
        write_secret(&seed_path, &seed)?;
    }
    if !a.quiet {
        eprintln!(
            "block {} of {}: {} tickets, {} lots, payout {} {} → {}",
            manifest.block,
            manifest.game.id,
            manifest.tickets,
            manifest.lots,
            manifest.payout,
            manifest.game.currency,
            out.display()
        );
        if fresh {
            eprintln!(
                "master seed saved to {} (mode 0600): keep it secret; it replays the block",
                seed_path.display()
            );
        }
    }
    Ok(Outcome::Success)
}

/// Reads seed share files (64 hex digits each), in the order given.
pub(super) fn read_shares(paths: &[PathBuf]) -> Result<Vec<SeedShare>> {
    paths
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("cannot read the seed share file {}", f.display()))?;
            SeedShare::from_hex(&text).with_context(|| format!("seed share file {}", f.display()))
        })
        .collect()
}

/// Where a fresh seed is saved: beside the block directory, never inside it.
fn seed_file_path(out: &Path) -> PathBuf {
    let mut name = out
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "block".into());
    name.push(".seed");
    out.with_file_name(name)
}

/// Writes the seed's hex digits to `path`, readable by its owner only.
fn write_secret(path: &Path, seed: &Seed) -> Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts
        .open(path)
        .with_context(|| format!("cannot write the seed file {}", path.display()))?;
    writeln!(f, "{}", seed.to_hex())
        .with_context(|| format!("cannot write the seed file {}", path.display()))?;
    Ok(())
}
