//! Reading virtual datasets (HDF5 File Format Specification v3.0, section IV.A.2.i, the Data
//! Layout message, layout class 3): each mapping copies the elements a selection picks in a
//! source dataset to the elements another selection picks in the virtual one, in order; what no
//! mapping covers, and what a missing source file or dataset would have covered, reads as the
//! virtual dataset's fill value, as HDF5 reads it.
//!
//! Mappings come in three kinds, as in HDF5: fixed ones; unlimited ones, whose source and
//! virtual selections both extend without bound and are clipped to the source's current
//! extent; and "printf" ones, whose virtual selection repeats a block without bound and whose
//! source names hold `%b`, replaced by the block number (`%%` stands for `%`). HDF5's default
//! view is used: the unlimited extent of a virtual dataset goes as far as the last source
//! available, and printf sources are looked for until the first missing one.
//!
//! Sources are found as [`crate::read::family`] describes; a source that is itself virtual is
//! read the same way, [`MAX_DEPTH`] levels deep at most (a virtual dataset that reads itself is
//! an error, not a hang).

use std::cell::Cell;
use std::sync::Arc;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::global_heap::{GlobalHeapCollection, GlobalHeapId};
use crate::format::messages::dataspace::Dataspace;
use crate::format::messages::datatype::Datatype;
use crate::format::vds::{parse_mappings, HyperDim, Mapping, Selection, UNLIMITED};
use crate::read::dataset::Dataset;
use crate::read::family::Referrer;
use crate::read::runs::{count, extent_for, runs, selected_below, Run};
use crate::read::Hdf5File;

/// Deepest nesting of virtual datasets reading one another.
pub(crate) const MAX_DEPTH: u32 = 8;
/// Most printf blocks looked for in one mapping.
const MAX_PRINTF_BLOCKS: u64 = 1 << 14;
/// Most source datasets opened for one top-level operation (extent, read) on a virtual dataset,
/// nested ones included: bounds the work a file whose virtual datasets read one another many
/// times over can ask for.
const MAX_SOURCE_OPENS: u32 = 1 << 14;

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    static OPENS: Cell<u32> = const { Cell::new(0) };
}

/// Starts a new source-open budget when called outside any nested virtual read.
fn top_level() {
    if DEPTH.with(Cell::get) == 0 {
        OPENS.with(|c| c.set(0));
    }
}

/// Runs `f` one virtual level deeper, or fails past [`MAX_DEPTH`].
fn nested<T>(at: u64, f: impl FnOnce() -> FormatResult<T>) -> FormatResult<T> {
    let d = DEPTH.with(Cell::get);
    if d >= MAX_DEPTH {
        return Err(FormatError::new(
            FormatErrorKind::LimitExceeded(u64::from(MAX_DEPTH)),
            at,
            "virtual dataset nesting",
        ));
    }
    DEPTH.with(|c| c.set(d + 1));
    let r = f();
    DEPTH.with(|c| c.set(d));
    r
}

fn bad(v: u64, at: u64) -> FormatError {
    FormatError::new(FormatErrorKind::InvalidValue(v), at, "virtual dataset")
}

/// The mappings kept in the global heap object a virtual layout names.
pub(crate) fn load_mappings(file: &Hdf5File, heap: GlobalHeapId) -> FormatResult<Vec<Mapping>> {
    let sizes = file.sizes();
    let col = GlobalHeapCollection::read(file.source(), heap.collection, sizes)?;
    let obj = col
        .object(heap.index)
        .ok_or_else(|| bad(u64::from(heap.index), heap.collection))?;
    parse_mappings(obj, heap.collection, sizes)
}

/// The one unlimited dimension of a regular hyperslab, if any.
fn unlimited_dim(s: &Selection) -> Option<(usize, HyperDim)> {
    match s {
        Selection::Regular(d) => d
            .iter()
            .position(|h| h.count == UNLIMITED || h.block == UNLIMITED)
            .map(|i| (i, d[i])),
        _ => None,
    }
}

/// A printf-style name with block number `b`: `%b` replaced, `%%` made `%`.
fn printf_name(name: &str, b: u64) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    let mut it = name.chars().peekable();
    while let Some(c) = it.next() {
        if c == '%' {
            match it.peek() {
                Some('b') => {
                    it.next();
                    out.push_str(&b.to_string());
                    continue;
                }
                Some('%') => {
                    it.next();
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

/// The source dataset a mapping names, or `None` when its file or dataset cannot be opened (HDF5
/// then reads the fill value).
fn open_source(vds: &Dataset, file: &str, dataset: &str) -> FormatResult<Option<Dataset>> {
    let at = vds.header().address;
    let opens = OPENS.with(|c| {
        let n = c.get().saturating_add(1);
        c.set(n);
        n
    });
    if opens > MAX_SOURCE_OPENS {
        return Err(FormatError::new(
            FormatErrorKind::LimitExceeded(u64::from(MAX_SOURCE_OPENS)),
            at,
            "virtual dataset sources",
        ));
    }
    let f = if file == "." {
        vds.file().clone()
    } else {
        match vds.file().open_related(file, Referrer::VirtualSource, at)? {
            Some(f) => f,
            None => return Ok(None),
        }
    };
    let root = f.superblock().root_object_header;
    let Ok((f, addr)) = f.resolve_object(root, dataset) else {
        return Ok(None);
    };
    if f.file_number() == vds.file().file_number() && addr == at {
        // The virtual dataset itself: HDF5 would recurse without end.
        return Err(FormatError::new(
            FormatErrorKind::Cycle(at),
            at,
            "virtual dataset source",
        ));
    }
    match nested(at, || Dataset::load(&f, addr)) {
        Ok(d) => Ok(Some(d)),
        Err(e) if matches!(e.kind, FormatErrorKind::LimitExceeded(_)) => Err(e),
        Err(_) => Ok(None),
    }
}

/// The extent of a virtual dataset as HDF5 sees it at open: dimensions that unlimited mappings
/// extend go as far as the farthest of them reaches (never below what fixed mappings need).
pub(crate) fn extent(vds: &Dataset, mappings: &[Mapping]) -> FormatResult<Option<Vec<u64>>> {
    let Dataspace::Simple { dims, .. } = &vds.space else {
        return Ok(None);
    };
    top_level();
    let rank = dims.len();
    let mut new: Vec<Option<u64>> = vec![None; rank];
    let mut min = vec![0u64; rank];
    for m in mappings {
        let unlim = unlimited_dim(&m.target);
        bounds_into(&m.target, unlim.map(|u| u.0), &mut min);
        let Some((d, vh)) = unlim else {
            continue;
        };
        if d >= rank {
            return Err(bad(d as u64, vds.header().address));
        }
        let clip = if let Some((sd, sh)) = unlimited_dim(&m.source) {
            match open_source(vds, &m.file, &m.dataset)? {
                Some(src) => {
                    let sdims = src.space.dims();
                    let n = sdims.get(sd).map_or(0, |e| selected_below(&sh, *e));
                    extent_for(&vh, n)
                }
                None => 0,
            }
        } else {
            let k = printf_blocks_present(vds, m)?;
            if k == 0 {
                0
            } else {
                vh.start
                    .saturating_add((k - 1).saturating_mul(vh.stride))
                    .saturating_add(vh.block)
            }
        };
        new[d] = Some(new[d].map_or(clip, |c| c.max(clip)));
    }
    if new.iter().all(Option::is_none) {
        return Ok(None);
    }
    Ok(Some(
        (0..rank)
            .map(|d| new[d].map_or(dims[d], |n| n.max(min[d])))
            .collect(),
    ))
}

/// Raises `min` to the end of a selection's bounds in every dimension but `skip`.
fn bounds_into(s: &Selection, skip: Option<usize>, min: &mut [u64]) {
    let mut raise = |d: usize, end: u64| {
        if Some(d) != skip && d < min.len() {
            min[d] = min[d].max(end);
        }
    };
    match s {
        Selection::Regular(hs) => {
            for (d, h) in hs.iter().enumerate() {
                if h.count > 0 && h.block > 0 && h.count != UNLIMITED && h.block != UNLIMITED {
                    let last = (h.count - 1)
                        .saturating_mul(h.stride)
                        .saturating_add(h.start)
                        .saturating_add(h.block);
                    raise(d, last);
                }
            }
        }
        Selection::Points { points, .. } => {
            for p in points {
                for (d, x) in p.iter().enumerate() {
                    raise(d, x.saturating_add(1));
                }
            }
        }
        Selection::Blocks { blocks, .. } => {
            for (_, hi) in blocks {
                for (d, x) in hi.iter().enumerate() {
                    raise(d, x.saturating_add(1));
                }
            }
        }
        Selection::None | Selection::All => {}
    }
}

/// True when a name changes with the block number.
fn has_block_number(m: &Mapping) -> bool {
    printf_name(&m.file, 0) != printf_name(&m.file, 1)
        || printf_name(&m.dataset, 0) != printf_name(&m.dataset, 1)
}

/// Blocks a printf mapping may have: without `%b` in its names every block would be the same
/// source, so only the first counts.
fn printf_limit(m: &Mapping) -> u64 {
    if has_block_number(m) {
        MAX_PRINTF_BLOCKS
    } else {
        1
    }
}

/// How many printf blocks have a source, counting from block 0 to the first missing one.
fn printf_blocks_present(vds: &Dataset, m: &Mapping) -> FormatResult<u64> {
    let mut k = 0;
    while k < printf_limit(m) {
        let src = open_source(vds, &printf_name(&m.file, k), &printf_name(&m.dataset, k))?;
        if src.is_none() {
            break;
        }
        k += 1;
    }
    Ok(k)
}

/// Reads the whole virtual dataset (row-major, file byte order of its datatype).
pub(crate) fn materialize(vds: &Dataset, mappings: &[Mapping], out: &mut [u8]) -> FormatResult<()> {
    let at = vds.header().address;
    let dims = vds.space.dims().to_vec();
    let esize = vds.element_size() as usize;
    let limit = (out.len() / esize.max(1)) as u64;
    top_level();
    crate::read::slab::fill_with(out, &vds.fill_bytes());
    for m in mappings {
        match (unlimited_dim(&m.target), unlimited_dim(&m.source)) {
            (None, None) => {
                let Some(src) = open_source(vds, &m.file, &m.dataset)? else {
                    continue;
                };
                let t = runs(&m.target, &dims, limit)?;
                copy(&src, &m.source, vds, &t, true, limit, out)?;
            }
            (Some((d, vh)), Some((sd, sh))) => {
                let Some(src) = open_source(vds, &m.file, &m.dataset)? else {
                    continue;
                };
                let sdims = src.space.dims();
                let n = sdims.get(sd).map_or(0, |e| selected_below(&sh, *e));
                let mut target = m.target.clone();
                clip_to(&mut target, d, vh, n);
                let t = runs(&target, &dims, limit)?;
                copy(&src, &m.source, vds, &t, false, limit, out)?;
            }
            (Some((d, vh)), None) => {
                let stride = vh.stride.max(1);
                let mut b = 0u64;
                while b < printf_limit(m) {
                    let first = b.saturating_mul(stride).saturating_add(vh.start);
                    if dims.get(d).is_none_or(|e| first >= *e) {
                        break;
                    }
                    let src =
                        open_source(vds, &printf_name(&m.file, b), &printf_name(&m.dataset, b))?;
                    if let Some(src) = src {
                        let mut target = m.target.clone();
                        if let Selection::Regular(hs) = &mut target {
                            hs[d] = HyperDim {
                                start: first,
                                stride: 1,
                                count: 1,
                                block: vh.block,
                            };
                        }
                        let t = runs(&target, &dims, limit)?;
                        copy(&src, &m.source, vds, &t, false, limit, out)?;
                    }
                    b += 1;
                }
            }
            (None, Some(_)) => return Err(bad(0, at)),
        }
    }
    Ok(())
}

/// Makes the unlimited dimension `d` of a regular hyperslab select exactly `n` indices.
fn clip_to(s: &mut Selection, d: usize, h: HyperDim, n: u64) {
    if let Selection::Regular(hs) = s {
        if h.block == UNLIMITED || h.count == 1 {
            hs[d] = HyperDim {
                count: 1,
                block: n,
                ..h
            };
        } else {
            // Whole blocks; a partial last block is cut by `truncate` on the element runs.
            hs[d] = HyperDim {
                count: n.div_ceil(h.block.max(1)),
                ..h
            };
        }
    }
}

/// The first `k` elements of a run list.
fn truncate(r: &[Run], mut k: u64) -> Vec<Run> {
    let mut out = Vec::new();
    for &(o, l) in r {
        if k == 0 {
            break;
        }
        let n = l.min(k);
        out.push((o, n));
        k -= n;
    }
    out
}

/// The smallest block of `dims` holding every element `sel` picks (unlimited parts clipped to
/// `dims`): first index and extent per dimension; `None` when nothing is picked.
fn bounding_box(sel: &Selection, dims: &[u64]) -> Option<(Vec<u64>, Vec<u64>)> {
    let rank = dims.len();
    let (lo, hi): (Vec<u64>, Vec<u64>) = match sel {
        Selection::None => return None,
        Selection::All => (vec![0; rank], dims.to_vec()),
        Selection::Regular(hs) => hs
            .iter()
            .zip(dims)
            .map(|(h, d)| {
                let end = if h.count == UNLIMITED || h.block == UNLIMITED {
                    *d
                } else {
                    h.count
                        .saturating_sub(1)
                        .saturating_mul(h.stride)
                        .saturating_add(h.start)
                        .saturating_add(h.block)
                        .min(*d)
                };
                (h.start, end)
            })
            .unzip(),
        Selection::Blocks { blocks, .. } => {
            let mut lo = vec![u64::MAX; rank];
            let mut hi = vec![0u64; rank];
            for (a, b) in blocks {
                for d in 0..rank.min(a.len()).min(b.len()) {
                    lo[d] = lo[d].min(a[d]);
                    hi[d] = hi[d].max(b[d].saturating_add(1).min(dims[d]));
                }
            }
            (lo, hi)
        }
        Selection::Points { points, .. } => {
            let mut lo = vec![u64::MAX; rank];
            let mut hi = vec![0u64; rank];
            for p in points {
                for d in 0..rank.min(p.len()) {
                    lo[d] = lo[d].min(p[d]);
                    hi[d] = hi[d].max(p[d].saturating_add(1).min(dims[d]));
                }
            }
            (lo, hi)
        }
    };
    if lo.len() != rank || lo.iter().zip(&hi).any(|(a, b)| a >= b) {
        return None;
    }
    let count = lo.iter().zip(&hi).map(|(a, b)| b - a).collect();
    Some((lo, count))
}

/// `sel` moved by `-lo` (coordinates relative to a block starting at `lo`).
fn shifted(sel: &Selection, lo: &[u64]) -> Selection {
    let sub = |v: &[u64]| -> Vec<u64> {
        v.iter()
            .zip(lo)
            .map(|(x, l)| x.saturating_sub(*l))
            .collect()
    };
    match sel {
        Selection::Regular(hs) => Selection::Regular(
            hs.iter()
                .zip(lo)
                .map(|(h, l)| HyperDim {
                    start: h.start.saturating_sub(*l),
                    ..*h
                })
                .collect(),
        ),
        Selection::Blocks { rank, blocks } => Selection::Blocks {
            rank: *rank,
            blocks: blocks.iter().map(|(a, b)| (sub(a), sub(b))).collect(),
        },
        Selection::Points { rank, points } => Selection::Points {
            rank: *rank,
            points: points.iter().map(|p| sub(p)).collect(),
        },
        other => other.clone(),
    }
}

/// Copies the source elements `sel` picks into the virtual elements the runs `t` pick, in
/// order, converting between the two datatypes when they differ. Only the block of the source
/// that holds the selection is read. With `exact`, both sides must pick as many elements (fixed
/// mappings); otherwise the shorter side sets how many are copied (clipped unlimited ones).
fn copy(
    src: &Dataset,
    sel: &Selection,
    vds: &Dataset,
    t: &[Run],
    exact: bool,
    limit: u64,
    out: &mut [u8],
) -> FormatResult<()> {
    let at = vds.header().address;
    let sdims = src.space.dims();
    let Some((lo, extent)) = bounding_box(sel, sdims) else {
        if exact && count(t) != 0 {
            return Err(bad(count(t), at));
        }
        return Ok(());
    };
    // Selections outside the source are checked against its real extent first.
    let s = runs(sel, sdims, limit)?;
    if exact && count(&s) != count(t) {
        return Err(bad(count(&s), at));
    }
    let s = runs(&shifted(sel, &lo), &extent, limit)?;
    let k = count(&s).min(count(t));
    let (s, t) = (truncate(&s, k), truncate(t, k));
    if s.is_empty() {
        return Ok(());
    }
    let slab = crate::read::slab::Slab {
        start: lo,
        stride: vec![1; extent.len()],
        count: extent,
    };
    let data = nested(at, || src.read_slab(&slab))?;
    let ses = src.element_size() as usize;
    let tes = vds.element_size() as usize;
    let same = src.dtype == vds.dtype;
    if !same && !convertible(&src.dtype, &vds.dtype) {
        return Err(bad(0, at));
    }
    let (mut si, mut so, mut ti, mut to) = (0usize, 0u64, 0usize, 0u64);
    while si < s.len() && ti < t.len() {
        let n = (s[si].1 - so).min(t[ti].1 - to);
        let a = usize::try_from(s[si].0 + so).map_err(|_| bad(0, at))? * ses;
        let b = usize::try_from(t[ti].0 + to).map_err(|_| bad(0, at))? * tes;
        let n_us = n as usize;
        let from = data
            .get(a..a + n_us * ses)
            .ok_or_else(|| bad(s[si].0, at))?;
        let to_bytes = out
            .get_mut(b..b + n_us * tes)
            .ok_or_else(|| bad(t[ti].0, at))?;
        if same {
            to_bytes.copy_from_slice(from);
        } else {
            for (x, y) in from.chunks_exact(ses).zip(to_bytes.chunks_exact_mut(tes)) {
                convert(&src.dtype, x, &vds.dtype, y);
            }
        }
        so += n;
        to += n;
        if so == s[si].1 {
            si += 1;
            so = 0;
        }
        if to == t[ti].1 {
            ti += 1;
            to = 0;
        }
    }
    Ok(())
}

fn numeric(dt: &Datatype) -> bool {
    matches!(dt, Datatype::FixedPoint { .. })
        || matches!(dt, Datatype::FloatingPoint { size: 4 | 8, .. })
}

fn convertible(a: &Datatype, b: &Datatype) -> bool {
    numeric(a) && numeric(b) && crate::convert::is_standard(b)
}

/// One element converted as HDF5's numeric conversions do: integers clamped to the target's
/// range, floats rounded to the target's precision, floats to integers truncated and clamped.
fn convert(from: &Datatype, x: &[u8], to: &Datatype, y: &mut [u8]) {
    let int = crate::convert::int_value(from, x);
    let float = crate::convert::float_value(from, x);
    match to {
        Datatype::FixedPoint {
            size,
            big_endian,
            signed,
            ..
        } => {
            let bits = 8 * (*size).min(16);
            let (lo, hi) = if *signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (
                    0,
                    if bits >= 128 {
                        i128::MAX
                    } else {
                        (1i128 << bits) - 1
                    },
                )
            };
            let v = match (int, float) {
                (Some(i), _) => i.clamp(lo, hi),
                (None, Some(f)) if f.is_nan() => 0,
                (None, Some(f)) => (f.trunc() as i128).clamp(lo, hi),
                _ => 0,
            };
            let le = v.to_le_bytes();
            let n = y.len();
            for (k, b) in y.iter_mut().enumerate() {
                let i = if *big_endian { n - 1 - k } else { k };
                *b = le.get(i).copied().unwrap_or(0);
            }
        }
        Datatype::FloatingPoint {
            size, big_endian, ..
        } => {
            let f = float.or(int.map(|i| i as f64)).unwrap_or(0.0);
            let bytes = if *size == 4 {
                (f as f32).to_le_bytes().to_vec()
            } else {
                f.to_le_bytes().to_vec()
            };
            for (k, b) in y.iter_mut().enumerate() {
                let i = if *big_endian { bytes.len() - 1 - k } else { k };
                *b = bytes.get(i).copied().unwrap_or(0);
            }
        }
        _ => y.fill(0),
    }
}

/// Bytes of the files the mappings' sources are in, printf sources included (bounds what
/// reading them may allocate).
pub(crate) fn source_bytes(vds: &Dataset, mappings: &[Mapping]) -> FormatResult<u64> {
    top_level();
    let mut n = 0u64;
    for m in mappings {
        let printf = unlimited_dim(&m.target).is_some() && unlimited_dim(&m.source).is_none();
        let blocks = if printf { printf_limit(m) } else { 1 };
        for b in 0..blocks {
            let (file, dataset) = if printf {
                (printf_name(&m.file, b), printf_name(&m.dataset, b))
            } else {
                (m.file.clone(), m.dataset.clone())
            };
            match open_source(vds, &file, &dataset)? {
                Some(src) => n = n.saturating_add(src.file().source().len()),
                None => break,
            }
        }
    }
    Ok(n)
}

/// The mappings of a virtual dataset and its data once read.
#[derive(Debug, Default)]
pub(crate) struct VirtualState {
    pub(crate) mappings: Vec<Mapping>,
    pub(crate) data: std::sync::OnceLock<Result<Arc<Vec<u8>>, FormatError>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_blocks() {
        let sel = Selection::Regular(vec![
            HyperDim {
                start: 2,
                stride: 3,
                count: 2,
                block: 1,
            },
            HyperDim {
                start: 1,
                stride: 1,
                count: UNLIMITED,
                block: 1,
            },
        ]);
        // Rows 2 and 5, columns 1.. of a 10×4 source: the block [2, 6) × [1, 4).
        let (lo, extent) = bounding_box(&sel, &[10, 4]).unwrap();
        assert_eq!(
            (lo.as_slice(), extent.as_slice()),
            (&[2, 1][..], &[4, 3][..])
        );
        let moved = shifted(&sel, &lo);
        assert_eq!(runs(&moved, &extent, 100).unwrap(), [(0, 3), (9, 3)]);
        assert_eq!(bounding_box(&Selection::None, &[3]), None);
        let pts = Selection::Points {
            rank: 1,
            points: vec![vec![4], vec![1]],
        };
        assert_eq!(bounding_box(&pts, &[9]), Some((vec![1], vec![4])));
    }

    #[test]
    fn printf_names() {
        assert_eq!(printf_name("src_%b.h5", 12), "src_12.h5");
        assert_eq!(printf_name("100%%_%b%", 3), "100%_3%");
    }
}
