//! The one place for netCDF type conversion: between a variable's external type and the caller's
//! memory type, with NC_ERANGE for values the destination cannot represent and NC_ECHAR between
//! text and numbers.
//!
//! As netcdf-c (built with its default ERANGE_FILL), an out-of-range element is replaced by the
//! destination type's default fill value, the rest of the transfer completes, and the call reports
//! NC_ERANGE. Float → integer conversion truncates toward zero after the range check.

use crate::error::{fail, ErrorKind, Result};
use crate::model::{NcType, Values};

/// Default fill values (netcdf.h `NC_FILL_*`).
pub mod fill {
    /// NC_FILL_BYTE
    pub const BYTE: i8 = -127;
    /// NC_FILL_CHAR
    pub const CHAR: u8 = 0;
    /// NC_FILL_SHORT
    pub const SHORT: i16 = -32767;
    /// NC_FILL_INT
    pub const INT: i32 = -2147483647;
    /// NC_FILL_FLOAT
    pub const FLOAT: f32 = f32::from_bits(0x7cf0_0000);
    /// NC_FILL_DOUBLE
    pub const DOUBLE: f64 = f64::from_bits(0x479e_0000_0000_0000);
    /// NC_FILL_UBYTE
    pub const UBYTE: u8 = 255;
    /// NC_FILL_USHORT
    pub const USHORT: u16 = 65535;
    /// NC_FILL_UINT
    pub const UINT: u32 = 4294967295;
    /// NC_FILL_INT64
    pub const INT64: i64 = -9223372036854775806;
    /// NC_FILL_UINT64
    pub const UINT64: u64 = 18446744073709551614;
}

/// A Rust type that can be a memory type for netCDF numeric data.
pub trait NcElement:
    crate::types::NcTypeDescriptor + Copy + Send + Sync + Default + 'static + std::fmt::Debug
{
    /// The netCDF type with the same representation.
    const NC_TYPE: NcType;
    /// Size in bytes.
    const SIZE: usize;
    /// The default fill value of that type.
    fn default_fill() -> Self;
    /// Exact conversion from an integer, `None` when out of range.
    fn from_i128(v: i128) -> Option<Self>;
    /// Conversion from a double with netCDF's range check, `None` when out of range.
    fn from_f64(v: f64) -> Option<Self>;
    /// Widening to i128 (`None` for floating types).
    fn to_i128(self) -> Option<i128>;
    /// Widening to f64.
    fn to_f64(self) -> f64;
    /// Reads one native-endian value.
    fn read_ne(b: &[u8]) -> Self;
    /// Writes one native-endian value.
    fn write_ne(self, b: &mut [u8]);
    /// Wraps a vector of this type as [`Values`].
    fn into_values(v: Vec<Self>) -> Values;
}

macro_rules! int_element {
    ($t:ty, $nc:ident, $fill:expr) => {
        impl NcElement for $t {
            const NC_TYPE: NcType = NcType::$nc;
            const SIZE: usize = std::mem::size_of::<$t>();
            fn default_fill() -> Self {
                $fill
            }
            fn from_i128(v: i128) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
            fn from_f64(v: f64) -> Option<Self> {
                // netcdf-c: xx > (double)MAX || xx < (double)MIN is a range error.
                if v > <$t>::MAX as f64 || v < <$t>::MIN as f64 {
                    None
                } else {
                    Some(v as $t)
                }
            }
            fn to_i128(self) -> Option<i128> {
                Some(self as i128)
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn read_ne(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..std::mem::size_of::<$t>()]);
                <$t>::from_ne_bytes(a)
            }
            fn write_ne(self, b: &mut [u8]) {
                b[..std::mem::size_of::<$t>()].copy_from_slice(&self.to_ne_bytes());
            }
            fn into_values(v: Vec<Self>) -> Values {
                Values::$nc(v)
            }
        }
    };
}

int_element!(i8, Byte, fill::BYTE);
int_element!(i16, Short, fill::SHORT);
int_element!(i32, Int, fill::INT);
int_element!(u8, UByte, fill::UBYTE);
int_element!(u16, UShort, fill::USHORT);
int_element!(u32, UInt, fill::UINT);
int_element!(i64, Int64, fill::INT64);
int_element!(u64, UInt64, fill::UINT64);

macro_rules! float_element {
    ($t:ty, $nc:ident, $fill:expr, $range:expr) => {
        impl NcElement for $t {
            const NC_TYPE: NcType = NcType::$nc;
            const SIZE: usize = std::mem::size_of::<$t>();
            fn default_fill() -> Self {
                $fill
            }
            fn from_i128(v: i128) -> Option<Self> {
                Some(v as $t)
            }
            fn from_f64(v: f64) -> Option<Self> {
                let max: f64 = $range;
                if v > max || v < -max {
                    None
                } else {
                    Some(v as $t)
                }
            }
            fn to_i128(self) -> Option<i128> {
                None
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn read_ne(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..std::mem::size_of::<$t>()]);
                <$t>::from_ne_bytes(a)
            }
            fn write_ne(self, b: &mut [u8]) {
                b[..std::mem::size_of::<$t>()].copy_from_slice(&self.to_ne_bytes());
            }
            fn into_values(v: Vec<Self>) -> Values {
                Values::$nc(v)
            }
        }
    };
}

float_element!(f32, Float, fill::FLOAT, f32::MAX as f64);
float_element!(f64, Double, fill::DOUBLE, f64::MAX);

/// Converts one source element to `T` with netCDF's rules; `None` is a range error.
#[inline]
fn convert_one<S: NcElement, T: NcElement>(s: S) -> Option<T> {
    match s.to_i128() {
        Some(i) => T::from_i128(i),
        None => T::from_f64(s.to_f64()),
    }
}

/// Converts a slice of one numeric type into another, pushing into `out`. Out-of-range values
/// become `T`'s default fill; returns `Err(NC_ERANGE)` after converting everything if any was.
pub(crate) fn convert_slice<S: NcElement, T: NcElement>(src: &[S], out: &mut Vec<T>) -> Result<()> {
    if S::NC_TYPE == T::NC_TYPE {
        // Same representation: a plain copy.
        out.extend(src.iter().map(|s| {
            let mut b = [0u8; 8];
            s.write_ne(&mut b);
            T::read_ne(&b)
        }));
        return Ok(());
    }
    let mut range = false;
    out.extend(src.iter().map(|&s| {
        convert_one::<S, T>(s).unwrap_or_else(|| {
            range = true;
            T::default_fill()
        })
    }));
    if range {
        return fail(
            ErrorKind::Range,
            "value out of range for the destination type",
        );
    }
    Ok(())
}

/// Converts native-endian raw values of external type `src_type` into `T`, appending to `out`.
/// Char and string external types fail with NC_ECHAR / NC_EBADTYPE.
pub(crate) fn convert_raw<T: NcElement>(
    src_type: NcType,
    raw: &[u8],
    out: &mut Vec<T>,
) -> Result<()> {
    macro_rules! go {
        ($s:ty) => {{
            let size = std::mem::size_of::<$s>();
            if <$s>::NC_TYPE == T::NC_TYPE {
                out.extend(raw.chunks_exact(size).map(T::read_ne));
                return Ok(());
            }
            let src: Vec<$s> = raw.chunks_exact(size).map(<$s>::read_ne).collect();
            convert_slice::<$s, T>(&src, out)
        }};
    }
    match src_type {
        NcType::Byte => go!(i8),
        NcType::Short => go!(i16),
        NcType::Int => go!(i32),
        NcType::Float => go!(f32),
        NcType::Double => go!(f64),
        NcType::UByte => go!(u8),
        NcType::UShort => go!(u16),
        NcType::UInt => go!(u32),
        NcType::Int64 => go!(i64),
        NcType::UInt64 => go!(u64),
        NcType::Char => fail(ErrorKind::Char, "char variable read as numbers"),
        _ => fail(ErrorKind::BadType, "not a numeric type"),
    }
}

/// Converts values of memory type `T` into native-endian raw bytes of external type `dst_type`,
/// appending to `out`.
pub(crate) fn convert_to_raw<T: NcElement>(
    src: &[T],
    dst_type: NcType,
    out: &mut Vec<u8>,
) -> Result<()> {
    macro_rules! go {
        ($d:ty) => {{
            let size = std::mem::size_of::<$d>();
            let mut tmp: Vec<$d> = Vec::with_capacity(src.len());
            let r = convert_slice::<T, $d>(src, &mut tmp);
            let start = out.len();
            out.resize(start + tmp.len() * size, 0);
            for (v, b) in tmp.iter().zip(out[start..].chunks_exact_mut(size)) {
                v.write_ne(b);
            }
            r
        }};
    }
    match dst_type {
        NcType::Byte => go!(i8),
        NcType::Short => go!(i16),
        NcType::Int => go!(i32),
        NcType::Float => go!(f32),
        NcType::Double => go!(f64),
        NcType::UByte => go!(u8),
        NcType::UShort => go!(u16),
        NcType::UInt => go!(u32),
        NcType::Int64 => go!(i64),
        NcType::UInt64 => go!(u64),
        NcType::Char => fail(ErrorKind::Char, "numbers written to a char variable"),
        _ => fail(ErrorKind::BadType, "not a numeric type"),
    }
}

/// Decodes native-endian raw bytes of an atomic fixed-size type into [`Values`].
pub(crate) fn values_from_ne_bytes(typ: NcType, raw: &[u8]) -> Result<Values> {
    fn v<T: NcElement>(raw: &[u8]) -> Vec<T> {
        raw.chunks_exact(T::SIZE).map(T::read_ne).collect()
    }
    Ok(match typ {
        NcType::Byte => Values::Byte(v(raw)),
        NcType::Char => Values::Char(raw.to_vec()),
        NcType::Short => Values::Short(v(raw)),
        NcType::Int => Values::Int(v(raw)),
        NcType::Float => Values::Float(v(raw)),
        NcType::Double => Values::Double(v(raw)),
        NcType::UByte => Values::UByte(v(raw)),
        NcType::UShort => Values::UShort(v(raw)),
        NcType::UInt => Values::UInt(v(raw)),
        NcType::Int64 => Values::Int64(v(raw)),
        NcType::UInt64 => Values::UInt64(v(raw)),
        _ => return fail(ErrorKind::BadType, "not a fixed-size atomic type"),
    })
}

/// Encodes atomic fixed-size [`Values`] as native-endian raw bytes.
pub(crate) fn values_to_ne_bytes(values: &Values) -> Result<Vec<u8>> {
    fn b<T: NcElement>(v: &[T]) -> Vec<u8> {
        let mut out = vec![0u8; v.len() * T::SIZE];
        for (x, c) in v.iter().zip(out.chunks_exact_mut(T::SIZE)) {
            x.write_ne(c);
        }
        out
    }
    Ok(match values {
        Values::Byte(v) => b(v),
        Values::Char(v) => v.clone(),
        Values::Short(v) => b(v),
        Values::Int(v) => b(v),
        Values::Float(v) => b(v),
        Values::Double(v) => b(v),
        Values::UByte(v) => b(v),
        Values::UShort(v) => b(v),
        Values::UInt(v) => b(v),
        Values::Int64(v) => b(v),
        Values::UInt64(v) => b(v),
        _ => return fail(ErrorKind::BadType, "not a fixed-size atomic type"),
    })
}

/// Converts atomic numeric [`Values`] to another numeric type (used for attributes and `nccopy`);
/// NC_ERANGE if any value was out of range (those become the default fill).
pub(crate) fn convert_values(values: &Values, to: NcType) -> Result<Values> {
    if values.nc_type() == to {
        return Ok(values.clone());
    }
    let raw = values_to_ne_bytes(values)?;
    let from = values.nc_type();
    macro_rules! go {
        ($t:ty) => {{
            let mut out: Vec<$t> = Vec::with_capacity(values.len());
            convert_raw::<$t>(from, &raw, &mut out)?;
            <$t>::into_values(out)
        }};
    }
    Ok(match to {
        NcType::Byte => go!(i8),
        NcType::Short => go!(i16),
        NcType::Int => go!(i32),
        NcType::Float => go!(f32),
        NcType::Double => go!(f64),
        NcType::UByte => go!(u8),
        NcType::UShort => go!(u16),
        NcType::UInt => go!(u32),
        NcType::Int64 => go!(i64),
        NcType::UInt64 => go!(u64),
        NcType::Char => return fail(ErrorKind::Char, "numbers converted to text"),
        _ => return fail(ErrorKind::BadType, "not a numeric type"),
    })
}

/// The default fill value of an atomic type as a one-element [`Values`] (string: `""`).
pub(crate) fn default_fill(typ: NcType) -> Option<Values> {
    Some(match typ {
        NcType::Byte => Values::Byte(vec![fill::BYTE]),
        NcType::Char => Values::Char(vec![fill::CHAR]),
        NcType::Short => Values::Short(vec![fill::SHORT]),
        NcType::Int => Values::Int(vec![fill::INT]),
        NcType::Float => Values::Float(vec![fill::FLOAT]),
        NcType::Double => Values::Double(vec![fill::DOUBLE]),
        NcType::UByte => Values::UByte(vec![fill::UBYTE]),
        NcType::UShort => Values::UShort(vec![fill::USHORT]),
        NcType::UInt => Values::UInt(vec![fill::UINT]),
        NcType::Int64 => Values::Int64(vec![fill::INT64]),
        NcType::UInt64 => Values::UInt64(vec![fill::UINT64]),
        NcType::String => Values::String(vec![Some(String::new())]),
        NcType::User(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_fill() {
        let mut out: Vec<i8> = Vec::new();
        let e = convert_slice::<i32, i8>(&[1, 300, -128, -129], &mut out).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Range);
        assert_eq!(out, vec![1, fill::BYTE, -128, fill::BYTE]);

        let mut out: Vec<i32> = Vec::new();
        convert_slice::<f64, i32>(&[1.9, -1.9, 2147483647.0], &mut out).unwrap();
        assert_eq!(out, vec![1, -1, i32::MAX]);

        let mut out: Vec<f32> = Vec::new();
        assert!(convert_slice::<f64, f32>(&[1e39], &mut out).is_err());
        assert_eq!(out, vec![fill::FLOAT]);

        let mut out: Vec<u32> = Vec::new();
        assert!(convert_slice::<i16, u32>(&[-1], &mut out).is_err());

        let mut out: Vec<u64> = Vec::new();
        convert_slice::<i64, u64>(&[i64::MAX], &mut out).unwrap();
        assert_eq!(out, vec![i64::MAX as u64]);
    }

    #[test]
    fn raw_round_trip() {
        let v = Values::Short(vec![1, -2, 3]);
        let raw = values_to_ne_bytes(&v).unwrap();
        assert_eq!(values_from_ne_bytes(NcType::Short, &raw).unwrap(), v);
        let mut out: Vec<f64> = Vec::new();
        convert_raw::<f64>(NcType::Short, &raw, &mut out).unwrap();
        assert_eq!(out, vec![1.0, -2.0, 3.0]);
        assert_eq!(
            convert_raw::<f64>(NcType::Char, b"ab", &mut out)
                .unwrap_err()
                .kind(),
            ErrorKind::Char
        );
        assert_eq!(
            convert_values(&Values::Int(vec![70000]), NcType::Short)
                .unwrap_err()
                .kind(),
            ErrorKind::Range
        );
    }
}
