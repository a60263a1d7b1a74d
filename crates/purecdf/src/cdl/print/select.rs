//! Which variables and groups `-v`, `-g` and `-c` select (ncdump-conventions.md §9; netcdf-c
//! `ncdump/utils.c` `nc_inq_gvarid`, `nc_inq_varname_count`, `nc_inq_grpname_count`,
//! `dumplib.c` `iscoordvar`).

use unicode_normalization::UnicodeNormalization;

use crate::error::ErrorKind;
use crate::model::{lookup_name, GroupId, Schema, VarId, ROOT};

/// Variable `name` directly in `g`, looked up as `nc_inq_varid` does for netCDF-4 and classic
/// files alike: by the NFC form of the name.
fn find_var_nfc(s: &Schema, g: GroupId, name: &str) -> Option<VarId> {
    // A name that is not UTF-8 fails netcdf-c's normalisation, so it finds nothing.
    if !crate::model::is_utf8(name) {
        return None;
    }
    let nfc: String = name.nfc().collect();
    s.find_var(g, &nfc)
}

/// The variable `name` names relative to group `g` (`nc_inq_gvarid`): a plain name is looked up
/// in `g`; `a/b/v` matches when `g`'s full path ends with `a/b`; `/a/b/v` when it equals `/a/b`.
pub(crate) fn gvarid(s: &Schema, g: GroupId, name: &str) -> Option<VarId> {
    if name.is_empty() {
        return None;
    }
    match name.rfind('/') {
        None => find_var_nfc(s, g, name),
        Some(i) => {
            let (vargroup, rel) = (&name[..i], &name[i + 1..]);
            let path = s.group_path(g);
            let ok = if name.starts_with('/') {
                path == vargroup
            } else {
                path.ends_with(vargroup)
            };
            if ok {
                find_var_nfc(s, g, rel)
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

/// Why `-g` selects nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupMatchError<'n> {
    /// The name matches no group (`<name>: No such group`).
    NoSuchGroup(&'n str),
    /// An absolute path has a component netcdf-c refuses as a name (`when looking up group
    /// <name>: <nc_strerror>`).
    Lookup(&'n str, ErrorKind),
}

impl GroupMatchError<'_> {
    /// ncdump's message, printed after `ncdump: `.
    pub fn message(&self) -> String {
        match self {
            GroupMatchError::NoSuchGroup(n) => format!("{n}: No such group"),
            // netcdf-c's format string ends with a space.
            GroupMatchError::Lookup(n, k) => {
                format!("when looking up group {n}: {} ", k.nc_message())
            }
        }
    }
}

/// `nc_inq_grpname_count` for one name: how many groups it selects under `g`.
fn grpname_matches<'n>(
    s: &Schema,
    g: GroupId,
    name: &'n str,
    out: &mut Vec<GroupId>,
) -> Result<usize, GroupMatchError<'n>> {
    if name.is_empty() || name == "/" {
        out.push(g);
        return Ok(1);
    }
    if name.starts_with('/') {
        // `nc_inq_grp_full_ncid`: the path split as by strtok (empty parts skipped), each part
        // checked and normalised like a name, then looked up.
        let mut cur = ROOT;
        for part in name.split('/').filter(|p| !p.is_empty()) {
            let key = lookup_name(part).map_err(|e| GroupMatchError::Lookup(name, e.kind()))?;
            match s.find_group(cur, &key) {
                Some(c) => cur = c,
                None => return Ok(0),
            }
        }
        out.push(cur);
        return Ok(1);
    }
    Ok(relative_matches(s, g, name, out))
}

/// Groups named `name` among the children of `g` and of its descendants; a name netcdf-c
/// refuses matches nothing.
fn relative_matches(s: &Schema, g: GroupId, name: &str, out: &mut Vec<GroupId>) -> usize {
    let mut count = 0;
    if let Some(c) = lookup_name(name).ok().and_then(|k| s.find_group(g, &k)) {
        out.push(c);
        count += 1;
    }
    for &c in &s.group(g).groups {
        count += relative_matches(s, c, name, out);
    }
    count
}

/// Resolves `-g` names to groups (`grp_matches`); the first name that matches nothing, or
/// whose lookup fails, is the error.
///
/// # Errors
/// [`GroupMatchError`] with ncdump's message.
pub fn match_groups<'n>(
    s: &Schema,
    names: &'n [String],
) -> Result<Vec<GroupId>, GroupMatchError<'n>> {
    let mut out = Vec::new();
    for n in names {
        if grpname_matches(s, ROOT, n, &mut out)? == 0 {
            return Err(GroupMatchError::NoSuchGroup(n));
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
