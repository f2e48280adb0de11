//! Reading files (a block's, a spec) as a hostile sender may have made them: only regular files are read
//! (a FIFO, a device, a socket, a directory or a symbolic link is refused at once, never
//! waited on), and never more bytes than asked for.

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// What a path that is not a regular file is, in words.
fn kind_of(ft: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_symlink() {
        "a symbolic link"
    } else if ft.is_dir() {
        "a directory"
    } else if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_char_device() || ft.is_block_device() {
        "a device"
    } else if ft.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// `limit` bytes in words: `4 MiB`, `64 KiB`, else `1000 bytes`.
fn size(limit: u64) -> String {
    match limit {
        l if l >= 1 << 20 && l % (1 << 20) == 0 => format!("{} MiB", l >> 20),
        l if l >= 1 << 10 && l % (1 << 10) == 0 => format!("{} KiB", l >> 10),
        l => format!("{l} bytes"),
    }
}

/// Opens `path` for reading if it is a regular file, not through a symbolic link, without
/// waiting (a FIFO would wait for a writer). Errors: `InvalidInput` naming what it is
/// instead ("a FIFO", "a symbolic link", …), or the operating system's error.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    open_file(path, false)
}

/// Opens `path` as [`open_regular`] does, but through symbolic links: for a file its user
/// names (a key, an identity), which may well be a link to where it is kept.
/// Errors: as [`open_regular`], of the file the links lead to.
pub fn open_named(path: &Path) -> std::io::Result<File> {
    open_file(path, true)
}

/// [`open_regular`], through symbolic links when `follow`.
fn open_file(path: &Path, follow: bool) -> std::io::Result<File> {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;
    let not_regular = |ft| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{}, not a regular file", kind_of(ft)),
        )
    };
    let f = File::options()
        .read(true)
        .custom_flags(
            (OFlags::NONBLOCK
                | OFlags::NOCTTY
                | if follow {
                    OFlags::empty()
                } else {
                    OFlags::NOFOLLOW
                })
            .bits() as i32,
        )
        .open(path)
        .map_err(|e| {
            match if follow {
                std::fs::metadata(path)
            } else {
                std::fs::symlink_metadata(path)
            } {
                Ok(m) if !m.is_file() => not_regular(m.file_type()),
                _ => e,
            }
        })?;
    let ft = f.metadata()?.file_type();
    if !ft.is_file() {
        return Err(not_regular(ft));
    }
    Ok(f)
}

/// The bytes of the regular file `path` ([`open_regular`]) if it holds at most `limit`.
/// Errors: as [`open_regular`]; `InvalidData` when it is larger than `limit`.
pub fn read_regular(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    read_bounded(open_regular(path)?, limit)
}

/// The bytes of the regular file `path`, reached through symbolic links ([`open_named`]),
/// if it holds at most `limit`. Errors: as [`read_regular`].
pub fn read_named(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    read_bounded(open_named(path)?, limit)
}

/// The bytes of `f` if it holds at most `limit`; `InvalidData` otherwise.
fn read_bounded(f: File, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    f.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "larger than {}, the most tirage reads of such a file",
                size(limit)
            ),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, "abc").unwrap();
        assert_eq!(read_regular(&f, 3).unwrap(), b"abc");
        let e = read_regular(&f, 2).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "larger than 2 bytes, the most tirage reads of such a file"
        );
        assert_eq!(size(4 << 20), "4 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
        let fifo = d.path().join("fifo");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        let e = open_regular(&fifo).unwrap_err();
        assert_eq!(e.to_string(), "a FIFO, not a regular file");
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&f, &link).unwrap();
        assert_eq!(
            open_regular(&link).unwrap_err().to_string(),
            "a symbolic link, not a regular file"
        );
        assert_eq!(
            open_regular(d.path()).unwrap_err().to_string(),
            "a directory, not a regular file"
        );
    }
}
