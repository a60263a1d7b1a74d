//! Debug aid: reads a dataset of an HDF5 file whole and prints its first values (as i32) or the error.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = purecdf_hdf5::io::FileSource::open(&args[1]).unwrap();
    let f = purecdf_hdf5::read::Hdf5File::open(std::sync::Arc::new(src)).unwrap();
    let ds = f.dataset(&args[2]).unwrap();
    println!("{:?}", ds.filters);
    for c in ds.chunks().unwrap().iter().take(2) {
        let raw =
            purecdf_hdf5::io::ByteSource::read_range(f.source(), c.address, u64::from(c.size))
                .unwrap();
        let r = purecdf_hdf5::filter::decode_chunk(
            &ds.filters,
            c.filter_mask,
            raw,
            1 << 20,
            ds.element_size() as usize,
        );
        match r {
            Ok(d) => println!(
                "chunk {:?}: {} bytes {:?}",
                c.offsets,
                d.len(),
                &d[..d.len().min(16)]
            ),
            Err(e) => println!("chunk {:?}: {e}", c.offsets),
        }
    }
}
