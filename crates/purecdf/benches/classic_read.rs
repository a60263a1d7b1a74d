//! Criterion benches for the classic backend ("The NetCDF Classic Format Specification"):
//! opening (header parse), whole-variable reads, strided hyperslab reads and whole writes of a
//! generated 16 MiB float variable, reported as byte throughput. Inputs are generated in setup
//! from a fixed formula, never committed. The 1 GiB comparison with netcdf-c is
//! `benches/run.sh`.

// `criterion_group!` defines an undocumented function.
#![allow(missing_docs)]

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use purecdf::{CreateOptions, Format};

const NT: u64 = 16;
const NY: u64 = 512;
const NX: u64 = 512;

fn value_at(i: u64) -> f32 {
    (i % 1021) as f32 - 510.0
}

/// Writes `data(t, y, x)` (plus a record variable, so the header has some variety).
fn make_file(path: &Path, format: Format) {
    let options = CreateOptions {
        format,
        ..CreateOptions::default()
    };
    let mut file = purecdf::create_with(path, options).expect("create");
    file.add_dimension("t", NT as usize).expect("dim t");
    file.add_dimension("y", NY as usize).expect("dim y");
    file.add_dimension("x", NX as usize).expect("dim x");
    file.add_unlimited_dimension("rec").expect("dim rec");
    let var = file
        .add_variable::<f32>("data", &["t", "y", "x"])
        .expect("var data")
        .id();
    let rec = file
        .add_variable::<i32>("count", &["rec"])
        .expect("var count")
        .id();
    file.add_attribute("title", "bench").expect("attribute");
    file.enddef().expect("enddef");
    let all: Vec<f32> = (0..NT * NY * NX).map(value_at).collect();
    file.put_values(var, &all, ..).expect("write data");
    file.put_values(rec, &[1i32, 2, 3], (&[0u64][..], &[3u64][..]))
        .expect("write count");
    file.close().expect("close");
}

fn bench_classic(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let bytes = NT * NY * NX * 4;
    for (name, format) in [("cdf1", Format::Classic), ("cdf5", Format::Cdf5)] {
        let path = dir.path().join(format!("{name}.nc"));
        make_file(&path, format);

        let mut g = c.benchmark_group(format!("classic/{name}"));
        g.bench_function("open", |b| {
            b.iter(|| purecdf::open(&path).expect("open"));
        });
        let file = purecdf::open(&path).expect("open");
        let var = file.variable("data").expect("data");
        g.throughput(Throughput::Bytes(bytes));
        g.sample_size(20);
        g.bench_function("read_whole_f32", |b| {
            b.iter(|| var.get_values::<f32, _>(..).expect("read"));
        });
        g.bench_function("read_whole_f64", |b| {
            b.iter(|| var.get_values::<f64, _>(..).expect("read"));
        });
        for stride in [2u64, 4] {
            let count = [NT, NY.div_ceil(stride), NX.div_ceil(stride)];
            g.throughput(Throughput::Bytes(count.iter().product::<u64>() * 4));
            g.bench_with_input(
                BenchmarkId::new("read_strided", stride),
                &stride,
                |b, &s| {
                    b.iter(|| {
                        var.get_values::<f32, _>((&[0u64, 0, 0][..], &count[..], &[1, s, s][..]))
                            .expect("strided read")
                    });
                },
            );
        }
        g.throughput(Throughput::Bytes(bytes));
        g.bench_function("write_whole", |b| {
            let out = dir.path().join(format!("{name}-write.nc"));
            b.iter(|| make_file(&out, format));
        });
        g.finish();
    }
}

criterion_group!(benches, bench_classic);
criterion_main!(benches);
