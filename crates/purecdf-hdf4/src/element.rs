//! Special data elements (HDF4 Specification, "Special Elements"; `hblocks.c`, `hextelt.c`,
//! `hcomp.c`, `hchunks.c`): the element of a special tag starts with a 2-byte code, then a
//! header whose layout depends on it.
//! * Linked blocks (1): total length, block length, number of blocks, and the reference of the
//!   first block table (`DFTAG_LINKED`): a next-table reference, then that many block
//!   references, each block a `DFTAG_LINKED` element (reference 0: never written, zeros).
//! * External (2): total length, offset in the external file, length of its name, the name.
//! * Compressed (3): header version, uncompressed length, the reference of the compressed bytes
//!   (`DFTAG_COMPRESSED`, itself possibly linked blocks), model type, coder type, coder
//!   parameters (`HCPdecode_header`).
//! * Chunked (5): a header length, then version, flags, total length, chunk size (elements),
//!   element size, the chunk table's vdata tag/reference, the number of dimensions and for each a
//!   flag, a length and a chunk length, then the fill value; when the flags say compressed, a
//!   compression header follows (code 3, its length, then model/coder as above).

use std::collections::HashSet;

use crate::codec::Coder;
use crate::error::{Error, Reader, Result};
use crate::file::{Descriptor, Hdf4File};

const SPECIAL_LINKED: u16 = 1;
const SPECIAL_EXT: u16 = 2;
const SPECIAL_COMP: u16 = 3;
const SPECIAL_CHUNKED: u16 = 5;
/// Tag of linked-block tables and blocks.
const DFTAG_LINKED: u16 = 20;
/// Tag of compressed data.
const DFTAG_COMPRESSED: u16 = 40;
/// Nesting limit for special elements inside special elements (compressed data in linked
/// blocks is the deepest HDF4 writes).
const MAX_DEPTH: u32 = 4;

/// How a data element's bytes are stored.
#[derive(Debug, Clone, PartialEq)]
pub enum Layout {
    /// One run of bytes in the file.
    Plain {
        /// File offset.
        offset: u64,
        /// Length in bytes.
        length: u64,
    },
    /// Linked blocks: the element's bytes are the blocks' bytes in order.
    Linked {
        /// Total length in bytes.
        length: u64,
        /// Offset and length of each block; `None` for a block never written (zeros).
        blocks: Vec<Option<(u64, u64)>>,
    },
    /// Bytes in another file.
    External {
        /// Length in bytes.
        length: u64,
        /// Offset in the external file.
        offset: u64,
        /// The external file's name as stored.
        name: String,
    },
    /// Compressed bytes.
    Compressed {
        /// Uncompressed length in bytes.
        length: u64,
        /// The coder and its parameters.
        coder: Coder,
        /// Where the compressed bytes are.
        data: Box<Layout>,
    },
    /// A chunked element.
    Chunked(Box<ChunkedHeader>),
}

impl Layout {
    /// The element's logical length in bytes (what `Hlength` reports).
    pub fn length(&self) -> u64 {
        match self {
            Layout::Plain { length, .. }
            | Layout::Linked { length, .. }
            | Layout::External { length, .. }
            | Layout::Compressed { length, .. } => *length,
            Layout::Chunked(h) => h.length,
        }
    }
}

/// One dimension of a chunked element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkedDim {
    /// Current length.
    pub length: u64,
    /// Chunk length along it.
    pub chunk_length: u64,
    /// True when unlimited.
    pub unlimited: bool,
}

/// The header of a chunked element.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkedHeader {
    /// Total logical length in bytes.
    pub length: u64,
    /// Size of one element in bytes.
    pub element_size: u64,
    /// The reference of the chunk table vdata.
    pub table_ref: u16,
    /// The dimensions, outermost first.
    pub dims: Vec<ChunkedDim>,
    /// The fill value of chunks never written.
    pub fill: Vec<u8>,
    /// The coder of every chunk, when the chunks are compressed.
    pub coder: Option<Coder>,
}

impl Hdf4File {
    /// The layout of the element with this base tag and reference number; `None` when the file
    /// has no such element.
    pub fn layout(&self, tag: u16, reference: u16) -> Result<Option<Layout>> {
        match self.find(tag, reference) {
            Some(dd) => self.layout_of(*dd, 0).map(Some),
            None => Ok(None),
        }
    }

    fn layout_of(&self, dd: Descriptor, depth: u32) -> Result<Layout> {
        let offset = u64::from(dd.offset);
        if !dd.is_special() {
            if offset.saturating_add(u64::from(dd.length)) > self.size() {
                return Err(Error::at(
                    offset,
                    "data element runs past the end of the file",
                ));
            }
            return Ok(Layout::Plain {
                offset,
                length: u64::from(dd.length),
            });
        }
        if depth > MAX_DEPTH {
            return Err(Error::at(offset, "special elements nested too deeply"));
        }
        let head = self.raw_bytes(&dd)?;
        let mut r = Reader::new(&head, offset);
        match r.u16()? {
            SPECIAL_LINKED => self.linked(&mut r),
            SPECIAL_EXT => {
                let length = u64::from(r.u32()?);
                let ext_offset = u64::from(r.u32()?);
                let n = r.u32()? as usize;
                let name = r.string(n)?;
                Ok(Layout::External {
                    length,
                    offset: ext_offset,
                    name,
                })
            }
            SPECIAL_COMP => {
                let _version = r.u16()?;
                let length = u64::from(r.u32()?);
                let comp_ref = r.u16()?;
                let coder = Coder::decode(&mut r)?;
                let data = match self.find(DFTAG_COMPRESSED, comp_ref) {
                    Some(d) => self.layout_of(*d, depth + 1)?,
                    None => Layout::Plain {
                        offset: 0,
                        length: 0,
                    },
                };
                Ok(Layout::Compressed {
                    length,
                    coder,
                    data: Box::new(data),
                })
            }
            SPECIAL_CHUNKED => chunked_header(&mut r).map(|h| Layout::Chunked(Box::new(h))),
            code => Err(Error::at(
                offset,
                format!("unsupported special element code {code}"),
            )),
        }
    }

    fn linked(&self, r: &mut Reader<'_>) -> Result<Layout> {
        let at = r.offset();
        let length = u64::from(r.u32()?);
        let block_length = u64::from(r.u32()?);
        let count = u64::from(r.u32()?);
        let mut table = r.u16()?;
        if count == 0 || count > self.size() {
            return Err(Error::at(at, "bad number of linked blocks"));
        }
        let mut blocks = Vec::new();
        let mut seen = HashSet::new();
        // Stop once the blocks cover the element's length.
        while table != 0 && (blocks.len() as u64).saturating_mul(block_length.max(1)) < length {
            if !seen.insert(table) {
                return Err(Error::at(at, "linked block tables loop"));
            }
            let dd = self
                .find(DFTAG_LINKED, table)
                .ok_or_else(|| Error::at(at, "missing linked block table"))?;
            let bytes = self.read_at(u64::from(dd.offset), 2 + 2 * count)?;
            let mut t = Reader::new(&bytes, u64::from(dd.offset));
            table = t.u16()?;
            for _ in 0..count {
                let b = t.u16()?;
                let first = blocks.is_empty();
                if b == 0 {
                    blocks.push(None);
                    continue;
                }
                let bd = self
                    .find(DFTAG_LINKED, b)
                    .ok_or_else(|| Error::at(at, "missing linked block"))?;
                let len = if first {
                    u64::from(bd.length)
                } else {
                    block_length.min(u64::from(bd.length))
                };
                blocks.push(Some((u64::from(bd.offset), len)));
            }
        }
        Ok(Layout::Linked { length, blocks })
    }

    /// Reads a (non-chunked) element's logical bytes, decompressing as needed; fails when they
    /// would exceed `max` bytes.
    pub fn read_layout(&self, layout: &Layout, max: u64) -> Result<Vec<u8>> {
        let length = layout.length();
        if length > max {
            return Err(Error::new(format!(
                "data element of {length} bytes is larger than its dataset ({max} bytes)"
            )));
        }
        match layout {
            Layout::Plain { offset, length } => self.read_at(*offset, *length),
            Layout::Linked { length, blocks } => {
                let mut out = Vec::new();
                for b in blocks {
                    if out.len() as u64 >= *length {
                        break;
                    }
                    let want = *length - out.len() as u64;
                    match b {
                        Some((off, len)) => {
                            out.extend(self.read_at(*off, (*len).min(want))?);
                        }
                        None => out.resize(out.len() + want.min(1 << 20) as usize, 0),
                    }
                }
                out.resize(*length as usize, 0);
                Ok(out)
            }
            Layout::External {
                length,
                offset,
                name,
            } => self.read_external(name, *offset, *length),
            Layout::Compressed {
                length,
                coder,
                data,
            } => {
                let stored_max = self.size();
                let stored = self.read_layout(data, stored_max)?;
                coder.decode_bytes(&stored, *length as usize)
            }
            Layout::Chunked(_) => Err(Error::new("a chunked element inside a chunk")),
        }
    }

    fn read_external(&self, name: &str, offset: u64, length: u64) -> Result<Vec<u8>> {
        // Only a file opened by path can name another file.
        let Some(dir) = &self.dir else {
            return Err(Error::new(format!(
                "external element {name} of a file held in memory"
            )));
        };
        let path = external_path(name, dir)
            .ok_or_else(|| Error::new(format!("external file {name} not found")))?;
        let src = purecdf_hdf5::io::FileSource::open(&path)
            .map_err(|e| Error::new(format!("external file {name}: {e}")))?;
        use purecdf_hdf5::io::ByteSource;
        src.read_range(offset, length)
            .map_err(|e| Error::new(format!("external file {name}: {e}")))
    }
}

/// Where HDF4 finds an existing external file (`HXIbuildfilename`): an absolute name as is;
/// a relative name (or an absolute one that does not exist, stripped to its last component)
/// in each directory of `$HDFEXTDIR` (colon-separated), then relative to the current
/// directory. Beyond HDF4, the directory of the file that names it is tried last, so a file
/// read from elsewhere still finds its data.
fn external_path(name: &str, file_dir: &std::path::Path) -> Option<std::path::PathBuf> {
    use std::path::{Path, PathBuf};
    let given = Path::new(name);
    if given.is_absolute() && given.exists() {
        return Some(given.to_path_buf());
    }
    let base = if given.is_absolute() {
        Path::new(given.file_name()?)
    } else {
        given
    };
    let env = std::env::var("HDFEXTDIR").unwrap_or_default();
    let candidates = env
        .split(':')
        .filter(|d| !d.is_empty())
        .map(|d| Path::new(d).join(base))
        .chain([base.to_path_buf(), file_dir.join(base)]);
    candidates.into_iter().find(|p: &PathBuf| p.is_file())
}

fn chunked_header(r: &mut Reader<'_>) -> Result<ChunkedHeader> {
    let at = r.offset();
    let header_len = r.i32()?;
    if !(0..=4096).contains(&header_len) {
        return Err(Error::at(at, "bad chunked element header length"));
    }
    let start = r.offset();
    let version = r.u8()?;
    if version != 0 {
        return Err(Error::at(
            at,
            format!("chunked element header version {version}"),
        ));
    }
    let flags = r.u32()?;
    let length = u64::from(r.u32()?);
    let _chunk_size = r.u32()?;
    let element_size = u64::from(r.u32()?);
    let _table_tag = r.u16()?;
    let table_ref = r.u16()?;
    let _sp_tag = r.u16()?;
    let _sp_ref = r.u16()?;
    let ndims = r.i32()?;
    if !(1..=32).contains(&ndims) {
        return Err(Error::at(
            at,
            format!("chunked element with {ndims} dimensions"),
        ));
    }
    let mut dims = Vec::new();
    for _ in 0..ndims {
        let flag = r.u32()?;
        let length = u64::from(r.u32()?);
        let chunk_length = u64::from(r.u32()?);
        if chunk_length == 0 {
            return Err(Error::at(at, "chunk length 0"));
        }
        dims.push(ChunkedDim {
            length,
            chunk_length,
            unlimited: (flag >> 8) & 0xff != 0,
        });
    }
    let fill_len = r.u32()? as usize;
    let fill = r.bytes(fill_len)?.to_vec();
    // Whatever a later version appends to the header is skipped by its length.
    let used = r.offset() - start;
    match (header_len as u64).checked_sub(used) {
        Some(rest) => {
            r.bytes(rest as usize)?;
        }
        None => return Err(Error::at(at, "chunked element header longer than it says")),
    }
    let coder = if flags & 0xff == u32::from(SPECIAL_COMP) {
        let code = r.u16()?;
        let _len = r.u32()?;
        if code != SPECIAL_COMP {
            return Err(Error::at(at, "bad compression header of a chunked element"));
        }
        Some(Coder::decode(r)?)
    } else {
        None
    };
    Ok(ChunkedHeader {
        length,
        element_size,
        table_ref,
        dims,
        fill,
        coder,
    })
}
