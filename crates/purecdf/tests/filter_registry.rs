//! User filters through `purecdf::filters`: registered filters write and read netCDF-4 data
//! (many chunks, so the parallel encode and decode pipelines run them), unknown filters refuse
//! reads with NC_ENOFILTER, built-in ids cannot be taken, and a filter that returns too much
//! gives an error. The registry is process-wide: every test here uses ids of its own.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::ThreadId;

use purecdf::filters::{
    register_filter, register_zarr_codec, registered_filters, unregister_filter,
    unregister_zarr_codec, Filter, FilterError, ZarrCodec,
};
use purecdf::ErrorKind;

/// XORs every byte with `key`; decoding appends `extra` zero bytes (a buggy decoder when not 0).
struct Xor {
    key: u8,
    extra: usize,
    calls: Arc<Calls>,
}

/// How many times the filter ran, and how many of those on another thread than the test's.
struct Calls {
    all: AtomicUsize,
    elsewhere: AtomicUsize,
    test_thread: ThreadId,
}

impl Calls {
    fn count(&self) {
        self.all.fetch_add(1, Ordering::Relaxed);
        if std::thread::current().id() != self.test_thread {
            self.elsewhere.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Filter for Xor {
    fn decode(&self, input: Vec<u8>, _max_out: usize) -> Result<Vec<u8>, FilterError> {
        self.calls.count();
        let mut out: Vec<u8> = input.into_iter().map(|b| b ^ self.key).collect();
        out.resize(out.len() + self.extra, 0);
        Ok(out)
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.calls.count();
        Ok(input.into_iter().map(|b| b ^ self.key).collect())
    }
}

/// Registers the XOR filter for `id`; the counter counts encodes and decodes.
fn register_xor(id: u32, extra: usize) -> Arc<Calls> {
    let calls = Arc::new(Calls {
        all: AtomicUsize::new(0),
        elsewhere: AtomicUsize::new(0),
        test_thread: std::thread::current().id(),
    });
    let c = calls.clone();
    register_filter(id, move |params: &[u32], _: usize| match params {
        [key] => Ok(Box::new(Xor {
            key: *key as u8,
            extra,
            calls: c.clone(),
        }) as Box<dyn Filter>),
        _ => Err(FilterError::BadParams(id as u16)),
    })
    .unwrap();
    calls
}

const ROWS: usize = 64;
const COLS: usize = 500;

fn data() -> Vec<f64> {
    (0..ROWS * COLS).map(|i| (i as f64).sqrt() - 7.25).collect()
}

/// A 64 x 500 double variable in 32 chunks of 4 x 250, filtered by `id` with key 0xa5.
fn write(path: &Path, id: u32) {
    let mut f = purecdf::create(path).unwrap();
    f.add_dimension("y", ROWS).unwrap();
    f.add_dimension("x", COLS).unwrap();
    let mut v = f.add_variable::<f64>("v", &["y", "x"]).unwrap();
    v.set_chunking(&[4, 250]).unwrap();
    v.set_filter(id, &[0xa5]).unwrap();
    v.put_values(&data(), ..).unwrap();
    f.close().unwrap();
}

#[test]
fn registered_filter_round_trips_many_chunks() {
    let calls = register_xor(40001, 0);
    assert!(purecdf::filter_available(40001));
    assert!(registered_filters().contains(&40001));
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("xor.nc");
    write(&p, 40001);
    let encodes = calls.all.load(Ordering::Relaxed);
    assert!(encodes >= 32, "{encodes} chunk encodes");
    // Chunks are encoded on rayon's pool, as with the built-in filters.
    assert!(calls.elsewhere.load(Ordering::Relaxed) > 0);
    // The stored chunks are XORed: the raw doubles are nowhere in the file.
    let raw = std::fs::read(&p).unwrap();
    let needle: Vec<u8> = data()[1000..1004]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert!(!raw.windows(needle.len()).any(|w| w == needle));

    let f = purecdf::open(&p).unwrap();
    let v = f.variable("v").unwrap();
    assert_eq!(v.filter_ids(), [40001]);
    assert_eq!(v.get_values::<f64, _>(..).unwrap(), data());
    assert!(calls.all.load(Ordering::Relaxed) >= encodes + 32);
    // A part of one chunk, and a part across chunks.
    assert_eq!(
        v.get_values::<f64, _>([5..6usize, 10..12]).unwrap(),
        data()[5 * COLS + 10..5 * COLS + 12]
    );
    let col: Vec<f64> = (0..ROWS).map(|r| data()[r * COLS + 499]).collect();
    assert_eq!(v.get_values::<f64, _>([0..ROWS, 499..500]).unwrap(), col);
}

#[test]
fn unknown_filter_refuses_reads_until_registered() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("unknown.nc");
    register_xor(40002, 0);
    write(&p, 40002);
    assert!(unregister_filter(40002));
    assert!(!unregister_filter(40002));
    assert!(!purecdf::filter_available(40002));

    // The header reads; the data is refused whole, as netcdf-c refuses it.
    let f = purecdf::open(&p).unwrap();
    let v = f.variable("v").unwrap();
    assert_eq!(v.filter_ids(), [40002]);
    for r in [
        v.get_values::<f64, _>(..),
        v.get_values::<f64, _>([0..1usize, 0..1]),
    ] {
        let e = r.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NoFilter);
        assert_eq!(e.kind().nc_code(), -136);
        assert_eq!(
            e.kind().to_string(),
            "NetCDF: Filter error: undefined filter encountered"
        );
    }
    // Nor can a variable be defined with it.
    let mut g = purecdf::create(dir.path().join("new.nc")).unwrap();
    g.add_dimension("x", 4).unwrap();
    let mut w = g.add_variable::<i32>("w", &["x"]).unwrap();
    assert_eq!(
        w.set_filter(40002, &[1]).unwrap_err().kind(),
        ErrorKind::NoFilter
    );
    drop(f);

    register_xor(40002, 0);
    let f = purecdf::open(&p).unwrap();
    assert_eq!(
        f.variable("v").unwrap().get_values::<f64, _>(..).unwrap(),
        data()
    );
}

#[test]
fn built_in_and_out_of_range_ids_are_refused() {
    let ok = |_: &[u32], _: usize| -> Result<Box<dyn Filter>, FilterError> {
        Err(FilterError::BadParams(0))
    };
    for id in [
        1, 2, 3, 4, 5, 6, 255, 307, 32000, 32001, 32004, 32008, 32015, 65536,
    ] {
        let e = register_filter(id, ok).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Filter, "{id}");
    }
    assert!(!unregister_filter(307));
    assert!(purecdf::filter_available(307));
    assert!(registered_filters()
        .iter()
        .all(|id| ![307, 32000, 32001, 32004, 32008, 32015].contains(id)));
}

#[test]
fn oversized_decode_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("long.nc");
    // Written correctly, then read by a decoder that returns a chunk and a megabyte more.
    register_xor(40003, 0);
    write(&p, 40003);
    register_xor(40003, 1 << 20);
    let f = purecdf::open(&p).unwrap();
    let v = f.variable("v").unwrap();
    for r in [
        v.get_values::<f64, _>(..),
        v.get_values::<f64, _>([0..1usize, 0..3]),
        v.get_values::<f64, _>([0..ROWS, 3..4]),
    ] {
        // netcdf-c's error when an HDF5 filter fails on read.
        assert_eq!(r.unwrap_err().kind(), ErrorKind::Hdf);
    }
    unregister_filter(40003);
}

/// The Zarr form of the XOR filter: `{"id": "xor-test", "key": K}`.
struct XorCodec;

impl ZarrCodec for XorCodec {
    fn codec_id(&self) -> &str {
        "xor-test"
    }
    fn params_to_codec(&self, params: &[u32]) -> Result<String, FilterError> {
        match params {
            [key] => Ok(format!(r#"{{"id":"xor-test","key":{key}}}"#)),
            _ => Err(FilterError::BadParams(0)),
        }
    }
    fn codec_to_params(&self, codec: &str) -> Result<Vec<u32>, FilterError> {
        let key = codec
            .split("\"key\":")
            .nth(1)
            .and_then(|k| k.trim_end_matches('}').trim().parse().ok());
        key.map(|k| vec![k]).ok_or(FilterError::BadParams(0))
    }
}

/// A registered filter with a registered Zarr form writes NCZarr stores: the `.zarray` names
/// the codec with its parameter, every chunk object holds the XOR of the raw little-endian
/// values, and the store reads back; without the codec (or the filter) the variable cannot be
/// defined, and reads fail with NC_ENOFILTER, as in netcdf-c.
#[test]
fn registered_filter_with_zarr_codec_writes_nczarr() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("xor.zarr");
    let url = format!("file://{}#mode=nczarr,file", store.display());
    register_xor(40010, 0);

    // The filter alone is not enough for NCZarr.
    let mut f = purecdf::create(&url).unwrap();
    f.add_dimension("y", ROWS).unwrap();
    f.add_dimension("x", COLS).unwrap();
    let mut v = f.add_variable::<f64>("v", &["y", "x"]).unwrap();
    v.set_chunking(&[4, 250]).unwrap();
    assert_eq!(
        v.set_filter(40010, &[0xa5]).unwrap_err().kind(),
        ErrorKind::NoFilter
    );
    drop(f);

    register_zarr_codec(40010, XorCodec).unwrap();
    let mut f = purecdf::create(&url).unwrap();
    f.add_dimension("y", ROWS).unwrap();
    f.add_dimension("x", COLS).unwrap();
    let mut v = f.add_variable::<f64>("v", &["y", "x"]).unwrap();
    v.set_chunking(&[4, 250]).unwrap();
    v.set_filter(40010, &[0xa5]).unwrap();
    v.put_values(&data(), ..).unwrap();
    f.close().unwrap();

    let zarray = std::fs::read_to_string(store.join("v/.zarray")).unwrap();
    assert!(
        zarray.contains(r#""compressor":{"id":"xor-test","key":165}"#),
        "{zarray}"
    );
    // Chunk (1, 1): rows 4..8, columns 250..500, XORed byte by byte.
    let stored = std::fs::read(store.join("v/1.1")).unwrap();
    let all = data();
    let raw: Vec<u8> = (4..8)
        .flat_map(|r| all[r * COLS + 250..r * COLS + 500].to_vec())
        .flat_map(f64::to_le_bytes)
        .collect();
    let unxored: Vec<u8> = stored.iter().map(|b| b ^ 0xa5).collect();
    assert_eq!(unxored, raw);

    let f = purecdf::open(&url).unwrap();
    let v = f.variable("v").unwrap();
    assert_eq!(v.filter_ids(), [40010]);
    assert_eq!(v.get_values::<f64, _>(..).unwrap(), data());
    drop(f);

    // Built-in codec ids and filter ids are refused, and so is another filter's codec id.
    assert!(register_zarr_codec(32015, XorCodec).is_err());
    assert!(register_zarr_codec(40011, XorCodec).is_err());
    assert!(register_zarr_codec(100, XorCodec).is_err());

    // Without the codec the store's variable is refused on read.
    assert!(unregister_zarr_codec(40010));
    let f = purecdf::open(&url).unwrap();
    let e = f
        .variable("v")
        .unwrap()
        .get_values::<f64, _>(..)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NoFilter);
}
