//! HDF5 filters (HDF5 File Format Specification v3.0, section IV.A.2.l lists the ids): a registry
//! that builds a [`Filter`] from a filter id and its client data, and the pipeline that undoes
//! (and later applies) them in order, honouring each chunk's filter mask and optional filters.
//!
//! Built in: deflate (1, feature `deflate`), shuffle (2), fletcher32 (3), szip (4, decode only),
//! n-bit (5) and scale-offset (6, D-scale floats and integers; E-scale is refused as HDF5 refuses
//! it). Unknown ids give
//! [`FilterError::Unknown`]; known ids whose feature is off give [`FilterError::NotBuilt`].

mod deflate;
mod fletcher32;
mod nbit;
mod scaleoffset;
mod shuffle;
mod szip;

use crate::format::messages::filter_pipeline::{FilterDesc, FilterPipeline};

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
}

/// True when this build can decode filter `id` (what netcdf-c asks HDF5 with `H5Zfilter_avail`
/// before reading a variable).
pub fn is_available(id: u16) -> bool {
    matches!(id, SHUFFLE | FLETCHER32 | SZIP | NBIT | SCALEOFFSET)
        || (id == DEFLATE && cfg!(feature = "deflate"))
}

/// Builds the filter for an id and its client data.
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
        other => Err(FilterError::Unknown(other)),
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
            build(32000, &[], 4).err(),
            Some(FilterError::Unknown(32000))
        );
    }
}
