//! Signing keys said plainly when they cannot be used.

mod common;
use common::*;
use std::path::Path;

/// A key of the wrong kind, or a password that cannot be had, is said plainly: a public
/// key given to sign with, a secret key given to check with, a protected key with no
/// password and no terminal, a wrong password.
#[test]
fn a_key_of_the_wrong_kind_or_without_its_password_is_said_plainly() {
    let t = tempfile::tempdir().unwrap();
    let k = |name: &str| t.path().join(name);
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(k("op"))
        .assert()
        .success();
    tirage()
        .env("TIRAGE_KEY_PASSWORD", "right horse battery")
        .args(["keygen", "--out"])
        .arg(k("enc"))
        .assert()
        .success();
    let generate = |key: &Path, password: Option<&str>| {
        // setsid: no controlling terminal, as under cron or CI.
        let mut c = std::process::Command::new("setsid");
        c.arg("-w")
            .arg(assert_cmd::cargo::cargo_bin("tirage"))
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--sign"])
            .arg(key)
            .arg("--out")
            .arg(k("b"))
            .env_remove("TIRAGE_KEY_PASSWORD");
        if let Some(p) = password {
            c.env("TIRAGE_KEY_PASSWORD", p);
        }
        let o = c.output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let pubkey = k("op.pub");
    assert_eq!(
        generate(&pubkey, None),
        (
            Some(2),
            format!(
                "tirage: error: the signing key (--sign): {}: not a minisign secret key: it is a public key (KEY.pub); signing takes the secret key, KEY.key\n",
                pubkey.display()
            )
        )
    );
    // A seed or a cut key is no key, with or without a password to hand.
    let seed = k("s.seed");
    std::fs::write(&seed, format!("{SEED}\n")).unwrap();
    let cut = k("cut.key");
    let text = std::fs::read_to_string(k("enc.key")).unwrap();
    std::fs::write(&cut, &text[..text.len() - 20]).unwrap();
    for key in [&seed, &cut] {
        for password in [None, Some("right horse battery")] {
            assert_eq!(
                generate(key, password),
                (
                    Some(2),
                    format!(
                        "tirage: error: the signing key (--sign): {}: not a minisign secret key: expected an `untrusted comment:` line, then a key line of minisign's secret key (as `tirage keygen` writes KEY.key)\n",
                        key.display()
                    )
                )
            );
        }
    }
    let enc = k("enc.key");
    assert_eq!(
        generate(&enc, None),
        (
            Some(2),
            format!(
                "tirage: error: the signing key (--sign): {}: the secret key is protected by a password, and there is no terminal to ask it on: set TIRAGE_KEY_PASSWORD to the password (or run where a terminal is)\n",
                enc.display()
            )
        )
    );
    assert_eq!(
        generate(&enc, Some("wrong horse")),
        (
            Some(2),
            format!(
                "tirage: error: the signing key (--sign): {}: the password does not open this secret key (wrong password; it is taken from TIRAGE_KEY_PASSWORD, else asked on the terminal)\n",
                enc.display()
            )
        )
    );
    assert_eq!(generate(&enc, Some("right horse battery")).0, Some(0));
    // A secret of any kind given to check with is named for what it is, never quoted.
    std::fs::write(k("seed"), format!("{}\n", "3c".repeat(32))).unwrap();
    std::fs::write(
        k("age.txt"),
        "# created: 2026-12-01\nAGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS2E5KJ3\n",
    )
    .unwrap();
    for (file, what) in [
        ("op.key", "a minisign secret key (KEY.key)"),
        ("enc.key", "a minisign secret key (KEY.key)"),
        (
            "seed",
            "64 hexadecimal digits: a seed, a seed share or a validation key",
        ),
        ("age.txt", "an age identity (AGE-SECRET-KEY-…)"),
    ] {
        let o = tirage()
            .args(["verify", "--no-audit", "-q", "--signer"])
            .arg(k(file))
            .arg(k("b"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!(
                "tirage: error: {}: not a minisign public key: it is {what}; checking takes the operator's public key, KEY.pub (and the secret stays with its owner)\n",
                k(file).display()
            )
        );
    }
    // package names the file once.
    let o = tirage()
        .args(["package", "--for", "central", "--signer"])
        .arg(k("seed"))
        .arg(k("b"))
        .arg("--out")
        .arg(k("bundle"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: not a minisign public key: it is 64 hexadecimal digits: a seed, a seed share or a validation key; checking takes the operator's public key, KEY.pub (and the secret stays with its owner)\n",
            k("seed").display()
        )
    );
    // A spec is no key of any kind: the key parser says why.
    let o = tirage()
        .args(["verify", "--no-audit", "-q", "--signer"])
        .arg(repo("tests/specs/coq_small.toml"))
        .arg(k("b"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(": not a minisign public key: ") && !err.contains("it is"),
        "{err}"
    );
}

/// A file given as a seed that holds no seed (a spec, by a slip of the command line) is
/// refused as such, without the warning that others can read it: it is no secret.
#[test]
fn a_seed_file_that_holds_no_seed_is_not_warned_of() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let spec = t.path().join("cash.toml");
    std::fs::copy(repo("tests/specs/coq_small.toml"), &spec).unwrap();
    std::fs::set_permissions(&spec, std::fs::Permissions::from_mode(0o644)).unwrap();
    let o = tirage()
        .arg("generate")
        .arg(&spec)
        .arg("--seed-file")
        .arg(&spec)
        .arg("--out")
        .arg(t.path().join("b"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("warning"), "{err}");
    assert!(err.starts_with("tirage: error: "), "{err}");
}
