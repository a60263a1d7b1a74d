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
    let (Some(total), Some(block)) = (be64(input, 0), be32(input, 8)) else {
        return corrupt("lz4: short header");
    };
    if total > max_out as u64 {
        return Err(CodecError::TooLarge(max_out));
    }
    let total = total as usize;
    let block = block as usize;
    if block == 0 && total > 0 {
        return corrupt("lz4: zero block size");
    }
    let mut out = vec![0u8; total];
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
        let dst = &mut out[done..done + n];
        if stored == n {
            dst.copy_from_slice(data);
        } else {
            match lz4_flex::block::decompress_into(data, dst) {
                Ok(k) if k == n => {}
                Ok(_) => return corrupt("lz4: block decodes short"),
                Err(e) => return corrupt(format!("lz4: {e}")),
            }
        }
        done += n;
    }
    Ok(out)
}

/// Encodes `input` in blocks of `block_size` bytes (0: [`DEFAULT_BLOCK_SIZE`]).
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
    let mut out = Vec::with_capacity(12 + input.len() / 2);
    out.extend_from_slice(&(input.len() as u64).to_be_bytes());
    out.extend_from_slice(&(block as u32).to_be_bytes());
    for piece in input.chunks(block.max(1)) {
        let c = lz4_flex::block::compress(piece);
        if c.len() >= piece.len() {
            out.extend_from_slice(&(piece.len() as u32).to_be_bytes());
            out.extend_from_slice(piece);
        } else {
            out.extend_from_slice(&(c.len() as u32).to_be_bytes());
            out.extend_from_slice(&c);
        }
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
