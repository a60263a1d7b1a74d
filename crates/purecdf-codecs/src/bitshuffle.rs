//! The bitshuffle filter's format (Masui et al.'s bitshuffle library, `bshuf_h5filter.c`; HDF5
//! registered filter id 32008; client data: major and minor version, element size, block size in
//! elements (0: the default), compression (0 none, 2 LZ4, 3 zstd), zstd level).
//!
//! Elements are bit-shuffled ([`crate::shuffle::bitshuffle`]) in blocks of `block` elements; the
//! last block keeps the largest multiple of 8 elements left and the final `n % 8` elements are
//! stored as they are. Uncompressed, the chunk keeps its size. Compressed, a big-endian u64 with
//! the decoded size and a big-endian u32 with the block size in bytes come first, then each block
//! as a big-endian u32 length and a raw LZ4 block or zstd frame, then the final elements.

use crate::shuffle::{bitshuffle, bitunshuffle};
use crate::{be32, be64, corrupt, CodecError, Result};

/// How each block is compressed after the bit shuffle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed (client datum 0).
    None,
    /// LZ4 (client datum 2).
    Lz4,
    /// zstd at a level (client datum 3).
    Zstd(i32),
}

/// The library's default block size in elements: 8 KiB worth, a multiple of 8, at least 128.
pub fn default_block_size(elem_size: usize) -> usize {
    (8192 / elem_size.max(1) / 8 * 8).max(128)
}

/// The blocks of `n` elements: (first element, element count), then the start of the tail.
fn blocks(n: usize, block: usize) -> (Vec<(usize, usize)>, usize) {
    let mut v = Vec::with_capacity(n / block + 1);
    let mut at = 0;
    while n - at >= block {
        v.push((at, block));
        at += block;
    }
    let last = (n - at) / 8 * 8;
    if last > 0 {
        v.push((at, last));
        at += last;
    }
    (v, at)
}

/// Decodes a chunk. `block` is in elements (0: the default; compressed chunks carry their own);
/// the output is at most `max_out` bytes.
pub fn decode(
    input: &[u8],
    elem_size: usize,
    block: usize,
    compression: Compression,
    max_out: usize,
) -> Result<Vec<u8>> {
    if elem_size == 0 {
        return Err(CodecError::BadParams("bitshuffle element size 0".into()));
    }
    let (nbytes, block, mut at) = match compression {
        Compression::None => (input.len(), block, 0usize),
        _ => {
            let (Some(total), Some(bb)) = (be64(input, 0), be32(input, 8)) else {
                return corrupt("bitshuffle: short header");
            };
            if total > max_out as u64 {
                return Err(CodecError::TooLarge(max_out));
            }
            (total as usize, bb as usize / elem_size, 12)
        }
    };
    if nbytes > max_out {
        return Err(CodecError::TooLarge(max_out));
    }
    if !nbytes.is_multiple_of(elem_size) {
        return corrupt("bitshuffle: size not a multiple of the element size");
    }
    let block = if block == 0 {
        default_block_size(elem_size)
    } else {
        block
    };
    if !block.is_multiple_of(8) {
        return corrupt("bitshuffle: block size not a multiple of 8");
    }
    let n = nbytes / elem_size;
    let (list, tail) = blocks(n, block);
    let mut out = vec![0u8; nbytes];
    let mut tmp = vec![0u8; block.min(n) * elem_size];
    for (first, count) in list {
        let len = count * elem_size;
        let dst = &mut out[first * elem_size..first * elem_size + len];
        match compression {
            Compression::None => bitunshuffle(&input[first * elem_size..], dst, elem_size, count),
            _ => {
                let Some(cs) = be32(input, at) else {
                    return corrupt("bitshuffle: truncated block length");
                };
                at += 4;
                let Some(data) = input.get(at..at.saturating_add(cs as usize)) else {
                    return corrupt("bitshuffle: truncated block");
                };
                at += cs as usize;
                let t = &mut tmp[..len];
                let got = match compression {
                    Compression::Lz4 => {
                        crate::lz4_block::decode_block_into(data, t).ok_or_else(|| {
                            CodecError::Corrupt("bitshuffle: lz4: corrupt block".into())
                        })?
                    }
                    _ => crate::zstd::decode_into(data, t)
                        .map_err(|e| CodecError::Corrupt(format!("bitshuffle: zstd: {e}")))?,
                };
                if got != len {
                    return corrupt("bitshuffle: block decodes to the wrong size");
                }
                bitunshuffle(t, dst, elem_size, count);
            }
        }
    }
    let rest = nbytes - tail * elem_size;
    let src_at = if compression == Compression::None {
        tail * elem_size
    } else {
        at
    };
    match input.get(src_at..src_at + rest) {
        Some(r) => out[tail * elem_size..].copy_from_slice(r),
        None => return corrupt("bitshuffle: truncated tail"),
    }
    Ok(out)
}

/// Encodes a chunk (`input.len()` a multiple of `elem_size`); `block` in elements, 0 for the
/// default.
pub fn encode(
    input: &[u8],
    elem_size: usize,
    block: usize,
    compression: Compression,
) -> Result<Vec<u8>> {
    if elem_size == 0 || !input.len().is_multiple_of(elem_size) {
        return Err(CodecError::BadParams(
            "bitshuffle: size not a multiple of the element size".into(),
        ));
    }
    let block = if block == 0 {
        default_block_size(elem_size)
    } else {
        block
    };
    if !block.is_multiple_of(8) || block * elem_size > u32::MAX as usize {
        return Err(CodecError::BadParams(format!(
            "bitshuffle block size {block}"
        )));
    }
    let n = input.len() / elem_size;
    let (list, tail) = blocks(n, block);
    let mut out = Vec::with_capacity(input.len() + 12);
    if compression != Compression::None {
        out.extend_from_slice(&(input.len() as u64).to_be_bytes());
        out.extend_from_slice(&((block * elem_size) as u32).to_be_bytes());
    } else {
        out.resize(input.len(), 0);
    }
    let mut tmp = vec![0u8; block.min(n) * elem_size];
    for (first, count) in list {
        let len = count * elem_size;
        let src = &input[first * elem_size..first * elem_size + len];
        match compression {
            Compression::None => bitshuffle(src, &mut out[first * elem_size..], elem_size, count),
            _ => {
                let t = &mut tmp[..len];
                bitshuffle(src, t, elem_size, count);
                let c = match compression {
                    Compression::Lz4 => lz4_flex::block::compress(t),
                    Compression::Zstd(level) => crate::zstd::encode(t, level)?,
                    Compression::None => unreachable!(),
                };
                out.extend_from_slice(&(c.len() as u32).to_be_bytes());
                out.extend_from_slice(&c);
                // zstd's frames come from the kept buffers: back they go.
                crate::buffers::give(c);
            }
        }
    }
    let rest = &input[tail * elem_size..];
    if compression == Compression::None {
        out[tail * elem_size..].copy_from_slice(rest);
    } else {
        out.extend_from_slice(rest);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let raw: Vec<u8> = (0..30_003u32).flat_map(|v| (v / 3).to_le_bytes()).collect();
        for c in [Compression::None, Compression::Lz4, Compression::Zstd(3)] {
            for es in [1, 2, 4, 12] {
                let len = raw.len() / es * es;
                for block in [0, 8, 1000] {
                    let enc = encode(&raw[..len], es, block, c).unwrap();
                    assert_eq!(
                        decode(&enc, es, block, c, len).unwrap(),
                        raw[..len],
                        "{c:?} {es} {block}"
                    );
                    assert!(decode(&enc, es, block, c, len - 1).is_err());
                    let _ = decode(&enc[..enc.len() / 2], es, block, c, len);
                }
            }
        }
    }
}
