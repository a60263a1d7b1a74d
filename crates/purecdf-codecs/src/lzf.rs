//! LZF streams (Marc Lehmann's liblzf format; HDF5 registered filter id 32000, h5py's `lzf`,
//! which stores each chunk as one stream with no header). A control byte below 32 starts a run of
//! `ctrl + 1` literal bytes; otherwise `ctrl >> 5` is the match length minus 2 (7: add the next
//! byte) and `(ctrl & 31) << 8` plus the following byte is the distance minus 1.

use crate::{corrupt, CodecError, Result};

/// Decodes an LZF stream to at most `max_out` bytes.
pub fn decode(input: &[u8], max_out: usize) -> Result<Vec<u8>> {
    let mut out: Vec<u8> =
        Vec::with_capacity(max_out.min(input.len().saturating_mul(4).saturating_add(64)));
    let mut ip = 0usize;
    while ip < input.len() {
        let ctrl = input[ip] as usize;
        ip += 1;
        if ctrl < 32 {
            let n = ctrl + 1;
            let Some(lit) = input.get(ip..ip + n) else {
                return corrupt("lzf: truncated literal run");
            };
            if out.len() + n > max_out {
                return Err(CodecError::TooLarge(max_out));
            }
            out.extend_from_slice(lit);
            ip += n;
        } else {
            let mut len = ctrl >> 5;
            if len == 7 {
                let Some(&b) = input.get(ip) else {
                    return corrupt("lzf: truncated match");
                };
                len += b as usize;
                ip += 1;
            }
            let Some(&lo) = input.get(ip) else {
                return corrupt("lzf: truncated match");
            };
            ip += 1;
            let dist = ((ctrl & 31) << 8) + lo as usize + 1;
            let len = len + 2;
            if dist > out.len() {
                return corrupt("lzf: match before the start");
            }
            if out.len() + len > max_out {
                return Err(CodecError::TooLarge(max_out));
            }
            copy_match(&mut out, dist, len);
        }
    }
    Ok(out)
}

/// Appends `len` bytes copied from `dist` bytes back (overlapping copies repeat the pattern).
pub(crate) fn copy_match(out: &mut Vec<u8>, dist: usize, len: usize) {
    let start = out.len() - dist;
    if dist >= len {
        out.extend_from_within(start..start + len);
    } else if dist == 1 {
        let b = out[start];
        out.resize(out.len() + len, b);
    } else {
        let mut left = len;
        while left > 0 {
            let n = left.min(out.len() - start);
            out.extend_from_within(start..start + n);
            left -= n;
        }
    }
}

const HLOG: u32 = 14;

fn hash3(b: &[u8], i: usize) -> usize {
    let v = u32::from(b[i]) << 16 | u32::from(b[i + 1]) << 8 | u32::from(b[i + 2]);
    (v.wrapping_mul(2_654_435_761) >> (32 - HLOG)) as usize
}

/// Encodes `input` as an LZF stream (greedy matching through a hash of 3-byte prefixes).
pub fn encode(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() + input.len() / 32 + 8);
    let mut table = vec![usize::MAX; 1 << HLOG];
    let mut lit_start = 0usize;
    let mut i = 0usize;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        for run in input[from..to].chunks(32) {
            out.push((run.len() - 1) as u8);
            out.extend_from_slice(run);
        }
    };
    while i + 3 <= input.len() {
        let h = hash3(input, i);
        let cand = table[h];
        table[h] = i;
        if cand != usize::MAX && i - cand <= 8192 && input[cand..cand + 3] == input[i..i + 3] {
            let max = (input.len() - i).min(264);
            let mut len = 3;
            while len < max && input[cand + len] == input[i + len] {
                len += 1;
            }
            flush(&mut out, lit_start, i);
            let off = i - cand - 1;
            let l = len - 2;
            if l < 7 {
                out.push(((l << 5) | (off >> 8)) as u8);
            } else {
                out.push(((7 << 5) | (off >> 8)) as u8);
                out.push((l - 7) as u8);
            }
            out.push(off as u8);
            for k in i + 1..(i + len).min(input.len().saturating_sub(2)) {
                table[hash3(input, k)] = k;
            }
            i += len;
            lit_start = i;
        } else {
            i += 1;
        }
    }
    flush(&mut out, lit_start, input.len());
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip_and_bounds() {
        let raw: Vec<u8> = (0..100_000u32)
            .flat_map(|v| (v / 7).to_le_bytes())
            .collect();
        let enc = super::encode(&raw);
        assert!(enc.len() < raw.len() / 2);
        assert_eq!(super::decode(&enc, raw.len()).unwrap(), raw);
        assert!(super::decode(&enc, raw.len() - 1).is_err());
        let zeros = vec![0u8; 10_000];
        assert_eq!(
            super::decode(&super::encode(&zeros), 10_000).unwrap(),
            zeros
        );
        assert!(super::decode(&[0xe0, 0, 0], 100).is_err());
        assert_eq!(super::decode(&super::encode(b"ab"), 2).unwrap(), b"ab");
    }
}
