//! The audit chart: winners per pack along the block against each pack's expectation, the
//! distribution of winners per full pack against their law (hypergeometric, or under the
//! pack constraints), and the positions of the tiers of [`KS_MIN`] tickets or more.
//!
//! Drawn once on a [`Canvas`] (points, `y` down): `audit.svg` writes it as SVG, `audit.pdf`
//! places it on a page. A panel with nothing to show is not drawn; a line under the chart
//! says which and why (a deck smaller than a pack has no full pack; no tier of a small
//! block has [`KS_MIN`] tickets). Axis labels are whole numbers where the axis counts
//! (packs, tickets, winners), at round steps, never repeated.

use super::randomness::{Evidence, KS_MIN};
use crate::draw::{text_width, Anchor, Canvas, Color, Font};

/// Most points drawn in the per-pack panel; more packs are shown as means of consecutive
/// groups.
const MAX_PACK_POINTS: usize = 1500;
/// Most positions drawn in the positions panel (tiers taken from the top prize down).
const MAX_POSITIONS: usize = 2000;
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
/// The blue of observed values.
const OBSERVED: Color = Color(40, 90, 200);
/// The pale blue of observed bars.
const OBSERVED_FILL: Color = Color(160, 185, 235);

/// The chart as SVG text (see [`canvas`]).
pub fn svg(e: &Evidence, title: &str) -> String {
    crate::draw::svg::to_svg(&canvas(e, title))
}

/// The chart on a canvas [`WIDTH`] points wide, as high as its panels need; `title` heads
/// it (game and block).
pub fn canvas(e: &Evidence, title: &str) -> Canvas {
    let mut panels: Vec<(f64, Panel)> = vec![(PANEL, Panel::PerPack)];
    let mut notes = Vec::new();
    if e.packs.full_packs >= 2 {
        panels.push((PANEL, Panel::Distribution));
    } else {
        notes.push(format!(
            "Not drawn: the distribution of winners per full pack ({} full pack(s) of {} tickets; it needs two).",
            e.packs.full_packs, e.packs.pack_size
        ));
    }
    let shown = charted_tiers(e);
    if shown.is_empty() {
        notes.push(format!(
            "Not drawn: the positions of the tiers (none has {KS_MIN} tickets or more; rarer tiers are never drawn)."
        ));
    } else {
        panels.push((
            PANEL.max(HEAD + FOOT + 24.0 * shown.len() as f64),
            Panel::Positions,
        ));
        let left: Vec<&str> = e.tier_positions[shown.len()..]
            .iter()
            .map(|t| t.amount.as_str())
            .collect();
        if !left.is_empty() {
            notes.push(format!(
                "Not drawn: the positions of the tiers {} (past {MAX_POSITIONS} marks, a panel shows no more); their positions are tested all the same (section 5).",
                left.join(", ")
            ));
        }
    }
    let height = 34.0 + panels.iter().map(|p| p.0).sum::<f64>() + 14.0 * notes.len() as f64 + 8.0;
    let mut c = Canvas::new(WIDTH, height);
    c.text_styled(
        WIDTH / 2.0,
        22.0,
        crate::draw::fit(title, Font::Bold, 14.0, WIDTH - 24.0),
        Font::Bold,
        Color::BLACK,
        Anchor::Middle,
        title,
    );
    let mut top = 34.0;
    for (h, p) in &panels {
        match p {
            Panel::PerPack => per_pack(&mut c, e, top, *h),
            Panel::Distribution => distribution(&mut c, e, top, *h),
            Panel::Positions => positions(&mut c, e, &shown, top, *h),
        }
        top += h;
    }
    for n in notes {
        top += 14.0;
        let size = crate::draw::fit(&n, Font::Regular, 8.5, WIDTH - 24.0);
        c.text_styled(
            12.0,
            top,
            size,
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            n,
        );
    }
    c
}

enum Panel {
    PerPack,
    Distribution,
    Positions,
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
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Key {
    Dot(Color),
    Bar(Color),
    Line(Color, f64),
}

fn frame(c: &mut Canvas, f: &Frame, top: f64, h: f64) -> (Axis, Axis) {
    let size = crate::draw::fit(f.caption, Font::Bold, 10.0, WIDTH - 24.0);
    c.text(12.0, top + 14.0, size, Font::Bold, f.caption);
    let mut x = f.left;
    for (key, label) in f.legend {
        let y = top + 28.0;
        match *key {
            Key::Dot(col) => c.rect(x + 4.0, y - 5.5, 5.0, 5.0, 2.5, Some(col), None),
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
    let (xt, xs) = ticks(f.x.0, f.x.1, 8, f.x.2);
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
        (px0 + px1) / 2.0,
        py1 + 27.0,
        8.0,
        Font::Regular,
        Color::GREY,
        Anchor::Middle,
        f.x.3,
    );
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
    (xa, ya)
}

/// Per point of the per-pack panel: its x (pack number, a group's middle), observed mean,
/// expected mean and standard deviation of that mean.
fn pack_points(e: &Evidence) -> (Vec<[f64; 4]>, usize) {
    let w = &e.winners_per_pack;
    let group = w.len().div_ceil(MAX_PACK_POINTS).max(1);
    // Each pack's law: a full pack's (the law in force), a short pack's own.
    let law = |tickets: u64| match &e.packs.short_pack {
        Some(s) if tickets == s.tickets => (s.expected, s.expected_sd),
        _ => (e.packs.expected, e.packs.expected_sd),
    };
    let pts = w
        .chunks(group)
        .zip(e.tickets_per_pack.chunks(group))
        .enumerate()
        .map(|(i, (obs, sizes))| {
            let k = obs.len() as f64;
            let x = (i * group) as f64 + 1.0 + (k - 1.0) / 2.0;
            let (m, v) = sizes.iter().fold((0.0, 0.0), |(m, v), &s| {
                let (em, sd) = law(s);
                (m + em, v + sd * sd)
            });
            [x, obs.iter().sum::<u64>() as f64 / k, m / k, v.sqrt() / k]
        })
        .collect();
    (pts, group)
}

fn per_pack(c: &mut Canvas, e: &Evidence, top: f64, h: f64) {
    let (pts, group) = pack_points(e);
    let y_max = pts
        .iter()
        .map(|p| p[1].max(p[2] + 2.5 * p[3]))
        .fold(1.0, f64::max)
        * 1.12;
    let y_min = pts
        .iter()
        .map(|p| p[1].min(p[2] - 2.5 * p[3]))
        .fold(f64::MAX, f64::min);
    let y_min = if y_min < y_max * 0.4 {
        0.0
    } else {
        (y_min * 0.9).floor()
    };
    let packs = e.winners_per_pack.len();
    let caption = match (group, &e.packs.short_pack) {
        (1, Some(s)) => format!(
            "Winners per pack, in print order (the last pack holds {} tickets: expected {:.1})",
            s.tickets, s.expected
        ),
        (1, None) => "Winners per pack, in print order".to_string(),
        (g, _) => format!("Winners per pack, in print order (mean of {g} consecutive packs)"),
    };
    let legend = [
        (Key::Dot(OBSERVED), "observed"),
        (Key::Line(Color::RED, 1.2), "expected for the pack's size"),
        (Key::Line(Color(230, 150, 150), 0.8), "± 2 sd"),
    ];
    let (xa, ya) = frame(
        c,
        &Frame {
            caption: &caption,
            legend: &legend,
            x: (0.5, packs as f64 + 0.5, true, "pack"),
            y: (y_min, y_max, false, "winners"),
            left: 48.0,
        },
        top,
        h,
    );
    // The expectation as steps: one horizontal stretch per run of points alike.
    let half = group as f64 / 2.0;
    let mut i = 0;
    while i < pts.len() {
        let mut j = i;
        while j + 1 < pts.len() && pts[j + 1][2] == pts[i][2] && pts[j + 1][3] == pts[i][3] {
            j += 1;
        }
        let (x0, x1) = (xa.at(pts[i][0] - half), xa.at(pts[j][0] + half));
        let (m, sd) = (pts[i][2], pts[i][3]);
        for (v, col, w) in [
            (m + 2.0 * sd, Color(230, 150, 150), 0.8),
            (m - 2.0 * sd, Color(230, 150, 150), 0.8),
            (m, Color::RED, 1.2),
        ] {
            if v >= y_min && v <= y_max {
                c.line(x0, ya.at(v), x1, ya.at(v), col, w);
            }
        }
        i = j + 1;
    }
    let r = if pts.len() > 300 { 1.2 } else { 2.2 };
    for p in &pts {
        c.rect(
            xa.at(p[0]) - r,
            ya.at(p[1]) - r,
            2.0 * r,
            2.0 * r,
            r,
            Some(OBSERVED),
            None,
        );
    }
}

fn distribution(c: &mut Canvas, e: &Evidence, top: f64, h: f64) {
    let n = e.packs.full_packs;
    let mut hist = vec![0u64; e.pack_pmf.len().max(1)];
    for &w in e.winners_per_pack.iter().take(n) {
        if let Some(h) = hist.get_mut(w as usize) {
            *h += 1;
        }
    }
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
        },
        top,
        h,
    );
    let bar = ((xa.at(1.0) - xa.at(0.0)) * 0.8).min(40.0);
    for (k, &obs) in hist.iter().enumerate().take(hi + 1).skip(lo) {
        if obs > 0 {
            let (x, y) = (xa.at(k as f64), ya.at(obs as f64));
            c.rect(
                x - bar / 2.0,
                y,
                bar,
                ya.at(0.0) - y,
                0.0,
                Some(OBSERVED_FILL),
                None,
            );
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

/// The tiers the positions panel draws: from the top prize down, while they fit.
fn charted_tiers(e: &Evidence) -> Vec<&super::randomness::TierPositions> {
    let mut tiers = Vec::new();
    let mut total = 0;
    for t in &e.tier_positions {
        if total + t.count > MAX_POSITIONS && !tiers.is_empty() {
            break;
        }
        total += t.count;
        tiers.push(t);
    }
    tiers
}

fn positions(
    c: &mut Canvas,
    e: &Evidence,
    tiers: &[&super::randomness::TierPositions],
    top: f64,
    h: f64,
) {
    let label_w = tiers
        .iter()
        .map(|t| text_width(&t.amount, Font::Regular, 7.5))
        .fold(0.0, f64::max);
    let caption = format!(
        "Positions of the tiers of {KS_MIN} tickets or more (one mark per ticket; rarer tiers are never drawn)"
    );
    let n = e.tickets.max(1) as f64;
    let (xa, ya) = frame(
        c,
        &Frame {
            caption: &caption,
            legend: &[],
            x: (0.5, n + 0.5, true, "ticket (print order)"),
            y: (-0.5, tiers.len() as f64 - 0.5, true, ""),
            left: (label_w + 20.0).max(48.0),
        },
        top,
        h,
    );
    c.text_styled(
        12.0,
        ya.at(tiers.len() as f64 - 0.5) - 4.0,
        8.0,
        Font::Regular,
        Color::GREY,
        Anchor::Start,
        "tier (amount)",
    );
    let palette = [
        Color(40, 90, 200),
        Color(0, 130, 60),
        Color(210, 110, 0),
        Color(150, 40, 160),
        Color(200, 0, 0),
        Color(0, 120, 140),
    ];
    for (i, t) in tiers.iter().enumerate() {
        // Top prize at the top.
        let y = ya.at((tiers.len() - 1 - i) as f64);
        c.text_styled(
            xa.p0 - 5.0,
            y + 2.7,
            7.5,
            Font::Regular,
            Color::BLACK,
            Anchor::End,
            t.amount.clone(),
        );
        let col = palette[i % palette.len()];
        for &p in &t.positions {
            let x = xa.at(f64::from(p));
            c.line(x, y - 7.0, x, y + 7.0, col, 0.5);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
