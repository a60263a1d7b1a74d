//! The mappings of a virtual dataset (HDF5 File Format Specification v3.0, section IV.A.2.i, the
//! Data Layout message, layout class 3, and the "Virtual Dataset Global Heap Block" it points
//! to) and the dataspace selections they are made of (the serialized selections of section
//! IV.A.2.i's "Dataspace Selection" encodings: none, all, points, hyperslabs in versions 1–3).
//!
//! A heap block holds, after a version byte (0; 1 adds per-entry flags that let an entry reuse an
//! earlier entry's names) and an entry count, for each entry: the source file name, the source
//! dataset name, the selection in the source dataset and the selection in the virtual dataset;
//! a lookup3 checksum closes the block.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};

/// A count or block size standing for "as far as the extent goes".
pub const UNLIMITED: u64 = u64::MAX;

/// Highest rank HDF5 allows.
pub const MAX_RANK: usize = 32;

/// One dimension of a regular hyperslab: `count` blocks of `block` elements, `stride` apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HyperDim {
    /// First index.
    pub start: u64,
    /// Distance between block starts.
    pub stride: u64,
    /// Number of blocks ([`UNLIMITED`]: as many as the extent holds).
    pub count: u64,
    /// Elements per block ([`UNLIMITED`]: to the end of the extent).
    pub block: u64,
}

/// A selection of elements of a dataspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// No element.
    None,
    /// Every element.
    All,
    /// Listed elements, in their order.
    Points {
        /// Rank of the dataspace.
        rank: usize,
        /// Coordinates, one vector per point.
        points: Vec<Vec<u64>>,
    },
    /// A regular hyperslab.
    Regular(Vec<HyperDim>),
    /// A union of blocks, each given by its first and last coordinates (inclusive).
    Blocks {
        /// Rank of the dataspace.
        rank: usize,
        /// (first, last) corner of each block.
        blocks: Vec<(Vec<u64>, Vec<u64>)>,
    },
}

impl Selection {
    /// Rank of the dataspace the selection belongs to (`None` for none and all).
    pub fn rank(&self) -> Option<usize> {
        match self {
            Selection::None | Selection::All => None,
            Selection::Points { rank, .. } | Selection::Blocks { rank, .. } => Some(*rank),
            Selection::Regular(d) => Some(d.len()),
        }
    }

    /// True when some count or block is [`UNLIMITED`].
    pub fn is_unlimited(&self) -> bool {
        matches!(self, Selection::Regular(d)
            if d.iter().any(|h| h.count == UNLIMITED || h.block == UNLIMITED))
    }

    /// Decodes one serialized selection.
    pub fn parse(c: &mut Cursor<'_>) -> FormatResult<Selection> {
        let kind = c.u32()?;
        let version = c.u32()?;
        let bad_version = |c: &Cursor<'_>| {
            c.error(FormatErrorKind::UnsupportedVersion(
                u8::try_from(version).unwrap_or(u8::MAX),
            ))
        };
        match kind {
            0 | 3 => {
                if version != 1 && version != 2 {
                    return Err(bad_version(c));
                }
                c.skip(8)?; // reserved, length
                Ok(if kind == 0 {
                    Selection::None
                } else {
                    Selection::All
                })
            }
            1 => {
                let (width, rank, n) = match version {
                    1 => {
                        c.skip(8)?; // reserved, length
                        let rank = {
                            let r = c.u32()?;
                            rank_of(c, r)?
                        };
                        (4, rank, u64::from(c.u32()?))
                    }
                    2 => {
                        let w = {
                            let w = c.u8()?;
                            width_of(c, w)?
                        };
                        let rank = {
                            let r = c.u32()?;
                            rank_of(c, r)?
                        };
                        (w, rank, c.uint(w)?)
                    }
                    _ => return Err(bad_version(c)),
                };
                let n = fits(c, n, rank * usize::from(width))?;
                let mut points = Vec::with_capacity(n);
                for _ in 0..n {
                    points.push(
                        (0..rank)
                            .map(|_| c.uint(width))
                            .collect::<FormatResult<_>>()?,
                    );
                }
                Ok(Selection::Points { rank, points })
            }
            2 => match version {
                1 => {
                    c.skip(8)?; // reserved, length
                    let rank = {
                        let r = c.u32()?;
                        rank_of(c, r)?
                    };
                    let n = u64::from(c.u32()?);
                    Self::blocks(c, rank, n, 4)
                }
                2 | 3 => {
                    let flags = c.u8()?;
                    let width = if version == 2 {
                        c.skip(4)?; // length
                        8
                    } else {
                        {
                            let w = c.u8()?;
                            width_of(c, w)?
                        }
                    };
                    let rank = {
                        let r = c.u32()?;
                        rank_of(c, r)?
                    };
                    if flags & 1 != 0 {
                        let mut dims = Vec::with_capacity(rank);
                        for _ in 0..rank {
                            let mut v = [0u64; 4];
                            for x in &mut v {
                                *x = unlimited(c.uint(width)?, width);
                            }
                            dims.push(HyperDim {
                                start: v[0],
                                stride: v[1],
                                count: v[2],
                                block: v[3],
                            });
                        }
                        Ok(Selection::Regular(dims))
                    } else if version == 2 {
                        Err(c.error(FormatErrorKind::InvalidValue(u64::from(flags))))
                    } else {
                        let n = c.uint(width)?;
                        Self::blocks(c, rank, n, width)
                    }
                }
                _ => Err(bad_version(c)),
            },
            k => Err(c.error(FormatErrorKind::InvalidValue(u64::from(k)))),
        }
    }

    fn blocks(c: &mut Cursor<'_>, rank: usize, n: u64, width: u8) -> FormatResult<Selection> {
        let n = fits(c, n, 2 * rank * usize::from(width))?;
        let mut blocks = Vec::with_capacity(n);
        for _ in 0..n {
            let lo: Vec<u64> = (0..rank)
                .map(|_| c.uint(width))
                .collect::<FormatResult<_>>()?;
            let hi: Vec<u64> = (0..rank)
                .map(|_| c.uint(width))
                .collect::<FormatResult<_>>()?;
            if lo.iter().zip(&hi).any(|(a, b)| a > b) {
                return Err(c.error(FormatErrorKind::InvalidValue(0)));
            }
            blocks.push((lo, hi));
        }
        Ok(Selection::Blocks { rank, blocks })
    }
}

/// All ones in a field of `width` bytes: unlimited.
fn unlimited(v: u64, width: u8) -> u64 {
    let ones = if width >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * u32::from(width))) - 1
    };
    if v == ones {
        UNLIMITED
    } else {
        v
    }
}

fn rank_of(c: &Cursor<'_>, r: u32) -> FormatResult<usize> {
    match usize::try_from(r) {
        Ok(r) if (1..=MAX_RANK).contains(&r) => Ok(r),
        _ => Err(c.error(FormatErrorKind::InvalidValue(u64::from(r)))),
    }
}

fn width_of(c: &Cursor<'_>, w: u8) -> FormatResult<u8> {
    match w {
        2 | 4 | 8 => Ok(w),
        _ => Err(c.error(FormatErrorKind::BadSizeField(w))),
    }
}

/// `n` items of `each` bytes must fit in what remains (bounds allocations by the input size).
fn fits(c: &Cursor<'_>, n: u64, each: usize) -> FormatResult<usize> {
    match usize::try_from(n) {
        Ok(k) if k.saturating_mul(each.max(1)) <= c.remaining() => Ok(k),
        _ => Err(c.error(FormatErrorKind::UnexpectedEof {
            wanted: n.saturating_mul(each as u64),
            available: c.remaining() as u64,
        })),
    }
}

/// One mapping: source elements and the virtual elements they fill, in the same order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    /// Source file name (`.`: the virtual dataset's own file); may hold `%b` patterns.
    pub file: String,
    /// Source dataset path in that file; may hold `%b` patterns.
    pub dataset: String,
    /// Selection in the source dataset.
    pub source: Selection,
    /// Selection in the virtual dataset.
    pub target: Selection,
}

/// Decodes a virtual dataset's heap block (the global heap object's bytes).
pub fn parse_mappings(data: &[u8], at: u64, sizes: SizeParams) -> FormatResult<Vec<Mapping>> {
    let mut c = Cursor::new(data, at, "virtual dataset mappings");
    let version = c.u8()?;
    if version > 1 {
        return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
    }
    let n = c.length(sizes)?;
    // Each entry takes at least 2 name bytes and two 12-byte selections.
    let n = fits(&c, n, 26)?;
    let mut out: Vec<Mapping> = Vec::with_capacity(n);
    for i in 0..n {
        let flags = if version >= 1 { c.u8()? } else { 0 };
        let name = |c: &mut Cursor<'_>, shared: u8, dataset: bool| -> FormatResult<String> {
            if flags & shared != 0 {
                let k = c.length(sizes)?;
                let e = usize::try_from(k)
                    .ok()
                    .filter(|k| *k < i)
                    .and_then(|k| out.get(k))
                    .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(k)))?;
                Ok(if dataset { &e.dataset } else { &e.file }.clone())
            } else {
                Ok(String::from_utf8_lossy(c.cstr()?).into_owned())
            }
        };
        let file = if flags & 4 != 0 {
            ".".to_string()
        } else {
            name(&mut c, 1, false)?
        };
        let dataset = name(&mut c, 2, true)?;
        let source = Selection::parse(&mut c)?;
        let target = Selection::parse(&mut c)?;
        out.push(Mapping {
            file,
            dataset,
            source,
            target,
        });
    }
    c.verify_checksum()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regular(dims: &[[u64; 4]], width: u8) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend(2u32.to_le_bytes());
        v.extend(3u32.to_le_bytes());
        v.push(1);
        v.push(width);
        v.extend((dims.len() as u32).to_le_bytes());
        for d in dims {
            for x in d {
                v.extend(&x.to_le_bytes()[..usize::from(width)]);
            }
        }
        v
    }

    #[test]
    fn selections() {
        let b = regular(&[[1, 2, u64::from(u32::MAX), 1]], 4);
        let s = Selection::parse(&mut Cursor::new(&b, 0, "t")).unwrap();
        assert_eq!(
            s,
            Selection::Regular(vec![HyperDim {
                start: 1,
                stride: 2,
                count: UNLIMITED,
                block: 1
            }])
        );
        assert!(s.is_unlimited());
        let mut all = Vec::new();
        for x in [3u32, 1, 0, 0] {
            all.extend(x.to_le_bytes());
        }
        assert_eq!(
            Selection::parse(&mut Cursor::new(&all, 0, "t")).unwrap(),
            Selection::All
        );
        // A point count larger than the bytes that follow is refused before allocating.
        let mut pts = Vec::new();
        for x in [1u32, 1, 0, 0, 1, u32::MAX] {
            pts.extend(x.to_le_bytes());
        }
        assert!(Selection::parse(&mut Cursor::new(&pts, 0, "t")).is_err());
        // Rank 0 and ranks above 32 are refused.
        assert!(Selection::parse(&mut Cursor::new(&regular(&[], 4), 0, "t")).is_err());
    }
}
