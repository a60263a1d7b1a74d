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
pub mod bzip2;
pub mod lz4;
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
