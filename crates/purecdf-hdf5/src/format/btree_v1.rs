//! Version 1 B-trees (HDF5 File Format Specification v3.0, section III.A.1 "Disk Format: Level 1A1
//! — Version 1 B-trees") for group nodes (type 0, leading to symbol table nodes, section III.C)
//! and raw data chunk nodes (type 1). Traversal is depth- and cycle-bounded.

use std::collections::HashSet;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::local_heap::LocalHeap;
use crate::format::object_header::read_block;
use crate::io::ByteSource;

/// Deepest B-tree accepted.
const MAX_LEVEL: u8 = 64;

/// An entry of an old-style group: a name and an object header address, or a soft link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolEntry {
    /// Link name.
    pub name: String,
    /// Object header address (undefined for a soft link).
    pub address: u64,
    /// The link value of a soft link (cache type 2: its offset in the group's local heap).
    pub soft: Option<String>,
}

/// One chunk as a v1 B-tree chunk record describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkRecord {
    /// Element offsets of the chunk in the dataset (rank entries).
    pub offsets: Vec<u64>,
    /// Stored (filtered) size in bytes.
    pub size: u32,
    /// Filters skipped for this chunk (bit i = filter i not applied).
    pub filter_mask: u32,
    /// Address of the chunk.
    pub address: u64,
}

struct Node {
    level: u8,
    keys: Vec<Vec<u8>>,
    children: Vec<u64>,
}

fn read_node(
    source: &dyn ByteSource,
    addr: u64,
    sizes: SizeParams,
    expected_type: u8,
    key_size: usize,
) -> FormatResult<Node> {
    let o = usize::from(sizes.offset_size);
    let head_len = 8 + 2 * o;
    let head = read_block(source, addr, head_len as u64, "v1 B-tree node")?;
    let mut c = Cursor::new(&head, addr, "v1 B-tree node");
    c.signature(b"TREE")?;
    let node_type = c.u8()?;
    if node_type != expected_type {
        return Err(c.error(FormatErrorKind::InvalidValue(u64::from(node_type))));
    }
    let level = c.u8()?;
    if level > MAX_LEVEL {
        return Err(c.error(FormatErrorKind::LimitExceeded(u64::from(MAX_LEVEL))));
    }
    let used = usize::from(c.u16()?);
    let body_len = used * (key_size + o) + key_size;
    let body = read_block(
        source,
        addr + head_len as u64,
        body_len as u64,
        "v1 B-tree node",
    )?;
    let mut c = Cursor::new(&body, addr + head_len as u64, "v1 B-tree node");
    let mut keys = Vec::with_capacity(used + 1);
    let mut children = Vec::with_capacity(used);
    for _ in 0..used {
        keys.push(c.bytes(key_size)?.to_vec());
        children.push(c.uint(sizes.offset_size)?);
    }
    keys.push(c.bytes(key_size)?.to_vec());
    Ok(Node {
        level,
        keys,
        children,
    })
}

/// Lists the members of an old-style group from its B-tree and local heap, in B-tree (name) order.
pub fn group_members(
    source: &dyn ByteSource,
    btree: u64,
    heap: &LocalHeap,
    sizes: SizeParams,
) -> FormatResult<Vec<SymbolEntry>> {
    let mut out = Vec::new();
    // Group keys are heap offsets of names; leaf children are symbol table nodes.
    walk(
        source,
        btree,
        sizes,
        0,
        usize::from(sizes.length_size),
        &mut |_, _, child| read_symbol_node(source, child, heap, sizes, &mut out),
    )?;
    Ok(out)
}

/// Called with (node address, key, child address) for every entry of a leaf node.
type LeafVisitor<'a> = dyn FnMut(u64, &[u8], u64) -> FormatResult<()> + 'a;

/// Visits every leaf entry (key, child address) of the tree at `root`, in key order; every node
/// is checked for cycles and the depth is bounded.
fn walk(
    source: &dyn ByteSource,
    root: u64,
    sizes: SizeParams,
    node_type: u8,
    key_size: usize,
    on_leaf: &mut LeafVisitor<'_>,
) -> FormatResult<()> {
    let mut seen = HashSet::new();
    walk_node(
        source,
        root,
        sizes,
        node_type,
        key_size,
        &mut seen,
        MAX_LEVEL + 1,
        on_leaf,
    )
}

#[allow(clippy::too_many_arguments)]
fn walk_node(
    source: &dyn ByteSource,
    addr: u64,
    sizes: SizeParams,
    node_type: u8,
    key_size: usize,
    seen: &mut HashSet<u64>,
    budget: u8,
    on_leaf: &mut LeafVisitor<'_>,
) -> FormatResult<()> {
    if !seen.insert(addr) {
        return Err(FormatError::new(
            FormatErrorKind::Cycle(addr),
            addr,
            "v1 B-tree node",
        ));
    }
    if budget == 0 {
        return Err(FormatError::new(
            FormatErrorKind::LimitExceeded(u64::from(MAX_LEVEL)),
            addr,
            "v1 B-tree node",
        ));
    }
    let node = read_node(source, addr, sizes, node_type, key_size)?;
    for (key, child) in node.keys.iter().zip(node.children) {
        if node.level > 0 {
            walk_node(
                source,
                child,
                sizes,
                node_type,
                key_size,
                seen,
                budget - 1,
                on_leaf,
            )?;
        } else {
            on_leaf(addr, key, child)?;
        }
    }
    Ok(())
}

fn read_symbol_node(
    source: &dyn ByteSource,
    addr: u64,
    heap: &LocalHeap,
    sizes: SizeParams,
    out: &mut Vec<SymbolEntry>,
) -> FormatResult<()> {
    let head = read_block(source, addr, 8, "symbol table node")?;
    let mut c = Cursor::new(&head, addr, "symbol table node");
    c.signature(b"SNOD")?;
    let version = c.u8()?;
    if version != 1 {
        return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
    }
    c.skip(1)?;
    let n = u64::from(c.u16()?);
    let entry_len = 2 * u64::from(sizes.offset_size) + 24;
    let body = read_block(source, addr + 8, n * entry_len, "symbol table node")?;
    let mut c = Cursor::new(&body, addr + 8, "symbol table node");
    for _ in 0..n {
        let name_off = c.uint(sizes.offset_size)?;
        let address = c.uint(sizes.offset_size)?;
        let cache_type = c.u32()?;
        c.skip(4)?;
        let mut scratch = c.split(16)?;
        let soft = if cache_type == 2 {
            let off = u64::from(scratch.u32()?);
            Some(crate::format::name::name_from_bytes(heap.string_at(off)?))
        } else {
            None
        };
        let name = crate::format::name::name_from_bytes(heap.string_at(name_off)?);
        out.push(SymbolEntry {
            name,
            address,
            soft,
        });
    }
    Ok(())
}

/// Lists every chunk of a dataset indexed by a v1 B-tree; `rank` is the dataset's rank.
pub fn chunk_records(
    source: &dyn ByteSource,
    btree: u64,
    rank: usize,
    sizes: SizeParams,
) -> FormatResult<Vec<ChunkRecord>> {
    let mut out = Vec::new();
    // Chunk keys: stored size (4), filter mask (4), then rank + 1 offsets of 8 bytes.
    let key_size = 8 + 8 * (rank + 1);
    walk(
        source,
        btree,
        sizes,
        1,
        key_size,
        &mut |node, key, child| {
            let mut c = Cursor::new(key, node, "v1 B-tree chunk key");
            let size = c.u32()?;
            let filter_mask = c.u32()?;
            let mut offsets = Vec::with_capacity(rank);
            for _ in 0..rank {
                offsets.push(c.u64()?);
            }
            out.push(ChunkRecord {
                offsets,
                size,
                filter_mask,
                address: child,
            });
            Ok(())
        },
    )?;
    Ok(out)
}

/// Entries per node of a raw-data chunk B-tree: twice the indexed-storage K, which is 32 unless
/// the file says otherwise (superblock v1, or a B-tree 'K' values message).
pub const CHUNK_NODE_ENTRIES: usize = 64;

fn chunk_node_len(rank: usize) -> u64 {
    let key = 8 + 8 * (rank as u64 + 1);
    let n = CHUNK_NODE_ENTRIES as u64;
    8 + 16 + (n + 1) * key + n * 8
}

fn chunk_tree_levels(n_chunks: usize) -> Vec<usize> {
    let mut levels = vec![n_chunks.div_ceil(CHUNK_NODE_ENTRIES).max(1)];
    while *levels.last().unwrap_or(&1) > 1 {
        let n = *levels.last().unwrap_or(&1);
        levels.push(n.div_ceil(CHUNK_NODE_ENTRIES));
    }
    levels
}

/// Bytes a chunk B-tree over `n_chunks` chunks of a rank-`rank` dataset occupies when built by
/// [`encode_chunk_tree`]: every node allocated at full size, as libhdf5 does, so that the
/// library can later insert into them in place.
pub fn chunk_tree_len(n_chunks: usize, rank: usize) -> u64 {
    chunk_tree_levels(n_chunks).iter().sum::<usize>() as u64 * chunk_node_len(rank)
}

/// Builds a version 1 B-tree (type 1, raw data chunks) over `chunks`, sorted here by offset,
/// laid out as one block at `base` (leaves first, root last). Keys per section III.A.1: a
/// child's key holds its stored size, filter mask and element offsets (plus a zero for the
/// element dimension); the last key of a node bounds it on the right (the last chunk's offset
/// plus the chunk dimensions, as libhdf5 writes it). Returns the root address and the bytes.
pub fn encode_chunk_tree(chunks: &[ChunkRecord], chunk_dims: &[u64], base: u64) -> (u64, Vec<u8>) {
    let rank = chunk_dims.len();
    let node_len = chunk_node_len(rank);
    let mut sorted: Vec<&ChunkRecord> = chunks.iter().collect();
    sorted.sort_by(|a, b| a.offsets.cmp(&b.offsets));
    let key = |size: u32, mask: u32, offsets: &[u64]| -> Vec<u8> {
        let mut k = Vec::with_capacity(8 + 8 * (rank + 1));
        k.extend_from_slice(&size.to_le_bytes());
        k.extend_from_slice(&mask.to_le_bytes());
        for o in offsets {
            k.extend_from_slice(&o.to_le_bytes());
        }
        k.extend_from_slice(&0u64.to_le_bytes());
        k
    };
    // Entries of the current level: (left key, child address); plus the level's right bound.
    let mut entries: Vec<(Vec<u8>, u64)> = sorted
        .iter()
        .map(|c| (key(c.size, c.filter_mask, &c.offsets), c.address))
        .collect();
    let right_bound = match sorted.last() {
        Some(c) => {
            let end: Vec<u64> = c
                .offsets
                .iter()
                .zip(chunk_dims)
                .map(|(o, d)| o + d)
                .collect();
            key(0, 0, &end)
        }
        None => key(0, 0, &vec![0; rank]),
    };
    let mut out = Vec::with_capacity(chunk_tree_len(chunks.len(), rank) as usize);
    let mut next_addr = base;
    let mut level = 0u8;
    loop {
        let groups: Vec<&[(Vec<u8>, u64)]> = if entries.is_empty() {
            vec![&[][..]]
        } else {
            entries.chunks(CHUNK_NODE_ENTRIES).collect()
        };
        let first_addr = next_addr;
        let mut parents = Vec::with_capacity(groups.len());
        for (i, g) in groups.iter().enumerate() {
            let addr = first_addr + i as u64 * node_len;
            let left = (i > 0).then(|| addr - node_len);
            let right = (i + 1 < groups.len()).then(|| addr + node_len);
            let start = out.len();
            out.extend_from_slice(b"TREE");
            out.push(1);
            out.push(level);
            out.extend_from_slice(&(g.len() as u16).to_le_bytes());
            out.extend_from_slice(&left.unwrap_or(u64::MAX).to_le_bytes());
            out.extend_from_slice(&right.unwrap_or(u64::MAX).to_le_bytes());
            for (k, child) in g.iter() {
                out.extend_from_slice(k);
                out.extend_from_slice(&child.to_le_bytes());
            }
            let last = match groups.get(i + 1).and_then(|n| n.first()) {
                Some((k, _)) => k.clone(),
                None => right_bound.clone(),
            };
            out.extend_from_slice(&last);
            out.resize(start + node_len as usize, 0);
            let first_key = g
                .first()
                .map_or_else(|| right_bound.clone(), |e| e.0.clone());
            parents.push((first_key, addr));
        }
        next_addr = first_addr + groups.len() as u64 * node_len;
        if parents.len() == 1 {
            return (parents[0].1, out);
        }
        entries = parents;
        level += 1;
    }
}

#[cfg(test)]
mod encode_tests {
    use super::*;

    #[test]
    fn chunk_trees_round_trip() {
        let sizes = SizeParams::new(8, 8, 0).unwrap();
        for n in [1usize, 5, 64, 65, 200, 4200] {
            // A 2-D grid of chunks 10 x 20, listed out of order.
            let mut chunks: Vec<ChunkRecord> = (0..n)
                .map(|i| ChunkRecord {
                    offsets: vec![(i / 7) as u64 * 10, (i % 7) as u64 * 20],
                    size: 100 + i as u32,
                    filter_mask: (i % 2) as u32,
                    address: 1_000_000 + i as u64 * 1000,
                })
                .collect();
            chunks.reverse();
            let base = 4096;
            let (root, bytes) = encode_chunk_tree(&chunks, &[10, 20], base);
            assert_eq!(bytes.len() as u64, chunk_tree_len(n, 2));
            let mut file = vec![0u8; base as usize];
            file.extend_from_slice(&bytes);
            let mut back = chunk_records(&file, root, 2, sizes).unwrap();
            back.sort_by(|a, b| a.offsets.cmp(&b.offsets));
            chunks.sort_by(|a, b| a.offsets.cmp(&b.offsets));
            assert_eq!(back, chunks, "{n} chunks");
        }
    }
}
