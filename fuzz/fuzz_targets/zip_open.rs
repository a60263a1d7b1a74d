//! Fuzzes the zip store (PKWARE APPNOTE 6.3: end records, ZIP64, central directory, local
//! headers, stored and deflated entries): the input is a whole archive, written to a temporary
//! file and opened with `ZipStore::open`; every listed key is fetched (entries claiming huge
//! sizes included), then the store is opened as a Zarr dataset and its small variables read.
//! Errors are fine; panics, hangs and unbounded allocations are not.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use purecdf::store::{Store, ZipStore};

/// Every key below `prefix`, depth first, at most `left` of them.
fn keys(store: &ZipStore, prefix: &str, depth: usize, left: &mut usize, out: &mut Vec<String>) {
    let Ok(children) = store.list(prefix) else {
        return;
    };
    for child in children {
        if *left == 0 || depth > 8 {
            return;
        }
        *left -= 1;
        let key = if prefix.is_empty() {
            child
        } else {
            format!("{prefix}/{child}")
        };
        out.push(key.clone());
        keys(store, &key, depth + 1, left, out);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let path = dir.path().join("fuzz.zip");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let Ok(store) = ZipStore::open(&path, false) else {
        return;
    };
    let mut all = Vec::new();
    keys(&store, "", 0, &mut 64, &mut all);
    for key in &all {
        let _ = store.get(key);
    }
    let Ok(file) = purecdf::open_store(Box::new(store)) else {
        return;
    };
    common::read_small_variables(&file);
});
