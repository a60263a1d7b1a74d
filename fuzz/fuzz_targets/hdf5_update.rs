//! Fuzzes opening an HDF5 / netCDF-4 file for update (HDF5 File Format Specification v3.0
//! structures read by the writer's loader: every reachable object header, attribute values with
//! their global-heap data and object references, chunk indexes) and writing it back: the bytes
//! go to a scratch file, `Hdf5Writer::open` loads it, an attribute is added to the root group and
//! the file is flushed; then the same through purecdf's netCDF-4 writer (`purecdf::append`).
//! Errors are fine; panics, hangs and unbounded allocations are not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::write::{AttrSpec, Hdf5Writer, Piece, TypeSpec};

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else { return };
    let path = dir.path().join("f.h5");
    if std::fs::write(&path, data).is_err() {
        return;
    }
    if let Ok(mut w) = Hdf5Writer::open(&path) {
        let root = w.root();
        let _ = w.put_attribute(
            root,
            AttrSpec {
                name: "fuzz".into(),
                dtype: TypeSpec::Inline(Datatype::FixedPoint {
                    size: 4,
                    big_endian: false,
                    signed: true,
                    bit_offset: 0,
                    precision: 32,
                }),
                space: Dataspace::Scalar,
                data: vec![Piece::Bytes(vec![1, 0, 0, 0])],
            },
        );
        let _ = w.flush();
    }
    if std::fs::write(&path, data).is_err() {
        return;
    }
    if let Ok(mut f) = purecdf::append(&path) {
        let _ = f.add_attribute("fuzz", 1i32);
        let _ = f.sync();
    }
});
