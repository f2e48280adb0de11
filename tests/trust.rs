//! What another user puts beside an output is never acted on: a replacement's journal, a
//! staged block, a staged seed, a leftover or a lock file that the user running tirage
//! does not own, or that others can write, is refused (exit 2, naming the file and its
//! owner), and nothing of the operator's is moved. These tests play the other user
//! (`nobody`, uid 65534) by giving files to it, so they need root; they are skipped
//! otherwise.

mod common;
use common::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

const NOBODY: u32 = 65534;

/// True when the tests run as root; else says that they are skipped.
fn root() -> bool {
    let me = tirage::store::owner::me();
    if me != 0 {
        eprintln!("skipped: playing another user (chown) needs root, and this runs as uid {me}");
    }
    me == 0
}

/// Gives `path` and all under it to user `uid`.
fn chown_all(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).unwrap();
    if std::fs::symlink_metadata(path).unwrap().is_dir() {
        for e in std::fs::read_dir(path).unwrap() {
            chown_all(&e.unwrap().path(), uid);
        }
    }
}

fn sha256_file(p: &Path) -> String {
    sha256_hex(&std::fs::read(p).unwrap())
}

/// A folder `shared` (mode 0777, as a team's) holding the operator's block `v` and its
/// seed file `v.seed`, made by this user; and beside it, as an attacker would plant them,
/// a block made from the attacker's seed staged as `.v.tirage-tmp-999-AAAAAA`, the
/// attacker's seed staged as `.v.tirage-seed-999-BBBBBB`, and the journal of a replacement
/// naming them, whole. Returns (temporary folder, shared, journal path).
fn planted() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let shared = t.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let v = shared.join("v");
    tirage()
        .arg("generate")
        .arg(&spec)
        .args(["-q", "--out"])
        .arg(&v)
        .assert()
        .success();
    assert!(shared.join("v.seed").is_file());
    let seed = t.path().join("att.seed");
    std::fs::write(&seed, format!("{PRODUCTION_SEED}\n")).unwrap();
    std::fs::set_permissions(&seed, std::fs::Permissions::from_mode(0o600)).unwrap();
    let att = t.path().join("att");
    tirage()
        .arg("generate")
        .arg(&spec)
        .args(["-q", "--seed-file"])
        .arg(&seed)
        .arg("--out")
        .arg(&att)
        .assert()
        .success();
    let staged = shared.join(".v.tirage-tmp-999-AAAAAA");
    std::fs::rename(&att, &staged).unwrap();
    std::fs::copy(&seed, shared.join(".v.tirage-seed-999-BBBBBB")).unwrap();
    let body = format!(
        "tirage replacement journal 1\nwhat block\noutput v\nstaged .v.tirage-tmp-999-AAAAAA {}\n\
         sealed SHA256SUMS {}\naside .v.tirage-old-999-CCCCCC\nseed v.seed\n\
         new-seed .v.tirage-seed-999-BBBBBB {}\nseed-aside .v.tirage-oldseed-999-DDDDDD\n",
        std::fs::metadata(&staged).unwrap().ino(),
        sha256_file(&staged.join("SHA256SUMS")),
        sha256_file(&seed),
    );
    let journal = shared.join(".v.tirage-journal");
    std::fs::write(
        &journal,
        format!("{body}end {}\n", sha256_hex(body.as_bytes())),
    )
    .unwrap();
    std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o600)).unwrap();
    (t, shared, journal)
}

/// Every name in `dir` with the digest of its SHA256SUMS or of itself (a directory
/// without SHA256SUMS: how many entries it holds).
fn state(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let d = if p.join("SHA256SUMS").is_file() {
                sha256_file(&p.join("SHA256SUMS"))
            } else if p.is_dir() {
                format!("{:?}", std::fs::read_dir(&p).unwrap().count())
            } else {
                sha256_file(&p)
            };
            (name, d)
        })
        .collect();
    v.sort();
    v
}

/// `tirage generate` of the small spec to `shared/v` (with `--force` when `force`):
/// (exit code, stderr).
fn regenerate(shared: &Path, force: bool) -> (i32, String) {
    let mut c = tirage();
    c.arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["-q", "--out"])
        .arg(shared.join("v"));
    if force {
        c.arg("--force");
    }
    let o = c.output().unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_planted_replacement_is_never_finished() {
    if !root() {
        return;
    }
    // Everything planted is the attacker's; then only the staged block and seed are (the
    // journal the operator's own, as if the attacker had one to reuse); then every piece
    // is the operator's but the journal others can write.
    for case in ["all", "pieces", "writable journal"] {
        let (_t, shared, journal) = planted();
        match case {
            "all" => {
                for n in [".v.tirage-tmp-999-AAAAAA", ".v.tirage-seed-999-BBBBBB"] {
                    chown_all(&shared.join(n), NOBODY);
                }
                chown_all(&journal, NOBODY);
            }
            "pieces" => {
                for n in [".v.tirage-tmp-999-AAAAAA", ".v.tirage-seed-999-BBBBBB"] {
                    chown_all(&shared.join(n), NOBODY);
                }
            }
            _ => {
                std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o666)).unwrap();
            }
        }
        let before = state(&shared);
        for force in [false, true] {
            let (code, err) = regenerate(&shared, force);
            assert_eq!(code, 2, "{case}: {err}");
            assert!(
                err.contains("so tirage does not act on it"),
                "{case}: {err}"
            );
            assert!(
                err.contains(&format!("{}/.v.tirage-", shared.display())),
                "{err}"
            );
            if case == "writable journal" {
                assert!(err.contains("other users can write it (mode 666)"), "{err}");
            } else {
                assert!(err.contains("uid 65534"), "{case}: {err}");
            }
            assert!(!err.contains("replacement was finished"), "{err}");
            assert_eq!(state(&shared), before, "{case}: something was moved");
        }
        // verify refuses the block and does not advise to finish the replacement.
        let o = tirage()
            .args(["verify", "--unauthenticated", "-q"])
            .arg(shared.join("v"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("refuses to finish or roll back"),
            "{case}: {err}"
        );
        assert!(!err.contains("first finishes the replacement"), "{err}");
        assert_eq!(state(&shared), before);
    }
}

#[test]
fn another_users_leftover_is_not_removed() {
    if !root() {
        return;
    }
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &out, 1);
    let left = t.path().join(".b.tirage-tmp-7-XXXXXX");
    std::fs::create_dir(&left).unwrap();
    std::fs::write(left.join("f"), "x").unwrap();
    chown_all(&left, NOBODY);
    let before = state(t.path());
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{}: it belongs to user nobody (uid 65534), not to the user running tirage",
            left.display()
        )) || err.contains(&format!("{}: it belongs to uid 65534", left.display())),
        "{err}"
    );
    assert_eq!(state(t.path()), before);
    // Once it is gone, the run goes.
    std::fs::remove_dir_all(&left).unwrap();
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
        .arg(&out)
        .assert()
        .success();
}

#[test]
fn a_folder_others_can_write_is_warned_of() {
    let t = tempfile::tempdir().unwrap();
    let shared = t.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(shared.join("v"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "tirage: warning: {} can be written by other users (mode 777) and has no sticky bit",
            shared.display()
        )),
        "{err}"
    );
}

#[test]
fn lock_files_are_their_owners_alone() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    // Made under umask 000: still 0600.
    let o = std::process::Command::new("sh")
        .args(["-c", "umask 000; exec \"$0\" \"$@\""])
        .arg(assert_cmd::cargo::cargo_bin("tirage"))
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let lock = t.path().join(".b.tirage-lock");
    assert_eq!(std::fs::metadata(&lock).unwrap().mode() & 0o7777, 0o600);
    // One an earlier tirage made 0644 is made 0600 by the next run.
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(verify_code(&out), 0);
    assert_eq!(std::fs::metadata(&lock).unwrap().mode() & 0o7777, 0o600);
    if !root() {
        return;
    }
    // Another user's lock file is not used: neither generate nor verify takes it.
    chown_all(&lock, NOBODY);
    let said = format!(
        "{}, the lock file of {}: it belongs to user nobody (uid 65534)",
        lock.display(),
        out.display()
    );
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&said), "{err}");
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&said), "{err}");
}
