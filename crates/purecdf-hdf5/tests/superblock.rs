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

#[test]
fn root_object_headers() {
    use purecdf_hdf5::format::object_header::{MessageType, ObjectHeader};
    // netcdf-c: v2 header; the root group of a netCDF-4 file has link info, group info and
    // attribute info messages.
    let src = data("nc4_small.nc");
    let sb = Superblock::read(&src).unwrap();
    let oh = ObjectHeader::read(&src, sb.root_object_header, sb.sizes).unwrap();
    assert_eq!(oh.version, 2);
    for t in [MessageType::LINK_INFO, MessageType::GROUP_INFO] {
        assert!(
            oh.message(t).is_some(),
            "{t:?} in {:?}",
            oh.messages.iter().map(|m| m.mtype).collect::<Vec<_>>()
        );
    }
    // h5py v0 file: v1 header whose root group is old-style (symbol table message).
    let src = data("h5py_v0.h5");
    let sb = Superblock::read(&src).unwrap();
    let oh = ObjectHeader::read(&src, sb.root_object_header, sb.sizes).unwrap();
    assert_eq!(oh.version, 1);
    let st = oh.message(MessageType::SYMBOL_TABLE).unwrap();
    let cache = sb.root_cache.unwrap();
    assert_eq!(&st.data[..8], &cache.btree.to_le_bytes());
    assert_eq!(&st.data[8..16], &cache.heap.to_le_bytes());
    // Its title attribute is an attribute message.
    assert_eq!(oh.messages_of(MessageType::ATTRIBUTE).count(), 1);
}

fn lowlevel(name: &str) -> std::sync::Arc<dyn purecdf_hdf5::io::ByteSource> {
    std::sync::Arc::new(
        FileSource::open(format!(
            "{}/../purecdf/tests/data/netcdf4/lowlevel/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
}

#[test]
fn status_flags_of_a_live_or_crashed_writer_refuse_the_open() {
    use purecdf_hdf5::read::{Hdf5File, OpenOptions};
    for (name, flags) in [("status_write.h5", 0x01), ("status_swmr.h5", 0x05)] {
        let e = Hdf5File::open(lowlevel(name)).unwrap_err();
        assert_eq!(e.kind, FormatErrorKind::OpenForWriting(flags), "{name}");
        let f = Hdf5File::open_with(lowlevel(name), OpenOptions::new().ignore_status_flags(true))
            .unwrap();
        assert!(f.dataset("/v").is_ok());
    }
}

#[test]
fn reads_stop_at_the_end_of_allocation() {
    use purecdf_hdf5::read::{Hdf5File, OpenOptions};
    let f = Hdf5File::open(lowlevel("eoa_meta.h5")).unwrap();
    assert_eq!(f.source().len(), 400);
    assert!(matches!(
        f.root().and_then(|g| g.members()).unwrap_err().kind,
        FormatErrorKind::UnexpectedEof { .. }
    ));
    let f = Hdf5File::open_with(
        lowlevel("eoa_meta.h5"),
        OpenOptions::new().ignore_end_of_allocation(true),
    )
    .unwrap();
    assert!(f.root().and_then(|g| g.members()).is_ok());
}

#[test]
fn cache_image_entries_replace_the_file_bytes() {
    use purecdf_hdf5::read::Hdf5File;
    let f = Hdf5File::open(lowlevel("cache_image.h5")).unwrap();
    assert!(f.has_cache_image());
    let names: Vec<String> = f
        .root()
        .and_then(|g| g.members())
        .unwrap()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, ["grp", "x"]);
}
