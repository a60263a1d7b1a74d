//! A store kept as a directory tree: the key `g/v/0.0` is the file `<root>/g/v/0.0`
//! (netcdf-c's `file` zmap, `../shared/spec/nczarr.md`, "Zmap Implementatons").

use std::io::ErrorKind as IoKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::key::check_key;
use crate::{Result, Store, StoreError};

/// A directory tree holding one object per file.
///
/// Writes go to a temporary file in the same directory that is then renamed over the key, so a
/// reader (or a crash) never sees half an object. [`Store::sync`] makes every object written
/// since the last sync durable (`fsync` of the files, then of their directories).
#[derive(Debug)]
pub struct DirectoryStore {
    root: PathBuf,
    writable: bool,
    /// Files written since the last flush, to be synced by the next one.
    unsynced: Mutex<Vec<PathBuf>>,
    /// Distinguishes the temporary files of concurrent writers in this process.
    counter: AtomicU64,
}

fn io_err(key: &str, source: std::io::Error) -> StoreError {
    StoreError::Io {
        key: key.to_string(),
        source,
    }
}

impl DirectoryStore {
    /// Opens the store rooted at `root`, which must be a directory.
    ///
    /// # Errors
    /// [`StoreError::Io`] when `root` is missing or not a directory.
    pub fn open(root: impl Into<PathBuf>, writable: bool) -> Result<DirectoryStore> {
        let root = root.into();
        let meta = std::fs::metadata(&root).map_err(|e| io_err(&root.display().to_string(), e))?;
        if !meta.is_dir() {
            return Err(io_err(
                &root.display().to_string(),
                std::io::Error::new(IoKind::NotADirectory, "not a directory"),
            ));
        }
        Ok(Self::new(root, writable))
    }

    /// Creates the directory `root` (and its parents) for a new, empty store. With `clobber`, an
    /// existing file or directory there is removed first; without it, an existing one is an
    /// error ([`std::io::ErrorKind::AlreadyExists`]).
    ///
    /// # Errors
    /// [`StoreError::Io`] when the directory cannot be created or removed.
    pub fn create(root: impl Into<PathBuf>, clobber: bool) -> Result<DirectoryStore> {
        let root = root.into();
        let name = root.display().to_string();
        match std::fs::symlink_metadata(&root) {
            Ok(m) if clobber => {
                if m.is_dir() {
                    std::fs::remove_dir_all(&root).map_err(|e| io_err(&name, e))?;
                } else {
                    std::fs::remove_file(&root).map_err(|e| io_err(&name, e))?;
                }
            }
            Ok(_) => {
                return Err(io_err(
                    &name,
                    std::io::Error::new(IoKind::AlreadyExists, "already exists"),
                ))
            }
            Err(e) if e.kind() == IoKind::NotFound => {}
            Err(e) => return Err(io_err(&name, e)),
        }
        std::fs::create_dir_all(&root).map_err(|e| io_err(&name, e))?;
        Ok(Self::new(root, true))
    }

    fn new(root: PathBuf, writable: bool) -> DirectoryStore {
        DirectoryStore {
            root,
            writable,
            unsynced: Mutex::new(Vec::new()),
            counter: AtomicU64::new(0),
        }
    }

    /// The directory the store lives in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &str) -> Result<PathBuf> {
        check_key(key)?;
        Ok(if key.is_empty() {
            self.root.clone()
        } else {
            self.root.join(key)
        })
    }

    fn writable(&self, key: &str) -> Result<()> {
        if self.writable {
            Ok(())
        } else {
            Err(StoreError::ReadOnly(key.to_string()))
        }
    }
}

impl Store for DirectoryStore {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let path = self.path(key)?;
        match std::fs::read(&path) {
            Ok(v) => Ok(Some(v)),
            Err(e) if matches!(e.kind(), IoKind::NotFound | IoKind::IsADirectory) => Ok(None),
            // A prefix named like a key (`a/b` where `a` is a file) is simply absent.
            Err(e) if e.kind() == IoKind::NotADirectory => Ok(None),
            Err(e) => Err(io_err(key, e)),
        }
    }

    fn get_range(&self, key: &str, range: crate::ByteRange) -> Result<Option<(Vec<u8>, u64)>> {
        use std::io::{Read, Seek, SeekFrom};
        let path = self.path(key)?;
        let mut file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e)
                if matches!(
                    e.kind(),
                    IoKind::NotFound | IoKind::IsADirectory | IoKind::NotADirectory
                ) =>
            {
                return Ok(None)
            }
            Err(e) => return Err(io_err(key, e)),
        };
        let meta = file.metadata().map_err(|e| io_err(key, e))?;
        if meta.is_dir() {
            return Ok(None);
        }
        let size = meta.len();
        let r = range.within(size);
        file.seek(SeekFrom::Start(r.start))
            .map_err(|e| io_err(key, e))?;
        let mut out = Vec::new();
        file.take(r.end - r.start)
            .read_to_end(&mut out)
            .map_err(|e| io_err(key, e))?;
        Ok(Some((out, size)))
    }

    fn reads_parts(&self) -> bool {
        true
    }

    fn exists(&self, key: &str) -> Result<bool> {
        let path = self.path(key)?;
        Ok(std::fs::metadata(path).is_ok_and(|m| m.is_file()))
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>> {
        let path = self.path(prefix)?;
        let dir = match std::fs::read_dir(&path) {
            Ok(d) => d,
            Err(e) if matches!(e.kind(), IoKind::NotFound | IoKind::NotADirectory) => {
                return Ok(Vec::new())
            }
            Err(e) => return Err(io_err(prefix, e)),
        };
        let mut names = Vec::new();
        for entry in dir {
            let entry = entry.map_err(|e| io_err(prefix, e))?;
            // Names that are not UTF-8 cannot be keys; skip them as foreign files.
            if let Ok(name) = entry.file_name().into_string() {
                if !name.starts_with(".tmp.") {
                    names.push(name);
                }
            }
        }
        names.sort();
        Ok(names)
    }

    fn set(&self, key: &str, value: &[u8]) -> Result<()> {
        self.writable(key)?;
        if key.is_empty() {
            return Err(StoreError::BadKey(String::new()));
        }
        let path = self.path(key)?;
        let dir = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(dir).map_err(|e| io_err(key, e))?;
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".tmp.{}.{n}", std::process::id()));
        let written = std::fs::write(&tmp, value).and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_err(key, e));
        }
        if let Ok(mut u) = self.unsynced.lock() {
            u.push(path);
        }
        Ok(())
    }

    fn erase(&self, key: &str) -> Result<()> {
        self.writable(key)?;
        let path = self.path(key)?;
        let gone = match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) => std::fs::remove_file(&path),
            Err(e) => Err(e),
        };
        match gone {
            Ok(()) => Ok(()),
            Err(e) if matches!(e.kind(), IoKind::NotFound | IoKind::NotADirectory) => Ok(()),
            Err(e) => Err(io_err(key, e)),
        }
    }

    fn sync(&self) -> Result<()> {
        let files = match self.unsynced.lock() {
            Ok(mut u) => std::mem::take(&mut *u),
            Err(_) => return Ok(()),
        };
        let mut dirs: Vec<&Path> = Vec::new();
        for f in &files {
            // A file erased since it was written needs no sync.
            if let Ok(h) = std::fs::File::open(f) {
                h.sync_all()
                    .map_err(|e| io_err(&f.display().to_string(), e))?;
            }
            if let Some(d) = f.parent() {
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
        }
        for d in dirs {
            if let Ok(h) = std::fs::File::open(d) {
                // Directories cannot be synced on every platform; the files are.
                let _ = h.sync_all();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_list_erase() {
        let dir = tempfile::tempdir().unwrap();
        let s = DirectoryStore::create(dir.path().join("s.zarr"), false).unwrap();
        assert_eq!(s.get(".zgroup").unwrap(), None);
        s.set(".zgroup", b"{}").unwrap();
        s.set("g/v/.zarray", b"[1]").unwrap();
        s.set("g/v/0.0", b"abc").unwrap();
        assert_eq!(s.get("g/v/0.0").unwrap().as_deref(), Some(&b"abc"[..]));
        assert_eq!(s.list("").unwrap(), vec![".zgroup", "g"]);
        assert_eq!(s.list("g/v").unwrap(), vec![".zarray", "0.0"]);
        assert_eq!(s.list("nope").unwrap(), Vec::<String>::new());
        assert_eq!(s.get("g").unwrap(), None, "a prefix is not an object");
        assert_eq!(s.get(".zgroup/x").unwrap(), None);
        assert!(s.exists("g/v/.zarray").unwrap());
        assert!(!s.exists("g/v").unwrap());
        // Parts of an object, cut short at its end; the default (whole-object) reading agrees.
        let mem =
            crate::MemoryStore::from_objects([("g/v/0.0".to_string(), b"abc".to_vec())]).unwrap();
        for range in [
            crate::ByteRange::From { start: 1, len: 1 },
            crate::ByteRange::From { start: 2, len: 9 },
            crate::ByteRange::From { start: 7, len: 2 },
            crate::ByteRange::Last(2),
            crate::ByteRange::Last(9),
        ] {
            let got = s.get_range("g/v/0.0", range).unwrap();
            assert_eq!(got, mem.get_range("g/v/0.0", range).unwrap(), "{range:?}");
        }
        assert_eq!(
            s.get_range("g/v/0.0", crate::ByteRange::Last(2)).unwrap(),
            Some((b"bc".to_vec(), 3))
        );
        assert_eq!(s.get_range("g", crate::ByteRange::Last(2)).unwrap(), None);
        assert_eq!(
            s.get_range("nope", crate::ByteRange::Last(2)).unwrap(),
            None
        );
        assert!(s.reads_parts() && !mem.reads_parts());
        s.sync().unwrap();
        s.erase("g").unwrap();
        assert_eq!(s.list("").unwrap(), vec![".zgroup"]);
        s.erase("missing").unwrap();
        assert!(matches!(s.get("../x"), Err(StoreError::BadKey(_))));
        assert!(DirectoryStore::create(dir.path().join("s.zarr"), false).is_err());
        let ro = DirectoryStore::open(dir.path().join("s.zarr"), false).unwrap();
        assert!(matches!(ro.set("a", b""), Err(StoreError::ReadOnly(_))));
    }
}
