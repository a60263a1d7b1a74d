//! Timing driver for benches/netcdf4.sh (the same operations as benches/c/nc4bench.c does through
//! libnetcdf). Prints one line: the operation's wall time in seconds.
//!
//! * `read FILE VAR` — read a float variable whole.
//! * `open FILE` — open the file and list its variables.
//! * `readall FILE` — read every numeric variable of the root group whole (as doubles).
//! * `threads FILE N VAR...` — read each VAR whole, with N threads sharing one handle.
//! * `write FILE` — create FILE with a 256 MiB float variable `data` (256×512×512, chunks
//!   1×512×512, deflate 1 + shuffle), written one 512×512 slab per call with the same values as
//!   nc4bench.c's `fill`; the time includes `close`. NC4BENCH_FILTERS (a `_Filter` list) replaces
//!   deflate 1 + shuffle.
//! * `write-made FILE` — the same with every value made before the clock starts (as
//!   zarr_bench.py does).

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
        Some("readall") => {
            let f = purecdf::open(&args[1])?;
            for v in f.variables() {
                if v.nc_type().is_numeric() {
                    let data: Vec<f64> = v.get_values(..)?;
                    std::hint::black_box(&data);
                }
            }
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
        Some("write") => write(&args[1])?,
        Some("write-made") => {
            // The values made before the clock starts, as zarr_bench.py makes them.
            let slabs: Vec<Vec<f32>> = (0..256)
                .map(|z| {
                    let mut slab = vec![0f32; 512 * 512];
                    field(z, &mut slab);
                    slab
                })
                .collect();
            let t = Instant::now();
            write_slabs(&args[1], Slabs::Made(&slabs))?;
            println!("{:.4}", t.elapsed().as_secs_f64());
            return Ok(());
        }
        _ => {
            return Err(
                "usage: nc_bench read FILE VAR | open FILE | readall FILE | threads FILE N VAR... | write FILE | write-made FILE"
                    .into(),
            )
        }
    }
    println!("{:.4}", t.elapsed().as_secs_f64());
    Ok(())
}

/// The `write` benchmark: what nc4bench.c's `write` does (each slab made as it is written, in
/// one buffer).
fn write(path: &str) -> purecdf::Result<()> {
    write_slabs(path, Slabs::Make(vec![0f32; 512 * 512]))
}

/// nc4bench.c's `make_slab` of slab `z`: a smooth field plus xorshift noise, in the same float
/// operations and order, so the values are bit for bit the same. The loop runs over rows and
/// columns: written over one flat index (`i % 512`, `i / 512` as `usize` to `f64`), it took 23%
/// longer than the C loop for the same values (0.152 against 0.126 s for the 256 slabs), and the
/// `write` benchmark, which makes each slab on the calling thread, charged that to purecdf.
fn field(z: u32, slab: &mut [f32]) {
    let mut h = z.wrapping_mul(2_654_435_761).wrapping_add(1);
    let zf = f64::from(z);
    for (row, line) in (0u32..).zip(slab.chunks_exact_mut(512)) {
        let rows = f64::from(row) * 0.5;
        for (col, x) in (0u32..).zip(line.iter_mut()) {
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
            let smooth = f64::from(col) * 0.01 + rows + zf;
            *x = smooth as f32 + (h % 100_000) as f32 * 1e-5;
        }
    }
}

/// Where the written slabs come from.
enum Slabs<'a> {
    /// Made as they are written, into this buffer.
    Make(Vec<f32>),
    /// Made beforehand.
    Made(&'a [Vec<f32>]),
}

/// Creates `path` with the 256 MiB variable and writes its 256 slabs; the time includes
/// `close`.
fn write_slabs(path: &str, mut slabs: Slabs<'_>) -> purecdf::Result<()> {
    let mut f = purecdf::create_with(path, purecdf::Format::Netcdf4)?;
    f.add_dimension("z", 256)?;
    f.add_dimension("y", 512)?;
    f.add_dimension("x", 512)?;
    let v = f.add_variable::<f32>("data", &["z", "y", "x"])?.id();
    f.def_var_chunking(v, purecdf::Chunking::Chunked(vec![1, 512, 512]))?;
    // NC4BENCH_FILTERS (a _Filter list) replaces deflate 1 + shuffle, as in nc4bench.c.
    match std::env::var("NC4BENCH_FILTERS") {
        Ok(spec) if !spec.is_empty() => {
            for filter in purecdf::filter_spec::parse_filter_list(&spec)?.1 {
                f.def_var_filter(v, filter.id, &filter.params)?;
            }
        }
        _ => f.def_var_deflate(v, true, Some(1))?,
    }
    f.enddef()?;
    for z in 0..256u32 {
        let start = [u64::from(z), 0, 0];
        let slab: &[f32] = match &mut slabs {
            Slabs::Make(buf) => {
                field(z, buf);
                buf
            }
            Slabs::Made(all) => &all[z as usize],
        };
        f.put_values(v, slab, (&start[..], &[1u64, 512, 512][..]))?;
    }
    f.close()
}
