//! Timing driver for benches/netcdf4.sh (the same operations as benches/c/nc4bench.c does through
//! libnetcdf). Prints one line: the operation's wall time in seconds.
//!
//! * `read FILE VAR` — read a float variable whole.
//! * `open FILE` — open the file and list its variables.
//! * `threads FILE N VAR...` — read each VAR whole, with N threads sharing one handle.

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let t = Instant::now();
    match args.first().map(String::as_str) {
        Some("read") => {
            let f = purecdf::open(&args[1])?;
            let v = f.variable(&args[2]).ok_or("no such variable")?;
            let data: Vec<f32> = v.get_values(..)?;
            let elapsed = t.elapsed().as_secs_f64();
            let sum: f64 = data.iter().map(|x| f64::from(*x)).sum();
            eprintln!("checksum {sum:.6e}");
            println!("{elapsed:.4}");
            return Ok(());
        }
        Some("open") => {
            let f = purecdf::open(&args[1])?;
            std::hint::black_box(f.variables().count());
        }
        Some("threads") => {
            let f = purecdf::open(&args[1])?;
            let n: usize = args[2].parse()?;
            let vars = &args[3..];
            std::thread::scope(|s| {
                for chunk in vars.chunks(vars.len().div_ceil(n)) {
                    let f = &f;
                    s.spawn(move || {
                        for name in chunk {
                            let v = f.variable(name).expect("variable");
                            let data: Vec<f32> = v.get_values(..).expect("read");
                            std::hint::black_box(&data);
                        }
                    });
                }
            });
        }
        _ => {
            return Err("usage: nc_bench read FILE VAR | open FILE | threads FILE N VAR...".into())
        }
    }
    println!("{:.4}", t.elapsed().as_secs_f64());
    Ok(())
}
