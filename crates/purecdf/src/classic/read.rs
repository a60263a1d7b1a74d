//! Hyperslab reads of classic variables, per the file format spec, "Notes on Computing File
//! Offsets": the offset of an element is `begin` plus the inner product of its index with the
//! variable's product vector times the type size, plus `index[0] * recsize` for record variables.
//!
//! The selection is cut into runs of bytes that are contiguous in the file: the innermost dimension
//! with stride 1 together with every outer dimension that continues it exactly (including records
//! when a single record variable packs them back to back). Each run is one positional read straight
//! into the output buffer (cut into segments of 256 KiB, each swapped from big-endian in place
//! while still in cache); selections of 32 MiB or more are split between a few threads, each
//! filling its own part of the output. A small innermost stride reads the spanning bytes in
//! blocks and picks the elements out, and so do many short runs a small gap apart (the values of
//! a record variable in small records): one read of up to 1 MiB serves many runs.

use crate::error::{Error, ErrorKind, Result};
use crate::selection::Hyperslab;

use super::storage::Storage;

/// The geometry of one variable: where it starts and the byte step of each dimension.
#[derive(Debug, Clone)]
pub(crate) struct VarGeom {
    /// File offset of element 0.
    pub begin: u64,
    /// Bytes per element.
    pub xsz: usize,
    /// Bytes between consecutive indices of each dimension (record size for a record dimension).
    pub step: Vec<u64>,
}

/// One contiguous run of the selection: file offset and position in the caller's buffer.
pub(crate) struct Plan {
    /// Number of outer dimensions iterated one index at a time.
    pub outer: usize,
    /// Bytes per run (when the innermost dimension is not gathered).
    pub run: u64,
    /// Innermost stride gathered from spanning reads (elements), or 0.
    pub gather: u64,
}

/// Chooses how to cut a selection into runs.
pub(crate) fn plan(g: &VarGeom, slab: &Hyperslab) -> Plan {
    let n = slab.count.len();
    let mut k = n;
    let mut run = g.xsz as u64;
    while k > 0 {
        let i = k - 1;
        if slab.stride[i] == 1 && g.step[i] == run {
            run = run.saturating_mul(slab.count[i]);
            k = i;
        } else {
            break;
        }
    }
    let gather = if k == n && n > 0 && slab.stride[n - 1] > 1 {
        let st = slab.stride[n - 1];
        if g.step[n - 1] == g.xsz as u64 && st.saturating_mul(g.xsz as u64) <= 4096 {
            st
        } else {
            0
        }
    } else {
        0
    };
    if gather > 0 {
        return Plan {
            outer: n - 1,
            run: g.xsz as u64 * slab.count[n - 1],
            gather,
        };
    }
    Plan {
        outer: k,
        run,
        gather: 0,
    }
}

/// Visits each run: `f(file_offset, run_index)` in row-major order of the outer dimensions.
pub(crate) fn for_each_run(
    g: &VarGeom,
    slab: &Hyperslab,
    p: &Plan,
    mut f: impl FnMut(u64, usize) -> Result<()>,
) -> Result<()> {
    let overflow = || Error::with_detail(ErrorKind::Edge, "selection offset overflows");
    if slab.count.contains(&0) {
        return Ok(());
    }
    let base = base_offset(g, slab)?;
    let mut idx = vec![0u64; p.outer];
    let mut nrun = 0usize;
    loop {
        let mut off = base;
        for (i, &ix) in idx.iter().enumerate() {
            off = ix
                .checked_mul(slab.stride[i])
                .and_then(|x| x.checked_mul(g.step[i]))
                .and_then(|x| x.checked_add(off))
                .ok_or_else(overflow)?;
        }
        f(off, nrun)?;
        nrun += 1;
        // Odometer over the outer dimensions.
        let mut d = p.outer;
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < slab.count[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// Offset of the selection's first element.
fn base_offset(g: &VarGeom, slab: &Hyperslab) -> Result<u64> {
    let mut base = g.begin;
    for i in 0..slab.start.len() {
        base = slab.start[i]
            .checked_mul(g.step[i])
            .and_then(|x| x.checked_add(base))
            .ok_or_else(|| Error::with_detail(ErrorKind::Edge, "selection offset overflows"))?;
    }
    Ok(base)
}

/// File offset of run number `r` (row-major over the outer dimensions).
fn run_offset(g: &VarGeom, slab: &Hyperslab, p: &Plan, base: u64, mut r: u64) -> Result<u64> {
    let mut off = base;
    for i in (0..p.outer).rev() {
        let ix = r % slab.count[i];
        r /= slab.count[i];
        off = ix
            .checked_mul(slab.stride[i])
            .and_then(|x| x.checked_mul(g.step[i]))
            .and_then(|x| x.checked_add(off))
            .ok_or_else(|| Error::with_detail(ErrorKind::Edge, "selection offset overflows"))?;
    }
    Ok(off)
}

/// Reads output bytes `pos0 .. pos0 + out.len()` of a run-plan selection, swapping each piece
/// while it is still in cache.
fn read_part(
    st: &Storage,
    g: &VarGeom,
    slab: &Hyperslab,
    p: &Plan,
    base: u64,
    out: &mut [u8],
    pos0: usize,
) -> Result<()> {
    const SEG: usize = 256 << 10;
    let run = usize::try_from(p.run).map_err(|_| Error::new(ErrorKind::NoMem))?;
    let end = pos0 + out.len();
    let mut pos = pos0;
    while pos < end {
        let (r, within) = (pos / run, pos % run);
        let k = (run - within).min(end - pos).min(SEG);
        let off = run_offset(g, slab, p, base, r as u64)? + within as u64;
        let dst = &mut out[pos - pos0..pos - pos0 + k];
        st.read_zero_fill(off, dst)?;
        swap_in_place(dst, g.xsz);
        pos += k;
    }
    Ok(())
}

/// Reads a selection as native-endian values into `out`. Large selections are read by a few
/// threads, each filling its own part of `out` (positional reads need no shared cursor).
pub(crate) fn read(st: &Storage, g: &VarGeom, slab: &Hyperslab, out: &mut [u8]) -> Result<()> {
    if slab.count.contains(&0) || out.is_empty() {
        return Ok(());
    }
    let p = plan(g, slab);
    if p.gather > 0 {
        let run = usize::try_from(p.run).map_err(|_| Error::new(ErrorKind::NoMem))?;
        let n_inner = slab.count[slab.count.len() - 1];
        let mut block = Vec::new();
        for_each_run(g, slab, &p, |off, r| {
            let dst = &mut out[r * run..(r + 1) * run];
            gather(st, off, g.xsz, p.gather, n_inner, dst, &mut block)
        })?;
        swap_in_place(out, g.xsz);
        return Ok(());
    }
    if let Some(span) = coalesce_span(g, slab, &p) {
        return read_coalesced(st, g, slab, &p, span, out);
    }
    let base = base_offset(g, slab)?;
    const PARALLEL_FROM: usize = 32 << 20;
    let threads = if out.len() >= PARALLEL_FROM {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
    } else {
        1
    };
    if threads <= 1 {
        return read_part(st, g, slab, &p, base, out, 0);
    }
    // Equal parts, each a multiple of 8 bytes so no element is split.
    let part = out.len().div_ceil(threads).div_ceil(8) * 8;
    std::thread::scope(|sc| {
        let handles: Vec<_> = out
            .chunks_mut(part)
            .enumerate()
            .map(|(i, chunk)| {
                let p = &p;
                sc.spawn(move || read_part(st, g, slab, p, base, chunk, i * part))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(Error::new(ErrorKind::Io))))
            .collect::<Result<Vec<()>>>()
    })?;
    Ok(())
}

/// Bytes of one coalesced read.
const COALESCE_BLOCK: u64 = 1 << 20;

/// Whether a selection's runs lie close enough together to be read in shared blocks (many short
/// runs a small gap apart, as a record variable's values are in records of a few bytes): the
/// bytes from the first run to the end of the last when so.
///
/// Reading the gaps too costs at most 32 bytes per byte wanted, or a gap of at most one page,
/// which a read of its own would cost anyway.
fn coalesce_span(g: &VarGeom, slab: &Hyperslab, p: &Plan) -> Option<(u64, u64)> {
    if p.outer == 0 || p.run >= 64 << 10 {
        return None;
    }
    let runs = slab.count[..p.outer]
        .iter()
        .try_fold(1u64, |a, c| a.checked_mul(*c))?;
    let d = p.outer - 1;
    let gap = g.step[d].checked_mul(slab.stride[d])?;
    if runs < 8 || gap <= p.run || (gap > 4096 && gap / p.run > 32) {
        return None;
    }
    let base = base_offset(g, slab).ok()?;
    let last = run_offset(g, slab, p, base, runs - 1).ok()?;
    Some((base, last.checked_add(p.run)?))
}

/// Reads the runs of `span` through one block buffer: each block read starts at the first run
/// it must hold and covers the following ones up to [`COALESCE_BLOCK`] bytes.
fn read_coalesced(
    st: &Storage,
    g: &VarGeom,
    slab: &Hyperslab,
    p: &Plan,
    span: (u64, u64),
    out: &mut [u8],
) -> Result<()> {
    let run = usize::try_from(p.run).map_err(|_| Error::new(ErrorKind::NoMem))?;
    let mut block: Vec<u8> = Vec::new();
    let mut block_at = 0u64;
    for_each_run(g, slab, p, |off, r| {
        let end = off + p.run;
        if block.is_empty() || off < block_at || end > block_at + block.len() as u64 {
            let len = COALESCE_BLOCK.min(span.1.saturating_sub(off)).max(p.run);
            block.resize(len as usize, 0);
            st.read_zero_fill(off, &mut block)?;
            block_at = off;
        }
        let at = (off - block_at) as usize;
        out[r * run..(r + 1) * run].copy_from_slice(&block[at..at + run]);
        Ok(())
    })?;
    swap_in_place(out, g.xsz);
    Ok(())
}

/// Reads `n` elements `stride` apart starting at `off` by reading the spanning bytes in blocks.
fn gather(
    st: &Storage,
    off: u64,
    xsz: usize,
    stride: u64,
    n: u64,
    dst: &mut [u8],
    block: &mut Vec<u8>,
) -> Result<()> {
    const BLOCK: u64 = 1 << 22;
    let per_block = (BLOCK / (stride * xsz as u64)).max(1);
    let mut done = 0u64;
    while done < n {
        let k = per_block.min(n - done);
        let span = ((k - 1) * stride + 1) * xsz as u64;
        block.resize(span as usize, 0);
        st.read_zero_fill(off + done * stride * xsz as u64, block)?;
        let out = &mut dst[(done as usize) * xsz..((done + k) as usize) * xsz];
        let step = stride as usize * xsz;
        for (e, o) in out.chunks_exact_mut(xsz).enumerate() {
            o.copy_from_slice(&block[e * step..e * step + xsz]);
        }
        done += k;
    }
    Ok(())
}

/// Converts big-endian values of `size` bytes to native order in place (no-op on big-endian).
pub(crate) fn swap_in_place(buf: &mut [u8], size: usize) {
    if cfg!(target_endian = "big") {
        return;
    }
    match size {
        2 => {
            for c in buf.chunks_exact_mut(2) {
                c.swap(0, 1);
            }
        }
        4 => {
            for c in buf.chunks_exact_mut(4) {
                let v = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
                c.copy_from_slice(&v.to_ne_bytes());
            }
        }
        8 => {
            for c in buf.chunks_exact_mut(8) {
                let mut a = [0u8; 8];
                a.copy_from_slice(c);
                c.copy_from_slice(&u64::from_be_bytes(a).to_ne_bytes());
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_contiguous_dimensions() {
        // A fixed float[4][5]: whole rows merge into one run.
        let g = VarGeom {
            begin: 100,
            xsz: 4,
            step: vec![20, 4],
        };
        let whole = Hyperslab::whole(&[4, 5]);
        let p = plan(&g, &whole);
        assert_eq!((p.outer, p.run, p.gather), (0, 80, 0));
        let part = Hyperslab {
            start: vec![1, 1],
            count: vec![2, 3],
            stride: vec![1, 1],
        };
        let p = plan(&g, &part);
        assert_eq!((p.outer, p.run), (1, 12));
        let mut offs = Vec::new();
        for_each_run(&g, &part, &p, |o, _| {
            offs.push(o);
            Ok(())
        })
        .unwrap();
        assert_eq!(offs, vec![124, 144]);
        let strided = Hyperslab {
            start: vec![0, 0],
            count: vec![4, 3],
            stride: vec![1, 2],
        };
        let p = plan(&g, &strided);
        assert_eq!((p.outer, p.gather), (1, 2));
    }

    #[test]
    fn wide_strides_read_element_by_element() {
        // Stride 1100 on 4-byte values: too wide to gather, one read per element.
        let data: Vec<u8> = (0..20_000u32).flat_map(|i| i.to_be_bytes()).collect();
        let st = Storage::Mem(data);
        let g = VarGeom {
            begin: 0,
            xsz: 4,
            step: vec![4],
        };
        let slab = Hyperslab {
            start: vec![7],
            count: vec![4],
            stride: vec![1100],
        };
        let p = plan(&g, &slab);
        assert_eq!((p.outer, p.gather, p.run), (1, 0, 4));
        let mut out = vec![0u8; 16];
        read(&st, &g, &slab, &mut out).unwrap();
        let vals: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(vals, vec![7, 1107, 2207, 3307]);
    }

    #[test]
    fn strided_read_from_memory() {
        let data: Vec<u8> = (0u8..40).collect();
        let st = Storage::Mem(data);
        let g = VarGeom {
            begin: 0,
            xsz: 2,
            step: vec![10, 2],
        };
        let slab = Hyperslab {
            start: vec![1, 1],
            count: vec![2, 2],
            stride: vec![2, 3],
        };
        let mut out = vec![0u8; 8];
        read(&st, &g, &slab, &mut out).unwrap();
        let vals: Vec<u16> = out
            .chunks_exact(2)
            .map(|c| u16::from_ne_bytes([c[0], c[1]]))
            .collect();
        let be = |i: u8| u16::from_be_bytes([i, i + 1]);
        assert_eq!(vals, vec![be(12), be(18), be(32), be(38)]);
    }

    #[test]
    fn small_records_are_read_in_shared_blocks() {
        // Record variables of 4-byte values in 12-byte records (three variables), 300,000
        // records: more than one coalesced block. Every selection must read what a run-by-run
        // read gives.
        let nrec = 300_000u32;
        let data: Vec<u8> = (0..nrec * 3).flat_map(|i| i.to_be_bytes()).collect();
        let st = Storage::Mem(data);
        for var in 0..3u32 {
            let g = VarGeom {
                begin: u64::from(var) * 4,
                xsz: 4,
                step: vec![12],
            };
            for (start, count, stride) in
                [(0, nrec, 1), (5, 1000, 3), (nrec - 9, 9, 1), (2, 7, 40_000)]
            {
                let slab = Hyperslab {
                    start: vec![u64::from(start)],
                    count: vec![u64::from(count)],
                    stride: vec![u64::from(stride)],
                };
                let coalesced = coalesce_span(&g, &slab, &plan(&g, &slab)).is_some();
                assert_eq!(coalesced, stride < 40_000, "{start} {count} {stride}");
                let mut out = vec![0u8; count as usize * 4];
                read(&st, &g, &slab, &mut out).unwrap();
                let vals: Vec<u32> = out
                    .chunks_exact(4)
                    .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let want: Vec<u32> = (0..count).map(|k| (start + k * stride) * 3 + var).collect();
                assert_eq!(vals, want, "var {var} {start} {count} {stride}");
            }
        }
    }
}
