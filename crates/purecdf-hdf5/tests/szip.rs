//! szip decoding against libaec's encoder: every dataset of tests/data/h5py_szip.h5 (see
//! make_szip_fixture.py) reads back as the formula that made it.

use std::sync::Arc;

use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::Hdf5File;

/// The values make_szip_fixture.py wrote, before the cast to each type.
fn formula(i: i64) -> i64 {
    let smooth = (i / 7) % 50;
    let zeros = i64::from((i / 300) % 3 != 0);
    let noise = (i * 2654435761) % 65536;
    if i % 1000 < 500 {
        smooth * zeros
    } else {
        noise
    }
}

fn element(b: &[u8], dt: &Datatype) -> f64 {
    let mut x = b.to_vec();
    let big = matches!(
        dt,
        Datatype::FixedPoint {
            big_endian: true,
            ..
        } | Datatype::FloatingPoint {
            big_endian: true,
            ..
        }
    );
    if big {
        x.reverse();
    }
    match (dt, x.len()) {
        (Datatype::FloatingPoint { .. }, 4) => {
            f64::from(f32::from_le_bytes(x[..4].try_into().unwrap()))
        }
        (Datatype::FloatingPoint { .. }, _) => f64::from_le_bytes(x[..8].try_into().unwrap()),
        (Datatype::FixedPoint { signed: true, .. }, 2) => {
            f64::from(i16::from_le_bytes(x[..2].try_into().unwrap()))
        }
        (Datatype::FixedPoint { signed: false, .. }, 2) => {
            f64::from(u16::from_le_bytes(x[..2].try_into().unwrap()))
        }
        (Datatype::FixedPoint { .. }, 1) => f64::from(x[0]),
        (Datatype::FixedPoint { .. }, 4) => {
            f64::from(i32::from_le_bytes(x[..4].try_into().unwrap()))
        }
        _ => i64::from_le_bytes(x[..8].try_into().unwrap()) as f64,
    }
}

#[test]
fn every_szip_dataset_decodes_exactly() {
    let src = FileSource::open(format!(
        "{}/tests/data/h5py_szip.h5",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let f = Hdf5File::open(Arc::new(src)).unwrap();
    let members = f.root().unwrap().members().unwrap();
    assert_eq!(members.len(), 18);
    for m in members {
        let ds = f.dataset(&m.name).unwrap();
        assert_eq!(ds.filters.filters[0].id, 4, "{}", m.name);
        let raw = ds.read_raw().unwrap_or_else(|e| panic!("{}: {e}", m.name));
        let es = ds.element_size() as usize;
        let is_float = matches!(ds.dtype, Datatype::FloatingPoint { .. });
        let modulus = 1i64 << (8 * es as u32 - 1).min(40);
        for (i, b) in raw.chunks(es).enumerate() {
            let want = if is_float {
                formula(i as i64) as f64 * 0.25
            } else {
                (formula(i as i64) % modulus) as f64
            };
            assert_eq!(element(b, &ds.dtype), want, "{} element {i}", m.name);
        }
    }
}

#[test]
fn corrupt_szip_chunks_fail_cleanly() {
    let src = FileSource::open(format!(
        "{}/tests/data/h5py_szip.h5",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let f = Hdf5File::open(Arc::new(src)).unwrap();
    let ds = f.dataset("le_i4_nn_8").unwrap();
    let c = &ds.chunks().unwrap()[0];
    let raw =
        purecdf_hdf5::io::ByteSource::read_range(f.source(), c.address, u64::from(c.size)).unwrap();
    let max = 20 * 15 * 4;
    for cut in 0..raw.len() {
        let _ = purecdf_hdf5::filter::decode_chunk(&ds.filters, 0, raw[..cut].to_vec(), max, 4);
    }
    for i in 0..raw.len() {
        let mut bad = raw.clone();
        bad[i] ^= 0xa5;
        if let Ok(d) = purecdf_hdf5::filter::decode_chunk(&ds.filters, 0, bad, max, 4) {
            assert!(d.len() <= max);
        }
    }
}
