//! # purecdf — netCDF in pure Rust
//!
//! Reads and writes netCDF datasets without the C library: the classic formats (CDF-1 classic,
//! CDF-2 64-bit offset, CDF-5 64-bit data), netCDF-4 (HDF5, with its compression filters) and
//! NCZarr, plus the CDL text language. Files written here are read by netcdf-c as its own.
//!
//! The API is that of the georust [`netcdf`](https://docs.rs/netcdf/0.12) crate, so programs
//! written for it build unchanged with `netcdf = { package = "purecdf", version = "0.1" }` in
//! their `Cargo.toml` (differences below), with purecdf's own additions beside it: filters and
//! quantization, renames, typed [`Values`] in the file's own types, and errors that say where.
//!
//! ## Writing
//! [`create`] makes a netCDF-4 file ([`create_with`] takes a [`Format`] or georust's
//! [`Options`]); a variable is declared over named dimensions and written through its
//! [`VariableMut`] handle, with selections as in georust: `..`, indices, ranges, tuples of them.
//!
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("crabs.nc");
//! let mut file = purecdf::create(&path)?;
//! file.add_dimension("ncrabs", 10)?;
//! file.add_unlimited_dimension("time")?;
//! file.add_attribute("title", "crab survey")?;
//!
//! let mut var = file.add_variable::<i32>("coolness", &["time", "ncrabs"])?;
//! var.put_attribute("units", "Kelvin")?;
//! var.put_values(&[42; 10], (0, ..))?; // record 0; the time axis grows
//! let more = ndarray::Array::from_shape_fn((2, 10), |(t, i)| (10 * t + i) as i32);
//! var.put(more.view(), (1.., ..))?; // records 1 and 2
//! file.close()?;
//! # Ok::<(), purecdf::Error>(())
//! ```
//!
//! ## Reading
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("crabs.nc");
//! # let mut f = purecdf::create(&path)?;
//! # f.add_dimension("ncrabs", 10)?;
//! # f.add_unlimited_dimension("time")?;
//! # let mut v = f.add_variable::<i32>("coolness", &["time", "ncrabs"])?;
//! # v.put_attribute("units", "Kelvin")?;
//! # v.put_values(&(0..30).collect::<Vec<i32>>(), (..3, ..))?;
//! # f.close()?;
//! use purecdf::AttributeValue;
//!
//! let file = purecdf::open(&path)?;
//! let var = file.variable("coolness").expect("no such variable");
//! assert_eq!(var.dimensions()[0].len(), 3);
//!
//! let one: i32 = var.get_value((1, 4))?; // an index per dimension
//! let row: Vec<f64> = var.get_values((2, 3..6))?; // converted to f64
//! let column = var.get::<i32, _>((.., 0))?; // ndarray; the index axis is dropped
//! assert_eq!((one, row, column.shape()), (14, vec![23.0, 24.0, 25.0], &[3][..]));
//!
//! let units: String = var.attribute_value("units").unwrap()?.try_into()?;
//! assert_eq!(var.attribute("units").unwrap().value()?, AttributeValue::Str(units));
//! # Ok::<(), purecdf::Error>(())
//! ```
//!
//! ## Appending
//! [`append`] opens an existing file of any format for writing.
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("log.nc");
//! # let mut f = purecdf::create_with(&path, purecdf::Format::Classic)?;
//! # f.add_unlimited_dimension("time")?;
//! # f.add_variable::<f64>("time", &["time"])?;
//! # f.enddef()?;
//! # f.variable_mut("time").unwrap().put_values(&[0.0, 1.0], ..)?;
//! # f.close()?;
//! let mut file = purecdf::append(&path)?;
//! let mut time = file.variable_mut("time").unwrap();
//! let n = time.len();
//! time.put_values(&[2.0, 3.0], n..)?;
//! file.close()?;
//! assert_eq!(purecdf::open(&path)?.dimension_len("time"), Some(4));
//! # Ok::<(), purecdf::Error>(())
//! ```
//!
//! ## Groups
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("groups.nc");
//! let mut file = purecdf::create(&path)?;
//! file.add_dimension("x", 3)?;
//! let mut model = file.add_group("model")?;
//! model.add_attribute("name", "run 1")?;
//! let mut sub = model.add_group("surface")?;
//! // Dimensions of enclosing groups are visible, as in netcdf-c.
//! sub.add_variable::<f32>("t2m", &["x"])?.put_values(&[1.0, 2.0, 3.0], ..)?;
//! file.close()?;
//!
//! let file = purecdf::open(&path)?;
//! let surface = file.group("model/surface")?.unwrap();
//! assert_eq!(surface.variable("t2m").unwrap().get_values::<f32, _>(..)?, [1.0, 2.0, 3.0]);
//! let names: Vec<String> = file.groups()?.map(|g| g.name()).collect();
//! assert_eq!(names, ["model"]);
//! # Ok::<(), purecdf::Error>(())
//! ```
//!
//! ## Compression
//! netCDF-4 variables take deflate and shuffle, chunking, the other HDF5 filters netcdf-c knows
//! (zstd, bzip2, szip, blosc...; [`filter_available`]) and quantization. Complete chunks are
//! compressed on every core while the caller goes on.
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("packed.nc");
//! let mut file = purecdf::create(&path)?;
//! file.add_dimension("y", 100)?;
//! file.add_dimension("x", 100)?;
//! let mut var = file.add_variable::<f32>("field", &["y", "x"])?;
//! var.set_compression(4, true)?; // deflate level 4 with shuffle
//! var.set_chunking(&[50, 50])?;
//! var.set_quantize(Some((purecdf::Quantize::BitGroom, 3)))?; // keep 3 significant digits
//! var.put_values(&vec![1.5f32; 100 * 100], ..)?;
//! assert_eq!(var.chunking()?, Some(vec![50, 50]));
//! file.close()?;
//! assert_eq!(purecdf::open(&path)?.variable("field").unwrap().filter_ids(), [2, 1]);
//! # Ok::<(), purecdf::Error>(())
//! ```
//!
//! ## Threads
//! [`File`] is `Send + Sync` and has no lock: threads read one handle at the same time, each
//! decoding its own chunks (georust's crate serialises every call through one global mutex).
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("two.nc");
//! # let mut f = purecdf::create(&path)?;
//! # f.add_dimension("n", 1000)?;
//! # f.add_variable::<f64>("a", &["n"])?.put_values(&vec![1.0; 1000], ..)?;
//! # f.add_variable::<f64>("b", &["n"])?.put_values(&vec![2.0; 1000], ..)?;
//! # f.close()?;
//! let file = purecdf::open(&path)?;
//! let sums = std::thread::scope(|s| {
//!     let readers: Vec<_> = ["a", "b"]
//!         .into_iter()
//!         .map(|name| {
//!             let file = &file;
//!             s.spawn(move || -> purecdf::Result<f64> {
//!                 let v = file.variable(name).unwrap().get_values::<f64, _>(..)?;
//!                 Ok(v.iter().sum())
//!             })
//!         })
//!         .collect();
//!     readers.into_iter().map(|r| r.join().unwrap()).collect::<purecdf::Result<Vec<_>>>()
//! })?;
//! assert_eq!(sums, [1000.0, 2000.0]);
//! # Ok::<(), purecdf::Error>(())
//! ```
//!
//! ## Errors
//! An [`Error`] has netcdf-c's error kind ([`ErrorKind`], with its code and message) and says
//! which file, object and byte offset it concerns.
//! ```
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("e.nc");
//! # let mut f = purecdf::create(&path)?;
//! # f.add_dimension("n", 3)?;
//! # f.add_variable::<i16>("v", &["n"])?.put_values(&[1, 2, 3], ..)?;
//! # f.close()?;
//! use purecdf::ErrorKind;
//!
//! let err = purecdf::open(dir.path().join("missing.nc")).unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::NotFound);
//!
//! let file = purecdf::open(&path)?;
//! let v = file.variable("v").unwrap();
//! let err = v.get_values::<i16, _>(2..5).unwrap_err();
//! assert_eq!((err.kind(), err.nc_code()), (ErrorKind::Edge, -57)); // NC_EEDGE
//! assert_eq!(err.context().object.as_deref(), Some("v"));
//! println!("{err}"); // netcdf-c's message, then the file, the variable and the detail
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Coming from the georust `netcdf` crate
//! What its documentation shows builds unchanged (`crates/georust-compat-tests` holds its
//! examples and a test of each call). Names come back
//! as `String` (`Variable`, `Dimension`, `Group`; `name_str()` borrows instead),
//! `add_dimension` returns the [`Dimension`] (with `identifier()` for
//! `add_variable_from_identifiers`), `add_attribute`/`put_attribute` return the attribute
//! written, `get_values_into`, `get_into`, `fill_value` and `set_fill_value` take any
//! [`NcTypeDescriptor`], and names given to the adders and lookups may be paths below the group
//! (`add_variable("a/b/v", ..)`, `variable("a/b/v")`), as georust's do. [`VariableMut`] and
//! [`GroupMut`] deref to [`Variable`] and [`Group`] (pass `&var_mut` where a `&Variable` is
//! wanted); `variables_mut` and `groups_mut` are [`Iterator`]s whose handles may be held side by
//! side; `Variable::dimensions()` is a slice; [`Extent`] has georust's variants
//! (`Slice { start, stride }`, `SliceEnd`, `SliceCount`, `Index`) and conversions. Differences:
//! - No C library, no global lock; reads of one [`File`] run in parallel. The handles of a
//!   [`FileMut`] share it: each write takes its lock for the call. Metadata read through them
//!   (`&Attribute`, names, the [`Schema`]) comes from a copy of the schema made after a change
//!   and kept until the [`FileMut`] is next borrowed mutably, so references stay valid while
//!   other handles write (for the classic formats a copy is a reference count; other writers
//!   copy the schema when it changed). Writing data makes no copy for reads of names and
//!   attributes, and lengths are always read as they are now; a loop that changes metadata
//!   (attributes, renames) through shared handles and reads it back by reference makes one
//!   copy per change.
//! - [`Error`] is a struct, not an enum: it keeps netcdf-c's error kind ([`Error::kind`],
//!   [`ErrorKind`]) and where it happened (file, variable, offset), which georust's unit
//!   variants cannot carry. Match georust's variants on [`Error::as_georust`], a
//!   [`GeorustError`] with georust's names: `matches!(e.as_georust(), GeorustError::Netcdf(2))`
//!   where georust has `matches!(e, netcdf::Error::Netcdf(2))`. `AlreadyExists`, `WrongDataset`,
//!   `SliceLen`, `BufferLen` and `DimensionMismatch` come where georust gives them; any other
//!   failure is `Netcdf` with netcdf-c's status. `is_ambiguous()` is as georust's.
//! - Attributes are [`Attribute`] values (`name()`, `value()`, and the typed [`Values`]);
//!   `attribute()` lends one (`&Attribute`) and `add_attribute`/`put_attribute` return a copy
//!   of the one written.
//! - A stepped range (`(0..9).step_by(3)`) becomes an exact `Extent::SliceCount` (georust
//!   makes a `SliceEnd`); a stride below 1 is refused (NC_ESTRIDE) when the selection is used.
//! - [`open_mem`] copies the bytes ([`open_bytes`] takes them over instead).
//! - Typed compounds and enums as georust's: [`NcTypeDescriptor`] and, with the `derive`
//!   feature, `#[derive(purecdf::NcType)]` (see [`types`]); `add_type` returns a [`TypeId`],
//!   not an `nc_type`, and defines the types a compound uses rather than fail when they are
//!   missing; `add_variable_with_type` defines a user type it does not find rather than
//!   panic. A vlen type has no Rust counterpart (georust's holds netcdf-c's pointers): read
//!   and write it as [`Values::User`]. Reading a derived type matches fields by name, so files netcdf-c laid out
//!   with C's alignment read into packed Rust structs, and refuses enum values the Rust enum
//!   lacks. A user-typed variable's `fill_value` is its `_FillValue` (`None` without one).
//!   Other user types go through [`model::UserType`] and [`Values::User`]. No MPI.
//! - `get_raw_values` refuses string and user types (NC_EBADTYPE) rather than hand out
//!   netcdf-c's in-memory pointers; [`Variable::get_typed_values`] reads any type as
//!   [`Values`].
//! - Reads convert between numeric types as netcdf-c does, with NC_ERANGE for values that do
//!   not fit; scale/offset and fill masking are never applied implicitly, but on request by
//!   [`Variable::get_decoded`] (the CF conventions, as xarray decodes them; see [`cf`]), which
//!   also decodes times ([`Variable::get_datetimes`]) and char arrays as strings
//!   ([`Variable::get_char_strings`]).

#![warn(missing_debug_implementations)]

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// Internals stay private: each of these must fail to compile.
///
/// ```compile_fail
/// use purecdf::classic::ClassicFile;
/// ```
/// ```compile_fail
/// use purecdf::netcdf4::Netcdf4File;
/// ```
/// ```compile_fail
/// use purecdf::nczarr::NczarrWriter;
/// ```
/// ```compile_fail
/// use purecdf::hdf4::Hdf4Backend;
/// ```
/// ```compile_fail
/// use purecdf::io::ByteSource;
/// ```
/// ```compile_fail
/// let _ = purecdf::convert::values_to_ne_bytes;
/// ```
/// ```compile_fail
/// let _ = purecdf::model::stored_name_key;
/// ```
/// ```compile_fail
/// let _ = purecdf::cdl::print::number::push_g;
/// ```
/// ```compile_fail
/// let v = purecdf::Values::Int(vec![1]);
/// purecdf::for_each_values!(v, x => x.len(), _t, u => u.len());
/// ```
#[cfg(doctest)]
struct PrivateInternals;

// The format backends, type conversion and the rest are private; what the command-line tools
// (`purecdf-cli`) use is public API: `cdl` (parsing as ncgen, printing as ncdump) and
// `filter_spec` (netcdf-c's filter text syntax).
mod alloc;
mod attribute;
pub(crate) mod backend;
pub mod cdl;
pub mod cf;
mod classic;
mod convert;
mod dispatch;
mod error;
mod file;
pub mod filter_spec;
pub mod filters;
mod georust_error;
mod hdf4;
mod json;
pub mod model;
mod nc4def;
mod nczarr;
mod netcdf4;
mod remote;
mod selection;
pub mod types;

pub use attribute::{Attribute, AttributeValue, IntoAttributeValues};
pub use backend::{Chunking, ExtendedFormat, Format, Quantize};
pub use convert::{fill, NcElement};
pub use dispatch::{
    append, create, create_with, open, open_bytes, open_mem, open_store, open_with, OpenOptions,
};
pub use error::{Context, Error, ErrorKind, Result};
pub use file::{
    append_with, CreateOptions, Dimension, DimensionIdentifier, Endianness, File, FileMem, FileMut,
    Group, GroupMut, GroupsMut, HandlesMut, Options, Variable, VariableMut, VariablesMut,
};
pub use georust_error::GeorustError;
/// The ndarray version purecdf's array reads and writes use (any of 0.15–0.17, as Cargo
/// resolves it).
#[cfg(feature = "ndarray")]
pub use ndarray;
/// Key/value stores for Zarr datasets (directory, zip, memory).
pub use purecdf_store as store;

/// Entry points for the fuzz targets (`fuzz/`): parsers of text that touch nothing (no file,
/// no network). Not part of the API; they may change at any time.
#[doc(hidden)]
pub mod fuzzing {
    /// What `open` makes of a dataset name before touching anything: the byte-range URL form
    /// (`#mode=bytes`) and the Zarr location form (a URL or mode words; `None` for a plain
    /// path), printed.
    pub fn parse_dataset_name(name: &str) -> String {
        let bytes = crate::remote::bytes_url(name);
        let zarr = crate::nczarr::url::parse(name);
        format!("{bytes:?} {zarr:?}")
    }
}

/// Whether this build can read and write data with HDF5 filter `id` (`nc_inq_filter_avail`).
pub fn filter_available(id: u32) -> bool {
    u16::try_from(id).is_ok_and(purecdf_hdf5::filter::is_available)
}
pub use model::{DimId, GroupId, NcType, Schema, TypeId, Value, Values, VarId};
/// Derives [`NcTypeDescriptor`] for a `#[repr(C)]` struct (a compound type) or an enum with an
/// integer `repr` (an enum type); see [`types`].
#[cfg(feature = "derive")]
pub use purecdf_derive::NcType;
pub use selection::{Extent, Extents, Hyperslab};
pub use types::NcTypeDescriptor;

// The derive macro names this crate `::purecdf` (or as the user's `Cargo.toml` renames it);
// this lets its output build inside the crate too.
extern crate self as purecdf;

/// Handles are shareable between threads: concurrent reads need no lock.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<File>();
    assert_send_sync::<FileMut>();
};
