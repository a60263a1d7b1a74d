//! Chunk indexes of layout version 4 (HDF5 File Format Specification v3.0, sections III.A.2
//! "Version 2 B-trees" record types 10/11, III.H "Fixed Array", III.I "Extensible Array", and
//! IV.A.2.i single-chunk and implicit indexing), enumerated into [`ChunkRecord`]s. Version 1
//! B-tree indexes are in `btree_v1`.
//!
//! Every block is bounds-checked against the file and checksummed; element counts are bounded by
//! the dataset's chunk grid, so a lying header cannot make us allocate beyond it.

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::btree_v1::ChunkRecord;
use crate::format::btree_v2::BTreeV2;
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::object_header::read_block;
use crate::io::ByteSource;

/// The chunk grid of a dataset: chunk shape, number of chunks per dimension, and the order in
/// which an array index numbers the chunks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkGrid {
    /// Chunk dimensions.
    pub chunk: Vec<u64>,
    /// Chunks per dimension (from the maximum dimensions where the index spans them).
    pub counts: Vec<u64>,
    /// The dimension numbered slowest, ahead of all others, when it is not the first: an
    /// extensible array index numbers chunks row-major over the dimensions with its unlimited
    /// dimension moved to the front, the others keeping their order (HDF5's "swizzled"
    /// coordinates; section III.I and the layout message's extensible array index).
    pub leading: Option<usize>,
}

impl ChunkGrid {
    /// The grid covering `dims` with chunks of `chunk`, numbered row-major.
    pub fn new(dims: &[u64], chunk: &[u64]) -> ChunkGrid {
        let counts = dims
            .iter()
            .zip(chunk)
            .map(|(d, c)| if *c == 0 { 0 } else { d.div_ceil(*c) })
            .collect();
        ChunkGrid {
            chunk: chunk.to_vec(),
            counts,
            leading: None,
        }
    }

    /// The same grid numbered with dimension `dim` first (see [`ChunkGrid::leading`]).
    pub fn with_leading(mut self, dim: usize) -> ChunkGrid {
        self.leading = (dim > 0 && dim < self.counts.len()).then_some(dim);
        self
    }

    /// Total number of chunks (saturating).
    pub fn total(&self) -> u64 {
        self.counts.iter().fold(1u64, |a, c| a.saturating_mul(*c))
    }

    /// Element offsets of the chunk with linear index `i` in the grid's numbering.
    pub fn offsets_of(&self, mut i: u64) -> Vec<u64> {
        let rank = self.counts.len();
        let mut out = vec![0; rank];
        // Dimensions from fastest to slowest: the leading one, if any, is the slowest.
        let order = (0..rank)
            .rev()
            .filter(|d| Some(*d) != self.leading)
            .chain(self.leading);
        for d in order {
            let n = self.counts[d].max(1);
            out[d] = (i % n) * self.chunk[d];
            i /= n;
        }
        out
    }
}

fn chunk_bytes(grid: &ChunkGrid, element_size: u64) -> u64 {
    grid.chunk
        .iter()
        .fold(element_size, |a, c| a.saturating_mul(*c))
}

/// One decoded array element: chunk address, stored size and filter mask.
fn parse_entry(
    c: &mut Cursor<'_>,
    sizes: SizeParams,
    filtered: bool,
    entry_size: usize,
    default_size: u64,
) -> FormatResult<Option<(u64, u64, u32)>> {
    let addr = c.addr(sizes)?;
    let (size, mask) = if filtered {
        let len_bytes = entry_size
            .checked_sub(usize::from(sizes.offset_size) + 4)
            .filter(|n| (1..=8).contains(n))
            .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(entry_size as u64)))?;
        (c.uint(len_bytes as u8)?, c.u32()?)
    } else {
        (default_size, 0)
    };
    Ok(addr.map(|a| (a, size, mask)))
}

fn record(grid: &ChunkGrid, linear: u64, entry: (u64, u64, u32)) -> ChunkRecord {
    ChunkRecord {
        offsets: grid.offsets_of(linear),
        size: u32::try_from(entry.1).unwrap_or(u32::MAX),
        filter_mask: entry.2,
        address: entry.0,
    }
}

/// Chunks of a fixed array index whose header is at `address`.
pub fn fixed_array(
    source: &dyn ByteSource,
    address: u64,
    sizes: SizeParams,
    grid: &ChunkGrid,
    element_size: u64,
) -> FormatResult<Vec<ChunkRecord>> {
    let (o, l) = (u64::from(sizes.offset_size), u64::from(sizes.length_size));
    let head = read_block(source, address, 8 + l + o + 4, "fixed array header")?;
    let mut c = Cursor::new(&head, address, "fixed array header");
    c.signature(b"FAHD")?;
    let version = c.u8()?;
    if version != 0 {
        return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
    }
    let client = c.u8()?;
    let entry_size = usize::from(c.u8()?);
    let page_bits = c.u8()?;
    let n = c.length(sizes)?;
    let data_addr = c.addr(sizes)?;
    c.verify_checksum()?;
    if n > grid.total() || page_bits > 32 || entry_size < usize::from(sizes.offset_size) {
        return Err(FormatError::new(
            FormatErrorKind::InvalidValue(n),
            address,
            "fixed array header",
        ));
    }
    let Some(data_addr) = data_addr else {
        return Ok(Vec::new());
    };
    let filtered = client == 1;
    let default_size = chunk_bytes(grid, element_size);
    let page = 1u64 << page_bits;
    let es = entry_size as u64;
    let mut out = Vec::new();
    if n <= page {
        let block = read_block(
            source,
            data_addr,
            6 + o + n * es + 4,
            "fixed array data block",
        )?;
        let mut c = Cursor::new(&block, data_addr, "fixed array data block");
        c.signature(b"FADB")?;
        c.skip(2 + o as usize)?;
        for i in 0..n {
            if let Some(e) = parse_entry(&mut c, sizes, filtered, entry_size, default_size)? {
                out.push(record(grid, i, e));
            }
        }
        c.verify_checksum()?;
        return Ok(out);
    }
    let npages = n.div_ceil(page);
    let bitmap_len = npages.div_ceil(8);
    let prefix = 6 + o + bitmap_len + 4;
    let block = read_block(source, data_addr, prefix, "fixed array data block")?;
    let mut c = Cursor::new(&block, data_addr, "fixed array data block");
    c.signature(b"FADB")?;
    c.skip(2 + o as usize)?;
    let bitmap = c.bytes(bitmap_len as usize)?.to_vec();
    c.verify_checksum()?;
    let mut page_addr = data_addr + prefix;
    for p in 0..npages {
        let entries = page.min(n - p * page);
        let len = entries * es + 4;
        if bitmap[(p / 8) as usize] & (0x80 >> (p % 8)) != 0 {
            let block = read_block(source, page_addr, len, "fixed array page")?;
            let mut c = Cursor::new(&block, page_addr, "fixed array page");
            for k in 0..entries {
                if let Some(e) = parse_entry(&mut c, sizes, filtered, entry_size, default_size)? {
                    out.push(record(grid, p * page + k, e));
                }
            }
            c.verify_checksum()?;
        }
        page_addr += page * es + 4;
    }
    Ok(out)
}

/// Parameters of an extensible array, from its header.
struct EaParams {
    client: u8,
    entry_size: usize,
    max_bits: u8,
    index_elements: u64,
    dblk_min: u64,
    sblk_min_ptrs: u64,
    page_bits: u8,
}

/// Chunks of an extensible array index whose header is at `address`.
pub fn extensible_array(
    source: &dyn ByteSource,
    address: u64,
    sizes: SizeParams,
    grid: &ChunkGrid,
    element_size: u64,
) -> FormatResult<Vec<ChunkRecord>> {
    let (o, l) = (u64::from(sizes.offset_size), u64::from(sizes.length_size));
    let head = read_block(
        source,
        address,
        12 + 6 * l + o + 4,
        "extensible array header",
    )?;
    let mut c = Cursor::new(&head, address, "extensible array header");
    c.signature(b"EAHD")?;
    let version = c.u8()?;
    if version != 0 {
        return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
    }
    let p = EaParams {
        client: c.u8()?,
        entry_size: usize::from(c.u8()?),
        max_bits: c.u8()?,
        index_elements: u64::from(c.u8()?),
        dblk_min: u64::from(c.u8()?),
        sblk_min_ptrs: u64::from(c.u8()?),
        page_bits: c.u8()?,
    };
    // Statistics: secondary blocks (count, size), data blocks (count, size), the maximum index
    // set (one past the highest element ever set), the number of elements realized.
    for _ in 0..4 {
        c.length(sizes)?;
    }
    let max_index = c.length(sizes)?;
    c.length(sizes)?;
    let iblock = c.addr(sizes)?;
    c.verify_checksum()?;
    let bad = |v: u64| {
        FormatError::new(
            FormatErrorKind::InvalidValue(v),
            address,
            "extensible array header",
        )
    };
    if p.max_bits == 0
        || p.max_bits > 64
        || !p.dblk_min.is_power_of_two()
        || !p.sblk_min_ptrs.is_power_of_two()
        || p.page_bits > 32
        || p.entry_size < usize::from(sizes.offset_size)
    {
        return Err(bad(u64::from(p.max_bits)));
    }
    let Some(iblock) = iblock else {
        return Ok(Vec::new());
    };
    // Elements past the number of chunks in the grid cannot be valid; stop there.
    let limit = max_index.min(grid.total());
    let default_size = chunk_bytes(grid, element_size);
    let filtered = p.client == 1;
    let mut out = Vec::new();
    let log2 = |v: u64| 63 - v.max(1).leading_zeros() as u64;
    let nsblks = 1 + u64::from(p.max_bits).saturating_sub(log2(p.dblk_min));
    // Super block u: 2^(u/2) data blocks of 2^((u+1)/2) * dblk_min elements each.
    let sblk = |u: u64| (1u64 << (u / 2), (1u64 << u.div_ceil(2)) * p.dblk_min);
    let iblock_sblks = 2 * log2(p.sblk_min_ptrs);
    let ndblk_addrs = 2 * (p.sblk_min_ptrs - 1);
    let nsblk_addrs = nsblks.saturating_sub(iblock_sblks);
    let es = p.entry_size as u64;
    let ib_len = 6 + o + p.index_elements * es + (ndblk_addrs + nsblk_addrs) * o + 4;
    let block = read_block(source, iblock, ib_len, "extensible array index block")?;
    let mut c = Cursor::new(&block, iblock, "extensible array index block");
    c.signature(b"EAIB")?;
    c.skip(2 + o as usize)?;
    let mut next = 0u64;
    for _ in 0..p.index_elements {
        let e = parse_entry(&mut c, sizes, filtered, p.entry_size, default_size)?;
        if next < limit {
            if let Some(e) = e {
                out.push(record(grid, next, e));
            }
        }
        next += 1;
    }
    let mut dblks = Vec::with_capacity(ndblk_addrs as usize);
    for _ in 0..ndblk_addrs {
        dblks.push(c.addr(sizes)?);
    }
    let mut sblks = Vec::with_capacity(nsblk_addrs as usize);
    for _ in 0..nsblk_addrs {
        sblks.push(c.addr(sizes)?);
    }
    c.verify_checksum()?;
    let offset_bytes = usize::from(p.max_bits).div_ceil(8);
    // Data blocks owned directly by the index block, super block by super block.
    let mut dblk_iter = dblks.into_iter();
    for u in 0..iblock_sblks {
        let (n, nelmts) = sblk(u);
        for _ in 0..n {
            if next >= limit {
                return Ok(out);
            }
            if let Some(addr) = dblk_iter.next().flatten() {
                read_ea_data_block(
                    source,
                    addr,
                    sizes,
                    &p,
                    nelmts,
                    offset_bytes,
                    next,
                    limit,
                    grid,
                    default_size,
                    None,
                    &mut out,
                )?;
            }
            next += nelmts;
        }
    }
    for (k, saddr) in sblks.into_iter().enumerate() {
        let u = iblock_sblks + k as u64;
        let (n, nelmts) = sblk(u);
        if next >= limit {
            break;
        }
        let Some(saddr) = saddr else {
            next += n * nelmts;
            continue;
        };
        let page = 1u64 << p.page_bits;
        let paged = nelmts > page;
        let npages = if paged { nelmts / page } else { 0 };
        let bitmap_len = if paged { (n * npages).div_ceil(8) } else { 0 };
        let len = 6 + o + offset_bytes as u64 + bitmap_len + n * o + 4;
        let block = read_block(source, saddr, len, "extensible array secondary block")?;
        let mut c = Cursor::new(&block, saddr, "extensible array secondary block");
        c.signature(b"EASB")?;
        c.skip(2 + o as usize + offset_bytes)?;
        let bitmap = c.bytes(bitmap_len as usize)?.to_vec();
        let mut addrs = Vec::with_capacity(n as usize);
        for _ in 0..n {
            addrs.push(c.addr(sizes)?);
        }
        c.verify_checksum()?;
        for (d, a) in addrs.into_iter().enumerate() {
            if next >= limit {
                return Ok(out);
            }
            if let Some(a) = a {
                let bits = paged.then(|| (bitmap.as_slice(), d as u64 * npages));
                read_ea_data_block(
                    source,
                    a,
                    sizes,
                    &p,
                    nelmts,
                    offset_bytes,
                    next,
                    limit,
                    grid,
                    default_size,
                    bits,
                    &mut out,
                )?;
            }
            next += nelmts;
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn read_ea_data_block(
    source: &dyn ByteSource,
    addr: u64,
    sizes: SizeParams,
    p: &EaParams,
    nelmts: u64,
    offset_bytes: usize,
    first: u64,
    limit: u64,
    grid: &ChunkGrid,
    default_size: u64,
    page_bitmap: Option<(&[u8], u64)>,
    out: &mut Vec<ChunkRecord>,
) -> FormatResult<()> {
    let o = u64::from(sizes.offset_size);
    let es = p.entry_size as u64;
    let filtered = p.client == 1;
    let prefix = 6 + o + offset_bytes as u64;
    let page = 1u64 << p.page_bits;
    if nelmts <= page {
        let block = read_block(
            source,
            addr,
            prefix + nelmts * es + 4,
            "extensible array data block",
        )?;
        let mut c = Cursor::new(&block, addr, "extensible array data block");
        c.signature(b"EADB")?;
        c.skip(prefix as usize - 4)?;
        for k in 0..nelmts {
            let e = parse_entry(&mut c, sizes, filtered, p.entry_size, default_size)?;
            if first + k < limit {
                if let Some(e) = e {
                    out.push(record(grid, first + k, e));
                }
            }
        }
        return c.verify_checksum();
    }
    // Paged data block: a header with its checksum, then pages each with a checksum.
    let head = read_block(source, addr, prefix + 4, "extensible array data block")?;
    let mut c = Cursor::new(&head, addr, "extensible array data block");
    c.signature(b"EADB")?;
    c.skip(prefix as usize - 4)?;
    c.verify_checksum()?;
    let npages = nelmts / page;
    for pg in 0..npages {
        let initialised = page_bitmap.is_none_or(|(bits, base)| {
            let i = base + pg;
            bits.get((i / 8) as usize)
                .is_some_and(|b| b & (0x80 >> (i % 8)) != 0)
        });
        let start = first + pg * page;
        if !initialised || start >= limit {
            continue;
        }
        let paddr = addr + prefix + 4 + pg * (page * es + 4);
        let block = read_block(source, paddr, page * es + 4, "extensible array page")?;
        let mut c = Cursor::new(&block, paddr, "extensible array page");
        for k in 0..page {
            let e = parse_entry(&mut c, sizes, filtered, p.entry_size, default_size)?;
            if start + k < limit {
                if let Some(e) = e {
                    out.push(record(grid, start + k, e));
                }
            }
        }
        c.verify_checksum()?;
    }
    Ok(())
}

/// Chunks of a v2 B-tree chunk index (record type 10 unfiltered, 11 filtered).
pub fn btree_v2(
    source: &dyn ByteSource,
    address: u64,
    sizes: SizeParams,
    grid: &ChunkGrid,
    element_size: u64,
) -> FormatResult<Vec<ChunkRecord>> {
    let tree = BTreeV2::read(source, address, sizes)?;
    let rank = grid.chunk.len();
    let default_size = chunk_bytes(grid, element_size);
    let mut out = Vec::new();
    for r in tree.records(source, sizes)? {
        let mut c = Cursor::new(&r, address, "v2 B-tree chunk record");
        let addr = c.uint(sizes.offset_size)?;
        let (size, mask) = match tree.tree_type {
            10 => (default_size, 0),
            11 => {
                let len = r
                    .len()
                    .checked_sub(usize::from(sizes.offset_size) + 4 + 8 * rank)
                    .filter(|n| (1..=8).contains(n))
                    .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(r.len() as u64)))?;
                (c.uint(len as u8)?, c.u32()?)
            }
            t => return Err(c.error(FormatErrorKind::InvalidValue(u64::from(t)))),
        };
        let mut offsets = Vec::with_capacity(rank);
        for d in 0..rank {
            offsets.push(c.u64()?.saturating_mul(grid.chunk[d]));
        }
        out.push(ChunkRecord {
            offsets,
            size: u32::try_from(size).unwrap_or(u32::MAX),
            filter_mask: mask,
            address: addr,
        });
    }
    Ok(out)
}

/// Chunks of an implicit index: every chunk of the grid stored in order from `address`.
pub fn implicit(address: u64, grid: &ChunkGrid, element_size: u64) -> Vec<ChunkRecord> {
    let size = chunk_bytes(grid, element_size);
    (0..grid.total())
        .map(|i| record(grid, i, (address + i * size, size, 0)))
        .collect()
}
