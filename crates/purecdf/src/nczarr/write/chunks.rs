//! Chunks written and not yet stored: kept decoded (native-endian numbers, or strings) by
//! variable and grid coordinates; a partly written chunk starts from the stored chunk (or the
//! fill value). A chunk written whole by one write is encoded and stored in the background
//! (see [`super::background`]); flushing encodes the other chunks in parallel (byte order, then
//! the codecs) and stores them.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

use super::super::dtype::Dtype;
use super::super::meta::ArrayMeta;
use super::super::read::{chunk_key, chunk_parts, for_each_run, read_raw};
use super::super::strings::{encode_vlen_utf8, read_string_chunk, read_strings};
use super::super::zarr_slab;
use crate::error::{Error, ErrorKind, Result};
use crate::model::VarId;
use crate::selection::Hyperslab;
use purecdf_store::Store;

/// Cached bytes above which chunks are stored during writing.
const FLUSH_BYTES: usize = 64 << 20;

/// A decoded chunk.
enum Chunk {
    Raw(Vec<u8>),
    Strings(Vec<Option<String>>),
}

use super::super::codecs::Chain;
use super::background::{Background, ChunkId};

/// Written chunks by (variable, grid coordinates).
#[derive(Default)]
pub(super) struct ChunkCache {
    chunks: HashMap<ChunkId, Chunk>,
    bytes: usize,
    /// Whole chunks being encoded and stored.
    background: Background,
}

impl std::fmt::Debug for ChunkCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ChunkCache({} chunks)", self.chunks.len())
    }
}

fn nczarr_err(key: &str, what: impl std::fmt::Display) -> Error {
    Error::with_detail(ErrorKind::Nczarr, format!("{key}: {what}"))
}

impl ChunkCache {
    /// True when the cache should be stored.
    pub(super) fn is_full(&self) -> bool {
        self.bytes >= FLUSH_BYTES
    }

    /// The chunk to write into: cached, else in flight, else stored, else all fill value.
    fn raw_chunk(
        &mut self,
        store: &dyn Store,
        var: VarId,
        meta: &ArrayMeta,
        coords: &[u64],
    ) -> Result<&mut Vec<u8>> {
        let key = (var.0, coords.to_vec());
        if !self.chunks.contains_key(&key) {
            let data = match self.background.get(&key) {
                Some(b) => b.to_vec(),
                None => match meta.read_chunk(store, coords)? {
                    Some(d) => d,
                    None => meta.fill_bytes().repeat(meta.chunk_elements()),
                },
            };
            self.bytes += data.len();
            self.chunks.insert(key.clone(), Chunk::Raw(data));
        }
        match self.chunks.get_mut(&key) {
            Some(Chunk::Raw(d)) => Ok(d),
            _ => Err(Error::new(ErrorKind::BadType)),
        }
    }

    /// Writes native-endian elements of a fixed-size type into a hyperslab: the chunks it
    /// covers whole go to the background, the others into the cache.
    ///
    /// # Errors
    /// Reading a stored chunk; the first error of a background job collected meanwhile.
    pub(super) fn write_raw(
        &mut self,
        store: &Arc<dyn Store>,
        var: VarId,
        meta: &ArrayMeta,
        slab: &Hyperslab,
        data: &[u8],
    ) -> Result<()> {
        let es = meta.dtype.stored_size().ok_or(ErrorKind::BadType)?;
        let slab = zarr_slab(meta, slab);
        let mut first_err = None;
        for part in chunk_parts(&meta.chunks, &slab) {
            if covers_chunk(meta, &slab, &part) {
                let r = self.write_whole(store, var, meta, &slab, &part, data, es);
                if let Err(e) = r {
                    first_err.get_or_insert(e);
                }
                continue;
            }
            let chunk = self.raw_chunk(store.as_ref(), var, meta, &part.coords)?;
            for_each_run(meta, &slab, &part, |o, i, n| {
                chunk[i * es..(i + n) * es].copy_from_slice(&data[o * es..(o + n) * es]);
            });
        }
        first_err.map_or(Ok(()), Err)
    }

    /// Hands a chunk a write covers whole to the background (replacing any cached version).
    #[allow(clippy::too_many_arguments)]
    fn write_whole(
        &mut self,
        store: &Arc<dyn Store>,
        var: VarId,
        meta: &ArrayMeta,
        slab: &Hyperslab,
        part: &super::super::read::ChunkPart,
        data: &[u8],
        es: usize,
    ) -> Result<()> {
        let id = (var.0, part.coords.clone());
        if let Some(Chunk::Raw(old)) = self.chunks.remove(&id) {
            self.bytes -= old.len();
        }
        let len = meta.chunk_elements() * es;
        let mut raw = self.background.buffer(len);
        // Runs that continue each other (whole rows of a slab as wide as the chunk) are one
        // copy: a chunk the slab gives in one piece is copied once, not zeroed and then copied
        // row by row.
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        for_each_run(meta, slab, part, |o, i, n| match runs.last_mut() {
            Some((lo, li, ln)) if *lo + *ln == o && *li + *ln == i => *ln += n,
            _ => runs.push((o, i, n)),
        });
        match runs.as_slice() {
            [(o, 0, n)] if *n * es == len => raw.extend_from_slice(&data[o * es..(o + n) * es]),
            _ => {
                raw.resize(len, 0);
                for (o, i, n) in runs {
                    raw[i * es..(i + n) * es].copy_from_slice(&data[o * es..(o + n) * es]);
                }
            }
        }
        let (store, chain, dtype) = (store.clone(), meta.chain.clone(), meta.dtype);
        let name = chunk_key(meta, &part.coords);
        let job = move |raw: &[u8]| store_raw(store.as_ref(), &chain, dtype, &name, raw);
        let chunks = &mut self.chunks;
        let bytes = &mut self.bytes;
        self.background.submit(id, raw, job, &mut |id, raw| {
            *bytes += raw.len();
            chunks.entry(id).or_insert(Chunk::Raw(raw));
        })
    }

    /// Writes strings into a hyperslab.
    pub(super) fn write_strings(
        &mut self,
        store: &dyn Store,
        var: VarId,
        meta: &ArrayMeta,
        slab: &Hyperslab,
        data: &[Option<String>],
    ) -> Result<()> {
        let slab = zarr_slab(meta, slab);
        for part in chunk_parts(&meta.chunks, &slab) {
            let key = (var.0, part.coords.clone());
            if !self.chunks.contains_key(&key) {
                let items = match read_string_chunk(store, meta, &part.coords)? {
                    Some(s) => s,
                    None => vec![Some(String::new()); meta.chunk_elements()],
                };
                self.chunks.insert(key.clone(), Chunk::Strings(items));
            }
            let Some(Chunk::Strings(items)) = self.chunks.get_mut(&key) else {
                return Err(Error::new(ErrorKind::BadType));
            };
            let mut added = 0;
            for_each_run(meta, &slab, &part, |o, i, n| {
                for k in 0..n {
                    added += data[o + k].as_ref().map_or(0, String::len);
                    items[i + k].clone_from(&data[o + k]);
                }
            });
            self.bytes += added;
        }
        Ok(())
    }

    /// Reads a hyperslab, cached chunks first.
    pub(super) fn read_raw(
        &self,
        store: &dyn Store,
        var: VarId,
        meta: &ArrayMeta,
        slab: &Hyperslab,
        out: &mut [u8],
    ) -> Result<()> {
        read_raw(meta, &zarr_slab(meta, slab), out, |c, dst| {
            let id = (var.0, c.to_vec());
            let held = match self.chunks.get(&id) {
                Some(Chunk::Raw(d)) => Some(d.as_slice()),
                _ => self.background.get(&id),
            };
            match held {
                Some(d) if d.len() == dst.len() => {
                    dst.copy_from_slice(d);
                    Ok(true)
                }
                _ => meta.read_chunk_into(store, c, dst),
            }
        })
    }

    /// Reads a hyperslab of strings, cached chunks first.
    pub(super) fn read_strings(
        &self,
        store: &dyn Store,
        var: VarId,
        meta: &ArrayMeta,
        slab: &Hyperslab,
    ) -> Result<Vec<Option<String>>> {
        read_strings(meta, &zarr_slab(meta, slab), |c| {
            match self.chunks.get(&(var.0, c.to_vec())) {
                Some(Chunk::Strings(s)) => Ok(Some(s.clone())),
                _ => read_string_chunk(store, meta, c),
            }
        })
    }

    /// Waits for the background's chunks, then encodes and stores every cached chunk (in
    /// parallel), emptying the cache. On an error the chunks not stored stay cached.
    pub(super) fn flush(&mut self, store: &dyn Store, arrays: &[Option<ArrayMeta>]) -> Result<()> {
        let chunks = &mut self.chunks;
        let bytes = &mut self.bytes;
        let drained = self.background.drain(&mut |id, raw| {
            *bytes += raw.len();
            chunks.entry(id).or_insert(Chunk::Raw(raw));
        });
        let entries: Vec<(ChunkId, Chunk)> = self.chunks.drain().collect();
        self.bytes = 0;
        let results: Vec<((ChunkId, Chunk), Result<()>)> = entries
            .into_par_iter()
            .map(|(k, chunk)| {
                let r = store_chunk(store, arrays, &k, &chunk);
                ((k, chunk), r)
            })
            .collect();
        let mut first_err = None;
        for (entry, r) in results {
            if let Err(e) = r {
                first_err.get_or_insert(e);
                self.bytes += match &entry.1 {
                    Chunk::Raw(d) => d.len(),
                    Chunk::Strings(s) => s.len(),
                };
                self.chunks.insert(entry.0, entry.1);
            }
        }
        drained.and(first_err.map_or(Ok(()), Err))
    }
}

/// Encodes one chunk and stores it.
fn store_chunk(
    store: &dyn Store,
    arrays: &[Option<ArrayMeta>],
    key: &(usize, Vec<u64>),
    chunk: &Chunk,
) -> Result<()> {
    let meta = arrays
        .get(key.0)
        .and_then(Option::as_ref)
        .ok_or(ErrorKind::NotVar)?;
    let name = chunk_key(meta, &key.1);
    let encoded = match chunk {
        Chunk::Raw(d) => return store_raw(store, &meta.chain, meta.dtype, &name, d),
        Chunk::Strings(s) => match meta.dtype {
            Dtype::FixedBytes(n) => fixed_bytes(s, n).and_then(|b| meta.chain.encode(b)),
            _ => meta.chain.encode(encode_vlen_utf8(s)),
        },
    }
    .map_err(|e| nczarr_err(&name, e))?;
    store.set(&name, &encoded).map_err(super::super::store_err)
}

/// Encodes a chunk of native-endian numbers (byte order, then the codecs) and stores it at
/// `name`.
fn store_raw(store: &dyn Store, chain: &Chain, dtype: Dtype, name: &str, d: &[u8]) -> Result<()> {
    let es = dtype.stored_size().unwrap_or(1);
    let swap = es > 1 && dtype.is_big_endian() == cfg!(target_endian = "little");
    let encoded = if swap {
        let mut d = d.to_vec();
        for e in d.chunks_exact_mut(es) {
            e.reverse();
        }
        chain.encode(d)
    } else {
        chain.encode_slice(d)
    }
    .map_err(|e| nczarr_err(name, e))?;
    let stored = store.set(name, &encoded).map_err(super::super::store_err);
    // The encoders reuse the buffer for the next chunk.
    purecdf_codecs::buffers::give(encoded);
    stored
}

/// Strings as fixed-size elements of `n` bytes (`|S<n>`), NUL-padded; a longer string is an
/// error (it would be cut short).
fn fixed_bytes(items: &[Option<String>], n: usize) -> std::result::Result<Vec<u8>, String> {
    let mut out = vec![0u8; items.len() * n];
    for (dst, s) in out.chunks_exact_mut(n).zip(items) {
        let b = s.as_deref().unwrap_or("").as_bytes();
        if b.len() > n {
            return Err(format!(
                "a string of {} bytes does not fit the array's {n}-byte strings",
                b.len()
            ));
        }
        dst[..b.len()].copy_from_slice(b);
    }
    Ok(out)
}

/// True when a contiguous write covers every element of a chunk inside the array (an edge
/// chunk's part outside the array must keep the fill value: the array may grow over it).
fn covers_chunk(meta: &ArrayMeta, slab: &Hyperslab, part: &super::super::read::ChunkPart) -> bool {
    (0..meta.chunks.len()).all(|d| {
        let c = meta.chunks[d];
        let lo = part.coords[d] * c;
        slab.stride[d] <= 1 && lo + c <= meta.shape[d] && part.ranges[d].1 - part.ranges[d].0 == c
    })
}
