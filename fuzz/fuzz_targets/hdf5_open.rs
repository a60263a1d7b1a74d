//! Fuzzes the HDF5 layer (HDF5 File Format Specification v3.0 structures: superblock, object
//! headers, B-trees, heaps, chunk indexes, filters) and the netCDF-4 mapping over it: walks every
//! group, reads every attribute, enumerates chunks and reads small datasets, then opens the same
//! bytes as a netCDF file (`common/hdf5_read.rs`). Errors are fine; panics, hangs and unbounded
//! allocations are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/hdf5_read.rs"]
mod hdf5_read;

fuzz_target!(|data: &[u8]| hdf5_read::read_everything(data));
