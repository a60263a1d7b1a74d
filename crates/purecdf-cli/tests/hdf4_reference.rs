//! HDF4 SD files against netcdf-c 4.10.1 built with HDF4: every `ncdump` mode of the two HDF4
//! files in netcdf-c's test data (`hdf4_test/`) must equal the outputs kept in
//! `../shared/conformance/hdf4-expected/` byte for byte (the 21 MB full dump of
//! `ref_chunked.hdf4` by its SHA-256), and `nccopy` must copy them to every netCDF format with
//! the same content. Skips without `../shared`, fails under `PURECDF_REQUIRE_REFERENCE=1`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `(hdf4_test dir, hdf4-expected dir)`.
fn dirs() -> Option<(PathBuf, PathBuf)> {
    let c = support::netcdf_c_data()?;
    let expected = c.parent()?.join("hdf4-expected");
    let data = c.join("hdf4_test");
    if data.is_dir() && expected.is_dir() {
        Some((data, expected))
    } else {
        support::unavailable("hdf4_test/ and hdf4-expected/")
    }
}

fn ncdump(args: &[&str], dir: &Path) -> Vec<u8> {
    let out = support::run(env!("CARGO_BIN_EXE_ncdump"), args, dir);
    assert!(out.success, "ncdump {args:?}: {}", out.failure("ncdump"));
    out.stdout
}

fn sha256(bytes: &[u8], work: &Path) -> String {
    let p = work.join("dump");
    std::fs::write(&p, bytes).unwrap();
    let out = Command::new("sha256sum")
        .arg(&p)
        .output()
        .expect("sha256sum");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn ncdump_every_mode_matches_netcdf_c() {
    let Some((data, expected)) = dirs() else {
        return;
    };
    let modes: &[(&str, &[&str])] = &[
        ("", &[]),
        (".h", &["-h"]),
        (".s", &["-s"]),
        (".hs", &["-h", "-s"]),
        (".k", &["-k"]),
        (".K", &["-K"]),
    ];
    let mut checked = 0;
    let mut failures = Vec::new();
    for name in ["ref_contiguous", "ref_chunked"] {
        let file = format!("{name}.hdf4");
        for (suffix, flags) in modes {
            let exp = expected.join(format!("{name}{suffix}.dmp"));
            let Ok(want) = std::fs::read(&exp) else {
                continue;
            };
            let mut args = flags.to_vec();
            args.push(&file);
            if ncdump(&args, &data) != want {
                failures.push(format!("ncdump {args:?} differs from {}", exp.display()));
            }
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} expected dumps found");
    let want = std::fs::read_to_string(expected.join("ref_chunked.dmp.sha256")).unwrap();
    let work = tempfile::tempdir().unwrap();
    let got = sha256(&ncdump(&["ref_chunked.hdf4"], &data), work.path());
    if !want.starts_with(&got) || got.is_empty() {
        failures.push(format!("full dump of ref_chunked.hdf4 has SHA-256 {got}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn nccopy_copies_hdf4_to_every_format() {
    let Some((data, expected)) = dirs() else {
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let want = std::fs::read(expected.join("ref_contiguous.dmp")).unwrap();
    for kind in [
        "classic",
        "64-bit offset",
        "cdf5",
        "netCDF-4",
        "netCDF-4 classic model",
    ] {
        let out = work.path().join("ref_contiguous.nc");
        let _ = std::fs::remove_file(&out);
        let r = support::run(
            env!("CARGO_BIN_EXE_nccopy"),
            [
                "-k",
                kind,
                data.join("ref_contiguous.hdf4").to_str().unwrap(),
                out.to_str().unwrap(),
            ],
            work.path(),
        );
        assert!(r.success, "nccopy -k {kind}: {}", r.failure("nccopy"));
        let kind_line = ncdump(&["-k", "ref_contiguous.nc"], work.path());
        assert_eq!(String::from_utf8_lossy(&kind_line).trim(), kind);
        let dump = ncdump(&["ref_contiguous.nc"], work.path());
        // netCDF-4 output keeps the same CDL; the classic formats have no `_Format` line to
        // lose in a plain dump either.
        assert_eq!(
            String::from_utf8_lossy(&dump),
            String::from_utf8_lossy(&want),
            "nccopy -k {kind}"
        );
    }
    // The chunked, deflated file to netCDF-4: same header (storage aside) and same data.
    let out = work.path().join("ref_chunked.nc");
    let r = support::run(
        env!("CARGO_BIN_EXE_nccopy"),
        [
            "-k",
            "nc4",
            data.join("ref_chunked.hdf4").to_str().unwrap(),
            out.to_str().unwrap(),
        ],
        work.path(),
    );
    assert!(r.success, "nccopy ref_chunked: {}", r.failure("nccopy"));
    let got = sha256(&ncdump(&["ref_chunked.nc"], work.path()), work.path());
    let want = std::fs::read_to_string(expected.join("ref_chunked.dmp.sha256")).unwrap();
    assert!(
        want.starts_with(&got),
        "copy of ref_chunked.hdf4 dumps differently"
    );
}
