//! The Python the interop tests run: `$PURECDF_PYTHON` (CI's venv) or `python3`, when it imports
//! the modules a test needs; otherwise the test skips, or fails under
//! `PURECDF_REQUIRE_REFERENCE=1`.

use std::path::PathBuf;
use std::process::Command;

/// A Python that imports every module of `modules` (comma-separated, as in `import`).
pub(crate) fn python_with(modules: &str) -> Option<PathBuf> {
    let py: PathBuf =
        std::env::var_os("PURECDF_PYTHON").map_or_else(|| "python3".into(), PathBuf::from);
    let ok = Command::new(&py)
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(py);
    }
    assert!(
        std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() != Ok("1"),
        "{} cannot import {modules} (set PURECDF_PYTHON to a python that can)",
        py.display()
    );
    eprintln!("skipped: no Python that imports {modules}");
    None
}

/// Runs `script` (`python -c`) with `args` as `sys.argv[1..]`; its stdout. A failing script
/// fails the test with its stderr.
#[allow(dead_code)] // not every test that includes this module runs scripts this way
pub(crate) fn run_python(py: &std::path::Path, script: &str, args: &[&std::path::Path]) -> String {
    let out = Command::new(py)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
