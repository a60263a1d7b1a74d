//! georust `netcdf` 0.12's documented examples (crate docs and README), unchanged but for file
//! names, run against files netcdf-c's `ncgen` wrote and checked with netcdf-c's `ncdump`.

use georust_compat_tests::{ncgen, same_as_ncgen};

const SIMPLE: &str = r#"netcdf simple {
dimensions:
	x = 6 ;
	t = 41 ;
	y = 100 ;
	z = 100 ;
variables:
	int line(x) ;
	int data(t, y, z) ;
	string capture_date ;
		capture_date:capture_date = "2024-05-01" ;
data:
 line = 0, 10, 20, 30, 40, 50 ;
}
"#;

#[test]
fn reading_example() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("simple_xy.nc");
    if ncgen(SIMPLE, "nc4", &path).is_none() {
        return Ok(());
    }
    // Open the file `simple_xy.nc`:
    let file = netcdf::open(&path)?;

    // Get the variable in this file with the name "line"
    let var = &file
        .variable("line")
        .expect("Could not find variable 'line'");

    // Read a single datapoint from a 1D variable as a numeric type
    let data_i32 = var.get_value::<i32, _>(4)?;
    let data_f32: f32 = var.get_value(5)?;
    assert_eq!((data_i32, data_f32), (40, 50.0));

    // If your variable is multi-dimensional you need to use a
    // type that supports `Selection`, such as a tuple or array
    let var = &file
        .variable("data")
        .expect("Could not find variable 'data'");
    let data_i32 = var.get_value::<i32, _>([40, 0, 0])?;
    let data_i32_b = var.get_value::<i32, _>((40, 0, 0))?;
    assert_eq!(data_i32, -2147483647);
    assert_eq!(data_i32, data_i32_b);

    // Passing `..` will give you the entire slice
    let data = var.get::<i32, _>(..)?;
    assert_eq!(data.shape(), &[41, 100, 100]);

    // A subset can also be selected, the following will extract the slice at
    // `(40, 0, 0)` and get a dataset of size `100, 100` from this
    let data = var.get::<i32, _>(([40, 0, 0], [1, 100, 100]))?;
    assert_eq!(data.shape(), &[1, 100, 100]);
    let data = var.get::<i32, _>((40, ..100, ..100))?;
    assert_eq!(data.shape(), &[100, 100]);

    // You can read into an ndarray to reuse an allocation
    let mut data = ndarray::Array::<f32, _>::zeros((100, 100));
    var.get_into(data.view_mut(), (0, .., ..))?;
    assert!(data.iter().all(|&v| v == -2147483647.0));

    // Attribute values convert with `TryInto`
    let capture = file.variable("capture_date").unwrap();
    let capture_date: String = capture
        .attribute_value("capture_date")
        .transpose()?
        .expect("no such attribute")
        .try_into()?;
    assert_eq!(capture_date, "2024-05-01");
    if let Some(scale_offset) = var.attribute_value("scale_offset").transpose()? {
        let _scale_offset: f64 = scale_offset.try_into()?;
        unreachable!("no scale_offset attribute");
    }
    Ok(())
}

#[test]
fn writing_example() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("crabs.nc");
    {
        // Create a new file with default settings
        let mut file = netcdf::create(&path)?;

        // We must create a dimension which corresponds to our data
        file.add_dimension("ncrabs", 10)?;
        // These dimensions can also be unlimited and will be resized when writing
        file.add_unlimited_dimension("time")?;

        // A variable can now be declared, and must be created from the dimension names.
        let mut var = file.add_variable::<i32>("crab_coolness_level", &["time", "ncrabs"])?;
        // Metadata can be added to the variable, but will not be used when
        // writing or reading data
        var.put_attribute("units", "Kelvin")?;
        var.put_attribute("add_offset", 273.15_f32)?;

        // Data can then be created and added to the variable
        let data: Vec<i32> = vec![42; 10];
        var.put_values(&data, (0, ..))?;

        // Values can be added along the unlimited dimension, which
        // resizes along the `time` axis
        var.put_values(&data, (11, ..))?;

        // Using the ndarray feature you can also use
        let values = ndarray::Array::from_shape_fn((5, 10), |(j, i)| (j * 10 + i) as f32);
        var.put(values.view(), (11.., ..))?;
        file.close()?;
    }
    let file = netcdf::open(&path)?;
    let var = file.variable("crab_coolness_level").unwrap();
    assert_eq!(var.dimensions()[0].len(), 16);
    assert_eq!(var.get_value::<i32, _>((12, 3))?, 13);

    let rows: Vec<String> = (0..16)
        .map(|t| {
            let row = match t {
                0 => ["42"; 10].join(", "),
                11..=15 => (0..10)
                    .map(|i| ((t - 11) * 10 + i).to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                _ => ["_"; 10].join(", "),
            };
            format!("  {row}")
        })
        .collect();
    let cdl = format!(
        "netcdf crabs {{\ndimensions:\n\tncrabs = 10 ;\n\ttime = UNLIMITED ; // (16 currently)\nvariables:\n\tint crab_coolness_level(time, ncrabs) ;\n\t\tcrab_coolness_level:units = \"Kelvin\" ;\n\t\tcrab_coolness_level:add_offset = 273.15f ;\ndata:\n\n crab_coolness_level =\n{} ;\n}}\n",
        rows.join(",\n")
    );
    same_as_ncgen(&path, &cdl, "nc4", &[]);
    same_as_ncgen(&path, &cdl, "nc4", &["-s"]);
    Ok(())
}
