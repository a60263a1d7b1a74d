//! The HDF4 file structure (HDF4 Specification, "Basic Structure", "Data Descriptor Blocks"):
//! the 4-byte magic `0e 03 13 01`, then a chain of data-descriptor (DD) blocks. A block is a
//! 2-byte count of DDs and the 4-byte offset of the next block (0 ends the chain), then that many
//! 12-byte DDs: tag, reference number, offset and length of the data element, all big-endian.
//! A tag with bit 0x4000 set (and 0x8000 clear) marks a special element: its data starts with a
//! 2-byte special code that says how the element's real data is laid out (`hfile.h`:
//! `SPECIALTAG`, `BASETAG`), read in [`crate::element`].

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use purecdf_hdf5::io::ByteSource;

use crate::error::{Error, Reader, Result};

/// The first four bytes of every HDF4 file.
pub const MAGIC: [u8; 4] = [0x0e, 0x03, 0x13, 0x01];

/// Tag of an empty DD slot (`DFTAG_NULL`).
const DFTAG_NULL: u16 = 1;

/// One data descriptor: where the element with this tag and reference number is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// The tag as stored (with the special bit when the element is special).
    pub tag: u16,
    /// The reference number.
    pub reference: u16,
    /// Offset of the element's bytes in the file.
    pub offset: u32,
    /// Length of the element's bytes.
    pub length: u32,
}

impl Descriptor {
    /// True when the element is special (linked blocks, external, compressed, chunked).
    pub fn is_special(&self) -> bool {
        is_special_tag(self.tag)
    }
}

/// True for a tag with the special bit (0x4000) set and the user bit (0x8000) clear.
pub fn is_special_tag(tag: u16) -> bool {
    tag & 0x8000 == 0 && tag & 0x4000 != 0
}

/// The tag with the special bit cleared (`BASETAG`).
pub fn base_tag(tag: u16) -> u16 {
    if tag & 0x8000 == 0 {
        tag & !0x4000
    } else {
        tag
    }
}

/// An open HDF4 file: its byte source and its data descriptors, indexed by base tag and
/// reference number. Reads are positional, so one file serves many threads.
pub struct Hdf4File {
    source: Arc<dyn ByteSource>,
    descriptors: Vec<Descriptor>,
    by_tag_ref: HashMap<(u16, u16), usize>,
    /// The directory of the file, for external elements named relative to it.
    pub(crate) dir: Option<std::path::PathBuf>,
}

impl std::fmt::Debug for Hdf4File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hdf4File")
            .field("descriptors", &self.descriptors.len())
            .finish()
    }
}

impl Hdf4File {
    /// Opens the file at `path`.
    pub fn open_path(path: &std::path::Path) -> Result<Hdf4File> {
        let src = purecdf_hdf5::io::FileSource::open(path)?;
        let mut f = Hdf4File::open(Arc::new(src))?;
        f.dir = path.parent().map(|p| p.to_path_buf());
        Ok(f)
    }

    /// Reads the magic number and every DD block from a byte source.
    pub fn open(source: Arc<dyn ByteSource>) -> Result<Hdf4File> {
        let size = source.len();
        let mut magic = [0u8; 4];
        if size < 4 {
            return Err(Error::at(0, "file too short for the HDF4 magic number"));
        }
        source.read_at(0, &mut magic)?;
        if magic != MAGIC {
            return Err(Error::at(0, "not an HDF4 file (bad magic number)"));
        }
        let mut descriptors = Vec::new();
        let mut by_tag_ref = HashMap::new();
        let mut seen = HashSet::new();
        let mut at = 4u64;
        let mut total = 0u64;
        while at != 0 {
            if !seen.insert(at) {
                return Err(Error::at(at, "DD block chain loops"));
            }
            let head = read_checked(&*source, at, 6)?;
            let mut r = Reader::new(&head, at);
            let count = u64::from(r.u16()?);
            let next = u64::from(r.u32()?);
            total += count;
            // DD blocks do not overlap in a sound file: more DDs than fit in it means a chain
            // of overlapping blocks.
            if total * 12 > size {
                return Err(Error::at(
                    at,
                    "more data descriptors than the file can hold",
                ));
            }
            let body = read_checked(&*source, at + 6, count * 12)?;
            let mut r = Reader::new(&body, at + 6);
            for _ in 0..count {
                let dd = Descriptor {
                    tag: r.u16()?,
                    reference: r.u16()?,
                    offset: r.u32()?,
                    length: r.u32()?,
                };
                if dd.tag == DFTAG_NULL || dd.tag == 0 {
                    continue;
                }
                by_tag_ref
                    .entry((base_tag(dd.tag), dd.reference))
                    .or_insert(descriptors.len());
                descriptors.push(dd);
            }
            at = next;
        }
        Ok(Hdf4File {
            source,
            descriptors,
            by_tag_ref,
            dir: None,
        })
    }

    /// Every data descriptor, in file order (empty slots left out).
    pub fn descriptors(&self) -> &[Descriptor] {
        &self.descriptors
    }

    /// The descriptor of the element with this (base) tag and reference number.
    pub fn find(&self, tag: u16, reference: u16) -> Option<&Descriptor> {
        self.by_tag_ref
            .get(&(base_tag(tag), reference))
            .map(|&i| &self.descriptors[i])
    }

    /// The size of the file in bytes.
    pub fn size(&self) -> u64 {
        self.source.len()
    }

    /// Reads `len` bytes at `offset`, checked against the file size first.
    pub fn read_at(&self, offset: u64, len: u64) -> Result<Vec<u8>> {
        read_checked(&*self.source, offset, len)
    }

    /// Reads into `buf` at `offset`, checked against the file size.
    pub fn read_into(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        check(offset, buf.len() as u64, self.size())?;
        self.source
            .read_at(offset, buf)
            .map_err(|e| Error::at(offset, e.to_string()))
    }

    /// The stored bytes of a descriptor (for a special element: its special header).
    pub fn raw_bytes(&self, dd: &Descriptor) -> Result<Vec<u8>> {
        self.read_at(u64::from(dd.offset), u64::from(dd.length))
    }
}

fn check(offset: u64, len: u64, size: u64) -> Result<()> {
    match offset.checked_add(len) {
        Some(end) if end <= size => Ok(()),
        _ => Err(Error::at(
            offset,
            format!("{len} bytes at offset {offset} run past the end of the {size}-byte file"),
        )),
    }
}

fn read_checked(source: &dyn ByteSource, offset: u64, len: u64) -> Result<Vec<u8>> {
    check(offset, len, source.len())?;
    let mut buf = vec![0u8; len as usize];
    source
        .read_at(offset, &mut buf)
        .map_err(|e| Error::at(offset, e.to_string()))?;
    Ok(buf)
}
