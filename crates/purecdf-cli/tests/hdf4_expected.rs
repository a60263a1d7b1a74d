//! Our HDF4 fixtures (`crates/purecdf/tests/data/hdf4/`) against netcdf-c 4.9.0 built with HDF4:
//! `ncdump` in every mode kept in `expected/` must print what netcdf-c printed, byte for byte
//! (see `expected/README.md`). `<name>.<mode>.cdl` is the standard output of one mode;
//! `<name>.x.err` the error of `-x` and its exit status. `<name>.nccopy-<kind>.cdl` is
//! `ncdump -s` of netcdf-c's `nccopy -k <kind>` of the fixture (`_NCProperties` left out),
//! `.err` the first line of its error where netcdf-c refuses the copy; our `nccopy` must do the
//! same. Needs no reference tools.

mod support;

use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf/tests/data/hdf4")
}

/// The variable each fixture's `-v` output was made with.
fn v_var(name: &str) -> &'static str {
    match name {
        "types" | "chunked" => "temp",
        "chunked_gzip" => "v_f32",
        "chunked_huff" => "skphuff",
        "chunked_rle" => "rle",
        "compressed" => "skphuff_f64",
        "external" => "outside",
        "nbit_litend" => "le_f64",
        "dfsd" => "Data-Set-2",
        "szip" => "ec_f64_8",
        other => panic!("no -v variable known for {other}"),
    }
}

/// The ncdump flags of an expected file's mode.
fn flags(name: &str, mode: &str) -> Vec<String> {
    let f = match mode {
        "" => vec![],
        "hs" => vec!["-h", "-s"],
        "v" => vec!["-v", v_var(name)],
        "bc" => vec!["-b", "c"],
        "fc" => vec!["-f", "c"],
        "x" => vec!["-x"],
        m => return vec![format!("-{m}")],
    };
    f.into_iter().map(String::from).collect()
}

/// Our `nccopy -k kind` of fixture `name`, against netcdf-c's (see the module comment).
fn check_copy(dir: &Path, name: &str, kind: &str, is_err: bool, want: &[u8]) -> Result<(), String> {
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join("copy.nc");
    let src = dir.join(format!("{name}.hdf"));
    let out = support::run(
        env!("CARGO_BIN_EXE_nccopy"),
        ["-k", kind, src.to_str().unwrap(), copy.to_str().unwrap()],
        work.path(),
    );
    if is_err {
        let first = out.stderr.split(|&b| b == b'\n').next().unwrap_or_default();
        return match (
            out.success,
            first == want.strip_suffix(b"\n").unwrap_or(want),
        ) {
            (false, true) => Ok(()),
            (true, _) => Err("copied; netcdf-c refuses".to_string()),
            (false, false) => Err(format!("error {:?}", String::from_utf8_lossy(first))),
        };
    }
    if !out.success {
        return Err(out.failure("nccopy"));
    }
    let dump = support::run(env!("CARGO_BIN_EXE_ncdump"), ["-s", "copy.nc"], work.path());
    let text = String::from_utf8_lossy(&dump.stdout);
    let mut got = String::from("netcdf copy {\n");
    for line in text.lines().skip(1) {
        if !line.contains(":_NCProperties = ") {
            got.push_str(line);
            got.push('\n');
        }
    }
    support::diff_bw(want, got.as_bytes())?;
    if got.as_bytes() != want {
        return Err("differs in white space".to_string());
    }
    Ok(())
}

#[test]
fn ncdump_of_every_fixture_matches_netcdf_c() {
    let dir = fixtures();
    let mut entries: Vec<_> = std::fs::read_dir(dir.join("expected"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".cdl") || n.ends_with(".err"))
        .collect();
    entries.sort();
    let mut failures = Vec::new();
    for file in &entries {
        let (stem, is_err) = match file.strip_suffix(".cdl") {
            Some(s) => (s, false),
            None => (file.strip_suffix(".err").unwrap(), true),
        };
        let (name, mode) = stem.split_once('.').unwrap_or((stem, ""));
        let want = std::fs::read(dir.join("expected").join(file)).unwrap();
        if let Some(kind) = mode.strip_prefix("nccopy-") {
            if let Err(e) = check_copy(&dir, name, kind, is_err, &want) {
                failures.push(format!("nccopy -k {kind} {name}.hdf: {e}"));
            }
            continue;
        }
        let mut args = flags(name, mode);
        args.push(format!("{name}.hdf"));
        let out = support::run(env!("CARGO_BIN_EXE_ncdump"), &args, &dir);
        let got = if is_err {
            let mut e = out.stderr.clone();
            e.extend(format!("exit status {}\n", out.code.unwrap_or(-1)).bytes());
            e
        } else {
            if !out.success {
                failures.push(format!("ncdump {args:?}: {}", out.failure("ncdump")));
                continue;
            }
            out.stdout
        };
        if got != want {
            failures.push(format!(
                "ncdump {args:?} differs from expected/{file}:\n{}",
                support::diff_bw(&want, &got)
                    .err()
                    .unwrap_or_else(|| "in white space only".to_string())
            ));
        }
    }
    assert!(
        entries.len() >= 100,
        "only {} expected files",
        entries.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
