//! bzip2 streams (HDF5 registered filter id 307, as PyTables and hdf5plugin write it: the chunk
//! is one bzip2 stream; the client data holds the block size 1-9, in units of 100 kB) through the
//! `bzip2` crate with its pure-Rust backend (libbz2-rs-sys), except for decoding into a buffer of
//! known size (how chunks are read), which our faster decoder does.

use crate::{corrupt, read_bounded, CodecError, Result};

/// Decodes a bzip2 stream (and any streams concatenated after it) of at most `max_out` bytes.
pub fn decode(input: &[u8], max_out: usize) -> Result<Vec<u8>> {
    let hint = input.len().saturating_mul(4).saturating_add(4096);
    read_bounded(::bzip2::read::MultiBzDecoder::new(input), max_out, hint)
}

/// Decodes a bzip2 stream (and any streams concatenated after it) into the start of `dst`;
/// returns the decoded size. Streams that decode to more than `dst.len()` bytes are an error
/// (`dst` may then have been written).
///
/// Our own decoder (`bunzip`) does the work; a stream it does not take (randomised blocks,
/// corrupt data) goes to libbz2-rs-sys, whose verdict stands.
pub fn decode_into(input: &[u8], dst: &mut [u8]) -> Result<usize> {
    match crate::bunzip::decode_into(input, dst) {
        Ok(n) => Ok(n),
        Err(crate::bunzip::Fail::TooLarge) => Err(CodecError::TooLarge(dst.len())),
        Err(_) => decode_into_reference(input, dst),
    }
}

/// [`decode_into`] through libbz2-rs-sys alone (the reference the fuzzer compares ours with).
#[doc(hidden)]
pub fn decode_into_reference(input: &[u8], dst: &mut [u8]) -> Result<usize> {
    let bad = |e: ::bzip2::Error| CodecError::Corrupt(format!("bzip2: {e}"));
    let mut rest = input;
    let mut done = 0usize;
    loop {
        let mut d = ::bzip2::Decompress::new(false);
        loop {
            let (was_in, was_out) = (d.total_in(), d.total_out());
            let status = d.decompress(rest, &mut dst[done..]).map_err(bad)?;
            rest = &rest[(d.total_in() - was_in) as usize..];
            done += (d.total_out() - was_out) as usize;
            if status == ::bzip2::Status::StreamEnd {
                break;
            }
            if d.total_in() == was_in && d.total_out() == was_out {
                if done < dst.len() {
                    return corrupt("bzip2: truncated stream");
                }
                // The output is full: one more byte means the stream holds more.
                let mut probe = [0u8; 1];
                match d.decompress(rest, &mut probe).map_err(bad)? {
                    ::bzip2::Status::StreamEnd if d.total_out() == was_out => break,
                    _ if d.total_out() > was_out => return Err(CodecError::TooLarge(dst.len())),
                    _ => return corrupt("bzip2: truncated stream"),
                }
            }
        }
        if rest.is_empty() {
            return Ok(done);
        }
    }
}

/// Encodes `input` as one bzip2 stream with block size `level` (1-9, 100 kB units).
pub fn encode(input: &[u8], level: u32) -> Result<Vec<u8>> {
    use std::io::Write;
    if !(1..=9).contains(&level) {
        return Err(CodecError::BadParams(format!("bzip2 block size {level}")));
    }
    let mut e = ::bzip2::write::BzEncoder::new(
        Vec::with_capacity(input.len() / 2 + 64),
        ::bzip2::Compression::new(level),
    );
    e.write_all(input)
        .and_then(|_| e.finish())
        .map_err(|e| CodecError::Corrupt(e.to_string()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trip_and_bounds() {
        let raw: Vec<u8> = (0..100_000u32)
            .flat_map(|v| (v / 7).to_le_bytes())
            .collect();
        let enc = super::encode(&raw, 9).unwrap();
        assert!(enc.len() < raw.len() / 4);
        assert_eq!(super::decode(&enc, raw.len()).unwrap(), raw);
        assert!(super::decode(&enc, raw.len() - 1).is_err());
        assert!(super::decode(&enc[..enc.len() / 2], raw.len()).is_err());
        assert!(super::decode(b"not bzip2", 100).is_err());
        crate::check_decode_into(super::decode_into, &enc, &raw);
        let mut two = enc.clone();
        two.extend_from_slice(&enc);
        let mut both = vec![0u8; 2 * raw.len()];
        assert_eq!(super::decode_into(&two, &mut both), Ok(2 * raw.len()));
        assert_eq!(both[raw.len()..], raw);
    }
}
