//! The audit chart (`audit.svg`): winners per pack along the block, the distribution of
//! winners per pack against their law (hypergeometric, or under the pack constraints), and
//! the positions of the top tiers.
//! Drawn with `plotters`' SVG backend only (text as SVG `<text>`, no font files).

use super::randomness::Evidence;
use plotters::prelude::*;

/// Most points drawn in the per-pack panel; more packs are shown as means of consecutive
/// groups.
const MAX_PACK_POINTS: usize = 1500;
/// Most positions drawn in the positions panel (tiers taken from the top prize down).
const MAX_POSITIONS: usize = 2000;

/// The chart as SVG text. `title` heads it (game and block). Errors: plotters' message.
pub fn svg(e: &Evidence, title: &str) -> Result<String, String> {
    let mut buf = String::new();
    draw(e, title, &mut buf).map_err(|err| err.to_string())?;
    Ok(buf)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(e: &Evidence, title: &str, buf: &mut String) -> DrawResult {
    let root = SVGBackend::with_string(buf, (960, 1080)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 22))?;
    let panels = root.split_evenly((3, 1));
    per_pack(e, &panels[0])?;
    distribution(e, &panels[1])?;
    positions(e, &panels[2])?;
    root.present()?;
    Ok(())
}

fn per_pack(e: &Evidence, area: &DrawingArea<SVGBackend, plotters::coord::Shift>) -> DrawResult {
    let w = &e.winners_per_pack;
    let group = w.len().div_ceil(MAX_PACK_POINTS).max(1);
    let pts: Vec<(f64, f64)> = w
        .chunks(group)
        .enumerate()
        .map(|(i, c)| {
            let x = (i * group) as f64 + 1.0 + (c.len() as f64 - 1.0) / 2.0;
            (x, c.iter().sum::<u64>() as f64 / c.len() as f64)
        })
        .collect();
    let exp = e.packs.expected;
    let sd = e.packs.expected_sd / (group as f64).sqrt();
    let y_max = pts.iter().map(|p| p.1).fold(exp + 3.0 * sd, f64::max) * 1.1 + 1.0;
    let y_min = (pts.iter().map(|p| p.1).fold(exp - 3.0 * sd, f64::min) * 0.9 - 1.0).max(0.0);
    let x_max = w.len() as f64 + 1.0;
    let caption = if group == 1 {
        "Winners per pack, in print order".to_string()
    } else {
        format!("Winners per pack, in print order (mean of {group} consecutive packs)")
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(12)
        .margin_right(28)
        .x_label_area_size(36)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..x_max, y_min..y_max)?;
    chart
        .configure_mesh()
        .x_desc("pack")
        .y_desc("winners")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .light_line_style(WHITE)
        .draw()?;
    for (y, style, label) in [
        (exp, RED.stroke_width(2), "expected mean"),
        (exp + 2.0 * sd, RED.mix(0.4).stroke_width(1), "± 2 sd"),
        (exp - 2.0 * sd, RED.mix(0.4).stroke_width(1), ""),
    ] {
        let s = chart.draw_series(LineSeries::new([(0.0, y), (x_max, y)], style))?;
        if !label.is_empty() {
            s.label(label)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], style));
        }
    }
    chart
        .draw_series(
            pts.iter()
                .map(|&(x, y)| Circle::new((x, y), 2, BLUE.filled())),
        )?
        .label("observed")
        .legend(|(x, y)| Circle::new((x + 9, y), 3, BLUE.filled()));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    Ok(())
}

fn distribution(
    e: &Evidence,
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
) -> DrawResult {
    let full: Vec<u64> = e
        .winners_per_pack
        .iter()
        .take(e.winners_per_pack.len().min(full_packs(e)))
        .copied()
        .collect();
    let mut hist = vec![0u64; e.pack_pmf.len().max(1)];
    for &w in &full {
        if let Some(h) = hist.get_mut(w as usize) {
            *h += 1;
        }
    }
    let expected: Vec<f64> = e.pack_pmf.iter().map(|p| p * full.len() as f64).collect();
    let shown = |k: usize| hist[k] > 0 || expected.get(k).copied().unwrap_or(0.0) >= 0.05;
    let lo = (0..hist.len()).find(|&k| shown(k)).unwrap_or(0);
    let hi = (0..hist.len()).rev().find(|&k| shown(k)).unwrap_or(0);
    let y_max = hist
        .iter()
        .map(|&h| h as f64)
        .chain(expected.iter().copied())
        .fold(1.0, f64::max)
        * 1.15;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "Distribution of winners per full pack ({} packs) against its law",
                full.len()
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .margin_right(28)
        .x_label_area_size(36)
        .y_label_area_size(50)
        .build_cartesian_2d(lo as f64 - 1.0..hi as f64 + 1.0, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("winners in the pack")
        .y_desc("packs")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| {
            if (y - y.round()).abs() < 1e-9 {
                format!("{y:.0}")
            } else {
                String::new()
            }
        })
        .light_line_style(WHITE)
        .draw()?;
    chart
        .draw_series((lo..=hi).map(|k| {
            Rectangle::new(
                [(k as f64 - 0.4, 0.0), (k as f64 + 0.4, hist[k] as f64)],
                BLUE.mix(0.45).filled(),
            )
        }))?
        .label("observed")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], BLUE.mix(0.45).filled()));
    chart
        .draw_series(LineSeries::new(
            (lo..=hi).map(|k| (k as f64, expected.get(k).copied().unwrap_or(0.0))),
            RED.stroke_width(2),
        ))?
        .label("expected")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], RED.stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    Ok(())
}

/// Packs holding a full pack of tickets (all but a shorter last one).
fn full_packs(e: &Evidence) -> usize {
    let ps = e.pack_pmf.len().saturating_sub(1) as u64;
    if ps == 0 {
        return 0;
    }
    (e.tickets / ps) as usize
}

fn positions(e: &Evidence, area: &DrawingArea<SVGBackend, plotters::coord::Shift>) -> DrawResult {
    // Tiers from the top prize down (spec order is the lot table's), while they fit.
    let mut tiers = Vec::new();
    let mut total = 0;
    for t in &e.tier_positions {
        if total + t.count > MAX_POSITIONS && !tiers.is_empty() {
            break;
        }
        total += t.count;
        tiers.push(t);
    }
    let labels: Vec<String> = tiers.iter().map(|t| t.amount.clone()).collect();
    let n = e.tickets.max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Positions of the tiers of 20 tickets or more (one mark per ticket; rarer tiers are never drawn)",
            ("sans-serif", 16),
        )
        .margin(12)
        .margin_right(28)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..n + 1.0, -0.5..(tiers.len() as f64 - 0.5).max(0.5))?;
    chart
        .configure_mesh()
        .x_desc("ticket (print order)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_desc("tier (amount)")
        .y_labels(tiers.len().max(1))
        .y_label_formatter(&|y| {
            let i = y.round();
            if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                // Top prize at the top.
                labels[labels.len() - 1 - i as usize].clone()
            } else {
                String::new()
            }
        })
        .light_line_style(WHITE)
        .draw()?;
    for (i, t) in tiers.iter().enumerate() {
        let y = (tiers.len() - 1 - i) as f64;
        chart.draw_series(t.positions.iter().map(|&p| {
            PathElement::new(
                [(f64::from(p), y - 0.3), (f64::from(p), y + 0.3)],
                Palette99::pick(i).stroke_width(2),
            )
        }))?;
    }
    Ok(())
}
