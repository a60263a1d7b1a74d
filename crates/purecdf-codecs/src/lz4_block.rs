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

/// The spare capacity [`compress_block_append`] wants beyond the block's limit: a buffer with
/// `limit + APPEND_SLACK` bytes free is never reallocated.
pub const APPEND_SLACK: usize = WILD;

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
    } else if offset < WILD && len <= 4 * WILD && d + len + WILD <= dst.len() {
        copy_short_pattern(dst, d, offset, len);
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

/// [`copy_match`] of a match whose offset is below 16, with [`WILD`] bytes to spare past it
/// (up to 15 of them are overwritten), in 16-byte steps and no call to `memmove`: the first 16
/// bytes are the `offset` bytes of the pattern repeated in a `u128`; each later step copies
/// the 16 bytes `period` back (a multiple of `offset` of at least 16, so they are written
/// already and repeat the same pattern).
fn copy_short_pattern(dst: &mut [u8], d: usize, offset: usize, len: usize) {
    debug_assert!(offset > 0, "the decoder refuses offset 0");
    let from = d - offset;
    let v = u128::from_le_bytes(dst[from..from + WILD].try_into().expect("16 bytes"));
    let bits = 8 * offset as u32;
    let mut pattern = v & ((1u128 << bits) - 1);
    let mut span = bits;
    while span < 128 {
        pattern |= pattern << span;
        span *= 2;
    }
    dst[d..d + WILD].copy_from_slice(&pattern.to_le_bytes());
    let period = offset * WILD.div_ceil(offset);
    let mut i = WILD;
    while i < len {
        let at = d + i - period;
        let tmp: [u8; WILD] = dst[at..at + WILD].try_into().expect("16 bytes");
        dst[d + i..d + i + WILD].copy_from_slice(&tmp);
        i += WILD;
    }
}

/// Bits of the encoder's hash of five bytes (a table of 4096 positions, 16 KiB).
const HASH_LOG: u32 = 12;
/// The format's end rules: the last 5 bytes are literals, and no match starts in the last 12.
const LAST_LITERALS: usize = 5;
const MATCH_FREE_TAIL: usize = 12;

#[inline(always)]
fn read32(src: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(src[i..i + 4].try_into().expect("4 bytes"))
}

/// The table slot of the 5 bytes at `i` (8 readable), as LZ4 hashes positions for inputs of
/// 64 KiB or more on 64-bit machines: fewer 4-byte-equal candidates that then fail, and
/// slightly longer matches (0.6% smaller blosc-lz4 frames of the benchmark's floats).
#[inline(always)]
fn hash5(src: &[u8], i: usize) -> usize {
    let v = u64::from_le_bytes(src[i..i + 8].try_into().expect("8 bytes"));
    ((v << 24).wrapping_mul(889_523_592_379) >> (64 - HASH_LOG)) as usize
}

/// The most bytes [`compress_block_into`] writes for `n` input bytes (all literals).
pub fn max_compressed_size(n: usize) -> usize {
    n + n / 255 + 16
}

/// Compresses `src` as one LZ4 block into the start of `dst`; returns the block's length, or
/// `None` when it does not fit in `dst` (give [`max_compressed_size`] bytes to always fit;
/// a smaller `dst` stops early when the data does not shrink). Inputs of 2 GiB or more are
/// refused (`None`).
///
/// Greedy matching through a hash table of the last position of each 4-byte value; after 64
/// positions without a match the scan steps 2 bytes, after 64 more 3, and so on, so data that
/// does not compress is crossed quickly, as LZ4's fast mode does.
pub fn compress_block_into(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    compress_block_into_fast(src, dst, 1)
}

/// [`compress_block_into`] with LZ4's `acceleration` (`LZ4_compress_fast`'s; 1 is the default):
/// the scan starts stepping `acceleration` bytes at a time where nothing matches (then one more
/// after each 64 positions without a match), trading ratio for speed. c-blosc 1.x compresses
/// with `10 - clevel`. Values below 1 count as 1.
pub fn compress_block_into_fast(src: &[u8], dst: &mut [u8], acceleration: u32) -> Option<usize> {
    let mut block = Vec::new();
    if !compress_block_append(src, &mut block, dst.len(), acceleration) {
        return None;
    }
    dst[..block.len()].copy_from_slice(&block);
    Some(block.len())
}

/// Appends `src` compressed as one LZ4 block to `out` (with LZ4's `acceleration`, as
/// [`compress_block_into_fast`]); false, with `out` as it was, when the block would take more
/// than `limit` bytes (give [`max_compressed_size`] to always fit; a smaller limit stops early
/// when the data does not shrink). Inputs of 2 GiB or more are refused (false).
///
/// Nothing is written twice or zeroed first: into a buffer kept from an earlier block, the
/// block costs no page faults and no fill.
pub fn compress_block_append(
    src: &[u8],
    out: &mut Vec<u8>,
    limit: usize,
    acceleration: u32,
) -> bool {
    let n = src.len();
    if n >= 1 << 31 {
        return false;
    }
    let start = out.len();
    // Room for the block and one wild copy past its end: pushes never reallocate.
    out.reserve(limit.min(max_compressed_size(n)) + APPEND_SLACK);
    let mut sink = Sink { out, start, limit };
    let mut anchor = 0usize;
    let fits = 'block: {
        if n > MATCH_FREE_TAIL {
            let mut table = [0u32; 1 << HASH_LOG];
            let last_start = n - MATCH_FREE_TAIL;
            let match_end = n - LAST_LITERALS;
            let mut ip = 1usize;
            'sequences: loop {
                // Find a match at or after `ip`.
                let mut search = acceleration.clamp(1, 65_537) << 6;
                let mut candidate;
                loop {
                    if ip > last_start {
                        break 'sequences;
                    }
                    let v = read32(src, ip);
                    let h = hash5(src, ip);
                    candidate = table[h] as usize;
                    table[h] = ip as u32;
                    if candidate < ip && ip - candidate <= 65_535 && read32(src, candidate) == v {
                        break;
                    }
                    ip += (search >> 6) as usize;
                    search += 1;
                }
                // Grow it backwards over the pending literals, then forwards.
                while ip > anchor && candidate > 0 && src[ip - 1] == src[candidate - 1] {
                    ip -= 1;
                    candidate -= 1;
                }
                let len = 4 + common_prefix(src, ip + 4, candidate + 4, match_end);
                if !sink.sequence(src, anchor..ip, Some((ip - candidate, len))) {
                    break 'block false;
                }
                ip += len;
                anchor = ip;
                if ip > last_start {
                    break;
                }
                table[hash5(src, ip - 2)] = (ip - 2) as u32;
            }
        }
        sink.sequence(src, anchor..n, None)
    };
    if !fits {
        out.truncate(start);
    }
    fits
}

/// How many bytes from `a` on equal those from `b` (`b < a`), stopping at `end`: eight at a
/// time, then the first differing byte of the eight found from their XOR.
fn common_prefix(src: &[u8], a: usize, b: usize, end: usize) -> usize {
    let mut n = 0;
    while a + n + 8 <= end {
        let x = u64::from_le_bytes(src[a + n..a + n + 8].try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(src[b + n..b + n + 8].try_into().expect("8 bytes"));
        if x != y {
            return n + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while a + n < end && src[a + n] == src[b + n] {
        n += 1;
    }
    n
}

/// Where an encoder's sequences go: the end of `out`, the block started at `start`, at most
/// `limit` bytes long.
struct Sink<'a> {
    out: &'a mut Vec<u8>,
    start: usize,
    limit: usize,
}

impl Sink<'_> {
    /// Appends one sequence: the token, the literal length extension, the literals
    /// (`src[literals]`) and, unless this is the last sequence, the match's offset and length
    /// extension. False when it would take the block over its limit.
    #[inline(always)]
    fn sequence(
        &mut self,
        src: &[u8],
        literals: std::ops::Range<usize>,
        matched: Option<(usize, usize)>,
    ) -> bool {
        let out = &mut *self.out;
        let lit = literals.len();
        let mlen = matched.map_or(0, |(_, len)| len - 4);
        let need = 1 + lit / 255 + 1 + lit + 2 + mlen / 255 + 1;
        if out.len() - self.start + need > self.limit {
            return false;
        }
        let token = (lit.min(15) << 4) as u8
            | if matched.is_some() {
                mlen.min(15) as u8
            } else {
                0
            };
        out.push(token);
        let extend = |out: &mut Vec<u8>, mut rest: usize| {
            while rest >= 255 {
                out.push(255);
                rest -= 255;
            }
            out.push(rest as u8);
        };
        if lit >= 15 {
            extend(out, lit - 15);
        }
        let from = literals.start;
        match src.get(from..from + WILD) {
            // Short runs as one 16-byte copy, cut back to their length.
            Some(wild) if lit <= WILD => {
                let at = out.len();
                out.extend_from_slice(wild);
                out.truncate(at + lit);
            }
            _ => out.extend_from_slice(&src[literals]),
        }
        if let Some((offset, _)) = matched {
            out.extend_from_slice(&(offset as u16).to_le_bytes());
            if mlen >= 15 {
                extend(out, mlen - 15);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Test data of each length: noise, one-byte runs, short patterns, patterns with noise,
    /// floats with noise, and those floats' shuffled byte planes.
    fn sample_inputs(lens: &[usize]) -> Vec<Vec<u8>> {
        let mut x = 0x1234_5678u32;
        let mut noise = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut inputs = Vec::new();
        for &len in lens {
            inputs.push((0..len).map(|_| noise() as u8).collect());
            inputs.push(vec![9; len]);
            inputs.push((0..len).map(|i| (i % 3) as u8).collect());
            inputs.push((0..len).map(|i| (i / 7 % 5) as u8 * 40).collect());
            let mixed = (0..len).map(|i| match noise() % 4 {
                0 => noise() as u8,
                _ => (i % 9) as u8,
            });
            inputs.push(mixed.collect());
            let floats: Vec<u8> = (0..len.div_ceil(4))
                .flat_map(|i| (i as f32 * 0.01 + (noise() % 1000) as f32 * 1e-5).to_le_bytes())
                .collect();
            let mut planes = vec![0u8; floats.len()];
            crate::shuffle::shuffle(&floats, &mut planes, 4);
            inputs.push(floats);
            inputs.push(planes);
        }
        inputs
    }

    /// Every offset up to 40 and length up to 300, with no spare room past the match, a little,
    /// and plenty: the copy repeats the last `offset` bytes as a byte-at-a-time copy does, and
    /// nothing before the match changes.
    #[test]
    fn match_copies_repeat_the_pattern() {
        let history: Vec<u8> = (0..64u32).map(|i| (i * 37 + 11) as u8).collect();
        for offset in 1..=40usize {
            for len in 4..=300usize {
                for spare in [0usize, 7, 15, 16, 40] {
                    let d = history.len();
                    let mut got = history.clone();
                    got.resize(d + len + spare, 0xC3);
                    let mut want = got.clone();
                    for k in 0..len {
                        want[d + k] = want[d + k - offset];
                    }
                    copy_match(&mut got, d, offset, len);
                    assert_eq!(got[..d + len], want[..d + len], "offset {offset} len {len}");
                }
            }
        }
    }

    /// Blocks made by an independent encoder (lz4_flex) decode to their input, for data with
    /// long one-byte runs, short patterns, literals only and mixtures, at many lengths.
    #[test]
    fn decodes_what_lz4_flex_encodes() {
        let mut inputs = sample_inputs(&[1, 5, 15, 16, 17, 19, 64, 300, 4096, 70_000]);
        inputs.extend([Vec::new(), vec![7], vec![0; 100_000]]);
        for input in &inputs {
            let block = lz4_flex::block::compress(input);
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

    /// Blocks we make decode, with lz4_flex (an independent decoder) and ours, to the input;
    /// a destination too small for the block gives `None`, never a panic.
    #[test]
    fn encodes_what_decoders_read() {
        let mut inputs = sample_inputs(&[14, 20, 64, 255, 300, 4096, 8192, 70_000, 200_000]);
        inputs.extend([Vec::new(), vec![1], vec![0; 12], vec![0; 13]]);
        for input in &inputs {
            let mut block = vec![0u8; max_compressed_size(input.len())];
            let k = compress_block_into(input, &mut block).expect("fits the bound");
            block.truncate(k);
            let theirs =
                lz4_flex::block::decompress(&block, input.len()).expect("lz4_flex reads it");
            assert_eq!(&theirs, input, "length {}", input.len());
            let mut ours = vec![0u8; input.len()];
            assert_eq!(decode_block_into(&block, &mut ours), Some(input.len()));
            assert_eq!(&ours, input);
            // Repetitive data shrinks about as lz4_flex's encoder makes it.
            let flex = lz4_flex::block::compress(input).len();
            assert!(
                k <= flex + flex / 8 + 16,
                "{k} bytes against lz4_flex's {flex}"
            );
            for small in [0, k / 2, k.saturating_sub(1)] {
                let mut tiny = vec![0u8; small];
                assert_eq!(compress_block_into(input, &mut tiny), None, "{small} < {k}");
            }
            // Faster scans (c-blosc's accelerations for levels 9 to 1, and beyond) still give
            // blocks both decoders read, appended after what the buffer held.
            for accel in [2, 5, 9, 1000] {
                let mut out = vec![0xEE; 3];
                let limit = max_compressed_size(input.len());
                assert!(compress_block_append(input, &mut out, limit, accel));
                assert_eq!(out[..3], [0xEE; 3]);
                let block = &out[3..];
                let theirs = lz4_flex::block::decompress(block, input.len()).expect("lz4_flex");
                assert_eq!(
                    &theirs,
                    input,
                    "length {} acceleration {accel}",
                    input.len()
                );
                assert_eq!(decode_block_into(block, &mut ours), Some(input.len()));
                // A limit below the block's length leaves the buffer as it was.
                if !block.is_empty() {
                    let n = block.len();
                    let mut short = vec![7u8; 2];
                    assert!(!compress_block_append(input, &mut short, n - 1, accel));
                    assert_eq!(short, [7, 7]);
                }
            }
        }
    }
}
