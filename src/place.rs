//! Putting an output in place without losing anything: where a block may go
//! ([`check_destination`], [`check_not_in_emission`]), and the move of a complete output
//! from its temporary directory beside the destination ([`Staged`] → [`Placed`]), an older
//! output moved aside until the new one is in place, never deleted when it holds files
//! tirage did not write.

use crate::block::layout::{is_proof, written_by_tirage, EMISSION, MANIFEST, PROOFS};
use crate::block::Kind;
use crate::durable;
use crate::output::manifest;
use std::path::{Path, PathBuf};

/// Why an output may not go to its destination, or could not be moved there. On any of
/// them, what was at the destination is as it was.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// The destination exists and `force` was not given.
    #[error("{0} already exists; pass --force to replace it")]
    Exists(PathBuf),
    /// `--force` was given but the destination is not a tirage block: it is never deleted.
    #[error("{0} exists and is not a tirage block (no tirage manifest.json in it); --force replaces only blocks: choose another --out")]
    NotABlock(PathBuf),
    /// `--force` was given but the block directory also holds files tirage did not write,
    /// which replacing it would delete.
    #[error("{} holds files tirage did not write ({}): --force would delete them with the block; move them out first", path.display(), names.join(", "))]
    ForeignFiles {
        /// The block directory.
        path: PathBuf,
        /// Their names.
        names: Vec<String>,
    },
    /// Something at an emission's destination, or a block's, would no longer belong with
    /// what is made there (a stray block, a seed file, a foreign emission manifest, a
    /// block of an emission made alone).
    #[error("{}: {why}", path.display())]
    InTheWay {
        /// What is there.
        path: PathBuf,
        /// Why it is in the way, and what to do.
        why: String,
    },
    /// `--force` was given but the destination holds a block of the other kind: a deck never
    /// replaces a production block (nor its seed), nor a production block a deck.
    #[error("{path} holds a {existing} block; --force replaces it only with another {existing} block (this is a {wanted} block): choose another --out")]
    OtherKind {
        /// The destination.
        path: PathBuf,
        /// Kind of the block there (`production`, `specimen`, or `unknown`).
        existing: String,
        /// Kind of the block being made.
        wanted: String,
    },
    /// An emission's destination holds a block: an emission goes to a directory of its own.
    #[error("{0} holds a block (manifest.json): an emission goes to a directory of its own, holding block-NNN directories and emission.json; choose another --out")]
    BlockNotEmission(PathBuf),
    /// A file could not be created, written or moved.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

/// Maps an I/O error on `path` to [`PlaceError::Io`].
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PlaceError + '_ {
    move |error| PlaceError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// A destination may be replaced only with `force`, and only when it is a tirage block of
/// the same `kind` (a directory holding a tirage manifest saying so) or an empty directory:
/// `--force` never deletes anything else, and a deck never replaces a production block.
/// Errors: [`PlaceError::Exists`], [`PlaceError::NotABlock`],
/// [`PlaceError::OtherKind`], [`PlaceError::ForeignFiles`] (the block directory
/// holds files tirage did not write).
pub fn check_destination(out: &Path, force: bool, kind: Kind) -> Result<(), PlaceError> {
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    if !force {
        return Err(PlaceError::Exists(out.to_path_buf()));
    }
    let manifest = meta
        .is_dir()
        .then(|| crate::output::read_regular(&out.join(MANIFEST), crate::output::MAX_JSON).ok())
        .flatten()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .filter(|v| v["format"] == manifest::FORMAT);
    let is_empty_dir =
        meta.is_dir() && std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none());
    match manifest {
        Some(v) => {
            let existing = serde_json::from_value::<Kind>(v["kind"].clone()).ok();
            if existing == Some(kind) {
                let foreign = foreign_files(out);
                if foreign.is_empty() {
                    Ok(())
                } else {
                    Err(PlaceError::ForeignFiles {
                        path: out.to_path_buf(),
                        names: foreign,
                    })
                }
            } else {
                let name = |k: Option<Kind>| k.map_or("unknown", Kind::name);
                Err(PlaceError::OtherKind {
                    path: out.to_path_buf(),
                    existing: name(existing).into(),
                    wanted: name(Some(kind)).into(),
                })
            }
        }
        None if is_empty_dir => Ok(()),
        None => Err(PlaceError::NotABlock(out.to_path_buf())),
    }
}

/// What in block directory `dir` tirage did not write (see [`foreign_files`]), for an
/// emission's check of its blocks.
pub(crate) fn foreign_in_block(dir: &Path) -> Vec<String> {
    foreign_files(dir)
}

/// What in block directory `dir` tirage did not write (sorted; `proofs/x` for an entry of
/// `proofs/` other than a `ticket-N.svg` file), which `--force` would delete with the block.
fn foreign_files(dir: &Path) -> Vec<String> {
    let entries = |d: &Path| -> Vec<(String, Option<std::fs::FileType>)> {
        std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    e.file_type().ok(),
                )
            })
            .collect()
    };
    let mut names = Vec::new();
    for (name, ft) in entries(dir) {
        match ft {
            Some(ft)
                if (ft.is_dir() || ft.is_file() || ft.is_symlink())
                    && written_by_tirage(&name, ft.is_dir()) =>
            {
                if name == PROOFS {
                    for (p, ft) in entries(&dir.join(PROOFS)) {
                        if !is_proof(&p, ft.is_some_and(|t| t.is_file())) {
                            names.push(format!("{PROOFS}/{p}"));
                        }
                    }
                }
            }
            _ => names.push(name),
        }
    }
    names.sort();
    names
}

/// A block or deck made alone never goes into an emission's directory (beside its
/// `emission.json`): it would stand among blocks of another seed, and replacing one of
/// them would leave the emission manifest wrong. Errors: [`PlaceError::InTheWay`].
pub fn check_not_in_emission(out: &Path) -> Result<(), PlaceError> {
    let emission = out
        .parent()
        .map(|p| p.join(EMISSION))
        .filter(|e| e.exists());
    match emission {
        Some(e) => Err(PlaceError::InTheWay {
            path: out.to_path_buf(),
            why: format!(
                "beside {}: a block of an emission is made with the emission (generate --blocks); choose another --out",
                e.display()
            ),
        }),
        None => Ok(()),
    }
}

/// The seed file beside an output (`<out>.seed`) and what becomes of it when the output
/// goes in place: it must always replay the output beside it.
#[derive(Debug, Clone)]
pub struct SeedPlacement {
    /// The seed file's path, `<out>.seed`.
    pub path: PathBuf,
    /// A fresh seed staged beside it (flushed to the disk), moved to `path`; `None`: no
    /// new seed file.
    pub new: Option<PathBuf>,
    /// True: an older file at `path` goes (it does not replay the new output).
    pub replace_old: bool,
}

/// A complete output in a temporary directory beside its destination (see
/// [`crate::generate::stage`]), every file of it flushed to the disk.
#[derive(Debug)]
pub struct Staged {
    tmp: tempfile::TempDir,
    out: PathBuf,
    parent: PathBuf,
    /// What in an existing destination the new output may not replace (rechecked just
    /// before the move).
    foreign: fn(&Path) -> Vec<String>,
}

/// An output just put in place, the older one it replaced (and its seed file) moved aside
/// until [`Placed::finish`] removes them.
#[derive(Debug)]
#[must_use = "the replaced output stays aside until finish()"]
pub struct Placed {
    old: Option<PathBuf>,
    old_seed: Option<PathBuf>,
    parent: PathBuf,
}

/// An older output that was replaced but could not be removed: left at `path`, a hidden
/// `.<name>.tirage-old-*` directory beside the new one; the next run to that destination
/// removes it, or remove it by hand.
#[derive(Debug, thiserror::Error)]
#[error("the output replaced could not be removed and is left at {}: {error}; the next run to this destination removes it, or remove it by hand", path.display())]
pub struct LeftOver {
    /// Where it is.
    pub path: PathBuf,
    /// Why it could not be removed.
    pub error: std::io::Error,
}

/// A new hidden name beside output `out` for `what` (see [`crate::lock::staging_prefix`]),
/// nothing there yet.
fn aside_name(out: &Path, parent: &Path, what: &str) -> Result<PathBuf, PlaceError> {
    let d = tempfile::Builder::new()
        .prefix(&crate::lock::staging_prefix(out, what))
        .tempdir_in(parent)
        .map_err(io(parent))?
        .keep();
    std::fs::remove_dir(&d).map_err(io(&d))?;
    Ok(d)
}

impl Staged {
    /// The output in `tmp`, a temporary directory in `parent`, for destination `out` (a
    /// block or deck).
    pub(crate) fn new(tmp: tempfile::TempDir, out: PathBuf, parent: PathBuf) -> Staged {
        Staged {
            tmp,
            out,
            parent,
            foreign: foreign_files,
        }
    }

    /// The same, for a destination whose tirage files are told by `foreign` (an emission).
    pub(crate) fn with_foreign(mut self, foreign: fn(&Path) -> Vec<String>) -> Staged {
        self.foreign = foreign;
        self
    }

    /// The temporary directory holding the output.
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Moves the output to its destination, with its seed file (see [`SeedPlacement`]), in
    /// an order such that a crash at any point leaves at the destination the old output,
    /// nothing, or the new output whole, and beside it a seed file that replays it (or
    /// none): the old output, then the old seed file, are moved aside; the new seed file is
    /// moved in; then the new output (never over something another run put there); the
    /// directory is flushed to the disk after each step. Errors: a step failed; then what
    /// was moved is put back, and the output stays staged (removed when dropped).
    pub fn put_in_place(self, seed: Option<&SeedPlacement>) -> Result<Placed, PlaceError> {
        let Staged {
            tmp,
            out,
            parent,
            foreign,
        } = self;
        // Checked again: a file may have been put there while the output was being made.
        if out.is_dir() {
            let names = foreign(&out);
            if !names.is_empty() {
                return Err(PlaceError::ForeignFiles { path: out, names });
            }
        }
        let sync = || durable::sync_dir(&parent).map_err(io(&parent));
        let mut placed = Placed {
            old: None,
            old_seed: None,
            parent: parent.clone(),
        };
        let mut new_seed_in: Option<(&Path, &Path)> = None;
        let steps = (|| {
            if std::fs::symlink_metadata(&out).is_ok() {
                let old = aside_name(&out, &parent, "old")?;
                durable::rename_noreplace(&out, &old).map_err(io(&out))?;
                placed.old = Some(old);
                sync()?;
            }
            if let Some(s) = seed {
                let there = std::fs::symlink_metadata(&s.path).is_ok();
                if there && (s.replace_old || s.new.is_some()) {
                    let old = aside_name(&out, &parent, "oldseed")?;
                    durable::rename_noreplace(&s.path, &old).map_err(io(&s.path))?;
                    placed.old_seed = Some(old);
                    sync()?;
                }
                if let Some(new) = &s.new {
                    durable::rename_noreplace(new, &s.path).map_err(io(&s.path))?;
                    new_seed_in = Some((new, &s.path));
                    sync()?;
                }
            }
            durable::rename_noreplace(tmp.path(), &out).map_err(io(&out))?;
            sync()
        })();
        if let Err(e) = steps {
            if std::fs::symlink_metadata(tmp.path()).is_err() {
                // The output went in but was not flushed: it goes back to be removed.
                let _ = std::fs::rename(&out, tmp.path());
            }
            if let Some((new, path)) = new_seed_in {
                let _ = std::fs::rename(path, new);
            }
            if let (Some(old), Some(s)) = (&placed.old_seed, seed) {
                let _ = std::fs::rename(old, &s.path);
            }
            if let Some(old) = &placed.old {
                let _ = std::fs::rename(old, &out);
            }
            let _ = durable::sync_dir(&parent);
            return Err(e);
        }
        // Moved: nothing left for the temporary directory to remove.
        let _ = tmp.keep();
        Ok(placed)
    }
}

impl Placed {
    /// Removes the older output and seed file moved aside. `Err`: the older output could
    /// not be removed and is left where it was moved (the new output is in place all the
    /// same).
    pub fn finish(self) -> Result<(), LeftOver> {
        if let Some(seed) = &self.old_seed {
            let _ = std::fs::remove_file(seed);
        }
        let r = match self.old {
            Some(path) => std::fs::remove_dir_all(&path).map_err(|error| LeftOver { path, error }),
            None => Ok(()),
        };
        let _ = durable::sync_dir(&self.parent);
        r
    }
}
