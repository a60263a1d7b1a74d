//! The JSON objects of a store being written, as netcdf-c 4.9.0 reads them
//! (`../shared/spec/nczarr.md`, "Storage Format"): `.zgroup` with `_NCZARR_SUPERBLOCK` (root)
//! and `_NCZARR_GROUP` (`dims`, `vars`, `groups`), `.zarray` with `_NCZARR_ARRAY` (`dimrefs`,
//! `storage`), `.zattrs` with the attributes, xarray's `_ARRAY_DIMENSIONS` and `_NCZARR_ATTR`
//! (`types`). Pure Zarr (`mode=zarr`) leaves out the `_NCZARR_*` keys; `noxarray` leaves out
//! `_ARRAY_DIMENSIONS`; `nc410` records attribute types as netcdf-c 4.10 does (`_nczarr_attr`,
//! see [`AttrTypes`]).
//!
//! dtypes are little-endian (`<`) unless the variable is big-endian, with the one-byte types
//! spelled `|i1`/`|u1` (which zarr-python 3 accepts and netcdf-c 4.9 reads); char is `<U1` (one
//! byte each: netcdf-c's reading), strings are `|O` with the `vlen-utf8` codec. Numbers keep
//! every digit: doubles in their shortest exact form, floats in the shortest form that reads
//! back as the same float; non-finite ones as the strings `NaN`, `Infinity`, `-Infinity`.

use crate::json::{json, Map, Number, Value};

use crate::model::{Attribute, NcType, Values};

/// The dtype of a netCDF type, `big` for big-endian numbers.
pub(crate) fn dtype(typ: NcType, big: bool) -> Option<String> {
    let (kind, size) = match typ {
        NcType::Byte => return Some("|i1".into()),
        NcType::UByte => return Some("|u1".into()),
        NcType::Char => return Some("<U1".into()),
        NcType::String => return Some("|O".into()),
        NcType::Short => ('i', 2),
        NcType::UShort => ('u', 2),
        NcType::Int => ('i', 4),
        NcType::UInt => ('u', 4),
        NcType::Int64 => ('i', 8),
        NcType::UInt64 => ('u', 8),
        NcType::Float => ('f', 4),
        NcType::Double => ('f', 8),
        NcType::User(_) => return None,
    };
    Some(format!("{}{kind}{size}", if big { '>' } else { '<' }))
}

/// A float as JSON: the shortest decimal that reads back as the same value.
fn real(f: f64, shortest: String) -> Value {
    if f.is_nan() {
        Value::String("NaN".into())
    } else if f.is_infinite() {
        Value::String(if f > 0.0 { "Infinity" } else { "-Infinity" }.into())
    } else {
        // The shortest digits of the value's own type, parsed as a double: exact for doubles,
        // and reading back as the same float for floats.
        let d: f64 = shortest.parse().unwrap_or(f);
        Number::from_f64(d).map_or(Value::Null, Value::Number)
    }
}

/// The JSON values of an attribute (or a fill value): a list, or one value when there is one.
pub(crate) fn values(v: &Values) -> Value {
    let list: Vec<Value> = match v {
        // netcdf-c stores text without its trailing NULs (an empty text is one NUL).
        Values::Char(c) => {
            let end = c.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
            return Value::String(String::from_utf8_lossy(&c[..end]).into_owned());
        }
        Values::Byte(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::UByte(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::Short(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::UShort(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::Int(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::UInt(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::Int64(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::UInt64(x) => x.iter().map(|&n| json!(n)).collect(),
        Values::Float(x) => x
            .iter()
            .map(|&f| real(f64::from(f), f.to_string()))
            .collect(),
        Values::Double(x) => x.iter().map(|&f| real(f, f.to_string())).collect(),
        Values::String(x) => x
            .iter()
            .map(|s| s.as_ref().map_or(Value::Null, |s| Value::String(s.clone())))
            .collect(),
        Values::User(..) => return Value::Null,
    };
    if list.len() == 1 {
        list.into_iter().next().unwrap_or(Value::Null)
    } else {
        Value::Array(list)
    }
}

/// The size of a string element in netcdf-c 4.10's layout (its default `_nczarr_maxstrlen`):
/// string variables are `|S128`, string attributes are typed so.
pub(crate) const NC410_STRING_BYTES: usize = 128;

/// Where a `.zattrs` records its attributes' netCDF types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttrTypes {
    /// Nowhere (pure Zarr).
    None,
    /// `_NCZARR_ATTR`, as netcdf-c 4.9.0 reads it (char `<U1`, string `|O`); 4.10 shows the key
    /// as an attribute and infers the types from the values.
    Nc490,
    /// `_nczarr_attr`, as netcdf-c 4.10 writes it (char `>S1`, string `|S128`, the key itself
    /// `|J0`); 4.9.0 shows the key as an attribute and infers the types. String variables are
    /// then `|S128` arrays and char variables `>S1` (4.10 cannot open a store holding a
    /// vlen-utf8 or a `<U1` array, 4.9.0's own char arrays included).
    Nc410,
}

/// A `.zattrs` object: the attributes in order, then `_ARRAY_DIMENSIONS` (when given) and the
/// NCZarr types (as `types` says).
pub(crate) fn zattrs(
    atts: &[Attribute],
    xarray_dims: Option<Vec<String>>,
    types_at: AttrTypes,
) -> Value {
    let mut m = Map::new();
    let mut types = Map::new();
    for a in atts {
        if matches!(a.name.as_str(), "_SuperblockVersion" | "_IsNetcdf4") {
            continue;
        }
        m.insert(a.name.clone(), values(&a.values));
        let spelled = match (types_at, a.values.nc_type()) {
            (AttrTypes::Nc410, NcType::Char) => Some(">S1".to_string()),
            (AttrTypes::Nc410, NcType::String) => Some(format!("|S{NC410_STRING_BYTES}")),
            (_, t) => dtype(t, false),
        };
        if let Some(d) = spelled {
            types.insert(a.name.clone(), Value::String(d));
        }
    }
    if let Some(dims) = xarray_dims {
        m.insert("_ARRAY_DIMENSIONS".into(), json!(dims));
    }
    match types_at {
        AttrTypes::None => {}
        AttrTypes::Nc490 => {
            let attr = if types.is_empty() {
                json!({})
            } else {
                json!({ "types": types })
            };
            m.insert("_NCZARR_ATTR".into(), attr);
        }
        AttrTypes::Nc410 => {
            types.insert("_nczarr_attr".into(), json!("|J0"));
            m.insert("_nczarr_attr".into(), json!({ "types": types }));
        }
    }
    Value::Object(m)
}

/// Writes JSON as netcdf-c does (one line; keys in insertion order).
pub(crate) fn text(v: &Value) -> Vec<u8> {
    v.to_string().into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_digits() {
        assert_eq!(values(&Values::Float(vec![0.1])).to_string(), "0.1");
        assert_eq!(
            values(&Values::Double(vec![0.1, 5e-324])).to_string(),
            "[0.1,5e-324]"
        );
        assert_eq!(
            values(&Values::Float(vec![f32::NAN])).to_string(),
            "\"NaN\""
        );
        assert_eq!(
            values(&Values::Int64(vec![i64::MIN + 2])).to_string(),
            "-9223372036854775806"
        );
        assert_eq!(
            values(&Values::UInt64(vec![u64::MAX])).to_string(),
            "18446744073709551615"
        );
        assert_eq!(values(&Values::Char(b"hi".to_vec())).to_string(), "\"hi\"");
        assert_eq!(values(&Values::Char(vec![0])).to_string(), "\"\"");
        assert_eq!(dtype(NcType::Short, true).as_deref(), Some(">i2"));
        assert_eq!(dtype(NcType::Byte, true).as_deref(), Some("|i1"));
    }
}
