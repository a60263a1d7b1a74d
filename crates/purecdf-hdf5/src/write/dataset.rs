//! Datasets being written: creation, extension, hyperslab writes and reading back.
//!
//! Contiguous data is allocated at the first write (filled with the fill value first unless that
//! write covers everything) and updated in place. Chunked data is copy-on-write: a chunk the
//! selection covers is built, filtered (in parallel across chunks) and appended; a chunk written
//! in part is read (or filled), patched and kept in memory until it is complete, the cache is
//! full, or the next flush. The chunk index (a v1 B-tree) is rebuilt at flush when chunks moved.

use std::collections::{BTreeMap, HashMap};

use crate::filter::decode_chunk;
use crate::format::btree_v1::ChunkRecord;
use crate::format::messages::dataspace::Dataspace;
use crate::format::messages::datatype::Datatype;
use crate::format::messages::fill_value::{FillTime, FillValue};
use crate::format::messages::filter_pipeline::FilterPipeline;
use crate::format::messages::layout::{ChunkIndex, Layout};
use crate::format::object_header::read_block;
use crate::read::{Dataset, Slab};
use crate::write::heap::{encode_pieces, PieceSink};
use crate::write::select::{covers, gather, scatter};
use crate::write::{
    usage, Body, DatasetSpec, Hdf5Writer, ObjId, Piece, StorageSpec, TypeSpec, WriteError,
    WriteResult,
};

/// Largest compact dataset (its data lives in a header message).
const MAX_COMPACT: usize = 64_000;
/// Bytes of complete chunks built before they are filtered and written as one batch.
const BATCH_BYTES: usize = 64 << 20;

/// A dataset's state in the writer.
#[derive(Debug)]
pub(crate) struct DatasetBody {
    pub(crate) dtype: TypeSpec,
    /// The resolved element type.
    pub(crate) dt: Datatype,
    /// A loaded header's datatype message body, re-emitted as it was.
    pub(crate) dtype_raw: Option<Vec<u8>>,
    pub(crate) space: Dataspace,
    pub(crate) filters: FilterPipeline,
    pub(crate) fill: FillValue,
    pub(crate) storage: Storage,
}

#[derive(Debug)]
pub(crate) enum Storage {
    Compact(Vec<u8>),
    Contiguous { addr: Option<u64>, size: u64 },
    Chunked(Box<Chunked>),
}

#[derive(Debug)]
pub(crate) struct Chunked {
    pub(crate) dims: Vec<u64>,
    pub(crate) index: ChunkIndexState,
    /// Chunks written in part, decoded, by offsets.
    pub(crate) cache: HashMap<Vec<u64>, Vec<u8>>,
}

#[derive(Debug)]
pub(crate) enum ChunkIndexState {
    /// A loaded dataset's index, untouched: its layout message is re-emitted as it was.
    OnDisk(Layout),
    /// The chunks, by offsets; `written` is the index address when it matches them.
    Map {
        chunks: BTreeMap<Vec<u64>, ChunkRecord>,
        written: Option<u64>,
    },
}

impl DatasetBody {
    pub(crate) fn esize(&self) -> usize {
        self.dt.size() as usize
    }

    pub(crate) fn dims(&self) -> &[u64] {
        self.space.dims()
    }

    fn nbytes(&self) -> WriteResult<u64> {
        self.space
            .num_elements()
            .and_then(|n| n.checked_mul(self.esize() as u64))
            .ok_or_else(|| usage("dataset too large"))
    }

    /// One element of fill: the fill value when one is defined, else zeros.
    pub(crate) fn fill_element(&self) -> Vec<u8> {
        match &self.fill.value {
            Some(v) if v.len() == self.esize() => v.clone(),
            _ => vec![0; self.esize()],
        }
    }

    /// True when allocated storage must be initialised with the fill value.
    fn fills_on_alloc(&self) -> bool {
        match self.fill.fill_time {
            FillTime::Never => false,
            FillTime::OnAlloc => true,
            FillTime::IfSet => self.fill.value.is_some(),
        }
    }

    /// A reader's view of the dataset as it is now (`chunks`: the stored chunks when known).
    fn reader(&self, file: &crate::read::Hdf5File, chunks: Option<Vec<ChunkRecord>>) -> Dataset {
        Dataset::from_parts(
            file,
            self.dt.clone(),
            self.space.clone(),
            self.layout(),
            self.filters.clone(),
            Some(self.fill.clone()),
            chunks,
        )
    }

    /// The layout message describing the storage as it is now.
    pub(crate) fn layout(&self) -> Layout {
        match &self.storage {
            Storage::Compact(data) => Layout::Compact { data: data.clone() },
            Storage::Contiguous { addr, size } => Layout::Contiguous {
                address: *addr,
                size: *size,
            },
            Storage::Chunked(c) => match &c.index {
                ChunkIndexState::OnDisk(l) => l.clone(),
                ChunkIndexState::Map { written, .. } => Layout::Chunked {
                    chunk_dims: c.dims.clone(),
                    element_size: self.esize() as u64,
                    index: ChunkIndex::BTreeV1,
                    address: *written,
                    flags: 0,
                },
            },
        }
    }
}

fn repeat(fill: &[u8], n: usize) -> Vec<u8> {
    if fill.iter().all(|b| *b == 0) {
        return vec![0; n * fill.len()];
    }
    let mut v = Vec::with_capacity(n * fill.len());
    for _ in 0..n {
        v.extend_from_slice(fill);
    }
    v
}

impl Hdf5Writer {
    pub(crate) fn ds(&self, id: ObjId) -> WriteResult<&DatasetBody> {
        match &self.obj(id)?.body {
            Body::Dataset(d) => Ok(d),
            _ => Err(usage("not a dataset")),
        }
    }

    pub(crate) fn ds_mut(&mut self, id: ObjId) -> WriteResult<&mut DatasetBody> {
        match &mut self.obj_mut(id)?.body {
            Body::Dataset(d) => Ok(d),
            _ => Err(usage("not a dataset")),
        }
    }

    /// Creates a dataset `name` in `parent`.
    ///
    /// # Errors
    /// A name in use; chunk dimensions that do not match the rank or are zero; unlimited or
    /// growable dimensions without chunking; filters without chunking; compact data over 64 KB.
    pub fn create_dataset(
        &mut self,
        parent: ObjId,
        name: &str,
        spec: DatasetSpec,
    ) -> WriteResult<ObjId> {
        let dt = self.resolve_type(&spec.dtype)?;
        if dt.size() == 0 {
            return Err(usage("zero-size datatype"));
        }
        let dims = spec.space.dims().to_vec();
        let growable = match &spec.space {
            Dataspace::Simple { dims, max_dims } => {
                max_dims.iter().zip(dims).any(|(m, d)| *m != Some(*d))
            }
            _ => false,
        };
        let storage = match spec.storage {
            StorageSpec::Chunked(cd) => {
                if cd.len() != dims.len() || cd.contains(&0) || dims.is_empty() {
                    return Err(usage("chunk dimensions do not fit the dataspace"));
                }
                let bytes = cd
                    .iter()
                    .try_fold(u64::from(dt.size()), |a, c| a.checked_mul(*c));
                if bytes.is_none_or(|b| b > u64::from(u32::MAX)) {
                    return Err(usage("chunks of 4 GiB or more"));
                }
                Storage::Chunked(Box::new(Chunked {
                    dims: cd,
                    index: ChunkIndexState::Map {
                        chunks: BTreeMap::new(),
                        written: None,
                    },
                    cache: HashMap::new(),
                }))
            }
            _ if growable => return Err(usage("growable dimensions need chunked storage")),
            _ if !spec.filters.filters.is_empty() => {
                return Err(usage("filters need chunked storage"))
            }
            StorageSpec::Compact => Storage::Compact(Vec::new()),
            StorageSpec::Contiguous => Storage::Contiguous {
                addr: None,
                size: 0,
            },
        };
        // Parameters that filters' set_local callbacks fill from the type and the chunk shape.
        let mut filters = spec.filters;
        if let Storage::Chunked(c) = &storage {
            let esize = dt.size() as usize;
            let cbytes = c.dims.iter().product::<u64>() as usize * esize;
            for f in &mut filters.filters {
                f.client_data = crate::filter::set_local(f.id, &f.client_data, esize, cbytes);
            }
        }
        let mut body = DatasetBody {
            dtype: spec.dtype,
            dt,
            dtype_raw: None,
            space: spec.space,
            filters,
            fill: spec.fill,
            storage,
        };
        let total = body.nbytes()?;
        match &mut body.storage {
            Storage::Compact(data) => {
                if total > MAX_COMPACT as u64 {
                    return Err(usage("compact data over 64 KB"));
                }
                let n = (total as usize) / body.dt.size() as usize;
                let fill = match &body.fill.value {
                    Some(v) if v.len() == body.dt.size() as usize => v.clone(),
                    _ => vec![0; body.dt.size() as usize],
                };
                *data = repeat(&fill, n);
            }
            Storage::Contiguous { size, .. } => *size = total,
            Storage::Chunked(_) => {}
        }
        self.add_dataset(parent, name, body)
    }

    fn add_dataset(&mut self, parent: ObjId, name: &str, body: DatasetBody) -> WriteResult<ObjId> {
        let id = ObjId(self.objects.len());
        self.link(parent, name, crate::write::Target::Object(id))?;
        self.objects
            .push(crate::write::Object::new(Body::Dataset(Box::new(body))));
        Ok(id)
    }

    /// A dataset's shape.
    ///
    /// # Errors
    /// When `ds` is not a dataset.
    pub fn dataspace(&self, ds: ObjId) -> WriteResult<&Dataspace> {
        Ok(&self.ds(ds)?.space)
    }

    /// A dataset's element type.
    ///
    /// # Errors
    /// When `ds` is not a dataset.
    pub fn datatype(&self, ds: ObjId) -> WriteResult<&Datatype> {
        Ok(&self.ds(ds)?.dt)
    }

    /// Changes a chunked dataset's current dimensions (within its maximum dimensions; they may
    /// only grow).
    ///
    /// # Errors
    /// A rank mismatch, a dimension beyond its maximum or smaller than before, or a dataset
    /// that is not chunked.
    pub fn set_extent(&mut self, ds: ObjId, new_dims: &[u64]) -> WriteResult<()> {
        self.invalidate_reader(ds);
        let d = self.ds_mut(ds)?;
        let Dataspace::Simple { dims, max_dims } = &mut d.space else {
            return Err(usage("scalar datasets have no extent"));
        };
        if new_dims.len() != dims.len() {
            return Err(usage("rank mismatch"));
        }
        for ((n, old), m) in new_dims.iter().zip(dims.iter()).zip(max_dims.iter()) {
            if n < old || m.is_some_and(|m| *n > m) {
                return Err(usage("extent beyond the maximum or shrinking"));
            }
        }
        if new_dims == dims.as_slice() {
            return Ok(());
        }
        if !matches!(d.storage, Storage::Chunked(_)) {
            return Err(usage("only chunked datasets can grow"));
        }
        *dims = new_dims.to_vec();
        self.obj_mut(ds)?.dirty = true;
        Ok(())
    }

    /// Writes element data given as pieces (variable-length parts go to the global heap).
    ///
    /// # Errors
    /// As [`write`](Hdf5Writer::write).
    pub fn write_pieces(&mut self, ds: ObjId, slab: &Slab, pieces: &[Piece]) -> WriteResult<()> {
        let bytes = self.encode_pieces(pieces)?;
        self.write(ds, slab, &bytes)
    }

    /// The file bytes of element data given as pieces, storing its variable-length parts in
    /// the global heap now (for a fill value, or data written later with [`write`]). References
    /// must name objects already flushed.
    ///
    /// [`write`]: Hdf5Writer::write
    ///
    /// # Errors
    /// A reference to an object never flushed; I/O failures.
    pub fn encode_pieces(&mut self, pieces: &[Piece]) -> WriteResult<Vec<u8>> {
        let mut bytes = Vec::with_capacity(crate::write::heap::encoded_len(pieces));
        let mut sink = DataSink { w: self };
        encode_pieces(pieces, &mut bytes, &mut sink)?;
        Ok(bytes)
    }

    /// Writes a selection: `data` holds the selected elements in file byte order, row-major.
    ///
    /// # Errors
    /// A selection outside the current dimensions or a data length that does not match; I/O
    /// and filter failures.
    pub fn write(&mut self, ds: ObjId, slab: &Slab, data: &[u8]) -> WriteResult<()> {
        self.invalidate_reader(ds);
        let d = self.ds(ds)?;
        let esize = d.esize();
        let dims = d.dims().to_vec();
        let n = check_slab(&dims, slab)?;
        if n.checked_mul(esize as u64) != Some(data.len() as u64) {
            return Err(usage("data length does not match the selection"));
        }
        if n == 0 {
            return Ok(());
        }
        let whole = Slab::whole(&dims);
        let slab = if dims.is_empty() { &whole } else { slab };
        match &d.storage {
            Storage::Compact(_) => {
                let Body::Dataset(d) = &mut self.obj_mut(ds)?.body else {
                    return Err(usage("not a dataset"));
                };
                if let Storage::Compact(buf) = &mut d.storage {
                    scatter(buf, &dims, &vec![0; dims.len()], slab, esize, data);
                }
                self.obj_mut(ds)?.dirty = true;
                Ok(())
            }
            Storage::Contiguous { .. } => self.write_contiguous(ds, slab, data),
            Storage::Chunked(_) => self.write_chunked(ds, slab, data),
        }
    }

    fn write_contiguous(&mut self, ds: ObjId, slab: &Slab, data: &[u8]) -> WriteResult<()> {
        let d = self.ds(ds)?;
        let esize = d.esize();
        let dims = d.dims().to_vec();
        let total = d.nbytes()?;
        let (addr, fill) = match d.storage {
            Storage::Contiguous { addr: Some(a), .. } => (a, None),
            _ => {
                let whole = data.len() as u64 == total;
                let fill = (!whole && d.fills_on_alloc()).then(|| d.fill_element());
                let a = self.alloc.alloc(total, &self.io);
                if let Storage::Contiguous { addr, .. } = &mut self.ds_mut(ds)?.storage {
                    *addr = Some(a);
                }
                self.obj_mut(ds)?.dirty = true;
                (a, fill)
            }
        };
        if let Some(fill) = fill {
            // Fill the new block in pieces of about 4 MiB.
            let per = ((4usize << 20) / esize).max(1);
            let block = repeat(&fill, per);
            let mut at = 0u64;
            while at < total {
                let n = (total - at).min(block.len() as u64) as usize;
                self.io.write_at(addr + at, &block[..n])?;
                at += n as u64;
            }
        }
        // Runs of the selection, merged when they follow each other in the file.
        let mut pending: Option<(u64, usize, usize)> = None; // (file offset, data offset, len)
        let mut result = Ok(());
        let io = self.io.clone();
        let mut emit = |p: (u64, usize, usize)| {
            if result.is_ok() {
                result = io.write_at(addr + p.0, &data[p.1..p.1 + p.2]);
            }
        };
        crate::write::select::for_each_run(
            &dims,
            &vec![0; dims.len()],
            slab,
            esize,
            |b, s, n, step| {
                let runs: Vec<(u64, usize, usize)> = if step == esize {
                    vec![(b as u64, s, n * esize)]
                } else {
                    (0..n)
                        .map(|i| ((b + i * step) as u64, s + i * esize, esize))
                        .collect()
                };
                for r in runs {
                    pending = match pending {
                        Some(p) if p.0 + p.2 as u64 == r.0 && p.1 + p.2 == r.1 => {
                            Some((p.0, p.1, p.2 + r.2))
                        }
                        Some(p) => {
                            emit(p);
                            Some(r)
                        }
                        None => Some(r),
                    };
                }
            },
        );
        if let Some(p) = pending {
            emit(p);
        }
        result.map_err(WriteError::from)
    }

    fn chunk_parts(&self, ds: ObjId) -> WriteResult<(Vec<u64>, Vec<u64>, usize)> {
        let d = self.ds(ds)?;
        match &d.storage {
            Storage::Chunked(c) => Ok((c.dims.clone(), d.dims().to_vec(), d.esize())),
            _ => Err(usage("not chunked")),
        }
    }

    /// The chunk map of a chunked dataset, read from its on-disk index the first time.
    pub(crate) fn chunk_map(
        &mut self,
        ds: ObjId,
    ) -> WriteResult<&mut BTreeMap<Vec<u64>, ChunkRecord>> {
        let needs_load = matches!(
            &self.ds(ds)?.storage,
            Storage::Chunked(c) if matches!(c.index, ChunkIndexState::OnDisk(_))
        );
        if needs_load {
            let d = self.ds(ds)?;
            let chunks = d.reader(&self.reader, None).chunks()?;
            let written = match d.layout() {
                Layout::Chunked {
                    index: ChunkIndex::BTreeV1,
                    address,
                    ..
                } => address,
                _ => None,
            };
            if let Storage::Chunked(c) = &mut self.ds_mut(ds)?.storage {
                c.index = ChunkIndexState::Map {
                    chunks: chunks.into_iter().map(|c| (c.offsets.clone(), c)).collect(),
                    written,
                };
            }
        }
        match &mut self.ds_mut(ds)?.storage {
            Storage::Chunked(c) => match &mut c.index {
                ChunkIndexState::Map { chunks, .. } => Ok(chunks),
                ChunkIndexState::OnDisk(_) => Err(usage("chunk index")),
            },
            _ => Err(usage("not chunked")),
        }
    }

    /// The decoded contents of a stored chunk, or `None` when it is not stored.
    fn load_chunk(&mut self, ds: ObjId, offsets: &[u64]) -> WriteResult<Option<Vec<u8>>> {
        self.finish_writes()?;
        let Some(rec) = self.chunk_map(ds)?.get(offsets).cloned() else {
            return Ok(None);
        };
        let d = self.ds(ds)?;
        let (cd, _, esize) = self.chunk_parts(ds)?;
        let chunk_bytes = cd.iter().product::<u64>() as usize * esize;
        let raw = read_block(self.io.as_ref(), rec.address, u64::from(rec.size), "chunk")?;
        let data = if d.filters.filters.is_empty() {
            raw
        } else {
            decode_chunk(&d.filters, rec.filter_mask, raw, chunk_bytes, esize)?
        };
        if data.len() != chunk_bytes {
            return Err(usage("stored chunk has the wrong size"));
        }
        Ok(Some(data))
    }

    fn write_chunked(&mut self, ds: ObjId, slab: &Slab, data: &[u8]) -> WriteResult<()> {
        let (cd, dims, esize) = self.chunk_parts(ds)?;
        let chunk_elems = cd.iter().product::<u64>() as usize;
        let fill = self.ds(ds)?.fill_element();
        let filters = self.ds(ds)?.filters.clone();
        let rank = dims.len();
        // Chunk grid ranges the selection touches.
        let ranges: Vec<(u64, u64)> = (0..rank)
            .map(|d| {
                let last = slab.start[d] + (slab.count[d] - 1) * slab.stride[d];
                (slab.start[d] / cd[d], last / cd[d])
            })
            .collect();
        let mut cur: Vec<u64> = ranges.iter().map(|r| r.0).collect();
        let mut complete: Vec<(Vec<u64>, Vec<u8>)> = Vec::new();
        let mut complete_bytes = 0usize;
        loop {
            let off: Vec<u64> = cur.iter().zip(&cd).map(|(c, d)| c * d).collect();
            let touched =
                (0..rank).all(|d| crate::read::slab::k_range(off[d], cd[d], slab, d).is_some());
            if touched {
                if covers(&cd, &off, &dims, slab) {
                    // Inside the extent the selection overwrites every element; an edge chunk
                    // keeps fill past the extent (a later extension shows it).
                    let inside = (0..rank).all(|d| off[d] + cd[d] <= dims[d]);
                    let exact = inside
                        && slab.start == off
                        && slab.count == cd
                        && slab.stride.iter().all(|s| *s == 1);
                    let buf = if exact {
                        // The selection is this chunk: its bytes are the chunk's, in order.
                        self.pipeline.chunk_copy(data)
                    } else {
                        let mut buf = if inside {
                            self.pipeline.chunk_buffer(chunk_elems * esize)
                        } else {
                            repeat(&fill, chunk_elems)
                        };
                        scatter(&mut buf, &cd, &off, slab, esize, data);
                        buf
                    };
                    if let Storage::Chunked(c) = &mut self.ds_mut(ds)?.storage {
                        c.cache.remove(&off);
                    }
                    if !filters.filters.is_empty() {
                        // Filtered on the pool while the caller goes on (see `pipeline`).
                        self.encode_in_background(ds, off, buf, &filters, esize)?;
                    } else {
                        complete_bytes += buf.len();
                        complete.push((off, buf));
                        if complete_bytes >= BATCH_BYTES {
                            self.store_chunks(ds, std::mem::take(&mut complete))?;
                            complete_bytes = 0;
                        }
                    }
                } else {
                    if self.pipeline.has(ds) {
                        self.drain_pipeline()?;
                    }
                    let cached = match &mut self.ds_mut(ds)?.storage {
                        Storage::Chunked(c) => c.cache.remove(&off),
                        _ => None,
                    };
                    let mut buf = match cached {
                        Some(b) => b,
                        None => match self.load_chunk(ds, &off)? {
                            Some(b) => b,
                            None => repeat(&fill, chunk_elems),
                        },
                    };
                    scatter(&mut buf, &cd, &off, slab, esize, data);
                    if let Storage::Chunked(c) = &mut self.ds_mut(ds)?.storage {
                        c.cache.insert(off, buf);
                    }
                }
            }
            let mut d = rank;
            loop {
                if d == 0 {
                    self.store_chunks(ds, complete)?;
                    return self.trim_chunk_cache();
                }
                d -= 1;
                cur[d] += 1;
                if cur[d] <= ranges[d].1 {
                    break;
                }
                cur[d] = ranges[d].0;
            }
        }
    }

    /// Writes out every cached partial chunk of `ds`.
    pub(crate) fn flush_chunk_cache(&mut self, ds: ObjId) -> WriteResult<()> {
        let cached: Vec<(Vec<u64>, Vec<u8>)> = match &mut self.obj_mut(ds)?.body {
            Body::Dataset(d) => match &mut d.storage {
                Storage::Chunked(c) => c.cache.drain().collect(),
                _ => return Ok(()),
            },
            _ => return Ok(()),
        };
        self.store_chunks(ds, cached)
    }

    fn trim_chunk_cache(&mut self) -> WriteResult<()> {
        let held: usize = self
            .objects
            .iter()
            .map(|o| match &o.body {
                Body::Dataset(d) => match &d.storage {
                    Storage::Chunked(c) => c.cache.values().map(Vec::len).sum(),
                    _ => 0,
                },
                _ => 0,
            })
            .sum();
        if held <= self.chunk_cache_limit {
            return Ok(());
        }
        for i in 0..self.objects.len() {
            self.flush_chunk_cache(ObjId(i))?;
        }
        Ok(())
    }

    /// Reads a selection back (file byte order), including data not flushed yet.
    ///
    /// # Errors
    /// A selection outside the dataset, or a malformed stored chunk.
    pub fn read(&self, ds: ObjId, slab: &Slab, out: &mut [u8]) -> WriteResult<()> {
        self.await_writes();
        let d = self.ds(ds)?;
        let dims = d.dims().to_vec();
        if matches!(d.storage, Storage::Chunked(_)) {
            // Chunked datasets may be read past their extent (unwritten records read as fill).
            let big: Vec<u64> = slab
                .start
                .iter()
                .zip(&slab.count)
                .zip(&slab.stride)
                .map(|((s, c), st)| s.saturating_add(c.saturating_mul(*st)).saturating_add(1))
                .collect();
            check_slab(&big, slab)?;
        } else {
            check_slab(&dims, slab)?;
        }
        let cached = self.readers.lock().ok().and_then(|r| r.get(&ds).cloned());
        let reader = match cached {
            Some(r) => r,
            None => {
                let chunks = match &d.storage {
                    Storage::Chunked(c) => match &c.index {
                        ChunkIndexState::OnDisk(_) => None,
                        ChunkIndexState::Map { chunks, .. } => {
                            Some(chunks.values().cloned().collect())
                        }
                    },
                    _ => None,
                };
                let r = d.reader(&self.reader, chunks);
                if let Ok(mut m) = self.readers.lock() {
                    m.insert(ds, r.clone());
                }
                r
            }
        };
        reader.read_slab_into(slab, out)?;
        if let Storage::Chunked(c) = &d.storage {
            for f in self.pipeline.queue.iter().filter(|f| f.ds == ds) {
                gather(&f.raw, &c.dims, &f.offsets, slab, d.esize(), out);
            }
            for (off, buf) in &c.cache {
                gather(buf, &c.dims, off, slab, d.esize(), out);
            }
        }
        Ok(())
    }

    /// Forgets the reader kept for a dataset (its data or shape changed).
    pub(crate) fn invalidate_reader(&self, ds: ObjId) {
        if let Ok(mut m) = self.readers.lock() {
            m.remove(&ds);
        }
    }
}

/// Checks a selection against dimensions; returns its element count.
fn check_slab(dims: &[u64], slab: &Slab) -> WriteResult<u64> {
    if dims.is_empty() {
        return Ok(1);
    }
    if slab.start.len() != dims.len()
        || slab.count.len() != dims.len()
        || slab.stride.len() != dims.len()
    {
        return Err(usage("selection rank does not match the dataset"));
    }
    let mut n = 1u64;
    for (d, len) in dims.iter().enumerate() {
        let (s, c, st) = (slab.start[d], slab.count[d], slab.stride[d]);
        if st == 0 {
            return Err(usage("zero stride"));
        }
        if c > 0 {
            let last = (c - 1)
                .checked_mul(st)
                .and_then(|x| x.checked_add(s))
                .ok_or_else(|| usage("selection overflows"))?;
            if last >= *len {
                return Err(usage("selection outside the dataset"));
            }
        }
        n = n
            .checked_mul(c)
            .ok_or_else(|| usage("selection overflows"))?;
    }
    Ok(n)
}

/// Stores the variable-length parts of dataset data as it is written.
struct DataSink<'a> {
    w: &'a mut Hdf5Writer,
}

impl PieceSink for DataSink<'_> {
    fn address_of(&mut self, id: ObjId) -> WriteResult<u64> {
        self.w
            .address(id)
            .ok_or_else(|| usage("a reference to an object that was never flushed"))
    }

    fn store(&mut self, data: Vec<u8>) -> WriteResult<(u64, u32)> {
        let w = &mut *self.w;
        w.heap.store(data, &mut w.alloc, &w.io)
    }
}
