//! NCZarr stores and netcdf-c 4.10 (the netcdf-c bundled with netCDF4-python's wheels), both
//! ways, through `tests/data/nczarr/nc410_interop.py`:
//!
//! - a store netcdf-c 4.10 writes (zlib with shuffle, zstd, blosc lz4 and zstd, groups, an
//!   unlimited dimension, attributes of every type) reads here exactly as 4.10 reads it, and each
//!   variable's `_Codecs` (our `codecs_json` and `ncdump -s`) is the text 4.10 answers; after we
//!   append to it, 4.10 still opens it (its array keys, which it keeps in `.zattrs`, move to
//!   `.zarray`) and reads every attribute exactly (the store keeps 4.10's attribute layout);
//! - stores we write are read by 4.10 with every dimension, variable and value as we read them,
//!   and the `_Codecs` texts agree. With netcdf-c 4.9.0's attribute-type key (our default,
//!   `_NCZARR_ATTR`) 4.10 shows that key as an attribute of its own and infers the other
//!   attributes' types from their JSON values, and it cannot open a store holding a char (`<U1`)
//!   or string (vlen-utf8) array; with `mode=nc410` (4.10's `_nczarr_attr`, chars `>S1`, strings
//!   `|S128`) it reads every attribute and variable exactly.
//!
//! A Python with netCDF4 comes from `$PURECDF_PYTHON` or `python3`; without one the tests skip,
//! or fail under `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "../../purecdf-hdf5/tests/common/python.rs"]
mod python;

#[path = "common/json.rs"]
mod json;

#[path = "common/nczarr_expect.rs"]
mod nczarr_expect;

use std::path::Path;

use json::Json;
use purecdf::{Chunking, File, GroupId, NcType, Values};

/// The variable at `path` (`/g/v`).
fn var_at(file: &File, path: &str) -> Option<purecdf::VarId> {
    let (g, name) = path.rsplit_once('/')?;
    let gid = g
        .split('/')
        .filter(|p| !p.is_empty())
        .try_fold(GroupId(0), |g, n| file.schema().find_group(g, n))?;
    file.schema().find_var(gid, name)
}

/// Every difference between our `_Codecs` (API and `ncdump -s`) and 4.10's `codecs`, and every
/// variable with codecs 4.10 does not report.
fn codec_differences(file: &File, codecs: &Json, label: &str) -> Vec<String> {
    let mut out = Vec::new();
    let Json::Obj(list) = codecs else {
        return vec![format!("{label}: codecs is not an object")];
    };
    let opts = purecdf::cdl::print::DumpOptions {
        header_only: true,
        special_atts: true,
        ..purecdf::cdl::print::DumpOptions::new("x")
    };
    let mut cdl = Vec::new();
    purecdf::cdl::print::write_cdl(file, &opts, &mut cdl).unwrap();
    let cdl = String::from_utf8(cdl).unwrap();
    for (path, text) in list {
        let Some(v) = var_at(file, path) else {
            out.push(format!("{label} {path}: missing"));
            continue;
        };
        let ours = file.codecs_json(v);
        if ours.as_deref() != Some(text.str()) {
            out.push(format!(
                "{label} {path}: _Codecs {ours:?}, 4.10 {:?}",
                text.str()
            ));
        }
        let name = path.rsplit('/').next().unwrap_or("");
        let line = format!("{name}:_Codecs = \"{}\" ;", text.str().replace('"', "\\\""));
        if !cdl.contains(&line) {
            out.push(format!("{label} {path}: ncdump -s has no line {line}"));
        }
    }
    let mut n = 0;
    for vid in 0..file.schema().vars.len() {
        n += usize::from(file.codecs_json(purecdf::VarId(vid)).is_some());
    }
    if n != list.len() {
        out.push(format!(
            "{label}: {n} variables with codecs, 4.10 {}",
            list.len()
        ));
    }
    out
}

#[test]
fn netcdf_c_410_stores_read_as_it_reads_them() {
    let Some(py) = python::python_with("netCDF4, numpy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let text = nczarr_expect::run_data_script(
        &py,
        "nczarr/nc410_interop.py",
        &["write".as_ref(), dir.path().as_os_str()],
    );
    let view = Json::parse(&text).unwrap();
    let store = Path::new(view.get("store").str());
    let mut problems = Vec::new();
    nczarr_expect::check_store(store, "nczarr", view.get("groups"), &mut problems);
    let file = purecdf::open(store).unwrap();
    problems.extend(codec_differences(&file, view.get("codecs"), "by410.zarr"));
    drop(file);
    // Appending keeps 4.10's attribute layout: 4.10 still reads every attribute exactly.
    let url = format!("file://{}#mode=nczarr,file", store.display());
    let mut f = purecdf::append(&url).unwrap();
    f.add_attribute("added", vec![2.5f32]).unwrap();
    f.close().unwrap();
    let text = nczarr_expect::run_data_script(
        &py,
        "nczarr/nc410_interop.py",
        &["read".as_ref(), store.as_os_str()],
    );
    let after = Json::parse(&text).unwrap();
    let after = after.get(&store.display().to_string());
    let file = purecdf::open(store).unwrap();
    problems.extend(nczarr_expect::differences(
        &file,
        after.get("groups"),
        "by410.zarr appended",
    ));
    let root = &after.get("groups").arr()[0];
    if !root
        .get("attributes")
        .arr()
        .iter()
        .any(|a| a.get("name").str() == "added" && a.get("type").str() == "float")
    {
        problems.push("4.10 does not see the appended float attribute".into());
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A filter chain: (HDF5 id, parameters) in order.
type Filters = &'static [(u32, &'static [u32])];

/// Writes our test dataset at `url`: filters zlib with shuffle, zstd and blosc, groups, an
/// unlimited dimension, attributes of every type; with `text`, char and string variables too.
fn write_ours(url: &str, text: bool) {
    let mut f = purecdf::create_with(url, purecdf::Format::Netcdf4).unwrap();
    let root = GroupId(0);
    let x = f.add_dimension("x", 40).unwrap().id();
    let y = f.add_dimension("y", 50).unwrap().id();
    let t = f.add_unlimited_dimension("t").unwrap().id();
    f.add_attribute("title", "by purecdf").unwrap();
    f.add_attribute("n", vec![1i32, -2, 3]).unwrap();
    f.add_attribute("f", vec![0.5f32, -1.25]).unwrap();
    f.add_attribute("d", vec![0.1f64]).unwrap();
    f.add_attribute("s", vec![-7i16]).unwrap();
    f.add_attribute("b", vec![-7i8]).unwrap();
    f.add_attribute("u64", vec![u64::MAX]).unwrap();
    f.add_attribute(
        "strings",
        Values::String(vec![
            Some("a".into()),
            Some("bc".into()),
            Some(String::new()),
        ]),
    )
    .unwrap();
    let grid: Vec<f64> = (0..2000).map(|i| f64::from(i) * 1.5 - 700.0).collect();
    let filters: [(&str, NcType, Filters); 5] = [
        ("plain", NcType::Float, &[]),
        ("z", NcType::Float, &[(2, &[]), (1, &[4])]),
        ("zs", NcType::Int, &[(32015, &[3])]),
        ("bl", NcType::Double, &[(32001, &[2, 2, 8, 0, 5, 1, 1])]),
        ("blz", NcType::Short, &[(32001, &[2, 2, 2, 0, 2, 2, 5])]),
    ];
    for (name, typ, fl) in filters {
        let v = f.add_variable_in(root, name, typ, &[x, y]).unwrap();
        f.def_var_chunking(v, Chunking::Chunked(vec![20, 25]))
            .unwrap();
        for (id, params) in fl {
            f.def_var_filter(v, *id, params).unwrap();
        }
        f.put_attribute(root, Some(v), "units", "m").unwrap();
        let values = match typ {
            NcType::Float => Values::Float(grid.iter().map(|&g| g as f32).collect()),
            NcType::Int => Values::Int(grid.iter().map(|&g| g as i32).collect()),
            NcType::Short => Values::Short(grid.iter().map(|&g| g as i16).collect()),
            _ => Values::Double(grid.clone()),
        };
        f.put_raw_values(v, &values, ..).unwrap();
    }
    let rec = f
        .add_variable_in(root, "rec", NcType::Int, &[t, x])
        .unwrap();
    f.def_var_deflate(rec, false, Some(1)).unwrap();
    f.put_raw_values(rec, &Values::Int((0..120).collect()), [0..3, 0..40])
        .unwrap();
    let g = f.add_group_in(root, "g").unwrap();
    f.put_attribute(g, None, "note", "child").unwrap();
    let z = f.add_dimension_in(g, "z", 4, false).unwrap();
    let w = f.add_variable_in(g, "w", NcType::UShort, &[x, z]).unwrap();
    f.def_var_deflate(w, false, Some(9)).unwrap();
    f.put_raw_values(w, &Values::UShort((0..160).map(|i| i * 400).collect()), ..)
        .unwrap();
    if text {
        let c = f.add_variable_in(g, "c", NcType::Char, &[z]).unwrap();
        f.put_raw_values(c, &Values::Char(b"abcd".to_vec()), ..)
            .unwrap();
        let strings = f.add_variable_in(g, "st", NcType::String, &[z]).unwrap();
        let long = "x".repeat(128);
        let words = ["", "one", "th\u{e9}", long.as_str()];
        let words = words.iter().map(|w| Some(w.to_string())).collect();
        f.put_raw_values(strings, &Values::String(words), ..)
            .unwrap();
    }
    let h = f.add_group_in(g, "h").unwrap();
    let s = f.add_variable_in(h, "s", NcType::Int64, &[]).unwrap();
    f.put_raw_values(s, &Values::Int64(vec![-(1 << 62)]), ..)
        .unwrap();
    f.close().unwrap();
}

#[test]
fn netcdf_c_410_reads_our_stores() {
    let Some(py) = python::python_with("netCDF4, numpy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let default = dir.path().join("ours.zarr");
    let nc410 = dir.path().join("ours410.zarr");
    let with_text = dir.path().join("ours_text.zarr");
    write_ours(
        &format!("file://{}#mode=nczarr,file", default.display()),
        false,
    );
    write_ours(
        &format!("file://{}#mode=nczarr,file,nc410", nc410.display()),
        true,
    );
    write_ours(
        &format!("file://{}#mode=nczarr,file", with_text.display()),
        true,
    );
    let text = nczarr_expect::run_data_script(
        &py,
        "nczarr/nc410_interop.py",
        &[
            "read".as_ref(),
            default.as_os_str(),
            nc410.as_os_str(),
            with_text.as_os_str(),
        ],
    );
    let views = Json::parse(&text).unwrap();
    let mut problems = Vec::new();
    for (store, exact_attributes) in [(&default, false), (&nc410, true)] {
        let label = store.file_name().unwrap().to_string_lossy().into_owned();
        let view = views.get(&store.display().to_string());
        if let Some(e) = view.opt("error") {
            problems.push(format!("{label}: 4.10 cannot open it: {}", e.str()));
            continue;
        }
        let file = purecdf::open(store).unwrap();
        let diffs = nczarr_expect::differences(&file, view.get("groups"), &label);
        for d in diffs {
            // 4.10 reads 4.9.0's attribute-type key as an attribute and infers types.
            let known = !exact_attributes && d.contains("attributes");
            if !known {
                problems.push(d);
            }
        }
        problems.extend(codec_differences(&file, view.get("codecs"), &label));
    }
    // 4.10 cannot open a store holding a `<U1` (char) or vlen-utf8 (string) array, which the
    // default layout writes as 4.9.0 does.
    if views
        .get(&with_text.display().to_string())
        .opt("error")
        .is_none()
    {
        problems.push("4.10 opened a default-layout store with char and string variables".into());
    }
    // What 4.10 makes of the default layout's attributes.
    let root = &views
        .get(&default.display().to_string())
        .get("groups")
        .arr()[0];
    let atts: Vec<(&str, &str)> = root
        .get("attributes")
        .arr()
        .iter()
        .map(|a| (a.get("name").str(), a.get("type").str()))
        .collect();
    for want in [
        ("_NCZARR_ATTR", "char"),
        ("f", "double"),
        ("strings", "char"),
    ] {
        if !atts.contains(&want) {
            problems.push(format!(
                "4.10 on the default layout: no {want:?} in {atts:?}"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// netcdf-c 4.10's layout, without Python: we read back what we wrote (chars `>S1`, strings
/// `|S128`, attribute types in `_nczarr_attr`), and a string longer than 128 bytes is refused
/// rather than cut short.
#[test]
fn nc410_layout_reads_back_and_refuses_long_strings() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("ours410.zarr");
    write_ours(
        &format!("file://{}#mode=nczarr,file,nc410", store.display()),
        true,
    );
    let zattrs = std::fs::read_to_string(store.join(".zattrs")).unwrap();
    assert!(
        zattrs.contains("\"_nczarr_attr\"") && !zattrs.contains("_NCZARR_ATTR"),
        "{zattrs}"
    );
    let zarray = std::fs::read_to_string(store.join("g/st/.zarray")).unwrap();
    assert!(zarray.contains("\"|S128\""), "{zarray}");
    let file = purecdf::open(&store).unwrap();
    let st = var_at(&file, "/g/st").unwrap();
    let got = file.variable_by_id(st).get_typed_values(..).unwrap();
    let long = "x".repeat(128);
    let want: Vec<Option<String>> = ["", "one", "th\u{e9}", long.as_str()]
        .iter()
        .map(|w| Some(w.to_string()))
        .collect();
    assert_eq!(got, Values::String(want));
    let c = var_at(&file, "/g/c").unwrap();
    assert_eq!(file.variable_by_id(c).nc_type(), NcType::Char);
    let f_att = file.schema().groups[0]
        .atts
        .iter()
        .find(|a| a.name == "f")
        .unwrap();
    assert_eq!(f_att.values, Values::Float(vec![0.5, -1.25]));
    // A string of 129 bytes does not fit.
    let url = format!(
        "file://{}#mode=nczarr,file,nc410",
        dir.path().join("long.zarr").display()
    );
    let mut f = purecdf::create_with(&url, purecdf::Format::Netcdf4).unwrap();
    let n = f.add_dimension("n", 1).unwrap().id();
    let v = f
        .add_variable_in(GroupId(0), "s", NcType::String, &[n])
        .unwrap();
    let put = f.put_raw_values(v, &Values::String(vec![Some("y".repeat(129))]), ..);
    let closed = put.and_then(|()| f.close());
    assert!(closed.is_err(), "a 129-byte string went into |S128");
}
