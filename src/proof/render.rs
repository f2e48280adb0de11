//! Ticket proofs: one SVG per chosen ticket, for QA and the printer's proof-reading. Every
//! play area with its symbols (as labelled cells; a crossword's words on its grid's
//! squares), the amounts with their captions, what the
//! ticket prints beside them (pay legends, fixed winning symbols, printed maxima), the
//! serial, pack and ticket, and the Interleaved 2 of 5 barcode of the serial (encoded by the
//! `barcoders` crate). Specimen tickets carry a SPECIMEN mark. The validation code is not
//! drawn: it is secret, printed only under the « Nul si découvert » box.
//!
//! A proof shows what will be printed and what the rules give for it ([`load`]), from the
//! ticket files its user holds ([`Source`]): the printer's print file alone gives proofs of
//! a production block without prize, way, mark or note ([`Proofs::marks`]).
//!
//! 1. the block's `SHA256SUMS` must list `spec.toml`, `manifest.json` and the ticket files
//!    read with their SHA-256 (each file is read once and hashed; nothing else of
//!    `verify` runs); `spec.toml` must load, the manifest parse and describe that spec's
//!    game, and the print file's header be the one of the manifest's block;
//! 2. each ticket's face, serial, pack and position come from its record in `tickets.bin`
//!    (the print file), read at its offset, or without it from its `tickets.csv` row;
//! 3. its prize and way come from the spec's rules evaluating that face; a face the rules
//!    judge ambiguous, or whose wins are no way of the spec, has no proof;
//! 4. its `tickets.csv` row, when read, must be, byte for byte, the row of that record, prize and way (the
//!    CSV is what QA reads beside the proof): a row that differs is an error naming the
//!    columns.

use crate::block::layout::{BIN, CSV, MANIFEST, SEALED_SUFFIX, SPEC, SUMS};
use crate::block::{judge, Kind};
use crate::generate::cancel::Cancel;
use crate::money::Money;
use crate::output::manifest::Manifest;
use crate::output::print_file;
use crate::output::seal::{self, Identities};
use crate::output::tickets_csv::{self, RowWriter};
use crate::output::{sums, Ticket};
use crate::proof::draw::page::wrap;
use crate::proof::draw::{fit, svg, text_width, Anchor, Canvas, Color, Font};
use crate::proof::select::{SelectError, Selection, MOST_UNNAMED};
use crate::proof::words::Words;
use crate::spec::GameSpec;
use crate::styles::{
    ColumnKind, Evaluation, FeatureId, FeatureKind, LatticeGrid, Layout, Mark, MarkKind, Panel,
    FREE_CELL,
};
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
    /// The run was asked to stop (the [`Cancel`] token given to [`load`] set: Ctrl-C,
    /// SIGTERM) while the ticket files were read.
    #[error("interrupted: nothing was written, and what was at the destination is as it was")]
    Interrupted,
    /// The selection selects no ticket to draw, or too many, or asks for prizes these
    /// proofs cannot know.
    #[error(transparent)]
    Select(#[from] SelectError),
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

/// Longest `tickets.csv` row kept for the comparison, in bytes (rows are a few hundred).
const MAX_ROW: usize = 16 * 1024;

/// The lines of a text file wanted by number (0-based: the header is line 0, ticket `t`'s
/// row is line `t`), taken from the chunks of one read: `want` says at the start of each
/// line whether it is wanted, `keep` whether a wanted line, once whole, is kept.
struct Lines {
    last: u64,
    line: u64,
    /// The line being read, when wanted; `None` before its start is decided.
    cur: Option<Option<Vec<u8>>>,
    got: BTreeMap<u64, Vec<u8>>,
}

impl Lines {
    /// Lines up to `last` at most.
    fn new(last: u64) -> Lines {
        Lines {
            last,
            line: 0,
            cur: None,
            got: BTreeMap::new(),
        }
    }

    fn feed(
        &mut self,
        mut chunk: &[u8],
        want: &mut dyn FnMut(u64) -> bool,
        keep: &mut dyn FnMut(u64, &[u8]) -> bool,
    ) {
        while self.line <= self.last && !chunk.is_empty() {
            let line = self.line;
            let cur = self.cur.get_or_insert_with(|| want(line).then(Vec::new));
            let end = memchr::memchr(b'\n', chunk);
            let part = &chunk[..end.unwrap_or(chunk.len())];
            if let Some(buf) = cur {
                let room = MAX_ROW.saturating_sub(buf.len());
                buf.extend_from_slice(&part[..part.len().min(room)]);
            }
            match end {
                Some(i) => {
                    self.finish(keep);
                    chunk = &chunk[i + 1..];
                }
                None => break,
            }
        }
    }

    /// Ends the line being read (at a newline, or at the end of the file).
    fn finish(&mut self, keep: &mut dyn FnMut(u64, &[u8]) -> bool) {
        if let Some(Some(buf)) = self.cur.take() {
            if keep(self.line, &buf) {
                self.got.insert(self.line, buf);
            }
        }
        self.line += 1;
    }
}

/// Which ticket files a proof was read from: what the holder of the block could open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The print file, with each ticket's `tickets.csv` row held to it (a block in clear,
    /// or one whose both files the identities open).
    PrintFileAndCsv,
    /// The print file alone (the printer's: `tickets.csv` is absent or encrypted to
    /// others).
    PrintFile,
    /// `tickets.csv` alone (QA's or the auditor's: `tickets.bin` is absent or encrypted to
    /// others); the face is read from the row's values, the prize and way still from the
    /// rules, and held to the row's.
    Csv,
}

/// A block's tickets ready to be drawn, as [`load`] read and checked them.
#[derive(Debug)]
pub struct Proofs {
    /// The block's `spec.toml`.
    pub spec: GameSpec,
    /// The block's `manifest.json`.
    pub manifest: Manifest,
    /// The tickets asked for, in the order asked: position, serial and face from
    /// `tickets.bin` (or `tickets.csv`); the validation code from `tickets.bin` (0 when read
    /// from `tickets.csv`, which holds none; no proof draws it); prize (cents) and way from
    /// evaluating the face with the spec.
    pub tickets: Vec<Ticket>,
    /// The ticket files read.
    pub source: Source,
}

impl Proofs {
    /// The marks proofs of these tickets may carry when `asked` are asked for: none for a
    /// production block read from the print file alone — the printer's proof shows what
    /// the ticket prints and no prize, way, mark or note (a proof leaves the press room);
    /// else `asked`.
    pub fn marks(&self, asked: Marks) -> Marks {
        if self.manifest.kind == Kind::Production && self.source == Source::PrintFile {
            Marks::Hidden
        } else {
            asked
        }
    }
}

/// Reads the block in `dir` and the tickets `selection` selects for proofs, checking it as
/// the module docs say. Reads `SHA256SUMS`, `spec.toml` and `manifest.json` whole, then
/// whichever of `tickets.bin` and `tickets.csv` are there and open (in clear, or `.age` with
/// one of `ids`), each once from start to end (to hash it): the print records of the
/// tickets at a place selected, at offset `header size + (ticket − 1) × record size`, and
/// their `tickets.csv` rows; with `--way` or `--tier`, each such face is judged as it
/// streams past and kept only when its way is selected. The tickets come in the order
/// named, else in print order. A file absent, or encrypted to no identity given, is not
/// read ([`Proofs::source`] says which were); at least one must be. `stop` set stops the
/// reading between two chunks of a file.
///
/// Errors ([`RenderError`]): `stop` set ([`RenderError::Interrupted`]); a selection the block refuses, selecting nothing, more than
/// [`MOST_UNNAMED`] tickets not named, or a way or tier from the print file alone of a
/// production block ([`SelectError`]); neither ticket file can be read (each one's reason given); a
/// file unreadable, not listed in or differing from `SHA256SUMS`; a spec that does not
/// load; a manifest that does not parse or describes another game or spec; a print file
/// whose header or length is not that of the manifest's block; a ticket not in the block; a
/// record at the wrong place, with a face code outside its column, or with a face the rules
/// judge ambiguous or whose wins are no way of the spec; a `tickets.csv` row or header that
/// differs from what the print file and the rules give (or, read alone, a row whose values
/// are no face of the spec, or whose prize and way are not the rules').
pub fn load(
    dir: &Path,
    selection: &Selection,
    ids: &Identities,
    stop: &Cancel,
) -> Result<Proofs, RenderError> {
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
    // A deck is block 0 and a production block never is (as verify holds it): a manifest
    // saying otherwise was changed, perhaps to draw a production block's winners as a deck's.
    if (manifest.kind == Kind::Specimen) != (manifest.block == 0) {
        return Err(file(
            MANIFEST,
            format!(
                "says a {} block numbered {}: a deck is block 0 and a production block never \
                 is, so it was changed after it was made; no proof is drawn",
                manifest.kind.name(),
                manifest.block
            ),
        ));
    }
    let spec_text = String::from_utf8(spec_bytes)
        .map_err(|_| file(SPEC, "not UTF-8 text (expected a game spec in TOML)".into()))?;
    let spec =
        GameSpec::parse(&dir.join(SPEC), spec_text).map_err(|e| file(SPEC, e.to_string()))?;
    let want_head = print_file::header(&spec, manifest.block, manifest.tickets);
    let rec_size = print_file::record_size(&spec);
    // Before the manifest's count of tickets is used for anything: the ticket files hold
    // that many.
    holds_count(
        dir,
        want_head.len() as u64,
        rec_size as u64,
        manifest.tickets,
    )
    .map_err(|(name, m)| file(&name, m))?;
    let chosen = selection.resolve(&spec, manifest.tickets)?;
    let placed = chosen.placed(manifest.tickets);
    if !chosen.named() && !chosen.by_prize() && placed > MOST_UNNAMED {
        return Err(SelectError::TooMany {
            count: placed,
            said: chosen.said().to_string(),
        }
        .into());
    }
    // A ticket file, in clear or encrypted (`.age`, opened with `ids`): `Ok(Err(why))` when
    // this holder cannot read it (absent, or encrypted to others), an error when it is
    // there to read and cannot be.
    let open = |name: &str| -> Result<Result<seal::Opened, String>, RenderError> {
        match seal::open(dir, name, ids) {
            Ok(o) => Ok(Ok(o)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok(Err(format!("{name}: neither it nor {name}.age is here")))
            }
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => Ok(Err(e.to_string())),
            Err(e) => Err(file(name, format!("cannot read it: {e}"))),
        }
    };
    // A ticket file read once: its digest is checked against SHA256SUMS (in clear) or the
    // manifest (the plaintext of an encrypted file, whose delivered bytes SHA256SUMS
    // checks). Returns its length.
    let stream = |name: &str,
                  mut o: seal::Opened,
                  each: &mut dyn FnMut(&[u8])|
     -> Result<u64, RenderError> {
        let mut h = Sha256::new();
        let mut n = 0u64;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            if stop.is_cancelled() {
                return Err(RenderError::Interrupted);
            }
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
        if let Some(delivered) = &o.sealed {
            // The delivered bytes, summed from the same open file as they were decrypted.
            let (_, sealed) = delivered
                .finish()
                .map_err(|e| file(&o.delivered, format!("cannot read it: {e}")))?;
            sums::check(&listed, &o.delivered, &sealed).map_err(|m| file(&o.delivered, m))?;
            let want = manifest
                .files
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.sha256.as_str());
            match want {
                Some(w) if w == digest => {}
                Some(w) => {
                    return Err(file(
                        name,
                        format!("decrypted, its SHA-256 is {digest}; manifest.json records {w}"),
                    ))
                }
                None => return Err(file(name, format!("manifest.json records no {name}"))),
            }
        } else {
            sums::check(&listed, name, &digest).map_err(|m| file(name, m))?;
        }
        Ok(n)
    };
    let (bin_file, csv_file) = (open(BIN)?, open(CSV)?);
    let source = match (&bin_file, &csv_file) {
        (Ok(_), Ok(_)) => Source::PrintFileAndCsv,
        (Ok(_), Err(_)) => Source::PrintFile,
        (Err(_), Ok(_)) => Source::Csv,
        (Err(b), Err(c)) => {
            return Err(RenderError::File {
                path: dir.display().to_string(),
                message: format!(
                    "no ticket file can be read, so no proof is drawn: {b}; {c} (a proof needs the print file, with the printer's identity, or tickets.csv, with the auditor's)"
                ),
            })
        }
    };
    if chosen.by_prize() && manifest.kind == Kind::Production && source == Source::PrintFile {
        return Err(SelectError::NoPrize.into());
    }
    // Whether a ticket at a place selected is of a way selected: its face judged by the
    // rules. A face that cannot be judged is kept, for the checks below to say why.
    let ncols = spec.game.layout().columns.len();
    let of_way = |r: &print_file::Record| -> bool {
        if !chosen.by_prize() {
            return true;
        }
        let codes_ok = spec
            .game
            .layout()
            .columns
            .iter()
            .zip(&r.face.codes)
            .all(|(c, &k)| usize::from(k) < c.values.len());
        if !codes_ok {
            return true;
        }
        let judged = judge(&spec, &r.face);
        match judged.way {
            Some(w) if judged.ambiguities.is_empty() => chosen.of_way(w),
            _ => true,
        }
    };
    // How many tickets are selected, and whether they may all be kept.
    let mut matched = 0u64;
    let most = if chosen.named() {
        u64::MAX
    } else {
        MOST_UNNAMED
    };
    // The print file: its header and the records of the tickets selected, kept as they
    // stream past.
    let mut bin_bytes: Vec<u8> = Vec::new();
    let mut wanted: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    let (head_len, rec) = (want_head.len() as u64, rec_size as u64);
    let last = u64::from(manifest.tickets);
    let mut at = 0u64;
    let bin_len = match bin_file {
        Ok(o) => Some(stream(BIN, o, &mut |c: &[u8]| {
            let keep = (want_head.len().saturating_sub(bin_bytes.len())).min(c.len());
            bin_bytes.extend_from_slice(&c[..keep]);
            let end = at + c.len() as u64;
            if end > head_len && rec > 0 {
                let first = (at.max(head_len) - head_len) / rec + 1;
                let upto = ((end - 1 - head_len) / rec + 1).min(last);
                for t in first..=upto {
                    if !chosen.at_place(t as u32) {
                        continue;
                    }
                    let from = head_len + (t - 1) * rec;
                    let (lo, hi) = (from.max(at), (from + rec).min(end));
                    let r = wanted.entry(t).or_default();
                    r.extend_from_slice(&c[(lo - at) as usize..(hi - at) as usize]);
                    if r.len() as u64 == rec {
                        let record = print_file::read_record(r, ncols);
                        if !of_way(&record) {
                            wanted.remove(&t);
                        } else {
                            matched += 1;
                            if matched > most {
                                wanted.remove(&t);
                            }
                        }
                    }
                }
            }
            at = end;
        })?),
        Err(_) => None,
    };
    // tickets.csv: its header and the rows of the tickets kept from the print file, or
    // when read alone, of the tickets selected.
    let mut lines = Lines::new(last);
    let csv_read = match csv_file {
        Ok(o) => {
            let bin_read = bin_len.is_some();
            let mut want = |line: u64| {
                line == 0
                    || if bin_read {
                        wanted.contains_key(&line)
                    } else {
                        chosen.at_place(line as u32)
                    }
            };
            let mut keep = |line: u64, row: &[u8]| {
                if line == 0 || bin_read {
                    return true;
                }
                let selected = record_of_row(&spec, row).map_or(true, |r| of_way(&r));
                if selected {
                    matched += 1;
                }
                selected && matched <= most
            };
            let mut lines_fed = |c: &[u8]| lines.feed(c, &mut want, &mut keep);
            stream(CSV, o, &mut lines_fed)?;
            lines.finish(&mut keep);
            true
        }
        Err(_) => false,
    };
    if matched > most {
        return Err(SelectError::TooMany {
            count: matched,
            said: chosen.said().to_string(),
        }
        .into());
    }
    let mut selected: Vec<u32> = if bin_len.is_some() {
        wanted.keys().map(|&t| t as u32).collect()
    } else {
        lines
            .got
            .keys()
            .filter(|&&l| l > 0)
            .map(|&l| l as u32)
            .collect()
    };
    if selected.is_empty() {
        return Err(SelectError::Empty(chosen.said().to_string()).into());
    }
    selected.sort_by_key(|&t| chosen.order(t));

    let g = &manifest.game;
    if g.id != spec.id
        || g.mechanic != spec.game.layout().name
        || g.game_code != spec.game_code
        || g.emission != spec.emission
        || manifest.spec.sha256 != spec.sha256
    {
        return Err(file(
            MANIFEST,
            format!(
                "describes game {} ({}, game code {}, emission {}, spec SHA-256 {}); spec.toml is game {} ({}, game code {}, emission {}, SHA-256 {})",
                g.id, g.mechanic, g.game_code, g.emission, manifest.spec.sha256,
                spec.id, spec.game.layout().name, spec.game_code, spec.emission, spec.sha256
            ),
        ));
    }

    // The print file: its header must be the one this spec writes for the manifest's block.
    if let Some(len) = bin_len {
        let head = &bin_bytes[..want_head.len().min(bin_bytes.len())];
        if head != want_head {
            let want = print_file::read_header(&want_head).expect("own header");
            let detail = match (print_file::read_header(head), head.len() < want_head.len()) {
                (Ok(g), _) if g != want => g.differences(&want),
                (_, true) => format!(
                    "the file ends inside its header: {} bytes of the {} the spec gives",
                    head.len(),
                    want_head.len()
                ),
                (Ok(_), false) => match print_file::dictionary_difference(&spec, head) {
                    Some(at) => {
                        format!("the column dictionaries differ from the spec's, first at {at}")
                    }
                    None => "the column dictionaries differ from the spec's".into(),
                },
                (Err(e), false) => e,
            };
            return Err(file(
                BIN,
                format!(
                    "{detail}: not the header this spec writes for block {} of {} tickets of {}",
                    manifest.block, manifest.tickets, spec.id
                ),
            ));
        }
        let want_len = want_head.len() as u64 + u64::from(manifest.tickets) * rec_size as u64;
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
    }

    // The CSV header, then each ticket.
    if csv_read {
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
    }
    let mut rows = RowWriter::new(&spec);
    let mut out = Vec::with_capacity(selected.len());
    for t in selected {
        if t == 0 || t > manifest.tickets {
            return Err(RenderError::Missing {
                ticket: t,
                tickets: manifest.tickets,
            });
        }
        let bad = |message: String| RenderError::Ticket { ticket: t, message };
        let row = lines.got.get(&u64::from(t)).map(Vec::as_slice);
        // The record: from the print file, or rebuilt from the row's values.
        let (r, (place, from)) = if bin_len.is_some() {
            let offset = want_head.len() as u64 + u64::from(t - 1) * rec_size as u64;
            let rec = wanted
                .get(&u64::from(t))
                .filter(|r| r.len() == rec_size)
                .cloned()
                .ok_or_else(|| file(BIN, format!("cannot read the record at offset {offset}")))?;
            (
                print_file::read_record(&rec, ncols),
                (format!("the record at offset {offset} of {BIN}"), BIN),
            )
        } else {
            let row = row.ok_or_else(|| file(CSV, format!("has no row for ticket {t}")))?;
            (
                record_of_row(&spec, row).map_err(|m| bad(format!("its {CSV} row {m}")))?,
                (format!("its {CSV} row"), CSV),
            )
        };
        let ps = spec.pack_size;
        let (pack, pos) = ((t - 1) / ps + 1, (t - 1) % ps + 1);
        if r.ticket != t || r.pack != pack || r.pack_position != pos {
            return Err(bad(format!(
                "{place} says ticket {}, pack {}, position {}; expected ticket {t}, pack {pack}, position {pos}",
                r.ticket, r.pack, r.pack_position
            )));
        }
        if !r.serial.iter().all(u8::is_ascii_digit) {
            return Err(bad(format!(
                "the serial in {from} is {:?}, expected 20 digits",
                String::from_utf8_lossy(&r.serial)
            )));
        }
        for (c, &k) in spec.game.layout().columns.iter().zip(&r.face.codes) {
            if usize::from(k) >= c.values.len() {
                return Err(bad(format!(
                    "face code {k} of column {} in {from} is not one of its {} values",
                    c.name,
                    c.values.len()
                )));
            }
        }
        let judged = judge(&spec, &r.face);
        if !judged.ambiguities.is_empty() {
            return Err(bad(format!(
                "the rules judge the face in {from} ambiguous ({}); no proof is drawn of it",
                judged.ambiguities.join("; ")
            )));
        }
        let Some(way) = judged.way else {
            let areas = &spec.game.layout().areas;
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
                "the face in {from} wins {} (prize {} {}), which is no way of the spec; no proof is drawn of it",
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
        if csv_read {
            // The row, byte for byte: the record's (or the row's own values), with the
            // block, prize and way the manifest and the rules give.
            rows.clear();
            rows.push(&ticket);
            let want = &rows.bytes()[..rows.bytes().len() - 1];
            let Some(got) = row else {
                return Err(file(CSV, format!("has no row for ticket {t}")));
            };
            if got != want {
                let of = if bin_len.is_some() {
                    format!("its record in {BIN} and ")
                } else {
                    String::new()
                };
                return Err(bad(format!(
                    "its {CSV} row differs from {of}the prize and way the rules give: {}",
                    row_diff(&spec, got, want)
                )));
            }
        }
        out.push(ticket);
    }
    Ok(Proofs {
        spec,
        manifest,
        tickets: out,
        source,
    })
}

/// Holds the count of tickets `tickets` a block's manifest claims to the sizes of its
/// ticket files in `dir`, before that count is used: the print file in clear is exactly
/// `head` bytes and `tickets` records of `rec` bytes; encrypted (`.age`), it is at least
/// that long (its plaintext is no longer than it); `tickets.csv` (in clear or not) holds a
/// line of at least one byte per ticket. A file absent is not judged here (the ticket files
/// are opened after). Errors: the name of the first file that cannot hold the count, and
/// what it holds.
fn holds_count(dir: &Path, head: u64, rec: u64, tickets: u32) -> Result<(), (String, String)> {
    let size = |name: &str| {
        std::fs::symlink_metadata(dir.join(name))
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len())
    };
    let sealed = |name: &str| format!("{name}{SEALED_SUFFIX}");
    let want = head + u64::from(tickets) * rec;
    let claim = format!("a header of {head} bytes and {tickets} records of {rec}, as manifest.json counts its tickets");
    if let Some(len) = size(BIN) {
        if len != want {
            return Err((BIN.into(), format!("{len} bytes; expected {want}: {claim}")));
        }
    } else if let Some(len) = size(&sealed(BIN)).filter(|&l| l < want) {
        return Err((
            sealed(BIN),
            format!("{len} bytes, too few for the print file it holds: {want} expected, {claim}"),
        ));
    }
    for name in [CSV.to_string(), sealed(CSV)] {
        if let Some(len) = size(&name).filter(|&l| l < u64::from(tickets)) {
            return Err((
                name,
                format!("{len} bytes, too few for a row for each of the {tickets} tickets manifest.json counts"),
            ));
        }
    }
    Ok(())
}

/// The print record a `tickets.csv` row stands for: its ticket, pack, position and serial,
/// and its face values as the spec's column codes (validation code 0: the row holds none).
/// `Err` says what in the row is not so, after "its tickets.csv row".
fn record_of_row(spec: &GameSpec, row: &[u8]) -> Result<print_file::Record, String> {
    let f = tickets_csv::fields(row);
    let cols = &spec.game.layout().columns;
    let names = tickets_csv::column_names(spec);
    let lead = names.len() - cols.len();
    if f.len() != names.len() {
        return Err(format!("has {} fields, expected {}", f.len(), names.len()));
    }
    let num = |i: usize| -> Result<u32, String> {
        f[i].parse()
            .map_err(|_| format!("has {} {:?}, expected a number", names[i], f[i]))
    };
    let mut face = crate::styles::Face::zeroed(cols.len());
    for (i, c) in cols.iter().enumerate() {
        let v = &f[lead + i];
        face.codes[i] = c
            .values
            .iter()
            .position(|x| x == v)
            .and_then(|k| u8::try_from(k).ok())
            .ok_or_else(|| {
                format!(
                    "has {} {v:?}, which is not one of the column's {} values",
                    c.name,
                    c.values.len()
                )
            })?;
    }
    let serial: [u8; crate::block::serial::LEN] = f[4]
        .as_bytes()
        .try_into()
        .map_err(|_| format!("has serial {:?}, expected 20 digits", f[4]))?;
    Ok(print_file::Record {
        ticket: num(3)?,
        pack: num(1)?,
        pack_position: num(2)?,
        serial,
        validation: 0,
        face,
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

/// Whether a proof marks what wins, near misses and decoys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marks {
    /// QA proofs: winning cells and play areas in green, near misses in orange, decoys in
    /// blue, each cell tagged in words, and a note per play area saying why it wins or
    /// loses.
    Shown,
    /// What the ticket prints, with no mark and no note (`render --plain`).
    Hidden,
}

/// Width of every proof, in points: a proof sheet scales it to its page.
pub const PROOF_WIDTH: f64 = 540.0;
const MARGIN: f64 = 16.0;
const CELL_W: f64 = 54.0;
const CELL_H: f64 = 48.0;
const GAP: f64 = 6.0;
const PAD: f64 = 6.0;
const LABEL_H: f64 = 15.0;
/// A lattice's squares (a crossword's grid): their side, the gap between two, the size of
/// their letters and the letters' baseline below a square's top, in points.
const SQUARE: f64 = 24.0;
const SQUARE_GAP: f64 = 3.0;
const SQUARE_LETTER: f64 = 13.0;
const SQUARE_BASELINE: f64 = 17.0;
/// Font size and line spacing of what a panel prints besides its cells (legends, maxima).
const PRINTED_SIZE: f64 = 7.5;
/// The size of the line under a panel's name saying whether it is under the scratch layer.
const SCOPE_SIZE: f64 = 6.5;
/// The height that line takes.
const SCOPE_H: f64 = 9.0;
const PRINTED_LEAD: f64 = 9.5;
/// The widest a panel grows to fit a printed line on one line, in points, unless its cells
/// are wider: a longer line wraps, so that a rule printed with each of ten narrow rows
/// does not make every row as wide as the rule.
const PRINTED_WIDEST: f64 = 180.0;
/// The room left under a panel's printed lines, below their leading, in points.
const PRINTED_FOOT: f64 = 3.0;
/// How far outside a cell the hatch of a covered cell in a panel partly in the open runs:
/// its strokes stay off the cell's words and off its frame.
const RING: f64 = 4.5;
/// The room a panel partly in the open leaves above its cells for their hatch, in points.
fn ring(scope: usize) -> f64 {
    if scope == 2 {
        RING - 1.5
    } else {
        0.0
    }
}
/// How far the box of what a panel under the scratch layer prints in the open rises into
/// the panel's frame: their edges meet, with no gap a proof sheet could cut them apart at.
const OPEN_OVERLAP: f64 = 1.0;
/// Width of one barcode module (the narrow element), in points (Interleaved 2 of 5 at
/// 0.39 mm), and the bars' height.
const MODULE: f64 = 1.1;
/// The wide elements' width in modules: ISO/IEC 16390 allows 2.25 to 3 (at least 2.2 below
/// a 0.5 mm module); the widest reads best once a press or a rasteriser has rounded edges.
pub const WIDE_RATIO: f64 = 3.0;

/// One element of an Interleaved 2 of 5 symbol: a bar or a space, and its width in points.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Element {
    bar: bool,
    width: f64,
}

/// The elements of the Interleaved 2 of 5 symbol of `digits` (an even count), start and stop
/// patterns included, narrow [`MODULE`] wide, wide [`WIDE_RATIO`] modules. The `barcoders`
/// crate gives the pattern as modules; each run of equal modules is one element, narrow
/// when it is one module long, wide otherwise (the crate draws wide elements 3 modules wide
/// in the digits and 2 in the stop pattern: both are wide). `None` for an odd count or a
/// non-digit.
fn itf(digits: &str) -> Option<Vec<Element>> {
    if digits.len() % 2 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let modules = barcoders::sym::tf::TF::interleaved(digits).ok()?.encode();
    let mut out: Vec<Element> = Vec::new();
    let mut run = 0usize;
    for (k, &m) in modules.iter().enumerate() {
        run += 1;
        if modules.get(k + 1) != Some(&m) {
            let wide = if run > 1 { WIDE_RATIO } else { 1.0 };
            out.push(Element {
                bar: m == 1,
                width: wide * MODULE,
            });
            run = 0;
        }
    }
    Some(out)
}
const BAR_H: f64 = 30.0;

/// A drawn cell: what it prints, what is written under it, and its mark.
struct Cell {
    value: String,
    /// A playing card: its rank, its suit's sign and whether the suit is red.
    card: Option<(&'static str, char, bool)>,
    under: Option<String>,
    mark: Option<MarkKind>,
    /// A printed square that is no face column (bingo's FREE centre).
    free: bool,
    /// Printed under the scratch layer ([`crate::styles::Layout::open`] lists the others).
    covered: bool,
}

/// A grid drawn square by square ([`crate::styles::Lattice`]): its size in squares and
/// each square that holds a letter, with the strongest mark of the words through it.
struct Squares {
    rows: usize,
    cols: usize,
    letters: BTreeMap<(usize, usize), (char, Option<MarkKind>)>,
}

impl Squares {
    /// The squares of `grid` as the face prints them: each word's letters (the text of its
    /// face column in `values`) at their squares, a square two words cross once, marked
    /// with the strongest mark `mark_of` gives the columns of the words through it.
    fn of(
        grid: &LatticeGrid,
        values: &[&str],
        mark_of: impl Fn(usize) -> Option<MarkKind>,
    ) -> Squares {
        let mut letters: BTreeMap<(usize, usize), (char, Option<MarkKind>)> = BTreeMap::new();
        for (column, at) in &grid.words {
            let word = values.get(*column).copied().unwrap_or("");
            let mark = mark_of(*column);
            for (&place, letter) in at.iter().zip(word.chars()) {
                let square = letters.entry(place).or_insert((letter, None));
                square.1 = square.1.into_iter().chain(mark).min();
            }
        }
        Squares {
            rows: grid.rows,
            cols: grid.cols,
            letters,
        }
    }

    /// Width of the drawn lattice, in points.
    fn width(&self) -> f64 {
        self.cols as f64 * (SQUARE + SQUARE_GAP) - SQUARE_GAP
    }

    /// Height of the drawn lattice, in points.
    fn height(&self) -> f64 {
        self.rows as f64 * (SQUARE + SQUARE_GAP) - SQUARE_GAP
    }

    /// Draws the lattice with its top left corner at (`x0`, `y0`): every square of the grid,
    /// a letter's in its mark's colours with the letter centred in it, an empty one pale.
    fn draw(&self, c: &mut Canvas, x0: f64, y0: f64, w: &Words) {
        for i in 0..self.rows {
            for j in 0..self.cols {
                let x = x0 + j as f64 * (SQUARE + SQUARE_GAP);
                let y = y0 + i as f64 * (SQUARE + SQUARE_GAP);
                let Some(&(letter, mark)) = self.letters.get(&(i, j)) else {
                    c.rect(x, y, SQUARE, SQUARE, 2.0, Some(Color(238, 238, 238)), None);
                    continue;
                };
                let (fill, stroke) = match mark {
                    Some(MarkKind::Win) => (Color::WIN_FILL, (Color::WIN, 1.8)),
                    Some(k) => (Color::WHITE, (mark_style(k, w).1, 1.6)),
                    None => (Color::WHITE, (Color(120, 120, 120), 0.7)),
                };
                c.rect(x, y, SQUARE, SQUARE, 2.0, Some(fill), Some(stroke));
                c.text_styled(
                    x + SQUARE / 2.0,
                    y + SQUARE_BASELINE,
                    SQUARE_LETTER,
                    Font::Bold,
                    Color::BLACK,
                    Anchor::Middle,
                    letter.to_string(),
                );
            }
        }
    }
}

/// The text of the value of face column `i` (`value`, as files write it): an amount with
/// its currency as the ticket's language prints it (`20 000 €`, `€20,000`), anything else
/// as it is.
fn shown_value(spec: &GameSpec, i: usize, value: &str) -> String {
    match (&spec.game.layout().columns[i].kind, value.parse::<Money>()) {
        (ColumnKind::Amount(_), Ok(m)) => spec.language.amount(m, &spec.currency),
        _ => value.to_string(),
    }
}

/// A playing card's code as the ticket prints it (`Kh` → `K` and ♥, `Td` → `10` and ♦):
/// its rank, its suit's sign and whether the suit is red; `None` for anything else.
fn card(value: &str) -> Option<(&'static str, char, bool)> {
    let mut c = value.chars();
    let (rank, suit) = (c.next()?, c.next()?);
    if c.next().is_some() {
        return None;
    }
    let rank = match rank {
        '2' => "2",
        '3' => "3",
        '4' => "4",
        '5' => "5",
        '6' => "6",
        '7' => "7",
        '8' => "8",
        '9' => "9",
        'T' => "10",
        'J' => "J",
        'Q' => "Q",
        'K' => "K",
        'A' => "A",
        _ => return None,
    };
    let (sign, red) = match suit {
        'c' => ('♣', false),
        'd' => ('♦', true),
        'h' => ('♥', true),
        's' => ('♠', false),
        _ => return None,
    };
    Some((rank, sign, red))
}

/// The words of a mark's tag and its colour.
fn mark_style(k: MarkKind, w: &Words) -> (&'static str, Color) {
    match k {
        MarkKind::Win => (w.tags[0], Color::WIN),
        MarkKind::NearMiss => (w.tags[1], Color::NEAR),
        MarkKind::Decoy => (w.tags[2], Color::DECOY),
    }
}

/// Hatches the frame of the box at (`x`, `y`), `w` × `h` points with corners of radius
/// `r`: short grey strokes at 45° every 5 points along its four edges, just inside them,
/// the mark of what is printed under the scratch layer.
fn hatch(c: &mut Canvas, x: f64, y: f64, w: f64, h: f64, r: f64) {
    const STEP: f64 = 5.0;
    const LEN: f64 = 3.0;
    let ink = Color(150, 150, 150);
    let mut along = x + r;
    while along + LEN <= x + w - r {
        c.line(along, y + 1.0 + LEN, along + LEN, y + 1.0, ink, 0.6);
        c.line(along, y + h - 1.0, along + LEN, y + h - 1.0 - LEN, ink, 0.6);
        along += STEP;
    }
    let mut down = y + r;
    while down + LEN <= y + h - r {
        c.line(x + 1.0, down + LEN, x + 1.0 + LEN, down, ink, 0.6);
        c.line(x + w - 1.0 - LEN, down + LEN, x + w - 1.0, down, ink, 0.6);
        down += STEP;
    }
}

/// Draws `cell` with its top left corner at (`cx`, `cy`): its box in its mark's colours and
/// the mark's tag, its value, and under it its caption or inscription, on one line if that
/// fits at 5.5 pt or more, else on two.
fn draw_cell(c: &mut Canvas, cx: f64, cy: f64, cell: &Cell, w: &Words) {
    let (fill, stroke) = match cell.mark {
        Some(MarkKind::Win) => (Color::WIN_FILL, (Color::WIN, 2.0)),
        Some(k) => (Color::WHITE, (mark_style(k, w).1, 1.6)),
        None if cell.free => (Color(240, 240, 240), (Color(120, 120, 120), 0.7)),
        None => (Color::WHITE, (Color(120, 120, 120), 0.7)),
    };
    c.rect(cx, cy, CELL_W, CELL_H, 4.0, Some(fill), Some(stroke));
    if let Some(k) = cell.mark {
        let (tag, color) = mark_style(k, w);
        c.text_styled(
            cx + CELL_W / 2.0,
            cy + 8.5,
            5.5,
            Font::Bold,
            color,
            Anchor::Middle,
            tag,
        );
    }
    if let Some((rank, sign, red)) = cell.card {
        // A card as the ticket prints it: its rank and its suit's sign, red or black, and
        // its inscription in letters under them, on two lines large enough to read.
        let ink = if red { Color(200, 0, 0) } else { Color::BLACK };
        let (rs, ss) = (15.0, 15.0);
        let w = text_width(rank, Font::Bold, rs)
            + 1.5
            + text_width(&sign.to_string(), Font::Symbol, ss);
        let x0 = cx + (CELL_W - w) / 2.0;
        c.text_styled(x0, cy + 25.0, rs, Font::Bold, ink, Anchor::Start, rank);
        c.text_styled(
            x0 + text_width(rank, Font::Bold, rs) + 1.5,
            cy + 25.0,
            ss,
            Font::Symbol,
            ink,
            Anchor::Start,
            sign.to_string(),
        );
        if let Some(u) = &cell.under {
            // On two lines unless it fits on one at 7 pt, every word kept.
            let lines = one_or_two_lines(u, Font::Bold, [7.0, 7.0, 7.0], CELL_W - 4.0);
            let last = cy + CELL_H - 4.5;
            let n = lines.len();
            for (k, (l, size)) in lines.into_iter().enumerate() {
                c.text_styled(
                    cx + CELL_W / 2.0,
                    last - (n - 1 - k) as f64 * 8.0,
                    size,
                    Font::Bold,
                    Color(60, 60, 60),
                    Anchor::Middle,
                    l,
                );
            }
        }
        return;
    }
    for (y, size, text) in value_lines(&cell.value) {
        c.text_styled(
            cx + CELL_W / 2.0,
            cy + y,
            size,
            Font::Bold,
            Color::BLACK,
            Anchor::Middle,
            text,
        );
    }
    if let Some(u) = &cell.under {
        // On one line if it fits at 5.5 pt or more, else on two, every word kept.
        let lines = one_or_two_lines(u, Font::Regular, [6.5, 5.5, 5.8], CELL_W - 6.0);
        let last = cy + CELL_H - 5.0;
        for (n, (l, size)) in lines.iter().enumerate() {
            let y = last - (lines.len() - 1 - n) as f64 * 6.6;
            c.text_styled(
                cx + CELL_W / 2.0,
                y,
                *size,
                Font::Regular,
                Color::GREY,
                Anchor::Middle,
                l.clone(),
            );
        }
    }
}

/// A cell's value as drawn: each line's baseline below the cell's top, its size and text.
/// On one line at up to 12 pt; a symbol written with a space (`WAGON WHEEL`) that would
/// shrink below 9 pt goes on two lines, broken at the space that best balances them.
fn value_lines(value: &str) -> Vec<(f64, f64, String)> {
    let room = CELL_W - 8.0;
    let one = fit(value, Font::Bold, 12.0, room);
    if one >= 9.0 || !value.contains(' ') {
        return vec![(26.0, one, value.to_string())];
    }
    let (a, b) = halves(value, Font::Bold).expect("a space");
    let size = fit(a, Font::Bold, 10.0, room).min(fit(b, Font::Bold, 10.0, room));
    vec![(21.0, size, a.to_string()), (31.0, size, b.to_string())]
}

/// `text` cut at the space that best balances its two lines in `font` (the widest line the
/// narrowest), every word kept; `None` when it has no space.
fn halves(text: &str, font: Font) -> Option<(&str, &str)> {
    let widest = |(a, b): (&str, &str)| text_width(a, font, 10.0).max(text_width(b, font, 10.0));
    text.match_indices(' ')
        .map(|(i, _)| (&text[..i], &text[i + 1..]))
        .min_by(|x, y| widest(*x).total_cmp(&widest(*y)))
}

/// `text` in `room` points: on one line of at most `size` points when it fits at `least`
/// points or more (or has no space), else on two cut by [`halves`], both at the size the
/// wider fits, at most `two` points. No word is ever left out. Shape: (line, size).
fn one_or_two_lines(
    text: &str,
    font: Font,
    [size, least, two]: [f64; 3],
    room: f64,
) -> Vec<(String, f64)> {
    let one = fit(text, font, size, room);
    match halves(text, font) {
        Some((a, b)) if one < least => {
            let size = fit(a, font, two, room).min(fit(b, font, two, room));
            vec![(a.to_string(), size), (b.to_string(), size)]
        }
        _ => vec![(text.to_string(), one)],
    }
}

/// The marks' legend, one line a mark of `kinds`, its first line's top at `y` and its
/// boxes at `lx`.
fn draw_legend(c: &mut Canvas, lx: f64, y: f64, kinds: &[MarkKind], w: &Words) {
    for (n, &k) in kinds.iter().enumerate() {
        let legend_y = y + 9.0 + n as f64 * 12.0;
        let (tag, color) = mark_style(k, w);
        c.rect(
            lx,
            legend_y - 7.0,
            9.0,
            9.0,
            2.0,
            Some(if k == MarkKind::Win {
                Color::WIN_FILL
            } else {
                Color::WHITE
            }),
            Some((color, 1.4)),
        );
        let words = match k {
            MarkKind::Win => w.key[0],
            MarkKind::NearMiss => w.key[1],
            MarkKind::Decoy => w.key[2],
        };
        let text = format!("{tag}{}{words}", w.colon);
        c.text_styled(
            lx + 13.0,
            legend_y,
            7.5,
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            text.clone(),
        );
    }
}

/// Where the wins of each play area of a face show, as a player reads them: `Some(a)` when
/// the panel named after play area `a` (a compare row, a surface of one area) shows a
/// symbol `marks` marks as the area's win, or, failing that, when it is the one such panel
/// showing an amount so marked (the box a special symbol among shared cells pays); `None`
/// otherwise (the area's own cells, or an area that does not win). A special symbol wins
/// in a play area of its own, after the surface's own play areas (`styles::special`), yet
/// a player sees the row or surface it stands on, or whose box it pays, win by it.
fn seen_in(layout: &Layout, ev: &Evaluation, marks: &[Mark]) -> Vec<Option<u8>> {
    let own = own_panels(layout);
    (0..layout.areas.len())
        .map(|s| {
            let area = s as u8;
            if !ev.wins.iter().any(|w| w.area == area) {
                return None;
            }
            // The other play areas whose panel shows a cell marked as this area's win,
            // among its symbols (`false`) or its amounts (`true`).
            let holding = |amounts: bool| -> BTreeSet<usize> {
                marks
                    .iter()
                    .filter(|k| k.area == area && k.kind == MarkKind::Win)
                    .filter(|k| {
                        matches!(layout.columns[k.column].kind, ColumnKind::Amount(_)) == amounts
                    })
                    .filter_map(|k| {
                        (0..own.len()).find(|&a| {
                            a != s && own[a].is_some_and(|p| in_panel(&layout.panels[p], k.column))
                        })
                    })
                    .collect()
            };
            let by_symbol = holding(false);
            let by_amount = holding(true);
            match (by_symbol.first(), by_amount.len()) {
                (Some(&a), _) => Some(a as u8),
                (None, 1) => by_amount.first().map(|&a| a as u8),
                _ => None,
            }
        })
        .collect()
}

/// The panel named after each play area (index into [`Layout::panels`]), if there is one.
fn own_panels(layout: &Layout) -> Vec<Option<usize>> {
    layout
        .areas
        .iter()
        .map(|name| layout.panels.iter().position(|p| &p.id == name))
        .collect()
}

/// Whether `panel` shows face column `column`.
fn in_panel(panel: &Panel, column: usize) -> bool {
    panel.rows.iter().flatten().any(|&c| c == column)
}

/// Whether the panel named after play area `area` shows a cell `marks` marks as the win of
/// another play area: a special symbol standing on it, or an amount a win-all adds up.
fn shows_another_win(layout: &Layout, marks: &[Mark], area: u8) -> bool {
    own_panels(layout)
        .get(usize::from(area))
        .copied()
        .flatten()
        .is_some_and(|p| {
            marks.iter().any(|k| {
                k.area != area && k.kind == MarkKind::Win && in_panel(&layout.panels[p], k.column)
            })
        })
}

/// A note per play area of a face judged `ev`, in words and in its mark's colour, the area
/// named by its printed name in quotes (« Vos numéros » gagne): what it wins (the sum of
/// its wins, the combination as its style names it, the cells `marks` marks as the win), each
/// near miss or decoy it shows once (each cell once), or that nothing it shows wins; then, for a
/// losing ticket, that it loses. A win a player sees on another play area's panel (a
/// special symbol's: [`seen_in`]) is told with that area, by the special's name; an area
/// whose panel shows another's win is not said to lose, nor a special symbol's area on a
/// face that does not show its symbol (it shows nothing there). `values` is the text of
/// every face column, `named` what a note calls each cell: as the ticket prints it, a card
/// by its inscription in letters (`ROI DE COEUR`), never by its code (`Kh`).
fn notes(
    spec: &GameSpec,
    ev: &Evaluation,
    marks: &[Mark],
    values: &[&str],
    named: &[String],
) -> Vec<(Color, String)> {
    let m = &spec.game;
    let cols = &m.layout().columns;
    let areas = &m.layout().areas;
    let mut notes: Vec<(Color, String)> = Vec::new();
    let w = Words::of(spec.language);
    // What the offered features show, in words; another (one the spec gives a rate of 0)
    // is told by its name.
    let features = m.features();
    let about = |id: FeatureId| {
        features
            .iter()
            .find(|f| f.0 == id)
            .map_or(m.feature_name(id).replace('_', " "), |f| {
                f.1.about_in(spec.language).to_string()
            })
    };
    // The panel of each face column.
    let panel_of: BTreeMap<usize, usize> = m
        .layout()
        .panels
        .iter()
        .enumerate()
        .flat_map(|(n, p)| p.rows.iter().flatten().map(move |&c| (c, n)))
        .collect();
    // Each marked cell once, in face order, however many times it is marked; a value
    // another panel already showed (a number on the card and among the drawn ones) once.
    let cells_of = |area: u8, kind: MarkKind| -> String {
        let cells: BTreeSet<usize> = marks
            .iter()
            .filter(|k| k.area == area && k.kind == kind)
            .filter(|k| !matches!(cols[k.column].kind, ColumnKind::Amount(_)))
            .map(|k| k.column)
            .collect();
        let mut seen: Vec<(&str, Option<usize>)> = Vec::new();
        let mut v: Vec<&str> = Vec::new();
        for c in cells {
            let (value, panel) = (values[c], panel_of.get(&c).copied());
            if seen.iter().any(|&(s, p)| s == value && p != panel) {
                continue;
            }
            seen.push((value, panel));
            v.push(&named[c]);
        }
        crate::language::join_symbols(&v)
    };
    // The wins of play area `area`, under `label`, by the special named `by` when there is
    // one: the sum, its parts, the combination, the cells.
    let win_note = |area: u8, label: &str, by: Option<&str>| -> Option<String> {
        let wins: Vec<Money> = ev
            .wins
            .iter()
            .filter(|w| w.area == area)
            .map(|w| w.amount)
            .collect();
        if wins.is_empty() {
            return None;
        }
        let total = Money(wins.iter().map(|w| w.cents()).sum());
        // A win that is a prize not money is named by its item, as the face prints it.
        let won = match (wins.as_slice(), spec.item(total)) {
            ([_], Some(item)) => item.to_string(),
            _ => spec.language.amount(total, &spec.currency),
        };
        let mut s = format!("{} {} {won}", w.quoted(label), w.wins);
        if wins.len() > 1 {
            let parts: Vec<String> = wins
                .iter()
                .map(|&m| spec.language.amount(m, &spec.currency))
                .collect();
            let _ = write!(s, " ({})", parts.join(" + "));
        }
        if let Some(by) = by {
            let _ = write!(s, " {} {}", w.with, w.quoted(by));
        }
        if let Some(f) = ev.feature(area) {
            let called = m.layout().features.called(f, spec.language);
            let name = called.map_or_else(|| m.feature_name(f).replace('_', " "), str::to_string);
            let _ = write!(s, " {} {name}", w.with);
        }
        let shown = cells_of(area, MarkKind::Win);
        if !shown.is_empty() {
            let _ = write!(s, "{}{shown}", w.colon);
        }
        Some(s)
    };
    let seen = seen_in(m.layout(), ev, marks);
    for (a, name) in areas.iter().enumerate() {
        let area = a as u8;
        let label = spec.label(name);
        if seen[a].is_none() {
            notes.extend(win_note(area, label, None).map(|s| (Color::WIN, s)));
        }
        for (s, special) in areas.iter().enumerate() {
            if seen[s] == Some(area) {
                let by = spec.label(special);
                notes.extend(win_note(s as u8, label, Some(by)).map(|s| (Color::WIN, s)));
            }
        }
        // Each near miss or decoy once, however many times the area shows it.
        let mut told: Vec<FeatureId> = Vec::new();
        for f in ev.losing_features.iter().filter(|f| f.area == area) {
            if told.contains(&f.id) {
                continue;
            }
            told.push(f.id);
            let decoy = features
                .iter()
                .any(|&(id, i)| id == f.id && i.kind == FeatureKind::Decoy);
            let (kind, words) = if decoy {
                (MarkKind::Decoy, w.decoy)
            } else {
                (MarkKind::NearMiss, w.near_miss)
            };
            let shown = cells_of(area, kind);
            // The feature's words name the area first (« Jeu 1 » perd avec …, jeu1 loses
            // with …): the note names it once, before them.
            let told_of = about(f.id);
            let quoted = w.quoted(label);
            let rest = [quoted.as_str(), name.as_str()]
                .iter()
                .find_map(|p| told_of.strip_prefix(p)?.strip_prefix(' '))
                .unwrap_or(&told_of);
            let mut s = format!("{quoted}, {words}{}{rest}", w.colon);
            if !shown.is_empty() {
                let _ = write!(s, " ({shown})");
            }
            notes.push((mark_style(kind, w).1, s));
        }
        let wins = ev.wins.iter().any(|w| w.area == area);
        // A special's area shows its symbol, or nothing at all.
        let absent = m.layout().specials.iter().any(|(a, symbol)| {
            a == name
                && !cols
                    .iter()
                    .zip(values)
                    .any(|(c, v)| !matches!(c.kind, ColumnKind::Caption { .. }) && v == symbol)
        });
        if !wins && told.is_empty() && !absent && !shows_another_win(m.layout(), marks, area) {
            notes.push((Color::GREY, format!("{} {}", w.quoted(label), w.area_loses)));
        }
    }
    if ev.wins.is_empty() {
        notes.push((Color::GREY, w.ticket_loses.into()));
    }
    notes
}

/// `rows`, a panel's cells, with each free square (bingo's FREE) marked as a win when the
/// panel is a square grid and a whole row, column or diagonal through it is won: every
/// other cell of that line is marked as a win or free. A free square counts as matched by
/// the rules (`styles::match_count`), so the winning line the proof shows runs through
/// it. Other panels, and free squares on no won line, are returned as they are.
fn mark_free_squares(mut rows: Vec<Vec<Cell>>) -> Vec<Vec<Cell>> {
    let n = rows.len();
    if !rows.iter().flatten().any(|c| c.free) || rows.iter().any(|r| r.len() != n) {
        return rows;
    }
    let won = |c: &Cell| c.free || c.mark == Some(MarkKind::Win);
    let lines = |r: usize, c: usize| {
        let mut out: Vec<Vec<(usize, usize)>> = vec![
            (0..n).map(|j| (r, j)).collect(),
            (0..n).map(|i| (i, c)).collect(),
        ];
        if r == c {
            out.push((0..n).map(|i| (i, i)).collect());
        }
        if r + c == n - 1 {
            out.push((0..n).map(|i| (i, n - 1 - i)).collect());
        }
        out
    };
    let mut marked = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let on_won_line = rows[r][c].free
                && lines(r, c).iter().any(|line| {
                    line.iter().all(|&(i, j)| won(&rows[i][j]))
                        && line.iter().any(|&(i, j)| !rows[i][j].free)
                });
            if on_won_line {
                marked.push((r, c));
            }
        }
    }
    for (r, c) in marked {
        rows[r][c].mark = Some(MarkKind::Win);
    }
    rows
}

/// `rows` folded so that no row is longer than `per_row` cells: when one is, every row is
/// cut at the same columns into pieces of equal length (the last may be shorter), stacked
/// column range by column range, so that each cell stays under the cell of the row above
/// it (a spot's amount under its symbol). Rows that fit are returned as they are.
fn fold_rows<T>(rows: Vec<Vec<T>>, per_row: usize) -> Vec<Vec<T>> {
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
    if widest <= per_row {
        return rows;
    }
    let pieces = widest.div_ceil(per_row.max(1));
    let per = widest.div_ceil(pieces);
    let mut rows: Vec<_> = rows.into_iter().map(Vec::into_iter).collect();
    let mut out = Vec::new();
    for _ in 0..pieces {
        for r in &mut rows {
            let piece: Vec<T> = r.by_ref().take(per).collect();
            if !piece.is_empty() {
                out.push(piece);
            }
        }
    }
    out
}

/// How a proof names the prize of a way paying `amount` cents, winning (`wins`, a way of a
/// tier) or not: a prize that is not money by its item at its stated value (`FREE TICKET
/// (stated value $2)`), any other as the ticket prints the amount (`$2`, a loser's `$0`).
pub(crate) fn prize_words(spec: &GameSpec, amount: Money, wins: bool) -> String {
    let shown = spec.language.amount(amount, &spec.currency);
    match spec.item(amount).filter(|_| wins) {
        Some(item) => format!("{item} ({} {shown})", Words::of(spec.language).stated),
        None => shown,
    }
}

/// The proof of ticket `t` of `spec` (as [`load`] gives it: its face codes index the spec's
/// columns, its way is a way of the spec), [`PROOF_WIDTH`] points wide, drawn from the
/// game's panels ([`crate::styles::Layout::panels`]) under their printed names (the
/// spec's `[labels]`): a header with the game, block, pack, position, ticket and serial, and
/// the prize and way the rules give; every panel saying under its name whether it is
/// printed under the scratch layer (its frame hatched) or in the open
/// ([`crate::styles::Layout::open`]; a panel partly in the open hatches its covered
/// cells), with its cells (a crossword's grid number captioned as such) (a panel with a lattice,
/// [`crate::styles::Layout::lattices`], draws its words on the squares of the face's grid,
/// each square marked as the strongest mark of the words through it), amounts with their caption,
/// cards with their inscription, a free square (FREE, LIBRE) where the panel has one, and under them what
/// the ticket prints with the panel ([`crate::styles::Layout::printed`]: legends, fixed
/// winning symbols, the surface's maximum); with `marks` shown, the cells of each win, near miss and
/// decoy ([`crate::styles::game::Game::marks`]), a note per play area and a key naming only
/// the marks the proof shows; the serial's
/// Interleaved 2 of 5 barcode. `stamp` says whether to mark it SPECIMEN or TEST BLOCK.
/// Errors: a face code or way outside the spec, or a serial that is not an even count of
/// digits.
pub fn ticket_canvas(
    spec: &GameSpec,
    stamp: Stamp,
    t: &Ticket,
    marks: Marks,
) -> Result<Canvas, RenderError> {
    let m = &spec.game;
    let w = Words::of(spec.language);
    let cols = &m.layout().columns;
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
    let bars = itf(serial).ok_or_else(|| {
        bad("the serial is not a barcode payload (an even count of digits)".into())
    })?;
    let bars_w: f64 = bars.iter().map(|e| e.width).sum();
    let ev = m.evaluate(&t.face);
    let all_marks = match marks {
        Marks::Shown => m.marks(&t.face, &ev),
        Marks::Hidden => Vec::new(),
    };
    // The strongest mark of each column: a win over a near miss over a decoy.
    let mark_of = |i: usize| {
        all_marks
            .iter()
            .filter(|k| k.column == i)
            .map(|k| k.kind)
            .min()
    };
    // What the ticket prints under cell `i`: its caption, or its symbol's inscription.
    let caption = |i: usize| {
        cols.iter()
            .enumerate()
            .find_map(|(j, d)| match d.kind {
                ColumnKind::Caption { of } if of == i => Some(values[j].to_string()),
                _ => None,
            })
            .or_else(|| {
                m.layout()
                    .inscription(i, t.face.codes[i])
                    .map(str::to_string)
            })
    };
    // What a note calls each cell: a card by its inscription, anything else as it prints.
    let named: Vec<String> = (0..cols.len())
        .map(|i| match caption(i) {
            Some(under) if card(values[i]).is_some() => under,
            _ => values[i].to_string(),
        })
        .collect();
    let cell = |i: usize| {
        let under = caption(i);
        // A crossword's grid number says what it is.
        let under = under.or_else(|| {
            m.layout()
                .lattices
                .iter()
                .any(|l| l.grid == i)
                .then(|| w.grid_number.to_string())
        });
        Cell {
            value: shown_value(spec, i, values[i]),
            card: under.as_ref().and_then(|_| card(values[i])),
            under,
            mark: mark_of(i),
            free: false,
            covered: !m.layout().open.contains(&i),
        }
    };
    let free = || Cell {
        value: w.free.into(),
        card: None,
        under: None,
        mark: None,
        free: true,
        covered: true,
    };
    // What the ticket prints with each panel besides its cells.
    let printed = &m.layout().printed;
    let printed_of = |id: &str| -> Vec<String> {
        printed
            .iter()
            .filter(|p| p.panel == id)
            .flat_map(|p| {
                p.lines
                    .iter()
                    .map(|l| spec.language.line(l, &spec.currency))
            })
            .collect()
    };
    let areas = &m.layout().areas;
    // A play area's panel wins when the area wins, or when it shows another area's win (a
    // special symbol standing on it).
    let area_wins = |id: &str| {
        areas.iter().position(|a| a == id).is_some_and(|a| {
            ev.wins.iter().any(|w| usize::from(w.area) == a)
                || shows_another_win(m.layout(), &all_marks, a as u8)
        })
    };

    // Panels flow left to right, wrapping at the proof's width.
    struct Placed {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        label: String,
        wins: bool,
        rows: Vec<Vec<Cell>>,
        /// The panel's words drawn as a grid, under its rows.
        squares: Option<Squares>,
        printed: Vec<String>,
        /// Under the scratch layer, in the open, or both: an index into [`Words::scope`].
        scope: usize,
        /// The height of the panel's frame: all of `h`, or, for a panel under the scratch
        /// layer that prints lines, the frame above the box of those lines in the open.
        frame_h: f64,
    }
    let mut placed: Vec<Placed> = Vec::new();
    // Under the header, and the verdict when there is one: a plain proof closes up.
    let top = match marks {
        Marks::Shown => 64.0,
        Marks::Hidden => 50.0,
    };
    let (mut x, mut y, mut line_h) = (MARGIN, top, 0.0f64);
    let room = PROOF_WIDTH - 2.0 * MARGIN - 2.0 * PAD;
    let per_row = (((room + GAP) / (CELL_W + GAP)).floor() as usize).max(1);
    for p in &m.layout().panels {
        // A panel with a lattice draws its words there, not as cells.
        let grid = m
            .layout()
            .lattices
            .iter()
            .find(|l| l.panel == p.id)
            .and_then(|l| l.grids.get(usize::from(t.face.codes[l.grid])));
        let squares = grid.map(|g| Squares::of(g, &values, mark_of));
        let on_lattice = |i: usize| grid.is_some_and(|g| g.words.iter().any(|w| w.0 == i));
        let rows: Vec<Vec<Cell>> = p
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .filter(|&&i| !on_lattice(i))
                    .map(|&i| if i == FREE_CELL { free() } else { cell(i) })
                    .collect::<Vec<Cell>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        let rows = fold_rows(mark_free_squares(rows), per_row);
        let label = spec.label(&p.id).to_string();
        let widest = rows.iter().map(Vec::len).max().unwrap_or(1) as f64;
        let cells_w = (widest * CELL_W + (widest - 1.0) * GAP)
            .max(squares.as_ref().map_or(0.0, Squares::width));
        let label_w = text_width(&label, Font::Bold, 10.0) * 1.1;
        let columns: Vec<usize> = p
            .rows
            .iter()
            .flatten()
            .copied()
            .filter(|&i| i != FREE_CELL)
            .collect();
        let open = columns
            .iter()
            .filter(|i| m.layout().open.contains(i))
            .count();
        let scope = match open {
            0 => 0,
            n if n == columns.len() => 1,
            _ => 2,
        };
        let scope_w = text_width(w.scope[scope], Font::Regular, SCOPE_SIZE) * 1.1;
        let own = printed_of(&p.id);
        let printed_w = own
            .iter()
            .map(|l| text_width(l, Font::Regular, PRINTED_SIZE) * 1.1)
            .fold(0.0, f64::max)
            .min(cells_w.max(label_w).max(PRINTED_WIDEST));
        let w = (cells_w.max(label_w).max(printed_w).max(scope_w) + 2.0 * PAD)
            .min(PROOF_WIDTH - 2.0 * MARGIN);
        let printed: Vec<String> = own
            .iter()
            .flat_map(|l| wrap(l, Font::Regular, PRINTED_SIZE, w - 2.0 * PAD))
            .collect();
        let cells_h = PAD
            + LABEL_H
            + SCOPE_H
            + ring(scope)
            + rows.len() as f64 * (CELL_H + GAP)
            + squares.as_ref().map_or(0.0, |s| s.height() + GAP)
            - GAP
            + PAD;
        // The lines' last descenders clear of the edge under them.
        let lines_h = match printed.len() {
            0 => 0.0,
            n => n as f64 * PRINTED_LEAD + PRINTED_FOOT,
        };
        // What a panel under the scratch layer prints in the open goes in a box of its own
        // under the hatched frame, never over the hatch.
        let (frame_h, h) = if scope == 0 && !printed.is_empty() {
            (
                cells_h,
                cells_h - OPEN_OVERLAP + PAD / 2.0 + SCOPE_H + lines_h,
            )
        } else {
            (cells_h + lines_h, cells_h + lines_h)
        };
        if x > MARGIN && x + w > PROOF_WIDTH - MARGIN {
            x = MARGIN;
            y += line_h + GAP;
            line_h = 0.0;
        }
        placed.push(Placed {
            x,
            y,
            w,
            h,
            label,
            wins: marks == Marks::Shown && area_wins(&p.id),
            rows,
            squares,
            printed,
            scope,
            frame_h,
        });
        x += w + GAP * 1.5;
        line_h = line_h.max(h);
    }
    let panels_end = y + line_h;

    // The notes: each play area's win, near miss or decoy, in words.
    let notes = match marks {
        Marks::Shown => notes(spec, &ev, &all_marks, &values, &named),
        Marks::Hidden => Vec::new(),
    };

    // Each note wrapped to the proof's width, one colour a note.
    let notes: Vec<(Color, String)> = notes
        .into_iter()
        .flat_map(|(color, n)| {
            wrap(&n, Font::Regular, 8.5, PROOF_WIDTH - 2.0 * MARGIN)
                .into_iter()
                .map(move |l| (color, l))
        })
        .collect();
    let notes_y = panels_end + 15.0;
    let bar_y = notes_y + notes.len() as f64 * 11.5 - 4.0;
    let height = bar_y + BAR_H + 20.0;
    let mut c = Canvas::new(PROOF_WIDTH, height);
    // A card and the numbers drawn for it (panels `{id}` and `{id}_drawn`) stay on one page
    // when a tall face is cut across.
    let panels = &m.layout().panels;
    for (i, p) in panels.iter().enumerate() {
        let Some(card) = p.id.strip_suffix("_drawn") else {
            continue;
        };
        if let Some(j) = panels.iter().position(|q| q.id == card) {
            let (a, b) = (&placed[i], &placed[j]);
            c.keep_together(a.y.min(b.y), (a.y + a.h).max(b.y + b.h));
        }
    }
    c.rect(
        0.5,
        0.5,
        PROOF_WIDTH - 1.0,
        height - 1.0,
        8.0,
        Some(Color(255, 253, 245)),
        Some((Color(60, 60, 60), 1.0)),
    );
    let mark = stamp.mark(w);
    let title_room =
        PROOF_WIDTH - 2.0 * MARGIN - mark.map_or(0.0, |m| text_width(m, Font::Bold, 18.0) + 12.0);
    c.text(
        MARGIN,
        24.0,
        fit(&spec.name, Font::Bold, 15.0, title_room),
        Font::Bold,
        spec.name.clone(),
    );
    if let Some(mark) = mark {
        c.text_styled(
            PROOF_WIDTH - MARGIN,
            25.0,
            18.0,
            Font::Bold,
            Color::RED,
            Anchor::End,
            mark,
        );
    }
    let p = w.place;
    let line = format!(
        "{} {} · {} {} · {} {} · {} {} · {} {serial}",
        p[0], t.block, p[1], t.pack, p[2], t.pack_position, p[3], t.ticket, p[4]
    );
    c.text(
        MARGIN,
        39.0,
        fit(&line, Font::Regular, 9.0, PROOF_WIDTH - 2.0 * MARGIN),
        Font::Regular,
        line,
    );
    if marks == Marks::Shown {
        let prize = prize_words(spec, t.prize, way.tier.is_some());
        let verdict = match way.tier {
            Some(_) => format!("{} {prize} · {} {}", w.verdict.0, w.verdict.1, way.id),
            None => format!("{} {prize} · {}", w.verdict.0, w.losing),
        };
        c.text(MARGIN, 52.0, 9.5, Font::Bold, verdict);
    }
    for p in &placed {
        let (edge, lw) = if p.wins {
            (Color::WIN, 1.8)
        } else {
            (Color(150, 150, 150), 0.8)
        };
        c.rect(
            p.x,
            p.y,
            p.w,
            p.frame_h,
            6.0,
            Some(Color::WHITE),
            Some((edge, lw)),
        );
        if p.scope == 0 {
            hatch(&mut c, p.x, p.y, p.w, p.frame_h, 6.0);
        }
        let size = fit(&p.label, Font::Bold, 10.0, p.w - 2.0 * PAD);
        c.text_styled(
            p.x + PAD,
            p.y + PAD + 10.0,
            size,
            Font::Bold,
            if p.wins { Color::WIN } else { Color::BLACK },
            Anchor::Start,
            p.label.clone(),
        );
        let scope = w.scope[p.scope];
        c.text_styled(
            p.x + PAD,
            p.y + PAD + LABEL_H + SCOPE_SIZE - 2.0,
            fit(scope, Font::Regular, SCOPE_SIZE, p.w - 2.0 * PAD),
            Font::Regular,
            Color::GREY,
            Anchor::Start,
            scope,
        );
        let top = p.y + PAD + LABEL_H + SCOPE_H + ring(p.scope);
        for (r, row) in p.rows.iter().enumerate() {
            let row_w = row.len() as f64 * CELL_W + (row.len() as f64 - 1.0) * GAP;
            let x0 = p.x + (p.w - row_w) / 2.0;
            let cy = top + r as f64 * (CELL_H + GAP);
            for (k, cell) in row.iter().enumerate() {
                let cx = x0 + k as f64 * (CELL_W + GAP);
                draw_cell(&mut c, cx, cy, cell, w);
                // In a panel partly in the open, each cell under the scratch layer, its
                // hatch around it, clear of its words.
                if p.scope == 2 && cell.covered {
                    let (x, y) = (cx - RING, cy - RING);
                    hatch(&mut c, x, y, CELL_W + 2.0 * RING, CELL_H + 2.0 * RING, 6.0);
                }
            }
        }
        let mut below = top + p.rows.len() as f64 * (CELL_H + GAP);
        if let Some(sq) = &p.squares {
            sq.draw(&mut c, p.x + (p.w - sq.width()) / 2.0, below, w);
            below += sq.height() + GAP;
        }
        if p.frame_h < p.h {
            // The box of what the ticket prints in the open, its top edge on the frame's
            // bottom one (so that a proof sheet never cuts them apart), named as such.
            let top = p.y + p.frame_h - OPEN_OVERLAP;
            c.rect(
                p.x,
                top,
                p.w,
                p.h - p.frame_h + OPEN_OVERLAP,
                6.0,
                Some(Color::WHITE),
                Some((Color(150, 150, 150), 0.8)),
            );
            let open = w.scope[1];
            c.text_styled(
                p.x + PAD,
                top + PAD / 2.0 + SCOPE_SIZE,
                fit(open, Font::Regular, SCOPE_SIZE, p.w - 2.0 * PAD),
                Font::Regular,
                Color::GREY,
                Anchor::Start,
                open,
            );
            below = top + PAD / 2.0 + SCOPE_H;
        }
        for (k, l) in p.printed.iter().enumerate() {
            c.text_styled(
                p.x + PAD,
                below + PRINTED_SIZE + k as f64 * PRINTED_LEAD,
                PRINTED_SIZE,
                Font::Regular,
                Color::BLACK,
                Anchor::Start,
                l.clone(),
            );
        }
    }
    for (k, (color, note)) in notes.iter().enumerate() {
        let size = 8.5;
        c.text_styled(
            MARGIN,
            notes_y + k as f64 * 11.5,
            size,
            Font::Regular,
            *color,
            Anchor::Start,
            note.clone(),
        );
    }
    // The key names only the marks this proof shows.
    let kinds: Vec<MarkKind> = [MarkKind::Win, MarkKind::NearMiss, MarkKind::Decoy]
        .into_iter()
        .filter(|&kind| all_marks.iter().any(|k| k.kind == kind))
        .collect();
    draw_legend(&mut c, MARGIN + bars_w + 24.0, bar_y, &kinds, w);
    // Interleaved 2 of 5 barcode of the serial, with the serial in figures under it.
    // Each bar one rectangle, its width the element's (narrow or wide).
    let mut x = MARGIN;
    for e in &bars {
        if e.bar {
            c.rect(x, bar_y, e.width, BAR_H, 0.0, Some(Color::BLACK), None);
        }
        x += e.width;
    }
    c.text(
        MARGIN,
        bar_y + BAR_H + 11.0,
        9.0,
        Font::Mono,
        serial.to_string(),
    );
    Ok(c)
}

/// The SVG proof of ticket `t`: [`ticket_canvas`] written as SVG. Errors: its.
pub fn ticket_svg(
    spec: &GameSpec,
    stamp: Stamp,
    t: &Ticket,
    marks: Marks,
) -> Result<String, RenderError> {
    Ok(svg::to_svg(&ticket_canvas(spec, stamp, t, marks)?))
}

/// What a proof is stamped with at its top right, in red: nothing on a production block's,
/// SPECIMEN on a QA deck's, TEST BLOCK on a block made with a test seed (never sold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stamp {
    /// A production block: no stamp.
    Production,
    /// A QA deck: SPECIMEN.
    Specimen,
    /// A production block made with a test seed: TEST BLOCK.
    Test,
}

impl Stamp {
    /// The stamp of the block manifest `m` describes.
    pub fn of(m: &Manifest) -> Stamp {
        match m.kind {
            Kind::Specimen => Stamp::Specimen,
            Kind::Production if m.is_test_block() => Stamp::Test,
            Kind::Production => Stamp::Production,
        }
    }

    /// The stamp's words in `w`'s language; `None` for a production block.
    pub(crate) fn mark(self, w: &Words) -> Option<&'static str> {
        match self {
            Stamp::Production => None,
            Stamp::Specimen => Some(w.specimen),
            Stamp::Test => Some(w.test),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5×5 card with a free centre, `win` its cells marked as a win (row, column).
    fn free_centre_card(win: &[(usize, usize)]) -> Vec<Vec<Cell>> {
        (0..5)
            .map(|r| {
                (0..5)
                    .map(|c| Cell {
                        value: if (r, c) == (2, 2) { "FREE" } else { "7" }.into(),
                        card: None,
                        under: None,
                        mark: win.contains(&(r, c)).then_some(MarkKind::Win),
                        free: (r, c) == (2, 2),
                        covered: true,
                    })
                    .collect()
            })
            .collect()
    }

    fn centre_mark(win: &[(usize, usize)]) -> Option<MarkKind> {
        mark_free_squares(free_centre_card(win))[2][2].mark
    }

    #[test]
    fn a_free_square_on_a_won_line_is_marked_as_the_win() {
        let row: Vec<_> = [0, 1, 3, 4].map(|c| (2, c)).to_vec();
        let column: Vec<_> = [0, 1, 3, 4].map(|r| (r, 2)).to_vec();
        let diagonal: Vec<_> = [0, 1, 3, 4].map(|i| (i, i)).to_vec();
        let anti: Vec<_> = [0, 1, 3, 4].map(|i| (i, 4 - i)).to_vec();
        for line in [&row, &column, &diagonal, &anti] {
            assert_eq!(centre_mark(line), Some(MarkKind::Win), "{line:?}");
        }
        // A line one cell short, a won line off the centre, the four corners: unmarked.
        assert_eq!(centre_mark(&row[..3]), None);
        assert_eq!(centre_mark(&[0, 1, 2, 3, 4].map(|c| (0, c))), None);
        assert_eq!(centre_mark(&[(0, 0), (0, 4), (4, 0), (4, 4)]), None);
        // The cells of the line keep their marks; no other cell is marked.
        let marked = mark_free_squares(free_centre_card(&diagonal));
        let count = marked.iter().flatten().filter(|c| c.mark.is_some()).count();
        assert_eq!(count, 5);
        // A panel that is not a square grid is left as it is.
        let mut strip = free_centre_card(&row);
        strip.truncate(3);
        assert_eq!(mark_free_squares(strip)[2][2].mark, None);
    }

    #[test]
    fn a_long_symbol_with_spaces_goes_on_two_balanced_lines() {
        assert_eq!(value_lines("COQ"), [(26.0, 12.0, "COQ".to_string())]);
        // Without a space a long symbol only shrinks.
        let one = value_lines("AS_DE_PIQUE");
        assert_eq!(one.len(), 1);
        assert!(one[0].1 < 9.0, "{one:?}");
        let two = value_lines("BIG WAGON WHEEL");
        let texts: Vec<&str> = two.iter().map(|l| l.2.as_str()).collect();
        assert_eq!(texts, ["BIG WAGON", "WHEEL"]);
        assert_eq!((two[0].0, two[1].0), (21.0, 31.0));
        assert_eq!(two[0].1, two[1].1);
    }

    /// A caption too long for one line goes on two with every word: vingt_et_un's
    /// « DEUX CENT CINQUANTE EUROS » lost its last word when wrapped into three lines of
    /// which two were drawn.
    #[test]
    fn a_long_caption_keeps_every_word_on_two_lines() {
        let room = CELL_W - 6.0;
        let caption = "DEUX CENT CINQUANTE EUROS";
        let lines = one_or_two_lines(caption, Font::Regular, [6.5, 5.5, 5.8], room);
        let texts: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(texts, ["DEUX CENT", "CINQUANTE EUROS"]);
        assert_eq!(lines[0].1, lines[1].1);
        assert!(lines[0].1 <= 5.8);
        for (text, size) in &lines {
            assert!(
                text_width(text, Font::Regular, *size) <= room,
                "{text} at {size}"
            );
        }
        // A short one stays on one line at its size.
        let one = one_or_two_lines("DIX EUROS", Font::Regular, [6.5, 5.5, 5.8], room);
        assert_eq!(one, [("DIX EUROS".to_string(), 6.5)]);
    }

    #[test]
    fn wanted_lines_are_taken_across_chunk_boundaries() {
        let text = b"h,e\na,1\nbb,22\n\nccc,333\ndd,4";
        for size in 1..=text.len() {
            let mut l = Lines::new(9);
            let mut want = |n: u64| [0, 2, 3, 4, 5, 9].contains(&n);
            // Whole lines only; one dropped once read.
            let mut keep = |n: u64, line: &[u8]| n != 4 || line != b"ccc,333";
            for c in text.chunks(size) {
                l.feed(c, &mut want, &mut keep);
            }
            l.finish(&mut keep);
            let got: Vec<(u64, &[u8])> = l.got.iter().map(|(k, v)| (*k, v.as_slice())).collect();
            assert_eq!(
                got,
                vec![
                    (0, b"h,e".as_slice()),
                    (2, b"bb,22".as_slice()),
                    (3, b"".as_slice()),
                    (5, b"dd,4".as_slice())
                ],
                "chunks of {size}"
            );
        }
    }

    #[test]
    fn long_rows_fold_with_each_cell_under_its_own() {
        let row = |a: u32, n: u32| (a..a + n).collect::<Vec<u32>>();
        // Ten spots over ten amounts, 8 to a row: two pieces of 5, amounts under symbols.
        assert_eq!(
            fold_rows(vec![row(0, 10), row(10, 10)], 8),
            vec![row(0, 5), row(10, 5), row(5, 5), row(15, 5)]
        );
        // A row of 9 and a shorter one: pieces of 5 and 4; the short row's tail is left out
        // where it has no cells.
        assert_eq!(
            fold_rows(vec![row(0, 9), row(20, 3)], 8),
            vec![row(0, 5), row(20, 3), row(5, 4)]
        );
        // Rows that fit are kept as they are (a 5 × 5 bingo card).
        let card: Vec<Vec<u32>> = (0..5).map(|r| row(5 * r, 5)).collect();
        assert_eq!(fold_rows(card.clone(), 8), card);
    }

    #[test]
    fn a_card_code_is_drawn_as_its_rank_and_suit() {
        // A card code is its rank and suit as printed; anything else is no card.
        assert_eq!(card("Td"), Some(("10", '♦', true)));
        assert_eq!(card("As"), Some(("A", '♠', false)));
        assert_eq!(card("COQ"), None);
        assert_eq!(card("1x"), None);
    }

    #[test]
    fn itf_barcode_of_a_serial_is_one_element_a_bar_at_three_to_one() {
        let e = itf("17030010010000010012").unwrap();
        let w = |e: &[Element]| -> Vec<(bool, u8)> {
            e.iter()
                .map(|e| (e.bar, (e.width / MODULE).round() as u8))
                .collect()
        };
        // Start: narrow bar, space, bar, space; stop: wide bar, narrow space, narrow bar.
        assert_eq!(w(&e[..4]), [(true, 1), (false, 1), (true, 1), (false, 1)]);
        assert_eq!(w(&e[e.len() - 3..]), [(true, 3), (false, 1), (true, 1)]);
        // Then 10 digit pairs of 5 bars and 5 spaces, bars and spaces alternating: one
        // element a bar, never two abutting.
        assert_eq!(e.len(), 4 + 10 * 10 + 3);
        assert!(e.windows(2).all(|p| p[0].bar != p[1].bar));
        // The pair "17": bars 1 = WNNNW, spaces 7 = NNNWW, interleaved.
        assert_eq!(
            w(&e[4..14]),
            [
                (true, 3),
                (false, 1),
                (true, 1),
                (false, 1),
                (true, 1),
                (false, 1),
                (true, 1),
                (false, 3),
                (true, 3),
                (false, 3)
            ]
        );
        // Each pair: 2 wide and 3 narrow bars and spaces, 6 + 4 × 3 = 18 modules.
        let total: f64 = e.iter().map(|e| e.width).sum();
        assert!((total - (4.0 + 10.0 * 18.0 + 5.0) * MODULE).abs() < 1e-9);
        assert_eq!(itf("123"), None);
    }
}
