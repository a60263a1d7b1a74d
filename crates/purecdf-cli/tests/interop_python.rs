//! Python's netCDF-4 readers on the files we write: netCDF4-python (netcdf-c underneath) and
//! h5py (libhdf5 only) must read every value we wrote, through `tests/python/dump_values.py`,
//! which prints one canonical line per dimension, type, variable, value list and attribute.
//!
//! - `python_reads_api_files`: files written through the purecdf API (every atomic type,
//!   strings, compound/vlen/enum/opaque, groups, an unlimited dimension, chunking with deflate,
//!   shuffle and fletcher32, big-endian numbers, fill values, compact storage, the classic
//!   model); both views must equal what the test wrote, line for line.
//! - `python_reads_ncgen_files_as_netcdf_cs`: every CDL of netcdf-c's corpus written by our
//!   ncgen and by netcdf-c's (`-k nc4` and `-k nc7`); both Python views of our file must equal
//!   those of netcdf-c's (less `_NCProperties`).
//!
//! A Python with h5py, netCDF4 and numpy comes from `$PURECDF_PYTHON` (CI makes a venv) or
//! `python3`; without one the tests skip, or fail under `PURECDF_REQUIRE_REFERENCE=1`.

mod support;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use purecdf::model::{CompoundField, UserType, UserTypeKind};
use purecdf::{Chunking, CreateOptions, Format, GroupId, NcType, Value, Values};
use support::*;

const ROOT: GroupId = GroupId(0);

/// Expected lines of the two views.
#[derive(Default)]
struct Expect {
    nc: Vec<String>,
    h5: Vec<String>,
}

impl Expect {
    fn both(&mut self, line: String) {
        self.nc.push(line.clone());
        self.h5.push(line);
    }
}

fn f32s(v: &[f32]) -> Vec<String> {
    v.iter().map(|x| format!("0x{:08x}", x.to_bits())).collect()
}

fn f64s(v: &[f64]) -> Vec<String> {
    v.iter()
        .map(|x| format!("0x{:016x}", x.to_bits()))
        .collect()
}

fn ints<T: ToString>(v: &[T]) -> Vec<String> {
    v.iter().map(ToString::to_string).collect()
}

/// A JSON string as Python's `json.dumps(s, ensure_ascii=False)` writes it.
fn js(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            '\u{8}' => o.push_str("\\b"),
            '\u{c}' => o.push_str("\\f"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn chars(text: &[u8]) -> Vec<String> {
    text.iter()
        .map(|&b| {
            if b == 0 {
                "x:".to_string()
            } else {
                format!("x:{b:02x}")
            }
        })
        .collect()
}

/// The canonical rendering of an atomic `Values`, as dump_values.py prints it.
fn render(v: &Values) -> Vec<String> {
    match v {
        Values::Byte(x) => ints(x),
        Values::UByte(x) => ints(x),
        Values::Short(x) => ints(x),
        Values::UShort(x) => ints(x),
        Values::Int(x) => ints(x),
        Values::UInt(x) => ints(x),
        Values::Int64(x) => ints(x),
        Values::UInt64(x) => ints(x),
        Values::Float(x) => f32s(x),
        Values::Double(x) => f64s(x),
        Values::Char(x) => chars(x),
        Values::String(x) => x.iter().map(|s| js(s.as_deref().unwrap_or(""))).collect(),
        Values::User(..) => panic!("render user values by hand"),
    }
}

fn code(t: NcType) -> &'static str {
    match t {
        NcType::Byte => "i1",
        NcType::UByte => "u1",
        NcType::Short => "i2",
        NcType::UShort => "u2",
        NcType::Int => "i4",
        NcType::UInt => "u4",
        NcType::Int64 => "i8",
        NcType::UInt64 => "u8",
        NcType::Float => "f4",
        NcType::Double => "f8",
        NcType::Char => "S1",
        NcType::String => "str",
        NcType::User(_) => panic!("user type"),
    }
}

/// The `att` line of an attribute (text attributes read back as `str`).
fn att_line(path: &str, name: &str, v: &Values) -> String {
    match v {
        Values::Char(t) => format!(
            "att {path}@{name} = str {}",
            js(&String::from_utf8_lossy(t))
        ),
        Values::String(_) => format!("att {path}@{name} = str {}", render(v).join(" ")),
        _ => format!(
            "att {path}@{name} = {} {}",
            code(v.nc_type()),
            render(v).join(" ")
        ),
    }
}

/// A variable's `var` and `data` lines. `nc_storage`/`h5_storage` differ only for compact.
struct VarLine<'a> {
    path: &'a str,
    ty: &'a str,
    shape: &'a [u64],
    dims: &'a [&'a str],
    storage: &'a str,
    data: Vec<String>,
}

fn var_lines(e: &mut Expect, v: VarLine<'_>, nc_too: bool) {
    let shape = v
        .shape
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let data = format!("data {} = {}", v.path, v.data.join(" "));
    let h5_storage = v.storage;
    e.h5.push(format!(
        "var {} {} shape=[{shape}] {h5_storage}",
        v.path, v.ty
    ));
    e.h5.push(data.clone());
    if nc_too {
        let nc_storage = if v.storage == "compact" {
            "contiguous"
        } else {
            v.storage
        };
        e.nc.push(format!(
            "var {} {} shape=[{shape}] {nc_storage} dims=({})",
            v.path,
            v.ty,
            v.dims.join(",")
        ));
        e.nc.push(data);
    }
}

/// Writes the netCDF-4 file of `python_reads_api_files` and returns what both views must show.
fn write_api_file(path: &Path) -> Expect {
    let mut e = Expect::default();
    let mut f = purecdf::create_with(
        path,
        CreateOptions {
            format: Format::Netcdf4,
            ..CreateOptions::default()
        },
    )
    .unwrap();
    let x = f.add_dimension("x", 3).unwrap().id();
    let t = f.add_unlimited_dimension("t").unwrap().id();
    let _ = (x, t);
    e.nc.push("dim /x 3".into());
    e.nc.push("dim /t 4 unlimited".into());

    // Every atomic type over x, with extremes.
    let atomics: Vec<(&str, Values)> = vec![
        ("b", Values::Byte(vec![-128, 0, 127])),
        ("ub", Values::UByte(vec![0, 128, 255])),
        ("s", Values::Short(vec![-32768, 1, 32767])),
        ("us", Values::UShort(vec![0, 1, 65535])),
        ("i", Values::Int(vec![i32::MIN, -1, i32::MAX])),
        ("ui", Values::UInt(vec![0, 7, u32::MAX])),
        ("i64", Values::Int64(vec![i64::MIN, 0, i64::MAX])),
        ("u64", Values::UInt64(vec![0, 1 << 40, u64::MAX])),
        (
            "f",
            Values::Float(vec![f32::MIN_POSITIVE, f32::NAN, -f32::INFINITY]),
        ),
        ("d", Values::Double(vec![1e-300, -0.0, f64::MAX])),
        ("c", Values::Char(b"a\0z".to_vec())),
        (
            "str",
            Values::String(vec![
                Some("héllo \"q\"\n".into()),
                Some(String::new()),
                None,
            ]),
        ),
    ];
    let mut ids = Vec::new();
    for (name, vals) in &atomics {
        let id = f
            .add_variable_of_type(name, vals.nc_type(), &["x"])
            .unwrap();
        ids.push(id);
    }
    // Big-endian numbers; explicit chunks with fletcher32; deflate+shuffle; compact.
    let be_i = f.add_variable::<i32>("be_i", &["x"]).unwrap().id();
    f.def_var_endian(be_i, Some(true)).unwrap();
    let be_d = f.add_variable::<f64>("be_d", &["t", "x"]).unwrap().id();
    f.def_var_endian(be_d, Some(true)).unwrap();
    f.def_var_chunking(be_d, Chunking::Chunked(vec![2, 3]))
        .unwrap();
    let fl = f.add_variable::<i16>("fl", &["x"]).unwrap().id();
    f.def_var_chunking(fl, Chunking::Chunked(vec![2])).unwrap();
    f.def_var_fletcher32(fl, true).unwrap();
    let rec = f.add_variable::<f32>("rec", &["t", "x"]).unwrap().id();
    f.def_var_chunking(rec, Chunking::Chunked(vec![1, 3]))
        .unwrap();
    f.def_var_deflate(rec, true, Some(1)).unwrap();
    f.put_attribute(ROOT, Some(rec), "_FillValue", Values::Float(vec![-1.0]))
        .unwrap();
    let cpt = f.add_variable::<u16>("cpt", &["x"]).unwrap().id();
    f.def_var_chunking(cpt, Chunking::Compact).unwrap();
    let _unwritten = f.add_variable::<i32>("unwritten", &["x"]).unwrap().id();
    let scalar = f.add_variable::<f64>("scalar", &[]).unwrap().id();

    // User types: compound, vlen, enum, opaque.
    let comp = f
        .def_type(
            ROOT,
            UserType {
                name: "pair_t".into(),
                kind: UserTypeKind::Compound {
                    size: 24,
                    fields: vec![
                        CompoundField {
                            name: "id".into(),
                            offset: 0,
                            typ: NcType::Int,
                            dims: vec![],
                        },
                        CompoundField {
                            name: "v".into(),
                            offset: 8,
                            typ: NcType::Double,
                            dims: vec![2],
                        },
                    ],
                },
            },
        )
        .unwrap();
    let vlen = f
        .def_type(
            ROOT,
            UserType {
                name: "row_t".into(),
                kind: UserTypeKind::Vlen {
                    base: NcType::Short,
                },
            },
        )
        .unwrap();
    let enm = f
        .def_type(
            ROOT,
            UserType {
                name: "color_t".into(),
                kind: UserTypeKind::Enum {
                    base: NcType::UByte,
                    members: vec![("RED".into(), 0), ("GREEN".into(), 1), ("BLUE".into(), 7)],
                },
            },
        )
        .unwrap();
    let opq = f
        .def_type(
            ROOT,
            UserType {
                name: "blob_t".into(),
                kind: UserTypeKind::Opaque { size: 4 },
            },
        )
        .unwrap();
    e.nc.push("type /pair_t compound size=24 {id:i4@0,v:f8(2)@8}".into());
    e.nc.push("type /row_t vlen i2".into());
    e.nc.push("type /color_t enum u1 {BLUE=7,GREEN=1,RED=0}".into());
    let v_comp = f
        .add_variable_in(ROOT, "comp", NcType::User(comp), &[x])
        .unwrap();
    let v_vlen = f
        .add_variable_in(ROOT, "ragged", NcType::User(vlen), &[x])
        .unwrap();
    let v_enum = f
        .add_variable_in(ROOT, "color", NcType::User(enm), &[x])
        .unwrap();
    let v_opq = f
        .add_variable_in(ROOT, "blob", NcType::User(opq), &[])
        .unwrap();

    // Groups.
    let g1 = f.add_group_in(ROOT, "g1").unwrap();
    let y = f.add_dimension_in(g1, "y", 2, false).unwrap();
    let g2 = f.add_group_in(g1, "g2").unwrap();
    let gv = f.add_variable_in(g2, "gv", NcType::Int64, &[y, x]).unwrap();
    e.nc.push("group /g1".into());
    e.nc.push("group /g1/g2".into());
    e.nc.push("dim /g1/y 2".into());

    // Attributes of every kind.
    let text = Values::Char(b"a title".to_vec());
    let strs = Values::String(vec![Some("one".into()), Some("twö".into())]);
    let nums = Values::Double(vec![0.5, -2.25]);
    let u64s = Values::UInt64(vec![u64::MAX]);
    for (name, v) in [
        ("title", &text),
        ("names", &strs),
        ("nums", &nums),
        ("big", &u64s),
    ] {
        f.add_attribute(name, v.clone()).unwrap();
        e.both(att_line("/", name, v));
    }
    let units = Values::Char(b"m/s".to_vec());
    f.put_attribute(ROOT, Some(ids[9]), "units", units.clone())
        .unwrap();
    e.both(att_line("/d", "units", &units));
    let gatt = Values::Short(vec![1, 2, 3]);
    f.put_attribute(g1, None, "gatt", gatt.clone()).unwrap();
    e.both(att_line("/g1/", "gatt", &gatt));
    let ca = Values::User(
        comp,
        vec![Value::Compound(vec![
            Value::Int(9),
            Value::Array(vec![Value::Double(1.5), Value::Double(-3.0)]),
        ])],
    );
    f.put_attribute(ROOT, Some(v_comp), "cattr", ca).unwrap();
    e.both(format!(
        "att /comp@cattr = compound {{id:9,v:[{} {}]}}",
        f64s(&[1.5])[0],
        f64s(&[-3.0])[0]
    ));
    let ea = Values::User(enm, vec![Value::Enum(7)]);
    f.put_attribute(ROOT, Some(v_enum), "eattr", ea).unwrap();
    e.both("att /color@eattr = u1 7".into());
    e.both(att_line("/rec", "_FillValue", &Values::Float(vec![-1.0])));

    f.enddef().unwrap();

    // Data.
    for ((name, vals), id) in atomics.iter().zip(&ids) {
        f.put_raw_values(*id, vals, ..).unwrap();
        let p = format!("/{name}");
        let ty = code(vals.nc_type());
        var_lines(
            &mut e,
            VarLine {
                path: &p,
                ty,
                shape: &[3],
                dims: &["x"],
                storage: "contiguous",
                data: render(vals),
            },
            true,
        );
    }
    f.put_values(be_i, &[1i32, -2, 0x01020304], ..).unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/be_i",
            ty: "i4",
            shape: &[3],
            dims: &["x"],
            storage: "contiguous be",
            data: ints(&[1, -2, 0x01020304]),
        },
        true,
    );
    let bed: Vec<f64> = (0..12).map(|i| f64::from(i) * 0.25 - 1.0).collect();
    f.put_values(be_d, &bed, (&[0u64, 0][..], &[4u64, 3][..]))
        .unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/be_d",
            ty: "f8",
            shape: &[4, 3],
            dims: &["t", "x"],
            storage: "chunks=[2,3] be",
            data: f64s(&bed),
        },
        true,
    );
    f.put_values(fl, &[5i16, -6, 7], ..).unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/fl",
            ty: "i2",
            shape: &[3],
            dims: &["x"],
            storage: "chunks=[2] fletcher32",
            data: ints(&[5, -6, 7]),
        },
        true,
    );
    // Records 0, 1 and 3 of rec; record 2 is never written and reads as the fill value.
    f.put_values(
        rec,
        &[1f32, 2., 3., 4., 5., 6.],
        (&[0u64, 0][..], &[2u64, 3][..]),
    )
    .unwrap();
    f.put_values(rec, &[10f32, 11., 12.], (&[3u64, 0][..], &[1u64, 3][..]))
        .unwrap();
    let recv = [1f32, 2., 3., 4., 5., 6., -1., -1., -1., 10., 11., 12.];
    var_lines(
        &mut e,
        VarLine {
            path: "/rec",
            ty: "f4",
            shape: &[4, 3],
            dims: &["t", "x"],
            storage: "chunks=[1,3] gzip=1 shuffle",
            data: f32s(&recv),
        },
        true,
    );
    f.put_values(cpt, &[9u16, 8, 7], ..).unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/cpt",
            ty: "u2",
            shape: &[3],
            dims: &["x"],
            storage: "compact",
            data: ints(&[9, 8, 7]),
        },
        true,
    );
    var_lines(
        &mut e,
        VarLine {
            path: "/unwritten",
            ty: "i4",
            shape: &[3],
            dims: &["x"],
            storage: "contiguous",
            data: ints(&[-2147483647; 3]),
        },
        true,
    );
    f.put_values(scalar, &[2.5f64], ..).unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/scalar",
            ty: "f8",
            shape: &[],
            dims: &[],
            storage: "contiguous",
            data: f64s(&[2.5]),
        },
        true,
    );
    let pair = |id: i32, a: f64, b: f64| {
        Value::Compound(vec![
            Value::Int(id),
            Value::Array(vec![Value::Double(a), Value::Double(b)]),
        ])
    };
    let cv = Values::User(
        comp,
        vec![pair(1, 0.5, 1.5), pair(-2, 2.5, 3.5), pair(3, 0.0, -1.0)],
    );
    f.put_raw_values(v_comp, &cv, ..).unwrap();
    let cstr =
        |id: i32, a: f64, b: f64| format!("{{id:{id},v:[{} {}]}}", f64s(&[a])[0], f64s(&[b])[0]);
    var_lines(
        &mut e,
        VarLine {
            path: "/comp",
            ty: "compound",
            shape: &[3],
            dims: &["x"],
            storage: "contiguous",
            data: vec![cstr(1, 0.5, 1.5), cstr(-2, 2.5, 3.5), cstr(3, 0.0, -1.0)],
        },
        true,
    );
    let vl = |v: &[i16]| Value::Vlen(v.iter().map(|x| Value::Short(*x)).collect());
    let vv = Values::User(vlen, vec![vl(&[1, 2, 3]), vl(&[]), vl(&[-7])]);
    f.put_raw_values(v_vlen, &vv, ..).unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/ragged",
            ty: "vlen:i2",
            shape: &[3],
            dims: &["x"],
            storage: "contiguous",
            data: vec!["[1 2 3]".into(), "[]".into(), "[-7]".into()],
        },
        true,
    );
    let ev = Values::User(enm, vec![Value::Enum(7), Value::Enum(0), Value::Enum(1)]);
    f.put_raw_values(v_enum, &ev, ..).unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/color",
            ty: "enum:u1",
            shape: &[3],
            dims: &["x"],
            storage: "contiguous",
            data: ints(&[7, 0, 1]),
        },
        true,
    );
    let ov = Values::User(opq, vec![Value::Opaque(vec![0xde, 0xad, 0xbe, 0xef])]);
    f.put_raw_values(v_opq, &ov, ..).unwrap();
    // netCDF4-python leaves opaque variables out ("unsupported datatype").
    var_lines(
        &mut e,
        VarLine {
            path: "/blob",
            ty: "opaque:4",
            shape: &[],
            dims: &[],
            storage: "contiguous",
            data: vec!["x:deadbeef".into()],
        },
        false,
    );
    let g: Vec<i64> = vec![1, -2, 3, i64::MAX, 5, i64::MIN];
    f.put_values(gv, &g, ..).unwrap();
    var_lines(
        &mut e,
        VarLine {
            path: "/g1/g2/gv",
            ty: "i8",
            shape: &[2, 3],
            dims: &["y", "x"],
            storage: "contiguous",
            data: ints(&g),
        },
        true,
    );
    f.close().unwrap();
    e
}

/// A netCDF-4 classic model file: atomic types only, a record variable, attributes.
fn write_classic_model_file(path: &Path) -> Expect {
    let mut e = Expect::default();
    let mut f = purecdf::create_with(path, Format::Netcdf4Classic).unwrap();
    f.add_unlimited_dimension("time").unwrap();
    f.add_dimension("lat", 2).unwrap();
    let time = f.add_variable::<f64>("time", &["time"]).unwrap().id();
    let temp = f
        .add_variable::<f32>("temp", &["time", "lat"])
        .unwrap()
        .id();
    let name = f
        .add_variable_of_type("name", NcType::Char, &["lat"])
        .unwrap();
    let units = Values::Char(b"hours since 2000-01-01".to_vec());
    f.put_attribute(ROOT, Some(time), "units", units.clone())
        .unwrap();
    f.add_attribute("Conventions", "CF-1.8").unwrap();
    f.enddef().unwrap();
    let tv = [0.0, 6.0, 12.0];
    let pv = [280.5f32, 281.25, 279.0, 278.75, 300.0, 301.5];
    f.put_values(time, &tv, [..3usize]).unwrap();
    f.put_values(temp, &pv, (&[0u64, 0][..], &[3u64, 2][..]))
        .unwrap();
    f.put_values(name, b"NS", ..).unwrap();
    f.close().unwrap();
    e.nc.push("dim /time 3 unlimited".into());
    e.nc.push("dim /lat 2".into());
    e.both(att_line(
        "/",
        "Conventions",
        &Values::Char(b"CF-1.8".to_vec()),
    ));
    e.both(att_line("/time", "units", &units));
    // netcdf-c's default chunk sizes for these shapes (`ncgen -k nc7` + `ncdump -s` agree).
    for (p, ty, shape, dims, st, data) in [
        (
            "/time",
            "f8",
            &[3u64][..],
            &["time"][..],
            "chunks=[512]",
            f64s(&tv),
        ),
        (
            "/temp",
            "f4",
            &[3, 2],
            &["time", "lat"],
            "chunks=[1,2]",
            f32s(&pv),
        ),
        ("/name", "S1", &[2], &["lat"], "contiguous", chars(b"NS")),
    ] {
        var_lines(
            &mut e,
            VarLine {
                path: p,
                ty,
                shape,
                dims,
                storage: st,
                data,
            },
            true,
        );
    }
    e
}

fn compare(what: &str, expected: &[String], got: Option<&Vec<String>>) -> Option<String> {
    let mut want: Vec<String> = expected.to_vec();
    want.sort();
    let got: Vec<String> = got
        .map(|g| {
            g.iter()
                .filter(|l| !l.contains("@_NCProperties"))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if want == got {
        return None;
    }
    let missing: Vec<_> = want.iter().filter(|l| !got.contains(l)).collect();
    let extra: Vec<_> = got.iter().filter(|l| !want.contains(l)).collect();
    Some(format!(
        "{what}:\n  expected but not read: {missing:#?}\n  read but not expected: {extra:#?}"
    ))
}

#[test]
fn python_reads_api_files() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("api.nc");
    let c = dir.path().join("classic_model.nc");
    let files = [
        (a.clone(), write_api_file(&a)),
        (c.clone(), write_classic_model_file(&c)),
    ];
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let nc = python_dump(&py, "nc", &paths, dir.path());
    let h5 = python_dump(&py, "h5", &paths, dir.path());
    let mut failures = Vec::new();
    for (p, e) in &files {
        let name = p.file_name().unwrap().to_string_lossy();
        failures.extend(compare(&format!("{name} netCDF4-python"), &e.nc, nc.get(p)));
        failures.extend(compare(&format!("{name} h5py"), &e.h5, h5.get(p)));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Cases whose data netCDF4-python reads from uninitialised memory (variables without fill
/// whose chunks were never written): compared without their `data` lines.
const GARBAGE_DATA: &[&str] = &[
    "ref_tst_ncf213",
    "ref_tst_special_atts",
    "ref_tst_special_atts3",
];

fn corpus_cdls(data: &Path) -> Vec<PathBuf> {
    let mut cdls = Vec::new();
    for dir in ["ncdump/cdl", "ncdump"] {
        if let Ok(rd) = std::fs::read_dir(data.join(dir)) {
            cdls.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "cdl")),
            );
        }
    }
    cdls.sort();
    cdls.retain(|p| {
        let n = p.file_stem().unwrap_or_default().to_string_lossy();
        !n.starts_with("bigf") && !n.starts_with("bigr") // several GB each
    });
    cdls
}

#[test]
fn python_reads_ncgen_files_as_netcdf_cs() {
    let Some(data) = netcdf_c_data() else { return };
    let Some(()) = reference_tools() else { return };
    let Some(py) = python() else { return };
    let work = tempfile::tempdir().unwrap();
    // (ours, theirs, case name) for every CDL netcdf-c's ncgen writes.
    let mut pairs: Vec<(PathBuf, PathBuf, String)> = Vec::new();
    for kind in ["nc4", "nc7"] {
        for (i, cdl) in corpus_cdls(&data).iter().enumerate() {
            let name = cdl.file_stem().unwrap().to_string_lossy().to_string();
            let theirs = work.path().join(format!("{i}_{kind}_theirs.nc"));
            let ours = work.path().join(format!("{i}_{kind}_ours.nc"));
            let gen = |tool: &str, out: &Path| {
                run(
                    tool,
                    [
                        OsStr::new("-k"),
                        OsStr::new(kind),
                        OsStr::new("-o"),
                        out.as_os_str(),
                        cdl.as_os_str(),
                    ],
                    work.path(),
                )
            };
            if !gen(REF_NCGEN, &theirs).success || !theirs.exists() {
                continue; // refused by netcdf-c: conformance_netcdf4 checks we refuse it too
            }
            let o = gen(OURS.ncgen, &ours);
            assert!(o.success, "{name} -k {kind}: {}", o.failure("our ncgen"));
            pairs.push((ours, theirs, format!("{name} -k {kind}")));
        }
    }
    assert!(pairs.len() >= 120, "only {} files", pairs.len());
    let all: Vec<PathBuf> = pairs
        .iter()
        .flat_map(|(o, t, _)| [o.clone(), t.clone()])
        .collect();
    let mut failures = Vec::new();
    let mut readable = 0;
    for view in ["nc", "h5"] {
        let dumps = python_dump(&py, view, &all, work.path());
        for (ours, theirs, label) in &pairs {
            let garbage = GARBAGE_DATA
                .iter()
                .any(|g| label.split(' ').next() == Some(g));
            let clean = |p: &PathBuf| -> Vec<String> {
                dumps
                    .get(p)
                    .cloned()
                    .unwrap_or_else(|| vec!["<no dump>".into()])
                    .into_iter()
                    .filter(|l| !l.contains("@_NCProperties"))
                    .filter(|l| !(garbage && l.starts_with("data ")))
                    .collect()
            };
            let (o, t) = (clean(ours), clean(theirs));
            if !t.iter().any(|l| l.starts_with("ERROR")) {
                readable += 1;
            }
            if o != t {
                let first = o
                    .iter()
                    .zip(&t)
                    .find(|(a, b)| a != b)
                    .map(|(a, b)| format!("ours {a:?}, netcdf-c's {b:?}"))
                    .unwrap_or_else(|| format!("{} lines vs {}", o.len(), t.len()));
                failures.push(format!("{label} ({view}): {first}"));
            }
        }
    }
    println!(
        "{} files, {readable} dumps without a Python error, {} differences",
        pairs.len(),
        failures.len()
    );
    assert!(readable >= 220, "only {readable} dumps Python could read");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
