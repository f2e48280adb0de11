//! The audit report as a list of blocks (headings, paragraphs, lists, tables, the chart,
//! the signature block), written once and rendered twice: as Markdown (`audit.md`) and as
//! A4 pages (`audit.pdf`, through [`crate::proof::draw::page`]). Texts carry Markdown's inline
//! marks (`` `code` ``, `**bold**`); the PDF sets a cell that is all code in Courier and one
//! that is all bold in bold, and drops the marks elsewhere.

use crate::proof::draw::page::{plain, Cell, Flow};
use crate::proof::draw::{Canvas, Color, Font};
use std::fmt::Write as _;

/// One block of the report.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// The report's title (`#`).
    Title(String),
    /// A section heading (`##`).
    Heading(String),
    /// A subsection heading (`###`).
    Subheading(String),
    /// A paragraph.
    Para(String),
    /// A list item at depth 0 or 1.
    Item(usize, String),
    /// A table: its header, which columns are right-aligned, its rows.
    Table {
        /// Column titles.
        head: Vec<String>,
        /// Right-aligned columns (numbers).
        right: Vec<bool>,
        /// The rows, one text per column.
        rows: Vec<Vec<String>>,
    },
    /// The chart: a link to `audit.svg` in Markdown, the drawing itself in the PDF.
    Chart {
        /// The link's text.
        alt: String,
        /// The file it links to.
        file: String,
    },
    /// The signature block: per party (its role), the name given, and lines for the
    /// signatory's title, the date and the signature.
    Signatures(Vec<(String, Option<String>)>),
    /// A warning set apart from the text: a quoted paragraph in Markdown, a framed one in
    /// red in the PDF. It may open with a `**bold**` sentence, set on its own line.
    Warning(String),
}

/// A table block from its header (a `>` before a title right-aligns its column) and rows.
pub fn table(head: &[&str], rows: Vec<Vec<String>>) -> Block {
    Block::Table {
        head: head
            .iter()
            .map(|h| h.trim_start_matches('>').to_string())
            .collect(),
        right: head.iter().map(|h| h.starts_with('>')).collect(),
        rows,
    }
}

/// The blocks as Markdown: one blank line between blocks, none between list items. Every
/// character that does not show as written ([`crate::text::hidden`]) but the line feed is
/// written as an escape (`\u{1b}`): a folder's name or a file's bytes quoted in the report
/// never drive the terminal of whoever reads it with `cat`, nor reorder what it says.
pub fn markdown(blocks: &[Block]) -> String {
    let s = markdown_raw(blocks);
    crate::text::shown(&s, &['\n']).into_owned()
}

/// [`markdown`] before the escapes.
fn markdown_raw(blocks: &[Block]) -> String {
    let mut s = String::new();
    let mut prev_item = false;
    for (i, b) in blocks.iter().enumerate() {
        let item = matches!(b, Block::Item(..));
        if i > 0 && !(item && prev_item) {
            s.push('\n');
        }
        prev_item = item;
        match b {
            Block::Title(t) => {
                let _ = writeln!(s, "# {t}");
            }
            Block::Heading(t) => {
                let _ = writeln!(s, "## {t}");
            }
            Block::Subheading(t) => {
                let _ = writeln!(s, "### {t}");
            }
            Block::Para(t) => {
                let _ = writeln!(s, "{t}");
            }
            Block::Item(depth, t) => {
                let _ = writeln!(s, "{}- {t}", "  ".repeat(*depth));
            }
            Block::Table { head, right, rows } => {
                let _ = writeln!(s, "| {} |", head.join(" | "));
                let rule: Vec<&str> = right
                    .iter()
                    .map(|&r| if r { "---:" } else { "---" })
                    .collect();
                let _ = writeln!(s, "|{}|", rule.join("|"));
                for r in rows {
                    // A `|` inside a cell (a name, a quoted file's bytes) stays in its cell.
                    let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
                    let _ = writeln!(s, "| {} |", cells.join(" | "));
                }
            }
            Block::Chart { alt, file } => {
                let _ = writeln!(s, "![{alt}]({file})");
            }
            Block::Warning(t) => {
                let _ = writeln!(s, "> {t}");
            }
            Block::Signatures(parties) => {
                let names: Vec<String> = parties
                    .iter()
                    .map(|(_, n)| n.as_deref().unwrap_or("(not named)").replace('|', "\\|"))
                    .collect();
                let roles: Vec<&str> = parties.iter().map(|(r, _)| r.as_str()).collect();
                let blank = vec![""; parties.len()].join(" | ");
                let _ = writeln!(s, "| | {} |", roles.join(" | "));
                let _ = writeln!(s, "|---|{}|", vec!["---"; parties.len()].join("|"));
                let _ = writeln!(s, "| name | {} |", names.join(" | "));
                let _ = writeln!(s, "| title | {blank} |");
                let _ = writeln!(s, "| date | {blank} |");
                let _ = writeln!(s, "| signature | {blank} |");
            }
        }
    }
    s
}

/// A text's inline marks read for the PDF: all `` `code` `` → Courier, all `**bold**` →
/// bold, else the marks dropped; the signs WinAnsi lacks spelled out ([`plain`]).
fn inline(text: &str) -> Cell {
    let t = text.trim();
    let whole = |mark: &str| {
        t.len() > 2 * mark.len()
            && t.starts_with(mark)
            && t.ends_with(mark)
            && !t[mark.len()..t.len() - mark.len()].contains(mark)
    };
    let (text, font) = if whole("`") {
        (&t[1..t.len() - 1], Font::Mono)
    } else if whole("**") {
        (&t[2..t.len() - 2], Font::Bold)
    } else {
        (t, Font::Regular)
    };
    Cell {
        text: plain(&text.replace("**", "").replace('`', "")),
        font,
    }
}

/// Text size of paragraphs, in points.
const BODY: f64 = 9.0;
/// Text size of tables, in points.
const SMALL: f64 = 7.5;

/// The blocks as A4 pages headed `head`; the pieces of `chart` are drawn where the chart
/// block is, each on the page where it fits (nothing there when `chart` is empty).
pub fn pages(blocks: &[Block], head: &str, chart: &[Canvas]) -> Vec<Canvas> {
    let mut f = Flow::new(&plain(head));
    for b in blocks {
        match b {
            Block::Title(t) => f.heading(&plain(t), 15.0),
            Block::Heading(t) => f.heading(&plain(&t.replace('`', "")), 12.0),
            Block::Subheading(t) => f.heading(&plain(&t.replace('`', "")), 10.0),
            Block::Para(t) => {
                // A paragraph opening with a bold sentence: that sentence on its own line.
                let rest = t.strip_prefix("**").and_then(|r| r.split_once("**"));
                if let Some((bold, rest)) = rest {
                    f.paragraph(&plain(bold), Font::Bold, BODY + 1.0, 0.0);
                    let c = inline(rest);
                    if !c.text.is_empty() {
                        f.paragraph(&c.text, Font::Regular, BODY, 0.0);
                    }
                } else {
                    let c = inline(t);
                    // A paragraph that introduces what follows stays with its start.
                    if c.text.ends_with(':') {
                        f.ensure(BODY * 1.3 * 2.0 + 50.0);
                    }
                    f.paragraph(&c.text, c.font, BODY, 0.0);
                }
            }
            Block::Item(depth, t) => {
                let c = inline(t);
                f.item(&c.text, c.font, BODY, 6.0 + 12.0 * *depth as f64);
            }
            Block::Table { head, right, rows } => {
                let head: Vec<Cell> = head.iter().map(|h| inline(h)).collect();
                let rows: Vec<Vec<Cell>> = rows
                    .iter()
                    .map(|r| r.iter().map(|c| inline(c)).collect())
                    .collect();
                f.table(&head, &rows, right, SMALL);
            }
            Block::Chart { .. } => {
                for c in chart {
                    f.drawing(c);
                }
            }
            Block::Signatures(parties) => signatures(&mut f, parties),
            Block::Warning(t) => warning(&mut f, t),
        }
    }
    f.finish()
}

/// A red frame around `text` (its opening `**bold**` sentence in bold on lines of its
/// own), kept on one page.
fn warning(f: &mut Flow, text: &str) {
    let (bold, rest) = match text.strip_prefix("**").and_then(|r| r.split_once("**")) {
        Some((b, r)) => (plain(b), inline(r).text),
        None => (String::new(), inline(text).text),
    };
    let room = f.width() - 24.0;
    let wrap = crate::proof::draw::page::wrap;
    let mut lines: Vec<(String, Font)> = Vec::new();
    if !bold.is_empty() {
        lines.extend(
            wrap(&bold, Font::Bold, BODY, room)
                .into_iter()
                .map(|l| (l, Font::Bold)),
        );
    }
    lines.extend(
        wrap(&rest, Font::Regular, BODY, room)
            .into_iter()
            .map(|l| (l, Font::Regular)),
    );
    let step = BODY * 1.3;
    let h = 10.0 + step * lines.len() as f64 + 6.0;
    f.space(4.0);
    let w = f.width();
    f.boxed(h + 8.0, |c, x0, y0| {
        c.rect(
            x0,
            y0,
            w,
            h,
            3.0,
            Some(Color(253, 236, 234)),
            Some((Color::RED, 1.2)),
        );
        for (i, (l, font)) in lines.into_iter().enumerate() {
            c.text(x0 + 12.0, y0 + 10.0 + BODY + step * i as f64, BODY, font, l);
        }
    });
}

/// One box per party, side by side: its role, the name given (or a line to write it on),
/// then lines for the signatory's title, the date and the signature.
fn signatures(f: &mut Flow, parties: &[(String, Option<String>)]) {
    let n = parties.len().max(1) as f64;
    let gap = 16.0;
    let w = (f.width() - gap * (n - 1.0)) / n;
    let h = 144.0;
    f.space(6.0);
    f.boxed(h, |c, x0, y0| {
        for (i, (role, name)) in parties.iter().enumerate() {
            let x = x0 + i as f64 * (w + gap);
            c.rect(x, y0, w, h - 8.0, 3.0, None, Some((Color::GREY, 0.6)));
            c.text(x + 10.0, y0 + 18.0, 10.0, Font::Bold, plain(role));
            let lines = [
                ("Name", name.as_deref()),
                ("Title", None),
                ("Date", None),
                ("Signature", None),
            ];
            for (k, (label, value)) in lines.iter().enumerate() {
                let y = y0 + 42.0 + 26.0 * k as f64;
                c.text(x + 10.0, y, 8.5, Font::Regular, *label);
                let lx = x + 62.0;
                match value {
                    Some(v) => {
                        // On one line at 9 pt, else on two lines (the second shrunk to fit).
                        let v = plain(v);
                        let room = w - 72.0;
                        let mut lines =
                            crate::proof::draw::page::wrap(&v, Font::Regular, 8.5, room);
                        if lines.len() > 2 {
                            let rest = lines.split_off(1).join(" ");
                            lines.push(rest);
                        }
                        let one = lines.len() == 1;
                        for (n, l) in lines.iter().enumerate() {
                            let size = crate::proof::draw::fit(
                                l,
                                Font::Regular,
                                if one { 9.0 } else { 8.5 },
                                room,
                            );
                            c.text(
                                lx,
                                y - if one { 0.0 } else { 5.0 } + 10.0 * n as f64,
                                size,
                                Font::Regular,
                                l.clone(),
                            );
                        }
                    }
                    None => c.line(lx, y + 1.0, x + w - 10.0, y + 1.0, Color::GREY, 0.6),
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escapes_what_does_not_show_as_written() {
        let md = markdown(&[
            Block::Para("in `dk\u{1b}[2Jz`\u{202e}".into()),
            Block::Item(0, "a\tb".into()),
        ]);
        assert_eq!(md, "in `dk\\u{1b}[2Jz`\\u{202e}\n\n- a\\tb\n");
    }

    #[test]
    fn markdown_separates_blocks_and_keeps_lists_together() {
        let blocks = vec![
            Block::Heading("1. A".into()),
            Block::Para("text".into()),
            Block::Item(0, "a".into()),
            Block::Item(1, "b".into()),
            table(&["x", ">n"], vec![vec!["`k`".into(), "2|3".into()]]),
        ];
        assert_eq!(
            markdown(&blocks),
            "## 1. A\n\ntext\n\n- a\n  - b\n\n| x | n |\n|---|---:|\n| `k` | 2\\|3 |\n"
        );
    }

    #[test]
    fn markdown_quotes_a_warning_and_gives_a_title_line_to_sign() {
        let blocks = vec![
            Block::Warning("**Careful.** Read this.".into()),
            Block::Signatures(vec![("Auditor".into(), Some("C. M.".into()))]),
        ];
        assert_eq!(
            markdown(&blocks),
            "> **Careful.** Read this.\n\n| | Auditor |\n|---|---|\n| name | C. M. |\n\
             | title |  |\n| date |  |\n| signature |  |\n"
        );
    }

    /// A chart in pieces after text filling half a page: the first piece on that page,
    /// where the whole chart would have gone to the next one and left half a page empty.
    #[test]
    fn a_chart_in_pieces_starts_on_the_page_where_its_first_piece_fits() {
        let mut blocks: Vec<Block> = (0..20).map(|i| Block::Para(format!("line {i}"))).collect();
        blocks.push(Block::Chart {
            alt: "chart".into(),
            file: "audit.svg".into(),
        });
        let piece = |label: &str| {
            let mut c = Canvas::new(500.0, 250.0);
            c.text(10.0, 10.0, 9.0, Font::Regular, label.to_string());
            c
        };
        let pieces = [piece("first"), piece("second"), piece("third")];
        let pages = pages(&blocks, "head", &pieces);
        let on = |p: &Canvas| p.texts().map(str::to_string).collect::<Vec<_>>();
        assert!(on(&pages[0]).contains(&"line 19".to_string()));
        assert!(
            on(&pages[0]).contains(&"first".to_string()),
            "{:?}",
            on(&pages[0])
        );
        assert!(!on(&pages[0]).contains(&"third".to_string()));
        assert!(on(&pages[1]).contains(&"third".to_string()));
    }

    #[test]
    fn inline_marks_choose_the_font() {
        assert_eq!(inline("`abc`").font, Font::Mono);
        assert_eq!(inline("**no**").font, Font::Bold);
        let c = inline("`a` and `b` ≥ 1");
        assert_eq!((c.text.as_str(), c.font), ("a and b >= 1", Font::Regular));
    }
}
