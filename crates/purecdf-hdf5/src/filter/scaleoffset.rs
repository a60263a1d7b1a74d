//! The scale-offset filter (id 6; HDF5 File Format Specification v3.0, section IV.A.2.l lists
//! the id; the parameter layout and the packed form are those of HDF5's `H5Z_FILTER_SCALEOFFSET`).
//!
//! Client data (20 values): scale type (0 float D-scale, 1 float E-scale, 2 integer), scale
//! factor (decimal digits, or minimum bits for integers), elements per chunk, class (0 integer,
//! 1 float), size, sign (1 two's complement), byte order (0 LE, 1 BE), fill value defined, and
//! the fill value's bits from index 8, least significant 32 bits first.
//!
//! A packed chunk starts with a 21-byte header — `minbits` (4 bytes LE), the width of `minval`
//! (1 byte, 8), `minval` (LE; for floats the bits of the minimum float) — then each element's
//! `minbits` low bits, most significant first. Integers decode to `v + minval`; floats to
//! `v / 10^D + min` computed in the element's own precision; with a fill value defined, an all-ones
//! `v` stands for the fill value. `minbits` equal to the full width stores the values as they are
//! (in the writer's memory order, little-endian on every platform HDF5 is built for); 0 means every
//! value is `minval`. E-scale is refused on read as HDF5 refuses it.

use super::{Filter, FilterError, SCALEOFFSET};

const HEADER: usize = 21;
const SO_FLOAT_DSCALE: u32 = 0;
const SO_FLOAT_ESCALE: u32 = 1;
const SO_INT: u32 = 2;

/// The filter's parameters.
pub(super) struct ScaleOffset {
    scale_type: u32,
    scale_factor: i32,
    n: usize,
    float: bool,
    size: usize,
    signed: bool,
    big_endian: bool,
    /// The fill value's bits (low `size` bytes), when one is defined.
    fill: Option<u64>,
}

fn bad() -> FilterError {
    FilterError::BadParams(SCALEOFFSET)
}

fn corrupt(why: &str) -> FilterError {
    FilterError::Corrupt(SCALEOFFSET, why.to_string())
}

/// Builds the filter from its client data.
pub(super) fn build(cd: &[u32]) -> Result<Box<dyn Filter>, FilterError> {
    if cd.len() != 20 {
        return Err(bad());
    }
    let float = match cd[3] {
        0 => false,
        1 => true,
        _ => return Err(bad()),
    };
    let size = cd[4] as usize;
    let sizes: &[usize] = if float { &[4, 8] } else { &[1, 2, 4, 8] };
    if !sizes.contains(&size) || cd[6] > 1 {
        return Err(bad());
    }
    let scale_type = cd[0];
    let mut scale_factor = cd[1] as i32;
    match (float, scale_type) {
        (true, SO_FLOAT_DSCALE) => {}
        // HDF5 declares E-scaling but refuses to run it.
        (true, SO_FLOAT_ESCALE) => return Err(FilterError::NotBuilt(SCALEOFFSET, "E-scale")),
        (false, SO_INT) => {
            scale_factor = scale_factor.max(0);
            if scale_factor as usize > size * 8 {
                return Err(bad());
            }
        }
        _ => return Err(bad()),
    }
    let fill = (cd[7] == 1).then(|| {
        let v = u64::from(cd[8]) | (u64::from(cd[9]) << 32);
        v & mask(size)
    });
    Ok(Box::new(ScaleOffset {
        scale_type,
        scale_factor,
        n: cd[2] as usize,
        float,
        size,
        signed: cd[5] == 1,
        big_endian: cd[6] == 1,
        fill,
    }))
}

fn mask(size: usize) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    }
}

/// Smallest `b` with `2^b >= n`.
fn log2_ceil(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

impl ScaleOffset {
    /// Integers in this filter pass unchanged when the user asked for the full width.
    fn passthrough(&self) -> bool {
        self.scale_type == SO_INT && self.scale_factor as usize == self.size * 8
    }

    fn read_elem(&self, e: &[u8]) -> u64 {
        let mut v = 0u64;
        for k in 0..self.size {
            let b = if self.big_endian {
                e[k]
            } else {
                e[self.size - 1 - k]
            };
            v = (v << 8) | u64::from(b);
        }
        v
    }

    fn write_elem(&self, v: u64, e: &mut [u8]) {
        for k in 0..self.size {
            let b = (v >> (8 * k)) as u8;
            if self.big_endian {
                e[self.size - 1 - k] = b;
            } else {
                e[k] = b;
            }
        }
    }

    /// Signed value of an element's bits.
    fn numeric(&self, v: u64) -> i128 {
        let bits = self.size * 8;
        if self.signed && bits < 64 && v >> (bits - 1) & 1 == 1 {
            i128::from(v) - (1i128 << bits)
        } else if self.signed && bits == 64 {
            i128::from(v as i64)
        } else {
            i128::from(v)
        }
    }

    /// The decoded value of packed `v` (the low `minbits` bits), as element bits.
    fn post(&self, v: u64, minbits: u32, minval: u64) -> u64 {
        let all_ones = if minbits >= 64 {
            u64::MAX
        } else {
            (1u64 << minbits) - 1
        };
        if let (Some(f), true) = (self.fill, v == all_ones) {
            return f;
        }
        if !self.float {
            return v.wrapping_add(minval) & mask(self.size);
        }
        let d = self.scale_factor;
        if self.size == 4 {
            let min = f32::from_bits(minval as u32);
            ((v as u32 as i32) as f32 / 10f32.powf(d as f32) + min).to_bits() as u64
        } else {
            let min = f64::from_bits(minval);
            ((v as i64) as f64 / 10f64.powf(f64::from(d)) + min).to_bits()
        }
    }
}

impl Filter for ScaleOffset {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        if self.passthrough() {
            return Ok(input);
        }
        let total = self
            .n
            .checked_mul(self.size)
            .filter(|t| *t <= max_out)
            .ok_or_else(|| corrupt("more elements than the chunk holds"))?;
        if input.len() < HEADER {
            return Err(corrupt("chunk shorter than its header"));
        }
        let minbits = u32::from_le_bytes([input[0], input[1], input[2], input[3]]);
        let width = usize::from(input[4]).min(8);
        let minval = input[5..5 + width]
            .iter()
            .rev()
            .fold(0u64, |a, &b| (a << 8) | u64::from(b));
        let bits = self.size as u32 * 8;
        if minbits > bits {
            return Err(corrupt("more bits per value than the type has"));
        }
        let body = &input[HEADER..];
        let mut out = vec![0u8; total];
        if minbits == bits {
            let raw = body
                .get(..total)
                .ok_or_else(|| corrupt("chunk shorter than its values"))?;
            out.copy_from_slice(raw);
            if self.big_endian {
                for e in out.chunks_exact_mut(self.size) {
                    e.reverse();
                }
            }
            return Ok(out);
        }
        let need = (self.n as u64 * u64::from(minbits)).div_ceil(8);
        if (body.len() as u64) < need {
            return Err(corrupt("chunk shorter than its values"));
        }
        let mut pos = 0usize;
        for e in out.chunks_exact_mut(self.size) {
            let mut v = 0u64;
            let mut left = minbits;
            while left > 0 {
                let used = (pos % 8) as u32;
                let take = (8 - used).min(left);
                let byte = body[pos / 8];
                let b = (byte >> (8 - used - take)) & (((1u16 << take) - 1) as u8);
                v = (v << take) | u64::from(b);
                pos += take as usize;
                left -= take;
            }
            let r = self.post(v, minbits, minval);
            self.write_elem(r, e);
        }
        Ok(out)
    }

    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        if self.passthrough() {
            return Ok(input);
        }
        if input.len() != self.n.saturating_mul(self.size) {
            return Err(corrupt("chunk size mismatch"));
        }
        let bits = self.size as u32 * 8;
        let vals: Vec<u64> = input
            .chunks_exact(self.size)
            .map(|e| self.read_elem(e))
            .collect();
        let (minbits, minval, packed) = if self.float {
            self.pre_float(&vals)?
        } else {
            self.pre_int(&vals)
        };
        let mut out = vec![0u8; HEADER];
        out[..4].copy_from_slice(&minbits.to_le_bytes());
        out[4] = 8;
        out[5..13].copy_from_slice(&minval.to_le_bytes());
        if minbits == bits {
            for &v in &vals {
                out.extend_from_slice(&v.to_le_bytes()[..self.size]);
            }
            return Ok(out);
        }
        let len = input.len() * minbits as usize / (self.size * 8) + 1;
        let mut body = vec![0u8; len];
        let mut pos = 0usize;
        for v in packed {
            for k in (0..minbits).rev() {
                if (v >> k) & 1 == 1 {
                    body[pos / 8] |= 0x80 >> (pos % 8);
                }
                pos += 1;
            }
        }
        out.extend_from_slice(&body);
        Ok(out)
    }
}

impl ScaleOffset {
    /// Integer pre-processing: (minbits, minval, values to pack).
    fn pre_int(&self, vals: &[u64]) -> (u32, u64, Vec<u64>) {
        let bits = self.size as u32 * 8;
        let num: Vec<i128> = vals.iter().map(|&v| self.numeric(v)).collect();
        let fill = self.fill.map(|f| self.numeric(f));
        let kept = || num.iter().copied().filter(|v| Some(*v) != fill);
        let min = kept().min().unwrap_or(0);
        let max = kept().max().unwrap_or(0);
        let minbits = if self.scale_factor > 0 {
            self.scale_factor as u32
        } else if (max - min) as u128 > u128::from(mask(self.size)) - 2 {
            bits
        } else {
            let span = (max - min + 1) as u64;
            log2_ceil(if fill.is_some() { span + 1 } else { span })
        };
        let minval = min as u64;
        if minbits == bits {
            return (bits, minval, Vec::new());
        }
        let ones = (1u64 << minbits) - 1;
        let packed = num
            .iter()
            .map(|&v| {
                if Some(v) == fill {
                    ones
                } else {
                    ((v - min) as u64) & mask(self.size)
                }
            })
            .collect();
        (minbits, minval, packed)
    }

    /// Float D-scale pre-processing, in the element's precision as HDF5 computes it.
    fn pre_float(&self, vals: &[u64]) -> Result<(u32, u64, Vec<u64>), FilterError> {
        let bits = self.size as u32 * 8;
        let d = self.scale_factor;
        let tol = 10f64.powf(-f64::from(d));
        let as_f64 = |v: u64| {
            if self.size == 4 {
                f64::from(f32::from_bits(v as u32))
            } else {
                f64::from_bits(v)
            }
        };
        let fill = self.fill.map(as_f64);
        let is_fill = |x: f64| fill.is_some_and(|f| (x - f).abs() < tol);
        let xs: Vec<f64> = vals.iter().map(|&v| as_f64(v)).collect();
        let kept = || xs.iter().copied().filter(|x| !is_fill(*x));
        let min = kept().fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))));
        let max = kept().fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
        let (min, max) = (min.unwrap_or(0.0), max.unwrap_or(0.0));
        // Scaled difference, in f32 arithmetic for 4-byte floats.
        let scaled = |x: f64, m: f64| -> f64 {
            if self.size == 4 {
                let p = 10f32.powf(d as f32);
                f64::from((x as f32) * p - (m as f32) * p)
            } else {
                let p = 10f64.powf(f64::from(d));
                x * p - m * p
            }
        };
        let minval = if self.size == 4 {
            u64::from((min as f32).to_bits())
        } else {
            min.to_bits()
        };
        if scaled(max, min).round() > 2f64.powi(bits as i32 - 1) {
            return Ok((bits, minval, Vec::new()));
        }
        let span = scaled(max, min).round() as u64 + 1;
        let minbits = log2_ceil(if fill.is_some() { span + 1 } else { span });
        if minbits >= bits {
            return Ok((bits, minval, Vec::new()));
        }
        let ones = (1u64 << minbits) - 1;
        let packed = xs
            .iter()
            .map(|&x| {
                if is_fill(x) {
                    ones
                } else {
                    scaled(x, min).round() as i64 as u64
                }
            })
            .collect();
        Ok((minbits, minval, packed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cd(st: u32, sf: u32, n: u32, class: u32, size: u32, sign: u32, order: u32) -> Vec<u32> {
        let mut v = vec![st, sf, n, class, size, sign, order, 0];
        v.resize(20, 0);
        v
    }

    #[test]
    fn integers_round_trip_every_width_and_order() {
        for size in [1u32, 2, 4, 8] {
            for order in [0, 1] {
                for sign in [0, 1] {
                    let mut p = cd(SO_INT, 0, 6, 0, size, sign, order);
                    let f = build(&p).unwrap();
                    let vals: [u64; 6] = [5, 9, 7, 5, 12, 6];
                    let mut raw = vec![0u8; 6 * size as usize];
                    let so = ScaleOffset {
                        scale_type: SO_INT,
                        scale_factor: 0,
                        n: 6,
                        float: false,
                        size: size as usize,
                        signed: sign == 1,
                        big_endian: order == 1,
                        fill: None,
                    };
                    for (v, e) in vals.iter().zip(raw.chunks_exact_mut(size as usize)) {
                        so.write_elem(*v, e);
                    }
                    let enc = f.encode(raw.clone()).unwrap();
                    // Span 8 needs 3 bits: 6 values in 18 bits.
                    assert_eq!(enc[0], 3);
                    assert_eq!(enc[5], 5);
                    assert_eq!(f.decode(enc.clone(), raw.len()).unwrap(), raw);
                    // With a fill value of 9 it is carried as all ones.
                    p[7] = 1;
                    p[8] = 9;
                    let f = build(&p).unwrap();
                    let enc = f.encode(raw.clone()).unwrap();
                    assert_eq!(f.decode(enc, raw.len()).unwrap(), raw);
                }
            }
        }
    }

    #[test]
    fn floats_decimal_scale() {
        let p = cd(SO_FLOAT_DSCALE, 2, 4, 1, 8, 0, 0);
        let f = build(&p).unwrap();
        let raw: Vec<u8> = [1.25f64, -3.5, 0.01, 2.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let enc = f.encode(raw.clone()).unwrap();
        let dec = f.decode(enc, 32).unwrap();
        let back: Vec<f64> = dec
            .chunks(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        for (a, b) in back.iter().zip([1.25, -3.5, 0.01, 2.0]) {
            assert!((a - b).abs() < 1e-9, "{a} {b}");
        }
    }

    #[test]
    fn bad_parameters_and_short_chunks() {
        assert!(build(&[0; 19]).is_err());
        assert!(build(&cd(SO_INT, 0, 4, 0, 3, 0, 0)).is_err()); // size 3
        assert!(build(&cd(SO_INT, 0, 4, 1, 4, 0, 0)).is_err()); // integer scale on a float
        assert!(build(&cd(SO_INT, 40, 4, 0, 4, 0, 0)).is_err()); // more bits than the type
        assert!(matches!(
            build(&cd(SO_FLOAT_ESCALE, 8, 4, 1, 4, 0, 0)).err(),
            Some(FilterError::NotBuilt(..))
        ));
        let f = build(&cd(SO_INT, 0, 4, 0, 4, 0, 0)).unwrap();
        assert!(f.decode(vec![0; 20], 16).is_err());
        let mut h = vec![0u8; 21];
        h[0] = 33;
        assert!(f.decode(h.clone(), 16).is_err()); // minbits beyond 32
        h[0] = 7;
        assert!(f.decode(h.clone(), 16).is_err()); // 28 bits missing
        h.extend([0; 4]);
        assert_eq!(f.decode(h.clone(), 16).unwrap(), [0; 16]);
        assert!(f.decode(h, 15).is_err()); // more elements than the chunk holds
                                           // A user-chosen full width passes data through.
        let f = build(&cd(SO_INT, 16, 4, 0, 2, 0, 0)).unwrap();
        assert_eq!(f.decode(vec![1, 2], 8).unwrap(), [1, 2]);
    }
}
