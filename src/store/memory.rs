//! The C library's heap under every run: one malloc arena per core, and the memory that
//! a finished stage freed handed back to the operating system before the next one starts.
//! glibc's malloc (Linux) only; with another C library both do nothing.

/// Bounds the C library's malloc to one arena per core (glibc's `mallopt(M_ARENA_MAX)`);
/// to be called before any thread starts. By default glibc gives each new thread that
/// allocates an arena of its own, up to 8 per core, and each reserves 64 MiB of address
/// space that it mostly never uses: a run's threads (the workers, the disk writer, the
/// hashing) then reserved more than a 5 000 000-ticket block uses, and such a block failed
/// under 512 MiB of address space (`make limits`). Threads beyond the cores share arenas
/// (each keeps its own cache of small blocks).
pub fn one_arena_per_core() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // SAFETY: mallopt takes two integers and changes only malloc's own settings; no
        // other thread is running yet.
        unsafe {
            libc::mallopt(
                libc::M_ARENA_MAX,
                libc::c_int::try_from(cores).unwrap_or(libc::c_int::MAX),
            );
        }
    }
}

/// Hands the heap's free pages back to the operating system (glibc's `malloc_trim(0)`,
/// over every arena). glibc keeps what a program frees for its next allocations: after
/// `verify`'s ticket pass (batches, claims, sorts), about 110 MiB of a coq block's freed
/// buffers stayed resident while the replay built the block again, and the replay's peak
/// RSS was 294–316 MiB instead of about 220 MiB. Call it between two stages that each need
/// much memory, never in a loop: it walks the whole heap.
pub fn give_back_free() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes a byte count and only returns free pages of malloc's own
    // heap to the kernel; it is thread-safe (each arena is locked while trimmed).
    unsafe {
        libc::malloc_trim(0);
    }
}
