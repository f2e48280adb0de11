//! Validation codes: the secret code under the « Nul si découvert » box that the central
//! system uses to pay a ticket.
//!
//! The code of a ticket is FF1 (NIST SP 800-38G, format-preserving encryption with
//! AES-256, radix 10) of its place in the emission and its block's **generation**: the 19
//! decimal digits `GGGGGGG BBB IIIIIIIII` (generation tag, block, ticket index 0-based),
//! encrypted under the emission's **validation key** with a tweak that binds the game code,
//! the emission and the kind of ticket (production or specimen). The result is 19 decimal
//! digits, printed as such. FF1 is a permutation of the 19-digit numbers for each key and
//! tweak, so codes are unique across every block of a game's emission *by construction*
//! (two tickets of different blocks, or of one block, never have the same input), and a
//! block generated again from another seed gets a new generation tag, hence codes no earlier
//! generation of it had; without the key, knowing any number of (serial, code) pairs does
//! not help predict another ticket's code.
//!
//! The validation key is its own secret with its own custodian: a file of 64 hex digits
//! (`tirage seed new`), never derived from the seed that makes the allocation and faces, so
//! that replaying a block (with its seed) does not reveal its codes. Specimen decks, whose
//! codes are never payable, take their key from the deck's seed and a specimen tweak.
//! The manifest holds only a commitment to the key.

use crate::crypto::rng::{derive_key, Purpose, Seed, SeedError};
use aes::cipher::consts::U16;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use aes::Aes256Enc;
use sha2::{Digest, Sha256};
use zeroize::Zeroize;

/// Digits of a printed validation code: FF1's domain is the 19-digit numbers (below 10^19,
/// which fits in 64 bits).
pub const DIGITS: usize = 19;

/// The largest code plus one: 10^19. A code is a number below it, printed in [`DIGITS`]
/// digits.
pub const DOMAIN: u64 = 10_000_000_000_000_000_000;

/// Generation tags: `0..GENERATIONS` (the 7 leading digits of FF1's input).
pub const GENERATIONS: u64 = 10_000_000;

/// Ticket indices per block in FF1's input: `0..INDICES` (9 digits; a block holds at most
/// 5 000 000 tickets).
const INDICES: u64 = 1_000_000_000;

/// Blocks in FF1's input: `0..BLOCKS` (3 digits; 0 is a specimen deck).
const BLOCKS: u64 = 1_000;

/// The generation tag of the blocks made from the master seed whose commitment is
/// `seed_commitment` (64 hex digits, [`Seed::commitment`], as the manifest records it):
/// the first 8 bytes of SHA-256(`"tirage/v1/code-generation"` ‖ 0x00 ‖ the commitment's
/// 32 bytes), read big-endian, modulo 10^7. Public, like the place it joins: the codes'
/// secret is the key. Two seeds share a tag with probability 10⁻⁷. Panics when
/// `seed_commitment` is not 64 hex digits (a caller bug: it comes from [`Seed::commitment`]
/// or a checked manifest).
pub fn generation_tag(seed_commitment: &str) -> u64 {
    let mut c = [0u8; 32];
    hex::decode_to_slice(seed_commitment, &mut c).expect("a seed commitment is 64 hex digits");
    let mut h = Sha256::new();
    h.update(b"tirage/v1/code-generation\0");
    h.update(c);
    let d = h.finalize();
    u64::from_be_bytes(d[..8].try_into().expect("8 bytes")) % GENERATIONS
}

/// The validation key of an emission: 256 bits, kept by its own custodian as a file of 64
/// hex digits. Its bytes are wiped when it is dropped; its `Debug` form never shows them.
#[derive(Clone, PartialEq, Eq)]
pub struct ValidationKey(pub [u8; 32]);

impl ValidationKey {
    /// The key derived from the master seed, when no key of its own is given: SHA-256(
    /// `"tirage/v1/validation-derived"` ‖ 0x00 ‖ seed bound to the game ([`Seed::bound_to`]) ‖
    /// 0 ‖ 0). Whoever holds the seed can then compute the codes; the manifest says so
    /// (`validation_key_from_seed`).
    pub fn from_seed(
        seed: &Seed,
        game_code: u16,
        emission: u16,
        spec_sha256: &str,
    ) -> ValidationKey {
        let bound = seed.bound_to(game_code, emission, spec_sha256);
        ValidationKey(derive_key(&bound, Purpose::DerivedValidation, 0, 0))
    }

    /// Parses 64 hex digits; errors as [`Seed::from_hex`].
    pub fn from_hex(s: &str) -> Result<ValidationKey, SeedError> {
        Seed::from_hex(s).map(|k| ValidationKey(k.0))
    }
}

impl Drop for ValidationKey {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl std::fmt::Debug for ValidationKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ValidationKey(<secret>)")
    }
}

/// Computes the validation codes of one generation of blocks of one emission of one game
/// (or of specimen decks).
pub struct Validator {
    ff1: Ff1,
    commitment: String,
    /// The generation tag times `BLOCKS · INDICES`: the leading digits of every input.
    generation: u64,
}

impl Validator {
    /// The production validator of emission `emission` of game `game_code`, under the
    /// validation key `key` (64 hex digits kept by its custodian, not the seed), for the
    /// blocks made from the master seed `seed` (its [`generation_tag`]).
    pub fn production(
        key: &ValidationKey,
        game_code: u16,
        emission: u16,
        seed: &Seed,
    ) -> Validator {
        Validator::with_key(&key.0, game_code, emission, b"production", seed)
    }

    /// The specimen validator (QA decks) of the deck seed `seed` (the master seed): a key
    /// and tweak no production ticket uses, derived from the deck's seed bound to the game
    /// (specimen codes are never payable, so replaying a deck may show them).
    pub fn specimen(seed: &Seed, game_code: u16, emission: u16, spec_sha256: &str) -> Validator {
        let bound = seed.bound_to(game_code, emission, spec_sha256);
        let key = derive_key(&bound, Purpose::SpecimenValidation, 0, 0);
        Validator::with_key(&key, game_code, emission, b"specimen", seed)
    }

    /// Hex SHA-256 of `"tirage/v1/validation-key-commitment" ‖ 0x00 ‖ key`: identifies the
    /// key in the manifest without revealing it.
    pub fn key_commitment(key: &ValidationKey) -> String {
        Validator::commit(&key.0)
    }

    fn commit(key: &[u8; 32]) -> String {
        let mut h = Sha256::new();
        h.update(b"tirage/v1/validation-key-commitment\0");
        h.update(key);
        hex::encode(h.finalize())
    }

    fn with_key(
        key: &[u8; 32],
        game_code: u16,
        emission: u16,
        kind: &[u8],
        seed: &Seed,
    ) -> Validator {
        let mut tweak = b"tirage/v1/validation\0".to_vec();
        tweak.extend_from_slice(&game_code.to_be_bytes());
        tweak.extend_from_slice(&emission.to_be_bytes());
        tweak.extend_from_slice(kind);
        Validator {
            ff1: Ff1::new(key, &tweak, DIGITS as u32),
            commitment: Validator::commit(key),
            generation: generation_tag(&seed.commitment()) * BLOCKS * INDICES,
        }
    }

    /// The code of ticket `index` (0-based) of `block`: FF1 of the 19 digits
    /// `generation · 10^12 + block · 10^9 + index`, a number below 10^19. Panics when
    /// `block` ≥ 1000 or `index` ≥ 10^9 (the spec check bounds both).
    pub fn code(&self, block: u32, index: u32) -> u64 {
        let mut code = [0];
        self.codes(block, index, &mut code);
        code[0]
    }

    /// The codes of tickets `first`, `first + 1`, … (0-based) of `block`, one per element
    /// of `out`: each the [`Validator::code`] of its ticket, computed together (one AES call
    /// per FF1 round for up to 256 tickets, which the AES units pipeline). Panics when
    /// `block` ≥ 1000 or an index reaches 10^9.
    pub fn codes(&self, block: u32, first: u32, out: &mut [u64]) {
        let end = u64::from(first) + out.len() as u64;
        assert!(
            u64::from(block) < BLOCKS && end <= INDICES,
            "block {block}, ticket index {}: past the code's digits",
            end.saturating_sub(1).max(u64::from(first))
        );
        let base = self.generation + u64::from(block) * INDICES + u64::from(first);
        for (k, x) in out.iter_mut().enumerate() {
            *x = base + k as u64;
        }
        self.ff1.encrypt_all(out);
    }

    /// Hex SHA-256 of `"tirage/v1/validation-key-commitment" ‖ 0x00 ‖ key`: identifies the
    /// key in the manifest without revealing it.
    pub fn commitment(&self) -> &str {
        &self.commitment
    }
}

/// Numbers FF1 encrypts together, one AES call per round for all of them (a pack of
/// tickets in one go, so that the AES keys are loaded once per round, not per 64).
const LANES: usize = 256;

/// The widest batch the `aes` crate's backends encrypt in parallel (64 blocks with
/// VAES-512, 8 with AES-NI): every round encrypts a whole number of them.
const BATCH: usize = 64;

/// FF1 (NIST SP 800-38G, Algorithm 7) for radix 10 and 6 ≤ `n` ≤ 19 digits, with AES-256, one
/// key and one tweak, on numbers below 10^n (the numeral string read most significant digit
/// first). Radix 10 lets every numeral string of a half, and every round's sum, fit in a
/// `u64`, reduced by multiplications ([`Modulus`]); the PRF's state after the fixed block
/// P and the tweak's whole blocks is computed once, so a round costs one AES block, and up
/// to [`LANES`] numbers share each AES call. The tests hold it to NIST's sample vectors
/// and, on thousands of inputs one at a time and in batches, to the `fpe` crate's FF1.
struct Ff1 {
    aes: Aes256Enc,
    /// For each round i: the last block of Q (`T ‖ 0^pad` past its whole blocks, then i,
    /// then NUM(B) = 0), XORed with the CBC-MAC state after P and Q's whole blocks, read
    /// big-endian. Round i's AES input is `rounds[i] ^ B`: NUM(B) ends the block.
    rounds: [u128; 10],
    /// v = n − ⌊n/2⌋: the digits of B.
    v: u32,
    /// 128 − 8d, d the bytes of the PRF output taken as y (8 or 12 for n ≤ 19): R read
    /// big-endian and shifted right by this many bits is y.
    shift: u32,
    /// m = 10^u and m = 10^v, the moduli of the even and the odd rounds.
    moduli: [Modulus; 2],
}

/// The key schedule wipes itself (the `aes` crate's `zeroize` feature); the rounds' blocks,
/// which hold the CBC-MAC state computed under the key, are wiped here.
impl Drop for Ff1 {
    fn drop(&mut self) {
        self.rounds.zeroize();
    }
}

impl Ff1 {
    fn new(key: &[u8; 32], tweak: &[u8], n: u32) -> Ff1 {
        // NIST SP 800-38G Rev. 1: radix^n ≥ 1 000 000, so n ≥ 6 for radix 10.
        assert!(
            (6..=19).contains(&n),
            "FF1 here takes 6 to 19 decimal digits"
        );
        let aes = Aes256Enc::new(&Array::from(*key));
        let (u, v) = (n / 2, n - n / 2);
        // b = ⌈⌈v·log2(10)⌉ / 8⌉; ⌈v·log2(10)⌉ is the bit length of 10^v − 1.
        let bits = 64 - (10u64.pow(v) - 1).leading_zeros();
        let b = bits.div_ceil(8) as usize;
        let d = 4 * b.div_ceil(4) + 4;
        assert!(d == 8 || d == 12);
        let t = tweak.len();
        // P = [1]¹ [2]¹ [1]¹ [radix]³ [10]¹ [u mod 256]¹ [n]⁴ [t]⁴.
        let mut p = [0u8; 16];
        p[..3].copy_from_slice(&[1, 2, 1]);
        p[3..6].copy_from_slice(&10u32.to_be_bytes()[1..]);
        p[6] = 10;
        p[7] = (u % 256) as u8;
        p[8..12].copy_from_slice(&n.to_be_bytes());
        p[12..16].copy_from_slice(&(t as u32).to_be_bytes());
        let pad = (16 - (t + b + 1) % 16) % 16;
        let mut fixed = tweak.to_vec();
        fixed.resize(t + pad, 0);
        // Q = T ‖ 0^pad ‖ [i]¹ ‖ [NUM(B)]^b: its last block holds the rest of T ‖ 0^pad,
        // i and NUM(B).
        let whole = fixed.len() + 1 + b - 16;
        let cipher = |block: [u8; 16]| {
            let mut b = Array::from(block);
            aes.encrypt_block(&mut b);
            <[u8; 16]>::from(b)
        };
        let mut state = cipher(p);
        for chunk in fixed[..whole].chunks(16) {
            for (a, c) in state.iter_mut().zip(chunk) {
                *a ^= c;
            }
            state = cipher(state);
        }
        let mut rounds = [0u128; 10];
        for (i, round) in rounds.iter_mut().enumerate() {
            let mut last = [0u8; 16];
            last[..fixed.len() - whole].copy_from_slice(&fixed[whole..]);
            last[fixed.len() - whole] = i as u8;
            *round = u128::from_be_bytes(last) ^ u128::from_be_bytes(state);
        }
        state.zeroize();
        Ff1 {
            aes,
            rounds,
            v,
            shift: 128 - 8 * d as u32,
            moduli: [Modulus::new(10u64.pow(u)), Modulus::new(10u64.pow(v))],
        }
    }

    /// FF1 of the `n`-digit numeral string of `x` (below 10^n), as a number.
    #[cfg(test)]
    fn encrypt(&self, x: u64) -> u64 {
        let mut x = [x];
        self.encrypt_all(&mut x);
        x[0]
    }

    /// FF1 of every number of `xs` (each below 10^n), in place: [`LANES`] of them at a
    /// time, each round one AES call over all of them.
    fn encrypt_all(&self, xs: &mut [u64]) {
        for lanes in xs.chunks_mut(LANES) {
            self.encrypt_lanes(lanes);
        }
    }

    /// FF1 of up to [`LANES`] numbers at once. Every round encrypts whole batches of
    /// [`BATCH`] blocks (those past the last number hold leftovers, never read), so that
    /// the `aes` crate takes its widest parallel path whatever the count; each number's
    /// next block is written as its round ends.
    fn encrypt_lanes(&self, xs: &mut [u64]) {
        debug_assert!(!xs.is_empty() && xs.len() <= LANES);
        let pv = 10u64.pow(self.v);
        let (mut a, mut b) = ([0u64; LANES], [0u64; LANES]);
        let mut blocks = [Array::<u8, U16>::default(); LANES];
        for (((x, a), b), block) in xs.iter().zip(&mut a).zip(&mut b).zip(&mut blocks) {
            (*a, *b) = (x / pv, x % pv);
            *block = Array::from((self.rounds[0] ^ u128::from(*b)).to_be_bytes());
        }
        let count = xs.len();
        for i in 0..10 {
            self.aes
                .encrypt_blocks(&mut blocks[..count.next_multiple_of(BATCH)]);
            // c = (NUM(A) + y) mod m, m = 10^u on even rounds, 10^v on odd ones.
            let m = self.moduli[i % 2];
            for ((block, a), b) in blocks[..count].iter_mut().zip(&mut a).zip(&mut b) {
                // y = NUM(S), S the first d bytes of R: high · 2^64 + low.
                let y = u128::from_be_bytes((*block).into()) >> self.shift;
                let (high, low) = ((y >> 64) as u64, y as u64);
                // y ≡ high · (2^64 mod m) + low (mod m); the sum fits in 64 bits (Modulus::new).
                let c = m.reduce(high * m.wrap + *a + m.reduce(low));
                (*a, *b) = (*b, c);
                if i < 9 {
                    *block = Array::from((self.rounds[i + 1] ^ u128::from(c)).to_be_bytes());
                }
            }
        }
        // After ten rounds A holds u digits and B holds v digits again.
        for ((x, a), b) in xs.iter_mut().zip(&a).zip(&b) {
            *x = a * pv + b;
        }
    }
}

/// A modulus of FF1's rounds, m = 10^u or 10^v, with what reduces a 64-bit number
/// modulo m by two multiplications and no division.
#[derive(Clone, Copy)]
struct Modulus {
    /// m itself.
    m: u64,
    /// ⌊(2^64 − 1) / m⌋, so that 2^64 − m ≤ m · inverse < 2^64.
    inverse: u64,
    /// 2^64 mod m.
    wrap: u64,
}

impl Modulus {
    /// The modulus `m`. Panics unless the sum of a round, high · (2^64 mod m) + a + r with
    /// high < 2^32 and a, r < m, fits in 64 bits (it does for 10^k, k ≤ 10).
    fn new(m: u64) -> Modulus {
        let wrap = ((1u128 << 64) % u128::from(m)) as u64;
        let largest = u64::from(u32::MAX)
            .checked_mul(wrap)
            .and_then(|x| x.checked_add(2 * (m - 1)));
        assert!(
            largest.is_some(),
            "a round's sum modulo {m} fits in 64 bits"
        );
        Modulus {
            m,
            inverse: u64::MAX / m,
            wrap,
        }
    }

    /// `x` mod m. The estimate q = ⌊x · inverse / 2^64⌋ is ⌊x / m⌋ or one less (x · inverse /
    /// 2^64 ≥ x/m − x/2^64 > x/m − 1), so x − q · m < 2m takes at most one subtraction of m.
    #[inline(always)]
    fn reduce(self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.inverse)) >> 64) as u64;
        let r = x - q * self.m;
        if r >= self.m {
            r - self.m
        } else {
            r
        }
    }
}

/// A code as printed: 19 digits, zero-padded (the last 19 digits of a larger number).
pub fn format(code: u64) -> [u8; DIGITS] {
    let (head, middle, tail) = digits(code);
    let mut out = [0u8; DIGITS];
    out[..3].copy_from_slice(&head.to_le_bytes()[..3]);
    out[3..11].copy_from_slice(&middle.to_le_bytes());
    out[11..].copy_from_slice(&tail.to_le_bytes());
    out
}

/// The 19 digits of [`format()`] as the little-endian bytes of three words: the first 3
/// digits (in the low 3 bytes of the first), the next 8, the last 8. Nothing goes through
/// memory, so a caller can place them in a block of its own with whole-word stores.
pub fn digits(code: u64) -> (u32, u64, u64) {
    let code = code % 10_000_000_000_000_000_000;
    let low = code % 10_000_000_000_000_000;
    let head = ascii8((code / 10_000_000_000_000_000) as u32) >> 40;
    let middle = ascii8((low / 100_000_000) as u32);
    let tail = ascii8((low % 100_000_000) as u32);
    (head as u32, middle, tail)
}

/// The 8 decimal digits of `n` (below 10^8), zero-padded, as the little-endian bytes of a
/// word: each step halves the numbers of every lane of the word at once (4 digits in each
/// half, 2 in each quarter, 1 in each byte), dividing by multiplying (`x / 100` is
/// `x · 5243 >> 19` for `x` < 10^4, `x / 10` is `x · 103 >> 10` for `x` < 100).
fn ascii8(n: u32) -> u64 {
    let v = u64::from(n / 10_000) | (u64::from(n % 10_000) << 32);
    let hundreds = ((v * 5243) >> 19) & 0x0000_007f_0000_007f;
    let v = hundreds | ((v - hundreds * 100) << 16);
    let tens = ((v * 103) >> 10) & 0x000f_000f_000f_000f;
    let v = tens | ((v - tens * 10) << 8);
    v | 0x3030_3030_3030_3030
}

#[cfg(test)]
mod tests {
    use super::*;
    use aes::Aes256;
    use std::collections::HashSet;

    const NIST_KEY: &str = "2b7e151628aed2a6abf7158809cf4f3cef4359d8d580aa4f7f036d6f04fc6a94";

    fn nist_key() -> [u8; 32] {
        hex::decode(NIST_KEY).unwrap().try_into().unwrap()
    }

    #[test]
    fn ff1_aes256_nist_sample_vectors() {
        // NIST SP 800-38G, FF1 samples #7 and #8 (AES-256, radix 10, 10 digits).
        let ff1 = Ff1::new(&nist_key(), &[], 10);
        assert_eq!(ff1.encrypt(123_456_789), 6_657_667_009);
        let ff1 = Ff1::new(
            &nist_key(),
            &[0x39, 0x38, 0x37, 0x36, 0x35, 0x34, 0x33, 0x32, 0x31, 0x30],
            10,
        );
        assert_eq!(ff1.encrypt(123_456_789), 1_001_623_463);
    }

    /// The same permutation as the `fpe` crate's FF1 (RustCrypto's AES), on 19 digits with
    /// tweaks of several lengths (each pads Q differently) and on every length 6..=19 (FF1 needs 10^n ≥ 10^6).
    #[test]
    fn ff1_agrees_with_the_fpe_crate() {
        use fpe::ff1::{FlexibleNumeralString, FF1};
        let key = nist_key();
        let theirs = FF1::<Aes256>::new(&key, 10).unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for (k, tweak) in [
            &b""[..],
            b"t",
            b"tirage/v1/validation\0\x07\xe1\0\x01production",
            &[7; 40],
        ]
        .iter()
        .enumerate()
        {
            for n in 6..=19u32 {
                let ours = Ff1::new(&key, tweak, n);
                for _ in 0..if n == 19 { 400 } else { 20 } {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407 + k as u64);
                    let v = x % 10u64.pow(n);
                    let digits: Vec<u16> = format!("{v:0width$}", width = n as usize)
                        .bytes()
                        .map(|c| u16::from(c - b'0'))
                        .collect();
                    let out: Vec<u16> = theirs
                        .encrypt(tweak, &FlexibleNumeralString::from(digits))
                        .unwrap()
                        .into();
                    let want = out.iter().fold(0u64, |a, &d| a * 10 + u64::from(d));
                    assert_eq!(ours.encrypt(v), want, "n {n}, tweak {tweak:?}, x {v}");
                }
            }
        }
    }

    /// FF1 of the `n`-digit `x` by the `fpe` crate.
    fn fpe_ff1(key: &[u8; 32], tweak: &[u8], n: u32, x: u64) -> u64 {
        use fpe::ff1::{FlexibleNumeralString, FF1};
        let digits: Vec<u16> = format!("{x:0width$}", width = n as usize)
            .bytes()
            .map(|c| u16::from(c - b'0'))
            .collect();
        let out: Vec<u16> = FF1::<Aes256>::new(key, 10)
            .unwrap()
            .encrypt(tweak, &FlexibleNumeralString::from(digits))
            .unwrap()
            .into();
        out.iter().fold(0u64, |a, &d| a * 10 + u64::from(d))
    }

    /// Batches of every length around the lane count (a partial batch, a whole one, one
    /// more, several and a tail), on 19 digits and on short ones: each number is what the
    /// `fpe` crate's FF1 makes of it, wherever it stands in its batch.
    #[test]
    fn ff1_in_batches_agrees_with_the_fpe_crate() {
        let key = nist_key();
        let tweak = b"tirage/v1/validation\0\x07\xe1\0\x01production";
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for n in [19u32, 10, 7] {
            let ff1 = Ff1::new(&key, tweak, n);
            for len in [1usize, 7, 63, 64, 65, 150, 300] {
                let input: Vec<u64> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x % 10u64.pow(n)
                    })
                    .collect();
                let mut ours = input.clone();
                ff1.encrypt_all(&mut ours);
                for (k, (&v, &got)) in input.iter().zip(&ours).enumerate() {
                    assert_eq!(got, fpe_ff1(&key, tweak, n, v), "n {n}, batch {len}, #{k}");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Any key, tweak, length and batch: each number is what the `fpe` crate's FF1 makes
        /// of it.
        #[test]
        fn ff1_of_random_keys_and_batches_agrees_with_the_fpe_crate(
            key in proptest::prelude::any::<[u8; 32]>(),
            tweak in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..48),
            n in 6u32..=19,
            xs in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..300),
        ) {
            let ff1 = Ff1::new(&key, &tweak, n);
            let input: Vec<u64> = xs.iter().map(|x| x % 10u64.pow(n)).collect();
            let mut ours = input.clone();
            ff1.encrypt_all(&mut ours);
            for (k, (&v, &got)) in input.iter().zip(&ours).enumerate() {
                proptest::prop_assert_eq!(got, fpe_ff1(&key, &tweak, n, v), "#{}", k);
            }
        }
    }

    /// A round's reduction is the remainder of a division, at the edges (0, m − 1, m,
    /// 2m − 1, multiples of m, 2^64 − 1) and on numbers spread over 64 bits, for every 10^k
    /// FF1 here uses as a modulus (k from 3 to 10).
    #[test]
    fn modulus_reduces_as_a_division_does() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for k in 3..=10 {
            let m = 10u64.pow(k);
            let modulus = Modulus::new(m);
            assert_eq!(modulus.wrap, ((1u128 << 64) % u128::from(m)) as u64);
            let edges = [0, 1, m - 1, m, m + 1, 2 * m - 1, 2 * m, u64::MAX / m * m];
            let edges = edges
                .into_iter()
                .chain([u64::MAX / m * m - 1, u64::MAX - 1, u64::MAX]);
            for y in edges {
                assert_eq!(modulus.reduce(y), y % m, "{y} mod {m}");
            }
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(modulus.reduce(x), x % m, "{x} mod {m}");
            }
        }
    }

    /// The codes of a pack computed together are the codes of its tickets one by one, and
    /// one of them is pinned (FF1 of its place by the `fpe` crate).
    #[test]
    fn codes_of_a_run_of_tickets_are_each_ticket_s_code() {
        let v = Validator::production(&ValidationKey([3; 32]), 2017, 1, &Seed([3; 32]));
        let mut run = vec![0u64; 150];
        v.codes(7, 149_850, &mut run);
        for (k, &c) in run.iter().enumerate() {
            assert_eq!(
                c,
                v.code(7, 149_850 + k as u32),
                "ticket index {}",
                149_850 + k
            );
        }
        let tweak = b"tirage/v1/validation\0\x07\xe1\0\x01production";
        let place = 2_750_161 * 1_000_000_000_000 + 7 * 1_000_000_000 + 149_999;
        assert_eq!(run[149], fpe_ff1(&[3; 32], tweak, 19, place));
    }

    #[test]
    #[should_panic(expected = "past the code's digits")]
    fn a_run_past_the_digits_is_refused() {
        let v = Validator::production(&ValidationKey([3; 32]), 2017, 1, &Seed([3; 32]));
        v.codes(1, 999_999_999, &mut [0; 2]);
    }

    #[test]
    fn codes_are_unique_across_blocks_and_differ_between_keys_games_and_kinds() {
        let key = ValidationKey([3; 32]);
        let seed = Seed([3; 32]);
        let v = Validator::production(&key, 2017, 1, &seed);
        let mut seen = HashSet::new();
        for block in 1..=3 {
            for i in 0..5_000 {
                let c = v.code(block, i);
                assert!(c < DOMAIN);
                assert!(seen.insert(c));
            }
        }
        assert_ne!(
            v.code(1, 0),
            Validator::specimen(&seed, 2017, 1, &"ab".repeat(32)).code(1, 0)
        );
        assert_ne!(
            v.code(1, 0),
            Validator::production(&key, 2018, 1, &seed).code(1, 0)
        );
        assert_ne!(
            v.code(1, 0),
            Validator::production(&key, 2017, 2, &seed).code(1, 0)
        );
        assert_ne!(
            v.code(1, 0),
            Validator::production(&ValidationKey([4; 32]), 2017, 1, &seed).code(1, 0)
        );
        assert_ne!(
            v.commitment(),
            Validator::production(&ValidationKey([4; 32]), 2017, 1, &seed).commitment()
        );
        assert_eq!(v.commitment(), Validator::key_commitment(&key));
        assert_eq!(
            v.code(2, 7),
            Validator::production(&key, 2017, 1, &seed).code(2, 7)
        );
    }

    /// A block generated again under the same validation key from another seed: none of
    /// the new codes is a code of the earlier generation, for any serial (so the earlier
    /// `validation.csv` pays no ticket of the new one), and the codes of every block of
    /// both generations are still distinct from one another.
    #[test]
    fn a_new_generation_of_a_block_shares_no_code_with_the_earlier_one() {
        let key = ValidationKey([3; 32]);
        let (old, new) = (Seed([3; 32]), Seed([5; 32]));
        assert_ne!(
            generation_tag(&old.commitment()),
            generation_tag(&new.commitment())
        );
        let a = Validator::production(&key, 2017, 1, &old);
        let b = Validator::production(&key, 2017, 1, &new);
        let mut seen = HashSet::new();
        for v in [&a, &b] {
            for block in [1, 2] {
                for i in 0..20_000 {
                    assert!(seen.insert(v.code(block, i)), "block {block}, ticket {i}");
                }
            }
        }
        assert_eq!(seen.len(), 80_000);
    }

    #[test]
    fn generation_tag_known_values() {
        // Python: c = sha256(b"tirage/v1/seed-commitment\0" + bytes([3]*32)).digest();
        // int.from_bytes(sha256(b"tirage/v1/code-generation\0" + c).digest()[:8], "big") % 10**7
        assert_eq!(generation_tag(&Seed([3; 32]).commitment()), 2_750_161);
        assert_eq!(generation_tag(&Seed([5; 32]).commitment()), 8_920_318);
    }

    #[test]
    #[should_panic(expected = "past the code's digits")]
    fn a_place_past_the_digits_is_refused() {
        Validator::production(&ValidationKey([3; 32]), 2017, 1, &Seed([3; 32])).code(1000, 0);
    }

    #[test]
    fn value_stability() {
        // Pins the code of a fixed key, seed and place: it changes only with the
        // construction. It is FF1 (the `fpe` crate's) of 2750161 000 000000000 (generation
        // tag of seed [3; 32], block 1, ticket 0) under the documented tweak.
        use fpe::ff1::{FlexibleNumeralString, FF1};
        let v = Validator::production(&ValidationKey([3; 32]), 2017, 1, &Seed([3; 32]));
        let input = 2_750_161 * 1_000_000_000_000 + 1_000_000_000;
        let digits: Vec<u16> = format(input).iter().map(|c| u16::from(c - b'0')).collect();
        let tweak = b"tirage/v1/validation\0\x07\xe1\0\x01production";
        let theirs: Vec<u16> = FF1::<Aes256>::new(&[3; 32], 10)
            .unwrap()
            .encrypt(tweak, &FlexibleNumeralString::from(digits))
            .unwrap()
            .into();
        let want = theirs.iter().fold(0u64, |a, &d| a * 10 + u64::from(d));
        assert_eq!(v.code(1, 0), want);
        assert_eq!(format(v.code(1, 0)), *b"4149281475309659622");
    }

    #[test]
    fn format_pads_to_19_digits() {
        assert_eq!(&format(42), b"0000000000000000042");
        assert_eq!(&format(DOMAIN - 1), b"9999999999999999999");
        assert_eq!(&format(0), b"0000000000000000000");
        assert_eq!(&format(1_234_567_890), b"0000000001234567890");
        assert_eq!(&format(u64::MAX), b"8446744073709551615");
        assert_eq!(&format(DOMAIN), b"0000000000000000000");
        // Every digit in every place, next to the text of the standard library.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for k in 0..10_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let code = x >> (k % 64);
            let text = format!("{:019}", code % DOMAIN);
            assert_eq!(&format(code)[..], text.as_bytes(), "{code}");
        }
    }
}
