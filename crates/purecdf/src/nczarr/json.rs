//! JSON as Zarr writers produce it. Python's `json` module (zarr-python, xarray) writes the
//! non-standard bare tokens `NaN`, `Infinity` and `-Infinity` for non-finite floats; standard
//! JSON parsers refuse them. The parser reads each such token where a value stands as a string
//! holding a NUL then the token (`"\u0000NaN"`), which no writer produces for text, and
//! [`special_float`] turns it back into the number.

use crate::json::{parse_with_specials, ParseError, Value};

const MARK: char = '\0';

/// Parses JSON text that may hold bare `NaN`, `Infinity` and `-Infinity`.
///
/// # Errors
/// The parser's error (what and where) for malformed text.
pub(crate) fn parse(bytes: &[u8]) -> Result<Value, ParseError> {
    parse_with_specials(bytes)
}

/// The number a quoted bare token stands for (`"\u0000NaN"` → NaN).
pub(crate) fn special_float(s: &str) -> Option<f64> {
    match s.strip_prefix(MARK)? {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_non_finite_tokens() {
        let v = parse(br#"{"a": NaN, "b": [1, -Infinity, Infinity], "c": "NaN \" NaN"}"#).unwrap();
        let s = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap();
        assert!(special_float(s("/a")).unwrap().is_nan());
        assert_eq!(special_float(s("/b/1")), Some(f64::NEG_INFINITY));
        assert_eq!(special_float(s("/b/2")), Some(f64::INFINITY));
        assert_eq!(s("/c"), "NaN \" NaN");
        assert_eq!(special_float("NaN"), None);
        assert!(parse(b"{\"a\": Nan}").is_err());
        assert!(parse(b"{\"a\": 1").is_err());
    }
}
