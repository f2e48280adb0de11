//! Putting an output in place without losing anything: where a block may go
//! ([`check_destination`], [`check_not_in_emission`]), and the move of a complete output
//! from its temporary directory beside the destination ([`Staged`] → [`Placed`]), exchanged
//! with an older output in one step, the older never deleted when it holds files tirage did
//! not write. A journal beside the output records each replacement until it is done, so
//! that the next run finishes or rolls back one a crash cut short ([`recover`]).

use crate::block::layout::{is_proof, written_by_tirage, EMISSION, MANIFEST, PROOFS, SUMS};
use crate::block::Kind;
use crate::derived::{finish_stale, restore_stale, Removed, SetAside, StaleReport};
use crate::output::manifest;
use crate::store::durable;
use std::path::{Path, PathBuf};

/// Why an output may not go to its destination, or could not be moved there. On any of
/// them, what was at the destination is as it was.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// The destination exists and `force` was not given.
    #[error("{0} already exists; pass --force to replace it")]
    Exists(PathBuf),
    /// The destination exists and is not a tirage block (a file, a spec, a folder holding
    /// other things): it is never replaced, with `--force` or without.
    #[error("{0} exists and is not a tirage block (no tirage manifest.json in it): nothing was written, and --force would not replace it (it replaces only blocks); choose another --out")]
    NotABlock(PathBuf),
    /// The destination is a symbolic link: a block is written and replaced only at a real
    /// directory, never through a link, whatever the link points to.
    #[error("{0} is a symbolic link: tirage writes and replaces a block only at a real directory, never through a link (with --force or without); give the directory itself as --out")]
    Link(PathBuf),
    /// `--force` was given but the block directory also holds files tirage did not write,
    /// which replacing it would delete.
    #[error("{} holds files tirage did not write ({}): --force would delete them with the block; move them out first", path.display(), names.join(", "))]
    ForeignFiles {
        /// The block directory.
        path: PathBuf,
        /// Their names.
        names: Vec<String>,
    },
    /// Something at an emission's destination, or a block's, would no longer belong with
    /// what is made there (a stray block, a seed file, a foreign emission manifest, a
    /// block of an emission made alone).
    #[error("{}: {why}", path.display())]
    InTheWay {
        /// What is there.
        path: PathBuf,
        /// Why it is in the way, and what to do.
        why: String,
    },
    /// `--force` was given but the destination holds a block of the other kind: a deck never
    /// replaces a production block (nor its seed), nor a production block a deck.
    #[error("{path} holds a {existing} block; --force replaces it only with another {existing} block (this is a {wanted} block): choose another --out")]
    OtherKind {
        /// The destination.
        path: PathBuf,
        /// Kind of the block there (`production` or `specimen`).
        existing: String,
        /// Kind of the block being made.
        wanted: String,
    },
    /// `--force` was given but the destination's manifest names no kind of block tirage
    /// makes: nothing says what it would replace.
    #[error("{0} holds a block whose manifest.json names no kind tirage makes (production or specimen): --force does not replace it; choose another --out")]
    UnknownKind(PathBuf),
    /// An emission's destination holds a block: an emission goes to a directory of its own.
    #[error("{0} holds a block (manifest.json): an emission goes to a directory of its own, holding block-NNN directories and emission.json; choose another --out")]
    BlockNotEmission(PathBuf),
    /// A journal, staged output or seed, or another piece of a replacement beside the
    /// output is another user's, or others can write it: it is not acted on.
    #[error(transparent)]
    NotOurs(#[from] crate::store::owner::NotOurs),
    /// A file could not be created, written or moved.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

/// Maps an I/O error on `path` to [`PlaceError::Io`].
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PlaceError + '_ {
    move |error| PlaceError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// A destination may be replaced only with `force`, and only when it is a tirage block of
/// the same `kind` (a directory holding a tirage manifest saying so) or an empty directory:
/// `--force` never deletes anything else, and a deck never replaces a production block.
/// Errors: [`PlaceError::Exists`], [`PlaceError::NotABlock`],
/// [`PlaceError::OtherKind`], [`PlaceError::ForeignFiles`] (the block directory
/// holds files tirage did not write).
pub fn check_destination(out: &Path, force: bool, kind: Kind) -> Result<(), PlaceError> {
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    check_block_or_nothing(out)?;
    if !force {
        return Err(PlaceError::Exists(out.to_path_buf()));
    }
    let manifest = tirage_manifest(out, &meta);
    match manifest {
        Some(v) => {
            let existing = serde_json::from_value::<Kind>(v["kind"].clone()).ok();
            if existing == Some(kind) {
                let foreign = foreign_files(out);
                if foreign.is_empty() {
                    Ok(())
                } else {
                    Err(PlaceError::ForeignFiles {
                        path: out.to_path_buf(),
                        names: foreign,
                    })
                }
            } else {
                match existing {
                    Some(existing) => Err(PlaceError::OtherKind {
                        path: out.to_path_buf(),
                        existing: existing.name().into(),
                        wanted: kind.name().into(),
                    }),
                    None => Err(PlaceError::UnknownKind(out.to_path_buf())),
                }
            }
        }
        // An empty folder ([`check_block_or_nothing`] refused anything else).
        None => Ok(()),
    }
}

/// What a tirage block or emission in the way says it is, for saying what `--force`
/// replaced: the game id (every character that does not show as written escaped,
/// `\u{1b}`, `\n`, since a manifest's text may drive a terminal), the operator's game
/// code when the manifest gives it, the emission, and the block number (`None` for an
/// emission).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    /// Game id, escaped.
    pub game: String,
    /// The operator's game code, the first four digits of every serial.
    pub game_code: Option<u64>,
    /// Emission number.
    pub emission: u64,
    /// Block number; `None` for an emission.
    pub block: Option<u64>,
}

impl Held {
    /// This block, deck (block 0) or emission in words, naming its emission where it
    /// differs from `other`'s, and its game code where it differs for the same game id (or
    /// that its manifest gives none): `block 1 of coq`, `block 1 of coq, emission 2, game
    /// code 1704`, `a deck of coq, emission 2`, `emission 2 of cash`, `an emission of cash`.
    pub fn said(&self, other: &Held) -> String {
        let mut s = match self.block {
            Some(0) if self.emission == other.emission => format!("a deck of {}", self.game),
            Some(0) => format!("a deck of {}, emission {}", self.game, self.emission),
            Some(b) if self.emission == other.emission => format!("block {b} of {}", self.game),
            Some(b) => format!("block {b} of {}, emission {}", self.game, self.emission),
            None if self.emission == other.emission => format!("an emission of {}", self.game),
            None => format!("emission {} of {}", self.emission, self.game),
        };
        if self.game == other.game && self.game_code != other.game_code {
            match self.game_code {
                Some(c) => s.push_str(&format!(", game code {c}")),
                None => s.push_str(", whose manifest gives no game code"),
            }
        }
        s
    }
}

/// The block the tirage block at `out` says it is (its manifest); `None` when `out` is no
/// tirage block or its manifest does not say.
pub fn existing_block(out: &Path) -> Option<Held> {
    let meta = std::fs::symlink_metadata(out).ok()?;
    let v = tirage_manifest(out, &meta)?;
    Some(Held {
        game: crate::text::escaped(v["game"]["id"].as_str()?, 80),
        game_code: v["game"]["game_code"].as_u64(),
        emission: v["game"]["emission"].as_u64()?,
        block: Some(v["block"].as_u64()?),
    })
}

/// The tirage manifest (`manifest.json` whose `format` is tirage's) of directory `out`,
/// whose metadata (not followed) is `meta`; `None` for anything else.
fn tirage_manifest(out: &Path, meta: &std::fs::Metadata) -> Option<serde_json::Value> {
    meta.is_dir()
        .then(|| crate::output::read_regular(&out.join(MANIFEST), crate::output::MAX_JSON).ok())
        .flatten()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .filter(|v| v["format"] == manifest::FORMAT)
}

/// A destination that exists and is neither a tirage block (a directory holding a tirage
/// manifest) nor an empty directory is never replaced, with `--force` or without: call it
/// before anything is made beside `out`, its lock file included. Errors:
/// [`PlaceError::Link`] (a symbolic link, to a block or not), [`PlaceError::NotABlock`]
/// (a file, a spec, a folder holding other things).
pub fn check_block_or_nothing(out: &Path) -> Result<(), PlaceError> {
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    if meta.file_type().is_symlink() {
        return Err(PlaceError::Link(out.to_path_buf()));
    }
    let is_empty_dir =
        meta.is_dir() && std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none());
    if is_empty_dir || tirage_manifest(out, &meta).is_some() {
        Ok(())
    } else {
        Err(PlaceError::NotABlock(out.to_path_buf()))
    }
}

/// What in block directory `dir` tirage did not write (see [`foreign_files`]), for an
/// emission's check of its blocks.
pub(crate) fn foreign_in_block(dir: &Path) -> Vec<String> {
    foreign_files(dir)
}

/// What in block directory `dir` tirage did not write (sorted; `proofs/x` for an entry of
/// `proofs/` other than a `ticket-N.svg` file), which `--force` would delete with the block.
fn foreign_files(dir: &Path) -> Vec<String> {
    let entries = |d: &Path| -> Vec<(String, Option<std::fs::FileType>)> {
        std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    e.file_type().ok(),
                )
            })
            .collect()
    };
    let mut names = Vec::new();
    for (name, ft) in entries(dir) {
        match ft {
            Some(ft)
                if (ft.is_dir() || ft.is_file() || ft.is_symlink())
                    && written_by_tirage(&name, ft.is_dir()) =>
            {
                if name == PROOFS {
                    for (p, ft) in entries(&dir.join(PROOFS)) {
                        if !is_proof(&p, ft.is_some_and(|t| t.is_file())) {
                            names.push(format!("{PROOFS}/{p}"));
                        }
                    }
                }
            }
            _ => names.push(name),
        }
    }
    names.sort();
    names
}

/// A block or deck made alone, or another emission, never goes into an emission's
/// directory (beside its `emission.json`): it would stand among blocks of another seed, and
/// replacing one of them would leave the emission manifest wrong. Call it before the
/// output's lock file is made. Errors: [`PlaceError::InTheWay`].
pub fn check_not_in_emission(out: &Path) -> Result<(), PlaceError> {
    let emission = out
        .parent()
        .map(|p| p.join(EMISSION))
        .filter(|e| e.exists());
    match emission {
        Some(e) => Err(PlaceError::InTheWay {
            path: out.to_path_buf(),
            why: format!(
                "beside {}: a block of an emission is made with the emission (generate --blocks), and nothing else goes inside one; choose another --out",
                e.display()
            ),
        }),
        None => Ok(()),
    }
}

/// The seed file beside an output (`<out>.seed`) and what becomes of it when the output
/// goes in place: it must always replay the output beside it.
#[derive(Debug, Clone)]
pub struct SeedPlacement {
    /// The seed file's path, `<out>.seed`.
    pub path: PathBuf,
    /// A fresh seed staged beside it (flushed to the disk), moved to `path`; `None`: no
    /// new seed file.
    pub new: Option<PathBuf>,
    /// True: an older file at `path` goes (it does not replay the new output).
    pub replace_old: bool,
}

/// A complete output in a temporary directory beside its destination (see
/// [`crate::generate::stage`]), every file of it flushed to the disk.
#[derive(Debug)]
pub struct Staged {
    tmp: tempfile::TempDir,
    out: PathBuf,
    parent: PathBuf,
    /// What in an existing destination the new output may not replace (rechecked just
    /// before the move).
    foreign: fn(&Path) -> Vec<String>,
    /// What the output is, for messages: `block`, `deck` or `emission`.
    what: &'static str,
    /// The file of the output written last, whose digest tells it from another output.
    sealed: &'static str,
}

/// An output just put in place; the older one it replaced (and its seed file) stay aside,
/// and the replacement's journal beside it, until [`Placed::finish`] removes them.
#[derive(Debug)]
#[must_use = "the replaced output stays aside until finish()"]
pub struct Placed {
    journal: Journal,
    out: PathBuf,
    parent: PathBuf,
}

/// A piece of a finished replacement that could not be removed: the older output, the
/// older seed file (both under hidden names beside the new output, which the next run to
/// that destination removes) or the replacement's journal.
#[derive(Debug, thiserror::Error)]
#[error("{what} could not be removed and is left at {}: {error}; {}", path.display(), if *what == LeftOver::JOURNAL { "the next run to this destination removes it (until then verify, claim, package and render refuse the output)" } else { "the next run to this destination removes it" })]
pub struct LeftOver {
    /// What it is: [`LeftOver::OUTPUT`], [`LeftOver::SEED`] or [`LeftOver::JOURNAL`].
    pub what: &'static str,
    /// Where it is.
    pub path: PathBuf,
    /// Why it could not be removed.
    pub error: std::io::Error,
}

impl LeftOver {
    /// The older output replaced.
    pub const OUTPUT: &'static str = "the output replaced";
    /// The older seed file replaced.
    pub const SEED: &'static str = "the seed file replaced";
    /// The journal of the replacement.
    pub const JOURNAL: &'static str = "the journal of the replacement";
}

/// The text of the journal at `jpath` (`None`: not a regular file of UTF-8 text of at most
/// 64 KiB), read from the descriptor whose owner and mode are checked first: a journal
/// of another user's, or that others can write, is never read. Errors: it is not the
/// current user's ([`crate::store::owner::NotOurs`]).
fn journal_text(jpath: &Path) -> Result<Option<String>, crate::store::owner::NotOurs> {
    use std::io::Read;
    let Ok(f) = crate::output::open_regular(jpath) else {
        // A link or another kind of file: judged without following it.
        crate::store::owner::ours(jpath)?;
        return Ok(None);
    };
    if let Ok(m) = f.metadata() {
        crate::store::owner::judge(jpath, &m)?;
    }
    let mut bytes = Vec::new();
    if f.take((1 << 16) + 1).read_to_end(&mut bytes).is_err() || bytes.len() > 1 << 16 {
        return Ok(None);
    }
    Ok(String::from_utf8(bytes).ok())
}

/// The hex SHA-256 of regular file `path` (at most 1 MiB), or `None`.
fn digest(path: &Path) -> Option<String> {
    use sha2::{Digest, Sha256};
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > 1 << 20 {
        return None;
    }
    Some(hex::encode(Sha256::digest(std::fs::read(path).ok()?)))
}

/// The hex SHA-256 of regular file `path`, read to its end, or `None`.
fn file_digest(path: &Path) -> Option<String> {
    use sha2::{Digest, Sha256};
    let mut f = crate::store::regular::open_regular(path).ok()?;
    let mut h = Sha256::new();
    std::io::copy(&mut f, &mut h).ok()?;
    Some(hex::encode(h.finalize()))
}

/// True when every file the `SHA256SUMS` of block directory `dir` lists (at least one) is
/// there, a regular file in `dir`, with the digest listed.
fn block_holds(dir: &Path) -> bool {
    let Some(listed) = crate::output::sums::read_bytes(dir)
        .ok()
        .and_then(|b| crate::output::sums::parse_bytes(&b).ok())
    else {
        return false;
    };
    !listed.is_empty()
        && listed.iter().all(|(name, hash)| {
            !name.contains('/')
                && file_digest(&dir.join(name)).is_some_and(|d| d.eq_ignore_ascii_case(hash))
        })
}

/// True when every block `emission.json` in emission directory `dir` lists is there, its
/// `manifest.json` with the digest listed, and holds its files ([`block_holds`]).
fn emission_holds(dir: &Path) -> bool {
    let Some(e) = crate::output::read_regular(&dir.join(EMISSION), crate::output::MAX_JSON)
        .ok()
        .and_then(|b| {
            serde_json::from_slice::<crate::output::emission_manifest::EmissionManifest>(&b).ok()
        })
    else {
        return false;
    };
    e.blocks.iter().all(|b| {
        let block = dir.join(&b.dir);
        !b.dir.contains('/')
            && file_digest(&block.join(MANIFEST)).is_some_and(|d| d == b.manifest_sha256)
            && block_holds(&block)
    })
}

/// True when something (a link itself included) is at `path`.
fn there(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// The record of a replacement under way, written (and flushed) beside the output before
/// anything at the destination is moved, removed once the older output is gone: with it, a
/// run that comes after a crash knows where each piece is and whether the new output and
/// its seed file are whole ([`recover`]). Every name is a file name in the output's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Journal {
    /// `block`, `deck` or `emission`.
    what: String,
    /// The output's name.
    out: String,
    /// The staged output's name (it holds the older output once they are exchanged), and
    /// the inode of the new output's directory, which moves with it (an older output with
    /// the same sealed file is told from it so).
    staged: String,
    staged_ino: u64,
    /// The file in the output written last, and its digest in the new output.
    sealed: String,
    sealed_sha256: String,
    /// Where the older output is moved aside where the file system cannot exchange two
    /// names in one step.
    aside: String,
    /// The seed file's name; the staged fresh seed's name and digest; where an older seed
    /// file is moved aside.
    seed: Option<String>,
    new_seed: Option<(String, String)>,
    seed_aside: Option<String>,
}

/// The first line of every journal.
const JOURNAL_HEAD: &str = "tirage replacement journal 1";

impl Journal {
    fn text(&self) -> String {
        use sha2::{Digest, Sha256};
        let opt = |o: &Option<String>| o.clone().unwrap_or_else(|| "-".into());
        let (ns, nd) = match &self.new_seed {
            Some((n, d)) => (n.clone(), d.clone()),
            None => ("-".into(), "-".into()),
        };
        let body = format!(
            "{JOURNAL_HEAD}\nwhat {}\noutput {}\nstaged {} {}\nsealed {} {}\naside {}\nseed {}\nnew-seed {} {}\nseed-aside {}\n",
            self.what,
            self.out,
            self.staged,
            self.staged_ino,
            self.sealed,
            self.sealed_sha256,
            self.aside,
            opt(&self.seed),
            ns,
            nd,
            opt(&self.seed_aside)
        );
        let end = hex::encode(Sha256::digest(body.as_bytes()));
        format!("{body}end {end}\n")
    }

    /// The journal in `text` for output `out`, or `None` when it is not one whole journal
    /// of that output naming only files beside it.
    fn parse(text: &str, out: &Path) -> Option<Journal> {
        use sha2::{Digest, Sha256};
        let (body, end) = text.strip_suffix('\n')?.rsplit_once('\n')?;
        let body = format!("{body}\n");
        if end.strip_prefix("end ")? != hex::encode(Sha256::digest(body.as_bytes())) {
            return None;
        }
        let mut lines = body.lines();
        if lines.next()? != JOURNAL_HEAD {
            return None;
        }
        let mut field = |key: &str| -> Option<Vec<String>> {
            let l = lines.next()?.strip_prefix(key)?.strip_prefix(' ')?;
            Some(l.split(' ').map(String::from).collect())
        };
        let one = |v: Vec<String>| -> Option<String> {
            match <[String; 1]>::try_from(v) {
                Ok([x]) => Some(x),
                Err(_) => None,
            }
        };
        let opt = |x: String| (x != "-").then_some(x);
        let what = one(field("what")?)?;
        let output = one(field("output")?)?;
        let [staged, ino] = <[String; 2]>::try_from(field("staged")?).ok()?;
        let staged_ino = ino.parse().ok()?;
        let [sealed, sealed_sha256] = <[String; 2]>::try_from(field("sealed")?).ok()?;
        let aside = one(field("aside")?)?;
        let seed = opt(one(field("seed")?)?);
        let [ns, nd] = <[String; 2]>::try_from(field("new-seed")?).ok()?;
        let seed_aside = opt(one(field("seed-aside")?)?);
        let name = out.file_name()?.to_str()?;
        let ours = format!(".{name}.tirage-");
        let hidden = |n: &str| n.starts_with(&ours) && !n.contains('/');
        let j = Journal {
            what,
            out: output,
            staged,
            staged_ino,
            sealed,
            sealed_sha256,
            aside,
            seed,
            new_seed: opt(ns).zip(opt(nd)),
            seed_aside,
        };
        let ok = ["block", "deck", "emission"].contains(&j.what.as_str())
            && j.out == name
            && hidden(&j.staged)
            && hidden(&j.aside)
            && [SUMS, EMISSION].contains(&j.sealed.as_str())
            && j.seed.as_ref().is_none_or(|s| *s == format!("{name}.seed"))
            && j.new_seed.as_ref().is_none_or(|(n, _)| hidden(n))
            && j.seed_aside.as_deref().is_none_or(hidden);
        ok.then_some(j)
    }
}

/// Where a replacement's pieces are, as [`Journal`] names them.
struct Pieces {
    out: PathBuf,
    staged: PathBuf,
    ino: u64,
    sealed: String,
    aside: PathBuf,
    seed: Option<PathBuf>,
    new_seed: Option<(PathBuf, String)>,
    seed_aside: Option<PathBuf>,
    parent: PathBuf,
}

impl Pieces {
    fn of(j: &Journal, parent: &Path) -> Pieces {
        let at = |n: &str| parent.join(n);
        Pieces {
            out: at(&j.out),
            staged: at(&j.staged),
            ino: j.staged_ino,
            sealed: j.sealed_sha256.clone(),
            aside: at(&j.aside),
            seed: j.seed.as_deref().map(at),
            new_seed: j.new_seed.as_ref().map(|(n, d)| (at(n), d.clone())),
            seed_aside: j.seed_aside.as_deref().map(at),
            parent: parent.to_path_buf(),
        }
    }

    fn sync(&self) -> Result<(), PlaceError> {
        durable::sync_dir(&self.parent).map_err(io(&self.parent))
    }

    /// Every piece the journal names beside the output (the staged output, the older one
    /// aside, the staged seed, the older seed aside) that is there is the current user's,
    /// and no one else can write it ([`crate::store::owner::ours`]). Errors: the first that
    /// is not.
    fn check(&self) -> Result<(), PlaceError> {
        let seeds = [
            self.new_seed.as_ref().map(|(p, _)| p),
            self.seed_aside.as_ref(),
        ];
        for p in [Some(&self.staged), Some(&self.aside)]
            .into_iter()
            .chain(seeds)
            .flatten()
        {
            crate::store::owner::ours(p)?;
        }
        Ok(())
    }

    /// Moves `from` to `to` (never replacing), once `from` is seen to be the current
    /// user's ([`crate::store::owner::ours`]) unless it is the output itself (whoever made
    /// the older output, `--force` may replace it). Errors: on `err_path`.
    fn mv(&self, from: &Path, to: &Path, err_path: &Path) -> Result<(), PlaceError> {
        if from != self.out {
            crate::store::owner::ours(from)?;
        }
        durable::rename_noreplace(from, to).map_err(io(err_path))
    }

    /// Exchanges the output and the staged one ([`exchange`]), once the staged one is
    /// seen to be the current user's.
    fn swap(&self) -> std::io::Result<()> {
        crate::store::owner::ours(&self.staged).map_err(std::io::Error::other)?;
        durable::exchange(&self.staged, &self.out)
    }

    /// True when `dir` is the new output's directory (its inode), whole or not.
    fn is_new_dir(&self, dir: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir() && m.ino() == self.ino)
    }

    /// True when directory `dir` holds the new output whole: the new output's directory
    /// (its inode) with its sealed file's digest.
    fn is_new(&self, dir: &Path, sealed_name: &str) -> bool {
        self.is_new_dir(dir) && digest(&dir.join(sealed_name)).is_some_and(|d| d == self.sealed)
    }

    /// True when `dir`, the new output's directory with its sealed file's digest
    /// ([`Pieces::is_new`]), holds every file that sealed file vouches for as it was
    /// written: each file a block's `SHA256SUMS` lists with its digest; for an emission,
    /// each block's `manifest.json` with the digest `emission.json` gives, and the files of
    /// the block's `SHA256SUMS`. Read once, when a replacement is recovered: a new output
    /// changed since it was staged is never put in place of the older one.
    fn is_new_whole(&self, dir: &Path, sealed_name: &str) -> bool {
        self.is_new(dir, sealed_name)
            && if sealed_name == EMISSION {
                emission_holds(dir)
            } else {
                block_holds(dir)
            }
    }

    /// True when the seed file holds the new seed (or no new seed goes there).
    fn seed_is_new(&self) -> bool {
        match (&self.seed, &self.new_seed) {
            (Some(path), Some((_, d))) => digest(path).is_some_and(|x| x == *d),
            _ => true,
        }
    }

    /// The first step: an older seed file moved aside (unless the new one is in already).
    fn seed_aside(&self) -> Result<(), PlaceError> {
        let (Some(path), Some(aside)) = (&self.seed, &self.seed_aside) else {
            return Ok(());
        };
        if there(path) && !(self.new_seed.is_some() && self.seed_is_new()) {
            self.mv(path, aside, path)?;
            self.sync()?;
        }
        Ok(())
    }

    /// The last step: the new seed file moved in (unless it is in already).
    fn seed_in(&self) -> Result<(), PlaceError> {
        let (Some(path), Some((staged, _))) = (&self.seed, &self.new_seed) else {
            return Ok(());
        };
        if !(there(path) && self.seed_is_new()) {
            self.mv(staged, path, path)?;
            self.sync()?;
        }
        Ok(())
    }

    /// Every step, in order: after each, no seed file sits beside an output it does not
    /// replay.
    fn forward(&self, sealed_name: &str) -> Result<(), PlaceError> {
        self.seed_aside()?;
        self.output_forward(sealed_name)?;
        self.seed_in()
    }

    /// The output step: the new output exchanged with the older one in one step (or, where
    /// the file system cannot, the older moved aside first), or moved in.
    fn output_forward(&self, sealed_name: &str) -> Result<(), PlaceError> {
        if there(&self.out) && self.is_new(&self.out, sealed_name) {
            return Ok(());
        }
        if there(&self.out) {
            match self.swap() {
                Ok(()) => return self.sync(),
                Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
                    self.mv(&self.out, &self.aside, &self.out)?;
                    self.sync()?;
                }
                Err(e) => return Err(io(&self.out)(e)),
            }
        }
        self.mv(&self.staged, &self.out, &self.out)?;
        self.sync()
    }

    /// Everything put back as it was before the replacement: the older output at the
    /// destination (the new one back at its staged name), the older seed file beside it
    /// (the new one back at its staged name). The new output is told by its directory
    /// alone, whole or not: a new output that is not whole never stays beside the older
    /// seed file.
    fn back(&self) -> Result<(), PlaceError> {
        if there(&self.out) && self.is_new_dir(&self.out) {
            if there(&self.staged) {
                // Exchanged: the older output is at the staged name.
                self.swap().map_err(io(&self.out))?;
            } else {
                self.mv(&self.out, &self.staged, &self.out)?;
            }
            self.sync()?;
        }
        if !there(&self.out) && there(&self.aside) {
            self.mv(&self.aside, &self.out, &self.aside)?;
            self.sync()?;
        }
        if let Some(path) = &self.seed {
            if let Some((staged, _)) = &self.new_seed {
                if there(path) && self.seed_is_new() && !there(staged) {
                    self.mv(path, staged, path)?;
                    self.sync()?;
                }
            }
            if let Some(aside) = self.seed_aside.as_ref().filter(|a| there(a)) {
                if !there(path) {
                    self.mv(aside, path, aside)?;
                    self.sync()?;
                }
            }
        }
        Ok(())
    }

    /// What the replaced output and seed file left: removed (the older output at the staged
    /// name or aside, the older seed file aside). `Err`: the first that could not be.
    fn remove_old(&self) -> Result<(), LeftOver> {
        let mut first = None;
        let not_ours = |e: crate::store::owner::NotOurs| std::io::Error::other(e.why);
        for p in [&self.staged, &self.aside] {
            if let Ok(m) = std::fs::symlink_metadata(p) {
                let r = if let Err(e) = crate::store::owner::ours(p) {
                    Err(not_ours(e))
                } else if m.is_dir() {
                    crate::store::owner::remove_dir_all_ours(p)
                } else {
                    std::fs::remove_file(p)
                };
                if let Err(error) = r {
                    first.get_or_insert(LeftOver {
                        what: LeftOver::OUTPUT,
                        path: p.clone(),
                        error,
                    });
                }
            }
        }
        if let Some(a) = self.seed_aside.as_ref().filter(|a| there(a)) {
            let r = crate::store::owner::ours(a)
                .map_err(not_ours)
                .and_then(|_| std::fs::remove_file(a));
            if let Err(error) = r {
                first.get_or_insert(LeftOver {
                    what: LeftOver::SEED,
                    path: a.clone(),
                    error,
                });
            }
        }
        let _ = durable::sync_dir(&self.parent);
        first.map_or(Ok(()), Err)
    }
}

impl Staged {
    /// The output in `tmp`, a temporary directory in `parent`, for destination `out` (a
    /// block or deck: `what`).
    pub(crate) fn new(
        tmp: tempfile::TempDir,
        out: PathBuf,
        parent: PathBuf,
        what: &'static str,
    ) -> Staged {
        Staged {
            tmp,
            out,
            parent,
            foreign: foreign_files,
            what,
            sealed: SUMS,
        }
    }

    /// The same, for an emission, whose tirage files are told by `foreign`.
    pub(crate) fn emission(mut self, foreign: fn(&Path) -> Vec<String>) -> Staged {
        self.foreign = foreign;
        self.what = "emission";
        self.sealed = EMISSION;
        self
    }

    /// The temporary directory holding the output.
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Refuses when files tirage did not write were put at the destination while the
    /// output was being made ([`PlaceError::ForeignFiles`]); [`Staged::put_in_place`] calls
    /// it again. Call it before acting on what the replacement makes stale.
    pub fn check_in_the_way(&self) -> Result<(), PlaceError> {
        if self.out.is_dir() {
            let names = (self.foreign)(&self.out);
            if !names.is_empty() {
                return Err(PlaceError::ForeignFiles {
                    path: self.out.clone(),
                    names,
                });
            }
        }
        Ok(())
    }

    /// What [`Staged::put_in_place`] would refuse before it moves anything, checked before
    /// anything beside the destination is touched (an older output's audit report and
    /// proofs are set aside just before the move): files in the way
    /// ([`Staged::check_in_the_way`]), and a seed file `seed` is to replace that is not the
    /// current user's, or that others can write ([`crate::store::owner::ours`]). Errors:
    /// [`PlaceError::ForeignFiles`], [`PlaceError::NotOurs`].
    pub fn check_before_placing(&self, seed: Option<&SeedPlacement>) -> Result<(), PlaceError> {
        self.check_in_the_way()?;
        if let Some(s) = seed.filter(|s| s.replace_old || s.new.is_some()) {
            if there(&s.path) {
                crate::store::owner::ours(&s.path)?;
            }
        }
        Ok(())
    }

    /// [`Staged::put_in_place`], with the older output's reports and proofs `aside` (see
    /// [`crate::derived::set_aside_stale`]): removed once the new output is in place ([`finish_stale`],
    /// whose entries it returns), put back when it could not be ([`restore_stale`]).
    /// Errors: [`Staged::put_in_place`]'s.
    pub fn put_in_place_after(
        self,
        seed: Option<&SeedPlacement>,
        aside: Vec<Result<SetAside, StaleReport>>,
    ) -> Result<(Placed, Vec<Result<Removed, StaleReport>>), PlaceError> {
        match self.put_in_place(seed) {
            Ok(placed) => Ok((placed, finish_stale(aside))),
            Err(e) => {
                restore_stale(aside);
                Err(e)
            }
        }
    }

    /// Moves the output to its destination, with its seed file (see [`SeedPlacement`]).
    /// First a journal of the replacement is written beside the destination and flushed
    /// ([`crate::store::lock::journal_path`]); then the older seed file is moved aside; then the
    /// new output and the older one exchange names in one step (or, where the file system
    /// cannot, the older is moved aside first); then the new seed file is moved in; the
    /// folder is flushed to the disk after each step. So a crash at any point leaves at
    /// the destination the older output or the new one whole, never beside a seed file that
    /// does not replay it, and the journal with which the next run ([`recover`]) finishes
    /// the replacement. Errors: a step failed; then everything is
    /// put back as it was, the journal removed, and the output stays staged (removed when
    /// dropped); if putting it back failed too, the journal stays for the next run.
    pub fn put_in_place(self, seed: Option<&SeedPlacement>) -> Result<Placed, PlaceError> {
        // Checked again: a file may have been put there while the output was being made.
        self.check_in_the_way()?;
        let Staged {
            tmp,
            out,
            parent,
            foreign: _,
            what,
            sealed,
        } = self;
        let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
        let hidden = |out: &Path, what: &str| {
            crate::store::lock::hidden_name(out, what).map_err(io(&parent))
        };
        let staged_sealed = tmp.path().join(sealed);
        let sealed_sha256 = digest(&staged_sealed).ok_or_else(|| PlaceError::Io {
            path: staged_sealed.clone(),
            error: std::io::Error::other("the staged output has no sealed file"),
        })?;
        let mut journal = Journal {
            what: what.into(),
            out: name(&out).unwrap_or_default(),
            staged: name(tmp.path()).unwrap_or_default(),
            staged_ino: {
                use std::os::unix::fs::MetadataExt;
                std::fs::symlink_metadata(tmp.path())
                    .map_err(io(tmp.path()))?
                    .ino()
            },
            sealed: sealed.into(),
            sealed_sha256,
            aside: name(&hidden(&out, "old")?).unwrap_or_default(),
            seed: None,
            new_seed: None,
            seed_aside: None,
        };
        if let Some(s) = seed {
            journal.seed = name(&s.path);
            if let Some(new) = &s.new {
                let d = digest(new).ok_or_else(|| PlaceError::Io {
                    path: new.clone(),
                    error: std::io::Error::other("the staged seed file cannot be read"),
                })?;
                journal.new_seed = name(new).map(|n| (n, d));
            }
            if s.replace_old || s.new.is_some() {
                journal.seed_aside = name(&hidden(&out, "oldseed")?);
            }
        }
        let jpath = crate::store::lock::journal_path(&out);
        if let Err(e) = durable::write_file(&jpath, journal.text().as_bytes())
            .and_then(|()| durable::sync_dir(&parent))
        {
            let _ = std::fs::remove_file(&jpath);
            return Err(io(&jpath)(e));
        }
        let pieces = Pieces::of(&journal, &parent);
        let steps = pieces.forward(sealed);
        if let Err(e) = steps {
            // Put back as it was: then the journal goes and the staged output with it.
            if pieces.back().is_ok() && std::fs::remove_file(&jpath).is_ok() {
                let _ = durable::sync_dir(&parent);
            } else {
                // The journal stays, and what it names: the next run recovers.
                let _ = tmp.keep();
            }
            return Err(e);
        }
        // In place: the staged name now holds the older output (or nothing), removed by
        // finish().
        let _ = tmp.keep();
        Ok(Placed {
            journal,
            out,
            parent,
        })
    }
}

impl Placed {
    /// Removes the older output and seed file, then the journal, which goes whatever was
    /// left: the new output and its seed file are in place, and what is left lies under
    /// hidden names that the next run to this destination removes as leftovers (a journal
    /// left would make every command refuse the new output). `Err`: the first piece that
    /// could not be removed ([`LeftOver`]; the new output is in place all the same).
    pub fn finish(self) -> Result<(), LeftOver> {
        let left = Pieces::of(&self.journal, &self.parent).remove_old();
        let jpath = crate::store::lock::journal_path(&self.out);
        let journal = std::fs::remove_file(&jpath).map_err(|error| LeftOver {
            what: LeftOver::JOURNAL,
            path: jpath,
            error,
        });
        let _ = durable::sync_dir(&self.parent);
        journal.and(left)
    }
}

/// What [`recover`] did with a replacement an earlier run left unfinished (killed, or
/// failed part-way): said to the user.
#[derive(Debug, PartialEq, Eq)]
pub struct Recovered {
    /// The destination.
    pub out: PathBuf,
    /// `block`, `deck` or `emission`.
    pub what: String,
    /// What was done.
    pub outcome: Outcome,
    /// The output at the destination now, if any (none: there was no older output).
    pub in_place: bool,
    /// The seed file beside it, if any.
    pub seed: Option<PathBuf>,
}

/// What [`recover`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The new output and its seed file were whole: the replacement was finished.
    Finished,
    /// The new output or its seed file was not whole: what was replaced is back.
    RolledBack,
    /// The journal itself was not whole (the run stopped while writing it, before anything
    /// was moved): it was removed, nothing else.
    TornJournal,
}

impl std::fmt::Display for Recovered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (out, what) = (self.out.display(), &self.what);
        match self.outcome {
            Outcome::TornJournal => {
                return write!(
                    f,
                    "removed {}, left by an earlier run that did not finish (the journal of a \
                     replacement, not written whole: nothing had been moved)",
                    crate::store::lock::journal_path(&self.out).display()
                )
            }
            Outcome::Finished => write!(
                f,
                "an earlier run was stopped while it put {out} in place; its new {what} was \
                 whole, so the replacement was finished: the new {what} is in place (any older \
                 {what} it replaced was removed)"
            )?,
            Outcome::RolledBack if self.in_place => write!(
                f,
                "an earlier run was stopped while it replaced {out}; its new {what} was not \
                 whole, so the replacement was rolled back: the {what} that was there is back \
                 in place"
            )?,
            Outcome::RolledBack => {
                return write!(
                    f,
                    "an earlier run was stopped while it made {out}; its {what} was not whole \
                     and is removed: nothing is at {out}"
                )
            }
        }
        let command = if what == "deck" { "deck" } else { "generate" };
        match &self.seed {
            Some(seed) => write!(
                f,
                ", with its seed file {}, which rebuilds it: tirage {command} SPEC \
                 --seed-file {} --force --out {out} (with the {what}'s spec.toml, block \
                 numbers and validation key)",
                seed.display(),
                seed.display()
            ),
            None => write!(
                f,
                " (made from a seed given to that run, not saved beside it: the same seed \
                 rebuilds it)"
            ),
        }
    }
}

/// A replacement of an output that a run left unfinished, as its journal tells
/// ([`interrupted`]): said to a command that reads the output, which refuses it.
#[derive(Debug, PartialEq, Eq)]
pub struct Interrupted {
    /// The destination.
    pub out: PathBuf,
    /// `block`, `deck` or `emission` (empty when the journal is not whole).
    pub what: String,
    /// The journal beside the destination.
    pub journal: PathBuf,
    /// Each seed file there is of the replacement, with whose it is (`the older block's`).
    pub seeds: Vec<(String, PathBuf)>,
    /// The journal, or a piece it names, that is another user's or that others can write:
    /// `generate` refuses it rather than finish the replacement.
    pub stranger: Option<crate::store::owner::NotOurs>,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let out = self.out.display();
        let what = if self.what.is_empty() {
            "output"
        } else {
            self.what.as_str()
        };
        let command = if self.what == "deck" {
            "tirage deck SPEC"
        } else {
            "tirage generate SPEC"
        };
        if let Some(s) = &self.stranger {
            return write!(
                f,
                "{out}: the journal of a replacement of this {what} lies beside it ({}), so \
                 nothing is read from {out}; but {}: {why}, so `{command}` refuses to finish or \
                 roll back that replacement, and so does this command; if no run of yours \
                 left it, someone else may have planted it to swap the {what} and its seed: \
                 look at it, then remove it",
                self.journal.display(),
                s.path.display(),
                why = s.why
            );
        }
        write!(
            f,
            "{out}: a replacement of this {what} was interrupted (its journal {} is beside it): \
             what is at {out} may be the older {what} or the new one, half put in place, so \
             nothing is read from it; `{command} --out {out}` (no --force, no seed option) \
             first finishes the replacement, or rolls it back when the new {what} is not whole, \
             says which, then stops as {out} exists",
            self.journal.display()
        )?;
        if self.seeds.is_empty() {
            return write!(f, "; no seed file of it lies beside {out}");
        }
        let seeds: Vec<String> = self
            .seeds
            .iter()
            .map(|(whose, p)| format!("{whose} in {}", p.display()))
            .collect();
        write!(f, "; the seed: {}", seeds.join(", "))
    }
}

/// The replacement of output `out` that a run left unfinished (its journal beside `out`,
/// [`crate::store::lock::journal_path`]), or `None` when there is no journal. Reads only:
/// the next run writing `out` finishes it or rolls it back ([`recover`]). The seed files
/// named are those there now: `<out>.seed`, the older output's moved aside, the new
/// output's staged.
pub fn interrupted(out: &Path) -> Option<Interrupted> {
    let journal = crate::store::lock::journal_path(out);
    if !there(&journal) {
        return None;
    }
    let parent = durable::parent_of(out);
    let (text, stranger) = match journal_text(&journal) {
        Ok(t) => (t, None),
        Err(e) => (None, Some(e)),
    };
    let j = text.and_then(|t| Journal::parse(&t, out));
    let stranger = stranger.or_else(|| {
        j.as_ref()
            .and_then(|j| Pieces::of(j, &parent).check().err())
            .and_then(|e| match e {
                PlaceError::NotOurs(n) => Some(n),
                _ => None,
            })
    });
    let mut seeds = Vec::new();
    let what = j.as_ref().map_or_else(String::new, |j| j.what.clone());
    if let Some(j) = &j {
        let w = &j.what;
        let named = [
            (
                j.seed.clone(),
                format!("the seed file of what is at the {w}'s place"),
            ),
            (j.seed_aside.clone(), format!("the older {w}'s")),
            (
                j.new_seed.as_ref().map(|(n, _)| n.clone()),
                format!("the new {w}'s"),
            ),
        ];
        for (name, whose) in named {
            if let Some(p) = name.map(|n| parent.join(n)).filter(|p| there(p)) {
                seeds.push((whose, p));
            }
        }
    }
    Some(Interrupted {
        out: out.to_path_buf(),
        what,
        journal,
        seeds,
        stranger,
    })
}

/// Finishes or rolls back a replacement of output `out` that an earlier run left unfinished
/// (its journal beside `out`, [`crate::store::lock::journal_path`]): finished when the new output
/// and its seed file are whole (the older ones then removed), else rolled back (the older
/// ones put back). The caller holds `out`'s exclusive lock. Returns what was done (`None`:
/// no journal). A journal that is not whole was being written when the run stopped, before
/// anything was moved: it is removed, and nothing else ([`Outcome::TornJournal`]; the
/// staged output and seed are then removed as leftovers). Nothing is acted on unless the
/// journal and every piece it names there are the current user's, that no one else can
/// write ([`crate::store::owner`]): anyone who can write the folder could have planted
/// them to swap the output and its seed for theirs. Errors: the journal or a piece is
/// not the current user's ([`PlaceError::NotOurs`], nothing moved); a move failed; the
/// journal then stays.
pub fn recover(out: &Path) -> Result<Option<Recovered>, PlaceError> {
    let jpath = crate::store::lock::journal_path(out);
    if !there(&jpath) {
        return Ok(None);
    }
    let parent = durable::parent_of(out);
    let text = journal_text(&jpath)?;
    let Some(j) = text.and_then(|t| Journal::parse(&t, out)) else {
        std::fs::remove_file(&jpath).map_err(io(&jpath))?;
        durable::sync_dir(&parent).map_err(io(&parent))?;
        return Ok(Some(Recovered {
            out: out.to_path_buf(),
            what: String::new(),
            outcome: Outcome::TornJournal,
            in_place: there(out),
            seed: None,
        }));
    };
    let p = Pieces::of(&j, &parent);
    p.check()?;
    let seed_whole = match &p.new_seed {
        Some((staged, d)) => p.seed_is_new() || digest(staged).is_some_and(|x| x == *d),
        None => true,
    };
    let output_whole = (there(&p.out) && p.is_new_whole(&p.out, &j.sealed))
        || (there(&p.staged) && p.is_new_whole(&p.staged, &j.sealed));
    let finished = seed_whole && output_whole;
    if finished {
        p.forward(&j.sealed)?;
        // What cannot be removed lies under hidden names: the caller's removal of the
        // leftovers tries again, and warns of what stays.
        let _ = p.remove_old();
    } else {
        p.back()?;
    }
    std::fs::remove_file(&jpath).map_err(io(&jpath))?;
    durable::sync_dir(&parent).map_err(io(&parent))?;
    Ok(Some(Recovered {
        out: out.to_path_buf(),
        what: j.what,
        outcome: if finished {
            Outcome::Finished
        } else {
            Outcome::RolledBack
        },
        in_place: there(out),
        // The seed file beside the output now, whether this replacement moved it or not.
        seed: Some(out.with_file_name(format!("{}.seed", j.out))).filter(|s| there(s)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal() -> Journal {
        Journal {
            what: "block".into(),
            out: "b".into(),
            staged: ".b.tirage-tmp-1-x".into(),
            staged_ino: 12345,
            sealed: SUMS.into(),
            sealed_sha256: "ab".repeat(32),
            aside: ".b.tirage-old-1-y".into(),
            seed: Some("b.seed".into()),
            new_seed: Some((".b.tirage-seed-1-z".into(), "cd".repeat(32))),
            seed_aside: Some(".b.tirage-oldseed-1-w".into()),
        }
    }

    #[test]
    fn a_journal_reads_back_whole_or_not_at_all() {
        let out = Path::new("/d/b");
        let j = journal();
        let text = j.text();
        assert_eq!(Journal::parse(&text, out), Some(j.clone()));
        // Torn at any byte: not a journal.
        for cut in 0..text.len() {
            assert_eq!(Journal::parse(&text[..cut], out), None, "cut at {cut}");
        }
        // Another output's.
        assert_eq!(Journal::parse(&text, Path::new("/d/c")), None);
        let none = Journal {
            seed: None,
            new_seed: None,
            seed_aside: None,
            ..j
        };
        assert_eq!(Journal::parse(&none.text(), out), Some(none));
    }

    #[test]
    fn a_journal_names_only_the_outputs_own_files_beside_it() {
        let out = Path::new("/d/b");
        let planted = [
            Journal {
                staged: "../etc".into(),
                ..journal()
            },
            Journal {
                aside: ".b.tirage-old/../../x".into(),
                ..journal()
            },
            Journal {
                aside: "c".into(),
                ..journal()
            },
            Journal {
                seed: Some("other.seed".into()),
                ..journal()
            },
            Journal {
                new_seed: Some(("secret".into(), "00".into())),
                ..journal()
            },
            Journal {
                sealed: "tickets.csv".into(),
                ..journal()
            },
            Journal {
                what: "anything".into(),
                ..journal()
            },
        ];
        for j in planted {
            assert_eq!(Journal::parse(&j.text(), out), None, "{j:?}");
        }
    }

    /// The `SHA256SUMS` of the new output of [`half_replaced`]: its one file,
    /// `tickets.csv`, holding `tickets`.
    const NEW_SUMS: &[u8] =
        b"45a5c62241eec841f042aee5ae4626a40ea31e8393aa44d0f9ce801d0325ae5d  tickets.csv\n";

    /// A folder with an old output moved aside (as where the file system cannot exchange
    /// two names), its new one staged and its seed files, and the journal of that
    /// replacement. Returns (folder, out).
    fn half_replaced(new_sums: &str) -> (tempfile::TempDir, PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let at = |n: &str| d.path().join(n);
        let out = at("b");
        let j = Journal {
            sealed_sha256: hex::encode(<sha2::Sha256 as sha2::Digest>::digest(NEW_SUMS)),
            new_seed: Some((
                ".b.tirage-seed-1-z".into(),
                hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b"seed-new\n")),
            )),
            ..journal()
        };
        std::fs::create_dir(at(&j.aside)).unwrap();
        std::fs::write(at(&j.aside).join(SUMS), "old").unwrap();
        std::fs::create_dir(at(&j.staged)).unwrap();
        let j = Journal {
            staged_ino: std::os::unix::fs::MetadataExt::ino(
                &std::fs::metadata(at(&j.staged)).unwrap(),
            ),
            ..j
        };
        std::fs::write(at(&j.staged).join(SUMS), new_sums).unwrap();
        std::fs::write(at(&j.staged).join("tickets.csv"), "tickets").unwrap();
        std::fs::write(at(".b.tirage-seed-1-z"), "seed-new\n").unwrap();
        std::fs::write(at(".b.tirage-oldseed-1-w"), "seed-old\n").unwrap();
        std::fs::write(crate::store::lock::journal_path(&out), j.text()).unwrap();
        (d, out)
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_replacement_cut_short_with_its_new_output_whole_is_finished() {
        let (d, out) = half_replaced(std::str::from_utf8(NEW_SUMS).unwrap());
        let r = recover(&out).unwrap().unwrap();
        assert_eq!(r.outcome, Outcome::Finished);
        assert_eq!(r.seed, Some(d.path().join("b.seed")));
        assert_eq!(names(d.path()), ["b", "b.seed"]);
        assert_eq!(std::fs::read(out.join(SUMS)).unwrap(), NEW_SUMS);
        assert_eq!(
            std::fs::read_to_string(d.path().join("b.seed")).unwrap(),
            "seed-new\n"
        );
        assert_eq!(recover(&out).unwrap(), None);
    }

    #[test]
    fn a_replacement_cut_short_with_its_new_output_not_whole_is_rolled_back() {
        let (d, out) = half_replaced("new, changed");
        let r = recover(&out).unwrap().unwrap();
        assert_eq!(r.outcome, Outcome::RolledBack);
        assert!(
            r.to_string().contains("so the replacement was rolled back"),
            "{r}"
        );
        // The old output and seed file back; the staged ones left for the leftovers' removal.
        assert_eq!(
            names(d.path()),
            [".b.tirage-seed-1-z", ".b.tirage-tmp-1-x", "b", "b.seed"]
        );
        assert_eq!(std::fs::read_to_string(out.join(SUMS)).unwrap(), "old");
        assert_eq!(
            std::fs::read_to_string(d.path().join("b.seed")).unwrap(),
            "seed-old\n"
        );
    }

    #[test]
    fn a_new_output_with_a_file_changed_since_it_was_sealed_is_rolled_back() {
        let (d, out) = half_replaced(std::str::from_utf8(NEW_SUMS).unwrap());
        let staged = d.path().join(journal().staged);
        std::fs::write(staged.join("tickets.csv"), "tickets, changed").unwrap();
        let r = recover(&out).unwrap().unwrap();
        assert_eq!(r.outcome, Outcome::RolledBack);
        assert_eq!(std::fs::read_to_string(out.join(SUMS)).unwrap(), "old");
        assert_eq!(
            std::fs::read_to_string(d.path().join("b.seed")).unwrap(),
            "seed-old\n"
        );
    }

    #[test]
    fn a_new_output_exchanged_in_but_not_whole_goes_back_to_its_staged_name() {
        // Cut short after the exchange, before the new seed file went in: the older
        // output at the staged name, the new one (since changed) at the output's.
        let (d, out) = half_replaced("new, changed");
        let j = Journal::parse(
            &std::fs::read_to_string(crate::store::lock::journal_path(&out)).unwrap(),
            &out,
        )
        .unwrap();
        let at = |n: &str| d.path().join(n);
        std::fs::rename(at(&j.staged), &out).unwrap();
        std::fs::rename(at(&j.aside), at(&j.staged)).unwrap();
        let r = recover(&out).unwrap().unwrap();
        assert_eq!(r.outcome, Outcome::RolledBack);
        // The older output is back with its seed file; the new one is at its staged name,
        // for the leftovers' removal, never beside the older seed file.
        assert_eq!(
            names(d.path()),
            [".b.tirage-seed-1-z", ".b.tirage-tmp-1-x", "b", "b.seed"]
        );
        assert_eq!(std::fs::read_to_string(out.join(SUMS)).unwrap(), "old");
        assert_eq!(
            std::fs::read_to_string(at(&j.staged).join(SUMS)).unwrap(),
            "new, changed"
        );
        assert_eq!(std::fs::read_to_string(at("b.seed")).unwrap(), "seed-old\n");
    }

    #[test]
    fn a_replacement_done_removes_its_journal_even_when_the_older_output_stays() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("b");
        let j = journal();
        std::fs::create_dir(&out).unwrap();
        // The older output at the staged name, writable by others: never removed.
        let old = d.path().join(&j.staged);
        std::fs::create_dir(&old).unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o777)).unwrap();
        let jpath = crate::store::lock::journal_path(&out);
        std::fs::write(&jpath, j.text()).unwrap();
        let placed = Placed {
            journal: j,
            out: out.clone(),
            parent: d.path().to_path_buf(),
        };
        let left = placed.finish().unwrap_err();
        assert_eq!(left.what, LeftOver::OUTPUT);
        assert_eq!(left.path, old);
        assert!(
            left.to_string()
                .starts_with("the output replaced could not be removed and is left at ")
                && left
                    .to_string()
                    .ends_with("the next run to this destination removes it"),
            "{left}"
        );
        // The new output is readable: no journal says its replacement is under way.
        assert!(!jpath.exists());
        assert!(interrupted(&out).is_none());
        assert_eq!(names(d.path()), [".b.tirage-tmp-1-x", "b"]);
    }
}
