//! Signatures, encryption per recipient, keys kept apart, and the seed rules, through the
//! binary and the standard tools: `minisign` and `age` (installed by `.ci/run`).

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command as Std;

/// Runs a standard tool; panics with a clear message when it is not installed.
fn tool(name: &str) -> Std {
    let found = Std::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "{name} is not installed (`apt-get install {name}`; .ci/run installs it)"
    );
    Std::new(name)
}

/// A minisign key pair made by `tirage keygen --no-password` in `dir`: (secret, public).
fn keypair(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let prefix = dir.join(name);
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(&prefix)
        .assert()
        .success();
    (
        dir.join(format!("{name}.key")),
        dir.join(format!("{name}.pub")),
    )
}

/// Generates block 1 of the small coq spec into `out` with extra arguments.
fn generate_with(out: &Path, extra: &[&str]) -> std::process::Output {
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn verify(dir: &Path, extra: &[&str]) -> (i32, String) {
    let o = tirage()
        .args(["verify", "--no-audit"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// minisign itself checks what `generate --sign` wrote; `verify --signer` says the key id in
/// its verdict; a block without a signature is a finding unless `--unauthenticated`.
#[test]
fn a_signed_block_is_checked_by_minisign_and_by_verify() {
    let t = tempfile::tempdir().unwrap();
    let (key, public) = keypair(t.path(), "op");
    let b = t.path().join("b");
    let o = generate_with(&b, &["--sign", key.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = tool("minisign")
        .args(["-V", "-p"])
        .arg(&public)
        .arg("-m")
        .arg(b.join("SHA256SUMS"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&m.stdout);
    assert!(
        m.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&m.stderr)
    );
    assert!(
        said.contains("game:coq emission:1 block:1 kind:production"),
        "{said}"
    );

    let id = std::fs::read_to_string(&public).unwrap();
    let (code, text) = verify(&b, &["--signer", public.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let key_id = text
        .lines()
        .find(|l| l.starts_with("held against: signed by key "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(id.contains(&key_id[28..44]), "{key_id} / {id}");
    let (code, text) = verify(&b, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("no signature was checked"), "{text}");
    let (code, text) = verify(&b, &["--unauthenticated"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("UNAUTHENTICATED"), "{text}");
}

/// A block with no signature, verified against a key: its verdict says it is not signed,
/// as its finding does, never that a signature does not hold.
#[test]
fn an_unsigned_block_verified_against_a_key_is_said_unsigned() {
    let t = tempfile::tempdir().unwrap();
    let (_, public) = keypair(t.path(), "op");
    let b = t.path().join("b");
    assert!(generate_with(&b, &[]).status.success());
    let (code, text) = verify(&b, &["--signer", public.to_str().unwrap(), "-q"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.lines().nth(1).is_some_and(|l| l.starts_with(
            "held against: NOT AUTHENTICATED: the block is not signed (no readable SHA256SUMS.minisig); "
        )),
        "{text}"
    );
    let (code, text) = verify(&b, &["--signer", public.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "SHA256SUMS.minisig: No such file or directory (os error 2): the block is not signed"
        ),
        "{text}"
    );
    let (code, text) = verify(&b, &["--signer", public.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1, "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["authenticated"]["unsigned"], serde_json::json!(true));
    // Without a key no signature is looked for: nothing is said of one.
    let (code, text) = verify(&b, &["--unauthenticated", "--json"]);
    assert_eq!(code, 0, "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["authenticated"]["unsigned"], serde_json::json!(false));
}

/// A forger makes a block of their own (every digest consistent) and puts the operator's
/// signature beside it: without the signer it verifies clean; with it, it fails.
#[test]
fn a_forged_block_with_every_digest_rebuilt_fails_the_signature() {
    let t = tempfile::tempdir().unwrap();
    let (key, public) = keypair(t.path(), "op");
    let genuine = t.path().join("genuine");
    assert!(generate_with(&genuine, &["--sign", key.to_str().unwrap()])
        .status
        .success());
    let forged = t.path().join("forged");
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--insecure-seed", "--seed", &"5a".repeat(32), "-q", "--out"])
        .arg(&forged)
        .output()
        .unwrap();
    assert!(o.status.success());
    std::fs::copy(
        genuine.join("SHA256SUMS.minisig"),
        forged.join("SHA256SUMS.minisig"),
    )
    .unwrap();
    assert_eq!(verify(&forged, &["--unauthenticated"]).0, 0);
    let (code, text) = verify(&forged, &["--signer", public.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FAIL    signature"), "{text}");
    // Another operator's key does not vouch for the genuine block either.
    let (_, other) = keypair(t.path(), "other");
    let (code, text) = verify(&genuine, &["--signer", other.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(text.contains("not by the key given"), "{text}");
    let other_id = key_id(&other);
    assert!(
        text.contains(&format!("held against: NOT AUTHENTICATED: the signature was checked and does not match key {other_id}; ")),
        "{text}"
    );
}

/// The key id (16 hex digits) of public key file `public`.
fn key_id(public: &Path) -> String {
    tirage::crypto::sign::Verifier::load(public)
        .unwrap()
        .id()
        .to_string()
}

/// A signature checked against a key it is not by says so, with that key's id: the
/// verdict, `--json` and a party's bundle's lines; so does a `--signer` other than the key
/// the reference spec pins, though the block is signed by the pinned key (exit 1).
#[test]
fn a_signature_checked_against_another_key_says_it_does_not_match() {
    let t = tempfile::tempdir().unwrap();
    let (key, public) = keypair(t.path(), "op");
    let (_, other) = keypair(t.path(), "other");
    let (op_id, other_id) = (key_id(&public), key_id(&other));
    let b = t.path().join("block-001");
    assert!(generate_with(&b, &["--sign", key.to_str().unwrap()])
        .status
        .success());
    let json = |dir: &Path, extra: &[&str]| {
        let o = tirage()
            .args(["verify", "--no-audit", "--json"])
            .arg(dir)
            .args(extra)
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (o.status.code(), r["authenticated"].clone())
    };
    let (code, a) = json(&b, &["--signer", other.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!(
        (&a["signer"], &a["mismatched_key"], &a["signature_rejected"]),
        (
            &serde_json::Value::Null,
            &serde_json::json!(other_id),
            &serde_json::json!(true)
        )
    );
    let (code, a) = json(&b, &["--signer", public.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert_eq!(a["mismatched_key"], serde_json::Value::Null);
    // The reference spec pins the operator's key; --signer names another.
    let pinned = t.path().join("pinned.toml");
    std::fs::write(
        &pinned,
        format!(
            "{}\n[signing]\npublic_key = \"{}\"\n",
            std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap(),
            std::fs::read_to_string(&public)
                .unwrap()
                .lines()
                .nth(1)
                .unwrap()
        ),
    )
    .unwrap();
    let (code, text) = verify(
        &b,
        &[
            "--signer",
            other.to_str().unwrap(),
            "--spec",
            pinned.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1, "{text}");
    let held = text
        .lines()
        .find(|l| l.starts_with("held against: "))
        .unwrap();
    // The pinned key's signature holds: the verdict says what is wrong, the key given.
    assert!(
        held.starts_with(&format!("held against: NOT AUTHENTICATED: the key given (--signer, key {other_id}) is not the operator's key the reference spec pins; ")),
        "{held}"
    );
    let (_, a) = json(
        &b,
        &[
            "--signer",
            other.to_str().unwrap(),
            "--spec",
            pinned.to_str().unwrap(),
        ],
    );
    assert_eq!(
        (&a["mismatched_key"], &a["signer_not_pinned"]),
        (&serde_json::json!(other_id), &serde_json::json!(true))
    );
    assert!(!text.contains("signed by key RW"), "{text}");
    // A party's bundle: its lines say the same.
    let central = t.path().join("central");
    let o = tirage()
        .arg("package")
        .arg(&b)
        .args(["--for", "central", "--test-block", "-q", "--signer"])
        .arg(&public)
        .arg("--out")
        .arg(&central)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (code, text) = verify(&central, &["--signer", other.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        (lines[1], lines[2], *lines.last().unwrap()),
        (
            format!("signed: SHA256SUMS.minisig was checked and does not match key {other_id}").as_str(),
            format!("FINDING SHA256SUMS.minisig: signed by key {op_id}, not by the key given ({other_id})").as_str(),
            format!("verify: FINDINGS in the central system's bundle (1 finding(s)); a TEST BLOCK's (made with a test seed, never for sale); NOT AUTHENTICATED: the signature was checked and does not match key {other_id}").as_str()
        ),
        "{text}"
    );
    let (_, a) = json(&central, &["--signer", other.to_str().unwrap()]);
    assert_eq!(a["mismatched_key"], serde_json::json!(other_id));
}

/// `age-keygen` identities: each file opens with its own role's identity only (age itself
/// decrypts it), nothing of the tickets is left in clear, and verify reads the block with
/// an identity that opens every file.
#[test]
fn each_ticket_file_opens_for_its_recipient_only() {
    let t = tempfile::tempdir().unwrap();
    let mut public = Vec::new();
    for role in ["printer", "central", "auditor"] {
        let id = t.path().join(format!("{role}.txt"));
        assert!(tool("age-keygen")
            .arg("-o")
            .arg(&id)
            .output()
            .unwrap()
            .status
            .success());
        let o = tool("age-keygen").arg("-y").arg(&id).output().unwrap();
        public.push(String::from_utf8(o.stdout).unwrap().trim().to_string());
    }
    let args: Vec<String> = ["printer", "central", "auditor"]
        .iter()
        .zip(&public)
        .map(|(r, k)| format!("{r}={k}"))
        .chain([
            format!("printer={}", public[2]),
            format!("central={}", public[2]),
        ])
        .flat_map(|a| ["--recipient".to_string(), a])
        .collect();
    let b = t.path().join("b");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = generate_with(&b, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&b)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "SHA256SUMS",
            "manifest.json",
            "spec.toml",
            "tickets.bin.age",
            "tickets.csv.age",
            "validation.csv.age"
        ]
    );
    // The central system opens its file with age; the printer's identity does not open it.
    let id = |r: &str| t.path().join(format!("{r}.txt"));
    let o = tool("age")
        .arg("-d")
        .arg("-i")
        .arg(id("central"))
        .arg(b.join("validation.csv.age"))
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(o.stdout.starts_with(b"claim,way,prize\n"));
    let o = tool("age")
        .arg("-d")
        .arg("-i")
        .arg(id("printer"))
        .arg(b.join("validation.csv.age"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    // The plaintext is the block made in clear from the same seed: the manifest says so.
    let clear = t.path().join("clear");
    assert!(generate_with(&clear, &[]).status.success());
    let plain = tool("age")
        .arg("-d")
        .arg("-i")
        .arg(id("auditor"))
        .arg(b.join("tickets.csv.age"))
        .output()
        .unwrap();
    assert_eq!(
        plain.stdout,
        std::fs::read(clear.join("tickets.csv")).unwrap()
    );
    // Verify decrypts on the fly; the printer alone cannot check the whole block.
    let auditor = id("auditor");
    let (code, text) = verify(
        &b,
        &["--unauthenticated", "--identity", auditor.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("ticket files delivered encrypted"), "{text}");
    let printer = id("printer");
    let o = tirage()
        .args(["verify", "--no-audit", "--unauthenticated", "--identity"])
        .arg(&printer)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(
        (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()),
        (
            Some(2),
            format!(
                "tirage: error: {}: no identity given opens validation.csv.age (the central system's), tickets.csv.age (the auditor's): verify reads every ticket file; give the identity that opens each (--identity FILE, repeatable), or have the auditor made a recipient of every role (generate --recipient printer=… --recipient central=… with the auditor's key); nothing was verified\n",
                b.display()
            )
        )
    );
    // No identity at all: an error saying what to give, not a list of findings.
    let o = tirage()
        .args(["verify", "--no-audit", "--unauthenticated"])
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: tickets.csv.age, tickets.bin.age, validation.csv.age are encrypted: give the identities that open them (--identity FILE, the auditor's); nothing was verified\n",
            b.display()
        )
    );
    // A role left without a recipient: refused, nothing written.
    let o = generate_with(
        &t.path().join("half"),
        &["--recipient", &format!("printer={}", public[0])],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no recipient for central"));
    assert!(!t.path().join("half").exists());
}

/// One seed reused for another game (another game code, hence another spec digest) gives
/// other positions and other validation codes, with the same validation key.
#[test]
fn the_same_seed_for_two_games_gives_other_positions_and_codes() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let other = t.path().join("other.toml");
    std::fs::write(&other, text.replace("game_code = 1703", "game_code = 1704")).unwrap();
    let a = t.path().join("a");
    generate(&repo("tests/specs/coq_small.toml"), &a, 1);
    let b = t.path().join("b");
    generate(&other, &b, 1);
    let ways = |d: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(d.join("tickets.csv")).unwrap();
        let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let i = head.iter().position(|h| *h == "way").unwrap();
        text.lines()
            .skip(1)
            .map(|l| l.split(',').nth(i).unwrap().to_string())
            .collect()
    };
    let (wa, wb) = (ways(&a), ways(&b));
    assert_eq!(wa.len(), wb.len());
    let same = wa.iter().zip(&wb).filter(|(x, y)| x == y).count();
    // Two independent arrangements agree where both are losers, about 0.48 of the time;
    // the same arrangement would agree everywhere.
    assert!(same < wa.len() * 3 / 4, "{same} of {}", wa.len());
    let ca: std::collections::HashSet<String> = codes(&a).into_iter().collect();
    assert!(codes(&b).iter().all(|c| !ca.contains(c)));
}

/// A seed on the command line needs --insecure-seed; a weak seed file is refused without it.
#[test]
fn seeds_on_the_command_line_and_weak_seeds_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--seed", SEED, "-q", "--out"])
        .arg(t.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "tirage: error: --seed puts the seed on the command line, where every user of the machine can read it: it is for tests and examples only, with --insecure-seed; a production seed is read from a file (--seed-file) or drawn fresh (no seed option); nothing was done\n"
    );
    assert!(!t.path().join("x").exists());
    for weak in [SEED.to_string(), "00".repeat(32), "ab".repeat(32)] {
        let f = t.path().join("weak.seed");
        std::fs::write(&f, &weak).unwrap();
        let o = tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .arg("--seed-file")
            .arg(&f)
            .args(["-q", "--out"])
            .arg(t.path().join("x"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("the seed is weak"), "{err}");
        assert!(!t.path().join("x").exists());
    }
}

/// `tirage keygen`'s public key file has the form `minisign -G` writes: the untrusted
/// comment `minisign public key <key id>`, then the key line; so the operator's `KEY.pub`
/// and a bundle's `operator.pub` (written in the same form) are the same bytes.
#[test]
fn keygen_writes_the_public_key_as_minisign_does() {
    let t = tempfile::tempdir().unwrap();
    let (_, ours) = keypair(t.path(), "op");
    let theirs = t.path().join("m.pub");
    let o = tool("minisign")
        .args(["-G", "-W", "-p"])
        .arg(&theirs)
        .arg("-s")
        .arg(t.path().join("m.key"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Each file: its comment's words before the key id, the id (hex digits: minisign
    // prints it without its leading zeros, so a key whose id starts with 0 shows 15 or
    // fewer), the key line's length, the lines.
    let form = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let (head, id) = lines[0].rsplit_once(' ').unwrap();
        assert!(
            (1..=16).contains(&id.len()) && id.chars().all(|c| c.is_ascii_hexdigit()),
            "{text}"
        );
        (
            head.to_string(),
            lines[1].len(),
            lines.len(),
            text.ends_with('\n'),
        )
    };
    assert_eq!(form(&ours), form(&theirs));
    assert_eq!(
        form(&ours),
        (
            "untrusted comment: minisign public key".to_string(),
            56,
            2,
            true
        )
    );
}

/// A password-protected key signs with its password from TIRAGE_KEY_PASSWORD, and not
/// with a wrong one.
#[test]
fn a_password_protected_key_signs_with_its_password_only() {
    let t = tempfile::tempdir().unwrap();
    tirage()
        .env("TIRAGE_KEY_PASSWORD", "correct horse battery")
        .args(["keygen", "--out"])
        .arg(t.path().join("op"))
        .assert()
        .success();
    let key = t.path().join("op.key");
    let run = |pw: &str, out: &str| {
        tirage()
            .env("TIRAGE_KEY_PASSWORD", pw)
            .arg("deck")
            .arg(repo("tests/specs/coq_small.toml"))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--sign"])
            .arg(&key)
            .arg("--out")
            .arg(t.path().join(out))
            .output()
            .unwrap()
    };
    assert_eq!(run("wrong", "d1").status.code(), Some(2));
    assert!(!t.path().join("d1").exists());
    let o = run("correct horse battery", "d2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let public = t.path().join("op.pub");
    let (code, text) = verify(
        &t.path().join("d2"),
        &["--signer", public.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{text}");
}

/// A signed emission: every block's SHA256SUMS and emission.json itself are signed, and
/// verify of the emission checks them all; a signature removed is a finding.
#[test]
fn a_signed_emission_is_checked_whole() {
    let t = tempfile::tempdir().unwrap();
    let (key, public) = keypair(t.path(), "op");
    let em = t.path().join("em");
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args([
            "--blocks",
            "1..2",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--sign",
        ])
        .arg(&key)
        .arg("--out")
        .arg(&em)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = tool("minisign")
        .args(["-V", "-p"])
        .arg(&public)
        .arg("-m")
        .arg(em.join("emission.json"))
        .output()
        .unwrap();
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    let signer = public.to_str().unwrap();
    let (code, text) = verify(&em, &["--signer", signer]);
    assert_eq!(code, 0, "{text}");
    std::fs::remove_file(em.join("emission.json.minisig")).unwrap();
    let (code, text) = verify(&em, &["--signer", signer]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("the emission manifest is not signed"),
        "{text}"
    );
}
