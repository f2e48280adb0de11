//! Every example game under `game_specs/examples/`, end to end through the real binary, as
//! a game designer would run it: `check` passes and explains every surface; a block
//! generates, identically on 1 and 2 threads, and verifies CLEAN against the spec with its
//! replay; a QA deck generates and verifies CLEAN; a proof of a winning ticket draws.

mod common;

use common::{deck, generate, repo, tirage, SEED};
use std::path::PathBuf;

/// Every example spec, sorted.
fn examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo("game_specs/examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    v.sort();
    v
}

/// Example games that put surfaces of several play styles on one ticket.
const MIXED: usize = 2;

#[test]
fn there_is_an_example_per_play_style_and_two_that_mix_styles() {
    let out = tirage().args(["styles", "--json"]).output().unwrap();
    assert!(out.status.success());
    let styles: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<String> = styles
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    for name in &names {
        let used = examples()
            .iter()
            .filter(|p| {
                let t = std::fs::read_to_string(p).unwrap();
                t.contains(&format!("style = \"{name}\""))
            })
            .count();
        assert!(used >= 1, "no example game uses the {name} style");
    }
    let mixed = examples()
        .iter()
        .filter(|p| {
            let t = std::fs::read_to_string(p).unwrap();
            let styles_used = names
                .iter()
                .filter(|n| t.contains(&format!("style = \"{n}\"")))
                .count();
            styles_used >= 2
        })
        .count();
    assert!(mixed >= MIXED, "{mixed} example(s) mix play styles");
}

#[test]
fn every_example_checks_generates_verifies_and_draws() {
    for spec in examples() {
        let name = spec.file_stem().unwrap().to_string_lossy().into_owned();
        let out = tirage().arg("check").arg(&spec).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("spec OK"), "{name}");
        assert!(text.contains("surface \""), "{name}: no surface explained");

        let dir = tempfile::tempdir().unwrap();
        let (one, two) = (dir.path().join("t1"), dir.path().join("t2"));
        generate(&spec, &one, 1);
        generate(&spec, &two, 2);
        let sums = |d: &PathBuf| std::fs::read(d.join("SHA256SUMS")).unwrap();
        assert_eq!(
            sums(&one),
            sums(&two),
            "{name}: thread count changed the block"
        );

        let seed = dir.path().join("seed");
        std::fs::write(&seed, SEED).unwrap();
        let out = tirage()
            .args(["verify", "--unauthenticated", "-q", "--no-audit"])
            .arg("--seed-file")
            .arg(&seed)
            .arg("--validation-key")
            .arg(repo(common::VALIDATION_KEY))
            .arg("--spec")
            .arg(&spec)
            .arg(&one)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );

        let d = dir.path().join("deck");
        deck(&spec, &d);
        let out = tirage()
            .args(["verify", "--unauthenticated", "-q", "--no-audit"])
            .arg(&d)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name} deck: {}",
            String::from_utf8_lossy(&out.stdout)
        );

        let svg = dir.path().join("svg");
        tirage()
            .args(["render", "-q", "--tickets", "1"])
            .arg(&d)
            .arg("--out")
            .arg(&svg)
            .assert()
            .success();
        let drawn = std::fs::read_to_string(svg.join("ticket-1.svg")).unwrap();
        assert!(
            drawn.starts_with("<svg") || drawn.starts_with("<?xml"),
            "{name}"
        );
    }
}

#[test]
fn every_play_style_is_documented_with_an_example() {
    let doc = std::fs::read_to_string(repo("game_specs/README.md")).unwrap();
    let out = tirage().args(["styles", "--json"]).output().unwrap();
    let styles: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in styles.as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        // The style's section: from its heading to the next heading of its level or above.
        let start = doc
            .lines()
            .position(|l| l.starts_with("### ") && l.contains(&format!("`{name}`")))
            .unwrap_or_else(|| panic!("game_specs/README.md has no section for {name}"));
        let section: Vec<&str> = doc
            .lines()
            .skip(start + 1)
            .take_while(|l| !l.starts_with("## ") && !l.starts_with("### "))
            .collect();
        let section = section.join("\n");
        assert!(
            section.contains("```toml") && section.contains(&format!("style = \"{name}\"")),
            "the section of {name} has no example"
        );
        assert!(
            section.to_lowercase().contains("naive"),
            "the section of {name} does not say what its naive reading is"
        );
    }
}

/// Every game under `game_specs/` (the seed games and the examples) has its own game code,
/// so no two games print the same serial.
#[test]
fn every_game_has_its_own_game_code() {
    let mut specs = examples();
    specs.extend(
        [
            "game_specs/coq.toml",
            "game_specs/poker.toml",
            "game_specs/pharaon.toml",
        ]
        .map(repo),
    );
    let mut seen = std::collections::BTreeMap::new();
    for p in &specs {
        let t: toml::Value = toml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        let code = t["game"]["game_code"].as_integer().unwrap();
        if let Some(other) = seen.insert(code, p.clone()) {
            panic!(
                "{} and {} both have game code {code}",
                other.display(),
                p.display()
            );
        }
    }
    assert_eq!(seen.len(), specs.len());
}
