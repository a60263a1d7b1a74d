//! Name rules: NFC normalisation and the character rules of the file format spec's "Note on names".

use crate::error::{fail, ErrorKind, Result};
use purecdf_hdf5::format::name::is_utf8;
use unicode_normalization::UnicodeNormalization;

/// netcdf-c's NC_MAX_NAME: the longest name, in bytes.
pub const MAX_NAME: usize = 256;

/// Checks a name against the spec's rules and returns its NFC form.
///
/// Rules (file format spec, "Note on names"): non-empty; valid UTF-8 (a `&str` is, but a name
/// read from an HDF5 file may hold raw bytes, see `purecdf_hdf5::format::name`); first
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
pub(crate) fn lookup_name(name: &str) -> Result<String> {
    if name.is_empty() || name.contains('/') {
        return fail(ErrorKind::BadName, format!("{name:?} is empty or has '/'"));
    }
    if !is_utf8(name) {
        return fail(ErrorKind::BadName, format!("{name:?} is not UTF-8"));
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
pub(super) fn check_name(name: &str) -> Result<()> {
    let Some(first) = name.chars().next() else {
        return fail(ErrorKind::BadName, "empty name");
    };
    if name.len() > MAX_NAME {
        return fail(ErrorKind::MaxName, format!("name of {} bytes", name.len()));
    }
    if !is_utf8(name) {
        return fail(ErrorKind::BadName, format!("{name:?} is not UTF-8"));
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

/// How netcdf-c looks up an object by the name it read from a file (ncdump's `nc_inq_att` after
/// `nc_inq_attname`, `nc_inq_dimid` after `nc_inq_dimname`): the name is normalised, without the
/// other name rules, and the NFC
/// form is searched for. `Ok(None)`: the name is its own NFC form; `Ok(Some(nfc))`: the lookup
/// searches for `nfc` instead (finding another attribute, or none: NC_ENOTATT). Errors:
/// NC_EBADNAME for a name that is not UTF-8, NC_EMAXNAME when the NFC form is longer than
/// [`MAX_NAME`].
pub(crate) fn stored_name_key(name: &str) -> Result<Option<String>> {
    if !is_utf8(name) {
        return fail(ErrorKind::BadName, format!("name {name:?} is not UTF-8"));
    }
    if name.is_ascii() && name.len() <= MAX_NAME {
        return Ok(None);
    }
    let nfc: String = name.nfc().collect();
    if nfc.len() > MAX_NAME {
        return fail(ErrorKind::MaxName, format!("name of {} bytes", nfc.len()));
    }
    Ok((nfc != name).then_some(nfc))
}

/// A name as ncdump prints it from one of its fixed records (`ncvar_t`, `ncatt_t`, `ncdim_t`):
/// the name field holds [`MAX_NAME`] bytes and the next member (the type code, or a dimension's
/// length) follows it directly, so a name of that many bytes or more shows its first
/// [`MAX_NAME`] bytes and then the little-endian bytes of `next` up to the first zero. Shorter
/// names are unchanged.
pub(crate) fn record_name(name: &str, next: u64) -> std::borrow::Cow<'_, str> {
    let raw = purecdf_hdf5::format::name::name_to_bytes(name);
    if raw.len() < MAX_NAME {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = raw[..MAX_NAME].to_vec();
    out.extend(next.to_le_bytes().into_iter().take_while(|&b| b != 0));
    std::borrow::Cow::Owned(purecdf_hdf5::format::name::name_from_bytes(&out))
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

    #[test]
    fn stored_attribute_names() {
        use purecdf_hdf5::format::name::name_from_bytes;
        assert_eq!(stored_name_key("#odd name ").unwrap(), None);
        assert_eq!(stored_name_key("caf\u{e9}").unwrap(), None);
        let kind = |n: &str| stored_name_key(n).unwrap_err().kind();
        assert_eq!(kind(&name_from_bytes(b"x\xc0\xafy")), ErrorKind::BadName);
        assert_eq!(kind(&"a".repeat(257)), ErrorKind::MaxName);
        assert_eq!(
            stored_name_key("cafe\u{301}").unwrap().as_deref(),
            Some("caf\u{e9}")
        );
        assert!(normalize_name(&name_from_bytes(b"bad\xff")).is_err());
    }

    #[test]
    fn record_names() {
        assert_eq!(record_name("short", 4), "short");
        let long = "v".repeat(300);
        assert_eq!(record_name(&long, 4), format!("{}\u{4}", "v".repeat(256)));
        assert_eq!(
            record_name(&long, 0x0102),
            format!("{}\u{2}\u{1}", "v".repeat(256))
        );
        assert_eq!(record_name(&long, 256), "v".repeat(256));
    }
}
