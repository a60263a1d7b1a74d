//! Converting CDL constants to typed values the way ncgen's `convert1` (`ncgen/cvt.c`) does:
//! C casts between numeric types (integers wrap, floating-point values truncate toward zero and
//! out-of-range conversions give what x86-64 gives), strings read with `sscanf`, `0x..` opaque
//! constants reinterpreted as little-endian bytes. `ncgen-features.md` §4.

use super::ast::ConstKind;
use crate::model::{NcType, Schema, UserTypeKind, Value};

/// x86-64 `cvttsd2si` to 32 bits: out of range or NaN gives `i32::MIN`.
fn cvt32(d: f64) -> i32 {
    if d.is_nan() || d <= -2_147_483_649.0 || d >= 2_147_483_648.0 {
        i32::MIN
    } else {
        d as i32
    }
}

const TWO63: f64 = 9_223_372_036_854_775_808.0;

/// x86-64 `cvttsd2si` to 64 bits: out of range or NaN gives `i64::MIN`.
fn cvt64(d: f64) -> i64 {
    if d.is_nan() || !(-TWO63..TWO63).contains(&d) {
        i64::MIN
    } else {
        d as i64
    }
}

/// gcc's double -> unsigned long long: values >= 2^63 are shifted down first; everything else
/// (NaN included) goes through the signed conversion.
fn cvtu64(d: f64) -> u64 {
    if d >= TWO63 {
        (cvt64(d - TWO63) as u64) ^ (1 << 63)
    } else {
        cvt64(d) as u64
    }
}

/// A double converted to an atomic numeric type with C cast semantics.
fn from_f64(d: f64, t: NcType) -> Option<Value> {
    Some(match t {
        NcType::Byte => Value::Byte(cvt32(d) as i8),
        NcType::Char => Value::Char(cvt32(d) as u8),
        NcType::Short => Value::Short(cvt32(d) as i16),
        NcType::Int => Value::Int(cvt32(d)),
        NcType::UByte => Value::UByte(cvt32(d) as u8),
        NcType::UShort => Value::UShort(cvt32(d) as u16),
        NcType::UInt => Value::UInt(cvt64(d) as u32),
        NcType::Int64 => Value::Int64(cvt64(d)),
        NcType::UInt64 => Value::UInt64(cvtu64(d)),
        NcType::Float => Value::Float(d as f32),
        NcType::Double => Value::Double(d),
        NcType::String => Value::String(Some(format!("{d}"))),
        NcType::User(_) => return None,
    })
}

/// An integer converted to an atomic type with C cast semantics (truncating bits).
fn from_int(v: i128, t: NcType) -> Option<Value> {
    Some(match t {
        NcType::Byte => Value::Byte(v as i8),
        NcType::Char => Value::Char(v as u8),
        NcType::Short => Value::Short(v as i16),
        NcType::Int => Value::Int(v as i32),
        NcType::UByte => Value::UByte(v as u8),
        NcType::UShort => Value::UShort(v as u16),
        NcType::UInt => Value::UInt(v as u32),
        NcType::Int64 => Value::Int64(v as i64),
        NcType::UInt64 => Value::UInt64(v as u64),
        NcType::Float => Value::Float(v as f32),
        NcType::Double => Value::Double(v as f64),
        NcType::String => Value::String(Some(v.to_string())),
        NcType::User(_) => return None,
    })
}

/// `sscanf("%lld")`-like: leading whitespace, sign, digits; 0 when nothing parses.
fn scan_int(s: &[u8]) -> i128 {
    let t = String::from_utf8_lossy(s);
    let t = t.trim_start();
    let end = t
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && (*c == '-' || *c == '+'))))
        .map_or(t.len(), |(i, _)| i);
    t[..end].parse::<i128>().unwrap_or(0)
}

/// `sscanf("%lg")`-like: the longest leading prefix that parses as a float; 0 when none.
fn scan_float(s: &[u8]) -> f64 {
    let t = String::from_utf8_lossy(s);
    let t = t.trim_start();
    let mut best = 0.0;
    for end in (1..=t.len().min(64)).rev() {
        if let Some(p) = t.get(..end) {
            if let Ok(v) = p.parse::<f64>() {
                best = v;
                break;
            }
        }
    }
    best
}

/// Decodes opaque hex text into bytes.
pub(crate) fn hex_bytes(hex: &str) -> Vec<u8> {
    hex.as_bytes()
        .chunks(2)
        .map(|p| {
            let d = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            (d(p[0]) << 4) | p.get(1).map_or(0, |c| d(*c))
        })
        .collect()
}

/// Converts one constant to a value of atomic type `t` (`convert1`). `fill` is used for `_`.
/// Errors are ncgen's message texts.
pub(crate) fn convert_atomic(c: &ConstKind, t: NcType, fill: &Value) -> Result<Value, String> {
    let v = match c {
        ConstKind::Fill => return Ok(fill.clone()),
        ConstKind::Float(f) => from_f64(f64::from(*f), t),
        ConstKind::Double(d) => from_f64(*d, t),
        ConstKind::Str(s) => match t {
            NcType::Char => Some(Value::Char(s.first().copied().unwrap_or(0))),
            NcType::String => Some(Value::String(Some(String::from_utf8_lossy(s).into_owned()))),
            NcType::Float | NcType::Double => from_f64(scan_float(s), t),
            other => from_int(scan_int(s), other),
        },
        ConstKind::Opaque(hex) => {
            let mut b = hex_bytes(hex);
            let n = t.atomic_size().unwrap_or(1).min(8);
            b.resize(8, 0);
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[..8]);
            let raw = u64::from_le_bytes(w)
                & if n == 8 {
                    u64::MAX
                } else {
                    (1u64 << (n * 8)) - 1
                };
            match t {
                NcType::Float => Some(Value::Float(f32::from_bits(raw as u32))),
                NcType::Double => Some(Value::Double(f64::from_bits(raw))),
                NcType::String => Some(Value::String(Some(hex.clone()))),
                other => from_int(i128::from(raw), other),
            }
        }
        ConstKind::Nil => {
            if t == NcType::String {
                Some(Value::String(None))
            } else {
                None
            }
        }
        ConstKind::Enum(_, v) => from_int(*v, t),
        // cvt.c reads byte constants through the unsigned member: -1b becomes 255 in any
        // wider type.
        ConstKind::Byte(b) => from_int(i128::from(*b as u8), t),
        ConstKind::List(_) => return Err("Expected primitive found {..}".into()),
        ConstKind::EnumRef { name, .. } => return Err(format!("Undefined enum constant: {name}")),
        k => k.as_i128().and_then(|v| from_int(v, t)),
    };
    v.ok_or_else(|| match c {
        ConstKind::Nil => {
            "NIL data can only be assigned to variables or attributes of type string".into()
        }
        _ => "Data value is not consistent with the expected type".into(),
    })
}

/// Converts a constant to a value of any type, including user types (compound values need
/// `{...}`, vlens `{...}`, enums a constant name or number, opaques `0x..`).
pub(crate) fn convert_any(
    s: &Schema,
    c: &ConstKind,
    t: NcType,
    fill: Option<&Value>,
    depth: usize,
) -> Result<Value, String> {
    let NcType::User(id) = t else {
        let f = match fill {
            Some(f) => f.clone(),
            None => default_fill(s, t),
        };
        return convert_atomic(c, t, &f);
    };
    if depth > 64 {
        return Err("type nesting too deep".into());
    }
    if matches!(c, ConstKind::Fill) {
        return Ok(fill.cloned().unwrap_or_else(|| default_fill(s, t)));
    }
    match &s.user_type(id).kind {
        UserTypeKind::Enum { base, .. } => match c {
            ConstKind::Enum(tid, v) if *tid == id => Ok(Value::Enum(*v)),
            ConstKind::Enum(..) => Err(format!(
                "Data value is not consistent with the expected type: {}",
                s.user_type(id).name
            )),
            other => {
                let v = convert_atomic(other, *base, &Value::Int(0))?;
                Ok(Value::Enum(value_i128(&v)))
            }
        },
        UserTypeKind::Opaque { size } => match c {
            ConstKind::Opaque(hex) => {
                let mut b = hex_bytes(hex);
                b.resize((*size).min(1 << 20), 0);
                Ok(Value::Opaque(b))
            }
            _ => Err(format!(
                "Data value is not consistent with the expected type: {}",
                s.user_type(id).name
            )),
        },
        UserTypeKind::Vlen { base } => {
            let ConstKind::List(items) = c else {
                return Err("Vlen data must be enclosed in {..}".into());
            };
            if *base == NcType::Char {
                let mut bytes = Vec::new();
                for it in items {
                    match &it.kind {
                        ConstKind::Str(b) => bytes.extend_from_slice(b),
                        ConstKind::Byte(b) => bytes.push(*b as u8),
                        ConstKind::UByte(b) => bytes.push(*b),
                        _ => {
                            return Err(
                                "Encountered non-string and non-char constant in datalist".into()
                            )
                        }
                    }
                }
                return Ok(Value::Vlen(bytes.into_iter().map(Value::Char).collect()));
            }
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(convert_any(s, &it.kind, *base, None, depth + 1)?);
            }
            Ok(Value::Vlen(out))
        }
        UserTypeKind::Compound { fields, .. } => {
            let ConstKind::List(items) = c else {
                return Err("Compound data must be enclosed in {..}".into());
            };
            if items.len() > fields.len() {
                return Err("Datalist longer than the number of compound fields".into());
            }
            let mut out = Vec::with_capacity(fields.len());
            for (i, f) in fields.iter().enumerate() {
                let item = items.get(i).map(|c| &c.kind);
                if f.dims.is_empty() {
                    out.push(match item {
                        Some(k) => convert_any(s, k, f.typ, None, depth + 1)?,
                        None => default_fill(s, f.typ),
                    });
                    continue;
                }
                let n: usize = f
                    .dims
                    .iter()
                    .fold(1usize, |a, d| a.saturating_mul(*d))
                    .min(1 << 20);
                let elems: &[super::ast::Const] = match item {
                    None | Some(ConstKind::Fill) => &[],
                    Some(ConstKind::List(l)) => l,
                    Some(_) => return Err("Dimensioned fields must be enclose in {...}".into()),
                };
                let arr = if f.typ == NcType::Char {
                    let dims: Vec<u64> = f.dims.iter().map(|d| *d as u64).collect();
                    let mut buf = super::data::char_buffer(elems, &dims, 0, false, n);
                    buf.resize(n, 0);
                    buf.into_iter().map(Value::Char).collect()
                } else {
                    let mut v = Vec::with_capacity(n.min(elems.len()));
                    for k in 0..n {
                        v.push(match elems.get(k) {
                            Some(e) => convert_any(s, &e.kind, f.typ, None, depth + 1)?,
                            None => default_fill(s, f.typ),
                        });
                    }
                    v
                };
                out.push(Value::Array(arr));
            }
            Ok(Value::Compound(out))
        }
    }
}

/// The integer inside an integer [`Value`].
pub(crate) fn value_i128(v: &Value) -> i128 {
    match v {
        Value::Byte(x) => i128::from(*x),
        Value::Char(x) => i128::from(*x),
        Value::Short(x) => i128::from(*x),
        Value::Int(x) => i128::from(*x),
        Value::UByte(x) => i128::from(*x),
        Value::UShort(x) => i128::from(*x),
        Value::UInt(x) => i128::from(*x),
        Value::Int64(x) => i128::from(*x),
        Value::UInt64(x) => i128::from(*x),
        Value::Enum(x) => *x,
        _ => 0,
    }
}

/// The default fill value of any type (netcdf-c `nc_getfill`): compound fields filled
/// individually, empty vlen, zero opaque, enum: the base type's fill.
pub(crate) fn default_fill(s: &Schema, t: NcType) -> Value {
    fill_at(s, t, 0)
}

fn fill_at(s: &Schema, t: NcType, depth: usize) -> Value {
    use crate::convert::fill;
    match t {
        NcType::Byte => Value::Byte(fill::BYTE),
        NcType::Char => Value::Char(fill::CHAR),
        NcType::Short => Value::Short(fill::SHORT),
        NcType::Int => Value::Int(fill::INT),
        NcType::Float => Value::Float(fill::FLOAT),
        NcType::Double => Value::Double(fill::DOUBLE),
        NcType::UByte => Value::UByte(fill::UBYTE),
        NcType::UShort => Value::UShort(fill::USHORT),
        NcType::UInt => Value::UInt(fill::UINT),
        NcType::Int64 => Value::Int64(fill::INT64),
        NcType::UInt64 => Value::UInt64(fill::UINT64),
        NcType::String => Value::String(Some(String::new())),
        NcType::User(id) => match &s.user_type(id).kind {
            UserTypeKind::Enum { base, .. } => Value::Enum(value_i128(&fill_at(s, *base, depth))),
            UserTypeKind::Compound { .. } if depth > 64 => Value::Compound(Vec::new()),
            UserTypeKind::Opaque { size } => Value::Opaque(vec![0; (*size).min(1 << 20)]),
            UserTypeKind::Vlen { .. } => Value::Vlen(Vec::new()),
            UserTypeKind::Compound { fields, .. } => Value::Compound(
                fields
                    .iter()
                    .map(|f| {
                        let one = fill_at(s, f.typ, depth + 1);
                        if f.dims.is_empty() {
                            one
                        } else {
                            let n = f.dims.iter().fold(1usize, |a, d| a.saturating_mul(*d));
                            Value::Array(vec![one; n.min(1 << 20)])
                        }
                    })
                    .collect(),
            ),
        },
    }
}

/// Packs values of one type into [`crate::model::Values`].
pub(crate) fn pack(t: NcType, vals: Vec<Value>) -> crate::model::Values {
    use crate::model::Values as V;
    macro_rules! grab {
        ($variant:ident) => {
            V::$variant(
                vals.into_iter()
                    .map(|v| match v {
                        Value::$variant(x) => x,
                        _ => Default::default(),
                    })
                    .collect(),
            )
        };
    }
    match t {
        NcType::Byte => grab!(Byte),
        NcType::Char => grab!(Char),
        NcType::Short => grab!(Short),
        NcType::Int => grab!(Int),
        NcType::Float => grab!(Float),
        NcType::Double => grab!(Double),
        NcType::UByte => grab!(UByte),
        NcType::UShort => grab!(UShort),
        NcType::UInt => grab!(UInt),
        NcType::Int64 => grab!(Int64),
        NcType::UInt64 => grab!(UInt64),
        NcType::String => grab!(String),
        NcType::User(id) => V::User(id, vals),
    }
}

/// `time("YYYY-MM-DD[ hh[:mm[:ss]]]")`: hours since 1970-01-01 in the standard calendar
/// (netcdf-c `cdChar2Comp` + `Cdh2e`).
pub(crate) fn epoch_hours(text: &str) -> f64 {
    let t = text.trim();
    let (date, time) = match t.find([' ', 'T']) {
        Some(i) => (&t[..i], t[i + 1..].trim()),
        None => (t, ""),
    };
    let mut dp = date.splitn(3, '-');
    let year: i64 = dp.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let month: i64 = dp.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let day: i64 = dp.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut tp = time.splitn(3, ':');
    let h: f64 = tp.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let m: f64 = tp.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let sec: f64 = tp.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let year = year.clamp(-1_000_000, 1_000_000);
    // Days from 1970-01-01 to January 1st of `year` (proleptic Gregorian, closed form).
    let leaps_before = |y: i64| {
        let y = y - 1;
        y.div_euclid(4) - y.div_euclid(100) + y.div_euclid(400)
    };
    let days = (year - 1970) * 365 + leaps_before(year) - leaps_before(1970);
    const CUM: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let mi = (month.clamp(1, 12) - 1) as usize;
    let mut doy = CUM[mi] + day.clamp(-1_000_000, 1_000_000);
    if mi >= 2 && leap(year) {
        doy += 1;
    }
    (days + doy - 1) as f64 * 24.0 + h + m / 60.0 + sec / 3600.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_casts() {
        let f = Value::Int(0);
        assert_eq!(
            convert_atomic(&ConstKind::Int(300), NcType::Byte, &f),
            Ok(Value::Byte(44))
        );
        assert_eq!(
            convert_atomic(&ConstKind::Double(-1.7), NcType::Byte, &f),
            Ok(Value::Byte(-1))
        );
        assert_eq!(
            convert_atomic(&ConstKind::Double(3e9), NcType::Int, &f),
            Ok(Value::Int(i32::MIN))
        );
        assert_eq!(
            convert_atomic(&ConstKind::Str(b" 12abc".to_vec()), NcType::Short, &f),
            Ok(Value::Short(12))
        );
        assert_eq!(
            convert_atomic(&ConstKind::Opaque("0100".into()), NcType::Short, &f),
            Ok(Value::Short(1))
        );
        assert_eq!(
            convert_atomic(&ConstKind::Str(b"xyz".to_vec()), NcType::Char, &f),
            Ok(Value::Char(b'x'))
        );
        assert!(convert_atomic(&ConstKind::Nil, NcType::Int, &f).is_err());
        // Byte constants convert through their unsigned value (cvt.c uses `uint8v`).
        assert_eq!(
            convert_atomic(&ConstKind::Byte(-1), NcType::Int, &f),
            Ok(Value::Int(255))
        );
    }

    #[test]
    fn time_function() {
        assert_eq!(epoch_hours("1970-01-01"), 0.0);
        assert_eq!(epoch_hours("2000-01-01 12:00"), 10957.0 * 24.0 + 12.0);
        assert_eq!(epoch_hours("1969-12-31 23:30"), -0.5);
        assert_eq!(epoch_hours("2000-03-01"), (10957.0 + 60.0) * 24.0);
    }
}
