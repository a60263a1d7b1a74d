//! `--version`, alone, names purecdf and its version in all three tools; with anything else the
//! tools keep netcdf-c's option handling (its usage text for an unknown option).

use std::process::Command;

fn run(exe: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(exe).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version_names_purecdf() {
    let want = format!("(purecdf {})", env!("CARGO_PKG_VERSION"));
    for (tool, exe) in [
        ("ncdump", env!("CARGO_BIN_EXE_ncdump")),
        ("ncgen", env!("CARGO_BIN_EXE_ncgen")),
        ("nccopy", env!("CARGO_BIN_EXE_nccopy")),
    ] {
        let (code, out, err) = run(exe, &["--version"]);
        assert_eq!(code, 0, "{tool} --version: {err}");
        assert!(out.starts_with(&format!("{tool} {want}")), "{tool}: {out}");
        assert!(err.is_empty(), "{tool}: {err}");
    }
}

#[test]
fn version_with_other_arguments_is_netcdf_c_option_handling() {
    // netcdf-c's ncdump reads `--version` as option letters and fails on '-'.
    let (code, out, err) = run(env!("CARGO_BIN_EXE_ncdump"), &["--version", "x.nc"]);
    assert_ne!(code, 0);
    assert!(
        !out.contains("purecdf") && !err.contains("purecdf"),
        "{out}{err}"
    );
    assert!(
        err.contains("Usage") || err.contains("usage") || err.contains("invalid"),
        "{err}"
    );
}
