//! Building version 2 B-trees (HDF5 File Format Specification v3.0, section III.A.2 "Disk
//! Format: Level 1A2 — Version 2 B-trees") from records already in key order: a header ("BTHD")
//! followed by every node ("BTLF" leaves, "BTIN" internal nodes), each node allocated at the
//! full node size and checksummed as libhdf5 does, so that the library can later insert into
//! and remove from the tree in place.
//!
//! The tree has the least depth that holds the records. Each internal node has the fewest
//! children that can hold its records, and the records are spread evenly over them, so every
//! node other than the root is at least half full (above libhdf5's merge threshold).

use crate::format::btree_v2::Geometry;
use crate::format::cursor::SizeParams;
use crate::format::encode::Encoder;

/// The creation parameters of a v2 B-tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeSpec {
    /// Tree type (1 huge objects, 5 link names, 6 link creation order, 8 attribute names, 9
    /// attribute creation order).
    pub tree_type: u8,
    /// Node size in bytes.
    pub node_size: u32,
    /// Record size in bytes.
    pub record_size: u16,
    /// Percent full at which a node splits.
    pub split_percent: u8,
    /// Percent full below which a node merges.
    pub merge_percent: u8,
}

impl TreeSpec {
    /// The parameters libhdf5 uses for the indexes of dense links and attributes and for
    /// huge fractal heap objects: 512-byte nodes, split at 100 %, merge at 40 %.
    pub const fn standard(tree_type: u8, record_size: u16) -> TreeSpec {
        TreeSpec {
            tree_type,
            node_size: 512,
            record_size,
            split_percent: 100,
            merge_percent: 40,
        }
    }
}

/// Bytes of a v2 B-tree header (the reader's layout).
pub use crate::format::btree_v2::header_len;

/// The shape of a subtree: records it holds and its children (empty for a leaf).
struct Shape {
    nrec: u64,
    total: u64,
    children: Vec<Shape>,
}

/// The depth of the shallowest tree holding `n` records (`None` if no depth up to 32 can).
fn depth_for(spec: &TreeSpec, n: u64, sizes: SizeParams) -> Option<(usize, Geometry)> {
    let g = Geometry::new(
        u64::from(spec.node_size),
        u64::from(spec.record_size),
        sizes.offset_size,
        32,
    );
    if g.max_nrec[0] == 0 {
        return None;
    }
    let d = g.cum_max.iter().position(|&c| c >= n)?;
    if g.max_nrec[..=d].contains(&0) {
        return None;
    }
    Some((d, g))
}

fn shape(n: u64, depth: usize, g: &Geometry) -> Shape {
    if depth == 0 {
        return Shape {
            nrec: n,
            total: n,
            children: Vec::new(),
        };
    }
    let below = g.cum_max[depth - 1];
    // Fewest children c with n - (c - 1) <= c * below, at least two.
    let c = (n + 1).div_ceil(below + 1).max(2);
    let spread = n - (c - 1);
    let (q, r) = (spread / c, spread % c);
    let children = (0..c)
        .map(|i| shape(q + u64::from(i < r), depth - 1, g))
        .collect();
    Shape {
        nrec: c - 1,
        total: n,
        children,
    }
}

fn count_nodes(s: &Shape) -> u64 {
    1 + s.children.iter().map(count_nodes).sum::<u64>()
}

/// Bytes a tree of `n` records built by [`encode_tree`] occupies (header and nodes), or `None`
/// when no tree of these parameters can hold that many.
pub fn tree_len(spec: &TreeSpec, n: u64, sizes: SizeParams) -> Option<u64> {
    if n == 0 {
        return Some(header_len(sizes));
    }
    let (depth, g) = depth_for(spec, n, sizes)?;
    let nodes = count_nodes(&shape(n, depth, &g));
    Some(header_len(sizes) + nodes * u64::from(spec.node_size))
}

struct Writer<'a> {
    spec: &'a TreeSpec,
    g: &'a Geometry,
    records: &'a [Vec<u8>],
    next_record: usize,
    next_addr: u64,
    nodes: Vec<u8>,
    sizes: SizeParams,
}

impl Writer<'_> {
    /// Writes the subtree (children first) and returns its node's address.
    fn node(&mut self, s: &Shape, depth: usize) -> u64 {
        let mut own = Vec::with_capacity(s.nrec as usize);
        let mut pointers = Vec::with_capacity(s.children.len());
        if s.children.is_empty() {
            for _ in 0..s.nrec {
                own.push(self.next_record);
                self.next_record += 1;
            }
        } else {
            for (i, c) in s.children.iter().enumerate() {
                pointers.push((self.node(c, depth - 1), c.nrec, c.total));
                if i + 1 < s.children.len() {
                    own.push(self.next_record);
                    self.next_record += 1;
                }
            }
        }
        let addr = self.next_addr;
        self.next_addr += u64::from(self.spec.node_size);
        let mut e = Encoder::new(self.sizes);
        e.bytes(if depth == 0 { b"BTLF" } else { b"BTIN" })
            .u8(0)
            .u8(self.spec.tree_type);
        for i in own {
            e.bytes(&self.records[i]);
        }
        for (child, nrec, total) in pointers {
            e.addr(Some(child)).uint(nrec, self.g.nrec_size as u8);
            if depth > 1 {
                e.uint(total, self.g.cum_size[depth - 1] as u8);
            }
        }
        e.checksum_from(0);
        let mut b = e.finish();
        b.resize(self.spec.node_size as usize, 0);
        self.nodes.extend_from_slice(&b);
        addr
    }
}

/// Builds the tree over `records` (each `record_size` bytes, already in the tree's key order)
/// at file address `base`: the header at `base`, then the nodes, children before parents.
/// Returns `None` when the records do not fit a tree of these parameters.
pub fn encode_tree(
    spec: &TreeSpec,
    records: &[Vec<u8>],
    base: u64,
    sizes: SizeParams,
) -> Option<Vec<u8>> {
    let n = records.len() as u64;
    if records
        .iter()
        .any(|r| r.len() != usize::from(spec.record_size))
    {
        return None;
    }
    let (root, depth, root_nrec, nodes) = if n == 0 {
        (None, 0, 0, Vec::new())
    } else {
        let (depth, g) = depth_for(spec, n, sizes)?;
        let s = shape(n, depth, &g);
        let mut w = Writer {
            spec,
            g: &g,
            records,
            next_record: 0,
            next_addr: base + header_len(sizes),
            nodes: Vec::new(),
            sizes,
        };
        let root = w.node(&s, depth);
        debug_assert_eq!(w.next_record, records.len());
        (Some(root), depth, s.nrec, w.nodes)
    };
    let mut e = Encoder::new(sizes);
    e.bytes(b"BTHD")
        .u8(0)
        .u8(spec.tree_type)
        .u32(spec.node_size)
        .u16(spec.record_size)
        .u16(depth as u16)
        .u8(spec.split_percent)
        .u8(spec.merge_percent)
        .addr(root)
        .u16(root_nrec as u16)
        .length(n)
        .checksum_from(0);
    let mut out = e.finish();
    debug_assert_eq!(out.len() as u64, header_len(sizes));
    out.extend_from_slice(&nodes);
    Some(out)
}

/// Minimum records per node libhdf5 expects outside the root (its merge threshold), per depth.
#[cfg(test)]
fn merge_nrec(spec: &TreeSpec, g: &Geometry, depth: usize) -> u64 {
    g.max_nrec[depth] * u64::from(spec.merge_percent) / 100
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::btree_v2::BTreeV2;

    fn sizes() -> SizeParams {
        SizeParams::new(8, 8, 0).unwrap()
    }

    #[test]
    fn trees_of_every_depth_read_back_in_order() {
        let spec = TreeSpec::standard(6, 15);
        for n in [0u64, 1, 33, 34, 100, 694, 695, 2000, 25_000] {
            let records: Vec<Vec<u8>> = (0..n)
                .map(|i| {
                    let mut r = i.to_le_bytes().to_vec();
                    r.extend_from_slice(&[7; 7]);
                    r
                })
                .collect();
            let base = 1000;
            let bytes = encode_tree(&spec, &records, base, sizes()).unwrap();
            assert_eq!(
                bytes.len() as u64,
                tree_len(&spec, n, sizes()).unwrap(),
                "{n}"
            );
            let mut file = vec![0u8; base as usize];
            file.extend_from_slice(&bytes);
            let t = BTreeV2::read(&file, base, sizes()).unwrap();
            assert_eq!(t.total_records, n);
            assert_eq!(t.tree_type, 6);
            assert_eq!(t.records(&file, sizes()).unwrap(), records, "{n} records");
        }
    }

    #[test]
    fn depths_and_fill_follow_the_format_limits() {
        // Link creation-order index: 33 records per leaf, 20 per internal node at depth 1.
        let spec = TreeSpec::standard(6, 15);
        let (d, g) = depth_for(&spec, 33, sizes()).unwrap();
        assert_eq!((d, g.max_nrec[0], g.max_nrec[1]), (0, 33, 20));
        assert_eq!(depth_for(&spec, 34, sizes()).unwrap().0, 1);
        assert_eq!(g.cum_max[1], 21 * 33 + 20);
        assert_eq!(depth_for(&spec, 21 * 33 + 21, sizes()).unwrap().0, 2);
        // Every non-root node is above the merge threshold.
        for n in [34u64, 100, 500, 694, 695, 5000, 30_000] {
            let (depth, g) = depth_for(&spec, n, sizes()).unwrap();
            let s = shape(n, depth, &g);
            fn check(s: &Shape, d: usize, spec: &TreeSpec, g: &Geometry, root: bool) {
                assert!(s.nrec <= g.max_nrec[d]);
                if !root {
                    assert!(s.nrec > merge_nrec(spec, g, d), "{} at depth {d}", s.nrec);
                }
                let sum: u64 = s.children.iter().map(|c| c.total).sum::<u64>()
                    + if s.children.is_empty() { 0 } else { s.nrec };
                assert_eq!(if s.children.is_empty() { s.nrec } else { sum }, s.total);
                for c in &s.children {
                    check(c, d - 1, spec, g, false);
                }
            }
            check(&s, depth, &spec, &g, true);
        }
    }

    #[test]
    fn damaged_nodes_fail_their_checksum() {
        let spec = TreeSpec::standard(5, 11);
        let records: Vec<Vec<u8>> = (0..100u32)
            .map(|i| {
                let mut r = i.to_le_bytes().to_vec();
                r.extend_from_slice(&[1; 7]);
                r
            })
            .collect();
        let bytes = encode_tree(&spec, &records, 0, sizes()).unwrap();
        let h = header_len(sizes()) as usize;
        // A record in the first leaf, then one in the root (the last node).
        for at in [h + 6 + 11 * 3, bytes.len() - 512 + 6 + 11 * 2 + 3] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x40;
            let t = BTreeV2::read(&bad, 0, sizes()).unwrap();
            assert!(t.records(&bad, sizes()).is_err(), "byte {at}");
        }
    }

    #[test]
    fn wrong_record_sizes_are_refused() {
        let spec = TreeSpec::standard(5, 11);
        assert!(encode_tree(&spec, &[vec![0; 10]], 0, sizes()).is_none());
    }
}
