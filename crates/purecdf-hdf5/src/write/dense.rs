//! Dense storage of a group's links or an object's attributes, written when a header flushes:
//! the encoded link or attribute messages go into a new fractal heap (HDF5 File Format
//! Specification v3.0, section III.G), indexed by a name v2 B-tree and, when creation order is
//! indexed, a creation-order v2 B-tree (section III.A.2, record types 5/6 for links and 8/9 for
//! attributes); the link info (IV.A.2.c) or attribute info (IV.A.2.v) message points at them.
//!
//! When: as libhdf5 decides with its default phase-change values, a group stores its links
//! densely from the 9th link on, an object its attributes from the 9th attribute on, and
//! either does as soon as one message would be 64 KiB or larger (too large for an object
//! header message). The decision is made afresh at each flush, so an object left with 8 or
//! fewer small ones goes back to compact storage (libhdf5 only does so below 6). Every flush that rewrites the header writes the structures anew (nothing
//! is updated in place), with the parameters libhdf5 1.8–1.10 uses: heap ids of 7 bytes for
//! links and 8 for attributes, 512-byte B-tree nodes split at 100 % and merged at 40 %.
//!
//! Name-index records are sorted by the Jenkins lookup3 hash of the name and then by the
//! name's bytes, as libhdf5 compares them, so that the library can look names up and insert
//! more.

use crate::format::btree_v2_write::{encode_tree, tree_len, TreeSpec};
use crate::format::checksum::lookup3;
use crate::format::cursor::SizeParams;
use crate::format::fractal_heap_write::{HeapLayout, HeapSpec};
use crate::write::heap::PieceSink;
use crate::write::{WriteError, WriteResult};

/// Most links (attributes) kept compactly in an object header: libhdf5's default
/// "max compact" phase-change value.
pub(crate) const MAX_COMPACT: usize = 8;

/// Largest body of an object header message (its size field has 16 bits); libhdf5 moves a
/// link or attribute of 64 KiB or more to dense storage.
pub(crate) const MAX_MESSAGE: usize = u16::MAX as usize;

/// True when links or attributes with these encoded message sizes are stored densely.
pub(crate) fn needs_dense(bodies: &[usize]) -> bool {
    bodies.len() > MAX_COMPACT || bodies.iter().any(|&b| b > MAX_MESSAGE)
}

/// One link or attribute to store: its name, creation order and encoded message.
pub(crate) struct DenseEntry<'a> {
    pub(crate) name: &'a str,
    pub(crate) order: u64,
    pub(crate) body: Vec<u8>,
}

/// Where the dense structures were written (all `None` while sizing).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct DenseAddrs {
    pub(crate) heap: Option<u64>,
    pub(crate) name_index: Option<u64>,
    pub(crate) order_index: Option<u64>,
}

/// What is stored: links or attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Links,
    Attributes,
}

const SIZES: SizeParams = SizeParams {
    offset_size: 8,
    length_size: 8,
};

fn too_large(what: &str) -> WriteError {
    WriteError::Unsupported(format!(
        "dense {what} storage beyond the fractal heap's limits"
    ))
}

/// Writes the heap and its indexes for `entries` (any order) through `sink`, returning their
/// addresses; the creation-order index only when `index_order`.
pub(crate) fn write(
    sink: &mut dyn PieceSink,
    kind: Kind,
    entries: &[DenseEntry<'_>],
    index_order: bool,
) -> WriteResult<DenseAddrs> {
    let what = match kind {
        Kind::Links => "link",
        Kind::Attributes => "attribute",
    };
    let spec = match kind {
        Kind::Links => HeapSpec::LINKS,
        Kind::Attributes => HeapSpec::ATTRIBUTES,
    };
    let lens: Vec<usize> = entries.iter().map(|e| e.body.len()).collect();
    let layout = HeapLayout::new(spec, SIZES, &lens).ok_or_else(|| too_large(what))?;
    let (name_spec, order_spec) = match kind {
        Kind::Links => (TreeSpec::standard(5, 4 + 7), TreeSpec::standard(6, 8 + 7)),
        Kind::Attributes => (
            TreeSpec::standard(8, 8 + 1 + 4 + 4),
            TreeSpec::standard(9, 8 + 1 + 4),
        ),
    };
    let n = entries.len() as u64;
    let name_len = tree_len(&name_spec, n, SIZES).ok_or_else(|| too_large(what))?;
    let order_len = tree_len(&order_spec, n, SIZES).ok_or_else(|| too_large(what))?;
    let Some(heap_at) = sink.reserve(layout.len())? else {
        return Ok(DenseAddrs::default());
    };
    let bodies: Vec<&[u8]> = entries.iter().map(|e| e.body.as_slice()).collect();
    sink.write(heap_at, &layout.encode(&bodies, heap_at))?;

    let ids: Vec<Vec<u8>> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| layout.id(i, &e.body))
        .collect();
    let raw: Vec<_> = entries
        .iter()
        .map(|e| crate::format::name::name_to_bytes(e.name))
        .collect();
    let hashes: Vec<u32> = raw.iter().map(|n| lookup3(n)).collect();
    let mut by_name: Vec<usize> = (0..entries.len()).collect();
    by_name.sort_by(|&a, &b| (hashes[a], &*raw[a]).cmp(&(hashes[b], &*raw[b])));
    let mut by_order: Vec<usize> = (0..entries.len()).collect();
    by_order.sort_by_key(|&i| entries[i].order);

    let name_records: Vec<Vec<u8>> = by_name
        .iter()
        .map(|&i| {
            let mut r = Vec::with_capacity(usize::from(name_spec.record_size));
            match kind {
                Kind::Links => {
                    r.extend_from_slice(&hashes[i].to_le_bytes());
                    r.extend_from_slice(&ids[i]);
                }
                Kind::Attributes => {
                    r.extend_from_slice(&ids[i]);
                    r.push(0);
                    r.extend_from_slice(&(entries[i].order as u32).to_le_bytes());
                    r.extend_from_slice(&hashes[i].to_le_bytes());
                }
            }
            r
        })
        .collect();
    let name_at = sink.reserve(name_len)?.ok_or_else(|| too_large(what))?;
    let tree =
        encode_tree(&name_spec, &name_records, name_at, SIZES).ok_or_else(|| too_large(what))?;
    sink.write(name_at, &tree)?;

    let order_index = if index_order {
        let records: Vec<Vec<u8>> = by_order
            .iter()
            .map(|&i| {
                let mut r = Vec::with_capacity(usize::from(order_spec.record_size));
                match kind {
                    Kind::Links => {
                        r.extend_from_slice(&entries[i].order.to_le_bytes());
                        r.extend_from_slice(&ids[i]);
                    }
                    Kind::Attributes => {
                        r.extend_from_slice(&ids[i]);
                        r.push(0);
                        r.extend_from_slice(&(entries[i].order as u32).to_le_bytes());
                    }
                }
                r
            })
            .collect();
        let at = sink.reserve(order_len)?.ok_or_else(|| too_large(what))?;
        let tree = encode_tree(&order_spec, &records, at, SIZES).ok_or_else(|| too_large(what))?;
        sink.write(at, &tree)?;
        Some(at)
    } else {
        None
    };
    Ok(DenseAddrs {
        heap: Some(heap_at),
        name_index: Some(name_at),
        order_index,
    })
}
