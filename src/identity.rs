//! Build identity of this binary: tool version, git commit and the SHA-256 of `Cargo.lock`.
//!
//! Recorded in every manifest (`tool`) and printed in every audit report, so an auditor can
//! tell which build made a block and which build checked it. The git commit comes from
//! `git rev-parse HEAD` at build time (`build.rs`), or `unknown` when the sources are not a
//! git checkout; local uncommitted edits are not reflected in it. `Cargo.lock` is embedded
//! with `include_bytes!` and hashed on first use: it pins every dependency's exact version.

use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// The package version (`Cargo.toml`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit the binary was built from (40 hex digits), or `unknown`.
pub const GIT_COMMIT: &str = env!("TIRAGE_GIT_COMMIT");

static CARGO_LOCK: &[u8] = include_bytes!("../Cargo.lock");

/// Hex SHA-256 of the `Cargo.lock` this binary was built with (64 hex digits).
pub fn cargo_lock_sha256() -> &'static str {
    static H: OnceLock<String> = OnceLock::new();
    H.get_or_init(|| hex::encode(Sha256::digest(CARGO_LOCK)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_digest_is_the_file_digest() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock");
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(cargo_lock_sha256(), hex::encode(Sha256::digest(bytes)));
    }

    #[test]
    fn commit_is_a_hash_or_unknown() {
        assert!(
            GIT_COMMIT == "unknown"
                || (GIT_COMMIT.len() == 40 && GIT_COMMIT.bytes().all(|b| b.is_ascii_hexdigit())),
            "{GIT_COMMIT}"
        );
    }
}
