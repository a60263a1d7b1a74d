//! JSON values (RFC 8259, "The JavaScript Object Notation (JSON) Data Interchange Format") for
//! the Zarr and NCZarr metadata: a [`Value`] tree whose objects keep their members in the order
//! read or inserted, a strict parser ([`parse`]) and a compact writer (`Display`).
//!
//! Numbers keep their kind: an integer without fraction or exponent that fits `u64` or `i64` is
//! held exactly, everything else as a finite `f64` (correctly rounded). Written floats are the
//! shortest decimal that reads back as the same `f64`, laid out as `1.0`, `0.001`, `1e16` or
//! `1.5e-7`.
//!
//! The types here deliberately implement no comparison with Rust's numbers or strings: such
//! impls (`impl PartialEq<Value> for f64`) leave the type of `assert_eq!(1.0, x.get_value(i)?)`
//! ambiguous in every program that links this crate.

mod parse;
mod write;

#[cfg(test)]
pub(crate) use parse::parse;
pub(crate) use parse::{parse_with_specials, ParseError};

use std::collections::HashMap;

/// A JSON value.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, members in order.
    Object(Map),
}

/// A JSON number: an exact integer or a finite float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Number(N);

/// The kinds of [`Number`].
#[derive(Debug, Clone, Copy, PartialEq)]
enum N {
    /// Zero or above.
    Pos(u64),
    /// Below zero.
    Neg(i64),
    /// A finite float (written with a fraction or an exponent).
    Float(f64),
}

impl Number {
    /// An unsigned integer.
    pub(crate) fn from_u64(u: u64) -> Number {
        Number(N::Pos(u))
    }

    /// A signed integer.
    pub(crate) fn from_i64(i: i64) -> Number {
        match u64::try_from(i) {
            Ok(u) => Number(N::Pos(u)),
            Err(_) => Number(N::Neg(i)),
        }
    }

    /// A float; `None` when it is not finite (JSON has no NaN or infinity).
    pub(crate) fn from_f64(f: f64) -> Option<Number> {
        f.is_finite().then_some(Number(N::Float(f)))
    }

    /// The value as `u64` when it is an integer in its range.
    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::Pos(u) => Some(u),
            _ => None,
        }
    }

    /// The value as `i64` when it is an integer in its range.
    pub(crate) fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::Pos(u) => i64::try_from(u).ok(),
            N::Neg(i) => Some(i),
            N::Float(_) => None,
        }
    }

    /// The value as `f64` (rounded for integers beyond 2^53).
    pub(crate) fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            N::Pos(u) => u as f64,
            N::Neg(i) => i as f64,
            N::Float(f) => f,
        })
    }
}

/// A JSON object: members in insertion order, found by key through an index. Inserting a key
/// already present replaces its value in place (so a parsed object's repeated key keeps its
/// first position and its last value).
#[derive(Clone, Default)]
pub(crate) struct Map {
    /// The members in order.
    entries: Vec<(String, Value)>,
    /// Each key's position in `entries`.
    index: HashMap<String, usize>,
}

/// The members of a [`Map`] in order, as `(key, value)` pairs.
pub(crate) type Iter<'a> = std::iter::Map<
    std::slice::Iter<'a, (String, Value)>,
    fn(&(String, Value)) -> (&String, &Value),
>;

/// A member as a pair of references.
fn pair(e: &(String, Value)) -> (&String, &Value) {
    (&e.0, &e.1)
}

impl Map {
    /// An empty object.
    pub(crate) fn new() -> Map {
        Map::default()
    }

    /// The number of members.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// True without members.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.index.get(key).map(|&i| &self.entries[i].1)
    }

    /// The stored key and value of `key`.
    pub(crate) fn get_key_value(&self, key: &str) -> Option<(&String, &Value)> {
        self.index.get(key).map(|&i| pair(&self.entries[i]))
    }

    /// True when the object has `key`.
    pub(crate) fn contains_key(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// Sets `key` to `value`: in place when present (returning the old value), else at the end.
    pub(crate) fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.index.get(&key) {
            Some(&i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.index.insert(key.clone(), self.entries.len());
                self.entries.push((key, value));
                None
            }
        }
    }

    /// The members in order.
    pub(crate) fn iter(&self) -> Iter<'_> {
        self.entries
            .iter()
            .map(pair as fn(&(String, Value)) -> (&String, &Value))
    }

    /// The keys in order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.iter().map(|e| &e.0)
    }
}

impl PartialEq for Map {
    /// Equal members, in any order (as JSON objects compare).
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl Value {
    /// The string, when this is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, when this is one.
    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, when this is one.
    pub(crate) fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// An integer number as `u64` (see [`Number::as_u64`]).
    pub(crate) fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// An integer number as `i64` (see [`Number::as_i64`]).
    pub(crate) fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The items, when this is an array.
    pub(crate) fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members, when this is an object.
    pub(crate) fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// True for `null`.
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// True for a string.
    pub(crate) fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// True for an object.
    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// The member `key` of an object (`None` for anything else).
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|m| m.get(key))
    }

    /// The value at a JSON pointer (RFC 6901: `/a/0/b`, `~1` for `/`, `~0` for `~`); the empty
    /// pointer is the value itself.
    pub(crate) fn pointer(&self, pointer: &str) -> Option<&Value> {
        if pointer.is_empty() {
            return Some(self);
        }
        let mut at = self;
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            at = match at {
                Value::Object(m) => m.get(&token)?,
                Value::Array(a) => a.get(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }
}

/// An array index in a JSON pointer: decimal digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    let plain = !token.is_empty()
        && token.bytes().all(|b| b.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    plain.then(|| token.parse().ok()).flatten()
}

/// Rust values with a JSON form, for [`json!`]: integers, booleans, strings, arrays of these,
/// and JSON values and objects themselves. Deliberately crate-private and not `From`/`PartialEq`
/// (see the module documentation).
pub(crate) trait ToJson {
    /// The JSON form of the value.
    fn to_json(&self) -> Value;
}

/// `ToJson` for integer types, as JSON integers.
macro_rules! int_to_json {
    ($($unsigned:ty),* ; $($signed:ty),*) => {
        $(impl ToJson for $unsigned {
            fn to_json(&self) -> Value {
                Value::Number(Number::from_u64(*self as u64))
            }
        })*
        $(impl ToJson for $signed {
            fn to_json(&self) -> Value {
                Value::Number(Number::from_i64(*self as i64))
            }
        })*
    };
}
int_to_json!(u8, u16, u32, u64, usize; i8, i16, i32, i64);

impl ToJson for bool {
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

impl ToJson for str {
    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl ToJson for String {
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToJson for Value {
    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl ToJson for Map {
    fn to_json(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

/// A JSON value from Rust: `json!({})`, `json!({"key": expr, ...})` (string literal keys; a
/// nested object is itself a `json!(...)`), or `json!(expr)` for anything [`ToJson`]. The
/// expressions are borrowed, not moved.
macro_rules! json {
    ({}) => {
        $crate::json::Value::Object($crate::json::Map::new())
    };
    ({ $($key:literal : $value:expr),+ $(,)? }) => {{
        let mut members = $crate::json::Map::new();
        $(members.insert(String::from($key), $crate::json::ToJson::to_json(&$value));)+
        $crate::json::Value::Object(members)
    }};
    ($value:expr) => {
        $crate::json::ToJson::to_json(&$value)
    };
}
pub(crate) use json;

#[cfg(test)]
mod tests;
