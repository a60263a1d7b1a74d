//! What only old HDF5 writers produce, in fixtures made by `tests/data/make_old_layouts.py`
//! (h5py under libver "earliest", then patched): data layout messages of versions 1 and 2,
//! contiguous and chunked (section IV.A.2.i of the HDF5 File Format Specification), and
//! attributes spread over continuation blocks that must be followed first in, first out (section
//! IV.A.1.a; libhdf5 and netcdf-c list attributes in that order). The expected values are what
//! h5py (HDF5 2.0.0), h5dump (HDF5 1.10.8) and netcdf-c's ncdump read from these files; the CLI's
//! `hdf5_old_formats` test compares whole ncdump output, live when netcdf-c is installed.

use std::sync::Arc;

use purecdf_hdf5::format::messages::layout::{ChunkIndex, Layout};
use purecdf_hdf5::format::object_header::MessageType;
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::{Dataset, Hdf5File};

fn open(name: &str) -> Hdf5File {
    let src =
        FileSource::open(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    Hdf5File::open(Arc::new(src)).unwrap()
}

/// The version byte of `ds`'s layout message.
fn layout_version(ds: &Dataset) -> u8 {
    let m = ds
        .header()
        .messages
        .iter()
        .find(|m| m.mtype == MessageType::LAYOUT)
        .unwrap();
    m.data[0]
}

fn values<const N: usize, T>(raw: &[u8], from: fn([u8; N]) -> T) -> Vec<T> {
    raw.chunks(N).map(|b| from(b.try_into().unwrap())).collect()
}

#[test]
fn layout_versions_1_and_2_contiguous() {
    let f = open("old_layouts.h5");
    for (name, version, want) in [
        ("contig_v1", 1, [3, -1, 4, 1, -5]),
        ("contig_v2", 2, [9, 2, -6, 5, 3]),
    ] {
        let ds = f.dataset(name).unwrap();
        assert_eq!(layout_version(&ds), version, "{name}");
        // Rank + 1 sizes: 5 elements of 4 bytes.
        assert!(
            matches!(
                ds.layout,
                Layout::Contiguous {
                    address: Some(_),
                    size: 20
                }
            ),
            "{name}: {:?}",
            ds.layout
        );
        assert_eq!(
            values(&ds.read_raw().unwrap(), i32::from_le_bytes),
            want,
            "{name}"
        );
    }
}

#[test]
fn layout_versions_1_and_2_chunked() {
    let f = open("old_layouts.h5");
    let halves: Vec<f64> = (0..10).map(|i| f64::from(i) * 0.5 - 1.0).collect();
    let quarters: Vec<f64> = (0..10).map(|i| f64::from(i) * -1.25).collect();
    for (name, version, want) in [("chunked_v1", 1, halves), ("chunked_v2", 2, quarters)] {
        let ds = f.dataset(name).unwrap();
        assert_eq!(layout_version(&ds), version, "{name}");
        // The last of the stored sizes is the element size, not a chunk dimension.
        assert_eq!(
            ds.layout,
            Layout::Chunked {
                chunk_dims: vec![4],
                element_size: 8,
                index: ChunkIndex::BTreeV1,
                address: match &ds.layout {
                    Layout::Chunked { address, .. } => *address,
                    _ => None,
                },
                flags: 0,
            },
            "{name}"
        );
        assert_eq!(ds.chunks().unwrap().len(), 3, "{name}");
        assert_eq!(
            values(&ds.read_raw().unwrap(), f64::from_le_bytes),
            want,
            "{name}"
        );
    }
    let ds = f.dataset("chunked_v1_gzip").unwrap();
    assert_eq!(layout_version(&ds), 1);
    assert!(matches!(
        &ds.layout,
        Layout::Chunked { chunk_dims, element_size: 2, .. } if chunk_dims == &[8]
    ));
    assert_eq!(ds.filters.filters.len(), 1);
    assert_eq!(ds.chunks().unwrap().len(), 5);
    let want: Vec<i16> = (0..40).map(|i| (i - 20) * 3).collect();
    assert_eq!(values(&ds.read_raw().unwrap(), i16::from_le_bytes), want);
}

/// Attribute names in the order netcdf-c 4.9.0 (libhdf5 1.10.8) lists them: the blocks of the
/// object header first in, first out. `prefix` is "g" (root group) or "v" (dataset `var`).
fn fifo_order(prefix: &str, b4_before_b3: bool) -> Vec<String> {
    let mut names = vec!["a6", "a7", "b0", "b1", "b2"];
    names.extend(if b4_before_b3 {
        ["b4", "b3"]
    } else {
        ["b3", "b4"]
    });
    names.extend([
        "b5", "b6", "b7", "c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7",
    ]);
    names.iter().map(|n| format!("{prefix}{n}")).collect()
}

#[test]
fn continuation_blocks_are_followed_first_in_first_out() {
    let f = open("continuation_order.h5");
    let root = f.root().unwrap();
    // Three continuation messages in one block of the root group's header (and in a block of
    // `var`'s); last in, first out would list the c* attributes before some of the b* ones.
    let names = |attrs: Vec<purecdf_hdf5::read::Attribute>| -> Vec<String> {
        attrs.into_iter().map(|a| a.name).collect()
    };
    assert_eq!(names(root.attributes().unwrap()), fifo_order("g", true));
    let var = f.dataset("var").unwrap();
    assert_eq!(names(var.attributes().unwrap()), fifo_order("v", false));
}

/// A datatype message shared in HDF5 1.4–1.6's version 1 form (`shared_v1.h5`, made by
/// `tests/data/make_shared_v1.py`): the committed compound type is found through it, and the
/// data reads as h5dump 1.10 reads it.
#[test]
fn version_1_shared_datatype_message() {
    let f = open("shared_v1.h5");
    let ds = f.dataset("d").unwrap();
    let m = ds
        .header()
        .messages
        .iter()
        .find(|m| m.mtype == MessageType::DATATYPE)
        .unwrap();
    assert_eq!(m.data[0], 1, "a version 1 shared message");
    assert_eq!(ds.dtype.size(), 12);
    let raw = ds.read_raw().unwrap();
    let rows: Vec<(i32, f64)> = raw
        .chunks(12)
        .map(|r| {
            (
                i32::from_le_bytes(r[..4].try_into().unwrap()),
                f64::from_le_bytes(r[4..].try_into().unwrap()),
            )
        })
        .collect();
    assert_eq!(rows, [(1, 0.5), (-2, 1.5), (3, -2.25)]);
}
