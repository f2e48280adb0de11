//! A [`Canvas`] written as an SVG document (one `<svg>` element, sizes in points).

use super::{Anchor, Canvas, Color, Font, Item};
use std::fmt::Write;

/// The SVG text of `canvas`: its width and height in `pt`, a view box in points, every item
/// in order. Fonts are named as Helvetica with the usual stand-ins, so that a screen shows
/// what the PDF shows.
pub fn to_svg(canvas: &Canvas) -> String {
    let (w, h) = (num(canvas.width), num(canvas.height));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, 'Liberation Sans', sans-serif">"#
    );
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
                let _ = write!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}""#,
                    num(*x),
                    num(*y),
                    num(*w),
                    num(*h)
                );
                if *radius > 0.0 {
                    let _ = write!(s, r#" rx="{}""#, num(*radius));
                }
                let _ = write!(s, r#" fill="{}""#, fill.map_or("none".into(), hex));
                if let Some((c, lw)) = stroke {
                    let _ = write!(s, r#" stroke="{}" stroke-width="{}""#, hex(*c), num(*lw));
                }
                s.push_str("/>\n");
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                color,
                width,
            } => {
                let _ = writeln!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{}"/>"#,
                    num(*x1),
                    num(*y1),
                    num(*x2),
                    num(*y2),
                    hex(*color),
                    num(*width)
                );
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
                let _ = write!(
                    s,
                    r#"<text x="{}" y="{}" font-size="{}""#,
                    num(*x),
                    num(*y),
                    num(*size)
                );
                match font {
                    Font::Regular => {}
                    Font::Bold => s.push_str(r#" font-weight="bold""#),
                    Font::Mono => s.push_str(
                        r#" font-family="Courier, 'Courier New', 'Liberation Mono', monospace""#,
                    ),
                    Font::Symbol => {
                        s.push_str(r#" font-family="'DejaVu Sans', Symbol, sans-serif""#)
                    }
                }
                match anchor {
                    Anchor::Start => {}
                    Anchor::Middle => s.push_str(r#" text-anchor="middle""#),
                    Anchor::End => s.push_str(r#" text-anchor="end""#),
                }
                if *color != Color::BLACK {
                    let _ = write!(s, r#" fill="{}""#, hex(*color));
                }
                let _ = writeln!(s, ">{}</text>", esc(text));
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

/// A length with at most two decimals and no trailing zeros (`12`, `12.5`, `0.25`).
fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let t = format!("{r:.2}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn hex(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_become_svg_elements() {
        let mut c = Canvas::new(100.0, 50.5);
        c.rect(
            1.0,
            2.0,
            30.0,
            40.0,
            3.0,
            Some(Color::WHITE),
            Some((Color::BLACK, 0.5)),
        );
        c.line(0.0, 0.0, 10.0, 10.0, Color::GREY, 1.0);
        c.text_styled(
            5.0,
            9.0,
            12.0,
            Font::Bold,
            Color::WIN,
            Anchor::Middle,
            "A & B",
        );
        assert_eq!(
            to_svg(&c),
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="100pt" height="50.5pt" viewBox="0 0 100 50.5" font-family="Helvetica, Arial, 'Liberation Sans', sans-serif">"#,
                "\n",
                r##"<rect x="1" y="2" width="30" height="40" rx="3" fill="#ffffff" stroke="#000000" stroke-width="0.5"/>"##,
                "\n",
                r##"<line x1="0" y1="0" x2="10" y2="10" stroke="#6e6e6e" stroke-width="1"/>"##,
                "\n",
                r##"<text x="5" y="9" font-size="12" font-weight="bold" text-anchor="middle" fill="#00823c">A &amp; B</text>"##,
                "\n</svg>\n"
            )
        );
    }
}
