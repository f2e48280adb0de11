//! The proof sheet: a deck (or chosen tickets of a block) laid out on A4 pages for a press
//! check or a terminal test, printable on an office printer.
//!
//! The sheet opens with its composition: the game, its legal reference, game code, emission
//! and block, what kind of block it is; every way with its prize, its count in the block and
//! the tickets of this sheet that realise it; every feature (combination, near miss, decoy)
//! with the ticket a deck promised for it and the tickets of this sheet that show it. The
//! tables run over as many pages as they need. Then come the proofs
//! ([`crate::proof::render::ticket_canvas`]), three a page when they stay legible, else two,
//! else one; a face too tall for a page at a legible scale (six bingo cards one above the
//! other) is cut across between its panels into strips set side by side in columns, each
//! page of it naming its ticket. Every page has a running head and its number. The text is real text: a PDF reader finds a
//! serial by searching.
//!
//! With [`Marks::Hidden`] (production proofs), the tables leave out which tickets win: the
//! sheet shows what is printed, not where the winners are.

use crate::block::{Composition, Kind};
use crate::proof::draw::page::{Cell, Flow};
use crate::proof::draw::pdf::document;
use crate::proof::draw::{Anchor, Canvas, Color, Font};
use crate::proof::render::{prize_words, ticket_canvas, Marks, Proofs, RenderError, Stamp};
use crate::proof::words::Words;

/// Space between two proofs on a page, in points.
const GAP: f64 = 12.0;
/// The smallest scale proofs are drawn at several a page: a caption's 5.5 pt is then still
/// 4.1 pt, a note's 8.5 pt 6.4 pt.
const LEGIBLE: f64 = 0.75;

/// The PDF proof sheet of `proofs` (the tickets [`crate::proof::render::load`] read and checked,
/// in the order asked), drawn with `marks`. Errors: a ticket that cannot be drawn
/// ([`ticket_canvas`]'s).
pub fn proof_sheet(proofs: &Proofs, marks: Marks) -> Result<Vec<u8>, RenderError> {
    let spec = &proofs.spec;
    let man = &proofs.manifest;
    let drawn = proofs
        .tickets
        .iter()
        .map(|t| ticket_canvas(spec, Stamp::of(man), t, marks))
        .collect::<Result<Vec<_>, _>>()?;
    let w = &Words::of(spec.language).sheet;
    let mut flow = Flow::new(&format!(
        "{} · {} · {} {} · {} {} · {} {}",
        w.title,
        spec.name,
        w.code[0],
        spec.game_code,
        w.code[1],
        spec.emission,
        w.code[2],
        man.block
    ));
    flow.page_words(w.page);
    let room = flow.page_room();
    let tallest = drawn.iter().map(|c| c.height).fold(1.0, f64::max);
    let widest = drawn.iter().map(|c| c.width).fold(1.0, f64::max);
    let across = (flow.width() / widest).min(1.0);
    // Each proof takes its height and a gap under it: three a page, else two, when they
    // stay legible; else one.
    let fits = |n: f64| (room - n * GAP) / (n * tallest);
    let per_page = [3.0, 2.0]
        .into_iter()
        .find(|&n| fits(n) >= LEGIBLE)
        .unwrap_or(1.0);
    let scale = across.min(fits(per_page));
    // The scale of every proof, said on the opening page: a tall face's is chosen for it.
    let layouts: Vec<Option<TallLayout>> = if scale < LEGIBLE {
        drawn
            .iter()
            .map(|c| tall_layout(flow.width(), c, room))
            .collect()
    } else {
        Vec::new()
    };
    let scales: Vec<f64> = if scale < LEGIBLE {
        layouts.iter().flatten().map(|l| l.scale).collect()
    } else {
        vec![scale]
    };
    composition(&mut flow, proofs, marks, &scales);

    flow.new_page();
    if scale < LEGIBLE {
        let words = Words::of(spec.language);
        for ((c, t), layout) in drawn.iter().zip(&proofs.tickets).zip(&layouts) {
            let p = words.place;
            let named = format!(
                "{} {} · {} {} ({})",
                p[3],
                t.ticket,
                p[4],
                String::from_utf8_lossy(&t.serial),
                w.continued
            );
            if let Some(layout) = layout {
                tall(&mut flow, c, layout, room, &named);
            }
        }
    } else {
        for c in &drawn {
            flow.boxed(c.height * scale + GAP, |page, x, y| {
                page.place(c, x, y, scale)
            });
        }
    }
    let title = format!("{} · {} · {} {}", w.title, spec.name, w.code[2], man.block);
    Ok(document(&title, &flow.finish()))
}

/// The height of the line that names a ticket at the top of each further page of its
/// proof, in points.
const CONTINUED: f64 = 16.0;

/// The sentence that gives the proofs' scale (`scales`, each between 0 and 1) as a
/// percentage, or the range of them, in `words` ([`crate::proof::words`]'s `scale`): a printer
/// measuring a proof on the sheet (a barcode's module, a text's size) must know it.
fn scale_words(scales: &[f64], words: (&str, &str, &str)) -> String {
    let pct = |s: f64| (s * 100.0).round() as u32;
    let lo = scales.iter().copied().map(pct).min().unwrap_or(100);
    let hi = scales.iter().copied().map(pct).max().unwrap_or(100);
    match (lo, hi) {
        (100, 100) => format!("{}.", words.2),
        (a, b) if a == b => format!("{} {a} % {}.", words.0, words.1),
        (a, b) => format!("{} {a}–{b} % {}.", words.0, words.1),
    }
}

/// How [`tall`] lays out a face too tall for a page.
struct TallLayout {
    /// The scale it is drawn at.
    scale: f64,
    /// The strips set side by side on a page.
    columns: usize,
    /// Where the face is cut ([`Canvas::strips`]).
    cuts: Vec<f64>,
}

/// How [`tall`] lays out face `c` on pages `width` points wide with `room` points for
/// proofs: the layout of the fewest pages, then of the largest scale; `None` for a face
/// with no layout at all.
fn tall_layout(width: f64, c: &Canvas, room: f64) -> Option<TallLayout> {
    let layouts = (1..=4).flat_map(|k: usize| {
        let kf = k as f64;
        let widest = ((width - (kf - 1.0) * GAP) / (kf * c.width)).min(1.0);
        [widest, 0.9, 0.8, LEGIBLE]
            .into_iter()
            .filter(move |&s| s <= widest && (s >= LEGIBLE || (k == 1 && s == widest)))
            .map(move |scale| {
                let cuts = c.strips((room - GAP - CONTINUED) / scale);
                (cuts.len().div_ceil(k), scale, k, cuts)
            })
    });
    // The fewest pages; among those, the largest scale.
    layouts
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)))
        .map(|(_, scale, columns, cuts)| TallLayout {
            scale,
            columns,
            cuts,
        })
}

/// A face too tall for a page at a legible scale (six bingo cards one above the other):
/// cut across into strips ([`Canvas::strips`], between its panels), set side by side in
/// 1 to 4 columns from a new page, at a scale from [`LEGIBLE`] to 1 (the widest the columns
/// allow, or 0.9, 0.8 or [`LEGIBLE`]), as `layout` ([`tall_layout`]) chose. Each further page starts with `named` (the ticket's number and serial,
/// "continued"), so that every page says whose proof it holds. `room` is a page's height
/// for proofs, in points.
fn tall(flow: &mut Flow, c: &Canvas, layout: &TallLayout, room: f64, named: &str) {
    let TallLayout {
        scale,
        columns: k,
        ref cuts,
    } = *layout;
    let strips: Vec<Canvas> = cuts
        .iter()
        .scan(0.0, |top, &bottom| {
            let s = c.strip(*top, bottom);
            *top = bottom;
            Some(s)
        })
        .collect();
    if flow.room() < room {
        flow.new_page();
    }
    for (i, row) in strips.chunks(k).enumerate() {
        let high = row.iter().map(|s| s.height).fold(0.0, f64::max) * scale + GAP;
        if i > 0 && flow.room() < high {
            flow.new_page();
            flow.boxed(CONTINUED, |page, x, y| {
                page.text(x, y + 10.0, 9.0, Font::Bold, named);
            });
        }
        flow.boxed(high, |page, x, y| {
            for (j, s) in row.iter().enumerate() {
                page.place(s, x + j as f64 * (c.width * scale + GAP), y, scale);
            }
        });
    }
}

/// The opening pages: what the sheet is of, the scale its proofs are drawn at (`scales`:
/// each proof's, or one for all), its ways and its features.
fn composition(flow: &mut Flow, proofs: &Proofs, marks: Marks, scales: &[f64]) {
    let spec = &proofs.spec;
    let man = &proofs.manifest;
    let qa = marks == Marks::Shown;
    let lang = spec.language;
    let w = &Words::of(lang).sheet;
    flow.boxed(26.0, |page, x, y| {
        page.text(x, y + 18.0, 20.0, Font::Bold, w.title);
        if let Some(mark) = Stamp::of(man).mark(Words::of(lang)) {
            let right = crate::proof::draw::pdf::A4_WIDTH - x;
            page.text_styled(
                right,
                y + 18.0,
                20.0,
                Font::Bold,
                Color::RED,
                Anchor::End,
                mark,
            );
        }
    });
    flow.paragraph(&spec.name, Font::Bold, 14.0, 0.0);
    let mut lines = vec![
        spec.legal_reference.clone(),
        format!(
            "{} {} · {} {} · {} {} · {} {} {}{}",
            capital(w.code[0]),
            spec.game_code,
            w.code[1],
            spec.emission,
            w.code[2],
            man.block,
            lang.count(man.tickets.into()),
            w.in_packs.0,
            man.pack_size,
            w.in_packs.1,
        ),
        match (man.kind, man.composition) {
            (Kind::Specimen, Some(c)) => format!(
                "{}{}{}",
                w.kind[0],
                match c {
                    Composition::EveryWay => w.composition[0],
                    Composition::Proportional => w.composition[1],
                },
                w.kind[1]
            ),
            (Kind::Specimen, None) => w.kind[2].into(),
            _ if man.is_test_block() => w.kind[4].into(),
            _ => w.kind[3].into(),
        },
    ];
    if spec.reconstructed {
        lines.push(w.reconstructed.into());
    }
    if let Some(note) = &spec.note {
        lines.push(format!("{}{note}", w.note));
    }
    let in_print_order = ascending(proofs.tickets.iter().map(|t| t.ticket));
    lines.push(format!(
        "{} {} {} ; {} ; {} {}",
        w.this_sheet.0,
        proofs.tickets.len(),
        if in_print_order {
            w.this_sheet.2
        } else {
            w.this_sheet.1
        },
        w.marks[usize::from(!qa)],
        w.spec_sha,
        man.spec.sha256
    ));
    if lang == crate::language::Language::En {
        let last = lines.last_mut().expect("a line");
        *last = last.replace(" ; ", "; ");
    }
    lines.push(scale_words(scales, w.scale));
    for l in &lines {
        flow.paragraph(l, Font::Regular, 9.5, 0.0);
    }

    let counts: std::collections::BTreeMap<&str, u64> = man
        .tiers
        .iter()
        .flat_map(|t| t.ways.iter().map(|w| (w.id.as_str(), w.count)))
        .chain(std::iter::once(("lose", man.losers)))
        .collect();
    flow.heading(w.ways[0], 12.0);
    let mut head = vec![bold(w.ways[1]), bold(w.ways[2]), bold(w.ways[3])];
    if qa {
        head.push(bold(w.ways[4]));
    }
    let rows: Vec<Vec<Cell>> = spec
        .ways
        .iter()
        .enumerate()
        .map(|(id, way)| {
            // As the ticket prints an amount (`20 000 €`; a loser's `0 €`), a prize that is
            // not money by its item.
            let mut row = vec![
                bold(&way.id),
                Cell::new(prize_words(spec, way.amount, way.tier.is_some())),
                Cell::new(
                    counts
                        .get(way.id.as_str())
                        .map_or("?".into(), |&n| lang.count(n)),
                ),
            ];
            if qa {
                let on: Vec<u32> = proofs
                    .tickets
                    .iter()
                    .filter(|t| usize::from(t.way) == id)
                    .map(|t| t.ticket)
                    .collect();
                row.push(Cell::new(ranges(&on)));
            }
            row
        })
        .collect();
    flow.table(&head, &rows, &[false, true, true, false][..head.len()], 8.5);

    let m = &spec.game;
    let features = m.features();
    if features.is_empty() {
        return;
    }
    flow.heading(w.features[0], 12.0);
    // The ticket a deck promised for each feature; a production block promises none.
    let promised = man.promised_features.as_ref().filter(|p| !p.is_empty());
    let mut head = vec![bold(w.features[1]), bold(w.features[2])];
    if qa && promised.is_some() {
        head.push(bold(w.features[3]));
    }
    if qa {
        head.push(bold(w.features[4]));
    }
    let shown: Vec<_> = proofs.tickets.iter().map(|t| m.evaluate(&t.face)).collect();
    let rows: Vec<Vec<Cell>> = features
        .iter()
        .map(|&(id, f)| {
            let mut row = vec![
                bold(&f.name.replace('_', " ")),
                Cell::new(f.about_in(spec.language)),
            ];
            if let (true, Some(promised)) = (qa, promised) {
                let on = promised
                    .iter()
                    .find(|p| p.feature == f.name)
                    .map_or("—".to_string(), |p| p.ticket.to_string());
                row.push(Cell::new(on));
            }
            if qa {
                let on: Vec<u32> = proofs
                    .tickets
                    .iter()
                    .zip(&shown)
                    .filter(|(_, e)| e.shows(id))
                    .map(|(t, _)| t.ticket)
                    .collect();
                row.push(Cell::new(ranges(&on)));
            }
            row
        })
        .collect();
    let right = [false, false, promised.is_some(), false];
    flow.table(&head, &rows, &right[..head.len()], 8.5);
}

/// `s` with its first letter in capitals (`code jeu` → `Code jeu`).
fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A table cell in bold.
fn bold(text: &str) -> Cell {
    Cell {
        text: text.to_string(),
        font: Font::Bold,
    }
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

/// True when the ticket numbers `tickets` rise from first to last (print order, as
/// `--pack`, `--way` and `--tier` select them), so the cover says "in print order" rather
/// than "in the order asked".
fn ascending(tickets: impl IntoIterator<Item = u32>) -> bool {
    let mut last = 0;
    tickets.into_iter().all(|t| {
        let up = t > last;
        last = t;
        up
    })
}

#[cfg(test)]
mod tests {
    use super::{ascending, ranges, scale_words};

    #[test]
    fn the_scale_is_said_as_a_percentage_or_a_range() {
        let w = ("Drawn at", "of size", "Full size");
        assert_eq!(scale_words(&[1.0], w), "Full size.");
        assert_eq!(scale_words(&[0.7712], w), "Drawn at 77 % of size.");
        assert_eq!(
            scale_words(&[0.8, 0.75, 0.8], w),
            "Drawn at 75–80 % of size."
        );
        assert_eq!(scale_words(&[], w), "Full size.");
    }

    #[test]
    fn tickets_in_print_order_are_told_from_tickets_in_the_order_asked() {
        assert!(ascending([1, 5, 9, 10]));
        assert!(ascending([7]));
        assert!(ascending([]));
        assert!(!ascending([9, 1]));
        assert!(!ascending([1, 5, 5]));
    }

    #[test]
    fn ticket_numbers_are_written_as_runs() {
        assert_eq!(ranges(&[1, 2, 3, 4, 7, 9, 10]), "1–4, 7, 9, 10");
        assert_eq!(ranges(&[5]), "5");
        assert_eq!(ranges(&[]), "—");
        assert_eq!(ranges(&[3, 1, 2]), "3, 1, 2");
    }
}
