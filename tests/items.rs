//! Prizes that are not money (a tier's `item`): counted apart from the cash in every file
//! and report, printed where a face shows an amount, named by `claim`, and refused where a
//! face could read two ways.

mod common;

use common::*;
use std::path::Path;

const SPEC: &str = "game_specs/examples/ticket_bonus.toml";

/// `tirage check` on `text` written to `dir/name`: exit code, stdout, stderr.
fn check_text(dir: &Path, text: &str) -> (Option<i32>, String, String) {
    let p = dir.join("spec.toml");
    std::fs::write(&p, text).unwrap();
    let o = tirage().arg("check").arg(&p).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `text` with its first `from` replaced by `to` (which must be there).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the spec");
    text.replacen(from, to, 1)
}

/// The free tickets of the example block: 300 rows of tickets.csv and validation.csv name
/// the item beside its stated value, the face prints the item where it prints an amount,
/// the manifest and `check` give cash and items apart, verify passes, and `claim` names the
/// item.
#[test]
fn a_free_ticket_is_named_and_counted_apart_in_every_file() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&repo(SPEC), &out, 2);
    assert_eq!(verify_code(&out), 0);

    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "block,pack,pack_position,ticket,serial,prize,way,item,bonus_win1,bonus_win2,\
         bonus_sym1,bonus_sym2,bonus_sym3,bonus_sym4,bonus_sym5,\
         bonus_amt1,bonus_amt2,bonus_amt3,bonus_amt4,bonus_amt5,\
         bonus_cap1,bonus_cap2,bonus_cap3,bonus_cap4,bonus_cap5"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2000);
    let (mut cash, mut items, mut free) = (0u64, 0u64, 0u64);
    for r in &rows {
        let prize: u64 = r[5].parse().unwrap();
        // The spots whose symbol is a winning number: their amount and caption.
        let won: Vec<(&str, &str)> = (0..5)
            .filter(|&i| r[8..10].contains(&r[10 + i]))
            .map(|i| (r[15 + i], r[20 + i]))
            .collect();
        // Wherever a spot shows the item, in figures, its caption is the item too.
        for i in 0..5 {
            assert_eq!(
                r[15 + i] == "FREE TICKET",
                r[20 + i] == "FREE TICKET",
                "{r:?}"
            );
        }
        if r[6] == "free" {
            free += 1;
            items += prize;
            assert_eq!((r[5], r[7]), ("2", "FREE TICKET"), "{r:?}");
            assert_eq!(won, [("FREE TICKET", "FREE TICKET")], "{r:?}");
        } else {
            cash += prize;
            assert_eq!(r[7], "", "{r:?}");
            assert!(!won.contains(&("FREE TICKET", "FREE TICKET")), "{r:?}");
        }
    }
    assert_eq!((free, items, cash), (300, 600, 1400));

    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["payout"], "2000");
    assert_eq!(m["cash_payout"], "1400");
    assert_eq!(m["item_value"], "600");
    assert_eq!(m["tiers"][3]["item"], "FREE TICKET");
    assert_eq!(m["tiers"][3]["amount"], "2");
    assert!(m["tiers"][0].get("item").is_none());

    let val = std::fs::read_to_string(out.join("validation.csv")).unwrap();
    assert!(val.starts_with("claim,way,prize,item\n"));
    assert_eq!(val.matches(",free,2,FREE TICKET\n").count(), 300);
    assert_eq!(val.matches(",lose,0,\n").count(), 2000 - 542);
    assert_eq!(val.matches(",4,4,\n").count(), 200);

    // The central system's answer names the item and says it is not money.
    let codes = codes(&out);
    let k = rows.iter().position(|r| r[6] == "free").unwrap();
    let o = tirage()
        .arg("claim")
        .arg(&out)
        .args([
            "--serial",
            rows[k][4],
            "--code",
            &codes[k],
            "--unauthenticated",
        ])
        .output()
        .unwrap();
    // A test block's ticket: refused, never payable.
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!(
            "{}: NOT PAYABLE — a TEST BLOCK's ticket (made with a test seed), never for sale; it would win FREE TICKET, not money (stated value 2 USD; way free)\n",
            rows[k][4]
        )
    );

    let (code, said, err) = check_text(t.path(), &std::fs::read_to_string(repo(SPEC)).unwrap());
    assert_eq!(code, Some(0), "{err}");
    assert!(
        said.contains("cash payout 1,400 USD (35.00 %) ; items at their stated value 600 USD (15.00 %) ; total 2,000 USD\n"),
        "{said}"
    );
    assert!(said.contains("(item: FREE TICKET, not money; amount is its stated value)"));
    // The rules in words say where the item is printed, before the surfaces' settings
    // that give amounts in figures.
    let item = "Prize not money: \"FREE TICKET\" (300 of the block's tickets) is printed wherever a face would show 2 USD, in amount cells, amount boxes and pay legends alike; below, 2 stands for it. It wins \"FREE TICKET\", not cash; 2 USD is its stated value, counted apart from the cash payout.\n";
    let at = said.find(item).expect(&said);
    assert!(at > said.find("the rules in words").unwrap());
    assert!(at < said.find("surface \"bonus\"").unwrap());
    assert_eq!(said.matches("Prize not money").count(), 1);
}

/// A validation file whose item column is emptied (an item turned into cash) is no file of
/// the block: `claim` refuses it, naming the line, and verify fails the block.
#[test]
fn an_item_turned_into_cash_in_the_validation_file_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&repo(SPEC), &out, 2);
    let path = out.join("validation.csv");
    let val = std::fs::read_to_string(&path).unwrap();
    let k = val
        .lines()
        .position(|l| l.ends_with(",free,2,FREE TICKET"))
        .unwrap();
    let forged: String = val
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == k {
                l.replace(",free,2,FREE TICKET", ",free,2,") + "\n"
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&path, forged).unwrap();
    let rows: Vec<String> = std::fs::read_to_string(out.join("tickets.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    let serial = rows[0].split(',').nth(4).unwrap().to_string();
    let o = tirage()
        .arg("claim")
        .arg(&out)
        .args([
            "--serial",
            &serial,
            "--code",
            &codes(&out)[0],
            "--unauthenticated",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    // The row is read against the lot table before the file's digest is: an item is
    // never paid as cash even from a file whose digests were forged to match.
    assert!(
        err.contains(&format!(
            "validation.csv:{}: way \"free\" with prize \"2\" and item \"\" is no way of the lot table in manifest.json",
            k + 1
        )),
        "{err}"
    );
    assert_ne!(verify_code(&out), 0);
}

/// Where a face could read two ways, an item could be read as money (a currency sign, a
/// number, a currency's word, an amount in words), or an item could not be written in every
/// file, the spec is refused with the tier named.
#[test]
fn items_that_a_face_could_misread_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let ok = std::fs::read_to_string(repo(SPEC)).unwrap();
    let cases = [
        // Another tier wins the item's stated value: a face showing 2 shows the item.
        (
            edit(&ok, "id = \"4\"\ncount = 200\nwins = [4]", "id = \"4\"\ncount = 200\nwins = [2, 2]"),
            "tiers[2].ways (amount 4): way \"4\" wins 2, the stated value of the item \"FREE TICKET\" (tier 3): a face showing 2 shows the item, so no other tier may win it",
        ),
        // The item is a caption too.
        (
            edit(&ok, "\"4\" = \"FOUR DOLLARS\"", "\"4\" = \"FOUR DOLLARS\"\n\"2\" = \"TWO DOLLARS\""),
            "tiers[3].item (amount 2): [captions] has \"2\", the stated value of this item",
        ),
        (
            edit(&ok, "\"4\" = \"FOUR DOLLARS\"", "\"4\" = \"free ticket\""),
            "tiers[3].item (amount 2): item \"FREE TICKET\" reads as the caption of 4 (\"free ticket\"): a reader could not tell them apart",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"FREE, TICKET\""),
            "tiers[3].item (amount 2): \"FREE, TICKET\": an item is printed where a face shows an amount",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"=FREE\""),
            "tiers[3].item (amount 2): \"=FREE\": an item is printed",
        ),
        // An item that reads as money, where the face prints amounts.
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"$100\""),
            "tiers[3].item (amount 2): item \"$100\" shows a currency sign ($): an item is printed where a face shows an amount, so it says a prize that is not money without a number, a currency or an amount in words (\"FREE TICKET\", \"TICKET GRATUIT\")",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"\\uff11\\uff10\\uff10\""),
            "tiers[3].item (amount 2): item \"\u{ff11}\u{ff10}\u{ff10}\" shows a number (\u{ff11})",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"ONE HUNDRED DOLLARS.\""),
            "tiers[3].item (amount 2): item \"ONE HUNDRED DOLLARS.\" names a currency (\"DOLLARS\")",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"CENT\""),
            "tiers[3].item (amount 2): item \"CENT\" reads as 100 in fr",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"BON CINQUANTE\""),
            "tiers[3].item (amount 2): item \"BON CINQUANTE\" says 50 in words",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"FIFTY EUR\""),
            "tiers[3].item (amount 2): item \"FIFTY EUR\" names a currency (\"EUR\")",
        ),
        (
            edit(&ok, "item = \"FREE TICKET\"", "item = \"FREE TICKET\"\ncombined_only = true"),
            "tiers[3].item (amount 2): a prize that is not money is won alone: it cannot be combined_only",
        ),
        // A 5X special over the item would pay it as cash, five times its value.
        (
            edit(
                &ok,
                "decoy_weights",
                "specials = [{ symbol = \"5X\", kind = \"multiplier\", times = 5 }]\ndecoy_weights",
            ),
            "tiers[3].item (amount 2): a prize that is not money is never multiplied nor added to cash, but this game multiplies wins",
        ),
        (
            edit(&ok, "[labels]", "[box]\nmultipliers = [1, 2]\n\n[labels]"),
            "tiers[3].item (amount 2): a prize that is not money is never multiplied nor added to cash",
        ),
    ];
    for (text, want) in cases {
        let (code, _, err) = check_text(t.path(), &text);
        assert_eq!(code, Some(2), "{want}: {err}");
        assert!(err.contains(want), "want {want:?}\n got {err}");
    }
    // Two wins for an item: refused with the way named.
    let text = edit(&ok, "count = 300\nwins = [2]", "count = 300\nwins = [1, 1]");
    let (code, _, err) = check_text(t.path(), &text);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("tiers[3].item (amount 2): way \"free\" has 2 wins: a prize that is not money is won alone, in one play area (wins = [2])"),
        "{err}"
    );
}

/// A number's caption says that number alone (`"03" = "SEVEN"` swapped with `"07" =
/// "THREE"` would print 03 over seven; `"05" = "FIVE DOLLARS"` a prize under a spot
/// number): each is refused naming the key, its line and what it says.
#[test]
fn symbol_captions_that_say_another_number_or_an_amount_are_refused() {
    let t = tempfile::tempdir().unwrap();
    let ok = std::fs::read_to_string(repo(SPEC)).unwrap();
    let swapped = edit(
        &edit(&ok, "\"03\" = \"THREE\"", "\"03\" = \"SEVEN\""),
        "\"07\" = \"SEVEN\"",
        "\"07\" = \"THREE\"",
    );
    let prize = edit(&ok, "\"05\" = \"FIVE\"", "\"05\" = \"FIVE DOLLARS\"");
    let unclear = edit(&ok, "\"05\" = \"FIVE\"", "\"05\" = \"FIVE TWO\"");
    let french = edit(&ok, "\"03\" = \"THREE\"", "\"03\" = \"SEPT\"");
    let figures = edit(&ok, "\"03\" = \"THREE\"", "\"03\" = \"9\"");
    let line =
        |text: &str, start: &str| text.lines().position(|l| l.starts_with(start)).unwrap() + 1;
    for (text, start, want) in [
        (
            &swapped,
            "\"03\" = ",
            "symbol_captions.\"03\": caption \"SEVEN\" of symbol \"03\" says 7, not 3: a number's caption says that number alone",
        ),
        (
            &prize,
            "\"05\" = ",
            "symbol_captions.\"05\": caption \"FIVE DOLLARS\" of symbol \"05\" names a currency (\"DOLLARS\"): a number's caption says that number alone",
        ),
        (
            &french,
            "\"03\" = ",
            "symbol_captions.\"03\": caption \"SEPT\" of symbol \"03\" says 7, not 3: a number's caption says that number alone",
        ),
        (
            &figures,
            "\"03\" = ",
            "symbol_captions.\"03\": caption \"9\" of symbol \"03\" says 9, not 3: a number's caption says that number alone",
        ),
        (
            &unclear,
            "\"05\" = ",
            "symbol_captions.\"05\": caption \"FIVE TWO\" of symbol \"05\" says 2, not 5: a number's caption says that number alone",
        ),
    ] {
        let (code, _, err) = check_text(t.path(), text);
        assert_eq!(code, Some(2), "{want}: {err}");
        let at = format!(":{}: {want}", line(text, start));
        assert!(err.contains(&at), "want {at:?}\n got {err}");
    }
    // A caption that is no number in words is the spec's to choose (ELEVN under 11).
    let free = edit(&ok, "\"05\" = \"FIVE\"", "\"05\" = \"FIVR\"");
    assert_eq!(check_text(t.path(), &free).0, Some(0));
}

/// Play symbols' captions (`[symbol_captions]`): a proof draws each under its symbol, the
/// files keep the symbol alone; a key that no face shows, or two symbols sharing a caption,
/// is refused naming the key.
#[test]
fn symbol_captions_are_printed_under_their_symbols_and_checked() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("b");
    generate(&repo(SPEC), &out, 1);
    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    assert!(!csv.contains("SIXTN"));
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let sym1 = header.iter().position(|&h| h == "bonus_sym1").unwrap();
    // The first ticket whose first spot shows 16: its proof prints SIXTN under it.
    let (k, _) = csv
        .lines()
        .skip(1)
        .enumerate()
        .find(|(_, l)| l.split(',').nth(sym1) == Some("16"))
        .unwrap();
    let proofs = t.path().join("p");
    let o = tirage()
        .arg("render")
        .arg(&out)
        .args(["--tickets", &(k + 1).to_string(), "--out"])
        .arg(&proofs)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(proofs.join(format!("ticket-{}.svg", k + 1))).unwrap();
    assert!(svg.contains(">SIXTN</text>"), "{svg}");

    let ok = std::fs::read_to_string(repo(SPEC)).unwrap();
    let (code, _, err) = check_text(
        t.path(),
        &edit(&ok, "\"03\" = \"THREE\"", "\"04\" = \"FOUR\""),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("symbol_captions.\"04\": \"04\" is no play symbol of this game's faces; expected one of: 03, 05, 07, 08, 11, 12, 13, 14, 16, 17, 19, 20"),
        "{err}"
    );
    let (code, _, err) = check_text(
        t.path(),
        &edit(&ok, "\"12\" = \"TWELV\"", "\"12\" = \"elevn\""),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("symbol_captions.\"12\": caption \"elevn\" of symbol \"12\", which reads as the caption \"ELEVN\" of symbol \"11\" (symbol_captions.\"11\")"),
        "{err}"
    );
}

/// A match-three game whose legend pays a free ticket for three clovers.
const LEGEND_ITEM: &str = r#"
[game]
id = "free_clover"
name = "FREE CLOVER"
legal_reference = "Test game (invented)"
currency = "USD"
language = "en"
price = 2
block_size = 1_000
pack_size = 50
game_code = 9032

[published]
lots = 240
payout = 800

[[surfaces]]
style = "match_symbols"
id = "field"
cells = 6
per_row = 3
symbols = ["CLOVER", "HORSE SHOE", "BELL", "STAR", "MOON", "SUN"]

[[surfaces.games]]
id = "field_g"
match = 3
legend = { CLOVER = 2, "HORSE SHOE" = 10 }

[[tiers]]
amount = 10
count = 40
[[tiers.ways]]
id = "shoe"
count = 40
wins = [10]

[[tiers]]
amount = 2
item = "FREE TICKET"
count = 200
[[tiers.ways]]
id = "free"
count = 200
wins = [2]
"#;

/// A pay legend's entry whose amount is an item's stated value prints the item, on a
/// block's proofs and on the designer's preview alike; the files are judged as ever.
#[test]
fn a_legend_prints_an_item_as_the_item() {
    let t = tempfile::tempdir().unwrap();
    let spec = t.path().join("free_clover.toml");
    std::fs::write(&spec, LEGEND_ITEM).unwrap();
    let out = t.path().join("b");
    generate(&spec, &out, 1);
    assert_eq!(verify_code(&out), 0);
    let csv = std::fs::read_to_string(out.join("tickets.csv")).unwrap();
    assert_eq!(csv.matches(",free,FREE TICKET,").count(), 200);

    let proofs = t.path().join("p");
    tirage()
        .arg("render")
        .arg(&out)
        .args(["--tickets", "1", "--out"])
        .arg(&proofs)
        .assert()
        .success();
    let svg = std::fs::read_to_string(proofs.join("ticket-1.svg")).unwrap();
    assert!(
        svg.contains(">CLOVER = FREE TICKET · HORSE SHOE = $10</text>"),
        "{svg}"
    );
    assert!(!svg.contains("CLOVER = $2"));

    let page = t.path().join("preview");
    tirage()
        .arg("preview")
        .arg(&spec)
        .args(["-q", "--out"])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    assert!(html.contains(">CLOVER = FREE TICKET · HORSE SHOE = $10<"));
    assert!(!html.contains("CLOVER = $2"));
    // The rules in words on the page say where the item is printed.
    assert!(html.contains("<p>Prize not money: &quot;FREE TICKET&quot; (200 of the block's tickets) is printed wherever a face would show 2 USD,"), "{html}");
}

/// A proof of a ticket that wins a prize not money names the item, in the verdict (at its
/// stated value) and in the winning play area's note, in English and in French; never a
/// sum of money as if it were cash.
#[test]
fn a_proof_names_a_prize_that_is_not_money() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo(SPEC)).unwrap();
    let fr = t.path().join("fr.toml");
    // In French, with its amounts' captions in French words.
    let french = [
        ("language = \"en\"", "language = \"fr\""),
        ("FOUR DOLLARS", "QUATRE DOLLARS"),
        ("FIVE DOLLARS", "CINQ DOLLARS"),
        ("TEN DOLLARS", "DIX DOLLARS"),
        ("FIFTY DOLLARS", "CINQUANTE DOLLARS"),
        ("ONE HUNDRED DOLLARS", "CENT DOLLARS"),
    ]
    .iter()
    .fold(text.clone(), |t, (from, to)| edit(&t, from, to));
    std::fs::write(&fr, french).unwrap();
    for (spec, verdict, note, row) in [
        (
            repo(SPEC),
            ">Proof: prize FREE TICKET (stated value $2) · way free</text>",
            "“Your numbers” wins FREE TICKET",
            "free FREE TICKET (stated value $2) 300",
        ),
        (
            fr,
            ">Épreuve : gain FREE TICKET (valeur déclarée 2 $) · combinaison free</text>",
            "« Your numbers » gagne FREE TICKET",
            "free FREE TICKET (valeur déclarée 2 $) 300",
        ),
    ] {
        let out = t.path().join("b");
        let _ = std::fs::remove_dir_all(&out);
        generate(&spec, &out, 1);
        // `render` of the block's free tickets in `packs`, into `to` (`--out` or `--pdf`).
        let render = |packs: &str, to: (&str, &Path)| {
            let o = tirage()
                .arg("render")
                .arg(&out)
                .args(["--way", "free", "--pack", packs, "-q", "--force", to.0])
                .arg(to.1)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
        };
        let proofs = t.path().join("p");
        render("1..5", ("--out", &proofs));
        let svgs: Vec<String> = std::fs::read_dir(&proofs)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        assert!(!svgs.is_empty());
        for svg in &svgs {
            assert!(svg.contains(verdict), "{svg}");
            assert!(svg.contains(note), "{svg}");
            assert!(
                !svg.contains("wins $2") && !svg.contains("gagne 2 $"),
                "{svg}"
            );
        }
        std::fs::remove_dir_all(&proofs).unwrap();
        // The proof sheet's table of ways names it so too, never as an amount alone.
        let pdf = t.path().join("sheet.pdf");
        render("1", ("--pdf", &pdf));
        let text = pdftotext(&pdf);
        let cover = text.split('\u{c}').next().unwrap();
        // pdftotext puts each cell on a line of its own, and may drop a space before the sign.
        let bare = |s: &str| s.split_whitespace().collect::<String>();
        assert!(
            bare(cover).contains(&bare(row)),
            "{row:?} not on the cover:\n{cover}"
        );
        std::fs::remove_file(&pdf).unwrap();
    }
}
