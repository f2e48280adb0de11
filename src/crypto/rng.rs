//! Seeds, key derivation and the ChaCha20 streams every random choice is drawn from.
//!
//! A block is a pure function of (spec, master seed, block number). The master seed is
//! 256 bits; from it, [`derive_key`] makes one independent 256-bit key per purpose with a
//! labelled SHA-256 (`"tirage/v1/" ‖ label ‖ 0x00 ‖ seed ‖ block (u32 LE) ‖ index (u64 LE)`),
//! and each key seeds a ChaCha20 stream (`rand_chacha` 0.3.1, pinned exactly). The
//! allocation uses one stream per block; faces use one stream per pack, so packs can be
//! built in any order on any number of threads and still give the same bytes.
//!
//! Bounded integers are drawn by rejection ([`below`]), never by a bare modulo, so every
//! value is exactly equally likely.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};
use std::fmt;
use zeroize::Zeroize;

/// The 256-bit master seed of a block or emission. Its `Debug` form never shows the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed(pub [u8; 32]);

/// Why a text is not a seed.
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    /// Not exactly 64 hexadecimal digits.
    #[error("a seed is 64 hexadecimal digits (256 bits); got {0} characters")]
    Length(usize),
    /// A character that is not a hexadecimal digit, at this line and column (1-based) of
    /// the text: the character itself is never shown (it may be part of a secret).
    #[error("a seed is 64 hexadecimal digits; the character at line {line}, column {column} is not one (not shown: the text may hold a secret)")]
    Digit {
        /// Line of the text, 1-based.
        line: usize,
        /// Column (character) in that line, 1-based.
        column: usize,
    },
    /// The operating system's random source failed.
    #[error("the operating system's random source failed: {0}")]
    Os(String),
}

impl Seed {
    /// A fresh seed from the operating system's CSPRNG (`getrandom`).
    pub fn from_os() -> Result<Seed, SeedError> {
        let mut b = [0u8; 32];
        getrandom::getrandom(&mut b).map_err(|e| SeedError::Os(e.to_string()))?;
        Ok(Seed(b))
    }

    /// Parses 64 hex digits (surrounding white space ignored).
    pub fn from_hex(text: &str) -> Result<Seed, SeedError> {
        let s = text.trim();
        if let Some(at) = s.find(|c: char| !c.is_ascii_hexdigit()) {
            let at = at + (text.len() - text.trim_start().len());
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            return Err(SeedError::Digit { line, column });
        }
        if s.len() != 64 {
            return Err(SeedError::Length(s.chars().count()));
        }
        let mut b = [0u8; 32];
        hex::decode_to_slice(s, &mut b).map_err(|_| SeedError::Length(s.len()))?;
        Ok(Seed(b))
    }

    /// The 64 hex digits (for the seed file only; never for a deliverable).
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The public commitment to this seed: hex SHA-256 of `"tirage/v1/seed-commitment" ‖ 0x00 ‖ seed`.
    /// It is written to the manifest; it identifies the seed without revealing it.
    pub fn commitment(&self) -> String {
        let mut h = Sha256::new();
        h.update(b"tirage/v1/seed-commitment\0");
        h.update(self.0);
        hex::encode(h.finalize())
    }
}

/// One party's share of a multi-party master seed: 256 bits, written as 64 hex digits.
///
/// Several parties each bring a share; the master seed is [`Seed::from_shares`] of them, in
/// order, so no party alone can choose or predict it as long as one share is secret and
/// random. Shares never reach a deliverable: the manifest records only each share's
/// commitment (`crate::crypto::ceremony`). Its `Debug` form never shows the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct SeedShare(pub [u8; 32]);

impl SeedShare {
    /// Parses 64 hex digits (surrounding white space ignored); same rules as [`Seed::from_hex`].
    pub fn from_hex(s: &str) -> Result<SeedShare, SeedError> {
        Seed::from_hex(s).map(|k| SeedShare(k.0))
    }
}

impl fmt::Debug for SeedShare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeedShare(<secret>)")
    }
}

impl Seed {
    /// The master seed made of `shares`, in the given order:
    /// SHA-256(`"tirage/v1/seed-shares"` ‖ 0x00 ‖ share₁ ‖ … ‖ shareₙ), each share its 32
    /// raw bytes. Order matters (the same shares in another order give another seed). An
    /// empty list is allowed by the formula but the CLI requires at least two distinct shares.
    pub fn from_shares(shares: &[SeedShare]) -> Seed {
        let mut h = Sha256::new();
        h.update(b"tirage/v1/seed-shares\0");
        for s in shares {
            h.update(s.0);
        }
        Seed(h.finalize().into())
    }

    /// The master seed made of `shares` and of the public `beacon` fixed after every
    /// commitment was published: SHA-256(`"tirage/v1/seed-beacon"` ‖ 0x00 ‖
    /// [`Seed::from_shares`]`(shares)` ‖ beacon bytes). No beacon: [`Seed::from_shares`].
    pub fn from_shares_and_beacon(shares: &[SeedShare], beacon: Option<&Beacon>) -> Seed {
        let combined = Seed::from_shares(shares);
        let Some(b) = beacon else {
            return combined;
        };
        let mut h = Sha256::new();
        h.update(b"tirage/v1/seed-beacon\0");
        h.update(combined.0);
        h.update(&b.0);
        Seed(h.finalize().into())
    }
}

/// A public value fixed after every commitment of a seed ceremony was published (a draw
/// result, a public randomness beacon's output): 16 to 64 bytes, written as 32 to 128 hex
/// digits. Mixed into the seed ([`Seed::from_shares_and_beacon`]), it is unknown to every
/// party when it commits, so that no party, nor all but one together, can aim an outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beacon(pub Vec<u8>);

impl Beacon {
    /// Parses 32 to 128 hex digits, an even number (surrounding white space ignored).
    /// Errors: in words.
    pub fn from_hex(s: &str) -> Result<Beacon, String> {
        let s = s.trim();
        let hexes = s.bytes().all(|b| b.is_ascii_hexdigit());
        if !hexes || s.len() % 2 == 1 || !(32..=128).contains(&s.len()) {
            return Err(format!(
                "a beacon is 32 to 128 hex digits (16 to 64 bytes), an even number; got {} characters{}",
                s.chars().count(),
                if hexes { "" } else { ", not all hex digits" }
            ));
        }
        hex::decode(s).map(Beacon).map_err(|e| e.to_string())
    }

    /// The hex digits, lower case (as the manifest records them).
    pub fn to_hex(&self) -> String {
        hex::encode(&self.0)
    }
}

impl Seed {
    /// The seed every key of one game's emission is derived from: SHA-256(
    /// `"tirage/v1/context"` ‖ 0x00 ‖ seed ‖ game code (u16 LE) ‖ emission (u16 LE) ‖ the
    /// spec's SHA-256 (32 bytes)). Binding these means one master seed reused for another
    /// game, emission or lot table gives unrelated positions and faces. `spec_sha256` is
    /// the 64 hex digits of the spec file's digest (panics otherwise: a caller bug).
    pub fn bound_to(&self, game_code: u16, emission: u16, spec_sha256: &str) -> Seed {
        let mut spec = [0u8; 32];
        hex::decode_to_slice(spec_sha256, &mut spec).expect("a spec digest is 64 hex digits");
        let mut h = Sha256::new();
        h.update(b"tirage/v1/context\0");
        h.update(self.0);
        h.update(game_code.to_le_bytes());
        h.update(emission.to_le_bytes());
        h.update(spec);
        Seed(h.finalize().into())
    }

    /// Why these 256 bits are no secret a production block may rest on, if they are not.
    /// Each rule catches a value with far less than 256 bits of entropy, and 256 random
    /// bits break one by chance with probability below 10⁻¹¹:
    /// - all zero;
    /// - a published test seed ([`TEST_SEEDS`]: the tests', the examples', the acceptance
    ///   script's `0011…eeff` twice);
    /// - a pattern of at most 16 bytes repeated (two equal halves, `abab…`);
    /// - fewer than 16 distinct byte values (all zero, one byte repeated);
    /// - counting or stepping bytes (`000102…1f`): fewer than 16 distinct differences
    ///   between neighbours;
    /// - fewer than 10 of the 16 hex digits used (`0101…`, `deadbeef…`);
    /// - text: every byte printable ASCII (a passphrase typed as hex), at most 6.6 bits a
    ///   byte and far less for words.
    pub fn weakness(&self) -> Option<&'static str> {
        let b = &self.0;
        let distinct = |it: &mut dyn Iterator<Item = u8>| {
            let mut seen = [false; 256];
            it.for_each(|x| seen[usize::from(x)] = true);
            seen.iter().filter(|&&s| s).count()
        };
        if b.iter().all(|&x| x == 0) {
            Some("it is all zero (no secret at all)")
        } else if TEST_SEEDS
            .iter()
            .any(|t| t.as_bytes() == hex::encode(b).as_bytes())
        {
            Some("it is a published test seed (tests, examples, the acceptance script)")
        } else if (1..=16).any(|p| (p..32).all(|i| b[i] == b[i - p])) {
            Some("it repeats a pattern of a few bytes (a test or hand-made value)")
        } else if distinct(&mut b.iter().copied()) < 16 {
            Some("it has fewer than 16 distinct byte values (a pattern, not random bits)")
        } else if distinct(&mut b.windows(2).map(|w| w[1].wrapping_sub(w[0]))) < 16 {
            Some("its bytes count or step (000102…), not random bits")
        } else if distinct(&mut b.iter().flat_map(|&x| [x >> 4, x & 15])) < 10 {
            Some("it uses fewer than 10 of the 16 hex digits (a pattern, not random bits)")
        } else if b.iter().all(|x| (0x20..0x7f).contains(x)) {
            Some("every byte is printable text (a passphrase, not random bits)")
        } else {
            None
        }
    }
}

/// Seeds published for tests and examples (64 hex digits): never a production seed.
/// [`Seed::weakness`] refuses them; `verify` names a block whose seed commitment is one of
/// theirs a test block ([`is_test_seed_commitment`]).
pub const TEST_SEEDS: [&str; 5] = [
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
    "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100",
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    "0000000000000000000000000000000000000000000000000000000000000000",
];

/// True when `commitment` ([`Seed::commitment`]) is that of a seed of [`TEST_SEEDS`].
pub fn is_test_seed_commitment(commitment: &str) -> bool {
    TEST_SEEDS
        .iter()
        .any(|t| Seed::from_hex(t).is_ok_and(|s| s.commitment().eq_ignore_ascii_case(commitment)))
}

impl Drop for Seed {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for SeedShare {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed(<secret>, commitment {})", &self.commitment()[..16])
    }
}

/// What a derived key is for; the label is hashed into the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Positions of the ways in the block (one stream per block).
    Allocation,
    /// Faces of one pack (one stream per pack; `index` = pack number).
    Faces,
    /// The validation-code key of specimen (QA deck) tickets (block 0, index 0).
    SpecimenValidation,
    /// A production validation key derived from the seed, when none of its own is given.
    DerivedValidation,
}

impl Purpose {
    fn label(self) -> &'static [u8] {
        match self {
            Purpose::Allocation => b"allocation",
            Purpose::Faces => b"faces",
            Purpose::SpecimenValidation => b"validation-specimen",
            Purpose::DerivedValidation => b"validation-derived",
        }
    }
}

/// The 256-bit key for `purpose` in `block`, item `index`:
/// SHA-256(`"tirage/v1/"` ‖ label ‖ 0x00 ‖ seed ‖ block as u32 LE ‖ index as u64 LE).
pub fn derive_key(seed: &Seed, purpose: Purpose, block: u32, index: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"tirage/v1/");
    h.update(purpose.label());
    h.update([0u8]);
    h.update(seed.0);
    h.update(block.to_le_bytes());
    h.update(index.to_le_bytes());
    h.finalize().into()
}

/// The ChaCha20 stream for `purpose` in `block`, item `index` (see [`derive_key`]).
pub fn stream(seed: &Seed, purpose: Purpose, block: u32, index: u64) -> Stream {
    let key = zeroize::Zeroizing::new(derive_key(seed, purpose, block, index));
    Stream::from_seed(*key)
}

/// A ChaCha20 stream (`rand_chacha`'s `ChaCha20Rng`, the same draws) whose state — the key
/// derived from the seed, the block counter and the buffered output — is overwritten when
/// it is dropped: no stream of a block outlives its use in memory (a core file, a swapped
/// page). `rand_chacha` 0.3.1 offers no wiping of its own.
pub struct Stream(ChaCha20Rng);

impl Stream {
    /// Overwrites the state with the stream of the all-zero key (buffer empty): what
    /// dropping does.
    fn wipe(&mut self) {
        self.0 = ChaCha20Rng::from_seed([0; 32]);
        // The store is observed, so the compiler keeps it even though nothing reads it.
        std::hint::black_box(&mut self.0);
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl SeedableRng for Stream {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> Stream {
        Stream(ChaCha20Rng::from_seed(seed))
    }
}

impl RngCore for Stream {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    #[inline]
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest)
    }

    #[inline]
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.0.try_fill_bytes(dest)
    }
}

impl rand_core::CryptoRng for Stream {}

/// A uniformly distributed integer in `0..n`, by Lemire's multiply-and-reject method on
/// 32-bit draws: no modulo bias. Panics if `n == 0` (a caller bug, never input).
#[inline]
pub fn below<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((u64::from(accepted(rng, n)) * u64::from(n)) >> 32) as u32
}

/// The 32-bit draw [`below`]`(rng, n)` keeps (the first one Lemire's method does not
/// reject): `u × n / 2³²`, rounded down, is uniform in `0..n`. Panics if `n == 0`.
#[inline(always)]
fn accepted<R: RngCore + ?Sized>(rng: &mut R, n: u32) -> u32 {
    assert!(n > 0, "below(0)");
    let mut u = rng.next_u32();
    if ((u64::from(u) * u64::from(n)) as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while ((u64::from(u) * u64::from(n)) as u32) < threshold {
            u = rng.next_u32();
        }
    }
    u
}

/// Independent uniform digits: `digits[i]` in `0..radices[i]`, every combination equally
/// likely. Consecutive radices whose product fits in a `u32` share one draw: the digits
/// are those of [`below`]`(rng, product)` written in that mixed radix (first radix most
/// significant), read off without a division. A radix of 1 gives the digit 0 and changes
/// no draw (radices that are all 1 draw nothing). Panics if a radix is 0 (a caller bug).
#[inline(always)]
pub fn below_mixed<R: RngCore + ?Sized, const N: usize>(
    rng: &mut R,
    radices: [u32; N],
) -> [u32; N] {
    let n = radices
        .iter()
        .fold(1u64, |n, &r| n.saturating_mul(u64::from(r)));
    let mut digits = [0; N];
    match n {
        // Only radices of 1: every digit is 0, nothing to draw.
        1 => {}
        n if n > u64::from(u32::MAX) => return below_mixed_grouped(rng, radices),
        n => digits_of(accepted(rng, n as u32), &radices, &mut digits),
    }
    digits
}

/// [`below_mixed`] when the product of all radices does not fit in a `u32`.
#[cold]
fn below_mixed_grouped<R: RngCore + ?Sized, const N: usize>(
    rng: &mut R,
    radices: [u32; N],
) -> [u32; N] {
    let mut digits = [0; N];
    let (mut start, mut n) = (0, 1u64);
    for k in 0..=N {
        // The group start..k is drawn once radix k would not fit in it (or at the end).
        if k > start && (k == N || n * u64::from(radices[k]) > u64::from(u32::MAX)) {
            digits_of(
                accepted(rng, n as u32),
                &radices[start..k],
                &mut digits[start..k],
            );
            (start, n) = (k, 1);
        }
        if k < N {
            n *= u64::from(radices[k]);
        }
    }
    digits
}

/// The digits of `⌊u·n / 2³²⌋` in the mixed radix `radices` (their product `n`): each digit
/// is the integer part of the fraction left times its radix, the fraction being the low
/// 32 bits of the product.
#[inline(always)]
fn digits_of(mut u: u32, radices: &[u32], digits: &mut [u32]) {
    for (d, &r) in digits.iter_mut().zip(radices) {
        *d = next_digit(&mut u, r);
    }
}

/// The next digit, in `0..r`, of the fraction `u / 2³²`: the integer part of the fraction
/// times `r`; `u` becomes the fraction left (the low 32 bits of the product).
#[inline(always)]
fn next_digit(u: &mut u32, r: u32) -> u32 {
    let m = u64::from(*u) * u64::from(r);
    *u = m as u32;
    (m >> 32) as u32
}

/// True with probability `p_per_million / 1 000 000` (exact, via [`below`]).
#[inline]
pub fn chance<R: RngCore + ?Sized>(rng: &mut R, p_per_million: u32) -> bool {
    below(rng, 1_000_000) < p_per_million
}

/// An index drawn with probability proportional to `weights[i]`. Panics if every weight is
/// zero (a spec with such weights is rejected at load).
pub fn weighted<R: RngCore + ?Sized>(rng: &mut R, weights: &[u32]) -> usize {
    let total: u32 = weights.iter().sum();
    weight_index(weights, below(rng, total))
}

/// The index `i` whose share of `0..sum(weights)` holds `x`: the first `i` with
/// `x < weights[0] + … + weights[i]`. Panics if `x` is not below the sum (a caller bug).
pub fn weight_index(weights: &[u32], mut x: u32) -> usize {
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return i;
        }
        x -= w;
    }
    panic!("weight_index: draw past the sum of the weights")
}

/// Weights ready to be drawn from a digit (see [`below_mixed`]): divided by their greatest
/// common divisor (the same distribution over a smaller range, so more draws fit in one;
/// [`Weights::new`]) or as given ([`Weights::unreduced`]), and tabulated when that range
/// is small, so that [`Weights::index`] is one lookup.
#[derive(Clone, Debug)]
pub struct Weights {
    weights: Vec<u32>,
    total: u32,
    /// `table[x]` = the index for `x`, when the total is at most [`Weights::TABLE`].
    table: Vec<u8>,
}

impl Weights {
    /// Largest total that gets a lookup table.
    const TABLE: u32 = 4096;

    /// Panics if every weight is zero, there are more than 256, or they sum past
    /// `u32::MAX` (specs are checked before).
    pub fn new(weights: &[u32]) -> Weights {
        fn gcd(a: u32, b: u32) -> u32 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        let g = weights.iter().fold(0, |g, &w| gcd(g, w));
        Weights::tabulated(weights.iter().map(|&w| w / g.max(1)).collect())
    }

    /// The weights as given, not reduced: [`Weights::draw`] then draws exactly as
    /// [`weighted`] of them does. Panics as [`Weights::new`].
    pub fn unreduced(weights: &[u32]) -> Weights {
        Weights::tabulated(weights.to_vec())
    }

    fn tabulated(weights: Vec<u32>) -> Weights {
        assert!(
            weights.iter().any(|&w| w > 0) && weights.len() <= 256,
            "Weights: {weights:?}"
        );
        let total = weights.iter().try_fold(0u32, |t, &w| t.checked_add(w));
        let total = total.expect("weights summing past u32::MAX");
        let mut table = Vec::new();
        if total <= Self::TABLE {
            for (i, &w) in weights.iter().enumerate() {
                table.extend(std::iter::repeat_n(i as u8, w as usize));
            }
        }
        Weights {
            weights,
            total,
            table,
        }
    }

    /// The range to draw from: the sum of the weights (reduced by [`Weights::new`]).
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The index drawn by `x` (below [`Weights::total`]): [`weight_index`] of the weights
    /// (reduced by [`Weights::new`]).
    #[inline]
    pub fn index(&self, x: u32) -> usize {
        match self.table.get(x as usize) {
            Some(&i) => usize::from(i),
            None => weight_index(&self.weights, x),
        }
    }

    /// An index drawn with probability proportional to its weight: [`Weights::index`] of
    /// [`below`]`(rng, total)`. For [`Weights::unreduced`] weights, the same draw and the
    /// same index as [`weighted`] of them.
    #[inline]
    pub fn draw<R: RngCore + ?Sized>(&self, rng: &mut R) -> usize {
        self.index(below(rng, self.total))
    }
}

/// Hands `each`, in order, `count` independent uniform indices: the first in `0..top`,
/// each next one in a range one smaller (`0..top − 1`, …). Consecutive ranges whose product
/// fits in a `u32` share one 32-bit draw, read off as [`below_mixed`] reads its digits:
/// drawing 7 indices below 8, 7, …, 2 takes one draw where [`below`] one by one takes
/// seven. Panics if `count` exceeds `top` (a range would be empty: a caller bug).
#[inline]
pub fn below_falling<R: RngCore + ?Sized>(
    rng: &mut R,
    top: u32,
    count: usize,
    mut each: impl FnMut(u32),
) {
    assert!(
        count <= top as usize,
        "below_falling: {count} indices below {top}"
    );
    let mut r = top;
    let last = top - count as u32;
    while r > last {
        // The group r, r − 1, …, down to (not including) `lo`: the longest whose product
        // fits in a u32.
        let (mut n, mut lo) = (1u64, r);
        while lo > last && n * u64::from(lo) <= u64::from(u32::MAX) {
            n *= u64::from(lo);
            lo -= 1;
        }
        let mut u = accepted(rng, n as u32);
        while r > lo {
            each(next_digit(&mut u, r));
            r -= 1;
        }
    }
}

/// Shuffles `items` in place: Fisher–Yates, every permutation equally likely, the swap
/// at position `i` with one of positions `0..=i` drawn by [`below_falling`] (a slice of up
/// to 12 items takes one 32-bit draw). A slice longer than 64 items is shuffled in runs
/// of 64 swaps, each drawn by [`below`] before its swaps: the swaps' reads of far-apart
/// items (a block's millions of ways) wait for memory together, not one after another.
pub fn shuffle<T, R: RngCore + ?Sized>(rng: &mut R, items: &mut [T]) {
    if items.len() > RUN {
        return shuffle_in_runs(rng, items);
    }
    let mut i = items.len();
    below_falling(rng, i as u32, i.saturating_sub(1), |j| {
        i -= 1;
        items.swap(i, j as usize);
    });
}

/// Swaps of [`shuffle`] whose draws are made together.
const RUN: usize = 64;

/// [`shuffle`] of a long slice: the swaps at `i`, `i − 1`, … in runs of [`RUN`].
fn shuffle_in_runs<T, R: RngCore + ?Sized>(rng: &mut R, items: &mut [T]) {
    let mut js = [0u32; RUN];
    // The swaps left are those at positions 1..top.
    let mut top = items.len();
    while top > 1 {
        let run = (top - 1).min(RUN);
        for (k, j) in js[..run].iter_mut().enumerate() {
            // Position top − 1 − k swaps with one of the top − k positions up to it.
            *j = below(rng, (top - k) as u32);
        }
        for (k, &j) in js[..run].iter().enumerate() {
            items.swap(top - 1 - k, j as usize);
        }
        top -= run;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Seed {
        Seed::from_hex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff").unwrap()
    }

    #[test]
    fn weak_seeds_are_named_and_random_ones_pass() {
        let weak = |h: &str| Seed::from_hex(h).unwrap().weakness();
        for t in TEST_SEEDS {
            assert!(weak(t).is_some(), "{t}");
            assert!(is_test_seed_commitment(
                &Seed::from_hex(t).unwrap().commitment()
            ));
        }
        assert_eq!(
            weak(&"0".repeat(64)),
            Some("it is all zero (no secret at all)")
        );
        let counting: String = (0u8..32).map(|i| format!("{i:02x}")).collect();
        assert_eq!(
            weak(&counting),
            Some("it is a published test seed (tests, examples, the acceptance script)")
        );
        let stepping: String = (0u8..32).map(|i| format!("{:02x}", 7 + i * 3)).collect();
        assert_eq!(
            weak(&stepping),
            Some("its bytes count or step (000102…), not random bits")
        );
        assert_eq!(
            weak(&"0123456789ab".repeat(6)[..64]),
            Some("it repeats a pattern of a few bytes (a test or hand-made value)")
        );
        assert_eq!(
            weak(&hex::encode("correct horse battery staple 42!")),
            Some("every byte is printable text (a passphrase, not random bits)")
        );
        assert_eq!(
            weak("deadbeef0badcafefeedfacedecade0fbeefdeed0ddba0efacadebeadedcafe0"),
            Some("it uses fewer than 10 of the 16 hex digits (a pattern, not random bits)")
        );
        // Fresh seeds from the OS are never called weak.
        for _ in 0..2000 {
            let s = Seed::from_os().unwrap();
            assert_eq!(s.weakness(), None, "{}", s.to_hex());
            assert!(!is_test_seed_commitment(&s.commitment()));
        }
    }

    #[test]
    fn a_bad_digit_is_placed_never_shown() {
        let e = Seed::from_hex("\n\n  01AGE-SECRET-KEY-1QPZRY").unwrap_err();
        assert!(
            matches!(e, SeedError::Digit { line: 3, column: 6 }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "a seed is 64 hexadecimal digits; the character at line 3, column 6 is not one (not shown: the text may hold a secret)"
        );
    }

    #[test]
    fn a_dropped_stream_is_wiped() {
        let mut r = stream(&seed(), Purpose::Faces, 1, 0);
        let _ = r.next_u32();
        r.wipe();
        let mut zero = ChaCha20Rng::from_seed([0; 32]);
        assert_eq!(r.next_u64(), zero.next_u64());
    }

    #[test]
    fn weights_are_reduced_and_tabulated() {
        let w = Weights::new(&[760_000, 120_000, 120_000]);
        assert_eq!(
            (w.total(), w.index(18), w.index(19), w.index(24)),
            (25, 0, 1, 2)
        );
        let w = Weights::new(&[19, 0, 3]);
        assert_eq!(
            (w.total(), w.index(18), w.index(19), w.index(21)),
            (22, 0, 2, 2)
        );
        // Too wide for a table: the same answers by the running sum.
        let w = Weights::new(&[4095, 1, 1]);
        assert!(w.table.is_empty());
        assert_eq!(
            (w.total(), w.index(4094), w.index(4095), w.index(4096)),
            (4097, 0, 1, 2)
        );
        for x in 0..4097 {
            assert_eq!(w.index(x), weight_index(&[4095, 1, 1], x));
        }
    }

    #[test]
    fn unreduced_weights_draw_as_weighted() {
        let s = seed();
        // coq's decoy weights (a table), and weights too wide for one (the running sum).
        for weights in [&[300, 250, 150, 100, 80, 60, 40, 20][..], &[5000, 0, 3, 1]] {
            let w = Weights::unreduced(weights);
            assert_eq!(w.total(), weights.iter().sum::<u32>());
            let (mut a, mut b) = (
                stream(&s, Purpose::Faces, 1, 5),
                stream(&s, Purpose::Faces, 1, 5),
            );
            let mut seen = vec![0u32; weights.len()];
            for _ in 0..5000 {
                let i = w.draw(&mut a);
                assert_eq!(i, weighted(&mut b, weights));
                seen[i] += 1;
            }
            assert_eq!(a.next_u32(), b.next_u32(), "streams still in step");
            let zero: Vec<bool> = weights.iter().map(|&w| w == 0).collect();
            assert_eq!(seen.iter().map(|&n| n == 0).collect::<Vec<_>>(), zero);
        }
    }

    #[test]
    fn mixed_digits_are_those_of_one_draw() {
        let s = seed();
        let radices = [1277, 1020, 5, 4, 3, 2];
        let n: u32 = radices.iter().product();
        let (mut a, mut b) = (
            stream(&s, Purpose::Faces, 1, 3),
            stream(&s, Purpose::Faces, 1, 3),
        );
        for _ in 0..1000 {
            let d = below_mixed(&mut a, radices);
            let mut x = below(&mut b, n);
            for (k, &r) in radices.iter().enumerate().rev() {
                assert_eq!(d[k], x % r, "digit {k}");
                x /= r;
            }
        }
        // 10⁶ · 10⁶ does not fit in a u32: two draws, each a plain `below`; a radix of 1
        // changes nothing.
        let d = below_mixed(&mut a, [1_000_000, 1, 1_000_000, 7]);
        let first = below(&mut b, 1_000_000);
        let mut x = below(&mut b, 7_000_000);
        assert_eq!(d, [first, 0, x / 7, x % 7]);
        // Radices that are all 1 draw nothing.
        assert_eq!(below_mixed(&mut a, [1, 1, 1]), [0, 0, 0]);
        x = below(&mut a, 3);
        assert_eq!(x, below(&mut b, 3), "streams still in step");
    }

    /// Value-stability vector: these draws are part of the reproducibility contract. If this
    /// test fails, every block ever generated would come out different: never "fix" it.
    #[test]
    fn value_stability_vector() {
        let s = seed();
        assert_eq!(
            hex::encode(derive_key(&s, Purpose::Allocation, 1, 0)),
            KEY_ALLOC_1
        );
        let mut r = stream(&s, Purpose::Allocation, 1, 0);
        let first: Vec<u32> = (0..4).map(|_| r.next_u32()).collect();
        assert_eq!(first, FIRST_U32);
        let mut r = stream(&s, Purpose::Faces, 1, 7);
        let draws: Vec<u32> = (0..6).map(|_| below(&mut r, 4_500_000)).collect();
        assert_eq!(draws, FIRST_BELOW);
        assert_eq!(s.commitment(), COMMITMENT);
    }

    // Computed independently of this crate (Python: hashlib for the key and commitment,
    // `cryptography`'s RFC 7539 ChaCha20 with a zero nonce for the stream, and Lemire's
    // rejection written out by hand for the bounded draws).
    const KEY_ALLOC_1: &str = "0f2b85596c89773aadcea0b676259315d8b72ab4afd90b1d904d77e07c3df19b";
    const FIRST_U32: [u32; 4] = [2909474171, 1442585483, 3139455547, 1408416504];
    const FIRST_BELOW: [u32; 6] = [2229074, 1133451, 2641297, 2004267, 2692310, 353508];
    const COMMITMENT: &str = "ece366772a67eb5c33ac762e226c085f330cd2adc4ae956789627a6aede2d8ea";

    #[test]
    fn keys_differ_by_purpose_block_and_index() {
        let s = seed();
        let a = derive_key(&s, Purpose::Allocation, 1, 0);
        assert_ne!(a, derive_key(&s, Purpose::Faces, 1, 0));
        assert_ne!(a, derive_key(&s, Purpose::Allocation, 2, 0));
        assert_ne!(a, derive_key(&s, Purpose::Allocation, 1, 1));
    }

    #[test]
    fn below_is_in_range_and_hits_every_value() {
        let mut r = stream(&seed(), Purpose::Faces, 0, 0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut r, 7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    #[test]
    fn below_rejects_the_biased_band() {
        // A fake source whose first draw falls in the rejected band for n = 3:
        // threshold = 2^32 mod 3 = 1, so a draw with low product bits 0 is redrawn.
        // 0 * 3 = 0: low 32 bits 0 < threshold 1 → rejected; next draw u32::MAX → 2.
        let mut f = Fixed(vec![0, u32::MAX]);
        assert_eq!(below(&mut f, 3), 2);
        assert!(f.0.is_empty());
    }

    /// A long slice shuffled in runs gets the permutation of Fisher–Yates one swap at a
    /// time, from the same stream, and leaves the stream where it does.
    #[test]
    fn shuffle_in_runs_is_fisher_yates() {
        for n in [RUN + 1, RUN + 2, 2 * RUN + 1, 1000, 4096 + 17] {
            let mut ours: Vec<u32> = (0..n as u32).collect();
            let mut want = ours.clone();
            let (mut r, mut s) = (
                stream(&seed(), Purpose::Allocation, 5, n as u64),
                stream(&seed(), Purpose::Allocation, 5, n as u64),
            );
            shuffle(&mut r, &mut ours);
            for i in (1..want.len()).rev() {
                let j = below(&mut s, (i + 1) as u32) as usize;
                want.swap(i, j);
            }
            assert_eq!(ours, want, "{n} items");
            assert_eq!(r.next_u64(), s.next_u64(), "{n} items");
        }
    }

    /// A fake source handing out the given 32-bit draws, in order (and panicking when
    /// asked for one more).
    struct Fixed(Vec<u32>);
    impl RngCore for Fixed {
        fn next_u32(&mut self) -> u32 {
            self.0.remove(0)
        }
        fn next_u64(&mut self) -> u64 {
            unimplemented!()
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unimplemented!()
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), rand_core::Error> {
            unimplemented!()
        }
    }

    /// Indices below falling ranges are the mixed-radix digits of one bounded draw per
    /// group of ranges whose product fits in a `u32`, first range most significant.
    #[test]
    fn falling_indices_are_the_digits_of_one_draw_per_group() {
        let s = seed();
        let (mut a, mut b) = (
            stream(&s, Purpose::Faces, 1, 4),
            stream(&s, Purpose::Faces, 1, 4),
        );
        let falling = |r: &mut Stream, top: u32, count: usize| {
            let mut v = Vec::new();
            below_falling(r, top, count, |j| v.push(j));
            v
        };
        let digits = |mut x: u32, radices: &[u32]| {
            let mut d = vec![0; radices.len()];
            for (k, &r) in radices.iter().enumerate().rev() {
                d[k] = x % r;
                x /= r;
            }
            d
        };
        for _ in 0..1000 {
            // 8 · 7 · … · 2 = 40 320: one draw.
            let r: Vec<u32> = (2..=8).rev().collect();
            assert_eq!(falling(&mut a, 8, 7), digits(below(&mut b, 40_320), &r));
            // 20 · 19 · … · 14 = 390 700 800 fits, times 13 does not: two draws.
            let r: Vec<u32> = (14..=20).rev().collect();
            let mut want = digits(below(&mut b, 390_700_800), &r);
            want.push(below(&mut b, 13));
            assert_eq!(falling(&mut a, 20, 8), want);
            // Down to a range of 1: its index is 0 and changes nothing.
            let mut want = digits(below(&mut b, 6), &[3, 2]);
            want.push(0);
            assert_eq!(falling(&mut a, 3, 3), want);
        }
        // No index, no draw.
        assert!(falling(&mut a, 5, 0).is_empty());
        assert_eq!(a.next_u64(), b.next_u64(), "streams still in step");
    }

    /// A shuffle of a short slice is one draw: the 24 draws that give 0, 1, …, 23 below
    /// 4! give the 24 orders of 4 items, each once, so every order is equally likely.
    #[test]
    fn a_short_shuffle_maps_each_draw_to_its_own_order() {
        let mut orders = Vec::new();
        for k in 0..24u64 {
            // The least u32 whose product by 24 has k as its high half, plus one: its low
            // half is then at least 24, above the rejected band (2³² mod 24 = 16).
            let u = ((k << 32).div_ceil(24) + 1) as u32;
            assert_eq!((u64::from(u) * 24) >> 32, k);
            let mut v = [0u8, 1, 2, 3];
            let mut one = Fixed(vec![u]);
            shuffle(&mut one, &mut v);
            assert!(one.0.is_empty(), "one draw");
            orders.push(v);
        }
        assert_eq!(
            orders[0],
            [1, 2, 3, 0],
            "draw 0: every swap with position 0"
        );
        orders.sort_unstable();
        orders.dedup();
        assert_eq!(orders.len(), 24);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = stream(&seed(), Purpose::Allocation, 3, 0);
        let mut v: Vec<u32> = (0..1000).collect();
        shuffle(&mut r, &mut v);
        let mut w = v.clone();
        w.sort_unstable();
        assert_eq!(w, (0..1000).collect::<Vec<_>>());
        assert_ne!(v, w);
    }

    /// Share combination, computed independently with Python's hashlib:
    /// `sha256(b"tirage/v1/seed-shares\0" + bytes.fromhex(a) + bytes.fromhex(b))`, and with
    /// the beacon `sha256(b"tirage/v1/seed-beacon\0" + seed_ab + bytes([0x42] * 32))`.
    #[test]
    fn seed_from_shares_known_vector() {
        let a = SeedShare::from_hex(SHARE_A).unwrap();
        let b = SeedShare::from_hex(SHARE_B).unwrap();
        assert_eq!(Seed::from_shares(&[a.clone(), b.clone()]).to_hex(), SEED_AB);
        assert_eq!(Seed::from_shares(&[b.clone(), a.clone()]).to_hex(), SEED_BA);
        assert_eq!(Seed::from_shares(std::slice::from_ref(&a)).to_hex(), SEED_A);
        let beacon = Beacon::from_hex(&"42".repeat(32)).unwrap();
        let both = [a.clone(), b.clone()];
        assert_eq!(
            Seed::from_shares_and_beacon(&both, Some(&beacon)).to_hex(),
            SEED_AB_BEACON
        );
        assert_eq!(Seed::from_shares_and_beacon(&both, None).to_hex(), SEED_AB);
        assert!(!format!("{a:?}").contains("0123"));
        assert!(SeedShare::from_hex("12").is_err());
        for bad in ["42", &"4".repeat(33), &"g".repeat(32), &"42".repeat(65)] {
            assert!(Beacon::from_hex(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Beacon::from_hex(&"AB".repeat(16)).unwrap().to_hex(),
            "ab".repeat(16)
        );
    }

    const SHARE_A: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    const SHARE_B: &str = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";
    const SEED_AB: &str = "405595a5c61459393e7df0ad3873e76d31b7fa9e8a1e4c456a034cfb791e9315";
    const SEED_BA: &str = "6d8c89a60debc43546eff97f591fdffc7cd34d24757dac64cac5272ae016f91c";
    const SEED_A: &str = "6cbbd27f8fbb836eb286c7e7f2a685ceb270a73955f1823616609599cac67202";
    const SEED_AB_BEACON: &str = "d01bfc736673cfc4e73c6312e52d8293f41268652af4c2511c5642da306af15e";

    #[test]
    fn seed_parsing() {
        assert!(Seed::from_hex("00").is_err());
        assert!(Seed::from_hex(&"g".repeat(64)).is_err());
        assert_eq!(
            seed().to_hex(),
            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
        );
        assert!(!format!("{:?}", seed()).contains("00112233"));
    }
}
