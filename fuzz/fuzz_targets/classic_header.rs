//! Fuzzes the classic-format reader (CDF-1/2/5 headers per "The NetCDF Classic Format
//! Specification"): `open_bytes` on arbitrary bytes, then every attribute and every variable read.
//! Errors are fine; panics, hangs, and allocations sized by unchecked header numbers are not
//! (libFuzzer's `-rss_limit_mb` and `-malloc_limit_mb` catch the last).
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Variables larger than this are probed at their first and last element instead of read whole,
/// so the fuzzer itself never asks for a huge buffer.
const READ_WHOLE_LIMIT: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = purecdf::open_bytes(data.to_vec()) else {
        return;
    };
    for a in file.attributes() {
        let _ = a.values.len();
    }
    for v in file.variables() {
        let _ = v.attributes().count();
        let _ = v.fill_values();
        let shape = v.shape();
        let size = v.nc_type().atomic_size().unwrap_or(1) as u64;
        let bytes = shape
            .iter()
            .try_fold(size, |acc, &d| acc.checked_mul(d))
            .unwrap_or(u64::MAX);
        if bytes <= READ_WHOLE_LIMIT {
            let _ = v.get_typed_values(..);
            let _ = v.get_values::<f64, _>(..);
        } else if shape.iter().all(|&d| d > 0) {
            let ones = vec![1u64; shape.len()];
            let first = vec![0u64; shape.len()];
            let last: Vec<u64> = shape.iter().map(|d| d - 1).collect();
            let _ = v.get_typed_values((first.as_slice(), ones.as_slice()));
            let _ = v.get_typed_values((last.as_slice(), ones.as_slice()));
        }
    }
});
