//! Filtered chunks written to the file on rayon's pool: once a chunk has its address (space is
//! allocated here, in the order chunks complete, so the layout does not depend on timing), its
//! bytes go to the file from a pool thread and the writer goes on. Chunks occupy space allocated
//! for them alone, so these writes never overlap anything else written.
//!
//! Everything that reads the file or makes it reachable waits for them first: reading back
//! ([`Hdf5Writer::read`], [`Hdf5Writer::reader`], a partly rewritten chunk) and every flush. A
//! failed write is tried again at each collection and reported until it succeeds, so a flush
//! never writes a superblock recording chunks whose bytes are not there.

use std::sync::{Arc, Condvar, Mutex};

use crate::write::{Hdf5Writer, WriteResult};

/// What the writes in flight share with the writer.
#[derive(Default)]
struct State {
    /// Writes not finished.
    count: usize,
    /// Their bytes.
    bytes: usize,
    /// Writes that failed: address, bytes and error (tried again by the next collection).
    failed: Vec<(u64, Vec<u8>, std::io::Error)>,
    /// Buffers of finished writes, for reuse.
    done: Vec<Vec<u8>>,
}

/// Buffers of finished writes, and the writes that failed.
type Finished = (Vec<Vec<u8>>, Vec<(u64, Vec<u8>, std::io::Error)>);

/// The writes in flight.
#[derive(Default)]
pub(crate) struct WriteBack {
    state: Arc<(Mutex<State>, Condvar)>,
}

impl std::fmt::Debug for WriteBack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WriteBack")
    }
}

impl WriteBack {
    /// Waits until at most `keep` bytes are being written; returns the buffers of the writes
    /// done and the writes that failed.
    fn wait(&self, keep: usize) -> std::io::Result<Finished> {
        let broken = || std::io::Error::other("a chunk writer thread failed");
        let (lock, cond) = &*self.state;
        let mut s = lock.lock().map_err(|_| broken())?;
        while s.count > 0 && s.bytes > keep {
            s = cond.wait(s).map_err(|_| broken())?;
        }
        Ok((std::mem::take(&mut s.done), std::mem::take(&mut s.failed)))
    }
}

impl Hdf5Writer {
    /// Writes `buf` at relative address `at` (space allocated for it alone) on rayon's pool, or
    /// here when called from a pool thread; keeps at most
    /// [`purecdf_codecs::buffers::inflight_bytes`] in flight.
    ///
    /// # Errors
    /// The first failure of an earlier write.
    pub(crate) fn write_chunk_bytes(&mut self, at: u64, buf: Vec<u8>) -> WriteResult<()> {
        if rayon::current_thread_index().is_some() {
            self.io.write_at(at, &buf)?;
            purecdf_codecs::buffers::give(buf);
            return Ok(());
        }
        {
            let (lock, _) = &*self.writeback.state;
            if let Ok(mut s) = lock.lock() {
                s.count += 1;
                s.bytes += buf.len();
            }
        }
        let keep = purecdf_codecs::buffers::inflight_bytes(buf.len());
        let (io, state) = (self.io.clone(), self.writeback.state.clone());
        rayon::spawn(move || {
            let r = io.write_at(at, &buf);
            let (lock, cond) = &*state;
            if let Ok(mut s) = lock.lock() {
                s.count -= 1;
                s.bytes -= buf.len();
                match r {
                    Ok(()) => s.done.push(buf),
                    Err(e) => s.failed.push((at, buf, e)),
                }
            }
            cond.notify_all();
        });
        self.collect_writes(keep)
    }

    /// Waits for every chunk write.
    ///
    /// # Errors
    /// The first failure of a write.
    pub(crate) fn finish_writes(&mut self) -> WriteResult<()> {
        self.collect_writes(0)
    }

    /// Waits for every chunk write, for reading the file from `&self`; a failure stays for the
    /// next write or flush to report (none of the writer's methods makes the chunks reachable
    /// before that).
    pub(crate) fn await_writes(&self) {
        let (lock, cond) = &*self.writeback.state;
        if let Ok(mut s) = lock.lock() {
            while s.count > 0 {
                s = match cond.wait(s) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
        }
    }

    /// Collects the writes done, waiting while over `keep` bytes are in flight, and tries the
    /// failed ones again here: a failure is reported (and kept for the next try) until its write
    /// succeeds, so no flush records a chunk whose bytes are missing.
    fn collect_writes(&mut self, keep: usize) -> WriteResult<()> {
        let (done, failed) = self.writeback.wait(keep)?;
        // Stored chunks' buffers go back to the encoders.
        for b in done {
            purecdf_codecs::buffers::give(b);
        }
        let mut first_err = None;
        for (at, buf, e) in failed {
            match self.io.write_at(at, &buf) {
                Ok(()) => purecdf_codecs::buffers::give(buf),
                Err(again) => {
                    first_err.get_or_insert(e);
                    let (lock, _) = &*self.writeback.state;
                    if let Ok(mut s) = lock.lock() {
                        s.failed.push((at, buf, again));
                    }
                }
            }
        }
        first_err.map_or(Ok(()), |e| Err(e.into()))
    }
}
