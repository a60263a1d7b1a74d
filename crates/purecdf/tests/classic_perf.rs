//! Speed against netcdf-c on a 1 GiB float variable (16384 × 16384): whole read, a stride-2 read
//! in both dimensions, and a whole write. Ignored by default (it needs 2 GiB of disk and a release
//! build); run with
//! `cargo test --release -p purecdf --test classic_perf -- --ignored --nocapture`.
//! Targets: reads at least 1.5× and writes at least 1.2× netcdf-c's speed.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use purecdf::{Extent, Format};

const N: usize = 16384;

fn c_time(exe: &Path, op: &str, file: &Path) -> f64 {
    let out = Command::new(exe).arg(op).arg(file).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = String::from_utf8(out.stdout).unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}

/// Runs `a` and `b` alternately `n` times each; the median time of each (the VM's timings are
/// noisy, and alternating keeps the page cache equally warm for both).
fn alternate(n: usize, mut a: impl FnMut() -> f64, mut b: impl FnMut() -> f64) -> (f64, f64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..n {
        ta.push(a());
        tb.push(b());
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(ta), median(tb))
}

#[test]
#[ignore]
fn classic_speed_against_netcdf_c() {
    let dir = tempfile::tempdir_in(std::env::temp_dir()).unwrap();
    let exe = dir.path().join("classic_perf");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/classic_perf.c");
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lnetcdf")
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "cannot build tests/c/classic_perf.c");
    let cfile = dir.path().join("c.nc");
    let rfile = dir.path().join("rs.nc");

    let data: Vec<f32> = (0..N * N).map(|i| (i % 1000) as f32).collect();
    // Alternate the two writers, each starting with no dirty pages left by the other.
    let flush = || {
        let _ = Command::new("sync").status();
    };
    let (c_write, rs_write) = alternate(
        3,
        || {
            flush();
            c_time(&exe, "write", &cfile)
        },
        || {
            flush();
            let t0 = Instant::now();
            let mut w = purecdf::create_with(&rfile, Format::Offset64).unwrap();
            w.set_fill(false).unwrap();
            w.add_dimension("y", N).unwrap();
            w.add_dimension("x", N).unwrap();
            let v = w.add_variable::<f32>("v", &["y", "x"]).unwrap().id();
            w.enddef().unwrap();
            w.put_values(v, &data, ..).unwrap();
            w.close().unwrap();
            t0.elapsed().as_secs_f64()
        },
    );
    drop(data);
    assert_eq!(
        std::fs::read(&cfile).unwrap(),
        std::fs::read(&rfile).unwrap()
    );
    flush();

    let rs_read_once = || {
        let t0 = Instant::now();
        let f = purecdf::open(&rfile).unwrap();
        let v: Vec<f32> = f.variable("v").unwrap().get_values(..).unwrap();
        assert_eq!(v[12345], 345.0);
        t0.elapsed().as_secs_f64()
    };
    let rs_strided_once = || {
        let t0 = Instant::now();
        let f = purecdf::open(&rfile).unwrap();
        let e = vec![
            Extent::from((0..N).step_by(2)),
            Extent::from((0..N).step_by(2)),
        ];
        let v: Vec<f32> = f.variable("v").unwrap().get_values(e).unwrap();
        assert_eq!(v.len(), N * N / 4);
        t0.elapsed().as_secs_f64()
    };
    let (c_read, rs_read) = alternate(5, || c_time(&exe, "read", &cfile), rs_read_once);
    let (c_strided, rs_strided) = alternate(3, || c_time(&exe, "strided", &cfile), rs_strided_once);
    println!(
        "write:   netcdf-c {c_write:.3}s  purecdf {rs_write:.3}s  ({:.2}x)",
        c_write / rs_write
    );
    println!(
        "read:    netcdf-c {c_read:.3}s  purecdf {rs_read:.3}s  ({:.2}x)",
        c_read / rs_read
    );
    println!(
        "strided: netcdf-c {c_strided:.3}s  purecdf {rs_strided:.3}s  ({:.2}x)",
        c_strided / rs_strided
    );
    assert!(c_read / rs_read >= 1.5, "whole read");
    assert!(c_strided / rs_strided >= 1.5, "strided read");
    assert!(c_write / rs_write >= 1.2, "write");
}
