//! Seed options shared by `generate` and `deck`, and the secret seed file.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use tirage::rng::Seed;

/// Where the master seed comes from.
#[derive(clap::Args, Debug)]
pub struct SeedArgs {
    /// Master seed, 64 hex digits, to replay. Default: a fresh seed from the operating
    /// system's CSPRNG, saved with mode 0600 beside the output as <out>.seed.
    #[arg(long, conflicts_with = "seed_file")]
    seed: Option<String>,
    /// File holding the master seed (64 hex digits).
    #[arg(long)]
    seed_file: Option<PathBuf>,
}

impl SeedArgs {
    /// The seed, and whether it is fresh (drawn now from the OS, to be saved).
    pub fn seed(&self) -> Result<(Seed, bool)> {
        Ok(match (&self.seed, &self.seed_file) {
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
        })
    }
}

/// Where a fresh seed for output `out` is saved: beside it, never inside it.
pub fn seed_file_path(out: &Path) -> PathBuf {
    let mut name = out
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "block".into());
    name.push(".seed");
    out.with_file_name(name)
}

/// Fails early when a fresh seed would overwrite an existing seed file without `force`.
pub fn check_free(path: &Path, fresh: bool, force: bool) -> Result<()> {
    if fresh && path.exists() && !force {
        bail!(
            "{} already exists; pass --force to replace it",
            path.display()
        );
    }
    Ok(())
}

/// Writes the seed's hex digits to `path`, readable by its owner only.
pub fn write_secret(path: &Path, seed: &Seed) -> Result<()> {
    use std::io::Write;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
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
