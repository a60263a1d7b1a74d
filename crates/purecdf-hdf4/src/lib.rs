//! Read-only HDF4 in pure Rust, for purecdf: the file structure (data descriptors, special
//! elements, vgroups and vdatas) and the SD model the `mfhdf` library builds on it. It knows
//! nothing of netCDF; purecdf's `hdf4` module maps it to the netCDF data model as netcdf-c does.
//!
//! Written from the HDF Group's HDF4 specification and the layouts its library reads; each module
//! names the part it follows. Every length and offset is checked against the file size before
//! anything is read or allocated for it, so malformed files give an [`Error`], never a panic.

pub mod codec;
mod dfsd;
pub mod element;
pub mod error;
pub mod file;
pub mod read;
pub mod sd;
pub mod types;
pub mod vset;

pub use error::{Error, Result};
pub use file::Hdf4File;
pub use read::Selection;
pub use sd::{SdAttribute, SdDataset, SdDimension, SdFile};
pub use types::NumberType;
