//! Ticket proofs: one SVG per chosen ticket, for QA and the printer's proof-reading. Every
//! play area with its symbols (as labelled cells), the amounts with their captions, the
//! serial, pack and ticket, and the Interleaved 2 of 5 barcode of the serial (encoded by the
//! `barcoders` crate). Specimen tickets carry a SPECIMEN mark. The validation code is not
//! drawn: it is secret, printed only under the « Nul si découvert » box.
//!
//! A proof shows what will be printed and what the rules give for it ([`load`]):
//!
//! 1. the block's `SHA256SUMS` must list `spec.toml`, `manifest.json`, `tickets.bin` and
//!    `tickets.csv` with their SHA-256 (each file is read once and hashed; nothing else of
//!    `verify` runs); `spec.toml` must load, the manifest parse and describe that spec's
//!    game, and the print file's header be the one of the manifest's block;
//! 2. each ticket's face, serial, pack and position come from its record in `tickets.bin`
//!    (the print file), read at its offset;
//! 3. its prize and way come from the spec's rules evaluating that face; a face the rules
//!    judge ambiguous, or whose wins are no way of the spec, has no proof;
//! 4. its `tickets.csv` row must be, byte for byte, the row of that record, prize and way (the
//!    CSV is what QA reads beside the proof): a row that differs is an error naming the
//!    columns.

pub use crate::block::layout::PROOFS;

use crate::block::layout::{BIN, CSV, MANIFEST, SPEC, SUMS};
use crate::block::{judge, Kind};
use crate::games::ColumnKind;
use crate::output::manifest::Manifest;
use crate::output::print_file;
use crate::output::tickets_csv::{self, RowWriter};
use crate::output::{sums, Ticket};
use crate::seal::{self, Identities};
use crate::spec::GameSpec;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::io::Read;
use std::path::Path;

/// Why proofs cannot be drawn. Every error stops `render` before any proof is written.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A file of the block cannot be read, differs from its `SHA256SUMS` line, or is not
    /// what the other files say it is.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// A requested ticket is not in the block (ticket numbers are 1-based).
    #[error("ticket {ticket} is not in the block: its tickets are 1 to {tickets}")]
    Missing {
        /// The ticket asked for.
        ticket: u32,
        /// The block's number of tickets.
        tickets: u32,
    },
    /// A ticket's record cannot be proofed: it is not where it should be, its face is not
    /// one the rules allow, or its `tickets.csv` row differs from it.
    #[error("ticket {ticket}: {message}")]
    Ticket {
        /// The ticket, 1-based.
        ticket: u32,
        /// What is wrong and what was expected.
        message: String,
    },
}

/// A block's tickets ready to be drawn, as [`load`] read and checked them.
#[derive(Debug)]
pub struct Proofs {
    /// The block's `spec.toml`.
    pub spec: GameSpec,
    /// The block's `manifest.json`.
    pub manifest: Manifest,
    /// The tickets asked for, in the order asked: position, serial, validation code and face
    /// from `tickets.bin`; prize (cents) and way from evaluating the face with the spec.
    pub tickets: Vec<Ticket>,
}

/// Longest `tickets.csv` row kept for the comparison, in bytes (rows are a few hundred).
const MAX_ROW: usize = 16 * 1024;

/// The lines of a text file wanted by number (0-based: the header is line 0, ticket `t`'s
/// row is line `t`), taken from the chunks of one read.
struct Lines {
    want: BTreeSet<u64>,
    last: u64,
    line: u64,
    got: BTreeMap<u64, Vec<u8>>,
}

impl Lines {
    fn new(want: BTreeSet<u64>) -> Lines {
        let last = want.last().copied().unwrap_or(0);
        Lines {
            want,
            last,
            line: 0,
            got: BTreeMap::new(),
        }
    }

    fn feed(&mut self, mut chunk: &[u8]) {
        while self.line <= self.last && !chunk.is_empty() {
            let end = memchr::memchr(b'\n', chunk);
            let part = &chunk[..end.unwrap_or(chunk.len())];
            if self.want.contains(&self.line) {
                let buf = self.got.entry(self.line).or_default();
                let room = MAX_ROW.saturating_sub(buf.len());
                buf.extend_from_slice(&part[..part.len().min(room)]);
            }
            match end {
                Some(i) => {
                    self.line += 1;
                    chunk = &chunk[i + 1..];
                }
                None => break,
            }
        }
    }
}

/// Reads the block in `dir` and the tickets `tickets` (1-based, print order) for proofs,
/// checking it as the module docs say. Reads `SHA256SUMS`, `spec.toml` and `manifest.json`
/// whole, `tickets.bin` and `tickets.csv` once each from start to end (to hash them), then
/// one print record per ticket at offset `header size + (ticket − 1) × record size`.
///
/// Errors ([`RenderError`]): a file missing, unreadable, not listed in or differing from
/// `SHA256SUMS`; a spec that does not load; a manifest that does not parse or describes
/// another game or spec; a print file whose header or length is not that of the manifest's
/// block; a ticket not in the block; a record at the wrong place, with a face code outside
/// its column, or with a face the rules judge ambiguous or whose wins are no way of the
/// spec; a `tickets.csv` row or header that differs from what the print file and the rules
/// give.
pub fn load(dir: &Path, tickets: &[u32], ids: &Identities) -> Result<Proofs, RenderError> {
    let file = |name: &str, message: String| RenderError::File {
        path: dir.join(name).display().to_string(),
        message,
    };
    let listed = sums::read(dir).map_err(|m| file(SUMS, m))?;
    let read_small = |name: &str| -> Result<Vec<u8>, RenderError> {
        let bytes = crate::output::read_regular(&dir.join(name), crate::output::MAX_JSON)
            .map_err(|e| file(name, format!("cannot read it: {e}")))?;
        sums::check(&listed, name, &hex::encode(Sha256::digest(&bytes)))
            .map_err(|m| file(name, m))?;
        Ok(bytes)
    };
    let spec_bytes = read_small(SPEC)?;
    let manifest_bytes = read_small(MANIFEST)?;
    let manifest: Manifest = serde_json::from_slice(&manifest_bytes)
        .map_err(|e| file(MANIFEST, format!("does not parse: {e}")))?;
    let spec_text = String::from_utf8(spec_bytes)
        .map_err(|_| file(SPEC, "not UTF-8 text (expected a game spec in TOML)".into()))?;
    let spec =
        GameSpec::parse(&dir.join(SPEC), spec_text).map_err(|e| file(SPEC, e.to_string()))?;
    let want_head = print_file::header(&spec, manifest.block, manifest.tickets);
    let rec_size = print_file::record_size(&spec);
    // A ticket file, in clear or encrypted (`.age`, opened with `ids`), read once: its
    // digest is checked against SHA256SUMS (in clear) or the manifest (the plaintext of an
    // encrypted file, whose delivered bytes SHA256SUMS checks). Returns its length.
    let stream = |name: &str, each: &mut dyn FnMut(&[u8])| -> Result<u64, RenderError> {
        let mut o =
            seal::open(dir, name, ids).map_err(|e| file(name, format!("cannot read it: {e}")))?;
        let mut h = Sha256::new();
        let mut n = 0u64;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let k = match o.reader.read(&mut buf) {
                Ok(0) => break,
                Ok(k) => k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(file(name, format!("cannot read it: {e}"))),
            };
            h.update(&buf[..k]);
            each(&buf[..k]);
            n += k as u64;
        }
        let digest = hex::encode(h.finalize());
        if o.delivered == name {
            sums::check(&listed, name, &digest).map_err(|m| file(name, m))?;
        } else {
            let sealed = sums::file_sha256(&dir.join(&o.delivered), |_| {})
                .map_err(|e| file(&o.delivered, format!("cannot read it: {e}")))?;
            sums::check(&listed, &o.delivered, &sealed).map_err(|m| file(&o.delivered, m))?;
            let want = manifest
                .files
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.sha256.as_str());
            if want != Some(digest.as_str()) {
                return Err(file(
                    name,
                    format!("decrypted, its SHA-256 is {digest}; the manifest says {want:?}"),
                ));
            }
        }
        Ok(n)
    };
    // The print file: its header and the records of the tickets asked for, kept as they
    // stream past.
    let mut bin_bytes: Vec<u8> = Vec::new();
    let mut wanted: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    let (head_len, rec) = (want_head.len() as u64, rec_size as u64);
    let mut at = 0u64;
    let bin_len = stream(BIN, &mut |c: &[u8]| {
        let keep = (want_head.len().saturating_sub(bin_bytes.len())).min(c.len());
        bin_bytes.extend_from_slice(&c[..keep]);
        for &t in tickets {
            let from = head_len + u64::from(t.saturating_sub(1)) * rec;
            let (lo, hi) = (from.max(at), (from + rec).min(at + c.len() as u64));
            if t > 0 && lo < hi {
                wanted
                    .entry(u64::from(t))
                    .or_default()
                    .extend_from_slice(&c[(lo - at) as usize..(hi - at) as usize]);
            }
        }
        at += c.len() as u64;
    })?;
    let mut lines = Lines::new(
        std::iter::once(0)
            .chain(tickets.iter().map(|&t| u64::from(t)))
            .collect(),
    );
    stream(CSV, &mut |c: &[u8]| lines.feed(c))?;

    let g = &manifest.game;
    if g.id != spec.id
        || g.mechanic != spec.mechanic.name()
        || g.game_code != spec.game_code
        || g.emission != spec.emission
        || manifest.spec.sha256 != spec.sha256
    {
        return Err(file(
            MANIFEST,
            format!(
                "describes game {} ({}, game code {}, emission {}, spec SHA-256 {}); spec.toml is game {} ({}, game code {}, emission {}, SHA-256 {})",
                g.id, g.mechanic, g.game_code, g.emission, manifest.spec.sha256,
                spec.id, spec.mechanic.name(), spec.game_code, spec.emission, spec.sha256
            ),
        ));
    }

    // The print file: its header must be the one this spec writes for the manifest's block.
    let head = &bin_bytes[..want_head.len().min(bin_bytes.len())];
    if head != want_head {
        let got = (head.len() == want_head.len())
            .then(|| print_file::read_header(head).ok())
            .flatten();
        let want = print_file::read_header(&want_head).expect("own header");
        let detail = match got {
            Some(g) if g != want => format!("header fields {g:?}"),
            Some(_) => "the column dictionaries differ from the spec's".into(),
            None => "no print file header".into(),
        };
        return Err(file(
            BIN,
            format!(
                "{detail}; expected the header of block {} of {} tickets of {} ({want:?})",
                manifest.block, manifest.tickets, spec.id
            ),
        ));
    }
    let want_len = want_head.len() as u64 + u64::from(manifest.tickets) * rec_size as u64;
    let len = bin_len;
    if len != want_len {
        return Err(file(
            BIN,
            format!(
                "{len} bytes; expected {want_len}: a header of {} bytes and {} records of {rec_size}",
                want_head.len(),
                manifest.tickets
            ),
        ));
    }

    // The CSV header, then each ticket.
    let csv_head = tickets_csv::header(&spec);
    let csv_head = &csv_head[..csv_head.len() - 1];
    if lines.got.get(&0).map(Vec::as_slice) != Some(csv_head) {
        return Err(file(
            CSV,
            format!(
                "its header row is not the spec's: expected {:?}",
                String::from_utf8_lossy(csv_head)
            ),
        ));
    }
    let ncols = spec.mechanic.columns().len();
    let mut rows = RowWriter::new(&spec);
    let mut out = Vec::with_capacity(tickets.len());
    for &t in tickets {
        if t == 0 || t > manifest.tickets {
            return Err(RenderError::Missing {
                ticket: t,
                tickets: manifest.tickets,
            });
        }
        let bad = |message: String| RenderError::Ticket { ticket: t, message };
        let offset = want_head.len() as u64 + u64::from(t - 1) * rec_size as u64;
        let rec = wanted
            .get(&u64::from(t))
            .filter(|r| r.len() == rec_size)
            .cloned()
            .ok_or_else(|| file(BIN, format!("cannot read the record at offset {offset}")))?;
        let r = print_file::read_record(&rec, ncols);
        let ps = spec.pack_size;
        let (pack, pos) = ((t - 1) / ps + 1, (t - 1) % ps + 1);
        if r.ticket != t || r.pack != pack || r.pack_position != pos {
            return Err(bad(format!(
                "the record at offset {offset} of {BIN} says ticket {}, pack {}, position {}; expected ticket {t}, pack {pack}, position {pos}",
                r.ticket, r.pack, r.pack_position
            )));
        }
        if !r.serial.iter().all(u8::is_ascii_digit) {
            return Err(bad(format!(
                "the serial in {BIN} is {:?}, expected 20 digits",
                String::from_utf8_lossy(&r.serial)
            )));
        }
        for (c, &k) in spec.mechanic.columns().iter().zip(&r.face.codes) {
            if usize::from(k) >= c.values.len() {
                return Err(bad(format!(
                    "face code {k} of column {} in {BIN} is not one of its {} values",
                    c.name,
                    c.values.len()
                )));
            }
        }
        let judged = judge(&spec, &r.face);
        if !judged.ambiguities.is_empty() {
            return Err(bad(format!(
                "the rules judge the face in {BIN} ambiguous ({}); no proof is drawn of it",
                judged.ambiguities.join("; ")
            )));
        }
        let Some(way) = judged.way else {
            let areas = spec.mechanic.areas();
            let wins: Vec<String> = judged
                .evaluation
                .wins
                .iter()
                .map(|w| {
                    let area = areas.get(usize::from(w.area)).map_or("?", String::as_str);
                    format!("{} in {area}", w.amount)
                })
                .collect();
            return Err(bad(format!(
                "the face in {BIN} wins {} (prize {} {}), which is no way of the spec; no proof is drawn of it",
                wins.join(" + "),
                judged.prize,
                spec.currency
            )));
        };
        let ticket = Ticket {
            block: manifest.block,
            pack: r.pack,
            pack_position: r.pack_position,
            ticket: r.ticket,
            serial: r.serial,
            validation: r.validation,
            prize: judged.prize,
            way,
            face: r.face,
        };
        rows.clear();
        rows.push(&ticket);
        let want = &rows.bytes()[..rows.bytes().len() - 1];
        let got = lines.got.get(&u64::from(t)).map(Vec::as_slice);
        if got != Some(want) {
            let Some(got) = got else {
                return Err(file(CSV, format!("has no row for ticket {t}")));
            };
            return Err(bad(format!(
                "its {CSV} row differs from its record in {BIN} and the prize and way the rules give: {}",
                row_diff(&spec, got, want)
            )));
        }
        out.push(ticket);
    }
    Ok(Proofs {
        spec,
        manifest,
        tickets: out,
    })
}

/// The columns where a `tickets.csv` row `got` differs from the row `want`, in words.
fn row_diff(spec: &GameSpec, got: &[u8], want: &[u8]) -> String {
    let (g, w) = (tickets_csv::fields(got), tickets_csv::fields(want));
    let names = tickets_csv::column_names(spec);
    if g.len() != w.len() {
        return format!("{} fields, expected {}", g.len(), w.len());
    }
    let diffs: Vec<String> = names
        .iter()
        .zip(g.iter().zip(&w))
        .filter(|(_, (a, b))| a != b)
        .map(|(n, (a, b))| format!("{n}: {CSV} has {a:?}, expected {b:?}"))
        .collect();
    if diffs.is_empty() {
        // Same fields, different bytes (quoting).
        format!(
            "{:?}, expected {:?}",
            String::from_utf8_lossy(got),
            String::from_utf8_lossy(want)
        )
    } else {
        diffs.join("; ")
    }
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

/// The SVG proof of ticket `t` of `spec` (as [`load`] gives it: its face codes index the
/// spec's columns, its way is a way of the spec). `kind` says whether to mark it SPECIMEN.
/// Errors: a face code or way outside the spec, or a serial that is not digits (the barcode
/// payload).
pub fn ticket_svg(spec: &GameSpec, kind: Kind, t: &Ticket) -> Result<String, RenderError> {
    let cols = spec.mechanic.columns();
    let bad = |message: String| RenderError::Ticket {
        ticket: t.ticket,
        message,
    };
    let values: Vec<&str> = cols
        .iter()
        .zip(&t.face.codes)
        .map(|(c, &k)| {
            c.values
                .get(usize::from(k))
                .map(String::as_str)
                .ok_or_else(|| {
                    bad(format!(
                        "face code {k} of column {} is not one of its {} values",
                        c.name,
                        c.values.len()
                    ))
                })
        })
        .collect::<Result<_, _>>()?;
    let way = spec
        .ways
        .get(usize::from(t.way))
        .ok_or_else(|| bad(format!("way {} is not a way of the spec", t.way)))?;
    let serial = std::str::from_utf8(&t.serial)
        .ok()
        .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| bad("the serial is not made of digits".into()))?;
    let bars = barcoders::sym::tf::TF::interleaved(serial)
        .map_err(|_| bad("the serial is not a barcode payload (an even count of digits)".into()))?
        .encode();

    // Group face columns by play area, keeping file order; captions go with their amount.
    let mut areas: Vec<(String, Vec<Cell>)> = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        if matches!(c.kind, ColumnKind::Caption { .. }) {
            continue;
        }
        let caption = cols
            .iter()
            .enumerate()
            .find_map(|(j, d)| match d.kind {
                ColumnKind::Caption { of } if of == i => Some(values[j].to_string()),
                _ => None,
            })
            .or_else(|| spec.mechanic.inscription(i, t.face.codes[i]));
        let area = area_of(&c.name);
        let cell = Cell {
            name: c.name.clone(),
            value: values[i].to_string(),
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
        t.block,
        t.pack,
        t.pack_position,
        t.ticket,
        esc(serial)
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="70" font-size="12">proof: prize {} {} · way {}</text>"#,
        t.prize,
        esc(&spec.currency),
        esc(&way.id)
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
                r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle">{}</text>"#,
                x + cell_w / 2.0,
                y + 32.0,
                fit(15.0, value, cell_w - 8.0),
                esc(value)
            );
            if let Some(c) = caption {
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" font-size="{}" text-anchor="middle">{}</text>"#,
                    x + cell_w / 2.0,
                    y + 47.0,
                    fit(8.0, c, cell_w - 6.0),
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

/// The font size, at most `size` px, at which `text` fits in `width` px: a bold capital is
/// at most about 0.72 em wide in the usual sans-serif faces. One decimal.
fn fit(size: f64, text: &str, width: f64) -> f64 {
    let chars = text.chars().count().max(1) as f64;
    let s = size.min(width / (0.72 * chars));
    (s * 10.0).floor() / 10.0
}

#[cfg(test)]
mod tests {
    use super::fit;

    /// Long symbols and captions are drawn smaller so they stay inside their cell.
    #[test]
    fn long_labels_fit_their_cell() {
        assert_eq!(fit(15.0, "COQ", 78.0), 15.0);
        // 10 capitals at 0.72 em in 78 px: 10.8 px.
        assert_eq!(fit(15.0, "PROSPERITE", 78.0), 10.8);
        assert_eq!(fit(8.0, "CINQUANTE MILLE EUROS", 80.0), 5.2);
    }

    use super::*;

    #[test]
    fn wanted_lines_are_taken_across_chunk_boundaries() {
        let text = b"h,e\na,1\nbb,22\n\nccc,333\n";
        for size in 1..=text.len() {
            let mut l = Lines::new([0, 2, 3, 4, 9].into_iter().collect());
            for c in text.chunks(size) {
                l.feed(c);
            }
            let got: Vec<(u64, &[u8])> = l.got.iter().map(|(k, v)| (*k, v.as_slice())).collect();
            assert_eq!(
                got,
                vec![
                    (0, b"h,e".as_slice()),
                    (2, b"bb,22".as_slice()),
                    (3, b"".as_slice()),
                    (4, b"ccc,333".as_slice())
                ],
                "chunks of {size}"
            );
        }
    }

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
