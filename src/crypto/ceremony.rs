//! The commitments of a seed ceremony: what each party publishes before any share is
//! revealed, what it binds, and who signed it.
//!
//! A commitment line is
//!
//! ```text
//! tirage-share/2:GAME:EMISSION:SPEC:FIRST-LAST:SALT:HASH[ minisign:KEY:SIG:GLOBAL]
//! ```
//!
//! GAME the game code, EMISSION the emission (decimal), SPEC the spec file's SHA-256 (64 hex
//! digits), FIRST-LAST the blocks it may make (0-0: a specimen deck), SALT 16 bytes from the
//! OS (32 hex digits), and HASH the hex SHA-256 of `"tirage/v1/share-commitment/2"` ‖ 0x00 ‖
//! the binding (the ASCII text `GAME:EMISSION:SPEC:FIRST-LAST`) ‖ 0x00 ‖ salt (16 bytes) ‖
//! share (32 bytes). The salt makes a commitment reveal nothing of the share, even to one
//! who guesses it among a few; the binding makes a share good for the blocks its party
//! named and no other: another game, emission, lot table or block refuses it.
//!
//! A party that signs its line (`tirage seed commit --sign KEY`) appends its minisign public
//! key (KEY, base64) and the two base64 lines of a minisign signature whose data and trusted
//! comment are both the commitment (the line up to HASH): anyone can check it with
//! `minisign` alone (see docs/FORMAT.md).

use crate::crypto::rng::{SeedError, SeedShare};
use crate::crypto::sign::Signer;
use sha2::{Digest, Sha256};
use std::ops::RangeInclusive;

/// How a commitment line begins.
pub const PREFIX: &str = "tirage-share/2:";

/// How the commitments of earlier releases began: they bind nothing, and are refused.
const UNBOUND_PREFIX: &str = "tirage-share/1:";

/// What a commitment binds: the game, its emission, its exact spec and the blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The game code.
    pub game_code: u16,
    /// The emission.
    pub emission: u16,
    /// The spec file's SHA-256, 64 lowercase hex digits.
    pub spec_sha256: String,
    /// The blocks the share may make (0..=0: a specimen deck).
    pub blocks: RangeInclusive<u32>,
}

impl Binding {
    /// The binding's text, as hashed and printed: `GAME:EMISSION:SPEC:FIRST-LAST`.
    pub fn text(&self) -> String {
        format!(
            "{}:{}:{}:{}-{}",
            self.game_code,
            self.emission,
            self.spec_sha256,
            self.blocks.start(),
            self.blocks.end()
        )
    }

    /// Why this binding does not allow `blocks` of the game `game_code`, emission
    /// `emission`, spec `spec_sha256`, if it does not: the first thing that differs, in
    /// words.
    pub fn refuses(
        &self,
        game_code: u16,
        emission: u16,
        spec_sha256: &str,
        blocks: &RangeInclusive<u32>,
    ) -> Option<String> {
        if self.game_code != game_code {
            Some(format!(
                "it binds game code {}, not {game_code}",
                self.game_code
            ))
        } else if self.emission != emission {
            Some(format!(
                "it binds emission {}, not {emission}",
                self.emission
            ))
        } else if self.spec_sha256 != spec_sha256 {
            Some(format!(
                "it binds the spec of SHA-256 {}, not this one ({spec_sha256})",
                self.spec_sha256
            ))
        } else if blocks.start() < self.blocks.start() || blocks.end() > self.blocks.end() {
            Some(format!(
                "it binds {}, not {}",
                blocks_words(&self.blocks),
                blocks_words(blocks)
            ))
        } else {
            None
        }
    }
}

/// `block 3`, `blocks 1 to 3` or `the specimen deck (block 0)`.
fn blocks_words(b: &RangeInclusive<u32>) -> String {
    match (b.start(), b.end()) {
        (0, 0) => "the specimen deck (block 0)".into(),
        (a, z) if a == z => format!("block {a}"),
        (a, z) => format!("blocks {a} to {z}"),
    }
}

/// A party's minisign signature of its commitment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The signer's minisign public key, base64 (as in the second line of its `.pub`).
    pub public_key: String,
    /// The signature line of the minisign signature (base64).
    pub signature: String,
    /// The global signature line (base64), over the signature and the trusted comment.
    pub global: String,
}

/// One party's published commitment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commitment {
    /// What it binds.
    pub binding: Binding,
    salt: [u8; 16],
    hash: [u8; 32],
    /// The party's signature, when it signed.
    pub signature: Option<Signature>,
}

impl Commitment {
    /// A fresh salted commitment of `share` bound to `binding`, signed with `signer` when
    /// given. Errors: the OS's random source failed; the signature could not be made.
    pub fn new(
        share: &SeedShare,
        binding: Binding,
        signer: Option<&Signer>,
    ) -> Result<Commitment, String> {
        let mut salt = [0u8; 16];
        getrandom::getrandom(&mut salt).map_err(|e| SeedError::Os(e.to_string()).to_string())?;
        let mut c = Commitment {
            hash: hash(&binding, &salt, share),
            binding,
            salt,
            signature: None,
        };
        if let Some(s) = signer {
            c.signature = Some(c.sign(s)?);
        }
        Ok(c)
    }

    /// The commitment proper: the line up to its hash, without a signature.
    pub fn commitment(&self) -> String {
        format!(
            "{PREFIX}{}:{}:{}",
            self.binding.text(),
            hex::encode(self.salt),
            hex::encode(self.hash)
        )
    }

    /// The line as published: the commitment, then its signature if any.
    pub fn line(&self) -> String {
        match &self.signature {
            None => self.commitment(),
            Some(s) => format!(
                "{} minisign:{}:{}:{}",
                self.commitment(),
                s.public_key,
                s.signature,
                s.global
            ),
        }
    }

    /// True when `share` is the share this commitment was made of.
    pub fn opened_by(&self, share: &SeedShare) -> bool {
        hash(&self.binding, &self.salt, share) == self.hash
    }

    /// The key id (16 hex digits, as minisign prints it) of the signer, when the line is
    /// signed.
    pub fn signer_id(&self) -> Option<String> {
        let s = self.signature.as_ref()?;
        let pk = minisign::PublicKey::from_base64(&s.public_key).ok()?;
        let mut n = [0u8; 8];
        n.copy_from_slice(&pk.keynum()[..8]);
        Some(format!("{:016X}", u64::from_le_bytes(n)))
    }

    fn sign(&self, signer: &Signer) -> Result<Signature, String> {
        let line = self.commitment();
        let public_key = signer
            .public_key()
            .ok_or("the signing key holds no public key to name the signer with")?;
        let text = signer
            .sign(line.as_bytes(), &line)
            .map_err(|e| e.to_string())?;
        // minisign's signature file: untrusted comment, signature, trusted comment, global.
        let lines: Vec<&str> = text.lines().collect();
        match lines.as_slice() {
            [_, sig, _, global] => Ok(Signature {
                public_key,
                signature: (*sig).to_string(),
                global: (*global).to_string(),
            }),
            _ => Err("minisign made a signature of an unexpected form".into()),
        }
    }

    /// The text of a minisign signature file of the commitment (for `minisign -V`), when
    /// the line is signed.
    pub fn minisig(&self) -> Option<String> {
        let s = self.signature.as_ref()?;
        Some(format!(
            "untrusted comment: tirage seed share commitment\n{}\ntrusted comment: {}\n{}\n",
            s.signature,
            self.commitment(),
            s.global
        ))
    }

    /// Checks the signature, if the line is signed: the key it names signed the commitment
    /// (as data and as trusted comment). Errors: in words.
    pub fn check_signature(&self) -> Result<(), String> {
        let (Some(s), Some(text)) = (&self.signature, self.minisig()) else {
            return Ok(());
        };
        let pk = minisign::PublicKey::from_base64(&s.public_key)
            .map_err(|e| format!("its signer's key is not a minisign public key: {e}"))?;
        let sig = minisign::SignatureBox::from_string(&text)
            .map_err(|e| format!("its signature is not a minisign signature: {e}"))?;
        if sig.keynum() != pk.keynum() {
            return Err("it is signed by another key than the one it names".into());
        }
        minisign::verify(
            &pk,
            &sig,
            std::io::Cursor::new(self.commitment().as_bytes()),
            true,
            false,
            false,
        )
        .map_err(|e| format!("its signature does not hold: {e}"))
    }

    /// Parses a published line (surrounding white space ignored). Errors, in words (never
    /// quoting the line: a secret given by mistake is not printed): a commitment of an
    /// earlier release, which binds nothing; any other form.
    pub fn parse(line: &str) -> Result<Commitment, String> {
        let line = line.trim();
        if line.starts_with(UNBOUND_PREFIX) {
            return Err("a commitment of the form tirage-share/1 binds no game, emission or block, so it could make any block: make it again with `tirage seed commit SHARE --spec SPEC --blocks RANGE`".into());
        }
        let expected = || {
            "expected a share commitment tirage-share/2:<game code>:<emission>:<spec SHA-256>:<first>-<last>:<salt: 32 hex>:<hash: 64 hex>, optionally followed by ` minisign:<key>:<signature>:<global signature>` (from `tirage seed commit`)".to_string()
        };
        let (commitment, signed) = match line.split_once(' ') {
            Some((c, s)) => (c, Some(s.trim())),
            None => (line, None),
        };
        let rest = commitment.strip_prefix(PREFIX).ok_or_else(expected)?;
        let f: Vec<&str> = rest.split(':').collect();
        let [game, emission, spec, blocks, salt, h] = f.as_slice() else {
            return Err(expected());
        };
        let hexes = |s: &str, n: usize| {
            s.len() == n
                && s.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        };
        let number = |s: &str| -> Option<u32> {
            (!s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let (Some(game_code), Some(emission)) = (
            number(game).and_then(|n| u16::try_from(n).ok()),
            number(emission).and_then(|n| u16::try_from(n).ok()),
        ) else {
            return Err(expected());
        };
        let range = blocks
            .split_once('-')
            .and_then(|(a, z)| Some((number(a)?, number(z)?)))
            .filter(|&(a, z)| a <= z && z <= 999 && (a > 0 || z == 0));
        let (Some((first, last)), true, true, true) =
            (range, hexes(spec, 64), hexes(salt, 32), hexes(h, 64))
        else {
            return Err(expected());
        };
        let mut c = Commitment {
            binding: Binding {
                game_code,
                emission,
                spec_sha256: (*spec).to_string(),
                blocks: first..=last,
            },
            salt: [0; 16],
            hash: [0; 32],
            signature: None,
        };
        hex::decode_to_slice(salt, &mut c.salt).map_err(|_| expected())?;
        hex::decode_to_slice(h, &mut c.hash).map_err(|_| expected())?;
        if c.commitment() != commitment {
            return Err(expected());
        }
        if let Some(s) = signed {
            let base64 = |s: &str| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
            };
            let parts: Vec<&str> = s
                .strip_prefix("minisign:")
                .unwrap_or("")
                .split(':')
                .collect();
            match parts.as_slice() {
                [k, sig, global] if [k, sig, global].iter().all(|p| base64(p)) => {
                    c.signature = Some(Signature {
                        public_key: (*k).to_string(),
                        signature: (*sig).to_string(),
                        global: (*global).to_string(),
                    });
                }
                _ => return Err(expected()),
            }
        }
        Ok(c)
    }
}

/// True when `line` is a commitment line (as [`Commitment::parse`] reads it) that `share`
/// opens.
pub fn opens(line: &str, share: &SeedShare) -> bool {
    Commitment::parse(line).is_ok_and(|c| c.opened_by(share))
}

/// SHA-256(`"tirage/v1/share-commitment/2"` ‖ 0x00 ‖ binding text ‖ 0x00 ‖ salt ‖ share).
fn hash(binding: &Binding, salt: &[u8; 16], share: &SeedShare) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"tirage/v1/share-commitment/2\0");
    h.update(binding.text().as_bytes());
    h.update([0u8]);
    h.update(salt);
    h.update(share.0);
    h.finalize().into()
}

/// Parses a block range for a commitment: `N`, `A..B` (1 ≤ A ≤ B ≤ 999) or `0` (a
/// specimen deck). Errors: in words.
pub fn parse_blocks(s: &str) -> Result<RangeInclusive<u32>, String> {
    let bad = || {
        format!("`{s}` is not a block range: expected N or A..B (1 ≤ A ≤ B ≤ 999), or 0 for a specimen deck")
    };
    let (a, z) = match s.split_once("..").or_else(|| s.split_once('-')) {
        Some((a, z)) => (a.trim(), z.trim().trim_start_matches('=')),
        None => (s.trim(), s.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let z: u32 = z.parse().map_err(|_| bad())?;
    match (a, z) {
        (0, 0) if !s.contains(['.', '-']) => Ok(0..=0),
        (a, z) if a >= 1 && a <= z && z <= 999 => Ok(a..=z),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding() -> Binding {
        Binding {
            game_code: 2017,
            emission: 1,
            spec_sha256: "ab".repeat(32),
            blocks: 1..=3,
        }
    }

    const SHARE_A: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    /// Computed independently with Python's hashlib: `sha256(b"tirage/v1/share-commitment/2\0"
    /// + b"2017:1:" + b"ab" * 32 + b":1-3" + b"\0" + bytes([0x11] * 16) + bytes.fromhex(a))`.
    #[test]
    fn known_vector_and_round_trip() {
        let a = SeedShare::from_hex(SHARE_A).unwrap();
        let c = Commitment {
            hash: hash(&binding(), &[0x11; 16], &a),
            binding: binding(),
            salt: [0x11; 16],
            signature: None,
        };
        assert_eq!(
            c.line(),
            format!(
                "tirage-share/2:2017:1:{}:1-3:{}:{COMMIT_A}",
                "ab".repeat(32),
                "11".repeat(16)
            )
        );
        assert_eq!(Commitment::parse(&c.line()), Ok(c.clone()));
        assert!(c.opened_by(&a));
        assert!(!c.opened_by(&SeedShare([0x22; 32])));
        let fresh = Commitment::new(&a, binding(), None).unwrap();
        assert!(fresh.opened_by(&a));
        assert_ne!(fresh, Commitment::new(&a, binding(), None).unwrap());
    }

    const COMMIT_A: &str = "41214eae881fc0ce1cbc65a29e54f666d9a24b0e2d37dbabb8dfd282eddad907";

    #[test]
    fn a_binding_refuses_other_games_emissions_specs_and_blocks() {
        let b = binding();
        let spec = "ab".repeat(32);
        assert_eq!(b.refuses(2017, 1, &spec, &(1..=3)), None);
        assert_eq!(b.refuses(2017, 1, &spec, &(2..=2)), None);
        assert_eq!(
            b.refuses(2017, 1, &spec, &(4..=4)).unwrap(),
            "it binds blocks 1 to 3, not block 4"
        );
        assert!(b.refuses(2017, 1, &spec, &(3..=4)).is_some());
        assert!(b.refuses(2017, 1, &spec, &(0..=0)).is_some());
        assert!(b
            .refuses(2018, 1, &spec, &(1..=1))
            .unwrap()
            .contains("game code"));
        assert!(b
            .refuses(2017, 2, &spec, &(1..=1))
            .unwrap()
            .contains("emission"));
        assert!(b
            .refuses(2017, 1, &"cd".repeat(32), &(1..=1))
            .unwrap()
            .contains("spec"));
    }

    #[test]
    fn malformed_and_unbound_lines_are_refused_without_quoting_them() {
        let a = SeedShare::from_hex(SHARE_A).unwrap();
        let good = Commitment::new(&a, binding(), None).unwrap().line();
        for bad in [
            SHARE_A.to_string(),
            format!("tirage-share/1:{}:{}", "11".repeat(16), "22".repeat(32)),
            good.replace("1-3", "3-1"),
            good.replace("1-3", "0-3"),
            good.replace(":2017:", ":70000:"),
            good.to_uppercase(),
            format!("{good} minisign:"),
            format!("{good} minisign:a:b"),
            good[..good.len() - 1].to_string(),
        ] {
            let e = Commitment::parse(&bad).unwrap_err();
            assert!(!e.contains(SHARE_A) && !e.contains(&bad), "{e}");
        }
        assert!(Commitment::parse(&format!(
            "tirage-share/1:{}:{}",
            "11".repeat(16),
            "22".repeat(32)
        ))
        .unwrap_err()
        .contains("binds no game"));
    }

    #[test]
    fn a_signed_line_holds_and_a_tampered_one_does_not() {
        let d = tempfile::tempdir().unwrap();
        crate::crypto::sign::keygen(&d.path().join("alice"), None).unwrap();
        let signer = Signer::load(&d.path().join("alice.key")).unwrap();
        let a = SeedShare::from_hex(SHARE_A).unwrap();
        let c = Commitment::new(&a, binding(), Some(&signer)).unwrap();
        assert_eq!(c.check_signature(), Ok(()));
        assert_eq!(c.signer_id().as_deref(), Some(signer.id()));
        let parsed = Commitment::parse(&c.line()).unwrap();
        assert_eq!(parsed, c);
        assert_eq!(parsed.check_signature(), Ok(()));
        // The same signature on a commitment to other blocks: refused.
        let moved = Commitment::parse(&c.line().replace(":1-3:", ":1-4:")).unwrap();
        assert!(moved
            .check_signature()
            .unwrap_err()
            .contains("does not hold"));
        // Another key named in place of the signer's.
        crate::crypto::sign::keygen(&d.path().join("mallory"), None).unwrap();
        let mallory = Signer::load(&d.path().join("mallory.key")).unwrap();
        let other = Commitment::new(&a, binding(), Some(&mallory)).unwrap();
        let swapped = c.line().replace(
            &c.signature.as_ref().unwrap().public_key,
            &other.signature.as_ref().unwrap().public_key,
        );
        assert!(Commitment::parse(&swapped)
            .unwrap()
            .check_signature()
            .is_err());
    }

    #[test]
    fn block_ranges_allow_a_deck() {
        assert_eq!(parse_blocks("0"), Ok(0..=0));
        assert_eq!(parse_blocks("1..3"), Ok(1..=3));
        assert_eq!(parse_blocks("2-5"), Ok(2..=5));
        assert_eq!(parse_blocks("7"), Ok(7..=7));
        for bad in ["0..3", "0..0", "3..1", "1..1000", "x", ""] {
            assert!(parse_blocks(bad).is_err(), "{bad}");
        }
    }
}
