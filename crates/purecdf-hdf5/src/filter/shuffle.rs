//! The shuffle filter (id 2): byte planes of `element_size`-byte elements stored one after the
//! other; trailing bytes that do not make a whole element are left in place.

use super::{Filter, FilterError};

pub(super) struct Shuffle {
    pub(super) element_size: usize,
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
        let n = input.len() / s;
        // Written element by element (sequential stores), reading one byte from each plane.
        let mut out = Vec::with_capacity(input.len());
        match s {
            2 => unshuffle_fixed::<2>(&input, n, &mut out),
            4 => unshuffle_fixed::<4>(&input, n, &mut out),
            8 => unshuffle_fixed::<8>(&input, n, &mut out),
            _ => {
                for i in 0..n {
                    out.extend((0..s).map(|b| input[b * n + i]));
                }
            }
        }
        // Trailing bytes that do not make a whole element are stored as they are.
        out.extend_from_slice(&input[n * s..]);
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

/// Un-shuffles `n` elements of `S` bytes: element i is byte i of each of the S planes.
// The index walks S planes in step; an iterator per plane would be no clearer.
#[allow(clippy::needless_range_loop)]
fn unshuffle_fixed<const S: usize>(input: &[u8], n: usize, out: &mut Vec<u8>) {
    let planes: [&[u8]; S] = std::array::from_fn(|b| &input[b * n..(b + 1) * n]);
    for i in 0..n {
        let e: [u8; S] = std::array::from_fn(|b| planes[b][i]);
        out.extend_from_slice(&e);
    }
}
