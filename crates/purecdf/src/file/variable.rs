//! [`Variable`]: a borrowed view of one variable, with its metadata and typed reads (georust
//! `netcdf`'s names: `get_values`, `get_value`, `get_values_into`, `get`, `get_into`,
//! `get_string`, `fill_value`, `endianness`, `chunking`, `attribute_value`).

use super::{bytes_of_mut, check_raw_len, raw_byte_access, raw_size, Dimension, File};
use crate::alloc::zeroed;
use crate::attribute::{is_hidden, AttributeValue};
use crate::convert::{self, NcElement};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{Attribute, NcType, Values, VarId};
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
#[derive(Clone, Copy)]
pub struct Variable<'f> {
    pub(super) file: &'f File,
    pub(super) id: VarId,
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
        Variable { file, id }
    }

    pub(crate) fn def(&self) -> &'f crate::model::Variable {
        self.file.schema().var(self.id)
    }

    /// The variable's id.
    pub fn id(&self) -> VarId {
        self.id
    }

    /// The group holding the variable.
    pub fn group_id(&self) -> crate::GroupId {
        self.def().group
    }

    /// The variable's name (a `String`, as georust `netcdf` returns it; see
    /// [`Variable::name_str`]).
    pub fn name(&self) -> String {
        self.def().name.clone()
    }

    /// The variable's name, borrowed.
    pub fn name_str(&self) -> &'f str {
        &self.def().name
    }

    /// The variable's type as the data model's [`NcType`](enum@NcType) (a user type by id).
    pub fn nc_type(&self) -> NcType {
        self.def().typ
    }

    /// The variable's type described in full (as georust's `vartype`): a user type with its
    /// name, fields, members or base type.
    pub fn vartype(&self) -> crate::types::NcVariableType {
        crate::types::describe(self.file.schema(), self.nc_type())
    }

    /// The variable's dimensions, outermost first.
    pub fn dimensions(&self) -> Vec<Dimension<'f>> {
        self.def()
            .dims
            .iter()
            .map(|&d| Dimension::new(self.file, d))
            .collect()
    }

    /// Current shape (lengths of the dimensions).
    pub fn shape(&self) -> Vec<u64> {
        self.file.schema().shape(self.id)
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
    pub fn attributes(&self) -> impl Iterator<Item = &'f Attribute> {
        self.def().atts.iter().filter(|a| !is_hidden(&a.name))
    }

    /// An attribute by name.
    pub fn attribute(&self, name: &str) -> Option<&'f Attribute> {
        self.def().att(name)
    }

    /// An attribute's value by name: `None` when there is no such attribute.
    pub fn attribute_value(&self, name: &str) -> Option<Result<AttributeValue>> {
        self.attribute(name).map(Attribute::value)
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
        let slab = self
            .file
            .check_slab(self.id, &crate::selection::extents(extents)?, false)?;
        self.file
            .backend()
            .read_values(self.id, &slab)
            .map_err(|e| e.object(self.name_str()))
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
        let slab = self
            .file
            .check_slab(self.id, &crate::selection::extents(extents)?, false)?;
        let size = raw_size(self.nc_type(), self.name_str())?;
        let n = usize::try_from(slab.num_elements()).map_err(|_| Error::new(ErrorKind::NoMem))?;
        // Every byte is overwritten by the read, so a buffer of the right length is not cleared.
        out.resize(n.checked_mul(size).ok_or(ErrorKind::NoMem)?, 0);
        self.file
            .backend()
            .read_raw(self.id, &slab, out)
            .map_err(|e| e.object(self.name_str()))
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
        let slab = self
            .file
            .check_slab(self.id, &crate::selection::extents(extents)?, false)?;
        check_raw_len(
            &slab,
            raw_size(self.nc_type(), self.name_str())?,
            buffer.len(),
        )?;
        self.file
            .backend()
            .read_raw(self.id, &slab, buffer)
            .map_err(|e| e.object(self.name_str()))
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

    pub(crate) fn read_values<T: NcElement>(&self, extents: &Extents) -> Result<Vec<T>> {
        let slab = self.file.check_slab(self.id, extents, false)?;
        let typ = self.nc_type();
        let n = usize::try_from(slab.num_elements()).map_err(|_| Error::new(ErrorKind::NoMem))?;
        let size = typ
            .atomic_size()
            .filter(|_| typ.is_numeric() || typ == NcType::Char);
        let Some(size) = size else {
            return fail(
                ErrorKind::BadType,
                format!("{} is not numeric", self.name_str()),
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
                    .map_err(|e| e.object(self.name_str()))?;
                return Ok(out);
            }
        }
        let mut raw = zeroed::<u8>(bytes)?;
        self.file
            .backend()
            .read_raw(self.id, &slab, &mut raw)
            .map_err(|e| e.object(self.name_str()))?;
        if raw_byte_access(self.file.format(), typ, T::NC_TYPE) {
            return Ok(raw.chunks_exact(1).map(T::read_ne).collect());
        }
        let mut out = Vec::with_capacity(n);
        convert::convert_raw::<T>(typ, &raw, &mut out).map_err(|e| e.object(self.name_str()))?;
        Ok(out)
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
        let v = self.get_values::<T, _>(extents)?;
        if v.len() != buffer.len() {
            return fail(
                ErrorKind::Edge,
                format!("{} values for a buffer of {}", v.len(), buffer.len()),
            );
        }
        buffer.copy_from_slice(&v);
        Ok(())
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
        let v = T::purecdf_read(self, &extents)?;
        slice.copy_from_slice(&v);
        Ok(())
    }
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
