//! Zarr version 3 stores (zarr-python 3's default), which netcdf-c does not read: every numeric
//! type, booleans, strings, a scalar, groups, dimension names present and absent, chunks never
//! written (fill value NaN), and the codecs bytes (both byte orders), gzip, zstd (with its
//! checksum), blosc (byte and bit shuffle) and crc32c, written by zarr-python; every value, type
//! and dimension must read as zarr-python reads it, by path and by URL.
//!
//! A Python with zarr comes from `$PURECDF_PYTHON` or `python3`; without one the test skips,
//! or fails under `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "../../purecdf-hdf5/tests/common/python.rs"]
mod python;

#[path = "common/json.rs"]
mod json;

#[path = "common/nczarr_expect.rs"]
mod nczarr_expect;

#[test]
fn zarr_python_v3_stores_read_as_zarr_python_reads_them() {
    let Some(py) = python::python_with("zarr, numpy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let text = nczarr_expect::run_data_script(&py, "zarr_v3.py", &[dir.path().as_os_str()]);
    let manifest = json::Json::parse(&text).unwrap();
    let store = manifest.get("store").str().to_owned();
    let arrays = manifest.get("arrays").arr();
    assert!(arrays.len() >= 14, "{} arrays", arrays.len());
    let mut problems = Vec::new();
    for target in [store.clone(), format!("file://{store}#mode=zarr,file")] {
        let file = match purecdf::open(&target) {
            Ok(f) => f,
            Err(e) => {
                problems.push(format!("{target}: {e}"));
                continue;
            }
        };
        assert_eq!(file.extended_format(), purecdf::ExtendedFormat::Nczarr);
        for a in arrays {
            let path = a.get("path").str();
            let (g, name) = match path.rsplit_once('/') {
                Some((g, n)) => (file.schema().find_group(purecdf::GroupId(0), g), n),
                None => (Some(purecdf::GroupId(0)), path),
            };
            let Some(vid) = g.and_then(|g| file.schema().find_var(g, name)) else {
                problems.push(format!("{target} {path}: missing"));
                continue;
            };
            let var = file.variable_by_id(vid);
            let typ = var.nc_type().cdl_name().unwrap_or("?");
            if typ != a.get("type").str() {
                problems.push(format!(
                    "{target} {path}: type {typ}, expected {}",
                    a.get("type").str()
                ));
            }
            let dims: Vec<&str> = var.dimensions().iter().map(|d| d.name_str()).collect();
            let want: Vec<&str> = a.get("dims").arr().iter().map(json::Json::str).collect();
            if dims != want {
                problems.push(format!(
                    "{target} {path}: dimensions {dims:?}, expected {want:?}"
                ));
            }
            match var.get_typed_values(..) {
                Ok(v) => {
                    if let Some(d) = nczarr_expect::compare(&v, a.get("data")) {
                        problems.push(format!("{target} {path}: {d}"));
                    }
                }
                Err(e) => problems.push(format!("{target} {path}: {e}")),
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
