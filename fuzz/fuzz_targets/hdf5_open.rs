//! Fuzzes the HDF5 layer (HDF5 File Format Specification v3.0 structures: superblock, object
//! headers, B-trees, heaps, chunk indexes, filters) and the netCDF-4 mapping over it: walks every
//! group, reads every attribute, enumerates chunks and reads small datasets, then opens the same
//! bytes as a netCDF file. Errors are fine; panics, hangs and unbounded allocations are not.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use purecdf_hdf5::read::{Dataset, Group, Hdf5File};

/// Datasets larger than this are not read whole.
const READ_LIMIT: u64 = 1 << 20;

fn walk(f: &Hdf5File, g: &Group, depth: usize) {
    if depth > 8 {
        return;
    }
    let _ = g.attributes();
    let Ok(members) = g.members() else { return };
    for m in members.into_iter().take(64) {
        let Some(addr) = m.address else { continue };
        if let Ok(ds) = Dataset::load(f, addr) {
            let _ = ds.attributes();
            let _ = ds.chunks();
            let small = ds
                .space
                .num_elements()
                .and_then(|n| n.checked_mul(ds.element_size()))
                .is_some_and(|b| b <= READ_LIMIT);
            if small {
                let _ = ds.read_raw();
            }
        } else if let Ok(child) = Group::load(f, addr) {
            walk(f, &child, depth + 1);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(f) = Hdf5File::open(Arc::new(data.to_vec())) {
        if let Ok(root) = f.root() {
            walk(&f, &root, 0);
        }
    }
    if let Ok(file) = purecdf::open_mem(data.to_vec()) {
        for v in file.variables() {
            let bytes = v
                .shape()
                .iter()
                .try_fold(8u64, |a, d| a.checked_mul(*d))
                .unwrap_or(u64::MAX);
            if bytes <= READ_LIMIT {
                let _ = v.get_raw_values(..);
            }
        }
    }
});
