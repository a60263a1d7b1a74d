//! The user-facing handles: [`File`] (read) and [`FileMut`] (write, derefs to `File`);
//! [`Variable`] and [`VariableMut`], borrowed views of one variable; [`Group`] and [`GroupMut`],
//! of one group. The names and signatures are georust `netcdf`'s where it has them.
//!
//! Whatever the format, these types are the same; the format is a [`Backend`] behind them.

mod add;
mod cursor;
mod dimension;
mod file_mut;
mod group;
mod options;
mod variable;
mod variable_mut;
mod writer;

pub use cursor::{GroupsMut, HandlesMut, VariablesMut};
pub use dimension::{Dimension, DimensionIdentifier};
pub use file_mut::FileMut;
pub use group::{Group, GroupMut};
pub use options::{append_with, CreateOptions, Options};
pub(crate) use variable::buffer_len;
pub use variable::{Endianness, Variable};
pub use variable_mut::VariableMut;

use std::path::{Path, PathBuf};

use crate::attribute::Attribute;
use crate::backend::{Backend, Format};
use crate::convert::NcElement;
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{DimId, GroupId, NcType, Schema, Values, VarId, ROOT};
use crate::selection::{Extents, Hyperslab};

/// The backend of a dataset: read-only (no lock), or writable behind a [`writer::Writer`].
pub(crate) enum Handle {
    Read(Box<dyn Backend>),
    Write(writer::Writer),
}

/// An open netCDF dataset, any format. `Send + Sync`: share it between threads for concurrent reads.
pub struct File {
    handle: Handle,
    /// The storage format (fixed when the dataset is opened or created).
    format: Format,
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
            format: backend.format(),
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
        self.with_backend(|b| b.dimension_error(var))
    }

    /// Runs `f` on the backend: directly for a dataset open for reading, under the writer's
    /// lock for one open for writing.
    pub(crate) fn with_backend<T>(&self, f: impl FnOnce(&dyn Backend) -> T) -> T {
        match &self.handle {
            Handle::Read(b) => f(b.as_ref()),
            Handle::Write(w) => {
                let b = w.lock();
                let b: &dyn crate::backend::BackendMut = b.as_ref();
                f(b)
            }
        }
    }

    /// Runs `f` on the schema as the dataset has it now (for a dataset open for writing, read
    /// under the writer's lock, not published: see [`FileMut`]).
    pub(crate) fn live<T>(&self, f: impl FnOnce(&Schema) -> T) -> T {
        self.with_backend(|b| f(b.schema()))
    }

    /// The storage format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The library layer reading the dataset (HDF5 or NCZarr for netCDF-4 data).
    pub fn extended_format(&self) -> crate::ExtendedFormat {
        self.with_backend(|b| b.extended_format())
    }

    /// The Zarr codecs of an NCZarr variable as JSON text (`_Codecs` in `ncdump -s`).
    pub fn codecs_json(&self, var: VarId) -> Option<String> {
        self.with_backend(|b| b.codecs_json(var))
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
    ///
    /// For a dataset open for writing, the schema as it was when this was called (a copy
    /// published for reading, see [`FileMut`]'s handles): ask again after a change.
    pub fn schema(&self) -> &Schema {
        match &self.handle {
            Handle::Read(b) => b.schema(),
            Handle::Write(w) => w.schema(),
        }
    }

    /// The metadata for reads of names, attributes, types and ids by reference: for a dataset
    /// open for writing, a published copy whose lengths may be behind the data writes since
    /// (see `writer::Writer::schema_for_names`); lengths are read live.
    pub(crate) fn schema_for_names(&self) -> &Schema {
        match &self.handle {
            Handle::Read(b) => b.schema(),
            Handle::Write(w) => w.schema_for_names(),
        }
    }

    /// Runs `f` on the current metadata; for a dataset open for writing it reads the live
    /// schema under the writer's lock rather than publish a copy (for reads that return owned
    /// values).
    pub(crate) fn with_schema<T>(&self, f: impl FnOnce(&Schema) -> T) -> T {
        match &self.handle {
            Handle::Read(b) => f(b.schema()),
            Handle::Write(w) => w.with_live_schema(f),
        }
    }

    /// A variable by name in the root group, or by path (`grp/var`, as georust `netcdf` takes
    /// it, or `/grp/var`).
    pub fn variable(&self, name: &str) -> Option<Variable<'_>> {
        let s = self.schema_for_names();
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
        let d = self.schema_for_names().find_dim(g, leaf)?;
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
    pub fn attributes(&self) -> impl Iterator<Item = Attribute<'_>> {
        crate::attribute::listed(&self.schema_for_names().group(ROOT).atts)
    }

    /// A global attribute's value by name: `None` when there is no such attribute.
    pub fn attribute_value(&self, name: &str) -> Option<Result<crate::AttributeValue>> {
        self.attribute(name).map(|a| a.value())
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
        self.live(|s| group_at(s, path))
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
    pub fn attribute(&self, name: &str) -> Option<Attribute<'_>> {
        let (g, leaf) = self.resolve_path(name)?;
        self.schema_for_names()
            .group(g)
            .atts
            .iter()
            .find(|a| a.name == leaf)
            .map(Attribute::borrowed)
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
        let g = self.live(|s| {
            groups
                .split('/')
                .filter(|p| !p.is_empty())
                .try_fold(start, |at, p| s.find_group(at, p))
        })?;
        Some((g, leaf))
    }

    /// Checks a selection against a variable's shape as the metadata read has it.
    pub(crate) fn check_slab(
        &self,
        var: VarId,
        extents: &Extents,
        writing: bool,
    ) -> Result<Hyperslab> {
        check_slab(self.schema(), var, extents, writing)
    }
}

/// The group a path below the root names (`a/b`, `/a/b`).
pub(crate) fn group_at(s: &Schema, path: &str) -> Option<GroupId> {
    path.split('/')
        .filter(|p| !p.is_empty())
        .try_fold(ROOT, |g, p| s.find_group(g, p))
}

/// The hyperslab a selection of variable `var` stands for, checked against its shape in `s`
/// (with `writing`, the unlimited dimensions may grow).
pub(crate) fn check_slab(
    s: &Schema,
    var: VarId,
    extents: &Extents,
    writing: bool,
) -> Result<Hyperslab> {
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
