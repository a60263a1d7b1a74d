//! Where netcdf-c's test data is: `$PURECDF_SHARED_DIR/conformance/netcdf-c`, by default
//! `../shared` beside the repository root.

use std::path::{Path, PathBuf};

/// The folder, or `None` (a skip) when it is missing; with `PURECDF_REQUIRE_REFERENCE=1` a
/// missing folder is a failure.
pub(crate) fn netcdf_c_data() -> Option<PathBuf> {
    let shared = match std::env::var_os("PURECDF_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let dir = shared.join("conformance/netcdf-c");
    if dir.join("ncdump/cdl").is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() != Ok("1"),
        "netcdf-c test data ({}) is required (PURECDF_REQUIRE_REFERENCE=1)",
        dir.display()
    );
    eprintln!(
        "skipping: netcdf-c test data ({}) not available",
        dir.display()
    );
    None
}
