//! Byte codecs for purecdf, in pure Rust, both directions, knowing nothing of HDF5 or netCDF (so
//! that HDF5 filters and Zarr codecs can share them):
//!
//! - [`blosc`]: blosc1 frames as c-blosc 1.x writes them (its `README_HEADER.rst` describes the
//!   16-byte header; internal compressors blosclz, lz4, lz4hc, zlib and zstd; byte and bit
//!   shuffle);
//! - [`lz4`]: LZ4 blocks in the framing of HDF5's LZ4 filter (registered filter id 32004);
//! - [`bitshuffle`]: the bitshuffle filter's format (filter id 32008), with or without LZ4 or
//!   zstd per block;
//! - [`lzf`]: LZF streams (filter id 32000, h5py's lightweight compressor);
//! - [`bzip2`] (filter id 307) and [`zstd`] (filter id 32015) streams.
//!
//! Every decoder takes a `max_out`: hostile input never makes it allocate more than that (plus
//! small constant slack) nor panic; output that would be larger is an error.

pub mod bitshuffle;
pub mod blosc;
mod blosclz;
pub mod buffers;
mod bunzip;
pub mod bzip2;
pub mod lz4;
pub mod lz4_block;
pub mod lzf;
pub mod shuffle;
pub mod zstd;

/// Why a codec failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodecError {
    /// The input is not a valid stream of this codec.
    Corrupt(String),
    /// The input decodes to more than the caller's `max_out` bytes.
    TooLarge(usize),
    /// A valid stream that uses a feature this build does not implement.
    Unsupported(String),
    /// Invalid encoding parameters.
    BadParams(String),
}

impl std::fmt::Display for CodecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CodecError::Corrupt(why) => write!(f, "corrupt data: {why}"),
            CodecError::TooLarge(max) => write!(f, "data decodes to more than {max} bytes"),
            CodecError::Unsupported(what) => write!(f, "unsupported: {what}"),
            CodecError::BadParams(why) => write!(f, "bad parameters: {why}"),
        }
    }
}

impl std::error::Error for CodecError {}

/// Result of a codec.
pub type Result<T> = std::result::Result<T, CodecError>;

pub(crate) fn corrupt<T>(why: impl Into<String>) -> Result<T> {
    Err(CodecError::Corrupt(why.into()))
}

/// Reads everything `r` gives, failing when it is more than `max_out` bytes; the buffer grows
/// with the data, never to more than `max_out` (plus one read's slack).
pub(crate) fn read_bounded(
    mut r: impl std::io::Read,
    max_out: usize,
    hint: usize,
) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::with_capacity(hint.min(max_out.saturating_add(1)));
    let limit = (max_out as u64).saturating_add(1);
    r.by_ref()
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|e| CodecError::Corrupt(e.to_string()))?;
    if out.len() > max_out {
        return Err(CodecError::TooLarge(max_out));
    }
    Ok(out)
}

/// Reads a big-endian u32 at `at`, if there.
pub(crate) fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// Reads a big-endian u64 at `at`, if there.
pub(crate) fn be64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(
        b.get(at..at.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// Reads a little-endian u32 at `at`, if there.
pub(crate) fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        b.get(at..at.checked_add(4)?)?.try_into().ok()?,
    ))
}

/// Checks a codec's `decode_into` on a valid stream `enc` of `raw`: into a larger buffer it
/// writes exactly `raw` and leaves the rest; into an exact one it fits; into a buffer one byte
/// short it is refused as too large.
#[cfg(test)]
pub(crate) fn check_decode_into(
    decode_into: fn(&[u8], &mut [u8]) -> Result<usize>,
    enc: &[u8],
    raw: &[u8],
) {
    let n = raw.len();
    let mut dst = vec![9u8; n + 3];
    assert_eq!(decode_into(enc, &mut dst), Ok(n));
    assert_eq!(dst[..n], *raw);
    assert_eq!(dst[n..], [9; 3]);
    assert_eq!(decode_into(enc, &mut dst[..n]), Ok(n));
    assert_eq!(dst[..n], *raw);
    assert_eq!(
        decode_into(enc, &mut dst[..n - 1]),
        Err(CodecError::TooLarge(n - 1))
    );
    assert!(decode_into(&enc[..enc.len() / 2], &mut dst).is_err());
}

#[cfg(test)]
mod tests {
    use crate::bitshuffle::Compression;
    use crate::blosc::{Compressor, Params, Shuffle};

    /// Valid streams of every codec with bytes flipped, cut or appended: every decoder returns
    /// (an error or data within its bound), never panics.
    #[test]
    fn damaged_streams_never_panic() {
        let raw: Vec<u8> = (0..6000u32).flat_map(|v| (v / 5).to_le_bytes()).collect();
        let mut streams: Vec<(usize, Vec<u8>)> = vec![
            (1, crate::lz4::encode(&raw, 5000).unwrap()),
            (2, crate::lzf::encode(&raw)),
            (3, crate::bzip2::encode(&raw, 1).unwrap()),
            (4, crate::zstd::encode(&raw, 1).unwrap()),
            (
                5,
                crate::bitshuffle::encode(&raw, 4, 0, Compression::Lz4).unwrap(),
            ),
            (
                6,
                crate::bitshuffle::encode(&raw, 4, 0, Compression::Zstd(1)).unwrap(),
            ),
        ];
        for c in [
            Compressor::BloscLz,
            Compressor::Lz4,
            Compressor::Zlib,
            Compressor::Zstd,
        ] {
            for s in [Shuffle::None, Shuffle::Byte, Shuffle::Bit] {
                let p = Params {
                    clevel: 5,
                    shuffle: s,
                    typesize: 4,
                    compressor: c,
                    blocksize: 4096,
                };
                streams.push((0, crate::blosc::encode(&raw, &p).unwrap()));
            }
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let decode = |kind: usize, b: &[u8], max: usize| -> Option<usize> {
            let r = match kind {
                0 => crate::blosc::decode(b, max),
                1 => crate::lz4::decode(b, max),
                2 => crate::lzf::decode(b, max),
                3 => crate::bzip2::decode(b, max),
                4 => crate::zstd::decode(b, max),
                5 => crate::bitshuffle::decode(b, 4, 0, Compression::Lz4, max),
                _ => crate::bitshuffle::decode(b, 4, 0, Compression::Zstd(1), max),
            };
            let r = r.ok();
            // Decoding into a buffer agrees: the same bytes, or an error where decode errs.
            let mut dst = vec![0u8; max];
            let into = match kind {
                0 => Some(crate::blosc::decode_into(b, &mut dst)),
                1 => Some(crate::lz4::decode_into(b, &mut dst)),
                3 => Some(crate::bzip2::decode_into(b, &mut dst)),
                4 => Some(crate::zstd::decode_into(b, &mut dst)),
                _ => None,
            };
            if let Some(into) = into {
                assert_eq!(into.ok().map(|n| &dst[..n]), r.as_deref(), "kind {kind}");
            }
            r.map(|v| v.len())
        };
        for (kind, s) in &streams {
            assert_eq!(decode(*kind, s, raw.len()), Some(raw.len()), "kind {kind}");
            for _ in 0..150 {
                let mut b = s.clone();
                match next() % 3 {
                    0 => {
                        for _ in 0..1 + next() % 4 {
                            let at = (next() as usize) % b.len();
                            b[at] ^= 1 << (next() % 8);
                        }
                    }
                    1 => b.truncate((next() as usize) % b.len()),
                    _ => b.extend((0..next() % 64).map(|_| next() as u8)),
                }
                let max = raw.len() / (1 + (next() % 2) as usize);
                if let Some(n) = decode(*kind, &b, max) {
                    assert!(n <= max);
                }
            }
        }
    }
}
