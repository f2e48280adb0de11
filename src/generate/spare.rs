//! Buffers handed back by the writers of the ticket files to the code that fills them: a
//! block's print records and `validation.csv`'s rows reuse the memory of the few batches
//! in flight, instead of taking fresh memory from the allocator for every batch (memory
//! that one thread frees and another takes, which the allocator gives back to the kernel
//! and the kernel zeroes again).

use std::sync::{Mutex, PoisonError};

/// Emptied buffers, at most a set number of them, shared by the threads that fill buffers
/// and the writers that empty them.
pub(super) struct Spare {
    bufs: Mutex<Vec<Vec<u8>>>,
    most: usize,
}

impl Spare {
    /// No buffer yet; keeps at most `most` of those given.
    pub(super) fn new(most: usize) -> Spare {
        Spare {
            bufs: Mutex::new(Vec::with_capacity(most)),
            most,
        }
    }

    /// An empty buffer with room for at least `capacity` bytes: one given back, or a new
    /// one.
    pub(super) fn take(&self, capacity: usize) -> Vec<u8> {
        let kept = self
            .bufs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut buf = kept.unwrap_or_default();
        buf.reserve(capacity);
        buf
    }

    /// Keeps the buffers of `bufs`, emptied, while fewer than the most are kept; drops the
    /// others.
    pub(super) fn give(&self, bufs: Vec<Vec<u8>>) {
        let mut kept = self.bufs.lock().unwrap_or_else(PoisonError::into_inner);
        for mut buf in bufs {
            if kept.len() == self.most {
                break;
            }
            buf.clear();
            kept.push(buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_given_come_back_empty_and_the_most_are_kept() {
        let spare = Spare::new(2);
        assert_eq!(spare.take(10).len(), 0);
        let bufs: Vec<Vec<u8>> = (0..3u8).map(|k| vec![k; 100 + usize::from(k)]).collect();
        spare.give(bufs);
        // The first two given are kept, the last taken first, emptied, their room kept.
        let a = spare.take(0);
        assert!(a.is_empty() && a.capacity() >= 101);
        let b = spare.take(500);
        assert!(b.is_empty() && b.capacity() >= 500);
        // None left: a new buffer.
        assert_eq!(spare.take(7).len(), 0);
    }
}
