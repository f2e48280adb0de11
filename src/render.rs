//! Ticket proofs: one SVG per chosen ticket, drawn from its `tickets.csv` row, for QA and
//! the printer's proof-reading. Every play area with its symbols (as labelled cells), the
//! amounts with their captions, the serial, pack and ticket, and the Interleaved 2 of 5
//! barcode of the serial (encoded by the `barcoders` crate). Specimen tickets carry a
//! SPECIMEN mark. The validation code is not drawn: it is secret, printed only under the
//! « Nul si découvert » box.

use crate::games::ColumnKind;
use crate::generate::Kind;
use crate::output::tickets_csv::META_COLUMNS;
use crate::spec::GameSpec;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::Path;

/// Why proofs cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// tickets.csv cannot be read or parsed.
    #[error("{path}: {message}")]
    Csv {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// A requested ticket is not in the block.
    #[error("ticket {0} is not in the block")]
    Missing(u32),
    /// A row does not have the spec's columns.
    #[error("ticket {0}: the row does not have the spec's columns")]
    Shape(u32),
    /// The serial is not a barcode payload (digits).
    #[error("ticket {0}: the serial is not made of digits")]
    Serial(u32),
}

/// Reads the rows of `tickets` (1-based ticket numbers) from `csv`, in the order asked.
pub fn find_rows(csv: &Path, tickets: &[u32]) -> Result<Vec<Vec<String>>, RenderError> {
    let err = |m: String| RenderError::Csv {
        path: csv.display().to_string(),
        message: m,
    };
    let want: BTreeSet<u32> = tickets.iter().copied().collect();
    let mut found = std::collections::BTreeMap::new();
    let mut r = csv::Reader::from_path(csv).map_err(|e| err(e.to_string()))?;
    let col = META_COLUMNS
        .iter()
        .position(|&c| c == "ticket")
        .expect("ticket column");
    for rec in r.records() {
        let rec = rec.map_err(|e| err(e.to_string()))?;
        let t: u32 = rec
            .get(col)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| err("a ticket number is not a number".into()))?;
        if want.contains(&t) {
            found.insert(t, rec.iter().map(str::to_string).collect::<Vec<_>>());
            if found.len() == want.len() {
                break;
            }
        }
    }
    tickets
        .iter()
        .map(|t| found.get(t).cloned().ok_or(RenderError::Missing(*t)))
        .collect()
}

/// One drawn cell: column name, value, and the caption when the column is an amount.
struct Cell {
    name: String,
    value: String,
    caption: Option<String>,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The play area a face column belongs to, from its name: the letters, plus the digits
/// before an `_` (`s3` → `s`, `gain1` → `gain`, `p2_c1` → `p2`, `j4_1` → `j4`).
fn area_of(name: &str) -> String {
    match name.split_once('_') {
        Some((head, _)) => head.to_string(),
        None => name
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string(),
    }
}

/// The SVG proof of one ticket of `spec` from its CSV row (`row`, in file column order).
pub fn ticket_svg(spec: &GameSpec, kind: Kind, row: &[String]) -> Result<String, RenderError> {
    let cols = spec.mechanic.columns();
    let meta = META_COLUMNS.len();
    let ticket: u32 = row.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    if row.len() != meta + cols.len() {
        return Err(RenderError::Shape(ticket));
    }
    let field = |name: &str| {
        &row[META_COLUMNS
            .iter()
            .position(|&c| c == name)
            .expect("meta column")]
    };
    let serial = field("serial");
    let bars = barcoders::sym::tf::TF::interleaved(serial.as_str())
        .map_err(|_| RenderError::Serial(ticket))?
        .encode();

    // Group face columns by play area, keeping file order; captions go with their amount.
    let mut areas: Vec<(String, Vec<Cell>)> = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        if matches!(c.kind, ColumnKind::Caption { .. }) {
            continue;
        }
        let caption = cols.iter().enumerate().find_map(|(j, d)| match d.kind {
            ColumnKind::Caption { of } if of == i => Some(row[meta + j].clone()),
            _ => None,
        });
        let area = area_of(&c.name);
        let cell = Cell {
            name: c.name.clone(),
            value: row[meta + i].clone(),
            caption,
        };
        match areas.last_mut() {
            Some((a, cells)) if *a == area => cells.push(cell),
            _ => areas.push((area, vec![cell])),
        }
    }

    let (cell_w, cell_h, gap, left) = (86.0, 54.0, 6.0, 90.0);
    let widest = areas.iter().map(|a| a.1.len()).max().unwrap_or(1) as f64;
    let width = (left + widest * (cell_w + gap) + 20.0).max(2.0 * 20.0 + bars.len() as f64 * 1.5);
    let height = 110.0 + areas.len() as f64 * (cell_h + gap + 14.0) + 90.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#fffdf5" stroke="#333"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="30" font-size="20" font-weight="bold">{}</text>"#,
        esc(&spec.name)
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="52" font-size="12">block {} · pack {} · position {} · ticket {} · serial {}</text>"#,
        esc(field("block")),
        esc(field("pack")),
        esc(field("pack_position")),
        esc(field("ticket")),
        esc(serial)
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="70" font-size="12">proof: prize {} {} · way {}</text>"#,
        esc(field("prize")),
        esc(&spec.currency),
        esc(field("way"))
    );
    if kind == Kind::Specimen {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="40" font-size="26" font-weight="bold" fill="#c00" text-anchor="end">SPECIMEN</text>"##,
            width - 20.0
        );
    }
    let mut y = 95.0;
    for (area, cells) in &areas {
        let _ = writeln!(
            s,
            r#"<text x="20" y="{}" font-size="13" font-weight="bold">{}</text>"#,
            y + cell_h / 2.0 + 4.0,
            esc(area)
        );
        for (
            k,
            Cell {
                name,
                value,
                caption,
            },
        ) in cells.iter().enumerate()
        {
            let x = left + k as f64 * (cell_w + gap);
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" rx="6" fill="#fff" stroke="#777"/>"##
            );
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" font-size="9" fill="#777">{}</text>"##,
                x + 4.0,
                y + 11.0,
                esc(name)
            );
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" font-size="15" font-weight="bold" text-anchor="middle">{}</text>"#,
                x + cell_w / 2.0,
                y + 32.0,
                esc(value)
            );
            if let Some(c) = caption {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" font-size="8" text-anchor="middle">{}</text>"#,
                    x + cell_w / 2.0,
                    y + 47.0,
                    esc(c)
                );
            }
        }
        y += cell_h + gap + 14.0;
    }
    // Interleaved 2 of 5 barcode of the serial, one module = 1.5 px.
    let by = y + 5.0;
    for (k, &m) in bars.iter().enumerate() {
        if m == 1 {
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{by}" width="1.5" height="50" fill="black"/>"#,
                20.0 + k as f64 * 1.5
            );
        }
    }
    let _ = writeln!(
        s,
        r#"<text x="20" y="{}" font-size="12" font-family="monospace">{}</text>"#,
        by + 66.0,
        esc(serial)
    );
    s.push_str("</svg>\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_areas_from_column_names() {
        assert_eq!(area_of("s3"), "s");
        assert_eq!(area_of("gain1"), "gain");
        assert_eq!(area_of("gain1_caption"), "gain1");
        assert_eq!(area_of("p2_c1"), "p2");
        assert_eq!(area_of("j4_1"), "j4");
        assert_eq!(area_of("b5"), "b");
    }

    #[test]
    fn itf_barcode_of_a_serial_starts_and_stops_right() {
        let bars = barcoders::sym::tf::TF::interleaved("17030010010000010012")
            .unwrap()
            .encode();
        assert_eq!(&bars[..4], &[1, 0, 1, 0]);
        assert_eq!(&bars[bars.len() - 4..], &[1, 1, 0, 1]);
        // Each of the 10 digit pairs: 5 bars and 5 spaces, of which 3 narrow (1 module) and
        // 2 wide (3 modules) each: 2 × (3 + 6) = 18 modules.
        assert_eq!(bars.len(), 4 + 10 * 18 + 4);
    }
}
