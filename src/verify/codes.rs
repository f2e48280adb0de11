//! Validation codes unique across an emission, checked exactly in bounded memory: each
//! block's codes, sorted, are written as a run of `u64` to a temporary directory, and the
//! runs are merged (one small read buffer per block) to count codes met more than once.
//! Memory: [`RUN_BUFFER`] bytes per block (at most 999 blocks: under 64 MiB), whatever the
//! number of tickets; disk: 8 bytes a ticket, removed at the end.
//!
//! The codes on disk are a map from validation codes to blocks: nobody but this run may
//! read them. The directory, `$TMPDIR/tirage-codes-<random>`, is made mode 0700 and each
//! run file 0600 before its first byte, whatever the umask; and every code is written
//! encrypted, XORed with a ChaCha20 stream under a key drawn from the operating system for
//! this run alone and held only in memory (wiped when dropped), so that runs a crash or
//! `kill -9` leaves behind are noise to whoever reads them. The run holds an exclusive
//! `flock` on its directory while it lives; the next verify removes every directory whose
//! lock nobody holds ([`remove_stale`]) and names it.

use crate::crypto::rng::Stream;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

/// Bytes buffered per run while merging.
pub const RUN_BUFFER: usize = 64 << 10;

/// A code met twice: the code, and the runs (0-based, in the order added) of its first two
/// tickets (the same run twice when both are in one block).
pub type Shared = (u64, usize, usize);

/// The prefix of a directory of runs in `TMPDIR`.
pub const PREFIX: &str = "tirage-codes-";

/// The sorted runs of codes of an emission's blocks, on disk, encrypted.
pub struct CodeRuns {
    dir: PathBuf,
    /// The directory, open and exclusively locked (`flock`) while this run lives.
    _lock: File,
    key: Zeroizing<[u8; 32]>,
    runs: Vec<PathBuf>,
}

/// Locks `dir` (open) exclusively; `wait` false: fails at once when another holds it.
fn lock(dir: &Path, wait: bool) -> std::io::Result<File> {
    use rustix::fs::{flock, FlockOperation as Op};
    let f = File::open(dir)?;
    let op = if wait {
        Op::LockExclusive
    } else {
        Op::NonBlockingLockExclusive
    };
    flock(&f, op)?;
    Ok(f)
}

impl CodeRuns {
    /// Runs in a new directory `tirage-codes-<random>` under `std::env::temp_dir()`
    /// (`TMPDIR`), mode 0700, locked; a fresh key from the operating system. Errors: it
    /// cannot be created or locked, or no random key can be drawn.
    pub fn new() -> std::io::Result<CodeRuns> {
        CodeRuns::in_dir(&std::env::temp_dir())
    }

    fn in_dir(base: &Path) -> std::io::Result<CodeRuns> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        let mut key = Zeroizing::new([0u8; 32]);
        getrandom::getrandom(&mut key[..]).map_err(std::io::Error::other)?;
        let mut name = [0u8; 8];
        getrandom::getrandom(&mut name).map_err(std::io::Error::other)?;
        let name = hex::encode(name);
        // Made and locked under a hidden name, then renamed: a directory under the visible
        // name is always locked while its run lives, so the next verify never takes it
        // for a dead run's.
        let staging = base.join(format!(".{PREFIX}{name}"));
        std::fs::DirBuilder::new().mode(0o700).create(&staging)?;
        std::fs::set_permissions(&staging, std::fs::Permissions::from_mode(0o700))?;
        let locked = lock(&staging, true);
        let dir = base.join(format!("{PREFIX}{name}"));
        let renamed = locked.and_then(|l| std::fs::rename(&staging, &dir).map(|()| l));
        match renamed {
            Ok(l) => Ok(CodeRuns {
                dir,
                _lock: l,
                key,
                runs: Vec::new(),
            }),
            Err(e) => {
                let _ = std::fs::remove_dir(&staging);
                Err(e)
            }
        }
    }

    /// Where the runs are.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The keystream of run `i`: ChaCha20 under SHA-256(label, key, i).
    fn stream(&self, i: usize) -> Stream {
        let mut h = Sha256::new();
        h.update(b"tirage codes run\0");
        h.update(&self.key[..]);
        h.update((i as u64).to_le_bytes());
        let k = Zeroizing::new(<[u8; 32]>::from(h.finalize()));
        Stream::from_seed(*k)
    }

    /// Adds the codes of one block, sorted ascending: a file `run-NNNN` created mode
    /// 0600, each code XORed with the run's keystream. Errors: the run cannot be written.
    pub fn add(&mut self, sorted: &[u64]) -> std::io::Result<()> {
        use std::os::unix::fs::OpenOptionsExt;
        debug_assert!(sorted.windows(2).all(|w| w[0] <= w[1]));
        let path = self.dir.join(format!("run-{:04}", self.runs.len()));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)?;
        let mut ks = self.stream(self.runs.len());
        let mut w = BufWriter::with_capacity(RUN_BUFFER, file);
        for c in sorted {
            w.write_all(&(c ^ ks.next_u64()).to_le_bytes())?;
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
            .enumerate()
            .map(|(i, p)| {
                Ok((
                    BufReader::with_capacity(RUN_BUFFER, File::open(p)?),
                    self.stream(i),
                ))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        let next = |(r, ks): &mut (BufReader<File>, Stream)| -> std::io::Result<Option<u64>> {
            let mut b = [0u8; 8];
            match r.read_exact(&mut b) {
                Ok(()) => Ok(Some(u64::from_le_bytes(b) ^ ks.next_u64())),
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
    let mut r =
        BufReader::with_capacity(RUN_BUFFER, crate::store::regular::open_regular(path).ok()?);
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

impl Drop for CodeRuns {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A directory of runs a dead verify left, removed.
#[derive(Debug)]
pub struct Stale {
    /// The directory.
    pub path: PathBuf,
    /// How many run files it held.
    pub runs: usize,
    /// Why it could not be removed, if it could not.
    pub error: Option<std::io::Error>,
}

/// Removes from `std::env::temp_dir()` (`TMPDIR`) every directory of runs this user's
/// verify runs left when they died (`kill -9`, a crash): `tirage-codes-*` directories
/// owned by this user whose lock no live run holds (and hidden `.tirage-codes-*` ones, a
/// run killed while making its directory, a minute old or more). Returns what it found,
/// for the caller to name. Errors reading `TMPDIR` give an empty list.
pub fn remove_stale() -> Vec<Stale> {
    remove_stale_in(&std::env::temp_dir())
}

fn remove_stale_in(base: &Path) -> Vec<Stale> {
    use std::os::unix::fs::MetadataExt;
    let uid = rustix::process::getuid().as_raw();
    let mut found = Vec::new();
    for e in std::fs::read_dir(base).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let hidden = name.starts_with(&format!(".{PREFIX}"));
        if !(name.starts_with(PREFIX) || hidden) {
            continue;
        }
        let path = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != uid {
            continue;
        }
        let old = meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|a| a.as_secs() >= 60);
        if hidden && !old {
            continue;
        }
        // Held: a live run's. Free: nobody's, since a run locks it before it is visible.
        let Ok(_held) = lock(&path, false) else {
            continue;
        };
        let runs = std::fs::read_dir(&path)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|r| r.file_name().to_string_lossy().starts_with("run-"))
            .count();
        let error = std::fs::remove_dir_all(&path).err();
        found.push(Stale { path, runs, error });
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

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

    /// What a run leaves on disk: a 0700 directory, 0600 files, and no code in clear —
    /// not the codes, not in order, not the same bytes for the same codes in two runs.
    #[test]
    fn runs_on_disk_are_private_and_encrypted() {
        let t = tempfile::tempdir().unwrap();
        let mut r = CodeRuns::in_dir(t.path()).unwrap();
        let codes: Vec<u64> = (0..2000u64).map(|i| 1_000_000_007 * i + 12_345).collect();
        r.add(&codes).unwrap();
        r.add(&codes).unwrap();
        assert_eq!(r.duplicates().unwrap(), (2000, Some((12_345, 0, 1))));
        assert_eq!(mode(r.path()), 0o700);
        let name = r.path().file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            name.starts_with(PREFIX) && name.len() == PREFIX.len() + 16,
            "{name}"
        );
        let read = |i: usize| {
            let p = r.path().join(format!("run-000{i}"));
            assert_eq!(mode(&p), 0o600);
            let b = std::fs::read(p).unwrap();
            assert_eq!(b.len(), 16_000);
            b.chunks(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .collect::<Vec<u64>>()
        };
        let (a, b) = (read(0), read(1));
        assert_ne!(a, b);
        let clear: std::collections::HashSet<u64> = codes.iter().copied().collect();
        let seen = a.iter().chain(&b).filter(|v| clear.contains(v)).count();
        assert_eq!(seen, 0);
        assert!(!a.windows(2).all(|w| w[0] <= w[1]), "not in order");
    }

    /// A live run's directory is never taken for a dead one's; a dead run's (its lock
    /// free) is removed and named with its runs; another user's or other names are left.
    #[test]
    fn stale_runs_are_removed_and_live_ones_kept() {
        let t = tempfile::tempdir().unwrap();
        let mut live = CodeRuns::in_dir(t.path()).unwrap();
        live.add(&[1, 2, 3]).unwrap();
        let dead = t.path().join(format!("{PREFIX}0011223344556677"));
        std::fs::create_dir(&dead).unwrap();
        for i in 0..3 {
            std::fs::write(dead.join(format!("run-000{i}")), [0u8; 8]).unwrap();
        }
        let young = t.path().join(format!(".{PREFIX}8899aabbccddeeff"));
        std::fs::create_dir(&young).unwrap();
        std::fs::create_dir(t.path().join("tirage-other")).unwrap();
        let found = remove_stale_in(t.path());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].path.as_path(), found[0].runs),
            (dead.as_path(), 3)
        );
        assert!(found[0].error.is_none());
        assert!(!dead.exists());
        assert!(live.path().is_dir() && young.is_dir());
        assert_eq!(live.duplicates().unwrap(), (0, None));
        assert!(t.path().join("tirage-other").is_dir());
    }
}
