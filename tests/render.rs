//! Ticket proofs: `tirage render` writes SVGs that a maintained SVG library parses and
//! renders, showing the ticket's serial, its symbols, amounts and captions.

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
            assert!(svg.contains(cell), "ticket {t}: {cell} not drawn");
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
    assert!(String::from_utf8_lossy(&o.stderr).contains("ticket 999 is not in the block"));
}
