//! The shuffle filter (id 2): byte planes of `element_size`-byte elements stored one after the
//! other; trailing bytes that do not make a whole element are left in place.

use super::{Filter, FilterError};

pub(super) struct Shuffle {
    pub(super) element_size: usize,
}

/// Undoes the shuffle of `src` (planes of `s`-byte elements) into `dst`, which has the same
/// length. Trailing bytes that do not make a whole element are copied as they are.
pub(super) fn unshuffle_into(src: &[u8], dst: &mut [u8], s: usize) {
    if src.len() != dst.len() {
        let k = src.len().min(dst.len());
        dst[..k].copy_from_slice(&src[..k]);
        return;
    }
    purecdf_codecs::shuffle::unshuffle(src, dst, s);
}

impl Filter for Shuffle {
    fn decode_into(&self, input: &[u8], dst: &mut [u8]) -> bool {
        if input.len() != dst.len() {
            return false;
        }
        if self.element_size <= 1 || input.len() < self.element_size {
            dst.copy_from_slice(input);
        } else {
            unshuffle_into(input, dst, self.element_size);
        }
        true
    }

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
        if self.element_size <= 1 || input.len() < self.element_size {
            return Ok(input);
        }
        self.encode_slice(&input)
    }

    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        let s = self.element_size;
        if s <= 1 || input.len() < s {
            return Ok(input.to_vec());
        }
        let mut out = vec![0u8; input.len()];
        purecdf_codecs::shuffle::shuffle(input, &mut out, s);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decoding undoes encoding for every element size the fast paths treat apart, at lengths
    /// around the 16-element steps and with trailing bytes that make no whole element.
    #[test]
    fn unshuffle_undoes_shuffle() {
        for s in [2, 3, 4, 8] {
            for len in (0..200).chain([4095, 4096, 4097, 65 * 64 + 3]) {
                let raw: Vec<u8> = (0..len).map(|i| (i * 131 + i / 7) as u8).collect();
                let f = Shuffle { element_size: s };
                let enc = f.encode(raw.clone()).unwrap();
                assert_eq!(
                    f.decode(enc.clone(), len).unwrap(),
                    raw,
                    "size {s} len {len}"
                );
                let mut out = vec![0u8; len];
                unshuffle_into(&enc, &mut out, s);
                assert_eq!(out, raw, "size {s} len {len}");
            }
        }
    }

    /// Encoding puts byte b of element i at b * n + i and leaves trailing bytes in place.
    #[test]
    fn planes_and_tail_round_trip() {
        // Element sizes with a special case (4) and without, with and without trailing bytes.
        for s in [2usize, 3, 4, 8] {
            for len in [0usize, 1, s, 5 * s, 5 * s + 1, 7 * s + s - 1] {
                let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
                let f = Shuffle { element_size: s };
                let enc = f.encode(data.clone()).unwrap();
                let n = len / s;
                if n > 0 {
                    // Byte b of element i lands at b * n + i; the tail stays in place.
                    for i in 0..n {
                        for b in 0..s {
                            assert_eq!(enc[b * n + i], data[i * s + b], "s {s} len {len}");
                        }
                    }
                    assert_eq!(enc[n * s..], data[n * s..]);
                } else {
                    assert_eq!(enc, data);
                }
                assert_eq!(f.decode(enc, len).unwrap(), data, "s {s} len {len}");
            }
        }
    }
}
