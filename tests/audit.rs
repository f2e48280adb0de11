//! The audit report, the leakage gate, seed shares and the audit replay, on the scaled-down
//! coq spec: through the binary where the command line matters, in process otherwise.

mod common;

use common::*;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tirage::audit::Audit;
use tirage::crypto::rng::{Seed, SeedShare};
use tirage::crypto::validation::ValidationKey;
use tirage::spec::GameSpec;
use tirage::verify::{inspect, Options, SeedInput, VerifyError};

/// Verifies the block in `dir` and builds its audit report.
fn audit(
    dir: &std::path::Path,
    opts: &Options,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Audit, VerifyError> {
    inspect(dir, opts, progress).map(Audit::build)
}

/// The directory beside block `b` that receives its audit report: `<b>.audit`.
fn beside(b: &Path) -> PathBuf {
    let name = b.file_name().unwrap().to_str().unwrap();
    b.with_file_name(format!("{name}.audit"))
}

/// The mode bits of `p` (permissions only).
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn small_spec() -> PathBuf {
    repo("tests/specs/coq_small.toml")
}

fn seed() -> Seed {
    Seed::from_hex(SEED).unwrap()
}

/// The test validation key.
fn validation_key() -> ValidationKey {
    ValidationKey::from_hex(&std::fs::read_to_string(repo(VALIDATION_KEY)).unwrap()).unwrap()
}

/// Generates block 1 of the small spec in process into `out`.
fn generate_lib(out: &Path, seed: &Seed) {
    let spec = GameSpec::load(&small_spec()).unwrap();
    let key = validation_key();
    let plan = tirage::generate::BlockPlan::production(&spec, seed, 1)
        .unwrap()
        .validated_by(&key);
    tirage::generate::place(&plan, out, true, None).unwrap();
}

fn sha(b: &[u8]) -> String {
    hex::encode(Sha256::digest(b))
}

/// Rewrites manifest.json's file digests and SHA256SUMS so that they match the files
/// (what a forger would do after editing the ticket files).
fn fix_digests(d: &Path) {
    let mpath = d.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    for f in m["files"].as_array_mut().unwrap() {
        let b = std::fs::read(d.join(f["name"].as_str().unwrap())).unwrap();
        f["sha256"] = sha(&b).into();
        f["bytes"] = b.len().into();
    }
    let mut mj = serde_json::to_vec_pretty(&m).unwrap();
    mj.push(b'\n');
    std::fs::write(&mpath, &mj).unwrap();
    let mut sums = String::new();
    let mut names: Vec<String> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_string())
        .collect();
    names.push("manifest.json".into());
    for name in &names {
        let b = std::fs::read(d.join(name)).unwrap();
        sums += &format!("{}  {name}\n", sha(&b));
    }
    std::fs::write(d.join("SHA256SUMS"), sums).unwrap();
}

/// The 32 bytes of the share in file `f`.
fn a_share(f: &Path) -> [u8; 32] {
    SeedShare::from_hex(&std::fs::read_to_string(f).unwrap())
        .unwrap()
        .0
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn check<'a>(report: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap()
}

#[test]
fn verify_writes_the_audit_beside_the_block_and_rewrites_it() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 2);
    // The report's date pinned (SOURCE_DATE_EPOCH): two runs give the same bytes.
    let pinned = || {
        tirage()
            .args(["verify", "--unauthenticated", "-q"])
            .arg(&b)
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(pinned(), Some(0));
    let files = ["audit.md", "audit.json", "audit.pdf", "audit.svg"];
    let first: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(beside(&b).join(f)).unwrap_or_else(|_| panic!("{f} missing")))
        .collect();
    // A second run is still clean (the audit files are not deliverables), replaces the
    // files with the same content and leaves no temporary file behind.
    std::fs::write(beside(&b).join("audit.md"), "stale").unwrap();
    assert_eq!(pinned(), Some(0));
    for (f, bytes) in files.iter().zip(&first) {
        assert_eq!(
            &std::fs::read(beside(&b).join(f)).unwrap(),
            bytes,
            "{f} differs"
        );
    }
    // Nothing of the report inside the block, which is what is delivered; beside it, the
    // four files (0600) in a directory only its owner enters (0700).
    let names = |d: &Path| -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(
        names(&b),
        [
            "SHA256SUMS",
            "manifest.json",
            "spec.toml",
            "tickets.bin",
            "tickets.csv",
            "validation.csv"
        ]
    );
    assert_eq!(
        names(&beside(&b)),
        ["audit.json", "audit.md", "audit.pdf", "audit.svg"]
    );
    assert_eq!(mode(&beside(&b)), 0o700);
    for f in files {
        assert_eq!(mode(&beside(&b).join(f)), 0o600, "{f}");
    }

    let a = json(&beside(&b).join("audit.json"));
    assert_eq!(a["format"], "tirage-audit/1");
    assert_eq!(a["verdict"], "clean");
    assert_eq!(a["report"]["clean"], true);
    assert_eq!(a["report"]["checks"].as_array().unwrap().len(), 23);
    assert_eq!(check(&a["report"], "signature")["result"], "skipped");
    assert_eq!(check(&a["report"], "replay")["result"], "skipped");
    // No share, no beacon, nothing published: the ceremony does not apply; nor do pack
    // constraints the spec does not state.
    assert_eq!(check(&a["report"], "ceremony")["result"], "n/a");
    assert_eq!(check(&a["report"], "pack_rules")["result"], "n/a");
    // A production block promises no feature: the procedure passes with nothing to check.
    assert_eq!(check(&a["report"], "features")["result"], "pass");
    assert_eq!(a["report"]["promised"].as_array().unwrap().len(), 0);
    assert_eq!(check(&a["report"], "leakage")["result"], "pass");
    assert_eq!(a["totals"]["payout"], "25294");
    assert_eq!(a["totals"]["lots"], 919);
    assert_eq!(a["tiers"][0]["amount"], "20000");
    assert_eq!(a["tiers"][0]["found"], 1);
    assert_eq!(a["randomness"]["statistics"].as_array().unwrap().len(), 11);
    assert_eq!(a["leakage"].as_array().unwrap().len(), 6);
    assert_eq!(a["report"]["files"].as_array().unwrap().len(), 6);
    assert_eq!(
        a["verified_by"]["cargo_lock_sha256"],
        sha(&std::fs::read(repo("Cargo.lock")).unwrap())
    );
    assert_eq!(a["generated_by"], a["verified_by"]);
    assert_eq!(a["date_utc"], "2023-11-14 22:13:20 UTC");
    assert_eq!(a["game"]["name"], "ASTRO ANNEE DU COQ");
    assert_eq!(a["game"]["game_code"], 1703);
    assert_eq!(a["auditor"], serde_json::Value::Null);
    assert_eq!(a["replay_seed"], serde_json::Value::Null);

    let md = std::fs::read_to_string(beside(&b).join("audit.md")).unwrap();
    for s in [
        "## 1. Procedures and findings",
        "**Verdict: CLEAN.**",
        "pack_dispersion",
        "serial_ranks",
        "## 6. Leakage gate",
        "## 7. Audit replay",
        "Skipped: no seed was given",
        "![winners per full pack and gaps between winners, as histograms](audit.svg)",
        "git commit",
        "| date and time of the procedures (UTC) | 2023-11-14 22:13:20 UTC |",
        "| game | ASTRO ANNEE DU COQ |",
        "| game code / emission / block | 1703 / 1 / 1 |",
        "| kind | TEST BLOCK (a production block made with a test seed, never for sale) |",
        "| auditor | (not named: `tirage verify --auditor NAME`) |",
        "| replay used | no replay (no seed given) |",
        "Held against: UNAUTHENTICATED: no signature checked; lot table: only the block's own spec copy (no --spec);",
        "## Sign-off",
        "| name | (not named) | (not named) |",
        // 25,294 EUR paid on 3,000 tickets at 2 EUR, as a percentage like the rest.
        "): 421.57 % found over 3000 tickets, 421.57 % required over 3000 tickets.",
    ] {
        assert!(md.contains(s), "audit.md lacks {s:?}");
    }
    let svg = std::fs::read_to_string(beside(&b).join("audit.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("Distribution of winners per full pack"));
}

/// An explicit `--report DIR` that already holds a report is refused (exit 2, naming it,
/// the report untouched) unless `--force` is given; then the new report takes the
/// directory's place as a whole (a new directory, mode 0700, nothing left beside it), and a
/// directory holding a file of the user's keeps it. `--force` means nothing without
/// `--report`.
#[test]
fn a_report_dir_holding_a_report_is_replaced_only_with_force() {
    use std::os::unix::fs::MetadataExt;
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 1);
    let r = t.path().join("audit-out");
    let run = |extra: &[&str], epoch: &str| {
        tirage()
            .args(["verify", "--unauthenticated", "-q", "--report"])
            .arg(&r)
            .arg(&b)
            .args(extra)
            .env("SOURCE_DATE_EPOCH", epoch)
            .output()
            .unwrap()
    };
    assert_eq!(run(&[], "1700000000").status.code(), Some(0));
    let first = std::fs::read(r.join("audit.md")).unwrap();
    let ino = std::fs::metadata(&r).unwrap().ino();
    let o = run(&[], "1800000000");
    assert_eq!(
        (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()),
        (
            Some(2),
            format!(
                "tirage: error: --report {}: it already holds an audit report ({}); nothing was done: --force replaces it, or give another directory\n",
                r.display(),
                r.join("audit.md").display()
            )
        )
    );
    assert_eq!(std::fs::read(r.join("audit.md")).unwrap(), first);
    let o = run(&["--force"], "1800000000");
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let second = std::fs::read_to_string(r.join("audit.md")).unwrap();
    assert!(second.contains("2027-01-15 08:00:00 UTC"), "{second}");
    let meta = std::fs::metadata(&r).unwrap();
    assert_ne!(
        meta.ino(),
        ino,
        "the report directory is replaced as a whole"
    );
    assert_eq!(meta.mode() & 0o7777, 0o700);
    let mut names: Vec<String> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with(".tirage-lock"))
        .collect();
    names.sort();
    assert_eq!(names, ["audit-out", "b"]);
    let mut files: Vec<String> = std::fs::read_dir(&r)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, ["audit.json", "audit.md", "audit.pdf", "audit.svg"]);
    // A file of the user's in the directory stays.
    std::fs::write(r.join("notes.txt"), "mine").unwrap();
    assert_eq!(run(&["--force"], "1700000000").status.code(), Some(0));
    assert_eq!(std::fs::read(r.join("audit.md")).unwrap(), first);
    assert_eq!(
        std::fs::read_to_string(r.join("notes.txt")).unwrap(),
        "mine"
    );
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q", "--force"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn report_dir_receives_the_audit_and_the_block_is_untouched() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 2);
    let r = t.path().join("audit-out");
    let out = tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&r)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(r.join("audit.md").is_file() && r.join("audit.json").is_file());
    assert!(!b.join("audit.md").exists() && !beside(&b).exists());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // An earlier report beside the block, this run writing none there: said, left alone.
    assert_eq!(verify_code(&b), 0);
    let before = std::fs::read(beside(&b).join("audit.md")).unwrap();
    let out = tirage()
        .args(["verify", "--unauthenticated", "-q", "--no-audit"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("audit.md is an earlier run's report, not this run's (this run: clean)"),
        "{err}"
    );
    assert_eq!(std::fs::read(beside(&b).join("audit.md")).unwrap(), before);
}

/// A seed ceremony through the binary: shares made with `seed new`, commitments published
/// with `seed commit`, a block generated from the shares against the commitments, the
/// manifest recording exactly the published lines, and the replay from the shares.
#[test]
fn seed_shares_generate_and_replay() {
    let t = tempfile::tempdir().unwrap();
    let (fa, fb) = (t.path().join("a.share"), t.path().join("b.share"));
    let commitments = t.path().join("commitments.txt");
    let mut published = String::new();
    for f in [&fa, &fb] {
        tirage()
            .args(["seed", "new", "--out"])
            .arg(f)
            .assert()
            .success();
        let out = tirage()
            .args(["seed", "commit"])
            .arg(f)
            .arg("--spec")
            .arg(small_spec())
            .args(["--blocks", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        published.push_str(&String::from_utf8(out.stdout).unwrap());
    }
    std::fs::write(&commitments, &published).unwrap();
    let key = repo(VALIDATION_KEY);
    let gen = |out: &Path, shares: &[&Path]| {
        let mut c = tirage();
        c.args(["generate", "-q", "--out"])
            .arg(out)
            .arg(small_spec())
            .arg("--validation-key")
            .arg(&key)
            .arg("--commitments")
            .arg(&commitments);
        for p in shares {
            c.arg("--seed-share").arg(p);
        }
        c.output().unwrap()
    };
    let blk = t.path().join("blk");
    assert_eq!(gen(&blk, &[&fa, &fb]).status.code(), Some(0));
    assert!(
        !t.path().join("blk.seed").exists(),
        "no seed file for shares"
    );
    let m = json(&blk.join("manifest.json"));
    let lines: Vec<&str> = published.lines().collect();
    assert_eq!(m["seed_shares"], serde_json::json!(lines));
    let read = |f: &Path| SeedShare::from_hex(&std::fs::read_to_string(f).unwrap()).unwrap();
    let (a, bb) = (read(&fa), read(&fb));
    assert!(
        tirage::crypto::ceremony::opens(lines[0], &a)
            && tirage::crypto::ceremony::opens(lines[1], &bb)
    );
    let combined = Seed::from_shares(&[a.clone(), bb.clone()]);
    assert_eq!(m["seed_commitment"], combined.commitment());
    for f in ["tickets.csv", "tickets.bin", "manifest.json", "SHA256SUMS"] {
        let text = String::from_utf8_lossy(&std::fs::read(blk.join(f)).unwrap()).to_lowercase();
        for secret in [hex::encode(a.0), hex::encode(bb.0), combined.to_hex()] {
            assert!(!text.contains(&secret), "{f} holds a secret");
        }
    }

    // Shares given in the other order do not open the commitments: refused, nothing made.
    let refused = t.path().join("refused");
    let out = gen(&refused, &[&fb, &fa]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("does not open commitment 1"), "{err}");
    assert!(!refused.exists());
    // A party that changed its share after the commitments were published: refused.
    let fc = t.path().join("c.share");
    tirage()
        .args(["seed", "new", "--out"])
        .arg(&fc)
        .assert()
        .success();
    let out = gen(&refused, &[&fa, &fc]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("does not open commitment 2"), "{err}");
    // One party alone, or one share given twice: refused before anything is made.
    let fa2 = t.path().join("a-again.share");
    std::fs::copy(&fa, &fa2).unwrap();
    for (shares, says) in [
        (vec![fa.as_path()], "needs at least two"),
        (vec![&fa, &fb, &fa2], "hold the same share"),
    ] {
        let out = gen(&refused, &shares);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(!refused.exists());
    }

    let run = |args: &[&Path]| {
        let mut c = tirage();
        c.args(["verify", "--unauthenticated", "-q", "--json", "--no-audit"])
            .arg(&blk)
            .arg("--validation-key")
            .arg(&key);
        for p in args {
            c.arg("--seed-share").arg(p);
        }
        let out = c.output().unwrap();
        (
            out.status.code().unwrap(),
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(),
        )
    };
    let (code, r) = run(&[&fa, &fb]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(check(&r, "replay")["result"], "pass");
    // The audit says which commitments the shares of the replay opened, never a share.
    let report = t.path().join("report");
    let mut c = tirage();
    c.args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&report)
        .arg(&blk)
        .arg("--validation-key")
        .arg(&key);
    for p in [&fa, &fb] {
        c.arg("--seed-share").arg(p);
    }
    assert_eq!(c.output().unwrap().status.code(), Some(0));
    let a = json(&report.join("audit.json"));
    assert_eq!(
        a["replay_seed"],
        serde_json::json!({"seed_commitment": combined.commitment(), "share_commitments": lines})
    );
    let md = std::fs::read_to_string(report.join("audit.md")).unwrap();
    assert!(
        md.contains(&format!(
            "| replay used | 2 seed shares (`--seed-share`), in order opening the commitments 1: `{}`, 2: `{}`",
            lines[0], lines[1]
        )),
        "{md}"
    );
    for secret in [hex::encode(a_share(&fa)), hex::encode(a_share(&fb))] {
        for f in ["audit.md", "audit.json"] {
            let text = std::fs::read_to_string(report.join(f))
                .unwrap()
                .to_lowercase();
            assert!(!text.contains(&secret), "{f} holds a share");
        }
    }
    // The shares in the wrong order: the operator's mistake, said before any check.
    let mut c = tirage();
    c.args(["verify", "--unauthenticated", "-q", "--json", "--no-audit"])
        .arg(&blk)
        .arg("--validation-key")
        .arg(&key);
    for p in [&fb, &fa] {
        c.arg("--seed-share").arg(p);
    }
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "tirage: error: the shares are given in another order than generation's: share 1 opens commitment 2, share 2 opens commitment 1 of the manifest's seed_shares; give --seed-share in the commitments' order: {}, {}\n",
            fa.display(),
            fb.display()
        )
    );
    // A manifest tampered with to record the commitments in the other order (and the seed
    // they make so): it is a finding, and orders nothing; the shares given in generation's
    // order are replayed.
    let tampered = t.path().join("tampered");
    copy_dir(&blk, &tampered);
    let mut m = json(&blk.join("manifest.json"));
    m["seed_shares"] = serde_json::json!([lines[1], lines[0]]);
    m["seed_commitment"] = Seed::from_shares(&[read(&fb), read(&fa)])
        .commitment()
        .into();
    std::fs::write(
        tampered.join("manifest.json"),
        serde_json::to_vec_pretty(&m).unwrap(),
    )
    .unwrap();
    let mut c = tirage();
    c.args(["verify", "--unauthenticated", "-q", "--json", "--no-audit"])
        .arg(&tampered)
        .arg("--validation-key")
        .arg(&key);
    for p in [&fa, &fb] {
        c.arg("--seed-share").arg(p);
    }
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sums = check(&r, "sha256sums");
    assert_eq!(sums["result"], "fail");
    assert!(
        sums["examples"].to_string().contains("manifest.json"),
        "{sums}"
    );
    // A share of another ceremony in the place of one: not this block's seed, a finding.
    let fd = t.path().join("d.share");
    tirage()
        .args(["seed", "new", "--out"])
        .arg(&fd)
        .assert()
        .success();
    let (code, r) = run(&[&fa, &fd]);
    assert_eq!(code, 1);
    let replay = check(&r, "replay");
    assert_eq!(replay["result"], "fail");
    let text = replay["examples"].to_string();
    assert!(
        text.contains(
            "seed share 2 does not open the commitment the manifest records at that place"
        ),
        "{text}"
    );
    assert!(text.contains("not this block's seed"), "{text}");
    // The combined seed given whole replays too.
    let sf = t.path().join("combined.seed");
    std::fs::write(&sf, combined.to_hex()).unwrap();
    let out = tirage()
        .args([
            "verify",
            "--unauthenticated",
            "-q",
            "--no-audit",
            "--seed-file",
        ])
        .arg(&sf)
        .arg("--validation-key")
        .arg(&key)
        .arg(&blk)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

/// The replay in process: byte-identical files for the right seed, and a block re-made from
/// another seed under the committed seed's manifest passes every other procedure but not the
/// replay.
#[test]
fn replay_confirms_identical_bytes_and_catches_a_swapped_block() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate_lib(&b, &seed());
    let key = validation_key();
    let opts = Options {
        seed: Some(SeedInput::whole(seed())),
        validation_key: Some(&key),
        ..Options::default()
    };
    let a = audit(&b, &opts, &|_| {}).unwrap();
    assert!(a.report.clean);
    let files = a.replay.as_ref().unwrap();
    assert_eq!(
        files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
        [
            "tickets.csv",
            "tickets.bin",
            "validation.csv",
            "spec.toml",
            "manifest.json",
            "SHA256SUMS"
        ]
    );
    assert!(files.iter().all(|f| f.identical), "{files:?}");
    assert!(a.to_markdown().contains("| tickets.csv | `"));

    // The swapped block: generated from another seed, its manifest edited to carry the
    // committed seed's commitment, digests fixed.
    let other = t.path().join("other");
    generate_lib(&other, &Seed([7; 32]));
    let mpath = other.join("manifest.json");
    let text = std::fs::read_to_string(&mpath).unwrap();
    std::fs::write(
        &mpath,
        text.replace(&Seed([7; 32]).commitment(), &seed().commitment()),
    )
    .unwrap();
    fix_digests(&other);
    let plain = audit(&other, &Options::default(), &|_| {}).unwrap();
    assert!(plain.report.clean, "{}", plain.report.to_text());
    let a = audit(&other, &opts, &|_| {}).unwrap();
    assert!(!a.report.clean);
    let bad: Vec<&str> = a
        .replay
        .as_ref()
        .unwrap()
        .iter()
        .filter(|f| !f.identical)
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(
        bad,
        [
            "tickets.csv",
            "tickets.bin",
            "validation.csv",
            "manifest.json",
            "SHA256SUMS"
        ]
    );
    assert_eq!(a.verdict, "findings");
}

/// A test-only leaky serial scheme, end to end: the check digit of every serial is the win
/// flag, in tickets.bin and tickets.csv, digests fixed. The leakage gate fails (as does the
/// serial check, which knows the documented scheme) and verify exits 1.
#[test]
fn a_leaky_serial_scheme_fails_the_leakage_gate() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 2);
    let csv = std::fs::read_to_string(b.join("tickets.csv")).unwrap();
    let mut lines: Vec<String> = csv.lines().map(String::from).collect();
    let mut wins = Vec::new();
    for l in lines.iter_mut().skip(1) {
        let mut f: Vec<String> = l.split(',').map(String::from).collect();
        let win = f[5] != "0";
        let mut s = f[4].clone();
        s.pop();
        s.push(if win { '1' } else { '0' });
        f[4] = s;
        wins.push(win);
        *l = f.join(",");
    }
    std::fs::write(b.join("tickets.csv"), lines.join("\n") + "\n").unwrap();
    let mut bin = std::fs::read(b.join("tickets.bin")).unwrap();
    let header = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as usize;
    let rec = u16::from_le_bytes([bin[10], bin[11]]) as usize;
    for (i, &w) in wins.iter().enumerate() {
        bin[header + i * rec + 10 + 19] = if w { b'1' } else { b'0' };
    }
    std::fs::write(b.join("tickets.bin"), &bin).unwrap();
    fix_digests(&b);

    let out = tirage()
        .args(["verify", "--unauthenticated", "-q", "--json"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let leak = check(&r, "leakage");
    assert_eq!(leak["result"], "fail", "{leak:#}");
    assert!(leak["examples"][0]["detail"]
        .as_str()
        .unwrap()
        .starts_with("serial_check_digit"));
    assert_eq!(check(&r, "sha256sums")["result"], "pass");
    let a = json(&beside(&b).join("audit.json"));
    let f = a["leakage"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "serial_check_digit")
        .unwrap();
    assert_eq!(f["result"], "fail");
    assert_eq!(f["values"], 2);
}

/// Exceptions are not findings: the same clean block, its evaluated ways replaced by a
/// biased arrangement (winners crowded into the first packs), gives exceptions in the audit
/// while verify's report stays clean.
#[test]
fn flagged_statistics_are_exceptions_not_findings() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate_lib(&b, &seed());
    let mut v = inspect(&b, &Options::default(), &|_| {}).unwrap();
    assert_eq!(v.ways.len(), 3000);
    // Stable sort: winners first, each group in its original order.
    v.ways.sort_by_key(|&w| w == 0);
    let a = tirage::audit::Audit::build(v);
    assert!(a.report.clean);
    assert_eq!(a.verdict, "clean, with exceptions");
    let ids: Vec<&str> = a.exceptions.iter().map(|x| x.id.as_str()).collect();
    assert!(ids.contains(&"pack_dispersion"), "{ids:?}");
    assert!(ids.contains(&"runs"), "{ids:?}");
    assert!(a.to_markdown().contains("1 % of honest blocks"));
}

/// The ticket pass's way of every ticket, in print order, is exactly the allocation the
/// generator made (the evaluation of every face recovers it).
#[test]
fn evaluated_ways_are_the_allocation() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate_lib(&b, &seed());
    let v = inspect(&b, &Options::default(), &|_| {}).unwrap();
    let spec = GameSpec::load(&small_spec()).unwrap();
    let counts: Vec<u32> = spec.ways.iter().map(|w| w.count).collect();
    let keys = seed().bound_to(spec.game_code, spec.emission, &spec.sha256);
    assert_eq!(v.ways, tirage::alloc::allocate(&counts, &keys, 1));
    assert_eq!(v.leakage.as_ref().unwrap().len(), 6);
    assert!(v.replay.is_none());
}

/// A forged manifest whose digests and SHA256SUMS are made to match: every field verify can
/// derive again (tier counts, payout ratio, record counts, the form of commitments and tool
/// identity, allocation attempts) is a manifest finding; a print file with bytes past its
/// last whole record is a record-count finding.
#[test]
fn a_forged_manifest_with_matching_digests_is_caught() {
    let t = tempfile::tempdir().unwrap();
    let base = t.path().join("base");
    generate(&small_spec(), &base, 1);
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 9] = [
        (
            "seed share commitment 1: expected a share commitment",
            |m| m["seed_shares"] = serde_json::json!(["a".repeat(64), "a".repeat(64)]),
        ),
        ("a version (letters, digits, . + -)", |m| {
            m["tool"]["version"] = "0.1\u{202e}<script>".into()
        }),
        ("spec file \"other.toml\", expected \"spec.toml\"", |m| {
            m["spec"]["file"] = "other.toml".into()
        }),
        ("tier 20000: count 2, its ways add up to 1", |m| {
            m["tiers"][0]["count"] = 2.into()
        }),
        ("payout ratio 0.5, its payout and sales give", |m| {
            m["payout_ratio"] = 0.5.into()
        }),
        ("tickets.bin: 5 records, expected 3,000", |m| {
            m["files"][1]["records"] = 5.into()
        }),
        (
            "seed commitment \"zz\" is not 64 lowercase hex digits",
            |m| m["seed_commitment"] = "zz".into(),
        ),
        ("tool: expected name \"tirage\"", |m| {
            m["tool"]["git_commit"] = "not a commit".into()
        }),
        ("999 allocation attempt(s)", |m| {
            m["allocation_attempts"] = 999.into()
        }),
    ];
    for (i, (says, edit)) in edits.iter().enumerate() {
        let d = t.path().join(format!("m{i}"));
        common::copy_dir(&base, &d);
        let mut m = json(&d.join("manifest.json"));
        edit(&mut m);
        std::fs::write(
            d.join("manifest.json"),
            serde_json::to_vec_pretty(&m).unwrap(),
        )
        .unwrap();
        fix_digests(&d);
        let (code, r) = verify_json(&d);
        assert_eq!(code, 1, "{says}");
        let (result, details) = check_result(&r, "manifest");
        assert_eq!(result, "fail", "{says}");
        assert!(
            details.iter().any(|d| d.contains(says)),
            "{says}: {details:?}"
        );
    }
    // Seven bytes past the last record of the print file, digests made to match.
    let d = t.path().join("junk");
    common::copy_dir(&base, &d);
    let mut bin = std::fs::read(d.join("tickets.bin")).unwrap();
    bin.extend_from_slice(b"1234567");
    std::fs::write(d.join("tickets.bin"), &bin).unwrap();
    fix_digests(&d);
    let (code, r) = verify_json(&d);
    assert_eq!(code, 1);
    let (result, details) = check_result(&r, "record_count");
    assert_eq!(result, "fail");
    assert!(
        details.iter().any(|d| d.contains("then 7 bytes more")),
        "{details:?}"
    );
}

/// The audit report describes the tiers too small to test (the top prizes) by statistics
/// alone: neither audit.json nor audit.md gives their ticket numbers, which would be a map
/// of the top prizes handed to everyone who reads the report.
#[test]
fn the_audit_never_lists_where_the_top_prizes_are() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 1);
    tirage()
        .args(["verify", "--unauthenticated", "-q"])
        .arg(&b)
        .assert()
        .success();
    // The rare tiers' tickets, from the auditor's own file.
    let text = std::fs::read_to_string(b.join("tickets.csv")).unwrap();
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (ti, pi) = (col("ticket"), col("prize"));
    let mut by_prize: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        by_prize
            .entry(f[pi].to_string())
            .or_default()
            .push(f[ti].parse().unwrap());
    }
    let a = json(&beside(&b).join("audit.json"));
    let small = a["randomness"]["small_tiers"].as_array().unwrap();
    assert!(!small.is_empty());
    for tier in small {
        let tickets = &by_prize[tier["amount"].as_str().unwrap()];
        assert_eq!(tier["count"], tickets.len());
        for k in ["positions", "closest", "packs"] {
            assert!(tier.get(k).is_none(), "{tier}");
        }
    }
    assert!(!std::fs::read_to_string(beside(&b).join("audit.json"))
        .unwrap()
        .contains("\"positions\": ["));
    let md = std::fs::read_to_string(beside(&b).join("audit.md")).unwrap();
    assert!(
        md.contains("Their positions, gaps and packs are not published"),
        "{md}"
    );
    assert!(
        md.contains("described by their counts alone: 20000 (1 ticket), 1000 (1 ticket), 200 (2 tickets), 30 (3 tickets)."),
        "{md}"
    );
}

/// The texts of an SVG drawn by tirage (each `<text …>…</text>`), unescaped.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = t.split_once('>')?.1;
            Some(
                body.split_once("</text>")?
                    .0
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&"),
            )
        })
        .collect()
}

/// The report an auditor signs: the parties named on the command line, the date, the game,
/// what the counts were held against (said in the verdict, so the report with `--spec`
/// differs from the one without), in audit.md, audit.json and audit.pdf (as text a reader
/// finds), with a signature block.
#[test]
fn the_audit_names_its_parties_and_what_the_counts_were_held_against() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 1);
    let run = |report: &str, spec: bool| {
        let mut c = tirage();
        c.args(["verify", "--unauthenticated", "-q", "--report"])
            .arg(t.path().join(report))
            .args([
                "--auditor",
                "Claire Dupont",
                "--operator",
                "Jeux Opérations",
            ])
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .arg(&b);
        if spec {
            c.arg("--spec").arg(small_spec());
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let held = run("with", true);
    run("without", false);
    let spec_sha = sha(&std::fs::read(small_spec()).unwrap());
    let with = std::fs::read_to_string(t.path().join("with/audit.md")).unwrap();
    let without = std::fs::read_to_string(t.path().join("without/audit.md")).unwrap();
    assert_ne!(with, without);
    let verdict = format!("**Verdict: CLEAN.** Held against: UNAUTHENTICATED: no signature checked; lot table held against the reference spec (SHA-256 {spec_sha});");
    assert!(with.contains(&verdict), "{with}");
    assert!(with.contains(&format!(
        "| lot table held against | the reference spec given with --spec (SHA-256 `{spec_sha}`) |"
    )));
    assert!(without.contains(
        "| lot table held against | only the block's own spec copy (no reference spec: --spec) |"
    ));
    // A reference spec of another lot table: the counts are the block's own copy's, and
    // the report says so rather than that they were held against the reference.
    let tiny = repo("tests/specs/coq_tiny.toml");
    let tiny_sha = sha(&std::fs::read(&tiny).unwrap());
    let out = tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(t.path().join("other"))
        .arg("--spec")
        .arg(&tiny)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let other = std::fs::read_to_string(t.path().join("other/audit.md")).unwrap();
    let said = format!("only the block's own spec copy, which differs from the reference spec given with --spec (SHA-256 `{tiny_sha}`) in ");
    assert!(
        other.contains(&format!("| lot table held against | {said}")),
        "{other}"
    );
    assert!(other.contains(&format!("Held against: UNAUTHENTICATED: no signature checked; lot table: only the block's own spec copy, which differs from the reference spec (SHA-256 {tiny_sha}) (see `spec`);")), "{other}");
    assert!(
        !other.contains("held against the reference spec"),
        "{other}"
    );
    // -q: the verdict alone.
    assert_eq!(held.lines().count(), 2, "{held}");
    // A block of the test seed: clean as a test block, and said so.
    assert!(
        held.starts_with("verify: CLEAN, as a TEST BLOCK (made with a test seed, never for sale)\nheld against: "),
        "{held}"
    );
    for s in [
        "| auditor | Claire Dupont |",
        "| operator | Jeux Opérations |",
        "| name | Claire Dupont | Jeux Opérations |",
        "| legal reference | Règlement particulier « ASTRO ANNEE DU COQ », JORF n°0303 du 30 décembre 2016 |",
    ] {
        assert!(with.contains(s), "audit.md lacks {s:?}");
    }
    let a = json(&t.path().join("with/audit.json"));
    assert_eq!(a["auditor"], "Claire Dupont");
    assert_eq!(a["operator"], "Jeux Opérations");
    assert_eq!(a["date_utc"], "2023-11-14 22:13:20 UTC");
    assert!(a["host"].as_str().is_some_and(|h| !h.is_empty()));
    assert_eq!(
        a["game"]["legal_reference"],
        "Règlement particulier « ASTRO ANNEE DU COQ », JORF n°0303 du 30 décembre 2016"
    );

    let pdf = t.path().join("with/audit.pdf");
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-1.7"));
    let out = std::process::Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    let text = String::from_utf8(out.stdout).unwrap();
    for s in [
        "Audit report — coq, block 1",
        "2023-11-14 22:13:20 UTC",
        "Claire Dupont",
        "Jeux Opérations",
        "ASTRO ANNEE DU COQ",
        "Verdict: CLEAN.",
        "lot table held against the reference spec",
        "Distribution of winners per full pack (20 packs) against its law",
        "Sign-off",
        "Signature",
        "page 1 of ",
    ] {
        assert!(text.contains(s), "audit.pdf lacks {s:?}");
    }
    assert!(!text.contains('?'), "a sign the PDF fonts lack: {text}");

    // A name that is no name, a malformed SOURCE_DATE_EPOCH: refused (exit 2).
    let out = tirage()
        .args([
            "verify",
            "--unauthenticated",
            "--auditor",
            " ",
            "--no-audit",
        ])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg(&b)
        .env("SOURCE_DATE_EPOCH", "yesterday")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "SOURCE_DATE_EPOCH=\"yesterday\": expected whole seconds since 1970-01-01 00:00:00 UTC"
    ));
}

/// A deck smaller than a pack, and one ending in a short pack: each pack is read against
/// the expectation for its own size, the summary describes the deck, the chart draws no
/// empty panel.
#[test]
fn decks_are_described_pack_by_pack_for_their_size() {
    let t = tempfile::tempdir().unwrap();
    let deck = |spec: &str, out: &str, extra: &[&str]| {
        let d = t.path().join(out);
        tirage()
            .arg("deck")
            .arg(repo(spec))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
            .arg(&d)
            .args(extra)
            .assert()
            .success();
        assert_eq!(verify_code(&d), 0);
        d
    };
    // 56 tickets (24 winners), packs of 100: one short pack, no full one.
    let d = deck("tests/specs/poker_small.toml", "poker", &[]);
    let a = json(&beside(&d).join("audit.json"));
    assert_eq!(
        a["randomness"]["packs"],
        serde_json::json!({"packs": 1, "pack_size": 100, "full_packs": 0, "min": 24, "max": 24,
            "pack_tickets": 56, "mean": 24.0, "expected": 24.0, "expected_sd": 0.0,
            "short_pack": {"tickets": 56, "expected": 24.0, "expected_sd": 0.0}})
    );
    let texts = svg_texts(&std::fs::read_to_string(beside(&d).join("audit.svg")).unwrap());
    assert!(
        !texts
            .iter()
            .any(|t| t.starts_with("Distribution of winners") || t.starts_with("Gaps between")),
        "{texts:?}"
    );
    assert!(texts.contains(&"Not drawn: the gaps between winners of a tier (no tier has 1000 tickets or more; rarer tiers are described by their counts and p-values alone).".to_string()), "{texts:?}");
    assert!(texts.contains(&"Not drawn: the distribution of winners per full pack (0 full pack(s) of 100 tickets; it needs two).".to_string()));
    // The counts are held against the deck's own: every tier agrees, the totals are the
    // deck's, the payout ratio is over its 56 tickets.
    let m = json(&d.join("manifest.json"));
    for (tier, want) in a["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .zip(m["tiers"].as_array().unwrap())
    {
        assert_eq!(tier["expected"], want["count"], "{tier}");
        assert_eq!(tier["found"], want["count"], "{tier}");
    }
    let totals = &a["totals"];
    assert_eq!(totals["lots_expected"], m["lots"]);
    assert_eq!(totals["payout_expected"], m["payout"]);
    let ratio = m["payout"].as_str().unwrap().parse::<f64>().unwrap() / (56.0 * 3.0);
    assert!((totals["payout_ratio_expected"].as_f64().unwrap() - ratio).abs() < 1e-9);

    // 400 tickets in packs of 150: two full packs and a short one of 100.
    let d = deck("tests/specs/coq_small.toml", "coq", &["--tickets", "400"]);
    let a = json(&beside(&d).join("audit.json"));
    // Titled as a specimen deck, never as a block 0 of the emission.
    let md = std::fs::read_to_string(beside(&d).join("audit.md")).unwrap();
    assert_eq!(
        md.lines().next(),
        Some("# Audit report — coq, specimen deck")
    );
    assert!(md.contains("performed by `tirage verify` on the specimen deck in"));
    let texts = svg_texts(&std::fs::read_to_string(beside(&d).join("audit.svg")).unwrap());
    assert!(
        texts.contains(&"tirage audit — coq specimen deck".to_string()),
        "{texts:?}"
    );
    let p = &a["randomness"]["packs"];
    assert_eq!(
        (p["packs"].as_u64(), p["full_packs"].as_u64()),
        (Some(3), Some(2))
    );
    let lots = json(&d.join("manifest.json"))["lots"].as_u64().unwrap() as f64;
    assert_eq!(p["short_pack"]["tickets"], 100);
    let e = p["short_pack"]["expected"].as_f64().unwrap();
    assert!((e - 100.0 * lots / 400.0).abs() < 1e-9, "{e} {lots}");
    assert!((p["expected"].as_f64().unwrap() - 150.0 * lots / 400.0).abs() < 1e-9);
}

#[test]
fn another_blocks_directory_never_receives_a_report() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    deck(&small_spec(), &a);
    deck(&small_spec(), &b);
    let before = std::fs::read(beside(&b).join("audit.md")).ok();
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&b)
        .arg(&a)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: --report {}: that is another block's directory; its report would be replaced by this block's: give a directory of its own\n",
            b.display()
        )
    );
    assert_eq!(std::fs::read(beside(&b).join("audit.md")).ok(), before);
}

#[test]
fn a_killed_runs_temporary_report_files_are_removed_by_the_next_run() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("d");
    deck(&small_spec(), &d);
    std::fs::create_dir(beside(&d)).unwrap();
    let stale = beside(&d).join(".audit.json.Xk3v9Q.tmp");
    let fresh = beside(&d).join(".audit.md.Yq1w2E.tmp");
    for p in [&stale, &fresh] {
        std::fs::write(p, "half a report").unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    assert_eq!(verify_code(&d), 0);
    assert!(!stale.exists(), "an hour-old leftover is removed");
    assert!(fresh.exists(), "a run may still be writing a fresh one");
}

/// The leakage results of the audit report in `dir`.
fn a_leakage(dir: &Path) -> Vec<serde_json::Value> {
    json(&dir.join("audit.json"))["leakage"]
        .as_array()
        .unwrap()
        .clone()
}

/// The numbers written in `text`, in order: every run of digits, with its decimals, but for
/// digits inside a digest or commit id.
fn numbers(text: &str) -> Vec<(f64, bool)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let mut whole = true;
            if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                whole = false;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            // Digits inside a digest or a commit id (a run of 16 or more hex digits) are
            // no number: the build's own digests would otherwise read as tickets.
            let hex = |c: &u8| c.is_ascii_hexdigit();
            let from = b[..start].iter().rev().take_while(|c| hex(c)).count();
            let to = b[start..].iter().take_while(|c| hex(c)).count();
            if from + to >= 16 {
                i = start + to;
                continue;
            }
            if let Ok(v) = text[start..i].parse::<f64>() {
                out.push((v, whole));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The content streams of a PDF written by tirage, inflated.
fn pdf_streams(pdf: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = pdf;
    while let Some(at) = rest.windows(6).position(|w| w == b"stream") {
        let mut body = &rest[at + 6..];
        while body.first().is_some_and(|c| *c == b'\r' || *c == b'\n') {
            body = &body[1..];
        }
        let end = body
            .windows(9)
            .position(|w| w == b"endstream")
            .unwrap_or(body.len());
        if let Ok(raw) = miniz_oxide::inflate::decompress_to_vec_zlib(&body[..end]) {
            out.push(String::from_utf8_lossy(&raw).into_owned());
        }
        rest = &body[end.min(body.len())..];
        if rest.len() >= 9 {
            rest = &rest[9..];
        }
    }
    out
}

/// The tickets the numbers of a report point at, the way the positions chart's marks were
/// read: each whole number 1..=`n` as a ticket number; each number inside a plot frame
/// (`(x0, width)`, 300 points wide or more) as the ticket it sits at,
/// `(x − x0)·n/width + ½`, to within 0.07 of a ticket (what 0.01 pt gives on such a frame).
fn tickets_pointed_at(nums: &[(f64, bool)], frames: &[(f64, f64)], n: u32) -> Vec<u32> {
    let mut hit = std::collections::BTreeSet::new();
    for &(v, whole) in nums {
        if whole && v >= 1.0 && v <= f64::from(n) {
            hit.insert(v as u32);
        }
        for &(x0, w) in frames.iter().filter(|f| f.1 >= 300.0) {
            if v < x0 || v > x0 + w {
                continue;
            }
            let t = (v - x0) * f64::from(n) / w + 0.5;
            let r = t.round();
            if (t - r).abs() <= 0.07 && r >= 1.0 && r <= f64::from(n) {
                hit.insert(r as u32);
            }
        }
    }
    hit.into_iter().collect()
}

/// The attack on the positions chart, mounted on every file of the audit report of a
/// 3 000-ticket block (919 winners): (1) the issue's extraction — each tick mark of the
/// positions panel of audit.svg read through its frame as `x = x0 + (ticket − ½)·width/N`
/// — recovers no winner; (2) no number of audit.svg, audit.pdf (its content streams and
/// its text), audit.json or audit.md, read as a ticket number or as a coordinate in any
/// plot frame, points at winners more often than at losers; (3) the tiers too small to
/// test (the top prizes) are described by count alone: no ticket number, gap, closest two
/// or packs; no statistic names a median position.
#[test]
fn no_report_file_gives_a_winners_place() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 1);
    let r = t.path().join("r");
    tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&r)
        .arg(&b)
        .assert()
        .success();
    // The auditor's own map: ticket → prize.
    let text = std::fs::read_to_string(b.join("tickets.csv")).unwrap();
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (ti, pi) = (col("ticket"), col("prize"));
    let mut prize = vec![String::new(); 3001];
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        prize[f[ti].parse::<usize>().unwrap()] = f[pi].to_string();
    }
    let winner = |t: u32| prize[t as usize] != "0";
    let winners = (1..=3000).filter(|&t| winner(t)).count();
    assert_eq!(winners, 919);

    // (1) The issue's extraction on audit.svg.
    let svg = std::fs::read_to_string(r.join("audit.svg")).unwrap();
    let attr = |tag: &str, name: &str| -> Option<f64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.parse().ok()
    };
    let frames: Vec<(f64, f64, f64, f64)> = svg
        .split("<rect")
        .skip(1)
        .filter(|t| t.contains("fill=\"none\""))
        .filter_map(|t| {
            Some((
                attr(t, "x")?,
                attr(t, "y")?,
                attr(t, "width")?,
                attr(t, "height")?,
            ))
        })
        .collect();
    let mut marks = 0;
    let mut recovered = std::collections::BTreeSet::new();
    for l in svg.split("<line").skip(1) {
        let (Some(x1), Some(y1), Some(x2), Some(y2)) =
            (attr(l, "x1"), attr(l, "y1"), attr(l, "x2"), attr(l, "y2"))
        else {
            continue;
        };
        if x1 != x2 || (y2 - y1 - 14.0).abs() > 0.01 {
            continue;
        }
        marks += 1;
        let mid = (y1 + y2) / 2.0;
        if let Some(&(x0, _, w, _)) = frames
            .iter()
            .find(|f| x1 >= f.0 && x1 <= f.0 + f.2 && mid >= f.1 && mid <= f.1 + f.3)
        {
            let ticket = ((x1 - x0) * 3000.0 / w + 0.5).round() as u32;
            if (1..=3000).contains(&ticket) && winner(ticket) {
                recovered.insert(ticket);
            }
        }
    }
    assert_eq!(
        (marks, recovered.len()),
        (0, 0),
        "the positions chart's marks give {} winners",
        recovered.len()
    );

    // (2) Every number of every file, read as a ticket or as a coordinate.
    let pdf = std::fs::read(r.join("audit.pdf")).unwrap();
    let streams = pdf_streams(&pdf).join("\n");
    assert!(streams.contains(" re"), "the PDF's drawing is read");
    let pdf_frames: Vec<(f64, f64)> = streams
        .lines()
        .filter(|l| l.ends_with(" re"))
        .filter_map(|l| {
            let v: Vec<f64> = l
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            (v.len() == 4).then(|| (v[0], v[2]))
        })
        .collect();
    let pdf_text = String::from_utf8(
        std::process::Command::new("pdftotext")
            .arg(r.join("audit.pdf"))
            .arg("-")
            .output()
            .expect("pdftotext (poppler-utils) is installed")
            .stdout,
    )
    .unwrap();
    let svg_frames: Vec<(f64, f64)> = frames.iter().map(|f| (f.0, f.2)).collect();
    let md = std::fs::read_to_string(r.join("audit.md")).unwrap();
    let aj = std::fs::read_to_string(r.join("audit.json")).unwrap();
    for (name, text, frames) in [
        ("audit.svg", &svg, &svg_frames),
        ("audit.pdf", &streams, &pdf_frames),
        ("audit.pdf text", &pdf_text, &Vec::new()),
        ("audit.md", &md, &Vec::new()),
        ("audit.json", &aj, &Vec::new()),
    ] {
        let hit = tickets_pointed_at(&numbers(text), frames, 3000);
        let w = hit.iter().filter(|&&t| winner(t)).count();
        let (wr, lr) = (
            w as f64 / winners as f64,
            (hit.len() - w) as f64 / (3000 - winners) as f64,
        );
        assert!(
            wr <= lr + 0.05,
            "{name}: its numbers point at {w} of {winners} winners ({:.1} %) against {:.1} % of losers",
            100.0 * wr,
            100.0 * lr
        );
    }

    // No count of winners per value of a printed field (pack last digit, tenth of the
    // pack): on a block of ten packs or fewer it would name each pack's winners.
    for f in a_leakage(&r) {
        assert!(f.get("table").is_none(), "{f}");
    }

    // (3) The rare tiers: counts alone.
    let a = json(&r.join("audit.json"));
    let small = a["randomness"]["small_tiers"].as_array().unwrap();
    assert_eq!(small.len(), 4);
    for tier in small {
        let keys: Vec<&String> = tier.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["amount", "count"], "{tier}");
    }
    for (name, text) in [
        ("audit.md", &md),
        ("audit.json", &aj),
        ("audit.pdf", &pdf_text),
    ] {
        for s in ["closest", "median position", "packs holding them"] {
            assert!(!text.contains(s), "{name} says {s:?}");
        }
        // No ticket of a tier of fewer than 20 tickets appears as a number.
        let whole: std::collections::BTreeSet<u32> = numbers(text)
            .iter()
            .filter(|n| n.1 && n.0 <= 3000.0)
            .map(|n| n.0 as u32)
            .collect();
        for (t, p) in prize.iter().enumerate().skip(1) {
            if ["20000", "1000", "200", "30"].contains(&p.as_str()) {
                assert!(
                    !whole.contains(&(t as u32)),
                    "{name} holds ticket {t} ({p})"
                );
            }
        }
    }
}

/// The audit report goes beside the block (`b.audit/`), never inside what is delivered, and
/// is private from its first byte whatever the umask (022 here): strace shows the directory,
/// and the one beside it the report is written in first, made 0700 and every report file
/// created (`O_CREAT`) mode 0600, none widened after. A
/// `--report` inside the block, or a directory others can enter, is refused (exit 2,
/// nothing written); tirage's own `b.audit/` found wider (an earlier version's) is narrowed.
#[test]
fn reports_are_private_from_their_first_byte_beside_the_block() {
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let b = root.join("b");
    generate(&small_spec(), &b, 1);
    let log = root.join("trace");
    let traced = |extra: &[&str]| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(r#"umask 022 && exec strace -f -qq -e trace=mkdir,mkdirat,open,openat,chmod,fchmod,fchmodat -o "$0" "$@""#)
            .arg(&log)
            .arg(assert_cmd::cargo::cargo_bin("tirage"))
            .args(["verify", "--unauthenticated", "-q"])
            .args(extra)
            .arg(&b)
            .output()
            .expect("sh and strace are installed")
    };
    let out = traced(&[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let trace = std::fs::read_to_string(&log).unwrap();
    let dir = beside(&b).display().to_string();
    let made: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains("mkdir") && l.contains(&format!("\"{dir}\"")))
        .collect();
    assert_eq!(made.len(), 1, "{trace}");
    assert!(made[0].ends_with(", 0700) = 0"), "{}", made[0]);
    // The report is written in full beside it first, then takes its place.
    let staged = format!("\"{}/.b.audit.report-", root.display());
    let made: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains("mkdir") && l.contains(&staged))
        .collect();
    assert_eq!(made.len(), 1, "{trace}");
    assert!(made[0].ends_with(", 0700) = 0"), "{}", made[0]);
    let created: Vec<&str> = trace
        .lines()
        .filter(|l| {
            (l.contains(&format!("\"{dir}/")) || l.contains(&staged)) && l.contains("O_CREAT")
        })
        .collect();
    assert_eq!(created.len(), 4, "{trace}");
    for l in &created {
        assert!(l.contains(", 0600)"), "{l}");
    }
    for l in trace.lines().filter(|l| l.contains("chmod")) {
        assert!(
            l.contains(", 0700)") || l.contains(", 0600)"),
            "a mode widened: {l}"
        );
    }
    assert_eq!(mode(&beside(&b)), 0o700);
    for f in ["audit.md", "audit.json", "audit.pdf", "audit.svg"] {
        assert_eq!(mode(&beside(&b).join(f)), 0o600, "{f}");
    }
    assert!(!b.join("audit.md").exists());

    // An earlier version's wider directory beside the block: narrowed.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(beside(&b), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert_eq!(traced(&[]).status.code(), Some(0));
    assert_eq!(mode(&beside(&b)), 0o700);

    // Into the block: refused, nothing made there.
    let inner = b.join("reports");
    let o = traced(&["--report", inner.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "--report {}: that is inside the block {}, which is what is delivered; the report goes beside it (by default {dir})",
            inner.display(),
            b.display()
        )),
        "{err}"
    );
    assert!(!inner.exists());
    // A directory others can enter: refused before the verify runs (no verdict printed),
    // nothing written.
    let open = root.join("shared");
    std::fs::create_dir(&open).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let o = traced(&["--report", open.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("{}: mode 0755 lets others in: the audit report goes only into a directory its owner alone can enter (mode 0700)", open.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&open).unwrap().count(), 0);
    // A new one: made 0700.
    let mine = root.join("mine/audit");
    assert_eq!(
        traced(&["--report", mine.to_str().unwrap()]).status.code(),
        Some(0)
    );
    assert_eq!(mode(&mine), 0o700);
    assert_eq!(mode(&mine.join("audit.md")), 0o600);
}

/// `--report DIR` inside another block, a deck, a bundle or an emission is refused (exit
/// 2, nothing made there), as `render --out` is: a report there fails that delivery's own
/// verify. Each stays clean.
#[test]
fn a_report_never_goes_into_another_delivery() {
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let a = signed_small_block(&root, "a", false);
    let b = root.join("b");
    generate(&small_spec(), &b, 1);
    let d = root.join("d");
    deck(&small_spec(), &d);
    let bundle = root.join("central");
    tirage()
        .arg("package")
        .arg(&a)
        .args(["--for", "central", "--test-block", "-q", "--signer"])
        .arg(root.join("op.pub"))
        .arg("--out")
        .arg(&bundle)
        .assert()
        .success();
    let em = root.join("em");
    small_emission(&em);
    let inside_block = |r: &Path, of: &Path| {
        format!(
            "tirage: error: {}: inside the block directory {}, which is delivered as it is: nothing was written; choose a --report directory outside it\n",
            r.display(),
            of.display()
        )
    };
    let cases = [
        (b.clone(), a.join("rep"), inside_block(&a.join("rep"), &a)),
        (b.clone(), d.join("rep"), inside_block(&d.join("rep"), &d)),
        (b.clone(), bundle.join("rep"), inside_block(&bundle.join("rep"), &bundle)),
        (
            em.join("block-002"),
            em.join("rep"),
            format!(
                "tirage: error: {}: inside the emission {}, which is delivered as it is: nothing was written; choose a --report directory outside it\n",
                em.join("rep").display(),
                em.display()
            ),
        ),
        (
            b.clone(),
            em.join("block-001/rep"),
            inside_block(&em.join("block-001/rep"), &em.join("block-001")),
        ),
    ];
    for (dir, report, said) in cases {
        let o = tirage()
            .args(["verify", "--unauthenticated", "-q", "--report"])
            .arg(&report)
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{report:?}: {o:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), said);
        assert!(!report.exists(), "{report:?}");
    }
    for dir in [&a, &d, &em] {
        assert_eq!(verify_code(dir), 0, "{dir:?}");
    }
}

/// A block replaced with `generate --force` takes the audit report verify wrote beside it
/// (`<block>.audit/`) with it: read later, that report would vouch for files no longer
/// there. A report directory holding a file of the user's is kept, with a warning naming
/// it and the file; a block made in a new place removes no report.
#[test]
fn a_block_replaced_takes_its_audit_report_with_it() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let report = t.path().join("b.audit");
    let make = |seed: &str, force: bool| {
        let mut c = tirage();
        c.arg("generate")
            .arg(small_spec())
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--insecure-seed", "--seed", seed]);
        if force {
            c.arg("--force");
        }
        let o = c.arg("--out").arg(&out).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let other = SEED.replace('0', "7");
    // A report beside a place where no block was: kept (nothing was replaced).
    std::fs::create_dir(&report).unwrap();
    std::fs::write(report.join("audit.md"), "an older report").unwrap();
    make(SEED, false);
    assert_eq!(
        std::fs::read(report.join("audit.md")).unwrap(),
        b"an older report"
    );
    std::fs::remove_dir_all(&report).unwrap();
    assert_eq!(verify_code(&out), 0);
    assert!(report.join("audit.md").is_file() && report.join("audit.pdf").is_file());
    let err = make(&other, true);
    assert!(
        err.contains(&format!(
            "tirage: removed {}: the audit report of the block replaced",
            report.display()
        )),
        "{err}"
    );
    assert!(!report.exists());
    // A file of the user's among the report: kept, said.
    assert_eq!(verify_code(&out), 0);
    std::fs::write(report.join("notes.txt"), "mine").unwrap();
    let err = make(SEED, true);
    assert!(
        err.contains(&format!(
            "tirage: warning: {} is the audit report of the output replaced, not of this one, \
             and is left: it holds notes.txt, which verify does not write there; verify the new \
             one, or remove it",
            report.display()
        )),
        "{err}"
    );
    assert!(report.join("notes.txt").is_file() && report.join("audit.md").is_file());
}

/// A block or emission replaced with `--force` takes with it the proofs `render` drew
/// beside it by default (`<block>.proofs/`; for an emission's block,
/// `<emission>.block-NNN.proofs/`): a proof kept would show a face the new block does not
/// print under that ticket's number. A proofs directory holding a file of the user's is
/// kept, with a warning naming it and the file.
#[test]
fn an_output_replaced_takes_its_proofs_with_it() {
    let t = tempfile::tempdir().unwrap();
    let make = |out: &Path, blocks: Option<&str>, seed: &str| {
        let mut c = tirage();
        c.arg("generate")
            .arg(small_spec())
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--insecure-seed", "--seed", seed, "--force"]);
        if let Some(b) = blocks {
            c.args(["--blocks", b]);
        }
        let o = c.arg("--out").arg(out).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let render = |block: &Path| {
        tirage()
            .arg("render")
            .arg(block)
            .args(["--tickets", "1,2", "--force", "-q"])
            .assert()
            .success();
    };
    let reseed = SEED.replace('0', "7");
    let out = t.path().join("b");
    let proofs = t.path().join("b.proofs");
    make(&out, None, SEED);
    render(&out);
    assert!(proofs.join("ticket-1.svg").is_file() && proofs.join("ticket-2.svg").is_file());
    let err = make(&out, None, &reseed);
    assert!(
        err.contains(&format!(
            "tirage: removed {}: the proofs of the block replaced\n",
            proofs.display()
        )),
        "{err}"
    );
    assert!(!proofs.exists());
    // A file of the user's among the proofs: kept, said.
    render(&out);
    std::fs::write(proofs.join("notes.txt"), "mine").unwrap();
    let err = make(&out, None, SEED);
    assert!(
        err.contains(&format!(
            "tirage: warning: {} holds the proofs of the output replaced, not of this one, and \
             is left: it holds notes.txt, which is not a proof render draws there \
             (ticket-N.svg); render the new one's, or remove it",
            proofs.display()
        )),
        "{err}"
    );
    assert!(proofs.join("notes.txt").is_file() && proofs.join("ticket-1.svg").is_file());
    // A copy of a proof under a name of the user's: kept too.
    std::fs::remove_file(proofs.join("notes.txt")).unwrap();
    std::fs::copy(
        proofs.join("ticket-1.svg"),
        proofs.join("ticket-1-annotated.svg"),
    )
    .unwrap();
    let err = make(&out, None, &reseed);
    assert!(
        err.contains("it holds ticket-1-annotated.svg, which is not a proof"),
        "{err}"
    );
    assert!(proofs.join("ticket-1-annotated.svg").is_file());
    std::fs::remove_dir_all(&proofs).unwrap();
    // A run that fails before the move (a seed file it would replace that others can
    // write) touches neither the proofs nor the audit report.
    let fresh = t.path().join("f");
    let generate_fresh = |force: bool| {
        let mut c = tirage();
        c.arg("generate")
            .arg(small_spec())
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .arg("-q");
        if force {
            c.arg("--force");
        }
        c.arg("--out").arg(&fresh).output().unwrap()
    };
    assert_eq!(generate_fresh(false).status.code(), Some(0));
    render(&fresh);
    assert_eq!(verify_code(&fresh), 0);
    let seed_file = t.path().join("f.seed");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&seed_file, std::fs::Permissions::from_mode(0o660)).unwrap();
    let o = generate_fresh(true);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("other users can write it (mode 660)"), "{err}");
    assert!(t.path().join("f.proofs/ticket-1.svg").is_file(), "{err}");
    assert!(t.path().join("f.audit/audit.md").is_file(), "{err}");
    // An emission's block: its proofs beside the emission go with the emission.
    let em = t.path().join("em");
    make(&em, Some("1..2"), SEED);
    render(&em.join("block-002"));
    let beside = std::fs::canonicalize(t.path())
        .unwrap()
        .join("em.block-002.proofs");
    assert!(beside.join("ticket-2.svg").is_file());
    let err = make(&em, Some("1..2"), &reseed);
    assert!(
        err.contains(&format!(
            "tirage: removed {}: the proofs of the emission replaced\n",
            beside.display()
        )),
        "{err}"
    );
    assert!(!beside.exists());
}

/// An emission replaced with `generate --blocks … --force` takes with it the audit reports
/// verify wrote beside it: the emission's (`em.audit/`) and each block's
/// (`em.block-NNN.audit/`), whatever blocks the emissions there held, each said. A block's
/// report holding a file of the user's is kept, with a warning; another emission's reports
/// are untouched.
#[test]
fn an_emission_replaced_takes_its_audit_reports_with_it() {
    let t = tempfile::tempdir().unwrap();
    let (em, other) = (t.path().join("em"), t.path().join("em2"));
    let make = |out: &Path, blocks: &str, seed: &str, force: bool| {
        let mut c = tirage();
        c.arg("generate")
            .arg(small_spec())
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--blocks", blocks, "--insecure-seed", "--seed", seed]);
        if force {
            c.arg("--force");
        }
        let o = c.arg("--out").arg(out).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let reseed = SEED.replace('0', "7");
    let report = |name: &str| t.path().join(name);
    // Reports beside an empty directory: nothing is replaced, nothing removed.
    std::fs::create_dir(&em).unwrap();
    for r in ["em.audit", "em.block-001.audit"] {
        std::fs::create_dir(report(r)).unwrap();
        std::fs::write(report(r).join("audit.md"), "older").unwrap();
    }
    make(&em, "1..2", SEED, false);
    for r in ["em.audit", "em.block-001.audit"] {
        assert_eq!(std::fs::read(report(r).join("audit.md")).unwrap(), b"older");
    }
    make(&other, "1..1", SEED, false);
    // A block named like one of the emission's reports' blocks: its report is its own.
    // (Block 3, as its folder's name says: block 1 there would be a finding.)
    let named_alike = t.path().join("em.block-003");
    tirage()
        .arg("generate")
        .arg(small_spec())
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args([
            "--insecure-seed",
            "--seed",
            SEED,
            "--block",
            "3",
            "-q",
            "--out",
        ])
        .arg(&named_alike)
        .assert()
        .success();
    assert_eq!(verify_code(&named_alike), 0);
    // A mere file of that kind of name takes no report for its own.
    std::fs::write(report("em.block-004"), "a note").unwrap();
    for d in [
        &em,
        &em.join("block-001"),
        &em.join("block-002"),
        &other.join("block-001"),
    ] {
        assert_eq!(verify_code(d), 0, "{}", d.display());
    }
    for r in [
        "em.audit",
        "em.block-001.audit",
        "em.block-002.audit",
        "em2.block-001.audit",
    ] {
        assert!(report(r).join("audit.md").is_file(), "{r}");
    }
    // Blocks' reports from an emission held there earlier still.
    for r in ["em.block-004.audit", "em.block-007.audit"] {
        std::fs::create_dir(report(r)).unwrap();
        std::fs::write(report(r).join("audit.md"), "older").unwrap();
    }
    let err = make(&em, "1..2", &reseed, true);
    for r in [
        "em.audit",
        "em.block-001.audit",
        "em.block-002.audit",
        "em.block-004.audit",
        "em.block-007.audit",
    ] {
        assert!(
            err.contains(&format!(
                "tirage: removed {}: the audit report of the emission replaced\n",
                report(r).display()
            )),
            "{r}: {err}"
        );
        assert!(!report(r).exists(), "{r}");
    }
    assert!(report("em2.block-001.audit").join("audit.md").is_file());
    assert!(report("em.block-003.audit").join("audit.md").is_file());
    // A file of the user's among a block's report: that report kept, said.
    assert_eq!(verify_code(&em.join("block-001")), 0);
    std::fs::write(report("em.block-001.audit").join("notes.txt"), "mine").unwrap();
    let err = make(&em, "1..2", SEED, true);
    assert!(
        err.contains(&format!(
            "tirage: warning: {} is the audit report of the output replaced, not of this one, \
             and is left: it holds notes.txt, which verify does not write there; verify the new \
             one, or remove it",
            report("em.block-001.audit").display()
        )),
        "{err}"
    );
    assert!(report("em.block-001.audit").join("notes.txt").is_file());
    // A link where a report file goes: kept, said.
    assert_eq!(verify_code(&em.join("block-002")), 0);
    std::fs::remove_file(report("em.block-002.audit").join("audit.md")).unwrap();
    std::os::unix::fs::symlink("/dev/null", report("em.block-002.audit").join("audit.md")).unwrap();
    let err = make(&em, "1..2", &reseed, true);
    assert!(
        err.contains(&format!(
            "tirage: warning: {} is the audit report of the output replaced, not of this one, \
             and is left: its audit.md is not a regular file; verify the new one, or remove it",
            report("em.block-002.audit").display()
        )),
        "{err}"
    );
}

/// In an emission, a block's report goes beside the emission (`em.block-001.audit/`), as
/// its proofs do (`em.block-001.proofs/`), never inside what is delivered. A report and
/// proofs an earlier version wrote inside (`block-001.audit/`, `block-001.proofs/`):
/// emission verify does not take them for blocks missing from emission.json, and the
/// block's verify says the old report is an earlier run's. The emission can still be
/// replaced with `--force`, those proofs going with it (a file put among them is named
/// and kept), but not while it holds a block's audit report: the auditor's, refused
/// (exit 2) naming it and kept.
#[test]
fn an_emission_keeps_its_blocks_reports_beside_them() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    let make = |force: bool| {
        let mut c = tirage();
        c.arg("generate")
            .arg(small_spec())
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--blocks", "1..2", "--insecure-seed", "--seed", SEED, "-q"]);
        if force {
            c.arg("--force");
        }
        c.arg("--out").arg(&em).output().unwrap()
    };
    assert_eq!(make(false).status.code(), Some(0));
    assert_eq!(verify_code(&em.join("block-001")), 0);
    let beside = std::fs::canonicalize(t.path())
        .unwrap()
        .join("em.block-001.audit");
    assert!(beside.join("audit.md").is_file());
    assert!(!em.join("block-001.audit").exists());
    // Named from inside the emission, by its bare name: the same place.
    std::fs::remove_dir_all(&beside).unwrap();
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q", "block-001"])
        .current_dir(&em)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(beside.join("audit.md").is_file());
    assert!(!em.join("block-001.audit").exists());
    // A report an earlier version wrote inside (`block-001.audit/`): said to be an earlier
    // run's.
    copy_dir(&beside, &em.join("block-001.audit"));
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q"])
        .arg(em.join("block-001"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(&format!(
            "tirage: note: {} is an earlier run's report, not this run's (this run: clean)",
            em.join("block-001.audit/audit.md").display()
        )),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Its proofs go beside the emission (`em.block-001.proofs/`), never inside it.
    tirage()
        .args(["render", "--tickets", "1", "-q"])
        .arg(em.join("block-001"))
        .assert()
        .success();
    assert!(t.path().join("em.block-001.proofs/ticket-1.svg").is_file());
    assert!(!em.join("block-001.proofs").exists());
    // The same from inside the emission, the block named bare.
    tirage()
        .current_dir(&em)
        .args(["render", "block-002", "--tickets", "2", "-q"])
        .assert()
        .success();
    assert!(t.path().join("em.block-002.proofs/ticket-2.svg").is_file());
    assert!(!em.join("block-002.proofs").exists());
    // Proofs an earlier version wrote inside (`block-001.proofs/`).
    std::fs::create_dir(em.join("block-001.proofs")).unwrap();
    std::fs::write(em.join("block-001.proofs/ticket-1.svg"), "<svg/>").unwrap();
    assert_eq!(verify_code(&em), 0);
    let report = std::fs::read(em.join("block-001.audit/audit.md")).unwrap();
    let o = make(true);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("tirage: error: {}: an audit report verify wrote of a block of the emission: replacing the emission would delete it, and an auditor's report is not generate's to delete; move it out of the emission first\n", em.join("block-001.audit").display())
    );
    assert_eq!(
        std::fs::read(em.join("block-001.audit/audit.md")).unwrap(),
        report
    );
    assert!(em.join("block-001/manifest.json").is_file());
    std::fs::rename(em.join("block-001.audit"), t.path().join("block-001.audit")).unwrap();
    std::fs::write(em.join("block-001.proofs/notes.txt"), "keep me").unwrap();
    let o = make(true);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("block-001.proofs/notes.txt"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::remove_file(em.join("block-001.proofs/notes.txt")).unwrap();
    let o = make(true);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!em.join("block-001.proofs").exists());
    assert!(t.path().join("block-001.audit/audit.md").is_file());
}

/// An emission verify killed (`kill -9`) while it holds the sorted runs of validation codes
/// of its blocks in `$TMPDIR/tirage-codes-*`: under umask 022, the directory is 0700 and
/// each run 0600, and a run holds its codes encrypted (not in order, noise without the key
/// that died with the run). The next verify, of anything, removes the leftover and names it.
#[test]
fn a_killed_verify_leaves_no_readable_codes_and_the_next_one_removes_them() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let em = root.join("em");
    tirage()
        .arg("generate")
        .arg(small_spec())
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args([
            "--blocks",
            "1..4",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--out",
        ])
        .arg(&em)
        .assert()
        .success();
    let tmp = root.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"umask 022 && exec "$0" "$@""#)
        .arg(assert_cmd::cargo::cargo_bin("tirage"))
        .args(["verify", "--unauthenticated", "-q", "--threads", "1"])
        .arg(&em)
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the first block's run to be whole (3 000 codes), then kill.
    let start = std::time::Instant::now();
    let run = loop {
        let found = std::fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .map(|e| e.path().join("run-0000"))
            .find(|p| std::fs::metadata(p).is_ok_and(|m| m.len() == 24_000));
        if let Some(p) = found {
            break p;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "verify ended before it was killed: no run seen"
        );
        assert!(start.elapsed().as_secs() < 120, "no run written");
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let dir = run.parent().unwrap().to_path_buf();
    let runs = std::fs::read_dir(&dir).unwrap().count();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&run), 0o600);
    let words: Vec<u64> = std::fs::read(&run)
        .unwrap()
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let ascending = words.windows(2).filter(|w| w[0] <= w[1]).count();
    // Sorted codes in clear would ascend 2 999 times; noise about half as often.
    assert!(
        (1200..=1800).contains(&ascending),
        "{ascending} of 2999 ascend"
    );

    let out = tirage()
        .args(["verify", "--unauthenticated", "-q", "--no-audit"])
        .arg(em.join("block-001"))
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "tirage: removed {}: {runs} run(s) of validation codes a killed verify left (encrypted under a key that died with it)",
            dir.display()
        )),
        "{err}"
    );
    assert!(!dir.exists());
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
}

/// `verify` of an emission writes one report beside it (`<emission>.audit/`: audit.md,
/// audit.json, audit.pdf; the directory 0700, each file 0600): the emission-wide procedure,
/// each block's verdict and digests, and the totals per tier against the lot table. An
/// insider holding only that report learns no winner's place: no serial or claim of any
/// ticket is in it, no number in it points at the winners of a block more often than at
/// its losers, and no ticket of a rare tier appears as a number.
#[test]
fn an_emission_gets_one_report_beside_it_that_gives_no_winners_place() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    tirage()
        .arg("generate")
        .arg(small_spec())
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--blocks", "1..2", "--insecure-seed", "--seed", SEED, "-q"])
        .arg("--out")
        .arg(&em)
        .assert()
        .success();
    let out = tirage()
        .args(["verify", "--unauthenticated", "--auditor", "Claire Martin"])
        .arg(&em)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let r = t.path().join("em.audit");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!(
            "audit report: {}, {}, {} (clean)",
            r.join("audit.md").display(),
            r.join("audit.json").display(),
            r.join("audit.pdf").display()
        )),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(mode(&r), 0o700);
    for f in ["audit.md", "audit.json", "audit.pdf"] {
        assert_eq!(mode(&r.join(f)), 0o600, "{f}");
    }
    assert!(!em.join("audit.md").exists(), "nothing inside the emission");

    // What it says: the emission-wide procedure, each block, the totals.
    let a = json(&r.join("audit.json"));
    assert_eq!(a["format"], "tirage-emission-audit/1");
    assert_eq!(a["verdict"], "clean");
    assert_eq!(a["game"], "coq");
    assert_eq!(a["emission"], 1);
    assert_eq!(a["auditor"], "Claire Martin");
    assert_eq!(a["emission_result"], "pass");
    let blocks = a["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);
    for (i, b) in blocks.iter().enumerate() {
        let dir = em.join(format!("block-00{}", i + 1));
        assert_eq!(b["verdict"], "clean");
        assert_eq!(b["tickets"], 3000);
        assert_eq!(b["lots"], 919);
        assert_eq!(b["payout"], "25294");
        let sums = std::fs::read(dir.join("SHA256SUMS")).unwrap();
        let listed = b["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "SHA256SUMS")
            .unwrap();
        assert_eq!(listed["sha256"], sha(&sums));
    }
    let tiers: Vec<(String, u64, u64)> = a["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["amount"].as_str().unwrap().to_string(),
                t["expected"].as_u64().unwrap(),
                t["found"].as_u64().unwrap(),
            )
        })
        .collect();
    let lot_table = [
        ("20000", 2),
        ("1000", 2),
        ("200", 4),
        ("30", 6),
        ("18", 60),
        ("8", 300),
        ("4", 600),
        ("2", 864),
    ];
    assert_eq!(
        tiers,
        lot_table
            .iter()
            .map(|&(a, n)| (a.to_string(), n, n))
            .collect::<Vec<_>>()
    );
    assert_eq!(a["totals"]["lots"], 1838);
    assert_eq!(a["totals"]["payout"], "50588");
    let md = std::fs::read_to_string(r.join("audit.md")).unwrap();
    assert!(
        md.contains("| block-002 | CLEAN | 3,000 | 919 | 25,294 EUR |"),
        "{md}"
    );
    assert!(
        md.contains("| **payout** | 50,588 EUR | 50,588 EUR |  |"),
        "{md}"
    );
    let pdf_text = String::from_utf8(
        std::process::Command::new("pdftotext")
            .arg(r.join("audit.pdf"))
            .arg("-")
            .output()
            .expect("pdftotext (poppler-utils) is installed")
            .stdout,
    )
    .unwrap();
    assert!(pdf_text.contains("emission.json lists every block"));
    // This build made every block: said, framed, before anything else; lines to sign.
    let flat = pdf_text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "Not an independent verification: the same build generated and verified every block."
        ),
        "{flat}"
    );
    assert_eq!(flat.matches("Title").count(), 2, "{flat}");
    assert!(flat.contains("the operator that the blocks are the ones delivered."));
    assert_eq!(a["blocks"][0]["same_build"], true);
    assert_eq!(
        a["blocks"][1]["generated_by"]["binary_sha256"],
        a["verified_by"]["binary_sha256"]
    );
    // --report inside the emission is refused in the emission's words.
    let inside = em.join("block-001").join("report");
    let out = tirage()
        .args(["verify", "--unauthenticated", "--report"])
        .arg(&inside)
        .arg(&em)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "tirage: error: --report {}: that is inside the emission {}, which is what is delivered; the report goes beside it (by default {}) or into a directory of its own\n",
            inside.display(),
            em.display(),
            r.display()
        )
    );
    assert!(!inside.exists());

    // What an insider holding only the report learns of where the winners are.
    let aj = std::fs::read_to_string(r.join("audit.json")).unwrap();
    for block in ["block-001", "block-002"] {
        let text = std::fs::read_to_string(em.join(block).join("tickets.csv")).unwrap();
        let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
        let (ti, pi, si) = (col("ticket"), col("prize"), col("serial"));
        let mut prize = vec![String::new(); 3001];
        for l in text.lines().skip(1) {
            let f: Vec<&str> = l.split(',').collect();
            prize[f[ti].parse::<usize>().unwrap()] = f[pi].to_string();
            for (name, said) in [
                ("audit.md", &md),
                ("audit.json", &aj),
                ("audit.pdf", &pdf_text),
            ] {
                assert!(!said.contains(f[si]), "{name} holds serial {}", f[si]);
            }
        }
        let claims = std::fs::read_to_string(em.join(block).join("validation.csv")).unwrap();
        for l in claims.lines().skip(1) {
            let claim = l.split(',').next().unwrap();
            assert!(
                !aj.contains(claim) && !md.contains(claim),
                "a claim is in the report"
            );
        }
        let winners = (1..=3000).filter(|&t| prize[t] != "0").count();
        for (name, said) in [
            ("audit.md", &md),
            ("audit.json", &aj),
            ("audit.pdf", &pdf_text),
        ] {
            let hit = tickets_pointed_at(&numbers(said), &[], 3000);
            let w = hit.iter().filter(|&&t| prize[t as usize] != "0").count();
            let (wr, lr) = (
                w as f64 / winners as f64,
                (hit.len() - w) as f64 / (3000 - winners) as f64,
            );
            assert!(
                wr <= lr + 0.05,
                "{name}: its numbers point at {w} of {winners} winners of {block}"
            );
            let whole: std::collections::BTreeSet<u32> = numbers(said)
                .iter()
                .filter(|n| n.1 && n.0 <= 3000.0)
                .map(|n| n.0 as u32)
                .collect();
            for (t, p) in prize.iter().enumerate().skip(1) {
                if ["20000", "1000", "200", "30"].contains(&p.as_str()) {
                    assert!(
                        !whole.contains(&(t as u32)),
                        "{name} holds ticket {t} of {block} ({p})"
                    );
                }
            }
        }
    }

    // --no-audit writes none; --report DIR puts it there.
    std::fs::remove_dir_all(&r).unwrap();
    tirage()
        .args(["verify", "--unauthenticated", "-q", "--no-audit"])
        .arg(&em)
        .assert()
        .success();
    assert!(!r.exists());
    let elsewhere = t.path().join("reports/em");
    tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&elsewhere)
        .arg(&em)
        .assert()
        .success();
    assert!(elsewhere.join("audit.json").is_file());
    assert_eq!(mode(&elsewhere), 0o700);
}

/// The PDF text of `pdf`, its words joined by single spaces (a sentence wrapped over lines
/// reads whole).
fn pdf_words(pdf: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What an auditor signs: N/A where a procedure does not apply, a framed warning when the
/// build that verifies generated the block (and none when another did), bins as ranges,
/// lines for the signatory's name, title, date and signature.
#[test]
fn the_audit_pdf_says_na_warns_of_its_own_build_and_gives_lines_to_sign() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    generate(&small_spec(), &b, 2);
    let report = |dir: &str| {
        let out = tirage()
            .args([
                "verify",
                "--unauthenticated",
                "-q",
                "--auditor",
                "Claire Martin",
            ])
            .args(["--operator", "Jeux de Paris", "--report"])
            .arg(t.path().join(dir))
            .arg(&b)
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let r = t.path().join(dir);
        (
            pdf_words(&r.join("audit.pdf")),
            std::fs::read_to_string(r.join("audit.md")).unwrap(),
            json(&r.join("audit.json")),
        )
    };
    let (pdf, md, a) = report("same");
    for s in [
        "Not an independent verification: the same build generated and verified this block. \
         The generating and the verifying tool have the same binary SHA-256",
        "23 procedures: 19 passed, 0 with findings, 0 not run, 2 skipped, 2 not applicable \
         (N/A: the procedure has nothing to check on this block).",
        "not independent: the same build generated and verified the block (the same binary SHA-256)",
        "This build also generated the block: the verification is not independent of the \
         generator (see the warning in the summary).",
    ] {
        assert!(pdf.contains(s), "audit.pdf lacks {s:?}: {pdf}");
    }
    // Two boxes side by side, each with its lines to sign: read across, line by line.
    assert!(pdf.ends_with(
        "Auditor Name Operator Claire Martin Name Title Title Date Date Signature Signature \
         Jeux de Paris page 6 of 6"
    ));
    // N/A twice in the table (ceremony, pack_rules), once in the summary.
    assert_eq!(pdf.matches("N/A").count(), 3, "{pdf}");
    assert!(md.contains(
        "| 19 | `pack_rules` | the spec's pack constraints hold on every pack (evaluated ways) | N/A | 0 |"
    ));
    assert!(md.contains("| 23 | `ceremony` | "));
    assert!(md.contains("published one | N/A | 0 |\n"), "{md}");
    assert!(md.contains("| name | Claire Martin | Jeux de Paris |\n| title |  |  |\n"));
    assert_eq!(a["same_build"], true);
    // Bins of counts are ranges of distinct values, or one value alone.
    assert!(md.contains("| 0–42 | 3 | 5.35 |"), "{md}");
    for w in md.split(|c: char| c.is_whitespace() || c == '|') {
        if let Some((lo, hi)) = w.split_once('–') {
            if let (Ok(lo), Ok(hi)) = (lo.parse::<u64>(), hi.parse::<u64>()) {
                assert!(lo < hi, "a bin labelled {w}");
            }
        }
    }

    // Made by another build (its binary recorded otherwise in the manifest, the digests
    // made to agree): no warning, and the identification says so.
    let mpath = b.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    m["tool"]["binary_sha256"] = "ab".repeat(32).into();
    std::fs::write(&mpath, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    fix_digests(&b);
    let (pdf, _, a) = report("other");
    assert_eq!(a["same_build"], false);
    assert!(!pdf.contains("Not an independent verification"), "{pdf}");
    assert!(pdf.contains(
        "another build verified the block than the one the manifest says generated it (the binary SHA-256 differ)"
    ));
}
