//! The text form of HDF5 filter specifications, as `_Filter` attributes (ncgen's input and
//! `ncdump -s`'s output) and `nccopy -F` use it: `[format]id,p1,p2|id2,...`
//! (`ncgen-features.md` §3 and the filter documentation's "Parameter Encoding" and Appendix C;
//! netcdf-c's `ncaux_h5filterspec_parselist`).
//!
//! Each filter is an id and parameters separated by commas, filters separated by `|`. Every
//! number is read the way netcdf-c reads it with C's `sscanf` — leading blanks skipped, a
//! number prefix taken and the rest ignored, out-of-range values wrapped or clamped as the C
//! library does — and a parameter's last characters give its type. Integers are decimal only
//! (`0x10` is 0); floats and doubles also take C99 hexadecimal constants, whose digits can
//! include the tag letter: `0x1f` is the float 31, `0x1d` the double 29, `0x1b` the byte 0.
//!
//! | tag | meaning | words |
//! |---|---|---|
//! | none, digit, `u` | 32-bit integer (`-` allowed) | 1 |
//! | `b` / `s` | 8- / 16-bit integer, masked | 1 |
//! | `f` or a trailing `.` | float, its bits | 1 |
//! | `d` | double, its bits, low word first | 2 |
//! | `l` (`ll`, `ul`, `ull`) | 64-bit integer, low word first; unsigned only with `ul` | 2 |
//!
//! Anything else (an empty parameter, a trailing blank, an unknown tag) makes the whole
//! specification invalid (`NC_EINVAL`).

use crate::error::{Error, ErrorKind, Result};

/// One filter of a specification: HDF5 filter id and parameters (32-bit words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterSpec {
    /// The HDF5 filter id.
    pub id: u32,
    /// The parameters ("client data"), in order.
    pub params: Vec<u32>,
}

impl FilterSpec {
    /// The specification's text as `ncdump -s` prints it in `_Filter`: `id,p1,p2`.
    pub fn to_text(&self) -> String {
        let mut s = self.id.to_string();
        for p in &self.params {
            s.push(',');
            s.push_str(&p.to_string());
        }
        s
    }
}

fn invalid(what: &str, text: &str) -> Error {
    Error::with_detail(ErrorKind::Inval, format!("{what}: {text:?}"))
}

/// Parses a `|`-separated list of filter specifications, with an optional leading `[format]`
/// tag (returned, 0 when absent). An empty text is an empty list.
///
/// # Errors
/// [`ErrorKind::Inval`] when any part is malformed.
pub fn parse_filter_list(text: &str) -> Result<(i32, Vec<FilterSpec>)> {
    let mut spec = text;
    let mut format = 0;
    if let Some(rest) = spec.strip_prefix('[') {
        let end = rest
            .find(']')
            .ok_or_else(|| invalid("filter list format tag", text))?;
        let (v, n) = scan_signed(&rest[..end]);
        if n == 0 {
            return Err(invalid("filter list format tag", text));
        }
        format = v as i32;
        spec = &rest[end + 1..];
    }
    let mut out = Vec::new();
    // One filter per `|`; a single trailing `|` ends the list.
    let mut rest = spec;
    while !rest.is_empty() {
        let (one, tail) = rest.split_once('|').unwrap_or((rest, ""));
        out.push(parse_filter(one)?);
        rest = tail;
    }
    Ok((format, out))
}

/// Parses one filter: `id,p1,p2,...`.
///
/// # Errors
/// [`ErrorKind::Inval`] when the id or a parameter is malformed.
pub fn parse_filter(text: &str) -> Result<FilterSpec> {
    if text.is_empty() {
        return Err(invalid("empty filter specification", text));
    }
    let mut parts = text.split(',');
    let sid = parts.next().unwrap_or("");
    let (id, n) = scan_unsigned(sid);
    if n == 0 {
        return Err(invalid("filter id", text));
    }
    let mut params = Vec::new();
    for p in parts {
        parse_param(p, &mut params).ok_or_else(|| invalid("filter parameter", text))?;
    }
    Ok(FilterSpec {
        id: id as u32,
        params,
    })
}

/// The type a parameter's last characters give it (netcdf-c's `gettype`): the tag character
/// and whether a `u` asks for an unsigned reading.
fn tag_of(p: &[u8]) -> (Option<u8>, bool) {
    let (q0, q1) = match p.len() {
        0 => return (None, false),
        1 | 2 => (p[p.len() - 1], 0),
        n => (p[n - 2], p[n - 1]),
    };
    let mut unsigned = q0 == b'u' || q0 == b'U';
    let c = if q1 == 0 { q0 } else { q1 };
    let t = match c {
        b'f' | b'F' | b'.' => b'f',
        b'd' | b'D' => b'd',
        b'b' | b'B' => b'b',
        b's' | b'S' => b's',
        b'l' | b'L' => b'l',
        b'0'..=b'9' => b'i',
        b'u' | b'U' => {
            unsigned = true;
            b'i'
        }
        _ => return (None, unsigned),
    };
    (Some(t), unsigned)
}

/// Converts one parameter into one or two words, appended to `out`.
fn parse_param(text: &str, out: &mut Vec<u32>) -> Option<()> {
    let p = text.trim_start_matches([' ', '\t']);
    let negative = p.starts_with('-');
    let (tag, unsigned) = tag_of(p.as_bytes());
    let two = |v: u64, out: &mut Vec<u32>| {
        out.push(v as u32);
        out.push((v >> 32) as u32);
    };
    match tag? {
        t @ (b'i' | b'b' | b's') => {
            let v = if negative {
                let (v, n) = scan_signed(p);
                (n > 0).then_some(v as u32)?
            } else {
                let (v, n) = scan_unsigned(p);
                (n > 0).then_some(v as u32)?
            };
            out.push(match t {
                b'b' => v & 0xff,
                b's' => v & 0xffff,
                _ => v,
            });
        }
        b'f' => out.push((scan_float(p)? as f32).to_bits()),
        b'd' => two(scan_float(p)?.to_bits(), out),
        _ => {
            // 'l'
            let v = if unsigned {
                let (v, n) = scan_unsigned(p);
                (n > 0).then_some(v)?
            } else {
                let (v, n) = scan_signed(p);
                (n > 0).then_some(v as u64)?
            };
            two(v, out);
        }
    }
    Some(())
}

/// Leading blanks, an optional sign and decimal digits, as `strtoul` reads them: a negative
/// number wraps, an overflow gives the maximum. Returns the value and the digits read (0: no
/// number).
fn scan_unsigned(s: &str) -> (u64, usize) {
    let (negative, digits) = sign_and_digits(s);
    let mut v: u64 = 0;
    let mut overflow = false;
    for &d in digits {
        match v
            .checked_mul(10)
            .and_then(|x| x.checked_add(u64::from(d - b'0')))
        {
            Some(x) => v = x,
            None => overflow = true,
        }
    }
    let v = if overflow {
        u64::MAX
    } else if negative {
        v.wrapping_neg()
    } else {
        v
    };
    (v, digits.len())
}

/// As [`scan_unsigned`], for `strtol`: clamped to the signed 64-bit range.
fn scan_signed(s: &str) -> (i64, usize) {
    let (negative, digits) = sign_and_digits(s);
    let mut v: i128 = 0;
    for &d in digits {
        v = (v * 10 + i128::from(d - b'0')).min(i128::from(u64::MAX) + 1);
    }
    let v = if negative { -v } else { v };
    (
        v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
        digits.len(),
    )
}

fn sign_and_digits(s: &str) -> (bool, &[u8]) {
    let b = s.trim_start().as_bytes();
    let (negative, b) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    (negative, &b[..n])
}

/// What C's `sscanf(s, "%lf")` reads (glibc): after blanks and a sign, an infinity, a NaN, a
/// hexadecimal number (`0x`, hex digits with an optional point, an optional binary exponent
/// `p`) or a decimal one, each the longest prefix that fits. `None` when it reads nothing — and
/// also, as glibc's scanner does, for a `0x` followed by neither a hex digit nor a point, and an
/// `inf` followed by an `i` that does not go on to spell `infinity`.
fn scan_float(s: &str) -> Option<f64> {
    let t = s.trim_start();
    let b = t.as_bytes();
    let negative = b.first() == Some(&b'-');
    let i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let sign = |v: f64| if negative { -v } else { v };
    let lower = t[i..].to_ascii_lowercase();
    if let Some(after) = lower.strip_prefix("inf") {
        let spelled = !after.starts_with('i') || after.starts_with("inity");
        return spelled.then_some(sign(f64::INFINITY));
    }
    if lower.starts_with("nan") {
        return Some(sign(f64::NAN));
    }
    if lower.starts_with("0x") {
        return scan_hex_float(&b[i + 2..]).map(sign);
    }
    let mut i = i;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let mut n = digits(&mut i);
    if i < b.len() && b[i] == b'.' {
        i += 1;
        n += digits(&mut i);
    }
    if n == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if digits(&mut j) > 0 {
            i = j;
        }
    }
    t[..i].parse().ok()
}

/// The magnitude of a hexadecimal floating constant after its `0x`, rounded to the nearest
/// double (ties to even) as `strtod` rounds it; too large gives infinity, too small zero.
fn scan_hex_float(b: &[u8]) -> Option<f64> {
    let hex = |c: u8| char::from(c).to_digit(16);
    if !b.first().is_some_and(|&c| c == b'.' || hex(c).is_some()) {
        return None;
    }
    // The value is mant * 2^exp; digits past the first 30 significant ones only set `sticky`.
    let (mut mant, mut exp, mut sticky, mut kept) = (0u128, 0i64, false, 0u32);
    let mut i = 0;
    let mut point = false;
    while i < b.len() {
        match (b[i], hex(b[i])) {
            (b'.', _) if !point => point = true,
            (_, Some(d)) => {
                if mant == 0 && d == 0 {
                    // A leading zero: only its place after the point counts.
                } else if kept < 30 {
                    mant = mant << 4 | u128::from(d);
                    kept += 1;
                } else {
                    sticky |= d != 0;
                    exp += 4;
                }
                if point {
                    exp -= 4;
                }
            }
            _ => break,
        }
        i += 1;
    }
    if i + 1 < b.len() && (b[i] == b'p' || b[i] == b'P') {
        let (e, n) = scan_signed(std::str::from_utf8(&b[i + 1..]).ok()?);
        if n > 0 && !b[i + 1].is_ascii_whitespace() {
            exp = exp.saturating_add(e.clamp(-1 << 40, 1 << 40));
        }
    }
    if mant == 0 {
        return Some(0.0);
    }
    // Keep 53 bits, fewer below the normal range; round the dropped ones.
    let len = i64::from(128 - mant.leading_zeros());
    let top = len - 1 + exp;
    if top > 1023 {
        return Some(f64::INFINITY);
    }
    let precision = 53 - (-1022 - top).max(0);
    if precision < 0 {
        return Some(0.0);
    }
    let shift = (len - precision).max(0);
    let mut keep = mant;
    if shift > 0 {
        keep = mant >> shift;
        let rest = mant & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if rest > half || (rest == half && (sticky || keep & 1 == 1)) {
            keep += 1;
        }
    }
    // keep <= 2^53 and keep * 2^scale lies on the double grid (scale >= -1074): two exact
    // power-of-two steps, the second overflowing to infinity only when rounding carried past
    // the largest double.
    let scale = exp + shift;
    let half_scale = scale / 2;
    Some(keep as f64 * pow2(half_scale) * pow2(scale - half_scale))
}

/// 2^e for -1074 <= e <= 1023, exactly.
fn pow2(e: i64) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Option<Vec<u32>> {
        parse_filter_list(text)
            .ok()
            .map(|(_, v)| v.into_iter().flat_map(|f| f.params).collect())
    }

    /// Each row was checked with netcdf-c 4.9.0's `nccopy -F a,307,PARAM` or `ncgen` of
    /// `_Filter = "307,PARAM"`, and `ncdump -s`.
    #[test]
    fn parameters_read_as_netcdf_c_reads_them() {
        let rows: &[(&str, Option<&[u32]>)] = &[
            ("307,9", Some(&[9])),
            ("307, 9", Some(&[9])),
            ("307,9 ", None),
            ("307,0x10", Some(&[0])),
            ("307,-1", Some(&[u32::MAX])),
            ("307,12u", Some(&[12])),
            ("307,1.5", Some(&[1])),
            ("307,1.5f", Some(&[1069547520])),
            ("307,3s", Some(&[3])),
            ("307,300b", Some(&[44])),
            ("307,5ll", Some(&[5, 0])),
            ("307,-5ll", Some(&[u32::MAX - 4, u32::MAX])),
            ("307,5ull", Some(&[5, 0])),
            ("307,2.5d", Some(&[0, 0x4004_0000])),
            ("307,,9", None),
            ("307,9|", Some(&[9])),
            ("|307", None),
            ("307,4294967296", Some(&[0])),
            ("307,99999999999999999999", Some(&[u32::MAX])),
            ("307,+7", Some(&[7])),
            ("307,1e3f", Some(&[1148846080])),
            ("307,12ul", Some(&[12, 0])),
            ("307,9|2||1", None),
            // Hexadecimal: integers stop at the `x`; a float tag (`f`, `.`, `d`) reads a C99
            // hex float, whose digits may include the tag letter itself.
            ("307,0X10", Some(&[0])),
            ("307,0x1fu", Some(&[0])),
            ("307,0x1fb", Some(&[0])),
            ("307,0x1e", None),
            ("307,0x1f", Some(&[1106771968])),
            ("307,0X1F", Some(&[1106771968])),
            ("307, +0x1f", Some(&[1106771968])),
            ("307,-0x1f", Some(&[3254255616])),
            ("307,0xf", Some(&[1097859072])),
            ("307,0xff", Some(&[1132396544])),
            ("307,0xf.", Some(&[1097859072])),
            ("307,0x1.f", Some(&[1073217536])),
            ("307,0x.8f", Some(&[1057947648])),
            ("307,-0x.f", Some(&[3211788288])),
            ("307,0x1.8p1f", Some(&[1077936128])),
            ("307,0x1P-2f", Some(&[1048576000])),
            ("307,0x1p+3.", Some(&[1090519040])),
            ("307,0x1e1f", Some(&[1173420032])),
            ("307,0x1pf", Some(&[1065353216])),
            ("307,0x.pf", Some(&[0])),
            ("307,0x.", Some(&[0])),
            ("307,0xp1f", None),
            ("307,-0xp1f", None),
            ("307,0x1d", Some(&[0, 1077739520])),
            ("307,0xd", Some(&[0, 1076494336])),
            ("307,0xAp2d", Some(&[0, 1078198272])),
            ("307,0X.1D", Some(&[0, 1069350912])),
            ("307,0x1p1024d", Some(&[0, 2146435072])),
            (
                "307,0x1.fffffffffffff7p1023d",
                Some(&[u32::MAX, 2146435071]),
            ),
            ("307,0x1.fffffffffffff8p0d", Some(&[0, 1073741824])),
            ("307,0x1p-1074d", Some(&[1, 0])),
            ("307,0x1p-1075d", Some(&[0, 0])),
            ("307,0x1.8p-1075d", Some(&[1, 0])),
            ("307,0x1p-149f", Some(&[1])),
            ("307,0x1p-150f", Some(&[0])),
            ("307,0x1.000001p-150f", Some(&[1])),
            ("307,0x1p128f", Some(&[2139095040])),
            ("307,0x1.fffffffp127f", Some(&[2139095040])),
            ("307,0x1.ffffff0000000000001p0f", Some(&[1073741824])),
            ("307,0x1.0000008p0f", Some(&[1065353216])),
            ("307,0x1.00000080000000001p0f", Some(&[1065353216])),
            ("307,0x0.0000000000000000000000001p0f", Some(&[226492416])),
            (
                "307,0xffffffffffffffffffffffffffffffffff.0f",
                Some(&[2139095040]),
            ),
            (
                "307,0x1000000000000000000000000000000000001p-144f",
                Some(&[1065353216]),
            ),
            ("307,0x1p99999999999999f", Some(&[2139095040])),
            ("307,0x1p-99999999999f", Some(&[0])),
            // Infinities and NaNs as glibc's scanf spells them.
            ("307,inff", Some(&[2139095040])),
            ("307,-inff", Some(&[4286578688])),
            ("307,infx.", Some(&[2139095040])),
            ("307,infinif", None),
            ("307,infin.", None),
            ("307,nanq.", Some(&[2143289344])),
            ("307,1ef", Some(&[1065353216])),
            ("307,.5f", Some(&[1056964608])),
            ("307,.f", None),
        ];
        for (text, want) in rows {
            assert_eq!(one(text).as_deref(), *want, "{text}");
        }
        let (_, v) = parse_filter_list(" 307x|2").unwrap();
        assert_eq!(v[0].id, 307);
        assert_eq!(v[1].to_text(), "2");
        assert_eq!(parse_filter_list("").unwrap().1, vec![]);
        assert_eq!(parse_filter_list("[7]1,5").unwrap().0, 7);
        assert!(parse_filter_list("x,1").is_err());
        assert!(parse_filter_list("[x]1").is_err());
    }
}
