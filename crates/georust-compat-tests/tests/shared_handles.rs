//! georust `netcdf` 0.12's write handles used as its programs use them: a `VariableMut` where a
//! `&Variable` is wanted (it derefs to one), `variables_mut()` and `groups_mut()` as iterators in
//! `for` loops and collected side by side, `dimensions()` as a slice, every `Extent` form, typed
//! reads into a caller's buffer, and errors matched by georust's variant names (through
//! `as_georust`, the one documented difference). Files written are checked with netcdf-c's
//! `ncdump` against the same content made by `ncgen`.

use georust_compat_tests::same_as_ncgen;
use netcdf::{Extent, Extents};

/// Reads a whole variable through georust's `&Variable`.
fn all_i32(var: &netcdf::Variable) -> Vec<i32> {
    let mut v = vec![0; var.len()];
    var.get_values_into(&mut v, ..).unwrap();
    v
}

#[test]
fn variable_mut_is_a_variable() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("deref.nc");
    let mut file = netcdf::create(&path)?;
    file.add_unlimited_dimension("t")?;
    file.add_dimension("x", 2)?;
    let var = &mut file.add_variable::<i32>("v", &["t", "x"])?;
    var.put_values(&[1, 2, 3, 4], (..2, ..))?;
    // `&mut VariableMut` and `&VariableMut` coerce to `&Variable`; `&*` names the target.
    assert_eq!(all_i32(var), [1, 2, 3, 4]);
    var.put_values(&[5, 6], (2, ..))?;
    assert_eq!(all_i32(&*var), [1, 2, 3, 4, 5, 6]);
    // `Variable`'s read methods, called on the write handle, see what it wrote.
    assert_eq!(var.len(), 6);
    assert_eq!(var.get_values::<i64, _>((1.., 1))?, [4, 6]);
    assert_eq!(var.get_value::<i32, _>([2, 0])?, 5);
    let dims: &[netcdf::Dimension] = var.dimensions();
    assert_eq!(
        dims.iter().map(|d| (d.name(), d.len())).collect::<Vec<_>>(),
        [("t".to_string(), 3), ("x".to_string(), 2)]
    );
    var.put_attribute("units", "m")?;
    assert_eq!(
        var.attribute("units").map(|a| a.value().unwrap()),
        Some(netcdf::AttributeValue::Str("m".into()))
    );
    file.close()?;
    let cdl = "netcdf deref {\ndimensions:\n\tt = UNLIMITED ;\n\tx = 2 ;\nvariables:\n\tint v(t, x) ;\n\t\tv:units = \"m\" ;\ndata:\n\n v =\n  1, 2,\n  3, 4,\n  5, 6 ;\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn variables_mut_in_a_for_loop_and_side_by_side() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("vars.nc");
    let mut file = netcdf::create(&path)?;
    file.add_dimension("x", 3)?;
    for name in ["a", "b", "c"] {
        file.add_variable::<f32>(name, &["x"])?;
    }
    for mut var in file.variables_mut() {
        let name = var.name();
        var.put_attribute("long_name", format!("variable {name}").as_str())?;
        var.set_compression(4, true)?;
        assert_eq!(
            var.attribute_value("long_name").unwrap()?,
            netcdf::AttributeValue::Str(format!("variable {name}"))
        );
    }
    // Handles kept at once, each writing.
    let mut vars: Vec<netcdf::VariableMut> = file.variables_mut().collect();
    assert_eq!(vars.len(), 3);
    let (first, rest) = vars.split_first_mut().unwrap();
    first.put_values(&[1.0_f32, 2.0, 3.0], ..)?;
    for (i, v) in rest.iter_mut().enumerate() {
        let x = i as f32 * 10.0;
        v.put_values(&[x, x + 1.0, x + 2.0], ..)?;
    }
    assert_eq!(vars[2].get_values::<f32, _>(..)?, [10.0, 11.0, 12.0]);
    drop(vars);
    file.close()?;
    let cdl = "netcdf vars {\ndimensions:\n\tx = 3 ;\nvariables:\n\tfloat a(x) ;\n\t\ta:long_name = \"variable a\" ;\n\tfloat b(x) ;\n\t\tb:long_name = \"variable b\" ;\n\tfloat c(x) ;\n\t\tc:long_name = \"variable c\" ;\ndata:\n\n a = 1, 2, 3 ;\n\n b = 0, 1, 2 ;\n\n c = 10, 11, 12 ;\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    let file = netcdf::open(&path)?;
    let deflate: Vec<bool> = file
        .variables()
        .map(|v| v.chunking().unwrap().is_some())
        .collect();
    assert_eq!(deflate, [true, true, true]);
    Ok(())
}

#[test]
fn nested_groups_mut() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("nested.nc");
    let mut file = netcdf::create(&path)?;
    file.add_dimension("x", 2)?;
    file.add_group("a")?.add_group("a1")?;
    file.add_group("b")?;
    let mut n = 0_i16;
    for mut g in file.groups_mut()? {
        n += 1;
        g.add_attribute("n", n)?;
        g.add_variable::<i16>("v", &["x"])?
            .put_values(&[n, -n], ..)?;
        let gname = g.name();
        for mut inner in g.groups_mut() {
            let path = format!("{gname}/{}", inner.name());
            inner.add_attribute("path", path.as_str())?;
        }
        for mut v in g.variables_mut() {
            v.put_attribute("in", gname.as_str())?;
        }
    }
    // Group handles side by side.
    let groups: Vec<netcdf::GroupMut> = file.groups_mut()?.collect();
    assert_eq!(
        groups.iter().map(|g| g.name()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    drop(groups);
    file.close()?;
    let cdl = "netcdf nested {\ndimensions:\n\tx = 2 ;\n\ngroup: a {\n  variables:\n  \tshort v(x) ;\n  \t\tv:in = \"a\" ;\n\n  // group attributes:\n  \t\t:n = 1s ;\n  data:\n\n   v = 1, -1 ;\n\n  group: a1 {\n\n    // group attributes:\n    \t\t:path = \"a/a1\" ;\n    } // group a1\n  } // group a\n\ngroup: b {\n  variables:\n  \tshort v(x) ;\n  \t\tv:in = \"b\" ;\n\n  // group attributes:\n  \t\t:n = 2s ;\n  data:\n\n   v = 2, -2 ;\n  } // group b\n}\n";
    same_as_ncgen(&path, cdl, "nc4", &[]);
    Ok(())
}

#[test]
fn extent_forms() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("extents.nc");
    let mut file = netcdf::create(&path)?;
    file.add_dimension("y", 3)?;
    file.add_dimension("x", 5)?;
    let var = &mut file.add_variable::<i32>("v", &["y", "x"])?;
    let all: Vec<i32> = (0..15).collect();
    var.put_values(&all, ..)?;
    let read = |e: Extents| var.get_values::<i32, _>(e).unwrap();
    // georust's variants and field types.
    let slice = Extent::Slice {
        start: 1,
        stride: 2,
    };
    let end = Extent::SliceEnd {
        start: 1,
        end: 4,
        stride: 2,
    };
    let count = Extent::SliceCount {
        start: 0,
        count: 2,
        stride: 3,
    };
    assert_eq!(read([Extent::Index(2), slice].into()), [11, 13]);
    assert_eq!(read([Extent::Index(0), end].into()), [1, 3]);
    assert_eq!(read([Extent::Index(1), count].into()), [5, 8]);
    assert_eq!(read(vec![slice, Extent::Index(4)].into()), [9]);
    // Conversions: ranges, indices, stepped ranges, `..`.
    assert_eq!(
        Extent::from(2..4),
        Extent::SliceEnd {
            start: 2,
            end: 4,
            stride: 1
        }
    );
    assert_eq!(
        Extent::from(..=2),
        Extent::SliceEnd {
            start: 0,
            end: 3,
            stride: 1
        }
    );
    assert_eq!(
        Extent::from(3..),
        Extent::Slice {
            start: 3,
            stride: 1
        }
    );
    assert_eq!(
        Extent::from(..),
        Extent::Slice {
            start: 0,
            stride: 1
        }
    );
    assert_eq!(Extent::from(4), Extent::Index(4));
    assert_eq!(
        Extent::from((1..5).step_by(2)),
        Extent::SliceCount {
            start: 1,
            count: 2,
            stride: 2
        }
    );
    assert_eq!(read((1, (0..5).step_by(2)).into()), [5, 7, 9]);
    assert_eq!(read((..2, 3..).into()), [3, 4, 8, 9]);
    assert_eq!(read((&[1, 1], &[2, 2]).try_into()?), [6, 7, 11, 12]);
    assert_eq!(
        read((&[0, 0], &[2, 2], &[2, 3]).try_into()?),
        [0, 3, 10, 13]
    );
    let mut stepped = Extent::from(0..5);
    stepped.set_stride(4);
    assert_eq!(read([Extent::Index(0), stepped].into()), [0, 4]);
    // A stride below 1 is refused when used.
    let bad = var.get_values::<i32, _>([
        Extent::Index(0),
        Extent::Slice {
            start: 0,
            stride: 0,
        },
    ]);
    assert!(bad.is_err());
    Ok(())
}

#[test]
fn get_values_into_a_callers_buffer() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("into.nc");
    {
        let mut file = netcdf::create(&path)?;
        file.add_dimension("x", 4)?;
        file.add_variable::<i16>("s", &["x"])?
            .put_values(&[-2_i16, -1, 0, 300], ..)?;
        file.close()?;
    }
    let file = netcdf::open(&path)?;
    let var = file.variable("s").unwrap();
    let mut same = [0_i16; 4];
    var.get_values_into(&mut same, ..)?;
    assert_eq!(same, [-2, -1, 0, 300]);
    // Converted on the way into the buffer.
    let mut wide = vec![0.0_f64; 2];
    var.get_values_into(&mut wide, 2..)?;
    assert_eq!(wide, [0.0, 300.0]);
    // A value out of range for the buffer's type is an error, as in netcdf-c (NC_ERANGE).
    let mut narrow = [0_u8; 4];
    assert!(var.get_values_into(&mut narrow, ..).is_err());
    let mut short = [0_i16; 3];
    assert!(var.get_values_into(&mut short, ..).is_err());
    Ok(())
}
