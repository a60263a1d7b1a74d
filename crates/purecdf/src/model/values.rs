//! Typed value vectors: what an attribute holds and what a variable's data reads into when the
//! caller wants the file's own type (ncdump, nccopy, CDL).

use crate::model::{NcType, TypeId};

/// One value of a user-defined type, structured (compound, vlen, opaque, enum), or an atomic value
/// nested inside one.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// NC_BYTE value.
    Byte(i8),
    /// NC_CHAR value.
    Char(u8),
    /// NC_SHORT value.
    Short(i16),
    /// NC_INT value.
    Int(i32),
    /// NC_FLOAT value.
    Float(f32),
    /// NC_DOUBLE value.
    Double(f64),
    /// NC_UBYTE value.
    UByte(u8),
    /// NC_USHORT value.
    UShort(u16),
    /// NC_UINT value.
    UInt(u32),
    /// NC_INT64 value.
    Int64(i64),
    /// NC_UINT64 value.
    UInt64(u64),
    /// NC_STRING value; `None` is the NULL string (`NIL` in CDL).
    String(Option<String>),
    /// A compound value: one entry per field; an array field is a `Value::Array`.
    Compound(Vec<Value>),
    /// The elements of an array-valued compound field, row-major.
    Array(Vec<Value>),
    /// A vlen value: its elements.
    Vlen(Vec<Value>),
    /// An opaque value: its bytes.
    Opaque(Vec<u8>),
    /// An enum value: the integer stored (interpret with the enum's base type).
    Enum(i128),
}

/// A vector of values all of one netCDF type: attribute contents, or variable data in the file's type.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// NC_BYTE values.
    Byte(Vec<i8>),
    /// NC_CHAR values (text, not NUL-terminated).
    Char(Vec<u8>),
    /// NC_SHORT values.
    Short(Vec<i16>),
    /// NC_INT values.
    Int(Vec<i32>),
    /// NC_FLOAT values.
    Float(Vec<f32>),
    /// NC_DOUBLE values.
    Double(Vec<f64>),
    /// NC_UBYTE values.
    UByte(Vec<u8>),
    /// NC_USHORT values.
    UShort(Vec<u16>),
    /// NC_UINT values.
    UInt(Vec<u32>),
    /// NC_INT64 values.
    Int64(Vec<i64>),
    /// NC_UINT64 values.
    UInt64(Vec<u64>),
    /// NC_STRING values; `None` is the NULL string.
    String(Vec<Option<String>>),
    /// Values of a user-defined type.
    User(TypeId, Vec<Value>),
}

/// Applies `$body` to the vector inside any atomic variant of `Values`, binding it to `$v`;
/// `$user` handles the user-type variant.
macro_rules! for_each_values {
    ($values:expr, $v:ident => $body:expr, $t:ident, $u:ident => $user:expr) => {
        match $values {
            $crate::Values::Byte($v) => $body,
            $crate::Values::Char($v) => $body,
            $crate::Values::Short($v) => $body,
            $crate::Values::Int($v) => $body,
            $crate::Values::Float($v) => $body,
            $crate::Values::Double($v) => $body,
            $crate::Values::UByte($v) => $body,
            $crate::Values::UShort($v) => $body,
            $crate::Values::UInt($v) => $body,
            $crate::Values::Int64($v) => $body,
            $crate::Values::UInt64($v) => $body,
            $crate::Values::String($v) => $body,
            $crate::Values::User($t, $u) => $user,
        }
    };
}

impl Values {
    /// The values of a fixed-size atomic type as native-endian bytes (char values as they are).
    ///
    /// # Errors
    /// NC_EBADTYPE for strings and user-defined types.
    pub fn to_ne_bytes(&self) -> crate::Result<Vec<u8>> {
        crate::convert::values_to_ne_bytes(self)
    }

    /// Values of the fixed-size atomic type `typ` from native-endian bytes (a trailing partial
    /// element is ignored).
    ///
    /// # Errors
    /// NC_EBADTYPE for strings and user-defined types.
    pub fn from_ne_bytes(typ: NcType, raw: &[u8]) -> crate::Result<Values> {
        crate::convert::values_from_ne_bytes(typ, raw)
    }

    /// The netCDF type of these values.
    pub fn nc_type(&self) -> NcType {
        match self {
            Values::Byte(_) => NcType::Byte,
            Values::Char(_) => NcType::Char,
            Values::Short(_) => NcType::Short,
            Values::Int(_) => NcType::Int,
            Values::Float(_) => NcType::Float,
            Values::Double(_) => NcType::Double,
            Values::UByte(_) => NcType::UByte,
            Values::UShort(_) => NcType::UShort,
            Values::UInt(_) => NcType::UInt,
            Values::Int64(_) => NcType::Int64,
            Values::UInt64(_) => NcType::UInt64,
            Values::String(_) => NcType::String,
            Values::User(t, _) => NcType::User(*t),
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        for_each_values!(self, v => v.len(), _t, u => u.len())
    }

    /// True when there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value at index `i`, if there is one.
    pub fn value(&self, i: usize) -> Option<Value> {
        Some(match self {
            Values::Byte(x) => Value::Byte(*x.get(i)?),
            Values::Char(x) => Value::Char(*x.get(i)?),
            Values::Short(x) => Value::Short(*x.get(i)?),
            Values::Int(x) => Value::Int(*x.get(i)?),
            Values::Float(x) => Value::Float(*x.get(i)?),
            Values::Double(x) => Value::Double(*x.get(i)?),
            Values::UByte(x) => Value::UByte(*x.get(i)?),
            Values::UShort(x) => Value::UShort(*x.get(i)?),
            Values::UInt(x) => Value::UInt(*x.get(i)?),
            Values::Int64(x) => Value::Int64(*x.get(i)?),
            Values::UInt64(x) => Value::UInt64(*x.get(i)?),
            Values::String(x) => Value::String(x.get(i)?.clone()),
            Values::User(_, x) => x.get(i)?.clone(),
        })
    }

    /// An empty vector of an atomic type, or of a user type.
    pub fn empty(typ: NcType) -> Values {
        Self::with_capacity(typ, 0)
    }

    /// An empty vector with room for `n` values.
    pub fn with_capacity(typ: NcType, n: usize) -> Values {
        match typ {
            NcType::Byte => Values::Byte(Vec::with_capacity(n)),
            NcType::Char => Values::Char(Vec::with_capacity(n)),
            NcType::Short => Values::Short(Vec::with_capacity(n)),
            NcType::Int => Values::Int(Vec::with_capacity(n)),
            NcType::Float => Values::Float(Vec::with_capacity(n)),
            NcType::Double => Values::Double(Vec::with_capacity(n)),
            NcType::UByte => Values::UByte(Vec::with_capacity(n)),
            NcType::UShort => Values::UShort(Vec::with_capacity(n)),
            NcType::UInt => Values::UInt(Vec::with_capacity(n)),
            NcType::Int64 => Values::Int64(Vec::with_capacity(n)),
            NcType::UInt64 => Values::UInt64(Vec::with_capacity(n)),
            NcType::String => Values::String(Vec::with_capacity(n)),
            NcType::User(t) => Values::User(t, Vec::with_capacity(n)),
        }
    }

    /// Text of a char attribute (lossy UTF-8), or `None` for other types.
    pub fn as_text(&self) -> Option<String> {
        match self {
            Values::Char(c) => Some(String::from_utf8_lossy(c).into_owned()),
            _ => None,
        }
    }

    /// Value `i` widened to f64, for numeric types (enum/char/string/user give `None`).
    pub fn get_f64(&self, i: usize) -> Option<f64> {
        Some(match self {
            Values::Byte(v) => f64::from(*v.get(i)?),
            Values::Short(v) => f64::from(*v.get(i)?),
            Values::Int(v) => f64::from(*v.get(i)?),
            Values::Float(v) => f64::from(*v.get(i)?),
            Values::Double(v) => *v.get(i)?,
            Values::UByte(v) => f64::from(*v.get(i)?),
            Values::UShort(v) => f64::from(*v.get(i)?),
            Values::UInt(v) => f64::from(*v.get(i)?),
            Values::Int64(v) => *v.get(i)? as f64,
            Values::UInt64(v) => *v.get(i)? as f64,
            _ => return None,
        })
    }

    /// Value `i` as i128 for integer types (including char as its byte value).
    pub fn get_i128(&self, i: usize) -> Option<i128> {
        Some(match self {
            Values::Byte(v) => i128::from(*v.get(i)?),
            Values::Char(v) => i128::from(*v.get(i)?),
            Values::Short(v) => i128::from(*v.get(i)?),
            Values::Int(v) => i128::from(*v.get(i)?),
            Values::UByte(v) => i128::from(*v.get(i)?),
            Values::UShort(v) => i128::from(*v.get(i)?),
            Values::UInt(v) => i128::from(*v.get(i)?),
            Values::Int64(v) => i128::from(*v.get(i)?),
            Values::UInt64(v) => i128::from(*v.get(i)?),
            _ => return None,
        })
    }
}
