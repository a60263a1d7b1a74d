//! Where metadata comes from: the store's objects one by one, or a consolidated `.zmetadata`
//! (zarr-python's `consolidate_metadata`: `{"metadata": {"<key>": <object>, ...},
//! "zarr_consolidated_format": 1}`), read once so that opening costs one request.

use crate::json::{Map, Value};

use crate::error::{Error, ErrorKind, Result};
use purecdf_store::Store;

/// The largest metadata object read (a JSON document, not chunk data).
const MAX_METADATA_BYTES: usize = 256 << 20;

/// What one metadata key held when read: its bytes, or nothing.
type Fetched = Option<std::sync::Arc<Vec<u8>>>;

/// Metadata objects by key, each read from the store at most once (a remote store pays one
/// request per key, and [`MetaSource::prefetch`] sends a group's requests in parallel).
pub(crate) struct MetaSource<'a> {
    store: &'a dyn Store,
    read: std::sync::Mutex<std::collections::HashMap<String, Fetched>>,
    consolidated: Option<Map>,
    /// A Zarr version 3 store: v2 keys are answered from `zarr.json` (see `super::v3`).
    v3: bool,
}

/// Parses a JSON object stored at `key`.
pub(crate) fn parse_object(bytes: &[u8], key: &str) -> Result<Map> {
    if bytes.len() > MAX_METADATA_BYTES {
        return Err(Error::with_detail(
            ErrorKind::Nczarr,
            format!("{key}: {} bytes of metadata", bytes.len()),
        ));
    }
    match super::json::parse(bytes) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => Err(Error::with_detail(
            ErrorKind::Nczarr,
            format!("{key}: not a JSON object: {}", short(&other)),
        )),
        Err(e) => Err(Error::with_detail(
            ErrorKind::Nczarr,
            format!("{key}: malformed JSON: {e}"),
        )),
    }
}

/// True when consolidated metadata shows an NCZarr root (a superblock key).
fn is_nczarr_root(md: &Map) -> bool {
    [".zgroup", ".zattrs"].iter().any(|k| {
        md.get(k).and_then(Value::as_object).is_some_and(|o| {
            o.contains_key("_NCZARR_SUPERBLOCK") || o.contains_key("_nczarr_superblock")
        })
    })
}

/// At most 60 characters of a JSON value, for messages.
fn short(v: &Value) -> String {
    let t = v.to_string();
    match t.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t,
    }
}

impl<'a> MetaSource<'a> {
    /// Reads `.zmetadata` when the store has one (and `use_consolidated`), and uses it unless
    /// the store's root shows it stale: its `.zgroup` or `.zattrs` differs from the root's own
    /// object, or the root is NCZarr's (netcdf-c 4.9 neither reads nor updates `.zmetadata`).
    /// Then the objects are read one by one. Only changes at the root are seen this way: an
    /// array added below by a tool that does not consolidate stays unseen, as zarr-python
    /// does not see it either.
    ///
    /// # Errors
    /// NC_ENCZARR for a malformed `.zmetadata`; store errors.
    pub(crate) fn new(store: &'a dyn Store, use_consolidated: bool) -> Result<MetaSource<'a>> {
        let mut src = MetaSource {
            store,
            read: Default::default(),
            consolidated: None,
            v3: false,
        };
        let third = if use_consolidated {
            ".zmetadata"
        } else {
            "zarr.json"
        };
        src.prefetch(vec![".zgroup".into(), ".zattrs".into(), third.into()]);
        if use_consolidated {
            if let Some(bytes) = src.get(".zmetadata")? {
                let m = parse_object(&bytes, ".zmetadata")?;
                let Some(Value::Object(md)) = m.get("metadata") else {
                    return Err(Error::with_detail(
                        ErrorKind::Nczarr,
                        ".zmetadata: no \"metadata\" object",
                    ));
                };
                if !is_nczarr_root(md) && src.root_agrees_with(md)? {
                    src.consolidated = Some(md.clone());
                }
            }
        }
        if src.consolidated.is_none() {
            src.v3 = src.get(".zgroup")?.is_none() && src.get("zarr.json")?.is_some();
        }
        Ok(src)
    }

    /// Whether the consolidated `md` holds the store's own root `.zgroup` and `.zattrs` (equal
    /// JSON values; an absent `.zattrs` equals an empty one; the caller has checked that `md`'s
    /// root is not NCZarr's, so an equal one is not either). A root object that cannot be read
    /// (a store error: an S3 bucket that refuses to say a key is missing answers 403) cannot
    /// show staleness, so `md` is kept; one that does not parse disagrees (the one-by-one read
    /// then names it).
    fn root_agrees_with(&self, md: &Map) -> Result<bool> {
        let empty = Value::Object(Map::new());
        for key in [".zgroup", ".zattrs"] {
            let own = match self.get(key) {
                Ok(Some(bytes)) => match parse_object(&bytes, key) {
                    Ok(o) => Some(Value::Object(o)),
                    Err(_) => return Ok(false),
                },
                Ok(None) => None,
                Err(_) => continue,
            };
            let absent = (key == ".zattrs").then_some(&empty);
            if own.as_ref().or(absent) != md.get(key).or(absent) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The object at `key` (read once).
    fn get(&self, key: &str) -> Result<Fetched> {
        if let Some(hit) = self.lock().get(key) {
            return Ok(hit.clone());
        }
        let got = self
            .store
            .get(key)
            .map_err(super::store_err)?
            .map(std::sync::Arc::new);
        self.lock().insert(key.to_string(), got.clone());
        Ok(got)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Fetched>> {
        self.read
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Reads these keys in parallel ahead of their use (not when the metadata is consolidated
    /// or translated from Zarr v3). Failures are left for the later read to report.
    pub(crate) fn prefetch(&self, keys: Vec<String>) {
        use rayon::prelude::*;
        if self.consolidated.is_some() || self.v3 {
            return;
        }
        let missing: Vec<String> = {
            let read = self.lock();
            keys.into_iter().filter(|k| !read.contains_key(k)).collect()
        };
        if missing.len() < 2 {
            return;
        }
        missing.par_iter().for_each(|k| {
            let _ = self.get(k);
        });
    }

    /// The JSON object at `key`, or `None` when there is none.
    ///
    /// # Errors
    /// NC_ENCZARR for malformed JSON or a value that is not an object.
    pub(crate) fn object(&self, key: &str) -> Result<Option<Map>> {
        if self.v3 {
            return self.v3_object(key);
        }
        if let Some(c) = &self.consolidated {
            return match c.get(key) {
                None => Ok(None),
                Some(Value::Object(m)) => Ok(Some(m.clone())),
                Some(_) => Err(Error::with_detail(
                    ErrorKind::Nczarr,
                    format!(".zmetadata: {key} is not an object"),
                )),
            };
        }
        match self.get(key)? {
            None => Ok(None),
            Some(bytes) => parse_object(&bytes, key).map(Some),
        }
    }

    /// True when a metadata object exists at `key`.
    ///
    /// # Errors
    /// Store errors.
    pub(crate) fn exists(&self, key: &str) -> Result<bool> {
        if self.v3 {
            return Ok(self.v3_object(key)?.is_some());
        }
        match &self.consolidated {
            Some(c) => Ok(c.contains_key(key)),
            None => Ok(self.get(key)?.is_some()),
        }
    }

    /// The immediate children of a prefix.
    ///
    /// # Errors
    /// Store errors.
    pub(crate) fn list(&self, prefix: &str) -> Result<Vec<String>> {
        let Some(c) = &self.consolidated else {
            return self.store.list(prefix).map_err(super::store_err);
        };
        Ok(purecdf_store::immediate_children(
            c.keys().map(String::as_str),
            prefix,
        ))
    }

    /// The key to name in messages about the object at v2 key `key`: in a version 3 store, the
    /// `zarr.json` it is translated from.
    pub(crate) fn shown_key(&self, key: &str) -> String {
        match (self.v3, key.rsplit_once('/')) {
            (false, _) => key.to_string(),
            (true, Some((prefix, _))) => purecdf_store::join_key(prefix, "zarr.json"),
            (true, None) => "zarr.json".to_string(),
        }
    }

    /// A v2 object of a version 3 store, from the `zarr.json` of its node.
    fn v3_object(&self, key: &str) -> Result<Option<Map>> {
        let (prefix, what) = match key.rsplit_once('/') {
            Some((p, w)) => (p, w),
            None => ("", key),
        };
        if !matches!(what, ".zgroup" | ".zattrs" | ".zarray") {
            return Ok(None);
        }
        let node_key = purecdf_store::join_key(prefix, "zarr.json");
        let Some(bytes) = self.store.get(&node_key).map_err(super::store_err)? else {
            return Ok(None);
        };
        let node = parse_object(&bytes, &node_key)?;
        super::v3::translate(&node, what, &node_key)
    }
}
