//! Bad input and careless use: nothing is deleted that is not a block, secrets never go
//! through links, arithmetic never wraps, verify stays bounded and says what it can't read.

mod common;

use common::*;
use std::path::Path;

fn small() -> String {
    std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap()
}

/// Runs tirage `cmd` on `spec` with the test seed and `extra` arguments into `out` (with
/// `--force` when `force`); asserts that it stops with exit 2 and exactly the error `want`.
fn refused_out(cmd: &str, spec: &Path, extra: &[&str], out: &Path, force: bool, want: String) {
    let mut c = tirage();
    c.arg(cmd)
        .arg(spec)
        .args(extra)
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(out);
    if force {
        c.arg("--force");
    }
    let o = c.output().unwrap();
    assert_eq!(
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned()
        ),
        (Some(2), want),
        "{cmd} {extra:?}, --force {force}"
    );
}

fn check_text(dir: &Path, text: &str) -> (i32, String) {
    let p = dir.join("bad.toml");
    std::fs::write(&p, text).unwrap();
    let o = tirage().arg("check").arg(&p).output().unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn force_never_deletes_a_directory_that_is_not_a_block() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("stuff");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(d.join("important"), "keep me").unwrap();
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a tirage block"));
    assert_eq!(
        std::fs::read_to_string(d.join("important")).unwrap(),
        "keep me"
    );
}

/// An `--out` that is a symbolic link, even to a block, is refused by generate and deck
/// with or without `--force`, said to be a link: the block it points to is untouched.
#[test]
fn an_out_that_is_a_link_is_refused_as_a_link() {
    let t = tempfile::tempdir().unwrap();
    let real = t.path().join("real");
    generate(&repo("tests/specs/coq_small.toml"), &real, 1);
    let sums = std::fs::read(real.join("SHA256SUMS")).unwrap();
    let link = t.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    for cmd in ["generate", "deck"] {
        for force in [false, true] {
            refused_out(
                cmd,
                &repo("tests/specs/coq_small.toml"),
                &[],
                &link,
                force,
                format!(
                    "tirage: error: {} is a symbolic link: tirage writes and replaces a block only at a real directory, never through a link (with --force or without); give the directory itself as --out\n",
                    link.display()
                ),
            );
        }
    }
    assert_eq!(std::fs::read(real.join("SHA256SUMS")).unwrap(), sums);
}

/// An `--out` named by `.` or `..` (`EM/sub/..`, `.` from inside an emission) is refused
/// by generate and deck before anything is made: its lock file would land inside the
/// output it names.
#[test]
fn an_out_named_by_dot_or_dot_dot_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let em = t.path().join("em");
    std::fs::create_dir_all(em.join("sub")).unwrap();
    for out in [em.join("sub/.."), std::path::PathBuf::from(".")] {
        for (cmd, extra) in [
            ("generate", &["--blocks", "1..2"][..]),
            ("generate", &[]),
            ("deck", &[]),
        ] {
            let o = tirage()
                .current_dir(&em)
                .arg(cmd)
                .arg(&spec)
                .args(extra)
                .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
                .arg(&out)
                .output()
                .unwrap();
            assert_eq!(
                (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()),
                (
                    Some(2),
                    format!(
                        "tirage: error: {}: an --out is named by its own name, not by `.` or `..` (its lock file and what it replaces are found beside that name); nothing was written; give the path that ends with the output's name\n",
                        out.display()
                    )
                ),
                "{cmd} {extra:?}"
            );
            let names: Vec<_> = std::fs::read_dir(&em)
                .unwrap()
                .flatten()
                .map(|e| e.file_name())
                .collect();
            assert_eq!(names, ["sub"], "{cmd} {extra:?}");
        }
    }
}

/// An `--out` whose own name is not UTF-8 is refused (exit 2) by generate and deck before
/// anything is made: the journal of a replacement names it as text, and the output would
/// land under another name (the bytes replaced by U+FFFD).
#[test]
fn an_out_whose_name_is_not_utf8_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let out = t.path().join(std::ffi::OsStr::from_bytes(b"b\xe9"));
    for (cmd, extra) in [
        ("generate", &["--blocks", "1..2"][..]),
        ("generate", &[]),
        ("deck", &[]),
    ] {
        let o = tirage()
            .arg(cmd)
            .arg(&spec)
            .args(extra)
            .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd} {extra:?}: {err}");
        assert!(
            err.contains("an --out's own name must be UTF-8 text"),
            "{cmd} {extra:?}: {err}"
        );
        assert_eq!(
            std::fs::read_dir(t.path()).unwrap().count(),
            0,
            "{cmd} {extra:?}"
        );
    }
}

/// An emission's `--out` inside another emission is refused (exit 2) before its lock file
/// is made there: the emission is left as it was.
#[test]
fn an_emission_inside_an_emission_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    small_emission(&em);
    let names = || {
        let mut v: Vec<String> = std::fs::read_dir(&em)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let before = names();
    for inner in [em.join("sub"), em.join("block-002")] {
        refused_out(
            "generate",
            &repo("tests/specs/coq_small.toml"),
            &["--blocks", "1..2"],
            &inner,
            true,
            format!(
                "tirage: error: {}: beside {}: a block of an emission is made with the emission (generate --blocks), and nothing else goes inside one; choose another --out\n",
                inner.display(),
                em.join("emission.json").display()
            ),
        );
        assert_eq!(names(), before);
    }
    assert_eq!(verify_code(&em), 0);
}

/// A lock file planted as a symbolic link (to a file of the user's, or to nothing) is
/// never opened through it: generate and deck stop (exit 2) saying it is a link, and the
/// file it points to is untouched.
#[test]
fn a_lock_file_planted_as_a_link_is_said_to_be_one() {
    let t = tempfile::tempdir().unwrap();
    let target = t.path().join("precious");
    std::fs::write(&target, "mine").unwrap();
    let out = t.path().join("b");
    let lock = t.path().join(".b.tirage-lock");
    for to in [target.clone(), t.path().join("nothing")] {
        let _ = std::fs::remove_file(&lock);
        std::os::unix::fs::symlink(&to, &lock).unwrap();
        for cmd in ["generate", "deck"] {
            refused_out(
                cmd,
                &repo("tests/specs/coq_small.toml"),
                &[],
                &out,
                false,
                format!(
                    "tirage: error: {}, the lock file of {}, is a symbolic link: tirage never opens its lock file through a link; if no run of yours made it, someone else may have planted it: look at it, then remove it\n",
                    lock.display(),
                    out.display()
                ),
            );
        }
    }
    assert_eq!(std::fs::read(&target).unwrap(), b"mine");
    assert!(!out.exists() && !t.path().join("nothing").exists());
}

/// An `--out` that exists and is not a block (the spec itself, a folder of other files) is
/// refused at once by generate and deck, with or without `--force`: said to be no tirage
/// block that `--force` would replace, never advised `--force`, and nothing is made beside
/// it (no lock file).
#[test]
fn an_out_that_is_not_a_block_is_refused_before_its_lock_file() {
    let t = tempfile::tempdir().unwrap();
    let spec = t.path().join("coq_small.toml");
    std::fs::write(&spec, small()).unwrap();
    let stuff = t.path().join("stuff");
    std::fs::create_dir(&stuff).unwrap();
    std::fs::write(stuff.join("important"), "keep me").unwrap();
    let listing = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        v.sort();
        v
    };
    for out in [&spec, &stuff] {
        for cmd in ["generate", "deck"] {
            for force in [false, true] {
                refused_out(
                    cmd,
                    &spec,
                    &[],
                    out,
                    force,
                    format!(
                        "tirage: error: {} exists and is not a tirage block (no tirage manifest.json in it): nothing was written, and --force would not replace it (it replaces only blocks); choose another --out\n",
                        out.display()
                    ),
                );
                assert_eq!(listing(t.path()), ["coq_small.toml", "stuff"], "{cmd}");
                assert_eq!(listing(&stuff), ["important"], "{cmd}");
            }
        }
    }
    assert_eq!(std::fs::read_to_string(&spec).unwrap(), small());
}

/// A key that cannot be read or is not one (`--validation-key`, `--sign`, `--recipient`)
/// is refused (exit 2) before the output's lock file is made: nothing is written, not even
/// the folders that would hold the output.
#[test]
fn a_bad_key_is_refused_before_anything_is_made() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let bad = t.path().join("bad.key");
    std::fs::write(&bad, "not a key\n").unwrap();
    let new = t.path().join("new");
    let out = new.join("a/out");
    let bad_s = bad.to_str().unwrap();
    for (cmd, blocks, option, value) in [
        ("generate", false, "--validation-key", bad_s),
        ("generate", false, "--sign", bad_s),
        ("generate", false, "--sign", "/nonexistent/op.key"),
        ("generate", false, "--recipient", "printer=age1bad"),
        ("generate", true, "--validation-key", bad_s),
        ("generate", true, "--sign", bad_s),
        ("deck", false, "--sign", bad_s),
    ] {
        let mut c = tirage();
        c.arg(cmd)
            .arg(&spec)
            .args(["--insecure-seed", "--seed", SEED, "-q", option, value]);
        if blocks {
            c.args(["--blocks", "1..2"]);
        }
        let o = c.arg("--out").arg(&out).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd} {option}: {err}");
        assert!(!new.exists(), "{cmd} {option}: {err}");
    }
}

/// An emission's `--out` that is a file (the spec itself) is refused at once by `generate
/// --blocks`, with or without `--force`: nothing is made beside it (no lock file) and the
/// file is untouched.
#[test]
fn an_emission_out_that_is_a_file_is_refused_before_its_lock_file() {
    let t = tempfile::tempdir().unwrap();
    let spec = t.path().join("coq_small.toml");
    std::fs::write(&spec, small()).unwrap();
    for force in [false, true] {
        refused_out(
            "generate",
            &spec,
            &["--blocks", "1..2"],
            &spec,
            force,
            format!(
                "tirage: error: {}: not a directory: an emission goes to a directory of its own; nothing was written; choose another --out\n",
                spec.display()
            ),
        );
        let names: Vec<String> = std::fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["coq_small.toml"], "{force}");
    }
    assert_eq!(std::fs::read_to_string(&spec).unwrap(), small());
}

#[cfg(unix)]
#[test]
fn a_fresh_seed_is_never_written_through_a_link() {
    let t = tempfile::tempdir().unwrap();
    let public = t.path().join("public.txt");
    std::fs::write(&public, "").unwrap();
    std::os::unix::fs::symlink(&public, t.path().join("b.seed")).unwrap();
    for force in [false, true] {
        let mut c = tirage();
        c.arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args(["-q", "--out"])
            .arg(t.path().join("b"));
        if force {
            c.arg("--force");
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(!t.path().join("b").exists(), "nothing generated");
    }
    assert_eq!(std::fs::read_to_string(&public).unwrap(), "");
}

#[test]
fn an_unwritable_seed_path_stops_before_anything_is_generated() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir(t.path().join("b.seed")).unwrap();
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["-q", "--force", "--out"])
        .arg(t.path().join("b"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!t.path().join("b").exists());
}

#[test]
fn a_payout_that_overflows_is_an_error_not_a_wrap() {
    let t = tempfile::tempdir().unwrap();
    // 92 233 720 368 557 758.08 × 2 wraps 64-bit cents back to 20 000.
    let text = small()
        .replacen(
            "amount = 20000\ncount = 1\n",
            "amount = \"92233720368557758.08\"\ncount = 2\n",
            1,
        )
        .replacen(
            "id = \"20000\"\ncount = 1\nwins = [20000]",
            "id = \"JACKPOT\"\ncount = 2\nwins = [\"92233720368557758.08\"]",
            1,
        )
        .replacen("lots = 919", "lots = 920", 1);
    let (code, err) = check_text(t.path(), &text);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("payout exceeds"), "{err}");
}

#[test]
fn way_ids_and_captions_are_plain_printable_text() {
    let t = tempfile::tempdir().unwrap();
    let (code, err) = check_text(
        t.path(),
        &small().replacen("id = \"2\"\n", "id = \"2\\rx\"\n", 1),
    );
    assert_eq!(code, 2);
    assert!(err.contains("printable ASCII"), "{err}");
    let long = "A".repeat(300);
    let (code, err) = check_text(
        t.path(),
        &small().replacen("\"DEUX EUROS\"", &format!("\"{long}\""), 1),
    );
    assert_eq!(code, 2);
    assert!(err.contains("at most 200 bytes"), "{err}");
}

#[test]
fn verify_refuses_a_directory_that_is_no_block_and_writes_nothing() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("notes.txt"), "x").unwrap();
    let o = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(t.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let names: Vec<_> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn a_print_file_longer_than_its_block_is_a_bounded_finding() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let f = std::fs::OpenOptions::new()
        .append(true)
        .open(b.join("tickets.bin"))
        .unwrap();
    f.set_len(f.metadata().unwrap().len() + (64 << 20)).unwrap(); // 64 MiB of zeros
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("goes on past what a block of 3000 tickets holds"));
}

#[test]
fn an_emission_checks_every_block_directory_on_disk() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    small_emission(&em);
    // A stray block directory, and a listed block redirected elsewhere.
    copy_dir(&em.join("block-001"), &em.join("block-003"));
    let json = std::fs::read_to_string(em.join("emission.json"))
        .unwrap()
        .replacen("\"block-002\"", "\"../elsewhere\"", 1);
    std::fs::write(em.join("emission.json"), json).unwrap();
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg(&em)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text.contains("block-003 is in the emission directory but not in emission.json"),
        "{text}"
    );
    assert!(
        text.contains("block 2 is listed in \"../elsewhere\""),
        "{text}"
    );
}

#[test]
fn a_block_whose_print_file_cannot_be_read_reports_ticket_checks_as_not_run() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    std::fs::write(b.join("tickets.bin"), b"not a print file").unwrap();
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg(&b)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(text.contains("NOT RUN serials"), "{text}");
    assert!(!text.contains("PASS    serials"), "{text}");
}

/// A named pipe given as a spec or a seed file is refused at once (exit 2), instead of
/// waiting for a writer forever.
#[cfg(unix)]
#[test]
fn a_pipe_is_refused_not_waited_on() {
    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let o = tirage().arg("check").arg(&fifo).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("cannot read the spec: a FIFO, not a regular file"));
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--seed-file")
        .arg(&fifo)
        .arg("--out")
        .arg(t.path().join("block"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a regular file"));
    assert!(!t.path().join("block").exists());
}

/// Ctrl-C (or SIGTERM) during generation: exit 130, and nothing is left beside the output,
/// neither the partial block nor the staged fresh seed; a block it was replacing stays.
#[cfg(unix)]
#[test]
fn an_interrupted_run_leaves_nothing_behind() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("out");
    std::fs::create_dir(&dir).unwrap();
    let entries = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    // A small block already in place, to be replaced with --force.
    let out = dir.join("block-001");
    generate(&repo("tests/specs/coq_small.toml"), &out, 1);
    let sums = std::fs::read(out.join("SHA256SUMS")).unwrap();
    for (signal, force) in [("INT", false), ("TERM", true)] {
        let target = if force {
            out.clone()
        } else {
            dir.join("fresh")
        };
        // The full coq block: long enough to be caught while it is being written.
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("tirage"));
        c.arg("generate")
            .arg(repo("game_specs/coq.toml"))
            .args(["-q", "--threads", "1", "--out"])
            .arg(&target)
            .stderr(std::process::Stdio::piped());
        if force {
            c.arg("--force");
        }
        let child = c.spawn().unwrap();
        // Wait until the block is being written beside its destination.
        let t0 = std::time::Instant::now();
        while !entries(&dir).iter().any(|n| n.contains(".tirage-tmp-")) {
            assert!(t0.elapsed().as_secs() < 60, "generation never started");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // The shell's own kill: no other program needed.
        let killed = std::process::Command::new("sh")
            .args(["-c", &format!("kill -{signal} {}", child.id())])
            .status()
            .unwrap();
        assert!(killed.success());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(130), "{signal}: {err}");
        assert!(err.contains("interrupted"), "{err}");
        assert_eq!(
            entries(&dir)
                .into_iter()
                .filter(|n| !n.ends_with(".tirage-lock"))
                .collect::<Vec<_>>(),
            ["block-001"],
            "{signal}: something was left beside the output"
        );
        assert_eq!(std::fs::read(out.join("SHA256SUMS")).unwrap(), sums);
    }
}

/// An emission never goes into a block's directory, even with --force.
#[test]
fn an_emission_never_goes_into_a_block() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let before = std::fs::read_dir(&b).unwrap().count();
    for force in [false, true] {
        let mut c = tirage();
        c.arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args([
                "--blocks",
                "1..2",
                "--insecure-seed",
                "--seed",
                SEED,
                "-q",
                "--out",
            ])
            .arg(&b);
        if force {
            c.arg("--force");
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("holds a block (manifest.json)"), "{err}");
        assert_eq!(std::fs::read_dir(&b).unwrap().count(), before);
    }
}

/// Nothing is written inside a block directory, which is delivered as it is: a block, an
/// emission, a deck, a preview page, a seed or a key pair asked for there is refused
/// (exit 2), even with --force, and the block keeps exactly its files (no seed, lock, page
/// or key inside it).
#[test]
fn nothing_is_written_inside_a_block() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    let spec = repo("tests/specs/coq_small.toml");
    generate(&spec, &b, 1);
    let list = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let before = list(&b);
    let inside = b.join("inside");
    let seeded = ["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"];
    let runs: [Vec<&str>; 4] = [
        vec!["generate"],
        vec!["generate", "--blocks", "1..2"],
        vec!["deck"],
        vec!["preview", "-q", "--force", "--out"],
    ];
    // Refused, exit 2, saying why, the block as it was.
    let refused = |o: std::process::Output, args: &[&str]| {
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("inside the block directory") && err.contains("nothing was written"),
            "{args:?}: {err}"
        );
        assert_eq!(list(&b), before, "{args:?}");
    };
    for args in runs {
        let mut c = tirage();
        c.arg(args[0]).arg(&spec).args(&args[1..]);
        if args[0] != "preview" {
            c.args(seeded);
        }
        refused(c.arg(&inside).output().unwrap(), &args);
    }
    // The preview's page would go straight into the block.
    let o = tirage()
        .arg("preview")
        .arg(&spec)
        .args(["-q", "--out"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(list(&b), before);
    // A secret written there would ship with the block: a seed, a key pair.
    for args in [
        ["seed", "new", "--out"],
        ["keygen", "--no-password", "--out"],
    ] {
        refused(
            tirage().args(args).arg(b.join("secret")).output().unwrap(),
            &args,
        );
    }
}

/// A forced replacement exchanges the new block with the old one (the old then under the
/// staged name of this run's, the replacement's journal beside it), and removes the old one
/// and the journal once finished; nothing else is left beside it.
#[test]
fn a_placed_block_replaces_the_old_one_once_finished() {
    use tirage::crypto::rng::Seed;
    use tirage::generate::{stage, BlockPlan};
    use tirage::spec::GameSpec;
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &out, 1);
    let sums = std::fs::read(out.join("SHA256SUMS")).unwrap();
    let spec = GameSpec::load(&repo("tests/specs/coq_small.toml")).unwrap();
    let key = tirage::crypto::validation::ValidationKey::from_hex(
        &std::fs::read_to_string(repo(VALIDATION_KEY)).unwrap(),
    )
    .unwrap();
    let other = Seed::from_hex(&"7".repeat(64)).unwrap();
    let plan = BlockPlan::production(&spec, &other, 1)
        .unwrap()
        .validated_by(&key);
    let (staged, _) = stage(&plan, &out, true).unwrap();
    assert!(staged.path().starts_with(t.path()));
    let placed = staged.put_in_place(None).unwrap();
    assert_ne!(std::fs::read(out.join("SHA256SUMS")).unwrap(), sums);
    let names = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| !n.ends_with(".tirage-lock"))
            .collect();
        v.sort();
        v
    };
    let aside = names(t.path());
    assert_eq!(aside.len(), 3, "{aside:?}");
    assert_eq!(aside[0], ".b.tirage-journal");
    let prefix = format!(".b.tirage-tmp-{}-", std::process::id());
    assert!(aside[1].starts_with(&prefix), "{aside:?}");
    assert_eq!(
        std::fs::read(t.path().join(&aside[1]).join("SHA256SUMS")).unwrap(),
        sums,
        "the old block"
    );
    placed.finish().unwrap();
    assert_eq!(names(t.path()), ["b"]);
}

/// A torn block (one ticket file deleted, or cut short): verify blames that file only, and
/// says the procedures it could not run were not run rather than passed.
#[test]
fn a_torn_block_is_reported_file_by_file() {
    let t = tempfile::tempdir().unwrap();
    let base = t.path().join("base");
    generate(&repo("tests/specs/coq_small.toml"), &base, 1);
    for (name, cut) in [
        ("tickets.bin", None),
        ("tickets.csv", None),
        ("tickets.bin", Some(20u64)),
    ] {
        let d = t.path().join("torn");
        let _ = std::fs::remove_dir_all(&d);
        copy_dir(&base, &d);
        match cut {
            None => std::fs::remove_file(d.join(name)).unwrap(),
            Some(n) => std::fs::File::options()
                .write(true)
                .open(d.join(name))
                .unwrap()
                .set_len(n)
                .unwrap(),
        }
        let (code, r) = verify_json(&d);
        assert_eq!(code, 1);
        let result = |id: &str| {
            let (result, details) = check_result(&r, id);
            (result, details.join("\n"))
        };
        let (sums, text) = result("sha256sums");
        assert_eq!(sums, "fail");
        assert!(text.contains(name), "{text}");
        for other in ["tickets.csv", "tickets.bin", "validation.csv"] {
            if other != name {
                assert!(!text.contains(other), "{other} blamed: {text}");
            }
        }
        assert_ne!(result("csv_header").0, "pass", "{name} {cut:?}");
        assert_ne!(result("record_count").0, "pass", "{name} {cut:?}");
        if cut.is_none() {
            assert_eq!(result("print_header").0, "not run", "{name}");
        }
    }
}

/// `--force` replaces a block with its audit report and proofs, but never deletes a file
/// tirage did not write there: it names it and stops.
#[test]
fn force_never_deletes_a_file_put_in_a_block() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    // An audit report and proofs inside the block, as earlier versions of verify and
    // render wrote them.
    std::fs::write(b.join("audit.md"), "an earlier report").unwrap();
    std::fs::create_dir(b.join("proofs")).unwrap();
    std::fs::write(b.join("proofs/ticket-1.svg"), "<svg/>").unwrap();
    std::fs::write(b.join("NOTES.txt"), "keep me").unwrap();
    let again = || {
        tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
            .arg(&b)
            .output()
            .unwrap()
    };
    let o = again();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds files tirage did not write (NOTES.txt)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(b.join("NOTES.txt")).unwrap(),
        "keep me"
    );
    std::fs::remove_file(b.join("NOTES.txt")).unwrap();
    // Inside proofs/, too, and a directory under a tirage file's name.
    std::fs::write(b.join("proofs/MYNOTES.txt"), "keep me").unwrap();
    std::fs::remove_file(b.join("audit.md")).unwrap();
    std::fs::create_dir(b.join("audit.md")).unwrap();
    let o = again();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("(audit.md, proofs/MYNOTES.txt)"), "{err}");
    std::fs::remove_file(b.join("proofs/MYNOTES.txt")).unwrap();
    std::fs::remove_dir(b.join("audit.md")).unwrap();
    let o = again();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!b.join("proofs").exists() && !b.join("audit.md").exists());
}

/// A file listed twice in SHA256SUMS is a finding, even with the same digest.
#[test]
fn sha256sums_lists_each_file_once() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let sums = std::fs::read_to_string(b.join("SHA256SUMS")).unwrap();
    let first = sums.lines().next().unwrap();
    std::fs::write(b.join("SHA256SUMS"), format!("{sums}{first}\n")).unwrap();
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout)
        .contains("SHA256SUMS lists tickets.csv 2 times, expected once"));
}

/// SHA256SUMS with its lines in another order is not the file generate wrote: a finding,
/// though every digest holds; put back in order, the block is clean again.
#[test]
fn sha256sums_lists_the_files_in_the_order_generate_writes_them() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let sums = std::fs::read_to_string(b.join("SHA256SUMS")).unwrap();
    let verify = || {
        tirage()
            .args(["verify", "--unauthenticated", "--no-audit"])
            .arg(&b)
            .output()
            .unwrap()
    };
    let mut lines: Vec<&str> = sums.lines().collect();
    lines.swap(0, 1);
    std::fs::write(b.join("SHA256SUMS"), lines.join("\n") + "\n").unwrap();
    let o = verify();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains(
        "SHA256SUMS lists its files in another order than generate writes them (tickets.csv, \
         tickets.bin, validation.csv, spec.toml, manifest.json): it is not the file generate wrote"
    ));
    std::fs::write(b.join("SHA256SUMS"), &sums).unwrap();
    assert_eq!(verify().status.code(), Some(0));
}

/// An emission replaces its whole directory: never one holding anything without --force,
/// nor with it one holding a file tirage did not write; both stay as they were.
#[test]
fn an_emission_never_deletes_what_tirage_did_not_write() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    std::fs::create_dir(&em).unwrap();
    std::fs::write(em.join("notes.txt"), "keep me").unwrap();
    let run = |force: bool| {
        let mut c = tirage();
        c.arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args([
                "--blocks",
                "1..2",
                "--insecure-seed",
                "--seed",
                SEED,
                "-q",
                "--out",
            ])
            .arg(&em);
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    let o = run(false);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists; pass --force"));
    let o = run(true);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds files tirage did not write (notes.txt)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(em.join("notes.txt")).unwrap(),
        "keep me"
    );
    assert_eq!(std::fs::read_dir(&em).unwrap().count(), 1);
    // Empty, it takes the emission.
    std::fs::remove_file(em.join("notes.txt")).unwrap();
    assert_eq!(run(false).status.code(), Some(0));
    assert_eq!(verify_code(&em), 0);
}

/// A block directory outside a forced emission's range holding files tirage did not write
/// stops the emission: replacing the directory would delete them.
#[test]
fn a_forced_emission_keeps_a_stray_directory_of_notes() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    let run = || {
        tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args([
                "--blocks",
                "1..2",
                "--insecure-seed",
                "--seed",
                SEED,
                "-q",
                "--force",
                "--out",
            ])
            .arg(&em)
            .output()
            .unwrap()
    };
    assert_eq!(run().status.code(), Some(0));
    std::fs::create_dir(em.join("block-009")).unwrap();
    std::fs::write(em.join("block-009/notes.txt"), "keep me").unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("(block-009/notes.txt)"), "{err}");
    assert_eq!(
        std::fs::read_to_string(em.join("block-009/notes.txt")).unwrap(),
        "keep me"
    );
}

#[test]
fn a_lot_table_row_whose_printed_total_is_wrong_is_refused_naming_it() {
    let t = tempfile::tempdir().unwrap();
    // The row of 1 000 € (tiers[1]) holds 1 lot: its printed total is 1 000.
    let good = small().replacen(
        "amount = 1000\ncount = 1\n",
        "amount = 1000\ncount = 1\ntotal = 1000\n",
        1,
    );
    assert_ne!(good, small());
    let (code, err) = check_text(t.path(), &good);
    assert_eq!(code, 0, "{err}");
    let typo = good.replacen("total = 1000\n", "total = 100\n", 1);
    let line = typo.lines().position(|l| l == "total = 100").unwrap() + 1;
    let (code, err) = check_text(t.path(), &typo);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "tirage: error: {}:{line}: tiers[1].total (amount 1000): the row says a total of 100, but 1 lots of 1000 make 1000: a typo in the printed table, or in count or amount\n",
            t.path().join("bad.toml").display()
        )
    );
}

/// Byte offset of ticket `t`'s (1-based) print record in tickets.bin bytes `b`.
fn record_at(b: &[u8], t: usize) -> (usize, usize) {
    let rec = u16::from_le_bytes([b[10], b[11]]) as usize;
    let head = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    (head + (t - 1) * rec, rec)
}

/// A replay that does not give the block names the first ticket that differs and what
/// differs on it, not only the files' digests, and how many differ in all.
#[test]
fn a_replay_names_the_first_ticket_that_differs() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let seed = t.path().join("seed");
    std::fs::write(&seed, SEED).unwrap();
    let replay = |dir: &Path| {
        let o = tirage()
            .args(["verify", "--unauthenticated", "--no-audit", "--seed-file"])
            .arg(&seed)
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .arg(dir)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // Ticket 5's validation code changed.
    let p = b.join("tickets.bin");
    let orig = std::fs::read(&p).unwrap();
    let mut bin = orig.clone();
    let (at, rec) = record_at(&bin, 5);
    bin[at + 30] ^= 1;
    std::fs::write(&p, &bin).unwrap();
    let out = replay(&b);
    assert!(
        out.contains("ticket 5 (pack 1, position 5) is the first that is not the one the seed makes: its validation code is not the replay's\n"),
        "{out}"
    );
    // Tickets 7 and 8 swap faces: the first names ticket 7 and the cells that differ.
    let mut bin = orig.clone();
    let (a7, _) = record_at(&bin, 7);
    let (a8, _) = record_at(&bin, 8);
    let f7 = bin[a7 + 38..a7 + rec].to_vec();
    let f8 = bin[a8 + 38..a8 + rec].to_vec();
    assert_ne!(f7, f8);
    bin[a7 + 38..a7 + rec].copy_from_slice(&f8);
    bin[a8 + 38..a8 + rec].copy_from_slice(&f7);
    std::fs::write(&p, &bin).unwrap();
    let out = replay(&b);
    let line = out
        .lines()
        .find(|l| l.contains("is the first that is not the one the seed makes"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains(
            "ticket 7 (pack 1, position 7) is the first that is not the one the seed makes: "
        ),
        "{line}"
    );
    assert!(line.contains(" shows \""), "{line}");
    assert!(line.contains("\", the replay \""), "{line}");
    // Ticket 8 differs too: the finding says how many differ in all, and which.
    assert!(
        line.ends_with("; 2 tickets in all are not the ones the seed makes (tickets 7, 8)"),
        "{line}"
    );
}

/// A validation code met twice in an emission names the tickets and blocks that share it.
#[test]
fn an_emission_wide_duplicate_code_names_both_tickets() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    small_emission(&em);
    let one = std::fs::read(em.join("block-001/tickets.bin")).unwrap();
    let p2 = em.join("block-002/tickets.bin");
    let mut two = std::fs::read(&p2).unwrap();
    let (a3, _) = record_at(&one, 3);
    let (a5, _) = record_at(&two, 5);
    two[a5 + 30..a5 + 38].copy_from_slice(&one[a3 + 30..a3 + 38]);
    std::fs::write(&p2, &two).unwrap();
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg(&em)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text.contains("1 validation codes appear in more than one ticket of the emission; the first: ticket 3 of block-001 and ticket 5 of block-002 share one"),
        "{text}"
    );
}

/// The verdict's "held against" line claims only what was checked: the validation key is
/// what the manifest says unless the block was replayed, and nothing is said of it (nor of
/// how the ticket files were delivered) when no manifest was read.
#[test]
fn the_verdict_claims_only_what_was_checked() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    let held = |extra: &[&str]| {
        let o = tirage()
            .args(["verify", "--unauthenticated", "--no-audit", "-q"])
            .args(extra)
            .arg(&b)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines()
            .find(|l| l.starts_with("held against: "))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    assert!(
        held(&[]).contains("; not replayed; ticket files delivered in clear; the manifest says validation codes under a key of their own"),
        "{}",
        held(&[])
    );
    let seed = t.path().join("seed");
    std::fs::write(&seed, SEED).unwrap();
    let key = repo(VALIDATION_KEY);
    let replayed = held(&[
        "--seed-file",
        seed.to_str().unwrap(),
        "--validation-key",
        key.to_str().unwrap(),
    ]);
    assert!(
        replayed.contains("; replayed byte for byte from its seed; ticket files delivered in clear; validation codes under a key of their own"),
        "{replayed}"
    );
    // A replay that ran and made another tickets.csv (its last byte changed here) is not
    // "not replayed".
    let csv = b.join("tickets.csv");
    let mut text = std::fs::read(&csv).unwrap();
    let last = text.len() - 2;
    text[last] = b'x';
    std::fs::write(&csv, &text).unwrap();
    let differs = held(&[
        "--seed-file",
        seed.to_str().unwrap(),
        "--validation-key",
        key.to_str().unwrap(),
    ]);
    assert!(
        differs.contains("; replayed from its seed: the files differ (see `replay`); ticket files delivered in clear; the manifest says validation codes under a key of their own"),
        "{differs}"
    );
    std::fs::remove_file(b.join("manifest.json")).unwrap();
    assert!(
        held(&[]).contains("; not replayed; no manifest read: nothing said of how the ticket files were delivered or of the validation key"),
        "{}",
        held(&[])
    );
}
