//! One array's `.zarray` (Zarr v2 spec, "Metadata"): shape, chunks, dtype, fill value, order,
//! dimension separator and codecs, checked so that hostile values cannot overflow or allocate
//! without bound; and reading one chunk of it.

use crate::json::{Map, Value};

use super::codecs::Chain;
use super::dtype::Dtype;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{NcType, Values};

/// The largest decoded chunk this reader accepts (netcdf-c has no limit, but a chunk is held
/// in memory whole).
const MAX_CHUNK_BYTES: u64 = 1 << 34;

/// An array's fill value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Fill {
    /// `fill_value: null`: no fill value (missing chunks read as zeros, as netcdf-c does).
    None,
    /// A fixed-size element, native-endian.
    Bytes(Vec<u8>),
    /// A string fill value.
    String(Option<String>),
}

/// A parsed `.zarray`.
#[derive(Debug)]
pub(crate) struct ArrayMeta {
    /// The array's key prefix in the store (`"g/v"`).
    pub(crate) key: String,
    /// Zarr shape (an NCZarr scalar is shape `[1]`).
    pub(crate) shape: Vec<u64>,
    /// Chunk shape, one per dimension.
    pub(crate) chunks: Vec<u64>,
    /// Element type.
    pub(crate) dtype: Dtype,
    /// Fill value.
    pub(crate) fill: Fill,
    /// True for `order: "F"`.
    pub(crate) fortran: bool,
    /// `.` or `/`.
    pub(crate) separator: char,
    /// Zarr v3's default chunk keys: `c/0/1` (`c` for a 0-d array) rather than `0.1`.
    pub(crate) v3_keys: bool,
    /// Codecs (of the inner chunks of a sharded array).
    pub(crate) chain: std::sync::Arc<Chain>,
    /// A sharded Zarr v3 array's shard layout (`chunks` are then its inner chunks).
    pub(crate) sharding: Option<super::shard::Sharding>,
    /// The `.zarray` object as read (rewritten with only its shape changed when the array
    /// grows).
    pub(crate) zarray: Map,
}

fn nczarr_err(key: &str, what: impl std::fmt::Display) -> Error {
    Error::with_detail(ErrorKind::Nczarr, format!("{key}: {what}"))
}

fn ints(v: Option<&Value>, key: &str, field: &str) -> Result<Vec<u64>> {
    let list = v
        .and_then(Value::as_array)
        .ok_or_else(|| nczarr_err(key, format!("\"{field}\" is not a list")))?;
    list.iter()
        .map(|x| {
            x.as_u64()
                .ok_or_else(|| nczarr_err(key, format!("\"{field}\" holds {x}, not a size")))
        })
        .collect()
}

impl ArrayMeta {
    /// Parses the `.zarray` object stored at `key` (`prefix/.zarray`). `nczarr` selects
    /// netcdf-c's reading of one-character dtypes as NC_CHAR.
    ///
    /// # Errors
    /// NC_ENCZARR naming the key for anything malformed or out of bounds.
    pub(crate) fn parse(zarray: &Map, prefix: &str, key: &str, nczarr: bool) -> Result<ArrayMeta> {
        match zarray.get("zarr_format").and_then(Value::as_u64) {
            Some(2) => {}
            other => return Err(nczarr_err(key, format!("zarr_format {other:?} is not 2"))),
        }
        let shape = ints(zarray.get("shape"), key, "shape")?;
        let chunks = ints(zarray.get("chunks"), key, "chunks")?;
        if chunks.len() != shape.len() {
            return Err(nczarr_err(key, "\"chunks\" and \"shape\" differ in rank"));
        }
        if chunks.contains(&0) {
            return Err(nczarr_err(key, "a chunk size of 0"));
        }
        let spelled = zarray
            .get("dtype")
            .and_then(Value::as_str)
            .ok_or_else(|| nczarr_err(key, "\"dtype\" is not a string"))?;
        let dtype = Dtype::parse(spelled, nczarr).ok_or_else(|| {
            Error::with_detail(ErrorKind::BadType, format!("{key}: dtype {spelled}"))
        })?;
        let elem = dtype.stored_size().unwrap_or(16) as u64;
        let mut chunk_bytes = elem;
        for &c in &chunks {
            chunk_bytes = chunk_bytes
                .checked_mul(c)
                .filter(|&b| b <= MAX_CHUNK_BYTES)
                .ok_or_else(|| nczarr_err(key, format!("chunks {chunks:?} are too large")))?;
        }
        // The number of chunks along each dimension must be addressable.
        let mut n_chunks: u64 = 1;
        for (s, c) in shape.iter().zip(&chunks) {
            n_chunks = n_chunks
                .checked_mul(s.div_ceil(*c).max(1))
                .ok_or_else(|| nczarr_err(key, format!("shape {shape:?} is too large")))?;
        }
        let fortran = match zarray.get("order").and_then(Value::as_str) {
            Some("C") | None => false,
            Some("F") => true,
            Some(o) => return Err(nczarr_err(key, format!("order {o:?}"))),
        };
        let separator = match zarray.get("dimension_separator").and_then(Value::as_str) {
            Some("/") => '/',
            _ => '.',
        };
        let chain = Chain::from_zarray(zarray, elem as usize, chunk_bytes as usize, key)
            .map(std::sync::Arc::new)?;
        if dtype == Dtype::VlenUtf8 && !chain.is_vlen_utf8() {
            return Err(Error::with_detail(
                ErrorKind::BadType,
                format!("{key}: an object array without the vlen-utf8 codec"),
            ));
        }
        let fill = fill_value(zarray.get("fill_value"), dtype, key)?;
        let sharding = super::shard::Sharding::parse(zarray, &chunks, key)?;
        Ok(ArrayMeta {
            key: prefix.to_string(),
            shape,
            chunks,
            dtype,
            fill,
            fortran,
            separator,
            v3_keys: zarray
                .get("chunk_key_encoding")
                .is_some_and(|e| e.get("name").and_then(Value::as_str) != Some("v2")),
            chain,
            sharding,
            zarray: zarray.clone(),
        })
    }

    /// One element of the fill value, native-endian (zeros without a fill value).
    pub(crate) fn fill_bytes(&self) -> Vec<u8> {
        match &self.fill {
            Fill::Bytes(b) => b.clone(),
            _ => vec![0u8; self.dtype.stored_size().unwrap_or(1)],
        }
    }

    /// Elements per chunk.
    pub(crate) fn chunk_elements(&self) -> usize {
        self.chunks.iter().product::<u64>() as usize
    }

    /// Element strides inside a chunk, per dimension (C or Fortran order).
    pub(crate) fn chunk_strides(&self) -> Vec<u64> {
        let rank = self.chunks.len();
        let mut s = vec![1u64; rank];
        if self.fortran {
            for d in 1..rank {
                s[d] = s[d - 1] * self.chunks[d - 1];
            }
        } else {
            for d in (0..rank.saturating_sub(1)).rev() {
                s[d] = s[d + 1] * self.chunks[d + 1];
            }
        }
        s
    }

    /// Fetches and decodes one chunk of a fixed-size type as native-endian elements; `None`
    /// when the chunk is missing.
    ///
    /// # Errors
    /// As [`ArrayMeta::read_chunk_into`].
    pub(crate) fn read_chunk(
        &self,
        store: &dyn purecdf_store::Store,
        coords: &[u64],
    ) -> Result<Option<Vec<u8>>> {
        let es = self.dtype.stored_size().unwrap_or(1);
        let mut data = vec![0u8; self.chunk_elements() * es];
        Ok(self
            .read_chunk_into(store, coords, &mut data)?
            .then_some(data))
    }

    /// Fetches and decodes one chunk of a fixed-size type as native-endian elements into `dst`
    /// (exactly one chunk's bytes); false when the chunk is missing (`dst` untouched).
    ///
    /// # Errors
    /// NC_ENCZARR for a chunk that does not decode to the chunk's size; NC_ENOFILTER for a codec
    /// this build lacks.
    pub(crate) fn read_chunk_into(
        &self,
        store: &dyn purecdf_store::Store,
        coords: &[u64],
        dst: &mut [u8],
    ) -> Result<bool> {
        let Some((key, stored)) = self.fetch_chunk(store, coords)? else {
            return Ok(false);
        };
        self.chain
            .decode_into(stored, dst)
            .map_err(|e| nczarr_err(&key, e))?;
        let es = self.dtype.stored_size().unwrap_or(1);
        if self.dtype.is_big_endian() == cfg!(target_endian = "little") && es > 1 {
            for e in dst.chunks_exact_mut(es) {
                e.reverse();
            }
        }
        Ok(true)
    }

    /// The stored bytes of the chunk at `coords` (an inner chunk of a sharded array) and the key
    /// to name it by, or `None` when it is missing.
    ///
    /// # Errors
    /// NC_ENOFILTER for a codec this build lacks; a malformed shard; store errors.
    pub(crate) fn fetch_chunk(
        &self,
        store: &dyn purecdf_store::Store,
        coords: &[u64],
    ) -> Result<Option<(String, Vec<u8>)>> {
        if let Some(c) = self.chain.codecs.iter().find_map(|c| c.unavailable()) {
            return Err(Error::with_detail(
                ErrorKind::NoFilter,
                format!("{}: {c}", self.key),
            ));
        }
        if let Some(sharding) = &self.sharding {
            return sharding.inner_chunk(store, self, coords);
        }
        let key = super::read::chunk_key(self, coords);
        let stored = store.get(&key).map_err(super::store_err)?;
        Ok(stored.map(|s| (key, s)))
    }
}

/// Parses a `fill_value` for the dtype (`NaN`, `Infinity` and `-Infinity` as strings).
fn fill_value(v: Option<&Value>, dtype: Dtype, key: &str) -> Result<Fill> {
    let v = match v {
        None | Some(Value::Null) => return Ok(Fill::None),
        Some(v) => v,
    };
    let typ = dtype.nc_type();
    match (dtype, typ) {
        (_, NcType::String) => Ok(Fill::String(v.as_str().map(str::to_string))),
        (Dtype::Char, _) => {
            let b = match v {
                Value::String(s) => s.bytes().next().unwrap_or(0),
                other => other.as_u64().unwrap_or(0) as u8,
            };
            Ok(Fill::Bytes(vec![b]))
        }
        _ => {
            let values: Values = super::attrs::numbers(typ, std::slice::from_ref(v))
                .ok_or_else(|| nczarr_err(key, format!("fill_value {v} is not a {typ:?}")))?;
            Ok(Fill::Bytes(crate::convert::values_to_ne_bytes(&values)?))
        }
    }
}
