//! The real binary on the scaled-down coq spec: determinism, golden digests, verify, and
//! tampering of every kind making verify exit 1.

mod common;

use common::*;
use std::path::Path;
use std::sync::OnceLock;

/// One clean block shared by the tamper tests (each works on its own copy).
fn clean_block() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        generate(&repo("tests/specs/coq_small.toml"), &d.path().join("b"), 2);
        d
    })
    .path()
}

fn block() -> std::path::PathBuf {
    clean_block().join("b")
}

fn sums(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap()
}

#[test]
fn identical_files_for_1_2_and_8_threads() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    for n in [1, 8] {
        generate(&spec, &t.path().join(format!("t{n}")), n);
    }
    let reference = sums(&block());
    assert_eq!(sums(&t.path().join("t1")), reference);
    assert_eq!(sums(&t.path().join("t8")), reference);
}

/// Golden digests of the small block for the test seed. They change only when the format,
/// the spec or the generator changes on purpose: then rewrite them, and say why in the commit.
#[test]
fn golden_digests() {
    let s = sums(&block());
    let line = |name: &str| {
        s.lines()
            .find(|l| l.ends_with(name))
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(line("tickets.csv"), GOLDEN_CSV);
    assert_eq!(line("tickets.bin"), GOLDEN_BIN);
    assert_eq!(line("validation.csv"), GOLDEN_VALIDATION);
}
const GOLDEN_CSV: &str = "5b28c0d2734020ea5badc439c028d19889489fc9b348b6e71c28a37ce900176d";
const GOLDEN_BIN: &str = "74269d6e98445673cdbd7da7287079fcc5c0419a028dc47d91cd06be95a4ebed";
const GOLDEN_VALIDATION: &str = "9adc4a664b9961e1531d873585e8cd1cc83a84cba766acebafa4b329dd4e1434";

#[test]
fn a_fresh_block_verifies_clean() {
    let out = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(block())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("verify: CLEAN"));
    assert!(!text.contains("FAIL"));
}

#[test]
fn json_report_lists_every_check_and_the_counts() {
    let out = tirage()
        .args(["verify", "--unauthenticated", "--json", "-q"])
        .arg(block())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["clean"], true);
    assert_eq!(v["tickets"], 3000);
    assert_eq!(v["checks"].as_array().unwrap().len(), 23);
    let lose = v["ways"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["way"] == "lose")
        .unwrap();
    assert_eq!(lose["found"], 2081);
    assert_eq!(v["payout"], "25294");
    // Near misses at the spec's rates (30 % of the games that lose), tallied from the faces;
    // a production block promises nothing.
    assert_eq!(
        v["losing_features"],
        serde_json::json!([
            {"feature": "near_miss_jeu1", "areas": 778, "tickets": 778},
            {"feature": "near_miss_jeu2", "areas": 733, "tickets": 733}
        ])
    );
    assert_eq!(v["promised"], serde_json::json!([]));
}

#[test]
fn manifest_has_counts_commitment_and_no_seed() {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(block().join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["tickets"], 3000);
    assert_eq!(m["lots"], 919);
    assert_eq!(m["payout"], "25294");
    assert_eq!(m["seed_commitment"].as_str().unwrap().len(), 64);
    for f in [
        "tickets.csv",
        "tickets.bin",
        "manifest.json",
        "spec.toml",
        "SHA256SUMS",
    ] {
        let bytes = std::fs::read(block().join(f)).unwrap();
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        assert!(!text.contains(SEED), "{f} holds the seed in clear");
    }
}

#[test]
fn sha256sum_accepts_sha256sums() {
    // coreutils' sha256sum is on every machine tirage runs on (CI included): the contract
    // is that this exact tool accepts the file, so its absence is a failure, not a pass.
    let st = std::process::Command::new("sha256sum")
        .args(["-c", "--quiet", "SHA256SUMS"])
        .current_dir(block())
        .status()
        .expect("sha256sum runs");
    assert!(st.success());
}

/// Applies `edit` to a copy of the clean block and returns verify's exit code and report.
fn tampered(name: &str, edit: impl FnOnce(&Path)) -> (i32, String) {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join(name);
    copy_dir(&block(), &d);
    edit(&d);
    let out = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(&d)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn edit_csv_row(d: &Path, ticket_line: usize, f: impl FnOnce(&mut Vec<String>)) {
    let p = d.join("tickets.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    let mut fields: Vec<String> = lines[ticket_line].split(',').map(String::from).collect();
    f(&mut fields);
    lines[ticket_line] = fields.join(",");
    std::fs::write(&p, lines.join("\n")).unwrap();
}

/// The first ticket (1-based) whose prize is not 0.
fn first_winner() -> usize {
    let text = std::fs::read_to_string(block().join("tickets.csv")).unwrap();
    text.lines()
        .skip(1)
        .position(|l| l.split(',').nth(5) != Some("0"))
        .unwrap()
        + 1
}

#[test]
fn an_edited_prize_is_caught() {
    let w = first_winner();
    let (code, report) = tampered("prize", |d| {
        edit_csv_row(d, w, |f| f[5] = format!("9{}", f[5]))
    });
    assert_eq!(code, 1);
    assert!(
        report.contains(&format!("ticket {w}: prize: tickets.csv has")),
        "{report}"
    );
}

#[test]
fn an_edited_face_cell_is_caught() {
    let (code, report) = tampered("cell", |d| {
        edit_csv_row(d, 1, |f| {
            f[7] = if f[7] == "COQ" {
                "RAT".into()
            } else {
                "COQ".into()
            }
        })
    });
    assert_eq!(code, 1);
    assert!(report.contains("ticket 1: s1: tickets.csv has"), "{report}");
}

#[test]
fn a_flipped_byte_in_any_file_is_caught() {
    for name in [
        "tickets.csv",
        "tickets.bin",
        "manifest.json",
        "spec.toml",
        "SHA256SUMS",
    ] {
        let (code, _) = tampered("flip", |d| {
            let p = d.join(name);
            let mut b = std::fs::read(&p).unwrap();
            let i = b.len() / 2;
            b[i] ^= 0x01;
            std::fs::write(&p, b).unwrap();
        });
        assert_eq!(code, 1, "flip in {name}");
    }
}

#[test]
fn a_flipped_face_code_in_the_print_file_is_caught_even_with_fixed_sums() {
    // Change a face code in tickets.bin and rewrite SHA256SUMS to match: the record still
    // disagrees with tickets.csv and the counts.
    let (code, report) = tampered("bin", |d| {
        let p = d.join("tickets.bin");
        let mut b = std::fs::read(&p).unwrap();
        let header = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
        let rec = u16::from_le_bytes([b[10], b[11]]) as usize;
        b[header + 2 * rec + 38] ^= 0x01; // ticket 3, cell s1
        std::fs::write(&p, &b).unwrap();
        let sums = std::fs::read_to_string(d.join("SHA256SUMS")).unwrap();
        let new_hash = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&b));
        let fixed: String = sums
            .lines()
            .map(|l| {
                if l.ends_with("tickets.bin") {
                    format!("{new_hash}  tickets.bin\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(d.join("SHA256SUMS"), fixed).unwrap();
    });
    assert_eq!(code, 1);
    assert!(report.contains("ticket 3:"), "{report}");
}

#[test]
fn a_deleted_row_is_caught() {
    let (code, report) = tampered("row", |d| {
        let p = d.join("tickets.csv");
        let text = std::fs::read_to_string(&p).unwrap();
        let mut lines: Vec<&str> = text.split('\n').collect();
        lines.remove(10);
        std::fs::write(&p, lines.join("\n")).unwrap();
    });
    assert_eq!(code, 1);
    assert!(
        report.contains("tickets.csv has 1 row fewer than tickets.bin"),
        "{report}"
    );
}

#[test]
fn a_truncated_file_is_caught() {
    for name in ["tickets.csv", "tickets.bin"] {
        let (code, _) = tampered("trunc", |d| {
            let p = d.join(name);
            let b = std::fs::read(&p).unwrap();
            std::fs::write(&p, &b[..b.len() * 2 / 3]).unwrap();
        });
        assert_eq!(code, 1, "truncated {name}");
    }
}

#[test]
fn a_print_file_with_bytes_after_its_last_record_is_caught() {
    // Fewer bytes than a record after the rows of tickets.csv end: a batch of no ticket,
    // to be merged even when every batch before it already was (that depends on timing:
    // a few runs).
    for extra in [1, 27, 1, 27, 1, 27] {
        let (code, _) = tampered("partial", |d| {
            let p = d.join("tickets.bin");
            let mut b = std::fs::read(&p).unwrap();
            b.extend(std::iter::repeat_n(7u8, extra));
            std::fs::write(&p, &b).unwrap();
        });
        assert_eq!(code, 1, "{extra} bytes after the last record");
    }
}

#[test]
fn a_missing_file_is_caught() {
    let (code, _) = tampered("missing", |d| {
        std::fs::remove_file(d.join("tickets.bin")).unwrap()
    });
    assert_eq!(code, 1);
}

#[test]
fn verify_against_another_reference_spec_is_a_finding() {
    let out = tirage()
        .args(["verify", "--unauthenticated", "--spec"])
        .arg(repo("game_specs/coq.toml"))
        .arg(block())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    // Each field that differs is named with both values; the digests stay as evidence.
    assert!(
        text.contains("FAIL    spec ")
            && text.contains("        22 finding(s); first:\n          game.block_size: 3000 in the block's spec.toml, 4500000 in the reference\n")
            && text.contains("tiers[0].count: 1 in the block's spec.toml, 4 in the reference"),
        "{text}"
    );
    let block_sha = sha256_hex(&std::fs::read(block().join("spec.toml")).unwrap());
    let ref_sha = sha256_hex(&std::fs::read(repo("game_specs/coq.toml")).unwrap());
    assert!(
        text.contains(&format!("spec: the block's spec.toml (SHA-256 {block_sha}) differs from the reference spec (SHA-256 {ref_sha}) in 22 field(s)\n")),
        "{text}"
    );
    // -q: the verdict alone, naming the procedures with findings.
    let out = tirage()
        .args(["verify", "--unauthenticated", "-q", "--no-audit", "--spec"])
        .arg(repo("game_specs/coq.toml"))
        .arg(block())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.starts_with("verify: FINDINGS (spec fail)\nheld against: UNAUTHENTICATED"),
        "{text}"
    );
    let out = tirage()
        .args(["verify", "--unauthenticated", "-q", "--spec"])
        .arg(repo("tests/specs/coq_small.toml"))
        .arg(block())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

/// A reference spec that differs from the block's copy in comments and layout only: the
/// same game, clean, and said so with both digests.
#[test]
fn a_reference_spec_differing_in_text_only_is_clean_and_said_so() {
    let t = tempfile::tempdir().unwrap();
    let small = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let reference = t.path().join("coq-approved.toml");
    let text = format!("# approved by the regulator on 2026-11-30\n{small}").replacen(
        "price = 2 ",
        "price   =   2 ",
        1,
    );
    std::fs::write(&reference, &text).unwrap();
    let out = tirage()
        .args(["verify", "--unauthenticated", "--no-audit", "--spec"])
        .arg(&reference)
        .arg(block())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let block_sha = sha256_hex(small.as_bytes());
    let ref_sha = sha256_hex(text.as_bytes());
    assert!(said.contains("PASS    spec "), "{said}");
    assert!(
        said.contains(&format!("spec: the block's spec.toml (SHA-256 {block_sha}) is not byte-identical to the reference spec (SHA-256 {ref_sha}), but every field has the same value: only comments, spacing, order or how numbers are written (2 or 2.00) differ\n")),
        "{said}"
    );
    assert!(
        said.contains(&format!("lot table held against the reference spec (SHA-256 {ref_sha}) field by field: the same game, though the block's spec.toml is not byte-identical to it;")),
        "{said}"
    );
    // The same file: nothing said of a difference.
    let out = tirage()
        .args(["verify", "--unauthenticated", "--no-audit", "--spec"])
        .arg(repo("tests/specs/coq_small.toml"))
        .arg(block())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("spec: the block's spec.toml is byte-identical to the reference spec\n"));
}

#[test]
fn verify_of_a_missing_directory_exits_2() {
    let out = tirage()
        .args(["verify", "--unauthenticated", "/nonexistent/block"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/block: no such file or directory: expected a block directory"),
        "{err}"
    );
    // A file: said to be one.
    let out = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(repo("Cargo.toml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Cargo.toml: not a directory"), "{err}");
}

/// The same spec named three ways (`./x`, `x`, an absolute path) gives byte-identical
/// deliverables: the manifest records the spec's file name only.
#[test]
fn manifests_do_not_depend_on_how_the_spec_path_is_spelled() {
    let t = tempfile::tempdir().unwrap();
    let mut sums = Vec::new();
    for (i, spec) in [
        "./tests/specs/coq_small.toml".to_string(),
        "tests/specs/coq_small.toml".to_string(),
        repo("tests/specs/coq_small.toml").display().to_string(),
    ]
    .iter()
    .enumerate()
    {
        let out = t.path().join(format!("b{i}"));
        tirage()
            .current_dir(repo(""))
            .args([
                "generate",
                spec,
                "--validation-key",
                VALIDATION_KEY,
                "--insecure-seed",
                "--seed",
                SEED,
                "-q",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["spec"]["source"], "coq_small.toml");
        sums.push(std::fs::read(out.join("SHA256SUMS")).unwrap());
    }
    assert_eq!(sums[0], sums[1]);
    assert_eq!(sums[1], sums[2]);
}

/// A block this very build generated: the verdict line says the verification is not
/// independent, naming the binary's SHA-256; a block whose manifest names another build
/// (edited here, which its digests then show) is not said to be.
#[test]
fn the_verdict_says_when_the_generating_build_verifies() {
    let binary = sha256_hex(&std::fs::read(env!("CARGO_BIN_EXE_tirage")).unwrap());
    let verdict = |dir: &Path| {
        let out = tirage()
            .args(["verify", "--unauthenticated", "-q", "--no-audit"])
            .arg(dir)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let said = verdict(&block());
    assert!(
        said.ends_with(&format!("; NOT INDEPENDENT: this build (binary SHA-256 {binary}) also generated the block, so a flaw of its own would pass unseen: verify with a build made separately\n")),
        "{said}"
    );
    let t = tempfile::tempdir().unwrap();
    let other = t.path().join("b");
    copy_dir(&block(), &other);
    let manifest = std::fs::read_to_string(other.join("manifest.json")).unwrap();
    let edited = replace_once(&manifest, &binary, &"0".repeat(64));
    std::fs::write(other.join("manifest.json"), edited).unwrap();
    let said = verdict(&other);
    assert!(said.starts_with("verify: FINDINGS"), "{said}");
    assert!(!said.contains("INDEPENDENT"), "{said}");
}
