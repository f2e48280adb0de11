//! tirage: print runs of instant lottery tickets.
//!
//! The library is a pure, deterministic engine: spec + seed + block number in, tickets and
//! digests out. See `ARCHITECTURE` in the README for the data flow.

pub mod alloc;
pub mod games;
pub mod money;
pub mod rng;
pub mod spec;
pub mod generate;
pub mod output;
pub mod serial;
pub mod verify;
