//! Writing classic files: our writer, given the same definitions and data as `ncgen` was, must
//! produce the fixtures byte for byte; and the reference `ncdump` must read what we write.

use std::path::{Path, PathBuf};

use purecdf::{CreateOptions, Format, GroupId, Values};

const ROOT: GroupId = GroupId(0);

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/classic")
        .join(name)
}

/// Re-creates `src` with our writer: definitions in order, enddef, then every variable's data
/// (`fill: false` as nccopy, which sets no-fill mode first).
fn rewrite(src: &purecdf::File, dst: &Path, fill: bool) {
    let mut w = purecdf::create_with(
        dst,
        CreateOptions {
            format: src.format(),
            noclobber: false,
            ..Default::default()
        },
    )
    .unwrap();
    if !fill {
        assert!(w.set_fill(false).unwrap());
    }
    for d in src.dimensions() {
        if d.unlimited {
            w.add_unlimited_dimension(&d.name).unwrap();
        } else {
            w.add_dimension(&d.name, d.len()).unwrap();
        }
    }
    for v in src.variables() {
        let dims: Vec<&str> = v.dimensions().iter().map(|d| d.name_str()).collect();
        let id = w
            .add_variable_of_type(v.name_str(), v.nc_type(), &dims)
            .unwrap();
        for a in v.attributes() {
            w.put_attribute(ROOT, Some(id), &a.name, a.values.clone())
                .unwrap();
        }
    }
    for a in src.attributes() {
        w.add_attribute(&a.name, a.values.clone()).unwrap();
    }
    w.enddef().unwrap();
    for v in src.variables() {
        let shape = v.shape();
        let data = v.get_typed_values(..).unwrap();
        let start = vec![0u64; shape.len()];
        w.put_raw_values(v.id(), &data, (start.as_slice(), shape.as_slice()))
            .unwrap();
    }
    w.close().unwrap();
}

fn same_bytes(name: &str, fill: bool) {
    let src = purecdf::open(fixture(name)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(name);
    rewrite(&src, &out, fill);
    let want = std::fs::read(fixture(name)).unwrap();
    let got = std::fs::read(&out).unwrap();
    assert_eq!(got.len(), want.len(), "{name}: length");
    if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
        panic!("{name}: first difference at byte {i}");
    }
}

#[test]
fn rewrite_cdf1_all_is_byte_identical() {
    same_bytes("cdf1_all.nc", true);
}

#[test]
fn rewrite_cdf1_empty_rec_is_byte_identical() {
    same_bytes("cdf1_empty_rec.nc", true);
}

#[test]
fn rewrite_cdf2_onerec_is_byte_identical() {
    same_bytes("cdf2_onerec.nc", true);
}

#[test]
fn rewrite_cdf5_all_is_byte_identical() {
    // Made by nccopy, which writes in no-fill mode: padding stays zero.
    same_bytes("cdf5_all.nc", false);
}

#[test]
fn values_round_trip_through_our_writer() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("rt.nc");
    let mut w = purecdf::create_with(&p, Format::Offset64).unwrap();
    w.add_unlimited_dimension("t").unwrap();
    w.add_dimension("x", 3).unwrap();
    let a = w.add_variable::<f64>("a", &["t", "x"]).unwrap().id();
    let b = w.add_variable::<i16>("b", &["t"]).unwrap().id();
    w.enddef().unwrap();
    w.put_values(
        a,
        &[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0],
        ([0u64, 0].as_slice(), [2u64, 3].as_slice()),
    )
    .unwrap();
    // Writing record 3 only: records 2 of both variables are filled.
    w.put_values(b, &[7i16], ([3u64].as_slice(), [1u64].as_slice()))
        .unwrap();
    w.close().unwrap();
    let f = purecdf::open(&p).unwrap();
    assert_eq!(f.dimension("t").unwrap().len, 4);
    let fd = purecdf::fill::DOUBLE;
    assert_eq!(
        f.variable("a").unwrap().get_typed_values(..).unwrap(),
        Values::Double(vec![1., 2., 3., 4., 5., 6., fd, fd, fd, fd, fd, fd])
    );
    assert_eq!(
        f.variable("b").unwrap().get_typed_values(..).unwrap(),
        Values::Short(vec![-32767, -32767, -32767, 7])
    );
}

/// Runs the reference ncdump; `None` when it is not installed (a failure when
/// PURECDF_REQUIRE_REFERENCE=1).
fn ncdump(path: &Path) -> Option<String> {
    match std::process::Command::new("ncdump").arg(path).output() {
        Ok(out) => {
            assert!(
                out.status.success(),
                "ncdump {}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8(out.stdout).unwrap();
            // Drop the first line, which names the file.
            Some(
                text.split_once('\n')
                    .map_or(String::new(), |(_, rest)| rest.to_string()),
            )
        }
        Err(_) if std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1") => {
            panic!("ncdump is required but not installed")
        }
        Err(_) => None,
    }
}

#[test]
fn reference_ncdump_reads_what_we_write() {
    let dir = tempfile::tempdir().unwrap();
    for (name, fill) in [
        ("cdf1_all.nc", true),
        ("cdf1_empty_rec.nc", true),
        ("cdf2_onerec.nc", true),
        ("cdf5_all.nc", false),
    ] {
        let src = purecdf::open(fixture(name)).unwrap();
        let out = dir.path().join(name);
        rewrite(&src, &out, fill);
        let Some(ours) = ncdump(&out) else {
            return;
        };
        assert_eq!(ours, ncdump(&fixture(name)).unwrap(), "{name}");
    }
    // A file built from scratch, with a redef that moves the data.
    let p = dir.path().join("scratch.nc");
    let mut w = purecdf::create_with(&p, Format::Cdf5).unwrap();
    w.add_unlimited_dimension("t").unwrap();
    w.add_dimension("n", 2).unwrap();
    let u = w.add_variable::<u64>("u", &["t", "n"]).unwrap().id();
    w.enddef().unwrap();
    w.put_values(
        u,
        &[1u64, 2, 3, 4],
        ([0u64, 0].as_slice(), [2u64, 2].as_slice()),
    )
    .unwrap();
    w.redef().unwrap();
    w.add_attribute("title", "scratch").unwrap();
    let s = w.add_variable::<i16>("s", &["n"]).unwrap().id();
    w.enddef().unwrap();
    w.put_values(s, &[-1i16, 1], ..).unwrap();
    w.close().unwrap();
    let Some(text) = ncdump(&p) else {
        return;
    };
    let want = "dimensions:\n\tt = UNLIMITED ; // (2 currently)\n\tn = 2 ;\nvariables:\n\tuint64 u(t, n) ;\n\tshort s(n) ;\n\n// global attributes:\n\t\t:title = \"scratch\" ;\ndata:\n\n u =\n  1, 2,\n  3, 4 ;\n\n s = -1, 1 ;\n}\n";
    assert_eq!(text, want);
}

#[test]
fn sync_publishes_records_to_other_readers() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("sync.nc");
    let mut w = purecdf::create_with(&p, Format::Classic).unwrap();
    w.add_unlimited_dimension("t").unwrap();
    let v = w.add_variable::<i32>("v", &["t"]).unwrap().id();
    assert_eq!(w.sync().unwrap_err().kind(), purecdf::ErrorKind::InDefine);
    w.enddef().unwrap();
    w.put_values(v, &[1i32, 2], ([0u64].as_slice(), [2u64].as_slice()))
        .unwrap();
    w.sync().unwrap();
    let r = purecdf::open(&p).unwrap();
    assert_eq!(r.dimension("t").unwrap().len, 2);
    assert_eq!(
        r.variable("v").unwrap().get_typed_values(..).unwrap(),
        Values::Int(vec![1, 2])
    );
    // Dropping without close still writes the record count, as georust's netcdf does.
    w.put_values(v, &[3i32], ([2u64].as_slice(), [1u64].as_slice()))
        .unwrap();
    drop(w);
    let r = purecdf::open(&p).unwrap();
    assert_eq!(r.dimension("t").unwrap().len, 3);
}

#[test]
fn long_strided_writes_and_reads_round_trip() {
    // 3 million shorts at stride 2: the span covers several 4 MiB blocks.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("strided.nc");
    let n = 6_000_000u64;
    let mut w = purecdf::create_with(&p, Format::Offset64).unwrap();
    w.add_dimension("n", n as usize).unwrap();
    let v = w.add_variable::<i16>("v", &["n"]).unwrap().id();
    w.put_attribute(ROOT, Some(v), "_FillValue", vec![-1i16])
        .unwrap();
    w.enddef().unwrap();
    let vals: Vec<i16> = (0..n / 2).map(|i| (i % 30000) as i16).collect();
    w.put_values(
        v,
        &vals,
        ([1u64].as_slice(), [n / 2].as_slice(), [2u64].as_slice()),
    )
    .unwrap();
    w.close().unwrap();
    let f = purecdf::open(&p).unwrap();
    let all: Vec<i16> = f.variable("v").unwrap().get_values(..).unwrap();
    for (i, x) in all.iter().enumerate() {
        let want = if i % 2 == 1 {
            ((i / 2) % 30000) as i16
        } else {
            -1
        };
        assert_eq!(*x, want, "element {i}");
    }
    let back: Vec<i16> = f
        .variable("v")
        .unwrap()
        .get_values(purecdf::Extent::from((1..n as usize).step_by(2)))
        .unwrap();
    assert_eq!(back, vals);
}

/// `nc_def_var_fill` on a classic file: the no-fill variable's space is left as written (zeros
/// here), the others get their fill value; only allowed in define mode.
#[test]
fn per_variable_no_fill() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nofill.nc");
    let mut f = purecdf::create_with(&path, purecdf::Format::Classic).unwrap();
    f.add_dimension("x", 3).unwrap();
    let a = f.add_variable::<i32>("a", &["x"]).unwrap().id();
    let b = f.add_variable::<i32>("b", &["x"]).unwrap().id();
    f.def_var_fill(a, true).unwrap();
    f.enddef().unwrap();
    assert_eq!(
        f.def_var_fill(b, true).unwrap_err().kind(),
        purecdf::ErrorKind::NotInDefine
    );
    f.put_values(b, &[1i32], (&[0u64][..], &[1u64][..]))
        .unwrap();
    f.close().unwrap();
    let r = purecdf::open(&path).unwrap();
    assert_eq!(
        r.variable("a").unwrap().get_values::<i32, _>(..).unwrap(),
        [0, 0, 0]
    );
    assert_eq!(
        r.variable("b").unwrap().get_values::<i32, _>(..).unwrap(),
        [1, -2147483647, -2147483647]
    );
}
