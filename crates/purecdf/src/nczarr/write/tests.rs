//! The writer's background chunks: read back while in flight, partly rewritten, and kept (then
//! stored by `sync`) when the store fails them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::NczarrWriter;
use crate::backend::{Backend, BackendMut, Chunking};
use crate::model::{NcType, ROOT};
use crate::nczarr::url::Modes;
use crate::selection::Hyperslab;
use purecdf_store::{MemoryStore, Result as StoreResult, Store, StoreError};

/// A memory store whose chunk writes fail while `failures` is above zero.
#[derive(Debug, Default)]
struct FlakyStore {
    inner: Arc<MemoryStore>,
    failures: Arc<AtomicUsize>,
}

impl Store for FlakyStore {
    fn get(&self, key: &str) -> StoreResult<Option<Vec<u8>>> {
        self.inner.get(key)
    }
    fn list(&self, prefix: &str) -> StoreResult<Vec<String>> {
        self.inner.list(prefix)
    }
    fn set(&self, key: &str, value: &[u8]) -> StoreResult<()> {
        let chunk = !key.rsplit('/').next().unwrap_or("").starts_with('.');
        let fail = chunk
            && self
                .failures
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
        if fail {
            return Err(StoreError::Io {
                key: key.to_string(),
                source: std::io::Error::other("disk full"),
            });
        }
        self.inner.set(key, value)
    }
    fn erase(&self, key: &str) -> StoreResult<()> {
        self.inner.erase(key)
    }
}

fn slab(start: &[u64], count: &[u64]) -> Hyperslab {
    Hyperslab {
        start: start.to_vec(),
        count: count.to_vec(),
        stride: vec![1; start.len()],
    }
}

fn bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// A writer of one i32 variable 8 x 4 in chunks of 2 x 4, with deflate.
fn writer(store: FlakyStore) -> (NczarrWriter, crate::model::VarId) {
    let mut w = NczarrWriter::new(Box::new(store), Modes::default());
    let y = w.def_dim(ROOT, "y", 8, false).unwrap();
    let x = w.def_dim(ROOT, "x", 4, false).unwrap();
    let v = w.def_var(ROOT, "v", NcType::Int, &[y, x]).unwrap();
    w.def_var_chunking(v, Chunking::Chunked(vec![2, 4]))
        .unwrap();
    w.def_var_deflate(v, false, Some(1)).unwrap();
    w.enddef().unwrap();
    (w, v)
}

fn read(w: &NczarrWriter, v: crate::model::VarId) -> Vec<u8> {
    let mut out = vec![0u8; 8 * 4 * 4];
    w.read_raw(v, &slab(&[0, 0], &[8, 4]), &mut out).unwrap();
    out
}

#[test]
fn chunks_in_flight_read_back_and_take_partial_writes() {
    let (mut w, v) = writer(FlakyStore::default());
    let all: Vec<i32> = (0..32).collect();
    // Whole chunks (rows 0-1, 2-3, 4-5, 6-7) go to the background at once.
    w.write_raw(v, &slab(&[0, 0], &[8, 4]), &bytes(&all))
        .unwrap();
    assert_eq!(read(&w, v), bytes(&all));
    // A partial write of a chunk perhaps still in flight starts from its written values.
    w.write_raw(v, &slab(&[3, 1], &[1, 2]), &bytes(&[-1, -2]))
        .unwrap();
    let mut want = all.clone();
    want[13] = -1;
    want[14] = -2;
    assert_eq!(read(&w, v), bytes(&want));
    // Whole again over a chunk that was partly written: the new values win.
    w.write_raw(v, &slab(&[2, 0], &[2, 4]), &bytes(&[7; 8]))
        .unwrap();
    want[8..16].copy_from_slice(&[7; 8]);
    assert_eq!(read(&w, v), bytes(&want));
    w.sync().unwrap();
    assert_eq!(read(&w, v), bytes(&want));
}

#[test]
fn chunks_the_store_refuses_are_kept_and_stored_by_sync() {
    let store = FlakyStore::default();
    let (inner, failures) = (store.inner.clone(), store.failures.clone());
    let (mut w, v) = writer(store);
    failures.store(2, Ordering::SeqCst);
    let all: Vec<i32> = (100..132).collect();
    // The failures surface at this write or at the sync after it; no value is lost.
    let first = w.write_raw(v, &slab(&[0, 0], &[8, 4]), &bytes(&all));
    let second = w.sync();
    assert!(first.is_err() || second.is_err(), "no error reported");
    let err = first.err().or(second.err()).unwrap().to_string();
    assert!(err.contains("disk full"), "{err}");
    assert_eq!(read(&w, v), bytes(&all));
    w.sync().unwrap();
    let keys = inner.list("v").unwrap();
    assert_eq!(keys, [".zarray", ".zattrs", "0.0", "1.0", "2.0", "3.0"]);
    w.close().unwrap();
    // What the store holds reads back whole.
    let f = crate::nczarr::NczarrFile::from_store(Box::new(ArcStore(inner)), false).unwrap();
    let mut out = vec![0u8; 8 * 4 * 4];
    f.read_raw(v, &slab(&[0, 0], &[8, 4]), &mut out).unwrap();
    assert_eq!(out, bytes(&all));
}

/// A shared memory store, for reading back what a writer stored.
#[derive(Debug)]
struct ArcStore(Arc<MemoryStore>);

impl Store for ArcStore {
    fn get(&self, key: &str) -> StoreResult<Option<Vec<u8>>> {
        self.0.get(key)
    }
    fn list(&self, prefix: &str) -> StoreResult<Vec<String>> {
        self.0.list(prefix)
    }
    fn set(&self, key: &str, value: &[u8]) -> StoreResult<()> {
        self.0.set(key, value)
    }
    fn erase(&self, key: &str) -> StoreResult<()> {
        self.0.erase(key)
    }
}

/// Whole chunks cut from a slab wider than them (rows that do not continue each other in the
/// slab) and from a slab exactly as wide (rows copied as one run) store the same values.
#[test]
fn whole_chunks_from_wide_and_narrow_slabs() {
    let mut w = NczarrWriter::new(Box::new(FlakyStore::default()), Modes::default());
    let y = w.def_dim(ROOT, "y", 4, false).unwrap();
    let x = w.def_dim(ROOT, "x", 8, false).unwrap();
    let v = w.def_var(ROOT, "v", NcType::Int, &[y, x]).unwrap();
    w.def_var_chunking(v, Chunking::Chunked(vec![2, 4]))
        .unwrap();
    w.enddef().unwrap();
    let all: Vec<i32> = (0..32).collect();
    w.write_raw(v, &slab(&[0, 0], &[4, 8]), &bytes(&all))
        .unwrap();
    w.sync().unwrap();
    let mut out = vec![0u8; 32 * 4];
    w.read_raw(v, &slab(&[0, 0], &[4, 8]), &mut out).unwrap();
    assert_eq!(out, bytes(&all));
    // The chunk at (1, 1) again, from a slab of its own shape.
    let chunk: Vec<i32> = (100..108).collect();
    w.write_raw(v, &slab(&[2, 4], &[2, 4]), &bytes(&chunk))
        .unwrap();
    w.sync().unwrap();
    let mut want = all.clone();
    want[20..24].copy_from_slice(&chunk[..4]);
    want[28..32].copy_from_slice(&chunk[4..]);
    w.read_raw(v, &slab(&[0, 0], &[4, 8]), &mut out).unwrap();
    assert_eq!(out, bytes(&want));
}
