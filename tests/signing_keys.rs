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
    let o = tirage()
        .args(["verify", "--no-audit", "-q", "--signer"])
        .arg(k("op.key"))
        .arg(k("b"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: not a minisign public key: it is a secret key (KEY.key); checking takes the public key, KEY.pub (and the secret key stays with its owner)\n",
            k("op.key").display()
        )
    );
}
