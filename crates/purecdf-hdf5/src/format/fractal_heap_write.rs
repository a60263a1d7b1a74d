//! Building fractal heaps (HDF5 File Format Specification v3.0, section III.G "Disk Format:
//! Level 1G — Fractal Heap") holding a known list of objects, as dense link and attribute
//! storage needs: the header ("FRHP"), the managed objects in direct blocks ("FHDB",
//! checksummed) under a root indirect block ("FHIB", with child indirect blocks when the root's
//! direct rows are not enough) or a single root direct block, objects larger than the largest
//! managed object as "huge" objects of their own indexed by a version 2 B-tree of type 1, and
//! objects that fit in a heap id as "tiny" objects.
//!
//! Objects go into direct blocks in the order given, in heap-offset order of the doubling
//! table; a block too small for the next object is skipped (left unallocated, as libhdf5 skips
//! blocks). The header's statistics (managed space, allocated space, block iterator, free
//! space) are those libhdf5 keeps, so that the library can insert further objects: it allocates
//! new blocks at the iterator. No free-space manager is written (its address is undefined);
//! libhdf5 creates one when it first needs it, so the unused tails of our blocks are simply not
//! reused by it.

use crate::format::btree_v2_write::{encode_tree, tree_len, TreeSpec};
use crate::format::cursor::SizeParams;
use crate::format::encode::Encoder;

/// The creation parameters of a fractal heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapSpec {
    /// Length of a heap id in bytes.
    pub id_len: u16,
    /// Largest managed object; larger ones are huge.
    pub max_managed: u32,
    /// Width of the doubling table.
    pub table_width: u16,
    /// Size of the first direct blocks.
    pub start_block: u64,
    /// Largest direct block.
    pub max_direct_block: u64,
    /// Bits of heap address space.
    pub max_heap_bits: u16,
    /// Rows of a new root indirect block.
    pub start_root_rows: u16,
    /// Direct blocks carry a checksum.
    pub checksum_direct: bool,
}

impl HeapSpec {
    /// The heap libhdf5 creates for a group's dense links.
    pub const LINKS: HeapSpec = HeapSpec {
        id_len: 7,
        max_managed: 4096,
        table_width: 4,
        start_block: 512,
        max_direct_block: 65536,
        max_heap_bits: 32,
        start_root_rows: 1,
        checksum_direct: true,
    };

    /// The heap libhdf5 creates for an object's dense attributes.
    pub const ATTRIBUTES: HeapSpec = HeapSpec {
        id_len: 8,
        max_managed: 4096,
        table_width: 4,
        start_block: 1024,
        max_direct_block: 65536,
        max_heap_bits: 40,
        start_root_rows: 1,
        checksum_direct: true,
    };

    fn off_bytes(&self) -> u8 {
        self.max_heap_bits.div_ceil(8) as u8
    }

    fn len_bytes(&self) -> u8 {
        let by_block = log2(self.max_direct_block).div_ceil(8) as u8;
        let by_object = (log2(u64::from(self.max_managed)) / 8 + 1) as u8;
        by_block.min(by_object)
    }

    fn dblock_overhead(&self, sizes: SizeParams) -> u64 {
        5 + if self.checksum_direct { 4 } else { 0 }
            + u64::from(sizes.offset_size)
            + u64::from(self.off_bytes())
    }

    fn iblock_len(&self, rows: u32, sizes: SizeParams) -> u64 {
        5 + u64::from(sizes.offset_size)
            + u64::from(self.off_bytes())
            + u64::from(rows) * u64::from(self.table_width) * u64::from(sizes.offset_size)
            + 4
    }

    fn row_size(&self, row: u32) -> u64 {
        if row == 0 {
            self.start_block
        } else {
            self.start_block << (row - 1)
        }
    }

    fn row_off(&self, row: u32) -> u64 {
        if row == 0 {
            0
        } else {
            (u64::from(self.table_width) * self.start_block) << (row - 1)
        }
    }

    fn max_direct_rows(&self) -> u32 {
        log2(self.max_direct_block) - log2(self.start_block) + 2
    }

    fn first_row_bits(&self) -> u32 {
        log2(self.start_block) + log2(u64::from(self.table_width))
    }

    /// Rows of an indirect block spanning `size` bytes of heap space.
    fn child_rows(&self, size: u64) -> u32 {
        log2(size) - self.first_row_bits() + 1
    }

    /// The row of the doubling table holding heap offset `off`.
    fn row_of(&self, off: u64) -> u32 {
        let first = u64::from(self.table_width) * self.start_block;
        if off < first {
            0
        } else {
            log2(off / first) + 1
        }
    }

    /// Size of the direct block that starts at heap offset `off` (descending through the
    /// indirect rows of the doubling table).
    fn dblock_size_at(&self, mut off: u64) -> u64 {
        loop {
            let r = self.row_of(off);
            if r < self.max_direct_rows() {
                return self.row_size(r);
            }
            off = (off - self.row_off(r)) % self.row_size(r);
        }
    }

    /// Free space of all direct blocks under one entry of a row (libhdf5's per-row total).
    fn row_free(&self, row: u32, sizes: SizeParams) -> u64 {
        if row < self.max_direct_rows() {
            self.row_size(row) - self.dblock_overhead(sizes)
        } else {
            (0..self.child_rows(self.row_size(row)))
                .map(|r| u64::from(self.table_width) * self.row_free(r, sizes))
                .sum()
        }
    }

    fn tiny_max(&self) -> usize {
        usize::from(self.id_len.saturating_sub(1)).min(16)
    }

    fn huge_id_size(&self) -> u8 {
        self.id_len.saturating_sub(1).min(8) as u8
    }

    fn valid(&self, sizes: SizeParams) -> bool {
        let w = self.table_width;
        w.is_power_of_two()
            && self.start_block.is_power_of_two()
            && self.max_direct_block.is_power_of_two()
            && self.max_direct_block >= self.start_block
            && (1..=64).contains(&self.max_heap_bits)
            && self.id_len >= 2
            // Huge objects are found through the B-tree, never addressed by the id itself.
            && u64::from(self.id_len) - 1 < u64::from(sizes.offset_size) + u64::from(sizes.length_size)
            && u64::from(self.max_managed) + self.dblock_overhead(sizes) <= self.max_direct_block
    }
}

fn log2(v: u64) -> u32 {
    63 - v.max(1).leading_zeros()
}

/// Where one object goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// In direct block `block`, at heap offset `offset`.
    Managed { block: usize, offset: u64 },
    /// A huge object with this id.
    Huge { id: u64 },
    /// Inside its heap id.
    Tiny,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Child {
    None,
    Direct(usize),
    Indirect(usize),
}

#[derive(Debug, Clone)]
struct IBlock {
    offset: u64,
    rows: u32,
    entries: Vec<Child>,
}

/// The placement of a list of objects in a new fractal heap: every object's heap id and every
/// block, before file addresses are known.
#[derive(Debug, Clone)]
pub struct HeapLayout {
    spec: HeapSpec,
    sizes: SizeParams,
    lens: Vec<usize>,
    slots: Vec<Slot>,
    /// Allocated direct blocks (heap offset, size), in heap-offset order.
    blocks: Vec<(u64, u64)>,
    /// Indirect blocks, root first (empty when the root is a direct block or the heap has no
    /// managed objects).
    iblocks: Vec<IBlock>,
    /// Huge objects, in id order.
    huge: Vec<usize>,
}

impl HeapLayout {
    /// Places objects of these lengths. `None` when the spec is not one this writer can build
    /// or the managed objects overflow the heap's address space.
    pub fn new(spec: HeapSpec, sizes: SizeParams, lens: &[usize]) -> Option<HeapLayout> {
        if !spec.valid(sizes) {
            return None;
        }
        let overhead = spec.dblock_overhead(sizes);
        let limit = 1u128 << spec.max_heap_bits;
        let mut slots = Vec::with_capacity(lens.len());
        let mut blocks: Vec<(u64, u64)> = Vec::new();
        let mut huge = Vec::new();
        let mut fill = 0u64;
        let mut next_off = 0u64;
        for (i, &len) in lens.iter().enumerate() {
            let l = len as u64;
            if l > u64::from(spec.max_managed) {
                huge.push(i);
                slots.push(Slot::Huge {
                    id: huge.len() as u64,
                });
                continue;
            }
            if len <= spec.tiny_max() {
                slots.push(Slot::Tiny);
                continue;
            }
            let fits = blocks.last().is_some_and(|&(_, size)| fill + l <= size);
            if !fits {
                let mut size = spec.dblock_size_at(next_off);
                while size - overhead < l {
                    next_off += size;
                    size = spec.dblock_size_at(next_off);
                }
                if u128::from(next_off) + u128::from(size) > limit {
                    return None;
                }
                blocks.push((next_off, size));
                next_off += size;
                fill = overhead;
            }
            let (start, _) = *blocks.last()?;
            slots.push(Slot::Managed {
                block: blocks.len() - 1,
                offset: start + fill,
            });
            fill += l;
        }
        let mut layout = HeapLayout {
            spec,
            sizes,
            lens: lens.to_vec(),
            slots,
            blocks,
            iblocks: Vec::new(),
            huge,
        };
        let direct_root = layout.blocks.len() == 1 && layout.blocks[0] == (0, spec.start_block);
        if let (false, Some(&(last, _))) = (direct_root, layout.blocks.last()) {
            let rows = (spec.row_of(last) + 1).max(u32::from(spec.start_root_rows));
            if rows > u32::from(spec.max_heap_bits) - spec.first_row_bits() + 1 {
                return None;
            }
            layout.build_iblock(0, rows);
        }
        Some(layout)
    }

    /// Adds the indirect block at heap offset `offset` with `rows` rows (and its children).
    fn build_iblock(&mut self, offset: u64, rows: u32) -> usize {
        let idx = self.iblocks.len();
        self.iblocks.push(IBlock {
            offset,
            rows,
            entries: Vec::new(),
        });
        let width = u64::from(self.spec.table_width);
        let mut entries = Vec::with_capacity((u64::from(rows) * width) as usize);
        for r in 0..rows {
            let size = self.spec.row_size(r);
            for c in 0..width {
                let start = offset + self.spec.row_off(r) + c * size;
                let first = self.blocks.partition_point(|&(o, _)| o < start);
                let child = match self.blocks.get(first) {
                    Some(&(o, _)) if r < self.spec.max_direct_rows() && o == start => {
                        Child::Direct(first)
                    }
                    Some(&(o, _)) if r >= self.spec.max_direct_rows() && o < start + size => {
                        let rows = self.spec.child_rows(size);
                        Child::Indirect(self.build_iblock(start, rows))
                    }
                    _ => Child::None,
                };
                entries.push(child);
            }
        }
        self.iblocks[idx].entries = entries;
        idx
    }

    /// The heap id of object `i` (its bytes are needed for tiny objects).
    pub fn id(&self, i: usize, data: &[u8]) -> Vec<u8> {
        let mut e = Encoder::new(self.sizes);
        match self.slots[i] {
            Slot::Managed { offset, .. } => {
                e.u8(0)
                    .uint(offset, self.spec.off_bytes())
                    .uint(self.lens[i] as u64, self.spec.len_bytes());
            }
            Slot::Huge { id } => {
                e.u8(0x10).uint(id, self.spec.huge_id_size());
            }
            Slot::Tiny => {
                e.u8(0x20 | (data.len().saturating_sub(1) as u8 & 0x0f))
                    .bytes(data);
            }
        }
        let mut id = e.finish();
        id.resize(usize::from(self.spec.id_len), 0);
        id
    }

    fn huge_tree_spec(&self) -> TreeSpec {
        let (o, l) = (
            u16::from(self.sizes.offset_size),
            u16::from(self.sizes.length_size),
        );
        TreeSpec::standard(1, o + 2 * l)
    }

    /// Byte lengths of the parts, in file order: header, indirect blocks, direct blocks, huge
    /// objects, huge-object B-tree.
    fn part_lens(&self) -> (u64, u64, u64, u64, u64) {
        let (o, l) = (
            u64::from(self.sizes.offset_size),
            u64::from(self.sizes.length_size),
        );
        let header = 4 + 1 + 2 + 2 + 1 + 4 + l + o + l + o + 8 * l + 2 + l + l + 2 + 2 + o + 2 + 4;
        let ib = self
            .iblocks
            .iter()
            .map(|b| self.spec.iblock_len(b.rows, self.sizes))
            .sum();
        let db = self.blocks.iter().map(|b| b.1).sum();
        let huge = self.huge.iter().map(|&i| self.lens[i] as u64).sum();
        let tree = if self.huge.is_empty() {
            0
        } else {
            tree_len(&self.huge_tree_spec(), self.huge.len() as u64, self.sizes).unwrap_or(0)
        };
        (header, ib, db, huge, tree)
    }

    /// Bytes the heap occupies in the file (every part, contiguous).
    pub fn len(&self) -> u64 {
        let (a, b, c, d, e) = self.part_lens();
        a + b + c + d + e
    }

    /// True when the heap holds no objects.
    pub fn is_empty(&self) -> bool {
        self.lens.is_empty()
    }

    /// The heap's bytes when placed at file address `base` (the header is at `base`). `objects`
    /// are the objects this layout was made for, in the same order.
    pub fn encode<T: AsRef<[u8]>>(&self, objects: &[T], base: u64) -> Vec<u8> {
        let spec = &self.spec;
        let sizes = self.sizes;
        let (h_len, ib_len, db_len, huge_len, _) = self.part_lens();
        let mut iblock_addr = Vec::with_capacity(self.iblocks.len());
        let mut at = base + h_len;
        for b in &self.iblocks {
            iblock_addr.push(at);
            at += spec.iblock_len(b.rows, sizes);
        }
        let mut dblock_addr = Vec::with_capacity(self.blocks.len());
        let mut at = base + h_len + ib_len;
        for b in &self.blocks {
            dblock_addr.push(at);
            at += b.1;
        }
        let huge_base = base + h_len + ib_len + db_len;
        let tree_addr = huge_base + huge_len;

        // Statistics, as libhdf5 keeps them.
        let managed: u64 = self
            .slots
            .iter()
            .zip(&self.lens)
            .filter(|(s, _)| matches!(s, Slot::Managed { .. }))
            .map(|(_, &l)| l as u64)
            .sum();
        let nmanaged = self
            .slots
            .iter()
            .filter(|s| matches!(s, Slot::Managed { .. }))
            .count() as u64;
        let root_rows = self.iblocks.first().map_or(0, |b| b.rows);
        let (man_size, span_free, iter) = match (self.iblocks.first(), self.blocks.last()) {
            (Some(root), Some(&(off, size))) => (
                spec.row_off(root.rows),
                (0..root.rows)
                    .map(|r| u64::from(spec.table_width) * spec.row_free(r, sizes))
                    .sum::<u64>(),
                off + size,
            ),
            (None, Some(_)) => (
                spec.start_block,
                spec.start_block - spec.dblock_overhead(sizes),
                0,
            ),
            _ => (0, 0, 0),
        };
        let root = match (iblock_addr.first(), dblock_addr.first()) {
            (Some(&a), _) => Some(a),
            (None, Some(&a)) => Some(a),
            _ => None,
        };
        let (tiny_n, tiny_size) = self
            .slots
            .iter()
            .zip(&self.lens)
            .filter(|(s, _)| matches!(s, Slot::Tiny))
            .fold((0u64, 0u64), |(n, t), (_, &l)| (n + 1, t + l as u64));

        let mut e = Encoder::new(sizes);
        e.bytes(b"FRHP")
            .u8(0)
            .u16(spec.id_len)
            .u16(0)
            .u8(if spec.checksum_direct { 2 } else { 0 })
            .u32(spec.max_managed)
            .length(self.huge.len() as u64)
            .addr((!self.huge.is_empty()).then_some(tree_addr))
            .length(span_free - managed)
            .addr(None)
            .length(man_size)
            .length(self.blocks.iter().map(|b| b.1).sum())
            .length(iter)
            .length(nmanaged)
            .length(huge_len)
            .length(self.huge.len() as u64)
            .length(tiny_size)
            .length(tiny_n)
            .u16(spec.table_width)
            .length(spec.start_block)
            .length(spec.max_direct_block)
            .u16(spec.max_heap_bits)
            .u16(spec.start_root_rows)
            .addr(root)
            .u16(root_rows as u16)
            .checksum_from(0);
        let mut out = e.finish();
        debug_assert_eq!(out.len() as u64, h_len);

        for b in &self.iblocks {
            let mut e = Encoder::new(sizes);
            e.bytes(b"FHIB")
                .u8(0)
                .addr(Some(base))
                .uint(b.offset, spec.off_bytes());
            for c in &b.entries {
                e.addr(match *c {
                    Child::None => None,
                    Child::Direct(i) => Some(dblock_addr[i]),
                    Child::Indirect(i) => Some(iblock_addr[i]),
                });
            }
            e.checksum_from(0);
            out.extend_from_slice(&e.finish());
        }

        let mut block_bytes: Vec<Vec<u8>> = self
            .blocks
            .iter()
            .map(|&(off, size)| {
                let mut e = Encoder::new(sizes);
                e.bytes(b"FHDB")
                    .u8(0)
                    .addr(Some(base))
                    .uint(off, spec.off_bytes());
                if spec.checksum_direct {
                    e.u32(0);
                }
                let mut b = e.finish();
                b.resize(size as usize, 0);
                b
            })
            .collect();
        for (i, s) in self.slots.iter().enumerate() {
            if let Slot::Managed { block, offset } = *s {
                let at = (offset - self.blocks[block].0) as usize;
                let o = objects[i].as_ref();
                block_bytes[block][at..at + o.len()].copy_from_slice(o);
            }
        }
        for b in &mut block_bytes {
            if spec.checksum_direct {
                let at = 5 + usize::from(sizes.offset_size) + usize::from(spec.off_bytes());
                let sum = crate::format::checksum::lookup3(b);
                b[at..at + 4].copy_from_slice(&sum.to_le_bytes());
            }
            out.extend_from_slice(b);
        }

        let mut records = Vec::with_capacity(self.huge.len());
        let mut at = huge_base;
        for (k, &i) in self.huge.iter().enumerate() {
            let o = objects[i].as_ref();
            out.extend_from_slice(o);
            let mut r = Encoder::new(sizes);
            r.addr(Some(at)).length(o.len() as u64).length(k as u64 + 1);
            records.push(r.finish());
            at += o.len() as u64;
        }
        if !records.is_empty() {
            if let Some(t) = encode_tree(&self.huge_tree_spec(), &records, tree_addr, sizes) {
                out.extend_from_slice(&t);
            }
        }
        debug_assert_eq!(out.len() as u64, self.len());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::fractal_heap::FractalHeap;

    fn sizes() -> SizeParams {
        SizeParams::new(8, 8, 0).unwrap()
    }

    fn objects(lens: &[usize]) -> Vec<Vec<u8>> {
        lens.iter()
            .enumerate()
            .map(|(i, &l)| (0..l).map(|j| (i * 31 + j) as u8).collect())
            .collect()
    }

    fn round_trip(spec: HeapSpec, lens: &[usize]) -> (HeapLayout, FractalHeap, Vec<u8>) {
        let objs = objects(lens);
        let layout = HeapLayout::new(spec, sizes(), lens).unwrap();
        let base = 4096u64;
        let bytes = layout.encode(&objs, base);
        assert_eq!(bytes.len() as u64, layout.len());
        let mut file = vec![0u8; base as usize];
        file.extend_from_slice(&bytes);
        let heap = FractalHeap::read(&file, base, sizes()).unwrap();
        for (i, o) in objs.iter().enumerate() {
            let id = layout.id(i, o);
            assert_eq!(id.len(), usize::from(spec.id_len));
            assert_eq!(
                &heap.object(&file, &id).unwrap(),
                o,
                "object {i} of {lens:?}"
            );
        }
        (layout, heap, file)
    }

    #[test]
    fn doubling_table_geometry() {
        let s = HeapSpec::LINKS;
        assert_eq!(s.max_direct_rows(), 9);
        assert_eq!(s.first_row_bits(), 11);
        assert_eq!(s.dblock_overhead(sizes()), 21);
        assert_eq!(HeapSpec::ATTRIBUTES.dblock_overhead(sizes()), 22);
        assert_eq!((s.off_bytes(), s.len_bytes()), (4, 2));
        assert_eq!(s.row_of(0), 0);
        assert_eq!(s.row_of(2047), 0);
        assert_eq!(s.row_of(2048), 1);
        assert_eq!(s.row_of(4096), 2);
        assert_eq!(s.dblock_size_at(4096), 1024);
        // Past the 9 direct rows (512 KiB of the root): the first block of a child block of 7 rows.
        let direct_span = s.row_off(9);
        assert_eq!(direct_span, 512 << 10);
        assert_eq!(s.dblock_size_at(direct_span), 512);
        assert_eq!(s.child_rows(s.row_size(9)), 7);
    }

    #[test]
    fn one_block_heaps_have_a_direct_root() {
        let (layout, heap, file) = round_trip(HeapSpec::LINKS, &[20, 30, 40]);
        assert_eq!(heap.root_rows, 0);
        assert_eq!(layout.blocks, vec![(0, 512)]);
        // Free space as libhdf5 counts it: the block's room less the objects.
        let h = &file[4096..];
        let free = u64::from_le_bytes(h[30..38].try_into().unwrap());
        assert_eq!(free, 512 - 21 - 90);
    }

    #[test]
    fn many_objects_use_indirect_blocks() {
        // 40 KiB of links: several rows of the root indirect block.
        let lens: Vec<usize> = (0..1000).map(|i| 25 + i % 17).collect();
        let (layout, heap, _) = round_trip(HeapSpec::LINKS, &lens);
        assert!(heap.root_rows > 1);
        assert_eq!(layout.iblocks.len(), 1);
        // 2 MiB of attributes at the managed maximum: child indirect blocks under the root.
        let lens = vec![4096usize; 600];
        let (layout, heap, _) = round_trip(HeapSpec::ATTRIBUTES, &lens);
        assert!(heap.root_rows > HeapSpec::ATTRIBUTES.max_direct_rows() as u16);
        assert!(layout.iblocks.len() > 1);
    }

    #[test]
    fn large_objects_skip_small_blocks() {
        let (layout, heap, _) = round_trip(HeapSpec::ATTRIBUTES, &[3000, 100, 4096, 50]);
        // 3000 bytes first fit a 4 KiB block (row 3); 4096 bytes need an 8 KiB one (row 4).
        assert_eq!(heap.root_rows, 5);
        assert_eq!(layout.blocks, vec![(16384, 4096), (32768, 8192)]);
    }

    #[test]
    fn huge_and_tiny_objects() {
        let (layout, heap, _) =
            round_trip(HeapSpec::ATTRIBUTES, &[80_000, 30, 5, 4097, 1_000_000, 7]);
        assert!(heap.huge_btree.is_some());
        assert_eq!(layout.huge.len(), 3);
        // Only huge objects: no managed blocks at all.
        let (_, heap, _) = round_trip(HeapSpec::LINKS, &[5000]);
        assert_eq!(heap.root, None);
    }
}
