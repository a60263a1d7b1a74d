//! Groups and attributes: members of old-style groups (symbol table → v1 B-tree + local heap),
//! new-style groups (link messages, or dense links in a fractal heap indexed by v2 B-trees), and
//! attributes stored compactly (attribute messages) or densely. Creation order is used when it is
//! tracked, name order otherwise.

use crate::error::FormatResult;
use crate::format::btree_v1::group_members;
use crate::format::btree_v2::BTreeV2;
use crate::format::cursor::Cursor;
use crate::format::fractal_heap::FractalHeap;
use crate::format::local_heap::LocalHeap;
use crate::format::messages::attribute::{AttributeMessage, TypeRef};
use crate::format::messages::links::{DenseStorageInfo, Link, LinkTarget, SymbolTable};
use crate::format::messages::shared::SharedRef;
use crate::format::object_header::{flags, MessageType, ObjectHeader};
use crate::read::Hdf5File;

/// A member of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Link name.
    pub name: String,
    /// Object header address for hard links; `None` for soft and external links.
    pub address: Option<u64>,
    /// What the link points to (hard: the address; soft: a path; external: file and path).
    pub target: LinkTarget,
    /// Creation order, when tracked.
    pub creation_order: Option<u64>,
}

/// An attribute: the decoded message (type, shape, raw data).
pub type Attribute = AttributeMessage;

/// A group object.
#[derive(Debug, Clone)]
pub struct Group {
    file: Hdf5File,
    header: ObjectHeader,
}

impl Group {
    /// Loads the group whose object header is at `address`.
    pub fn load(file: &Hdf5File, address: u64) -> FormatResult<Group> {
        Ok(Group {
            file: file.clone(),
            header: file.object_header(address)?,
        })
    }

    /// The object header.
    pub fn header(&self) -> &ObjectHeader {
        &self.header
    }

    /// Members in creation order (if tracked) or name order.
    pub fn members(&self) -> FormatResult<Vec<Member>> {
        Ok(self
            .links()?
            .into_iter()
            .map(|l| Member {
                address: if let LinkTarget::Hard(a) = l.target {
                    Some(a)
                } else {
                    None
                },
                target: l.target,
                name: l.name,
                creation_order: l.creation_order,
            })
            .collect())
    }

    /// The group's links with their targets, in creation order (if tracked) or name order.
    /// Members of an old-style group have no creation order.
    pub fn links(&self) -> FormatResult<Vec<Link>> {
        let f = &self.file;
        let sizes = f.sizes();
        if let Some(m) = self.header.message(MessageType::SYMBOL_TABLE) {
            let st = SymbolTable::parse(Cursor::new(&m.data, m.offset, "symbol table"), sizes)?;
            let heap = LocalHeap::read(f.source(), st.heap, sizes)?;
            let entries = group_members(f.source(), st.btree, &heap, sizes)?;
            return Ok(entries
                .into_iter()
                .map(|e| Link {
                    name: e.name,
                    target: match e.soft {
                        Some(path) => LinkTarget::Soft(path),
                        None => LinkTarget::Hard(e.address),
                    },
                    creation_order: None,
                })
                .collect());
        }
        let mut links = Vec::new();
        for m in self.header.messages_of(MessageType::LINK) {
            links.push(Link::parse(Cursor::new(&m.data, m.offset, "link"), sizes)?);
        }
        if let Some(m) = self.header.message(MessageType::LINK_INFO) {
            let info = DenseStorageInfo::parse_link_info(
                Cursor::new(&m.data, m.offset, "link info"),
                sizes,
            )?;
            if let (Some(heap), Some(index)) =
                (info.fractal_heap, info.order_index.or(info.name_index))
            {
                let heap = FractalHeap::read(f.source(), heap, sizes)?;
                let tree = BTreeV2::read(f.source(), index, sizes)?;
                // Type 6 (creation order): order (8) + id; type 5 (name): hash (4) + id.
                let skip = if tree.tree_type == 6 { 8 } else { 4 };
                for r in tree.records(f.source(), sizes)? {
                    let id = r.get(skip..).unwrap_or_default();
                    let obj = heap.object(f.source(), id)?;
                    links.push(Link::parse(Cursor::new(&obj, heap.address, "link"), sizes)?);
                }
            }
        }
        if links.iter().all(|l| l.creation_order.is_some()) {
            links.sort_by_key(|l| l.creation_order);
        } else {
            // HDF5 orders names by their bytes (`strcmp`).
            links.sort_by(|a, b| {
                use crate::format::name::name_to_bytes;
                name_to_bytes(&a.name).cmp(&name_to_bytes(&b.name))
            });
        }
        Ok(links)
    }

    /// The group's attributes.
    pub fn attributes(&self) -> FormatResult<Vec<Attribute>> {
        attributes(&self.file, &self.header)
    }
}

/// An attribute message holding fewer value bytes than its dataspace and datatype call for: HDF5
/// 1.10 copies the value from the message's place in the object header chunk for as many bytes
/// as the shape needs, so the missing bytes are those that follow the message body (`end`) in
/// the file. They are taken from the file while it lasts; otherwise the value stays short.
fn extend_short_data(file: &Hdf5File, a: &mut AttributeMessage, end: u64) {
    let TypeRef::Inline(dt) = &a.dtype else {
        return;
    };
    let want = a
        .space
        .num_elements()
        .and_then(|n| n.checked_mul(u64::from(dt.size())));
    let Some(missing) = want.and_then(|w| w.checked_sub(a.data.len() as u64)) else {
        return;
    };
    if missing == 0 || missing > file.source().len().saturating_sub(end) {
        return;
    }
    if let Ok(more) = file.source().read_range(end, missing) {
        a.data.extend_from_slice(&more);
    }
}

/// Attributes of any object, compact and dense, in creation order when tracked.
pub(crate) fn attributes(file: &Hdf5File, header: &ObjectHeader) -> FormatResult<Vec<Attribute>> {
    let sizes = file.sizes();
    let resolve = |t: MessageType, r: &SharedRef, at: u64| file.resolve_shared(t, r, at);
    let parse = |data: &[u8], at: u64| {
        AttributeMessage::parse_with(Cursor::new(data, at, "attribute"), sizes, Some(&resolve))
    };
    let mut out: Vec<(Option<u16>, Attribute)> = Vec::new();
    for m in header.messages_of(MessageType::ATTRIBUTE) {
        let mut a = parse(&m.data, m.offset)?;
        extend_short_data(file, &mut a, m.offset + m.data.len() as u64);
        out.push((m.creation_order, a));
    }
    if let Some(m) = header.message(MessageType::ATTRIBUTE_INFO) {
        let info = DenseStorageInfo::parse_attribute_info(
            Cursor::new(&m.data, m.offset, "attribute info"),
            sizes,
        )?;
        if let (Some(heap), Some(index)) = (info.fractal_heap, info.order_index.or(info.name_index))
        {
            let heap = FractalHeap::read(file.source(), heap, sizes)?;
            let tree = BTreeV2::read(file.source(), index, sizes)?;
            let id_len = usize::from(heap.id_len);
            let mut dense = Vec::new();
            for r in tree.records(file.source(), sizes)? {
                // Type 8: id, flags (1), creation order (4), hash (4); type 9: id, flags, order.
                let id = r.get(..id_len).unwrap_or_default();
                let msg_flags = r.get(id_len).copied().unwrap_or(0);
                let order = r
                    .get(id_len + 1..id_len + 5)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u16);
                // A shared attribute's id is in the shared message heap, not the object's.
                let obj = if msg_flags & flags::SHARED != 0 {
                    file.shared_message(MessageType::ATTRIBUTE, id, heap.address)?
                } else {
                    heap.object(file.source(), id)?
                };
                dense.push((order, parse(&obj, heap.address)?));
            }
            if !info.tracks_order {
                // The records' creation order is meaningless then: keep the name index's
                // (hash) order, the order netcdf-c reads such attributes in (libhdf5's native
                // order; h5py lists them by name instead).
                dense.iter_mut().for_each(|d| d.0 = None);
            }
            out.extend(dense);
        }
    }
    if out.iter().all(|(o, _)| o.is_some()) {
        out.sort_by_key(|(o, _)| *o);
    }
    Ok(out.into_iter().map(|(_, a)| a).collect())
}
