//! Dataspace message, type 0x0001 (HDF5 File Format Specification v3.0, section IV.A.2.b),
//! versions 1 and 2.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};

/// Largest rank HDF5 allows (H5S_MAX_RANK).
pub const MAX_RANK: usize = 32;

/// A dataspace: null, scalar, or simple with current and maximum dimensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dataspace {
    /// No elements at all (H5S_NULL).
    Null,
    /// One element (H5S_SCALAR).
    Scalar,
    /// An n-dimensional array.
    Simple {
        /// Current dimension sizes.
        dims: Vec<u64>,
        /// Maximum sizes; `None` for an unlimited dimension. Equal to `dims` when not stored.
        max_dims: Vec<Option<u64>>,
    },
}

impl Dataspace {
    /// Decodes the message body.
    pub fn parse(mut c: Cursor<'_>, sizes: SizeParams) -> FormatResult<Dataspace> {
        let version = c.u8()?;
        let rank = usize::from(c.u8()?);
        let flags = c.u8()?;
        if rank > MAX_RANK {
            return Err(c.error(FormatErrorKind::InvalidValue(rank as u64)));
        }
        let kind = match version {
            1 => {
                c.skip(5)?;
                if rank == 0 {
                    0
                } else {
                    1
                }
            }
            2 => c.u8()?,
            v => return Err(c.error(FormatErrorKind::UnsupportedVersion(v))),
        };
        match kind {
            0 => return Ok(Dataspace::Scalar),
            2 => return Ok(Dataspace::Null),
            1 => {}
            k => return Err(c.error(FormatErrorKind::InvalidValue(u64::from(k)))),
        }
        let mut dims = Vec::with_capacity(rank);
        for _ in 0..rank {
            dims.push(c.length(sizes)?);
        }
        let undef = if sizes.length_size >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * u32::from(sizes.length_size))) - 1
        };
        let max_dims = if flags & 1 != 0 {
            let mut m = Vec::with_capacity(rank);
            for _ in 0..rank {
                let v = c.length(sizes)?;
                m.push((v != undef).then_some(v));
            }
            m
        } else {
            dims.iter().map(|d| Some(*d)).collect()
        };
        Ok(Dataspace::Simple { dims, max_dims })
    }

    /// Current dimensions (empty for scalar and null).
    pub fn dims(&self) -> &[u64] {
        match self {
            Dataspace::Simple { dims, .. } => dims,
            _ => &[],
        }
    }

    /// Number of elements (0 for null, 1 for scalar); `None` on overflow.
    pub fn num_elements(&self) -> Option<u64> {
        match self {
            Dataspace::Null => Some(0),
            Dataspace::Scalar => Some(1),
            Dataspace::Simple { dims, .. } => dims.iter().try_fold(1u64, |a, d| a.checked_mul(*d)),
        }
    }
}

impl Dataspace {
    /// Encodes a version 2 dataspace message body (section IV.A.2.b); maximum dimensions are
    /// stored only when some differ from the current ones.
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        match self {
            Dataspace::Scalar => {
                e.u8(2).u8(0).u8(0).u8(0);
            }
            Dataspace::Null => {
                e.u8(2).u8(0).u8(0).u8(2);
            }
            Dataspace::Simple { dims, max_dims } => {
                let store_max = max_dims.iter().zip(dims).any(|(m, d)| *m != Some(*d));
                e.u8(2).u8(dims.len() as u8).u8(u8::from(store_max)).u8(1);
                for d in dims {
                    e.length(*d);
                }
                if store_max {
                    for m in max_dims {
                        e.length(m.unwrap_or(u64::MAX));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[rustfmt::skip]
    #[test]
    fn versions_1_and_2() {
        let p = SizeParams::new(8, 8, 0).unwrap();
        let v1: Vec<u8> = [
            &[1u8, 2, 1, 0, 0, 0, 0, 0][..],  // version 1, rank 2, max dims present, reserved
            &3u64.to_le_bytes(), &4u64.to_le_bytes(),        // dims
            &u64::MAX.to_le_bytes(), &4u64.to_le_bytes(),    // max dims: unlimited, 4
        ].concat();
        let ds = Dataspace::parse(Cursor::new(&v1, 0, "t"), p).unwrap();
        assert_eq!(ds, Dataspace::Simple { dims: vec![3, 4], max_dims: vec![None, Some(4)] });
        assert_eq!(ds.num_elements(), Some(12));
        assert_eq!(Dataspace::parse(Cursor::new(&[2, 0, 0, 0], 0, "t"), p).unwrap(), Dataspace::Scalar);
        assert_eq!(Dataspace::parse(Cursor::new(&[2, 0, 0, 2], 0, "t"), p).unwrap(), Dataspace::Null);
        assert!(Dataspace::parse(Cursor::new(&[2, 1, 0, 1, 0], 0, "t"), p).is_err());
        assert!(Dataspace::parse(Cursor::new(&[2, 200, 0, 1], 0, "t"), p).is_err());
    }
}
