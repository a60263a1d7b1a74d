//! Opening an existing file for update: every object reachable from the root group (by links,
//! committed datatypes and object references in attributes) becomes an object of the model at
//! its current address, clean. Attribute values are read in full (variable-length parts from
//! the global heap, object references as object ids) so that a header can be rewritten when it
//! changes; raw data stays where it is. Messages the model does not describe (modification
//! times, comments, ...) are kept as they were.

use std::collections::HashMap;
use std::sync::Arc;

use crate::format::cursor::{Cursor, SizeParams};
use crate::format::global_heap::{GlobalHeapCollection, GlobalHeapId};
use crate::format::messages::attribute::{AttributeMessage, TypeRef};
use crate::format::messages::datatype::Datatype;
use crate::format::messages::fill_value::{FillTime, FillValue};
use crate::format::messages::layout::Layout;
use crate::format::messages::links::{DenseStorageInfo, LinkTarget};
use crate::format::messages::shared::SharedRef;
use crate::format::object_header::{flags, MessageType, ObjectHeader};
use crate::format::superblock::Superblock;
use crate::io::{ByteSource, FileSource};
use crate::read::{Dataset, Group, Hdf5File};
use crate::write::dataset::{ChunkIndexState, Chunked, DatasetBody, Storage};
use crate::write::heap::{HeapWriter, Piece};
use crate::write::io::{Allocator, RwFile};
use crate::write::{
    Attr, AttrSpec, Body, Hdf5Writer, LinkEntry, ObjId, Object, Target, TypeSpec, WriteError,
    WriteResult,
};

/// Messages the writer regenerates from its model; every other message is kept verbatim.
const MODELLED: [MessageType; 13] = [
    MessageType::NIL,
    MessageType::DATASPACE,
    MessageType::LINK_INFO,
    MessageType::DATATYPE,
    MessageType::FILL_VALUE_OLD,
    MessageType::FILL_VALUE,
    MessageType::LINK,
    MessageType::LAYOUT,
    MessageType::GROUP_INFO,
    MessageType::FILTER_PIPELINE,
    MessageType::ATTRIBUTE,
    MessageType::CONTINUATION,
    MessageType::SYMBOL_TABLE,
];

/// Most objects a file opened for update may hold (a bound on what a corrupt file can make
/// us allocate: each needs its own header in the file anyway).
const MAX_OBJECTS: usize = 1 << 24;

fn unsupported(what: impl Into<String>) -> WriteError {
    WriteError::Unsupported(what.into())
}

struct Loader {
    reader: Hdf5File,
    objects: Vec<Option<Object>>,
    by_addr: HashMap<u64, ObjId>,
    /// Objects whose attributes still need reading.
    pending_attrs: Vec<(ObjId, ObjectHeader)>,
    heaps: HashMap<u64, Arc<GlobalHeapCollection>>,
}

pub(crate) fn load(file: std::fs::File) -> WriteResult<Hdf5Writer> {
    let probe = FileSource::new(file.try_clone()?)?;
    let sb = Superblock::read(&probe)?;
    // What HDF5 would refuse to open (a writer's status flags) is refused here too; a metadata
    // cache image would go stale under our changes (HDF5 drops it when it opens the file for
    // writing), so such files are not updated.
    if Hdf5File::open(Arc::new(probe))?.has_cache_image() {
        return Err(unsupported("files holding a metadata cache image"));
    }
    if sb.sizes
        != (SizeParams {
            offset_size: 8,
            length_size: 8,
        })
    {
        return Err(unsupported(
            "files with addresses or lengths narrower than 8 bytes",
        ));
    }
    let io = Arc::new(RwFile::new(file, sb.base_address)?);
    let reader = Hdf5File::for_writer(io.clone(), sb.base_address, sb.root_object_header);
    let mut l = Loader {
        reader,
        objects: Vec::new(),
        by_addr: HashMap::new(),
        pending_attrs: Vec::new(),
        heaps: HashMap::new(),
    };
    let root = l.object(sb.root_object_header, 0)?;
    while let Some((id, header)) = l.pending_attrs.pop() {
        l.attributes(id, &header)?;
    }
    let objects = l
        .objects
        .into_iter()
        .map(|o| o.ok_or_else(|| unsupported("an object that could not be loaded")))
        .collect::<WriteResult<Vec<_>>>()?;
    let eoa = sb.eof_address.max(io.len());
    io.set_allocated(eoa);
    Ok(Hdf5Writer {
        reader: l.reader,
        io,
        alloc: Allocator { eoa },
        objects,
        root,
        base: sb.base_address,
        location: sb.location,
        extension: sb.extension,
        heap: HeapWriter::default(),
        chunk_cache_limit: 64 << 20,
        readers: Default::default(),
        pipeline: Default::default(),
        writeback: Default::default(),
    })
}

impl Loader {
    /// Loads the object at `addr` (once), returning its id.
    fn object(&mut self, addr: u64, depth: usize) -> WriteResult<ObjId> {
        if let Some(id) = self.by_addr.get(&addr) {
            return Ok(*id);
        }
        if depth > 256 || self.objects.len() >= MAX_OBJECTS {
            return Err(unsupported("objects nested more than 256 deep"));
        }
        let id = ObjId(self.objects.len());
        self.by_addr.insert(addr, id);
        self.objects.push(None);
        let header = self.reader.object_header(addr)?;
        let is_group = [
            MessageType::LINK_INFO,
            MessageType::SYMBOL_TABLE,
            MessageType::LINK,
        ]
        .iter()
        .any(|t| header.message(*t).is_some());
        let body = if header.message(MessageType::LAYOUT).is_some() {
            self.dataset(&header, depth)?
        } else if is_group {
            self.group(addr, depth)?
        } else if let Some(m) = header.message(MessageType::DATATYPE) {
            Body::Datatype(Datatype::parse(&mut Cursor::new(
                &m.data, m.offset, "datatype",
            ))?)
        } else {
            // An object with nothing but attributes: an empty new-style group written by a
            // library that omits the link info message.
            Body::Group {
                links: Vec::new(),
                next_order: 0,
                track_order: false,
            }
        };
        let extra = header
            .messages
            .iter()
            .filter(|m| !MODELLED.contains(&m.mtype) && m.mtype != MessageType::ATTRIBUTE_INFO)
            .cloned()
            .collect();
        let track = header.version == 2 && header.flags & 0x04 != 0;
        self.objects[id.0] = Some(Object {
            body,
            attrs: Vec::new(),
            next_attr_order: 0,
            track_attr_order: track,
            extra,
            addr: Some(addr),
            dirty: false,
        });
        self.pending_attrs.push((id, header));
        Ok(id)
    }

    fn group(&mut self, addr: u64, depth: usize) -> WriteResult<Body> {
        let g = Group::load(&self.reader, addr)?;
        let links = g.links()?;
        let track_order = !links.is_empty() && links.iter().all(|l| l.creation_order.is_some());
        let info = g
            .header()
            .message(MessageType::LINK_INFO)
            .map(|m| {
                DenseStorageInfo::parse_link_info(
                    Cursor::new(&m.data, m.offset, "link info"),
                    self.reader.sizes(),
                )
            })
            .transpose()?;
        let track_order = track_order || (links.is_empty() && info.is_some_and(|i| i.tracks_order));
        let mut entries = Vec::with_capacity(links.len());
        for (i, l) in links.into_iter().enumerate() {
            let target = match l.target {
                LinkTarget::Hard(a) => Target::Object(self.object(a, depth + 1)?),
                LinkTarget::Soft(p) => Target::Soft(p),
                LinkTarget::External(f, p) => Target::External(f, p),
                LinkTarget::Other(t) => {
                    return Err(unsupported(format!("user-defined link type {t}")))
                }
            };
            entries.push(LinkEntry {
                name: l.name,
                target,
                order: l.creation_order.unwrap_or(i as u64),
            });
        }
        let next = entries.iter().map(|e| e.order + 1).max().unwrap_or(0);
        let next_order = info
            .and_then(|i| i.max_creation_index)
            .map_or(next, |m| m.max(next));
        Ok(Body::Group {
            links: entries,
            next_order,
            track_order,
        })
    }

    fn dataset(&mut self, header: &ObjectHeader, depth: usize) -> WriteResult<Body> {
        let ds = Dataset::from_header(&self.reader, header.clone())?;
        let m = header
            .message(MessageType::DATATYPE)
            .ok_or_else(|| unsupported("a dataset without a datatype"))?;
        let (dtype, dtype_raw) = if m.flags & flags::SHARED != 0 {
            match SharedRef::parse(
                &mut Cursor::new(&m.data, m.offset, "shared"),
                self.reader.sizes(),
            )? {
                SharedRef::ObjectHeader(a) => {
                    (TypeSpec::Committed(self.object(a, depth + 1)?), None)
                }
                SharedRef::Heap(_) => {
                    return Err(unsupported("datatypes in the shared message heap"))
                }
            }
        } else {
            (TypeSpec::Inline(ds.dtype.clone()), Some(m.data.clone()))
        };
        let storage = match &ds.layout {
            Layout::Compact { data } => Storage::Compact(data.clone()),
            Layout::Contiguous { address, size } => Storage::Contiguous {
                addr: *address,
                size: *size,
            },
            // Partial edge chunks stored unfiltered: writing or extending would have to follow
            // HDF5's rules for them (re-filtering chunks that stop being partial).
            Layout::Chunked { flags, .. } if flags & 0x01 != 0 => {
                return Err(unsupported(
                    "datasets whose partial edge chunks are unfiltered",
                ))
            }
            Layout::Chunked { chunk_dims, .. } => Storage::Chunked(Box::new(Chunked {
                dims: chunk_dims.clone(),
                index: ChunkIndexState::OnDisk(ds.layout.clone()),
                cache: HashMap::new(),
            })),
            Layout::Virtual { .. } => return Err(unsupported("virtual datasets")),
        };
        let fill = ds.fill.clone().unwrap_or(FillValue {
            alloc_time: 2,
            fill_time: FillTime::IfSet,
            value: None,
        });
        Ok(Body::Dataset(Box::new(DatasetBody {
            dtype,
            dt: ds.dtype.clone(),
            dtype_raw,
            space: ds.space.clone(),
            filters: ds.filters.clone(),
            fill,
            storage,
        })))
    }

    fn attributes(&mut self, id: ObjId, header: &ObjectHeader) -> WriteResult<()> {
        let list = crate::read::group::attributes(&self.reader, header)?;
        let info_max = header
            .message(MessageType::ATTRIBUTE_INFO)
            .map(|m| {
                DenseStorageInfo::parse_attribute_info(
                    Cursor::new(&m.data, m.offset, "attribute info"),
                    self.reader.sizes(),
                )
            })
            .transpose()?
            .and_then(|i| i.max_creation_index);
        let mut attrs = Vec::with_capacity(list.len());
        for (i, a) in list.into_iter().enumerate() {
            attrs.push(Attr {
                spec: self.attribute(a)?,
                order: i as u16,
            });
        }
        let n = attrs.len() as u64;
        let o = self.objects[id.0]
            .as_mut()
            .ok_or_else(|| unsupported("object"))?;
        o.attrs = attrs;
        o.next_attr_order = info_max.map_or(n, |m| m.max(n)).min(u64::from(u16::MAX)) as u16;
        Ok(())
    }

    fn attribute(&mut self, a: AttributeMessage) -> WriteResult<AttrSpec> {
        let (dtype, dt) = match a.dtype {
            TypeRef::Inline(dt) => (TypeSpec::Inline(dt.clone()), dt),
            TypeRef::Shared(SharedRef::ObjectHeader(addr)) => {
                let id = self.object(addr, 0)?;
                let dt = match self.objects[id.0].as_ref().map(|o| &o.body) {
                    Some(Body::Datatype(dt)) => dt.clone(),
                    _ => return Err(unsupported("an attribute type that is not a datatype")),
                };
                (TypeSpec::Committed(id), dt)
            }
            TypeRef::Shared(SharedRef::Heap(_)) => {
                return Err(unsupported("datatypes in the shared message heap"))
            }
        };
        let n = a.space.num_elements().unwrap_or(0) as usize;
        let es = dt.size() as usize;
        let need = n.saturating_mul(es);
        if a.data.len() < need {
            return Err(WriteError::Format(crate::error::FormatError::new(
                crate::error::FormatErrorKind::UnexpectedEof {
                    wanted: need as u64,
                    available: a.data.len() as u64,
                },
                0,
                "attribute data",
            )));
        }
        let mut data = Vec::new();
        if needs_walk(&dt) {
            for e in a.data[..need].chunks_exact(es.max(1)) {
                self.pieces(&dt, e, &mut data, 0)?;
            }
        } else {
            data.push(Piece::Bytes(a.data[..need].to_vec()));
        }
        Ok(AttrSpec {
            name: a.name,
            dtype,
            space: a.space,
            data,
        })
    }

    /// The pieces of one element of type `dt` stored in `e`.
    fn pieces(
        &mut self,
        dt: &Datatype,
        e: &[u8],
        out: &mut Vec<Piece>,
        depth: u32,
    ) -> WriteResult<()> {
        if depth > 32 {
            return Err(unsupported("types nested more than 32 deep"));
        }
        match dt {
            _ if !needs_walk(dt) => Piece::push_bytes(out, e),
            Datatype::Reference { kind: 0, .. } if e.len() >= 8 => {
                let addr = u64::from_le_bytes(e[..8].try_into().unwrap_or([0; 8]));
                if addr == 0 || addr == u64::MAX {
                    out.push(Piece::Address(addr));
                } else {
                    match self.object(addr, 0) {
                        Ok(id) => out.push(Piece::Ref(id)),
                        Err(_) => out.push(Piece::Address(addr)),
                    }
                }
            }
            Datatype::VarLen {
                base, is_string, ..
            } => {
                let mut c = Cursor::new(e, 0, "vlen element");
                let count = c.u32()?;
                let id = GlobalHeapId::parse(&mut c, self.reader.sizes())?;
                if id.collection == 0 {
                    out.push(Piece::Vlen {
                        count,
                        content: Vec::new(),
                    });
                    return Ok(());
                }
                let obj = self.heap_object(id)?;
                let mut content = Vec::new();
                if *is_string || !needs_walk(base) {
                    content.push(Piece::Bytes(obj));
                } else {
                    let bs = base.size() as usize;
                    if obj.len() < bs.saturating_mul(count as usize) {
                        return Err(unsupported(
                            "a variable-length element shorter than its count",
                        ));
                    }
                    for x in obj.chunks_exact(bs.max(1)).take(count as usize) {
                        self.pieces(base, x, &mut content, depth + 1)?;
                    }
                }
                out.push(Piece::Vlen { count, content });
            }
            Datatype::Compound { size, members } => {
                let mut sorted: Vec<_> = members.iter().collect();
                sorted.sort_by_key(|m| m.offset);
                let mut pos = 0usize;
                for m in sorted {
                    let at = m.offset as usize;
                    let end = at + m.dtype.size() as usize;
                    if at < pos || end > e.len() {
                        return Err(unsupported("overlapping compound members"));
                    }
                    Piece::push_bytes(out, &e[pos..at]);
                    self.pieces(&m.dtype, &e[at..end], out, depth + 1)?;
                    pos = end;
                }
                Piece::push_bytes(out, &e[pos..(*size as usize).min(e.len())]);
            }
            Datatype::Array { base, .. } => {
                let bs = base.size() as usize;
                for x in e.chunks_exact(bs.max(1)) {
                    self.pieces(base, x, out, depth + 1)?;
                }
            }
            _ => Piece::push_bytes(out, e),
        }
        Ok(())
    }

    fn heap_object(&mut self, id: GlobalHeapId) -> WriteResult<Vec<u8>> {
        let col = match self.heaps.get(&id.collection) {
            Some(c) => c.clone(),
            None => {
                let c = Arc::new(GlobalHeapCollection::read(
                    self.reader.source(),
                    id.collection,
                    self.reader.sizes(),
                )?);
                self.heaps.insert(id.collection, c.clone());
                c
            }
        };
        col.object(id.index)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| unsupported("a variable-length element missing from the global heap"))
    }
}

/// True when a type holds variable-length data or object references somewhere.
fn needs_walk(dt: &Datatype) -> bool {
    match dt {
        Datatype::VarLen { .. } => true,
        Datatype::Reference { kind: 0, .. } => true,
        Datatype::Compound { members, .. } => members.iter().any(|m| needs_walk(&m.dtype)),
        Datatype::Array { base, .. } => needs_walk(base),
        _ => false,
    }
}
