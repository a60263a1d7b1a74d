//! Zstandard frames (RFC 8878; HDF5 registered filter id 32015 stores each chunk as one frame,
//! client data the compression level). By default both directions are pure Rust (ruzstd), whose
//! encoder offers only its fastest level (about zstd's level 1) whatever level is asked; with the
//! non-default `zstd-c` feature the C library encodes at the level asked and decodes (several
//! times faster than ruzstd on frames with Huffman-coded literals, as zstd's own levels write).

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
            let dec = ruzstd::decoding::StreamingDecoder::new(&mut rest)
                .map_err(|e| CodecError::Corrupt(format!("zstd: {e}")))?;
            let part = read_bounded(dec, max_out - out.len(), hint)?;
            if out.is_empty() {
                out = part;
            } else {
                out.extend_from_slice(&part);
            }
        }
        Ok(out)
    }
}

#[cfg(not(feature = "zstd-c"))]
thread_local! {
    /// Each thread's frame decoder, kept with its buffers from chunk to chunk.
    static DECODER: std::cell::RefCell<Option<ruzstd::decoding::FrameDecoder>> =
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
        let mut run = |d: &mut ruzstd::decoding::FrameDecoder| {
            d.decode_all(input, dst).map_err(|e| match e {
                ruzstd::decoding::errors::FrameDecoderError::TargetTooSmall => {
                    CodecError::TooLarge(cap)
                }
                e => CodecError::Corrupt(format!("zstd: {e}")),
            })
        };
        DECODER.with(|d| match d.try_borrow_mut() {
            Ok(mut d) => run(d.get_or_insert_with(ruzstd::decoding::FrameDecoder::new)),
            Err(_) => run(&mut ruzstd::decoding::FrameDecoder::new()),
        })
    }
}

/// Encodes `input` as one zstd frame. `level` is zstd's (1-22, negative for the fast levels);
/// without the `zstd-c` feature every level encodes as ruzstd's fastest.
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
        let _ = level;
        let frame =
            ruzstd::encoding::compress_to_vec(input, ruzstd::encoding::CompressionLevel::Fastest);
        Ok(with_content_size(frame, input.len() as u64))
    }
}

/// Adds the frame content size to a frame header that lacks it (ruzstd's encoder leaves it out;
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

/// Whether [`encode`] honours compression levels above the fastest (the `zstd-c` feature).
pub const ENCODES_ALL_LEVELS: bool = cfg!(feature = "zstd-c");

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
