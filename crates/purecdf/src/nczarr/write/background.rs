//! Whole chunks encoded and stored on rayon's pool while the writer goes on: a write that
//! completes a chunk copies it into a buffer (one kept from an earlier chunk when there is one),
//! hands it to the pool and returns, so a program writing one chunk per call keeps every core
//! encoding and writing while it prepares the next.
//!
//! Until a chunk's job is collected its bytes stay here, so reads and partial writes see them.
//! Jobs are collected when they are done, at the latest when more than
//! [`purecdf_codecs::buffers::inflight_bytes`] are waiting, and all of them before the cache is flushed (so metadata is written only after the
//! chunks it describes are stored). A chunk whose job failed goes back to the writer's cache with
//! the error, so `sync` or `close` tries again and no written value is lost.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};

use crate::error::{Error, ErrorKind, Result};

/// A chunk's variable and grid coordinates.
pub(super) type ChunkId = (usize, Vec<u64>);

/// How many chunk buffers are kept for the next chunks: a fresh buffer costs the writing thread
/// a page fault per 4 KiB, a reused one none.
const SPARE_BUFFERS: usize = 16;

/// What the pool's threads report: each finished job's chunk and result.
#[derive(Default)]
struct Finished {
    list: Mutex<Vec<(ChunkId, Result<()>)>>,
    cond: Condvar,
}

/// The chunks being encoded and stored.
#[derive(Default)]
pub(super) struct Background {
    /// Each chunk in flight, as written.
    inflight: HashMap<ChunkId, Arc<Vec<u8>>>,
    bytes: usize,
    finished: Arc<Finished>,
    spare: Vec<Vec<u8>>,
}

impl std::fmt::Debug for Background {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} chunks in flight", self.inflight.len())
    }
}

fn thread_failed() -> Error {
    Error::with_detail(ErrorKind::Nczarr, "a chunk writing thread failed")
}

impl Background {
    /// The bytes of a chunk in flight.
    pub(super) fn get(&self, id: &ChunkId) -> Option<&[u8]> {
        self.inflight.get(id).map(|b| b.as_slice())
    }

    /// An empty buffer with room for `len` bytes (a kept one when there is one).
    pub(super) fn buffer(&mut self, len: usize) -> Vec<u8> {
        match self.spare.iter().position(|b| b.capacity() >= len) {
            Some(i) => {
                let mut b = self.spare.swap_remove(i);
                b.clear();
                b
            }
            None => purecdf_codecs::buffers::take(len),
        }
    }

    /// Hands chunk `id` (its bytes `raw`) to `job` on the pool, then collects the jobs done.
    /// From a pool thread (which must not wait on the pool) the job runs here. A chunk already
    /// in flight is waited for first, so its stores happen in the order written.
    ///
    /// # Errors
    /// The first error of a job collected; each failed chunk is given to `failed`.
    pub(super) fn submit(
        &mut self,
        id: ChunkId,
        raw: Vec<u8>,
        job: impl FnOnce(&[u8]) -> Result<()> + Send + 'static,
        failed: &mut dyn FnMut(ChunkId, Vec<u8>),
    ) -> Result<()> {
        if self.inflight.contains_key(&id) {
            self.collect(0, failed)?;
        }
        if rayon::current_thread_index().is_some() {
            let r = job(&raw);
            if r.is_err() {
                failed(id, raw);
            } else {
                self.recycle(raw);
            }
            return r;
        }
        let raw = Arc::new(raw);
        let (mine, done, key) = (raw.clone(), self.finished.clone(), id.clone());
        rayon::spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mine)))
                .unwrap_or_else(|_| Err(thread_failed()));
            // Let go of the chunk first, so that the writer can reuse its buffer.
            drop(mine);
            if let Ok(mut list) = done.list.lock() {
                list.push((key, r));
            }
            done.cond.notify_all();
        });
        let keep = purecdf_codecs::buffers::inflight_bytes(raw.len());
        self.bytes += raw.len();
        self.inflight.insert(id, raw);
        self.collect(keep, failed)
    }

    /// Collects every job (waiting for them).
    ///
    /// # Errors
    /// As [`Background::submit`].
    pub(super) fn drain(&mut self, failed: &mut dyn FnMut(ChunkId, Vec<u8>)) -> Result<()> {
        self.collect(0, failed)
    }

    /// Collects the jobs done, waiting for more while over `keep` bytes are in flight.
    fn collect(&mut self, keep: usize, failed: &mut dyn FnMut(ChunkId, Vec<u8>)) -> Result<()> {
        let mut first_err = None;
        loop {
            let done = {
                let Ok(mut list) = self.finished.list.lock() else {
                    return Err(thread_failed());
                };
                while list.is_empty() && self.bytes > keep && !self.inflight.is_empty() {
                    list = match self.finished.cond.wait(list) {
                        Ok(l) => l,
                        Err(_) => return Err(thread_failed()),
                    };
                }
                std::mem::take(&mut *list)
            };
            if done.is_empty() {
                break;
            }
            for (id, r) in done {
                let Some(raw) = self.inflight.remove(&id) else {
                    continue;
                };
                self.bytes -= raw.len();
                let raw = Arc::try_unwrap(raw).unwrap_or_else(|shared| shared.to_vec());
                match r {
                    Ok(()) => self.recycle(raw),
                    Err(e) => {
                        first_err.get_or_insert(e);
                        failed(id, raw);
                    }
                }
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    /// Keeps a stored chunk's buffer for [`Background::buffer`] (the rest go to the encoders'
    /// [`purecdf_codecs::buffers`]).
    fn recycle(&mut self, b: Vec<u8>) {
        if self.spare.len() < SPARE_BUFFERS && b.capacity() >= 4096 {
            self.spare.push(b);
        } else {
            purecdf_codecs::buffers::give(b);
        }
    }
}
