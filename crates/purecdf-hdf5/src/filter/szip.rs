//! The szip filter (HDF5 id 4), decode only: CCSDS 121.0-B-2 adaptive entropy coding (Rice coding
//! with zero-block, second-extension, split-sample and uncompressed options, and the optional
//! nearest-neighbour preprocessor) as the szip interface of libaec frames it. Written from the
//! CCSDS recommendation and libaec's documented behaviour:
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
    if !ok_bits || !matches!(*ppb, 8 | 16 | 32 | 64) || *pps == 0 || *pps > 1 << 24 {
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

    fn encode(&self, _input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        Err(FilterError::NotBuilt(SZIP, "szip encoding"))
    }
}
