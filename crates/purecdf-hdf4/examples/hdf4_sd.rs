//! Prints the SD model of an HDF4 file: `cargo run -p purecdf-hdf4 --example hdf4_sd FILE`.

fn main() {
    let path = std::env::args().nth(1).expect("usage: hdf4_sd FILE");
    let f = purecdf_hdf4::Hdf4File::open_path(std::path::Path::new(&path));
    match f.and_then(|f| f.sd()) {
        Ok(sd) => {
            for d in &sd.dimensions {
                println!("dim {} = {}", d.name, d.size);
            }
            for ds in &sd.datasets {
                println!(
                    "sds {} {:?} {:?} {:?}",
                    ds.name, ds.number_type, ds.shape, ds.layout
                );
            }
        }
        Err(e) => println!("error: {e}"),
    }
}
