//! Big files written past the page cache: a ticket file goes to the disk from a buffer of
//! [`CHUNK`] bytes aligned to [`ALIGN`], with `O_DIRECT` where the file system takes it, so
//! the kernel neither copies its bytes into the page cache nor flushes them again at the
//! `fsync`. Only the last partial block of a file (under [`ALIGN`] bytes) goes through the
//! page cache. Where the file system refuses `O_DIRECT` (tmpfs on older kernels, some
//! network file systems), the same bytes are written through the page cache: the file is
//! the same either way.

use std::fs::File;
use std::io::Write;

/// The alignment of every direct write's address, length and file offset, in bytes: the
/// largest logical block size of common disks.
pub const ALIGN: usize = 4096;

/// Bytes gathered before each write to the disk (4 MiB).
pub const CHUNK: usize = 4 << 20;

/// A new file written in [`CHUNK`]s past the page cache, then flushed to the disk by
/// [`DirectFile::finish`]. Bytes written are in the file, in order, once it is finished;
/// dropped unfinished, it may hold only part of them.
pub struct DirectFile {
    file: File,
    /// [`CHUNK`] + [`ALIGN`] bytes, of which `buf[at..at + CHUNK]` is aligned.
    buf: Vec<u8>,
    at: usize,
    /// Bytes gathered in `buf[at..]`.
    len: usize,
    /// Bytes in the file so far (each write says where it goes: `pwrite`).
    written: u64,
    /// True while the file is open with `O_DIRECT`.
    direct: bool,
}

impl DirectFile {
    /// Writes to `file` (a new, empty file open for writing) past the page cache where its
    /// file system allows it, else through it.
    pub fn new(file: File) -> DirectFile {
        let buf = vec![0u8; CHUNK + ALIGN];
        let at = buf.as_ptr().align_offset(ALIGN);
        let direct = set_direct(&file, true).is_ok();
        DirectFile {
            file,
            buf,
            at,
            len: 0,
            written: 0,
            direct,
        }
    }

    /// True while the writes go past the page cache.
    pub fn is_direct(&self) -> bool {
        self.direct
    }

    /// Writes what is gathered, up to its last whole [`ALIGN`] block (everything with
    /// `all`), and keeps the rest at the start of the buffer.
    fn drain(&mut self, all: bool) -> std::io::Result<()> {
        let n = if all {
            self.len
        } else {
            self.len - self.len % ALIGN
        };
        if all && self.direct && n % ALIGN != 0 {
            // The file's last partial block: through the page cache.
            let whole = n - n % ALIGN;
            self.put(0, whole)?;
            set_direct(&self.file, false)?;
            self.direct = false;
            self.put(whole, n)?;
        } else {
            self.put(0, n)?;
        }
        self.buf
            .copy_within(self.at + n..self.at + self.len, self.at);
        self.len -= n;
        Ok(())
    }

    /// Writes `buf[at + from..at + to]` at the end of the file. A direct write the file
    /// system refuses (`EINVAL`: it wrote nothing) is made again through the page cache.
    fn put(&mut self, from: usize, to: usize) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        let mut rest = &self.buf[self.at + from..self.at + to];
        while !rest.is_empty() {
            match self.file.write_at(rest, self.written) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(k) => {
                    rest = &rest[k..];
                    self.written += k as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e)
                    if self.direct
                        && e.raw_os_error() == Some(rustix::io::Errno::INVAL.raw_os_error()) =>
                {
                    set_direct(&self.file, false)?;
                    self.direct = false;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Writes what is left and flushes the file to the disk; returns it. Errors: the
    /// operating system's.
    pub fn finish(mut self) -> std::io::Result<File> {
        self.drain(true)?;
        self.file.sync_all()?;
        Ok(self.file)
    }
}

impl Write for DirectFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.len == CHUNK {
            self.drain(false)?;
        }
        let k = bytes.len().min(CHUNK - self.len);
        let at = self.at + self.len;
        self.buf[at..at + k].copy_from_slice(&bytes[..k]);
        self.len += k;
        Ok(k)
    }

    /// Writes nothing yet: the bytes gathered go out by whole blocks, the last with
    /// [`DirectFile::finish`].
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Sets or clears `O_DIRECT` on `file`. Errors: the file system does not take it.
pub(super) fn set_direct(file: &File, on: bool) -> std::io::Result<()> {
    use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
    let flags = fcntl_getfl(file)?;
    let flags = if on {
        flags | OFlags::DIRECT
    } else {
        flags - OFlags::DIRECT
    };
    fcntl_setfl(file, flags)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that differ at every offset, so a misplaced block shows.
    fn pattern(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 4096) as u8).collect()
    }

    /// Writes `sizes` pieces of one pattern through a [`DirectFile`] in `dir`; returns the
    /// file's bytes, what was written and whether the writes went direct.
    fn round_trip(dir: &std::path::Path, sizes: &[usize]) -> (Vec<u8>, Vec<u8>, bool) {
        let total = sizes.iter().sum();
        let want = pattern(total);
        let path = dir.join("f");
        let _ = std::fs::remove_file(&path);
        let mut w = DirectFile::new(crate::store::durable::create_private(&path).unwrap());
        let direct = w.is_direct();
        let mut at = 0;
        for &s in sizes {
            w.write_all(&want[at..at + s]).unwrap();
            at += s;
        }
        w.finish().unwrap();
        (std::fs::read(&path).unwrap(), want, direct)
    }

    #[test]
    fn every_byte_lands_in_order_whatever_the_pieces() {
        let d = tempfile::tempdir_in(".").unwrap();
        for sizes in [
            vec![],
            vec![1],
            vec![ALIGN],
            vec![ALIGN + 1],
            vec![CHUNK],
            vec![CHUNK - 1, 2],
            vec![3, CHUNK, ALIGN - 3, 5],
            vec![CHUNK + CHUNK / 2 + 17, 1 << 20, 99],
        ] {
            let (got, want, _) = round_trip(d.path(), &sizes);
            assert_eq!(got.len(), want.len(), "{sizes:?}");
            assert!(got == want, "{sizes:?}: the bytes differ");
        }
    }

    #[test]
    fn a_file_system_without_direct_writes_gets_the_same_bytes() {
        // /dev/shm is a tmpfs: O_DIRECT refused (older kernels) or taken; the same file.
        let Ok(d) = tempfile::tempdir_in("/dev/shm") else {
            return;
        };
        let (got, want, _) = round_trip(d.path(), &[CHUNK + 5000, 123]);
        assert!(got == want);
    }
}
