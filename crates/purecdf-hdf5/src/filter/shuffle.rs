//! The shuffle filter (id 2): byte planes of `element_size`-byte elements stored one after the
//! other; trailing bytes that do not make a whole element are left in place.

use super::{Filter, FilterError};

pub(super) struct Shuffle {
    pub(super) element_size: usize,
}

/// Undoes the shuffle of `src` (planes of `s`-byte elements) into `dst`, which has the same
/// length. Trailing bytes that do not make a whole element are copied as they are.
pub(super) fn unshuffle_into(src: &[u8], dst: &mut [u8], s: usize) {
    debug_assert_eq!(src.len(), dst.len());
    if s <= 1 || src.len() < s || src.len() != dst.len() {
        let k = src.len().min(dst.len());
        dst[..k].copy_from_slice(&src[..k]);
        return;
    }
    let n = src.len() / s;
    let (body, tail) = dst.split_at_mut(n * s);
    let p = |b: usize| &src[b * n..(b + 1) * n];
    // Written element by element (sequential stores), reading one byte from each plane.
    match s {
        4 => {
            let (p0, p1, p2, p3) = (p(0), p(1), p(2), p(3));
            for ((((e, a), b), c), d) in body.chunks_exact_mut(4).zip(p0).zip(p1).zip(p2).zip(p3) {
                e.copy_from_slice(&[*a, *b, *c, *d]);
            }
        }
        8 => {
            let planes: [&[u8]; 8] = std::array::from_fn(p);
            for (i, e) in body.chunks_exact_mut(8).enumerate() {
                for (b, plane) in planes.iter().enumerate() {
                    e[b] = plane[i];
                }
            }
        }
        _ => {
            for (i, e) in body.chunks_exact_mut(s).enumerate() {
                for (b, v) in e.iter_mut().enumerate() {
                    *v = src[b * n + i];
                }
            }
        }
    }
    tail.copy_from_slice(&src[n * s..]);
}

impl Filter for Shuffle {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        if input.len() > max_out {
            return Err(FilterError::Corrupt(
                super::SHUFFLE,
                "shuffled chunk larger than expected".into(),
            ));
        }
        let s = self.element_size;
        if s <= 1 || input.len() < s {
            return Ok(input);
        }
        let mut out = vec![0u8; input.len()];
        unshuffle_into(&input, &mut out, s);
        Ok(out)
    }

    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        let s = self.element_size;
        if s <= 1 || input.len() < s {
            return Ok(input);
        }
        let n = input.len() / s;
        let mut out = input.clone();
        for (i, e) in input[..n * s].chunks_exact(s).enumerate() {
            for (b, &v) in e.iter().enumerate() {
                out[b * n + i] = v;
            }
        }
        Ok(out)
    }
}
