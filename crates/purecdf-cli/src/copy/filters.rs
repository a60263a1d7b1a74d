//! `nccopy -F`: per-variable output filters, parsed and applied as netcdf-c 4.9.0's `nccopy.c`
//! does (`parsefilterspec`, `varfilterssuppress`, `varfiltersactive`, `filteroptsforvar` and the
//! table of `copy_var_filter`), including where that differs from its documentation.
//!
//! A spec is `VARS,FILTERS`: `VARS` is `*` or `&`-separated variable names (a backslash keeps
//! the next character, and stays in the name, as it does in the escaped full names the specs are
//! compared with); `FILTERS` is a filter list in `_Filter`'s syntax ([`purecdf::filter_spec`]) or
//! `none`. A name without a leading `/` is taken from the root group. `-F none` and `-F '*,none'`
//! (any case) suppress every output filter that no other spec names.

use purecdf::filter_spec::{parse_filter_list, FilterSpec};
use purecdf::{ErrorKind, Schema, VarId};

/// Characters `computeFQN` escapes with a backslash anywhere in a variable name.
const ESCAPES: &str = " !\"#$%&'()*,:;<=>?[]\\^`{|}~";

/// One parsed `-F` entry: one filter for one variable (or `*`), or a `none`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterOption {
    /// `*`, or the variable's full name as `computeFQN` spells it (escaped, `/`-rooted).
    pub fqn: String,
    /// `none`: no filters for this variable.
    pub nofilter: bool,
    /// The filter (`None` with `nofilter`).
    pub spec: Option<FilterSpec>,
}

/// Parses one `-F` argument (not `none` / `*,none`) into options appended to `out`.
///
/// # Errors
/// [`ErrorKind::Inval`] for an empty variable list or a malformed filter list.
pub fn parse_option(arg: &str, out: &mut Vec<FilterOption>) -> Result<(), ErrorKind> {
    // The variables end at the first comma that no backslash escapes.
    let bytes = arg.as_bytes();
    let mut i = 0;
    let mut split = None;
    while i < bytes.len() {
        match bytes[i] {
            b',' => {
                split = Some(i);
                break;
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    let (vars, rest) = match split {
        Some(k) => (&arg[..k], &arg[k + 1..]),
        None => (&arg[..arg.len().min(i)], ""),
    };
    if vars.is_empty() {
        return Err(ErrorKind::Inval);
    }
    let names = if vars == "*" {
        vec!["*".to_string()]
    } else {
        split_vars(vars)
    };
    let filters = if rest.eq_ignore_ascii_case("none") {
        None
    } else {
        Some(parse_filter_list(rest).map_err(|_| ErrorKind::Inval)?.1)
    };
    for name in names.iter().filter(|n| !n.is_empty()) {
        let fqn = if name == "*" || name.starts_with('/') {
            name.clone()
        } else {
            format!("/{name}")
        };
        match &filters {
            None => out.push(FilterOption {
                fqn,
                nofilter: true,
                spec: None,
            }),
            Some(list) => out.extend(list.iter().map(|f| FilterOption {
                fqn: fqn.clone(),
                nofilter: false,
                spec: Some(f.clone()),
            })),
        }
    }
    Ok(())
}

/// Splits at `&`s no backslash escapes; backslashes stay.
fn split_vars(vars: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = vars.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let last = out.last_mut().expect("never empty");
                last.push(c);
                if let Some(n) = chars.next() {
                    last.push(n);
                }
            }
            '&' => out.push(String::new()),
            _ => out.last_mut().expect("never empty").push(c),
        }
    }
    out
}

/// A variable's full name as `computeFQN` spells it: its group's full name, `/`, and its name
/// with a backslash before each character of `ESCAPES` and before a leading digit.
pub fn fqn(s: &Schema, v: VarId) -> String {
    let var = s.var(v);
    let mut out = s.group_path(var.group);
    if out.len() > 1 {
        out.push('/');
    }
    for (i, c) in var.name.chars().enumerate() {
        if (i == 0 && c.is_ascii_digit()) || ESCAPES.contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The options that name `fqn` (or `*`).
fn matching<'a>(opts: &'a [FilterOption], fqn: &'a str) -> impl Iterator<Item = &'a FilterOption> {
    opts.iter().filter(move |o| o.fqn == "*" || o.fqn == fqn)
}

/// `varfilterssuppress`: a `none` names the variable, or `-F none` was given.
pub fn suppressed(opts: &[FilterOption], global_none: bool, fqn: &str) -> bool {
    global_none || matching(opts, fqn).any(|o| o.nofilter)
}

/// `varfiltersactive`, as netcdf-c 4.9.0 computes it: true when some option names *another*
/// variable (its `else` belongs to the name test) and no `none` names this one.
pub fn active(opts: &[FilterOption], fqn: &str) -> bool {
    let mut has_none = false;
    let mut has_active = false;
    for o in opts {
        if o.fqn == "*" || o.fqn == fqn {
            has_none |= o.nofilter;
        } else {
            has_active = true;
        }
    }
    has_active && !has_none
}

/// `filteroptsforvar`: the filters the options give the variable, in the order given.
pub fn for_var<'a>(opts: &'a [FilterOption], fqn: &'a str) -> Vec<&'a FilterSpec> {
    matching(opts, fqn)
        .filter_map(|o| o.spec.as_ref().filter(|_| !o.nofilter))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arg: &str) -> Result<Vec<FilterOption>, ErrorKind> {
        let mut v = Vec::new();
        parse_option(arg, &mut v).map(|()| v)
    }

    #[test]
    fn specs_as_netcdf_c_parses_them() {
        let v = parse("a&b,307,9|2").unwrap();
        let names: Vec<(&str, u32)> = v
            .iter()
            .map(|o| (o.fqn.as_str(), o.spec.as_ref().unwrap().id))
            .collect();
        assert_eq!(names, [("/a", 307), ("/a", 2), ("/b", 307), ("/b", 2)]);
        let v = parse("*,307").unwrap();
        assert_eq!(v[0].fqn, "*");
        let v = parse("/g/x\\,y,none").unwrap();
        assert_eq!((v[0].fqn.as_str(), v[0].nofilter), ("/g/x\\,y", true));
        // No filters after the names: nothing, without error.
        assert_eq!(parse("a").unwrap(), vec![]);
        assert_eq!(parse(",1,3"), Err(ErrorKind::Inval));
        assert_eq!(parse("a,bogus"), Err(ErrorKind::Inval));
        assert_eq!(parse("a,307,,9"), Err(ErrorKind::Inval));
    }

    #[test]
    fn active_follows_netcdf_c_s_braces() {
        let mut opts = parse("a,307").unwrap();
        assert!(!active(&opts, "/a"));
        assert!(active(&opts, "/b"));
        parse_option("b,none", &mut opts).unwrap();
        assert!(!active(&opts, "/b"));
        assert!(suppressed(&opts, false, "/b"));
        assert!(!suppressed(&opts, false, "/a"));
        assert_eq!(for_var(&opts, "/a").len(), 1);
    }
}
