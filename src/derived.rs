//! What tirage writes beside an output from it, in a directory named after it: the audit
//! report `verify` writes (`<out>.audit/`) and the proofs `render` draws (`<out>.proofs/`).
//! When the output is replaced (a block, deck or emission by `generate`/`deck`, a bundle by
//! `package`), they describe files no longer there: they are set aside under hidden names
//! before the move, removed once the new output is in place, put back if it could not be.

use crate::block::layout::{is_proof, EMISSION, MANIFEST};
use crate::store::durable;
use std::path::{Path, PathBuf};

/// What tirage writes beside an output from it, in a directory named after it: the audit
/// report `verify` writes (`<out>.audit/`) and the proofs `render` draws (`<out>.proofs/`).
/// Either describes that output only: once it is replaced, they go with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derived {
    /// `<out>.audit/`: `audit.md`, `audit.json`, `audit.svg`, `audit.pdf`.
    Audit,
    /// `<out>.proofs/`: `ticket-N.svg`.
    Proofs,
}

impl Derived {
    /// Both kinds, in the order they are removed and said.
    pub const ALL: [Derived; 2] = [Derived::Audit, Derived::Proofs];

    /// The suffix of its directory's name after the output's (`.audit`, `.proofs`).
    fn suffix(self) -> &'static str {
        match self {
            Derived::Audit => crate::block::layout::AUDIT_DIR_SUFFIX,
            Derived::Proofs => crate::block::layout::PROOFS_DIR_SUFFIX,
        }
    }

    /// True when a regular file named `name` in its directory is one tirage writes there
    /// (its temporary files included).
    fn holds(self, name: &str) -> bool {
        match self {
            Derived::Audit => crate::block::layout::is_report_file(name),
            Derived::Proofs => {
                is_proof(name, true) || name.starts_with(crate::block::layout::PROOF_TMP)
            }
        }
    }

    /// Why a file named `name` in its directory keeps it: not one tirage writes there.
    fn stranger(self, name: &str) -> String {
        match self {
            Derived::Audit => format!("it holds {name}, which verify does not write there"),
            Derived::Proofs => {
                format!("it holds {name}, which is not a proof render draws there (ticket-N.svg)")
            }
        }
    }

    /// What its directory is: "is the audit report", "holds the proofs".
    fn what_it_is(self) -> &'static str {
        match self {
            Derived::Audit => "is the audit report",
            Derived::Proofs => "holds the proofs",
        }
    }

    /// What a user does to have it again for the new output.
    fn again(self) -> &'static str {
        match self {
            Derived::Audit => "verify the new one",
            Derived::Proofs => "render the new one's",
        }
    }
}

impl std::fmt::Display for Derived {
    /// "the audit report", "the proofs".
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Derived::Audit => "the audit report",
            Derived::Proofs => "the proofs",
        })
    }
}

/// The audit report or proofs of an output that was replaced, removed: its directory and
/// which it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removed {
    /// The directory removed.
    pub path: PathBuf,
    /// What it held.
    pub kind: Derived,
}

/// The audit report or proofs of an output that was replaced, left beside the new output:
/// it holds files tirage does not write there, is another user's, or could not be removed.
#[derive(Debug, thiserror::Error)]
#[error("{} {} of the output replaced, not of this one, and is left: {error}; {}, or remove it", path.display(), kind.what_it_is(), kind.again())]
pub struct StaleReport {
    /// The directory.
    pub path: PathBuf,
    /// What it holds.
    pub kind: Derived,
    /// Why it is left.
    pub error: std::io::Error,
}

/// Sets aside the audit report `verify` wrote beside block `out` by default
/// (`<out>.audit/`) and the proofs `render` drew there (`<out>.proofs/`), once a new block
/// is ready to replace the one they describe: read later, the report would vouch for files
/// no longer there, and a proof would show a face the new block does not print. Only a
/// directory of this user's that holds nothing but files tirage writes there (see
/// [`Derived`], their temporary files included) is set aside: moved to a hidden name beside
/// it ([`SetAside`]), removed by [`finish_stale`] once the new block is in place, put back
/// by [`restore_stale`] if it could not be. Returns one entry per directory found, audit
/// report first: the [`SetAside`], or the [`StaleReport`] left (it holds something else,
/// is not this user's, or cannot be moved).
pub fn set_aside_stale(out: &Path) -> Vec<Result<SetAside, StaleReport>> {
    let Some(name) = out.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    Derived::ALL
        .into_iter()
        .filter_map(|kind| {
            let dir = out.with_file_name(format!("{name}{}", kind.suffix()));
            set_aside(&dir, kind).transpose()
        })
        .collect()
}

/// Sets aside the audit reports `verify` wrote and the proofs `render` drew beside
/// emission `out` by default, as [`set_aside_stale`] does a block's: the emission's own
/// report (`<out>.audit/`), and each block's report and proofs
/// (`<emission>.block-NNN.audit/`, `<emission>.block-NNN.proofs/`, beside the emission's
/// real path, whatever blocks the older emission held; not those beside a block or
/// emission of that very name, `<emission>.block-NNN`, whose they are). Returns one entry
/// per directory found, in the order of their names.
pub fn set_aside_stale_emission(out: &Path) -> Vec<Result<SetAside, StaleReport>> {
    let mut found = set_aside_stale(out);
    let Ok(real) = std::fs::canonicalize(out) else {
        return found;
    };
    let (Some(of), Some(parent)) = (real.file_name().and_then(|n| n.to_str()), real.parent())
    else {
        return found;
    };
    let prefix = format!("{of}.block-");
    let mut dirs: Vec<(PathBuf, Derived)> = std::fs::read_dir(parent)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let rest = name.strip_prefix(&prefix)?;
            let (number, kind) = Derived::ALL
                .into_iter()
                .find_map(|k| Some((rest.strip_suffix(k.suffix())?, k)))?;
            let own = number.len() == 3 && number.bytes().all(|b| b.is_ascii_digit());
            // A block or emission named `<emission>.block-NNN` there: they are its own.
            let alike = parent.join(format!("{prefix}{number}"));
            let of_another = alike.join(MANIFEST).is_file() || alike.join(EMISSION).is_file();
            (own && !of_another).then(|| (e.path(), kind))
        })
        .collect();
    dirs.sort_by(|a, b| a.0.cmp(&b.0));
    found.extend(
        dirs.into_iter()
            .filter_map(|(dir, kind)| set_aside(&dir, kind).transpose()),
    );
    found
}

/// Once the new output is in place: removes every directory [`set_aside_stale`] or
/// [`set_aside_stale_emission`] set aside, and passes on those it left. Returns one entry
/// per directory, in the same order: [`Removed`], or the [`StaleReport`] left (one that
/// cannot be removed is put back at its name, and said).
pub fn finish_stale(
    aside: Vec<Result<SetAside, StaleReport>>,
) -> Vec<Result<Removed, StaleReport>> {
    let done: Vec<Result<Removed, StaleReport>> = aside
        .into_iter()
        .map(|a| a.and_then(SetAside::remove))
        .collect();
    let mut parents: Vec<PathBuf> = done
        .iter()
        .flatten()
        .map(|r| durable::parent_of(&r.path))
        .collect();
    parents.sort();
    parents.dedup();
    for p in parents {
        let _ = durable::sync_dir(&p);
    }
    done
}

/// When the new output could not be put in place: puts every directory set aside back at
/// its name, as it was.
pub fn restore_stale(aside: Vec<Result<SetAside, StaleReport>>) {
    for a in aside.into_iter().flatten() {
        let _ = durable::rename_noreplace(&a.at, &a.from);
        let _ = durable::sync_dir(&durable::parent_of(&a.from));
    }
}

/// An audit report or proofs directory of an output being replaced, moved to a hidden name
/// beside its own ([`set_aside_stale`]) until the replacement is done: then removed, or,
/// when the replacement fails, put back.
#[derive(Debug)]
pub struct SetAside {
    /// Its name.
    from: PathBuf,
    /// Where it is meanwhile.
    at: PathBuf,
    kind: Derived,
}

impl SetAside {
    /// Removes it (its files checked again as they are removed); when it cannot be, puts it
    /// back at its name. Errors: why it is left.
    fn remove(self) -> Result<Removed, StaleReport> {
        match remove_dir(&self.at, &self.from, self.kind) {
            Ok(()) => Ok(Removed {
                path: self.from,
                kind: self.kind,
            }),
            Err(e) => {
                let _ = durable::rename_noreplace(&self.at, &self.from);
                Err(e)
            }
        }
    }
}

/// An audit report or proofs directory that a run which did not finish left set aside
/// ([`set_aside_stale`], [`set_aside_stale_emission`]), and what [`recover_set_aside`] did
/// with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftAside {
    /// Its own name, beside the output.
    pub path: PathBuf,
    /// The hidden name it was set aside under.
    pub at: PathBuf,
    /// What it holds.
    pub kind: Derived,
    /// What became of it.
    pub fate: Fate,
}

/// What [`recover_set_aside`] did with a directory set aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Moved back to its name: the output it describes is in place.
    PutBack,
    /// Removed: it described an output that was replaced.
    Removed,
    /// Removed: the output it describes is in place, but its name holds a directory made
    /// since, which stays.
    Superseded,
}

impl std::fmt::Display for LeftAside {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let (path, at, kind) = (self.path.display(), self.at.display(), self.kind);
        match self.fate {
            Fate::PutBack => write!(
                f,
                "put {kind} back at {path}: an earlier run that did not finish had set it aside \
                 ({at}), and the output it describes is in place"
            ),
            Fate::Removed => write!(
                f,
                "removed {at}: {kind} of the output that an earlier run replaced, set aside \
                 from {path} and left when that run did not finish"
            ),
            Fate::Superseded => write!(
                f,
                "removed {at}: an older copy of {kind} at {path}, set aside by an earlier run \
                 that did not finish"
            ),
        }
    }
}

/// A directory set aside that [`recover_set_aside`] left under its hidden name.
#[derive(Debug, thiserror::Error)]
#[error("{} is {kind} that an earlier run set aside from {}, and is left: {error}; look at it, then remove it", at.display(), path.display())]
pub struct AsideLeft {
    /// Its own name.
    pub path: PathBuf,
    /// Its hidden name.
    pub at: PathBuf,
    /// What it holds.
    pub kind: Derived,
    /// Why it is left.
    pub error: std::io::Error,
}

/// Finds what a run that did not finish left set aside beside output `out` (the audit
/// report and proofs of an output it was replacing, under hidden names
/// `.<dir>.tirage-aside-*`, [`set_aside_stale`] and [`set_aside_stale_emission`]), and
/// puts each back at its name when `put_back` (the output they describe is in place: the
/// replacement was rolled back or never began), else removes it (the replacement was
/// finished). One whose name has been taken since is removed. Call it under `out`'s
/// exclusive lock, once its replacement's journal is acted on
/// ([`crate::generate::place::recover`]). Only a directory of this user's holding nothing
/// but files tirage writes there is moved or removed. Returns one entry per directory
/// found, in the order of their names: what became of it, or why it is left.
pub fn recover_set_aside(out: &Path, put_back: bool) -> Vec<Result<LeftAside, AsideLeft>> {
    let Some(name) = out.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let parent = durable::parent_of(out);
    let mut found: Vec<(PathBuf, PathBuf, Derived)> = std::fs::read_dir(&parent)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().into_string().ok()?;
            let (own, _) = n.strip_prefix('.')?.split_once(".tirage-aside-")?;
            let kind = aside_kind(own, name, &parent)?;
            Some((parent.join(own), e.path(), kind))
        })
        .collect();
    found.sort_by(|a, b| a.1.cmp(&b.1));
    let done: Vec<_> = found
        .into_iter()
        .map(|(path, at, kind)| put_back_or_remove(path, at, kind, put_back))
        .collect();
    if !done.is_empty() {
        let _ = durable::sync_dir(&parent);
    }
    done
}

/// What directory `own` beside output `name` (in `parent`) holds, when it is one that
/// [`set_aside_stale`] or [`set_aside_stale_emission`] sets aside for that output: the
/// output's `<name>.audit` or `<name>.proofs`, or an emission's block's
/// `<name>.block-NNN.audit` or `.proofs` (not when an output of that very name,
/// `<name>.block-NNN`, is there: they are its own).
fn aside_kind(own: &str, name: &str, parent: &Path) -> Option<Derived> {
    let rest = own.strip_prefix(name)?;
    Derived::ALL.into_iter().find_map(|kind| {
        let middle = rest.strip_suffix(kind.suffix())?;
        if middle.is_empty() {
            return Some(kind);
        }
        let number = middle.strip_prefix(".block-")?;
        let numbered = number.len() == 3 && number.bytes().all(|b| b.is_ascii_digit());
        let alike = parent.join(format!("{name}.block-{number}"));
        let of_another = alike.join(MANIFEST).is_file() || alike.join(EMISSION).is_file();
        (numbered && !of_another).then_some(kind)
    })
}

/// Puts directory `at` (set aside from `path`) back, or removes it: see
/// [`recover_set_aside`].
fn put_back_or_remove(
    path: PathBuf,
    at: PathBuf,
    kind: Derived,
    put_back: bool,
) -> Result<LeftAside, AsideLeft> {
    let left = |error: std::io::Error| AsideLeft {
        path: path.clone(),
        at: at.clone(),
        kind,
        error,
    };
    crate::store::owner::ours(&at).map_err(|e| left(std::io::Error::other(e.why)))?;
    check_files(&at, kind).map_err(left)?;
    let free = std::fs::symlink_metadata(&path).is_err();
    let fate = if put_back && free {
        durable::rename_noreplace(&at, &path).map_err(left)?;
        Fate::PutBack
    } else {
        remove_dir(&at, &at, kind).map_err(|e| left(e.error))?;
        if put_back {
            Fate::Superseded
        } else {
            Fate::Removed
        }
    };
    Ok(LeftAside {
        path,
        at,
        kind,
        fate,
    })
}

/// Checks directory `dir` of `kind` (see [`set_aside_stale`]) and moves it to a hidden name
/// beside it: `Ok(None)` when nothing is there. Errors: why it is left where it is.
fn set_aside(dir: &Path, kind: Derived) -> Result<Option<SetAside>, StaleReport> {
    let left = |error: std::io::Error| StaleReport {
        path: dir.to_path_buf(),
        kind,
        error,
    };
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(m) if m.is_symlink() => {
            return Err(left(std::io::Error::other(
                "it is a symbolic link, never followed",
            )))
        }
        Ok(_) => return Err(left(std::io::Error::other("not a directory"))),
        Err(_) => return Ok(None),
    }
    crate::store::owner::ours(dir).map_err(|e| left(std::io::Error::other(e.why)))?;
    check_files(dir, kind).map_err(left)?;
    let at = crate::store::lock::hidden_name(dir, "aside").map_err(left)?;
    durable::rename_noreplace(dir, &at).map_err(left)?;
    Ok(Some(SetAside {
        from: dir.to_path_buf(),
        at,
        kind,
    }))
}

/// The files of directory `dir` of `kind`, each a regular file tirage writes there.
/// Errors: the first that is not, or the directory cannot be read.
fn check_files(dir: &Path, kind: Derived) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if !kind.holds(&name) {
            return Err(std::io::Error::other(kind.stranger(&name)));
        }
        if !e.file_type().is_ok_and(|t| t.is_file()) {
            return Err(std::io::Error::other(format!(
                "its {name} is not a regular file"
            )));
        }
        files.push(e.path());
    }
    Ok(files)
}

/// Removes directory `at` of `kind`, set aside from `from` (the name its errors give), and
/// every file in it, once each is seen to be one tirage writes there. Errors: why it is
/// left.
fn remove_dir(at: &Path, from: &Path, kind: Derived) -> Result<(), StaleReport> {
    let left = |error: std::io::Error| StaleReport {
        path: from.to_path_buf(),
        kind,
        error,
    };
    for f in check_files(at, kind).map_err(left)? {
        std::fs::remove_file(&f).map_err(|e| {
            let name = f.file_name().unwrap_or_default().to_string_lossy();
            left(std::io::Error::new(
                e.kind(),
                format!("{name} cannot be removed ({e}), the files before it were"),
            ))
        })?;
    }
    std::fs::remove_dir(at).map_err(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with block `b`, its report and proofs set aside under hidden names (as a
    /// run killed while it replaced `b` leaves them), and those of another output `c`.
    fn set_aside_by_a_dead_run() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let at = |n: &str| d.path().join(n);
        std::fs::create_dir(at("b")).unwrap();
        for (dir, file) in [
            (".b.audit.tirage-aside-7-x", "audit.md"),
            (".b.proofs.tirage-aside-7-y", "ticket-3.svg"),
            (".c.audit.tirage-aside-7-z", "audit.md"),
        ] {
            std::fs::create_dir(at(dir)).unwrap();
            std::fs::write(at(dir).join(file), "old").unwrap();
        }
        d
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn reports_set_aside_go_back_beside_the_output_they_describe() {
        let d = set_aside_by_a_dead_run();
        let out = d.path().join("b");
        let done: Vec<LeftAside> = recover_set_aside(&out, true)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            done.iter().map(|a| (a.kind, a.fate)).collect::<Vec<_>>(),
            [
                (Derived::Audit, Fate::PutBack),
                (Derived::Proofs, Fate::PutBack)
            ]
        );
        assert_eq!(
            done[0].to_string(),
            format!(
                "put the audit report back at {}: an earlier run that did not finish had set \
                 it aside ({}), and the output it describes is in place",
                d.path().join("b.audit").display(),
                d.path().join(".b.audit.tirage-aside-7-x").display()
            )
        );
        // Another output's are not touched.
        assert_eq!(
            names(d.path()),
            [".c.audit.tirage-aside-7-z", "b", "b.audit", "b.proofs"]
        );
        assert_eq!(
            std::fs::read_to_string(d.path().join("b.proofs/ticket-3.svg")).unwrap(),
            "old"
        );
    }

    #[test]
    fn reports_of_a_replaced_output_or_superseded_are_removed() {
        let d = set_aside_by_a_dead_run();
        let out = d.path().join("b");
        let fates: Vec<Fate> = recover_set_aside(&out, false)
            .into_iter()
            .map(|a| a.unwrap().fate)
            .collect();
        assert_eq!(fates, [Fate::Removed, Fate::Removed]);
        assert_eq!(names(d.path()), [".c.audit.tirage-aside-7-z", "b"]);
        // Put back asked, but a report was written at its name since: that one stays.
        let d = set_aside_by_a_dead_run();
        std::fs::create_dir(d.path().join("b.audit")).unwrap();
        std::fs::write(d.path().join("b.audit/audit.md"), "new").unwrap();
        let fates: Vec<Fate> = recover_set_aside(&d.path().join("b"), true)
            .into_iter()
            .map(|a| a.unwrap().fate)
            .collect();
        assert_eq!(fates, [Fate::Superseded, Fate::PutBack]);
        assert_eq!(
            std::fs::read_to_string(d.path().join("b.audit/audit.md")).unwrap(),
            "new"
        );
    }

    #[test]
    fn a_directory_set_aside_holding_another_file_is_left_and_said() {
        let d = set_aside_by_a_dead_run();
        let aside = d.path().join(".b.audit.tirage-aside-7-x");
        std::fs::write(aside.join("notes.txt"), "mine").unwrap();
        let done = recover_set_aside(&d.path().join("b"), false);
        let left = done[0].as_ref().unwrap_err();
        assert_eq!(
            left.to_string(),
            format!(
                "{} is the audit report that an earlier run set aside from {}, and is left: it \
                 holds notes.txt, which verify does not write there; look at it, then remove it",
                aside.display(),
                d.path().join("b.audit").display()
            )
        );
        assert!(aside.join("notes.txt").is_file());
    }
}
