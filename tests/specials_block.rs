//! Blocks of games with special symbols, judged ticket by ticket by an evaluator written here
//! from the rule text alone (game_specs/README.md, `symbol_to_prize`, `key_match`,
//! `match_count`, `compare`, `match_symbols`, `match_amounts` and `lines`), not from tirage's code: game_specs/examples/coffre_tout.toml
//! (a legend game whose TOUT symbol wins every legend amount),
//! game_specs/examples/multi_chance.toml (your numbers against winning numbers, with a money
//! bag, a 5X and a win-all among the spots), game_specs/examples/bingo_multi.toml (a bingo
//! card whose FREE space may show 2X, 5X or 10X) and game_specs/examples/plus_fort_bonus.toml
//! (your number against theirs, with a money bag, a 5X and a win-all in place of your
//! number), game_specs/examples/lingot_banque.toml (match 3 like symbols, with a gold bar
//! that wins its game's box and a bank that wins both boxes of two games),
//! game_specs/examples/double_montant.toml (match 3 like amounts, with a 2X and a money bag
//! in place of an amount), game_specs/examples/etoile_tout.toml (tic-tac-toe, with a
//! star that wins the box and a win-all that wins every legend amount) and
//! game_specs/examples/morpion_double.toml (tic-tac-toe, with a 2X and a 5X that multiply a
//! winning grid's win). Every ticket's
//! printed prize must be what the rules pay, no face may show what the naive reading would
//! read otherwise, and the lot table must come out exactly.

mod common;

use std::collections::BTreeMap;

/// The rows of `tickets.csv` of block 1 of `spec`, by column name, after `verify` found the
/// block clean.
fn block(spec: &str) -> Vec<BTreeMap<String, String>> {
    common::csv_rows(&common::clean_block_csv(spec))
}

/// Whole euros of an amount column.
fn euros(text: &str) -> u64 {
    text.parse()
        .unwrap_or_else(|_| panic!("not whole euros: {text}"))
}

#[test]
fn every_ticket_of_a_legend_game_with_a_win_all_pays_as_the_rules_say() {
    // The printed legend; X2 doubles every win; TOUT wins every legend amount, added up.
    let legend = BTreeMap::from([
        ("PIECE", 2),
        ("BAGUE", 5),
        ("COUPE", 10),
        ("COURONNE", 50),
        ("COFFRE", 500),
    ]);
    let all: u64 = legend.values().sum();
    assert_eq!(all, 567);
    let rows = block("game_specs/examples/coffre_tout.toml");
    assert_eq!(rows.len(), 2_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    let (mut touts, mut doubled) = (0, 0);
    for row in &rows {
        let t = &row["ticket"];
        let cells: Vec<&str> = (1..=6)
            .map(|i| row[&format!("coffre_{i}")].as_str())
            .collect();
        let found: Vec<u64> = cells
            .iter()
            .filter_map(|c| legend.get(c).copied())
            .collect();
        let x2 = cells.iter().filter(|&&c| c == "X2").count();
        let tout = cells.iter().filter(|&&c| c == "TOUT").count();
        // The naive reading never differs from the rule: TOUT alone, once; at most one X2;
        // at most two winning cells; no other symbol twice.
        assert!(tout <= 1 && x2 <= 1, "ticket {t}: {cells:?}");
        if tout == 1 {
            assert!(
                found.is_empty() && x2 == 0,
                "ticket {t}: TOUT beside {cells:?}"
            );
        }
        assert!(found.len() <= 2, "ticket {t}: {cells:?}");
        for (i, c) in cells.iter().enumerate() {
            if !legend.contains_key(c) {
                assert!(!cells[..i].contains(c), "ticket {t}: {c} twice");
            }
        }
        let prize = if tout == 1 {
            touts += 1;
            all
        } else {
            let f = if x2 == 1 { 2 } else { 1 };
            doubled += usize::from(x2 == 1 && !found.is_empty());
            found.iter().sum::<u64>() * f
        };
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {cells:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
    }
    let table = BTreeMap::from([
        (567, 1),
        (500, 1),
        (100, 2),
        (50, 4),
        (20, 15),
        (10, 50),
        (4, 100),
        (2, 200),
    ]);
    assert_eq!(paid, table);
    assert_eq!(touts, 1);
    // COURONNE*2, COUPE*2 and PIECE*2 at least (a 10 may be a BAGUE doubled too).
    assert!(doubled >= 2 + 8 + 50, "{doubled} doubled wins");
}

#[test]
fn every_ticket_of_key_numbers_with_special_symbols_pays_as_the_rules_say() {
    let rows = block("game_specs/examples/multi_chance.toml");
    assert_eq!(rows.len(), 6_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    // Tickets won with each special symbol.
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    for row in &rows {
        let t = &row["ticket"];
        let winning: Vec<&str> = (1..=3)
            .map(|i| row[&format!("chance_win{i}")].as_str())
            .collect();
        let spots: Vec<(&str, u64)> = (1..=10)
            .map(|i| {
                (
                    row[&format!("chance_sym{i}")].as_str(),
                    euros(&row[&format!("chance_amt{i}")]),
                )
            })
            .collect();
        let mut matched = 0;
        let mut special = 0;
        let mut sum = 0;
        for &(s, a) in &spots {
            match s {
                "SAC" => special += a,
                "5X" => special += 5 * a,
                "TOUT" => {}
                _ if winning.contains(&s) => matched += a,
                _ => {}
            }
            sum += a;
        }
        let count = |x: &str| spots.iter().filter(|&&(s, _)| s == x).count();
        for x in ["SAC", "5X", "TOUT"] {
            assert!(count(x) <= 1, "ticket {t}: {x} twice");
            if count(x) == 1 {
                *by.entry(x).or_default() += 1;
            }
        }
        let prize = if count("TOUT") == 1 {
            // Beside a win-all, nothing else wins: never shown.
            assert_eq!((matched, special), (0, 0), "ticket {t}: TOUT beside a win");
            sum
        } else {
            matched + special
        };
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {spots:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
    }
    let table = BTreeMap::from([
        (1_000, 2),
        (500, 2),
        (100, 5),
        (50, 10),
        (20, 40),
        (10, 100),
        (4, 350),
        (2, 600),
    ]);
    assert_eq!(paid, table);
    // The ways through each special, from the spec: SAC 1+2+5+10+50+150 tickets, 5X
    // 1+2+4+10+20, TOUT 1+1.
    assert_eq!(by, BTreeMap::from([("5X", 37), ("SAC", 218), ("TOUT", 2)]));
}

#[test]
fn every_ticket_of_a_bingo_card_with_multipliers_in_the_free_space_pays_as_the_rules_say() {
    let rows = block("game_specs/examples/bingo_multi.toml");
    assert_eq!(rows.len(), 2_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    // Cards by what the free space shows, winning or not.
    let mut shown: BTreeMap<(bool, String), u32> = BTreeMap::new();
    for row in &rows {
        let t = &row["ticket"];
        let drawn: Vec<&str> = (1..=24)
            .map(|i| row[&format!("bingo_d{i}")].as_str())
            .collect();
        // The 5×5 card row by row, the free centre (its symbol) in the middle.
        let free = row["bingo_free"].as_str();
        let mut card: Vec<&str> = (1..=24)
            .map(|i| row[&format!("bingo_n{i}")].as_str())
            .collect();
        card.insert(12, free);
        let marked = |r: usize, c: usize| (r, c) == (2, 2) || drawn.contains(&card[r * 5 + c]);
        for (i, n) in card.iter().enumerate() {
            assert!(!card[..i].contains(n), "ticket {t}: {n} twice on the card");
        }
        for (i, n) in drawn.iter().enumerate() {
            assert!(!drawn[..i].contains(n), "ticket {t}: {n} drawn twice");
        }
        // Full lines: a row or column pays 2, a diagonal 10.
        let mut lines: Vec<u64> = Vec::new();
        for i in 0..5 {
            if (0..5).all(|j| marked(i, j)) {
                lines.push(2);
            }
            if (0..5).all(|j| marked(j, i)) {
                lines.push(2);
            }
        }
        if (0..5).all(|i| marked(i, i)) {
            lines.push(10);
        }
        if (0..5).all(|i| marked(i, 4 - i)) {
            lines.push(10);
        }
        // The naive reading never differs from the rule: at most one full line.
        assert!(lines.len() <= 1, "ticket {t}: {lines:?}");
        let times = match free {
            "FREE" => 1,
            "2X" => 2,
            "5X" => 5,
            "10X" => 10,
            _ => panic!("ticket {t}: the free space shows {free}"),
        };
        let prize = lines.iter().sum::<u64>() * times;
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {card:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
        *shown.entry((prize > 0, free.to_string())).or_default() += 1;
    }
    let table = BTreeMap::from([(100, 1), (50, 2), (20, 8), (10, 40), (4, 100), (2, 300)]);
    assert_eq!(paid, table);
    let count = |win: bool, s: &str| shown.get(&(win, s.to_string())).copied().unwrap_or(0);
    // Winning cards, from the spec's ways: FREE 20+300, 2X 4+100, 5X 2+20, 10X 1+4.
    let winners = ["FREE", "2X", "5X", "10X"].map(|s| count(true, s));
    assert_eq!(winners, [320, 104, 22, 5]);
    // The 1,549 losing cards show the same law (320:104:22:5 of 451); this block's counts
    // give a chi-square of 5.8, below 16.3 (0.1 %, 3 degrees of freedom).
    let losers = ["FREE", "2X", "5X", "10X"].map(|s| count(false, s));
    assert_eq!(losers, [1_109, 330, 92, 18]);
    let chi: f64 = losers
        .iter()
        .zip(winners)
        .map(|(&o, w)| {
            let e = 1_549.0 * f64::from(w) / 451.0;
            (f64::from(o) - e).powi(2) / e
        })
        .sum();
    assert!(chi < 16.3, "chi-square {chi}");
}

#[test]
fn every_ticket_of_higher_number_games_with_special_symbols_pays_as_the_rules_say() {
    let rows = block("game_specs/examples/plus_fort_bonus.toml");
    assert_eq!(rows.len(), 6_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    // Tickets won with each special symbol.
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    for row in &rows {
        let t = &row["ticket"];
        // Per game: your number (or a special symbol), their number, the GAIN box.
        let games: Vec<(&str, u32, u64)> = (1..=10)
            .map(|g| {
                (
                    row[&format!("pf_g{g}_you1")].as_str(),
                    row[&format!("pf_g{g}_them1")].parse().unwrap(),
                    euros(&row[&format!("pf_g{g}_gain")]),
                )
            })
            .collect();
        let (mut higher, mut special, mut all) = (0, 0, 0);
        for &(you, them, gain) in &games {
            all += gain;
            match you {
                "SAC" => special += gain,
                "5X" => special += 5 * gain,
                "TOUT" => {}
                n => {
                    let n: u32 = n.parse().unwrap();
                    // A tie reads as a win to some players: never printed.
                    assert_ne!(n, them, "ticket {t}: a tie in {games:?}");
                    if n > them {
                        higher += gain;
                    }
                }
            }
        }
        let count = |x: &str| games.iter().filter(|g| g.0 == x).count();
        for x in ["SAC", "5X", "TOUT"] {
            assert!(count(x) <= 1, "ticket {t}: {x} twice");
            if count(x) == 1 {
                *by.entry(x).or_default() += 1;
            }
        }
        let prize = if count("TOUT") == 1 {
            // Beside a win-all, a game won by its numbers would add nothing: never shown.
            assert_eq!((higher, special), (0, 0), "ticket {t}: TOUT beside a win");
            all
        } else {
            higher + special
        };
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {games:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
    }
    let table = BTreeMap::from([
        (1_000, 2),
        (500, 2),
        (100, 5),
        (50, 10),
        (20, 40),
        (10, 100),
        (4, 350),
        (2, 600),
    ]);
    assert_eq!(paid, table);
    // The ways through each special, from the spec: SAC 2+2+20+100 tickets, 5X 1+2+4+30,
    // TOUT 1+1; no losing ticket shows one.
    assert_eq!(by, BTreeMap::from([("5X", 37), ("SAC", 124), ("TOUT", 2)]));
}

/// How many times each symbol shows among `cells`.
fn tally<'a>(cells: &[&'a str]) -> BTreeMap<&'a str, usize> {
    let mut n = BTreeMap::new();
    for &c in cells {
        *n.entry(c).or_default() += 1;
    }
    n
}

#[test]
fn every_ticket_of_match_symbols_games_with_special_symbols_pays_as_the_rules_say() {
    let rows = block("game_specs/examples/lingot_banque.toml");
    assert_eq!(rows.len(), 6_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    // Tickets won with each special symbol.
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    let cells = |row: &BTreeMap<String, String>, s: &str| -> Vec<String> {
        (1..=9).map(|i| row[&format!("{s}_{i}")].clone()).collect()
    };
    for row in &rows {
        let t = &row["ticket"];
        // Jeu 1: three identical symbols win PRIX; LINGOT wins PRIX on its own.
        let or = cells(row, "or");
        let or: Vec<&str> = or.iter().map(String::as_str).collect();
        let n = tally(&or);
        let prix = euros(&row["or_prix"]);
        let threes: Vec<&str> = n.iter().filter(|e| *e.1 == 3).map(|e| *e.0).collect();
        // Never a symbol more than three times, nor two symbols three times.
        assert!(n.values().all(|&k| k <= 3), "ticket {t}: {or:?}");
        assert!(threes.len() <= 1, "ticket {t}: {or:?}");
        let lingot = n.get("LINGOT").copied().unwrap_or(0);
        assert!(lingot <= 1, "ticket {t}: LINGOT twice in {or:?}");
        let jeu1 = if lingot == 1 {
            // PRIX is paid once: no three of a kind beside the gold bar.
            assert!(
                threes.is_empty(),
                "ticket {t}: LINGOT beside a match {or:?}"
            );
            *by.entry("LINGOT").or_default() += 1;
            prix
        } else if threes.is_empty() {
            0
        } else {
            prix
        };
        // Jeux 2 and 3: three CERISE win GAIN 1, three CITRON or ORANGE win GAIN 2;
        // BANQUE wins GAIN 1 and GAIN 2, added up.
        let bq = cells(row, "bq");
        let bq: Vec<&str> = bq.iter().map(String::as_str).collect();
        let n = tally(&bq);
        let (gain1, gain2) = (euros(&row["bq_gain1"]), euros(&row["bq_gain2"]));
        let count = |s: &str| n.get(s).copied().unwrap_or(0);
        assert!(n.values().all(|&k| k <= 3), "ticket {t}: {bq:?}");
        for (s, &k) in &n {
            // A symbol three times that wins nothing reads as a win: never.
            if k == 3 {
                assert!(
                    ["CERISE", "CITRON", "ORANGE"].contains(s),
                    "ticket {t}: {bq:?}"
                );
            }
        }
        assert!(
            count("CITRON") < 3 || count("ORANGE") < 3,
            "ticket {t}: {bq:?}"
        );
        let jeu2 = if count("CERISE") == 3 { gain1 } else { 0 };
        let jeu3 = if count("CITRON") == 3 || count("ORANGE") == 3 {
            gain2
        } else {
            0
        };
        assert!(count("BANQUE") <= 1, "ticket {t}: BANQUE twice in {bq:?}");
        let banque = if count("BANQUE") == 1 {
            // Beside a bank, a match would add nothing or be paid twice: never shown.
            assert_eq!(
                (jeu2, jeu3),
                (0, 0),
                "ticket {t}: BANQUE beside a win {bq:?}"
            );
            *by.entry("BANQUE").or_default() += 1;
            gain1 + gain2
        } else {
            jeu2 + jeu3
        };
        let prize = jeu1 + banque;
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {or:?} {bq:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
    }
    let table = BTreeMap::from([
        (1_000, 1),
        (500, 2),
        (200, 3),
        (100, 6),
        (50, 12),
        (20, 60),
        (10, 150),
        (4, 300),
        (2, 400),
    ]);
    assert_eq!(paid, table);
    // The ways through each special, from the spec: LINGOT 1+1+2+4+15+35+50 tickets,
    // BANQUE 1+2+2+15+35; no losing ticket shows one.
    assert_eq!(by, BTreeMap::from([("BANQUE", 55), ("LINGOT", 108)]));
}

/// game_specs/examples/double_montant.toml, match amounts with a 2X and a money bag (SAC) in
/// place of an amount, judged from the rule text alone (game_specs/README.md,
/// `match_amounts`): three identical amounts win that amount, doubled beside 2X; SAC wins the
/// five other amounts, added up; every cell prints its caption.
#[test]
fn every_ticket_of_match_amounts_with_special_symbols_pays_as_the_rules_say() {
    let captions = BTreeMap::from([
        ("1", "UN EURO"),
        ("2", "DEUX EUROS"),
        ("5", "CINQ EUROS"),
        ("10", "DIX EUROS"),
        ("20", "VINGT EUROS"),
        ("50", "CINQUANTE EUROS"),
        ("100", "CENT EUROS"),
        ("500", "CINQ CENTS EUROS"),
        ("2X", "DOUBLE"),
        ("SAC", "GAGNE TOUT"),
    ]);
    let rows = block("game_specs/examples/double_montant.toml");
    assert_eq!(rows.len(), 6_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    // Winning tickets by what won them, and losing tickets showing a 2X (the decoy).
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    let mut decoys = 0;
    for row in &rows {
        let t = &row["ticket"];
        let cells: Vec<&str> = (1..=6)
            .map(|c| {
                let v = row[&format!("dm_amt{c}")].as_str();
                assert_eq!(
                    captions.get(v).copied(),
                    Some(row[&format!("dm_cap{c}")].as_str()),
                    "ticket {t}: cell {c} shows {v} with another caption"
                );
                v
            })
            .collect();
        let (x2, sac) = (
            cells.iter().filter(|&&c| c == "2X").count(),
            cells.iter().filter(|&&c| c == "SAC").count(),
        );
        // The naive reading never differs from the rule: one special symbol at most, no
        // amount more than three times, never two amounts three times.
        assert!(x2 + sac <= 1, "ticket {t}: {cells:?}");
        let amounts: Vec<u64> = cells.iter().filter_map(|c| c.parse().ok()).collect();
        let shown = |a: u64| amounts.iter().filter(|&&b| b == a).count();
        assert!(
            amounts.iter().all(|&a| shown(a) <= 3),
            "ticket {t}: {cells:?}"
        );
        let mut matched: Vec<u64> = amounts.iter().copied().filter(|&a| shown(a) == 3).collect();
        matched.dedup();
        assert!(matched.len() <= 1, "ticket {t}: two matches in {cells:?}");
        let prize = if sac == 1 {
            // Beside a win-all, a match would add nothing: never shown.
            assert!(
                matched.is_empty(),
                "ticket {t}: SAC beside a match in {cells:?}"
            );
            *by.entry("SAC").or_default() += 1;
            amounts.iter().sum()
        } else if let Some(&a) = matched.first() {
            if x2 == 1 {
                *by.entry("2X").or_default() += 1;
                2 * a
            } else {
                a
            }
        } else {
            decoys += x2;
            0
        };
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {cells:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
    }
    let table = BTreeMap::from([
        (1_000, 1),
        (500, 1),
        (200, 2),
        (100, 6),
        (50, 10),
        (20, 40),
        (10, 80),
        (5, 150),
        (4, 200),
        (2, 300),
    ]);
    assert_eq!(paid, table);
    // The ways through each special, from the spec: 2X 1+1+2+10+20+200+50 tickets, SAC
    // 1+3+5.
    assert_eq!(by, BTreeMap::from([("2X", 284), ("SAC", 9)]));
    // This block's losing tickets showing a lone 2X: decoy_multiplier = 0.05 of 5 210 is
    // 260.5, with a standard deviation of 15.7.
    assert_eq!(decoys, 265);
}

/// The eight lines of a 3×3 grid (cells 0..9, row by row).
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The symbol of the line of three of 3×3 `grid` of ticket `t`, if it shows one, and the
/// cell of symbol `special`, if it shows. Panics on what the naive reading would misread:
/// two lines, `special` twice, or `special` in a line whose two other cells show one
/// symbol (a wild completing it?).
fn line_and_special<'g>(
    t: &str,
    grid: &[&'g str],
    special: &str,
) -> (Option<&'g str>, Option<usize>) {
    let full: Vec<&str> = LINES
        .iter()
        .filter(|l| grid[l[0]] == grid[l[1]] && grid[l[1]] == grid[l[2]])
        .map(|l| grid[l[0]])
        .collect();
    assert!(full.len() <= 1, "ticket {t}: two lines in {grid:?}");
    let at: Vec<usize> = (0..9).filter(|&c| grid[c] == special).collect();
    assert!(at.len() <= 1, "ticket {t}: {special} twice in {grid:?}");
    for &c in &at {
        for l in LINES.iter().filter(|l| l.contains(&c)) {
            let o: Vec<&str> = l.iter().filter(|&&x| x != c).map(|&x| grid[x]).collect();
            assert_ne!(o[0], o[1], "ticket {t}: {special} as a wild in {grid:?}");
        }
    }
    (full.first().copied(), at.first().copied())
}

/// What the line of `symbol` (if any) of `grid` of ticket `t` wins: `line(symbol)`. Panics
/// on a line of a symbol that wins nothing (`None`).
fn line_win(
    t: &str,
    grid: &[&str],
    symbol: Option<&str>,
    line: impl Fn(&str) -> Option<u64>,
) -> u64 {
    symbol.map_or(0, |s| {
        line(s).unwrap_or_else(|| panic!("ticket {t}: a line of {s} in {grid:?}"))
    })
}

/// What a 3×3 tic-tac-toe grid with one special symbol pays by the rule text: `line` is the
/// amount a line of three of a symbol wins (`None`: the symbol wins nothing), `special`
/// what the special symbol wins. Panics on a grid the naive reading would misread
/// ([`line_and_special`]), and on the special beside a line.
fn tic_tac_toe(
    t: &str,
    grid: &[&str],
    special: (&str, u64),
    line: impl Fn(&str) -> Option<u64>,
) -> (u64, bool) {
    let (full, star) = line_and_special(t, grid, special.0);
    if star.is_some() {
        assert!(
            full.is_none(),
            "ticket {t}: {} beside a line {grid:?}",
            special.0
        );
        return (special.1, true);
    }
    (line_win(t, grid, full, line), false)
}

#[test]
fn every_ticket_of_tic_tac_toe_grids_with_special_symbols_pays_as_the_rules_say() {
    let rows = block("game_specs/examples/etoile_tout.toml");
    assert_eq!(rows.len(), 2_000);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    // The legend of Grille 2; TOUT wins it all, added up.
    let legend = BTreeMap::from([("PIECE", 2), ("BOURSE", 5), ("COFFRE", 20)]);
    let tout: u64 = legend.values().sum();
    assert_eq!(tout, 27);
    for row in &rows {
        let t = &row["ticket"];
        // Grille 1: three TREFLE in a line win GAIN; ETOILE wins GAIN on its own.
        let g = grid_of(row, "grille");
        let g: Vec<&str> = g.iter().map(String::as_str).collect();
        let gain = euros(&row["grille_gain"]);
        let (one, etoile) =
            tic_tac_toe(t, &g, ("ETOILE", gain), |s| (s == "TREFLE").then_some(gain));
        // Grille 2: three of a legend symbol win its amount; TOUT wins every amount.
        let b = grid_of(row, "bonus");
        let b: Vec<&str> = b.iter().map(String::as_str).collect();
        let (two, all) = tic_tac_toe(t, &b, ("TOUT", tout), |s| legend.get(s).copied());
        if etoile {
            *by.entry("ETOILE").or_default() += 1;
        }
        if all {
            *by.entry("TOUT").or_default() += 1;
        }
        let prize = one + two;
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {g:?} {b:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
    }
    let table = BTreeMap::from([
        (50, 2),
        (27, 2),
        (20, 4),
        (10, 15),
        (7, 10),
        (5, 50),
        (2, 250),
        (1, 200),
    ]);
    assert_eq!(paid, table);
    // The ways through each special, from the spec: ETOILE 1+5+10+50 tickets, TOUT 2; no
    // losing ticket shows one.
    assert_eq!(by, BTreeMap::from([("ETOILE", 66), ("TOUT", 2)]));
}

/// What a 3×3 tic-tac-toe grid with a spot multiplier pays by the rule text: a line of three
/// of a symbol wins `line(symbol)` (`None`: the symbol wins nothing), times `mult.1` when
/// the grid shows `mult.0` anywhere. Returns the win and whether the grid shows the
/// multiplier. Panics on a grid the naive reading would misread ([`line_and_special`]).
fn multiplied_tic_tac_toe(
    t: &str,
    grid: &[&str],
    mult: (&str, u64),
    line: impl Fn(&str) -> Option<u64>,
) -> (u64, bool) {
    let (full, at) = line_and_special(t, grid, mult.0);
    let win = line_win(t, grid, full, line);
    match at {
        Some(_) => (win * mult.1, true),
        None => (win, false),
    }
}

/// The nine cells of 3×3 grid `s` of a ticket row, row by row.
fn grid_of(row: &BTreeMap<String, String>, s: &str) -> Vec<String> {
    (1..=3)
        .flat_map(|r| (1..=3).map(move |c| (r, c)))
        .map(|(r, c)| row[&format!("{s}_r{r}c{c}")].clone())
        .collect()
}

/// game_specs/examples/morpion_double.toml judged from the rule text alone
/// (game_specs/README.md, `lines`): three TREFLE in a line win the GAIN box, three of a
/// legend symbol its amount; a 2X (Grille 1) or a 5X (Grille 2) anywhere on a winning grid
/// multiplies its win; on a grid that does not win it wins nothing.
#[test]
fn every_ticket_of_tic_tac_toe_grids_with_multipliers_pays_as_the_rules_say() {
    let rows = block("game_specs/examples/morpion_double.toml");
    assert_eq!(rows.len(), 2_000);
    let legend = BTreeMap::from([("PIECE", 2), ("BOURSE", 5), ("COFFRE", 20)]);
    let mut paid: BTreeMap<u64, u32> = BTreeMap::new();
    // Grids won through each multiplier, and losing grids showing one (decoys).
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    let mut decoys: BTreeMap<&str, u32> = BTreeMap::new();
    for row in &rows {
        let t = &row["ticket"];
        let g = grid_of(row, "grille");
        let g: Vec<&str> = g.iter().map(String::as_str).collect();
        let gain = euros(&row["grille_gain"]);
        let (one, x2) =
            multiplied_tic_tac_toe(t, &g, ("2X", 2), |s| (s == "TREFLE").then_some(gain));
        let b = grid_of(row, "bonus");
        let b: Vec<&str> = b.iter().map(String::as_str).collect();
        let (two, x5) = multiplied_tic_tac_toe(t, &b, ("5X", 5), |s| legend.get(s).copied());
        for (shown, won, name) in [(x2, one > 0, "2X"), (x5, two > 0, "5X")] {
            match (shown, won) {
                (true, true) => *by.entry(name).or_default() += 1,
                (true, false) => *decoys.entry(name).or_default() += 1,
                _ => {}
            }
        }
        let prize = one + two;
        assert_eq!(prize.to_string(), row["prize"], "ticket {t}: {g:?} {b:?}");
        if prize > 0 {
            *paid.entry(prize).or_default() += 1;
        }
    }
    let table = BTreeMap::from([
        (100, 1),
        (50, 2),
        (25, 3),
        (20, 10),
        (12, 10),
        (10, 30),
        (5, 60),
        (4, 100),
        (2, 250),
        (1, 200),
    ]);
    assert_eq!(paid, table);
    // The ways through each multiplier, from the spec: 2X 4+10+10+100+50 grids, 5X 1+3+5.
    assert_eq!(by, BTreeMap::from([("2X", 174), ("5X", 9)]));
    // Losing grids showing a 2X that doubles nothing: decoy_multiplier = 0.05 of the 1 479
    // tickets whose Grille 1 loses is 74.0, with a standard deviation of 8.4. Grille 2
    // gives its 5X no decoy share: no losing grid shows one.
    assert_eq!(decoys, BTreeMap::from([("2X", 74)]));
}

/// A forger adds a 2X to a grid that won 10 by its line of TREFLE, in the print file and
/// the CSV alike: by the rules the face now pays 20, so `verify` finds the printed prize
/// and the block's counts wrong.
#[test]
fn verify_finds_a_multiplier_forged_beside_a_line() {
    let f = common::Forgery::of("game_specs/examples/morpion_double.toml");
    let (row, cell) = f
        .rows()
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            if r["way"] != "10" {
                return None;
            }
            let g = grid_of(r, "grille");
            let line = LINES
                .iter()
                .find(|l| l.iter().all(|&c| g[c] == "TREFLE"))
                .expect("the winning line");
            let cell = (0..9).find(|c| !line.contains(c)).unwrap();
            Some((i + 1, cell))
        })
        .expect("a ticket won by a line of 10");
    // Symbol codes: the six symbols of Grille 1, then 2X.
    let column = format!("grille_r{}c{}", cell / 3 + 1, cell % 3 + 1);
    common::forge_cell(&f.bad, row, &column, 6, "2X");
    let text = f.verified();
    assert_eq!(
        common::status_of(&text, "csv_matches_print"),
        "FAIL",
        "{text}"
    );
    assert_eq!(common::status_of(&text, "counts"), "FAIL", "{text}");
}

/// A forger writes a 2X into the third cell of a losing grid's line of two TREFLE, in the
/// print file and the CSV alike: a player reads the 2X as a wild completing the line, so
/// `verify` finds the face ambiguous.
#[test]
fn verify_finds_a_multiplier_forged_as_a_wild() {
    let f = common::Forgery::of("game_specs/examples/morpion_double.toml");
    let (row, cell) = f
        .rows()
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            let g = grid_of(r, "grille");
            if r["prize"] != "0" || g.iter().any(|s| s == "2X") {
                return None;
            }
            LINES.iter().find_map(|l| {
                let trefles = l.iter().filter(|&&c| g[c] == "TREFLE").count();
                let gap = l.iter().find(|&&c| g[c] != "TREFLE")?;
                (trefles == 2).then_some((i + 1, *gap))
            })
        })
        .expect("a losing ticket with two TREFLE on a line");
    let column = format!("grille_r{}c{}", cell / 3 + 1, cell % 3 + 1);
    common::forge_cell(&f.bad, row, &column, 6, "2X");
    let text = f.verified();
    assert_eq!(common::status_of(&text, "ambiguity"), "FAIL", "{text}");
    assert!(
        text.contains("a special symbol in a line one symbol short (lines)"),
        "{text}"
    );
}
