//! The audit chart: histograms over counts, never a position. The distribution of winners
//! per full pack against their law (hypergeometric, or under the pack constraints): how many
//! packs hold k winners, not which; and for each tier of at least [`GAP_MIN`] tickets, the
//! gaps between its consecutive tickets against a uniform shuffle's law, in bins of about
//! equal chance: how far apart the tier's tickets are, not where. Every bar counts packs or
//! gaps, each bin many winners; no mark, coordinate or label stands for a ticket or a pack.
//!
//! Drawn once on a [`Canvas`] (points, `y` down): `audit.svg` writes it as SVG, `audit.pdf`
//! places it on a page. A panel with nothing to show is not drawn; a line under the chart
//! says which and why (a deck smaller than a pack has no full pack; a small block has no
//! tier of [`GAP_MIN`] tickets). Axis labels are whole numbers where the axis counts
//! (packs, winners, gaps), at round steps, never repeated.

use super::randomness::{Evidence, GapHistogram, GAP_MIN};
use crate::proof::draw::{text_width, Anchor, Canvas, Color, Font};

/// Most gap panels drawn (tiers taken from the top prize down); the others' gaps are
/// tested and tabulated all the same.
const MAX_GAP_PANELS: usize = 6;
/// Width of the chart in points (an A4 page less margins of 36 points).
pub const WIDTH: f64 = 523.0;
/// Height of one panel in points.
const PANEL: f64 = 210.0;
/// Space from a panel's top to its plot area: caption and legend lines.
const HEAD: f64 = 40.0;
/// Space under a plot area: tick labels and the axis title.
const FOOT: f64 = 36.0;
/// Space on the right of a plot area.
const RIGHT: f64 = 12.0;
/// The pale blue of observed bars.
const OBSERVED_FILL: Color = Color(160, 185, 235);

/// The chart as SVG text (see [`canvas`]).
pub fn svg(e: &Evidence, title: &str) -> String {
    crate::proof::draw::svg::to_svg(&canvas(e, title))
}

/// The chart on a canvas [`WIDTH`] points wide, as high as its panels need; `title` heads
/// it (game and block).
pub fn canvas(e: &Evidence, title: &str) -> Canvas {
    let (panels, notes) = layout(e);
    sheet(e, Some(title), &panels, &notes)
}

/// The chart cut at its panels, each piece [`WIDTH`] points wide, for pages: the first
/// headed by `title`, the notes under the last. A page then takes a panel where the whole
/// chart would not fit, and no page is left nearly empty before it.
pub fn pieces(e: &Evidence, title: &str) -> Vec<Canvas> {
    let (panels, notes) = layout(e);
    if panels.is_empty() {
        return vec![sheet(e, Some(title), &[], &notes)];
    }
    let last = panels.len() - 1;
    panels
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let notes: &[String] = if i == last { &notes } else { &[] };
            sheet(e, (i == 0).then_some(title), std::slice::from_ref(p), notes)
        })
        .collect()
}

/// The panels the chart of `e` draws, in order, and the notes saying what it does not
/// draw and why.
fn layout(e: &Evidence) -> (Vec<Panel<'_>>, Vec<String>) {
    let mut panels: Vec<Panel> = Vec::new();
    let mut notes = Vec::new();
    if e.packs.full_packs >= 2 {
        panels.push(Panel::Distribution);
    } else {
        notes.push(format!(
            "Not drawn: the distribution of winners per full pack ({} full pack(s) of {} tickets; it needs two).",
            e.packs.full_packs, e.packs.pack_size
        ));
    }
    panels.extend(e.gaps.iter().take(MAX_GAP_PANELS).map(Panel::Gaps));
    if e.gaps.is_empty() {
        notes.push(format!(
            "Not drawn: the gaps between winners of a tier (no tier has {GAP_MIN} tickets or more; rarer tiers are described by their counts and p-values alone)."
        ));
    } else if e.gaps.len() > MAX_GAP_PANELS {
        let left: Vec<&str> = e.gaps[MAX_GAP_PANELS..]
            .iter()
            .map(|g| g.amount.as_str())
            .collect();
        notes.push(format!(
            "Not drawn: the gaps of the tiers {} (past {MAX_GAP_PANELS} panels); they are tested and tabulated all the same (section 5).",
            left.join(", ")
        ));
    }
    (panels, notes)
}

/// `panels` of the chart of `e` and `notes` under them on one canvas [`WIDTH`] points
/// wide, headed by `title` when given.
fn sheet(e: &Evidence, title: Option<&str>, panels: &[Panel], notes: &[String]) -> Canvas {
    let head = if title.is_some() { 34.0 } else { 0.0 };
    let height = head + PANEL * panels.len() as f64 + 14.0 * notes.len() as f64 + 8.0;
    let mut c = Canvas::new(WIDTH, height);
    if let Some(title) = title {
        c.text_styled(
            WIDTH / 2.0,
            22.0,
            crate::proof::draw::fit(title, Font::Bold, 14.0, WIDTH - 24.0),
            Font::Bold,
            Color::BLACK,
            Anchor::Middle,
            title,
        );
    }
    let mut top = head;
    for p in panels {
        match p {
            Panel::Distribution => distribution(&mut c, e, top, PANEL),
            Panel::Gaps(g) => gaps(&mut c, g, top, PANEL),
        }
        top += PANEL;
    }
    for n in notes {
        top += 14.0;
        let size = crate::proof::draw::fit(n, Font::Regular, 8.5, WIDTH - 24.0);
        c.text_styled(
            12.0,
            top,
            size,
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            n.clone(),
        );
    }
    c
}

/// One panel of the chart.
#[derive(Clone, Copy)]
enum Panel<'a> {
    Distribution,
    Gaps(&'a GapHistogram),
}

/// A linear map from values `lo..hi` to points `p0..p1`.
#[derive(Clone, Copy)]
struct Axis {
    lo: f64,
    hi: f64,
    p0: f64,
    p1: f64,
}

impl Axis {
    fn at(&self, v: f64) -> f64 {
        let span = (self.hi - self.lo).max(f64::MIN_POSITIVE);
        self.p0 + (v - self.lo) / span * (self.p1 - self.p0)
    }
}

/// Round tick values in `lo..=hi`: steps of 1, 2 or 5 × 10^k, at most about `most` of
/// them; with `whole`, steps of at least 1 (an axis that counts).
fn ticks(lo: f64, hi: f64, most: usize, whole: bool) -> (Vec<f64>, f64) {
    let raw = ((hi - lo) / most.max(1) as f64).max(f64::MIN_POSITIVE);
    let mag = 10f64.powf(raw.log10().floor());
    let mut step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * mag);
    if whole {
        step = step.max(1.0).round();
    }
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    ((first..=last).map(|i| i as f64 * step).collect(), step)
}

/// A tick value as text: decimals only as many as the step needs.
fn tick_text(v: f64, step: f64) -> String {
    let digits = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let v = if v.abs() < step * 1e-6 { 0.0 } else { v };
    format!("{v:.digits$}")
}

/// The frame of one panel: its caption, legend, plot area, axes with their ticks and
/// titles. Returns the plot area's axes.
struct Frame<'a> {
    caption: &'a str,
    legend: &'a [(Key, &'a str)],
    x: (f64, f64, bool, &'a str),
    y: (f64, f64, bool, &'a str),
    left: f64,
    /// Round ticks and labels on the x axis (else the panel labels its own categories).
    x_labels: bool,
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Key {
    Bar(Color),
    Line(Color, f64),
}

/// Draws frame `f` at `top`, `h` points high: its caption, legend, plot box and axes.
/// Returns its x and y axes, for what is drawn inside.
fn frame(c: &mut Canvas, f: &Frame, top: f64, h: f64) -> (Axis, Axis) {
    let size = crate::proof::draw::fit(f.caption, Font::Bold, 10.0, WIDTH - 24.0);
    c.text(12.0, top + 14.0, size, Font::Bold, f.caption);
    legend(c, f, top);
    let (px0, px1) = (f.left, WIDTH - RIGHT);
    let (py0, py1) = (top + HEAD, top + h - FOOT);
    c.rect(
        px0,
        py0,
        px1 - px0,
        py1 - py0,
        0.0,
        None,
        Some((Color::GREY, 0.6)),
    );
    let xa = Axis {
        lo: f.x.0,
        hi: f.x.1,
        p0: px0,
        p1: px1,
    };
    let ya = Axis {
        lo: f.y.0,
        hi: f.y.1,
        p0: py1,
        p1: py0,
    };
    x_axis(c, f, &xa, py1);
    y_axis(c, f, &ya, (px0, px1), py0);
    (xa, ya)
}

/// Draws the legend of frame `f` (at `top`) on one line: each entry's key, then its label.
fn legend(c: &mut Canvas, f: &Frame, top: f64) {
    let mut x = f.left;
    for (key, label) in f.legend {
        let y = top + 28.0;
        match *key {
            Key::Bar(col) => c.rect(x, y - 7.0, 12.0, 7.0, 0.0, Some(col), None),
            Key::Line(col, w) => c.line(x, y - 3.0, x + 14.0, y - 3.0, col, w),
        }
        c.text_styled(
            x + 18.0,
            y,
            8.0,
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            *label,
        );
        x += 18.0 + text_width(label, Font::Regular, 8.0) * 1.1 + 14.0;
    }
}

/// Draws the x axis `xa` of frame `f` below the plot box (whose bottom is at `py1`): its
/// ticks and their values, when the frame labels them, and its title.
fn x_axis(c: &mut Canvas, f: &Frame, xa: &Axis, py1: f64) {
    let (xt, xs) = if f.x_labels {
        ticks(f.x.0, f.x.1, 8, f.x.2)
    } else {
        (Vec::new(), 1.0)
    };
    for v in xt {
        let px = xa.at(v);
        c.line(px, py1, px, py1 + 3.0, Color::GREY, 0.6);
        c.text_styled(
            px,
            py1 + 12.0,
            7.5,
            Font::Regular,
            Color::BLACK,
            Anchor::Middle,
            tick_text(v, xs),
        );
    }
    c.text_styled(
        (xa.p0 + xa.p1) / 2.0,
        py1 + 27.0,
        8.0,
        Font::Regular,
        Color::GREY,
        Anchor::Middle,
        f.x.3,
    );
}

/// Draws the y axis `ya` of frame `f` left of the plot box (`px0..px1` wide, its top at
/// `py0`), with grid lines at its ticks and its title, when the frame has one.
fn y_axis(c: &mut Canvas, f: &Frame, ya: &Axis, (px0, px1): (f64, f64), py0: f64) {
    if !f.y.3.is_empty() {
        let (yt, ys) = ticks(f.y.0, f.y.1, 5, f.y.2);
        for v in yt {
            let py = ya.at(v);
            c.line(px0 - 3.0, py, px0, py, Color::GREY, 0.6);
            c.line(px0, py, px1, py, Color::LIGHT, 0.3);
            c.text_styled(
                px0 - 5.0,
                py + 2.7,
                7.5,
                Font::Regular,
                Color::BLACK,
                Anchor::End,
                tick_text(v, ys),
            );
        }
        c.text_styled(
            12.0,
            py0 - 4.0,
            8.0,
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            f.y.3,
        );
    }
}

fn distribution(c: &mut Canvas, e: &Evidence, top: f64, h: f64) {
    let n = e.packs.full_packs;
    let mut hist = e.pack_histogram.clone();
    hist.resize(e.pack_pmf.len().max(hist.len()).max(1), 0);
    let expected: Vec<f64> = e.pack_pmf.iter().map(|p| p * n as f64).collect();
    let shown = |k: usize| hist[k] > 0 || expected.get(k).copied().unwrap_or(0.0) >= 0.05;
    let lo = (0..hist.len()).find(|&k| shown(k)).unwrap_or(0);
    let hi = (0..hist.len()).rev().find(|&k| shown(k)).unwrap_or(0);
    let y_max = hist
        .iter()
        .map(|&h| h as f64)
        .chain(expected.iter().copied())
        .fold(1.0, f64::max)
        * 1.15;
    let caption = format!("Distribution of winners per full pack ({n} packs) against its law");
    let legend = [
        (Key::Bar(OBSERVED_FILL), "packs observed"),
        (Key::Line(Color::RED, 1.2), "packs expected"),
    ];
    let (xa, ya) = frame(
        c,
        &Frame {
            caption: &caption,
            legend: &legend,
            x: (
                lo as f64 - 0.6,
                hi as f64 + 0.6,
                true,
                "winners in the pack",
            ),
            y: (0.0, y_max, true, "packs"),
            left: 48.0,
            x_labels: true,
        },
        top,
        h,
    );
    let bar = ((xa.at(1.0) - xa.at(0.0)) * 0.8).min(40.0);
    for (k, &obs) in hist.iter().enumerate().take(hi + 1).skip(lo) {
        if obs > 0 {
            observed_bar(c, xa.at(k as f64), ya.at(obs as f64), ya.at(0.0), bar);
        }
    }
    let mut prev: Option<(f64, f64)> = None;
    for k in lo..=hi {
        let p = (
            xa.at(k as f64),
            ya.at(expected.get(k).copied().unwrap_or(0.0)),
        );
        if let Some(q) = prev {
            c.line(q.0, q.1, p.0, p.1, Color::RED, 1.2);
        }
        prev = Some(p);
    }
}

/// The gaps between consecutive tickets of one tier: one bar per bin of the gaps test
/// (observed gaps), the expected count of each bin as a line; bins labelled by their
/// shortest gap.
fn gaps(c: &mut Canvas, g: &GapHistogram, top: f64, h: f64) {
    let k = g.bins.len();
    let y_max = g
        .bins
        .iter()
        .map(|b| (b.observed as f64).max(b.expected))
        .fold(1.0, f64::max)
        * 1.15;
    let caption = format!(
        "Gaps between consecutive tickets of tier {} ({} tickets), in {k} bins by length",
        g.amount, g.count
    );
    let legend = [
        (Key::Bar(OBSERVED_FILL), "gaps observed"),
        (
            Key::Line(Color::RED, 1.2),
            "gaps expected (uniform shuffle)",
        ),
    ];
    let (xa, ya) = frame(
        c,
        &Frame {
            caption: &caption,
            legend: &legend,
            x: (-0.5, k as f64 - 0.5, true, "tickets apart"),
            y: (0.0, y_max, true, "gaps"),
            left: 48.0,
            x_labels: false,
        },
        top,
        h,
    );
    let bar = ((xa.at(1.0) - xa.at(0.0)) * 0.8).min(40.0);
    let every = k.div_ceil(10).max(1);
    for (i, b) in g.bins.iter().enumerate() {
        let x = xa.at(i as f64);
        if b.observed > 0 {
            observed_bar(c, x, ya.at(b.observed as f64), ya.at(0.0), bar);
        }
        let (w, e) = (bar / 2.0, ya.at(b.expected));
        c.line(x - w, e, x + w, e, Color::RED, 1.2);
        if i % every == 0 || i + 1 == k {
            let label = match b.to {
                Some(to) if to == b.from => b.from.to_string(),
                Some(to) => format!("{}–{to}", b.from),
                None => format!("{}+", b.from),
            };
            c.text_styled(
                x,
                ya.at(0.0) + 12.0,
                6.5,
                Font::Regular,
                Color::BLACK,
                Anchor::Middle,
                label,
            );
        }
    }
}

/// An observed count's bar: `width` points wide, centred on `x`, from the baseline `y0` up
/// to `y` (points, y growing downwards).
fn observed_bar(c: &mut Canvas, x: f64, y: f64, y0: f64, width: f64) {
    c.rect(
        x - width / 2.0,
        y,
        width,
        y0 - y,
        0.0,
        Some(OBSERVED_FILL),
        None,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::allocate;
    use crate::crypto::rng::Seed;
    use crate::proof::draw::Item;
    use crate::spec::PackRules;

    /// A block of 30 000 tickets with a 2 € tier of 1 432 tickets: the chart draws the
    /// distribution of winners per full pack and that tier's gaps, each bar a bin of
    /// counts; nothing on it is one mark per ticket, and no label is a ticket number.
    #[test]
    fn the_chart_is_histograms_over_counts() {
        let spec = super::super::randomness::tests::with_a_large_tier();
        let counts: Vec<u32> = spec.ways.iter().map(|w| w.count).collect();
        let ways = allocate(&counts, &Seed([7; 32]), 1);
        let e = super::super::randomness::analyze(&spec, &PackRules::default(), &ways);
        let c = canvas(&e, "t");
        let texts: Vec<&str> = c.texts().collect();
        assert!(
            texts.contains(&"Distribution of winners per full pack (200 packs) against its law")
        );
        assert!(texts.contains(
            &"Gaps between consecutive tickets of tier 2 (1432 tickets), in 20 bins by length"
        ));
        assert!(
            !texts.iter().any(|t| t.starts_with("Not drawn")),
            "{texts:?}"
        );
        // Bars: one per bin of the distribution (packs with k winners) and of the gaps.
        let bars = c
            .items
            .iter()
            .filter(|i| matches!(i, Item::Rect { fill: Some(f), .. } if *f == OBSERVED_FILL))
            .count();
        let gap_bars = e.gaps[0].bins.iter().filter(|b| b.observed > 0).count();
        let pack_bars = e.pack_histogram.iter().filter(|&&h| h > 0).count();
        // And one in the legend of each panel.
        assert_eq!(bars, 2 + gap_bars + pack_bars);
    }

    /// The pieces are the chart's panels, one each, the title on the first and the notes
    /// under the last: together they draw what the whole chart draws.
    #[test]
    fn the_chart_cut_for_pages_draws_each_panel_once() {
        let spec = super::super::randomness::tests::with_a_large_tier();
        let counts: Vec<u32> = spec.ways.iter().map(|w| w.count).collect();
        let ways = allocate(&counts, &Seed([7; 32]), 1);
        let e = super::super::randomness::analyze(&spec, &PackRules::default(), &ways);
        let whole = canvas(&e, "t");
        let pieces = pieces(&e, "t");
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].height, 34.0 + PANEL + 8.0);
        assert_eq!(pieces[1].height, PANEL + 8.0);
        let texts = |c: &Canvas| c.texts().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(texts(&pieces[0])[0], "t");
        assert_eq!(
            texts(&pieces[0])[1],
            "Distribution of winners per full pack (200 packs) against its law"
        );
        assert_eq!(
            texts(&pieces[1])[0],
            "Gaps between consecutive tickets of tier 2 (1432 tickets), in 20 bins by length"
        );
        let mut all = texts(&pieces[0]);
        all.extend(texts(&pieces[1]));
        assert_eq!(all, texts(&whole));
    }

    #[test]
    fn ticks_are_round_and_distinct() {
        // A one-pack axis: one label, 1 (not 0 0 0 1 1 1).
        assert_eq!(ticks(0.5, 1.5, 8, true).0, vec![1.0]);
        assert_eq!(ticks(0.5, 20.5, 8, true).0, vec![5.0, 10.0, 15.0, 20.0]);
        let (t, s) = ticks(0.0, 1.0, 5, false);
        assert_eq!(s, 0.2);
        let labels: Vec<String> = t.iter().map(|&v| tick_text(v, s)).collect();
        assert_eq!(labels, ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        assert_eq!(tick_text(3000.0, 500.0), "3000");
    }
}
