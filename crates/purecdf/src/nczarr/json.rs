//! JSON as Zarr writers produce it. Python's `json` module (zarr-python, xarray) writes the
//! non-standard bare tokens `NaN`, `Infinity` and `-Infinity` for non-finite floats; standard
//! JSON parsers refuse them. Before parsing, each bare token outside a string becomes a string
//! holding a NUL then the token (`"\u0000NaN"`), which no writer produces for text, and
//! [`special_float`] turns it back into the number.

use serde_json::Value;

const MARK: char = '\0';

/// Parses JSON text that may hold bare `NaN`, `Infinity` and `-Infinity`.
///
/// # Errors
/// serde_json's error for malformed text.
pub(crate) fn parse(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    match serde_json::from_slice(bytes) {
        Ok(v) => Ok(v),
        Err(first) => {
            let Some(fixed) = quote_specials(bytes) else {
                return Err(first);
            };
            serde_json::from_slice(&fixed)
        }
    }
}

/// The text with bare non-finite tokens quoted, or `None` when it holds none.
fn quote_specials(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + 16);
    let mut changed = false;
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            out.push(c);
            if c == b'\\' && i + 1 < bytes.len() {
                out.push(bytes[i + 1]);
                i += 1;
            } else if c == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_string = true;
            out.push(c);
            i += 1;
            continue;
        }
        let token = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|t| bytes[i..].starts_with(t.as_bytes()));
        if let Some(t) = token {
            out.extend_from_slice(b"\"\\u0000");
            out.extend_from_slice(t.as_bytes());
            out.push(b'"');
            i += t.len();
            changed = true;
            continue;
        }
        out.push(c);
        i += 1;
    }
    changed.then_some(out)
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
        assert!(special_float(v["a"].as_str().unwrap()).unwrap().is_nan());
        assert_eq!(
            special_float(v["b"][1].as_str().unwrap()),
            Some(f64::NEG_INFINITY)
        );
        assert_eq!(
            special_float(v["b"][2].as_str().unwrap()),
            Some(f64::INFINITY)
        );
        assert_eq!(v["c"], "NaN \" NaN");
        assert_eq!(special_float("NaN"), None);
        assert!(parse(b"{\"a\": Nan}").is_err());
        assert!(parse(b"{\"a\": 1").is_err());
    }
}
