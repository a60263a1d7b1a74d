//! Reading netCDF-4 files through our own HDF5 layer (fixtures in tests/data/netcdf4, README.md).

use purecdf::{Format, NcType, Value, Values};

fn path(name: &str) -> String {
    format!("{}/tests/data/netcdf4/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn small_file_values_and_formats() {
    let f = purecdf::open(path("nc4_small.nc")).unwrap();
    assert_eq!(f.format(), Format::Netcdf4);
    let dims: Vec<(String, u64, bool)> = f
        .dimensions()
        .map(|d| (d.name.clone(), d.len, d.unlimited))
        .collect();
    assert_eq!(
        dims,
        [("x".to_string(), 3, false), ("t".to_string(), 2, true)]
    );
    let v = f.variable("v").unwrap();
    assert_eq!(v.get_values::<i32, _>(..).unwrap(), [1, 2, 3]);
    assert_eq!(
        v.attribute("units").unwrap().values,
        Values::Char(b"m".to_vec())
    );
    let r = f.variable("r").unwrap();
    assert_eq!(r.shape(), [2, 3]);
    assert_eq!(
        r.get_values::<f64, _>(..).unwrap(),
        [1.5, 2.5, 3.5, 4.5, 5.5, 6.5]
    );
    assert_eq!(
        r.get_values::<f32, _>([1..2usize, 0..3]).unwrap(),
        [4.5, 5.5, 6.5]
    );
    // Hidden bookkeeping attributes are not variable attributes.
    assert!(v.attribute("DIMENSION_LIST").is_none() && v.attribute("_Netcdf4Dimid").is_none());
    assert_eq!(
        purecdf::open(path("nc7_small.nc")).unwrap().format(),
        Format::Netcdf4Classic
    );
}

#[test]
fn strings_user_types_and_groups() {
    let f = purecdf::open(path("types.nc")).unwrap();
    let s = f.schema();
    let names: Vec<&str> = s
        .group(purecdf::model::ROOT)
        .types
        .iter()
        .map(|t| s.user_type(*t).name.as_str())
        .collect();
    assert_eq!(names, ["color_t", "obs_t", "row_t", "raw_t"]);
    let sv = f.variable("s").unwrap();
    assert_eq!(sv.nc_type(), NcType::String);
    assert_eq!(
        sv.get_typed_values(..).unwrap(),
        Values::String(vec![Some("hello".into()), Some("wörld".into())])
    );
    let Values::User(_, c) = f.variable("c").unwrap().get_typed_values(..).unwrap() else {
        panic!()
    };
    assert_eq!(c, [Value::Enum(0), Value::Enum(2)]);
    let Values::User(_, o) = f.variable("o").unwrap().get_typed_values(..).unwrap() else {
        panic!()
    };
    assert_eq!(
        o[1],
        Value::Compound(vec![
            Value::Int(2),
            Value::Array(vec![Value::Float(2.5), Value::Float(3.5)])
        ])
    );
    let Values::User(_, r) = f.variable("r").unwrap().get_typed_values(..).unwrap() else {
        panic!()
    };
    assert_eq!(
        r,
        [
            Value::Vlen(vec![Value::Int(1), Value::Int(2), Value::Int(3)]),
            Value::Vlen(vec![])
        ]
    );
    let Values::User(_, q) = f.variable("q").unwrap().get_typed_values(..).unwrap() else {
        panic!()
    };
    assert_eq!(q, [Value::Opaque(vec![0xab, 0xcd, 0xef])]);
    assert_eq!(
        f.variable("big").unwrap().get_values::<u64, _>(..).unwrap(),
        [u64::MAX, 0]
    );
    assert_eq!(
        f.attribute("gs").unwrap().values,
        Values::String(vec![Some("a".into()), Some("bc".into())])
    );
    let v = f.variable("/sub/v").unwrap();
    assert_eq!(v.get_values::<i32, _>([1..2usize, 1..3]).unwrap(), [5, 6]);
}

#[test]
fn corrupt_netcdf4_never_panics() {
    let good = std::fs::read(path("nc4_small.nc")).unwrap();
    let check = |bytes: Vec<u8>| {
        if let Ok(f) = purecdf::open_bytes(bytes) {
            for v in f.variables() {
                let _ = v.get_typed_values(..);
            }
        }
    };
    for n in (0..good.len()).step_by(13) {
        check(good[..n].to_vec());
    }
    for i in (0..good.len()).step_by(3) {
        let mut bad = good.clone();
        bad[i] ^= 0x5a;
        check(bad);
    }
}

/// A plain HDF5 file from h5py (no dimension scales): phony dimensions numbered children-first,
/// datasets of types netCDF cannot represent left out (as netcdf-c does), fixed-length strings as
/// NC_STRING. (netcdf-c 4.9.0 prints the second fixed-length string as NIL; we read what is stored.)
#[test]
fn plain_hdf5_from_h5py() {
    let f = purecdf::open(path("plain_dtypes.h5")).unwrap();
    assert_eq!(f.format(), Format::Netcdf4);
    assert!(f.variable("boolean").is_none() && f.variable("comp").is_none());
    let names: Vec<String> = f.dimensions().map(|d| d.name.clone()).collect();
    assert_eq!(names, ["phony_dim_3", "phony_dim_4"]);
    let be = f.variable("v_bei4").unwrap();
    assert_eq!(be.nc_type(), NcType::Int);
    assert_eq!(be.get_values::<i32, _>(..).unwrap(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(
        f.variable("v_u8")
            .unwrap()
            .get_values::<u64, _>(..)
            .unwrap(),
        [0, 1, 2, 3, 4, 5]
    );
    let s = f.variable("fixstr").unwrap();
    assert_eq!(s.nc_type(), NcType::String);
    assert_eq!(
        s.get_typed_values(..).unwrap(),
        Values::String(vec![Some("ab".into()), Some("cde".into())])
    );
    assert_eq!(
        f.variable("scalar")
            .unwrap()
            .get_value::<f64, _>(())
            .unwrap(),
        3.5
    );
    assert_eq!(
        f.attribute("nums").unwrap().values,
        Values::Short(vec![1, 2, 3])
    );
    let r = f.variable("/grp/resizable").unwrap();
    assert!(r.dimensions()[0].unlimited);
    assert_eq!(
        r.get_values::<i64, _>([1..3usize, 0..2]).unwrap(),
        [2, 3, 4, 5]
    );
}

/// n-bit data (purecdf-hdf5's fixture): a 12-bit integer stored in 4 bytes is an NC_SHORT as
/// netcdf-c makes it (HDF5's native type for the precision), a custom 20-bit float an NC_FLOAT,
/// with the values HDF5 converts them to.
#[test]
fn reduced_precision_types_from_nbit_data() {
    let f = purecdf::open(format!(
        "{}/../purecdf-hdf5/tests/data/h5py_nbit.h5",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let v = f.variable("i32be_p12_o4").unwrap();
    assert_eq!(v.nc_type(), NcType::Short);
    let want: Vec<i16> = (0..40).map(|i| (i * 37 % 2000 - 1000) as i16).collect();
    assert_eq!(v.get_values::<i16, _>(..).unwrap(), want);
    assert_eq!(f.variable("i8_p5_o1").unwrap().nc_type(), NcType::Byte);
    let v = f.variable("u16be_p9_o3").unwrap();
    assert_eq!(v.nc_type(), NcType::UShort);
    assert_eq!(v.get_values::<u16, _>(..).unwrap()[2..4], [34, 51]);
    let v = f.variable("f32be_p20_o7").unwrap();
    assert_eq!(v.nc_type(), NcType::Float);
    assert_eq!(
        v.get_values::<f32, _>(..).unwrap()[..5],
        [0.0, 1.0, -1.5, 3.25, 100.5]
    );
    // A compound with a string member and a top-level array type have no netCDF equivalent.
    assert!(f.variable("compound").is_none() && f.variable("array_u32be").is_none());
}

/// Plain h5py files read as netcdf-c reads them (make_h5py_plain.py): a dataset whose committed
/// type comes later in the group's link order is left out; zero-length phony dimensions are
/// unlimited and not shared; a null-dataspace dataset is a scalar that cannot be read; an array of
/// fixed-length strings as an attribute is NC_STRING; references and bitfields are left out.
#[test]
fn plain_h5py_files_as_netcdf_c_reads_them() {
    let f = purecdf::open(path("h5py_type_order.h5")).unwrap();
    let names: Vec<String> = f.variables().map(|v| v.name().to_string()).collect();
    assert_eq!(names, ["comp_named", "zzz_inline", "zzz_inline_enum"]);
    assert!(f.variable("bbb").is_none() && f.variable("ccc").is_none());
    assert!(f.variable("/g/uses_parent_type").is_some());

    let f = purecdf::open(path("h5py_empty.h5")).unwrap();
    let dims: Vec<(String, bool)> = f
        .dimensions()
        .map(|d| (d.name.clone(), d.unlimited))
        .collect();
    assert_eq!(
        dims,
        [
            ("phony_dim_0".into(), false),
            ("phony_dim_1".into(), true),
            ("phony_dim_2".into(), true)
        ]
    );
    let null = f.variable("null_f4").unwrap();
    assert!(null.dimensions().is_empty());
    assert_eq!(
        null.get_values::<f32, _>(..).unwrap_err().kind(),
        purecdf::ErrorKind::Hdf
    );
    assert_eq!(
        f.variable("scalar")
            .unwrap()
            .get_values::<i32, _>(..)
            .unwrap(),
        [7]
    );

    let f = purecdf::open(path("h5py_fixed_strings.h5")).unwrap();
    assert_eq!(
        f.attribute("fixed_attr").unwrap().values,
        Values::String(vec![Some("one".into()), Some("two".into())])
    );
    assert_eq!(f.variable("s1").unwrap().nc_type(), NcType::Char);

    let f = purecdf::open(path("h5py_refs.h5")).unwrap();
    let names: Vec<String> = f.variables().map(|v| v.name().to_string()).collect();
    assert_eq!(names, ["a"]);
    assert!(f.variable("a").unwrap().attribute("self").is_none());
    let f = purecdf::open(path("h5py_bitfield.h5")).unwrap();
    let names: Vec<String> = f.variables().map(|v| v.name().to_string()).collect();
    assert_eq!(names, ["plain"]);
}

/// Byte flips over files using n-bit, scale-offset and shared object header messages (fixtures of
/// purecdf-hdf5) and plain h5py files with named types and empty dataspaces: opening and reading
/// every variable never panics.
#[test]
fn corrupt_filtered_and_shared_message_files_never_panic() {
    for (name, step) in [
        ("../purecdf-hdf5/tests/data/h5py_nbit.h5", 17),
        ("../purecdf-hdf5/tests/data/h5py_scaleoffset.h5", 53),
        ("../purecdf-hdf5/tests/data/h5c_sohm_btree.h5", 13),
        ("tests/data/netcdf4/h5py_type_order.h5", 7),
        ("tests/data/netcdf4/h5py_empty.h5", 5),
    ] {
        let p = format!("{}/{name}", env!("CARGO_MANIFEST_DIR"));
        let good = std::fs::read(p).unwrap();
        for i in (0..good.len()).step_by(step) {
            let mut bad = good.clone();
            bad[i] ^= 0xa5;
            if let Ok(f) = purecdf::open_bytes(bad) {
                for v in f.variables() {
                    // A flipped dimension can declare a valid but huge, unwritten variable:
                    // reading it whole would fill gigabytes with the fill value.
                    if v.len() <= 1 << 20 {
                        let _ = v.get_typed_values(..);
                    }
                }
            }
        }
    }
}

/// Links as netcdf-c follows them (make_h5py_plain.py): soft links (absolute, relative, chained,
/// through a soft-linked group) and second hard links show their object again under the link's
/// name, in old- and new-style groups; an external link to a missing file makes the open fail;
/// 2-byte floats are NC_FLOAT.
#[test]
fn links_and_half_floats() {
    for name in ["h5py_links.h5", "h5py_links_v2.h5"] {
        let f = purecdf::open(path(name)).unwrap();
        for v in ["/x", "/hard2", "/soft", "/chain"] {
            assert_eq!(
                f.variable(v).unwrap().get_values::<i32, _>(..).unwrap(),
                [0, 1, 2],
                "{name} {v}"
            );
        }
        for v in ["/g/v", "/g/rel", "/g_again/v", "/sg/rel", "/deep"] {
            assert_eq!(
                f.variable(v).unwrap().get_values::<f32, _>(..).unwrap(),
                [0.0, 1.0],
                "{name} {v}"
            );
        }
    }
    assert_eq!(
        purecdf::open(path("h5py_external_link.h5"))
            .unwrap_err()
            .kind(),
        purecdf::ErrorKind::Hdf
    );
    let f = purecdf::open(path("h5py_half.h5")).unwrap();
    let v = f.variable("f2be").unwrap();
    assert_eq!(v.nc_type(), NcType::Float);
    assert_eq!(v.get_values::<f32, _>(..).unwrap()[..3], [0.5, -1.25, 3.0]);
    assert_eq!(
        f.attribute("ha").unwrap().values,
        Values::Float(vec![1.5, 2.5])
    );
}

/// A numeric attribute of more than one dimension: netcdf-c cannot read that object's attributes,
/// so they are absent (ncdump stops there, as the reference comparison checks); string attributes
/// of any shape are flattened NC_STRING values.
#[test]
fn multi_dimensional_attributes() {
    let f = purecdf::open(path("h5py_att2d.h5")).unwrap();
    let b = f.variable("b").unwrap();
    assert!(b.attribute("ok").is_none() && b.attribute("m").is_none());
    let f = purecdf::open(path("h5py_att2d_group.h5")).unwrap();
    assert_eq!(
        f.attribute("vs2d").unwrap().values,
        Values::String(["x", "yy", "z", ""].map(|s| Some(s.to_string())).to_vec())
    );
    assert!(f.variable("/g/h/w").is_some());
}

/// A committed enum type with a big-endian base fails the open as in netcdf-c (NC_EHDFERR); used
/// inline it is only left out.
#[test]
fn big_endian_enum_types() {
    let e = purecdf::open(path("h5py_enum_be.h5")).unwrap_err();
    assert_eq!(e.kind(), purecdf::ErrorKind::Hdf);
    let f = purecdf::open(path("h5py_enum_be_inline.h5")).unwrap();
    let names: Vec<String> = f.variables().map(|v| v.name().to_string()).collect();
    assert_eq!(names, ["plain"]);
    assert!(f.attribute("ea").is_none());
}

/// The filter API: ids in pipeline order (Fletcher-32, shuffle, then deflate and the others in
/// definition order, as netcdf-c 4.9.0 builds libhdf5's pipeline), a redefinition keeps its
/// place, parameters by id, NC_ENOFILTER for an absent one; the same after reopening.
#[test]
fn filter_ids_parameters_and_order() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("f.nc");
    let opts = purecdf::CreateOptions {
        format: purecdf::Format::Netcdf4,
        ..Default::default()
    };
    let mut f = purecdf::create_with(&p, opts).unwrap();
    f.add_dimension("x", 64).unwrap();
    let v = f.add_variable::<f32>("v", &["x"]).unwrap().id();
    f.def_var_filter(v, 1, &[5]).unwrap();
    f.def_var_filter(v, 2, &[]).unwrap();
    f.def_var_filter(v, 3, &[]).unwrap();
    // Redefining deflate changes its level, not its place.
    f.def_var_filter(v, 1, &[7]).unwrap();
    let want = [3, 2, 1];
    {
        let var = f.variable("v").unwrap();
        assert_eq!(var.filter_ids(), want);
        assert_eq!(var.filter_params(1).unwrap(), [7]);
        assert_eq!(
            var.filter_params(307).unwrap_err().kind(),
            purecdf::ErrorKind::NoFilter
        );
    }
    let data: Vec<f32> = (0..64).map(|i| i as f32).collect();
    f.put_values(v, &data, ..).unwrap();
    f.close().unwrap();
    let f = purecdf::open(&p).unwrap();
    let var = f.variable("v").unwrap();
    assert_eq!(var.filter_ids(), want);
    assert_eq!(var.filter_params(1).unwrap(), [7]);
    assert_eq!(var.get_values::<f32, _>(..).unwrap(), data);
    assert!(purecdf::filter_available(1) && purecdf::filter_available(4));
    assert!(!purecdf::filter_available(65535) && !purecdf::filter_available(70000));
}

/// Plain HDF5 names and dimension scales as netcdf-c maps them (tests/data/netcdf4/wild).
#[test]
fn wild_names_and_dimension_scales() {
    use purecdf::model::{name_to_bytes, ROOT};
    let open = |n: &str| purecdf::open(path(&format!("wild/{n}.h5"))).unwrap();
    // Names that are not UTF-8 keep their bytes; the model's name rules refuse them.
    let f = open("wild_utf8_names");
    let s = f.schema();
    let names: Vec<Vec<u8>> = s
        .vars
        .iter()
        .map(|v| name_to_bytes(&v.name).into_owned())
        .collect();
    assert!(names.contains(&b"x\xe9y".to_vec()), "{names:?}");
    let g = s.group(ROOT).groups[0];
    assert_eq!(&*name_to_bytes(&s.group(g).name), b"g\xff\xfe");
    assert!(purecdf::model::normalize_name(&s.group(g).name).is_err());
    // Names netcdf-c accepts from HDF5 though its name rules would not.
    let f = open("wild_names_groups");
    let s = f.schema();
    let groups: Vec<&str> = s
        .group(ROOT)
        .groups
        .iter()
        .map(|&g| s.group(g).name.as_str())
        .collect();
    assert!(groups.contains(&"tab\tg") && groups.contains(&"sp ") && groups.contains(&"#h"));
    // The last scale attached to an axis names its dimension; hard links share a dataset.
    let f = open("wild_ds_links");
    let s = f.schema();
    let dim_names = |v: &str| -> Vec<String> {
        let id = s.find_var(ROOT, v).unwrap();
        s.var(id)
            .dims
            .iter()
            .map(|d| s.dim(*d).name.clone())
            .collect()
    };
    assert_eq!(dim_names("v"), ["b", "a"]);
    assert_eq!(dim_names("r"), ["h"]);
    // Datasets without scales reuse a dimension of equal length, named or phony.
    let f = open("wild_ds_samelen");
    let s = f.schema();
    let a = s.find_var(ROOT, "a").unwrap();
    assert_eq!(s.dim(s.var(a).dims[0]).name, "x");
    let b = s.find_var(ROOT, "b").unwrap();
    assert_eq!(s.dim(s.var(b).dims[0]).name, "t");
    // A scale in a sibling group: the variable still reads; asking for the dimension fails.
    let f = open("wild_ds_sibling");
    let s = f.schema();
    let g2 = s.find_group(ROOT, "g2").unwrap();
    let v = s.find_var(g2, "v").unwrap();
    assert_eq!(s.shape(v), [2, 3]);
    // Names longer than NC_MAX_NAME are cut to 256 bytes.
    let f = open("wild_long_var");
    assert!(f.schema().vars.iter().all(|v| v.name.len() <= 256));
    assert!(f.schema().vars.iter().any(|v| v.name == "c".repeat(256)));
}
