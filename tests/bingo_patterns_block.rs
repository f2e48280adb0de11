//! The real binary on blocks of bingo cards paid by pattern with an X and a full card (the
//! example game game_specs/examples/bingo_croix.toml, pattern_rule = "highest", and
//! tests/specs/bingo_each_small.toml, pattern_rule = "each"): every ticket of the generated
//! block is judged by an evaluator written here from the rule text of game_specs/README.md
//! alone, not from the style's code.
//!
//! The rule: the card is a square grid, its numbers row by row around its free cells (a free
//! cell counts as drawn). A pattern is complete when every number of it is among the drawn
//! numbers: a row, a column, a diagonal, the four corners, the X (both diagonals), the full
//! card. "highest": the card wins the highest amount among the paid patterns it completes;
//! "each": the sum of the amounts of every paid pattern it completes. The naive reading: a
//! card shows one largest completed pattern at most (one no other completed pattern holds),
//! never one that does not pay, a losing card none; no number twice. The near miss: a losing
//! card with a paid pattern one number short, on its share of losing cards; every other
//! losing card keeps two numbers of every paid pattern undrawn.

mod common;

use common::{cents, panic_of, repo};
use std::collections::{BTreeMap, BTreeSet};

/// The bingo surface of a spec, as the rule text reads it.
struct Rules {
    /// The surface's id (names its columns).
    id: String,
    /// The grid's side.
    n: usize,
    /// Free grid positions (row × n + column, from 0).
    free: BTreeSet<usize>,
    numbers: usize,
    drawn: usize,
    /// Pattern name → amount in cents.
    pays: BTreeMap<String, u64>,
    /// Every pattern pays ("each"), or only the highest ("highest").
    each: bool,
    near_miss: f64,
}

fn rules(spec: &str) -> Rules {
    let doc: toml::Table = toml::from_str(&std::fs::read_to_string(repo(spec)).unwrap()).unwrap();
    let s = doc["surfaces"].as_array().unwrap()[0].as_table().unwrap();
    assert_eq!(s["style"].as_str(), Some("match_count"));
    let n = s["grid"].as_integer().unwrap() as usize;
    let mut free = BTreeSet::new();
    if s.get("free_centre").and_then(|v| v.as_bool()) == Some(true) {
        free.insert(n / 2 * n + n / 2);
    }
    for c in s
        .get("free_cells")
        .map_or(&[][..], |v| v.as_array().unwrap())
    {
        let rc = c.as_array().unwrap();
        let (r, c) = (rc[0].as_integer().unwrap(), rc[1].as_integer().unwrap());
        free.insert((r as usize - 1) * n + c as usize - 1);
    }
    Rules {
        id: s["id"].as_str().unwrap().to_string(),
        n,
        free,
        numbers: s["numbers"].as_integer().unwrap() as usize,
        drawn: s["drawn"].as_integer().unwrap() as usize,
        pays: s["patterns"]
            .as_table()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_integer().unwrap() as u64 * 100))
            .collect(),
        each: match s["pattern_rule"].as_str().unwrap() {
            "each" => true,
            "highest" => false,
            r => panic!("{spec}: rule {r}"),
        },
        near_miss: s["near_miss"].as_float().unwrap(),
    }
}

/// Every pattern a player may see on the card: its name (the `patterns` key) and its grid
/// positions. Rows, columns and diagonals always; the corners, the X and the full card when
/// the legend pays them.
fn patterns(r: &Rules) -> Vec<(String, BTreeSet<usize>)> {
    let n = r.n;
    let mut out = Vec::new();
    for i in 0..n {
        out.push(("row".to_string(), (0..n).map(|j| i * n + j).collect()));
        out.push(("column".to_string(), (0..n).map(|j| j * n + i).collect()));
    }
    let d1: BTreeSet<usize> = (0..n).map(|i| i * n + i).collect();
    let d2: BTreeSet<usize> = (0..n).map(|i| i * n + n - 1 - i).collect();
    out.push(("diagonal".to_string(), d1.clone()));
    out.push(("diagonal".to_string(), d2.clone()));
    if r.pays.contains_key("corners") {
        out.push((
            "corners".to_string(),
            [0, n - 1, n * (n - 1), n * n - 1].into(),
        ));
    }
    if r.pays.contains_key("x") {
        out.push(("x".to_string(), d1.union(&d2).copied().collect()));
    }
    if r.pays.contains_key("full") {
        out.push(("full".to_string(), (0..n * n).collect()));
    }
    out
}

/// What the judge found over a block.
#[derive(Default, Debug)]
struct Tally {
    tickets: usize,
    losing: usize,
    near_misses: usize,
    /// Winning tickets by their largest pattern.
    by_pattern: BTreeMap<String, usize>,
}

/// Judges every ticket of `tickets.csv` by `r`; panics on the first ticket the rule text
/// pays otherwise than the file, or that breaks the naive reading or the near-miss policy.
fn judge(r: &Rules, csv: &str) -> Tally {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| {
        head.iter()
            .position(|&h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let prize_at = col("prize");
    let card_at: Vec<usize> = (1..=r.numbers)
        .map(|i| col(&format!("{}_n{i}", r.id)))
        .collect();
    let drawn_at: Vec<usize> = (1..=r.drawn)
        .map(|i| col(&format!("{}_d{i}", r.id)))
        .collect();
    let pats = patterns(r);
    let mut t = Tally::default();
    for row in lines {
        let f: Vec<&str> = row.split(',').collect();
        let card: Vec<u32> = card_at.iter().map(|&i| f[i].parse().unwrap()).collect();
        let drawn: BTreeSet<u32> = drawn_at.iter().map(|&i| f[i].parse().unwrap()).collect();
        assert_eq!(drawn.len(), r.drawn, "a number drawn twice: {row}");
        assert_eq!(
            card.iter().collect::<BTreeSet<_>>().len(),
            r.numbers,
            "a number twice on the card: {row}"
        );
        // The grid, row by row: a free cell counts as drawn.
        let mut numbers = card.iter();
        let on: Vec<bool> = (0..r.n * r.n)
            .map(|p| r.free.contains(&p) || drawn.contains(numbers.next().unwrap()))
            .collect();
        let undrawn = |cells: &BTreeSet<usize>| cells.iter().filter(|&&p| !on[p]).count();
        let complete: Vec<&(String, BTreeSet<usize>)> =
            pats.iter().filter(|(_, c)| undrawn(c) == 0).collect();
        // The numbers of a pattern (its free cells left out).
        let nums = |c: &BTreeSet<usize>| -> BTreeSet<usize> {
            c.iter().copied().filter(|p| !r.free.contains(p)).collect()
        };
        let largest: Vec<&String> = complete
            .iter()
            .filter(|(_, a)| {
                !complete
                    .iter()
                    .any(|(_, b)| nums(a) != nums(b) && nums(a).is_subset(&nums(b)))
            })
            .map(|(name, _)| name)
            .collect();
        assert!(largest.len() <= 1, "two patterns {largest:?}: {row}");
        let amounts = complete.iter().filter_map(|(name, _)| r.pays.get(name));
        let prize = if r.each {
            amounts.sum()
        } else {
            amounts.max().copied().unwrap_or(0)
        };
        assert_eq!(cents(f[prize_at]), prize, "patterns {largest:?}: {row}");
        t.tickets += 1;
        if let Some(&name) = largest.first() {
            let own = r.pays.get(name);
            assert!(own.is_some(), "a pattern that does not pay, {name}: {row}");
            if !r.each {
                assert_eq!(own, Some(&prize), "{name} pays its amount: {row}");
            }
            *t.by_pattern.entry(name.clone()).or_default() += 1;
            continue;
        }
        t.losing += 1;
        let short: Vec<usize> = pats
            .iter()
            .filter(|(name, _)| r.pays.contains_key(name))
            .map(|(_, c)| undrawn(c))
            .collect();
        if short.contains(&1) {
            t.near_misses += 1;
        } else {
            assert!(
                short.iter().all(|&k| k >= 2),
                "a losing card with a paid pattern left open by one number: {row}"
            );
        }
    }
    t
}

#[test]
fn every_ticket_of_an_x_and_full_card_block_pays_what_the_rule_text_says() {
    for (spec, tickets, ways) in [
        (
            "game_specs/examples/bingo_croix.toml",
            2000,
            [("full", 1), ("x", 4), ("corners", 30), ("diagonal", 60)],
        ),
        (
            "tests/specs/bingo_each_small.toml",
            1000,
            [("full", 1), ("x", 5), ("corners", 10), ("diagonal", 20)],
        ),
    ] {
        let r = rules(spec);
        let csv = common::clean_block_csv(spec);
        let t = judge(&r, &csv);
        assert_eq!(t.tickets, tickets, "{spec}");
        // Each way shows its own pattern: the full card once, the X on its tickets.
        for (name, count) in ways {
            assert_eq!(
                t.by_pattern.get(name),
                Some(&count),
                "{spec}: {:?}",
                t.by_pattern
            );
        }
        // The near miss is drawn on its share of losing tickets: binomial, 4 standard
        // deviations (the block's seed is fixed, so the count is too).
        let (n, p) = (t.losing as f64, r.near_miss);
        let sd = (n * p * (1.0 - p)).sqrt();
        assert!(
            (t.near_misses as f64 - n * p).abs() <= 4.0 * sd,
            "{spec}: {} near misses of {} losing tickets",
            t.near_misses,
            t.losing
        );
    }
}

/// The judge itself fails a ticket whose numbers do not pay what its prize says: an X on a
/// card of 1..=24 around a free centre, judged by both rules, then a drawn number changed.
#[test]
fn the_judge_refuses_a_ticket_whose_numbers_were_changed() {
    let mut head = "prize".to_string();
    for i in 1..=24 {
        head.push_str(&format!(",card_n{i}"));
    }
    for i in 1..=24 {
        head.push_str(&format!(",card_d{i}"));
    }
    // The X: numbers 1 7 18 24 and 5 9 16 20; the other drawn numbers from 41.
    let x = [1, 7, 18, 24, 5, 9, 16, 20];
    let ticket = |prize: &str, drawn: &[u32]| {
        let mut row = prize.to_string();
        for i in 1..=24 {
            row.push_str(&format!(",{i}"));
        }
        for d in drawn {
            row.push_str(&format!(",{d}"));
        }
        d_pad(&mut row, drawn.len());
        format!("{head}\n{row}\n")
    };
    let r = rules("tests/specs/bingo_each_small.toml");
    // By "each": 50 + 2 × 5 + 10.
    let t = judge(&r, &ticket("70", &x));
    assert_eq!((t.tickets, t.by_pattern.get("x")), (1, Some(&1)));
    let mut highest = rules("tests/specs/bingo_each_small.toml");
    highest.each = false;
    judge(&highest, &ticket("50", &x));
    let msg = panic_of(|| judge(&highest, &ticket("70", &x)));
    assert!(msg.contains("[\"x\"]"), "{msg}");
    // 20 replaced by 57: only diagonal 1 and no corners, 5 not 70.
    let mut edited = x;
    edited[7] = 57;
    let msg = panic_of(|| judge(&r, &ticket("70", &edited)));
    assert!(msg.contains("[\"diagonal\"]"), "{msg}");
    // A row beside the X.
    let mut two = x.to_vec();
    two.extend([2, 3, 4]);
    let msg = panic_of(|| judge(&r, &ticket("72", &two)));
    assert!(msg.contains("two patterns"), "{msg}");
}

/// Pads a ticket row with the drawn numbers 41, 42, … up to 24 drawn numbers.
fn d_pad(row: &mut String, have: usize) {
    for d in 41..41 + (24 - have) as u32 {
        row.push_str(&format!(",{d}"));
    }
}
