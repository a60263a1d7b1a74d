//! [`VariableMut`]: a handle to write one variable and set its attributes and storage, without
//! ids (georust `netcdf`'s `put_values`, `put_value`, `put`, `put_string`, `put_attribute`,
//! `set_compression`, `set_chunking`, `set_fill_value`, `set_endianness`).

use super::{FileMut, Variable};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{NcType, Values, VarId};
use crate::selection::{extents, Extent, Extents};
use crate::types::NcTypeDescriptor;
use crate::{Chunking, Endianness, Quantize};

/// A variable open for writing. Derefs to [`Variable`] for everything that reads (as georust
/// `netcdf`'s does): pass `&var` where a `&Variable` is wanted. Handles share their
/// [`FileMut`], so several may be open at once (see [`FileMut::variables_mut`]).
pub struct VariableMut<'f> {
    var: Variable<'f>,
    file: &'f FileMut,
}

impl std::fmt::Debug for VariableMut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.var.fmt(f)
    }
}

impl<'f> std::ops::Deref for VariableMut<'f> {
    type Target = Variable<'f>;
    fn deref(&self) -> &Variable<'f> {
        &self.var
    }
}

impl<'f> VariableMut<'f> {
    pub(crate) fn new(file: &'f FileMut, id: VarId) -> Self {
        VariableMut {
            var: Variable::new(file, id),
            file,
        }
    }

    /// The variable read-only (what the handle derefs to).
    pub fn view(&self) -> Variable<'f> {
        self.var.clone()
    }

    /// Sets an attribute of the variable (`nc_put_att`): a number, a vector, text (`&str`,
    /// written as char), strings (`Vec<String>`, written as NC_STRING) or an
    /// [`AttributeValue`](crate::AttributeValue). Returns (a copy of) the attribute as written.
    ///
    /// # Errors
    /// As netcdf-c's `nc_put_att`.
    pub fn put_attribute(
        &mut self,
        name: &str,
        value: impl crate::IntoAttributeValues,
    ) -> Result<crate::Attribute<'static>> {
        let g = self.var.group_id();
        self.file
            .put_attribute_returned(g, Some(self.id), name, value.into_attribute_values())
            .map(crate::Attribute::owned)
    }

    /// Deletes an attribute of the variable (`nc_del_att`).
    ///
    /// # Errors
    /// NC_ENOTATT when there is no such attribute.
    pub fn delete_attribute(&mut self, name: &str) -> Result<()> {
        let g = self.var.group_id();
        self.file.delete_attribute(g, Some(self.id), name)
    }

    /// Renames the variable (`nc_rename_var`).
    ///
    /// # Errors
    /// NC_ENAMEINUSE for a name taken.
    pub fn rename(&mut self, name: &str) -> Result<()> {
        self.file.rename_variable(self.id, name)
    }

    /// Writes values into a selection, converting to the variable's type. As in georust
    /// `netcdf`, a one-dimensional variable takes as many values as given from the start of the
    /// selection (so `put_values(&v, ..)` fills or grows it).
    ///
    /// # Errors
    /// NC_EEDGE when the number of values differs from the selection's, and as
    /// [`FileMut::put_values`].
    pub fn put_values<T: NcTypeDescriptor, E>(&mut self, values: &[T], extents: E) -> Result<()>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let extents = extents_for(&self.var, self::extents(extents)?, &[values.len()], true)?;
        T::purecdf_write(self.file, self.id, values, extents)
    }

    /// Writes one value at a selection of one element.
    ///
    /// # Errors
    /// As [`VariableMut::put_values`].
    pub fn put_value<T: NcTypeDescriptor, E>(&mut self, value: T, extents: E) -> Result<()>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        self.put_values(&[value], extents)
    }

    /// Writes one string: an element of a string variable, or the text of a char variable.
    ///
    /// # Errors
    /// NC_EBADTYPE for other types, and as [`VariableMut::put_values`].
    pub fn put_string<E>(&mut self, value: &str, extents: E) -> Result<()>
    where
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let extents = self::extents(extents)?;
        match self.nc_type() {
            NcType::String => {
                let v = Values::String(vec![Some(value.to_owned())]);
                self.file.put_raw_values(self.id, &v, extents)
            }
            NcType::Char => self.put_values(value.as_bytes(), extents),
            t => fail(
                ErrorKind::BadType,
                format!("a string written to {} of type {t:?}", self.name_str()),
            ),
        }
    }

    /// Writes an array into a selection. Index axes of the selection take no array axis; an
    /// open-ended range on an unlimited dimension (`..`, `3..`) grows to the array's length.
    ///
    /// # Errors
    /// NC_EEDGE when the array's shape does not fit the selection, or it is not in standard
    /// layout; as [`FileMut::put_values`].
    #[cfg(feature = "ndarray")]
    pub fn put<T: NcTypeDescriptor, E, D>(
        &mut self,
        array: ndarray::ArrayView<'_, T, D>,
        extents: E,
    ) -> Result<()>
    where
        D: ndarray::Dimension,
        E: TryInto<Extents>,
        E::Error: Into<Error>,
    {
        let extents = extents_for(&self.var, self::extents(extents)?, array.shape(), false)?;
        let Some(values) = array.as_slice() else {
            return fail(ErrorKind::Edge, "the array is not in standard layout");
        };
        T::purecdf_write(self.file, self.id, values, extents)
    }

    /// Sets deflate compression (level 0–9; 0: none) and the shuffle filter (netCDF-4 only,
    /// before the variable is written).
    ///
    /// # Errors
    /// NC_ENOTNC4 for the classic formats; NC_EINVAL for a level above 9.
    pub fn set_compression(&mut self, deflate_level: i32, shuffle: bool) -> Result<()> {
        let level = u32::try_from(deflate_level).map_err(|_| ErrorKind::Inval)?;
        let level = (level > 0).then_some(level);
        self.file.def_var_deflate(self.id, shuffle, level)
    }

    /// Sets chunked storage with these chunk sizes, one per dimension (netCDF-4 only). An empty
    /// slice on a scalar keeps contiguous storage.
    ///
    /// # Errors
    /// NC_ENOTNC4 for the classic formats; NC_EBADCHUNK for sizes that do not fit.
    pub fn set_chunking(&mut self, chunk_size: &[usize]) -> Result<()> {
        if chunk_size.is_empty() {
            return Ok(());
        }
        let rank = self.var.def().dims.len();
        if chunk_size.len() != rank {
            let e = Error::with_detail(
                ErrorKind::BadChunk,
                format!("{} chunk sizes for {rank} dimensions", chunk_size.len()),
            );
            return Err(e.georust(crate::GeorustError::SliceLen));
        }
        let sizes = chunk_size.iter().map(|&c| c as u64).collect();
        self.file
            .def_var_chunking(self.id, Chunking::Chunked(sizes))
    }

    /// Sets storage: contiguous, compact or chunked (purecdf's richer form of `set_chunking`).
    ///
    /// # Errors
    /// As [`FileMut::def_var_chunking`].
    pub fn set_storage(&mut self, chunking: Chunking) -> Result<()> {
        self.file.def_var_chunking(self.id, chunking)
    }

    /// Sets the fill value (`_FillValue`), which must have the variable's type: a number, or a
    /// value of a type derived for the variable's user type ([`crate::types`]).
    ///
    /// # Errors
    /// NC_EBADTYPE when `T` is not the variable's type.
    pub fn set_fill_value<T: NcTypeDescriptor + Copy>(&mut self, fill_value: T) -> Result<()> {
        let values = T::purecdf_fill_attribute(&self.var, fill_value)?;
        let g = self.var.group_id();
        self.file
            .put_attribute(g, Some(self.id), "_FillValue", values)
    }

    /// Turns fill mode off for this variable: unwritten data is left undefined.
    ///
    /// # Errors
    /// As [`FileMut::def_var_fill`].
    pub fn set_nofill(&mut self) -> Result<()> {
        self.file.def_var_fill(self.id, true)
    }

    /// Sets the byte order of the data in the file (netCDF-4 only).
    ///
    /// # Errors
    /// NC_ENOTNC4 for the classic formats.
    pub fn set_endianness(&mut self, e: Endianness) -> Result<()> {
        let big = match e {
            Endianness::Native => None,
            Endianness::Little => Some(false),
            Endianness::Big => Some(true),
        };
        self.file.def_var_endian(self.id, big)
    }

    /// Adds an HDF5 filter with its parameters (netCDF-4 only).
    ///
    /// # Errors
    /// As [`FileMut::def_var_filter`].
    pub fn set_filter(&mut self, id: u32, params: &[u32]) -> Result<()> {
        self.file.def_var_filter(self.id, id, params)
    }

    /// Quantizes float data to `nsd` significant digits (bits for BitRound) before it is
    /// stored; `None` turns it off.
    ///
    /// # Errors
    /// As [`FileMut::def_var_quantize`].
    pub fn set_quantize(&mut self, q: Option<(Quantize, i32)>) -> Result<()> {
        self.file.def_var_quantize(self.id, q)
    }
}

/// The selection a write of data shaped `shape` covers, as georust `netcdf` works it out:
/// index axes take no data axis; an open-ended extent (`..`, `3..`) on an unlimited dimension
/// takes the data's length when that is at least the dimension's from the start; with `flat`
/// (a slice of values), a one-dimensional variable takes as many values as given.
fn extents_for(
    var: &Variable<'_>,
    extents: Extents,
    shape: &[usize],
    flat: bool,
) -> Result<Extents> {
    let dims = var.dimensions();
    let list = match extents {
        Extents::All => vec![
            Extent::Slice {
                start: 0,
                stride: 1
            };
            dims.len()
        ],
        Extents::Extent(list) => list,
    };
    if flat {
        return Ok(match (dims.len(), list.as_slice()) {
            (
                1,
                [Extent::Slice { start, stride }
                | Extent::SliceEnd { start, stride, .. }
                | Extent::SliceCount { start, stride, .. }],
            ) => Extents::Extent(vec![Extent::SliceCount {
                start: *start,
                count: shape[0],
                stride: *stride,
            }]),
            _ => Extents::Extent(list),
        });
    }
    let mut axes = shape.iter();
    let mut out = Vec::with_capacity(list.len());
    for (e, d) in list.into_iter().zip(dims) {
        out.push(match e {
            Extent::Index(_) => e,
            Extent::Slice { start, stride } if d.unlimited => {
                // The array may grow the dimension, not write fewer records than it has from
                // `start` on (which would leave it unclear where they go): those keep the
                // selection, and the shapes then differ (NC_EEDGE).
                let n = axes.next().copied().unwrap_or(0);
                let step = usize::try_from(stride).unwrap_or(0).max(1);
                let have = d.len().saturating_sub(start).div_ceil(step);
                if n >= have {
                    Extent::SliceCount {
                        start,
                        count: n,
                        stride,
                    }
                } else {
                    e
                }
            }
            _ => {
                axes.next();
                e
            }
        });
    }
    Ok(Extents::Extent(out))
}
