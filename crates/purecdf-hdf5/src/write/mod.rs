//! Writing HDF5 files: [`Hdf5Writer`] creates a file or opens an existing one for update, and
//! holds the file's objects (groups, datasets, committed datatypes, their attributes and links)
//! as an in-memory model that it writes out on [`Hdf5Writer::flush`].
//!
//! ## What is written (HDF5 File Format Specification v3.0)
//! Files are readable by libhdf5 1.10 and later, with the structures netCDF-4 files written by
//! netcdf-c on libhdf5 1.10 use (libhdf5's "1.8" format bounds):
//! - superblock version 2 (section II.A), 8-byte addresses and lengths;
//! - version 2 object headers (IV.A.1.b) with attribute creation order tracked and indexed,
//!   every message in one chunk; link info, group info and attribute info messages version 0;
//!   link messages version 1; attribute messages version 3; dataspace version 2; datatype
//!   version 1, or 3 for compound, enumeration and array types; fill value version 3; filter
//!   pipeline version 2; layout version 3 (compact, contiguous, chunked with a v1 B-tree);
//! - chunk indexes as version 1 B-trees (III.A.1) with full-size nodes (2K = 64 entries);
//! - variable-length data in global heap collections (III.E) of at least 4 KiB.
//!
//! Links and attributes are stored compactly (as messages in the object header) up to 8 per
//! object, and densely (a fractal heap indexed by name and creation-order v2 B-trees, III.G and
//! III.A.2) from the 9th on or when one message would be 64 KiB or larger, as libhdf5 does; see
//! `dense.rs`. libhdf5 can then add, remove and look up links and attributes in place.
//!
//! ## Nothing lost
//! Space is only ever appended: new chunks, heap collections and object headers go past the end
//! of everything written before, so nothing that the last synced superblock reaches is
//! overwritten — except the bytes of contiguous datasets, which writes update in place. A flush
//! writes every changed object header (and the headers that refer to a moved one) at new
//! addresses, syncs the file, and only then rewrites the 48-byte superblock to point at the new
//! root, and syncs again. Old headers and chunks replaced by copy-on-write are not reused (free
//! space is not tracked), so a file that is updated often grows.
//!
//! What a process that dies (even by SIGKILL) leaves:
//! - after a [`flush`](Hdf5Writer::flush) (or [`flush_unsynced`](Hdf5Writer::flush_unsynced),
//!   which skips the syncs: the same holds for processes, not for power cuts) returned: a file whose objects are those of the last
//!   flush that returned, or of a later one the process was in (libhdf5 and this crate read it;
//!   the bytes past the superblock's end-of-file address are unreachable). Chunked, compact and
//!   variable-length data is as of that flush; a contiguous dataset written since may already
//!   hold some of the newer values (a write interrupted midway, some of them);
//! - before the first flush of a file [`create`](Hdf5Writer::create)d: no superblock yet, a file
//!   that readers refuse as not HDF5 (the old contents of a file created over are gone);
//! - for a file opened with [`open`](Hdf5Writer::open): its previous state until the first flush.
//!
//! A torn superblock (a power cut during its write) fails its checksum. `tests/crash.rs` of the
//! `purecdf` crate kills writers at random points and checks the first two points with purecdf
//! and netcdf-c's `ncdump`.

mod dataset;
mod dense;
mod flush;
mod heap;
mod io;
mod load;
mod pipeline;
mod select;
mod writeback;

use std::path::Path;
use std::sync::Arc;

pub use heap::Piece;

use crate::error::FormatError;
use crate::filter::FilterError;
use crate::format::messages::dataspace::Dataspace;
use crate::format::messages::datatype::Datatype;
use crate::format::messages::fill_value::FillValue;
use crate::format::messages::filter_pipeline::FilterPipeline;
use crate::format::object_header::RawMessage;
use crate::read::Hdf5File;
use dataset::DatasetBody;
use io::{Allocator, RwFile};

/// An object of a writer: group, dataset or committed datatype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(usize);

/// A datatype as a dataset or attribute refers to it.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeSpec {
    /// Stored in the object's own header.
    Inline(Datatype),
    /// A committed (named) datatype, referred to by a shared datatype message.
    Committed(ObjId),
}

/// An attribute to store: name, type, shape and the element data. Fixed-size parts of the data
/// are given as bytes in file byte order; variable-length parts and object references as
/// [`Piece`]s, which the writer turns into global heap objects and addresses.
#[derive(Debug, Clone, PartialEq)]
pub struct AttrSpec {
    /// Attribute name.
    pub name: String,
    /// Element type.
    pub dtype: TypeSpec,
    /// Shape.
    pub space: Dataspace,
    /// The elements, in order, as a sequence of pieces.
    pub data: Vec<Piece>,
}

/// What a link points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A hard link to an object of this file.
    Object(ObjId),
    /// A soft link: a path in this file.
    Soft(String),
    /// An external link: a file name and a path in it.
    External(String, String),
}

/// How a new dataset stores its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageSpec {
    /// In the object header (at most 64 KiB).
    Compact,
    /// One block, allocated when first written.
    Contiguous,
    /// Chunks of these dimensions, indexed by a v1 B-tree.
    Chunked(Vec<u64>),
}

/// Everything needed to create a dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetSpec {
    /// Element type.
    pub dtype: TypeSpec,
    /// Shape: current and maximum dimensions (`None` unlimited), or scalar/null.
    pub space: Dataspace,
    /// Storage layout.
    pub storage: StorageSpec,
    /// Filters (chunked storage only), in the order they are applied when writing.
    pub filters: FilterPipeline,
    /// Fill value property (allocation time, fill time, value).
    pub fill: FillValue,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LinkEntry {
    pub(crate) name: String,
    pub(crate) target: Target,
    pub(crate) order: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attr {
    pub(crate) spec: AttrSpec,
    pub(crate) order: u16,
}

#[derive(Debug)]
pub(crate) enum Body {
    Group {
        links: Vec<LinkEntry>,
        next_order: u64,
        track_order: bool,
    },
    Dataset(Box<DatasetBody>),
    Datatype(Datatype),
}

#[derive(Debug)]
pub(crate) struct Object {
    pub(crate) body: Body,
    pub(crate) attrs: Vec<Attr>,
    pub(crate) next_attr_order: u16,
    pub(crate) track_attr_order: bool,
    /// Messages of a loaded header kept as they were (modification time, comment, ...).
    pub(crate) extra: Vec<RawMessage>,
    /// Where the object's current header is on disk (`None`: never written).
    pub(crate) addr: Option<u64>,
    /// Changed since its header was last written.
    pub(crate) dirty: bool,
}

impl Object {
    fn new(body: Body) -> Object {
        Object {
            body,
            attrs: Vec::new(),
            next_attr_order: 0,
            track_attr_order: true,
            extra: Vec::new(),
            addr: None,
            dirty: true,
        }
    }
}

/// An HDF5 file open for writing (and reading back what was written). `Send + Sync`.
pub struct Hdf5Writer {
    pub(crate) io: Arc<RwFile>,
    pub(crate) reader: Hdf5File,
    pub(crate) alloc: Allocator,
    pub(crate) objects: Vec<Object>,
    pub(crate) root: ObjId,
    /// The base address: file addresses are relative to it (the user block size).
    pub(crate) base: u64,
    /// Absolute offset of the superblock.
    pub(crate) location: u64,
    /// The superblock extension of a loaded file, kept as it was.
    pub(crate) extension: Option<u64>,
    pub(crate) heap: heap::HeapWriter,
    /// Bytes of partially written chunks kept in memory before they are written out.
    pub(crate) chunk_cache_limit: usize,
    /// Readers of datasets read back, kept until the dataset changes.
    pub(crate) readers: std::sync::Mutex<std::collections::HashMap<ObjId, crate::read::Dataset>>,
    /// Complete chunks being filtered on rayon's pool.
    pub(crate) pipeline: pipeline::Pipeline,
    /// Filtered chunks being written to the file on rayon's pool.
    pub(crate) writeback: writeback::WriteBack,
}

impl std::fmt::Debug for Hdf5Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hdf5Writer")
            .field("objects", &self.objects.len())
            .field("eoa", &self.alloc.eoa)
            .finish()
    }
}

/// Why a write failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// The operating system refused a read, write or sync.
    Io(std::io::Error),
    /// The existing file is malformed (when opening for update or reading data back).
    Format(FormatError),
    /// A filter could not encode or decode a chunk.
    Filter(FilterError),
    /// The request does not fit the file (unknown object, name in use, shape mismatch, ...).
    Invalid(String),
    /// The file uses a structure the writer cannot carry over or produce yet.
    Unsupported(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Io(e) => write!(f, "I/O error: {e}"),
            WriteError::Format(e) => write!(f, "{e}"),
            WriteError::Filter(e) => write!(f, "{e}"),
            WriteError::Invalid(s) => write!(f, "{s}"),
            WriteError::Unsupported(s) => write!(f, "not supported: {s}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> Self {
        WriteError::Io(e)
    }
}

impl From<FormatError> for WriteError {
    fn from(e: FormatError) -> Self {
        WriteError::Format(e)
    }
}

impl From<FilterError> for WriteError {
    fn from(e: FilterError) -> Self {
        WriteError::Filter(e)
    }
}

/// Result of write operations.
pub type WriteResult<T> = Result<T, WriteError>;

pub(crate) fn usage(what: impl Into<String>) -> WriteError {
    WriteError::Invalid(what.into())
}

impl Hdf5Writer {
    /// Creates a new file (truncating an existing one) holding an empty root group. Nothing is
    /// durable before the first [`flush`](Hdf5Writer::flush).
    ///
    /// # Errors
    /// When the file cannot be created.
    pub fn create(path: impl AsRef<Path>) -> std::io::Result<Hdf5Writer> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        Self::create_in(file)
    }

    /// Creates a file in an already opened (empty) read-write file.
    ///
    /// # Errors
    /// When the file cannot be read or written.
    pub fn create_in(file: std::fs::File) -> std::io::Result<Hdf5Writer> {
        let io = Arc::new(RwFile::new(file, 0)?);
        // The superblock (48 bytes) is written at offset 0 by every flush.
        io.set_allocated(48);
        let reader = Hdf5File::for_writer(io.clone(), 0, 0);
        let mut w = Hdf5Writer {
            io,
            reader,
            alloc: Allocator { eoa: 48 },
            objects: Vec::new(),
            root: ObjId(0),
            base: 0,
            location: 0,
            extension: None,
            heap: heap::HeapWriter::default(),
            chunk_cache_limit: 64 << 20,
            readers: Default::default(),
            pipeline: Default::default(),
            writeback: Default::default(),
        };
        w.objects.push(Object::new(Body::Group {
            links: Vec::new(),
            next_order: 0,
            track_order: true,
        }));
        Ok(w)
    }

    /// Opens an existing HDF5 file for update: reads every object reachable from the root into
    /// the model. Objects keep their addresses until they change.
    ///
    /// # Errors
    /// A malformed file, or one using structures the writer cannot carry over.
    pub fn open(path: impl AsRef<Path>) -> WriteResult<Hdf5Writer> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)?;
        load::load(file)
    }

    /// The root group.
    pub fn root(&self) -> ObjId {
        self.root
    }

    /// A reader over the file as written so far (raw data; object headers as of the last flush).
    pub fn reader(&self) -> &Hdf5File {
        self.await_writes();
        &self.reader
    }

    /// Sets how many bytes of partially written chunks are kept in memory (default 64 MiB).
    pub fn set_chunk_cache_limit(&mut self, bytes: usize) {
        self.chunk_cache_limit = bytes;
    }

    pub(crate) fn obj(&self, id: ObjId) -> WriteResult<&Object> {
        self.objects.get(id.0).ok_or_else(|| usage("object id"))
    }

    pub(crate) fn obj_mut(&mut self, id: ObjId) -> WriteResult<&mut Object> {
        self.objects.get_mut(id.0).ok_or_else(|| usage("object id"))
    }

    /// The address of an object's header as of the last flush (`None` before its first).
    pub fn address(&self, id: ObjId) -> Option<u64> {
        self.objects.get(id.0).and_then(|o| o.addr)
    }

    /// Every object that has a header on disk, by the header's address.
    pub fn objects_by_address(&self) -> std::collections::HashMap<u64, ObjId> {
        self.objects
            .iter()
            .enumerate()
            .filter_map(|(i, o)| o.addr.map(|a| (a, ObjId(i))))
            .collect()
    }

    /// The links of a group, in creation order.
    ///
    /// # Errors
    /// When `group` is not a group.
    pub fn links(&self, group: ObjId) -> WriteResult<Vec<(String, Target)>> {
        match &self.obj(group)?.body {
            Body::Group { links, .. } => Ok(links
                .iter()
                .map(|l| (l.name.clone(), l.target.clone()))
                .collect()),
            _ => Err(usage("not a group")),
        }
    }

    /// The object a group's link names (hard links only).
    pub fn child(&self, group: ObjId, name: &str) -> Option<ObjId> {
        match &self.objects.get(group.0)?.body {
            Body::Group { links, .. } => links.iter().find_map(|l| match &l.target {
                Target::Object(o) if l.name == name => Some(*o),
                _ => None,
            }),
            _ => None,
        }
    }

    fn add_object(&mut self, parent: ObjId, name: &str, body: Body) -> WriteResult<ObjId> {
        let id = ObjId(self.objects.len());
        self.link(parent, name, Target::Object(id))?;
        self.objects.push(Object::new(body));
        Ok(id)
    }

    /// Adds a link `name` in `parent`.
    ///
    /// # Errors
    /// When `parent` is not a group or already has a link with that name, or the name is empty
    /// or contains `/`.
    pub fn link(&mut self, parent: ObjId, name: &str, target: Target) -> WriteResult<()> {
        if name.is_empty() || name.contains('/') || name == "." {
            return Err(usage("link name"));
        }
        let o = self.obj_mut(parent)?;
        let Body::Group {
            links, next_order, ..
        } = &mut o.body
        else {
            return Err(usage("not a group"));
        };
        if links.iter().any(|l| l.name == name) {
            return Err(usage("link name in use"));
        }
        links.push(LinkEntry {
            name: name.to_string(),
            target,
            order: *next_order,
        });
        *next_order += 1;
        o.dirty = true;
        Ok(())
    }

    /// Renames a link of `parent`, keeping its creation order.
    ///
    /// # Errors
    /// When there is no link `old`, or `new` is taken.
    pub fn rename_link(&mut self, parent: ObjId, old: &str, new: &str) -> WriteResult<()> {
        if new.is_empty() || new.contains('/') {
            return Err(usage("link name"));
        }
        let o = self.obj_mut(parent)?;
        let Body::Group { links, .. } = &mut o.body else {
            return Err(usage("not a group"));
        };
        if old != new && links.iter().any(|l| l.name == new) {
            return Err(usage("link name in use"));
        }
        let l = links
            .iter_mut()
            .find(|l| l.name == old)
            .ok_or_else(|| usage("no such link"))?;
        l.name = new.to_string();
        o.dirty = true;
        Ok(())
    }

    /// Removes a link (the object stays in the file, unreachable if nothing else links it).
    ///
    /// # Errors
    /// When there is no such link.
    pub fn unlink(&mut self, parent: ObjId, name: &str) -> WriteResult<()> {
        let o = self.obj_mut(parent)?;
        let Body::Group { links, .. } = &mut o.body else {
            return Err(usage("not a group"));
        };
        let before = links.len();
        links.retain(|l| l.name != name);
        if links.len() == before {
            return Err(usage("no such link"));
        }
        o.dirty = true;
        Ok(())
    }

    /// Creates a group `name` in `parent`, tracking and indexing link and attribute creation
    /// order as netCDF-4 files do.
    ///
    /// # Errors
    /// As [`link`](Hdf5Writer::link).
    pub fn create_group(&mut self, parent: ObjId, name: &str) -> WriteResult<ObjId> {
        self.add_object(
            parent,
            name,
            Body::Group {
                links: Vec::new(),
                next_order: 0,
                track_order: true,
            },
        )
    }

    /// Commits a datatype as `name` in `parent`.
    ///
    /// # Errors
    /// As [`link`](Hdf5Writer::link).
    pub fn commit_datatype(
        &mut self,
        parent: ObjId,
        name: &str,
        dtype: Datatype,
    ) -> WriteResult<ObjId> {
        self.add_object(parent, name, Body::Datatype(dtype))
    }

    /// The datatype a [`TypeSpec`] stands for.
    ///
    /// # Errors
    /// When a committed type id is not a committed datatype.
    pub fn resolve_type(&self, t: &TypeSpec) -> WriteResult<Datatype> {
        match t {
            TypeSpec::Inline(d) => Ok(d.clone()),
            TypeSpec::Committed(id) => match &self.obj(*id)?.body {
                Body::Datatype(d) => Ok(d.clone()),
                _ => Err(usage("not a committed datatype")),
            },
        }
    }

    /// The attributes of an object, in creation order.
    ///
    /// # Errors
    /// An unknown object id.
    pub fn attributes(&self, obj: ObjId) -> WriteResult<Vec<&AttrSpec>> {
        let mut v: Vec<&Attr> = self.obj(obj)?.attrs.iter().collect();
        v.sort_by_key(|a| a.order);
        Ok(v.into_iter().map(|a| &a.spec).collect())
    }

    /// Adds an attribute, or replaces the value of the one with the same name in place (it
    /// keeps its creation order).
    ///
    /// # Errors
    /// An unknown object id.
    pub fn put_attribute(&mut self, obj: ObjId, spec: AttrSpec) -> WriteResult<()> {
        let o = self.obj_mut(obj)?;
        if let Some(a) = o.attrs.iter_mut().find(|a| a.spec.name == spec.name) {
            a.spec = spec;
        } else {
            let order = o.next_attr_order;
            o.next_attr_order = o.next_attr_order.saturating_add(1);
            o.attrs.push(Attr { spec, order });
        }
        o.dirty = true;
        Ok(())
    }

    /// Deletes an attribute.
    ///
    /// # Errors
    /// When the object has no attribute of that name.
    pub fn delete_attribute(&mut self, obj: ObjId, name: &str) -> WriteResult<()> {
        let o = self.obj_mut(obj)?;
        let before = o.attrs.len();
        o.attrs.retain(|a| a.spec.name != name);
        if o.attrs.len() == before {
            return Err(usage("no such attribute"));
        }
        o.dirty = true;
        Ok(())
    }

    /// Renames an attribute, keeping its creation order.
    ///
    /// # Errors
    /// When there is no attribute `old` or `new` is taken.
    pub fn rename_attribute(&mut self, obj: ObjId, old: &str, new: &str) -> WriteResult<()> {
        let o = self.obj_mut(obj)?;
        if old != new && o.attrs.iter().any(|a| a.spec.name == new) {
            return Err(usage("attribute name in use"));
        }
        let a = o
            .attrs
            .iter_mut()
            .find(|a| a.spec.name == old)
            .ok_or_else(|| usage("no such attribute"))?;
        a.spec.name = new.to_string();
        o.dirty = true;
        Ok(())
    }
}
