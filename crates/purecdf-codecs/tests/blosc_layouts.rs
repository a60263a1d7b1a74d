//! Frames we encode have the block size and stream splitting that c-blosc 1.21 chooses for
//! the same compressor, level, type size and buffer size (its `compute_blocksize` and, in its
//! default forward-compatible split mode, `split_block`). The expected values in
//! `data/blosc_layouts.txt` are the headers numcodecs' c-blosc wrote for byte-shuffled buffers.

use purecdf_codecs::blosc::{self, Compressor, Params, Shuffle};

#[test]
fn block_sizes_and_splits_match_c_blosc() {
    let table = include_str!("data/blosc_layouts.txt");
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let compressor = match f[0] {
            "blosclz" => Compressor::BloscLz,
            "lz4" => Compressor::Lz4,
            "lz4hc" => Compressor::Lz4Hc,
            "zlib" => Compressor::Zlib,
            "zstd" => Compressor::Zstd,
            other => panic!("compressor {other}"),
        };
        let num = |i: usize| f[i].parse::<usize>().unwrap();
        let (clevel, typesize, nbytes, flags, blocksize) = (num(1), num(2), num(3), num(4), num(5));
        let data: Vec<u8> = (0..nbytes).map(|i| (i % 251) as u8).collect();
        let p = Params {
            clevel: clevel as u8,
            shuffle: Shuffle::Byte,
            typesize,
            compressor,
            blocksize: 0,
        };
        let frame = blosc::encode(&data, &p).unwrap();
        let ours_bs = u32::from_le_bytes(frame[8..12].try_into().unwrap()) as usize;
        // Whether a frame ends up a plain copy depends on how well each compressor does; the
        // block size, shuffle, split and compressor bits do not.
        let ours_flags = frame[2] & !0x2;
        assert_eq!(
            (ours_bs, usize::from(ours_flags)),
            (blocksize, flags & !0x2),
            "{line}"
        );
        assert_eq!(blosc::decode(&frame, nbytes).unwrap(), data, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 960);
}
