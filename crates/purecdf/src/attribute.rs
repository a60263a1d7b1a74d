//! Attributes as georust `netcdf` has them: the [`Attribute`] handle with `name()` and
//! `value()`, and [`AttributeValue`], one value or a vector of one type, with `From`
//! conversions to write and `TryFrom` conversions to read; [`IntoAttributeValues`], what the
//! attribute writers take.

use std::borrow::Cow;

use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{self, Values};

/// An attribute of a file, group or variable, as georust `netcdf`'s `Attribute<'a>`: read from
/// a file it borrows the file's description; returned by the attribute writers it owns the
/// attribute written. It derefs to the [`model::Attribute`] (`name`, typed `values`).
#[derive(Clone, PartialEq)]
pub struct Attribute<'a> {
    att: Cow<'a, model::Attribute>,
}

impl<'a> Attribute<'a> {
    /// The handle of an attribute in a file's description.
    pub(crate) fn borrowed(att: &'a model::Attribute) -> Self {
        Attribute {
            att: Cow::Borrowed(att),
        }
    }

    /// The handle of an attribute just written.
    pub(crate) fn owned(att: model::Attribute) -> Attribute<'static> {
        Attribute {
            att: Cow::Owned(att),
        }
    }

    /// The attribute's name.
    pub fn name(&self) -> &str {
        &self.att.name
    }

    /// The attribute's value as georust `netcdf` gives it.
    ///
    /// # Errors
    /// NC_EBADTYPE for an attribute of a user-defined type (read those from
    /// [`Attribute::values`]).
    pub fn value(&self) -> Result<AttributeValue> {
        self.att.value()
    }

    /// The attribute's typed values (every netCDF type, user-defined ones included).
    pub fn values(&self) -> &Values {
        &self.att.values
    }

    /// The attribute itself, no longer tied to the file.
    pub fn into_owned(self) -> model::Attribute {
        self.att.into_owned()
    }
}

impl std::ops::Deref for Attribute<'_> {
    type Target = model::Attribute;
    fn deref(&self) -> &model::Attribute {
        &self.att
    }
}

impl std::fmt::Debug for Attribute<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.att.fmt(f)
    }
}

impl PartialEq<model::Attribute> for Attribute<'_> {
    fn eq(&self, other: &model::Attribute) -> bool {
        *self.att == *other
    }
}

/// What the attribute writers (`put_attribute`, `add_attribute`) take: anything that converts
/// to an [`AttributeValue`], as in georust `netcdf` (so `T: Into<AttributeValue>` in generic
/// code works), and purecdf's [`Values`], which also holds user-defined types.
pub trait IntoAttributeValues {
    /// The values to write.
    fn into_attribute_values(self) -> Values;
}

impl<T: Into<AttributeValue>> IntoAttributeValues for T {
    fn into_attribute_values(self) -> Values {
        self.into().into()
    }
}

impl IntoAttributeValues for Values {
    fn into_attribute_values(self) -> Values {
        self
    }
}

/// An attribute's value, with georust `netcdf`'s variant names: a single value for an attribute
/// of length one, a vector otherwise; char attributes are [`AttributeValue::Str`] and string
/// attributes [`AttributeValue::Strs`].
#[derive(Debug, Clone, PartialEq)]
pub enum AttributeValue {
    /// One NC_UBYTE.
    Uchar(u8),
    /// NC_UBYTE values.
    Uchars(Vec<u8>),
    /// One NC_BYTE.
    Schar(i8),
    /// NC_BYTE values.
    Schars(Vec<i8>),
    /// One NC_USHORT.
    Ushort(u16),
    /// NC_USHORT values.
    Ushorts(Vec<u16>),
    /// One NC_SHORT.
    Short(i16),
    /// NC_SHORT values.
    Shorts(Vec<i16>),
    /// One NC_UINT.
    Uint(u32),
    /// NC_UINT values.
    Uints(Vec<u32>),
    /// One NC_INT.
    Int(i32),
    /// NC_INT values.
    Ints(Vec<i32>),
    /// One NC_UINT64.
    Ulonglong(u64),
    /// NC_UINT64 values.
    Ulonglongs(Vec<u64>),
    /// One NC_INT64.
    Longlong(i64),
    /// NC_INT64 values.
    Longlongs(Vec<i64>),
    /// One NC_FLOAT.
    Float(f32),
    /// NC_FLOAT values.
    Floats(Vec<f32>),
    /// One NC_DOUBLE.
    Double(f64),
    /// NC_DOUBLE values.
    Doubles(Vec<f64>),
    /// NC_CHAR text (up to its first NUL when read).
    Str(String),
    /// NC_STRING values (a NULL string reads as empty).
    Strs(Vec<String>),
}

/// The attributes netcdf-c keeps out of attribute lists (`nc_inq_natts`), though they can be
/// read by name: `_NCProperties`, `_IsNetcdf4`, `_SuperblockVersion`.
pub(crate) fn is_hidden(name: &str) -> bool {
    matches!(name, "_NCProperties" | "_IsNetcdf4" | "_SuperblockVersion")
}

/// Handles of the attributes in `atts` that attribute lists show (not the hidden ones).
pub(crate) fn listed(atts: &[model::Attribute]) -> impl Iterator<Item = Attribute<'_>> {
    atts.iter()
        .filter(|a| !is_hidden(&a.name))
        .map(Attribute::borrowed)
}

impl model::Attribute {
    /// The attribute's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The attribute's value as georust `netcdf` gives it.
    ///
    /// # Errors
    /// NC_EBADTYPE for an attribute of a user-defined type (read those from
    /// [`Attribute::values`]).
    pub fn value(&self) -> Result<AttributeValue> {
        AttributeValue::try_from(&self.values)
    }
}

macro_rules! one_or_many {
    ($v:expr, $one:ident, $many:ident) => {
        match $v.as_slice() {
            [x] => AttributeValue::$one(x.clone()),
            _ => AttributeValue::$many($v.clone()),
        }
    };
}

impl TryFrom<&Values> for AttributeValue {
    type Error = Error;
    fn try_from(v: &Values) -> Result<Self> {
        Ok(match v {
            Values::UByte(v) => one_or_many!(v, Uchar, Uchars),
            Values::Byte(v) => one_or_many!(v, Schar, Schars),
            Values::UShort(v) => one_or_many!(v, Ushort, Ushorts),
            Values::Short(v) => one_or_many!(v, Short, Shorts),
            Values::UInt(v) => one_or_many!(v, Uint, Uints),
            Values::Int(v) => one_or_many!(v, Int, Ints),
            Values::UInt64(v) => one_or_many!(v, Ulonglong, Ulonglongs),
            Values::Int64(v) => one_or_many!(v, Longlong, Longlongs),
            Values::Float(v) => one_or_many!(v, Float, Floats),
            Values::Double(v) => one_or_many!(v, Double, Doubles),
            Values::Char(c) => {
                let end = c.iter().position(|&b| b == 0).unwrap_or(c.len());
                AttributeValue::Str(String::from_utf8_lossy(&c[..end]).into_owned())
            }
            Values::String(s) => {
                AttributeValue::Strs(s.iter().map(|s| s.clone().unwrap_or_default()).collect())
            }
            Values::User(..) => {
                return fail(
                    ErrorKind::BadType,
                    "an attribute of a user-defined type has no AttributeValue",
                )
            }
        })
    }
}

impl From<AttributeValue> for Values {
    fn from(a: AttributeValue) -> Self {
        use AttributeValue as A;
        match a {
            A::Uchar(x) => Values::UByte(vec![x]),
            A::Uchars(x) => Values::UByte(x),
            A::Schar(x) => Values::Byte(vec![x]),
            A::Schars(x) => Values::Byte(x),
            A::Ushort(x) => Values::UShort(vec![x]),
            A::Ushorts(x) => Values::UShort(x),
            A::Short(x) => Values::Short(vec![x]),
            A::Shorts(x) => Values::Short(x),
            A::Uint(x) => Values::UInt(vec![x]),
            A::Uints(x) => Values::UInt(x),
            A::Int(x) => Values::Int(vec![x]),
            A::Ints(x) => Values::Int(x),
            A::Ulonglong(x) => Values::UInt64(vec![x]),
            A::Ulonglongs(x) => Values::UInt64(x),
            A::Longlong(x) => Values::Int64(vec![x]),
            A::Longlongs(x) => Values::Int64(x),
            A::Float(x) => Values::Float(vec![x]),
            A::Floats(x) => Values::Float(x),
            A::Double(x) => Values::Double(vec![x]),
            A::Doubles(x) => Values::Double(x),
            A::Str(s) => Values::Char(s.into_bytes()),
            A::Strs(s) => Values::String(s.into_iter().map(Some).collect()),
        }
    }
}

/// Each atomic Rust value and vector converts to the [`AttributeValue`] variant of its type.
macro_rules! attribute_value_from {
    ($($t:ty => $one:ident, $many:ident;)*) => {$(
        impl From<$t> for AttributeValue {
            fn from(x: $t) -> Self {
                AttributeValue::$one(x)
            }
        }
        impl From<Vec<$t>> for AttributeValue {
            fn from(x: Vec<$t>) -> Self {
                AttributeValue::$many(x)
            }
        }
    )*};
}
attribute_value_from! {
    u8 => Uchar, Uchars;
    i8 => Schar, Schars;
    u16 => Ushort, Ushorts;
    i16 => Short, Shorts;
    u32 => Uint, Uints;
    i32 => Int, Ints;
    u64 => Ulonglong, Ulonglongs;
    i64 => Longlong, Longlongs;
    f32 => Float, Floats;
    f64 => Double, Doubles;
}

impl From<&str> for AttributeValue {
    /// Char text, every byte kept (NULs included).
    fn from(s: &str) -> Self {
        AttributeValue::Str(s.to_owned())
    }
}
impl From<String> for AttributeValue {
    /// Char text, every byte kept (NULs included).
    fn from(s: String) -> Self {
        AttributeValue::Str(s)
    }
}
impl From<Vec<String>> for AttributeValue {
    /// NC_STRING values.
    fn from(s: Vec<String>) -> Self {
        AttributeValue::Strs(s)
    }
}
impl From<&[String]> for AttributeValue {
    /// NC_STRING values.
    fn from(s: &[String]) -> Self {
        AttributeValue::Strs(s.to_vec())
    }
}
impl From<&[&str]> for AttributeValue {
    /// NC_STRING values.
    fn from(s: &[&str]) -> Self {
        AttributeValue::Strs(s.iter().map(|s| (*s).to_owned()).collect())
    }
}
impl From<Vec<&str>> for AttributeValue {
    /// NC_STRING values.
    fn from(s: Vec<&str>) -> Self {
        AttributeValue::from(s.as_slice())
    }
}

impl From<Vec<String>> for Values {
    /// NC_STRING values.
    fn from(s: Vec<String>) -> Self {
        Values::String(s.into_iter().map(Some).collect())
    }
}
impl From<&[String]> for Values {
    /// NC_STRING values.
    fn from(s: &[String]) -> Self {
        Values::String(s.iter().cloned().map(Some).collect())
    }
}
impl From<&[&str]> for Values {
    /// NC_STRING values.
    fn from(s: &[&str]) -> Self {
        Values::String(s.iter().map(|s| Some((*s).to_owned())).collect())
    }
}
impl From<Vec<&str>> for Values {
    /// NC_STRING values.
    fn from(s: Vec<&str>) -> Self {
        Values::from(s.as_slice())
    }
}

/// Value `i` of numeric values as `T`: `None` when out of range (or not numeric).
pub(crate) fn number_at<T: crate::NcElement>(v: &Values, i: usize) -> Option<T> {
    match v.get_i128(i) {
        Some(x) => T::from_i128(x),
        None => v.get_f64(i).and_then(T::from_f64),
    }
}

/// Reading one number of any numeric attribute, converted as netcdf-c converts (NC_ERANGE when
/// it does not fit; integers to floats as `as` does).
macro_rules! try_number {
    ($($t:ty),*) => {$(
        impl TryFrom<AttributeValue> for $t {
            type Error = Error;
            fn try_from(a: AttributeValue) -> Result<Self> {
                let v = Values::from(a);
                if v.len() != 1 || !v.nc_type().is_numeric() {
                    return fail(ErrorKind::BadType, "not a single number");
                }
                number_at(&v, 0).ok_or_else(|| Error::new(ErrorKind::Range))
            }
        }
    )*};
}
try_number!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl TryFrom<AttributeValue> for String {
    type Error = Error;
    fn try_from(a: AttributeValue) -> Result<Self> {
        match a {
            AttributeValue::Str(s) => Ok(s),
            AttributeValue::Strs(s) if s.len() == 1 => Ok(s.into_iter().next().unwrap_or_default()),
            _ => fail(ErrorKind::BadType, "not text"),
        }
    }
}

impl TryFrom<AttributeValue> for Vec<String> {
    type Error = Error;
    fn try_from(a: AttributeValue) -> Result<Self> {
        match a {
            AttributeValue::Str(s) => Ok(vec![s]),
            AttributeValue::Strs(s) => Ok(s),
            _ => fail(ErrorKind::BadType, "not text"),
        }
    }
}
