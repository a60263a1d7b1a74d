//! Scanning helpers for CDL (`ncgen-features.md` §1, §4): lengths of the flex patterns the
//! scanner compares (identifiers, numbers), and escape removal for identifiers, strings and
//! character constants as netcdf-c's `ncgen/escapes.c` and `ncgen.l` do it, quirks included.

pub(super) fn is_utf8_at(s: &[u8], i: usize) -> usize {
    let cont = |k: usize| s.get(i + k).is_some_and(|b| (0x80..=0xBF).contains(b));
    match s.get(i) {
        Some(0xC0..=0xD6) if cont(1) => 2,
        Some(0xE0..=0xEF) if cont(1) && cont(2) => 3,
        Some(0xF0..=0xF7) if cont(1) && cont(2) && cont(3) => 4,
        _ => 0,
    }
}

pub(super) const ID_ESCAPABLE: &[u8] = b" !\"#$%&'()*,:;<=>?[\\]^`{|}~";

/// Length of an identifier starting at `i` (0 if none).
pub(super) fn id_len(s: &[u8], i: usize) -> usize {
    let mut j = i;
    match s.get(j) {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => j += 1,
        Some(b'\\') if s.get(j + 1).is_some_and(u8::is_ascii_digit) => j += 2,
        _ => {
            let n = is_utf8_at(s, j);
            if n == 0 {
                return 0;
            }
            j += n;
        }
    }
    loop {
        match s.get(j) {
            Some(c) if c.is_ascii_alphanumeric() || b"_.@+-".contains(c) => j += 1,
            Some(b'\\') if s.get(j + 1).is_some_and(|c| ID_ESCAPABLE.contains(c)) => j += 2,
            _ => {
                let n = is_utf8_at(s, j);
                if n == 0 {
                    return j - i;
                }
                j += n;
            }
        }
    }
}

/// Removes identifier escapes (`\x` → `x`) and returns the name in NFC, the form the library
/// stores and names are compared in, with the name as spelled when that differs.
pub(crate) fn unescape_ident(raw: &[u8]) -> (String, Option<String>) {
    use unicode_normalization::UnicodeNormalization;
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && i + 1 < raw.len() {
            i += 1;
        }
        out.push(raw[i]);
        i += 1;
    }
    let spelled = String::from_utf8_lossy(&out);
    let nfc: String = spelled.nfc().collect();
    let other = (nfc != spelled).then(|| spelled.into_owned());
    (nfc, other)
}

pub(super) fn digits(s: &[u8], i: usize, pred: impl Fn(u8) -> bool) -> usize {
    s[i.min(s.len())..].iter().take_while(|c| pred(**c)).count()
}

/// Length of `[eE][+-]?[0-9]+` at `i`.
pub(super) fn exp_len(s: &[u8], i: usize) -> usize {
    if !matches!(s.get(i), Some(b'e' | b'E')) {
        return 0;
    }
    let mut j = i + 1;
    if matches!(s.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    let d = digits(s, j, |c| c.is_ascii_digit());
    if d == 0 {
        0
    } else {
        j + d - i
    }
}

/// Length of the floating-point body (without suffix) at `i`: `[+-]?d*.d*exp?` or `[+-]?d*exp`.
pub(super) fn float_body_len(s: &[u8], i: usize) -> usize {
    let mut j = i;
    if matches!(s.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    j += digits(s, j, |c| c.is_ascii_digit());
    if s.get(j) == Some(&b'.') {
        j += 1;
        j += digits(s, j, |c| c.is_ascii_digit());
        j += exp_len(s, j);
        j - i
    } else {
        let e = exp_len(s, j);
        if e == 0 {
            0
        } else {
            j + e - i
        }
    }
}

/// Length of a NUMBER (`[+-]?[0-9]+` plus an integer tag) at `i`.
pub(super) fn number_len(s: &[u8], i: usize) -> usize {
    let mut j = i;
    if matches!(s.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    let d = digits(s, j, |c| c.is_ascii_digit());
    if d == 0 {
        return 0;
    }
    j += d;
    let is = |k: usize, set: &[u8]| s.get(k).is_some_and(|c| set.contains(c));
    // [BbSs]|[Ll]{1,2}
    let size_tag = |k: usize| -> usize {
        if is(k, b"BbSs") {
            1
        } else if is(k, b"Ll") {
            if is(k + 1, b"Ll") {
                2
            } else {
                1
            }
        } else {
            0
        }
    };
    let mut best = 0;
    if is(j, b"Uu") {
        best = 1 + size_tag(j + 1);
    }
    let t = size_tag(j);
    if t > 0 {
        let with_u = if is(j + t, b"Uu") { t + 1 } else { t };
        best = best.max(with_u);
    }
    j + best - i
}

/// `sscanf("%i")` of `0x<hex>` into an unsigned int: hex digits, saturating like `strtol`.
pub(super) fn hex_scanf(hex: &[u8]) -> u32 {
    let mut v: u64 = 0;
    for c in hex.iter().take_while(|c| c.is_ascii_hexdigit()) {
        let d = u64::from((*c as char).to_digit(16).unwrap_or(0));
        v = match v.checked_mul(16).and_then(|x| x.checked_add(d)) {
            Some(x) if x <= i64::MAX as u64 => x,
            _ => i64::MAX as u64,
        };
    }
    v as u32
}

/// ncgen's `unescapehex` as it computes (`ncgen/escapes.c`): its "lower-casing" of digits and
/// its `=` instead of `|=` make `'\x41'` 0xDA; only letters in both places come out right.
pub(super) fn ncgen_hex(c1: u8, c2: u8) -> i32 {
    let (mut c1, mut c2) = (i32::from(c1), i32::from(c2));
    let (a, upper_a, zero, nine) = (
        i32::from(b'a'),
        i32::from(b'A'),
        i32::from(b'0'),
        i32::from(b'9'),
    );
    if c1 < a {
        c1 = (c1 - upper_a) + a;
    }
    let mut b = if c1 <= nine {
        (c1 - zero) << 4
    } else {
        ((c1 - a) + 10) << 4
    };
    if c2 < a {
        c2 |= (c2 - upper_a) + a;
    }
    if c2 <= nine {
        b = c2 - zero;
    } else {
        b |= (c2 - a) + 10;
    }
    b
}

/// A character constant `'x'`, `'\ooo'`, `'\xhh'` or `'\c'` at `i`: its length and byte value.
pub(super) fn char_const(s: &[u8], i: usize) -> Option<(usize, u8)> {
    let g = |k: usize| s.get(i + k).copied();
    match (g(1)?, g(2)?) {
        (b'\\', _) => {}
        (c, b'\'') => return Some((3, c)),
        _ => return None,
    }
    let oct = |c: u8| (b'0'..=b'7').contains(&c);
    if let (Some(a), Some(b), Some(c), Some(b'\'')) = (g(2), g(3), g(4), g(5)) {
        if oct(a) && oct(b) && oct(c) {
            let v = (u32::from(a - b'0') << 6) | (u32::from(b - b'0') << 3) | u32::from(c - b'0');
            return Some((6, v as u8));
        }
        if matches!(a, b'x' | b'X') && b.is_ascii_hexdigit() && c.is_ascii_hexdigit() {
            return Some((6, ncgen_hex(b, c) as u8));
        }
    }
    if let (Some(c), Some(b'\'')) = (g(2), g(3)) {
        if c == b'\n' {
            return None;
        }
        let v = match c {
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 11,
            // netcdf-c 4.9.0 gives '0' (48) for '\0'.
            b'?' => 0o177,
            other => other,
        };
        return Some((4, v));
    }
    None
}

/// Removes escapes from a string body exactly as netcdf-c's `unescape` (`ncgen/escapes.c`):
/// `\ooo` needs three octal digits (else "Bad octal constant"), and `\x` always yields byte
/// 0xFF and swallows the next character (netcdf-c hands `unescapehex` the `x` itself).
pub(crate) fn unescape_string(body: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() && body[i] != 0 {
        let c = body[i];
        if c != b'\\' || i + 1 >= body.len() {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let e = body[i];
        match e {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'?' => out.push(0o177),
            b'x' => {
                out.push(0xFF);
                i += 1;
            }
            b'0'..=b'7' => {
                let oct = |k: usize| body.get(i + k).filter(|c| (b'0'..=b'7').contains(c));
                match (oct(0), oct(1), oct(2)) {
                    (Some(a), Some(b), Some(c)) => {
                        let v = (u32::from(a - b'0') << 6)
                            | (u32::from(b - b'0') << 3)
                            | u32::from(c - b'0');
                        out.push(v as u8);
                    }
                    _ => {
                        return Err(format!(
                            "Bad octal constant: {}\"",
                            String::from_utf8_lossy(body)
                        ))
                    }
                }
                i += 2;
            }
            other => out.push(other),
        }
        i += 1;
    }
    Ok(out)
}
