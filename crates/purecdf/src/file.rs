//! The user-facing handles: [`File`] (read) and [`FileMut`] (write, derefs to `File`), and
//! [`Variable`], a borrowed view of one variable with typed hyperslab reads.
//!
//! Whatever the format, these types are the same; the format is a [`Backend`] behind them.

use std::path::{Path, PathBuf};

use crate::alloc::zeroed;
use crate::backend::{Backend, BackendMut, Format};
use crate::convert::{self, NcElement};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{Attribute, DimId, Dimension, GroupId, NcType, Schema, Values, VarId, ROOT};
use crate::selection::{Extents, Hyperslab};

pub(crate) enum Handle {
    Read(Box<dyn Backend>),
    Write(Box<dyn BackendMut>),
}

/// An open netCDF dataset, any format. `Send + Sync`: share it between threads for concurrent reads.
pub struct File {
    handle: Handle,
    path: PathBuf,
}

impl std::fmt::Debug for File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("File")
            .field("path", &self.path)
            .field("format", &self.format())
            .finish()
    }
}

impl File {
    pub(crate) fn from_backend(backend: Box<dyn Backend>, path: PathBuf) -> File {
        File {
            handle: Handle::Read(backend),
            path,
        }
    }

    /// For a variable one of whose dimensions netcdf-c cannot find (an HDF5 dimension scale
    /// outside the variable's group and its ancestors): the first such axis and the error
    /// (NC_EBADDIM) asking for that dimension gives. The schema gives such an axis a dimension
    /// in no group, so the variable's shape and data stay readable.
    pub fn dimension_error(&self, var: VarId) -> Option<(usize, Error)> {
        self.backend().dimension_error(var)
    }

    pub(crate) fn backend(&self) -> &dyn Backend {
        match &self.handle {
            Handle::Read(b) => b.as_ref(),
            Handle::Write(b) => {
                let b: &dyn BackendMut = b.as_ref();
                b
            }
        }
    }

    /// The storage format.
    pub fn format(&self) -> Format {
        self.backend().format()
    }

    /// The library layer reading the dataset (HDF5 or NCZarr for netCDF-4 data).
    pub fn extended_format(&self) -> crate::ExtendedFormat {
        self.backend().extended_format()
    }

    /// The Zarr codecs of an NCZarr variable as JSON text (`_Codecs` in `ncdump -s`).
    pub fn codecs_json(&self, var: VarId) -> Option<String> {
        self.backend().codecs_json(var)
    }

    /// The path the file was opened with.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// All metadata: groups, dimensions, variables, attributes and types.
    pub fn schema(&self) -> &Schema {
        self.backend().schema()
    }

    /// A variable by name in the root group, or by absolute path (`/grp/var`).
    pub fn variable(&self, name: &str) -> Option<Variable<'_>> {
        let s = self.schema();
        let (g, leaf) = self.resolve_path(name)?;
        s.find_var(g, leaf).map(|id| Variable { file: self, id })
    }

    /// A variable by id.
    pub fn variable_by_id(&self, id: VarId) -> Variable<'_> {
        Variable { file: self, id }
    }

    /// Variables of the root group, in definition order.
    pub fn variables(&self) -> impl Iterator<Item = Variable<'_>> {
        self.group_variables(ROOT)
    }

    /// Variables of a group, in definition order.
    pub fn group_variables(&self, g: GroupId) -> impl Iterator<Item = Variable<'_>> {
        self.schema()
            .group(g)
            .vars
            .iter()
            .map(move |&id| Variable { file: self, id })
    }

    /// Dimensions of the root group, in definition order.
    pub fn dimensions(&self) -> impl Iterator<Item = &Dimension> {
        let s = self.schema();
        s.group(ROOT).dims.iter().map(move |d| s.dim(*d))
    }

    /// A root-group dimension by name.
    pub fn dimension(&self, name: &str) -> Option<&Dimension> {
        let s = self.schema();
        s.find_dim(ROOT, name).map(|d| s.dim(d))
    }

    /// Global attributes, in creation order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.schema().group(ROOT).atts.iter()
    }

    /// A global attribute by name.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.schema()
            .group(ROOT)
            .atts
            .iter()
            .find(|a| a.name == name)
    }

    fn resolve_path<'n>(&self, name: &'n str) -> Option<(GroupId, &'n str)> {
        let s = self.schema();
        let Some(rest) = name.strip_prefix('/') else {
            return Some((ROOT, name));
        };
        let mut parts: Vec<&str> = rest.split('/').collect();
        let leaf = parts.pop()?;
        let mut g = ROOT;
        for p in parts {
            g = s.find_group(g, p)?;
        }
        Some((g, leaf))
    }

    fn check_slab(&self, var: VarId, extents: &Extents, writing: bool) -> Result<Hyperslab> {
        let s = self.schema();
        let shape = s.shape(var);
        let slab = extents.to_hyperslab(&shape)?;
        let growable: Vec<bool> = s
            .var(var)
            .dims
            .iter()
            .map(|d| s.dim(*d).unlimited)
            .collect();
        slab.check_growable(&shape, &growable, writing)
            .map_err(|e| e.object(s.var(var).name.clone()))?;
        Ok(slab)
    }
}

/// A borrowed view of one variable.
#[derive(Clone, Copy)]
pub struct Variable<'f> {
    file: &'f File,
    id: VarId,
}

impl<'f> Variable<'f> {
    fn def(&self) -> &'f crate::model::Variable {
        self.file.schema().var(self.id)
    }

    /// The variable's id.
    pub fn id(&self) -> VarId {
        self.id
    }

    /// The variable's name.
    pub fn name(&self) -> &'f str {
        &self.def().name
    }

    /// The variable's type.
    pub fn vartype(&self) -> NcType {
        self.def().typ
    }

    /// The variable's dimensions, outermost first.
    pub fn dimensions(&self) -> Vec<&'f Dimension> {
        let s = self.file.schema();
        self.def().dims.iter().map(|d| s.dim(*d)).collect()
    }

    /// Current shape (lengths of the dimensions).
    pub fn shape(&self) -> Vec<u64> {
        self.file.schema().shape(self.id)
    }

    /// Total number of elements (saturating at `u64::MAX` for absurd shapes from corrupt files).
    pub fn len(&self) -> u64 {
        self.shape()
            .iter()
            .try_fold(1u64, |a, d| a.checked_mul(*d))
            .unwrap_or(u64::MAX)
    }

    /// True when the variable holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Attributes in creation order.
    pub fn attributes(&self) -> impl Iterator<Item = &'f Attribute> {
        self.def().atts.iter()
    }

    /// An attribute by name.
    pub fn attribute(&self, name: &str) -> Option<&'f Attribute> {
        self.def().att(name)
    }

    /// The HDF5 ids of the variable's filters in pipeline order (`nc_inq_var_filter_ids`;
    /// empty for classic files and unfiltered variables).
    pub fn filter_ids(&self) -> Vec<u32> {
        self.def().storage.filters.iter().map(|f| f.0).collect()
    }

    /// The parameters of filter `id` on the variable (`nc_inq_var_filter_info`).
    ///
    /// # Errors
    /// [`ErrorKind::NoFilter`] when the variable has no such filter.
    pub fn filter_params(&self, id: u32) -> Result<Vec<u32>> {
        match self.def().storage.filters.iter().find(|f| f.0 == id) {
            Some(f) => Ok(f.1.clone()),
            None => fail(
                ErrorKind::NoFilter,
                format!("variable {} has no filter {id}", self.name()),
            ),
        }
    }

    /// The fill value in effect: `_FillValue` if it has the variable's type and one value, else the
    /// type's default (`None` for types without one).
    pub fn fill_value(&self) -> Option<Values> {
        match self.attribute("_FillValue") {
            Some(a) if a.values.nc_type() == self.vartype() && a.values.len() == 1 => {
                Some(a.values.clone())
            }
            _ => convert::default_fill(self.vartype()),
        }
    }

    /// Reads a selection in the variable's own type.
    pub fn get_raw_values(&self, extents: impl Into<Extents>) -> Result<Values> {
        let slab = self.file.check_slab(self.id, &extents.into(), false)?;
        self.file
            .backend()
            .read_values(self.id, &slab)
            .map_err(|e| e.object(self.name()))
    }

    /// Reads a selection as native-endian bytes of the variable's own fixed-size atomic type into
    /// `out` (resized to fit, its allocation reused), for bulk copies that should not convert or
    /// reallocate per call.
    ///
    /// # Errors
    /// As [`Variable::get_raw_values`]; NC_EBADTYPE for string and user-defined types.
    pub fn get_raw_bytes(&self, extents: impl Into<Extents>, out: &mut Vec<u8>) -> Result<()> {
        let slab = self.file.check_slab(self.id, &extents.into(), false)?;
        let size = raw_size(self.vartype(), self.name())?;
        let n = usize::try_from(slab.num_elements()).map_err(|_| Error::new(ErrorKind::NoMem))?;
        // Every byte is overwritten by the read, so a buffer of the right length is not cleared.
        out.resize(n.checked_mul(size).ok_or(ErrorKind::NoMem)?, 0);
        self.file
            .backend()
            .read_raw(self.id, &slab, out)
            .map_err(|e| e.object(self.name()))
    }

    /// Reads a selection converted to `T` (NC_ERANGE if a value does not fit; NC_ECHAR for text).
    /// `u8` reads char variables as raw text.
    pub fn get_values<T: NcElement>(&self, extents: impl Into<Extents>) -> Result<Vec<T>> {
        let slab = self.file.check_slab(self.id, &extents.into(), false)?;
        let typ = self.vartype();
        let n = usize::try_from(slab.num_elements()).map_err(|_| Error::new(ErrorKind::NoMem))?;
        let size = typ
            .atomic_size()
            .filter(|_| typ.is_numeric() || typ == NcType::Char);
        let Some(size) = size else {
            return fail(
                ErrorKind::BadType,
                format!("{} is not numeric", self.name()),
            );
        };
        let bytes = n.checked_mul(size).ok_or(ErrorKind::NoMem)?;
        if T::NC_TYPE == typ || raw_byte_access(self.file.format(), typ, T::NC_TYPE) {
            // Same representation: read straight into the caller's vector.
            let mut out = zeroed::<T>(n)?;
            if let Some(b) = bytes_of_mut(&mut out).filter(|b| b.len() == bytes) {
                self.file
                    .backend()
                    .read_raw(self.id, &slab, b)
                    .map_err(|e| e.object(self.name()))?;
                return Ok(out);
            }
        }
        let mut raw = zeroed::<u8>(bytes)?;
        self.file
            .backend()
            .read_raw(self.id, &slab, &mut raw)
            .map_err(|e| e.object(self.name()))?;
        if raw_byte_access(self.file.format(), typ, T::NC_TYPE) {
            return Ok(raw.chunks_exact(1).map(T::read_ne).collect());
        }
        let mut out = Vec::with_capacity(n);
        convert::convert_raw::<T>(typ, &raw, &mut out).map_err(|e| e.object(self.name()))?;
        Ok(out)
    }

    /// Reads one value at an index (one entry per dimension; empty for a scalar).
    pub fn get_value<T: NcElement>(&self, index: &[u64]) -> Result<T> {
        let ones = vec![1u64; index.len()];
        let v = self.get_values::<T>((index, ones.as_slice()))?;
        v.into_iter()
            .next()
            .ok_or_else(|| Error::new(ErrorKind::InvalidCoords))
    }

    /// Reads a selection of a char variable as text bytes.
    pub fn get_text(&self, extents: impl Into<Extents>) -> Result<Vec<u8>> {
        match self.get_raw_values(extents)? {
            Values::Char(c) => Ok(c),
            _ => fail(
                ErrorKind::Char,
                format!("{} is not a char variable", self.name()),
            ),
        }
    }

    /// Reads a selection as an n-dimensional array converted to `T`.
    #[cfg(feature = "ndarray")]
    pub fn get<T: NcElement>(&self, extents: impl Into<Extents>) -> Result<ndarray::ArrayD<T>> {
        let extents = extents.into();
        let slab = self.file.check_slab(self.id, &extents, false)?;
        let shape: Vec<usize> = slab.count.iter().map(|&c| c as usize).collect();
        let v = self.get_values::<T>(extents)?;
        ndarray::ArrayD::from_shape_vec(shape, v).map_err(|_| Error::new(ErrorKind::Edge))
    }
}

/// True when `u8` memory data moves to and from a variable as raw bytes, with no conversion or
/// range check: text for char variables, and (as netcdf-c does for CDF-1/CDF-2, where "byte" may be
/// signed or unsigned) `NC_BYTE` variables read or written as `u8`.
fn raw_byte_access(format: Format, var_type: NcType, mem_type: NcType) -> bool {
    mem_type == NcType::UByte
        && (var_type == NcType::Char
            || (var_type == NcType::Byte && matches!(format, Format::Classic | Format::Offset64)))
}

/// Size of one value for the raw byte API: fixed-size atomic types only.
fn raw_size(typ: NcType, name: &str) -> Result<usize> {
    match typ.atomic_size() {
        Some(size) if typ != NcType::String => Ok(size),
        _ => fail(
            ErrorKind::BadType,
            format!("{name}: raw bytes need a fixed-size atomic type"),
        ),
    }
}

/// Options for creating a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreateOptions {
    /// The format to write.
    pub format: Format,
    /// Fail with NC_EEXIST if the file exists (NC_NOCLOBBER).
    pub noclobber: bool,
    /// Write the file as netcdf-c does for `NC_DISKLESS | NC_PERSIST` (an in-memory file
    /// written out at close, `nccopy -w`), whose bytes can differ from a file written through
    /// netcdf-c's page buffer: its length is the end of every region ever accessed and its
    /// unwritten space is zeros.
    pub diskless: bool,
}

impl Default for CreateOptions {
    fn default() -> Self {
        CreateOptions {
            format: Format::Classic,
            noclobber: false,
            diskless: false,
        }
    }
}

/// A dataset open for writing. Derefs to [`File`] for everything that reads.
pub struct FileMut {
    file: File,
}

impl std::ops::Deref for FileMut {
    type Target = File;
    fn deref(&self) -> &File {
        &self.file
    }
}

impl FileMut {
    pub(crate) fn from_backend(backend: Box<dyn BackendMut>, path: PathBuf) -> FileMut {
        FileMut {
            file: File {
                handle: Handle::Write(backend),
                path,
            },
        }
    }

    fn backend_mut(&mut self) -> &mut dyn BackendMut {
        match &mut self.file.handle {
            Handle::Write(b) => b.as_mut(),
            Handle::Read(_) => unreachable!("FileMut always holds a writable backend"),
        }
    }

    fn with_path<T>(&self, r: Result<T>) -> Result<T> {
        r.map_err(|e| e.path(self.file.path.clone()))
    }

    /// `nc_redef`.
    pub fn redef(&mut self) -> Result<()> {
        let r = self.backend_mut().redef();
        self.with_path(r)
    }

    /// `nc_enddef`.
    pub fn enddef(&mut self) -> Result<()> {
        let r = self.backend_mut().enddef();
        self.with_path(r)
    }

    /// True while in define mode.
    pub fn in_define_mode(&self) -> bool {
        match &self.file.handle {
            Handle::Write(b) => b.in_define_mode(),
            Handle::Read(_) => false,
        }
    }

    /// `nc_set_fill`; returns the previous mode (true = fill).
    pub fn set_fill(&mut self, fill: bool) -> Result<bool> {
        self.backend_mut().set_fill(fill)
    }

    /// `nc_def_var_fill` (without a fill value): fill mode off (`true`) or on for one variable,
    /// in define mode.
    pub fn def_var_fill(&mut self, var: VarId, no_fill: bool) -> Result<()> {
        let r = self.backend_mut().def_var_fill(var, no_fill);
        self.with_path(r)
    }

    /// Adds a fixed-length dimension to the root group.
    pub fn add_dimension(&mut self, name: &str, len: u64) -> Result<DimId> {
        self.add_dimension_in(ROOT, name, len, false)
    }

    /// Adds an unlimited dimension to the root group.
    pub fn add_unlimited_dimension(&mut self, name: &str) -> Result<DimId> {
        self.add_dimension_in(ROOT, name, 0, true)
    }

    /// Adds a dimension to a group.
    pub fn add_dimension_in(
        &mut self,
        g: GroupId,
        name: &str,
        len: u64,
        unlimited: bool,
    ) -> Result<DimId> {
        let r = self.backend_mut().def_dim(g, name, len, unlimited);
        self.with_path(r)
    }

    /// Adds a variable of memory type `T` over named root-group dimensions.
    pub fn add_variable<T: NcElement>(&mut self, name: &str, dims: &[&str]) -> Result<VarId> {
        self.add_variable_with_type(name, T::NC_TYPE, dims)
    }

    /// Adds a variable of any type over named root-group dimensions.
    pub fn add_variable_with_type(
        &mut self,
        name: &str,
        typ: NcType,
        dims: &[&str],
    ) -> Result<VarId> {
        let mut ids = Vec::with_capacity(dims.len());
        for d in dims {
            let id = self.schema().find_dim_visible(ROOT, d);
            ids.push(id.ok_or_else(|| {
                Error::with_detail(ErrorKind::BadDim, format!("no dimension {d}"))
            })?);
        }
        self.add_variable_in(ROOT, name, typ, &ids)
    }

    /// Adds a variable to a group over dimension ids.
    pub fn add_variable_in(
        &mut self,
        g: GroupId,
        name: &str,
        typ: NcType,
        dims: &[DimId],
    ) -> Result<VarId> {
        let r = self.backend_mut().def_var(g, name, typ, dims);
        self.with_path(r)
    }

    /// Sets a global attribute.
    pub fn add_attribute(&mut self, name: &str, values: impl Into<Values>) -> Result<()> {
        let r = self.backend_mut().put_att(ROOT, None, name, values.into());
        self.with_path(r)
    }

    /// Sets an attribute of a variable, or of group `g` when `var` is `None`.
    pub fn put_attribute(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        values: impl Into<Values>,
    ) -> Result<()> {
        let r = self.backend_mut().put_att(g, var, name, values.into());
        self.with_path(r)
    }

    /// Deletes an attribute (`nc_del_att`).
    pub fn delete_attribute(&mut self, g: GroupId, var: Option<VarId>, name: &str) -> Result<()> {
        let r = self.backend_mut().del_att(g, var, name);
        self.with_path(r)
    }

    /// Renames a dimension.
    pub fn rename_dimension(&mut self, dim: DimId, name: &str) -> Result<()> {
        let r = self.backend_mut().rename_dim(dim, name);
        self.with_path(r)
    }

    /// Renames a variable.
    pub fn rename_variable(&mut self, var: VarId, name: &str) -> Result<()> {
        let r = self.backend_mut().rename_var(var, name);
        self.with_path(r)
    }

    /// Renames an attribute.
    pub fn rename_attribute(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        old: &str,
        new: &str,
    ) -> Result<()> {
        let r = self.backend_mut().rename_att(g, var, old, new);
        self.with_path(r)
    }

    /// Writes `values` (memory type `T`) into a selection, converting to the variable's type.
    /// `u8` writes char variables as raw text.
    pub fn put_values<T: NcElement>(
        &mut self,
        var: VarId,
        values: &[T],
        extents: impl Into<Extents>,
    ) -> Result<()> {
        let slab = self.file.check_slab(var, &extents.into(), true)?;
        let n = slab.num_elements();
        if n != values.len() as u64 {
            return fail(
                ErrorKind::Edge,
                format!("{} values for a selection of {n}", values.len()),
            );
        }
        let typ = self.schema().var(var).typ;
        if T::NC_TYPE == typ || raw_byte_access(self.format(), typ, T::NC_TYPE) {
            // Same representation: hand the caller's values to the backend as they are.
            let want = values.len() * typ.atomic_size().unwrap_or(0);
            if let Some(b) = bytes_of(values).filter(|b| b.len() == want) {
                let r = self.backend_mut().write_raw(var, &slab, b);
                return self.with_path(r);
            }
        }
        let mut raw = Vec::with_capacity(values.len() * typ.atomic_size().unwrap_or(1));
        let conv = if raw_byte_access(self.format(), typ, T::NC_TYPE) {
            for v in values {
                let mut b = [0u8; 1];
                v.write_ne(&mut b);
                raw.push(b[0]);
            }
            Ok(())
        } else {
            convert::convert_to_raw(values, typ, &mut raw)
        };
        // A range error still writes the (fill-substituted) values, as netcdf-c does.
        let r = self.backend_mut().write_raw(var, &slab, &raw);
        self.with_path(r.and(conv))
    }

    /// Writes values already in the variable's own type into a selection.
    pub fn put_raw_values(
        &mut self,
        var: VarId,
        values: &Values,
        extents: impl Into<Extents>,
    ) -> Result<()> {
        let slab = self.file.check_slab(var, &extents.into(), true)?;
        if slab.num_elements() != values.len() as u64 {
            return fail(
                ErrorKind::Edge,
                format!(
                    "{} values for a selection of {}",
                    values.len(),
                    slab.num_elements()
                ),
            );
        }
        let typ = self.schema().var(var).typ;
        let values = if values.nc_type() == typ {
            values.clone()
        } else {
            convert::convert_values(values, typ)?
        };
        let r = self.backend_mut().write_values(var, &slab, &values);
        self.with_path(r)
    }

    /// Writes native-endian bytes of the variable's own fixed-size atomic type into a selection
    /// (the counterpart of [`Variable::get_raw_bytes`]).
    ///
    /// # Errors
    /// As [`FileMut::put_raw_values`]; NC_EBADTYPE for string and user-defined types, NC_EEDGE
    /// when `data` does not hold exactly the selection.
    pub fn put_raw_bytes(
        &mut self,
        var: VarId,
        data: &[u8],
        extents: impl Into<Extents>,
    ) -> Result<()> {
        let slab = self.file.check_slab(var, &extents.into(), true)?;
        let def = self.schema().var(var);
        let size = raw_size(def.typ, &def.name)? as u64;
        if slab.num_elements().checked_mul(size) != Some(data.len() as u64) {
            return fail(
                ErrorKind::Edge,
                format!(
                    "{} bytes for a selection of {} values of {size} bytes",
                    data.len(),
                    slab.num_elements()
                ),
            );
        }
        let r = self.backend_mut().write_raw(var, &slab, data);
        self.with_path(r)
    }

    /// Adds a child group (`nc_def_grp`; netCDF-4 only).
    pub fn add_group(&mut self, parent: GroupId, name: &str) -> Result<GroupId> {
        let r = self.backend_mut().def_grp(parent, name);
        self.with_path(r)
    }

    /// Renames a group (`nc_rename_grp`; netCDF-4 only).
    pub fn rename_group(&mut self, group: GroupId, name: &str) -> Result<()> {
        let r = self.backend_mut().rename_grp(group, name);
        self.with_path(r)
    }

    /// Defines a user type (compound, vlen, enum or opaque) in a group, with all its members
    /// (`nc_def_compound` + `nc_insert_compound`, `nc_def_vlen`, `nc_def_enum` +
    /// `nc_insert_enum`, `nc_def_opaque`; netCDF-4 only).
    pub fn add_type(&mut self, group: GroupId, t: crate::model::UserType) -> Result<crate::TypeId> {
        let r = self.backend_mut().def_type(group, t);
        self.with_path(r)
    }

    /// `nc_def_var_chunking`: contiguous, compact, or chunked storage (netCDF-4 only).
    pub fn def_var_chunking(&mut self, var: VarId, chunking: crate::Chunking) -> Result<()> {
        let r = self.backend_mut().def_var_chunking(var, chunking);
        self.with_path(r)
    }

    /// `nc_def_var_deflate`: shuffle and deflate level (1–9; `None` or 0: no deflate).
    pub fn def_var_deflate(&mut self, var: VarId, shuffle: bool, level: Option<u32>) -> Result<()> {
        let r = self.backend_mut().def_var_deflate(var, shuffle, level);
        self.with_path(r)
    }

    /// `nc_def_var_fletcher32`.
    pub fn def_var_fletcher32(&mut self, var: VarId, on: bool) -> Result<()> {
        let r = self.backend_mut().def_var_fletcher32(var, on);
        self.with_path(r)
    }

    /// `nc_def_var_endian`: `Some(true)` big-endian, `Some(false)` little, `None` native.
    pub fn def_var_endian(&mut self, var: VarId, big: Option<bool>) -> Result<()> {
        let r = self.backend_mut().def_var_endian(var, big);
        self.with_path(r)
    }

    /// `nc_def_var_quantize`: `nsd` significant digits (bits for BitRound) kept of float or
    /// double data; `None` turns quantization off.
    pub fn def_var_quantize(
        &mut self,
        var: VarId,
        q: Option<(crate::Quantize, i32)>,
    ) -> Result<()> {
        let r = self.backend_mut().def_var_quantize(var, q);
        self.with_path(r)
    }

    /// `nc_def_var_filter`: an HDF5 filter id and its parameters.
    pub fn def_var_filter(&mut self, var: VarId, id: u32, params: &[u32]) -> Result<()> {
        let r = self.backend_mut().def_var_filter(var, id, params);
        self.with_path(r)
    }

    /// `nc_sync`: flush and sync to stable storage. For a netCDF-4 file, a process that dies
    /// after `sync` returned (even by SIGKILL) leaves a file that opens with at least everything
    /// written before it; before the first `sync` or `close` of a created file, one that is
    /// refused as not netCDF (see `purecdf_hdf5::write`, "Nothing lost"; `tests/crash.rs`).
    pub fn sync(&mut self) -> Result<()> {
        let r = self.backend_mut().sync();
        self.with_path(r)
    }

    /// `nc_close`: end define mode if needed, write everything out and close. As with netcdf-c,
    /// the data is handed to the operating system, not forced to the disk (call
    /// [`FileMut::sync`] first for that).
    pub fn close(mut self) -> Result<()> {
        let r = self.backend_mut().close();
        self.with_path(r)
    }

    /// Gives up write access (after a successful [`FileMut::sync`]) and keeps a read handle.
    pub fn into_file(self) -> File {
        self.file
    }
}

macro_rules! values_from_vec {
    ($t:ty, $v:ident) => {
        impl From<Vec<$t>> for Values {
            fn from(v: Vec<$t>) -> Self {
                Values::$v(v)
            }
        }
        impl From<$t> for Values {
            fn from(v: $t) -> Self {
                Values::$v(vec![v])
            }
        }
    };
}
values_from_vec!(i8, Byte);
values_from_vec!(i16, Short);
values_from_vec!(i32, Int);
values_from_vec!(f32, Float);
values_from_vec!(f64, Double);
values_from_vec!(u8, UByte);
values_from_vec!(u16, UShort);
values_from_vec!(u32, UInt);
values_from_vec!(i64, Int64);
values_from_vec!(u64, UInt64);

impl From<&str> for Values {
    /// A char attribute holding the text.
    fn from(s: &str) -> Self {
        Values::Char(s.as_bytes().to_vec())
    }
}

impl From<String> for Values {
    /// A char attribute holding the text.
    fn from(s: String) -> Self {
        Values::Char(s.into_bytes())
    }
}

/// True for the primitive integer and float types, whose memory is plain bytes: no padding, and
/// every bit pattern a valid value.
fn is_plain<T: 'static>() -> bool {
    use std::any::TypeId;
    let t = TypeId::of::<T>();
    [
        TypeId::of::<i8>(),
        TypeId::of::<u8>(),
        TypeId::of::<i16>(),
        TypeId::of::<u16>(),
        TypeId::of::<i32>(),
        TypeId::of::<u32>(),
        TypeId::of::<i64>(),
        TypeId::of::<u64>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
    ]
    .contains(&t)
}

/// The bytes of a slice of a primitive element type (`None` for any other `NcElement`).
fn bytes_of<T: NcElement>(v: &[T]) -> Option<&[u8]> {
    if !is_plain::<T>() {
        return None;
    }
    // SAFETY: `T` is a primitive integer or float (checked above), so it has no padding and no
    // invalid bit patterns; `u8` has alignment 1 and the length covers exactly the same memory.
    Some(unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) })
}

/// Mutable bytes of a slice of a primitive element type (`None` for any other `NcElement`).
fn bytes_of_mut<T: NcElement>(v: &mut [T]) -> Option<&mut [u8]> {
    if !is_plain::<T>() {
        return None;
    }
    let len = std::mem::size_of_val(v);
    // SAFETY: as in `bytes_of`; any bytes written through the view form valid values of `T`, and
    // the exclusive borrow of `v` lasts as long as the view.
    Some(unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), len) })
}
