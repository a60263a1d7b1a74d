//! Zarr layouts that work but had no test (issue 10):
//!
//! * `noxarray_stores_have_no_array_dimensions`: a dataset written with `#mode=zarr,noxarray,file`
//!   and `#mode=nczarr,noxarray,file` has no `_ARRAY_DIMENSIONS` in any `.zattrs`, root or
//!   subgroup (the same dataset written without `noxarray` has them, so the check can fail), and
//!   zarr-python reads every value written.
//! * `zarr_python_zip_store_reads_as_its_directory_store`: zarr-python's `ZipStore` (entries at
//!   the archive's top, no directory named after the file; rewritten metadata appended as
//!   duplicate entries, of which the last is the current one) dumps exactly as the same dataset
//!   written by zarr-python to a directory, by plain path and by `#mode=zarr,zip` URL.
//!
//! A Python with zarr and numpy comes from `$PURECDF_PYTHON` or `python3`; without one the tests
//! skip, unless `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "../../purecdf-hdf5/tests/common/python.rs"]
mod python;

use std::path::Path;

use purecdf::{GroupId, NcType, Values};

/// Writes root `v(x)` int and `g/w(x)` double using the root's `x`, with attributes on both
/// groups and variables.
fn write(url: &str) {
    let root = GroupId(0);
    let mut f = purecdf::create_with(url, purecdf::Format::Netcdf4).unwrap();
    let x = f.add_dimension("x", 3).unwrap().id();
    f.add_attribute("title", "noxarray").unwrap();
    let v = f.add_variable_in(root, "v", NcType::Int, &[x]).unwrap();
    f.put_attribute(root, Some(v), "units", "m").unwrap();
    let g = f.add_group_in(root, "g").unwrap();
    f.put_attribute(g, None, "k", vec![2.5f64]).unwrap();
    let w = f.add_variable_in(g, "w", NcType::Double, &[x]).unwrap();
    f.put_attribute(g, Some(w), "long_name", "w").unwrap();
    f.put_raw_values(v, &Values::Int(vec![-7, 0, 2147483647]), ..)
        .unwrap();
    f.put_raw_values(w, &Values::Double(vec![0.5, -1.25, 1e300]), ..)
        .unwrap();
    f.close().unwrap();
}

/// Every `.zattrs` under `dir`, as (key relative to `dir`, text).
fn zattrs(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.file_name().is_some_and(|n| n == ".zattrs") {
                let key = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((key, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn noxarray_stores_have_no_array_dimensions() {
    let dir = tempfile::tempdir().unwrap();
    let mut stores = Vec::new();
    for mode in ["zarr,noxarray", "nczarr,noxarray", "zarr"] {
        let path = dir.path().join(format!("{}.zarr", mode.replace(',', "_")));
        write(&format!("file://{}#mode={mode},file", path.display()));
        let attrs = zattrs(&path);
        let keys: Vec<&str> = attrs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [".zattrs", "g/.zattrs", "g/w/.zattrs", "v/.zattrs"],
            "{mode}"
        );
        let with: Vec<&str> = attrs
            .iter()
            .filter(|(_, t)| t.contains("_ARRAY_DIMENSIONS"))
            .map(|(k, _)| k.as_str())
            .collect();
        if mode.contains("noxarray") {
            assert!(with.is_empty(), "{mode}: _ARRAY_DIMENSIONS in {with:?}");
        } else {
            assert_eq!(with, ["g/w/.zattrs", "v/.zattrs"], "{mode}");
        }
        // Our own reader reads it back.
        let f = purecdf::open(&path).unwrap();
        let v = f.variable("v").unwrap();
        assert_eq!(
            v.get_typed_values(..).unwrap(),
            Values::Int(vec![-7, 0, 2147483647])
        );
        stores.push(path);
    }
    let Some(py) = python::python_with("zarr, numpy") else {
        return;
    };
    let script = r#"
import sys, zarr
for p in sys.argv[1:]:
    root = zarr.open_group(p, mode="r", zarr_format=2)
    v = root["v"][:]
    w = root["g"]["w"][:]
    print(v.dtype.str, [int(a) for a in v], w.dtype.str, [float(a).hex() for a in w],
          root.attrs["title"], root["v"].attrs["units"], root["g"].attrs["k"])
"#;
    let args: Vec<&Path> = stores.iter().map(|p| p.as_path()).collect();
    let out = python::run_python(&py, script, &args);
    let want = "<i4 [-7, 0, 2147483647] <f8 ['0x1.0000000000000p-1', '-0x1.4000000000000p+0', \
                '0x1.7e43c8800759cp+996'] noxarray m 2.5\n";
    assert_eq!(out, want.repeat(3));
}

/// zarr-python writes the dataset to a `ZipStore` at argv[1] and a directory at argv[2]. Root
/// attributes set twice and array attributes set after creation leave duplicate `.zattrs`
/// entries in the zip.
const ZARR_PYTHON_STORES: &str = r#"
import sys, warnings, zarr, numpy as np
from zarr.storage import ZipStore, LocalStore
warnings.simplefilter("ignore")
def fill(store):
    root = zarr.open_group(store=store, mode="w", zarr_format=2)
    root.attrs["title"] = "first"
    root.attrs["title"] = "zip"
    root.attrs["n"] = 3
    v = root.create_array("v", shape=(2, 3), chunks=(1, 2), dtype="int32", fill_value=-1)
    v[:] = np.arange(6, dtype="int32").reshape(2, 3) * 10 - 7
    v.attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
    v.attrs["units"] = "m"
    g = root.create_group("g")
    g.attrs["k"] = 2.5
    w = g.create_array("w", shape=(3,), chunks=(2,), dtype="float64", fill_value=0.0)
    w[:] = [0.5, -1.25, 1e300]
    w.attrs["_ARRAY_DIMENSIONS"] = ["x"]
z = ZipStore(sys.argv[1], mode="w")
fill(z)
z.close()
fill(LocalStore(sys.argv[2]))
import zipfile
names = [i.filename for i in zipfile.ZipFile(sys.argv[1]).infolist()]
print(names.count(".zattrs"), names.count("v/.zattrs"), names[0])
"#;

const EXPECTED_CDL: &str = "netcdf zp {
dimensions:
\ty = 2 ;
\tx = 3 ;
variables:
\tint v(y, x) ;
\t\tv:units = \"m\" ;

// global attributes:
\t\t:title = \"zip\" ;
\t\t:n = 3 ;
data:

 v =
  -7, 3, 13,
  23, 33, 43 ;

group: g {
  dimensions:
  \tx = 3 ;
  variables:
  \tdouble w(x) ;

  // group attributes:
  \t\t:k = 2.5 ;
  data:

   w = 0.5, -1.25, 1e+300 ;
  } // group g
}
";

fn cdl(target: &str) -> String {
    let f = purecdf::open(target).unwrap_or_else(|e| panic!("{target}: {e}"));
    let mut out = Vec::new();
    purecdf::cdl::print::write_cdl(&f, &purecdf::cdl::print::DumpOptions::new("zp"), &mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn zarr_python_zip_store_reads_as_its_directory_store() {
    let Some(py) = python::python_with("zarr, numpy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("zp.zip");
    let tree = dir.path().join("zp.zarr");
    let out = python::run_python(&py, ZARR_PYTHON_STORES, &[&zip, &tree]);
    // The layout this test is about: duplicates, and no top directory.
    assert_eq!(out, "4 3 .zgroup\n");
    for target in [
        zip.display().to_string(),
        format!("file://{}#mode=zarr,zip", zip.display()),
        tree.display().to_string(),
    ] {
        assert_eq!(cdl(&target), EXPECTED_CDL, "{target}");
    }
}
