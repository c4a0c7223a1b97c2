use std::process::ExitCode;

fn main() -> ExitCode {
    keep_large_blocks_out_of_the_heap();
    legate::cli::main()
}

/// Each argon2 password check allocates 19 MiB and frees it again. glibc raises
/// its mmap threshold to the size of the largest mapping freed, after which such
/// blocks come from the heap of whichever thread ran the check and stay there:
/// ingest with every password checked peaked at 110 MiB where 35 MiB suffice.
/// A fixed threshold keeps large blocks mapped, and returned when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_large_blocks_out_of_the_heap() {
    const THRESHOLD: libc::c_int = 128 * 1024;
    // SAFETY: mallopt only tunes the allocator; called first thing, before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_large_blocks_out_of_the_heap() {}
