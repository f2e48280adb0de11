//! Ticket proofs: `tirage render` writes SVGs that a maintained SVG library parses and
//! renders, showing the ticket's serial, its symbols, amounts and captions, taken from its
//! print record with the prize and way the rules give; a block whose files do not match
//! SHA256SUMS, or whose CSV row disagrees with the record, or a face the rules refuse, gets
//! no proof.

mod common;

use common::*;

#[test]
fn proofs_parse_and_render_to_png() {
    let t = tempfile::tempdir().unwrap();
    let block = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &block, 1);
    let out = t.path().join("proofs");
    tirage()
        .arg("render")
        .arg(&block)
        .args(["--tickets", "1,5,3000", "--out"])
        .arg(&out)
        .assert()
        .success();
    let csv = std::fs::read_to_string(block.join("tickets.csv")).unwrap();
    for t in [1usize, 5, 3000] {
        let svg = std::fs::read_to_string(out.join(format!("ticket-{t}.svg"))).unwrap();
        let row: Vec<&str> = csv.lines().nth(t).unwrap().split(',').collect();
        assert!(svg.contains(row[4]), "serial of ticket {t}");
        for cell in &row[7..] {
            assert!(
                svg.contains(cell) || drawn(&svg, cell),
                "ticket {t}: {cell} not drawn"
            );
        }
        assert!(!svg.contains("SPECIMEN"));
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_system_fonts();
        let opt = resvg::usvg::Options {
            fontdb: std::sync::Arc::new(db),
            ..Default::default()
        };
        let tree = resvg::usvg::Tree::from_str(&svg, &opt).expect("valid SVG");
        let size = tree.size().to_int_size();
        let mut pix = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pix.as_mut(),
        );
        let png = pix.encode_png().unwrap();
        assert!(png.len() > 1000);
        // The barcode's bars are black pixels.
        assert!(pix
            .pixels()
            .iter()
            .any(|p| p.red() == 0 && p.green() == 0 && p.blue() == 0 && p.alpha() == 255));
    }
}

#[test]
fn a_specimen_proof_says_so_and_a_missing_ticket_is_an_error() {
    let t = tempfile::tempdir().unwrap();
    let deck = t.path().join("deck");
    common::deck(&repo("tests/specs/coq_small.toml"), &deck);
    tirage()
        .arg("render")
        .arg(&deck)
        .args(["--tickets", "2"])
        .assert()
        .success();
    let svg = std::fs::read_to_string(deck.join("proofs/ticket-2.svg")).unwrap();
    assert!(svg.contains("SPECIMEN"));
    let o = tirage()
        .arg("render")
        .arg(&deck)
        .args(["--tickets", "999"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("ticket 999 is not in the block: its tickets are 1 to 42"),
        "{err}"
    );
    // Spaces after the commas are fine, and a ticket asked twice is drawn once.
    let o = tirage()
        .arg("render")
        .arg(&deck)
        .args(["--tickets", "3, 1,3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let listed = String::from_utf8_lossy(&o.stdout);
    let names: Vec<&str> = listed
        .lines()
        .map(|l| l.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(names, ["ticket-3.svg", "ticket-1.svg"]);
}

/// Rewrites `dir/SHA256SUMS` with the digests of the files it lists, as they are now (what
/// someone re-sealing an edited block would do).
fn reseal(dir: &std::path::Path) {
    use sha2::{Digest, Sha256};
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    let mut out = String::new();
    for line in sums.lines() {
        let name = &line[66..];
        let bytes = std::fs::read(dir.join(name)).unwrap();
        out.push_str(&format!(
            "{}  {name}\n",
            hex::encode(Sha256::digest(&bytes))
        ));
    }
    std::fs::write(dir.join("SHA256SUMS"), out).unwrap();
}

fn sha256_hex(path: &std::path::Path) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(std::fs::read(path).unwrap()))
}

/// Byte offset of ticket `t`'s record in `tickets.bin` (header size at byte 12, record size
/// at byte 10).
fn record_offset(bin: &[u8], t: usize) -> usize {
    let header = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as usize;
    let record = u16::from_le_bytes([bin[10], bin[11]]) as usize;
    header + (t - 1) * record
}

/// Writes `face` (one text per face column) into ticket `t`'s record of `dir/tickets.bin`,
/// as codes into the spec's column values.
fn write_face(dir: &std::path::Path, t: usize, face: &[&str]) {
    let spec = tirage::spec::GameSpec::load(&dir.join("spec.toml")).unwrap();
    let cols = spec.mechanic.columns();
    assert_eq!(cols.len(), face.len());
    let path = dir.join("tickets.bin");
    let mut bin = std::fs::read(&path).unwrap();
    let at = record_offset(&bin, t) + 38;
    for (i, (c, v)) in cols.iter().zip(face).enumerate() {
        bin[at + i] = c.values.iter().position(|x| x == v).unwrap() as u8;
    }
    std::fs::write(&path, bin).unwrap();
}

/// The CSV rows of a block (header excluded), split into fields.
fn rows(dir: &std::path::Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(dir.join("tickets.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn render(dir: &std::path::Path, ticket: usize, out: &std::path::Path) -> std::process::Output {
    tirage()
        .arg("render")
        .arg(dir)
        .args(["--tickets", &ticket.to_string(), "--out"])
        .arg(out)
        .output()
        .unwrap()
}

fn coq_block(t: &tempfile::TempDir) -> std::path::PathBuf {
    let block = t.path().join("b");
    generate(&repo("tests/specs/coq_small.toml"), &block, 1);
    block
}

#[test]
fn a_csv_edited_after_sealing_is_refused_and_no_proof_is_written() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let out = t.path().join("proofs");
    // A ticket of way "2" made to show a prize of 20000 in tickets.csv.
    let all = rows(&block);
    let n = all.iter().position(|r| r[6] == "2").unwrap() + 1;
    let csv_path = block.join("tickets.csv");
    let sealed = sha256_hex(&csv_path);
    let mut lines: Vec<String> = std::fs::read_to_string(&csv_path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut row = all[n - 1].clone();
    assert_eq!(row[5], "2");
    row[5] = "20000".into();
    lines[n] = row.join(",");
    std::fs::write(&csv_path, lines.join("\n") + "\n").unwrap();

    let o = render(&block, n, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: SHA-256 {}, SHA256SUMS says {sealed}: the file changed after the block was sealed\n",
            csv_path.display(),
            sha256_hex(&csv_path)
        )
    );
    assert!(!out.exists(), "no proof is written");

    // Re-sealed, the digests pass, but the row is not the one of the print record.
    reseal(&block);
    let o = render(&block, n, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: ticket {n}: its tickets.csv row differs from its record in tickets.bin and the prize and way the rules give: prize: tickets.csv has \"20000\", expected \"2\"\n"
        )
    );
    assert!(!out.exists(), "no proof is written");
}

#[test]
fn a_spec_edited_after_sealing_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let spec = block.join("spec.toml");
    let sealed = sha256_hex(&spec);
    let mut text = std::fs::read_to_string(&spec).unwrap();
    text.push_str("# edited\n");
    std::fs::write(&spec, text).unwrap();
    let out = t.path().join("proofs");
    let o = render(&block, 1, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: SHA-256 {}, SHA256SUMS says {sealed}: the file changed after the block was sealed\n",
            spec.display(),
            sha256_hex(&spec)
        )
    );
    assert!(!out.exists());
}

#[test]
fn a_proof_shows_the_print_record_and_the_prize_the_rules_give() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let out = t.path().join("proofs");
    let all = rows(&block);
    let n = all.iter().position(|r| r[6] == "lose").unwrap() + 1;
    let before = all[n - 1].clone();
    assert_eq!(before[5], "0");
    // Two COQ win GAIN 1 (8, game 1); no vœu repeats, so game 2 loses: prize 8, way "8".
    let face = [
        "COQ",
        "COQ",
        "RAT",
        "BUFFLE",
        "TIGRE",
        "LAPIN",
        "DRAGON",
        "SERPENT",
        "8",
        "HUIT EUROS",
        "4",
        "QUATRE EUROS",
    ];
    write_face(&block, n, &face);
    reseal(&block);

    // The CSV row still says what the block was sealed with: refused, naming each column.
    let names: Vec<String> = std::fs::read_to_string(block.join("tickets.csv"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let mut after = before[..5].to_vec();
    after.extend(["8".to_string(), "8".to_string()]);
    after.extend(face.iter().map(|s| s.to_string()));
    let diffs: Vec<String> = (0..names.len())
        .filter(|&j| before[j] != after[j])
        .map(|j| {
            format!(
                "{}: tickets.csv has {:?}, expected {:?}",
                names[j], before[j], after[j]
            )
        })
        .collect();
    assert!(diffs.len() >= 3, "prize, way and at least one cell differ");
    let o = render(&block, n, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: ticket {n}: its tickets.csv row differs from its record in tickets.bin and the prize and way the rules give: {}\n",
            diffs.join("; ")
        )
    );
    assert!(!out.exists());

    // With the CSV row made to agree and the block re-sealed, the proof shows the print
    // record's face and the prize and way the rules give for it.
    let csv_path = block.join("tickets.csv");
    let mut lines: Vec<String> = std::fs::read_to_string(&csv_path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    lines[n] = after.join(",");
    std::fs::write(&csv_path, lines.join("\n") + "\n").unwrap();
    reseal(&block);
    let o = render(&block, n, &out);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(out.join(format!("ticket-{n}.svg"))).unwrap();
    assert!(svg.contains(">Proof: prize 8 EUR · way 8</text>"), "{svg}");
    assert!(svg.contains(&format!(
        ">Block 1 · pack {} · position {} · ticket {n} · serial {}</text>",
        before[1], before[2], before[4]
    )));
    // Each cell shows its value, an amount in euros with its caption under it; the panels
    // carry their ids, since this spec gives no [labels].
    for (name, v) in names[7..].iter().zip(face) {
        let shown = if name.starts_with("gain") && !name.ends_with("_caption") {
            format!(">{v} €</text>")
        } else {
            format!(">{v}</text>")
        };
        assert!(
            svg.contains(&shown) || drawn(&svg, v),
            "{name} = {v} not drawn"
        );
        assert!(
            !svg.contains(&format!(">{name}</text>")),
            "{name}: a column name"
        );
    }
    for id in ["cells", "jeu1", "jeu2"] {
        assert_eq!(svg.matches(&format!(">{id}</text>")).count(), 1, "{id}");
    }
    // Jeu 1 wins with its two COQ and GAIN 1; Jeu 2 shows no vœu, so GAIN 2 is its decoy.
    assert_eq!(svg.matches(">WIN</text>").count(), 3);
    assert_eq!(svg.matches(">DECOY</text>").count(), 1);
    assert_eq!(svg.matches(">NEAR MISS</text>").count(), 0);
    assert!(svg.contains(">jeu1 wins 8 EUR: COQ COQ</text>"), "{svg}");
    assert_eq!(svg.matches(">COQ</text>").count(), 2);
}

#[test]
fn a_face_the_rules_judge_ambiguous_or_unrecognised_has_no_proof() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let out = t.path().join("proofs");
    let n = rows(&block).iter().position(|r| r[6] == "lose").unwrap() + 1;
    let cells = ["RAT", "BUFFLE", "TIGRE", "LAPIN", "DRAGON"];
    let boxes = ["8", "HUIT EUROS", "4", "QUATRE EUROS"];
    // Three COQ: "two identical" may or may not be met.
    let face: Vec<&str> = ["COQ", "COQ", "COQ"]
        .into_iter()
        .chain(cells)
        .chain(boxes)
        .collect();
    write_face(&block, n, &face);
    reseal(&block);
    let o = render(&block, n, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("tirage: error: ticket {n}: the rules judge the face in tickets.bin ambiguous (a winning symbol shown more times than its play area's match); no proof is drawn of it\n")
    );
    assert!(!out.exists());

    // Two COQ under a GAIN 1 of 20: a prize of 20, which is no tier of coq.
    let face: Vec<&str> = ["COQ", "COQ", "SERPENT"]
        .into_iter()
        .chain(cells)
        .chain(["20", "VINGT EUROS", "4", "QUATRE EUROS"])
        .collect();
    write_face(&block, n, &face);
    reseal(&block);
    let o = render(&block, n, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("tirage: error: ticket {n}: the face in tickets.bin wins 20 in jeu1 (prize 20 EUR), which is no way of the spec; no proof is drawn of it\n")
    );
    assert!(!out.exists());
}

#[test]
fn help_says_where_a_proofs_data_comes_from() {
    let o = tirage().args(["render", "--help"]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    for line in [
        "face, serial, barcode, pack, position: the ticket's record in tickets.bin (the print file)",
        "prize, way: the spec's rules evaluating that face (no CSV column is drawn)",
        "- spec.toml, manifest.json, tickets.bin, tickets.csv match SHA256SUMS (each read once;",
        "- the ticket's tickets.csv row is the row of that record, prize and way",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
}

/// A poker proof writes each card's inscription in letters (art. 3.2–3.3) under its code,
/// from the spec's rank and suit captions.
#[test]
fn poker_proofs_write_each_card_in_letters() {
    let t = tempfile::tempdir().unwrap();
    let block = t.path().join("p");
    generate(&repo("tests/specs/poker_small.toml"), &block, 1);
    tirage()
        .arg("render")
        .arg(&block)
        .args(["--tickets", "1"])
        .assert()
        .success();
    let svg = std::fs::read_to_string(block.join("proofs/ticket-1.svg")).unwrap();
    let csv = std::fs::read_to_string(block.join("tickets.csv")).unwrap();
    let head: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let rank = |c: char| match c {
        '2' => "DEUX",
        '3' => "TROIS",
        '4' => "QUATRE",
        '5' => "CINQ",
        '6' => "SIX",
        '7' => "SEPT",
        '8' => "HUIT",
        '9' => "NEUF",
        'T' => "DIX",
        'J' => "VALET",
        'Q' => "DAME",
        'K' => "ROI",
        'A' => "AS",
        _ => panic!("rank {c}"),
    };
    let suit = |c: char| match c {
        'c' => "TREFLE",
        'd' => "CARREAU",
        'h' => "COEUR",
        's' => "PIQUE",
        _ => panic!("suit {c}"),
    };
    let mut cards = 0;
    for (name, code) in head.iter().zip(&row) {
        if name.ends_with("_c1")
            || name.ends_with("_c2")
            || name.starts_with('b') && name.len() == 2
        {
            let mut ch = code.chars();
            let (r, s) = (ch.next().unwrap(), ch.next().unwrap());
            let words = format!("{} DE {}", rank(r), suit(s));
            assert!(drawn(&svg, &words), "{name} {code}: {words} not drawn");
            cards += 1;
        }
    }
    assert_eq!(cards, 13);
}

/// Whether `text` is drawn in `svg`: as one text element, or as two in a row (a caption
/// too long for its cell goes on two lines).
fn drawn(svg: &str, text: &str) -> bool {
    let texts: Vec<&str> = svg
        .lines()
        .filter_map(|l| {
            l.split_once('>')
                .and_then(|(_, r)| r.strip_suffix("</text>"))
        })
        .collect();
    texts.contains(&text)
        || texts
            .windows(2)
            .any(|w| format!("{} {}", w[0], w[1]) == text)
}

/// The manifest of a block, parsed.
fn manifest(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn a_deck_proof_sheet_is_a_searchable_pdf_with_a_cover_and_every_ticket() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("game_specs/coq.toml"), &d);
    let pdf = t.path().join("sheet.pdf");
    // No --tickets: every ticket of the deck.
    let o = tirage()
        .arg("render")
        .arg(&d)
        .arg("--pdf")
        .arg(&pdf)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("{}\n", pdf.display())
    );
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-1.7"));
    let text = std::process::Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    // The cover: the game, its reference, the composition of the deck.
    let cover = pages[0];
    for line in [
        "Proof sheet",
        "SPECIMEN",
        "ASTRO ANNEE DU COQ",
        "Règlement particulier « ASTRO ANNEE DU COQ », JORF n°0303 du 30 décembre 2016",
        "Game code 1703 · emission 1 · block 0 · 42 tickets in packs of 150",
        "near miss jeu1",
    ] {
        assert!(cover.contains(line), "{line:?} not on the cover:\n{cover}");
    }
    let csv = std::fs::read_to_string(d.join("tickets.csv")).unwrap();
    for id in ["20000", "500+500", "100+100", "10+20", "10+8", "4+4", "2+2"] {
        assert!(
            cover.lines().any(|l| l.trim() == id),
            "way {id} not on the cover"
        );
    }
    // Every ticket's serial is text on exactly one page after the cover, with the play
    // areas under their printed names.
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 42);
    for r in &rows {
        let on: Vec<usize> = (1..pages.len())
            .filter(|&p| pages[p].contains(&format!("serial {}", r[4])))
            .collect();
        assert_eq!(on.len(), 1, "serial {}", r[4]);
    }
    for label in ["Les huit pastilles", "Jeu 1 : GAIN 1", "Jeu 2 : GAIN 2"] {
        let n = text.lines().filter(|l| l.trim() == label).count();
        assert_eq!(n, 42, "{label}");
    }
    // The winner of 20 000 says, on its page, which game wins it.
    let top = rows.iter().find(|r| r[6] == "20000").unwrap();
    let page = pages
        .iter()
        .find(|p| p.contains(&format!("serial {}", top[4])))
        .unwrap();
    assert!(
        page.contains("Jeu 1 : GAIN 1 wins 20000 EUR: COQ COQ")
            || page.contains("Jeu 2 : GAIN 2 wins 20000 EUR"),
        "{page}"
    );

    // A plain sheet says nothing of which tickets win: no marks, no notes, no ticket lists.
    let plain = t.path().join("plain.pdf");
    tirage()
        .arg("render")
        .arg(&d)
        .args(["--plain", "--pdf"])
        .arg(&plain)
        .assert()
        .success();
    let out = std::process::Command::new("pdftotext")
        .arg(&plain)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for word in [
        "promised on ticket",
        "tickets on this sheet",
        "wins",
        "WIN",
        "Proof: prize",
    ] {
        assert!(!text.contains(word), "{word:?} on a plain sheet");
    }
    for r in &rows {
        assert!(text.contains(&format!("serial {}", r[4])));
    }
}

#[test]
fn a_poker_proof_names_the_combination_and_marks_its_cards() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("game_specs/poker.toml"), &d);
    let m = manifest(&d);
    let royal = m["promised_features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["feature"] == "quinte_flush_royale")
        .unwrap()["ticket"]
        .as_u64()
        .unwrap();
    let out = t.path().join("p");
    tirage()
        .arg("render")
        .arg(&d)
        .args(["--tickets", &royal.to_string(), "--out"])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(out.join(format!("ticket-{royal}.svg"))).unwrap();
    for label in [
        "Joueur 1",
        "Joueur 2",
        "Joueur 3",
        "Joueur 4",
        "Cartes communes",
    ] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
    // The note names the zone, its amount, the combination and its five cards: ten to ace
    // of one suit.
    let note = svg
        .lines()
        .find(|l| l.contains("with a quinte flush royale: "))
        .unwrap_or_else(|| panic!("no note of the quinte flush royale:\n{svg}"));
    let cards: Vec<&str> = note
        .rsplit_once(": ")
        .unwrap()
        .1
        .trim_end_matches("</text>")
        .split(' ')
        .collect();
    assert_eq!(cards.len(), 5, "{note}");
    let mut ranks: Vec<char> = cards.iter().map(|c| c.chars().next().unwrap()).collect();
    ranks.sort_unstable();
    assert_eq!(ranks, ['A', 'J', 'K', 'Q', 'T']);
    let suit = cards[0].chars().nth(1).unwrap();
    assert!(cards.iter().all(|c| c.ends_with(suit)), "{note}");
    assert!(note.contains(">Joueur "), "{note}");
    // Its five cards and its GAIN are marked, at least.
    assert!(svg.matches(">WIN</text>").count() >= 6);

    // --plain draws the same ticket with no mark and no note.
    // With -q, nothing is printed.
    let plain = t.path().join("plain");
    let o = tirage()
        .arg("render")
        .arg(&d)
        .args(["-q", "--plain", "--tickets", &royal.to_string(), "--out"])
        .arg(&plain)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(o.stdout, b"");
    let svg = std::fs::read_to_string(plain.join(format!("ticket-{royal}.svg"))).unwrap();
    for word in [
        ">WIN</text>",
        ">DECOY</text>",
        ">NEAR MISS</text>",
        "quinte flush royale",
    ] {
        assert!(!svg.contains(word), "{word} on a plain proof");
    }
    assert!(svg.contains(">Joueur 1</text>"));
}

#[test]
fn a_whole_block_is_not_drawn_without_tickets_named() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let o = tirage()
        .arg("render")
        .arg(&block)
        .arg("--pdf")
        .arg(t.path().join("x.pdf"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {} holds 3000 tickets: name the ones to draw with --tickets (every ticket is drawn by default only for at most 2000)\n",
            block.display()
        )
    );
    assert!(!t.path().join("x.pdf").exists());
}

#[test]
fn a_label_for_no_panel_is_refused_naming_it() {
    let t = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo("game_specs/coq.toml"))
        .unwrap()
        .replace("jeu2 = \"Jeu 2 : GAIN 2\"", "jeu3 = \"Jeu 3\"");
    let spec = t.path().join("coq.toml");
    std::fs::write(&spec, &text).unwrap();
    let line = text.lines().position(|l| l.starts_with("jeu3 =")).unwrap() + 1;
    let o = tirage().arg("check").arg(&spec).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}:{line}: labels.jeu3: \"jeu3\" is not a panel or play area of the styles mechanic; expected one of: cells, jeu1, jeu2\n",
            spec.display()
        )
    );
}

#[test]
fn a_proof_sheet_never_overwrites_a_file_unasked_nor_through_a_link_nor_in_the_block() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("tests/specs/coq_small.toml"), &d);
    let sheet = |pdf: &std::path::Path, force: bool| {
        let mut c = tirage();
        c.arg("render").arg(&d).arg("--pdf").arg(pdf);
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    // An existing file is kept without --force.
    let pdf = t.path().join("sheet.pdf");
    std::fs::write(&pdf, "mine").unwrap();
    let o = sheet(&pdf, false);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {} exists: nothing was written; give --force to replace it, or another file\n",
            pdf.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&pdf).unwrap(), "mine");
    // With --force the name gets a new file: another name of the old file keeps its bytes.
    let other = t.path().join("other-name");
    std::fs::hard_link(&pdf, &other).unwrap();
    assert_eq!(sheet(&pdf, true).status.code(), Some(0));
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "mine");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&pdf).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // Never among the block's files, even with --force.
    let sums = std::fs::read(d.join("SHA256SUMS")).unwrap();
    let o = sheet(&d.join("SHA256SUMS"), true);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("a proof sheet is not written among the block's files"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read(d.join("SHA256SUMS")).unwrap(), sums);
    let leftovers: Vec<_> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".tirage-proof-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_proof_shows_what_the_ticket_prints_outside_its_cells() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("pharaon");
    deck(&repo("tests/specs/pharaon_small.toml"), &d);
    tirage()
        .arg("render")
        .arg(&d)
        .args(["--tickets", "1"])
        .assert()
        .success();
    let svg = std::fs::read_to_string(d.join("proofs/ticket-1.svg")).unwrap();
    // Surface II's winning symbols fixed by the rules, IV's legend and multiplier, and
    // every surface's printed maximum.
    for text in [
        "Winning symbols: IBIS HALEUR OUDJAT",
        "LION = 3 · OISEAU = 10 · BATEAU = 100",
        "MASQUE = win ×2",
        "Maximum: 5 000",
        "Maximum: 10 000",
        "Maximum: 15 000",
        "Maximum: 20 000",
    ] {
        assert!(drawn(&svg, text), "{text} not drawn");
    }

    let d = t.path().join("bingo");
    deck(&repo("game_specs/examples/bingo75.toml"), &d);
    tirage()
        .arg("render")
        .arg(&d)
        .args(["--tickets", "1"])
        .assert()
        .success();
    let svg = std::fs::read_to_string(d.join("proofs/ticket-1.svg")).unwrap();
    // The FREE centre, the pay table by number of matches, and a key without the decoy
    // the game never shows.
    assert!(drawn(&svg, "FREE"));
    assert!(drawn(&svg, "9 matches: 2 · 10 matches: 5 · 11 matches: 20"));
    assert!(svg.contains("NEAR MISS: near miss"));
    assert!(!svg.contains("DECOY"));
}
