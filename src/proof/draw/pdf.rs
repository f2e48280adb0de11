//! Canvases written as the pages of one PDF document (PDF 1.7, by the `pdf-writer` crate).
//!
//! Text is set in the standard fonts Helvetica, Helvetica-Bold and Courier with the
//! WinAnsi encoding, so nothing is embedded, every reader shows the same letters, and the
//! text can be searched and copied. A character WinAnsi lacks is written `?`. The document
//! carries its title and no date, so the same drawing gives the same bytes.

use super::{text_width, Anchor, Canvas, Color, Font, Item};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

/// A4 width in points (210 mm).
pub const A4_WIDTH: f64 = 595.28;
/// A4 height in points (297 mm).
pub const A4_HEIGHT: f64 = 841.89;

/// The PDF bytes of a document whose pages are `pages` (each page as large as its canvas),
/// titled `title` in its document information.
pub fn document(title: &str, pages: &[Canvas]) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let info = Ref::new(3);
    let fonts = [Ref::new(4), Ref::new(5), Ref::new(6), Ref::new(7)];
    let first = 8;
    pdf.catalog(catalog).pages(tree);
    let kids: Vec<Ref> = (0..pages.len())
        .map(|i| Ref::new(first + 2 * i as i32))
        .collect();
    pdf.pages(tree)
        .kids(kids.iter().copied())
        .count(pages.len() as i32);
    pdf.document_info(info)
        .title(TextStr(title))
        .creator(TextStr("tirage"))
        .producer(TextStr("tirage"));
    for (r, base) in fonts
        .iter()
        .zip([&b"Helvetica"[..], b"Helvetica-Bold", b"Courier"])
    {
        pdf.type1_font(*r)
            .base_font(Name(base))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
    }
    // Symbol, in its own encoding: the card suits.
    pdf.type1_font(fonts[3]).base_font(Name(b"Symbol"));
    for (i, canvas) in pages.iter().enumerate() {
        let page_id = kids[i];
        let content_id = Ref::new(first + 2 * i as i32 + 1);
        let mut page = pdf.page(page_id);
        page.media_box(Rect::new(
            0.0,
            0.0,
            canvas.width as f32,
            canvas.height as f32,
        ));
        page.parent(tree);
        page.contents(content_id);
        {
            let mut res = page.resources();
            let mut f = res.fonts();
            f.pair(Name(b"F1"), fonts[0]);
            f.pair(Name(b"F2"), fonts[1]);
            f.pair(Name(b"F3"), fonts[2]);
            f.pair(Name(b"F4"), fonts[3]);
        }
        page.finish();
        let data = content(canvas).finish().into_vec();
        // zlib, the FlateDecode filter, by the `miniz_oxide` crate.
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&data, 6);
        pdf.stream(content_id, &packed).filter(Filter::FlateDecode);
    }
    pdf.finish()
}

/// The content stream drawing `canvas` (PDF's `y` grows upwards from the bottom edge).
fn content(canvas: &Canvas) -> Content {
    let mut c = Content::new();
    let flip = |y: f64| (canvas.height - y) as f32;
    for item in &canvas.items {
        match item {
            Item::Rect {
                x,
                y,
                w,
                h,
                radius,
                fill,
                stroke,
            } => {
                if fill.is_none() && stroke.is_none() {
                    continue;
                }
                if let Some(f) = fill {
                    set_fill(&mut c, *f);
                }
                if let Some((s, lw)) = stroke {
                    c.set_stroke_rgb(ch(s.0), ch(s.1), ch(s.2));
                    c.set_line_width(*lw as f32);
                }
                path_rect(&mut c, *x, flip(*y + *h) as f64, *w, *h, *radius);
                match (fill.is_some(), stroke.is_some()) {
                    (true, true) => c.fill_nonzero_and_stroke(),
                    (true, false) => c.fill_nonzero(),
                    _ => c.stroke(),
                };
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                color,
                width,
            } => {
                c.set_stroke_rgb(ch(color.0), ch(color.1), ch(color.2));
                c.set_line_width(*width as f32);
                c.move_to(*x1 as f32, flip(*y1));
                c.line_to(*x2 as f32, flip(*y2));
                c.stroke();
            }
            Item::Text {
                x,
                y,
                size,
                font,
                color,
                anchor,
                text,
            } => {
                let w = text_width(text, *font, *size);
                let left = match anchor {
                    Anchor::Start => *x,
                    Anchor::Middle => x - w / 2.0,
                    Anchor::End => x - w,
                };
                let name = match font {
                    Font::Regular => Name(b"F1"),
                    Font::Bold => Name(b"F2"),
                    Font::Mono => Name(b"F3"),
                    Font::Symbol => Name(b"F4"),
                };
                set_fill(&mut c, *color);
                let bytes = match font {
                    Font::Symbol => symbol(text),
                    _ => win_ansi(text),
                };
                c.begin_text();
                c.set_font(name, *size as f32);
                c.next_line(left as f32, flip(*y));
                c.show(Str(&bytes));
                c.end_text();
            }
        }
    }
    c
}

fn ch(v: u8) -> f32 {
    f32::from(v) / 255.0
}

fn set_fill(c: &mut Content, f: Color) {
    c.set_fill_rgb(ch(f.0), ch(f.1), ch(f.2));
}

/// A rectangle path with its bottom left corner at (`x`, `y`) in PDF space and corners
/// rounded to `r` (Bézier quarter circles).
fn path_rect(c: &mut Content, x: f64, y: f64, w: f64, h: f64, r: f64) {
    let r = r.min(w / 2.0).min(h / 2.0);
    if r <= 0.0 {
        c.rect(x as f32, y as f32, w as f32, h as f32);
        return;
    }
    let k = r * 0.552_284_75;
    let f = |v: f64| v as f32;
    let (x1, y1) = (x + w, y + h);
    c.move_to(f(x + r), f(y));
    c.line_to(f(x1 - r), f(y));
    c.cubic_to(f(x1 - r + k), f(y), f(x1), f(y + r - k), f(x1), f(y + r));
    c.line_to(f(x1), f(y1 - r));
    c.cubic_to(f(x1), f(y1 - r + k), f(x1 - r + k), f(y1), f(x1 - r), f(y1));
    c.line_to(f(x + r), f(y1));
    c.cubic_to(f(x + r - k), f(y1), f(x), f(y1 - r + k), f(x), f(y1 - r));
    c.line_to(f(x), f(y + r));
    c.cubic_to(f(x), f(y + r - k), f(x + r - k), f(y), f(x + r), f(y));
    c.close_path();
}

/// `text` in the Symbol font's own encoding: the card suits ♣ ♦ ♥ ♠; any other character
/// becomes `?`.
pub fn symbol(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            '♣' => 0xa7,
            '♦' => 0xa8,
            '♥' => 0xa9,
            '♠' => 0xaa,
            _ => b'?',
        })
        .collect()
}

/// `text` in the WinAnsi (Windows-1252) encoding of the standard fonts; a character it
/// lacks becomes `?`.
pub fn win_ansi(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c as u32 {
            n @ (0x20..=0x7e | 0xa0..=0xff) => n as u8,
            _ => match c {
                '€' => 0x80,
                '‚' => 0x82,
                '„' => 0x84,
                '…' => 0x85,
                '‰' => 0x89,
                'Œ' => 0x8c,
                '‘' => 0x91,
                '’' => 0x92,
                '“' => 0x93,
                '”' => 0x94,
                '•' => 0x95,
                '–' => 0x96,
                '—' => 0x97,
                '™' => 0x99,
                'œ' => 0x9c,
                '\u{202f}' => 0xa0,
                _ => b'?',
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_text_is_encoded_for_the_standard_fonts() {
        assert_eq!(win_ansi("Gain : 5 €"), b"Gain : 5 \x80");
        assert_eq!(win_ansi("« Jeu 1 »"), b"\xab Jeu 1 \xbb");
        assert_eq!(win_ansi("é—✓"), b"\xe9\x97?");
    }

    #[test]
    fn a_document_has_one_page_per_canvas_and_no_date() {
        let mut a = Canvas::new(A4_WIDTH, A4_HEIGHT);
        a.text(
            50.0,
            50.0,
            12.0,
            Font::Regular,
            "serial 17030010010000010012",
        );
        let b = Canvas::new(200.0, 100.0);
        let pdf = document("proofs", &[a.clone(), b]);
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.starts_with("%PDF-1.7"));
        assert_eq!(text.matches("/MediaBox").count(), 2);
        assert!(!text.contains("CreationDate"));
        assert_eq!(pdf, document("proofs", &[a, Canvas::new(200.0, 100.0)]));
    }
}
