//! Fractal heaps (HDF5 File Format Specification v3.0, section III.G "Disk Format: Level 1G —
//! Fractal Heap"): header, direct and indirect blocks, and lookup of managed, huge and tiny
//! objects by heap id. Dense link and attribute storage keep their messages here. The header's
//! and indirect blocks' checksums are verified (a direct block's covers the whole block, which
//! is not read for one object). Filtered heaps are reported as unsupported.

use std::collections::HashSet;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::object_header::read_block;
use crate::io::ByteSource;

/// A fractal heap header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FractalHeap {
    /// Header address.
    pub address: u64,
    /// Length in bytes of a heap id.
    pub id_len: u16,
    /// Length of the I/O filter information (0: unfiltered).
    pub filter_len: u16,
    /// Header flags (bit 1: direct blocks are checksummed).
    pub flags: u8,
    /// Maximum size of a managed object.
    pub max_managed: u32,
    /// Width of the doubling table.
    pub table_width: u16,
    /// Starting block size.
    pub start_block: u64,
    /// Maximum direct block size.
    pub max_direct_block: u64,
    /// Maximum heap size, in bits of address space.
    pub max_heap_bits: u16,
    /// Address of the root block (`None`: empty heap).
    pub root: Option<u64>,
    /// Rows in the root indirect block (0: the root is a direct block).
    pub root_rows: u16,
    /// v2 B-tree indexing huge objects (stored outside the managed blocks).
    pub huge_btree: Option<u64>,
    sizes: SizeParams,
}

fn log2(v: u64) -> u32 {
    63 - v.max(1).leading_zeros()
}

impl FractalHeap {
    /// Reads the header at `address`.
    pub fn read(
        source: &dyn ByteSource,
        address: u64,
        sizes: SizeParams,
    ) -> FormatResult<FractalHeap> {
        let (o, l) = (u64::from(sizes.offset_size), u64::from(sizes.length_size));
        let len = 4 + 1 + 2 + 2 + 1 + 4 + l + o + l + o + 8 * l + 2 + l + l + 2 + 2 + o + 2 + 4;
        let block = read_block(source, address, len, "fractal heap header")?;
        let mut c = Cursor::new(&block, address, "fractal heap header");
        c.signature(b"FRHP")?;
        let version = c.u8()?;
        if version != 0 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let id_len = c.u16()?;
        let filter_len = c.u16()?;
        let flags = c.u8()?;
        let max_managed = c.u32()?;
        let _next_huge = c.length(sizes)?;
        let huge_btree = c.addr(sizes)?;
        let _free = c.length(sizes)?;
        let _free_manager = c.addr(sizes)?;
        // Managed space, allocated space, allocation iterator, managed object count, huge size
        // and count, tiny size and count.
        for _ in 0..8 {
            c.length(sizes)?;
        }
        let table_width = c.u16()?;
        let start_block = c.length(sizes)?;
        let max_direct_block = c.length(sizes)?;
        let max_heap_bits = c.u16()?;
        let _start_rows = c.u16()?;
        let root = c.addr(sizes)?;
        let root_rows = c.u16()?;
        let bad = |v: u64| {
            FormatError::new(
                FormatErrorKind::InvalidValue(v),
                address,
                "fractal heap header",
            )
        };
        if table_width == 0
            || !table_width.is_power_of_two()
            || start_block == 0
            || !start_block.is_power_of_two()
        {
            return Err(bad(u64::from(table_width)));
        }
        if max_direct_block < start_block
            || !max_direct_block.is_power_of_two()
            || max_heap_bits == 0
            || max_heap_bits > 64
        {
            return Err(bad(max_direct_block));
        }
        if filter_len != 0 {
            return Err(bad(u64::from(filter_len)));
        }
        c.verify_checksum()?;
        Ok(FractalHeap {
            address,
            id_len,
            filter_len,
            flags,
            max_managed,
            table_width,
            start_block,
            max_direct_block,
            max_heap_bits,
            root,
            root_rows,
            huge_btree,
            sizes,
        })
    }

    fn offset_bytes(&self) -> usize {
        usize::from(self.max_heap_bits).div_ceil(8)
    }

    fn length_bytes(&self) -> usize {
        let by_block = (log2(self.max_direct_block) as usize).div_ceil(8).max(1);
        let by_object = (log2(u64::from(self.max_managed)) / 8 + 1) as usize;
        by_block.min(by_object)
    }

    /// Rows of the doubling table whose blocks are direct blocks.
    fn max_direct_rows(&self) -> u32 {
        log2(self.max_direct_block) - log2(self.start_block) + 2
    }

    fn row_block_size(&self, row: u32) -> u64 {
        if row == 0 {
            self.start_block
        } else {
            self.start_block << (row - 1)
        }
    }

    /// The bytes of the object with this heap id.
    pub fn object(&self, source: &dyn ByteSource, id: &[u8]) -> FormatResult<Vec<u8>> {
        let err = |k| FormatError::new(k, self.address, "fractal heap id");
        let first = *id
            .first()
            .ok_or_else(|| err(FormatErrorKind::InvalidValue(0)))?;
        match (first >> 4) & 0x03 {
            0 => {
                let mut c = Cursor::new(&id[1..], self.address, "fractal heap id");
                let offset = c.uint(self.offset_bytes() as u8)?;
                let len = c.uint(self.length_bytes() as u8)?;
                self.managed(source, offset, len)
            }
            1 => self.huge(source, &id[1..]),
            2 => {
                let len = usize::from(first & 0x0f) + 1;
                id.get(1..1 + len)
                    .map(<[u8]>::to_vec)
                    .ok_or_else(|| err(FormatErrorKind::InvalidValue(len as u64)))
            }
            t => Err(err(FormatErrorKind::InvalidValue(u64::from(t)))),
        }
    }

    /// A huge object: addressed directly by the id when it is long enough (and the heap is not
    /// filtered), otherwise found by its id in the huge-object v2 B-tree (record type 1:
    /// address, length, id).
    fn huge(&self, source: &dyn ByteSource, rest: &[u8]) -> FormatResult<Vec<u8>> {
        let (o, l) = (
            usize::from(self.sizes.offset_size),
            usize::from(self.sizes.length_size),
        );
        let mut c = Cursor::new(rest, self.address, "fractal heap huge id");
        if self.filter_len == 0 && rest.len() >= o + l {
            let addr = c.uint(self.sizes.offset_size)?;
            let len = c.length(self.sizes)?;
            return read_block(source, addr, len, "fractal heap huge object");
        }
        let key_len = rest.len().min(l);
        let key = c.uint(key_len as u8)?;
        let tree_addr = self.huge_btree.ok_or_else(|| {
            FormatError::new(
                FormatErrorKind::InvalidValue(key),
                self.address,
                "fractal heap huge id",
            )
        })?;
        let tree = crate::format::btree_v2::BTreeV2::read(source, tree_addr, self.sizes)?;
        for r in tree.records(source, self.sizes)? {
            let mut rc = Cursor::new(&r, tree_addr, "huge object record");
            let addr = rc.uint(self.sizes.offset_size)?;
            let len = rc.length(self.sizes)?;
            let id = rc.length(self.sizes)?;
            if id == key {
                return read_block(source, addr, len, "fractal heap huge object");
            }
        }
        Err(FormatError::new(
            FormatErrorKind::InvalidValue(key),
            tree_addr,
            "fractal heap huge object",
        ))
    }

    fn managed(&self, source: &dyn ByteSource, offset: u64, len: u64) -> FormatResult<Vec<u8>> {
        let root = self.root.ok_or_else(|| {
            FormatError::new(
                FormatErrorKind::InvalidValue(offset),
                self.address,
                "fractal heap",
            )
        })?;
        if self.root_rows == 0 {
            return self.read_direct(source, root, 0, self.start_block, offset, len);
        }
        let mut seen = HashSet::new();
        self.read_indirect(
            source,
            root,
            0,
            u32::from(self.root_rows),
            offset,
            len,
            &mut seen,
        )
    }

    fn read_direct(
        &self,
        source: &dyn ByteSource,
        addr: u64,
        block_offset: u64,
        block_size: u64,
        offset: u64,
        len: u64,
    ) -> FormatResult<Vec<u8>> {
        let within = offset
            .checked_sub(block_offset)
            .filter(|w| w.checked_add(len).is_some_and(|e| e <= block_size));
        let Some(within) = within else {
            return Err(FormatError::new(
                FormatErrorKind::InvalidValue(offset),
                addr,
                "fractal heap direct block",
            ));
        };
        let head = read_block(source, addr, 5, "fractal heap direct block")?;
        if &head[..4] != b"FHDB" {
            return Err(FormatError::new(
                FormatErrorKind::BadSignature([head[0], head[1], head[2], head[3]]),
                addr,
                "fractal heap direct block",
            ));
        }
        read_block(source, addr + within, len, "fractal heap object")
    }

    #[allow(clippy::too_many_arguments)]
    fn read_indirect(
        &self,
        source: &dyn ByteSource,
        addr: u64,
        block_offset: u64,
        rows: u32,
        offset: u64,
        len: u64,
        seen: &mut HashSet<u64>,
    ) -> FormatResult<Vec<u8>> {
        if !seen.insert(addr) || seen.len() > 64 {
            return Err(FormatError::new(
                FormatErrorKind::Cycle(addr),
                addr,
                "fractal heap indirect block",
            ));
        }
        let width = u64::from(self.table_width);
        let o = u64::from(self.sizes.offset_size);
        let direct_rows = rows.min(self.max_direct_rows());
        let entries = u64::from(rows) * width;
        let head_len = 4 + 1 + o + self.offset_bytes() as u64;
        let block = read_block(
            source,
            addr,
            head_len + entries * o + 4,
            "fractal heap indirect block",
        )?;
        let mut c = Cursor::new(&block, addr, "fractal heap indirect block");
        c.signature(b"FHIB")?;
        c.skip((head_len - 4) as usize)?;
        let mut children = Vec::with_capacity(entries as usize);
        for _ in 0..entries {
            children.push(c.addr(self.sizes)?);
        }
        c.verify_checksum()?;
        // Find the row and column holding `offset`.
        let rel = offset.checked_sub(block_offset).ok_or_else(|| {
            FormatError::new(
                FormatErrorKind::InvalidValue(offset),
                addr,
                "fractal heap indirect block",
            )
        })?;
        let mut row_start = 0u64;
        for row in 0..rows {
            let size = self.row_block_size(row);
            let row_len = size.saturating_mul(width);
            if rel < row_start.saturating_add(row_len) {
                let col = (rel - row_start) / size;
                let child_off = block_offset + row_start + col * size;
                let idx = (u64::from(row) * width + col) as usize;
                let child = children[idx].ok_or_else(|| {
                    FormatError::new(
                        FormatErrorKind::InvalidValue(offset),
                        addr,
                        "fractal heap indirect block",
                    )
                })?;
                if row < direct_rows {
                    return self.read_direct(source, child, child_off, size, offset, len);
                }
                let child_rows = log2(size) - log2(self.start_block * width) + 1;
                return self.read_indirect(source, child, child_off, child_rows, offset, len, seen);
            }
            row_start = row_start.saturating_add(row_len);
        }
        Err(FormatError::new(
            FormatErrorKind::InvalidValue(offset),
            addr,
            "fractal heap indirect block",
        ))
    }
}
