//! Speed: `ncdump` of a 100 MB classic file must take at most half the CPU time of netcdf-c's.
//!
//! Ignored by default (it writes a 100 MB file and needs an optimised build):
//! `cargo test --release -p purecdf-cli --test ncdump_speed -- --ignored --nocapture`.
//! CPU time (user + system of the child, from `/proc/self/stat`) is compared rather than wall
//! time, so that a busy machine does not decide the result. Both outputs must also be equal.

use std::path::Path;
use std::process::{Command, Stdio};

/// User + system CPU seconds of the waited-for children of this process (Linux).
fn children_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    // Fields 16 and 17 of stat (cutime, cstime) are at 13 and 14 after the ")".
    let ticks: f64 = f[13].parse::<f64>().unwrap() + f[14].parse::<f64>().unwrap();
    ticks / 100.0
}

fn timed(bin: &str, file: &Path, out: &Path) -> f64 {
    let before = children_cpu();
    let status = Command::new(bin)
        .arg(file)
        .stdout(Stdio::from(std::fs::File::create(out).unwrap()))
        .status()
        .unwrap();
    assert!(status.success(), "{bin}");
    children_cpu() - before
}

fn write_big(path: &Path) {
    let mut f = purecdf::create_with(path, purecdf::Format::Offset64).unwrap();
    f.add_unlimited_dimension("time").unwrap();
    f.add_dimension("x", 10_000).unwrap();
    let vf = f.add_variable::<f32>("f", &["time", "x"]).unwrap().id();
    let vd = f.add_variable::<f64>("d", &["time", "x"]).unwrap().id();
    let vi = f.add_variable::<i32>("i", &["time", "x"]).unwrap().id();
    let vs = f.add_variable::<i16>("s", &["time", "x"]).unwrap().id();
    f.add_attribute("title", "speed test").unwrap();
    f.enddef().unwrap();
    let mut x: u64 = 1;
    let mut next = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        x >> 11
    };
    for t in 0..556u64 {
        let fv: Vec<f32> = (0..10_000)
            .map(|_| (next() as f64 / (1u64 << 53) as f64 * 1000.0 - 500.0) as f32)
            .collect();
        let dv: Vec<f64> = (0..10_000)
            .map(|k| next() as f64 / (1u64 << 53) as f64 * 1e6 * (k as f64).sin())
            .collect();
        let iv: Vec<i32> = (0..10_000).map(|_| next() as i32).collect();
        let sv: Vec<i16> = (0..10_000).map(|_| next() as i16).collect();
        let ext = (&[t, 0][..], &[1u64, 10_000][..]);
        f.put_values(vf, &fv, ext).unwrap();
        f.put_values(vd, &dv, ext).unwrap();
        f.put_values(vi, &iv, ext).unwrap();
        f.put_values(vs, &sv, ext).unwrap();
    }
    f.close().unwrap();
}

#[test]
#[ignore = "writes 100 MB; run with --release -- --ignored"]
fn twice_as_fast_as_netcdf_c_on_100_mb() {
    let reference = "/usr/bin/ncdump";
    if !Path::new(reference).exists() {
        assert!(
            std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() != Ok("1"),
            "reference ncdump missing"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let nc = dir.path().join("big.nc");
    write_big(&nc);
    let size = std::fs::metadata(&nc).unwrap().len();
    assert!(size > 100_000_000, "{size}");
    let ours_out = dir.path().join("ours.cdl");
    let ref_out = dir.path().join("ref.cdl");
    let t_ref = timed(reference, &nc, &ref_out);
    let t_ours = timed(env!("CARGO_BIN_EXE_ncdump"), &nc, &ours_out);
    eprintln!("netcdf-c ncdump: {t_ref:.2} s CPU, purecdf ncdump: {t_ours:.2} s CPU");
    let a = std::fs::read(&ours_out).unwrap();
    let b = std::fs::read(&ref_out).unwrap();
    assert!(a == b, "outputs differ");
    assert!(t_ours * 2.0 <= t_ref, "{t_ours} s vs {t_ref} s");
}
