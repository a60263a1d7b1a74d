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
        4 => shuffle_n::<4>(src, dst, n),
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
    match size {
        2 => unshuffle_n::<2>(src, dst, n),
        4 => unshuffle_n::<4>(src, dst, n),
        8 => unshuffle_n::<8>(src, dst, n),
        _ => {
            for j in 0..size {
                let row = &src[j * n..(j + 1) * n];
                for (i, s) in row.iter().enumerate() {
                    dst[i * size + j] = *s;
                }
            }
        }
    }
    let tail = n * size;
    dst[tail..].copy_from_slice(&src[tail..]);
}

/// [`shuffle`] of `n` elements of `N` bytes, element by element (the compiler keeps the `N`
/// output rows in registers and checks no bounds in the loop).
fn shuffle_n<const N: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let mut rows: Vec<&mut [u8]> = dst[..N * n].chunks_exact_mut(n).collect();
    for (i, e) in src[..N * n].chunks_exact(N).enumerate() {
        for (j, row) in rows.iter_mut().enumerate() {
            row[i] = e[j];
        }
    }
}

/// [`unshuffle`] of `n` elements of `N` bytes.
fn unshuffle_n<const N: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let rows: [&[u8]; N] = std::array::from_fn(|j| &src[j * n..(j + 1) * n]);
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
/// Only `n * size` bytes of each are touched.
pub fn bitshuffle(src: &[u8], dst: &mut [u8], size: usize, n: usize) {
    debug_assert!(n.is_multiple_of(8) && src.len() >= n * size && dst.len() >= n * size);
    let rows = n / 8;
    for g in 0..rows {
        let base = g * 8 * size;
        for j in 0..size {
            let mut x = 0u64;
            for m in 0..8 {
                x |= u64::from(src[base + m * size + j]) << (8 * m);
            }
            let t = transpose8(x);
            for b in 0..8 {
                dst[(j * 8 + b) * rows + g] = (t >> (8 * b)) as u8;
            }
        }
    }
}

/// Undoes [`bitshuffle`] of `n` elements (a multiple of 8) of `size` bytes.
pub fn bitunshuffle(src: &[u8], dst: &mut [u8], size: usize, n: usize) {
    debug_assert!(n.is_multiple_of(8) && src.len() >= n * size && dst.len() >= n * size);
    let rows = n / 8;
    for g in 0..rows {
        let base = g * 8 * size;
        for j in 0..size {
            let mut x = 0u64;
            for b in 0..8 {
                x |= u64::from(src[(j * 8 + b) * rows + g]) << (8 * b);
            }
            let t = transpose8(x);
            for m in 0..8 {
                dst[base + m * size + j] = (t >> (8 * m)) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
