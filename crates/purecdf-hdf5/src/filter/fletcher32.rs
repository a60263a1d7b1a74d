//! The Fletcher-32 checksum filter (id 3): a 4-byte checksum appended to the chunk, computed over
//! 16-bit big-endian words (a trailing odd byte is the high byte of a last word), as HDF5 does.

use super::{Filter, FilterError, FLETCHER32};

pub(super) struct Fletcher32;

/// HDF5's Fletcher-32 of `data`.
pub(super) fn fletcher32(data: &[u8]) -> u32 {
    let (mut s1, mut s2) = (0u32, 0u32);
    let mut words = data.chunks(2);
    let mut remaining = data.len() / 2;
    while remaining > 0 {
        // 360 words at a time keep the sums within 32 bits.
        let block = remaining.min(360);
        remaining -= block;
        for w in words.by_ref().take(block) {
            s1 += (u32::from(w[0]) << 8) | u32::from(w[1]);
            s2 += s1;
        }
        s1 = (s1 & 0xffff) + (s1 >> 16);
        s2 = (s2 & 0xffff) + (s2 >> 16);
    }
    if data.len() % 2 == 1 {
        s1 += u32::from(data[data.len() - 1]) << 8;
        s2 += s1;
        s1 = (s1 & 0xffff) + (s1 >> 16);
        s2 = (s2 & 0xffff) + (s2 >> 16);
    }
    s1 = (s1 & 0xffff) + (s1 >> 16);
    s2 = (s2 & 0xffff) + (s2 >> 16);
    (s2 << 16) | s1
}

/// The length of `input` without its checksum when the checksum matches (in either byte order,
/// as [`Fletcher32::decode`] accepts); `None` otherwise.
pub(super) fn verified_len(input: &[u8]) -> Option<usize> {
    let n = input.len().checked_sub(4)?;
    let stored = u32::from_le_bytes([input[n], input[n + 1], input[n + 2], input[n + 3]]);
    let computed = fletcher32(&input[..n]);
    (stored == computed || stored == computed.swap_bytes()).then_some(n)
}

impl Filter for Fletcher32 {
    fn decode(&self, mut input: Vec<u8>, _max_out: usize) -> Result<Vec<u8>, FilterError> {
        if input.len() < 4 {
            return Err(FilterError::Corrupt(
                FLETCHER32,
                "chunk shorter than its checksum".into(),
            ));
        }
        let n = input.len() - 4;
        let stored = u32::from_le_bytes([input[n], input[n + 1], input[n + 2], input[n + 3]]);
        let computed = fletcher32(&input[..n]);
        // Files from HDF5 before 1.6.3 stored the checksum byte-swapped; accept both, as HDF5 does.
        if stored != computed && stored != computed.swap_bytes() {
            return Err(FilterError::Checksum(FLETCHER32));
        }
        input.truncate(n);
        Ok(input)
    }

    fn encode(&self, mut input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        let c = fletcher32(&input);
        input.extend_from_slice(&c.to_le_bytes());
        Ok(input)
    }
}
