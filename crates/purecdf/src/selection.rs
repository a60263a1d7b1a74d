//! Hyperslab selections (start / count / stride per dimension) and the georust-style [`Extents`]
//! that build them, with netcdf-c's bound checks (NC_EINVALCOORDS, NC_EEDGE, NC_ESTRIDE).

use crate::error::{fail, Error, ErrorKind, Result};
use std::iter::StepBy;
use std::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

/// A checked selection: for each dimension a start, a count and a stride (all in elements).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hyperslab {
    /// First index per dimension.
    pub start: Vec<u64>,
    /// Number of elements per dimension.
    pub count: Vec<u64>,
    /// Step per dimension (1 = contiguous).
    pub stride: Vec<u64>,
}

impl Hyperslab {
    /// The whole of a variable of this shape.
    pub fn whole(shape: &[u64]) -> Hyperslab {
        Hyperslab {
            start: vec![0; shape.len()],
            count: shape.to_vec(),
            stride: vec![1; shape.len()],
        }
    }

    /// Number of elements selected (1 for a scalar).
    pub fn num_elements(&self) -> u64 {
        self.count
            .iter()
            .try_fold(1u64, |a, c| a.checked_mul(*c))
            .unwrap_or(u64::MAX)
    }

    /// True when every stride is 1.
    pub fn is_contiguous_stride(&self) -> bool {
        self.stride.iter().all(|s| *s == 1)
    }

    /// Checks the selection against `shape` as netcdf-c does (`NC_check_vara` / `NCDEFAULT_get_vars`).
    /// `unlimited_first` says the first dimension is unlimited; `writing` allows a write past its
    /// current length (records are appended).
    pub fn check(&self, shape: &[u64], unlimited_first: bool, writing: bool) -> Result<()> {
        let mut growable = vec![false; shape.len()];
        if let Some(g) = growable.first_mut() {
            *g = unlimited_first;
        }
        self.check_growable(shape, &growable, writing)
    }

    /// As [`Hyperslab::check`], with every dimension marked in `growable` (the unlimited ones)
    /// free to grow when `writing` (netCDF-4 variables may have several unlimited dimensions).
    ///
    /// # Errors
    /// As [`Hyperslab::check`].
    pub fn check_growable(&self, shape: &[u64], growable: &[bool], writing: bool) -> Result<()> {
        if self.start.len() != shape.len()
            || self.count.len() != shape.len()
            || self.stride.len() != shape.len()
        {
            return fail(
                ErrorKind::InvalidCoords,
                format!(
                    "selection has {} dimensions, variable has {}",
                    self.start.len(),
                    shape.len()
                ),
            );
        }
        for (i, &len) in shape.iter().enumerate() {
            let (start, count, stride) = (self.start[i], self.count[i], self.stride[i]);
            if stride == 0 || stride > i64::MAX as u64 {
                return fail(
                    ErrorKind::Stride,
                    format!("stride {stride} on dimension {i}"),
                );
            }
            if writing && growable.get(i).copied().unwrap_or(false) {
                continue;
            }
            if start > len {
                return fail(
                    ErrorKind::InvalidCoords,
                    format!("start {start} on dimension {i} of length {len}"),
                );
            }
            if count > 0 {
                let last = (count - 1)
                    .checked_mul(stride)
                    .and_then(|x| x.checked_add(start));
                match last {
                    Some(l) if l < len => {}
                    _ => {
                        if start == len {
                            return fail(
                                ErrorKind::InvalidCoords,
                                format!("start {start} on dimension {i} of length {len}"),
                            );
                        }
                        return fail(ErrorKind::Edge, format!("start {start} count {count} stride {stride} on dimension {i} of length {len}"));
                    }
                }
            }
        }
        Ok(())
    }
}

/// One dimension's part of a selection: georust `netcdf`'s `Extent`, with its variants and
/// field types (a stride below 1 is refused with NC_ESTRIDE when the selection is used).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// From `start` to the end of the dimension, every `stride`th element.
    Slice {
        /// First index.
        start: usize,
        /// Step.
        stride: isize,
    },
    /// From `start` to `end` (exclusive), every `stride`th element.
    SliceEnd {
        /// First index.
        start: usize,
        /// End (exclusive).
        end: usize,
        /// Step.
        stride: isize,
    },
    /// `count` elements from `start`, every `stride`th.
    SliceCount {
        /// First index.
        start: usize,
        /// Number of elements.
        count: usize,
        /// Step.
        stride: isize,
    },
    /// A single index: one element, its axis dropped from ndarray reads and writes.
    Index(usize),
}

impl Extent {
    /// Sets the stride of a slice (an index has none), as georust's `set_stride`.
    pub fn set_stride(&mut self, stride: isize) {
        match self {
            Extent::Slice { stride: s, .. }
            | Extent::SliceEnd { stride: s, .. }
            | Extent::SliceCount { stride: s, .. } => *s = stride,
            Extent::Index(_) => {}
        }
    }

    /// Start, count and stride on a dimension of length `len`.
    fn resolve(self, len: u64) -> Result<(u64, u64, u64)> {
        let stride = |s: isize| {
            u64::try_from(s)
                .ok()
                .filter(|&s| s > 0)
                .ok_or_else(|| Error::with_detail(ErrorKind::Stride, format!("stride {s}")))
        };
        let count = |start: u64, end: u64, stride: u64| {
            if end > start {
                (end - start).div_ceil(stride)
            } else {
                0
            }
        };
        Ok(match self {
            Extent::Index(i) => (i as u64, 1, 1),
            Extent::SliceCount {
                start,
                count,
                stride: s,
            } => (start as u64, count as u64, stride(s)?),
            Extent::Slice { start, stride: s } => {
                let s = stride(s)?;
                (start as u64, count(start as u64, len, s), s)
            }
            Extent::SliceEnd {
                start,
                end,
                stride: s,
            } => {
                let s = stride(s)?;
                (start as u64, count(start as u64, end as u64, s), s)
            }
        })
    }
}

/// A selection over all dimensions, built from `..`, ranges, indices, arrays or tuples of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extents {
    /// Everything.
    All,
    /// One extent per dimension.
    Extent(Vec<Extent>),
}

impl Extents {
    /// Resolves the extents against a shape into a hyperslab (unchecked: call [`Hyperslab::check`]).
    pub fn to_hyperslab(&self, shape: &[u64]) -> Result<Hyperslab> {
        match self {
            Extents::All => Ok(Hyperslab::whole(shape)),
            Extents::Extent(list) => {
                if list.len() != shape.len() {
                    let e = Error::with_detail(
                        ErrorKind::InvalidCoords,
                        format!("{} extents for {} dimensions", list.len(), shape.len()),
                    );
                    return Err(e.georust(crate::GeorustError::DimensionMismatch {
                        wanted: shape.len(),
                        actual: list.len(),
                    }));
                }
                let mut h = Hyperslab::default();
                for (e, &len) in list.iter().zip(shape) {
                    let (start, count, stride) = e.resolve(len)?;
                    h.start.push(start);
                    h.count.push(count);
                    h.stride.push(stride);
                }
                Ok(h)
            }
        }
    }
}

impl From<RangeFull> for Extents {
    fn from(_: RangeFull) -> Self {
        Extents::All
    }
}

impl From<()> for Extents {
    /// The empty selection of a scalar variable.
    fn from((): ()) -> Self {
        Extents::Extent(Vec::new())
    }
}

impl From<&Extents> for Extents {
    fn from(e: &Extents) -> Self {
        e.clone()
    }
}

impl From<usize> for Extent {
    fn from(i: usize) -> Self {
        Extent::Index(i)
    }
}
impl From<Range<usize>> for Extent {
    fn from(r: Range<usize>) -> Self {
        slice_end(r.start, r.end)
    }
}
impl From<RangeInclusive<usize>> for Extent {
    fn from(r: RangeInclusive<usize>) -> Self {
        slice_end(*r.start(), *r.end() + 1)
    }
}
impl From<RangeFrom<usize>> for Extent {
    fn from(r: RangeFrom<usize>) -> Self {
        Extent::Slice {
            start: r.start,
            stride: 1,
        }
    }
}
impl From<RangeTo<usize>> for Extent {
    fn from(r: RangeTo<usize>) -> Self {
        slice_end(0, r.end)
    }
}
impl From<RangeToInclusive<usize>> for Extent {
    fn from(r: RangeToInclusive<usize>) -> Self {
        slice_end(0, r.end + 1)
    }
}
impl From<RangeFull> for Extent {
    fn from(_: RangeFull) -> Self {
        Extent::Slice {
            start: 0,
            stride: 1,
        }
    }
}
impl From<StepBy<Range<usize>>> for Extent {
    fn from(r: StepBy<Range<usize>>) -> Self {
        stepped(r)
    }
}
impl From<StepBy<RangeInclusive<usize>>> for Extent {
    fn from(r: StepBy<RangeInclusive<usize>>) -> Self {
        stepped(r)
    }
}
impl From<StepBy<RangeFrom<usize>>> for Extent {
    fn from(r: StepBy<RangeFrom<usize>>) -> Self {
        // An endless iterator: its first two items give the start and the step.
        let mut it = r;
        let a = it.next().unwrap_or(0);
        let b = it.next().unwrap_or(a + 1);
        Extent::Slice {
            start: a,
            stride: isize::try_from(b - a).unwrap_or(isize::MAX),
        }
    }
}

fn slice_end(start: usize, end: usize) -> Extent {
    Extent::SliceEnd {
        start,
        end,
        stride: 1,
    }
}

/// A stepped finite range (its fields are private: read back from the iterator) as start,
/// count and stride.
fn stepped(mut it: impl Iterator<Item = usize>) -> Extent {
    match (it.next(), it.next()) {
        (None, _) => Extent::SliceCount {
            start: 0,
            count: 0,
            stride: 1,
        },
        (Some(a), None) => Extent::SliceCount {
            start: a,
            count: 1,
            stride: 1,
        },
        (Some(a), Some(b)) => Extent::SliceCount {
            start: a,
            count: 2 + it.count(),
            stride: isize::try_from(b - a).unwrap_or(isize::MAX),
        },
    }
}

/// A lone extent (an index, a range, a stepped range) is a selection of a one-dimensional
/// variable, as in `var.get_values::<f32, _>(2..5)`.
macro_rules! extent_as_extents {
    ($($t:ty),*) => {$(
        impl From<$t> for Extents {
            fn from(e: $t) -> Self {
                Extents::Extent(vec![Extent::from(e)])
            }
        }
        impl From<&$t> for Extent {
            fn from(e: &$t) -> Self {
                Extent::from(e.clone())
            }
        }
    )*};
}
extent_as_extents!(
    usize,
    Range<usize>,
    RangeInclusive<usize>,
    RangeFrom<usize>,
    RangeTo<usize>,
    RangeToInclusive<usize>,
    StepBy<Range<usize>>,
    StepBy<RangeInclusive<usize>>,
    StepBy<RangeFrom<usize>>
);

impl From<Extent> for Extents {
    fn from(e: Extent) -> Self {
        Extents::Extent(vec![e])
    }
}
impl<E: Into<Extent>> From<Vec<E>> for Extents {
    fn from(v: Vec<E>) -> Self {
        Extents::Extent(v.into_iter().map(Into::into).collect())
    }
}
impl<E: Into<Extent>, const N: usize> From<[E; N]> for Extents {
    fn from(v: [E; N]) -> Self {
        Extents::Extent(v.into_iter().map(Into::into).collect())
    }
}
impl<E: Into<Extent> + Clone, const N: usize> From<&[E; N]> for Extents {
    fn from(v: &[E; N]) -> Self {
        Extents::Extent(v.iter().cloned().map(Into::into).collect())
    }
}
impl<E: Into<Extent> + Clone> From<&[E]> for Extents {
    fn from(v: &[E]) -> Self {
        Extents::Extent(v.iter().cloned().map(Into::into).collect())
    }
}

/// A tuple of extents, one per dimension: `(0, .., 1..3)`.
macro_rules! tuple_extents {
    () => {};
    ($head:ident, $($tail:ident,)*) => {
        #[allow(non_snake_case)]
        impl<$head: Into<Extent>, $($tail: Into<Extent>,)*> From<($head, $($tail,)*)> for Extents {
            fn from(($head, $($tail,)*): ($head, $($tail,)*)) -> Self {
                Extents::Extent(vec![$head.into(), $($tail.into(),)*])
            }
        }
        tuple_extents! { $($tail,)* }
    };
}
tuple_extents! { T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, }

fn start_count_stride<S, C, T>(start: &[S], count: &[C], stride: Option<&[T]>) -> Result<Extents>
where
    S: Copy + TryInto<usize>,
    C: Copy + TryInto<usize>,
    T: Copy + TryInto<isize>,
{
    let n = start.len();
    if count.len() != n || stride.is_some_and(|s| s.len() != n) {
        return fail(
            ErrorKind::InvalidCoords,
            "start, count and stride differ in length",
        );
    }
    let num = |x: Option<usize>| x.ok_or(ErrorKind::InvalidCoords);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let stride = match stride {
            Some(s) => s[i].try_into().map_err(|_| ErrorKind::Stride)?,
            None => 1,
        };
        out.push(Extent::SliceCount {
            start: num(start[i].try_into().ok())?,
            count: num(count[i].try_into().ok())?,
            stride,
        });
    }
    Ok(Extents::Extent(out))
}

/// `(start, count)` and `(start, count, stride)` pairs and triples of slices, vectors or arrays.
macro_rules! start_count {
    ($($s:ty, $c:ty);*) => {$(
        impl TryFrom<($s, $c)> for Extents {
            type Error = crate::Error;
            fn try_from((start, count): ($s, $c)) -> Result<Self> {
                start_count_stride::<_, _, isize>(&start[..], &count[..], None)
            }
        }
    )*};
}
start_count!(&[u64], &[u64]; &[usize], &[usize]; Vec<usize>, Vec<usize>; Vec<u64>, Vec<u64>);

macro_rules! start_count_stride {
    ($($s:ty, $c:ty, $t:ty);*) => {$(
        impl TryFrom<($s, $c, $t)> for Extents {
            type Error = crate::Error;
            fn try_from((start, count, stride): ($s, $c, $t)) -> Result<Self> {
                start_count_stride(&start[..], &count[..], Some(&stride[..]))
            }
        }
    )*};
}
start_count_stride!(
    &[u64], &[u64], &[u64];
    &[usize], &[usize], &[isize];
    &[usize], &[usize], &[usize];
    Vec<usize>, Vec<usize>, Vec<isize>
);

impl<const N: usize> TryFrom<([usize; N], [usize; N])> for Extents {
    type Error = crate::Error;
    fn try_from((start, count): ([usize; N], [usize; N])) -> Result<Self> {
        start_count_stride::<_, _, isize>(&start, &count, None)
    }
}
impl<const N: usize> TryFrom<(&[usize; N], &[usize; N])> for Extents {
    type Error = crate::Error;
    fn try_from((start, count): (&[usize; N], &[usize; N])) -> Result<Self> {
        start_count_stride::<_, _, isize>(start, count, None)
    }
}
impl<const N: usize> TryFrom<(&[usize; N], &[usize; N], &[isize; N])> for Extents {
    type Error = crate::Error;
    fn try_from((start, count, stride): (&[usize; N], &[usize; N], &[isize; N])) -> Result<Self> {
        start_count_stride(start, count, Some(stride))
    }
}
impl<const N: usize> TryFrom<([usize; N], [usize; N], [isize; N])> for Extents {
    type Error = crate::Error;
    fn try_from((start, count, stride): ([usize; N], [usize; N], [isize; N])) -> Result<Self> {
        start_count_stride(&start, &count, Some(&stride))
    }
}

/// `ndarray::s![..]` selections (georust `netcdf` takes them): a slice with a negative step or
/// a new axis is refused (NC_ESTRIDE, NC_EINVAL).
#[cfg(feature = "ndarray")]
impl<T, Din, Dout> TryFrom<&ndarray::SliceInfo<T, Din, Dout>> for Extents
where
    T: AsRef<[ndarray::SliceInfoElem]>,
    Din: ndarray::Dimension,
    Dout: ndarray::Dimension,
{
    type Error = Error;
    fn try_from(slice: &ndarray::SliceInfo<T, Din, Dout>) -> Result<Self> {
        use ndarray::SliceInfoElem as S;
        let index = |i: isize| {
            usize::try_from(i).map_err(|_| {
                Error::with_detail(ErrorKind::InvalidCoords, format!("negative index {i}"))
            })
        };
        let list: &[S] = slice.as_ref();
        let list = list
            .iter()
            .map(|s| match *s {
                S::Index(i) => Ok(Extent::Index(index(i)?)),
                S::Slice { start, end, step } => {
                    if step < 1 {
                        return Err(Error::with_detail(
                            ErrorKind::Stride,
                            format!("step {step}"),
                        ));
                    }
                    let start = index(start)?;
                    Ok(match end {
                        None => Extent::Slice {
                            start,
                            stride: step,
                        },
                        Some(end) => Extent::SliceEnd {
                            start,
                            end: index(end)?,
                            stride: step,
                        },
                    })
                }
                S::NewAxis => Err(Error::with_detail(
                    ErrorKind::Inval,
                    "a new axis in a selection",
                )),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Extents::Extent(list))
    }
}

/// As for `&SliceInfo`.
#[cfg(feature = "ndarray")]
impl<T, Din, Dout> TryFrom<ndarray::SliceInfo<T, Din, Dout>> for Extents
where
    T: AsRef<[ndarray::SliceInfoElem]>,
    Din: ndarray::Dimension,
    Dout: ndarray::Dimension,
{
    type Error = Error;
    fn try_from(slice: ndarray::SliceInfo<T, Din, Dout>) -> Result<Self> {
        Extents::try_from(&slice)
    }
}

impl TryFrom<&Hyperslab> for Extents {
    type Error = crate::Error;
    fn try_from(h: &Hyperslab) -> Result<Self> {
        (h.start.as_slice(), h.count.as_slice(), h.stride.as_slice()).try_into()
    }
}

impl Extents {
    /// Which axes of a selection are single indices: georust's ndarray reads (`get`) drop them
    /// from the shape of the array returned, and writes (`put`) expect arrays without them.
    pub fn index_axes(&self, rank: usize) -> Vec<bool> {
        match self {
            Extents::All => vec![false; rank],
            Extents::Extent(list) => list.iter().map(|e| matches!(e, Extent::Index(_))).collect(),
        }
    }
}

/// Converts anything a read or write takes as a selection (georust's `E: TryInto<Extents>`).
pub(crate) fn extents<E>(e: E) -> Result<Extents>
where
    E: TryInto<Extents>,
    E::Error: Into<crate::Error>,
{
    e.try_into().map_err(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_like_netcdf_c() {
        let shape = [4u64, 5];
        let h = Extents::from([1..3usize, 0..5])
            .to_hyperslab(&shape)
            .unwrap();
        assert_eq!(h.count, vec![2, 5]);
        h.check(&shape, false, false).unwrap();
        let bad = Hyperslab {
            start: vec![5, 0],
            count: vec![1, 1],
            stride: vec![1, 1],
        };
        assert_eq!(
            bad.check(&shape, false, false).unwrap_err().kind(),
            ErrorKind::InvalidCoords
        );
        let edge = Hyperslab {
            start: vec![3, 0],
            count: vec![2, 1],
            stride: vec![1, 1],
        };
        assert_eq!(
            edge.check(&shape, false, false).unwrap_err().kind(),
            ErrorKind::Edge
        );
        let stride0 = Hyperslab {
            start: vec![0, 0],
            count: vec![1, 1],
            stride: vec![0, 1],
        };
        assert_eq!(
            stride0.check(&shape, false, false).unwrap_err().kind(),
            ErrorKind::Stride
        );
        let strided = Extents::from(vec![Extent::from((0..4usize).step_by(2)), Extent::from(..)])
            .to_hyperslab(&shape)
            .unwrap();
        assert_eq!((strided.count[0], strided.stride[0]), (2, 2));
        // Writing past the end of an unlimited first dimension is allowed.
        let rec = Hyperslab {
            start: vec![9, 0],
            count: vec![1, 5],
            stride: vec![1, 1],
        };
        rec.check(&shape, true, true).unwrap();
        assert_eq!(
            rec.check(&shape, true, false).unwrap_err().kind(),
            ErrorKind::InvalidCoords
        );
        // Zero count at the end is fine.
        let empty = Hyperslab {
            start: vec![4, 0],
            count: vec![0, 5],
            stride: vec![1, 1],
        };
        empty.check(&shape, false, false).unwrap();
    }
}
