//! Default chunk sizes of netCDF-4 variables, computed as netcdf-c 4.9.0 does when a variable is
//! defined without explicit chunking (`nc4var.c`, default chunk size 16 MiB as in its CMake
//! build; checked against netcdf-c on thousands of random shapes): one record along each
//! unlimited dimension, and the fixed dimensions scaled evenly so that a chunk holds about
//! 16 MiB, then trimmed so the chunks do not overhang the dimensions (unlimited ones at their
//! current length) more than needed.

/// Bytes a default chunk aims for.
const DEFAULT_CHUNK_SIZE: f64 = 16_777_216.0;
/// Cap, in elements of the type size, for one-dimensional record variables.
const DEFAULT_1D_UNLIM_SIZE: u64 = 4096;

/// Default chunk sizes for a variable whose dimensions have lengths `lens` (`unlimited[d]` for
/// unlimited dimensions, whose current length only counts in the final trim) and whose
/// elements take `type_size` bytes in memory (8 for strings, 16 for vlens).
pub(crate) fn default_chunk_sizes(lens: &[u64], unlimited: &[bool], type_size: u64) -> Vec<u64> {
    let ndims = lens.len();
    let ts = type_size.max(1);
    let nu = unlimited.iter().filter(|u| **u).count();
    let nv: f64 = lens
        .iter()
        .zip(unlimited)
        .filter(|(_, u)| !**u)
        .map(|(l, _)| *l as f64)
        .product();
    let mut cs: Vec<u64> = unlimited.iter().map(|u| u64::from(*u)).collect();
    if ndims == 1 && nu == 1 {
        let s = ((DEFAULT_CHUNK_SIZE as u64) / ts).clamp(1, DEFAULT_1D_UNLIM_SIZE);
        cs[0] = s / ts;
    }
    if ndims > 1 && nu == ndims {
        let s = (DEFAULT_CHUNK_SIZE / ts as f64).powf(1.0 / ndims as f64) as u64;
        cs.iter_mut().for_each(|c| *c = s.max(1));
    }
    for d in 0..ndims {
        if cs[d] != 0 {
            continue;
        }
        let free = ndims - nu;
        let len = if unlimited[d] { 0 } else { lens[d] };
        let s = if free == 0 {
            // netcdf-c divides by zero here (a one-dimensional record variable whose type is
            // larger than 4096 bytes); its NaN truncates to 0, then becomes 1.
            0
        } else {
            let scale = (DEFAULT_CHUNK_SIZE / (nv * ts as f64)).powf(1.0 / free as f64);
            let v = scale * len as f64 - 0.5;
            if v.is_finite() && v > 0.0 {
                v as u64
            } else {
                0
            }
        };
        cs[d] = s.min(len).max(1);
    }
    let limit_ts = ts;
    while cs
        .iter()
        .try_fold(limit_ts, |a, c| a.checked_mul(*c))
        .is_none_or(|b| b > u64::from(u32::MAX))
    {
        let before = cs.clone();
        cs.iter_mut().for_each(|c| *c = (*c / 2).max(1));
        if cs == before {
            break;
        }
    }
    // The overhang trim uses every dimension's current length, an unlimited one's too: a
    // record variable defined after records were written gets chunks no longer than them.
    for d in 0..ndims {
        let len = lens[d];
        let n = len.div_ceil(cs[d]);
        if let Some(over) = (n * cs[d] - len).checked_div(n) {
            cs[d] -= over;
        }
    }
    cs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn netcdf_c_examples() {
        // Shapes and results measured with netcdf-c 4.9.0 (nc_inq_var_chunking).
        let t = true;
        let f = false;
        assert_eq!(default_chunk_sizes(&[2000, 2000], &[f, f], 4), [2000, 2000]);
        assert_eq!(
            default_chunk_sizes(&[0, 2000, 2000], &[t, f, f], 4),
            [1, 2000, 2000]
        );
        for (ts, want) in [
            (8, 512),
            (4, 1024),
            (2, 2048),
            (1, 4096),
            (16, 256),
            (24, 170),
        ] {
            assert_eq!(
                default_chunk_sizes(&[0], &[t], ts),
                [want],
                "type size {ts}"
            );
        }
        assert_eq!(default_chunk_sizes(&[0, 0], &[t, t], 4), [2048, 2048]);
        assert_eq!(default_chunk_sizes(&[0, 0], &[t, t], 1), [4096, 4096]);
        assert_eq!(default_chunk_sizes(&[0, 0, 7], &[t, t, f], 4), [1, 1, 7]);
        assert_eq!(default_chunk_sizes(&[100_000], &[f], 8), [100_000]);
        assert_eq!(default_chunk_sizes(&[0, 10, 7], &[t, f, f], 4), [1, 10, 7]);
        assert_eq!(
            default_chunk_sizes(&[100_000, 7, 10], &[f, f, f], 8),
            [50_000, 4, 5]
        );
        assert_eq!(default_chunk_sizes(&[0, 100_000], &[t, f], 8), [1, 100_000]);
        assert_eq!(default_chunk_sizes(&[0], &[t], 5000), [1]);
    }

    #[test]
    fn record_variables_defined_after_records() {
        // netcdf-c 4.9.0: a file whose coordinate variable has 1, 2, 3, 1500 or 5000 records,
        // reopened, and a record variable added (nc_inq_var_chunking).
        let t = true;
        assert_eq!(default_chunk_sizes(&[1], &[t], 4), [1]);
        assert_eq!(default_chunk_sizes(&[2], &[t], 4), [2]);
        assert_eq!(default_chunk_sizes(&[3], &[t], 4), [3]);
        // Past one chunk the trim spreads the overhang: 2 chunks of 1024 for 1500 records.
        assert_eq!(default_chunk_sizes(&[1500], &[t], 4), [750]);
        assert_eq!(default_chunk_sizes(&[5000], &[t], 4), [1000]);
        assert_eq!(default_chunk_sizes(&[5, 3], &[t, false], 4), [1, 3]);
    }
}
