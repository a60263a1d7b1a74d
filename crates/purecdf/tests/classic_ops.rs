//! Define/redef/append/rename cycles and error kinds compared against netcdf-c itself: the C
//! program tests/c/classic_ops.c runs each scenario through libnetcdf, this file runs the same
//! calls through purecdf, and the two files must be identical byte for byte (for "errors", the
//! error codes must match).
//!
//! The C program is compiled at test time with `cc ... -lnetcdf`. Without a compiler or
//! libnetcdf the tests skip, unless PURECDF_REQUIRE_REFERENCE=1, when they fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use purecdf::{CreateOptions, ErrorKind, Format, GroupId, NcType, Values, VarId};

const ROOT: GroupId = GroupId(0);

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

/// Builds the C driver once; `None` when it cannot be built and the reference is optional.
fn driver() -> Option<&'static Path> {
    static EXE: OnceLock<Option<PathBuf>> = OnceLock::new();
    EXE.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/classic_ops.c");
        let out = std::env::temp_dir().join(format!("purecdf_classic_ops_{}", std::process::id()));
        let ok = Command::new("cc")
            .arg("-o")
            .arg(&out)
            .arg(&src)
            .arg("-lnetcdf")
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            Some(out)
        } else if require() {
            panic!("cannot build tests/c/classic_ops.c against libnetcdf");
        } else {
            eprintln!("skipping: libnetcdf or cc not available");
            None
        }
    })
    .as_deref()
}

/// Runs a scenario through netcdf-c: the file it wrote and what it printed.
fn reference(scenario: &str, dir: &Path) -> Option<(Vec<u8>, String)> {
    let exe = driver()?;
    let p = dir.join(format!("{scenario}_c.nc"));
    let out = Command::new(exe).arg(scenario).arg(&p).output().unwrap();
    assert!(
        out.status.success(),
        "{scenario}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&p).unwrap_or_default();
    Some((bytes, String::from_utf8(out.stdout).unwrap()))
}

fn create(p: &Path, format: Format) -> purecdf::FileMut {
    purecdf::create_with(
        p,
        CreateOptions {
            format,
            noclobber: false,
            ..Default::default()
        },
    )
    .unwrap()
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

fn compare(scenario: &str, ours: impl FnOnce(&Path)) {
    let dir = tempfile::tempdir().unwrap();
    let Some((want, _)) = reference(scenario, dir.path()) else {
        return;
    };
    let p = dir.path().join(format!("{scenario}_rs.nc"));
    ours(&p);
    let got = std::fs::read(&p).unwrap();
    if got != want {
        let i = got.iter().zip(&want).position(|(a, b)| a != b);
        panic!(
            "{scenario}: {} bytes vs netcdf-c's {}; first difference at {i:?}",
            got.len(),
            want.len()
        );
    }
}

#[test]
fn redef_grows_header_and_moves_data() {
    compare("redef_grow", |p| {
        let mut w = create(p, Format::Classic);
        w.add_unlimited_dimension("time").unwrap();
        w.add_dimension("x", 3).unwrap();
        let a = w.add_variable::<i32>("a", &["x"]).unwrap().id();
        let r = w.add_variable::<f32>("r", &["time", "x"]).unwrap().id();
        w.enddef().unwrap();
        put(&mut w, a, &[1i32, 2, 3], &[0], &[3]);
        put(
            &mut w,
            r,
            &[1f32, 2., 3., 4., 5., 6., 7., 8., 9.],
            &[0, 0],
            &[3, 3],
        );
        w.close().unwrap();
        let mut w = purecdf::append(p).unwrap();
        w.redef().unwrap();
        w.add_attribute("history", "a long attribute that grows the header..")
            .unwrap();
        w.add_dimension("y", 2).unwrap();
        let b = w.add_variable::<i16>("b", &["y"]).unwrap().id();
        w.add_variable::<f64>("r2", &["time"]).unwrap().id();
        w.enddef().unwrap();
        put(&mut w, b, &[-5i16, 5], &[0], &[2]);
        put(&mut w, r, &[10f32, 11., 12.], &[3, 0], &[1, 3]);
        w.close().unwrap();
    });
}

#[test]
fn renames_and_attribute_rewrites_in_data_mode() {
    compare("rename_datamode", |p| {
        let mut w = create(p, Format::Offset64);
        let d = w.add_dimension("dimension", 2).unwrap().id();
        let v = w
            .add_variable::<f64>("longname", &["dimension"])
            .unwrap()
            .id();
        w.put_attribute(ROOT, Some(v), "attname", vec![1i32, 2, 3])
            .unwrap();
        w.add_attribute("title", "hello").unwrap();
        w.enddef().unwrap();
        put(&mut w, v, &[1.5f64, 2.5], &[0], &[2]);
        w.rename_variable(v, "short").unwrap();
        w.rename_attribute(ROOT, Some(v), "attname", "a").unwrap();
        w.rename_dimension(d, "dim").unwrap();
        w.put_attribute(ROOT, Some(v), "a", vec![9i32, 8]).unwrap();
        w.add_attribute("title", "bye").unwrap();
        w.close().unwrap();
        let f = purecdf::open(p).unwrap();
        assert!(f.variable("short").is_some());
        assert_eq!(f.dimension("dim").unwrap().len, 2);
        drop(f);
        let mut w = purecdf::append(p).unwrap();
        w.redef().unwrap();
        w.put_attribute(ROOT, Some(v), "units", "m").unwrap();
        w.enddef().unwrap();
        w.close().unwrap();
    });
}

#[test]
fn nofill_record_append_pads_file_at_close() {
    compare("nofill_append", |p| {
        let mut w = create(p, Format::Offset64);
        assert!(w.set_fill(false).unwrap());
        w.add_unlimited_dimension("t").unwrap();
        w.add_dimension("x", 2).unwrap();
        let v = w.add_variable::<i16>("v", &["t", "x"]).unwrap().id();
        w.add_variable::<i8>("w", &["t"]).unwrap().id();
        w.enddef().unwrap();
        put(&mut w, v, &[3i16, 4], &[5, 0], &[1, 2]);
        w.close().unwrap();
    });
}

#[test]
fn cdf5_fill_values_and_strided_writes() {
    compare("cdf5_fill", |p| {
        let mut w = create(p, Format::Cdf5);
        w.add_unlimited_dimension("t").unwrap();
        w.add_dimension("n", 5).unwrap();
        let ub = w.add_variable::<u8>("ub", &["n"]).unwrap().id();
        w.put_attribute(ROOT, Some(ub), "_FillValue", vec![1u8])
            .unwrap();
        let us = w.add_variable::<u16>("us", &["t", "n"]).unwrap().id();
        let ui = w.add_variable::<u32>("ui", &["n"]).unwrap().id();
        let i64v = w.add_variable::<i64>("i64", &["t", "n"]).unwrap().id();
        w.put_attribute(ROOT, Some(i64v), "_FillValue", vec![-5i64])
            .unwrap();
        let u64v = w.add_variable::<u64>("u64", &["n"]).unwrap().id();
        w.add_variable_of_type("c", NcType::Char, &["t", "n"])
            .unwrap();
        w.enddef().unwrap();
        w.put_values(
            us,
            &[100u16, 200],
            (
                [1u64, 0].as_slice(),
                [1u64, 2].as_slice(),
                [1u64, 2].as_slice(),
            ),
        )
        .unwrap();
        w.put_values(
            u64v,
            &[1u64, 2],
            ([1u64].as_slice(), [2u64].as_slice(), [2u64].as_slice()),
        )
        .unwrap();
        put(&mut w, i64v, &[-1i64, 1], &[2, 3], &[1, 2]);
        put(&mut w, ui, &[7u32, 9], &[3], &[2]);
        w.close().unwrap();
        let f = purecdf::open(p).unwrap();
        assert_eq!(
            f.variable("us").unwrap().get_typed_values(..).unwrap(),
            Values::UShort(vec![
                65535, 65535, 65535, 65535, 65535, 100, 65535, 200, 65535, 65535, 65535, 65535,
                65535, 65535, 65535
            ])
        );
    });
}

#[test]
fn deleting_attributes_keeps_data_in_place() {
    compare("del_att_shrink", |p| {
        let mut w = create(p, Format::Classic);
        w.add_unlimited_dimension("t").unwrap();
        w.add_dimension("x", 4).unwrap();
        let a = w.add_variable::<f32>("a", &["x"]).unwrap().id();
        let r = w.add_variable::<i32>("r", &["t"]).unwrap().id();
        w.put_attribute(ROOT, Some(a), "comment", "thirty characters of comment..")
            .unwrap();
        w.add_attribute("g1", "twenty characters...").unwrap();
        w.enddef().unwrap();
        put(&mut w, a, &[1f32, 2., 3., 4.], &[0], &[4]);
        put(&mut w, r, &[5i32, 6], &[0], &[2]);
        w.redef().unwrap();
        w.delete_attribute(ROOT, Some(a), "comment").unwrap();
        w.delete_attribute(ROOT, None, "g1").unwrap();
        w.add_variable::<i8>("b", &["x"]).unwrap().id();
        w.enddef().unwrap();
        w.close().unwrap();
    });
}

#[test]
fn second_record_variable_after_reopen() {
    compare("single_rec_redef", |p| {
        let mut w = create(p, Format::Classic);
        w.add_unlimited_dimension("t").unwrap();
        w.add_dimension("n", 2).unwrap();
        let r = w.add_variable::<i16>("r", &["t", "n"]).unwrap().id();
        w.enddef().unwrap();
        put(&mut w, r, &[1i16, 2, 3, 4, 5, 6], &[0, 0], &[3, 2]);
        w.close().unwrap();
        let mut w = purecdf::append(p).unwrap();
        w.redef().unwrap();
        w.add_variable::<i8>("q", &["t"]).unwrap().id();
        w.enddef().unwrap();
        w.close().unwrap();
    });
}

#[test]
fn packed_records_move_when_a_record_variable_is_added() {
    compare("odd_rec", |p| {
        let mut w = create(p, Format::Classic);
        w.add_unlimited_dimension("t").unwrap();
        w.add_dimension("n", 3).unwrap();
        let r = w.add_variable::<i8>("r", &["t", "n"]).unwrap().id();
        w.enddef().unwrap();
        put(&mut w, r, &[1i8, 2, 3, 4, 5, 6, 7, 8, 9], &[0, 0], &[3, 3]);
        w.redef().unwrap();
        w.add_variable::<i16>("q", &["t"]).unwrap().id();
        w.add_attribute("note", "grown now").unwrap();
        w.enddef().unwrap();
        w.close().unwrap();
    });
}

#[test]
fn cdf2_variable_over_4_gib() {
    // Sparse files: only the header, `a`, and the last element of `v` are written.
    let dir = tempfile::tempdir().unwrap();
    let Some(exe) = driver() else {
        return;
    };
    let cp = dir.path().join("big_c.nc");
    let out = Command::new(exe).arg("big_cdf2").arg(&cp).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rp = dir.path().join("big_rs.nc");
    let mut w = create(&rp, Format::Offset64);
    w.set_fill(false).unwrap();
    w.add_dimension("small", 3).unwrap();
    w.add_dimension("big", 1_200_000_000).unwrap();
    let a = w.add_variable::<i32>("a", &["small"]).unwrap().id();
    let v = w.add_variable::<f32>("v", &["big"]).unwrap().id();
    w.enddef().unwrap();
    put(&mut w, a, &[1i32, 2, 3], &[0], &[3]);
    put(&mut w, v, &[7.5f32], &[1_199_999_999], &[1]);
    w.close().unwrap();
    let head = |p: &Path| {
        use std::io::Read;
        let mut b = vec![0u8; 256];
        let mut f = std::fs::File::open(p).unwrap();
        let n = f.read(&mut b).unwrap();
        b.truncate(n);
        b
    };
    let len = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert_eq!(len(&rp), len(&cp));
    assert_eq!(head(&rp), head(&cp));
    let f = purecdf::open(&rp).unwrap();
    let x: f32 = f.variable("v").unwrap().get_value([1_199_999_999]).unwrap();
    assert_eq!(x, 7.5);
    let g = purecdf::open(&cp).unwrap();
    let y: f32 = g.variable("v").unwrap().get_value([1_199_999_999]).unwrap();
    assert_eq!(y, 7.5);
    assert_eq!(
        g.variable("a").unwrap().get_typed_values(..).unwrap(),
        Values::Int(vec![1, 2, 3])
    );
}

/// `px_nofill_blocks` of tests/c/classic_ops.c: no-fill writes over several of netcdf-c's 8 KiB
/// buffer blocks, with gaps, out of order, strided and across a sync, so that the stale buffer
/// bytes netcdf-c leaves in unwritten space must be reproduced.
fn nofill_blocks(p: &Path, format: Format) {
    let mut w = create(p, format);
    assert!(w.set_fill(false).unwrap());
    w.add_unlimited_dimension("t").unwrap();
    w.add_dimension("n", 3000).unwrap();
    w.add_dimension("m", 5000).unwrap();
    let big = w.add_variable::<i16>("big", &["m"]).unwrap().id();
    let r = w.add_variable::<f32>("r", &["t", "n"]).unwrap().id();
    let rb = w.add_variable::<i8>("rb", &["t"]).unwrap().id();
    let s = w.add_variable::<i16>("s", &["t"]).unwrap().id();
    w.enddef().unwrap();
    let bv: Vec<i16> = (0..5000).collect();
    let rv: Vec<f32> = (0..3000).map(|i| i as f32 * 0.5).collect();
    put(&mut w, big, &bv[..1500], &[3000], &[1500]);
    put(&mut w, big, &bv[..700], &[100], &[700]);
    put(&mut w, r, &rv, &[2, 0], &[1, 3000]);
    put(&mut w, r, &rv[..2000], &[0, 100], &[1, 2000]);
    w.put_values(
        rb,
        &[1i8, 2, 3],
        ([1u64].as_slice(), [3u64].as_slice(), [2u64].as_slice()),
    )
    .unwrap();
    w.sync().unwrap();
    put(&mut w, s, &[-7i16], &[4], &[1]);
    put(&mut w, r, &rv[..500], &[6, 2500], &[1, 500]);
    for i in 10..15 {
        put(&mut w, r, &rv, &[i, 0], &[1, 3000]);
        put(&mut w, rb, &[1i8], &[i], &[1]);
    }
    w.close().unwrap();
}

#[test]
fn nofill_writes_over_several_buffer_blocks() {
    compare("px_nofill_blocks", |p| nofill_blocks(p, Format::Classic));
    compare("px_nofill_blocks64", |p| nofill_blocks(p, Format::Offset64));
}

#[test]
fn reopened_nofill_file_appends_reads_and_outgrows_a_block() {
    compare("px_reopen_redef", |p| {
        nofill_blocks(p, Format::Cdf5);
        let rv: Vec<f32> = (0..3000).map(|i| (3000 - i) as f32).collect();
        let mut w = purecdf::append(p).unwrap();
        w.set_fill(false).unwrap();
        let r = w.variable("r").unwrap().id();
        let s = w.variable("s").unwrap().id();
        put(&mut w, r, &rv[..1000], &[8, 1000], &[1, 1000]);
        let got: Vec<f32> = w
            .variable("r")
            .unwrap()
            .get_values(([2u64, 5].as_slice(), [1u64, 10].as_slice()))
            .unwrap();
        assert_eq!(got, (5..15).map(|i| i as f32 * 0.5).collect::<Vec<_>>());
        put(&mut w, s, &[11i16, 12], &[7], &[2]);
        w.redef().unwrap();
        w.add_attribute("history", "x".repeat(9000).as_str())
            .unwrap();
        w.add_variable::<i32>("q", &["t"]).unwrap().id();
        w.enddef().unwrap();
        put(&mut w, r, &rv, &[9, 0], &[1, 3000]);
        w.close().unwrap();
    });
}

#[test]
fn reopened_file_with_a_header_over_4_kib() {
    compare("px_reopen_big_header", |p| {
        let mut w = create(p, Format::Classic);
        assert!(w.set_fill(false).unwrap());
        w.add_dimension("d", 100).unwrap();
        let v = w.add_variable::<i32>("v", &["d"]).unwrap().id();
        w.add_attribute("comment", "y".repeat(4500).as_str())
            .unwrap();
        w.close().unwrap();
        let mut w = purecdf::append(p).unwrap();
        let iv: Vec<i32> = (0..10).map(|i| i * i).collect();
        put(&mut w, v, &iv, &[20], &[10]);
        w.close().unwrap();
    });
}

#[test]
fn records_move_a_few_bytes_through_double_buffering() {
    compare("px_redef_small_shift", |p| {
        let mut w = create(p, Format::Classic);
        assert!(w.set_fill(false).unwrap());
        w.add_unlimited_dimension("t").unwrap();
        w.add_dimension("n", 5000).unwrap();
        let r = w.add_variable::<f32>("r", &["t", "n"]).unwrap().id();
        let rb = w.add_variable::<i8>("rb", &["t"]).unwrap().id();
        w.enddef().unwrap();
        let rv: Vec<f32> = (0..5000).map(|i| i as f32).collect();
        for i in 0..3 {
            put(&mut w, r, &rv, &[i, 0], &[1, 5000]);
            put(&mut w, rb, &[9i8], &[i], &[1]);
        }
        w.close().unwrap();
        let mut w = purecdf::append(p).unwrap();
        w.set_fill(false).unwrap();
        w.redef().unwrap();
        w.add_attribute("note", "twenty characters...").unwrap();
        w.enddef().unwrap();
        w.close().unwrap();
    });
}

fn code<T>(r: purecdf::Result<T>) -> i32 {
    match r {
        Ok(_) => 0,
        Err(e) => e.nc_code(),
    }
}

#[test]
fn error_codes_match_netcdf_c() {
    let dir = tempfile::tempdir().unwrap();
    let Some((_, printed)) = reference("errors", dir.path()) else {
        return;
    };
    let want: Vec<i32> = printed.lines().map(|l| l.parse().unwrap()).collect();
    let p = dir.path().join("errors_rs.nc");
    let mut got = Vec::new();
    let mut w = create(&p, Format::Classic);
    let t = w.add_unlimited_dimension("t").unwrap().id();
    got.push(code(w.add_unlimited_dimension("t2")));
    let x = w.add_dimension("x", 3).unwrap().id();
    got.push(code(w.add_dimension("x", 4)));
    got.push(code(w.add_dimension("bad/name", 4)));
    got.push(code(w.add_dimension("big", 2_147_483_645)));
    got.push(code(w.add_variable_in(ROOT, "v", NcType::Int, &[x, t])));
    got.push(code(w.add_variable_in(ROOT, "v", NcType::UInt, &[x])));
    got.push(code(w.add_variable_in(ROOT, "v", NcType::String, &[x])));
    got.push(code(w.add_variable_in(
        ROOT,
        "v",
        NcType::Int,
        &[purecdf::DimId(7)],
    )));
    let v = w.add_variable_in(ROOT, "v", NcType::Int, &[x]).unwrap();
    got.push(code(w.add_variable_in(ROOT, "v", NcType::Int, &[x])));
    got.push(code(w.put_attribute(ROOT, Some(v), "u", vec![1u32])));
    got.push(code(w.put_attribute(ROOT, Some(VarId(9)), "u", vec![1i32])));
    got.push(code(w.delete_attribute(ROOT, Some(v), "nothere")));
    got.push(code(w.put_values(v, &[1i32, 2, 3], ..)));
    got.push(code(w.redef()));
    w.enddef().unwrap();
    got.push(code(w.enddef()));
    got.push(code(w.add_dimension("y", 2)));
    got.push(code(w.put_attribute(ROOT, Some(v), "new", vec![1i32])));
    got.push(code(w.rename_variable(v, "longer")));
    got.push(code(w.delete_attribute(ROOT, Some(v), "x")));
    w.close().unwrap();
    // netcdf-c's two read-only checks (nc_redef, nc_set_fill → NC_EPERM) have no counterpart:
    // a read-only `File` has no define-mode methods at all.
    got.push(ErrorKind::Perm.nc_code());
    got.push(ErrorKind::Perm.nc_code());
    let mut w = create(&p, Format::Classic);
    w.add_dimension("h", 1_000_000_000).unwrap();
    w.add_variable::<f64>("h1", &["h"]).unwrap().id();
    w.add_variable::<f64>("h2", &["h"]).unwrap().id();
    got.push(code(w.enddef()));
    assert_eq!(got, want);
}
