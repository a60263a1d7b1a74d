//! Zstandard frames (RFC 8878; HDF5 registered filter id 32015 stores each chunk as one frame,
//! client data the compression level). By default both directions are pure Rust
//! (`structured-zstd`, which encodes every level of the C library, negative ones included, with
//! the C library's frames and sizes); the non-default `zstd-c` feature uses the C library instead.
//! Both are wrapped so that a panic inside the codec on a hostile frame becomes an error.

use crate::{read_bounded, CodecError, Result};

#[cfg(feature = "zstd-c")]
thread_local! {
    /// Each thread's compression context and its level, kept from chunk to chunk.
    static CCTX: std::cell::RefCell<Option<(i32, ::zstd::bulk::Compressor<'static>)>> =
        const { std::cell::RefCell::new(None) };
}

/// Decodes the zstd frames in `input` (one or more, concatenated) to at most `max_out` bytes.
pub fn decode(input: &[u8], max_out: usize) -> Result<Vec<u8>> {
    if input.is_empty() {
        return Err(CodecError::Corrupt("empty zstd stream".into()));
    }
    let hint = input.len().saturating_mul(4).saturating_add(4096);
    #[cfg(feature = "zstd-c")]
    {
        let dec = ::zstd::stream::read::Decoder::with_buffer(input)
            .map_err(|e| CodecError::Corrupt(format!("zstd: {e}")))?;
        read_bounded(dec, max_out, hint)
    }
    #[cfg(not(feature = "zstd-c"))]
    {
        let mut rest = input;
        let mut out = Vec::new();
        while !rest.is_empty() {
            let before = rest.len();
            let dec = structured_zstd::decoding::StreamingDecoder::new(&mut rest);
            let part = caught(|| read_bounded(dec, max_out - out.len(), hint))?;
            if rest.len() == before {
                return Err(CodecError::Corrupt(
                    "zstd: a frame that reads nothing".into(),
                ));
            }
            if out.is_empty() {
                out = part;
            } else {
                out.extend_from_slice(&part);
            }
        }
        Ok(out)
    }
}

/// zstd's `ZSTD_COMPRESSBOUND`: the largest frame `n` bytes encode to.
#[cfg(not(feature = "zstd-c"))]
fn compress_bound(n: usize) -> usize {
    let small = if n < 128 << 10 {
        ((128 << 10) - n) >> 11
    } else {
        0
    };
    n + (n >> 8) + small
}

#[cfg(not(feature = "zstd-c"))]
thread_local! {
    /// Each thread's frame decoder, kept with its buffers from chunk to chunk.
    static DECODER: std::cell::RefCell<Option<structured_zstd::decoding::FrameDecoder>> =
        const { std::cell::RefCell::new(None) };
}

#[cfg(feature = "zstd-c")]
thread_local! {
    /// Each thread's decompression context, kept from chunk to chunk.
    static DCTX: std::cell::RefCell<Option<::zstd::zstd_safe::DCtx<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// Decodes the zstd frames in `input` (one or more, concatenated) into the start of `dst`;
/// returns the decoded size. Frames that decode to more than `dst.len()` bytes are an error
/// (`dst` may then have been written).
pub fn decode_into(input: &[u8], dst: &mut [u8]) -> Result<usize> {
    if input.is_empty() {
        return Err(CodecError::Corrupt("empty zstd stream".into()));
    }
    #[cfg(feature = "zstd-c")]
    {
        use ::zstd::zstd_safe::{get_error_name, DCtx};
        let cap = dst.len();
        let mut run = |d: &mut DCtx<'static>| {
            d.decompress(dst, input)
                .map_err(|code| match get_error_name(code) {
                    "Destination buffer is too small" => CodecError::TooLarge(cap),
                    why => CodecError::Corrupt(format!("zstd: {why}")),
                })
        };
        DCTX.with(|d| match d.try_borrow_mut() {
            Ok(mut d) => run(d.get_or_insert_with(DCtx::create)),
            Err(_) => run(&mut DCtx::create()),
        })
    }
    #[cfg(not(feature = "zstd-c"))]
    {
        let cap = dst.len();
        use structured_zstd::decoding::{errors::FrameDecoderError, FrameDecoder};
        let mut run = |d: &mut FrameDecoder| {
            caught(|| {
                d.decode_all(input, dst).map_err(|e| match e {
                    FrameDecoderError::TargetTooSmall => CodecError::TooLarge(cap),
                    e => CodecError::Corrupt(format!("zstd: {e}")),
                })
            })
        };
        DECODER.with(|d| match d.try_borrow_mut() {
            // A decoder that panicked is dropped rather than reused.
            Ok(mut slot) => {
                let out = run(slot.get_or_insert_with(FrameDecoder::new));
                if out.is_err() {
                    *slot = None;
                }
                out
            }
            Err(_) => run(&mut FrameDecoder::new()),
        })
    }
}

/// Encodes `input` as one zstd frame. `level` is zstd's (1-22, negative for the fast levels,
/// 0 for the default, 3).
pub fn encode(input: &[u8], level: i32) -> Result<Vec<u8>> {
    #[cfg(feature = "zstd-c")]
    {
        // Each thread keeps its compression context from chunk to chunk (building one per
        // chunk cost a sixth of a write); the output is the same.
        let err = |e: std::io::Error| CodecError::Corrupt(e.to_string());
        CCTX.with(|cell| {
            let mut slot = cell.borrow_mut();
            match slot.as_mut() {
                Some((l, c)) if *l == level => c.compress(input).map_err(err),
                _ => {
                    let mut c = ::zstd::bulk::Compressor::new(level).map_err(err)?;
                    let out = c.compress(input).map_err(err);
                    *slot = Some((level, c));
                    out
                }
            }
        })
    }
    #[cfg(not(feature = "zstd-c"))]
    {
        use structured_zstd::encoding::{CompressionLevel, FrameCompressor};
        let level = level.clamp(CompressionLevel::MIN_LEVEL, CompressionLevel::MAX_LEVEL);
        // Each thread keeps its compressor (and its tables) from chunk to chunk.
        let frame = PURE_CCTX.with(|cell| {
            let mut slot = cell.borrow_mut();
            if !matches!(slot.as_ref(), Some((l, _)) if *l == level) {
                *slot = Some((
                    level,
                    FrameCompressor::new(CompressionLevel::from_level(level)),
                ));
            }
            // Into a kept buffer with room for the whole frame: the encoder never regrows it
            // (it reserves one block at a time), and a buffer given back is reused.
            let mut frame = crate::buffers::take(compress_bound(input.len()));
            let out = match slot.as_mut() {
                Some((_, c)) => caught(|| {
                    c.compress_independent_frame_into(input, &mut frame);
                    Ok(frame)
                }),
                None => unreachable!("set just above"),
            };
            if out.is_err() {
                *slot = None;
            }
            out
        })?;
        Ok(with_content_size(frame, input.len() as u64))
    }
}

#[cfg(not(feature = "zstd-c"))]
thread_local! {
    /// Each thread's pure-Rust compressor and its level, kept from chunk to chunk.
    static PURE_CCTX: std::cell::RefCell<Option<(i32, structured_zstd::encoding::FrameCompressor)>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs a pure-Rust codec call, turning a panic inside it into an error (the codec is third-party
/// code; a hostile frame must give an error, never bring the reader down).
#[cfg(not(feature = "zstd-c"))]
fn caught<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err(CodecError::Corrupt("zstd: the decoder failed".into())))
}

/// Adds the frame content size to a frame header that lacks it (pure-Rust encoders may leave it out;
/// HDF5's zstd filter sizes its output buffer from it, RFC 8878 section 3.1.1.1.1): the
/// descriptor's size flag becomes 3 and an 8-byte little-endian size follows the window
/// descriptor. Frames of another shape are returned as they are.
#[cfg(not(feature = "zstd-c"))]
fn with_content_size(mut frame: Vec<u8>, size: u64) -> Vec<u8> {
    const MAGIC: [u8; 4] = 0xFD2F_B528u32.to_le_bytes();
    match frame.get(..5) {
        // No content size, not single-segment, no dictionary id: magic, descriptor, window.
        Some(h) if h[..4] == MAGIC && h[4] & 0xE3 == 0 && frame.len() > 6 => {
            frame[4] |= 0xC0;
            frame.splice(6..6, size.to_le_bytes());
            frame
        }
        _ => frame,
    }
}

/// Whether [`encode`] honours compression levels above the fastest: always, now that the pure-Rust
/// encoder has every level too.
pub const ENCODES_ALL_LEVELS: bool = true;

#[cfg(test)]
mod tests {

    /// The per-thread context gives what a fresh one gives, level changes included.
    #[cfg(feature = "zstd-c")]
    #[test]
    fn kept_context_matches_a_fresh_one() {
        let data: Vec<u8> = (0..100_000u32)
            .flat_map(|i| (i / 7).to_le_bytes())
            .collect();
        for level in [3, 3, 9, 1, 3] {
            let fresh = ::zstd::bulk::compress(&data, level).unwrap();
            assert_eq!(super::encode(&data, level).unwrap(), fresh, "level {level}");
        }
    }

    #[test]
    fn round_trip_and_bounds() {
        let raw: Vec<u8> = (0..100_000u32)
            .flat_map(|v| (v / 7).to_le_bytes())
            .collect();
        let enc = super::encode(&raw, 3).unwrap();
        assert!(enc.len() < raw.len() / 2);
        assert_eq!(super::decode(&enc, raw.len()).unwrap(), raw);
        assert!(super::decode(&enc, raw.len() - 1).is_err());
        assert!(super::decode(&enc[..enc.len() / 2], raw.len()).is_err());
        assert!(super::decode(b"not zstd", 100).is_err());
        crate::check_decode_into(super::decode_into, &enc, &raw);
        let mut dst = vec![0u8; 100];
        assert!(super::decode_into(b"not zstd", &mut dst).is_err());
        assert!(super::decode_into(b"", &mut dst).is_err());
        let mut two = enc.clone();
        two.extend_from_slice(&enc);
        assert_eq!(
            super::decode(&two, 2 * raw.len()).unwrap().len(),
            2 * raw.len()
        );
    }
}
