//! Byte shuffle and bit shuffle, the transposes that blosc, HDF5's shuffle filter (id 2) and the
//! bitshuffle filter (id 32008) apply before compressing.
//!
//! Byte shuffle of `n` elements of `size` bytes: byte `j` of element `i` goes to `j * n + i`;
//! bytes past the last whole element stay in place. Bit shuffle (Masui et al., the bitshuffle
//! library's `bshuf_trans_bit_elem`) of `n` elements (a multiple of 8): bit `b` of byte `j` of
//! element `i` goes to bit `i % 8` of byte `(j * 8 + b) * n / 8 + i / 8`.

/// Byte-shuffles `src` (elements of `size` bytes) into `dst` (same length).
pub fn shuffle(src: &[u8], dst: &mut [u8], size: usize) {
    debug_assert_eq!(src.len(), dst.len());
    let n = if size > 1 { src.len() / size } else { 0 };
    if n == 0 {
        dst.copy_from_slice(src);
        return;
    }
    match size {
        2 => shuffle_n::<2>(src, dst, n),
        4 => {
            let done = deinterleave4_sse2(src, dst, n);
            shuffle4_from(src, dst, n, done);
        }
        8 => shuffle_n::<8>(src, dst, n),
        _ => {
            for j in 0..size {
                let row = &mut dst[j * n..(j + 1) * n];
                for (i, d) in row.iter_mut().enumerate() {
                    *d = src[i * size + j];
                }
            }
        }
    }
    let tail = n * size;
    dst[tail..].copy_from_slice(&src[tail..]);
}

/// Undoes [`shuffle`].
pub fn unshuffle(src: &[u8], dst: &mut [u8], size: usize) {
    debug_assert_eq!(src.len(), dst.len());
    let n = if size > 1 { src.len() / size } else { 0 };
    if n == 0 {
        dst.copy_from_slice(src);
        return;
    }
    let planes: Vec<&[u8]> = src[..size * n].chunks_exact(n).collect();
    unshuffle_planes(&planes, &mut dst[..size * n]);
    let tail = n * size;
    dst[tail..].copy_from_slice(&src[tail..]);
}

/// [`unshuffle`] with each byte plane wherever it is: `planes[j]` holds byte `j` of every
/// element (all planes of one length `n`), and `dst` (`n * planes.len()` bytes) gets the
/// elements. Blosc reads the planes it stored uncompressed straight from the frame this way.
///
/// # Panics
/// When the planes differ in length or `dst` is not `n * planes.len()` bytes long.
pub fn unshuffle_planes(planes: &[&[u8]], dst: &mut [u8]) {
    let size = planes.len();
    let n = planes.first().map_or(0, |p| p.len());
    assert!(
        planes.iter().all(|p| p.len() == n) && dst.len() == n * size,
        "unshuffle_planes: planes of unequal lengths or a wrong output length"
    );
    match size {
        0 => {}
        1 => dst.copy_from_slice(planes[0]),
        2 => unshuffle_n::<2>(planes, dst, n),
        4 => {
            let (p0, p1, p2, p3) = (planes[0], planes[1], planes[2], planes[3]);
            let done = interleave4_sse2(p0, p1, p2, p3, dst);
            for ((((e, a), b), c), d) in dst[4 * done..4 * n]
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
            let done = interleave8_sse2(planes, dst);
            let rows: [&[u8]; 8] = std::array::from_fn(|j| &planes[j][done..]);
            unshuffle_n::<8>(&rows, &mut dst[8 * done..], n - done);
        }
        _ => {
            for (j, row) in planes.iter().enumerate() {
                for (i, s) in row.iter().enumerate() {
                    dst[i * size + j] = *s;
                }
            }
        }
    }
}

/// [`shuffle`] of `n` elements of `N` bytes, one output row at a time (no bounds checks in the
/// loops; the block being shuffled stays in cache across the `N` passes).
fn shuffle_n<const N: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    for (j, row) in dst[..N * n].chunks_exact_mut(n).enumerate() {
        for (d, e) in row.iter_mut().zip(src[..N * n].chunks_exact(N)) {
            *d = e[j];
        }
    }
}

/// The plain loop of [`shuffle`] for 4-byte elements, from element `from` on.
fn shuffle4_from(src: &[u8], dst: &mut [u8], n: usize, from: usize) {
    let (p0, rest) = dst.split_at_mut(n);
    let (p1, rest) = rest.split_at_mut(n);
    let (p2, rest) = rest.split_at_mut(n);
    let p3 = &mut rest[..n];
    for ((((e, a), b), c), d) in src[4 * from..4 * n]
        .chunks_exact(4)
        .zip(&mut p0[from..])
        .zip(&mut p1[from..])
        .zip(&mut p2[from..])
        .zip(&mut p3[from..])
    {
        *a = e[0];
        *b = e[1];
        *c = e[2];
        *d = e[3];
    }
}

/// Splits the first `n` 4-byte elements of `src` into the four byte planes of `dst` (each `n`
/// long), sixteen elements per step with SSE2 (part of every x86-64 CPU); returns how many
/// elements it did (a multiple of 16). Each step keeps the low and then the high byte of every
/// 16-bit lane twice over (mask or shift, then a saturating pack, which saturates nothing as
/// the lanes hold values below 256): bytes 0 and 2, then 1 and 3, then each plane alone.
#[cfg(target_arch = "x86_64")]
fn deinterleave4_sse2(src: &[u8], dst: &mut [u8], n: usize) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_loadu_si128, _mm_packus_epi16, _mm_set1_epi16, _mm_srli_epi16,
        _mm_storeu_si128,
    };
    let n16 = n.min(src.len() / 4).min(dst.len() / 4) / 16 * 16;
    // SAFETY: SSE2 is part of x86-64; every load reads 16 bytes at 4i + 48 + 16 <= 4 * n16 <=
    // src.len(), every store writes 16 bytes at j * n + i + 16 <= 3n + n16 <= 4n <= dst.len(),
    // and unaligned loads and stores have no alignment requirement.
    unsafe {
        let low = _mm_set1_epi16(0xFF);
        let even =
            |a: __m128i, b: __m128i| _mm_packus_epi16(_mm_and_si128(a, low), _mm_and_si128(b, low));
        let odd =
            |a: __m128i, b: __m128i| _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8));
        for i in (0..n16).step_by(16) {
            let s = src.as_ptr().add(4 * i).cast::<__m128i>();
            let (v0, v1) = (_mm_loadu_si128(s), _mm_loadu_si128(s.add(1)));
            let (v2, v3) = (_mm_loadu_si128(s.add(2)), _mm_loadu_si128(s.add(3)));
            // Bytes 0 and 2, and 1 and 3, of elements 0-7 and of elements 8-15.
            let (e02a, e13a) = (even(v0, v1), odd(v0, v1));
            let (e02b, e13b) = (even(v2, v3), odd(v2, v3));
            let d = dst.as_mut_ptr().add(i);
            _mm_storeu_si128(d.cast(), even(e02a, e02b));
            _mm_storeu_si128(d.add(n).cast(), even(e13a, e13b));
            _mm_storeu_si128(d.add(2 * n).cast(), odd(e02a, e02b));
            _mm_storeu_si128(d.add(3 * n).cast(), odd(e13a, e13b));
        }
    }
    n16
}

/// Elsewhere the plain loop does all the work.
#[cfg(not(target_arch = "x86_64"))]
fn deinterleave4_sse2(_: &[u8], _: &mut [u8], _: usize) -> usize {
    0
}

/// Interleaves four byte planes of equal length into 4-byte elements of `out` (four times
/// as long), sixteen elements per step with SSE2; returns how many elements it wrote (a
/// multiple of 16).
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

/// Interleaves eight byte planes (of at least the same length) into 8-byte elements of `out`,
/// sixteen elements per step with SSE2: bytes, then 16-bit pairs, then 32-bit quads are
/// unpacked in turn; returns how many elements it wrote (a multiple of 16).
#[cfg(target_arch = "x86_64")]
fn interleave8_sse2(planes: &[&[u8]], out: &mut [u8]) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi16, _mm_unpackhi_epi32,
        _mm_unpackhi_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi8,
    };
    if planes.len() != 8 {
        return 0;
    }
    let n = planes
        .iter()
        .map(|p| p.len())
        .min()
        .unwrap_or(0)
        .min(out.len() / 8)
        / 16
        * 16;
    for i in (0..n).step_by(16) {
        // SAFETY: SSE2 is part of x86-64; each load reads 16 bytes at i + 16 <= n <= the
        // plane's length, and the eight stores write 128 bytes at 8i + 128 <= 8n <= out.len();
        // unaligned loads and stores have no alignment requirement.
        unsafe {
            let p: [__m128i; 8] =
                std::array::from_fn(|j| _mm_loadu_si128(planes[j].as_ptr().add(i).cast()));
            // Bytes j and j+1 of elements 0-7 (lo) and 8-15 (hi), for j = 0, 2, 4, 6.
            let b: [__m128i; 8] = std::array::from_fn(|k| {
                let (x, y) = (p[2 * (k / 2)], p[2 * (k / 2) + 1]);
                if k % 2 == 0 {
                    _mm_unpacklo_epi8(x, y)
                } else {
                    _mm_unpackhi_epi8(x, y)
                }
            });
            // Bytes 0-3 and 4-7 of elements 0-3, 4-7 (from lo) and 8-11, 12-15 (from hi).
            let w: [__m128i; 8] = std::array::from_fn(|k| {
                let half = k / 4; // 0: elements 0-7, 1: elements 8-15
                let (x, y) = if (k / 2) % 2 == 0 {
                    (b[half], b[2 + half])
                } else {
                    (b[4 + half], b[6 + half])
                };
                if k % 2 == 0 {
                    _mm_unpacklo_epi16(x, y)
                } else {
                    _mm_unpackhi_epi16(x, y)
                }
            });
            // w[4h + 0/1]: bytes 0-3 of elements 8h+0..3 / 8h+4..7; w[4h + 2/3]: bytes 4-7.
            let o = out.as_mut_ptr().add(8 * i).cast::<__m128i>();
            for h in 0..2 {
                for q in 0..2 {
                    let (lo, hi) = (w[4 * h + q], w[4 * h + 2 + q]);
                    let e = 8 * h + 4 * q; // the first of the four elements
                    _mm_storeu_si128(o.add(e / 2), _mm_unpacklo_epi32(lo, hi));
                    _mm_storeu_si128(o.add(e / 2 + 1), _mm_unpackhi_epi32(lo, hi));
                }
            }
        }
    }
    n
}

/// Elsewhere the plain loop does all the work.
#[cfg(not(target_arch = "x86_64"))]
fn interleave8_sse2(_: &[&[u8]], _: &mut [u8]) -> usize {
    0
}

/// Elsewhere the plain loop does all the work.
#[cfg(not(target_arch = "x86_64"))]
fn interleave4_sse2(_: &[u8], _: &[u8], _: &[u8], _: &[u8], _: &mut [u8]) -> usize {
    0
}

/// [`unshuffle_planes`] of `n` elements of `N` bytes.
fn unshuffle_n<const N: usize>(planes: &[&[u8]], dst: &mut [u8], n: usize) {
    let rows: [&[u8]; N] = std::array::from_fn(|j| &planes[j][..n]);
    for (i, e) in dst[..N * n].chunks_exact_mut(N).enumerate() {
        for j in 0..N {
            e[j] = rows[j][i];
        }
    }
}

/// Transposes an 8x8 bit matrix held in a u64 (bit `8 * r + c` to bit `8 * c + r`).
#[inline]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// Bit-shuffles the first `n` elements of `size` bytes of `src` into `dst`, `n` a multiple of 8.
/// Only `n * size` bytes of each are touched. A byte shuffle first makes the bytes of each
/// position contiguous; each run of 8 of them is then one 8x8 bit transpose.
pub fn bitshuffle(src: &[u8], dst: &mut [u8], size: usize, n: usize) {
    debug_assert!(n.is_multiple_of(8) && src.len() >= n * size && dst.len() >= n * size);
    let rows = n / 8;
    let mut tmp = vec![0u8; n * size];
    shuffle(&src[..n * size], &mut tmp, size);
    let mut outs: Vec<&mut [u8]> = dst[..n * size].chunks_exact_mut(rows.max(1)).collect();
    for (j, row) in tmp.chunks_exact(n.max(1)).enumerate() {
        let bits = &mut outs[j * 8..j * 8 + 8];
        for (g, eight) in row.chunks_exact(8).enumerate() {
            let t = transpose8(u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])));
            for (b, out) in bits.iter_mut().enumerate() {
                out[g] = (t >> (8 * b)) as u8;
            }
        }
    }
}

/// Undoes [`bitshuffle`] of `n` elements (a multiple of 8) of `size` bytes.
pub fn bitunshuffle(src: &[u8], dst: &mut [u8], size: usize, n: usize) {
    debug_assert!(n.is_multiple_of(8) && src.len() >= n * size && dst.len() >= n * size);
    let rows = n / 8;
    if n == 0 {
        return;
    }
    let mut tmp = vec![0u8; n * size];
    let ins: Vec<&[u8]> = src[..n * size].chunks_exact(rows).collect();
    for (j, row) in tmp.chunks_exact_mut(n).enumerate() {
        let bits: [&[u8]; 8] = std::array::from_fn(|b| ins[j * 8 + b]);
        for (g, eight) in row.chunks_exact_mut(8).enumerate() {
            let mut x = 0u64;
            for (b, bit) in bits.iter().enumerate() {
                x |= u64::from(bit[g]) << (8 * b);
            }
            eight.copy_from_slice(&transpose8(x).to_le_bytes());
        }
    }
    unshuffle(&tmp, &mut dst[..n * size], size);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Byte `j` of element `i` lands at `j * n + i` and the tail stays, at lengths that take
    /// the 16-element vector steps, the plain loops after them, or both.
    #[test]
    fn shuffle_places_every_byte() {
        for size in [2usize, 3, 4, 8] {
            for len in [0, 5, 16 * size, 16 * size + 1, 37 * size + 3, 4096 + 2] {
                let src: Vec<u8> = (0..len).map(|i| (i * 131 + i / 7) as u8).collect();
                let mut enc = vec![0u8; len];
                shuffle(&src, &mut enc, size);
                let n = len / size;
                for i in 0..n {
                    for j in 0..size {
                        assert_eq!(enc[j * n + i], src[i * size + j], "size {size} len {len}");
                    }
                }
                assert_eq!(enc[n * size..], src[n * size..]);
                let mut dec = vec![0u8; len];
                unshuffle(&enc, &mut dec, size);
                assert_eq!(dec, src, "size {size} len {len}");
            }
        }
    }

    #[test]
    fn shuffles_invert() {
        let src: Vec<u8> = (0..1003u32).map(|v| (v * 31 % 251) as u8).collect();
        for size in [1, 2, 3, 4, 8, 16] {
            let mut a = vec![0; src.len()];
            let mut b = vec![0; src.len()];
            shuffle(&src, &mut a, size);
            unshuffle(&a, &mut b, size);
            assert_eq!(b, src);
            let n = src.len() / size / 8 * 8;
            let mut a = vec![0; n * size];
            let mut b = vec![0; n * size];
            bitshuffle(&src, &mut a, size, n);
            bitunshuffle(&a, &mut b, size, n);
            assert_eq!(b, src[..n * size]);
        }
        // One element of value 1 among eight: bit 0 of byte 0 of element 0 is the first bit.
        let mut one = [0u8; 8];
        one[0] = 1;
        let mut out = [0u8; 8];
        bitshuffle(&one, &mut out, 1, 8);
        assert_eq!(out, [1, 0, 0, 0, 0, 0, 0, 0]);
        one[0] = 0x80;
        one[1] = 0x80;
        bitshuffle(&one, &mut out, 1, 8);
        assert_eq!(out, [0, 0, 0, 0, 0, 0, 0, 3]);
    }
}
