//! C `printf` number formatting as ncdump uses it: `%g`/`%#g` with a precision (`%.7g` for float
//! data, `%#.7g` + `tztrim` for float attributes, ncdump-conventions.md §3 and §4), integer
//! conversions, and the subset of `printf` needed to honour a variable's `C_format` attribute.
//!
//! Digits come from Rust's correctly rounded `{:.*e}` / `{:.*}` formatting, which, like glibc's
//! `printf`, converts the exact binary value and rounds ties to even; this module only reproduces
//! C's layout rules (exponent style, `%g` style choice, trailing-zero removal, flags and width).

/// Length modifier of a conversion (`hh`, `h`, `l`, `ll`, ...), which decides how many bits of an
/// integer argument the conversion uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Length {
    /// No modifier: `int` / `unsigned int` (32 bits).
    Int,
    /// `hh`: `char` (8 bits).
    Char,
    /// `h`: `short` (16 bits).
    Short,
    /// `l`, `ll`, `q`, `j`, `z`, `t`, `L`: 64 bits.
    Long,
}

/// One parsed `%` conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
    len: Length,
    conv: u8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Lit(Vec<u8>),
    Conv(Spec),
}

/// A parsed C format string (the subset of `printf` ncdump can meet in a `C_format` attribute).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CFormat {
    pieces: Vec<Piece>,
}

/// The one argument a format is applied to, as C would pass it through `...`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arg<'a> {
    /// A signed integer (already sign-extended to 64 bits).
    Int(i64),
    /// An unsigned integer (zero-extended to 64 bits).
    UInt(u64),
    /// A floating-point value (C promotes `float` to `double`).
    Double(f64),
    /// A string (C's `%s`; ncdump formats only numbers, so only the tests pass one).
    #[cfg_attr(not(test), allow(dead_code))]
    Str(&'a [u8]),
}

/// Widths and precisions beyond this are clamped, so hostile format strings can't make us
/// allocate without bound (netcdf-c truncates at 100 bytes anyway).
const MAX_FIELD: usize = 512;

impl CFormat {
    /// Parses a format string. Malformed conversions are kept as literal text, as glibc prints them.
    pub(crate) fn parse(fmt: &[u8]) -> CFormat {
        let mut pieces = Vec::new();
        let mut lit = Vec::new();
        let mut i = 0;
        while i < fmt.len() {
            let c = fmt[i];
            if c != b'%' {
                lit.push(c);
                i += 1;
                continue;
            }
            if fmt.get(i + 1) == Some(&b'%') {
                lit.push(b'%');
                i += 2;
                continue;
            }
            match parse_spec(&fmt[i + 1..]) {
                Some((spec, used)) => {
                    if !lit.is_empty() {
                        pieces.push(Piece::Lit(std::mem::take(&mut lit)));
                    }
                    pieces.push(Piece::Conv(spec));
                    i += 1 + used;
                }
                None => {
                    lit.push(b'%');
                    i += 1;
                }
            }
        }
        if !lit.is_empty() {
            pieces.push(Piece::Lit(lit));
        }
        CFormat { pieces }
    }

    /// True when the format is exactly `%s` or empty (ncdump then prints char data as strings).
    pub(crate) fn is_plain_string(fmt: &[u8]) -> bool {
        fmt.is_empty() || fmt == b"%s"
    }

    /// Formats `arg` with this format, appending to `out`. Every conversion consumes the same
    /// argument (C would read garbage for a second one).
    pub(crate) fn format(&self, arg: Arg<'_>, out: &mut Vec<u8>) {
        for p in &self.pieces {
            match p {
                Piece::Lit(l) => out.extend_from_slice(l),
                Piece::Conv(s) => format_spec(s, arg, out),
            }
        }
    }
}

fn parse_spec(s: &[u8]) -> Option<(Spec, usize)> {
    let mut spec = Spec {
        left: false,
        plus: false,
        space: false,
        alt: false,
        zero: false,
        width: 0,
        prec: None,
        len: Length::Int,
        conv: 0,
    };
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        match c {
            b'-' => spec.left = true,
            b'+' => spec.plus = true,
            b' ' => spec.space = true,
            b'#' => spec.alt = true,
            b'0' => spec.zero = true,
            b'\'' => {}
            _ => break,
        }
        i += 1;
    }
    let (w, n) = parse_num(&s[i..]);
    spec.width = w.min(MAX_FIELD);
    i += n;
    if s.get(i) == Some(&b'.') {
        i += 1;
        let (p, n) = parse_num(&s[i..]);
        spec.prec = Some(p.min(MAX_FIELD));
        i += n;
    }
    loop {
        match s.get(i) {
            Some(b'h') => {
                spec.len = if spec.len == Length::Short {
                    Length::Char
                } else {
                    Length::Short
                };
            }
            Some(b'l' | b'q' | b'j' | b'z' | b't' | b'L') => spec.len = Length::Long,
            _ => break,
        }
        i += 1;
    }
    let conv = *s.get(i)?;
    if !b"diouxXeEfFgGaAcs".contains(&conv) {
        return None;
    }
    spec.conv = conv;
    Some((spec, i + 1))
}

fn parse_num(s: &[u8]) -> (usize, usize) {
    let mut v: usize = 0;
    let mut n = 0;
    while let Some(d) = s.get(n).filter(|c| c.is_ascii_digit()) {
        v = v.saturating_mul(10).saturating_add(usize::from(d - b'0'));
        n += 1;
    }
    (v, n)
}

fn format_spec(s: &Spec, arg: Arg<'_>, out: &mut Vec<u8>) {
    let mut body = Vec::new();
    let mut sign: &[u8] = b"";
    let mut prefix: &[u8] = b"";
    let numeric_zero_pad;
    match s.conv {
        b'd' | b'i' => {
            let v = signed_arg(arg, s.len);
            if v < 0 {
                sign = b"-";
            } else if s.plus {
                sign = b"+";
            } else if s.space {
                sign = b" ";
            }
            int_digits(u128::from(v.unsigned_abs()), 10, false, s.prec, &mut body);
            numeric_zero_pad = s.prec.is_none();
        }
        b'u' | b'o' | b'x' | b'X' => {
            let v = unsigned_arg(arg, s.len);
            let (base, upper) = match s.conv {
                b'o' => (8, false),
                b'x' => (16, false),
                b'X' => (16, true),
                _ => (10, false),
            };
            int_digits(u128::from(v), base, upper, s.prec, &mut body);
            if s.alt && v != 0 {
                prefix = match s.conv {
                    b'x' => b"0x",
                    b'X' => b"0X",
                    _ => b"",
                };
            }
            if s.alt && s.conv == b'o' && body.first() != Some(&b'0') {
                body.insert(0, b'0');
            }
            numeric_zero_pad = s.prec.is_none();
        }
        b'c' => {
            let b = match arg {
                Arg::Str(t) => t.first().copied().unwrap_or(0),
                other => signed_arg(other, Length::Int) as u8,
            };
            body.push(b);
            numeric_zero_pad = false;
        }
        b's' => {
            match arg {
                Arg::Str(t) => {
                    let t = &t[..t.iter().position(|&c| c == 0).unwrap_or(t.len())];
                    let n = s.prec.map_or(t.len(), |p| p.min(t.len()));
                    body.extend_from_slice(&t[..n]);
                }
                // C would crash; print the number instead.
                other => format_spec(
                    &Spec {
                        conv: b'g',
                        ..s.clone()
                    },
                    other,
                    &mut body,
                ),
            }
            numeric_zero_pad = false;
        }
        _ => {
            let v = float_arg(arg);
            if v.is_sign_negative() && !v.is_nan() {
                sign = b"-";
            } else if s.plus {
                sign = b"+";
            } else if s.space {
                sign = b" ";
            }
            let upper = s.conv.is_ascii_uppercase();
            if !v.is_finite() {
                let t: &[u8] = match (v.is_nan(), upper) {
                    (true, false) => b"nan",
                    (true, true) => b"NAN",
                    (false, false) => b"inf",
                    (false, true) => b"INF",
                };
                body.extend_from_slice(t);
                numeric_zero_pad = false;
            } else {
                let a = v.abs();
                let p = s.prec.unwrap_or(6);
                match s.conv.to_ascii_lowercase() {
                    b'f' => fmt_f(a, p, s.alt, &mut body),
                    b'e' | b'a' => fmt_e(a, p, s.alt, upper, &mut body),
                    _ => fmt_g(a, p, s.alt, upper, &mut body),
                }
                numeric_zero_pad = true;
            }
        }
    }
    let len = sign.len() + prefix.len() + body.len();
    let pad = s.width.saturating_sub(len);
    if s.left {
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.extend_from_slice(&body);
        out.resize(out.len() + pad, b' ');
    } else if s.zero && numeric_zero_pad {
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.resize(out.len() + pad, b'0');
        out.extend_from_slice(&body);
    } else {
        out.resize(out.len() + pad, b' ');
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.extend_from_slice(&body);
    }
}

fn signed_arg(arg: Arg<'_>, len: Length) -> i64 {
    let raw = match arg {
        Arg::Int(v) => v,
        Arg::UInt(v) => v as i64,
        Arg::Double(d) => d as i64,
        Arg::Str(_) => 0,
    };
    match len {
        Length::Char => i64::from(raw as i8),
        Length::Short => i64::from(raw as i16),
        Length::Int => i64::from(raw as i32),
        Length::Long => raw,
    }
}

fn unsigned_arg(arg: Arg<'_>, len: Length) -> u64 {
    let raw = match arg {
        Arg::Int(v) => v as u64,
        Arg::UInt(v) => v,
        Arg::Double(d) => d as i64 as u64,
        Arg::Str(_) => 0,
    };
    match len {
        Length::Char => u64::from(raw as u8),
        Length::Short => u64::from(raw as u16),
        Length::Int => u64::from(raw as u32),
        Length::Long => raw,
    }
}

fn float_arg(arg: Arg<'_>) -> f64 {
    match arg {
        Arg::Int(v) => v as f64,
        Arg::UInt(v) => v as f64,
        Arg::Double(d) => d,
        Arg::Str(_) => 0.0,
    }
}

fn int_digits(v: u128, base: u128, upper: bool, prec: Option<usize>, out: &mut Vec<u8>) {
    let digits: &[u8] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut tmp = [0u8; 128];
    let mut n = 0;
    if let Ok(mut x) = u64::try_from(v) {
        let b = base as u64;
        while x > 0 {
            tmp[n] = digits[(x % b) as usize];
            x /= b;
            n += 1;
        }
    } else {
        let mut x = v;
        while x > 0 {
            tmp[n] = digits[(x % base) as usize];
            x /= base;
            n += 1;
        }
    }
    let min = prec.unwrap_or(1);
    for _ in n..min {
        out.push(b'0');
    }
    out.extend(tmp[..n].iter().rev());
}

/// `%.{p}f` of a non-negative finite value.
fn fmt_f(a: f64, p: usize, alt: bool, out: &mut Vec<u8>) {
    use std::io::Write;
    let _ = write!(out, "{a:.p$}");
    if alt && p == 0 {
        out.push(b'.');
    }
}

/// Splits a non-negative finite value into `p` significant decimal digits and the decimal
/// exponent of the first digit, correctly rounded (ties to even on the exact binary value).
fn sig_digits(a: f64, p: usize, buf: &mut Vec<u8>) -> i32 {
    use std::io::Write;
    if a == 0.0 {
        buf.resize(buf.len() + p, b'0');
        return 0;
    }
    if let Some((q, x)) = super::digits::exact(a, p) {
        let mut tmp = [0u8; 20];
        let mut n = q;
        for slot in tmp[..p].iter_mut().rev() {
            *slot = b'0' + (n % 10) as u8;
            n /= 10;
        }
        buf.extend_from_slice(&tmp[..p]);
        return x;
    }
    let mut st = StackBuf {
        b: [0; 64],
        n: 0,
        spill: Vec::new(),
    };
    let _ = write!(st, "{:.*e}", p - 1, a);
    let s: &[u8] = if st.spill.is_empty() {
        &st.b[..st.n]
    } else {
        &st.spill
    };
    let epos = s.iter().position(|&c| c == b'e').unwrap_or(s.len());
    for &c in &s[..epos] {
        if c != b'.' {
            buf.push(c);
        }
    }
    let mut x: i32 = 0;
    let mut neg = false;
    for &c in s.get(epos + 1..).unwrap_or(&[]) {
        match c {
            b'-' => neg = true,
            b'0'..=b'9' => x = x * 10 + i32::from(c - b'0'),
            _ => {}
        }
    }
    if neg {
        -x
    } else {
        x
    }
}

/// A small stack buffer for formatting, spilling to the heap only for very long output.
struct StackBuf {
    b: [u8; 64],
    n: usize,
    spill: Vec<u8>,
}

impl std::io::Write for StackBuf {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.spill.is_empty() && self.n + data.len() <= self.b.len() {
            self.b[self.n..self.n + data.len()].copy_from_slice(data);
            self.n += data.len();
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.b[..self.n]);
            }
            self.spill.extend_from_slice(data);
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn push_exp(x: i32, upper: bool, out: &mut Vec<u8>) {
    out.push(if upper { b'E' } else { b'e' });
    out.push(if x < 0 { b'-' } else { b'+' });
    let ax = x.unsigned_abs();
    if ax < 10 {
        out.push(b'0');
    }
    int_digits(u128::from(ax), 10, false, None, out);
}

/// `%.{p}e` of a non-negative finite value.
fn fmt_e(a: f64, p: usize, alt: bool, upper: bool, out: &mut Vec<u8>) {
    let mut d = Vec::new();
    let x = sig_digits(a, p + 1, &mut d);
    out.push(d[0]);
    if p > 0 || alt {
        out.push(b'.');
    }
    out.extend_from_slice(&d[1..]);
    push_exp(x, upper, out);
}

/// `%.{p}g` (or `%#.{p}g` when `alt`) of a non-negative finite value.
pub(crate) fn fmt_g(a: f64, p: usize, alt: bool, upper: bool, out: &mut Vec<u8>) {
    let p = p.max(1);
    // Digits land in `out` past its end, then are laid out in place.
    let start = out.len();
    let x = sig_digits(a, p, out);
    let d_end = out.len();
    // Move the digits to a scratch tail and rebuild.
    let mut tmp = [0u8; 64];
    if d_end - start <= tmp.len() {
        let n = d_end - start;
        tmp[..n].copy_from_slice(&out[start..d_end]);
        out.truncate(start);
        finish_g(&tmp[..n], x, p, alt, upper, out);
    } else {
        let v = out.split_off(start);
        finish_g(&v, x, p, alt, upper, out);
    }
}

fn finish_g(d: &[u8], x: i32, p: usize, alt: bool, upper: bool, out: &mut Vec<u8>) {
    let start = out.len();
    let pi = p as i32;
    if x < -4 || x >= pi {
        out.push(d[0]);
        out.push(b'.');
        out.extend_from_slice(&d[1..]);
        if !alt {
            trim_fraction(out, start);
        }
        push_exp(x, upper, out);
    } else if x >= 0 {
        let int_len = x as usize + 1;
        out.extend_from_slice(&d[..int_len]);
        out.push(b'.');
        out.extend_from_slice(&d[int_len..]);
        if !alt {
            trim_fraction(out, start);
        }
    } else {
        out.extend_from_slice(b"0.");
        for _ in 0..(-x - 1) {
            out.push(b'0');
        }
        out.extend_from_slice(d);
        if !alt {
            trim_fraction(out, start);
        }
    }
}

/// Removes trailing zeros of the fraction in `out[start..]` and the point if nothing is left.
fn trim_fraction(out: &mut Vec<u8>, start: usize) {
    if !out[start..].contains(&b'.') {
        return;
    }
    while out.last() == Some(&b'0') {
        out.pop();
    }
    if out.last() == Some(&b'.') {
        out.pop();
    }
}

/// ncdump's `tztrim`: drops trailing zeros after the decimal point of the mantissa but keeps the
/// point itself, the exponent and any suffix (`1.000000e+20f` → `1.e+20f`).
pub(crate) fn tztrim(s: &mut Vec<u8>) {
    let mut i = usize::from(s.first() == Some(&b'-'));
    while i < s.len() && (s[i].is_ascii_digit() || s[i] == b'.') {
        i += 1;
    }
    // i is one past the mantissa.
    if i == 0 || s[i - 1] == b'.' {
        return;
    }
    let ep = i;
    let mut cp = i - 1;
    while cp > 0 && s[cp] == b'0' {
        cp -= 1;
    }
    cp += 1;
    if cp == ep {
        return;
    }
    // Only trim when the zeros follow a decimal point.
    if !s[..ep].contains(&b'.') {
        // C's tztrim would also trim here, but %#g output always has a point.
        return;
    }
    s.drain(cp..ep);
}

/// Appends `%.{digits}g` of a float value (promoted to double, as C does).
pub(crate) fn push_g(v: f64, digits: usize, out: &mut Vec<u8>) {
    if v.is_sign_negative() {
        out.push(b'-');
    }
    fmt_g(v.abs(), digits, false, false, out);
}

/// Appends a decimal integer.
pub(crate) fn push_int(v: i64, out: &mut Vec<u8>) {
    if v < 0 {
        out.push(b'-');
    }
    int_digits(u128::from(v.unsigned_abs()), 10, false, None, out);
}

/// Appends a decimal unsigned integer.
pub(crate) fn push_uint(v: u64, out: &mut Vec<u8>) {
    int_digits(u128::from(v), 10, false, None, out);
}

/// The attribute form of a float (`%#.{digits}g` + `tztrim`, no suffix): `1.`, `1.e+20`.
pub(crate) fn push_att_float(v: f64, digits: usize, out: &mut Vec<u8>) {
    let start = out.len();
    if v.is_sign_negative() {
        out.push(b'-');
    }
    fmt_g(v.abs(), digits, true, false, out);
    let mut tail = out.split_off(start);
    tztrim(&mut tail);
    out.extend_from_slice(&tail);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(v: f64, p: usize) -> String {
        let mut o = Vec::new();
        push_g(v, p, &mut o);
        String::from_utf8(o).unwrap()
    }

    fn att(v: f64, p: usize) -> String {
        let mut o = Vec::new();
        push_att_float(v, p, &mut o);
        String::from_utf8(o).unwrap()
    }

    fn cf(fmt: &str, a: Arg<'_>) -> String {
        let mut o = Vec::new();
        CFormat::parse(fmt.as_bytes()).format(a, &mut o);
        String::from_utf8(o).unwrap()
    }

    #[test]
    fn percent_g_matches_glibc() {
        // Expected strings produced by glibc printf("%.7g") / ("%.15g").
        let cases: &[(f64, usize, &str)] = &[
            (0.0, 7, "0"),
            (-0.0, 7, "-0"),
            (1.0, 7, "1"),
            (0.1f32 as f64, 7, "0.1"),
            (0.1, 15, "0.1"),
            (1e20, 7, "1e+20"),
            (123456789.0, 7, "1.234568e+08"),
            (9.969209968386869e36, 7, "9.96921e+36"),
            (9.969209968386869e36, 15, "9.96920996838687e+36"),
            (1e300, 15, "1e+300"),
            (1.234_567_890_123_456_8e17, 15, "1.23456789012346e+17"),
            (0.0001, 7, "0.0001"),
            (0.00001, 7, "1e-05"),
            (1234567.0, 7, "1234567"),
            (12345678.0, 7, "1.234568e+07"),
            (2.5, 1, "2"),
            (3.5, 1, "4"),
            (100.0, 15, "100"),
            (-1.5e-7, 15, "-1.5e-07"),
            (std::f64::consts::PI, 15, "3.14159265358979"),
            (5e-324, 15, "4.94065645841247e-324"),
            (1.7976931348623157e308, 15, "1.79769313486232e+308"),
            (999999.95, 7, "999999.9"),
            (9999999.5, 7, "1e+07"),
            (0.000123456, 3, "0.000123"),
        ];
        for &(v, p, want) in cases {
            assert_eq!(g(v, p), want, "{v:e} %.{p}g");
        }
    }

    #[test]
    fn attribute_floats() {
        assert_eq!(att(1.0, 7), "1.");
        assert_eq!(att(1e20, 7), "1.e+20");
        assert_eq!(att(-0.0, 7), "-0.");
        assert_eq!(att(1.5, 7), "1.5");
        assert_eq!(att(123456789.0, 7), "1.234568e+08");
        assert_eq!(att(0.0, 15), "0.");
        assert_eq!(att(100.0, 15), "100.");
        assert_eq!(att(1e-300, 15), "1.e-300");
        assert_eq!(att(-1.5e-7, 15), "-1.5e-07");
        assert_eq!(att(9.969209968386869e36, 7), "9.96921e+36");
        assert_eq!(att(0.1f32 as f64, 7), "0.1");
    }

    #[test]
    fn tztrim_rules() {
        for (a, b) in [
            ("1.000000", "1."),
            ("1.000000e+20f", "1.e+20f"),
            ("1.500000f", "1.5f"),
            ("100.000", "100."),
            ("-0.000000", "-0."),
            ("12", "12"),
        ] {
            let mut v = a.as_bytes().to_vec();
            tztrim(&mut v);
            assert_eq!(String::from_utf8(v).unwrap(), b, "{a}");
        }
    }

    #[test]
    fn c_format_subset() {
        assert_eq!(cf("%d", Arg::Int(-5)), "-5");
        assert_eq!(cf("%5d|", Arg::Int(42)), "   42|");
        assert_eq!(cf("%-5d|", Arg::Int(42)), "42   |");
        assert_eq!(cf("%05d", Arg::Int(-42)), "-0042");
        assert_eq!(cf("%+d", Arg::Int(3)), "+3");
        assert_eq!(cf("%.3d", Arg::Int(7)), "007");
        assert_eq!(cf("%u", Arg::Int(-1)), "4294967295");
        assert_eq!(cf("%x", Arg::Int(255)), "ff");
        assert_eq!(cf("%#X", Arg::Int(255)), "0XFF");
        assert_eq!(cf("%#o", Arg::Int(8)), "010");
        assert_eq!(cf("%hd", Arg::Int(70000)), "4464");
        assert_eq!(cf("%lld", Arg::Int(-9000000000)), "-9000000000");
        assert_eq!(cf("%.2f", Arg::Double(3.25159)), "3.25");
        assert_eq!(cf("%8.3f", Arg::Double(-3.25159)), "  -3.252");
        assert_eq!(cf("%e", Arg::Double(12345.678)), "1.234568e+04");
        assert_eq!(cf("%.0e", Arg::Double(0.0)), "0e+00");
        assert_eq!(cf("%#.0f", Arg::Double(2.0)), "2.");
        assert_eq!(cf("%G", Arg::Double(1e-10)), "1E-10");
        assert_eq!(cf("%g", Arg::Double(100000.0)), "100000");
        assert_eq!(cf("%g", Arg::Double(1000000.0)), "1e+06");
        assert_eq!(cf("%#g", Arg::Double(1.0)), "1.00000");
        assert_eq!(cf("x=%6.2f%%", Arg::Double(1.0)), "x=  1.00%");
        assert_eq!(cf("%s!", Arg::Str(b"ab")), "ab!");
        assert_eq!(cf("%c", Arg::Int(65)), "A");
        assert_eq!(cf("%y", Arg::Int(1)), "%y");
        assert_eq!(cf("%010.3e", Arg::Double(-1.5)), "-1.500e+00");
        assert_eq!(cf("%f", Arg::Double(f64::NAN)), "nan");
        assert_eq!(cf("%5.1F", Arg::Double(f64::NEG_INFINITY)), " -INF");
    }
}
