//! Generation of one block: allocation and validation codes → faces (in parallel, one
//! ChaCha20 stream per pack) rendered as print records → `tickets.bin` and `tickets.csv`
//! (its rows rendered from those records), each made and hashed by a writer thread, and
//! alongside them `validation.csv` (made from the codes and ways alone) → `manifest.json`
//! → `SHA256SUMS`, every file handed to a [`Sink`]. One road: a [`BlockPlan`] (spec, seed, block number and
//! options) goes through [`build`] into a sink — a [`Folder`] for a block, a deck or an
//! emission's block, [`Digests`] for the replay of `verify`.
//!
//! [`place()`] writes into a temporary directory beside the destination and moves it into
//! place only when complete, so a block directory that exists is always whole. Packs are
//! built in batches, in parallel, and written in pack order: the bytes never depend on the
//! number of threads. Every face is evaluated by the rules before it is written; a face the
//! evaluator does not judge as its way (or finds ambiguous) stops the run.

pub mod cancel;
pub mod emission;
pub mod place;
mod sink;
mod spare;

use crate::alloc::{allocate_packs, tally};
use crate::block::layout::{BIN, CSV, MANIFEST, SEALED_SUFFIX, SPEC, SUMS, SUMS_SIG, VALIDATION};
use crate::block::serial::PackSerials;
use crate::block::{place_promises, Composition, Judgement, Kind, Promise, Provenance};
use crate::crypto::rng::{stream, Purpose, Seed};
use crate::crypto::sign::Signer;
use crate::crypto::validation::{ValidationKey, Validator};
use crate::generate::cancel::Cancel;
pub use crate::generate::place::{
    check_block_or_nothing, check_destination, check_not_in_emission, existing_block, Held,
    LeftOver, PlaceError, Placed, SeedPlacement, Staged,
};
use crate::output::hashing::Sum;
use crate::output::manifest::{self, FileEntry, Manifest, PromisedFeature};
use crate::output::seal::Recipients;
use crate::output::{print_file, sums, tickets_csv, validation_csv};
use crate::spec::{GameSpec, PackRules, WayId};
use crate::store::durable;
use crate::styles::{Face, FeatureId};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use spare::Spare;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::thread;

pub use sink::{Digests, Folder, Sink, Stream};

/// Groups of claims (of 256: a coq block's 8 groups are about 5.4 MB of text) rendered in
/// parallel and handed to the writer of `validation.csv` at once.
const VALIDATION_GROUPS: usize = 8;

/// Packs whose claims are made per batch (a coq block's batch of 1 024 packs is 2.8 MB of
/// rows) before they go to their groups.
const CLAIM_PACKS: u32 = 1024;

/// Validation codes made per task: enough for FF1's batches of 256 to fill.
const CODE_CHUNK: usize = 4096;

/// Packs built per batch (the unit handed to the writers).
const BATCH_PACKS: u32 = 128;

/// Buffers of print records kept for reuse: those of the batches in flight (two waiting,
/// one being written, one being built).
const SPARE_BUFFERS: usize = 4 * BATCH_PACKS as usize;

impl GenerateError {
    /// The run was interrupted ([`GenerateError::Interrupted`], also as the cause of an
    /// incomplete emission).
    pub fn is_interrupted(&self) -> bool {
        match self {
            GenerateError::Interrupted => true,
            GenerateError::EmissionIncomplete { cause, .. } => cause.is_interrupted(),
            _ => false,
        }
    }
}

/// Why a block could not be generated. Nothing is left at the destination on any of them.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// A part of an emission failed: no block of it was put in place, and the blocks and
    /// `emission.json` already at the destination are as they were.
    #[error("{at} of the emission: {cause}; nothing of the emission was put in place")]
    EmissionIncomplete {
        /// What failed: `block N` or the emission manifest.
        at: String,
        /// Why it failed.
        cause: Box<GenerateError>,
    },
    /// The run was asked to stop (its plan's [`Cancel`] token set: Ctrl-C, SIGTERM) before
    /// its output was complete.
    #[error("interrupted: nothing was written, and what was at the destination is as it was")]
    Interrupted,
    /// Where the output goes, or its move there (see [`mod@crate::generate::place`]).
    #[error(transparent)]
    Place(#[from] PlaceError),
    /// A file could not be created, written or moved.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// A production block was asked for without the emission's validation key, which its
    /// validation codes are made with.
    #[error("a production block needs the emission's validation key (--validation-key FILE, 64 hex digits; `tirage seed new --out FILE` makes one)")]
    NoValidationKey,
    /// A ticket file could not be encrypted to its recipients.
    #[error("{0}")]
    Seal(String),
    /// The signature of `SHA256SUMS` could not be made.
    #[error("cannot sign SHA256SUMS: {0}")]
    Sign(String),
    /// The block number does not fit in a serial (0 is reserved for specimen decks).
    #[error("block {0} is out of range: expected 1..=999")]
    Block(u32),
    /// Allocation could not meet the spec's pack constraints.
    #[error("{0}")]
    PackRules(crate::alloc::PackError),
    /// The game could not build a face for a way: a bug or an infeasible spec.
    #[error("ticket {ticket}: cannot build a face for way \"{way}\": {message}")]
    Synthesis {
        /// Ticket, 1-based.
        ticket: u32,
        /// Way id.
        way: String,
        /// The game's reason.
        message: String,
    },
    /// A specimen deck promises more features on a way than it holds tickets of it.
    #[error(transparent)]
    Promises(#[from] crate::block::TooManyPromises),
    /// The evaluator does not judge a synthesized face as its way: a bug, never retried.
    #[error("ticket {ticket}: the face built for way \"{way}\" is judged {judged} by the rules")]
    Disagreement {
        /// Ticket, 1-based.
        ticket: u32,
        /// Way id assigned.
        way: String,
        /// What the evaluator found.
        judged: String,
    },
}

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> GenerateError + '_ {
    move |error| GenerateError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Builds the faces of one pack and renders its print records.
struct PackBuilder<'a> {
    plan: &'a BlockPlan<'a>,
    seed: &'a Seed,
    /// The validation code of every ticket (index: ticket, 0-based).
    codes: &'a [u64],
    ways: &'a [WayId],
    /// Per ticket index (0-based): the features promised on it, each with `true` when the
    /// ticket is built asked to show it. Empty for production blocks.
    promised: &'a HashMap<u32, Vec<(FeatureId, bool)>>,
}

impl PackBuilder<'_> {
    /// The print records of pack `pack` (0-based), its faces built and judged, appended to
    /// `out`.
    fn records(&self, pack: u32, out: &mut Vec<u8>) -> Result<(), GenerateError> {
        let (spec, block) = (self.plan.spec, self.plan.block);
        let mut rng = stream(self.seed, Purpose::Faces, block, u64::from(pack));
        let first = pack * spec.pack_size;
        let last = (first + spec.pack_size).min(self.plan.tickets());
        let serials = PackSerials::new(
            spec.game_code,
            spec.emission,
            block,
            pack + 1,
            spec.pack_size,
        );
        let codes = &self.codes[first as usize..last as usize];
        let ncols = spec.game.layout().columns.len();
        let mut judged = Judgement::default();
        // Every ticket's face is drawn into the same place.
        let mut face = Face::default();
        for (i, &validation) in (first..last).zip(codes) {
            let way_id = self.ways[i as usize];
            let way = &spec.ways[way_id as usize];
            let synthesis = |message| GenerateError::Synthesis {
                ticket: i + 1,
                way: way.id.clone(),
                message,
            };
            // Production blocks promise nothing: no lookup per ticket.
            let promised = if self.promised.is_empty() {
                None
            } else {
                self.promised.get(&i)
            };
            let asked = promised.and_then(|v| v.iter().find(|p| p.1)).map(|p| p.0);
            match asked {
                None => spec.game.synthesize_way_into(way_id, &mut rng, &mut face),
                Some(id) => {
                    face = spec
                        .game
                        .synthesize_showing_checked(way, id, &mut rng)
                        .map_err(|e| synthesis(e.to_string()))?
                }
            }
            judged.judge(spec, &face);
            judged
                .realises(spec, way_id)
                .map_err(|judged| GenerateError::Disagreement {
                    ticket: i + 1,
                    way: way.id.clone(),
                    judged,
                })?;
            if let Some(v) = promised {
                let ev = &judged.evaluation;
                if let Some(&(id, _)) = v.iter().find(|&&(id, _)| !ev.shows(id)) {
                    return Err(synthesis(format!(
                        "the face does not show the feature \"{}\" the deck promises on it",
                        spec.game.feature_name(id)
                    )));
                }
            }
            let position = i - first + 1;
            print_file::push(
                out,
                [i + 1, pack + 1, position],
                &serials.at(position),
                validation,
                &face.codes[..ncols],
            );
        }
        Ok(())
    }
}

/// The print records of a batch of packs and the way of each of their tickets: what the
/// writers of `tickets.bin` and `tickets.csv` make their files from.
struct Packs {
    /// The batch's first pack (0-based).
    first: u32,
    /// The records of each pack, in pack order.
    records: Vec<Vec<u8>>,
    /// The way of each ticket of the batch, in print order.
    ways: Vec<WayId>,
}

impl Packs {
    /// Gives the batch's buffers to `spare` when `packs` is its last holder (the writer of
    /// `tickets.bin` or of `tickets.csv`, whichever is done with it last).
    fn release(packs: Arc<Packs>, spare: &Spare) {
        if let Some(p) = Arc::into_inner(packs) {
            spare.give(p.records);
        }
    }
}

/// What a writer hands the bytes of its file to, piece by piece, in order: the file's
/// stream and the sum of what went to it.
struct Put<'a> {
    stream: &'a mut dyn Stream,
    sum: &'a mut Sum,
}

impl Put<'_> {
    /// Hashes `buf`, then writes it after what was put before. Errors: the write's.
    fn put(&mut self, buf: &[u8]) -> Result<(), GenerateError> {
        self.sum.update(buf);
        self.stream.write(buf)
    }

    /// Writes pieces in place in the file's own buffer, when it has one ([`Stream::buffer`]):
    /// `fill` gets the room ([`DirectFile::room`]: the buffer and how many bytes of it
    /// come before its chunk's end) and returns how many bytes it wrote there, 0 when it
    /// has no more; they are hashed and counted. Returns false, having called nothing,
    /// when the file has no buffer of its own (the caller then uses [`Put::put`]).
    /// Errors: a write's.
    fn in_place(
        &mut self,
        mut fill: impl FnMut(&mut [u8], usize) -> usize,
    ) -> Result<bool, GenerateError> {
        let Some((file, path)) = self.stream.buffer() else {
            return Ok(false);
        };
        loop {
            let (room, before) = file.room().map_err(io(path))?;
            let n = fill(room, before);
            if n == 0 {
                return Ok(true);
            }
            self.sum.update(&room[..n]);
            file.advance(n);
        }
    }
}

/// What a writer thread made: the plaintext's size and hex SHA-256, and, for a file
/// encrypted to its recipients, the delivered file's.
struct Written {
    bytes: u64,
    sha256: String,
    sealed: Option<(u64, String)>,
}

/// A ticket file being put into its sink by its own thread, hashed as it goes.
struct HashedFile {
    handle: thread::JoinHandle<Result<Written, GenerateError>>,
}

impl HashedFile {
    /// Spawns the writer of `stream`: it puts `head`, then every batch received, by
    /// `render`, which hands the batch's bytes, in order, to a [`Put`] that hashes then
    /// writes each piece while it is still in the core's cache (a pack's rows are tens of
    /// kilobytes, a batch megabytes), or has them written in place. Errors:
    /// [`GenerateError::Io`] of `name`, the file, when the thread cannot start.
    fn spawn<B: Send + 'static>(
        name: &str,
        mut stream: Box<dyn Stream>,
        head: Vec<u8>,
        rx: Receiver<B>,
        mut render: impl FnMut(B, &mut Put) -> Result<(), GenerateError> + Send + 'static,
    ) -> Result<HashedFile, GenerateError> {
        let handle = crate::store::thread::spawn("its writer", move || {
            let mut sum = Sum::default();
            let mut put = Put {
                stream: &mut *stream,
                sum: &mut sum,
            };
            put.put(&head)?;
            for batch in rx {
                render(batch, &mut put)?;
            }
            let sealed = stream.finish()?;
            let (bytes, sha256) = sum.finish();
            Ok(Written {
                bytes,
                sha256,
                sealed,
            })
        })
        .map_err(io(Path::new(name)))?;
        Ok(HashedFile { handle })
    }

    fn finish(self) -> Result<Written, GenerateError> {
        self.handle.join().expect("writer thread panicked")
    }
}

/// Permission bits of a block's files unless told otherwise: readable by their owner only,
/// since `tickets.csv` and `validation.csv` say which tickets win.
pub const DEFAULT_MODE: u32 = 0o600;

/// What to generate: a block of a spec, its kind, and the exact count of every way.
#[derive(Clone)]
pub struct BlockPlan<'a> {
    /// The game.
    pub spec: &'a GameSpec,
    /// The seed every stream and a specimen deck's validation codes are drawn from.
    pub seed: &'a Seed,
    /// Block number: 1..=999 for production, 0 for a specimen deck.
    pub block: u32,
    /// Production or specimen.
    pub kind: Kind,
    /// Tickets of every way (index = way id); they sum to the block's tickets.
    pub counts: Vec<u32>,
    /// Pack constraints honoured by the allocation (the spec's for production, none for a
    /// specimen deck).
    pub rules: PackRules,
    /// A default specimen deck's promised features (recorded in the manifest with their
    /// tickets); `None` for production blocks and proportional decks.
    pub promises: Option<Vec<Promise>>,
    /// A specimen deck's composition, recorded in its manifest (`None`: a production block).
    pub composition: Option<Composition>,
    /// The emission's validation key, which a production block's codes are made with (its
    /// own secret, never derived from the seed); `None` for a specimen deck.
    pub validation_key: Option<&'a ValidationKey>,
    /// True when that key was derived from the seed ([`ValidationKey::from_seed`]), not
    /// given as a secret of its own; the manifest records it.
    pub validation_key_from_seed: bool,
    /// The key `SHA256SUMS` is signed with (`SHA256SUMS.minisig`); `None`: unsigned.
    pub signer: Option<&'a Signer>,
    /// Permission bits of the block's files (default 0o600, owner only); the directory
    /// gets the same plus search where read is given (0o700).
    pub mode: u32,
    /// The recipients each ticket file is encrypted to ([`crate::output::seal`]); `None`: in clear.
    pub recipients: Option<&'a Recipients>,
    /// Set, it stops the run between two batches of packs: it then fails with
    /// [`GenerateError::Interrupted`] and what it staged is removed. Once an output is being
    /// put in place, that step finishes first.
    pub cancel: Cancel,
    /// What the manifest records of the seed and the tool ([`Provenance`]); by default no
    /// seed shares and this build's identity.
    pub provenance: &'a Provenance,
    /// Called with the number of tickets done so far, after every batch of packs.
    pub progress: &'a (dyn Fn(u64) + Sync),
}

/// The provenance of a plan that records none: no seed shares, this build's identity.
static UNRECORDED: Provenance = Provenance {
    seed_shares: None,
    seed_beacon: None,
    tool: None,
    spec_source: None,
    insecure_seed: false,
};

/// The progress of a plan that reports none.
fn silent(_: u64) {}

impl<'a> BlockPlan<'a> {
    /// Production block `block` of `spec` from `seed`, with the lot table's counts.
    /// Errors: the block number is not in 1..=999.
    pub fn production(
        spec: &'a GameSpec,
        seed: &'a Seed,
        block: u32,
    ) -> Result<Self, GenerateError> {
        if block == 0 || block > 999 {
            return Err(GenerateError::Block(block));
        }
        let counts = spec.ways.iter().map(|w| w.count).collect();
        Ok(BlockPlan {
            spec,
            seed,
            block,
            kind: Kind::Production,
            counts,
            rules: spec.pack_rules.clone(),
            promises: None,
            composition: None,
            validation_key: None,
            validation_key_from_seed: false,
            signer: None,
            mode: DEFAULT_MODE,
            recipients: None,
            cancel: Cancel::default(),
            provenance: &UNRECORDED,
            progress: &silent,
        })
    }

    /// A specimen deck of `spec` from `seed` with `counts[w]` tickets of way `w` (block 0),
    /// promising no feature.
    pub fn specimen(spec: &'a GameSpec, seed: &'a Seed, counts: Vec<u32>) -> Self {
        BlockPlan {
            spec,
            seed,
            block: 0,
            kind: Kind::Specimen,
            counts,
            rules: PackRules::default(),
            promises: None,
            composition: None,
            validation_key: None,
            validation_key_from_seed: false,
            signer: None,
            mode: DEFAULT_MODE,
            recipients: None,
            cancel: Cancel::default(),
            provenance: &UNRECORDED,
            progress: &silent,
        }
    }

    /// The specimen plan of `deck` from `seed`: its counts, its promises and its
    /// composition.
    pub fn deck(spec: &'a GameSpec, seed: &'a Seed, deck: crate::block::deck::Deck) -> Self {
        let plan = BlockPlan {
            composition: Some(deck.composition),
            ..BlockPlan::specimen(spec, seed, deck.counts)
        };
        match deck.promises {
            Some(p) => plan.promising(p),
            None => plan,
        }
    }

    /// The same plan promising `promises` (a default specimen deck; see
    /// [`crate::block::deck::every_way`]). The counts must leave a ticket for every forced promise
    /// of a way, else generation fails with [`crate::block::TooManyPromises`].
    pub fn promising(mut self, promises: Vec<Promise>) -> Self {
        self.promises = Some(promises);
        self
    }

    /// The same plan, its codes made with the validation key `key`.
    pub fn validated_by(mut self, key: &'a ValidationKey) -> Self {
        self.validation_key = Some(key);
        self
    }

    /// The same plan, its codes made with `key` derived from the seed
    /// ([`ValidationKey::from_seed`]), as the manifest then says.
    pub fn validated_by_seed(mut self, key: &'a ValidationKey) -> Self {
        self.validation_key = Some(key);
        self.validation_key_from_seed = true;
        self
    }

    /// The same plan, its files given permission bits `mode` (e.g. 0o640).
    pub fn with_mode(mut self, mode: u32) -> Self {
        self.mode = mode & 0o777;
        self
    }

    /// The same plan, its ticket files encrypted to `recipients` (none given: in clear).
    pub fn sealed_for(mut self, recipients: &'a Recipients) -> Self {
        self.recipients = recipients.any().then_some(recipients);
        self
    }

    /// The same plan, its `SHA256SUMS` signed with `signer` (`None`: unsigned).
    pub fn signed_by(mut self, signer: Option<&'a Signer>) -> Self {
        self.signer = signer;
        self
    }

    /// Stopped when `cancel` is set (see [`BlockPlan::cancel`]).
    pub fn cancelled_by(mut self, cancel: &Cancel) -> Self {
        self.cancel = cancel.clone();
        self
    }

    /// The same plan, its manifest recording `provenance` (seed share commitments, tool
    /// identity, spec source).
    pub fn recording(mut self, provenance: &'a Provenance) -> Self {
        self.provenance = provenance;
        self
    }

    /// The same plan, `progress` called with the number of tickets done so far.
    pub fn reporting(mut self, progress: &'a (dyn Fn(u64) + Sync)) -> Self {
        self.progress = progress;
        self
    }

    /// Tickets in the block.
    pub fn tickets(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Packs in the block (the last may be short).
    pub fn packs(&self) -> u32 {
        self.tickets().div_ceil(self.spec.pack_size)
    }

    /// The validation-code permutation of this kind of block: the validation key's for
    /// production, the deck seed's for a specimen deck. Errors: a production plan with no
    /// validation key ([`GenerateError::NoValidationKey`]).
    pub fn validator(&self) -> Result<Validator, GenerateError> {
        let (spec, seed) = (self.spec, self.seed);
        match (self.kind, self.validation_key) {
            (Kind::Production, Some(key)) => Ok(Validator::production(
                key,
                spec.game_code,
                spec.emission,
                seed,
            )),
            (Kind::Production, None) => Err(GenerateError::NoValidationKey),
            (Kind::Specimen, _) => Ok(Validator::specimen(
                seed,
                spec.game_code,
                spec.emission,
                &spec.sha256,
            )),
        }
    }

    /// The recipients ticket file `name` is encrypted to, if any.
    fn seal(&self, name: &str) -> Option<Vec<age::x25519::Recipient>> {
        self.recipients.and_then(|r| r.of(name)).map(|r| r.to_vec())
    }
}

/// The digests of a block built by [`build`], whatever its sink.
#[derive(Clone, Debug)]
pub struct Built {
    /// The manifest.
    pub manifest: Manifest,
    /// The exact bytes of `manifest.json`.
    pub manifest_json: Vec<u8>,
    /// The exact text of `SHA256SUMS`.
    pub sums: String,
}

/// What [`place()`] made.
#[derive(Debug)]
pub struct Generated {
    /// The manifest written.
    pub manifest: Manifest,
    /// The older block the new one replaced, when it could not be removed (the new block is
    /// in place all the same).
    pub left_over: Option<LeftOver>,
    /// The audit report and proofs of the block replaced ([`crate::derived::set_aside_stale`]):
    /// `Ok` with each directory removed, `Err` with each left; empty when no block was
    /// replaced or it had neither beside it.
    pub stale_reports: Vec<Result<crate::derived::Removed, crate::derived::StaleReport>>,
}

/// Generates the block `plan` describes into directory `out`, the seed file beside `out`
/// put in place with the block as `seed_file` says (see [`Staged::put_in_place`]): the
/// block is [`stage`]d, then moved into place. The caller holds `out`'s exclusive lock
/// ([`crate::store::lock`]). Errors: see [`GenerateError`]; on any error nothing is left at `out`
/// (an existing block there is kept as it was), nor beside it, and the seed file is as it
/// was.
pub fn place(
    plan: &BlockPlan,
    out: &Path,
    force: bool,
    seed_file: Option<&SeedPlacement>,
) -> Result<Generated, GenerateError> {
    let (staged, manifest) = stage(plan, out, force)?;
    if plan.cancel.is_cancelled() {
        return Err(GenerateError::Interrupted);
    }
    // Under the caller's lock, an older block there is what is replaced: its reports and
    // proofs are set aside (hidden names) before the new block takes its place, so that no
    // stop leaves them beside it, removed once it is there, put back if it could not be.
    let replacing = out.join(crate::block::layout::MANIFEST).is_file();
    staged.check_before_placing(seed_file)?;
    let aside = if replacing {
        crate::derived::set_aside_stale(out)
    } else {
        Vec::new()
    };
    let (placed, stale_reports) = staged.put_in_place_after(seed_file, aside)?;
    let left_over = placed.finish().err();
    Ok(Generated {
        manifest,
        left_over,
        stale_reports,
    })
}

/// Builds the block `plan` describes into a [`Folder`] made beside `out` (after
/// [`check_destination`]), not yet in place: [`Staged::put_in_place`] moves it there, and
/// dropping it removes it. Every file and the directory are flushed to the disk. Returns
/// it with its manifest. Errors: as [`place()`].
pub fn stage(
    plan: &BlockPlan,
    out: &Path,
    force: bool,
) -> Result<(Staged, Manifest), GenerateError> {
    check_destination(out, force, plan.kind)?;
    let parent = durable::parent_of(out);
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let tmp = durable::private_tempdir(&parent, &crate::store::lock::staging_prefix(out, "tmp"))
        .map_err(io(&parent))?;
    let built = build(plan, &mut Folder::new(tmp.path(), plan.mode))?;
    let what = match plan.kind {
        Kind::Production => "block",
        Kind::Specimen => "deck",
    };
    Ok((
        Staged::new(tmp, out.to_path_buf(), parent, what),
        built.manifest,
    ))
}

/// The pipeline, the one road every block, deck and replay takes: allocation and codes →
/// faces → ticket files → manifest → `SHA256SUMS` (and its signature), every file handed
/// to `sink` ([`Folder`] writes them, [`Digests`] only sums them). Packs are built in
/// batches, in parallel, and put in pack order, while `validation.csv` is made on the same
/// pool (a job of its own, so that nothing waits for the last pack but the last pack's
/// rows); the plan's progress hears of every batch. Returns the
/// manifest, the bytes of `manifest.json` and the text of `SHA256SUMS`. Errors: see
/// [`GenerateError`].
pub fn build(plan: &BlockPlan, sink: &mut dyn Sink) -> Result<Built, GenerateError> {
    // The manifest names this executable by its SHA-256.
    crate::block::identity::hash_binary_ahead();
    let spec = plan.spec;
    sink.file(SPEC, spec.text.as_bytes())?;
    let (csv_tx, csv_rx) = sync_channel::<Arc<Packs>>(2);
    let (bin_tx, bin_rx) = sync_channel::<Arc<Packs>>(2);
    let spare = Arc::new(Spare::new(SPARE_BUFFERS));
    let csv_w = HashedFile::spawn(
        CSV,
        sink.open(CSV, plan.seal(CSV))?,
        tickets_csv::header(spec),
        csv_rx,
        csv_rows(plan, Arc::clone(&spare)),
    )?;
    let bin_w = match HashedFile::spawn(
        BIN,
        sink.open(BIN, plan.seal(BIN))?,
        print_file::header(spec, plan.block, plan.tickets()),
        bin_rx,
        bin_records(Arc::clone(&spare)),
    ) {
        Ok(w) => w,
        Err(e) => {
            // The writer of tickets.csv ends with its file before the error goes up.
            drop(csv_tx);
            let _ = csv_w.finish();
            return Err(e);
        }
    };
    let (val_tx, val_rx) = sync_channel::<Vec<Vec<u8>>>(2);
    let val_spare = Arc::new(Spare::new(4 * VALIDATION_GROUPS));
    let given = Arc::clone(&val_spare);
    let val_w = match sink
        .open(VALIDATION, plan.seal(VALIDATION))
        .and_then(|stream| {
            HashedFile::spawn(
                VALIDATION,
                stream,
                validation_csv::header(spec),
                val_rx,
                move |bufs: Vec<Vec<u8>>, put: &mut Put| {
                    for buf in &bufs {
                        put.put(buf)?;
                    }
                    given.give(bufs);
                    Ok(())
                },
            )
        }) {
        Ok(w) => w,
        Err(e) => {
            // The writers of tickets.csv and tickets.bin end with their files first.
            drop((csv_tx, bin_tx));
            let _ = (csv_w.finish(), bin_w.finish());
            return Err(e);
        }
    };
    let drawn = Drawn::of(plan)?;
    // validation.csv is made from the codes and ways alone, alongside the packs, so that
    // its sort and its writer's hashing do not wait for the last pack.
    let stop = AtomicBool::new(false);
    let mut claimed = Err(GenerateError::Interrupted);
    let made = rayon::in_place_scope(|s| {
        s.spawn(|_| claimed = write_validation(plan, &drawn, val_tx, &val_spare, &stop));
        let made = make_packs(plan, &drawn, sink, [&csv_tx, &bin_tx], &spare);
        if made.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        made
    });
    drop((csv_tx, bin_tx, spare, val_spare));
    let [csv, bin, val] = [csv_w.finish(), bin_w.finish(), val_w.finish()];
    // A failed batch first (once the writers are joined), then the files in order.
    made?;
    claimed?;
    let (files, delivered) = file_entries(plan, [csv, bin, val])?;
    let manifest = manifest_of(plan, &drawn, files);
    finish_block(plan, sink, manifest, delivered)
}

/// What a plan draws before any face: the validation codes' permutation and every ticket's
/// code, the key of every stream, the way of every ticket and the ticket of every promise.
struct Drawn {
    validator: Validator,
    /// The validation code of every ticket (index: ticket, 0-based).
    codes: Vec<u64>,
    /// The seed bound to the game, emission and lot table: every stream is drawn from it.
    keys: Seed,
    /// The way of every ticket (index: ticket, 0-based).
    ways: Vec<WayId>,
    /// The allocation's attempts, as the manifest records them.
    attempts: u32,
    /// The ticket (0-based) of every promise, in the plan's order.
    placed: Vec<u32>,
    /// Per ticket (0-based): the features promised on it, each with `true` when the ticket
    /// is built asked to show it. Empty for production blocks.
    promised: HashMap<u32, Vec<(FeatureId, bool)>>,
}

impl Drawn {
    /// Draws what `plan` needs before its faces, the codes on the current rayon pool while
    /// the ways are allocated. Errors: [`GenerateError::NoValidationKey`],
    /// [`GenerateError::PackRules`], [`GenerateError::Promises`].
    fn of(plan: &BlockPlan) -> Result<Drawn, GenerateError> {
        let spec = plan.spec;
        let validator = plan.validator()?;
        let keys = plan
            .seed
            .bound_to(spec.game_code, spec.emission, &spec.sha256);
        let (allocated, codes) = rayon::join(
            || allocate_packs(spec, &plan.counts, &plan.rules, &keys, plan.block),
            || codes_of(&validator, plan.block, plan.tickets()),
        );
        let (ways, attempts) = allocated.map_err(GenerateError::PackRules)?;
        let promises = plan.promises.as_deref().unwrap_or_default();
        let placed = place_promises(spec, promises, &ways)?;
        let mut promised: HashMap<u32, Vec<(FeatureId, bool)>> = HashMap::new();
        for (p, &t) in promises.iter().zip(&placed) {
            promised.entry(t).or_default().push((p.feature, p.forced));
        }
        Ok(Drawn {
            validator,
            codes,
            keys,
            ways,
            attempts,
            placed,
            promised,
        })
    }
}

/// The validation code of every ticket of block `block` of `tickets` tickets (index:
/// ticket, 0-based), made by `validator` on the current rayon pool, [`CODE_CHUNK`] a task.
fn codes_of(validator: &Validator, block: u32, tickets: u32) -> Vec<u64> {
    let mut codes = vec![0; tickets as usize];
    codes
        .par_chunks_mut(CODE_CHUNK)
        .enumerate()
        .for_each(|(k, chunk)| validator.codes(block, (k * CODE_CHUNK) as u32, chunk));
    codes
}

/// What the writer of `tickets.bin` puts of each batch of packs: their print records, as
/// they are; the batch's buffers then go to `spare` (see [`Packs::release`]).
fn bin_records(
    spare: Arc<Spare>,
) -> impl FnMut(Arc<Packs>, &mut Put) -> Result<(), GenerateError> + Send + 'static {
    move |packs: Arc<Packs>, put: &mut Put| {
        for records in &packs.records {
            put.put(records)?;
        }
        Packs::release(packs, &spare);
        Ok(())
    }
}

/// What the writer of `tickets.csv` puts of each batch of `plan`'s packs: every ticket's
/// row, rendered from its print record and way. Rows go straight into the file's own
/// write buffer when it has one and a row fits its slack ([`Put::in_place`]), as many as
/// start before the buffer's chunk ends, each stretch hashed there; else into a buffer of
/// the writer's own, put every [`ROWS_PUT`] bytes. The batch's buffers then go to `spare`
/// (see [`Packs::release`]).
fn csv_rows(
    plan: &BlockPlan,
    spare: Arc<Spare>,
) -> impl FnMut(Arc<Packs>, &mut Put) -> Result<(), GenerateError> + Send + 'static {
    let spec = plan.spec;
    let mut rows = tickets_csv::RowWriter::new(spec);
    let (block, pack_size) = (plan.block, spec.pack_size);
    let ncols = spec.game.layout().columns.len();
    let size = print_file::record_size(spec);
    let fits = rows.room() <= crate::store::direct::SLACK;
    move |packs: Arc<Packs>, put: &mut Put| {
        // Every row of the batch, in print order.
        let mut tickets = (packs.first + 1..)
            .zip(&packs.records)
            .flat_map(|(pack, records)| {
                (1..)
                    .zip(records.chunks_exact(size))
                    .map(move |(position, rec)| (pack, position, rec))
            })
            .zip(&packs.ways)
            .map(|((pack, position, rec), &way)| {
                let (serial, codes) = print_file::serial_and_face(rec, ncols);
                tickets_csv::Row {
                    block,
                    pack,
                    pack_position: position,
                    ticket: (pack - 1) * pack_size + position,
                    serial,
                    way,
                    codes,
                }
            });
        let placed = fits
            && put.in_place(|room, before| {
                let mut at = 0;
                while at < before {
                    let Some(r) = tickets.next() else { break };
                    at = rows.render_row(room, at, &r);
                }
                at
            })?;
        if !placed {
            rows.clear();
            for r in tickets {
                rows.push_row(&r);
                if rows.bytes().len() >= ROWS_PUT {
                    put.put(rows.bytes())?;
                    rows.clear();
                }
            }
            put.put(rows.bytes())?;
        }
        Packs::release(packs, &spare);
        Ok(())
    }
}

/// Bytes of rows `tickets.csv`'s writer gathers before it puts them, when it cannot write
/// them in place (an encrypted file, a replay): enough to hash and copy them while they are
/// still in the core's cache.
const ROWS_PUT: usize = 64 << 10;

/// Builds every pack of `plan` in batches of [`BATCH_PACKS`], in parallel, and sends each
/// batch's print records, in pack order, with its tickets' ways, to the writers of
/// `tickets.csv` and `tickets.bin` (their senders, in that order), in buffers taken from
/// those the writers gave back (`spare`); `sink` sees the print records. A writer that
/// stopped ends the run early, its error reported when it is joined. Errors:
/// [`GenerateError::Interrupted`] (the plan's cancel token set between two batches), a face
/// that cannot be built or is misjudged.
fn make_packs(
    plan: &BlockPlan,
    drawn: &Drawn,
    sink: &mut dyn Sink,
    [csv, bin]: [&SyncSender<Arc<Packs>>; 2],
    spare: &Spare,
) -> Result<(), GenerateError> {
    let spec = plan.spec;
    let builder = PackBuilder {
        plan,
        seed: &drawn.keys,
        codes: &drawn.codes,
        ways: &drawn.ways,
        promised: &drawn.promised,
    };
    let (packs, tickets) = (plan.packs(), plan.tickets());
    let size = print_file::record_size(spec) * spec.pack_size as usize;
    for start in (0..packs).step_by(BATCH_PACKS as usize) {
        if plan.cancel.is_cancelled() {
            return Err(GenerateError::Interrupted);
        }
        let end = (start + BATCH_PACKS).min(packs);
        let records: Vec<Vec<u8>> = (start..end)
            .into_par_iter()
            .map(|pack| {
                let mut out = spare.take(size);
                builder.records(pack, &mut out).map(|()| out)
            })
            .collect::<Result<_, _>>()?;
        for r in &records {
            sink.records(r);
        }
        let at = |pack: u32| (pack.saturating_mul(spec.pack_size).min(tickets)) as usize;
        let batch = Arc::new(Packs {
            first: start,
            records,
            ways: drawn.ways[at(start)..at(end)].to_vec(),
        });
        // A writer that stopped (I/O error) reports it when joined.
        if csv.send(Arc::clone(&batch)).is_err() || bin.send(batch).is_err() {
            break;
        }
        (plan.progress)(u64::from(end.saturating_mul(spec.pack_size).min(tickets)));
    }
    Ok(())
}

/// Makes the rows of `validation.csv` of `plan` from the codes and ways `drawn` holds and
/// sends them to its writer (`tx`), sorted by claim, in buffers taken from `spare`: the
/// claims made [`CLAIM_PACKS`] packs at a time, then sorted, then rendered
/// [`VALIDATION_GROUPS`] groups at a time, each step on the current rayon pool. A writer
/// that stopped ends it early, its error reported when it is joined. Errors:
/// [`GenerateError::Interrupted`], when `stop` or the plan's cancel token is set before the
/// last rows are sent.
fn write_validation(
    plan: &BlockPlan,
    drawn: &Drawn,
    tx: SyncSender<Vec<Vec<u8>>>,
    spare: &Spare,
    stop: &AtomicBool,
) -> Result<(), GenerateError> {
    let spec = plan.spec;
    let stopped = || stop.load(Ordering::Relaxed) || plan.cancel.is_cancelled();
    let (packs, tickets) = (plan.packs(), plan.tickets() as usize);
    let size = spec.pack_size as usize;
    let mut claims = validation_csv::Claims::with_capacity(tickets);
    let mut batch = Vec::new();
    for start in (0..packs).step_by(CLAIM_PACKS as usize) {
        if stopped() {
            return Err(GenerateError::Interrupted);
        }
        let end = (start + CLAIM_PACKS).min(packs);
        let first = start as usize * size;
        let blank = validation_csv::Row {
            claim: [0; validation_csv::CLAIM_BYTES],
            way: 0,
        };
        batch.resize((end as usize * size).min(tickets) - first, blank);
        batch
            .par_chunks_mut(size)
            .enumerate()
            .for_each(|(k, rows)| {
                let pack = start + k as u32;
                let serials = PackSerials::new(
                    spec.game_code,
                    spec.emission,
                    plan.block,
                    pack + 1,
                    spec.pack_size,
                );
                let at = pack as usize * size;
                let tickets = drawn.codes[at..].iter().zip(&drawn.ways[at..]);
                for ((row, (&code, &way)), position) in rows.iter_mut().zip(tickets).zip(1..) {
                    *row = validation_csv::Row {
                        claim: validation_csv::claim(&serials.at(position), code),
                        way,
                    };
                }
            });
        claims.extend(&batch);
    }
    claims.sort();
    let rows = validation_csv::RowWriter::new(spec);
    for groups in claims.groups().chunks(VALIDATION_GROUPS) {
        if stopped() {
            return Err(GenerateError::Interrupted);
        }
        let bufs: Vec<Vec<u8>> = groups
            .par_iter()
            .map(|group| {
                let mut buf = spare.take(group.len() * 48);
                for r in group {
                    rows.push(&mut buf, r);
                }
                buf
            })
            .collect();
        if tx.send(bufs).is_err() {
            break;
        }
    }
    Ok(())
}

/// What `SHA256SUMS` lists: every file's name as delivered and its hex SHA-256.
type Delivered = Vec<(String, String)>;

/// The manifest's entries of the ticket files `written` (`tickets.csv`, `tickets.bin`,
/// `validation.csv`, in that order) and of `spec.toml`, with what `SHA256SUMS` lists of
/// them: the files as delivered (an encrypted one as `.age`). Errors: the first file's
/// that failed.
fn file_entries(
    plan: &BlockPlan,
    written: [Result<Written, GenerateError>; 3],
) -> Result<(Vec<FileEntry>, Delivered), GenerateError> {
    let spec = plan.spec;
    let mut files = Vec::new();
    let mut delivered: Delivered = Vec::new();
    for (name, w) in [CSV, BIN, VALIDATION].into_iter().zip(written) {
        let w = w?;
        let recipients = plan
            .recipients
            .and_then(|r| r.of(name))
            .map(|r| r.iter().map(|k| k.to_string()).collect());
        delivered.push(match &w.sealed {
            Some((_, h)) => (format!("{name}{}", SEALED_SUFFIX), h.clone()),
            None => (name.into(), w.sha256.clone()),
        });
        files.push(FileEntry {
            name: name.into(),
            bytes: w.bytes,
            records: u64::from(plan.tickets()),
            sha256: w.sha256,
            encrypted_for: recipients,
        });
    }
    files.push(FileEntry {
        name: SPEC.into(),
        bytes: spec.text.len() as u64,
        records: 0,
        sha256: spec.sha256.clone(),
        encrypted_for: None,
    });
    delivered.push((SPEC.into(), spec.sha256.clone()));
    Ok((files, delivered))
}

/// The manifest of the block `plan` describes, drawn as `drawn`, listing `files`, with what
/// the plan's provenance records.
fn manifest_of(plan: &BlockPlan, drawn: &Drawn, files: Vec<FileEntry>) -> Manifest {
    let spec = plan.spec;
    let counts = tally(&drawn.ways, spec.ways.len());
    let facts = manifest::Facts {
        kind: plan.kind,
        block: plan.block,
        tickets: plan.tickets(),
        packs: plan.packs(),
        composition: plan.composition,
        pack_rules: plan.rules.describe(),
        allocation_attempts: drawn.attempts,
        seed_commitment: plan.seed.commitment(),
        validation_key_commitment: drawn.validator.commitment().to_string(),
        validation_key_from_seed: plan.validation_key_from_seed,
        files,
    };
    let mut manifest = Manifest::of(spec, facts, &counts);
    manifest.promised_features = plan.promises.as_ref().map(|ps| {
        ps.iter()
            .zip(&drawn.placed)
            .map(|(p, &t)| PromisedFeature {
                feature: spec.game.feature_name(p.feature).to_string(),
                way: spec.ways[p.way as usize].id.clone(),
                ticket: t + 1,
                forced: p.forced,
            })
            .collect()
    });
    let provenance = plan.provenance;
    manifest.seed_shares = provenance.seed_shares.clone();
    manifest.insecure_seed = provenance.insecure_seed;
    manifest.seed_beacon = provenance.seed_beacon.clone();
    if let Some(tool) = &provenance.tool {
        manifest.tool = tool.clone();
    }
    if let Some(source) = &provenance.spec_source {
        manifest.spec.source = source.clone();
    }
    manifest
}

/// Puts `manifest.json` and `SHA256SUMS` (listing `delivered` and the manifest) into
/// `sink`, with the signature of `SHA256SUMS` when the plan has a signer, and closes it.
/// Errors: the sink's, [`GenerateError::Sign`].
fn finish_block(
    plan: &BlockPlan,
    sink: &mut dyn Sink,
    manifest: Manifest,
    mut delivered: Delivered,
) -> Result<Built, GenerateError> {
    let mut mjson = serde_json::to_vec_pretty(&manifest).expect("manifest serializes");
    mjson.push(b'\n');
    sink.file(MANIFEST, &mjson)?;
    delivered.push((MANIFEST.into(), hex::encode(Sha256::digest(&mjson))));
    let sums = sums::render(&delivered);
    sink.file(SUMS, sums.as_bytes())?;
    if let Some(signer) = plan.signer {
        let comment = crate::crypto::sign::Vouched {
            game: plan.spec.id.clone(),
            emission: plan.spec.emission,
            block: plan.block,
            kind: plan.kind.name().into(),
            insecure_seed: plan.provenance.insecure_seed,
        }
        .comment();
        let sig = signer
            .sign(sums.as_bytes(), &comment)
            .map_err(|e| GenerateError::Sign(e.to_string()))?;
        sink.file(SUMS_SIG, sig.as_bytes())?;
    }
    sink.close()?;
    Ok(Built {
        manifest,
        manifest_json: mjson,
        sums,
    })
}
