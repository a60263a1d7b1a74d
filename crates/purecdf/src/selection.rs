//! Hyperslab selections (start / count / stride per dimension) and the georust-style [`Extents`]
//! that build them, with netcdf-c's bound checks (NC_EINVALCOORDS, NC_EEDGE, NC_ESTRIDE).

use crate::error::{fail, ErrorKind, Result};
use std::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo};

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

/// One dimension's part of a selection, as georust's `Extent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// A single index; the axis is kept with count 1.
    Index(u64),
    /// `start..end` (exclusive) with a stride; `end = None` means to the end of the dimension.
    Slice {
        /// First index.
        start: u64,
        /// End (exclusive), or the dimension's length.
        end: Option<u64>,
        /// Step.
        stride: u64,
    },
    /// `start`, `count` and `stride` given directly.
    SliceCount {
        /// First index.
        start: u64,
        /// Number of elements.
        count: u64,
        /// Step.
        stride: u64,
    },
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
                    return fail(
                        ErrorKind::InvalidCoords,
                        format!("{} extents for {} dimensions", list.len(), shape.len()),
                    );
                }
                let mut h = Hyperslab::default();
                for (e, &len) in list.iter().zip(shape) {
                    let (start, count, stride) = match *e {
                        Extent::Index(i) => (i, 1, 1),
                        Extent::SliceCount {
                            start,
                            count,
                            stride,
                        } => (start, count, stride),
                        Extent::Slice { start, end, stride } => {
                            if stride == 0 {
                                return fail(ErrorKind::Stride, "stride 0");
                            }
                            let end = end.unwrap_or(len);
                            let count = if end > start {
                                (end - start).div_ceil(stride)
                            } else {
                                0
                            };
                            (start, count, stride)
                        }
                    };
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

impl From<u64> for Extent {
    fn from(i: u64) -> Self {
        Extent::Index(i)
    }
}
impl From<usize> for Extent {
    fn from(i: usize) -> Self {
        Extent::Index(i as u64)
    }
}
impl From<Range<usize>> for Extent {
    fn from(r: Range<usize>) -> Self {
        Extent::Slice {
            start: r.start as u64,
            end: Some(r.end as u64),
            stride: 1,
        }
    }
}
impl From<RangeInclusive<usize>> for Extent {
    fn from(r: RangeInclusive<usize>) -> Self {
        Extent::Slice {
            start: *r.start() as u64,
            end: Some(*r.end() as u64 + 1),
            stride: 1,
        }
    }
}
impl From<RangeFrom<usize>> for Extent {
    fn from(r: RangeFrom<usize>) -> Self {
        Extent::Slice {
            start: r.start as u64,
            end: None,
            stride: 1,
        }
    }
}
impl From<RangeTo<usize>> for Extent {
    fn from(r: RangeTo<usize>) -> Self {
        Extent::Slice {
            start: 0,
            end: Some(r.end as u64),
            stride: 1,
        }
    }
}
impl From<RangeFull> for Extent {
    fn from(_: RangeFull) -> Self {
        Extent::Slice {
            start: 0,
            end: None,
            stride: 1,
        }
    }
}
impl From<std::iter::StepBy<Range<usize>>> for Extent {
    fn from(r: std::iter::StepBy<Range<usize>>) -> Self {
        // StepBy exposes no fields; recover them from the iterator itself.
        let mut it = r;
        let first = it.next();
        let second = it.next();
        match (first, second) {
            (None, _) => Extent::SliceCount {
                start: 0,
                count: 0,
                stride: 1,
            },
            (Some(a), None) => Extent::SliceCount {
                start: a as u64,
                count: 1,
                stride: 1,
            },
            (Some(a), Some(b)) => {
                let stride = (b - a) as u64;
                let rest = it.count() as u64;
                Extent::SliceCount {
                    start: a as u64,
                    count: 2 + rest,
                    stride,
                }
            }
        }
    }
}
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
impl<E: Into<Extent> + Clone, const N: usize> From<[E; N]> for Extents {
    fn from(v: [E; N]) -> Self {
        Extents::Extent(v.into_iter().map(Into::into).collect())
    }
}
impl<E: Into<Extent> + Clone> From<&[E]> for Extents {
    fn from(v: &[E]) -> Self {
        Extents::Extent(v.iter().cloned().map(Into::into).collect())
    }
}
impl From<(&[u64], &[u64])> for Extents {
    fn from((start, count): (&[u64], &[u64])) -> Self {
        Extents::Extent(
            start
                .iter()
                .zip(count)
                .map(|(&s, &c)| Extent::SliceCount {
                    start: s,
                    count: c,
                    stride: 1,
                })
                .collect(),
        )
    }
}
impl From<(&[u64], &[u64], &[u64])> for Extents {
    fn from((start, count, stride): (&[u64], &[u64], &[u64])) -> Self {
        Extents::Extent(
            start
                .iter()
                .zip(count)
                .zip(stride)
                .map(|((&s, &c), &st)| Extent::SliceCount {
                    start: s,
                    count: c,
                    stride: st,
                })
                .collect(),
        )
    }
}
impl From<&Hyperslab> for Extents {
    fn from(h: &Hyperslab) -> Self {
        (h.start.as_slice(), h.count.as_slice(), h.stride.as_slice()).into()
    }
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
