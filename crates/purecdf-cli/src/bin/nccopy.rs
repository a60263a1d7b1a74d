//! `nccopy`: copy a netCDF file, optionally changing format or selecting variables
//! (see [`purecdf_cli::copy`]).

fn main() {
    let code = purecdf_cli::copy::main_with_args(std::env::args_os().collect());
    std::process::exit(code);
}
