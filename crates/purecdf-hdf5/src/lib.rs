//! # purecdf-hdf5 — the HDF5 file format in pure Rust
//!
//! Knows nothing of netCDF. It holds the byte-source layer ([`io`]) shared by every purecdf format
//! and the HDF5 format structures ([`format`](mod@format)), per the HDF5 File Format Specification v3.0.
//! Status: superblock v0–v3, checksums and the bounded cursor; object headers, B-trees, heaps,
//! chunk indexes and filters follow.

pub mod convert;
pub mod error;
pub mod filter;
pub mod format;
pub mod io;
pub mod read;
pub mod write;

pub use error::{FormatError, FormatErrorKind, FormatResult};
