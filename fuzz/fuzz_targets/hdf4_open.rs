//! Fuzzes the HDF4 layer (`purecdf-hdf4`: DD blocks, special elements, vgroups, vdatas, the SD
//! model, chunk tables and the RLE, deflate, skipping Huffman, n-bit and szip coders) and the
//! netCDF mapping over it: reads the SD model and every small dataset, then opens the same bytes
//! with `purecdf::open_bytes` and reads every small variable. Errors are fine; panics, hangs and
//! unbounded allocations are not.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;

/// Datasets of more elements than this are not read (their size is the input's claim).
const SMALL: u64 = 1 << 16;

fuzz_target!(|data: &[u8]| {
    if let Ok(f) = purecdf_hdf4::Hdf4File::open(Arc::new(data.to_vec())) {
        if let Ok(sd) = f.sd() {
            for ds in &sd.datasets {
                let n = ds.shape.iter().try_fold(1u64, |p, &d| p.checked_mul(d));
                let Some(n) = n.filter(|&n| n <= SMALL) else {
                    continue;
                };
                let es = ds.number_type.size();
                let sel = purecdf_hdf4::Selection {
                    start: vec![0; ds.shape.len()],
                    count: ds.shape.clone(),
                    stride: vec![1; ds.shape.len()],
                };
                let mut out = vec![0u8; n as usize * es];
                let _ = f.read_dataset(ds, &sel, &vec![0; es], &mut out);
            }
        }
    }
    if let Ok(file) = purecdf::open_bytes(data.to_vec()) {
        for v in file.variables() {
            let _ = v.attributes().count();
            if v.len() as u64 <= SMALL {
                let _ = v.get_typed_values(..);
            }
        }
    }
});
