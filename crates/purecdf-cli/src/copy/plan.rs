//! What `nccopy` will do, decided from the input's metadata and the options before anything is
//! written: the output kind, the dimensions and variables to define, the `-v`/`-V` name lookups
//! (`nc_inq_gvarid`), and the pieces a region is copied in. Pure functions over [`Schema`], so
//! they are tested without files.
//!
//! Definition order within a group (netcdf-c 4.9.0 `copy_schema`; for classic output it decides
//! the header bytes): all dimensions of the group in id order (even with `-V`), then the group
//! attributes, then the variables in id order (with `-V`, only the listed ones), each followed by
//! its attributes. A fixed-size variable is cut to fit the copy buffer (`nc_get_iter`): whole rows
//! of the innermost dimensions that fit, a run of rows along the next dimension out; a record of a
//! classic record variable is copied whole (`copy_rec_var_data`).
//! File format background: the classic format spec, "The NetCDF Classic Format Specification"
//! (header grammar: `dim_list`, `gatt_list`, `var_list`).

use purecdf::model::{GroupId, ROOT};
use purecdf::{DimId, ErrorKind, NcType, Schema, VarId};

use super::options::{Kind, Options};

/// One dimension to define in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DimDef {
    /// The input dimension.
    pub src: DimId,
    /// Its name.
    pub name: String,
    /// Length to define (ignored when `unlimited`).
    pub len: u64,
    /// Define as unlimited. With `-u` a record dimension becomes fixed at its current length,
    /// except that a length of 0 is `NC_UNLIMITED` to netcdf-c, so an empty one stays unlimited.
    pub unlimited: bool,
    /// What netcdf-c's `dimmap` records: unlimited in the output because the input's is and
    /// `-u` was not given (false for a `-u` dimension of length 0, unlimited as it ends up).
    pub mapped_unlimited: bool,
}

/// The output kind netcdf-c's `copy` picks: the requested one, else the input's, switched to
/// netCDF-4 classic model when a classic-family input is to be deflated, shuffled or chunked.
pub fn output_kind(input: Kind, o: &Options) -> Kind {
    match o.kind {
        Some(k) => k,
        None => {
            let classic_in = matches!(input, Kind::Classic | Kind::Offset64 | Kind::Cdf5);
            let nc4_feature =
                o.deflate.is_some_and(|d| d > 0) || o.shuffle || !o.chunkspecs.is_empty();
            if classic_in && nc4_feature {
                Kind::Netcdf4Classic
            } else {
                input
            }
        }
    }
}

/// The dimensions of group `g` to define, in id order.
pub fn dim_defs(s: &Schema, g: GroupId, fix_unlimited: bool) -> Vec<DimDef> {
    s.group(g)
        .dims
        .iter()
        .map(|&d| {
            let dim = s.dim(d);
            DimDef {
                src: d,
                name: dim.name.clone(),
                len: dim.len,
                unlimited: (dim.unlimited && !fix_unlimited) || dim.len == 0,
                mapped_unlimited: dim.unlimited && !fix_unlimited,
            }
        })
        .collect()
}

/// Full name of group `g` as `nc_inq_grpname_full` gives it.
fn group_full_name(s: &Schema, g: GroupId) -> String {
    s.group_path(g)
}

/// netcdf-c's `nc_inq_gvarid`: the variable of group `g` that `name` denotes. A name without `/`
/// is looked up in `g`; `/a/b/v` needs `g` to be `/a/b`; `a/b/v` needs `g`'s full name to end in
/// `a/b`.
pub fn gvarid(s: &Schema, g: GroupId, name: &str) -> Option<VarId> {
    if name.is_empty() {
        return None;
    }
    match name.rfind('/') {
        None => s.find_var(g, name),
        Some(i) => {
            let (vargroup, relname) = (&name[..i], &name[i + 1..]);
            let full = group_full_name(s, g);
            let ok = if name.starts_with('/') {
                full == vargroup
            } else {
                full.ends_with(vargroup)
            };
            if ok {
                s.find_var(g, relname)
            } else {
                None
            }
        }
    }
}

/// Groups of the tree under `g` (itself first, then depth-first in definition order).
fn groups_under(s: &Schema, g: GroupId, out: &mut Vec<GroupId>) {
    out.push(g);
    for &c in &s.group(g).groups {
        groups_under(s, c, out);
    }
}

/// netcdf-c's `missing_vars`: the first `-v`/`-V` name that matches no variable in any group.
pub fn first_missing_var<'a>(s: &Schema, names: &'a [String]) -> Option<&'a str> {
    let mut all = Vec::new();
    groups_under(s, ROOT, &mut all);
    names
        .iter()
        .find(|n| all.iter().all(|&g| gvarid(s, g, n).is_none()))
        .map(String::as_str)
}

/// netcdf-c's `grp_matches`: the groups the `-g`/`-G` names denote (`""` or `/` the root, an
/// absolute path one group, a plain name every group of that name anywhere), or the message for
/// the first name that matches none.
pub fn group_matches(s: &Schema, names: &[String]) -> Result<Vec<GroupId>, String> {
    let mut out = Vec::new();
    for name in names {
        let n = out.len();
        if name.is_empty() || name == "/" {
            out.push(ROOT);
        } else if let Some(path) = name.strip_prefix('/') {
            let mut g = Some(ROOT);
            for part in path.split('/').filter(|p| !p.is_empty()) {
                g = g.and_then(|g| s.find_group(g, part));
            }
            out.extend(g);
        } else {
            let mut all = Vec::new();
            groups_under(s, ROOT, &mut all);
            out.extend(all.iter().filter_map(|&g| s.find_group(g, name)));
        }
        if out.len() == n {
            return Err(format!("{name}: No such group"));
        }
    }
    Ok(out)
}

/// The variables of group `g` the `-v`/`-V` list names (in list order, repeats kept).
pub fn listed_vars(s: &Schema, g: GroupId, names: &[String]) -> Vec<VarId> {
    names.iter().filter_map(|n| gvarid(s, g, n)).collect()
}

/// The variables of group `g` to define: all, unless `-V` listed some.
pub fn vars_to_define(s: &Schema, g: GroupId, o: &Options) -> Vec<VarId> {
    let all = s.group(g).vars.clone();
    if o.var_struct || o.vars.is_empty() {
        return all;
    }
    let listed = listed_vars(s, g, &o.vars);
    all.into_iter().filter(|v| listed.contains(v)).collect()
}

/// Checks that a type can be stored in the output kind (netcdf-c fails `nc_def_var` and
/// `nc_put_att` with NC_EBADTYPE otherwise).
pub fn type_allowed(kind: Kind, t: NcType) -> Result<(), ErrorKind> {
    let ok = match kind {
        Kind::Classic | Kind::Offset64 => t.is_classic(),
        Kind::Cdf5 => t.is_cdf5(),
        // The netCDF-4 writer refuses what its model cannot hold (NC_ESTRICTNC3).
        Kind::Netcdf4Classic | Kind::Netcdf4 => true,
    };
    if ok {
        Ok(())
    } else {
        Err(ErrorKind::BadType)
    }
}

/// One piece of a copy: a hyperslab (start and count per dimension).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// First index per dimension.
    pub start: Vec<u64>,
    /// Number of elements per dimension.
    pub count: Vec<u64>,
}

/// Cuts the region `start`/`count` of a variable into pieces of at most `buf` bytes (at least
/// one element each), in row-major order: the innermost dimensions whole while they fit, then a
/// run of rows along the next dimension out, the outer dimensions one index at a time.
pub fn pieces(start: &[u64], count: &[u64], elem: u64, buf: u64) -> Pieces {
    let rank = count.len();
    let elem = elem.max(1);
    let empty = count.contains(&0);
    // Find the outermost dimension `split` such that dims split+1.. fit in the buffer.
    let mut inner = elem; // bytes of one index step of dimension `split`
    let mut split = rank;
    while split > 0 {
        let next = inner.saturating_mul(count[split - 1]);
        if next > buf {
            break;
        }
        inner = next;
        split -= 1;
    }
    // dims split.. fit whole; if split > 0, dim split-1 takes `rows` indices at a time.
    let rows = if split == 0 {
        0
    } else {
        (buf / inner).clamp(1, count[split - 1])
    };
    Pieces {
        start: start.to_vec(),
        count: count.to_vec(),
        split,
        rows,
        odometer: vec![0; rank],
        done: empty,
    }
}

/// Iterator over the pieces of a region; see [`pieces`].
#[derive(Debug, Clone)]
pub struct Pieces {
    start: Vec<u64>,
    count: Vec<u64>,
    split: usize,
    rows: u64,
    odometer: Vec<u64>,
    done: bool,
}

impl Iterator for Pieces {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        if self.done {
            return None;
        }
        let rank = self.count.len();
        let mut p = Piece {
            start: self.start.clone(),
            count: self.count.clone(),
        };
        if self.split == 0 {
            self.done = true;
            return Some(p);
        }
        let step_dim = self.split - 1;
        for d in 0..self.split {
            p.start[d] = self.start[d] + self.odometer[d];
            p.count[d] = if d == step_dim {
                self.rows.min(self.count[d] - self.odometer[d])
            } else {
                1
            };
        }
        // Advance: the step dimension by `rows`, carrying outwards.
        let mut d = step_dim;
        loop {
            self.odometer[d] += if d == step_dim { self.rows } else { 1 };
            if self.odometer[d] < self.count[d] {
                break;
            }
            self.odometer[d] = 0;
            if d == 0 {
                self.done = true;
                break;
            }
            d -= 1;
        }
        debug_assert!(p.start.len() == rank);
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Schema {
        let mut s = Schema::default();
        let t = s.add_dim(ROOT, "time", 3, true).unwrap();
        let lat = s.add_dim(ROOT, "lat", 2, false).unwrap();
        s.add_var(ROOT, "time", NcType::Double, &[t]).unwrap();
        s.add_var(ROOT, "lat", NcType::Float, &[lat]).unwrap();
        s.add_var(ROOT, "t", NcType::Short, &[t, lat]).unwrap();
        s.add_var(ROOT, "scalar", NcType::Int, &[]).unwrap();
        s
    }

    fn opts(vars: &[&str], var_struct: bool) -> Options {
        Options {
            vars: vars.iter().map(|v| v.to_string()).collect(),
            var_struct,
            ..Options::default()
        }
    }

    #[test]
    fn kind_follows_input_unless_netcdf4_features() {
        let mut o = Options::default();
        assert_eq!(output_kind(Kind::Cdf5, &o), Kind::Cdf5);
        o.deflate = Some(0);
        assert_eq!(output_kind(Kind::Classic, &o), Kind::Classic);
        o.deflate = Some(1);
        assert_eq!(output_kind(Kind::Classic, &o), Kind::Netcdf4Classic);
        o.kind = Some(Kind::Offset64);
        assert_eq!(output_kind(Kind::Classic, &o), Kind::Offset64);
    }

    #[test]
    fn dims_all_in_order_and_u_keeps_empty_unlimited() {
        let mut s = schema();
        let d = dim_defs(&s, ROOT, true);
        assert_eq!(d.len(), 2);
        assert_eq!(
            (d[0].name.as_str(), d[0].len, d[0].unlimited),
            ("time", 3, false)
        );
        s.dims[0].len = 0;
        assert!(dim_defs(&s, ROOT, true)[0].unlimited);
        assert!(dim_defs(&s, ROOT, false)[0].unlimited);
    }

    #[test]
    fn var_lists_as_netcdf_c() {
        let s = schema();
        let ids = |v: Vec<VarId>| v.into_iter().map(|v| v.0).collect::<Vec<_>>();
        assert_eq!(
            ids(vars_to_define(&s, ROOT, &opts(&["t", "lat"], false))),
            [1, 2]
        );
        assert_eq!(
            ids(vars_to_define(&s, ROOT, &opts(&["t"], true))),
            [0, 1, 2, 3]
        );
        assert_eq!(
            first_missing_var(&s, &["t".into(), "/t".into()]),
            Some("/t")
        );
        assert_eq!(first_missing_var(&s, &["t".into(), "lat".into()]), None);
        assert_eq!(gvarid(&s, ROOT, "x/t"), None);
    }

    #[test]
    fn types_per_kind() {
        assert!(type_allowed(Kind::Classic, NcType::UByte).is_err());
        assert!(type_allowed(Kind::Cdf5, NcType::UInt64).is_ok());
        assert!(type_allowed(Kind::Cdf5, NcType::String).is_err());
    }

    fn collect(start: &[u64], count: &[u64], elem: u64, buf: u64) -> Vec<(Vec<u64>, Vec<u64>)> {
        pieces(start, count, elem, buf)
            .map(|p| (p.start, p.count))
            .collect()
    }

    #[test]
    fn pieces_fit_the_buffer() {
        // Whole variable fits.
        assert_eq!(
            collect(&[0, 0], &[3, 4], 4, 48),
            vec![(vec![0, 0], vec![3, 4])]
        );
        // Two rows of 16 bytes per piece.
        assert_eq!(
            collect(&[0, 0], &[3, 4], 4, 40),
            vec![(vec![0, 0], vec![2, 4]), (vec![2, 0], vec![1, 4])]
        );
        // A row does not fit: runs along the last dimension.
        assert_eq!(
            collect(&[1, 0], &[2, 4], 4, 12),
            vec![
                (vec![1, 0], vec![1, 3]),
                (vec![1, 3], vec![1, 1]),
                (vec![2, 0], vec![1, 3]),
                (vec![2, 3], vec![1, 1]),
            ]
        );
        // Buffer smaller than an element: one element at a time.
        assert_eq!(collect(&[0], &[3], 8, 0).len(), 3);
        // Scalar and empty.
        assert_eq!(collect(&[], &[], 8, 0), vec![(vec![], vec![])]);
        assert!(collect(&[0, 0], &[0, 4], 4, 100).is_empty());
    }

    #[test]
    fn pieces_cover_region_exactly_once() {
        let (count, elem) = ([3u64, 5, 7], 2u64);
        for buf in [0, 1, 2, 13, 14, 70, 71, 139, 140, 209, 210, 10_000] {
            let mut seen = [0u8; 105];
            for p in pieces(&[0, 0, 0], &count, elem, buf) {
                let n: u64 = p.count.iter().product();
                assert!(n * elem <= buf.max(elem), "buf {buf}: piece {p:?}");
                for i in 0..p.count[0] {
                    for j in 0..p.count[1] {
                        for k in 0..p.count[2] {
                            let idx = (p.start[0] + i) * 35 + (p.start[1] + j) * 7 + p.start[2] + k;
                            seen[idx as usize] += 1;
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "buf {buf}");
        }
    }
}
