//! Navigation the user sees: [`Hdf5File`] (superblock + object loading), groups (old-style symbol
//! tables, compact links, dense links), datasets (type, shape, layout, filters, chunk enumeration
//! and reading with parallel chunk decoding; virtual datasets read from their sources) and
//! attributes. Soft and external links are followed as HDF5 follows them; the files external
//! links and virtual datasets lead to are found and kept as [`family`] describes.
//!
//! Opening reads only the superblock; every object header is read when first asked for. Messages
//! shared through the shared object header message table (found through the superblock
//! extension) are replaced by their bodies as headers are read; committed datatypes stay
//! references.

mod dataset;
mod external;
pub mod family;
pub(crate) mod group;
mod runs;
pub(crate) mod slab;
mod virtual_ds;

pub use dataset::{Chunk, Dataset};
pub use group::{Attribute, Member};
pub use slab::Slab;

use std::sync::{Arc, OnceLock};

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cache_image::{self, CacheImage, ImageLocation, ImageOverlay};
use crate::format::cursor::{defined, Cursor, SizeParams};
use crate::format::fractal_heap::FractalHeap;
use crate::format::messages::links::LinkTarget;
use crate::format::messages::shared::SharedRef;
use crate::format::object_header::{flags, MessageType, ObjectHeader};
use crate::format::sohm::{type_flag, SharedTableMessage, SohmTable};
use crate::format::superblock::Superblock;
use crate::io::ByteSource;

/// Most soft and external links one path lookup follows (HDF5's default `nlinks`).
const MAX_LINK_HOPS: u32 = 16;

/// An open HDF5 file. Cheap to clone; `Send + Sync`.
#[derive(Clone)]
pub struct Hdf5File {
    source: Arc<dyn ByteSource>,
    superblock: Arc<Superblock>,
    shared: Arc<OnceLock<FormatResult<Option<SharedMessages>>>>,
    origin: Option<Arc<family::Origin>>,
    family: Arc<family::Family>,
    number: u32,
    cache_image: bool,
}

/// The shared message table with each index's fractal heap.
#[derive(Debug)]
pub struct SharedMessages {
    /// The master table.
    pub table: SohmTable,
    heaps: Vec<FractalHeap>,
}

impl std::fmt::Debug for Hdf5File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hdf5File")
            .field("superblock", &self.superblock)
            .finish()
    }
}

/// How [`Hdf5File::open_with`] treats a file that HDF5 itself would refuse to open.
///
/// The default matches HDF5 1.10 (and so netcdf-c) opening a file read-only: a file whose
/// version 3 superblock says a writer has it open (or died with it open) is refused, and no read
/// may reach past the superblock's end-of-allocation address. Relaxing either lets a program
/// salvage what a crashed writer left, the way `h5clear` does before HDF5 can open it; the bytes
/// read then may be inconsistent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    ignore_status_flags: bool,
    ignore_end_of_allocation: bool,
}

impl OpenOptions {
    /// HDF5's rules (the default).
    pub fn new() -> OpenOptions {
        OpenOptions::default()
    }

    /// Opens a file even when its superblock status flags say a writer has it open (`h5clear
    /// -s` would clear them).
    pub fn ignore_status_flags(mut self, yes: bool) -> OpenOptions {
        self.ignore_status_flags = yes;
        self
    }

    /// Reads up to the end of the file rather than stopping at the superblock's
    /// end-of-allocation address (`h5clear --increment` would raise it).
    pub fn ignore_end_of_allocation(mut self, yes: bool) -> OpenOptions {
        self.ignore_end_of_allocation = yes;
        self
    }
}

/// Superblock (version 3) status flags: bit 0, opened for writing; bit 2, opened for
/// single-writer/multiple-reader writing.
const STATUS_WRITERS: u32 = 0x01 | 0x04;

/// The file as HDF5 addresses it: from the base address on, ending at the end of allocation
/// (or of the file, if sooner), with a metadata cache image laid over it.
struct View {
    inner: Arc<dyn ByteSource>,
    base: u64,
    len: u64,
}

impl ByteSource for View {
    fn len(&self) -> u64 {
        self.len
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        crate::io::check_range(offset, buf.len() as u64, self.len)?;
        self.inner.read_at(self.base + offset, buf)
    }
}

impl Hdf5File {
    /// Opens an HDF5 file from any byte source as HDF5 would open it read-only (see
    /// [`OpenOptions`]): reads the superblock and, for versions 2 and 3, its extension.
    ///
    /// # Errors
    /// A malformed superblock or extension; [`FormatErrorKind::OpenForWriting`] for a file a
    /// writer has open; a metadata cache image that does not decode.
    pub fn open(source: Arc<dyn ByteSource>) -> FormatResult<Hdf5File> {
        Self::open_with(source, OpenOptions::default())
    }

    /// Opens an HDF5 file from any byte source, with `options` relaxing HDF5's rules.
    ///
    /// # Errors
    /// As [`Hdf5File::open`].
    pub fn open_with(source: Arc<dyn ByteSource>, options: OpenOptions) -> FormatResult<Hdf5File> {
        let superblock = Superblock::read(source.as_ref())?;
        if superblock.version >= 3
            && superblock.consistency_flags & STATUS_WRITERS != 0
            && !options.ignore_status_flags
        {
            return Err(FormatError::new(
                FormatErrorKind::OpenForWriting(superblock.consistency_flags),
                superblock.location,
                "superblock",
            ));
        }
        let base = superblock.base_address.min(source.len());
        let mut len = source.len() - base;
        let sizes = superblock.sizes;
        if !options.ignore_end_of_allocation {
            if let Some(eoa) = defined(superblock.eof_address, sizes.offset_size) {
                len = len.min(eoa);
            }
        }
        let mut source: Arc<dyn ByteSource> = if base == 0 && len == source.len() {
            source
        } else {
            Arc::new(View {
                inner: source,
                base,
                len,
            })
        };
        let mut has_image = false;
        if let Some(ext) = superblock.extension {
            let oh = ObjectHeader::read(source.as_ref(), ext, sizes)?;
            if let Some(m) = oh.message(cache_image::MESSAGE_TYPE) {
                let loc = ImageLocation::parse(&m.data, m.offset, sizes)?;
                let image = CacheImage::read(source.as_ref(), loc, sizes)?;
                source = Arc::new(ImageOverlay::new(source, image));
                has_image = true;
            }
        }
        Ok(Hdf5File {
            source,
            superblock: Arc::new(superblock),
            shared: Arc::default(),
            origin: None,
            family: Arc::default(),
            number: 0,
            cache_image: has_image,
        })
    }

    /// A reader over a file a writer is building: `source` is addressed relative to the base
    /// address already, and the superblock is the one the writer will write (version 2, 8-byte
    /// widths), whose root address may be updated at each flush through [`Hdf5File::with_root`].
    pub(crate) fn for_writer(source: Arc<dyn ByteSource>, base: u64, root: u64) -> Hdf5File {
        Hdf5File {
            source,
            superblock: Arc::new(Superblock {
                location: base,
                version: 2,
                sizes: SizeParams {
                    offset_size: 8,
                    length_size: 8,
                },
                base_address: base,
                eof_address: 0,
                root_object_header: root,
                root_cache: None,
                extension: None,
                group_leaf_k: 4,
                group_internal_k: 16,
                indexed_storage_k: 32,
                consistency_flags: 0,
            }),
            shared: Arc::default(),
            origin: None,
            family: Arc::default(),
            number: 0,
            cache_image: false,
        }
    }

    /// The same file with another root group address (after a writer's flush).
    pub(crate) fn with_root(&self, root: u64) -> Hdf5File {
        let mut sb = (*self.superblock).clone();
        sb.root_object_header = root;
        Hdf5File {
            source: self.source.clone(),
            superblock: Arc::new(sb),
            shared: self.shared.clone(),
            origin: self.origin.clone(),
            family: self.family.clone(),
            number: self.number,
            cache_image: self.cache_image,
        }
    }

    /// True when the file holds a metadata cache image, whose entries are read in place of the
    /// file's bytes at their addresses.
    pub fn has_cache_image(&self) -> bool {
        self.cache_image
    }

    /// The superblock.
    pub fn superblock(&self) -> &Superblock {
        &self.superblock
    }

    /// Offset and length widths.
    pub fn sizes(&self) -> SizeParams {
        self.superblock.sizes
    }

    /// The byte source, addressed relative to the base address.
    pub fn source(&self) -> &dyn ByteSource {
        self.source.as_ref()
    }

    /// Reads the object header at `address`, with messages shared through the shared message
    /// table (or kept in another object header) replaced by their bodies. Shared datatypes that
    /// are committed datatypes stay references, so callers can tell named types.
    pub fn object_header(&self, address: u64) -> FormatResult<ObjectHeader> {
        let mut oh = ObjectHeader::read(self.source(), address, self.sizes())?;
        for m in &mut oh.messages {
            if m.flags & flags::SHARED == 0 || type_flag(m.mtype) == 0 {
                continue;
            }
            let r = SharedRef::parse(
                &mut Cursor::new(&m.data, m.offset, "shared message"),
                self.sizes(),
            )?;
            if m.mtype == MessageType::DATATYPE && matches!(r, SharedRef::ObjectHeader(_)) {
                continue;
            }
            m.data = self.resolve_shared(m.mtype, &r, m.offset)?;
            m.flags &= !flags::SHARED;
        }
        Ok(oh)
    }

    /// The superblock extension's object header (superblock versions 2 and 3), if any.
    pub fn superblock_extension(&self) -> FormatResult<Option<ObjectHeader>> {
        self.superblock
            .extension
            .map(|a| ObjectHeader::read(self.source(), a, self.sizes()))
            .transpose()
    }

    /// The shared object header message table, read on first use; `None` when the file has none.
    pub fn shared_messages(&self) -> FormatResult<Option<&SharedMessages>> {
        match self.shared.get_or_init(|| self.load_shared()) {
            Ok(s) => Ok(s.as_ref()),
            Err(e) => Err(*e),
        }
    }

    fn load_shared(&self) -> FormatResult<Option<SharedMessages>> {
        let Some(ext) = self.superblock_extension()? else {
            return Ok(None);
        };
        let Some(m) = ext.message(MessageType::SHARED_MESSAGE_TABLE) else {
            return Ok(None);
        };
        let msg = SharedTableMessage::parse(
            Cursor::new(&m.data, m.offset, "shared message table message"),
            self.sizes(),
        )?;
        let table = SohmTable::read(self.source(), msg, self.sizes())?;
        let heaps = table
            .indexes
            .iter()
            .map(|i| FractalHeap::read(self.source(), i.heap_address, self.sizes()))
            .collect::<FormatResult<Vec<_>>>()?;
        Ok(Some(SharedMessages { table, heaps }))
    }

    /// The body of a message of type `t` kept in the shared message heap under `heap_id`.
    pub fn shared_message(&self, t: MessageType, heap_id: &[u8], at: u64) -> FormatResult<Vec<u8>> {
        let none = || {
            FormatError::new(
                FormatErrorKind::InvalidValue(u64::from(t.0)),
                at,
                "shared message",
            )
        };
        let sm = self.shared_messages()?.ok_or_else(none)?;
        let flag = type_flag(t);
        let k = sm
            .table
            .indexes
            .iter()
            .position(|i| i.message_types & flag != 0)
            .filter(|_| flag != 0)
            .ok_or_else(none)?;
        sm.heaps[k].object(self.source(), heap_id)
    }

    /// The body of a shared message of type `t`: from the shared message heap, or the first
    /// message of that type in another object header (which must not itself be shared).
    pub fn resolve_shared(&self, t: MessageType, r: &SharedRef, at: u64) -> FormatResult<Vec<u8>> {
        match r {
            SharedRef::Heap(id) => self.shared_message(t, id, at),
            SharedRef::ObjectHeader(a) => {
                let oh = ObjectHeader::read(self.source(), *a, self.sizes())?;
                match oh.message(t) {
                    Some(m) if m.flags & flags::SHARED == 0 => Ok(m.data.clone()),
                    _ => Err(FormatError::new(
                        FormatErrorKind::InvalidValue(*a),
                        at,
                        "shared message target",
                    )),
                }
            }
        }
    }

    /// The root group.
    pub fn root(&self) -> FormatResult<group::Group> {
        group::Group::load(self, self.superblock.root_object_header)
    }

    /// Looks up an object by absolute path (`/a/b`), following soft links.
    pub fn object_address(&self, path: &str) -> FormatResult<u64> {
        self.resolve_path(self.superblock.root_object_header, path)
    }

    /// The object a path names, relative to the group at `base` unless it starts with `/`, as
    /// HDF5 resolves it: soft links are followed (at most 16 of them, as HDF5 allows), external
    /// links and missing names are errors.
    pub fn resolve_path(&self, base: u64, path: &str) -> FormatResult<u64> {
        let mut budget = MAX_LINK_HOPS;
        let (f, a) = self.resolve_in(base, path, &mut budget, false)?;
        debug_assert_eq!(f.number, self.number);
        Ok(a)
    }

    /// The object a path names, relative to the group at `base` unless it starts with `/`,
    /// following soft and external links as HDF5 does (16 of them at most, in all): the file
    /// the object is in and its address there.
    pub fn resolve_object(&self, base: u64, path: &str) -> FormatResult<(Hdf5File, u64)> {
        let mut budget = MAX_LINK_HOPS;
        self.resolve_in(base, path, &mut budget, true)
    }

    /// The object a link of the group at `group` leads to: the file it is in and its address.
    /// Soft links are resolved relative to the group, external links in their target file
    /// (see [`family`] for how its name is found); 16 link hops at most.
    pub fn follow_link(&self, group: u64, target: &LinkTarget) -> FormatResult<(Hdf5File, u64)> {
        let mut budget = MAX_LINK_HOPS;
        self.follow(group, target, &mut budget, true)
    }

    fn follow(
        &self,
        group: u64,
        target: &LinkTarget,
        budget: &mut u32,
        external: bool,
    ) -> FormatResult<(Hdf5File, u64)> {
        let bad = |v| FormatError::new(FormatErrorKind::InvalidValue(v), group, "link");
        match target {
            LinkTarget::Hard(a) => Ok((self.clone(), *a)),
            LinkTarget::Soft(p) => {
                if *budget == 0 {
                    return Err(bad(u64::from(MAX_LINK_HOPS)));
                }
                *budget -= 1;
                self.resolve_in(group, p, budget, external)
            }
            LinkTarget::External(file, p) if external => {
                if *budget == 0 {
                    return Err(bad(u64::from(MAX_LINK_HOPS)));
                }
                *budget -= 1;
                let f = self
                    .open_related(file, family::Referrer::ExternalLink, group)?
                    .ok_or_else(|| bad(2))?;
                let root = f.superblock.root_object_header;
                f.resolve_in(root, p, budget, external)
            }
            LinkTarget::External(..) | LinkTarget::Other(_) => Err(bad(2)),
        }
    }

    fn resolve_in(
        &self,
        base: u64,
        path: &str,
        budget: &mut u32,
        external: bool,
    ) -> FormatResult<(Hdf5File, u64)> {
        let mut file = self.clone();
        let mut addr = if path.starts_with('/') {
            self.superblock.root_object_header
        } else {
            base
        };
        for part in path.split('/').filter(|p| !p.is_empty() && *p != ".") {
            let group_addr = addr;
            let g = group::Group::load(&file, group_addr)?;
            let m = g.members()?.into_iter().find(|m| m.name == part);
            let m = m.ok_or_else(|| {
                FormatError::new(FormatErrorKind::InvalidValue(0), group_addr, "link")
            })?;
            (file, addr) = file.follow(group_addr, &m.target, budget, external)?;
        }
        Ok((file, addr))
    }

    /// The dataset at an absolute path.
    pub fn dataset(&self, path: &str) -> FormatResult<Dataset> {
        Dataset::load(self, self.object_address(path)?)
    }
}

pub use group::Group;
