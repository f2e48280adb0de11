//! The seal of a block as verify read it: the directory's identity (device and inode) and
//! the SHA-256 of its `SHA256SUMS` and `manifest.json`, which bind every other file. Taken
//! before the checks and again just before the audit report is written into the block:
//! a report is written only into the block that was read, never into one that replaced it.

use crate::block::layout::{MANIFEST, SUMS};
use sha2::{Digest, Sha256};
use std::path::Path;

/// What identifies the block in a directory (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seal {
    dev: u64,
    ino: u64,
    sums: Option<[u8; 32]>,
    manifest: Option<[u8; 32]>,
}

/// SHA-256 of the regular file `path`, at most `limit` bytes read; `None` when it is
/// missing, not a regular file, larger, or unreadable.
fn digest(path: &Path, limit: u64) -> Option<[u8; 32]> {
    let bytes = crate::output::read_regular(path, limit).ok()?;
    Some(Sha256::digest(bytes).into())
}

impl Seal {
    /// The seal of the block in `dir`. Errors: `dir` cannot be examined.
    pub fn of(dir: &Path) -> std::io::Result<Seal> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(dir)?;
        Ok(Seal {
            dev: m.dev(),
            ino: m.ino(),
            sums: digest(&dir.join(SUMS), 1 << 20),
            manifest: digest(&dir.join(MANIFEST), 64 << 20),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_or_changed_block_has_another_seal() {
        let d = tempfile::tempdir().unwrap();
        let b = d.path().join("b");
        std::fs::create_dir(&b).unwrap();
        std::fs::write(b.join(SUMS), "x").unwrap();
        std::fs::write(b.join(MANIFEST), "{}").unwrap();
        let s = Seal::of(&b).unwrap();
        assert_eq!(Seal::of(&b).unwrap(), s);
        std::fs::write(b.join(MANIFEST), "{ }").unwrap();
        assert_ne!(Seal::of(&b).unwrap(), s);
        std::fs::write(b.join(MANIFEST), "{}").unwrap();
        assert_eq!(Seal::of(&b).unwrap(), s);
        // The same files in another directory moved in its place.
        let c = d.path().join("c");
        std::fs::create_dir(&c).unwrap();
        std::fs::copy(b.join(SUMS), c.join(SUMS)).unwrap();
        std::fs::copy(b.join(MANIFEST), c.join(MANIFEST)).unwrap();
        std::fs::rename(&b, d.path().join("old")).unwrap();
        std::fs::rename(&c, &b).unwrap();
        assert_ne!(Seal::of(&b).unwrap(), s);
    }
}
