//! `ncgen`: placeholder until the tool lands.

fn main() {
    eprintln!("ncgen: not implemented yet");
    std::process::exit(1);
}
