//! The netCDF-4 writer as a storage layer for the shared definitions (`crate::nc4def`): HDF5
//! objects created at `enddef`, renamed with their netCDF objects, flushed on `sync`/`close`;
//! and opening an existing file for update.

use purecdf_hdf5::write::Hdf5Writer;

use super::{hw, Netcdf4Writer};
use crate::error::{ErrorKind, Result};
use crate::model::{DimId, GroupId, TypeId, Values, VarId};
use crate::nc4def::{nc4_backend_mut, Defs, Host};
use crate::selection::Hyperslab;

impl Host for Netcdf4Writer {
    fn defs(&self) -> &Defs {
        &self.defs
    }

    fn defs_mut(&mut self) -> &mut Defs {
        &mut self.defs
    }

    fn created(&self, var: VarId) -> bool {
        self.h5vars.get(var.0).is_some_and(|v| v.ds.is_some())
    }

    fn materialize(&mut self) -> Result<()> {
        super::materialize::materialize(self)
    }

    fn added_dim(&mut self, _dim: DimId) {
        self.dims.push(None);
        let next = self.dimids.iter().copied().max().map_or(0, |m| m + 1);
        self.dimids.push(next);
    }

    fn added_var(&mut self, _var: VarId) {
        self.h5vars.push(super::H5Var::default());
    }

    fn added_group(&mut self, _group: GroupId) {
        self.groups.push(None);
    }

    fn added_type(&mut self, _t: TypeId) {
        self.types.push(None);
    }

    fn store_rename_dim(&mut self, dim: DimId, new: &str) -> Result<()> {
        super::materialize::rename_dim(self, dim, new)
    }

    fn store_rename_var(&mut self, var: VarId, new: &str) -> Result<()> {
        super::materialize::rename_var(self, var, new)
    }

    fn store_rename_grp(&mut self, group: GroupId, new: &str) -> Result<()> {
        let parent = self
            .defs
            .schema
            .group(group)
            .parent
            .ok_or(ErrorKind::BadGrpId)?;
        if let (Some(p), Some(_)) = (self.groups[parent.0], self.groups[group.0]) {
            let old = self.defs.schema.group(group).name.clone();
            self.w.rename_link(p, &old, new).map_err(hw)?;
        }
        self.defs.schema.groups[group.0].name = new.to_string();
        Ok(())
    }

    /// Every built-in filter but n-bit and scale-offset, which need HDF5's set_local.
    fn filter_writable(&self, id: u32) -> bool {
        use purecdf_hdf5::filter as f;
        u16::try_from(id)
            .is_ok_and(|id| f::is_available(id) && !matches!(id, f::NBIT | f::SCALEOFFSET))
    }

    fn store_write_raw(&mut self, var: VarId, slab: &Hyperslab, data: &[u8]) -> Result<()> {
        super::data::write_raw(self, var, slab, data)
    }

    fn store_write_values(&mut self, var: VarId, slab: &Hyperslab, values: &Values) -> Result<()> {
        super::data::write_values(self, var, slab, values)
    }

    fn store_sync(&mut self) -> Result<()> {
        super::materialize::materialize(self)?;
        self.w.flush().map_err(hw)
    }

    fn store_close(&mut self) -> Result<()> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        super::materialize::materialize(self)?;
        // As netcdf-c's nc_close (and our classic close): written out, not fsynced.
        self.w.flush_unsynced().map_err(hw)
    }

    /// netcdf-c writes nothing of a created file's netCDF objects before its first `enddef` or
    /// `sync`; a program that exits before then leaves what the HDF5 library's exit handler
    /// closes: an HDF5 file with an empty root group. Later, everything is written as by close.
    fn store_abandon(&mut self) -> Result<()> {
        if self.closed {
            return Ok(());
        }
        if self.wrote_properties {
            return self.store_close();
        }
        self.closed = true;
        self.w.flush_unsynced().map_err(hw)
    }
}

nc4_backend_mut!(Netcdf4Writer);

/// A writer over an existing file: its definitions read as netCDF reads them, every object
/// tied to its HDF5 object.
pub(crate) fn load_existing(w: Hdf5Writer) -> Result<Netcdf4Writer> {
    super::materialize::load(w)
}
