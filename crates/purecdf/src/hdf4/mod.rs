//! HDF4 SD files read through `purecdf-hdf4`, mapped to the netCDF-4 data model as netcdf-c's
//! HDF4 layer maps them (`libhdf4/hdf4file.c`, `NC_HDF4_open`, `hdf4_read_var`,
//! `hdf4_read_dim`, `hdf4_type_info`):
//! * every SDS, coordinate variables included, is a variable of the root group, in SD order;
//! * a dimension is created when first met by name, its length the SD dimension's size or,
//!   for an unlimited one (size 0), the first dimension's current length of the dataset that
//!   meets it first; it is never unlimited in netCDF;
//! * types: `DFNT_CHAR` → char, `DFNT_UCHAR`/`UINT8` → ubyte, `INT8` → byte, then short,
//!   ushort, int, uint, float, double; 64-bit integers are refused (NC_EBADTYPID);
//!   the endianness is big unless the number type is little-endian;
//! * a chunked SDS reports chunked storage and its chunk lengths, anything else contiguous;
//! * the format is netCDF-4 (`_Format = "netCDF-4"`), the extended format HDF4.

use std::path::Path;
use std::sync::Arc;

use purecdf_hdf4::element::Layout;
use purecdf_hdf4::types as nt;
use purecdf_hdf4::{Hdf4File, NumberType, SdAttribute, SdDataset, Selection};

use crate::backend::{Backend, ExtendedFormat, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Attribute, NcType, Schema, VarId, ROOT};
use crate::selection::Hyperslab;

/// Converts an HDF4 error into a netCDF one (NC_EHDFERR with the place).
fn hdf(e: purecdf_hdf4::Error) -> Error {
    let err = Error::with_detail(ErrorKind::Hdf, e.message);
    match e.offset {
        Some(o) => err.offset(o),
        None => err,
    }
}

/// An open HDF4 SD file.
pub(crate) struct Hdf4Backend {
    file: Hdf4File,
    datasets: Vec<SdDataset>,
    schema: Schema,
}

impl std::fmt::Debug for Hdf4Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hdf4Backend")
            .field("datasets", &self.datasets.len())
            .finish()
    }
}

/// The netCDF type of an HDF4 number type (`hdf4_type_info`).
fn nc_type(t: NumberType) -> Result<NcType> {
    Ok(match t.base {
        nt::DFNT_CHAR8 => NcType::Char,
        nt::DFNT_UCHAR8 | nt::DFNT_UINT8 => NcType::UByte,
        nt::DFNT_INT8 => NcType::Byte,
        nt::DFNT_INT16 => NcType::Short,
        nt::DFNT_UINT16 => NcType::UShort,
        nt::DFNT_INT32 => NcType::Int,
        nt::DFNT_UINT32 => NcType::UInt,
        nt::DFNT_FLOAT32 => NcType::Float,
        nt::DFNT_FLOAT64 => NcType::Double,
        b => {
            return Err(Error::with_detail(
                ErrorKind::BadTypeId,
                format!("HDF4 number type {b}"),
            ))
        }
    })
}

/// Bytes in file order → native order, in place.
fn to_native(bytes: &mut [u8], t: NumberType) {
    let size = t.size();
    if size > 1 && t.little_endian != cfg!(target_endian = "little") {
        for e in bytes.chunks_exact_mut(size) {
            e.reverse();
        }
    }
}

fn attribute(a: &SdAttribute) -> Result<Attribute> {
    let typ = nc_type(a.number_type)?;
    let mut raw = a.data.clone();
    to_native(&mut raw, a.number_type);
    Ok(Attribute {
        name: a.name.clone(),
        values: crate::convert::values_from_ne_bytes(typ, &raw)?,
    })
}

impl Hdf4Backend {
    /// Opens an HDF4 file by path.
    pub(crate) fn open(path: &Path) -> Result<Hdf4Backend> {
        std::fs::File::open(path).map_err(Error::io)?;
        Self::build(Hdf4File::open_path(path).map_err(hdf)?)
    }

    /// Opens an HDF4 file held in memory.
    pub(crate) fn from_bytes(bytes: Vec<u8>) -> Result<Hdf4Backend> {
        Self::from_source(Arc::new(bytes))
    }

    /// Opens an HDF4 file held by any byte source (a remote object, `#mode=bytes`); external
    /// data elements are refused, as for memory.
    pub(crate) fn from_source(
        source: Arc<dyn purecdf_hdf5::io::ByteSource>,
    ) -> Result<Hdf4Backend> {
        Self::build(Hdf4File::open(source).map_err(hdf)?)
    }

    fn build(file: Hdf4File) -> Result<Hdf4Backend> {
        let sd = file.sd().map_err(hdf)?;
        let mut schema = Schema::default();
        for a in &sd.attributes {
            schema.groups[ROOT.0].atts.push(attribute(a)?);
        }
        for ds in &sd.datasets {
            let typ = nc_type(ds.number_type)?;
            let rec_len = ds.shape.first().copied().unwrap_or(0);
            let mut dims = Vec::with_capacity(ds.dims.len());
            for &d in &ds.dims {
                let sd_dim = &sd.dimensions[d];
                let id = match schema.find_dim(ROOT, &sd_dim.name) {
                    Some(id) => id,
                    None => {
                        let len = if sd_dim.size == 0 {
                            rec_len
                        } else {
                            sd_dim.size
                        };
                        schema.add_dim(ROOT, &sd_dim.name, len, false)?
                    }
                };
                dims.push(id);
            }
            let v = schema.add_var(ROOT, &ds.name, typ, &dims)?;
            let mut atts = Vec::with_capacity(ds.attributes.len());
            for a in &ds.attributes {
                atts.push(attribute(a)?);
            }
            let var = &mut schema.vars[v.0];
            var.atts = atts;
            var.storage.big_endian = Some(!ds.number_type.little_endian);
            if let Some(Layout::Chunked(h)) = &ds.layout {
                var.storage.chunk_sizes = Some(h.dims.iter().map(|d| d.chunk_length).collect());
            }
        }
        Ok(Hdf4Backend {
            file,
            datasets: sd.datasets,
            schema,
        })
    }

    /// The fill value of a dataset in its file byte order: its `_FillValue` attribute, else
    /// netCDF-2's default for its type (what `SDreaddata` gives where nothing was written).
    fn fill(ds: &SdDataset) -> Vec<u8> {
        let t = ds.number_type;
        if let Some(a) = ds.attribute("_FillValue") {
            if a.count == 1 && a.number_type.size() == t.size() {
                let mut v = a.data.clone();
                if a.number_type.little_endian != t.little_endian {
                    v.reverse();
                }
                return v;
            }
        }
        let mut v = match t.base {
            nt::DFNT_INT8 | nt::DFNT_UINT8 => vec![0x81],
            nt::DFNT_INT16 | nt::DFNT_UINT16 => (-32767i16).to_be_bytes().to_vec(),
            nt::DFNT_INT32 | nt::DFNT_UINT32 => (-2147483647i32).to_be_bytes().to_vec(),
            nt::DFNT_FLOAT32 => 9.969_21e36_f32.to_be_bytes().to_vec(),
            nt::DFNT_FLOAT64 => 9.969_209_968_386_869e36_f64.to_be_bytes().to_vec(),
            _ => vec![0; t.size()],
        };
        if t.little_endian {
            v.reverse();
        }
        v
    }
}

impl Backend for Hdf4Backend {
    fn format(&self) -> Format {
        Format::Netcdf4
    }

    fn extended_format(&self) -> ExtendedFormat {
        ExtendedFormat::Hdf4
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn read_raw(&self, var: VarId, slab: &Hyperslab, out: &mut [u8]) -> Result<()> {
        let ds = self
            .datasets
            .get(var.0)
            .ok_or_else(|| Error::new(ErrorKind::NotVar))?;
        let sel = Selection {
            start: slab.start.clone(),
            count: slab.count.clone(),
            stride: slab.stride.clone(),
        };
        self.file
            .read_dataset(ds, &sel, &Self::fill(ds), out)
            .map_err(hdf)?;
        to_native(out, ds.number_type);
        Ok(())
    }
}
