//! Virtual datasets and external links read through the HDF5 layer, against the values h5py
//! (HDF5 2.0) reads from the files `tests/data/vds/gen_vds_fixtures.py` wrote.

use std::path::PathBuf;

use purecdf_hdf5::format::messages::layout::Layout;
use purecdf_hdf5::format::vds::{Selection, UNLIMITED};
use purecdf_hdf5::read::{Dataset, Hdf5File, Slab};

fn path(name: &str) -> PathBuf {
    PathBuf::from(format!(
        "{}/tests/data/vds/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
}

fn open(name: &str) -> Hdf5File {
    Hdf5File::open_path(&path(name)).unwrap()
}

fn ints<const N: usize>(b: &[u8], signed: bool) -> Vec<i64> {
    b.chunks(N)
        .map(|x| {
            let mut v = [0u8; 8];
            v[..N].copy_from_slice(x);
            let u = u64::from_le_bytes(v);
            let shift = 64 - 8 * N as u32;
            if signed {
                ((u << shift) as i64) >> shift
            } else {
                u as i64
            }
        })
        .collect()
}

#[test]
fn printf_sources_extend_the_extent() {
    let f = open("printf.h5");
    let ds = f.dataset("/frames").unwrap();
    assert!(matches!(ds.layout, Layout::Virtual { .. }));
    let m = ds.virtual_mappings().unwrap();
    assert_eq!(m[0].file, "printf_src_%b.h5");
    assert!(m[0].target.is_unlimited());
    // Stored extent 0 rows; three sources of 2 rows each make it 6.
    assert_eq!(ds.space.dims(), [6, 4]);
    let want: Vec<i64> = (0..3)
        .flat_map(|i| (0..8).map(move |k| 100 * i + k))
        .collect();
    assert_eq!(ints::<4>(&ds.read_raw().unwrap(), true), want);
    // A strided slab: rows 1, 3, 5, columns 2–3.
    let s = Slab {
        start: vec![1, 2],
        count: vec![3, 2],
        stride: vec![2, 1],
    };
    assert_eq!(
        ints::<4>(&ds.read_slab(&s).unwrap(), true),
        [6, 7, 106, 107, 206, 207]
    );
}

#[test]
fn unlimited_selections_follow_the_sources() {
    let ds = open("unlim.h5").dataset("/grow").unwrap();
    let m = ds.virtual_mappings().unwrap();
    assert!(matches!(&m[0].source, Selection::Regular(d) if d[0].count == UNLIMITED));
    assert_eq!(ds.space.dims(), [9]);
    assert_eq!(
        ints::<2>(&ds.read_raw().unwrap(), true),
        [10, 20, 11, 21, 12, 22, 13, -9, 14]
    );
}

#[test]
fn missing_sources_read_as_fill() {
    let ds = open("missing.h5").dataset("/part").unwrap();
    assert_eq!(
        ints::<8>(&ds.read_raw().unwrap(), true),
        [1, 2, 7, 7, 7, 7, 1, 2]
    );
}

#[test]
fn irregular_selections_and_conversion() {
    let ds = open("shapes.h5").dataset("/mixed").unwrap();
    let v: Vec<f64> = ds
        .read_raw()
        .unwrap()
        .chunks(8)
        .map(|x| f64::from_le_bytes(x.try_into().unwrap()))
        .collect();
    assert_eq!(
        v,
        [2.0, 3.0, 0.5, 0.5, 6.0, 7.0, 0.5, 0.5, 4.0, 0.5, 8.0, 5.0]
    );
}

#[test]
fn nested_virtual_datasets() {
    let ds = open("nested.h5").dataset("/outer").unwrap();
    assert_eq!(ds.read_raw().unwrap(), [0, 1, 2, 3]);
}

#[test]
fn heap_block_version_1() {
    let ds = open("bad/heap_v1.h5").dataset("/v").unwrap();
    assert_eq!(ints::<4>(&ds.read_raw().unwrap(), true), [0, 0, 1, 1, 2, 2]);
}

#[test]
fn a_virtual_dataset_reading_itself_is_an_error() {
    let ds = open("bad/self_ref.h5").dataset("/loop").unwrap();
    assert!(ds.read_raw().is_err());
}

#[test]
fn external_links_lead_to_other_files() {
    let f = open("elink_chain_a.h5");
    let root = f.superblock().root_object_header;
    // hop -> elink_chain_b.h5:/g; its soft link -> /g/last -> elink_chain_c.h5:/v.
    for p in ["/hop/soft", "hop/last"] {
        let (file, addr) = f.resolve_object(root, p).unwrap();
        assert_ne!(file.file_number(), 0);
        let ds = Dataset::load(&file, addr).unwrap();
        let v: Vec<f32> = ds
            .read_raw()
            .unwrap()
            .chunks(4)
            .map(|x| f32::from_le_bytes(x.try_into().unwrap()))
            .collect();
        assert_eq!(v, [1.5, 2.5]);
    }
    // Both lookups reached the same file: one family member each for b and c.
    let (c1, _) = f.resolve_object(root, "/hop/soft").unwrap();
    let (c2, _) = f.resolve_object(root, "/hop/last").unwrap();
    assert_eq!(c1.file_number(), c2.file_number());
    // Without following external links the path is an error.
    assert!(f.resolve_path(root, "/hop/last").is_err());
    // An absolute target name that does not exist falls back to its last component.
    let f = open("elink_abs.h5");
    let root = f.superblock().root_object_header;
    assert!(f.resolve_object(root, "/far").is_ok());
}

#[test]
fn hostile_links_fail_cleanly() {
    let f = open("elink_missing.h5");
    let root = f.superblock().root_object_header;
    assert!(f.resolve_object(root, "/gone").is_err());
    // a -> b:/ -> a:/ -> ...: the hop budget ends the walk.
    let f = open("bad/elink_cycle_a.h5");
    let root = f.superblock().root_object_header;
    let long = "/to_b/to_a".repeat(20);
    assert!(f.resolve_object(root, &long).is_err());
    assert!(f.resolve_object(root, "/to_b/to_a/to_b").is_ok());
}
