//! NCZarr stores written by netcdf-c itself, committed under `tests/data/nczarr/`:
//!
//! - `nc410/`: written by netCDF4-python's netcdf-c 4.10 (`#mode=nczarr,file`, lower-case
//!   `_nczarr_*` keys in `.zattrs`) with `nczarr/make_nc410.py`, whose `manifest.json` holds what
//!   netCDF4-python reads back: every group, dimension, attribute (with its netCDF type) and
//!   value. Each store is opened as a directory path and as a `file://...#mode=nczarr,file` URL
//!   and compared in full (`common/nczarr_expect.rs`).
//! - `nc490/`: written by netcdf-c 4.9.0's ncgen (upper-case `_NCZARR_*` keys) with
//!   `nczarr/make_nc490.sh`; purecdf-cli's `nczarr_reference` test compares our ncdump of them
//!   with 4.9.0's.

#[path = "common/json.rs"]
mod json;

#[path = "common/nczarr_expect.rs"]
mod nczarr_expect;

use std::path::Path;

use json::Json;

#[test]
fn netcdf_c_410_stores_read_as_netcdf4_python_reads_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nczarr/nc410");
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let manifest = Json::parse(&text).unwrap();
    let mut problems = Vec::new();
    for store in manifest.get("stores").arr() {
        nczarr_expect::check_store(
            &dir.join(store.get("name").str()),
            store.get("mode").str(),
            store.get("groups"),
            &mut problems,
        );
    }
    assert!(
        problems.is_empty(),
        "{} differences from netCDF4-python (netcdf-c 4.10):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
