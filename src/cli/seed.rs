//! Seed options shared by `generate` and `deck`, and the secret seed file.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use tirage::generate::{Provenance, SeedPlacement};
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
                let text = read_small(f, "seed file")?;
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

/// Reads seed share files (64 hex digits each), in the order given. None given: none read.
/// Errors: a file cannot be read or is not 64 hex digits; a single share (the master seed
/// would rest on one party: give it whole with `--seed-file`); two files holding the same
/// share (one party's share counted twice, so the seed rests on fewer parties than the
/// manifest shows).
pub fn read_shares(paths: &[PathBuf]) -> Result<Vec<SeedShare>> {
    let shares = paths
        .iter()
        .map(|f| {
            let text = read_small(f, "seed share file")?;
            SeedShare::from_hex(&text).with_context(|| format!("seed share file {}", f.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    if let [only] = paths {
        bail!(
            "--seed-share {}: a master seed from shares needs at least two, one per party; \
             a seed from one party is given whole with --seed-file",
            only.display()
        );
    }
    for (j, b) in shares.iter().enumerate() {
        if let Some(i) = shares[..j].iter().position(|a| a == b) {
            bail!(
                "seed share files {} and {} hold the same share: each party brings its own",
                paths[i].display(),
                paths[j].display()
            );
        }
    }
    Ok(shares)
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

/// The seed file beside an output (`<out>.seed`), which must always replay what sits at
/// `<out>`: a fresh seed is staged and saved ([`PendingSeed`]); with a seed given, an older
/// seed file holding another seed would sit beside an output it does not replay, so it is
/// refused without `--force` and removed with it, once the new output is in place.
pub enum SeedFile {
    /// A fresh seed, saved when the output is complete.
    Fresh(PendingSeed),
    /// A seed given; the seed file beside the output, if any, holds it already.
    Kept,
    /// A seed given; the seed file at this path holds another (or no) seed and goes.
    Stale(PathBuf),
}

impl SeedFile {
    /// Prepares the seed file `path` for an output made from `seed` (`fresh`: drawn now).
    /// Call before anything is generated. Errors: as [`PendingSeed::stage`]; a seed given
    /// while `path` holds another seed and `force` is not given.
    /// `prefix` starts the staged file's name ([`tirage::lock::staging_prefix`]).
    pub fn prepare(
        path: &Path,
        seed: &Seed,
        fresh: bool,
        force: bool,
        prefix: &str,
    ) -> Result<SeedFile> {
        if fresh {
            return PendingSeed::stage(path, seed, force, prefix).map(SeedFile::Fresh);
        }
        match std::fs::symlink_metadata(path) {
            Err(_) => return Ok(SeedFile::Kept),
            Ok(m) if !m.file_type().is_file() => bail!(
                "{} exists and is not a regular file (a link or a directory): it would sit beside an output it does not replay; move it away",
                path.display()
            ),
            Ok(_) => {}
        }
        let same = read_small(path, "seed file")
            .ok()
            .and_then(|t| Seed::from_hex(&t).ok())
            .is_some_and(|old| old == *seed);
        if same {
            return Ok(SeedFile::Kept);
        }
        if !force {
            bail!(
                "{} holds another seed than the one given: it would sit beside an output it \
                 does not replay; move it away, or pass --force to remove it",
                path.display()
            );
        }
        Ok(SeedFile::Stale(path.to_path_buf()))
    }

    /// How the seed file goes in place with the output (the move itself is made by
    /// [`tirage::generate::Staged::put_in_place`], in the order that survives a crash).
    pub fn placement(&self) -> Option<SeedPlacement> {
        match self {
            SeedFile::Fresh(p) => Some(SeedPlacement {
                path: p.path.clone(),
                new: Some(p.file.path().to_path_buf()),
                replace_old: true,
            }),
            SeedFile::Kept => None,
            SeedFile::Stale(path) => Some(SeedPlacement {
                path: path.clone(),
                new: None,
                replace_old: true,
            }),
        }
    }

    /// Once the output and its seed file are in place: what to tell the user (said even
    /// with `-q`: a secret written or removed is never silent): `seed` names the seed
    /// ("master seed"), `output` what it replays ("the block").
    pub fn finish(self, seed: &str, output: &str) -> Result<Option<String>> {
        Ok(match self {
            SeedFile::Fresh(p) => {
                // Moved into place already: nothing left for the temporary file to remove.
                let (_, _kept) = p.file.keep().map_err(|e| e.error)?;
                Some(format!(
                    "{seed} saved to {} (mode 0600): keep it secret and out of every \
                     delivery; it replays {output}",
                    p.path.display()
                ))
            }
            SeedFile::Kept => None,
            SeedFile::Stale(path) => Some(format!(
                "removed {}: it held another seed, which does not replay {output}",
                path.display()
            )),
        })
    }
}

/// A fresh seed, written before anything is generated to a new temporary file beside its
/// destination (created exclusively, mode 0600, never through a link), and moved into place
/// only once the output is complete. If writing it fails, nothing has been generated; if
/// generation fails, the temporary file is removed and an older seed file stays as it was.
pub struct PendingSeed {
    file: tempfile::NamedTempFile,
    path: PathBuf,
}

impl PendingSeed {
    /// Stages `seed` for `path`. Errors: `path` exists and `force` is not given; `path` is
    /// not a regular file (a link, a directory); the file cannot be written.
    /// `prefix` starts the staged file's name, which identifies the run.
    pub fn stage(path: &Path, seed: &Seed, force: bool, prefix: &str) -> Result<PendingSeed> {
        use std::io::Write;
        if let Ok(meta) = std::fs::symlink_metadata(path) {
            if !force {
                bail!(
                    "{} already exists; pass --force to replace it",
                    path.display()
                );
            }
            if !meta.file_type().is_file() {
                bail!("{} exists and is not a regular file (a link or a directory): the seed is never written there", path.display());
            }
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if let Some(p) = parent.ancestors().find(|p| p.exists()) {
            if !p.is_dir() {
                bail!(
                    "{} is not a directory: nothing can be written under it",
                    p.display()
                );
            }
        }
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        // tempfile creates the file with O_EXCL and mode 0600.
        let mut file = tempfile::Builder::new()
            .prefix(prefix)
            .tempfile_in(&parent)
            .with_context(|| format!("cannot write the seed file in {}", parent.display()))?;
        writeln!(file, "{}", seed.to_hex())
            .and_then(|_| file.as_file().sync_all())
            .and_then(|_| tirage::durable::sync_dir(&parent))
            .with_context(|| format!("cannot write the seed file in {}", parent.display()))?;
        Ok(PendingSeed {
            file,
            path: path.to_path_buf(),
        })
    }
}

/// Reads a small text file (a seed or a seed share): at most 4 KiB, a regular file.
pub fn read_small(path: &Path, what: &str) -> Result<String> {
    use std::io::Read;
    // Checked before opening too: opening a FIFO would wait for a writer.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        bail!("the {what} {} is not a regular file", path.display());
    }
    let f = std::fs::File::open(path)
        .with_context(|| format!("cannot read the {what} {}", path.display()))?;
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        bail!("the {what} {} is not a regular file", path.display());
    }
    let mut text = String::new();
    f.take(4097)
        .read_to_string(&mut text)
        .with_context(|| format!("cannot read the {what} {}", path.display()))?;
    if text.len() > 4096 {
        bail!(
            "the {what} {} is larger than 4 KiB: expected 64 hexadecimal digits",
            path.display()
        );
    }
    Ok(text)
}
