//! Command-line behaviour: bad specs exit 2 with a message naming the field, an existing
//! block is never overwritten without --force, fresh seeds are saved with mode 0600.

mod common;

use common::*;
use std::path::Path;

fn small_text() -> String {
    std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap()
}

#[test]
fn the_real_specs_check() {
    let out = tirage()
        .arg("check")
        .arg(repo("game_specs/coq.toml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    // Counts with thousands separators, amounts with the currency, odds to the cent.
    for line in [
        "play styles match_symbols, price 2 EUR, block 4,500,000 tickets in 30,000 packs of 150, game code 1703, emission 001",
        "    20,000 EUR          4   1,125,000.00         80,000 EUR  20000 ×4 [20000]",
        "         2 EUR    647,544           6.95      1,295,088 EUR  2 ×647,544 [2]",
        "         total  1,370,092           3.28      5,940,400 EUR  (published: 1,370,092 lots, 5,940,400 EUR)",
        "losers 3,129,908 ; sales 9,000,000 EUR ; payout ratio 66.00 %",
        "      20,000 EUR  VINGT MILLE EUROS",
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
    }
    assert!(text.contains("spec OK"));
}

/// `tirage styles` is an index, one line per style; a style's name gives it in full.
#[test]
fn styles_prints_an_index_first() {
    let out = tirage().arg("styles").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let n = tirage::styles::style::LIBRARY.len();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("{n} play styles:"));
    assert_eq!(lines.len(), n + 3, "{text}");
    for s in tirage::styles::style::LIBRARY {
        assert!(
            lines[1..=n]
                .iter()
                .any(|l| l.starts_with(&format!("  {:<18} {} — ", s.name, s.term))),
            "{}",
            s.name
        );
    }
    assert!(!text.contains("parameters"));
    let one = tirage().args(["styles", "reveal"]).output().unwrap();
    let one = String::from_utf8(one.stdout).unwrap();
    assert!(
        one.starts_with("reveal — ") && one.contains("  example:\n"),
        "{one}"
    );
    let all = tirage().args(["styles", "--all"]).output().unwrap();
    let all = String::from_utf8(all.stdout).unwrap();
    assert!(all.starts_with(&text[..text.find("\n\n").unwrap()]));
    assert_eq!(
        all.matches("  parameters (besides style, id and max):")
            .count(),
        n
    );
}

/// The example `tirage styles NAME` prints is a spec's `[[surfaces]]` entry as written: it
/// parses as TOML, is of the style named, and sets only `style`, `id`, `max` and the
/// style's parameters.
#[test]
fn every_styles_example_parses_as_a_surface_of_it() {
    for s in tirage::styles::style::LIBRARY {
        let out = tirage().args(["styles", s.name]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", s.name);
        let text = String::from_utf8(out.stdout).unwrap();
        let (_, example) = text
            .split_once("\n  example:\n")
            .unwrap_or_else(|| panic!("{} prints no example:\n{text}", s.name));
        let example: String = example
            .lines()
            .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
            .collect();
        let doc: toml::Table = toml::from_str(&example)
            .unwrap_or_else(|e| panic!("the example of {} is not TOML: {e}\n{example}", s.name));
        let surfaces = doc["surfaces"].as_array().expect("a [[surfaces]] entry");
        let surface = surfaces[0].as_table().unwrap();
        assert_eq!(surface["style"].as_str(), Some(s.name));
        for key in surface.keys() {
            assert!(
                ["style", "id", "max"].contains(&key.as_str())
                    || s.params.iter().any(|p| p.name == key),
                "the example of {} sets {key}, none of its parameters",
                s.name
            );
        }
    }
}

#[test]
fn bad_specs_exit_2_naming_the_field_and_line() {
    let t = small_text();
    let cases: Vec<(String, &str)> = vec![
        (
            replace_once(&t, "lots = 919", "lots = 918"),
            "published.lots: the lot table has 919 lots, the published total is 918",
        ),
        (
            replace_once(&t, "payout = 25_294", "payout = 25_295"),
            "published.payout",
        ),
        (
            replace_once(&t, "id = \"8\"\ncount = 100", "id = \"8\"\ncount = 99"),
            "the ways' counts sum to 149, expected the tier's count 150",
        ),
        (
            replace_once(&t, "wins = [10, 8]", "wins = [10, 9]"),
            "10 + 9 adds up to 19, expected the tier's amount 18",
        ),
        (
            replace_once(
                &t,
                "id = \"10+8\"\ncount = 30\nwins = [10, 8]",
                "id = \"10+8\"\ncount = 30\nwins = [18]",
            ),
            "reachable only by adding several wins",
        ),
        (
            replace_once(&t, "\"8\" = \"HUIT EUROS\"\n", ""),
            "8 can be shown on a face but has no caption: add \"8\" = \"…\" to [captions]",
        ),
        (
            {
                let start = t.find("[captions]\n").unwrap();
                let end = start + t[start..].find("\n\n").unwrap();
                format!("{}{}", &t[..start], &t[end..])
            },
            "can be shown on a face but the spec has no [captions]: add the table",
        ),
        (
            replace_once(&t, "\"8\" = \"HUIT EUROS\"", "\"8\" = \"DIX EUROS\""),
            "two amounts may not share a caption",
        ),
        (
            replace_once(&t, "pack_size = 150", "pack_size = 150\ncolour = \"red\""),
            "game.colour: unknown field `colour`",
        ),
        (
            replace_once(&t, "price = 2", "price = \"two\""),
            "game.price: `two` is not an amount",
        ),
        (
            replace_once(&t, "currency = \"EUR\"", "currency = \"euro€\""),
            "game.currency: \"euro€\": expected an ISO 4217 code",
        ),
        (
            replace_once(&t, "payout = 25_294", "payout = 25_294\nodds = \"1 in 3.27\""),
            "published.odds: printed \"1 in 3.27\", but 3,000 tickets / 919 lots is 1 in 3.26 (rounded to the nearest;",
        ),
        (
            replace_once(&t, "amount = 20000\ncount = 1\n", "amount = 20000\ncount = 1\nodds = \"1 in 3,000.5\"\n"),
            "tiers[0].odds (amount 20000): printed \"1 in 3,000.5\", but 3,000 tickets / 1 lots is 1 in 3,000.0",
        ),
        (
            replace_once(&t, "amount = 20000\ncount = 1\n", "amount = 20000\ncount = 1\nodds = \"one in 3000\"\n"),
            "tiers[0].odds (amount 20000): \"one in 3000\" is not printed odds: expected \"1 in N\"",
        ),
        (
            replace_once(&t, "amount = 20000\ncount = 1\n", "amount = 20000\ncount = 1\nodds = 3000\n"),
            "tiers[0].odds: invalid type: integer `3000`, expected printed odds in quotes, \"1 in N\" (\"1 in 4.26\", \"1 in 1,125,000\")",
        ),
        (
            replace_once(&t, "payout = 25_294", "payout = 25_294\nodds = 3.26"),
            "published.odds: invalid type: floating point `3.26`, expected printed odds in quotes, \"1 in N\"",
        ),
        (
            replace_once(&t, "payout = 25_294", "payout = 25_294\nodds_rounding = \"half_even\""),
            "published.odds_rounding: unknown variant `half_even`, expected one of `nearest`, `down`, `up`",
        ),
        (
            replace_once(&t, "price = 2", ""),
            "game: missing field `price`",
        ),
        (
            replace_once(&t, "pack_size = 150", "pack_size = \"many\""),
            "game.pack_size: invalid type: string \"many\", expected a whole number from 0 to 4,294,967,295",
        ),
        (
            replace_once(&t, "cells = 8", "cells = 8.5"),
            "cells: invalid type: floating point `8.5`, expected a whole number ≥ 0",
        ),
        (
            replace_once(&t, "price = 2", "price = \"92233720368547758.08\""),
            "game.price: 92233720368547758.08 × 3000 tickets: the block's sales do not fit",
        ),
        (
            replace_once(&t, "\"8\" = \"HUIT EUROS\"", "\"8\" = \"=HYPERLINK(1)\""),
            "does not begin with = + - or @",
        ),
        (
            replace_once(&t, "id = \"10+8\"", "id = \"+10+8\""),
            "not beginning with = + - or @",
        ),
        (
            replace_once(
                &t,
                "currency = \"EUR\"",
                "currency = \"EUR\"\nmechanic = \"bingo\"",
            ),
            "unknown mechanic \"bingo\"",
        ),
        (
            replace_once(&t, "near_miss = 0.30", "near_miss = 1.5"),
            "surfaces[0].games[0].near_miss: 1.5 is not a share between 0 and 1",
        ),
        (
            replace_once(
                &t,
                "wins = [10, 20]",
                "wins = [10, 20]\nareas = [\"jeu1\", \"jeu3\"]",
            ),
            "unknown play area \"jeu3\"",
        ),
    ];
    for (text, want) in cases {
        let (code, err) = check_spec(&text);
        assert_eq!(code, 2, "expected exit 2 for {want:?}; stderr: {err}");
        assert!(err.contains(want), "stderr {err:?} lacks {want:?}");
        assert!(
            err.contains("bad.toml:"),
            "stderr {err:?} does not name the file and line"
        );
    }
}

#[test]
fn a_spec_error_names_the_line_of_the_tier() {
    let t = replace_once(
        &small_text(),
        "id = \"8\"\ncount = 100",
        "id = \"8\"\ncount = 99",
    );
    let line = t.lines().position(|l| l == "amount = 8").unwrap(); // the [[tiers]] header is one line above
    let (_, err) = check_spec(&t);
    assert!(
        err.contains(&format!("bad.toml:{}: tiers[5].ways", line)),
        "{err}"
    );
}

#[test]
fn an_existing_block_is_not_overwritten_without_force() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let spec = repo("tests/specs/coq_small.toml");
    generate(&spec, &out, 1);
    let before = std::fs::read(out.join("SHA256SUMS")).unwrap();
    let other = "ff".repeat(32);
    let run = |force: bool| {
        let mut c = tirage();
        c.arg("generate")
            .arg(&spec)
            .args(["--insecure-seed", "--seed", &other, "-q", "--out"])
            .arg(&out)
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY));
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    let o = run(false);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists; pass --force"));
    assert_eq!(std::fs::read(out.join("SHA256SUMS")).unwrap(), before);
    // Run by make, whose knob is FORCE=1 (the Makefile says so to tirage), the advice
    // names that knob.
    let makefile = std::fs::read_to_string(repo("Makefile")).unwrap();
    assert!(makefile.contains("\t@TIRAGE_FORCE_OPTION=FORCE=1 $(BIN) generate "));
    let mut c = tirage();
    c.env("TIRAGE_FORCE_OPTION", "FORCE=1")
        .arg("generate")
        .arg(&spec)
        .args(["--insecure-seed", "--seed", &other, "-q", "--out"])
        .arg(&out)
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY));
    let o = c.output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {} already exists; pass FORCE=1 (tirage's --force) to replace it\n",
            out.display()
        )
    );
    assert_eq!(run(true).status.code(), Some(0));
    assert_ne!(std::fs::read(out.join("SHA256SUMS")).unwrap(), before);
    assert_eq!(verify_code(&out), 0);
    // Nothing temporary is left beside the block, only its lock file and the audit
    // report verify wrote.
    let mut names: Vec<String> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, [".b.tirage-lock", "b", "b.audit"]);
}

#[test]
fn a_failed_generate_leaves_nothing() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .args([
            "--insecure-seed",
            "--seed",
            SEED,
            "--block",
            "1000",
            "-q",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("block 1000 is out of range"));
    assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
}

#[test]
fn a_fresh_seed_is_saved_with_mode_0600_and_replays_the_block() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    let spec = repo("tests/specs/coq_small.toml");
    tirage()
        .arg("generate")
        .arg(&spec)
        .args(["-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let seed_file = t.path().join("b.seed");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&seed_file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    // No validation key was given: it is derived from the seed, and the manifest says so.
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["validation_key_from_seed"], true);
    assert!(!t.path().join("b.validation-key").exists());
    let seed = std::fs::read_to_string(&seed_file).unwrap();
    assert_eq!(seed.trim().len(), 64);
    for f in std::fs::read_dir(&out).unwrap() {
        let text =
            String::from_utf8_lossy(&std::fs::read(f.unwrap().path()).unwrap()).to_lowercase();
        assert!(!text.contains(seed.trim()));
    }
    let replay = t.path().join("replay");
    tirage()
        .arg("generate")
        .arg(&spec)
        .arg("--seed-file")
        .arg(&seed_file)
        .args(["-q", "--out"])
        .arg(&replay)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(out.join("SHA256SUMS")).unwrap(),
        std::fs::read(replay.join("SHA256SUMS")).unwrap()
    );
}

#[test]
fn bad_seeds_exit_2() {
    for bad in ["00", &"zz".repeat(32)] {
        let o = tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args([
                "--insecure-seed",
                "--seed",
                bad,
                "-q",
                "--out",
                "/tmp/never",
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("64 hexadecimal digits"));
    }
    assert!(!Path::new("/tmp/never").exists());
}

#[test]
fn help_lists_every_subcommand() {
    let o = tirage().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    for c in ["generate", "verify", "check", "deck", "render"] {
        assert!(text.contains(c), "{text}");
    }
}

/// Each command's help says its exit status (130 for an interrupted generate, deck, render or
/// package) and gives an example, as verify's does; package's and render's say an emission
/// is refused.
#[test]
fn help_says_exit_status_and_gives_examples() {
    for command in [
        &["generate"][..],
        &["check"],
        &["claim"],
        &["preview"],
        &["render"],
        &["deck"],
        &["package"],
        &["keygen"],
        &["seed"],
        &["seed", "new"],
        &["seed", "commit"],
        &["styles"],
        &["verify"],
    ] {
        let o = tirage().args(command).arg("--help").output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        let text = String::from_utf8_lossy(&o.stdout);
        let status = text
            .lines()
            .find(|l| l.starts_with("Exit status: 0 "))
            .unwrap_or_else(|| panic!("{command:?}: no exit status in\n{text}"));
        assert!(status.contains(", 2 "), "{command:?}: {status}");
        let interruptible = matches!(command, ["generate"] | ["deck"] | ["render"] | ["package"]);
        assert_eq!(
            text.contains(", 130 interrupted (Ctrl-C, SIGTERM, SIGHUP"),
            interruptible,
            "{command:?}"
        );
        let examples = text
            .split_once("\nExample")
            .unwrap_or_else(|| panic!("{command:?}: no example in\n{text}"))
            .1;
        // An example runs the command itself, or feeds it a secret on standard input
        // (`echo CODE | tirage claim … --code -`).
        let runs_it = examples.lines().any(|l| {
            let l = l.strip_prefix("  ").unwrap_or_default();
            let run = match l.split_once(" | ") {
                Some((fed, run)) if fed.starts_with("echo ") => run,
                _ => l,
            };
            let named = format!("tirage {}", command.join(" "));
            run == named || run.starts_with(&format!("{named} "))
        });
        assert!(runs_it, "{command:?}: {examples}");
        if matches!(command, ["package"] | ["render"]) {
            assert!(
                text.contains("An emission is refused: name one of its blocks"),
                "{command:?}: {text}"
            );
        }
    }
}

/// A bare TOML decimal amount loads exactly, from its own digits (`price = 0.5`,
/// `amount = 20_000.00`, `payout = 25294.0`); the spec's digest stays that of the file as
/// written. One with more than 2 decimals is refused naming the file, line and field
/// (exit 2), never rounded.
#[test]
fn bare_decimal_amounts_load_exactly() {
    let text = replace_once(&small_text(), "price = 2 ", "price = 0.5 ");
    let text = replace_once(&text, "amount = 20000\n", "amount = 20_000.00\n");
    let text = replace_once(&text, "payout = 25_294", "payout = 25294.0");
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("decimal.toml");
    std::fs::write(&p, &text).unwrap();
    let spec = tirage::spec::GameSpec::load(&p).unwrap();
    assert_eq!(spec.price, tirage::money::Money(50));
    assert_eq!(spec.tiers[0].amount, tirage::money::Money(2_000_000));
    assert_eq!(spec.payout(), tirage::money::Money(2_529_400));
    assert_eq!(spec.text, text);
    assert_eq!(
        spec.sha256,
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(text.as_bytes()))
    );
    assert_eq!(check_spec(&text).0, 0);

    // 4.555 is no amount of cents: refused, with the file, line 10 and the field.
    let err = check_refuses(&small_text(), "price = 2 ", "price = 4.555 ");
    assert!(
        err.contains("bad.toml:10: game.price: `4.555` has more than 2 decimals"),
        "{err}"
    );
    // In the lot table, the field names its row: the second tier, its first way.
    let text = replace_once(&small_text(), "amount = 1000\n", "amount = 4.555\n");
    let line = text.lines().position(|l| l == "amount = 4.555").unwrap() + 1;
    let (code, err) = check_spec(&text);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "bad.toml:{line}: tiers[1].amount: `4.555` has more than 2 decimals"
        )),
        "{err}"
    );
    let text = replace_once(&small_text(), "wins = [500, 500]", "wins = [500.001, 500]");
    let (code, err) = check_spec(&text);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(": tiers[1].ways[0].wins: `500.001` has more than 2 decimals"),
        "{err}"
    );
    // A literal with more digits than a number keeps is refused, never rounded to 0.5.
    let err = check_refuses(&small_text(), "price = 2 ", "price = 0.50000000000000001 ");
    assert!(
        err.contains("bad.toml:10: game.price: 0.50000000000000001 has more significant digits than a number keeps (15): write it shorter (an amount has at most 2 decimals)"),
        "{err}"
    );
}

/// `-q` is the verdict alone: `check -q` one line, `generate -q` and `deck -q` nothing on
/// stdout (where a fresh seed went is still said on stderr: a secret written is never
/// silent).
#[test]
fn quiet_commands_print_their_verdict_alone() {
    let spec = repo("tests/specs/coq_small.toml");
    let out = tirage().args(["check", "-q"]).arg(&spec).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{}: valid (coq, 8 tiers, 10 ways, blocks of 3,000 tickets)\n",
            spec.display()
        )
    );
    let t = tempfile::tempdir().unwrap();
    for cmd in ["generate", "deck"] {
        let d = t.path().join(cmd);
        let out = tirage()
            .args([cmd, "-q", "--out"])
            .arg(&d)
            .arg(&spec)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("seed saved to"), "{err}");
        assert!(!err.contains("tickets ("), "{err}");
    }
}

/// Odds copied from the printed lot table check when the counts give them, rounded as
/// `[published] odds_rounding` says (3 000 tickets / 919 lots = 3.2644…).
#[test]
fn printed_odds_that_the_counts_give_check() {
    let t = small_text();
    let with = |published: &str| {
        let t = replace_once(
            &t,
            "payout = 25_294",
            &format!("payout = 25_294\n{published}"),
        );
        replace_once(
            &t,
            "amount = 20000\ncount = 1\n",
            "amount = 20000\ncount = 1\nodds = \"1 in 3,000\"\n",
        )
    };
    // Accepted: the scaled-down block's payout warning alone is said, and its play
    // areas' missing labels.
    let accepted = |text: &str| {
        let (code, err) = check_spec(text);
        assert_eq!(code, 0, "{err}");
        assert_eq!(err.lines().count(), 2, "{err}");
        assert!(
            err.contains(": game.price: the lot table pays 25,294 EUR per block"),
            "{err}"
        );
        assert!(
            err.contains(": labels: no printed name in [labels] for cells, jeu1, jeu2"),
            "{err}"
        );
    };
    accepted(&with("odds = \"1 in 3.26\""));
    accepted(&with("odds = \"1 in 3.3\""));
    let up = with("odds = \"1 in 3.27\"\nodds_rounding = \"up\"");
    accepted(&up);
    let (code, err) = check_spec(&up.replace("\"up\"", "\"down\""));
    assert_eq!(code, 2);
    assert!(err.contains("is 1 in 3.26 (rounded down;"), "{err}");
}

/// `[captions]` may be left out when no face shows an amount in figures (a bingo card paid
/// by pattern); the spec then checks, and its faces carry no caption column.
#[test]
fn captions_are_optional_when_no_face_shows_an_amount() {
    let text = std::fs::read_to_string(repo("tests/specs/bingo_lines_small.toml")).unwrap();
    let text = replace_once(
        &text,
        "[captions]\n\"2\" = \"DEUX EUROS\"\n\"10\" = \"DIX EUROS\"\n",
        "",
    );
    let (code, err) = check_spec(&text);
    assert_eq!((code, err.as_str()), (0, ""));
    let spec = tirage::spec::GameSpec::parse(Path::new("bingo.toml"), text).unwrap();
    assert!(spec.captions.is_empty());
    assert!(spec.game.layout().shown_amounts.is_empty());
}

/// An amount's caption with a space at either end or two spaces in a row is refused, as a
/// symbol is, at its field and line: the ticket prints it as written.
#[test]
fn badly_spaced_captions_are_refused() {
    let text = std::fs::read_to_string(repo("game_specs/examples/plus_fort_bonus.toml")).unwrap();
    for (to, said) in [
        ("\"4\" = \"QUATRE  EUROS\"", "\"QUATRE  EUROS\""),
        ("\"4\" = \"QUATRE EUROS \"", "\"QUATRE EUROS \""),
        ("\"4\" = \" QUATRE EUROS\"", "\" QUATRE EUROS\""),
    ] {
        let err = check_refuses(&text, "\"4\" = \"QUATRE EUROS\"", to);
        assert!(
            err.ends_with(&format!(":23: captions.\"4\": {said} is not a caption: expected words separated by single spaces, with no space at either end (the ticket prints the caption as written)\n")),
            "{err}"
        );
    }
}

/// A caption that is a number in words in the game's language says its own amount: swapped
/// captions (a face printing "4 €" over "CINQ EUROS") and number words that say no amount
/// are refused at the caption's field and line, as is a caption that is not an amount in
/// words (a word beside the number words, figures, another language); amounts with cents
/// read with their cents.
#[test]
fn captions_in_words_say_their_amount() {
    let fr = std::fs::read_to_string(repo("game_specs/examples/plus_fort_bonus.toml")).unwrap();
    let advice = ": a caption in words says the amount printed above it in figures (one that does not match its figures is a printing anomaly)\n";
    let swapped = replace_once(
        &replace_once(&fr, "\"4\" = \"QUATRE EUROS\"", "\"4\" = \"CINQ EUROS\""),
        "\"5\" = \"CINQ EUROS\"",
        "\"5\" = \"QUATRE EUROS\"",
    );
    let (code, err) = check_spec(&swapped);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.ends_with(&format!(
            ":23: captions.\"4\": reads as 5 (\"CINQ EUROS\"), not 4{advice}"
        )),
        "{err}"
    );
    let err = check_refuses(
        &fr,
        "\"500\" = \"CINQ CENTS EUROS\"",
        "\"500\" = \"CINQ CENT CINQUANTE EUROS\"",
    );
    assert!(
        err.ends_with(&format!(
            ":29: captions.\"500\": reads as 550 (\"CINQ CENT CINQUANTE EUROS\"), not 500{advice}"
        )),
        "{err}"
    );
    let err = check_refuses(
        &fr,
        "\"20\" = \"VINGT EUROS\"",
        "\"20\" = \"VINGT DIX EUROS\"",
    );
    assert!(
        err.ends_with(":26: captions.\"20\": \"VINGT DIX EUROS\" is made of number words but says no amount: write 20 in words in the game's language (fr), as \"CINQ EUROS\", \"QUATRE EUROS CINQUANTE\" or \"FIVE DOLLARS\" say theirs\n"),
        "{err}"
    );
    // Not an amount in words: refused, saying what a caption is.
    for (caption, line) in [
        ("JACKPOT", 30),
        ("MILLE EUROS.", 30),
        ("1000 EUROS", 30),
        ("ONE THOUSAND EUROS", 30),
    ] {
        let err = check_refuses(
            &fr,
            "\"1000\" = \"MILLE EUROS\"",
            &format!("\"1000\" = \"{caption}\""),
        );
        assert!(
            err.ends_with(&format!(":{line}: captions.\"1000\": \"{caption}\" does not read as 1000: a caption says in words the amount printed above it in figures, in the game's language (fr), as \"CINQ EUROS\", \"QUATRE EUROS CINQUANTE\" or \"FIVE DOLLARS\" say theirs, with nothing else (one that does not match its figures is a printing anomaly)\n")),
            "{err}"
        );
    }

    let en = std::fs::read_to_string(repo("tests/specs/spaces_small.toml")).unwrap();
    let err = check_refuses(
        &en,
        "\"20\" = \"TWENTY DOLLARS\"",
        "\"20\" = \"TWELVE DOLLARS\"",
    );
    assert!(
        err.ends_with(&format!(
            ":25: captions.\"20\": reads as 12 (\"TWELVE DOLLARS\"), not 20{advice}"
        )),
        "{err}"
    );
    // Cents: an amount of 4.50 in words, in both languages.
    let tiny = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let tiny = replace_once(&tiny, "amounts = [2, 4,", "amounts = [2, 4, 4.5,");
    for (caption, code, said) in [
        ("QUATRE EUROS CINQUANTE", 0, ""),
        ("QUATRE EUROS ET CINQUANTE CENTIMES", 0, ""),
        (
            "QUATRE EUROS CINQ",
            2,
            "reads as 4.05 (\"QUATRE EUROS CINQ\"), not 4.5",
        ),
    ] {
        let text = replace_once(
            &tiny,
            "\"4\" = \"QUATRE EUROS\"",
            &format!("\"4\" = \"QUATRE EUROS\"\n\"4.5\" = \"{caption}\""),
        );
        let (c, err) = check_spec(&text);
        assert_eq!(c, code, "{caption}: {err}");
        assert!(err.contains(said), "{err}");
    }
}

/// A caption in words that names a currency names the game's: `DIX DOLLARS` in a game in
/// euros is refused at the caption's field and line, saying what was expected; one with no
/// currency word is left alone.
#[test]
fn captions_in_words_name_the_games_currency() {
    let fr = std::fs::read_to_string(repo("game_specs/examples/plus_fort_bonus.toml")).unwrap();
    for (caption, said, expected) in [
        ("DIX DOLLARS", "DOLLARS", "EUROS or no currency word"),
        ("DIX FRANCS", "FRANCS", "EUROS or no currency word"),
        ("DIX LIVRES", "LIVRES", "EUROS or no currency word"),
    ] {
        let err = check_refuses(
            &fr,
            "\"10\" = \"DIX EUROS\"",
            &format!("\"10\" = \"{caption}\""),
        );
        assert!(
            err.ends_with(&format!(":25: captions.\"10\": \"{caption}\" says {said}, but the game's currency is EUR (game.currency): expected {expected}\n")),
            "{err}"
        );
    }
    check_accepts(&fr, "\"10\" = \"DIX EUROS\"", "\"10\" = \"DIX\"");

    let en = std::fs::read_to_string(repo("tests/specs/spaces_small.toml")).unwrap();
    let err = check_refuses(
        &en,
        "\"20\" = \"TWENTY DOLLARS\"",
        "\"20\" = \"TWENTY POUNDS\"",
    );
    assert!(
        err.ends_with(":25: captions.\"20\": \"TWENTY POUNDS\" says POUNDS, but the game's currency is USD (game.currency): expected DOLLARS or no currency word\n"),
        "{err}"
    );
    // A currency whose unit's word is not known: no currency word at all.
    let err = check_refuses(&en, "currency = \"USD\"", "currency = \"JPY\"");
    assert!(
        err.ends_with(":24: captions.\"10\": \"TEN DOLLARS\" says DOLLARS, but the game's currency is JPY (game.currency): expected no currency word (the game's currency has none here)\n"),
        "{err}"
    );
}

/// `n` (1 to 299) in French number words, as a caption writes it (`QUATRE VINGT DOUZE`).
fn french(n: usize) -> String {
    const UNITS: [&str; 17] = [
        "", "UN", "DEUX", "TROIS", "QUATRE", "CINQ", "SIX", "SEPT", "HUIT", "NEUF", "DIX", "ONZE",
        "DOUZE", "TREIZE", "QUATORZE", "QUINZE", "SEIZE",
    ];
    const TENS: [&str; 7] = [
        "",
        "",
        "VINGT",
        "TRENTE",
        "QUARANTE",
        "CINQUANTE",
        "SOIXANTE",
    ];
    let below_100 = |n: usize| -> String {
        let tens_and = |tens: &str, rest: String| match rest.as_str() {
            "" => tens.to_string(),
            "UN" | "ONZE" => format!("{tens} ET {rest}"),
            _ => format!("{tens} {rest}"),
        };
        let below_20 = |n: usize| match n {
            0..=16 => UNITS[n].to_string(),
            _ => format!("DIX {}", UNITS[n - 10]),
        };
        match n {
            0..=19 => below_20(n),
            20..=69 => tens_and(TENS[n / 10], UNITS[n % 10].to_string()),
            70..=79 => tens_and("SOIXANTE", below_20(n - 60)),
            80 => "QUATRE VINGTS".to_string(),
            _ => format!("QUATRE VINGT {}", below_20(n - 80)),
        }
    };
    match n {
        0..=99 => below_100(n),
        100 => "CENT".to_string(),
        101..=199 => format!("CENT {}", below_100(n - 100)),
        200 => "DEUX CENTS".to_string(),
        _ => format!("DEUX CENT {}", below_100(n - 200)),
    }
}

/// A caption column codes a caption in one byte: 256 captions load, a 257th is refused at
/// `captions` (two amounts would otherwise print the same caption).
#[test]
fn more_captions_than_a_face_can_code_are_refused() {
    let tiny = std::fs::read_to_string(repo("tests/specs/coq_tiny.toml")).unwrap();
    let with = |n: usize| {
        let extra: String = (1..=n)
            .map(|i| format!("\"{}\" = \"MILLE {} EUROS\"\n", 1000 + i, french(i)))
            .collect();
        // Each an amount Jeu 1's GAIN box may show (a caption no face shows is refused).
        let shown: String = (1..=n).map(|i| format!(", {}", 1000 + i)).collect();
        let text = replace_once(
            &tiny,
            "\"20000\" = \"VINGT MILLE EUROS\"\n",
            &format!("\"20000\" = \"VINGT MILLE EUROS\"\n{extra}"),
        );
        replace_once(
            &text,
            "amounts = [2, 4, 8, 10, 20, 100, 500, 20000]",
            &format!("amounts = [2, 4, 8, 10, 20, 100, 500, 20000{shown}]"),
        )
    };
    // coq_tiny has 8 captions.
    let (code, err) = check_spec(&with(248));
    assert_eq!(code, 0, "{err}");
    let (code, err) = check_spec(&with(249));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.ends_with(":22: captions: 257 captions: at most 256 in all (a face codes a caption in one byte)\n"),
        "{err}"
    );
}

/// A bingo card of 48 numbers on a 7×7 grid beside 24 drawn numbers (72 values drawn at
/// once for a face) is generated and verifies, as `check` accepted it.
#[test]
fn a_large_bingo_card_that_checks_generates() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("game_specs/examples/bingo_multi.toml")).unwrap();
    let text = replace_once(&text, "numbers = 24\n", "numbers = 48\n");
    let text = replace_once(&text, "grid = 5\n", "grid = 7\n");
    let spec = t.path().join("bingo7.toml");
    std::fs::write(&spec, &text).unwrap();
    let (code, err) = check_spec(&text);
    assert_eq!((code, err.as_str()), (0, ""));
    let out = t.path().join("b");
    generate(&spec, &out, 2);
    assert_eq!(verify_code(&out), 0);
}

/// A lot table that pays more than the block's sales (a price typed 0.5 for 2) is said on
/// stderr by `check` and `preview`, naming `game.price`, its line and the payout ratio; a
/// block that pays less than it sells says nothing.
#[test]
fn a_payout_above_the_sales_is_a_warning() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("game_specs/examples/plus_fort_bonus.toml")).unwrap();
    let spec = t.path().join("pf.toml");
    std::fs::write(&spec, replace_once(&text, "price = 2\n", "price = 0.5\n")).unwrap();
    let warning = format!(
        "tirage: warning: {}:12: game.price: the lot table pays 8,400 EUR per block, more than the block's sales of 3,000 EUR (6,000 tickets at 0.50 EUR): a payout ratio of 280.00 %; check the price, the block size and the lot table\n",
        spec.display()
    );
    let out = tirage().args(["check", "-q"]).arg(&spec).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), warning);
    let out = tirage()
        .args(["preview", "-q", "--out"])
        .arg(t.path().join("p"))
        .arg(&spec)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), warning);
    let out = tirage()
        .args(["check", "-q"])
        .arg(repo("game_specs/examples/plus_fort_bonus.toml"))
        .output()
        .unwrap();
    assert_eq!((out.status.code(), out.stderr.len()), (Some(0), 0));
}

/// `check` prints, surface by surface, the rule the style applies beside the spec's
/// `legal_reference`: a card-total game forced onto `compare` reads as a comparison of
/// numbers next to a règlement that speaks of a blackjack, for a reviewer to see.
#[test]
fn check_puts_each_surface_s_rule_in_words_beside_the_legal_reference() {
    let text = std::fs::read_to_string(repo("game_specs/examples/plus_haut.toml")).unwrap();
    let text = replace_once(
        &text,
        "legal_reference = \"Example game (invented): tirage game_specs/examples/plus_haut.toml\"",
        "legal_reference = \"Règlement « 21 », art. 3: figures count 10, an ace 1 or 11\"",
    );
    let text = replace_once(&text, "id = \"ph\"\n", "id = \"ph\"\nmax = 500\n");
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("forced.toml");
    std::fs::write(&p, text).unwrap();
    let out = tirage().arg("check").arg(&p).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let from = text.find("the rules in words").expect("the rules in words");
    let lines: Vec<&str> = text[from..].lines().collect();
    assert_eq!(
        lines[..7],
        [
            "the rules in words, surface by surface, to hold against the règlement (legal_reference):",
            "  Règlement « 21 », art. 3: figures count 10, an ace 1 or 11",
            "surface \"ph\": compare — higher number / beat the dealer / add up yours against theirs, printed maximum 500 EUR",
            "  the style's rule: Rows of your number(s) against their number(s), each row with an amount box; a row wins its amount when yours is strictly higher than theirs (with sum = true, the sum of yours against the sum of theirs). Each row is a play area. With one number per side, a row may show a special symbol in place of your number (`specials`): an auto-win wins the amount in its box, a multiplier that many times it, a win-all every box's amount added up.",
            "  a naive player reads: A player compares (or adds up) the two sides of each row; a tie reads as a win to some players, so no face ever prints a tie. A player who sees a special symbol takes its prize; beside a win-all, a winning row would add nothing (counted once), so no face shows one there.",
            "  as this spec sets it:",
            "    « Jeu 1 » wins the amount in its box when your number is strictly higher than their number (numbers 01 to 20; a tie is never printed).",
        ],
        "{text}"
    );
    assert_eq!(lines.len(), 7 + 11 + 2, "{text}");
    assert_eq!(lines[lines.len() - 1], "spec OK");
}

/// `--mode` never gives others a bit nor sets an execute bit on the files that map the
/// winners (exit 2, naming the bits, nothing written); 640 shares with a group: files 0640,
/// the block's directory 0750.
#[test]
fn a_mode_for_others_or_execute_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let run = |mode: &str, out: &Path| {
        tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .args([
                "--insecure-seed",
                "--seed",
                SEED,
                "-q",
                "--mode",
                mode,
                "--out",
            ])
            .arg(out)
            .output()
            .unwrap()
    };
    for (mode, why) in [
        ("666", "it gives others (bits 006) access: the block's files map the winners, so nobody but the owner and, with 640, its group may read them; expected 600 or 640"),
        ("604", "it gives others (bits 004) access: the block's files map the winners, so nobody but the owner and, with 640, its group may read them; expected 600 or 640"),
        ("700", "it sets execute bits (100): the block's files are data, never run (directories get search where read is given); expected 600 or 640"),
        ("650", "it sets execute bits (010): the block's files are data, never run (directories get search where read is given); expected 600 or 640"),
    ] {
        let out = t.path().join(format!("b{mode}"));
        let o = run(mode, &out);
        assert_eq!(o.status.code(), Some(2), "{mode}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!("error: invalid value '{mode}' for '--mode <MODE>': {why}\n\nFor more information, try '--help'.\n"),
            "{mode}"
        );
        assert!(!out.exists(), "{mode}");
    }
    let out = t.path().join("b640");
    assert_eq!(run("640", &out).status.code(), Some(0));
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&out.join("tickets.csv")), 0o640);
    assert_eq!(mode(&out), 0o750);
}

/// A deck that promises no feature (a game without near misses or decoys) says nothing of
/// features: its summary is one line.
#[test]
fn a_deck_promising_no_feature_prints_no_features_line() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("deck");
    let o = tirage()
        .arg("deck")
        .arg(repo("game_specs/examples/cash.toml"))
        .args(["--insecure-seed", "--seed", SEED, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "specimen deck of cash: 36 tickets (6 winners, 6 ways) → {}\n",
            out.display()
        )
    );
}

/// A block made with a test seed (`make block SEED=…` passes `--insecure-seed`) says so
/// first in its summary; a fresh seed's block does not.
#[test]
fn a_test_seed_s_summary_says_test_block() {
    let t = tempfile::tempdir().unwrap();
    let spec = repo("tests/specs/coq_small.toml");
    let run = |out: &Path, test: bool| {
        let mut c = tirage();
        c.arg("generate").arg(&spec).arg("--out").arg(out);
        if test {
            c.args(["--insecure-seed", "--seed", SEED]);
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let said = run(&t.path().join("test"), true);
    let summary = said.lines().find(|l| l.contains("block 1 of coq")).unwrap();
    assert!(
        summary.starts_with(
            "TEST BLOCK (made with a test seed: never for sale, claim pays none of its tickets): block 1 of coq: 3,000 tickets, 919 lots, payout 25,294 EUR"
        ),
        "{said}"
    );
    let said = run(&t.path().join("fresh"), false);
    let summary = said.lines().find(|l| l.contains("block 1 of coq")).unwrap();
    assert!(
        summary.starts_with("block 1 of coq: 3,000 tickets, 919 lots, payout 25,294 EUR → "),
        "{said}"
    );
}

/// A secret given in place of a spec (a seed share, an age identity, a minisign secret key)
/// is named as a secret, exit 2, and none of it is printed.
#[test]
fn a_secret_given_as_a_spec_is_named_and_not_printed() {
    let t = tempfile::tempdir().unwrap();
    let share = t.path().join("alice.share");
    tirage()
        .args(["seed", "new", "--out"])
        .arg(&share)
        .assert()
        .success();
    let age = t.path().join("auditor.key");
    std::fs::write(
        &age,
        "# created: 2026-12-03T18:00:00Z\n# public key: age1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqs3290gq\nAGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS5RL7TJ\n",
    )
    .unwrap();
    tirage()
        .args(["keygen", "--no-password", "--out"])
        .arg(t.path().join("op"))
        .assert()
        .success();
    for f in [share, age, t.path().join("op.key")] {
        let o = tirage().arg("check").arg(&f).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(
            err,
            format!(
                "tirage: error: {}: this looks like a secret key, not a game spec (a seed, share or validation key, a minisign secret key or an age identity): give the game's TOML spec; nothing of the file is printed\n",
                f.display()
            )
        );
        assert!(o.stdout.is_empty());
    }
}

/// `check` notes the panels and play areas `[labels]` gives no printed name (a warning, exit 0), and
/// says nothing of a spec that names them all.
#[test]
fn check_notes_unlabelled_play_areas() {
    let spec = repo("tests/specs/coq_small.toml");
    let out = tirage().args(["check", "-q"]).arg(&spec).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "tirage: warning: {0}:10: game.price: the lot table pays 25,294 EUR per block, more than the block's sales of 6,000 EUR (3,000 tickets at 2 EUR): a payout ratio of 421.57 %; check the price, the block size and the lot table\n\
             tirage: warning: {0}: labels: no printed name in [labels] for cells, jeu1, jeu2: proofs and their notes name them by their ids; add cells = \"…\" (the name the ticket prints) to [labels]\n",
            spec.display()
        )
    );
    let out = tirage()
        .args(["check", "-q"])
        .arg(repo("game_specs/coq.toml"))
        .output()
        .unwrap();
    assert_eq!((out.status.code(), out.stderr.len()), (Some(0), 0));
}

/// Spec mistakes say what is wrong, where (exit 2): `[game]`'s fields written without
/// their header; an empty or blank `name` (printed on every proof's header); a caption of
/// an amount no face shows and no tier pays, never printed (refused, as a
/// `[symbol_captions]` key no face shows is).
#[test]
fn spec_mistakes_are_said_plainly() {
    let text = small_text();
    let err = check_refuses(&text, "[game]\n", "\n");
    assert!(
        err.ends_with("bad.toml:6: game: the [game] section is missing: its fields (id, name, legal_reference, currency, price, block_size, pack_size, game_code, emission) are written at the top level of the file; write [game] on the line above them\n"),
        "{err}"
    );
    for blank in ["\"\"", "\"   \""] {
        let err = check_refuses(
            &text,
            "name = \"ASTRO ANNEE DU COQ\"",
            &format!("name = {blank}"),
        );
        assert!(
            err.ends_with("bad.toml:7: game.name: empty: expected the game's published name, printed on every proof's header\n"),
            "{err}"
        );
    }
    let err = check_refuses(
        &text,
        "\"100\" = \"CENT EUROS\"",
        "\"100\" = \"CENT EUROS\"\n\"50\" = \"CINQUANTE EUROS\"",
    );
    assert!(
        err.ends_with("bad.toml:28: captions.\"50\": no face of this game shows 50 in figures and no tier pays it, so its caption is never printed: remove it (the amounts a face shows: 2, 4, 8, 10, 20, 100, 500, 20000; the tiers: 20000, 1000, 200, 30, 18, 8, 4, 2)\n"),
        "{err}"
    );
}

/// `--force` over a block of another game or another number replaces it with a warning
/// that names both, even with `-q`; over a block of the same game and number, silently.
#[test]
fn force_over_another_games_block_says_what_it_replaced() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("b");
    let run = |spec: &str, block: &str| {
        let o = tirage()
            .arg("generate")
            .arg(repo(spec))
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--force"])
            .args(["--block", block, "--out"])
            .arg(&b)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert_eq!(run("tests/specs/coq_small.toml", "1"), "");
    assert_eq!(
        run("game_specs/examples/cash.toml", "1"),
        format!(
            "tirage: warning: {} held block 1 of coq; --force replaced it with block 1 of cash\n",
            b.display()
        )
    );
    assert_eq!(run("game_specs/examples/cash.toml", "1"), "");
    // A manifest's game id never drives the terminal: its controls are shown escaped.
    let manifest = b.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen(
            "\"id\": \"cash\"",
            "\"id\": \"evil\\u001b[31mRED\\ntirage: all good\"",
            1,
        ),
    )
    .unwrap();
    assert_eq!(
        run("game_specs/examples/cash.toml", "1"),
        format!(
            "tirage: warning: {} held block 1 of evil\\u{{1b}}[31mRED\\ntirage: all good; --force replaced it with block 1 of cash\n",
            b.display()
        )
    );
    assert_eq!(
        run("game_specs/examples/cash.toml", "2"),
        format!(
            "tirage: warning: {} held block 1 of cash; --force replaced it with block 2 of cash\n",
            b.display()
        )
    );
}

/// `deck --force` over another game's deck says so, even with `-q`; over its own, silently.
#[test]
fn force_over_another_games_deck_says_what_it_replaced() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("d");
    let run = |spec: &str| {
        let o = tirage()
            .arg("deck")
            .arg(repo(spec))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
            .arg(&d)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert_eq!(run("tests/specs/coq_small.toml"), "");
    assert_eq!(
        run("game_specs/examples/cash.toml"),
        format!(
            "tirage: warning: {} held a deck of coq; --force replaced it with a deck of cash\n",
            d.display()
        )
    );
    assert_eq!(run("game_specs/examples/cash.toml"), "");
    // Another emission or another game code of the same game is said too, with what
    // differs.
    let other = t.path().join("cash2.toml");
    let text = std::fs::read_to_string(repo("game_specs/examples/cash.toml")).unwrap();
    let code = text
        .lines()
        .find_map(|l| l.strip_prefix("game_code = "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    let edited = text.replacen(&format!("game_code = {code}"), "game_code = 9876", 1);
    std::fs::write(&other, &edited).unwrap();
    assert_eq!(
        run(other.to_str().unwrap()),
        format!(
            "tirage: warning: {} held a deck of cash, game code {code}; --force replaced it with a deck of cash, game code 9876\n",
            d.display()
        )
    );
}

/// `generate --blocks --force` over another game's emission says so, even with `-q`.
#[test]
fn force_over_another_games_emission_says_what_it_replaced() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("em");
    let run = |spec: &str| {
        let o = tirage()
            .arg("generate")
            .arg(repo(spec))
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--force"])
            .args(["--blocks", "1..2", "--out"])
            .arg(&em)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert_eq!(run("tests/specs/coq_small.toml"), "");
    assert_eq!(
        run("game_specs/examples/cash.toml"),
        format!(
            "tirage: warning: {} held an emission of coq; --force replaced it with an emission of cash\n",
            em.display()
        )
    );
    assert_eq!(run("game_specs/examples/cash.toml"), "");
    // Another emission of the same game: both numbers said.
    let e2 = t.path().join("cash_e2.toml");
    let text = std::fs::read_to_string(repo("game_specs/examples/cash.toml")).unwrap();
    assert!(text.contains("[game]\n") && !text.contains("emission ="));
    std::fs::write(&e2, text.replacen("[game]\n", "[game]\nemission = 2\n", 1)).unwrap();
    assert_eq!(
        run(e2.to_str().unwrap()),
        format!(
            "tirage: warning: {} held emission 1 of cash; --force replaced it with emission 2 of cash\n",
            em.display()
        )
    );
}

/// A block or deck written into a folder whose name gives another block number is made,
/// with a warning (even with `-q`) that verify will report it; a folder named for its own
/// block, silently.
#[test]
fn a_folder_named_for_another_block_is_warned_of_when_written() {
    let t = tempfile::tempdir().unwrap();
    let gen = |out: &Path, block: &str| {
        let o = tirage()
            .arg("generate")
            .arg(repo("tests/specs/coq_small.toml"))
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args([
                "--insecure-seed",
                "--seed",
                SEED,
                "-q",
                "--block",
                block,
                "--out",
            ])
            .arg(out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let wrong = t.path().join("coq-001");
    assert_eq!(
        gen(&wrong, "2"),
        format!("tirage: warning: {}'s name says block 1, but it holds block 2: verify reports a folder named for another block (a block is filed, printed and claimed under its own number); rename it\n", wrong.display())
    );
    assert_eq!(gen(&t.path().join("block-002"), "2"), "");
    let deck = t.path().join("block-005");
    let o = tirage()
        .arg("deck")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(&deck)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("tirage: warning: {}'s name says block 5, but it holds a specimen deck (block 0): verify reports a folder named for another block (a block is filed, printed and claimed under its own number); rename it\n", deck.display())
    );
}

/// A warning names its folder on one line: a line feed or an escape in the path is shown
/// escaped, never acted on.
#[test]
fn a_warning_shows_its_folder_escaped() {
    let t = tempfile::tempdir().unwrap();
    let b = t.path().join("x\nfake\u{1b}[31m");
    for (spec, said) in [
        ("tests/specs/coq_small.toml", String::new()),
        (
            "game_specs/examples/cash.toml",
            format!(
                "tirage: warning: {}/x\\nfake\\u{{1b}}[31m held block 1 of coq; --force replaced it with block 1 of cash\n",
                t.path().display()
            ),
        ),
    ] {
        let o = tirage()
            .arg("generate")
            .arg(repo(spec))
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
            .arg(&b)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(String::from_utf8_lossy(&o.stderr), said);
    }
}

/// Every message on standard error shows a path's control characters as escapes, whichever
/// message quotes it: a folder named with an escape sequence never drives the terminal of
/// whoever runs tirage on it. Standard output into a pipe keeps a path as it is (the list
/// of files a script reads).
#[test]
fn messages_show_a_paths_control_characters_escaped() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck\u{1b}[2J\u{7}");
    let o = tirage()
        .arg("deck")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--out")
        .arg(&deck)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("deck seed saved to ") && err.contains("deck\\u{1b}[2J\\u{7}.seed"),
        "{err}"
    );
    assert!(!err.contains(['\u{1b}', '\u{7}']), "{err}");
    let o = tirage()
        .arg("render")
        .arg(&deck)
        .args(["--tickets", "1", "--out"])
        .arg(t.path().join("svg\u{1b}y"))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let listed = String::from_utf8_lossy(&o.stdout);
    assert!(listed.contains("svg\u{1b}y/"), "{listed}");
}

/// A usage error quotes what was typed with its control characters escaped, not acted on
/// nor silently dropped (`print\u{1b}[2Jer` does not read as `printer`); exit 2.
#[test]
fn a_usage_error_shows_what_was_typed_escaped() {
    let o = tirage()
        .args([
            "generate",
            "x.toml",
            "--block",
            "1\r\u{1b}[2J\u{9b}\u{202e}",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).lines().next().unwrap(),
        "error: invalid value '1\\r\\u{1b}[2J\\u{9b}\\u{202e}' for '--block <BLOCK>': invalid digit found in string"
    );
}

/// `verify --json` writes a C1 control, DEL, a direction mark or a tag of a path as JSON's
/// own escapes (`\u009b`, a surrogate pair past U+FFFF): the JSON reads back to the same
/// path, and none of them reaches a terminal raw.
#[test]
fn json_writes_c1_controls_as_json_escapes() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("b\u{9b}\u{7f}\u{202e}\u{e0001}");
    let o = tirage()
        .arg("deck")
        .arg(repo("tests/specs/coq_small.toml"))
        .args(["-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let o = tirage()
        .arg("verify")
        .arg(&dir)
        .args(["--unauthenticated", "--no-audit", "--json"])
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        !out.contains(['\u{9b}', '\u{7f}', '\u{202e}', '\u{e0001}']),
        "{out}"
    );
    assert!(
        out.contains("b\\u009b\\u007f\\u202e\\udb40\\udc01"),
        "{out}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["dir"].as_str(), Some(dir.to_str().unwrap()), "{out}");
}

/// `--force` over block 1 of another emission of the same game says so, naming both
/// emissions: an emission's block 1 is not the other's.
#[test]
fn force_over_another_emissions_block_is_warned_of() {
    let t = tempfile::tempdir().unwrap();
    let spec2 = t.path().join("coq_e2.toml");
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    std::fs::write(&spec2, text.replacen("emission = 1", "emission = 2", 1)).unwrap();
    let b = t.path().join("blk");
    for (spec, said) in [
        (repo("tests/specs/coq_small.toml"), String::new()),
        (
            spec2.clone(),
            format!(
                "tirage: warning: {} held block 1 of coq, emission 1; --force replaced it with block 1 of coq, emission 2\n",
                b.display()
            ),
        ),
        (spec2, String::new()),
    ] {
        let o = tirage()
            .arg("generate")
            .arg(spec)
            .arg("--validation-key")
            .arg(repo(VALIDATION_KEY))
            .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
            .arg(&b)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stderr), said);
    }
}

/// `--force` over a block or emission of the same game id but another game code (the
/// operator's first four digits of every serial) says so, naming both codes.
#[test]
fn force_over_another_game_codes_block_is_warned_of() {
    let t = tempfile::tempdir().unwrap();
    let recoded = t.path().join("coq_1704.toml");
    let text = std::fs::read_to_string(repo("tests/specs/coq_small.toml")).unwrap();
    assert!(text.contains("game_code = 1703"));
    std::fs::write(
        &recoded,
        text.replacen("game_code = 1703", "game_code = 1704", 1),
    )
    .unwrap();
    for (which, held, now) in [
        (
            ["--block", "1"],
            "block 1 of coq, game code 1703",
            "block 1 of coq, game code 1704",
        ),
        (
            ["--blocks", "1..2"],
            "an emission of coq, game code 1703",
            "an emission of coq, game code 1704",
        ),
    ] {
        let out = t.path().join(which[0].trim_start_matches('-'));
        for (spec, said) in [
            (repo("tests/specs/coq_small.toml"), String::new()),
            (
                recoded.clone(),
                format!(
                    "tirage: warning: {} held {held}; --force replaced it with {now}\n",
                    out.display()
                ),
            ),
            (recoded.clone(), String::new()),
        ] {
            let o = tirage()
                .arg("generate")
                .arg(spec)
                .arg("--validation-key")
                .arg(repo(VALIDATION_KEY))
                .args(["--insecure-seed", "--seed", SEED, "-q", "--force"])
                .args(which)
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert_eq!(String::from_utf8_lossy(&o.stderr), said);
        }
    }
    // An emission whose emission.json lists its first block in a folder elsewhere: that
    // folder's game code is not the emission's, and is not read.
    let em = t.path().join("blocks");
    let elsewhere = t.path().join("block");
    let listed = em.join("emission.json");
    let text = std::fs::read_to_string(&listed).unwrap();
    assert!(text.contains("\"dir\": \"block-001\""));
    std::fs::write(
        &listed,
        text.replacen(
            "\"dir\": \"block-001\"",
            &format!("\"dir\": {:?}", elsewhere.display().to_string()),
            1,
        ),
    )
    .unwrap();
    let o = tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--force"])
        .args(["--blocks", "1..2", "--out"])
        .arg(&em)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: warning: {} held an emission of coq, whose manifest gives no game code; --force replaced it with an emission of coq, game code 1703\n",
            em.display()
        )
    );
    // A block whose manifest names no kind tirage makes is not replaced.
    let manifest = elsewhere.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("\"kind\": \"production\"", "\"kind\": \"test\"", 1),
    )
    .unwrap();
    let o = tirage()
        .arg("generate")
        .arg(&recoded)
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--force", "--out"])
        .arg(&elsewhere)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {} holds a block whose manifest.json names no kind tirage makes (production or specimen): --force does not replace it; choose another --out\n",
            elsewhere.display()
        )
    );
}

/// `--help` and `--version` into a full disk fail (exit 2, said on standard error), as
/// every other output does.
#[test]
fn help_that_cannot_be_written_fails() {
    for arg in ["--help", "--version"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_tirage"))
            .arg(arg)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{arg}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            "tirage: error: cannot write to standard output: No space left on device (os error 28)\n"
        );
    }
}
