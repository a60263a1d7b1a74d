//! [`FileMut`]: a dataset open for writing, and its calls by id (georust `netcdf`'s adders and
//! purecdf's netcdf-c-like calls). Handles ([`VariableMut`], [`GroupMut`]) write through `&FileMut`
//! (see [`super::writer`]).

use super::writer::Writer;
use super::{
    bytes_of, check_raw_len, check_slab, next_dataset, raw_byte_access, raw_size, Dimension,
    DimensionIdentifier, File, GroupMut, GroupsMut, Handle, VariableMut, VariablesMut,
};
use crate::backend::BackendMut;
use crate::convert;
use crate::convert::NcElement;
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{Attribute, DimId, GroupId, NcType, Values, VarId, ROOT};
use crate::selection::Extents;
use std::path::PathBuf;

/// A dataset open for writing. Derefs to [`File`] for everything that reads.
pub struct FileMut {
    file: File,
}

impl std::fmt::Debug for FileMut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileMut")
            .field("path", &self.path)
            .field("format", &self.format())
            .field("define_mode", &self.in_define_mode())
            .finish()
    }
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
                format: backend.format(),
                handle: Handle::Write(Writer::new(backend)),
                path,
                dataset: next_dataset(),
            },
        }
    }

    fn writer(&self) -> &Writer {
        match &self.file.handle {
            Handle::Write(w) => w,
            Handle::Read(_) => unreachable!("FileMut always holds a writable backend"),
        }
    }

    /// The backend with no lock (and the schema copies published for reading dropped: no
    /// handle is left while `self` is borrowed mutably).
    fn backend_mut(&mut self) -> &mut dyn BackendMut {
        match &mut self.file.handle {
            Handle::Write(w) => w.get_mut(),
            Handle::Read(_) => unreachable!("FileMut always holds a writable backend"),
        }
    }

    /// Drops the schema copies published for reading (see [`super::writer`]).
    fn compact(&mut self) {
        self.backend_mut();
    }

    /// Runs a call that may change the dataset, under the writer's lock.
    pub(crate) fn change<T>(&self, f: impl FnOnce(&mut dyn BackendMut) -> Result<T>) -> Result<T> {
        let r = self.writer().change(f);
        self.with_path(r)
    }

    /// Runs a data write (which may change lengths only), under the writer's lock.
    fn change_data<T>(&self, f: impl FnOnce(&mut dyn BackendMut) -> Result<T>) -> Result<T> {
        let r = self.writer().change_data(f);
        self.with_path(r)
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
        self.writer().lock().in_define_mode()
    }

    /// `nc_set_fill`; returns the previous mode (true = fill).
    pub fn set_fill(&mut self, fill: bool) -> Result<bool> {
        self.backend_mut().set_fill(fill)
    }

    /// `nc_def_var_fill` (without a fill value): fill mode off (`true`) or on for one variable,
    /// in define mode.
    pub fn def_var_fill(&self, var: VarId, no_fill: bool) -> Result<()> {
        self.change(|b| b.def_var_fill(var, no_fill))
    }

    /// Adds a fixed-length dimension to the root group (length 0: unlimited, as in netcdf-c),
    /// returning it.
    ///
    /// # Errors
    /// As netcdf-c's `nc_def_dim`.
    pub fn add_dimension(&mut self, name: &str, len: usize) -> Result<Dimension<'_>> {
        self.compact();
        self.add_dimension_at(ROOT, name, len as u64, false)
    }

    /// Adds an unlimited dimension to the root group, returning it.
    ///
    /// # Errors
    /// As netcdf-c's `nc_def_dim`.
    pub fn add_unlimited_dimension(&mut self, name: &str) -> Result<Dimension<'_>> {
        self.compact();
        self.add_dimension_at(ROOT, name, 0, true)
    }

    /// Adds a dimension to a group.
    pub fn add_dimension_in(
        &self,
        g: GroupId,
        name: &str,
        len: u64,
        unlimited: bool,
    ) -> Result<DimId> {
        self.change(|b| b.def_dim(g, name, len, unlimited))
    }

    /// Adds a variable of memory type `T` over named dimensions (of the root group, or paths
    /// such as `/g/d`), returning a handle to set its attributes and write it.
    ///
    /// # Errors
    /// NC_EBADDIM for an unknown dimension; as netcdf-c's `nc_def_var` otherwise.
    ///
    /// A derived user type ([`crate::types`]) is defined in the root group first unless a type
    /// of its name is there already.
    pub fn add_variable<T: crate::NcTypeDescriptor>(
        &mut self,
        name: &str,
        dims: &[&str],
    ) -> Result<VariableMut<'_>> {
        self.compact();
        self.add_variable_at(ROOT, name, dims, T::purecdf_nc_type)
    }

    /// Adds a variable of memory type `T` to the root group over dimensions given by
    /// [`DimensionIdentifier`]s (of this group or any other of the dataset).
    ///
    /// # Errors
    /// NC_EBADDIM for an identifier of another dataset; as [`FileMut::add_variable`] otherwise.
    pub fn add_variable_from_identifiers<T: crate::NcTypeDescriptor>(
        &mut self,
        name: &str,
        dims: &[DimensionIdentifier],
    ) -> Result<VariableMut<'_>> {
        self.compact();
        self.add_variable_from_ids_at(ROOT, name, dims, T::purecdf_nc_type)
    }

    /// As [`FileMut::add_variable_from_identifiers`], of a described type (see
    /// [`FileMut::add_variable_with_type`]).
    ///
    /// # Errors
    /// As [`FileMut::add_variable_from_identifiers`].
    pub fn add_variable_from_identifiers_with_type(
        &mut self,
        name: &str,
        dims: &[DimensionIdentifier],
        xtype: &crate::types::NcVariableType,
    ) -> Result<VariableMut<'_>> {
        self.compact();
        self.add_variable_from_ids_at(ROOT, name, dims, |f: &FileMut, g| {
            crate::types::add_descriptor(f, g, xtype)
        })
    }

    /// Adds a variable whose type is given by a description (as georust's
    /// `add_variable_with_type`): an atomic type, a string, or a user type, which is looked up
    /// by name in the root group and defined there when it is not (with the types it uses).
    ///
    /// # Errors
    /// As [`FileMut::add_variable`]; NC_ENAMEINUSE when a different type has the user type's
    /// name.
    pub fn add_variable_with_type(
        &mut self,
        name: &str,
        dims: &[&str],
        xtype: &crate::types::NcVariableType,
    ) -> Result<VariableMut<'_>> {
        self.compact();
        self.add_variable_at(ROOT, name, dims, |f: &FileMut, g| {
            crate::types::add_descriptor(f, g, xtype)
        })
    }

    /// Defines the type `T` stands for in the root group, as georust's `add_type`; a type of the
    /// same name and layout defined already is reused. As in georust, the user types it uses
    /// (compound members, a vlen's base) must be added first; [`FileMut::add_variable`] defines
    /// every type it needs.
    ///
    /// # Errors
    /// NC_ENAMEINUSE when a different type has that name; NC_EBADTYPE when a user type it uses
    /// is not defined yet; NC_ENOTNC4 for the classic formats.
    pub fn add_type<T: crate::NcTypeDescriptor>(&mut self) -> Result<crate::TypeId> {
        self.compact();
        self.add_type_from_descriptor(T::type_descriptor())
    }

    /// Defines a described type in the root group (see [`FileMut::add_type`]).
    ///
    /// # Errors
    /// As [`FileMut::add_type`]; NC_EBADTYPE for an atomic type.
    pub fn add_type_from_descriptor(
        &mut self,
        typ: crate::types::NcVariableType,
    ) -> Result<crate::TypeId> {
        self.compact();
        self.add_type_in(ROOT, &typ)
    }

    pub(crate) fn add_type_in(
        &self,
        g: GroupId,
        typ: &crate::types::NcVariableType,
    ) -> Result<crate::TypeId> {
        match crate::types::add_descriptor_here(self, g, typ)? {
            NcType::User(t) => Ok(t),
            t => fail(
                ErrorKind::BadType,
                format!("{t:?} is not a user-defined type"),
            ),
        }
    }

    /// Adds a variable of type `NC_STRING` (netCDF-4 only) over named dimensions.
    ///
    /// # Errors
    /// As [`FileMut::add_variable`].
    pub fn add_string_variable(&mut self, name: &str, dims: &[&str]) -> Result<VariableMut<'_>> {
        self.compact();
        self.add_variable_at(ROOT, name, dims, |_: &FileMut, _| Ok(NcType::String))
    }

    /// Adds a variable of any [`NcType`](enum@NcType) over named dimensions, returning its id.
    ///
    /// # Errors
    /// As [`FileMut::add_variable`].
    pub fn add_variable_of_type(
        &mut self,
        name: &str,
        typ: NcType,
        dims: &[&str],
    ) -> Result<VarId> {
        self.compact();
        let ids = self.dim_ids(ROOT, dims)?;
        self.add_variable_in(ROOT, name, typ, &ids)
    }

    /// The ids of dimensions named as seen from group `g` (its own and its ancestors'), or by
    /// absolute path.
    pub(crate) fn dim_ids(&self, g: GroupId, dims: &[&str]) -> Result<Vec<DimId>> {
        self.live(|s| {
            dims.iter()
                .map(|d| {
                    let found = match d.rsplit_once('/') {
                        Some((grp, leaf)) => {
                            super::group_at(s, grp).and_then(|g| s.find_dim(g, leaf))
                        }
                        None => s.find_dim_visible(g, d),
                    };
                    found.ok_or_else(|| {
                        Error::with_detail(ErrorKind::BadDim, format!("no dimension {d}"))
                    })
                })
                .collect()
        })
    }

    /// A handle to write a variable (by name in the root group, or by absolute path).
    pub fn variable_mut(&mut self, name: &str) -> Option<VariableMut<'_>> {
        self.compact();
        let (g, leaf) = self.resolve_path_from(ROOT, name)?;
        let id = self.live(|s| s.find_var(g, leaf))?;
        Some(VariableMut::new(self, id))
    }

    /// The root group's variables for writing, in definition order (georust's
    /// `variables_mut`): an [`Iterator`] whose handles may be kept side by side.
    pub fn variables_mut(&mut self) -> VariablesMut<'_> {
        self.compact();
        let ids = self.live(|s| s.group(ROOT).vars.clone());
        VariablesMut::new(self, ids)
    }

    /// A handle to write a variable by id.
    pub fn variable_mut_by_id(&mut self, id: VarId) -> VariableMut<'_> {
        self.compact();
        VariableMut::new(self, id)
    }

    /// The root group, for writing.
    pub fn root_mut(&mut self) -> Option<GroupMut<'_>> {
        self.compact();
        Some(GroupMut::new(self, ROOT))
    }

    /// A group by name or path below the root, for writing; `Ok(None)` when there is none.
    ///
    /// # Errors
    /// As [`File::group`].
    pub fn group_mut(&mut self, name: &str) -> Result<Option<GroupMut<'_>>> {
        self.compact();
        Ok(self.group_id_at(name)?.map(|g| GroupMut::new(self, g)))
    }

    /// The root group's child groups for writing, in definition order (georust's
    /// `groups_mut`): an [`Iterator`] whose handles may be kept side by side.
    ///
    /// # Errors
    /// None today; a `Result` as in georust `netcdf`.
    pub fn groups_mut(&mut self) -> Result<GroupsMut<'_>> {
        self.compact();
        let ids = self.live(|s| s.group(ROOT).groups.clone());
        Ok(GroupsMut::new(self, ids))
    }

    /// Adds a child group to the root group (netCDF-4 only).
    ///
    /// # Errors
    /// NC_ENOTNC4 for the classic formats; NC_ENAMEINUSE for a name taken.
    pub fn add_group(&mut self, name: &str) -> Result<GroupMut<'_>> {
        self.compact();
        self.add_group_at(ROOT, name)
    }

    /// Adds a variable to a group over dimension ids.
    pub fn add_variable_in(
        &self,
        g: GroupId,
        name: &str,
        typ: NcType,
        dims: &[DimId],
    ) -> Result<VarId> {
        self.change(|b| b.def_var(g, name, typ, dims))
    }

    /// Sets a global attribute, returning (a copy of) it as written.
    ///
    /// # Errors
    /// As netcdf-c's `nc_put_att`.
    pub fn add_attribute(
        &mut self,
        name: &str,
        values: impl crate::IntoAttributeValues,
    ) -> Result<crate::Attribute<'static>> {
        self.compact();
        self.add_attribute_at(ROOT, name, values.into_attribute_values())
            .map(crate::Attribute::owned)
    }

    /// [`FileMut::put_attribute`], then the attribute as the dataset holds it.
    pub(crate) fn put_attribute_returned(
        &self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        values: Values,
    ) -> Result<Attribute> {
        let written = Attribute {
            name: crate::model::normalize_name(name).unwrap_or_else(|_| name.to_owned()),
            values,
        };
        self.put_attribute(g, var, name, written.values.clone())?;
        Ok(self
            .live(|s| {
                let atts = match var {
                    Some(v) => &s.var(v).atts,
                    None => &s.group(g).atts,
                };
                atts.iter().find(|a| a.name == written.name).cloned()
            })
            .unwrap_or(written))
    }

    /// Sets an attribute of a variable, or of group `g` when `var` is `None`.
    pub fn put_attribute(
        &self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        values: impl Into<Values>,
    ) -> Result<()> {
        self.change(|b| b.put_att(g, var, name, values.into()))
    }

    /// Deletes an attribute (`nc_del_att`).
    pub fn delete_attribute(&self, g: GroupId, var: Option<VarId>, name: &str) -> Result<()> {
        self.change(|b| b.del_att(g, var, name))
    }

    /// Renames a dimension.
    pub fn rename_dimension(&self, dim: DimId, name: &str) -> Result<()> {
        self.change(|b| b.rename_dim(dim, name))
    }

    /// Renames a variable.
    pub fn rename_variable(&self, var: VarId, name: &str) -> Result<()> {
        self.change(|b| b.rename_var(var, name))
    }

    /// Renames an attribute.
    pub fn rename_attribute(
        &self,
        g: GroupId,
        var: Option<VarId>,
        old: &str,
        new: &str,
    ) -> Result<()> {
        self.change(|b| b.rename_att(g, var, old, new))
    }

    /// Writes `values` (memory type `T`) into a selection, converting to the variable's type.
    /// `u8` writes char variables as raw text.
    pub fn put_values<T: NcElement>(
        &self,
        var: VarId,
        values: &[T],
        extents: impl TryInto<Extents, Error: Into<Error>>,
    ) -> Result<()> {
        let extents = crate::selection::extents(extents)?;
        let raw_bytes = |typ| raw_byte_access(self.format(), typ, T::NC_TYPE);
        self.change_data(|b| {
            let slab = check_slab(b.schema(), var, &extents, true)?;
            let n = slab.num_elements();
            if n != values.len() as u64 {
                return fail(
                    ErrorKind::Edge,
                    format!("{} values for a selection of {n}", values.len()),
                );
            }
            let typ = b.schema().var(var).typ;
            if T::NC_TYPE == typ || raw_bytes(typ) {
                // Same representation: hand the caller's values to the backend as they are.
                let want = values.len() * typ.atomic_size().unwrap_or(0);
                if let Some(bytes) = bytes_of(values).filter(|v| v.len() == want) {
                    return b.write_raw(var, &slab, bytes);
                }
            }
            let mut raw = Vec::with_capacity(values.len() * typ.atomic_size().unwrap_or(1));
            let conv = if raw_bytes(typ) {
                for v in values {
                    let mut one = [0u8; 1];
                    v.write_ne(&mut one);
                    raw.push(one[0]);
                }
                Ok(())
            } else {
                convert::convert_to_raw(values, typ, &mut raw)
            };
            // A range error still writes the (fill-substituted) values, as netcdf-c does.
            b.write_raw(var, &slab, &raw).and(conv)
        })
    }

    /// Writes values already in the variable's own type into a selection.
    pub fn put_raw_values(
        &self,
        var: VarId,
        values: &Values,
        extents: impl TryInto<Extents, Error: Into<Error>>,
    ) -> Result<()> {
        let extents = crate::selection::extents(extents)?;
        self.change_data(|b| {
            let slab = check_slab(b.schema(), var, &extents, true)?;
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
            let typ = b.schema().var(var).typ;
            if values.nc_type() == typ {
                b.write_values(var, &slab, values)
            } else {
                b.write_values(var, &slab, &convert::convert_values(values, typ)?)
            }
        })
    }

    /// Writes native-endian bytes of the variable's own fixed-size atomic type into a selection
    /// (the counterpart of [`Variable::get_raw_bytes`](super::Variable::get_raw_bytes)).
    ///
    /// # Errors
    /// As [`FileMut::put_raw_values`]; NC_EBADTYPE for string and user-defined types, NC_EEDGE
    /// when `data` does not hold exactly the selection.
    pub fn put_raw_bytes(
        &self,
        var: VarId,
        data: &[u8],
        extents: impl TryInto<Extents, Error: Into<Error>>,
    ) -> Result<()> {
        let extents = crate::selection::extents(extents)?;
        self.change_data(|b| {
            let slab = check_slab(b.schema(), var, &extents, true)?;
            let def = b.schema().var(var);
            check_raw_len(&slab, raw_size(def.typ, &def.name)?, data.len())?;
            b.write_raw(var, &slab, data)
        })
    }

    /// Adds a child group to group `parent` (`nc_def_grp`; netCDF-4 only).
    pub fn add_group_in(&self, parent: GroupId, name: &str) -> Result<GroupId> {
        self.change(|b| b.def_grp(parent, name))
    }

    /// Renames a group (`nc_rename_grp`; netCDF-4 only).
    pub fn rename_group(&self, group: GroupId, name: &str) -> Result<()> {
        self.change(|b| b.rename_grp(group, name))
    }

    /// Defines a user type (compound, vlen, enum or opaque) in a group, with all its members
    /// (`nc_def_compound` + `nc_insert_compound`, `nc_def_vlen`, `nc_def_enum` +
    /// `nc_insert_enum`, `nc_def_opaque`; netCDF-4 only).
    pub fn def_type(&self, group: GroupId, t: crate::model::UserType) -> Result<crate::TypeId> {
        self.change(|b| b.def_type(group, t))
    }

    /// `nc_def_var_chunking`: contiguous, compact, or chunked storage (netCDF-4 only).
    pub fn def_var_chunking(&self, var: VarId, chunking: crate::Chunking) -> Result<()> {
        self.change(|b| b.def_var_chunking(var, chunking))
    }

    /// `nc_def_var_deflate`: shuffle and deflate level (1–9; `None` or 0: no deflate).
    pub fn def_var_deflate(&self, var: VarId, shuffle: bool, level: Option<u32>) -> Result<()> {
        self.change(|b| b.def_var_deflate(var, shuffle, level))
    }

    /// `nc_def_var_fletcher32`.
    pub fn def_var_fletcher32(&self, var: VarId, on: bool) -> Result<()> {
        self.change(|b| b.def_var_fletcher32(var, on))
    }

    /// `nc_def_var_endian`: `Some(true)` big-endian, `Some(false)` little, `None` native.
    pub fn def_var_endian(&self, var: VarId, big: Option<bool>) -> Result<()> {
        self.change(|b| b.def_var_endian(var, big))
    }

    /// `nc_def_var_quantize`: `nsd` significant digits (bits for BitRound) kept of float or
    /// double data; `None` turns quantization off.
    pub fn def_var_quantize(&self, var: VarId, q: Option<(crate::Quantize, i32)>) -> Result<()> {
        self.change(|b| b.def_var_quantize(var, q))
    }

    /// `nc_def_var_filter`: an HDF5 filter id and its parameters.
    pub fn def_var_filter(&self, var: VarId, id: u32, params: &[u32]) -> Result<()> {
        self.change(|b| b.def_var_filter(var, id, params))
    }

    /// `nc_sync`: flush and sync to stable storage. For a netCDF-4 file, a process that dies
    /// after `sync` returned (even by SIGKILL) leaves a file that opens with at least everything
    /// written before it; before the first `sync` or `close` of a created file, one that is
    /// refused as not netCDF (see `purecdf_hdf5::write`, "Nothing lost"; `tests/crash.rs`).
    pub fn sync(&self) -> Result<()> {
        self.change(|b| b.sync())
    }

    /// `nc_close`: end define mode if needed, write everything out and close. As with netcdf-c,
    /// the data is handed to the operating system, not forced to the disk (call
    /// [`FileMut::sync`] first for that).
    pub fn close(mut self) -> Result<()> {
        let r = self.backend_mut().close();
        self.with_path(r)
    }

    /// Ends the dataset as a netcdf-c program that exits without `nc_close` leaves it (what
    /// netcdf-c's `nccopy` leaves when a copy fails): a netCDF-4 file that never left its first
    /// define mode and was never synced holds only HDF5's empty root group, which netcdf-c's
    /// `ncdump` reads as an empty dataset (netcdf-c writes the netCDF objects at the first
    /// `enddef` or `sync`); any other dataset is closed as [`FileMut::close`] closes it.
    ///
    /// # Errors
    /// As [`FileMut::close`].
    pub fn abandon(mut self) -> Result<()> {
        let r = self.backend_mut().abandon();
        self.with_path(r)
    }

    /// Gives up write access (after a successful [`FileMut::sync`]) and keeps a read handle.
    pub fn into_file(self) -> File {
        self.file
    }
}
