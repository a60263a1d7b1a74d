//! The deflate filter (id 1): zlib streams; client data holds the compression level.

use super::{Filter, FilterError, DEFLATE};

#[cfg(feature = "deflate")]
struct Deflate {
    level: u32,
}

#[cfg(feature = "deflate")]
pub(super) fn build(client_data: &[u32]) -> Result<Box<dyn Filter>, FilterError> {
    let level = client_data.first().copied().unwrap_or(6);
    if level > 9 {
        return Err(FilterError::BadParams(DEFLATE));
    }
    Ok(Box::new(Deflate { level }))
}

/// Inflates the zlib stream `input` into `dst` with a reused inflater, and tells whether it
/// decoded to exactly `dst.len()` bytes. Writes never leave `dst`; anything else (a corrupt,
/// truncated, short or over-long stream) returns false and the caller asks [`Deflate::decode`]
/// for the verdict.
#[cfg(feature = "deflate")]
pub(super) fn inflate_into(d: &mut flate2::Decompress, input: &[u8], dst: &mut [u8]) -> bool {
    use flate2::{FlushDecompress, Status};
    d.reset(true);
    matches!(
        d.decompress(input, dst, FlushDecompress::Finish),
        Ok(Status::StreamEnd)
    ) && d.total_out() == dst.len() as u64
}

/// Whether the fast path can use these parameters (the ones [`build`] accepts).
#[cfg(feature = "deflate")]
pub(super) fn params_ok(client_data: &[u32]) -> bool {
    client_data.first().copied().unwrap_or(6) <= 9
}

#[cfg(not(feature = "deflate"))]
pub(super) fn build(_client_data: &[u32]) -> Result<Box<dyn Filter>, FilterError> {
    Err(FilterError::NotBuilt(DEFLATE, "deflate"))
}

#[cfg(feature = "deflate")]
impl Filter for Deflate {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        use flate2::{Decompress, FlushDecompress, Status};
        let mut d = Decompress::new(true);
        // One byte of room past the limit tells an over-long stream from one that fits exactly.
        let limit = max_out.saturating_add(1);
        // Start from a guess based on the input and grow as needed (bounded by the limit), so a
        // lying limit cannot make us reserve memory the data never fills.
        let mut out =
            Vec::with_capacity(limit.min(input.len().saturating_mul(4).saturating_add(4096)));
        loop {
            let (in_before, out_before) = (d.total_in(), out.len());
            let consumed = usize::try_from(in_before)
                .unwrap_or(usize::MAX)
                .min(input.len());
            if out.len() == out.capacity() {
                out.reserve((limit - out.len()).min(out.capacity().max(1 << 16)));
            }
            let status = d
                .decompress_vec(&input[consumed..], &mut out, FlushDecompress::Finish)
                .map_err(|e| FilterError::Corrupt(DEFLATE, e.to_string()))?;
            if out.len() > max_out {
                return Err(FilterError::Corrupt(
                    DEFLATE,
                    format!("inflates beyond the expected {max_out} bytes"),
                ));
            }
            match status {
                Status::StreamEnd => return Ok(out),
                _ if d.total_in() == in_before && out.len() == out_before => {
                    return Err(FilterError::Corrupt(
                        DEFLATE,
                        "truncated zlib stream".into(),
                    ));
                }
                _ => {}
            }
        }
    }

    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.encode_slice(&input)
    }

    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        use flate2::{Compress, Compression, FlushCompress, Status};
        let mut c = Compress::new(Compression::new(self.level), true);
        // Straight into one buffer of zlib's worst-case size (stored blocks plus the header and
        // checksum), so the stream ends in the first call.
        let n = input.len();
        let mut out = Vec::with_capacity(n + (n >> 12) + (n >> 14) + (n >> 25) + 64);
        loop {
            let consumed = usize::try_from(c.total_in()).unwrap_or(n).min(n);
            let status = c
                .compress_vec(&input[consumed..], &mut out, FlushCompress::Finish)
                .map_err(|e| FilterError::Corrupt(DEFLATE, e.to_string()))?;
            match status {
                Status::StreamEnd => return Ok(out),
                _ => out.reserve(out.capacity().max(4096)),
            }
        }
    }
}
