//! Shared object header messages (tests/data/h5c_sohm_list.h5 and h5c_sohm_btree.h5, made by
//! make_sohm_fixtures.c with HDF5 1.10.8): the superblock extension, the master table, list and
//! B-tree indexes, and every shared datatype, dataspace, fill value, filter pipeline and attribute
//! resolved to its body.

use std::sync::Arc;

use purecdf_hdf5::format::messages::attribute::TypeRef;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::format::object_header::{flags, MessageType};
use purecdf_hdf5::format::sohm::SohmRecord;
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::Hdf5File;

fn open(name: &str) -> Hdf5File {
    let p = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    Hdf5File::open(Arc::new(FileSource::open(p).unwrap())).unwrap()
}

fn f32s(raw: &[u8], big: bool) -> Vec<f32> {
    raw.chunks(4)
        .map(|c| {
            let b: [u8; 4] = c.try_into().unwrap();
            if big {
                f32::from_be_bytes(b)
            } else {
                f32::from_le_bytes(b)
            }
        })
        .collect()
}

fn text(a: &purecdf_hdf5::read::Attribute) -> String {
    String::from_utf8_lossy(&a.data).into_owned()
}

/// Walks everything a reader touches: members, attributes, datasets and their data.
fn walk(f: &Hdf5File) -> Result<usize, purecdf_hdf5::FormatError> {
    let mut n = 0;
    let mut groups = vec![f.superblock().root_object_header];
    let mut seen = 0;
    while let Some(g) = groups.pop() {
        seen += 1;
        if seen > 16 {
            break;
        }
        let g = purecdf_hdf5::read::Group::load(f, g)?;
        n += g.attributes()?.len();
        for m in g.members()? {
            let Some(a) = m.address else { continue };
            let oh = f.object_header(a)?;
            if oh.message(MessageType::LAYOUT).is_some() {
                let ds = purecdf_hdf5::read::Dataset::from_header(f, oh)?;
                n += ds.attributes()?.len();
                n += ds.read_raw()?.len();
            } else {
                groups.push(a);
            }
        }
    }
    Ok(n)
}

#[test]
fn shared_messages_resolve_in_list_and_btree_indexes() {
    for (name, btree, nvars) in [
        ("h5c_sohm_list.h5", false, 3),
        ("h5c_sohm_btree.h5", true, 6),
    ] {
        let f = open(name);
        assert!(f.superblock().version >= 2, "{name}");
        let ext = f.superblock_extension().unwrap().unwrap();
        assert!(ext.message(MessageType::SHARED_MESSAGE_TABLE).is_some());
        let sm = f.shared_messages().unwrap().unwrap();
        let masks: Vec<u16> = sm.table.indexes.iter().map(|i| i.message_types).collect();
        // Datatype | dataspace; fill value | filter pipeline; attribute.
        assert_eq!(
            masks,
            [1 << 3 | 1 << 1, 1 << 5 | 1 << 11, 1 << 12],
            "{name}"
        );
        let (mut in_heap, mut in_header) = (0, 0);
        for idx in &sm.table.indexes {
            assert_eq!(idx.btree, btree, "{name}");
            let recs = idx.records(f.source(), f.sizes()).unwrap();
            assert_eq!(recs.len(), usize::from(idx.num_messages), "{name}");
            for r in recs {
                if let SohmRecord::Heap { heap_id, .. } = r {
                    let t = if idx.message_types & 1 << 12 != 0 {
                        MessageType::ATTRIBUTE
                    } else {
                        MessageType::DATASPACE
                    };
                    assert!(!f.shared_message(t, &heap_id, 0).unwrap().is_empty());
                    in_heap += 1;
                }
                if let SohmRecord::ObjectHeader {
                    message_type,
                    address,
                    ..
                } = r
                {
                    // The one object using it keeps the message itself, not shared.
                    let oh = f.object_header(address).unwrap();
                    let m = oh.message(MessageType(u16::from(message_type))).unwrap();
                    assert_eq!(m.flags & flags::SHARED, 0);
                    in_header += 1;
                }
            }
        }
        assert!(
            in_heap >= 5 && in_header >= 1,
            "{name}: {in_heap} {in_header}"
        );
        // Root attributes are shared (the attribute index holds them); their text is intact.
        let root = f.root().unwrap();
        let atts = root.attributes().unwrap();
        let names: Vec<&str> = atts.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["title", "ints"]);
        assert_eq!(text(&atts[0]), "shared messages");
        assert_eq!(atts[1].data, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
        let shared_in_header = root
            .header()
            .messages
            .iter()
            .any(|m| m.flags & flags::SHARED != 0);
        assert!(!shared_in_header, "resolved while reading the header");
        for v in 0..nvars {
            let ds = f.dataset(&format!("var{v}")).unwrap();
            // Datatype, dataspace, fill value and pipeline all came through the table.
            let big = v % 3 == 2;
            assert!(
                matches!(ds.dtype, Datatype::FloatingPoint { size: 4, big_endian, .. } if big_endian == big)
            );
            assert_eq!(ds.space.dims(), [4, 5]);
            assert_eq!(ds.filters.filters[0].client_data, [1 + v as u32 % 2]);
            let fill = ds.fill.as_ref().unwrap().value.clone().unwrap();
            assert_eq!(f32s(&fill, big), [-1.0]);
            let want: Vec<f32> = (0..20).map(|i| (v * 100 + i) as f32 * 0.5).collect();
            assert_eq!(f32s(&ds.read_raw().unwrap(), big), want, "{name} var{v}");
            let atts = ds.attributes().unwrap();
            assert_eq!(text(&atts[0]), if v % 2 == 1 { "m" } else { "s" });
            assert!(matches!(
                atts[1].dtype,
                TypeRef::Inline(Datatype::FloatingPoint { size: 8, .. })
            ));
            assert_eq!(atts[1].data, (0.5 * v as f64).to_le_bytes());
        }
        let ivar = f.dataset("grp/ivar").unwrap();
        assert_eq!(
            ivar.read_raw().unwrap(),
            [255, 253, 255, 254, 255, 255, 0, 0, 0, 1, 0, 2]
        );
        let atts = ivar.attributes().unwrap();
        if btree {
            // Dense storage: twelve attributes, some bodies in the shared heap.
            assert_eq!(atts.len(), 12);
            for (i, a) in atts.iter().enumerate() {
                assert_eq!(a.name, format!("a{i:02}"));
                assert_eq!(text(a), if i % 3 == 0 { "other" } else { "same text" });
            }
        }
        assert!(walk(&f).unwrap() > 100);
    }
}

/// Byte flips over the shared message structures (superblock extension, master table, indexes,
/// heaps) and everything after them: opening and walking never panics.
#[test]
fn corrupt_shared_message_files_fail_cleanly() {
    for name in ["h5c_sohm_list.h5", "h5c_sohm_btree.h5"] {
        let p = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let good = std::fs::read(p).unwrap();
        let step = if name.contains("btree") { 7 } else { 3 };
        for i in (0..good.len()).step_by(step) {
            let mut bad = good.clone();
            bad[i] ^= 0x5a;
            if let Ok(f) = Hdf5File::open(Arc::new(bad)) {
                let _ = walk(&f);
            }
        }
    }
}
