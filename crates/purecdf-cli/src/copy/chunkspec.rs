//! `nccopy -c` chunk specs, parsed against the input as netcdf-c 4.9.0's `ncdump/chunkspec.c`
//! (`chunkspec_parse`) does right after opening it, and the lookups `copy_chunking` makes later.
//! Chunking only matters for netCDF-4 output, but a bad spec fails the copy whatever the output.
//!
//! Two forms: per dimension, `dim/n,dim2/n,...` (a missing `n` means the dimension's length;
//! `/` or `//` alone turns chunking off; commas may be escaped with `\`; the last such spec
//! replaces earlier ones), and per variable, `var:n1,n2,...` (one size per dimension, none larger
//! than the dimension; `var:` turns chunking off; `var:compact` and `var:contiguous` pick those
//! layouts). Names are looked up as netcdf-c's `nc_inq_dimid2` and `nc_inq_varid2` do: a
//! dimension path must be absolute (`/g/d`), a variable path may be relative to the root; in
//! classic files a variable's group prefix is ignored and a dimension path names no group.

use purecdf::model::{GroupId, ROOT};
use purecdf::{DimId, ErrorKind, Schema, VarId};

/// Why a spec was rejected: netcdf-c's error and an explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// An error with a purecdf kind (NC_EINVAL, NC_EBADDIM, NC_ENOTVAR, NC_ENOGRP, ...).
    Kind(ErrorKind, String),
    /// NC_EBADCHUNK: a chunk size larger than its dimension.
    BadChunk(String),
}

/// The layout a per-variable spec asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarLayout {
    /// `var:n1,n2,...` (and `var:`, whose sizes are all zero).
    Chunked(Vec<u64>),
    /// `var:contiguous`.
    Contiguous,
    /// `var:compact`.
    Compact,
}

/// One `var:...` spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarSpec {
    /// The input variable.
    pub var: VarId,
    /// `var:` (chunking off).
    pub omit: bool,
    /// The layout asked for.
    pub layout: VarLayout,
}

/// Every `-c` spec of the command line, resolved against the input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkSpecs {
    /// Per-dimension chunk sizes of the last `dim/n,...` spec, in the spec's order.
    pub dims: Vec<(DimId, u64)>,
    /// The last dimension spec was `/` or `//`.
    pub omit: bool,
    /// Per-variable specs in command-line order (the first one for a variable counts).
    pub vars: Vec<VarSpec>,
}

impl ChunkSpecs {
    /// Parses one `-c` argument and adds it.
    ///
    /// # Errors
    /// [`SpecError`] naming the part of the spec that netcdf-c would reject.
    pub fn add(&mut self, s: &Schema, classic: bool, spec: &str) -> Result<(), SpecError> {
        if spec.is_empty() {
            return Ok(());
        }
        if spec.contains(':') {
            let v = parse_var_spec(s, classic, spec)?;
            self.vars.push(v);
            Ok(())
        } else {
            self.dims.clear();
            self.omit = false;
            if spec == "/" || spec == "//" {
                self.omit = true;
                return Ok(());
            }
            self.dims = parse_dim_spec(s, classic, spec)?;
            Ok(())
        }
    }

    /// `varchunkspec_exists`, `varchunkspec_omit` and the rest: the first spec for `v`.
    pub fn var(&self, v: VarId) -> Option<&VarSpec> {
        self.vars.iter().find(|x| x.var == v)
    }

    /// `varchunkspec_omit`: the variable's own `var:`, else the dimension spec's `/`.
    pub fn var_omit(&self, v: VarId) -> bool {
        self.var(v).map_or(self.omit, |x| x.omit)
    }

    /// `dimchunkspec_size`/`dimchunkspec_exists`: the size given for a dimension.
    pub fn dim(&self, d: DimId) -> Option<u64> {
        self.dims.iter().find(|(x, _)| *x == d).map(|(_, n)| *n)
    }
}

fn kind(k: ErrorKind, spec: &str, what: &str) -> SpecError {
    SpecError::Kind(k, format!("chunk spec {spec:?}: {what}"))
}

fn inval(spec: &str, what: &str) -> SpecError {
    kind(ErrorKind::Inval, spec, what)
}

/// `dimchunkspec_parse`: items `name/size` separated by unescaped commas.
fn parse_dim_spec(s: &Schema, classic: bool, spec: &str) -> Result<Vec<(DimId, u64)>, SpecError> {
    // Consecutive unescaped commas are refused before any name is looked up.
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut prev = '\0';
    let mut comma_seen = false;
    for c in spec.chars() {
        if c == ',' && prev != '\\' {
            if comma_seen {
                return Err(inval(spec, "empty item"));
            }
            comma_seen = true;
            parts.push(std::mem::take(&mut cur));
        } else {
            comma_seen = false;
            cur.push(c);
        }
        prev = c;
    }
    parts.push(cur);
    let mut out = Vec::new();
    for part in &parts {
        let Some(slash) = part.rfind('/') else {
            return Err(inval(spec, "no '/' before the chunk size"));
        };
        let (name, size) = (&part[..slash], &part[slash + 1..]);
        let d = dimid2(s, classic, name).map_err(|(k, w)| kind(k, spec, &w))?;
        let n = if size.is_empty() {
            s.dim(d).len
        } else {
            match strtoll0(size) {
                Some(v) if v >= 1 => v as u64,
                _ => return Err(inval(spec, "chunk size must be a positive integer")),
            }
        };
        out.push((d, n));
    }
    Ok(out)
}

/// netcdf-c's `nc_inq_dimid2` from the root group.
fn dimid2(s: &Schema, classic: bool, name: &str) -> Result<DimId, (ErrorKind, String)> {
    let missing = || (ErrorKind::BadDim, format!("no dimension {name:?}"));
    let Some(slash) = name.rfind('/') else {
        return s.find_dim(ROOT, name).ok_or_else(missing);
    };
    if classic {
        return Err((ErrorKind::NoGrp, format!("no group for {name:?}")));
    }
    // nc_inq_grp_full_ncid(root, prefix), then nc_inq_dimid(that group, the whole name), which
    // takes only absolute names with a group part.
    let g = grp_full(s, &name[..slash])?;
    if !name.starts_with('/') || slash == 0 {
        return Err((ErrorKind::Inval, format!("{name:?} is not a full name")));
    }
    // netcdf-c reports a missing dimension of a full name as NC_EBADTYPE.
    s.find_dim(g, &name[slash + 1..])
        .ok_or((ErrorKind::BadType, format!("no dimension {name:?}")))
}

/// `NC4_inq_grp_full_ncid` from the root: `/`-separated child names (empty parts skipped).
fn grp_full(s: &Schema, path: &str) -> Result<GroupId, (ErrorKind, String)> {
    let mut g = ROOT;
    for part in path.split('/').filter(|p| !p.is_empty()) {
        g = s
            .find_group(g, part)
            .ok_or((ErrorKind::NoGrp, format!("no group {part:?}")))?;
    }
    Ok(g)
}

/// `nc_inq_grpid2` from the root: a name without `/` is a child of the root; with `/`, a walk.
fn grpid2(s: &Schema, classic: bool, path: &str) -> Result<GroupId, (ErrorKind, String)> {
    if classic {
        return Ok(ROOT);
    }
    let child = |g: GroupId, name: &str| {
        if name.is_empty() {
            return Err((ErrorKind::BadName, "empty group name".to_string()));
        }
        s.find_group(g, name)
            .ok_or((ErrorKind::NoGrp, format!("no group {name:?}")))
    };
    if !path.contains('/') {
        return child(ROOT, path);
    }
    let rest = path.strip_prefix('/').unwrap_or(path);
    let mut g = ROOT;
    if !rest.is_empty() {
        for part in rest.split('/') {
            g = child(g, part)?;
        }
    }
    Ok(g)
}

/// `varchunkspec_parse`.
fn parse_var_spec(s: &Schema, classic: bool, spec: &str) -> Result<VarSpec, SpecError> {
    let Some((name, sizes)) = spec.split_once(':') else {
        return Err(inval(spec, "no ':'"));
    };
    let (prefix, vname) = match name.rfind('/') {
        None => ("/", name),
        Some(i) => (&name[..i], &name[i + 1..]),
    };
    let g = grpid2(s, classic, prefix).map_err(|(k, w)| kind(k, spec, &w))?;
    let Some(var) = s.find_var(g, vname) else {
        return Err(kind(
            ErrorKind::NotVar,
            spec,
            &format!("no variable {name:?}"),
        ));
    };
    let rank = s.var(var).dims.len();
    if sizes.is_empty() {
        return Ok(VarSpec {
            var,
            omit: true,
            layout: VarLayout::Chunked(vec![0; rank]),
        });
    }
    if sizes.eq_ignore_ascii_case("compact") || sizes.eq_ignore_ascii_case("contiguous") {
        let layout = if sizes.eq_ignore_ascii_case("compact") {
            VarLayout::Compact
        } else {
            VarLayout::Contiguous
        };
        return Ok(VarSpec {
            var,
            omit: false,
            layout,
        });
    }
    let mut chunks = Vec::new();
    let mut rest = sizes;
    while !rest.is_empty() {
        let (item, tail) = rest.split_once(',').unwrap_or((rest, ""));
        let Some(v) = scan_ulong(item) else {
            return Err(inval(spec, &format!("{item:?} is not a chunk size")));
        };
        if chunks.len() >= 1024 {
            return Err(inval(spec, "too many chunk sizes"));
        }
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
    Ok(VarSpec {
        var,
        omit: false,
        layout: VarLayout::Chunked(chunks),
    })
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
        let g = s.add_group(ROOT, "g1").unwrap();
        let y = s.add_dim(g, "y", 4, false).unwrap();
        s.add_var(g, "w", NcType::Int, &[y]).unwrap();
        s
    }

    fn kind(s: &Schema, classic: bool, spec: &str) -> Option<ErrorKind> {
        match ChunkSpecs::default().add(s, classic, spec) {
            Ok(()) => None,
            Err(SpecError::Kind(k, _)) => Some(k),
            Err(SpecError::BadChunk(_)) => Some(ErrorKind::Range), // marker for the test
        }
    }

    #[test]
    fn dimension_specs() {
        let s = schema();
        for ok in [
            "",
            "/",
            "//",
            "x/2",
            "x/2,time/",
            "x/0x2",
            "x/07",
            "/g1/y/2",
        ] {
            assert_eq!(kind(&s, false, ok), None, "{ok}");
        }
        assert_eq!(kind(&s, false, "nodim/2"), Some(ErrorKind::BadDim));
        assert_eq!(kind(&s, false, "y/2"), Some(ErrorKind::BadDim));
        assert_eq!(kind(&s, true, "/x/1"), Some(ErrorKind::NoGrp));
        for bad in [
            "x/0",
            "x/abc",
            "x/2,,time/1",
            "x/2,time",
            "x",
            "/x/3",
            "g1/y/2",
        ] {
            assert_eq!(kind(&s, false, bad), Some(ErrorKind::Inval), "{bad}");
        }
        assert_eq!(kind(&s, false, "/g1/q/2"), Some(ErrorKind::BadType));
        assert_eq!(kind(&s, false, "/g9/y/2"), Some(ErrorKind::NoGrp));
        let mut c = ChunkSpecs::default();
        c.add(&s, false, "x/2,time/").unwrap();
        assert_eq!(c.dims, vec![(DimId(0), 2), (DimId(1), 2)]);
        c.add(&s, false, "/").unwrap();
        assert!(c.omit && c.dims.is_empty());
    }

    #[test]
    fn variable_specs() {
        let s = schema();
        for ok in [
            "sh:",
            "sh:1,2",
            "sh:CONTIGUOUS",
            "sh:1,3,",
            "g1/w:2",
            "/g1/w:2",
        ] {
            assert_eq!(kind(&s, false, ok), None, "{ok}");
        }
        assert_eq!(kind(&s, true, "/sh:1,2"), None);
        assert_eq!(kind(&s, false, "/sh:1,2"), Some(ErrorKind::BadName));
        assert_eq!(kind(&s, false, "w:1"), Some(ErrorKind::NotVar));
        assert_eq!(kind(&s, false, "g2/w:1"), Some(ErrorKind::NoGrp));
        assert_eq!(kind(&s, false, "nosuch:1"), Some(ErrorKind::NotVar));
        assert_eq!(kind(&s, false, "sh:1"), Some(ErrorKind::Inval));
        assert_eq!(kind(&s, false, "sh:1,,2"), Some(ErrorKind::Inval));
        assert_eq!(kind(&s, false, "sh:5,5"), Some(ErrorKind::Range));
        assert_eq!(kind(&s, false, "sh:-1,1"), Some(ErrorKind::Range));
        let mut c = ChunkSpecs::default();
        c.add(&s, false, "sh:").unwrap();
        c.add(&s, false, "sh:1,2").unwrap();
        assert!(c.var_omit(VarId(0)));
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
