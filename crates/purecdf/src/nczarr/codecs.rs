//! Zarr v2 codecs (`compressor` and `filters` in `.zarray`, numcodecs' JSON configurations) and
//! their HDF5 filter ids, as netcdf-c maps them (`../shared/spec/filters-excerpt.md`; NCZarr
//! keeps the codec chain as HDF5 filters: the `filters` in order, then the `compressor`).
//!
//! Codecs that are an HDF5 filter byte for byte run through `purecdf-hdf5`'s filter registry:
//! `zlib` (1), `shuffle` (2), `fletcher32` (3), `bz2` (307), `blosc` (32001), `zstd` (32015).
//! numcodecs' `gzip` (a gzip member) and `lz4` (a 4-byte little-endian size, then one LZ4
//! block) have framings of their own; `vlen-utf8` is the string encoding of `|O` arrays.

use std::io::Read;

use crate::json::{json, Map, Value};
use purecdf_hdf5::filter::{self as h5filter, Filter};

use crate::error::{Error, ErrorKind, Result};

/// One codec of a chain.
enum CodecKind {
    /// A codec that is an HDF5 filter.
    Hdf5 {
        id: u16,
        params: Vec<u32>,
        filter: Box<dyn Filter>,
    },
    /// numcodecs `gzip`.
    Gzip,
    /// numcodecs `lz4`.
    Lz4,
    /// numcodecs `vlen-utf8` (handled by the string reader, a no-op here).
    VlenUtf8,
    /// Zarr v3 `crc32c`: a little-endian CRC-32C of the data appended to it.
    Crc32c,
    /// A codec this build does not know: reading the variable fails (NC_ENOFILTER).
    Unknown(String),
}

/// A codec: its JSON configuration, as stored, and what undoes it.
pub(crate) struct Codec {
    /// The configuration object (`{"id": "zlib", "level": 5}`).
    pub(crate) config: Value,
    kind: CodecKind,
}

impl std::fmt::Debug for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Codec({})", self.config)
    }
}

/// The codec ids purecdf implements itself (user codecs cannot take them).
pub(crate) const BUILT_IN_CODECS: [&str; 10] = [
    "zlib",
    "gzip",
    "shuffle",
    "fletcher32",
    "bz2",
    "zstd",
    "blosc",
    "lz4",
    "vlen-utf8",
    "crc32c",
];

/// numcodecs' blosc compressor names and their blosc codes.
const BLOSC_NAMES: [(&str, u32); 6] = [
    ("blosclz", 0),
    ("lz4", 1),
    ("lz4hc", 2),
    ("snappy", 3),
    ("zlib", 4),
    ("zstd", 5),
];

fn int(config: &Value, key: &str, default: i64) -> i64 {
    config.get(key).and_then(Value::as_i64).unwrap_or(default)
}

impl Codec {
    /// Builds a codec from its configuration. `elem_size` is the array's element size and
    /// `chunk_bytes` the decoded size of a chunk (blosc's HDF5 parameters hold both).
    ///
    /// # Errors
    /// NC_ENCZARR when the configuration is not an object with a string `id`.
    pub(crate) fn from_config(
        config: &Value,
        elem_size: usize,
        chunk_bytes: usize,
        key: &str,
    ) -> Result<Codec> {
        let id = config.get("id").and_then(Value::as_str).ok_or_else(|| {
            Error::with_detail(
                ErrorKind::Nczarr,
                format!("{key}: a codec without a string \"id\": {config}"),
            )
        })?;
        let hdf5 = |id: u16, params: Vec<u32>| -> CodecKind {
            match h5filter::build(id, &params, elem_size) {
                Ok(filter) => CodecKind::Hdf5 { id, params, filter },
                Err(e) => CodecKind::Unknown(format!("{id}: {e}")),
            }
        };
        let level = |default: i64| int(config, "level", default) as u32;
        let kind = match id {
            "zlib" => hdf5(h5filter::DEFLATE, vec![level(1)]),
            // netcdf-c 4.10 writes `elementsize: 0`, meaning the array's element size (as the
            // HDF5 shuffle filter fills in its parameter).
            "shuffle" => hdf5(
                h5filter::SHUFFLE,
                vec![match int(config, "elementsize", 0) {
                    n if n > 0 => n as u32,
                    _ => elem_size as u32,
                }],
            ),
            "fletcher32" => hdf5(h5filter::FLETCHER32, Vec::new()),
            "bz2" => hdf5(h5filter::BZIP2, vec![level(9)]),
            "zstd" => hdf5(h5filter::ZSTD, vec![level(0)]),
            "blosc" => {
                let cname = config.get("cname").and_then(Value::as_str).unwrap_or("lz4");
                let code = BLOSC_NAMES
                    .iter()
                    .find(|(n, _)| *n == cname)
                    .map(|(_, c)| *c);
                let shuffle = match int(config, "shuffle", 1) {
                    // AUTOSHUFFLE: bit shuffle for one-byte elements, byte shuffle otherwise.
                    -1 if elem_size == 1 => 2,
                    -1 => 1,
                    s => s as u32,
                };
                match code {
                    Some(code) => hdf5(
                        h5filter::BLOSC,
                        vec![
                            2,
                            2,
                            elem_size as u32,
                            chunk_bytes as u32,
                            int(config, "clevel", 5) as u32,
                            shuffle,
                            code,
                        ],
                    ),
                    None => CodecKind::Unknown(format!("blosc compressor {cname}")),
                }
            }
            "gzip" => CodecKind::Gzip,
            "lz4" => CodecKind::Lz4,
            "vlen-utf8" => CodecKind::VlenUtf8,
            "crc32c" => CodecKind::Crc32c,
            // A user filter's codec (`purecdf::filters::register_zarr_codec`).
            other => match crate::filters::zarr_codec_named(other) {
                Some((hid, codec)) => {
                    match crate::filters::guarded(|| codec.codec_to_params(&config.to_string())) {
                        Ok(params) => hdf5(hid as u16, params),
                        Err(e) => CodecKind::Unknown(format!("{other}: {e}")),
                    }
                }
                None => CodecKind::Unknown(other.to_string()),
            },
        };
        Ok(Codec {
            config: config.clone(),
            kind,
        })
    }

    /// The HDF5 filter id and parameters netcdf-c shows for this codec (`_Filter`), if any.
    pub(crate) fn hdf5_filter(&self) -> Option<(u32, Vec<u32>)> {
        match &self.kind {
            CodecKind::Hdf5 { id, params, .. } => Some((u32::from(*id), params.clone())),
            _ => None,
        }
    }

    /// Why this codec cannot be decoded, if it cannot.
    pub(crate) fn unavailable(&self) -> Option<&str> {
        match &self.kind {
            CodecKind::Unknown(why) => Some(why),
            _ => None,
        }
    }

    /// The Zarr codec for an HDF5 filter of a netCDF-4 variable (netcdf-c's mapping); `None`
    /// for filters without a codec (szip and the others).
    pub(crate) fn from_filter(
        id: u32,
        params: &[u32],
        elem_size: usize,
        chunk_bytes: usize,
    ) -> Option<Codec> {
        let p = |i: usize, d: u32| params.get(i).copied().unwrap_or(d);
        let config = match id {
            1 => json!({"id": "zlib", "level": p(0, 1)}),
            2 => json!({"id": "shuffle", "elementsize": elem_size}),
            3 => json!({"id": "fletcher32"}),
            307 => json!({"id": "bz2", "level": p(0, 9)}),
            32015 => json!({"id": "zstd", "level": p(0, 3) as i32}),
            32004 => json!({"id": "lz4", "acceleration": 1}),
            32001 => {
                let cname = BLOSC_NAMES
                    .iter()
                    .find(|(_, c)| *c == p(6, 1))
                    .map(|(n, _)| *n)?;
                json!({
                    "id": "blosc", "cname": cname, "clevel": p(4, 5),
                    "shuffle": p(5, 1), "blocksize": 0
                })
            }
            _ => {
                // A user filter with a registered Zarr form; its JSON must name its own codec.
                let codec = crate::filters::zarr_codec(id)?;
                let text = crate::filters::guarded(|| codec.params_to_codec(params)).ok()?;
                let config = crate::json::parse_with_specials(text.as_bytes()).ok()?;
                if config.get("id").and_then(Value::as_str) != Some(codec.codec_id()) {
                    return None;
                }
                config
            }
        };
        Codec::from_config(&config, elem_size, chunk_bytes, "")
            .ok()
            .filter(|c| c.unavailable().is_none())
    }

    /// Applies the codec.
    fn encode(&self, data: Vec<u8>) -> std::result::Result<Vec<u8>, String> {
        match &self.kind {
            CodecKind::Hdf5 { filter, .. } => filter.encode(data).map_err(|e| e.to_string()),
            CodecKind::Gzip => {
                let level = int(&self.config, "level", 1).clamp(0, 9) as u32;
                let mut enc =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
                std::io::Write::write_all(&mut enc, &data).map_err(|e| format!("gzip: {e}"))?;
                enc.finish().map_err(|e| format!("gzip: {e}"))
            }
            CodecKind::Lz4 => {
                let size =
                    u32::try_from(data.len()).map_err(|_| "lz4: chunk over 4 GiB".to_string())?;
                let mut out = size.to_le_bytes().to_vec();
                out.extend(lz4_flex::block::compress(&data));
                Ok(out)
            }
            CodecKind::VlenUtf8 => Ok(data),
            CodecKind::Crc32c => {
                let mut out = data;
                let sum = crc32c(&out);
                out.extend(sum.to_le_bytes());
                Ok(out)
            }
            CodecKind::Unknown(why) => Err(format!("codec {why} is not available")),
        }
    }

    /// Undoes the codec straight into `dst`: true when `data` decoded to exactly `dst.len()`
    /// bytes; false when it did not or the codec has no such path (the contents of `dst` are
    /// then unspecified and [`Codec::decode`] gives the verdict).
    fn decode_into(&self, data: &[u8], dst: &mut [u8]) -> bool {
        match &self.kind {
            CodecKind::Hdf5 { filter, .. } => filter.decode_into(data, dst),
            CodecKind::Lz4 => match data.split_first_chunk::<4>() {
                Some((size, block)) if u32::from_le_bytes(*size) as usize == dst.len() => {
                    purecdf_codecs::lz4_block::decode_block_into(block, dst) == Some(dst.len())
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// Undoes the codec; the output is at most `max_out` bytes.
    fn decode(&self, data: Vec<u8>, max_out: usize) -> std::result::Result<Vec<u8>, String> {
        match &self.kind {
            CodecKind::Hdf5 { filter, .. } => {
                filter.decode(data, max_out).map_err(|e| e.to_string())
            }
            CodecKind::Gzip => {
                let mut out = Vec::new();
                flate2::read::MultiGzDecoder::new(&data[..])
                    .take(max_out as u64 + 1)
                    .read_to_end(&mut out)
                    .map_err(|e| format!("gzip: {e}"))?;
                Ok(out)
            }
            CodecKind::Lz4 => {
                let (size, block) = data
                    .split_first_chunk::<4>()
                    .ok_or_else(|| "lz4: shorter than its size header".to_string())?;
                let size = u32::from_le_bytes(*size) as usize;
                if size > max_out {
                    return Err(format!(
                        "lz4: {size} bytes, more than the chunk's {max_out}"
                    ));
                }
                let mut out = vec![0u8; size];
                match purecdf_codecs::lz4_block::decode_block_into(block, &mut out) {
                    Some(n) if n == size => Ok(out),
                    Some(n) => Err(format!("lz4: {n} bytes, not the {size} of its header")),
                    None => Err("lz4: corrupt block".into()),
                }
            }
            CodecKind::VlenUtf8 => Ok(data),
            CodecKind::Crc32c => {
                let n = data
                    .len()
                    .checked_sub(4)
                    .ok_or_else(|| "crc32c: shorter than its checksum".to_string())?;
                let want = u32::from_le_bytes([data[n], data[n + 1], data[n + 2], data[n + 3]]);
                if crc32c(&data[..n]) != want {
                    return Err("crc32c: checksum mismatch".into());
                }
                let mut data = data;
                data.truncate(n);
                Ok(data)
            }
            CodecKind::Unknown(why) => Err(format!("codec {why} is not available")),
        }
    }
}

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as Zarr v3's `crc32c` codec uses.
pub(crate) fn crc32c(data: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    (c >> 1) ^ 0x82F6_3B78
                } else {
                    c >> 1
                };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    !data.iter().fold(!0u32, |c, &b| {
        TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8)
    })
}

/// A chain of codecs: the `.zarray`'s `filters` in order, then its `compressor`.
#[derive(Debug, Default)]
pub(crate) struct Chain {
    /// The codecs, in encoding order.
    pub(crate) codecs: Vec<Codec>,
}

impl Chain {
    /// Reads the `filters` and `compressor` of a `.zarray`.
    ///
    /// # Errors
    /// NC_ENCZARR when either is malformed.
    pub(crate) fn from_zarray(
        zarray: &Map,
        elem_size: usize,
        chunk_bytes: usize,
        key: &str,
    ) -> Result<Chain> {
        let mut codecs = Vec::new();
        let bad = |what: &str| Error::with_detail(ErrorKind::Nczarr, format!("{key}: {what}"));
        match zarray.get("filters") {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => {
                for c in list {
                    codecs.push(Codec::from_config(c, elem_size, chunk_bytes, key)?);
                }
            }
            Some(_) => return Err(bad("\"filters\" is neither a list nor null")),
        }
        match zarray.get("compressor") {
            None | Some(Value::Null) => {}
            Some(c @ Value::Object(_)) => {
                codecs.push(Codec::from_config(c, elem_size, chunk_bytes, key)?)
            }
            Some(_) => return Err(bad("\"compressor\" is neither an object nor null")),
        }
        Ok(Chain { codecs })
    }

    /// Decodes one stored chunk; `max_out` bounds every stage's output.
    pub(crate) fn decode(
        &self,
        mut data: Vec<u8>,
        max_out: usize,
    ) -> std::result::Result<Vec<u8>, String> {
        let slack = max_out.saturating_add(4 * self.codecs.len());
        for c in self.codecs.iter().rev() {
            data = c.decode(data, slack)?;
        }
        Ok(data)
    }

    /// Decodes one stored chunk into `dst`, which holds exactly the chunk's decoded bytes: the
    /// first codec (the last to undo) writes straight into `dst` where it can, so a chain of one
    /// codec decodes with no intermediate buffer.
    ///
    /// # Errors
    /// The codec's message, or a size message when the chunk decodes to another size.
    pub(crate) fn decode_into(
        &self,
        stored: Vec<u8>,
        dst: &mut [u8],
    ) -> std::result::Result<(), String> {
        let want = dst.len();
        let Some((first, rest)) = self.codecs.split_first() else {
            if stored.len() != want {
                return Err(format!("chunk holds {} bytes, not {want}", stored.len()));
            }
            dst.copy_from_slice(&stored);
            return Ok(());
        };
        let slack = want.saturating_add(4 * self.codecs.len());
        let mut data = stored;
        for c in rest.iter().rev() {
            data = c.decode(data, slack)?;
        }
        if first.decode_into(&data, dst) {
            return Ok(());
        }
        let data = first.decode(data, slack)?;
        if data.len() != want {
            return Err(format!("chunk decodes to {} bytes, not {want}", data.len()));
        }
        dst.copy_from_slice(&data);
        Ok(())
    }

    /// Encodes one chunk (codecs in order).
    pub(crate) fn encode(&self, mut data: Vec<u8>) -> std::result::Result<Vec<u8>, String> {
        for c in &self.codecs {
            data = c.encode(data)?;
        }
        Ok(data)
    }

    /// Encodes one borrowed chunk; the first codec reads it in place where it can. With no
    /// codecs, a copy.
    pub(crate) fn encode_slice(&self, data: &[u8]) -> std::result::Result<Vec<u8>, String> {
        let Some((first, rest)) = self.codecs.split_first() else {
            return Ok(data.to_vec());
        };
        let mut out = match &first.kind {
            CodecKind::Hdf5 { filter, .. } => {
                filter.encode_slice(data).map_err(|e| e.to_string())?
            }
            _ => first.encode(data.to_vec())?,
        };
        for c in rest {
            out = c.encode(out)?;
        }
        Ok(out)
    }

    /// The `.zarray` entries: `filters` (all codecs but the last, `vlen-utf8` first) and
    /// `compressor` (the last), each `null` when empty.
    pub(crate) fn zarray_entries(&self) -> (Value, Value) {
        let configs: Vec<Value> = self.codecs.iter().map(|c| c.config.clone()).collect();
        match configs.split_last() {
            Some((last, rest))
                if !matches!(
                    self.codecs.last().map(|c| &c.kind),
                    Some(CodecKind::VlenUtf8)
                ) =>
            {
                let filters = if rest.is_empty() {
                    Value::Null
                } else {
                    Value::Array(rest.to_vec())
                };
                (filters, last.clone())
            }
            Some(_) => (Value::Array(configs), Value::Null),
            None => (Value::Null, Value::Null),
        }
    }

    /// True when the chain ends in the `vlen-utf8` string encoding.
    pub(crate) fn is_vlen_utf8(&self) -> bool {
        self.codecs
            .iter()
            .any(|c| matches!(c.kind, CodecKind::VlenUtf8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(json: &str) -> Chain {
        let v = crate::json::parse(json.as_bytes()).unwrap();
        Chain::from_zarray(v.as_object().unwrap(), 4, 16, "t/.zarray").unwrap()
    }

    #[test]
    fn lz4_and_gzip_framings() {
        let c = chain(r#"{"compressor": {"id": "lz4", "acceleration": 1}, "filters": null}"#);
        let raw = b"abcabcabcabc";
        let mut stored = (raw.len() as u32).to_le_bytes().to_vec();
        stored.extend(lz4_flex::block::compress(raw));
        assert_eq!(c.decode(stored.clone(), 12).unwrap(), raw);
        assert!(
            c.decode(stored, 7).is_err(),
            "a size above the bound is refused"
        );
        let g = chain(r#"{"compressor": {"id": "gzip", "level": 1}}"#);
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, b"hello hello hello").unwrap();
        let z = enc.finish().unwrap();
        assert_eq!(g.decode(z.clone(), 100).unwrap(), b"hello hello hello");
        assert!(g.decode(z, 5).map(|v| v.len() > 5).unwrap_or(true));
    }

    #[test]
    fn round_trips() {
        let data: Vec<u8> = (0..4000u32).flat_map(|i| (i % 97).to_le_bytes()).collect();
        for json in [
            r#"{"compressor": {"id": "gzip", "level": 5}}"#,
            r#"{"compressor": {"id": "lz4", "acceleration": 1}}"#,
            r#"{"filters": [{"id": "shuffle", "elementsize": 4}], "compressor": {"id": "zlib", "level": 5}}"#,
            r#"{"compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}}"#,
            r#"{"compressor": {"id": "zstd", "level": 3}}"#,
            r#"{"compressor": {"id": "bz2", "level": 9}}"#,
            r#"{"filters": [{"id": "fletcher32"}]}"#,
        ] {
            let v = crate::json::parse(json.as_bytes()).unwrap();
            let c = Chain::from_zarray(v.as_object().unwrap(), 4, data.len(), "t").unwrap();
            let enc = c.encode(data.clone()).unwrap();
            assert_eq!(c.decode(enc, data.len()).unwrap(), data, "{json}");
        }
        for (id, params) in [
            (1, vec![5]),
            (2, vec![]),
            (3, vec![]),
            (307, vec![9]),
            (32015, vec![3]),
            (32001, vec![2, 2, 4, 0, 5, 1, 1]),
        ] {
            let c = Codec::from_filter(id, &params, 4, 64).unwrap();
            assert!(c.unavailable().is_none(), "{id}");
            assert_eq!(c.hdf5_filter().map(|f| f.0), Some(id));
        }
        assert!(Codec::from_filter(4, &[4, 8], 4, 64).is_none());
    }

    #[test]
    fn crc32c_check_value() {
        // The standard check value of CRC-32C.
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
    }

    #[test]
    fn hdf5_ids() {
        let c = chain(
            r#"{"filters": [{"id": "shuffle", "elementsize": 4}],
                "compressor": {"id": "zlib", "level": 5}}"#,
        );
        let ids: Vec<_> = c.codecs.iter().filter_map(Codec::hdf5_filter).collect();
        assert_eq!(ids, vec![(2, vec![4]), (1, vec![5])]);
        // netcdf-c 4.10's `elementsize: 0` is the array's element size (4 here).
        let z = chain(r#"{"filters": [{"id": "shuffle", "elementsize": 0}], "compressor": null}"#);
        assert_eq!(z.codecs[0].hdf5_filter(), Some((2, vec![4])));
        let data: Vec<u8> = (0..16).collect();
        let stored = z.encode(data.clone()).unwrap();
        assert_eq!(&stored[..4], &[0, 4, 8, 12]);
        assert_eq!(z.decode(stored, 16).unwrap(), data);
        let u = chain(r#"{"compressor": {"id": "nosuch"}}"#);
        assert!(u.codecs[0].unavailable().is_some());
        let v = crate::json::parse(br#"{"compressor": 7}"#).unwrap();
        assert!(Chain::from_zarray(v.as_object().unwrap(), 4, 16, "k").is_err());
    }
}
