//! Reading classic fixtures made by the reference `ncgen` from the CDL beside them
//! (tests/data/classic/): every value must equal the CDL's, exactly.

use purecdf::{ErrorKind, Format, NcType, Values};

fn fixture(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/classic")
        .join(name)
}

fn raw(f: &purecdf::File, var: &str) -> Values {
    f.variable(var)
        .unwrap_or_else(|| panic!("no variable {var}"))
        .get_typed_values(..)
        .unwrap()
}

fn att(f: &purecdf::File, var: Option<&str>, name: &str) -> Values {
    match var {
        None => f.attribute(name).unwrap().values.clone(),
        Some(v) => f
            .variable(v)
            .unwrap()
            .attribute(name)
            .unwrap()
            .values
            .clone(),
    }
}

const FB: i8 = -127;
const FS: i16 = -32767;
const FF: f32 = purecdf::fill::FLOAT;
const FD: f64 = purecdf::fill::DOUBLE;

#[test]
fn cdf1_every_type() {
    let f = purecdf::open(fixture("cdf1_all.nc")).unwrap();
    assert_eq!(f.format(), Format::Classic);
    let dims: Vec<_> = f
        .dimensions()
        .map(|d| (d.name.clone(), d.len, d.unlimited))
        .collect();
    assert_eq!(
        dims,
        vec![
            ("time".to_string(), 3, true),
            ("x".to_string(), 4, false),
            ("y".to_string(), 3, false),
            ("strlen".to_string(), 5, false)
        ]
    );
    assert_eq!(raw(&f, "b"), Values::Byte(vec![-128, 0, 1, 127]));
    assert_eq!(
        raw(&f, "c"),
        Values::Char(b"helloabc\0\0\0\0\0\0\0".to_vec())
    );
    assert_eq!(
        raw(&f, "s"),
        Values::Short(vec![1, 2, 3, 4, 5, -1, 7, 8, -32768, 32767, 0, -1])
    );
    assert_eq!(raw(&f, "i"), Values::Int(vec![i32::MIN, i32::MAX, 0, 17]));
    assert_eq!(
        raw(&f, "f"),
        Values::Float(vec![
            1., 2., 3., 4., -1.5, FF, 1e38, -1e-38, 0., 0.25, 0.5, 0.75
        ])
    );
    assert_eq!(raw(&f, "d"), Values::Double(vec![1.1, FD, -3.3e200]));
    assert_eq!(
        raw(&f, "rs"),
        Values::Short(vec![1, 2, 3, 4, 5, 6, FS, FS, 9])
    );
    assert_eq!(raw(&f, "scalar"), Values::Int(vec![123]));
    assert_eq!(raw(&f, "dscalar"), Values::Double(vec![-0.125]));
    assert_eq!(
        att(&f, None, "title"),
        Values::Char(b"CDF-1 every type".to_vec())
    );
    assert_eq!(att(&f, None, "gb"), Values::Byte(vec![1, -2, 127]));
    assert_eq!(att(&f, None, "gs"), Values::Short(vec![-32768, 32767]));
    assert_eq!(att(&f, None, "gi"), Values::Int(vec![42]));
    assert_eq!(att(&f, None, "gf"), Values::Float(vec![0.5]));
    assert_eq!(att(&f, None, "gd"), Values::Double(vec![2.5, 1e300]));
    assert_eq!(
        att(&f, Some("b"), "valid_range"),
        Values::Byte(vec![-100, 100])
    );
    assert_eq!(att(&f, Some("s"), "scale"), Values::Short(vec![1, 2, 3]));
    assert_eq!(
        att(&f, Some("i"), "ivals"),
        Values::Int(vec![-2147483647, 0, 2147483647])
    );
    assert_eq!(
        att(&f, Some("f"), "fvals"),
        Values::Float(vec![1.5, -2.25, 1e30])
    );
    assert_eq!(
        att(&f, Some("d"), "dvals"),
        Values::Double(vec![std::f64::consts::PI, -1e-300])
    );
    assert_eq!(
        att(&f, Some("scalar"), "note"),
        Values::Char(b"a scalar".to_vec())
    );
    // Typed and strided reads.
    let fv = f.variable("f").unwrap();
    let col: Vec<f64> = fv.get_values([0..3usize, 1..2]).unwrap();
    assert_eq!(col, vec![2.0, f64::from(FF), 0.25]);
    let s = f.variable("s").unwrap();
    let st: Vec<i16> = s
        .get_values(vec![
            purecdf::Extent::from((0..3usize).step_by(2)),
            purecdf::Extent::from((1..4usize).step_by(2)),
        ])
        .unwrap();
    assert_eq!(st, vec![2, 4, 32767, -1]);
    let one: i32 = f.variable("i").unwrap().get_value([3]).unwrap();
    assert_eq!(one, 17);
    let _ = FB;
}

#[test]
fn cdf2_single_record_variable_is_packed() {
    let f = purecdf::open(fixture("cdf2_onerec.nc")).unwrap();
    assert_eq!(f.format(), Format::Offset64);
    assert_eq!(f.dimension("rec").unwrap().len, 5);
    assert_eq!(
        raw(&f, "r"),
        Values::Short(vec![1, 2, 3, 4, 5, 6, 99, 99, 99, -7, -8, -9, 10, 99, 12])
    );
    let r = f.variable("r").unwrap();
    let last: Vec<i16> = r.get_values([3..5usize, 0..3]).unwrap();
    assert_eq!(last, vec![-7, -8, -9, 10, 99, 12]);
    let strided: Vec<i16> = r
        .get_values(vec![
            purecdf::Extent::from((0..5usize).step_by(2)),
            purecdf::Extent::from((0..3usize).step_by(2)),
        ])
        .unwrap();
    assert_eq!(strided, vec![1, 3, 99, 99, 10, 12]);
    assert_eq!(raw(&f, "fixed"), Values::Byte(vec![1, 2, 3]));
    assert_eq!(raw(&f, "name"), Values::Char(b"abc".to_vec()));
}

#[test]
fn cdf5_unsigned_and_64_bit() {
    let f = purecdf::open(fixture("cdf5_all.nc")).unwrap();
    assert_eq!(f.format(), Format::Cdf5);
    assert_eq!(f.variable("big").unwrap().nc_type(), NcType::Int64);
    assert_eq!(raw(&f, "ub"), Values::UByte(vec![0, 7, 255]));
    assert_eq!(
        raw(&f, "us"),
        Values::UShort(vec![1, 65535, 0, 65535, 3, 4])
    );
    assert_eq!(raw(&f, "ui"), Values::UInt(vec![u32::MAX, 0, 1]));
    assert_eq!(raw(&f, "big"), Values::Int64(vec![-i64::MAX, i64::MAX]));
    assert_eq!(
        raw(&f, "ubig"),
        Values::UInt64(vec![u64::MAX, 0, u64::MAX - 1])
    );
    assert_eq!(raw(&f, "b"), Values::Byte(vec![-1, -2, -3, 4, 5, -127]));
    assert_eq!(raw(&f, "f"), Values::Float(vec![2.5]));
    assert_eq!(att(&f, None, "gub"), Values::UByte(vec![255, 0]));
    assert_eq!(att(&f, None, "gus"), Values::UShort(vec![65535]));
    assert_eq!(att(&f, None, "gu"), Values::UInt(vec![4_000_000_000]));
    assert_eq!(att(&f, None, "gi64"), Values::Int64(vec![-1]));
    assert_eq!(att(&f, None, "gu64"), Values::UInt64(vec![1, 2]));
    assert_eq!(
        att(&f, None, "text"),
        Values::Char(b"CDF-5 \"types\"".to_vec())
    );
    assert_eq!(att(&f, Some("ub"), "_FillValue"), Values::UByte(vec![7]));
    assert_eq!(
        att(&f, Some("big"), "vals"),
        Values::Int64(vec![-i64::MAX, i64::MAX])
    );
    assert_eq!(
        att(&f, Some("ubig"), "vals"),
        Values::UInt64(vec![u64::MAX])
    );
}

#[test]
fn zero_records() {
    let f = purecdf::open(fixture("cdf1_empty_rec.nc")).unwrap();
    assert_eq!(f.dimension("time").unwrap().len, 0);
    assert_eq!(raw(&f, "time"), Values::Double(vec![]));
    assert_eq!(raw(&f, "temp"), Values::Float(vec![]));
    assert_eq!(raw(&f, "lat"), Values::Float(vec![-45.0, 45.0]));
    assert_eq!(
        f.variable("temp")
            .unwrap()
            .get_values::<f32, _>([0..1usize, 0..2])
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidCoords
    );
}

#[test]
fn open_mem_matches_open() {
    let bytes = std::fs::read(fixture("cdf1_all.nc")).unwrap();
    let m = purecdf::open_bytes(bytes).unwrap();
    let f = purecdf::open(fixture("cdf1_all.nc")).unwrap();
    assert_eq!(m.schema(), f.schema());
    for v in f.variables() {
        assert_eq!(raw(&m, v.name_str()), raw(&f, v.name_str()));
    }
}

#[test]
fn concurrent_reads_from_two_threads() {
    let f = purecdf::open(fixture("cdf1_all.nc")).unwrap();
    let expect = raw(&f, "f");
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| {
                for _ in 0..200 {
                    assert_eq!(raw(&f, "f"), expect);
                    assert_eq!(raw(&f, "b"), Values::Byte(vec![-128, 0, 1, 127]));
                }
            });
        }
    });
}

#[test]
fn streaming_numrecs_is_computed_from_the_file_size() {
    let mut img = std::fs::read(fixture("cdf1_all.nc")).unwrap();
    img[4..8].copy_from_slice(&[0xFF; 4]);
    let f = purecdf::open_bytes(img.clone()).unwrap();
    assert_eq!(f.dimension("time").unwrap().len, 3);
    assert_eq!(raw(&f, "d"), Values::Double(vec![1.1, FD, -3.3e200]));
    // A partial last record does not count.
    img.truncate(img.len() - 1);
    let f = purecdf::open_bytes(img).unwrap();
    assert_eq!(f.dimension("time").unwrap().len, 2);
}

#[test]
fn data_past_the_end_of_a_short_file_reads_as_zeros() {
    // As netcdf-c: a file cut inside its data (say, written in no-fill mode and never closed)
    // opens, and the missing bytes read as zeros.
    let img = std::fs::read(fixture("cdf1_all.nc")).unwrap();
    let f = purecdf::open_bytes(img[..img.len() - 8].to_vec()).unwrap();
    assert_eq!(raw(&f, "scalar"), Values::Int(vec![123]));
    let d: Vec<f64> = f.variable("d").unwrap().get_values(..).unwrap();
    assert_eq!(d[0], 1.1);
}
