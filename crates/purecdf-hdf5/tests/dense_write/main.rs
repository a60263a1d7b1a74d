//! Dense link and attribute storage written by [`Hdf5Writer`]: groups with 9, 40 and 1000 links
//! and objects with 9, 40 and 500 attributes, attributes of 80 KB and 1 MB, mixtures. The files
//! read back through our reader and through libhdf5 (h5dump, h5stat, exact values, names looked
//! up one by one through our name indexes), libhdf5 1.10 (a C program, `data/dense_modify.c`) and
//! h5py (`data/dense_modify.py`) add and delete links and attributes in them, and the changed
//! files read back everywhere and reopen in our writer, which changes and flushes them again.

mod support;

use std::path::Path;
use std::process::Command;

use purecdf_hdf5::format::btree_v2::BTreeV2;
use purecdf_hdf5::format::checksum::lookup3;
use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::fractal_heap::FractalHeap;
use purecdf_hdf5::format::messages::attribute::AttributeMessage;
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::format::messages::links::{DenseStorageInfo, Link};
use purecdf_hdf5::format::object_header::MessageType;
use purecdf_hdf5::write::{AttrSpec, Hdf5Writer, Piece, TypeSpec};

use support::*;

#[test]
fn dense_storage_reads_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.h5");
    let state = build(&path);
    assert_eq!(read_state(&path), state);

    // Compact below the thresholds, dense above; the structures libhdf5 would create.
    let f = open(&path);
    let src = f.source();
    let sizes = f.sizes();
    for (path, links, dense) in [("/g8", 8, false), ("/g9", 9, true), ("/g1000", 1000, true)] {
        let h = header(&f, path);
        assert_eq!(
            h.messages_of(MessageType::LINK).count(),
            if dense { 0 } else { links }
        );
        let m = h.message(MessageType::LINK_INFO).unwrap();
        let info =
            DenseStorageInfo::parse_link_info(Cursor::new(&m.data, m.offset, "li"), sizes).unwrap();
        assert_eq!(info.fractal_heap.is_some(), dense, "{path}");
        if !dense {
            continue;
        }
        let heap = FractalHeap::read(src, info.fractal_heap.unwrap(), sizes).unwrap();
        assert_eq!(
            (heap.id_len, heap.start_block, heap.table_width),
            (7, 512, 4)
        );
        assert_eq!(heap.max_heap_bits, 32);
        let names = BTreeV2::read(src, info.name_index.unwrap(), sizes).unwrap();
        let order = BTreeV2::read(src, info.order_index.unwrap(), sizes).unwrap();
        assert_eq!((names.tree_type, names.record_size), (5, 11));
        assert_eq!((order.tree_type, order.record_size), (6, 15));
        assert_eq!(
            (names.total_records, order.total_records),
            (links as u64, links as u64)
        );
        // Name records ascend by hash, and each hash is the name's.
        let mut last = 0u32;
        for r in names.records(src, sizes).unwrap() {
            let hash = u32::from_le_bytes(r[..4].try_into().unwrap());
            let obj = heap.object(src, &r[4..]).unwrap();
            let link = Link::parse(Cursor::new(&obj, 0, "link"), sizes).unwrap();
            assert_eq!(hash, lookup3(link.name.as_bytes()));
            assert!(hash >= last);
            last = hash;
        }
    }
    for (path, n, dense) in [
        ("/a8", 8, false),
        ("/a9", 9, true),
        ("/a500", 500, true),
        ("/big", 3, true),
        ("/", 10, true),
        ("/data", 10, true),
    ] {
        let h = header(&f, path);
        assert_eq!(
            h.messages_of(MessageType::ATTRIBUTE).count(),
            if dense { 0 } else { n }
        );
        let m = h.message(MessageType::ATTRIBUTE_INFO).unwrap();
        let info =
            DenseStorageInfo::parse_attribute_info(Cursor::new(&m.data, m.offset, "ai"), sizes)
                .unwrap();
        assert_eq!(info.fractal_heap.is_some(), dense, "{path}");
        if dense {
            let heap = FractalHeap::read(src, info.fractal_heap.unwrap(), sizes).unwrap();
            assert_eq!(
                (heap.id_len, heap.start_block, heap.max_heap_bits),
                (8, 1024, 40)
            );
            assert_eq!(heap.huge_btree.is_some(), path == "/big");
            let names = BTreeV2::read(src, info.name_index.unwrap(), sizes).unwrap();
            let order = BTreeV2::read(src, info.order_index.unwrap(), sizes).unwrap();
            assert_eq!((names.tree_type, names.record_size), (8, 17));
            assert_eq!((order.tree_type, order.record_size), (9, 13));
            assert_eq!(names.total_records, n as u64);
        }
    }
    // The dataset's attributes of other types.
    let attrs = f.dataset("/data").unwrap().attributes().unwrap();
    assert_eq!(attrs.len(), 10);
    assert_eq!(attrs[9].name, "label");
    assert_eq!(attrs[9].data, b"hello");
    check_with_libhdf5(&path, &state);
    if let Some(h5dump) = tool("/usr/bin/h5dump") {
        let text = run(Command::new(h5dump)
            .args(["-a", "/data/names", "-a", "/data/label"])
            .arg(&path));
        // h5dump 1.10 escapes each byte of a non-ASCII character as a sign-extended octal.
        let want = format!(
            "HDF5 \"{}\" {{\nATTRIBUTE \"names\" {{\n   DATATYPE  H5T_STRING {{\n      \
             STRSIZE H5T_VARIABLE;\n      STRPAD H5T_STR_NULLTERM;\n      CSET H5T_CSET_UTF8;\n      \
             CTYPE H5T_C_S1;\n   }}\n   DATASPACE  SIMPLE {{ ( 3 ) / ( 3 ) }}\n   DATA {{\n   \
             (0): \"alpha\", \"\\37777777716\\37777777662eta\", \"\"\n   }}\n}}\n\
             ATTRIBUTE \"label\" {{\n   DATATYPE  H5T_STRING {{\n      STRSIZE 5;\n      \
             STRPAD H5T_STR_NULLTERM;\n      CSET H5T_CSET_ASCII;\n      CTYPE H5T_C_S1;\n   \
             }}\n   DATASPACE  SCALAR\n   DATA {{\n   (0): \"hello\"\n   }}\n}}\n}}\n",
            path.display()
        );
        same_text(&text, &want, "/data");
    }
}

/// What `dense_modify` (either version) does to the state.
fn modified(mut s: State) -> State {
    for i in 40..70 {
        s.add_link("g40", &format!("new_{i:04}"));
    }
    for i in (1usize..40).step_by(4) {
        if !i.is_multiple_of(3) && i != 5 {
            s.del_link("g40", &format!("sub_{i:04}"));
        }
    }
    for i in 500..600 {
        let (a, v) = att(i);
        s.add_attr("a500", &a, v);
    }
    for i in (0..500).step_by(10) {
        s.del_attr("a500", &format!("att_{i:04}"));
    }
    s.set_attr("a500", "att_0001", vec![7, 7]);
    s.del_attr("big", "b80k");
    s.add_attr("big", "more", (0..30_000).collect());
    for i in 0..4 {
        s.del_attr("a9", &format!("att_{i:04}"));
    }
    for n in ["sub_0001", "sub_0002", "sub_0004", "soft_0000"] {
        s.del_link("g9", n);
    }
    for i in 0..4 {
        s.del_link("mix", &format!("sub_{:04}", 2 * i));
        s.del_attr("mix", &format!("att_{:04}", 2 * i + 1));
    }
    s.add_attr("/", "r_new", vec![42]);
    s.del_attr("/", "r_03");
    s
}

/// Reopens the file in our writer, changes it and flushes; returns the new state.
fn change_with_our_writer(path: &Path, mut s: State) -> State {
    let mut w = Hdf5Writer::open(path).unwrap();
    let root = w.root();
    let a500 = w.child(root, "a500").unwrap();
    for i in 600..650 {
        let (a, v) = att(i);
        w.put_attribute(a500, ints_attr(&a, &v)).unwrap();
        s.add_attr("a500", &a, v);
    }
    w.delete_attribute(a500, "att_0002").unwrap();
    s.del_attr("a500", "att_0002");
    let g40 = w.child(root, "g40").unwrap();
    w.unlink(g40, "new_0040").unwrap();
    s.del_link("g40", "new_0040");
    w.create_group(g40, "new_0070").unwrap();
    s.add_link("g40", "new_0070");
    let a9 = w.child(root, "a9").unwrap();
    for i in 100..106 {
        let (a, v) = att(i);
        w.put_attribute(a9, ints_attr(&a, &v)).unwrap();
        s.add_attr("a9", &a, v);
    }
    let big = w.child(root, "big").unwrap();
    w.delete_attribute(big, "more").unwrap();
    s.del_attr("big", "more");
    w.put_attribute(root, ints_attr("r_last", &[-1, -2]))
        .unwrap();
    s.add_attr("/", "r_last", vec![-1, -2]);
    w.flush().unwrap();
    drop(w);
    s
}

/// Reopens the file in our writer and makes it rewrite every group (an attribute added and
/// deleted again leaves a gap in the creation order); adds one link.
fn rewrite_with_our_writer(path: &Path, mut s: State) -> State {
    let mut w = Hdf5Writer::open(path).unwrap();
    let root = w.root();
    let names: Vec<String> = s.0.iter().skip(1).map(|o| o.name.clone()).collect();
    let mut ids = vec![root];
    ids.extend(names.iter().map(|n| w.child(root, n).unwrap()));
    for g in ids {
        w.put_attribute(g, ints_attr("tmp", &[0])).unwrap();
        w.delete_attribute(g, "tmp").unwrap();
    }
    let g1000 = w.child(root, "g1000").unwrap();
    w.create_group(g1000, "sub_extra").unwrap();
    s.add_link("g1000", "sub_extra");
    w.flush().unwrap();
    s
}

#[test]
fn libhdf5_changes_our_dense_storage() {
    let Some(h5cc) = tool("/usr/bin/h5cc") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("dense_modify");
    // (h5cc leaves its object file in the working directory.)
    run(Command::new(h5cc)
        .current_dir(dir.path())
        .arg("-o")
        .arg(&exe)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dense_modify.c")));
    let path = dir.path().join("dense.h5");
    let state = modified(build(&path));
    run(Command::new(&exe).arg(&path));
    assert_eq!(read_state(&path), state);
    check_with_libhdf5(&path, &state);
    let state = change_with_our_writer(&path, state);
    assert_eq!(read_state(&path), state);
    check_with_libhdf5(&path, &state);
    // libhdf5 also changes the dense storage our writer rewrote after reopening a file.
    let path = dir.path().join("rewritten.h5");
    let state = build(&path);
    let state = rewrite_with_our_writer(&path, state);
    assert_eq!(read_state(&path), state);
    let state = modified(state);
    run(Command::new(&exe).arg(&path));
    assert_eq!(read_state(&path), state);
    check_with_libhdf5(&path, &state);
}

#[test]
fn h5py_changes_our_dense_storage() {
    let Some(py) = python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.h5");
    let state = build(&path);
    let list = |p: &Path| run(Command::new(&py).arg(script()).arg("list").arg(p));
    assert_eq!(list(&path), state.listing());
    run(Command::new(&py).arg(script()).arg("modify").arg(&path));
    let state = modified(state);
    assert_eq!(read_state(&path), state);
    assert_eq!(list(&path), state.listing());
    check_with_libhdf5(&path, &state);
    let state = change_with_our_writer(&path, state);
    assert_eq!(read_state(&path), state);
    assert_eq!(list(&path), state.listing());
    check_with_libhdf5(&path, &state);
}

/// A file in h5py's default format (no creation order anywhere, old-style groups, compact
/// attributes in version 1 headers) reopened in our writer: with one link and one attribute
/// more, the root and the group get dense links and attributes with name indexes only, listed
/// by name everywhere.
#[test]
fn untracked_objects_get_name_indexes_only() {
    let Some(py) = python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("untracked.h5");
    run(Command::new(&py).arg(script()).arg("untracked").arg(&path));
    let mut w = Hdf5Writer::open(&path).unwrap();
    let root = w.root();
    let g = w.child(root, "g").unwrap();
    let mut state = State(Vec::new());
    for (name, id) in [("/", root), ("g", g)] {
        w.create_group(id, "sub_0020").unwrap();
        w.put_attribute(id, ints_attr("att_0020", &[20, -20]))
            .unwrap();
        let mut links: Vec<String> = (0..21).map(|i| format!("sub_{i:04}")).collect();
        let mut attrs: Vec<(String, Vec<i32>)> = (0..21)
            .map(|i| (format!("att_{i:04}"), vec![19 - i, i - 19]))
            .collect();
        attrs[20].1 = vec![20, -20];
        if name == "/" {
            links.insert(0, "g".into());
        }
        links.sort();
        attrs.sort();
        state.0.push(Obj {
            name: name.into(),
            links,
            attrs,
        });
    }
    // The root's other members are empty groups.
    for i in 0..21 {
        state.0.push(Obj {
            name: format!("sub_{i:04}"),
            links: Vec::new(),
            attrs: Vec::new(),
        });
    }
    w.flush().unwrap();
    drop(w);
    // Without creation order, attributes come in the name index's (hash) order, as netcdf-c
    // reads them; compare them by name.
    let mut got = read_state(&path);
    got.0.iter_mut().for_each(|o| o.attrs.sort());
    assert_eq!(got, state);
    let f = open(&path);
    for p in ["/", "/g"] {
        let h = header(&f, p);
        let m = h.message(MessageType::LINK_INFO).unwrap();
        let li = DenseStorageInfo::parse_link_info(Cursor::new(&m.data, m.offset, "li"), f.sizes())
            .unwrap();
        let m = h.message(MessageType::ATTRIBUTE_INFO).unwrap();
        let ai =
            DenseStorageInfo::parse_attribute_info(Cursor::new(&m.data, m.offset, "ai"), f.sizes())
                .unwrap();
        for info in [li, ai] {
            assert!(!info.tracks_order && info.fractal_heap.is_some() && info.name_index.is_some());
            assert_eq!(info.order_index, None);
        }
    }
    assert_eq!(
        run(Command::new(&py).arg(script()).arg("list").arg(&path)),
        state.listing()
    );
    if let Some(h5dump) = tool("/usr/bin/h5dump") {
        run(Command::new(&h5dump).arg("-A").arg(&path));
        for o in &state.0 {
            h5dump_attributes_by_name(&h5dump, &path, &o.name, &state);
        }
    }
    // h5py can still change it.
    run(Command::new(&py).args(["-c", "import h5py, numpy, sys; f = h5py.File(sys.argv[1], 'r+'); f['g'].attrs['att_0000'] = numpy.array([5], dtype='<i4'); del f['g/sub_0003']; del f.attrs['att_0007']; f.close()"]).arg(&path));
    state.obj("g").attrs[0].1 = vec![5];
    state.del_link("g", "sub_0003");
    state.del_attr("/", "att_0007");
    let mut got = read_state(&path);
    got.0.iter_mut().for_each(|o| o.attrs.sort());
    assert_eq!(got, state);
}

/// An attribute message of 65535 bytes still fits an object header; one of 65536 bytes moves
/// the object's attributes (the small ones too) to dense storage, as libhdf5 does.
#[test]
fn attribute_messages_of_64_kib_go_dense() {
    let u8t = Datatype::FixedPoint {
        size: 1,
        big_endian: false,
        signed: false,
        bit_offset: 0,
        precision: 8,
    };
    let spec = |n: usize| AttrSpec {
        name: "blob".into(),
        dtype: TypeSpec::Inline(u8t.clone()),
        space: Dataspace::Simple {
            dims: vec![n as u64],
            max_dims: vec![Some(n as u64)],
        },
        data: vec![Piece::Bytes((0..n).map(|i| (i % 251) as u8).collect())],
    };
    let body_len = |n: usize| {
        let mut e = purecdf_hdf5::format::encode::Encoder::new(
            purecdf_hdf5::format::cursor::SizeParams::new(8, 8, 0).unwrap(),
        );
        AttributeMessage {
            name: "blob".into(),
            dtype: purecdf_hdf5::format::messages::attribute::TypeRef::Inline(u8t.clone()),
            space: spec(n).space,
            data: vec![0; n],
        }
        .encode(&mut e);
        e.len()
    };
    let overhead = body_len(1) - 1;
    let dir = tempfile::tempdir().unwrap();
    for (body, dense) in [(65535usize, false), (65536, true)] {
        let n = body - overhead;
        assert_eq!(body_len(n), body);
        let path = dir.path().join(format!("b{body}.h5"));
        let mut w = Hdf5Writer::create(&path).unwrap();
        let root = w.root();
        w.put_attribute(root, ints_attr("first", &[1])).unwrap();
        w.put_attribute(root, spec(n)).unwrap();
        w.flush().unwrap();
        drop(w);
        let f = open(&path);
        let h = header(&f, "/");
        assert_eq!(
            h.messages_of(MessageType::ATTRIBUTE).count(),
            if dense { 0 } else { 2 },
            "{body}"
        );
        let attrs = f.root().unwrap().attributes().unwrap();
        assert_eq!(attrs.len(), 2);
        assert_eq!(attrs[0].data, 1i32.to_le_bytes());
        assert_eq!(attrs[1].data.len(), n);
        assert!(attrs[1]
            .data
            .iter()
            .enumerate()
            .all(|(i, &b)| b == (i % 251) as u8));
        if let Some(h5dump) = tool("/usr/bin/h5dump") {
            let got = h5dump_values(&h5dump, &path, "/blob");
            assert_eq!(got.len(), n);
            assert!(got.iter().enumerate().all(|(i, &v)| v == (i % 251) as i64));
        }
    }
}
