//! A crash or a failed write at every step of putting a block in place, by fault injection
//! with strace (needs `strace`): each fsync, rename and unlink of a forced replacement is
//! made to fail (EIO) or the run is killed (SIGKILL) right there, one step per run. After
//! each, the destination holds the old block, nothing, or the new block whole, and the seed
//! file beside it replays it; a run that failed leaves nothing beside the output, and the
//! next run removes what a killed one left. A traced run also shows the order: every file
//! and the staged directory flushed before the rename into place, the parent after it.

mod common;
use common::*;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

fn spec() -> PathBuf {
    repo("tests/specs/coq_small.toml")
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("tirage")
}

/// `strace` with `args`, then tirage with `tirage_args`. Panics when strace is missing.
fn traced(args: &[&str], tirage_args: &[OsString]) -> std::process::Output {
    Command::new("strace")
        .args(["-f", "-qq"])
        .args(args)
        .arg(bin())
        .args(tirage_args)
        .output()
        .expect("strace is needed by this test (apt-get install strace)")
}

/// A fresh block (or an emission of two blocks) with its fresh seed file, in a directory
/// of its own.
struct Case {
    emission: bool,
    dir: tempfile::TempDir,
    out: PathBuf,
    seed: PathBuf,
    old_sums: Vec<u8>,
    old_seed: Vec<u8>,
}

impl Case {
    fn new() -> Case {
        Case::made(false)
    }

    fn made(emission: bool) -> Case {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let out = root.join("b");
        let mut c = tirage();
        c.arg("generate")
            .arg(spec())
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["-q", "--out"])
            .arg(&out);
        if emission {
            c.args(["--blocks", "1..2"]);
        }
        assert!(c.output().unwrap().status.success());
        let seed = root.join("b.seed");
        let mut case = Case {
            emission,
            old_sums: Vec::new(),
            old_seed: std::fs::read(&seed).unwrap(),
            dir,
            out,
            seed,
        };
        case.old_sums = std::fs::read(case.sealed()).unwrap();
        case
    }

    /// The file whose bytes tell one output from another: SHA256SUMS, or emission.json.
    fn sealed(&self) -> PathBuf {
        self.out.join(if self.emission {
            "emission.json"
        } else {
            "SHA256SUMS"
        })
    }

    /// The arguments of a forced replacement of the block with a fresh seed.
    fn replace_args(&self) -> Vec<OsString> {
        let mut v: Vec<OsString> = vec![
            "generate".into(),
            spec().into(),
            "--validation-key".into(),
            repo(VALIDATION_KEY).into(),
            "-q".into(),
            "--force".into(),
            "--out".into(),
            self.out.clone().into(),
        ];
        if self.emission {
            v.extend(["--blocks".into(), "1..2".into()]);
        }
        v
    }

    /// What is beside the output but the output, its seed file and its lock file.
    fn leftovers(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.out.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| !["b", "b.seed", ".b.tirage-lock"].contains(&n.as_str()))
            .collect();
        v.sort();
        v
    }

    /// The destination holds the old block, nothing, or a new block whole, with the seed
    /// file that replays it. Returns which: "old", "nothing" or "new".
    fn check(&self, what: &str) -> &'static str {
        if std::fs::symlink_metadata(&self.out).is_err() {
            return "nothing";
        }
        let sums = std::fs::read(self.sealed()).unwrap_or_default();
        let seed = std::fs::read(&self.seed).unwrap_or_default();
        if sums == self.old_sums {
            assert_eq!(
                seed, self.old_seed,
                "{what}: the old block beside another seed"
            );
            return "old";
        }
        // A whole block replayed by the seed file beside it; an emission whole, and its
        // blocks replayed by the emission's seed file.
        let replayed: Vec<PathBuf> = if self.emission {
            let o = tirage()
                .args(["verify", "--unauthenticated", "-q"])
                .arg(&self.out)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{what}: the new emission is not whole"
            );
            vec![self.out.join("block-001"), self.out.join("block-002")]
        } else {
            vec![self.out.clone()]
        };
        for dir in replayed {
            let o = tirage()
                .args(["verify", "--unauthenticated", "-q", "--no-audit"])
                .arg("--validation-key")
                .arg(repo(VALIDATION_KEY))
                .arg("--seed-file")
                .arg(&self.seed)
                .arg(&dir)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{what}: the new block is not whole or its seed file does not replay it:\n{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
        "new"
    }
}

/// How many times a forced replacement calls `syscall` in one thread at most (strace counts
/// `when=N` in each thread: the writers of the ticket files each flush their own file).
fn calls(syscall: &str, emission: bool) -> usize {
    let c = Case::made(emission);
    let log = c.dir.path().join("strace.log");
    let o = traced(
        &[
            "-e",
            &format!("trace={syscall}"),
            "-o",
            log.to_str().unwrap(),
        ],
        &c.replace_args(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    let mut per_thread = std::collections::BTreeMap::<&str, usize>::new();
    for l in text.lines() {
        if l.contains(&format!("{syscall}(")) && !l.contains("resumed") {
            *per_thread.entry(l.split(' ').next().unwrap()).or_default() += 1;
        }
    }
    per_thread.into_values().max().unwrap_or(0)
}

#[test]
fn a_failed_write_or_rename_at_any_step_leaves_the_old_block_or_the_new_one() {
    for syscall in ["fsync", "renameat2"] {
        let n = calls(syscall, false);
        assert!(n >= 3, "{syscall} called {n} times");
        for when in 1..=n {
            let c = Case::new();
            let what = format!("{syscall} #{when} fails");
            let o = traced(
                &[
                    "-o",
                    "/dev/null",
                    "-e",
                    &format!("inject={syscall}:error=EIO:when={when}"),
                ],
                &c.replace_args(),
            );
            let state = c.check(&what);
            match o.status.code() {
                Some(0) => assert_eq!(state, "new", "{what}"),
                Some(2) => {
                    assert_eq!(state, "old", "{what}: a failed run changed the block");
                    let err = String::from_utf8_lossy(&o.stderr);
                    assert!(err.contains("Input/output error"), "{what}: {err}");
                }
                other => panic!("{what}: exit {other:?}"),
            }
            assert!(c.leftovers().is_empty(), "{what}: {:?}", c.leftovers());
        }
    }
}

/// Kills a forced replacement (of a block, or of an emission) at every call of each of
/// `syscalls`; returns the states seen after the kills.
fn kill_at_every_step(
    emission: bool,
    syscalls: &[(&str, Option<usize>)],
) -> std::collections::BTreeSet<&'static str> {
    let mut seen = std::collections::BTreeSet::new();
    for &(syscall, cap) in syscalls {
        let n = calls(syscall, emission).min(cap.unwrap_or(usize::MAX));
        for when in 1..=n {
            let c = Case::made(emission);
            let what = format!("killed at {syscall} #{when}");
            let o = traced(
                &[
                    "-o",
                    "/dev/null",
                    "-e",
                    &format!("inject={syscall}:signal=KILL:when={when}"),
                ],
                &c.replace_args(),
            );
            assert_ne!(o.status.code(), Some(0), "{what}: not killed");
            seen.insert(c.check(&what));
            // The next run removes what the killed one left, says so, and makes the block.
            let left = c.leftovers();
            let o = tirage().args(c.replace_args()).output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(0), "{what}, then: {err}");
            for l in &left {
                assert!(
                    err.contains(&format!(
                        "removed {}",
                        c.dir.path().canonicalize().unwrap().join(l).display()
                    )),
                    "{what}: {l} not said: {err}"
                );
            }
            assert!(c.leftovers().is_empty(), "{what}: {:?}", c.leftovers());
            assert_eq!(c.check(&format!("{what}, then run again")), "new");
        }
    }
    seen
}

#[test]
fn a_run_killed_at_any_step_leaves_the_old_block_nothing_or_the_new_one() {
    let seen = kill_at_every_step(
        false,
        &[("fsync", None), ("renameat2", None), ("unlinkat", None)],
    );
    // Every state was reached at some step: the test does look at each.
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["new", "nothing", "old"],
        "states after a crash"
    );
}

#[test]
fn an_emission_killed_at_any_move_is_the_old_one_nothing_or_the_new_one() {
    // Every move, and the first removal of the old emission (once the new one is in).
    let seen = kill_at_every_step(true, &[("renameat2", None), ("unlinkat", Some(1))]);
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["new", "nothing", "old"],
        "states after a crash"
    );
}

#[test]
fn every_file_is_flushed_before_the_block_goes_in_place_and_the_parent_after() {
    let c = Case::new();
    let log = c.dir.path().join("order.log");
    let o = traced(
        &[
            "-y",
            "-e",
            "trace=fsync,renameat2",
            "-o",
            log.to_str().unwrap(),
        ],
        &c.replace_args(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let parent = c.out.parent().unwrap().display().to_string();
    let pos = |pred: &dyn Fn(&str) -> bool| lines.iter().position(|l| pred(l));
    let into_place = pos(&|l| {
        l.contains("renameat2(")
            && l.contains(".b.tirage-tmp-")
            && l.ends_with(&format!("\"{}\", RENAME_NOREPLACE) = 0", c.out.display()))
    })
    .unwrap_or_else(|| panic!("no rename into place:\n{text}"));
    let seed_in = pos(&|l| {
        l.contains("renameat2(")
            && l.contains(".b.tirage-seed-")
            && l.contains(&format!("\"{}\"", c.seed.display()))
    })
    .unwrap_or_else(|| panic!("no rename of the seed file:\n{text}"));
    assert!(
        seed_in < into_place,
        "the seed file goes in before the block"
    );
    for f in [
        "tickets.csv",
        "tickets.bin",
        "validation.csv",
        "spec.toml",
        "manifest.json",
        "SHA256SUMS",
    ] {
        let synced = pos(&|l| {
            l.contains("fsync(") && l.contains(".b.tirage-tmp-") && l.contains(&format!("/{f}>"))
        });
        assert!(
            synced.is_some_and(|p| p < into_place),
            "{f} not flushed before the rename:\n{text}"
        );
    }
    // fsync(5</…/.b.tirage-tmp-NNN-xxxx>) = 0: the directory itself.
    let staged_dir = pos(&|l| {
        l.contains("fsync(")
            && l.split('<').nth(1).is_some_and(|p| {
                p.split('>')
                    .next()
                    .unwrap_or("")
                    .rsplit('/')
                    .next()
                    .is_some_and(|last| last.starts_with(".b.tirage-tmp-"))
            })
    });
    assert!(
        staged_dir.is_some_and(|p| p < into_place),
        "the staged directory not flushed before the rename:\n{text}"
    );
    let parent_after = lines[into_place + 1..]
        .iter()
        .any(|l| l.contains("fsync(") && l.contains(&format!("<{parent}>)")));
    assert!(
        parent_after,
        "the parent not flushed after the rename:\n{text}"
    );
}

/// Every entry under `dir` (itself included) with its permission bits, sorted by path.
fn modes(dir: &std::path::Path) -> Vec<(PathBuf, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut v = vec![(
        dir.to_path_buf(),
        std::fs::symlink_metadata(dir).unwrap().permissions().mode() & 0o7777,
    )];
    if dir.is_dir() {
        for e in std::fs::read_dir(dir).unwrap() {
            v.extend(modes(&e.unwrap().path()));
        }
    }
    v.sort();
    v
}

#[test]
fn what_a_killed_run_leaves_is_its_owners_alone_whatever_the_umask() {
    // Killed at its first vectored write (tickets.csv or tickets.bin being written), under
    // umask 022: the staged block and the staged seed are readable by their owner only.
    for emission in [false, true] {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        let out = root.join("b");
        let mut args = vec![
            "generate".into(),
            spec().into_os_string(),
            "--validation-key".into(),
            repo(VALIDATION_KEY).into(),
            "-q".into(),
            "--out".into(),
            out.clone().into_os_string(),
        ];
        if emission {
            args.extend(["--blocks".into(), "1..2".into()]);
        }
        let o = Command::new("sh")
            .arg("-c")
            .arg("umask 022; exec \"$@\"")
            .arg("sh")
            .args(["strace", "-f", "-qq", "-o", "/dev/null"])
            .args(["-e", "inject=writev:signal=KILL:when=1"])
            .arg(bin())
            .args(&args)
            .output()
            .unwrap();
        assert_ne!(o.status.code(), Some(0), "not killed");
        let left: Vec<PathBuf> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.ends_with(".b.tirage-lock"))
            .collect();
        let tmp = left
            .iter()
            .find(|p| p.to_string_lossy().contains(".b.tirage-tmp-"))
            .expect("a staged output left");
        assert!(
            left.iter()
                .any(|p| p.to_string_lossy().contains(".b.tirage-seed-")),
            "{left:?}"
        );
        let mut files = 0;
        for p in &left {
            for (path, mode) in modes(p) {
                let want = if path.is_dir() { 0o700 } else { 0o600 };
                assert_eq!(mode, want, "{}: mode {mode:o}", path.display());
                files += usize::from(path.is_file());
            }
        }
        assert!(
            files >= 3
                && tmp
                    .join(if emission {
                        "block-001/spec.toml"
                    } else {
                        "spec.toml"
                    })
                    .exists(),
            "{left:?}"
        );
        // The next run removes them, says so, and makes the output.
        let mut c = tirage();
        c.args(&args);
        let o = c.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        for p in &left {
            assert!(err.contains(&format!("removed {}", p.display())), "{err}");
            assert!(!p.exists());
        }
    }
}

/// A spec as coq_small but for its `block_size` and `pack_size`.
fn sized_spec(dir: &std::path::Path, block_size: u32, pack_size: u32) -> PathBuf {
    let text = std::fs::read_to_string(spec()).unwrap();
    let text = text
        .replace(
            "block_size = 3_000       # scaled down for tests",
            &format!("block_size = {block_size}"),
        )
        .replace("pack_size = 150", &format!("pack_size = {pack_size}"));
    let p = dir.join(format!("coq-{block_size}.toml"));
    std::fs::write(&p, text).unwrap();
    p
}

/// tirage with `args` under a limit of 256 MiB of address space.
fn in_256_mib(args: &[OsString]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 262144 && exec \"$@\"")
        .arg("sh")
        .arg(bin())
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_block_too_large_for_memory_is_refused_before_anything_is_written() {
    let t = tempfile::tempdir().unwrap();
    // The largest block a serial holds (999 999 packs of 999): refused by check and by
    // generate, naming the field and the limit, within 256 MiB and without an abort.
    let huge = sized_spec(t.path(), 998_999_001, 999);
    let out = t.path().join("k/f");
    for args in [
        vec!["check".into(), huge.clone().into_os_string()],
        vec![
            "generate".into(),
            huge.clone().into_os_string(),
            "--validation-key".into(),
            repo(VALIDATION_KEY).into(),
            "--out".into(),
            out.clone().into_os_string(),
        ],
    ] {
        let o = in_256_mib(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("game.block_size")
                && err.contains("998999001 tickets: a block holds at most 5000000 tickets"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
    }
    assert!(!t.path().join("k").exists(), "generate wrote something");
    // The largest block accepted is accepted, and checked within the same limit.
    let largest = sized_spec(t.path(), 5_000_000, 999);
    let o = in_256_mib(&["check".into(), largest.into_os_string()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let one_more = sized_spec(t.path(), 5_000_001, 999);
    let o = in_256_mib(&["check".into(), one_more.into_os_string()]);
    assert_eq!(o.status.code(), Some(2));
}
