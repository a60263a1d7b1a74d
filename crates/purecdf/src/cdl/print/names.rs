//! Escaping for CDL output: names (ncdump-conventions.md §2, netcdf-c `ncdump/utils.c`
//! `escaped_name`), char attribute strings (§3a, `pr_att_string`), char data rows (§4a,
//! `pr_tvals`), NC_STRING values (§4, `ncstring_typ_tostring`) and the `-s` `_Codecs` text
//! (`escaped_string`). All work on bytes: names and text may hold any UTF-8 (or, in a hostile
//! file, any bytes), and bytes >= 0x80 are passed through as the C locale does.

use crate::error::{Error, ErrorKind, Result};

/// C's `iscntrl` in the C locale.
fn is_cntrl(b: u8) -> bool {
    b < 0x20 || b == 0x7f
}

/// C's `isprint` in the C locale.
fn is_print(b: u8) -> bool {
    (0x20..0x7f).contains(&b)
}

fn push_octal(b: u8, out: &mut Vec<u8>) {
    out.push(b'\\');
    out.push(b'0' + (b >> 6));
    out.push(b'0' + ((b >> 3) & 7));
    out.push(b'0' + (b & 7));
}

/// The bytes of a name as the file holds them (names read from HDF5 may carry raw bytes that
/// are not UTF-8, see `purecdf_hdf5::format::name`).
pub(crate) fn raw_name(name: &str) -> std::borrow::Cow<'_, [u8]> {
    purecdf_hdf5::format::name::name_to_bytes(name)
}

/// The start of ncdump's message for a name it refuses to print.
pub(crate) const NAME_BEGINS: &str = "name begins with space or control-character: ";

/// Appends a name with CDL escapes: a leading digit gets a `\`, ASCII punctuation special to CDL
/// is backslash-escaped, control characters become `\%xx`.
///
/// # Errors
/// A name starting with a space or control character is refused, as ncdump does (it prints
/// `name begins with space or control-character` and exits).
pub(crate) fn push_escaped_name(name: &[u8], out: &mut Vec<u8>) -> Result<()> {
    if let Some(&first) = name.first() {
        if (0x01..=0x20).contains(&first) || first == 0x7f {
            return Err(Error::with_detail(
                ErrorKind::BadName,
                format!("{NAME_BEGINS}{}", first as char),
            ));
        }
        if first.is_ascii_digit() {
            out.push(b'\\');
        }
    }
    for &c in name {
        if c.is_ascii() && is_cntrl(c) {
            out.extend_from_slice(format!("\\%{c:02x}").as_bytes());
            continue;
        }
        if b" !\"#$&'()*,:;<=>?[]\\^`{|}~".contains(&c) {
            out.push(b'\\');
        }
        out.push(c);
    }
    Ok(())
}

/// The escaped form of a name as a new byte vector (see [`push_escaped_name`]).
///
/// # Errors
/// As [`push_escaped_name`].
pub(crate) fn escaped_name(name: &str) -> Result<Vec<u8>> {
    let mut v = Vec::with_capacity(name.len() + 4);
    push_escaped_name(&raw_name(name), &mut v)?;
    Ok(v)
}

/// Length of `text` once trailing NUL bytes are dropped.
pub(crate) fn trim_nuls(text: &[u8]) -> &[u8] {
    let n = text.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    &text[..n]
}

/// Appends a char attribute value in quotes (`pr_att_string`). With `split_lines` (every format
/// except netCDF-4 enhanced), an embedded newline ends the string and continues it on a new line
/// indented by three tabs.
pub(crate) fn push_att_string(text: &[u8], split_lines: bool, out: &mut Vec<u8>) {
    out.push(b'"');
    for &c in trim_nuls(text) {
        match c {
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' if split_lines => out.extend_from_slice(b"\\n\",\n\t\t\t\""),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x0b => out.extend_from_slice(b"\\v"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\'' => out.extend_from_slice(b"\\'"),
            b'"' => out.extend_from_slice(b"\\\""),
            c if is_cntrl(c) => push_octal(c, out),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

/// One byte of a row of a char variable, printed in quotes (`pr_tvals`): like attributes, but
/// bytes that are not printable ASCII become `\ooo` and a newline always breaks the line
/// (4-space indent).
pub(crate) fn push_char_row_byte(c: u8, out: &mut Vec<u8>) {
    match c {
        0x08 => out.extend_from_slice(b"\\b"),
        0x0c => out.extend_from_slice(b"\\f"),
        b'\n' => out.extend_from_slice(b"\\n\",\n    \""),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        0x0b => out.extend_from_slice(b"\\v"),
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'\'' => out.extend_from_slice(b"\\'"),
        b'"' => out.extend_from_slice(b"\\\""),
        c if is_print(c) => out.push(c),
        c => push_octal(c, out),
    }
}

/// Appends a char array inside a compound value (`chars_tostring`): backslash before the
/// escapable characters themselves (a newline stays a raw newline), `\ooo` for other
/// non-printable bytes.
pub(crate) fn push_compound_chars(text: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    for &c in trim_nuls(text) {
        match c {
            0x08 | 0x0c | b'\n' | b'\r' | b'\t' | 0x0b | b'\\' | b'\'' | b'"' => {
                out.push(b'\\');
                out.push(c);
            }
            c if is_print(c) => out.push(c),
            c => push_octal(c, out),
        }
    }
    out.push(b'"');
}

/// Appends an NC_STRING data value (`ncstring_typ_tostring`): `NIL` for a NULL string; note
/// netcdf-c writes a vertical tab as `\n`.
pub(crate) fn push_string_value(s: Option<&[u8]>, out: &mut Vec<u8>) {
    let Some(s) = s else {
        out.extend_from_slice(b"NIL");
        return;
    };
    out.push(b'"');
    for &c in s {
        if c == 0 {
            break;
        }
        match c {
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' | 0x0b => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\'' => out.extend_from_slice(b"\\'"),
            b'"' => out.extend_from_slice(b"\\\""),
            c if is_cntrl(c) => push_octal(c, out),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

/// `escaped_string`: control characters as `\%xx`, `"` as `\"`, everything else raw.
pub(crate) fn push_escaped_string(s: &[u8], out: &mut Vec<u8>) {
    for &c in s {
        if c == 0 {
            break;
        }
        if is_cntrl(c) {
            out.extend_from_slice(format!("\\%{c:02x}").as_bytes());
        } else if c == b'"' {
            out.extend_from_slice(b"\\\"");
        } else {
            out.push(c);
        }
    }
}

/// XML text of an NcML attribute value (`pr_attx_string`), trailing NULs dropped.
pub(crate) fn push_xml_string(text: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    for &c in trim_nuls(text) {
        match c {
            b'"' => out.extend_from_slice(b"&quot;"),
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            b'&' => out.extend_from_slice(b"&amp;"),
            b'\n' => out.extend_from_slice(b"&#xA;"),
            b'\r' => out.extend_from_slice(b"&#xD;"),
            b'\t' => out.extend_from_slice(b"&#x9;"),
            0 => out.extend_from_slice(b"&#0;"),
            c if is_cntrl(c) => out.extend_from_slice(format!("&#{c};").as_bytes()),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: Vec<u8>) -> String {
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn names() {
        assert_eq!(s(escaped_name("abc").unwrap()), "abc");
        assert_eq!(s(escaped_name("1num").unwrap()), "\\1num");
        assert_eq!(s(escaped_name("a b").unwrap()), "a\\ b");
        assert_eq!(s(escaped_name("x/y.z_-+@%").unwrap()), "x/y.z_-+@%");
        assert_eq!(s(escaped_name("a(b)=c;").unwrap()), "a\\(b\\)\\=c\\;");
        assert_eq!(s(escaped_name("caf\u{e9}").unwrap()), "caf\u{e9}");
        assert_eq!(s(escaped_name("a\u{1}").unwrap()), "a\\%01");
        assert_eq!(s(escaped_name("").unwrap()), "");
        assert!(escaped_name(" a").is_err());
    }

    #[test]
    fn strings() {
        let mut o = Vec::new();
        push_att_string(b"a\nb\t\"\0\0", true, &mut o);
        assert_eq!(s(o), "\"a\\n\",\n\t\t\t\"b\\t\\\"\"");
        let mut o = Vec::new();
        push_att_string(b"a\0b\x7f\xc3\xa9", false, &mut o);
        assert_eq!(s(o), "\"a\\000b\\177\u{e9}\"");
        let mut o = Vec::new();
        o.push(b'"');
        for &c in trim_nuls(b"\xc3\xa9x\n\0") {
            push_char_row_byte(c, &mut o);
        }
        o.push(b'"');
        assert_eq!(s(o), "\"\\303\\251x\\n\",\n    \"\"");
        let mut o = Vec::new();
        push_string_value(Some(b"a\x0bb"), &mut o);
        assert_eq!(s(o), "\"a\\nb\"");
        let mut o = Vec::new();
        push_string_value(None, &mut o);
        assert_eq!(s(o), "NIL");
        let mut o = Vec::new();
        push_xml_string(b"<a&\"b\">\n\x01", &mut o);
        assert_eq!(s(o), "\"&lt;a&amp;&quot;b&quot;&gt;&#xA;&#1;\"");
    }
}
