//! Reading a hyperslab of an SD dataset (`SDreaddata`): contiguous data is read row by row
//! straight from the file; linked, external and compressed data is decoded whole; chunked data
//! (`hchunks.c`: the chunk table vdata's records are an `origin` in chunk coordinates and the
//! chunk's tag/ref; every chunk is stored at full size) is decoded chunk by chunk, in parallel.
//! Unwritten data reads as the fill value. Values come out in the dataset's file byte order.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::element::{ChunkedHeader, Layout};
use crate::error::{Error, Result};
use crate::file::Hdf4File;
use crate::sd::SdDataset;

/// A hyperslab request: start, count and stride per dimension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// First index per dimension.
    pub start: Vec<u64>,
    /// Number of indices per dimension.
    pub count: Vec<u64>,
    /// Step per dimension.
    pub stride: Vec<u64>,
}

/// Chunks decoded at once per batch (bounds the memory of a large read).
const BATCH: usize = 64;

/// A block of a dataset in memory: its origin (element coordinates), shape and bytes.
struct Block<'a> {
    origin: &'a [u64],
    shape: &'a [u64],
    bytes: &'a [u8],
}

impl Hdf4File {
    /// Reads `sel` of `ds` into `out` (`count` product × element size bytes, row-major), values
    /// in the dataset's file byte order. `fill` is one element, used where nothing was written.
    pub fn read_dataset(
        &self,
        ds: &SdDataset,
        sel: &Selection,
        fill: &[u8],
        out: &mut [u8],
    ) -> Result<()> {
        let es = ds.number_type.size();
        let rank = ds.shape.len();
        if sel.start.len() != rank || sel.count.len() != rank || sel.stride.len() != rank {
            return Err(Error::new("selection rank differs from the dataset's"));
        }
        let n: u64 = sel.count.iter().product();
        if out.len() as u64 != n.saturating_mul(es as u64) {
            return Err(Error::new("output buffer size differs from the selection"));
        }
        if n == 0 {
            return Ok(());
        }
        // A chunked element's chunks never written read as the fill value of its header.
        let fill = match &ds.layout {
            Some(Layout::Chunked(h)) if h.fill.len() == es => &h.fill[..],
            _ => fill,
        };
        fill_with(out, fill, es);
        let total = ds.shape.iter().fold(es as u64, |p, &d| p.saturating_mul(d));
        match &ds.layout {
            None => Ok(()),
            Some(Layout::Plain { offset, length }) => {
                self.read_plain(*offset, *length, &ds.shape, es, sel, out)
            }
            Some(Layout::Chunked(h)) => self.read_chunked(h, &ds.shape, es, sel, out),
            Some(l) => {
                let bytes = self.read_layout(l, total)?;
                let origin = vec![0; rank];
                let block = Block {
                    origin: &origin,
                    shape: &ds.shape,
                    bytes: &bytes,
                };
                copy_block(&block, es, sel, out);
                Ok(())
            }
        }
    }

    fn read_plain(
        &self,
        offset: u64,
        length: u64,
        shape: &[u64],
        es: usize,
        sel: &Selection,
        out: &mut [u8],
    ) -> Result<()> {
        let rank = shape.len();
        if rank == 0 {
            let k = es.min(length as usize);
            return self.read_into(offset, &mut out[..k]);
        }
        let last = rank - 1;
        let row_elems = sel.count[last] as usize;
        let span = if row_elems == 0 {
            0
        } else {
            ((row_elems as u64 - 1) * sel.stride[last] + 1) * es as u64
        };
        let mut buf = vec![0u8; span as usize];
        let mut idx = vec![0u64; last];
        for row in out.chunks_exact_mut(row_elems * es) {
            let mut lin = 0u64;
            for d in 0..rank {
                let i = if d < last {
                    sel.start[d] + idx[d] * sel.stride[d]
                } else {
                    sel.start[d]
                };
                lin = lin * shape[d] + i;
            }
            let at = lin * es as u64;
            // Bytes past the element's end (data never written) stay fill.
            let avail = length.saturating_sub(at).min(span) as usize;
            if avail > 0 {
                self.read_into(offset + at, &mut buf[..avail])?;
                for (k, dst) in row.chunks_exact_mut(es).enumerate() {
                    let s = k * sel.stride[last] as usize * es;
                    if s + es <= avail {
                        dst.copy_from_slice(&buf[s..s + es]);
                    }
                }
            }
            for d in (0..last).rev() {
                idx[d] += 1;
                if idx[d] < sel.count[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        Ok(())
    }

    fn read_chunked(
        &self,
        h: &ChunkedHeader,
        shape: &[u64],
        es: usize,
        sel: &Selection,
        out: &mut [u8],
    ) -> Result<()> {
        let rank = shape.len();
        if h.dims.len() != rank || h.element_size != es as u64 {
            return Err(Error::new("chunked element does not match its dataset"));
        }
        let clen: Vec<u64> = h.dims.iter().map(|d| d.chunk_length).collect();
        // A chunk larger than its dataset (and than 16 MiB) is a malformed header.
        let total = shape.iter().fold(es as u64, |p, &d| p.saturating_mul(d));
        let chunk_bytes = clen
            .iter()
            .try_fold(es as u64, |p, &c| p.checked_mul(c))
            .filter(|&b| b <= total.clamp(1 << 24, 1 << 32))
            .ok_or_else(|| Error::new("chunk larger than its dataset"))?;
        let table = self.chunk_table(h, rank)?;
        // The chunks the selection touches, by chunk coordinates.
        let mut wanted: Vec<Vec<u64>> = Vec::new();
        let ranges: Vec<(u64, u64)> = (0..rank)
            .map(|d| {
                let lo = sel.start[d] / clen[d];
                let hi = (sel.start[d] + (sel.count[d] - 1) * sel.stride[d]) / clen[d];
                (lo, hi)
            })
            .collect();
        let mut c: Vec<u64> = ranges.iter().map(|r| r.0).collect();
        'outer: loop {
            if table.contains_key(&c) {
                wanted.push(c.clone());
            }
            for d in (0..rank).rev() {
                c[d] += 1;
                if c[d] <= ranges[d].1 {
                    continue 'outer;
                }
                c[d] = ranges[d].0;
            }
            break;
        }
        for batch in wanted.chunks(BATCH) {
            let decoded: Vec<Result<Vec<u8>>> = batch
                .par_iter()
                .map(|c| {
                    let &(tag, reference) = &table[c];
                    let layout = self
                        .layout(tag, reference)?
                        .ok_or_else(|| Error::new(format!("missing chunk {reference}")))?;
                    let mut bytes = match (&layout, &h.coder) {
                        (Layout::Plain { .. } | Layout::Linked { .. }, Some(coder)) => {
                            let stored = self.read_layout(&layout, self.size())?;
                            coder.decode_bytes(&stored, chunk_bytes as usize)?
                        }
                        _ => self.read_layout(&layout, chunk_bytes)?,
                    };
                    bytes.resize(chunk_bytes as usize, 0);
                    Ok(bytes)
                })
                .collect();
            for (c, bytes) in batch.iter().zip(decoded) {
                let bytes = bytes?;
                let origin: Vec<u64> = c.iter().zip(&clen).map(|(i, l)| i * l).collect();
                let block = Block {
                    origin: &origin,
                    shape: &clen,
                    bytes: &bytes,
                };
                copy_block(&block, es, sel, out);
            }
        }
        Ok(())
    }

    /// The chunk table: chunk coordinates → (tag, ref) of the chunk's element.
    fn chunk_table(&self, h: &ChunkedHeader, rank: usize) -> Result<HashMap<Vec<u64>, (u16, u16)>> {
        let vd = self.vdata(h.table_ref)?;
        if vd.fields.len() < 3 {
            return Err(Error::new("chunk table has too few fields"));
        }
        let origins = self.vdata_field(&vd, 0)?;
        let tags = self.vdata_field(&vd, 1)?;
        let refs = self.vdata_field(&vd, 2)?;
        let n = vd.records as usize;
        if origins.len() < n * 4 * rank || tags.len() < n * 2 || refs.len() < n * 2 {
            return Err(Error::new("chunk table records are too short"));
        }
        let mut map = HashMap::with_capacity(n);
        for i in 0..n {
            let o: Vec<u64> = (0..rank)
                .map(|d| {
                    let b = &origins[(i * rank + d) * 4..][..4];
                    u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                })
                .collect();
            let tag = u16::from_be_bytes([tags[2 * i], tags[2 * i + 1]]);
            let reference = u16::from_be_bytes([refs[2 * i], refs[2 * i + 1]]);
            map.insert(o, (tag, reference));
        }
        Ok(map)
    }
}

fn fill_with(out: &mut [u8], fill: &[u8], es: usize) {
    if fill.len() == es && fill.iter().any(|&b| b != 0) {
        for e in out.chunks_exact_mut(es) {
            e.copy_from_slice(fill);
        }
    } else {
        out.fill(0);
    }
}

/// Copies the elements of `block` that `sel` selects into their places in `out`.
fn copy_block(block: &Block<'_>, es: usize, sel: &Selection, out: &mut [u8]) {
    let rank = block.shape.len();
    if rank == 0 {
        let k = es.min(block.bytes.len());
        out[..k].copy_from_slice(&block.bytes[..k]);
        return;
    }
    // Per dimension, the range of selection indices inside the block.
    let mut lo = vec![0u64; rank];
    let mut hi = vec![0u64; rank];
    for d in 0..rank {
        let b0 = block.origin[d];
        let b1 = b0 + block.shape[d]; // exclusive
        let (s, st, n) = (sel.start[d], sel.stride[d].max(1), sel.count[d]);
        let first = if b0 <= s { 0 } else { (b0 - s).div_ceil(st) };
        if b1 <= s || first >= n {
            return;
        }
        let last = ((b1 - 1 - s) / st).min(n - 1);
        if first > last {
            return;
        }
        lo[d] = first;
        hi[d] = last;
    }
    // Walk the outer dimensions; along the innermost, copy a run at once when its stride is 1.
    let last = rank - 1;
    let run = (hi[last] - lo[last] + 1) as usize;
    let mut idx = lo.clone();
    loop {
        let mut src = 0u64;
        let mut dst = 0u64;
        for (d, &i) in idx.iter().enumerate() {
            let coord = sel.start[d] + i * sel.stride[d];
            src = src * block.shape[d] + (coord - block.origin[d]);
            dst = dst * sel.count[d] + i;
        }
        let s = src as usize * es;
        let t = dst as usize * es;
        if sel.stride[last] == 1 {
            // Bytes past a short element's end stay fill.
            let n = block.bytes.len().saturating_sub(s).min(run * es) / es * es;
            if n > 0 {
                out[t..t + n].copy_from_slice(&block.bytes[s..s + n]);
            }
        } else {
            let step = sel.stride[last] as usize * es;
            for k in 0..run {
                let sk = s + k * step;
                if sk + es <= block.bytes.len() {
                    out[t + k * es..t + (k + 1) * es].copy_from_slice(&block.bytes[sk..sk + es]);
                }
            }
        }
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] <= hi[d] {
                break;
            }
            idx[d] = lo[d];
        }
    }
}
