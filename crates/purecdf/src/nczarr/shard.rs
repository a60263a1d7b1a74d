//! Zarr v3 sharding (the `sharding_indexed` codec, Zarr v3 specification "Sharding codec",
//! `codecs/sharding-indexed/v1.0`): each stored object (a shard) holds a block of inner chunks,
//! each encoded with the inner codecs, and an index of one `(offset, nbytes)` pair of unsigned
//! 64-bit integers per inner chunk, in C order of the inner chunks' positions in the shard,
//! encoded by the index codecs (`bytes`, little- or big-endian, then usually `crc32c`) and
//! stored at the shard's `start` or `end`. A pair of 2^64-1 marks an inner chunk never written;
//! a shard missing from the store is all fill value.
//!
//! `super::v3` reads a sharded array as an array of its inner chunks and keeps the shard layout
//! under [`ZARRAY_KEY`]. Fetching an inner chunk reads its shard's index (checked once: its
//! size, its checksum) and then only that inner chunk's bytes, where the store reads parts of
//! objects (`Store::reads_parts`: a directory, S3); from other stores (zip, memory) it fetches
//! the whole shard and cuts the inner chunk out of it. A few recently used shards (their index,
//! or the whole shard) are kept, so that reading a shard's inner chunks one after another
//! fetches each once.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use crate::json::{Map, Value};

use super::meta::ArrayMeta;
use crate::error::{Error, ErrorKind, Result};

/// The `.zarray` key under which `super::v3` records a sharded array's shard layout.
pub(crate) const ZARRAY_KEY: &str = "_purecdf_v3_sharding";

/// The most inner chunks a shard may hold (its index is then 256 MiB).
const MAX_INNER_CHUNKS: u64 = 1 << 24;

/// How many recently fetched shards are kept.
const CACHED_SHARDS: usize = 8;

/// An inner chunk never written: both numbers of its index entry.
const EMPTY: u64 = u64::MAX;

fn bad(key: &str, what: impl std::fmt::Display) -> Error {
    Error::with_detail(ErrorKind::Nczarr, format!("{key}: {what}"))
}

/// Reads a v3 `index_codecs` list: `bytes` (its endianness), optionally followed by `crc32c`.
/// Answers (big-endian, checksummed), or why the list is not supported.
pub(crate) fn index_codecs(list: &[Value]) -> std::result::Result<(bool, bool), String> {
    let name = |c: &Value| c.get("name").and_then(Value::as_str).map(str::to_string);
    match list {
        [bytes, rest @ ..] if name(bytes).as_deref() == Some("bytes") => {
            let big = bytes
                .pointer("/configuration/endian")
                .and_then(Value::as_str)
                == Some("big");
            match rest {
                [] => Ok((big, false)),
                [crc] if name(crc).as_deref() == Some("crc32c") => Ok((big, true)),
                _ => Err(format!("index codecs {}", Value::Array(list.to_vec()))),
            }
        }
        _ => Err(format!("index codecs {}", Value::Array(list.to_vec()))),
    }
}

/// A shard as fetched: its size and either the whole shard or its index alone.
#[derive(Debug)]
struct Fetched {
    /// The shard's size in bytes.
    size: u64,
    /// The whole shard, or only its index.
    bytes: Vec<u8>,
    /// Where the index starts in `bytes`.
    index_at: usize,
    /// `bytes` is the whole shard.
    whole: bool,
}

/// A shard being fetched: the slot stays empty until the first reader has fetched it; then it
/// holds the shard, or `None` for a shard missing from the store.
type Slot = Arc<Mutex<Option<Option<Arc<Fetched>>>>>;

/// A sharded array's shard layout.
#[derive(Debug)]
pub(crate) struct Sharding {
    /// Inner chunks per shard, per dimension.
    per_shard: Vec<u64>,
    /// The index is at the shard's start (else at its end).
    at_start: bool,
    /// The index's numbers are big-endian.
    big: bool,
    /// The index ends in a CRC-32C of its entries.
    crc: bool,
    /// Recently fetched shards by key, oldest first.
    recent: Mutex<VecDeque<(String, Slot)>>,
}

impl Sharding {
    /// The shard layout recorded in a `.zarray` (none for an unsharded array); `chunks` is the
    /// inner chunk shape.
    ///
    /// # Errors
    /// NC_ENCZARR naming `key` when the shard shape is not a whole number of inner chunks in
    /// each dimension, or holds more than 2^24 of them.
    pub(crate) fn parse(zarray: &Map, chunks: &[u64], key: &str) -> Result<Option<Sharding>> {
        let Some(conf) = zarray.get(ZARRAY_KEY) else {
            return Ok(None);
        };
        let shard: Vec<u64> = conf
            .get("shard_shape")
            .and_then(Value::as_array)
            .map(|s| s.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        if shard.len() != chunks.len() {
            return Err(bad(
                key,
                format!("shard shape {shard:?} and inner chunk shape {chunks:?} differ in rank"),
            ));
        }
        let mut per_shard = Vec::with_capacity(shard.len());
        let mut total: u64 = 1;
        for (&s, &c) in shard.iter().zip(chunks) {
            if s == 0 || c == 0 || s % c != 0 {
                return Err(bad(
                    key,
                    format!("shard shape {shard:?} is not a multiple of inner chunks {chunks:?}"),
                ));
            }
            per_shard.push(s / c);
            total = total
                .checked_mul(s / c)
                .filter(|&t| t <= MAX_INNER_CHUNKS)
                .ok_or_else(|| {
                    bad(
                        key,
                        format!("shards of {shard:?} hold too many inner chunks"),
                    )
                })?;
        }
        let at_start = match conf.get("index_location").and_then(Value::as_str) {
            Some("start") => true,
            Some("end") => false,
            other => return Err(bad(key, format!("index_location {other:?}"))),
        };
        let flag = |k: &str| conf.get(k).and_then(Value::as_bool).unwrap_or(false);
        Ok(Some(Sharding {
            per_shard,
            at_start,
            big: flag("index_big"),
            crc: flag("index_crc"),
            recent: Mutex::default(),
        }))
    }

    /// Inner chunks per shard.
    fn inner_count(&self) -> usize {
        self.per_shard.iter().product::<u64>() as usize
    }

    /// The index's size in bytes.
    fn index_bytes(&self) -> usize {
        self.inner_count() * 16 + if self.crc { 4 } else { 0 }
    }

    /// The stored bytes of the inner chunk at `coords` (inner chunk grid coordinates) with the
    /// key it is reported under, or `None` when its shard or the chunk itself is missing.
    ///
    /// # Errors
    /// NC_ENCZARR naming the shard's key for an index that is truncated, fails its checksum, or
    /// points past the shard's end; store errors.
    pub(crate) fn inner_chunk(
        &self,
        store: &dyn purecdf_store::Store,
        meta: &ArrayMeta,
        coords: &[u64],
    ) -> Result<Option<(String, Vec<u8>)>> {
        let outer: Vec<u64> = coords
            .iter()
            .zip(&self.per_shard)
            .map(|(c, n)| c / n)
            .collect();
        let mut entry = 0u64;
        for (c, n) in coords.iter().zip(&self.per_shard) {
            entry = entry * n + c % n;
        }
        let key = super::read::chunk_key(meta, &outer);
        let Some(shard) = self.shard(store, &key)? else {
            return Ok(None);
        };
        let at = shard.index_at + entry as usize * 16;
        let number = |i: usize| {
            let b: [u8; 8] = shard.bytes[i..i + 8].try_into().unwrap_or_default();
            if self.big {
                u64::from_be_bytes(b)
            } else {
                u64::from_le_bytes(b)
            }
        };
        let (offset, nbytes) = (number(at), number(at + 8));
        if offset == EMPTY && nbytes == EMPTY {
            return Ok(None);
        }
        let inner_key = format!("{key} (inner chunk {coords:?})");
        let past = |size: u64| {
            bad(
                &inner_key,
                format!("index entry ({offset}, {nbytes}) runs past the shard's {size} bytes"),
            )
        };
        let end = offset
            .checked_add(nbytes)
            .filter(|&e| e <= shard.size)
            .ok_or_else(|| past(shard.size))?;
        if shard.whole {
            return Ok(Some((
                inner_key,
                shard.bytes[offset as usize..end as usize].to_vec(),
            )));
        }
        let range = purecdf_store::ByteRange::From {
            start: offset,
            len: nbytes,
        };
        match store.get_range(&key, range).map_err(super::store_err)? {
            Some((bytes, _)) if bytes.len() as u64 == nbytes => Ok(Some((inner_key, bytes))),
            // The shard shrank or went away since its index was read.
            Some((_, size)) => Err(past(size)),
            None => Err(bad(&inner_key, "the shard is gone")),
        }
    }

    /// The shard at `key` (its index alone where the store reads parts) with its index
    /// checked, fetched once while it is among the recent ones.
    fn shard(&self, store: &dyn purecdf_store::Store, key: &str) -> Result<Option<Arc<Fetched>>> {
        let slot = {
            let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
            match recent.iter().find(|(k, _)| k == key) {
                Some((_, s)) => s.clone(),
                None => {
                    let s = Slot::default();
                    recent.push_back((key.to_string(), s.clone()));
                    if recent.len() > CACHED_SHARDS {
                        recent.pop_front();
                    }
                    s
                }
            }
        };
        let mut held = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(shard) = &*held {
            return Ok(shard.clone());
        }
        let n = self.index_bytes();
        let fetched = if store.reads_parts() {
            let range = if self.at_start {
                purecdf_store::ByteRange::From {
                    start: 0,
                    len: n as u64,
                }
            } else {
                purecdf_store::ByteRange::Last(n as u64)
            };
            store
                .get_range(key, range)
                .map_err(super::store_err)?
                .map(|(bytes, size)| Fetched {
                    size,
                    bytes,
                    index_at: 0,
                    whole: false,
                })
        } else {
            store
                .get(key)
                .map_err(super::store_err)?
                .map(|bytes| Fetched {
                    size: bytes.len() as u64,
                    index_at: if self.at_start {
                        0
                    } else {
                        bytes.len().saturating_sub(n)
                    },
                    bytes,
                    whole: true,
                })
        };
        if let Some(f) = &fetched {
            self.check_index(f, key)?;
        }
        let fetched = fetched.map(Arc::new);
        *held = Some(fetched.clone());
        Ok(fetched)
    }

    /// Checks that a shard holds its whole index and that the index's checksum matches.
    fn check_index(&self, shard: &Fetched, key: &str) -> Result<()> {
        let n = self.index_bytes();
        if shard.size < n as u64 || shard.bytes.len() < shard.index_at + n {
            return Err(bad(
                key,
                format!(
                    "a shard of {} bytes, shorter than its {n}-byte index",
                    shard.size
                ),
            ));
        }
        let index = &shard.bytes[shard.index_at..shard.index_at + n];
        if self.crc {
            let (entries, sum) = index.split_at(n - 4);
            let want = u32::from_le_bytes(sum.try_into().unwrap_or_default());
            if super::codecs::crc32c(entries) != want {
                return Err(bad(key, "the shard index fails its crc32c checksum"));
            }
        }
        Ok(())
    }
}
