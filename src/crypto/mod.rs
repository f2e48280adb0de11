//! The cryptography of a block, each part over a well-kept crate: the seeds and the ChaCha20
//! streams every random choice is drawn from ([`rng`]), the seed ceremony's commitments
//! ([`ceremony`]), the validation codes under the scratch-off box ([`validation`], FF1) and
//! the minisign signature over `SHA256SUMS` ([`sign`]).

pub mod ceremony;
pub mod rng;
pub mod sign;
pub mod validation;
