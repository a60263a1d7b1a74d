//! The common third-party compression filters, registered with The HDF Group's filter registry
//! (<https://github.com/HDFGroup/hdf5_plugins/blob/master/docs/RegisteredFilterPlugins.md>), on the
//! pure-Rust codecs of `purecdf-codecs`: bzip2 (307), LZF (32000), blosc (32001), LZ4 (32004),
//! bitshuffle (32008) and zstd (32015). Client data as hdf5plugin, h5py and netcdf-c's plugins
//! write them; [`set_local`] fills the parameters their `set_local` callbacks fill on write.

use purecdf_codecs::{bitshuffle, blosc, bzip2, lz4, lzf, zstd, CodecError};

use super::{Filter, FilterError, BITSHUFFLE, BLOSC, BZIP2, LZ4, LZF, ZSTD};

fn err(id: u16) -> impl Fn(CodecError) -> FilterError {
    move |e| match e {
        CodecError::BadParams(_) => FilterError::BadParams(id),
        e => FilterError::Corrupt(id, e.to_string()),
    }
}

struct Bzip2 {
    level: u32,
}

impl Filter for Bzip2 {
    fn decode_into(&self, input: &[u8], dst: &mut [u8]) -> bool {
        matches!(bzip2::decode_into(input, dst), Ok(n) if n == dst.len())
    }
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        bzip2::decode(&input, max_out).map_err(err(BZIP2))
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.encode_slice(&input)
    }
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        bzip2::encode(input, self.level).map_err(err(BZIP2))
    }
}

struct Zstd {
    level: i32,
}

impl Filter for Zstd {
    fn decode_into(&self, input: &[u8], dst: &mut [u8]) -> bool {
        matches!(zstd::decode_into(input, dst), Ok(n) if n == dst.len())
    }
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        zstd::decode(&input, max_out).map_err(err(ZSTD))
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.encode_slice(&input)
    }
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        zstd::encode(input, self.level).map_err(err(ZSTD))
    }
}

struct Lz4 {
    block: usize,
}

impl Filter for Lz4 {
    fn decode_into(&self, input: &[u8], dst: &mut [u8]) -> bool {
        matches!(lz4::decode_into(input, dst), Ok(n) if n == dst.len())
    }
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        lz4::decode(&input, max_out).map_err(err(LZ4))
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.encode_slice(&input)
    }
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        lz4::encode(input, self.block).map_err(err(LZ4))
    }
}

struct Lzf;

impl Filter for Lzf {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        lzf::decode(&input, max_out).map_err(err(LZF))
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.encode_slice(&input)
    }
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        Ok(lzf::encode(input))
    }
}

struct Blosc {
    params: blosc::Params,
}

impl Filter for Blosc {
    fn decode_into(&self, input: &[u8], dst: &mut [u8]) -> bool {
        matches!(blosc::decode_into(input, dst), Ok(n) if n == dst.len())
    }
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        blosc::decode(&input, max_out).map_err(err(BLOSC))
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.encode_slice(&input)
    }
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        blosc::encode(input, &self.params).map_err(err(BLOSC))
    }
}

struct Bitshuffle {
    elem_size: usize,
    block: usize,
    compression: bitshuffle::Compression,
}

impl Filter for Bitshuffle {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        bitshuffle::decode(
            &input,
            self.elem_size,
            self.block,
            self.compression,
            max_out,
        )
        .map_err(err(BITSHUFFLE))
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.encode_slice(&input)
    }
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        bitshuffle::encode(input, self.elem_size, self.block, self.compression)
            .map_err(err(BITSHUFFLE))
    }
}

/// Builds one of this module's filters (`id` one of its six).
pub(super) fn build(
    id: u16,
    cd: &[u32],
    element_size: usize,
) -> Result<Box<dyn Filter>, FilterError> {
    let at = |i: usize, default: u32| cd.get(i).copied().unwrap_or(default);
    Ok(match id {
        // PyTables' and hdf5plugin's bzip2 filter: the block size 1-9 (default 9).
        BZIP2 => {
            let level = at(0, 9);
            if !(1..=9).contains(&level) {
                return Err(FilterError::BadParams(id));
            }
            Box::new(Bzip2 { level })
        }
        // The level is a C int stored as unsigned (negative levels wrap).
        ZSTD => Box::new(Zstd {
            level: at(0, 3) as i32,
        }),
        LZ4 => Box::new(Lz4 {
            block: at(0, 0) as usize,
        }),
        LZF => Box::new(Lzf),
        BLOSC => {
            let compressor =
                blosc::Compressor::from_code(at(6, 0)).ok_or(FilterError::BadParams(id))?;
            let shuffle = blosc::Shuffle::from_code(at(5, 1)).ok_or(FilterError::BadParams(id))?;
            let clevel = at(4, 5);
            if clevel > 9 {
                return Err(FilterError::BadParams(id));
            }
            let typesize = match at(2, 0) {
                0 => element_size,
                t => t as usize,
            };
            Box::new(Blosc {
                params: blosc::Params {
                    clevel: clevel as u8,
                    shuffle,
                    typesize,
                    compressor,
                    blocksize: 0,
                },
            })
        }
        BITSHUFFLE => {
            let elem_size = match at(2, 0) {
                0 => element_size.max(1),
                e => e as usize,
            };
            let compression = match at(4, 0) {
                0 => bitshuffle::Compression::None,
                2 => bitshuffle::Compression::Lz4,
                3 => bitshuffle::Compression::Zstd(at(5, 3) as i32),
                _ => return Err(FilterError::BadParams(id)),
            };
            Box::new(Bitshuffle {
                elem_size,
                block: at(3, 0) as usize,
                compression,
            })
        }
        other => return Err(FilterError::Unknown(other)),
    })
}

/// The client data a filter's `set_local` callback would store for a dataset whose elements have
/// `element_size` bytes and whose chunks `chunk_bytes` bytes, given the client data the user
/// asked for:
///
/// - blosc (hdf5plugin's and netcdf-c's `blosc_set_local`): at least 4 values; the first four
///   become filter version 2, blosc format version 2, the type size (1 above 255) and the chunk
///   size in bytes; the user's level, shuffle and compressor (values 4-6) stay.
/// - bitshuffle (`bshuf_h5_set_local`): the user's values (block size, compression, zstd level)
///   move up by three behind the library version (0.5) and the element size; client data that
///   already hold them (six values or more, from a copied dataset) are kept with the element size
///   refreshed.
/// - LZF (h5py's `lzf_set_local`): filter version 4, LZF version 0x0105, the chunk size in bytes.
///
/// Other filters keep their client data.
pub fn set_local(
    id: u16,
    client_data: &[u32],
    element_size: usize,
    chunk_bytes: usize,
) -> Vec<u32> {
    let esize = u32::try_from(element_size).unwrap_or(u32::MAX);
    let cbytes = u32::try_from(chunk_bytes).unwrap_or(u32::MAX);
    match id {
        BLOSC => {
            let mut v = client_data.to_vec();
            if v.len() < 4 {
                v.resize(4, 0);
            }
            v[0] = 2;
            v[1] = 2;
            v[2] = if esize > 255 { 1 } else { esize };
            v[3] = cbytes;
            v
        }
        BITSHUFFLE => {
            if client_data.len() >= 6 {
                let mut v = client_data.to_vec();
                v[2] = esize;
                v
            } else {
                let mut v = vec![0, 5, esize];
                v.extend_from_slice(client_data);
                v
            }
        }
        LZF => vec![4, 0x0105, cbytes],
        _ => client_data.to_vec(),
    }
}
