//! Opening damaged netCDF-4 / HDF5 files for update (`purecdf::append`, the HDF5 writer's
//! loader) and writing to them: every outcome is a result, never a panic or a hang. The inputs
//! are the committed netCDF-4 fixtures with deterministic byte flips and truncations, and
//! inputs the `hdf5_update` fuzz target found (tests/data/update_bad).

use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netcdf4");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

/// Opens `bytes` for update, adds an attribute and a variable, syncs; the result is ignored.
fn update(bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.nc");
    std::fs::write(&p, bytes).unwrap();
    if let Ok(mut f) = purecdf::append(&p) {
        let _ = f.add_attribute("touched", 1i32);
        if let Ok(d) = f.add_dimension("added_dim", 2).map(|d| d.id()) {
            if let Ok(v) =
                f.add_variable_in(purecdf::GroupId(0), "added", purecdf::NcType::Int, &[d])
            {
                let _ = f.put_values(v, &[1i32, 2], (&[0u64][..], &[2u64][..]));
            }
        }
        let _ = f.sync();
    }
}

#[test]
fn fuzz_found_inputs_fail_cleanly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/update_bad");
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        update(&std::fs::read(e.path()).unwrap());
    }
}

#[test]
fn damaged_fixtures_never_panic_on_update() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut runs = 0;
    for f in fixtures() {
        let good = std::fs::read(&f).unwrap();
        if good.len() > 200_000 {
            continue;
        }
        update(&good);
        for _ in 0..12 {
            let mut b = good.clone();
            for _ in 0..1 + next(4) {
                let i = next(b.len());
                b[i] ^= 1 << next(8);
            }
            update(&b);
            runs += 1;
        }
        for cut in [good.len() / 3, good.len() * 2 / 3, good.len() - 1] {
            update(&good[..cut]);
            runs += 1;
        }
    }
    assert!(runs > 50, "only {runs} damaged files");
}

/// An integer type claiming a size of about 2 GB (from the `hdf5_open` fuzz target): the
/// variable has no netCDF type and is left out, instead of being read through a buffer of that
/// element size.
#[test]
fn huge_integer_types_are_left_out() {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/read_bad/nbit_huge_integer_size.h5");
    let f = purecdf::open(&p).unwrap();
    assert!(f.variable("i64_p40_o7").is_none());
    assert!(f.variable("i64be_p40_o7").is_some());
    for v in f.variables() {
        let _ = v.get_typed_values(..);
    }
    update(&std::fs::read(&p).unwrap());
}
