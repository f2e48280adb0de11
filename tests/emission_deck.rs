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
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args([
            "--blocks",
            "1..3",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--out",
        ])
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
        for c in common::codes(&dir) {
            assert_eq!(c.len(), 19);
            assert!(codes.insert(c), "duplicate validation code");
        }
    }
    assert_eq!(serials.len(), 9000);
    assert_eq!(codes.len(), 9000);
    let e: serde_json::Value =
        serde_json::from_slice(&std::fs::read(em.join("emission.json")).unwrap()).unwrap();
    assert_eq!(e["blocks"].as_array().unwrap().len(), 3);
    assert_eq!(e["blocks"][2]["dir"], "block-003");
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q"])
        .arg(&em)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("emission verify: CLEAN"));
    // An emission's report goes beside it, or where --report says; never inside it.
    assert!(t.path().join("em.audit/audit.json").is_file());
    let r = t.path().join("report");
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&r)
        .arg(&em)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let a: serde_json::Value =
        serde_json::from_slice(&std::fs::read(r.join("audit.json")).unwrap()).unwrap();
    assert_eq!(a["blocks"].as_array().unwrap().len(), 3);
    assert_eq!(a["totals"]["tickets"], 9000);
    let inside = em.join("report");
    let o = tirage()
        .args(["verify", "--unauthenticated", "-q", "--report"])
        .arg(&inside)
        .arg(&em)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!inside.exists());
}

/// Generates block 2 of `tests/specs/coq_small.toml` alone into `out` from test seed
/// `seed`, with the emission's validation key; panics if generate fails.
fn block_two(out: &Path, seed: &str) {
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args([
            "--block",
            "2",
            "--insecure-seed",
            "--seed",
            seed,
            "-q",
            "--out",
        ])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn each_block_of_an_emission_is_the_block_generated_alone() {
    let t = tempfile::tempdir().unwrap();
    emission(&t.path().join("em"));
    let alone = t.path().join("b2");
    block_two(&alone, SEED);
    assert_eq!(
        std::fs::read(alone.join("SHA256SUMS")).unwrap(),
        std::fs::read(t.path().join("em/block-002/SHA256SUMS")).unwrap()
    );
}

/// A block of an emission verified alone is held to its own files only: verify says so,
/// and warns when the emission's `emission.json` lists another `manifest.json` for it (a
/// block of another seed put in its place) or does not list it at all.
#[test]
fn a_block_verified_alone_says_whether_its_emission_lists_it() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    emission(&em);
    let said = |dir: &Path| {
        let o = tirage()
            .args(["verify", "--unauthenticated", "--no-audit"])
            .arg(dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        (
            o.status.code(),
            err.lines().last().unwrap_or("").to_string(),
        )
    };
    // The emission is named by its real path.
    let real = std::fs::canonicalize(&em).unwrap();
    let whole = format!(
        "verify {} to hold every block to it and check its signature",
        real.display()
    );
    let b2 = em.join("block-002");
    assert_eq!(
        said(&b2),
        (
            Some(0),
            format!(
                "tirage: note: {} is block-002 of emission {}, whose emission.json lists this \
                 manifest.json (verified alone, the block was held to its own files; {whole})",
                b2.display(),
                real.display()
            )
        )
    );
    // Block 2 of another seed in its place: clean alone, but not the emission's.
    let other = t.path().join("other");
    block_two(&other, &SEED.replace('0', "7"));
    std::fs::rename(&b2, t.path().join("b2")).unwrap();
    std::fs::rename(&other, &b2).unwrap();
    assert_eq!(
        said(&b2),
        (
            Some(0),
            format!(
                "tirage: warning: {} is in emission {}, whose emission.json lists another \
                 manifest.json for block-002: this block is not the emission's block-002; {whole}",
                b2.display(),
                real.display()
            )
        )
    );
    // The emission's block 2 under a name the emission does not list.
    let b9 = em.join("block-009");
    std::fs::rename(t.path().join("b2"), &b9).unwrap();
    assert_eq!(
        said(&b9).1,
        format!(
            "tirage: warning: {} is in emission {}, whose emission.json does not list \
             block-009 (its manifest.json is the one listed for block-002); {whole}",
            b9.display(),
            real.display()
        )
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
    let o = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(&em)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("block-002: manifest.json SHA-256"), "{text}");
}

/// An emission's summary says, once for all its blocks, what a block's says: each block's
/// tickets, lots and payout, and whether it is signed and to whom its ticket files are
/// encrypted, or that they are in clear and go each only to whom it is for.
#[test]
fn an_emissions_summary_says_how_its_blocks_are_delivered() {
    let t = tempfile::tempdir().unwrap();
    let run = |out: &Path, extra: &[&std::ffi::OsStr]| {
        let o = tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args(["--insecure-seed", "--seed", SEED, "--validation-key"])
            .arg(repo(VALIDATION_KEY))
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8(o.stderr).unwrap()
    };
    let em = t.path().join("em");
    assert_eq!(
        run(&em, &["--blocks".as_ref(), "1..2".as_ref()]),
        format!(
            "TEST EMISSION (made with a test seed: never for sale, claim pays none of its tickets): emission 1 of coq: 2 blocks → {}\n\
             each block: 3,000 tickets, 919 lots, payout 25,294 EUR\n\
             unsigned (no --sign); ticket files in clear (no --recipient): hand each only to whom it is for\n",
            em.display()
        )
    );
    // Signed and encrypted: the block made alone says the same of itself.
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("op"))
        .assert()
        .success();
    let id = t.path().join("printer.key");
    let made = std::process::Command::new("age-keygen")
        .arg("-o")
        .arg(&id)
        .output()
        .expect("age-keygen (.ci/run installs age)");
    assert!(made.status.success());
    let public = std::process::Command::new("age-keygen")
        .arg("-y")
        .arg(&id)
        .output()
        .unwrap();
    let public = String::from_utf8(public.stdout).unwrap();
    let mut sealed: Vec<std::ffi::OsString> = vec!["--sign".into(), t.path().join("op.key").into()];
    for role in ["printer", "central", "auditor"] {
        sealed.push("--recipient".into());
        sealed.push(format!("{role}={}", public.trim()).into());
    }
    let sealed: Vec<&std::ffi::OsStr> = sealed.iter().map(|s| s.as_os_str()).collect();
    let alone = run(&t.path().join("b1"), &sealed);
    let block_delivery = alone.lines().nth(1).unwrap();
    assert!(
        block_delivery.starts_with("SHA256SUMS signed by key ")
            && block_delivery.ends_with("; encrypted: tickets.csv.age to 1 recipient(s), tickets.bin.age to 1 recipient(s), validation.csv.age to 1 recipient(s)"),
        "{alone}"
    );
    let em = t.path().join("em-sealed");
    let mut args = sealed.clone();
    args.extend([
        std::ffi::OsStr::new("--blocks"),
        std::ffi::OsStr::new("1..2"),
    ]);
    let said = run(&em, &args);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(
        lines[1],
        "each block: 3,000 tickets, 919 lots, payout 25,294 EUR"
    );
    assert_eq!(
        lines[2],
        block_delivery
            .replace(
                "SHA256SUMS signed by key",
                "emission.json and each block's SHA256SUMS signed by key"
            )
            .replace(
                "(SHA256SUMS.minisig)",
                "(emission.json.minisig, SHA256SUMS.minisig)"
            )
    );
    assert_eq!(lines.len(), 3, "{said}");
}

/// `verify -q` of an emission prints its verdict, naming the procedures with findings
/// (the emission-wide one, then each block's), and what each block's verdict was held
/// against, as README says.
#[test]
fn an_emissions_quiet_verdict_names_its_findings_and_what_it_was_held_against() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    emission(&em);
    let quiet = || {
        let o = tirage()
            .args(["verify", "--unauthenticated", "--no-audit", "-q"])
            .arg(&em)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    // This build generated the emission: each block's line says the check is not independent.
    let binary = sha256_hex(&std::fs::read(env!("CARGO_BIN_EXE_tirage")).unwrap());
    let held = format!("held against, every block: UNAUTHENTICATED: no signature checked; lot table: only the block's own spec copy (no --spec); not replayed; ticket files delivered in clear; the manifest says validation codes under a key of their own; TEST BLOCK: made with a test seed (--insecure-seed), never for sale; NOT INDEPENDENT: this build (binary SHA-256 {binary}) also generated the block, so a flaw of its own would pass unseen: verify with a build made separately\n");
    assert_eq!(
        quiet(),
        (Some(0), format!("emission verify: CLEAN\n{held}"))
    );
    std::fs::copy(
        em.join("block-001/manifest.json"),
        em.join("block-002/manifest.json"),
    )
    .unwrap();
    assert_eq!(
        quiet(),
        (
            Some(1),
            format!(
                "emission verify: FINDINGS (emission fail; {}/block-002: sha256sums fail, manifest fail, print_header fail, serials fail, csv_matches_print fail)\n{held}",
                em.display()
            )
        )
    );
    // A signature vouches for one block: what each was held against, a line a block.
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("op"))
        .assert()
        .success();
    let signed = t.path().join("signed");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--blocks", "1..2", "--insecure-seed", "--seed", SEED, "-q"])
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--sign")
        .arg(t.path().join("op.key"))
        .arg("--out")
        .arg(&signed)
        .assert()
        .success();
    let o = tirage()
        .args(["verify", "--no-audit", "-q", "--signer"])
        .arg(t.path().join("op.pub"))
        .arg(&signed)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    let key = std::fs::read_to_string(t.path().join("op.pub")).unwrap();
    let key = key.lines().nth(1).unwrap();
    let lines: Vec<String> = (1..=2)
        .map(|b| format!("held against, {}/block-00{b}: signed by key {key} for game coq, emission 1, block {b}, production, made with --insecure-seed; lot table: only the block's own spec copy (no --spec); not replayed; ticket files delivered in clear; the manifest says validation codes under a key of their own; TEST BLOCK: made with a test seed (--insecure-seed), never for sale; NOT INDEPENDENT: this build (binary SHA-256 {binary}) also generated the block, so a flaw of its own would pass unseen: verify with a build made separately", signed.display()))
        .collect();
    assert_eq!(
        text,
        format!("emission verify: CLEAN\n{}\n{}\n", lines[0], lines[1])
    );
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
    // 10 ways + 2 tickets each asked to show a near miss + 30 losers.
    assert_eq!(m["tickets"], 42);
    let o = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(&deck)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("SPECIMEN (not payable)"));

    // Specimen codes come from another key: none is a code of the production block made
    // from the same seed.
    let prod = t.path().join("prod");
    generate(&repo("tests/specs/coq_small.toml"), &prod, 1);
    let prod_codes: HashSet<String> = codes(&prod).into_iter().collect();
    let deck_codes = codes(&deck);
    assert_eq!(deck_codes.len(), 42);
    assert!(deck_codes.iter().all(|c| !prod_codes.contains(c)));
}

#[test]
fn a_proportional_deck_follows_the_lot_table() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    tirage()
        .arg("deck")
        .arg(repo("tests/specs/coq_small.toml"))
        .args([
            "--proportional",
            "300",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--out",
        ])
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

/// The deck's summary counts in words that agree with their numbers: `1 winner, 1 way`.
#[test]
fn a_decks_summary_says_one_winner_in_the_singular() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    let o = tirage()
        .arg("deck")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--proportional", "3", "--insecure-seed", "--seed", SEED])
        .arg("--out")
        .arg(&deck)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    // 2 081 / 3 000 × 3 = 2.08 losers, "2" 0.43: two losers and one "2".
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).lines().next(),
        Some(
            format!(
                "specimen deck of coq: 3 tickets (1 winner, 1 way) → {}",
                deck.display()
            )
            .as_str()
        )
    );
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
    let o = tirage()
        .args(["verify", "--unauthenticated"])
        .arg(&deck)
        .output()
        .unwrap();
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
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(
            "a deck showing every way and every feature needs at least 13 tickets (10 ways, 2 tickets each asked to show a feature and 1 loser); got 5"
        ),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Exactly the minimum is fine, and still shows every feature.
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    let o = tirage()
        .arg("deck")
        .arg(repo("tests/specs/poker_small.toml"))
        .args([
            "--tickets",
            "26",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--out",
        ])
        .arg(&deck)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "needs at least 27 tickets (19 ways, 7 tickets each asked to show a feature and 1 loser); got 26"
    ));
    assert!(!deck.exists());
    tirage()
        .arg("deck")
        .arg(repo("tests/specs/poker_small.toml"))
        .args([
            "--tickets",
            "27",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--out",
        ])
        .arg(&deck)
        .assert()
        .success();
    assert_eq!(promised(&deck).len(), 8);
    assert_eq!(verify_code(&deck), 0);
}

/// The manifest's promised features as (feature, way, forced).
fn promised(deck: &Path) -> Vec<(String, String, bool)> {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(deck.join("manifest.json")).unwrap()).unwrap();
    m["promised_features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["feature"].as_str().unwrap().to_string(),
                p["way"].as_str().unwrap().to_string(),
                p["forced"].as_bool().unwrap(),
            )
        })
        .collect()
}

fn owned(v: &[(&str, &str, bool)]) -> Vec<(String, String, bool)> {
    v.iter()
        .map(|&(f, w, b)| (f.to_string(), w.to_string(), b))
        .collect()
}

/// The text of `tirage verify dir` and its exit code.
fn verify_text(dir: &Path) -> (i32, String) {
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit"])
        .arg(dir)
        .output()
        .unwrap();
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Rewrites the deck's manifest with `edit` and re-seals SHA256SUMS, so that only what the
/// manifest says changes.
fn edit_manifest(deck: &Path, edit: impl Fn(&mut serde_json::Value)) {
    let p = deck.join("manifest.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    edit(&mut m);
    let mut bytes = serde_json::to_vec_pretty(&m).unwrap();
    bytes.push(b'\n');
    std::fs::write(&p, &bytes).unwrap();
    let sums = std::fs::read_to_string(deck.join("SHA256SUMS")).unwrap();
    let digest = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(&bytes))
    };
    let resealed: String = sums
        .lines()
        .map(|l| {
            if l.ends_with("manifest.json") {
                format!("{digest}  manifest.json\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(deck.join("SHA256SUMS"), resealed).unwrap();
}

/// Every feature each game can show is promised on the default deck (game specs and the
/// small test specs), shown, and checked by verify; the deck replays from its seed.
#[test]
fn a_default_deck_shows_every_feature_of_every_game() {
    let coq = owned(&[
        ("near_miss_jeu1", "lose", true),
        ("near_miss_jeu2", "lose", true),
    ]);
    let poker = owned(&[
        ("paire", "30", true),
        ("brelan", "100", true),
        ("quinte", "1000", true),
        ("couleur", "1000", true),
        ("carre", "25+25+25+25", true),
        ("quinte_flush_royale", "50000", false),
        ("near_miss_flush", "lose", true),
        ("near_miss_straight", "lose", true),
    ]);
    let pharaon = owned(&[
        ("near_miss_half", "lose", true),
        ("decoy_rebuilt", "lose", true),
        ("near_miss_pyramid", "lose", true),
        ("decoy_mask", "lose", true),
    ]);
    let t = tempfile::tempdir().unwrap();
    let seed = t.path().join("seed");
    std::fs::write(&seed, SEED).unwrap();
    for (spec, want, tickets) in [
        ("game_specs/coq.toml", &coq, 42),
        ("tests/specs/coq_small.toml", &coq, 42),
        ("game_specs/poker.toml", &poker, 56),
        ("tests/specs/poker_small.toml", &poker, 56),
        ("game_specs/pharaon.toml", &pharaon, 80),
        ("tests/specs/pharaon_small.toml", &pharaon, 65),
    ] {
        let deck = t.path().join(spec.replace('/', "_"));
        common::deck(&repo(spec), &deck);
        assert_eq!(&promised(&deck), want, "{spec}");
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(deck.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["tickets"], tickets, "{spec}");
        let o = tirage()
            .args(["verify", "--unauthenticated", "--no-audit", "--seed-file"])
            .arg(&seed)
            .arg(&deck)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{spec}: {text}");
        assert!(text.contains("PASS    features"), "{text}");
        assert!(text.contains("PASS    replay"), "{text}");
        for (f, _, _) in want {
            assert!(
                text.lines()
                    .any(|l| l.contains(f.as_str()) && l.ends_with("shown")),
                "{spec}: {f} not shown\n{text}"
            );
        }
        assert!(!text.contains("NOT SHOWN"), "{text}");
    }
}

/// The exact tallies of the coq test deck: near misses on losing games, and the two
/// tickets asked for them.
#[test]
fn verify_tallies_every_feature_of_a_deck() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    common::deck(&repo("tests/specs/coq_small.toml"), &deck);
    let o = tirage()
        .args(["verify", "--unauthenticated", "--no-audit", "--json"])
        .arg(&deck)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let tally: Vec<(String, u64, u64)> = r["losing_features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["feature"].as_str().unwrap().to_string(),
                f["areas"].as_u64().unwrap(),
                f["tickets"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        tally,
        vec![
            ("near_miss_jeu1".to_string(), 7, 7),
            ("near_miss_jeu2".to_string(), 12, 12)
        ]
    );
    let promised: Vec<(String, u64, bool)> = r["promised"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["feature"].as_str().unwrap().to_string(),
                p["ticket"].as_u64().unwrap(),
                p["shown"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        promised,
        vec![
            ("near_miss_jeu1".to_string(), 1, true),
            ("near_miss_jeu2".to_string(), 2, true)
        ]
    );
}

/// A deck whose manifest drops a promised feature, or names a ticket that does not show
/// it, fails verify (exit 1) under `features`, even with SHA256SUMS re-sealed.
#[test]
fn a_missing_or_false_promise_is_a_finding() {
    let t = tempfile::tempdir().unwrap();
    let base = t.path().join("deck");
    common::deck(&repo("tests/specs/poker_small.toml"), &base);

    // Dropped: the carré is no longer promised.
    let dropped = t.path().join("dropped");
    copy_dir(&base, &dropped);
    edit_manifest(&dropped, |m| {
        m["promised_features"]
            .as_array_mut()
            .unwrap()
            .retain(|p| p["feature"] != "carre");
    });
    let (code, text) = verify_text(&dropped);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FAIL    features"), "{text}");
    assert!(
        text.contains("the deck promises no ticket showing carre (a winning zone's best combination is a carre), which the spec can show"),
        "{text}"
    );

    // Moved: the flush near miss promised on a winning ticket of another way.
    let moved = t.path().join("moved");
    copy_dir(&base, &moved);
    edit_manifest(&moved, |m| {
        let ps = m["promised_features"].as_array_mut().unwrap();
        let royal = ps
            .iter()
            .find(|p| p["feature"] == "quinte_flush_royale")
            .unwrap()["ticket"]
            .clone();
        let flush = ps
            .iter_mut()
            .find(|p| p["feature"] == "near_miss_flush")
            .unwrap();
        flush["ticket"] = royal;
    });
    let (code, text) = verify_text(&moved);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("FAIL    features"), "{text}");
    assert!(
        text.contains(
            "promised to show near_miss_flush on way \"lose\"; by the rules it is way \"50000\""
        ),
        "{text}"
    );
    assert!(text.contains("NOT SHOWN"), "{text}");

    // Unknown: a feature poker does not show.
    let unknown = t.path().join("unknown");
    copy_dir(&base, &unknown);
    edit_manifest(&unknown, |m| {
        m["promised_features"][0]["feature"] = "near_miss_jeu1".into();
    });
    let (code, text) = verify_text(&unknown);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "promised feature \"near_miss_jeu1\" is not one this spec's play styles show"
        ),
        "{text}"
    );
    assert!(
        text.contains("the deck promises no ticket showing paire"),
        "{text}"
    );
}

/// Without the seed, verify recomputes a deck's counts and promises from its stated
/// composition: deleting the promise list, stating no composition, duplicating a promise,
/// or moving one to another ticket of its way that happens to show the feature are all
/// findings (exit 1) under `features`, with SHA256SUMS re-sealed.
#[test]
fn a_deck_is_checked_against_its_composition() {
    let t = tempfile::tempdir().unwrap();
    let base = t.path().join("deck");
    common::deck(&repo("tests/specs/poker_small.toml"), &base);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(base.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["composition"], "every_way");
    assert_eq!(verify_code(&base), 0);

    let case = |name: &str, edit: &dyn Fn(&mut serde_json::Value), says: &str| {
        let d = t.path().join(name);
        copy_dir(&base, &d);
        edit_manifest(&d, edit);
        let (code, text) = verify_text(&d);
        assert_eq!(code, 1, "{name}: {text}");
        assert!(text.contains("FAIL    features"), "{name}: {text}");
        assert!(text.contains(says), "{name}: {text}");
    };
    case(
        "no-list",
        &|m| {
            m.as_object_mut().unwrap().remove("promised_features");
        },
        "the promised features are not those of a every_way deck of 56 tickets: expected 8 [",
    );
    case(
        "as-proportional",
        &|m| {
            m.as_object_mut().unwrap().remove("promised_features");
            m["composition"] = "proportional".into();
        },
        "a proportional deck of 56 tickets holds 44 of way \"lose\"; this one 32",
    );
    case(
        "no-composition",
        &|m| {
            m.as_object_mut().unwrap().remove("composition");
        },
        "a specimen deck states no composition (every_way or proportional)",
    );
    case(
        "duplicate",
        &|m| {
            let ps = m["promised_features"].as_array_mut().unwrap();
            let first = ps[0].clone();
            ps.push(first);
        },
        "the manifest lists 9 [",
    );
    // Moved to another losing ticket that also shows the flush near miss.
    let flush_tickets: Vec<u64> = {
        let d = t.path().join("probe");
        copy_dir(&base, &d);
        let o = tirage()
            .args(["verify", "--unauthenticated", "--json", "--no-audit"])
            .arg(&d)
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        r["promised"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["feature"] == "near_miss_flush")
            .map(|p| p["ticket"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(flush_tickets.len(), 1);
    let csv = std::fs::read_to_string(base.join("tickets.csv")).unwrap();
    let board =
        |row: &[&str]| -> Vec<String> { row[23..28].iter().map(|s| s.to_string()).collect() };
    // Another loser whose own cards make four of a suit with the community cards.
    let other = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|r| {
            let t: u64 = r[3].parse().unwrap();
            r[6] == "lose"
                && t != flush_tickets[0]
                && (0..4).any(|z| {
                    let own = [r[7 + 4 * z], r[8 + 4 * z]];
                    "cdhs".chars().any(|s| {
                        let n = own
                            .iter()
                            .map(|c| c.to_string())
                            .chain(board(r))
                            .filter(|c| c.ends_with(s))
                            .count();
                        n == 4 && own.iter().any(|c| c.ends_with(s))
                    })
                })
        })
        .map(|r| r[3].parse::<u64>().unwrap())
        .expect("another loser with a flush near miss");
    case(
        "moved",
        &|m| {
            let ps = m["promised_features"].as_array_mut().unwrap();
            let p = ps
                .iter_mut()
                .find(|p| p["feature"] == "near_miss_flush")
                .unwrap();
            p["ticket"] = other.into();
        },
        &format!(
            "near_miss_flush is promised on ticket {other}; the deck's rule puts it on ticket {}",
            flush_tickets[0]
        ),
    );
}

/// `--force` replaces a block only with one of its own kind: a deck never replaces a
/// production block nor the seed file beside it, and a production block never a deck.
#[test]
fn force_never_replaces_a_block_of_the_other_kind() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    // A production block with a fresh seed saved beside it.
    let block = t.path().join("block");
    tirage()
        .arg("generate")
        .arg(&spec)
        .args(["-q", "--out"])
        .arg(&block)
        .assert()
        .success();
    let seed_file = t.path().join("block.seed");
    let seed = std::fs::read(&seed_file).unwrap();
    let manifest = std::fs::read(block.join("manifest.json")).unwrap();
    let o = tirage()
        .arg("deck")
        .arg(&spec)
        .args(["--force", "-q", "--out"])
        .arg(&block)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "holds a production block; --force replaces it only with another production block (this is a specimen block)"
    ));
    assert_eq!(std::fs::read(&seed_file).unwrap(), seed);
    assert_eq!(
        std::fs::read(block.join("manifest.json")).unwrap(),
        manifest
    );

    let deck = t.path().join("deck");
    common::deck(&spec, &deck);
    let manifest = std::fs::read(deck.join("manifest.json")).unwrap();
    let o = tirage()
        .arg("generate")
        .arg(&spec)
        .args(["--force", "--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(&deck)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds a specimen block"));
    assert_eq!(std::fs::read(deck.join("manifest.json")).unwrap(), manifest);
    // Same kind: replaced.
    tirage()
        .arg("deck")
        .arg(&spec)
        .args([
            "--force",
            "--tickets",
            "40",
            "--insecure-seed",
            "--seed",
            SEED,
            "-q",
            "--out",
        ])
        .arg(&deck)
        .assert()
        .success();
    assert_ne!(std::fs::read(deck.join("manifest.json")).unwrap(), manifest);
}

/// The seed file beside a block always replays it: a block remade from a given seed keeps a
/// seed file holding that seed, refuses (exit 2, nothing made) one holding another seed
/// without `--force`, and removes it with `--force` once the new block is in place. A fresh
/// seed replacing the seed file of a block moved away says that older seed is gone.
#[test]
fn a_seed_file_never_sits_beside_a_block_it_does_not_replay() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let block = t.path().join("block");
    let seed_file = t.path().join("block.seed");
    let generate = |args: &[&str]| {
        tirage()
            .arg("generate")
            .arg(&spec)
            .args(["-q", "--out"])
            .arg(&block)
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(args)
            .output()
            .unwrap()
    };
    assert!(generate(&[]).status.success());
    let fresh = std::fs::read(&seed_file).unwrap();
    // Replayed from its own seed file: kept as it is.
    let own = seed_file.to_str().unwrap();
    let o = generate(&["--force", "--seed-file", own]);
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read(&seed_file).unwrap(), fresh);
    // Another seed, the block gone: refused, nothing made, the seed file kept.
    std::fs::remove_dir_all(&block).unwrap();
    let o = generate(&["--insecure-seed", "--seed", SEED]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("holds another seed than the one given"),
        "{err}"
    );
    assert!(!block.exists());
    assert_eq!(std::fs::read(&seed_file).unwrap(), fresh);
    // With --force: the block is made and the stale seed file removed, and said so.
    let o = generate(&["--force", "--insecure-seed", "--seed", SEED]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("removed") && err.contains("block.seed"),
        "{err}"
    );
    assert!(block.join("manifest.json").exists());
    assert!(!seed_file.exists());
    // A fresh seed over a seed file whose block was moved away: replaced with --force, and
    // said, since that older seed is gone; with the block there, nothing more is said.
    assert!(generate(&["--force"]).status.success());
    std::fs::rename(&block, t.path().join("archived")).unwrap();
    let said = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let o = generate(&["--force"]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(
        said(&o).contains("the seed file it replaced replayed nothing there (its block or deck was moved away or removed), and that older seed is gone"),
        "{}",
        said(&o)
    );
    let o = generate(&["--force"]);
    assert!(
        o.status.success() && !said(&o).contains("older seed"),
        "{}",
        said(&o)
    );
    // A file of the user's at the seed file's name that holds no seed: never replaced nor
    // removed, with --force or without, whether the seed is fresh or given.
    let manifest = std::fs::read(block.join("manifest.json")).unwrap();
    std::fs::write(&seed_file, "my notes\n").unwrap();
    for args in [
        &["--force"][..],
        &["--force", "--insecure-seed", "--seed", SEED],
    ] {
        let o = generate(args);
        assert_eq!(o.status.code(), Some(2), "{}", said(&o));
        assert_eq!(
            said(&o),
            format!(
                "tirage: error: {} exists and is not a seed file (64 hex digits, as tirage \
                 writes one): nothing was written, and --force would not replace it (it \
                 replaces only a seed file); move it away\n",
                seed_file.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&seed_file).unwrap(), "my notes\n");
        assert_eq!(
            std::fs::read(block.join("manifest.json")).unwrap(),
            manifest
        );
    }
}

/// What an emission's directory holds stays coherent: a forced emission refuses (exit 2,
/// nothing changed) a stray block it would not replace, a block's own seed file, and an
/// emission.json tirage did not write; a block made alone never goes into an emission.
#[test]
fn an_emission_directory_stays_coherent() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    emission(&em);
    let sums = |d: &Path| std::fs::read(d.join("emission.json")).unwrap();
    let before = sums(&em);
    let run = |args: &[&str], out: &Path| {
        let o = tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args(args)
            .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
            .arg(out)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // Blocks 1..2 only: block-003 would stay beside blocks of another emission.
    let (code, err) = run(&["--blocks", "1..2"], &em);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("block 3 is not in this emission's range 1..2"),
        "{err}"
    );
    // A block of the emission made alone.
    let (code, err) = run(&[], &em.join("block-002"));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("a block of an emission is made with the emission"),
        "{err}"
    );
    // A seed file of a block made alone, beside a block the emission would replace.
    std::fs::write(em.join("block-001.seed"), "0".repeat(64)).unwrap();
    let (code, err) = run(&["--blocks", "1..3"], &em);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the seed file of a block made alone"), "{err}");
    std::fs::remove_file(em.join("block-001.seed")).unwrap();
    // An emission.json that is not tirage's.
    let other = t.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("emission.json"), "{\"mine\": 1}").unwrap();
    let (code, err) = run(&["--blocks", "1..2"], &other);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a tirage emission manifest"), "{err}");
    assert_eq!(sums(&other), b"{\"mine\": 1}");
    assert_eq!(sums(&em), before);
    // All three again: replaced.
    let (code, err) = run(&["--blocks", "1..3"], &em);
    assert_eq!(code, Some(0), "{err}");
}

/// By default an emission goes to output/<game>/emission-<EEE>, apart from the blocks made
/// one by one in output/<game>/block-<NNN>: making one never stands in the other's way.
#[test]
fn an_emission_and_a_block_by_default_stay_apart() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    for args in [&["--blocks", "1..2"][..], &[][..]] {
        tirage()
            .current_dir(t.path())
            .arg("generate")
            .arg(&spec)
            .args(args)
            .args(["--insecure-seed", "--seed", SEED, "-q"])
            .assert()
            .success();
    }
    let out = t.path().join("output/coq");
    assert!(out.join("emission-001/emission.json").is_file());
    // With the blocks' permission bits (--mode, default 0600), whatever the umask.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &str| std::fs::metadata(out.join(p)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode("emission-001/emission.json"), 0o600);
        assert_eq!(mode("emission-001"), 0o700);
    }
    assert!(out.join("emission-001/block-002/manifest.json").is_file());
    assert!(out.join("block-001/manifest.json").is_file());
}

/// An emission holds emission.json, its signature and its blocks (with their audit reports
/// and proofs): anything else in it is named, a finding (exit 1), never certified with the
/// rest.
#[test]
fn an_entry_no_emission_holds_is_a_finding() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    small_emission(&em);
    assert_eq!(verify_json(&em).0, 0);
    std::fs::write(em.join("notes.txt"), "a note").unwrap();
    std::fs::create_dir(em.join("proofs")).unwrap();
    let (code, report) = verify_json(&em);
    assert_eq!(code, 1);
    let said = |n: &str| {
        format!("{n} is in the emission directory but is none of an emission's entries (emission.json, its signature, its blocks, their audit reports and proofs): an emission is delivered as it is")
    };
    assert_eq!(
        report["examples"],
        serde_json::json!([said("notes.txt"), said("proofs")])
    );
}

/// An emission whose blocks the identities given cannot wholly open (the auditor's key a
/// recipient of tickets.csv.age alone) is refused as each block alone is (exit 2, nothing
/// verified), naming the block, the files left unopened and whose identity opens each:
/// never "0 tickets read" with tickets.csv said unopened although it opened.
#[test]
fn an_emission_the_identities_cannot_open_is_said_as_its_block() {
    let t = tempfile::tempdir().unwrap();
    let mut recipients = Vec::new();
    for role in ["printer", "central", "auditor"] {
        let id = t.path().join(format!("{role}.key"));
        let o = std::process::Command::new("age-keygen")
            .arg("-o")
            .arg(&id)
            .output()
            .expect("age-keygen is installed");
        assert!(o.status.success());
        let o = std::process::Command::new("age-keygen")
            .arg("-y")
            .arg(&id)
            .output()
            .unwrap();
        recipients.push("--recipient".to_string());
        recipients.push(format!(
            "{role}={}",
            String::from_utf8_lossy(&o.stdout).trim()
        ));
    }
    let em = t.path().join("em");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--blocks", "1..2", "--insecure-seed", "--seed", SEED, "-q"])
        .args(&recipients)
        .arg("--out")
        .arg(&em)
        .assert()
        .success();
    let error = |dir: &Path| {
        let o = tirage()
            .args([
                "verify",
                "--unauthenticated",
                "-q",
                "--no-audit",
                "--identity",
            ])
            .arg(t.path().join("auditor.key"))
            .arg(dir)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        assert!(o.stdout.is_empty());
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .find(|l| l.starts_with("tirage: error: "))
            .unwrap()
            .to_string()
    };
    let said = format!(
        "tirage: error: {}: no identity given opens tickets.bin.age (the printer's), validation.csv.age (the central system's): verify reads every ticket file; give the identity that opens each (--identity FILE, repeatable), or have the auditor made a recipient of every role (generate --recipient printer=… --recipient central=… with the auditor's key); nothing was verified",
        em.join("block-001").display()
    );
    assert_eq!(error(&em.join("block-001")), said);
    assert_eq!(error(&em), said);
}
