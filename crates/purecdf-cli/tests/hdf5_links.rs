//! Virtual datasets and external links as netcdf-c 4.9.0 (HDF5 1.10.8) dumps them: our
//! `ncdump -s` against the reference dumps of `shared/conformance/hdf5-wild` (`vds_*`,
//! `elink_*`, made by `/usr/bin/ncdump -s` in that folder), run from that folder, from another
//! folder with an absolute path, and from the parent folder with a relative path: HDF5 finds
//! sources and link targets beside the file that names them, wherever it runs.
//!
//! The folder is `$PURECDF_SHARED_DIR/conformance/hdf5-wild`, by default `../shared` beside the
//! repository. Without it the test skips, unless `PURECDF_REQUIRE_REFERENCE=1`, when it fails.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

const FILES: &[&str] = &[
    "vds_same_file",
    "vds_stack",
    "vds_fill_gaps",
    "vds_strided",
    "vds_src_0",
    "elink_dataset",
    "elink_group",
    "elink_root",
    "elink_target",
];

#[test]
fn virtual_datasets_and_external_links_match_netcdf_c() {
    let Some(dir) = support::hdf5_wild_data() else {
        return;
    };
    let dir = dir.canonicalize().unwrap();
    let parent = dir.parent().unwrap().to_path_buf();
    let elsewhere = std::env::temp_dir();
    let mut failed = Vec::new();
    for stem in FILES {
        let want = std::fs::read(dir.join(format!("{stem}.dmp"))).unwrap();
        let name = format!("{stem}.h5");
        let runs: [(PathBuf, PathBuf); 3] = [
            (dir.clone(), PathBuf::from(&name)),
            (elsewhere.clone(), dir.join(&name)),
            (parent.clone(), Path::new("hdf5-wild").join(&name)),
        ];
        for (cwd, arg) in runs {
            let out = Command::new(env!("CARGO_BIN_EXE_ncdump"))
                .arg("-s")
                .arg(&arg)
                .current_dir(&cwd)
                .output()
                .unwrap();
            if !out.status.success() || out.stdout != want {
                failed.push(format!(
                    "{} from {}: {}",
                    arg.display(),
                    cwd.display(),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    assert!(failed.is_empty(), "differences:\n{}", failed.join("\n"));
}

/// Our `ncdump` and `/usr/bin/ncdump` on the same files in a scratch folder, with `env` set for
/// both: same output and exit status.
fn same_as_netcdf_c(dir: &Path, args: &[&str], env: &[(&str, &Path)]) -> Result<(), String> {
    let run = |exe: &str| {
        let mut c = Command::new(exe);
        c.args(args).current_dir(dir).env_remove("HDF5_EXT_PREFIX");
        c.env_remove("HDF5_VDS_PREFIX");
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().unwrap()
    };
    let ours = run(env!("CARGO_BIN_EXE_ncdump"));
    let theirs = run("/usr/bin/ncdump");
    if ours.stdout == theirs.stdout && ours.status.code() == theirs.status.code() {
        Ok(())
    } else {
        Err(format!(
            "{args:?} in {}: ours {:?}\n{}\ntheirs {:?}\n{}",
            dir.display(),
            ours.status.code(),
            String::from_utf8_lossy(&ours.stdout),
            theirs.status.code(),
            String::from_utf8_lossy(&theirs.stdout)
        ))
    }
}

/// Sources and link targets that move or disappear (this crate's fixtures, copied to a scratch
/// folder): printf sources missing from the second block on and from the first; unlimited
/// sources missing, then regrown to other lengths; sources found only through
/// `HDF5_VDS_PREFIX` (a colon list, and `${ORIGIN}`), only from the working directory, or only
/// beside the real file a symbolic link names; targets found only through `HDF5_EXT_PREFIX`.
#[cfg(unix)]
#[test]
fn moved_and_missing_sources_match_netcdf_c() {
    if !Path::new("/usr/bin/ncdump").is_file() {
        assert!(!require(), "/usr/bin/ncdump is required");
        return;
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf-hdf5/tests/data/vds");
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for f in std::fs::read_dir(&fixtures).unwrap().flatten() {
        if f.path().extension().is_some_and(|e| e == "h5") {
            std::fs::copy(f.path(), t.join(f.file_name())).unwrap();
        }
    }
    let mut failed = Vec::new();
    let mut check = |dir: &Path, args: &[&str], env: &[(&str, &Path)]| {
        if let Err(e) = same_as_netcdf_c(dir, args, env) {
            failed.push(e);
        }
    };
    for args in [
        &["printf.h5"][..],
        &["-s", "unlim.h5"],
        &["-h", "missing.h5"],
    ] {
        check(t, args, &[]);
    }
    std::fs::remove_file(t.join("printf_src_1.h5")).unwrap();
    check(t, &["printf.h5"], &[]);
    std::fs::remove_file(t.join("printf_src_0.h5")).unwrap();
    check(t, &["printf.h5"], &[]);
    // The unlimited sources: gone, then elsewhere.
    let pre = t.join("pre");
    std::fs::create_dir(&pre).unwrap();
    std::fs::rename(t.join("unlim_src.h5"), pre.join("unlim_src.h5")).unwrap();
    check(t, &["unlim.h5"], &[]);
    let list = std::ffi::OsString::from(format!("{}:{}", t.join("no").display(), pre.display()));
    check(t, &["unlim.h5"], &[("HDF5_VDS_PREFIX", Path::new(&list))]);
    check(
        t,
        &["unlim.h5"],
        &[("HDF5_VDS_PREFIX", Path::new("${ORIGIN}/pre"))],
    );
    check(&pre, &["../unlim.h5"], &[]);
    // A symbolic link to the virtual dataset in another folder: its sources are beside the real
    // file.
    let other = t.join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::rename(pre.join("unlim_src.h5"), t.join("unlim_src.h5")).unwrap();
    std::os::unix::fs::symlink(t.join("unlim.h5"), other.join("u.h5")).unwrap();
    check(&pre, &["../other/u.h5"], &[]);
    // External link targets moved away, found through HDF5_EXT_PREFIX.
    std::fs::rename(t.join("elink_chain_b.h5"), pre.join("elink_chain_b.h5")).unwrap();
    check(t, &["elink_chain_a.h5"], &[]);
    check(t, &["elink_chain_a.h5"], &[("HDF5_EXT_PREFIX", &pre)]);
    assert!(failed.is_empty(), "differences:\n{}", failed.join("\n"));
}
