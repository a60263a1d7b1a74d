//! `ncgen`: generate a netCDF file from CDL text (see [`purecdf_cli::gen`]).

fn main() {
    let code = purecdf_cli::gen::main_with_args(std::env::args_os().collect());
    std::process::exit(code);
}
