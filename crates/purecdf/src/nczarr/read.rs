//! Reading a hyperslab of a Zarr array: find the chunks it touches, fetch and decode them in
//! parallel, and copy the selected elements out (Zarr v2 spec, "Chunk storage": a chunk's key is
//! its grid coordinates joined by the dimension separator; every chunk is stored whole, edge
//! chunks included; a missing chunk is all fill value; `order` "C" or "F" lays out its
//! elements).

use rayon::prelude::*;

use super::meta::ArrayMeta;
use crate::error::{Error, ErrorKind, Result};
use crate::selection::Hyperslab;

/// The part of a hyperslab inside one chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ChunkPart {
    /// The chunk's grid coordinates.
    pub(crate) coords: Vec<u64>,
    /// Per dimension, the range of selection indices (0..count) that fall in the chunk.
    pub(crate) ranges: Vec<(u64, u64)>,
}

/// The chunks a selection touches, each with the selection indices inside it.
pub(crate) fn chunk_parts(chunks: &[u64], slab: &Hyperslab) -> Vec<ChunkPart> {
    if slab.count.contains(&0) {
        return Vec::new();
    }
    // Per dimension: (chunk coordinate, first index, end index) runs.
    let per_dim: Vec<Vec<(u64, u64, u64)>> = chunks
        .iter()
        .enumerate()
        .map(|(d, &c)| {
            let (start, count, stride) = (slab.start[d], slab.count[d], slab.stride[d].max(1));
            let mut runs: Vec<(u64, u64, u64)> = Vec::new();
            let mut i = 0u64;
            while i < count {
                let pos = start + i * stride;
                let coord = pos / c;
                // The last selection index still inside this chunk.
                let chunk_end = (coord + 1) * c; // exclusive position
                let last = ((chunk_end - 1 - start) / stride).min(count - 1);
                runs.push((coord, i, last + 1));
                i = last + 1;
            }
            runs
        })
        .collect();
    let mut parts = Vec::new();
    let rank = chunks.len();
    let mut idx = vec![0usize; rank];
    loop {
        parts.push(ChunkPart {
            coords: (0..rank).map(|d| per_dim[d][idx[d]].0).collect(),
            ranges: (0..rank)
                .map(|d| (per_dim[d][idx[d]].1, per_dim[d][idx[d]].2))
                .collect(),
        });
        let mut d = rank;
        loop {
            if d == 0 {
                return parts;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < per_dim[d].len() {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// The store key of a chunk.
pub(crate) fn chunk_key(meta: &ArrayMeta, coords: &[u64]) -> String {
    let sep = meta.separator.to_string();
    let joined = coords
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(&sep);
    let name = match (meta.v3_keys, coords.is_empty()) {
        (true, true) => "c".to_string(),
        (true, false) => format!("c{sep}{joined}"),
        (false, true) => "0".to_string(),
        (false, false) => joined,
    };
    if meta.key.is_empty() {
        name
    } else {
        format!("{}/{name}", meta.key)
    }
}

/// Calls `copy(out_index, chunk_index, run)` for every run of selected elements of `part`:
/// `run` consecutive elements starting at those indices in the output and in the chunk
/// (runs are longer than one element only along a contiguous innermost dimension).
pub(crate) fn for_each_run(
    meta: &ArrayMeta,
    slab: &Hyperslab,
    part: &ChunkPart,
    mut copy: impl FnMut(usize, usize, usize),
) {
    let rank = part.coords.len();
    if rank == 0 {
        copy(0, 0, 1);
        return;
    }
    let chunk_strides = meta.chunk_strides();
    let mut out_strides = vec![1u64; rank];
    for d in (0..rank.saturating_sub(1)).rev() {
        out_strides[d] = out_strides[d + 1] * slab.count[d + 1];
    }
    let local = |d: usize, i: u64| {
        slab.start[d] + i * slab.stride[d].max(1) - part.coords[d] * meta.chunks[d]
    };
    let last = rank - 1;
    let (i0, i1) = part.ranges[last];
    let contiguous = slab.stride[last] <= 1 && chunk_strides[last] == 1;
    let mut idx: Vec<u64> = part.ranges.iter().map(|r| r.0).collect();
    loop {
        let mut out_base = 0u64;
        let mut chunk_base = 0u64;
        for d in 0..last {
            out_base += idx[d] * out_strides[d];
            chunk_base += local(d, idx[d]) * chunk_strides[d];
        }
        if contiguous {
            copy(
                (out_base + i0) as usize,
                (chunk_base + local(last, i0)) as usize,
                (i1 - i0) as usize,
            );
        } else {
            for i in i0..i1 {
                copy(
                    (out_base + i) as usize,
                    (chunk_base + local(last, i) * chunk_strides[last]) as usize,
                    1,
                );
            }
        }
        // Next index over the outer dimensions.
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < part.ranges[d].1 {
                break;
            }
            idx[d] = part.ranges[d].0;
        }
    }
}

/// How many chunks are decoded at once (bounds memory; each batch is decoded in parallel).
const BATCH: usize = 64;

/// Fetches and decodes chunks in parallel batches, handing each decoded chunk (or `None` for a
/// missing one) to `scatter` in order.
pub(crate) fn for_each_chunk<T: Send>(
    parts: &[ChunkPart],
    decode: impl Fn(&ChunkPart) -> Result<Option<T>> + Sync,
    mut scatter: impl FnMut(&ChunkPart, Option<T>) -> Result<()>,
) -> Result<()> {
    for batch in parts.chunks(BATCH) {
        let decoded: Vec<Result<Option<T>>> = if batch.len() == 1 {
            vec![decode(&batch[0])]
        } else {
            batch.par_iter().map(&decode).collect()
        };
        for (part, d) in batch.iter().zip(decoded) {
            scatter(part, d?)?;
        }
    }
    Ok(())
}

/// Where a chunk lands in the output when all its elements are selected and they form one run
/// of the output (C order, the selection covering the chunk's whole extent in every dimension
/// inside its outermost non-unit one): the run's first element.
fn direct_target(meta: &ArrayMeta, slab: &Hyperslab, part: &ChunkPart) -> Option<u64> {
    let rank = part.coords.len();
    if rank == 0 || meta.fortran && meta.chunks.iter().filter(|c| **c > 1).count() > 1 {
        return None;
    }
    let whole = (0..rank).all(|d| {
        slab.stride[d] <= 1
            && part.ranges[d].1 - part.ranges[d].0 == meta.chunks[d]
            && slab.start[d] + part.ranges[d].0 == part.coords[d] * meta.chunks[d]
    });
    let outer = meta.chunks.iter().position(|c| *c > 1).unwrap_or(rank);
    if !whole || (outer + 1..rank).any(|d| slab.count[d] != meta.chunks[d]) {
        return None;
    }
    let mut offset = 0u64;
    for d in 0..rank {
        offset = offset * slab.count[d] + part.ranges[d].0;
    }
    Some(offset)
}

/// Reads a hyperslab of a fixed-size array as native-endian elements into `out`.
/// `chunk_into(coords, dst)` decodes a chunk's elements into `dst` (exactly one chunk's
/// bytes) and answers false for a missing chunk (read as the fill value).
///
/// A chunk that lands whole in one run of the output is decoded straight into it, in parallel
/// with the others; the rest are decoded in parallel batches into buffers and their selected
/// elements copied out.
pub(crate) fn read_raw(
    meta: &ArrayMeta,
    slab: &Hyperslab,
    out: &mut [u8],
    chunk_into: impl Fn(&[u64], &mut [u8]) -> Result<bool> + Sync,
) -> Result<()> {
    let es = meta
        .dtype
        .stored_size()
        .ok_or_else(|| Error::new(ErrorKind::BadType))?;
    let chunk_bytes = meta.chunk_elements() * es;
    let parts = chunk_parts(&meta.chunks, slab);
    let fill = meta.fill_bytes();
    let fill_all = |dst: &mut [u8]| {
        for e in dst.chunks_exact_mut(es) {
            e.copy_from_slice(&fill);
        }
    };
    let (mut direct, mut rest) = (Vec::new(), Vec::new());
    for part in parts {
        match direct_target(meta, slab, &part) {
            Some(at) => direct.push((at as usize * es, part)),
            None => rest.push(part),
        }
    }
    // The direct chunks' runs are disjoint: cut `out` into them, in output order.
    direct.sort_by_key(|(at, _)| *at);
    let mut targets: Vec<(&mut [u8], &ChunkPart)> = Vec::with_capacity(direct.len());
    let mut tail: &mut [u8] = out;
    let mut pos = 0usize;
    for (at, part) in &direct {
        let at = *at;
        let (_, after) = std::mem::take(&mut tail).split_at_mut(at - pos);
        let (dst, after) = after.split_at_mut(chunk_bytes);
        targets.push((dst, part));
        tail = after;
        pos = at + chunk_bytes;
    }
    let decode_direct = |(dst, part): (&mut [u8], &ChunkPart)| -> Result<()> {
        if !chunk_into(&part.coords, dst)? {
            fill_all(dst);
        }
        Ok(())
    };
    if targets.len() <= 1 || rayon::current_num_threads() <= 1 {
        targets.into_iter().try_for_each(decode_direct)?;
    } else {
        targets.into_par_iter().try_for_each(decode_direct)?;
    }
    if rest.is_empty() {
        return Ok(());
    }
    for_each_chunk(
        &rest,
        |part| {
            let mut buf = vec![0u8; chunk_bytes];
            Ok(chunk_into(&part.coords, &mut buf)?.then_some(buf))
        },
        |part, chunk| {
            match &chunk {
                Some(c) => for_each_run(meta, slab, part, |o, i, n| {
                    out[o * es..(o + n) * es].copy_from_slice(&c[i * es..(i + n) * es]);
                }),
                None => for_each_run(meta, slab, part, |o, _, n| {
                    fill_all(&mut out[o * es..(o + n) * es]);
                }),
            }
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slab(start: &[u64], count: &[u64], stride: &[u64]) -> Hyperslab {
        Hyperslab {
            start: start.to_vec(),
            count: count.to_vec(),
            stride: stride.to_vec(),
        }
    }

    #[test]
    fn parts_cover_the_selection_once() {
        // Chunks of 4; positions 1, 4, 7 (stride 3): one in chunk 0, two in chunk 1.
        let p = chunk_parts(&[4], &slab(&[1], &[3], &[3]));
        let got: Vec<_> = p.iter().map(|p| (p.coords[0], p.ranges[0])).collect();
        assert_eq!(got, vec![(0, (0, 1)), (1, (1, 3))]);
        // A stride longer than a chunk skips chunks: positions 0, 9 with chunks of 4.
        let p = chunk_parts(&[4], &slab(&[0], &[2], &[9]));
        let got: Vec<_> = p.iter().map(|p| (p.coords[0], p.ranges[0])).collect();
        assert_eq!(got, vec![(0, (0, 1)), (2, (1, 2))]);
        // Two dimensions: rows 1..3 of chunks 2 high, columns 0..5 of chunks 3 wide.
        let p = chunk_parts(&[2, 3], &slab(&[1, 0], &[2, 5], &[1, 1]));
        let got: Vec<_> = p
            .iter()
            .map(|p| (p.coords.clone(), p.ranges.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                (vec![0, 0], vec![(0, 1), (0, 3)]),
                (vec![0, 1], vec![(0, 1), (3, 5)]),
                (vec![1, 0], vec![(1, 2), (0, 3)]),
                (vec![1, 1], vec![(1, 2), (3, 5)]),
            ]
        );
        assert!(chunk_parts(&[4], &slab(&[0], &[0], &[1])).is_empty());
    }

    /// A 3-d array of `u16` with chunks in C or Fortran order, whose
    /// chunk (1, 1, 0) is missing (fill 0xFFFF): every selection reads what an element-by-
    /// element walk gives, whether its chunks go straight into the output or through a buffer.
    #[test]
    fn reads_match_an_element_walk() {
        let shape = [3u64, 6, 7];
        let value = |i: [u64; 3]| (i[0] * 100 + i[1] * 10 + i[2]) as u16;
        for (chunks, fortran) in [
            ([1u64, 3, 4], false),
            ([2, 3, 1], true),
            ([1, 3, 4], true),
            ([1, 1, 7], true),
        ] {
            let meta = ArrayMeta {
                key: String::new(),
                shape: shape.to_vec(),
                chunks: chunks.to_vec(),
                dtype: super::super::dtype::Dtype::Number {
                    typ: crate::NcType::UShort,
                    big_endian: false,
                },
                fill: super::super::meta::Fill::Bytes(0xFFFFu16.to_ne_bytes().to_vec()),
                fortran,
                separator: '.',
                v3_keys: false,
                chain: Default::default(),
                sharding: None,
                zarray: Default::default(),
            };
            let missing = [1u64, 1, 0];
            let chunk_into = |c: &[u64], dst: &mut [u8]| -> Result<bool> {
                if c == missing {
                    return Ok(false);
                }
                let strides = meta.chunk_strides();
                let mut i = [0u64; 3];
                for (k, e) in dst.chunks_exact_mut(2).enumerate() {
                    // The element's position in the chunk, from its index in the layout.
                    let k = k as u64;
                    for d in 0..3 {
                        i[d] = c[d] * chunks[d] + k / strides[d] % chunks[d];
                    }
                    e.copy_from_slice(&value(i).to_ne_bytes());
                }
                Ok(true)
            };
            let selections = [
                slab(&[0, 0, 0], &[3, 6, 7], &[1, 1, 1]),
                slab(&[1, 0, 0], &[2, 6, 7], &[1, 1, 1]),
                slab(&[0, 3, 0], &[3, 3, 7], &[1, 1, 1]),
                slab(&[0, 0, 4], &[3, 6, 3], &[1, 1, 1]),
                slab(&[2, 1, 1], &[1, 4, 5], &[1, 1, 1]),
                slab(&[0, 0, 0], &[2, 3, 4], &[2, 2, 2]),
                slab(&[1, 3, 0], &[1, 3, 4], &[1, 1, 1]),
                slab(&[0, 0, 0], &[3, 6, 4], &[1, 1, 1]),
                slab(&[1, 0, 0], &[2, 6, 1], &[1, 1, 1]),
            ];
            let direct: usize = selections
                .iter()
                .map(|sel| {
                    let parts = chunk_parts(&chunks, sel);
                    parts
                        .iter()
                        .filter(|p| direct_target(&meta, sel, p).is_some())
                        .count()
                })
                .sum();
            // Fortran-ordered chunks with more than one non-unit dimension never land whole.
            let layout_c = !fortran || chunks.iter().filter(|c| **c > 1).count() <= 1;
            assert_eq!(direct > 4, layout_c, "chunks {chunks:?}: {direct} direct");
            for sel in selections {
                let n: u64 = sel.count.iter().product();
                let mut out = vec![0u8; n as usize * 2];
                read_raw(&meta, &sel, &mut out, chunk_into).unwrap();
                let mut want = Vec::new();
                for a in 0..sel.count[0] {
                    for b in 0..sel.count[1] {
                        for c in 0..sel.count[2] {
                            let i = [
                                sel.start[0] + a * sel.stride[0],
                                sel.start[1] + b * sel.stride[1],
                                sel.start[2] + c * sel.stride[2],
                            ];
                            let chunk: Vec<u64> = (0..3).map(|d| i[d] / chunks[d]).collect();
                            let v = if chunk == missing { 0xFFFF } else { value(i) };
                            want.extend(v.to_ne_bytes());
                        }
                    }
                }
                assert_eq!(out, want, "chunks {chunks:?} fortran {fortran} {sel:?}");
            }
        }
    }
}
