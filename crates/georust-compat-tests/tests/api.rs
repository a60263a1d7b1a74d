//! The rest of georust `netcdf` 0.12's API, written only against its names: files netcdf-c's
//! `ncgen` wrote are read, and files written here are checked with netcdf-c's `ncdump`
//! against the same content made by `ncgen`.

use georust_compat_tests::{ncgen, same_as_ncgen};
use netcdf::types::NcVariableType;
use netcdf::AttributeValue;

const GROUPS: &str = r#"netcdf groups {
dimensions:
	x = 4 ;
	y = 3 ;
variables:
	float grid(y, x) ;
		grid:units = "K" ;
		grid:valid_range = 0.f, 400.f ;
		grid:_FillValue = -1.f ;
	short packed(x) ;
		packed:scale_factor = 0.5 ;
	string names(y) ;
	char label(x) ;

// global attributes:
		:title = "groups test" ;
		:version = 3 ;
		:levels = 1s, 2s, 3s ;
		string :tags = "a", "b" ;
data:

 grid =
  0, 1, 2, 3,
  10, 11, 12, 13,
  20, 21, 22, 23 ;

 packed = 1, -2, 3, -4 ;

 names = "one", "two", "three" ;

 label = "abc" ;

group: sub {
  dimensions:
  	t = UNLIMITED ; // (2 currently)
  variables:
  	double series(t, x) ;
  	int scalar ;
  		scalar:note = "in a group" ;
  data:

   series =
    1, 2, 3, 4,
    5, 6, 7, 8 ;

   scalar = 7 ;

  group: deeper {
    // group attributes:
    		:depth = 2 ;
  } // group deeper
  } // group sub
}
"#;

fn groups_file(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let p = dir.join("groups.nc");
    ncgen(GROUPS, "nc4", &p)?;
    Some(p)
}

#[test]
fn reads_attributes_dimensions_and_groups() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let Some(p) = groups_file(dir.path()) else {
        return Ok(());
    };
    let file = netcdf::open(&p)?;

    // Hidden attributes are not listed (netcdf-c's nc_inq_natts leaves them out).
    let names: Vec<String> = file.attributes().map(|a| a.name().to_owned()).collect();
    assert_eq!(names, ["title", "version", "levels", "tags"]);
    assert!(file.attribute("_NCProperties").is_some());
    assert_eq!(
        file.attribute("title").unwrap().value()?,
        AttributeValue::Str("groups test".into())
    );
    let version: i32 = file.attribute_value("version").unwrap()?.try_into()?;
    assert_eq!(version, 3);
    let version: f64 = file.attribute("version").unwrap().value()?.try_into()?;
    assert_eq!(version, 3.0);
    assert_eq!(
        file.attribute("levels").unwrap().value()?,
        AttributeValue::Shorts(vec![1, 2, 3])
    );
    assert_eq!(
        file.attribute("tags").unwrap().value()?,
        AttributeValue::Strs(vec!["a".into(), "b".into()])
    );
    assert!(file.attribute("missing").is_none());

    let dims: Vec<(String, usize, bool)> = file
        .dimensions()
        .map(|d| (d.name().to_string(), d.len(), d.is_unlimited()))
        .collect();
    assert_eq!(dims, [("x".into(), 4, false), ("y".into(), 3, false)]);
    assert_eq!(file.dimension("y").unwrap().len(), 3);
    assert_eq!(file.dimension_len("x"), Some(4));

    let grid = file.variable("grid").unwrap();
    assert_eq!(grid.name(), "grid");
    assert_eq!(grid.len(), 12);
    let dnames: Vec<String> = grid
        .dimensions()
        .iter()
        .map(|d| d.name().to_string())
        .collect();
    assert_eq!(dnames, ["y", "x"]);
    assert_eq!(
        grid.attribute_value("valid_range").unwrap()?,
        AttributeValue::Floats(vec![0.0, 400.0])
    );
    assert_eq!(
        grid.vartype(),
        NcVariableType::Float(netcdf::types::FloatType::F32)
    );
    assert_eq!(
        file.variable("packed").unwrap().vartype(),
        NcVariableType::Int(netcdf::types::IntType::I16)
    );
    assert_eq!(
        file.variable("names").unwrap().vartype(),
        NcVariableType::String
    );
    assert_eq!(
        file.variable("label").unwrap().vartype(),
        NcVariableType::Char
    );
    assert_eq!(grid.fill_value::<f32>()?, Some(-1.0));
    assert!(grid.fill_value::<f64>().is_err());
    assert_eq!(grid.endianness()?, netcdf::Endianness::Little);
    assert_eq!(grid.chunking()?, None);
    let attrs: Vec<String> = grid.attributes().map(|a| a.name().to_owned()).collect();
    assert_eq!(attrs, ["units", "valid_range", "_FillValue"]);

    // Strings and chars.
    let names = file.variable("names").unwrap();
    assert_eq!(names.get_string(1)?, "two");
    assert_eq!(file.variable("label").unwrap().get_string(..)?, "abc");

    // Groups.
    let groups: Vec<String> = file.groups()?.map(|g| g.name().to_string()).collect();
    assert_eq!(groups, ["sub"]);
    let sub = file.group("sub")?.expect("group sub");
    let series = sub.variable("series").unwrap();
    assert_eq!(series.get_values::<f64, _>((1, ..))?, [5.0, 6.0, 7.0, 8.0]);
    assert_eq!(sub.variables().count(), 2);
    assert_eq!(sub.dimensions().map(|d| d.len()).collect::<Vec<_>>(), [2]);
    assert!(sub.dimension("t").unwrap().is_unlimited());
    let scalar = sub.variable("scalar").unwrap();
    assert_eq!(scalar.get_value::<i32, _>(())?, 7);
    let note: String = scalar.attribute_value("note").unwrap()?.try_into()?;
    assert_eq!(note, "in a group");
    let deeper = sub.group("deeper").unwrap();
    assert_eq!(
        deeper.attribute("depth").unwrap().value()?,
        AttributeValue::Int(2)
    );
    assert_eq!(sub.groups().count(), 1);
    assert!(file.group("sub/deeper")?.is_some());
    assert!(file.group("nope")?.is_none());
    let root = file.root().unwrap();
    assert_eq!(root.groups().count(), 1);
    assert_eq!(root.variable("grid").unwrap().len(), 12);
    Ok(())
}

#[test]
fn selections() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let Some(p) = groups_file(dir.path()) else {
        return Ok(());
    };
    let file = netcdf::open(&p)?;
    let grid = file.variable("grid").unwrap();
    let all: Vec<f32> = grid.get_values(..)?;
    assert_eq!(all.len(), 12);
    // Tuples of indices and ranges; an index drops its axis in ndarray reads.
    assert_eq!(grid.get_values::<f32, _>((0, 1..3))?, [1.0, 2.0]);
    assert_eq!(grid.get::<f32, _>((0, 1..3))?.shape(), &[2]);
    assert_eq!(grid.get::<f32, _>((0..1, 1..3))?.shape(), &[1, 2]);
    assert_eq!(grid.get::<f32, _>((1, 2))?.ndim(), 0);
    assert_eq!(grid.get_values::<f32, _>((.., 3))?, [3.0, 13.0, 23.0]);
    assert_eq!(
        grid.get_values::<f32, _>((1..=2, ..=1))?,
        [10.0, 11.0, 20.0, 21.0]
    );
    // Arrays of extents, step_by.
    assert_eq!(
        grid.get_values::<f32, _>([(0..3).step_by(2), (0..4).step_by(3)])?,
        [0.0, 3.0, 20.0, 23.0]
    );
    assert_eq!(grid.get_values::<f32, _>([2, 0])?, [20.0]);
    assert_eq!(
        grid.get_values::<f32, _>((2.., (1..).step_by(2)))?,
        [21.0, 23.0]
    );
    // (start, count) pairs: arrays, slices, vectors; (start, count, stride).
    assert_eq!(
        grid.get_values::<f32, _>(([1, 1], [2, 2]))?,
        [11.0, 12.0, 21.0, 22.0]
    );
    let (start, count) = (vec![0usize, 2], vec![1usize, 2]);
    assert_eq!(
        grid.get_values::<f32, _>((&start[..], &count[..]))?,
        [2.0, 3.0]
    );
    assert_eq!(grid.get_values::<f32, _>((start, count))?, [2.0, 3.0]);
    assert_eq!(
        grid.get_values::<f32, _>(([0, 0], [2, 2], [2, 3]))?,
        [0.0, 3.0, 20.0, 23.0]
    );
    // Bare ranges on a 1-D variable; conversions between numeric types.
    let packed = file.variable("packed").unwrap();
    assert_eq!(packed.get_values::<i16, _>(1..3)?, [-2, 3]);
    assert_eq!(packed.get_values::<f64, _>(2..)?, [3.0, -4.0]);
    assert_eq!(packed.get_values::<i32, _>((0..4).step_by(2))?, [1, 3]);
    assert_eq!(packed.get_value::<i64, _>(3)?, -4);
    assert!(
        packed.get_values::<u8, _>(..).is_err(),
        "-2 does not fit a u8"
    );
    let mut buf = [0f32; 3];
    packed.get_values_into(&mut buf, ..3)?;
    assert_eq!(buf, [1.0, -2.0, 3.0]);
    // Errors: out of bounds, wrong number of extents.
    assert!(packed.get_values::<i16, _>(3..9).is_err());
    assert!(grid.get_values::<f32, _>(1..2).is_err());
    Ok(())
}

#[test]
fn writes_groups_strings_compression_and_options() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("written.nc");
    {
        let mut file = netcdf::create_with(&path, netcdf::Options::NETCDF4)?;
        file.add_attribute("title", "written")?;
        file.add_attribute("counts", vec![1i32, 2, 3])?;
        file.add_attribute("names", vec!["p", "q"])?;
        file.add_attribute("av", AttributeValue::Double(0.25))?;
        file.add_dimension("x", 4)?;
        file.add_dimension("y", 3)?;
        {
            let mut v = file.add_variable::<f32>("z", &["y", "x"])?;
            v.set_compression(4, true)?;
            v.set_chunking(&[1, 4])?;
            v.set_fill_value(-9.5f32)?;
            v.put_attribute("units", "m")?;
            v.put_values(&[1.0f32, 2.0, 3.0, 4.0], (0, ..))?;
            let arr = ndarray::Array::from_shape_fn((2, 2), |(j, i)| (10 * j + i) as f32);
            v.put(arr.view(), (1..3, 2..4))?;
            v.put_value(7.5f32, [2, 0])?;
        }
        {
            let mut s = file.add_string_variable("labels", &["y"])?;
            s.put_string("alpha", 0)?;
            s.put_string("gamma", [2])?;
        }
        {
            let mut g = file.add_group("g")?;
            g.add_attribute("kind", "child")?;
            g.add_unlimited_dimension("t")?;
            let mut v = g.add_variable::<i16>("rec", &["t", "x"])?;
            v.put_values(&[1i16, 2, 3, 4, 5, 6, 7, 8], ([0, 0], [2, 4]))?;
            let mut sub = g.add_group("h")?;
            sub.add_dimension("k", 2)?;
            sub.add_variable::<u8>("flags", &["k"])?
                .put_values(&[1u8, 2], ..)?;
        }
        let mut var = file.variable_mut("z").unwrap();
        var.put_attribute("long_name", "height")?;
        assert_eq!(var.chunking()?, Some(vec![1, 4]));
        assert_eq!(var.fill_value::<f32>()?, Some(-9.5));
        let mut g = file.group_mut("g")?.unwrap();
        g.variable_mut("rec").unwrap().put_value(9i16, (0, 0))?;
        file.close()?;
    }
    let cdl = r#"netcdf written {
dimensions:
	x = 4 ;
	y = 3 ;
variables:
	float z(y, x) ;
		z:_FillValue = -9.5f ;
		z:units = "m" ;
		z:long_name = "height" ;
		z:_Storage = "chunked" ;
		z:_ChunkSizes = 1, 4 ;
		z:_DeflateLevel = 4 ;
		z:_Shuffle = "true" ;
	string labels(y) ;

// global attributes:
		:title = "written" ;
		:counts = 1, 2, 3 ;
		string :names = "p", "q" ;
		:av = 0.25 ;
data:

 z =
  1, 2, 3, 4,
  _, _, 0, 1,
  7.5, _, 10, 11 ;

 labels = "alpha", "", "gamma" ;

group: g {
  dimensions:
  	t = UNLIMITED ; // (2 currently)
  variables:
  	short rec(t, x) ;

  // group attributes:
  		:kind = "child" ;
  data:

   rec =
    9, 2, 3, 4,
    5, 6, 7, 8 ;

  group: h {
    dimensions:
    	k = 2 ;
    variables:
    	ubyte flags(k) ;
    data:

     flags = 1, 2 ;
    } // group h
  } // group g
}
"#;
    same_as_ncgen(&path, cdl, "nc4", &[]);
    same_as_ncgen(&path, cdl, "nc4", &["-s"]);

    // Append: open for writing, add along the unlimited dimension.
    let mut file = netcdf::append(&path)?;
    let mut g = file.group_mut("g")?.unwrap();
    let mut rec = g.variable_mut("rec").unwrap();
    rec.put_values(&[0i16; 4], (2, ..))?;
    assert_eq!(rec.len(), 12);
    file.close()?;
    let file = netcdf::open(&path)?;
    let rec = file.group("g")?.unwrap().variable("rec").unwrap();
    assert_eq!(rec.get::<i16, _>(..)?.shape(), &[3, 4]);
    Ok(())
}

#[test]
fn classic_files_through_options() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("classic.nc");
    {
        let mut file = netcdf::create_with(&path, netcdf::Options::_64BIT_OFFSET)?;
        file.add_unlimited_dimension("time")?;
        file.add_dimension("lat", 2)?;
        let mut t = file.add_variable::<f64>("time", &["time"])?;
        t.put_attribute("units", "days since 2000-01-01")?;
        file.add_variable::<i8>("v", &["time", "lat"])?;
        // As with netcdf-c, classic files take data after define mode ends.
        assert!(file
            .variable_mut("time")
            .unwrap()
            .put_values(&[0.0], ..)
            .is_err());
        file.enddef()?;
        let mut t = file.variable_mut("time").unwrap();
        t.put_values(&[0.0, 1.0, 2.0], ..)?;
        let mut v = file.variable_mut("v").unwrap();
        v.put_values(&[1i8, 2, 3, 4, 5, 6], (..3, ..))?;
        assert!(
            v.set_compression(1, false).is_err(),
            "classic has no compression"
        );
        file.close()?;
    }
    assert!(
        netcdf::create_with(&path, netcdf::Options::NOCLOBBER).is_err(),
        "NOCLOBBER on an existing file"
    );
    let cdl = "netcdf classic {\ndimensions:\n\ttime = UNLIMITED ; // (3 currently)\n\tlat = 2 ;\nvariables:\n\tdouble time(time) ;\n\t\ttime:units = \"days since 2000-01-01\" ;\n\tbyte v(time, lat) ;\ndata:\n\n time = 0, 1, 2 ;\n\n v =\n  1, 2,\n  3, 4,\n  5, 6 ;\n}\n";
    same_as_ncgen(&path, cdl, "nc6", &[]);
    let file = netcdf::open(&path)?;
    assert_eq!(
        file.variable("v").unwrap().endianness()?,
        netcdf::Endianness::Big
    );
    Ok(())
}

#[test]
fn coordinate_variables_defined_after_data() -> Result<(), Box<dyn std::error::Error>> {
    // Data written before the next variable is defined (netCDF-4 leaves define mode and enters
    // it again on its own); the later coordinate variable takes over its dimension's scale.
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("coords.nc");
    {
        let mut file = netcdf::create(&path)?;
        file.add_dimension("lat", 2)?;
        file.add_dimension("lon", 3)?;
        file.add_unlimited_dimension("time")?;
        file.add_variable::<f32>("lat", &["lat"])?
            .put_values(&[-45.0f32, 45.0], ..)?;
        file.add_variable::<f32>("lon", &["lon"])?
            .put_values(&[0.0f32, 120.0, 240.0], ..)?;
        let mut t = file.add_variable::<f32>("t", &["time", "lat", "lon"])?;
        t.put_values(&[1.0f32; 6], (0, .., ..))?;
        file.add_variable::<f64>("time", &["time"])?
            .put_value(0.5f64, 0)?;
        file.close()?;
    }
    let cdl = "netcdf coords {\ndimensions:\n\tlat = 2 ;\n\tlon = 3 ;\n\ttime = UNLIMITED ; // (1 currently)\nvariables:\n\tfloat lat(lat) ;\n\tfloat lon(lon) ;\n\tfloat t(time, lat, lon) ;\n\tdouble time(time) ;\ndata:\n\n lat = -45, 45 ;\n\n lon = 0, 120, 240 ;\n\n t =\n  1, 1, 1,\n  1, 1, 1 ;\n\n time = 0.5 ;\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    same_as_ncgen(&path, cdl, "nc4", &["-s"]);
    Ok(())
}

#[test]
fn variables_mut_in_turn() -> Result<(), Box<dyn std::error::Error>> {
    // Every variable of a group in turn.
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("each.nc");
    {
        let mut file = netcdf::create(&path)?;
        file.add_dimension("x", 2)?;
        file.add_variable::<i32>("a", &["x"])?;
        file.add_variable::<i32>("b", &["x"])?;
        file.add_group("g")?.add_variable::<u8>("c", &["x"])?;
        let mut value = 1;
        for mut var in file.variables_mut() {
            var.put_values(&[value, value + 1], ..)?;
            var.put_attribute("n", value)?;
            value += 10;
        }
        let mut g = file.group_mut("g")?.unwrap();
        for mut var in g.variables_mut() {
            var.put_values(&[7_u8, 8], ..)?;
        }
        file.close()?;
    }
    let cdl = "netcdf each {\ndimensions:\n\tx = 2 ;\nvariables:\n\tint a(x) ;\n\t\ta:n = 1 ;\n\tint b(x) ;\n\t\tb:n = 11 ;\ndata:\n\n a = 1, 2 ;\n\n b = 11, 12 ;\n\ngroup: g {\n  variables:\n  \tubyte c(x) ;\n  data:\n\n   c = 7, 8 ;\n  } // group g\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn attribute_value_conversions() -> Result<(), netcdf::Error> {
    // georust's own round trip: From a value, TryInto it back, with the target types spelled
    // out. georust's test leaves them to inference (`assert_eq!(x, attr.try_into().unwrap())`);
    // that form is checked in tests/inference.rs, which builds because nothing linked here adds
    // `PartialEq` between numbers and a type of its own (serde_json, which does, is only a
    // dev-dependency of purecdf's own tests).
    let x: u8 = 5;
    let attr: AttributeValue = x.into();
    let back: u8 = attr.try_into()?;
    assert_eq!(x, back);
    let x: f32 = 5.0;
    let attr: AttributeValue = x.into();
    let back: f32 = attr.try_into()?;
    assert_eq!(x, back);
    assert_eq!(AttributeValue::from(3i16), AttributeValue::Short(3));
    assert_eq!(
        AttributeValue::from(vec![1u64, 2]),
        AttributeValue::Ulonglongs(vec![1, 2])
    );
    assert_eq!(AttributeValue::from("t"), AttributeValue::Str("t".into()));
    assert_eq!(
        AttributeValue::from(vec!["a".to_string()]),
        AttributeValue::Strs(vec!["a".into()])
    );
    assert_eq!(
        AttributeValue::from(&["a", "b"][..]),
        AttributeValue::Strs(vec!["a".into(), "b".into()])
    );
    // Numbers convert between types when they fit.
    let wide: f64 = AttributeValue::Int(7).try_into()?;
    assert_eq!(wide, 7.0);
    let narrow: u8 = AttributeValue::Double(200.0).try_into()?;
    assert_eq!(narrow, 200);
    assert!(u8::try_from(AttributeValue::Int(-1)).is_err());
    assert!(f64::try_from(AttributeValue::Str("x".into())).is_err());
    assert!(String::try_from(AttributeValue::Float(1.0)).is_err());
    Ok(())
}
