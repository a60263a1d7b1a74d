//! Fuzzes purecdf-codecs' decoders (blosc1 frames, HDF5-framed LZ4, raw LZ4 blocks, bitshuffle with none/LZ4/
//! zstd, LZF, bzip2 (ours against the reference), zstd) on arbitrary bytes: the first byte picks the codec and a bound, the
//! rest is the stream. Errors are fine; panics, hangs and output beyond `max_out` are not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use purecdf_codecs::bitshuffle::Compression;
use purecdf_codecs::{bitshuffle, blosc, bzip2, lz4, lz4_block, lzf, zstd};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, input)) = data.split_first() else {
        return;
    };
    // Bounds from tiny to 1 MiB, so that both "too large" and real decoding are reached.
    let max_out = [0usize, 64, 4096, 1 << 20][(sel >> 4) as usize & 3];
    let elem = [1usize, 2, 4, 8][(sel >> 6) as usize];
    let out = match sel & 15 {
        0 => blosc::decode(input, max_out),
        1 => lz4::decode(input, max_out),
        2 => bitshuffle::decode(input, elem, 0, Compression::None, max_out),
        3 => bitshuffle::decode(input, elem, 0, Compression::Lz4, max_out),
        4 => bitshuffle::decode(input, elem, 0, Compression::Zstd(3), max_out),
        5 => lzf::decode(input, max_out),
        6 => bzip2::decode(input, max_out),
        7 => zstd::decode(input, max_out),
        8 => bitshuffle::decode(input, elem, 8, Compression::None, max_out),
        9 => {
            // A raw LZ4 block into a buffer of `max_out` bytes.
            let mut buf = vec![0u8; max_out];
            if let Some(n) = lz4_block::decode_block_into(input, &mut buf) {
                assert!(n <= max_out);
            }
            return;
        }
        10 => {
            // zstd frames into a buffer of `max_out` bytes (the path reads of known-size chunks
            // take).
            let mut buf = vec![0u8; max_out];
            if let Ok(n) = zstd::decode_into(input, &mut buf) {
                assert!(n <= max_out);
            }
            return;
        }
        11 => {
            // bzip2 into a buffer of `max_out` bytes: our decoder, checked against the
            // reference (libbz2-rs-sys): whatever ours accepts, the reference decodes the same.
            let mut ours = vec![0u8; max_out];
            if let Ok(n) = bzip2::decode_into(input, &mut ours) {
                assert!(n <= max_out);
                let mut theirs = vec![0u8; max_out];
                let m = bzip2::decode_into_reference(input, &mut theirs);
                assert_eq!(m, Ok(n), "the reference refuses what ours decodes");
                assert!(ours[..n] == theirs[..n], "ours and the reference differ");
            }
            return;
        }
        _ => return,
    };
    if let Ok(v) = out {
        assert!(v.len() <= max_out);
    }
});
