//! `nccopy`: placeholder until the tool lands.

fn main() {
    eprintln!("nccopy: not implemented yet");
    std::process::exit(1);
}
