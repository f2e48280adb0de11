//! Cancellation passed in: the caller makes a [`Cancel`] token, hands it to the work it
//! starts, and may set it from anywhere (a signal handler, another thread). The library
//! holds no global flag: a token set stops only the work it was given to.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A token asking the work it was given to to stop as soon as it can. Clones share one
/// flag; a token once set stays set. [`Cancel::default`] makes a fresh token, never set
/// unless told.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Asks every holder of this token (or of a clone) to stop. For a signal handler.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called on this token or a clone of it.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_set_stops_its_clones_and_no_other_token() {
        let a = Cancel::default();
        let b = a.clone();
        let other = Cancel::default();
        assert!(!b.is_cancelled());
        a.cancel();
        assert!(b.is_cancelled() && a.is_cancelled());
        assert!(!other.is_cancelled());
    }
}
