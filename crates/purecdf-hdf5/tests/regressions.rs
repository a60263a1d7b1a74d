//! The wrong-data classes of issue 8 on a committed fixture (`tests/data/regressions.h5`, made
//! by `tests/data/make_regressions.py` with h5py; h5dump 1.10 reads the same values), so they
//! are tested without Python: extensible-array chunk indexes whose unlimited dimension is not
//! the first (chunks numbered over the maximum extent, HDF5 File Format Specification
//! IV.A.2.i/VII) or whose later data block is allocated before an earlier one, and Fletcher-32
//! checksums (sums starting at 0) of an all-zero chunk, an odd-length chunk and a chunk of
//! 0xFFFF words. `h5py_oracle.rs` checks the same against h5py at random.

use std::sync::Arc;

use purecdf_hdf5::format::messages::layout::{ChunkIndex, Layout};
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::Hdf5File;

fn open() -> Hdf5File {
    let path = format!("{}/tests/data/regressions.h5", env!("CARGO_MANIFEST_DIR"));
    Hdf5File::open(Arc::new(FileSource::open(path).unwrap())).unwrap()
}

fn is_extensible_array(layout: &Layout) -> bool {
    matches!(
        layout,
        Layout::Chunked {
            index: ChunkIndex::ExtensibleArray { .. },
            ..
        }
    )
}

#[test]
fn extensible_array_with_the_unlimited_dimension_last() {
    let f = open();
    let ds = f.dataset("ea_last").unwrap();
    assert!(is_extensible_array(&ds.layout), "{:?}", ds.layout);
    let raw = ds.read_raw().unwrap();
    let got: Vec<i32> = raw
        .chunks(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let want: Vec<i32> = (0..10)
        .flat_map(|i| (0..7).map(move |j| 100 * i + j))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn extensible_array_with_a_gap_before_its_last_block() {
    let f = open();
    let ds = f.dataset("ea_gap").unwrap();
    assert!(is_extensible_array(&ds.layout), "{:?}", ds.layout);
    let raw = ds.read_raw().unwrap();
    let got: Vec<i16> = raw
        .chunks(2)
        .map(|b| i16::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let want: Vec<i16> = (0..164)
        .map(|i| if (4..160).contains(&i) { 0 } else { i })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn fletcher32_zero_odd_and_saturated_chunks() {
    let f = open();
    let zero = f.dataset("fl_zero").unwrap().read_raw().unwrap();
    assert_eq!(zero, vec![0u8; 128]);
    let odd = f.dataset("fl_odd").unwrap().read_raw().unwrap();
    assert_eq!(odd, vec![0, 1, 2, 3, 4]);
    let big = f.dataset("fl_big").unwrap().read_raw().unwrap();
    assert_eq!(big.len(), 1 << 16);
    assert!(big.iter().all(|&b| b == 0xFF));
}
