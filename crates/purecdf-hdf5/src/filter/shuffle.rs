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
        let mut out = input.clone();
        for (b, plane) in input[..n * s].chunks_exact(n).enumerate() {
            for (i, &v) in plane.iter().enumerate() {
                out[i * s + b] = v;
            }
        }
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
