//! A crash or a failed system call at every step of making or replacing an output, by fault
//! injection with strace (needs `strace`): a fresh block, a forced replacement of a block,
//! of an emission and of a deck are killed (SIGKILL) or see an I/O error (EIO) at each
//! `renameat2`, `unlink`, `unlinkat`, `rmdir` and `fsync` of the run, and at a sample of its
//! `write`s and `pwrite64`s (the ticket files' writes are all alike: the first is taken),
//! one step per run. After each, the destination holds the old output whole or the new one
//! whole, and no seed file sits beside an output it does not replay; the next
//! run to the destination, with or without `--force`, finishes or rolls back what the
//! killed one left, says which and where the seed file is, and leaves nothing else beside
//! the output. A traced run also shows the order: every file and the staged directory
//! flushed before the exchange into place, the parent after it. A thread that cannot start
//! (`clone3` failing with EAGAIN) is said in one line, exit 2, never a panic.

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

/// What is made at the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Made {
    /// A block where there was none.
    Fresh,
    /// A block replacing one (`--force`).
    Block,
    /// An emission of two blocks replacing one.
    Emission,
    /// A deck replacing one.
    Deck,
}

/// An output (or none, for [`Made::Fresh`]) with its fresh seed file, in a directory of
/// its own.
struct Case {
    made: Made,
    dir: tempfile::TempDir,
    out: PathBuf,
    seed: PathBuf,
    old_sums: Vec<u8>,
    old_seed: Vec<u8>,
}

/// The state of a destination.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum State {
    /// Nothing there (and no seed file).
    Nothing,
    /// The old output, with its seed file.
    Old,
    /// The old output, its seed file not there yet (moved aside).
    OldUnseeded,
    /// A new output whole, with the seed file that replays it; the digest of its sealed file.
    New(Vec<u8>),
    /// A new output whole, its seed file not there yet (still staged).
    NewUnseeded,
}

impl Case {
    fn new(made: Made) -> Case {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let out = root.join("b");
        let seed = root.join("b.seed");
        let mut case = Case {
            made,
            dir,
            out,
            seed,
            old_sums: Vec::new(),
            old_seed: Vec::new(),
        };
        if made != Made::Fresh {
            let o = tirage().args(case.args(false)).output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            case.old_seed = std::fs::read(&case.seed).unwrap();
            case.old_sums = std::fs::read(case.sealed()).unwrap();
        }
        if made == Made::Block {
            // The old block's audit report beside it: set aside by the run, it must end
            // beside the old block, or be gone with it.
            let o = tirage()
                .args(["verify", "--unauthenticated", "-q"])
                .arg(&case.out)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert!(case.report().is_dir());
        }
        case
    }

    /// The file whose bytes tell one output from another: SHA256SUMS, or emission.json.
    fn sealed(&self) -> PathBuf {
        self.out.join(if self.made == Made::Emission {
            "emission.json"
        } else {
            "SHA256SUMS"
        })
    }

    /// The arguments of a run making the output with a fresh seed (`force`: replacing).
    fn args(&self, force: bool) -> Vec<OsString> {
        // An emission of the 9-ticket blocks of coq_tiny: two blocks, each quick to replay.
        let spec = match self.made {
            Made::Emission => repo("tests/specs/coq_tiny.toml"),
            _ => spec(),
        };
        let mut v: Vec<OsString> = if self.made == Made::Deck {
            vec!["deck".into(), spec.into()]
        } else {
            vec![
                "generate".into(),
                spec.into(),
                "--validation-key".into(),
                repo(VALIDATION_KEY).into(),
            ]
        };
        v.extend(["-q".into(), "--out".into(), self.out.clone().into()]);
        if force {
            v.push("--force".into());
        }
        if self.made == Made::Emission {
            v.extend(["--blocks".into(), "1..2".into()]);
        }
        v
    }

    /// The arguments of the run a fault is injected into.
    fn faulted_args(&self) -> Vec<OsString> {
        self.args(self.made != Made::Fresh)
    }

    /// The audit report verify writes beside the output.
    fn report(&self) -> PathBuf {
        self.out.with_file_name("b.audit")
    }

    /// What is beside the output but the output, its seed file, its audit report and its
    /// lock file.
    fn leftovers(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.out.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| !["b", "b.seed", "b.audit", ".b.tirage-lock"].contains(&n.as_str()))
            .collect();
        v.sort();
        v
    }

    /// True when a whole journal of a replacement is beside the output.
    fn journal(&self) -> bool {
        std::fs::read_to_string(self.out.with_file_name(".b.tirage-journal"))
            .is_ok_and(|t| t.contains("\nend "))
    }

    /// The state of the destination; panics unless it holds the old output or a new one
    /// whole (or nothing, where nothing was), and unless a seed file beside it replays it.
    fn state(&self, what: &str) -> State {
        let seed = std::fs::read(&self.seed).ok();
        if std::fs::symlink_metadata(&self.out).is_err() {
            assert!(
                self.made == Made::Fresh,
                "{what}: nothing at the destination"
            );
            assert_eq!(seed, None, "{what}: a seed file beside nothing");
            return State::Nothing;
        }
        // A reader refuses an output whose replacement was interrupted (a journal, whole or
        // not, beside it): what is there is checked in a copy.
        let copy = tempfile::tempdir().unwrap();
        let read_at = if self.out.with_file_name(".b.tirage-journal").exists() {
            let at = copy.path().join("b");
            let o = Command::new("cp")
                .arg("-a")
                .arg(&self.out)
                .arg(&at)
                .output()
                .unwrap();
            assert!(o.status.success(), "{what}: cp -a");
            let o = tirage()
                .args(["verify", "--unauthenticated", "-q", "--no-audit"])
                .arg(&self.out)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "{what}: read beside a journal");
            assert!(
                String::from_utf8_lossy(&o.stderr).contains("was interrupted (its journal"),
                "{what}"
            );
            at
        } else {
            self.out.clone()
        };
        let sums = std::fs::read(self.sealed()).unwrap_or_default();
        if self.made != Made::Fresh && sums == self.old_sums {
            return match seed {
                Some(s) => {
                    assert_eq!(
                        s, self.old_seed,
                        "{what}: the old output beside another seed"
                    );
                    State::Old
                }
                None => {
                    assert!(self.journal(), "{what}: no seed file and no journal");
                    State::OldUnseeded
                }
            };
        }
        // A whole output replayed by the seed file beside it; an emission whole, and its
        // blocks replayed by the emission's seed file.
        let replayed: Vec<PathBuf> = if self.made == Made::Emission {
            // Its sorted runs of codes in a directory of this check's own.
            let runs = tempfile::tempdir().unwrap();
            let o = tirage()
                .args(["verify", "--unauthenticated", "-q", "--no-audit"])
                .arg(&read_at)
                .env("TMPDIR", runs.path())
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{what}: the new emission is not whole: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            vec![read_at.join("block-001"), read_at.join("block-002")]
        } else {
            vec![read_at.clone()]
        };
        if seed.is_none() {
            assert!(
                self.journal(),
                "{what}: a new output, no seed file and no journal"
            );
            for dir in replayed {
                let o = tirage()
                    .args(["verify", "--unauthenticated", "-q", "--no-audit"])
                    .arg(&dir)
                    .output()
                    .unwrap();
                assert_eq!(
                    o.status.code(),
                    Some(0),
                    "{what}: the new output is not whole"
                );
            }
            return State::NewUnseeded;
        }
        for dir in replayed {
            let mut c = tirage();
            c.args(["verify", "--unauthenticated", "-q", "--no-audit"]);
            if self.made != Made::Deck {
                c.arg("--validation-key").arg(repo(VALIDATION_KEY));
            }
            let o = c
                .arg("--seed-file")
                .arg(&self.seed)
                .arg(&dir)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{what}: the new output is not whole or its seed file does not replay it:\n{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
        State::New(sums)
    }

    /// After a run that failed or was killed in state `before`: the next run, with or
    /// without `force`, finishes or rolls back what it left, says so, and leaves nothing
    /// beside the output.
    fn next_run(&self, what: &str, before: &State, force: bool) {
        let journal = self.journal();
        let left = self.leftovers();
        let o = tirage().args(self.args(force)).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let what = format!(
            "{what}, then a run {}",
            if force {
                "with --force"
            } else {
                "without --force"
            }
        );
        assert!(
            self.leftovers().is_empty(),
            "{what}: {:?} left: {err}",
            self.leftovers()
        );
        let seed_said = format!(
            "with its seed file {}, which rebuilds it",
            self.seed.display()
        );
        if journal {
            // Whenever the journal is there, the new output and its seed are whole.
            assert!(
                err.contains("so the replacement was finished: the new")
                    && err.contains(&seed_said),
                "{what}: {err}"
            );
        } else {
            for l in &left {
                let path = self.out.with_file_name(l).display().to_string();
                let said = if l.starts_with(".b.audit.tirage-aside-") {
                    // Put back or removed, and said with the name it was set aside under.
                    err.contains(&path)
                } else {
                    err.contains(&format!("removed {path}"))
                };
                assert!(said, "{what}: {l} not said: {err}");
            }
        }
        let after = self.state(&what);
        if self.made == Made::Block {
            // The old block's report beside it, and with a new block, no report.
            assert_eq!(
                self.report().is_dir(),
                matches!(after, State::Old | State::OldUnseeded),
                "{what}: {after:?}, the audit report: {err}"
            );
        }
        if force {
            assert_eq!(o.status.code(), Some(0), "{what}: {err}");
            assert!(matches!(after, State::New(_)), "{what}: {after:?}");
            return;
        }
        if journal || *before != State::Nothing {
            // Finished (when a journal was there) or as it was: in place, so refused.
            if journal {
                assert!(matches!(after, State::New(_)), "{what}: {after:?}");
            }
            if !journal || matches!(before, State::New(_)) {
                assert_eq!(after, *before, "{what}");
            }
            assert_eq!(o.status.code(), Some(2), "{what}: {err}");
            assert!(
                err.contains("already exists; pass --force"),
                "{what}: {err}"
            );
        } else {
            assert_eq!(o.status.code(), Some(0), "{what}: {err}");
            assert!(matches!(after, State::New(_)), "{what}: {after:?}");
        }
    }
}

/// How many times a run of `made` calls `syscall` in one thread at most (strace counts
/// `when=N` in each thread: the writers of the ticket files each flush their own file).
fn calls(syscall: &str, made: Made) -> usize {
    let c = Case::new(made);
    let log = c.dir.path().join("strace.log");
    let o = traced(
        &[
            "-e",
            &format!("trace={syscall}"),
            "-o",
            log.to_str().unwrap(),
        ],
        &c.faulted_args(),
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

/// Which calls of a system call a fault is injected at.
#[derive(Clone, Copy)]
enum Pick {
    /// Every one.
    All,
    /// The first n.
    First(usize),
    /// The last n (the placement's, after every file of the output was written).
    Last(usize),
}

/// The calls `pick` takes of the `n` a run makes (1-based, as strace's `when`).
fn picked(pick: Pick, n: usize) -> std::ops::RangeInclusive<usize> {
    match pick {
        Pick::All => 1..=n,
        Pick::First(k) => 1..=k.min(n),
        Pick::Last(k) => n.saturating_sub(k) + 1..=n,
    }
}

/// The steps faults are injected at in a block's run: every call of each system call but
/// the removal of the replaced output's files (its first file, its second, then the rest
/// alike) and the ticket files' writes (`pwrite64`, all alike: the first).
const STEPS: &[(&str, Pick)] = &[
    ("renameat2", Pick::All),
    ("fsync", Pick::All),
    ("unlink", Pick::All),
    ("rmdir", Pick::All),
    ("unlinkat", Pick::First(2)),
    ("write", Pick::All),
    ("pwrite64", Pick::First(1)),
];

/// The steps of an emission's or a deck's run: every move and removal of the placement,
/// the first removal of the old output's files, the flushes of the placement (the last
/// seven: the journal, its folder, one after each of the three moves, after the removal of
/// the old output and after the journal's) and the last `write` (the journal's).
const PLACEMENT_STEPS: &[(&str, Pick)] = &[
    ("renameat2", Pick::All),
    ("unlink", Pick::All),
    ("unlinkat", Pick::First(1)),
    ("fsync", Pick::Last(7)),
    ("write", Pick::Last(1)),
];

/// Kills a run of `made` at every step of `steps`, then runs it again, alternately with and
/// without `--force`; returns the states seen after the kills.
fn kill_at_every_step(made: Made, steps: &[(&str, Pick)]) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeSet::new();
    for &(syscall, pick) in steps {
        for when in picked(pick, calls(syscall, made)) {
            let c = Case::new(made);
            let what = format!("{made:?}: killed at {syscall} #{when}");
            let o = traced(
                &[
                    "-o",
                    "/dev/null",
                    "-e",
                    &format!("inject={syscall}:signal=KILL:when={when}"),
                ],
                &c.faulted_args(),
            );
            assert_ne!(o.status.code(), Some(0), "{what}: not killed");
            let state = c.state(&what);
            seen.insert(format!("{state:?}").split('(').next().unwrap().to_string());
            c.next_run(&what, &state, when % 2 == 0);
        }
    }
    seen
}

#[test]
fn a_replacement_killed_at_any_step_is_finished_by_the_next_run() {
    let seen = kill_at_every_step(Made::Block, STEPS);
    // Every state was reached at some step: the test does look at each.
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["New", "NewUnseeded", "Old", "OldUnseeded"],
        "states after a crash"
    );
}

#[test]
fn a_fresh_block_killed_at_any_step_is_finished_by_the_next_run() {
    let seen = kill_at_every_step(Made::Fresh, STEPS);
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["New", "NewUnseeded", "Nothing"],
        "states after a crash"
    );
}

#[test]
fn an_emission_killed_at_any_step_of_its_placement_is_finished_by_the_next_run() {
    let seen = kill_at_every_step(Made::Emission, PLACEMENT_STEPS);
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["New", "NewUnseeded", "Old", "OldUnseeded"],
        "states after a crash"
    );
}

#[test]
fn a_deck_killed_at_any_step_of_its_placement_is_finished_by_the_next_run() {
    let seen = kill_at_every_step(Made::Deck, PLACEMENT_STEPS);
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["New", "NewUnseeded", "Old", "OldUnseeded"],
        "states after a crash"
    );
}

/// The two crashes first reported: a forced replacement killed at its third rename, and a
/// fresh block killed at its second; then a run without `--force`.
#[test]
fn a_killed_run_is_finished_by_the_next_one_which_says_how_to_rebuild() {
    for (made, when) in [(Made::Block, 3), (Made::Fresh, 2)] {
        let c = Case::new(made);
        let o = traced(
            &[
                "-o",
                "/dev/null",
                "-e",
                &format!("inject=renameat2:signal=KILL:when={when}"),
            ],
            &c.faulted_args(),
        );
        assert_ne!(o.status.code(), Some(0));
        assert!(c.journal());
        let o = tirage().args(c.args(false)).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let seed = c.seed.display();
        assert_eq!(
            err.lines().next().unwrap(),
            format!(
                "tirage: an earlier run was stopped while it put {out} in place; its new block \
                 was whole, so the replacement was finished: the new block is in place (any \
                 older block it replaced was removed), with its seed file {seed}, which \
                 rebuilds it: \
                 tirage generate SPEC --seed-file {seed} --force --out {out} (with the \
                 block's spec.toml, block numbers and validation key)",
                out = c.out.display()
            )
        );
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("{} already exists; pass --force", c.out.display())),
            "{err}"
        );
        assert!(matches!(c.state("then"), State::New(_)));
        assert!(c.leftovers().is_empty(), "{:?}", c.leftovers());
    }
}

#[test]
fn a_failed_call_at_any_step_leaves_the_old_output_or_the_new_one() {
    for made in [Made::Block, Made::Fresh, Made::Emission] {
        let steps = if made == Made::Emission {
            PLACEMENT_STEPS
        } else {
            STEPS
        };
        for &(syscall, pick) in steps {
            for when in picked(pick, calls(syscall, made)) {
                let c = Case::new(made);
                let what = format!("{made:?}: {syscall} #{when} fails");
                let o = traced(
                    &[
                        "-o",
                        "/dev/null",
                        "-e",
                        &format!("inject={syscall}:error=EIO:when={when}"),
                    ],
                    &c.faulted_args(),
                );
                let err = String::from_utf8_lossy(&o.stderr).into_owned();
                let state = c.state(&what);
                match o.status.code() {
                    Some(0) => {
                        assert!(matches!(state, State::New(_)), "{what}: {state:?}");
                        if !c.leftovers().is_empty() {
                            // The old output could not be removed: said, and removed by
                            // the next run.
                            assert!(
                                err.contains("the next run to this destination removes it"),
                                "{what}: {err}"
                            );
                            c.next_run(&what, &state, false);
                        }
                    }
                    Some(2) => {
                        let was = if made == Made::Fresh {
                            State::Nothing
                        } else {
                            State::Old
                        };
                        assert_eq!(state, was, "{what}: a failed run changed the destination");
                        assert!(err.contains("Input/output error"), "{what}: {err}");
                        assert!(c.leftovers().is_empty(), "{what}: {:?}", c.leftovers());
                    }
                    // A message that could not be written to stderr (`when` counts in each
                    // thread: the terminal's write failed too).
                    Some(101) if err.contains("failed printing to stderr") => {
                        let was = if made == Made::Fresh {
                            State::Nothing
                        } else {
                            State::Old
                        };
                        assert!(
                            matches!(state, State::New(_)) || state == was,
                            "{what}: {state:?}"
                        );
                        assert!(c.leftovers().is_empty(), "{what}: {:?}", c.leftovers());
                    }
                    other => panic!("{what}: exit {other:?}: {err}"),
                }
            }
        }
    }
}

/// Where the file system cannot exchange two names in one step (EINVAL), the old output is
/// moved aside, then the new one in: the replacement completes all the same.
#[test]
fn where_names_cannot_be_exchanged_the_old_output_is_moved_aside_first() {
    let c = Case::new(Made::Block);
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("fallback.log");
    let o = traced(
        &[
            "-e",
            "trace=renameat2",
            "-e",
            // The third rename, the exchange (the first sets the old block's audit report
            // aside, the second the old seed file).
            "inject=renameat2:error=EINVAL:when=3",
            "-o",
            log.to_str().unwrap(),
        ],
        &c.faulted_args(),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("RENAME_EXCHANGE) = -1 EINVAL") && text.contains(".b.tirage-old-"),
        "{text}"
    );
    assert!(matches!(c.state("fallback"), State::New(_)));
    assert!(c.leftovers().is_empty(), "{:?}", c.leftovers());
}

#[test]
fn every_file_is_flushed_before_the_block_goes_in_place_and_the_parent_after() {
    let c = Case::new(Made::Block);
    let log = c.dir.path().join("order.log");
    let o = traced(
        &[
            "-y",
            "-e",
            "trace=fsync,renameat2",
            "-o",
            log.to_str().unwrap(),
        ],
        &c.faulted_args(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let parent = c.out.parent().unwrap().display().to_string();
    let pos = |pred: &dyn Fn(&str) -> bool| lines.iter().position(|l| pred(l));
    let into_place = pos(&|l| {
        l.contains("renameat2(")
            && l.contains(".b.tirage-tmp-")
            && l.ends_with(&format!("\"{}\", RENAME_EXCHANGE) = 0", c.out.display()))
    })
    .unwrap_or_else(|| panic!("no exchange into place:\n{text}"));
    let seed_aside = pos(&|l| {
        l.contains("renameat2(")
            && l.contains(&format!("\"{}\"", c.seed.display()))
            && l.contains(".b.tirage-oldseed-")
    })
    .unwrap_or_else(|| panic!("no move of the old seed file aside:\n{text}"));
    let seed_in = pos(&|l| {
        l.contains("renameat2(")
            && l.contains(".b.tirage-seed-")
            && l.contains(&format!("\"{}\"", c.seed.display()))
    })
    .unwrap_or_else(|| panic!("no rename of the seed file:\n{text}"));
    assert!(
        seed_aside < into_place && into_place < seed_in,
        "the old seed file goes before the block is exchanged, the new one after:\n{text}"
    );
    let journal = pos(&|l| l.contains("fsync(") && l.contains(".b.tirage-journal>"))
        .unwrap_or_else(|| panic!("the journal not flushed:\n{text}"));
    assert!(
        journal < seed_aside,
        "the journal is flushed before anything moves"
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
            synced.is_some_and(|p| p < journal),
            "{f} not flushed before the journal:\n{text}"
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
        staged_dir.is_some_and(|p| p < journal),
        "the staged directory not flushed before the journal:\n{text}"
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
    // Killed at its first write of a ticket file (tickets.csv or tickets.bin), under
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
            .args(["-e", "inject=pwrite64:signal=KILL:when=1"])
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

/// tirage with `args` under a limit of `kib` KiB of address space (`ulimit -v`).
fn in_limit(kib: u32, args: &[OsString]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$@\""))
        .arg("sh")
        .arg(bin())
        .args(args)
        .output()
        .unwrap()
}

/// tirage with `args` under a limit of 256 MiB of address space.
fn in_256_mib(args: &[OsString]) -> std::process::Output {
    in_limit(262_144, args)
}

/// tirage with `args` under a limit of 512 MiB of address space (the 256 MiB of resident
/// memory a block may use, with room for thread stacks and the allocator's reserves).
fn in_512_mib(args: &[OsString]) -> std::process::Output {
    in_limit(524_288, args)
}

/// The largest block `check` accepts (5 000 000 tickets) is generated, then verified and
/// replayed byte for byte, each within 512 MiB of address space, with no abort. A full-size
/// block: ignored by `make test`, run by `make limits` (release build).
#[test]
#[ignore = "a full-size block: run with `make limits`"]
fn the_largest_accepted_block_is_made_and_replayed_within_512_mib() {
    let t = tempfile::tempdir().unwrap();
    let largest = sized_spec(t.path(), 5_000_000, 999);
    let out = t.path().join("largest");
    let key: OsString = repo(VALIDATION_KEY).into();
    let o = in_512_mib(&[
        "generate".into(),
        largest.into_os_string(),
        "--validation-key".into(),
        key.clone(),
        "-q".into(),
        "--out".into(),
        out.clone().into_os_string(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = in_512_mib(&[
        "verify".into(),
        out.clone().into_os_string(),
        "--unauthenticated".into(),
        "--seed-file".into(),
        t.path().join("largest.seed").into_os_string(),
        "--validation-key".into(),
        key,
        "-q".into(),
    ]);
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        said.contains("replayed byte for byte from its seed"),
        "{said}"
    );
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

/// A thread that cannot start (the limit on processes and threads reached: `EAGAIN` from
/// `clone3`, injected into the k-th start of each thread, then into every start) ends the
/// run with one line that says which thread and what to do, exit 2, the destination as it
/// was and nothing left beside it; or the run does without that thread and gives its usual
/// answer. Never a panic.
#[test]
fn a_thread_that_cannot_start_is_said_never_a_panic() {
    let faults: Vec<String> = (1..=6)
        .map(|k| format!("inject=clone3:error=EAGAIN:when={k}"))
        .chain(["inject=clone3:error=EAGAIN:when=1+".to_string()])
        .collect();
    let said = |what: &str, err: &str| {
        assert!(
            err.starts_with("tirage: error: ")
                && err.contains("could not start a thread for ")
                && err.contains("Resource temporarily unavailable")
                && err.ends_with(
                    "raise it, or run fewer threads at once \
                     (--threads N, for the commands that take it)\n"
                ),
            "{what}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
    };
    let mut stopped = 0;
    for made in [Made::Block, Made::Deck] {
        for fault in &faults {
            let c = Case::new(made);
            let what = format!("{made:?}: {fault}");
            let o = traced(&["-o", "/dev/null", "-e", fault], &c.faulted_args());
            let err = String::from_utf8_lossy(&o.stderr).into_owned();
            let state = c.state(&what);
            match o.status.code() {
                Some(0) => assert!(matches!(state, State::New(_)), "{what}: {state:?}"),
                Some(2) => {
                    said(&what, &err);
                    assert_eq!(state, State::Old, "{what}");
                    stopped += 1;
                }
                other => panic!("{what}: exit {other:?}: {err}"),
            }
            assert!(c.leftovers().is_empty(), "{what}: {:?}", c.leftovers());
        }
    }
    // Every start failing stops both.
    assert!(stopped >= 2, "{stopped}");
    // The commands that read a block.
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "b", false);
    let key = t.path().join("op.pub");
    let os = |v: &[&std::path::Path]| -> Vec<OsString> { v.iter().map(|p| p.into()).collect() };
    let p = std::path::Path::new;
    let runs: Vec<Vec<OsString>> = vec![
        os(&[
            p("verify"),
            &b,
            p("--signer"),
            &key,
            p("--no-audit"),
            p("-q"),
        ]),
        os(&[
            p("verify"),
            &b,
            p("--signer"),
            &key,
            p("--threads"),
            p("1"),
            p("-q"),
        ]),
        os(&[
            p("render"),
            &b,
            p("--tickets"),
            p("1,2"),
            p("-q"),
            p("--force"),
            p("--out"),
        ])
        .into_iter()
        .chain([t.path().join("proofs").into()])
        .collect(),
        os(&[
            p("package"),
            &b,
            p("--for"),
            p("central"),
            p("--signer"),
            &key,
        ])
        .into_iter()
        .chain(["--test-block", "-q", "--force", "--out"].map(OsString::from))
        .chain([t.path().join("central").into()])
        .collect(),
        os(&[p("claim"), &b, p("--signer"), &key])
            .into_iter()
            .chain(
                [
                    "--serial",
                    "17030010010000010012",
                    "--code",
                    "1234567890123456789",
                ]
                .map(OsString::from),
            )
            .collect(),
    ];
    for args in &runs {
        let base = tirage().args(args).output().unwrap();
        assert!(
            matches!(base.status.code(), Some(0 | 1 | 3)),
            "{args:?}: {}",
            String::from_utf8_lossy(&base.stderr)
        );
        for fault in &faults {
            let what = format!("{args:?}: {fault}");
            let o = traced(&["-o", "/dev/null", "-e", fault], args);
            let err = String::from_utf8_lossy(&o.stderr).into_owned();
            if o.status.code() == Some(2) {
                said(&what, &err);
            } else {
                assert_eq!(o.status.code(), base.status.code(), "{what}: {err}");
                assert_eq!(o.stdout, base.stdout, "{what}");
            }
        }
    }
}

/// A block replaced with `--force` sets its older audit report and proofs aside (hidden
/// names) before the exchange, and removes them once the new block is in place: each
/// `renameat2` of the run made to fail in turn (EIO), a run that fails (exit 2) leaves the
/// older block with its report and proofs as they were; a run that succeeds leaves neither
/// (one that could not be set aside is left where it was, and said); no hidden copy is
/// left either way.
#[test]
fn a_replacement_that_fails_keeps_the_older_reports_and_proofs() {
    let t = tempfile::tempdir().unwrap();
    let template = t.path().join("template");
    std::fs::create_dir(&template).unwrap();
    let out = template.join("b");
    let generate = |out: &std::path::Path, seed: &str| -> Vec<OsString> {
        let mut a: Vec<OsString> = ["generate".into(), spec().into()].into();
        a.extend(["--validation-key".into(), repo(VALIDATION_KEY).into()]);
        a.extend(["--insecure-seed", "--seed", seed, "-q", "--force", "--out"].map(OsString::from));
        a.push(out.into());
        a
    };
    tirage().args(generate(&out, SEED)).assert().success();
    tirage()
        .arg("render")
        .arg(&out)
        .args(["--tickets", "1", "-q"])
        .assert()
        .success();
    assert_eq!(verify_code(&out), 0);
    let reseed = SEED.replace('0', "7");
    let mut failed = 0;
    for when in 1..=8 {
        let case = t.path().join(format!("case-{when}"));
        let copied = Command::new("cp")
            .arg("-a")
            .arg(&template)
            .arg(&case)
            .status()
            .unwrap();
        assert!(copied.success());
        let b = case.join("b");
        let files = |d: &str| -> Vec<(String, Vec<u8>)> {
            let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(case.join(d))
                .map(|r| {
                    r.flatten()
                        .map(|e| {
                            let bytes = std::fs::read(e.path()).unwrap();
                            (e.file_name().into_string().unwrap(), bytes)
                        })
                        .collect()
                })
                .unwrap_or_default();
            v.sort();
            v
        };
        let before = (files("b"), files("b.audit"), files("b.proofs"));
        assert!(!before.1.is_empty() && !before.2.is_empty());
        let o = traced(
            &[
                "-o",
                "/dev/null",
                "-e",
                &format!("inject=renameat2:error=EIO:when={when}"),
            ],
            &generate(&b, &reseed),
        );
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let hidden: Vec<String> = std::fs::read_dir(&case)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().into_string().unwrap())
            .filter(|n| n.contains("tirage-aside"))
            .collect();
        assert!(hidden.is_empty(), "renameat2 #{when}: {hidden:?}: {err}");
        match o.status.code() {
            Some(2) => {
                failed += 1;
                let after = (files("b"), files("b.audit"), files("b.proofs"));
                assert!(after == before, "renameat2 #{when} failed: {err}");
            }
            Some(0) => {
                // Removed, or (its own move failed) left where it was and said.
                for d in ["b.audit", "b.proofs"] {
                    let left = format!("tirage: warning: {}", case.join(d).display());
                    assert!(
                        !case.join(d).exists() || err.contains(&left),
                        "renameat2 #{when}: {d}: {err}"
                    );
                }
                assert!(
                    files("b") != before.0,
                    "renameat2 #{when}: the old block stayed"
                );
            }
            other => panic!("renameat2 #{when}: exit {other:?}: {err}"),
        }
    }
    // At least the exchange fails a run.
    assert!(failed >= 1, "{failed} runs failed");
}
