//! Adding HDF5 filters of your own: implement [`Filter`], register a [`FilterFactory`] for an
//! HDF5 filter id with [`register_filter`], and netCDF-4 files can then be written with that
//! filter ([`crate::VariableMut::set_filter`], [`crate::FileMut::def_var_filter`]) and read
//! back; [`crate::filter_available`] (`nc_inq_filter_avail`) is true for it.
//!
//! The registry is process-wide and keyed by the HDF5 filter id, from 256 to 65535 (HDF5 keeps
//! the ids below 256). The ids of purecdf's built-in filters (deflate, shuffle, fletcher32,
//! szip, n-bit, scale-offset, bzip2 307, LZF 32000, blosc 32001, LZ4 32004, bitshuffle 32008,
//! zstd 32015) are refused: data a built-in filter wrote is never handed to another
//! implementation. Registering an id again replaces the filter registered before.
//!
//! Reading data whose filter is neither built in nor registered fails as in netcdf-c, with
//! [`crate::ErrorKind::NoFilter`] (NC_ENOFILTER, "NetCDF: Filter error: undefined filter
//! encountered"); the file's header still reads, and `ncdump -s` shows the filter in
//! `_Filter`.
//!
//! # What a filter must honour
//! See [`purecdf_hdf5::filter::register`]: decoders return at most the `max_out` bytes they are
//! given (longer output is refused as corrupt data), encoding is undone exactly by decoding,
//! and a filter keeps no state between chunks, which are encoded and decoded in parallel on
//! rayon's pool. A panic inside a user filter becomes an error of that read or write.
//!
//! # Example
//! A toy filter, id 40000, that XORs every byte with a key given as its parameter:
//! ```
//! use purecdf::filters::{register_filter, Filter, FilterError};
//!
//! struct Xor(u8);
//!
//! impl Filter for Xor {
//!     fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
//!         if input.len() > max_out {
//!             return Err(FilterError::Corrupt(40000, "chunk too long".into()));
//!         }
//!         Ok(input.into_iter().map(|b| b ^ self.0).collect())
//!     }
//!     fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
//!         Ok(input.into_iter().map(|b| b ^ self.0).collect())
//!     }
//! }
//!
//! register_filter(40000, |params: &[u32], _element_size: usize| {
//!     match params {
//!         [key] => Ok(Box::new(Xor(*key as u8)) as Box<dyn Filter>),
//!         _ => Err(FilterError::BadParams(40000)),
//!     }
//! })?;
//! assert!(purecdf::filter_available(40000));
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("xor.nc");
//! let data: Vec<i32> = (0..100).collect();
//! let mut f = purecdf::create(&path)?;
//! f.add_dimension("x", 100)?;
//! let mut v = f.add_variable::<i32>("v", &["x"])?;
//! v.set_chunking(&[25])?;
//! v.set_filter(40000, &[0x5a])?;
//! v.put_values(&data, ..)?;
//! f.close()?;
//!
//! let f = purecdf::open(&path)?;
//! let v = f.variable("v").unwrap();
//! assert_eq!(v.filter_ids(), [40000]);
//! assert_eq!(v.get_values::<i32, _>(..)?, data);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::error::{Error, ErrorKind, Result};

pub use purecdf_hdf5::filter::{Filter, FilterError, FilterFactory};

/// Registers `factory` for HDF5 filter `id`, for every file this process writes or reads from
/// now on (replacing any filter registered before under that id).
///
/// # Errors
/// NC_EFILTER ([`ErrorKind::Filter`]) for an id above 65535 or below 256, or the id of a
/// built-in filter.
pub fn register_filter(id: u32, factory: impl FilterFactory + 'static) -> Result<()> {
    let short = u16::try_from(id)
        .map_err(|_| Error::with_detail(ErrorKind::Filter, format!("filter id {id}")))?;
    purecdf_hdf5::filter::register(short, factory)
        .map_err(|e| Error::with_detail(ErrorKind::Filter, e.to_string()))
}

/// Removes the filter registered for `id`; true when there was one (built-in filters stay).
pub fn unregister_filter(id: u32) -> bool {
    u16::try_from(id).is_ok_and(purecdf_hdf5::filter::unregister)
}

/// The ids of the registered filters, in increasing order (built-in filters not included).
pub fn registered_filters() -> Vec<u32> {
    purecdf_hdf5::filter::registered()
        .into_iter()
        .map(u32::from)
        .collect()
}
