//! Values of atomic HDF5 datatypes whatever their bit layout (HDF5 File Format Specification v3.0,
//! section IV.A.2.d: fixed-point and floating-point class bit fields and properties): an integer
//! of any precision at any bit offset, and a float with any sign, exponent and mantissa
//! positions and bias — the layouts the n-bit filter stores — read as a full-width number, as
//! HDF5's library conversions give them to a native type.

use crate::format::messages::datatype::Datatype;

/// The element's bytes as an unsigned integer, most significant byte by the byte order.
fn bits_of(bytes: &[u8], big_endian: bool) -> Option<u128> {
    if bytes.len() > 16 {
        return None;
    }
    let mut v = 0u128;
    for k in 0..bytes.len() {
        let b = if big_endian {
            bytes[k]
        } else {
            bytes[bytes.len() - 1 - k]
        };
        v = (v << 8) | u128::from(b);
    }
    Some(v)
}

fn field(v: u128, at: u32, len: u32) -> u128 {
    if len == 0 || at >= 128 {
        return 0;
    }
    let v = v >> at;
    if len >= 128 {
        v
    } else {
        v & ((1u128 << len) - 1)
    }
}

/// True when values of `dt` are stored as native integers and IEEE floats of their size are:
/// full precision at bit offset 0 (and the IEEE field layout for floats).
pub fn is_standard(dt: &Datatype) -> bool {
    match dt {
        Datatype::FixedPoint {
            size,
            bit_offset,
            precision,
            ..
        } => *bit_offset == 0 && u64::from(*precision) == u64::from(*size) * 8,
        Datatype::FloatingPoint {
            size,
            bit_offset,
            precision,
            sign_location,
            exponent_location,
            exponent_size,
            mantissa_location,
            mantissa_size,
            exponent_bias,
            normalization,
            ..
        } => {
            let ieee = match size {
                4 => (31, 23, 8, 0, 23, 127),
                8 => (63, 52, 11, 0, 52, 1023),
                _ => return false,
            };
            *bit_offset == 0
                && u64::from(*precision) == u64::from(*size) * 8
                && *normalization == 2
                && (
                    *sign_location,
                    *exponent_location,
                    *exponent_size,
                    *mantissa_location,
                    *mantissa_size,
                    *exponent_bias,
                ) == ieee
        }
        _ => true,
    }
}

/// The integer in `bytes` of fixed-point type `dt`: its `precision` bits at `bit_offset`,
/// sign-extended when signed. `None` for other types or a short slice.
pub fn int_value(dt: &Datatype, bytes: &[u8]) -> Option<i128> {
    let Datatype::FixedPoint {
        size,
        big_endian,
        signed,
        bit_offset,
        precision,
    } = dt
    else {
        return None;
    };
    let v = bits_of(bytes.get(..*size as usize)?, *big_endian)?;
    let prec = u32::from(*precision).min(127);
    let x = field(v, u32::from(*bit_offset), prec);
    if *signed && prec > 0 && (x >> (prec - 1)) & 1 == 1 {
        Some(x as i128 - (1i128 << prec))
    } else {
        Some(x as i128)
    }
}

/// The number in `bytes` of floating-point type `dt`, exactly when it fits an `f64`.
/// `None` for other types, a short slice, or a normalization other than "implied".
pub fn float_value(dt: &Datatype, bytes: &[u8]) -> Option<f64> {
    let Datatype::FloatingPoint {
        size,
        big_endian,
        sign_location,
        exponent_location,
        exponent_size,
        mantissa_location,
        mantissa_size,
        exponent_bias,
        normalization,
        ..
    } = dt
    else {
        return None;
    };
    if *normalization != 2 || *exponent_size == 0 || *exponent_size > 32 {
        return None;
    }
    let v = bits_of(bytes.get(..*size as usize)?, *big_endian)?;
    let negative = field(v, u32::from(*sign_location), 1) == 1;
    let esize = u32::from(*exponent_size);
    let msize = u32::from(*mantissa_size);
    let e = field(v, u32::from(*exponent_location), esize) as i64;
    let m = field(v, u32::from(*mantissa_location), msize);
    let emax = (1i64 << esize) - 1;
    let frac = m as f64 / 2f64.powi(msize as i32);
    let bias = i64::from(*exponent_bias);
    let x = if e == emax {
        if m == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else if e == 0 {
        // Zero, or subnormal.
        frac * 2f64.powi((1 - bias).clamp(-2000, 2000) as i32)
    } else {
        (1.0 + frac) * 2f64.powi((e - bias).clamp(-2000, 2000) as i32)
    };
    Some(if negative { -x } else { x })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduced_precision_integers() {
        let dt = Datatype::FixedPoint {
            size: 4,
            big_endian: false,
            signed: true,
            bit_offset: 4,
            precision: 12,
        };
        assert!(!is_standard(&dt));
        // -1000 as 12 bits (0xc18) at offset 4, with junk below the offset.
        assert_eq!(int_value(&dt, &[0x8f, 0xc1, 0, 0]), Some(-1000));
        assert_eq!(int_value(&dt, &[0x8f, 0xc1]), None);
    }

    #[test]
    fn custom_and_ieee_floats() {
        // HDF5's n-bit test float: sign 26, exponent 6 bits at 20, mantissa 13 bits at 7, bias 31.
        let dt = Datatype::FloatingPoint {
            size: 4,
            big_endian: false,
            bit_offset: 7,
            precision: 20,
            sign_location: 26,
            exponent_location: 20,
            exponent_size: 6,
            mantissa_location: 7,
            mantissa_size: 13,
            exponent_bias: 31,
            normalization: 2,
        };
        assert!(!is_standard(&dt));
        // -1.5 = sign 1, exponent 31, mantissa 0b1 << 12.
        let v: u32 = (1 << 26) | (31 << 20) | (1 << 12 << 7);
        assert_eq!(float_value(&dt, &v.to_le_bytes()), Some(-1.5));
        assert_eq!(float_value(&dt, &[0, 0, 0, 0]), Some(0.0));
        let ieee = Datatype::FloatingPoint {
            size: 8,
            big_endian: true,
            bit_offset: 0,
            precision: 64,
            sign_location: 63,
            exponent_location: 52,
            exponent_size: 11,
            mantissa_location: 0,
            mantissa_size: 52,
            exponent_bias: 1023,
            normalization: 2,
        };
        assert!(is_standard(&ieee));
        for x in [1.0f64, -2.75e-300, 6.02e23, 4.9e-324] {
            assert_eq!(float_value(&ieee, &x.to_be_bytes()), Some(x));
        }
    }
}
