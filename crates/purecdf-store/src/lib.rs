//! Key/value stores ("zmaps" in netcdf-c's NCZarr, `../shared/spec/nczarr.md`, "NCZarr Map
//! Implementation"): the storage a Zarr dataset lives in, seen as a flat set of keys.
//!
//! A key is a `/`-separated path relative to the store's root, without a leading `/`
//! (`"g/v/.zarray"`, `"v/0.0"`); the empty key is the root. The [`Store`] trait has the four
//! operations a Zarr layer needs: read a whole object, write one, erase a key or a whole prefix,
//! and list the immediate children of a prefix; and reading part of an object
//! ([`Store::get_range`], which [`DirectoryStore`] does without reading the rest). A missing key
//! is `Ok(None)`, not an error.
//!
//! Implementations: [`DirectoryStore`] (a directory tree: one file per key, netcdf-c's `file`
//! mode), [`ZipStore`] (a zip archive, netcdf-c's `zip` mode, and zarr-python's `ZipStore`) and
//! [`MemoryStore`]; with feature `remote`, [`remote::S3Store`] (an S3 bucket, netcdf-c's `s3` mode)
//! and [`remote::RangeReader`] (one remote object read with `Range` requests, `#mode=bytes`).

mod directory;
mod key;
mod memory;
#[cfg(feature = "remote")]
pub mod remote;
mod zip;

use std::fmt::Debug;

pub use directory::DirectoryStore;
pub use key::{check_key, immediate_children, join_key, percent_decode};
pub use memory::MemoryStore;
pub use zip::ZipStore;

/// What went wrong in a store, with the key it happened at.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// An operating-system error reading or writing `key`.
    #[error("{key}: {source}")]
    Io {
        /// The key (or the store's path when no key applies).
        key: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A key that is not a plain relative path (`..`, an empty segment, a leading `/`).
    #[error("invalid key {0:?}")]
    BadKey(String),
    /// The store was opened read-only.
    #[error("the store is read-only (writing {0})")]
    ReadOnly(String),
    /// The container is malformed (e.g. a zip archive whose directory cannot be parsed).
    #[error("{what} at {place}")]
    Corrupt {
        /// What is wrong.
        what: String,
        /// Where: a key, or an offset in the container.
        place: String,
    },
    /// A request to a remote store failed (after its retries).
    #[error("{url}: {what}")]
    Remote {
        /// The URL (never with credentials or a query string).
        url: String,
        /// What happened, e.g. `GET answered 403 AccessDenied`.
        what: String,
        /// The HTTP status, when there was an answer.
        status: Option<u16>,
    },
    /// An object larger than this build can hold in memory.
    #[error("{key}: object of {size} bytes is too large")]
    TooLarge {
        /// The key.
        key: String,
        /// Its size in bytes.
        size: u64,
    },
}

/// Result type of store operations.
pub type Result<T> = std::result::Result<T, StoreError>;

/// A part of an object to read with [`Store::get_range`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteRange {
    /// `len` bytes from byte `start`.
    From {
        /// The first byte.
        start: u64,
        /// How many bytes.
        len: u64,
    },
    /// The last `n` bytes.
    Last(u64),
}

impl ByteRange {
    /// The bytes of this range in an object of `size` bytes, as `start..end` (cut short where
    /// the object ends first).
    pub fn within(self, size: u64) -> std::ops::Range<u64> {
        match self {
            ByteRange::From { start, len } => {
                let start = start.min(size);
                start..start.saturating_add(len).min(size)
            }
            ByteRange::Last(n) => size.saturating_sub(n)..size,
        }
    }
}

/// A key/value store holding one Zarr dataset. Implementations are shared between threads:
/// reads take `&self` and may run concurrently.
pub trait Store: Send + Sync + Debug {
    /// The whole object at `key`, or `None` when there is no such key.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the object exists but cannot be read.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>>;

    /// The names of the immediate children of `prefix` (the empty prefix is the root): keys
    /// and deeper prefixes alike, each once, sorted bytewise. A missing prefix has no children.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the listing fails.
    fn list(&self, prefix: &str) -> Result<Vec<String>>;

    /// Writes (replaces) the object at `key`. A reader never sees a partly written object.
    ///
    /// # Errors
    /// [`StoreError::ReadOnly`] for a read-only store, [`StoreError::Io`] on failure.
    fn set(&self, key: &str, value: &[u8]) -> Result<()>;

    /// Removes `key` and every key below it; removing nothing is not an error.
    ///
    /// # Errors
    /// [`StoreError::ReadOnly`] for a read-only store, [`StoreError::Io`] on failure.
    fn erase(&self, key: &str) -> Result<()>;

    /// Writes out whatever the store holds back (a zip store writes its archive here), without
    /// waiting for it to reach the disk (as netcdf-c's `nc_close`).
    ///
    /// # Errors
    /// [`StoreError::Io`] on failure.
    fn flush(&self) -> Result<()> {
        Ok(())
    }

    /// [`Store::flush`], then makes everything written so far durable (`fsync`; as `nc_sync`).
    ///
    /// # Errors
    /// [`StoreError::Io`] on failure.
    fn sync(&self) -> Result<()> {
        self.flush()
    }

    /// Part of the object at `key` and the object's whole size in bytes, or `None` when there
    /// is no such key. The part is shorter than asked where the object ends first. The default
    /// reads the whole object; stores that can read a part alone override it and
    /// [`Store::reads_parts`].
    ///
    /// # Errors
    /// As [`Store::get`].
    fn get_range(&self, key: &str, range: ByteRange) -> Result<Option<(Vec<u8>, u64)>> {
        Ok(self.get(key)?.map(|all| {
            let size = all.len() as u64;
            let r = range.within(size);
            (all[r.start as usize..r.end as usize].to_vec(), size)
        }))
    }

    /// True when [`Store::get_range`] reads only the part asked for (false: it reads the whole
    /// object, and a reader wanting several parts does better to [`Store::get`] it once).
    fn reads_parts(&self) -> bool {
        false
    }

    /// True when `key` holds an object. The default reads it; stores override it with a
    /// cheaper test.
    ///
    /// # Errors
    /// As [`Store::get`].
    fn exists(&self, key: &str) -> Result<bool> {
        Ok(self.get(key)?.is_some())
    }
}
