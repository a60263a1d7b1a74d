//! Shared parts of the dense-storage tests: the test file, its expected state, and what our
//! reader, h5dump and h5py report about a file.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use purecdf_hdf5::format::messages::attribute::AttributeMessage;
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::{Charset, Datatype, StringPadding};
use purecdf_hdf5::format::messages::fill_value::{FillTime, FillValue};
use purecdf_hdf5::format::messages::filter_pipeline::FilterPipeline;
use purecdf_hdf5::format::object_header::{MessageType, ObjectHeader};
use purecdf_hdf5::io::FileSource;
use purecdf_hdf5::read::{Group, Hdf5File, Slab};
use purecdf_hdf5::write::{
    AttrSpec, DatasetSpec, Hdf5Writer, ObjId, Piece, StorageSpec, Target, TypeSpec,
};

pub(crate) fn i32t() -> Datatype {
    Datatype::integer(4, true, false)
}

pub(crate) fn ints_attr(name: &str, v: &[i32]) -> AttrSpec {
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

pub(crate) fn string(s: &str) -> Piece {
    Piece::Vlen {
        count: s.len() as u32,
        content: vec![Piece::Bytes(s.as_bytes().to_vec())],
    }
}

/// The links and int attributes of the root and its groups, in creation order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Obj {
    pub(crate) name: String,
    pub(crate) links: Vec<String>,
    pub(crate) attrs: Vec<(String, Vec<i32>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct State(pub(crate) Vec<Obj>);

impl State {
    pub(crate) fn obj(&mut self, name: &str) -> &mut Obj {
        self.0.iter_mut().find(|o| o.name == name).unwrap()
    }
    pub(crate) fn add_link(&mut self, g: &str, name: &str) {
        self.obj(g).links.push(name.to_string());
    }
    pub(crate) fn del_link(&mut self, g: &str, name: &str) {
        let o = self.obj(g);
        let before = o.links.len();
        o.links.retain(|l| l != name);
        assert_eq!(o.links.len() + 1, before, "{g}/{name}");
    }
    pub(crate) fn add_attr(&mut self, g: &str, name: &str, v: Vec<i32>) {
        self.obj(g).attrs.push((name.to_string(), v));
    }
    pub(crate) fn del_attr(&mut self, g: &str, name: &str) {
        let o = self.obj(g);
        let before = o.attrs.len();
        o.attrs.retain(|a| a.0 != name);
        assert_eq!(o.attrs.len() + 1, before, "{g}@{name}");
    }
    pub(crate) fn set_attr(&mut self, g: &str, name: &str, v: Vec<i32>) {
        self.obj(g)
            .attrs
            .iter_mut()
            .find(|a| a.0 == name)
            .unwrap()
            .1 = v;
    }

    /// The listing `dense_modify.py list` prints.
    pub(crate) fn listing(&self) -> String {
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

pub(crate) fn link_name(i: usize) -> String {
    if i.is_multiple_of(3) {
        format!("soft_{i:04}")
    } else if i == 5 {
        format!("ext_{i:04}")
    } else {
        format!("sub_{i:04}")
    }
}

pub(crate) fn att(i: usize) -> (String, Vec<i32>) {
    (format!("att_{i:04}"), vec![i as i32, -(i as i32)])
}

/// Writes the test file and returns the state it holds.
pub(crate) fn build(path: &Path) -> State {
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
                base: Box::new(Datatype::integer(1, false, false)),
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

pub(crate) fn open(path: &Path) -> Hdf5File {
    Hdf5File::open(Arc::new(FileSource::open(path).unwrap())).unwrap()
}

pub(crate) fn decode_ints(a: &AttributeMessage) -> Vec<i32> {
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
pub(crate) fn read_state(path: &Path) -> State {
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

pub(crate) fn header(f: &Hdf5File, path: &str) -> ObjectHeader {
    f.object_header(f.object_address(path).unwrap()).unwrap()
}

pub(crate) fn require_reference() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

/// A reference tool, or `None` (skip) when it is missing and not required.
pub(crate) fn tool(path: &str) -> Option<PathBuf> {
    if Path::new(path).exists() {
        return Some(path.into());
    }
    assert!(!require_reference(), "{path} is required");
    None
}

pub(crate) fn run(cmd: &mut Command) -> String {
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
pub(crate) fn same_text(got: &str, want: &str, what: &str) {
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
pub(crate) fn h5dump_attributes_by_name(h5dump: &Path, file: &Path, group: &str, state: &State) {
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
pub(crate) fn h5dump_members(h5dump: &Path, file: &Path, group: &str) -> Vec<String> {
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
pub(crate) fn h5dump_values(h5dump: &Path, file: &Path, attr: &str) -> Vec<i64> {
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
pub(crate) fn check_with_libhdf5(file: &Path, state: &State) {
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

pub(crate) fn python() -> Option<PathBuf> {
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

pub(crate) fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dense_modify.py")
}
