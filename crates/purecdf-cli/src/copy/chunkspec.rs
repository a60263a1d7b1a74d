//! Validation of `nccopy -c` chunk specs against the input, as netcdf-c 4.9.0's
//! `ncdump/chunkspec.c` (`chunkspec_parse`) does it right after opening the input. Chunking itself
//! only matters for netCDF-4 output, but a bad spec fails the copy whatever the output format.
//!
//! Two forms: per dimension, `dim/n,dim2/n,...` (a missing `n` means the dimension's length;
//! `/` or `//` alone turns chunking off; commas may be escaped with `\`), and per variable,
//! `var:n1,n2,...` (one size per dimension, none larger than the dimension; `var:` turns
//! chunking off; `var:compact` and `var:contiguous` pick those layouts).

use purecdf::model::ROOT;
use purecdf::{ErrorKind, Schema};

/// Why a spec was rejected: netcdf-c's error and an explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// An error with a purecdf kind (NC_EINVAL, NC_EBADDIM, NC_ENOTVAR).
    Kind(ErrorKind, String),
    /// NC_EBADCHUNK: a chunk size larger than its dimension.
    BadChunk(String),
}

/// Checks one `-c` argument against the input's metadata.
///
/// # Errors
/// [`SpecError`] naming the part of the spec that netcdf-c would reject.
pub fn check(s: &Schema, spec: &str) -> Result<(), SpecError> {
    if spec.is_empty() {
        return Ok(());
    }
    if spec.contains(':') {
        check_var_spec(s, spec)
    } else {
        check_dim_spec(s, spec)
    }
}

fn inval(spec: &str, what: &str) -> SpecError {
    SpecError::Kind(ErrorKind::Inval, format!("chunk spec {spec:?}: {what}"))
}

fn check_dim_spec(s: &Schema, spec: &str) -> Result<(), SpecError> {
    if spec == "/" || spec == "//" {
        return Ok(());
    }
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut prev = '\0';
    for c in spec.chars() {
        if c == ',' && prev != '\\' {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
        prev = c;
    }
    parts.push(cur);
    for part in &parts {
        if part.is_empty() {
            return Err(inval(spec, "empty item"));
        }
        let Some(slash) = part.rfind('/') else {
            return Err(inval(spec, "no '/' before the chunk size"));
        };
        let (name, size) = (&part[..slash], &part[slash + 1..]);
        if s.find_dim(ROOT, name.strip_prefix('/').unwrap_or(name))
            .is_none()
        {
            return Err(SpecError::Kind(
                ErrorKind::BadDim,
                format!("chunk spec {spec:?}: no dimension {name:?}"),
            ));
        }
        let positive = matches!(strtoll0(size), Some(v) if v >= 1);
        if !size.is_empty() && !positive {
            return Err(inval(spec, "chunk size must be a positive integer"));
        }
    }
    Ok(())
}

fn check_var_spec(s: &Schema, spec: &str) -> Result<(), SpecError> {
    let Some((name, sizes)) = spec.split_once(':') else {
        return Err(inval(spec, "no ':'"));
    };
    let Some(var) = s.find_var(ROOT, name.strip_prefix('/').unwrap_or(name)) else {
        return Err(SpecError::Kind(
            ErrorKind::NotVar,
            format!("chunk spec {spec:?}: no variable {name:?}"),
        ));
    };
    if sizes.is_empty()
        || sizes.eq_ignore_ascii_case("compact")
        || sizes.eq_ignore_ascii_case("contiguous")
    {
        return Ok(());
    }
    let mut chunks = Vec::new();
    let mut rest = sizes;
    while !rest.is_empty() {
        let (item, tail) = rest.split_once(',').unwrap_or((rest, ""));
        let Some(v) = scan_ulong(item) else {
            return Err(inval(spec, &format!("{item:?} is not a chunk size")));
        };
        chunks.push(v);
        rest = tail;
    }
    let shape = s.shape(var);
    if chunks.len() != shape.len() {
        return Err(inval(
            spec,
            &format!("{} sizes for {} dimensions", chunks.len(), shape.len()),
        ));
    }
    if let Some((c, len)) = chunks.iter().zip(&shape).find(|(c, len)| c > len) {
        return Err(SpecError::BadChunk(format!(
            "chunk spec {spec:?}: chunk size {c} exceeds dimension length {len}"
        )));
    }
    Ok(())
}

/// C `strtoll(s, &end, 0)` when it reads at least one digit: blanks, a sign, then hex (`0x`),
/// octal (leading `0`) or decimal digits. `None` when no digits were read or on overflow.
fn strtoll0(s: &str) -> Option<i64> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let hex = (t.starts_with("0x") || t.starts_with("0X"))
        && t.as_bytes().get(2).is_some_and(u8::is_ascii_hexdigit);
    let (radix, digits) = if hex {
        (16, &t[2..])
    } else if t.starts_with('0') {
        (8, t)
    } else {
        (10, t)
    };
    let n = digits.chars().take_while(|c| c.is_digit(radix)).count();
    if n == 0 {
        return None;
    }
    let v = i64::from_str_radix(&digits[..n], radix).ok()?;
    Some(if neg { -v } else { v })
}

/// C `sscanf(s, "%lu", &v) == 1`: blanks, an optional sign, decimal digits (a minus wraps, so it
/// reads as a huge size).
fn scan_ulong(s: &str) -> Option<u64> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let n = t.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 {
        return None;
    }
    let v = t[..n].parse::<u64>().unwrap_or(u64::MAX);
    Some(if neg { v.wrapping_neg() } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;
    use purecdf::NcType;

    fn schema() -> Schema {
        let mut s = Schema::default();
        let x = s.add_dim(ROOT, "x", 3, false).unwrap();
        let t = s.add_dim(ROOT, "time", 2, true).unwrap();
        s.add_var(ROOT, "sh", NcType::Short, &[t, x]).unwrap();
        s
    }

    fn kind(r: Result<(), SpecError>) -> Option<ErrorKind> {
        match r {
            Ok(()) => None,
            Err(SpecError::Kind(k, _)) => Some(k),
            Err(SpecError::BadChunk(_)) => Some(ErrorKind::Range), // marker for the test
        }
    }

    #[test]
    fn dimension_specs() {
        let s = schema();
        for ok in ["", "/", "//", "x/2", "x/2,time/", "x/0x2", "/x/1", "x/07"] {
            assert_eq!(kind(check(&s, ok)), None, "{ok}");
        }
        assert_eq!(kind(check(&s, "nodim/2")), Some(ErrorKind::BadDim));
        for bad in ["x/0", "x/abc", "x/2,,time/1", "x/2,time", "x"] {
            assert_eq!(kind(check(&s, bad)), Some(ErrorKind::Inval), "{bad}");
        }
    }

    #[test]
    fn variable_specs() {
        let s = schema();
        for ok in ["sh:", "sh:1,2", "sh:CONTIGUOUS", "sh:1,3,"] {
            assert_eq!(kind(check(&s, ok)), None, "{ok}");
        }
        assert_eq!(kind(check(&s, "nosuch:1")), Some(ErrorKind::NotVar));
        assert_eq!(kind(check(&s, "sh:1")), Some(ErrorKind::Inval));
        assert_eq!(kind(check(&s, "sh:1,,2")), Some(ErrorKind::Inval));
        assert_eq!(kind(check(&s, "sh:5,5")), Some(ErrorKind::Range));
        assert_eq!(kind(check(&s, "sh:-1,1")), Some(ErrorKind::Range));
    }

    #[test]
    fn c_number_scanning() {
        assert_eq!(strtoll0("0x1f"), Some(31));
        assert_eq!(strtoll0("010"), Some(8));
        assert_eq!(strtoll0("0"), Some(0));
        assert_eq!(strtoll0("9z"), Some(9));
        assert_eq!(strtoll0("z"), None);
        assert_eq!(scan_ulong(" 12abc"), Some(12));
        assert_eq!(scan_ulong("-1"), Some(u64::MAX));
        assert_eq!(scan_ulong(""), None);
    }
}
