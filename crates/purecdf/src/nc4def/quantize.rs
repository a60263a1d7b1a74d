//! Lossy quantization of float and double data before it is stored, as netcdf-c 4.9 does it
//! (`nc_def_var_quantize`; libsrc4 `nc4_convert_type`): BitGroom (keep enough significand bits
//! for `nsd` decimal digits, alternately shaving and setting the rest), Granular BitRound (the
//! bits each value needs for `nsd` digits, rounded) and BitRound (`nsd` significand bits,
//! rounded). Values equal to the fill value are left alone; the alternation of BitGroom counts
//! from the first value of each write, as netcdf-c's does. The method is recorded in an
//! attribute (`_QuantizeBitGroomNumberOfSignificantDigits`, ...) that readers see.

use crate::backend::Quantize;

/// Binary digits per decimal digit, and the inverse, computed as netcdf-c computes them
/// (`M_LN10 / M_LN2`, `M_LN2 / M_LN10`): results near an integer depend on the last bit.
const BIT_PER_DGT: f64 = std::f64::consts::LN_10 / std::f64::consts::LN_2;
const DGT_PER_BIT: f64 = std::f64::consts::LN_2 / std::f64::consts::LN_10;
/// Explicit significand bits of float and double.
const SGN_BITS_F32: i32 = 23;
const SGN_BITS_F64: i32 = 52;

/// The attribute that records the quantization of a variable.
pub(crate) fn attribute_name(mode: Quantize) -> &'static str {
    match mode {
        Quantize::BitGroom => "_QuantizeBitGroomNumberOfSignificantDigits",
        Quantize::GranularBitRound => "_QuantizeGranularBitRoundNumberOfSignificantDigits",
        Quantize::BitRound => "_QuantizeBitRoundNumberOfSignificantBits",
    }
}

/// The largest `nsd` netcdf-c accepts for the mode and a float (`double` false) or double.
pub(crate) fn max_nsd(mode: Quantize, double: bool) -> i32 {
    match (mode, double) {
        (Quantize::BitRound, false) => SGN_BITS_F32,
        (Quantize::BitRound, true) => SGN_BITS_F64,
        (_, false) => 7,
        (_, true) => 15,
    }
}

/// `x = m · 2^e` with `0.5 ≤ |m| < 1` (C's `frexp`); zero, infinities and NaN give `(x, 0)`.
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * 2f64.powi(54));
        return (m, e - 54);
    }
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, exp - 1022)
}

/// Masks for keeping `keep` explicit significand bits of a `bits`-bit significand: the AND
/// mask clearing the others, the OR mask setting them, and the rounding increment.
fn masks(keep: i32, sgn_bits: i32, width: u32) -> (u64, u64, u64) {
    let zero_bits = (sgn_bits - keep).clamp(0, width as i32 - 1) as u32;
    let all = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let zro = (all << zero_bits) & all;
    let one = !zro & all;
    let hshv = one & (zro >> 1);
    (zro, one, hshv)
}

fn granular_keep(val: f64, nsd: i32) -> i32 {
    let (mnt, xpn) = frexp(val);
    let mnt_fabs = mnt.abs();
    let mnt_log10 = mnt_fabs.log10();
    let dgt_nbr = (f64::from(xpn) * DGT_PER_BIT + mnt_log10).floor() as i32 + 1;
    let qnt_pwr = (BIT_PER_DGT * f64::from(dgt_nbr - nsd)).floor() as i32;
    let prc = if mnt_fabs == 0.0 {
        0
    } else {
        ((f64::from(xpn) - BIT_PER_DGT * mnt_log10).floor() as i32 - qnt_pwr).abs()
    };
    prc - 1
}

/// Quantizes native-endian floats in place; `fill` is the variable's fill value.
pub(crate) fn quantize_f32(data: &mut [u8], mode: Quantize, nsd: i32, fill: f32) {
    let keep = match mode {
        Quantize::BitGroom => (f64::from(nsd) * BIT_PER_DGT).ceil() as i32 + 1,
        _ => nsd,
    };
    let (zro, one, hshv) = masks(keep, SGN_BITS_F32, 32);
    for (i, e) in data.chunks_exact_mut(4).enumerate() {
        let mut u = u32::from_ne_bytes([e[0], e[1], e[2], e[3]]);
        let v = f32::from_bits(u);
        if v == fill {
            continue;
        }
        match mode {
            Quantize::BitGroom if i % 2 == 0 => u &= zro as u32,
            Quantize::BitGroom if u != 0 => u |= one as u32,
            Quantize::BitGroom => {}
            Quantize::BitRound => u = u.wrapping_add(hshv as u32) & zro as u32,
            Quantize::GranularBitRound if u != 0 => {
                let (z, _, h) = masks(granular_keep(f64::from(v), nsd), SGN_BITS_F32, 32);
                u = u.wrapping_add(h as u32) & z as u32;
            }
            Quantize::GranularBitRound => {}
        }
        e.copy_from_slice(&u.to_ne_bytes());
    }
}

/// Quantizes native-endian doubles in place; `fill` is the variable's fill value.
pub(crate) fn quantize_f64(data: &mut [u8], mode: Quantize, nsd: i32, fill: f64) {
    let keep = match mode {
        Quantize::BitGroom => (f64::from(nsd) * BIT_PER_DGT).ceil() as i32 + 1,
        _ => nsd,
    };
    let (zro, one, hshv) = masks(keep, SGN_BITS_F64, 64);
    for (i, e) in data.chunks_exact_mut(8).enumerate() {
        let mut u = u64::from_ne_bytes(e.try_into().unwrap_or([0; 8]));
        let v = f64::from_bits(u);
        if v == fill {
            continue;
        }
        match mode {
            Quantize::BitGroom if i % 2 == 0 => u &= zro,
            Quantize::BitGroom if u != 0 => u |= one,
            Quantize::BitGroom => {}
            Quantize::BitRound => u = u.wrapping_add(hshv) & zro,
            Quantize::GranularBitRound if u != 0 => {
                let (z, _, h) = masks(granular_keep(v, nsd), SGN_BITS_F64, 64);
                u = u.wrapping_add(h) & z;
            }
            Quantize::GranularBitRound => {}
        }
        e.copy_from_slice(&u.to_ne_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_ne_bytes()).collect()
    }

    fn back32(b: &[u8]) -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    #[allow(clippy::approx_constant)] // the values written in netcdf-c's runs
    fn matches_netcdf_c() {
        // The values netcdf-c 4.9.0 stores (ncdump of ncgen -k nc4 output).
        let fill = 9.969_21e36_f32;
        let mut a = f32s(&[3.141_592_7, 2.71828, 1e10, -0.333_333, 0.0]);
        quantize_f32(&mut a, Quantize::BitRound, 5, fill);
        assert_eq!(back32(&a), [3.125, 2.6875, 9.932_112e9, -0.335_937_5, 0.0]);
        let mut d = f32s(&[1.5, 2.71828, 1e10, -0.333_333, fill]);
        quantize_f32(&mut d, Quantize::BitRound, 3, 1.5);
        assert_eq!(back32(&d), [1.5, 2.75, 9.663_676e9, -0.343_75, fill]);
        let vals = [3.141_592_65f64, 2.71828, 1e10, -0.333_333, 0.0];
        let mut b: Vec<u8> = vals.iter().flat_map(|x| x.to_ne_bytes()).collect();
        quantize_f64(
            &mut b,
            Quantize::GranularBitRound,
            3,
            9.969_209_968_386_869e36,
        );
        let got: Vec<f64> = b
            .chunks_exact(8)
            .map(|c| f64::from_ne_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(
            got,
            [3.140625, 2.71875, 9_999_220_736.0, -0.333_007_812_5, 0.0]
        );
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(-0.75), (-0.75, 0));
        assert_eq!(frexp(f64::MIN_POSITIVE / 4.0).1, -1023);
    }
}
