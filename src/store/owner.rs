//! Whose a file beside an output is: tirage acts (moves, removes, rolls forward or back)
//! only on what the user running it made. A journal, a staged output, a staged seed, a
//! lock file or any leftover that another user owns, or that other users can write, may
//! have been planted there to swap an output and its seed; it is refused, never acted on
//! ([`ours`]). Each is judged by `fstat` on a descriptor opened without following a
//! link. The move or removal that follows names the path again: in between, another user
//! can swap the entry only in a folder they may write that has no sticky bit, where they
//! could rename the output itself anyway ([`open_folder_warning`] warns of such a folder).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A file tirage will not act on: another user's, or writable by other users, or a
/// symbolic link (tirage never makes one beside an output).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {why}, so tirage does not act on it (it moves or removes only files the user running it made, that no one else can write): nothing was moved or removed; if no run of yours left it there, someone else may have planted it to swap the output and its seed: look at it, then remove it", path.display())]
pub struct NotOurs {
    /// The file.
    pub path: PathBuf,
    /// Its owner's user id.
    pub uid: u32,
    /// What is wrong with it, in words (whose it is, its mode).
    pub why: String,
}

/// The user id this process acts as (its effective one).
pub fn me() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// User `uid` in words: `user nobody (uid 65534)`, or `uid 1234` when the system's
/// `/etc/passwd` does not name it.
pub fn user(uid: u32) -> String {
    let mut passwd = Vec::new();
    let name = std::fs::File::open("/etc/passwd")
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 22), &mut passwd))
        .ok()
        .and_then(|_| String::from_utf8(passwd).ok())
        .and_then(|t| {
            t.lines().find_map(|l| {
                let mut f = l.split(':');
                let name = f.next()?;
                let id = f.nth(1)?;
                (id.parse::<u32>().ok()? == uid).then(|| name.to_string())
            })
        });
    match name {
        Some(n) => format!("user {n} (uid {uid})"),
        None => format!("uid {uid}"),
    }
}

/// File `path`, owned by user `uid`, as not the current user's.
pub fn stranger(path: &Path, uid: u32) -> NotOurs {
    NotOurs {
        path: path.to_path_buf(),
        uid,
        why: format!(
            "it belongs to {}, not to the user running tirage ({})",
            user(uid),
            user(me())
        ),
    }
}

/// Judges metadata `meta` of `path` (from `fstat` on an open descriptor): `Err` when it is
/// a symbolic link, not owned by the current user, or writable by others: a file by its
/// group or anyone, a directory by anyone (a block made with `--mode 660` is a directory
/// its group may write, and its sealed file's digest is checked all the same).
pub fn judge(path: &Path, meta: &std::fs::Metadata) -> Result<(), NotOurs> {
    let uid = meta.uid();
    let others_write = if meta.is_dir() { 0o002 } else { 0o022 };
    let why = if meta.file_type().is_symlink() {
        Some(format!("a symbolic link, owned by {}", user(uid)))
    } else if uid != me() {
        return Err(stranger(path, uid));
    } else if meta.mode() & others_write != 0 {
        Some(format!(
            "other users can write it (mode {:o})",
            meta.mode() & 0o7777
        ))
    } else {
        None
    };
    match why {
        Some(why) => Err(NotOurs {
            path: path.to_path_buf(),
            uid,
            why,
        }),
        None => Ok(()),
    }
}

/// Checks what is at `path` (not following a link, by `fstat` on an `O_PATH` descriptor):
/// `Ok(true)` when it is the current user's and no one else can write it, `Ok(false)`
/// when nothing is there. Errors: [`NotOurs`] ([`judge`]); a path that cannot be opened
/// for another reason than its absence counts as not ours.
pub fn ours(path: &Path) -> Result<bool, NotOurs> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::PATH | rustix::fs::OFlags::NOFOLLOW;
    let opened = std::fs::File::options()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path);
    let file = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => {
            return Err(NotOurs {
                path: path.to_path_buf(),
                uid: u32::MAX,
                why: format!("it cannot be examined ({e})"),
            })
        }
    };
    match file.metadata() {
        Ok(m) => judge(path, &m).map(|()| true),
        Err(e) => Err(NotOurs {
            path: path.to_path_buf(),
            uid: u32::MAX,
            why: format!("it cannot be examined ({e})"),
        }),
    }
}

/// Removes from directory `dir` the temporary files (names starting with `prefix`) of runs
/// stopped before they renamed them (kill -9, a power cut): regular files of this user's
/// ([`ours`]) left unchanged for `age` or more (a younger one may be another run's, still
/// being written). Returns the paths removed; what cannot be removed stays.
pub fn remove_left_files(dir: &Path, prefix: &str, age: std::time::Duration) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = e.path();
        let named = e
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(prefix));
        let stale = std::fs::symlink_metadata(&path).is_ok_and(|m| {
            m.is_file()
                && m.modified()
                    .is_ok_and(|t| t.elapsed().is_ok_and(|old| old >= age))
        });
        if named && stale && matches!(ours(&path), Ok(true)) && std::fs::remove_file(&path).is_ok()
        {
            removed.push(path);
        }
    }
    removed.sort();
    removed
}

/// Removes directory `dir` with all it holds, as [`std::fs::remove_dir_all`] does. When
/// that is refused for want of permission (an older block made read-only, `chmod -R
/// a-w`, before `--force` replaced it), gives every folder of the tree that is the current
/// user's its owner's read, write and search permission back (`owner_may_write`) and
/// tries once more. Errors: those of the last try.
pub fn remove_dir_all_ours(dir: &Path) -> std::io::Result<()> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            owner_may_write(dir);
            std::fs::remove_dir_all(dir)
        }
        r => r,
    }
}

/// Adds mode 0700 to directory `dir` and every directory under it that the current user
/// owns, never through a symbolic link; what cannot be changed is left as it is.
fn owner_may_write(dir: &Path) {
    let Ok(m) = std::fs::symlink_metadata(dir) else {
        return;
    };
    if !m.is_dir() || m.uid() != me() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = m.mode() & 0o7777 | 0o700;
    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode));
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            owner_may_write(&e.path());
        }
    }
}

/// A warning when directory `dir` can be written by other users and has no sticky bit:
/// anyone who can write it can rename or replace an output there, whatever tirage checks.
/// `None` when only its owner can write it, or it is sticky, or it cannot be examined.
pub fn open_folder_warning(dir: &Path) -> Option<String> {
    let m = std::fs::metadata(dir).ok()?;
    let mode = m.mode();
    (mode & 0o022 != 0 && mode & 0o1000 == 0).then(|| {
        format!(
            "{} can be written by other users (mode {:o}) and has no sticky bit: any of them \
             can rename or replace what tirage writes there; keep blocks in a folder only you \
             can write (chmod go-w), or make it sticky (chmod +t)",
            dir.display(),
            mode & 0o7777
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_only_tree_of_ours_is_made_writable_to_be_removed() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let top = t.path().join("old");
        let deep = top.join("proofs");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("ticket-1.svg"), "<svg/>").unwrap();
        let other = t.path().join("other");
        std::fs::create_dir(&other).unwrap();
        std::os::unix::fs::symlink(&other, top.join("link")).unwrap();
        for d in [&deep, &top, &other] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o500)).unwrap();
        }
        owner_may_write(&top);
        let mode = |d: &Path| std::fs::symlink_metadata(d).unwrap().mode() & 0o7777;
        assert_eq!((mode(&top), mode(&deep)), (0o700, 0o700));
        // The folder a link in the tree points to is not changed, nor removed.
        assert_eq!(mode(&other), 0o500);
        remove_dir_all_ours(&top).unwrap();
        assert!(!top.exists() && other.is_dir());
    }
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_file_others_can_write_or_a_link_is_not_ours() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        assert_eq!(ours(&f), Ok(false));
        std::fs::write(&f, "x").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(ours(&f), Ok(true));
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o620)).unwrap();
        let e = ours(&f).unwrap_err();
        assert_eq!(e.why, "other users can write it (mode 620)");
        let l = d.path().join("l");
        std::os::unix::fs::symlink(&f, &l).unwrap();
        assert!(ours(&l).unwrap_err().why.starts_with("a symbolic link"));
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(open_folder_warning(d.path()).is_some());
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
        assert_eq!(open_folder_warning(d.path()), None);
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(open_folder_warning(d.path()), None);
        assert_eq!(user(0), "user root (uid 0)");
    }
}
