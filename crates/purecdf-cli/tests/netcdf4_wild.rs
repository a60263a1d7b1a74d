//! Our `ncdump -s` on the plain HDF5 files of `crates/purecdf/tests/data/netcdf4/wild` (unusual
//! names, names that are not UTF-8, long names, dimension scales in odd places, user-type fill
//! values) against netcdf-c 4.9.0's output committed beside them: standard output byte for
//! byte, the exit status, and the first line of standard error. Runs without the reference
//! tools; see that folder's README.md for how the expected files were made.

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf/tests/data/netcdf4/wild")
}

#[test]
fn wild_hdf5_files_dump_like_netcdf_c() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "h5"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "found {} fixtures", files.len());
    let mut failed = Vec::new();
    for f in &files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let want_out = std::fs::read(dir().join(format!("{stem}.dmp"))).unwrap();
        let want_err = std::fs::read_to_string(dir().join(format!("{stem}.err"))).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_ncdump"))
            .arg("-s")
            .arg(f.file_name().unwrap())
            .current_dir(dir())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().next().unwrap_or("");
        let first = match first.split_once(": ") {
            Some((prog, rest)) if prog.ends_with("ncdump") => format!("ncdump: {rest}"),
            _ => first.to_string(),
        };
        let got_err = format!("exit {}\n{first}", out.status.code().unwrap_or(-1));
        if out.stdout != want_out {
            failed.push(format!("{stem}: standard output differs"));
        }
        if got_err.trim_end() != want_err.trim_end() {
            failed.push(format!("{stem}: {got_err:?} instead of {want_err:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
