//! Decoding the header messages of real files (netcdf-c and h5py fixtures, tests/data/README.md).

use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::messages::attribute::{AttributeMessage, TypeRef};
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::format::messages::layout::{ChunkIndex, Layout};
use purecdf_hdf5::format::messages::links::{Link, LinkTarget};
use purecdf_hdf5::format::object_header::{MessageType, ObjectHeader};
use purecdf_hdf5::format::superblock::Superblock;
use purecdf_hdf5::io::FileSource;

fn data(name: &str) -> FileSource {
    FileSource::open(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn netcdf4_variables() {
    let src = data("nc4_small.nc");
    let sb = Superblock::read(&src).unwrap();
    let root = ObjectHeader::read(&src, sb.root_object_header, sb.sizes).unwrap();
    let links: Vec<Link> = root
        .messages_of(MessageType::LINK)
        .map(|m| Link::parse(Cursor::new(&m.data, m.offset, "link"), sb.sizes).unwrap())
        .collect();
    let mut names: Vec<&str> = links.iter().map(|l| l.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["r", "t", "v", "x"]);
    // netcdf-c tracks creation order on links.
    assert!(links.iter().all(|l| l.creation_order.is_some()));

    let v = links.iter().find(|l| l.name == "v").unwrap();
    let LinkTarget::Hard(addr) = v.target else {
        panic!("hard link expected")
    };
    let oh = ObjectHeader::read(&src, addr, sb.sizes).unwrap();
    let m = oh.message(MessageType::DATASPACE).unwrap();
    assert_eq!(
        Dataspace::parse(Cursor::new(&m.data, m.offset, "ds"), sb.sizes).unwrap(),
        Dataspace::Simple {
            dims: vec![3],
            max_dims: vec![Some(3)]
        }
    );
    let m = oh.message(MessageType::DATATYPE).unwrap();
    assert_eq!(
        Datatype::parse(&mut Cursor::new(&m.data, m.offset, "dt")).unwrap(),
        Datatype::FixedPoint {
            size: 4,
            big_endian: false,
            signed: true,
            bit_offset: 0,
            precision: 32
        }
    );
    let m = oh.message(MessageType::LAYOUT).unwrap();
    let Layout::Contiguous {
        address: Some(a),
        size: 12,
    } = Layout::parse(Cursor::new(&m.data, m.offset, "layout"), sb.sizes).unwrap()
    else {
        panic!("contiguous layout of 12 bytes expected")
    };
    let bytes = purecdf_hdf5::io::ByteSource::read_range(&src, a, 12).unwrap();
    let vals: Vec<i32> = bytes
        .chunks(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(vals, [1, 2, 3]);
    let atts: Vec<AttributeMessage> = oh
        .messages_of(MessageType::ATTRIBUTE)
        .map(|m| AttributeMessage::parse(Cursor::new(&m.data, m.offset, "att"), sb.sizes).unwrap())
        .collect();
    let units = atts.iter().find(|a| a.name == "units").unwrap();
    assert_eq!(units.data, b"m");
    assert!(matches!(
        units.dtype,
        TypeRef::Inline(Datatype::String { size: 1, .. })
    ));
    // The dimension scale bookkeeping netCDF-4 adds.
    assert!(atts.iter().any(|a| a.name == "DIMENSION_LIST"));

    // The record variable is chunked.
    let r = links.iter().find(|l| l.name == "r").unwrap();
    let LinkTarget::Hard(addr) = r.target else {
        panic!()
    };
    let oh = ObjectHeader::read(&src, addr, sb.sizes).unwrap();
    let m = oh.message(MessageType::LAYOUT).unwrap();
    let layout = Layout::parse(Cursor::new(&m.data, m.offset, "layout"), sb.sizes).unwrap();
    let Layout::Chunked {
        chunk_dims,
        element_size: 4,
        index,
        ..
    } = layout
    else {
        panic!("{layout:?}")
    };
    assert_eq!(chunk_dims, [1, 3]);
    assert!(
        matches!(
            index,
            ChunkIndex::BTreeV1 | ChunkIndex::ExtensibleArray { .. }
        ),
        "{index:?}"
    );
}

#[test]
fn every_message_of_every_fixture_decodes() {
    for name in [
        "nc4_small.nc",
        "nc7_small.nc",
        "h5py_v0.h5",
        "h5py_v3.h5",
        "h5py_userblock.h5",
    ] {
        let sb = Superblock::read(&data(name)).unwrap();
        let src = purecdf_hdf5::io::Shifted::new(data(name), sb.base_address);
        let root = ObjectHeader::read(&src, sb.root_object_header, sb.sizes).unwrap();
        let mut headers = vec![root.clone()];
        for m in root.messages_of(MessageType::LINK) {
            if let LinkTarget::Hard(a) =
                Link::parse(Cursor::new(&m.data, m.offset, "link"), sb.sizes)
                    .unwrap()
                    .target
            {
                headers.push(ObjectHeader::read(&src, a, sb.sizes).unwrap());
            }
        }
        for oh in &headers {
            for m in &oh.messages {
                let c = Cursor::new(&m.data, m.offset, "msg");
                let ok = match m.mtype {
                    MessageType::DATASPACE => Dataspace::parse(c, sb.sizes).is_ok(),
                    MessageType::DATATYPE => Datatype::parse(&mut c.clone()).is_ok(),
                    MessageType::LAYOUT => Layout::parse(c, sb.sizes).is_ok(),
                    MessageType::ATTRIBUTE => AttributeMessage::parse(c, sb.sizes).is_ok(),
                    MessageType::LINK => Link::parse(c, sb.sizes).is_ok(),
                    _ => true,
                };
                assert!(ok, "{name}: message {:?} at {:#x}", m.mtype, m.offset);
            }
        }
    }
}
