//! Writes that survive a power loss, and renames that never replace: every file of an
//! output is flushed to the disk ([`write_file`], [`sync_dir`]) before the output is moved
//! into place, and a move into place never replaces what another run put there
//! ([`rename_noreplace`], `renameat2(RENAME_NOREPLACE)` where the kernel and file system
//! offer it).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Permission bits every file of an output is created with, whatever the umask: readable
/// by its owner only from its first byte (its final bits are set once it is complete).
pub const PRIVATE_FILE: u32 = 0o600;

/// Permission bits every directory an output is staged in is created with: its owner's only.
pub const PRIVATE_DIR: u32 = 0o700;

/// Creates the new file `path` for writing (never an existing one, never through a link),
/// mode [`PRIVATE_FILE`] whatever the umask. Errors: the file exists or cannot be created.
pub fn create_private(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    File::options()
        .write(true)
        .create_new(true)
        .mode(PRIVATE_FILE)
        .open(path)
}

/// Creates the new directory `path`, mode [`PRIVATE_DIR`] whatever the umask. Errors: it
/// exists or cannot be created.
pub fn create_private_dir(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(PRIVATE_DIR).create(path)
}

/// A new directory in `parent` whose name starts with `prefix` (a random part follows),
/// mode [`PRIVATE_DIR`] whatever the umask, removed when dropped. Errors: it cannot be
/// created.
pub fn private_tempdir(parent: &Path, prefix: &str) -> std::io::Result<tempfile::TempDir> {
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(prefix)
        .permissions(std::fs::Permissions::from_mode(PRIVATE_DIR))
        .tempdir_in(parent)
}

/// Writes `bytes` to a new file `path` (never an existing one, never through a link, mode
/// [`PRIVATE_FILE`]) and flushes it to the disk. Errors: the file exists or cannot be
/// created or written.
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = create_private(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Flushes the directory `dir` itself (its list of names) to the disk, so that files
/// created, removed or renamed in it are there after a power loss.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// The directory holding `path` (`.` for a bare name).
pub fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Renames `from` to `to` only if nothing is at `to` (error `AlreadyExists` otherwise):
/// atomically with `renameat2(RENAME_NOREPLACE)`; where the file system does not offer it,
/// a check then a plain rename (callers hold the destination's lock, see [`crate::store::lock`]).
pub fn rename_noreplace(from: &Path, to: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(()),
        Err(e) if e == rustix::io::Errno::INVAL || e == rustix::io::Errno::NOSYS => {
            if std::fs::symlink_metadata(to).is_ok() {
                return Err(std::io::ErrorKind::AlreadyExists.into());
            }
            std::fs::rename(from, to)
        }
        Err(e) => Err(e.into()),
    }
}

/// Exchanges the names `a` and `b` in one step (`renameat2(RENAME_EXCHANGE)`). Errors:
/// `Unsupported` where the file system cannot.
pub fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
        Ok(()) => Ok(()),
        Err(e)
            if e == rustix::io::Errno::INVAL
                || e == rustix::io::Errno::NOSYS
                || e == rustix::io::Errno::OPNOTSUPP =>
        {
            Err(std::io::ErrorKind::Unsupported.into())
        }
        Err(e) => Err(e.into()),
    }
}

/// Flushes every regular file under `dir` (recursively), then every directory, deepest
/// first, `dir` last: after it, `dir` and all it holds are on the disk.
pub fn sync_tree(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let ft = entry.file_type()?;
        if ft.is_dir() {
            sync_tree(&entry.path())?;
        } else if ft.is_file() {
            File::open(entry.path())?.sync_all()?;
        }
    }
    sync_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_noreplace_never_replaces() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        write_file(&a, b"new").unwrap();
        write_file(&b, b"old").unwrap();
        let e = rename_noreplace(&a, &b).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&b).unwrap(), b"old");
        std::fs::remove_file(&b).unwrap();
        rename_noreplace(&a, &b).unwrap();
        assert_eq!(std::fs::read(&b).unwrap(), b"new");
        assert!(!a.exists());
    }

    #[test]
    fn write_file_refuses_an_existing_file() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a");
        write_file(&a, b"1").unwrap();
        assert_eq!(
            write_file(&a, b"2").unwrap_err().kind(),
            std::io::ErrorKind::AlreadyExists
        );
        assert_eq!(std::fs::read(&a).unwrap(), b"1");
    }
}
