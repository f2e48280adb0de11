//! Exclusive outputs: two runs to one destination never both succeed without --force; with
//! --force they take turns; verify and a replacement never overlap. The test holds the
//! output's lock itself, as another run would, to make each case certain.

mod common;
use common::*;
use std::path::Path;
use std::time::{Duration, Instant};
use tirage::store::lock::{lock_path, Mode, OutputLock};

fn spec() -> std::path::PathBuf {
    repo("tests/specs/coq_small.toml")
}

fn bin() -> std::process::Command {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("tirage"))
}

/// Waits for `child` at most `secs` seconds; `None` if it is still running.
fn wait_for(child: &mut std::process::Child, secs: u64) -> Option<std::process::ExitStatus> {
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(secs) {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[test]
fn a_second_run_to_a_locked_output_fails_without_force() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let held = OutputLock::acquire(&out, Mode::Exclusive, false).unwrap();
    let o = tirage()
        .arg("generate")
        .arg(spec())
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("is being written or verified by another tirage run"),
        "{err}"
    );
    assert!(!out.exists());
    assert!(!t.path().join("b.seed").exists());
    drop(held);
}

#[test]
fn forced_runs_take_turns_and_the_seed_file_replays_the_last() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&spec(), &out, 1);
    let sums = std::fs::read(out.join("SHA256SUMS")).unwrap();
    let held = OutputLock::acquire(&out, Mode::Shared, false).unwrap();
    let mut child = bin()
        .arg("generate")
        .arg(spec())
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["-q", "--force", "--out"])
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // It waits while the block is read (here: by the test, as by a verify).
    assert!(wait_for(&mut child, 2).is_none(), "did not wait its turn");
    assert_eq!(std::fs::read(out.join("SHA256SUMS")).unwrap(), sums);
    drop(held);
    let status = wait_for(&mut child, 60).expect("finishes once the lock is free");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{err}");
    assert!(err.contains("waiting for another tirage run"), "{err}");
    assert_ne!(std::fs::read(out.join("SHA256SUMS")).unwrap(), sums);
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q", "--no-audit"])
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--seed-file")
        .arg(t.path().join("b.seed"))
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn two_runs_at_once_never_both_succeed() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let run = || {
        bin()
            .arg("generate")
            .arg(spec())
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["-q", "--out"])
            .arg(&out)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    for _ in 0..3 {
        let (a, b) = (run(), run());
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let ok = [&a, &b].iter().filter(|o| o.status.success()).count();
        assert_eq!(
            ok,
            1,
            "{}\n{}",
            String::from_utf8_lossy(&a.stderr),
            String::from_utf8_lossy(&b.stderr)
        );
        let o = tirage()
            .args(["verify", "--unauthenticated", "-q", "--no-audit"])
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .arg("--seed-file")
            .arg(t.path().join("b.seed"))
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::remove_file(t.path().join("b.seed")).unwrap();
    }
}

#[test]
fn verify_waits_for_a_run_writing_the_block() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&spec(), &out, 1);
    assert!(lock_path(&out).is_file());
    let held = OutputLock::acquire(&out, Mode::Exclusive, false).unwrap();
    let mut child = bin()
        .args(["verify", "--unauthenticated", "-q"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    assert!(wait_for(&mut child, 2).is_none(), "verify did not wait");
    let report = t.path().join("b.audit/audit.md");
    assert!(!report.exists());
    drop(held);
    let status = wait_for(&mut child, 60).expect("verify finishes");
    assert_eq!(status.code(), Some(0));
    assert!(report.is_file());
}

#[test]
fn a_run_removes_what_a_dead_run_left_and_says_so() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    // As a run killed while making the block would leave them.
    std::fs::create_dir(t.path().join(".b.tirage-tmp-4242-abc")).unwrap();
    std::fs::write(t.path().join(".b.tirage-tmp-4242-abc/tickets.csv"), "x").unwrap();
    std::fs::write(t.path().join(".b.tirage-seed-4242-def"), "secret").unwrap();
    std::fs::write(t.path().join(".c.tirage-seed-4242-def"), "another output's").unwrap();
    let o = tirage()
        .arg("generate")
        .arg(spec())
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["-q", "--insecure-seed", "--seed", SEED, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    for n in [".b.tirage-tmp-4242-abc", ".b.tirage-seed-4242-def"] {
        assert!(
            err.contains(&format!(
                "removed {}, left by an earlier run that did not finish",
                t.path().join(n).display()
            )),
            "{err}"
        );
    }
    let mut names: Vec<String> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, [".b.tirage-lock", ".c.tirage-seed-4242-def", "b"]);
}

#[test]
fn a_live_runs_staging_is_never_removed() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let held = OutputLock::acquire(&out, Mode::Exclusive, false).unwrap();
    let staged = t.path().join(".b.tirage-tmp-1-live");
    std::fs::create_dir(&staged).unwrap();
    let o = tirage()
        .arg("generate")
        .arg(spec())
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(staged.is_dir(), "a live run's staging was removed");
    drop(held);
    let _ = Path::new(&staged);
}

/// A replacement cut short (its journal beside the block: the older block may be in place,
/// the new one beside it) is never read as if it were whole: verify, claim, package and
/// render refuse it (exit 2), saying so, how the next run finishes it, and where each seed
/// file of it is.
#[test]
fn readers_refuse_a_block_whose_replacement_was_interrupted() {
    use sha2::{Digest, Sha256};
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("pf");
    generate(&spec(), &b, 1);
    let old = t.path().join(".pf.tirage-oldseed-7-a");
    let new = t.path().join(".pf.tirage-seed-7-b");
    std::fs::write(&old, "old").unwrap();
    std::fs::write(&new, "new").unwrap();
    let body = "tirage replacement journal 1\nwhat block\noutput pf\nstaged .pf.tirage-tmp-7-c 1\nsealed SHA256SUMS 00\naside .pf.tirage-old-7-d\nseed pf.seed\nnew-seed .pf.tirage-seed-7-b 00\nseed-aside .pf.tirage-oldseed-7-a\n";
    let journal = t.path().join(".pf.tirage-journal");
    std::fs::write(
        &journal,
        format!("{body}end {}\n", hex::encode(Sha256::digest(body))),
    )
    .unwrap();
    let d = b.display();
    let said = format!(
        "tirage: error: {d}: a replacement of this block was interrupted (its journal {} is beside it): what is at {d} may be the older block or the new one, half put in place, so nothing is read from it; `tirage generate SPEC --out {d}` (no --force, no seed option) first finishes the replacement, or rolls it back when the new block is not whole, says which, then stops as {d} exists; the seed: the older block's in {}, the new block's in {}\n",
        journal.display(),
        old.display(),
        new.display()
    );
    let serial = [
        "--serial",
        "17030010010000010012",
        "--code",
        "1234567890123456789",
    ];
    let runs: [Vec<&str>; 4] = [
        vec!["verify", "--unauthenticated", "-q"],
        [&["claim", "--unauthenticated"][..], &serial].concat(),
        vec![
            "package", "--for", "central", "--signer", "op.pub", "--out", "bundle",
        ],
        vec!["render", "--tickets", "1"],
    ];
    for args in runs {
        let o = bin()
            .current_dir(t.path())
            .args(&args[..1])
            .arg(&b)
            .args(&args[1..])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), said, "{args:?}");
    }
    assert!(!t.path().join("bundle").exists());
    assert!(!t.path().join("pf.proofs").exists());
}
