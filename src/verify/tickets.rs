//! The ticket pass: `tickets.bin`, `tickets.csv` and `validation.csv` read once, together,
//! record by record; every face re-judged by the rules; serials, codes, captions and the
//! validation file checked; the ways, features, codes and leakage tallied for the
//! procedures that follow.

use super::leakage::Tally;
use super::open::hash_file;
use super::{add, Block, CheckId, Checks, Found, VerifyError};
use crate::block::layout::{BIN, CSV, SEALED_SUFFIX, VALIDATION};
use crate::block::serial::{self, is_valid, PackSerials, MAX_BLOCK};
use crate::block::{Judgement, Kind};
use crate::money::Money;
use crate::output::hashing::HashingReader;
use crate::output::manifest::Manifest;
use crate::output::seal::{DeliveredSum, Identities};
use crate::output::{print_file, tickets_csv, validation_csv, Ticket};
use crate::spec::{GameSpec, WayId};
use crate::store::ahead::{Chunk, Chunked};
use crate::store::thread::spawn_scoped;
use crate::styles::{ColumnKind, Face, FeatureId};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};

/// Bytes read at a time (2 MiB): a batch holds whole chunks of tickets.csv until it has this
/// many (the file's last batch may have fewer); the headers and the print file's tail are
/// read in steps of this size or half of it. The few batches in flight stay in memory,
/// reused from batch to batch, rather than tens of megabytes of fresh pages for the kernel
/// to fault in and zero.
const READ_BLOCK: usize = 2 << 20;
/// Tickets checked per parallel task.
const TASK_TICKETS: usize = 4096;

/// The ticket pass over `block`, when its spec loads: what it finds goes to `found`, what
/// it tallies to `block.run`, the digests of the files it read to `block.actual`. Without a
/// spec, or when the pass stops early, the checks it could not make are noted not run.
/// Errors: [`VerifyError::Thread`].
pub(super) fn pass(block: &mut Block, found: &mut Found) -> Result<(), VerifyError> {
    let checks = &mut found.checks;
    let promised_tickets: HashSet<u32> = block
        .manifest
        .iter()
        .flat_map(|m| m.promised_features.iter().flatten())
        .map(|p| p.ticket)
        .collect();
    match &block.spec {
        None => found.not_run.extend([
            CheckId::PrintHeader,
            CheckId::CsvHeader,
            CheckId::RecordCount,
            CheckId::Counts,
            CheckId::Leakage,
        ]),
        Some(spec) => {
            let expect = block
                .manifest
                .as_ref()
                .map(|m| Expect::from_manifest(m, spec, checks));
            let no_ids = Identities::default();
            let ids = block.opts.identities.unwrap_or(&no_ids);
            block.run = check_tickets(
                block.dir,
                ids,
                spec,
                expect,
                &promised_tickets,
                checks,
                block.progress,
            )
            .map_err(|error| VerifyError::Thread { error })?;
            not_run_after_pass(&block.run, checks, &mut found.not_run);
            for (name, h) in std::mem::take(&mut block.run.hashes) {
                block.actual.insert(name, h);
            }
        }
    }
    // Ticket files the pass did not read (it stopped early): hashed here, so that the
    // digest checks tell a file that is there from one that is missing; no further than a
    // block of its size holds, when the spec and the size are known.
    let limit = block
        .spec
        .as_ref()
        .zip(block.run.expect.as_ref())
        .map(|(spec, e)| text_limit(e.tickets, spec));
    for name in [CSV, BIN, VALIDATION] {
        let sealed = format!("{name}{SEALED_SUFFIX}");
        for name in [name, &sealed] {
            if !block.actual.contains_key(name) {
                if let Some((n, h, more)) = hash_file(&block.dir.join(name), limit) {
                    if more {
                        add(
                            &mut found.checks,
                            CheckId::RecordCount,
                            None,
                            format!("{name} goes on past what the block holds: only the first {n} bytes were read"),
                        );
                    }
                    block.actual.insert(name.into(), (n, h));
                }
            }
        }
    }
    Ok(())
}

/// Notes in `not_run` the checks the ticket pass `run` could not make: every check made
/// ticket by ticket when not one record was read or the pass did not run (and then the
/// headers it did not reach, unless `checks` holds their findings).
fn not_run_after_pass(run: &TicketRun, checks: &Checks, not_run: &mut Vec<CheckId>) {
    let none_read = run.tickets == 0 && run.expect.as_ref().is_some_and(|e| e.tickets > 0);
    if none_read {
        // Not one record was read of a block that has tickets: no ticket was held
        // to anything, so no check made ticket by ticket passes.
        not_run.extend(CheckId::ALL.into_iter().filter(|c| c.from_ticket_pass()));
        not_run.push(CheckId::Leakage);
    }
    if run.expect.is_none() || run.counts.is_none() {
        // The ticket pass did not run (unreadable files or print header): nothing
        // was checked ticket by ticket, and the report must not say PASS for it,
        // nor for the headers it did not reach.
        not_run.extend(CheckId::ALL.into_iter().filter(|c| c.from_ticket_pass()));
        not_run.push(CheckId::CsvHeader);
        for id in [CheckId::PrintHeader, CheckId::RecordCount] {
            if !checks.contains_key(&id) {
                not_run.push(id);
            }
        }
    }
}

/// What the block must be: its kind, number, size and the count of every way.
pub(super) struct Expect {
    pub(super) kind: Kind,
    pub(super) block: u32,
    pub(super) tickets: u64,
    pub(super) counts: Vec<u64>,
}

impl Expect {
    /// From the manifest: a production block must have the spec's counts (checked
    /// separately); a specimen deck declares its own composition.
    pub(super) fn from_manifest(m: &Manifest, spec: &GameSpec, checks: &mut Checks) -> Expect {
        let counts = match m.kind {
            Kind::Production => spec.ways.iter().map(|w| u64::from(w.count)).collect(),
            Kind::Specimen => {
                let mut c = vec![0u64; spec.ways.len()];
                c[0] = m.losers;
                for w in m.tiers.iter().flat_map(|t| &t.ways) {
                    match spec.way_by_id(&w.id) {
                        Some(id) => c[id as usize] = w.count,
                        None => add(
                            checks,
                            CheckId::Manifest,
                            None,
                            format!(
                                "the manifest lists way \"{}\", which the spec does not have",
                                w.id
                            ),
                        ),
                    }
                }
                c
            }
        };
        Expect {
            kind: m.kind,
            block: m.block,
            tickets: u64::from(m.tickets),
            counts,
        }
    }

    /// Without a readable manifest: a production block of the spec, numbered as the print
    /// header says. A deck's size, counts and promises are its manifest's alone, and its
    /// kind too: a block is never taken for a deck on the word of one header field, which
    /// would hold it to no lot table.
    pub(super) fn production(spec: &GameSpec, block: u32) -> Expect {
        Expect {
            kind: Kind::Production,
            block,
            tickets: u64::from(spec.block_size),
            counts: spec.ways.iter().map(|w| u64::from(w.count)).collect(),
        }
    }
}

/// What the ticket pass found besides findings.
#[derive(Default)]
pub(super) struct TicketRun {
    pub(super) expect: Option<Expect>,
    /// Evaluated way of every ticket, in print order.
    pub(super) ways: Vec<WayId>,
    /// Wins per (tier index, feature shown), the features in the game's table.
    pub(super) features: BTreeMap<(usize, FeatureId), u64>,
    /// Per losing feature: (play areas showing it, tickets showing it).
    pub(super) losing: BTreeMap<FeatureId, (u64, u64)>,
    /// Per promised ticket (1-based): its evaluated way and every feature it shows.
    pub(super) promised: HashMap<u32, (Option<WayId>, Vec<FeatureId>)>,
    /// Validation codes of every ticket, sorted.
    pub(super) codes: Vec<u64>,
    pub(super) tickets: u64,
    /// The tickets whose face cannot be judged (a face code out of its column): counted in
    /// no way.
    pub(super) unjudged: u64,
    pub(super) counts: Option<Vec<u64>>,
    pub(super) payout: u64,
    pub(super) hashes: Vec<(String, (u64, String))>,
    /// Printed fields against win / lose (None when the record pass did not run).
    pub(super) leakage: Option<Tally>,
}

/// One block of input for the checkers: complete lines of `tickets.csv`, in the chunks
/// they were read in, and the matching print records.
struct Batch {
    /// 0-based index of the first ticket.
    first: u64,
    /// Chunks of whole lines, one after the other.
    csv: Vec<Chunk>,
    /// The offset of every `\n` in its chunk, chunk after chunk, found once by the reader.
    ends: Vec<usize>,
    /// The index in `ends` of each chunk's first line, then the number of lines.
    firsts: Vec<usize>,
    bin: Vec<u8>,
}

impl Batch {
    /// The tickets of the batch, print records of `rec` bytes: its lines or its records,
    /// whichever are more (the files may disagree).
    fn tickets(&self, rec: usize) -> usize {
        self.ends.len().max(self.bin.len() / rec)
    }

    /// Line `k` (0-based) of the batch, without its `\n`; `j`, the index of a chunk at or
    /// before the line's, is moved to the line's chunk. `None` past the last line.
    #[inline]
    fn line(&self, k: usize, j: &mut usize) -> Option<&[u8]> {
        let ends = &self.ends;
        if k >= ends.len() {
            return None;
        }
        while self.firsts[*j + 1] <= k {
            *j += 1;
        }
        let start = if k == self.firsts[*j] {
            0
        } else {
            ends[k - 1] + 1
        };
        Some(&self.csv[*j][start..ends[k]])
    }
}

/// A text file read line by line, in chunks of whole lines.
struct Lines {
    src: HashingReader,
    carry: Vec<u8>,
    /// The file's last line had no `\n` (one was added to it): tirage ends every line
    /// with one.
    unterminated: bool,
}

impl Lines {
    /// The complete lines of the next chunk read ([`HashingReader::next_chunk`]), the end
    /// of the one before put back before them (at end of file, everything left, with a
    /// final `\n` added if missing; empty after it); `spare`, a chunk done with.
    fn chunk(&mut self, mut spare: Option<Chunk>) -> std::io::Result<Chunk> {
        loop {
            let mut c = self.src.next_chunk(spare.take())?.after(&self.carry);
            self.carry.clear();
            if self.src.eof() {
                if !c.is_empty() && c.last() != Some(&b'\n') {
                    c.push(b'\n');
                    self.unterminated = true;
                }
                return Ok(c);
            }
            if let Some(p) = memchr::memrchr(b'\n', &c) {
                self.carry.extend_from_slice(&c[p + 1..]);
                c.truncate(p + 1);
                return Ok(c);
            }
            if c.len() > MAX_LINE {
                return Err(too_long());
            }
            self.carry.extend_from_slice(&c);
            spare = Some(c);
        }
    }

    /// The next `n` lines (fewer at end of file).
    fn lines(&mut self, n: usize) -> std::io::Result<Vec<u8>> {
        let mut buf = std::mem::take(&mut self.carry);
        loop {
            if n == 0 {
                self.carry = buf;
                return Ok(Vec::new());
            }
            if let Some(p) = memchr::memchr_iter(b'\n', &buf).nth(n - 1) {
                self.carry = buf.split_off(p + 1);
                return Ok(buf);
            }
            if self.src.eof() {
                if !buf.is_empty() && buf.last() != Some(&b'\n') {
                    buf.push(b'\n');
                    self.unterminated = true;
                }
                return Ok(buf);
            }
            if buf.len() > MAX_LINE * n.max(1) {
                return Err(too_long());
            }
            self.src.read(&mut buf, READ_BLOCK / 2)?;
        }
    }
}

/// Longest line verify reads before it gives up on a file (real rows are a few hundred bytes).
const MAX_LINE: usize = 32 << 20;

fn too_long() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "a line longer than {} MiB: not a tirage ticket file",
            MAX_LINE >> 20
        ),
    )
}

/// Batches being read or checked at once, at most: the reader makes no more until one is
/// checked and handed back. A batch holds one or two chunks of tickets.csv (2 MiB each) and
/// their print records: about 40 MiB for the eight, whatever the block's size. Fewer left
/// the checkers without work while the reader, which hashes both files, waited for a core
/// (docs/SPEED.md).
const BATCHES: usize = 8;

/// What the checkers' driver hears: a batch read, a task of a batch checked, or the end
/// of the files.
enum Event {
    Batch(Batch),
    /// The batch's number (0-based, in file order), the task's, and its tally.
    Checked(usize, usize, Box<Acc>),
    End,
}

/// Reads `tickets.csv` and `tickets.bin` after their headers, in step, and sends batches
/// on `tx`, then [`Event::End`]; at most [`BATCHES`] at once, each later one in the buffers
/// of one handed back on `spare`. Returns the byte count, digest and truncation of each
/// file (tickets.csv, tickets.bin), and whether tickets.csv's last line had no `\n`.
fn reader(
    mut csv: Lines,
    mut bin: HashingReader,
    rec: usize,
    tx: &Sender<Event>,
    spare: Receiver<Batch>,
) -> FilesRead {
    let mut first = 0u64;
    for made in 0.. {
        // Reuse the buffers of a batch already checked: no fresh pages to fault in.
        let recycled = if made < BATCHES {
            None
        } else {
            match spare.recv() {
                Ok(b) => Some(b),
                // The checkers are gone.
                Err(_) => break,
            }
        };
        let (mut chunks, mut ends, mut firsts, mut records) = match recycled {
            Some(b) => (b.csv, b.ends, b.firsts, b.bin),
            None => (Vec::new(), Vec::new(), Vec::new(), Vec::new()),
        };
        let mut old = std::mem::take(&mut chunks);
        ends.clear();
        firsts.clear();
        let mut bytes = 0;
        while bytes < READ_BLOCK {
            let c = csv.chunk(old.pop())?;
            if c.is_empty() {
                break;
            }
            firsts.push(ends.len());
            ends.extend(memchr::memchr_iter(b'\n', &c));
            bytes += c.len();
            chunks.push(c);
        }
        firsts.push(ends.len());
        let lines = ends.len();
        if lines == 0 {
            // tickets.csv is done: whatever is left of the print file.
            records.clear();
            while !bin.eof() {
                bin.read(&mut records, READ_BLOCK)?;
            }
        } else {
            // Overwritten, not cleared: only room the buffer never had is zeroed.
            records.resize(lines * rec, 0);
            let got = bin.read_into(&mut records)?;
            records.truncate(got);
        }
        let n = lines.max(records.len().div_ceil(rec));
        if n == 0 {
            break;
        }
        if tx
            .send(Event::Batch(Batch {
                first,
                csv: chunks,
                ends,
                firsts,
                bin: records,
            }))
            .is_err()
        {
            break;
        }
        first += n as u64;
        if lines == 0 {
            break;
        }
    }
    let unterminated = csv.unterminated;
    Ok(([csv.src.finish(), bin.finish()], unterminated))
}

/// The finding for `face`, one of whose codes is past its column's values: the first such
/// column by name, the code, and how many values the column has.
fn out_of_range(cols: &[crate::styles::Column], face: &Face) -> String {
    cols.iter()
        .zip(&face.codes)
        .find(|(c, &k)| usize::from(k) >= c.values.len())
        .map_or_else(
            || "a face code is not a value of its column".to_string(),
            |(c, k)| {
                format!(
                    "column {}: code {k}, not a value of the column (its codes are 0 to {})",
                    c.name,
                    c.values.len().saturating_sub(1)
                )
            },
        )
}

/// A claim of `validation.csv` ([`validation_csv::claim`]).
type Claim = [u8; validation_csv::CLAIM_BYTES];

/// Per-task accumulator of the ticket checks.
struct Acc {
    checks: Checks,
    counts: Vec<u64>,
    payout: u64,
    tickets: u64,
    codes: Vec<u64>,
    /// Evaluated way of every ticket with a print record, in order (0 when unrecognised).
    ways: Vec<WayId>,
    /// Wins per (tier index, feature the winning play area shows), for styles that name
    /// features (poker's combinations).
    features: BTreeMap<(usize, FeatureId), u64>,
    /// Per losing feature (index: its id): (play areas showing it, tickets showing it);
    /// indexed, not a map, since nearly every losing ticket shows one.
    losing: Vec<(u64, u64)>,
    /// Tickets a deck promises a feature on: (ticket, evaluated way, features shown).
    promised: Vec<(u32, Option<WayId>, Vec<FeatureId>)>,
    /// Printed fields against win / lose.
    leakage: Tally,
    /// Rows of tickets.csv / validation.csv with no print record, and print records with no
    /// row: (count, first ticket).
    extra_csv: (u64, Option<u64>),
    missing_csv: (u64, Option<u64>),
    /// Rows of tickets.csv that are right but for a carriage return before their line end
    /// (CRLF line ends): (count, first ticket). One finding says so, not one per row.
    crlf_csv: (u64, Option<u64>),
    /// The validation row every print record of the task calls for (claim, evaluated
    /// way); [`ticket_pass`] gathers them into its [`validation_csv::Claims`].
    claims: Vec<validation_csv::Row>,
    /// The claims of the tickets whose validation rows are not held to a way, with their
    /// ticket numbers and why ([`Unheld`]).
    unheld: Vec<Unheld>,
}

/// Why a ticket's validation row is not held to a way and prize: its face cannot be judged
/// (a face code out of its column: a finding of face_codes), or it is judged but realises
/// no way of the spec (a finding of way_recognised).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Why {
    FaceCodes,
    NoWay,
}

/// A ticket whose validation row is not held to a way: its claim, its ticket number
/// (1-based) and why.
type Unheld = (Claim, u32, Why);

fn bump(c: &mut (u64, Option<u64>), ticket: u64) {
    c.0 += 1;
    c.1.get_or_insert(ticket);
}

fn join(a: &mut (u64, Option<u64>), b: (u64, Option<u64>)) {
    a.0 += b.0;
    a.1 = a.1.or(b.1);
}

impl Acc {
    fn new(n_ways: usize, pack_size: u32) -> Acc {
        Acc {
            leakage: Tally::new(pack_size),
            checks: Checks::new(),
            counts: vec![0; n_ways],
            payout: 0,
            tickets: 0,
            codes: Vec::new(),
            ways: Vec::new(),
            features: BTreeMap::new(),
            losing: Vec::new(),
            promised: Vec::new(),
            extra_csv: (0, None),
            missing_csv: (0, None),
            crlf_csv: (0, None),
            claims: Vec::new(),
            unheld: Vec::new(),
        }
    }

    /// Appends `later` (a task of later tickets).
    fn merge(&mut self, later: Acc) {
        for (id, f) in later.checks {
            self.checks.entry(id).or_default().merge(f);
        }
        for (a, b) in self.counts.iter_mut().zip(later.counts) {
            *a += b;
        }
        self.payout += later.payout;
        self.tickets += later.tickets;
        self.codes.extend(later.codes);
        self.ways.extend(later.ways);
        for (k, n) in later.features {
            *self.features.entry(k).or_default() += n;
        }
        if self.losing.len() < later.losing.len() {
            self.losing.resize(later.losing.len(), (0, 0));
        }
        for (e, (a, t)) in self.losing.iter_mut().zip(later.losing) {
            e.0 += a;
            e.1 += t;
        }
        self.promised.extend(later.promised);
        self.unheld.extend(later.unheld);
        self.leakage.merge(&later.leakage);
        join(&mut self.extra_csv, later.extra_csv);
        join(&mut self.missing_csv, later.missing_csv);
        join(&mut self.crlf_csv, later.crlf_csv);
    }
}

/// Row renderers and the judgement of one checker task, reused from ticket to ticket.
struct Writers {
    rows: tickets_csv::RowWriter,
    /// The expected serials of the pack being checked.
    pack: Option<(u32, PackSerials)>,
    /// The judgement of the ticket being checked, made in place.
    judged: Judgement,
}

impl Writers {
    /// The expected serials of pack `pack` (1-based) of `block`, computed once per pack;
    /// none when a serial cannot write `block` (over [`MAX_BLOCK`], a manifest's number).
    fn serials(&mut self, spec: &GameSpec, block: u32, pack: u32) -> Option<&PackSerials> {
        if block > MAX_BLOCK {
            return None;
        }
        if self.pack.as_ref().is_none_or(|(p, _)| *p != pack) {
            self.pack = Some((
                pack,
                PackSerials::new(spec.game_code, spec.emission, block, pack, spec.pack_size),
            ));
        }
        Some(&self.pack.as_ref().expect("just set").1)
    }
}

/// Everything a checker task needs about the block.
struct Ctx<'a> {
    spec: &'a GameSpec,
    block: u32,
    ncols: usize,
    /// Per caption column: (its index, its amount column, the spec's caption code for each
    /// amount code — `None` when the amount has no caption).
    captions: Vec<(usize, usize, Vec<Option<u8>>)>,
    /// Tickets (1-based) a deck promises a feature on.
    promised: &'a HashSet<u32>,
}

/// The caption table of [`Ctx::captions`] for `spec`'s face columns.
fn caption_table(spec: &GameSpec) -> Vec<(usize, usize, Vec<Option<u8>>)> {
    let cols = &spec.game.layout().columns;
    cols.iter()
        .enumerate()
        .filter_map(|(ci, c)| match c.kind {
            ColumnKind::Caption { of } => match &cols[of].kind {
                ColumnKind::Amount(amounts) => Some((
                    ci,
                    of,
                    amounts
                        .iter()
                        .map(|&m| {
                            let want = spec.caption(m)?;
                            c.values.iter().position(|v| v == want).map(|k| k as u8)
                        })
                        .collect(),
                )),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

impl Ctx<'_> {
    /// Checks the tickets of task `task` of `batch` ([`TASK_TICKETS`] of them, fewer in
    /// the last task), print records of `rec` bytes, rows rendered by a clone of `rows`;
    /// returns their tally.
    fn check_task(
        &self,
        batch: &Batch,
        task: usize,
        rec: usize,
        rows: &tickets_csv::RowWriter,
    ) -> Acc {
        let spec = self.spec;
        let mut w = Writers {
            rows: rows.clone(),
            pack: None,
            judged: Judgement::default(),
        };
        let mut acc = Acc::new(spec.ways.len(), spec.pack_size);
        let (n, nrec) = (batch.tickets(rec), batch.bin.len() / rec);
        let tickets = task * TASK_TICKETS..((task + 1) * TASK_TICKETS).min(n);
        // Room for every ticket's code, way and claim at once, not grown step by step.
        acc.codes.reserve(tickets.len());
        acc.ways.reserve(tickets.len());
        acc.claims.reserve(tickets.len());
        // One ticket, each record read into it in place.
        let mut ticket = Ticket {
            block: self.block,
            pack: 0,
            pack_position: 0,
            ticket: 0,
            serial: [0; serial::LEN],
            validation: 0,
            prize: Money(0),
            way: 0,
            face: Face::zeroed(self.ncols),
        };
        let mut j = 0;
        for k in tickets {
            let l = batch.line(k, &mut j);
            let r = (k < nrec).then(|| &batch.bin[k * rec..(k + 1) * rec]);
            self.check(batch.first + k as u64, l, r, &mut ticket, &mut w, &mut acc);
        }
        acc
    }

    /// Checks ticket index `i` (0-based) from its print record and tickets.csv line (either
    /// may be missing when the files disagree in length), the line without its `\n`. The
    /// record is read into `ticket`, whatever it held.
    fn check(
        &self,
        i: u64,
        line: Option<&[u8]>,
        rec: Option<&[u8]>,
        ticket: &mut Ticket,
        w: &mut Writers,
        acc: &mut Acc,
    ) {
        let spec = self.spec;
        let t = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let Some(rec) = rec else {
            if line.is_some() {
                bump(&mut acc.extra_csv, i + 1);
            }
            return;
        };
        if line.is_none() {
            bump(&mut acc.missing_csv, i + 1);
        }
        acc.tickets += 1;
        print_file::read_into(rec, self.ncols, ticket);
        acc.codes.push(ticket.validation);
        if ticket.validation >= crate::crypto::validation::DOMAIN {
            // The code itself is not shown: a report is not where codes are read.
            add(
                &mut acc.checks,
                CheckId::ValidationCodes,
                Some(t),
                "the validation code is 10^19 or more: more digits than a code has (19)",
            );
        }
        self.check_place(i, ticket, w, acc);
        let cols = &spec.game.layout().columns;
        if !print_file::codes_in_range(&ticket.face, cols) {
            add(
                &mut acc.checks,
                CheckId::FaceCodes,
                Some(t),
                out_of_range(cols, &ticket.face),
            );
            self.unjudged(t, line.is_some(), ticket, acc);
            return;
        }
        let judged = &mut w.judged;
        judged.judge(spec, &ticket.face);
        if !judged.ambiguities.is_empty() {
            add(
                &mut acc.checks,
                CheckId::Ambiguity,
                Some(t),
                judged.ambiguities.join("; "),
            );
        }
        let way = judged.way;
        self.tally(t, ticket, judged, acc);
        self.check_captions(&ticket.face, t, acc);
        (ticket.prize, ticket.way) = (judged.prize, way.unwrap_or(0));
        if let Some(line) = line {
            self.check_row(t, line, ticket, way.is_none(), w, acc);
        }
        let claim = validation_csv::claim(&ticket.serial, ticket.validation);
        if way.is_some() {
            acc.claims.push(validation_csv::Row {
                claim,
                way: ticket.way,
            });
        } else {
            // Its row can be held to no way (way_recognised says why): named apart.
            acc.unheld.push((claim, t, Why::NoWay));
        }
    }

    /// Ticket `t`, whose face cannot be judged (a face code out of its column: a finding of
    /// face_codes): its claim is kept apart, its validation row not held to a way; what the
    /// judgement would check is a finding of way_recognised, ambiguity, captions (when the
    /// spec has any) and, when its tickets.csv row was read (`row_read`), csv_matches_print.
    fn unjudged(&self, t: u32, row_read: bool, ticket: &Ticket, acc: &mut Acc) {
        let claim = validation_csv::claim(&ticket.serial, ticket.validation);
        acc.unheld.push((claim, t, Why::FaceCodes));
        add(
            &mut acc.checks,
            CheckId::WayRecognised,
            Some(t),
            "the face cannot be judged (face_codes): it realises no way the rules can tell",
        );
        // Nor can its ambiguity and captions be checked: findings, never silent passes.
        add(
            &mut acc.checks,
            CheckId::Ambiguity,
            Some(t),
            "the face cannot be judged (face_codes): its ambiguity is not checked",
        );
        if !self.captions.is_empty() {
            add(
                &mut acc.checks,
                CheckId::Captions,
                Some(t),
                "the face cannot be judged (face_codes): its captions are not checked",
            );
        }
        // The row cannot be rendered from such a face, so it is not held to one: a
        // finding, never a silent pass.
        if row_read {
            add(
                &mut acc.checks,
                CheckId::CsvMatchesPrint,
                Some(t),
                "the row of a ticket whose face cannot be judged (face_codes): not compared with its print record",
            );
        }
    }

    /// Checks the place record `r` of ticket index `i` (0-based) gives: its ticket, pack and
    /// position in pack, and its serial (findings of [`CheckId::Positions`] and
    /// [`CheckId::Serials`]).
    fn check_place(&self, i: u64, r: &Ticket, w: &mut Writers, acc: &mut Acc) {
        let spec = self.spec;
        let t = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let ps = u64::from(spec.pack_size);
        let (pack, pos) = ((i / ps + 1) as u32, (i % ps + 1) as u32);
        if u64::from(r.ticket) != i + 1 || r.pack != pack || r.pack_position != pos {
            add(
                &mut acc.checks,
                CheckId::Positions,
                Some(t),
                format!(
                    "record {} says ticket {}, pack {}, position {}; expected ticket {}, pack {pack}, position {pos}",
                    i + 1,
                    r.ticket,
                    r.pack,
                    r.pack_position,
                    i + 1
                ),
            );
        }
        let Some(want) = w.serials(spec, self.block, pack).map(|s| s.at(pos)) else {
            add(
                &mut acc.checks,
                CheckId::Serials,
                Some(t),
                format!(
                    "serial {}, expected none: block {} has no serials (a serial's block is at most {MAX_BLOCK})",
                    String::from_utf8_lossy(&r.serial),
                    self.block
                ),
            );
            return;
        };
        // `want` is valid by construction, so equality implies a valid check digit.
        if r.serial != want {
            debug_assert!(is_valid(&want));
            add(
                &mut acc.checks,
                CheckId::Serials,
                Some(t),
                format!(
                    "serial {}, expected {}",
                    String::from_utf8_lossy(&r.serial),
                    String::from_utf8_lossy(&want)
                ),
            );
        }
    }

    /// Tallies ticket `t` of record `r`, judged `judged`: its prize and way, the features
    /// and losing features it shows, a promised ticket's features, its printed fields for
    /// the leakage gate, its way's count (a face of no way is a finding of
    /// [`CheckId::WayRecognised`] and [`CheckId::ValidationFile`]).
    fn tally(&self, t: u32, r: &Ticket, judged: &Judgement, acc: &mut Acc) {
        let spec = self.spec;
        let (prize, way, ev) = (judged.prize, judged.way, &judged.evaluation);
        acc.payout += prize.cents();
        acc.ways.push(way.unwrap_or(0));
        if let Some(tier) = way.and_then(|w| spec.ways[w as usize].tier) {
            for f in &ev.features {
                *acc.features.entry((tier, f.id)).or_default() += 1;
            }
        }
        for (k, f) in ev.losing_features.iter().enumerate() {
            let at = usize::from(f.id.0);
            if acc.losing.len() <= at {
                acc.losing.resize(at + 1, (0, 0));
            }
            let e = &mut acc.losing[at];
            e.0 += 1;
            if !ev.losing_features[..k].iter().any(|g| g.id == f.id) {
                e.1 += 1;
            }
        }
        if self.promised.contains(&t) {
            let names = ev
                .features
                .iter()
                .chain(&ev.losing_features)
                .map(|f| f.id)
                .collect();
            acc.promised.push((t, way, names));
        }
        acc.leakage.add(
            r.ticket,
            r.pack,
            r.pack_position,
            &r.serial,
            prize.cents() > 0,
        );
        match way {
            Some(w) => acc.counts[w as usize] += 1,
            None => {
                add(
                    &mut acc.checks,
                    CheckId::WayRecognised,
                    Some(t),
                    format!("the face wins {prize}, which no way of the spec gives"),
                );
            }
        }
    }

    /// Checks `line`, ticket `t`'s row of tickets.csv (without its `\n`), against the row
    /// `ticket` renders to (`unrecognised`: its face realises no way): a finding of
    /// [`CheckId::CsvMatchesPrint`] when they differ, CRLF line ends counted apart.
    fn check_row(
        &self,
        t: u32,
        line: &[u8],
        ticket: &Ticket,
        unrecognised: bool,
        w: &mut Writers,
        acc: &mut Acc,
    ) {
        if w.rows.matches(ticket, line) && !unrecognised {
            return;
        }
        let spec = self.spec;
        let expected = w.rows.bytes().strip_suffix(b"\n").unwrap_or_default();
        if !unrecognised && line.strip_suffix(b"\r") == Some(expected) {
            bump(&mut acc.crlf_csv, u64::from(ticket.ticket));
        } else if line != expected || unrecognised {
            // Never empty: the bytes differ, or the face realises no way and the row has a
            // prize column. Worded only while examples are kept.
            let detail = || {
                explain(
                    CSV,
                    line,
                    expected,
                    &tickets_csv::column_names(spec),
                    unrecognised,
                    ticket.prize,
                )
            };
            acc.checks
                .entry(CheckId::CsvMatchesPrint)
                .or_default()
                .add_with(Some(t), detail);
        }
    }

    /// Every amount column's caption column holds the spec's caption of that amount
    /// (décret n°78-1067 and GAMES.md: a missing or wrong caption is a printing anomaly).
    fn check_captions(&self, face: &Face, t: u32, acc: &mut Acc) {
        let cols = &self.spec.game.layout().columns;
        for (ci, of, want) in &self.captions {
            let (ci, of) = (*ci, *of);
            // A code past the amounts is a symbol in place of an amount: its style judges
            // its caption.
            match want.get(face.codes[of] as usize) {
                Some(&w) if w != Some(face.codes[ci]) => {}
                _ => continue,
            }
            let c = &cols[ci];
            {
                let shown = &c.values[face.codes[ci] as usize];
                if let ColumnKind::Amount(amounts) = &cols[of].kind {
                    let amount = amounts[face.codes[of] as usize];
                    if self.spec.caption(amount) != Some(shown.as_str()) {
                        add(
                            &mut acc.checks,
                            CheckId::Captions,
                            Some(t),
                            format!(
                                "{} shows {amount} captioned \"{shown}\"; the spec's caption is \"{}\"",
                                cols[of].name,
                                self.spec.caption(amount).unwrap_or("(none)")
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// Names the columns where a row differs from the expected one.
fn explain(
    file: &str,
    line: &[u8],
    expected: &[u8],
    names: &[String],
    unrecognised: bool,
    prize: Money,
) -> String {
    let got = tickets_csv::fields(line);
    let want = tickets_csv::fields(expected);
    let mut diffs = Vec::new();
    if got.len() != want.len() {
        diffs.push(format!("{} fields, expected {}", got.len(), want.len()));
    }
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        let name = names.get(k).map_or("?", String::as_str);
        let prize_or_way = name == "prize" || name == "way" || name == "item";
        // A face that realises no way: no row can agree with it, whatever it says.
        if unrecognised && prize_or_way {
            diffs.push(format!(
                "{name}: {file} has {g:?}, but the face wins {prize}, which no way of the spec gives"
            ));
            continue;
        }
        if g == w {
            continue;
        }
        let why = match name {
            "prize" | "way" | "item" => " (by the evaluation of the face)".to_string(),
            _ => " (per tickets.bin)".to_string(),
        };
        diffs.push(format!("{name}: {file} has {g:?}, expected {w:?}{why}"));
    }
    // The bytes differ where no field does (a carriage return, a quoted field): show them.
    if diffs.is_empty() && line != expected {
        diffs.push(format!(
            "{file} has {:?}, expected {:?}",
            String::from_utf8_lossy(line),
            String::from_utf8_lossy(expected)
        ));
    }
    diffs.join("; ")
}

/// The one finding for `count` rows of `file` that end in a carriage return and are right
/// otherwise.
fn crlf(file: &str, count: u64) -> String {
    format!(
        "{file} has CRLF line ends ({} with \"\\r\\n\"; tirage writes \"\\n\"): the file was saved by a program that changes line ends (a spreadsheet, an editor, a transfer in text mode); use the file as delivered",
        super::counted(count, "row ends", "rows end")
    )
}

/// " (CRLF line ends)" when header line `got` ends with a carriage return before its line end.
fn crlf_note(got: &[u8]) -> &'static str {
    if got.ends_with(b"\r\n") || got.ends_with(b"\r") {
        " (CRLF line ends)"
    } else {
        ""
    }
}

/// What differs between `line`, row `k` (0-based, in claim order) of validation.csv, and
/// `want`, the row the print records give, in words.
fn row_difference(k: usize, line: &[u8], want: &[u8]) -> String {
    // Named by position: a file without items has the first three of these columns.
    let names: Vec<String> = validation_csv::ITEM_COLUMNS
        .iter()
        .map(|s| s.to_string())
        .collect();
    let strip = |b: &[u8]| b.strip_suffix(b"\n").unwrap_or(b).to_vec();
    format!(
        "row {} (in claim order): {}",
        k + 1,
        explain(
            VALIDATION,
            &strip(line),
            &strip(want),
            &names,
            false,
            Money(0)
        )
    )
}

/// Rows of `validation.csv` compared per parallel task.
const TASK_ROWS: usize = 16_384;

/// What one task found comparing rows of `validation.csv` with the rows wanted: the
/// differences (as [`row_difference`] words them), rows right but for a carriage return,
/// and rows past the last one wanted.
#[derive(Default)]
struct RowsCompared {
    differences: super::Findings,
    crlf: u64,
    more: u64,
}

/// The index of each group's first row in file order (group after group), then the count
/// of rows: `groups.len() + 1` numbers, what [`rows_from`] takes as its `starts`.
fn group_starts(groups: &[Vec<validation_csv::Row>]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(groups.len() + 1);
    starts.push(0);
    for g in groups {
        starts.push(starts.last().copied().unwrap_or(0) + g.len());
    }
    starts
}

/// The rows of `groups` (file order: group after group) from row `k` (0-based) on;
/// `starts[g]` is the index of group `g`'s first row, `starts[groups.len()]` the count.
fn rows_from<'a>(
    groups: &'a [Vec<validation_csv::Row>],
    starts: &[usize],
    k: usize,
) -> impl Iterator<Item = &'a validation_csv::Row> {
    let total = starts.last().copied().unwrap_or(0);
    let (first, rest): (&[validation_csv::Row], &[Vec<validation_csv::Row>]) = if k >= total {
        (&[], &[])
    } else {
        // The last group starting at or before `k`: it holds row `k` (an empty group
        // starts where the next one does).
        let g = starts.partition_point(|&s| s <= k) - 1;
        (&groups[g][k - starts[g]..], &groups[g + 1..])
    };
    first.iter().chain(rest.iter().flatten())
}

/// Compares the lines of `block` from byte `start` that end (with their `\n`) at `ends`,
/// rows `k` (0-based, in claim order) on of `validation.csv`, with the rows the print
/// records call for (`wanted`, from row `k` on), by `writer`: in place, and rendered only
/// to say how a row differs.
fn compare_rows<'a>(
    block: &[u8],
    mut start: usize,
    ends: &[usize],
    k: usize,
    mut wanted: impl Iterator<Item = &'a validation_csv::Row>,
    writer: &validation_csv::RowWriter,
) -> RowsCompared {
    let mut out = RowsCompared::default();
    let mut want = Vec::new();
    for (j, &end) in ends.iter().enumerate() {
        let line = &block[start..=end];
        start = end + 1;
        match wanted.next() {
            Some(row) if writer.matches(line, row) => {}
            Some(row) => {
                want.clear();
                writer.push(&mut want, row);
                let cr = line.strip_suffix(b"\r\n");
                if cr.is_some() && cr == want.strip_suffix(b"\n") {
                    out.crlf += 1;
                } else if line != want.as_slice() {
                    out.differences
                        .add_with(None, || row_difference(k + j, line, &want));
                }
            }
            None => out.more += 1,
        }
    }
    out
}

/// The rows the print records call for, for [`merge_rows`]: those from the next one
/// wanted on; every one, in claim order (`groups`, by the claim's first byte), to tell a
/// ticket's claim from no ticket's; and the tickets whose rows are held to no way
/// (`unheld`, sorted: see [`Unheld`]).
struct Wanted<'a, I: Iterator<Item = &'a validation_csv::Row>> {
    rest: std::iter::Peekable<I>,
    groups: &'a [Vec<validation_csv::Row>],
    unheld: &'a [Unheld],
}

impl<'a, I: Iterator<Item = &'a validation_csv::Row>> Wanted<'a, I> {
    /// True when some ticket's judged face calls for a row of claim `c`.
    fn has(&self, c: &Claim) -> bool {
        self.groups[usize::from(c[0])]
            .binary_search_by(|r| r.claim.cmp(c))
            .is_ok()
    }
}

/// Compares the lines of `block` from byte `start` that end at `ends`, rows `k` (0-based,
/// in claim order) on of `validation.csv`, with the rows `wanted`, by their claims: a row
/// whose claim no ticket has, a ticket's row out of its place and a ticket's row missing
/// from its place are each one finding, and the rows after them are held to the rows
/// they are (not one finding per row from there on, as a comparison by position would
/// give). A line whose claim cannot be read is held to the next row wanted. Returns the
/// findings and how many rows wanted were passed.
fn merge_rows<'a>(
    block: &[u8],
    mut start: usize,
    ends: &[usize],
    k: usize,
    mut wanted: Wanted<'a, impl Iterator<Item = &'a validation_csv::Row>>,
    writer: &validation_csv::RowWriter,
) -> (RowsCompared, usize) {
    let mut out = RowsCompared::default();
    let (mut used, mut want, mut last) = (0, Vec::new(), None);
    for (j, &end) in ends.iter().enumerate() {
        let line = &block[start..=end];
        start = end + 1;
        let claim = validation_csv::claim_of(line);
        let row_said = |why: &str| format!("row {} (in claim order): {why}", k + j + 1);
        // A row out of place, or of no ticket's claim, is held to no ticket's row: the rows
        // after it stay in step.
        let next = ends
            .get(j + 1)
            .and_then(|&e| validation_csv::claim_of(&block[end + 1..=e]));
        if let Some(why) = misplaced(claim, last, next) {
            out.differences.add_with(None, || row_said(why));
            continue;
        }
        if let Some(c) = claim.filter(|c| !wanted.has(c)) {
            out.differences
                .add_with(None, || no_tickets(c, k + j, wanted.unheld));
            continue;
        }
        last = claim.or(last);
        // The tickets' claims before this row's: rows missing from their place.
        while let (Some(c), Some(row)) = (claim, wanted.rest.peek()) {
            if row.claim >= c {
                break;
            }
            want.clear();
            writer.push(&mut want, row);
            out.differences.add_with(None, || {
                format!(
                    "no row {:?} in its place in claim order, before row {}",
                    String::from_utf8_lossy(want.strip_suffix(b"\n").unwrap_or(&want)),
                    k + j + 1
                )
            });
            wanted.rest.next();
            used += 1;
        }
        match wanted.rest.peek() {
            Some(row) if claim.is_some_and(|c| c < row.claim) => {
                out.differences.add_with(None, || {
                    row_said("a ticket's row out of its place in claim order (moved, or a copy)")
                })
            }
            Some(row) => {
                if !writer.matches(line, row) {
                    want.clear();
                    writer.push(&mut want, row);
                    let cr = line.strip_suffix(b"\r\n");
                    if cr.is_some() && cr == want.strip_suffix(b"\n") {
                        out.crlf += 1;
                    } else {
                        out.differences
                            .add_with(None, || row_difference(k + j, line, &want));
                    }
                }
                wanted.rest.next();
                used += 1;
            }
            // Past the last row wanted: a ticket's claim is a row out of its place.
            None if claim.is_some() => out.differences.add_with(None, || {
                row_said("a ticket's row out of its place in claim order (moved, or a copy)")
            }),
            None => out.more += 1,
        }
    }
    (out, used)
}

/// Why a row of claim `claim` is out of place between rows of claims `last` and `next`:
/// the claim of the row before (a second row for one ticket), or one past the next row's
/// while that one follows the row before (this row is the one out of order); `None` for
/// a row in order, or whose claim cannot be read.
fn misplaced(
    claim: Option<Claim>,
    last: Option<Claim>,
    next: Option<Claim>,
) -> Option<&'static str> {
    let c = claim?;
    if last == Some(c) {
        return Some("the claim of the row before: a second row for one ticket");
    }
    let n = next?;
    (n < c && last.is_none_or(|l| l < n))
        .then_some("out of claim order: its claim comes after the next row's")
}

/// The finding for row `k` (0-based, in claim order) of `validation.csv`, whose claim
/// `claim` no ticket's judged face calls for: the row of a ticket of `unheld` (sorted: the
/// tickets whose rows are held to no way, [`Unheld`]), or no ticket's.
fn no_tickets(claim: Claim, k: usize, unheld: &[Unheld]) -> String {
    let i = unheld.partition_point(|(u, ..)| *u < claim);
    let of = unheld.get(i).filter(|(u, ..)| *u == claim);
    match of {
        Some((_, t, Why::FaceCodes)) => format!(
            "row {} (in claim order): the row of ticket {t}, whose face cannot be judged (face_codes): its way and prize are not checked",
            k + 1
        ),
        Some((_, t, Why::NoWay)) => format!(
            "row {} (in claim order): the row of ticket {t}, whose face realises no way of the spec (way_recognised): its way and prize are not checked",
            k + 1
        ),
        None => format!(
            "row {} (in claim order): its claim is no ticket's (no serial and code of tickets.bin give it)",
            k + 1
        ),
    }
}

/// What the rows of `validation.csv` came to against the claims ([`compare_file`]).
struct FileCompared {
    /// The file, read to its end (or to a read error).
    src: HashingReader,
    /// Its last line had no `\n`.
    unterminated: bool,
    /// The rows it holds past its header.
    rows: u64,
    /// Rows the claims call for, and rows of those passed (held to a row, or found
    /// missing).
    claims: usize,
    passed: usize,
    /// Rows right but for a carriage return, and rows past the last claim.
    crlf: u64,
    more: u64,
}

/// Reads the rows of `validation.csv` left in `lines` on a thread of its own, which hashes
/// them, while `claims` are sorted; then compares each chunk of rows with the claims in
/// parallel (tasks of [`TASK_ROWS`] rows), their differences and a read error going to
/// `found` in file order. A chunk where a row differs is compared again by claims
/// ([`merge_rows`]), so that a missing or extra row is one finding and the rows after it
/// are held to their own claims. Errors: the reading thread cannot start.
fn compare_file(
    mut lines: Lines,
    (claims, unheld): (&mut validation_csv::Claims, &[Unheld]),
    writer: &validation_csv::RowWriter,
    found: &mut super::Findings,
) -> std::io::Result<FileCompared> {
    let (tx, rx) = sync_channel::<std::io::Result<Chunk>>(2);
    let (spare_tx, spare_rx) = channel::<Chunk>();
    let (mut k, mut passed, mut more, mut crlf_rows) = (0usize, 0usize, 0u64, 0u64);
    std::thread::scope(|s| {
        // Chunks of whole lines as read, each buffer filled again for a later chunk.
        let h = spawn_scoped(s, "the reader of validation.csv", move || {
            loop {
                match lines.chunk(spare_rx.try_recv().ok()) {
                    Ok(b) if b.is_empty() => break,
                    Ok(b) => {
                        if tx.send(Ok(b)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
            (lines.src, lines.unterminated)
        })?;
        claims.sort();
        let groups = claims.groups();
        let starts = group_starts(groups);
        for got in rx {
            let got = match got {
                Ok(b) => b,
                Err(e) => {
                    found.add(None, format!("{VALIDATION}: read error: {e}"));
                    break;
                }
            };
            let ends: Vec<usize> = memchr::memchr_iter(b'\n', &got).collect();
            let parts: Vec<RowsCompared> = (0..ends.len().div_ceil(TASK_ROWS))
                .into_par_iter()
                .map(|task| {
                    let from = task * TASK_ROWS;
                    let to = (from + TASK_ROWS).min(ends.len());
                    let start = if from == 0 { 0 } else { ends[from - 1] + 1 };
                    let wanted = rows_from(groups, &starts, passed + from);
                    compare_rows(&got, start, &ends[from..to], k + from, wanted, writer)
                })
                .collect();
            // Rows past those of the judged tickets are the rows held to no way, when some
            // faces cannot be judged or realise no way: merged, so that each is named.
            let in_step =
                |p: &RowsCompared| p.differences.count == 0 && (p.more == 0 || unheld.is_empty());
            let (parts, used) = if parts.iter().all(in_step) {
                let total = starts.last().copied().unwrap_or(0);
                (parts, ends.len().min(total.saturating_sub(passed)))
            } else {
                let wanted = Wanted {
                    rest: rows_from(groups, &starts, passed).peekable(),
                    groups,
                    unheld,
                };
                let (p, used) = merge_rows(&got, 0, &ends, k, wanted, writer);
                (vec![p], used)
            };
            for p in parts {
                found.merge(p.differences);
                crlf_rows += p.crlf;
                more += p.more;
            }
            k += ends.len();
            passed += used;
            let _ = spare_tx.send(got);
        }
        let (src, unterminated) = h.join().expect("validation reader panicked");
        Ok(FileCompared {
            src,
            unterminated,
            rows: k as u64,
            claims: starts.last().copied().unwrap_or(0),
            passed,
            crlf: crlf_rows,
            more,
        })
    })
}

/// Checks `validation.csv` against the rows the print records call for (`claims`: each
/// ticket's claim from its serial and code, and its evaluated way; then the claims and
/// tickets of the faces that cannot be judged): the header, then every row in claim
/// order, byte for byte; reads at most `limit` bytes. Findings go to
/// [`CheckId::ValidationFile`]. Returns the file's size and SHA-256 as read. Errors: a
/// thread cannot start.
///
/// A thread of its own reads the file in chunks of whole lines and hashes it, while the
/// claims are sorted; the rows of each chunk are compared in parallel, their findings
/// kept in file order.
fn check_validation_file(
    file: Box<dyn Chunked>,
    spec: &GameSpec,
    (mut claims, mut unheld): (validation_csv::Claims, Vec<Unheld>),
    limit: u64,
    checks: &mut Checks,
) -> std::io::Result<(u64, String)> {
    let mut lines = Lines {
        src: HashingReader::new(file, &[]).limit(limit),
        carry: Vec::new(),
        unterminated: false,
    };
    let mut found = super::Findings::default();
    let head = lines.lines(1).unwrap_or_default();
    if head != validation_csv::header(spec) {
        found.add(
            None,
            format!(
                "{VALIDATION} header {:?}, expected {:?}{}",
                String::from_utf8_lossy(head.strip_suffix(b"\n").unwrap_or(&head)),
                String::from_utf8_lossy(&validation_csv::header(spec)).trim_end(),
                crlf_note(&head)
            ),
        );
    }
    let writer = validation_csv::RowWriter::new(spec);
    unheld.sort_unstable();
    let FileCompared {
        src,
        unterminated,
        rows,
        claims: n_claims,
        passed,
        crlf: crlf_rows,
        more,
    } = compare_file(lines, (&mut claims, &unheld), &writer, &mut found)?;
    if crlf_rows > 0 {
        found.add(None, crlf(VALIDATION, crlf_rows));
    }
    if unterminated {
        found.add(None, unterminated_line(VALIDATION));
    }
    if more > 0 {
        found.add(
            None,
            format!(
                "{VALIDATION} has {} past the last row the tickets of tickets.bin call for",
                super::counted(more, "row", "rows")
            ),
        );
    }
    if passed < n_claims {
        found.add(
            None,
            format!(
                "{VALIDATION} ends without the last {} the tickets of tickets.bin call for, in claim order",
                match n_claims - passed {
                    1 => "row".to_string(),
                    n => super::counted(n as u64, "row", "rows"),
                }
            ),
        );
    }
    let (n, h, truncated) = src.finish();
    if truncated {
        found.add(None, format!("{VALIDATION} goes on past what the block holds: only the first {n} bytes were read"));
    }
    // One row per record of tickets.bin, whose faces are judged or not.
    let records = (n_claims + unheld.len()) as u64;
    if rows != records && !truncated {
        add(
            checks,
            CheckId::RecordCount,
            None,
            format!(
                "{VALIDATION} has {}, tickets.bin {}",
                super::counted(rows, "row", "rows"),
                super::counted(records, "record", "records")
            ),
        );
    }
    if found.count > 0 {
        checks
            .entry(CheckId::ValidationFile)
            .or_default()
            .merge(found);
    }
    Ok((n, h))
}

/// Checks `validation.csv` (`val`; a finding when it could not be opened) against
/// `claims` (the rows the judged faces call for, and the claims and tickets of the faces
/// that cannot be judged) while `codes` are sorted, then counts the codes that appear more than once
/// (a finding of [`CheckId::ValidationCodes`]). Returns the file's size and SHA-256 as
/// read, when it was opened. Errors: a thread cannot start.
fn validation_and_codes(
    val: Option<crate::output::seal::Opened>,
    spec: &GameSpec,
    claims: (validation_csv::Claims, Vec<Unheld>),
    limit: u64,
    codes: &mut [u64],
    checks: &mut Checks,
) -> std::io::Result<Option<(u64, String)>> {
    let opened = val.is_some();
    let (read, ()) = rayon::join(
        || val.map(|val| check_validation_file(val.reader, spec, claims, limit, checks)),
        // One thread's sort beside the file's check: less work than a parallel sort.
        || codes.sort_unstable(),
    );
    if !opened {
        add(
            checks,
            CheckId::ValidationFile,
            None,
            format!("{VALIDATION} cannot be read"),
        );
    }
    let dups = codes.windows(2).filter(|w| w[0] == w[1]).count();
    if dups > 0 {
        let said = match dups {
            1 => "1 validation code is a copy of another ticket's".to_string(),
            n => format!("{n} validation codes are copies of other tickets'"),
        };
        add(checks, CheckId::ValidationCodes, None, said);
    }
    read.transpose()
}

/// The record-by-record pass over the three ticket files. Errors: a thread cannot start.
fn check_tickets(
    dir: &Path,
    ids: &Identities,
    spec: &GameSpec,
    expect: Option<Expect>,
    promised: &HashSet<u32>,
    checks: &mut Checks,
    progress: &(dyn Fn(u64) + Sync),
) -> std::io::Result<TicketRun> {
    let mut run = TicketRun::default();
    // The encrypted files as delivered are summed from the same open files the plaintexts
    // are decrypted from, and their digests taken whenever the pass stops.
    let mut sealed: Vec<(String, DeliveredSum)> = Vec::new();
    let csv = open_file(dir, CSV, ids, &mut sealed, checks);
    let bin = open_file(dir, BIN, ids, &mut sealed, checks);
    let (Some(csv), Some(bin)) = (csv, bin) else {
        run.expect = expect;
        delivered_sums(&mut run, &sealed);
        return Ok(run);
    };
    // The bytes present bound what the print file can hold (an encrypted file is a little
    // longer than its plaintext).
    let bin_len = std::fs::metadata(dir.join(&bin.delivered)).map_or(0, |m| m.len());
    let print = match print_file_of(bin.reader, bin_len, spec, expect, checks) {
        Ok(p) => p,
        Err(expect) => {
            run.expect = expect;
            delivered_sums(&mut run, &sealed);
            return Ok(run);
        }
    };
    let text_limit = text_limit(print.expect.tickets, spec);
    let csv = csv_lines(csv.reader, text_limit, spec, checks);
    let ctx = Ctx {
        spec,
        block: print.expect.block,
        ncols: spec.game.layout().columns.len(),
        captions: caption_table(spec),
        promised,
    };
    let PrintFile {
        bin,
        head_len,
        rec,
        records,
        expect,
    } = print;
    let (mut total, claims, read) =
        ticket_pass(&ctx, csv, bin, rec, expect.tickets.min(records), progress)?;
    file_ends(read, expect.tickets, head_len, rec, &mut run, checks);
    count_findings(&total, expect.tickets, checks);
    let mut codes = std::mem::take(&mut total.codes);
    let validation = open_file(dir, VALIDATION, ids, &mut sealed, checks);
    let claims = (claims, std::mem::take(&mut total.unheld));
    run.unjudged = claims.1.iter().filter(|u| u.2 == Why::FaceCodes).count() as u64;
    let read = validation_and_codes(validation, spec, claims, text_limit, &mut codes, checks)?;
    if let Some(read) = read {
        run.hashes.push((VALIDATION.into(), read));
    }
    for (id, f) in std::mem::take(&mut total.checks) {
        checks.entry(id).or_default().merge(f);
    }
    run.codes = codes;
    run.tickets = total.tickets;
    run.ways = std::mem::take(&mut total.ways);
    run.features = std::mem::take(&mut total.features);
    // The features no play area showed are left out, as though never counted.
    run.losing = (0..)
        .zip(std::mem::take(&mut total.losing))
        .filter(|(_, (areas, _))| *areas > 0)
        .map(|(id, e)| (FeatureId(id), e))
        .collect();
    run.promised = total
        .promised
        .drain(..)
        .map(|(t, w, names)| (t, (w, names)))
        .collect();
    run.leakage = Some(std::mem::replace(&mut total.leakage, Tally::new(1)));
    run.payout = total.payout;
    run.counts = Some(total.counts);
    run.expect = Some(expect);
    delivered_sums(&mut run, &sealed);
    Ok(run)
}

/// Opens ticket file `name` of `dir` (in clear, or decrypted with `ids`); an encrypted
/// one's delivered digest is summed into `sealed` as it is read. `None` (a
/// [`CheckId::RecordCount`] finding) when it cannot be opened.
fn open_file(
    dir: &Path,
    name: &str,
    ids: &Identities,
    sealed: &mut Vec<(String, DeliveredSum)>,
    checks: &mut Checks,
) -> Option<crate::output::seal::Opened> {
    match crate::output::seal::open(dir, name, ids) {
        Ok(o) => {
            if let Some(d) = &o.sealed {
                sealed.push((o.delivered.clone(), d.clone()));
            }
            Some(o)
        }
        Err(e) => {
            add(
                checks,
                CheckId::RecordCount,
                None,
                format!("cannot open {name}: {e}"),
            );
            None
        }
    }
}

/// The print file past its header, ready for the record pass.
struct PrintFile {
    /// Its records, never read past one record more than the block holds.
    bin: HashingReader,
    /// Bytes of the header the spec gives.
    head_len: usize,
    /// Bytes per record.
    rec: usize,
    /// The whole records the bytes present can hold.
    records: u64,
    /// What the block must be (from the manifest, else from the header's block number).
    expect: Expect,
}

/// Reads the header of the print file `bin` (`bin_len` bytes on the disk) and checks it
/// against the one `spec` gives for the block `expect` describes (a production block of
/// the header's number when `None`): a finding of [`CheckId::PrintHeader`] when it
/// differs. Errors: what the block must be, as far as known, when the records cannot be
/// read (no header, or records of another size).
fn print_file_of(
    bin: Box<dyn Chunked>,
    bin_len: u64,
    spec: &GameSpec,
    expect: Option<Expect>,
    checks: &mut Checks,
) -> Result<PrintFile, Option<Expect>> {
    let mut bin = HashingReader::new(bin, &[]);
    let mut head = Vec::new();
    let _ = bin.read(&mut head, 30);
    let header = match print_file::read_header(&head) {
        Ok(h) => h,
        Err(e) => {
            add(checks, CheckId::PrintHeader, None, e);
            return Err(expect);
        }
    };
    let expect = expect.unwrap_or_else(|| Expect::production(spec, header.block));
    let want_head = print_file::header(spec, expect.block, expect.tickets as u32);
    if header.header_size > 30 && header.header_size < (1 << 24) {
        let _ = bin.read(&mut head, header.header_size - 30);
    }
    let rec = print_file::record_size(spec);
    let bin_records = bin_len.saturating_sub(want_head.len() as u64) / rec.max(1) as u64;
    // Never read past one record more than the block holds (a huge or endless file).
    let read_so_far = head.len() as u64;
    let bin = bin.limit(
        (want_head.len() as u64 + (expect.tickets + 1) * rec as u64).saturating_sub(read_so_far),
    );
    if head != want_head {
        let got = print_file::read_header(&head).ok();
        let want = print_file::read_header(&want_head).expect("own header");
        let detail = match got {
            Some(g) if g != want => g.differences(&want),
            _ if head.len() < want_head.len() => format!(
                "the file ends inside its header: {} bytes of the {} the spec gives",
                head.len(),
                want_head.len()
            ),
            _ => match print_file::dictionary_difference(spec, &head) {
                Some(at) => {
                    format!("the column dictionaries differ from the spec's, first at {at}")
                }
                None => "the column dictionaries differ from the spec's".into(),
            },
        };
        add(checks, CheckId::PrintHeader, None, detail);
        if header.record_size != rec || header.header_size != want_head.len() {
            return Err(Some(expect));
        }
    }
    Ok(PrintFile {
        bin,
        head_len: want_head.len(),
        rec,
        records: bin_records,
        expect,
    })
}

/// The most bytes read of either CSV of a block of `tickets` tickets of `spec`. A row is its fixed fields (well under 4 KiB) and one cell per face column (a
/// symbol, amount or caption, well under 1 KiB even quoted), so the bound holds however big
/// the game's face, and a file going on past it is a finding.
fn text_limit(tickets: u64, spec: &GameSpec) -> u64 {
    (tickets + 2) * (4096 + spec.game.layout().columns.len() as u64 * 1024)
}

/// The lines of `tickets.csv` (`csv`, at most `limit` bytes read), its header line read
/// and checked against the documented one: a finding of [`CheckId::CsvHeader`] when it
/// differs.
fn csv_lines(csv: Box<dyn Chunked>, limit: u64, spec: &GameSpec, checks: &mut Checks) -> Lines {
    let mut lines = Lines {
        src: HashingReader::new(csv, &[]).limit(limit),
        carry: Vec::new(),
        unterminated: false,
    };
    let want = tickets_csv::header(spec);
    let got = lines.lines(1).unwrap_or_default();
    if got != want {
        add(
            checks,
            CheckId::CsvHeader,
            None,
            // Only the line's end is dropped: a carriage return before it stays visible.
            format!(
                "{CSV} header {:?}, expected {:?}{}",
                String::from_utf8_lossy(got.strip_suffix(b"\n").unwrap_or(&got)),
                String::from_utf8_lossy(want.strip_suffix(b"\n").unwrap_or(&want)),
                crlf_note(&got)
            ),
        );
    }
    lines
}

/// What the reader read of `tickets.csv` and `tickets.bin`: each file's size, hex SHA-256
/// and whether it went on past its limit, and whether tickets.csv's last line had no
/// `\n`; or the read error.
type FilesRead = std::io::Result<([(u64, String, bool); 2], bool)>;

/// Checks every ticket: a reader thread hands batches of CSV lines and print records
/// (`rec` bytes each) to checker tasks in parallel, whose findings and tallies are merged
/// in print order; `progress` hears of every batch. Returns the merged tally (room made
/// for `reserve` tickets), the validation rows the print records call for (not yet in
/// file order) and what the reader read of `tickets.csv` and `tickets.bin` (bytes, hex
/// SHA-256, truncated), or its error. Errors: the reader thread cannot start.
fn ticket_pass(
    ctx: &Ctx,
    csv: Lines,
    bin: HashingReader,
    rec: usize,
    reserve: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> std::io::Result<(Acc, validation_csv::Claims, FilesRead)> {
    let spec = ctx.spec;
    let (tx, rx) = channel::<Event>();
    let (spare_tx, spare_rx) = channel::<Batch>();
    let mut total = Acc::new(spec.ways.len(), spec.pack_size);
    // The records the print file can hold, whatever the manifest declares.
    total.ways.reserve(reserve as usize);
    let mut claims = validation_csv::Claims::with_capacity(reserve as usize);
    // Escaped once; each task renders into its own clone.
    let row_writer = tickets_csv::RowWriter::new(spec);
    let reader_result = std::thread::scope(|s| {
        let to_driver = tx.clone();
        let h = spawn_scoped(s, "the reader of the ticket files", move || {
            // The end is said however the reader stops, even by a panic.
            struct End(Sender<Event>);
            impl Drop for End {
                fn drop(&mut self) {
                    let _ = self.0.send(Event::End);
                }
            }
            let end = End(to_driver);
            reader(csv, bin, rec, &end.0, spare_rx)
        })?;
        rayon::scope(|rs| {
            let rx = rx;
            let mut batches = Checking::default();
            let mut ended = false;
            while !(ended && batches.is_empty()) {
                // Whatever came, then a task to run, else a wait for what comes next.
                let event = match rx.try_recv() {
                    Ok(e) => Some(e),
                    Err(_) => match rayon::yield_now() {
                        Some(rayon::Yield::Executed) => None,
                        _ => rx.recv().ok(),
                    },
                };
                match event {
                    Some(Event::Batch(batch)) => {
                        let batch = std::sync::Arc::new(batch);
                        let n = batch.tickets(rec);
                        let tasks = n.div_ceil(TASK_TICKETS);
                        let number = batches.start(tasks, n, batch.clone());
                        for task in 0..tasks {
                            let (batch, tx, rows) = (batch.clone(), tx.clone(), &row_writer);
                            rs.spawn(move |_| {
                                let acc = ctx.check_task(&batch, task, rec, rows);
                                // The batch goes back to the reader once every task let it go.
                                drop(batch);
                                let _ = tx.send(Event::Checked(number, task, Box::new(acc)));
                            });
                        }
                    }
                    Some(Event::Checked(number, task, acc)) => {
                        batches.checked(number, task, *acc);
                    }
                    Some(Event::End) => ended = true,
                    // A task was run here.
                    None => {}
                }
                // Merged in file order, batch after batch; a batch of no task (a print
                // file's last partial record alone) at once.
                while let Some((accs, n, batch)) = batches.next_done() {
                    for a in accs {
                        claims.extend(&a.claims);
                        total.merge(a);
                    }
                    progress(batch.first + n as u64);
                    if let Ok(b) = std::sync::Arc::try_unwrap(batch) {
                        let _ = spare_tx.send(b);
                    }
                }
            }
        });
        Ok::<_, std::io::Error>(h.join().expect("reader thread panicked"))
    })?;
    Ok((total, claims, reader_result))
}

/// The batches being checked, in file order: each one's tasks' tallies as they come back.
#[derive(Default)]
struct Checking {
    /// Per batch: a tally per task (`None` until it is back), the tickets, the batch.
    open: std::collections::VecDeque<(Vec<Option<Acc>>, usize, std::sync::Arc<Batch>)>,
    /// The number of the batch in front of `open`.
    front: usize,
}

impl Checking {
    /// A batch of `tasks` tasks and `n` tickets given out; returns its number.
    fn start(&mut self, tasks: usize, n: usize, batch: std::sync::Arc<Batch>) -> usize {
        self.open
            .push_back(((0..tasks).map(|_| None).collect(), n, batch));
        self.front + self.open.len() - 1
    }

    /// Task `task` of batch `number` came back with `acc`.
    fn checked(&mut self, number: usize, task: usize, acc: Acc) {
        self.open[number - self.front].0[task] = Some(acc);
    }

    /// The batch in front when every task of it is back: its tallies in task order, its
    /// tickets and the batch.
    fn next_done(&mut self) -> Option<(Vec<Acc>, usize, std::sync::Arc<Batch>)> {
        if !self.open.front()?.0.iter().all(Option::is_some) {
            return None;
        }
        let (accs, n, batch) = self.open.pop_front()?;
        self.front += 1;
        Some((accs.into_iter().flatten().collect(), n, batch))
    }

    /// True when no batch is being checked.
    fn is_empty(&self) -> bool {
        self.open.is_empty()
    }
}

/// The finding for `file` whose last line has no line feed.
fn unterminated_line(file: &str) -> String {
    format!("{file} does not end with a line feed: its last line stops short of the \"\\n\" tirage ends every line with (the file was cut, or saved by a program that drops it)")
}

/// The findings on how `tickets.csv` and `tickets.bin` end, from what the reader `read`
/// (bytes, hex SHA-256, truncated per file; tickets.csv's last line without its `\n`): a
/// file longer than a block of `tickets`
/// holds, a print file that is not its header (`head_len` bytes) and whole records of
/// `rec` bytes. Their digests go to `run.hashes`.
fn file_ends(
    read: FilesRead,
    tickets: u64,
    head_len: usize,
    rec: usize,
    run: &mut TicketRun,
    checks: &mut Checks,
) {
    match read {
        Ok((files, unterminated)) => {
            if unterminated {
                add(
                    checks,
                    CheckId::CsvMatchesPrint,
                    None,
                    unterminated_line(CSV),
                );
            }
            for ((n, h, truncated), name) in files.into_iter().zip([CSV, BIN]) {
                if truncated {
                    add(
                        checks,
                        CheckId::RecordCount,
                        None,
                        format!("{name} goes on past what a block of {} tickets holds: only the first {n} bytes were read", tickets),
                    );
                }
                // The print file is exactly its header and whole records.
                let part = n.saturating_sub(head_len as u64) % rec as u64;
                if name == BIN && !truncated && part != 0 {
                    add(
                        checks,
                        CheckId::RecordCount,
                        None,
                        format!("tickets.bin is {} bytes: its header and whole records of {rec} bytes, then {} more", crate::money::grouped(n), super::counted(part, "byte", "bytes")),
                    );
                }
                run.hashes.push((name.into(), (n, h)));
            }
        }
        Err(e) => add(
            checks,
            CheckId::RecordCount,
            None,
            format!("read error: {e}"),
        ),
    }
}

/// The findings on the counts of the pass `total` over a block of `tickets`: records
/// against tickets, CRLF line ends, rows of `tickets.csv` more or fewer than records.
fn count_findings(total: &Acc, tickets: u64, checks: &mut Checks) {
    if total.tickets != tickets {
        add(
            checks,
            CheckId::RecordCount,
            None,
            format!(
                "tickets.bin holds {}, the block has {}",
                super::counted(total.tickets, "record", "records"),
                super::counted(tickets, "ticket", "tickets")
            ),
        );
    }
    if total.crlf_csv.0 > 0 {
        add(
            checks,
            CheckId::CsvMatchesPrint,
            total.crlf_csv.1.map(|t| t as u32),
            crlf(CSV, total.crlf_csv.0),
        );
    }
    for (c, what) in [(total.extra_csv, "more"), (total.missing_csv, "fewer")] {
        if c.0 > 0 {
            add(
                checks,
                CheckId::RecordCount,
                c.1.map(|t| t as u32),
                format!(
                    "tickets.csv has {} {what} than tickets.bin",
                    super::counted(c.0, "row", "rows")
                ),
            );
        }
    }
}

/// The digests of the encrypted files as delivered, summed as they were decrypted, into
/// `run.hashes` (a file that cannot be read to its end gets none: it then reads as
/// unreadable to the digest checks).
fn delivered_sums(run: &mut TicketRun, sealed: &[(String, DeliveredSum)]) {
    for (name, d) in sealed {
        if let Ok(h) = d.finish() {
            run.hashes.push((name.clone(), h));
        }
    }
}
