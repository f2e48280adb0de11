//! Big files written past the page cache: a ticket file goes to the disk from buffers of
//! [`CHUNK`] bytes aligned to [`ALIGN`], with `O_DIRECT` where the file system takes it, so
//! the kernel neither copies its bytes into the page cache nor flushes them again at the
//! `fsync`. Two buffers take turns: while a thread of the file's own writes one to the
//! disk, the writer fills the other, so it never waits for the disk but when the other is
//! full before the one written is back. Only the last partial block of a file (under
//! [`ALIGN`] bytes) goes through the page cache. Where the file system refuses `O_DIRECT`
//! (tmpfs on older kernels, some network file systems), the same bytes are written through
//! the page cache: the file is the same either way.

use std::fs::File;
use std::io::Write;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// The alignment of every direct write's address, length and file offset, in bytes: the
/// largest logical block size of common disks.
pub const ALIGN: usize = 4096;

/// Bytes gathered before each write to the disk (4 MiB).
pub const CHUNK: usize = 4 << 20;

/// Bytes past a buffer's [`CHUNK`] that a piece written in place ([`DirectFile::room`]) may
/// run into (64 KiB): carried to the start of the next buffer when the chunk goes out.
pub const SLACK: usize = 64 << 10;

/// A buffer of [`CHUNK`] + [`SLACK`] bytes and the room to align them, whose
/// `buf[at..at + CHUNK]` is aligned, and whose [`SLACK`] bytes after it take what a piece
/// written in place put past the chunk.
struct Aligned {
    buf: Vec<u8>,
    at: usize,
}

impl Aligned {
    /// A buffer whose chunk starts on a huge page ([`super::memory::HUGE_PAGE`], 2 MiB,
    /// aligned to [`ALIGN`] too) and is advised to be backed by huge pages: the disk
    /// thread's direct write of a chunk then pins two pages, not 1 024. The zeroed
    /// allocation is most often fresh pages no byte of which has been written yet (the
    /// advice is a hint: pages already written stay as they are); the room before the
    /// boundary is never touched.
    fn new() -> Aligned {
        use super::memory::{advise_huge_pages, HUGE_PAGE};
        let mut buf = vec![0u8; CHUNK + SLACK + HUGE_PAGE];
        let at = buf.as_ptr().align_offset(HUGE_PAGE);
        advise_huge_pages(&mut buf[at..at + CHUNK]);
        Aligned { buf, at }
    }

    /// The aligned [`CHUNK`] bytes.
    fn chunk(&self) -> &[u8] {
        &self.buf[self.at..self.at + CHUNK]
    }

    /// The aligned [`CHUNK`] bytes and the [`SLACK`] after them.
    fn chunk_mut(&mut self) -> &mut [u8] {
        &mut self.buf[self.at..self.at + CHUNK + SLACK]
    }
}

/// The file and where its next bytes go.
struct Disk {
    file: File,
    /// Bytes in the file so far (each write says where it goes: `pwrite`).
    written: u64,
    /// True while the file is open with `O_DIRECT`.
    direct: bool,
}

impl Disk {
    /// Writes `bytes` at the end of the file. A direct write the file system refuses
    /// (`EINVAL`: it wrote nothing) is made again through the page cache.
    fn put(&mut self, mut bytes: &[u8]) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        while !bytes.is_empty() {
            match self.file.write_at(bytes, self.written) {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(k) => {
                    bytes = &bytes[k..];
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
}

/// The thread that writes full buffers to the disk, one at a time, and hands each back
/// once written (or the error that stopped it, after which it writes nothing more).
struct DiskThread {
    /// Full buffers to write; at most one waits while another is written.
    full: SyncSender<Aligned>,
    /// Buffers written, to fill again, or the error of the write.
    back: Receiver<std::io::Result<Aligned>>,
    /// True while a buffer sent has not come back.
    in_flight: bool,
    /// Ends with the file when no buffer is left to write; `None` after an error, which
    /// came back in the buffer's stead.
    handle: JoinHandle<Option<Disk>>,
}

impl DiskThread {
    /// Starts the thread writing to `disk`. Errors: the thread cannot start
    /// ([`super::thread::refused`]).
    fn spawn(mut disk: Disk) -> std::io::Result<DiskThread> {
        let (full, rx) = sync_channel::<Aligned>(1);
        let (tx, back) = sync_channel(1);
        let handle = super::thread::spawn("the disk writer", move || {
            for buf in rx {
                match disk.put(buf.chunk()) {
                    Ok(()) => {
                        if tx.send(Ok(buf)).is_err() {
                            return None;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return None;
                    }
                }
            }
            Some(disk)
        })?;
        Ok(DiskThread {
            full,
            back,
            in_flight: false,
            handle,
        })
    }

    /// Waits for the buffer in flight, if any: `Some` of it once written. Errors: the
    /// write's.
    fn wait(&mut self) -> std::io::Result<Option<Aligned>> {
        if !self.in_flight {
            return Ok(None);
        }
        self.in_flight = false;
        match self.back.recv() {
            Ok(r) => r.map(Some),
            Err(_) => Err(stopped()),
        }
    }

    /// Waits for the buffer in flight, then stops the thread; returns the file. Errors:
    /// the last write's.
    fn join(mut self) -> std::io::Result<Disk> {
        self.wait()?;
        drop(self.full);
        self.handle
            .join()
            .expect("disk writer panicked")
            .ok_or_else(stopped)
    }
}

/// The error of a disk thread found stopped with no error of its own to tell (it cannot
/// be: every error comes back with the buffer it stopped on).
fn stopped() -> std::io::Error {
    std::io::Error::other("the disk writer stopped")
}

/// A new file written in [`CHUNK`]s past the page cache, then flushed to the disk by
/// [`DirectFile::finish`]. Bytes written are in the file, in order, once it is finished;
/// dropped unfinished, it may hold only part of them (the write in progress ends first).
/// An error of a write made on the disk thread is returned by the next [`Write::write`]
/// that needs a buffer, or by [`DirectFile::finish`].
pub struct DirectFile {
    /// The buffer being filled.
    buf: Aligned,
    /// Bytes gathered in `buf`.
    len: usize,
    /// The file, until the first full buffer goes to the disk thread.
    disk: Option<Disk>,
    /// The disk thread, from the first full buffer on, until an error of its writes.
    thread: Option<DiskThread>,
    /// True when the file was opened with `O_DIRECT`.
    direct: bool,
}

impl DirectFile {
    /// Writes to `file` (a new, empty file open for writing) past the page cache where its
    /// file system allows it, else through it.
    pub fn new(file: File) -> DirectFile {
        let direct = set_direct(&file, true).is_ok();
        DirectFile {
            buf: Aligned::new(),
            len: 0,
            disk: Some(Disk {
                file,
                written: 0,
                direct,
            }),
            thread: None,
            direct,
        }
    }

    /// True when the writes went past the page cache from the start (a file system may
    /// still refuse them at the first write: it then gets them through the page cache).
    pub fn is_direct(&self) -> bool {
        self.direct
    }

    /// Room to write the next bytes in place, as rows are rendered: the buffer from the
    /// bytes gathered on, and how many of its bytes come before the chunk's end. A caller
    /// writes pieces of at most [`SLACK`] bytes each, starting each before that count, then
    /// says how many bytes it wrote with [`DirectFile::advance`]; what ran past the chunk
    /// goes to the start of the next buffer when the chunk is written. Errors: those of
    /// a write, as [`Write::write`]'s.
    pub fn room(&mut self) -> std::io::Result<(&mut [u8], usize)> {
        if self.len >= CHUNK {
            self.send()?;
        }
        let before = CHUNK - self.len;
        Ok((&mut self.buf.chunk_mut()[self.len..], before))
    }

    /// Counts `n` bytes written in place at the start of [`DirectFile::room`]'s buffer as
    /// the file's next bytes. Panics when they end past the room (a caller bug).
    pub fn advance(&mut self, n: usize) {
        assert!(self.len + n <= CHUNK + SLACK, "written past the room");
        self.len += n;
    }

    /// Hands the full buffer to the disk thread (started on the first) and takes the other
    /// to fill: the one written before, once it is back, or a new one, starting with what
    /// was written in place past the chunk. Errors: the write of the buffer before; the
    /// disk thread cannot start (every later write and finish fail).
    fn send(&mut self) -> std::io::Result<()> {
        if self.thread.is_none() {
            let disk = self.disk.take().ok_or_else(stopped)?;
            self.thread = Some(DiskThread::spawn(disk)?);
        }
        let thread = self.thread.as_mut().expect("started above");
        let next = match thread.wait() {
            Ok(buf) => buf.unwrap_or_else(Aligned::new),
            Err(e) => {
                // The thread stopped at that error: every later write and finish fail.
                self.thread = None;
                return Err(e);
            }
        };
        let full = std::mem::replace(&mut self.buf, next);
        let past = self.len - CHUNK;
        let (from, to) = (&full.buf[full.at + CHUNK..], self.buf.chunk_mut());
        to[..past].copy_from_slice(&from[..past]);
        self.len = past;
        if thread.full.send(full).is_err() {
            return Err(stopped());
        }
        thread.in_flight = true;
        Ok(())
    }

    /// Writes what is left and flushes the file to the disk; returns it. Errors: the
    /// operating system's, of any write not reported yet.
    pub fn finish(mut self) -> std::io::Result<File> {
        let mut disk = match (self.thread.take(), self.disk.take()) {
            (Some(t), _) => t.join()?,
            (None, Some(disk)) => disk,
            (None, None) => return Err(stopped()),
        };
        let n = self.len;
        let whole = n - n % ALIGN;
        let bytes = &self.buf.chunk_mut()[..n];
        disk.put(&bytes[..whole])?;
        if disk.direct && whole < n {
            // The file's last partial block: through the page cache.
            set_direct(&disk.file, false)?;
            disk.direct = false;
        }
        disk.put(&bytes[whole..])?;
        disk.file.sync_all()?;
        Ok(disk.file)
    }
}

impl Drop for DirectFile {
    /// Ends the write in progress, if any, and the disk thread.
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Write for DirectFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.len >= CHUNK {
            self.send()?;
        }
        let k = bytes.len().min(CHUNK - self.len);
        self.buf.chunk_mut()[self.len..self.len + k].copy_from_slice(&bytes[..k]);
        self.len += k;
        Ok(k)
    }

    /// Writes nothing yet: the bytes gathered go out by whole chunks, the last with
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

    /// Pieces written in place, as rows are, each started before the chunk's end and some
    /// running past it, mixed with pieces written by `write_all`: the file holds every
    /// byte in order, what ran past a chunk carried to the next buffer.
    #[test]
    fn pieces_written_in_place_land_in_order_across_the_chunks() {
        let d = tempfile::tempdir_in(".").unwrap();
        let path = d.path().join("f");
        let want = pattern(3 * CHUNK + 12_345);
        let mut w = DirectFile::new(crate::store::durable::create_private(&path).unwrap());
        let (mut at, mut k) = (0, 0usize);
        while at < want.len() {
            k += 1;
            // Pieces of 1 byte to SLACK bytes, every fifth one written by write_all.
            let piece = (k * 7919 % SLACK).max(1).min(want.len() - at);
            if k % 5 == 0 {
                w.write_all(&want[at..at + piece]).unwrap();
                at += piece;
                continue;
            }
            let (room, before) = w.room().unwrap();
            assert!(
                before > 0 && room.len() >= before + SLACK,
                "{before} {}",
                room.len()
            );
            room[..piece].copy_from_slice(&want[at..at + piece]);
            w.advance(piece);
            at += piece;
        }
        w.finish().unwrap();
        assert!(std::fs::read(&path).unwrap() == want, "the bytes differ");
    }

    #[test]
    #[should_panic(expected = "written past the room")]
    fn writing_past_the_room_is_refused() {
        let d = tempfile::tempdir_in(".").unwrap();
        let mut w = DirectFile::new(File::create(d.path().join("f")).unwrap());
        let n = w.room().unwrap().0.len();
        w.advance(n + 1);
    }

    /// A file that refuses every write (open for reading only: `EBADF`), written through
    /// a [`DirectFile`] in `dir`.
    fn refusing(dir: &std::path::Path) -> DirectFile {
        let path = dir.join("ro");
        std::fs::write(&path, b"").unwrap();
        DirectFile::new(File::open(&path).unwrap())
    }

    #[test]
    fn an_error_of_the_disk_thread_comes_back_from_the_next_write_or_finish() {
        let d = tempfile::tempdir_in(".").unwrap();
        let ebadf = Some(rustix::io::Errno::BADF.raw_os_error());
        // The first chunk goes to the disk thread at the first byte after it; its error
        // comes back when the second chunk is full and needs the first one's buffer.
        let mut w = refusing(d.path());
        w.write_all(&vec![7; CHUNK + 1]).unwrap();
        let e = w.write_all(&vec![7; CHUNK]).unwrap_err();
        assert_eq!(e.raw_os_error(), ebadf, "{e}");
        // A later write and the finish fail too: the thread stopped at that error.
        let stopped = w.write_all(&vec![7; CHUNK]).unwrap_err();
        assert_eq!(stopped.to_string(), "the disk writer stopped");
        assert_eq!(w.finish().unwrap_err().to_string(), stopped.to_string());
        // The first chunk's error, when nothing is written after it, comes from finish.
        let mut w = refusing(d.path());
        w.write_all(&vec![7; CHUNK + 1]).unwrap();
        assert_eq!(w.finish().unwrap_err().raw_os_error(), ebadf);
        // A file of less than a chunk fails at finish, on the calling thread.
        let mut w = refusing(d.path());
        w.write_all(&[7; 5]).unwrap();
        assert_eq!(w.finish().unwrap_err().raw_os_error(), ebadf);
    }

    #[test]
    fn a_file_dropped_unfinished_ends_its_disk_thread() {
        let d = tempfile::tempdir_in(".").unwrap();
        let path = d.path().join("f");
        let mut w = DirectFile::new(crate::store::durable::create_private(&path).unwrap());
        w.write_all(&pattern(2 * CHUNK + 1)).unwrap();
        drop(w);
        // The two chunks sent are written, the byte gathered after them is not.
        assert_eq!(std::fs::read(&path).unwrap(), pattern(2 * CHUNK));
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
