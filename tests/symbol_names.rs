//! Symbol names written with spaces (`GOLD BAR`, `LUCKY 7`), as registers print them: every
//! style that shows symbols takes them, every file writes them whole and `verify` reads them
//! back; a name with a leading, trailing or doubled space is refused.

mod common;

use common::*;

const SPEC: &str = "tests/specs/spaces_small.toml";

/// The columns of `header` named `prefix` followed by a digit (`mine_1`, `keys_sym2`).
fn columns(header: &csv::StringRecord, prefix: &str) -> Vec<usize> {
    header
        .iter()
        .enumerate()
        .filter(|(_, h)| {
            h.strip_prefix(prefix)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
        .map(|(i, _)| i)
        .collect()
}

/// A block of four styles whose symbols have spaces: tickets.csv writes each name whole and
/// unquoted, every way's face shows the names its rule needs, verify passes on the block
/// and on its deck, and a proof names the winning symbol.
#[test]
fn symbols_with_spaces_round_trip_through_every_file() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&repo(SPEC), &out, 2);
    assert_eq!(verify_code(&out), 0);

    let text = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    assert!(!text.contains('"'), "no field needs quoting");
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().clone();
    let (mine, vault) = (columns(&header, "mine_"), columns(&header, "vault_"));
    let (keys, grid) = (columns(&header, "keys_sym"), columns(&header, "grid_r"));
    assert_eq!(
        (mine.len(), vault.len(), keys.len(), grid.len()),
        (6, 3, 4, 9)
    );
    let count = |row: &csv::StringRecord, cols: &[usize], s: &str| {
        cols.iter().filter(|&&c| &row[c] == s).count()
    };
    let mut by_way = std::collections::BTreeMap::<String, u32>::new();
    let mut bags = 0;
    for row in r.records() {
        let row = row.unwrap();
        assert_eq!(row.len(), header.len());
        let way = row[6].to_string();
        match way.as_str() {
            "gold" => assert_eq!(count(&row, &mine, "GOLD BAR"), 3, "{row:?}"),
            "lucky" | "10x2" => assert_eq!(count(&row, &mine, "LUCKY 7"), 3, "{row:?}"),
            "silver2" => {
                assert_eq!(count(&row, &vault, "SILVER COIN"), 1, "{row:?}");
                assert_eq!(count(&row, &vault, "DOUBLE IT"), 1, "{row:?}");
            }
            "bag" => assert_eq!(count(&row, &keys, "MONEY BAG"), 1, "{row:?}"),
            "line" => assert!(count(&row, &grid, "LUCKY 7") >= 3, "{row:?}"),
            _ => {}
        }
        bags += count(&row, &keys, "MONEY BAG");
        *by_way.entry(way).or_default() += 1;
    }
    // Only the money-bag way shows the money bag.
    assert_eq!(bags, 30);
    assert_eq!(by_way["gold"], 10);
    assert_eq!(by_way["lose"], 700);

    let d = t.path().join("d");
    deck(&repo(SPEC), &d);
    assert_eq!(verify_code(&d), 0);

    // The proof of the first money-bag ticket says what won, where the money bag shows.
    let text = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    let n = text
        .lines()
        .find(|l| l.split(',').nth(6) == Some("bag"))
        .and_then(|l| l.split(',').nth(3))
        .unwrap()
        .to_string();
    let proofs = t.path().join("p");
    tirage()
        .arg("render")
        .arg(&out)
        .args(["--tickets", &n, "--out"])
        .arg(&proofs)
        .assert()
        .success();
    let svg = std::fs::read_to_string(proofs.join(format!("ticket-{n}.svg"))).unwrap();
    assert!(
        svg.contains(">“Your symbols” wins $5 with “Money bag”: MONEY BAG<"),
        "{svg}"
    );
    assert!(svg.contains(">WIN IT<"), "the special's caption under it");
}

/// A symbol with a space at either end or two spaces in a row is refused, naming the file,
/// line and field.
#[test]
fn badly_spaced_symbols_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let spec = std::fs::read_to_string(repo(SPEC)).unwrap();
    for (from, to, said) in [
        (
            "\"PICK AXE\"",
            "\"PICK  AXE\"",
            ":45: surfaces[0].symbols: \"PICK  AXE\" is not a symbol",
        ),
        (
            "\"GOLD COIN\" = 2",
            "\"GOLD COIN \" = 2",
            ":58: surfaces[1].legend: \"GOLD COIN \" is not a symbol",
        ),
        (
            "\"STAR 1\",",
            "\" STAR 1\",",
            ":68: surfaces[2].symbols: \" STAR 1\" is not a symbol",
        ),
    ] {
        assert!(spec.contains(from), "{from}");
        let p = t.path().join("spec.toml");
        std::fs::write(&p, spec.replacen(from, to, 1)).unwrap();
        let o = tirage().arg("check").arg(&p).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "{said}: expected 1 to 64 uppercase letters, digits or _, words separated by single spaces"
            )),
            "{err}"
        );
    }
}

/// Printed tokens a player could confuse: two different tokens of one ticket (symbols,
/// decoys, legend keys, specials, captions, items) that read the same whatever the case,
/// spaces, `_`, hyphens, dots, leading zeros and the letters O and I printed for the digits
/// 0 and 1 are refused, the later one named with its field and line; a symbol whose own
/// caption reads as it is accepted.
#[test]
fn tokens_that_read_alike_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let advice = ": a player could not tell them apart (case, spaces, _ - ., leading zeros, O for 0, I for 1 and look-alike letters of other scripts aside); write them so that they read differently\n";
    for (spec, from, to, said) in [
        (
            SPEC,
            "decoys = [\"OLD BOOT\"",
            "decoys = [\"GOLD_COIN\", \"SILVER_COIN\", \"OLD BOOT\"",
            ":59: surfaces[1].decoys: decoys lists \"GOLD_COIN\", which reads as the legend symbol \"GOLD COIN\" (surfaces[1].legend)",
        ),
        (
            SPEC,
            "\"GOLD BAR\" = \"GOLD BAR\"",
            "\"GOLD BAR\" = \"BIG NUGGET\"",
            ":45: surfaces[0].symbols: symbols lists \"BIG NUGGET\", which reads as the caption \"BIG NUGGET\" of symbol \"GOLD BAR\" (symbol_captions.\"GOLD BAR\")",
        ),
        (
            SPEC,
            "\"GOLD BAR\" = \"GOLD BAR\"",
            "\"GOLD BAR\" = \"GOLD BAR\"\n\"MULE\" = \"gold-bar\"",
            ":30: symbol_captions.\"MULE\": caption \"gold-bar\" of symbol \"MULE\", which reads as the caption \"GOLD BAR\" of symbol \"GOLD BAR\" (symbol_captions.\"GOLD BAR\")",
        ),
        (
            "game_specs/examples/coffre_tout.toml",
            "decoys = [\"ANCRE\"",
            "decoys = [\"GAGNE TOUT\", \"ANCRE\"",
            ":46: surfaces[0].specials[0].caption: caption \"GAGNE TOUT\" of the special symbol \"TOUT\", which reads as the decoy \"GAGNE TOUT\" (surfaces[0].decoys)",
        ),
        (
            "game_specs/examples/coffre_tout.toml",
            "decoys = [\"ANCRE\"",
            "decoys = [\"C0UPE\", \"ANCRE\"",
            ":44: surfaces[0].decoys: decoys lists \"C0UPE\", which reads as the legend symbol \"COUPE\" (surfaces[0].legend)",
        ),
        (
            "game_specs/examples/multi_chance.toml",
            "\"29\", \"30\"]",
            "\"29\", \"O5\"]",
            ":45: surfaces[0].symbols: symbols lists \"O5\", which reads as the symbol \"05\" (surfaces[0].symbols)",
        ),
        (
            "game_specs/examples/multi_chance.toml",
            "\"29\", \"30\"]",
            "\"29\", \"I0\"]",
            ":45: surfaces[0].symbols: symbols lists \"I0\", which reads as the symbol \"10\" (surfaces[0].symbols)",
        ),
        (
            "game_specs/examples/ticket_bonus.toml",
            "\"19\", \"20\"]",
            "\"19\", \"20\", \"3\", \"7\"]",
            ":55: surfaces[0].symbols: symbols lists \"3\", which reads as the symbol \"03\" (surfaces[0].symbols)",
        ),
        (
            "game_specs/examples/ticket_bonus.toml",
            "[[tiers]]\namount = 2 ",
            "[[tiers]]\namount = 1\nitem = \"Free-Ticket\"\ncount = 1\n[[tiers.ways]]\nid = \"one\"\ncount = 1\nwins = [1]\n\n[[tiers]]\namount = 2 ",
            ":105: tiers[4].item (amount 2): item \"FREE TICKET\", which reads as the item \"Free-Ticket\" of tier 3 (tiers[3].item (amount 1))",
        ),
    ] {
        let text = std::fs::read_to_string(repo(spec)).unwrap();
        assert!(text.contains(from), "{from}");
        let p = t.path().join("spec.toml");
        std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
        let o = tirage().arg("check").arg(&p).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.ends_with(&format!("{said}{advice}")), "{err}");
    }
    // A symbol's own caption may read as it.
    let text = std::fs::read_to_string(repo(SPEC)).unwrap();
    let p = t.path().join("spec.toml");
    std::fs::write(
        &p,
        text.replacen(
            "\"GOLD BAR\" = \"GOLD BAR\"",
            "\"GOLD BAR\" = \"Gold-Bar\"",
            1,
        ),
    )
    .unwrap();
    let o = tirage().arg("check").arg(&p).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A special symbol shown in place of an amount (match_amounts) is a printed token too: one
/// that reads as another surface's special symbol is refused.
#[test]
fn a_symbol_in_place_of_an_amount_is_a_printed_token() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("game_specs/examples/double_montant.toml")).unwrap();
    let second = "\n[[surfaces]]\nstyle = \"match_amounts\"\nid = \"dz\"\ncells = 6\n\
                  amounts = [1, 2, 5, 10, 20, 50, 100, 500]\n\
                  specials = [{ symbol = \"S A C\", kind = \"win_all\", caption = \"TOUT GAGNE\" }]\n";
    let (way, moved) = ("areas = [\"dm_sac\"]", "areas = [\"dz_s_a_c\"]");
    assert!(text.contains("\n# Ways of one tier") && text.contains(way));
    let text = text
        .replacen(
            "\n# Ways of one tier",
            &format!("{second}\n# Ways of one tier"),
            1,
        )
        .replacen(way, moved, 1);
    let p = t.path().join("spec.toml");
    std::fs::write(&p, text).unwrap();
    let o = tirage().arg("check").arg(&p).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            ":59: surfaces[1].specials[0].symbol: special symbol \"S A C\", which reads as the \
             special symbol \"SAC\" (surfaces[0].specials[1].symbol): a player could not tell \
             them apart"
        ),
        "{err}"
    );
}
