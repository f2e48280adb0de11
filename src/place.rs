//! Putting an output in place without losing anything: where a block may go
//! ([`check_destination`], [`check_not_in_emission`]), and the move of a complete output
//! from its temporary directory beside the destination ([`Staged`] → [`Placed`]), an older
//! output moved aside until the new one is in place, never deleted when it holds files
//! tirage did not write.

use crate::audit::{AUDIT_JSON, AUDIT_MD, AUDIT_SVG};
use crate::generate::{io, GenerateError, Kind};
use crate::output::{manifest, BIN, CSV, MANIFEST, SPEC, SUMS, SUMS_SIG, VALIDATION};
use crate::render::PROOFS;
use std::path::{Path, PathBuf};

/// A destination may be replaced only with `force`, and only when it is a tirage block of
/// the same `kind` (a directory holding a tirage manifest saying so) or an empty directory:
/// `--force` never deletes anything else, and a deck never replaces a production block.
/// Errors: [`GenerateError::Exists`], [`GenerateError::NotABlock`],
/// [`GenerateError::OtherKind`], [`GenerateError::ForeignFiles`] (the block directory
/// holds files tirage did not write).
pub fn check_destination(out: &Path, force: bool, kind: Kind) -> Result<(), GenerateError> {
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    if !force {
        return Err(GenerateError::Exists(out.to_path_buf()));
    }
    let manifest = meta
        .is_dir()
        .then(|| std::fs::read(out.join(MANIFEST)).ok())
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
                    Err(GenerateError::ForeignFiles {
                        path: out.to_path_buf(),
                        names: foreign,
                    })
                }
            } else {
                let name = |k: Option<Kind>| match k {
                    Some(Kind::Production) => "production",
                    Some(Kind::Specimen) => "specimen",
                    None => "unknown",
                };
                Err(GenerateError::OtherKind {
                    path: out.to_path_buf(),
                    existing: name(existing).into(),
                    wanted: name(Some(kind)).into(),
                })
            }
        }
        None if is_empty_dir => Ok(()),
        None => Err(GenerateError::NotABlock(out.to_path_buf())),
    }
}

/// Whether entry `name` of a block directory, of type `ft`, is one tirage writes there: a
/// block file, an audit report file or its temporary file (regular files), or `proofs/`
/// (checked further by [`foreign_files`]).
fn written_by_tirage(name: &str, ft: std::fs::FileType) -> bool {
    const FILES: [&str; 13] = [
        SUMS,
        SUMS_SIG,
        MANIFEST,
        SPEC,
        CSV,
        BIN,
        VALIDATION,
        "tickets.csv.age",
        "tickets.bin.age",
        "validation.csv.age",
        AUDIT_MD,
        AUDIT_JSON,
        AUDIT_SVG,
    ];
    let report_tmp = [AUDIT_MD, AUDIT_JSON, AUDIT_SVG]
        .iter()
        .any(|r| name.starts_with(&format!(".{r}.")) && name.ends_with(".tmp"));
    if name == PROOFS {
        return ft.is_dir();
    }
    (FILES.contains(&name) || report_tmp) && (ft.is_file() || ft.is_symlink())
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
            Some(ft) if written_by_tirage(&name, ft) => {
                if name == PROOFS {
                    for (p, ft) in entries(&dir.join(PROOFS)) {
                        let proof = p.starts_with("ticket-")
                            && p.ends_with(".svg")
                            && ft.is_some_and(|t| t.is_file());
                        if !proof {
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
/// them would leave the emission manifest wrong. Errors: [`GenerateError::InTheWay`].
pub fn check_not_in_emission(out: &Path) -> Result<(), GenerateError> {
    let emission = out
        .parent()
        .map(|p| p.join(crate::emission::EMISSION))
        .filter(|e| e.exists());
    match emission {
        Some(e) => Err(GenerateError::InTheWay {
            path: out.to_path_buf(),
            why: format!(
                "beside {}: a block of an emission is made with the emission (generate --blocks); choose another --out",
                e.display()
            ),
        }),
        None => Ok(()),
    }
}

/// A complete output in a temporary directory beside its destination (see
/// [`crate::generate::stage`]).
#[derive(Debug)]
pub struct Staged {
    tmp: tempfile::TempDir,
    out: PathBuf,
    parent: PathBuf,
}

/// An output just put in place, the older one it replaced (if any) moved aside beside it
/// until [`Placed::finish`] removes it or [`Placed::undo`] puts it back.
#[derive(Debug)]
#[must_use = "the replaced output stays aside until finish() or undo()"]
pub struct Placed {
    out: PathBuf,
    old: Option<PathBuf>,
}

/// An older output that was replaced but could not be removed: left at `path`, a hidden
/// `.tirage-old-*` directory beside the new one, to be removed by hand.
#[derive(Debug, thiserror::Error)]
#[error("the output replaced could not be removed and is left at {}: {error}; remove it by hand", path.display())]
pub struct LeftOver {
    /// Where it is.
    pub path: PathBuf,
    /// Why it could not be removed.
    pub error: std::io::Error,
}

impl Staged {
    /// The output in `tmp`, a temporary directory in `parent`, for destination `out`.
    pub(crate) fn new(tmp: tempfile::TempDir, out: PathBuf, parent: PathBuf) -> Staged {
        Staged { tmp, out, parent }
    }

    /// The temporary directory holding the output.
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Moves the output to its destination, an existing one there first moved aside.
    /// Errors: a rename failed; then the destination is as it was and the output removed.
    pub fn put_in_place(self) -> Result<Placed, GenerateError> {
        let Staged { tmp, out, parent } = self;
        // Checked again: a file may have been put there while the output was being made.
        if out.is_dir() {
            let foreign = foreign_files(&out);
            if !foreign.is_empty() {
                return Err(GenerateError::ForeignFiles {
                    path: out,
                    names: foreign,
                });
            }
        }
        let old = if std::fs::symlink_metadata(&out).is_ok() {
            let old = tempfile::Builder::new()
                .prefix(".tirage-old-")
                .tempdir_in(&parent)
                .map_err(io(&parent))?
                .keep();
            std::fs::remove_dir(&old).map_err(io(&old))?;
            std::fs::rename(&out, &old).map_err(io(&out))?;
            Some(old)
        } else {
            None
        };
        if let Err(e) = std::fs::rename(tmp.path(), &out) {
            if let Some(old) = &old {
                let _ = std::fs::rename(old, &out);
            }
            return Err(io(&out)(e));
        }
        // Moved: nothing left for the temporary directory to remove.
        let _ = tmp.keep();
        Ok(Placed { out, old })
    }
}

impl Placed {
    /// Removes the older output moved aside. `Err`: it could not be removed and is left
    /// where it was moved (the new output is in place all the same).
    pub fn finish(self) -> Result<(), LeftOver> {
        match self.old {
            Some(path) => std::fs::remove_dir_all(&path).map_err(|error| LeftOver { path, error }),
            None => Ok(()),
        }
    }

    /// Takes the new output away and puts the older one back (an emission whose later part
    /// failed). Errors: a removal or rename failed.
    pub fn undo(self) -> Result<(), GenerateError> {
        std::fs::remove_dir_all(&self.out).map_err(io(&self.out))?;
        if let Some(old) = &self.old {
            std::fs::rename(old, &self.out).map_err(io(old))?;
        }
        Ok(())
    }
}
