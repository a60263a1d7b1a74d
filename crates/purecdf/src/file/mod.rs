//! The user-facing handles: [`File`] (read) and [`FileMut`] (write, derefs to `File`);
//! [`Variable`] and [`VariableMut`], borrowed views of one variable; [`Group`] and [`GroupMut`],
//! of one group. The names and signatures are georust `netcdf`'s where it has them.
//!
//! Whatever the format, these types are the same; the format is a [`Backend`] behind them.

mod add;
mod cursor;
mod dimension;
mod group;
mod options;
mod variable;
mod variable_mut;

pub use cursor::{GroupsMut, HandlesMut, VariablesMut};
pub use dimension::{Dimension, DimensionIdentifier};
pub use group::{Group, GroupMut};
pub use options::{append_with, CreateOptions, Options};
pub use variable::{Endianness, Variable};
pub use variable_mut::VariableMut;

use std::path::{Path, PathBuf};

use crate::backend::{Backend, BackendMut, Format};
use crate::convert::{self, NcElement};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{Attribute, DimId, GroupId, NcType, Schema, Values, VarId, ROOT};
use crate::selection::{Extents, Hyperslab};

pub(crate) enum Handle {
    Read(Box<dyn Backend>),
    Write(Box<dyn BackendMut>),
}

/// An open netCDF dataset, any format. `Send + Sync`: share it between threads for concurrent reads.
pub struct File {
    handle: Handle,
    path: PathBuf,
    /// Tells this open dataset from every other one of the process (for
    /// [`DimensionIdentifier`]).
    dataset: u64,
}

/// A number for each dataset opened or created, never reused.
fn next_dataset() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
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
            dataset: next_dataset(),
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

    /// The path the file was opened with (a `Result<PathBuf>`, as georust `netcdf` returns it;
    /// see [`File::path_ref`]).
    ///
    /// # Errors
    /// None; a `Result` as in georust `netcdf`.
    pub fn path(&self) -> Result<PathBuf> {
        Ok(self.path.clone())
    }

    /// The path the file was opened with, borrowed.
    pub fn path_ref(&self) -> &Path {
        &self.path
    }

    /// All metadata: groups, dimensions, variables, attributes and types.
    pub fn schema(&self) -> &Schema {
        self.backend().schema()
    }

    /// A variable by name in the root group, or by path (`grp/var`, as georust `netcdf` takes
    /// it, or `/grp/var`).
    pub fn variable(&self, name: &str) -> Option<Variable<'_>> {
        let s = self.schema();
        let (g, leaf) = self.resolve_path(name)?;
        s.find_var(g, leaf).map(|id| Variable::new(self, id))
    }

    /// A variable by id.
    pub fn variable_by_id(&self, id: VarId) -> Variable<'_> {
        Variable::new(self, id)
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
            .map(move |&id| Variable::new(self, id))
    }

    /// Dimensions of the root group, in definition order.
    pub fn dimensions(&self) -> impl Iterator<Item = Dimension<'_>> {
        self.schema()
            .group(ROOT)
            .dims
            .iter()
            .map(move |&d| Dimension::new(self, d))
    }

    /// A root-group dimension by name, or a group's by path (`grp/dim`).
    pub fn dimension(&self, name: &str) -> Option<Dimension<'_>> {
        let (g, leaf) = self.resolve_path(name)?;
        let d = self.schema().find_dim(g, leaf)?;
        Some(Dimension::new(self, d))
    }

    /// A dimension by id.
    pub fn dimension_by_id(&self, id: DimId) -> Dimension<'_> {
        Dimension::new(self, id)
    }

    /// The length of a root-group dimension by name.
    pub fn dimension_len(&self, name: &str) -> Option<usize> {
        self.dimension(name).map(|d| d.len())
    }

    /// Global attributes, in creation order. The attributes netcdf-c hides (`_NCProperties`,
    /// `_IsNetcdf4`, `_SuperblockVersion`) are left out; [`File::attribute`] finds them by name.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.schema()
            .group(ROOT)
            .atts
            .iter()
            .filter(|a| !crate::attribute::is_hidden(&a.name))
    }

    /// A global attribute's value by name: `None` when there is no such attribute.
    pub fn attribute_value(&self, name: &str) -> Option<Result<crate::AttributeValue>> {
        self.attribute(name).map(Attribute::value)
    }

    /// The root group (always there: an `Option` as in georust `netcdf`).
    pub fn root(&self) -> Option<Group<'_>> {
        Some(Group::new(self, ROOT))
    }

    /// A group by name or path (`a/b`, `/a/b`) below the root; `Ok(None)` when there is none.
    ///
    /// # Errors
    /// NC_ENOGRP when a group on the way is missing (as georust `netcdf`).
    pub fn group(&self, name: &str) -> Result<Option<Group<'_>>> {
        Ok(self.group_id_at(name)?.map(|g| Group::new(self, g)))
    }

    /// The group a path names; `Ok(None)` when the last one is missing, NC_ENOGRP when a group
    /// on the way is.
    fn group_id_at(&self, name: &str) -> Result<Option<GroupId>> {
        match self.find_group_path(name) {
            Some(g) => Ok(Some(g)),
            None if self.resolve_path(name).is_none() => fail(
                ErrorKind::NoGrp,
                format!("{name}: a group on the way is missing"),
            ),
            None => Ok(None),
        }
    }

    /// The root group's child groups, in definition order.
    ///
    /// # Errors
    /// None today; a `Result` as in georust `netcdf`.
    pub fn groups(&self) -> Result<impl Iterator<Item = Group<'_>>> {
        Ok(self
            .schema()
            .group(ROOT)
            .groups
            .iter()
            .map(move |&g| Group::new(self, g)))
    }

    pub(crate) fn find_group_path(&self, path: &str) -> Option<GroupId> {
        let s = self.schema();
        path.split('/')
            .filter(|p| !p.is_empty())
            .try_fold(ROOT, |g, p| s.find_group(g, p))
    }

    /// The user-defined types of the root group, described.
    ///
    /// # Errors
    /// None at present (georust's signature).
    pub fn types(&self) -> Result<impl Iterator<Item = crate::types::NcVariableType> + '_> {
        let s = self.schema();
        Ok(s.group(ROOT)
            .types
            .iter()
            .map(move |t| crate::types::describe(s, NcType::User(*t))))
    }

    /// Closes the dataset (as dropping it does).
    ///
    /// # Errors
    /// None for a dataset open for reading; a `Result` as in georust `netcdf`.
    pub fn close(self) -> Result<()> {
        Ok(())
    }

    /// A global attribute by name, or a group's attribute by path (`grp/att`).
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        let (g, leaf) = self.resolve_path(name)?;
        self.schema().group(g).atts.iter().find(|a| a.name == leaf)
    }

    /// The group and the last part of a path below the root (`a/b/name`, `/a/b/name`, or a
    /// name alone, of the root group).
    fn resolve_path<'n>(&self, name: &'n str) -> Option<(GroupId, &'n str)> {
        self.resolve_path_from(ROOT, name)
    }

    /// The group and the last part of a path below group `g` (`a/b/name`, or a name alone, of
    /// `g`), or of an absolute path (`/a/b/name`).
    pub(crate) fn resolve_path_from<'n>(
        &self,
        g: GroupId,
        name: &'n str,
    ) -> Option<(GroupId, &'n str)> {
        let Some((groups, leaf)) = name.rsplit_once('/') else {
            return Some((g, name));
        };
        let (start, groups) = match groups.strip_prefix('/') {
            Some(rest) => (ROOT, rest),
            None if groups.is_empty() => (ROOT, groups),
            None => (g, groups),
        };
        let s = self.schema();
        let g = groups
            .split('/')
            .filter(|p| !p.is_empty())
            .try_fold(start, |at, p| s.find_group(at, p))?;
        Some((g, leaf))
    }

    pub(crate) fn check_slab(
        &self,
        var: VarId,
        extents: &Extents,
        writing: bool,
    ) -> Result<Hyperslab> {
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

/// True when `u8` memory data moves to and from a variable as raw bytes, with no conversion or
/// range check: text for char variables, and (as netcdf-c does for CDF-1/CDF-2, where "byte" may be
/// signed or unsigned) `NC_BYTE` variables read or written as `u8`.
pub(crate) fn raw_byte_access(format: Format, var_type: NcType, mem_type: NcType) -> bool {
    mem_type == NcType::UByte
        && (var_type == NcType::Char
            || (var_type == NcType::Byte && matches!(format, Format::Classic | Format::Offset64)))
}

/// Size of one value for the raw byte API: fixed-size atomic types only.
pub(crate) fn raw_size(typ: NcType, name: &str) -> Result<usize> {
    match typ.atomic_size() {
        Some(size) if typ != NcType::String => Ok(size),
        _ => fail(
            ErrorKind::BadType,
            format!("{name}: raw bytes need a fixed-size atomic type"),
        ),
    }
}

/// NC_EEDGE unless `len` bytes hold exactly the selection's values of `size` bytes each.
pub(crate) fn check_raw_len(slab: &Hyperslab, size: usize, len: usize) -> Result<()> {
    if slab.num_elements().checked_mul(size as u64) == Some(len as u64) {
        return Ok(());
    }
    fail(
        ErrorKind::Edge,
        format!(
            "{len} bytes for a selection of {} values of {size} bytes",
            slab.num_elements()
        ),
    )
}

/// A dataset read from memory by [`crate::open_mem`] (georust's `FileMem`): a [`File`] (it
/// derefs to one) that borrows the buffer it was given, as georust's does.
pub struct FileMem<'m> {
    file: File,
    _mem: std::marker::PhantomData<&'m [u8]>,
}

impl std::fmt::Debug for FileMem<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.file.fmt(f)
    }
}

impl std::ops::Deref for FileMem<'_> {
    type Target = File;
    fn deref(&self) -> &File {
        &self.file
    }
}

impl FileMem<'_> {
    pub(crate) fn new(mut file: File, name: Option<PathBuf>) -> Self {
        if let Some(name) = name {
            file.path = name;
        }
        FileMem {
            file,
            _mem: std::marker::PhantomData,
        }
    }

    /// The dataset, no longer tied to the buffer (which was copied).
    pub fn into_file(self) -> File {
        self.file
    }
}

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
                handle: Handle::Write(backend),
                path,
                dataset: next_dataset(),
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

    /// Adds a fixed-length dimension to the root group (length 0: unlimited, as in netcdf-c),
    /// returning it.
    ///
    /// # Errors
    /// As netcdf-c's `nc_def_dim`.
    pub fn add_dimension(&mut self, name: &str, len: usize) -> Result<Dimension<'_>> {
        self.add_dimension_at(ROOT, name, len as u64, false)
    }

    /// Adds an unlimited dimension to the root group, returning it.
    ///
    /// # Errors
    /// As netcdf-c's `nc_def_dim`.
    pub fn add_unlimited_dimension(&mut self, name: &str) -> Result<Dimension<'_>> {
        self.add_dimension_at(ROOT, name, 0, true)
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
        self.add_variable_from_ids_at(ROOT, name, dims, |f: &mut FileMut, g| {
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
        self.add_variable_at(ROOT, name, dims, |f: &mut FileMut, g| {
            crate::types::add_descriptor(f, g, xtype)
        })
    }

    /// Defines the type `T` stands for (and the types it uses) in the root group, as georust's
    /// `add_type`; a type of the same name and layout defined already is reused.
    ///
    /// # Errors
    /// NC_ENAMEINUSE when a different type has that name; NC_ENOTNC4 for the classic formats.
    pub fn add_type<T: crate::NcTypeDescriptor>(&mut self) -> Result<crate::TypeId> {
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
        self.add_type_in(ROOT, &typ)
    }

    pub(crate) fn add_type_in(
        &mut self,
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
        self.add_variable_at(ROOT, name, dims, |_: &mut FileMut, _| Ok(NcType::String))
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
        let ids = self.dim_ids(ROOT, dims)?;
        self.add_variable_in(ROOT, name, typ, &ids)
    }

    /// The ids of dimensions named as seen from group `g` (its own and its ancestors'), or by
    /// absolute path.
    pub(crate) fn dim_ids(&self, g: GroupId, dims: &[&str]) -> Result<Vec<DimId>> {
        let s = self.schema();
        dims.iter()
            .map(|d| {
                let found = match d.rsplit_once('/') {
                    Some((grp, leaf)) => {
                        self.find_group_path(grp).and_then(|g| s.find_dim(g, leaf))
                    }
                    None => s.find_dim_visible(g, d),
                };
                found.ok_or_else(|| {
                    Error::with_detail(ErrorKind::BadDim, format!("no dimension {d}"))
                })
            })
            .collect()
    }

    /// A handle to write a variable (by name in the root group, or by absolute path).
    pub fn variable_mut(&mut self, name: &str) -> Option<VariableMut<'_>> {
        let id = self.variable(name)?.id();
        Some(VariableMut::new(self, id))
    }

    /// The root group's variables, for writing one after another (georust's `variables_mut`,
    /// as a lending cursor rather than an [`Iterator`]: see [`HandlesMut`]).
    pub fn variables_mut(&mut self) -> VariablesMut<'_> {
        let ids = self.variables().map(|v| v.id()).collect();
        VariablesMut::new(self, ids)
    }

    /// A handle to write a variable by id.
    pub fn variable_mut_by_id(&mut self, id: VarId) -> VariableMut<'_> {
        VariableMut::new(self, id)
    }

    /// The root group, for writing.
    pub fn root_mut(&mut self) -> Option<GroupMut<'_>> {
        Some(GroupMut::new(self, ROOT))
    }

    /// A group by name or path below the root, for writing; `Ok(None)` when there is none.
    ///
    /// # Errors
    /// As [`File::group`].
    pub fn group_mut(&mut self, name: &str) -> Result<Option<GroupMut<'_>>> {
        Ok(self.group_id_at(name)?.map(|g| GroupMut::new(self, g)))
    }

    /// The root group's child groups, for writing one after another (georust's `groups_mut`,
    /// as a lending cursor rather than an [`Iterator`]: see [`HandlesMut`]).
    ///
    /// # Errors
    /// None today; a `Result` as in georust `netcdf`.
    pub fn groups_mut(&mut self) -> Result<GroupsMut<'_>> {
        let ids = self.schema().group(ROOT).groups.clone();
        Ok(GroupsMut::new(self, ids))
    }

    /// Adds a child group to the root group (netCDF-4 only).
    ///
    /// # Errors
    /// NC_ENOTNC4 for the classic formats; NC_ENAMEINUSE for a name taken.
    pub fn add_group(&mut self, name: &str) -> Result<GroupMut<'_>> {
        self.add_group_at(ROOT, name)
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

    /// Sets a global attribute, returning (a copy of) it as written.
    ///
    /// # Errors
    /// As netcdf-c's `nc_put_att`.
    pub fn add_attribute(&mut self, name: &str, values: impl Into<Values>) -> Result<Attribute> {
        self.add_attribute_at(ROOT, name, values.into())
    }

    /// [`FileMut::put_attribute`], then the attribute as the dataset holds it.
    pub(crate) fn put_attribute_returned(
        &mut self,
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
        let s = self.schema();
        let atts = match var {
            Some(v) => &s.var(v).atts,
            None => &s.group(g).atts,
        };
        Ok(atts
            .iter()
            .find(|a| a.name == written.name)
            .cloned()
            .unwrap_or(written))
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
        extents: impl TryInto<Extents, Error: Into<Error>>,
    ) -> Result<()> {
        let slab = self
            .file
            .check_slab(var, &crate::selection::extents(extents)?, true)?;
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
        extents: impl TryInto<Extents, Error: Into<Error>>,
    ) -> Result<()> {
        let slab = self
            .file
            .check_slab(var, &crate::selection::extents(extents)?, true)?;
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
        extents: impl TryInto<Extents, Error: Into<Error>>,
    ) -> Result<()> {
        let slab = self
            .file
            .check_slab(var, &crate::selection::extents(extents)?, true)?;
        let def = self.schema().var(var);
        check_raw_len(&slab, raw_size(def.typ, &def.name)?, data.len())?;
        let r = self.backend_mut().write_raw(var, &slab, data);
        self.with_path(r)
    }

    /// Adds a child group to group `parent` (`nc_def_grp`; netCDF-4 only).
    pub fn add_group_in(&mut self, parent: GroupId, name: &str) -> Result<GroupId> {
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
    pub fn def_type(&mut self, group: GroupId, t: crate::model::UserType) -> Result<crate::TypeId> {
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
pub(crate) fn bytes_of_mut<T: NcElement>(v: &mut [T]) -> Option<&mut [u8]> {
    if !is_plain::<T>() {
        return None;
    }
    let len = std::mem::size_of_val(v);
    // SAFETY: as in `bytes_of`; any bytes written through the view form valid values of `T`, and
    // the exclusive borrow of `v` lasts as long as the view.
    Some(unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), len) })
}
