//! Old-style groups, v1 B-tree chunk indexes and the global heap on real files (tests/data/README.md).

use purecdf_hdf5::format::btree_v1::{chunk_records, group_members};
use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::global_heap::{GlobalHeapCollection, GlobalHeapId};
use purecdf_hdf5::format::local_heap::LocalHeap;
use purecdf_hdf5::format::messages::attribute::AttributeMessage;
use purecdf_hdf5::format::messages::layout::{ChunkIndex, Layout};
use purecdf_hdf5::format::messages::links::{Link, LinkTarget, SymbolTable};
use purecdf_hdf5::format::object_header::{MessageType, ObjectHeader};
use purecdf_hdf5::format::superblock::Superblock;
use purecdf_hdf5::io::{ByteSource, FileSource};

fn data(name: &str) -> FileSource {
    FileSource::open(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn old_style_group_members() {
    let src = data("h5py_v0.h5");
    let sb = Superblock::read(&src).unwrap();
    let root = ObjectHeader::read(&src, sb.root_object_header, sb.sizes).unwrap();
    let m = root.message(MessageType::SYMBOL_TABLE).unwrap();
    let st = SymbolTable::parse(Cursor::new(&m.data, m.offset, "st"), sb.sizes).unwrap();
    let heap = LocalHeap::read(&src, st.heap, sb.sizes).unwrap();
    let members = group_members(&src, st.btree, &heap, sb.sizes).unwrap();
    assert_eq!(
        members.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
        ["a"]
    );
    let a = ObjectHeader::read(&src, members[0].address, sb.sizes).unwrap();
    assert!(a.message(MessageType::LAYOUT).is_some());
}

#[test]
fn chunked_record_variable_and_dimension_list() {
    let src = data("nc4_small.nc");
    let sb = Superblock::read(&src).unwrap();
    let root = ObjectHeader::read(&src, sb.root_object_header, sb.sizes).unwrap();
    let r = root
        .messages_of(MessageType::LINK)
        .map(|m| Link::parse(Cursor::new(&m.data, m.offset, "link"), sb.sizes).unwrap())
        .find(|l| l.name == "r")
        .unwrap();
    let LinkTarget::Hard(addr) = r.target else {
        panic!()
    };
    let oh = ObjectHeader::read(&src, addr, sb.sizes).unwrap();
    let m = oh.message(MessageType::LAYOUT).unwrap();
    let Layout::Chunked {
        index: ChunkIndex::BTreeV1,
        address: Some(bt),
        ..
    } = Layout::parse(Cursor::new(&m.data, m.offset, "l"), sb.sizes).unwrap()
    else {
        panic!("netcdf-c 4.9 with HDF5 1.10 writes v1 B-tree chunk indexes")
    };
    let chunks = chunk_records(&src, bt, 2, sb.sizes).unwrap();
    let offsets: Vec<Vec<u64>> = chunks.iter().map(|c| c.offsets.clone()).collect();
    assert_eq!(offsets, [vec![0, 0], vec![1, 0]]);
    // Unfiltered chunks of 1x3 floats: 12 bytes holding the CDL's values.
    let mut vals = Vec::new();
    for c in &chunks {
        assert_eq!((c.size, c.filter_mask), (12, 0));
        let b = src.read_range(c.address, 12).unwrap();
        vals.extend(
            b.chunks(4)
                .map(|x| f32::from_le_bytes(x.try_into().unwrap())),
        );
    }
    assert_eq!(vals, [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]);

    // DIMENSION_LIST is a vlen of object references stored in the global heap.
    let m = oh
        .messages_of(MessageType::ATTRIBUTE)
        .find(|m| {
            AttributeMessage::parse(Cursor::new(&m.data, m.offset, "a"), sb.sizes)
                .unwrap()
                .name
                == "DIMENSION_LIST"
        })
        .unwrap();
    let att = AttributeMessage::parse(Cursor::new(&m.data, m.offset, "a"), sb.sizes).unwrap();
    assert_eq!(att.data.len(), 2 * 16);
    let mut c = Cursor::new(&att.data, 0, "vlen");
    let len = c.u32().unwrap();
    assert_eq!(len, 1);
    let id = GlobalHeapId::parse(&mut c, sb.sizes).unwrap();
    let col = GlobalHeapCollection::read(&src, id.collection, sb.sizes).unwrap();
    let obj = col.object(id.index).unwrap();
    // One object reference (an address) to the dimension scale "t".
    let t_addr = u64::from_le_bytes(obj[..8].try_into().unwrap());
    let t = root
        .messages_of(MessageType::LINK)
        .map(|m| Link::parse(Cursor::new(&m.data, m.offset, "link"), sb.sizes).unwrap())
        .find(|l| l.name == "t")
        .unwrap();
    assert_eq!(t.target, LinkTarget::Hard(t_addr));
}

#[test]
fn corrupt_structures_fail_cleanly() {
    let good = std::fs::read(format!(
        "{}/tests/data/h5py_v0.h5",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let sb = Superblock::read(&good).unwrap();
    // Flip every byte of the first 2 KiB in turn; parsing the root group must never panic.
    for i in 0..2048.min(good.len()) {
        let mut bad = good.clone();
        bad[i] ^= 0xff;
        let Ok(root) = ObjectHeader::read(&bad, sb.root_object_header, sb.sizes) else {
            continue;
        };
        if let Some(m) = root.message(MessageType::SYMBOL_TABLE) {
            if let Ok(st) = SymbolTable::parse(Cursor::new(&m.data, m.offset, "st"), sb.sizes) {
                if let Ok(heap) = LocalHeap::read(&bad, st.heap, sb.sizes) {
                    let _ = group_members(&bad, st.btree, &heap, sb.sizes);
                }
            }
        }
    }
}

/// Found by the `hdf5_open` fuzz target: a datatype of size 0 made a whole-dataset read loop
/// over the element count with nothing to copy (a hang). It is now refused when the dataset loads.
#[test]
fn zero_size_datatype_is_refused() {
    use purecdf_hdf5::read::Dataset;
    let mut bytes = std::fs::read(format!(
        "{}/tests/data/h5py_v0.h5",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let sb = Superblock::read(&bytes).unwrap();
    let root = ObjectHeader::read(&bytes, sb.root_object_header, sb.sizes).unwrap();
    let m = root.message(MessageType::SYMBOL_TABLE).unwrap();
    let st = SymbolTable::parse(Cursor::new(&m.data, m.offset, "st"), sb.sizes).unwrap();
    let heap = LocalHeap::read(&bytes, st.heap, sb.sizes).unwrap();
    let a = group_members(&bytes, st.btree, &heap, sb.sizes).unwrap()[0].address;
    let dt = ObjectHeader::read(&bytes, a, sb.sizes)
        .unwrap()
        .message(MessageType::DATATYPE)
        .unwrap()
        .offset as usize;
    // The 4-byte size field follows the class/version byte and three bytes of class bits.
    bytes[dt + 4..dt + 8].copy_from_slice(&0u32.to_le_bytes());
    let f = purecdf_hdf5::read::Hdf5File::open(std::sync::Arc::new(bytes)).unwrap();
    assert!(Dataset::load(&f, a).is_err());
}
