//! `tirage keygen` (the operator's signing key) and `tirage seed new|commit` (secrets of
//! 256 bits and the commitments of a seed ceremony).

use super::seed::{read_secret, refuse_weak};
use super::Outcome;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use tirage::crypto::rng::Seed;
use tirage::crypto::sign::{keygen, Signer, PASSWORD_VAR};
use tirage::crypto::validation::ValidationKey;
use tirage::output::seal::Recipients;
use tirage::spec::GameSpec;

/// Arguments of `tirage keygen`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Writes PREFIX.key (secret, mode 0600) and PREFIX.pub (public) in minisign's formats:
`minisign -V -p PREFIX.pub -m SHA256SUMS` checks a block signed with `generate --sign PREFIX.key`.
The password is read from TIRAGE_KEY_PASSWORD, or asked on the terminal.

Exit status: 0 both files written, 2 error (a file already there, which is never overwritten,
no password, or an I/O error).

Examples:
  tirage keygen --out /tmp/operator --no-password
  TIRAGE_KEY_PASSWORD='a long passphrase' tirage keygen --out /tmp/operator-2"
)]
pub(super) struct KeygenArgs {
    /// Path prefix of the two files: PREFIX.key and PREFIX.pub.
    #[arg(long, value_name = "PREFIX")]
    out: PathBuf,
    /// Leave the secret key unencrypted (keep it on an access-controlled machine).
    #[arg(long)]
    no_password: bool,
}

/// Runs `tirage keygen`.
pub(super) fn run_keygen(a: KeygenArgs) -> Result<Outcome> {
    // A secret key written into a block, deck, bundle or emission would ship with it.
    super::outside_deliveries(&a.out, "an --out")?;
    let password = if a.no_password {
        None
    } else {
        Some(password_twice()?)
    };
    let id = keygen(&a.out, password)?;
    errln!("{}", keygen_said(&id, &a.out));
    Ok(Outcome::Success)
}

/// What `keygen` says of the key it wrote: who keeps the secret key and who receives the
/// public key, for each of its two uses (the operator's key signs blocks and decks; a seed
/// ceremony party's key signs that party's commitment).
fn keygen_said(id: &str, out: &Path) -> String {
    let p = out.display();
    format!(
        "key {id}: secret key {p}.key (mode 0600) and public key {p}.pub.\n\
         - if it is the operator's key (generate --sign): the operator keeps {p}.key; give {p}.pub to the printer, the central system and the auditors;\n\
         - if it is a seed ceremony party's key (seed commit --sign): the party keeps {p}.key, apart from its share; publish {p}.pub with its commitment, for everyone who checks the ceremony"
    )
}

/// The new key's password: `TIRAGE_KEY_PASSWORD`, or asked twice on the terminal.
fn password_twice() -> Result<String> {
    if let Ok(p) = std::env::var(PASSWORD_VAR) {
        if p.is_empty() {
            bail!("{PASSWORD_VAR} is empty: give a password, or --no-password");
        }
        return Ok(p);
    }
    let p = rpassword::prompt_password("Password for the new secret key: ").context(
        "cannot read a password (no terminal?): set TIRAGE_KEY_PASSWORD, or pass --no-password",
    )?;
    let q = rpassword::prompt_password("The same password again: ")?;
    if p != q || p.is_empty() {
        bail!("the two passwords differ, or are empty: no key written");
    }
    Ok(p)
}

/// `tirage seed …`.
#[derive(clap::Subcommand, Debug)]
pub(super) enum SeedCommand {
    /// Write a fresh 256-bit secret (a seed share, a seed file or a validation key) from
    /// the operating system's CSPRNG to a new file, mode 0600.
    #[command(
        after_help = "Exit status: 0 written, 2 error (the file already there, which is never overwritten, or an I/O error).

Examples:
  tirage seed new --out /tmp/alice.share           # a party's seed share, kept by that party
  tirage seed new --out /tmp/coq.validation-key    # an emission's validation key, kept by its custodian"
    )]
    New {
        /// The file to create (never overwritten).
        #[arg(long)]
        out: PathBuf,
    },
    /// Print the salted commitment of a seed share bound to the game, its emission, its
    /// exact spec and the blocks it may make, to publish before any share is revealed.
    #[command(
        after_help = "Exit status: 0 the commitment printed (on stdout), 2 error (a share, spec or key that does not load, blocks out of range).

Examples (after tirage seed new --out /tmp/alice.share and tirage keygen --out /tmp/alice --no-password):
  tirage seed commit /tmp/alice.share --spec game_specs/coq.toml --blocks 1..3 >> /tmp/commitments.txt
  tirage seed commit /tmp/alice.share --spec game_specs/coq.toml --blocks 1..3 --sign /tmp/alice.key >> /tmp/commitments.txt"
    )]
    Commit {
        /// The share file (64 hex digits).
        share: PathBuf,
        /// The game spec the blocks will be made from: the commitment binds its game code,
        /// emission and SHA-256, so the share makes no other game's blocks.
        #[arg(long)]
        spec: PathBuf,
        /// The blocks the share may make: N or A..B (1 ≤ A ≤ B ≤ 999), or 0 for a specimen
        /// deck. `generate` refuses it for any other block.
        #[arg(long, value_name = "RANGE")]
        blocks: String,
        /// Sign the commitment with this party's minisign secret key (`tirage keygen`); the
        /// line then names the party's public key, and the manifest records it.
        #[arg(long, value_name = "KEY")]
        sign: Option<PathBuf>,
    },
}

/// Arguments of `tirage seed`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "A seed ceremony, step by step (each party on its own machine):
  tirage seed new --out alice.share       # each party makes its share, and keeps it
  tirage seed commit alice.share --spec game_specs/coq.toml --blocks 1..3 --sign alice.key >> commitments.txt
  # once every commitment is published and a public beacon fixed after them (a draw result),
  # the shares are brought together:
  tirage generate game_specs/coq.toml --blocks 1..3 --seed-share alice.share --seed-share bob.share --commitments commitments.txt --beacon HEX

Exit status: 0 done, 2 error (a file already there, which is never overwritten, a spec or a
share that does not load, blocks out of range).

Examples:
  tirage seed new --out /tmp/alice.share
  tirage seed commit /tmp/alice.share --spec game_specs/coq.toml --blocks 1"
)]
pub(super) struct SeedArgs {
    #[command(subcommand)]
    command: SeedCommand,
}

/// Runs `tirage seed`.
pub(super) fn run_seed(a: SeedArgs) -> Result<Outcome> {
    match a.command {
        SeedCommand::New { out } => {
            if out.as_os_str() == "-" {
                anyhow::bail!(
                    "--out -: a secret is written to a file of its own (mode 0600), never to standard output, which a terminal shows and a pipe passes on; name the file; nothing was written"
                );
            }
            // A secret written into a block, deck, bundle or emission would ship with it.
            super::outside_deliveries(&out, "an --out")?;
            write_secret(&out, &Seed::from_os()?)?;
            errln!(
                "a fresh 256-bit secret written to {} (mode 0600): keep it secret",
                out.display()
            );
        }
        SeedCommand::Commit {
            share,
            spec,
            blocks,
            sign,
        } => {
            outln!(
                "{}",
                super::seed::commit(&share, &spec, &blocks, sign.as_deref())?
            );
        }
    }
    Ok(Outcome::Success)
}

/// The prefix of the temporary file a secret is written to before it takes its name.
const SECRET_TMP: &str = ".tirage-secret-";

/// Creates `path` (mode 0600, never over an existing file) holding `secret`'s 64 hex
/// digits: written and flushed under a temporary name in the same directory, then renamed
/// into place, so that `path` is whole or absent, whenever the run is stopped. Errors:
/// `path` exists, or is a symbolic link to nothing; it cannot be written.
pub(super) fn write_secret(path: &Path, secret: &Seed) -> Result<()> {
    super::refuse_dangling_link(path)?;
    let exists = |e: std::io::Error| {
        anyhow::Error::new(e).context(format!(
            "cannot create {} (it is never overwritten)",
            path.display()
        ))
    };
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(exists(rustix::io::Errno::EXIST.into()));
    }
    let dir = tirage::store::durable::parent_of(path);
    // A secret a stopped run left unnamed: no run delivered it, so none needs it.
    for p in tirage::store::owner::remove_left_files(&dir, SECRET_TMP, super::LEFTOVER_AGE) {
        errln!(
            "tirage: removed {}, a secret an earlier run left unnamed when it was stopped",
            p.display()
        );
    }
    let cannot_write =
        |e| anyhow::Error::new(e).context(format!("cannot write {}", path.display()));
    let mut f = {
        use std::os::unix::fs::PermissionsExt;
        tempfile::Builder::new()
            .prefix(SECRET_TMP)
            .permissions(std::fs::Permissions::from_mode(0o600))
            .tempfile_in(&dir)
            .map_err(cannot_write)?
    };
    let text = zeroize::Zeroizing::new(format!("{}\n", secret.to_hex()));
    f.write_all(text.as_bytes())
        .and_then(|_| f.as_file().sync_all())
        .map_err(cannot_write)?;
    f.persist_noclobber(path).map_err(|e| exists(e.error))?;
    tirage::store::durable::sync_dir(&dir).map_err(cannot_write)
}

/// The keys a production block is made with besides its seed, and its files' mode.
#[derive(clap::Args, Debug)]
pub(super) struct BlockKeys {
    /// The emission's validation key (64 hex digits, `tirage seed new`), held by its own
    /// custodian: every block of one emission takes the same key, so their codes never
    /// collide. Default: a key derived from the seed, which the manifest and the verdict then
    /// say (whoever holds the seed can compute the codes): for tests and examples.
    #[arg(long, value_name = "FILE")]
    validation_key: Option<PathBuf>,
    /// Sign SHA256SUMS with this minisign secret key (`tirage keygen`), writing
    /// SHA256SUMS.minisig; its password from TIRAGE_KEY_PASSWORD or the terminal.
    #[arg(long, value_name = "KEY")]
    sign: Option<PathBuf>,
    /// Permission bits of the block's files, in octal (directories get search where read
    /// is given). The files say which tickets win: owner only unless the run says otherwise,
    /// and never others nor an execute bit (600 or 640).
    #[arg(long, default_value = "600", value_parser = parse_mode)]
    mode: u32,
    /// Encrypt a ticket file to an age recipient (age1…, from `age-keygen`): ROLE is
    /// printer (tickets.bin.age), central (validation.csv.age) or auditor
    /// (tickets.csv.age). Repeat for each role, and for several keys of one role; with
    /// any, every role needs one, so nothing of the tickets stays in clear.
    #[arg(long, value_name = "ROLE=AGE1…")]
    recipient: Vec<String>,
}

impl BlockKeys {
    /// The validation key, and whether it was derived from the seed (no `--validation-key`).
    /// `given` are the seed secrets of the run ([`super::seed::SeedArgs::given`]).
    /// Errors: the file cannot be read or is not 64 hex digits; a weak key without
    /// `insecure`; a key that is one of `given`.
    pub(super) fn validation_key(
        &self,
        seed: &Seed,
        given: &[(String, Seed)],
        spec: &GameSpec,
        insecure: bool,
    ) -> Result<(ValidationKey, bool)> {
        match &self.validation_key {
            Some(f) => {
                let k = read_secret(f, "validation key file")?;
                super::seed::refuse_seed_as_key(&k.0, f, given)?;
                refuse_weak(&k, &format!("the validation key {}", f.display()), insecure)?;
                Ok((ValidationKey(k.0), false))
            }
            None => Ok((
                ValidationKey::from_seed(seed, spec.game_code, spec.emission, &spec.sha256),
                true,
            )),
        }
    }

    /// The option that gives the validation key, in words: `--validation-key FILE`, or the
    /// key derived from the seed.
    pub(super) fn validation_key_option(&self) -> String {
        match &self.validation_key {
            Some(f) => format!("--validation-key {}", f.display()),
            None => "the validation key derived from the seed".into(),
        }
    }

    /// The signing key, if `--sign` was given. Errors: as [`Signer::load`].
    pub(super) fn signer(&self) -> Result<Option<Signer>> {
        super::seed::load_signer(self.sign.as_deref())
    }

    /// The files' permission bits.
    pub(super) fn mode(&self) -> u32 {
        self.mode
    }

    /// The recipients of the ticket files (none: in clear); warns (stderr, one line) when
    /// the auditor is no recipient of every file ([`Recipients::auditor_warning`]).
    /// Errors: as [`Recipients::parse`].
    pub(super) fn recipients(&self) -> Result<Recipients> {
        let r = Recipients::parse(&self.recipient)?;
        if let Some(w) = r.auditor_warning() {
            errln!("tirage: warning: {w}");
        }
        Ok(r)
    }
}

/// A spec that pins the operator's key (`[signing] public_key`) is signed with that key
/// only: `signer` must be it. Errors: no `--sign`, or a key of another public key.
pub(super) fn check_pinned(spec: &GameSpec, signer: Option<&Signer>) -> Result<()> {
    let Some(pinned) = spec.signing_key.as_deref() else {
        return Ok(());
    };
    match signer.map(Signer::public_key) {
        None => anyhow::bail!(
            "{}: [signing] pins the operator's key {pinned}: sign with its secret key (--sign KEY.key)",
            spec.path.display()
        ),
        Some(Some(k)) if k == pinned => Ok(()),
        Some(k) => anyhow::bail!(
            "--sign: that secret key's public key is {}, and {} pins the operator's key {pinned} ([signing]): sign with the pinned key's secret key",
            k.as_deref().unwrap_or("unknown"),
            spec.path.display()
        ),
    }
}

/// Parses permission bits in octal (`600`, `0640`). The files map the winners: a mode that
/// gives others any bit, or sets an execute bit, is refused (naming the bits).
fn parse_mode(s: &str) -> Result<u32, String> {
    match u32::from_str_radix(s.trim_start_matches("0o"), 8) {
        Ok(m) if m > 0o777 || m & 0o600 != 0o600 => Err("expected octal permission bits up to 777 that let the owner read and write (600, 640)".into()),
        Ok(m) if m & 0o007 != 0 => Err(format!(
            "it gives others (bits {:03o}) access: the block's files map the winners, so nobody but the owner and, with 640, its group may read them; expected 600 or 640",
            m & 0o007
        )),
        Ok(m) if m & 0o111 != 0 => Err(format!(
            "it sets execute bits ({:03o}): the block's files are data, never run (directories get search where read is given); expected 600 or 640",
            m & 0o111
        )),
        Ok(m) => Ok(m),
        Err(_) => Err(format!("{s:?} is not an octal mode such as 600 or 640")),
    }
}
