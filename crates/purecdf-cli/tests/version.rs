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

/// The settings of one `[profile.NAME]` table of the workspace's Cargo.toml, as `key = value`
/// pairs with blanks removed.
fn profile(name: &str) -> Vec<(String, String)> {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml");
    let text = std::fs::read_to_string(manifest).unwrap();
    let header = format!("[profile.{name}]");
    let mut lines = text.lines().skip_while(|l| l.trim() != header);
    assert!(lines.next().is_some(), "no {header} in {manifest}");
    lines
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter_map(|l| l.split('#').next()?.split_once('='))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

/// Release binaries (what `cargo install` and the README's command build) carry no debug info;
/// the `profiling` profile is the release build with line tables for perf.
#[test]
fn release_has_no_debug_info_and_profiling_has_it() {
    let release = profile("release");
    for (k, v) in &release {
        if k == "debug" {
            assert!(
                ["0", "false", "\"none\""].contains(&v.as_str()),
                "release debug = {v}"
            );
        }
        assert!(
            !(k == "strip" && ["\"none\"", "false"].contains(&v.as_str())),
            "release strip = {v}"
        );
    }
    let profiling = profile("profiling");
    let get = |key: &str| {
        profiling
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(get("inherits"), Some("\"release\""));
    assert!(
        matches!(get("debug"), Some(v) if !["0", "false", "\"none\""].contains(&v)),
        "profiling keeps no debug info: {profiling:?}"
    );
}
