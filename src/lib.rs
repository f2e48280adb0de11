//! tirage: print runs of instant lottery tickets.
//!
//! The library is a pure, deterministic engine: spec + seed + block number in, tickets and
//! digests out: [`spec`] → [`alloc`] → [`games`] (faces) → [`output`] (files), driven by
//! [`generate`]; [`verify`] re-checks a block independently and [`audit`] reports on it.
//! What they all say of a block (its kind, the judge of a face, its files' names) is in
//! [`block`]; cancellation is passed in ([`cancel`]). Modules depend on each other one way
//! (`docs/CONTRIBUTING.md`). The README's "Layout" section maps every module;
//! `docs/FORMAT.md` documents every file.

pub mod alloc;
pub mod audit;
pub mod block;
pub mod cancel;
pub mod ceremony;
pub mod deck;
pub mod draw;
pub mod durable;
pub mod emission;
pub mod games;
pub mod generate;
pub mod identity;
pub mod lock;
pub mod lots;
pub mod money;
pub mod output;
pub mod packcaps;
pub mod packlaw;
pub mod place;
pub mod regular;
pub mod render;
pub mod rng;
pub mod seal;
pub mod serial;
pub mod sheet;
pub mod sign;
pub mod spec;
pub mod spec_error;
pub mod stats;
pub mod validation;
pub mod verify;
