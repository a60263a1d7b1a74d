//! HDF5 files that HDF5 1.10.8 (so netcdf-c 4.9.0) reads or refuses for low-level reasons
//! (fixtures in tests/data/netcdf4/lowlevel, made by gen_lowlevel.c; values checked with
//! h5dump and netcdf-c's ncdump).

use purecdf::{ErrorKind, OpenOptions, Values};

fn path(name: &str) -> String {
    format!(
        "{}/tests/data/netcdf4/lowlevel/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn metadata_cache_image_is_read_in_place_of_the_file() {
    let f = purecdf::open(path("cache_image.h5")).unwrap();
    assert_eq!(f.attribute("answer").unwrap().values, Values::Int(vec![42]));
    let sq = f.variable("/grp/sq").unwrap();
    let want: Vec<i16> = (0..20).map(|i: i16| i * i - 50).collect();
    assert_eq!(sq.get_values::<i16, _>(..).unwrap(), want);
    assert_eq!(sq.attribute("scale").unwrap().values, Values::Int(vec![-7]));
    let x = f.variable("x").unwrap();
    assert_eq!(x.get_values::<f64, _>(..).unwrap(), [0.25, -1.5, 1e10]);
}

#[test]
fn files_a_writer_left_open_are_refused_unless_asked() {
    for name in ["status_write.h5", "status_swmr.h5"] {
        let e = purecdf::open(path(name)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Hdf, "{name}");
        let opts = OpenOptions {
            ignore_hdf5_status_flags: true,
            ..OpenOptions::default()
        };
        let f = purecdf::open_with(path(name), opts).unwrap();
        let v = f.variable("v").unwrap();
        assert_eq!(v.get_values::<i32, _>(..).unwrap(), [1, 2, 3, 4], "{name}");
    }
}

#[test]
fn reads_stop_at_the_end_of_allocation_unless_asked() {
    let e = purecdf::open(path("eoa_meta.h5")).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Hdf);
    let opts = OpenOptions {
        ignore_hdf5_end_of_allocation: true,
        ..OpenOptions::default()
    };
    let f = purecdf::open_with(path("eoa_meta.h5"), opts).unwrap();
    assert_eq!(f.attribute("a").unwrap().values, Values::Int(vec![1]));
}

#[test]
fn integers_of_odd_sizes_widen_to_the_native_type_of_their_precision() {
    let f = purecdf::open(path("oddint.h5")).unwrap();
    let signed = [0i64, 1, -2, 100, -1000, 4095, -8388608];
    let unsigned = [0u64, 1, 0, 100, 0, 4095, 0];
    for (name, typ) in [
        ("i24le", purecdf::NcType::Int),
        ("i24be", purecdf::NcType::Int),
        ("i40le", purecdf::NcType::Int64),
        ("i48le", purecdf::NcType::Int64),
        ("i56be", purecdf::NcType::Int64),
    ] {
        let v = f.variable(name).unwrap();
        assert_eq!(v.nc_type(), typ, "{name}");
        assert_eq!(v.get_values::<i64, _>(..).unwrap(), signed, "{name}");
    }
    for (name, typ) in [
        ("u24le", purecdf::NcType::UInt),
        ("u40be", purecdf::NcType::UInt64),
        ("u56le", purecdf::NcType::UInt64),
    ] {
        let v = f.variable(name).unwrap();
        assert_eq!(v.nc_type(), typ, "{name}");
        assert_eq!(v.get_values::<u64, _>(..).unwrap(), unsigned, "{name}");
    }
    // 16 bits at bit offset 4 of 3 bytes: a short, its sign from bit 19.
    let v = f.variable("i16in3").unwrap();
    assert_eq!(v.nc_type(), purecdf::NcType::Short);
    assert_eq!(
        v.get_values::<i16, _>(..).unwrap(),
        [0, 1, -2, 100, -1000, 4095, -32768]
    );
    assert_eq!(
        f.attribute("i24").unwrap().values,
        Values::Int(vec![-1, 8388607, -8388608, 12345])
    );
}

#[test]
fn short_attribute_values_continue_into_the_following_header_bytes() {
    let f = purecdf::open(path("short_attr.h5")).unwrap();
    // The next message's header: padding, then type 0x000C (attribute).
    assert_eq!(
        f.attribute("pair").unwrap().values,
        Values::Short(vec![-3, 11, 0, 0, 12])
    );
    assert_eq!(f.attribute("after").unwrap().values, Values::Int(vec![77]));
    let v = f.variable("v").unwrap();
    assert_eq!(
        v.attribute("gain").unwrap().values,
        Values::Float(vec![0.5, 0.0])
    );
}

#[test]
fn partial_edge_chunks_stored_unfiltered_are_read_raw() {
    let f = purecdf::open(path("partial_edge.h5")).unwrap();
    let want: Vec<i32> = (0..35).map(|i| (i % 6) * 100000 - i).collect();
    assert_eq!(
        f.variable("grid")
            .unwrap()
            .get_values::<i32, _>(..)
            .unwrap(),
        want
    );
    let want: Vec<f64> = (0..10).map(|i| f64::from(i) * 0.5 - 2.0).collect();
    assert_eq!(
        f.variable("series")
            .unwrap()
            .get_values::<f64, _>(..)
            .unwrap(),
        want
    );
}

#[test]
fn szip_blocks_of_2_4_and_6_pixels_decode() {
    let f = purecdf::open(path("szip_blocks.h5")).unwrap();
    let want: Vec<i16> = (0..45).map(|i: i16| (i * 37 % 500) - 250).collect();
    assert_eq!(
        f.variable("nn2").unwrap().get_values::<i16, _>(..).unwrap(),
        want
    );
    let want: Vec<u16> = (0..60).map(|i: u16| i * 11 % 300).collect();
    assert_eq!(
        f.variable("ec4").unwrap().get_values::<u16, _>(..).unwrap(),
        want
    );
    let got = f.variable("nn6").unwrap().get_values::<f32, _>(..).unwrap();
    let want: Vec<f32> = (0..40).map(|i| (i as f32 / 5.0).sin()).collect();
    assert!(got.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-6));
}
