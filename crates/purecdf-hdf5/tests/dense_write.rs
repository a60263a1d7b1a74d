//! Dense link and attribute storage written by [`Hdf5Writer`]: groups with 9, 40 and 1000 links
//! and objects with 9, 40 and 500 attributes, attributes of 80 KB and 1 MB, mixtures. The files
//! read back through our reader and through libhdf5 (h5dump, h5stat, exact values, names looked
//! up one by one through our name indexes), libhdf5 1.10 (a C program, `data/dense_modify.c`) and
//! h5py (`data/dense_modify.py`) add and delete links and attributes in them, and the changed
//! files read back everywhere and reopen in our writer, which changes and flushes them again.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use purecdf_hdf5::format::btree_v2::BTreeV2;
use purecdf_hdf5::format::checksum::lookup3;
use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::fractal_heap::FractalHeap;
use purecdf_hdf5::format::messages::attribute::AttributeMessage;
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::{Charset, Datatype, StringPadding};
use purecdf_hdf5::format::messages::fill_value::{FillTime, FillValue};
use purecdf_hdf5::format::messages::filter_pipeline::FilterPipeline;
use purecdf_hdf5::format::messages::links::{DenseStorageInfo, Link};
use purecdf_hdf5::format::object_header::{MessageType, ObjectHeader};
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::{Group, Hdf5File, Slab};
use purecdf_hdf5::write::{
    AttrSpec, DatasetSpec, Hdf5Writer, ObjId, Piece, StorageSpec, Target, TypeSpec,
};

fn i32t() -> Datatype {
    Datatype::FixedPoint {
        size: 4,
        big_endian: false,
        signed: true,
        bit_offset: 0,
        precision: 32,
    }
}

fn ints_attr(name: &str, v: &[i32]) -> AttrSpec {
    AttrSpec {
        name: name.into(),
        dtype: TypeSpec::Inline(i32t()),
        space: Dataspace::Simple {
            dims: vec![v.len() as u64],
            max_dims: vec![Some(v.len() as u64)],
        },
        data: vec![Piece::Bytes(
            v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        )],
    }
}

fn string(s: &str) -> Piece {
    Piece::Vlen {
        count: s.len() as u32,
        content: vec![Piece::Bytes(s.as_bytes().to_vec())],
    }
}

/// The links and int attributes of the root and its groups, in creation order.
#[derive(Debug, Clone, PartialEq)]
struct Obj {
    name: String,
    links: Vec<String>,
    attrs: Vec<(String, Vec<i32>)>,
}

#[derive(Debug, Clone, PartialEq)]
struct State(Vec<Obj>);

impl State {
    fn obj(&mut self, name: &str) -> &mut Obj {
        self.0.iter_mut().find(|o| o.name == name).unwrap()
    }
    fn add_link(&mut self, g: &str, name: &str) {
        self.obj(g).links.push(name.to_string());
    }
    fn del_link(&mut self, g: &str, name: &str) {
        let o = self.obj(g);
        let before = o.links.len();
        o.links.retain(|l| l != name);
        assert_eq!(o.links.len() + 1, before, "{g}/{name}");
    }
    fn add_attr(&mut self, g: &str, name: &str, v: Vec<i32>) {
        self.obj(g).attrs.push((name.to_string(), v));
    }
    fn del_attr(&mut self, g: &str, name: &str) {
        let o = self.obj(g);
        let before = o.attrs.len();
        o.attrs.retain(|a| a.0 != name);
        assert_eq!(o.attrs.len() + 1, before, "{g}@{name}");
    }
    fn set_attr(&mut self, g: &str, name: &str, v: Vec<i32>) {
        self.obj(g)
            .attrs
            .iter_mut()
            .find(|a| a.0 == name)
            .unwrap()
            .1 = v;
    }

    /// The listing `dense_modify.py list` prints.
    fn listing(&self) -> String {
        let mut out = String::new();
        for o in &self.0 {
            out.push_str(&o.name);
            out.push('\n');
            for l in &o.links {
                out.push_str(&format!("  {l}\n"));
            }
            for (n, v) in &o.attrs {
                if v.len() <= 16 {
                    let vals: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                    out.push_str(&format!("  @{n} {}: {}\n", v.len(), vals.join(" ")));
                } else {
                    let sum: i64 = v.iter().map(|&x| i64::from(x)).sum();
                    out.push_str(&format!(
                        "  @{n} {}: {} .. {} sum {sum}\n",
                        v.len(),
                        v[0],
                        v[v.len() - 1]
                    ));
                }
            }
        }
        out
    }
}

fn link_name(i: usize) -> String {
    if i.is_multiple_of(3) {
        format!("soft_{i:04}")
    } else if i == 5 {
        format!("ext_{i:04}")
    } else {
        format!("sub_{i:04}")
    }
}

fn att(i: usize) -> (String, Vec<i32>) {
    (format!("att_{i:04}"), vec![i as i32, -(i as i32)])
}

/// Writes the test file and returns the state it holds.
fn build(path: &Path) -> State {
    let mut w = Hdf5Writer::create(path).unwrap();
    let root = w.root();
    let mut state = State(vec![Obj {
        name: "/".into(),
        links: Vec::new(),
        attrs: Vec::new(),
    }]);
    for i in 0..10 {
        let a = (format!("r_{i:02}"), vec![i]);
        w.put_attribute(root, ints_attr(&a.0, &a.1)).unwrap();
        state.0[0].attrs.push(a);
    }
    let group = |w: &mut Hdf5Writer, state: &mut State, name: &str| -> ObjId {
        state.0[0].links.push(name.into());
        state.0.push(Obj {
            name: name.into(),
            links: Vec::new(),
            attrs: Vec::new(),
        });
        w.create_group(root, name).unwrap()
    };
    for (name, n) in [("g8", 8usize), ("g9", 9), ("g40", 40), ("g1000", 1000)] {
        let g = group(&mut w, &mut state, name);
        for i in 0..n {
            let l = link_name(i);
            if l.starts_with("soft") {
                w.link(g, &l, Target::Soft("/g8".into())).unwrap();
            } else if l.starts_with("ext") {
                w.link(g, &l, Target::External("other.h5".into(), "/x".into()))
                    .unwrap();
            } else {
                w.create_group(g, &l).unwrap();
            }
            state.add_link(name, &l);
        }
    }
    for (name, n) in [("a8", 8usize), ("a9", 9), ("a40", 40), ("a500", 500)] {
        let g = group(&mut w, &mut state, name);
        for i in 0..n {
            let (a, v) = att(i);
            w.put_attribute(g, ints_attr(&a, &v)).unwrap();
            state.add_attr(name, &a, v);
        }
    }
    let big = group(&mut w, &mut state, "big");
    for (n, v) in [
        ("small", vec![1]),
        ("b80k", (0..20_000).collect::<Vec<i32>>()),
        ("b1m", (0..262_144).collect()),
    ] {
        w.put_attribute(big, ints_attr(n, &v)).unwrap();
        state.add_attr("big", n, v);
    }
    // Twelve links and twelve attributes, one of them 70 KB.
    let mix = group(&mut w, &mut state, "mix");
    for i in 0..12 {
        let l = format!("sub_{i:04}");
        w.create_group(mix, &l).unwrap();
        state.add_link("mix", &l);
        let (a, v) = if i == 5 {
            (format!("att_{i:04}"), (0..17_500).collect())
        } else {
            att(i)
        };
        w.put_attribute(mix, ints_attr(&a, &v)).unwrap();
        state.add_attr("mix", &a, v);
    }
    // A dataset with dense attributes of other types (vlen strings in the global heap).
    let data = w
        .create_dataset(
            root,
            "data",
            DatasetSpec {
                dtype: TypeSpec::Inline(i32t()),
                space: Dataspace::Simple {
                    dims: vec![4],
                    max_dims: vec![Some(4)],
                },
                storage: StorageSpec::Contiguous,
                filters: FilterPipeline::default(),
                fill: FillValue {
                    alloc_time: 2,
                    fill_time: FillTime::IfSet,
                    value: None,
                },
            },
        )
        .unwrap();
    state.0[0].links.push("data".into());
    w.write(
        data,
        &Slab::whole(&[4]),
        &[1i32, 2, 3, 4]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    for i in 0..8 {
        let (a, v) = att(i);
        w.put_attribute(data, ints_attr(&a, &v)).unwrap();
    }
    w.put_attribute(
        data,
        AttrSpec {
            name: "names".into(),
            dtype: TypeSpec::Inline(Datatype::VarLen {
                base: Box::new(Datatype::FixedPoint {
                    size: 1,
                    big_endian: false,
                    signed: false,
                    bit_offset: 0,
                    precision: 8,
                }),
                is_string: true,
                padding: StringPadding::NullTerminate,
                charset: Charset::Utf8,
            }),
            space: Dataspace::Simple {
                dims: vec![3],
                max_dims: vec![Some(3)],
            },
            data: vec![string("alpha"), string("βeta"), string("")],
        },
    )
    .unwrap();
    w.put_attribute(
        data,
        AttrSpec {
            name: "label".into(),
            dtype: TypeSpec::Inline(Datatype::String {
                size: 5,
                padding: StringPadding::NullTerminate,
                charset: Charset::Ascii,
            }),
            space: Dataspace::Scalar,
            data: vec![Piece::Bytes(b"hello".to_vec())],
        },
    )
    .unwrap();
    w.flush().unwrap();
    state
}

fn open(path: &Path) -> Hdf5File {
    Hdf5File::open(Arc::new(FileSource::open(path).unwrap())).unwrap()
}

fn decode_ints(a: &AttributeMessage) -> Vec<i32> {
    assert_eq!(
        a.dtype,
        purecdf_hdf5::format::messages::attribute::TypeRef::Inline(i32t()),
        "{}",
        a.name
    );
    a.data
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// The state as our reader sees it.
fn read_state(path: &Path) -> State {
    let f = open(path);
    let root = f.root().unwrap();
    let mut out = Vec::new();
    let obj = |name: &str, g: &Group| Obj {
        name: name.into(),
        links: g.members().unwrap().into_iter().map(|m| m.name).collect(),
        attrs: g
            .attributes()
            .unwrap()
            .iter()
            .map(|a| (a.name.clone(), decode_ints(a)))
            .collect(),
    };
    out.push(obj("/", &root));
    for m in root.members().unwrap() {
        let h = f.object_header(m.address.unwrap()).unwrap();
        if h.message(MessageType::LAYOUT).is_some() {
            continue;
        }
        out.push(obj(&m.name, &Group::load(&f, m.address.unwrap()).unwrap()));
    }
    State(out)
}

fn header(f: &Hdf5File, path: &str) -> ObjectHeader {
    f.object_header(f.object_address(path).unwrap()).unwrap()
}

fn require_reference() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

/// A reference tool, or `None` (skip) when it is missing and not required.
fn tool(path: &str) -> Option<PathBuf> {
    if Path::new(path).exists() {
        return Some(path.into());
    }
    assert!(!require_reference(), "{path} is required");
    None
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Compares long texts, reporting the first line that differs.
fn same_text(got: &str, want: &str, what: &str) {
    if got != want {
        let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
        let i = (0..g.len().max(w.len()))
            .find(|&i| g.get(i) != w.get(i))
            .unwrap_or(0);
        panic!(
            "{what}: line {}: got {:?}, want {:?}",
            i + 1,
            g.get(i),
            w.get(i)
        );
    }
}

/// `h5dump -a` of every int attribute of `group` (each found by name through the name index),
/// compared with the text h5dump prints for the values we expect.
fn h5dump_attributes_by_name(h5dump: &Path, file: &Path, group: &str, state: &State) {
    let o = state.0.iter().find(|o| o.name == group).unwrap();
    let prefix = if group == "/" {
        String::new()
    } else {
        format!("/{group}")
    };
    let small: Vec<&(String, Vec<i32>)> = o.attrs.iter().filter(|a| a.1.len() <= 2).collect();
    if small.is_empty() {
        return;
    }
    let mut cmd = Command::new(h5dump);
    let mut want = format!("HDF5 \"{}\" {{\n", file.display());
    for (n, v) in &small {
        cmd.arg("-a").arg(format!("{prefix}/{n}"));
        let vals: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        want.push_str(&format!(
            "ATTRIBUTE \"{n}\" {{\n   DATATYPE  H5T_STD_I32LE\n   DATASPACE  SIMPLE {{ ( {l} ) / ( {l} ) }}\n   DATA {{\n   (0): {}\n   }}\n}}\n",
            vals.join(", "),
            l = v.len()
        ));
    }
    want.push_str("}\n");
    same_text(&run(cmd.arg(file)), &want, group);
}

/// The member names h5dump lists for a group, in creation order.
fn h5dump_members(h5dump: &Path, file: &Path, group: &str) -> Vec<String> {
    let text = run(Command::new(h5dump)
        .args(["-A", "--sort_by=creation_order", "-g"])
        .arg(format!("/{group}"))
        .arg(file));
    text.lines()
        .filter(|l| l.starts_with("   ") && !l.starts_with("    "))
        .filter_map(|l| {
            let l = l.trim_start();
            ["GROUP \"", "SOFTLINK \"", "EXTERNAL_LINK \"", "DATASET \""]
                .iter()
                .find_map(|p| l.strip_prefix(p))
                .map(|r| r[..r.find('"').unwrap()].to_string())
        })
        .collect()
}

/// Every value h5dump prints for one attribute.
fn h5dump_values(h5dump: &Path, file: &Path, attr: &str) -> Vec<i64> {
    let text = run(Command::new(h5dump).arg("-a").arg(attr).arg(file));
    let data = &text[text.find("DATA {").unwrap() + 6..];
    let data = &data[..data.find('}').unwrap()];
    data.lines()
        .filter_map(|l| l.split_once("): ").map(|(_, v)| v))
        .flat_map(|v| v.split(','))
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.trim().parse().unwrap())
        .collect()
}

/// Everything libhdf5's tools can check about a file in this state.
fn check_with_libhdf5(file: &Path, state: &State) {
    let Some(h5dump) = tool("/usr/bin/h5dump") else {
        return;
    };
    run(Command::new(&h5dump).arg(file));
    run(Command::new(&h5dump)
        .args(["-A", "--sort_by=creation_order"])
        .arg(file));
    if let Some(h5stat) = tool("/usr/bin/h5stat") {
        run(Command::new(h5stat).arg(file));
    }
    for o in &state.0 {
        h5dump_attributes_by_name(&h5dump, file, &o.name, state);
        if o.name != "/" {
            assert_eq!(
                h5dump_members(&h5dump, file, &o.name),
                o.links,
                "{}",
                o.name
            );
        }
    }
    // Every subgroup of the 1000-link group, found by name.
    let subs: Vec<&String> = state
        .0
        .iter()
        .find(|o| o.name == "g1000")
        .unwrap()
        .links
        .iter()
        .filter(|l| l.starts_with("sub"))
        .collect();
    let mut cmd = Command::new(&h5dump);
    let mut want = format!("HDF5 \"{}\" {{\n", file.display());
    for s in &subs {
        cmd.arg("-g").arg(format!("/g1000/{s}"));
        want.push_str(&format!("GROUP \"/g1000/{s}\" {{\n}}\n"));
    }
    want.push_str("}\n");
    same_text(&run(cmd.arg(file)), &want, "g1000");
    // Large attributes, value by value.
    for (n, v) in &state.0.iter().find(|o| o.name == "big").unwrap().attrs {
        let got = h5dump_values(&h5dump, file, &format!("/big/{n}"));
        assert_eq!(got.len(), v.len(), "{n}");
        assert!(got.iter().zip(v).all(|(a, &b)| *a == i64::from(b)), "{n}");
    }
}

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

fn python() -> Option<PathBuf> {
    let py: PathBuf =
        std::env::var_os("PURECDF_PYTHON").map_or_else(|| "python3".into(), PathBuf::from);
    let ok = Command::new(&py)
        .args(["-c", "import h5py, numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(py);
    }
    assert!(
        !require_reference(),
        "{} cannot import h5py and numpy (set PURECDF_PYTHON to a python that can)",
        py.display()
    );
    None
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dense_modify.py")
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
