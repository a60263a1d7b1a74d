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
            // Sixteen elements at a time with SSE2 (part of every x86-64 CPU), then the rest.
            let done = interleave4_sse2(p0, p1, p2, p3, body);
            for ((((e, a), b), c), d) in body[4 * done..]
                .chunks_exact_mut(4)
                .zip(&p0[done..])
                .zip(&p1[done..])
                .zip(&p2[done..])
                .zip(&p3[done..])
            {
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

/// Interleaves four byte planes of equal length into 4-byte elements of `out` (four times
/// as long), sixteen elements per step; returns how many elements it wrote (a multiple of 16).
#[cfg(target_arch = "x86_64")]
fn interleave4_sse2(p0: &[u8], p1: &[u8], p2: &[u8], p3: &[u8], out: &mut [u8]) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi16, _mm_unpackhi_epi8,
        _mm_unpacklo_epi16, _mm_unpacklo_epi8,
    };
    let n = p0
        .len()
        .min(p1.len())
        .min(p2.len())
        .min(p3.len())
        .min(out.len() / 4)
        / 16
        * 16;
    for i in (0..n).step_by(16) {
        // SAFETY: SSE2 is part of x86-64; each load reads 16 bytes at i + 16 <= n <= the plane's
        // length, and the four stores write 64 bytes at 4i + 64 <= 4n <= out.len(); unaligned
        // loads and stores have no alignment requirement.
        unsafe {
            let load = |p: &[u8]| _mm_loadu_si128(p.as_ptr().add(i).cast::<__m128i>());
            let (a, b, c, d) = (load(p0), load(p1), load(p2), load(p3));
            let (ab_lo, ab_hi) = (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b));
            let (cd_lo, cd_hi) = (_mm_unpacklo_epi8(c, d), _mm_unpackhi_epi8(c, d));
            let o = out.as_mut_ptr().add(4 * i).cast::<__m128i>();
            _mm_storeu_si128(o, _mm_unpacklo_epi16(ab_lo, cd_lo));
            _mm_storeu_si128(o.add(1), _mm_unpackhi_epi16(ab_lo, cd_lo));
            _mm_storeu_si128(o.add(2), _mm_unpacklo_epi16(ab_hi, cd_hi));
            _mm_storeu_si128(o.add(3), _mm_unpackhi_epi16(ab_hi, cd_hi));
        }
    }
    n
}

/// Elsewhere the plain loop does all the work.
#[cfg(not(target_arch = "x86_64"))]
fn interleave4_sse2(_: &[u8], _: &[u8], _: &[u8], _: &[u8], _: &mut [u8]) -> usize {
    0
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
        let n = input.len() / s;
        // Read element by element (sequential loads), writing one byte to each plane.
        let mut out = vec![0u8; input.len()];
        let (body, tail) = out.split_at_mut(n * s);
        let elements = input[..n * s].chunks_exact(s);
        match s {
            4 => {
                let (p0, rest) = body.split_at_mut(n);
                let (p1, rest) = rest.split_at_mut(n);
                let (p2, p3) = rest.split_at_mut(n);
                for ((((e, a), b), c), d) in elements
                    .zip(p0.iter_mut())
                    .zip(p1.iter_mut())
                    .zip(p2.iter_mut())
                    .zip(p3.iter_mut())
                {
                    *a = e[0];
                    *b = e[1];
                    *c = e[2];
                    *d = e[3];
                }
            }
            _ => {
                for (b, plane) in body.chunks_exact_mut(n).enumerate() {
                    for (o, e) in plane.iter_mut().zip(input.chunks_exact(s)) {
                        *o = e[b];
                    }
                }
            }
        }
        tail.copy_from_slice(&input[n * s..]);
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
