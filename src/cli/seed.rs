//! Seed options shared by `generate` and `deck`, and the secret seed file.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use tirage::generate::Provenance;
use tirage::rng::{Seed, SeedShare};

/// Where the master seed comes from.
#[derive(clap::Args, Debug)]
pub struct SeedArgs {
    /// Master seed, 64 hex digits, to replay. Default: a fresh seed from the operating
    /// system's CSPRNG, saved with mode 0600 beside the output as <out>.seed.
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
}

impl SeedArgs {
    /// The seed, and whether it is fresh (drawn now from the OS, to be saved).
    pub fn seed(&self) -> Result<(Seed, bool)> {
        let shares = read_shares(&self.seed_share)?;
        Ok(match (&self.seed, &self.seed_file) {
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
        })
    }

    /// What the manifest records about the seed: each share's commitment, when the seed was
    /// combined from shares. Errors: a share file cannot be read or is not 64 hex digits.
    pub fn provenance(&self) -> Result<Provenance> {
        let shares = read_shares(&self.seed_share)?;
        Ok(Provenance {
            seed_shares: (!shares.is_empty())
                .then(|| shares.iter().map(SeedShare::commitment).collect()),
            ..Provenance::default()
        })
    }
}

/// Reads seed share files (64 hex digits each), in the order given.
pub fn read_shares(paths: &[PathBuf]) -> Result<Vec<SeedShare>> {
    paths
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("cannot read the seed share file {}", f.display()))?;
            SeedShare::from_hex(&text).with_context(|| format!("seed share file {}", f.display()))
        })
        .collect()
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
