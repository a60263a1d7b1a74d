//! The internal trait every storage format implements: classic now; netCDF-4, NCZarr and HDF4 next.
//!
//! A backend owns the parsed metadata ([`Schema`]) and moves bytes: it reads and writes hyperslabs
//! of a variable in the variable's own type, native byte order. Conversion between types, extents
//! checking and fill-value handling for callers live once, in the generic layer (`file.rs`,
//! `convert.rs`), not in each backend.

use crate::error::{fail, ErrorKind, Result};
use crate::model::{GroupId, NcType, Schema, TypeId, UserType, Values, VarId};
use crate::selection::Hyperslab;

/// The storage format of a dataset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// CDF-1, the classic format (`CDF\x01`).
    Classic,
    /// CDF-2, the 64-bit offset format (`CDF\x02`).
    Offset64,
    /// CDF-5, the 64-bit data format (`CDF\x05`).
    Cdf5,
    /// netCDF-4 (HDF5-based), enhanced model.
    Netcdf4,
    /// netCDF-4 (HDF5-based) restricted to the classic model.
    Netcdf4Classic,
}

impl Format {
    /// The name `ncdump -k` prints: `classic`, `64-bit offset`, `cdf5`, `netCDF-4`,
    /// `netCDF-4 classic model`.
    pub fn kind_name(self) -> &'static str {
        match self {
            Format::Classic => "classic",
            Format::Offset64 => "64-bit offset",
            Format::Cdf5 => "cdf5",
            Format::Netcdf4 => "netCDF-4",
            Format::Netcdf4Classic => "netCDF-4 classic model",
        }
    }

    /// True for the three classic formats (CDF-1, CDF-2, CDF-5).
    pub fn is_classic_family(self) -> bool {
        matches!(self, Format::Classic | Format::Offset64 | Format::Cdf5)
    }

    /// True when the format is restricted to the classic data model.
    pub fn is_classic_model(self) -> bool {
        !matches!(self, Format::Netcdf4)
    }
}

/// The library layer that reads a dataset (netcdf-c's `NC_FORMATX_*`, what `ncdump -K` shows):
/// netCDF-4 data may live in HDF5 or in an NCZarr store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtendedFormat {
    /// The classic formats (`NC_FORMATX_NC3`).
    Nc3,
    /// HDF5 (`NC_FORMATX_NC_HDF5`).
    Hdf5,
    /// HDF4 (`NC_FORMATX_NC_HDF4`).
    Hdf4,
    /// NCZarr and Zarr stores (`NC_FORMATX_NCZARR`).
    Nczarr,
}

/// How a netCDF-4 variable stores its data (`nc_def_var_chunking`, or `_Storage` in CDL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunking {
    /// One contiguous block (`NC_CONTIGUOUS`).
    Contiguous,
    /// Inside the dataset's header, at most 64 KiB (`NC_COMPACT`).
    Compact,
    /// Chunks of these sizes, one per dimension (`NC_CHUNKED`); empty: the default sizes.
    Chunked(Vec<u64>),
}

/// A lossy quantization of float and double data (`nc_def_var_quantize`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantize {
    /// `NC_QUANTIZE_BITGROOM`: significant decimal digits, alternately shaved and set.
    BitGroom,
    /// `NC_QUANTIZE_GRANULARBR`: significant decimal digits, per value, rounded.
    GranularBitRound,
    /// `NC_QUANTIZE_BITROUND`: significant bits, rounded.
    BitRound,
}

/// Read access to one opened dataset. Implementations are `Send + Sync`: reads take `&self` and
/// must not serialise on a global lock (use positional reads).
pub(crate) trait Backend: Send + Sync {
    /// The dataset's format.
    fn format(&self) -> Format;

    /// The parsed metadata.
    fn schema(&self) -> &Schema;

    /// The layer that reads the dataset; the default follows [`Backend::format`].
    fn extended_format(&self) -> ExtendedFormat {
        if self.format().is_classic_family() {
            ExtendedFormat::Nc3
        } else {
            ExtendedFormat::Hdf5
        }
    }

    /// The `_Codecs` attribute `ncdump -s` shows for an NCZarr variable: its Zarr codecs as JSON.
    fn codecs_json(&self, _var: VarId) -> Option<String> {
        None
    }

    /// Reads the hyperslab `slab` of variable `var` (already checked against the shape) into `out`
    /// as native-endian values of the variable's atomic type, row-major; `out.len()` equals
    /// `slab.num_elements() * type size`. Only called for fixed-size atomic types.
    fn read_raw(&self, var: VarId, slab: &Hyperslab, out: &mut [u8]) -> Result<()>;

    /// For a variable one of whose dimensions the reference library cannot find (an HDF5
    /// dimension scale outside the variable's group and its ancestors): the first such axis and
    /// the error asking for its dimension gives. `None` for every other variable.
    fn dimension_error(&self, _var: VarId) -> Option<(usize, crate::Error)> {
        None
    }

    /// The error netcdf-c reports when it first reads the attributes of group `g` (or of its
    /// variable `var`), if they cannot be read; such attributes are absent from the schema.
    fn attributes_error(&self, _g: GroupId, _var: Option<VarId>) -> Option<crate::Error> {
        None
    }

    /// Reads a hyperslab as [`Values`] of the variable's type. The default goes through
    /// [`Backend::read_raw`] for fixed-size atomic types; backends with strings or user types
    /// override it.
    fn read_values(&self, var: VarId, slab: &Hyperslab) -> Result<Values> {
        read_atomic_values(self, var, slab)
    }
}

/// Reads a hyperslab of a fixed-size atomic variable as [`Values`], through
/// [`Backend::read_raw`].
pub(crate) fn read_atomic_values<B: Backend + ?Sized>(
    b: &B,
    var: VarId,
    slab: &Hyperslab,
) -> Result<Values> {
    let typ = b.schema().var(var).typ;
    let n = usize::try_from(slab.num_elements()).map_err(|_| crate::ErrorKind::NoMem)?;
    let size = typ.atomic_size().ok_or(crate::ErrorKind::BadType)?;
    let bytes = n.checked_mul(size).ok_or(crate::ErrorKind::NoMem)?;
    let mut raw = vec![0u8; bytes];
    b.read_raw(var, slab, &mut raw)?;
    crate::convert::values_from_ne_bytes(typ, &raw)
}

/// Write access: define mode operations, data writes, sync. Each method mirrors the netCDF C call
/// named in its doc and fails with the same error kinds.
pub(crate) trait BackendMut: Backend {
    /// The schema as it is now, shared, for a backend that holds it in an
    /// [`Arc`](std::sync::Arc) and changes it copy-on-write (`Arc::make_mut`); `None` (the
    /// default) when it does not, and the schema is copied to be kept.
    fn schema_arc(&self) -> Option<std::sync::Arc<Schema>> {
        None
    }
    /// `nc_redef`: enter define mode.
    fn redef(&mut self) -> Result<()>;
    /// `nc_enddef`: leave define mode; lays out the file, moves data if the header grew, writes
    /// fill values for new variables (unless no-fill).
    fn enddef(&mut self) -> Result<()>;
    /// True while in define mode.
    fn in_define_mode(&self) -> bool;
    /// `nc_def_dim` (len 0 with `unlimited` for NC_UNLIMITED).
    fn def_dim(
        &mut self,
        group: GroupId,
        name: &str,
        len: u64,
        unlimited: bool,
    ) -> Result<crate::DimId>;
    /// `nc_def_var`.
    fn def_var(
        &mut self,
        group: GroupId,
        name: &str,
        typ: NcType,
        dims: &[crate::DimId],
    ) -> Result<VarId>;
    /// `nc_put_att`: attribute of `var`, or of `group` when `var` is `None`.
    fn put_att(
        &mut self,
        group: GroupId,
        var: Option<VarId>,
        name: &str,
        values: Values,
    ) -> Result<()>;
    /// `nc_del_att`.
    fn del_att(&mut self, group: GroupId, var: Option<VarId>, name: &str) -> Result<()>;
    /// `nc_rename_dim`.
    fn rename_dim(&mut self, dim: crate::DimId, name: &str) -> Result<()>;
    /// `nc_rename_var`.
    fn rename_var(&mut self, var: VarId, name: &str) -> Result<()>;
    /// `nc_rename_att`.
    fn rename_att(
        &mut self,
        group: GroupId,
        var: Option<VarId>,
        old: &str,
        new: &str,
    ) -> Result<()>;
    /// `nc_def_var_fill` without a fill value: turns fill mode off (or on) for one variable; only
    /// in define mode.
    fn def_var_fill(&mut self, var: VarId, no_fill: bool) -> Result<()>;
    /// `nc_set_fill`: file-wide fill mode; returns the previous mode (true = fill).
    fn set_fill(&mut self, fill: bool) -> Result<bool>;
    /// Writes native-endian values of the variable's type into hyperslab `slab` (already checked
    /// against the shape, except that the unlimited dimension may grow).
    fn write_raw(&mut self, var: VarId, slab: &Hyperslab, data: &[u8]) -> Result<()>;
    /// `nc_sync`: flush everything written so far to stable storage.
    fn sync(&mut self) -> Result<()>;
    /// `nc_def_grp`: a child group (netCDF-4 only).
    fn def_grp(&mut self, _parent: GroupId, _name: &str) -> Result<GroupId> {
        fail(ErrorKind::NotNc4, "groups need a netCDF-4 file")
    }
    /// `nc_rename_grp` (netCDF-4 only).
    fn rename_grp(&mut self, _group: GroupId, _name: &str) -> Result<()> {
        fail(ErrorKind::NotNc4, "groups need a netCDF-4 file")
    }
    /// `nc_def_compound` / `nc_def_vlen` / `nc_def_enum` / `nc_def_opaque` with all their
    /// members at once (netCDF-4 only).
    fn def_type(&mut self, _group: GroupId, _t: UserType) -> Result<TypeId> {
        fail(ErrorKind::NotNc4, "user-defined types need a netCDF-4 file")
    }
    /// `nc_def_var_chunking` (netCDF-4 only).
    fn def_var_chunking(&mut self, _var: VarId, _chunking: Chunking) -> Result<()> {
        fail(ErrorKind::NotNc4, "chunking needs a netCDF-4 file")
    }
    /// `nc_def_var_deflate`: shuffle, and deflate at a level 1–9 (`None`: no deflate).
    fn def_var_deflate(&mut self, _var: VarId, _shuffle: bool, _level: Option<u32>) -> Result<()> {
        fail(ErrorKind::NotNc4, "compression needs a netCDF-4 file")
    }
    /// `nc_def_var_fletcher32`.
    fn def_var_fletcher32(&mut self, _var: VarId, _on: bool) -> Result<()> {
        fail(ErrorKind::NotNc4, "checksums need a netCDF-4 file")
    }
    /// `nc_def_var_endian`: `Some(true)` big-endian, `Some(false)` little, `None` native.
    fn def_var_endian(&mut self, _var: VarId, _big: Option<bool>) -> Result<()> {
        fail(ErrorKind::NotNc4, "byte order needs a netCDF-4 file")
    }
    /// `nc_def_var_quantize`: quantize float or double data to `nsd` significant digits (bits
    /// for BitRound) before it is stored; `None` turns quantization off.
    fn def_var_quantize(&mut self, _var: VarId, _q: Option<(Quantize, i32)>) -> Result<()> {
        fail(ErrorKind::NotNc4, "quantization needs a netCDF-4 file")
    }
    /// `nc_def_var_filter`: an HDF5 filter id and its parameters, appended to the pipeline.
    fn def_var_filter(&mut self, _var: VarId, _id: u32, _params: &[u32]) -> Result<()> {
        fail(ErrorKind::NotNc4, "filters need a netCDF-4 file")
    }
    /// Writes values of the variable's own type (strings and user types included) into
    /// `slab`. The default handles fixed-size atomic types through [`BackendMut::write_raw`].
    fn write_values(&mut self, var: VarId, slab: &Hyperslab, values: &Values) -> Result<()> {
        let raw = crate::convert::values_to_ne_bytes(values)?;
        self.write_raw(var, slab, &raw)
    }
    /// `nc_close`: leave define mode if needed, flush and sync.
    fn close(&mut self) -> Result<()>;
    /// What a netcdf-c program that exits without `nc_close` leaves (see
    /// [`crate::FileMut::abandon`]); by default, a close.
    fn abandon(&mut self) -> Result<()> {
        self.close()
    }
}
