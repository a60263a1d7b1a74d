//! Writing netCDF-4 and netCDF-4 classic model files through our HDF5 writer
//! (`purecdf_hdf5::write`), per the file format spec's "NetCDF-4 Format" section and netcdf-c
//! 4.9.0's conventions (what ncdump -s reports must come out the same):
//!
//! - the definitions live in the [`Schema`]; [`Netcdf4Writer`] turns them into HDF5 objects at
//!   `enddef` (or the first data access, or `sync`/`close`) in netcdf-c's order: groups and
//!   committed types first (preorder), then per group its attributes, its pure dimensions and
//!   variables interleaved as netcdf-c interleaves them, then the dimension-scale attachments
//!   (`DIMENSION_LIST`, `REFERENCE_LIST`) and, once, `_NCProperties`;
//! - every dimension is a dimension scale: the coordinate variable's dataset, or a pure
//!   dimension dataset (`NAME` "This is a netCDF dimension but not a netCDF variable." with the
//!   length); `_Netcdf4Dimid` on scales, `_Netcdf4Coordinates` on every variable with
//!   dimensions, the `_nc4_non_coord_` prefix for a variable named like a dimension it is not
//!   the coordinate of, `_nc3_strict` for the classic model;
//! - storage: contiguous by default, chunked (with netcdf-c's default chunk sizes) when a
//!   dimension is unlimited or a filter is set, compact on request; filters in netcdf-c's order
//!   (fletcher32, shuffle, then deflate and the others); the fill value message holds
//!   `_FillValue` or the type's default, or nothing when fill is off.
//!
//! Attributes are reconciled with the HDF5 objects at each of those points: a changed value is
//! deleted and written anew (so, as with netcdf-c, it comes last once the file is reopened).
//! `sync` flushes the HDF5 writer durably, `close` without the fsyncs as netcdf-c's `nc_close` (see
//! the writer's "Nothing lost" notes).

mod data;
mod define;
mod materialize;
pub(crate) mod types;

use std::path::Path;

use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::write::{Hdf5Writer, ObjId, WriteError};

use crate::backend::{Backend, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{NcType, Schema, Values, VarId};
use crate::nc4def::Defs;
use crate::selection::Hyperslab;

/// Converts an HDF5 writer error into a netCDF one.
pub(crate) fn hw(e: WriteError) -> Error {
    match e {
        WriteError::Io(e) => Error::io(e),
        WriteError::Format(f) => super::hdf(f),
        WriteError::Invalid(s) => Error::with_detail(ErrorKind::Hdf, s),
        other => Error::with_detail(ErrorKind::Hdf, other.to_string()),
    }
}

/// A variable's HDF5 dataset, once created.
#[derive(Debug, Clone, Default)]
pub(crate) struct H5Var {
    /// The dataset (`None` until created).
    pub(crate) ds: Option<ObjId>,
    /// The HDF5 type of the dataset (once created).
    pub(crate) dtype: Option<Datatype>,
}

/// An open netCDF-4 file being written.
pub(crate) struct Netcdf4Writer {
    pub(crate) w: Hdf5Writer,
    /// The definitions (schema, modes, storage settings).
    pub(crate) defs: Defs,
    /// HDF5 group of each netCDF group (`None` until created).
    pub(crate) groups: Vec<Option<ObjId>>,
    /// Committed datatype of each user type.
    pub(crate) types: Vec<Option<ObjId>>,
    /// Pure-dimension dataset of each dimension (coordinate variables' dims use the variable).
    pub(crate) dims: Vec<Option<ObjId>>,
    /// Dataset of each variable.
    pub(crate) h5vars: Vec<H5Var>,
    /// netCDF dimension ids (global), by dimension.
    pub(crate) dimids: Vec<i32>,
    pub(crate) closed: bool,
    pub(crate) wrote_properties: bool,
    /// Dimensions that came with an opened file (never given a new scale dataset).
    pub(crate) loaded_dims: usize,
}

impl std::fmt::Debug for Netcdf4Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Netcdf4Writer")
            .field("format", &self.defs.format)
            .finish()
    }
}

impl Drop for Netcdf4Writer {
    /// Closes a file that was not closed explicitly; errors are lost here. The encoders' kept
    /// buffers are freed.
    fn drop(&mut self) {
        if !self.closed {
            let _ = crate::backend::BackendMut::close(self);
        }
        purecdf_codecs::buffers::release();
    }
}

impl Netcdf4Writer {
    /// Creates a file (clobbering unless `noclobber`) in define mode.
    ///
    /// # Errors
    /// NC_EEXIST with `noclobber` when the file exists; system errors.
    pub(crate) fn create(path: &Path, format: Format, noclobber: bool) -> Result<Netcdf4Writer> {
        if noclobber && path.exists() {
            return Err(Error::new(ErrorKind::Exist));
        }
        let w = Hdf5Writer::create(path).map_err(Error::io)?;
        let root = w.root();
        Ok(Netcdf4Writer {
            w,
            defs: Defs::new(format),
            groups: vec![Some(root)],
            types: Vec::new(),
            dims: Vec::new(),
            h5vars: Vec::new(),
            dimids: Vec::new(),
            closed: false,
            wrote_properties: false,
            loaded_dims: 0,
        })
    }

    /// Opens an existing netCDF-4 file for writing (data mode).
    ///
    /// # Errors
    /// As reading the file; NC_EHDFERR for HDF5 structures the writer cannot carry over.
    pub(crate) fn open(path: &Path) -> Result<Netcdf4Writer> {
        let w = Hdf5Writer::open(path).map_err(hw)?;
        define::load_existing(w)
    }

    /// True when the variable's numbers are stored big-endian.
    pub(crate) fn is_big_endian(&self, var: VarId) -> bool {
        match self.h5vars.get(var.0).and_then(|v| v.dtype.as_ref()) {
            Some(dt) => super::types::is_big_endian(dt),
            None => self
                .defs
                .vars
                .get(var.0)
                .and_then(|v| v.big_endian)
                .unwrap_or(false),
        }
    }
}

impl Backend for Netcdf4Writer {
    fn format(&self) -> Format {
        self.defs.format
    }

    fn schema(&self) -> &Schema {
        &self.defs.schema
    }

    fn read_raw(&self, var: VarId, slab: &Hyperslab, out: &mut [u8]) -> Result<()> {
        data::read_raw(self, var, slab, out)
    }

    fn read_values(&self, var: VarId, slab: &Hyperslab) -> Result<Values> {
        let typ = self.defs.schema.var(var).typ;
        match typ {
            NcType::String | NcType::User(_) => data::read_values(self, var, slab),
            _ => crate::backend::read_atomic_values(self, var, slab),
        }
    }
}
