//! Store keys: `/`-separated relative paths.

use crate::{Result, StoreError};

/// Checks that `key` is a plain relative path: no leading or trailing `/`, no empty, `.` or
/// `..` segment, no NUL or backslash. The empty key (the root) is allowed.
///
/// # Errors
/// [`StoreError::BadKey`] otherwise.
pub fn check_key(key: &str) -> Result<()> {
    if key.is_empty() {
        return Ok(());
    }
    let bad = key
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == ".." || s.contains(['\0', '\\']));
    if bad {
        return Err(StoreError::BadKey(key.to_string()));
    }
    Ok(())
}

/// `prefix/name`, or `name` when the prefix is the root.
pub fn join_key(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        for good in ["", "a", ".zgroup", "g/v/.zarray", "v/0.0", "v/0/1"] {
            assert!(check_key(good).is_ok(), "{good}");
        }
        for bad in ["/a", "a/", "a//b", "../x", "a/./b", "a\\b", "a\0"] {
            assert!(check_key(bad).is_err(), "{bad}");
        }
        assert_eq!(join_key("", "x"), "x");
        assert_eq!(join_key("g", "x"), "g/x");
    }
}
