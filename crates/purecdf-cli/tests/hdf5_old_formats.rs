//! Our `ncdump` on the hand-made old-format fixtures of `purecdf-hdf5/tests/data`
//! (`make_old_layouts.py`): `old_layouts.h5` (data layout messages of versions 1 and 2, contiguous
//! and chunked, `-s`) and `continuation_order.h5` (attributes whose order depends on following
//! object header continuation blocks first in, first out, `-h`). The output must equal netcdf-c
//! 4.9.0's, committed beside each fixture as `STEM.OPT.out`; when `/usr/bin/ncdump` exists the
//! committed text is also checked against it, and under `PURECDF_REQUIRE_REFERENCE=1` it must
//! exist.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf-hdf5/tests/data")
}

/// Fixture, ncdump option, committed expected output.
const CASES: &[(&str, &str, &str)] = &[
    ("old_layouts.h5", "-s", "old_layouts.s.out"),
    ("continuation_order.h5", "-h", "continuation_order.h.out"),
];

/// Exit status and standard output of `program OPT FILE` run in the fixtures' folder.
fn ncdump(program: &Path, opt: &str, file: &str) -> (Option<i32>, Vec<u8>) {
    let out = Command::new(program)
        .args([opt, file])
        .current_dir(data_dir())
        .output()
        .unwrap();
    (out.status.code(), out.stdout)
}

#[test]
fn old_format_fixtures_dump_as_netcdf_c() {
    for (file, opt, expected) in CASES {
        let want = std::fs::read(data_dir().join(expected)).unwrap();
        let (code, ours) = ncdump(Path::new(env!("CARGO_BIN_EXE_ncdump")), opt, file);
        assert!(
            code == Some(0) && ours == want,
            "ncdump {opt} {file} differs from {expected}:\n{}",
            String::from_utf8_lossy(&ours)
        );
    }
}

#[test]
fn committed_outputs_are_netcdf_c_s() {
    let reference = Path::new("/usr/bin/ncdump");
    if !reference.is_file() {
        assert!(
            std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() != Ok("1"),
            "/usr/bin/ncdump is required (PURECDF_REQUIRE_REFERENCE=1)"
        );
        eprintln!("skipped: no /usr/bin/ncdump");
        return;
    }
    for (file, opt, expected) in CASES {
        let want = std::fs::read(data_dir().join(expected)).unwrap();
        assert!(
            ncdump(reference, opt, file) == (Some(0), want),
            "netcdf-c's ncdump {opt} {file} no longer prints {expected}"
        );
    }
}
