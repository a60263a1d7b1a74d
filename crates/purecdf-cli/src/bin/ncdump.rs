//! `ncdump`: prints a netCDF dataset as CDL (or NcML with `-x`), byte-identical to netcdf-c 4.9.
//! The logic lives in `purecdf_cli::dump`.

fn main() {
    // Arguments keep bytes that are not UTF-8 (names and paths are bytes to netcdf-c).
    let argv: Vec<String> = std::env::args_os().map(arg_string).collect();
    if purecdf_cli::asks_version(&argv) {
        println!("{}", purecdf_cli::version_line("ncdump"));
        return;
    }
    std::process::exit(purecdf_cli::dump::run(&argv));
}

#[cfg(unix)]
fn arg_string(a: std::ffi::OsString) -> String {
    use std::os::unix::ffi::OsStrExt;
    purecdf::model::name_from_bytes(a.as_bytes())
}

#[cfg(not(unix))]
fn arg_string(a: std::ffi::OsString) -> String {
    a.to_string_lossy().into_owned()
}
