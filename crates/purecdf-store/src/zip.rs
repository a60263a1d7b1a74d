//! A store kept in a zip archive (netcdf-c's `zip` zmap, and zarr-python's `ZipStore`).
//!
//! The archive format is PKWARE's APPNOTE: a local header before each entry's data, a central
//! directory listing every entry, and an end-of-central-directory record (with its ZIP64
//! variants for archives over 4 GiB or 65,535 entries). Entries may be stored or deflated.
//!
//! netcdf-c puts every key under a top directory named after the archive (`x.zip` holds
//! `x/.zgroup`, ...); zarr-python's `ZipStore` puts them at the top. On opening, when the root
//! holds no Zarr metadata but all entries share one top directory, that directory is the
//! store's root.
//!
//! Writing: objects written to an open store are kept in memory and the whole archive is
//! written (to a temporary file renamed over the archive) by [`Store::flush`] and
//! [`Store::sync`], with every entry
//! stored uncompressed (chunks are compressed by their codecs already).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::key::{check_key, immediate_children};
use crate::{Result, Store, StoreError};

mod format;

use format::{read_central_directory, write_archive, Entry};

/// Objects written or erased since the archive was read: `None` marks an erased key.
type Pending = Mutex<BTreeMap<String, Option<Vec<u8>>>>;

/// A zip archive as a store.
#[derive(Debug)]
pub struct ZipStore {
    path: PathBuf,
    file: Option<std::fs::File>,
    /// The entries of the archive on disk, by key (top directory removed).
    entries: BTreeMap<String, Entry>,
    /// The top directory of the keys inside the archive (`"x/"`), or empty.
    top: String,
    /// Objects written or erased since the archive was read.
    pending: Option<Pending>,
}

fn io_err(key: &str, source: std::io::Error) -> StoreError {
    StoreError::Io {
        key: key.to_string(),
        source,
    }
}

/// True for the names of Zarr metadata objects at a store's root.
fn is_root_metadata(name: &str) -> bool {
    matches!(
        name,
        ".zgroup" | ".zarray" | ".zattrs" | ".zmetadata" | "zarr.json" | ".nczarr"
    )
}

impl ZipStore {
    /// Opens an existing archive; with `writable`, later writes are saved by [`Store::flush`].
    ///
    /// # Errors
    /// [`StoreError::Io`] when the file cannot be read, [`StoreError::Corrupt`] when it is not a
    /// zip archive.
    pub fn open(path: impl Into<PathBuf>, writable: bool) -> Result<ZipStore> {
        let path = path.into();
        let name = path.display().to_string();
        let file = std::fs::File::open(&path).map_err(|e| io_err(&name, e))?;
        let all = read_central_directory(&file, &name)?;
        let top = find_top(&all);
        let entries = all
            .into_iter()
            .filter_map(|(k, e)| k.strip_prefix(top.as_str()).map(|k| (k.to_string(), e)))
            .filter(|(k, _)| !k.is_empty() && !k.ends_with('/'))
            .collect();
        Ok(ZipStore {
            path,
            file: Some(file),
            entries,
            top,
            pending: writable.then(|| Mutex::new(BTreeMap::new())),
        })
    }

    /// Starts a new archive at `path` (written by [`Store::flush`]); keys go under a top
    /// directory named after the file, as netcdf-c writes them. Without `clobber` an existing
    /// file is an error.
    ///
    /// # Errors
    /// [`StoreError::Io`] when the file exists and `clobber` is false.
    pub fn create(path: impl Into<PathBuf>, clobber: bool) -> Result<ZipStore> {
        let path = path.into();
        if !clobber && path.exists() {
            return Err(io_err(
                &path.display().to_string(),
                std::io::Error::new(std::io::ErrorKind::AlreadyExists, "already exists"),
            ));
        }
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("data")
            .to_string();
        let store = ZipStore {
            path,
            file: None,
            entries: BTreeMap::new(),
            top: format!("{stem}/"),
            pending: Some(Mutex::new(BTreeMap::new())),
        };
        // An empty archive exists from the start, as a directory store's directory does.
        store.flush()?;
        Ok(store)
    }

    /// The archive's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn read_entry(&self, key: &str, e: &Entry) -> Result<Vec<u8>> {
        let file = self
            .file
            .as_ref()
            .ok_or_else(|| StoreError::ReadOnly(key.to_string()))?;
        let stored = format::read_entry_data(file, e, key)?;
        let data = match e.method {
            0 => stored,
            8 => {
                let cap = usize::try_from(e.size).map_err(|_| StoreError::TooLarge {
                    key: key.to_string(),
                    size: e.size,
                })?;
                // The directory's size is the archive's word: reserve no more than the stored
                // bytes can inflate to. A deflate match copies at most 258 bytes (RFC 1951
                // section 3.2.5) for a length and a distance code of at least 1 bit each
                // (section 3.2.7): under 1,032 to 1.
                let bound = stored.len().saturating_mul(1032).saturating_add(64);
                let mut out = Vec::with_capacity(cap.min(bound));
                flate2::read::DeflateDecoder::new(&stored[..])
                    .take(e.size.saturating_add(1))
                    .read_to_end(&mut out)
                    .map_err(|err| StoreError::Corrupt {
                        what: format!("bad deflate data ({err})"),
                        place: key.to_string(),
                    })?;
                out
            }
            m => {
                return Err(StoreError::Corrupt {
                    what: format!("unsupported compression method {m}"),
                    place: key.to_string(),
                })
            }
        };
        if data.len() as u64 != e.size {
            return Err(StoreError::Corrupt {
                what: format!("entry is {} bytes, directory says {}", data.len(), e.size),
                place: key.to_string(),
            });
        }
        let mut crc = flate2::Crc::new();
        crc.update(&data);
        if crc.sum() != e.crc32 {
            return Err(StoreError::Corrupt {
                what: "CRC-32 mismatch".into(),
                place: key.to_string(),
            });
        }
        Ok(data)
    }

    fn writable(&self, key: &str) -> Result<&Pending> {
        self.pending
            .as_ref()
            .ok_or_else(|| StoreError::ReadOnly(key.to_string()))
    }

    fn pending_get(&self, key: &str) -> Option<Option<Vec<u8>>> {
        let p = self.pending.as_ref()?.lock().ok()?;
        p.get(key).cloned()
    }
}

/// The common top directory of the archive's keys when its root holds no Zarr metadata.
fn find_top(entries: &BTreeMap<String, Entry>) -> String {
    if entries.keys().any(|k| is_root_metadata(k)) {
        return String::new();
    }
    let mut top: Option<&str> = None;
    for k in entries.keys() {
        let Some((first, _)) = k.split_once('/') else {
            return String::new();
        };
        match top {
            None => top = Some(first),
            Some(t) if t == first => {}
            Some(_) => return String::new(),
        }
    }
    top.map_or_else(String::new, |t| format!("{t}/"))
}

impl Store for ZipStore {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        check_key(key)?;
        if let Some(p) = self.pending_get(key) {
            return Ok(p);
        }
        match self.entries.get(key) {
            Some(e) => self.read_entry(key, e).map(Some),
            None => Ok(None),
        }
    }

    fn exists(&self, key: &str) -> Result<bool> {
        check_key(key)?;
        if let Some(p) = self.pending_get(key) {
            return Ok(p.is_some());
        }
        Ok(self.entries.contains_key(key))
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>> {
        check_key(prefix)?;
        let pending = match &self.pending {
            Some(p) => p.lock().map(|p| p.clone()).unwrap_or_default(),
            None => BTreeMap::new(),
        };
        let on_disk = self.entries.keys().filter(|k| !pending.contains_key(*k));
        let written = pending.iter().filter(|(_, v)| v.is_some()).map(|(k, _)| k);
        Ok(immediate_children(
            on_disk.chain(written).map(String::as_str),
            prefix,
        ))
    }

    fn set(&self, key: &str, value: &[u8]) -> Result<()> {
        check_key(key)?;
        if key.is_empty() {
            return Err(StoreError::BadKey(String::new()));
        }
        let p = self.writable(key)?;
        if let Ok(mut p) = p.lock() {
            p.insert(key.to_string(), Some(value.to_vec()));
        }
        Ok(())
    }

    fn erase(&self, key: &str) -> Result<()> {
        check_key(key)?;
        let p = self.writable(key)?;
        let below = format!("{key}/");
        let doomed: Vec<String> = self
            .entries
            .keys()
            .filter(|k| key.is_empty() || *k == key || k.starts_with(&below))
            .cloned()
            .collect();
        if let Ok(mut p) = p.lock() {
            p.retain(|k, _| !(key.is_empty() || k == key || k.starts_with(&below)));
            for k in doomed {
                p.insert(k, None);
            }
        }
        Ok(())
    }

    fn flush(&self) -> Result<()> {
        self.write_out(false)
    }

    fn sync(&self) -> Result<()> {
        self.write_out(true)
    }
}

impl ZipStore {
    /// Writes the archive (with `durable`, synced to the disk before it replaces the old one).
    fn write_out(&self, durable: bool) -> Result<()> {
        let Some(p) = &self.pending else {
            return Ok(());
        };
        let pending = p.lock().map(|p| p.clone()).unwrap_or_default();
        let mut objects: Vec<(String, Vec<u8>)> = Vec::new();
        for (k, e) in &self.entries {
            if !pending.contains_key(k) {
                objects.push((format!("{}{k}", self.top), self.read_entry(k, e)?));
            }
        }
        for (k, v) in pending {
            if let Some(v) = v {
                objects.push((format!("{}{k}", self.top), v));
            }
        }
        objects.sort_by(|a, b| a.0.cmp(&b.0));
        write_archive(&self.path, &objects, durable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_top_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.zip");
        let s = ZipStore::create(&path, false).unwrap();
        s.set(".zgroup", b"{\"zarr_format\": 2}").unwrap();
        s.set("v/.zarray", b"{}").unwrap();
        s.set("v/0", &[7u8; 1000]).unwrap();
        s.flush().unwrap();
        let r = ZipStore::open(&path, false).unwrap();
        assert_eq!(r.top, "x/");
        assert_eq!(r.list("").unwrap(), vec![".zgroup", "v"]);
        assert_eq!(r.list("v").unwrap(), vec![".zarray", "0"]);
        assert_eq!(r.get("v/0").unwrap().unwrap(), vec![7u8; 1000]);
        assert_eq!(r.get("v/1").unwrap(), None);
        assert!(r.set("a", b"").is_err());

        // Rewrite one key, erase another, keep the rest.
        let w = ZipStore::open(&path, true).unwrap();
        w.set("v/0", b"new").unwrap();
        w.erase("v/.zarray").unwrap();
        assert_eq!(w.list("v").unwrap(), vec!["0"]);
        w.flush().unwrap();
        let r = ZipStore::open(&path, false).unwrap();
        assert_eq!(r.get("v/0").unwrap().unwrap(), b"new");
        assert_eq!(r.get("v/.zarray").unwrap(), None);
        assert!(r.exists(".zgroup").unwrap());
    }

    #[test]
    fn not_a_zip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.zip");
        std::fs::write(&path, b"this is not a zip archive at all").unwrap();
        assert!(matches!(
            ZipStore::open(&path, false),
            Err(StoreError::Corrupt { .. })
        ));
    }
}
