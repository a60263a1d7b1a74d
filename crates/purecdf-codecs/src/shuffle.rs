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

/// [`shuffle`] of `n` elements of `N` bytes, one output row at a time (no bounds checks in the
/// loops; the block being shuffled stays in cache across the `N` passes).
fn shuffle_n<const N: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    for (j, row) in dst[..N * n].chunks_exact_mut(n).enumerate() {
        for (d, e) in row.iter_mut().zip(src[..N * n].chunks_exact(N)) {
            *d = e[j];
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
