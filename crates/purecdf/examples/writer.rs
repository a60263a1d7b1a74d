//! Writes a small netCDF-4 file of gridded temperatures with a time axis, compressed:
//! `cargo run --example writer -- out.nc`, then `ncdump out.nc`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "writer.nc".into());
    let (ny, nx) = (4, 6);
    let mut file = purecdf::create(&path)?;
    file.add_attribute("title", "purecdf example")?;
    file.add_attribute("Conventions", "CF-1.10")?;
    file.add_unlimited_dimension("time")?;
    file.add_dimension("lat", ny)?;
    file.add_dimension("lon", nx)?;

    let mut time = file.add_variable::<f64>("time", &["time"])?;
    time.put_attribute("units", "hours since 2024-01-01 00:00:00")?;
    time.put_attribute("calendar", "standard")?;
    let mut lat = file.add_variable::<f32>("lat", &["lat"])?;
    lat.put_attribute("units", "degrees_north")?;
    let lats: Vec<f32> = (0..ny).map(|j| -45.0 + 30.0 * j as f32).collect();
    lat.put_values(&lats, ..)?;
    let mut lon = file.add_variable::<f32>("lon", &["lon"])?;
    lon.put_attribute("units", "degrees_east")?;
    let lons: Vec<f32> = (0..nx).map(|i| 60.0 * i as f32).collect();
    lon.put_values(&lons, ..)?;

    let mut t = file.add_variable::<f32>("t2m", &["time", "lat", "lon"])?;
    t.put_attribute("units", "K")?;
    t.set_fill_value(-999.0f32)?;
    t.set_compression(4, true)?;
    t.set_chunking(&[1, ny, nx])?;
    for step in 0..3 {
        let field =
            ndarray::Array::from_shape_fn((ny, nx), |(j, i)| 280.0 + step as f32 + (j + i) as f32);
        t.put(field.view(), (step, .., ..))?;
        file.variable_mut("time")
            .expect("defined above")
            .put_value(6.0 * step as f64, step)?;
        t = file.variable_mut("t2m").expect("defined above");
    }
    file.close()?;
    println!("wrote {path}");
    Ok(())
}
