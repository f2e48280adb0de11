//! The operator's key pinned in the reference spec (`[signing] public_key`), the block a
//! signature vouches for, and test seeds that never pass as production: through the binary
//! and `minisign` (installed by `.ci/run`), as an attacker would try them.

mod common;
use common::*;
use std::path::{Path, PathBuf};

/// A key pair made by `tirage keygen --no-password`: (secret, public, the public key line).
fn keypair(dir: &Path, name: &str) -> (PathBuf, PathBuf, String) {
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(dir.join(name))
        .assert()
        .success();
    let public = dir.join(format!("{name}.pub"));
    let line = std::fs::read_to_string(&public)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    (dir.join(format!("{name}.key")), public, line)
}

/// The small coq spec with the operator's key pinned, written into `dir`.
fn pinned_spec(dir: &Path, key_line: &str) -> PathBuf {
    let mut text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    text.push_str(&format!("\n[signing]\npublic_key = \"{key_line}\"\n"));
    let p = dir.join("coq_small.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// A fresh secret (`tirage seed new`) in `dir/name`.
fn secret(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    tirage()
        .args(["seed", "new", "--out"])
        .arg(&p)
        .assert()
        .success();
    p
}

fn run(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    // Scratch files (an emission's sorted codes) in a directory of the test's own.
    let scratch = tempfile::tempdir().unwrap();
    let o = tirage()
        .args(args)
        .env("TMPDIR", scratch.path())
        .output()
        .unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn os<S: AsRef<std::ffi::OsStr> + ?Sized>(s: &S) -> &std::ffi::OsStr {
    s.as_ref()
}

/// `tirage verify DIR --no-audit -q` with `extra`: (exit code, verdict).
fn verify(dir: &Path, extra: &[&std::ffi::OsStr]) -> (i32, String) {
    let mut args = vec![os("verify"), dir.as_os_str(), os("--no-audit"), os("-q")];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    (code, format!("{out}{err}"))
}

/// Block 1 of `spec` into `out`, signed with `key`, with a fresh seed file and validation
/// key (a production block) unless `seed` (a test seed, with --insecure-seed) is given.
fn generate(t: &Path, spec: &Path, out: &Path, key: &Path, seed: Option<&str>) {
    let name = out
        .strip_prefix(t)
        .unwrap()
        .to_string_lossy()
        .replace('/', "-");
    let vkey = secret(t, &format!("{name}.vkey"));
    let mut args = vec![
        os("generate"),
        spec.as_os_str(),
        os("--validation-key"),
        vkey.as_os_str(),
        os("--sign"),
        key.as_os_str(),
        os("-q"),
        os("--out"),
        out.as_os_str(),
    ];
    if let Some(s) = seed {
        args.extend([os("--insecure-seed"), os("--seed"), os(s)]);
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_block_signed_by_another_key_than_the_pinned_one_is_a_finding() {
    let t = tempfile::tempdir().unwrap();
    let t = &std::fs::canonicalize(t.path()).unwrap();
    let (op_key, op_pub, op_line) = keypair(t, "op");
    let (forger_key, forger_pub, forger_line) = keypair(t, "forger");
    let spec = pinned_spec(t, &op_line);
    let b1 = t.join("block-001");
    generate(t, &spec, &b1, &op_key, None);

    // The genuine block: the verdict names the whole key, says the reference spec pins it
    // (with or without --signer), and the block it vouches for.
    let said = format!(
        "held against: signed by key {op_line}, the operator's key the reference spec pins, for game coq, emission 1, block 1, production;"
    );
    let (code, text) = verify(&b1, &[os("--spec"), spec.as_os_str()]);
    assert_eq!(code, 0, "{text}");
    assert!(text.starts_with("verify: CLEAN\n"), "{text}");
    assert!(text.contains(&said), "{text}");
    let (code, text) = verify(
        &b1,
        &[
            os("--spec"),
            spec.as_os_str(),
            os("--signer"),
            op_pub.as_os_str(),
        ],
    );
    assert_eq!(code, 0, "{text}");
    assert!(text.contains(&said), "{text}");
    // Without the reference spec, the key given is not said to be pinned.
    let (code, text) = verify(&b1, &[os("--signer"), op_pub.as_os_str()]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!(
            "held against: signed by key {op_line} for game coq, emission 1, block 1, production;"
        )),
        "{text}"
    );
    let (code, json) = verify(&b1, &[os("--spec"), spec.as_os_str(), os("--json")]);
    assert_eq!(code, 0, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (
            &v["authenticated"]["signer"],
            &v["authenticated"]["signer_pinned"]
        ),
        (&serde_json::json!(op_line), &serde_json::json!(true))
    );

    // generate signs a pinned game with the pinned key only.
    let out = t.join("x");
    for extra in [vec![os("--sign"), forger_key.as_os_str()], vec![]] {
        let mut args = vec![
            os("generate"),
            spec.as_os_str(),
            os("--insecure-seed"),
            os("--seed"),
            os(SEED),
            os("--out"),
            out.as_os_str(),
        ];
        args.extend(extra);
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(&op_line), "{err}");
        assert!(!out.exists());
    }

    // The forger signs the same files with its own key, trusted comment and all: a finding
    // against the pinned spec, even when --signer names the forger's key.
    let forged = t.join("forged").join("block-001");
    std::fs::create_dir_all(forged.parent().unwrap()).unwrap();
    let copy = std::process::Command::new("cp")
        .arg("-a")
        .arg(&b1)
        .arg(&forged)
        .status()
        .unwrap();
    assert!(copy.success());
    std::fs::remove_file(forged.join("SHA256SUMS.minisig")).unwrap();
    let m = std::process::Command::new("minisign")
        .args(["-S", "-s"])
        .arg(&forger_key)
        .arg("-m")
        .arg(forged.join("SHA256SUMS"))
        .args([
            "-t",
            "tirage SHA256SUMS game:coq emission:1 block:1 kind:production",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("minisign is needed by this test (apt-get install minisign)");
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    let (code, text) = verify(
        &forged,
        &[
            os("--spec"),
            spec.as_os_str(),
            os("--signer"),
            forger_pub.as_os_str(),
        ],
    );
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FINDINGS (signature fail)"), "{text}");
    assert!(!text.contains(&forger_line), "{text}");
    let (code, report) = {
        let (c, out, _) = run(&[
            os("verify"),
            forged.as_os_str(),
            os("--no-audit"),
            os("--spec"),
            spec.as_os_str(),
            os("--signer"),
            forger_pub.as_os_str(),
        ]);
        (c, out)
    };
    assert_eq!(code, 1);
    assert!(
        report.contains(&format!("the key given (--signer, {forger_line}) is not the operator's key the reference spec pins ({op_line})")),
        "{report}"
    );
    // The signature was checked against the pinned key, and the finding says so.
    let id = |p: &std::path::Path| {
        tirage::crypto::sign::Verifier::load(p)
            .unwrap()
            .id()
            .to_string()
    };
    let (code, text) = verify(&forged, &[os("--spec"), spec.as_os_str()]);
    assert_eq!(code, 1, "{text}");
    let (code, report) = {
        let (c, out, _) = run(&[
            os("verify"),
            forged.as_os_str(),
            os("--no-audit"),
            os("--spec"),
            spec.as_os_str(),
        ]);
        (c, out)
    };
    assert_eq!(code, 1);
    assert!(
        report.contains(&format!(
            "SHA256SUMS.minisig: signed by key {}, not by the operator's key the reference spec pins ({})",
            id(&forger_pub),
            id(&op_pub)
        )),
        "{report}{text}"
    );
    // Without the pin, --signer names any key: the forger's block holds for the forger's
    // key, and the verdict names that whole key, not the operator's.
    let (code, text) = verify(&forged, &[os("--signer"), forger_pub.as_os_str()]);
    assert!(
        text.contains(&format!("signed by key {forger_line} for game coq")),
        "{text}"
    );
    // But the block's own spec.toml pins the operator's key: a finding, even without --spec.
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FINDINGS (signature fail)"), "{text}");
    let (_, report, _) = run(&[
        os("verify"),
        forged.as_os_str(),
        os("--no-audit"),
        os("--signer"),
        forger_pub.as_os_str(),
    ]);
    assert!(
        report.contains(&format!("signed by key {forger_line}, but the block's own spec.toml pins key {op_line}: a block of a game that pins its operator's key is signed by that key; hold the block to the game's reference spec (--spec)")),
        "{report}"
    );
    // package refuses to bundle it with the forger's key, though the signature holds for
    // that key: nothing is written.
    let bundle = t.join("forged-printer");
    let (code, _, err) = run(&[
        os("package"),
        forged.as_os_str(),
        os("--for"),
        os("printer"),
        os("--signer"),
        forger_pub.as_os_str(),
        os("-q"),
        os("--out"),
        bundle.as_os_str(),
    ]);
    assert_eq!(code, 2, "{err}");
    let forger_id = tirage::crypto::sign::Verifier::load(&forger_pub)
        .unwrap()
        .id()
        .to_string();
    assert_eq!(
        err,
        format!(
            "tirage: error: {}: pins the operator's key {op_line} ([signing] public_key), but the files are signed by the --signer key {forger_line} (key ID {forger_id}): a block or deck of a game that pins its operator's key is signed by that key; no bundle was written\n",
            forged.join("spec.toml").display()
        )
    );
    assert!(!bundle.exists());
    // The printer's bundle of that block made by hand, checked with the forger's key: the
    // same finding.
    std::fs::create_dir(&bundle).unwrap();
    for f in [
        "tickets.bin",
        "spec.toml",
        "manifest.json",
        "SHA256SUMS",
        "SHA256SUMS.minisig",
    ] {
        std::fs::copy(forged.join(f), bundle.join(f)).unwrap();
    }
    std::fs::copy(&forger_pub, bundle.join("operator.pub")).unwrap();
    let (code, text) = verify(&bundle, &[os("--signer"), forger_pub.as_os_str()]);
    assert_eq!(code, 1, "{text}");
    let (_, report, _) = run(&[
        os("verify"),
        bundle.as_os_str(),
        os("--signer"),
        forger_pub.as_os_str(),
    ]);
    assert!(
        report.contains(&format!("SHA256SUMS.minisig: signed by key {forger_line}, but the block's own spec.toml pins key {op_line}")),
        "{report}"
    );

    // A copy of block 1 named block-002: the signature vouches for block 1.
    let b2 = t.join("block-002");
    let copy = std::process::Command::new("cp")
        .arg("-a")
        .arg(&b1)
        .arg(&b2)
        .status()
        .unwrap();
    assert!(copy.success());
    let (code, report) = {
        let (c, out, _) = run(&[
            os("verify"),
            b2.as_os_str(),
            os("--no-audit"),
            os("--spec"),
            spec.as_os_str(),
        ]);
        (c, out)
    };
    assert_eq!(code, 1, "{report}");
    assert!(
        report.contains(
            "the folder is named block-002, which says block 2; the signature vouches for block 1"
        ),
        "{report}"
    );
}

#[test]
fn a_test_seed_block_says_so_and_is_no_production_block_of_a_pinned_game() {
    let t = tempfile::tempdir().unwrap();
    let t = &std::fs::canonicalize(t.path()).unwrap();
    let (op_key, op_pub, op_line) = keypair(t, "op");
    let spec = pinned_spec(t, &op_line);
    let b = t.join("block-001");
    generate(t, &spec, &b, &op_key, Some(SEED));

    // The manifest and the trusted comment say so.
    let manifest = std::fs::read_to_string(b.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"insecure_seed\": true"), "{manifest}");
    let sig = std::fs::read_to_string(b.join("SHA256SUMS.minisig")).unwrap();
    assert!(
        sig.contains(
            "trusted comment: tirage SHA256SUMS game:coq emission:1 block:1 kind:production seed:insecure\n"
        ),
        "{sig}"
    );
    // Against the pinned spec (a production check): a finding.
    let (code, text) = verify(&b, &[os("--spec"), spec.as_os_str()]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FINDINGS (manifest fail)"), "{text}");
    assert!(text.contains("TEST BLOCK"), "{text}");

    // Without a pinned key (a developer's or the acceptance script's check): clean as a
    // test block, and the verdict says so first.
    let plain = repo("tests/specs/coq_small.toml");
    let d = t.join("dev").join("block-001");
    generate(t, &plain, &d, &op_key, Some(SEED));
    let (code, text) = verify(
        &d,
        &[
            os("--spec"),
            plain.as_os_str(),
            os("--signer"),
            op_pub.as_os_str(),
        ],
    );
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with(
            "verify: CLEAN, as a TEST BLOCK (made with a test seed, never for sale)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("production, made with --insecure-seed;"),
        "{text}"
    );

    // A specimen deck may rest on a test seed: never payable, no finding.
    let deck = t.join("deck");
    let (code, out, err) = run(&[
        os("deck"),
        spec.as_os_str(),
        os("--insecure-seed"),
        os("--seed"),
        os(SEED),
        os("--sign"),
        op_key.as_os_str(),
        os("-q"),
        os("--out"),
        deck.as_os_str(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, text) = verify(&deck, &[os("--spec"), spec.as_os_str()]);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn weak_production_seeds_are_refused_without_insecure_seed() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let counting: String = (0u8..32).map(|i| format!("{i:02x}")).collect();
    let stepping: String = (0u8..32).map(|i| format!("{:02x}", 5 + i * 7)).collect();
    let text = hex_of("the quick brown fox jumps over..");
    for weak in [SEED.to_string(), counting, stepping, text] {
        let f = t.path().join("weak.seed");
        std::fs::write(&f, format!("{weak}\n")).unwrap();
        let out = t.path().join("x");
        let (code, _, err) = run(&[
            os("generate"),
            spec.as_os_str(),
            os("--seed-file"),
            f.as_os_str(),
            os("-q"),
            os("--out"),
            out.as_os_str(),
        ]);
        assert_eq!(code, 2, "{weak}: {err}");
        assert!(err.contains("the seed is weak"), "{err}");
        assert!(!err.contains(&weak), "{err}");
        assert!(!out.exists());
    }
}

fn hex_of(s: &str) -> String {
    assert_eq!(s.len(), 32);
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn an_emission_of_a_pinned_game_is_held_to_the_pinned_key() {
    let t = tempfile::tempdir().unwrap();
    let t = &std::fs::canonicalize(t.path()).unwrap();
    let (op_key, _, op_line) = keypair(t, "op");
    let (forger_key, _, _) = keypair(t, "forger");
    let spec = pinned_spec(t, &op_line);
    let seed = secret(t, "emission.seed");
    let vkey = secret(t, "emission.vkey");
    let e = t.join("emission");
    let (code, out, err) = run(&[
        os("generate"),
        spec.as_os_str(),
        os("--blocks"),
        os("1..2"),
        os("--seed-file"),
        seed.as_os_str(),
        os("--validation-key"),
        vkey.as_os_str(),
        os("--sign"),
        op_key.as_os_str(),
        os("-q"),
        os("--out"),
        e.as_os_str(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, text) = verify(&e, &[os("--spec"), spec.as_os_str()]);
    assert_eq!(code, 0, "{text}");
    // emission.json signed by the forger: a finding, with no --signer at all.
    let m = std::process::Command::new("minisign")
        .args(["-S", "-s"])
        .arg(&forger_key)
        .arg("-m")
        .arg(e.join("emission.json"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("minisign is needed by this test (apt-get install minisign)");
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    let (code, out, _) = run(&[os("verify"), e.as_os_str(), os("--spec"), spec.as_os_str()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("emission.json.minisig: signed by key"),
        "{out}"
    );
}

/// A reference spec read from the very directory it is to check is refused before any
/// check (exit 2): a forger's block whose own `spec.toml` pins the forger's key would
/// otherwise pass as signed by the key the reference pins. The same spec copied out of the
/// block is held to as a reference, and the forger's key is then what it pins: a reader
/// must hold the game's spec as the game team approved it.
#[test]
fn a_reference_spec_inside_the_block_it_checks_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let (forger, _, line) = keypair(t.path(), "forger");
    let dir = t.path().join("forged");
    std::fs::create_dir(&dir).unwrap();
    let spec = pinned_spec(&dir, &line);
    let block = t.path().join("block-001");
    generate(t.path(), &spec, &block, &forger, None);
    let inside = block.join("spec.toml");
    let (code, said) = verify(&block, &[os("--spec"), inside.as_os_str()]);
    assert_eq!(
        (code, said),
        (
            2,
            format!(
                "tirage: error: --spec {}: that spec lies in {}, the directory it is to be held against: whoever wrote that directory could have written the spec too, so it is no reference, and a key it pins proves nothing; give the game's spec as you hold it (the copy the game team approved, e.g. game_specs/GAME.toml)\n",
                inside.display(),
                block.display()
            )
        )
    );
    // Spelled through `..` or a symbolic link: the same file, refused the same.
    let link = t.path().join("spec-link.toml");
    std::os::unix::fs::symlink(&inside, &link).unwrap();
    let dotted = block.join("../block-001/spec.toml");
    for path in [&link, &dotted] {
        assert_eq!(verify(&block, &[os("--spec"), path.as_os_str()]).0, 2);
    }
    // Outside the block, it is a reference like any other: CLEAN, held to the key it pins.
    let (code, said) = verify(&block, &[os("--spec"), spec.as_os_str()]);
    assert_eq!(code, 0, "{said}");
}
