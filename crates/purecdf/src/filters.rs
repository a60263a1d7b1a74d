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
//! # NCZarr
//! NCZarr stores keep a chunk's filters as numcodecs JSON (`.zarray`'s `filters` and
//! `compressor`), so a user filter also needs its Zarr form there, as a netcdf-c filter needs an
//! NCZarr codec plugin beside its HDF5 plugin (netcdf-c's `docs/filters.md`, "NCZarr Filter
//! Support"): implement [`ZarrCodec`] and register it for the same id with
//! [`register_zarr_codec`]. Without one, [`crate::VariableMut::set_filter`] on an NCZarr
//! variable gives NC_ENOFILTER, and a store whose codec id is registered by no one refuses
//! reads of that variable with NC_ENOFILTER.
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

use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use crate::error::{Error, ErrorKind, Result};

pub use purecdf_hdf5::filter::{Filter, FilterError, FilterFactory};

/// The Zarr (numcodecs JSON) form of a filter, for NCZarr stores: what netcdf-c's NCZarr codec
/// plugins give (`NCZ_codec_t`: a codec id and the conversions both ways between the HDF5
/// parameters and the codec's JSON text).
///
/// ```
/// use purecdf::filters::{FilterError, ZarrCodec};
///
/// /// `{"id": "xor", "key": K}` for HDF5 parameters `[K]`.
/// struct XorCodec;
///
/// impl ZarrCodec for XorCodec {
///     fn codec_id(&self) -> &str {
///         "xor"
///     }
///     fn params_to_codec(&self, params: &[u32]) -> Result<String, FilterError> {
///         match params {
///             [key] => Ok(format!(r#"{{"id": "xor", "key": {key}}}"#)),
///             _ => Err(FilterError::BadParams(40000)),
///         }
///     }
///     fn codec_to_params(&self, codec: &str) -> Result<Vec<u32>, FilterError> {
///         // A real codec would use a JSON parser; this one finds its one number.
///         let key = codec.rsplit(':').next().and_then(|k| k.trim_end_matches('}').trim().parse().ok());
///         key.map(|k| vec![k]).ok_or(FilterError::BadParams(40000))
///     }
/// }
/// purecdf::filters::register_zarr_codec(40000, XorCodec)?;
/// # Ok::<(), purecdf::Error>(())
/// ```
pub trait ZarrCodec: Send + Sync {
    /// The codec's `"id"` in the JSON (numcodecs' name for it).
    fn codec_id(&self) -> &str;
    /// The codec's JSON object, `"id"` included, for the filter's HDF5 parameters.
    ///
    /// # Errors
    /// Parameters the codec cannot express.
    fn params_to_codec(&self, params: &[u32]) -> std::result::Result<String, FilterError>;
    /// The HDF5 parameters for the codec's JSON object (as stored, `"id"` included).
    ///
    /// # Errors
    /// A configuration the codec does not accept.
    fn codec_to_params(&self, codec: &str) -> std::result::Result<Vec<u32>, FilterError>;
}

type CodecTable = Vec<(u32, Arc<dyn ZarrCodec>)>;

fn codec_table() -> &'static RwLock<CodecTable> {
    static TABLE: OnceLock<RwLock<CodecTable>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

/// Registers the Zarr form of HDF5 filter `id` for NCZarr stores (replacing any registered
/// before for that id); the filter itself is registered with [`register_filter`].
///
/// # Errors
/// NC_EFILTER for an id outside 256-65535 or of a built-in filter, and for a codec id of
/// purecdf's own codecs (`zlib`, `gzip`, `shuffle`, `fletcher32`, `bz2`, `zstd`, `blosc`, `lz4`,
/// `vlen-utf8`, `crc32c`) or of another registered filter.
pub fn register_zarr_codec(id: u32, codec: impl ZarrCodec + 'static) -> Result<()> {
    let refused = |why: String| Err(Error::with_detail(ErrorKind::Filter, why));
    match u16::try_from(id) {
        Ok(short) if short >= purecdf_hdf5::filter::registry::FIRST_USER_ID => {
            if purecdf_hdf5::filter::is_builtin(short) {
                return refused(format!("filter id {id} is built in"));
            }
        }
        _ => return refused(format!("filter id {id} is not a user filter id")),
    }
    let name = codec.codec_id().to_string();
    if crate::nczarr::BUILT_IN_CODECS.contains(&name.as_str()) {
        return refused(format!("codec id {name:?} is built in"));
    }
    let mut table = codec_table()
        .write()
        .unwrap_or_else(PoisonError::into_inner);
    if table.iter().any(|(i, c)| *i != id && c.codec_id() == name) {
        return refused(format!("codec id {name:?} is another filter's"));
    }
    table.retain(|(i, _)| *i != id);
    table.push((id, Arc::new(codec)));
    Ok(())
}

/// Removes the Zarr form registered for filter `id`; true when there was one.
pub fn unregister_zarr_codec(id: u32) -> bool {
    let mut table = codec_table()
        .write()
        .unwrap_or_else(PoisonError::into_inner);
    let before = table.len();
    table.retain(|(i, _)| *i != id);
    table.len() != before
}

/// Runs a user codec's conversion, a panic inside it becoming an error.
pub(crate) fn guarded<T>(
    f: impl FnOnce() -> std::result::Result<T, FilterError>,
) -> std::result::Result<T, FilterError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err(FilterError::Corrupt(0, "a Zarr codec panicked".into())))
}

/// The Zarr codec registered for filter `id`.
pub(crate) fn zarr_codec(id: u32) -> Option<Arc<dyn ZarrCodec>> {
    let table = codec_table().read().unwrap_or_else(PoisonError::into_inner);
    table.iter().find(|(i, _)| *i == id).map(|(_, c)| c.clone())
}

/// The filter id and Zarr codec registered under codec id `name`.
pub(crate) fn zarr_codec_named(name: &str) -> Option<(u32, Arc<dyn ZarrCodec>)> {
    let table = codec_table().read().unwrap_or_else(PoisonError::into_inner);
    table.iter().find(|(_, c)| c.codec_id() == name).cloned()
}

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
