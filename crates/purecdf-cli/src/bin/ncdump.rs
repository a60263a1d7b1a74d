//! `ncdump`: prints a netCDF dataset as CDL (or NcML with `-x`), byte-identical to netcdf-c 4.9.
//! The logic lives in `purecdf_cli::dump`.

fn main() {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    std::process::exit(purecdf_cli::dump::run(&argv));
}
