//! `ncdump`: placeholder until the tool lands.

fn main() {
    eprintln!("ncdump: not implemented yet");
    std::process::exit(1);
}
