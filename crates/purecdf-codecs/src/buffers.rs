//! Output buffers kept for the next encoded chunk: code that has stored an encoded chunk hands
//! its buffer back with [`give`], and the next encoder's [`take`] reuses it. A fresh buffer of a
//! megabyte costs the thread that fills it a page fault per 4 KiB (the allocator hands large
//! blocks back to the kernel when they are freed); a kept one costs none.
//!
//! At most [`KEPT_BYTES`] of capacity are kept, in at most [`KEPT_BUFFERS`] buffers, until
//! [`release`]; buffers not given back are simply freed.

use std::sync::Mutex;

/// The most capacity kept, in bytes.
pub const KEPT_BYTES: usize = 32 << 20;
/// The most buffers kept.
pub const KEPT_BUFFERS: usize = 32;

/// The kept buffers and their total capacity.
static KEPT: Mutex<(Vec<Vec<u8>>, usize)> = Mutex::new((Vec::new(), 0));

/// An empty buffer with room for at least `capacity` bytes: a kept one when one is large enough,
/// else a new one. A new buffer of 64 KiB or more gets up to 8 KiB more than asked, so that a
/// chunk's buffer also serves that chunk encoded (a few header bytes longer) and the other way.
pub fn take(capacity: usize) -> Vec<u8> {
    if let Ok(mut kept) = KEPT.lock() {
        let (list, bytes) = &mut *kept;
        if let Some(i) = list.iter().rposition(|b| b.capacity() >= capacity) {
            let mut b = list.swap_remove(i);
            *bytes -= b.capacity();
            b.clear();
            return b;
        }
    }
    if capacity >= 64 << 10 {
        Vec::with_capacity((capacity + 4096).next_multiple_of(4096))
    } else {
        Vec::with_capacity(capacity)
    }
}

/// Keeps `buffer` for a later [`take`] (when there is room; else it is freed).
pub fn give(buffer: Vec<u8>) {
    let cap = buffer.capacity();
    if cap < 4096 {
        return;
    }
    if let Ok(mut kept) = KEPT.lock() {
        let (list, bytes) = &mut *kept;
        if list.len() < KEPT_BUFFERS && *bytes + cap <= KEPT_BYTES {
            *bytes += cap;
            list.push(buffer);
        }
    }
}

/// Frees every kept buffer (writers call it when they are dropped, so that a program that
/// has written a file does not hold on to them).
pub fn release() {
    let kept = KEPT.lock().map(|mut k| std::mem::take(&mut *k));
    drop(kept);
}

/// How many bytes of chunks of `chunk_len` bytes a writer lets wait for rayon's pool (to be
/// encoded, or written) before it waits itself: two chunks per pool thread, so every core stays
/// busy, but at least 16 MiB and at most 256 MiB (chunks larger than that are waited for one
/// at a time). Few enough that the first chunks' buffers serve the next ones.
pub fn inflight_bytes(chunk_len: usize) -> usize {
    (2 * rayon::current_num_threads())
        .saturating_mul(chunk_len)
        .clamp(16 << 20, 256 << 20)
}

#[cfg(test)]
mod tests {
    #[test]
    fn in_flight_bounds() {
        use super::inflight_bytes;
        let threads = rayon::current_num_threads();
        assert_eq!(inflight_bytes(0), 16 << 20);
        assert_eq!(inflight_bytes(1 << 30), 256 << 20);
        assert_eq!(inflight_bytes(usize::MAX), 256 << 20);
        let mib = inflight_bytes(1 << 20);
        assert_eq!(mib, ((2 * threads) << 20).clamp(16 << 20, 256 << 20));
    }

    #[test]
    fn reuses_given_buffers_within_the_bounds() {
        let mut b = super::take(100_000);
        assert!(b.capacity() >= 100_000 && b.is_empty());
        b.extend_from_slice(&[1, 2, 3]);
        super::give(b);
        // Whichever kept buffer comes back (other tests share the pool, and a freed buffer's
        // address may be reused, so which one cannot be told), it is empty and large enough.
        let again = super::take(50_000);
        assert!(again.is_empty() && again.capacity() >= 50_000);
        // A buffer larger than all that is kept is never kept.
        super::give(Vec::with_capacity(super::KEPT_BYTES + 1));
        let kept = super::KEPT.lock().unwrap();
        assert!(kept.1 <= super::KEPT_BYTES && kept.0.len() <= super::KEPT_BUFFERS);
        assert_eq!(kept.1, kept.0.iter().map(Vec::capacity).sum::<usize>());
    }
}
