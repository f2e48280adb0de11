//! tirage: print runs of instant lottery tickets.
//!
//! The library is a pure, deterministic engine: spec + seed + block number in, tickets and
//! digests out: [`spec`] → [`alloc`] → [`styles`] (faces) → [`output`] (files), driven by
//! [`generate`]; [`verify`] re-checks a block independently and [`audit`] reports on it.
//! What they all say of a block (its kind, the judge of a face, its files' names) is in
//! [`block`]; [`crypto`] holds the seeds, codes and signatures, [`store`] the locks and
//! flushed writes, [`proof`] the proofs people look at, [`derived`] the reports and proofs
//! beside an output, which go when it is replaced. Modules depend on each other one way
//! (`docs/CONTRIBUTING.md`). The README's "Layout" section maps every module;
//! `docs/FORMAT.md` documents every file.

pub mod alloc;
pub mod audit;
pub mod block;
pub mod claim;
pub mod crypto;
pub mod derived;
pub mod generate;
pub mod language;
pub mod lots;
pub mod money;
pub mod output;
pub mod package;
pub mod proof;
pub mod spec;
pub mod store;
pub mod styles;
pub mod text;
pub mod verify;
