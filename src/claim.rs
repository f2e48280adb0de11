//! The central system's lookup of a claim: "serial S with validation code C pays what?",
//! answered from the file the central system holds, `validation.csv` (in clear, or
//! `validation.csv.age` opened with its identity), as a terminal would (docs/FORMAT.md,
//! validation.csv): compute the claim of the serial and the code, find its row, pay the
//! row's prize (0 for a loser), refuse a claim not in the file.
//!
//! The file holds no serial, so that a serial is of the block is told from the public files
//! beside it: the serial's check digit, and its game code, emission, block, pack and
//! position against `manifest.json`. A serial of the block with no row is a wrong code (or
//! a forged ticket): the file cannot tell which ticket a wrong code was meant for.
//!
//! Whose word the files are taken on ([`Trust`]): with the operator's public key, the
//! signature `SHA256SUMS.minisig` must be that key's over `SHA256SUMS`, which holds the
//! manifest's digest and the validation file's; so nobody who can write the directory can
//! change a prize without the operator's secret key. A production block is looked up
//! without the key only when the caller says so (`--unauthenticated`), and the answer then
//! says it was not authenticated; a specimen deck (never payable) needs no key.
//!
//! Before answering, the whole file is read once and checked: its digest against
//! `SHA256SUMS` (as delivered) and the manifest (its plaintext), its header, every row's
//! form (`claim,way,prize`, and `item` when a tier's prize is not money; a claim of 32
//! lowercase hex digits, a way, prize and item of the manifest's lot table), and the rows' order (strictly by claim). The answer never
//! repeats the code.

use crate::block::layout::SUMS_SIG;
use crate::block::layout::{MANIFEST, SEALED_SUFFIX, SUMS, VALIDATION};
use crate::block::serial;
use crate::block::Kind;
use crate::crypto::sign::Verifier;
use crate::output::hashing::SummingReader;
use crate::output::manifest::Manifest;
use crate::output::seal::{self, Identities};
use crate::output::validation_csv::{claim as claim_of, columns, CLAIM_BYTES};
use crate::output::{read_regular, sums, MAX_JSON};
use sha2::{Digest, Sha256};
use std::io::{BufRead, Read};
use std::path::Path;

/// Digits of a validation code as printed.
pub const CODE_DIGITS: usize = 19;

/// Why a claim cannot be looked up (the lookup's answer is [`Answer`]).
#[derive(Debug, thiserror::Error)]
pub enum ClaimError {
    /// The serial or the code typed is not of the expected form.
    #[error("{what}: {message}")]
    Input {
        /// `serial` or `code`.
        what: &'static str,
        /// What was expected.
        message: String,
    },
    /// A production block looked up with neither the operator's key nor the caller's word
    /// that an unauthenticated answer will do ([`Trust::Unsaid`]).
    #[error("{path}: a production block's answer rests on the operator's signature of SHA256SUMS: give --signer KEY.pub (the operator's public key as you hold it, not a copy from beside the files), or --unauthenticated for an answer that is not authenticated (never pay on it)")]
    Unauthenticated {
        /// The block or bundle directory.
        path: String,
    },
    /// The serial is of another game, emission or block than the file's (its check digit
    /// right): the claim was taken to the wrong block's file, a usage error, not a refusal
    /// of the ticket.
    #[error("{path}: serial {serial} is of game {game}, emission {emission}, block {block}; this file is of game {file_game}, emission {file_emission}, block {file_block}: claim it from the validation file of the serial's block (its block directory, or the central system's bundle of it)")]
    OtherBlock {
        /// The block or bundle directory.
        path: String,
        /// The serial, its 20 digits.
        serial: String,
        /// The serial's game code, emission and block.
        game: u32,
        /// See `game`.
        emission: u32,
        /// See `game`.
        block: u32,
        /// The file's game code, emission and block (its manifest's).
        file_game: u16,
        /// See `file_game`.
        file_emission: u16,
        /// See `file_game`.
        file_block: u32,
    },
    /// A file cannot be read, differs from `SHA256SUMS` or the manifest, is not of its
    /// format (with the line where the text says so), or the signature is missing or is
    /// not the operator's key's over `SHA256SUMS`.
    #[error("{path}: {message}")]
    File {
        /// The file (and `:line` when a line is at fault).
        path: String,
        /// What is wrong and what was expected.
        message: String,
    },
}

/// What the central system answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The claim is in the file with a prize above 0.
    Pays {
        /// The prize, in currency units as the file gives it (`20`, `4.5`): an item's
        /// stated value when `item` is some.
        prize: String,
        /// The tier's amount (the prize) and the way's id.
        way: String,
        /// The prize when it is not money (`FREE TICKET`), as the file names it.
        item: Option<String>,
    },
    /// The claim is in the file: a losing ticket (prize 0).
    NotAWinner,
    /// The serial is no ticket of this block (it says why).
    NoSuchTicket(String),
    /// The serial is a ticket of this block, but no row holds the claim of that serial and
    /// that code: the code is wrong, or the ticket forged.
    WrongCode,
}

/// Whose word the files of a lookup are taken on.
#[derive(Clone, Copy, Debug)]
pub enum Trust<'a> {
    /// The operator's public key: `SHA256SUMS.minisig` must be its signature of
    /// `SHA256SUMS`.
    Signer(&'a Verifier),
    /// Nobody's: the caller asked for an answer without the signature (`--unauthenticated`),
    /// and the answer says so.
    Unauthenticated,
    /// The caller said neither: a specimen deck is looked up (never payable), a production
    /// block is refused ([`ClaimError::Unauthenticated`]).
    Unsaid,
}

/// A claim looked up: the answer and what it was looked up in.
#[derive(Clone, Debug)]
pub struct Claimed {
    /// The answer.
    pub answer: Answer,
    /// The serial, as 20 digits.
    pub serial: String,
    /// The block's manifest (game, block, kind, currency).
    pub manifest: Manifest,
    /// The file read: `validation.csv` or `validation.csv.age`.
    pub file: String,
    /// The key id of the operator's key whose signature held, or `None` when no signature
    /// was checked.
    pub signed_by: Option<String>,
}

/// The digits of `typed` without the spaces, dashes and dots a person types between groups.
fn digits(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '.'))
        .collect()
}

/// Reads `typed` as `n` digits (spaces, dashes and dots between them allowed). Errors:
/// [`ClaimError::Input`] naming `what`.
fn parse(typed: &str, n: usize, what: &'static str) -> Result<String, ClaimError> {
    let d = digits(typed);
    if d.len() != n || !d.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ClaimError::Input {
            what,
            message: format!(
                "expected {n} digits (spaces or dashes between them are fine), got {} characters{}",
                d.chars().count(),
                if d.chars().all(|c| c.is_ascii_digit()) {
                    ""
                } else {
                    " that are not all digits"
                }
            ),
        });
    }
    Ok(d)
}

/// Why serial `s` (20 digits) is no ticket of the block `m` describes, or `None` when it is.
fn not_of_block(s: &[u8; serial::LEN], m: &Manifest) -> Option<Absent> {
    if !serial::is_valid(s) {
        let want = serial::luhn_digit(&s[..serial::LEN - 1]);
        return Some(Absent::NoSuchTicket(format!(
            "its last digit, the check digit, is {}, but its first 19 digits call for {}: a digit is mistyped, or the serial is not genuine",
            s[serial::LEN - 1] as char,
            want as char
        )));
    }
    let field = |a: usize, b: usize| -> u32 {
        std::str::from_utf8(&s[a..b])
            .ok()
            .and_then(|x| x.parse().ok())
            .unwrap_or(u32::MAX)
    };
    let (game, emission, block) = (field(0, 4), field(4, 7), field(7, 10));
    // The pack/position split follows the block's pack size (docs/FORMAT.md, "Serial").
    let (pack, position) = serial::place(s, m.pack_size);
    let g = &m.game;
    if (game, emission, block) != (u32::from(g.game_code), u32::from(g.emission), m.block) {
        return Some(Absent::OtherBlock {
            game,
            emission,
            block,
        });
    }
    let ticket = (pack.max(1) - 1)
        .saturating_mul(u64::from(m.pack_size))
        .saturating_add(position);
    if pack == 0
        || position == 0
        || position > u64::from(m.pack_size)
        || ticket > u64::from(m.tickets)
    {
        return Some(Absent::NoSuchTicket(format!(
            "pack {pack}, position {position}: the block has {} tickets in packs of {}",
            m.tickets, m.pack_size
        )));
    }
    None
}

/// Why a serial is no ticket of a block ([`not_of_block`]).
enum Absent {
    /// It is of no ticket here: a wrong check digit, or a place past the block's packs
    /// (said why); the claim is refused.
    NoSuchTicket(String),
    /// It is of another game, emission or block (its fields): a usage error.
    OtherBlock {
        game: u32,
        emission: u32,
        block: u32,
    },
}

/// Looks up the claim of `serial` and `code` (as typed: digits, with spaces, dashes or dots
/// between groups) in block or bundle directory `dir`: its `manifest.json`, `SHA256SUMS`
/// (with `SHA256SUMS.minisig`, checked as `trust` says) and `validation.csv` (or
/// `validation.csv.age`, opened with `ids`). Reads the manifest whole and the validation
/// file once, from start to end.
///
/// Errors ([`ClaimError`]): a serial that is not 20 digits or a code that is not 19; the
/// signature missing or not the key's; a production block with [`Trust::Unsaid`]; the
/// manifest or SHA256SUMS missing or unreadable; a serial of another game, emission or
/// block ([`ClaimError::OtherBlock`]: the wrong block's file); the validation file missing, encrypted to
/// no identity given, differing from `SHA256SUMS` or the manifest, or not of its format (a
/// header, row or order that is not the format's, named by line).
pub fn claim(
    dir: &Path,
    serial: &str,
    code: &str,
    ids: &Identities,
    trust: Trust,
) -> Result<Claimed, ClaimError> {
    let s = parse(serial, serial::LEN, "serial")?;
    let c = parse(code, CODE_DIGITS, "code")?;
    let file = |name: &str, message: String| ClaimError::File {
        path: dir.join(name).display().to_string(),
        message,
    };
    let sums_bytes =
        sums::read_bytes(dir).map_err(|e| file(SUMS, format!("cannot read it: {e}")))?;
    let signed_by = match trust {
        Trust::Signer(key) => {
            let sig = read_regular(&dir.join(SUMS_SIG), 64 * 1024).map_err(|e| {
                file(
                    SUMS_SIG,
                    if e.kind() == std::io::ErrorKind::NotFound {
                        "missing: the block is not signed, so no answer can rest on --signer's key; look the claim up with --unauthenticated instead (answered NOT PAYABLE, never paid; a specimen deck needs neither)".into()
                    } else {
                        format!("cannot read it: {e}")
                    },
                )
            })?;
            let sig = String::from_utf8(sig)
                .map_err(|_| file(SUMS_SIG, "not a minisign signature (not text)".into()))?;
            key.verify(&sums_bytes, &sig)
                .map_err(|e| file(SUMS_SIG, e.to_string()))?;
            Some(key.id().to_string())
        }
        Trust::Unauthenticated | Trust::Unsaid => None,
    };
    let listed = sums::parse_bytes(&sums_bytes).map_err(|m| file(SUMS, m))?;
    let bytes = read_regular(&dir.join(MANIFEST), MAX_JSON)
        .map_err(|e| file(MANIFEST, format!("cannot read it: {e}")))?;
    sums::check(&listed, MANIFEST, &hex::encode(Sha256::digest(&bytes)))
        .map_err(|m| file(MANIFEST, m))?;
    let manifest: Manifest = serde_json::from_slice(&bytes)
        .map_err(|e| file(MANIFEST, format!("does not parse: {e}")))?;
    if matches!(trust, Trust::Unsaid) && manifest.kind == Kind::Production {
        return Err(ClaimError::Unauthenticated {
            path: dir.display().to_string(),
        });
    }
    let serial_bytes: [u8; serial::LEN] = s.as_bytes().try_into().expect("20 digits");
    let wanted = hex::encode(claim_of(
        &serial_bytes,
        c.parse().expect("19 digits fit in a u64"),
    ));

    // Encrypted to the central system: said of the file as delivered, before it is opened.
    let sealed = format!("{VALIDATION}{SEALED_SUFFIX}");
    if std::fs::symlink_metadata(dir.join(VALIDATION)).is_err()
        && std::fs::symlink_metadata(dir.join(&sealed)).is_ok()
        && !seal::opens(dir, VALIDATION, ids)
    {
        return Err(file(
            &sealed,
            format!(
                "{}: it opens with the central system's identity (give it with --identity FILE)",
                if ids.is_empty() {
                    "encrypted, and no identity was given"
                } else {
                    "no identity given opens it"
                }
            ),
        ));
    }
    let opened = seal::open(dir, VALIDATION, ids).map_err(|e| file(VALIDATION, e.to_string()))?;
    let name = opened.delivered.clone();
    // The ways of the lot table, with their prize and item: every row's is one.
    let mut ways: Vec<(String, String, String)> = manifest
        .tiers
        .iter()
        .flat_map(|t| {
            let item = t.item.clone().unwrap_or_default();
            t.ways
                .iter()
                .map(move |w| (w.id.clone(), t.amount.clone(), item.clone()))
        })
        .collect();
    ways.push(("lose".into(), "0".into(), String::new()));
    let items = manifest.tiers.iter().any(|t| t.item.is_some());
    let header = columns(items).join(",");
    // Never more read than the manifest says the file holds (and one byte more, to see
    // that it holds more), nor a line longer than a row can be.
    let recorded = manifest
        .files
        .iter()
        .find(|f| f.name == VALIDATION)
        .map(|f| f.bytes)
        .ok_or_else(|| file(&name, format!("{MANIFEST} records no {VALIDATION}")))?;
    let mut reader = std::io::BufReader::new(SummingReader::new(
        opened.reader.take(recorded.saturating_add(1)),
    ));
    let mut found: Option<(String, String, String)> = None;
    let mut previous = String::new();
    let mut line = Vec::new();
    let mut n = 0u64;
    let at = |n: u64, message: String| ClaimError::File {
        path: format!("{}:{n}", dir.join(&name).display()),
        message,
    };
    loop {
        line.clear();
        let k = (&mut reader)
            .take(MAX_ROW_BYTES + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| file(&name, format!("cannot read it: {e}")))?;
        // Read to the bound: the file holds more than the manifest records (checked before
        // a line cut at the bound is taken for a malformed one).
        if (k == 0 || line.last() != Some(&b'\n')) && reader.get_ref().count() > recorded {
            return Err(file(
                &name,
                format!(
                    "{}it holds more than the {recorded} bytes {MANIFEST} records",
                    if opened.sealed.is_some() {
                        "decrypted, "
                    } else {
                        ""
                    }
                ),
            ));
        }
        if k == 0 {
            break;
        }
        n += 1;
        if line.len() as u64 > MAX_ROW_BYTES {
            return Err(at(
                n,
                format!("the line is longer than {MAX_ROW_BYTES} bytes, more than a row holds"),
            ));
        }
        if line.pop() != Some(b'\n') {
            return Err(at(n, "the last line has no line feed".into()));
        }
        let text = std::str::from_utf8(&line).map_err(|_| at(n, "not UTF-8 text".into()))?;
        if n == 1 {
            if text != header {
                return Err(at(n, format!("the header row is not `{header}`")));
            }
            continue;
        }
        let f: Vec<&str> = text.split(',').collect();
        let (cl, way, prize, item) = match (items, f.as_slice()) {
            (false, &[cl, way, prize]) => (cl, way, prize, ""),
            (true, &[cl, way, prize, item]) => (cl, way, prize, item),
            _ => {
                return Err(at(
                    n,
                    format!("expected {} fields: {header}", columns(items).len()),
                ))
            }
        };
        if cl.len() != 2 * CLAIM_BYTES
            || !cl.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        {
            return Err(at(
                n,
                format!("the claim is not {} lowercase hex digits", 2 * CLAIM_BYTES),
            ));
        }
        if !ways
            .iter()
            .any(|(w, p, i)| w == way && p == prize && i == item)
        {
            return Err(at(
                n,
                format!(
                    "way {:?} with prize {:?}{} is no way of the lot table in {MANIFEST}",
                    way.chars().take(40).collect::<String>(),
                    prize.chars().take(40).collect::<String>(),
                    if items {
                        format!(" and item {:?}", item.chars().take(40).collect::<String>())
                    } else {
                        String::new()
                    }
                ),
            ));
        }
        if cl <= previous.as_str() {
            return Err(at(
                n,
                "the rows are not sorted by claim, each once (the file is sorted by claim)".into(),
            ));
        }
        previous.clear();
        previous.push_str(cl);
        if cl == wanted {
            found = Some((way.to_string(), prize.to_string(), item.to_string()));
        }
    }
    let (_, digest) = reader.into_inner().finish();
    // The file as delivered is held to SHA256SUMS; its text, in clear or decrypted, to the
    // manifest's record of it.
    if let Some(delivered) = &opened.sealed {
        let (_, sealed) = delivered
            .finish()
            .map_err(|e| file(&name, format!("cannot read it: {e}")))?;
        sums::check(&listed, &name, &sealed).map_err(|m| file(&name, m))?;
    } else {
        sums::check(&listed, &name, &digest).map_err(|m| file(&name, m))?;
    }
    let want = manifest
        .files
        .iter()
        .find(|f| f.name == VALIDATION)
        .map(|f| f.sha256.as_str());
    if want != Some(digest.as_str()) {
        return Err(file(
            &name,
            format!(
                "{}its SHA-256 is {digest}; {MANIFEST} records {}",
                if opened.sealed.is_some() {
                    "decrypted, "
                } else {
                    ""
                },
                want.map_or("none".to_string(), |w| w.to_string())
            ),
        ));
    }
    let answer = match (not_of_block(&serial_bytes, &manifest), found) {
        (
            Some(Absent::OtherBlock {
                game,
                emission,
                block,
            }),
            _,
        ) => {
            return Err(ClaimError::OtherBlock {
                path: dir.display().to_string(),
                serial: s,
                game,
                emission,
                block,
                file_game: manifest.game.game_code,
                file_emission: manifest.game.emission,
                file_block: manifest.block,
            })
        }
        (Some(Absent::NoSuchTicket(why)), _) => Answer::NoSuchTicket(why),
        (None, None) => Answer::WrongCode,
        (None, Some((_, prize, _))) if prize == "0" => Answer::NotAWinner,
        (None, Some((way, prize, item))) => Answer::Pays {
            prize,
            way,
            item: (!item.is_empty()).then_some(item),
        },
    };
    Ok(Claimed {
        answer,
        serial: s,
        manifest,
        file: name,
        signed_by,
    })
}

/// The most bytes a row of `validation.csv` may hold, its line feed included: a claim, a
/// way, a prize and an item are far shorter.
const MAX_ROW_BYTES: u64 = 64 << 10;

/// Why an answer without the operator's signature is not to be paid.
const UNAUTHENTICATED: &str = "unauthenticated: the operator's signature was not checked";

impl Claimed {
    /// Why the answer is not to be paid whatever it says, in words: a specimen deck's
    /// ticket, a test block's ([`Manifest::is_test_block`]), or a production block's looked
    /// up without the operator's signature ([`Trust::Unauthenticated`]: anyone who can write
    /// the directory could have written its prizes). `None` when it may be paid.
    fn not_payable_because(&self) -> Option<&'static str> {
        if self.manifest.kind == Kind::Specimen {
            Some("a specimen deck's ticket")
        } else if self.manifest.is_test_block() {
            Some("a TEST BLOCK's ticket (made with a test seed), never for sale")
        } else if self.signed_by.is_none() {
            Some(UNAUTHENTICATED)
        } else {
            None
        }
    }

    /// True when the answer is not to be paid whatever it says: a specimen deck's ticket, a
    /// test block's, or a production block's looked up without the operator's signature.
    pub fn never_payable(&self) -> bool {
        self.not_payable_because().is_some()
    }

    /// The answer in one line, as the command prints it: `SERIAL: pays 20 EUR (way 10+10)`,
    /// `SERIAL: not a winning ticket`, `SERIAL: refused: no such ticket (…)` or
    /// `SERIAL: refused: wrong code …`. An answer never to be paid ([`Claimed::never_payable`])
    /// starts `SERIAL: NOT PAYABLE — WHY;` (a specimen deck's ticket, a test block's, or
    /// `unauthenticated: the operator's signature was not checked`) and then says what it
    /// would win (`it would win 20 EUR (…)`) or that it is not a winning ticket; a refusal
    /// of a production block looked up without the signature ends `— unauthenticated: …`.
    pub fn line(&self) -> String {
        let cur = &self.manifest.game.currency;
        let read = matches!(self.answer, Answer::Pays { .. } | Answer::NotAWinner);
        let never = self.not_payable_because().filter(|_| read);
        let mut s = format!("{}: ", self.serial);
        if let Some(why) = never {
            s.push_str(&format!("NOT PAYABLE — {why}; "));
        }
        let pays = if never.is_some() {
            "it would win"
        } else {
            "pays"
        };
        let wins = if never.is_some() {
            "it would win"
        } else {
            "wins"
        };
        match &self.answer {
            Answer::Pays {
                prize,
                way,
                item: None,
            } => s.push_str(&format!("{pays} {prize} {cur} (tier {prize} {cur}, way {way})")),
            Answer::Pays {
                prize,
                way,
                item: Some(item),
            } => s.push_str(&format!(
                "{wins} {item}, not money (stated value {prize} {cur}; way {way})"
            )),
            Answer::NotAWinner => s.push_str("not a winning ticket"),
            Answer::NoSuchTicket(why) => {
                s.push_str(&format!("refused: no such ticket in this block: {why}"))
            }
            Answer::WrongCode => s.push_str(&format!(
                "refused: wrong code (no row of {} holds this serial with this code), or a forged ticket",
                self.file
            )),
        }
        if !read && self.signed_by.is_none() && self.manifest.kind == Kind::Production {
            s.push_str(&format!(" — {UNAUTHENTICATED}"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_digits_may_be_grouped() {
        assert_eq!(
            parse("1703 001 001 000001 001 2", 20, "serial").unwrap(),
            "17030010010000010012"
        );
        assert_eq!(
            parse("1234-5678-9012-3456-789", 19, "code").unwrap(),
            "1234567890123456789"
        );
        let e = parse("12345", 19, "code").unwrap_err().to_string();
        assert_eq!(
            e,
            "code: expected 19 digits (spaces or dashes between them are fine), got 5 characters"
        );
        let e = parse("1234567890123456789x", 20, "serial")
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("got 20 characters that are not all digits"),
            "{e}"
        );
    }
}
