//! The real binary on blocks of the crossword style (the example games' books of grids,
//! game_specs/examples/mots_croises.toml and, with a bonus word, mots_bonus.toml, and the
//! word lists of tests/specs/mots_small.toml):
//! every ticket of the generated block is judged by an evaluator written here from the
//! rule text of game_specs/README.md alone, not from the style's code.
//!
//! The rule: the ticket shows grid N of the spec's book (its words: runs of two or more
//! letters across, row by row, then down, column by column) or list N, and your letters,
//! distinct, A to Z. A word is complete when every letter of it is among your letters. The
//! legend pays by the number of complete words; any other count loses. The naive reading:
//! no letter twice, no unpaid count above the lowest paid one. The near miss: a losing
//! ticket one word short of the lowest paid count with a word one letter short; every other
//! losing ticket shows at most two words fewer than the lowest paid count. The bonus word,
//! printed beside the grid and drawn from the spec's list: when every letter of it is among
//! your letters, it wins its prize (printed, or the amount in its box), in addition to the
//! grid's legend; an incomplete bonus word wins nothing.
//!
//! Their proofs draw a grid as the ticket prints it, square by square, and a list's words as
//! cells.

mod common;

use common::{deck, generate, panic_of, repo, tirage};
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
    /// The bonus words, if the surface prints one.
    bonus_words: Vec<String>,
    /// A complete bonus word's printed prize in cents (`None`: the amount in its box).
    bonus_prize: Option<u64>,
}

/// A grid's words, from its picture: runs of 2 or more letters across, then down, each as
/// the (row, square) of its letters from 0 at the top left.
fn runs_of(rows: &[String]) -> Vec<Vec<(usize, usize)>> {
    let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let mut lines: Vec<Vec<(usize, usize)>> = (0..grid.len())
        .map(|i| (0..grid[0].len()).map(|j| (i, j)).collect())
        .collect();
    lines.extend((0..grid[0].len()).map(|j| (0..grid.len()).map(|i| (i, j)).collect()));
    lines
        .iter()
        .flat_map(|line| {
            line.split(|&(i, j)| grid[i][j] == '.')
                .filter(|r| r.len() >= 2)
                .map(<[(usize, usize)]>::to_vec)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A grid's words, from its picture, in the order of [`runs_of`].
fn words_of(rows: &[String]) -> Vec<String> {
    runs_of(rows)
        .iter()
        .map(|run| {
            run.iter()
                .map(|&(i, j)| rows[i].as_bytes()[j] as char)
                .collect()
        })
        .collect()
}

/// The book of grids of a spec's crossword surface, as pictures (rows of letters).
fn pictures(spec: &str) -> Vec<Vec<String>> {
    let doc: toml::Table = toml::from_str(&std::fs::read_to_string(repo(spec)).unwrap()).unwrap();
    doc["surfaces"][0]["grids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g.as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
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
        bonus_words: s.get("bonus_words").map(strings).unwrap_or_default(),
        bonus_prize: s
            .get("bonus_prize")
            .map(|v| v.as_integer().unwrap() as u64 * 100),
    }
}

/// What the judge found over a block.
#[derive(Default, Debug)]
struct Tally {
    tickets: usize,
    losing: usize,
    near_misses: usize,
    /// Per grid: tickets and tickets whose grid wins.
    per_grid: BTreeMap<usize, (usize, usize)>,
    /// Tickets by prize, in cents.
    by_prize: BTreeMap<u64, usize>,
    /// Complete bonus words by what they win, in cents.
    bonus_wins: BTreeMap<u64, usize>,
    /// Per bonus word: tickets and tickets it wins.
    per_bonus: BTreeMap<String, (usize, usize)>,
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
    // After the letters: the bonus word, and its box when its prize is not printed.
    let bonus_at = letter_at[r.letters - 1] + 1;
    let after = match (r.bonus_words.is_empty(), r.bonus_prize) {
        (true, _) => vec![],
        (false, Some(_)) => vec![format!("{}_bonus", r.id)],
        (false, None) => ["bonus", "bonus_amount", "bonus_caption"]
            .map(|c| format!("{}_{c}", r.id))
            .to_vec(),
    };
    assert_eq!(head[bonus_at..], after, "the columns after the letters");
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
        let grid_prize = r.legend.get(&complete).copied().unwrap_or(0);
        // The bonus word wins when every letter of it is among yours.
        let mut bonus = 0;
        if !r.bonus_words.is_empty() {
            let word = f[bonus_at];
            assert!(r.bonus_words.iter().any(|w| w == word), "{row}");
            let won = word.chars().all(|c| yours.contains(&c));
            if won {
                bonus = match r.bonus_prize {
                    Some(p) => p,
                    None => common::cents(f[bonus_at + 1]),
                };
                *t.bonus_wins.entry(bonus).or_default() += 1;
            }
            let e = t.per_bonus.entry(word.to_string()).or_default();
            e.0 += 1;
            e.1 += usize::from(won);
        }
        let prize = grid_prize + bonus;
        let printed = f[prize_at];
        let cents: u64 = match printed.split_once('.') {
            Some((u, c)) => {
                u.parse::<u64>().unwrap() * 100 + format!("{c:0<2}").parse::<u64>().unwrap()
            }
            None => printed.parse::<u64>().unwrap() * 100,
        };
        assert_eq!(
            cents, prize,
            "{complete} complete words and a bonus of {bonus}: {row}"
        );
        assert!(
            grid_prize > 0 || complete < lowest,
            "an unpaid count above a paid one: {row}"
        );
        t.tickets += 1;
        *t.by_prize.entry(prize).or_default() += 1;
        let e = t.per_grid.entry(g).or_default();
        e.0 += 1;
        if grid_prize > 0 {
            e.1 += 1;
            continue;
        }
        // The grid loses (beside a winning bonus word too): the near-miss policy holds.
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

/// Generates block 1 of `spec` (`tickets` tickets), checks it verifies clean and judges every
/// ticket by the rule text ([`judge`]); asserts the near miss's share of the tickets whose
/// grid loses, and that every grid is printed and wins as often as the block. Returns the
/// tally and the block's directory.
fn judged_block(spec: &str, tickets: usize) -> (Tally, tempfile::TempDir) {
    let r = rules(spec);
    let (dir, out) = common::clean_block(spec);
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
    (t, dir)
}

#[test]
fn every_ticket_of_a_crossword_block_pays_what_the_rule_text_says() {
    for (spec, tickets) in [
        ("game_specs/examples/mots_croises.toml", 2000),
        ("tests/specs/mots_small.toml", 1000),
    ] {
        judged_block(spec, tickets);
    }
}

/// mots_bonus: every ticket judged by the rule text, grid and bonus word; the prizes it gives
/// are exactly the lot table's, and the complete bonus words exactly those of its ways.
#[test]
fn every_ticket_of_a_bonus_word_block_pays_the_grid_and_the_bonus_word() {
    let spec = "game_specs/examples/mots_bonus.toml";
    let (t, _dir) = judged_block(spec, 2000);
    let cents = |pairs: &[(u64, usize)]| -> BTreeMap<u64, usize> {
        pairs.iter().map(|&(u, n)| (u * 100, n)).collect()
    };
    // The lot table: 636 lots, 1 364 losers.
    assert_eq!(
        t.by_prize,
        cents(&[
            (0, 1364),
            (3, 260),
            (5, 220),
            (8, 20),
            (10, 90),
            (20, 30),
            (30, 4),
            (50, 6),
            (100, 3),
            (200, 1),
            (500, 1),
            (1000, 1)
        ])
    );
    // Complete bonus words: bonus_5 ×100 and 3_mots_bonus ×20 win 5, bonus_10 ×40 and
    // 6_mots_bonus ×4 win 10, bonus_20 ×10 win 20, bonus_100 and 8_mots_bonus win 100.
    assert_eq!(
        t.bonus_wins,
        cents(&[(5, 120), (10, 44), (20, 10), (100, 2)])
    );
    // Every bonus word is printed, and wins as often as the block: drawn whatever the prize
    // (4.5 standard deviations per word).
    assert_eq!(t.per_bonus.len(), 5, "{:?}", t.per_bonus);
    let share = 176.0 / 2000.0;
    for (w, &(k, wins)) in &t.per_bonus {
        let sd = (k as f64 * share * (1.0 - share)).sqrt();
        assert!(
            (wins as f64 - k as f64 * share).abs() <= 4.5 * sd,
            "{w} wins {wins} of {k}"
        );
    }
}

/// A forged bonus word, or a forged letter of it among yours, in the print file and the CSV
/// alike: the bonus word of a ticket it wins is no longer complete, and `verify` finds the
/// face paying less than its printed prize.
#[test]
fn verify_finds_a_forged_bonus_word_or_letter() {
    let spec = "game_specs/examples/mots_bonus.toml";
    let r = rules(spec);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("block");
    generate(&repo(spec), &out, 1);
    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let rows: Vec<BTreeMap<&str, &str>> = lines[1..]
        .iter()
        .map(|l| head.iter().copied().zip(l.split(',')).collect())
        .collect();
    let yours = |r: &BTreeMap<&str, &str>| -> BTreeSet<char> {
        (1..=18)
            .map(|i| r[format!("mots_l{i}").as_str()].chars().next().unwrap())
            .collect()
    };
    // A ticket the bonus word alone wins.
    let (i, row) = rows
        .iter()
        .enumerate()
        .find(|(_, r)| r["way"] == "bonus_10")
        .unwrap();
    let letters = yours(row);
    let word = row["mots_bonus"];
    assert!(word.chars().all(|c| letters.contains(&c)));
    // Another bonus word, which a letter keeps incomplete.
    let (code, other) = r
        .bonus_words
        .iter()
        .enumerate()
        .find(|(_, w)| !w.chars().all(|c| letters.contains(&c)))
        .unwrap();
    // A letter of the bonus word among yours, made a letter that is not among them.
    let first = word.chars().next().unwrap();
    let slot = (1..=18)
        .find(|&i| row[format!("mots_l{i}").as_str()] == first.to_string())
        .unwrap();
    let absent = ('A'..='Z').find(|c| !letters.contains(c)).unwrap();
    let forgeries = [
        ("mots_bonus".to_string(), code as u8, other.clone()),
        (
            format!("mots_l{slot}"),
            absent as u8 - b'A',
            absent.to_string(),
        ),
    ];
    for (column, code, text) in forgeries {
        let bad = dir.path().join(format!("bad-{column}"));
        common::copy_dir(&out, &bad);
        common::forge_cell(&bad, i + 1, &column, code, &text);
        let report = tirage()
            .args(["verify", "--unauthenticated", "--no-audit"])
            .arg(&bad)
            .output()
            .unwrap();
        assert_eq!(report.status.code(), Some(1), "{column}");
        let text = String::from_utf8(report.stdout).unwrap();
        assert_eq!(
            common::status_of(&text, "csv_matches_print"),
            "FAIL",
            "{column}: {text}"
        );
        assert_eq!(
            common::status_of(&text, "counts"),
            "FAIL",
            "{column}: {text}"
        );
    }
}

/// A bonus word some grid cannot serve, and bonus settings that cannot be, are refused with
/// the file, the line, the field and what was expected.
#[test]
fn bonus_words_no_grid_can_serve_are_refused_by_field_and_grid() {
    let text = std::fs::read_to_string(repo("game_specs/examples/mots_bonus.toml")).unwrap();
    let refused = |from: &str, to: &str| common::refused(&text, &[(from, to)]);
    // TRAIN's letters are all in grid 1's words: it cannot stay incomplete beside ten
    // complete words.
    assert_eq!(
        refused("\"JOKER\", \"TAXI\"", "\"JOKER\", \"TRAIN\""),
        "duo.toml:107: way \"10_mots\": no surface can carry it: surface \"mots\": « mots » \
         cannot win 1000: grid 1 with the bonus word \"TRAIN\" (bonus_words[1]) incomplete \
         cannot show exactly 10 complete words with 18 letters, and every grid and bonus word \
         must serve every way (neither tells anything of the prize)"
    );
    // ROSEK complete makes ROSE of grid 1 complete: no bonus word wins alone there.
    assert_eq!(
        refused("\"JOKER\", \"TAXI\"", "\"JOKER\", \"ROSEK\""),
        "duo.toml:142: way \"bonus_100\": no surface can carry it: surface \"mots\": « mots » \
         cannot win 100: grid 1 with the bonus word \"ROSEK\" (bonus_words[1]) complete cannot \
         show exactly 0 complete words with 18 letters, and every grid and bonus word must \
         serve every way (neither tells anything of the prize)"
    );
    assert_eq!(
        refused("\"JOKER\", \"TAXI\"", "\"JOKER\", \"Taxi\""),
        "duo.toml:46: surfaces[0].bonus_words[1]: \"Taxi\" is not a word: expected 2 to 20 \
         letters A to Z"
    );
    assert_eq!(
        refused(
            "bonus_amounts = [5, 10, 20, 100]",
            "bonus_amounts = [5, 10, 20, 100]\nbonus_prize = 5"
        ),
        "duo.toml:48: surfaces[0].bonus_prize: give either bonus_prize (one amount, printed \
         with the bonus word) or bonus_amounts (the amounts its box under the scratch may show)"
    );
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

/// An element of a proof's SVG, one a line: a text (its anchor point and content) or a
/// rectangle (its box and fill).
#[derive(Debug)]
enum Drawn {
    Text(f64, f64, String),
    Rect(f64, f64, f64, f64, String),
}

/// The texts and rectangles of an SVG proof, in drawing order.
fn drawn(svg: &str) -> Vec<Drawn> {
    let attr = |l: &str, name: &str| -> String {
        let from = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        l[from..from + l[from..].find('"').unwrap()].to_string()
    };
    let num = |l: &str, name: &str| attr(l, name).parse::<f64>().unwrap();
    svg.lines()
        .filter_map(|l| {
            if l.starts_with("<text") {
                let text = &l[l.find('>').unwrap() + 1..l.find("</text>").unwrap()];
                Some(Drawn::Text(num(l, "x"), num(l, "y"), text.to_string()))
            } else if l.starts_with("<rect") {
                Some(Drawn::Rect(
                    num(l, "x"),
                    num(l, "y"),
                    num(l, "width"),
                    num(l, "height"),
                    attr(l, "fill"),
                ))
            } else {
                None
            }
        })
        .collect()
}

/// Renders ticket `t` of the deck in `dir` and returns its SVG.
fn proof(dir: &std::path::Path, t: &str) -> String {
    let out = dir.join("proofs");
    tirage()
        .arg("render")
        .arg(dir.join("deck"))
        .args(["--tickets", t, "--out"])
        .arg(&out)
        .assert()
        .success();
    std::fs::read_to_string(out.join(format!("ticket-{t}.svg"))).unwrap()
}

/// The first ticket of the deck in `dir` that wins with some words incomplete: its CSV row
/// as (column, value) pairs.
fn a_winner(dir: &std::path::Path, spec: &str) -> BTreeMap<String, String> {
    deck(&repo(spec), &dir.join("deck"));
    let csv = std::fs::read_to_string(dir.join("deck/tickets.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            head.iter()
                .map(|h| h.to_string())
                .zip(l.split(',').map(str::to_string))
                .collect::<BTreeMap<String, String>>()
        })
        .find(|r| r["way"] == "3_mots")
        .expect("a ticket of 3 words")
}

/// The proof of a winning ticket with a book of grids draws its grid as the ticket prints
/// it: each letter of the grid once, in a square at its row and column of one lattice, the
/// squares of each complete word marked as the win (pale green) and no other; your letters
/// stay 18 cells, in their order.
#[test]
fn a_proof_draws_the_grid_square_by_square_with_the_complete_words_marked() {
    let spec = "game_specs/examples/mots_croises.toml";
    let dir = tempfile::tempdir().unwrap();
    let row = a_winner(dir.path(), spec);
    let svg = proof(dir.path(), &row["ticket"]);
    let picture = &pictures(spec)[row["mots_grid"].parse::<usize>().unwrap() - 1];
    let yours: Vec<String> = (1..=18)
        .map(|i| row[&format!("mots_l{i}")].clone())
        .collect();
    let complete: BTreeSet<(usize, usize)> = runs_of(picture)
        .into_iter()
        .filter(|run| {
            run.iter()
                .all(|&(i, j)| yours.contains(&picture[i][j..=j].to_string()))
        })
        .flatten()
        .collect();
    assert!(!complete.is_empty());
    let items = drawn(&svg);
    let at = |label: &str| {
        items
            .iter()
            .position(|d| matches!(d, Drawn::Text(_, _, t) if t == label))
            .unwrap_or_else(|| panic!("no label {label}"))
    };
    let (grid_at, letters_at) = (at("Grille"), at("Vos 18 lettres"));
    let single = |t: &str| t.len() == 1 && t.chars().all(|c| c.is_ascii_uppercase());
    let letters: Vec<(f64, f64, &str)> = items[grid_at..letters_at]
        .iter()
        .filter_map(|d| match d {
            Drawn::Text(x, y, t) if single(t) => Some((*x, *y, t.as_str())),
            _ => None,
        })
        .collect();
    // The picture's letters, row by row.
    let expected: Vec<(usize, usize, char)> = picture
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            r.chars()
                .enumerate()
                .filter(|&(_, c)| c != '.')
                .map(move |(j, c)| (i, j, c))
        })
        .collect();
    assert_eq!(letters.len(), expected.len(), "{letters:?}");
    // One lattice: the leftmost and rightmost letters give its origin and pitch; every
    // letter stands at its row and square of it, exactly.
    let (ilo, ihi) = (
        expected.iter().map(|e| e.0).min().unwrap(),
        expected.iter().map(|e| e.0).max().unwrap(),
    );
    let (jlo, jhi) = (
        expected.iter().map(|e| e.1).min().unwrap(),
        expected.iter().map(|e| e.1).max().unwrap(),
    );
    let (xlo, xhi) = letters
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), l| (a.min(l.0), b.max(l.0)));
    let (ylo, yhi) = letters
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), l| (a.min(l.1), b.max(l.1)));
    let pitch = (xhi - xlo) / (jhi - jlo) as f64;
    assert_eq!(pitch, (yhi - ylo) / (ihi - ilo) as f64);
    assert!(pitch >= 20.0, "squares {pitch} pt apart");
    let mut want: Vec<String> = expected
        .iter()
        .map(|&(i, j, c)| {
            let x = xlo + (j - jlo) as f64 * pitch;
            let y = ylo + (i - ilo) as f64 * pitch;
            format!("{x} {y} {c}")
        })
        .collect();
    let mut got: Vec<String> = letters
        .iter()
        .map(|(x, y, t)| format!("{x} {y} {t}"))
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    // Each letter's square: the smallest square around it, pale green exactly when the
    // square is in a complete word.
    for &(i, j, c) in &expected {
        let x = xlo + (j - jlo) as f64 * pitch;
        let y = ylo + (i - ilo) as f64 * pitch;
        let square = items[grid_at..letters_at]
            .iter()
            .filter_map(|d| match d {
                Drawn::Rect(rx, ry, w, h, fill)
                    if w == h && *rx < x && x < rx + w && *ry < y && y < ry + h =>
                {
                    Some((*w, fill.as_str()))
                }
                _ => None,
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap_or_else(|| panic!("no square around {c} at row {i}, square {j}"));
        assert!(square.0 < pitch, "{c}: {square:?}");
        let win = square.1 == "#d6f3df";
        assert_eq!(
            win,
            complete.contains(&(i, j)),
            "{c} at row {i}, square {j}"
        );
    }
    // Your letters stay cells, in their order.
    let below: Vec<&str> = items[letters_at..]
        .iter()
        .filter_map(|d| match d {
            Drawn::Text(_, _, t) if single(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(below, yours);
}

/// A word list has no lattice: its proof draws each word as a cell, once, and no letter
/// square.
#[test]
fn a_word_list_s_proof_draws_its_words_as_cells() {
    let spec = "tests/specs/mots_small.toml";
    let dir = tempfile::tempdir().unwrap();
    let row = a_winner(dir.path(), spec);
    let svg = proof(dir.path(), &row["ticket"]);
    for i in 1..=6 {
        let word = &row[&format!("mots_w{i}")];
        assert_eq!(svg.matches(&format!(">{word}</text>")).count(), 1, "{word}");
    }
    let items = drawn(&svg);
    let at = |label: &str| {
        items
            .iter()
            .position(|d| matches!(d, Drawn::Text(_, _, t) if t == label))
            .unwrap()
    };
    assert!(!items[at("Vos mots")..at("Vos lettres")]
        .iter()
        .any(|d| matches!(d, Drawn::Text(_, _, t) if t.len() == 1 && t != &row["mots_grid"])));
}

/// A proof says which panels are printed in the open (the grid, its number, the bonus
/// word) and which under the scratch layer (your letters; the bonus word's amount box,
/// hatched in a panel otherwise in the open), and captions the grid's number.
#[test]
fn a_proof_says_what_is_under_the_scratch_layer() {
    let dir = tempfile::tempdir().unwrap();
    deck(
        &repo("game_specs/examples/mots_bonus.toml"),
        &dir.path().join("deck"),
    );
    let svg = proof(dir.path(), "1");
    let texts: Vec<String> = drawn(&svg)
        .into_iter()
        .filter_map(|d| match d {
            Drawn::Text(_, _, t) => Some(t),
            Drawn::Rect(..) => None,
        })
        .collect();
    let after = |label: &str| {
        let i = texts.iter().position(|t| t == label).unwrap();
        texts[i + 1].as_str()
    };
    assert_eq!(after("Grille"), "imprimé à découvert");
    assert_eq!(after("Vos 18 lettres"), "sous la couche à gratter");
    assert_eq!(
        after("Mot bonus"),
        "imprimé à découvert ; cases hachurées sous la couche à gratter"
    );
    assert_eq!(texts.iter().filter(|t| *t == "GRILLE N°").count(), 1);
}
