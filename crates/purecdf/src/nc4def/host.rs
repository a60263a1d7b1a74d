//! What a storage layer provides to the shared definitions ([`Host`]), and the `BackendMut`
//! implementation built from both (`nc4_backend_mut!`).

use super::Defs;
use crate::error::Result;
use crate::model::{DimId, GroupId, TypeId, Values, VarId};
use crate::selection::Hyperslab;

/// A storage layer for netCDF-4 definitions: HDF5 files, NCZarr stores.
pub(crate) trait Host {
    /// The definitions.
    fn defs(&self) -> &Defs;
    /// The definitions, to change.
    fn defs_mut(&mut self) -> &mut Defs;
    /// True once the variable's storage exists: its storage settings and fill value are then
    /// fixed (NC_ELATEDEF, NC_ELATEFILL).
    fn created(&self, var: VarId) -> bool;
    /// Creates or updates the stored objects for the current definitions (`nc_enddef`, and
    /// before data access, `sync` and `close`).
    fn materialize(&mut self) -> Result<()>;
    /// Called after a dimension is defined.
    fn added_dim(&mut self, _dim: DimId) {}
    /// Called after a variable is defined.
    fn added_var(&mut self, _var: VarId) {}
    /// Called after a group is defined.
    fn added_group(&mut self, _group: GroupId) {}
    /// Called after a user type is defined.
    fn added_type(&mut self, _t: TypeId) {}
    /// Renames a dimension (already checked): stored objects and schema.
    fn store_rename_dim(&mut self, dim: DimId, new: &str) -> Result<()>;
    /// Renames a variable (already checked): stored objects and schema.
    fn store_rename_var(&mut self, var: VarId, new: &str) -> Result<()>;
    /// Renames a group (already checked): stored objects and schema.
    fn store_rename_grp(&mut self, group: GroupId, new: &str) -> Result<()>;
    /// True when the storage can apply filter `id` (netcdf-c's `H5Zfilter_avail`).
    fn filter_writable(&self, id: u32) -> bool;
    /// Writes native-endian values into a hyperslab.
    fn store_write_raw(&mut self, var: VarId, slab: &Hyperslab, data: &[u8]) -> Result<()>;
    /// Writes values of the variable's own type into a hyperslab.
    fn store_write_values(&mut self, var: VarId, slab: &Hyperslab, values: &Values) -> Result<()>;
    /// `nc_sync`.
    fn store_sync(&mut self) -> Result<()>;
    /// `nc_close`.
    fn store_close(&mut self) -> Result<()>;
    /// What a program exiting without `nc_close` leaves; by default, a close.
    fn store_abandon(&mut self) -> Result<()> {
        self.store_close()
    }
}

/// Implements `BackendMut` for a [`Host`]: the definitions' checks, then the host's storage.
macro_rules! nc4_backend_mut {
    ($t:ty) => {
        impl $crate::backend::BackendMut for $t {
            fn redef(&mut self) -> $crate::Result<()> {
                $crate::nc4def::Host::defs_mut(self).redef()
            }
            fn enddef(&mut self) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                if !self.defs().define {
                    return Err($crate::Error::new($crate::ErrorKind::NotInDefine));
                }
                self.materialize()?;
                self.defs_mut().define = false;
                Ok(())
            }
            fn in_define_mode(&self) -> bool {
                $crate::nc4def::Host::defs(self).define
            }
            fn def_dim(
                &mut self,
                g: $crate::GroupId,
                name: &str,
                len: u64,
                unlimited: bool,
            ) -> $crate::Result<$crate::DimId> {
                use $crate::nc4def::Host;
                let id = self.defs_mut().def_dim(g, name, len, unlimited)?;
                self.added_dim(id);
                Ok(id)
            }
            fn def_var(
                &mut self,
                g: $crate::GroupId,
                name: &str,
                typ: $crate::NcType,
                dims: &[$crate::DimId],
            ) -> $crate::Result<$crate::VarId> {
                use $crate::nc4def::Host;
                let id = self.defs_mut().def_var(g, name, typ, dims)?;
                self.added_var(id);
                Ok(id)
            }
            fn put_att(
                &mut self,
                g: $crate::GroupId,
                var: Option<$crate::VarId>,
                name: &str,
                values: $crate::Values,
            ) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = var.is_some_and(|v| self.created(v));
                self.defs_mut().put_att(g, var, name, values, created)
            }
            fn del_att(
                &mut self,
                g: $crate::GroupId,
                var: Option<$crate::VarId>,
                name: &str,
            ) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = var.is_some_and(|v| self.created(v));
                self.defs_mut().del_att(g, var, name, created)
            }
            fn rename_dim(&mut self, dim: $crate::DimId, name: &str) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let new = self.defs().check_rename_dim(dim, name)?;
                self.store_rename_dim(dim, &new)
            }
            fn rename_var(&mut self, var: $crate::VarId, name: &str) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let new = self.defs().check_rename_var(var, name)?;
                self.store_rename_var(var, &new)
            }
            fn rename_att(
                &mut self,
                g: $crate::GroupId,
                var: Option<$crate::VarId>,
                old: &str,
                new: &str,
            ) -> $crate::Result<()> {
                $crate::nc4def::Host::defs_mut(self).rename_att(g, var, old, new)
            }
            fn def_var_fill(&mut self, var: $crate::VarId, no_fill: bool) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = self.created(var);
                self.defs_mut().def_var_fill(var, no_fill, created)
            }
            fn set_fill(&mut self, fill: bool) -> $crate::Result<bool> {
                $crate::nc4def::Host::defs_mut(self).set_fill(fill)
            }
            fn write_raw(
                &mut self,
                var: $crate::VarId,
                slab: &$crate::Hyperslab,
                data: &[u8],
            ) -> $crate::Result<()> {
                $crate::nc4def::Host::store_write_raw(self, var, slab, data)
            }
            fn write_values(
                &mut self,
                var: $crate::VarId,
                slab: &$crate::Hyperslab,
                values: &$crate::Values,
            ) -> $crate::Result<()> {
                $crate::nc4def::Host::store_write_values(self, var, slab, values)
            }
            fn sync(&mut self) -> $crate::Result<()> {
                $crate::nc4def::Host::store_sync(self)
            }
            fn close(&mut self) -> $crate::Result<()> {
                $crate::nc4def::Host::store_close(self)
            }
            fn abandon(&mut self) -> $crate::Result<()> {
                $crate::nc4def::Host::store_abandon(self)
            }
            fn def_grp(
                &mut self,
                parent: $crate::GroupId,
                name: &str,
            ) -> $crate::Result<$crate::GroupId> {
                use $crate::nc4def::Host;
                let g = self.defs_mut().def_grp(parent, name)?;
                self.added_group(g);
                Ok(g)
            }
            fn rename_grp(&mut self, group: $crate::GroupId, name: &str) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let new = self.defs().check_rename_grp(group, name)?;
                self.store_rename_grp(group, &new)
            }
            fn def_type(
                &mut self,
                group: $crate::GroupId,
                t: $crate::model::UserType,
            ) -> $crate::Result<$crate::TypeId> {
                use $crate::nc4def::Host;
                let id = self.defs_mut().def_type(group, t)?;
                self.added_type(id);
                Ok(id)
            }
            fn def_var_chunking(
                &mut self,
                var: $crate::VarId,
                chunking: $crate::Chunking,
            ) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = self.created(var);
                self.defs_mut().def_var_chunking(created, var, chunking)
            }
            fn def_var_deflate(
                &mut self,
                var: $crate::VarId,
                shuffle: bool,
                level: Option<u32>,
            ) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = self.created(var);
                self.defs_mut()
                    .def_var_deflate(created, var, shuffle, level)
            }
            fn def_var_fletcher32(&mut self, var: $crate::VarId, on: bool) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = self.created(var);
                self.defs_mut().def_var_fletcher32(created, var, on)
            }
            fn def_var_endian(
                &mut self,
                var: $crate::VarId,
                big: Option<bool>,
            ) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = self.created(var);
                self.defs_mut().def_var_endian(created, var, big)
            }
            fn def_var_quantize(
                &mut self,
                var: $crate::VarId,
                q: Option<($crate::Quantize, i32)>,
            ) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = self.created(var);
                self.defs_mut().def_var_quantize(created, var, q)
            }
            fn def_var_filter(
                &mut self,
                var: $crate::VarId,
                id: u32,
                params: &[u32],
            ) -> $crate::Result<()> {
                use $crate::nc4def::Host;
                let created = self.created(var);
                let writable = self.filter_writable(id);
                self.defs_mut()
                    .def_var_filter(created, var, id, params, writable)
            }
        }
    };
}

pub(crate) use nc4_backend_mut;
