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
    let out = t.path().join("proofs").join("new");
    tirage()
        .arg("render")
        .arg(&block)
        .args(["--tickets", "1,5,3000", "--out"])
        .arg(&out)
        .assert()
        .success();
    // Folders render makes for --out are its owner's only, whatever the umask.
    for dir in [out.parent().unwrap(), out.as_path()] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", dir.display());
    }
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
        // Made with a test seed: stamped as a test block, never sold.
        assert!(svg.contains(">BLOC DE TEST</text>"));
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

/// A production block made from a fresh seed is stamped neither SPECIMEN nor TEST BLOCK,
/// on its proofs and its sheet's cover, which says its tickets will be sold.
#[test]
fn a_production_blocks_proofs_carry_no_stamp() {
    let t = tempfile::tempdir().unwrap();
    let block = t.path().join("b");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["-q", "--out"])
        .arg(&block)
        .assert()
        .success();
    let out = t.path().join("proofs");
    tirage()
        .arg("render")
        .arg(&block)
        .args(["--tickets", "1", "--out"])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(out.join("ticket-1.svg")).unwrap();
    assert!(svg.contains("Bloc 1 · carnet 1"), "{svg}");
    assert!(!svg.contains("SPÉCIMEN") && !svg.contains("BLOC DE TEST"));
    let pdf = t.path().join("sheet.pdf");
    tirage()
        .arg("render")
        .arg(&block)
        .args(["--tickets", "1", "--pdf"])
        .arg(&pdf)
        .assert()
        .success();
    let cover = pdftotext(&pdf);
    let cover = cover.split('\u{c}').next().unwrap();
    assert!(cover.replace('\n', " ").contains("Un bloc de production : ces épreuves montrent des billets qui seront imprimés et vendus"), "{cover}");
    assert!(
        !cover.contains("BLOC DE TEST") && !cover.contains("SPÉCIMEN"),
        "{cover}"
    );
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
    let svg = std::fs::read_to_string(t.path().join("deck.proofs/ticket-2.svg")).unwrap();
    assert!(svg.contains(">SPÉCIMEN</text>"));
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
    // A ticket named twice is refused: the proofs are the tickets named, one each.
    let o = tirage()
        .arg("render")
        .arg(&deck)
        .args(["--tickets", "3, 1,3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "--tickets 3,3: ticket 3 is named twice (in 3 and in 3); name each ticket once"
        ),
        "{err}"
    );
    // Spaces after the commas are fine; the tickets come in the order named.
    let o = tirage()
        .arg("render")
        .arg(&deck)
        .args(["--tickets", "3, 1"])
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
        let Ok(bytes) = std::fs::read(dir.join(name)) else {
            // A file not held here keeps its line.
            out.push_str(line);
            out.push('\n');
            continue;
        };
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
    let cols = &spec.game.layout().columns;
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

/// A resealed print file whose header names another game code is refused by the field
/// that differs, with both values; no proof is written.
#[test]
fn a_print_header_of_another_game_code_is_refused_by_name() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let out = t.path().join("proofs");
    let path = block.join("tickets.bin");
    let mut bin = std::fs::read(&path).unwrap();
    bin[16..18].copy_from_slice(&1704u16.to_le_bytes());
    std::fs::write(&path, bin).unwrap();
    reseal(&block);
    let o = render(&block, 3, &out);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: header field game code: 1704, expected 1703: not the header this spec writes for block 1 of 3000 tickets of coq\n",
            path.display()
        )
    );
    assert!(!out.exists(), "no proof is written");
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
    assert!(
        svg.contains(">Épreuve : gain 8 € · combinaison 8</text>"),
        "{svg}"
    );
    assert!(svg.contains(&format!(
        ">Bloc 1 · carnet {} · position {} · billet {n} · série {}</text>",
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
    assert_eq!(svg.matches(">GAGNANT</text>").count(), 3);
    assert_eq!(svg.matches(">LEURRE</text>").count(), 1);
    assert_eq!(svg.matches(">PRESQUE</text>").count(), 0);
    assert!(
        svg.contains(">« jeu1 » gagne 8 € : COQ COQ</text>"),
        "{svg}"
    );
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
        "- spec.toml, manifest.json and the ticket files read match SHA256SUMS (each read once;",
        "- the ticket's tickets.csv row (when read) is the row of that record, prize and way",
        "From tickets.bin alone (the printer's), the proofs of a production block are plain",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }
}

/// A poker proof writes each card's inscription in letters (art. 3.2–3.3) under its rank
/// and suit, from the spec's rank and suit captions.
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
    let svg = std::fs::read_to_string(t.path().join("p.proofs/ticket-1.svg")).unwrap();
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
/// A block whose manifest is edited to claim 4 294 967 295 tickets (and re-sealed) is
/// refused at once, before that count is used, by the size of the ticket file that cannot
/// hold them: the print file, or tickets.csv read alone. Nothing is written.
#[test]
fn a_manifest_claiming_more_tickets_than_its_files_hold_is_refused_at_once() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let mut m = manifest(&block);
    m["tickets"] = serde_json::json!(u32::MAX);
    std::fs::write(
        block.join("manifest.json"),
        serde_json::to_vec_pretty(&m).unwrap(),
    )
    .unwrap();
    reseal(&block);
    let bin = std::fs::read(block.join("tickets.bin")).unwrap();
    let header = u32::from_le_bytes(bin[12..16].try_into().unwrap()) as u64;
    let record = u64::from(u16::from_le_bytes([bin[10], bin[11]]));
    let out = t.path().join("proofs");
    let refused = |tickets: Option<&str>| {
        let mut c = tirage();
        c.arg("render").arg(&block).arg("--out").arg(&out);
        if let Some(list) = tickets {
            c.args(["--tickets", list]);
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(!out.exists(), "no proof is written");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let said = format!(
        "tirage: error: {}: {} bytes; expected {}: a header of {header} bytes and {} records of {record}, as manifest.json counts its tickets\n",
        block.join("tickets.bin").display(),
        bin.len(),
        header + u64::from(u32::MAX) * record,
        u32::MAX
    );
    assert_eq!(refused(None), said);
    assert_eq!(refused(Some("1,4000000000")), said);
    // tickets.csv read alone (the auditor's): a row per ticket is more than it holds.
    std::fs::remove_file(block.join("tickets.bin")).unwrap();
    let csv = block.join("tickets.csv");
    assert_eq!(
        refused(Some("1")),
        format!(
            "tirage: error: {}: {} bytes, too few for a row for each of the {} tickets manifest.json counts\n",
            csv.display(),
            std::fs::metadata(&csv).unwrap().len(),
            u32::MAX
        )
    );
}

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
        "Planche d'épreuves",
        "SPÉCIMEN",
        "ASTRO ANNEE DU COQ",
        "Règlement particulier « ASTRO ANNEE DU COQ », JORF n°0303 du 30 décembre 2016",
        "Code jeu 1703 · émission 1 · bloc 0 · 42 billets en carnets de 150",
        "Combinaisons",
        "promise au billet",
        "near miss jeu1",
        "Un jeu d'essai QA (chaque combinaison et chaque particularité)",
    ] {
        assert!(cover.contains(line), "{line:?} not on the cover:\n{cover}");
    }
    assert!(!cover.contains("every_way"), "{cover}");
    // Each way's prize as the ticket prints it, with the currency (pdftotext may drop the
    // space before the sign).
    for prize in [
        "0 €",
        "20 000 €",
        "1 000 €",
        "200 €",
        "30 €",
        "18 €",
        "8 €",
        "4 €",
        "2 €",
    ] {
        let bare = |l: &str| l.replace(' ', "");
        assert!(
            cover.lines().any(|l| bare(l) == bare(prize)),
            "prize {prize} not on the cover:\n{cover}"
        );
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
            .filter(|&p| pages[p].contains(&format!("série {}", r[4])))
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
        .find(|p| p.contains(&format!("série {}", top[4])))
        .unwrap();
    assert!(
        page.contains("« Jeu 1 : GAIN 1 » gagne 20 000 € : COQ COQ")
            || page.contains("« Jeu 2 : GAIN 2 » gagne 20 000 €"),
        "{page}"
    );
    // Near misses are told in the ticket's language, on the pages and in the cover's table.
    assert!(
        text.contains(
            "« Jeu 1 : GAIN 1 », presque gagnant : perd avec un de ses symboles gagnants \
             montré une fois (COQ)"
        ),
        "{text}"
    );
    assert!(cover.contains("« Jeu 1 : GAIN 1 » perd avec un de ses symboles"));
    assert!(!text.contains("loses with"), "English on a French sheet");

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
    // « gagne » of a note (« Jeu 1 » gagne 8 €, ne gagne.), not the « gagnez » of a rule the
    // ticket prints.
    for word in [
        "promise au billet",
        "billets de cette planche",
        "gagne ",
        "ne gagne.",
        "GAGNANT",
        "Épreuve",
    ] {
        assert!(!text.contains(word), "{word:?} on a plain sheet");
    }
    for r in &rows {
        assert!(text.contains(&format!("série {}", r[4])));
    }
    // The opening page gives the scale the tickets are drawn at: two plain coq proofs a
    // page (each prints its two games' rules under their boxes).
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Billets reproduits à 97 % de leur taille : textes et code-barres y sont réduits d'autant par rapport au billet imprimé."),
        "{flat}"
    );
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
    // The note names the zone, its amount, the combination and its five cards as they
    // print, in letters: ten to ace of one suit.
    let notes = notes_of(&svg);
    let at = notes
        .iter()
        .position(|l| l.contains(" avec quinte flush royale : "))
        .unwrap_or_else(|| panic!("no note of the quinte flush royale:\n{svg}"));
    let mut note = notes[at].clone();
    for more in notes[at + 1..].iter().take_while(|l| !l.starts_with('«')) {
        note = format!("{note} {more}");
    }
    let cards: Vec<(&str, &str)> = note
        .rsplit_once(" : ")
        .unwrap()
        .1
        .split(", ")
        .map(|c| c.split_once(" DE ").unwrap())
        .collect();
    assert_eq!(cards.len(), 5, "{note}");
    let mut ranks: Vec<&str> = cards.iter().map(|c| c.0).collect();
    ranks.sort_unstable();
    assert_eq!(ranks, ["AS", "DAME", "DIX", "ROI", "VALET"], "{note}");
    assert!(cards.iter().all(|c| c.1 == cards[0].1), "{note}");
    assert!(note.starts_with("« Joueur "), "{note}");
    // Its five cards and its GAIN are marked, at least.
    assert!(svg.matches(">GAGNANT</text>").count() >= 6);

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
        ">GAGNANT</text>",
        ">LEURRE</text>",
        ">PRESQUE</text>",
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
            "tirage: error: 3000 tickets are in the block: name the ones to draw with --tickets (at most 2000 are drawn unnamed), or narrow with --pack, --way or --tier\n"
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
            "tirage: error: {}:{line}: labels.jeu3: \"jeu3\" is not a panel or play area of this game; expected one of: cells, jeu1, jeu2\n",
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
    // A file that is no PDF (a seed, a key) is kept, even with --force.
    let seed = t.path().join("fresh.seed");
    std::fs::write(&seed, "00".repeat(32)).unwrap();
    for force in [false, true] {
        let o = sheet(&seed, force);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!(
                "tirage: error: {} exists and is not a proof (it does not begin with %PDF-): nothing was written, and --force would not replace it (it replaces only proofs); choose another file\n",
                seed.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&seed).unwrap(), "00".repeat(32));
    }
    // An existing PDF is kept without --force.
    let pdf = t.path().join("sheet.pdf");
    std::fs::write(&pdf, "%PDF-1.4 mine").unwrap();
    let o = sheet(&pdf, false);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {} exists: nothing was written; give --force to replace it, or another file\n",
            pdf.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&pdf).unwrap(), "%PDF-1.4 mine");
    // With --force the name gets a new file: another name of the old file keeps its bytes.
    let other = t.path().join("other-name");
    std::fs::hard_link(&pdf, &other).unwrap();
    assert_eq!(sheet(&pdf, true).status.code(), Some(0));
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "%PDF-1.4 mine");
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
            .contains("proofs are not written inside the block directory"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(std::fs::read(d.join("SHA256SUMS")).unwrap(), sums);
    // Nor in a folder inside it, which a tar of the block would ship.
    let o = sheet(&d.join("proofs/sheet.pdf"), true);
    assert_eq!(o.status.code(), Some(2));
    assert!(!d.join("proofs").exists());
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
    let svg = std::fs::read_to_string(beside(&d).join("ticket-1.svg")).unwrap();
    // Surface II's winning symbols fixed by the rules, IV's legend and multiplier, and
    // every surface's printed maximum, in the ticket's language.
    for text in [
        "Symboles gagnants : IBIS HALEUR OUDJAT",
        "LION = 3 € · OISEAU = 10 € · BATEAU = 100 €",
        "MASQUE = gain ×2",
        "Gain maximum : 5 000 €",
        "Gain maximum : 10 000 €",
        "Gain maximum : 15 000 €",
        "Gain maximum : 20 000 €",
    ] {
        assert!(drawn(&svg, text), "{text} not drawn");
    }

    // Card 1 paid by its number of matches, card 2 by line around a FREE centre: the
    // ticket the deck promises a near miss on.
    let d = t.path().join("bingo");
    deck(&repo("game_specs/examples/bingo_duo.toml"), &d);
    let near = manifest(&d)["promised_features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["feature"].as_str().unwrap().starts_with("near_miss"))
        .unwrap()["ticket"]
        .as_u64()
        .unwrap();
    tirage()
        .arg("render")
        .arg(&d)
        .args(["--tickets", &near.to_string()])
        .assert()
        .success();
    let svg = std::fs::read_to_string(beside(&d).join(format!("ticket-{near}.svg"))).unwrap();
    // Card 2's FREE centre, card 1's pay table by number of matches, and a key without the
    // decoy the game never shows.
    assert!(drawn(&svg, "LIBRE"));
    assert!(drawn(
        &svg,
        "9 bons numéros : 2 € · 10 bons numéros : 5 € · 11 bons numéros : 20 €"
    ));
    assert!(
        !svg.contains("matches") && !svg.contains("Maximum:"),
        "{svg}"
    );
    assert!(svg.contains("PRESQUE : presque"));
    assert!(!svg.contains("LEURRE"));
}

/// The hatch strokes of an SVG proof (the mark of what is under the scratch layer): each
/// line's ends, (x1, y1, x2, y2).
fn hatch_strokes(svg: &str) -> Vec<[f64; 4]> {
    svg.lines()
        .filter(|l| {
            l.starts_with("<line") && l.contains(r##"stroke="#969696" stroke-width="0.6""##)
        })
        .map(|l| {
            let at = |name: &str| -> f64 {
                let from = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                l[from..from + l[from..].find('"').unwrap()]
                    .parse()
                    .unwrap()
            };
            [at("x1"), at("y1"), at("x2"), at("y2")]
        })
        .collect()
}

/// Each text of an SVG proof with the box it takes (left, top, right, bottom): as wide as
/// its font's metrics give (`text_width`) with a tenth of margin for screen fonts, from a
/// size above its baseline to a quarter of it below.
fn text_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
    use tirage::proof::draw::{text_width, Font};
    svg.lines()
        .filter(|l| l.starts_with("<text"))
        .map(|l| {
            let at = |name: &str| -> f64 {
                let from = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                l[from..from + l[from..].find('"').unwrap()]
                    .parse()
                    .unwrap()
            };
            let text = texts(l).remove(0);
            let font = if l.contains("font-weight=\"bold\"") {
                Font::Bold
            } else if l.contains("Courier") {
                Font::Mono
            } else if l.contains("DejaVu") {
                Font::Symbol
            } else {
                Font::Regular
            };
            let (x, y, size) = (at("x"), at("y"), at("font-size"));
            let w = text_width(&text, font, size) * 1.1;
            let left = if l.contains("text-anchor=\"middle\"") {
                x - w / 2.0
            } else if l.contains("text-anchor=\"end\"") {
                x - w
            } else {
                x
            };
            (text, [left, y - size, left + w, y + 0.25 * size])
        })
        .collect()
}

/// What a ticket prints in the open (pay legends, printed maxima) is drawn clear of the
/// hatched frame of what is under the scratch layer, in a box of its own that says so; no
/// text of any proof of these games crosses a hatch stroke.
#[test]
fn no_text_of_a_proof_is_drawn_over_a_hatch() {
    let t = tempfile::tempdir().unwrap();
    for spec in [
        "tests/specs/pharaon_small.toml",
        "game_specs/examples/vingt_et_un.toml",
        "game_specs/examples/casino.toml",
        "game_specs/examples/morpion_lignes.toml",
        "game_specs/examples/numero_multiplicateur.toml",
        "game_specs/examples/mots_bonus.toml",
        "game_specs/examples/six_bingo.toml",
    ] {
        let name = std::path::Path::new(spec).file_stem().unwrap();
        let d = t.path().join(name);
        deck(&repo(spec), &d);
        let out = t.path().join(name).with_extension("proofs");
        tirage()
            .arg("render")
            .arg(&d)
            .args(["-q", "--out"])
            .arg(&out)
            .assert()
            .success();
        let mut proofs = 0;
        for entry in std::fs::read_dir(&out).unwrap() {
            let path = entry.unwrap().path();
            let svg = std::fs::read_to_string(&path).unwrap();
            let strokes = hatch_strokes(&svg);
            assert!(!strokes.is_empty(), "{}: nothing hatched", path.display());
            for (text, [left, top, right, bottom]) in text_boxes(&svg) {
                let crossed = strokes.iter().any(|&[x1, y1, x2, y2]| {
                    x1.max(x2) > left
                        && x1.min(x2) < right
                        && y1.max(y2) > top
                        && y1.min(y2) < bottom
                });
                assert!(!crossed, "{}: a hatch crosses « {text} »", path.display());
            }
            proofs += 1;
        }
        assert!(proofs > 10, "{spec}: {proofs} proofs");
    }
    // Pharaon's maxima and legends, in the box of what is printed in the open.
    let svg = std::fs::read_to_string(t.path().join("pharaon_small.proofs/ticket-1.svg")).unwrap();
    let texts = texts(&svg);
    for legend in ["Gain maximum : 5 000 €", "MASQUE = gain ×2"] {
        let at = texts.iter().position(|t| t == legend).unwrap();
        assert!(
            texts[..at]
                .iter()
                .rev()
                .take(7)
                .any(|t| t == "imprimé à découvert"),
            "{legend}: {texts:?}"
        );
    }
}

/// A proof's key names the marks it shows, and only those: a multi_chance proof showing
/// no decoy lists none, though the game has decoys.
#[test]
fn the_key_names_only_the_marks_the_proof_shows() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("game_specs/examples/multi_chance.toml"), &d);
    let out = t.path().join("proofs");
    tirage()
        .arg("render")
        .arg(&d)
        .args(["-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let mut without_decoy = 0;
    for entry in std::fs::read_dir(&out).unwrap() {
        let svg = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for (tag, key) in [
            ("GAGNANT", "GAGNANT : gagne"),
            (
                "PRESQUE",
                "PRESQUE : presque (perdant, tout près d'un gain)",
            ),
            ("LEURRE", "LEURRE : leurre (montré, ne gagne rien)"),
        ] {
            let marked = svg.contains(&format!(">{tag}</text>"));
            assert_eq!(svg.contains(&format!(">{key}</text>")), marked, "{tag}");
        }
        without_decoy += usize::from(!svg.contains(">LEURRE</text>"));
    }
    assert!(without_decoy > 0);
}

/// The directory beside block `dir` where render writes its proofs by default.
fn beside(dir: &std::path::Path) -> std::path::PathBuf {
    let name = dir.file_name().unwrap().to_str().unwrap();
    dir.with_file_name(format!("{name}.proofs"))
}

/// Makes an age identity `<role>.key` in `dir` for the printer, the central system and the
/// auditor (age-keygen), then block 1 of `spec` with [`SEED`] into `dir/<name>`, each ticket
/// file encrypted to its role.
fn sealed_block(dir: &std::path::Path, spec: &str, name: &str) -> std::path::PathBuf {
    let mut args = Vec::new();
    for role in ["printer", "central", "auditor"] {
        let id = dir.join(format!("{role}.key"));
        if !id.exists() {
            let o = std::process::Command::new("age-keygen")
                .arg("-o")
                .arg(&id)
                .output()
                .expect("age-keygen (.ci/run installs age)");
            assert!(o.status.success());
        }
        let o = std::process::Command::new("age-keygen")
            .arg("-y")
            .arg(&id)
            .output()
            .unwrap();
        args.push("--recipient".to_string());
        args.push(format!(
            "{role}={}",
            String::from_utf8(o.stdout).unwrap().trim()
        ));
    }
    let b = dir.join(name);
    tirage()
        .arg("generate")
        .arg(repo(spec))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .args(["--insecure-seed", "--seed", SEED, "-q", "--out"])
        .arg(&b)
        .args(&args)
        .assert()
        .success();
    b
}

/// `render DIR --tickets N --out OUT [extra…]`, its output.
fn render_with(
    dir: &std::path::Path,
    ticket: u32,
    out: &std::path::Path,
    extra: &[&std::ffi::OsStr],
) -> std::process::Output {
    tirage()
        .arg("render")
        .arg(dir)
        .args(["--tickets", &ticket.to_string(), "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// The printer holds the print file alone: its proofs are drawn from it and show what the
/// ticket prints, no prize; the auditor's, from tickets.csv alone, are the QA proofs of the
/// block in clear, byte for byte.
#[test]
fn each_holder_proofs_from_the_file_it_opens() {
    let t = tempfile::tempdir().unwrap();
    let sealed = sealed_block(t.path(), "tests/specs/coq_small.toml", "sealed");
    let clear = t.path().join("clear");
    generate(&repo("tests/specs/coq_small.toml"), &clear, 1);
    let key = |r: &str| t.path().join(format!("{r}.key")).into_os_string();
    let id = std::ffi::OsStr::new("--identity");
    let plain = std::ffi::OsStr::new("--plain");
    for n in [1u32, 2, 3, 7] {
        let dir = |name: &str| t.path().join(format!("{name}-{n}"));
        // The printer: as the plain proof of the clear block, with a note saying why.
        let o = render_with(&sealed, n, &dir("printer"), &[id, &key("printer")]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stderr)
            .contains("proofs of a production block from the print file alone are plain"));
        assert!(render_with(&clear, n, &dir("plain"), &[plain])
            .status
            .success());
        let file = format!("ticket-{n}.svg");
        let printer = std::fs::read(dir("printer").join(&file)).unwrap();
        assert_eq!(printer, std::fs::read(dir("plain").join(&file)).unwrap());
        // The auditor: the QA proof, from the CSV row alone.
        let o = render_with(&sealed, n, &dir("auditor"), &[id, &key("auditor")]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(render_with(&clear, n, &dir("qa"), &[]).status.success());
        let qa = std::fs::read(dir("qa").join(&file)).unwrap();
        assert_eq!(std::fs::read(dir("auditor").join(&file)).unwrap(), qa);
        assert!(String::from_utf8_lossy(&qa).contains("Épreuve : gain"));
    }
    // The central system opens neither ticket file: no proof, and it is told why.
    let o = render_with(&sealed, 1, &t.path().join("c"), &[id, &key("central")]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no ticket file can be read, so no proof is drawn: tickets.bin.age: no identity given opens it"), "{err}");
    assert!(!t.path().join("c").exists());
}

/// What an insider holding only a printer's proof learns: the ticket's face as printed
/// (what a player sees once the layer is scratched) and its serial; nothing else. A winner's
/// proof and a loser's differ only in the face's values and the serial: the same panels,
/// borders, colours and sizes, no prize, way, mark, note or key.
#[test]
fn a_printers_proof_tells_nothing_beyond_the_printed_face() {
    let t = tempfile::tempdir().unwrap();
    let clear = t.path().join("clear");
    generate(&repo("tests/specs/coq_small.toml"), &clear, 1);
    let rows = rows(&clear);
    let winner = rows.iter().find(|r| r[5] != "0").unwrap();
    let loser = rows.iter().find(|r| r[5] == "0").unwrap();
    // The printer's bundle: the print file without tickets.csv.
    let printer = t.path().join("printer");
    copy_dir(&clear, &printer);
    std::fs::remove_file(printer.join("tickets.csv")).unwrap();
    std::fs::remove_file(printer.join("validation.csv")).unwrap();
    let proof = |row: &Vec<String>| {
        let out = t.path().join(format!("p{}", row[3]));
        let o = render_with(&printer, row[3].parse().unwrap(), &out, &[]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        std::fs::read_to_string(out.join(format!("ticket-{}.svg", row[3]))).unwrap()
    };
    let (w, l) = (proof(winner), proof(loser));
    for svg in [&w, &l] {
        for word in [
            "Épreuve",
            "gain ",
            "combinaison",
            "GAGNANT",
            "PRESQUE",
            "LEURRE",
            // A note's « gagne », not the « gagnez » of a rule the ticket prints.
            "gagne ",
            "ne gagne.",
            "perd",
        ] {
            assert!(!texts(svg).iter().any(|x| x.contains(word)), "{word} drawn");
        }
        // The win colours are nowhere.
        assert!(
            !svg.contains("#00823c") && !svg.contains("#d6f3df"),
            "a win colour"
        );
    }
    // Every element but the texts and the barcode's bars is the same on both.
    assert_eq!(skeleton(&w), skeleton(&l));
    // Each text on one and not on the other is part of its face or its serial line.
    let from_face = |x: &str, row: &Vec<String>| {
        let bare: String = x
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '€')
            .collect();
        row[7..]
            .iter()
            .any(|v| v.contains(x) || v.replace('.', ",") == bare || *v == bare)
            || x.contains(&row[4])
    };
    let (tw, tl) = (texts(&w), texts(&l));
    for x in tw.iter().filter(|x| !tl.contains(x)) {
        assert!(from_face(x, winner), "the winner's proof draws {x:?}");
    }
    for x in tl.iter().filter(|x| !tw.contains(x)) {
        assert!(from_face(x, loser), "the loser's proof draws {x:?}");
    }
}

/// The texts an SVG draws, in order.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|s| {
            let s = &s[s.find('>').unwrap() + 1..];
            s[..s.find("</text>").unwrap()]
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
        })
        .collect()
}

/// An SVG's elements other than its texts and the barcode's bars (black rectangles).
fn skeleton(svg: &str) -> Vec<String> {
    let bar = |l: &str| l.starts_with("<rect") && l.contains(r##"fill="#000000""##);
    svg.lines()
        .filter(|l| !l.starts_with("<text") && !bar(l))
        .map(str::to_string)
        .collect()
}

/// QA holding tickets.csv alone (no print file): its proofs come from the rows, held to the
/// rules; a row whose prize is not the rules' is refused, naming the column.
#[test]
fn a_proof_from_tickets_csv_alone_holds_the_row_to_the_rules() {
    let t = tempfile::tempdir().unwrap();
    let clear = coq_block(&t);
    let qa = t.path().join("qa");
    copy_dir(&clear, &qa);
    std::fs::remove_file(qa.join("tickets.bin")).unwrap();
    let out = t.path().join("out");
    assert!(render(&qa, 3, &out).status.success());
    assert!(render(&clear, 3, &t.path().join("both")).status.success());
    assert_eq!(
        std::fs::read(out.join("ticket-3.svg")).unwrap(),
        std::fs::read(t.path().join("both/ticket-3.svg")).unwrap()
    );
    // A row whose prize was raised, SHA256SUMS rebuilt: refused.
    let text = std::fs::read_to_string(qa.join("tickets.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut f: Vec<String> = lines[3].split(',').map(str::to_string).collect();
    let prize = f[5].clone();
    f[5] = "20000".into();
    lines[3] = f.join(",");
    std::fs::write(qa.join("tickets.csv"), lines.join("\n") + "\n").unwrap();
    reseal(&qa);
    let o = render(&qa, 3, &t.path().join("out2"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "prize: tickets.csv has \"20000\", expected \"{prize}\""
        )),
        "{err}"
    );
    assert!(!t.path().join("out2").exists());
}

/// Proofs go beside the block by default (`<block>.proofs/`, mode 0700), never inside it:
/// a tar of the delivered folder ships none.
#[test]
fn proofs_are_written_beside_the_block_never_in_it() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let b = coq_block(&t);
    let before: Vec<_> = std::fs::read_dir(&b)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let o = tirage()
        .arg("render")
        .arg(&b)
        .args(["--tickets", "1,2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("{0}/ticket-1.svg\n{0}/ticket-2.svg\n", beside(&b).display())
    );
    let after: Vec<_> = std::fs::read_dir(&b)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before, after);
    assert_eq!(
        std::fs::metadata(beside(&b)).unwrap().permissions().mode() & 0o777,
        0o700
    );
    // --out inside the block is refused, and nothing is made there.
    let o = render(&b, 1, &b.join("proofs"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("proofs are not written inside the block directory"));
    assert!(!b.join("proofs").exists());
}

/// The serials `zbarimg` decodes in PNG image `png`, sorted.
fn decoded(png: &std::path::Path) -> Vec<String> {
    let o = std::process::Command::new("zbarimg")
        .args(["--raw", "-q"])
        .arg(png)
        .output()
        .expect("zbarimg (.ci/run installs zbar-tools)");
    // Exit 4: no symbol found; anything else but 0 is zbarimg failing.
    assert!(
        matches!(o.status.code(), Some(0 | 4)),
        "zbarimg {}: {:?} {}",
        png.display(),
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let mut got: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    got.sort();
    got
}

/// The barcode passes prepress: each proof's Interleaved 2 of 5 symbol, rasterised by
/// rsvg-convert at 1×, 1.5×, 2×, 3× and 4×, and the proof sheet by pdftoppm at 150, 300 and
/// 600 dpi, decodes with zbarimg to the ticket's serial, and to nothing else.
#[test]
fn every_proofs_barcode_reads_at_every_scale() {
    let t = tempfile::tempdir().unwrap();
    let b = coq_block(&t);
    let out = t.path().join("proofs");
    let rows = rows(&b);
    let mut serials = Vec::new();
    for n in [1usize, 2, 3, 1000] {
        assert!(render(&b, n, &out).status.success());
        let serial = rows[n - 1][4].clone();
        for zoom in ["1", "1.5", "2", "3", "4"] {
            let png = t.path().join("proof.png");
            let o = std::process::Command::new("rsvg-convert")
                .args(["-z", zoom, "-o"])
                .arg(&png)
                .arg(out.join(format!("ticket-{n}.svg")))
                .output()
                .expect("rsvg-convert (.ci/run installs librsvg2-bin)");
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert_eq!(decoded(&png), vec![serial.clone()], "ticket {n} at {zoom}×");
        }
        serials.push(serial);
    }
    serials.sort();
    let pdf = t.path().join("sheet.pdf");
    tirage()
        .arg("render")
        .arg(&b)
        .args(["--tickets", "1,2,3,1000", "-q", "--pdf"])
        .arg(&pdf)
        .assert()
        .success();
    for dpi in ["150", "300", "600"] {
        let dir = t.path().join(format!("pages-{dpi}"));
        std::fs::create_dir(&dir).unwrap();
        // The pages after the cover, in grey, as PNG (small: mostly white).
        let o = std::process::Command::new("pdftoppm")
            .args(["-r", dpi, "-gray", "-png", "-f", "2"])
            .arg(&pdf)
            .arg(dir.join("p"))
            .output()
            .expect("pdftoppm (.ci/run installs poppler-utils)");
        assert!(o.status.success());
        let mut got: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flat_map(|e| decoded(&e.unwrap().path()))
            .collect();
        got.sort();
        assert_eq!(got, serials, "the sheet at {dpi} dpi");
    }
}

/// `render DIR ARGS… -q` with proofs into `out`: its exit code, the tickets drawn (from the
/// files written, in the order printed without -q) and its stderr.
fn select(dir: &std::path::Path, args: &[&str], out: &std::path::Path) -> (i32, Vec<u32>, String) {
    let o = tirage()
        .arg("render")
        .arg(dir)
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let drawn = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            let name = l.rsplit('/').next().unwrap();
            name["ticket-".len()..name.len() - ".svg".len()]
                .parse()
                .unwrap()
        })
        .collect();
    let _ = std::fs::remove_dir_all(out);
    (
        o.status.code().unwrap(),
        drawn,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Ranges, packs, ways and tiers select exactly the tickets tickets.csv lists for them, in
/// the order named; each option narrows the others.
#[test]
fn a_selection_draws_exactly_the_tickets_of_its_ranges_packs_ways_and_tiers() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let rows = rows(&block);
    let out = t.path().join("o");
    // The tickets tickets.csv lists with `keep`, in print order.
    let listed = |keep: &dyn Fn(&[String]) -> bool| -> Vec<u32> {
        rows.iter()
            .filter(|r| keep(r))
            .map(|r| r[3].parse().unwrap())
            .collect()
    };
    let pack = |r: &[String]| r[1].parse::<u32>().unwrap();
    assert_eq!(
        select(&block, &["--tickets", "9..12,1, 13"], &out).1,
        [9, 10, 11, 12, 1, 13]
    );
    let (code, drawn, _) = select(&block, &["--way", "20000"], &out);
    assert_eq!((code, drawn.clone()), (0, listed(&|r| r[6] == "20000")));
    assert_eq!(drawn, [959]);
    let eights = listed(&|r| r[5] == "8" && pack(r) <= 5);
    assert_eq!(eights.len(), 38);
    assert_eq!(
        select(&block, &["--tier", "8", "--pack", "1..5"], &out).1,
        eights
    );
    assert_eq!(
        select(
            &block,
            &["--tier", "8", "--way", "4+4", "--pack", "1..5"],
            &out
        )
        .1,
        listed(&|r| r[6] == "4+4" && pack(r) <= 5)
    );
    assert_eq!(
        select(
            &block,
            &["--way", "lose,2", "--tickets", "1..20", "--pack", "1"],
            &out
        )
        .1,
        listed(&|r| (r[6] == "lose" || r[6] == "2") && r[3].parse::<u32>().unwrap() <= 20)
    );
    // The same selection as a proof sheet: one proof a ticket, none other.
    let pdf = t.path().join("twos.pdf");
    tirage()
        .arg("render")
        .arg(&block)
        .args(["--way", "2", "--tickets", "1..40", "--pdf"])
        .arg(&pdf)
        .assert()
        .success();
    let text = pdftotext(&pdf);
    let twos: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r[6] == "2" && r[3].parse::<u32>().unwrap() <= 40)
        .collect();
    assert_eq!(text.matches("Épreuve : gain").count(), twos.len());
    for r in twos {
        assert!(text.contains(&r[4]), "serial {}", r[4]);
    }
    // A block's cover, in the ticket's language, counts with their separators; no column
    // of tickets promised for a feature (a deck's): a production block promises none. Made
    // with a test seed, it is a test block, stamped so.
    let cover = text.split('\u{c}').next().unwrap();
    for line in [
        "Code jeu 1703 · émission 1 · bloc 1 · 3 000 billets en carnets de 150",
        "BLOC DE TEST",
        "Un BLOC DE TEST, fait d'une graine de test : ces épreuves montrent des billets qui ne seront jamais imprimés pour la vente",
        "billets de cette planche qui la montrent",
        "2 081",
    ] {
        // A long line may wrap on the page.
        assert!(
            cover.replace('\n', " ").contains(line),
            "{line:?} not on the cover:\n{cover}"
        );
    }
    assert!(!cover.contains("promise au billet"), "{cover}");
    assert!(!text.contains("Proof sheet"), "{cover}");
}

/// A selection that names no ticket of the block, a way or tier the spec has not, or a range
/// past the block is an error (exit 2) that says so, and draws nothing.
#[test]
fn a_selection_past_the_block_unknown_or_empty_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let out = t.path().join("o");
    for (args, err) in [
        (&["--tickets", "2999..3005"][..], "--tickets 2999..3005: ticket 3001 is not in the block: its tickets are 1 to 3000"),
        (&["--pack", "21"][..], "--pack 21: pack 21 is not in the block: its packs are 1 to 20"),
        (&["--way", ""][..], "--way: an empty way id was given; name one of the spec's ways: lose, 20000,"),
        (&["--tickets", "1,1,2"][..], "--tickets 1,1: ticket 1 is named twice (in 1 and in 1); name each ticket once"),
        (&["--way", "7"][..], "--way 7: the spec has no such way; its ways are lose, 20000, 500+500, 100+100, 10+20, 10+8, 8, 4+4, 4, 2+2, 2"),
        (&["--tier", "3"][..], "--tier 3: no tier of the lot table has this amount; its tiers are 20000, 1000, 200, 30, 18, 8, 4, 2 (losing tickets: --way lose)"),
        (&["--tickets", "1..2", "--way", "20000"][..], "no ticket of the block is selected by --tickets 1..2 --way 20000: nothing to draw"),
        (&["--tickets", "12..9"][..], "invalid value '12..9' for '--tickets <LIST>': `12..9` ends before it starts: write 9..12"),
        (&["--way", "lose"][..], "2081 tickets are selected by --way lose: name the ones to draw with --tickets (at most 2000 are drawn unnamed), or narrow with --pack, --way or --tier"),
    ] {
        let (code, drawn, stderr) = select(&block, args, &out);
        assert_eq!(code, 2, "{args:?}");
        assert!(drawn.is_empty());
        assert!(stderr.contains(err), "{args:?}: {stderr}");
    }
}

/// The printer's print file alone knows no prize: selecting by way or tier is refused, by
/// place allowed; the auditor's tickets.csv alone selects by way.
#[test]
fn only_a_holder_who_may_know_the_prize_selects_by_way() {
    let t = tempfile::tempdir().unwrap();
    let sealed = sealed_block(t.path(), "tests/specs/coq_small.toml", "sealed");
    let key = |r: &str| t.path().join(format!("{r}.key"));
    let out = t.path().join("o");
    let printer = key("printer");
    let p = printer.to_str().unwrap();
    let (code, drawn, err) = select(&sealed, &["--way", "20000", "--identity", p], &out);
    assert_eq!((code, drawn.len()), (2, 0));
    assert!(err.contains("tirage: error: --way and --tier select by prize, and these proofs know none: tickets.csv is not read (absent, or encrypted to others) and a production block's print file shows no prize to its printer; select with --tickets or --pack"), "{err}");
    let (code, drawn, _) = select(&sealed, &["--pack", "2", "--identity", p], &out);
    assert_eq!(code, 0);
    assert_eq!(drawn, (151..=300).collect::<Vec<u32>>());
    let auditor = key("auditor");
    let (code, drawn, err) = select(
        &sealed,
        &["--tier", "200", "--identity", auditor.to_str().unwrap()],
        &out,
    );
    assert_eq!(code, 0, "{err}");
    let clear = t.path().join("clear");
    generate(&repo("tests/specs/coq_small.toml"), &clear, 1);
    let want: Vec<u32> = rows(&clear)
        .iter()
        .filter(|r| r[5] == "200")
        .map(|r| r[3].parse().unwrap())
        .collect();
    assert_eq!(want.len(), 2);
    assert_eq!(drawn, want);
}

/// Every example of `render --help` and `claim --help` runs as pasted after the README's
/// quick start (a signed block of coq in output/coq/block-001, here coq's small test spec),
/// and pasted again: exit 0, or 3 for a claim with a made-up code.
#[test]
fn the_help_examples_of_render_and_claim_run_as_pasted() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    std::os::unix::fs::symlink(repo("game_specs"), root.join("game_specs")).unwrap();
    std::fs::create_dir_all(root.join("output/keys")).unwrap();
    tirage()
        .current_dir(root)
        .args(["keygen", "--no-password", "--out", "output/keys/operator"])
        .assert()
        .success();
    // A production block, as make block makes (a test block is never packaged unsaid).
    tirage()
        .current_dir(root)
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--seed-file")
        .arg(production_seed_file(root))
        .arg("-q")
        .args([
            "--sign",
            "output/keys/operator.key",
            "--out",
            "output/coq/block-001",
        ])
        .assert()
        .success();
    let bin = assert_cmd::cargo::cargo_bin("tirage");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap()
    );
    let tmp = root.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut ran = 0;
    for cmd in ["render", "claim"] {
        let o = tirage().args([cmd, "--help"]).output().unwrap();
        let help = String::from_utf8(o.stdout).unwrap();
        let examples = help.split("Examples").nth(1).expect("examples");
        let lines: Vec<&str> = examples
            .lines()
            .filter(|l| l.starts_with("  ") && l.contains("tirage "))
            .collect();
        for line in lines.iter().chain(&lines) {
            let line = line.trim().replace("/tmp/", &format!("{}/", tmp.display()));
            let o = std::process::Command::new("sh")
                .arg("-c")
                .arg(&line)
                .current_dir(root)
                .env("PATH", &path)
                .output()
                .unwrap();
            let want = if line.contains("--code") { 3 } else { 0 };
            assert_eq!(
                o.status.code(),
                Some(want),
                "{line}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            // A claim's made-up code is refused for being wrong: its serial is a ticket of
            // the block (a serial mistyped would be "no such ticket").
            if want == 3 {
                let answer = String::from_utf8_lossy(&o.stdout);
                assert!(
                    answer.contains(": refused: wrong code ("),
                    "{line}: {answer}"
                );
            }
            ran += 1;
        }
    }
    assert_eq!(ran, 14);
}

/// coq's small spec with `language = "LANG"` under its currency, written to `dir`.
fn spec_in(dir: &std::path::Path, lang: &str) -> std::path::PathBuf {
    in_language("tests/specs/coq_small.toml", dir, lang)
}

/// Spec `spec` (of the repository, in euros, with no language) with `language = "LANG"`
/// under its currency, written to `dir`; in English its amounts' captions are English
/// words (a caption says its amount in the game's language).
fn in_language(spec: &str, dir: &std::path::Path, lang: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(repo(spec)).unwrap();
    assert!(!text.contains("\nlanguage"), "{spec} sets its language");
    let mut text = text.replacen(
        "currency = \"EUR\"\n",
        &format!("currency = \"EUR\"\nlanguage = \"{lang}\"\n"),
        1,
    );
    if lang == "en" {
        for (fr, en) in [
            ("UN EURO", "ONE EURO"),
            ("DEUX EUROS", "TWO EUROS"),
            ("QUATRE EUROS", "FOUR EUROS"),
            ("CINQ EUROS", "FIVE EUROS"),
            ("HUIT EUROS", "EIGHT EUROS"),
            ("DIX EUROS", "TEN EUROS"),
            ("VINGT EUROS", "TWENTY EUROS"),
            ("CINQUANTE EUROS", "FIFTY EUROS"),
            ("CENT EUROS", "ONE HUNDRED EUROS"),
            ("DEUX CENT CINQUANTE EUROS", "TWO HUNDRED FIFTY EUROS"),
            ("CINQ CENTS EUROS", "FIVE HUNDRED EUROS"),
            ("MILLE EUROS", "ONE THOUSAND EUROS"),
            ("VINGT MILLE EUROS", "TWENTY THOUSAND EUROS"),
        ] {
            text = text.replace(&format!("= \"{fr}\""), &format!("= \"{en}\""));
        }
    }
    let name = std::path::Path::new(spec)
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap();
    let path = dir.join(format!("{name}-{lang}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// A spec's `[game] language` sets the language of the proof's own words and how its
/// amounts are written; French by default (`a_proof_shows_the_print_record…`), English on
/// request; any other is refused with the file, line and field.
#[test]
fn proofs_speak_the_tickets_language() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&spec_in(t.path(), "en"), &d);
    let rows = rows(&d);
    let r = rows.iter().find(|r| r[6] == "4+4").unwrap();
    let n = &r[3];
    let out = t.path().join("en");
    tirage()
        .arg("render")
        .arg(&d)
        .args(["--tickets", n, "--out"])
        .arg(&out)
        .assert()
        .success();
    let svg = std::fs::read_to_string(out.join(format!("ticket-{n}.svg"))).unwrap();
    for text in [
        ">SPECIMEN</text>".to_string(),
        ">Proof: prize €8 · way 4+4</text>".to_string(),
        format!(
            ">Block 0 · pack 1 · position {n} · ticket {n} · serial {}</text>",
            r[4]
        ),
        ">“jeu1” wins €4: COQ COQ</text>".into(),
        ">€4</text>".into(),
        ">WIN: wins</text>".into(),
    ] {
        assert!(svg.contains(&text), "{text} not in\n{svg}");
    }
    let bad = spec_in(t.path(), "de");
    let o = tirage().arg("check").arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let line = std::fs::read_to_string(&bad)
        .unwrap()
        .lines()
        .position(|l| l.starts_with("language"))
        .unwrap()
        + 1;
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}:{line}: game.language: \"de\": expected the code of a language proofs are written in: fr, en\n",
            bad.display()
        )
    );
}

/// A card is drawn as the ticket prints it: its rank (10 for T) and its suit's sign, red
/// for hearts and diamonds (its inscription: `poker_proofs_write_each_card_in_letters`); a
/// plain proof closes up where the verdict would be (its first panel right under the
/// header line).
#[test]
fn cards_print_rank_and_suit_and_a_plain_proof_closes_up() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("tests/specs/poker_small.toml"), &d);
    let row = rows(&d).remove(0);
    let (qa, plain) = (t.path().join("qa"), t.path().join("plain"));
    for (out, extra) in [(&qa, None), (&plain, Some("--plain"))] {
        tirage()
            .arg("render")
            .arg(&d)
            .args(["--tickets", "1", "--out"])
            .arg(out)
            .args(extra)
            .assert()
            .success();
    }
    let read = |dir: &std::path::Path| std::fs::read_to_string(dir.join("ticket-1.svg")).unwrap();
    let (qa, plain) = (read(&qa), read(&plain));
    let first_panel = |svg: &str| {
        svg.lines()
            .filter(|l| l.starts_with("<rect"))
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert!(
        first_panel(&qa).starts_with(r#"<rect x="16" y="64" "#),
        "{qa}"
    );
    assert!(
        first_panel(&plain).starts_with(r#"<rect x="16" y="50" "#),
        "{plain}"
    );
    for svg in [&qa, &plain] {
        // p1's two cards: rank, sign in its colour, inscription; never the file's code.
        for code in &row[7..9] {
            let (rank, suit) = code.split_at(1);
            let rank = if rank == "T" { "10" } else { rank };
            let (sign, red) = match suit {
                "c" => ("♣", false),
                "d" => ("♦", true),
                "h" => ("♥", true),
                _ => ("♠", false),
            };
            let fill = if red { r##" fill="#c80000""## } else { "" };
            assert!(
                svg.contains(&format!("{fill}>{rank}</text>")),
                "{code}: {svg}"
            );
            assert!(
                svg.contains(&format!("{fill}>{sign}</text>")),
                "{code}: {svg}"
            );
            assert!(
                !svg.contains(&format!(">{code}</text>")),
                "{code} drawn as its code"
            );
        }
    }
}

/// The notes of a proof, line by line: its texts in the notes' size, not bold.
fn notes_of(svg: &str) -> Vec<String> {
    svg.lines()
        .filter(|l| l.starts_with("<text") && l.contains(r#"font-size="8.5""#))
        .filter(|l| !l.contains("font-weight"))
        .flat_map(texts)
        .collect()
}

/// The proof of ticket `n` of deck `d`, drawn into `out`.
fn proof_of(d: &std::path::Path, n: &str, out: &std::path::Path) -> String {
    tirage()
        .arg("render")
        .arg(d)
        .args(["-q", "--tickets", n, "--out"])
        .arg(out)
        .assert()
        .success();
    std::fs::read_to_string(out.join(format!("ticket-{n}.svg"))).unwrap()
}

/// A special symbol wins in a play area of its own, yet a player sees the game or surface
/// it stands on win: the note tells the win under that game's (or surface's) name, by the
/// special's name, and never says that it loses; the panel's name is drawn as a winner's.
#[test]
fn a_game_winning_by_its_special_symbol_is_told_as_a_winner() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("pf");
    deck(&repo("game_specs/examples/plus_fort_bonus.toml"), &d);
    let rows = rows(&d);
    let r = rows.iter().find(|r| r[6] == "SAC-50+10x5").unwrap();
    let (sac, x5) = (game_of_row(r, "SAC"), game_of_row(r, "5X"));
    let svg = proof_of(&d, &r[3], &t.path().join("p"));
    let notes = notes_of(&svg);
    let of = |g: usize| -> Vec<&String> {
        notes
            .iter()
            .filter(|l| l.starts_with(&format!("« Jeu {g} »")))
            .collect()
    };
    assert_eq!(
        of(sac),
        [&format!("« Jeu {sac} » gagne 50 € avec « Sac d'or » : SAC")],
        "{notes:?}"
    );
    assert_eq!(
        of(x5),
        [&format!(
            "« Jeu {x5} » gagne 50 € avec « Multiplicateur 5X » : 5X"
        )],
        "{notes:?}"
    );
    for g in [sac, x5] {
        assert!(
            svg.contains(&format!(
                r##"font-weight="bold" fill="#00823c">Jeu {g}</text>"##
            )),
            "Jeu {g}: {svg}"
        );
    }
    // The win-all symbol: the ten games' GAINs, added up, for the game that shows it.
    let r = rows.iter().find(|r| r[6] == "TOUT-500").unwrap();
    let tout = game_of_row(r, "TOUT");
    let notes = notes_of(&proof_of(&d, &r[3], &t.path().join("p")));
    assert_eq!(
        notes,
        [format!(
            "« Jeu {tout} » gagne 500 € avec « Gagne tout » : TOUT"
        )]
    );

    // A surface of one play area (symbol_to_prize): the win-all symbol wins it all.
    let d = t.path().join("coffre");
    deck(&repo("game_specs/examples/coffre_tout.toml"), &d);
    let rows = self::rows(&d);
    let r = rows.iter().find(|r| r[6] == "TOUT").unwrap();
    let svg = proof_of(&d, &r[3], &t.path().join("c"));
    assert_eq!(
        notes_of(&svg),
        ["« Le coffre aux trésors » gagne 567 € avec « Gagne tout » : TOUT"]
    );
    assert!(
        svg.contains(r##"fill="#00823c">Le coffre aux trésors</text>"##),
        "{svg}"
    );
}

/// A special symbol's play area shows nothing on a face without its symbol: a proof never
/// names it among the losing areas, in either language, on a loser as on a winner by
/// another game.
#[test]
fn a_special_absent_from_the_face_is_not_said_to_lose() {
    let t = tempfile::tempdir().unwrap();
    for (lang, loses, ticket_loses, wins) in [
        (
            "fr",
            "perd : rien de ce qu'il montre ne gagne.",
            "Aucun jeu ne gagne : le billet est perdant.",
            "gagne 20 €",
        ),
        (
            "en",
            "loses: nothing it shows wins.",
            "No play area wins: the ticket loses.",
            "wins €20",
        ),
    ] {
        let d = t.path().join(lang);
        deck(
            &in_language("game_specs/examples/plus_fort_bonus.toml", t.path(), lang),
            &d,
        );
        let rows = rows(&d);
        for (way, last) in [("lose", ticket_loses.to_string()), ("20", String::new())] {
            let r = rows.iter().find(|r| r[6] == way).unwrap();
            let notes = notes_of(&proof_of(
                &d,
                &r[3],
                &t.path().join(format!("{lang}-{way}")),
            ));
            // One note per game (1 to 10), each naming it in the language's quotation
            // marks, then the verdict of a loser.
            let game = if lang == "en" { "“Jeu " } else { "« Jeu " };
            let games: Vec<&String> = notes.iter().filter(|n| n.starts_with(game)).collect();
            assert_eq!(games.len(), 10, "{notes:?}");
            let rest: Vec<&String> = notes.iter().filter(|n| !n.starts_with(game)).collect();
            if last.is_empty() {
                assert!(rest.is_empty(), "{notes:?}");
                assert_eq!(
                    games.iter().filter(|n| n.contains(wins)).count(),
                    1,
                    "{notes:?}"
                );
            } else {
                assert_eq!(rest, [&last], "{notes:?}");
            }
            for special in ["Sac d'or", "Multiplicateur 5X", "Gagne tout"] {
                let said = if lang == "en" {
                    format!("“{special}” {loses}")
                } else {
                    format!("« {special} » {loses}")
                };
                assert!(!notes.contains(&said), "{said}: {notes:?}");
            }
        }
    }
}

/// The game (1 to 10) of a plus_fort_bonus row whose number is `symbol` (game g's is
/// column 7 + 4 (g - 1): yours, theirs, gain, caption).
fn game_of_row(r: &[String], symbol: &str) -> usize {
    (1..=10).find(|g| r[3 + 4 * g] == symbol).unwrap()
}

/// A proof's notes name each play area by its printed name in quotes, the language's
/// (“Your numbers” loses), which reads right whatever the name; a losing ticket's verdict
/// says so in words, not by the files' id `lose`.
#[test]
fn notes_quote_play_areas_and_a_loser_is_said_in_words() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("en");
    deck(&repo("game_specs/examples/ticket_bonus.toml"), &d);
    let rows = rows(&d);
    assert_eq!(rows[0][6], "lose");
    let svg = proof_of(&d, "1", &t.path().join("p"));
    assert!(
        svg.contains(">Proof: prize $0 · losing ticket</text>"),
        "{svg}"
    );
    assert_eq!(
        notes_of(&svg),
        [
            "“Your numbers” loses: nothing it shows wins.",
            "No play area wins: the ticket loses."
        ]
    );

    let d = t.path().join("fr");
    deck(&repo("tests/specs/coq_small.toml"), &d);
    let n = self::rows(&d).iter().position(|r| r[6] == "lose").unwrap() + 1;
    let svg = proof_of(&d, &n.to_string(), &t.path().join("q"));
    assert!(
        svg.contains(">Épreuve : gain 0 € · billet perdant</text>"),
        "{svg}"
    );
    assert!(!svg.contains("combinaison lose"), "{svg}");
}

/// A hand winning by a natural says so as the pay legend names it (« Blackjack (as + dix
/// ou figure) », « Natural (ace + ten or figure) »), never by the feature's id.
#[test]
fn a_natural_is_named_as_the_pay_legend_names_it() {
    let t = tempfile::tempdir().unwrap();
    for (lang, wins, with) in [
        ("fr", "gagne 500 €", "avec un blackjack : "),
        ("en", "wins €500", "with a natural: "),
    ] {
        let d = t.path().join(lang);
        deck(
            &in_language("game_specs/examples/vingt_et_un.toml", t.path(), lang),
            &d,
        );
        let n = manifest(&d)["promised_features"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["feature"] == "natural_bj")
            .unwrap()["ticket"]
            .as_u64()
            .unwrap();
        let r = &rows(&d)[n as usize - 1];
        assert_eq!((r[5].as_str(), r[6].as_str()), ("500", "bj250"));
        // Hand h's two cards: columns 9 + 4 (h - 1) and the next (the dealer's are 7 and 8).
        let hand = (1..=5)
            .find(|h| {
                let cards = &r[5 + 4 * h..7 + 4 * h];
                cards.iter().any(|c| c.starts_with('A'))
                    && cards.iter().any(|c| "TJQK".contains(&c[..1]))
            })
            .unwrap();
        // The hand's own cards only: the dealer's are what it is compared with, unmarked.
        let cards = [&r[5 + 4 * hand], &r[6 + 4 * hand]];
        let svg = proof_of(&d, &n.to_string(), &t.path().join(format!("p-{lang}")));
        let hand = if lang == "en" {
            format!("“Main {hand}”")
        } else {
            format!("« Main {hand} »")
        };
        // Each card as the ticket prints it in letters (the spec's rank_names and
        // suit_names), not by its code.
        let named = |code: &str| {
            let rank = "23456789TJQKA".find(&code[..1]).unwrap();
            let suit = "cdhs".find(&code[1..]).unwrap();
            format!(
                "{} DE {}",
                ["2", "3", "4", "5", "6", "7", "8", "9", "10", "VALET", "DAME", "ROI", "AS"][rank],
                ["TREFLE", "CARREAU", "COEUR", "PIQUE"][suit]
            )
        };
        let want = format!("{hand} {wins} {with}{}", cards.map(|c| named(c)).join(", "));
        // A note wrapped across lines, read whole.
        assert!(
            notes_of(&svg).join(" ").contains(&want),
            "{want} not in {:?}",
            notes_of(&svg)
        );
        assert!(!svg.contains("natural bj"), "{svg}");
    }
}

/// SVG proofs never replace a file unasked: a run that would write a `ticket-<N>.svg` that
/// exists (another block's proof, an earlier run's) writes nothing, names the first one and
/// exits 2; `--force` replaces them. Into the default `<DIR>.proofs/` as into `--out`.
#[test]
fn svg_proofs_never_overwrite_a_file_unasked() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    deck(&repo("tests/specs/coq_small.toml"), &a);
    deck(&repo("game_specs/examples/ticket_bonus.toml"), &b);
    let run = |dir: &std::path::Path, tickets: &str, out: Option<&std::path::Path>, force| {
        let mut c = tirage();
        c.arg("render").arg(dir).args(["-q", "--tickets", tickets]);
        if let Some(out) = out {
            c.arg("--out").arg(out);
        }
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    let refused = |o: &std::process::Output, first: &std::path::Path| {
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!(
                "tirage: error: {} exists: nothing was written; give --force to replace it, or another --out\n",
                first.display()
            )
        );
        assert_eq!(o.stdout, b"");
    };
    let out = t.path().join("p");
    assert_eq!(run(&a, "3", Some(&out), false).status.code(), Some(0));
    let a3 = std::fs::read(out.join("ticket-3.svg")).unwrap();
    // Ticket 2 would be new, ticket 3 is a's: nothing is written.
    refused(
        &run(&b, "2,3", Some(&out), false),
        &out.join("ticket-3.svg"),
    );
    assert_eq!(std::fs::read(out.join("ticket-3.svg")).unwrap(), a3);
    assert!(!out.join("ticket-2.svg").exists());
    // With --force, b's proofs, as b draws them anywhere.
    assert_eq!(run(&b, "2,3", Some(&out), true).status.code(), Some(0));
    let fresh = t.path().join("fresh");
    assert_eq!(run(&b, "3", Some(&fresh), false).status.code(), Some(0));
    let b3 = std::fs::read(fresh.join("ticket-3.svg")).unwrap();
    assert_ne!(a3, b3);
    assert_eq!(std::fs::read(out.join("ticket-3.svg")).unwrap(), b3);
    assert!(out.join("ticket-2.svg").exists());

    // The default folder beside the block alike.
    assert_eq!(run(&a, "1", None, false).status.code(), Some(0));
    refused(
        &run(&a, "1", None, false),
        &t.path().join("a.proofs/ticket-1.svg"),
    );
    assert_eq!(run(&a, "1", None, true).status.code(), Some(0));
}

/// A special symbol among cells that several games read (match_symbols' shared grid) is
/// told with the game whose box it pays, the one such game.
#[test]
fn a_special_among_shared_cells_is_told_with_the_game_whose_box_it_pays() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("lb");
    deck(&repo("game_specs/examples/lingot_banque.toml"), &d);
    let rows = rows(&d);
    let r = rows.iter().find(|r| r[6] == "LINGOT-10").unwrap();
    let notes = notes_of(&proof_of(&d, &r[3], &t.path().join("p")));
    let told: Vec<&String> = notes
        .iter()
        .filter(|l| l.starts_with("« Jeu 1 »") || l.starts_with("« Lingot d'or »"))
        .collect();
    assert_eq!(
        told,
        ["« Jeu 1 » gagne 10 € avec « Lingot d'or » : LINGOT"],
        "{notes:?}"
    );
}

/// Proofs and pages are never written inside what is delivered: a bundle, an emission
/// (exit 2, nothing written); the default place of a block of an emission's proofs is
/// beside the emission. An emission given instead of a block is refused naming its first
/// block, as claim and package do.
#[test]
fn proofs_and_pages_stay_out_of_bundles_and_emissions() {
    let t = tempfile::tempdir().unwrap();
    let em = t.path().join("A");
    small_emission(&em);
    let block = em.join("block-001");
    let before = std::fs::read_dir(&em).unwrap().count();
    // Default place: beside the emission.
    tirage()
        .arg("render")
        .arg(&block)
        .args(["--tickets", "1", "-q"])
        .assert()
        .success();
    let beside = std::fs::canonicalize(t.path())
        .unwrap()
        .join("A.block-001.proofs");
    assert!(beside.join("ticket-1.svg").is_file());
    assert_eq!(std::fs::read_dir(&em).unwrap().count(), before);
    // Into the emission, or a bundle: refused.
    let b = signed_small_block(t.path(), "b", false);
    let bundle = t.path().join("central");
    tirage()
        .arg("package")
        .arg(&b)
        .args(["--for", "central", "--test-block", "-q", "--signer"])
        .arg(t.path().join("op.pub"))
        .arg("--out")
        .arg(&bundle)
        .assert()
        .success();
    let real = |p: &std::path::Path| std::fs::canonicalize(p).unwrap();
    let inside_emission = |out: &std::path::Path| {
        format!(
            "tirage: error: {}: inside the emission {}, which is delivered as it is: nothing was written; choose an --out outside it\n",
            out.display(),
            real(&em).display()
        )
    };
    let cases: Vec<(Vec<std::ffi::OsString>, String)> = vec![
        (
            vec!["render".into(), b.clone().into(), "--tickets".into(), "1".into(), "--out".into(), bundle.clone().into()],
            format!("tirage: error: {}: a block, deck or bundle directory, which is delivered as it is: nothing was written; choose an --out outside it\n", bundle.display()),
        ),
        (
            vec!["render".into(), b.clone().into(), "--tickets".into(), "1".into(), "--out".into(), bundle.join("p").into()],
            format!("tirage: error: {}: inside the block directory {}, which is delivered as it is: nothing was written; choose an --out outside it\n", bundle.join("p").display(), real(&bundle).display()),
        ),
        (
            vec!["render".into(), block.clone().into(), "--tickets".into(), "1".into(), "--out".into(), em.join("p").into()],
            inside_emission(&em.join("p")),
        ),
        (
            vec!["preview".into(), repo("tests/specs/coq_small.toml").into(), "--force".into(), "--out".into(), em.join("E").into()],
            inside_emission(&em.join("E")),
        ),
        // The emission itself: one of its blocks is named, as claim and package do.
        (
            vec!["render".into(), em.clone().into(), "--tickets".into(), "1".into()],
            format!("tirage: error: {}: an emission, not a block: name one of its blocks ({})\n", em.display(), em.join("block-001").display()),
        ),
    ];
    for (args, said) in cases {
        let o = tirage().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        // coq_small pays more than its sales: preview warns of it first.
        let err: String = String::from_utf8_lossy(&o.stderr)
            .lines()
            .filter(|l| !l.starts_with("tirage: warning: "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(err, said, "{args:?}");
    }
    assert_eq!(std::fs::read_dir(&em).unwrap().count(), before);
    assert!(!bundle.join("p").exists() && !bundle.join("ticket-1.svg").exists());
}

/// A proof written into verify's audit report would pass for part of it, and `--force`
/// would lay a proof sheet (serials and prizes) over its `audit.pdf`: refused (exit 2),
/// into the report's folder or a folder not made yet inside it, the report left whole.
#[test]
fn proofs_stay_out_of_the_audit_report() {
    let t = tempfile::tempdir().unwrap();
    let b = signed_small_block(t.path(), "b", false);
    let verified = tirage()
        .arg("verify")
        .arg(&b)
        .args(["-q", "--signer"])
        .arg(t.path().join("op.pub"))
        .output()
        .unwrap();
    let report = t.path().join("b.audit");
    assert!(report.join("audit.md").is_file(), "{verified:?}");
    let pdf = std::fs::read(report.join("audit.pdf")).unwrap();
    let names = |d: &std::path::Path| {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    let before = names(&report);
    for (flag, out) in [
        ("--pdf", report.join("audit.pdf")),
        ("--pdf", report.join("sheet.pdf")),
        ("--out", report.clone()),
        ("--out", report.join("p")),
    ] {
        let o = tirage()
            .arg("render")
            .arg(&b)
            .args(["--tickets", "1", "--force", flag])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag} {}", out.display());
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!(
                "tirage: error: {}: inside the audit report {}, which verify wrote: a proof there would pass for part of it; nothing was written; choose an --out outside it\n",
                out.display(),
                report.display()
            )
        );
        assert_eq!(names(&report), before);
    }
    assert_eq!(std::fs::read(report.join("audit.pdf")).unwrap(), pdf);
}

/// A plain sheet never says which tickets win: `--plain` selected by way or tier (by
/// prize) is refused on a production block, exit 2 and nothing written, since the sheet
/// would be exactly the tickets of those ways; plain proofs selected by pack, and proofs
/// selected by prize that show it, are drawn; on a test block, which is no secret, a plain
/// selection by prize is drawn. The refusal comes before a selection of too many tickets is.
#[test]
fn a_plain_selection_by_prize_is_refused_on_a_production_block() {
    let t = tempfile::tempdir().unwrap();
    let prod = t.path().join("block-001");
    tirage()
        .arg("generate")
        .arg(repo("tests/specs/coq_small.toml"))
        .arg("--validation-key")
        .arg(repo(VALIDATION_KEY))
        .arg("--seed-file")
        .arg(production_seed_file(t.path()))
        .args(["-q", "--out"])
        .arg(&prod)
        .assert()
        .success();
    let pdf = t.path().join("top.pdf");
    for sel in [
        &["--way", "20000,500+500"][..],
        &["--tier", "20000"],
        &["--way", "lose", "--pack", "1"],
        // Too many tickets too (2081 losers): refused as plain first, since narrowing with
        // --pack would only be refused next.
        &["--way", "lose"],
    ] {
        let o = tirage()
            .arg("render")
            .arg(&prod)
            .args(sel)
            .args(["--plain", "--pdf"])
            .arg(&pdf)
            .output()
            .unwrap();
        assert_eq!(
            (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()),
            (
                Some(2),
                format!(
                    "tirage: error: {}: --plain with --way or --tier on a production block: the tickets drawn would be exactly those of the ways asked, a list of winners, while a plain proof must not say which tickets win; draw plain proofs selected by ticket or pack (--tickets, --pack), or select by prize on a deck (tirage deck) or a test block (--insecure-seed); nothing was written\n",
                    prod.display()
                )
            ),
            "{sel:?}"
        );
        assert!(!pdf.exists());
    }
    let out = t.path().join("o");
    let (code, drawn, err) = select(&prod, &["--pack", "1", "--plain"], &out);
    assert_eq!((code, drawn.len()), (0, 150), "{err}");
    let (code, drawn, err) = select(&prod, &["--tier", "20000"], &out);
    assert_eq!((code, drawn.len()), (0, 1), "{err}");
    let test_block = coq_block(&t);
    let (code, drawn, err) = select(&test_block, &["--tier", "20000", "--plain"], &out);
    assert_eq!((code, drawn.len()), (0, 1), "{err}");
}

/// A near miss's note names its play area once (« Grattez les 6 cases », presque gagnant :
/// perd avec …, never the name again after the colon), and the key says a near miss is one
/// cell short of a win, true of cells that show amounts (match_amounts) as of symbols.
#[test]
fn a_near_miss_note_names_its_area_once() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("game_specs/examples/triple_montant.toml"), &d);
    let out = t.path().join("proofs");
    tirage()
        .arg("render")
        .arg(&d)
        .args(["-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let mut notes = 0;
    for entry in std::fs::read_dir(&out).unwrap() {
        let svg = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        notes += svg
            .matches(">« Grattez les 6 cases », presque gagnant : perd avec son plus grand montant montré deux fois<")
            .count();
        assert!(!svg.contains("presque gagnant : «"), "{svg}");
        assert!(!svg.contains("à un symbole"), "{svg}");
        if svg.contains(">PRESQUE</text>") {
            assert!(svg.contains(">PRESQUE : presque (perdant, tout près d'un gain)</text>"));
        }
    }
    assert!(notes > 0);
}

/// A face too tall for a page (six bingo cards one above the other) is cut into strips over
/// several pages: every page of its proofs names its ticket, the first by the proof's own
/// header, each further one by the ticket's number and serial, « suite »; and each card is
/// on the page of the numbers drawn for it, never a page apart.
#[test]
fn every_page_of_a_tall_proof_names_its_ticket() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("game_specs/examples/six_bingo.toml"), &d);
    let pdf = t.path().join("six.pdf");
    tirage()
        .arg("render")
        .arg(&d)
        .arg("--pdf")
        .arg(&pdf)
        .arg("-q")
        .assert()
        .success();
    let text = pdftotext(&pdf);
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    let first = pages
        .iter()
        .position(|p| p.contains("Épreuve : gain"))
        .unwrap();
    let mut continued = 0;
    for (i, page) in pages.iter().enumerate().skip(first) {
        let flat = page.split_whitespace().collect::<Vec<_>>().join(" ");
        let header = flat.contains("Bloc 0 · carnet");
        let suite = flat.contains(" (suite)");
        assert!(header || suite, "page {}: no ticket named:\n{flat}", i + 1);
        if suite {
            assert!(
                flat.contains("billet ") && flat.contains(" · série 9009001000"),
                "page {}: {flat}",
                i + 1
            );
            continued += 1;
        }
        for n in 1..=6 {
            assert_eq!(
                flat.contains(&format!("Carte {n} sous la couche")),
                flat.contains(&format!("Numéros tirés {n} sous la couche")),
                "page {}: card {n} without its draw, or the draw without its card:\n{flat}",
                i + 1
            );
        }
    }
    assert!(continued > 0);
}

/// Ctrl-C (or SIGTERM) while render writes its proofs: exit 130, and neither a temporary
/// file nor a folder the run made is left; proofs that were there (replaced with --force)
/// are as they were, the very same files.
#[cfg(unix)]
#[test]
fn an_interrupted_render_leaves_nothing_behind() {
    use std::os::unix::fs::MetadataExt;
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let entries = |d: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .map(|r| {
                r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    // Proofs already there, in a folder of their own: replaced with --force below.
    let kept = t.path().join("kept");
    let o = tirage()
        .arg("render")
        .arg(&block)
        .args(["--tickets", "1..3", "-q", "--out"])
        .arg(&kept)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let inodes = |d: &std::path::Path| -> Vec<u64> {
        entries(d)
            .iter()
            .map(|n| std::fs::metadata(d.join(n)).unwrap().ino())
            .collect()
    };
    let before = inodes(&kept);
    for (signal, out, force) in [
        ("INT", beside(&block), false),
        ("TERM", t.path().join("new/proofs"), false),
        ("HUP", kept.clone(), true),
    ] {
        // Many proofs: long enough to be caught while they are being written.
        let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("tirage"));
        c.arg("render")
            .arg(&block)
            .args(["--tickets", "1..3,4..2000", "-q", "--out"])
            .arg(&out)
            .stderr(std::process::Stdio::piped());
        if force {
            c.arg("--force");
        }
        let child = c.spawn().unwrap();
        // Wait until a proof is being written.
        let t0 = std::time::Instant::now();
        while !entries(&out)
            .iter()
            .any(|n| n.starts_with(".tirage-proof-"))
        {
            assert!(t0.elapsed().as_secs() < 120, "render never started writing");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // The shell's own kill: no other program needed.
        let killed = std::process::Command::new("sh")
            .args(["-c", &format!("kill -{signal} {}", child.id())])
            .status()
            .unwrap();
        assert!(killed.success());
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(130), "{signal}: {err}");
        assert!(
            err.ends_with("tirage: error: interrupted: nothing was written, and what was at the destination is as it was\n"),
            "{err}"
        );
        if force {
            assert_eq!(
                entries(&out),
                ["ticket-1.svg", "ticket-2.svg", "ticket-3.svg"]
            );
            assert_eq!(inodes(&out), before, "the proofs there are the same files");
        } else {
            assert!(!out.exists(), "{signal}: {:?}", entries(&out));
        }
    }
    // The folders made for the proofs are gone; the block's lock file stays, as after
    // every run.
    assert_eq!(entries(t.path()), [".b.tirage-lock", "b", "kept"]);
}

/// A stop asked for (the token a signal sets) stops the reading of the ticket files: load
/// gives Interrupted, not proofs; the same block with no stop asked gives them.
#[test]
fn a_stop_asked_for_stops_the_reading_of_a_block() {
    use tirage::generate::cancel::Cancel;
    use tirage::proof::render::{load, RenderError};
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let selection = tirage::proof::select::Selection {
        tickets: vec!["1..3".parse().unwrap()],
        ..Default::default()
    };
    let ids = tirage::output::seal::Identities::default();
    let stop = Cancel::default();
    let proofs = load(&block, &selection, &ids, &stop).unwrap();
    assert_eq!(
        proofs.tickets.iter().map(|p| p.ticket).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    stop.cancel();
    assert!(matches!(
        load(&block, &selection, &ids, &stop),
        Err(RenderError::Interrupted)
    ));
}

/// A proof a stopped render left unnamed in the proofs' folder (`.tirage-proof-*`: a
/// ticket's serial and prize) is removed by the next render into that folder, and said; one
/// changed less than a minute ago may be another run's: kept.
#[test]
fn a_proof_left_unnamed_by_a_stopped_run_is_removed_by_the_next() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("deck");
    deck(&repo("tests/specs/coq_small.toml"), &d);
    let proofs = beside(&d);
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(&proofs)
        .unwrap();
    let old = proofs.join(".tirage-proof-AbCdEf");
    let young = proofs.join(".tirage-proof-GhIjKl");
    std::fs::write(&young, "<svg/>").unwrap();
    let render = |ticket: &str, quiet: bool| {
        let mut c = tirage();
        c.arg("render").arg(&d).args(["--tickets", ticket]);
        if quiet {
            c.arg("-q");
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    write_an_hour_old(&old, b"<svg/>");
    let err = render("1", false);
    assert!(
        err.contains(&format!(
            "tirage: removed {}, a proof an earlier run left unnamed when it was stopped\n",
            old.display()
        )),
        "{err}"
    );
    assert!(!old.exists());
    assert!(young.is_file());
    assert!(proofs.join("ticket-1.svg").is_file());
    // With -q: removed, unsaid.
    write_an_hour_old(&old, b"<svg/>");
    assert_eq!(render("2", true), "");
    assert!(!old.exists());
}

/// What plus_fort_bonus prints in the open, its rule and its special symbols' rules, is
/// printed once, with the first of its ten rows, and wraps at the widest a printed line
/// makes a panel (180 pt) instead of making that row as wide as the rule.
#[test]
fn a_long_printed_rule_wraps_instead_of_widening_its_row() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("pf");
    deck(&repo("game_specs/examples/plus_fort_bonus.toml"), &d);
    let svg = proof_of(&d, "1", &t.path().join("p"));
    let printed: Vec<(String, [f64; 4])> = svg
        .lines()
        .filter(|l| l.starts_with("<text") && l.contains(r#"font-size="7.5""#))
        .flat_map(text_boxes)
        // Not the key's entries (`PRESQUE : presque …`), in the same size.
        .filter(|(t, _)| {
            let first = t.split(' ').next().unwrap_or("");
            !(first.chars().all(|c| c.is_uppercase()) && t[first.len()..].starts_with(" : "))
        })
        .collect();
    let words: Vec<&str> = printed.iter().map(|(t, _)| t.as_str()).collect();
    // A break between two phrases drops the ` · ` between them.
    assert_eq!(
        words.join(" ").replace(" · ", " "),
        "Votre numéro (en haut) plus fort que le leur (en bas) : gagnez le montant de la \
         case SAC = gain immédiat 5X = gain ×5 TOUT = tous les montants affichés, additionnés"
    );
    assert!(
        words
            .iter()
            .all(|l| !l.starts_with('·') && !l.ends_with('·')),
        "{words:?}"
    );
    assert!(printed.len() >= 4, "{words:?}");
    for (text, [left, _, right, _]) in &printed {
        assert!(right - left <= 180.0, "{text}: {} pt", right - left);
    }
}

/// A `--pdf` whose folder does not exist is refused naming that folder, not the hidden
/// file the run would have staged there (exit 2, nothing written).
#[test]
fn a_pdf_in_a_folder_that_does_not_exist_is_refused_naming_the_folder() {
    let t = tempfile::tempdir().unwrap();
    let b = coq_block(&t);
    let pdf = t.path().join("nowhere").join("proofs.pdf");
    let o = tirage()
        .arg("render")
        .arg(&b)
        .args(["--tickets", "1", "--pdf"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: cannot write {}: the folder {} does not exist; nothing was written\n",
            pdf.display(),
            t.path().join("nowhere").display()
        )
    );
    assert!(!t.path().join("nowhere").exists());
    // A file where the folder should be; a directory where the PDF should be.
    std::fs::write(t.path().join("afile"), "x").unwrap();
    let (code, err) = {
        let o = tirage()
            .arg("render")
            .arg(&b)
            .args(["--tickets", "1", "--pdf"])
            .arg(t.path().join("afile").join("x.pdf"))
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!(
            "tirage: error: cannot write {}: {} is not a folder; nothing was written\n",
            t.path().join("afile").join("x.pdf").display(),
            t.path().join("afile").display()
        )
    );
    let dir = t.path().join("sheets");
    std::fs::create_dir(&dir).unwrap();
    let o = tirage()
        .arg("render")
        .arg(&b)
        .args(["--tickets", "1", "--pdf"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(&format!(
            "tirage: error: {} is a directory: nothing was written; name the proof file to write (--pdf DIR/proofs.pdf), or choose ",
            dir.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// A `--pdf` that names no file is refused before anything is written (exit 2): `-`,
/// which would otherwise be a file named `-` (a sheet is never written to standard
/// output), a path ending with `/` or `.` (the file in the way named), a path through a
/// file (`afile/../x.pdf`) or a missing folder (`nodir/../y.pdf`), named for the file or
/// the folder, through a link that leads nowhere or to itself, or a name or path longer
/// than the system allows (the system's words); a device or a link where the sheet would
/// go is named for what it is.
#[test]
fn a_pdf_that_names_no_file_is_refused_saying_why() {
    let t = tempfile::tempdir().unwrap();
    let b = coq_block(&t);
    std::fs::write(t.path().join("afile"), "x").unwrap();
    let through = t.path().join("afile").join("..").join("x.pdf");
    let missing = format!("{}/", t.path().join("missing").display());
    std::os::unix::fs::symlink("nowhere", t.path().join("dangling")).unwrap();
    std::os::unix::fs::symlink("looping", t.path().join("looping")).unwrap();
    let long = format!("{}.pdf", "p".repeat(300));
    // A folder that is there, named by a path longer than the system reads (PATH_MAX).
    std::fs::create_dir(t.path().join("sheets")).unwrap();
    let winding = format!("sheets/{}x.pdf", "../sheets/".repeat(500));
    std::os::unix::fs::symlink("/dev/null", t.path().join("to-null.pdf")).unwrap();
    let cases = [
        (
            "-".to_string(),
            "tirage: error: --pdf -: a proof sheet is written to a file (mode 0600: it shows serials and prizes), never to standard output; nothing was written; name the file (--pdf proofs.pdf)\n".to_string(),
        ),
        (
            missing.clone(),
            format!("tirage: error: --pdf {missing}: the path names a folder, not a file; nothing was written; name the proof file to write (--pdf {missing}proofs.pdf)\n"),
        ),
        (
            "afile/.".to_string(),
            "tirage: error: --pdf afile/.: the path names a folder, not a file; nothing was written; afile is a file, not a folder\n".to_string(),
        ),
        (
            "nodir/../y.pdf".to_string(),
            "tirage: error: cannot write nodir/../y.pdf: the folder nodir does not exist; nothing was written\n".to_string(),
        ),
        (
            through.display().to_string(),
            format!(
                "tirage: error: cannot write {}: {} is not a folder; nothing was written\n",
                through.display(),
                t.path().join("afile").display()
            ),
        ),
        (
            "dangling/x.pdf".to_string(),
            "tirage: error: cannot write dangling/x.pdf: dangling is a link that leads to no folder (No such file or directory (os error 2)); nothing was written\n".to_string(),
        ),
        (
            "looping/x.pdf".to_string(),
            "tirage: error: cannot write looping/x.pdf: looping is a link that leads to no folder (Too many levels of symbolic links (os error 40)); nothing was written\n".to_string(),
        ),
        (
            long.clone(),
            format!("tirage: error: cannot write {long}: File name too long (os error 36); nothing was written\n"),
        ),
        (
            winding.clone(),
            format!("tirage: error: cannot write {winding}: File name too long (os error 36); nothing was written\n"),
        ),
        (
            "/dev/null".to_string(),
            "tirage: error: /dev/null is not a regular file (a device, a pipe…): no proof is written to it; nothing was written; choose another file\n".to_string(),
        ),
        (
            "to-null.pdf".to_string(),
            "tirage: error: to-null.pdf is a link: no proof is written through it; nothing was written; remove the link, or choose another file\n".to_string(),
        ),
    ];
    for (pdf, said) in cases {
        let o = tirage()
            .current_dir(t.path())
            .arg("render")
            .arg(&b)
            .args(["--tickets", "1", "--pdf", &pdf])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{pdf}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), said);
    }
    assert!(!t.path().join("-").exists());
    assert!(!t.path().join("missing").exists());
}

/// A deck made under a block's default proofs or report name (`<block>.proofs`,
/// `<block>.audit`) is delivered as it is: render and verify write nothing into it by
/// default, and say to choose another folder; the deck still verifies clean.
#[test]
fn a_deck_under_a_blocks_default_proofs_or_report_name_is_never_written_into() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let spec = repo("tests/specs/coq_small.toml");
    for (suffix, cmd, option) in [
        ("proofs", "render", "an --out"),
        ("audit", "verify", "a --report directory"),
    ] {
        let deck = t.path().join(format!("b.{suffix}"));
        tirage()
            .arg("deck")
            .arg(&spec)
            .args(["-q", "--out"])
            .arg(&deck)
            .assert()
            .success();
        let before: Vec<_> = std::fs::read_dir(&deck)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let mut c = tirage();
        c.arg(cmd).arg(&block);
        if cmd == "render" {
            c.args(["--tickets", "3"]);
        } else {
            c.args(["--unauthenticated", "-q"]);
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.ends_with(&format!(
                "tirage: error: {}: a block, deck or bundle directory, which is delivered as it is: nothing was written; choose {option} outside it\n",
                deck.display()
            )),
            "{cmd}: {err}"
        );
        let after: Vec<_> = std::fs::read_dir(&deck)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(before, after, "{cmd}");
        tirage()
            .arg("verify")
            .arg(&deck)
            .args(["--unauthenticated", "--no-audit", "-q"])
            .assert()
            .success();
    }
}

/// A production block's manifest rewritten to say a deck (and resealed, as whoever holds
/// the printer's files could) gets no proof: a deck is block 0, and render would otherwise
/// draw the block's winners by prize, which it refuses a production print file.
#[test]
fn a_production_block_passed_off_as_a_deck_gets_no_proof() {
    let t = tempfile::tempdir().unwrap();
    let block = coq_block(&t);
    let path = block.join("manifest.json");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"kind\": \"production\""), "{text}");
    std::fs::write(
        &path,
        text.replace("\"kind\": \"production\"", "\"kind\": \"specimen\""),
    )
    .unwrap();
    reseal(&block);
    let out = t.path().join("proofs");
    let o = tirage()
        .arg("render")
        .arg(&block)
        .args(["--way", "lose", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "tirage: error: {}: says a specimen block numbered 1: a deck is block 0 and a \
             production block never is, so it was changed after it was made; no proof is drawn\n",
            path.display()
        )
    );
    assert!(!out.exists());
}
