//! Object names as Rust strings, without losing bytes.
//!
//! HDF5 stores link, attribute and member names as plain byte strings: the character-set field
//! of a link or attribute message is advisory, and nothing checks that a name is valid UTF-8.
//! Readers such as netcdf-c hand those bytes on unchanged, so a name must survive a round trip
//! through this crate byte for byte even when it is not UTF-8.
//!
//! Representation: [`name_from_bytes`] keeps every valid UTF-8 sequence as its character and
//! turns each byte that is not part of one into the code point `U+10FF00 + byte` (such bytes are
//! always >= 0x80, so these land in U+10FF80..=U+10FFFF, the last 128 code points of
//! Supplementary Private Use Area-B). A valid character that itself falls in that range is
//! stored byte by byte the same way, so the mapping is one-to-one and [`name_to_bytes`] undoes
//! it exactly. A name that is valid UTF-8 without such characters (every ordinary name) is
//! stored unchanged.

use std::borrow::Cow;

/// First code point of the raw-byte range (`U+10FF00 + byte` for bytes 0x80..=0xff).
const RAW_BASE: u32 = 0x10_FF00;

/// True for a character standing for one raw byte.
fn is_raw(c: char) -> bool {
    (RAW_BASE + 0x80..=RAW_BASE + 0xff).contains(&u32::from(c))
}

fn push_raw(b: u8, out: &mut String) {
    // b >= 0x80 here, so the code point is in U+10FF80..=U+10FFFF, all valid `char`s.
    out.extend(char::from_u32(RAW_BASE + u32::from(b)));
}

/// The name stored as the bytes `raw` (see the module documentation).
pub fn name_from_bytes(raw: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(raw) {
        if !s.chars().any(is_raw) {
            return s.to_string();
        }
    }
    let mut out = String::with_capacity(raw.len() + 8);
    for chunk in raw.utf8_chunks() {
        for c in chunk.valid().chars() {
            if is_raw(c) {
                let mut buf = [0u8; 4];
                for &b in c.encode_utf8(&mut buf).as_bytes() {
                    push_raw(b, &mut out);
                }
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            push_raw(b, &mut out);
        }
    }
    out
}

/// The bytes of a name made by [`name_from_bytes`] (for any other string: its UTF-8 bytes, with
/// characters in the raw-byte range taken as raw bytes).
pub fn name_to_bytes(name: &str) -> Cow<'_, [u8]> {
    if !has_raw_bytes(name) {
        return Cow::Borrowed(name.as_bytes());
    }
    let mut out = Vec::with_capacity(name.len());
    for c in name.chars() {
        if is_raw(c) {
            out.push((u32::from(c) - RAW_BASE) as u8);
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    Cow::Owned(out)
}

/// True when `name` holds bytes that are not (or, once decoded, may not be) valid UTF-8, i.e. any
/// character of the raw-byte range.
pub fn has_raw_bytes(name: &str) -> bool {
    // U+10FF80..=U+10FFFF encode as F4 8F BE 80 ..= F4 8F BF BF.
    let b = name.as_bytes();
    b.windows(3)
        .any(|w| w[0] == 0xf4 && w[1] == 0x8f && (w[2] == 0xbe || w[2] == 0xbf))
}

/// True when the bytes of `name` (see [`name_to_bytes`]) are valid UTF-8: always for names
/// without raw bytes, and for names whose raw-range characters were themselves valid UTF-8.
pub fn is_utf8(name: &str) -> bool {
    !has_raw_bytes(name) || std::str::from_utf8(&name_to_bytes(name)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let cases: [&[u8]; 8] = [
            b"plain",
            b"",
            "caf\u{e9}".as_bytes(),
            b"bad\xffname",
            b"caf\xc3",
            b"M\xfcnchen",
            b"x\xc0\xafy",
            "in range \u{10ff80}\u{10ffff}".as_bytes(),
        ];
        for raw in cases {
            let s = name_from_bytes(raw);
            assert_eq!(&*name_to_bytes(&s), raw, "{raw:?}");
        }
        assert_eq!(name_from_bytes(b"plain"), "plain");
        assert!(!has_raw_bytes("caf\u{e9}"));
        assert!(has_raw_bytes(&name_from_bytes(b"caf\xc3")));
        assert!(!is_utf8(&name_from_bytes(b"caf\xc3")));
        assert!(is_utf8(&name_from_bytes("\u{10ffff}".as_bytes())));
        // A valid character in the raw range is kept as its four bytes.
        let s = name_from_bytes("\u{10ff80}".as_bytes());
        assert_eq!(s.chars().count(), 4);
    }
}
