//! Tests of the JSON parser and writer. The expected texts are serde_json 1.0.154's (checked
//! against it when this module replaced it).

use super::*;

/// Parses and writes back.
fn round(text: &str) -> String {
    parse(text.as_bytes()).unwrap().to_string()
}

/// The error message for `text`.
fn error(text: &str) -> String {
    parse(text.as_bytes()).unwrap_err().to_string()
}

#[test]
fn numbers_as_serde_json_writes_them() {
    for (text, written) in [
        ("0", "0"),
        ("-0", "-0.0"),
        ("1.0", "1.0"),
        ("100.0", "100.0"),
        ("1E2", "100.0"),
        ("0.1", "0.1"),
        ("1e300", "1e+300"),
        ("5e-324", "5e-324"),
        ("1e21", "1e+21"),
        ("1e16", "1e+16"),
        ("1e15", "1000000000000000.0"),
        ("1e-5", "0.00001"),
        ("1e-6", "1e-6"),
        ("1e-7", "1e-7"),
        ("-1.5e-7", "-1.5e-7"),
        ("123.456e10", "1234560000000.0"),
        ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ("1e-400", "0.0"),
        ("18446744073709551615", "18446744073709551615"),
        ("18446744073709551616", "1.8446744073709552e+19"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("-9223372036854775809", "-9.223372036854776e+18"),
        ("0.30000000000000004", "0.30000000000000004"),
        // A tie between two shortest forms goes to the even digit.
        ("147.047393798828125", "147.04739379882812"),
    ] {
        assert_eq!(round(text), written, "{text}");
    }
    let n = parse(b"[18446744073709551615, -9223372036854775808, 2.5, 3]").unwrap();
    let items = n.as_array().unwrap();
    assert_eq!(items[0].as_u64(), Some(u64::MAX));
    assert_eq!(items[0].as_i64(), None);
    assert_eq!(items[1].as_i64(), Some(i64::MIN));
    assert_eq!(items[2].as_u64(), None);
    assert_eq!(items[2].as_number().and_then(Number::as_f64), Some(2.5));
    assert_eq!(items[3].as_number().and_then(Number::as_f64), Some(3.0));
    assert_eq!(Number::from_f64(f64::NAN), None);
}

#[test]
fn strings_as_serde_json_writes_them() {
    assert_eq!(
        round(r#""a\"b\\c\/d\b\f\n\r\t\u0000\u001f\u007f\u2028é\ud83d\ude00""#),
        "\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0000\\u001f\u{7f}\u{2028}é😀\""
    );
    assert_eq!(
        round(r#"{"b": 1, "a": [true, false, null], "b": 2, "c": {}}"#),
        r#"{"b":2,"a":[true,false,null],"c":{}}"#
    );
}

#[test]
fn malformed_text_is_refused() {
    for (text, message) in [
        ("", "EOF while parsing a value at line 1 column 1"),
        ("[1,2,]", "trailing comma at line 1 column 6"),
        ("{\"a\":1,}", "trailing comma at line 1 column 8"),
        ("{\"a\":1,\n \"b\" 2}", "expected `:` at line 2 column 6"),
        ("[1 2]", "expected `,` or `]` at line 1 column 4"),
        ("{1:2}", "key must be a string at line 1 column 2"),
        (
            "\"a\u{1}b\"",
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3",
        ),
        (r#""\x""#, "invalid escape at line 1 column 3"),
        (
            r#""\ud83d""#,
            "lone leading surrogate in hex escape at line 1 column 8",
        ),
        (
            r#""\ude00""#,
            "lone trailing surrogate in hex escape at line 1 column 2",
        ),
        ("01", "invalid number at line 1 column 2"),
        ("1.", "invalid number at line 1 column 3"),
        ("1e400", "number out of range at line 1 column 1"),
        ("null null", "trailing characters at line 1 column 6"),
        ("NaN", "expected value at line 1 column 1"),
        ("[\"a", "EOF while parsing a string at line 1 column 4"),
    ] {
        assert_eq!(error(text), message, "{text:?}");
    }
    assert!(parse(b"\"\xff\"").is_err());
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(parse(deep(127).as_bytes()).is_ok());
    assert_eq!(
        error(&deep(128)),
        "recursion limit exceeded at line 1 column 128"
    );
    assert!(parse(deep(100_000).as_bytes()).is_err());
}

#[test]
fn specials_and_accessors() {
    let v = parse_with_specials(br#"{"a": NaN, "b": [-Infinity, Infinity], "c": {"d": [0, 1]}}"#)
        .unwrap();
    assert_eq!(v.get("a").and_then(Value::as_str), Some("\0NaN"));
    assert_eq!(
        v.pointer("/b/1").and_then(Value::as_str),
        Some("\0Infinity")
    );
    assert_eq!(v.pointer("/c/d/1").and_then(Value::as_u64), Some(1));
    assert_eq!(v.pointer("/c/d/01"), None);
    assert_eq!(v.pointer(""), Some(&v));
    assert!(parse(b"[NaN]").is_err());
    let mut m = Map::new();
    assert_eq!(m.insert("x".into(), json!(1)), None);
    m.insert("y".into(), json!([true]));
    assert_eq!(m.insert("x".into(), json!("s")), Some(json!(1u8)));
    assert_eq!(
        Value::Object(m.clone()).to_string(),
        r#"{"x":"s","y":[true]}"#
    );
    let made = json!({"x": "s", "y": vec![true]});
    assert_eq!(made, Value::Object(m));
    assert_eq!(json!({}).to_string(), "{}");
}
