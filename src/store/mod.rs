//! The disk under every output: exclusive locks beside each output ([`lock`]), writes flushed
//! to the disk before a rename ([`durable`]), big files written past the page cache
//! ([`direct`]) and read past it ([`ahead`]), and reading only regular files of bounded size,
//! as a hostile sender may have made them ([`regular`]), and threads that may not start
//! ([`thread`]), and acting only on files the user running tirage made ([`owner`]), and the
//! C library's heap handed back between stages ([`memory`]). Moving a complete block into place
//! is the generator's ([`mod@crate::generate::place`]).

pub mod ahead;
pub mod direct;
pub mod durable;
pub mod lock;
pub mod memory;
pub mod owner;
pub mod regular;
pub mod thread;
