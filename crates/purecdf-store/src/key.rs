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

/// The immediate children of `prefix` among a set of keys: each key below the prefix gives
/// its next segment; sorted, each once.
pub fn immediate_children<'a>(
    keys: impl IntoIterator<Item = &'a str>,
    prefix: &str,
) -> Vec<String> {
    let base = if prefix.is_empty() {
        String::new()
    } else {
        format!("{prefix}/")
    };
    let names: std::collections::BTreeSet<&str> = keys
        .into_iter()
        .filter_map(|k| k.strip_prefix(base.as_str()))
        .filter_map(|rest| rest.split('/').next())
        .filter(|c| !c.is_empty())
        .collect();
    names.into_iter().map(str::to_string).collect()
}

/// Decodes `%XX` escapes (as in a URL's path); an invalid escape is kept as written and
/// invalid UTF-8 is replaced.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
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
        let keys = ["a/.zarray", "a/0", "ab", ".zgroup", "b/c/d"];
        assert_eq!(
            immediate_children(keys, ""),
            vec![".zgroup", "a", "ab", "b"]
        );
        assert_eq!(immediate_children(keys, "b"), vec!["c"]);
        assert!(immediate_children(keys, "ab").is_empty());
    }
}
