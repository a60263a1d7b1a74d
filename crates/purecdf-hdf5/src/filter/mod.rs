//! HDF5 filters (HDF5 File Format Specification v3.0, section IV.A.2.l lists the ids): a registry
//! that builds a [`Filter`] from a filter id and its client data, and the pipeline that undoes
//! (and later applies) them in order, honouring each chunk's filter mask and optional filters.
//!
//! Built in: deflate (1, feature `deflate`), shuffle (2), fletcher32 (3), szip (4, decode only),
//! n-bit (5) and scale-offset (6, D-scale floats and integers; E-scale is refused as HDF5 refuses
//! it); from the filter registry, on the pure-Rust codecs of `purecdf-codecs`: bzip2 (307), LZF
//! (32000), blosc (32001), LZ4 (32004), bitshuffle (32008) and zstd (32015). Users add filters
//! for other ids with [`register`] (see the [`registry`] module for what they must honour).
//! Ids neither built in nor registered give [`FilterError::Unknown`]; known ids whose feature is
//! off give [`FilterError::NotBuilt`].

mod codecs;
mod deflate;
mod fletcher32;
mod nbit;
pub mod registry;
mod scaleoffset;
mod shuffle;
mod szip;

use crate::format::messages::filter_pipeline::{FilterDesc, FilterPipeline};

pub use codecs::set_local;
pub use registry::{
    is_registered, register, registered, unregister, FilterFactory, RegisterError, FIRST_USER_ID,
};

/// Filter id of deflate (zlib).
pub const DEFLATE: u16 = 1;
/// Filter id of the byte shuffle.
pub const SHUFFLE: u16 = 2;
/// Filter id of the Fletcher-32 checksum.
pub const FLETCHER32: u16 = 3;
/// Filter id of szip.
pub const SZIP: u16 = 4;
/// Filter id of n-bit packing.
pub const NBIT: u16 = 5;
/// Filter id of scale-offset.
pub const SCALEOFFSET: u16 = 6;
/// Filter id of bzip2 (registered by PyTables).
pub const BZIP2: u16 = 307;
/// Filter id of LZF (registered by h5py).
pub const LZF: u16 = 32000;
/// Filter id of blosc (registered by PyTables).
pub const BLOSC: u16 = 32001;
/// Filter id of LZ4 (HDF5's LZ4 filter).
pub const LZ4: u16 = 32004;
/// Filter id of bitshuffle.
pub const BITSHUFFLE: u16 = 32008;
/// Filter id of zstd.
pub const ZSTD: u16 = 32015;

/// Why a filter failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterError {
    /// No implementation is registered for this id.
    Unknown(u16),
    /// The filter exists but its cargo feature is off.
    NotBuilt(u16, &'static str),
    /// Invalid parameters for the filter.
    BadParams(u16),
    /// The data could not be decoded (corrupt, or larger than the expected size).
    Corrupt(u16, String),
    /// A checksum did not match.
    Checksum(u16),
}

impl std::fmt::Display for FilterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FilterError::Unknown(id) => write!(f, "filter {id} is not available"),
            FilterError::NotBuilt(id, feat) => write!(f, "filter {id} needs the `{feat}` feature"),
            FilterError::BadParams(id) => write!(f, "filter {id}: bad parameters"),
            FilterError::Corrupt(id, why) => write!(f, "filter {id}: {why}"),
            FilterError::Checksum(id) => write!(f, "filter {id}: checksum mismatch"),
        }
    }
}

impl std::error::Error for FilterError {}

/// One filter: decodes (on read) and encodes (on write) a chunk.
pub trait Filter: Send + Sync {
    /// Undoes the filter. `max_out` bounds the output (the chunk's unfiltered size), guarding
    /// against decompression bombs.
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError>;
    /// Applies the filter.
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError>;
    /// Applies the filter to borrowed data (filters that build a new buffer anyway need no
    /// copy of their input).
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        self.encode(input.to_vec())
    }
    /// Undoes the filter straight into `dst`: true when `input` decoded to exactly
    /// `dst.len()` bytes; false when it did not (corrupt, another size) or the filter has no
    /// such path, leaving the contents of `dst` unspecified and the verdict to [`Filter::decode`].
    fn decode_into(&self, input: &[u8], dst: &mut [u8]) -> bool {
        let _ = (input, dst);
        false
    }
}

/// True when this build can decode filter `id`, built in or registered (what netcdf-c asks HDF5
/// with `H5Zfilter_avail` before reading a variable).
pub fn is_available(id: u16) -> bool {
    builtin_available(id) || registry::is_registered(id)
}

/// True when `id` is the id of a built-in filter, whether or not its cargo feature is on.
pub fn is_builtin(id: u16) -> bool {
    builtin_available(id) || id == DEFLATE
}

fn builtin_available(id: u16) -> bool {
    matches!(
        id,
        SHUFFLE
            | FLETCHER32
            | SZIP
            | NBIT
            | SCALEOFFSET
            | BZIP2
            | LZF
            | BLOSC
            | LZ4
            | BITSHUFFLE
            | ZSTD
    ) || (id == DEFLATE && cfg!(feature = "deflate"))
}

/// Builds the filter for an id and its client data: a built-in filter, or else the one
/// [`register`]ed for the id.
pub fn build(
    id: u16,
    client_data: &[u32],
    element_size: usize,
) -> Result<Box<dyn Filter>, FilterError> {
    match id {
        DEFLATE => deflate::build(client_data),
        SHUFFLE => {
            let size = client_data.first().map_or(element_size, |s| *s as usize);
            Ok(Box::new(shuffle::Shuffle {
                element_size: size.max(1),
            }))
        }
        FLETCHER32 => Ok(Box::new(fletcher32::Fletcher32)),
        SZIP => szip::build(client_data),
        NBIT => nbit::build(client_data),
        SCALEOFFSET => scaleoffset::build(client_data),
        BZIP2 | LZF | BLOSC | LZ4 | BITSHUFFLE | ZSTD => {
            codecs::build(id, client_data, element_size)
        }
        other => registry::build(other, client_data, element_size)
            .unwrap_or(Err(FilterError::Unknown(other))),
    }
}

/// Undoes a pipeline on one chunk: filters in reverse order, skipping those set in `mask`.
/// Optional filters that are unavailable are skipped (their bit would be set in the mask anyway).
pub fn decode_chunk(
    pipeline: &FilterPipeline,
    mask: u32,
    mut data: Vec<u8>,
    max_out: usize,
    element_size: usize,
) -> Result<Vec<u8>, FilterError> {
    // Intermediate stages may be a little larger than the chunk (a checksum appended per filter).
    let slack = max_out.saturating_add(4 * pipeline.filters.len());
    for (i, f) in pipeline.filters.iter().enumerate().rev() {
        if i < 32 && mask & (1 << i) != 0 {
            continue;
        }
        data = decode_one(f, data, slack, element_size)?;
    }
    if data.len() > max_out {
        return Err(FilterError::Corrupt(
            pipeline.filters.first().map_or(0, |f| f.id),
            format!("chunk decodes to {} bytes, more than {max_out}", data.len()),
        ));
    }
    Ok(data)
}

/// Buffers and inflater state that one thread reuses from chunk to chunk, so that decoding a
/// chunk allocates nothing once the first chunk has sized them.
#[derive(Default)]
pub(crate) struct Scratch {
    /// The stored (filtered) bytes of the chunk being decoded; the caller fills it.
    pub(crate) raw: Vec<u8>,
    /// The output of the decompressing stage when a shuffle follows it.
    stage: Vec<u8>,
    #[cfg(feature = "deflate")]
    inflater: Option<flate2::Decompress>,
}

/// Undoes the common pipelines (Fletcher-32, then one decompressing filter, then the shuffle, in
/// the order HDF5 applies them: checksum last, shuffle first, any of them absent) on
/// `scratch.raw` straight into `dst`: the decompressing filter (deflate, bzip2, zstd, LZ4 or
/// blosc, which unshuffles its own blocks) writes into `dst`, or into `scratch.stage` when a
/// shuffle follows, fused with the write to `dst`. Returns `Ok(true)` when the chunk decoded to
/// exactly `dst.len()` bytes, `Ok(false)` otherwise: a pipeline this path does not handle, or
/// data that is corrupt or not of the expected size. After `Ok(false)` the contents of `dst`
/// are unspecified and the caller decodes with [`decode_chunk`], which gives the verdict (the
/// error, or a short chunk). Every write stays inside `dst` and the scratch buffers grow to at
/// most `dst.len()`.
pub(crate) fn decode_chunk_into(
    pipeline: &FilterPipeline,
    mask: u32,
    scratch: &mut Scratch,
    dst: &mut [u8],
    element_size: usize,
) -> Result<bool, FilterError> {
    let mut stages = pipeline
        .filters
        .iter()
        .enumerate()
        .rev()
        .filter(|(i, _)| *i >= 32 || mask & (1 << i) == 0)
        .map(|(_, f)| f)
        .peekable();
    let Scratch {
        raw,
        stage,
        #[cfg(feature = "deflate")]
        inflater,
    } = scratch;
    let mut input: &[u8] = raw;
    if stages.peek().is_some_and(|f| f.id == FLETCHER32) {
        stages.next();
        match fletcher32::verified_len(input) {
            Some(n) => input = &input[..n],
            None => return Ok(false),
        }
    }
    let first = stages.next();
    let second = stages.next();
    if stages.next().is_some() {
        return Ok(false);
    }
    let shuffle_size = |f: &FilterDesc| {
        f.client_data
            .first()
            .map_or(element_size, |s| *s as usize)
            .max(1)
    };
    // One decompressing stage into `out`, true when it gave exactly `out.len()` bytes.
    // (Only the inflater is borrowed mutably, and only with deflate.)
    #[cfg_attr(not(feature = "deflate"), allow(unused_mut))]
    let mut decompress = |f: &FilterDesc, out: &mut [u8]| -> bool {
        #[cfg(feature = "deflate")]
        if f.id == DEFLATE {
            let d = inflater.get_or_insert_with(|| flate2::Decompress::new(true));
            return deflate::params_ok(&f.client_data) && deflate::inflate_into(d, input, out);
        }
        f.id != SHUFFLE
            && build(f.id, &f.client_data, element_size)
                .is_ok_and(|flt| flt.decode_into(input, out))
    };
    match (first, second) {
        (None, _) if input.len() == dst.len() => dst.copy_from_slice(input),
        (Some(f), None) if f.id == SHUFFLE && input.len() == dst.len() => {
            shuffle::unshuffle_into(input, dst, shuffle_size(f))
        }
        (Some(f), None) => return Ok(decompress(f, dst)),
        (Some(f), Some(g)) if g.id == SHUFFLE => {
            stage.resize(dst.len(), 0);
            if !decompress(f, stage) {
                return Ok(false);
            }
            shuffle::unshuffle_into(stage, dst, shuffle_size(g));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn decode_one(
    f: &FilterDesc,
    data: Vec<u8>,
    max_out: usize,
    element_size: usize,
) -> Result<Vec<u8>, FilterError> {
    let filter = build(f.id, &f.client_data, element_size)?;
    filter.decode(data, max_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipeline_round_trip_and_mask() {
        let pipeline = FilterPipeline {
            filters: vec![
                FilterDesc {
                    id: FLETCHER32,
                    name: None,
                    flags: 0,
                    client_data: vec![],
                },
                FilterDesc {
                    id: SHUFFLE,
                    name: None,
                    flags: 0,
                    client_data: vec![4],
                },
                FilterDesc {
                    id: DEFLATE,
                    name: None,
                    flags: 0,
                    client_data: vec![6],
                },
            ],
        };
        let raw: Vec<u8> = (0..4000u32).flat_map(|v| v.to_le_bytes()).collect();
        let mut enc = raw.clone();
        for f in &pipeline.filters {
            enc = build(f.id, &f.client_data, 4).unwrap().encode(enc).unwrap();
        }
        assert!(enc.len() < raw.len());
        assert_eq!(
            decode_chunk(&pipeline, 0, enc.clone(), raw.len(), 4).unwrap(),
            raw
        );
        // A corrupted byte is caught (by the checksum, or by inflate).
        let mut bad = enc.clone();
        bad[10] ^= 1;
        assert!(decode_chunk(&pipeline, 0, bad, raw.len(), 4).is_err());
        // Output larger than the expected chunk is refused.
        assert!(decode_chunk(&pipeline, 0, enc, raw.len() - 1, 4).is_err());
        assert_eq!(
            build(32099, &[], 4).err(),
            Some(FilterError::Unknown(32099))
        );
    }

    fn pipeline(ids: &[u16]) -> FilterPipeline {
        FilterPipeline {
            filters: ids
                .iter()
                .map(|&id| FilterDesc {
                    id,
                    name: None,
                    flags: 0,
                    client_data: if id == DEFLATE { vec![1] } else { vec![] },
                })
                .collect(),
        }
    }

    fn encode(p: &FilterPipeline, raw: &[u8]) -> Vec<u8> {
        let mut enc = raw.to_vec();
        for f in &p.filters {
            enc = build(f.id, &f.client_data, 4).unwrap().encode(enc).unwrap();
        }
        enc
    }

    /// The fast path decodes every pipeline it takes exactly as the general one does, and says
    /// so; pipelines it does not take (another order, masked filters) are left to the general one.
    #[test]
    fn decode_into_matches_the_general_pipeline() {
        let raw: Vec<u8> = (0..4001u32).flat_map(|v| (v * 7).to_le_bytes()).collect();
        let cases: [(&[u16], bool); 17] = [
            (&[], true),
            (&[DEFLATE], true),
            (&[SHUFFLE], true),
            (&[SHUFFLE, DEFLATE], true),
            (&[FLETCHER32], true),
            (&[SHUFFLE, DEFLATE, FLETCHER32], true),
            (&[FLETCHER32, SHUFFLE, DEFLATE], false),
            (&[SHUFFLE, FLETCHER32, DEFLATE], false),
            (&[BZIP2], true),
            (&[ZSTD], true),
            (&[LZ4], true),
            (&[BLOSC], true),
            (&[SHUFFLE, LZ4], true),
            (&[SHUFFLE, ZSTD, FLETCHER32], true),
            (&[SHUFFLE, BZIP2], true),
            (&[LZF], false),
            (&[SHUFFLE, BITSHUFFLE], false),
        ];
        let mut scratch = Scratch::default();
        for (ids, fast) in cases {
            let p = pipeline(ids);
            scratch.raw = encode(&p, &raw);
            let mut dst = vec![0u8; raw.len()];
            assert_eq!(
                decode_chunk_into(&p, 0, &mut scratch, &mut dst, 4),
                Ok(fast),
                "{ids:?}"
            );
            if fast {
                assert_eq!(dst, raw, "{ids:?}");
            }
            let general = decode_chunk(&p, 0, scratch.raw.clone(), raw.len(), 4).unwrap();
            assert_eq!(general, raw, "{ids:?}");
        }
        // A masked (skipped) deflate leaves the shuffle alone: stored shuffled, not compressed.
        let p = pipeline(&[SHUFFLE, DEFLATE]);
        scratch.raw = encode(&pipeline(&[SHUFFLE]), &raw);
        let mut dst = vec![0u8; raw.len()];
        assert_eq!(
            decode_chunk_into(&p, 0b10, &mut scratch, &mut dst, 4),
            Ok(true)
        );
        assert_eq!(dst, raw);
    }

    /// Hostile chunks on the fast path: a corrupt, truncated, over-long or short stream and a bad
    /// checksum are all declined (never written past `dst`), and the general path then errors or
    /// returns the short data.
    #[test]
    fn decode_into_declines_bad_chunks() {
        let raw: Vec<u8> = (0..4000u32).flat_map(|v| v.to_le_bytes()).collect();
        let p = pipeline(&[SHUFFLE, DEFLATE]);
        let good = encode(&p, &raw);
        let mut scratch = Scratch::default();
        let mut check = |data: Vec<u8>, len: usize, general_ok: bool| {
            scratch.raw = data.clone();
            let mut dst = vec![0u8; len];
            assert_eq!(
                decode_chunk_into(&p, 0, &mut scratch, &mut dst, 4),
                Ok(false)
            );
            assert!(scratch.stage.len() <= len);
            assert_eq!(decode_chunk(&p, 0, data, len, 4).is_ok(), general_ok);
        };
        let mut bad = good.clone();
        bad[good.len() / 2] ^= 0x55;
        check(bad, raw.len(), false);
        check(good[..good.len() / 2].to_vec(), raw.len(), false);
        // The stream holds more than the chunk: declined, and refused by the general path.
        check(good.clone(), raw.len() - 4, false);
        // The stream holds less than the chunk: declined; the general path returns it.
        check(good.clone(), raw.len() + 4, true);
        for ids in [&[SHUFFLE, LZ4][..], &[BLOSC], &[ZSTD], &[BZIP2]] {
            let p = pipeline(ids);
            let good = encode(&p, &raw);
            for (data, len, general_ok) in [
                (good[..good.len() / 2].to_vec(), raw.len(), false),
                (good.clone(), raw.len() - 4, false),
                (good.clone(), raw.len() + 4, true),
            ] {
                scratch.raw = data.clone();
                let mut dst = vec![0u8; len];
                assert_eq!(
                    decode_chunk_into(&p, 0, &mut scratch, &mut dst, 4),
                    Ok(false),
                    "{ids:?}"
                );
                assert!(scratch.stage.len() <= raw.len() + 4);
                assert_eq!(
                    decode_chunk(&p, 0, data, len, 4).is_ok(),
                    general_ok,
                    "{ids:?}"
                );
            }
        }
        let p = pipeline(&[FLETCHER32]);
        let mut sum = encode(&p, &raw);
        sum[3] ^= 1;
        scratch.raw = sum.clone();
        let mut dst = vec![0u8; raw.len()];
        assert_eq!(
            decode_chunk_into(&p, 0, &mut scratch, &mut dst, 4),
            Ok(false)
        );
        assert!(decode_chunk(&p, 0, sum, raw.len(), 4).is_err());
    }
}
