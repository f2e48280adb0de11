//! `tirage seed new --out F` stopped mid-write leaves no F: the secret is written under a
//! temporary name and renamed into place whole, so a rerun is not blocked by a cut file.

mod common;

/// Killed by SIGXFSZ at its first byte written (a file size limit of 0 blocks, set by the
/// shell): no F at the final name, and a rerun writes it.
#[test]
fn a_run_killed_mid_write_leaves_no_secret_file() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("alice.share");
    let bin = assert_cmd::cargo::cargo_bin("tirage");
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -f 0; exec "$0" seed new --out "$1""#)
        .arg(&bin)
        .arg(&f)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("sh runs");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(25),
        "{status:?}"
    );
    assert!(std::fs::symlink_metadata(&f).is_err(), "{f:?} left behind");
    common::tirage()
        .args(["seed", "new", "--out"])
        .arg(&f)
        .assert()
        .success();
    let text = std::fs::read_to_string(&f).unwrap();
    assert_eq!(text.len(), 65);
    assert!(text[..64].bytes().all(|b| b.is_ascii_hexdigit()) && text.ends_with('\n'));
}
