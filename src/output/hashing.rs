//! The SHA-256 of a file as it streams, both ways: [`HashingWriter`] as the generator
//! writes a file, [`HashingReader`] as `verify` reads one back, [`SummingReader`] over any
//! reader (a file decrypted as it is read), each counting its bytes.
//! One digest ([`Sum`]) for both, so a file hashed while written and while read gives the
//! same hex string.

use crate::store::ahead::{Chunk, Chunked};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};

/// The byte count and SHA-256 of what passed so far.
#[derive(Clone, Default)]
pub struct Sum {
    h: Sha256,
    n: u64,
}

impl Sum {
    /// Adds `bytes` to the sum.
    pub fn update(&mut self, bytes: &[u8]) {
        self.h.update(bytes);
        self.n += bytes.len() as u64;
    }

    /// The byte count and the hex SHA-256 (64 lowercase digits).
    pub fn finish(self) -> (u64, String) {
        (self.n, hex::encode(self.h.finalize()))
    }
}

/// A writer that sums what passes through it to `inner` (the delivered bytes of an
/// encrypted file, say).
pub struct HashingWriter<W> {
    inner: W,
    sum: Sum,
}

impl<W> HashingWriter<W> {
    /// Sums what is written to `inner`.
    pub fn new(inner: W) -> Self {
        HashingWriter {
            inner,
            sum: Sum::default(),
        }
    }

    /// The inner writer, the byte count and the hex SHA-256 of what went through.
    pub fn finish(self) -> (W, u64, String) {
        let (n, h) = self.sum.finish();
        (self.inner, n, h)
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let k = self.inner.write(buf)?;
        self.sum.update(&buf[..k]);
        Ok(k)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that sums what is read through it from `inner` (the plaintext of an encrypted
/// file as it is decrypted, say): the mirror of [`HashingWriter`].
pub struct SummingReader<R> {
    inner: R,
    sum: Sum,
}

impl<R> SummingReader<R> {
    /// Sums what is read from `inner`.
    pub fn new(inner: R) -> Self {
        SummingReader {
            inner,
            sum: Sum::default(),
        }
    }

    /// How many bytes were read so far.
    pub fn count(&self) -> u64 {
        self.sum.n
    }

    /// The byte count and the hex SHA-256 of what was read.
    pub fn finish(self) -> (u64, String) {
        self.sum.finish()
    }
}

impl<R: Read> Read for SummingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.sum.update(&buf[..k]);
        Ok(k)
    }
}

/// A file read in blocks and summed as it is read, never past a limit (a file larger than
/// its block could be is not read past it).
pub struct HashingReader {
    f: Box<dyn Chunked>,
    sum: Sum,
    eof: bool,
    /// Bytes it may still read.
    left: u64,
    /// True when reading stopped at the limit with more in the file.
    truncated: bool,
}

impl HashingReader {
    /// Reads `f`, whose first bytes `head` were read already (summed first).
    pub fn new(f: Box<dyn Chunked>, head: &[u8]) -> HashingReader {
        let mut sum = Sum::default();
        sum.update(head);
        HashingReader {
            f,
            sum,
            eof: false,
            left: u64::MAX,
            truncated: false,
        }
    }

    /// At most `limit` more bytes will be read.
    pub fn limit(mut self, limit: u64) -> HashingReader {
        self.left = limit;
        self
    }

    /// Whether the end of the file (or the limit) was reached.
    pub fn eof(&self) -> bool {
        self.eof
    }

    /// Appends up to `want` bytes to `buf` (fewer at end of file or at the limit).
    /// Errors: the file's.
    pub fn read(&mut self, buf: &mut Vec<u8>, want: usize) -> std::io::Result<()> {
        let start = buf.len();
        let want = self.allowed(want);
        buf.reserve(want);
        (&mut self.f).take(want as u64).read_to_end(buf)?;
        self.took(&buf[start..], want);
        Ok(())
    }

    /// Fills `out` from its start with the next bytes, all of it but at end of file or at
    /// the limit, and returns how many: the same bytes as [`read`](Self::read), into a
    /// buffer the caller reuses without zeroing it again. Errors: the file's.
    pub fn read_into(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let want = self.allowed(out.len());
        let mut got = 0;
        while got < want {
            match self.f.read(&mut out[got..want]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.took(&out[..got], want);
        Ok(got)
    }

    /// The next bytes in a chunk of their own, as the file hands them over
    /// ([`Chunked::next_chunk`]: none at the end of the file or at the limit), counted and
    /// summed; `spare`, a chunk done with, to be filled again. Errors: the file's.
    pub fn next_chunk(&mut self, spare: Option<Chunk>) -> std::io::Result<Chunk> {
        if self.eof {
            return Ok(Chunk::from_vec(Vec::new()));
        }
        let mut c = self.f.next_chunk(spare)?;
        if c.is_empty() {
            self.eof = true;
            return Ok(c);
        }
        let left = usize::try_from(self.left).unwrap_or(usize::MAX);
        if c.len() > left {
            // The file goes on past the limit.
            c.truncate(left);
            self.eof = true;
            self.truncated = true;
        }
        self.left -= c.len() as u64;
        if self.left == 0 && !self.eof {
            // Exactly at the limit: a byte more tells whether the file goes on.
            self.eof = true;
            let mut probe = [0u8; 1];
            self.truncated = self.f.read(&mut probe).is_ok_and(|n| n > 0);
        }
        self.sum.update(&c);
        Ok(c)
    }

    /// The bytes of `want` the limit leaves to read.
    fn allowed(&self, want: usize) -> usize {
        want.min(usize::try_from(self.left).unwrap_or(usize::MAX))
    }

    /// Counts and sums `bytes`, just read of the `want` asked for: fewer is the end of the
    /// file; the limit reached, one byte more is probed to tell whether the file goes on.
    fn took(&mut self, bytes: &[u8], want: usize) {
        self.left -= bytes.len() as u64;
        if bytes.len() < want {
            self.eof = true;
        } else if self.left == 0 {
            self.eof = true;
            let mut probe = [0u8; 1];
            self.truncated = self.f.read(&mut probe).is_ok_and(|n| n > 0);
        }
        self.sum.update(bytes);
    }

    /// Bytes read, their hex SHA-256, and whether the file went on past the limit.
    pub fn finish(self) -> (u64, String, bool) {
        let (n, h) = self.sum.finish();
        (n, h, self.truncated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ahead::Copied;

    #[test]
    fn a_file_summed_while_written_and_while_read_gives_one_digest() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let mut w = HashingWriter::new(Vec::new());
        w.write_all(&data).unwrap();
        let (written, n, h) = w.finish();
        assert_eq!(written, data);
        let mut r = HashingReader::new(
            Box::new(Copied(std::io::Cursor::new(data[10..].to_vec()))),
            &data[..10],
        );
        let mut buf = Vec::new();
        while !r.eof() {
            r.read(&mut buf, 4096).unwrap();
        }
        assert_eq!(r.finish(), (n, h.clone(), false));
        assert_eq!(h, hex::encode(Sha256::digest(&data)));
        let mut into =
            HashingReader::new(Box::new(Copied(std::io::Cursor::new(data.clone()))), &[]);
        let mut out = vec![7u8; 4096];
        let mut back = Vec::new();
        while !into.eof() {
            let k = into.read_into(&mut out).unwrap();
            back.extend_from_slice(&out[..k]);
        }
        assert_eq!(back, data);
        assert_eq!(into.finish(), (n, h.clone(), false));
        let mut short =
            HashingReader::new(Box::new(Copied(std::io::Cursor::new(data.clone()))), &[])
                .limit(100);
        let mut buf = Vec::new();
        short.read(&mut buf, 4096).unwrap();
        assert!(short.eof());
        assert!(short.finish().2);
        let mut short =
            HashingReader::new(Box::new(Copied(std::io::Cursor::new(data.clone()))), &[])
                .limit(100);
        assert_eq!(short.read_into(&mut out).unwrap(), 100);
        assert!(short.eof());
        assert_eq!(
            short.finish(),
            (100, hex::encode(Sha256::digest(&data[..100])), true)
        );
    }

    /// Reads `data` in chunks with `limit`: the bytes, and what the reader says at the end.
    fn chunks(data: &[u8], limit: u64) -> (Vec<u8>, (u64, String, bool)) {
        let mut r = HashingReader::new(Box::new(Copied(std::io::Cursor::new(data.to_vec()))), &[])
            .limit(limit);
        let mut back = Vec::new();
        let mut spare = None;
        loop {
            let c = r.next_chunk(spare.take()).unwrap();
            if c.is_empty() {
                break;
            }
            back.extend_from_slice(&c);
            spare = Some(c);
        }
        assert!(r.eof());
        assert!(
            r.next_chunk(None).unwrap().is_empty(),
            "the end stays the end"
        );
        (back, r.finish())
    }

    #[test]
    fn a_file_taken_in_chunks_is_summed_and_limited_as_one_read() {
        use crate::store::ahead::CHUNK;
        let data: Vec<u8> = (0..2 * CHUNK + 777).map(|i| (i % 253) as u8).collect();
        let whole = (data.len() as u64, hex::encode(Sha256::digest(&data)), false);
        assert_eq!(chunks(&data, u64::MAX), (data.clone(), whole.clone()));
        // Exactly at the limit: nothing more, not truncated.
        assert_eq!(chunks(&data, data.len() as u64), (data.clone(), whole));
        for limit in [0, 100, CHUNK, CHUNK + 1, data.len() - 1] {
            let part = &data[..limit];
            assert_eq!(
                chunks(&data, limit as u64),
                (
                    part.to_vec(),
                    (limit as u64, hex::encode(Sha256::digest(part)), true)
                ),
                "limit {limit}"
            );
        }
    }
}
