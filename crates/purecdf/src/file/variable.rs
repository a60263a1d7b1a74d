//! [`Variable`]: a borrowed view of one variable, with its metadata and typed reads (georust
//! `netcdf`'s names: `get_values`, `get_value`, `get_values_into`, `get`, `get_into`,
//! `get_string`, `fill_value`, `endianness`, `chunking`, `attribute_value`).

use super::{bytes_of_mut, check_raw_len, check_slab, raw_byte_access, raw_size, Dimension, File};
use crate::alloc::zeroed;
use crate::attribute::Attribute;
use crate::attribute::AttributeValue;
use crate::backend::Backend;
use crate::convert::{self, NcElement};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{self, NcType, Values, VarId};
use crate::selection::{extents, Extents, Hyperslab};
use crate::types::NcTypeDescriptor;

/// The byte order of a variable's data in the file (georust's `Endianness`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endianness {
    /// The machine's own order (netCDF-4 variables without an explicit order).
    Native,
    /// Least significant byte first.
    Little,
    /// Most significant byte first (always, for the classic formats).
    Big,
}

/// A borrowed view of one variable.
#[derive(Clone)]
pub struct Variable<'f> {
    pub(super) file: &'f File,
    pub(super) id: VarId,
    /// The dimension handles, made the first time [`Variable::dimensions`] is asked.
    dims: std::sync::OnceLock<Vec<Dimension<'f>>>,
}

impl std::fmt::Debug for Variable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Variable")
            .field("name", &self.name_str())
            .field("type", &self.nc_type())
            .field("shape", &self.shape())
            .finish()
    }
}

impl<'f> Variable<'f> {
    pub(crate) fn new(file: &'f File, id: VarId) -> Self {
        Variable {
            file,
            id,
            dims: std::sync::OnceLock::new(),
        }
    }

    pub(crate) fn def(&self) -> &'f crate::model::Variable {
        self.file.schema().var(self.id)
    }

    /// The definition for reads of the name, type and attributes (see
    /// [`File::schema_for_names`]; nothing read through it depends on lengths).
    fn def_names(&self) -> &'f crate::model::Variable {
        self.file.schema_for_names().var(self.id)
    }

    /// The variable's id.
    pub fn id(&self) -> VarId {
        self.id
    }

    /// The group holding the variable.
    pub fn group_id(&self) -> crate::GroupId {
        self.def_names().group
    }

    /// The variable's name (a `String`, as georust `netcdf` returns it; see
    /// [`Variable::name_str`]).
    pub fn name(&self) -> String {
        self.def_names().name.clone()
    }

    /// The variable's name, borrowed.
    pub fn name_str(&self) -> &'f str {
        &self.def_names().name
    }

    /// The variable's type as the data model's [`NcType`](enum@NcType) (a user type by id).
    pub fn nc_type(&self) -> NcType {
        self.def_names().typ
    }

    /// The variable's type described in full (as georust's `vartype`): a user type with its
    /// name, fields, members or base type.
    pub fn vartype(&self) -> crate::types::NcVariableType {
        crate::types::describe(self.file.schema(), self.nc_type())
    }

    /// The variable's dimensions, outermost first (a slice, as georust `netcdf` returns them;
    /// each handle reads the dimension's length as it is when asked).
    pub fn dimensions(&self) -> &[Dimension<'f>] {
        self.dims.get_or_init(|| {
            self.def()
                .dims
                .iter()
                .map(|&d| Dimension::new(self.file, d))
                .collect()
        })
    }

    /// Current shape (lengths of the dimensions).
    pub fn shape(&self) -> Vec<u64> {
        self.file.with_schema(|s| s.shape(self.id))
    }

    /// Total number of elements (1 for a scalar; saturating for absurd shapes from corrupt files).
    pub fn len(&self) -> usize {
        self.shape()
            .iter()
            .try_fold(1usize, |a, d| a.checked_mul(usize::try_from(*d).ok()?))
            .unwrap_or(usize::MAX)
    }

    /// True when the variable holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Attributes in creation order.
    pub fn attributes(&self) -> impl Iterator<Item = Attribute<'f>> {
        crate::attribute::listed(&self.def_names().atts)
    }

    /// An attribute by name.
    pub fn attribute(&self, name: &str) -> Option<Attribute<'f>> {
        self.attribute_def(name).map(Attribute::borrowed)
    }

    /// An attribute by name, as the dataset's description holds it.
    pub(crate) fn attribute_def(&self, name: &str) -> Option<&'f model::Attribute> {
        self.def_names().att(name)
    }

    /// An attribute's value by name: `None` when there is no such attribute.
    pub fn attribute_value(&self, name: &str) -> Option<Result<AttributeValue>> {
        self.def_names().att(name).map(model::Attribute::value)
    }

    /// The byte order of the data in the file.
    ///
    /// # Errors
    /// None today; a `Result` as in georust `netcdf`.
    pub fn endianness(&self) -> Result<Endianness> {
        if self.file.format().is_classic_family() {
            return Ok(Endianness::Big);
        }
        Ok(match self.def().storage.big_endian {
            Some(true) => Endianness::Big,
            Some(false) => Endianness::Little,
            None => Endianness::Native,
        })
    }

    /// The chunk sizes of a chunked variable; `None` for contiguous or compact storage, for
    /// scalars and for the classic formats.
    ///
    /// # Errors
    /// None today; a `Result` as in georust `netcdf`.
    pub fn chunking(&self) -> Result<Option<Vec<usize>>> {
        if self.def().dims.is_empty() {
            return Ok(None);
        }
        Ok(self
            .def()
            .storage
            .chunk_sizes
            .as_ref()
            .map(|c| c.iter().map(|&x| x as usize).collect()))
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
                format!("variable {} has no filter {id}", self.name_str()),
            ),
        }
    }

    /// The fill value in effect, in the variable's own type: `_FillValue` if it has the
    /// variable's type and one value, else the type's default (`None` for types without one).
    pub fn fill_values(&self) -> Option<Values> {
        match self.attribute("_FillValue") {
            Some(a) if a.values.nc_type() == self.nc_type() && a.values.len() == 1 => {
                Some(a.values.clone())
            }
            _ => convert::default_fill(self.nc_type()),
        }
    }

    /// The fill value as `T` (georust's `fill_value`): `None` when fill mode is off for the
    /// variable. `T` is a number of the variable's type, or a type derived for the variable's
    /// user type ([`crate::types`]), whose fill value is its `_FillValue` (`None` without one).
    ///
    /// # Errors
    /// NC_EBADTYPE when `T` is not the variable's type.
    pub fn fill_value<T: NcTypeDescriptor + Copy>(&self) -> Result<Option<T>> {
        if self.def().no_fill {
            return Ok(None);
        }
        T::purecdf_fill_value(self)
    }

    /// [`Variable::fill_value`] for a number type.
    pub(crate) fn fill_number<T: NcElement>(&self) -> Result<Option<T>> {
        if T::NC_TYPE != self.nc_type() {
            return fail(
                ErrorKind::BadType,
                format!("{} is not of type {:?}", self.name_str(), T::NC_TYPE),
            );
        }
        Ok(self
            .fill_values()
            .and_then(|v| crate::attribute::number_at(&v, 0)))
    }

    /// Reads a selection as [`Values`] of the variable's own type (any type: strings, user
    /// types).
    ///
    /// # Errors
    /// As [`Variable::get_values`] for the selection.
    pub fn get_typed_values(
        &self,
        extents: impl TryInto<Extents, Error: Into<Error>>,
    ) -> Result<Values> {
        let extents = crate::selection::extents(extents)?;
        self.with_slab(&extents, |b, slab| b.read_values(self.id, &slab))
    }

    /// Reads a selection as native-endian bytes of the variable's own fixed-size atomic type
    /// (georust's `get_raw_values`).
    ///
    /// # Errors
    /// As [`Variable::get_raw_bytes`].
    pub fn get_raw_values<E>(&self, extents: E) -> Result<Vec<u8>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let mut out = Vec::new();
        self.get_raw_bytes(self::extents(extents)?, &mut out)?;
        Ok(out)
    }

    /// Reads a selection as native-endian bytes of the variable's own fixed-size atomic type into
    /// `out` (resized to fit, its allocation reused), for bulk copies that should not convert or
    /// reallocate per call.
    ///
    /// # Errors
    /// As [`Variable::get_typed_values`]; NC_EBADTYPE for string and user-defined types.
    pub fn get_raw_bytes(
        &self,
        extents: impl TryInto<Extents, Error: Into<Error>>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let extents = crate::selection::extents(extents)?;
        let size = raw_size(self.nc_type(), self.name_str())?;
        self.with_slab(&extents, |b, slab| {
            let n =
                usize::try_from(slab.num_elements()).map_err(|_| Error::new(ErrorKind::NoMem))?;
            // Every byte is overwritten by the read, so a buffer of the right length is not
            // cleared.
            out.resize(n.checked_mul(size).ok_or(ErrorKind::NoMem)?, 0);
            b.read_raw(self.id, &slab, out)
        })
    }

    /// Reads a selection as native-endian bytes of the variable's own fixed-size atomic type into
    /// `buffer`, which must hold exactly the selection (georust's `get_raw_values_into`).
    ///
    /// # Errors
    /// As [`Variable::get_raw_bytes`]; NC_EEDGE when the buffer's length differs.
    pub fn get_raw_values_into<E>(&self, buffer: &mut [u8], extents: E) -> Result<()>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let extents = crate::selection::extents(extents)?;
        let size = raw_size(self.nc_type(), self.name_str())?;
        self.with_slab(&extents, |b, slab| {
            check_raw_len(&slab, size, buffer.len())?;
            b.read_raw(self.id, &slab, buffer)
        })
    }

    /// Reads a selection converted to `T` (NC_ERANGE if a value does not fit; NC_ECHAR for
    /// text). `u8` reads char variables as raw text.
    ///
    /// The selection is anything georust `netcdf` takes: `..`, an index or range for a
    /// one-dimensional variable, arrays or tuples of them (`(0, .., 1..3)`), `(start, count)`.
    ///
    /// # Errors
    /// NC_EINVALCOORDS, NC_EEDGE or NC_ESTRIDE for a selection outside the variable, and the
    /// conversion errors above.
    pub fn get_values<T: NcTypeDescriptor, E>(&self, extents: E) -> Result<Vec<T>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let extents = self::extents(extents)?;
        T::purecdf_read(self, &extents)
    }

    /// The schema of the variable's file.
    pub(crate) fn file_schema(&self) -> &'f crate::model::Schema {
        self.file.schema()
    }

    /// Checks a selection against the variable's shape as the dataset has it now, and runs `f`
    /// on the backend with its hyperslab (errors name the variable).
    fn with_slab<T>(
        &self,
        extents: &Extents,
        f: impl FnOnce(&dyn Backend, Hyperslab) -> Result<T>,
    ) -> Result<T> {
        self.file.with_backend(|b| {
            let slab = check_slab(b.schema(), self.id, extents, false)?;
            f(b, slab).map_err(|e| e.object(b.schema().var(self.id).name.clone()))
        })
    }

    pub(crate) fn read_values<T: NcElement>(&self, extents: &Extents) -> Result<Vec<T>> {
        self.with_slab(extents, |b, slab| {
            let n =
                usize::try_from(slab.num_elements()).map_err(|_| Error::new(ErrorKind::NoMem))?;
            let mut out = zeroed::<T>(n)?;
            self.read_numbers(b, &slab, &mut out)?;
            Ok(out)
        })
    }

    /// Reads a selection converted to `T` into `out`, which must hold exactly the selection.
    pub(crate) fn read_values_into<T: NcElement>(
        &self,
        extents: &Extents,
        out: &mut [T],
    ) -> Result<()> {
        self.with_slab(extents, |b, slab| {
            if slab.num_elements() != out.len() as u64 {
                return Err(buffer_len(slab.num_elements(), out.len()));
            }
            self.read_numbers(b, &slab, out)
        })
    }

    /// Reads hyperslab `slab` (of `out.len()` elements) converted to `T` into `out`.
    fn read_numbers<T: NcElement>(
        &self,
        b: &dyn Backend,
        slab: &Hyperslab,
        out: &mut [T],
    ) -> Result<()> {
        let def = b.schema().var(self.id);
        let typ = def.typ;
        let size = typ
            .atomic_size()
            .filter(|_| typ.is_numeric() || typ == NcType::Char);
        let Some(size) = size else {
            return fail(ErrorKind::BadType, format!("{} is not numeric", def.name));
        };
        let bytes = out.len().checked_mul(size).ok_or(ErrorKind::NoMem)?;
        let raw_bytes = raw_byte_access(self.file.format(), typ, T::NC_TYPE);
        if T::NC_TYPE == typ || raw_bytes {
            // Same representation: read straight into the caller's memory.
            if let Some(mem) = bytes_of_mut(out).filter(|m| m.len() == bytes) {
                return b.read_raw(self.id, slab, mem);
            }
        }
        let mut raw = zeroed::<u8>(bytes)?;
        b.read_raw(self.id, slab, &mut raw)?;
        if raw_bytes {
            for (o, r) in out.iter_mut().zip(raw.chunks_exact(1)) {
                *o = T::read_ne(r);
            }
            return Ok(());
        }
        let mut conv = Vec::with_capacity(out.len());
        convert::convert_raw::<T>(typ, &raw, &mut conv)?;
        out.copy_from_slice(&conv);
        Ok(())
    }

    /// Reads one value (the selection must hold exactly one element: indices, or `()` for a
    /// scalar).
    ///
    /// # Errors
    /// As [`Variable::get_values`]; NC_EEDGE when the selection holds more or fewer elements.
    pub fn get_value<T: NcTypeDescriptor, E>(&self, extents: E) -> Result<T>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let v = self.get_values::<T, _>(extents)?;
        let n = v.len();
        match (n, v.into_iter().next()) {
            (1, Some(one)) => Ok(one),
            _ => fail(ErrorKind::Edge, format!("{n} values where one was asked")),
        }
    }

    /// Reads a selection into `buffer`, which must hold exactly the elements selected. `T` is
    /// any [`NcTypeDescriptor`], as for [`Variable::get_values`].
    ///
    /// # Errors
    /// As [`Variable::get_values`]; NC_EEDGE when the buffer's length differs.
    pub fn get_values_into<T: NcTypeDescriptor + Copy, E>(
        &self,
        buffer: &mut [T],
        extents: E,
    ) -> Result<()>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        T::purecdf_read_into(self, &self::extents(extents)?, buffer)
    }

    /// Reads one string: an element of a string variable, or the text of a char variable's
    /// selection (up to its first NUL).
    ///
    /// # Errors
    /// As [`Variable::get_values`]; NC_EBADTYPE for other types, NC_EEDGE when a string
    /// variable's selection is not one element.
    pub fn get_string<E>(&self, extents: E) -> Result<String>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        match self.get_typed_values(self::extents(extents)?)? {
            Values::String(s) if s.len() == 1 => {
                Ok(s.into_iter().flatten().next().unwrap_or_default())
            }
            Values::String(s) => fail(
                ErrorKind::Edge,
                format!("{} strings where one was asked", s.len()),
            ),
            Values::Char(c) => {
                let end = c.iter().position(|&b| b == 0).unwrap_or(c.len());
                Ok(String::from_utf8_lossy(&c[..end]).into_owned())
            }
            _ => fail(
                ErrorKind::BadType,
                format!("{} holds no text", self.name_str()),
            ),
        }
    }

    /// Reads a selection of a char variable as text bytes.
    pub fn get_text(&self, extents: impl TryInto<Extents, Error: Into<Error>>) -> Result<Vec<u8>> {
        match self.get_typed_values(extents)? {
            Values::Char(c) => Ok(c),
            _ => fail(
                ErrorKind::Char,
                format!("{} is not a char variable", self.name_str()),
            ),
        }
    }

    /// Reads a selection as an n-dimensional array converted to `T`. Axes selected by a single
    /// index are dropped, as in georust `netcdf`: `get((0, .., ..))` of a 3-D variable is 2-D.
    ///
    /// # Errors
    /// As [`Variable::get_values`].
    #[cfg(feature = "ndarray")]
    pub fn get<T: NcTypeDescriptor, E>(&self, extents: E) -> Result<ndarray::ArrayD<T>>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let extents = self::extents(extents)?;
        let slab = self.file.check_slab(self.id, &extents, false)?;
        let shape = array_shape(&slab, &extents);
        let v = T::purecdf_read(self, &extents)?;
        ndarray::ArrayD::from_shape_vec(shape, v).map_err(|_| Error::new(ErrorKind::Edge))
    }

    /// Reads a selection into an array of the selection's shape (index axes dropped), in
    /// standard layout, reusing its allocation. `T` is any [`NcTypeDescriptor`].
    ///
    /// # Errors
    /// As [`Variable::get_values`]; NC_EEDGE when the array's shape differs from the
    /// selection's, or it is not in standard layout.
    #[cfg(feature = "ndarray")]
    pub fn get_into<T: NcTypeDescriptor + Copy, E, D>(
        &self,
        mut out: ndarray::ArrayViewMut<'_, T, D>,
        extents: E,
    ) -> Result<()>
    where
        D: ndarray::Dimension,
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let extents = self::extents(extents)?;
        let slab = self.file.check_slab(self.id, &extents, false)?;
        let shape = array_shape(&slab, &extents);
        if out.shape() != shape.as_slice() {
            return fail(
                ErrorKind::Edge,
                format!(
                    "array of shape {:?} for a selection of {shape:?}",
                    out.shape()
                ),
            );
        }
        let Some(slice) = out.as_slice_mut() else {
            return fail(ErrorKind::Edge, "the array is not in standard layout");
        };
        T::purecdf_read_into(self, &extents, slice)
    }
}

/// NC_EEDGE for a buffer of `actual` elements where the selection has `wanted` (georust's
/// `BufferLen`).
pub(crate) fn buffer_len(wanted: u64, actual: usize) -> Error {
    Error::with_detail(
        ErrorKind::Edge,
        format!("{wanted} values for a buffer of {actual}"),
    )
    .georust(crate::GeorustError::BufferLen {
        wanted: usize::try_from(wanted).unwrap_or(usize::MAX),
        actual,
    })
}

/// The shape of the array a selection reads into: its counts without the index axes.
#[cfg(feature = "ndarray")]
pub(super) fn array_shape(slab: &Hyperslab, extents: &Extents) -> Vec<usize> {
    let index = extents.index_axes(slab.count.len());
    slab.count
        .iter()
        .zip(index)
        .filter(|(_, i)| !i)
        .map(|(&c, _)| c as usize)
        .collect()
}
