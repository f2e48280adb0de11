//! Exclusive outputs: an advisory lock (`flock`) on a lock file beside each output,
//! `.<name>.tirage-lock`, held while the output is made, replaced or verified: exclusive
//! for `generate` and `deck`, shared for `verify` and `render`. Everything a run stages
//! beside output `<name>` is named `.<name>.tirage-<what>-<pid>-<random>`: while a run
//! holds the exclusive lock, no other run of that output is alive, so every such name is a
//! leftover of a dead run ([`OutputLock::leftovers`]), which the next run removes. The lock
//! file itself stays (removing it would let two runs lock two different files). The lock
//! file is its owner's alone (mode 0600: `flock` needs only a descriptor open for reading,
//! so another user able to open it could hold it forever), and neither a lock file nor a
//! leftover of another user's is used or removed ([`crate::store::owner`]).

use crate::store::durable::parent_of;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Why an output could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another run holds the lock and waiting was not asked for.
    #[error("{} is being written or verified by another tirage run (it holds {}): wait for it to finish, or choose another --out", out.display(), lock.display())]
    Busy {
        /// The output.
        out: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
    /// A folder the output goes in is something else (a file, a device): nothing can be
    /// written under it.
    #[error("{}: {} is not a folder, so nothing can be written under it; choose an --out inside a folder", out.display(), parent.display())]
    NotAFolder {
        /// The output.
        out: PathBuf,
        /// The first of its parents that exists, which is not a folder.
        parent: PathBuf,
    },
    /// The lock file is another user's: it may have been planted to hold the lock
    /// forever, so it is not used.
    #[error("{}, the lock file of {}: {}, so it is not used: tirage locks only with a lock file of the user running it; if no run of yours made it, someone else may have planted it to hold the lock: look at it, then remove it (or work on {} as the user who owns it); nothing was written", lock.path.display(), out.display(), lock.why, out.display())]
    NotOurs {
        /// The output.
        out: PathBuf,
        /// The lock file, whose it is.
        lock: crate::store::owner::NotOurs,
    },
    /// The lock file is a symbolic link: it is never opened through one, which may have
    /// been planted to make tirage open another file.
    #[error("{}, the lock file of {}, is a symbolic link: tirage never opens its lock file through a link; if no run of yours made it, someone else may have planted it: look at it, then remove it", lock.display(), out.display())]
    Link {
        /// The output.
        out: PathBuf,
        /// The lock file.
        lock: PathBuf,
    },
    /// The lock file could not be created or locked.
    #[error("{}: cannot lock it: {error}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

/// The name of output `out`'s file name, or `output` when it has none (`/`, `..`).
fn name_of(out: &Path) -> String {
    out.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into())
}

/// The lock file of output `out`: `.<name>.tirage-lock` beside it.
pub fn lock_path(out: &Path) -> PathBuf {
    parent_of(out).join(format!(".{}.tirage-lock", name_of(out)))
}

/// The journal of a replacement of output `out` under way ([`crate::generate::place::recover`]):
/// `.<name>.tirage-journal` beside it.
pub fn journal_path(out: &Path) -> PathBuf {
    parent_of(out).join(format!(".{}.tirage-journal", name_of(out)))
}

/// The start of every name a run stages beside output `out` for `what` (`tmp`: the output
/// being made; `old`: an output replaced; `seed`: a fresh seed; `oldseed`: a seed file
/// replaced; `aside`: a report or proofs directory set aside): `.<name>.tirage-<what>-<pid>-`,
/// a random part follows.
pub fn staging_prefix(out: &Path, what: &str) -> String {
    format!(".{}.tirage-{what}-{}-", name_of(out), std::process::id())
}

/// A new hidden name beside `out` for `what` ([`staging_prefix`] and a random part),
/// nothing there yet: nothing is made there (the caller holds `out`'s exclusive lock, or
/// renames into it without replacing). Errors: no free name could be found, or the folder
/// cannot be read.
pub fn hidden_name(out: &Path, what: &str) -> std::io::Result<PathBuf> {
    tempfile::Builder::new()
        .prefix(&staging_prefix(out, what))
        .make_in(parent_of(out), |p| {
            if std::fs::symlink_metadata(p).is_ok() {
                Err(std::io::ErrorKind::AlreadyExists.into())
            } else {
                Ok(p.to_path_buf())
            }
        })
        .and_then(|n| n.keep().map(|(p, _)| p).map_err(|e| e.error))
}

/// A lock held on an output until dropped.
#[derive(Debug)]
pub struct OutputLock {
    _file: File,
    out: PathBuf,
}

/// How to lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One run alone: it makes or replaces the output.
    Exclusive,
    /// Runs that only read the output (and write reports into it).
    Shared,
}

impl OutputLock {
    /// Locks output `out` (which need not exist). Exclusive: the lock file is created, and
    /// the parent directory; shared: only a lock file already there is locked (a reader
    /// writes nothing beside an output; an output made by tirage has one), else an `Io`
    /// error of kind `NotFound`. `wait`: block until the lock is free; else fail at once
    /// with [`LockError::Busy`]. Errors: [`LockError`].
    pub fn acquire(out: &Path, mode: Mode, wait: bool) -> Result<OutputLock, LockError> {
        use rustix::fs::{flock, FlockOperation as Op};
        use std::os::unix::fs::OpenOptionsExt;
        let path = lock_path(out);
        let io = |error: std::io::Error| LockError::Io {
            path: path.clone(),
            error,
        };
        if mode == Mode::Exclusive {
            let parent = parent_of(out);
            let existing = parent
                .ancestors()
                .find(|p| p.as_os_str().is_empty() || std::fs::metadata(p).is_ok());
            if let Some(p) = existing.filter(|p| !p.as_os_str().is_empty() && !p.is_dir()) {
                return Err(LockError::NotAFolder {
                    out: out.to_path_buf(),
                    parent: p.to_path_buf(),
                });
            }
            std::fs::create_dir_all(&parent).map_err(io)?;
        }
        let mut opts = File::options();
        // Never through a link, never waiting (a FIFO planted there); its owner's alone.
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        opts.read(true)
            .custom_flags(flags.bits() as i32)
            .mode(crate::store::durable::PRIVATE_FILE);
        if mode == Mode::Exclusive {
            opts.write(true).create(true);
        }
        let file = opts.open(&path).map_err(|e| {
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
                LockError::Link {
                    out: out.to_path_buf(),
                    lock: path.clone(),
                }
            } else {
                io(e)
            }
        })?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(io(std::io::Error::other("not a regular file")));
        }
        let uid = std::os::unix::fs::MetadataExt::uid(&meta);
        if uid != crate::store::owner::me() {
            return Err(LockError::NotOurs {
                out: out.to_path_buf(),
                lock: crate::store::owner::stranger(&path, uid),
            });
        }
        // One an earlier tirage made open to others (0666 less the umask): its owner's alone.
        if std::os::unix::fs::MetadataExt::mode(&meta) & 0o077 != 0 {
            let private = rustix::fs::Mode::from_raw_mode(crate::store::durable::PRIVATE_FILE);
            rustix::fs::fchmod(&file, private).map_err(|e| io(e.into()))?;
        }
        let op = match (mode, wait) {
            (Mode::Exclusive, true) => Op::LockExclusive,
            (Mode::Exclusive, false) => Op::NonBlockingLockExclusive,
            (Mode::Shared, true) => Op::LockShared,
            (Mode::Shared, false) => Op::NonBlockingLockShared,
        };
        loop {
            match flock(&file, op) {
                Ok(()) => break,
                Err(rustix::io::Errno::INTR) => continue,
                Err(rustix::io::Errno::WOULDBLOCK) => {
                    return Err(LockError::Busy {
                        out: out.to_path_buf(),
                        lock: path,
                    })
                }
                Err(e) => return Err(io(e.into())),
            }
        }
        Ok(OutputLock {
            _file: file,
            out: out.to_path_buf(),
        })
    }

    /// What dead runs left beside the output: every `.<name>.tirage-<what>-…` entry but the
    /// lock file and a replacement's journal (which [`crate::generate::place::recover`] reads first),
    /// sorted. Only meaningful under an exclusive lock (no other run of the
    /// output is alive then).
    pub fn leftovers(&self) -> Vec<PathBuf> {
        let start = format!(".{}.tirage-", name_of(&self.out));
        let lock = lock_path(&self.out);
        let journal = journal_path(&self.out);
        let mut found: Vec<PathBuf> = std::fs::read_dir(parent_of(&self.out))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(&start))
            .map(|e| e.path())
            .filter(|p| *p != lock && *p != journal)
            .collect();
        found.sort();
        found
    }

    /// Checks that every leftover ([`OutputLock::leftovers`]) and a replacement's journal
    /// are the current user's, that no one else can write ([`crate::store::owner::ours`]):
    /// what another user put there is never removed nor acted on. Errors: the first that
    /// is not.
    pub fn check_leftovers(&self) -> Result<(), crate::store::owner::NotOurs> {
        for p in self.leftovers().iter().chain([&journal_path(&self.out)]) {
            crate::store::owner::ours(p)?;
        }
        Ok(())
    }

    /// Removes every leftover of a dead run ([`OutputLock::leftovers`]; a directory with
    /// all it holds, a link itself, never what it points to), once each is seen to be the
    /// current user's ([`OutputLock::check_leftovers`]). Returns each with the error that
    /// kept it, if any. Errors: a leftover is not the current user's: nothing is removed.
    pub fn remove_leftovers(
        &self,
    ) -> Result<Vec<(PathBuf, Option<std::io::Error>)>, crate::store::owner::NotOurs> {
        self.check_leftovers()?;
        let removed: Vec<_> = self
            .leftovers()
            .into_iter()
            .map(|p| {
                let r = match std::fs::symlink_metadata(&p) {
                    Ok(m) if m.is_dir() => crate::store::owner::remove_dir_all_ours(&p),
                    Ok(_) => std::fs::remove_file(&p),
                    Err(e) => Err(e),
                };
                (p, r.err())
            })
            .collect();
        if !removed.is_empty() {
            let _ = crate::store::durable::sync_dir(&parent_of(&self.out));
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exclusive_excludes_and_shared_shares() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("block-001");
        let a = OutputLock::acquire(&out, Mode::Exclusive, false).unwrap();
        assert!(matches!(
            OutputLock::acquire(&out, Mode::Exclusive, false),
            Err(LockError::Busy { .. })
        ));
        assert!(matches!(
            OutputLock::acquire(&out, Mode::Shared, false),
            Err(LockError::Busy { .. })
        ));
        drop(a);
        let other = d.path().join("block-002");
        assert!(matches!(
            OutputLock::acquire(&other, Mode::Shared, false),
            Err(LockError::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound
        ));
        assert!(!lock_path(&other).exists());
        let r1 = OutputLock::acquire(&out, Mode::Shared, false).unwrap();
        let _r2 = OutputLock::acquire(&out, Mode::Shared, false).unwrap();
        assert!(matches!(
            OutputLock::acquire(&out, Mode::Exclusive, false),
            Err(LockError::Busy { .. })
        ));
        drop(r1);
        assert_eq!(lock_path(&out), d.path().join(".block-001.tirage-lock"));
    }

    #[test]
    fn an_output_under_a_file_is_refused_naming_the_file() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let out = file.join("sub/block-001");
        let e = OutputLock::acquire(&out, Mode::Exclusive, false).unwrap_err();
        assert!(
            matches!(&e, LockError::NotAFolder { parent, .. } if *parent == file),
            "{e}"
        );
        assert!(e.to_string().contains("is not a folder"), "{e}");
        let e = OutputLock::acquire(Path::new("/dev/full/blk"), Mode::Exclusive, false);
        assert_eq!(
            e.unwrap_err().to_string(),
            "/dev/full/blk: /dev/full is not a folder, so nothing can be written under it; \
             choose an --out inside a folder"
        );
    }

    #[test]
    fn leftovers_are_the_outputs_staging_names_only() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("block-001");
        let l = OutputLock::acquire(&out, Mode::Exclusive, false).unwrap();
        std::fs::create_dir(d.path().join(".block-001.tirage-tmp-1-x")).unwrap();
        std::fs::write(d.path().join(".block-001.tirage-tmp-1-x/f"), "x").unwrap();
        std::fs::write(d.path().join(".block-001.tirage-seed-1-y"), "s").unwrap();
        std::fs::write(d.path().join(".block-002.tirage-seed-1-y"), "s").unwrap();
        std::fs::write(d.path().join("block-001.seed"), "s").unwrap();
        let names: Vec<_> = l
            .remove_leftovers()
            .unwrap()
            .into_iter()
            .map(|(p, e)| {
                assert!(e.is_none());
                p.file_name().unwrap().to_string_lossy().into_owned()
            })
            .collect();
        assert_eq!(
            names,
            [".block-001.tirage-seed-1-y", ".block-001.tirage-tmp-1-x"]
        );
        assert!(d.path().join(".block-002.tirage-seed-1-y").exists());
        assert!(d.path().join("block-001.seed").exists());
        assert!(l.leftovers().is_empty());
        assert_eq!(
            staging_prefix(&out, "tmp"),
            format!(".block-001.tirage-tmp-{}-", std::process::id())
        );
    }
}
