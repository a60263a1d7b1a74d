//! Type inference as georust `netcdf` 0.12's own tests (`netcdf/tests/lib.rs`) rely on it: a
//! comparison alone fixes the type read (`assert_eq!(100.0, var.get_value(indices).unwrap())`,
//! `assert_eq!(values.shape(), &[])`). This compiles only when no crate linked in implements
//! `PartialEq` between Rust's numbers and a type of its own (serde_json's `Value` did, making
//! each of these comparisons ambiguous).

#[test]
fn a_comparison_fixes_the_type_read() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("inference.nc");
    let indices: [usize; 1] = [0];
    {
        let mut file = netcdf::create(&path)?;
        file.add_dimension("x", 3)?;
        let mut var = file.add_variable::<f32>("some_variable", &["x"])?;
        var.put_values(&[1., 2., 3.], ..)?;
        var.put_value(100.0f32, indices)?;
        let mut scalar = file.add_variable::<u8>("scalar", &[])?;
        scalar.put_value(8_u8, ())?;
        file.add_attribute("count", 5_u8)?;
    }
    let file = netcdf::open(&path)?;
    let var = &file.variable("some_variable").expect("no variable");
    // georust's `append` test.
    assert_eq!(100.0, var.get_value(indices).unwrap());
    assert_eq!(2.0, var.get_value([1]).unwrap());
    // Its `drop_dim_on_simple_indices` test.
    let values = var.get::<f32, _>(..)?;
    assert_eq!(values.shape(), &[3]);
    let values = var.get::<f32, _>(2)?;
    assert_eq!(values.shape(), &[]);
    // Its scalar tests, the literal untyped.
    let scalar = &file.variable("scalar").expect("no scalar");
    assert_eq!(scalar.get_value::<u8, _>(()).unwrap(), 8);
    assert_eq!(8, scalar.get_value(()).unwrap());
    // An attribute converted to the type of the value it is compared with.
    let count: u8 = 5;
    assert_eq!(
        count,
        file.attribute("count")
            .unwrap()
            .value()?
            .try_into()
            .unwrap()
    );
    Ok(())
}
