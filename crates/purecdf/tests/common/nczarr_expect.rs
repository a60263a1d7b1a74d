//! Compares an opened dataset with one store of a manifest (`groups`: each group's path, dims,
//! attributes, variables with their data, subgroups), the form written by
//! `tests/data/zarr_oracle.py` and `tests/data/nczarr/make_nc410.py`. Everything is compared
//! exactly and in order; every difference found is reported, not only the first.
// Each test uses its own part of this shared module.
#![allow(dead_code)]

use std::path::Path;

use purecdf::model::{Attribute, GroupId, ROOT};
use purecdf::{File, Values};

use crate::json::Json;

/// The group at `path` (`/`, `/a/b`).
fn group_at(file: &File, path: &str) -> Option<GroupId> {
    let schema = file.schema();
    path.split('/')
        .filter(|p| !p.is_empty())
        .try_fold(ROOT, |g, name| schema.find_group(g, name))
}

/// Opens the store at `path` as a plain directory path and as a `file://...#mode=<mode>,file`
/// URL, and adds every difference from the manifest's `groups` (or the open error) to `out`.
pub(crate) fn check_store(path: &Path, mode: &str, groups: &Json, out: &mut Vec<String>) {
    let name = path.file_name().unwrap().to_string_lossy();
    let url = format!("file://{}#mode={mode},file", path.display());
    for (label, target) in [
        (
            format!("{name} (path)"),
            path.to_string_lossy().into_owned(),
        ),
        (format!("{name} (url)"), url),
    ] {
        match purecdf::open(&target) {
            Ok(file) => out.extend(differences(&file, groups, &label)),
            Err(e) => out.push(format!("{label}: open failed: {e}")),
        }
    }
}

/// Every difference between `file` and the manifest's `groups`, each prefixed with `label`.
pub(crate) fn differences(file: &File, groups: &Json, label: &str) -> Vec<String> {
    let mut out = Vec::new();
    let schema = file.schema();
    for eg in groups.arr() {
        let path = eg.get("path").str();
        let at = |what: &str| format!("{label} {path}: {what}");
        let Some(g) = group_at(file, path) else {
            out.push(at("group missing"));
            continue;
        };
        let group = schema.group(g);
        let children: Vec<&str> = group
            .groups
            .iter()
            .map(|c| schema.group(*c).name.as_str())
            .collect();
        let want: Vec<&str> = eg.get("groups").arr().iter().map(Json::str).collect();
        if children != want {
            out.push(at(&format!("subgroups {children:?}, expected {want:?}")));
        }
        let dims: Vec<(String, u64)> = group
            .dims
            .iter()
            .map(|d| (schema.dim(*d).name.clone(), schema.dim(*d).len))
            .collect();
        let want: Vec<(String, u64)> = eg
            .get("dims")
            .arr()
            .iter()
            .map(|d| (d.arr()[0].str().to_owned(), d.arr()[1].u64()))
            .collect();
        if dims != want {
            out.push(at(&format!("dimensions {dims:?}, expected {want:?}")));
        }
        attributes(
            &group.atts,
            eg.get("attributes"),
            &at("attributes"),
            &mut out,
        );
        let names: Vec<&str> = group
            .vars
            .iter()
            .map(|v| schema.var(*v).name.as_str())
            .collect();
        let evars = eg.get("variables").arr();
        let want: Vec<&str> = evars.iter().map(|v| v.get("name").str()).collect();
        if names != want {
            out.push(at(&format!("variables {names:?}, expected {want:?}")));
        }
        for ev in evars {
            let name = ev.get("name").str();
            let at = |what: &str| format!("{label} {path} {name}: {what}");
            let Some(vid) = schema.find_var(g, name) else {
                continue; // reported with the list of names
            };
            let var = file.variable_by_id(vid);
            let typ = var.nc_type().cdl_name().unwrap_or("user type");
            if typ != ev.get("type").str() {
                out.push(at(&format!(
                    "type {typ}, expected {}",
                    ev.get("type").str()
                )));
            }
            let vdims: Vec<&str> = var.dimensions().iter().map(|d| d.name_str()).collect();
            let want: Vec<&str> = ev.get("dims").arr().iter().map(Json::str).collect();
            if vdims != want {
                out.push(at(&format!("dimensions {vdims:?}, expected {want:?}")));
            }
            let shape = var.shape();
            let want: Vec<u64> = ev.get("shape").arr().iter().map(Json::u64).collect();
            if shape != want {
                out.push(at(&format!("shape {shape:?}, expected {want:?}")));
                continue;
            }
            attributes(
                &schema.var(vid).atts,
                ev.get("attributes"),
                &at("attributes"),
                &mut out,
            );
            match var.get_typed_values(..) {
                Ok(values) => {
                    if let Some(d) = compare(&values, ev.get("data")) {
                        out.push(at(&format!("data: {d}")));
                    }
                }
                Err(e) => out.push(at(&format!("read failed: {e}"))),
            }
        }
    }
    out
}

/// Attributes in order: name, netCDF type, values.
/// The root attributes netCDF-4 readers keep hidden (`ncdump -s` shows them; netCDF4-python's
/// `ncattrs` does not).
const HIDDEN: [&str; 3] = ["_NCProperties", "_SuperblockVersion", "_IsNetcdf4"];

fn attributes(atts: &[Attribute], want: &Json, at: &str, out: &mut Vec<String>) {
    let names: Vec<&str> = atts
        .iter()
        .map(|a| a.name.as_str())
        .filter(|n| !HIDDEN.contains(n))
        .collect();
    let wanted: Vec<&str> = want.arr().iter().map(|a| a.get("name").str()).collect();
    if names != wanted {
        out.push(format!("{at}: names {names:?}, expected {wanted:?}"));
    }
    for wa in want.arr() {
        let name = wa.get("name").str();
        let Some(a) = atts.iter().find(|a| a.name == name) else {
            continue;
        };
        let typ = a.values.nc_type().cdl_name().unwrap_or("user type");
        if typ != wa.get("type").str() {
            out.push(format!(
                "{at} {name}: type {typ}, expected {}",
                wa.get("type").str()
            ));
        } else if let Some(d) = compare(&a.values, wa.get("values")) {
            out.push(format!("{at} {name}: {d}"));
        }
    }
}

/// Why `values` differ from the manifest's (a list, or one string for char), if they do.
/// Floats compare by bits (NaN equal to any NaN), so -0.0 differs from 0.0.
pub(crate) fn compare(values: &Values, want: &Json) -> Option<String> {
    if let Values::Char(bytes) = values {
        let w = want.str().as_bytes();
        return (bytes.as_slice() != w).then(|| {
            format!(
                "text {:?}, expected {:?}",
                String::from_utf8_lossy(bytes),
                want.str()
            )
        });
    }
    let want = want.arr();
    if values.len() != want.len() {
        return Some(format!("{} values, expected {}", values.len(), want.len()));
    }
    for (i, w) in want.iter().enumerate() {
        let same = match values {
            Values::Float(v) => same_float(f64::from(v[i]), w),
            Values::Double(v) => same_float(v[i], w),
            Values::String(v) => v[i].as_deref() == Some(w.str()),
            Values::User(..) => false,
            _ => values.get_i128(i).is_some() && values.get_i128(i) == w.i128(),
        };
        if !same {
            let got = match values {
                Values::String(v) => format!("{:?}", v[i]),
                Values::Float(v) => format!("{:?}", v[i]),
                Values::Double(v) => format!("{:?}", v[i]),
                _ => format!("{:?}", values.get_i128(i)),
            };
            return Some(format!("value {i} is {got}, expected {w:?}"));
        }
    }
    None
}

fn same_float(got: f64, want: &Json) -> bool {
    match want.f64() {
        Some(w) if w.is_nan() => got.is_nan(),
        Some(w) => got.to_bits() == w.to_bits(),
        None => false,
    }
}

/// Runs `tests/data/<script>` with `python` and `args`; its standard output. Panics, with the
/// script's output, when it fails.
pub(crate) fn run_data_script(python: &Path, script: &str, args: &[&std::ffi::OsStr]) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(script);
    let out = std::process::Command::new(python)
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
