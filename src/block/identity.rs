//! Build identity of this binary: tool version, git commit, whether the source tree was
//! clean, the SHA-256 of `Cargo.lock` and the SHA-256 of the running executable.
//!
//! Recorded in every manifest (`tool`) and printed in every audit report, so an auditor can
//! tell which build made a block and which build checked it. The git commit comes from
//! `git rev-parse HEAD` at build time (`build.rs`), or `unknown` when the sources are not a
//! git checkout; uncommitted edits of the sources show in [`SOURCE_STATE`] (`modified`).
//! Neither can be set from the environment. `Cargo.lock` is embedded with `include_bytes!`
//! and hashed on first use: it pins every dependency's exact version. The executable's own
//! digest identifies the very binary that ran, whatever its build said of itself.

use sha2::{Digest, Sha256};
use std::sync::{Once, OnceLock};

/// The package version (`Cargo.toml`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit the binary was built from (40 hex digits), or `unknown`.
pub const GIT_COMMIT: &str = env!("TIRAGE_GIT_COMMIT");

/// Whether the sources (src/, build.rs, Cargo.toml, Cargo.lock) were those of
/// [`GIT_COMMIT`] when the binary was built: `clean`, `modified` or `unknown`.
pub const SOURCE_STATE: &str = env!("TIRAGE_SOURCE_STATE");

/// Hex SHA-256 of the running executable (`/proc/self/exe` on Linux), or `unknown` when it
/// cannot be read. Hashed once per process.
pub fn binary_sha256() -> &'static str {
    static H: OnceLock<String> = OnceLock::new();
    H.get_or_init(|| {
        std::env::current_exe()
            .and_then(std::fs::File::open)
            .and_then(|mut f| {
                let mut h = Sha256::new();
                std::io::copy(&mut f, &mut h)?;
                Ok(hex::encode(h.finalize()))
            })
            .unwrap_or_else(|_| "unknown".into())
    })
}

/// Begins [`binary_sha256`] on a thread of its own, so that the executable (megabytes to
/// read and hash) is hashed while the caller works, ready when a manifest or a report names
/// it. The first call starts the thread, which borrows nothing and is not waited for; later
/// calls (verify of an emission, block after block) do nothing. A thread that cannot start
/// leaves the executable to be hashed when first asked.
pub fn hash_binary_ahead() {
    static BEGUN: Once = Once::new();
    BEGUN.call_once(|| {
        let _ = crate::store::thread::spawn("the binary's hash", || {
            binary_sha256();
        });
    });
}

static CARGO_LOCK: &[u8] = include_bytes!("../../Cargo.lock");

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
    fn binary_digest_is_the_running_file_digest() {
        let bytes = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        assert_eq!(binary_sha256(), hex::encode(Sha256::digest(bytes)));
        assert!(["clean", "modified", "unknown"].contains(&SOURCE_STATE));
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
