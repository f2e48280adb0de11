//! Seed options shared by `generate` and `deck`, the secret seed file, and the commitments
//! of a seed ceremony (`tirage seed commit`).

use anyhow::{bail, Context, Result};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use tirage::block::Provenance;
use tirage::crypto::ceremony::{Binding, Commitment};
use tirage::crypto::rng::{Beacon, Seed, SeedShare};
use tirage::generate::SeedPlacement;
use tirage::spec::GameSpec;

/// Where the master seed comes from.
#[derive(clap::Args, Debug)]
pub(super) struct SeedArgs {
    /// Master seed, 64 hex digits, to replay: for tests and examples only (a command line
    /// is seen by every user of the machine), so it needs --insecure-seed; use --seed-file.
    /// Default: a fresh seed from the operating system's CSPRNG, saved with mode 0600
    /// beside the output as <out>.seed.
    #[arg(long, conflicts_with = "seed_file")]
    seed: Option<String>,
    /// File holding the master seed (64 hex digits).
    #[arg(long, conflicts_with = "seed_share")]
    seed_file: Option<PathBuf>,
    /// File holding one party's seed share (64 hex digits, `tirage seed new`); repeat for
    /// each party, in the order of --commitments. The master seed is
    /// SHA-256("tirage/v1/seed-shares" ‖ 0x00 ‖ share₁ ‖ … ‖ shareₙ), then mixed with
    /// --beacon if given; the manifest records each share's commitment, never a share.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "seed",
        requires = "commitments"
    )]
    seed_share: Vec<PathBuf>,
    /// The share commitments the parties published before any share was revealed (`tirage
    /// seed commit SHARE --spec SPEC --blocks RANGE`), one line per party in share order:
    /// every share must open its line, and every line must bind this game, emission, spec
    /// and the blocks made, so no party can choose its share once it has seen another's,
    /// and one ceremony makes the blocks it names and no other.
    #[arg(long, value_name = "FILE", requires = "seed_share")]
    commitments: Option<PathBuf>,
    /// A public value fixed after every commitment was published (a draw result, a public
    /// randomness beacon's output; 32 to 128 hex digits), mixed into the seed made of the
    /// shares and recorded in the manifest: no party, nor all but one together, can then
    /// aim an outcome.
    #[arg(long, value_name = "HEX", requires = "seed_share")]
    beacon: Option<String>,
    /// Accept a seed given on the command line (--seed) and weak secrets (the documented
    /// test seed, all zero, a repeated pattern): for tests only, never a production block.
    #[arg(long)]
    insecure_seed: bool,
}

impl SeedArgs {
    /// The seed for `blocks` of the game `spec` (0..=0: a specimen deck), and whether it is
    /// fresh (drawn now from the OS, to be saved). Errors: `--seed` without
    /// `--insecure-seed`; a file cannot be read or is not 64 hex digits; a weak seed or share without `--insecure-seed`; a commitment that
    /// does not bind these blocks of this game, emission and spec, or whose signature does
    /// not hold; a share that does not open its commitment; a malformed beacon.
    pub(super) fn seed(
        &self,
        spec: &GameSpec,
        blocks: RangeInclusive<u32>,
    ) -> Result<(Seed, bool)> {
        if self.seed.is_some() && !self.insecure_seed {
            bail!(
                "--seed puts the seed on the command line, where every user of the machine can read it: it is for tests and examples only, with --insecure-seed; a production seed is read from a file (--seed-file) or drawn fresh (no seed option); nothing was done"
            );
        }
        let shares = self.shares(spec, &blocks)?;
        let (seed, fresh) = match (&self.seed, &self.seed_file) {
            _ if !shares.is_empty() => (
                Seed::from_shares_and_beacon(&shares, self.beacon()?.as_ref()),
                false,
            ),
            (Some(hex), _) => (Seed::from_hex(hex).context("--seed")?, false),
            (None, Some(f)) => (read_secret(f, "seed file")?, false),
            (None, None) => (Seed::from_os()?, true),
        };
        if !fresh && shares.is_empty() {
            refuse_weak(&seed, "the seed", self.insecure_seed)?;
        }
        for (option, secret) in self.given(&seed)? {
            self.refuse_secret_beacon(&secret.0, &option)?;
        }
        Ok((seed, fresh))
    }

    /// Refuses `--beacon` when its text holds the 256-bit `secret` given by `option` (the
    /// seed, a share, the validation key), or is part of it, in hex of any case: the
    /// beacon is written in the public manifest.json. The message names the option, never
    /// the bytes.
    pub(super) fn refuse_secret_beacon(&self, secret: &[u8; 32], option: &str) -> Result<()> {
        let Some(beacon) = &self.beacon else {
            return Ok(());
        };
        let (beacon, secret) = (beacon.trim().to_ascii_lowercase(), hex::encode(secret));
        if beacon.contains(&secret) || (!beacon.is_empty() && secret.contains(&beacon)) {
            bail!(
                "--beacon holds the secret of {option} (or part of it): the beacon is public, written in manifest.json; give the public value fixed after the commitments (a draw result, a randomness beacon's output); nothing was done"
            );
        }
        Ok(())
    }

    /// The secrets this run was given for `seed` (the master seed), each with the option
    /// that gave it: the seed (`--seed`, `--seed-file F`) or each share (`--seed-share F`)
    /// and the master seed made of them. Errors: a share file cannot be read.
    pub(super) fn given(&self, seed: &Seed) -> Result<Vec<(String, Seed)>> {
        let mut given = Vec::new();
        if let Some(f) = &self.seed_file {
            given.push((format!("--seed-file {}", f.display()), Seed(seed.0)));
        }
        if self.seed.is_some() {
            given.push(("--seed".to_string(), Seed(seed.0)));
        }
        if !self.seed_share.is_empty() {
            for (s, p) in read_shares(&self.seed_share)?.iter().zip(&self.seed_share) {
                given.push((format!("--seed-share {}", p.display()), Seed(s.0)));
            }
            given.push((
                "the master seed made of the --seed-share files".to_string(),
                Seed(seed.0),
            ));
        }
        Ok(given)
    }

    /// True when weak secrets are accepted (`--insecure-seed`).
    pub(super) fn insecure(&self) -> bool {
        self.insecure_seed
    }

    /// The beacon, if given. Errors: not 32 to 128 hex digits.
    fn beacon(&self) -> Result<Option<Beacon>> {
        self.beacon
            .as_deref()
            .map(|b| Beacon::from_hex(b).map_err(|e| anyhow::anyhow!("--beacon: {e}")))
            .transpose()
    }

    /// The shares, each checked against its commitment, each commitment against what is
    /// made.
    fn shares(&self, spec: &GameSpec, blocks: &RangeInclusive<u32>) -> Result<Vec<SeedShare>> {
        let shares = read_shares(&self.seed_share)?;
        for (s, p) in shares.iter().zip(&self.seed_share) {
            refuse_weak(
                &Seed(s.0),
                &format!("the seed share {}", p.display()),
                self.insecure_seed,
            )?;
        }
        if let Some(c) = &self.commitments {
            let lines = read_commitments(c)?;
            if lines.len() != shares.len() {
                bail!(
                    "{} holds {} commitment(s) and {} seed share(s) were given: one share per published commitment, in its order",
                    c.display(),
                    lines.len(),
                    shares.len()
                );
            }
            for (i, ((s, p), (n, line))) in
                shares.iter().zip(&self.seed_share).zip(&lines).enumerate()
            {
                if let Some(why) =
                    line.binding
                        .refuses(spec.game_code, spec.emission, &spec.sha256, blocks)
                {
                    bail!(
                        "{} line {n}: commitment {} does not bind what is being made: {why}; a ceremony makes the blocks its parties committed to and no other: hold a new ceremony (`tirage seed commit SHARE --spec SPEC --blocks RANGE`)",
                        c.display(),
                        i + 1,
                    );
                }
                if !line.opened_by(s) {
                    bail!(
                        "the seed share {} does not open commitment {} of {} (line {n}): a share must be the one its party committed to before the shares were revealed",
                        p.display(),
                        i + 1,
                        c.display(),
                    );
                }
            }
        }
        Ok(shares)
    }

    /// What the manifest records about the seed: each share's published commitment line
    /// and the beacon, when the seed was combined from shares. Errors: as
    /// [`SeedArgs::seed`].
    pub(super) fn provenance(&self) -> Result<Provenance> {
        let seed_shares = match &self.commitments {
            Some(c) if !self.seed_share.is_empty() => {
                Some(read_commitments(c)?.iter().map(|(_, l)| l.line()).collect())
            }
            _ => None,
        };
        Ok(Provenance {
            seed_shares,
            insecure_seed: self.insecure_seed,
            seed_beacon: self.beacon()?.map(|b| b.to_hex()),
            ..Provenance::default()
        })
    }
}

/// Refuses a weak secret (see [`Seed::weakness`]) unless `insecure`.
pub(super) fn refuse_weak(secret: &Seed, what: &str, insecure: bool) -> Result<()> {
    match secret.weakness() {
        Some(why) if !insecure => bail!(
            "{what} is weak: {why}; production secrets come from the operating system (`tirage seed new`, or no --seed-file) or from seed shares; --insecure-seed accepts it, for tests only"
        ),
        _ => Ok(()),
    }
}

/// Refuses validation key `key`, read from `key_file`, when its bytes are those of a secret
/// of `given` (each with the option that gave it, [`SeedArgs::given`]): a validation key is
/// a secret of its own, or whoever holds the seed (or a share) computes every code. The
/// message names both options, never the bytes.
pub(super) fn refuse_seed_as_key(
    key: &[u8; 32],
    key_file: &Path,
    given: &[(String, Seed)],
) -> Result<()> {
    match given.iter().find(|(_, s)| s.0 == *key) {
        Some((option, _)) => bail!(
            "--validation-key {} holds the same secret as {option}: the validation key must be a secret of its own (`tirage seed new`, kept by its own custodian), or whoever holds the seed computes every validation code; nothing was done",
            key_file.display()
        ),
        None => Ok(()),
    }
}

/// Warns (stderr, one line), as ssh does of a private key, when the secret file `path`
/// (`what`: `seed file`, `validation key file`, `secret key`, …) is open to other users
/// than its owner (any of the mode bits 077): names it and the `chmod 600` that makes it
/// its owner's alone; once per file, however often it is read. A file that cannot be
/// examined is not warned of (reading it says why).
pub(super) fn warn_if_open(path: &Path, what: &str) {
    use std::os::unix::fs::MetadataExt;
    static WARNED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    if let Ok(m) = std::fs::metadata(path) {
        let first = || {
            let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
            let first = !warned.iter().any(|p| p == path);
            warned.push(path.to_path_buf());
            first
        };
        if m.is_file() && m.mode() & 0o077 != 0 && first() {
            let name = tirage::crypto::secret_file_name(path);
            errln!(
                "tirage: warning: the {what} {name} is open to other users than its owner \
                 (mode {:o}): whoever can read it holds the secret; make it its owner's \
                 alone: chmod 600 {name}",
                m.mode() & 0o7777,
            );
        }
    }
}

/// Loads the age identity files `paths` ([`Identities::load`]), having warned of each that
/// others can read ([`warn_if_open`]). Errors: as [`Identities::load`].
pub(super) fn load_identities(paths: &[PathBuf]) -> Result<tirage::output::seal::Identities> {
    for p in paths {
        warn_if_open(p, "age identity");
    }
    tirage::output::seal::Identities::load(paths).context("the age identity (--identity)")
}

/// Loads the minisign secret key at `path`, if one is given
/// ([`tirage::crypto::sign::Signer::load`]), then warns when others can read it
/// ([`warn_if_open`]). Errors: as [`tirage::crypto::sign::Signer::load`].
pub(super) fn load_signer(path: Option<&Path>) -> Result<Option<tirage::crypto::sign::Signer>> {
    let signer = path
        .map(tirage::crypto::sign::Signer::load)
        .transpose()
        .context("the signing key (--sign)")?;
    if let Some(k) = path {
        warn_if_open(k, "secret key");
    }
    Ok(signer)
}

/// Reads a secret file of 64 hex digits (a seed, a share or a validation key); warns when
/// others can read it ([`warn_if_open`]), once it is known to hold one: a file of another
/// kind given by mistake (a spec) is refused without advice to lock it up.
pub(super) fn read_secret(path: &Path, what: &str) -> Result<Seed> {
    let text = zeroize::Zeroizing::new(read_small(path, what)?);
    let seed = Seed::from_hex(&text)
        .with_context(|| format!("{what} {}", tirage::crypto::secret_file_name(path)))?;
    warn_if_open(path, what);
    Ok(seed)
}

/// Reads a published commitments file: one commitment line per party (`tirage seed
/// commit`), each with its line number; blank lines and lines starting with `#` are
/// skipped. Every signed line's signature is checked. Errors: a line of another form
/// (named by number, never quoted: a secret given here by mistake is not printed), a
/// signature that does not hold, no commitment at all, one given twice.
pub(super) fn read_commitments(path: &Path) -> Result<Vec<(usize, Commitment)>> {
    let text = zeroize::Zeroizing::new(read_small_up_to(path, "commitments file", 64 << 10)?);
    let mut lines: Vec<(usize, Commitment)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let (n, line) = (n + 1, line.trim());
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let c = Commitment::parse(line)
            .map_err(|e| anyhow::anyhow!("{} line {n}: {e}", path.display()))?;
        c.check_signature()
            .map_err(|e| anyhow::anyhow!("{} line {n}: {e}", path.display()))?;
        if let Some((m, _)) = lines.iter().find(|(_, o)| o.commitment() == c.commitment()) {
            bail!(
                "{} line {n}: the same commitment as line {m}",
                path.display()
            );
        }
        lines.push((n, c));
    }
    if lines.is_empty() {
        bail!("{}: no share commitment in it", path.display());
    }
    Ok(lines)
}

/// `tirage seed commit SHARE --spec SPEC --blocks RANGE [--sign KEY]`: the published line
/// of `share` bound to `blocks` of the game `spec`, signed with `sign` when given. Errors:
/// the share cannot be read, is not 64 hex digits or is weak; the spec does not load; the
/// range is malformed; the key cannot be loaded or sign.
pub(super) fn commit(
    share: &Path,
    spec: &Path,
    blocks: &str,
    sign: Option<&Path>,
) -> Result<String> {
    let s = read_secret(share, "seed share file")?;
    refuse_weak(&s, &format!("the seed share {}", share.display()), false)?;
    let spec = GameSpec::load(spec)?;
    let blocks = tirage::crypto::ceremony::parse_blocks(blocks)
        .map_err(|e| anyhow::anyhow!("--blocks: {e}"))?;
    let signer = load_signer(sign)?;
    let binding = Binding {
        game_code: spec.game_code,
        emission: spec.emission,
        spec_sha256: spec.sha256.clone(),
        blocks,
    };
    let c =
        Commitment::new(&SeedShare(s.0), binding, signer.as_ref()).map_err(anyhow::Error::msg)?;
    Ok(c.line())
}

/// Reads seed share files (64 hex digits each), in the order given. None given: none read.
/// Errors: a file cannot be read or is not 64 hex digits; a single share (the master seed
/// would rest on one party: give it whole with `--seed-file`); two files holding the same
/// share (one party's share counted twice, so the seed rests on fewer parties than the
/// manifest shows).
pub(super) fn read_shares(paths: &[PathBuf]) -> Result<Vec<SeedShare>> {
    let shares = paths
        .iter()
        .map(|f| read_secret(f, "seed share file").map(|s| SeedShare(s.0)))
        .collect::<Result<Vec<_>>>()?;
    if let [only] = paths {
        bail!(
            "--seed-share {}: a master seed from shares needs at least two, one per party; \
             a seed from one party is given whole with --seed-file",
            only.display()
        );
    }
    for (j, b) in shares.iter().enumerate() {
        if let Some(i) = shares[..j].iter().position(|a| a == b) {
            bail!(
                "seed share files {} and {} hold the same share: each party brings its own",
                paths[i].display(),
                paths[j].display()
            );
        }
    }
    Ok(shares)
}

/// Where a fresh seed for output `out` is saved: beside it, never inside it.
fn seed_file_path(out: &Path) -> PathBuf {
    let mut name = out
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "block".into());
    name.push(".seed");
    out.with_file_name(name)
}

/// The seed file beside an output (`<out>.seed`), which must always replay what sits at
/// `<out>`: a fresh seed is staged and saved ([`PendingSeed`]); with a seed given, an older
/// seed file holding another seed would sit beside an output it does not replay, so it is
/// refused without `--force` and removed with it, once the new output is in place.
pub(super) enum SeedFile {
    /// A fresh seed, saved when the output is complete.
    Fresh(PendingSeed),
    /// A seed given; the seed file beside the output, if any, holds it already.
    Kept,
    /// A seed given; the seed file at this path holds another (or no) seed and goes.
    Stale(PathBuf),
}

impl SeedFile {
    /// [`SeedFile::prepare`] for the seed file beside output `out` (`<out>.seed`), staged
    /// under `out`'s staging name.
    pub(super) fn beside(out: &Path, seed: &Seed, fresh: bool, force: bool) -> Result<SeedFile> {
        let path = seed_file_path(out);
        // A seed file with nothing at `out`: its block or deck was moved away or removed.
        let there = |p: &Path| std::fs::symlink_metadata(p).is_ok();
        let orphan = there(&path) && !there(out);
        let mut file = SeedFile::prepare(
            &path,
            seed,
            fresh,
            force,
            &tirage::store::lock::staging_prefix(out, "seed"),
        )?;
        if let SeedFile::Fresh(p) = &mut file {
            p.replaces_orphan = orphan;
        }
        Ok(file)
    }

    /// Prepares the seed file `path` for an output made from `seed` (`fresh`: drawn now).
    /// Call before anything is generated. Errors: as [`PendingSeed::stage`]; a seed given
    /// while `path` holds another seed and `force` is not given.
    /// `prefix` starts the staged file's name ([`tirage::store::lock::staging_prefix`]).
    pub(super) fn prepare(
        path: &Path,
        seed: &Seed,
        fresh: bool,
        force: bool,
        prefix: &str,
    ) -> Result<SeedFile> {
        if fresh {
            return PendingSeed::stage(path, seed, force, prefix).map(SeedFile::Fresh);
        }
        match std::fs::symlink_metadata(path) {
            Err(_) => return Ok(SeedFile::Kept),
            Ok(m) if !m.file_type().is_file() => bail!(
                "{} exists and is not a regular file (a link or a directory): it would sit beside an output it does not replay; move it away",
                path.display()
            ),
            Ok(_) => {}
        }
        let same = read_small(path, "seed file")
            .ok()
            .map(zeroize::Zeroizing::new)
            .and_then(|t| Seed::from_hex(&t).ok())
            .is_some_and(|old| old == *seed);
        if same {
            return Ok(SeedFile::Kept);
        }
        refuse_not_a_seed(path)?;
        if !force {
            bail!(
                "{} holds another seed than the one given: it would sit beside an output it \
                 does not replay; move it away, or pass --force to remove it",
                path.display()
            );
        }
        Ok(SeedFile::Stale(path.to_path_buf()))
    }

    /// How the seed file goes in place with the output (the move itself is made by
    /// [`tirage::generate::Staged::put_in_place`], in the order that survives a crash).
    pub(super) fn placement(&self) -> Option<SeedPlacement> {
        match self {
            SeedFile::Fresh(p) => Some(SeedPlacement {
                path: p.path.clone(),
                new: Some(p.file.path().to_path_buf()),
                replace_old: true,
            }),
            SeedFile::Kept => None,
            SeedFile::Stale(path) => Some(SeedPlacement {
                path: path.clone(),
                new: None,
                replace_old: true,
            }),
        }
    }

    /// Once the output and its seed file are in place: what to tell the user (said even
    /// with `-q`: a secret written or removed is never silent): `seed` names the seed
    /// ("master seed"), `output` what it replays ("the block").
    pub(super) fn finish(self, seed: &str, output: &str) -> Result<Option<String>> {
        Ok(match self {
            SeedFile::Fresh(p) => {
                // Moved into place already: nothing left for the temporary file to remove.
                let (_, _kept) = p.file.keep().map_err(|e| e.error)?;
                // A seed replaced with no output beside it is said: it may have been the
                // only copy of a moved block's seed.
                let replaced = if p.replaces_orphan {
                    "; the seed file it replaced replayed nothing there (its block or deck \
                     was moved away or removed), and that older seed is gone"
                } else {
                    ""
                };
                Some(format!(
                    "{seed} saved to {} (mode 0600): keep it secret and out of every \
                     delivery; it replays {output}{replaced}",
                    p.path.display()
                ))
            }
            SeedFile::Kept => None,
            SeedFile::Stale(path) => Some(format!(
                "removed {}: it held another seed, which does not replay {output}",
                path.display()
            )),
        })
    }
}

/// A fresh seed, written before anything is generated to a new temporary file beside its
/// destination (created exclusively, mode 0600, never through a link), and moved into place
/// only once the output is complete. If writing it fails, nothing has been generated; if
/// generation fails, the temporary file is removed and an older seed file stays as it was.
pub(super) struct PendingSeed {
    file: tempfile::NamedTempFile,
    path: PathBuf,
    /// A seed file was at `path` with no output beside it ([`SeedFile::beside`]): said when
    /// it is replaced.
    replaces_orphan: bool,
}

impl PendingSeed {
    /// Stages `seed` for `path`. Errors: `path` exists and `force` is not given; `path` is
    /// not a regular file (a link, a directory); the file cannot be written.
    /// `prefix` starts the staged file's name, which identifies the run.
    pub(super) fn stage(
        path: &Path,
        seed: &Seed,
        force: bool,
        prefix: &str,
    ) -> Result<PendingSeed> {
        use std::io::Write;
        if let Ok(meta) = std::fs::symlink_metadata(path) {
            if !force {
                bail!(
                    "{} already exists; pass --force to replace it",
                    path.display()
                );
            }
            if !meta.file_type().is_file() {
                bail!("{} exists and is not a regular file (a link or a directory): the seed is never written there", path.display());
            }
            refuse_not_a_seed(path)?;
        }
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if let Some(p) = parent.ancestors().find(|p| p.exists()) {
            if !p.is_dir() {
                bail!(
                    "{} is not a directory: nothing can be written under it",
                    p.display()
                );
            }
        }
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        // tempfile creates the file with O_EXCL and mode 0600.
        let mut file = tempfile::Builder::new()
            .prefix(prefix)
            .tempfile_in(&parent)
            .with_context(|| format!("cannot write the seed file in {}", parent.display()))?;
        writeln!(file, "{}", seed.to_hex())
            .and_then(|_| file.as_file().sync_all())
            .and_then(|_| tirage::store::durable::sync_dir(&parent))
            .with_context(|| format!("cannot write the seed file in {}", parent.display()))?;
        Ok(PendingSeed {
            file,
            path: path.to_path_buf(),
            replaces_orphan: false,
        })
    }
}

/// Refuses a file at an output's seed file path (`<out>.seed`) that holds no seed (64 hex
/// digits, as tirage writes one): `--force` replaces or removes a seed file only, never a
/// file of the user's that happens to have that name. Its content is never shown.
fn refuse_not_a_seed(path: &Path) -> Result<()> {
    let seed = read_small(path, "seed file")
        .ok()
        .map(zeroize::Zeroizing::new)
        .is_some_and(|t| Seed::from_hex(&t).is_ok());
    if !seed {
        bail!(
            "{} exists and is not a seed file (64 hex digits, as tirage writes one): nothing was written, and --force would not replace it (it replaces only a seed file); move it away",
            path.display()
        );
    }
    Ok(())
}

/// Reads a small text file (a seed or a seed share): at most 4 KiB, a regular file.
pub(super) fn read_small(path: &Path, what: &str) -> Result<String> {
    read_small_up_to(path, what, 4096)
}

/// Reads a regular text file of at most `max` bytes.
fn read_small_up_to(path: &Path, what: &str, max: u64) -> Result<String> {
    use std::io::Read;
    // The files read here hold secrets, or are taken for one by mistake.
    let name = tirage::crypto::secret_file_name(path);
    // Checked before opening too: opening a FIFO would wait for a writer.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        bail!("the {what} {name} is not a regular file");
    }
    let f = std::fs::File::open(path).with_context(|| format!("cannot read the {what} {name}"))?;
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        bail!("the {what} {name} is not a regular file");
    }
    let mut text = String::new();
    f.take(max + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("cannot read the {what} {name}"))?;
    if text.len() as u64 > max {
        bail!("the {what} {name} is larger than {} KiB", max / 1024);
    }
    Ok(text)
}
