//! Data layout message, type 0x0008 (HDF5 File Format Specification v3.0, section IV.A.2.i),
//! versions 1–5: compact, contiguous, chunked (with every chunk index type of version 4) and
//! virtual. Version 5, which HDF5 2.0 writes for filtered chunked datasets under its 2.0 format
//! bounds, has the fields of version 4; only the chunk index's entries change (the stored size of
//! a filtered chunk takes the file's length size), and `chunk_index` reads that width from each
//! index's own header.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::global_heap::GlobalHeapId;

/// How a chunked dataset indexes its chunks (layout version 4; earlier versions use a v1 B-tree).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkIndex {
    /// Version 1 B-tree (layout versions 1–3).
    BTreeV1,
    /// A single chunk; filtered size and mask when the chunk is filtered.
    SingleChunk {
        /// Size of the filtered chunk and its filter mask.
        filtered: Option<(u64, u32)>,
    },
    /// Implicit index: chunks in order, no index structure.
    Implicit,
    /// Fixed array index.
    FixedArray {
        /// log2 of elements per data block page.
        page_bits: u8,
    },
    /// Extensible array index.
    ExtensibleArray {
        /// Bits for the maximum number of elements.
        max_bits: u8,
        /// Elements stored in the index block.
        index_elements: u8,
        /// Minimum data block pointers in a super block.
        min_pointers: u8,
        /// Minimum elements per data block.
        min_elements: u8,
        /// log2 of elements per data block page.
        page_bits: u8,
    },
    /// Version 2 B-tree index.
    BTreeV2 {
        /// Node size in bytes.
        node_size: u32,
        /// Split percent.
        split_percent: u8,
        /// Merge percent.
        merge_percent: u8,
    },
}

/// The storage layout of a dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// Data inside the object header.
    Compact {
        /// The raw data.
        data: Vec<u8>,
    },
    /// One contiguous block (`None` address: not allocated yet).
    Contiguous {
        /// Address of the data.
        address: Option<u64>,
        /// Size in bytes.
        size: u64,
    },
    /// Chunked storage.
    Chunked {
        /// Chunk dimensions (dataset rank; the element-size entry is removed).
        chunk_dims: Vec<u64>,
        /// Element size in bytes (the last entry of the stored dimensions).
        element_size: u64,
        /// Index structure.
        index: ChunkIndex,
        /// Index address (`None`: no chunk written yet).
        address: Option<u64>,
        /// Layout version 4 flags (bit 0: don't filter partial edge chunks).
        flags: u8,
    },
    /// Virtual dataset: the global heap object holding its mappings (see [`crate::format::vds`]).
    Virtual {
        /// Where the mappings are.
        heap: GlobalHeapId,
    },
}

impl Layout {
    /// Decodes the message body.
    pub fn parse(mut c: Cursor<'_>, sizes: SizeParams) -> FormatResult<Layout> {
        let version = c.u8()?;
        match version {
            1 | 2 => Self::parse_v1_v2(c, sizes),
            3..=5 => Self::parse_v3_v4(c, version, sizes),
            v => Err(c.error(FormatErrorKind::UnsupportedVersion(v))),
        }
    }

    fn parse_v1_v2(mut c: Cursor<'_>, sizes: SizeParams) -> FormatResult<Layout> {
        let rank = usize::from(c.u8()?);
        let class = c.u8()?;
        c.skip(5)?;
        let address = if class != 0 { c.addr(sizes)? } else { None };
        let mut dims = Vec::with_capacity(rank);
        for _ in 0..rank {
            dims.push(u64::from(c.u32()?));
        }
        match class {
            0 => {
                let n = c.u32()? as usize;
                Ok(Layout::Compact {
                    data: c.bytes(n)?.to_vec(),
                })
            }
            1 => {
                let size = dims.iter().product();
                Ok(Layout::Contiguous { address, size })
            }
            2 => {
                // The element size is the last of the `rank` dimensions; no field follows them
                // (what HDF5 1.4–1.6 wrote, whatever the spec's table of version 1 suggests).
                let element_size = dims
                    .pop()
                    .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(0)))?;
                let chunk_dims = dims;
                Ok(Layout::Chunked {
                    chunk_dims,
                    element_size,
                    index: ChunkIndex::BTreeV1,
                    address,
                    flags: 0,
                })
            }
            k => Err(c.error(FormatErrorKind::InvalidValue(u64::from(k)))),
        }
    }

    fn parse_v3_v4(mut c: Cursor<'_>, version: u8, sizes: SizeParams) -> FormatResult<Layout> {
        let class = c.u8()?;
        match class {
            0 => {
                let n = usize::from(c.u16()?);
                Ok(Layout::Compact {
                    data: c.bytes(n)?.to_vec(),
                })
            }
            1 => {
                let address = c.addr(sizes)?;
                let size = c.length(sizes)?;
                Ok(Layout::Contiguous { address, size })
            }
            2 if version == 3 => {
                let rank = usize::from(c.u8()?);
                let address = c.addr(sizes)?;
                let mut dims = Vec::with_capacity(rank);
                for _ in 0..rank {
                    dims.push(u64::from(c.u32()?));
                }
                let element_size = dims
                    .pop()
                    .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(0)))?;
                Ok(Layout::Chunked {
                    chunk_dims: dims,
                    element_size,
                    index: ChunkIndex::BTreeV1,
                    address,
                    flags: 0,
                })
            }
            2 => {
                let flags = c.u8()?;
                let rank = usize::from(c.u8()?);
                let width = c.u8()?;
                if !(1..=8).contains(&width) {
                    return Err(c.error(FormatErrorKind::BadSizeField(width)));
                }
                let mut dims = Vec::with_capacity(rank);
                for _ in 0..rank {
                    dims.push(c.uint(width)?);
                }
                let element_size = dims
                    .pop()
                    .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(0)))?;
                let index = match c.u8()? {
                    1 => {
                        let filtered = if flags & 0x02 != 0 {
                            Some((c.length(sizes)?, c.u32()?))
                        } else {
                            None
                        };
                        ChunkIndex::SingleChunk { filtered }
                    }
                    2 => ChunkIndex::Implicit,
                    3 => ChunkIndex::FixedArray { page_bits: c.u8()? },
                    4 => ChunkIndex::ExtensibleArray {
                        max_bits: c.u8()?,
                        index_elements: c.u8()?,
                        min_pointers: c.u8()?,
                        min_elements: c.u8()?,
                        page_bits: c.u8()?,
                    },
                    5 => ChunkIndex::BTreeV2 {
                        node_size: c.u32()?,
                        split_percent: c.u8()?,
                        merge_percent: c.u8()?,
                    },
                    t => return Err(c.error(FormatErrorKind::InvalidValue(u64::from(t)))),
                };
                let address = c.addr(sizes)?;
                Ok(Layout::Chunked {
                    chunk_dims: dims,
                    element_size,
                    index,
                    address,
                    flags,
                })
            }
            3 if version >= 4 => Ok(Layout::Virtual {
                heap: GlobalHeapId::parse(&mut c, sizes)?,
            }),
            k => Err(c.error(FormatErrorKind::InvalidValue(u64::from(k)))),
        }
    }
}

impl Layout {
    /// Encodes a layout message body (section IV.A.2.i): version 3 for compact, contiguous and
    /// v1-B-tree chunked storage (what libhdf5 writes under the 1.8 format bounds), version 4 for
    /// the other chunk indexes.
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        match self {
            Layout::Compact { data } => {
                e.u8(3).u8(0).u16(data.len() as u16).bytes(data);
            }
            Layout::Contiguous { address, size } => {
                e.u8(3).u8(1).addr(*address).length(*size);
            }
            Layout::Chunked {
                chunk_dims,
                element_size,
                index: ChunkIndex::BTreeV1,
                address,
                ..
            } => {
                e.u8(3).u8(2).u8(chunk_dims.len() as u8 + 1).addr(*address);
                for d in chunk_dims {
                    e.u32(*d as u32);
                }
                e.u32(*element_size as u32);
            }
            Layout::Chunked {
                chunk_dims,
                element_size,
                index,
                address,
                flags,
            } => {
                let widest = chunk_dims.iter().copied().max().unwrap_or(1);
                let width = crate::format::encode::width_of(widest.max(*element_size));
                let filtered = matches!(index, ChunkIndex::SingleChunk { filtered: Some(_) });
                e.u8(4)
                    .u8(2)
                    .u8(*flags | if filtered { 0x02 } else { 0 })
                    .u8(chunk_dims.len() as u8 + 1)
                    .u8(width);
                for d in chunk_dims {
                    e.uint(*d, width);
                }
                e.uint(*element_size, width);
                match index {
                    ChunkIndex::BTreeV1 => unreachable!("handled above"),
                    ChunkIndex::SingleChunk { filtered } => {
                        e.u8(1);
                        if let Some((size, mask)) = filtered {
                            e.length(*size).u32(*mask);
                        }
                    }
                    ChunkIndex::Implicit => {
                        e.u8(2);
                    }
                    ChunkIndex::FixedArray { page_bits } => {
                        e.u8(3).u8(*page_bits);
                    }
                    ChunkIndex::ExtensibleArray {
                        max_bits,
                        index_elements,
                        min_pointers,
                        min_elements,
                        page_bits,
                    } => {
                        e.u8(4)
                            .u8(*max_bits)
                            .u8(*index_elements)
                            .u8(*min_pointers)
                            .u8(*min_elements)
                            .u8(*page_bits);
                    }
                    ChunkIndex::BTreeV2 {
                        node_size,
                        split_percent,
                        merge_percent,
                    } => {
                        e.u8(5)
                            .u32(*node_size)
                            .u8(*split_percent)
                            .u8(*merge_percent);
                    }
                }
                e.addr(*address);
            }
            Layout::Virtual { heap } => {
                e.u8(4).u8(3).addr(Some(heap.collection)).u32(heap.index);
            }
        }
    }
}
