//! Times the codecs on a file of raw values: `codec_bench FILE TYPESIZE` prints, per codec,
//! the compression ratio and the encode and decode speeds in MB/s (zstd at levels 1, 3, 9 and
//! 19; build with and without the `zstd-c` feature to compare with the C library). The file is cut into chunks of
//! 4 MiB compressed one by one, as HDF5 and Zarr compress chunks.

use std::time::Instant;

use purecdf_codecs::blosc::{Compressor, Params, Shuffle};
use purecdf_codecs::{blosc, bzip2, lz4, zstd};

type Enc = Box<dyn Fn(&[u8]) -> Vec<u8>>;
type Dec = Box<dyn Fn(&[u8], usize) -> Vec<u8>>;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let data = std::fs::read(&args[1]).expect("read the file");
    let ts: usize = args.get(2).map_or(4, |s| s.parse().unwrap());
    let only = args.get(3).cloned().unwrap_or_default();
    let chunk = std::env::var("CHUNK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4 << 20);
    let mut codecs: Vec<(String, Enc, Dec)> = Vec::new();
    for level in [1, 3, 9, 19] {
        codecs.push((
            format!("zstd level {level}"),
            Box::new(move |b| zstd::encode(b, level).unwrap()),
            Box::new(|b, n| zstd::decode(b, n).unwrap()),
        ));
    }
    codecs.push((
        "lz4 (HDF5 framing)".into(),
        Box::new(|b| lz4::encode(b, 0).unwrap()),
        Box::new(|b, n| lz4::decode(b, n).unwrap()),
    ));
    codecs.push((
        "bzip2 9".into(),
        Box::new(|b| bzip2::encode(b, 9).unwrap()),
        Box::new(|b, n| bzip2::decode(b, n).unwrap()),
    ));
    codecs.push((
        "bzip2 9 (ours into a buffer)".into(),
        Box::new(|b| bzip2::encode(b, 9).unwrap()),
        Box::new(|b, n| {
            let mut out = vec![0u8; n];
            let k = bzip2::decode_into(b, &mut out).unwrap();
            out.truncate(k);
            out
        }),
    ));
    for (name, c) in [
        ("blosclz", Compressor::BloscLz),
        ("lz4", Compressor::Lz4),
        ("zlib", Compressor::Zlib),
        ("zstd", Compressor::Zstd),
    ] {
        for (sname, s) in [("byte", Shuffle::Byte), ("bit", Shuffle::Bit)] {
            let p = Params {
                clevel: 5,
                shuffle: s,
                typesize: ts,
                compressor: c,
                blocksize: 0,
            };
            codecs.push((
                format!("blosc {name} {sname}shuffle 5"),
                Box::new(move |b| blosc::encode(b, &p).unwrap()),
                Box::new(|b, n| blosc::decode(b, n).unwrap()),
            ));
        }
    }
    let mb = data.len() as f64 / 1e6;
    if only == "transpose" {
        // The shuffles alone, over the whole file in 64 KiB blocks.
        let n = (65536 / ts) / 8 * 8;
        let mut a = vec![0u8; n * ts];
        let mut b = vec![0u8; n * ts];
        for (name, f) in [
            (
                "bitshuffle",
                purecdf_codecs::shuffle::bitshuffle as fn(&[u8], &mut [u8], usize, usize),
            ),
            ("bitunshuffle", purecdf_codecs::shuffle::bitunshuffle),
        ] {
            let t = Instant::now();
            for block in data.chunks_exact(n * ts) {
                f(block, &mut a, ts, n);
                b[0] ^= a[0];
            }
            println!("{name:32} {:8.1} MB/s", mb / t.elapsed().as_secs_f64());
        }
        for (name, f) in [
            (
                "shuffle",
                purecdf_codecs::shuffle::shuffle as fn(&[u8], &mut [u8], usize),
            ),
            ("unshuffle", purecdf_codecs::shuffle::unshuffle),
        ] {
            let t = Instant::now();
            for block in data.chunks_exact(n * ts) {
                f(block, &mut a, ts);
                b[0] ^= a[0];
            }
            println!("{name:32} {:8.1} MB/s", mb / t.elapsed().as_secs_f64());
        }
        return;
    }
    for (name, enc, dec) in codecs {
        if !name.contains(&only) {
            continue;
        }
        let t = Instant::now();
        let parts: Vec<Vec<u8>> = data.chunks(chunk).map(&enc).collect();
        let te = t.elapsed().as_secs_f64();
        let size: usize = parts.iter().map(Vec::len).sum();
        let t = Instant::now();
        for (p, raw) in parts.iter().zip(data.chunks(chunk)) {
            let out = dec(p, raw.len());
            assert!(out == raw, "{name}: round trip");
        }
        let td = t.elapsed().as_secs_f64();
        println!(
            "{name:32} ratio {:6.3}  encode {:8.1} MB/s  decode {:8.1} MB/s",
            data.len() as f64 / size as f64,
            mb / te,
            mb / td
        );
    }
}
