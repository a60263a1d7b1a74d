//! Reading and writing variable data of a netCDF-4 file being written: the implicit `enddef`
//! of netCDF-4 files, record variables growing along their unlimited dimensions, byte order,
//! and strings and user types through global-heap pieces.

use purecdf_hdf5::read::Slab;

use super::types::{fill_pieces, values_pieces};
use super::{hw, Netcdf4Writer};
use crate::backend::{BackendMut, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{NcType, Value, Values, VarId};
use crate::selection::Hyperslab;

fn slab_of(h: &Hyperslab) -> Slab {
    Slab {
        start: h.start.clone(),
        count: h.count.clone(),
        stride: h.stride.clone(),
    }
}

/// Leaves define mode as netCDF-4 does before data access (classic model: NC_EINDEFINE).
fn data_mode(nw: &mut Netcdf4Writer) -> Result<()> {
    if nw.defs.define {
        if nw.defs.format == Format::Netcdf4Classic {
            return Err(Error::new(ErrorKind::InDefine));
        }
        nw.enddef()?;
    }
    Ok(())
}

/// Grows the variable's dataset (and its unlimited dimensions) to hold the selection.
fn grow(nw: &mut Netcdf4Writer, var: VarId, h: &Hyperslab) -> Result<purecdf_hdf5::write::ObjId> {
    let ds = nw.h5vars[var.0].ds.ok_or(ErrorKind::NotVar)?;
    let dims = nw.defs.schema.var(var).dims.clone();
    if dims.is_empty() {
        return Ok(ds);
    }
    let cur = nw.w.dataspace(ds).map_err(super::hw)?.dims().to_vec();
    let mut want = cur.clone();
    for (i, d) in dims.iter().enumerate() {
        if h.count[i] == 0 {
            continue;
        }
        let end = h.start[i] + (h.count[i] - 1) * h.stride[i] + 1;
        if nw.defs.schema.dim(*d).unlimited {
            want[i] = want[i].max(end);
            let dim = &mut nw.defs.schema.dims[d.0];
            dim.len = dim.len.max(end);
        }
    }
    if want != cur {
        nw.w.set_extent(ds, &want).map_err(hw)?;
    }
    Ok(ds)
}

/// `nc_put_vars` of native-endian values of a fixed-size atomic type.
pub(crate) fn write_raw(
    nw: &mut Netcdf4Writer,
    var: VarId,
    h: &Hyperslab,
    data: &[u8],
) -> Result<()> {
    data_mode(nw)?;
    let ds = grow(nw, var, h)?;
    let typ = nw.defs.schema.var(var).typ;
    let size = typ.atomic_size().unwrap_or(1);
    let swap = size > 1 && nw.is_big_endian(var) == cfg!(target_endian = "little");
    let quantize = nw.defs.vars[var.0].quantize;
    if !swap && quantize.is_none() {
        return nw.w.write(ds, &slab_of(h), data).map_err(hw);
    }
    let mut bytes = data.to_vec();
    if let Some((mode, nsd)) = quantize {
        let fill = nw
            .defs
            .schema
            .var(var)
            .att("_FillValue")
            .map(|a| a.values.clone())
            .or_else(|| crate::convert::default_fill(typ));
        match (typ, fill) {
            (NcType::Float, Some(Values::Float(f))) if !f.is_empty() => {
                crate::nc4def::quantize::quantize_f32(&mut bytes, mode, nsd, f[0])
            }
            (NcType::Double, Some(Values::Double(f))) if !f.is_empty() => {
                crate::nc4def::quantize::quantize_f64(&mut bytes, mode, nsd, f[0])
            }
            _ => {}
        }
    }
    if swap {
        for e in bytes.chunks_exact_mut(size) {
            e.reverse();
        }
    }
    nw.w.write(ds, &slab_of(h), &bytes).map_err(hw)
}

/// `nc_put_vars` of values of the variable's type (strings and user types included).
pub(crate) fn write_values(
    nw: &mut Netcdf4Writer,
    var: VarId,
    h: &Hyperslab,
    values: &Values,
) -> Result<()> {
    let typ = nw.defs.schema.var(var).typ;
    if typ != NcType::String && typ.atomic_size().is_some() {
        let raw = crate::convert::values_to_ne_bytes(values)?;
        return write_raw(nw, var, h, &raw);
    }
    data_mode(nw)?;
    let ds = grow(nw, var, h)?;
    let be = nw.is_big_endian(var);
    let pieces = values_pieces(&nw.defs.schema, typ, values, be)?;
    nw.w.write_pieces(ds, &slab_of(h), &pieces).map_err(hw)
}

/// `nc_get_vars` into native-endian bytes of a fixed-size atomic type.
pub(crate) fn read_raw(
    nw: &Netcdf4Writer,
    var: VarId,
    h: &Hyperslab,
    out: &mut [u8],
) -> Result<()> {
    let typ = nw.defs.schema.var(var).typ;
    let size = typ.atomic_size().unwrap_or(1);
    let Some(ds) = nw.h5vars.get(var.0).and_then(|v| v.ds) else {
        // Not created yet (still in define mode): everything reads as the fill value.
        let def = nw.defs.schema.var(var);
        let fill = def
            .att("_FillValue")
            .map(|a| a.values.clone())
            .or_else(|| crate::convert::default_fill(typ))
            .ok_or(ErrorKind::BadType)?;
        let one = crate::convert::values_to_ne_bytes(&fill)?;
        for e in out.chunks_exact_mut(size) {
            e.copy_from_slice(&one[..size]);
        }
        return Ok(());
    };
    nw.w.read(ds, &slab_of(h), out).map_err(hw)?;
    if size > 1 && nw.is_big_endian(var) == cfg!(target_endian = "little") {
        for e in out.chunks_exact_mut(size) {
            e.reverse();
        }
    }
    Ok(())
}

/// Reads global-heap objects of the file being written (no caching: collections still grow).
struct FreshHeap<'a>(&'a purecdf_hdf5::read::Hdf5File);

impl super::super::types::HeapReader for FreshHeap<'_> {
    fn vlen_bytes(&self, element: &[u8]) -> Result<Option<(u32, Vec<u8>)>> {
        super::super::HeapCache::default().vlen_bytes(self.0, element)
    }
}

/// `nc_get_vars` of strings and user-type values.
pub(crate) fn read_values(nw: &Netcdf4Writer, var: VarId, h: &Hyperslab) -> Result<Values> {
    let typ = nw.defs.schema.var(var).typ;
    let n = usize::try_from(h.num_elements()).map_err(|_| ErrorKind::NoMem)?;
    let mut out = Values::with_capacity(typ, n);
    let Some((ds, dt)) = nw.h5vars.get(var.0).and_then(|v| v.ds.zip(v.dtype.clone())) else {
        // Not created yet: the fill value throughout.
        let fill = nw
            .defs
            .schema
            .var(var)
            .att("_FillValue")
            .map(|a| a.values.clone());
        let _ = fill_pieces(&nw.defs.schema, typ, fill.as_ref(), false)?;
        return match (typ, fill) {
            (_, Some(Values::String(s))) => Ok(Values::String(vec![s[0].clone(); n])),
            (_, Some(Values::User(t, u))) => Ok(Values::User(t, vec![u[0].clone(); n])),
            (NcType::String, None) => Ok(Values::String(vec![Some(String::new()); n])),
            _ => Err(Error::with_detail(
                ErrorKind::Inval,
                "variable not written yet",
            )),
        };
    };
    let es = dt.size() as usize;
    let mut raw = vec![0u8; n.checked_mul(es).ok_or(ErrorKind::NoMem)?];
    nw.w.read(ds, &slab_of(h), &mut raw).map_err(hw)?;
    let heap = FreshHeap(nw.w.reader());
    for e in raw.chunks_exact(es.max(1)) {
        let v = super::super::types::decode_value(&dt, e, &heap, 0)?;
        match (&mut out, v) {
            (Values::String(s), Value::String(x)) => s.push(x),
            (Values::User(_, u), v) => u.push(v),
            _ => return Err(Error::new(ErrorKind::BadType)),
        }
    }
    Ok(out)
}
