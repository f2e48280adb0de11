//! The real binary on blocks of the crossword style (the example game's book of grids,
//! game_specs/examples/mots_croises.toml, and the word lists of tests/specs/mots_small.toml):
//! every ticket of the generated block is judged by an evaluator written here from the
//! rule text of game_specs/README.md alone, not from the style's code.
//!
//! The rule: the ticket shows grid N of the spec's book (its words: runs of two or more
//! letters across, row by row, then down, column by column) or list N, and your letters,
//! distinct, A to Z. A word is complete when every letter of it is among your letters. The
//! legend pays by the number of complete words; any other count loses. The naive reading:
//! no letter twice, no unpaid count above the lowest paid one. The near miss: a losing
//! ticket one word short of the lowest paid count with a word one letter short; every other
//! losing ticket shows at most two words fewer than the lowest paid count.

mod common;

use common::{generate, panic_of, repo, tirage};
use std::collections::{BTreeMap, BTreeSet};

/// The crossword surface of a spec, as the rule text reads it.
struct Rules {
    /// The surface's id (names its columns).
    id: String,
    /// Your letters on a ticket.
    letters: usize,
    /// Legend: number of complete words → amount in cents.
    legend: BTreeMap<usize, u64>,
    /// The book: each grid's (or list's) words.
    book: Vec<Vec<String>>,
    /// The near miss's share of losing tickets.
    near_miss: f64,
}

/// A grid's words, from its picture: runs of 2 or more letters across, then down.
fn words_of(rows: &[String]) -> Vec<String> {
    let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let runs = |line: Vec<char>| -> Vec<String> {
        line.split(|&c| c == '.')
            .filter(|r| r.len() >= 2)
            .map(|r| r.iter().collect())
            .collect()
    };
    let mut out = Vec::new();
    for row in &grid {
        out.extend(runs(row.clone()));
    }
    for j in 0..grid[0].len() {
        out.extend(runs(grid.iter().map(|r| r[j]).collect()));
    }
    out
}

fn rules(spec: &str) -> Rules {
    let doc: toml::Table = toml::from_str(&std::fs::read_to_string(repo(spec)).unwrap()).unwrap();
    let s = doc["surfaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_table().unwrap())
        .find(|s| s["style"].as_str() == Some("crossword"))
        .unwrap();
    let strings = |v: &toml::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    let book: Vec<Vec<String>> = match (s.get("grids"), s.get("lists")) {
        (Some(g), None) => g
            .as_array()
            .unwrap()
            .iter()
            .map(|p| words_of(&strings(p)))
            .collect(),
        (None, Some(l)) => l.as_array().unwrap().iter().map(strings).collect(),
        _ => panic!("{spec}: grids or lists"),
    };
    Rules {
        id: s["id"].as_str().unwrap().to_string(),
        letters: s["letters"].as_integer().unwrap() as usize,
        legend: s["prizes"]
            .as_table()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.parse().unwrap(), v.as_integer().unwrap() as u64 * 100))
            .collect(),
        book,
        near_miss: s["near_miss"].as_float().unwrap(),
    }
}

/// What the judge found over a block.
#[derive(Default, Debug)]
struct Tally {
    tickets: usize,
    losing: usize,
    near_misses: usize,
    /// Per grid: tickets and winning tickets.
    per_grid: BTreeMap<usize, (usize, usize)>,
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
    let (prize_at, grid_at) = (col("prize"), col(&format!("{}_grid", r.id)));
    let n = r.book[0].len();
    let word_at: Vec<usize> = (1..=n).map(|i| col(&format!("{}_w{i}", r.id))).collect();
    let letter_at: Vec<usize> = (1..=r.letters)
        .map(|i| col(&format!("{}_l{i}", r.id)))
        .collect();
    assert_eq!(
        head.len(),
        letter_at[r.letters - 1] + 1,
        "no column after the letters"
    );
    let lowest = *r.legend.keys().next().unwrap();
    let mut t = Tally::default();
    for row in lines {
        let f: Vec<&str> = row.split(',').collect();
        let g: usize = f[grid_at].parse().unwrap();
        assert!((1..=r.book.len()).contains(&g), "{row}");
        let words: Vec<&str> = word_at.iter().map(|&i| f[i]).collect();
        assert_eq!(words, r.book[g - 1], "not the words of grid {g}: {row}");
        let yours: BTreeSet<char> = letter_at
            .iter()
            .map(|&i| {
                let l = f[i];
                assert!(
                    l.len() == 1 && l.chars().all(|c| c.is_ascii_uppercase()),
                    "{row}"
                );
                l.chars().next().unwrap()
            })
            .collect();
        assert_eq!(yours.len(), r.letters, "a letter twice: {row}");
        let missing: Vec<usize> = words
            .iter()
            .map(|w| {
                w.chars()
                    .collect::<BTreeSet<_>>()
                    .difference(&yours)
                    .count()
            })
            .collect();
        let complete = missing.iter().filter(|&&m| m == 0).count();
        let prize = r.legend.get(&complete).copied().unwrap_or(0);
        let printed = f[prize_at];
        let cents: u64 = match printed.split_once('.') {
            Some((u, c)) => {
                u.parse::<u64>().unwrap() * 100 + format!("{c:0<2}").parse::<u64>().unwrap()
            }
            None => printed.parse::<u64>().unwrap() * 100,
        };
        assert_eq!(cents, prize, "{complete} complete words: {row}");
        assert!(
            prize > 0 || complete < lowest,
            "an unpaid count above a paid one: {row}"
        );
        t.tickets += 1;
        let e = t.per_grid.entry(g).or_default();
        e.0 += 1;
        if prize > 0 {
            e.1 += 1;
            continue;
        }
        t.losing += 1;
        if complete + 1 == lowest && missing.contains(&1) {
            t.near_misses += 1;
        } else {
            assert!(
                complete + 2 <= lowest,
                "a losing ticket one word short: {row}"
            );
        }
    }
    t
}

#[test]
fn every_ticket_of_a_crossword_block_pays_what_the_rule_text_says() {
    for (spec, tickets) in [
        ("game_specs/examples/mots_croises.toml", 2000),
        ("tests/specs/mots_small.toml", 1000),
    ] {
        let r = rules(spec);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("block");
        generate(&repo(spec), &out, 2);
        let report = tirage()
            .args(["verify", "--unauthenticated", "-q", "--no-audit"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(report.status.code(), Some(0), "{spec}");
        let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
        let t = judge(&r, &csv);
        assert_eq!(t.tickets, tickets, "{spec}");
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
        // Every grid of the book is printed, and wins as often as the block: the grid is
        // drawn whatever the prize (4.5 standard deviations per grid).
        assert_eq!(t.per_grid.len(), r.book.len(), "{spec}: {:?}", t.per_grid);
        let share = 1.0 - n / t.tickets as f64;
        for (g, &(k, wins)) in &t.per_grid {
            let sd = (k as f64 * share * (1.0 - share)).sqrt();
            assert!(
                (wins as f64 - k as f64 * share).abs() <= 4.5 * sd,
                "{spec}: grid {g} wins {wins} of {k}"
            );
        }
    }
}

/// The judge itself fails a ticket whose prize the rule text does not give: a letter
/// changed in the file so that one more word is complete.
#[test]
fn the_judge_refuses_a_ticket_whose_letters_were_changed() {
    let r = rules("tests/specs/mots_small.toml");
    // List 1: ILE ZEBRE TOMATE CITRON ORANGE LAMPE. Letters I L E Z B R T O M A C N G P S:
    // all six complete, 100.
    let head = "block,pack,pack_position,ticket,serial,prize,way,mots_grid,mots_w1,mots_w2,\
                mots_w3,mots_w4,mots_w5,mots_w6,mots_l1,mots_l2,mots_l3,mots_l4,mots_l5,\
                mots_l6,mots_l7,mots_l8,mots_l9,mots_l10,mots_l11,mots_l12,mots_l13,\
                mots_l14,mots_l15";
    let row = "1,1,1,1,1,100,6_mots,1,ILE,ZEBRE,TOMATE,CITRON,ORANGE,LAMPE,\
               I,L,E,Z,B,R,T,O,M,A,C,N,G,P,S";
    let t = judge(&r, &format!("{head}\n{row}\n"));
    assert_eq!((t.tickets, t.losing), (1, 0));
    // P replaced by X: LAMPE is one letter short, five words complete pay 20, not 100.
    let edited = row.replace(",P,S", ",X,S");
    let msg = panic_of(|| judge(&r, &format!("{head}\n{edited}\n")));
    assert!(msg.contains("5 complete words"), "{msg}");
    // A letter twice.
    let twice = row.replace(",P,S", ",P,P");
    let msg = panic_of(|| judge(&r, &format!("{head}\n{twice}\n")));
    assert!(msg.contains("a letter twice"), "{msg}");
}
