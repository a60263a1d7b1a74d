//! Which variables and groups `-v`, `-g` and `-c` select (ncdump-conventions.md §9; netcdf-c
//! `ncdump/utils.c` `nc_inq_gvarid`, `nc_inq_varname_count`, `nc_inq_grpname_count`,
//! `dumplib.c` `iscoordvar`).

use crate::model::{GroupId, Schema, VarId, ROOT};

/// The variable `name` names relative to group `g` (`nc_inq_gvarid`): a plain name is looked up
/// in `g`; `a/b/v` matches when `g`'s full path ends with `a/b`; `/a/b/v` when it equals `/a/b`.
pub(crate) fn gvarid(s: &Schema, g: GroupId, name: &str) -> Option<VarId> {
    if name.is_empty() {
        return None;
    }
    match name.rfind('/') {
        None => s.find_var(g, name),
        Some(i) => {
            let (vargroup, rel) = (&name[..i], &name[i + 1..]);
            let path = s.group_path(g);
            let ok = if name.starts_with('/') {
                path == vargroup
            } else {
                path.ends_with(vargroup)
            };
            if ok {
                s.find_var(g, rel)
            } else {
                None
            }
        }
    }
}

fn varname_count(s: &Schema, g: GroupId, name: &str) -> usize {
    let here = usize::from(gvarid(s, g, name).is_some());
    here + s
        .group(g)
        .groups
        .iter()
        .map(|&c| varname_count(s, c, name))
        .sum::<usize>()
}

/// The first `-v` name that matches no variable in any group, if any (ncdump then fails with
/// `<name>: No such variable`).
pub fn missing_variable<'n>(s: &Schema, names: &'n [String]) -> Option<&'n str> {
    names
        .iter()
        .find(|n| varname_count(s, ROOT, n) == 0)
        .map(String::as_str)
}

fn grpname_matches(s: &Schema, g: GroupId, name: &str, out: &mut Vec<GroupId>) -> usize {
    if name.is_empty() || name == "/" {
        out.push(g);
        return 1;
    }
    if name.starts_with('/') {
        let mut cur = ROOT;
        for part in name.trim_start_matches('/').split('/') {
            match s.find_group(cur, part) {
                Some(c) => cur = c,
                None => return 0,
            }
        }
        out.push(cur);
        return 1;
    }
    let mut count = 0;
    if let Some(c) = s.find_group(g, name) {
        out.push(c);
        count += 1;
    }
    for &c in &s.group(g).groups {
        count += grpname_matches(s, c, name, out);
    }
    count
}

/// Resolves `-g` names to groups (`grp_matches`); `Err(name)` for the first name that matches
/// nothing (ncdump: `<name>: No such group`).
pub fn match_groups<'n>(s: &Schema, names: &'n [String]) -> Result<Vec<GroupId>, &'n str> {
    let mut out = Vec::new();
    for n in names {
        if grpname_matches(s, ROOT, n, &mut out) == 0 {
            return Err(n);
        }
    }
    Ok(out)
}

/// True for a coordinate variable (`iscoordvar`): one dimension, and a name equal to a dimension
/// visible from its group.
pub(crate) fn is_coord_var(s: &Schema, g: GroupId, v: VarId) -> bool {
    let var = s.var(v);
    if var.dims.len() != 1 {
        return false;
    }
    let mut cur = Some(g);
    while let Some(c) = cur {
        if s.find_dim(c, &var.name).is_some() {
            return true;
        }
        cur = s.group(c).parent;
    }
    false
}
