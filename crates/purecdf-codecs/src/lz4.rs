//! LZ4 in the framing of HDF5's LZ4 filter (registered filter id 32004, `H5Zlz4.c` as in
//! hdf5plugin): a big-endian u64 with the total decoded size, a big-endian u32 with the block size,
//! then for each block a big-endian u32 with its stored size and the block, a raw LZ4 block, or
//! the bytes themselves when the stored size equals the block's decoded size (compression did not
//! shrink it). The client data holds the block size in bytes; 0 means the default, 1 GiB.

use crate::{be32, be64, corrupt, CodecError, Result};

/// The block size HDF5's LZ4 filter uses when the client data gives 0.
pub const DEFAULT_BLOCK_SIZE: usize = 1 << 30;

/// Decodes an HDF5-framed LZ4 chunk of at most `max_out` bytes.
pub fn decode(input: &[u8], max_out: usize) -> Result<Vec<u8>> {
    let total = decoded_size(input)?;
    if total > max_out {
        return Err(CodecError::TooLarge(max_out));
    }
    let mut out = vec![0u8; total];
    decode_into(input, &mut out)?;
    Ok(out)
}

/// The decoded size an HDF5-framed LZ4 chunk declares.
fn decoded_size(input: &[u8]) -> Result<usize> {
    match be64(input, 0) {
        Some(total) => Ok(usize::try_from(total).unwrap_or(usize::MAX)),
        None => corrupt("lz4: short header"),
    }
}

/// Decodes an HDF5-framed LZ4 chunk into the start of `dst`, each block straight into its
/// place; returns the decoded size. A chunk that decodes to more than `dst.len()` bytes is
/// refused before anything is written.
pub fn decode_into(input: &[u8], dst: &mut [u8]) -> Result<usize> {
    let total = decoded_size(input)?;
    let Some(block) = be32(input, 8) else {
        return corrupt("lz4: short header");
    };
    if total > dst.len() {
        return Err(CodecError::TooLarge(dst.len()));
    }
    let block = block as usize;
    if block == 0 && total > 0 {
        return corrupt("lz4: zero block size");
    }
    let mut at = 12usize;
    let mut done = 0usize;
    while done < total {
        let n = block.min(total - done);
        let Some(stored) = be32(input, at) else {
            return corrupt("lz4: truncated block size");
        };
        at += 4;
        let stored = stored as usize;
        let Some(data) = input.get(at..at.saturating_add(stored)) else {
            return corrupt("lz4: truncated block");
        };
        at += stored;
        let out = &mut dst[done..done + n];
        if stored == n {
            out.copy_from_slice(data);
        } else {
            match crate::lz4_block::decode_block_into(data, out) {
                Some(k) if k == n => {}
                Some(_) => return corrupt("lz4: block decodes short"),
                None => return corrupt("lz4: corrupt block"),
            }
        }
        done += n;
    }
    Ok(total)
}

/// Encodes `input` in blocks of `block_size` bytes (0: [`DEFAULT_BLOCK_SIZE`]), in a buffer
/// from [`crate::buffers`] (give it back once stored).
pub fn encode(input: &[u8], block_size: usize) -> Result<Vec<u8>> {
    let block = if block_size == 0 {
        DEFAULT_BLOCK_SIZE
    } else {
        block_size
    };
    if block > u32::MAX as usize {
        return Err(CodecError::BadParams(format!("lz4 block size {block}")));
    }
    // As the HDF5 filter does: a block never larger than the chunk.
    let block = block.min(input.len());
    let step = block.max(1);
    // A block that does not shrink is stored as it is, so the input's size bounds each.
    let bound = input.chunks(step).map(|p| 4 + p.len()).sum::<usize>();
    let mut out = crate::buffers::take(12 + bound + crate::lz4_block::APPEND_SLACK);
    out.extend_from_slice(&(input.len() as u64).to_be_bytes());
    out.extend_from_slice(&(block as u32).to_be_bytes());
    for piece in input.chunks(step) {
        // Each block is compressed straight onto the end, no longer than the piece less a
        // byte; one that does not shrink is stored as it is instead.
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        let limit = piece.len().saturating_sub(1);
        if !crate::lz4_block::compress_block_append(piece, &mut out, limit, 1) {
            out.extend_from_slice(piece);
        }
        let n = (out.len() - at - 4) as u32;
        out[at..at + 4].copy_from_slice(&n.to_be_bytes());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip_and_bounds() {
        let raw: Vec<u8> = (0..100_000u32)
            .flat_map(|v| (v / 7).to_le_bytes())
            .collect();
        for bs in [0, 1000, 4096, 65536] {
            let enc = super::encode(&raw, bs).unwrap();
            assert!(enc.len() < raw.len() / 2);
            assert_eq!(super::decode(&enc, raw.len()).unwrap(), raw);
            assert!(super::decode(&enc, raw.len() - 1).is_err());
            // The framing: the total and block sizes, then each block behind its stored size,
            // an LZ4 block that an independent decoder (lz4_flex) reads back.
            let step = if bs == 0 { raw.len() } else { bs };
            assert_eq!(enc[..8], (raw.len() as u64).to_be_bytes());
            assert_eq!(enc[8..12], (step as u32).to_be_bytes());
            let mut at = 12;
            for piece in raw.chunks(step) {
                let n = u32::from_be_bytes(enc[at..at + 4].try_into().unwrap()) as usize;
                let block = &enc[at + 4..at + 4 + n];
                assert_eq!(
                    lz4_flex::block::decompress(block, piece.len()).unwrap(),
                    piece
                );
                at += 4 + n;
            }
            assert_eq!(at, enc.len());
            crate::check_decode_into(super::decode_into, &enc, &raw);
            assert!(super::decode(&enc[..enc.len() / 2], raw.len()).is_err());
        }
        // Incompressible blocks are stored as they are.
        let noise: Vec<u8> = (0..5000u32)
            .map(|v| (v.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        let enc = super::encode(&noise, 1000).unwrap();
        assert_eq!(super::decode(&enc, noise.len()).unwrap(), noise);
        assert_eq!(
            super::decode(&super::encode(&[], 0).unwrap(), 0).unwrap(),
            b""
        );
    }
}
