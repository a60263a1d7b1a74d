//! Reads every numeric variable of a file on all cores at once from one shared handle (no lock:
//! each thread decodes its own chunks) and prints each variable's sum:
//! `cargo run --release --example parallel_reader -- file.nc`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: parallel_reader FILE")?;
    let file = purecdf::open(&path)?;
    let names: Vec<&str> = file
        .variables()
        .filter(|v| v.nc_type().is_numeric())
        .map(|v| v.name_str())
        .collect();
    let start = std::time::Instant::now();
    let sums = std::thread::scope(|s| {
        let handles: Vec<_> = names
            .iter()
            .map(|&name| {
                let file = &file;
                s.spawn(move || -> purecdf::Result<(String, f64)> {
                    let values: Vec<f64> = file.variable(name).expect("listed").get_values(..)?;
                    Ok((name.to_string(), values.iter().sum()))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("reader thread"))
            .collect::<purecdf::Result<Vec<_>>>()
    })?;
    for (name, sum) in sums {
        println!("{name}: sum {sum}");
    }
    println!("{} variables in {:?}", names.len(), start.elapsed());
    Ok(())
}
