//! Code that depends on the exact types of georust `netcdf` 0.12's signatures, not only on its
//! method names: the `Attribute<'a>` handle (named in function arguments, collected, bound with
//! its type), attribute writers called from generic code bounded by `Into<AttributeValue>`, and
//! `Options` as the `bitflags` type georust declares.

use netcdf::{Attribute, AttributeValue, Options, VariableMut};

/// A helper as a georust user writes it: the handle type is named with its lifetime.
fn describe(a: &netcdf::Attribute<'_>) -> String {
    format!("{}={:?}", a.name(), a.value().unwrap())
}

/// Generic code bounded as georust's `put_attribute` is.
fn tag<T: Into<AttributeValue>>(
    var: &mut VariableMut<'_>,
    value: T,
) -> Result<String, netcdf::Error> {
    let written = var.put_attribute("tag", value)?;
    Ok(written.name().to_owned())
}

#[test]
fn attribute_handles_and_generic_writers() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("signatures.nc");
    {
        let mut file = netcdf::create(&path)?;
        file.add_dimension("x", 2)?;
        let global: Attribute = file.add_attribute("title", "t\0x")?;
        assert_eq!(global.name(), "title");
        let mut var = file.add_variable::<f32>("u", &["x"])?;
        assert_eq!(tag(&mut var, 7_i16)?, "tag");
        assert_eq!(tag(&mut var, vec![1.5_f64, 2.5])?, "tag");
        let units = var.put_attribute("units", "m")?;
        assert_eq!(units.value()?, AttributeValue::Str("m".into()));
        var.put_attribute("valid_range", vec![0.0_f32, 9.0])?;
    }
    let file = netcdf::open(&path)?;
    let var = file.variable("u").unwrap();
    let tagged: Attribute = var.attribute("tag").unwrap();
    assert_eq!(tagged.value()?, AttributeValue::Doubles(vec![1.5, 2.5]));
    let all: Vec<Attribute> = var.attributes().collect();
    let shown: Vec<String> = all.iter().map(describe).collect();
    assert_eq!(
        shown,
        [
            "tag=Doubles([1.5, 2.5])",
            "units=Str(\"m\")",
            "valid_range=Floats([0.0, 9.0])"
        ]
    );
    let globals: Vec<netcdf::Attribute> = file.attributes().collect();
    assert_eq!(globals.len(), 1);
    // Read back, char text stops at its first NUL, as georust's `value()` does; netcdf-c
    // stored every byte given.
    assert_eq!(globals[0].value()?, AttributeValue::Str("t".into()));
    if let Some(header) = georust_compat_tests::ncdump(&["-h"], &path) {
        assert!(header.contains(":title = \"t\\000x\" ;"), "{header}");
    }
    Ok(())
}

#[test]
fn options_are_bitflags() -> Result<(), Box<dyn std::error::Error>> {
    let mut o = Options::empty();
    assert!(o.is_empty());
    o.insert(Options::NETCDF4);
    o |= Options::NOCLOBBER;
    assert!(o.contains(Options::NETCDF4 | Options::NOCLOBBER));
    assert!(o.intersects(Options::NOCLOBBER));
    o.remove(Options::NOCLOBBER);
    assert_eq!(o, Options::NETCDF4);
    assert_eq!(Options::from_bits(0x1000), Some(Options::NETCDF4));
    assert_eq!(
        Options::from_bits_truncate(0x1004),
        Options::NETCDF4.union(Options::NOCLOBBER)
    );
    assert_eq!((Options::NETCDF4 | Options::CLASSIC).bits(), 0x1100);
    assert!(!Options::all().is_empty());

    let dir = tempfile::tempdir()?;
    let path = dir.path().join("options.nc");
    let mut file = netcdf::create_with(&path, o | Options::CLASSIC)?;
    file.add_dimension("x", 1)?;
    file.close()?;
    if let Some(header) = georust_compat_tests::ncdump(&["-hs"], &path) {
        assert!(
            header.contains(":_Format = \"netCDF-4 classic model\""),
            "{header}"
        );
    }
    // NOCLOBBER refuses the existing file.
    assert!(netcdf::create_with(&path, Options::NOCLOBBER).is_err());
    Ok(())
}
