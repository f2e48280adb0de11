//! Generation of one block: allocation → faces (in parallel, one ChaCha20 stream per pack)
//! → `tickets.csv` and `tickets.bin` hashed while written → `manifest.json` → `SHA256SUMS`.
//!
//! Everything is written into a temporary directory beside the destination and moved into
//! place only when complete, so a block directory that exists is always whole. Packs are
//! built in batches, in parallel, and written in pack order: the bytes never depend on the
//! number of threads. Every face is evaluated by the rules before it is written; a face the
//! evaluator does not judge as its way (or finds ambiguous) stops the run.

pub mod cancel;
pub mod emission;
pub mod place;

use crate::alloc::{allocate_packs, tally};
use crate::block::layout::{BIN, CSV, MANIFEST, SEALED_SUFFIX, SPEC, SUMS, SUMS_SIG, VALIDATION};
use crate::block::serial::PackSerials;
use crate::block::{judge, place_promises, Composition, Kind, Promise, Provenance};
use crate::crypto::rng::{stream, Purpose, Seed};
use crate::crypto::sign::Signer;
use crate::crypto::validation::{ValidationKey, Validator};
use crate::games::Face;
use crate::generate::cancel::Cancel;
pub use crate::generate::place::{
    check_destination, check_not_in_emission, LeftOver, PlaceError, Placed, SeedPlacement, Staged,
};
use crate::output::hashing::{HashingWriter, Sum};
use crate::output::manifest::{self, FileEntry, Manifest, PromisedFeature};
use crate::output::seal::Recipients;
use crate::output::{print_file, sums, tickets_csv, validation_csv, Ticket};
use crate::spec::{GameSpec, PackRules, WayId};
use crate::store::durable;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fs::File;
use std::io::{IoSlice, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::thread;

/// The rendered CSV rows, print records and validation rows (claims, not yet in file
/// order) of one pack.
type PackBytes = (Vec<u8>, Vec<u8>, Vec<validation_csv::Row>);

/// Validation rows rendered per buffer handed to the writer.
const VALIDATION_CHUNK: usize = 1 << 16;

/// Packs built per batch (the unit handed to the writers).
const BATCH_PACKS: u32 = 128;

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
    /// Where the output goes, or its move there (see [`crate::generate::place`]).
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
    /// The mechanic could not build a face for a way: a bug or an infeasible spec.
    #[error("ticket {ticket}: cannot build a face for way \"{way}\": {message}")]
    Synthesis {
        /// Ticket, 1-based.
        ticket: u32,
        /// Way id.
        way: String,
        /// The mechanic's reason.
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

/// Builds the faces of one pack and renders its CSV rows and print records.
struct PackBuilder<'a> {
    plan: &'a BlockPlan<'a>,
    seed: &'a Seed,
    validator: &'a Validator,
    ways: &'a [WayId],
    /// Per ticket index (0-based): the features promised on it, each with `true` when the
    /// ticket is built asked to show it. Empty for production blocks.
    promised: &'a HashMap<u32, Vec<(&'static str, bool)>>,
}

impl PackBuilder<'_> {
    /// The tickets of pack `pack` (0-based), built and judged.
    fn tickets(&self, pack: u32, out: &mut Vec<Ticket>) -> Result<(), GenerateError> {
        let (spec, block) = (self.plan.spec, self.plan.block);
        let mut rng = stream(self.seed, Purpose::Faces, block, u64::from(pack));
        let first = pack * spec.pack_size;
        let last = (first + spec.pack_size).min(self.plan.tickets());
        let serials = PackSerials::new(spec.game_code, spec.emission, block, pack + 1);
        let mut codes = vec![0; (last - first) as usize];
        self.validator.codes(block, first, &mut codes);
        for (i, &validation) in (first..last).zip(&codes) {
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
            let face: Face = match asked {
                None => spec.game.synthesize(way, &mut rng),
                Some(id) => spec.game.synthesize_showing_checked(way, id, &mut rng),
            }
            .map_err(|e| synthesis(e.to_string()))?;
            let judged = judge(spec, &face);
            judged
                .realises(spec, way_id)
                .map_err(|judged| GenerateError::Disagreement {
                    ticket: i + 1,
                    way: way.id.clone(),
                    judged,
                })?;
            if let Some(v) = promised {
                let ev = &judged.evaluation;
                if let Some((id, _)) = v.iter().find(|(id, _)| !ev.shows(id)) {
                    return Err(synthesis(format!(
                        "the face does not show the feature \"{id}\" the deck promises on it"
                    )));
                }
            }
            out.push(Ticket {
                block,
                pack: pack + 1,
                pack_position: i - first + 1,
                ticket: i + 1,
                serial: serials.at(i - first + 1),
                validation,
                prize: way.amount,
                way: way_id,
                face,
            });
        }
        Ok(())
    }
}

/// What a writer thread made: the plaintext's size and hex SHA-256, and, for a file
/// encrypted to its recipients, the delivered file's.
struct Written {
    bytes: u64,
    sha256: String,
    sealed: Option<(u64, String)>,
}

/// A file being written by its own thread, hashed as it goes (or only hashed, for a replay).
struct HashedFile {
    handle: thread::JoinHandle<Result<Written, GenerateError>>,
}

impl HashedFile {
    /// Spawns the writer of `path` (`None`: hash only, write nothing); it writes `head`,
    /// then every buffer received. With `seal`, the file is written encrypted to those
    /// recipients as `path.age`.
    fn spawn(
        path: Option<PathBuf>,
        head: Vec<u8>,
        rx: Receiver<Vec<Vec<u8>>>,
        seal: Option<Vec<age::x25519::Recipient>>,
    ) -> HashedFile {
        let handle = thread::spawn(move || {
            let mut sum = Sum::default();
            let batches = std::iter::once(vec![head]).chain(rx);
            let sealed = match (&path, seal) {
                (Some(p), Some(to)) => {
                    let p = PathBuf::from(format!("{}{}", p.display(), SEALED_SUFFIX));
                    let f = durable::create_private(&p).map_err(io(&p))?;
                    let hashing = HashingWriter::new(std::io::BufWriter::with_capacity(1 << 20, f));
                    let mut w = crate::output::seal::encrypt_to(hashing, &to)
                        .map_err(|e| GenerateError::Seal(e.to_string()))?;
                    for batch in batches {
                        for buf in &batch {
                            sum.update(buf);
                            w.write_all(buf).map_err(io(&p))?;
                        }
                    }
                    let (inner, n_sealed, h_sealed) = w.finish().map_err(io(&p))?.finish();
                    // On the disk before the block can be moved into place.
                    let f = inner.into_inner().map_err(|e| io(&p)(e.into_error()))?;
                    f.sync_all().map_err(io(&p))?;
                    Some((n_sealed, h_sealed))
                }
                (path, _) => {
                    let mut f = match path {
                        Some(p) => Some(durable::create_private(p).map_err(io(p))?),
                        None => None,
                    };
                    for batch in batches {
                        for buf in &batch {
                            sum.update(buf);
                        }
                        if let (Some(f), Some(p)) = (f.as_mut(), path) {
                            write_all_vectored(f, &batch).map_err(io(p))?;
                        }
                    }
                    // On the disk before the block can be moved into place.
                    if let (Some(f), Some(p)) = (&f, path) {
                        f.sync_all().map_err(io(p))?;
                    }
                    None
                }
            };
            let (bytes, sha256) = sum.finish();
            Ok(Written {
                bytes,
                sha256,
                sealed,
            })
        });
        HashedFile { handle }
    }

    fn finish(self) -> Result<Written, GenerateError> {
        self.handle.join().expect("writer thread panicked")
    }
}

/// Writes every buffer of `bufs`, in order, with as few system calls as the OS allows.
fn write_all_vectored(f: &mut File, bufs: &[Vec<u8>]) -> std::io::Result<()> {
    let mut slices: Vec<IoSlice> = bufs
        .iter()
        .filter(|b| !b.is_empty())
        .map(|b| IoSlice::new(b))
        .collect();
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        // The OS takes at most IOV_MAX (1024 on Linux) slices per call.
        let take = rest.len().min(1024);
        match f.write_vectored(&rest[..take]) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Permission bits of a block's files unless told otherwise: readable by their owner only,
/// since `tickets.csv` and `validation.csv` say which tickets win.
pub const DEFAULT_MODE: u32 = 0o600;

/// What to generate: a block of a spec, its kind, and the exact count of every way.
pub struct BlockPlan<'a> {
    /// The game.
    pub spec: &'a GameSpec,
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
}

impl<'a> BlockPlan<'a> {
    /// Production block `block` of `spec`, with the lot table's counts.
    /// Errors: the block number is not in 1..=999.
    pub fn production(spec: &'a GameSpec, block: u32) -> Result<Self, GenerateError> {
        if block == 0 || block > 999 {
            return Err(GenerateError::Block(block));
        }
        let counts = spec.ways.iter().map(|w| w.count).collect();
        Ok(BlockPlan {
            spec,
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
        })
    }

    /// A specimen deck of `spec` with `counts[w]` tickets of way `w` (block 0), promising
    /// no feature.
    pub fn specimen(spec: &'a GameSpec, counts: Vec<u32>) -> Self {
        BlockPlan {
            spec,
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
        }
    }

    /// The specimen plan of `deck`: its counts, its promises and its composition.
    pub fn deck(spec: &'a GameSpec, deck: crate::block::deck::Deck) -> Self {
        let plan = BlockPlan {
            composition: Some(deck.composition),
            ..BlockPlan::specimen(spec, deck.counts)
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
    pub fn validator(&self, seed: &Seed) -> Result<Validator, GenerateError> {
        let spec = self.spec;
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
}

/// The digests of a block built in memory (see [`replay`]).
#[derive(Clone, Debug)]
pub struct Built {
    /// The manifest.
    pub manifest: Manifest,
    /// The exact bytes of `manifest.json`.
    pub manifest_json: Vec<u8>,
    /// The exact text of `SHA256SUMS`.
    pub sums: String,
}

/// Generates the block `plan` describes from `seed` into directory `out`, recording no
/// seed shares and this build's identity (see [`generate_with`]).
pub fn generate(
    plan: &BlockPlan,
    seed: &Seed,
    out: &Path,
    force: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Generated, GenerateError> {
    generate_with(plan, seed, out, force, &Provenance::default(), progress)
}

/// Builds the block `plan` describes from `seed` exactly as [`generate_with`] would, but
/// writes nothing: returns the manifest, the bytes of `manifest.json` and the text of
/// `SHA256SUMS` (whose digests cover every other file). The audit replay compares them with
/// a block's files. Errors: as [`generate_with`] (no I/O errors).
pub fn replay(
    plan: &BlockPlan,
    seed: &Seed,
    provenance: &Provenance,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Built, GenerateError> {
    build(plan, seed, None, provenance, progress, None)
}

/// As [`replay`], and hands `records` the print records of every pack in print order (the
/// bytes of tickets.bin after its header), for a replay that names the first ticket of a
/// block that differs. Errors: as [`replay`].
pub fn replay_records(
    plan: &BlockPlan,
    seed: &Seed,
    provenance: &Provenance,
    records: &mut dyn FnMut(&[u8]),
) -> Result<Built, GenerateError> {
    build(plan, seed, None, provenance, &|_| {}, Some(records))
}

/// What [`generate_with`] made.
#[derive(Debug)]
pub struct Generated {
    /// The manifest written.
    pub manifest: Manifest,
    /// The older block the new one replaced, when it could not be removed (the new block is
    /// in place all the same).
    pub left_over: Option<LeftOver>,
}

/// Generates the block `plan` describes from `seed` into directory `out`; the manifest
/// records `provenance` (seed share commitments, tool identity).
///
/// `progress` is called with the number of tickets done so far. Errors: see
/// [`GenerateError`]; on any error nothing is left at `out` (an existing block there is
/// kept as it was), nor beside it.
pub fn generate_with(
    plan: &BlockPlan,
    seed: &Seed,
    out: &Path,
    force: bool,
    provenance: &Provenance,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Generated, GenerateError> {
    generate_placing(plan, seed, out, force, provenance, None, progress)
}

/// [`generate_with`], the seed file beside `out` put in place with the block as
/// `seed_file` says (see [`Staged::put_in_place`]). The caller holds `out`'s exclusive
/// lock ([`crate::store::lock`]). Errors: as [`generate_with`]; then the seed file is as it was.
pub fn generate_placing(
    plan: &BlockPlan,
    seed: &Seed,
    out: &Path,
    force: bool,
    provenance: &Provenance,
    seed_file: Option<&SeedPlacement>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Generated, GenerateError> {
    let (staged, manifest) = stage(plan, seed, out, force, provenance, progress)?;
    if plan.cancel.is_cancelled() {
        return Err(GenerateError::Interrupted);
    }
    let left_over = staged.put_in_place(seed_file)?.finish().err();
    Ok(Generated {
        manifest,
        left_over,
    })
}

/// Builds the block `plan` describes into a temporary directory beside `out` (after
/// [`check_destination`]), not yet in place: [`Staged::put_in_place`] moves it there, and
/// dropping it removes it. Every file and the directory are flushed to the disk. Returns
/// it with its manifest. Errors: as [`generate_with`].
pub fn stage(
    plan: &BlockPlan,
    seed: &Seed,
    out: &Path,
    force: bool,
    provenance: &Provenance,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Staged, Manifest), GenerateError> {
    check_destination(out, force, plan.kind)?;
    let parent = durable::parent_of(out);
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let tmp = durable::private_tempdir(&parent, &crate::store::lock::staging_prefix(out, "tmp"))
        .map_err(io(&parent))?;
    let built = build(plan, seed, Some(tmp.path()), provenance, progress, None)?;
    set_modes(tmp.path(), plan.mode)?;
    let what = match plan.kind {
        Kind::Production => "block",
        Kind::Specimen => "deck",
    };
    Ok((
        Staged::new(tmp, out.to_path_buf(), parent, what),
        built.manifest,
    ))
}

/// Gives every file in `dir` the permission bits `mode`, and `dir` the same plus search
/// where read is given.
fn set_modes(dir: &Path, mode: u32) -> Result<(), GenerateError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let set = |p: &Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).map_err(io(p))
        };
        for e in std::fs::read_dir(dir).map_err(io(dir))? {
            set(&e.map_err(io(dir))?.path(), mode)?;
        }
        set(dir, mode | ((mode & 0o444) >> 2))?;
    }
    #[cfg(not(unix))]
    let _ = (dir, mode);
    Ok(())
}

/// Builds the block `plan` describes into `dir`, an empty directory, every file flushed to
/// the disk; returns its manifest and the bytes of `manifest.json`. For an emission, whose
/// blocks are staged together. Errors: as [`generate_with`].
pub fn build_into(
    plan: &BlockPlan,
    seed: &Seed,
    dir: &Path,
    provenance: &Provenance,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Manifest, Vec<u8>), GenerateError> {
    let built = build(plan, seed, Some(dir), provenance, progress, None)?;
    set_modes(dir, plan.mode)?;
    Ok((built.manifest, built.manifest_json))
}

/// What sees every pack's print records, in order, as they are made.
type Records<'a> = &'a mut dyn FnMut(&[u8]);

/// The pipeline: allocation → faces → ticket files (into `dir`, or hashed only when `None`)
/// → manifest → SHA256SUMS; `records`, when given, sees every pack's print records in order.
fn build(
    plan: &BlockPlan,
    seed: &Seed,
    dir: Option<&Path>,
    provenance: &Provenance,
    progress: &(dyn Fn(u64) + Sync),
    mut records: Option<Records>,
) -> Result<Built, GenerateError> {
    let spec = plan.spec;
    let tickets = plan.tickets();
    if let Some(dir) = dir {
        durable::write_file(&dir.join(SPEC), spec.text.as_bytes()).map_err(io(&dir.join(SPEC)))?;
    }
    let (csv_tx, csv_rx) = sync_channel::<Vec<Vec<u8>>>(2);
    let (bin_tx, bin_rx) = sync_channel::<Vec<Vec<u8>>>(2);
    let seal = |name: &str| plan.recipients.and_then(|r| r.of(name)).map(|r| r.to_vec());
    let csv_w = HashedFile::spawn(
        dir.map(|d| d.join(CSV)),
        tickets_csv::header(spec),
        csv_rx,
        seal(CSV),
    );
    let bin_w = HashedFile::spawn(
        dir.map(|d| d.join(BIN)),
        print_file::header(spec, plan.block, tickets),
        bin_rx,
        seal(BIN),
    );

    let validator = plan.validator(seed)?;
    // Every stream is drawn from the seed bound to the game, emission and lot table.
    let keys = seed.bound_to(spec.game_code, spec.emission, &spec.sha256);
    let (ways, attempts) = allocate_packs(spec, &plan.counts, &plan.rules, &keys, plan.block)
        .map_err(GenerateError::PackRules)?;
    let promises = plan.promises.as_deref().unwrap_or_default();
    let placed = place_promises(spec, promises, &ways)?;
    let mut promised: HashMap<u32, Vec<(&'static str, bool)>> = HashMap::new();
    for (p, &t) in promises.iter().zip(&placed) {
        promised.entry(t).or_default().push((p.feature, p.forced));
    }
    let builder = PackBuilder {
        plan,
        seed: &keys,
        validator: &validator,
        ways: &ways,
        promised: &promised,
    };
    let ncols = spec.game.columns().len();
    let rec = print_file::record_size(spec);
    let packs = plan.packs();
    // Escaped once; each thread renders into its own clone.
    let row_writer = tickets_csv::RowWriter::new(spec);
    let mut result = Ok(());
    let mut claims: Vec<validation_csv::Row> = Vec::with_capacity(tickets as usize);
    for start in (0..packs).step_by(BATCH_PACKS as usize) {
        if plan.cancel.is_cancelled() {
            result = Err(GenerateError::Interrupted);
            break;
        }
        let end = (start + BATCH_PACKS).min(packs);
        let parts: Result<Vec<PackBytes>, GenerateError> = (start..end)
            .into_par_iter()
            .map_init(
                || {
                    (
                        row_writer.clone(),
                        Vec::with_capacity(spec.pack_size as usize),
                    )
                },
                |(rows, tickets), pack| {
                    tickets.clear();
                    builder.tickets(pack, tickets)?;
                    let mut bin = Vec::with_capacity(tickets.len() * rec);
                    let mut claims = Vec::with_capacity(tickets.len());
                    for t in tickets.iter() {
                        rows.push(t);
                        claims.push(validation_csv::Row {
                            claim: validation_csv::claim(&t.serial, t.validation),
                            way: t.way,
                        });
                        print_file::push_record(&mut bin, t, ncols);
                    }
                    Ok((rows.take(), bin, claims))
                },
            )
            .collect();
        let parts = match parts {
            Ok(p) => p,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        let (mut csv, mut bin) = (Vec::new(), Vec::new());
        for (c, b, v) in parts {
            if let Some(r) = records.as_mut() {
                r(&b);
            }
            csv.push(c);
            bin.push(b);
            claims.extend(v);
        }
        // A writer that stopped (I/O error) reports it when joined below.
        if csv_tx.send(csv).is_err() || bin_tx.send(bin).is_err() {
            break;
        }
        progress(u64::from(end.saturating_mul(spec.pack_size).min(tickets)));
    }
    drop((csv_tx, bin_tx));
    let val = match result {
        // The validation file in claim order, never in print order.
        Ok(()) => write_validation(dir, spec, claims, seal(VALIDATION)),
        Err(_) => Ok(Written {
            bytes: 0,
            sha256: String::new(),
            sealed: None,
        }),
    };
    let done = [csv_w.finish(), bin_w.finish(), val];
    result?;
    let mut files = Vec::new();
    // What SHA256SUMS lists: the files as delivered (an encrypted one as `.age`).
    let mut delivered: Vec<(String, String)> = Vec::new();
    for (name, d) in [CSV, BIN, VALIDATION].into_iter().zip(done) {
        let w = d?;
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
            records: u64::from(tickets),
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

    let counts = tally(&ways, spec.ways.len());
    let facts = manifest::Facts {
        kind: plan.kind,
        block: plan.block,
        tickets: plan.tickets(),
        packs: plan.packs(),
        composition: plan.composition,
        pack_rules: plan.rules.describe(),
        allocation_attempts: attempts,
        seed_commitment: seed.commitment(),
        validation_key_commitment: validator.commitment().to_string(),
        validation_key_from_seed: plan.validation_key_from_seed,
        files,
    };
    let mut manifest = Manifest::of(spec, facts, &counts);
    manifest.promised_features = plan.promises.as_ref().map(|ps| {
        ps.iter()
            .zip(&placed)
            .map(|(p, &t)| PromisedFeature {
                feature: p.feature.into(),
                way: spec.ways[p.way as usize].id.clone(),
                ticket: t + 1,
                forced: p.forced,
            })
            .collect()
    });
    manifest.seed_shares = provenance.seed_shares.clone();
    manifest.insecure_seed = provenance.insecure_seed;
    manifest.seed_beacon = provenance.seed_beacon.clone();
    if let Some(tool) = &provenance.tool {
        manifest.tool = tool.clone();
    }
    if let Some(source) = &provenance.spec_source {
        manifest.spec.source = source.clone();
    }
    let mut mjson = serde_json::to_vec_pretty(&manifest).expect("manifest serializes");
    mjson.push(b'\n');
    if let Some(dir) = dir {
        durable::write_file(&dir.join(MANIFEST), &mjson).map_err(io(&dir.join(MANIFEST)))?;
    }
    let mut entries = delivered;
    entries.push((MANIFEST.into(), hex::encode(Sha256::digest(&mjson))));
    let sums = sums::render(&entries);
    if let Some(dir) = dir {
        durable::write_file(&dir.join(SUMS), sums.as_bytes()).map_err(io(&dir.join(SUMS)))?;
        if let Some(signer) = plan.signer {
            let comment = crate::crypto::sign::Vouched {
                game: spec.id.clone(),
                emission: spec.emission,
                block: plan.block,
                kind: plan.kind.name().into(),
                insecure_seed: provenance.insecure_seed,
            }
            .comment();
            let sig = signer
                .sign(sums.as_bytes(), &comment)
                .map_err(|e| GenerateError::Sign(e.to_string()))?;
            durable::write_file(&dir.join(SUMS_SIG), sig.as_bytes())
                .map_err(io(&dir.join(SUMS_SIG)))?;
        }
        durable::sync_dir(dir).map_err(io(dir))?;
    }
    Ok(Built {
        manifest,
        manifest_json: mjson,
        sums,
    })
}

/// Writes `validation.csv` into `dir` (or only hashes it, for a replay): the rows of
/// `claims` sorted by claim, encrypted to `seal` if given. Returns what was written.
fn write_validation(
    dir: Option<&Path>,
    spec: &GameSpec,
    mut claims: Vec<validation_csv::Row>,
    seal: Option<Vec<age::x25519::Recipient>>,
) -> Result<Written, GenerateError> {
    validation_csv::sort(&mut claims);
    let (tx, rx) = sync_channel::<Vec<Vec<u8>>>(2);
    let w = HashedFile::spawn(
        dir.map(|d| d.join(VALIDATION)),
        validation_csv::header(),
        rx,
        seal,
    );
    let rows = validation_csv::RowWriter::new(spec);
    for chunk in claims.chunks(VALIDATION_CHUNK) {
        let mut buf = Vec::with_capacity(chunk.len() * 48);
        for r in chunk {
            rows.push(&mut buf, r);
        }
        if tx.send(vec![buf]).is_err() {
            break;
        }
    }
    drop(tx);
    w.finish()
}
