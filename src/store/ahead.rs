//! Big files read past the page cache: a thread of the file's own reads it ahead, in
//! [`CHUNK`]s into buffers aligned to [`ALIGN`], with `O_DIRECT` where the file system
//! takes it, so the kernel neither copies its bytes out of the page cache nor keeps them
//! there. The reader gets the same bytes as a plain read, in order; at most [`AHEAD`]
//! chunks are read before it asks for them. Where the file system refuses `O_DIRECT`, or
//! an offset stops being aligned (the file's last partial block), the thread reads through
//! the page cache.

use super::direct::{set_direct, ALIGN};
use std::fs::File;
use std::io::Read;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Bytes read from the disk at once (2 MiB).
pub const CHUNK: usize = 2 << 20;

/// Chunks read ahead of the reader, at most.
pub const AHEAD: usize = 2;

/// A buffer of [`CHUNK`] + [`ALIGN`] bytes whose `buf[at..at + CHUNK]` is aligned, holding
/// `len` bytes of the file from `at`. A chunk of fewer than [`CHUNK`] bytes is the file's
/// last.
struct Chunk {
    buf: Vec<u8>,
    at: usize,
    len: usize,
}

impl Chunk {
    fn new() -> Chunk {
        let buf = vec![0u8; CHUNK + ALIGN];
        let at = buf.as_ptr().align_offset(ALIGN);
        Chunk { buf, at, len: 0 }
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[self.at..self.at + self.len]
    }
}

/// A file read in order by a thread of its own, ahead of the reader. Dropped, it stops
/// the thread (which ends the read in progress, then exits).
pub struct AheadReader {
    rx: Option<Receiver<std::io::Result<Chunk>>>,
    /// Chunks read, handed back for the thread to fill again.
    back: SyncSender<Chunk>,
    /// The chunk being read and how many of its bytes were given.
    cur: Option<(Chunk, usize)>,
    /// True once the last chunk was received (or an error).
    done: bool,
    thread: Option<JoinHandle<()>>,
    /// The file, read on the reader's thread through the page cache, when no thread could
    /// start to read it ahead.
    plain: Option<File>,
}

impl AheadReader {
    /// Reads `file` (open for reading, at its start) past the page cache where its file
    /// system allows it, else through it. The thread starts at once; when it cannot (the
    /// limit on threads reached), the file is read in place, through the page cache.
    pub fn new(file: File) -> AheadReader {
        let (tx, rx) = sync_channel(AHEAD);
        let (back, spare) = sync_channel(AHEAD + 2);
        // The file goes to the thread once it runs: a thread that cannot start leaves it here.
        let (give, take) = sync_channel::<File>(1);
        let started = super::thread::spawn("a read-ahead", move || {
            if let Ok(file) = take.recv() {
                read_ahead(file, &tx, &spare);
            }
        });
        let (thread, plain) = match started {
            Ok(thread) => {
                // Room for one: never blocks. A thread gone already reports "stopped".
                let _ = give.send(file);
                (Some(thread), None)
            }
            Err(_) => (None, Some(file)),
        };
        AheadReader {
            rx: Some(rx),
            back,
            cur: None,
            done: false,
            thread,
            plain,
        }
    }
}

impl Read for AheadReader {
    /// Gives the next bytes of the file. Errors: the operating system's, once; then the end.
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if let Some(file) = &mut self.plain {
            return file.read(out);
        }
        loop {
            if let Some((chunk, given)) = &mut self.cur {
                let rest = &chunk.bytes()[*given..];
                if !rest.is_empty() {
                    let k = rest.len().min(out.len());
                    out[..k].copy_from_slice(&rest[..k]);
                    *given += k;
                    return Ok(k);
                }
                let (chunk, _) = self.cur.take().expect("a chunk");
                let _ = self.back.try_send(chunk);
            }
            if self.done || out.is_empty() {
                return Ok(0);
            }
            let rx = self.rx.as_ref().expect("open until dropped");
            match rx.recv() {
                Ok(Ok(chunk)) => {
                    self.done = chunk.len < CHUNK;
                    self.cur = Some((chunk, 0));
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(_) => {
                    self.done = true;
                    return Err(std::io::Error::other("the reading thread stopped"));
                }
            }
        }
    }
}

impl Drop for AheadReader {
    fn drop(&mut self) {
        // The thread's next send fails: it stops.
        drop(self.rx.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The thread's work: fills chunks from `file` in order and sends them on `tx`, the last
/// one short (maybe empty), or an error; reuses the chunks `spare` gives back. Ends after
/// the last chunk or an error, or when the reader is gone.
fn read_ahead(file: File, tx: &SyncSender<std::io::Result<Chunk>>, spare: &Receiver<Chunk>) {
    let mut direct = set_direct(&file, true).is_ok();
    let mut offset = 0u64;
    loop {
        let mut chunk = spare.try_recv().unwrap_or_else(|_| Chunk::new());
        chunk.len = 0;
        let filled = fill(&file, &mut chunk, &mut offset, &mut direct);
        let last = filled.is_err() || chunk.len < CHUNK;
        if tx.send(filled.map(|()| chunk)).is_err() || last {
            return;
        }
    }
}

/// Reads into `chunk` from `offset` until it is full or the file ends, moving `offset`
/// on. A direct read the file system refuses (`EINVAL`), or one from an offset no longer
/// aligned, is made through the page cache from then on (`direct` cleared).
fn fill(
    file: &File,
    chunk: &mut Chunk,
    offset: &mut u64,
    direct: &mut bool,
) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    while chunk.len < CHUNK {
        if *direct && *offset % ALIGN as u64 != 0 {
            set_direct(file, false)?;
            *direct = false;
        }
        let to = &mut chunk.buf[chunk.at + chunk.len..chunk.at + CHUNK];
        match file.read_at(to, *offset) {
            Ok(0) => break,
            Ok(k) => {
                chunk.len += k;
                *offset += k as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if *direct && e.raw_os_error() == Some(rustix::io::Errno::INVAL.raw_os_error()) =>
            {
                set_direct(file, false)?;
                *direct = false;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that differ at every offset, so a misplaced block shows.
    fn pattern(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 4096) as u8).collect()
    }

    /// Reads the file of `n` pattern bytes in `dir` through an [`AheadReader`], `piece`
    /// bytes per read.
    fn read_back(dir: &std::path::Path, n: usize, piece: usize) -> (Vec<u8>, Vec<u8>) {
        let want = pattern(n);
        let path = dir.join("f");
        std::fs::write(&path, &want).unwrap();
        let mut r = AheadReader::new(File::open(&path).unwrap());
        let mut got = Vec::new();
        let mut buf = vec![0u8; piece];
        loop {
            let k = r.read(&mut buf).unwrap();
            if k == 0 {
                break;
            }
            got.extend_from_slice(&buf[..k]);
        }
        assert_eq!(r.read(&mut buf).unwrap(), 0, "the end stays the end");
        (got, want)
    }

    #[test]
    fn every_byte_comes_in_order_whatever_the_size() {
        let d = tempfile::tempdir_in(".").unwrap();
        for (n, piece) in [
            (0, 100),
            (1, 100),
            (ALIGN, 4096),
            (ALIGN + 1, 1000),
            (CHUNK, 1 << 20),
            (CHUNK - 1, 3 << 20),
            (CHUNK + 1, 777),
            (3 * CHUNK + 12_345, 1 << 20),
        ] {
            let (got, want) = read_back(d.path(), n, piece);
            assert_eq!(got.len(), want.len(), "{n} bytes by {piece}");
            assert!(got == want, "{n} bytes by {piece}: the bytes differ");
        }
    }

    #[test]
    fn a_file_system_without_direct_reads_gives_the_same_bytes() {
        let Ok(d) = tempfile::tempdir_in("/dev/shm") else {
            return;
        };
        let (got, want) = read_back(d.path(), 2 * CHUNK + 5000, 65_536);
        assert!(got == want);
    }

    #[test]
    fn a_reader_dropped_early_stops_its_thread() {
        let d = tempfile::tempdir_in(".").unwrap();
        let path = d.path().join("f");
        std::fs::write(&path, pattern(8 * CHUNK)).unwrap();
        let mut r = AheadReader::new(File::open(&path).unwrap());
        let mut buf = [0u8; 10];
        r.read_exact(&mut buf).unwrap();
        assert_eq!(buf.to_vec(), pattern(10));
        drop(r);
    }
}
