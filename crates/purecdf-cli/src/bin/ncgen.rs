//! `ncgen`: generate a netCDF file from CDL text (see [`purecdf_cli::gen`]).

fn main() {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if purecdf_cli::asks_version(&argv) {
        println!("{}", purecdf_cli::version_line("ncgen"));
        return;
    }
    let code = purecdf_cli::gen::main_with_args(argv);
    std::process::exit(code);
}
