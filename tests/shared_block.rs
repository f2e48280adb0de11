//! A block of a game with a shared draw judged ticket by ticket by an evaluator written here
//! from the rule text alone (game_specs/README.md, "Shared elements" and `match_count`), not
//! from the styles' code: game_specs/examples/bingo_duo.toml, two 5×5 bingo cards reading one
//! caller's draw of 24 numbers (`tirage`). Card 1, of 25 numbers (no free cell: a player
//! would count one as a match), pays by its number of matches (9: 2, 10: 5, 11: 20, 12: 100)
//! and shows no full line; card 2, of 24 numbers around a free centre, pays a full row or
//! column 5 and a full diagonal 50, one line at most. Every ticket's printed prize must be
//! the sum the rules pay, with no face a player could read two ways.

mod common;

use common::{generate, repo};
use std::collections::{BTreeMap, HashSet};

/// The lines of a 5×5 card, each a list of card cells (`n1`..`n25`, row by row); with a
/// free centre (`n1`..`n24`, the centre left out), `None` for the centre, which counts as
/// matched. Rows, then columns, then the two diagonals.
fn lines(free_centre: bool) -> Vec<Vec<Option<usize>>> {
    let cell = |r: usize, c: usize| {
        let p = r * 5 + c;
        match p {
            _ if !free_centre => Some(p),
            12 => None,
            p if p < 12 => Some(p),
            p => Some(p - 1),
        }
    };
    let mut v = Vec::new();
    for r in 0..5 {
        v.push((0..5).map(|c| cell(r, c)).collect());
    }
    for c in 0..5 {
        v.push((0..5).map(|r| cell(r, c)).collect());
    }
    v.push((0..5).map(|i| cell(i, i)).collect());
    v.push((0..5).map(|i| cell(i, 4 - i)).collect());
    v
}

/// The prize of one ticket (a CSV row by column name) in whole euros, what each card shows
/// (card 1's count of matches, card 2's full lines) and what a player could read otherwise.
fn judge(row: &BTreeMap<&str, &str>) -> (u64, usize, usize, Vec<String>) {
    let mut problems = Vec::new();
    let drawn: Vec<&str> = (1..=24)
        .map(|i| row[format!("tirage_{i}").as_str()])
        .collect();
    if drawn.iter().collect::<HashSet<_>>().len() != 24 {
        problems.push("a number drawn twice".to_string());
    }
    // Card 1 of 25 numbers, card 2 of 24 around its free centre.
    let card = |c: usize| -> Vec<&str> {
        (1..=26 - c)
            .map(|i| row[format!("carte{c}_n{i}").as_str()])
            .collect()
    };
    let matched =
        |numbers: &[&str]| -> Vec<bool> { numbers.iter().map(|n| drawn.contains(n)).collect() };
    let full = |m: &[bool]| -> Vec<usize> {
        lines(m.len() == 24)
            .iter()
            .enumerate()
            .filter(|(_, l)| l.iter().all(|c| c.is_none_or(|c| m[c])))
            .map(|(i, _)| i)
            .collect()
    };
    let mut prize = 0;
    // Card 1: by the number of matches; "9 matches" read as "9 or more"; no full line.
    let one = card(1);
    if one.iter().collect::<HashSet<_>>().len() != 25 {
        problems.push("card 1: a number twice".into());
    }
    let m1 = matched(&one);
    let count = m1.iter().filter(|&&m| m).count();
    if !full(&m1).is_empty() {
        problems.push(format!(
            "card 1: a full line, read as a bingo ({count} matches)"
        ));
    }
    prize += match count {
        0..=8 => 0,
        9 => 2,
        10 => 5,
        11 => 20,
        12 => 100,
        _ => {
            problems.push(format!("card 1: {count} matches, read as 12 or more"));
            100
        }
    };
    // Card 2: a full row or column 5, a full diagonal 50; one line at most.
    let two = card(2);
    if two.iter().collect::<HashSet<_>>().len() != 24 {
        problems.push("card 2: a number twice".into());
    }
    let f2 = full(&matched(&two));
    if f2.len() > 1 {
        problems.push(format!("card 2: {} full lines", f2.len()));
    }
    if let Some(&l) = f2.first() {
        prize += if l >= 10 { 50 } else { 5 };
    }
    (prize, count, f2.len(), problems)
}

#[test]
fn every_ticket_of_the_shared_draw_example_pays_what_the_rules_say() {
    let spec = "game_specs/examples/bingo_duo.toml";
    let csv = common::clean_block_csv(spec);
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    // The draw is printed once: no card has drawn-number columns of its own.
    assert!(header.contains(&"tirage_24"));
    assert!(!header.iter().any(|h| h.contains("_d1")), "{header:?}");
    let mut counts = BTreeMap::new();
    let (mut tickets, mut lines_shown, mut winners) = (0, 0, 0);
    for line in rows {
        let row: BTreeMap<&str, &str> = header.iter().copied().zip(line.split(',')).collect();
        let (prize, count, full, problems) = judge(&row);
        assert!(
            problems.is_empty(),
            "ticket {}: {problems:?}",
            row["ticket"]
        );
        assert_eq!(prize.to_string(), row["prize"], "ticket {}", row["ticket"]);
        *counts.entry(count).or_insert(0) += 1;
        lines_shown += full;
        winners += usize::from(prize > 0);
        tickets += 1;
    }
    assert_eq!(tickets, 2000);
    assert_eq!(winners, 441);
    // Card 1 wins by 9 to 12 matches on exactly the ways that say so: 300 + 20 (the two
    // cards together), 50, 15, 2; card 2 shows a full line on its 54 winning ways + 20.
    assert_eq!(counts.get(&9), Some(&320));
    assert_eq!(counts.get(&10), Some(&50));
    assert_eq!(counts.get(&11), Some(&15));
    assert_eq!(counts.get(&12), Some(&2));
    assert_eq!(lines_shown, 4 + 50 + 20);
    assert!(counts.keys().all(|&c| c <= 12), "{counts:?}");
}

/// A ticket's row as (column, value) pairs.
type Row = Vec<(String, String)>;

/// The evaluator above is no rubber stamp: it finds a full line on the card paid by count,
/// two lines on the card paid by line, and a number drawn twice.
#[test]
fn the_evaluator_finds_what_the_rules_forbid() {
    let numbers = |from: usize, n: usize| -> Vec<String> {
        (from..from + n).map(|n| format!("{n:02}")).collect()
    };
    let (d, c1, c2) = (numbers(1, 24), numbers(30, 25), numbers(60, 24));
    let mut names = vec![("carte1_n25".to_string(), c1[24].clone())];
    for i in 1..=24 {
        names.push((format!("tirage_{i}"), d[i - 1].clone()));
        names.push((format!("carte1_n{i}"), c1[i - 1].clone()));
        names.push((format!("carte2_n{i}"), c2[i - 1].clone()));
    }
    let judge_with = |edit: &dyn Fn(&mut Row)| {
        let mut v = names.clone();
        edit(&mut v);
        let row: BTreeMap<&str, &str> = v.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
        judge(&row)
    };
    let set = |v: &mut Row, k: &str, x: &str| {
        v.iter_mut().find(|(n, _)| n == k).unwrap().1 = x.to_string();
    };
    assert_eq!(judge_with(&|_| {}), (0, 0, 0, vec![]));
    // Card 1's first row drawn: a full line on a card paid by count (5 matches, no prize).
    let (_, count, _, p) = judge_with(&|v| {
        for i in 1..=5 {
            set(v, &format!("tirage_{i}"), &format!("{}", 29 + i));
        }
    });
    assert_eq!(count, 5);
    assert_eq!(p, ["card 1: a full line, read as a bingo (5 matches)"]);
    // Card 2's first row and first column drawn: two lines.
    let (prize, _, full, p) = judge_with(&|v| {
        for (i, n) in [1, 2, 3, 4, 5, 6, 11, 15, 20].iter().enumerate() {
            set(v, &format!("tirage_{}", i + 1), &format!("{}", 59 + n));
        }
    });
    assert_eq!((prize, full), (5, 2));
    assert_eq!(p, ["card 2: 2 full lines"]);
    let (_, _, _, p) = judge_with(&|v| set(v, "tirage_2", "01"));
    assert_eq!(p, ["a number drawn twice"]);
}

/// The attack a shared draw invites: on a losing ticket whose card 1 is one match short
/// (8 matches), one drawn number is edited into a number of card 1, in the print file and
/// the CSV alike, to make a winner of a ticket sold as a loser. `verify` must find it.
#[test]
fn verify_finds_a_shared_draw_edited_into_a_win() {
    let f = common::Forgery::of("game_specs/examples/bingo_duo.toml");
    let bad = &f.bad;
    let csv = std::fs::read_to_string(bad.join("tickets.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|&h| h == name).unwrap();
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let mut bin = std::fs::read(bad.join("tickets.bin")).unwrap();
    let u16_at = |o: usize| u16::from_le_bytes([bin[o], bin[o + 1]]) as usize;
    let (record, k) = (u16_at(10), u16_at(28));
    let start = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as usize;
    let face_at = |row: usize| start + (row - 1) * record + record - k;
    // The drawn number to replace (one no card shows) and card 1's number to put there.
    let (row, at, number) = (1..lines.len())
        .find_map(|row| {
            let f: Vec<&str> = lines[row].split(',').collect();
            let r: BTreeMap<&str, &str> = head.iter().copied().zip(f.iter().copied()).collect();
            let (prize, count, _, _) = judge(&r);
            let drawn: Vec<&str> = (1..=24).map(|i| f[col(&format!("tirage_{i}"))]).collect();
            // Card 1's 25 numbers, then card 2's 24.
            let cards: Vec<&str> = (1..=2)
                .flat_map(|c| (1..=26 - c).map(move |i| format!("carte{c}_n{i}")))
                .map(|n| f[col(&n)])
                .collect();
            let at = (0..24).find(|&i| !cards.contains(&drawn[i]))?;
            let number = cards[..25]
                .iter()
                .find(|n| !drawn.contains(n) && !cards[25..].contains(n))?;
            (prize == 0 && count == 8).then(|| (row, at, number.to_string()))
        })
        .expect("a losing ticket whose card 1 shows 8 matches");
    let code: u8 = number.parse::<u8>().unwrap() - 1;
    bin[face_at(row) + at] = code;
    std::fs::write(bad.join("tickets.bin"), bin).unwrap();
    let mut fields: Vec<String> = lines[row].split(',').map(str::to_string).collect();
    fields[col(&format!("tirage_{}", at + 1))] = number;
    lines[row] = fields.join(",");
    std::fs::write(bad.join("tickets.csv"), lines.join("\n") + "\n").unwrap();
    let text = f.verified();
    let status = |check: &str| common::status_of(&text, check);
    // The edited face, judged by the rules, now pays 2: neither its printed prize nor the
    // block's counts agree.
    assert_eq!(status("csv_matches_print"), "FAIL", "{text}");
    assert_eq!(status("counts"), "FAIL", "{text}");
}

/// What a spec with shared elements cannot say is refused with the file, the field and
/// the line: a surface reading an element the spec does not declare, a style that cannot
/// read one, an element no surface reads, a draw of more numbers than it has, an unknown
/// kind, and the drawn numbers given again on a card that reads them.
#[test]
fn shared_elements_that_cannot_be_are_refused_by_field_and_line() {
    let text = std::fs::read_to_string(repo("game_specs/examples/bingo_duo.toml")).unwrap();
    let refused = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        let t = text.replacen(from, to, 1);
        let e = tirage::spec::GameSpec::parse(std::path::Path::new("duo.toml"), t)
            .err()
            .unwrap_or_else(|| panic!("{to}: accepted"));
        e.to_string()
    };
    let e = refused("reads = \"tirage\"", "reads = \"caller\"");
    assert!(e.starts_with("duo.toml:"), "{e}");
    assert!(
        e.contains("surfaces[0].reads")
            && e.contains("no [[shared]] element \"caller\"; expected one of: tirage"),
        "{e}"
    );
    let e = refused(
        "style = \"match_count\"\nid = \"carte1\"\nreads = \"tirage\"",
        "style = \"reveal\"\nid = \"carte1\"\nreads = \"tirage\"\nboxes = 1\namounts = [2]\n\
         [captions]\n\"0\" = \"ZERO\"\n\"2\" = \"DEUX\"\n\
         [[surfaces]]\nstyle = \"match_count\"\nid = \"carte0\"",
    );
    assert!(
        e.contains("surfaces[0].reads")
            && e.contains("the reveal style cannot read a shared element"),
        "{e}"
    );
    let e = refused(
        "[[surfaces]]",
        "[[shared]]\nid = \"bonus\"\nkind = \"draw\"\ncount = 1\nsymbols = [\"A\", \"B\"]\n\n\
         [[surfaces]]",
    );
    assert!(
        e.contains(
            "shared: shared \"bonus\" is read by no surface (give a surface `reads = \"bonus\"`)"
        ),
        "{e}"
    );
    let e = refused("count = 24", "count = 76");
    assert!(
        e.contains("shared[0].count")
            && e.contains("a draw shows 1 to 75 different symbols (its `symbols`), got 76"),
        "{e}"
    );
    assert!(e.contains(":31:") || e.contains("line 31"), "{e}");
    let e = refused("kind = \"draw\"", "kind = \"dealer\"");
    assert!(
        e.contains("shared[0].kind") && e.contains("unknown kind \"dealer\""),
        "{e}"
    );
    let e = refused(
        "reads = \"tirage\"\nnumbers = 25",
        "reads = \"tirage\"\nnumbers = 25\ndrawn = 24",
    );
    assert!(
        e.contains("surfaces[0].drawn") && e.contains("the card reads the shared draw \"tirage\""),
        "{e}"
    );
}

/// The shared draw is drawn first, whatever the ticket's way: from one stream, every way
/// of the example shows the same draw, so the draw alone tells nothing of the prize; and
/// the composed face prints it once, in a panel of its own.
#[test]
fn the_shared_draw_is_the_same_whatever_the_way() {
    use rand_core::SeedableRng;
    let spec = tirage::spec::GameSpec::load(&repo("game_specs/examples/bingo_duo.toml")).unwrap();
    let layout = spec.game.layout();
    // The draw's 24 columns, card 1's 25, card 2's 24.
    assert_eq!(layout.columns.len(), 24 + 25 + 24);
    assert_eq!(layout.columns[0].name, "tirage_1");
    assert_eq!(layout.panels[0].id, "tirage");
    assert_eq!(layout.panels[0].rows.concat(), (0..24).collect::<Vec<_>>());
    let ids: Vec<&str> = layout.panels.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["tirage", "carte1", "carte2"]);
    for seed in 0..50 {
        let draws: HashSet<Vec<u8>> = spec
            .ways
            .iter()
            .map(|way| {
                let face = spec
                    .game
                    .synthesize(way, &mut tirage::styles::FaceRng::seed_from_u64(seed));
                face.codes[..24].to_vec()
            })
            .collect();
        assert_eq!(draws.len(), 1, "seed {seed}");
    }
}

/// One ticket of the bonus-numbers example (game_specs/examples/numero_bonus.toml)
/// judged from its rule text: two grids of 6 numbers over amounts, each with 2 winning
/// numbers of its own, and 2 bonus numbers printed once that win on both grids; a grid's
/// number among its winning numbers or the bonus numbers wins the amount under it, and
/// everything adds up. Returns the prize in whole euros, the winning spots found by a bonus
/// number and by a grid's own number, and what a player could read otherwise: a number
/// twice on a grid, or twice among a grid's winning and the bonus numbers, or a grid's
/// number among the other grid's own winning numbers (read naively, "a number among the
/// winning numbers anywhere wins").
fn judge_bonus(row: &BTreeMap<&str, &str>) -> (u64, usize, usize, Vec<String>) {
    let bonus = [row["bonus_1"], row["bonus_2"]];
    let own = |g: usize| -> [&str; 2] {
        [
            row[format!("grille{g}_win1").as_str()],
            row[format!("grille{g}_win2").as_str()],
        ]
    };
    let (mut prize, mut by_bonus, mut by_own, mut problems) = (0, 0, 0, Vec::new());
    for g in 1..=2 {
        let winning: HashSet<&str> = own(g).iter().chain(&bonus).copied().collect();
        if winning.len() != 4 {
            problems.push(format!("grid {g}: a winning number twice"));
        }
        let spots: Vec<&str> = (1..=6)
            .map(|i| row[format!("grille{g}_sym{i}").as_str()])
            .collect();
        if spots.iter().collect::<HashSet<_>>().len() != 6 {
            problems.push(format!("grid {g}: a number on two spots"));
        }
        let other = own(3 - g);
        for (i, s) in spots.iter().enumerate() {
            if other.contains(s) {
                problems.push(format!(
                    "grid {g}: {s} is a winning number of the other grid"
                ));
            }
            if winning.contains(s) {
                prize += row[format!("grille{g}_amt{}", i + 1).as_str()]
                    .parse::<u64>()
                    .unwrap();
                by_bonus += usize::from(bonus.contains(s));
                by_own += usize::from(own(g).contains(s));
            }
        }
    }
    (prize, by_bonus, by_own, problems)
}

/// Every ticket of the bonus-numbers example pays what [`judge_bonus`] says, and none
/// shows what a player could read otherwise (a grid's number among the other grid's own
/// winning numbers included).
#[test]
fn every_ticket_of_the_bonus_numbers_example_pays_what_the_rules_say() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("block");
    generate(&repo("game_specs/examples/numero_bonus.toml"), &out, 2);
    assert_eq!(common::verify_code(&out), 0);
    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    let mut rows = csv.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    let (mut tickets, mut winners, mut by_bonus, mut by_own) = (0, 0, 0, 0);
    for line in rows {
        let row: BTreeMap<&str, &str> = header.iter().copied().zip(line.split(',')).collect();
        let (prize, b, o, problems) = judge_bonus(&row);
        assert!(
            problems.is_empty(),
            "ticket {}: {problems:?}",
            row["ticket"]
        );
        assert_eq!(prize.to_string(), row["prize"], "ticket {}", row["ticket"]);
        (by_bonus, by_own) = (by_bonus + b, by_own + o);
        winners += usize::from(prize > 0);
        tickets += 1;
    }
    assert_eq!((tickets, winners), (2000, 454));
    // 464 winning spots (454 lots, 10 of them on both grids), each drawn among the 4
    // winning numbers of its grid (2 bonus, 2 own): for the fixed seed, about half by a
    // bonus number.
    assert_eq!(by_bonus + by_own, 464);
    assert_eq!((by_bonus, by_own), (214, 250));
}

/// The judge above is no rubber stamp: it finds a number of grid 2 among grid 1's own
/// winning numbers, a number twice on a grid, and a winning number twice.
#[test]
fn the_bonus_judge_finds_what_the_rules_forbid() {
    let mut cells: Vec<(String, String)> = vec![
        ("bonus_1".into(), "01".into()),
        ("bonus_2".into(), "02".into()),
    ];
    for g in 1..=2usize {
        for i in 1..=2 {
            cells.push((
                format!("grille{g}_win{i}"),
                format!("{:02}", 2 + 2 * g + i - 2),
            ));
        }
        for i in 1..=6 {
            cells.push((format!("grille{g}_sym{i}"), format!("{:02}", 10 * g + i)));
            cells.push((format!("grille{g}_amt{i}"), "5".into()));
        }
    }
    let judge_with = |edits: &[(&str, &str)]| {
        let mut v = cells.clone();
        for (k, x) in edits {
            v.iter_mut().find(|(n, _)| n == k).unwrap().1 = x.to_string();
        }
        let row: BTreeMap<&str, &str> = v.iter().map(|(k, x)| (k.as_str(), x.as_str())).collect();
        judge_bonus(&row)
    };
    assert_eq!(judge_with(&[]), (0, 0, 0, vec![]));
    // Grid 1's own winning numbers are 03 and 04, grid 2's 05 and 06.
    assert_eq!(
        judge_with(&[("grille2_sym1", "01"), ("grille1_sym2", "04")]),
        (10, 1, 1, vec![])
    );
    assert_eq!(
        judge_with(&[("grille2_sym3", "03")]),
        (
            0,
            0,
            0,
            vec!["grid 2: 03 is a winning number of the other grid".to_string()]
        )
    );
    assert_eq!(
        judge_with(&[("grille1_sym1", "12")]).3,
        ["grid 1: a number on two spots"]
    );
    assert_eq!(
        judge_with(&[("grille1_win2", "01")]).3,
        ["grid 1: a winning number twice"]
    );
}

/// The cross reading bonus numbers invite: on a losing ticket, a spot of grid 2 is edited
/// into one of grid 1's own winning numbers, in the print file and the CSV alike. By the
/// rule it still wins nothing (the prize and the counts agree), but a player reading
/// "a number among the winning numbers anywhere wins" would claim it: `verify` must find
/// the face ambiguous.
#[test]
fn verify_finds_a_number_of_another_grid_s_winning_numbers() {
    let f = common::Forgery::of("game_specs/examples/numero_bonus.toml");
    let row = f.rows().swap_remove(0);
    assert_eq!(row["prize"], "0", "the first ticket loses");
    let number = &row["grille1_win1"];
    common::forge_cell(
        &f.bad,
        1,
        "grille2_sym1",
        number.parse::<u8>().unwrap() - 1,
        number,
    );
    let forged = f.rows().swap_remove(0);
    let forged: BTreeMap<&str, &str> = forged
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let (prize, _, _, problems) = judge_bonus(&forged);
    assert_eq!(prize, 0);
    assert_eq!(
        problems,
        [format!(
            "grid 2: {number} is a winning number of the other grid"
        )]
    );
    let text = f.verified();
    assert_eq!(common::status_of(&text, "ambiguity"), "FAIL", "{text}");
    assert_eq!(common::status_of(&text, "counts"), "PASS", "{text}");
}
