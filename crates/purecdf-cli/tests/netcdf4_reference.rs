//! netCDF-4 reading against netcdf-c 4.9.0: our `ncdump` (plain and `-s`) must print exactly what
//! `/usr/bin/ncdump` prints for
//! * every HDF5 file in `../shared/conformance/netcdf-c` (netCDF-4, netCDF-4 classic model and plain
//!   HDF5 with phony dimensions), and
//! * every CDL of netcdf-c's suite (`ncdump/cdl/*.cdl`) made into `-k nc4` and `-k nc7` files by the
//!   reference `ncgen`.
//!
//! Known exceptions are listed with their reason. Without `../shared` or the reference tools the
//! tests skip, unless `PURECDF_REQUIRE_REFERENCE=1`, when they fail.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Cases whose reference output is not a fixed point: netcdf-c 4.9.0 prints uninitialised memory
/// for these (see ../shared/README.md), so no comparison is meaningful.
const NONDETERMINISTIC: &[&str] = &[
    "f03tst_open_mem",
    "ref_tst_special_atts",
    "ref_tst_special_atts3",
];
/// Files using a filter we do not decode yet.
const NOT_YET: &[&str] = &[];

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

fn shared() -> Option<PathBuf> {
    let p = std::env::var("PURECDF_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    p.join("conformance/netcdf-c").is_dir().then_some(p)
}

/// The shared corpus and the reference tools, or a skip (a failure when they are required).
fn setup() -> Option<PathBuf> {
    let have_tools = Path::new("/usr/bin/ncdump").exists() && Path::new("/usr/bin/ncgen").exists();
    match (shared(), have_tools) {
        (Some(s), true) => Some(s),
        _ if require() => {
            panic!("PURECDF_REQUIRE_REFERENCE=1 but ../shared or the reference tools are missing")
        }
        _ => {
            eprintln!("skipped: needs ../shared and netcdf-c's tools");
            None
        }
    }
}

fn stdout_of(cmd: &mut Command) -> Vec<u8> {
    cmd.output().map(|o| o.stdout).unwrap_or_default()
}

/// Compares our ncdump with the reference on `file` with and without `-s`; returns failures.
fn compare(file: &Path, label: &str) -> Vec<String> {
    let mut failed = Vec::new();
    for opts in [&[][..], &["-s"][..]] {
        let theirs = stdout_of(Command::new("/usr/bin/ncdump").args(opts).arg(file));
        let ours = stdout_of(
            Command::new(env!("CARGO_BIN_EXE_ncdump"))
                .args(opts)
                .arg(file),
        );
        if theirs != ours {
            failed.push(format!("{label} {}", opts.join(" ")));
        }
    }
    failed
}

fn is_hdf5(p: &Path) -> bool {
    let mut head = [0u8; 8];
    std::fs::File::open(p)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && head == *b"\x89HDF\r\n\x1a\n"
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if is_hdf5(&p) {
            out.push(p);
        }
    }
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn hdf5_files_in_the_corpus_dump_like_netcdf_c() {
    let Some(shared) = setup() else { return };
    let mut files = Vec::new();
    walk(&shared.join("conformance/netcdf-c"), &mut files);
    files.sort();
    assert!(
        files.len() >= 20,
        "expected the corpus's HDF5 files, found {}",
        files.len()
    );
    let (mut passed, mut failed) = (0, Vec::new());
    for f in &files {
        let name = stem(f);
        if NONDETERMINISTIC.contains(&name.as_str()) || NOT_YET.contains(&name.as_str()) {
            println!("skip {name}");
            continue;
        }
        let bad = compare(f, &f.display().to_string());
        passed += 2 - bad.len();
        failed.extend(bad);
    }
    println!("{passed} passed, {} failed", failed.len());
    assert!(
        failed.is_empty(),
        "differences from netcdf-c's ncdump:\n{}",
        failed.join("\n")
    );
}

#[test]
fn cdl_suite_as_netcdf4_dumps_like_netcdf_c() {
    let Some(shared) = setup() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut cdls: Vec<PathBuf> = std::fs::read_dir(shared.join("conformance/netcdf-c/ncdump/cdl"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cdl"))
        .collect();
    cdls.sort();
    let (mut passed, mut failed) = (0, Vec::new());
    for kind in ["nc4", "nc7"] {
        for cdl in &cdls {
            let name = stem(cdl);
            // The big* cases take minutes in the reference tools and add nothing here.
            if name.starts_with("big") || NONDETERMINISTIC.contains(&name.as_str()) {
                continue;
            }
            let nc = dir.path().join(format!("{name}.nc"));
            let _ = std::fs::remove_file(&nc);
            let made = Command::new("/usr/bin/ncgen")
                .args(["-k", kind, "-o"])
                .arg(&nc)
                .arg(cdl)
                .output()
                .is_ok_and(|o| o.status.success());
            if !made || !nc.exists() {
                continue; // enhanced CDL under -k nc7: the reference refuses it too
            }
            let bad = compare(&nc, &format!("{kind} {name}"));
            passed += 2 - bad.len();
            failed.extend(bad);
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    assert!(passed > 150, "too few cases ran: {passed}");
    assert!(
        failed.is_empty(),
        "differences from netcdf-c's ncdump:\n{}",
        failed.join("\n")
    );
}

/// Fixture files of this repository whose data netcdf-c's ncdump cannot print reproducibly, so
/// only their header (`-h`) is compared: netcdf-c 4.9.0 reads a fixed-length string dataset into a
/// buffer one string long (hdf5var.c, NC4_get_vars), printing the first string then NIL, or
/// crashing on the overflow.
const HEADER_ONLY: &[&str] = &["plain_dtypes", "h5py_fixed_strings"];

/// Our `ncdump` (plain and `-s`) against netcdf-c's on every HDF5 fixture of this repository
/// (crates/purecdf-hdf5/tests/data: h5py and C-made files with n-bit, scale-offset, szip, shared
/// messages, references…; crates/purecdf/tests/data/netcdf4): same output and same exit code,
/// including where netcdf-c refuses a file.
#[test]
fn repository_hdf5_fixtures_dump_like_netcdf_c() {
    if setup().is_none() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    walk(&root.join("purecdf-hdf5/tests/data"), &mut files);
    walk(&root.join("purecdf/tests/data/netcdf4"), &mut files);
    files.sort();
    assert!(files.len() >= 15, "found {} fixtures", files.len());
    let (mut passed, mut failed) = (0, Vec::new());
    for f in &files {
        let header_only = HEADER_ONLY.contains(&stem(f).as_str());
        let runs: [&[&str]; 2] = if header_only {
            [&["-h"], &["-h", "-s"]]
        } else {
            [&[], &["-s"]]
        };
        for opts in runs {
            // Both run from the fixture's directory, where HDF5 looks for external raw data.
            let dir = f.parent().unwrap();
            let theirs = Command::new("/usr/bin/ncdump")
                .args(opts)
                .arg(f)
                .current_dir(dir)
                .output()
                .unwrap();
            let ours = Command::new(env!("CARGO_BIN_EXE_ncdump"))
                .args(opts)
                .arg(f)
                .current_dir(dir)
                .output()
                .unwrap();
            if theirs.stdout == ours.stdout && theirs.status.code() == ours.status.code() {
                passed += 1;
            } else {
                failed.push(format!("{} {}", f.display(), opts.join(" ")));
            }
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    assert!(
        failed.is_empty(),
        "differences from netcdf-c's ncdump:\n{}",
        failed.join("\n")
    );
}
