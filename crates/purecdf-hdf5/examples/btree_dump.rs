//! Debug aid: prints the root group's link-index v2 B-tree header and record count.
use purecdf_hdf5::format::btree_v2::BTreeV2;
use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::messages::links::DenseStorageInfo;
use purecdf_hdf5::format::object_header::MessageType;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = purecdf_hdf5::io::FileSource::open(&args[1]).unwrap();
    let f = purecdf_hdf5::read::Hdf5File::open(std::sync::Arc::new(src)).unwrap();
    let root = f.object_header(f.superblock().root_object_header).unwrap();
    let m = root.message(MessageType::LINK_INFO).unwrap();
    let info =
        DenseStorageInfo::parse_link_info(Cursor::new(&m.data, m.offset, "li"), f.sizes()).unwrap();
    println!("{info:?}");
    for idx in [info.name_index, info.order_index].into_iter().flatten() {
        let t = BTreeV2::read(f.source(), idx, f.sizes()).unwrap();
        println!("{t:?}");
        match t.records(f.source(), f.sizes()) {
            Ok(r) => println!(
                "records: {} first {:?} last {:?}",
                r.len(),
                r.first(),
                r.last()
            ),
            Err(e) => println!("error {e}"),
        }
    }
}
