//! Threads started by name: one the operating system cannot start (the limit on processes
//! and threads reached: `ulimit -u`, a cgroup's `pids.max`) is an error that says so and
//! what to do, never a panic.

use std::thread::{Builder, JoinHandle, Scope, ScopedJoinHandle};

/// Starts `f` on a new thread named `name` (what it does, in a few words). Errors: the
/// operating system's refusal, worded by [`refused`].
pub fn spawn<T, F>(name: &str, f: F) -> std::io::Result<JoinHandle<T>>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    Builder::new()
        .name(name.into())
        .spawn(f)
        .map_err(|e| refused(name, e))
}

/// Starts `f` on a new thread named `name` in the scope `s`, joined when the scope ends.
/// Errors: the operating system's refusal, worded by [`refused`].
pub fn spawn_scoped<'scope, 'env, T, F>(
    s: &'scope Scope<'scope, 'env>,
    name: &str,
    f: F,
) -> std::io::Result<ScopedJoinHandle<'scope, T>>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    Builder::new()
        .name(name.into())
        .spawn_scoped(s, f)
        .map_err(|e| refused(name, e))
}

/// The error of a thread (or pool of threads) for `what` that could not start because of
/// `error`, saying what to do: "could not start a thread for the tickets.csv writer:
/// Resource temporarily unavailable (os error 11); …".
pub fn refused(what: &str, error: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(format!(
        "could not start a thread for {what}: {error}; a limit is reached, on processes and \
         threads (ulimit -u, a cgroup's pids.max) or on memory (ulimit -v: each thread takes \
         room for its stack): raise it, or run fewer threads at once (--threads N, for the \
         commands that take it)"
    ))
}
