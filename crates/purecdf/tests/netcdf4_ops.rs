//! netCDF-4 definitions, data writes, reopening and error codes compared against netcdf-c: the C
//! program tests/c/netcdf4_ops.c runs each scenario through libnetcdf, this file runs the same
//! calls through purecdf, and netcdf-c's `ncdump -s` must print the same for both files (less
//! the `_NCProperties` line and the dataset name); where a scenario records error codes, the
//! codes must be the same.
//!
//! The C program is compiled at test time with `cc ... -lnetcdf`. Without a compiler, libnetcdf
//! or /usr/bin/ncdump the tests skip, unless PURECDF_REQUIRE_REFERENCE=1, when they fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use purecdf::model::{CompoundField, UserType, UserTypeKind, Value};
use purecdf::{Chunking, CreateOptions, Format, GroupId, NcType, Values, VarId};

const ROOT: GroupId = GroupId(0);

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

/// Builds the C driver once; `None` when it cannot be built and the reference is optional.
fn driver() -> Option<&'static Path> {
    static EXE: OnceLock<Option<PathBuf>> = OnceLock::new();
    EXE.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/netcdf4_ops.c");
        let out = std::env::temp_dir().join(format!("purecdf_netcdf4_ops_{}", std::process::id()));
        let ok = Command::new("cc")
            .arg("-o")
            .arg(&out)
            .arg(&src)
            .arg("-lnetcdf")
            .status()
            .is_ok_and(|s| s.success())
            && Path::new("/usr/bin/ncdump").is_file();
        if ok {
            Some(out)
        } else if require() {
            panic!("cannot build tests/c/netcdf4_ops.c against libnetcdf, or no /usr/bin/ncdump");
        } else {
            eprintln!("skipping: libnetcdf, cc or ncdump not available");
            None
        }
    })
    .as_deref()
}

/// netcdf-c's `ncdump -s`, without the name line and `_NCProperties`.
fn dump(p: &Path) -> String {
    let out = Command::new("/usr/bin/ncdump")
        .arg("-s")
        .arg(p)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ncdump -s {}: {}",
        p.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(1)
        .filter(|l| !l.contains("_NCProperties"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs a scenario both ways and compares; `ours` returns the error codes it recorded.
fn compare(scenario: &str, ours: impl FnOnce(&Path) -> Vec<i32>) {
    let Some(exe) = driver() else { return };
    let dir = tempfile::tempdir().unwrap();
    let theirs = dir.path().join(format!("{scenario}_c.nc"));
    let out = Command::new(exe)
        .arg(scenario)
        .arg(&theirs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{scenario}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let their_codes: Vec<i32> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    let mine = dir.path().join(format!("{scenario}_rs.nc"));
    let my_codes = ours(&mine);
    assert_eq!(
        my_codes, their_codes,
        "{scenario}: error codes (ours, netcdf-c's)"
    );
    let (a, b) = (dump(&theirs), dump(&mine));
    if a != b {
        let first = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(a.lines().count().min(b.lines().count()));
        panic!(
            "{scenario}: ncdump -s differs at line {}:\nnetcdf-c: {:?}\npurecdf:  {:?}\n--- netcdf-c ---\n{a}\n--- purecdf ---\n{b}",
            first + 2,
            a.lines().nth(first),
            b.lines().nth(first)
        );
    }
    let h = Command::new("/usr/bin/h5dump").arg(&mine).output();
    if let Ok(h) = h {
        assert!(h.status.success(), "{scenario}: h5dump fails on our file");
    }
}

fn create(p: &Path, format: Format) -> purecdf::FileMut {
    purecdf::create_with(
        p,
        CreateOptions {
            format,
            ..CreateOptions::default()
        },
    )
    .unwrap()
}

fn code<T>(r: purecdf::Result<T>) -> i32 {
    match r {
        Ok(_) => 0,
        Err(e) => e.kind().nc_code(),
    }
}

fn put<T: purecdf::NcElement>(
    w: &mut purecdf::FileMut,
    v: VarId,
    data: &[T],
    start: &[u64],
    count: &[u64],
) {
    w.put_values(v, data, (start, count)).unwrap();
}

#[test]
fn every_type_and_fill() {
    compare("types", |p| {
        let mut w = create(p, Format::Netcdf4);
        let x = w.add_dimension("x", 3).unwrap().id();
        let mut v = Vec::new();
        for (name, t) in [
            ("b", NcType::Byte),
            ("c", NcType::Char),
            ("s", NcType::Short),
            ("i", NcType::Int),
            ("f", NcType::Float),
            ("d", NcType::Double),
            ("ub", NcType::UByte),
            ("us", NcType::UShort),
            ("ui", NcType::UInt),
            ("i8", NcType::Int64),
            ("u8", NcType::UInt64),
            ("str", NcType::String),
        ] {
            v.push(w.add_variable_in(ROOT, name, t, &[x]).unwrap());
        }
        let filled = w
            .add_variable_in(ROOT, "filled", NcType::Int, &[x])
            .unwrap();
        w.put_attribute(ROOT, Some(filled), "_FillValue", vec![-9i32])
            .unwrap();
        let nofill = w
            .add_variable_in(ROOT, "nofill", NcType::Short, &[x])
            .unwrap();
        w.def_var_fill(nofill, true).unwrap();
        let strs = vec![
            Some(String::new()),
            Some("two".into()),
            Some("three é".into()),
        ];
        w.add_attribute("title", "types").unwrap();
        w.add_attribute("ab", vec![-1i8, 0, 1]).unwrap();
        w.add_attribute("as", vec![-300i16, 0, 300]).unwrap();
        w.add_attribute("ai", vec![-70000i32, 0, 70000]).unwrap();
        w.add_attribute("af", vec![-1.5f32, 0., 2.25]).unwrap();
        w.add_attribute("ad", vec![-1e300f64, 0., 1e-300]).unwrap();
        w.add_attribute("aub", vec![0u8, 128, 255]).unwrap();
        w.add_attribute("aus", vec![0u16, 40000, 65535]).unwrap();
        w.add_attribute("aui", vec![0u32, 3_000_000_000, 4_294_967_295])
            .unwrap();
        w.add_attribute("ai8", vec![-9_000_000_000_000i64, 0, 9_000_000_000_000])
            .unwrap();
        w.add_attribute("au8", vec![0u64, 1, 18_000_000_000_000_000_000])
            .unwrap();
        w.add_attribute("astr", Values::String(strs.clone()))
            .unwrap();
        w.add_attribute("empty", "").unwrap();
        w.add_attribute("noints", Values::Int(vec![])).unwrap();
        w.enddef().unwrap();
        put(&mut w, v[0], &[-1i8, 0, 1], &[0], &[3]);
        w.put_raw_values(
            v[1],
            &Values::Char(b"abc".to_vec()),
            (&[0u64][..], &[3u64][..]),
        )
        .unwrap();
        put(&mut w, v[2], &[-300i16, 0, 300], &[0], &[3]);
        put(&mut w, v[3], &[-70000i32, 0, 70000], &[0], &[3]);
        put(&mut w, v[4], &[-1.5f32, 0., 2.25], &[0], &[3]);
        put(&mut w, v[5], &[-1e300f64, 0., 1e-300], &[0], &[3]);
        put(&mut w, v[6], &[0u8, 128, 255], &[0], &[3]);
        put(&mut w, v[7], &[0u16, 40000, 65535], &[0], &[3]);
        put(
            &mut w,
            v[8],
            &[0u32, 3_000_000_000, 4_294_967_295],
            &[0],
            &[3],
        );
        put(
            &mut w,
            v[9],
            &[-9_000_000_000_000i64, 0, 9_000_000_000_000],
            &[0],
            &[3],
        );
        put(
            &mut w,
            v[10],
            &[0u64, 1, 18_000_000_000_000_000_000],
            &[0],
            &[3],
        );
        w.put_raw_values(
            v[11],
            &Values::String(strs[1..].to_vec()),
            (&[1u64][..], &[2u64][..]),
        )
        .unwrap();
        put(&mut w, filled, &[70000i32], &[2], &[1]);
        put(&mut w, nofill, &[-300i16, 0, 300], &[0], &[3]);
        w.close().unwrap();
        Vec::new()
    });
}

fn compound(fields: &[(&str, usize, NcType, &[usize])], size: usize) -> UserTypeKind {
    UserTypeKind::Compound {
        size,
        fields: fields
            .iter()
            .map(|(n, o, t, d)| CompoundField {
                name: n.to_string(),
                offset: *o,
                typ: *t,
                dims: d.to_vec(),
            })
            .collect(),
    }
}

#[test]
fn groups_and_user_types() {
    compare("groups", |p| {
        let mut w = create(p, Format::Netcdf4);
        let t = w.add_unlimited_dimension("t").unwrap().id();
        let x = w.add_dimension("x", 2).unwrap().id();
        let g1 = w.add_group_in(ROOT, "g1").unwrap();
        let g2 = w.add_group_in(g1, "g2").unwrap();
        // struct { int id; double val; char tag[3]; short arr[2][2]; }: C layout.
        let rec = w
            .def_type(
                g1,
                UserType {
                    name: "rec_t".into(),
                    kind: compound(
                        &[
                            ("id", 0, NcType::Int, &[]),
                            ("val", 8, NcType::Double, &[]),
                            ("tag", 16, NcType::Char, &[3]),
                            ("arr", 20, NcType::Short, &[2, 2]),
                        ],
                        32,
                    ),
                },
            )
            .unwrap();
        let vl = w
            .def_type(
                g1,
                UserType {
                    name: "vlen_t".into(),
                    kind: UserTypeKind::Vlen { base: NcType::Int },
                },
            )
            .unwrap();
        let en = w
            .def_type(
                ROOT,
                UserType {
                    name: "color_t".into(),
                    kind: UserTypeKind::Enum {
                        base: NcType::Byte,
                        members: vec![("red".into(), 0), ("green".into(), 1), ("blue".into(), 2)],
                    },
                },
            )
            .unwrap();
        let op = w
            .def_type(
                g2,
                UserType {
                    name: "blob_t".into(),
                    kind: UserTypeKind::Opaque { size: 5 },
                },
            )
            .unwrap();
        let y = w.add_dimension_in(g1, "y", 3, false).unwrap();
        let v1 = w
            .add_variable_in(g1, "recs", NcType::User(rec), &[x])
            .unwrap();
        let v2 = w.add_variable_in(g1, "vl", NcType::User(vl), &[x]).unwrap();
        let v3 = w
            .add_variable_in(ROOT, "colors", NcType::User(en), &[x])
            .unwrap();
        let v4 = w
            .add_variable_in(g2, "blobs", NcType::User(op), &[x])
            .unwrap();
        let v5 = w
            .add_variable_in(g2, "data", NcType::Float, &[t, y])
            .unwrap();
        let r = |id: i32, val: f64, tag: &[u8], arr: [i16; 4]| {
            Value::Compound(vec![
                Value::Int(id),
                Value::Double(val),
                Value::Array(tag.iter().map(|c| Value::Char(*c)).collect()),
                Value::Array(arr.iter().map(|v| Value::Short(*v)).collect()),
            ])
        };
        let recs = vec![
            r(1, 1.5, b"ab\0", [1, 2, 3, 4]),
            r(2, -2.5, b"cd\0", [5, 6, 7, 8]),
        ];
        w.put_attribute(g1, Some(v1), "first", Values::User(rec, recs[..1].to_vec()))
            .unwrap();
        w.put_attribute(g2, None, "where", "inside").unwrap();
        w.put_attribute(
            ROOT,
            None,
            "favourite",
            Values::User(en, vec![Value::Enum(2)]),
        )
        .unwrap();
        w.enddef().unwrap();
        let all = |n: u64| (vec![0u64], vec![n]);
        let (s, c) = all(2);
        w.put_raw_values(v1, &Values::User(rec, recs), (&s[..], &c[..]))
            .unwrap();
        let vls = vec![
            Value::Vlen(vec![Value::Int(1), Value::Int(2), Value::Int(3)]),
            Value::Vlen(vec![Value::Int(4)]),
        ];
        w.put_raw_values(v2, &Values::User(vl, vls), (&s[..], &c[..]))
            .unwrap();
        w.put_raw_values(
            v3,
            &Values::User(en, vec![Value::Enum(2), Value::Enum(0)]),
            (&s[..], &c[..]),
        )
        .unwrap();
        let blobs = vec![
            Value::Opaque(vec![1, 2, 3, 4, 5]),
            Value::Opaque(vec![6, 7, 8, 9, 10]),
        ];
        w.put_raw_values(v4, &Values::User(op, blobs), (&s[..], &c[..]))
            .unwrap();
        put(&mut w, v5, &[1f32, 2., 3., 4., 5., 6.], &[0, 0], &[2, 3]);
        w.close().unwrap();
        Vec::new()
    });
}

#[test]
fn storage_settings() {
    compare("storage", |p| {
        let mut w = create(p, Format::Netcdf4);
        w.add_unlimited_dimension("t").unwrap();
        w.add_dimension("x", 4).unwrap();
        w.add_dimension("y", 10).unwrap();
        let a = w.add_variable::<f32>("chunked", &["x", "y"]).unwrap().id();
        w.def_var_chunking(a, Chunking::Chunked(vec![2, 5]))
            .unwrap();
        let b = w.add_variable::<f32>("deflated", &["x", "y"]).unwrap().id();
        w.def_var_deflate(b, true, Some(4)).unwrap();
        let c = w.add_variable::<f32>("checked", &["t", "y"]).unwrap().id();
        w.def_var_fletcher32(c, true).unwrap();
        w.def_var_deflate(c, false, Some(9)).unwrap();
        let d = w.add_variable::<i32>("big", &["x", "y"]).unwrap().id();
        w.def_var_endian(d, Some(true)).unwrap();
        let e = w.add_variable::<i16>("compact", &["x"]).unwrap().id();
        w.def_var_chunking(e, Chunking::Compact).unwrap();
        let f = w.add_variable::<f64>("contig", &["x", "y"]).unwrap().id();
        w.def_var_chunking(f, Chunking::Contiguous).unwrap();
        let g = w.add_variable::<i32>("shuffled", &["t"]).unwrap().id();
        w.def_var_deflate(g, true, None).unwrap();
        w.enddef().unwrap();
        let fv: Vec<f32> = (0..40).map(|i| i as f32 / 4.0).collect();
        put(&mut w, a, &fv, &[0, 0], &[4, 10]);
        put(&mut w, b, &fv, &[0, 0], &[4, 10]);
        put(&mut w, c, &fv[..20], &[1, 0], &[2, 10]);
        let iv: Vec<i32> = (0..40).map(|i| i * 1000 - 7).collect();
        put(&mut w, d, &iv, &[0, 0], &[4, 10]);
        put(&mut w, e, &[9i16, 8, 7, 6], &[0], &[4]);
        put(&mut w, g, &iv[..2], &[3], &[2]);
        w.close().unwrap();
        Vec::new()
    });
}

#[test]
fn record_growth_and_reopening() {
    compare("records", |p| {
        let mut w = create(p, Format::Netcdf4);
        w.add_unlimited_dimension("t").unwrap();
        w.add_unlimited_dimension("u").unwrap();
        w.add_dimension("x", 3).unwrap();
        let v = w.add_variable::<i32>("v", &["t", "u", "x"]).unwrap().id();
        let wv = w.add_variable::<f64>("w", &["t"]).unwrap().id();
        w.enddef().unwrap();
        let iv: Vec<i32> = (0..12).collect();
        w.put_values(
            v,
            &iv,
            (&[1u64, 2, 0][..], &[2u64, 2, 3][..], &[2u64, 1, 1][..]),
        )
        .unwrap();
        put(&mut w, wv, &[0.5f64, 1.5], &[4], &[2]);
        w.close().unwrap();
        let mut w = purecdf::append(p).unwrap();
        let wv = w.variable("w").unwrap().id();
        let v = w.variable("v").unwrap().id();
        put(&mut w, wv, &[0.5f64], &[7], &[1]);
        put(&mut w, v, &[10i32, 11], &[0, 0, 1], &[1, 1, 2]);
        w.put_attribute(ROOT, Some(wv), "units", "s").unwrap();
        let a = w.add_variable::<i16>("added", &["x"]).unwrap().id();
        put(&mut w, a, &[1i16, 2, 3], &[0], &[3]);
        w.close().unwrap();
        Vec::new()
    });
}

#[test]
fn classic_model_rules() {
    compare("classic_model", |p| {
        let mut w = create(p, Format::Netcdf4Classic);
        let mut codes = Vec::new();
        let x = w.add_dimension("x", 2).unwrap().id();
        w.add_unlimited_dimension("t").unwrap();
        codes.push(code(w.add_unlimited_dimension("u")));
        codes.push(code(w.add_variable_in(ROOT, "ub", NcType::UByte, &[x])));
        codes.push(code(w.add_group_in(ROOT, "g")));
        codes.push(code(w.def_type(
            ROOT,
            UserType {
                name: "o".into(),
                kind: UserTypeKind::Opaque { size: 3 },
            },
        )));
        let v = w.add_variable::<i32>("v", &["x"]).unwrap().id();
        w.put_attribute(ROOT, Some(v), "units", "m").unwrap();
        w.enddef().unwrap();
        codes.push(code(w.put_attribute(ROOT, Some(v), "new", "n")));
        codes.push(code(w.add_dimension("late", 3)));
        put(&mut w, v, &[4i32, 5], &[0], &[2]);
        w.redef().unwrap();
        codes.push(code(w.put_values(
            v,
            &[4i32, 5],
            (&[0u64][..], &[2u64][..]),
        )));
        w.put_attribute(ROOT, Some(v), "new", "n").unwrap();
        w.close().unwrap();
        codes
    });
}

#[test]
fn definition_errors() {
    compare("errors", |p| {
        let mut w = create(p, Format::Netcdf4);
        let mut codes = Vec::new();
        let x = w.add_dimension("x", 3).unwrap().id();
        let v = w.add_variable::<i32>("v", &["x"]).unwrap().id();
        let sc = w.add_variable_in(ROOT, "sc", NcType::Int, &[]).unwrap();
        let st = w
            .add_variable_in(ROOT, "str", NcType::String, &[x])
            .unwrap();
        codes.push(code(w.def_var_chunking(v, Chunking::Chunked(vec![5]))));
        codes.push(code(w.def_var_chunking(sc, Chunking::Chunked(vec![]))));
        codes.push(code(w.def_var_deflate(sc, false, Some(1))));
        codes.push(code(w.def_var_deflate(v, false, Some(10))));
        codes.push(code(w.def_var_deflate(st, false, Some(1))));
        codes.push(code(w.def_var_endian(st, Some(true))));
        codes.push(code(w.def_var_fill(st, true)));
        codes.push(code(w.put_attribute(
            ROOT,
            Some(v),
            "_FillValue",
            vec![1i16],
        )));
        codes.push(code(w.add_variable_in(ROOT, "v", NcType::Int, &[x])));
        codes.push(code(w.add_group_in(ROOT, "v")));
        codes.push(code(w.def_var_chunking(v, Chunking::Chunked(vec![0]))));
        w.enddef().unwrap();
        codes.push(code(w.def_var_deflate(v, false, Some(1))));
        codes.push(code(w.def_var_chunking(v, Chunking::Contiguous)));
        codes.push(code(w.put_attribute(
            ROOT,
            Some(v),
            "_FillValue",
            vec![3i32],
        )));
        w.close().unwrap();
        codes
    });
}

#[test]
fn renames_and_rewrites() {
    compare("renames", |p| {
        let mut w = create(p, Format::Netcdf4);
        w.add_dimension("x", 2).unwrap();
        let v = w.add_variable::<i32>("v", &["x"]).unwrap().id();
        let wv = w.add_variable::<i32>("w", &["x"]).unwrap().id();
        let g = w.add_group_in(ROOT, "grp").unwrap();
        for (n, t) in [("a1", "1"), ("a2", "2"), ("a3", "3")] {
            w.put_attribute(ROOT, Some(v), n, t).unwrap();
        }
        w.rename_variable(wv, "w_early").unwrap();
        w.enddef().unwrap();
        put(&mut w, v, &[1i32, 2], &[0], &[2]);
        w.rename_variable(v, "v_late").unwrap();
        w.rename_attribute(ROOT, Some(v), "a2", "b2").unwrap();
        w.put_attribute(ROOT, Some(v), "a1", "one").unwrap();
        w.rename_group(g, "group").unwrap();
        w.delete_attribute(ROOT, Some(v), "a3").unwrap();
        w.close().unwrap();
        Vec::new()
    });
}

#[test]
#[allow(clippy::approx_constant)] // the values the C driver writes
fn quantization() {
    use purecdf::Quantize;
    compare("quantize", |p| {
        let mut w = create(p, Format::Netcdf4);
        w.add_dimension("x", 6).unwrap();
        let fv = [3.141_592_7f32, 2.71828, 1e10, -0.333_333, 0.0, 123.456];
        let dv = [3.141_592_65f64, 2.71828, 1e10, -0.333_333, 0.0, 123.456];
        let a = w.add_variable::<f32>("groom", &["x"]).unwrap().id();
        w.def_var_quantize(a, Some((Quantize::BitGroom, 3)))
            .unwrap();
        let b = w.add_variable::<f64>("granular", &["x"]).unwrap().id();
        w.def_var_quantize(b, Some((Quantize::GranularBitRound, 4)))
            .unwrap();
        let c = w.add_variable::<f32>("round", &["x"]).unwrap().id();
        w.put_attribute(ROOT, Some(c), "_FillValue", vec![2.71828f32])
            .unwrap();
        w.def_var_quantize(c, Some((Quantize::BitRound, 9)))
            .unwrap();
        let d = w.add_variable::<f64>("dgroom", &["x"]).unwrap().id();
        w.def_var_quantize(d, Some((Quantize::BitGroom, 5)))
            .unwrap();
        w.put_attribute(ROOT, Some(d), "units", "K").unwrap();
        let e = w.add_variable::<i32>("i", &["x"]).unwrap().id();
        let mut codes = vec![
            code(w.def_var_quantize(e, Some((Quantize::BitGroom, 3)))),
            code(w.def_var_quantize(a, Some((Quantize::BitGroom, 8)))),
            code(w.def_var_quantize(b, Some((Quantize::BitRound, 53)))),
        ];
        w.enddef().unwrap();
        codes.push(code(w.def_var_quantize(a, Some((Quantize::BitGroom, 2)))));
        put(&mut w, a, &fv[..5], &[1], &[5]);
        put(&mut w, b, &dv, &[0], &[6]);
        put(&mut w, c, &fv, &[0], &[6]);
        put(&mut w, d, &dv[..3], &[0], &[3]);
        put(&mut w, d, &dv[3..], &[3], &[3]);
        w.close().unwrap();
        codes
    });
}

/// `abandon` leaves what netcdf-c leaves when a program exits without `nc_close`: before the
/// first `enddef` a netCDF-4 file holds no netCDF objects (netcdf-c's ncdump sees an empty
/// dataset); after it, everything defined (as `close`).
#[test]
fn abandon_before_and_after_enddef() {
    let dir = tempfile::tempdir().unwrap();
    for ended in [false, true] {
        let path = dir.path().join(format!("abandoned_{ended}.nc"));
        let mut f = purecdf::create(&path).unwrap();
        f.add_dimension("x", 3).unwrap();
        f.add_variable::<i32>("v", &["x"]).unwrap();
        f.add_attribute("title", "t").unwrap();
        if ended {
            f.enddef().unwrap();
        }
        f.abandon().unwrap();
        let r = purecdf::open(&path).unwrap();
        assert_eq!(r.variables().count(), usize::from(ended));
        assert_eq!(r.dimensions().count(), usize::from(ended));
        assert_eq!(r.attributes().count(), usize::from(ended));
    }
}
