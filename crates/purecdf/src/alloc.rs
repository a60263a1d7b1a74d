//! Output buffers for whole-variable reads.
//!
//! A read of a large variable spends much of its time in the kernel, faulting in the fresh
//! zeroed pages of the caller's buffer one 4 KiB page at a time. On Linux, buffers of 4 MiB or
//! more are advised as transparent huge pages (`madvise(MADV_HUGEPAGE)`, as numpy does for its
//! large arrays), so the kernel maps 2 MiB at a time where the system allows it (THP mode
//! `madvise` or `always`). The advice changes no contents and may be ignored.
//!
//! `PURECDF_HUGE_PAGES=0` turns the advice off (as `NUMPY_MADVISE_HUGEPAGE=0` does numpy's). On
//! virtual machines that hand idle guest memory back to the host (free page reporting, DAMON
//! reclaim, as on Firecracker), a fresh 2 MiB page is often one the host must back again on its
//! first touch: there a read in a new process, after a few idle seconds, was faster without the
//! advice (0.23-0.27 s against 0.42-0.44 s for a 256 MiB zstd variable), while back-to-back
//! reads were faster with it (0.14 against 0.18 s).

use crate::error::{Error, ErrorKind, Result};

/// Buffers at least this large are advised as huge pages.
const HUGE_PAGE_THRESHOLD: usize = 4 << 20;

/// A vector of `n` default values, or NC_ENOMEM (instead of an abort) when a size taken from a
/// file cannot be allocated. The probe reserves without touching memory; the vector itself comes
/// from `vec!`, which gets zeroed pages lazily from the allocator for the numeric types rather
/// than writing every element.
pub(crate) fn zeroed<T: Clone + Default>(n: usize) -> Result<Vec<T>> {
    let mut probe: Vec<T> = Vec::new();
    probe.try_reserve_exact(n).map_err(|_| {
        let what = format!("{n} values of {} bytes", std::mem::size_of::<T>());
        Error::with_detail(ErrorKind::NoMem, what)
    })?;
    drop(probe);
    let v = vec![T::default(); n];
    advise_huge_pages(&v);
    Ok(v)
}

/// Advises the whole 2 MiB-aligned pages inside `v`'s memory as huge pages (Linux only).
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(v: &[T]) {
    const HUGE: usize = 2 << 20;
    let bytes = std::mem::size_of_val(v);
    if bytes < HUGE_PAGE_THRESHOLD || !huge_pages_wanted() {
        return;
    }
    let start = v.as_ptr() as usize;
    let first = start.next_multiple_of(HUGE);
    let end = (start + bytes) / HUGE * HUGE;
    if end > first {
        // SAFETY: [first, end) lies inside the allocation `v` owns; MADV_HUGEPAGE only changes
        // how the kernel backs those pages, never their contents, and its failure is harmless.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

/// Whether buffers are advised as huge pages: unless the environment says
/// `PURECDF_HUGE_PAGES=0` (read once per process).
#[cfg(target_os = "linux")]
fn huge_pages_wanted() -> bool {
    static WANTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WANTED.get_or_init(|| wanted_from(std::env::var_os("PURECDF_HUGE_PAGES").as_deref()))
}

/// The setting a value of `PURECDF_HUGE_PAGES` gives: off for `0`, on otherwise or when unset.
#[cfg(any(target_os = "linux", test))]
fn wanted_from(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_none_or(|v| v.to_str().map(str::trim) != Some("0"))
}

/// Other systems get no advice.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_v: &[T]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_buffers_are_zeroed_and_sized() {
        for n in [0usize, 1, 1000, (5 << 20) + 3] {
            let v = zeroed::<f32>(n).unwrap();
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|x| *x == 0.0));
        }
    }

    #[test]
    fn huge_pages_are_off_only_for_zero() {
        use std::ffi::OsStr;
        assert!(wanted_from(None));
        assert!(wanted_from(Some(OsStr::new("1"))));
        assert!(wanted_from(Some(OsStr::new(""))));
        assert!(!wanted_from(Some(OsStr::new("0"))));
        assert!(!wanted_from(Some(OsStr::new(" 0 "))));
    }

    #[test]
    fn impossible_sizes_are_nc_enomem() {
        let e = zeroed::<u64>(usize::MAX / 4).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NoMem);
    }
}
