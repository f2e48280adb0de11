//! Key, identity and signature files named on the command line are read as a hostile
//! sender may have made them: a FIFO is refused at once (never waited on), a device is
//! refused (never read without end), a file is read up to a bound; each refusal names the
//! file and exits 2.

mod common;
use common::{repo, signed_small_block, tirage};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Makes a FIFO at `dir/name` with `mkfifo` and returns its path.
fn fifo(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    let ok = std::process::Command::new("mkfifo")
        .arg(&p)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success());
    p
}

/// Runs `tirage args…` (stopped after 60 s, so that a wait on a FIFO fails the test rather
/// than hangs it) and returns its exit status and standard error.
fn run(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = tirage()
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `s` as an argument.
fn a<S: AsRef<std::ffi::OsStr> + ?Sized>(s: &S) -> &std::ffi::OsStr {
    s.as_ref()
}

#[test]
fn a_key_or_identity_that_is_a_fifo_or_a_device_is_refused_at_once() {
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "b", false);
    let f = fifo(t.path(), "k.fifo");
    let zero = Path::new("/dev/zero");
    let out = t.path().join("out");
    let spec = repo("tests/specs/coq_small.toml");
    let cases: Vec<(Vec<&std::ffi::OsStr>, &Path)> = vec![
        (vec![a("verify"), a(&b), a("-q"), a("--signer"), a(&f)], &f),
        (
            vec![a("verify"), a(&b), a("-q"), a("--signer"), a(zero)],
            zero,
        ),
        (
            vec![
                a("verify"),
                a(&b),
                a("-q"),
                a("--unauthenticated"),
                a("--identity"),
                a(&f),
            ],
            &f,
        ),
        (
            vec![
                a("verify"),
                a(&b),
                a("-q"),
                a("--unauthenticated"),
                a("--identity"),
                a(zero),
            ],
            zero,
        ),
        (
            vec![
                a("claim"),
                a(&b),
                a("--signer"),
                a(&f),
                a("--serial"),
                a("1"),
                a("--code"),
                a("1"),
            ],
            &f,
        ),
        (
            vec![
                a("claim"),
                a(&b),
                a("--unauthenticated"),
                a("--identity"),
                a(&f),
                a("--serial"),
                a("1"),
                a("--code"),
                a("1"),
            ],
            &f,
        ),
        (
            vec![
                a("render"),
                a(&b),
                a("--identity"),
                a(&f),
                a("--tickets"),
                a("1"),
                a("--out"),
                a(&out),
            ],
            &f,
        ),
        (
            vec![
                a("render"),
                a(&b),
                a("--identity"),
                a(zero),
                a("--tickets"),
                a("1"),
                a("--out"),
                a(&out),
            ],
            zero,
        ),
        (
            vec![
                a("package"),
                a(&b),
                a("--for"),
                a("printer"),
                a("--signer"),
                a(&f),
                a("--out"),
                a(&out),
            ],
            &f,
        ),
        (
            vec![
                a("generate"),
                a(&spec),
                a("--insecure-seed"),
                a("--seed"),
                a(common::SEED),
                a("-q"),
                a("--sign"),
                a(&f),
                a("--out"),
                a(&out),
            ],
            &f,
        ),
        (
            vec![
                a("generate"),
                a(&spec),
                a("--insecure-seed"),
                a("--seed"),
                a(common::SEED),
                a("-q"),
                a("--sign"),
                a(zero),
                a("--out"),
                a(&out),
            ],
            zero,
        ),
    ];
    for (args, file) in cases {
        let (code, err) = run(&args);
        let kind = if file == zero { "a device" } else { "a FIFO" };
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{}: {kind}, not a regular file", file.display())),
            "{args:?}: {err}"
        );
        assert!(!out.exists(), "{args:?}");
    }
}

#[test]
fn a_key_file_larger_than_a_key_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "b", false);
    let big = t.path().join("big.pub");
    let mut text = std::fs::read_to_string(t.path().join("op.pub")).unwrap();
    text.push_str(&"#".repeat(4096));
    std::fs::write(&big, text).unwrap();
    let (code, err) = run(&[a("verify"), a(&b), a("-q"), a("--signer"), a(&big)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{}: larger than 4 KiB, the most tirage reads of such a file",
            big.display()
        )),
        "{err}"
    );
    let ids = t.path().join("big.age");
    let f = std::fs::File::create(&ids).unwrap();
    f.set_len((1 << 20) + 1).unwrap();
    let (code, err) = run(&[
        a("verify"),
        a(&b),
        a("-q"),
        a("--unauthenticated"),
        a("--identity"),
        a(&ids),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{}: larger than 1 MiB, the most tirage reads of such a file",
            ids.display()
        )),
        "{err}"
    );
}
