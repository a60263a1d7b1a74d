//! HDF4 SD fixtures (`tests/data/hdf4/`, made by `make.py` with pyhdf and hrepack) read through
//! `purecdf::open` (n-bit and little-endian ones written by `make_c.c`; `types.hdf`'s `grow`
//! stored as linked blocks, `external.hdf`'s data in `external.dat`) must give what pyhdf -- the HDF Group's own SD library -- reads from them
//! (`<fixture>.json`, written by `make.py`): every dataset's name, dimension names, shape,
//! attributes and values, the global attributes, and netcdf-c's type mapping. Needs no tools.

use std::path::{Path, PathBuf};

use purecdf::{NcType, Values};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hdf4")
        .join(name)
}

/// netcdf-c's `hdf4_type_info`: the netCDF type of an HDF4 number type code.
fn expected_type(code: u64) -> NcType {
    match code {
        4 => NcType::Char,
        3 | 21 => NcType::UByte,
        20 => NcType::Byte,
        22 => NcType::Short,
        23 => NcType::UShort,
        24 => NcType::Int,
        25 => NcType::UInt,
        5 => NcType::Float,
        6 => NcType::Double,
        other => panic!("unexpected HDF4 type {other}"),
    }
}

fn as_f64s(v: &Values) -> Vec<f64> {
    (0..v.len())
        .map(|i| {
            v.get_f64(i)
                .or_else(|| v.get_i128(i).map(|x| x as f64))
                .expect("numeric or char value")
        })
        .collect()
}

fn json_f64s(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

fn check_attributes<'a>(
    what: &str,
    got: impl Iterator<Item = purecdf::Attribute<'a>>,
    want: &Value,
    failures: &mut Vec<String>,
) {
    let got: Vec<_> = got.collect();
    let want = want.as_array().unwrap();
    if got.len() != want.len() {
        failures.push(format!(
            "{what}: {} attributes, pyhdf {}",
            got.len(),
            want.len()
        ));
        return;
    }
    for (g, w) in got.iter().zip(want) {
        let name = w["name"].as_str().unwrap();
        let typ = expected_type(w["type"].as_u64().unwrap() & 0x0fff);
        if g.name != name || g.values.nc_type() != typ {
            failures.push(format!(
                "{what}: attribute {} ({:?}), pyhdf {name} ({typ:?})",
                g.name,
                g.values.nc_type()
            ));
            continue;
        }
        let mut gv = as_f64s(&g.values);
        let wv = json_f64s(&w["values"]);
        if typ == NcType::Char {
            // pyhdf drops trailing NULs of strings.
            while gv.last() == Some(&0.0) && gv.len() > wv.len() {
                gv.pop();
            }
        }
        if gv != wv {
            failures.push(format!("{what}: attribute {name} = {gv:?}, pyhdf {wv:?}"));
        }
    }
}

fn check_fixture(name: &str) -> Vec<String> {
    let want: Value =
        serde_json::from_slice(&std::fs::read(data(&format!("{name}.json"))).unwrap()).unwrap();
    let f = purecdf::open(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(f.format(), purecdf::Format::Netcdf4);
    assert_eq!(f.extended_format(), purecdf::ExtendedFormat::Hdf4);
    let mut failures = Vec::new();
    check_attributes(name, f.attributes(), &want["attributes"], &mut failures);
    let sets = want["datasets"].as_array().unwrap();
    let vars: Vec<_> = f.variables().collect();
    assert_eq!(vars.len(), sets.len(), "{name}: number of datasets");
    for (v, w) in vars.iter().zip(sets) {
        let what = format!("{name}:{}", v.name());
        assert_eq!(
            v.name(),
            w["name"].as_str().unwrap(),
            "{name}: dataset order"
        );
        assert_eq!(
            v.nc_type(),
            expected_type(w["type"].as_u64().unwrap() & 0x0fff),
            "{what}"
        );
        let dims: Vec<&str> = v.dimensions().iter().map(|d| d.name_str()).collect();
        let wdims: Vec<&str> = w["dims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap())
            .collect();
        assert_eq!(dims, wdims, "{what}: dimensions");
        let shape: Vec<u64> = w["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(v.shape(), shape, "{what}: shape");
        check_attributes(&what, v.attributes(), &w["attributes"], &mut failures);
        match v.get_typed_values(..) {
            Ok(vals) => {
                let got = as_f64s(&vals);
                let exp = json_f64s(&w["values"]);
                if got != exp {
                    failures.push(format!("{what}: values differ from pyhdf's"));
                }
            }
            Err(e) => failures.push(format!("{what}: {e}")),
        }
    }
    failures
}

#[test]
fn every_fixture_reads_as_pyhdf_reads_it() {
    let mut failures = Vec::new();
    for name in [
        "dfsd.hdf",
        "external.hdf",
        "nbit_litend.hdf",
        "types.hdf",
        "compressed.hdf",
        "chunked.hdf",
        "chunked_gzip.hdf",
        "chunked_rle.hdf",
        "chunked_huff.hdf",
    ] {
        failures.extend(check_fixture(name));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn chunked_storage_is_reported() {
    let f = purecdf::open(data("chunked_gzip.hdf")).unwrap();
    let s = f.schema();
    let temp = s.var(f.variable("temp").unwrap().id());
    assert_eq!(temp.storage.chunk_sizes, Some(vec![2, 2]));
    let plain = s.var(f.variable("v_i8").unwrap().id());
    assert_eq!(plain.storage.chunk_sizes, None);
    assert_eq!(plain.storage.big_endian, Some(true));
}

#[test]
fn hyperslabs_with_strides_match_whole_reads() {
    for name in ["types.hdf", "chunked.hdf", "chunked_rle.hdf"] {
        let f = purecdf::open(data(name)).unwrap();
        for v in f.variables() {
            let shape = v.shape();
            if shape.len() < 2 || shape.iter().any(|&n| n < 2) {
                continue;
            }
            let all = as_f64s(&v.get_typed_values(..).unwrap());
            let start: Vec<u64> = shape.iter().map(|_| 1).collect();
            let count: Vec<u64> = shape.iter().map(|&n| (n - 1).div_ceil(2)).collect();
            let stride: Vec<u64> = shape.iter().map(|_| 2).collect();
            let got = as_f64s(
                &v.get_typed_values((&start[..], &count[..], &stride[..]))
                    .unwrap(),
            );
            // The same elements picked from the whole read.
            let mut want = Vec::new();
            let n: u64 = count.iter().product();
            for k in 0..n {
                let mut rem = k;
                let mut lin = 0u64;
                let mut idx = vec![0u64; shape.len()];
                for d in (0..shape.len()).rev() {
                    idx[d] = rem % count[d];
                    rem /= count[d];
                }
                for d in 0..shape.len() {
                    lin = lin * shape[d] + start[d] + idx[d] * stride[d];
                }
                want.push(all[lin as usize]);
            }
            assert_eq!(got, want, "{name}:{}", v.name());
        }
    }
}

/// `hdp dumpsds -d -n NAME FILE`: the values `hdp` (hdf4-tools) prints, as numbers.
fn hdp_values(file: &Path, name: &str) -> Option<Vec<f64>> {
    let out = std::process::Command::new("hdp")
        .args(["dumpsds", "-d", "-n", name])
        .arg(file)
        // HDF4 finds external files relative to the current directory.
        .current_dir(file.parent()?)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().map(|w| w.parse().ok()).collect()
}

/// Cross-checks the numeric datasets of every fixture against `hdp` at test time (the JSON files
/// were written offline). Skips without `hdp`; fails without it under
/// `PURECDF_REQUIRE_REFERENCE=1`.
#[test]
fn numeric_values_match_hdp() {
    if std::process::Command::new("hdp")
        .arg("-V")
        .output()
        .is_err()
    {
        assert!(
            std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() != Ok("1"),
            "hdp (hdf4-tools) is required (PURECDF_REQUIRE_REFERENCE=1)"
        );
        eprintln!("skipping: hdp not available");
        return;
    }
    let mut checked = 0;
    for name in [
        "external.hdf",
        "nbit_litend.hdf",
        "types.hdf",
        "chunked_gzip.hdf",
        "chunked_huff.hdf",
    ] {
        let f = purecdf::open(data(name)).unwrap();
        for v in f.variables() {
            if v.nc_type() == NcType::Char || v.is_empty() {
                continue;
            }
            let Some(want) = hdp_values(&data(name), v.name_str()) else {
                continue;
            };
            let got = as_f64s(&v.get_typed_values(..).unwrap());
            // hdp prints floats with 6 decimals.
            let close = got.len() == want.len()
                && got
                    .iter()
                    .zip(&want)
                    .all(|(g, w)| (g - w).abs() <= 1e-6 * g.abs().max(1.0));
            assert!(close, "{name}:{} differs from hdp", v.name());
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} datasets checked against hdp");
}
