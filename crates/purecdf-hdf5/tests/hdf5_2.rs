//! A file written by HDF5 2.0.0 under libver "latest" (`tests/data/h5py_latest.h5`, made by
//! `h5py_oracle.py latest`): data layout message version 5 on the filtered chunked datasets
//! (HDF5 File Format Specification, section IV.A.2.i) and datatype message version 5 with the
//! complex class 11 (section IV.A.2.d). Values are what h5py read from the file; the h5py oracle
//! test checks freshly written files of the same recipe against h5py itself.

use std::sync::Arc;

use purecdf_hdf5::format::messages::attribute::TypeRef;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::format::object_header::MessageType;
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::{Dataset, Hdf5File};

fn open() -> Hdf5File {
    let path = format!("{}/tests/data/h5py_latest.h5", env!("CARGO_MANIFEST_DIR"));
    Hdf5File::open(Arc::new(FileSource::open(path).unwrap())).unwrap()
}

fn layout_version(ds: &Dataset) -> u8 {
    let m = ds.header().messages.iter();
    m.filter(|m| m.mtype == MessageType::LAYOUT)
        .map(|m| m.data[0])
        .next()
        .unwrap()
}

#[test]
fn layout_version_5_datasets() {
    let f = open();
    let read = |name: &str| {
        let ds = f.dataset(name).unwrap();
        assert_eq!(layout_version(&ds), 5, "{name}");
        ds.read_raw().unwrap()
    };
    let i16s: Vec<i16> = read("chunked_gzip_i2")
        .chunks(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(i16s, (-30..30).collect::<Vec<i16>>());
    let u32s: Vec<u32> = read("chunked_shuffle_unlim")
        .chunks(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(u32s, (0..40).collect::<Vec<u32>>());
    let f32s: Vec<f32> = read("chunked_bt2_fletcher")
        .chunks(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(f32s, (0..24u8).map(f32::from).collect::<Vec<_>>());
    let i64s: Vec<i64> = read("big_endian_i8")
        .chunks(8)
        .map(|b| i64::from_be_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(i64s, [-2, -1, 0, 1, 2]);
}

#[test]
fn complex_numbers() {
    let f = open();
    let ds = f.dataset("complex_f64be").unwrap();
    let Datatype::Complex { size: 16, base } = &ds.dtype else {
        panic!("{:?}", ds.dtype)
    };
    assert!(matches!(
        **base,
        Datatype::FloatingPoint {
            size: 8,
            big_endian: true,
            ..
        }
    ));
    let raw = ds.read_raw().unwrap();
    let parts: Vec<f64> = raw
        .chunks(8)
        .map(|b| f64::from_be_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(parts[..2], [1.0428754765829538, 1.0988127684144084]);
    assert_eq!(parts[8..], [0.24754574096284754, -1.7340148462328515]);
    let ds = f.dataset("complex_f64le_chunked").unwrap();
    assert_eq!(layout_version(&ds), 5);
    let raw = ds.read_raw().unwrap();
    let first = f64::from_le_bytes(raw[..8].try_into().unwrap());
    assert_eq!(first, 0.1264345551969962);
    let attrs = f.root().unwrap().attributes().unwrap();
    let a = attrs.iter().find(|a| a.name == "complex_attr").unwrap();
    assert!(matches!(
        &a.dtype,
        TypeRef::Inline(Datatype::Complex { size: 16, .. })
    ));
    let re = f64::from_le_bytes(a.data[..8].try_into().unwrap());
    let im = f64::from_le_bytes(a.data[8..].try_into().unwrap());
    assert_eq!((re, im), (5.0, -6.0));
}
