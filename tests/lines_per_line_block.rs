//! The real binary on a block of a lines grid paying every line (the example game
//! game_specs/examples/morpion_lignes.toml, `per_line = true`): every ticket of the
//! generated block is judged by an evaluator written here from the rule text of
//! game_specs/README.md alone, not from the style's code.
//!
//! The rule: a `rows × cols` grid of symbols; a line is `k` consecutive cells of a row, a
//! column or a diagonal (either direction) holding one symbol. Every line of a legend symbol
//! pays that symbol's legend amount; the ticket wins the sum. The naive reading: no line of
//! a symbol outside the legend, no two lines sharing a cell. The near miss: a losing grid
//! with a line holding `k − 1` of one legend symbol, on its share of losing grids; no other
//! losing grid shows one.

mod common;

use common::{cents, panic_of, repo};
use std::collections::BTreeMap;

/// The lines surface of a spec, as the rule text reads it.
struct Rules {
    id: String,
    rows: usize,
    cols: usize,
    k: usize,
    /// Legend: symbol → amount in cents.
    legend: BTreeMap<String, u64>,
    near_miss: f64,
}

fn rules(spec: &str) -> Rules {
    let doc: toml::Table = toml::from_str(&std::fs::read_to_string(repo(spec)).unwrap()).unwrap();
    let s = doc["surfaces"].as_array().unwrap()[0].as_table().unwrap();
    assert_eq!(s["style"].as_str(), Some("lines"));
    assert_eq!(s["per_line"].as_bool(), Some(true));
    let (rows, cols) = (
        s["rows"].as_integer().unwrap() as usize,
        s["cols"].as_integer().unwrap() as usize,
    );
    Rules {
        id: s["id"].as_str().unwrap().to_string(),
        rows,
        cols,
        k: s.get("k")
            .map_or(rows.min(cols), |v| v.as_integer().unwrap() as usize),
        legend: s["legend"]
            .as_table()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_integer().unwrap() as u64 * 100))
            .collect(),
        near_miss: s["near_miss"].as_float().unwrap(),
    }
}

/// Every line of `k` cells of the grid: (row, column) pairs.
fn lines_of(r: &Rules) -> Vec<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
        for row in 0..r.rows as i64 {
            for col in 0..r.cols as i64 {
                let cells: Vec<(i64, i64)> = (0..r.k as i64)
                    .map(|i| (row + dr * i, col + dc * i))
                    .collect();
                if cells.iter().all(|&(a, b)| {
                    (0..r.rows as i64).contains(&a) && (0..r.cols as i64).contains(&b)
                }) {
                    out.push(
                        cells
                            .iter()
                            .map(|&(a, b)| (a as usize, b as usize))
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

/// What the judge found over a block.
#[derive(Default, Debug)]
struct Tally {
    tickets: usize,
    losing: usize,
    near_misses: usize,
    /// Winning tickets by their number of lines.
    by_lines: BTreeMap<usize, usize>,
}

/// Judges every ticket of `tickets.csv` by `r`; panics on the first ticket the rule text
/// pays otherwise than the file, or that breaks the naive reading or the near-miss policy.
fn judge(r: &Rules, csv: &str) -> Tally {
    let mut rows = csv.lines();
    let head: Vec<&str> = rows.next().unwrap().split(',').collect();
    let col = |name: &str| {
        head.iter()
            .position(|&h| h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (prize_at, way_at) = (col("prize"), col("way"));
    let cell_at: Vec<Vec<usize>> = (1..=r.rows)
        .map(|a| {
            (1..=r.cols)
                .map(|b| col(&format!("{}_r{a}c{b}", r.id)))
                .collect()
        })
        .collect();
    let lines = lines_of(r);
    let mut t = Tally::default();
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        let at = |&(a, b): &(usize, usize)| f[cell_at[a][b]];
        let full: Vec<&Vec<(usize, usize)>> = lines
            .iter()
            .filter(|l| l.iter().all(|c| at(c) == at(&l[0])))
            .collect();
        for (i, a) in full.iter().enumerate() {
            assert!(
                r.legend.contains_key(at(&a[0])),
                "a line of {} (not in the legend): {row}",
                at(&a[0])
            );
            for b in &full[i + 1..] {
                assert!(
                    !a.iter().any(|c| b.contains(c)),
                    "two lines sharing a cell: {row}"
                );
            }
        }
        let prize: u64 = full.iter().map(|l| r.legend[at(&l[0])]).sum();
        assert_eq!(cents(f[prize_at]), prize, "{} lines: {row}", full.len());
        t.tickets += 1;
        if prize > 0 {
            assert_eq!(f[way_at].split('+').count(), full.len(), "{row}");
            *t.by_lines.entry(full.len()).or_default() += 1;
            continue;
        }
        t.losing += 1;
        let near = lines.iter().any(|l| {
            r.legend
                .keys()
                .any(|s| l.iter().filter(|c| at(c) == s).count() == r.k - 1)
        });
        if near {
            t.near_misses += 1;
        }
    }
    t
}

#[test]
fn every_ticket_of_a_per_line_block_pays_what_the_rule_text_says() {
    let spec = "game_specs/examples/morpion_lignes.toml";
    let r = rules(spec);
    let csv = common::clean_block_csv(spec);
    let t = judge(&r, &csv);
    assert_eq!(t.tickets, 2000);
    // One line on 620 tickets (10, 5, 2), two lines on 118 (10+10, 10+5, 5+5, 2+2).
    assert_eq!(t.by_lines, BTreeMap::from([(1, 620), (2, 118)]));
    // The near miss is drawn on its share of losing tickets: binomial, 4 standard
    // deviations (the block's seed is fixed, so the count is too).
    let (n, p) = (t.losing as f64, r.near_miss);
    let sd = (n * p * (1.0 - p)).sqrt();
    assert!(
        (t.near_misses as f64 - n * p).abs() <= 4.0 * sd,
        "{} near misses of {} losing tickets",
        t.near_misses,
        t.losing
    );
}

/// The judge itself fails a ticket whose symbols do not pay what its prize says.
#[test]
fn the_judge_refuses_a_ticket_whose_symbols_were_changed() {
    let r = rules("game_specs/examples/morpion_lignes.toml");
    let head = "prize,way,grille_r1c1,grille_r1c2,grille_r1c3,grille_r2c1,grille_r2c2,\
                grille_r2c3,grille_r3c1,grille_r3c2,grille_r3c3";
    // TREFLE on row 1, COEUR on row 3: 10 + 5.
    let row = "15,10+5,TREFLE,TREFLE,TREFLE,LUNE,SOLEIL,FER,COEUR,COEUR,COEUR";
    let t = judge(&r, &format!("{head}\n{row}\n"));
    assert_eq!(t.by_lines, BTreeMap::from([(2, 1)]));
    // One COEUR changed: only the TREFLE line, 10 not 15.
    let edited = row.replace("COEUR,COEUR,COEUR", "COEUR,ROSE,COEUR");
    let msg = panic_of(|| judge(&r, &format!("{head}\n{edited}\n")));
    assert!(msg.contains("1 lines"), "{msg}");
    // A line of LUNE, outside the legend.
    let lune = row.replace("LUNE,SOLEIL,FER", "LUNE,LUNE,LUNE");
    let msg = panic_of(|| judge(&r, &format!("{head}\n{lune}\n")));
    assert!(msg.contains("not in the legend"), "{msg}");
}

/// A way won through a multiplier with more lines than the grid can show beside a cell for
/// it is refused naming the way and its line, the grid, why (the multiplier's cell takes
/// room) and what to change.
#[test]
fn a_multiplier_way_with_more_lines_than_fit_is_refused_saying_why() {
    let text = std::fs::read_to_string(repo("game_specs/examples/morpion_lignes.toml")).unwrap();
    let said = common::refused(
        &text,
        &[
            (
                "per_line = true ",
                "specials = [{ symbol = \"2X\", kind = \"multiplier\", times = 2 }]\nper_line = true ",
            ),
            ("payout = 2_330", "payout = 2_370"),
            ("amount = 20\ncount = 2\ntotal = 40", "amount = 40\ncount = 2\ntotal = 80"),
            (
                "wins = [10, 10]",
                "wins = [20, 20]\nareas = [\"grille_2x\", \"grille_2x\"]",
            ),
        ],
    );
    assert_eq!(
        said,
        "duo.toml:39: way \"10+10\": no surface can carry it: surface \"grille\": 2 lines won \
         beside the multiplier 2X (« grille_2x »), but the 3×3 grid (lines of 3) leaves the \
         multiplier a cell beside 1 winning line at most: its cell takes room, on no winning \
         line and on no line the other cells fill but for it; give the way no more wins in « \
         grille_2x » than that (`wins`), or the grid more cells (`rows`, `cols`)"
    );
}
