//! What georust `netcdf` 0.12's handles return, written only against its names: names as
//! `String`, the `Dimension` that `add_dimension` returns and its `identifier`, the attribute
//! `add_attribute` returns, `GroupMut`'s read methods, typed reads into buffers (numbers and
//! derived compounds), fill values of a derived type, raw reads into a buffer, `ndarray::s!`
//! selections. Files written here are checked with netcdf-c's `ncdump` against the same content
//! made by `ncgen`.

use georust_compat_tests::{ncdump, same_as_ncgen};
use netcdf::types::{IntType, NcTypeDescriptor, NcVariableType};

#[repr(C)]
#[derive(netcdf::NcType, Debug, Clone, Copy, PartialEq, Default)]
#[netcdf(rename = "wind_t")]
struct Wind {
    speed: f32,
    dir: i16,
    gust: i16,
}

#[test]
fn names_are_strings() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("names.nc");
    let mut file = netcdf::create(&path)?;
    file.add_dimension("x", 2)?;
    file.add_variable::<i32>("v", &["x"])?;
    file.add_attribute("title", "t")?;
    let mut g = file.add_group("grp")?;
    let gname: String = g.name();
    assert_eq!(gname, "grp");
    g.add_dimension("y", 1)?;
    let mut w = g.add_variable::<u8>("w", &["y"])?;
    let wname: String = w.name();
    assert_eq!(wname, "w");
    let dims: Vec<String> = w.dimensions().iter().map(|d| d.name()).collect();
    assert_eq!(dims, ["y"]);
    w.put_values(&[1_u8], ..)?;
    file.close()?;

    let file = netcdf::open(&path)?;
    let var = file.variable("v").unwrap();
    // `String`s, as georust returns them: owned, so they outlive the handle.
    let name: String = var.name();
    assert_eq!(name, "v");
    let dim_names: Vec<String> = var.dimensions().iter().map(|d| d.name()).collect();
    assert_eq!(dim_names, ["x"]);
    let root: String = file.root().unwrap().name();
    assert_eq!(root, "/");
    let groups: Vec<String> = file.groups()?.map(|g| g.name()).collect();
    assert_eq!(groups, ["grp"]);
    let d: String = file.dimension("x").unwrap().name();
    assert_eq!(d, "x");
    // As in georust, an attribute is a handle whose name is a `&str`.
    let att: netcdf::Attribute = file.attribute("title").unwrap();
    let name: &str = att.name();
    assert_eq!(name, "title");
    assert_eq!(file.path()?, path);
    file.close()?;
    Ok(())
}

#[test]
fn add_dimension_returns_the_dimension() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("dims.nc");
    let mut file = netcdf::create(&path)?;
    let x = file.add_dimension("x", 3)?;
    assert_eq!(
        (x.name(), x.len(), x.is_unlimited()),
        ("x".to_string(), 3, false)
    );
    let t = file.add_unlimited_dimension("t")?;
    assert_eq!(
        (t.name(), t.len(), t.is_unlimited()),
        ("t".to_string(), 0, true)
    );
    // Length 0 asks for an unlimited dimension, as in netcdf-c.
    let u = file.add_dimension("u", 0)?;
    assert!(u.is_unlimited());
    let mut g = file.add_group("g")?;
    let y = g.add_dimension("y", 2)?;
    assert_eq!((y.name(), y.len()), ("y".to_string(), 2));
    let s = g.add_unlimited_dimension("s")?;
    assert!(s.is_unlimited());
    file.add_variable::<i16>("v", &["t", "x"])?
        .put_values(&[1_i16, 2, 3, 4, 5, 6], (..2, ..))?;
    let t = file.dimension("t").unwrap();
    assert_eq!((t.len(), t.is_unlimited()), (2, true));
    file.close()?;

    let cdl = "netcdf dims {\ndimensions:\n\tx = 3 ;\n\tt = UNLIMITED ; // (2 currently)\n\tu = UNLIMITED ; // (0 currently)\nvariables:\n\tshort v(t, x) ;\ndata:\n\n v =\n  1, 2, 3,\n  4, 5, 6 ;\n\ngroup: g {\n  dimensions:\n  \ty = 2 ;\n  \ts = UNLIMITED ; // (0 currently)\n  } // group g\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn variables_from_dimension_identifiers() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("ids.nc");
    let mut file = netcdf::create(&path)?;
    let root_x = file.add_dimension("x", 4)?.identifier();
    let mut g = file.add_group("g")?;
    let g_x = g.add_dimension("x", 2)?.identifier();
    let mut gg = g.add_group("h")?;
    let gg_x = gg.add_dimension("x", 1)?.identifier();
    // The same name in three groups: identifiers say which one.
    gg.add_variable_from_identifiers::<i8>("all", &[root_x, g_x, gg_x])?
        .put_values(&[1_i8, 2, 3, 4, 5, 6, 7, 8], ..)?;
    let mut g = file.group_mut("g")?.unwrap();
    g.add_variable_from_identifiers::<u16>("outer", &[root_x])?
        .put_values(&[9_u16, 8, 7, 6], ..)?;
    file.add_variable_from_identifiers_with_type(
        "scalar",
        &[],
        &NcVariableType::Int(IntType::I32),
    )?;

    // A dimension of another dataset is refused.
    let mut other = netcdf::create(dir.path().join("other.nc"))?;
    let foreign = other.add_dimension("x", 4)?.identifier();
    assert!(file
        .add_variable_from_identifiers::<u8>("bad", &[foreign])
        .is_err());
    assert!(file.variable("bad").is_none());
    file.close()?;

    let file = netcdf::open(&path)?;
    let all = file.variable("/g/h/all").unwrap();
    let lens: Vec<usize> = all.dimensions().iter().map(|d| d.len()).collect();
    assert_eq!(lens, [4, 2, 1]);

    let cdl = "netcdf ids {\ndimensions:\n\tx = 4 ;\nvariables:\n\tint scalar ;\ndata:\n\n scalar = _ ;\n\ngroup: g {\n  dimensions:\n  \tx = 2 ;\n  variables:\n  \tushort outer(/x) ;\n  data:\n\n   outer = 9, 8, 7, 6 ;\n\n  group: h {\n    dimensions:\n    \tx = 1 ;\n    variables:\n    \tbyte all(/x, /g/x, x) ;\n    data:\n\n     all =\n  1,\n  2,\n  3,\n  4,\n  5,\n  6,\n  7,\n  8 ;\n    } // group h\n  } // group g\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn attributes_come_back_from_adding() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("atts.nc");
    let mut file = netcdf::create(&path)?;
    let a = file.add_attribute("title", "wind")?;
    assert_eq!(a.name(), "title");
    assert_eq!(a.value()?, netcdf::AttributeValue::Str("wind".into()));
    file.add_dimension("x", 2)?;
    let mut v = file.add_variable::<f32>("v", &["x"])?;
    let a = v.put_attribute("valid_range", vec![0.0_f32, 50.0])?;
    assert_eq!(a.name(), "valid_range");
    assert_eq!(a.value()?, netcdf::AttributeValue::Floats(vec![0.0, 50.0]));
    v.put_values(&[1.5_f32, 2.5], ..)?;
    let mut g = file.add_group("g")?;
    let a = g.add_attribute("level", 3_i16)?;
    assert_eq!(a.value()?, netcdf::AttributeValue::Short(3));
    file.close()?;

    let cdl = "netcdf atts {\ndimensions:\n\tx = 2 ;\nvariables:\n\tfloat v(x) ;\n\t\tv:valid_range = 0.f, 50.f ;\n\n// global attributes:\n\t\t:title = \"wind\" ;\ndata:\n\n v = 1.5, 2.5 ;\n\ngroup: g {\n\n  // group attributes:\n  \t\t:level = 3s ;\n  } // group g\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn group_mut_reads_like_a_group() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let mut file = netcdf::create(dir.path().join("gm.nc"))?;
    // A type of the root group's name is defined again in the group asked.
    file.add_type::<Wind>()?;
    let mut g = file.add_group("g")?;
    g.add_dimension("d", 3)?;
    g.add_attribute("a", 1_i32)?;
    g.add_variable::<u8>("v", &["d"])?;
    g.add_variable::<u8>("w", &[])?;
    g.add_group("child")?;
    g.add_type::<Wind>()?;
    let names: Vec<String> = g.variables().map(|v| v.name()).collect();
    assert_eq!(names, ["v", "w"]);
    let dims: Vec<(String, usize)> = g.dimensions().map(|d| (d.name(), d.len())).collect();
    assert_eq!(dims, [("d".to_string(), 3)]);
    let atts: Vec<String> = g.attributes().map(|a| a.name().to_owned()).collect();
    assert_eq!(atts, ["a"]);
    let a: i32 = g.attribute_value("a").unwrap()?.try_into()?;
    assert_eq!(a, 1);
    let groups: Vec<String> = g.groups().map(|g| g.name()).collect();
    assert_eq!(groups, ["child"]);
    let types: Vec<NcVariableType> = g.types().collect();
    assert_eq!(types, [Wind::type_descriptor()]);
    let types: Vec<NcVariableType> = file.types()?.collect();
    assert_eq!(types, [Wind::type_descriptor()]);
    // A missing group is `None`, a missing group on the way an error.
    assert!(file.group("g/none")?.is_none());
    assert!(file.group("none/g").is_err());
    assert!(file.group_mut("none/g").is_err());
    Ok(())
}

#[test]
fn typed_reads_into_buffers_and_compound_fill_values() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("wind.nc");
    let fill = Wind {
        speed: -1.0,
        dir: -1,
        gust: -1,
    };
    let data = [
        Wind {
            speed: 3.5,
            dir: 270,
            gust: 9,
        },
        Wind {
            speed: 0.25,
            dir: 90,
            gust: 1,
        },
    ];
    {
        let mut file = netcdf::create(&path)?;
        file.add_dimension("x", 3)?;
        file.add_dimension("y", 2)?;
        let mut v = file.add_variable::<Wind>("wind", &["x"])?;
        v.set_fill_value(fill)?;
        assert_eq!(v.fill_value::<Wind>()?, Some(fill));
        v.put_values(&data, ..2)?;
        // Reads through the handle that writes, into a buffer and into an array.
        let mut buf = [Wind::default(); 3];
        v.get_values_into(&mut buf, ..)?;
        assert_eq!(buf, [data[0], data[1], fill]);
        let mut arr = ndarray::Array1::<Wind>::default(2);
        v.get_into(arr.view_mut(), 1..)?;
        assert_eq!(arr.as_slice().unwrap(), [data[1], fill]);

        let mut n = file.add_variable::<i32>("n", &["x", "y"])?;
        n.set_fill_value(-9_i32)?;
        n.put_values(&[1, 2, 3, 4], (..2, ..))?;
        let mut buf = [0_i32; 6];
        n.get_values_into(&mut buf, ..)?;
        assert_eq!(buf, [1, 2, 3, 4, -9, -9]);
        // The fill value in another type is refused.
        assert!(n.fill_value::<f32>().is_err());
        assert!(n.set_fill_value(0.5_f64).is_err());
        file.close()?;
    }
    let file = netcdf::open(&path)?;
    let v = file.variable("wind").unwrap();
    assert_eq!(v.fill_value::<Wind>()?, Some(fill));
    let mut buf = [Wind::default(); 2];
    v.get_values_into(&mut buf, 1..)?;
    assert_eq!(buf, [data[1], fill]);
    let mut arr = ndarray::Array2::<i32>::zeros((1, 2));
    file.variable("n")
        .unwrap()
        .get_into(arr.view_mut(), (1..2, ..))?;
    assert_eq!(arr, ndarray::arr2(&[[3, 4]]));
    assert_eq!(file.variable("n").unwrap().fill_value::<i32>()?, Some(-9));

    let cdl = "netcdf wind {\ntypes:\n  compound wind_t {\n    float speed ;\n    short dir ;\n    short gust ;\n  }; // wind_t\ndimensions:\n\tx = 3 ;\n\ty = 2 ;\nvariables:\n\twind_t wind(x) ;\n\t\twind_t wind:_FillValue = {-1, -1, -1} ;\n\tint n(x, y) ;\n\t\tn:_FillValue = -9 ;\ndata:\n\n wind = {3.5, 270, 9}, {0.25, 90, 1}, _ ;\n\n n =\n  1, 2,\n  3, 4,\n  _, _ ;\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn raw_reads_slices_and_errors() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("raw.nc");
    {
        let mut file = netcdf::create_with(&path, netcdf::Options::NETCDF4)?;
        file.add_dimension("a", 2)?;
        file.add_dimension("b", 3)?;
        let mut v = file.add_variable::<i16>("v", &["a", "b"])?;
        v.set_endianness(netcdf::Endianness::Big)?;
        // An ndarray selection, as georust takes it.
        let arr = ndarray::arr2(&[[1_i16, 2], [4, 5]]);
        v.put(arr.view(), ndarray::s![.., 0..2])?;
        v.put_values(&[3_i16, 6], ndarray::s![.., 2])?;
        file.close()?;
    }
    let file = netcdf::open(&path)?;
    let v = file.variable("v").unwrap();
    let mut raw = vec![0_u8; 6];
    v.get_raw_values_into(&mut raw, (1, ..))?;
    let back: Vec<i16> = raw
        .chunks_exact(2)
        .map(|b| i16::from_ne_bytes([b[0], b[1]]))
        .collect();
    assert_eq!(back, [4, 5, 6]);
    // A buffer of the wrong size is refused.
    assert!(v.get_raw_values_into(&mut raw[..5], (1, ..)).is_err());
    let col = v.get::<i16, _>(ndarray::s![.., 1])?;
    assert_eq!(col, ndarray::arr1(&[2, 5]).into_dyn());
    assert!(v.get::<i16, _>(ndarray::s![.., ..;-1]).is_err());
    file.close()?;

    let err: netcdf::Error = "a message".into();
    assert!(err.to_string().contains("a message"));
    let err: netcdf::Error = String::from("another").into();
    assert!(err.to_string().contains("another"));

    if let Some(text) = ncdump(&["-s", "-v", "v"], &path) {
        assert!(text.contains("v:_Endianness = \"big\" ;"), "{text}");
        assert!(text.contains(" v =\n  1, 2, 3,\n  4, 5, 6 ;"), "{text}");
    }
    Ok(())
}

#[test]
fn groups_mut_in_turn() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("gs.nc");
    {
        let mut file = netcdf::create(&path)?;
        file.add_dimension("x", 2)?;
        file.add_group("a")?.add_group("inner")?;
        file.add_group("b")?;
        let groups = file.groups_mut()?;
        assert_eq!(groups.len(), 2);
        let mut n = 0_i32;
        for mut g in groups {
            n += 1;
            g.add_attribute("n", n)?;
            g.add_variable::<i32>("v", &["x"])?
                .put_values(&[n, -n], ..)?;
            for mut h in g.groups_mut() {
                h.add_attribute("name", h.name().as_str())?;
            }
        }
        file.close()?;
    }
    let cdl = "netcdf gs {\ndimensions:\n\tx = 2 ;\n\ngroup: a {\n  variables:\n  \tint v(x) ;\n\n  // group attributes:\n  \t\t:n = 1 ;\n  data:\n\n   v = 1, -1 ;\n\n  group: inner {\n\n    // group attributes:\n    \t\t:name = \"inner\" ;\n    } // group inner\n  } // group a\n\ngroup: b {\n  variables:\n  \tint v(x) ;\n\n  // group attributes:\n  \t\t:n = 2 ;\n  data:\n\n   v = 2, -2 ;\n  } // group b\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn names_as_paths_below_the_group() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("paths.nc");
    {
        let mut file = netcdf::create(&path)?;
        // Groups on the way are made; other adders need them there.
        file.add_group("a/b")?;
        let d = file.add_dimension("a/b/d", 2)?;
        assert_eq!((d.name(), d.len()), ("d".to_string(), 2));
        assert!(file.add_dimension("a/c/d", 1).is_err());
        // Dimensions are found from the group the variable goes in.
        file.add_variable::<f64>("a/b/v", &["d"])?
            .put_values(&[0.5, 1.5], ..)?;
        assert!(file.add_variable::<f64>("a/c/v", &["d"]).is_err());
        let a = file.add_attribute("a/b/note", "here")?;
        assert_eq!(a.name(), "note");
        assert!(file.add_attribute("a/c/note", "x").is_err());
        let mut a = file.group_mut("a")?.unwrap();
        a.add_unlimited_dimension("b/t")?;
        a.add_string_variable("b/s", &["t"])?.put_string("x", 0)?;
        file.close()?;
    }
    let file = netcdf::open(&path)?;
    assert_eq!(file.variable("a/b/v").unwrap().name(), "v");
    let v: Vec<f64> = file.variable("a/b/v").unwrap().get_values(..)?;
    assert_eq!(v, [0.5, 1.5]);
    assert_eq!(file.dimension("a/b/d").unwrap().len(), 2);
    let note: String = file.attribute("a/b/note").unwrap().value()?.try_into()?;
    assert_eq!(note, "here");
    assert_eq!(
        file.root().unwrap().group("a/b").unwrap().name(),
        file.group("a/b")?.unwrap().name()
    );

    let cdl = "netcdf paths {\n\ngroup: a {\n\n  group: b {\n    dimensions:\n    \td = 2 ;\n    \tt = UNLIMITED ; // (1 currently)\n    variables:\n    \tdouble v(d) ;\n    \tstring s(t) ;\n\n    // group attributes:\n    \t\t:note = \"here\" ;\n    data:\n\n     v = 0.5, 1.5 ;\n\n     s = \"x\" ;\n    } // group b\n  } // group a\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn open_mem_borrows_a_buffer() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("mem.nc");
    let cdl = "netcdf mem {\ndimensions:\n\tx = 3 ;\nvariables:\n\tint v(x) ;\n\t\tv:units = \"m\" ;\ndata:\n\n v = 4, 5, 6 ;\n}\n";
    if georust_compat_tests::ncgen(cdl, "nc4", &path).is_none() {
        return Ok(());
    }
    let bytes = std::fs::read(&path)?;
    let file: netcdf::FileMem<'_> = netcdf::open_mem(Some("in memory"), &bytes)?;
    assert_eq!(file.path()?, std::path::PathBuf::from("in memory"));
    let v = file.variable("v").unwrap();
    assert_eq!(v.get_values::<i32, _>(..)?, [4, 5, 6]);
    let units: String = v.attribute_value("units").unwrap()?.try_into()?;
    assert_eq!(units, "m");
    let anonymous = netcdf::open_mem(None, &bytes)?;
    assert_eq!(anonymous.variables().count(), 1);
    assert!(netcdf::open_mem(None, &bytes[..10]).is_err());
    Ok(())
}
