//! n-bit (5) and scale-offset (6) decoding against HDF5's own reading: every dataset of
//! tests/data/h5py_nbit.h5, h5py_scaleoffset.h5 (make_filter_fixtures.py, h5py / HDF5 2.0.0) and
//! h5c_scaleoffset_nofill.h5 (make_scaleoffset_nofill.c, HDF5 1.10.8) must read back as the bytes
//! HDF5 returned for it in the file datatype (filters_expected.txt), and corrupted chunks of them
//! must fail cleanly.

use std::collections::BTreeMap;
use std::sync::Arc;

use purecdf_hdf5::filter::{decode_chunk, NBIT, SCALEOFFSET};
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::Hdf5File;

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn open(name: &str) -> Hdf5File {
    Hdf5File::open(Arc::new(FileSource::open(data(name)).unwrap())).unwrap()
}

/// file → dataset → expected bytes.
fn expected() -> BTreeMap<String, BTreeMap<String, Vec<u8>>> {
    let text = std::fs::read_to_string(data("filters_expected.txt")).unwrap();
    let mut out: BTreeMap<String, BTreeMap<String, Vec<u8>>> = BTreeMap::new();
    for line in text.lines() {
        let mut it = line.split(' ');
        let (file, name, hex) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        let bytes = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        out.entry(file.to_string())
            .or_default()
            .insert(name.to_string(), bytes);
    }
    out
}

#[test]
fn every_dataset_reads_as_hdf5_reads_it() {
    let all = expected();
    let mut seen = 0;
    for (file, sets) in &all {
        let f = open(file);
        let names: Vec<String> = f
            .root()
            .unwrap()
            .members()
            .unwrap()
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(names.len(), sets.len(), "{file}");
        for (name, want) in sets {
            let ds = f.dataset(name).unwrap();
            let ids: Vec<u16> = ds.filters.filters.iter().map(|f| f.id).collect();
            assert!(
                ids.contains(&NBIT) || ids.contains(&SCALEOFFSET),
                "{file} {name}: {ids:?}"
            );
            let got = ds
                .read_raw()
                .unwrap_or_else(|e| panic!("{file} {name}: {e}"));
            assert_eq!(&got, want, "{file} {name}");
            seen += 1;
        }
    }
    assert_eq!(seen, 60);
}

#[test]
fn specific_values() {
    // Spot checks that do not go through the expected file.
    let f = open("h5py_nbit.h5");
    let raw = f.dataset("i32be_p12_o4").unwrap().read_raw().unwrap();
    // -1000 in 12 bits at offset 4, big-endian: 0xc18 << 4.
    assert_eq!(&raw[..4], &[0x00, 0x00, 0xc1, 0x80]);
    let f = open("h5c_scaleoffset_nofill.h5");
    let ds = f.dataset("int_beu2_same").unwrap();
    let raw = ds.read_raw().unwrap();
    assert_eq!(
        raw,
        [0x10, 0x92].repeat(12),
        "every value 4242: 0 bits each"
    );
    let ds = f.dataset("float_f4_nofill").unwrap();
    let raw = ds.read_raw().unwrap();
    let first = f32::from_le_bytes(raw[..4].try_into().unwrap());
    assert_eq!(first, -3.0);
}

#[test]
fn corrupt_chunks_fail_cleanly() {
    for (file, name) in [
        ("h5py_nbit.h5", "compound"),
        ("h5py_nbit.h5", "i64be_p40_o7"),
        ("h5py_scaleoffset.h5", "int_i8_fill"),
        ("h5py_scaleoffset.h5", "float_bef8_d4_fill"),
    ] {
        let f = open(file);
        let ds = f.dataset(name).unwrap();
        let c = &ds.chunks().unwrap()[0];
        let raw = f.source().read_range(c.address, u64::from(c.size)).unwrap();
        let es = ds.element_size() as usize;
        let max = ds.read_raw().unwrap().len().min(64 * es);
        for cut in 0..raw.len() {
            if let Ok(d) = decode_chunk(&ds.filters, 0, raw[..cut].to_vec(), max, es) {
                assert!(d.len() <= max);
            }
        }
        for i in 0..raw.len() {
            let mut bad = raw.clone();
            bad[i] ^= 0xa5;
            if let Ok(d) = decode_chunk(&ds.filters, 0, bad, max, es) {
                assert!(d.len() <= max);
            }
        }
        // Corrupt parameters are refused, never trusted.
        let mut pl = ds.filters.clone();
        for k in 0..pl.filters[0].client_data.len() {
            for v in [0, 1, 7, 64, u32::MAX] {
                pl.filters[0].client_data[k] = v;
                if let Ok(d) = decode_chunk(&pl, 0, raw.clone(), max, es) {
                    assert!(d.len() <= max);
                }
            }
        }
    }
}
