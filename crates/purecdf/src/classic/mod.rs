//! The classic formats CDF-1 (classic), CDF-2 (64-bit offset) and CDF-5 (64-bit data), read and
//! write, per the file format spec (`file-format-specifications.md`), "The NetCDF Classic Format
//! Specification", with netcdf-c 4.9's behaviour wherever the spec leaves room (libsrc/).
//!
//! - `header`: the `header` grammar, parsed with a bounded cursor and encoded byte for byte;
//! - `layout`: `vsize`, `begin`, record size ("Note on vsize", "Note on padding");
//! - `read`: hyperslab reads ("Notes on Computing File Offsets");
//! - `write`: define mode, `enddef` (moving data when the header grows), fill values ("Note on
//!   fill values"), data writes and record appends;
//! - `storage`: positional I/O on a file or a memory image, for reading;
//! - `ncio` and `posixio`: the I/O layer of a writable file, which reproduces how netcdf-c's
//!   own page buffer (or in-memory file) decides the bytes of the file;
//! - `putget`: accesses cut into the regions netcdf-c's `NC3_put_vara` / `NC3_get_vara` use.
//!
//! A [`ClassicFile`] is `Send + Sync`; reads of a read-only file take `&self` and use positional
//! reads, so threads share one open file without a lock. A writable file goes through netcdf-c's
//! single buffer, behind a lock.

mod fill;
mod header;
mod layout;
mod ncio;
mod ncstatus;
mod posixio;
mod putget;
mod read;
mod storage;
mod write;

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use crate::backend::{Backend, BackendMut, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{DimId, GroupId, NcType, Schema, Values, VarId};
use crate::selection::Hyperslab;

use header::NameLens;
use layout::Layout;
use ncio::{Io, Mode};
use storage::Storage;

/// The state saved by `redef`, to lay out and move data at the next `enddef`.
#[derive(Debug)]
struct OldState {
    layout: Layout,
    was_rec: Vec<bool>,
    nvars: usize,
    numrecs: u64,
}

/// An open classic-format dataset (CDF-1, CDF-2 or CDF-5).
#[derive(Debug)]
pub(crate) struct ClassicFile {
    /// Shared with the schema copies handed out for reading while writing
    /// ([`BackendMut::schema_arc`]): changed copy-on-write.
    schema: std::sync::Arc<Schema>,
    format: Format,
    /// The bytes, for reading a read-only file (and parsing the header at open).
    store: Storage,
    /// netcdf-c's I/O layer of a writable file; every access to such a file goes through it.
    io: Option<Mutex<Io>>,
    writable: bool,
    /// In define mode.
    define: bool,
    /// Created by us and not yet through its first `enddef` (netcdf-c's NC_CREAT).
    is_new: bool,
    /// File-wide fill mode (netcdf-c's `NC_dofill`).
    fill: bool,
    layout: Layout,
    numrecs: u64,
    old: Option<OldState>,
    /// Header must be rewritten at sync.
    hdirty: bool,
    /// numrecs must be rewritten at sync.
    ndirty: bool,
    name_lens: NameLens,
    /// `close` has run (further writes fail; dropping does nothing more).
    closed: bool,
}

impl Drop for ClassicFile {
    /// Closes a writable file that was not closed explicitly, as georust's `netcdf` does; errors
    /// are lost here, so call `close` to see them.
    fn drop(&mut self) {
        if self.writable && !self.closed {
            let _ = write::close(self);
        }
    }
}

impl ClassicFile {
    /// Opens an existing file, read-only or for writing (data mode).
    ///
    /// # Errors
    /// NC_ENOTNC for a bad magic number or list tag, NC_ETRUNC for a header cut short, NC_EVARSIZE
    /// for variables too large for the format, system errors from the file system.
    pub(crate) fn open(path: &Path, writable: bool) -> Result<ClassicFile> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(writable)
            .open(path)
            .map_err(|e| Error::io(e).path(path))?;
        let io = if writable {
            Some(file.try_clone().map_err(|e| Error::io(e).path(path))?)
        } else {
            None
        };
        let mut f = Self::from_storage(Storage::File(file), writable)?;
        if let Some(file) = io {
            let mut io = Io::open(file)?;
            let (_, items) = f.encode_header();
            io.replay_header_read(&items)?;
            f.io = Some(Mutex::new(io));
        }
        Ok(f)
    }

    /// Opens an in-memory image of a classic file, read-only.
    ///
    /// # Errors
    /// As [`ClassicFile::open`].
    pub(crate) fn open_mem(bytes: Vec<u8>) -> Result<ClassicFile> {
        Self::from_storage(Storage::Mem(bytes), false)
    }

    /// Opens a classic file held by any byte source, read-only (`#mode=bytes`).
    ///
    /// # Errors
    /// As [`ClassicFile::open`].
    #[cfg(feature = "remote")]
    pub(crate) fn open_source(
        source: Box<dyn purecdf_hdf5::io::ByteSource>,
    ) -> Result<ClassicFile> {
        Self::from_storage(Storage::Source(source), false)
    }

    fn from_storage(store: Storage, writable: bool) -> Result<ClassicFile> {
        let parsed = (|| -> Result<(header::Header, Layout)> {
            let h = header::parse(&store)?;
            let layout = layout::from_header(&h.schema, h.xsz, h.begins.clone())?;
            layout::check_vlens(h.format, &h.schema)?;
            layout::check_voffs(&h.schema, &layout)?;
            Ok((h, layout))
        })();
        let (h, layout) = match parsed.and_then(|x| Self::netcdf_c_accepts(&store, x)) {
            Ok(x) => x,
            // Tell the tools what netcdf-c reports for the same damage.
            Err(e) => {
                return Err(match ncstatus::open_status(&store) {
                    Some(status) if status != 0 => e.netcdf_c_status(status),
                    _ => e,
                })
            }
        };
        let mut schema = h.schema;
        let mut numrecs = h.numrecs;
        let streaming = match h.format {
            Format::Cdf5 => numrecs == u64::MAX,
            _ => numrecs == header::STREAMING32,
        };
        if streaming {
            // The spec's STREAMING: count the whole records the file holds.
            let size = store.len()?;
            numrecs = match (size.checked_sub(layout.begin_rec), layout.recsize) {
                (Some(n), r) if r > 0 => n / r,
                _ => 0,
            };
        }
        if let Some(d) = schema.dims.iter_mut().find(|d| d.unlimited) {
            d.len = numrecs;
        }
        Ok(ClassicFile {
            schema: std::sync::Arc::new(schema),
            format: h.format,
            store,
            io: None,
            writable,
            define: false,
            is_new: false,
            fill: true,
            layout,
            numrecs,
            old: None,
            hdirty: false,
            ndirty: false,
            name_lens: h.name_lens,
            closed: false,
        })
    }

    /// Creates a new file in define mode and writes its empty header, as `nc_create` does;
    /// `diskless` writes the file as netcdf-c's in-memory store (`NC_DISKLESS`, persisted at
    /// close) would.
    ///
    /// # Errors
    /// NC_EEXIST with `noclobber` when the file exists; NC_EINVAL for a non-classic format;
    /// system errors from the file system.
    pub(crate) fn create(
        path: &Path,
        format: Format,
        noclobber: bool,
        diskless: bool,
    ) -> Result<ClassicFile> {
        if !format.is_classic_family() {
            return Err(Error::with_detail(ErrorKind::Inval, "not a classic format"));
        }
        let mut o = std::fs::OpenOptions::new();
        o.read(true).write(true);
        if noclobber {
            o.create_new(true);
        } else {
            o.create(true).truncate(true);
        }
        let file = o.open(path).map_err(|e| Error::io(e).path(path))?;
        let io_file = file.try_clone().map_err(|e| Error::io(e).path(path))?;
        let mut f = ClassicFile {
            schema: std::sync::Arc::default(),
            format,
            store: Storage::File(file),
            io: None,
            writable: true,
            define: true,
            is_new: true,
            fill: true,
            layout: Layout::default(),
            numrecs: 0,
            old: None,
            hdirty: false,
            ndirty: false,
            name_lens: NameLens::new(),
            closed: false,
        };
        let mode = if diskless { Mode::Memory } else { Mode::Posix };
        let io = Io::create(io_file, mode, &f.header_bytes())?;
        f.io = Some(Mutex::new(io));
        Ok(f)
    }

    /// Refuses a header purecdf can read but netcdf-c's reader rejects (such as a CDF-1 `begin`
    /// of 2^31 or more, which netcdf-c reads as negative), with netcdf-c's status.
    fn netcdf_c_accepts(
        store: &Storage,
        parsed: (header::Header, Layout),
    ) -> Result<(header::Header, Layout)> {
        let mut bytes = vec![0u8; usize::try_from(parsed.0.xsz).unwrap_or(0)];
        store.read_zero_fill(0, &mut bytes)?;
        match ncstatus::header_status(bytes, store.len()?, store.blksize()) {
            Some(status) if status != 0 => {
                let kind = ErrorKind::from_nc_code(status).unwrap_or(ErrorKind::NotNc);
                Err(Error::with_detail(kind, "netcdf-c rejects this header")
                    .netcdf_c_status(status))
            }
            _ => Ok(parsed),
        }
    }

    fn geom(&self, var: VarId) -> read::VarGeom {
        let s = &self.schema;
        let v = s.var(var);
        let xsz = header::ext_size(v.typ).unwrap_or(1);
        let rec = s.is_record_var(var);
        let n = v.dims.len();
        let mut step = vec![0u64; n];
        let mut acc = xsz as u64;
        for i in (0..n).rev() {
            if i == 0 && rec {
                step[0] = self.layout.recsize;
            } else {
                step[i] = acc;
                acc = acc.saturating_mul(s.dim(v.dims[i]).len);
            }
        }
        read::VarGeom {
            begin: self.layout.begins.get(var.0).copied().unwrap_or(0),
            xsz,
            step,
        }
    }

    /// The header's bytes and the steps netcdf-c's header stream takes over them.
    fn encode_header(&self) -> (Vec<u8>, Vec<header::HItem>) {
        let vsizes = layout::var_lens(&self.schema);
        header::encode_items(&header::HeaderOut {
            format: self.format,
            numrecs: self.numrecs,
            schema: &self.schema,
            vsizes: &vsizes,
            begins: &self.layout.begins,
            name_lens: &self.name_lens,
        })
    }

    fn header_bytes(&self) -> Vec<u8> {
        self.encode_header().0
    }

    /// netcdf-c's `write_NC`: the whole header, through the I/O layer's windows.
    fn write_header(&mut self) -> Result<()> {
        let (bytes, items) = self.encode_header();
        let min = if self.format == Format::Cdf5 { 48 } else { 32 };
        self.io()?.write_header(&bytes, &items, min)
    }

    /// The I/O layer of a writable file.
    fn io(&mut self) -> Result<&mut Io> {
        match &mut self.io {
            Some(m) => m
                .get_mut()
                .map_err(|_| Error::with_detail(ErrorKind::Io, "I/O state poisoned")),
            None => Err(Error::with_detail(
                ErrorKind::Perm,
                "file is open read-only",
            )),
        }
    }

    /// The I/O layer of a writable file, from a shared reference (reads).
    fn io_lock(&self) -> Option<Result<MutexGuard<'_, Io>>> {
        self.io.as_ref().map(|m| {
            m.lock()
                .map_err(|_| Error::with_detail(ErrorKind::Io, "I/O state poisoned"))
        })
    }

    fn check_var(&self, var: VarId) -> Result<()> {
        if var.0 >= self.schema.vars.len() {
            return Err(Error::with_detail(
                ErrorKind::NotVar,
                format!("variable id {}", var.0),
            ));
        }
        Ok(())
    }
}

impl Backend for ClassicFile {
    fn format(&self) -> Format {
        self.format
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn read_raw(&self, var: VarId, slab: &Hyperslab, out: &mut [u8]) -> Result<()> {
        self.check_var(var)?;
        if var.0 >= self.layout.begins.len() || (self.define && self.is_new) {
            return Err(Error::with_detail(
                ErrorKind::InDefine,
                "the variable has no data before enddef",
            ));
        }
        let g = self.geom(var);
        let need = slab
            .num_elements()
            .checked_mul(g.xsz as u64)
            .filter(|n| *n == out.len() as u64);
        if need.is_none() {
            return Err(Error::with_detail(
                ErrorKind::Inval,
                "output buffer does not match the selection",
            ));
        }
        if let Some(io) = self.io_lock() {
            let mut io = io?;
            return putget::get(self, &mut io, var, &g, slab, out);
        }
        read::read(&self.store, &g, slab, out)
    }
}

impl BackendMut for ClassicFile {
    fn schema_arc(&self) -> Option<std::sync::Arc<Schema>> {
        Some(self.schema.clone())
    }

    fn redef(&mut self) -> Result<()> {
        write::redef(self)
    }
    fn enddef(&mut self) -> Result<()> {
        write::enddef(self)
    }
    fn in_define_mode(&self) -> bool {
        self.define
    }
    fn def_dim(&mut self, g: GroupId, name: &str, len: u64, unlimited: bool) -> Result<DimId> {
        write::def_dim(self, g, name, len, unlimited)
    }
    fn def_var(&mut self, g: GroupId, name: &str, typ: NcType, dims: &[DimId]) -> Result<VarId> {
        write::def_var(self, g, name, typ, dims)
    }
    fn put_att(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        values: Values,
    ) -> Result<()> {
        write::put_att(self, g, var, name, values)
    }
    fn del_att(&mut self, g: GroupId, var: Option<VarId>, name: &str) -> Result<()> {
        write::del_att(self, g, var, name)
    }
    fn rename_dim(&mut self, dim: DimId, name: &str) -> Result<()> {
        write::rename_dim(self, dim, name)
    }
    fn rename_var(&mut self, var: VarId, name: &str) -> Result<()> {
        write::rename_var(self, var, name)
    }
    fn rename_att(&mut self, g: GroupId, var: Option<VarId>, old: &str, new: &str) -> Result<()> {
        write::rename_att(self, g, var, old, new)
    }
    fn set_fill(&mut self, fill: bool) -> Result<bool> {
        write::set_fill(self, fill)
    }
    fn def_var_fill(&mut self, var: VarId, no_fill: bool) -> Result<()> {
        write::def_var_fill(self, var, no_fill)
    }
    fn write_raw(&mut self, var: VarId, slab: &Hyperslab, data: &[u8]) -> Result<()> {
        write::write_raw(self, var, slab, data)
    }
    fn sync(&mut self) -> Result<()> {
        write::sync(self)
    }
    fn close(&mut self) -> Result<()> {
        write::close(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<ClassicFile>();
    }
}
