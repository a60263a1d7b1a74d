//! netcdf-c's own test CDL (the shared conformance tree, never copied here) as a corpus: each
//! file the reference `ncgen` can write as CDF-1, CDF-2 or CDF-5 is (1) read by purecdf and
//! compared, variable by variable, with what libnetcdf reads (tests/c/classic_dump.c), and (2)
//! rewritten by purecdf's writer from the same definitions and data, which must give ncgen's file
//! byte for byte.
//! The classic `.nc` files of the tree are read and compared too.
//!
//! Needs ../shared (or PURECDF_SHARED_DIR), ncgen, cc and libnetcdf; skips without them unless
//! PURECDF_REQUIRE_REFERENCE=1.

#[path = "common/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};
use std::process::Command;

use purecdf::{CreateOptions, GroupId};

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

fn skip(why: &str) {
    assert!(!require(), "{why}");
    eprintln!("skipping: {why}");
}

fn build_dumper(dir: &Path) -> Option<PathBuf> {
    let exe = dir.join("classic_dump");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/classic_dump.c");
    let ok = Command::new("cc")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .arg("-lnetcdf")
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(exe)
}

/// What libnetcdf reads, as "name type hex" lines.
fn c_dump(exe: &Path, file: &Path) -> String {
    let out = Command::new(exe).arg(file).output().unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The same from purecdf.
fn our_dump(file: &Path) -> String {
    let f = purecdf::open(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut s = String::new();
    for v in f.variables() {
        let vals = v
            .get_typed_values(..)
            .unwrap_or_else(|e| panic!("{}: {}: {e}", file.display(), v.name()));
        let raw = vals.to_ne_bytes().unwrap();
        let hex: String = raw.iter().map(|b| format!("{b:02x}")).collect();
        s += &format!("{} {} {hex}\n", v.name(), v.nc_type().code().unwrap());
    }
    s
}

/// Rewrites `src` with purecdf: definitions in order, enddef, all data, close.
fn rewrite(src: &Path, dst: &Path) {
    let f = purecdf::open(src).unwrap();
    let mut w = purecdf::create_with(
        dst,
        CreateOptions {
            format: f.format(),
            noclobber: false,
            ..Default::default()
        },
    )
    .unwrap();
    for d in f.dimensions() {
        if d.unlimited {
            w.add_unlimited_dimension(&d.name).unwrap();
        } else {
            w.add_dimension(&d.name, d.len()).unwrap();
        }
    }
    for v in f.variables() {
        let dims: Vec<&str> = v.dimensions().iter().map(|d| d.name_str()).collect();
        let id = w
            .add_variable_of_type(v.name_str(), v.nc_type(), &dims)
            .unwrap();
        for a in v.attributes() {
            w.put_attribute(GroupId(0), Some(id), &a.name, a.values.clone())
                .unwrap();
        }
    }
    for a in f.attributes() {
        w.add_attribute(&a.name, a.values.clone()).unwrap();
    }
    w.enddef().unwrap();
    for v in f.variables() {
        let shape = v.shape();
        if shape.contains(&0) {
            continue;
        }
        let data = v.get_typed_values(..).unwrap();
        let start = vec![0u64; shape.len()];
        w.put_raw_values(v.id(), &data, (start.as_slice(), shape.as_slice()))
            .unwrap();
    }
    w.close().unwrap();
}

#[test]
fn netcdf_c_cdl_corpus_reads_and_rewrites_identically() {
    let Some(root) = shared::netcdf_c_data() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let Some(dumper) = build_dumper(tmp.path()) else {
        return skip("cannot build tests/c/classic_dump.c against libnetcdf");
    };
    let mut cdls: Vec<PathBuf> = ["ncdump", "ncgen", "ncgen3"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flatten()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cdl"))
        // The big* files describe multi-gigabyte datasets.
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with("big"))
        .collect();
    cdls.sort();
    let (mut checked, mut failures) = (0, Vec::new());
    for cdl in &cdls {
        for kind in ["nc3", "nc6", "nc5"] {
            let nc = tmp.path().join(format!("ref.{kind}.nc"));
            let _ = std::fs::remove_file(&nc);
            let made = Command::new("ncgen")
                .args(["-k", kind, "-b", "-o"])
                .arg(&nc)
                .arg(cdl)
                .output();
            let Ok(made) = made else {
                return skip("ncgen not installed");
            };
            if !made.status.success() || !nc.exists() {
                continue; // netCDF-4 features: not a classic file.
            }
            if std::fs::metadata(&nc).unwrap().len() > 64 << 20 {
                continue;
            }
            checked += 1;
            let name = format!("{} ({kind})", cdl.display());
            let r = std::panic::catch_unwind(|| {
                assert_eq!(our_dump(&nc), c_dump(&dumper, &nc), "values differ");
                let ours = tmp.path().join(format!("ours.{kind}.nc"));
                rewrite(&nc, &ours);
                let (a, b) = (std::fs::read(&ours).unwrap(), std::fs::read(&nc).unwrap());
                if a != b {
                    let i = a.iter().zip(&b).position(|(x, y)| x != y);
                    panic!(
                        "rewrite differs: {} vs {} bytes, first at {i:?}",
                        a.len(),
                        b.len()
                    );
                }
            });
            if let Err(e) = r {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{name}: {msg}"));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} classic files made from {} CDL files",
        cdls.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn netcdf_c_classic_files_read_as_libnetcdf_reads_them() {
    let Some(root) = shared::netcdf_c_data() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let Some(dumper) = build_dumper(tmp.path()) else {
        return skip("cannot build tests/c/classic_dump.c against libnetcdf");
    };
    let mut n = 0;
    for dir in ["nctest", "ncdump", "nc_test", "ncgen"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|x| x != "nc") {
                continue;
            }
            let head = std::fs::read(&p).unwrap();
            if !head.starts_with(b"CDF") {
                continue;
            }
            n += 1;
            let out = Command::new(&dumper).arg(&p).output().unwrap();
            if out.status.success() {
                let c = String::from_utf8(out.stdout).unwrap();
                assert_eq!(our_dump(&p), c, "{}", p.display());
            } else {
                // netcdf-c rejects it (nc_test/bad_*.nc): so must we, with the same error.
                let c = String::from_utf8_lossy(&out.stderr).into_owned();
                let e = purecdf::open(&p).expect_err(&c);
                assert!(
                    c.contains(&e.nc_message()),
                    "{}: netcdf-c says {c}, we say {e}",
                    p.display()
                );
            }
        }
    }
    assert!(n >= 5, "only {n} classic files found");
}
