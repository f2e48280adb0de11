//! Printing never panics: a reader that stops early (a closed pipe) ends the command
//! quietly with the exit status it would have had; a standard output or error that cannot
//! be written (a full device) is an error, exit 2.

mod common;
use common::{repo, tirage, SEED};
use std::process::Stdio;

/// `tirage args…` with `stdout` and `stderr` as given: its exit status and standard error
/// (empty when `stderr` is not piped).
fn run_with(args: &[&std::ffi::OsStr], stdout: Stdio, stderr: Stdio) -> (Option<i32>, String) {
    let piped = std::process::Command::new(assert_cmd::cargo::cargo_bin("tirage"))
        .args(args)
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .expect("runs");
    (
        piped.status.code(),
        String::from_utf8_lossy(&piped.stderr).into_owned(),
    )
}

/// `/dev/full` opened for writing.
fn full() -> Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
        .into()
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(&b)
        .assert()
        .success();
    let args = [
        "verify".as_ref(),
        b.as_os_str(),
        "--unauthenticated".as_ref(),
        "--json".as_ref(),
        "--no-audit".as_ref(),
        "-q".as_ref(),
    ];
    let (want, _) = run_with(&args, Stdio::null(), Stdio::null());
    assert_eq!(want, Some(0));
    // The reading end closed before the report is written: every write meets a closed pipe.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tirage"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), want);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn a_full_device_is_an_error_not_a_panic() {
    let spec = repo("tests/specs/coq_small.toml");
    let (code, err) = run_with(
        &["check".as_ref(), spec.as_os_str()],
        full(),
        Stdio::piped(),
    );
    assert_eq!(code, Some(2));
    // The spec's warnings come first, on standard error.
    assert!(
        err.ends_with(
            "\ntirage: error: cannot write to standard output: No space left on device (os error 28)\n"
        ),
        "{err}"
    );
    // The error itself cannot be said: the exit status says it.
    let missing = std::path::Path::new("/nonexistent/x.toml");
    let (code, err) = run_with(
        &["check".as_ref(), missing.as_os_str()],
        Stdio::null(),
        full(),
    );
    assert_eq!((code, err.as_str()), (Some(2), ""));
    // Its warnings cannot be said either: a failed write, exit 2.
    let (code, err) = run_with(&["check".as_ref(), spec.as_os_str()], Stdio::null(), full());
    assert_eq!((code, err.as_str()), (Some(2), ""));
}
