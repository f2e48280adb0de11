//! Text laid out over as many A4 pages as it needs: headings, wrapped paragraphs, tables
//! whose cells wrap, drawings scaled to the text width, each page with a running head and
//! its number ("page 2 of 5").
//!
//! A [`Flow`] is filled top to bottom; [`Flow::finish`] returns one [`Canvas`] per page,
//! for [`super::pdf::document`]. Nothing is ever drawn past the margins: a line that does
//! not fit on the page goes to the next, a table row too that carries its header along, and
//! a word wider than its column is broken between letters.

use super::pdf::{A4_HEIGHT, A4_WIDTH};
use super::{text_width, Anchor, Canvas, Color, Font};

/// Left and right margins in points.
pub const MARGIN_X: f64 = 36.0;
/// Top margin (under the running head) in points.
const MARGIN_TOP: f64 = 50.0;
/// Bottom margin (over the page number) in points.
const MARGIN_BOTTOM: f64 = 46.0;
/// Padding inside a table cell, each side, in points.
const PAD: f64 = 3.0;

/// One table cell: its text and font.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The text (wrapped to the column).
    pub text: String,
    /// Its font.
    pub font: Font,
}

impl Cell {
    /// A cell in the regular font.
    pub fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            font: Font::Regular,
        }
    }
}

/// Pages being filled.
#[derive(Debug)]
pub struct Flow {
    pages: Vec<Canvas>,
    y: f64,
    head: String,
    /// Headings not drawn yet, with their size: each is drawn with what follows it, on
    /// the page that has room for both.
    pending: Vec<(String, f64)>,
    /// The words of "page i of n", before i and before n.
    page_words: (&'static str, &'static str),
}

impl Flow {
    /// An empty flow of A4 pages whose running head is `head`.
    pub fn new(head: &str) -> Flow {
        let mut f = Flow {
            pages: Vec::new(),
            y: 0.0,
            head: head.to_string(),
            pending: Vec::new(),
            page_words: ("page", "of"),
        };
        f.new_page();
        f
    }

    /// Numbers the pages with `words` ("page i of n": the words before i and before n)
    /// instead of English's.
    pub fn page_words(&mut self, words: (&'static str, &'static str)) {
        self.page_words = words;
    }

    /// The width text may take, in points.
    pub fn width(&self) -> f64 {
        A4_WIDTH - 2.0 * MARGIN_X
    }

    fn bottom(&self) -> f64 {
        A4_HEIGHT - MARGIN_BOTTOM
    }

    fn page(&mut self) -> &mut Canvas {
        self.pages.last_mut().expect("a flow always has a page")
    }

    /// Starts a new page.
    pub fn new_page(&mut self) {
        self.pages.push(Canvas::new(A4_WIDTH, A4_HEIGHT));
        self.y = MARGIN_TOP;
    }

    /// Starts a new page unless `h` points are left on this one, after the headings not
    /// drawn yet: they go on the page that has room for them and `h` points more, so that
    /// no page ends with a heading whose text, table or chart is on the next.
    pub fn ensure(&mut self, h: f64) {
        if !self.pending.is_empty() {
            let headings = std::mem::take(&mut self.pending);
            let need = self.headings_height(&headings);
            self.room_for(need + h);
            for (text, size) in headings {
                self.space(size * 0.6);
                self.lines(&text, Font::Bold, size, Color::BLACK, 0.0);
                self.y += size * 0.3;
            }
        }
        self.room_for(h);
    }

    fn room_for(&mut self, h: f64) {
        if self.y + h > self.bottom() && self.y > MARGIN_TOP {
            self.new_page();
        }
    }

    /// The height `headings` take, with the space above each.
    fn headings_height(&self, headings: &[(String, f64)]) -> f64 {
        headings
            .iter()
            .map(|(text, size)| {
                let lines = wrap(text, Font::Bold, *size, self.width()).len() as f64;
                size * 0.6 + lines * size * 1.3 + size * 0.3
            })
            .sum()
    }

    /// Leaves `h` points of space (none at the top of a page).
    pub fn space(&mut self, h: f64) {
        if self.y > MARGIN_TOP {
            self.y = (self.y + h).min(self.bottom());
        }
    }

    /// A heading of `size` points in bold, drawn on the page of what follows it: the
    /// first line of a paragraph, the header and first row of a table, a whole chart or
    /// box.
    pub fn heading(&mut self, text: &str, size: f64) {
        self.pending.push((text.to_string(), size));
    }

    /// A paragraph wrapped to the text width, indented `indent` points.
    pub fn paragraph(&mut self, text: &str, font: Font, size: f64, indent: f64) {
        self.lines(text, font, size, Color::BLACK, indent);
        self.y += size * 0.45;
    }

    /// A list item: a bullet at `indent` points, the text wrapped beside it (its lines
    /// aligned after the bullet).
    pub fn item(&mut self, text: &str, font: Font, size: f64, indent: f64) {
        let lead = size * 1.3;
        self.ensure(lead);
        let y = self.y + size;
        self.page()
            .text(MARGIN_X + indent, y, size, Font::Regular, "•");
        self.lines(text, font, size, Color::BLACK, indent + size);
        self.y += size * 0.45;
    }

    /// Wrapped lines of `text`, each on the next baseline, breaking pages between lines.
    fn lines(&mut self, text: &str, font: Font, size: f64, color: Color, indent: f64) {
        let lead = size * 1.3;
        let lines = wrap(text, font, size, self.width() - indent);
        // A heading above keeps its first three lines (or all, when fewer) with it.
        self.ensure(lines.len().min(3) as f64 * lead);
        for line in lines {
            self.ensure(lead);
            let y = self.y + size;
            self.page()
                .text_styled(MARGIN_X + indent, y, size, font, color, Anchor::Start, line);
            self.y += lead;
        }
    }

    /// A table: `head` in bold on a grey band, then `rows`, text `size` points; columns
    /// flagged in `right` are right-aligned. Column widths follow their content, within the
    /// text width; a cell wraps inside its column. A row never splits over two pages; the
    /// header is repeated on each page the table runs onto.
    pub fn table(&mut self, head: &[Cell], rows: &[Vec<Cell>], right: &[bool], size: f64) {
        let widths = column_widths(head, rows, size, self.width());
        let lead = size * 1.25;
        let layout = |row: &[Cell]| -> (Vec<Vec<String>>, f64) {
            let cells: Vec<Vec<String>> = row
                .iter()
                .zip(&widths)
                .map(|(c, &w)| wrap(&c.text, c.font, size, w - 2.0 * PAD))
                .collect();
            let n = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
            (cells, n as f64 * lead + 2.0 * PAD)
        };
        let (head_lines, head_h) = layout(head);
        let head_bold: Vec<Cell> = head
            .iter()
            .map(|c| Cell {
                text: c.text.clone(),
                font: Font::Bold,
            })
            .collect();
        self.ensure(head_h + layout(rows.first().map_or(&[][..], |r| r)).1);
        self.row(&head_bold, &head_lines, head_h, &widths, right, size, true);
        for r in rows {
            let (lines, h) = layout(r);
            if self.y + h > self.bottom() {
                self.new_page();
                self.row(&head_bold, &head_lines, head_h, &widths, right, size, true);
            }
            self.row(r, &lines, h, &widths, right, size, false);
        }
        self.y += size * 0.8;
    }

    #[allow(clippy::too_many_arguments)]
    fn row(
        &mut self,
        cells: &[Cell],
        lines: &[Vec<String>],
        h: f64,
        widths: &[f64],
        right: &[bool],
        size: f64,
        header: bool,
    ) {
        let y0 = self.y;
        let total: f64 = widths.iter().sum();
        let page = self.pages.last_mut().expect("a page");
        if header {
            page.rect(
                MARGIN_X,
                y0,
                total,
                h,
                0.0,
                Some(Color(235, 235, 235)),
                None,
            );
        }
        page.line(
            MARGIN_X,
            y0 + h,
            MARGIN_X + total,
            y0 + h,
            Color::LIGHT,
            0.5,
        );
        let mut x = MARGIN_X;
        for (i, (&w, cell)) in widths.iter().zip(cells).enumerate() {
            let r = right.get(i).copied().unwrap_or(false);
            for (k, l) in lines.get(i).into_iter().flatten().enumerate() {
                let by = y0 + PAD + size + k as f64 * size * 1.25 - size * 0.15;
                let (ax, anchor) = if r {
                    (x + w - PAD, Anchor::End)
                } else {
                    (x + PAD, Anchor::Start)
                };
                page.text_styled(ax, by, size, cell.font, Color::BLACK, anchor, l.clone());
            }
            x += w;
        }
        self.y = y0 + h;
    }

    /// `drawing` scaled to the text width (never enlarged), on this page if it fits, else
    /// on the next.
    pub fn drawing(&mut self, drawing: &Canvas) {
        let scale = (self.width() / drawing.width).min(1.0);
        let max_h = self.bottom() - MARGIN_TOP - self.headings_height(&self.pending);
        let scale = scale.min(max_h / drawing.height);
        let h = drawing.height * scale;
        self.ensure(h);
        let y = self.y;
        self.page().place(drawing, MARGIN_X, y, scale);
        self.y += h + 6.0;
    }

    /// The room of a whole page, from its top margin to its bottom one, in points.
    pub fn page_room(&self) -> f64 {
        self.bottom() - MARGIN_TOP
    }

    /// Room left on this page, in points.
    pub fn room(&self) -> f64 {
        self.bottom() - self.y
    }

    /// Draws `f(canvas, x, y)` in a box `h` points high at the current place (on the next
    /// page if it does not fit), then moves under it. `x` and `y` are the box's top left.
    pub fn boxed(&mut self, h: f64, f: impl FnOnce(&mut Canvas, f64, f64)) {
        self.ensure(h);
        let y = self.y;
        f(self.page(), MARGIN_X, y);
        self.y += h;
    }

    /// Every page, each with the running head and "page i of n" (in [`Flow::page_words`]).
    pub fn finish(mut self) -> Vec<Canvas> {
        self.ensure(0.0);
        let n = self.pages.len();
        let head = self.head.clone();
        for (i, p) in self.pages.iter_mut().enumerate() {
            let size = super::fit(&head, Font::Regular, 8.0, A4_WIDTH - 2.0 * MARGIN_X - 80.0);
            p.text_styled(
                MARGIN_X,
                30.0,
                size,
                Font::Regular,
                Color::GREY,
                Anchor::Start,
                head.clone(),
            );
            p.line(MARGIN_X, 36.0, A4_WIDTH - MARGIN_X, 36.0, Color::LIGHT, 0.5);
            p.text_styled(
                A4_WIDTH - MARGIN_X,
                A4_HEIGHT - 24.0,
                8.0,
                Font::Regular,
                Color::GREY,
                Anchor::End,
                format!("{} {} {} {n}", self.page_words.0, i + 1, self.page_words.1),
            );
        }
        self.pages
    }
}

/// Widths of a table's columns within `width` points: each column as wide as its widest
/// line (cell text unwrapped, plus padding) when they all fit; else the narrow columns keep
/// theirs and the wide ones share what is left in proportion to their natural widths
/// (never below their longest word, when that fits).
fn column_widths(head: &[Cell], rows: &[Vec<Cell>], size: f64, width: f64) -> Vec<f64> {
    let cols = head.len();
    let measure = |c: &Cell, bold: bool| {
        let font = if bold { Font::Bold } else { c.font };
        let whole = text_width(&c.text, font, size) * 1.05 + 2.0 * PAD;
        let word = c
            .text
            .split(' ')
            .map(|w| text_width(w, font, size) * 1.05)
            .fold(0.0, f64::max)
            + 2.0 * PAD;
        (whole, word)
    };
    let mut natural = vec![0.0f64; cols];
    let mut longest_word = vec![0.0f64; cols];
    for (i, c) in head.iter().enumerate() {
        let (w, word) = measure(c, true);
        natural[i] = natural[i].max(w);
        longest_word[i] = longest_word[i].max(word);
    }
    for r in rows {
        for (i, c) in r.iter().enumerate().take(cols) {
            let (w, word) = measure(c, false);
            natural[i] = natural[i].max(w);
            longest_word[i] = longest_word[i].max(word);
        }
    }
    if natural.iter().sum::<f64>() <= width {
        return natural;
    }
    let fair = width / cols.max(1) as f64;
    let narrow: f64 = natural.iter().filter(|&&w| w <= fair).sum();
    let wide: f64 = natural.iter().filter(|&&w| w > fair).sum();
    let left = width - narrow;
    if left < wide.min(width) * 0.2 {
        // Too many columns to keep the narrow ones whole: equal shares.
        return vec![fair; cols];
    }
    let mut out: Vec<f64> = natural
        .iter()
        .map(|&w| if w <= fair { w } else { w / wide * left })
        .collect();
    // Give a column its longest word where others can spare it.
    for i in 0..cols {
        let need = longest_word[i].min(fair * 2.0) - out[i];
        if need > 0.0 {
            let spare: Vec<usize> = (0..cols)
                .filter(|&j| j != i && out[j] > longest_word[j].min(fair * 2.0) + need)
                .collect();
            if let Some(&j) = spare.first() {
                out[j] -= need;
                out[i] += need;
            }
        }
    }
    out
}

/// `text` broken into lines at most `width` points wide in `font` at `size` (with the
/// tenth of margin [`super::fit`] keeps), at spaces; a word wider than a line is broken
/// between letters. An empty text gives one empty line. A currency sign or a closing mark
/// (`€`, `:`, `»`) stays on the line of the word before it, a name in `« »` on one line,
/// and a legend's `=` or a colon on the line of the words on both sides (`OEIL = 500`); a
/// line never starts or ends with the ` · ` that separates printed phrases (a break there
/// drops it).
pub fn wrap(text: &str, font: Font, size: f64, width: f64) -> Vec<String> {
    let fits = |s: &str| text_width(s, font, size) * 1.05 <= width;
    // The words no break may fall inside, each with whether a ` · ` comes before it.
    const CLOSING: [&str; 9] = ["€", "$", "£", ":", ";", "!", "?", "»", "="];
    let mut words: Vec<(String, bool)> = Vec::new();
    let (mut dot, mut glue, mut quoted) = (false, false, false);
    for w in text.split(' ') {
        if w == "·" && !quoted {
            dot = true;
            continue;
        }
        match words.last_mut() {
            Some(last) if !dot && (glue || quoted || CLOSING.contains(&w)) => {
                last.0.push(' ');
                last.0.push_str(w);
            }
            _ => words.push((w.to_string(), std::mem::take(&mut dot))),
        }
        // A quoted name stays whole (up to 40 bytes: a `«` never closed does not hold the
        // rest of the text); a legend's `=` and a colon keep the word after them.
        let short = words.last().is_some_and(|l| l.0.len() <= 40);
        quoted = (quoted || w == "«") && w != "»" && short;
        glue = w == "=" || w == ":";
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for (word, after_dot) in &words {
        let word = word.as_str();
        let candidate = match (line.is_empty(), after_dot) {
            (true, _) => word.to_string(),
            (false, true) => format!("{line} · {word}"),
            (false, false) => format!("{line} {word}"),
        };
        if fits(&candidate) {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if fits(word) {
            line = word.to_string();
            continue;
        }
        for ch in word.chars() {
            let mut next = line.clone();
            next.push(ch);
            if !fits(&next) && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                next = ch.to_string();
            }
            line = next;
        }
    }
    lines.push(line);
    lines
}

/// `text` with the signs the standard fonts' WinAnsi encoding lacks written in letters it
/// has (`χ²` → `chi²`, `10⁻⁶` → `10^-6`, `≥` → `>=`, `√` → `sqrt`, `→` → `->`), so that a
/// PDF shows no `?` in their place.
pub fn plain(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            'χ' => s.push_str("chi"),
            '⁻' => s.push_str("^-"),
            '⁰' => s.push('0'),
            '¹' => s.push('1'),
            '⁴' => s.push('4'),
            '⁵' => s.push('5'),
            '⁶' => s.push('6'),
            '⁷' => s.push('7'),
            '⁸' => s.push('8'),
            '⁹' => s.push('9'),
            '≥' => s.push_str(">="),
            '≤' => s.push_str("<="),
            '≠' => s.push_str("!="),
            '√' => s.push_str("sqrt "),
            '→' => s.push_str("->"),
            '←' => s.push_str("<-"),
            '‖' => s.push_str("||"),
            'Σ' => s.push_str("sum "),
            'Δ' => s.push_str("delta "),
            'α' => s.push_str("alpha"),
            '∞' => s.push_str("infinity"),
            '≈' => s.push('~'),
            '✓' => s.push_str("yes"),
            c => s.push(c),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_inside_long_words() {
        let lines = wrap("one two three four", Font::Regular, 10.0, 40.0);
        assert_eq!(lines, ["one two", "three", "four"]);
        let hex = "0123456789abcdef0123456789abcdef";
        let lines = wrap(hex, Font::Mono, 10.0, 60.0);
        // Courier is 6 points a letter at 10 points: 9 letters in 60 points with the margin.
        assert_eq!(lines, ["012345678", "9abcdef01", "23456789a", "bcdef"]);
        assert_eq!(wrap("", Font::Regular, 10.0, 40.0), [""]);
    }

    /// An amount keeps its currency sign, a phrase separator never starts or ends a line,
    /// and the text reads the same once the lines are joined with the separators back.
    #[test]
    fn wrap_keeps_an_amount_whole_and_breaks_between_phrases() {
        let text = "AMPHORE = 3 € · VOILIER = 50 € · OEIL = 500 € · « Jeu 1 » : 5 €";
        // Every width a legend entry fits in (a narrower one breaks words between letters).
        for width in [70.0, 80.0, 100.0, 130.0, 170.0, 400.0] {
            let lines = wrap(text, Font::Regular, 7.5, width);
            for l in &lines {
                assert!(
                    !l.starts_with('€') && !l.starts_with(':'),
                    "{width}: {lines:?}"
                );
                assert!(
                    !l.starts_with('·') && !l.ends_with('·'),
                    "{width}: {lines:?}"
                );
                assert!(!l.ends_with('«'), "{width}: {lines:?}");
            }
            let joined = lines.join(" ");
            assert_eq!(
                joined.replace(" · ", " ").replace(" ", ""),
                text.replace(" · ", " ").replace(" ", ""),
                "{width}"
            );
        }
        assert_eq!(
            wrap(text, Font::Regular, 7.5, 100.0),
            [
                "AMPHORE = 3 €",
                "VOILIER = 50 €",
                "OEIL = 500 €",
                "« Jeu 1 » : 5 €"
            ]
        );
        assert_eq!(wrap(text, Font::Regular, 7.5, 400.0), [text]);
        // A `«` never closed holds a few words, not the rest of the text.
        let open = "« un deux trois quatre cinq six sept huit neuf dix onze douze treize";
        assert!(wrap(open, Font::Regular, 7.5, 100.0).len() >= 3);
    }

    #[test]
    fn long_text_runs_over_pages_numbered_and_inside_the_margins() {
        let mut f = Flow::new("head");
        let rows: Vec<Vec<Cell>> = (0..200)
            .map(|i| vec![Cell::new(i.to_string()), Cell::new("x ".repeat(90))])
            .collect();
        f.table(
            &[Cell::new("n"), Cell::new("text")],
            &rows,
            &[true, false],
            8.0,
        );
        let pages = f.finish();
        assert!(pages.len() > 3, "{}", pages.len());
        let last = pages.len();
        assert!(pages[last - 1]
            .texts()
            .any(|t| t == format!("page {last} of {last}")));
        for p in &pages {
            for item in &p.items {
                if let crate::proof::draw::Item::Text {
                    x,
                    y,
                    size,
                    font,
                    anchor,
                    text,
                    ..
                } = item
                {
                    let w = text_width(text, *font, *size);
                    let left = match anchor {
                        Anchor::Start => *x,
                        Anchor::Middle => x - w / 2.0,
                        Anchor::End => x - w,
                    };
                    assert!(left >= MARGIN_X - 0.01 && left + w <= A4_WIDTH - MARGIN_X + 0.01);
                    assert!(*y > 0.0 && *y < A4_HEIGHT - 10.0);
                }
            }
        }
        // The header comes back on every page the table runs onto.
        assert!(pages.iter().all(|p| p.texts().any(|t| t == "text")));
    }

    #[test]
    fn a_heading_goes_on_the_page_of_what_follows_it() {
        let mut f = Flow::new("head");
        // Fill the first page but for about 80 points.
        while f.room() > 80.0 {
            f.paragraph("filler", Font::Regular, 10.0, 0.0);
        }
        let chart = Canvas::new(f.width(), 200.0);
        f.heading("Chart", 12.0);
        f.drawing(&chart);
        f.heading("Table", 12.0);
        f.table(&[Cell::new("n")], &[vec![Cell::new("1")]], &[false], 8.0);
        f.heading("Last", 12.0);
        let pages = f.finish();
        assert_eq!(pages.len(), 2);
        let on = |i: usize, t: &str| pages[i].texts().any(|x| x == t);
        // The chart did not fit under its heading: both are on page 2.
        assert!(!on(0, "Chart") && on(1, "Chart"));
        assert!(on(1, "Table") && on(1, "n"));
        // A heading with nothing after it is still drawn.
        assert!(on(1, "Last"));
    }

    #[test]
    fn plain_spells_out_what_winansi_lacks() {
        assert_eq!(plain("χ² at p < 10⁻⁶, n ≥ 5"), "chi² at p < 10^-6, n >= 5");
        assert!(super::super::pdf::win_ansi(&plain("1/√N → x"))
            .iter()
            .all(|&b| b != b'?'));
    }
}
