//! Emissions (several blocks from one seed) and QA decks (specimen tickets): uniqueness of
//! serials and validation codes across an emission, specimen marking, verify on both.

mod common;

use common::*;
use std::collections::HashSet;
use std::path::Path;

fn column(csv: &Path, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    let i = lines
        .next()
        .unwrap()
        .split(',')
        .position(|h| h == name)
        .unwrap();
    lines
        .map(|l| l.split(',').nth(i).unwrap().to_string())
        .collect()
}

fn emission(dir: &Path) {
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--blocks", "1..3", "--seed", SEED, "-q", "--out"])
        .arg(dir)
        .assert()
        .success();
}

#[test]
fn serials_and_codes_are_unique_across_an_emission() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    emission(&em);
    let (mut serials, mut codes) = (HashSet::new(), HashSet::new());
    for b in 1..=3 {
        let dir = em.join(format!("block-{b:03}"));
        for s in column(&dir.join("tickets.csv"), "serial") {
            assert!(serials.insert(s), "duplicate serial");
        }
        for c in column(&dir.join("validation.csv"), "validation_code") {
            assert_eq!(c.len(), 20);
            assert!(codes.insert(c), "duplicate validation code");
        }
    }
    assert_eq!(serials.len(), 9000);
    assert_eq!(codes.len(), 9000);
    let e: serde_json::Value =
        serde_json::from_slice(&std::fs::read(em.join("emission.json")).unwrap()).unwrap();
    assert_eq!(e["blocks"].as_array().unwrap().len(), 3);
    assert_eq!(e["blocks"][2]["dir"], "block-003");
    let o = tirage().args(["verify", "-q"]).arg(&em).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("emission verify: CLEAN"));
}

#[test]
fn each_block_of_an_emission_is_the_block_generated_alone() {
    let t = tempfile::tempdir().unwrap();
    emission(&t.path().join("em"));
    let alone = t.path().join("b2");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--block", "2", "--seed", SEED, "-q", "--out"])
        .arg(&alone)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(alone.join("SHA256SUMS")).unwrap(),
        std::fs::read(t.path().join("em/block-002/SHA256SUMS")).unwrap()
    );
}

#[test]
fn a_replaced_block_manifest_breaks_the_emission() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    emission(&em);
    std::fs::copy(
        em.join("block-001/manifest.json"),
        em.join("block-002/manifest.json"),
    )
    .unwrap();
    let o = tirage().args(["verify", "-q"]).arg(&em).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("block-002: manifest.json SHA-256"), "{text}");
}

#[test]
fn a_default_deck_has_every_way_and_is_specimen() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    common::deck(&repo("tests/specs/coq_small.toml"), &deck);
    let ways: HashSet<String> = column(&deck.join("tickets.csv"), "way")
        .into_iter()
        .collect();
    assert_eq!(ways.len(), 11, "{ways:?}");
    for s in column(&deck.join("tickets.csv"), "serial") {
        assert_eq!(&s[7..10], "000", "specimen serials carry block 000");
    }
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(deck.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["kind"], "specimen");
    assert_eq!(m["block"], 0);
    assert_eq!(m["tickets"], 40);
    let o = tirage().args(["verify"]).arg(&deck).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("SPECIMEN (not payable)"));

    // Specimen codes come from another key: none is a code of the production block made
    // from the same seed.
    let prod = t.path().join("prod");
    generate(&repo("tests/specs/coq_small.toml"), &prod, 1);
    let prod_codes: HashSet<String> = column(&prod.join("validation.csv"), "validation_code")
        .into_iter()
        .collect();
    let deck_codes = column(&deck.join("validation.csv"), "validation_code");
    assert!(deck_codes.iter().all(|c| !prod_codes.contains(c)));
}

#[test]
fn a_proportional_deck_follows_the_lot_table() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    tirage()
        .arg("deck")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--proportional", "300", "--seed", SEED, "-q", "--out"])
        .arg(&deck)
        .assert()
        .success();
    let ways = column(&deck.join("tickets.csv"), "way");
    assert_eq!(ways.len(), 300);
    // 2 081 / 3 000 × 300 = 208.1 losers; "2": 43.2; "4": 23.3; "8": 10; "2+2": 6.7 → 7; …
    let count = |id: &str| ways.iter().filter(|w| *w == id).count();
    assert_eq!(count("lose"), 208);
    assert_eq!(count("2"), 43);
    assert_eq!(count("8"), 10);
    assert_eq!(count("2+2"), 7);
    assert_eq!(verify_code(&deck), 0);
}

#[test]
fn a_deck_marked_production_is_caught() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    common::deck(&repo("tests/specs/coq_small.toml"), &deck);
    let p = deck.join("manifest.json");
    let text = std::fs::read_to_string(&p)
        .unwrap()
        .replacen("\"specimen\"", "\"production\"", 1);
    std::fs::write(&p, text).unwrap();
    let o = tirage().args(["verify"]).arg(&deck).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(text.contains("FAIL    kind"), "{text}");
}

#[test]
fn a_too_small_deck_is_refused() {
    let o = tirage()
        .arg("deck")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--tickets", "5", "-q", "--out", "/tmp/never-deck"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("needs at least 11 tickets"));
}
