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

/// `--out -` is refused, not taken as standard output nor as a file named `-`: a secret
/// goes to a file of its own.
#[test]
fn a_secret_is_never_written_to_standard_output() {
    let t = tempfile::tempdir().unwrap();
    let o = common::tirage()
        .current_dir(t.path())
        .args(["seed", "new", "--out", "-"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "tirage: error: --out -: a secret is written to a file of its own (mode 0600), never to standard output, which a terminal shows and a pipe passes on; name the file; nothing was written\n"
    );
    assert!(std::fs::symlink_metadata(t.path().join("-")).is_err());
}
