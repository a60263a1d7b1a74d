//! Storing chunks: filtering (every filter of the pipeline, in order; an optional one that fails
//! is skipped and noted in the chunk's filter mask), appending to the file and recording in the
//! chunk map; complete chunks are filtered in the background: a chunk a write completes is handed to rayon's
//! pool and the write returns; the filtered chunks are appended to the file in the order they
//! were completed, when they are done and at the latest when more than
//! [`purecdf_codecs::buffers::inflight_bytes`] of chunks are waiting, before anything else touches the dataset's chunks, and at every flush
//! (HDF5 File Format Specification v3.0, section III.A.1 for the chunk records). So a writer
//! producing one chunk per call keeps every core filtering while it prepares the next.
//!
//! Reads see chunks still being filtered through the unfiltered copy kept with each; a filter
//! error surfaces at the next write, read-back wait or flush of the writer.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

use rayon::prelude::*;

use crate::filter::{self, FilterError};
use crate::format::btree_v1::ChunkRecord;
use crate::format::messages::filter_pipeline::FilterPipeline;
use crate::write::dataset::{ChunkIndexState, Storage};
use crate::write::{usage, Hdf5Writer, ObjId, WriteResult};

/// Filtered bytes and filter mask of a chunk.
type Encoded = Result<(Vec<u8>, u32), FilterError>;

/// Where a pool thread leaves one chunk's result.
#[derive(Default)]
struct Slot {
    result: Mutex<Option<Encoded>>,
    done: Condvar,
}

impl Slot {
    fn put(&self, r: Encoded) {
        if let Ok(mut g) = self.result.lock() {
            *g = Some(r);
        }
        self.done.notify_all();
    }

    fn is_done(&self) -> bool {
        self.result.lock().map_or(true, |g| g.is_some())
    }

    fn take(&self) -> Encoded {
        let Ok(mut g) = self.result.lock() else {
            return Err(FilterError::Corrupt(
                0,
                "a chunk filter thread failed".into(),
            ));
        };
        loop {
            if let Some(r) = g.take() {
                return r;
            }
            g = match self.done.wait(g) {
                Ok(g) => g,
                Err(_) => {
                    return Err(FilterError::Corrupt(
                        0,
                        "a chunk filter thread failed".into(),
                    ))
                }
            };
        }
    }
}

/// A chunk being filtered.
pub(crate) struct Inflight {
    pub(crate) ds: ObjId,
    pub(crate) offsets: Vec<u64>,
    /// The chunk before filtering (for reads until it is stored).
    pub(crate) raw: Arc<Vec<u8>>,
    slot: Arc<Slot>,
}

/// How many chunk buffers [`Pipeline::spare`] keeps for reuse.
const SPARE_BUFFERS: usize = 16;

/// The chunks being filtered, oldest first.
#[derive(Default)]
pub(crate) struct Pipeline {
    pub(crate) queue: VecDeque<Inflight>,
    bytes: usize,
    /// Buffers of chunks already stored, for the next chunks: a fresh buffer of a megabyte costs
    /// the writing thread a page fault per 4 KiB (the allocator hands large blocks back to the
    /// kernel when they are freed), a reused one none.
    spare: Vec<Vec<u8>>,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} chunks in flight", self.queue.len())
    }
}

impl Pipeline {
    /// True when chunks of `ds` are being filtered.
    pub(crate) fn has(&self, ds: ObjId) -> bool {
        self.queue.iter().any(|c| c.ds == ds)
    }

    /// A buffer of `len` bytes for a chunk the caller overwrites whole: a kept one when there is
    /// one large enough (its old bytes zeroed), else a new one.
    pub(crate) fn chunk_buffer(&mut self, len: usize) -> Vec<u8> {
        match self.spare.iter().position(|b| b.capacity() >= len) {
            Some(i) => {
                let mut b = self.spare.swap_remove(i);
                b.clear();
                b.resize(len, 0);
                b
            }
            None => {
                let mut b = purecdf_codecs::buffers::take(len);
                b.resize(len, 0);
                b
            }
        }
    }

    /// A copy of `data` (a whole chunk), in a kept buffer when there is one large enough.
    pub(crate) fn chunk_copy(&mut self, data: &[u8]) -> Vec<u8> {
        match self.spare.iter().position(|b| b.capacity() >= data.len()) {
            Some(i) => {
                let mut b = self.spare.swap_remove(i);
                b.clear();
                b.extend_from_slice(data);
                b
            }
            None => {
                let mut b = purecdf_codecs::buffers::take(data.len());
                b.extend_from_slice(data);
                b
            }
        }
    }

    /// Keeps a stored chunk's buffer for [`Pipeline::chunk_buffer`] (up to [`SPARE_BUFFERS`];
    /// the rest go to the encoders' [`purecdf_codecs::buffers`], where this writer's next
    /// chunks find them too).
    pub(crate) fn recycle(&mut self, b: Vec<u8>) {
        if self.spare.len() < SPARE_BUFFERS && b.capacity() >= 4096 {
            self.spare.push(b);
        } else {
            purecdf_codecs::buffers::give(b);
        }
    }
}

/// A chunk after filtering: offsets, stored bytes, filter mask.
pub(crate) type EncodedChunk = (Vec<u64>, Vec<u8>, u32);

/// Filters one chunk; a failing optional filter is skipped and noted in the mask.
pub(crate) fn encode_chunk(
    filters: &FilterPipeline,
    data: &[u8],
    esize: usize,
) -> Result<(Vec<u8>, u32), FilterError> {
    let mut mask = 0u32;
    let mut cur: Option<Vec<u8>> = None;
    for (i, f) in filters.filters.iter().enumerate() {
        let optional = f.optional() && i < 32;
        let flt = filter::build(f.id, &f.client_data, esize);
        // An optional filter may fail and leave the data as it was: it works on a copy.
        let out = match cur.take() {
            None => flt.and_then(|flt| flt.encode_slice(data)),
            Some(v) if optional => {
                let r = flt.and_then(|flt| flt.encode_slice(&v));
                cur = Some(v);
                r
            }
            Some(v) => flt.and_then(|flt| flt.encode(v)),
        };
        match out {
            Ok(d) => cur = Some(d),
            Err(_) if optional => mask |= 1 << i,
            Err(e) => return Err(e),
        }
    }
    Ok((cur.unwrap_or_else(|| data.to_vec()), mask))
}

impl Hdf5Writer {
    /// Filters complete chunks in parallel and appends them to the file as one write.
    pub(crate) fn store_chunks(
        &mut self,
        ds: ObjId,
        chunks: Vec<(Vec<u64>, Vec<u8>)>,
    ) -> WriteResult<()> {
        if chunks.is_empty() {
            return Ok(());
        }
        // Chunks still being filtered are older: they go first.
        self.drain_pipeline()?;
        let d = self.ds(ds)?;
        let esize = d.esize();
        let filters = d.filters.clone();
        let encoded: Vec<Result<EncodedChunk, FilterError>> = if filters.filters.is_empty() {
            chunks.into_iter().map(|(o, b)| Ok((o, b, 0))).collect()
        } else {
            chunks
                .into_par_iter()
                .map(|(o, b)| encode_chunk(&filters, &b, esize).map(|(e, m)| (o, e, m)))
                .collect()
        };
        let ready = encoded.into_iter().collect::<Result<Vec<_>, _>>()?;
        self.append_encoded(ds, ready)
    }

    /// Appends filtered chunks of `ds` to the file (one write when they are small) and records
    /// them in its chunk map.
    pub(crate) fn append_encoded(
        &mut self,
        ds: ObjId,
        ready: Vec<EncodedChunk>,
    ) -> WriteResult<()> {
        if ready.is_empty() {
            return Ok(());
        }
        self.invalidate_reader(ds);
        let mut total = 0u64;
        for (_, b, _) in &ready {
            if b.len() > u32::MAX as usize {
                return Err(usage("filtered chunk of 4 GiB or more"));
            }
            total += b.len() as u64;
        }
        let base = self.alloc.alloc(total, &self.io);
        let mut at = base;
        let mut records = Vec::with_capacity(ready.len());
        let gather = total / (ready.len() as u64) < (64 << 10);
        let mut buf = Vec::with_capacity(if gather { total as usize } else { 0 });
        for (o, b, m) in ready {
            records.push(ChunkRecord {
                offsets: o,
                size: b.len() as u32,
                filter_mask: m,
                address: at,
            });
            let len = b.len() as u64;
            if gather {
                buf.extend_from_slice(&b);
                purecdf_codecs::buffers::give(b);
            } else {
                self.write_chunk_bytes(at, b)?;
            }
            at += len;
        }
        if gather {
            self.write_chunk_bytes(base, buf)?;
        }
        let map = self.chunk_map(ds)?;
        for r in records {
            map.insert(r.offsets.clone(), r);
        }
        if let Storage::Chunked(c) = &mut self.ds_mut(ds)?.storage {
            if let ChunkIndexState::Map { written, .. } = &mut c.index {
                *written = None;
            }
        }
        self.obj_mut(ds)?.dirty = true;
        Ok(())
    }

    /// Filters a complete chunk of `ds` on rayon's pool (or here, when called from a pool thread,
    /// which must not wait on the pool), then appends whatever has finished.
    pub(crate) fn encode_in_background(
        &mut self,
        ds: ObjId,
        offsets: Vec<u64>,
        raw: Vec<u8>,
        filters: &FilterPipeline,
        esize: usize,
    ) -> WriteResult<()> {
        if rayon::current_thread_index().is_some() {
            self.drain_pipeline()?;
            let (e, m) = encode_chunk(filters, &raw, esize)?;
            return self.append_encoded(ds, vec![(offsets, e, m)]);
        }
        let raw = Arc::new(raw);
        let slot = Arc::new(Slot::default());
        let (r, s, f) = (raw.clone(), slot.clone(), filters.clone());
        rayon::spawn(move || {
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                encode_chunk(&f, &r, esize)
            }));
            // Let go of the raw chunk first, so that the writer can reuse its buffer.
            drop(r);
            s.put(out.unwrap_or_else(|_| {
                Err(FilterError::Corrupt(0, "a chunk filter panicked".into()))
            }));
        });
        let len = raw.len();
        self.pipeline.bytes += len;
        self.pipeline.queue.push_back(Inflight {
            ds,
            offsets,
            raw,
            slot,
        });
        self.collect_pipeline(purecdf_codecs::buffers::inflight_bytes(len))
    }

    /// Waits for every chunk being filtered and appends them.
    pub(crate) fn drain_pipeline(&mut self) -> WriteResult<()> {
        self.collect_pipeline(0)
    }

    /// Appends the finished chunks at the front of the queue, waiting for the oldest ones while
    /// more than `keep` bytes are in flight.
    fn collect_pipeline(&mut self, keep: usize) -> WriteResult<()> {
        let mut run: Vec<(Vec<u64>, Vec<u8>, u32)> = Vec::new();
        let mut run_ds = None;
        loop {
            let go = match self.pipeline.queue.front() {
                Some(c) => self.pipeline.bytes > keep || c.slot.is_done(),
                None => false,
            };
            if !go {
                break;
            }
            let Some(c) = self.pipeline.queue.pop_front() else {
                break;
            };
            self.pipeline.bytes -= c.raw.len();
            let result = c.slot.take();
            if let Ok(raw) = Arc::try_unwrap(c.raw) {
                self.pipeline.recycle(raw);
            }
            if run_ds.is_some_and(|d| d != c.ds) {
                let d = run_ds.take().unwrap_or(c.ds);
                self.append_encoded(d, std::mem::take(&mut run))?;
            }
            let (e, m) = match result {
                Ok(x) => x,
                Err(e) => {
                    self.abandon_pipeline();
                    return Err(e.into());
                }
            };
            run_ds = Some(c.ds);
            run.push((c.offsets, e, m));
        }
        match run_ds {
            Some(d) => self.append_encoded(d, run),
            None => Ok(()),
        }
    }

    /// Forgets the chunks in flight (after a filter failed: the writer reports the error).
    fn abandon_pipeline(&mut self) {
        for c in self.pipeline.queue.drain(..) {
            let _ = c.slot.take();
        }
        self.pipeline.bytes = 0;
    }
}
