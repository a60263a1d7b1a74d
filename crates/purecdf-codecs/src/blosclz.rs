//! blosclz, c-blosc's internal LZ77 codec (FastLZ level 2's format): a first byte whose low 5
//! bits give a literal run; then tokens. A control byte below 32 is a run of `ctrl + 1` literal
//! bytes. Otherwise it is a match: `ctrl >> 5` is the length minus 2 (7: add the bytes that
//! follow, while they are 255, and the first that is not), `(ctrl & 31) << 8` plus the next byte
//! is the distance minus 1, except that 31 and 255 mark a far match whose distance minus 8192 is
//! in the two big-endian bytes that follow. c-blosc's decoder wants at least one byte after a
//! match's last byte: streams end with literals.

const MAX_DISTANCE: usize = 8191;
/// The largest distance a far match encodes.
const MAX_FAR: usize = 65535 + MAX_DISTANCE + 1;

/// Copies `len` bytes from `dist` bytes before `op` to `op` (overlap repeats the pattern).
fn copy_match(out: &mut [u8], op: usize, dist: usize, len: usize) {
    let start = op - dist;
    if dist >= len {
        out.copy_within(start..start + len, op);
        return;
    }
    let end = op + len;
    let mut pos = op;
    while pos < end {
        let n = (pos - start).min(end - pos);
        out.copy_within(start..start + n, pos);
        pos += n;
    }
}

/// Decodes a blosclz stream into `out`; returns the number of bytes written, or `None` when the
/// stream is corrupt or does not fit.
pub(crate) fn decode_into(input: &[u8], out: &mut [u8]) -> Option<usize> {
    let (&first, _) = input.split_first()?;
    let mut ctrl = (first & 31) as usize;
    let mut ip = 1usize;
    let mut op = 0usize;
    loop {
        if ctrl >= 32 {
            let mut len = (ctrl >> 5) - 1;
            let hi = (ctrl & 31) << 8;
            if len == 6 {
                loop {
                    let code = *input.get(ip)?;
                    ip += 1;
                    len += code as usize;
                    if code != 255 {
                        break;
                    }
                }
            }
            let code = *input.get(ip)? as usize;
            ip += 1;
            let mut dist = hi + code + 1;
            if code == 255 && hi == 31 << 8 {
                let far = (*input.get(ip)? as usize) << 8 | *input.get(ip + 1)? as usize;
                ip += 2;
                dist = far + MAX_DISTANCE + 1;
            }
            len += 3;
            if dist > op || len > out.len() - op {
                return None;
            }
            copy_match(out, op, dist, len);
            op += len;
        } else {
            let n = ctrl + 1;
            let lit = input.get(ip..ip + n)?;
            out.get_mut(op..op + n)?.copy_from_slice(lit);
            ip += n;
            op += n;
        }
        match input.get(ip) {
            Some(&c) => {
                ctrl = c as usize;
                ip += 1;
            }
            None => return Some(op),
        }
    }
}

const HASH_LOG: u32 = 14;

#[inline]
fn read32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn push_literals(out: &mut Vec<u8>, lits: &[u8]) {
    for run in lits.chunks(32) {
        out.push((run.len() - 1) as u8);
        out.extend_from_slice(run);
    }
}

fn push_match(out: &mut Vec<u8>, dist: usize, len: usize) {
    let m = len - 2;
    let d = dist - 1;
    let (hi, code, far) = if d < MAX_DISTANCE {
        ((d >> 8) as u8, d as u8, None)
    } else {
        (31u8, 255u8, Some((d - MAX_DISTANCE) as u16))
    };
    if m < 7 {
        out.push(((m as u8) << 5) | hi);
    } else {
        out.push((7 << 5) | hi);
        let mut rem = m - 7;
        while rem >= 255 {
            out.push(255);
            rem -= 255;
        }
        out.push(rem as u8);
    }
    out.push(code);
    if let Some(f) = far {
        out.extend_from_slice(&f.to_be_bytes());
    }
}

/// Encodes `input` as a blosclz stream (greedy matching through a hash of 4-byte prefixes), or
/// `None` when the result would not be shorter than `maxout` bytes.
pub(crate) fn encode(input: &[u8], maxout: usize) -> Option<Vec<u8>> {
    let n = input.len();
    let mut out = Vec::with_capacity(maxout.min(n + n / 32 + 16));
    // A smaller table for the small streams blosc splits blocks into (zeroing is not free).
    let hash_log = if n <= 1 << 16 { 12 } else { HASH_LOG };
    let hash = |v: u32| (v.wrapping_mul(2_654_435_761) >> (32 - hash_log)) as usize;
    let mut table = vec![0u32; 1 << hash_log];
    // Misses since the last match: after many, positions are skipped (as LZ4 does), so that
    // incompressible data goes through quickly.
    let mut misses = 0usize;
    let mut lit_start = 0usize;
    // Position 0 cannot start a match (the stream opens with literals), and the stream must end
    // with a literal: c-blosc's decoder stops before copying a match that ends the input.
    let mut i = 1usize;
    while i + 4 < n {
        let v = read32(input, i);
        let h = hash(v);
        let cand = table[h] as usize;
        table[h] = i as u32;
        let dist = i - cand;
        if cand < i && dist <= MAX_FAR && read32(input, cand) == v {
            let mut len = 4;
            while i + len + 1 < n && input[cand + len] == input[i + len] {
                len += 1;
            }
            // A far match costs two more bytes: only worth it when long.
            if dist > MAX_DISTANCE && len < 6 {
                misses += 1;
                i += 1 + (misses >> 5);
                continue;
            }
            misses = 0;
            push_literals(&mut out, &input[lit_start..i]);
            push_match(&mut out, dist, len);
            if out.len() >= maxout {
                return None;
            }
            let end = i + len;
            // Index a couple of positions inside the match, as FastLZ does.
            for k in [end.saturating_sub(2), end.saturating_sub(1)] {
                if k > i && k + 4 <= n {
                    table[hash(read32(input, k))] = k as u32;
                }
            }
            i = end;
            lit_start = i;
        } else {
            misses += 1;
            i += 1 + (misses >> 5);
        }
    }
    push_literals(&mut out, &input[lit_start..]);
    (out.len() < maxout).then_some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip() {
        let mut raw: Vec<u8> = (0..200_000u32)
            .flat_map(|v| (v / 7).to_le_bytes())
            .collect();
        // A repeat 20 000 bytes back: a far match.
        let far: Vec<u8> = raw[1000..1200].to_vec();
        raw.splice(21_000..21_200, far);
        let enc = super::encode(&raw, raw.len()).unwrap();
        assert!(enc.len() < raw.len() / 2);
        let mut out = vec![0u8; raw.len()];
        assert_eq!(super::decode_into(&enc, &mut out), Some(raw.len()));
        assert_eq!(out, raw);
        let mut small = vec![0u8; raw.len() - 1];
        assert_eq!(super::decode_into(&enc, &mut small), None);
        let zeros = vec![0u8; 5000];
        let enc = super::encode(&zeros, 5000).unwrap();
        let mut out = vec![1u8; 5000];
        assert_eq!(super::decode_into(&enc, &mut out), Some(5000));
        assert_eq!(out, zeros);
        assert_eq!(super::decode_into(&[0x1f, 0x40, 1], &mut out), None);
    }
}
