//! Zarr version 3 stores (zarr-python 3's default; the Zarr v3 core specification: `zarr.json`
//! holding `node_type` "group" or "array", `data_type`, a regular `chunk_grid`,
//! `chunk_key_encoding` "default" (`c/0/1`) or "v2" (`0.1`), `fill_value`, the codec chain
//! (array→array `transpose`, array→bytes `bytes` with its `endian`, bytes→bytes `gzip`, `zstd`,
//! `blosc`, `crc32c`; `vlen-utf8` for strings), `attributes` and `dimension_names`).
//!
//! netcdf-c reads no Zarr v3. We read it by translating each `zarr.json` into the version 2
//! objects the rest of the reader knows (`.zgroup`, `.zattrs` with `_ARRAY_DIMENSIONS` from the
//! dimension names, `.zarray` with v2 dtype and numcodecs configurations) keeping the v3
//! `chunk_key_encoding`, which [`super::meta::ArrayMeta`] follows. A sharded array (the
//! `sharding_indexed` codec alone in the chain) becomes an array of its inner chunks, with the
//! shard layout under a private key that [`super::shard`] reads.

use crate::json::{json, Map, Value};

use crate::error::{Error, ErrorKind, Result};

fn bad(key: &str, what: impl std::fmt::Display) -> Error {
    Error::with_detail(ErrorKind::Nczarr, format!("{key}: {what}"))
}

/// The v2 object a v2 key (`p/.zgroup`, `p/.zattrs`, `p/.zarray`) stands for, given the v3
/// `zarr.json` at `p` (`node`); `None` when the node is not of that kind.
pub(crate) fn translate(node: &Map, what: &str, key: &str) -> Result<Option<Map>> {
    let kind = node.get("node_type").and_then(Value::as_str);
    match (what, kind) {
        (".zgroup", Some("group")) => Ok(Some(json_map(json!({"zarr_format": 2})))),
        (".zattrs", Some("group" | "array")) => {
            let mut atts = node
                .get("attributes")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            if let Some(Value::Array(names)) = node.get("dimension_names") {
                if names.iter().all(Value::is_string) {
                    atts.insert("_ARRAY_DIMENSIONS".into(), Value::Array(names.clone()));
                }
            }
            Ok(Some(atts))
        }
        (".zarray", Some("array")) => array(node, key).map(Some),
        _ => Ok(None),
    }
}

fn json_map(v: Value) -> Map {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A v3 array as a v2 `.zarray`.
fn array(node: &Map, key: &str) -> Result<Map> {
    let shape = node
        .get("shape")
        .cloned()
        .ok_or_else(|| bad(key, "no shape"))?;
    let grid = node
        .get("chunk_grid")
        .ok_or_else(|| bad(key, "no chunk_grid"))?;
    if grid.get("name").and_then(Value::as_str) != Some("regular") {
        return Err(bad(key, format!("chunk grid {grid} is not regular")));
    }
    let chunks = grid
        .pointer("/configuration/chunk_shape")
        .cloned()
        .ok_or_else(|| bad(key, "no chunk_shape"))?;
    let codecs = node
        .get("codecs")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(key, "no codecs"))?;
    let mut chunks = chunks;
    let mut sharding = None;
    let (big, fortran, v2codecs) = match codecs.as_slice() {
        [only] if only.get("name").and_then(Value::as_str) == Some("sharding_indexed") => {
            let conf = only.get("configuration").cloned().unwrap_or(Value::Null);
            let inner = conf
                .get("chunk_shape")
                .cloned()
                .ok_or_else(|| bad(key, "sharding_indexed without a chunk_shape"))?;
            let inner_codecs = conf
                .get("codecs")
                .and_then(Value::as_array)
                .ok_or_else(|| bad(key, "sharding_indexed without codecs"))?;
            let (big, fortran, mut v2codecs) = chain(inner_codecs);
            let index = match conf.get("index_codecs") {
                Some(Value::Array(list)) => super::shard::index_codecs(list),
                None => Ok((false, true)),
                Some(_) => Err("index_codecs is not a list".to_string()),
            };
            match index {
                Ok((index_big, index_crc)) => {
                    sharding = Some(json!({
                        "shard_shape": chunks,
                        "index_location": conf.get("index_location").cloned()
                            .unwrap_or(json!("end")),
                        "index_big": index_big,
                        "index_crc": index_crc,
                    }));
                }
                // Reading the data fails with NC_ENOFILTER.
                Err(why) => v2codecs.push(json!({ "id": format!("sharding_indexed {why}") })),
            }
            chunks = inner;
            (big, fortran, v2codecs)
        }
        _ => chain(codecs),
    };
    let e = if big { '>' } else { '<' };
    let data_type = node.get("data_type").and_then(Value::as_str).unwrap_or("");
    let dtype = match data_type {
        "bool" => "|b1".to_string(),
        "int8" => "|i1".to_string(),
        "uint8" => "|u1".to_string(),
        "int16" | "int32" | "int64" | "uint16" | "uint32" | "uint64" | "float32" | "float64" => {
            let kind = &data_type[..1];
            let bits: usize = data_type
                .trim_start_matches(char::is_alphabetic)
                .parse()
                .unwrap_or(0);
            format!("{e}{kind}{}", bits / 8)
        }
        "string" => "|O".to_string(),
        other => {
            return Err(Error::with_detail(
                ErrorKind::BadType,
                format!("{key}: data type {other:?}"),
            ))
        }
    };
    let (separator, encoding) = match node.get("chunk_key_encoding") {
        Some(enc) => {
            let sep = enc
                .pointer("/configuration/separator")
                .and_then(Value::as_str);
            match enc.get("name").and_then(Value::as_str) {
                Some("v2") => (sep.unwrap_or(".").to_string(), None),
                _ => (sep.unwrap_or("/").to_string(), Some(enc.clone())),
            }
        }
        None => ("/".to_string(), Some(json!({"name": "default"}))),
    };
    let (filters, compressor) = match v2codecs.split_last() {
        Some((last, rest)) if last.get("id").and_then(Value::as_str) != Some("vlen-utf8") => {
            (Value::Array(rest.to_vec()), last.clone())
        }
        _ => (Value::Array(v2codecs), Value::Null),
    };
    let mut m = json_map(json!({
        "zarr_format": 2,
        "shape": shape,
        "chunks": chunks,
        "dtype": dtype,
        "fill_value": node.get("fill_value").cloned().unwrap_or(Value::Null),
        "order": if fortran { "F" } else { "C" },
        "filters": filters,
        "compressor": compressor,
        "dimension_separator": separator,
    }));
    if let Some(enc) = encoding {
        m.insert("chunk_key_encoding".into(), enc);
    }
    if let Some(sh) = sharding {
        m.insert(super::shard::ZARRAY_KEY.into(), sh);
    }
    Ok(m)
}

/// A v3 codec list (without sharding) as v2 codec configurations: whether `bytes` is
/// big-endian, whether `transpose` reverses the axes (Fortran order), and the other codecs.
fn chain(codecs: &[Value]) -> (bool, bool, Vec<Value>) {
    let mut big = false;
    let mut fortran = false;
    let mut v2codecs: Vec<Value> = Vec::new();
    for c in codecs {
        let name = c.get("name").and_then(Value::as_str).unwrap_or("");
        let conf = c.get("configuration").cloned().unwrap_or_else(|| json!({}));
        match name {
            "bytes" => big = conf.get("endian").and_then(Value::as_str) == Some("big"),
            "transpose" => {
                let order: Vec<u64> = conf
                    .get("order")
                    .and_then(Value::as_array)
                    .map(|o| o.iter().filter_map(Value::as_u64).collect())
                    .unwrap_or_default();
                let n = order.len() as u64;
                if order
                    .iter()
                    .enumerate()
                    .all(|(i, &o)| o == n - 1 - i as u64)
                {
                    fortran = true;
                } else if !order.iter().enumerate().all(|(i, &o)| o == i as u64) {
                    v2codecs.push(json!({"id": format!("transpose {order:?}")}));
                }
            }
            "vlen-utf8" => v2codecs.push(json!({"id": "vlen-utf8"})),
            "gzip" => v2codecs.push(
                json!({"id": "gzip", "level": conf.get("level").cloned().unwrap_or(json!(1))}),
            ),
            "zstd" => v2codecs.push(
                json!({"id": "zstd", "level": conf.get("level").cloned().unwrap_or(json!(0))}),
            ),
            "crc32c" => v2codecs.push(json!({"id": "crc32c"})),
            "blosc" => {
                let shuffle = match conf.get("shuffle").and_then(Value::as_str) {
                    Some("shuffle") => 1,
                    Some("bitshuffle") => 2,
                    _ => 0,
                };
                v2codecs.push(json!({
                    "id": "blosc",
                    "cname": conf.get("cname").cloned().unwrap_or(json!("lz4")),
                    "clevel": conf.get("clevel").cloned().unwrap_or(json!(5)),
                    "shuffle": shuffle,
                    "blocksize": conf.get("blocksize").cloned().unwrap_or(json!(0)),
                }));
            }
            // Sharding nested or not alone, and codecs we do not know: reading the data fails
            // with NC_ENOFILTER.
            other => v2codecs.push(json!({ "id": other })),
        }
    }
    (big, fortran, v2codecs)
}
