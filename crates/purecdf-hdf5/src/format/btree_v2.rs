//! Version 2 B-trees (HDF5 File Format Specification v3.0, section III.A.2 "Disk Format: Level
//! 1A2 — Version 2 B-trees"): header, internal and leaf nodes (each checksum verified); every
//! record is returned in key order. Record bodies are left to the caller (their layout depends on the tree type).

use std::collections::HashSet;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::object_header::read_block;
use crate::io::ByteSource;

/// Bytes needed to encode values up to `v` (HDF5's "limit encoding size").
fn enc_size(v: u64) -> usize {
    ((63 - v.max(1).leading_zeros()) / 8 + 1) as usize
}

/// Signature + version + type + checksum.
pub(crate) const PREFIX: u64 = 10;

/// The per-depth limits of a v2 B-tree as the format derives them from the node and record sizes
/// (section III.A.2): records per node, records under a node, and the widths of the record
/// counts stored with each child pointer of an internal node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Geometry {
    /// Most records in one node, per depth (0 = leaf).
    pub(crate) max_nrec: Vec<u64>,
    /// Most records in a subtree rooted at this depth.
    pub(crate) cum_max: Vec<u64>,
    /// Bytes of the "total records in child" field of a pointer to a node of this depth.
    pub(crate) cum_size: Vec<usize>,
    /// Bytes of the "records in child" field of every child pointer.
    pub(crate) nrec_size: usize,
}

impl Geometry {
    /// Limits for depths `0..=depth`.
    pub(crate) fn new(node: u64, rec: u64, offset_size: u8, depth: usize) -> Geometry {
        let leaf_max = node.saturating_sub(PREFIX) / rec.max(1);
        let nrec_size = enc_size(leaf_max);
        let mut g = Geometry {
            max_nrec: vec![leaf_max],
            cum_max: vec![leaf_max],
            cum_size: vec![0],
            nrec_size,
        };
        for d in 1..=depth {
            let ptr = u64::from(offset_size) + nrec_size as u64 + g.cum_size[d - 1] as u64;
            let max = node.saturating_sub(PREFIX + ptr) / (rec + ptr);
            let c = (max + 1)
                .saturating_mul(g.cum_max[d - 1])
                .saturating_add(max);
            g.max_nrec.push(max);
            g.cum_max.push(c);
            g.cum_size.push(enc_size(c));
        }
        g
    }
}

/// A v2 B-tree header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BTreeV2 {
    /// Header address.
    pub address: u64,
    /// Tree type (5 link names, 6 link creation order, 8 attribute names, 9 attribute creation
    /// order, 10/11 chunks, ...).
    pub tree_type: u8,
    /// Node size in bytes.
    pub node_size: u32,
    /// Record size in bytes.
    pub record_size: u16,
    /// Depth of the tree.
    pub depth: u16,
    /// Root node address (`None`: empty tree).
    pub root: Option<u64>,
    /// Records in the root node.
    pub root_records: u16,
    /// Records in the whole tree.
    pub total_records: u64,
}

/// Bytes of a v2 B-tree header: signature, version, type, node size, record size, depth, split
/// and merge percents, root address, root record count, total records, checksum.
pub fn header_len(sizes: SizeParams) -> u64 {
    4 + 1
        + 1
        + 4
        + 2
        + 2
        + 1
        + 1
        + u64::from(sizes.offset_size)
        + 2
        + u64::from(sizes.length_size)
        + 4
}

impl BTreeV2 {
    /// Reads the header at `address`.
    pub fn read(source: &dyn ByteSource, address: u64, sizes: SizeParams) -> FormatResult<BTreeV2> {
        let block = read_block(source, address, header_len(sizes), "v2 B-tree header")?;
        let mut c = Cursor::new(&block, address, "v2 B-tree header");
        c.signature(b"BTHD")?;
        let version = c.u8()?;
        if version != 0 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let tree_type = c.u8()?;
        let node_size = c.u32()?;
        let record_size = c.u16()?;
        let depth = c.u16()?;
        let _split = c.u8()?;
        let _merge = c.u8()?;
        let root = c.addr(sizes)?;
        let root_records = c.u16()?;
        let total_records = c.length(sizes)?;
        c.verify_checksum()?;
        if record_size == 0 || u64::from(node_size) <= PREFIX + u64::from(record_size) || depth > 32
        {
            return Err(FormatError::new(
                FormatErrorKind::InvalidValue(u64::from(node_size)),
                address,
                "v2 B-tree header",
            ));
        }
        Ok(BTreeV2 {
            address,
            tree_type,
            node_size,
            record_size,
            depth,
            root,
            root_records,
            total_records,
        })
    }

    /// Every record in key order.
    pub fn records(
        &self,
        source: &dyn ByteSource,
        sizes: SizeParams,
    ) -> FormatResult<Vec<Vec<u8>>> {
        let Some(root) = self.root else {
            return Ok(Vec::new());
        };
        let g = Geometry::new(
            u64::from(self.node_size),
            u64::from(self.record_size),
            sizes.offset_size,
            usize::from(self.depth),
        );
        let nrec_size = g.nrec_size;
        let cum_size = g.cum_size;
        let mut out = Vec::with_capacity(self.total_records.min(1 << 20) as usize);
        let mut seen = HashSet::new();
        self.walk(
            source,
            sizes,
            root,
            self.depth,
            u64::from(self.root_records),
            nrec_size,
            &cum_size,
            &mut seen,
            &mut out,
        )?;
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        source: &dyn ByteSource,
        sizes: SizeParams,
        addr: u64,
        depth: u16,
        nrec: u64,
        nrec_size: usize,
        cum_size: &[usize],
        seen: &mut HashSet<u64>,
        out: &mut Vec<Vec<u8>>,
    ) -> FormatResult<()> {
        if !seen.insert(addr) {
            return Err(FormatError::new(
                FormatErrorKind::Cycle(addr),
                addr,
                "v2 B-tree node",
            ));
        }
        let block = read_block(source, addr, u64::from(self.node_size), "v2 B-tree node")?;
        let mut c = Cursor::new(&block, addr, "v2 B-tree node");
        c.signature(if depth == 0 { b"BTLF" } else { b"BTIN" })?;
        c.skip(2)?;
        let mut records = Vec::with_capacity(nrec.min(u64::from(self.node_size)) as usize);
        for _ in 0..nrec {
            records.push(c.bytes(usize::from(self.record_size))?.to_vec());
        }
        if depth == 0 {
            c.verify_checksum()?;
            out.extend(records);
            return Ok(());
        }
        let mut children = Vec::with_capacity(records.len() + 1);
        for _ in 0..=nrec {
            let child = c.uint(sizes.offset_size)?;
            let n = c.uint(nrec_size as u8)?;
            if depth > 1 {
                c.uint(cum_size[usize::from(depth) - 1] as u8)?;
            }
            children.push((child, n));
        }
        c.verify_checksum()?;
        for (i, (child, n)) in children.into_iter().enumerate() {
            self.walk(
                source,
                sizes,
                child,
                depth - 1,
                n,
                nrec_size,
                cum_size,
                seen,
                out,
            )?;
            if let Some(r) = records.get(i) {
                out.push(r.clone());
            }
        }
        Ok(())
    }
}
