//! Opening NCZarr and Zarr stores for writing (`purecdf::append`, netcdf-c's `nc_open` with
//! `NC_WRITE`): records added along an unlimited dimension, values changed in place, new
//! attributes and variables defined after `redef`; arrays already stored keep their codecs.
//! Our reader reads the result back, and so does zarr-python when it is there.

#[path = "../../purecdf-hdf5/tests/common/python.rs"]
mod python;

use purecdf::{NcType, Values};

#[test]
fn append_to_our_store() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "file://{}#mode=nczarr,file",
        dir.path().join("a.zarr").display()
    );
    {
        let mut f = purecdf::create_with(&url, purecdf::Format::Netcdf4).unwrap();
        let t = f.add_unlimited_dimension("t").unwrap().id();
        let x = f.add_dimension("x", 3).unwrap().id();
        let v = f
            .add_variable_in(purecdf::GroupId(0), "v", NcType::Int, &[t, x])
            .unwrap();
        f.def_var_deflate(v, true, Some(3)).unwrap();
        f.put_raw_values(v, &Values::Int(vec![1, 2, 3, 4, 5, 6]), [0..2, 0..3])
            .unwrap();
        f.close().unwrap();
    }
    {
        let mut f = purecdf::append(&url).unwrap();
        let v = f.variable("v").unwrap().id();
        f.put_raw_values(v, &Values::Int(vec![7, 8, 9]), [2..3, 0..3])
            .unwrap();
        f.put_raw_values(v, &Values::Int(vec![20]), [0..1, 1..2])
            .unwrap();
        f.redef().unwrap();
        f.add_attribute("history", "appended").unwrap();
        let w = f.add_variable::<f64>("w", &["x"]).unwrap().id();
        f.enddef().unwrap();
        f.put_raw_values(w, &Values::Double(vec![0.5, 1.5, 2.5]), ..)
            .unwrap();
        f.close().unwrap();
    }
    let f = purecdf::open(&url).unwrap();
    assert_eq!(f.dimension("t").unwrap().len, 3);
    assert_eq!(
        f.variable("v").unwrap().get_typed_values(..).unwrap(),
        Values::Int(vec![1, 20, 3, 4, 5, 6, 7, 8, 9])
    );
    assert_eq!(
        f.variable("w").unwrap().get_typed_values(..).unwrap(),
        Values::Double(vec![0.5, 1.5, 2.5])
    );
    assert_eq!(
        f.attribute("history").unwrap().values,
        Values::Char(b"appended".to_vec())
    );
    assert_eq!(f.variable("v").unwrap().filter_ids(), vec![2, 1]);
}

#[test]
fn append_to_a_zarr_python_store_keeps_its_codec() {
    let Some(py) = python::python_with("zarr, numcodecs, numpy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zp.zarr");
    python::run_python(
        &py,
        "import sys, zarr, numcodecs, numpy as np\n\
         g = zarr.open_group(sys.argv[1], mode='w', zarr_format=2)\n\
         a = g.create_array('a', shape=(6,), chunks=(4,), dtype='<i2', compressors=numcodecs.GZip(level=5), fill_value=-1)\n\
         a[:] = np.arange(6, dtype='<i2')\n\
         a.attrs['_ARRAY_DIMENSIONS'] = ['n']\n",
        &[&path],
    );
    let zarray_before = std::fs::read_to_string(path.join("a/.zarray")).unwrap();
    {
        let f = purecdf::append(path.to_str().unwrap()).unwrap();
        let a = f.variable("a").unwrap().id();
        f.put_raw_values(a, &Values::Short(vec![40, 50]), (&[4u64][..], &[2u64][..]))
            .unwrap();
        f.close().unwrap();
    }
    // Nothing but data changed: the metadata is as zarr-python wrote it.
    assert_eq!(
        std::fs::read_to_string(path.join("a/.zarray")).unwrap(),
        zarray_before
    );
    let text = python::run_python(
        &py,
        "import sys, zarr; print(list(zarr.open_group(sys.argv[1], mode='r', zarr_format=2)['a'][...]))",
        &[&path],
    );
    let got: Vec<String> = text
        .trim()
        .trim_matches(['[', ']'])
        .split(',')
        .map(|s| {
            s.trim()
                .trim_start_matches("np.int16(")
                .trim_end_matches(')')
                .to_string()
        })
        .collect();
    assert_eq!(got, ["0", "1", "2", "3", "40", "50"], "{text}");
}

/// What zarr-python prints for `exprs` (Python expressions of the group `g`), with the store at
/// `path` opened through its consolidated metadata only; `None` without zarr-python (a failure
/// under `PURECDF_REQUIRE_REFERENCE=1`).
fn consolidated_by_zarr_python(path: &std::path::Path, exprs: &str) -> Option<String> {
    let py = python::python_with("zarr")?;
    let code = format!(
        "import sys, zarr\ng = zarr.open_consolidated(sys.argv[1], mode='r', zarr_format=2)\nprint({exprs})"
    );
    Some(python::run_python(&py, &code, &[path]).trim().to_string())
}

/// Creates the store at `url` with dimension `x` of 2 and the int variable `v(x)` = 1, 2.
fn create_x_and_v(url: &str) {
    let mut f = purecdf::create_with(url, purecdf::Format::Netcdf4).unwrap();
    f.add_dimension("x", 2).unwrap();
    let v = f.add_variable::<i32>("v", &["x"]).unwrap().id();
    f.put_values(v, &[1, 2], ..).unwrap();
    f.close().unwrap();
}

/// Pure Zarr stores get their metadata consolidated in `.zmetadata`, the same objects as on disk
/// (rewritten when an append changes them); NCZarr stores get none (netcdf-c would leave it
/// stale).
#[test]
fn pure_zarr_stores_are_consolidated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.zarr");
    let url = format!("file://{}#mode=zarr,file", path.display());
    create_x_and_v(&url);
    {
        let mut f = purecdf::append(&url).unwrap();
        f.redef().unwrap();
        f.add_attribute("added", "later").unwrap();
        f.close().unwrap();
    }
    let text = std::fs::read_to_string(path.join(".zmetadata")).unwrap();
    let md: Vec<(String, String)> = {
        // Each "key": {object} of the metadata member, compared as text with the file.
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["zarr_consolidated_format"], 1);
        v["metadata"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, o)| (k.clone(), o.to_string()))
            .collect()
    };
    let keys: Vec<&str> = md.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, [".zgroup", ".zattrs", "v/.zarray", "v/.zattrs"]);
    for (k, o) in &md {
        let on_disk: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path.join(k)).unwrap()).unwrap();
        assert_eq!(&on_disk.to_string(), o, "{k}");
    }
    assert!(text.contains("\"added\":\"later\""), "{text}");
    let nczarr = dir.path().join("n.zarr");
    let mut f = purecdf::create_with(
        format!("file://{}#mode=nczarr,file", nczarr.display()),
        purecdf::Format::Netcdf4,
    )
    .unwrap();
    f.add_dimension("x", 2).unwrap();
    f.close().unwrap();
    assert!(!nczarr.join(".zmetadata").exists());
}

/// A consolidated store written to in NCZarr mode gets its `.zmetadata` rewritten too: left as
/// it was, zarr-python (and a `#mode=zarr` open) would read the old metadata through it and miss
/// what was added.
#[test]
fn nczarr_writes_keep_an_existing_zmetadata_current() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.zarr");
    let zarr = format!("file://{}#mode=zarr,file", path.display());
    let nczarr = format!("file://{}#mode=nczarr,file", path.display());
    create_x_and_v(&zarr);
    assert!(path.join(".zmetadata").exists());
    {
        let mut f = purecdf::append(&nczarr).unwrap();
        f.redef().unwrap();
        let w = f.add_variable::<f64>("w", &["x"]).unwrap().id();
        f.enddef().unwrap();
        f.put_values(w, &[0.25, 0.5], ..).unwrap();
        f.close().unwrap();
    }
    let text = std::fs::read_to_string(path.join(".zmetadata")).unwrap();
    assert!(text.contains("\"w/.zarray\""), "{text}");
    for url in [&zarr, &nczarr] {
        let f = purecdf::open(url).unwrap();
        let w: Vec<f64> = f.variable("w").expect(url).get_values(..).unwrap();
        assert_eq!(w, [0.25, 0.5], "{url}");
    }
    // zarr-python, reading through the consolidated metadata only, sees the new array too.
    if let Some(got) =
        consolidated_by_zarr_python(&path, "g['w'][...].tolist(), g['v'][...].tolist()")
    {
        assert_eq!(got, "[0.25, 0.5] [1, 2]");
    }
    // An NCZarr store given a `.zmetadata` by another tool: ours rewrites it with the rest.
    let path = dir.path().join("n.zarr");
    let nczarr = format!("file://{}#mode=nczarr,file", path.display());
    {
        let mut f = purecdf::create_with(&nczarr, purecdf::Format::Netcdf4).unwrap();
        f.add_dimension("x", 2).unwrap();
        f.close().unwrap();
    }
    assert!(!path.join(".zmetadata").exists());
    let old = r#"{"metadata":{".zgroup":{"zarr_format":2}},"zarr_consolidated_format":1}"#;
    std::fs::write(path.join(".zmetadata"), old).unwrap();
    {
        let mut f = purecdf::append(&nczarr).unwrap();
        f.redef().unwrap();
        f.add_variable::<f64>("w", &["x"]).unwrap();
        f.close().unwrap();
    }
    let text = std::fs::read_to_string(path.join(".zmetadata")).unwrap();
    assert!(
        text.contains("\"w/.zarray\"") && text.contains("_nczarr"),
        "{text}"
    );
    if let Some(got) =
        consolidated_by_zarr_python(&path, "sorted(g.array_keys()), g['w'][...].tolist()")
    {
        // Never written: netCDF's default double fill value.
        let fill = "9.969209968386869e+36";
        assert_eq!(got, format!("['w'] [{fill}, {fill}]"));
    }
    // A pure Zarr store whose root `.zattrs` changed after `.zmetadata` was written (by a
    // tool that does not consolidate): the stale copy is not used.
    let path = dir.path().join("c.zarr");
    let mut attrs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path.join(".zattrs")).unwrap()).unwrap();
    attrs["title"] = serde_json::json!("changed");
    std::fs::write(path.join(".zattrs"), attrs.to_string()).unwrap();
    let f = purecdf::open(&zarr).unwrap();
    assert_eq!(
        f.attribute("title").unwrap().values,
        Values::Char(b"changed".to_vec())
    );
    assert!(f.variable("w").is_some());
}
