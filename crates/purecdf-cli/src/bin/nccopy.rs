//! `nccopy`: copy a netCDF file, optionally changing format or selecting variables
//! (see [`purecdf_cli::copy`]).

fn main() {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if purecdf_cli::asks_version(&argv) {
        println!("{}", purecdf_cli::version_line("nccopy"));
        return;
    }
    let code = purecdf_cli::copy::main_with_args(argv);
    std::process::exit(code);
}
