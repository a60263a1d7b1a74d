//! The logic behind the `ncdump`, `ncgen` and `nccopy` binaries.

pub mod copy;
pub mod dump;
pub mod gen;

/// The line `<tool> --version` prints: the tool, purecdf and its version. Only that one
/// argument asks for it; anything else goes to netcdf-c's option parsing (and its usage text).
pub fn version_line(tool: &str) -> String {
    format!(
        "{tool} (purecdf {}): netCDF in pure Rust, output byte-identical to netcdf-c 4.9's {tool}",
        env!("CARGO_PKG_VERSION")
    )
}

/// True when the arguments after the program name are exactly `--version`.
pub fn asks_version<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> bool {
    matches!(args, [_, v] if v.as_ref() == "--version")
}
