//! Superblocks of files made by netcdf-c (v2) and h5py (v0, v3, user block); see tests/data/README.md.

use purecdf_hdf5::format::superblock::Superblock;
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::FormatErrorKind;

fn data(name: &str) -> FileSource {
    FileSource::open(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn netcdf_c_files_have_superblock_v2() {
    for name in ["nc4_small.nc", "nc7_small.nc"] {
        let src = data(name);
        let sb = Superblock::read(&src).unwrap();
        assert_eq!(sb.version, 2, "{name}");
        assert_eq!((sb.sizes.offset_size, sb.sizes.length_size), (8, 8));
        assert_eq!(sb.location, 0);
        assert_eq!(
            sb.eof_address,
            purecdf_hdf5::io::ByteSource::len(&src),
            "{name}"
        );
        assert_eq!(sb.extension, None);
        assert_eq!(sb.root_object_header, 48);
    }
}

#[test]
fn h5py_files() {
    let sb = Superblock::read(&data("h5py_v0.h5")).unwrap();
    assert_eq!(sb.version, 0);
    assert_eq!((sb.group_leaf_k, sb.group_internal_k), (4, 16));
    assert!(sb.root_cache.is_some());
    let sb = Superblock::read(&data("h5py_v3.h5")).unwrap();
    assert_eq!(sb.version, 3);
    let sb = Superblock::read(&data("h5py_userblock.h5")).unwrap();
    assert_eq!(sb.location, 512);
}

#[test]
fn corrupt_superblocks_are_errors() {
    let good = std::fs::read(format!(
        "{}/tests/data/nc4_small.nc",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // Every truncation of the superblock fails cleanly.
    for n in 0..48 {
        assert!(
            Superblock::read(&good[..n].to_vec()).is_err(),
            "truncated to {n}"
        );
    }
    // A flipped byte anywhere in a v2 superblock is caught by the checksum (or a field check).
    for i in 8..48 {
        let mut bad = good.clone();
        bad[i] ^= 0x40;
        let e = Superblock::read(&bad).unwrap_err();
        assert!(
            matches!(
                e.kind,
                FormatErrorKind::ChecksumMismatch { .. }
                    | FormatErrorKind::UnsupportedVersion(_)
                    | FormatErrorKind::BadSizeField(_)
                    | FormatErrorKind::UnexpectedEof { .. }
            ),
            "byte {i}: {e}"
        );
    }
}
