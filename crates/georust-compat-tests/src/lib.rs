//! Helpers for the georust compatibility tests: netcdf-c's `ncgen` to make the files read and
//! `ncdump` to check the files written. Without them the tests skip, unless
//! `PURECDF_REQUIRE_REFERENCE=1`, when they fail.

use std::path::{Path, PathBuf};
use std::process::Command;

/// True when the reference tools must be there.
pub fn required() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

fn tool(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from("/usr/bin").join(name);
    if p.is_file() {
        Some(p)
    } else if required() {
        panic!("PURECDF_REQUIRE_REFERENCE=1 but /usr/bin/{name} is missing");
    } else {
        eprintln!("skipping: /usr/bin/{name} not available");
        None
    }
}

/// Writes `cdl` with netcdf-c's `ncgen -k <kind>` (`nc3`, `nc4`, ...) to `out`; `None` (skip)
/// without ncgen.
pub fn ncgen(cdl: &str, kind: &str, out: &Path) -> Option<()> {
    let ncgen = tool("ncgen")?;
    let src = out.with_extension("cdl");
    std::fs::write(&src, cdl).unwrap();
    let st = Command::new(ncgen)
        .args(["-k", kind, "-o"])
        .arg(out)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "ncgen: {}",
        String::from_utf8_lossy(&st.stderr)
    );
    Some(())
}

/// netcdf-c's `ncdump <args> <file>` with the `netcdf <name> {` line and `_NCProperties`
/// left out (they name the file and the library that wrote it); `None` (skip) without ncdump.
pub fn ncdump(args: &[&str], file: &Path) -> Option<String> {
    let ncdump = tool("ncdump")?;
    let out = Command::new(ncdump).args(args).arg(file).output().unwrap();
    assert!(
        out.status.success(),
        "ncdump {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    Some(
        text.lines()
            .skip(1)
            .filter(|l| !l.contains("_NCProperties"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Asserts netcdf-c prints the same for the file purecdf wrote and the file ncgen made from
/// `cdl` (format `kind`), with `ncdump <args>`.
pub fn same_as_ncgen(ours: &Path, cdl: &str, kind: &str, args: &[&str]) {
    let theirs = ours.with_file_name(format!(
        "{}.ncgen.nc",
        ours.file_stem().unwrap().to_string_lossy()
    ));
    if ncgen(cdl, kind, &theirs).is_none() {
        return;
    }
    let (Some(a), Some(b)) = (ncdump(args, ours), ncdump(args, &theirs)) else {
        return;
    };
    assert_eq!(
        a, b,
        "ncdump {args:?} differs between purecdf's file and ncgen's"
    );
}
