//! The proof sheet: a deck (or chosen tickets of a block) laid out on A4 pages for a press
//! check or a terminal test, printable on an office printer.
//!
//! Page 1 is a cover: the game, its legal reference, game code, emission and block, what
//! kind of block it is, and its composition: every way with its prize, its count in the
//! block and the tickets of this sheet that realise it; every feature (combination, near
//! miss, decoy) with the tickets of this sheet that show it, and the ticket a deck promised
//! for it. The following pages hold the proofs ([`crate::render::ticket_canvas`]), scaled
//! to the page width, as many a page as fit. Every page has a footer with the game, block
//! and page number. The text is real text: a PDF reader finds a serial by searching.

use crate::draw::pdf::{document, A4_HEIGHT, A4_WIDTH};
use crate::draw::{fit, Anchor, Canvas, Color, Font};
use crate::generate::Kind;
use crate::render::{ticket_canvas, Marks, Proofs, RenderError, PROOF_WIDTH};

/// Page margin, in points (about 14 mm: inside what office printers print).
const MARGIN: f64 = 40.0;
/// Room kept for the footer at the bottom of a page, in points.
const FOOTER: f64 = 30.0;
/// Space between two proofs on a page, in points.
const GAP: f64 = 14.0;

/// The PDF proof sheet of `proofs` (the tickets [`crate::render::load`] read and checked,
/// in the order asked), drawn with `marks`. Errors: a ticket that cannot be drawn
/// ([`ticket_canvas`]'s).
pub fn proof_sheet(proofs: &Proofs, marks: Marks) -> Result<Vec<u8>, RenderError> {
    let spec = &proofs.spec;
    let man = &proofs.manifest;
    let drawn: Vec<Canvas> = proofs
        .tickets
        .iter()
        .map(|t| ticket_canvas(spec, man.kind, t, marks))
        .collect::<Result<_, _>>()?;
    let mut pages = vec![cover(proofs)];
    // Three proofs a page when they stay legible (at least 0.62 of their size), else two
    // (or one, for a proof taller than half a page at full width).
    let room = A4_HEIGHT - 2.0 * MARGIN - FOOTER;
    let tallest = drawn.iter().map(|c| c.height).fold(1.0, f64::max);
    let across = ((A4_WIDTH - 2.0 * MARGIN) / PROOF_WIDTH).min(1.0);
    let three = (room - 2.0 * GAP) / (3.0 * tallest);
    let scale = if three >= 0.62 {
        across.min(three)
    } else {
        across.min(((room - GAP) / (2.0 * tallest)).max(0.5))
    };
    let mut page = Canvas::new(A4_WIDTH, A4_HEIGHT);
    let mut y = MARGIN;
    for c in &drawn {
        let h = c.height * scale;
        if y > MARGIN && y + h > A4_HEIGHT - MARGIN - FOOTER {
            pages.push(std::mem::replace(
                &mut page,
                Canvas::new(A4_WIDTH, A4_HEIGHT),
            ));
            y = MARGIN;
        }
        page.place(c, MARGIN, y, scale);
        y += h + GAP;
    }
    if !drawn.is_empty() {
        pages.push(page);
    }
    let n = pages.len();
    let foot = format!(
        "{} · game code {} · emission {} · block {}",
        spec.name, spec.game_code, spec.emission, man.block
    );
    for (i, p) in pages.iter_mut().enumerate() {
        let y = A4_HEIGHT - MARGIN + 8.0;
        p.line(
            MARGIN,
            y - 12.0,
            A4_WIDTH - MARGIN,
            y - 12.0,
            Color::LIGHT,
            0.6,
        );
        p.text(MARGIN, y, 8.0, Font::Regular, foot.clone());
        p.text_styled(
            A4_WIDTH - MARGIN,
            y,
            8.0,
            Font::Regular,
            Color::BLACK,
            Anchor::End,
            format!("page {} of {n}", i + 1),
        );
    }
    let title = format!("Proof sheet: {} block {}", spec.name, man.block);
    Ok(document(&title, &pages))
}

/// The cover page: what the sheet is of, and its composition.
fn cover(proofs: &Proofs) -> Canvas {
    let spec = &proofs.spec;
    let man = &proofs.manifest;
    let mut c = Canvas::new(A4_WIDTH, A4_HEIGHT);
    let width = A4_WIDTH - 2.0 * MARGIN;
    let mut y = MARGIN + 18.0;
    c.text(MARGIN, y, 20.0, Font::Bold, "Proof sheet");
    if man.kind == Kind::Specimen {
        c.text_styled(
            A4_WIDTH - MARGIN,
            y,
            20.0,
            Font::Bold,
            Color::RED,
            Anchor::End,
            "SPECIMEN",
        );
    }
    y += 24.0;
    c.text(
        MARGIN,
        y,
        fit(&spec.name, Font::Bold, 14.0, width),
        Font::Bold,
        spec.name.clone(),
    );
    y += 16.0;
    for line in [
        spec.legal_reference.clone(),
        format!(
            "Game code {} · emission {} · block {} · {} tickets in packs of {}",
            spec.game_code, spec.emission, man.block, man.tickets, man.pack_size
        ),
        match (man.kind, man.composition) {
            (Kind::Specimen, Some(c)) => format!(
                "A QA deck ({}): specimen serials of block 0 and specimen validation codes, never payable",
                serde_json::to_value(c).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
            ),
            (Kind::Specimen, None) => "A QA deck: specimen serials and codes, never payable".into(),
            _ => "A production block: these proofs show tickets that will be printed and sold".into(),
        },
        format!(
            "This sheet: {} ticket(s), in the order asked; block spec SHA-256 {}",
            proofs.tickets.len(),
            man.spec.sha256
        ),
    ] {
        c.text(MARGIN, y, fit(&line, Font::Regular, 9.5, width), Font::Regular, line);
        y += 13.0;
    }

    // Ways: prize, count in the block, tickets of this sheet.
    y += 14.0;
    c.text(MARGIN, y, 12.0, Font::Bold, "Ways");
    y += 6.0;
    let cols = [MARGIN, MARGIN + 110.0, MARGIN + 190.0, MARGIN + 270.0];
    y += 12.0;
    table_head(
        &mut c,
        y,
        &cols,
        &["way", "prize", "in the block", "tickets on this sheet"],
    );
    let counts: std::collections::BTreeMap<&str, u64> = man
        .tiers
        .iter()
        .flat_map(|t| t.ways.iter().map(|w| (w.id.as_str(), w.count)))
        .chain(std::iter::once(("lose", man.losers)))
        .collect();
    for (id, way) in spec.ways.iter().enumerate() {
        let on: Vec<u32> = proofs
            .tickets
            .iter()
            .filter(|t| usize::from(t.way) == id)
            .map(|t| t.ticket)
            .collect();
        y += 12.0;
        if y > A4_HEIGHT - MARGIN - FOOTER - 120.0 {
            c.text(
                MARGIN,
                y,
                8.5,
                Font::Regular,
                "… (more ways than fit on this page)",
            );
            break;
        }
        let prize = if id == 0 {
            "0".to_string()
        } else {
            format!("{} {}", way.amount, spec.currency)
        };
        let listed = ranges(&on);
        let cells = [
            way.id.clone(),
            prize,
            counts
                .get(way.id.as_str())
                .map_or("?".into(), u64::to_string),
            listed,
        ];
        for (k, (x, v)) in cols.iter().zip(cells).enumerate() {
            let room = if k == 3 { A4_WIDTH - MARGIN - x } else { 76.0 };
            let font = if k == 0 { Font::Bold } else { Font::Regular };
            c.text(*x, y, fit(&v, font, 8.5, room), font, v);
        }
    }

    // Features: what the sheet's tickets show, and what a deck promised.
    y += 26.0;
    c.text(MARGIN, y, 12.0, Font::Bold, "Features");
    y += 18.0;
    let fcols = [MARGIN, MARGIN + 190.0, MARGIN + 290.0];
    let heads = [
        "feature",
        "promised on ticket",
        "tickets on this sheet showing it",
    ];
    table_head(&mut c, y, &fcols, &heads);
    let m = &spec.mechanic;
    let shown: Vec<_> = proofs.tickets.iter().map(|t| m.evaluate(&t.face)).collect();
    for f in m.features() {
        y += 12.0;
        if y > A4_HEIGHT - MARGIN - FOOTER - 14.0 {
            c.text(
                MARGIN,
                y,
                8.5,
                Font::Regular,
                "… (more features than fit on this page)",
            );
            break;
        }
        let promised = man
            .promised_features
            .iter()
            .flatten()
            .find(|p| p.feature == f.id)
            .map_or("—".to_string(), |p| p.ticket.to_string());
        let on: Vec<u32> = proofs
            .tickets
            .iter()
            .zip(&shown)
            .filter(|(_, e)| e.shows(f.id))
            .map(|(t, _)| t.ticket)
            .collect();
        let listed = ranges(&on);
        let name = f.id.replace('_', " ");
        c.text(
            fcols[0],
            y,
            fit(&name, Font::Bold, 8.5, 185.0),
            Font::Bold,
            name,
        );
        c.text(fcols[1], y, 8.5, Font::Regular, promised);
        let room = A4_WIDTH - MARGIN - fcols[2];
        c.text(
            fcols[2],
            y,
            fit(&listed, Font::Regular, 8.5, room),
            Font::Regular,
            listed,
        );
        y += 10.0;
        let about = f.about.to_string();
        c.text_styled(
            fcols[0] + 8.0,
            y,
            fit(&about, Font::Regular, 7.5, width - 8.0),
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            about,
        );
    }
    c
}

/// A table's column heads on baseline `y`, one at each of `cols`, ruled under.
fn table_head(c: &mut Canvas, y: f64, cols: &[f64], heads: &[&str]) {
    for (x, h) in cols.iter().zip(heads) {
        c.text_styled(*x, y, 8.5, Font::Bold, Color::GREY, Anchor::Start, *h);
    }
    c.line(
        MARGIN,
        y + 3.0,
        A4_WIDTH - MARGIN,
        y + 3.0,
        Color::LIGHT,
        0.6,
    );
}

/// Ticket numbers as runs, in the order given: `1–4, 7, 9–10`; `—` for none.
fn ranges(tickets: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &t in tickets {
        match runs.last_mut() {
            Some((_, hi)) if t == *hi + 1 => *hi = t,
            _ => runs.push((t, t)),
        }
    }
    if runs.is_empty() {
        return "—".into();
    }
    let parts: Vec<String> = runs
        .iter()
        .map(|&(lo, hi)| match hi - lo {
            0 => lo.to_string(),
            1 => format!("{lo}, {hi}"),
            _ => format!("{lo}–{hi}"),
        })
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn ticket_numbers_are_written_as_runs() {
        assert_eq!(ranges(&[1, 2, 3, 4, 7, 9, 10]), "1–4, 7, 9, 10");
        assert_eq!(ranges(&[5]), "5");
        assert_eq!(ranges(&[]), "—");
        assert_eq!(ranges(&[3, 1, 2]), "3, 1, 2");
    }
}
