//! The szip filter (HDF5 id 4): CCSDS 121.0-B-2 adaptive entropy coding (Rice coding with
//! zero-block, second-extension, split-sample and uncompressed options, and the optional
//! nearest-neighbour preprocessor) as the szip interface of libaec frames it. Decoding handles
//! every option; encoding codes each block with the best split-sample parameter or uncompressed.
//! Written from the CCSDS recommendation and libaec's documented behaviour:
//! * HDF5 chunk: 4-byte little-endian uncompressed size, then the coded stream.
//! * Client data: options mask, pixels per block, bits per pixel, pixels per scanline.
//! * A reference sample interval (RSI) is ceil(pixels per scanline / pixels per block) blocks; the
//!   first sample of each RSI is the reference when preprocessing is on.
//! * 32- and 64-bit pixels are coded as bytes, byte-interleaved (all first bytes, then all
//!   second bytes, ...); scanlines that are not a whole number of blocks are padded.

use super::{Filter, FilterError, SZIP};

/// Options mask bits (szlib.h).
const MSB_OPTION: u32 = 16;
const NN_OPTION: u32 = 32;
/// A zero-block count of 5 means "to the end of the segment of 64 blocks or of the RSI".
const ROS: u32 = 5;
/// Largest second-extension code (β ≤ 12).
const SE_MAX: u32 = 90;

pub(super) struct Szip {
    options: u32,
    pixels_per_block: u32,
    bits_per_pixel: u32,
    pixels_per_scanline: u32,
}

pub(super) fn build(cd: &[u32]) -> Result<Box<dyn Filter>, FilterError> {
    let [options, ppb, bpp, pps, ..] = cd else {
        return Err(FilterError::BadParams(SZIP));
    };
    let ok_bits = matches!(*bpp, 1..=24 | 32 | 64);
    // HDF5 takes any even block of up to 32 pixels (libaec's szlib compatibility does not
    // enforce CCSDS's 8, 16, 32, 64); 64 is also decoded.
    let ok_block = (*ppb % 2 == 0 && (2..=32).contains(ppb)) || *ppb == 64;
    if !ok_bits || !ok_block || *pps == 0 || *pps > 1 << 24 {
        return Err(FilterError::BadParams(SZIP));
    }
    Ok(Box::new(Szip {
        options: *options,
        pixels_per_block: *ppb,
        bits_per_pixel: *bpp,
        pixels_per_scanline: *pps,
    }))
}

fn corrupt(why: &str) -> FilterError {
    FilterError::Corrupt(SZIP, why.to_string())
}

/// MSB-first bit reader that fails cleanly at the end of input.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    acc: u64,
    nbits: u32,
}

impl Bits<'_> {
    fn fill(&mut self) {
        while self.nbits <= 56 && self.pos < self.data.len() {
            self.acc = (self.acc << 8) | u64::from(self.data[self.pos]);
            self.pos += 1;
            self.nbits += 8;
        }
    }

    fn get(&mut self, n: u32) -> Result<u32, FilterError> {
        if n == 0 {
            return Ok(0);
        }
        if self.nbits < n {
            self.fill();
            if self.nbits < n {
                return Err(corrupt("coded stream ends early"));
            }
        }
        self.nbits -= n;
        Ok(((self.acc >> self.nbits) & (u64::MAX >> (64 - n))) as u32)
    }

    /// A fundamental-sequence code: the number of 0 bits before the next 1.
    fn fs(&mut self) -> Result<u32, FilterError> {
        let mut count = 0u32;
        loop {
            if self.nbits == 0 {
                self.fill();
                if self.nbits == 0 {
                    return Err(corrupt("coded stream ends inside a code"));
                }
            }
            let window = self.acc & (u64::MAX >> (64 - self.nbits));
            if window == 0 {
                count = count.saturating_add(self.nbits);
                self.nbits = 0;
                if count > 1 << 26 {
                    return Err(corrupt("runaway code"));
                }
                continue;
            }
            let top = 63 - window.leading_zeros();
            count += self.nbits - 1 - top;
            self.nbits = top;
            return Ok(count);
        }
    }
}

/// Decodes `wanted` samples of `n` bits (blocks of `j`, RSIs of `rsi` blocks).
fn decode_samples(
    input: &[u8],
    n: u32,
    j: usize,
    rsi: usize,
    pp: bool,
    wanted: usize,
) -> Result<Vec<u32>, FilterError> {
    let id_len = if n > 16 {
        5
    } else if n > 8 {
        4
    } else {
        3
    };
    let uncompressed_id = (1u32 << id_len) - 1;
    let rsi_size = rsi * j;
    let xmax: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mut bits = Bits {
        data: input,
        pos: 0,
        acc: 0,
        nbits: 0,
    };
    let mut out = Vec::with_capacity(wanted);
    let mut buf: Vec<u32> = Vec::with_capacity(rsi_size);
    while out.len() < wanted {
        buf.clear();
        while buf.len() < rsi_size && out.len() + buf.len() < wanted {
            let reference = pp && buf.is_empty();
            let id = bits.get(id_len)?;
            if id == 0 {
                let second_extension = bits.get(1)? == 1;
                if reference {
                    buf.push(bits.get(n)?);
                }
                if second_extension {
                    let mut i = usize::from(reference);
                    while i < j {
                        let m = bits.fs()?;
                        if m > SE_MAX {
                            return Err(corrupt("second-extension code out of range"));
                        }
                        // m = β(β+1)/2 + δ₁ with 0 ≤ δ₁ ≤ β.
                        let mut beta = 0u32;
                        while (beta + 1) * (beta + 2) / 2 <= m {
                            beta += 1;
                        }
                        let d1 = m - beta * (beta + 1) / 2;
                        if i % 2 == 0 {
                            buf.push(beta - d1);
                            i += 1;
                        }
                        buf.push(d1);
                        i += 1;
                    }
                } else {
                    let mut blocks = bits.fs()?.saturating_add(1);
                    if blocks == ROS {
                        let b = (buf.len() / j) as u32;
                        blocks = (rsi as u32 - b).min(64 - b % 64);
                    } else if blocks > ROS {
                        blocks -= 1;
                    }
                    let zeros = (blocks as usize)
                        .saturating_mul(j)
                        .saturating_sub(usize::from(reference));
                    if buf.len() + zeros > rsi_size {
                        return Err(corrupt("zero run past the end of the reference interval"));
                    }
                    buf.resize(buf.len() + zeros, 0);
                }
            } else if id == uncompressed_id {
                for _ in 0..j {
                    buf.push(bits.get(n)?);
                }
            } else {
                let k = id - 1;
                if reference {
                    buf.push(bits.get(n)?);
                }
                let start = buf.len();
                let count = j - usize::from(reference);
                for _ in 0..count {
                    buf.push(
                        bits.fs()?
                            .checked_shl(k)
                            .ok_or_else(|| corrupt("split value overflows"))?,
                    );
                }
                if k > 0 {
                    for v in &mut buf[start..] {
                        *v = v.wrapping_add(bits.get(k)?);
                    }
                }
            }
        }
        if pp {
            postprocess(&buf, xmax, &mut out);
        } else {
            out.extend_from_slice(&buf);
        }
        if buf.is_empty() {
            break;
        }
    }
    out.truncate(wanted);
    Ok(out)
}

/// Undoes the unit-delay predictor with the CCSDS mapping of prediction residuals (unsigned data):
/// the first sample of the interval is the reference.
fn postprocess(buf: &[u32], xmax: u32, out: &mut Vec<u32>) {
    let Some((&first, rest)) = buf.split_first() else {
        return;
    };
    out.push(first);
    let mut x = first;
    let med = xmax / 2 + 1;
    for &d in rest {
        let half = (d >> 1) + (d & 1);
        let mask = if x & med != 0 { xmax } else { 0 };
        if half <= (mask ^ x) {
            x = if d & 1 == 0 {
                x.wrapping_add(d >> 1)
            } else {
                x.wrapping_sub(half)
            };
        } else {
            x = mask ^ d;
        }
        out.push(x);
    }
}

impl Filter for Szip {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        let [a, b, c, d, ..] = input[..] else {
            return Err(corrupt("chunk shorter than its size header"));
        };
        let size = u32::from_le_bytes([a, b, c, d]) as usize;
        if size > max_out {
            return Err(corrupt("declared size larger than the chunk"));
        }
        let interleave = matches!(self.bits_per_pixel, 32 | 64);
        let n = if interleave { 8 } else { self.bits_per_pixel };
        let bytes = if n > 16 {
            4
        } else if n > 8 {
            2
        } else {
            1
        };
        let j = self.pixels_per_block as usize;
        let pps = self.pixels_per_scanline as usize;
        let rsi = pps.div_ceil(j);
        let padded = !pps.is_multiple_of(j);
        let pixels = size / bytes;
        let scanlines = pixels.div_ceil(pps);
        let wanted = if padded { scanlines * rsi * j } else { pixels };
        let samples = decode_samples(
            &input[4..],
            n,
            j,
            rsi,
            self.options & NN_OPTION != 0,
            wanted,
        )?;
        // Drop scanline padding.
        let samples: Vec<u32> = if padded {
            samples
                .chunks(rsi * j)
                .flat_map(|line| line.iter().take(pps).copied())
                .take(pixels)
                .collect()
        } else {
            samples
        };
        let msb = self.options & MSB_OPTION != 0;
        let mut out = Vec::with_capacity(size);
        for s in samples {
            match (bytes, msb) {
                (1, _) => out.push(s as u8),
                (2, true) => out.extend_from_slice(&(s as u16).to_be_bytes()),
                (2, false) => out.extend_from_slice(&(s as u16).to_le_bytes()),
                (_, true) => out.extend_from_slice(&s.to_be_bytes()),
                (_, false) => out.extend_from_slice(&s.to_le_bytes()),
            }
        }
        out.truncate(size);
        if out.len() < size {
            return Err(corrupt("coded stream holds fewer samples than declared"));
        }
        if interleave {
            let w = (self.bits_per_pixel / 8) as usize;
            let per = size / w;
            let mut de = vec![0u8; size];
            for i in 0..per {
                for b in 0..w {
                    de[i * w + b] = out[b * per + i];
                }
            }
            out = de;
        }
        Ok(out)
    }

    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        let size = u32::try_from(input.len()).map_err(|_| FilterError::BadParams(SZIP))?;
        let interleave = matches!(self.bits_per_pixel, 32 | 64);
        let n = if interleave { 8 } else { self.bits_per_pixel };
        let bytes = if n > 16 {
            4
        } else if n > 8 {
            2
        } else {
            1
        };
        // 32- and 64-bit pixels go as byte planes.
        let data = if interleave {
            let w = (self.bits_per_pixel / 8) as usize;
            let per = input.len() / w;
            let mut planes = vec![0u8; input.len()];
            for (i, px) in input.chunks_exact(w).enumerate() {
                for (b, v) in px.iter().enumerate() {
                    planes[b * per + i] = *v;
                }
            }
            planes
        } else {
            input
        };
        let msb = self.options & MSB_OPTION != 0;
        let xmax: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut samples: Vec<u32> = data
            .chunks_exact(bytes)
            .map(|c| {
                let v = match (bytes, msb) {
                    (1, _) => u32::from(c[0]),
                    (2, true) => u32::from(u16::from_be_bytes([c[0], c[1]])),
                    (2, false) => u32::from(u16::from_le_bytes([c[0], c[1]])),
                    (_, true) => u32::from_be_bytes([c[0], c[1], c[2], c[3]]),
                    (_, false) => u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                };
                v & xmax
            })
            .collect();
        let j = self.pixels_per_block as usize;
        let pps = self.pixels_per_scanline as usize;
        let rsi = pps.div_ceil(j);
        if !pps.is_multiple_of(j) {
            // Each scanline padded to whole blocks (the decoder drops the padding).
            samples = samples
                .chunks(pps)
                .flat_map(|line| {
                    let mut l = line.to_vec();
                    l.resize(rsi * j, *line.last().unwrap_or(&0));
                    l
                })
                .collect();
        }
        let pp = self.options & NN_OPTION != 0;
        let mut w = BitWriter::default();
        w.out.extend_from_slice(&size.to_le_bytes());
        let mut buf = Vec::with_capacity(rsi * j);
        for interval in samples.chunks(rsi * j) {
            buf.clear();
            if pp {
                preprocess(interval, xmax, &mut buf);
            } else {
                buf.extend_from_slice(interval);
            }
            buf.resize(buf.len().div_ceil(j) * j, 0);
            for (b, block) in buf.chunks(j).enumerate() {
                encode_block(&mut w, block, n, pp && b == 0);
            }
        }
        Ok(w.finish())
    }
}

/// MSB-first bit writer.
#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    nbits: u32,
}

impl BitWriter {
    /// Appends the low `n` bits of `v` (n ≤ 32).
    fn put(&mut self, v: u32, n: u32) {
        if n == 0 {
            return;
        }
        let v = u64::from(v) & (u64::MAX >> (64 - n));
        self.acc = (self.acc << n) | v;
        self.nbits += n;
        while self.nbits >= 8 {
            self.nbits -= 8;
            self.out.push((self.acc >> self.nbits) as u8);
        }
    }

    /// A fundamental-sequence code: `m` zero bits, then a one.
    fn fs(&mut self, mut m: u64) {
        while m >= 32 {
            self.put(0, 32);
            m -= 32;
        }
        self.put(1, m as u32 + 1);
    }

    /// The bytes written, the last one padded with zero bits.
    fn finish(mut self) -> Vec<u8> {
        if self.nbits > 0 {
            self.out.push((self.acc << (8 - self.nbits)) as u8);
        }
        self.out
    }
}

/// The unit-delay predictor with the CCSDS mapping of prediction residuals, inverse of
/// [`postprocess`]: the first sample is the reference.
fn preprocess(samples: &[u32], xmax: u32, out: &mut Vec<u32>) {
    let Some((&first, rest)) = samples.split_first() else {
        return;
    };
    out.push(first);
    let med = xmax / 2 + 1;
    let mut x = first;
    for &cur in rest {
        let mask = if x & med != 0 { xmax } else { 0 };
        let theta = mask ^ x;
        let d = if cur >= x {
            let delta = cur - x;
            if delta <= theta {
                delta << 1
            } else {
                mask ^ cur
            }
        } else {
            let delta = x - cur;
            if delta <= theta {
                (delta << 1) - 1
            } else {
                mask ^ cur
            }
        };
        out.push(d);
        x = cur;
    }
}

/// Codes one block of `j` samples of `n` bits: the split-sample option with the cheapest `k`, or
/// uncompressed when that is no cheaper. `reference`: the first sample is the interval's
/// reference, sent as it is.
fn encode_block(w: &mut BitWriter, block: &[u32], n: u32, reference: bool) {
    let id_len = if n > 16 {
        5
    } else if n > 8 {
        4
    } else {
        3
    };
    let uncompressed_id = (1u32 << id_len) - 1;
    let (refv, rest) = if reference {
        (Some(block[0]), &block[1..])
    } else {
        (None, block)
    };
    let raw_cost = block.len() as u64 * u64::from(n);
    let mut best: Option<(u32, u64)> = None;
    for k in 0..=(uncompressed_id - 2).min(n.saturating_sub(1)) {
        let cost: u64 = rest
            .iter()
            .map(|&v| u64::from(v >> k) + 1 + u64::from(k))
            .sum::<u64>()
            + if reference { u64::from(n) } else { 0 };
        if best.is_none_or(|(_, c)| cost < c) {
            best = Some((k, cost));
        }
    }
    match best {
        Some((k, cost)) if cost < raw_cost => {
            w.put(k + 1, id_len);
            if let Some(r) = refv {
                w.put(r, n);
            }
            for &v in rest {
                w.fs(u64::from(v >> k));
            }
            if k > 0 {
                for &v in rest {
                    w.put(v, k);
                }
            }
        }
        _ => {
            w.put(uncompressed_id, id_len);
            for &v in block {
                w.put(v, n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(options: u32, ppb: u32, bpp: u32, pps: u32, data: Vec<u8>) {
        let f = build(&[options, ppb, bpp, pps]).unwrap();
        let enc = f.encode(data.clone()).unwrap();
        let dec = f.decode(enc, data.len()).unwrap();
        assert_eq!(dec, data, "options {options} ppb {ppb} bpp {bpp} pps {pps}");
    }

    #[test]
    fn encoded_chunks_decode_to_the_input() {
        let mut h = 12345u32;
        let mut noise = |n: usize, scale: u32| -> Vec<u8> {
            (0..n)
                .map(|i| {
                    h ^= h << 13;
                    h ^= h >> 17;
                    h ^= h << 5;
                    ((i as u32 / 7).wrapping_add(h % scale)) as u8
                })
                .collect()
        };
        for options in [
            NN_OPTION | 128 | 8 | 1,
            4 | 128 | 8,
            NN_OPTION | MSB_OPTION | 128,
        ] {
            for (bpp, w) in [(8u32, 1usize), (16, 2), (32, 4), (64, 8)] {
                for (ppb, pps) in [
                    (8u32, 20u32),
                    (8, 16),
                    (16, 100),
                    (32, 32),
                    (8, 7),
                    (2, 16),
                    (4, 9),
                    (6, 30),
                    (2, 3),
                ] {
                    for scale in [1u32, 4, 256] {
                        let data = noise(w * 203, scale);
                        let data = data[..data.len() / w * w].to_vec();
                        roundtrip(options, ppb, bpp, pps, data);
                    }
                }
            }
        }
        // Extremes: all zeros, all ones, alternating.
        roundtrip(NN_OPTION, 8, 32, 20, vec![0; 800]);
        roundtrip(NN_OPTION, 8, 32, 20, vec![0xff; 800]);
        roundtrip(
            NN_OPTION,
            16,
            16,
            64,
            (0..512).map(|i| (i % 2) as u8 * 255).collect(),
        );
    }

    #[test]
    fn smooth_data_compresses() {
        let data: Vec<u8> = (0..4000u32).flat_map(|i| (i / 3).to_le_bytes()).collect();
        let f = build(&[NN_OPTION | 128 | 8, 8, 32, 100]).unwrap();
        let enc = f.encode(data.clone()).unwrap();
        assert!(
            enc.len() * 2 < data.len(),
            "{} of {}",
            enc.len(),
            data.len()
        );
    }
}
