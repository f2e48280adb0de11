//! Drawings that come out the same as SVG and as PDF: the proofs, the proof sheet and the
//! audit report are each drawn once on a [`Canvas`], then written by [`svg`] or [`pdf`].
//!
//! A canvas measures in points (1/72 inch), with `y` growing downwards from its top edge.
//! Text uses four fonts every PDF reader has (Helvetica, Helvetica-Bold, Courier, Symbol), so a
//! PDF embeds no font and its text stays text: a reader can search and copy it.
//! [`text_width`] gives the width those fonts take, so that a layout can keep every word off
//! its box's border.

pub mod page;
pub mod pdf;
pub mod svg;

/// An sRGB colour, one byte a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    /// Black.
    pub const BLACK: Color = Color(0, 0, 0);
    /// White.
    pub const WHITE: Color = Color(255, 255, 255);
    /// The grey of secondary text and thin rules.
    pub const GREY: Color = Color(110, 110, 110);
    /// The light grey of empty boxes and grid lines.
    pub const LIGHT: Color = Color(215, 215, 215);
    /// The green that marks what wins.
    pub const WIN: Color = Color(0, 130, 60);
    /// The pale green a winning cell is filled with.
    pub const WIN_FILL: Color = Color(214, 243, 223);
    /// The orange that marks a near miss.
    pub const NEAR: Color = Color(210, 110, 0);
    /// The blue that marks a decoy.
    pub const DECOY: Color = Color(40, 90, 200);
    /// The red of the SPECIMEN mark and of exceptions.
    pub const RED: Color = Color(200, 0, 0);
}

/// Which font a text is set in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Font {
    /// Helvetica.
    Regular,
    /// Helvetica-Bold.
    Bold,
    /// Courier (serials, codes, digests).
    Mono,
    /// Symbol: the card suits ♣ ♦ ♥ ♠ (the PDF's fourth standard font used here).
    Symbol,
}

/// Where a text's `x` is: its left end, its middle or its right end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `x` is where the text starts.
    Start,
    /// `x` is the middle of the text.
    Middle,
    /// `x` is where the text ends.
    End,
}

/// One thing drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A rectangle of `w` × `h` points whose top left corner is (`x`, `y`), with rounded
    /// corners of radius `radius`, filled and/or outlined (`stroke`: colour and line width).
    Rect {
        /// Left edge.
        x: f64,
        /// Top edge.
        y: f64,
        /// Width.
        w: f64,
        /// Height.
        h: f64,
        /// Corner radius (0: square corners).
        radius: f64,
        /// Fill colour, if filled.
        fill: Option<Color>,
        /// Outline colour and line width in points, if outlined.
        stroke: Option<(Color, f64)>,
    },
    /// A straight line from (`x1`, `y1`) to (`x2`, `y2`), `width` points wide.
    Line {
        /// Start, across.
        x1: f64,
        /// Start, down.
        y1: f64,
        /// End, across.
        x2: f64,
        /// End, down.
        y2: f64,
        /// Colour.
        color: Color,
        /// Line width in points.
        width: f64,
    },
    /// One line of text whose baseline is at `y`.
    Text {
        /// Across, as `anchor` says.
        x: f64,
        /// The baseline.
        y: f64,
        /// Font size in points.
        size: f64,
        /// The font.
        font: Font,
        /// Colour.
        color: Color,
        /// Where `x` is along the text.
        anchor: Anchor,
        /// The text (one line).
        text: String,
    },
}

impl Item {
    /// How far down the item reaches: its top and bottom, in points (a text from an ascent
    /// of its size above its baseline to a quarter of it below).
    fn extent(&self) -> (f64, f64) {
        match *self {
            Item::Rect { y, h, .. } => (y, y + h),
            Item::Line { y1, y2, .. } => (y1.min(y2), y1.max(y2)),
            Item::Text { y, size, .. } => (y - size, y + 0.25 * size),
        }
    }
}

/// A drawing of `width` × `height` points: a list of items, drawn in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Canvas {
    /// Width in points.
    pub width: f64,
    /// Height in points.
    pub height: f64,
    /// What is drawn, bottom first.
    pub items: Vec<Item>,
    /// Spans from a top to a bottom, in points, that [`Canvas::strips`] keeps whole as it
    /// keeps an item (a card and the draw it is read against).
    pub keep: Vec<(f64, f64)>,
}

impl Canvas {
    /// An empty canvas of `width` × `height` points.
    pub fn new(width: f64, height: f64) -> Canvas {
        Canvas {
            width,
            height,
            items: Vec::new(),
            keep: Vec::new(),
        }
    }

    /// Asks [`Canvas::strips`] not to cut between `top` and `bottom` (points from the
    /// canvas's top) unless the span is taller than a strip, as for a panel.
    pub fn keep_together(&mut self, top: f64, bottom: f64) {
        self.keep.push((top, bottom));
    }

    /// Draws a rectangle (see [`Item::Rect`]).
    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        radius: f64,
        fill: Option<Color>,
        stroke: Option<(Color, f64)>,
    ) {
        self.items.push(Item::Rect {
            x,
            y,
            w,
            h,
            radius,
            fill,
            stroke,
        });
    }

    /// Draws a line (see [`Item::Line`]).
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: Color, width: f64) {
        self.items.push(Item::Line {
            x1,
            y1,
            x2,
            y2,
            color,
            width,
        });
    }

    /// Writes `text` in black from `x` (left end) on baseline `y`.
    pub fn text(&mut self, x: f64, y: f64, size: f64, font: Font, text: impl Into<String>) {
        self.text_styled(x, y, size, font, Color::BLACK, Anchor::Start, text);
    }

    /// Writes `text` with every setting given (see [`Item::Text`]).
    #[allow(clippy::too_many_arguments)]
    pub fn text_styled(
        &mut self,
        x: f64,
        y: f64,
        size: f64,
        font: Font,
        color: Color,
        anchor: Anchor,
        text: impl Into<String>,
    ) {
        self.items.push(Item::Text {
            x,
            y,
            size,
            font,
            color,
            anchor,
            text: text.into(),
        });
    }

    /// Draws `other` onto this canvas with its top left corner at (`x`, `y`), every length
    /// multiplied by `scale`.
    pub fn place(&mut self, other: &Canvas, x: f64, y: f64, scale: f64) {
        let (px, py) = (|v: f64| x + v * scale, |v: f64| y + v * scale);
        for item in &other.items {
            self.items.push(match item.clone() {
                Item::Rect {
                    x: rx,
                    y: ry,
                    w,
                    h,
                    radius,
                    fill,
                    stroke,
                } => Item::Rect {
                    x: px(rx),
                    y: py(ry),
                    w: w * scale,
                    h: h * scale,
                    radius: radius * scale,
                    fill,
                    stroke: stroke.map(|(c, lw)| (c, lw * scale)),
                },
                Item::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    color,
                    width,
                } => Item::Line {
                    x1: px(x1),
                    y1: py(y1),
                    x2: px(x2),
                    y2: py(y2),
                    color,
                    width: width * scale,
                },
                Item::Text {
                    x: tx,
                    y: ty,
                    size,
                    font,
                    color,
                    anchor,
                    text,
                } => Item::Text {
                    x: px(tx),
                    y: py(ty),
                    size: size * scale,
                    font,
                    color,
                    anchor,
                    text,
                },
            });
        }
    }

    /// Where to cut this canvas across into strips at most `most` points high, top to
    /// bottom: the bottom edge of each strip (the last is the canvas's height). A cut falls
    /// where no item lower than `most` crosses it (a panel, a box or a line of text is kept
    /// whole; the face's own background, taller than a strip, is cut), nor a span asked to
    /// be kept together ([`Canvas::keep_together`]) lower than `most`, as low as it can
    /// within `most` of the strip's top and in its lower half; failing that, `most` down.
    pub fn strips(&self, most: f64) -> Vec<f64> {
        let spans: Vec<(f64, f64)> = self
            .items
            .iter()
            .map(Item::extent)
            .chain(self.keep.iter().copied())
            .filter(|(t, b)| b - t < most)
            .collect();
        let clean = |y: f64| spans.iter().all(|&(t, b)| y <= t || y >= b);
        let mut cuts = Vec::new();
        let mut top = 0.0;
        while self.height - top > most {
            let limit = top + most;
            let cut = spans
                .iter()
                .flat_map(|&(t, b)| [t, b])
                .filter(|&y| y > top + most / 2.0 && y <= limit && clean(y))
                .fold(None, |best: Option<f64>, y| {
                    Some(best.map_or(y, |b| b.max(y)))
                })
                .unwrap_or(limit);
            cuts.push(cut);
            top = cut;
        }
        cuts.push(self.height);
        cuts
    }

    /// The strip of this canvas from `top` down to `bottom`, as a canvas of its own (as wide,
    /// `bottom − top` high): rectangles and lines cut to it, each text whose baseline is in
    /// it.
    pub fn strip(&self, top: f64, bottom: f64) -> Canvas {
        let mut c = Canvas::new(self.width, bottom - top);
        for item in &self.items {
            let (t, b) = item.extent();
            if b < top || t > bottom {
                continue;
            }
            match item.clone() {
                Item::Rect {
                    x,
                    y,
                    w,
                    h,
                    radius,
                    fill,
                    stroke,
                } => {
                    let (y0, y1) = (y.max(top), (y + h).min(bottom));
                    if y1 > y0 {
                        c.rect(x, y0 - top, w, y1 - y0, radius, fill, stroke);
                    }
                }
                Item::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    color,
                    width,
                } => {
                    // The part of the segment between the two edges.
                    let at = |y: f64| {
                        if y2 == y1 {
                            x1
                        } else {
                            x1 + (x2 - x1) * (y - y1) / (y2 - y1)
                        }
                    };
                    let (ya, yb) = (y1.clamp(top, bottom), y2.clamp(top, bottom));
                    let (xa, xb) = if y1 == y2 { (x1, x2) } else { (at(ya), at(yb)) };
                    c.line(xa, ya - top, xb, yb - top, color, width);
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
                    if y > top && y <= bottom {
                        c.text_styled(x, y - top, size, font, color, anchor, text);
                    }
                }
            }
        }
        c
    }

    /// Every text drawn, in drawing order (for tests and for searching a drawing).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.items.iter().filter_map(|i| match i {
            Item::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
    }
}

/// Advance widths of Helvetica and Helvetica-Bold for ASCII 32 to 126, in thousandths of
/// the font size (Adobe's font metrics for the standard fonts).
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const HELVETICA_BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
    611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
    278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/// The width `text` takes in `font` at `size` points, in points. A character outside ASCII
/// counts as wide as an `M`'s neighbour `N` (722), which is never narrower than the accented
/// letters and signs tirage prints (é, «, €), so a layout that fits by this width fits.
/// Screen fonts standing in for Helvetica in an SVG viewer may be up to a tenth wider:
/// layouts leave that margin.
pub fn text_width(text: &str, font: Font, size: f64) -> f64 {
    let table = match font {
        Font::Mono => return text.chars().count() as f64 * 0.6 * size,
        // Each suit 753 units wide in the Symbol font.
        Font::Symbol => return text.chars().count() as f64 * 0.753 * size,
        Font::Regular => &HELVETICA,
        Font::Bold => &HELVETICA_BOLD,
    };
    let units: u32 = text
        .chars()
        .map(|c| match c as u32 {
            n @ 32..=126 => u32::from(table[(n - 32) as usize]),
            _ => 722,
        })
        .sum();
    f64::from(units) / 1000.0 * size
}

/// The largest font size, at most `size`, at which `text` is at most `width` points wide,
/// with a tenth of margin for screen fonts; rounded down to a tenth of a point.
pub fn fit(text: &str, font: Font, size: f64, width: f64) -> f64 {
    let w = text_width(text, font, size) * 1.1;
    let s = if w > width { size * width / w } else { size };
    (s * 10.0).floor() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A face 100 points wide and 300 high: a background over all of it, three panels of
    /// 80 points (at 10, 110 and 210) each with a caption, and a rule across at 200.
    fn tall_face() -> Canvas {
        let mut c = Canvas::new(100.0, 300.0);
        c.rect(0.0, 0.0, 100.0, 300.0, 4.0, Some(Color::WHITE), None);
        for top in [10.0, 110.0, 210.0] {
            c.rect(5.0, top, 90.0, 80.0, 0.0, None, Some((Color::BLACK, 1.0)));
            c.text(10.0, top + 20.0, 8.0, Font::Regular, format!("panel {top}"));
        }
        c.line(0.0, 200.0, 100.0, 200.0, Color::GREY, 0.5);
        c
    }

    #[test]
    fn a_tall_face_is_cut_between_its_panels() {
        let c = tall_face();
        // Strips of at most 150: the lowest clean cut within 150 of 0 is the second panel's
        // top (110), and within 150 of 110 the third's (210); 90 more is the last strip.
        assert_eq!(c.strips(150.0), [110.0, 210.0, 300.0]);
        // The whole face fits: one strip.
        assert_eq!(c.strips(300.0), [300.0]);
        // Strips of at most 60: the panels, taller, are cut; each caption is kept whole
        // (32 is the first one's bottom, 132 the second's), and where no cut is clean in a
        // strip's lower half it is cut where the strip ends (92, 192, 292).
        assert_eq!(
            c.strips(60.0),
            [32.0, 92.0, 132.0, 192.0, 232.0, 292.0, 300.0]
        );
    }

    #[test]
    fn panels_kept_together_are_not_cut_apart() {
        let mut c = tall_face();
        // Strips of at most 200: the lowest clean cut is the rule at 200, between the second
        // panel (110 to 190) and the third (210 to 290).
        assert_eq!(c.strips(200.0), [200.0, 300.0]);
        // The two read together: the cut goes above both, and they make the last strip.
        c.keep_together(110.0, 290.0);
        assert_eq!(c.strips(200.0), [110.0, 300.0]);
        // A span taller than a strip is cut as before.
        assert_eq!(c.strips(150.0), [110.0, 210.0, 300.0]);
    }

    #[test]
    fn a_strip_holds_what_crosses_it_cut_to_it() {
        let s = tall_face().strip(110.0, 210.0);
        assert_eq!((s.width, s.height), (100.0, 100.0));
        assert_eq!(s.texts().collect::<Vec<_>>(), ["panel 110"]);
        assert_eq!(
            s.items,
            [
                Item::Rect {
                    x: 0.0,
                    y: 0.0,
                    w: 100.0,
                    h: 100.0,
                    radius: 4.0,
                    fill: Some(Color::WHITE),
                    stroke: None
                },
                // The second panel (the first ends above, the third starts on the bottom edge).
                Item::Rect {
                    x: 5.0,
                    y: 0.0,
                    w: 90.0,
                    h: 80.0,
                    radius: 0.0,
                    fill: None,
                    stroke: Some((Color::BLACK, 1.0))
                },
                Item::Text {
                    x: 10.0,
                    y: 20.0,
                    size: 8.0,
                    font: Font::Regular,
                    color: Color::BLACK,
                    anchor: Anchor::Start,
                    text: "panel 110".into()
                },
                Item::Line {
                    x1: 0.0,
                    y1: 90.0,
                    x2: 100.0,
                    y2: 90.0,
                    color: Color::GREY,
                    width: 0.5
                },
            ]
        );
    }

    #[test]
    fn widths_follow_the_font_metrics() {
        // "COQ": C 722 + O 778 + Q 778 in bold = 2278 thousandths.
        assert!((text_width("COQ", Font::Bold, 10.0) - 22.78).abs() < 1e-9);
        // Regular "il": 222 + 222.
        assert!((text_width("il", Font::Regular, 10.0) - 4.44).abs() < 1e-9);
        assert!((text_width("0123", Font::Mono, 10.0) - 24.0).abs() < 1e-9);
        assert!((text_width("é", Font::Regular, 10.0) - 7.22).abs() < 1e-9);
    }

    #[test]
    fn fit_shrinks_only_what_does_not_fit() {
        assert_eq!(fit("COQ", Font::Bold, 15.0, 78.0), 15.0);
        // "PROSPERITE" in bold is 6.446 em: at 15 pt with the margin, 106.4 pt; 78 pt of room
        // gives 15 × 78 / 106.4 = 11.0 pt.
        assert_eq!(fit("PROSPERITE", Font::Bold, 15.0, 78.0), 11.0);
        let s = fit("CINQUANTE MILLE EUROS", Font::Regular, 8.0, 60.0);
        assert!(text_width("CINQUANTE MILLE EUROS", Font::Regular, s) * 1.1 <= 60.0);
    }

    #[test]
    fn a_placed_canvas_is_moved_and_scaled() {
        let mut a = Canvas::new(10.0, 10.0);
        a.rect(1.0, 2.0, 3.0, 4.0, 0.0, None, Some((Color::BLACK, 1.0)));
        a.text(1.0, 1.0, 10.0, Font::Regular, "x");
        let mut b = Canvas::new(100.0, 100.0);
        b.place(&a, 50.0, 20.0, 0.5);
        assert_eq!(
            b.items[0],
            Item::Rect {
                x: 50.5,
                y: 21.0,
                w: 1.5,
                h: 2.0,
                radius: 0.0,
                fill: None,
                stroke: Some((Color::BLACK, 0.5))
            }
        );
        assert!(matches!(b.items[1], Item::Text { size, .. } if size == 5.0));
        assert_eq!(b.texts().collect::<Vec<_>>(), vec!["x"]);
    }
}
