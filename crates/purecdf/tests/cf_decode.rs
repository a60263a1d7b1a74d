//! CF decoding (`Variable::get_decoded`) against xarray's default decoding (`mask_and_scale`)
//! and netCDF4-python's masked arrays (which also mask outside `valid_range`), on a file
//! netcdf-c's `ncgen` writes: packed integers with fill and missing values, floats with a fill
//! value, a valid range, plain data.
//!
//! Needs /usr/bin/ncgen and a Python with xarray and netCDF4 (`$PURECDF_PYTHON`); the test skips
//! without them, unless PURECDF_REQUIRE_REFERENCE=1, when it fails.

use std::path::PathBuf;
use std::process::Command;

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

fn unavailable(what: &str) -> Option<PathBuf> {
    assert!(
        !require(),
        "PURECDF_REQUIRE_REFERENCE=1 but {what} is missing"
    );
    eprintln!("skipping: no {what}");
    None
}

fn python() -> Option<PathBuf> {
    let py = std::env::var_os("PURECDF_PYTHON").map_or_else(|| "python3".into(), PathBuf::from);
    let ok = Command::new(&py)
        .args(["-c", "import xarray, netCDF4, numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some(py)
    } else {
        unavailable("Python with xarray, netCDF4 and numpy ($PURECDF_PYTHON)")
    }
}

const CDL: &str = r#"netcdf cf {
dimensions:
	x = 6 ;
variables:
	short packed(x) ;
		packed:scale_factor = 0.01 ;
		packed:add_offset = 20. ;
		packed:_FillValue = -32767s ;
		packed:missing_value = -999s ;
	byte small(x) ;
		small:scale_factor = 0.5 ;
		small:add_offset = 1. ;
		small:_FillValue = -127b ;
	float temp(x) ;
		temp:_FillValue = -1.e+30f ;
		temp:missing_value = -99.f, -98.f ;
	int counts(x) ;
		counts:valid_range = 0, 100 ;
	int capped(x) ;
		capped:valid_max = 10 ;
		capped:scale_factor = 2.5 ;
	double plain(x) ;
data:
 packed = 0, 1234, -32767, -999, -5, 32000 ;
 small = 0, 1, -127, 127, -100, 3 ;
 temp = 1.5, -1.e+30, -99, 3.25, -98, 0 ;
 counts = -5, 0, 50, 100, 101, 7 ;
 capped = 0, 10, 11, -3, 5, 100 ;
 plain = 1, 2.5, -3, 1e300, 0, 7 ;
}
"#;

const SCRIPT: &str = r#"
import sys, json
import numpy as np, xarray as xr, netCDF4
def listed(a):
    a = np.ma.asarray(a, dtype="float64").ravel()
    mask = np.ma.getmaskarray(a) | np.isnan(a.data)
    return [None if m else float(x) for x, m in zip(a.data, mask)]
ds = xr.open_dataset(sys.argv[1], decode_times=False)
nc = netCDF4.Dataset(sys.argv[1])
print(json.dumps({
    "xarray": {n: listed(ds[n].values) for n in ds.variables},
    "netCDF4": {n: listed(v[:]) for n, v in nc.variables.items()},
}))
"#;

#[test]
fn decoded_values_match_xarray_and_netcdf4_python() {
    let Some(py) = python() else { return };
    if !std::path::Path::new("/usr/bin/ncgen").is_file() {
        unavailable("/usr/bin/ncgen");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (cdl, nc) = (dir.path().join("cf.cdl"), dir.path().join("cf.nc"));
    std::fs::write(&cdl, CDL).unwrap();
    let st = Command::new("/usr/bin/ncgen")
        .args(["-k", "nc4", "-o"])
        .arg(&nc)
        .arg(&cdl)
        .status()
        .unwrap();
    assert!(st.success());
    let out = Command::new(py)
        .args(["-c", SCRIPT])
        .arg(&nc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();

    let file = purecdf::open(&nc).unwrap();
    let masked = |name: &str| -> Vec<bool> {
        let v = file.variable(name).unwrap().get_decoded_masked(..).unwrap();
        v.iter().map(Option::is_none).collect()
    };
    assert_eq!(masked("packed"), [false, false, true, true, false, false]);
    assert_eq!(masked("temp"), [false, true, true, false, true, false]);
    assert_eq!(masked("counts"), [true, false, false, false, true, false]);
    assert_eq!(masked("capped"), [false, false, true, false, false, true]);
    let packed = file.variable("packed").unwrap().get_decoded(1).unwrap();
    assert_eq!(packed, [1234.0 * 0.01 + 20.0]);
    for var in file.variables() {
        let ours = var.get_decoded_masked(..).unwrap();
        let want = |lib: &str| -> Vec<Option<f64>> {
            theirs[lib][var.name()]
                .as_array()
                .unwrap()
                .iter()
                .map(serde_json::Value::as_f64)
                .collect()
        };
        // xarray leaves values outside a valid range alone; netCDF4-python masks them.
        if !matches!(var.name_str(), "counts" | "capped") {
            assert_eq!(ours, want("xarray"), "{} against xarray", var.name());
        }
        assert_eq!(
            ours,
            want("netCDF4"),
            "{} against netCDF4-python",
            var.name()
        );
        let nan = var.get_decoded(..).unwrap();
        assert!(ours
            .iter()
            .zip(&nan)
            .all(|(o, n)| o.map_or(n.is_nan(), |o| o == *n)));
    }
}
