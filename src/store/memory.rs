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

/// The size of a transparent huge page on x86-64 and on most arm64 kernels (2 MiB).
pub const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back `buf` with transparent huge pages (`madvise(MADV_HUGEPAGE)`)
/// where its mode is `madvise`, as most distributions set it. `buf` must start on a
/// [`HUGE_PAGE`] boundary and not have been written yet: the kernel then faults it in 2 MiB
/// at a time, and a direct write of it pins one page where it pinned 512. The advice is
/// only a hint: where the kernel has no huge page to give, or on another system, nothing
/// changes, and no error is returned.
pub fn advise_huge_pages(buf: &mut [u8]) {
    debug_assert_eq!(
        buf.as_ptr().align_offset(HUGE_PAGE),
        0,
        "not on a huge page"
    );
    #[cfg(target_os = "linux")]
    // SAFETY: madvise with MADV_HUGEPAGE only changes how the kernel backs the pages of
    // `buf`, a range this process owns whole; it changes no byte of them.
    unsafe {
        libc::madvise(buf.as_mut_ptr().cast(), buf.len(), libc::MADV_HUGEPAGE);
    }
}
