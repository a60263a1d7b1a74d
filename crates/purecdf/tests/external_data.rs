//! Raw data in external files (tests/data/netcdf4/h5py_external.h5, see make_h5py_plain.py): the
//! segments are read from the files HDF5 would open — relative names against
//! `$HDF5_EXTFILE_PREFIX`, else the current directory — with bytes past a file's end as zeros,
//! and a missing file is an error when the data is read, not when the file is opened. Its own
//! test binary: it sets an environment variable, which no other thread may be reading.

#[test]
fn external_raw_data_files() {
    let dir = format!("{}/tests/data/netcdf4", env!("CARGO_MANIFEST_DIR"));
    let path = format!("{dir}/h5py_external.h5");
    // From the test's working directory (the package), the relative names do not resolve.
    let f = purecdf::open(&path).unwrap();
    let v = f.variable("ext").unwrap();
    assert_eq!(
        v.get_values::<i32, _>(..).unwrap_err().kind(),
        purecdf::ErrorKind::Hdf
    );
    std::env::set_var("HDF5_EXTFILE_PREFIX", &dir);
    let f = purecdf::open(&path).unwrap();
    let v = f.variable("ext").unwrap();
    assert_eq!(
        v.get_values::<i32, _>(..).unwrap(),
        [0, 1, 2, 3, 4, 0, 0, 0]
    );
    // A selection across the two segments.
    let (start, count): (&[u64], &[u64]) = (&[2], &[3]);
    assert_eq!(v.get_values::<i32, _>((start, count)).unwrap(), [2, 3, 4]);
    assert_eq!(
        f.variable("plain")
            .unwrap()
            .get_values::<i64, _>(..)
            .unwrap(),
        [0, 1]
    );
}
