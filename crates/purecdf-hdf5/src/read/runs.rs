//! Dataspace selections (HDF5 File Format Specification v3.0, section IV.A.2.i, the selection
//! encodings of a virtual dataset's mappings) as runs of consecutive elements of a row-major
//! dataspace, in the order HDF5 visits them: row-major for hyperslabs and "all", the listed order
//! for points. Unlimited hyperslabs are first clipped to an extent, as HDF5 clips them.

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::vds::{HyperDim, Selection, UNLIMITED};

/// A run: first element (row-major offset) and number of elements.
pub(crate) type Run = (u64, u64);

fn err(v: u64) -> FormatError {
    FormatError::new(
        FormatErrorKind::InvalidValue(v),
        0,
        "virtual dataset selection",
    )
}

/// The selected indices of one regular hyperslab dimension, as sorted disjoint intervals
/// `[first, end)`, limited to `extent`.
fn intervals(h: &HyperDim, extent: u64, limit: u64) -> FormatResult<Vec<(u64, u64)>> {
    if h.count == 0 || h.block == 0 {
        return Ok(Vec::new());
    }
    if h.count > 1 && h.stride < h.block {
        // Overlapping blocks: HDF5 refuses such hyperslabs.
        return Err(err(h.stride));
    }
    if h.count == 1 || h.stride == h.block {
        // One interval.
        let len = h.count.saturating_mul(h.block);
        let end = h.start.saturating_add(len).min(extent);
        return Ok(if h.start < end {
            vec![(h.start, end)]
        } else {
            Vec::new()
        });
    }
    // Blocks with gaps between them: each one is an interval, bounded by `limit`.
    let mut out: Vec<(u64, u64)> = Vec::new();
    let mut c = 0u64;
    while c < h.count {
        let Some(first) = c.checked_mul(h.stride).and_then(|o| o.checked_add(h.start)) else {
            break;
        };
        if first >= extent {
            break;
        }
        let end = first.saturating_add(h.block).min(extent);
        match out.last_mut() {
            Some(l) if l.1 == first => l.1 = end,
            _ => {
                if out.len() as u64 >= limit {
                    return Err(err(limit));
                }
                out.push((first, end));
            }
        }
        c += 1;
        if h.stride == 0 {
            break;
        }
    }
    Ok(out)
}

/// Number of selected indices along one dimension of a regular hyperslab below `extent`.
pub(crate) fn selected_below(h: &HyperDim, extent: u64) -> u64 {
    if h.count == 0 || h.block == 0 || extent <= h.start {
        return 0;
    }
    let span = extent - h.start;
    if h.block == UNLIMITED || h.count == 1 {
        return span.min(h.block);
    }
    let stride = h.stride.max(1);
    let full = span / stride;
    let blocks = full.min(h.count);
    let mut n = blocks.saturating_mul(h.block);
    if blocks < h.count {
        n = n.saturating_add((span % stride).min(h.block));
    }
    n
}

/// The smallest extent below which one dimension of a regular hyperslab selects `n` indices (the
/// end of the `n`-th selected index; 0 when `n` is 0).
pub(crate) fn extent_for(h: &HyperDim, n: u64) -> u64 {
    if n == 0 || h.block == 0 {
        return 0;
    }
    if h.block == UNLIMITED || h.count == 1 {
        return h.start.saturating_add(n);
    }
    let b = (n - 1) / h.block;
    let within = (n - 1) % h.block;
    h.start
        .saturating_add(b.saturating_mul(h.stride))
        .saturating_add(within + 1)
}

/// The runs of `sel` in a dataspace of `dims`, in HDF5's order. Elements outside `dims` are an
/// error (unlimited counts and blocks are clipped to `dims` first); more than `limit` elements
/// too.
pub(crate) fn runs(sel: &Selection, dims: &[u64], limit: u64) -> FormatResult<Vec<Run>> {
    let total = dims.iter().try_fold(1u64, |a, d| a.checked_mul(*d));
    let total = total.ok_or_else(|| err(u64::MAX))?;
    let rank = dims.len();
    let check_rank = |r: usize| {
        if r == rank {
            Ok(())
        } else {
            Err(err(r as u64))
        }
    };
    let mut out: Vec<Run> = Vec::new();
    match sel {
        Selection::None => {}
        Selection::All => {
            if total > limit {
                return Err(err(total));
            }
            if total > 0 {
                out.push((0, total));
            }
        }
        Selection::Points { rank: r, points } => {
            check_rank(*r)?;
            for p in points {
                let mut lin = 0u64;
                for (x, d) in p.iter().zip(dims) {
                    if x >= d {
                        return Err(err(*x));
                    }
                    lin = lin * d + x;
                }
                out.push((lin, 1));
            }
        }
        Selection::Regular(hs) => {
            check_rank(hs.len())?;
            let mut per_dim = Vec::with_capacity(rank);
            let mut n = 1u64;
            for (h, d) in hs.iter().zip(dims) {
                let iv = intervals(h, *d, limit)?;
                // A finite selection reaching past the extent is an error; unlimited ones clip.
                let want = if h.count == UNLIMITED || h.block == UNLIMITED {
                    None
                } else {
                    h.count.checked_mul(h.block)
                };
                let got: u64 = iv.iter().map(|(a, b)| b - a).sum();
                if want.is_some_and(|w| w != got) {
                    return Err(err(h.start));
                }
                n = n.saturating_mul(got);
                per_dim.push(iv);
            }
            if n > limit {
                return Err(err(n));
            }
            product_runs(&per_dim, dims, &mut out);
        }
        Selection::Blocks { rank: r, blocks } => {
            check_rank(*r)?;
            let mut n = 0u64;
            for (lo, hi) in blocks {
                if hi.iter().zip(dims).any(|(h, d)| h >= d) {
                    return Err(err(0));
                }
                let size = lo
                    .iter()
                    .zip(hi)
                    .fold(1u64, |a, (l, h)| a.saturating_mul(h - l + 1));
                n = n.saturating_add(size);
                if n > limit {
                    return Err(err(n));
                }
                let per_dim: Vec<Vec<(u64, u64)>> =
                    lo.iter().zip(hi).map(|(l, h)| vec![(*l, h + 1)]).collect();
                product_runs(&per_dim, dims, &mut out);
            }
            out.sort_unstable();
            let mut merged: Vec<Run> = Vec::with_capacity(out.len());
            for (o, l) in out {
                match merged.last_mut() {
                    Some(m) if o <= m.0 + m.1 => m.1 = m.1.max(o + l - m.0),
                    _ => merged.push((o, l)),
                }
            }
            out = merged;
        }
    }
    Ok(out)
}

/// Appends the runs of the cartesian product of per-dimension intervals, row-major, merging
/// runs that touch.
fn product_runs(per_dim: &[Vec<(u64, u64)>], dims: &[u64], out: &mut Vec<Run>) {
    let rank = dims.len();
    if per_dim.iter().any(Vec::is_empty) {
        return;
    }
    let last = rank - 1;
    // Current index within each of the outer dimensions: (interval number, position).
    let mut pos: Vec<(usize, u64)> = per_dim[..last].iter().map(|iv| (0, iv[0].0)).collect();
    loop {
        let mut row = 0u64;
        for d in 0..last {
            row = row * dims[d] + pos[d].1;
        }
        let base = row * dims[last];
        for &(a, b) in &per_dim[last] {
            let (o, l) = (base + a, b - a);
            match out.last_mut() {
                Some(m) if m.0 + m.1 == o => m.1 += l,
                _ => out.push((o, l)),
            }
        }
        // Advance the outer index, last outer dimension fastest.
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            let (k, p) = &mut pos[d];
            *p += 1;
            if *p >= per_dim[d][*k].1 {
                *k += 1;
                if *k < per_dim[d].len() {
                    *p = per_dim[d][*k].0;
                    break;
                }
                *k = 0;
                *p = per_dim[d][0].0;
                continue;
            }
            break;
        }
    }
}

/// Number of elements in a list of runs.
pub(crate) fn count(runs: &[Run]) -> u64 {
    runs.iter().fold(0u64, |a, r| a.saturating_add(r.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(start: u64, stride: u64, count: u64, block: u64) -> HyperDim {
        HyperDim {
            start,
            stride,
            count,
            block,
        }
    }

    #[test]
    fn hyperslab_runs() {
        let s = Selection::Regular(vec![h(1, 2, 2, 1), h(0, 2, UNLIMITED, 1)]);
        // Rows 1 and 3 of a 4×5 space, every other column.
        assert_eq!(
            runs(&s, &[4, 5], 100).unwrap(),
            [(5, 1), (7, 1), (9, 1), (15, 1), (17, 1), (19, 1)]
        );
        let whole_rows = Selection::Regular(vec![h(1, 1, 2, 1), h(0, 1, 1, 5)]);
        assert_eq!(runs(&whole_rows, &[4, 5], 100).unwrap(), [(5, 10)]);
        // A finite selection past the extent is refused; so is one above the limit.
        assert!(runs(&whole_rows, &[2, 5], 100).is_err());
        assert!(runs(&whole_rows, &[4, 5], 9).is_err());
        let blocks = Selection::Blocks {
            rank: 2,
            blocks: vec![(vec![0, 3], vec![1, 4]), (vec![0, 0], vec![0, 1])],
        };
        assert_eq!(
            runs(&blocks, &[4, 5], 100).unwrap(),
            [(0, 2), (3, 2), (8, 2)]
        );
    }

    #[test]
    fn clipping() {
        let u = h(2, 3, UNLIMITED, 2);
        assert_eq!(selected_below(&u, 2), 0);
        assert_eq!(selected_below(&u, 3), 1);
        assert_eq!(selected_below(&u, 9), 5);
        assert_eq!(extent_for(&u, 4), 7);
        assert_eq!(extent_for(&u, 3), 6);
        assert_eq!(extent_for(&h(0, 1, 1, UNLIMITED), 7), 7);
    }
}
