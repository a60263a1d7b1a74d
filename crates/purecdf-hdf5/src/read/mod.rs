//! Navigation the user sees: [`Hdf5File`] (superblock + object loading), groups (old-style symbol
//! tables, compact links, dense links), datasets (type, shape, layout, filters, chunk enumeration
//! and reading with parallel chunk decoding) and attributes.
//!
//! Opening reads only the superblock; every object header is read when first asked for.

mod dataset;
pub(crate) mod group;
pub(crate) mod slab;

pub use dataset::{Chunk, Dataset};
pub use group::{Attribute, Member};
pub use slab::Slab;

use std::sync::Arc;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::SizeParams;
use crate::format::object_header::ObjectHeader;
use crate::format::superblock::Superblock;
use crate::io::{ByteSource, Shifted};

/// An open HDF5 file. Cheap to clone; `Send + Sync`.
#[derive(Clone)]
pub struct Hdf5File {
    source: Arc<dyn ByteSource>,
    superblock: Arc<Superblock>,
}

impl std::fmt::Debug for Hdf5File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hdf5File")
            .field("superblock", &self.superblock)
            .finish()
    }
}

struct ShiftedArc {
    inner: Shifted<ArcSource>,
}

struct ArcSource(Arc<dyn ByteSource>);

impl ByteSource for ArcSource {
    fn len(&self) -> u64 {
        self.0.len()
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.0.read_at(offset, buf)
    }
}

impl ByteSource for ShiftedArc {
    fn len(&self) -> u64 {
        self.inner.len()
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.inner.read_at(offset, buf)
    }
}

impl Hdf5File {
    /// Opens an HDF5 file from any byte source: reads the superblock only.
    pub fn open(source: Arc<dyn ByteSource>) -> FormatResult<Hdf5File> {
        let superblock = Superblock::read(source.as_ref())?;
        let source: Arc<dyn ByteSource> = if superblock.base_address == 0 {
            source
        } else {
            Arc::new(ShiftedArc {
                inner: Shifted::new(ArcSource(source), superblock.base_address),
            })
        };
        Ok(Hdf5File {
            source,
            superblock: Arc::new(superblock),
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
        }
    }

    /// The same file with another root group address (after a writer's flush).
    pub(crate) fn with_root(&self, root: u64) -> Hdf5File {
        let mut sb = (*self.superblock).clone();
        sb.root_object_header = root;
        Hdf5File {
            source: self.source.clone(),
            superblock: Arc::new(sb),
        }
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

    /// Reads the object header at `address`.
    pub fn object_header(&self, address: u64) -> FormatResult<ObjectHeader> {
        ObjectHeader::read(self.source(), address, self.sizes())
    }

    /// The root group.
    pub fn root(&self) -> FormatResult<group::Group> {
        group::Group::load(self, self.superblock.root_object_header)
    }

    /// Looks up an object by absolute path (`/a/b`).
    pub fn object_address(&self, path: &str) -> FormatResult<u64> {
        let mut addr = self.superblock.root_object_header;
        for part in path.split('/').filter(|p| !p.is_empty()) {
            let g = group::Group::load(self, addr)?;
            let m = g.members()?.into_iter().find(|m| m.name == part);
            addr = m.and_then(|m| m.address).ok_or_else(|| {
                FormatError::new(FormatErrorKind::InvalidValue(0), addr, "group member")
            })?;
        }
        Ok(addr)
    }

    /// The dataset at an absolute path.
    pub fn dataset(&self, path: &str) -> FormatResult<Dataset> {
        Dataset::load(self, self.object_address(path)?)
    }
}

pub use group::Group;
