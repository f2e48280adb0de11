//! Validation codes: the secret code under the « Nul si découvert » box that the central
//! system uses to pay a ticket.
//!
//! The code of a ticket is a keyed pseudo-random permutation of its place in the emission:
//! Blowfish (64-bit block, RustCrypto `blowfish` crate) under a 256-bit key derived from the
//! emission seed, applied to `block << 32 | ticket index (0-based)`, written as 20 decimal
//! digits. A permutation maps distinct inputs to distinct outputs, so codes are unique
//! across every block of an emission *by construction*; without the key, knowing any number
//! of (serial, code) pairs does not help predict another ticket's code. The key is never
//! written anywhere; the manifest holds only a commitment to it.
//!
//! Specimen tickets (QA decks) use a separate key (label `validation-specimen`), so a deck
//! ticket's code is never a code the central system would pay.

use crate::rng::{derive_key, Purpose, Seed};
use blowfish::Blowfish;
use cipher::generic_array::GenericArray;
use cipher::{BlockEncrypt, KeyInit};
use sha2::{Digest, Sha256};

/// Digits of a printed validation code (2^64 − 1 has 20 digits).
pub const DIGITS: usize = 20;

/// Computes the validation codes of one emission (or of specimen decks).
pub struct Validator {
    cipher: Blowfish,
    commitment: String,
}

impl Validator {
    /// The production validator of the emission whose master seed is `seed`.
    pub fn production(seed: &Seed) -> Validator {
        Validator::with_key(derive_key(seed, Purpose::Validation, 0, 0))
    }

    /// The specimen validator (QA decks): a key no production ticket uses.
    pub fn specimen(seed: &Seed) -> Validator {
        Validator::with_key(derive_key(seed, Purpose::SpecimenValidation, 0, 0))
    }

    fn with_key(key: [u8; 32]) -> Validator {
        let mut h = Sha256::new();
        h.update(b"tirage/v1/validation-key-commitment\0");
        h.update(key);
        Validator {
            cipher: Blowfish::new_from_slice(&key).expect("Blowfish accepts 32-byte keys"),
            commitment: hex::encode(h.finalize()),
        }
    }

    /// The code of ticket `index` (0-based) of `block`: Blowfish of `block << 32 | index`
    /// (big-endian block), as a number below 2^64.
    pub fn code(&self, block: u32, index: u32) -> u64 {
        let input = (u64::from(block) << 32) | u64::from(index);
        let mut b = GenericArray::clone_from_slice(&input.to_be_bytes());
        self.cipher.encrypt_block(&mut b);
        u64::from_be_bytes(b.into())
    }

    /// Hex SHA-256 of `"tirage/v1/validation-key-commitment" ‖ 0x00 ‖ key`: identifies the
    /// key in the manifest without revealing it.
    pub fn commitment(&self) -> &str {
        &self.commitment
    }
}

/// A code as printed: 20 digits, zero-padded.
pub fn format(code: u64) -> [u8; DIGITS] {
    let mut out = [b'0'; DIGITS];
    let mut v = code;
    for d in out.iter_mut().rev() {
        *d = b'0' + (v % 10) as u8;
        v /= 10;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn blowfish_known_answer() {
        // Eric Young's Blowfish test vector: key 0000000000000000, plaintext 0000000000000000
        // → ciphertext 4EF997456198DD78 (checks the cipher we build on).
        let bf: Blowfish = Blowfish::new_from_slice(&[0u8; 8]).unwrap();
        let mut b = GenericArray::clone_from_slice(&[0u8; 8]);
        bf.encrypt_block(&mut b);
        assert_eq!(hex::encode(b), "4ef997456198dd78");
    }

    #[test]
    fn codes_are_unique_across_blocks_and_differ_between_keys() {
        let seed = Seed([3; 32]);
        let v = Validator::production(&seed);
        let s = Validator::specimen(&seed);
        let mut seen = HashSet::new();
        for block in 1..=3 {
            for i in 0..20_000 {
                assert!(seen.insert(v.code(block, i)));
            }
        }
        assert_ne!(v.code(1, 0), s.code(1, 0));
        assert_ne!(v.commitment(), s.commitment());
        assert_eq!(v.code(2, 7), Validator::production(&seed).code(2, 7));
    }

    #[test]
    fn format_pads_to_20_digits() {
        assert_eq!(&format(42), b"00000000000000000042");
        assert_eq!(&format(u64::MAX), b"18446744073709551615");
    }
}
