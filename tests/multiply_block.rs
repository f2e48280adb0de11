//! Blocks of games with multiplied play areas and a multiplier box, judged ticket by ticket
//! by an evaluator written here from the rule text alone (game_specs/README.md, "Multiplied
//! play areas and the multiplier box"), not from tirage's code: the examples
//! game_specs/examples/zones_multipliees.toml (three instant-cash areas printed 1X, 2X and
//! 5X) and game_specs/examples/numero_multiplicateur.toml (your numbers against three
//! winning numbers, with a 1X/2X/5X/10X box over the whole ticket). Every ticket's printed
//! prize must be the multiplied sum the rules pay, and the box must not tell losing tickets
//! from winning ones.

mod common;

use common::{repo, tirage};
use std::collections::BTreeMap;

/// The rows of `tickets.csv` of block 1 of `spec`, by column name, after `verify` found the
/// block clean.
fn block(spec: &str) -> Vec<BTreeMap<String, String>> {
    let csv = common::clean_block_csv(spec);
    let mut lines = csv.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

/// A factor as printed (`5X`).
fn factor(printed: &str) -> u64 {
    printed
        .strip_suffix('X')
        .and_then(|f| f.parse().ok())
        .unwrap_or_else(|| panic!("not a printed factor: {printed}"))
}

/// Whole euros of an amount column.
fn euros(text: &str) -> u64 {
    text.parse()
        .unwrap_or_else(|_| panic!("not whole euros: {text}"))
}

#[test]
fn every_ticket_of_multiplied_areas_pays_each_area_times_its_factor() {
    // The areas as printed: jeu1 plain, jeu2 "2X", jeu3 "5X".
    let areas = [("jeu1", 1), ("jeu2", 2), ("jeu3", 5)];
    let rows = block("game_specs/examples/zones_multipliees.toml");
    assert_eq!(rows.len(), 4_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    let mut multiplied = 0;
    for row in &rows {
        let mut prize = 0;
        for (id, f) in areas {
            let shown = euros(&row[&format!("{id}_amount")]);
            prize += shown * f;
            multiplied += usize::from(shown > 0 && f > 1);
        }
        assert_eq!(
            prize.to_string(),
            row["prize"],
            "ticket {}: the areas pay {prize}",
            row["ticket"]
        );
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
        // The 10 € tier is reached only by combining: never one plain area showing 10.
        if prize == 10 {
            assert_ne!(row["jeu1_amount"], "10", "ticket {}", row["ticket"]);
        }
    }
    // The lot table, exactly.
    let table = BTreeMap::from([(500, 1), (100, 4), (20, 40), (10, 100), (4, 300), (2, 400)]);
    assert_eq!(paid, table);
    assert!(multiplied > 300, "{multiplied} multiplied wins");
}

#[test]
fn every_ticket_with_a_multiplier_box_pays_the_multiplied_sum() {
    let rows = block("game_specs/examples/numero_multiplicateur.toml");
    assert_eq!(rows.len(), 5_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    // Tickets by (wins, box value).
    let mut shown: BTreeMap<(bool, u64), u32> = BTreeMap::new();
    for row in &rows {
        let winning: Vec<&str> = (1..=3)
            .map(|i| row[&format!("chance_win{i}")].as_str())
            .collect();
        let mut sum = 0;
        for s in 1..=10 {
            if winning.contains(&row[&format!("chance_sym{s}")].as_str()) {
                sum += euros(&row[&format!("chance_amt{s}")]);
            }
        }
        let b = factor(&row["box"]);
        let prize = sum * b;
        assert_eq!(
            prize.to_string(),
            row["prize"],
            "ticket {}: {sum} × {b}",
            row["ticket"]
        );
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
        if prize == 1_000 {
            assert_eq!((sum, b), (100, 10), "ticket {}", row["ticket"]);
        }
        *shown.entry((prize > 0, b)).or_default() += 1;
    }
    let table = BTreeMap::from([
        (1_000, 1),
        (500, 2),
        (100, 10),
        (20, 40),
        (10, 120),
        (4, 250),
    ]);
    assert_eq!(paid, table);
    // Every value shows on losing tickets as often, in share, as on winning ones: 423
    // winners against 4 577 losers, each value's share within 5 points of the other's.
    let count = |win: bool| -> u32 {
        shown
            .iter()
            .filter(|(k, _)| k.0 == win)
            .map(|(_, c)| c)
            .sum()
    };
    let (winners, losers) = (f64::from(count(true)), f64::from(count(false)));
    assert_eq!((winners, losers), (423.0, 4_577.0));
    for b in [1, 2, 5, 10] {
        let w = f64::from(shown.get(&(true, b)).copied().unwrap_or(0)) / winners;
        let l = f64::from(shown.get(&(false, b)).copied().unwrap_or(0)) / losers;
        assert!(l > 0.0 && w > 0.0, "{b}X: winners {w:.3}, losers {l:.3}");
        assert!((w - l).abs() < 0.05, "{b}X: winners {w:.3}, losers {l:.3}");
    }
}

/// A QA deck asks for every box decoy (a losing ticket showing 2X, 5X, 10X): each comes out
/// on a losing ticket and the deck verifies clean; a winning way cannot be asked for one.
#[test]
fn a_deck_shows_every_box_decoy_on_a_losing_ticket() {
    let spec = repo("game_specs/examples/numero_multiplicateur.toml");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("deck");
    let o = tirage()
        .arg("deck")
        .arg(&spec)
        .args(["--insecure-seed", "--seed", &"ab".repeat(32), "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report = tirage()
        .args(["verify", "--unauthenticated", "-q", "--no-audit"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "deck verify not clean");
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    for f in ["decoy_box_2x", "decoy_box_5x", "decoy_box_10x"] {
        assert!(manifest.contains(f), "{f} not in the deck");
    }
    assert!(!manifest.contains("decoy_box_1x"));
    let spec = tirage::spec::GameSpec::load(&spec).unwrap();
    let (id, _) = spec
        .game
        .features()
        .into_iter()
        .find(|(_, f)| f.name == "decoy_box_5x")
        .unwrap();
    assert!(spec.game.can_show(&spec.ways[0], id).is_ok());
    let err = spec.game.can_show(&spec.ways[1], id).unwrap_err();
    assert_eq!(
        err.to_string(),
        "way \"100x10\" cannot show feature \"decoy_box_5x\": the multiplier box is a decoy only on a losing ticket"
    );
}
