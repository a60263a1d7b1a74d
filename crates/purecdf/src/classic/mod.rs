//! The classic formats CDF-1 (classic), CDF-2 (64-bit offset) and CDF-5 (64-bit data), per the
//! file format spec, "The NetCDF Classic Format Specification".

use std::path::Path;

use crate::backend::{Backend, BackendMut, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{DimId, GroupId, NcType, Schema, Values, VarId};
use crate::selection::Hyperslab;

/// An open classic-format file (placeholder until the classic backend lands).
pub struct ClassicFile {
    schema: Schema,
    format: Format,
}

impl ClassicFile {
    /// Opens an existing file.
    pub fn open(_path: &Path, _writable: bool) -> Result<ClassicFile> {
        Err(Error::new(ErrorKind::NotBuilt))
    }

    /// Creates a new file in define mode.
    pub fn create(_path: &Path, format: Format, _noclobber: bool) -> Result<ClassicFile> {
        Ok(ClassicFile {
            schema: Schema::default(),
            format,
        })
    }
}

impl Backend for ClassicFile {
    fn format(&self) -> Format {
        self.format
    }
    fn schema(&self) -> &Schema {
        &self.schema
    }
    fn read_raw(&self, _var: VarId, _slab: &Hyperslab, _out: &mut [u8]) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
}

impl BackendMut for ClassicFile {
    fn redef(&mut self) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn enddef(&mut self) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn in_define_mode(&self) -> bool {
        true
    }
    fn def_dim(&mut self, g: GroupId, name: &str, len: u64, unlimited: bool) -> Result<DimId> {
        self.schema.add_dim(g, name, len, unlimited)
    }
    fn def_var(&mut self, g: GroupId, name: &str, typ: NcType, dims: &[DimId]) -> Result<VarId> {
        self.schema.add_var(g, name, typ, dims)
    }
    fn put_att(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        values: Values,
    ) -> Result<()> {
        self.schema.put_att(g, var, name, values)
    }
    fn del_att(&mut self, _g: GroupId, _var: Option<VarId>, _name: &str) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn rename_dim(&mut self, _dim: DimId, _name: &str) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn rename_var(&mut self, _var: VarId, _name: &str) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn rename_att(
        &mut self,
        _g: GroupId,
        _var: Option<VarId>,
        _old: &str,
        _new: &str,
    ) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn set_fill(&mut self, _fill: bool) -> Result<bool> {
        Ok(true)
    }
    fn write_raw(&mut self, _var: VarId, _slab: &Hyperslab, _data: &[u8]) -> Result<()> {
        Err(Error::new(ErrorKind::NotBuilt))
    }
    fn sync(&mut self) -> Result<()> {
        Ok(())
    }
    fn close(&mut self) -> Result<()> {
        Ok(())
    }
}
