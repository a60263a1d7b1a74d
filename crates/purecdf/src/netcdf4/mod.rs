//! netCDF-4 files read through our own HDF5 layer (`purecdf-hdf5`), per the file format spec's
//! "NetCDF-4 Format" section: groups are HDF5 groups, variables are datasets, dimensions are
//! dimension scales (a pure dimension is a scale whose NAME says "This is a netCDF dimension but
//! not a netCDF variable"), `_Netcdf4Dimid` orders dimensions, `_Netcdf4Coordinates` gives the
//! dimensions of multi-dimensional coordinate variables, `_nc4_non_coord_` prefixes a variable that
//! shares a dimension's name without being its coordinate, and `_nc3_strict` marks the classic
//! model. Datasets without dimension scales (plain HDF5) get phony dimensions as netcdf-c names
//! them (`phony_dim_N`).

pub(crate) mod build;
mod types;
mod write;

pub(crate) use write::Netcdf4Writer;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::global_heap::{GlobalHeapCollection, GlobalHeapId};
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::io::ByteSource;
use purecdf_hdf5::read::{Dataset, Hdf5File, OpenOptions, Slab};
use purecdf_hdf5::FormatError;

use crate::backend::{Backend, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{GroupId, NcType, Schema, Values, VarId};
use crate::selection::Hyperslab;

/// Converts an HDF5 format error into a netCDF one (NC_EHDFERR with the place).
pub(crate) fn hdf(e: FormatError) -> Error {
    Error::with_detail(ErrorKind::Hdf, e.to_string()).offset(e.offset)
}

/// Where a variable's data lives.
pub(crate) struct VarData {
    pub(crate) dataset: Dataset,
}

/// An open netCDF-4 (or plain HDF5) file.
pub(crate) struct Netcdf4File {
    h5: Hdf5File,
    schema: Schema,
    format: Format,
    vars: Vec<Option<VarData>>,
    heaps: HeapCache,
    att_errors: Vec<(GroupId, Option<VarId>)>,
    dim_errors: Vec<(VarId, usize)>,
}

impl std::fmt::Debug for Netcdf4File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Netcdf4File")
            .field("format", &self.format)
            .finish()
    }
}

/// The HDF5 layer's options for the library's.
fn h5_options(options: crate::OpenOptions) -> OpenOptions {
    OpenOptions::new()
        .ignore_status_flags(options.ignore_hdf5_status_flags)
        .ignore_end_of_allocation(options.ignore_hdf5_end_of_allocation)
}

impl Netcdf4File {
    /// Opens a file by path, with options relaxing what HDF5 refuses. Opened by path, the file
    /// can find the targets of its external links and the sources of its virtual datasets named
    /// relative to it.
    pub(crate) fn open_with(path: &Path, options: crate::OpenOptions) -> Result<Netcdf4File> {
        std::fs::File::open(path).map_err(Error::io)?;
        let h5 = Hdf5File::open_path_with(path, h5_options(options)).map_err(hdf)?;
        Self::from_hdf5(h5)
    }

    /// Opens from any byte source.
    pub(crate) fn from_source(source: Arc<dyn ByteSource>) -> Result<Netcdf4File> {
        Self::from_source_with(source, crate::OpenOptions::default())
    }

    /// Opens from any byte source, with options relaxing what HDF5 refuses.
    pub(crate) fn from_source_with(
        source: Arc<dyn ByteSource>,
        options: crate::OpenOptions,
    ) -> Result<Netcdf4File> {
        Self::from_hdf5(Hdf5File::open_with(source, h5_options(options)).map_err(hdf)?)
    }

    /// Opens from a byte source that is the file `key`, whose external links and virtual
    /// datasets name files `opener` opens (and no local file: see
    /// [`Hdf5File::set_related_opener`]).
    #[cfg(feature = "remote")]
    pub(crate) fn from_source_related(
        source: Arc<dyn ByteSource>,
        key: &str,
        opener: Arc<dyn purecdf_hdf5::read::family::RelatedOpener>,
    ) -> Result<Netcdf4File> {
        let mut h5 =
            Hdf5File::open_with(source, h5_options(crate::OpenOptions::default())).map_err(hdf)?;
        h5.set_related_opener(key, opener);
        Self::from_hdf5(h5)
    }

    fn from_hdf5(h5: Hdf5File) -> Result<Netcdf4File> {
        let heaps = HeapCache::default();
        let built = build::build(&h5, &heaps)?;
        Ok(Netcdf4File {
            h5,
            schema: built.schema,
            format: built.format,
            vars: built.vars,
            heaps,
            att_errors: built.att_errors,
            dim_errors: built.dim_errors,
        })
    }

    /// The dataset behind `var`, for reading its data. As netcdf-c does (`NC4_get_vars`), a
    /// variable with a filter this build cannot decode is refused whole (NC_ENOFILTER), even
    /// where the filter is optional and the chunks skipped it.
    fn var_data(&self, var: VarId) -> Result<&VarData> {
        let vd = self
            .vars
            .get(var.0)
            .and_then(Option::as_ref)
            .ok_or_else(|| Error::new(ErrorKind::NotVar))?;
        if let Some(f) = vd
            .dataset
            .filters
            .filters
            .iter()
            .find(|f| !purecdf_hdf5::filter::is_available(f.id))
        {
            return Err(Error::with_detail(
                ErrorKind::NoFilter,
                format!("filter {} is not available", f.id),
            ));
        }
        Ok(vd)
    }

    fn slab(&self, var: VarId, h: &Hyperslab) -> Result<Vec<u8>> {
        let vd = self.var_data(var)?;
        let slab = Slab {
            start: h.start.clone(),
            count: h.count.clone(),
            stride: h.stride.clone(),
        };
        vd.dataset.read_slab(&slab).map_err(hdf)
    }
}

impl types::HeapReader for Netcdf4File {
    fn vlen_bytes(&self, element: &[u8]) -> Result<Option<(u32, Vec<u8>)>> {
        self.heaps.vlen_bytes(&self.h5, element)
    }
}

/// Global heap collections read so far, shared by the threads reading a file: every vlen
/// element names a collection and an object in it, and many elements share a collection.
#[derive(Default)]
/// Collections are keyed by file number and address (external links lead to other files).
pub(crate) struct HeapCache(Mutex<HashMap<(u32, u64), Arc<GlobalHeapCollection>>>);

impl HeapCache {
    /// The element count and bytes of the global heap object a 16-byte vlen element points to;
    /// `None` for a NULL element.
    pub(crate) fn vlen_bytes(
        &self,
        h5: &Hdf5File,
        element: &[u8],
    ) -> Result<Option<(u32, Vec<u8>)>> {
        let sizes = h5.sizes();
        let mut c = Cursor::new(element, 0, "vlen element");
        let n = c.u32().map_err(hdf)?;
        let id = GlobalHeapId::parse(&mut c, sizes).map_err(hdf)?;
        if id.collection == 0 {
            return Ok(None);
        }
        let key = (h5.file_number(), id.collection);
        let cached = self.0.lock().ok().and_then(|h| h.get(&key).cloned());
        let col = match cached {
            Some(c) => c,
            None => {
                let c = Arc::new(
                    GlobalHeapCollection::read(h5.source(), id.collection, sizes).map_err(hdf)?,
                );
                if let Ok(mut h) = self.0.lock() {
                    h.insert(key, c.clone());
                }
                c
            }
        };
        let obj = col.object(id.index).ok_or_else(|| {
            Error::with_detail(ErrorKind::Hdf, "vlen data missing from the global heap")
                .offset(id.collection)
        })?;
        Ok(Some((n, obj.to_vec())))
    }
}

impl Backend for Netcdf4File {
    fn format(&self) -> Format {
        self.format
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn attributes_error(&self, g: GroupId, var: Option<VarId>) -> Option<Error> {
        self.att_errors.contains(&(g, var)).then(|| {
            Error::with_detail(
                ErrorKind::AttMeta,
                "an attribute of more than one dimension",
            )
        })
    }

    fn dimension_error(&self, var: VarId) -> Option<(usize, Error)> {
        self.dim_errors
            .iter()
            .find(|(v, _)| *v == var)
            .map(|&(_, axis)| {
                let e = Error::with_detail(
                    ErrorKind::BadDim,
                    "dimension scale outside the variable's group and its ancestors",
                );
                (axis, e)
            })
    }

    fn read_raw(&self, var: VarId, slab: &Hyperslab, out: &mut [u8]) -> Result<()> {
        let vd = self.var_data(var)?;
        let sel = Slab {
            start: slab.start.clone(),
            count: slab.count.clone(),
            stride: slab.stride.clone(),
        };
        let dt = &vd.dataset.dtype;
        if matches!(vd.dataset.space, Dataspace::Null) {
            // netcdf-c shows a dataset with a null dataspace as a scalar but cannot read it.
            return Err(Error::with_detail(
                ErrorKind::Hdf,
                "dataset with a null dataspace",
            ));
        }
        if types::needs_conversion(dt) {
            // Reduced-precision integers and custom floats (n-bit data): read in the file type,
            // then convert each element as HDF5 would to the native type.
            let typ = self.schema.var(var).typ;
            let ns = typ.atomic_size().ok_or(ErrorKind::BadType)?;
            let n = out.len() / ns.max(1);
            let mut tmp = crate::alloc::zeroed::<u8>(
                n.checked_mul(dt.size() as usize).ok_or(ErrorKind::NoMem)?,
            )?;
            vd.dataset.read_slab_into(&sel, &mut tmp).map_err(hdf)?;
            return types::convert_to_native(dt, typ, &tmp, out);
        }
        vd.dataset.read_slab_into(&sel, out).map_err(hdf)?;
        let size = vd.dataset.dtype.size() as usize;
        if size > 1 && types::is_big_endian(&vd.dataset.dtype) == cfg!(target_endian = "little") {
            for e in out.chunks_exact_mut(size) {
                e.reverse();
            }
        }
        Ok(())
    }

    fn read_values(&self, var: VarId, slab: &Hyperslab) -> Result<Values> {
        let typ = self.schema.var(var).typ;
        let dt: &Datatype = &self.var_data(var)?.dataset.dtype;
        match typ {
            NcType::String | NcType::User(_) => {
                let data = self.slab(var, slab)?;
                let es = dt.size() as usize;
                let mut out = Values::with_capacity(typ, data.len() / es.max(1));
                // vlen data is in the global heap of the dataset's own file.
                let reader = build::HeapOnly {
                    h5: self.var_data(var)?.dataset.file(),
                    cache: &self.heaps,
                };
                for e in data.chunks_exact(es.max(1)) {
                    let v = types::decode_value(dt, e, &reader, 0)?;
                    match (&mut out, v) {
                        (Values::String(s), crate::model::Value::String(x)) => s.push(x),
                        (Values::User(_, u), v) => u.push(v),
                        _ => return Err(Error::new(ErrorKind::BadType)),
                    }
                }
                Ok(out)
            }
            _ => crate::backend::read_atomic_values(self, var, slab),
        }
    }
}
