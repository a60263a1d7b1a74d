//! Attributes in `.zattrs`: JSON values turned into typed netCDF attributes.
//!
//! NCZarr records each attribute's type as a dtype string (`_NCZARR_ATTR` in netcdf-c 4.8/4.9,
//! `_nczarr_attr` in 4.10: `{"types": {"units": "<U1", "scale": "<f4"}}`; 4.10 adds `|J0` for an
//! attribute that is JSON text). Pure Zarr attributes are untyped and get the type netcdf-c 4.10
//! infers from the first value (`../shared/spec/nczarr.md`, "Translation", item 3): an integer
//! the smallest of int, uint, int64, uint64 that holds it; a real number double; a boolean ubyte;
//! a string char; a dictionary, or a list holding anything but numbers, booleans and strings,
//! char holding its JSON text.

use serde_json::Value;

use super::dtype::Dtype;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{NcType, Values};

/// A JSON number or numeric string as f64, i64 and u64 views; `None` for anything else.
fn number(v: &Value) -> Option<(f64, i64, u64)> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some((i as f64, i, i as u64))
            } else if let Some(u) = n.as_u64() {
                Some((u as f64, u as i64, u))
            } else {
                let f = n.as_f64()?;
                Some((f, f as i64, f as u64))
            }
        }
        Value::Bool(b) => Some((f64::from(u8::from(*b)), i64::from(*b), u64::from(*b))),
        Value::String(s) => {
            if let Some(f) = super::json::special_float(s) {
                return Some((f, f as i64, f as u64));
            }
            let f = match s.as_str() {
                "NaN" | "nan" => f64::NAN,
                "Infinity" | "inf" => f64::INFINITY,
                "-Infinity" | "-inf" => f64::NEG_INFINITY,
                s => {
                    if let Ok(i) = s.parse::<i64>() {
                        return Some((i as f64, i, i as u64));
                    }
                    s.parse().ok()?
                }
            };
            Some((f, f as i64, f as u64))
        }
        _ => None,
    }
}

/// The elements of a value: a list's items, or the value itself.
fn elements(v: &Value) -> &[Value] {
    match v {
        Value::Array(a) => a,
        other => std::slice::from_ref(other),
    }
}

/// Converts JSON values to numbers of an atomic numeric type (C conversions, as netcdf-c).
pub(crate) fn numbers(typ: NcType, items: &[Value]) -> Option<Values> {
    let mut nums = Vec::with_capacity(items.len());
    for v in items {
        nums.push(number(v)?);
    }
    macro_rules! ints {
        ($variant:ident, $t:ty) => {
            Values::$variant(
                nums.iter()
                    .map(|&(f, i, _)| {
                        if f.fract() != 0.0 || f.abs() > 9.0e18 {
                            f as $t
                        } else {
                            i as $t
                        }
                    })
                    .collect(),
            )
        };
    }
    Some(match typ {
        NcType::Byte => ints!(Byte, i8),
        NcType::Short => ints!(Short, i16),
        NcType::Int => ints!(Int, i32),
        NcType::Int64 => ints!(Int64, i64),
        NcType::UByte => ints!(UByte, u8),
        NcType::UShort => ints!(UShort, u16),
        NcType::UInt => ints!(UInt, u32),
        NcType::UInt64 => Values::UInt64(
            nums.iter()
                .map(|&(f, i, u)| {
                    if f.fract() != 0.0 {
                        f as u64
                    } else if i < 0 {
                        i as u64
                    } else {
                        u
                    }
                })
                .collect(),
        ),
        NcType::Float => Values::Float(nums.iter().map(|&(f, _, _)| f as f32).collect()),
        NcType::Double => Values::Double(nums.iter().map(|&(f, _, _)| f).collect()),
        _ => return None,
    })
}

/// JSON text of a value, as netcdf-c's JSON convention stores it in a char attribute.
fn json_text(v: &Value) -> Values {
    Values::Char(v.to_string().into_bytes())
}

/// Text of a char attribute: a string's bytes; a list of strings concatenated.
fn text(v: &Value) -> Values {
    match v {
        Value::String(s) => Values::Char(s.as_bytes().to_vec()),
        Value::Array(a) if a.iter().all(Value::is_string) => Values::Char(
            a.iter()
                .filter_map(Value::as_str)
                .collect::<String>()
                .into_bytes(),
        ),
        other => json_text(other),
    }
}

/// An attribute whose NCZarr type is recorded as `dtype`.
///
/// # Errors
/// NC_ENCZARR when the values do not fit the type.
pub(crate) fn typed(name: &str, value: &Value, dtype: &str, key: &str) -> Result<Values> {
    let bad = || {
        Error::with_detail(
            ErrorKind::Nczarr,
            format!("{key}: attribute {name}: {value} is not of type {dtype}"),
        )
    };
    if dtype.starts_with("|J") {
        return Ok(match value {
            Value::String(_) => text(value),
            other => json_text(other),
        });
    }
    let typ = match Dtype::parse(dtype, true) {
        Some(d) => d.nc_type(),
        // NCZarr version 1 wrote netCDF type codes.
        None => dtype
            .parse::<i32>()
            .ok()
            .and_then(NcType::from_code)
            .ok_or_else(bad)?,
    };
    match typ {
        NcType::Char => Ok(text(value)),
        NcType::String => Ok(Values::String(
            elements(value)
                .iter()
                .map(|v| match v {
                    Value::String(s) => Some(s.clone()),
                    Value::Null => None,
                    other => Some(other.to_string()),
                })
                .collect(),
        )),
        t => match value {
            Value::Object(_) => Ok(json_text(value)),
            _ => numbers(t, elements(value)).ok_or_else(bad),
        },
    }
}

/// An untyped (pure Zarr) attribute, typed as netcdf-c 4.10 infers it; `None` for `null` and
/// the empty list, which have no netCDF type (netcdf-c refuses them; we leave them out).
pub(crate) fn inferred(value: &Value) -> Option<Values> {
    if value.is_null() {
        return None;
    }
    let items = elements(value);
    let atomic = |v: &Value| matches!(v, Value::Number(_) | Value::Bool(_) | Value::String(_));
    if value.is_object() || !items.iter().all(atomic) {
        return Some(json_text(value));
    }
    let first = items.first()?;
    let typ = match first {
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) if i32::try_from(i).is_ok() => NcType::Int,
            (Some(i), _) if u32::try_from(i).is_ok() => NcType::UInt,
            (Some(_), _) => NcType::Int64,
            (None, Some(_)) => NcType::UInt64,
            _ => NcType::Double,
        },
        Value::Bool(_) => NcType::UByte,
        Value::String(s) if super::json::special_float(s).is_some() => NcType::Double,
        Value::String(_) => return Some(text(value)),
        _ => return None,
    };
    // A list mixing strings into numbers is JSON text too.
    numbers(typ, items).or_else(|| Some(json_text(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn inference() {
        assert_eq!(inferred(&j("1")), Some(Values::Int(vec![1])));
        assert_eq!(inferred(&j("[1, 2]")), Some(Values::Int(vec![1, 2])));
        assert_eq!(
            inferred(&j("3000000000")),
            Some(Values::UInt(vec![3_000_000_000]))
        );
        assert_eq!(
            inferred(&j("-3000000000")),
            Some(Values::Int64(vec![-3_000_000_000]))
        );
        assert_eq!(
            inferred(&j("18446744073709551615")),
            Some(Values::UInt64(vec![u64::MAX]))
        );
        assert_eq!(inferred(&j("1.5")), Some(Values::Double(vec![1.5])));
        assert_eq!(inferred(&j("true")), Some(Values::UByte(vec![1])));
        assert_eq!(inferred(&j("\"hi\"")), Some(Values::Char(b"hi".to_vec())));
        assert_eq!(
            inferred(&j(r#"{"a": [1, 2]}"#)),
            Some(Values::Char(br#"{"a":[1,2]}"#.to_vec()))
        );
        assert_eq!(inferred(&j("null")), None);
        assert_eq!(inferred(&j("[]")), None);
    }

    #[test]
    fn typed_values() {
        assert_eq!(
            typed("a", &j("-1"), "<f4", "k").unwrap(),
            Values::Float(vec![-1.0])
        );
        assert_eq!(
            typed("a", &j("[1, 2]"), "<i2", "k").unwrap(),
            Values::Short(vec![1, 2])
        );
        assert_eq!(
            typed("a", &j("\"m\""), "<U1", "k").unwrap(),
            Values::Char(b"m".to_vec())
        );
        assert_eq!(
            typed("a", &j("18446744073709551615"), "<u8", "k").unwrap(),
            Values::UInt64(vec![u64::MAX])
        );
        match typed("a", &j("\"NaN\""), "<f8", "k").unwrap() {
            Values::Double(v) => assert!(v[0].is_nan()),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            typed("a", &j("[1]"), "4", "k").unwrap(),
            Values::Int(vec![1])
        );
        assert!(typed("a", &j("\"x\""), "<i4", "k").is_err());
        assert!(typed("a", &j("1"), "<c8", "k").is_err());
    }
}
