//! # purecdf-hdf5 — the HDF5 file format in pure Rust
//!
//! Knows nothing of netCDF. Today it holds the byte-source layer ([`io`]) shared by every purecdf
//! format; the HDF5 reader (superblock, object headers, B-trees, heaps, chunk indexes, filters) and
//! writer follow, per the HDF5 File Format Specification v3.0.

pub mod io;
