//! The purecdf side of the side-by-side benchmark run by `benches/run.sh` (the netcdf-c side is
//! `benches/c/ncbench.c`; both compute the same data and print the same checksum).
//!
//! Not a criterion bench: a plain binary (`harness = false`) that times one operation on one file
//! per run, so the script can alternate it with the C program on the same files.
//!
//! ```text
//! ncbench OP PATH [NT NY NX]     OP = create | write | read | strided
//! ```
//! * `create`: a 64-bit offset (CDF-2) file with one float variable `data(t, y, x)`, fill on
//!   (ending define mode writes the fill values, as netcdf-c does);
//! * `write`: reopen it and write the whole variable, one `t` slab per call;
//! * `read`: read the whole variable in one call;
//! * `strided`: read every 2nd element of the last two dimensions in one call.
//!
//! Prints `OP SECONDS CHECKSUM`. Default shape 64 × 2048 × 2048 floats = 1 GiB.

use std::process::ExitCode;
use std::time::Instant;

use purecdf::{CreateOptions, Format};

/// The value stored at flat index `i` (the same formula as the C program).
fn value_at(i: u64) -> f32 {
    (i % 1021) as f32 - 510.0
}

fn create(path: &str, nt: u64, ny: u64, nx: u64) -> purecdf::Result<f64> {
    let options = CreateOptions {
        format: Format::Offset64,
        ..CreateOptions::default()
    };
    let mut file = purecdf::create_with(path, options)?;
    file.add_dimension("t", nt as usize)?;
    file.add_dimension("y", ny as usize)?;
    file.add_dimension("x", nx as usize)?;
    file.add_variable::<f32>("data", &["t", "y", "x"])?.id();
    file.close()?;
    Ok(0.0)
}

fn write(path: &str, nt: u64, ny: u64, nx: u64) -> purecdf::Result<f64> {
    let file = purecdf::append(path)?;
    let var = file
        .variable("data")
        .ok_or_else(|| purecdf::Error::new(purecdf::ErrorKind::NotVar))?
        .id();
    let plane = ny * nx;
    let mut buf = vec![0f32; plane as usize];
    let mut sum = 0f64;
    for t in 0..nt {
        for (j, v) in buf.iter_mut().enumerate() {
            *v = value_at(t * plane + j as u64);
            sum += f64::from(*v);
        }
        file.put_values(var, &buf, (&[t, 0, 0][..], &[1, ny, nx][..]))?;
    }
    file.close()?;
    Ok(sum)
}

fn read(path: &str, stride: u64, ny: u64, nx: u64, nt: u64) -> purecdf::Result<f64> {
    let file = purecdf::open(path)?;
    let var = file
        .variable("data")
        .ok_or_else(|| purecdf::Error::new(purecdf::ErrorKind::NotVar))?;
    let values: Vec<f32> = if stride == 1 {
        var.get_values(..)?
    } else {
        let count = [nt, ny.div_ceil(stride), nx.div_ceil(stride)];
        var.get_values((&[0, 0, 0][..], &count[..], &[1, stride, stride][..]))?
    };
    Ok(values.iter().map(|&v| f64::from(v)).sum())
}

fn main() -> ExitCode {
    // `cargo bench` appends `--bench`; ignore flags.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.len() != 2 && args.len() != 5 {
        eprintln!("usage: ncbench create|write|read|strided PATH [NT NY NX]");
        return ExitCode::from(2);
    }
    let (op, path) = (args[0].as_str(), args[1].as_str());
    let dims: Vec<u64> = args[2..].iter().filter_map(|a| a.parse().ok()).collect();
    let (nt, ny, nx) = match dims[..] {
        [nt, ny, nx] => (nt, ny, nx),
        _ => (64, 2048, 2048),
    };
    let start = Instant::now();
    let result = match op {
        "create" => create(path, nt, ny, nx),
        "write" => write(path, nt, ny, nx),
        "read" => read(path, 1, ny, nx, nt),
        "strided" => read(path, 2, ny, nx, nt),
        _ => {
            eprintln!("ncbench: unknown operation {op}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(sum) => {
            println!("{op} {:.6} {sum:.1}", start.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ncbench: {op} {path}: {e}");
            ExitCode::FAILURE
        }
    }
}
