//! Prints the structure of a netCDF file and the first values of each variable:
//! `cargo run --example reader -- file.nc`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: reader FILE")?;
    let file = purecdf::open(&path)?;
    println!("{path}: {:?}", file.format());
    for d in file.dimensions() {
        let unlimited = if d.is_unlimited() { " (unlimited)" } else { "" };
        println!("dimension {} = {}{unlimited}", d.name(), d.len());
    }
    for a in file.attributes() {
        println!("attribute {} = {:?}", a.name(), a.value()?);
    }
    print_group(file.root().expect("a root group"), "")?;
    Ok(())
}

fn print_group(group: purecdf::Group<'_>, indent: &str) -> purecdf::Result<()> {
    for var in group.variables() {
        let dims: Vec<&str> = var.dimensions().iter().map(|d| d.name_str()).collect();
        println!(
            "{indent}variable {}({}): {:?}",
            var.name(),
            dims.join(", "),
            var.nc_type()
        );
        for a in var.attributes() {
            println!("{indent}  {} = {:?}", a.name(), a.value()?);
        }
        if var.nc_type().is_numeric() && var.len() <= 1_000_000 {
            let n = var.len().min(5);
            // The first values in storage order, whatever the rank.
            let all: Vec<f64> = if n == var.len() || var.dimensions().len() != 1 {
                var.get_values(..)?
            } else {
                var.get_values(..n)?
            };
            println!("{indent}  first values: {:?}", &all[..n.min(all.len())]);
        }
    }
    for child in group.groups() {
        println!("{indent}group {}", child.name());
        print_group(child, &format!("{indent}  "))?;
    }
    Ok(())
}
