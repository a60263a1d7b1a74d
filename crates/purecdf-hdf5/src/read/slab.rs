//! Hyperslab reads (start / count / stride per dimension) of a dataset: only the chunks the
//! selection touches are read and decoded (in parallel), through a small cache of decoded chunks
//! so that row-by-row readers decode each chunk once; contiguous data is read run by run with
//! positional reads. A chunk whose elements are all selected and form one run of the output is
//! decoded straight into the output, and each decoding thread reuses its buffers from chunk to
//! chunk (chunked storage: HDF5 File Format Specification v3.0, section IV.A.2.i, the Data
//! Layout message).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::filter::{decode_chunk, decode_chunk_into, FilterError, Scratch};
use crate::format::btree_v1::ChunkRecord;
use crate::format::messages::layout::Layout;
use crate::format::object_header::read_block;
use crate::io::ByteSource;
use crate::read::dataset::Dataset;

/// A selection: per dimension the first index, number of elements and step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slab {
    /// First index per dimension.
    pub start: Vec<u64>,
    /// Elements per dimension.
    pub count: Vec<u64>,
    /// Step per dimension (≥ 1).
    pub stride: Vec<u64>,
}

impl Slab {
    /// The whole of `dims`.
    pub fn whole(dims: &[u64]) -> Slab {
        Slab {
            start: vec![0; dims.len()],
            count: dims.to_vec(),
            stride: vec![1; dims.len()],
        }
    }

    fn elements(&self) -> Option<u64> {
        self.count.iter().try_fold(1u64, |a, c| a.checked_mul(*c))
    }
}

/// Decoded chunks kept for reuse, bounded in bytes.
#[derive(Debug, Default)]
pub(crate) struct ChunkCache {
    index: Option<Arc<HashMap<Vec<u64>, ChunkRecord>>>,
    decoded: HashMap<Vec<u64>, Arc<Vec<u8>>>,
    order: Vec<Vec<u64>>,
    bytes: usize,
}

/// Upper bound of the decoded-chunk cache per dataset.
const CACHE_BYTES: usize = 64 << 20;

impl Dataset {
    /// Reads a selection: elements in file byte order, row-major over the selection. The caller
    /// checks the selection against the shape; out-of-range parts read as fill.
    pub fn read_slab(&self, slab: &Slab) -> FormatResult<Vec<u8>> {
        let total = self.slab_bytes(slab)?;
        let mut out = vec![0u8; total];
        self.read_slab_into(slab, &mut out)?;
        Ok(out)
    }

    /// Bytes a selection occupies.
    fn slab_bytes(&self, slab: &Slab) -> FormatResult<usize> {
        let esize = self.element_size() as usize;
        let n = slab
            .elements()
            .ok_or_else(|| self.err(FormatErrorKind::InvalidValue(u64::MAX)))?;
        usize::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(esize))
            .ok_or_else(|| self.err(FormatErrorKind::InvalidValue(n)))
    }

    /// Reads a selection into `out`, which must hold exactly the selection's bytes (file byte
    /// order, row-major). Every byte of `out` is written: stored data, or the fill value where
    /// nothing is stored.
    pub fn read_slab_into(&self, slab: &Slab, out: &mut [u8]) -> FormatResult<()> {
        let total = self.slab_bytes(slab)?;
        if out.len() != total {
            return Err(self.err(FormatErrorKind::InvalidValue(out.len() as u64)));
        }
        let esize = self.element_size() as usize;
        let dims = self.space.dims().to_vec();
        if dims.is_empty() || dims.len() != slab.start.len() {
            // Scalar or null dataspace: the single element, if any.
            let v = self.read_raw()?;
            let k = v.len().min(total);
            out[..k].copy_from_slice(&v[..k]);
            return Ok(());
        }
        if total == 0 {
            return Ok(());
        }
        match &self.layout {
            Layout::Compact { data } => {
                fill_with(out, &self.fill_bytes());
                copy_selection(
                    data,
                    &dims,
                    &vec![0; dims.len()],
                    slab,
                    esize,
                    &OutPtr::new(out),
                );
            }
            Layout::Contiguous {
                address: Some(a), ..
            } => self.read_contiguous(self.file().source(), *a, &dims, slab, esize, out)?,
            Layout::Contiguous { address: None, .. } => match &self.external {
                Some(ext) => {
                    let src =
                        crate::read::external::ExternalSource::open(ext, self.header().address)?;
                    self.read_contiguous(&src, 0, &dims, slab, esize, out)?
                }
                None => fill_with(out, &self.fill_bytes()),
            },
            Layout::Chunked { chunk_dims, .. } => {
                self.read_chunked(chunk_dims, &dims, slab, esize, out)?
            }
            Layout::Virtual { .. } => {
                let data = self.virtual_data()?;
                fill_with(out, &self.fill_bytes());
                copy_selection(
                    &data,
                    &dims,
                    &vec![0; dims.len()],
                    slab,
                    esize,
                    &OutPtr::new(out),
                );
            }
        }
        Ok(())
    }

    fn err(&self, kind: FormatErrorKind) -> FormatError {
        FormatError::new(kind, self.header().address, "dataset read")
    }

    fn read_contiguous(
        &self,
        src: &dyn ByteSource,
        base: u64,
        dims: &[u64],
        slab: &Slab,
        esize: usize,
        out: &mut [u8],
    ) -> FormatResult<()> {
        let rank = dims.len();
        let last = rank - 1;
        // One read per row of the selection: the span from the first to the last selected element.
        let span = (slab.count[last] - 1) * slab.stride[last] + 1;
        let mut buf = vec![0u8; span as usize * esize];
        let rows: u64 = slab.count[..last].iter().product();
        let mut idx = vec![0u64; last];
        let mut dst = 0usize;
        for _ in 0..rows {
            let mut lin = 0u64;
            for d in 0..rank {
                let i = if d < last {
                    slab.start[d] + idx[d] * slab.stride[d]
                } else {
                    slab.start[d]
                };
                lin = lin * dims[d] + i;
            }
            let at = base + lin * esize as u64;
            src.read_at(at, &mut buf).map_err(|_| {
                FormatError::new(
                    FormatErrorKind::UnexpectedEof {
                        wanted: buf.len() as u64,
                        available: 0,
                    },
                    at,
                    "contiguous data",
                )
            })?;
            if slab.stride[last] == 1 {
                out[dst..dst + buf.len()].copy_from_slice(&buf);
                dst += buf.len();
            } else {
                for k in 0..slab.count[last] as usize {
                    let s = k * slab.stride[last] as usize * esize;
                    out[dst..dst + esize].copy_from_slice(&buf[s..s + esize]);
                    dst += esize;
                }
            }
            for d in (0..last).rev() {
                idx[d] += 1;
                if idx[d] < slab.count[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        Ok(())
    }

    fn read_chunked(
        &self,
        chunk_dims: &[u64],
        dims: &[u64],
        slab: &Slab,
        esize: usize,
        out: &mut [u8],
    ) -> FormatResult<()> {
        let index = self.chunk_index()?;
        let rank = dims.len();
        // Chunk coordinate ranges the selection touches, per dimension.
        let ranges: Vec<(u64, u64)> = (slab.start.iter().zip(&slab.count).zip(&slab.stride))
            .zip(chunk_dims)
            .map(|(((start, count), stride), c)| (start / c, (start + (count - 1) * stride) / c))
            .collect();
        let mut wanted: Vec<Vec<u64>> = Vec::new();
        let mut cur: Vec<u64> = ranges.iter().map(|r| r.0).collect();
        'outer: loop {
            let offsets: Vec<u64> = cur.iter().zip(chunk_dims).map(|(c, d)| c * d).collect();
            if touches(&offsets, chunk_dims, slab) {
                wanted.push(offsets);
            }
            for d in (0..rank).rev() {
                cur[d] += 1;
                if cur[d] <= ranges[d].1 {
                    continue 'outer;
                }
                cur[d] = ranges[d].0;
            }
            break;
        }
        let chunk_bytes = chunk_dims
            .iter()
            .fold(esize as u64, |a, c| a.saturating_mul(*c)) as usize;
        // Unwritten chunks read as the fill value; when every chunk is stored, every output
        // byte comes from a chunk and no fill pass is needed.
        if wanted.iter().any(|o| !index.contains_key(o)) {
            fill_with(out, &self.fill_bytes());
        }
        // Row-by-row readers touch a chunk or two per call: keep those decoded. A large
        // selection decodes each chunk once and would only churn the cache.
        let cache = wanted.len() <= 4;
        let fill = self.fill_bytes();
        let sink = OutPtr::new(out);
        let one = |w: &mut Worker, off: &Vec<u64>| -> FormatResult<()> {
            if cache {
                if let Some(data) = self.cached_chunk(off) {
                    copy_selection(&data, chunk_dims, off, slab, esize, &sink);
                    return Ok(());
                }
            }
            let Some(rec) = index.get(off) else {
                return Ok(());
            };
            // A chunk whose elements are all selected and land in one run of the output is
            // decoded straight into the output.
            if let Some(dst) = contiguous_target(off, chunk_dims, slab, esize)
                .and_then(|t| sink.slice_mut(t, chunk_bytes))
            {
                if self.decode_into(rec, &mut w.scratch, dst, esize)? {
                    return Ok(());
                }
                // Not decodable to exactly the chunk's size: the general path decides (an error,
                // or a short chunk that leaves fill where it has no data).
                fill_with(dst, &fill);
            } else if !cache {
                w.chunk.resize(chunk_bytes, 0);
                if self.decode_into(rec, &mut w.scratch, &mut w.chunk, esize)? {
                    copy_selection(&w.chunk, chunk_dims, off, slab, esize, &sink);
                    return Ok(());
                }
            }
            let data = if cache {
                self.decoded_chunk(&index, off, chunk_bytes, esize)?
            } else {
                self.decode_uncached(&index, off, chunk_bytes, esize)?
                    .map(Arc::new)
            };
            if let Some(data) = data {
                copy_selection(&data, chunk_dims, off, slab, esize, &sink);
            }
            Ok(())
        };
        // Chunks are decoded on rayon's pool, so one reader uses every core; each worker reuses
        // its buffers from chunk to chunk. With a one-thread pool (RAYON_NUM_THREADS=1), or a
        // single chunk, the calling thread decodes by itself: readers in different threads then
        // proceed independently instead of queueing on the pool's only worker.
        if wanted.len() == 1 || rayon::current_num_threads() <= 1 {
            let mut w = Worker::default();
            wanted.iter().try_for_each(|o| one(&mut w, o))
        } else {
            wanted
                .par_iter()
                .try_for_each_init(Worker::default, |w, o| one(w, o))
        }
    }

    /// Reads a stored chunk into `scratch.raw` and decodes it into `dst` through the filter
    /// fast path; false when the chunk did not decode to exactly `dst.len()` bytes (the caller
    /// then takes the general path).
    fn decode_into(
        &self,
        rec: &ChunkRecord,
        scratch: &mut Scratch,
        dst: &mut [u8],
        esize: usize,
    ) -> FormatResult<bool> {
        let src = self.file().source();
        let size = u64::from(rec.size);
        let eof = |available| {
            FormatError::new(
                FormatErrorKind::UnexpectedEof {
                    wanted: size,
                    available,
                },
                rec.address,
                "chunk",
            )
        };
        match rec.address.checked_add(size) {
            Some(end) if end <= src.len() => {}
            _ => return Err(eof(src.len().saturating_sub(rec.address))),
        }
        if self.filters.filters.is_empty() && size == dst.len() as u64 {
            src.read_at(rec.address, dst).map_err(|_| eof(0))?;
            return Ok(true);
        }
        scratch.raw.resize(rec.size as usize, 0);
        src.read_at(rec.address, &mut scratch.raw)
            .map_err(|_| eof(0))?;
        decode_chunk_into(&self.filters, rec.filter_mask, scratch, dst, esize)
            .map_err(|e| filter_error(&e, rec.address))
    }

    fn chunk_index(&self) -> FormatResult<Arc<HashMap<Vec<u64>, ChunkRecord>>> {
        if let Some(i) = self
            .cache()
            .lock()
            .map_err(|_| self.err(FormatErrorKind::InvalidValue(0)))?
            .index
            .clone()
        {
            return Ok(i);
        }
        let map: HashMap<Vec<u64>, ChunkRecord> = self
            .chunks()?
            .into_iter()
            .map(|c| (c.offsets.clone(), c))
            .collect();
        let map = Arc::new(map);
        self.cache()
            .lock()
            .map_err(|_| self.err(FormatErrorKind::InvalidValue(0)))?
            .index = Some(map.clone());
        Ok(map)
    }

    /// Reads and decodes one chunk, without the cache; `None` when the chunk is not stored.
    fn decode_uncached(
        &self,
        index: &HashMap<Vec<u64>, ChunkRecord>,
        offsets: &[u64],
        chunk_bytes: usize,
        esize: usize,
    ) -> FormatResult<Option<Vec<u8>>> {
        let Some(rec) = index.get(offsets) else {
            return Ok(None);
        };
        let raw = read_block(
            self.file().source(),
            rec.address,
            u64::from(rec.size),
            "chunk",
        )?;
        let data = if self.filters.filters.is_empty() {
            raw
        } else {
            decode_chunk(&self.filters, rec.filter_mask, raw, chunk_bytes, esize)
                .map_err(|e| filter_error(&e, rec.address))?
        };
        Ok(Some(data))
    }

    /// A decoded chunk from the cache, if it is there.
    fn cached_chunk(&self, offsets: &[u64]) -> Option<Arc<Vec<u8>>> {
        self.cache()
            .lock()
            .ok()
            .and_then(|c| c.decoded.get(offsets).cloned())
    }

    fn decoded_chunk(
        &self,
        index: &HashMap<Vec<u64>, ChunkRecord>,
        offsets: &[u64],
        chunk_bytes: usize,
        esize: usize,
    ) -> FormatResult<Option<Arc<Vec<u8>>>> {
        if let Some(d) = self.cached_chunk(offsets) {
            return Ok(Some(d));
        }
        let Some(data) = self.decode_uncached(index, offsets, chunk_bytes, esize)? else {
            return Ok(None);
        };
        let data = Arc::new(data);
        if let Ok(mut c) = self.cache().lock() {
            if data.len() <= CACHE_BYTES {
                while c.bytes + data.len() > CACHE_BYTES && !c.order.is_empty() {
                    let old = c.order.remove(0);
                    if let Some(d) = c.decoded.remove(&old) {
                        c.bytes -= d.len();
                    }
                }
                c.bytes += data.len();
                c.order.push(offsets.to_vec());
                c.decoded.insert(offsets.to_vec(), data.clone());
            }
        }
        Ok(Some(data))
    }
}

/// A chunk filter failure as a format error at the chunk's address.
fn filter_error(e: &FilterError, address: u64) -> FormatError {
    FormatError::new(
        FormatErrorKind::InvalidValue(0),
        address,
        if matches!(e, FilterError::Unknown(_)) {
            "unknown filter"
        } else {
            "chunk filter"
        },
    )
}

/// What one decoding thread keeps from chunk to chunk.
#[derive(Default)]
struct Worker {
    scratch: Scratch,
    /// A decoded chunk on its way to a selection that takes only part of it.
    chunk: Vec<u8>,
}

pub(crate) type SharedCache = Arc<Mutex<ChunkCache>>;

/// The output buffer of a selection, written from several threads at once. Each selected
/// element has exactly one position in the output and each element of the dataset lies in
/// exactly one chunk, so copies from different chunks never touch the same bytes; `write`
/// bounds-checks every copy against the buffer.
struct OutPtr {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the pointer comes from a `&mut [u8]` that outlives every use (the parallel copy ends
// before `read_chunked` returns) and concurrent writes go to disjoint ranges (see above).
unsafe impl Sync for OutPtr {}
unsafe impl Send for OutPtr {}

impl OutPtr {
    fn new(out: &mut [u8]) -> OutPtr {
        OutPtr {
            ptr: out.as_mut_ptr(),
            len: out.len(),
        }
    }

    /// The output bytes `at..at + len`, for one chunk to decode into; `None` when out of bounds
    /// (never the case for a selection that was checked against the shape).
    #[allow(clippy::mut_from_ref)]
    fn slice_mut(&self, at: usize, len: usize) -> Option<&mut [u8]> {
        let end = at.checked_add(len)?;
        // SAFETY: in bounds (checked here); each chunk's range is disjoint from every other
        // chunk's (see the type's documentation) and each chunk is handed out once per read.
        (end <= self.len).then(|| unsafe { std::slice::from_raw_parts_mut(self.ptr.add(at), len) })
    }

    /// Copies `src` to `at`, ignoring a copy that would not fit (never the case for a selection
    /// that was checked against the shape).
    fn write(&self, at: usize, src: &[u8]) {
        if at.checked_add(src.len()).is_some_and(|end| end <= self.len) {
            // SAFETY: in bounds (checked above); disjoint from other threads' writes.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.ptr.add(at), src.len()) };
        }
    }
}

/// Fills `out` with repetitions of one element's fill bytes.
pub(crate) fn fill_with(out: &mut [u8], fill: &[u8]) {
    if fill.iter().all(|b| *b == 0) {
        out.fill(0);
    } else if !fill.is_empty() {
        for e in out.chunks_exact_mut(fill.len()) {
            e.copy_from_slice(fill);
        }
    }
}

/// True when a chunk at `offsets` contains at least one selected element.
fn touches(offsets: &[u64], chunk_dims: &[u64], slab: &Slab) -> bool {
    (0..offsets.len()).all(|d| k_range(offsets[d], chunk_dims[d], slab, d).is_some())
}

/// Selection indices k (0..count) whose positions start + k·stride fall in [off, off + len).
pub(crate) fn k_range(off: u64, len: u64, slab: &Slab, d: usize) -> Option<(u64, u64)> {
    let (start, count, stride) = (slab.start[d], slab.count[d], slab.stride[d]);
    let lo = if off > start {
        (off - start).div_ceil(stride)
    } else {
        0
    };
    let end = off + len; // exclusive
    if end <= start {
        return None;
    }
    let hi = ((end - 1 - start) / stride).min(count.checked_sub(1)?);
    (lo <= hi).then_some((lo, hi))
}

/// The output byte offset of a chunk at `offsets` when every one of its elements is selected and
/// they form one run of the row-major output (the chunk spans the selection in every dimension
/// after its first of extent above one); `None` otherwise.
fn contiguous_target(
    offsets: &[u64],
    chunk_dims: &[u64],
    slab: &Slab,
    esize: usize,
) -> Option<usize> {
    let rank = offsets.len();
    let mut lin = 0u64;
    let mut spanning = false;
    for d in 0..rank {
        let (lo, hi) = k_range(offsets[d], chunk_dims[d], slab, d)?;
        let n = hi - lo + 1;
        if n != chunk_dims[d] || (n > 1 && slab.stride[d] != 1) {
            return None;
        }
        if spanning && n != slab.count[d] {
            return None;
        }
        spanning |= n > 1;
        lin = lin.checked_mul(slab.count[d])?.checked_add(lo)?;
    }
    usize::try_from(lin).ok()?.checked_mul(esize)
}

/// Copies the selected elements that lie in a block of `block_dims` at `origin` (a chunk, or the
/// whole dataset for compact data) into the selection-shaped output.
fn copy_selection(
    block: &[u8],
    block_dims: &[u64],
    origin: &[u64],
    slab: &Slab,
    esize: usize,
    out: &OutPtr,
) {
    for_each_run(block_dims, origin, slab, esize, |s, t, n, step| {
        if step == esize {
            if let Some(a) = block.get(s..s + n * esize) {
                out.write(t, a);
            }
        } else {
            for i in 0..n {
                if let Some(a) = block.get(s + i * step..s + i * step + esize) {
                    out.write(t + i * esize, a);
                }
            }
        }
    });
}

/// Calls `run(block_byte, slab_byte, n, step)` for every run of selected elements inside the
/// block at `origin` of `block_dims`: `n` elements starting at those byte offsets, `step` bytes
/// apart in the block (`esize` when the selection is contiguous there) and adjacent in the
/// selection buffer.
pub(crate) fn for_each_run(
    block_dims: &[u64],
    origin: &[u64],
    slab: &Slab,
    esize: usize,
    mut run: impl FnMut(usize, usize, usize, usize),
) {
    let rank = block_dims.len();
    if rank == 0 {
        run(0, 0, 1, esize);
        return;
    }
    let mut ks = Vec::with_capacity(rank);
    for d in 0..rank {
        match k_range(origin[d], block_dims[d], slab, d) {
            Some(r) => ks.push(r),
            None => return,
        }
    }
    let last = rank - 1;
    let n = (ks[last].1 - ks[last].0 + 1) as usize;
    let step = slab.stride[last] as usize * esize;
    let mut k: Vec<u64> = ks.iter().map(|r| r.0).collect();
    loop {
        let mut src = 0u64;
        let mut dst = 0u64;
        for d in 0..rank {
            let pos = slab.start[d] + k[d] * slab.stride[d];
            src = src * block_dims[d] + (pos - origin[d]);
            dst = dst * slab.count[d] + k[d];
        }
        run(src as usize * esize, dst as usize * esize, n, step);
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            k[d] += 1;
            if k[d] <= ks[d].1 {
                break;
            }
            k[d] = ks[d].0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slab(start: &[u64], count: &[u64], stride: &[u64]) -> Slab {
        Slab {
            start: start.to_vec(),
            count: count.to_vec(),
            stride: stride.to_vec(),
        }
    }

    #[test]
    fn contiguous_targets() {
        let whole = Slab::whole(&[4, 6, 8]);
        // Chunks 1×6×8 are whole planes: one run each.
        assert_eq!(
            contiguous_target(&[2, 0, 0], &[1, 6, 8], &whole, 4),
            Some(2 * 48 * 4)
        );
        // 2×6×8 too; 1×3×8 are half planes, still runs.
        assert_eq!(
            contiguous_target(&[2, 0, 0], &[2, 6, 8], &whole, 4),
            Some(2 * 48 * 4)
        );
        assert_eq!(
            contiguous_target(&[1, 3, 0], &[1, 3, 8], &whole, 2),
            Some((48 + 24) * 2)
        );
        // 1×6×4 leaves gaps between its rows.
        assert_eq!(contiguous_target(&[0, 0, 4], &[1, 6, 4], &whole, 4), None);
        // A chunk running past the selection (or the shape) is not wholly selected.
        assert_eq!(contiguous_target(&[3, 0, 0], &[2, 6, 8], &whole, 4), None);
        // Strided selections are never one run; a selection exactly one chunk is.
        let strided = slab(&[0, 0, 0], &[2, 6, 8], &[2, 1, 1]);
        assert_eq!(
            contiguous_target(&[0, 0, 0], &[1, 6, 8], &strided, 4),
            Some(0)
        );
        assert_eq!(contiguous_target(&[0, 0, 0], &[2, 6, 8], &strided, 4), None);
        let one = slab(&[3, 2, 0], &[1, 2, 8], &[1, 1, 1]);
        assert_eq!(contiguous_target(&[3, 2, 0], &[1, 2, 8], &one, 4), Some(0));
        assert_eq!(contiguous_target(&[3, 0, 0], &[1, 2, 8], &one, 4), None);
    }
}
