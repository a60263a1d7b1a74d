//! Errors matched by georust `netcdf` 0.12's variant names. georust's `Error` is an enum
//! without context; purecdf's keeps the kind and where it happened (file, variable), so a
//! georust program matches `e.as_georust()` (purecdf's one name here, see the crate docs'
//! georust section) where it matched `e`.

use netcdf::GeorustError;

#[test]
fn errors_by_georust_variant() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let missing = dir.path().join("missing.nc");
    let e = netcdf::open(&missing).unwrap_err();
    // The system error number, as netcdf-c returns it for a file that is not there.
    assert!(matches!(e.as_georust(), GeorustError::Netcdf(2)));
    // ... and the context stays: the file is named.
    assert!(e.to_string().contains("missing.nc"), "{e}");

    let path = dir.path().join("errors.nc");
    let mut file = netcdf::create(&path)?;
    file.add_dimension("x", 4)?;
    let e = file.add_dimension("x", 5).unwrap_err();
    assert_eq!(e.as_georust(), GeorustError::AlreadyExists);
    assert_eq!(e.kind(), netcdf::ErrorKind::NameInUse);
    assert_eq!(e.context().path.as_deref(), Some(path.as_path()));

    file.add_variable::<i32>("v", &["x"])?;
    let e = file.add_variable::<f32>("v", &["x"]).unwrap_err();
    assert!(matches!(e.as_georust(), GeorustError::AlreadyExists));
    assert_eq!(file.variable("v").unwrap().dimensions()[0].len(), 4);

    let mut var = file.variable_mut("v").unwrap();
    let e = var.set_chunking(&[2, 2]).unwrap_err();
    assert_eq!(e.as_georust(), GeorustError::SliceLen);
    assert!(!e.is_ambiguous());
    var.put_values(&[1, 2, 3, 4], ..)?;
    let mut buf = [0_i32; 3];
    let e = var.get_values_into(&mut buf, ..).unwrap_err();
    assert_eq!(
        e.as_georust(),
        GeorustError::BufferLen {
            wanted: 4,
            actual: 3
        }
    );
    let e = var.get_values::<i32, _>((0, 0)).unwrap_err();
    assert_eq!(
        e.as_georust(),
        GeorustError::DimensionMismatch {
            wanted: 1,
            actual: 2
        }
    );
    // Any other failure is `Netcdf` with netcdf-c's code (NC_EINVALCOORDS here).
    let e = var.get_values::<i32, _>(7..).unwrap_err();
    assert_eq!(e.as_georust(), GeorustError::Netcdf(-40));

    let path1 = dir.path().join("other.nc");
    let mut other = netcdf::create(&path1)?;
    let d = other.add_dimension("y", 2)?.identifier();
    let e = file
        .add_variable_from_identifiers::<u8>("w", &[d])
        .unwrap_err();
    assert_eq!(e.as_georust(), GeorustError::WrongDataset);
    Ok(())
}
