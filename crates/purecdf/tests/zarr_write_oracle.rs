//! Stores we write, read back by zarr-python and netCDF4-python (issue 10): every numeric type
//! and strings, chunks with partial edges, a scalar, an unlimited dimension grown by writes,
//! groups using their parents' dimensions, fill values (NaN included) for chunks never written,
//! and the filters deflate+shuffle, fletcher32, bzip2, zstd, blosc and lz4. Each value zarr-python
//! reads must be the value written; netCDF4-python (netcdf-c 4.10, which reads our stores'
//! lower-case NCZarr keys) must see the same dimensions and data. Our own reader must read the
//! stores back too. The same dataset is also written as a zip archive (netcdf-c's layout, our
//! `ZipStore`), which zarr-python reads through its own `ZipStore`.
//!
//! A Python with zarr, numcodecs, numpy and netCDF4 comes from `$PURECDF_PYTHON` or `python3`;
//! without one only our own reading is checked, unless `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "../../purecdf-hdf5/tests/common/python.rs"]
mod python;

#[path = "common/json.rs"]
mod json;

#[path = "common/nczarr_expect.rs"]
mod nczarr_expect;

use std::path::Path;
use std::process::Command;

use purecdf::{Chunking, NcType, Values};

/// One variable written: its path in the store, dimension names and the values (C order),
/// `fill` giving what never-written elements read as.
struct Written {
    path: &'static str,
    dims: Vec<&'static str>,
    values: Values,
}

fn write_store(url: &str) -> Vec<Written> {
    let mut f = purecdf::create_with(url, purecdf::Format::Netcdf4).unwrap();
    let root = purecdf::GroupId(0);
    let x = f.add_dimension("x", 5).unwrap().id();
    let y = f.add_dimension("y", 7).unwrap().id();
    let t = f.add_unlimited_dimension("t").unwrap().id();
    f.add_attribute("title", "written by purecdf").unwrap();
    f.add_attribute("pi", vec![std::f64::consts::PI]).unwrap();
    let mut out = Vec::new();
    let n = 35usize;
    let types: [(&str, NcType, Values); 10] = [
        (
            "v_i1",
            NcType::Byte,
            Values::Byte((0..n).map(|i| i as i8 - 17).collect()),
        ),
        (
            "v_u1",
            NcType::UByte,
            Values::UByte((0..n).map(|i| (i * 7) as u8).collect()),
        ),
        (
            "v_i2",
            NcType::Short,
            Values::Short((0..n).map(|i| i as i16 * -300).collect()),
        ),
        (
            "v_u2",
            NcType::UShort,
            Values::UShort((0..n).map(|i| (i * 1800) as u16).collect()),
        ),
        (
            "v_i4",
            NcType::Int,
            Values::Int(
                (0..n)
                    .map(|i| (i as i32).wrapping_mul(-70_000_001))
                    .collect(),
            ),
        ),
        (
            "v_u4",
            NcType::UInt,
            Values::UInt(
                (0..n)
                    .map(|i| (i as u32).wrapping_mul(100_000_007))
                    .collect(),
            ),
        ),
        (
            "v_i8",
            NcType::Int64,
            Values::Int64((0..n).map(|i| i64::MIN + 2 + i as i64).collect()),
        ),
        (
            "v_u8",
            NcType::UInt64,
            Values::UInt64((0..n).map(|i| u64::MAX - i as u64).collect()),
        ),
        (
            "v_f4",
            NcType::Float,
            Values::Float((0..n).map(|i| i as f32 * 0.1 - 1.5).collect()),
        ),
        (
            "v_f8",
            NcType::Double,
            Values::Double((0..n).map(|i| i as f64 / 3.0).collect()),
        ),
    ];
    let filters: [&[(u32, &[u32])]; 10] = [
        &[],
        &[(1, &[5]), (2, &[])],
        &[(3, &[])],
        &[(307, &[9])],
        &[(32015, &[3])],
        &[(32001, &[2, 2, 4, 0, 5, 1, 1])],
        &[(32004, &[])],
        &[(2, &[]), (32015, &[1])],
        &[(32001, &[2, 2, 4, 0, 9, 2, 5])],
        &[(1, &[1])],
    ];
    for ((name, typ, values), fl) in types.into_iter().zip(filters) {
        let v = f.add_variable_in(root, name, typ, &[x, y]).unwrap();
        f.def_var_chunking(v, Chunking::Chunked(vec![2, 3]))
            .unwrap();
        for (id, params) in fl {
            f.def_var_filter(v, *id, params).unwrap();
        }
        f.put_attribute(
            root,
            Some(v),
            "long_name",
            format!("variable {name}").as_str(),
        )
        .unwrap();
        f.put_raw_values(v, &values, ..).unwrap();
        out.push(Written {
            path: name,
            dims: vec!["x", "y"],
            values,
        });
    }
    // Chunks never written read as the fill value: NaN for this float.
    let sparse = f
        .add_variable_in(root, "sparse", NcType::Float, &[x, y])
        .unwrap();
    f.def_var_chunking(sparse, Chunking::Chunked(vec![2, 2]))
        .unwrap();
    f.put_attribute(root, Some(sparse), "_FillValue", vec![f32::NAN])
        .unwrap();
    f.put_raw_values(sparse, &Values::Float(vec![1.0, 2.0]), [0..1, 0..2])
        .unwrap();
    let mut sv = vec![f32::NAN; n];
    sv[0] = 1.0;
    sv[1] = 2.0;
    out.push(Written {
        path: "sparse",
        dims: vec!["x", "y"],
        values: Values::Float(sv),
    });
    let s = f
        .add_variable_in(root, "scalar", NcType::Double, &[])
        .unwrap();
    f.put_raw_values(s, &Values::Double(vec![2.5]), ..).unwrap();
    out.push(Written {
        path: "scalar",
        dims: vec![],
        values: Values::Double(vec![2.5]),
    });
    let rec = f
        .add_variable_in(root, "rec", NcType::Int, &[t, x])
        .unwrap();
    f.put_raw_values(rec, &Values::Int((0..15).collect()), [0..3, 0..5])
        .unwrap();
    out.push(Written {
        path: "rec",
        dims: vec!["t", "x"],
        values: Values::Int((0..15).collect()),
    });
    let g = f.add_group_in(root, "g").unwrap();
    let z = f.add_dimension_in(g, "z", 3, false).unwrap();
    let gv = f.add_variable_in(g, "gv", NcType::Short, &[x, z]).unwrap();
    f.def_var_deflate(gv, true, Some(4)).unwrap();
    f.put_raw_values(gv, &Values::Short((0..15).collect()), ..)
        .unwrap();
    out.push(Written {
        path: "g/gv",
        dims: vec!["x", "z"],
        values: Values::Short((0..15).collect()),
    });
    f.close().unwrap();
    out
}

/// Strings are `|O` arrays with the `vlen-utf8` codec, as zarr-python and xarray write them
/// (netcdf-c 4.10 refuses to open a store holding one, so they get a store of their own).
fn write_strings(url: &str) -> Vec<Written> {
    let mut f = purecdf::create_with(url, purecdf::Format::Netcdf4).unwrap();
    let x = f.add_dimension("x", 5).unwrap().id();
    let strs = f
        .add_variable_in(purecdf::GroupId(0), "names", NcType::String, &[x])
        .unwrap();
    f.def_var_chunking(strs, Chunking::Chunked(vec![2]))
        .unwrap();
    let names: Vec<Option<String>> = ["a", "bb", "", "dddd", "é"]
        .iter()
        .map(|s| Some(s.to_string()))
        .collect();
    f.put_raw_values(strs, &Values::String(names.clone()), ..)
        .unwrap();
    f.close().unwrap();
    vec![Written {
        path: "names",
        dims: vec!["x"],
        values: Values::String(names),
    }]
}

#[test]
fn our_stores_read_back_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("ours.zarr");
    let strings = dir.path().join("strings.zarr");
    let zipped = dir.path().join("zipped.zip");
    let stores = [
        (
            main.clone(),
            "nczarr",
            write_store(&format!("file://{}#mode=nczarr,file", main.display())),
        ),
        (
            strings.clone(),
            "zarr",
            write_strings(&format!("file://{}#mode=nczarr,file", strings.display())),
        ),
        // The same dataset in a zip archive written by our ZipStore.
        (
            zipped.clone(),
            "zarr",
            write_store(&format!("file://{}#mode=nczarr,zip", zipped.display())),
        ),
    ];
    let mut problems = Vec::new();
    for (path, _, written) in &stores {
        // Our own reader, by URL and by path.
        // No storage word: a `.zip` path is a zip store, anything else a directory.
        let url = format!("file://{}#mode=nczarr", path.display());
        for target in [url, path.display().to_string()] {
            let file = purecdf::open(&target).unwrap();
            for w in written {
                let (g, name) = match w.path.rsplit_once('/') {
                    Some((g, n)) => (file.schema().find_group(purecdf::GroupId(0), g).unwrap(), n),
                    None => (purecdf::GroupId(0), w.path),
                };
                let vid = file.schema().find_var(g, name).unwrap();
                let got = file.variable_by_id(vid).get_typed_values(..).unwrap();
                if !same_values(&got, &w.values) {
                    problems.push(format!("{target} {}: ours read {got:?}", w.path));
                }
            }
        }
    }
    let Some(py) = python::python_with("zarr, numcodecs, numpy, netCDF4") else {
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zarr_read_back.py");
    let mut cmd = Command::new(&py);
    cmd.arg(&script);
    for (path, mode, _) in &stores {
        cmd.arg(path).arg(mode);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "zarr_read_back.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let all = json::Json::parse(&text).unwrap();
    for (path, mode, written) in &stores {
        let entry = all.get(&path.display().to_string());
        let mut readers = vec![("zarr-python", entry.get("zarr"))];
        if *mode == "nczarr" {
            readers.push(("netCDF4", entry.get("netcdf4")));
        }
        for (reader, view) in readers {
            for w in written {
                let Some(v) = view.opt(w.path) else {
                    problems.push(format!("{reader}: {} missing", w.path));
                    continue;
                };
                // netcdf-c 4.10 has no numcodecs lz4 codec (NC_ENOFILTER reading `v_i8`).
                if reader == "netCDF4" && w.path == "v_i8" {
                    if v.opt("error").is_none() {
                        problems.push("netCDF4 v_i8: read lz4 data it has no codec for".into());
                    }
                } else if let Some(e) = v.opt("error") {
                    problems.push(format!("{reader} {}: {}", w.path, e.str()));
                } else if let Some(d) = nczarr_expect::compare(&w.values, v.get("data")) {
                    problems.push(format!("{reader} {}: {d}", w.path));
                }
                if reader == "netCDF4" {
                    let dims: Vec<&str> = v.get("dims").arr().iter().map(json::Json::str).collect();
                    if dims != w.dims {
                        problems.push(format!(
                            "netCDF4 {}: dimensions {dims:?}, expected {:?}",
                            w.path, w.dims
                        ));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn same_values(a: &Values, b: &Values) -> bool {
    match (a, b) {
        (Values::Float(x), Values::Float(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan()))
        }
        _ => a == b,
    }
}
