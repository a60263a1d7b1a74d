//! Fuzzes the Zarr metadata parser and chunk reader: the input is a small store (entries of a
//! one-byte key length, the key, a two-byte little-endian value length, the value), opened with
//! `purecdf::open_store` and every variable read whole when it is small, then its first element
//! alone (a read that touches one chunk, or one inner chunk of a Zarr v3 shard). Version 2 and
//! version 3 (`zarr.json`, sharding included) metadata both go through here. Errors are fine;
//! panics, hangs and unbounded allocations are not.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use purecdf::store::MemoryStore;

fn entries(mut data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    while let Some((&klen, rest)) = data.split_first() {
        let Some(key) = rest.get(..klen as usize) else {
            break;
        };
        let rest = &rest[klen as usize..];
        let Some(len) = rest.get(..2) else { break };
        let vlen = u16::from_le_bytes([len[0], len[1]]) as usize;
        let rest = &rest[2..];
        let value = rest.get(..vlen).unwrap_or(rest);
        out.push((String::from_utf8_lossy(key).into_owned(), value.to_vec()));
        data = &rest[value.len()..];
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Ok(store) = MemoryStore::from_objects(entries(data)) else {
        return;
    };
    let Ok(file) = purecdf::open_store(Box::new(store)) else {
        return;
    };
    common::read_small_variables(&file);
});
