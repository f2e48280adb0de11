//! Encryption of a block's ticket files per recipient, with age (X25519; the `age` crate,
//! compatible with the `age` command-line tool).
//!
//! Each ticket file goes to one role, and only that role can read it:
//!
//! | role | file | why |
//! |---|---|---|
//! | `printer` | `tickets.bin.age` | the printer images the faces and codes |
//! | `central` | `validation.csv.age` | the central system pays claims |
//! | `auditor` | `tickets.csv.age` | QA and the auditors read the faces and prizes |
//!
//! A role may have several recipients (an auditor's key may be added to every role, so that
//! one `tirage verify --identity` reads the whole block). The manifest records every
//! file's plaintext SHA-256 and size and the recipients it was encrypted to; SHA256SUMS
//! lists the files as delivered (`.age`), so `sha256sum -c` still checks what was handed
//! over. An age file is encrypted under a fresh random key each time: the delivered bytes
//! differ from run to run, the plaintexts and the manifest do not.

use crate::block::layout::{BIN, CSV, SEALED_SUFFIX, VALIDATION};
use crate::output::hashing::Sum;
use crate::store::ahead::{AheadReader, Chunked, Copied};
use std::io::{Read, Write};
use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// The three roles, the file each receives, in the order the command line names them.
pub const ROLES: [(&str, &str); 3] = [("printer", BIN), ("central", VALIDATION), ("auditor", CSV)];

/// Why recipients or identities could not be used, or a file not opened.
#[derive(Debug, thiserror::Error)]
pub enum SealError {
    /// A `--recipient` is not `ROLE=age1…` with a known role and an X25519 recipient.
    #[error("--recipient {given}: {why}")]
    Recipient {
        /// The role given, if any (`printer=…`): the key is never shown, since an age
        /// identity (a secret key) given in its place would be.
        given: String,
        /// What was expected.
        why: String,
    },
    /// Some roles have recipients and others none: a file would stay in clear.
    #[error("--recipient: no recipient for {0}: with any recipient, every role needs one (printer, central, auditor), so that nothing of the tickets stays in clear")]
    Missing(&'static str),
    /// An identity file cannot be read or holds no age identity.
    #[error("{path}: {why}")]
    Identity {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// Encryption failed.
    #[error("encryption failed: {0}")]
    Encrypt(String),
}

/// The recipients of each ticket file.
#[derive(Clone, Default)]
pub struct Recipients {
    /// By file name (tickets.bin, validation.csv, tickets.csv): the recipients' public keys.
    files: Vec<(&'static str, Vec<age::x25519::Recipient>)>,
}

impl Recipients {
    /// Parses `ROLE=age1…` arguments. None: no encryption. Errors: an unknown role, a key
    /// that is not an X25519 age recipient, the same key twice for a role, a role left
    /// without a recipient while another has one.
    pub fn parse(args: &[String]) -> Result<Recipients, SealError> {
        let mut files: Vec<(&'static str, Vec<age::x25519::Recipient>)> =
            ROLES.iter().map(|&(_, f)| (f, Vec::new())).collect();
        for a in args {
            let bad = |why: &str| SealError::Recipient {
                given: match a.split_once('=') {
                    Some((role, _)) => format!("{:?}", format!("{}=…", role.trim())),
                    None => "(no ROLE=)".into(),
                },
                why: why.into(),
            };
            let (role, key) = a
                .split_once('=')
                .ok_or_else(|| bad("expected ROLE=age1… (ROLE: printer, central or auditor)"))?;
            let i = ROLES
                .iter()
                .position(|(r, _)| *r == role.trim())
                .ok_or_else(|| bad("unknown role: expected printer, central or auditor"))?;
            let key = key.trim();
            if key.to_ascii_uppercase().starts_with("AGE-SECRET-KEY-") {
                return Err(bad("that is an age identity, a secret key, not a recipient: give its public key (age1…, `age-keygen -y`), and keep the identity secret"));
            }
            let r = age::x25519::Recipient::from_str(key)
                .map_err(|e| bad(&format!("not an age X25519 recipient (age1…): {e}")))?;
            if files[i].1.iter().any(|x| x.to_string() == r.to_string()) {
                return Err(bad("this recipient is given twice for the role"));
            }
            files[i].1.push(r);
        }
        if files.iter().all(|(_, r)| r.is_empty()) {
            return Ok(Recipients::default());
        }
        for ((role, _), (_, r)) in ROLES.iter().zip(&files) {
            if r.is_empty() {
                return Err(SealError::Missing(role));
            }
        }
        Ok(Recipients { files })
    }

    /// Recipients given as their public keys (`age1…`), by file name, as a manifest
    /// records them. Errors: as [`Recipients::parse`].
    pub fn from_manifest(files: &[(&str, &[String])]) -> Result<Recipients, SealError> {
        let mut args = Vec::new();
        for (name, keys) in files {
            if let Some((role, _)) = ROLES.iter().find(|(_, f)| f == name) {
                args.extend(keys.iter().map(|k| format!("{role}={k}")));
            }
        }
        Recipients::parse(&args)
    }

    /// The warning line (without `tirage: warning: `) when an auditor's recipient is not a
    /// recipient of every file ([`Recipients::not_to_auditor`]); `None` otherwise.
    pub fn auditor_warning(&self) -> Option<String> {
        let short = self.not_to_auditor();
        (!short.is_empty()).then(|| {
            format!(
                "the auditor (a recipient of tickets.csv.age) is no recipient of {}: the auditor's identity alone cannot verify the block; give the auditor's key for every role (--recipient printer=… --recipient central=…)",
                short.join(", ")
            )
        })
    }

    /// True when the files are encrypted.
    pub fn any(&self) -> bool {
        !self.files.is_empty()
    }

    /// The encrypted files an auditor's recipient (one of `tickets.csv`'s) is not a
    /// recipient of, as delivered (`tickets.bin.age`, `validation.csv.age`), in the order
    /// of [`ROLES`]: files the auditor's identity alone does not open, though the audit
    /// (`tirage verify`) reads every ticket file. Empty in clear.
    pub fn not_to_auditor(&self) -> Vec<String> {
        let Some(auditors) = self.of(CSV) else {
            return Vec::new();
        };
        self.files
            .iter()
            .filter(|(_, r)| {
                auditors
                    .iter()
                    .any(|a| !r.iter().any(|x| x.to_string() == a.to_string()))
            })
            .map(|(f, _)| format!("{f}{SEALED_SUFFIX}"))
            .collect()
    }

    /// The recipients of file `name`, if it is encrypted.
    pub fn of(&self, name: &str) -> Option<&[age::x25519::Recipient]> {
        self.files
            .iter()
            .find(|(f, _)| *f == name)
            .map(|(_, r)| r.as_slice())
    }
}

/// Wraps `out` so that what is written is encrypted to `recipients`; call
/// [`age::stream::StreamWriter::finish`] at the end. Errors: the age header cannot be
/// written.
pub fn encrypt_to<W: Write>(
    out: W,
    recipients: &[age::x25519::Recipient],
) -> Result<age::stream::StreamWriter<W>, SealError> {
    let e = age::Encryptor::with_recipients(recipients.iter().map(|r| r as &dyn age::Recipient))
        .map_err(|e| SealError::Encrypt(e.to_string()))?;
    e.wrap_output(out)
        .map_err(|e| SealError::Encrypt(e.to_string()))
}

/// The most bytes an age identity file may hold (it may hold many identities).
const MAX_IDENTITY_BYTES: u64 = 1 << 20;

/// The identities (age secret keys) an auditor, printer or central system holds.
#[derive(Default)]
pub struct Identities(Vec<Box<dyn age::Identity + Send + Sync>>);

impl std::fmt::Debug for Identities {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Identities({} secret)", self.0.len())
    }
}

impl Identities {
    /// Loads age identity files (`AGE-SECRET-KEY-1…` lines, as `age-keygen` writes).
    /// Errors: a file cannot be read, or holds no X25519 identity.
    pub fn load(paths: &[std::path::PathBuf]) -> Result<Identities, SealError> {
        let mut ids: Vec<Box<dyn age::Identity + Send + Sync>> = Vec::new();
        for p in paths {
            let bad = |why: String| SealError::Identity {
                path: crate::crypto::secret_file_name(p),
                why,
            };
            let bytes = crate::store::regular::read_named(p, MAX_IDENTITY_BYTES)
                .map_err(|e| bad(e.to_string()))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| bad("not text: an age identity file is UTF-8".into()))?;
            let before = ids.len();
            for line in text.lines().map(str::trim) {
                if line.starts_with("AGE-SECRET-KEY-") {
                    let id = age::x25519::Identity::from_str(line)
                        .map_err(|e| bad(format!("not an age identity: {e}")))?;
                    ids.push(Box::new(id));
                }
            }
            if ids.len() == before {
                return Err(bad("holds no age identity (AGE-SECRET-KEY-1…)".into()));
            }
        }
        Ok(Identities(ids))
    }

    /// True when none was given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A ticket file of a block opened for reading, in clear whichever form it was delivered in.
pub struct Opened {
    /// The plaintext, in chunks as read ahead when in clear.
    pub reader: Box<dyn Chunked>,
    /// The name of the file as delivered (`tickets.csv` or `tickets.csv.age`).
    pub delivered: String,
    /// For a file delivered encrypted: the digest of its bytes as delivered, summed from
    /// the same open file the plaintext is decrypted from (`None` in clear: the plaintext
    /// is what was delivered).
    pub sealed: Option<DeliveredSum>,
}

/// The byte count and SHA-256 of an encrypted file as delivered, summed as the decryptor
/// reads it: the file is read once, and its digest is of the very bytes decrypted.
#[derive(Clone)]
pub struct DeliveredSum(Arc<Mutex<(std::fs::File, Sum)>>);

impl DeliveredSum {
    /// The byte count and hex SHA-256 of the whole file as delivered: what the decryptor
    /// read, then whatever it left of the same open file (bytes past the age stream's
    /// end). Call once the plaintext is read. Errors: the file cannot be read.
    pub fn finish(&self) -> std::io::Result<(u64, String)> {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (f, sum) = &mut *g;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match f.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => sum.update(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(sum.clone().finish())
    }
}

/// Reads the file of a [`DeliveredSum`], summing what it reads.
struct Tee(Arc<Mutex<(std::fs::File, Sum)>>);

impl Read for Tee {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (f, sum) = &mut *g;
        let n = f.read(buf)?;
        sum.update(&buf[..n]);
        Ok(n)
    }
}

/// Opens the ticket file `name` of the block `dir`: `name` itself, or `name.age` decrypted
/// with `ids`, each through one open file; one in clear is read ahead, from the page cache
/// what it holds and past it the rest ([`AheadReader`]). Only regular files are opened (a FIFO would wait for a writer). Errors (`io::Error`, with a message that says what to do): neither form
/// exists or is a regular file; the file is encrypted and no identity given opens it.
pub fn open(dir: &Path, name: &str, ids: &Identities) -> std::io::Result<Opened> {
    use std::io::{Error, ErrorKind};
    let sealed = format!("{name}{SEALED_SUFFIX}");
    // In clear when that form is there at all (a FIFO or link in its place is refused,
    // never waited on nor followed); else encrypted.
    if std::fs::symlink_metadata(dir.join(name)).is_ok()
        || std::fs::symlink_metadata(dir.join(&sealed)).is_err()
    {
        return Ok(Opened {
            reader: Box::new(AheadReader::new(crate::output::open_regular(
                &dir.join(name),
            )?)),
            delivered: name.into(),
            sealed: None,
        });
    }
    let f = crate::output::open_regular(&dir.join(&sealed))?;
    if ids.is_empty() {
        return Err(Error::new(
            ErrorKind::PermissionDenied,
            format!("{sealed} is encrypted: give the identity that opens it (--identity FILE)"),
        ));
    }
    let delivered = DeliveredSum(Arc::new(Mutex::new((f, Sum::default()))));
    let tee = Tee(delivered.0.clone());
    let d = age::Decryptor::new_buffered(std::io::BufReader::new(tee)).map_err(|e| {
        Error::new(
            ErrorKind::InvalidData,
            format!("{sealed}: not an age file: {e}"),
        )
    })?;
    let r = d
        .decrypt(ids.0.iter().map(|i| i.as_ref() as &dyn age::Identity))
        .map_err(|e| {
            Error::new(
                ErrorKind::PermissionDenied,
                format!("{sealed}: no identity given opens it ({e})"),
            )
        })?;
    Ok(Opened {
        reader: Box::new(Copied(r)),
        delivered: sealed,
        sealed: Some(delivered),
    })
}

/// True when `ids` open the ticket file `name` of block `dir` as delivered: it is in
/// clear, or `name.age`'s header holds a stanza one of them unwraps (only the header is
/// read). False when no identity given opens it; a file missing or not an age file is left
/// to the reader that opens it ([`open`]), and counts as opened here.
pub fn opens(dir: &Path, name: &str, ids: &Identities) -> bool {
    let sealed = format!("{name}{SEALED_SUFFIX}");
    if std::fs::symlink_metadata(dir.join(name)).is_ok()
        || std::fs::symlink_metadata(dir.join(&sealed)).is_err()
    {
        return true;
    }
    if ids.is_empty() {
        return false;
    }
    let Ok(f) = crate::output::open_regular(&dir.join(&sealed)) else {
        return true;
    };
    let Ok(d) = age::Decryptor::new_buffered(std::io::BufReader::new(f)) else {
        return true;
    };
    !matches!(
        d.decrypt(ids.0.iter().map(|i| i.as_ref() as &dyn age::Identity)),
        Err(age::DecryptError::NoMatchingKeys)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipients_are_per_role_and_all_or_none() {
        let k = || age::x25519::Identity::generate().to_public().to_string();
        let (p, c, a) = (k(), k(), k());
        assert!(!Recipients::parse(&[]).unwrap().any());
        let r = Recipients::parse(&[
            format!("printer={p}"),
            format!("central={c}"),
            format!("auditor={a}"),
            format!("auditor={p}"),
        ])
        .unwrap();
        assert_eq!(r.of(BIN).unwrap().len(), 1);
        assert_eq!(r.of(CSV).unwrap().len(), 2);
        assert!(matches!(
            Recipients::parse(&[format!("printer={p}")]),
            Err(SealError::Missing("central"))
        ));
        for bad in [format!("printr={p}"), "central=age1nope".into(), p.clone()] {
            assert!(
                matches!(
                    Recipients::parse(std::slice::from_ref(&bad)),
                    Err(SealError::Recipient { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_file_opens_only_for_its_recipients() {
        let d = tempfile::tempdir().unwrap();
        let (mine, other) = (
            age::x25519::Identity::generate(),
            age::x25519::Identity::generate(),
        );
        let mut w = encrypt_to(
            std::fs::File::create(d.path().join("tickets.csv.age")).unwrap(),
            &[mine.to_public()],
        )
        .unwrap();
        w.write_all(b"ticket,prize\n1,0\n").unwrap();
        w.finish().unwrap();
        let write_id = |name: &str, id: &age::x25519::Identity| {
            use age::secrecy::ExposeSecret;
            let p = d.path().join(name);
            std::fs::write(&p, format!("{}\n", id.to_string().expose_secret())).unwrap();
            p
        };
        let ids = Identities::load(&[write_id("mine.txt", &mine)]).unwrap();
        let mut text = String::new();
        let mut o = open(d.path(), CSV, &ids).unwrap();
        o.reader.read_to_string(&mut text).unwrap();
        assert_eq!(
            (text.as_str(), o.delivered.as_str()),
            ("ticket,prize\n1,0\n", "tickets.csv.age")
        );
        // The delivered bytes are summed from the same open file, whatever is renamed
        // over it meanwhile: bytes the age stream leaves are summed too.
        let delivered = std::fs::read(d.path().join("tickets.csv.age")).unwrap();
        std::fs::write(d.path().join("other.age"), b"x").unwrap();
        std::fs::rename(d.path().join("other.age"), d.path().join("tickets.csv.age")).unwrap();
        let (n, h) = o.sealed.as_ref().unwrap().finish().unwrap();
        use sha2::Digest;
        assert_eq!(
            (n, h),
            (
                delivered.len() as u64,
                hex::encode(sha2::Sha256::digest(&delivered))
            )
        );
        std::fs::write(d.path().join("tickets.csv.age"), &delivered).unwrap();
        let theirs = Identities::load(&[write_id("other.txt", &other)]).unwrap();
        let e = open(d.path(), CSV, &theirs).err().unwrap();
        assert!(e.to_string().contains("no identity given opens it"), "{e}");
        let e = open(d.path(), CSV, &Identities::default()).err().unwrap();
        assert!(e.to_string().contains("--identity"), "{e}");
    }
}
