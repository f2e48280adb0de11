//! Pack constraints end to end: honoured by generate, stated in the manifest, checked by verify.

mod common;

use common::*;

fn constrained_spec(dir: &std::path::Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    let text = text.replacen(
        "[published]",
        "[packs]\nmin_winners = 40\n[[packs.max_from_tier]]\namount = 200\ncount = 1\n\n[published]",
        1,
    );
    let p = dir.join("coq_packs.toml");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn constraints_hold_and_are_reported() {
    let t = tempfile::tempdir().unwrap();
    let spec = constrained_spec(t.path());
    let out = t.path().join("b");
    generate(&spec, &out, 2);
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        m["pack_rules"],
        serde_json::json!([
            "every full pack holds at least 40 winning tickets",
            "at most 1 ticket(s) of a tier of 200 or more per pack"
        ])
    );
    assert!(m["allocation_attempts"].as_u64().unwrap() >= 1);
    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    let mut winners = vec![0u32; 20];
    let mut high = vec![0u32; 20];
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let pack: usize = f[1].parse().unwrap();
        let prize: u32 = f[5].parse().unwrap();
        if prize > 0 {
            winners[pack - 1] += 1;
        }
        if prize >= 200 {
            high[pack - 1] += 1;
        }
    }
    assert!(winners.iter().all(|&w| w >= 40), "{winners:?}");
    assert!(high.iter().all(|&h| h <= 1), "{high:?}");
    assert_eq!(winners.iter().sum::<u32>(), 919);
    let out_v = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(&out)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out_v.stdout);
    assert_eq!(out_v.status.code(), Some(0), "{report}");
    assert!(report.contains("PASS    pack_rules"));
    assert!(report.contains("pack constraint: every full pack holds at least 40 winning tickets"));
}

#[test]
fn a_block_that_breaks_a_constraint_fails_verify() {
    // A block made without constraints, whose spec copy then demands at least 45 winners in
    // every pack: verify reports the packs that break it (and the edited spec's digest).
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &out, 1);
    let p = out.join("spec.toml");
    let text = std::fs::read_to_string(&p).unwrap().replacen(
        "[published]",
        "[packs]\nmin_winners = 45\n\n[published]",
        1,
    );
    std::fs::write(&p, text).unwrap();
    let o = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(&out)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1));
    assert!(report.contains("FAIL    pack_rules"), "{report}");
    assert!(
        report.contains("winning tickets, at least 45 required"),
        "{report}"
    );
}

#[test]
fn impossible_constraints_are_rejected_at_load() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml"))
        .unwrap()
        .replacen(
            "[published]",
            "[packs]\n[[packs.max_from_tier]]\namount = 8\ncount = 1\n\n[published]",
            1,
        );
    let p = t.path().join("bad.toml");
    std::fs::write(&p, text).unwrap();
    let o = tirage().arg("check").arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot fit 1 per pack in 20 packs"));
}
