//! Validation codes unique across an emission, checked exactly in bounded memory: each
//! block's codes, sorted, are written as a run of little-endian `u64` to a temporary
//! directory, and the runs are merged (one small read buffer per block) to count codes
//! met more than once. Memory: [`RUN_BUFFER`] bytes per block (at most 999 blocks: under
//! 64 MiB), whatever the number of tickets; disk: 8 bytes a ticket, removed at the end.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes buffered per run while merging.
pub const RUN_BUFFER: usize = 64 << 10;

/// A code met twice: the code, and the runs (0-based, in the order added) of its first two
/// tickets (the same run twice when both are in one block).
pub type Shared = (u64, usize, usize);

/// The sorted runs of codes of an emission's blocks, on disk.
pub struct CodeRuns {
    dir: tempfile::TempDir,
    runs: Vec<PathBuf>,
}

impl CodeRuns {
    /// Runs in a new temporary directory under `std::env::temp_dir()` (`TMPDIR`).
    /// Errors: it cannot be created.
    pub fn new() -> std::io::Result<CodeRuns> {
        Ok(CodeRuns {
            dir: tempfile::Builder::new().prefix("tirage-codes-").tempdir()?,
            runs: Vec::new(),
        })
    }

    /// Where the runs are.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Adds the codes of one block, sorted ascending. Errors: the run cannot be written.
    pub fn add(&mut self, sorted: &[u64]) -> std::io::Result<()> {
        debug_assert!(sorted.windows(2).all(|w| w[0] <= w[1]));
        let path = self.dir.path().join(format!("run-{:04}", self.runs.len()));
        let mut w = BufWriter::with_capacity(RUN_BUFFER, File::create_new(&path)?);
        for c in sorted {
            w.write_all(&c.to_le_bytes())?;
        }
        w.into_inner().map_err(|e| e.into_error())?;
        self.runs.push(path);
        Ok(())
    }

    /// How many codes are met again after their first (0: every code is unique), over
    /// every run added, and the smallest such code with the runs (0-based, in the order
    /// added) of its first two tickets. Errors: a run cannot be read.
    pub fn duplicates(&self) -> std::io::Result<(u64, Option<Shared>)> {
        let mut readers = self
            .runs
            .iter()
            .map(|p| Ok(BufReader::with_capacity(RUN_BUFFER, File::open(p)?)))
            .collect::<std::io::Result<Vec<_>>>()?;
        let next = |r: &mut BufReader<File>| -> std::io::Result<Option<u64>> {
            let mut b = [0u8; 8];
            match r.read_exact(&mut b) {
                Ok(()) => Ok(Some(u64::from_le_bytes(b))),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
                Err(e) => Err(e),
            }
        };
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(c) = next(r)? {
                heap.push(Reverse((c, i)));
            }
        }
        let (mut last, mut dups, mut first) = (None, 0u64, None);
        while let Some(Reverse((c, i))) = heap.pop() {
            match last {
                Some((l, j)) if l == c => {
                    dups += 1;
                    first = first.or(Some((c, j, i)));
                }
                _ => {}
            }
            last = Some((c, i));
            if let Some(n) = next(&mut readers[i])? {
                heap.push(Reverse((n, i)));
            }
        }
        Ok((dups, first))
    }
}

/// The tickets (1-based) of the print file `path` (tickets.bin, in clear) whose validation
/// code is `code`, reading one record at a time; `None` when it cannot be read as one.
pub fn tickets_with_code(path: &Path, code: u64) -> Option<Vec<u32>> {
    use crate::output::print_file;
    let mut r = BufReader::with_capacity(RUN_BUFFER, crate::regular::open_regular(path).ok()?);
    let mut head = [0u8; 30];
    r.read_exact(&mut head).ok()?;
    let h = print_file::read_header(&head).ok()?;
    let rest = h.header_size.checked_sub(head.len())?;
    std::io::copy(&mut r.by_ref().take(rest as u64), &mut std::io::sink()).ok()?;
    if h.record_size < 38 {
        return None;
    }
    let mut rec = vec![0u8; h.record_size];
    let mut found = Vec::new();
    while r.read_exact(&mut rec).is_ok() {
        let v = u64::from_le_bytes(rec[30..38].try_into().expect("8 bytes"));
        if v == code {
            found.push(u32::from_le_bytes(rec[0..4].try_into().expect("4 bytes")));
        }
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_met_again_are_counted_across_and_within_runs() {
        let mut r = CodeRuns::new().unwrap();
        r.add(&[1, 5, 9]).unwrap();
        r.add(&[2, 5, 10]).unwrap();
        assert_eq!(r.duplicates().unwrap(), (1, Some((5, 0, 1))));
        r.add(&[]).unwrap();
        r.add(&[0, 9, 9, 11]).unwrap();
        let mut within = CodeRuns::new().unwrap();
        within.add(&[3, 3]).unwrap();
        assert_eq!(within.duplicates().unwrap(), (1, Some((3, 0, 0))));
        // 5 again, 9 twice again.
        assert_eq!(r.duplicates().unwrap(), (3, Some((5, 0, 1))));
        let dir = r.path().to_path_buf();
        drop(r);
        assert!(!dir.exists(), "the runs are removed");
    }

    #[test]
    fn unique_codes_give_none() {
        let mut r = CodeRuns::new().unwrap();
        for b in 0..5u64 {
            let v: Vec<u64> = (0..1000).map(|i| i * 5 + b).collect();
            r.add(&v).unwrap();
        }
        assert_eq!(r.duplicates().unwrap(), (0, None));
    }
}
