//! Signatures of a block: minisign (Ed25519) over `SHA256SUMS`, in minisign's own formats,
//! so the standard `minisign` command checks them (`minisign -V -p KEY.pub -m SHA256SUMS`).
//!
//! `SHA256SUMS` lists the SHA-256 of every delivered file and of `manifest.json`, and the
//! manifest lists every file's digest, size and record count: one signature over
//! `SHA256SUMS` authenticates the whole block. The signature is `SHA256SUMS.minisig` beside
//! it; its trusted comment (signed too) names the game, emission, block and kind, and says
//! when the block was made with a test seed ([`Vouched`]). An emission's
//! `emission.json` is signed the same way (`emission.json.minisig`).
//!
//! Keys are minisign's: `KEY.key` (the secret key, optionally protected by a password,
//! mode 0600) and `KEY.pub` (the public key an auditor, printer or central system holds).

use minisign::{KeyPair, PublicKey, PublicKeyBox, SecretKey, SecretKeyBox, SignatureBox};
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

/// The environment variable holding the secret key's password, for runs without a
/// terminal; otherwise the password is asked on the terminal.
pub const PASSWORD_VAR: &str = "TIRAGE_KEY_PASSWORD";

/// Why a key could not be made or used, or a signature did not hold.
#[derive(Debug, thiserror::Error)]
pub enum SignError {
    /// A key file could not be read or written.
    #[error("{}: {error}", super::secret_file_name(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// A key file exists already: keys are never overwritten.
    #[error(
        "{0} already exists: a key is never overwritten; choose another --out or move it away"
    )]
    Exists(PathBuf),
    /// A key file is not in minisign's format, or its password is wrong.
    #[error("{}: not a minisign {what}: {why}", super::secret_file_name(path))]
    BadKey {
        /// The file.
        path: PathBuf,
        /// `secret key` or `public key`.
        what: &'static str,
        /// minisign's reason.
        why: String,
    },
    /// The secret key is protected by a password, none is in [`PASSWORD_VAR`], and there is
    /// no terminal to ask it on.
    #[error("{}: the secret key is protected by a password, and there is no terminal to ask it on: set {PASSWORD_VAR} to the password (or run where a terminal is)", super::secret_file_name(.0))]
    NoTerminal(PathBuf),
    /// The password given does not open the secret key.
    #[error("{}: the password does not open this secret key (wrong password; it is taken from {PASSWORD_VAR}, else asked on the terminal)", super::secret_file_name(.0))]
    WrongPassword(PathBuf),
    /// The signature is missing, malformed, made by another key, or does not match the file.
    #[error("{0}")]
    Invalid(String),
}

/// One line of a signature file as minisign's reader takes it (`fgets` into a buffer of
/// `size` bytes, then `trim`, minisign.c `sig_load`): the bytes up to the first line feed,
/// at most `size - 1`, cut at a NUL byte; the line as read (cut at its first carriage
/// return or line feed) and whether it ended with a line feed. Returns the rest of the
/// text too. Errors: a carriage return other than just before the line feed (minisign
/// 0.12 refuses it; 0.11 cuts the line there).
fn minisign_line(text: &[u8], size: usize) -> Result<(&[u8], bool, &[u8]), String> {
    let max = size - 1;
    let end = match memchr::memchr(b'\n', &text[..text.len().min(max)]) {
        Some(i) => i + 1,
        None => text.len().min(max),
    };
    let (chunk, rest) = text.split_at(end);
    let chunk = &chunk[..memchr::memchr(0, chunk).unwrap_or(chunk.len())];
    let (line, lf) = match chunk.strip_suffix(b"\n") {
        Some(l) => (l, true),
        None => (chunk, false),
    };
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.contains(&b'\r') {
        return Err("a carriage return inside a line".into());
    }
    Ok((line, lf, rest))
}

/// Decodes `b64` as minisign's `b64_to_bin` does (standard alphabet, length a multiple
/// of 4, `=` only as the padding of the last group) to exactly `len` bytes, else `None`.
fn minisign_base64(b64: &[u8], len: usize) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    if b64.is_empty() || b64.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(b64.len() / 4 * 3);
    let groups = b64.len() / 4;
    for (g, q) in b64.chunks(4).enumerate() {
        let pad = q.iter().filter(|&&c| c == b'=').count();
        let last = g + 1 == groups;
        // Padding only at the end of the last group: `xx==` or `xxx=`.
        let ok_pad = match pad {
            0 => true,
            1 => last && q[3] == b'=',
            2 => last && q[2] == b'=' && q[3] == b'=',
            _ => false,
        };
        if !ok_pad {
            return None;
        }
        let mut t = 0u32;
        for &c in &q[..4 - pad] {
            t = (t << 6) | value(c)?;
        }
        t <<= 6 * pad as u32;
        let bytes = [(t >> 16) as u8, (t >> 8) as u8, t as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    (out.len() == len).then_some(out)
}

/// Checks that signature file `text` is read by the `minisign` command (`minisign -V`)
/// as it is read here, so that the two verdicts agree: four lines as its reader takes them
/// (minisign.c `sig_load`: an untrusted comment line, the signature line, the trusted
/// comment line, each ending with a line feed, and the global signature line), each
/// signature exactly the base64 of its bytes, with no blank, space, tab or other
/// character around it, and a trusted comment of printable characters with nothing
/// around it that a reader trimming it would drop. What follows the fourth line is not
/// read (by minisign either). Errors: what minisign would refuse, in words.
fn as_minisign_reads(text: &str) -> Result<(), String> {
    // minisign.h: COMMENTMAXBYTES, TRUSTEDCOMMENTMAXBYTES; the signature buffers are
    // B64_MAX_LEN_FROM_BIN_LEN(74) + 2 and B64_MAX_LEN_FROM_BIN_LEN(64) + 2.
    let b64_buf = |n: usize| n.div_ceil(3) * 4 + 1 + 2;
    let (comment, lf, rest) = minisign_line(text.as_bytes(), 1024)?;
    if !lf {
        return Err("the untrusted comment line does not end with a line feed".into());
    }
    if !comment.starts_with(b"untrusted comment: ") {
        return Err("the first line does not start with \"untrusted comment: \"".into());
    }
    let (sig, lf, rest) = minisign_line(rest, b64_buf(74))?;
    if !lf {
        return Err("the signature line is too long or does not end with a line feed".into());
    }
    if minisign_base64(sig, 74).is_none() {
        return Err("the signature line is not exactly the base64 of a signature".into());
    }
    let (trusted, lf, rest) = minisign_line(rest, 8192)?;
    let Some(trusted) = trusted.strip_prefix(b"trusted comment: ") else {
        return Err("the third line does not start with \"trusted comment: \"".into());
    };
    if !lf {
        return Err("the trusted comment is too long or does not end with a line feed".into());
    }
    if trusted.iter().any(|&c| c.is_ascii_control() && c != b'\t') {
        return Err("the trusted comment holds a control character".into());
    }
    if std::str::from_utf8(trusted).map_or(true, |t| t.trim().len() != t.len()) {
        return Err("the trusted comment has blanks around it".into());
    }
    let (global, _, _) = minisign_line(rest, b64_buf(64))?;
    if minisign_base64(global, 64).is_none() {
        return Err("the global signature line is not exactly the base64 of a signature".into());
    }
    Ok(())
}

/// True when `text` is a minisign public key (a `KEY.pub` file, or its bare key line).
fn is_public_key(text: &str) -> bool {
    PublicKeyBox::from_string(text)
        .and_then(PublicKeyBox::into_public_key)
        .is_ok()
        || PublicKey::from_base64(text.trim()).is_ok()
}

/// The key id minisign prints: the key number as 16 upper-case hex digits.
fn key_id(keynum: &[u8]) -> String {
    let mut n = [0u8; 8];
    n.copy_from_slice(&keynum[..8]);
    format!("{:016X}", u64::from_le_bytes(n))
}

/// Writes a fresh key pair: `PREFIX.key` (secret, mode 0600, created exclusively) and
/// `PREFIX.pub` (public). With `password`, the secret key is encrypted under it
/// (minisign's scrypt); `None` leaves it unencrypted. Returns the key id. Errors: a file
/// exists ([`SignError::Exists`]); a file cannot be written.
pub fn keygen(prefix: &Path, password: Option<String>) -> Result<String, SignError> {
    let (sk_path, pk_path) = (with_ext(prefix, "key"), with_ext(prefix, "pub"));
    for p in [&sk_path, &pk_path] {
        if std::fs::symlink_metadata(p).is_ok() {
            return Err(SignError::Exists(p.clone()));
        }
    }
    let bad = |why: minisign::PError| SignError::BadKey {
        path: sk_path.clone(),
        what: "secret key",
        why: why.to_string(),
    };
    let kp = match password {
        Some(p) => KeyPair::generate_encrypted_keypair(Some(p)).map_err(bad)?,
        None => KeyPair::generate_unencrypted_keypair().map_err(bad)?,
    };
    let id = key_id(kp.pk.keynum());
    let comment = format!("tirage secret key {id}");
    let sk_text = kp.sk.to_box(Some(&comment)).map_err(bad)?.into_string();
    let pk_text = public_key_file(&id, &kp.pk.to_base64());
    write_new(&sk_path, sk_text.as_bytes(), 0o600)?;
    if let Err(e) = write_new(&pk_path, pk_text.as_bytes(), 0o644) {
        let _ = std::fs::remove_file(&sk_path);
        return Err(e);
    }
    Ok(id)
}

/// The text of a `KEY.pub` file of the key with id `id` (16 hex digits) and key line
/// `base64` (`RW…`), as the `minisign` command writes it (`minisign -G`): its untrusted
/// comment `minisign public key <id>`, then the key line. `keygen` and `package` write
/// this one text, so that a bundle's `operator.pub` is the operator's file byte for byte.
pub fn public_key_file(id: &str, base64: &str) -> String {
    format!("untrusted comment: minisign public key {id}\n{base64}\n")
}

/// `PREFIX.ext`, the extension added to the whole name (`op.v2` → `op.v2.key`).
fn with_ext(prefix: &Path, ext: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_os_string();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Creates `path` exclusively with `mode` and writes `bytes`, synced.
fn write_new(path: &Path, bytes: &[u8], mode: u32) -> Result<(), SignError> {
    let io = |error| SignError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, mode);
    #[cfg(not(unix))]
    let _ = mode;
    let mut f = o.open(path).map_err(io)?;
    f.write_all(bytes).and_then(|_| f.sync_all()).map_err(io)
}

/// What a block's signature vouches for, as its trusted comment (signed with
/// `SHA256SUMS`) says it: `tirage SHA256SUMS game:ID emission:N block:N kind:KIND`, then
/// ` seed:insecure` for a block made with `--insecure-seed` (a test seed). `verify` holds
/// it against the manifest and the block folder's name, so a signed block cannot pass for
/// another (a copy of block 1 named `block-002`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vouched {
    /// The game's id (`coq`).
    pub game: String,
    /// The emission number.
    pub emission: u16,
    /// The block number (0 for a specimen deck).
    pub block: u32,
    /// `production` or `specimen`.
    pub kind: String,
    /// True when the block was made with `--insecure-seed`: a test block.
    pub insecure_seed: bool,
}

impl Vouched {
    /// The trusted comment (one line).
    pub fn comment(&self) -> String {
        format!(
            "tirage SHA256SUMS game:{} emission:{} block:{} kind:{}{}",
            self.game,
            self.emission,
            self.block,
            self.kind,
            if self.insecure_seed {
                " seed:insecure"
            } else {
                ""
            }
        )
    }

    /// Reads a trusted comment written by [`Vouched::comment`]. Errors: it is not one (the
    /// reason, for a finding).
    pub fn parse(comment: &str) -> Result<Vouched, String> {
        let bad = |why: &str| {
            format!(
                "the trusted comment {comment:?} {why} (expected `tirage SHA256SUMS game:ID emission:N block:N kind:KIND`)"
            )
        };
        let mut words = comment.split(' ');
        if (words.next(), words.next()) != (Some("tirage"), Some("SHA256SUMS")) {
            return Err(bad("is not a tirage block's"));
        }
        let (mut game, mut emission, mut block, mut kind, mut insecure_seed) =
            (None, None, None, None, false);
        for w in words {
            match w.split_once(':') {
                Some(("game", v)) if game.is_none() && !v.is_empty() => game = Some(v.to_string()),
                Some(("emission", v)) if emission.is_none() => {
                    emission = Some(v.parse().map_err(|_| bad("has a malformed emission"))?)
                }
                Some(("block", v)) if block.is_none() => {
                    block = Some(v.parse().map_err(|_| bad("has a malformed block number"))?)
                }
                Some(("kind", v)) if kind.is_none() && matches!(v, "production" | "specimen") => {
                    kind = Some(v.to_string())
                }
                Some(("seed", "insecure")) if !insecure_seed => insecure_seed = true,
                _ => return Err(bad(&format!("has an unknown or repeated word {w:?}"))),
            }
        }
        match (game, emission, block, kind) {
            (Some(game), Some(emission), Some(block), Some(kind)) => Ok(Vouched {
                game,
                emission,
                block,
                kind,
                insecure_seed,
            }),
            _ => Err(bad("does not name the game, emission, block and kind")),
        }
    }

    /// In words: `game coq, emission 1, block 1, production` (and `, made with
    /// --insecure-seed` for a test block).
    pub fn describe(&self) -> String {
        format!(
            "game {}, emission {}, block {}, {}{}",
            self.game,
            self.emission,
            self.block,
            self.kind,
            if self.insecure_seed {
                ", made with --insecure-seed"
            } else {
                ""
            }
        )
    }
}

/// Bytes of a minisign secret key once decoded: algorithms (3 × 2), KDF salt (32), limits
/// (2 × 8), key id (8), Ed25519 secret key (64), checksum (32).
const SECRET_KEY_BYTES: usize = 3 * 2 + 32 + 2 * 8 + 8 + 64 + 32;

/// The most bytes a key file may hold: a minisign key takes under 1 KiB.
const MAX_KEY_BYTES: u64 = 4 << 10;

/// The text of the key file `path`: a regular file (reached through symbolic links, never
/// waited on as a FIFO or read on as a device) of at most 4 KiB, in UTF-8. Errors:
/// [`SignError::Io`] naming the file and why.
fn read_key(path: &Path) -> Result<String, SignError> {
    let io = |error| SignError::Io {
        path: path.to_path_buf(),
        error,
    };
    let bytes = crate::store::regular::read_named(path, MAX_KEY_BYTES).map_err(io)?;
    String::from_utf8(bytes)
        .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// A secret key, ready to sign.
pub struct Signer {
    sk: SecretKey,
    pk: Option<PublicKey>,
    id: String,
}

impl Signer {
    /// Loads the secret key `path` (minisign's format). An encrypted key is opened with
    /// the password in `TIRAGE_KEY_PASSWORD`, or asked on the terminal. Errors: the file
    /// cannot be read; it is not a minisign secret key; the password is wrong.
    pub fn load(path: &Path) -> Result<Signer, SignError> {
        let text = read_key(path)?;
        let bad = |why: minisign::PError| SignError::BadKey {
            path: path.to_path_buf(),
            what: "secret key",
            why: why.to_string(),
        };
        if is_public_key(&text) {
            return Err(SignError::BadKey {
                path: path.to_path_buf(),
                what: "secret key",
                why: "it is a public key (KEY.pub); signing takes the secret key, KEY.key".into(),
            });
        }
        // The kind first: a seed, an age identity or a cut key is said to be no key, never
        // taken for a key whose password is missing.
        let mut lines = text.lines();
        let comment = lines
            .next()
            .is_some_and(|l| l.starts_with("untrusted comment:"));
        let key = lines
            .next()
            .and_then(|l| minisign_base64(l.trim().as_bytes(), SECRET_KEY_BYTES));
        if !comment || !key.is_some_and(|k| k.starts_with(b"Ed")) {
            return Err(SignError::BadKey {
                path: path.to_path_buf(),
                what: "secret key",
                why: "expected an `untrusted comment:` line, then a key line of minisign's secret key (as `tirage keygen` writes KEY.key)".into(),
            });
        }
        let sk_box = SecretKeyBox::from_string(&text).map_err(bad)?;
        let sk = match SecretKey::from_unencrypted_box(sk_box.clone()) {
            Ok(sk) => sk,
            Err(_) => {
                let password = std::env::var(PASSWORD_VAR).ok();
                // minisign would ask on /dev/tty: said plainly when there is none.
                let tty = std::fs::File::options()
                    .read(true)
                    .write(true)
                    .open("/dev/tty");
                if password.is_none() && tty.is_err() {
                    return Err(SignError::NoTerminal(path.to_path_buf()));
                }
                sk_box.into_secret_key(password).map_err(|e| {
                    if e.to_string().contains("Wrong password") {
                        SignError::WrongPassword(path.to_path_buf())
                    } else {
                        bad(e)
                    }
                })?
            }
        };
        let pk = PublicKey::from_secret_key(&sk).ok();
        let id = key_id(sk.keynum());
        Ok(Signer { sk, pk, id })
    }

    /// The key id (16 hex digits, as minisign prints it).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The public key, as the key line of `KEY.pub` (base64, `RW…`), when it can be
    /// computed from the secret key.
    pub fn public_key(&self) -> Option<String> {
        self.pk.as_ref().map(PublicKey::to_base64)
    }

    /// The text of a minisign signature of `data` whose trusted comment is `comment` (one
    /// line). Errors: the signature could not be made (minisign's reason).
    pub fn sign(&self, data: &[u8], comment: &str) -> Result<String, SignError> {
        let sig = minisign::sign(
            self.pk.as_ref(),
            &self.sk,
            Cursor::new(data),
            Some(comment),
            Some(&format!("signature from tirage secret key {}", self.id)),
        )
        .map_err(|e| SignError::Invalid(e.to_string()))?;
        Ok(sig.into_string())
    }
}

/// A public key, to check signatures with.
pub struct Verifier {
    pk: PublicKey,
    id: String,
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Verifier({})", self.id)
    }
}

/// What secret `text`, given where a public key was expected, is: a minisign secret key
/// (a comment line, then the 212 base64 characters of its 158 bytes), a seed, seed share
/// or validation key (64 hexadecimal digits), or an age identity; `None` when it is none
/// of these. Only its form is read: nothing of it is quoted.
fn other_secret(text: &str) -> Option<&'static str> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let base64 = |l: &str| {
        l.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    };
    match lines.as_slice() {
        [comment, key]
            if comment.starts_with("untrusted comment:") && key.len() == 212 && base64(key) =>
        {
            Some("a minisign secret key (KEY.key)")
        }
        [line] if line.len() == 64 && line.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Some("64 hexadecimal digits: a seed, a seed share or a validation key")
        }
        _ if lines.iter().any(|l| l.starts_with("AGE-SECRET-KEY-")) => {
            Some("an age identity (AGE-SECRET-KEY-…)")
        }
        _ => None,
    }
}

impl Verifier {
    /// Loads the public key `path` (minisign's `.pub` format, or the bare base64 line).
    /// Errors: the file cannot be read, or is not a minisign public key.
    pub fn load(path: &Path) -> Result<Verifier, SignError> {
        let text = read_key(path)?;
        let bad = |why: minisign::PError| SignError::BadKey {
            path: path.to_path_buf(),
            what: "public key",
            why: why.to_string(),
        };
        let pk = match PublicKeyBox::from_string(&text).and_then(PublicKeyBox::into_public_key) {
            Ok(pk) => pk,
            Err(_) => match PublicKey::from_base64(text.trim()) {
                Ok(pk) => pk,
                Err(e) => match other_secret(&text) {
                    Some(what) => {
                        return Err(SignError::BadKey {
                            path: path.to_path_buf(),
                            what: "public key",
                            why: format!(
                                "it is {what}; checking takes the operator's public key, \
                                 KEY.pub (and the secret stays with its owner)"
                            ),
                        })
                    }
                    None => return Err(bad(e)),
                },
            },
        };
        let id = key_id(pk.keynum());
        Ok(Verifier { pk, id })
    }

    /// The public key as the key line of a minisign `KEY.pub` (`RW…`, 56 base64
    /// characters). Errors ([`SignError::Invalid`]): it is not one.
    pub fn from_base64(line: &str) -> Result<Verifier, SignError> {
        let pk = PublicKey::from_base64(line.trim()).map_err(|e| {
            SignError::Invalid(format!(
                "not a minisign public key (the key line of KEY.pub, RW…): {e}"
            ))
        })?;
        let id = key_id(pk.keynum());
        Ok(Verifier { pk, id })
    }

    /// The key id (16 hex digits).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The whole public key, as the key line of `KEY.pub` (base64, `RW…`): what a verdict
    /// names, since a 64-bit key id alone can be matched by another key.
    pub fn public_key(&self) -> String {
        self.pk.to_base64()
    }

    /// Checks that `signature` (a minisign signature file's text) is this key's signature
    /// of `data`; returns its trusted comment. The file is read exactly as the `minisign`
    /// command reads it (minisign.c `sig_load`), never more leniently, so that both give
    /// the same verdict. Errors ([`SignError::Invalid`]): malformed,
    /// made by another key (both ids named), or not a signature of these bytes.
    pub fn verify(&self, data: &[u8], signature: &str) -> Result<String, SignError> {
        self.verify_as(data, signature, "the key given")
    }

    /// [`Verifier::verify`], the error of a signature made by another key naming this one
    /// as `whose` (`the key given`, `the operator's key the reference spec pins`).
    pub fn verify_as(
        &self,
        data: &[u8],
        signature: &str,
        whose: &str,
    ) -> Result<String, SignError> {
        as_minisign_reads(signature).map_err(|e| {
            SignError::Invalid(format!(
                "not a minisign signature as the minisign command reads it: {e}"
            ))
        })?;
        let sig = SignatureBox::from_string(signature)
            .map_err(|e| SignError::Invalid(format!("not a minisign signature: {e}")))?;
        let signer = key_id(sig.keynum());
        if signer != self.id {
            return Err(SignError::Invalid(format!(
                "signed by key {signer}, not by {whose} ({})",
                self.id
            )));
        }
        minisign::verify(&self.pk, &sig, Cursor::new(data), true, false, false)
            .map_err(|e| SignError::Invalid(format!("the signature does not hold: {e}")))?;
        sig.trusted_comment()
            .map_err(|e| SignError::Invalid(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_then_verify_and_tampering_is_caught() {
        let d = tempfile::tempdir().unwrap();
        let id = keygen(&d.path().join("op"), None).unwrap();
        assert_eq!(id.len(), 16);
        let s = Signer::load(&d.path().join("op.key")).unwrap();
        let v = Verifier::load(&d.path().join("op.pub")).unwrap();
        assert_eq!((s.id(), v.id()), (id.as_str(), id.as_str()));
        let sig = s.sign(b"abc\n", "game:coq block:1").unwrap();
        assert_eq!(v.verify(b"abc\n", &sig).unwrap(), "game:coq block:1");
        assert!(v.verify(b"abd\n", &sig).is_err());
        // Another key's signature is refused, naming both keys.
        keygen(&d.path().join("other"), None).unwrap();
        let o = Signer::load(&d.path().join("other.key")).unwrap();
        let e = v
            .verify(b"abc\n", &o.sign(b"abc\n", "x").unwrap())
            .unwrap_err();
        assert!(e.to_string().contains(o.id()), "{e}");
        // Keys are never overwritten.
        assert!(matches!(
            keygen(&d.path().join("op"), None),
            Err(SignError::Exists(_))
        ));
    }

    #[test]
    fn a_trusted_comment_names_the_block_it_vouches_for() {
        let v = Vouched {
            game: "coq".into(),
            emission: 1,
            block: 2,
            kind: "production".into(),
            insecure_seed: false,
        };
        let c = v.comment();
        assert_eq!(
            c,
            "tirage SHA256SUMS game:coq emission:1 block:2 kind:production"
        );
        assert_eq!(Vouched::parse(&c).unwrap(), v);
        let t = Vouched {
            insecure_seed: true,
            ..v.clone()
        };
        assert_eq!(
            t.comment(),
            "tirage SHA256SUMS game:coq emission:1 block:2 kind:production seed:insecure"
        );
        assert_eq!(Vouched::parse(&t.comment()).unwrap(), t);
        assert_eq!(
            t.describe(),
            "game coq, emission 1, block 2, production, made with --insecure-seed"
        );
        for bad in [
            "",
            "game:coq emission:1 block:2 kind:production",
            "tirage SHA256SUMS game:coq emission:1 block:2",
            "tirage SHA256SUMS game:coq emission:1 block:2 kind:production block:3",
            "tirage SHA256SUMS game:coq emission:x block:2 kind:production",
            "tirage SHA256SUMS game:coq emission:1 block:2 kind:bogus",
            "tirage SHA256SUMS game:coq emission:1 block:2 kind:production seed:fine",
        ] {
            assert!(Vouched::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_public_key_reads_from_its_key_line() {
        let d = tempfile::tempdir().unwrap();
        keygen(&d.path().join("op"), None).unwrap();
        let v = Verifier::load(&d.path().join("op.pub")).unwrap();
        let s = Signer::load(&d.path().join("op.key")).unwrap();
        let line = v.public_key();
        assert_eq!(s.public_key().as_deref(), Some(line.as_str()));
        let text = std::fs::read_to_string(d.path().join("op.pub")).unwrap();
        assert_eq!(text.lines().nth(1), Some(line.as_str()));
        let w = Verifier::from_base64(&line).unwrap();
        assert_eq!((w.id(), w.public_key()), (v.id(), line));
        assert!(Verifier::from_base64("RWQ not a key").is_err());
    }

    #[test]
    fn an_encrypted_key_opens_with_its_password_only() {
        let d = tempfile::tempdir().unwrap();
        keygen(&d.path().join("k"), Some("correct horse".into())).unwrap();
        let text = std::fs::read_to_string(d.path().join("k.key")).unwrap();
        let b = SecretKeyBox::from_string(&text).unwrap();
        assert!(b.clone().into_secret_key(Some("wrong".into())).is_err());
        assert!(b.into_secret_key(Some("correct horse".into())).is_ok());
    }
}
