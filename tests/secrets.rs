//! A secret given where another file is expected is never printed: each secret tirage reads
//! or makes (a seed share, a validation key, an age identity, a minisign secret key) is
//! passed to each option that expects another kind of file, and the error names the file
//! (and line, where it has lines) and what was expected, never a piece of the secret.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// The secrets, each in a file of its own: (file, its secret part).
struct Secrets {
    _dir: tempfile::TempDir,
    root: PathBuf,
    share: (PathBuf, String),
    share2: PathBuf,
    validation_key: (PathBuf, String),
    age_identity: (PathBuf, String),
    signing_key: (PathBuf, String),
}

fn secrets() -> Secrets {
    use age::secrecy::ExposeSecret;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let new = |name: &str| {
        let p = root.join(name);
        tirage()
            .args(["seed", "new", "--out"])
            .arg(&p)
            .assert()
            .success();
        let text = std::fs::read_to_string(&p).unwrap().trim().to_string();
        (p, text)
    };
    let share = new("alice.share");
    let (share2, _) = new("bob.share");
    let validation_key = new("coq.validation-key");
    let id = age::x25519::Identity::generate();
    let id_text = id.to_string().expose_secret().to_string();
    let age_path = root.join("auditor.age-identity");
    std::fs::write(
        &age_path,
        format!("# public key: {}\n{id_text}\n", id.to_public()),
    )
    .unwrap();
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(root.join("op"))
        .assert()
        .success();
    let key_path = root.join("op.key");
    let key_line = std::fs::read_to_string(&key_path)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    Secrets {
        _dir: dir,
        root,
        share,
        share2,
        validation_key,
        age_identity: (age_path, id_text["AGE-SECRET-KEY-1".len()..].to_string()),
        signing_key: (key_path, key_line),
    }
}

impl Secrets {
    /// Every secret file with its secret part.
    fn all(&self) -> Vec<(&Path, &str)> {
        [
            &self.share,
            &self.validation_key,
            &self.age_identity,
            &self.signing_key,
        ]
        .into_iter()
        .map(|(p, s)| (p.as_path(), s.as_str()))
        .collect()
    }
}

/// Runs tirage with `args`; asserts it fails with exit 2, that its output shows no 10
/// characters in a row of `secret`, and that it names `file`. Returns the error output.
fn refused(args: &[&std::ffi::OsStr], secret: &str, file: &Path) -> String {
    let o = tirage().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}{out}");
    let chars: Vec<char> = secret.chars().collect();
    for w in chars.windows(10) {
        let piece: String = w.iter().collect();
        assert!(
            !err.contains(&piece) && !out.contains(&piece),
            "{args:?} shows a piece of the secret: {err}{out}"
        );
    }
    let name = file.file_name().unwrap().to_str().unwrap();
    assert!(err.contains(name), "{args:?} does not name {name}: {err}");
    err
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

#[test]
fn a_secret_where_a_commitments_file_is_expected_is_not_shown() {
    let s = secrets();
    let spec = repo("tests/specs/coq_small.toml");
    let out = s.root.join("out");
    for (file, secret) in s.all() {
        let err = refused(
            &[
                os("generate"),
                spec.as_os_str(),
                os("--seed-share"),
                s.share.0.as_os_str(),
                os("--seed-share"),
                s.share2.as_os_str(),
                os("--commitments"),
                file.as_os_str(),
                os("--out"),
                out.as_os_str(),
            ],
            secret,
            file,
        );
        assert!(err.contains("line "), "{err}");
        assert!(err.contains("expected a share commitment"), "{err}");
    }
}

#[test]
fn a_secret_where_a_hex_secret_is_expected_is_not_shown() {
    let s = secrets();
    let spec = repo("tests/specs/coq_small.toml");
    let out = s.root.join("out");
    for (file, secret) in [&s.age_identity, &s.signing_key] {
        for option in ["--seed-file", "--validation-key"] {
            let err = refused(
                &[
                    os("generate"),
                    spec.as_os_str(),
                    os(option),
                    file.as_os_str(),
                    os("--out"),
                    out.as_os_str(),
                ],
                secret,
                file,
            );
            assert!(err.contains("64 hexadecimal digits"), "{err}");
            assert!(err.contains(", column "), "{err}");
        }
        refused(
            &[
                os("seed"),
                os("commit"),
                file.as_os_str(),
                os("--spec"),
                spec.as_os_str(),
                os("--blocks"),
                os("1"),
            ],
            secret,
            file,
        );
    }
}

#[test]
fn a_secret_where_a_key_or_a_spec_is_expected_is_not_shown() {
    let s = secrets();
    let spec = repo("tests/specs/coq_small.toml");
    let block = s.root.join("block");
    generate(&spec, &block, 1);
    let out = s.root.join("out");
    for (file, secret) in s.all() {
        // The operator's public key.
        if file != s.signing_key.0 {
            refused(
                &[
                    os("verify"),
                    block.as_os_str(),
                    os("--signer"),
                    file.as_os_str(),
                ],
                secret,
                file,
            );
            // The operator's secret key.
            refused(
                &[
                    os("generate"),
                    spec.as_os_str(),
                    os("--sign"),
                    file.as_os_str(),
                    os("--insecure-seed"),
                    os("--seed"),
                    os(SEED),
                    os("--out"),
                    out.as_os_str(),
                ],
                secret,
                file,
            );
        }
        // An age identity.
        if file != s.age_identity.0 {
            refused(
                &[
                    os("verify"),
                    block.as_os_str(),
                    os("--unauthenticated"),
                    os("--identity"),
                    file.as_os_str(),
                ],
                secret,
                file,
            );
        }
        // The reference spec, and the spec generate reads.
        refused(
            &[
                os("verify"),
                block.as_os_str(),
                os("--unauthenticated"),
                os("--spec"),
                file.as_os_str(),
            ],
            secret,
            file,
        );
        refused(
            &[
                os("generate"),
                file.as_os_str(),
                os("--out"),
                out.as_os_str(),
            ],
            secret,
            file,
        );
    }
}

/// A secret pasted where the name of its file was expected, by every option that reads a
/// secret file: the run stops with exit 2, says which file it could not read (the option,
/// or what the file was for) and that its name is not shown, and shows no piece of the
/// secret.
#[test]
fn a_secret_given_in_place_of_a_file_name_is_not_shown() {
    let s = secrets();
    let spec = repo("tests/specs/coq_small.toml");
    let block = s.root.join("block");
    generate(&spec, &block, 1);
    let out = s.root.join("out");
    let age_id = format!("AGE-SECRET-KEY-1{}", s.age_identity.1);
    let secrets = [
        s.share.1.as_str(),
        s.validation_key.1.as_str(),
        age_id.as_str(),
        s.signing_key.1.as_str(),
    ];
    for secret in secrets {
        let generate_with = |option: &'static str| -> Vec<&std::ffi::OsStr> {
            vec![
                os("generate"),
                spec.as_os_str(),
                os("--insecure-seed"),
                os("--seed"),
                os(SEED),
                os(option),
                os(secret),
                os("--out"),
                out.as_os_str(),
            ]
        };
        let runs: Vec<(Vec<&std::ffi::OsStr>, &str)> = vec![
            (
                vec![
                    os("generate"),
                    spec.as_os_str(),
                    os("--seed-file"),
                    os(secret),
                    os("--out"),
                    out.as_os_str(),
                ],
                "seed file",
            ),
            (generate_with("--validation-key"), "validation key"),
            (generate_with("--sign"), "(--sign)"),
            (
                vec![
                    os("generate"),
                    spec.as_os_str(),
                    os("--seed-share"),
                    os(secret),
                    os("--seed-share"),
                    s.share2.as_os_str(),
                    os("--commitments"),
                    s.share2.as_os_str(),
                    os("--out"),
                    out.as_os_str(),
                ],
                "share",
            ),
            (
                vec![
                    os("seed"),
                    os("commit"),
                    os(secret),
                    os("--spec"),
                    spec.as_os_str(),
                    os("--blocks"),
                    os("1"),
                ],
                "share",
            ),
            (
                vec![
                    os("verify"),
                    block.as_os_str(),
                    os("--unauthenticated"),
                    os("--seed-file"),
                    os(secret),
                ],
                "seed file",
            ),
            (
                vec![
                    os("verify"),
                    block.as_os_str(),
                    os("--unauthenticated"),
                    os("--validation-key"),
                    os(secret),
                ],
                "validation key",
            ),
            (
                vec![
                    os("verify"),
                    block.as_os_str(),
                    os("--unauthenticated"),
                    os("--identity"),
                    os(secret),
                ],
                "(--identity)",
            ),
        ];
        for (args, what) in runs {
            let o = tirage().args(&args).output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr).into_owned();
            let all = format!("{err}{}", String::from_utf8_lossy(&o.stdout));
            assert_eq!(o.status.code(), Some(2), "{args:?}: {all}");
            let chars: Vec<char> = secret.chars().collect();
            for w in chars.windows(10) {
                let piece: String = w.iter().collect();
                assert!(!all.contains(&piece), "{args:?} shows the secret: {all}");
            }
            assert!(err.contains(what), "{args:?} does not say {what:?}: {err}");
            assert!(
                err.contains(tirage::crypto::NAME_NOT_SHOWN),
                "{args:?} does not say the name is withheld: {err}"
            );
        }
    }
    assert!(!out.exists());
}

#[test]
fn an_age_identity_given_as_a_recipient_is_not_shown() {
    let s = secrets();
    let (_, body) = &s.age_identity;
    let id = format!("AGE-SECRET-KEY-1{body}");
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "--recipient"])
        .arg(format!("printer={id}"))
        .arg("--out")
        .arg(s.root.join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains(&body[..10]), "{err}");
    assert!(err.contains("printer=…"), "{err}");
    assert!(err.contains("an age identity, a secret key"), "{err}");
}

/// The seed, or a seed share, given as the validation key in the same run is refused (exit
/// 2) by generate and by verify, naming both options and never the secret: whoever holds
/// the seed would compute every code. Nothing is written.
#[test]
fn the_seed_or_a_share_as_the_validation_key_is_refused() {
    let s = secrets();
    let spec = repo("tests/specs/coq_small.toml");
    let (share, secret) = (&s.share.0, s.share.1.as_str());
    let said = |key: &Path, option: String| {
        format!(
            "tirage: error: --validation-key {} holds the same secret as {option}: the validation key must be a secret of its own (`tirage seed new`, kept by its own custodian), or whoever holds the seed computes every validation code; nothing was done\n",
            key.display()
        )
    };
    // generate --seed-file F --validation-key F.
    let out = s.root.join("x8");
    let err = refused(
        &[
            os("generate"),
            spec.as_os_str(),
            os("--seed-file"),
            share.as_os_str(),
            os("--validation-key"),
            share.as_os_str(),
            os("-q"),
            os("--out"),
            out.as_os_str(),
        ],
        secret,
        share,
    );
    assert_eq!(err, said(share, format!("--seed-file {}", share.display())));
    assert!(!out.exists());
    // generate from two shares, the first given as the key too.
    let commitments = s.root.join("commitments.txt");
    let mut lines = String::new();
    for sh in [share, &s.share2] {
        let o = tirage()
            .args(["seed", "commit"])
            .arg(sh)
            .arg("--spec")
            .arg(&spec)
            .args(["--blocks", "1"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        lines.push_str(&String::from_utf8(o.stdout).unwrap());
    }
    std::fs::write(&commitments, lines).unwrap();
    let err = refused(
        &[
            os("generate"),
            spec.as_os_str(),
            os("--seed-share"),
            share.as_os_str(),
            os("--seed-share"),
            s.share2.as_os_str(),
            os("--commitments"),
            commitments.as_os_str(),
            os("--validation-key"),
            share.as_os_str(),
            os("-q"),
            os("--out"),
            out.as_os_str(),
        ],
        secret,
        share,
    );
    assert_eq!(
        err,
        said(share, format!("--seed-share {}", share.display()))
    );
    assert!(!out.exists());
    // verify, the same two ways, on a block made right.
    let b = s.root.join("b");
    generate(&spec, &b, 1);
    for seed in [
        vec![os("--seed-file"), share.as_os_str()],
        vec![
            os("--seed-share"),
            s.share2.as_os_str(),
            os("--seed-share"),
            share.as_os_str(),
        ],
    ] {
        let mut args = vec![
            os("verify"),
            b.as_os_str(),
            os("--unauthenticated"),
            os("-q"),
        ];
        args.extend(&seed);
        args.extend([os("--validation-key"), share.as_os_str()]);
        let err = refused(&args, secret, share);
        let option = if seed[0] == "--seed-file" {
            "--seed-file"
        } else {
            "--seed-share"
        };
        assert_eq!(err, said(share, format!("{option} {}", share.display())));
    }
}

/// A seed file, a validation key, a secret key or an age identity that other users can
/// read is warned of, as ssh does, naming it and the `chmod 600` that fixes it; once each,
/// and not at all once it is its owner's alone.
#[test]
fn a_secret_open_to_others_is_warned_of() {
    use std::os::unix::fs::PermissionsExt;
    let s = secrets();
    let seed = production_seed_file(&s.root);
    let key = s.root.join("op.key");
    let vkey = &s.validation_key.0;
    let id = &s.age_identity.0;
    let chmod = |mode: u32| {
        for p in [&seed, &key, vkey, id] {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    };
    let warning = |what: &str, p: &Path, mode: &str| {
        format!(
            "tirage: warning: the {what} {} is open to other users than its owner (mode {mode}): whoever can read it holds the secret; make it its owner's alone: chmod 600 {}\n",
            p.display(),
            p.display()
        )
    };
    let b = s.root.join("b");
    let run = |force: bool| {
        let mut c = tirage();
        c.arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .arg("--seed-file")
            .arg(&seed)
            .arg("--validation-key")
            .arg(vkey)
            .arg("--sign")
            .arg(&key)
            .args(["-q", "--out"])
            .arg(&b);
        if force {
            c.arg("--force");
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let verify = || {
        let o = tirage()
            .args([
                "verify",
                "--no-audit",
                "-q",
                "--unauthenticated",
                "--identity",
            ])
            .arg(id)
            .arg(&b)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    chmod(0o644);
    let err = run(false);
    for (what, p) in [
        ("seed file", &seed),
        ("validation key file", vkey),
        ("secret key", &key),
    ] {
        assert_eq!(err.matches(&warning(what, p, "644")).count(), 1, "{err}");
    }
    assert_eq!(err.lines().count(), 3, "{err}");
    assert_eq!(verify(), warning("age identity", id, "644"));
    chmod(0o640);
    assert!(run(true).contains(&warning("seed file", &seed, "640")));
    chmod(0o600);
    assert_eq!(run(true), "");
    assert_eq!(verify(), "");
}

/// A temporary secret file a stopped `seed new` left unnamed (`.tirage-secret-*`, a whole
/// secret no run delivered) is removed by the next `seed new` into that folder, and said;
/// one changed less than a minute ago may be another run's, still being written: kept.
#[test]
fn a_secret_left_unnamed_by_a_stopped_run_is_removed_by_the_next() {
    let t = tempfile::tempdir().unwrap();
    let old = t.path().join(".tirage-secret-AbCdEf");
    let young = t.path().join(".tirage-secret-GhIjKl");
    write_an_hour_old(&old, format!("{SEED}\n").as_bytes());
    std::fs::write(&young, format!("{SEED}\n")).unwrap();
    let out = t.path().join("alice.share");
    let o = tirage()
        .args(["seed", "new", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).lines().next(),
        Some(
            format!(
                "tirage: removed {}, a secret an earlier run left unnamed when it was stopped",
                old.display()
            )
            .as_str()
        )
    );
    assert!(!old.exists());
    assert!(young.is_file());
    assert!(out.is_file());
}
