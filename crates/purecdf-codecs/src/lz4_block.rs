//! Decoding of one raw LZ4 block (the LZ4 block format: a sequence of token byte, literal
//! length extension, literals, 2-byte little-endian match offset, match length extension; the
//! last sequence has literals only). The framings around it (HDF5's LZ4 filter, blosc's
//! streams, numcodecs' size prefix, bitshuffle's blocks) call this.
//!
//! Written for the data of scientific arrays: shuffled byte planes of numbers decode to long
//! runs of one byte or of a short pattern (matches whose offset is shorter than their length),
//! which a byte-at-a-time copy makes the slowest part of a read. Here a run of one byte is a
//! fill, a short pattern is copied in doubling spans, and short literal runs and matches use
//! one 16-byte copy when the buffers have room. Every index is checked: corrupt input gives
//! `None`, never a panic or a write outside `dst`.

/// Bytes a sequence may write past its end in the fast paths (later sequences overwrite them).
const WILD: usize = 16;

/// Decodes the LZ4 block `src` into the start of `dst`; returns the decoded length, or `None`
/// when the block is corrupt or decodes to more than `dst.len()` bytes. Bytes of `dst` past the
/// decoded length may be overwritten.
pub fn decode_block_into(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let (mut s, mut d) = (0usize, 0usize);
    loop {
        let token = *src.get(s)?;
        s += 1;
        // Literals.
        let mut lit = usize::from(token >> 4);
        if lit == 15 {
            lit += extension(src, &mut s)?;
        }
        if lit < WILD && s + WILD <= src.len() && d + WILD <= dst.len() {
            dst[d..d + WILD].copy_from_slice(&src[s..s + WILD]);
        } else {
            let from = src.get(s..s.checked_add(lit)?)?;
            dst.get_mut(d..d.checked_add(lit)?)?.copy_from_slice(from);
        }
        s += lit;
        d += lit;
        if s == src.len() {
            // The last sequence holds literals only.
            return (d <= dst.len()).then_some(d);
        }
        if s > src.len() || d > dst.len() {
            return None;
        }
        // The match.
        let offset = usize::from(u16::from_le_bytes([*src.get(s)?, *src.get(s + 1)?]));
        s += 2;
        if offset == 0 || offset > d {
            return None;
        }
        let mut len = usize::from(token & 15) + 4;
        if len == 19 {
            len += extension(src, &mut s)?;
        }
        let end = d.checked_add(len)?;
        if end > dst.len() {
            return None;
        }
        copy_match(dst, d, offset, len);
        d = end;
    }
}

/// Reads a length extension: bytes added up to and including the first one below 255.
fn extension(src: &[u8], s: &mut usize) -> Option<usize> {
    let mut n = 0usize;
    loop {
        let b = *src.get(*s)?;
        *s += 1;
        n = n.checked_add(usize::from(b))?;
        if b != 255 {
            return Some(n);
        }
    }
}

/// Copies the `len` bytes that start `offset` bytes back to position `d` (the caller checked
/// `offset <= d` and `d + len <= dst.len()`); when `offset < len` the source overlaps the
/// destination and the copy repeats the last `offset` bytes.
fn copy_match(dst: &mut [u8], d: usize, offset: usize, len: usize) {
    let from = d - offset;
    if offset >= WILD && len <= WILD && d + WILD <= dst.len() {
        let tmp: [u8; WILD] = dst[from..from + WILD].try_into().expect("16 bytes");
        dst[d..d + WILD].copy_from_slice(&tmp);
    } else if offset >= len {
        dst.copy_within(from..from + len, d);
    } else if offset == 1 {
        let b = dst[from];
        dst[d..d + len].fill(b);
    } else {
        // A pattern of `offset` bytes: everything from `from` to the end of what is written
        // so far repeats it, so each step copies all of that, doubling the span.
        let mut done = 0;
        while done < len {
            let n = (offset + done).min(len - done);
            dst.copy_within(from..from + n, d + done);
            done += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks made by an independent encoder (lz4_flex) decode to their input, for data with
    /// long one-byte runs, short patterns, literals only and mixtures, at many lengths.
    #[test]
    fn decodes_what_lz4_flex_encodes() {
        let mut inputs: Vec<Vec<u8>> = vec![Vec::new(), vec![7], vec![0; 100_000]];
        let mut x = 0x1234_5678u32;
        let mut noise = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for len in [1usize, 5, 15, 16, 17, 19, 64, 300, 4096, 70_000] {
            inputs.push((0..len).map(|_| noise() as u8).collect());
            inputs.push((0..len).map(|i| (i % 3) as u8).collect());
            inputs.push((0..len).map(|i| (i / 7 % 5) as u8 * 40).collect());
            inputs.push(
                (0..len)
                    .map(|i| {
                        if noise() % 4 == 0 {
                            noise() as u8
                        } else {
                            (i % 9) as u8
                        }
                    })
                    .collect(),
            );
            // Float planes: shuffled bytes of a smooth field with noise.
            let floats: Vec<u8> = (0..len)
                .flat_map(|i| (i as f32 * 0.01 + (noise() % 1000) as f32 * 1e-5).to_le_bytes())
                .collect();
            let mut planes = vec![0u8; floats.len()];
            crate::shuffle::shuffle(&floats, &mut planes, 4);
            inputs.push(planes);
        }
        for input in inputs {
            let block = lz4_flex::block::compress(&input);
            for slack in [0usize, 1, 40] {
                let mut out = vec![0xAA; input.len() + slack];
                let n = decode_block_into(&block, &mut out);
                assert_eq!(n, Some(input.len()), "length {}", input.len());
                assert_eq!(&out[..input.len()], &input[..]);
            }
            if !input.is_empty() {
                let mut short = vec![0u8; input.len() - 1];
                assert_eq!(decode_block_into(&block, &mut short), None);
            }
        }
    }

    /// Every truncation and many corruptions of valid blocks give `None` or a length, never a
    /// panic, and decode as lz4_flex decodes them where it accepts them.
    #[test]
    fn corrupt_blocks_never_panic() {
        let input: Vec<u8> = (0..3000u32).map(|i| (i % 17 + i / 100) as u8).collect();
        let block = lz4_flex::block::compress(&input);
        let mut cases: Vec<Vec<u8>> = (0..block.len()).map(|n| block[..n].to_vec()).collect();
        for i in 0..block.len() {
            for v in [0u8, 1, 15, 0xF0, 0xFF] {
                let mut b = block.clone();
                b[i] = v;
                cases.push(b);
            }
        }
        for case in cases {
            let mut ours = vec![0u8; input.len()];
            let mut theirs = vec![0u8; input.len()];
            let a = decode_block_into(&case, &mut ours);
            let b = lz4_flex::block::decompress_into(&case, &mut theirs).ok();
            // What lz4_flex decodes, we decode the same; a block only ours accepts (the format's
            // end-of-block rules, which lz4_flex enforces in places) stays inside `dst`.
            if let Some(b) = b {
                assert_eq!(a, Some(b));
                assert_eq!(ours[..b], theirs[..b]);
            }
        }
    }
}
