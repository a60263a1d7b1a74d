//! Zarr version 3 stores (zarr-python 3's default), which netcdf-c does not read, written by
//! zarr-python (`tests/data/zarr_v3.py`, `tests/data/zarr_v3_sharded.py`): every numeric type,
//! booleans, strings, a scalar, groups, dimension names present and absent, chunks never
//! written (fill value NaN), and the codecs bytes (both byte orders), gzip, zstd (with its
//! checksum), blosc (byte and bit shuffle) and crc32c; and sharded arrays (the
//! `sharding_indexed` codec, Zarr v3 specification "Sharding codec"): shapes ending in partial
//! shards, the shard index at the end and at the start, transpose among the inner codecs, inner
//! chunks and a whole shard never written. Every value, type and dimension must read as
//! zarr-python reads it, by path and by URL, whole and through hyperslabs that touch only some
//! inner chunks of a shard.
//!
//! The sharded store is also committed (`tests/data/zarr_v3_sharded/`, made by that script) so
//! that `cargo test` covers sharding without Python. A Python with zarr comes from
//! `$PURECDF_PYTHON` or `python3`; without one the other tests skip, or fail under
//! `PURECDF_REQUIRE_REFERENCE=1`.

#[path = "../../purecdf-hdf5/tests/common/python.rs"]
mod python;

#[path = "common/json.rs"]
mod json;

#[path = "common/nczarr_expect.rs"]
mod nczarr_expect;

#[macro_use]
#[path = "common/wrapped_store.rs"]
mod wrapped_store;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use purecdf::Values;

/// One element of `values` as text that tells every value apart (floats by their bits).
fn element(values: &Values, i: usize) -> String {
    match values {
        Values::Float(v) => format!("f{:#x}", v[i].to_bits()),
        Values::Double(v) => format!("d{:#x}", v[i].to_bits()),
        Values::String(v) => format!("{:?}", v[i]),
        _ => format!("{:?}", values.get_i128(i)),
    }
}

/// Hyperslabs of an array of `shape`: (start, count, stride), each touching only part of a
/// shard or crossing shard edges.
fn slabs(shape: &[u64]) -> Vec<(Vec<u64>, Vec<u64>, Vec<u64>)> {
    let rank = shape.len();
    if rank == 0 {
        return Vec::new();
    }
    let mut out = vec![
        // The first element alone: one inner chunk of the first shard.
        (vec![0; rank], vec![1; rank], vec![1; rank]),
        // The last element alone: the partial edge shard.
        (
            shape.iter().map(|n| n - 1).collect(),
            vec![1; rank],
            vec![1; rank],
        ),
        // Every other element from 1: several inner chunks of every shard.
        (
            vec![1; rank],
            shape.iter().map(|n| n / 2).collect(),
            vec![2; rank],
        ),
    ];
    // A band across the middle of the outermost dimension, everything of the others.
    let mut count = shape.to_vec();
    count[0] = (shape[0] / 2).max(1);
    let mut start = vec![0; rank];
    start[0] = shape[0] - count[0];
    out.push((start, count, vec![1; rank]));
    out
}

/// Every difference between the arrays of store `path` and the manifest (at least `min_arrays`
/// of them), opened by path and by URL: types, dimensions, values whole and through hyperslabs.
fn check(path: &Path, manifest: &json::Json, min_arrays: usize) -> Vec<String> {
    let arrays = manifest.get("arrays").arr();
    assert!(arrays.len() >= min_arrays, "{} arrays", arrays.len());
    let mut problems = Vec::new();
    let url = format!("file://{}#mode=zarr,file", path.display());
    for target in [path.to_string_lossy().into_owned(), url] {
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
            let at = format!("{target} {path}");
            let (g, name) = match path.rsplit_once('/') {
                Some((g, n)) => (file.schema().find_group(purecdf::GroupId(0), g), n),
                None => (Some(purecdf::GroupId(0)), path),
            };
            let Some(vid) = g.and_then(|g| file.schema().find_var(g, name)) else {
                problems.push(format!("{at}: missing"));
                continue;
            };
            let var = file.variable_by_id(vid);
            let typ = var.nc_type().cdl_name().unwrap_or("?");
            if typ != a.get("type").str() {
                problems.push(format!(
                    "{at}: type {typ}, expected {}",
                    a.get("type").str()
                ));
            }
            let dims: Vec<String> = var.dimensions().iter().map(|d| d.name()).collect();
            let want: Vec<&str> = a.get("dims").arr().iter().map(json::Json::str).collect();
            if dims != want {
                problems.push(format!("{at}: dimensions {dims:?}, expected {want:?}"));
            }
            let shape: Vec<u64> = a.get("shape").arr().iter().map(json::Json::u64).collect();
            let whole = match var.get_typed_values(..) {
                Ok(v) => v,
                Err(e) => {
                    problems.push(format!("{at}: {e}"));
                    continue;
                }
            };
            if let Some(d) = nczarr_expect::compare(&whole, a.get("data")) {
                problems.push(format!("{at}: {d}"));
                continue;
            }
            for (start, count, stride) in slabs(&shape) {
                let got = match var.get_typed_values((&start[..], &count[..], &stride[..])) {
                    Ok(v) => v,
                    Err(e) => {
                        problems.push(format!("{at} {start:?} {count:?} {stride:?}: {e}"));
                        continue;
                    }
                };
                let n: u64 = count.iter().product();
                let mut want = Vec::new();
                for k in 0..n {
                    // The k-th selected element's index in the whole array.
                    let (mut rest, mut flat) = (k, 0u64);
                    let mut picked = vec![0u64; shape.len()];
                    for d in (0..shape.len()).rev() {
                        picked[d] = start[d] + rest % count[d] * stride[d];
                        rest /= count[d];
                    }
                    for d in 0..shape.len() {
                        flat = flat * shape[d] + picked[d];
                    }
                    want.push(element(&whole, flat as usize));
                }
                let got: Vec<String> = (0..got.len()).map(|i| element(&got, i)).collect();
                if got != want {
                    problems.push(format!(
                        "{at} {start:?} {count:?} {stride:?}: {got:?}, expected {want:?}"
                    ));
                }
            }
        }
    }
    problems
}

#[test]
fn committed_sharded_store_reads_as_zarr_python_read_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zarr_v3_sharded");
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    let manifest = json::Json::parse(&text).unwrap();
    let problems = check(&dir.join(manifest.get("store").str()), &manifest, 15);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A directory store that counts the bytes it hands out.
#[derive(Debug)]
struct Counting(purecdf::store::DirectoryStore, Arc<AtomicU64>);

impl purecdf::store::Store for Counting {
    fn get(&self, key: &str) -> purecdf::store::Result<Option<Vec<u8>>> {
        let got = self.0.get(key)?;
        let n = got.as_ref().map_or(0, Vec::len) as u64;
        self.1.fetch_add(n, Ordering::Relaxed);
        Ok(got)
    }
    fn get_range(
        &self,
        key: &str,
        range: purecdf::store::ByteRange,
    ) -> purecdf::store::Result<Option<(Vec<u8>, u64)>> {
        let got = self.0.get_range(key, range)?;
        let n = got.as_ref().map_or(0, |g| g.0.len()) as u64;
        self.1.fetch_add(n, Ordering::Relaxed);
        Ok(got)
    }
    fn reads_parts(&self) -> bool {
        self.0.reads_parts()
    }
    delegate_listing_and_writes!();
}

/// Reading one element of a sharded array from a directory reads the shard's index and that one
/// inner chunk, not the whole shard.
#[test]
fn one_element_reads_the_index_and_one_inner_chunk() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/zarr_v3_sharded/sharded.zarr");
    let count = Arc::new(AtomicU64::new(0));
    let store = purecdf::store::DirectoryStore::open(&dir, false).unwrap();
    let file = purecdf::open_store(Box::new(Counting(store, count.clone()))).unwrap();
    // int8, 5 x 7, shards of 4 x 6 holding inner chunks of 2 x 3, stored as plain bytes: the
    // first shard holds 4 inner chunks of 6 bytes and an index of 4 * 16 + 4 bytes.
    let v = file.variable("v_int8_plain_end").unwrap();
    let before = count.load(Ordering::Relaxed);
    let one: Vec<i8> = v.get_values((&[1usize, 1][..], &[1usize, 1][..])).unwrap();
    let read = count.load(Ordering::Relaxed) - before;
    assert_eq!(read, 68 + 6, "bytes read for one element");
    let shard = std::fs::metadata(dir.join("v_int8_plain_end/c/0/0"))
        .unwrap()
        .len();
    assert_eq!(shard, 4 * 6 + 68);
    let whole: Vec<i8> = v.get_values(..).unwrap();
    assert_eq!(one, vec![whole[7 + 1]]);
}

#[test]
fn zarr_python_sharded_stores_read_as_zarr_python_reads_them() {
    let Some(py) = python::python_with("zarr, numpy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let text = nczarr_expect::run_data_script(&py, "zarr_v3_sharded.py", &[dir.path().as_os_str()]);
    let manifest = json::Json::parse(&text).unwrap();
    let store = dir.path().join(manifest.get("store").str());
    let problems = check(&store, &manifest, 15);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Sharded arrays are read-only.
    match purecdf::append(format!("file://{}#mode=zarr,file", store.display())) {
        Ok(_) => panic!("opened a sharded store for writing"),
        Err(e) => assert_eq!(e.kind(), purecdf::ErrorKind::Perm, "{e}"),
    }
}

#[test]
fn zarr_python_v3_stores_read_as_zarr_python_reads_them() {
    let Some(py) = python::python_with("zarr, numpy") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let text = nczarr_expect::run_data_script(&py, "zarr_v3.py", &[dir.path().as_os_str()]);
    let manifest = json::Json::parse(&text).unwrap();
    let problems = check(&dir.path().join(manifest.get("store").str()), &manifest, 14);
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
