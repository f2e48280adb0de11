//! `tirage package`: the bundle each recipient gets holds its file, the public files,
//! SHA256SUMS, its signature and the operator's key, and nothing else; `sha256sum -c` and
//! `minisign -V` pass inside it, and the recipient's own commands work from it.

mod common;

use common::*;
use std::path::{Path, PathBuf};

/// Runs a tool (not tirage) and returns (success, stdout, stderr).
fn run(dir: &Path, tool: &str, args: &[&str]) -> (bool, String, String) {
    let o = std::process::Command::new(tool)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e} (.ci/run installs it)"));
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A signed block of coq_small (a production block, not a test block), each ticket file
/// encrypted to its role: the directory, the operator's public key, and the age identities
/// `<role>.key` in `t`.
fn signed_block(t: &Path) -> (PathBuf, PathBuf) {
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.join("op"))
        .assert()
        .success();
    let mut args = Vec::new();
    for role in ["printer", "central", "auditor"] {
        let id = t.join(format!("{role}.key"));
        assert!(run(t, "age-keygen", &["-o", id.to_str().unwrap()]).0);
        let (_, public, _) = run(t, "age-keygen", &["-y", id.to_str().unwrap()]);
        args.push("--recipient".to_string());
        args.push(format!("{role}={}", public.trim()));
    }
    let b = t.join("block-001");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--seed-file")
        .arg(production_seed_file(t))
        .args(["-q", "--sign"])
        .arg(t.join("op.key"))
        .arg("--out")
        .arg(&b)
        .args(&args)
        .assert()
        .success();
    (b, t.join("op.pub"))
}

fn package(b: &Path, role: &str, key: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    tirage()
        .arg("package")
        .arg(b)
        .args(["--for", role, "--signer"])
        .arg(key)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    n.sort();
    n
}

/// Each role's bundle: exactly its files; sha256sum -c checks each of them and only them;
/// minisign verifies the signature with the key in the bundle; no other party's ticket
/// file, no audit report, proof or seed, even when they lie beside or in the block.
#[test]
fn each_recipient_gets_its_files_and_nothing_else() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    // What must never travel: a report and proofs beside the block, a seed file, and
    // proofs an earlier version left inside.
    std::fs::create_dir(t.path().join("block-001.audit")).unwrap();
    std::fs::write(t.path().join("block-001.audit/audit.md"), "a report").unwrap();
    std::fs::write(t.path().join("block-001.seed"), "00").unwrap();
    std::fs::create_dir(b.join("proofs")).unwrap();
    std::fs::write(b.join("proofs/ticket-1.svg"), "<svg/>").unwrap();
    let public = [
        "SHA256SUMS",
        "SHA256SUMS.minisig",
        "manifest.json",
        "operator.pub",
        "spec.toml",
    ];
    for (role, own) in [
        ("printer", vec!["tickets.bin.age"]),
        ("central", vec!["validation.csv.age"]),
        (
            "auditor",
            vec!["tickets.bin.age", "tickets.csv.age", "validation.csv.age"],
        ),
    ] {
        let out = t.path().join(format!("to-{role}"));
        let o = package(&b, role, &key, &out, &["-q"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let mut want: Vec<String> = public.iter().chain(&own).map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(names(&out), want, "{role}");
        let (ok, stdout, stderr) =
            run(&out, "sha256sum", &["-c", "--ignore-missing", "SHA256SUMS"]);
        assert!(ok, "{role}: {stdout}{stderr}");
        let mut checked: Vec<&str> = stdout.lines().collect();
        checked.sort();
        let mut expect: Vec<String> = own
            .iter()
            .chain(&["manifest.json", "spec.toml"])
            .map(|n| format!("{n}: OK"))
            .collect();
        expect.sort();
        assert_eq!(checked, expect, "{role}");
        let (ok, stdout, stderr) = run(
            &out,
            "minisign",
            &["-Vm", "SHA256SUMS", "-p", key.to_str().unwrap()],
        );
        assert!(ok, "{role}: {stdout}{stderr}");
        assert!(
            stdout.contains("Signature and comment signature verified"),
            "{stdout}"
        );
        // The bundle's key is the operator's file, byte for byte.
        assert_eq!(
            std::fs::read(out.join("operator.pub")).unwrap(),
            std::fs::read(&key).unwrap(),
            "{role}"
        );
    }
    // The auditor verifies the whole block from its bundle: clean, the operator's key in it
    // no finding.
    let mut verify = tirage();
    verify
        .arg("verify")
        .arg(t.path().join("to-auditor"))
        .arg("--signer")
        .arg(&key)
        .args(["-q", "--no-audit"]);
    for role in ["printer", "central", "auditor"] {
        verify
            .arg("--identity")
            .arg(t.path().join(format!("{role}.key")));
    }
    let o = verify.output().unwrap();
    assert_eq!(
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).lines().next()
        ),
        (Some(0), Some("verify: CLEAN")),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // The printer's and the central system's bundles: what each holds is checked, clean;
    // a file slipped in is a finding.
    for (role, holds) in [
        ("printer", "tickets.bin.age, spec.toml, manifest.json"),
        ("central", "validation.csv.age, spec.toml, manifest.json"),
    ] {
        let dir = t.path().join(format!("to-{role}"));
        let whose = if role == "printer" {
            "the printer's"
        } else {
            "the central system's"
        };
        // The central system's rows are counted with its identity.
        let id = t.path().join(format!("{role}.key"));
        let o = tirage()
            .arg("verify")
            .arg(&dir)
            .arg("--signer")
            .arg(&key)
            .args(["--no-audit", "--identity"])
            .arg(&id)
            .output()
            .unwrap();
        let pk = std::fs::read_to_string(&key)
            .unwrap()
            .lines()
            .nth(1)
            .unwrap()
            .to_string();
        assert_eq!(
            (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned()),
            (
                Some(0),
                format!(
                    "tirage verify {} — {whose} bundle of game coq, emission 1, production block 1: it holds {holds}; the block's other ticket files are the other parties', checked from the auditor's bundle\nsigned: SHA256SUMS.minisig is the signature of SHA256SUMS by key {pk} (--signer)\nverify: CLEAN, as {whose} bundle: what it holds was checked, not the whole block\n",
                    dir.display()
                )
            ),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        std::fs::write(dir.join("notes.txt"), "a note").unwrap();
        let o = tirage()
            .arg("verify")
            .arg(&dir)
            .arg("--signer")
            .arg(&key)
            .args(["-q", "--no-audit", "--identity"])
            .arg(&id)
            .output()
            .unwrap();
        assert_eq!(
            (
                o.status.code(),
                String::from_utf8_lossy(&o.stdout).into_owned()
            ),
            (
                Some(1),
                format!("verify: FINDINGS in {whose} bundle (1 finding(s))\n")
            )
        );
        std::fs::remove_file(dir.join("notes.txt")).unwrap();
    }
    // The printer proofs from its bundle (plain), the central system answers a claim from
    // its own.
    let printer_key = t.path().join("printer.key");
    let o = tirage()
        .arg("render")
        .arg(t.path().join("to-printer"))
        .args(["--tickets", "1", "-q", "--identity"])
        .arg(&printer_key)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(t.path().join("to-printer.proofs/ticket-1.svg").is_file());
    let code = &codes_of_sealed(t.path(), &b)[0];
    let serial = "17030010010000010012";
    let o = tirage()
        .arg("claim")
        .arg(t.path().join("to-central"))
        .args(["--serial", serial, "--code", code, "--identity"])
        .arg(t.path().join("central.key"))
        .arg("--signer")
        .arg(t.path().join("op.pub"))
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The validation codes of a sealed block, from its print file decrypted with the
/// printer's identity (age -d).
/// A party's bundle is held against `--spec` as a block is (the same game passes, a field
/// that differs is a finding in a block's words), and its `--json` has a block's top-level
/// keys, `bundle` naming whose it is, those of what it cannot hold empty.
#[test]
fn a_partys_bundle_takes_a_reference_spec_and_reports_in_a_blocks_shape() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let dir = t.path().join("to-printer");
    assert!(package(&b, "printer", &key, &dir, &[]).status.success());
    let verify = |dir: &Path, spec: &Path, extra: &[&str]| {
        let o = tirage()
            .arg("verify")
            .arg(dir)
            .arg("--signer")
            .arg(&key)
            .arg("--spec")
            .arg(spec)
            .args(["--json", "--no-audit"])
            .args(extra)
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        (o.status.code(), r)
    };
    let keys =
        |r: &serde_json::Value| -> Vec<String> { r.as_object().unwrap().keys().cloned().collect() };
    let spec = repo("tests/specs/coq_small.toml");
    let (code, r) = verify(&dir, &spec, &[]);
    assert_eq!(code, Some(0), "{r:#}");
    // The whole block's report, for its keys.
    let ids: Vec<String> = ["printer", "central", "auditor"]
        .iter()
        .flat_map(|role| {
            [
                "--identity".to_string(),
                t.path().join(format!("{role}.key")).display().to_string(),
            ]
        })
        .collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let (whole_code, whole) = verify(&b, &spec, &ids);
    assert_eq!(whole_code, Some(0), "{whole:#}");
    assert_eq!(keys(&r), keys(&whole));
    // Whose bundle, by its own key; a block is nobody's.
    assert_eq!(r["bundle"], "printer");
    assert_eq!(whole["bundle"], serde_json::Value::Null);
    let central = t.path().join("to-central");
    assert!(package(&b, "central", &key, &central, &[]).status.success());
    let central_key = t.path().join("central.key");
    let (central_code, c) = verify(
        &central,
        &spec,
        &["--identity", central_key.to_str().unwrap()],
    );
    assert_eq!(central_code, Some(0), "{c:#}");
    assert_eq!(c["bundle"], "central");
    assert_eq!(r["tickets"], 0);
    assert_eq!(r["payout"], serde_json::Value::Null);
    for empty in [
        "ways",
        "features",
        "losing_features",
        "promised",
        "pack_rules",
    ] {
        assert_eq!(r[empty], serde_json::json!([]), "{empty}");
    }
    let files: Vec<&str> = r["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["tickets.bin.age", "spec.toml", "manifest.json"]);
    assert_eq!(r["spec_comparison"]["bytes_identical"], true);
    let result = |r: &serde_json::Value, id: &str| {
        r["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()["result"]
            .clone()
    };
    for (id, want) in [
        ("signature", "pass"),
        ("sha256sums", "pass"),
        ("spec", "pass"),
        ("counts", "n/a"),
    ] {
        assert_eq!(result(&r, id), want, "{id}");
    }
    // Another game's count: the same finding as the block's, field by field.
    let other = t.path().join("other.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    let edited = text.replacen("[game]\n", "[game]\nnote = \"another\"\n", 1);
    assert_ne!(edited, text);
    std::fs::write(&other, edited).unwrap();
    let (code, r) = verify(&dir, &other, &[]);
    let (whole_code, whole) = verify(&b, &other, &ids);
    assert_eq!((code, whole_code), (Some(1), Some(1)));
    assert_eq!(result(&r, "spec"), "fail");
    let spec_check = |r: &serde_json::Value| {
        r["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "spec")
            .unwrap()["examples"]
            .clone()
    };
    assert_eq!(spec_check(&r), spec_check(&whole));
    assert_eq!(
        spec_check(&r)[0]["detail"],
        "game.note: absent in the block's spec.toml, \"another\" in the reference"
    );
}

fn codes_of_sealed(t: &Path, b: &Path) -> Vec<String> {
    let clear = t.join("clear-bin");
    std::fs::create_dir_all(&clear).unwrap();
    std::fs::copy(b.join("spec.toml"), clear.join("spec.toml")).unwrap();
    let (ok, _, err) = run(
        t,
        "age",
        &[
            "-d",
            "-i",
            t.join("printer.key").to_str().unwrap(),
            "-o",
            clear.join("tickets.bin").to_str().unwrap(),
            b.join("tickets.bin.age").to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    codes(&clear)
}

/// A bundle is never written over without --force, nor over a directory holding other
/// files even with it; a block whose file differs from SHA256SUMS, or signed by another
/// key, gets no bundle, and nothing is left at the destination or beside it.
#[test]
fn a_bundle_is_made_whole_from_a_block_that_holds() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let out = t.path().join("to-central");
    assert_eq!(
        package(&b, "central", &key, &out, &["-q"]).status.code(),
        Some(0)
    );
    let o = package(&b, "central", &key, &out, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("exists: nothing was written; give --force")
    );
    assert_eq!(
        package(&b, "central", &key, &out, &["-q", "--force"])
            .status
            .code(),
        Some(0)
    );
    std::fs::write(out.join("notes.txt"), "keep").unwrap();
    let o = package(&b, "central", &key, &out, &["-q", "--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("holds files that are no bundle's (notes.txt)")
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "keep"
    );
    // Another key: refused.
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("other"))
        .assert()
        .success();
    let fresh = t.path().join("to-printer");
    let o = package(&b, "printer", &t.path().join("other.pub"), &fresh, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("SHA256SUMS.minisig: signed by key"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A print file altered after signing: refused, nothing left.
    let mut bytes = std::fs::read(b.join("tickets.bin.age")).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(b.join("tickets.bin.age"), bytes).unwrap();
    let o = package(&b, "printer", &key, &fresh, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("tickets.bin.age"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!fresh.exists());
    let left: Vec<String> = names(t.path())
        .into_iter()
        .filter(|n| n.contains("tirage-tmp") || n.contains("tirage-old"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A bundle replaced with `--force` takes with it the audit report and proofs beside the
/// older one (`<bundle>.audit/`, `<bundle>.proofs/`): they describe files no longer there.
/// One holding a file tirage does not write there is kept, said.
#[test]
fn a_bundle_replaced_takes_its_report_and_proofs_with_it() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let out = t.path().join("to-central");
    assert_eq!(
        package(&b, "central", &key, &out, &["-q"]).status.code(),
        Some(0)
    );
    let (audit, proofs) = (
        t.path().join("to-central.audit"),
        t.path().join("to-central.proofs"),
    );
    for (d, f) in [(&audit, "audit.md"), (&proofs, "ticket-1.svg")] {
        std::fs::create_dir(d).unwrap();
        std::fs::write(d.join(f), "older").unwrap();
    }
    std::fs::write(proofs.join("notes.txt"), "mine").unwrap();
    let o = package(&b, "central", &key, &out, &["--force"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "tirage: removed {}: the audit report of the bundle replaced\n",
            audit.display()
        )),
        "{err}"
    );
    assert!(!audit.exists());
    assert!(
        err.contains(&format!(
            "tirage: warning: {} holds the proofs of the output replaced, not of this one, and \
             is left: it holds notes.txt",
            proofs.display()
        )),
        "{err}"
    );
    assert!(proofs.join("notes.txt").is_file() && proofs.join("ticket-1.svg").is_file());
    std::fs::remove_file(proofs.join("notes.txt")).unwrap();
    let o = package(&b, "central", &key, &out, &["--force"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "tirage: removed {}: the proofs of the bundle replaced\n",
            proofs.display()
        )),
        "{err}"
    );
    assert!(!proofs.exists());
}

/// A bundle never replaces its own block, another block, or goes inside one, even with
/// --force: the block's files stay as they were.
#[test]
fn a_bundle_never_goes_over_or_into_a_block() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let before = names(&b);
    for (out, said) in [
        (b.clone(), "is a block directory, not a bundle"),
        (b.join("bundle"), "inside the block or bundle directory"),
        (b.join("."), "is a block directory, not a bundle"),
    ] {
        let o = package(&b, "printer", &key, &out, &["-q", "--force"]);
        assert_eq!(o.status.code(), Some(2), "{}", out.display());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(said), "{err}");
        assert_eq!(names(&b), before);
    }
}

/// A test block (made with --insecure-seed) is bundled for no party unless --test-block
/// says a test bundle is meant (exit 2, nothing written); its bundle then says what it is,
/// and the central system pays none of its tickets from it (exit 3).
#[test]
fn a_test_block_is_bundled_only_when_told() {
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "test-001", false);
    let key = t.path().join("op.pub");
    for role in ["printer", "central", "auditor"] {
        let out = t.path().join(format!("to-{role}"));
        let o = package(&b, role, &key, &out, &["-q"]);
        assert_eq!(o.status.code(), Some(2), "{role}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!(
                "tirage: error: {}: a TEST BLOCK (made with a test seed, never for sale: whoever knows the seed computes every validation code); no bundle was written: a test block never reaches a printer, the central system or an auditor unnoticed; give --test-block to package it for a test\n",
                b.display()
            )
        );
        assert!(!out.exists(), "{role}");
    }
    let out = t.path().join("to-central");
    let o = package(&b, "central", &key, &out, &["-q", "--test-block"]);
    assert_eq!(o.status.code(), Some(0));
    let rows: Vec<Vec<String>> = std::fs::read_to_string(b.join("tickets.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let w = rows.iter().position(|r| r[5] != "0").unwrap();
    let code = &codes(&b)[w];
    let o = tirage()
        .arg("claim")
        .arg(&out)
        .args(["--serial", &rows[w][4], "--code", code, "--signer"])
        .arg(&key)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!(
            "{}: NOT PAYABLE — a TEST BLOCK's ticket (made with a test seed), never for sale; it would win {} EUR (tier {} EUR, way {})\n",
            rows[w][4], rows[w][5], rows[w][5], rows[w][6]
        )
    );
}

/// The error of a `--signer` key lying in `dir`, the directory it is to authenticate;
/// `spec`: the command takes `--spec`, which may anchor the key instead.
fn key_inside(key: &Path, dir: &Path, spec: bool) -> String {
    format!(
        "tirage: error: --signer {}: that key lies in {}, the directory it is to authenticate: whoever wrote that directory could have written the key too, so a signature by it proves nothing; give the operator's public key as you hold it (the copy the operator gave you){}\n",
        key.display(),
        dir.display(),
        if spec {
            ", or the reference spec that pins it (--spec, [signing] public_key)"
        } else {
            ""
        }
    )
}

/// A forger rewrites a copy of the central system's bundle: one losing row made a 2 EUR
/// winner, the manifest's record and `SHA256SUMS` made to match it, signed by a key of
/// their own put in the bundle as `operator.pub`. A `--signer` key lying in the directory
/// it authenticates (by its path, through `..`, a symlink or a hard link) is refused by
/// verify, claim and package (exit 2); a spec pinning that key is the anchor, and then
/// verify runs. Without a key, the rows counted by way betray the forgery (exit 1), while
/// the genuine bundle's counts pass.
#[test]
fn a_key_inside_the_directory_it_authenticates_is_refused() {
    use sha2::Digest;
    let t = tempfile::tempdir().unwrap();
    let t = t.path();
    for who in ["op", "forger"] {
        tirage()
            .args(["keygen", "--no-password", "--out"])
            .arg(t.join(who))
            .assert()
            .success();
    }
    let b = t.join("block-001");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--seed-file")
        .arg(production_seed_file(t))
        .args(["-q", "--sign"])
        .arg(t.join("op.key"))
        .arg("--out")
        .arg(&b)
        .assert()
        .success();
    let central = t.join("central");
    let op = t.join("op.pub");
    assert!(package(&b, "central", &op, &central, &["-q"])
        .status
        .success());
    let verify = |dir: &Path, extra: &[&str]| {
        let o = tirage()
            .arg("verify")
            .arg(dir)
            .args(["--no-audit", "-q"])
            .args(extra)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // The genuine bundle, its key as the central system holds it: its rows count right.
    let (code, out, err) = verify(&central, &["--signer", op.to_str().unwrap(), "--json"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    let counts = r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "counts")
        .unwrap()["result"]
        .clone();
    assert_eq!(counts, "pass");

    let forge = t.join("forge");
    std::fs::create_dir(&forge).unwrap();
    for n in ["spec.toml", "manifest.json", "validation.csv"] {
        std::fs::copy(central.join(n), forge.join(n)).unwrap();
    }
    let sha = |b: &[u8]| hex::encode(sha2::Sha256::digest(b));
    let csv = std::fs::read_to_string(forge.join("validation.csv")).unwrap();
    let forged = csv.replacen(",lose,0\n", ",2,2\n", 1);
    assert_ne!(forged, csv);
    std::fs::write(forge.join("validation.csv"), &forged).unwrap();
    let mut m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(forge.join("manifest.json")).unwrap()).unwrap();
    for f in m["files"].as_array_mut().unwrap() {
        if f["name"] == "validation.csv" {
            f["sha256"] = sha(forged.as_bytes()).into();
            f["bytes"] = (forged.len() as u64).into();
        }
    }
    std::fs::write(
        forge.join("manifest.json"),
        serde_json::to_vec_pretty(&m).unwrap(),
    )
    .unwrap();
    let sums: String = ["manifest.json", "spec.toml", "validation.csv"]
        .iter()
        .map(|n| format!("{}  {n}\n", sha(&std::fs::read(forge.join(n)).unwrap())))
        .collect();
    std::fs::write(forge.join("SHA256SUMS"), &sums).unwrap();
    let sig = tirage::crypto::sign::Signer::load(&t.join("forger.key"))
        .unwrap()
        .sign(
            sums.as_bytes(),
            "tirage SHA256SUMS game:coq emission:1 block:1 kind:production",
        )
        .unwrap();
    std::fs::write(forge.join("SHA256SUMS.minisig"), sig).unwrap();
    std::fs::copy(t.join("forger.pub"), forge.join("operator.pub")).unwrap();

    // The key in the bundle, however it is named: refused, nothing verified.
    let inside = forge.join("operator.pub");
    let link = t.join("link.pub");
    std::os::unix::fs::symlink(&inside, &link).unwrap();
    let hard = t.join("hard.pub");
    std::fs::hard_link(&inside, &hard).unwrap();
    let dotted = t.join("forge/../forge/operator.pub");
    for key in [&inside, &dotted, &link, &hard] {
        let (code, out, err) = verify(&forge, &["--signer", key.to_str().unwrap()]);
        assert_eq!(
            (code, out.as_str(), err),
            (Some(2), "", key_inside(key, &forge, true)),
            "{}",
            key.display()
        );
    }
    // claim, run inside the bundle, as the reviewer did.
    let o = tirage()
        .current_dir(&forge)
        .args([
            "claim",
            ".",
            "--serial",
            "17030010010000010012",
            "--code",
            "1234567890123456789",
            "--signer",
            "operator.pub",
        ])
        .output()
        .unwrap();
    assert_eq!(
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned()
        ),
        (
            Some(2),
            String::new(),
            key_inside(Path::new("operator.pub"), Path::new("."), false)
        )
    );
    let o = package(&forge, "central", &inside, &t.join("again"), &["-q"]);
    assert_eq!(
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned()
        ),
        (Some(2), key_inside(&inside, &forge, false))
    );
    assert!(!t.join("again").exists());

    // A spec pinning that key anchors it: verify runs, and the counts say what was forged.
    let pinned = t.join("pinned.toml");
    let public = std::fs::read_to_string(t.join("forger.pub")).unwrap();
    std::fs::write(
        &pinned,
        format!(
            "{}\n[signing]\npublic_key = \"{}\"\n",
            std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap(),
            public.lines().nth(1).unwrap()
        ),
    )
    .unwrap();
    let lots: u64 = m["lots"].as_u64().unwrap();
    let losers = m["tickets"].as_u64().unwrap() - lots;
    let forged_counts = format!(
        "validation.csv: 433 row(s) of way \"2\" (prize 2), the manifest's lot table says 432\nvalidation.csv: {} row(s) of way \"lose\" (prize 0), the manifest's lot table says {losers}\n",
        losers - 1
    );
    let findings = |out: &str| -> String {
        let r: serde_json::Value = serde_json::from_str(out).unwrap();
        r["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["id"] == "counts")
            .flat_map(|c| c["examples"].as_array().unwrap().clone())
            .map(|e| format!("{}\n", e["detail"].as_str().unwrap()))
            .collect()
    };
    let (code, out, err) = verify(
        &forge,
        &[
            "--signer",
            inside.to_str().unwrap(),
            "--spec",
            pinned.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!((code, err.as_str()), (Some(1), ""), "{out}");
    assert_eq!(findings(&out), forged_counts);
    let (code, out, _) = verify(&forge, &["--unauthenticated", "--json"]);
    assert_eq!(code, Some(1));
    assert_eq!(findings(&out), forged_counts);
}

/// With one age key per role, the auditor's key opens `tickets.csv.age` only: generate and
/// `package --for auditor` warn (one line), and verify names the files the identities given
/// do not open, and whose identity opens each, as a usage error (exit 2) before any check.
/// The README's pattern (the auditor's key for every role) gets no warning.
#[test]
fn with_one_key_per_role_the_auditor_is_told_which_file_it_cannot_open() {
    let t = tempfile::tempdir().unwrap();
    let t = t.path();
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.join("op"))
        .assert()
        .success();
    let mut public = Vec::new();
    for role in ["printer", "central", "auditor"] {
        let id = t.join(format!("{role}.key"));
        assert!(run(t, "age-keygen", &["-o", id.to_str().unwrap()]).0);
        let (_, p, _) = run(t, "age-keygen", &["-y", id.to_str().unwrap()]);
        public.push(format!("{role}={}", p.trim()));
    }
    let auditor = public[2].trim_start_matches("auditor=").to_string();
    let warning = "tirage: warning: the auditor (a recipient of tickets.csv.age) is no recipient of tickets.bin.age, validation.csv.age: the auditor's identity alone cannot verify the block; give the auditor's key for every role (--recipient printer=… --recipient central=…)\n";
    let everyone = [format!("printer={auditor}"), format!("central={auditor}")];
    for (name, extra, said) in [
        ("one-each", &[][..], warning),
        ("auditor-everywhere", &everyone[..], ""),
    ] {
        std::fs::create_dir(t.join(name)).unwrap();
        let b = t.join(name).join("block-001");
        let mut generate = tirage();
        generate
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .arg("--seed-file")
            .arg(production_seed_file(&t.join(name)))
            .args(["-q", "--sign"])
            .arg(t.join("op.key"))
            .arg("--out")
            .arg(&b);
        for r in public.iter().chain(extra) {
            generate.args(["--recipient", r]);
        }
        let o = generate.output().unwrap();
        assert_eq!(
            (
                o.status.code(),
                String::from_utf8_lossy(&o.stderr).into_owned()
            ),
            (Some(0), said.to_string()),
            "{name}"
        );
        let bundle = t.join(name).join("to-auditor");
        let o = package(&b, "auditor", &t.join("op.pub"), &bundle, &["-q"]);
        assert_eq!(
            (
                o.status.code(),
                String::from_utf8_lossy(&o.stderr).into_owned()
            ),
            (Some(0), said.to_string()),
            "{name}"
        );
        let o = tirage()
            .arg("verify")
            .arg(&bundle)
            .arg("--signer")
            .arg(t.join("op.pub"))
            .arg("--identity")
            .arg(t.join("auditor.key"))
            .args(["--no-audit", "-q"])
            .output()
            .unwrap();
        let (code, out, err) = (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        );
        if said.is_empty() {
            assert_eq!(
                (code, out.lines().next()),
                (Some(0), Some("verify: CLEAN")),
                "{err}"
            );
            continue;
        }
        assert_eq!(
            (code, out, err),
            (
                Some(2),
                String::new(),
                format!(
                    "tirage: error: {}: no identity given opens tickets.bin.age (the printer's), validation.csv.age (the central system's): verify reads every ticket file; give the identity that opens each (--identity FILE, repeatable), or have the auditor made a recipient of every role (generate --recipient printer=… --recipient central=… with the auditor's key); nothing was verified\n",
                    bundle.display()
                )
            )
        );
    }
}

/// A package run killed leaves its staged copy beside the bundle (the ticket files, a
/// central system's validation file among them), or an older bundle moved aside: the next
/// run to that bundle removes them, and one run writes a bundle at a time.
#[test]
fn what_a_killed_package_left_is_removed_by_the_next_run() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let out = t.path().join("to-central");
    for left in [
        ".to-central.tirage-tmp-4242-Ab12Cd",
        ".to-central.tirage-old-Ef34Gh",
    ] {
        std::fs::create_dir(t.path().join(left)).unwrap();
        std::fs::write(t.path().join(left).join("validation.csv.age"), b"staged").unwrap();
    }
    let o = package(&b, "central", &key, &out, &["-q"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        names(t.path())
            .into_iter()
            .filter(|n| n.starts_with(".to-central."))
            .collect::<Vec<_>>(),
        [".to-central.tirage-lock"]
    );
    // Another run holding the bundle's lock: refused at once, nothing written.
    let lock = std::fs::File::open(t.path().join(".to-central.tirage-lock")).unwrap();
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive).unwrap();
    let o = package(&b, "central", &key, &out, &["-q", "--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("is being written or verified by another tirage run"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// An unsigned deck or block is not bundled (exit 2), and the advice names the command
/// that signs it: `deck --sign` for a deck, `generate --sign` for a block.
#[test]
fn an_unsigned_deck_is_told_to_sign_with_deck() {
    let t = tempfile::tempdir().unwrap();
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("op"))
        .assert()
        .success();
    let d = t.path().join("deck");
    deck(&repo("tests/specs/coq_small.toml"), &d);
    let b = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &b, 1);
    for (dir, advice) in [
        (&d, "sign the deck (deck --sign)"),
        (&b, "sign the block (generate --sign)"),
    ] {
        let o = package(
            dir,
            "auditor",
            &t.path().join("op.pub"),
            &t.path().join("bundle"),
            &["--test-block"],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        let sig = dir.join("SHA256SUMS.minisig");
        assert!(
            err.starts_with(&format!(
                "tirage: error: {}: cannot read it (",
                sig.display()
            )),
            "{err}"
        );
        assert!(
            err.ends_with(&format!(
                "): a bundle carries the operator's signature; {advice}\n"
            )),
            "{err}"
        );
        assert!(!t.path().join("bundle").exists());
    }
}

/// The central system's bundle delivered encrypted: its rows are counted only with the
/// identity that opens `validation.csv.age` (clean, exit 0); with none, the verdict says
/// they were not counted and is not clean (exit 1, `counts` `not run`); an identity that
/// opens no file of a bundle is a usage error naming it (exit 2), the printer's too.
#[test]
fn a_central_bundle_is_clean_only_when_its_rows_were_counted() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let central = t.path().join("to-central");
    let printer = t.path().join("to-printer");
    assert!(package(&b, "central", &key, &central, &["-q"])
        .status
        .success());
    assert!(package(&b, "printer", &key, &printer, &["-q"])
        .status
        .success());
    let verify = |dir: &Path, extra: &[&str]| {
        let o = tirage()
            .arg("verify")
            .arg(dir)
            .arg("--signer")
            .arg(&key)
            .args(["--no-audit"])
            .args(extra)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let id = |role: &str| t.path().join(format!("{role}.key")).display().to_string();
    let counts = |out: &str| {
        let r: serde_json::Value = serde_json::from_str(out).unwrap();
        r["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "counts")
            .unwrap()["result"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // Its own identity: counted, clean.
    let (code, out, err) = verify(&central, &["-q", "--identity", &id("central")]);
    assert_eq!(
        (code, out.as_str()),
        (
            Some(0),
            "verify: CLEAN, as the central system's bundle: what it holds was checked, not the whole block\n"
        ),
        "{err}"
    );
    let (code, out, _) = verify(&central, &["--json", "--identity", &id("central")]);
    assert_eq!((code, counts(&out)), (Some(0), "pass".to_string()));
    // No identity: not counted, not clean.
    let (code, out, err) = verify(&central, &["-q"]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            Some(1),
            "verify: FINDINGS in the central system's bundle (counts not run — rows not counted: validation.csv is encrypted and no --identity opens it)\n",
            ""
        )
    );
    let (code, out, _) = verify(&central, &["--json"]);
    assert_eq!((code, counts(&out)), (Some(1), "not run".to_string()));
    // Another party's identity: refused before any check, named.
    for (dir, given, whose, file) in [
        (
            &central,
            "printer",
            "the central system's",
            "validation.csv.age",
        ),
        (&printer, "central", "the printer's", "tickets.bin.age"),
    ] {
        let (code, out, err) = verify(dir, &["-q", "--identity", &id(given)]);
        assert_eq!(
            (code, out.as_str(), err),
            (
                Some(2),
                "",
                format!(
                    "tirage: error: {}: --identity {} opens no file of {whose} bundle: {file} opens with {whose} identity; give that one (--identity FILE); nothing was verified\n",
                    dir.display(),
                    id(given)
                )
            )
        );
    }
    // The printer's own identity opens its file: nothing refused.
    let (code, _, err) = verify(&printer, &["-q", "--identity", &id("printer")]);
    assert_eq!(code, Some(0), "{err}");
}

/// Without -q, package lists the files written (stdout) and says on stderr whose bundle it
/// is, of which block, and what its recipient runs on it next, as generate says what it
/// made: with `--identity` when the bundle holds encrypted files.
#[test]
fn a_bundle_says_whose_it_is_and_what_comes_next() {
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "block-001", true);
    let key = t.path().join("op.pub");
    let out = t.path().join("to-central");
    let o = package(&b, "central", &key, &out, &[]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().count(),
        names(&out).len()
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "the central system's bundle of block 1 of coq → {0}\nthe recipient checks it with: tirage verify {0} --signer KEY.pub   (KEY.pub: the operator's public key as they hold it, not the bundle's operator.pub)\n",
            out.display()
        )
    );
    // Encrypted: the recipient's age identity too.
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let out = t.path().join("to-printer");
    let o = package(&b, "printer", &key, &out, &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stderr).ends_with(&format!(
            "the recipient checks it with: tirage verify {} --signer KEY.pub --identity FILE   (KEY.pub: the operator's public key as they hold it, not the bundle's operator.pub; FILE: their age identity)\n",
            out.display()
        )),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `tirage verify DIR --signer KEY` with `extra` arguments, run to its end.
fn verify_signed(dir: &Path, key: &Path, extra: &[&str]) -> std::process::Output {
    tirage()
        .arg("verify")
        .arg(dir)
        .arg("--signer")
        .arg(key)
        .args(extra)
        .output()
        .unwrap()
}

/// The central system's bundle of a signed small block made in `dir`: the operator's public
/// key and the bundle's folder.
fn central_bundle(dir: &Path) -> (PathBuf, PathBuf) {
    let b = signed_small_block(dir, "block-001", true);
    let key = dir.join("op.pub");
    let out = dir.join("to-central");
    assert_eq!(
        package(&b, "central", &key, &out, &[]).status.code(),
        Some(0)
    );
    (key, out)
}

/// A bundle's own `operator.pub`, which nothing signs, is held to the key verify checks the
/// signature with: another key, or a file that is no key, in its place is a finding, not a clean verdict.
#[test]
fn a_bundle_holding_another_key_than_its_signer_is_a_finding() {
    let t = tempfile::tempdir().unwrap();
    let (key, out) = central_bundle(t.path());
    let verify = || verify_signed(&out, &key, &["--json"]);
    assert_eq!(verify().status.code(), Some(0));
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("forger"))
        .assert()
        .success();
    std::fs::copy(t.path().join("forger.pub"), out.join("operator.pub")).unwrap();
    let o = verify();
    assert_eq!(o.status.code(), Some(1));
    let json = String::from_utf8_lossy(&o.stdout);
    assert!(
        json.contains("operator.pub is key ")
            && json.contains(", not the key the signature was checked with ("),
        "{json}"
    );
    std::fs::write(out.join("operator.pub"), "not a key\n").unwrap();
    let o = verify();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(
            "operator.pub is not a minisign public key (expected its key line, RW…, last)"
        ),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// A party's bundle missing its `operator.pub` is still verified as that party's bundle:
/// the missing key is its one finding (exit 1), said plainly, never a list of the block's
/// files the bundle was never meant to hold.
#[test]
fn a_bundle_missing_its_operator_key_is_told_so() {
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "block-001", true);
    let key = t.path().join("op.pub");
    for role in ["central", "printer"] {
        let out = t.path().join(format!("to-{role}"));
        assert_eq!(package(&b, role, &key, &out, &[]).status.code(), Some(0));
        std::fs::remove_file(out.join("operator.pub")).unwrap();
        let o = verify_signed(&out, &key, &["--json"]);
        assert_eq!(o.status.code(), Some(1));
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(report["bundle"], role);
        let findings: Vec<&str> = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["examples"].as_array().unwrap())
            .map(|f| f["detail"].as_str().unwrap())
            .collect();
        let whose = if role == "central" {
            "the central system's"
        } else {
            "the printer's"
        };
        assert_eq!(
            findings,
            [format!("operator.pub is missing: {whose} bundle holds no copy of the operator's public key (tirage package puts it there); ask the operator for the bundle again, and check it with the key as you hold it (--signer KEY.pub)")]
        );
    }
}

/// What a recipient decrypts from its bundle is held to the manifest, and what the
/// signature vouches for to the manifest and the folder's name, as a whole block's verify
/// holds them: an encrypted file changed, encrypted again, listed in `SHA256SUMS` and
/// signed again with the operator's key is a finding (the printer's and the central
/// system's), and so is a signature whose trusted comment names another block.
#[test]
fn a_bundle_is_held_to_its_manifest_and_to_the_block_its_signature_names() {
    use sha2::Digest;
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let sha = |b: &[u8]| hex::encode(sha2::Sha256::digest(b));
    let id = |role: &str| t.path().join(format!("{role}.key"));
    let recipient = |role: &str| {
        let (ok, public, _) = run(t.path(), "age-keygen", &["-y", id(role).to_str().unwrap()]);
        assert!(ok);
        public.trim().to_string()
    };
    let signer = tirage::crypto::sign::Signer::load(&t.path().join("op.key")).unwrap();
    // The bundle's SHA256SUMS made again from its files, signed by the operator's key with
    // `comment` as its trusted comment.
    let reseal = |dir: &Path, comment: &str| {
        let old = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
        let sums: String = old
            .lines()
            .map(|l| match l.split_once("  ") {
                // A file the bundle holds: its digest now; another party's: as it was.
                Some((_, name)) if dir.join(name).exists() => {
                    format!("{}  {name}\n", sha(&std::fs::read(dir.join(name)).unwrap()))
                }
                _ => format!("{l}\n"),
            })
            .collect();
        std::fs::write(dir.join("SHA256SUMS"), &sums).unwrap();
        let sig = signer.sign(sums.as_bytes(), comment).unwrap();
        std::fs::write(dir.join("SHA256SUMS.minisig"), sig).unwrap();
    };
    let comment = |dir: &Path| {
        let sig = std::fs::read_to_string(dir.join("SHA256SUMS.minisig")).unwrap();
        let line = sig.lines().nth(2).unwrap();
        line.strip_prefix("trusted comment: ").unwrap().to_string()
    };
    let verify = |dir: &Path, role: &str| {
        let o = tirage()
            .arg("verify")
            .arg(dir)
            .arg("--signer")
            .arg(&key)
            .arg("--identity")
            .arg(id(role))
            .args(["--no-audit", "--json"])
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    // One byte of the plaintext of `file` in `dir` changed, encrypted again to `role`.
    let tamper = |dir: &Path, file: &str, role: &str, at: usize| {
        let sealed = dir.join(format!("{file}.age"));
        let plain = t.path().join(format!("{role}.plain"));
        let (ok, _, err) = run(
            t.path(),
            "age",
            &[
                "-d",
                "-i",
                id(role).to_str().unwrap(),
                "-o",
                plain.to_str().unwrap(),
                sealed.to_str().unwrap(),
            ],
        );
        assert!(ok, "{err}");
        let mut bytes = std::fs::read(&plain).unwrap();
        let at = bytes.len() - at;
        bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
        std::fs::write(&plain, &bytes).unwrap();
        std::fs::remove_file(&sealed).unwrap();
        let (ok, _, err) = run(
            t.path(),
            "age",
            &[
                "-e",
                "-r",
                &recipient(role),
                "-o",
                sealed.to_str().unwrap(),
                plain.to_str().unwrap(),
            ],
        );
        assert!(ok, "{err}");
        sha(&bytes)
    };
    for (role, file, at) in [
        ("central", "validation.csv", 3),
        ("printer", "tickets.bin", 1),
    ] {
        let dir = t.path().join(format!("to-{role}"));
        assert!(package(&b, role, &key, &dir, &["-q"]).status.success());
        assert_eq!(verify(&dir, role).0, Some(0), "{role}");
        let signed = comment(&dir);
        let got = tamper(&dir, file, role, at);
        reseal(&dir, &signed);
        let (code, json) = verify(&dir, role);
        assert_eq!(code, Some(1), "{role}: {json}");
        assert!(
            json.contains(&format!(
                "{file}.age: decrypted, its SHA-256 is {got}; manifest.json records "
            )),
            "{role}: {json}"
        );
    }
    // A signature vouching for block 7: a finding, the bundle otherwise whole.
    let dir = t.path().join("to-central-7");
    assert!(package(&b, "central", &key, &dir, &["-q"]).status.success());
    let signed = comment(&dir);
    let other = signed.replace("block:1 ", "block:7 ");
    assert_ne!(other, signed);
    reseal(&dir, &other);
    let (code, json) = verify(&dir, "central");
    assert_eq!(code, Some(1), "{json}");
    assert!(
        json.contains(
            "SHA256SUMS.minisig: the signature vouches for game coq, emission 1, block 7"
        ),
        "{json}"
    );
    // The same bundle signed again for block 1 but moved into a folder named for block 2.
    reseal(&dir, &signed);
    let moved = t.path().join("coq-002");
    std::fs::rename(&dir, &moved).unwrap();
    let (code, json) = verify(&moved, "central");
    assert_eq!(code, Some(1), "{json}");
    assert!(
        json.contains(
            "the folder is named coq-002, which says block 2; the signature vouches for block 1"
        ),
        "{json}"
    );
    // Checked without its signature, the folder's name is held to the manifest all the same.
    let o = tirage()
        .arg("verify")
        .arg(&moved)
        .arg("--unauthenticated")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("the folder is named coq-002, which says block 2; the manifest says block 1"),
        "{text}"
    );
}

/// A bundle whose signature was taken away, checked against the operator's key: it is said
/// not to be signed, in the report, its verdict and `--json`, never that its signature
/// does not hold.
#[test]
fn a_bundle_without_its_signature_is_said_unsigned() {
    let t = tempfile::tempdir().unwrap();
    let (key, out) = central_bundle(t.path());
    std::fs::remove_file(out.join("SHA256SUMS.minisig")).unwrap();
    let o = verify_signed(&out, &key, &[]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("\nsigned: no readable SHA256SUMS.minisig: the bundle is not signed\n")
            && text.contains(
                "; NOT AUTHENTICATED: the bundle is not signed (no readable SHA256SUMS.minisig)\n"
            )
            && !text.contains("does not hold"),
        "{text}"
    );
    let o = verify_signed(&out, &key, &["--json"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a = &json["authenticated"];
    assert_eq!(
        (&a["unsigned"], &a["signature_rejected"], &a["signer"]),
        (
            &serde_json::json!(true),
            &serde_json::json!(true),
            &serde_json::Value::Null
        ),
        "{json}"
    );
}

/// A ticket file grown past what the manifest records (here to 2 GiB, a sparse file) is
/// refused before more than its recorded size, as delivered, is copied: nothing is left
/// beside the destination but the lock file.
#[test]
fn a_file_larger_than_the_manifest_records_is_refused_before_it_is_copied() {
    let t = tempfile::tempdir().unwrap();
    let (b, key) = signed_block(t.path());
    let v = b.join("validation.csv.age");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&v)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let out = t.path().join("to-central");
    let o = package(&b, "central", &key, &out, &["-q"]);
    assert_eq!(o.status.code(), Some(2));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(b.join("manifest.json")).unwrap()).unwrap();
    let recorded = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "validation.csv")
        .unwrap()["bytes"]
        .as_u64()
        .unwrap();
    // Its bytes as age encrypts them, and 64 KiB for the header.
    let most = recorded + 16 * (recorded / 65536 + 1) + 16 + 65536;
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: it holds more than the {most} bytes manifest.json allows it as delivered\n",
            v.display()
        )
    );
    let left: Vec<String> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("to-central"))
        .collect();
    assert_eq!(left, [".to-central.tirage-lock"]);
}
