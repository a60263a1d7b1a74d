//! Virtual datasets and external links as netcdf-c 4.9.0 (HDF5 1.10.8) dumps them: our
//! `ncdump -s` against the reference dumps of `shared/conformance/hdf5-wild` (`vds_*`,
//! `elink_*`, made by `/usr/bin/ncdump -s` in that folder), run from that folder, from another
//! folder with an absolute path, and from the parent folder with a relative path: HDF5 finds
//! sources and link targets beside the file that names them, wherever it runs.
//!
//! The folder is `$PURECDF_SHARED_DIR/conformance/hdf5-wild`, by default `../shared` beside the
//! repository. Without it the test skips, unless `PURECDF_REQUIRE_REFERENCE=1`, when it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

fn wild() -> Option<PathBuf> {
    let shared = match std::env::var_os("PURECDF_SHARED_DIR") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let dir = shared.join("conformance/hdf5-wild");
    if dir.join("vds_stack.h5").is_file() {
        Some(dir)
    } else {
        assert!(
            !require(),
            "PURECDF_REQUIRE_REFERENCE=1 but {} is missing",
            dir.display()
        );
        eprintln!("skipped: needs {}", dir.display());
        None
    }
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
    let Some(dir) = wild() else {
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
