//! Big files read by a thread of the file's own, ahead of the reader, in [`CHUNK`]s into
//! buffers aligned to [`ALIGN`]. What the page cache already holds of the file is copied
//! from it; the rest is read with `O_DIRECT` where the file system takes it, so the kernel
//! neither copies those bytes through the page cache nor keeps them there. The
//! reader gets the same bytes as a plain read, in order, either copied out ([`Read`]) or a
//! chunk at a time, the buffer itself handed over ([`Chunked`]); at most [`AHEAD`] chunks
//! are read before it asks for them. Where the file system refuses `O_DIRECT`, or an offset
//! stops being aligned (the file's last partial block), the thread reads through the page
//! cache.

use super::direct::{set_direct, ALIGN};
use std::fs::File;
use std::io::Read;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Bytes read from the disk at once (2 MiB).
pub const CHUNK: usize = 2 << 20;

/// Chunks read ahead of the reader, at most.
pub const AHEAD: usize = 2;

/// Bytes free before a chunk's file bytes (64 KiB), where the end of the previous chunk (a
/// line or record it cut) is put back before them without moving them.
pub const HEAD: usize = 64 << 10;

/// Bytes of a file in one buffer: a chunk as read ([`Chunked::next_chunk`]), whose
/// `buf[at..at + CHUNK]` is aligned, [`HEAD`] bytes free before it and [`ALIGN`] after;
/// or any bytes in a buffer of their own. It holds `buf[start..end]`, and reads as them.
pub struct Chunk {
    buf: Vec<u8>,
    at: usize,
    start: usize,
    end: usize,
}

impl Chunk {
    /// An empty chunk to read into.
    fn new() -> Chunk {
        let buf = vec![0u8; HEAD + CHUNK + ALIGN];
        let at = HEAD + buf[HEAD..].as_ptr().align_offset(ALIGN);
        Chunk {
            buf,
            at,
            start: at,
            end: at,
        }
    }

    /// `bytes` in a buffer of their own (never read into again).
    pub fn from_vec(bytes: Vec<u8>) -> Chunk {
        let end = bytes.len();
        Chunk {
            buf: bytes,
            at: 0,
            start: 0,
            end,
        }
    }

    /// True for a chunk made to read into, its buffer as made: it can be filled again.
    fn refillable(&self) -> bool {
        self.buf.len() == HEAD + CHUNK + ALIGN && self.at >= HEAD
    }

    /// Empties it, ready to be filled from its aligned start.
    fn clear(&mut self) {
        self.start = self.at;
        self.end = self.at;
    }

    /// The chunk with `carry` before its bytes: put in the room before them when it fits
    /// (no byte of the chunk moves), else both copied to a buffer of their own.
    pub fn after(mut self, carry: &[u8]) -> Chunk {
        if carry.is_empty() {
            return self;
        }
        if carry.len() <= self.start {
            self.start -= carry.len();
            self.buf[self.start..self.start + carry.len()].copy_from_slice(carry);
            return self;
        }
        let mut v = Vec::with_capacity(carry.len() + self.len() + 1);
        v.extend_from_slice(carry);
        v.extend_from_slice(&self);
        Chunk::from_vec(v)
    }

    /// Keeps its first `len` bytes.
    pub fn truncate(&mut self, len: usize) {
        self.end = self.start + len.min(self.end - self.start);
    }

    /// Appends byte `b` (in the room after its bytes when there is some).
    pub fn push(&mut self, b: u8) {
        if self.end < self.buf.len() {
            self.buf[self.end] = b;
        } else {
            // `end` is the buffer's length: the buffer grows, and is never refilled.
            self.buf.push(b);
        }
        self.end += 1;
    }
}

impl std::ops::Deref for Chunk {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }
}

/// A reader whose bytes can also be taken a chunk at a time, in buffers it hands over.
pub trait Chunked: Read + Send {
    /// The next bytes of the file, in order: at most [`CHUNK`] of them, none only at its
    /// end. `spare` is a chunk the caller is done with, to be filled again. The default
    /// fills a chunk from [`Read::read`]. Errors: the file's.
    fn next_chunk(&mut self, spare: Option<Chunk>) -> std::io::Result<Chunk> {
        read_chunk(self, spare)
    }
}

/// Any reader as [`Chunked`]: each chunk filled by [`Read::read`], a copy (a decrypted
/// stream, bytes in memory).
pub struct Copied<R>(pub R);

impl<R: Read> Read for Copied<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(out)
    }
}

impl<R: Read + Send> Chunked for Copied<R> {}

/// A file read ahead by a thread of its own ([`AheadReader`]): chunks come as read.
impl Chunked for AheadReader {
    fn next_chunk(&mut self, spare: Option<Chunk>) -> std::io::Result<Chunk> {
        if self.plain.is_some() {
            return read_chunk(self, spare);
        }
        if let Some(s) = spare.filter(Chunk::refillable) {
            let _ = self.back.try_send(s);
        }
        if let Some((chunk, given)) = self.cur.take() {
            // Bytes left of a chunk [`Read`] gave part of: they come first, copied.
            if given < chunk.len() {
                let rest = Chunk::from_vec(chunk[given..].to_vec());
                let _ = self.back.try_send(chunk);
                return Ok(rest);
            }
            let _ = self.back.try_send(chunk);
        }
        match self.receive()? {
            Some(chunk) => Ok(chunk),
            None => Ok(Chunk::from_vec(Vec::new())),
        }
    }
}

/// The next bytes of `r` (at most [`CHUNK`], none at its end) read into `spare` when it can
/// be filled again, else into a new chunk: the default [`Chunked::next_chunk`]. Errors: the
/// reader's.
fn read_chunk<R: Read + ?Sized>(r: &mut R, spare: Option<Chunk>) -> std::io::Result<Chunk> {
    let mut c = spare.filter(Chunk::refillable).unwrap_or_else(Chunk::new);
    c.clear();
    let mut got = 0;
    while got < CHUNK {
        match r.read(&mut c.buf[c.at + got..c.at + CHUNK]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    c.end = c.at + got;
    Ok(c)
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
    /// Reads `file` (open for reading, at its start) from the page cache while it holds the
    /// bytes, then past it where its file system allows it, else through it. The thread starts at once; when it cannot (the
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

impl AheadReader {
    /// The next chunk the thread read, `None` after the last one. Errors: the operating
    /// system's, once; then the end.
    fn receive(&mut self) -> std::io::Result<Option<Chunk>> {
        if self.done {
            return Ok(None);
        }
        let rx = self.rx.as_ref().expect("open until dropped");
        match rx.recv() {
            Ok(Ok(chunk)) => {
                self.done = chunk.len() < CHUNK;
                Ok(Some(chunk))
            }
            Ok(Err(e)) => {
                self.done = true;
                Err(e)
            }
            Err(_) => {
                self.done = true;
                Err(std::io::Error::other("the reading thread stopped"))
            }
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
                let rest = &chunk[*given..];
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
            match self.receive()? {
                Some(chunk) => self.cur = Some((chunk, 0)),
                None => return Ok(0),
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

/// How the read-ahead thread reads a file at the point it has reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    /// From the page cache alone (`preadv2` with `RWF_NOWAIT`, which reads nothing the
    /// cache does not hold): the file system takes `O_DIRECT`, and every byte read so far
    /// was in the cache.
    Cached,
    /// Past the page cache (`O_DIRECT`): a read found bytes the cache did not hold.
    Direct,
    /// Through the page cache, waiting for the disk: the file system refuses `O_DIRECT`,
    /// or the offset is no longer aligned.
    Plain,
}

/// The way a file is read from its start: [`Way::Cached`] where its file system takes
/// `O_DIRECT` (left off on the file until the cache misses), else [`Way::Plain`].
fn first_way(file: &File) -> Way {
    if set_direct(file, true).is_ok() && set_direct(file, false).is_ok() {
        Way::Cached
    } else {
        Way::Plain
    }
}

/// The thread's work: fills chunks from `file` in order and sends them on `tx`, the last
/// one short (maybe empty), or an error; reuses the chunks `spare` gives back. Ends after
/// the last chunk or an error, or when the reader is gone.
fn read_ahead(file: File, tx: &SyncSender<std::io::Result<Chunk>>, spare: &Receiver<Chunk>) {
    let mut way = first_way(&file);
    let mut offset = 0u64;
    loop {
        let mut chunk = spare.try_recv().unwrap_or_else(|_| Chunk::new());
        chunk.clear();
        let filled = fill(&file, &mut chunk, &mut offset, &mut way);
        let last = filled.is_err() || chunk.len() < CHUNK;
        if tx.send(filled.map(|()| chunk)).is_err() || last {
            return;
        }
    }
}

/// Reads into `chunk` from `offset` until it is full or the file ends, moving `offset`
/// on. Read [`Way::Cached`], the bytes come from the page cache while it holds them; the
/// first it does not (`EAGAIN`, or a file system without `RWF_NOWAIT`) turns the file to
/// [`Way::Direct`] from that offset on (the kernel may read ahead a few MiB into the cache
/// on that miss, once a file). A direct read the file system refuses (`EINVAL`), or one
/// from an offset no longer aligned, is made [`Way::Plain`] from then on.
fn fill(file: &File, chunk: &mut Chunk, offset: &mut u64, way: &mut Way) -> std::io::Result<()> {
    use rustix::io::{preadv2, Errno, ReadWriteFlags};
    use std::os::unix::fs::FileExt;
    while chunk.len() < CHUNK {
        if *way == Way::Direct && *offset % ALIGN as u64 != 0 {
            set_direct(file, false)?;
            *way = Way::Plain;
        }
        let to = &mut chunk.buf[chunk.end..chunk.at + CHUNK];
        let read = match *way {
            Way::Cached => {
                let mut bufs = [std::io::IoSliceMut::new(to)];
                match preadv2(file, &mut bufs, *offset, ReadWriteFlags::NOWAIT) {
                    Err(e) if e == Errno::AGAIN || e == Errno::OPNOTSUPP => {
                        set_direct(file, true)?;
                        *way = Way::Direct;
                        continue;
                    }
                    r => r.map_err(std::io::Error::from),
                }
            }
            Way::Direct | Way::Plain => file.read_at(to, *offset),
        };
        match read {
            Ok(0) => break,
            Ok(k) => {
                chunk.end += k;
                *offset += k as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if *way == Way::Direct && e.raw_os_error() == Some(Errno::INVAL.raw_os_error()) =>
            {
                set_direct(file, false)?;
                *way = Way::Plain;
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

    /// The chunks the read-ahead thread's reads make of the file at `path`, and the way it
    /// reads the file after each chunk.
    fn chunks_read(path: &std::path::Path) -> (Vec<Vec<u8>>, Vec<Way>) {
        let file = File::open(path).unwrap();
        let mut way = first_way(&file);
        let (mut chunks, mut ways, mut offset) = (Vec::new(), Vec::new(), 0);
        loop {
            let mut c = Chunk::new();
            fill(&file, &mut c, &mut offset, &mut way).unwrap();
            chunks.push(c.to_vec());
            ways.push(way);
            if c.len() < CHUNK {
                return (chunks, ways);
            }
        }
    }

    #[test]
    fn a_file_read_hot_and_cold_gives_the_same_chunks() {
        let d = tempfile::tempdir_in(".").unwrap();
        let path = d.path().join("f");
        let want = pattern(3 * CHUNK + 12_345);
        std::fs::write(&path, &want).unwrap();
        File::open(&path).unwrap().sync_all().unwrap();
        assert!(
            std::fs::read(&path).unwrap() == want,
            "now in the page cache"
        );
        let (hot, hot_ways) = chunks_read(&path);
        let file = File::open(&path).unwrap();
        rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed).unwrap();
        let (cold, cold_ways) = chunks_read(&path);
        let sizes = |c: &[Vec<u8>]| c.iter().map(Vec::len).collect::<Vec<_>>();
        assert_eq!(sizes(&hot), [CHUNK, CHUNK, CHUNK, 12_345]);
        assert_eq!(sizes(&cold), sizes(&hot));
        assert!(hot == cold, "the same bytes in the same chunks");
        assert!(hot.concat() == want);
        use Way::{Cached, Direct, Plain};
        if first_way(&file) == Cached {
            assert_eq!(hot_ways, [Cached; 4], "every chunk came from the cache");
            // The last block is partial: read past the cache, it leaves the offset unaligned.
            assert_eq!(
                cold_ways,
                [Direct, Direct, Direct, Plain],
                "read past the cache"
            );
        } else {
            assert_eq!(hot_ways, [Plain; 4]);
            assert_eq!(cold_ways, [Plain; 4]);
        }
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

    /// Takes `r` in chunks to its end, each chunk handed back to be filled again.
    fn chunks_of(r: &mut dyn Chunked) -> Vec<u8> {
        let mut got = Vec::new();
        let mut spare = None;
        loop {
            let c = r.next_chunk(spare.take()).unwrap();
            if c.is_empty() {
                break;
            }
            assert!(c.len() <= CHUNK);
            got.extend_from_slice(&c);
            spare = Some(c);
        }
        assert!(
            r.next_chunk(None).unwrap().is_empty(),
            "the end stays the end"
        );
        got
    }

    #[test]
    fn chunks_handed_over_hold_every_byte_in_order() {
        let d = tempfile::tempdir_in(".").unwrap();
        let path = d.path().join("f");
        for n in [0, 1, ALIGN + 1, CHUNK, CHUNK + 1, 3 * CHUNK + 12_345] {
            let want = pattern(n);
            std::fs::write(&path, &want).unwrap();
            let got = chunks_of(&mut AheadReader::new(File::open(&path).unwrap()));
            assert!(got == want, "{n} bytes in chunks");
            let copied = chunks_of(&mut Copied(std::io::Cursor::new(want.clone())));
            assert!(copied == want, "{n} bytes copied in chunks");
        }
    }

    #[test]
    fn chunks_after_a_plain_read_go_on_where_it_stopped() {
        let d = tempfile::tempdir_in(".").unwrap();
        let path = d.path().join("f");
        let want = pattern(2 * CHUNK + 99);
        std::fs::write(&path, &want).unwrap();
        for first in [0, 30, CHUNK, CHUNK + 5] {
            let mut r = AheadReader::new(File::open(&path).unwrap());
            let mut got = vec![0u8; first];
            r.read_exact(&mut got).unwrap();
            got.extend(chunks_of(&mut r));
            assert!(got == want, "{first} bytes read first");
        }
    }

    #[test]
    fn a_carry_goes_before_the_bytes_in_place_or_copied() {
        let mut c = read_chunk(&mut std::io::Cursor::new(pattern(1000)), None).unwrap();
        assert_eq!(&c[..], &pattern(1000)[..]);
        let before = c.as_ptr();
        c = c.after(b"xyz");
        assert_eq!(&c[..3], b"xyz");
        assert_eq!(&c[3..], &pattern(1000)[..]);
        assert_eq!(c.as_ptr(), before.wrapping_sub(3), "the bytes did not move");
        c.truncate(10);
        c.push(b'\n');
        assert_eq!(c.len(), 11);
        assert_eq!(c[10], b'\n');
        // Longer than the room before the aligned start (at most HEAD + ALIGN - 1 bytes).
        let long = vec![b'a'; HEAD + ALIGN];
        let c = read_chunk(&mut std::io::Cursor::new(pattern(10)), None)
            .unwrap()
            .after(&long);
        assert_eq!(c.len(), HEAD + ALIGN + 10);
        assert_eq!(&c[..HEAD + ALIGN], &long[..]);
        assert_eq!(&c[HEAD + ALIGN..], &pattern(10)[..]);
        assert!(!c.refillable());
    }
}
