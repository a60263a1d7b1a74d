//! Dense link and attribute storage: fractal heap + v2 B-tree (tests/data/dense.nc, README.md).

use purecdf_hdf5::format::btree_v2::BTreeV2;
use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::fractal_heap::FractalHeap;
use purecdf_hdf5::format::messages::attribute::AttributeMessage;
use purecdf_hdf5::format::messages::links::{DenseStorageInfo, Link, LinkTarget};
use purecdf_hdf5::format::object_header::{MessageType, ObjectHeader};
use purecdf_hdf5::format::superblock::Superblock;
use purecdf_hdf5::io::FileSource;

#[test]
fn dense_links_and_attributes() {
    let src = FileSource::open(format!(
        "{}/tests/data/dense.nc",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let sb = Superblock::read(&src).unwrap();
    let root = ObjectHeader::read(&src, sb.root_object_header, sb.sizes).unwrap();
    assert_eq!(
        root.messages_of(MessageType::LINK).count(),
        0,
        "links are dense"
    );
    let m = root.message(MessageType::LINK_INFO).unwrap();
    let info =
        DenseStorageInfo::parse_link_info(Cursor::new(&m.data, m.offset, "li"), sb.sizes).unwrap();
    assert!(info.tracks_order && info.indexes_order);
    let heap = FractalHeap::read(&src, info.fractal_heap.unwrap(), sb.sizes).unwrap();

    // Creation-order index (type 6): creation order (8) + heap id.
    let order = BTreeV2::read(&src, info.order_index.unwrap(), sb.sizes).unwrap();
    assert_eq!(order.tree_type, 6);
    let mut names = Vec::new();
    for r in order.records(&src, sb.sizes).unwrap() {
        let obj = heap.object(&src, &r[8..]).unwrap();
        let link = Link::parse(Cursor::new(&obj, 0, "link"), sb.sizes).unwrap();
        assert!(matches!(link.target, LinkTarget::Hard(_)));
        names.push(link.name);
    }
    let mut want: Vec<String> = vec!["d".to_string()];
    want.extend((0..40).map(|i| format!("var_{i:02}")));
    want.push("many".into());
    assert_eq!(names, want, "creation order");

    // Name index (type 5): hash (4) + heap id; same set of names.
    let by_name = BTreeV2::read(&src, info.name_index.unwrap(), sb.sizes).unwrap();
    assert_eq!(by_name.tree_type, 5);
    assert_eq!(by_name.total_records, 42);
    let recs = by_name.records(&src, sb.sizes).unwrap();
    assert_eq!(recs.len(), 42);

    // The variable with 30 attributes keeps them densely too.
    let many_id = order.records(&src, sb.sizes).unwrap().last().unwrap()[8..].to_vec();
    let obj = heap.object(&src, &many_id).unwrap();
    let LinkTarget::Hard(addr) = Link::parse(Cursor::new(&obj, 0, "l"), sb.sizes)
        .unwrap()
        .target
    else {
        panic!()
    };
    let oh = ObjectHeader::read(&src, addr, sb.sizes).unwrap();
    let m = oh.message(MessageType::ATTRIBUTE_INFO).unwrap();
    let ainfo =
        DenseStorageInfo::parse_attribute_info(Cursor::new(&m.data, m.offset, "ai"), sb.sizes)
            .unwrap();
    let aheap = FractalHeap::read(&src, ainfo.fractal_heap.unwrap(), sb.sizes).unwrap();
    let aorder = BTreeV2::read(&src, ainfo.order_index.unwrap(), sb.sizes).unwrap();
    assert_eq!(aorder.tree_type, 9);
    let mut atts = Vec::new();
    for r in aorder.records(&src, sb.sizes).unwrap() {
        let obj = aheap.object(&src, &r[..usize::from(aheap.id_len)]).unwrap();
        let a = AttributeMessage::parse(Cursor::new(&obj, 0, "a"), sb.sizes).unwrap();
        atts.push((
            a.name.clone(),
            i32::from_le_bytes(a.data[..4].try_into().unwrap()),
        ));
    }
    // netCDF's own hidden attributes may come first; the 30 user attributes follow in order.
    let user: Vec<(String, i32)> = atts
        .into_iter()
        .filter(|(n, _)| n.starts_with("att_"))
        .collect();
    assert_eq!(
        user,
        (0..30)
            .map(|i| (format!("att_{i:02}"), i))
            .collect::<Vec<_>>()
    );
}

#[test]
fn huge_attribute_objects() {
    use purecdf_hdf5::read::Hdf5File;
    let src = FileSource::open(format!(
        "{}/tests/data/h5py_huge_attr.h5",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let f = Hdf5File::open(std::sync::Arc::new(src)).unwrap();
    let atts = f.dataset("d").unwrap().attributes().unwrap();
    let big = atts.iter().find(|a| a.name == "big").unwrap();
    let vals: Vec<i32> = big
        .data
        .chunks(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(vals, (0..20000).collect::<Vec<i32>>());
    let small = atts.iter().find(|a| a.name == "small").unwrap();
    assert_eq!(small.data, 7i32.to_le_bytes());
    // The big attribute's heap id is of the huge kind (type bits 01).
    let oh = f.object_header(f.object_address("d").unwrap()).unwrap();
    let m = oh.message(MessageType::ATTRIBUTE_INFO).unwrap();
    let info =
        DenseStorageInfo::parse_attribute_info(Cursor::new(&m.data, m.offset, "ai"), f.sizes())
            .unwrap();
    let tree = BTreeV2::read(f.source(), info.name_index.unwrap(), f.sizes()).unwrap();
    let kinds: Vec<u8> = tree
        .records(f.source(), f.sizes())
        .unwrap()
        .iter()
        .map(|r| (r[0] >> 4) & 3)
        .collect();
    assert!(kinds.contains(&1), "no huge object among {kinds:?}");
}
