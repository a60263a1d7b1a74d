//! Name rules: NFC normalisation and the character rules of the file format spec's "Note on names".

use crate::error::{fail, ErrorKind, Result};
use unicode_normalization::UnicodeNormalization;

/// netcdf-c's NC_MAX_NAME: the longest name, in bytes.
pub const MAX_NAME: usize = 256;

/// Checks a name against the spec's rules and returns its NFC form.
///
/// Rules (file format spec, "Note on names"): non-empty; valid UTF-8 (guaranteed by `&str`); first
/// character alphanumeric, `_` or multi-byte UTF-8; no `/`; no ASCII control characters or DEL;
/// no trailing space; at most [`MAX_NAME`] bytes once normalised.
pub fn normalize_name(name: &str) -> Result<String> {
    let nfc: String = name.nfc().collect();
    check_name(&nfc)?;
    Ok(nfc)
}

/// The name netcdf-c's netCDF-4 lookups (`nc_inq_ncid` and friends, `nc4_check_name`) search
/// for: `name` checked as given, in netcdf-c's order (`NC_check_name`: empty or `/` first, then
/// the first character, then each character against the running length), then its NFC form,
/// which must still fit in [`MAX_NAME`] bytes. Errors are NC_EBADNAME or NC_EMAXNAME.
pub fn lookup_name(name: &str) -> Result<String> {
    if name.is_empty() || name.contains('/') {
        return fail(ErrorKind::BadName, format!("{name:?} is empty or has '/'"));
    }
    let mut chars = name.char_indices();
    if let Some((_, c)) = chars.next() {
        if c.is_ascii() && !(c.is_ascii_alphanumeric() || c == '_') {
            return fail(ErrorKind::BadName, format!("{name:?} starts with {c:?}"));
        }
    }
    for (i, c) in chars {
        if c.is_ascii_control() {
            return fail(
                ErrorKind::BadName,
                format!("{name:?} has a control character"),
            );
        }
        if i + c.len_utf8() > MAX_NAME {
            return fail(ErrorKind::MaxName, format!("name of {} bytes", name.len()));
        }
    }
    if name.ends_with(' ') {
        return fail(ErrorKind::BadName, format!("{name:?} ends with a space"));
    }
    let nfc: String = name.nfc().collect();
    if nfc.len() > MAX_NAME {
        return fail(ErrorKind::MaxName, format!("name of {} bytes", nfc.len()));
    }
    Ok(nfc)
}

/// Checks an already-normalised name; errors are NC_EBADNAME or NC_EMAXNAME.
pub fn check_name(name: &str) -> Result<()> {
    let Some(first) = name.chars().next() else {
        return fail(ErrorKind::BadName, "empty name");
    };
    if name.len() > MAX_NAME {
        return fail(ErrorKind::MaxName, format!("name of {} bytes", name.len()));
    }
    if !(first.is_ascii_alphanumeric() || first == '_' || !first.is_ascii()) {
        return fail(
            ErrorKind::BadName,
            format!("{name:?} starts with {first:?}"),
        );
    }
    if name.chars().any(|c| c == '/' || c.is_ascii_control()) {
        return fail(
            ErrorKind::BadName,
            format!("{name:?} has '/' or a control character"),
        );
    }
    if name.ends_with(' ') {
        return fail(ErrorKind::BadName, format!("{name:?} ends with a space"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfc_and_rules() {
        // "e" + combining acute becomes the single precomposed character.
        assert_eq!(normalize_name("caf\u{65}\u{301}").unwrap(), "caf\u{e9}");
        assert_eq!(normalize_name("_x.y@z+1-2").unwrap(), "_x.y@z+1-2");
        assert_eq!(normalize_name("1abc").unwrap(), "1abc");
        assert_eq!(normalize_name("a b").unwrap(), "a b");
        for bad in ["", " a", "-a", "a/b", "a\n", "a ", "\u{7f}x"] {
            assert_eq!(
                normalize_name(bad).unwrap_err().kind(),
                ErrorKind::BadName,
                "{bad:?}"
            );
        }
        assert_eq!(
            normalize_name(&"x".repeat(257)).unwrap_err().kind(),
            ErrorKind::MaxName
        );
        assert!(normalize_name(&"x".repeat(256)).is_ok());
    }

    #[test]
    fn lookup_names_in_netcdf_c_order() {
        assert_eq!(lookup_name("caf\u{65}\u{301}").unwrap(), "caf\u{e9}");
        for (bad, kind) in [
            ("", ErrorKind::BadName),
            ("a/b", ErrorKind::BadName),
            ("\\1g-", ErrorKind::BadName),
            (" x", ErrorKind::BadName),
            ("x ", ErrorKind::BadName),
            ("a\u{7f}", ErrorKind::BadName),
        ] {
            assert_eq!(lookup_name(bad).unwrap_err().kind(), kind, "{bad:?}");
        }
        // netcdf-c reaches the length limit before a control character further on.
        let long = format!("{}\n", "x".repeat(300));
        assert_eq!(lookup_name(&long).unwrap_err().kind(), ErrorKind::MaxName);
        let early = format!("x\n{}", "x".repeat(300));
        assert_eq!(lookup_name(&early).unwrap_err().kind(), ErrorKind::BadName);
        assert!(lookup_name(&"x".repeat(256)).is_ok());
    }
}
