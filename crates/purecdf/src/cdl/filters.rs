//! The `_Filter` attribute's text form (`ncgen-features.md` §3; netcdf-c
//! `libdispatch/daux.c` `ncaux_h5filterspec_parselist`, `filterspec_cvt`):
//! `[format]id,p1,p2|id2,...` where each parameter is an unsigned 32-bit word by default and a
//! tag changes its type: `b`/`s` (8/16-bit, masked), `f` (float bits), `d`, `ll`, `ull` (two words
//! each), `u` (unsigned), a leading `-` (signed).

/// Parses a filter list; `None` when it is malformed.
pub(crate) fn parse_filter_spec(text: &str) -> Option<Vec<(u32, Vec<u32>)>> {
    let mut spec = text;
    if let Some(rest) = spec.strip_prefix('[') {
        let end = rest.find(']')?;
        rest[..end].trim().parse::<i32>().ok()?;
        spec = &rest[end + 1..];
    }
    let mut out = Vec::new();
    if spec.is_empty() {
        return Some(out);
    }
    for one in spec.split('|') {
        let mut parts = one.split(',');
        let id: u32 = parts.next()?.trim().parse().ok()?;
        let mut params = Vec::new();
        for p in parts {
            convert_param(p.trim(), &mut params)?;
        }
        out.push((id, params));
    }
    Some(out)
}

fn convert_param(p: &str, out: &mut Vec<u32>) -> Option<()> {
    if p.is_empty() {
        return None;
    }
    let lower = p.to_ascii_lowercase();
    let (body, tag) = if let Some(b) = lower.strip_suffix("ull") {
        (b, "ull")
    } else if let Some(b) = lower.strip_suffix("ll") {
        (b, "ll")
    } else if lower.ends_with(|c: char| "bsfdu".contains(c)) && !lower.starts_with("0x") {
        let (b, t) = lower.split_at(lower.len() - 1);
        (b, t)
    } else {
        (lower.as_str(), "")
    };
    let two = |v: u64, out: &mut Vec<u32>| {
        // Little-endian word order, as netcdf-c stores 8-byte parameters on x86.
        out.push(v as u32);
        out.push((v >> 32) as u32);
    };
    match tag {
        "f" => out.push(body.parse::<f32>().ok()?.to_bits()),
        "d" => two(body.parse::<f64>().ok()?.to_bits(), out),
        "ll" => two(body.parse::<i64>().ok()? as u64, out),
        "ull" => two(body.parse::<u64>().ok()?, out),
        "b" => out.push((parse_int(body)? as u32) & 0xff),
        "s" => out.push((parse_int(body)? as u32) & 0xffff),
        _ => out.push(parse_int(body)? as u32),
    }
    Some(())
}

fn parse_int(s: &str) -> Option<i64> {
    if let Some(h) = s.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).ok();
    }
    s.parse::<i64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_lists() {
        assert_eq!(
            parse_filter_spec("307,9|1,5").unwrap(),
            vec![(307, vec![9]), (1, vec![5])]
        );
        assert_eq!(
            parse_filter_spec("32015,1.5f,-1,3s").unwrap(),
            vec![(32015, vec![1.5f32.to_bits(), u32::MAX, 3])]
        );
        assert_eq!(parse_filter_spec("x,1"), None);
    }
}
