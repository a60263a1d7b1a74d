//! Writing the model out: chunk data and indexes first, then every object header that changed
//! (or refers to one that moves) at a new address, a sync, and last the superblock (HDF5 File
//! Format Specification v3.0, sections II.A and IV.A.1.b). See the module docs of [`super`]
//! for what survives a crash.

use std::collections::{HashMap, HashSet};

use crate::format::btree_v1::{chunk_tree_len, encode_chunk_tree};
use crate::format::messages::attribute::{AttributeMessage, TypeRef};
use crate::format::messages::links::{encode_group_info, DenseStorageInfo, Link, LinkTarget};
use crate::format::messages::shared::SharedRef;
use crate::format::object_header::{
    encode_v2, encoded_v2_len, flags, HeaderOptions, MessageOut, MessageType,
};
use crate::format::superblock;
use crate::write::dataset::{ChunkIndexState, DatasetBody, Storage};
use crate::write::dense::{self, DenseAddrs, DenseEntry, Kind};
use crate::write::heap::{encode_pieces, PieceSink, SizingSink};
use crate::write::{Attr, Body, Hdf5Writer, ObjId, Target, TypeSpec, WriteError, WriteResult};

/// Message flag bit 2: the message must not be shared.
const DONT_SHARE: u8 = 0x04;

/// Resolves addresses and stores heap objects while headers are encoded for real.
struct FlushSink<'a> {
    new_addr: &'a HashMap<ObjId, u64>,
    old_addr: &'a [Option<u64>],
    heap: &'a mut crate::write::heap::HeapWriter,
    alloc: &'a mut crate::write::io::Allocator,
    io: &'a crate::write::io::RwFile,
}

impl PieceSink for FlushSink<'_> {
    fn address_of(&mut self, id: ObjId) -> WriteResult<u64> {
        self.new_addr
            .get(&id)
            .copied()
            .or_else(|| self.old_addr.get(id.0).copied().flatten())
            .ok_or_else(|| WriteError::Invalid("a reference to an unknown object".into()))
    }

    fn store(&mut self, data: Vec<u8>) -> WriteResult<(u64, u32)> {
        self.heap.store(data, self.alloc, self.io)
    }

    fn reserve(&mut self, len: u64) -> WriteResult<Option<u64>> {
        Ok(Some(self.alloc.alloc(len, self.io)))
    }

    fn write(&mut self, at: u64, data: &[u8]) -> WriteResult<()> {
        Ok(self.io.write_at(at, data)?)
    }
}

fn message(mtype: MessageType, flags: u8, body: Vec<u8>) -> MessageOut {
    MessageOut {
        mtype,
        flags,
        creation_order: 0,
        body,
    }
}

fn encoder() -> crate::format::encode::Encoder {
    crate::format::encode::Encoder::new(crate::format::cursor::SizeParams {
        offset_size: 8,
        length_size: 8,
    })
}

impl Hdf5Writer {
    /// Writes everything out and makes it durable: pending chunks and heap objects, chunk
    /// indexes, changed object headers, then (after a sync) the superblock, and syncs again.
    ///
    /// # Errors
    /// I/O and filter failures; messages other than links and attributes too large for an
    /// object header. A failed flush leaves
    /// the file as the previous flush left it.
    pub fn flush(&mut self) -> WriteResult<()> {
        self.write_out(true)
    }

    /// Writes everything out as [`flush`](Hdf5Writer::flush) does, in the same order, but
    /// leaves it to the operating system when the bytes reach the disk (as libhdf5 does on
    /// close): a process that dies afterwards leaves the new state, a power cut may not.
    ///
    /// # Errors
    /// As [`flush`](Hdf5Writer::flush).
    pub fn flush_unsynced(&mut self) -> WriteResult<()> {
        self.write_out(false)
    }

    fn write_out(&mut self, durable: bool) -> WriteResult<()> {
        self.drain_pipeline()?;
        self.finish_writes()?;
        for i in 0..self.objects.len() {
            self.flush_chunk_cache(ObjId(i))?;
        }
        self.heap.close(&mut self.alloc, &self.io)?;
        self.write_chunk_indexes()?;
        let order = self.objects_to_write()?;
        // Sizes first (they do not depend on addresses), then addresses, then the bytes.
        let mut sizes = Vec::with_capacity(order.len());
        for id in &order {
            let (msgs, opts) = self.header_messages(*id, &mut SizingSink)?;
            sizes.push(encoded_v2_len(msgs.iter().map(|m| m.body.len()), opts));
        }
        let total: u64 = sizes.iter().sum();
        let base = self.alloc.alloc(total, &self.io);
        let mut new_addr = HashMap::with_capacity(order.len());
        let mut at = base;
        for (id, len) in order.iter().zip(&sizes) {
            new_addr.insert(*id, at);
            at += len;
        }
        let old_addr: Vec<Option<u64>> = self.objects.iter().map(|o| o.addr).collect();
        let mut heap = std::mem::take(&mut self.heap);
        let mut alloc = self.alloc;
        let mut block = Vec::with_capacity(total as usize);
        {
            let mut sink = FlushSink {
                new_addr: &new_addr,
                old_addr: &old_addr,
                heap: &mut heap,
                alloc: &mut alloc,
                io: &self.io,
            };
            for id in &order {
                let (msgs, opts) = self.header_messages(*id, &mut sink)?;
                block.extend_from_slice(&encode_v2(&msgs, opts));
            }
            heap.close(&mut alloc, &self.io)?;
        }
        self.heap = heap;
        self.alloc = alloc;
        debug_assert_eq!(block.len() as u64, total);
        self.io.write_at(base, &block)?;
        let root = new_addr
            .get(&self.root)
            .copied()
            .or(self.objects[self.root.0].addr)
            .ok_or_else(|| WriteError::Invalid("root group never written".into()))?;
        // Chunks stored by this flush (the chunk caches above) may still be on their way to
        // the file: the superblock that makes them reachable waits for them.
        self.finish_writes()?;
        self.io.sync(self.alloc.eoa, durable)?;
        let sb = superblock::encode_v2(self.base, self.extension, self.alloc.eoa, root);
        self.io.write_absolute(self.location, &sb)?;
        if durable {
            self.io.sync(self.alloc.eoa, true)?;
        }
        for (id, a) in new_addr {
            let o = &mut self.objects[id.0];
            o.addr = Some(a);
            o.dirty = false;
        }
        self.reader = self.reader.with_root(root);
        Ok(())
    }

    /// Rebuilds the v1 B-tree of every chunked dataset whose chunks moved.
    fn write_chunk_indexes(&mut self) -> WriteResult<()> {
        for i in 0..self.objects.len() {
            let Body::Dataset(d) = &self.objects[i].body else {
                continue;
            };
            let Storage::Chunked(c) = &d.storage else {
                continue;
            };
            let ChunkIndexState::Map { chunks, written } = &c.index else {
                continue;
            };
            if written.is_some() || chunks.is_empty() {
                continue;
            }
            let records: Vec<_> = chunks.values().cloned().collect();
            let len = chunk_tree_len(records.len(), c.dims.len());
            let at = self.alloc.alloc(len, &self.io);
            let (root, bytes) = encode_chunk_tree(&records, &c.dims, at);
            self.io.write_at(at, &bytes)?;
            if let Body::Dataset(d) = &mut self.objects[i].body {
                if let Storage::Chunked(c) = &mut d.storage {
                    if let ChunkIndexState::Map { written, .. } = &mut c.index {
                        *written = Some(root);
                    }
                }
            }
            self.objects[i].dirty = true;
        }
        Ok(())
    }

    /// The objects whose headers must be written, in id order: every object reachable from the
    /// root that is new or changed, and every one that refers to such an object (its reference
    /// would change), transitively.
    fn objects_to_write(&self) -> WriteResult<Vec<ObjId>> {
        let n = self.objects.len();
        let mut refs: Vec<Vec<ObjId>> = vec![Vec::new(); n];
        for (i, o) in self.objects.iter().enumerate() {
            let r = &mut refs[i];
            match &o.body {
                Body::Group { links, .. } => {
                    for l in links {
                        if let Target::Object(t) = l.target {
                            r.push(t);
                        }
                    }
                }
                Body::Dataset(d) => {
                    if let TypeSpec::Committed(t) = d.dtype {
                        r.push(t);
                    }
                }
                Body::Datatype(_) => {}
            }
            for a in &o.attrs {
                if let TypeSpec::Committed(t) = a.spec.dtype {
                    r.push(t);
                }
                collect_refs(&a.spec.data, r);
            }
            if r.iter().any(|t| t.0 >= n) {
                return Err(WriteError::Invalid(
                    "a reference to an unknown object".into(),
                ));
            }
        }
        // Reachable from the root.
        let mut reach = vec![false; n];
        let mut stack = vec![self.root];
        while let Some(o) = stack.pop() {
            if !std::mem::replace(&mut reach[o.0], true) {
                stack.extend(refs[o.0].iter().copied());
            }
        }
        // Start from the changed objects; spread to whoever refers to them.
        let mut back: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, r) in refs.iter().enumerate() {
            for t in r {
                back[t.0].push(i);
            }
        }
        let mut write: HashSet<usize> = HashSet::new();
        let mut stack: Vec<usize> = (0..n)
            .filter(|&i| reach[i] && (self.objects[i].dirty || self.objects[i].addr.is_none()))
            .collect();
        while let Some(i) = stack.pop() {
            if reach[i] && write.insert(i) {
                stack.extend(back[i].iter().copied());
            }
        }
        let mut v: Vec<ObjId> = write.into_iter().map(ObjId).collect();
        v.sort();
        Ok(v)
    }

    /// The messages of an object's header and the header options.
    fn header_messages(
        &self,
        id: ObjId,
        sink: &mut dyn PieceSink,
    ) -> WriteResult<(Vec<MessageOut>, HeaderOptions)> {
        let o = &self.objects[id.0];
        let opts = HeaderOptions {
            track_attr_order: o.track_attr_order,
            index_attr_order: o.track_attr_order,
            times: None,
        };
        let mut msgs = Vec::new();
        match &o.body {
            Body::Group {
                links,
                next_order,
                track_order,
            } => {
                let mut sorted: Vec<_> = links.iter().collect();
                sorted.sort_by_key(|l| l.order);
                let mut entries = Vec::with_capacity(sorted.len());
                for l in sorted {
                    let target = match &l.target {
                        Target::Object(t) => LinkTarget::Hard(sink.address_of(*t)?),
                        Target::Soft(p) => LinkTarget::Soft(p.clone()),
                        Target::External(f, p) => LinkTarget::External(f.clone(), p.clone()),
                    };
                    let mut e = encoder();
                    Link {
                        name: l.name.clone(),
                        creation_order: track_order.then_some(l.order),
                        target,
                    }
                    .encode(&mut e);
                    entries.push(DenseEntry {
                        name: &l.name,
                        order: l.order,
                        body: e.finish(),
                    });
                }
                let lens: Vec<usize> = entries.iter().map(|e| e.body.len()).collect();
                let is_dense = dense::needs_dense(&lens);
                let addrs = if is_dense {
                    dense::write(sink, Kind::Links, &entries, *track_order)?
                } else {
                    DenseAddrs::default()
                };
                let mut e = encoder();
                DenseStorageInfo {
                    tracks_order: *track_order,
                    indexes_order: *track_order,
                    max_creation_index: track_order.then_some(*next_order),
                    fractal_heap: addrs.heap,
                    name_index: addrs.name_index,
                    order_index: addrs.order_index,
                }
                .encode_link_info(&mut e);
                msgs.push(message(MessageType::LINK_INFO, 0, e.finish()));
                let mut e = encoder();
                encode_group_info(&mut e);
                msgs.push(message(
                    MessageType::GROUP_INFO,
                    flags::CONSTANT,
                    e.finish(),
                ));
                self.attribute_messages(o.attrs.as_slice(), o, sink, &mut msgs)?;
                if !is_dense {
                    for l in entries {
                        msgs.push(message(MessageType::LINK, 0, l.body));
                    }
                }
            }
            Body::Dataset(d) => {
                self.dataset_messages(d, sink, &mut msgs)?;
                self.attribute_messages(o.attrs.as_slice(), o, sink, &mut msgs)?;
            }
            Body::Datatype(dt) => {
                let mut e = encoder();
                dt.encode(&mut e);
                msgs.push(message(MessageType::DATATYPE, flags::CONSTANT, e.finish()));
                if !o.attrs.is_empty() {
                    self.attribute_messages(o.attrs.as_slice(), o, sink, &mut msgs)?;
                }
            }
        }
        for m in &o.extra {
            msgs.push(MessageOut {
                mtype: m.mtype,
                flags: m.flags,
                creation_order: m.creation_order.unwrap_or(0),
                body: m.data.clone(),
            });
        }
        if let Some(m) = msgs.iter().find(|m| m.body.len() > usize::from(u16::MAX)) {
            return Err(WriteError::Unsupported(format!(
                "a header message of {} bytes (type {:#x}) needs dense storage",
                m.body.len(),
                m.mtype.0
            )));
        }
        Ok((msgs, opts))
    }

    fn dataset_messages(
        &self,
        d: &DatasetBody,
        sink: &mut dyn PieceSink,
        msgs: &mut Vec<MessageOut>,
    ) -> WriteResult<()> {
        let mut e = encoder();
        d.space.encode(&mut e);
        msgs.push(message(MessageType::DATASPACE, 0, e.finish()));
        let mut e = encoder();
        let dt_flags = match (&d.dtype, &d.dtype_raw) {
            (TypeSpec::Committed(t), _) => {
                SharedRef::ObjectHeader(sink.address_of(*t)?).encode(&mut e);
                flags::CONSTANT | flags::SHARED
            }
            (TypeSpec::Inline(_), Some(raw)) => {
                e.bytes(raw);
                flags::CONSTANT
            }
            (TypeSpec::Inline(dt), None) => {
                dt.encode(&mut e);
                flags::CONSTANT
            }
        };
        msgs.push(message(MessageType::DATATYPE, dt_flags, e.finish()));
        let mut e = encoder();
        d.fill.encode(&mut e);
        msgs.push(message(
            MessageType::FILL_VALUE,
            flags::CONSTANT,
            e.finish(),
        ));
        if !d.filters.filters.is_empty() {
            let mut e = encoder();
            d.filters.encode(&mut e);
            msgs.push(message(
                MessageType::FILTER_PIPELINE,
                flags::CONSTANT,
                e.finish(),
            ));
        }
        let mut e = encoder();
        d.layout().encode(&mut e);
        msgs.push(message(MessageType::LAYOUT, 0, e.finish()));
        Ok(())
    }

    fn attribute_messages(
        &self,
        attrs: &[Attr],
        o: &crate::write::Object,
        sink: &mut dyn PieceSink,
        msgs: &mut Vec<MessageOut>,
    ) -> WriteResult<()> {
        let mut sorted: Vec<&Attr> = attrs.iter().collect();
        sorted.sort_by_key(|a| a.order);
        let mut entries = Vec::with_capacity(sorted.len());
        for a in &sorted {
            let mut data = Vec::with_capacity(crate::write::heap::encoded_len(&a.spec.data));
            encode_pieces(&a.spec.data, &mut data, sink)?;
            let dtype = match &a.spec.dtype {
                TypeSpec::Inline(dt) => TypeRef::Inline(dt.clone()),
                TypeSpec::Committed(t) => {
                    TypeRef::Shared(SharedRef::ObjectHeader(sink.address_of(*t)?))
                }
            };
            let mut e = encoder();
            AttributeMessage {
                name: a.spec.name.clone(),
                dtype,
                space: a.spec.space.clone(),
                data,
            }
            .encode(&mut e);
            entries.push(DenseEntry {
                name: &a.spec.name,
                order: u64::from(a.order),
                body: e.finish(),
            });
        }
        let lens: Vec<usize> = entries.iter().map(|e| e.body.len()).collect();
        let is_dense = dense::needs_dense(&lens);
        let addrs = if is_dense {
            dense::write(sink, Kind::Attributes, &entries, o.track_attr_order)?
        } else {
            DenseAddrs::default()
        };
        // Version 2 headers that track creation order always carry the attribute info
        // message; dense storage needs it in any case.
        if o.track_attr_order || is_dense {
            let mut e = encoder();
            DenseStorageInfo {
                tracks_order: o.track_attr_order,
                indexes_order: o.track_attr_order,
                max_creation_index: o.track_attr_order.then_some(u64::from(o.next_attr_order)),
                fractal_heap: addrs.heap,
                name_index: addrs.name_index,
                order_index: addrs.order_index,
            }
            .encode_attribute_info(&mut e);
            msgs.push(message(MessageType::ATTRIBUTE_INFO, DONT_SHARE, e.finish()));
        }
        if !is_dense {
            for (a, e) in sorted.iter().zip(entries) {
                msgs.push(MessageOut {
                    mtype: MessageType::ATTRIBUTE,
                    flags: 0,
                    creation_order: a.order,
                    body: e.body,
                });
            }
        }
        Ok(())
    }
}

fn collect_refs(pieces: &[crate::write::Piece], out: &mut Vec<ObjId>) {
    for p in pieces {
        match p {
            crate::write::Piece::Ref(id) => out.push(*id),
            crate::write::Piece::Vlen { content, .. } => collect_refs(content, out),
            _ => {}
        }
    }
}
