//! Compact JSON text (`Display` of [`Value`] and [`Number`]): no whitespace, members in order,
//! strings escaped only where RFC 8259 requires (`"`, `\` and control characters; the short
//! forms `\b \f \n \r \t`, `\u00xx` for the others), floats as the shortest decimal that reads
//! back as the same `f64`.

use std::fmt::{self, Write};

use super::{Number, Value, N};

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
            Value::Number(n) => n.fmt(f),
            Value::String(s) => write_string(f, s),
            Value::Array(items) => {
                f.write_char('[')?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    v.fmt(f)?;
                }
                f.write_char(']')
            }
            Value::Object(m) => {
                f.write_char('{')?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write_string(f, k)?;
                    f.write_char(':')?;
                    v.fmt(f)?;
                }
                f.write_char('}')
            }
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            N::Pos(u) => write!(f, "{u}"),
            N::Neg(i) => write!(f, "{i}"),
            N::Float(x) => f.write_str(&float_text(x)),
        }
    }
}

/// A string as a JSON string literal.
pub(crate) fn write_string(out: &mut impl Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    let mut plain = 0;
    for (i, c) in s.char_indices() {
        let short = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            c if c < ' ' => "",
            _ => continue,
        };
        out.write_str(&s[plain..i])?;
        plain = i + 1;
        if short.is_empty() {
            write!(out, "\\u{:04x}", c as u32)?;
        } else {
            out.write_str(short)?;
        }
    }
    out.write_str(&s[plain..])?;
    out.write_char('"')
}

/// A finite float as the shortest decimal that reads back as it: positional between 1e-5 and
/// 1e16 (`0.0001`, `1.5`, `100.0`, with `.0` on whole numbers), else with a signed exponent
/// (`1e+16`, `1.5e-7`, `5e-324`), as serde_json 1.0.154 writes them.
pub(crate) fn float_text(x: f64) -> String {
    let (digits, exp) = shortest_digits(x.abs());
    let n = digits.len() as i32;
    // The value is 0.<digits> × 10^point.
    let point = exp + 1;
    let mut out = String::with_capacity(digits.len() + 8);
    if x.is_sign_negative() {
        out.push('-');
    }
    if n <= point && point <= 16 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (point - n) as usize));
        out.push_str(".0");
    } else if 0 < point && point <= 16 {
        let (whole, frac) = digits.split_at(point as usize);
        out.push_str(whole);
        out.push('.');
        out.push_str(frac);
    } else if -5 < point && point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-point) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let exp = point - 1;
        out.push_str(if exp < 0 { "e-" } else { "e+" });
        out.push_str(&exp.unsigned_abs().to_string());
    }
    out
}

/// The shortest significant digits that read back as `x` (finite, not negative), and the
/// decimal exponent of the first: `1.5` is `("15", 0)`. Of two shortest candidates equally near
/// `x`, the one ending in an even digit (as serde_json's formatter picks).
fn shortest_digits(x: f64) -> (String, i32) {
    let (digits, exp) = sci_parts(&format!("{x:e}"));
    let n = digits.len();
    // A tie: the exact value is the digits' neighbourhood midpoint, one more digit `5` and
    // nothing after it. Rust's shortest form rounds such a tie up.
    let (near, near_exp) = sci_parts(&format!("{x:.n$e}"));
    if near_exp != exp || !near.ends_with('5') {
        return (digits, exp);
    }
    // 767 significant digits hold any f64 exactly.
    let (exact, _) = sci_parts(&format!("{x:.800e}"));
    if exact.as_bytes()[n] != b'5' || exact[n + 1..].bytes().any(|b| b != b'0') {
        return (digits, exp);
    }
    let low = &exact[..n];
    if low == digits || low.bytes().all(|b| b == b'9') {
        return (digits, exp);
    }
    let last = low.as_bytes()[n - 1] - b'0';
    if last.is_multiple_of(2) && format!("{}.{}e{exp}", &low[..1], &low[1..]).parse() == Ok(x) {
        return (low.to_string(), exp);
    }
    (digits, exp)
}

/// The mantissa digits (without the point) and the exponent of `{:e}` output.
fn sci_parts(sci: &str) -> (String, i32) {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let digits = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exp.parse().unwrap_or(0))
}
