//! Fill values and data writes, per the file format spec, "Note on fill values" and "Note on
//! padding" (padding in data is written with the fill value), as netcdf-c's `fill_NC_var`,
//! `NCfillrecord`, `NCvnrecs` and `NC3_put_vara` do (libsrc/putget.m4).

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Schema, VarId};
use crate::selection::Hyperslab;

use super::header::{encode_be, ext_size};
use super::layout::var_len;
use super::read::{for_each_run, plan, swap_in_place};
use super::ClassicFile;

/// The external bytes of a variable's fill value: `_FillValue` if set (it must have the
/// variable's type and one value, else NC_EBADTYPE, as netcdf-c), else the type's default.
pub(crate) fn fill_pattern(s: &Schema, var: VarId) -> Result<Vec<u8>> {
    let v = s.var(var);
    let xsz = ext_size(v.typ).unwrap_or(1);
    if let Some(a) = v.att("_FillValue") {
        if a.values.nc_type() != v.typ || a.values.len() != 1 {
            return Err(Error::with_detail(
                ErrorKind::BadType,
                format!("_FillValue of {} does not match its type", v.name),
            ));
        }
        let b = encode_be(&a.values).unwrap_or_default();
        if b.len() == xsz {
            return Ok(b);
        }
    }
    crate::convert::default_fill(v.typ)
        .and_then(|f| encode_be(&f))
        .ok_or_else(|| Error::new(ErrorKind::BadType))
}

impl ClassicFile {
    /// Writes `size` bytes of `var`'s fill pattern at the variable's start (record `recno` for a
    /// record variable).
    pub(crate) fn fill_var(&self, var: VarId, size: u64, recno: u64) -> Result<()> {
        let pat = fill_pattern(&self.schema, var)?;
        let mut off = self.layout.begins[var.0];
        if self.schema.is_record_var(var) {
            off = recno
                .checked_mul(self.layout.recsize)
                .and_then(|x| x.checked_add(off))
                .ok_or_else(|| Error::new(ErrorKind::VarSize))?;
        }
        const CHUNK: u64 = 1 << 20;
        let len = size.min(CHUNK) as usize;
        let buf: Vec<u8> = pat.iter().copied().cycle().take(len).collect();
        let mut done = 0u64;
        while done < size {
            let k = (size - done).min(CHUNK);
            // CHUNK is a multiple of every type size, so the pattern stays in phase.
            self.store.write_at(off + done, &buf[..k as usize])?;
            done += k;
        }
        Ok(())
    }

    /// netcdf-c's `NCvnrecs`: grows the record count to `n`, filling the new records of every
    /// record variable in fill mode.
    pub(crate) fn grow_records(&mut self, n: u64) -> Result<()> {
        if n <= self.numrecs {
            return Ok(());
        }
        self.ndirty = true;
        if self.fill {
            let recvars: Vec<VarId> = (0..self.schema.vars.len())
                .map(VarId)
                .filter(|v| self.schema.is_record_var(*v))
                .collect();
            while self.numrecs < n {
                let r = self.numrecs;
                if recvars.len() == 1 {
                    self.fill_var(recvars[0], self.layout.recsize, r)?;
                } else {
                    for v in &recvars {
                        self.fill_var(*v, var_len(&self.schema, *v), r)?;
                    }
                }
                self.set_numrecs(r + 1);
            }
        } else {
            self.set_numrecs(n);
        }
        Ok(())
    }

    /// Sets the record count and the unlimited dimension's length.
    pub(crate) fn set_numrecs(&mut self, n: u64) {
        self.numrecs = n;
        if let Some(d) = self.schema.dims.iter_mut().find(|d| d.unlimited) {
            d.len = n;
        }
    }

    /// Writes native-endian values into a selection (netcdf-c's `NC3_put_vara`/`put_vars`).
    pub(crate) fn put_data(&mut self, var: VarId, slab: &Hyperslab, data: &[u8]) -> Result<()> {
        if slab.count.contains(&0) {
            return Ok(());
        }
        if self.schema.is_record_var(var) {
            let last = (slab.count[0] - 1)
                .checked_mul(slab.stride[0])
                .and_then(|x| x.checked_add(slab.start[0]))
                .and_then(|x| x.checked_add(1))
                .ok_or_else(|| Error::new(ErrorKind::Edge))?;
            if self.format != crate::Format::Cdf5 && last > u32::MAX as u64 {
                return Err(Error::with_detail(
                    ErrorKind::InvalidCoords,
                    "record index beyond the 32-bit record count",
                ));
            }
            self.grow_records(last)?;
        }
        let g = self.geom(var);
        let xsz = g.xsz;
        let p = plan(&g, slab);
        let run = usize::try_from(p.run).map_err(|_| Error::new(ErrorKind::NoMem))?;
        let st = &self.store;
        if p.gather > 0 {
            // Read the span, patch every stride-th element, write the span back: in blocks of
            // at most 4 MiB, ending at the last element written (never past it).
            let n = slab.count[slab.count.len() - 1] as usize;
            let step = p.gather as usize * xsz;
            let per_block = ((4usize << 20) / step).max(1);
            let mut span = Vec::new();
            for_each_run(&g, slab, &p, |off, r| {
                let src = &data[r * run..(r + 1) * run];
                let mut done = 0;
                while done < n {
                    let k = per_block.min(n - done);
                    span.resize((k - 1) * step + xsz, 0);
                    let at = off + (done * step) as u64;
                    st.read_zero_fill(at, &mut span)?;
                    let part = &src[done * xsz..(done + k) * xsz];
                    for (e, x) in part.chunks_exact(xsz).enumerate() {
                        let dst = &mut span[e * step..e * step + xsz];
                        dst.copy_from_slice(x);
                        swap_in_place(dst, xsz);
                    }
                    st.write_at(at, &span)?;
                    done += k;
                }
                Ok(())
            })?;
            return Ok(());
        }
        const CHUNK: usize = 1 << 22;
        let mut buf = vec![0u8; run.min(CHUNK)];
        for_each_run(&g, slab, &p, |off, r| {
            let src = &data[r * run..(r + 1) * run];
            let mut done = 0;
            while done < run {
                let k = (run - done).min(CHUNK);
                let b = &mut buf[..k];
                b.copy_from_slice(&src[done..done + k]);
                swap_in_place(b, xsz);
                st.write_at(off + done as u64, b)?;
                done += k;
            }
            Ok(())
        })
    }
}
