//! # purecdf — netCDF in pure Rust
//!
//! Reads and writes netCDF datasets without the C library. Today: the three classic formats
//! (CDF-1 classic, CDF-2 64-bit offset, CDF-5 64-bit data) and the CDL text language; netCDF-4
//! (HDF5), NCZarr and HDF4 follow behind the same API.
//!
//! Data flows one way: bytes (storage) → format backend → data model ([`model`]) → API / CDL.
//!
//! ```no_run
//! let file = purecdf::open("data.nc")?;
//! let temp = file.variable("temp").unwrap();
//! let values: Vec<f32> = temp.get_values(..)?;
//! # Ok::<(), purecdf::Error>(())
//! ```
//!
//! ## Coming from the georust `netcdf` crate
//! The names are the same where they fit: [`open`], [`create`], [`append`], [`File`], [`FileMut`],
//! [`Variable`], `get_values`, `get_value`, `put_values`, `add_dimension`, `add_variable`,
//! [`Extents`] built from ranges, indices and `(start, count, stride)`. Differences: errors carry the
//! netCDF error kind plus file and object context; scale/offset is never applied implicitly.

mod alloc;
pub(crate) mod backend;
pub mod cdl;
pub mod classic;
pub mod convert;
mod dispatch;
mod error;
mod file;
pub mod filter_spec;
pub mod hdf4;
pub mod model;
mod nc4def;
pub mod nczarr;
pub mod netcdf4;
mod remote;
mod selection;

pub use backend::{Chunking, ExtendedFormat, Format, Quantize};
pub use convert::NcElement;
pub use dispatch::{
    append, create, create_with, open, open_mem, open_store, open_with, OpenOptions,
};
pub use error::{Context, Error, ErrorKind, Result};
pub use file::{CreateOptions, File, FileMut, Variable};
/// Key/value stores for Zarr datasets (directory, zip, memory).
pub use purecdf_store as store;

/// Whether this build can read and write data with HDF5 filter `id` (`nc_inq_filter_avail`).
pub fn filter_available(id: u32) -> bool {
    u16::try_from(id).is_ok_and(purecdf_hdf5::filter::is_available)
}
pub use model::{
    Attribute, DimId, Dimension, GroupId, NcType, Schema, TypeId, Value, Values, VarId,
};
pub use selection::{Extent, Extents, Hyperslab};

/// Byte sources (positional reads) shared with the HDF5 layer.
pub use purecdf_hdf5::io;

/// Handles are shareable between threads: concurrent reads need no lock.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<File>();
    assert_send_sync::<FileMut>();
};
