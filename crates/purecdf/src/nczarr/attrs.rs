//! Attributes in `.zattrs`: JSON values turned into typed netCDF attributes.
//!
//! NCZarr records each attribute's type as a dtype string (`_NCZARR_ATTR` in netcdf-c 4.8/4.9,
//! `_nczarr_attr` in 4.10: `{"types": {"units": "<U1", "scale": "<f4"}}`; 4.10 adds `|J0` for an
//! attribute that is JSON text). Pure Zarr attributes are untyped and get the type netcdf-c 4.10
//! infers from the first value (`../shared/spec/nczarr.md`, "Translation", item 3): an integer
//! the smallest of int, uint, int64, uint64 that holds it; a real number double; a boolean ubyte;
//! a string char; a dictionary, or a list holding anything but numbers, booleans and strings,
//! char holding its JSON text.

use crate::json::Value;

use super::dtype::Dtype;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{NcType, Values};

/// A JSON number, boolean or numeric string: its value as f64, and exactly when it is an
/// integer; `None` for anything else.
fn number(v: &Value) -> Option<(f64, Option<i128>)> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some((i as f64, Some(i128::from(i))))
            } else if let Some(u) = n.as_u64() {
                Some((u as f64, Some(i128::from(u))))
            } else {
                Some((n.as_f64()?, None))
            }
        }
        Value::Bool(b) => Some((f64::from(u8::from(*b)), Some(i128::from(*b)))),
        Value::String(s) => {
            if let Some(f) = super::json::special_float(s) {
                return Some((f, None));
            }
            match s.as_str() {
                "NaN" | "nan" => Some((f64::NAN, None)),
                "Infinity" | "inf" => Some((f64::INFINITY, None)),
                "-Infinity" | "-inf" => Some((f64::NEG_INFINITY, None)),
                s => match s.parse::<i128>() {
                    Ok(i) => Some((i as f64, Some(i))),
                    Err(_) => s.parse().ok().map(|f| (f, None)),
                },
            }
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
    // C conversions: integers wrap to the type's width, reals truncate (saturating).
    macro_rules! ints {
        ($variant:ident, $t:ty) => {
            Values::$variant(
                nums.iter()
                    .map(|&(f, i)| match i {
                        Some(i) => i as $t,
                        None => f as $t,
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
        NcType::UInt64 => ints!(UInt64, u64),
        NcType::Float => Values::Float(nums.iter().map(|&(f, _)| f as f32).collect()),
        NcType::Double => Values::Double(nums.iter().map(|&(f, _)| f).collect()),
        _ => return None,
    })
}

/// JSON text of a value as netcdf-c writes it for its JSON convention (`NCJunparse`): object
/// members as `"key": value` separated by `, `, list items separated by `,` alone.
pub(crate) fn nc_json(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                nc_json(x, out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                nc_json(x, out);
            }
            out.push(']');
        }
        Value::String(s) => match super::json::special_float(s) {
            Some(f) if f.is_nan() => out.push_str("NaN"),
            Some(f) if f > 0.0 => out.push_str("Infinity"),
            Some(_) => out.push_str("-Infinity"),
            None => out.push_str(&v.to_string()),
        },
        other => out.push_str(&other.to_string()),
    }
}

/// A value as a char attribute holding its JSON text.
fn json_text(v: &Value) -> Values {
    let mut t = String::new();
    nc_json(v, &mut t);
    Values::Char(t.into_bytes())
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

/// An untyped (pure Zarr) attribute, typed as netcdf-c 4.10 infers it from its first value,
/// except that a list of integers takes the smallest type holding all of them (netcdf-c fails
/// to open a list such as `[1, 1099511627776]`). `null`, the empty list, objects and lists
/// holding anything but numbers and booleans are char attributes holding their JSON text.
pub(crate) fn inferred(value: &Value) -> Values {
    let items = elements(value);
    let numeric = |v: &Value| match v {
        Value::Number(_) | Value::Bool(_) => true,
        Value::String(s) => super::json::special_float(s).is_some(),
        _ => false,
    };
    if let Value::String(s) = value {
        if super::json::special_float(s).is_none() {
            return Values::Char(s.as_bytes().to_vec());
        }
    }
    if value.is_null() || value.is_object() || items.is_empty() || !items.iter().all(numeric) {
        return json_text(value);
    }
    let int_type = |n: &crate::json::Number| match (n.as_i64(), n.as_u64()) {
        (Some(i), _) if i32::try_from(i).is_ok() => Some(0),
        (Some(i), _) if u32::try_from(i).is_ok() => Some(1),
        (Some(_), _) => Some(2),
        (None, Some(_)) => Some(3),
        _ => None,
    };
    let typ = match &items[0] {
        Value::Number(n) if int_type(n).is_some() => {
            let widest = items
                .iter()
                .filter_map(|v| v.as_number().and_then(int_type))
                .max()
                .unwrap_or(0);
            [NcType::Int, NcType::UInt, NcType::Int64, NcType::UInt64][widest]
        }
        Value::Bool(_) => NcType::UByte,
        _ => NcType::Double,
    };
    numbers(typ, items).unwrap_or_else(|| json_text(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn j(s: &str) -> Value {
        crate::json::parse(s.as_bytes()).unwrap()
    }

    #[test]
    fn inference() {
        let inferred = |v: &Value| Some(super::inferred(v));
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
            Some(Values::Char(br#"{"a": [1,2]}"#.to_vec()))
        );
        assert_eq!(inferred(&j("null")), Some(Values::Char(b"null".to_vec())));
        assert_eq!(inferred(&j("[]")), Some(Values::Char(b"[]".to_vec())));
        assert_eq!(
            inferred(&j(r#"["a", "bc"]"#)),
            Some(Values::Char(br#"["a","bc"]"#.to_vec()))
        );
        assert_eq!(
            inferred(&j("[1, 1099511627776]")),
            Some(Values::Int64(vec![1, 1 << 40]))
        );
        assert_eq!(inferred(&j("[1, 2.5]")), Some(Values::Int(vec![1, 2])));
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
