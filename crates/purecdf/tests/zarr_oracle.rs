//! zarr-python as the oracle for reading Zarr v2 stores (issue 10).
//!
//! `tests/data/zarr_oracle.py OUTDIR` writes, with zarr-python (`zarr_format=2`), stores covering
//! every numeric dtype in both byte orders, `|b1`, `|S1`/`|S5`, `<U4`/`>U2`, vlen-utf8 `|O`; the
//! compressors none, zlib, gzip, bz2, zstd, lz4 and blosc (lz4, zstd, blosclz, zlib, each without
//! shuffle, with byte shuffle and bit shuffle); the filters shuffle and fletcher32; fill values
//! number, NaN, ±Infinity and null; chunks never written; edge chunks; chunk key separators `.` and
//! `/`; order C and F; 0-d arrays; nested groups; `_ARRAY_DIMENSIONS` shared across arrays and
//! absent (`_Anonymous_Dim_<len>`); attributes of every JSON kind; consolidated metadata. Its
//! `manifest.json` says what each store must read as: data from zarr-python, netCDF names and
//! types from netCDF4-python's netcdf-c 4.10, and, per store, where and why we read differently
//! from netcdf-c 4.10 (`choices`). Each store is opened as a plain directory path and as a
//! `file://...#mode=zarr,file` URL, and compared in full (`common/nczarr_expect.rs`).
//!
//! A Python with zarr, numcodecs, numpy and netCDF4 comes from `$PURECDF_PYTHON` or `python3`;
//! without one the test skips, or fails under `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "../../purecdf-hdf5/tests/common/python.rs"]
mod python;

#[path = "common/json.rs"]
mod json;

#[path = "common/nczarr_expect.rs"]
mod nczarr_expect;

use json::Json;

#[test]
fn zarr_python_stores_read_as_the_manifest_says() {
    let Some(py) = python::python_with("zarr, numcodecs, numpy, netCDF4") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    nczarr_expect::run_data_script(&py, "zarr_oracle.py", &[dir.path().as_os_str()]);
    let text = std::fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    let manifest = Json::parse(&text).unwrap();
    let stores = manifest.get("stores").arr();
    assert!(stores.len() >= 10, "manifest lists {} stores", stores.len());
    let mut problems = Vec::new();
    for store in stores {
        nczarr_expect::check_store(
            &dir.path().join(store.get("name").str()),
            "zarr",
            store.get("groups"),
            &mut problems,
        );
    }
    assert!(
        problems.is_empty(),
        "{} differences from zarr-python / netcdf-c 4.10:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
