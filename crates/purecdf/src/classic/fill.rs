//! Fill values and data writes, per the file format spec, "Note on fill values" and "Note on
//! padding" (padding in data is written with the fill value), as netcdf-c's `fill_NC_var`,
//! `NCfillrecord` and `NCvnrecs` do (libsrc/putget.m4).

use crate::error::{Error, ErrorKind, Result};
use crate::model::{Schema, VarId};

use super::header::{encode_be, ext_size};
use super::layout::var_len;
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
    /// netcdf-c's `fill_NC_var`: writes `size` bytes of `var`'s fill pattern at the variable's
    /// start (record `recno` for a record variable).
    pub(crate) fn fill_var(&mut self, var: VarId, size: u64, recno: u64) -> Result<()> {
        let pat = fill_pattern(&self.schema, var)?;
        let mut off = self.layout.begins[var.0];
        if self.schema.is_record_var(var) {
            off = recno
                .checked_mul(self.layout.recsize)
                .and_then(|x| x.checked_add(off))
                .ok_or_else(|| Error::new(ErrorKind::VarSize))?;
        }
        if size == 0 {
            return Ok(());
        }
        self.io()?.fill(off, size, &pat)
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
        // Only a change copies the schema (it is shared copy-on-write with readers).
        if self.schema.dims.iter().any(|d| d.unlimited && d.len != n) {
            let schema = std::sync::Arc::make_mut(&mut self.schema);
            if let Some(d) = schema.dims.iter_mut().find(|d| d.unlimited) {
                d.len = n;
            }
        }
    }
}
