//! georust `netcdf`'s `derive` feature, written only against its names: `#[derive(NcType)]`
//! structs and enums describe compound and enum types, files written with them print in
//! netcdf-c's `ncdump` as the same content made by netcdf-c's `ncgen`, and files `ncgen` wrote
//! read back as Rust values.

use georust_compat_tests::{ncgen, same_as_ncgen};
use netcdf::types::{
    CompoundType, CompoundTypeField, EnumType, FloatType, IntType, NcTypeDescriptor, NcVariableType,
};

#[repr(C)]
#[derive(netcdf::NcType, Debug, Clone, Copy, PartialEq)]
#[netcdf(rename = "pos_t")]
struct Pos {
    lat: f32,
    lon: f32,
}

#[repr(i8)]
#[derive(netcdf::NcType, Debug, Clone, Copy, PartialEq)]
#[netcdf(rename = "cloud_t")]
enum Cloud {
    Clear = 0,
    Cumulonimbus,
    Stratus,
    #[netcdf(rename = "Missing")]
    Unknown = 127,
}

#[repr(C, packed)]
#[derive(netcdf::NcType, Debug, Clone, Copy, PartialEq)]
#[netcdf(rename = "obs_t")]
struct Obs {
    station: i32,
    pos: Pos,
    sky: Cloud,
    flags: [u8; 3],
    grid: [[i16; 2]; 3],
    #[netcdf(rename = "temperature")]
    temp: f64,
}

const CDL: &str = r#"netcdf derived {
types:
  compound pos_t {
    float lat ;
    float lon ;
  }; // pos_t
  byte enum cloud_t {Clear = 0, Cumulonimbus = 1, Stratus = 2, Missing = 127} ;
  compound obs_t {
    int station ;
    pos_t pos ;
    cloud_t sky ;
    ubyte flags(3) ;
    short grid(2, 3) ;
    double temperature ;
  }; // obs_t
dimensions:
	n = 2 ;
variables:
	obs_t obs(n) ;
	cloud_t sky(n) ;
	pos_t here ;
data:

 obs = {1, {10.5, 20.25}, Stratus, {1, 2, 3}, {1, 2, 3, 4, 5, 6}, 280.5},
    {-7, {-1.5, 0}, Missing, {255, 0, 9}, {-1, -2, -3, -4, -5, -6}, -0.25} ;

 sky = Clear, Missing ;

 here = {45, 6.5} ;
}
"#;

fn expected() -> [Obs; 2] {
    [
        Obs {
            station: 1,
            pos: Pos {
                lat: 10.5,
                lon: 20.25,
            },
            sky: Cloud::Stratus,
            flags: [1, 2, 3],
            grid: [[1, 2], [3, 4], [5, 6]],
            temp: 280.5,
        },
        Obs {
            station: -7,
            pos: Pos {
                lat: -1.5,
                lon: 0.0,
            },
            sky: Cloud::Unknown,
            flags: [255, 0, 9],
            grid: [[-1, -2], [-3, -4], [-5, -6]],
            temp: -0.25,
        },
    ]
}

#[test]
fn descriptors_describe_the_rust_types() {
    let pos = NcVariableType::Compound(CompoundType {
        name: "pos_t".to_owned(),
        size: 8,
        fields: vec![
            CompoundTypeField {
                name: "lat".to_owned(),
                basetype: NcVariableType::Float(FloatType::F32),
                arraydims: None,
                offset: 0,
            },
            CompoundTypeField {
                name: "lon".to_owned(),
                basetype: f32::type_descriptor(),
                arraydims: None,
                offset: 4,
            },
        ],
    });
    assert_eq!(Pos::type_descriptor(), pos);
    let cloud = NcVariableType::Enum(EnumType {
        name: "cloud_t".to_owned(),
        fieldnames: ["Clear", "Cumulonimbus", "Stratus", "Missing"]
            .map(String::from)
            .into(),
        fieldvalues: vec![0i8, 1, 2, 127].into(),
    });
    assert_eq!(Cloud::type_descriptor(), cloud);
    let NcVariableType::Compound(obs) = Obs::type_descriptor() else {
        panic!("not a compound");
    };
    assert_eq!(
        (obs.name.as_str(), obs.size),
        ("obs_t", 4 + 8 + 1 + 3 + 12 + 8)
    );
    let fields: Vec<_> = obs
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.offset, f.arraydims.clone()))
        .collect();
    assert_eq!(
        fields,
        [
            ("station", 0, None),
            ("pos", 4, None),
            ("sky", 12, None),
            ("flags", 13, Some(vec![3])),
            ("grid", 16, Some(vec![2, 3])),
            ("temperature", 28, None),
        ]
    );
    assert_eq!(obs.fields[1].basetype, pos);
    assert_eq!(obs.fields[2].basetype, cloud);
    assert_eq!(obs.fields[4].basetype, NcVariableType::Int(IntType::I16));
}

#[test]
fn written_compounds_and_enums_dump_as_ncgen_makes_them() -> Result<(), Box<dyn std::error::Error>>
{
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("derived.nc");
    let mut file = netcdf::create(&path)?;
    // As in georust, a compound's member types are added before it.
    assert!(file.add_type::<Obs>().is_err());
    file.add_type::<Pos>()?;
    assert!(file.add_type::<Obs>().is_err());
    file.add_type::<Cloud>()?;
    file.add_type::<Obs>()?;
    file.add_dimension("n", 2)?;
    file.add_variable::<Obs>("obs", &["n"])?
        .put_values(&expected(), ..)?;
    let mut sky = file.add_variable::<Cloud>("sky", &["n"])?;
    sky.put_values(&[Cloud::Clear, Cloud::Unknown], ..)?;
    // georust's own example: a scalar variable, no Copy needed to write.
    file.add_variable::<Pos>("here", &[])?.put_value(
        Pos {
            lat: 45.0,
            lon: 6.5,
        },
        (),
    )?;
    let names: Vec<String> = file
        .types()?
        .map(|t| match t {
            NcVariableType::Compound(c) => c.name,
            NcVariableType::Enum(e) => e.name,
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["pos_t", "cloud_t", "obs_t"]);
    file.close()?;

    let file = netcdf::open(&path)?;
    let obs = file.variable("obs").unwrap();
    assert_eq!(obs.get_values::<Obs, _>(..)?, expected());
    assert_eq!(obs.get_value::<Obs, _>(1)?, expected()[1]);
    let sky = file.variable("sky").unwrap();
    assert_eq!(
        sky.get_values::<Cloud, _>(..)?,
        [Cloud::Clear, Cloud::Unknown]
    );

    same_as_ncgen(&path, CDL, "nc4", &[]);
    Ok(())
}

#[test]
fn compounds_ncgen_wrote_read_as_rust_values() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("ncgen.nc");
    if ncgen(CDL, "nc4", &path).is_none() {
        return Ok(());
    }
    // netcdf-c lays obs_t out with C's alignment (padding before `temperature`): fields are
    // matched by name, not by offset.
    let file = netcdf::open(&path)?;
    assert_eq!(
        file.variable("obs").unwrap().get_values::<Obs, _>(..)?,
        expected()
    );
    let a = file.variable("obs").unwrap().get::<Obs, _>(1..)?;
    assert_eq!(a.iter().copied().collect::<Vec<_>>(), [expected()[1]]);
    let here: Pos = file.variable("here").unwrap().get_value(())?;
    assert_eq!(
        here,
        Pos {
            lat: 45.0,
            lon: 6.5
        }
    );
    let sky = file.variable("sky").unwrap().get_values::<Cloud, _>(..)?;
    assert_eq!(sky, [Cloud::Clear, Cloud::Unknown]);

    // A Rust enum without the member 127: reading it is an error, never an invalid value.
    #[repr(i8)]
    #[derive(netcdf::NcType, Debug, Clone, Copy, PartialEq)]
    #[netcdf(rename = "cloud_t")]
    enum Fewer {
        Clear = 0,
    }
    let err = file
        .variable("sky")
        .unwrap()
        .get_values::<Fewer, _>(..)
        .unwrap_err();
    assert!(err.to_string().contains("127"), "{err}");
    assert_eq!(
        file.variable("sky").unwrap().get_value::<Fewer, _>(0)?,
        Fewer::Clear
    );
    // Other types are refused by name.
    assert!(file
        .variable("obs")
        .unwrap()
        .get_values::<Pos, _>(..)
        .is_err());
    assert!(file
        .variable("here")
        .unwrap()
        .get_values::<f64, _>(..)
        .is_err());
    Ok(())
}

#[test]
fn types_in_groups() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("groups.nc");
    let mut file = netcdf::create(&path)?;
    let mut g = file.add_group("g")?;
    g.add_type::<Cloud>()?;
    g.add_dimension("n", 3)?;
    let mut v = g.add_variable::<Cloud>("c", &["n"])?;
    v.put_values(&[Cloud::Stratus, Cloud::Clear, Cloud::Cumulonimbus], ..)?;
    file.close()?;
    let file = netcdf::open(&path)?;
    let g = file.group("g")?.unwrap();
    assert_eq!(g.types().count(), 1);
    assert_eq!(file.types()?.count(), 0);
    assert_eq!(
        g.variable("c").unwrap().get_values::<Cloud, _>(1..)?,
        [Cloud::Clear, Cloud::Cumulonimbus]
    );
    Ok(())
}

const WITH_TYPE_CDL: &str = r#"netcdf with_type {
types:
  compound pos_t {
    float lat ;
    float lon ;
  }; // pos_t
dimensions:
	n = 2 ;
variables:
	double f(n) ;
	string s(n) ;
	pos_t here ;
data:

 f = 1.5, 2.5 ;

 s = "a", "bc" ;

 here = {45, 6.5} ;

group: g {
  types:
    byte enum cloud_t {Clear = 0, Cumulonimbus = 1, Stratus = 2, Missing = 127} ;
  variables:
  	cloud_t sky(n) ;
  	pos_t where ;
  data:

   sky = Clear, Stratus ;

   where = {-1.5, 0} ;
  } // group g
}
"#;

#[test]
fn variables_added_from_type_descriptions() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("with_type.nc");
    let mut file = netcdf::create(&path)?;
    file.add_dimension("n", 2)?;
    // Atomic types and strings.
    let f64_type = NcVariableType::Float(FloatType::F64);
    file.add_variable_with_type("f", &["n"], &f64_type)?
        .put_values(&[1.5_f64, 2.5], ..)?;
    let mut s = file.add_variable_with_type("s", &["n"], &NcVariableType::String)?;
    s.put_string("a", 0)?;
    s.put_string("bc", 1)?;
    // A user type not defined yet is defined in the root group.
    let here = Pos {
        lat: 45.0,
        lon: 6.5,
    };
    file.add_variable_with_type("here", &[], &Pos::type_descriptor())?
        .put_value(here, ())?;
    // In a group: a new type is defined there, one of an ancestor is found and used.
    file.add_group("g")?
        .add_variable_with_type("sky", &["n"], &Cloud::type_descriptor())?
        .put_values(&[Cloud::Clear, Cloud::Stratus], ..)?;
    let mut g = file.group_mut("g")?.unwrap();
    let mut w = g.add_variable_with_type("where", &[], &Pos::type_descriptor())?;
    w.put_value(
        Pos {
            lat: -1.5,
            lon: 0.0,
        },
        (),
    )?;
    // A different type under a name that is taken is refused.
    let other = NcVariableType::Opaque(netcdf::types::OpaqueType {
        name: "pos_t".into(),
        size: 3,
    });
    assert!(file.add_variable_with_type("bad", &[], &other).is_err());
    file.close()?;

    let file = netcdf::open(&path)?;
    assert_eq!(file.types()?.count(), 1);
    let g = file.group("g")?.unwrap();
    assert_eq!(g.types().count(), 1);
    assert_eq!(
        g.variable("sky").unwrap().get_values::<Cloud, _>(..)?,
        [Cloud::Clear, Cloud::Stratus]
    );
    assert_eq!(
        file.variable("here").unwrap().get_value::<Pos, _>(())?,
        here
    );
    // vartype describes each variable's type in full.
    assert_eq!(file.variable("f").unwrap().vartype(), f64_type);
    assert_eq!(
        file.variable("s").unwrap().vartype(),
        NcVariableType::String
    );
    assert_eq!(
        file.variable("here").unwrap().vartype(),
        Pos::type_descriptor()
    );
    assert_eq!(
        g.variable("sky").unwrap().vartype(),
        Cloud::type_descriptor()
    );
    assert_eq!(
        g.variable("where").unwrap().vartype(),
        Pos::type_descriptor()
    );
    same_as_ncgen(&path, WITH_TYPE_CDL, "nc4", &[]);
    Ok(())
}
