//! Hostile input: malformed classic files and bad CDL must give an error (checked by `kind()`),
//! never a panic, a hang, or an allocation sized by an unchecked number from the input.
//!
//! The classic cases corrupt the header structures of "The NetCDF Classic Format Specification"
//! (`../shared/spec/file-format-specifications.md`): magic, `numrecs` (including `STREAMING`),
//! `dim_list`, `gatt_list`, `var_list` with their `NC_DIMENSION`/`NC_ATTRIBUTE`/`NC_VARIABLE`
//! tags, `nelems` counts, name lengths, `nc_type`s, dimension ids, `vsize` and `begin`.
//! Most are generated here from the seed files in `tests/data/bad/seed/` (every truncation length,
//! byte flips, targeted field overwrites located by `classic::HeaderMap`); the committed files in
//! `tests/data/bad/` are the inventory (`classic::committed_corpus_inventory`): each must be listed with
//! its expected error kinds, and netcdf-c's ncdump must reject it too.
//!
//! Guards: a global allocator refuses any single allocation above [`ALLOC_LIMIT`] (the process
//! aborts naming the size), and every group of cases runs under a watchdog that fails the test
//! naming the case that hangs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// No single allocation while handling a fixture of under 1 KiB may exceed this.
const ALLOC_LIMIT: usize = 256 << 20;

/// Allocator that refuses (and so aborts on) any allocation larger than [`ALLOC_LIMIT`].
struct CappedAlloc;

static LARGEST_REFUSED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to `System`, or returns null (a valid "allocation failed" answer).
unsafe impl GlobalAlloc for CappedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > ALLOC_LIMIT {
            LARGEST_REFUSED.fetch_max(layout.size(), Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        // SAFETY: same layout contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > ALLOC_LIMIT {
            LARGEST_REFUSED.fetch_max(layout.size(), Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > ALLOC_LIMIT {
            LARGEST_REFUSED.fetch_max(new_size, Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        // SAFETY: `ptr` came from `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CappedAlloc = CappedAlloc;

/// Longest a whole group of cases may take.
const GROUP_DEADLINE: Duration = Duration::from_secs(120);

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad")
}

fn seed(version: u8) -> Vec<u8> {
    let path = data_dir().join(format!("seed/seed_cdf{version}.nc"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `cases` on a worker thread under [`GROUP_DEADLINE`]; `check` returns `Err(why)` for a
/// case that misbehaved. A panic or hang fails the test naming the case; failures are collected.
fn run_cases<C, F>(group: &str, cases: Vec<(String, C)>, check: F)
where
    C: Send + 'static,
    F: Fn(&str, C) -> Result<(), String> + Send + 'static,
{
    let total = cases.len();
    let current = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = mpsc::channel();
    let cur = Arc::clone(&current);
    let worker = std::thread::spawn(move || {
        let mut failures = Vec::new();
        for (label, case) in cases {
            *cur.lock().unwrap_or_else(|p| p.into_inner()) = label.clone();
            if let Err(why) = check(&label, case) {
                failures.push(format!("{label}: {why}"));
            }
        }
        let _ = tx.send(failures);
    });
    let failures = match rx.recv_timeout(GROUP_DEADLINE) {
        Ok(f) => f,
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let label = current.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let _ = worker.join();
            panic!("{group}: panicked on case {label}");
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let label = current.lock().unwrap_or_else(|p| p.into_inner()).clone();
            panic!("{group}: no result after {GROUP_DEADLINE:?}; stuck on case {label}");
        }
    };
    println!("{group}: {}/{total} cases behaved", total - failures.len());
    assert!(
        failures.is_empty(),
        "{group}: {} of {total} cases misbehaved:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// True under `PURECDF_REQUIRE_REFERENCE=1`: tests needing netcdf-c's tools or data fail instead
/// of skipping.
fn require_reference() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

/// Classic files: generated corruptions of the seeds and the committed inventory.
mod classic;
mod corrupt;
#[path = "../common/shared.rs"]
mod shared;

/// Bad CDL through `purecdf::cdl::parse`.
mod cdl;

/// HDF5 fuzz findings through `purecdf_hdf5` and `purecdf::open_mem`.
mod hdf5;

/// The `hdf5_open` fuzz target's reading, shared with it.
#[path = "../../../../fuzz/common/hdf5_read.rs"]
mod hdf5_read;
