//! Whole-dataset reads through every chunk index type and the filters, against the values
//! `tests/data/make_h5py_fixtures.py` wrote.

use std::sync::Arc;

use purecdf_hdf5::format::messages::layout::{ChunkIndex, Layout};
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::Hdf5File;

fn open(name: &str) -> Hdf5File {
    let src =
        FileSource::open(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    Hdf5File::open(Arc::new(src)).unwrap()
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|x| f32::from_le_bytes(x.try_into().unwrap()))
        .collect()
}

fn i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|x| i32::from_le_bytes(x.try_into().unwrap()))
        .collect()
}

/// A dataset name, a check of its chunk index type, and its number of rows.
type Case = (&'static str, fn(&ChunkIndex) -> bool, usize);

fn z(rows: usize) -> Vec<f32> {
    (0..rows * 30).map(|i| i as f32 * 0.5).collect()
}

#[test]
fn v1_btree_with_deflate_shuffle_fletcher32() {
    let f = open("h5py_chunked.h5");
    for name in ["z", "plain"] {
        let ds = f.dataset(name).unwrap();
        assert!(matches!(
            ds.layout,
            Layout::Chunked {
                index: ChunkIndex::BTreeV1,
                ..
            }
        ));
        assert_eq!(ds.chunks().unwrap().len(), 3 * 4, "{name}");
        assert_eq!(f32s(&ds.read_raw().unwrap()), z(20), "{name}");
    }
    assert_eq!(
        f.dataset("z")
            .unwrap()
            .filters
            .filters
            .iter()
            .map(|x| x.id)
            .collect::<Vec<_>>(),
        [2, 1, 3]
    );
}

#[test]
fn every_chunk_index_type() {
    let f = open("h5py_chunk_indexes.h5");
    let cases: [Case; 7] = [
        ("fixed", |i| matches!(i, ChunkIndex::FixedArray { .. }), 20),
        (
            "fixed_plain",
            |i| matches!(i, ChunkIndex::FixedArray { .. }),
            20,
        ),
        (
            "ext",
            |i| matches!(i, ChunkIndex::ExtensibleArray { .. }),
            10,
        ),
        (
            "ext_plain",
            |i| matches!(i, ChunkIndex::ExtensibleArray { .. }),
            10,
        ),
        ("bt2", |i| matches!(i, ChunkIndex::BTreeV2 { .. }), 20),
        ("bt2_plain", |i| matches!(i, ChunkIndex::BTreeV2 { .. }), 20),
        (
            "single",
            |i| matches!(i, ChunkIndex::SingleChunk { .. }),
            20,
        ),
    ];
    for (name, is_index, rows) in cases {
        let ds = f.dataset(name).unwrap();
        let Layout::Chunked { index, .. } = &ds.layout else {
            panic!("{name} not chunked")
        };
        assert!(is_index(index), "{name}: {index:?}");
        assert_eq!(f32s(&ds.read_raw().unwrap()), z(rows), "{name}");
    }
}

#[test]
fn paged_fixed_array_and_extensible_array_secondary_blocks() {
    let f = open("h5py_chunk_indexes.h5");
    let big: Vec<i32> = (0..1100 * 4).collect();
    let ds = f.dataset("fixed_big").unwrap();
    assert_eq!(ds.chunks().unwrap().len(), 1100);
    assert_eq!(i32s(&ds.read_raw().unwrap()), big);
    let ds = f.dataset("ext_big").unwrap();
    assert_eq!(ds.chunks().unwrap().len(), 300);
    assert_eq!(i32s(&ds.read_raw().unwrap()), big[..600 * 4]);
}

#[test]
fn netcdf4_record_variable() {
    let f = open("nc4_small.nc");
    let ds = f.dataset("/r").unwrap();
    assert_eq!(
        f32s(&ds.read_raw().unwrap()),
        [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]
    );
    let v = f.dataset("v").unwrap();
    assert_eq!(i32s(&v.read_raw().unwrap()), [1, 2, 3]);
    let names: Vec<String> = f
        .root()
        .unwrap()
        .members()
        .unwrap()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["x", "t", "v", "r"], "creation order");
}

#[test]
fn handle_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Hdf5File>();
}

#[test]
fn strided_slabs_match_the_whole_read() {
    use purecdf_hdf5::read::Slab;
    let f = open("h5py_chunk_indexes.h5");
    let zz = z(20);
    // A strided 2-D selection: rows 1, 4, 7, ..., columns 3, 5, 7, ...
    let slab = Slab {
        start: vec![1, 3],
        count: vec![6, 12],
        stride: vec![3, 2],
    };
    let want: Vec<f32> = (0..6)
        .flat_map(|i| (0..12).map(move |j| (1 + 3 * i, 3 + 2 * j)))
        .map(|(r, c)| zz[r * 30 + c])
        .collect();
    for name in ["fixed", "fixed_plain", "bt2", "single"] {
        let ds = f.dataset(name).unwrap();
        assert_eq!(f32s(&ds.read_slab(&slab).unwrap()), want, "{name}");
        // Row by row, as ncdump reads: each chunk decoded once, values still right.
        for r in 0..20u64 {
            let row = ds
                .read_slab(&Slab {
                    start: vec![r, 0],
                    count: vec![1, 30],
                    stride: vec![1, 1],
                })
                .unwrap();
            assert_eq!(
                f32s(&row),
                zz[r as usize * 30..(r as usize + 1) * 30],
                "{name} row {r}"
            );
        }
    }
    let ds = open("h5py_chunked.h5").dataset("z").unwrap();
    assert_eq!(f32s(&ds.read_slab(&slab).unwrap()), want);
    // Contiguous data.
    let ds = open("nc4_small.nc").dataset("v").unwrap();
    assert_eq!(
        i32s(
            &ds.read_slab(&Slab {
                start: vec![1],
                count: vec![2],
                stride: vec![1]
            })
            .unwrap()
        ),
        [2, 3]
    );
    assert_eq!(
        i32s(
            &ds.read_slab(&Slab {
                start: vec![0],
                count: vec![2],
                stride: vec![2]
            })
            .unwrap()
        ),
        [1, 3]
    );
}

/// Found by the `hdf5_open` fuzz target: chunk dimensions whose product overflows made the
/// expected chunk size saturate, and the inflater reserved a gigabyte. Chunks of 4 GiB or more
/// (HDF5 stores chunk sizes in 32 bits) and empty chunk extents are now refused at load.
#[test]
fn impossible_chunk_dimensions_are_refused() {
    use purecdf_hdf5::format::object_header::MessageType;
    use purecdf_hdf5::read::Dataset;
    let path = format!("{}/tests/data/h5py_chunked.h5", env!("CARGO_MANIFEST_DIR"));
    let good = std::fs::read(&path).unwrap();
    let f = Hdf5File::open(Arc::new(good.clone())).unwrap();
    let addr = f.object_address("plain").unwrap();
    let layout = f
        .object_header(addr)
        .unwrap()
        .message(MessageType::LAYOUT)
        .unwrap()
        .offset as usize;
    // Layout v3, chunked: version, class, rank, B-tree address (8), then 4-byte dimensions.
    assert_eq!(&good[layout..layout + 3], &[3, 2, 3]);
    for dims in [[u32::MAX, u32::MAX], [0, 8]] {
        let mut bad = good.clone();
        bad[layout + 11..layout + 15].copy_from_slice(&dims[0].to_le_bytes());
        bad[layout + 15..layout + 19].copy_from_slice(&dims[1].to_le_bytes());
        let f = Hdf5File::open(Arc::new(bad)).unwrap();
        assert!(Dataset::load(&f, addr).is_err(), "{dims:?}");
    }
}

/// Selections that take whole chunks, which are decoded straight into the output (every pipeline
/// of the fixtures: deflate, shuffle + deflate + Fletcher-32, none), read what the whole read does.
#[test]
fn chunk_aligned_selections_match_the_whole_read() {
    use purecdf_hdf5::read::Slab;
    let zz = z(20);
    let boxed = |r0: usize, c0: usize, rows: usize, cols: usize| -> Vec<f32> {
        (r0..r0 + rows)
            .flat_map(|r| zz[r * 30 + c0..r * 30 + c0 + cols].to_vec())
            .collect()
    };
    for (file, name) in [
        ("h5py_chunked.h5", "z"),
        ("h5py_chunked.h5", "plain"),
        ("h5py_chunk_indexes.h5", "fixed"),
        ("h5py_chunk_indexes.h5", "bt2_plain"),
    ] {
        let ds = open(file).dataset(name).unwrap();
        // Chunks are 7×8: every whole chunk, alone.
        for (r, c) in [(0, 0), (7, 8), (0, 16), (7, 0)] {
            let one = Slab {
                start: vec![r, c],
                count: vec![7, 8],
                stride: vec![1, 1],
            };
            let got = f32s(&ds.read_slab(&one).unwrap());
            assert_eq!(got, boxed(r as usize, c as usize, 7, 8), "{name} {r} {c}");
        }
    }
    // Chunks spanning whole rows: the whole read is made of runs, one per chunk.
    let f = open("h5py_chunk_indexes.h5");
    let ds = f.dataset("single").unwrap();
    assert_eq!(f32s(&ds.read_slab(&Slab::whole(&[20, 30])).unwrap()), zz);
    for name in ["ext_big", "fixed_big"] {
        let ds = f.dataset(name).unwrap();
        let dims = ds.space.dims().to_vec();
        let whole = ds.read_slab(&Slab::whole(&dims)).unwrap();
        assert_eq!(whole, ds.read_raw().unwrap(), "{name}");
    }
}
