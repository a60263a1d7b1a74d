//! A Zarr store in an S3 bucket (netcdf-c's `s3` zmap, `../shared/spec/nczarr.md`, "Amazon S3
//! Storage"): the dataset is every object below one key prefix.
//!
//! Requests: `get` is one `GET` (a missing key is a 404, so no `HEAD` first), `list` one
//! `ListObjectsV2` with delimiter `/` per 1,000 children, `set` one `PUT`, `erase` a listing and
//! a `DELETE` per object. Calls from several threads run in parallel over the client's
//! connection pool.

use super::http::HttpSettings;
use super::s3::S3Client;
use super::s3url::S3Url;
use crate::{check_key, Result, Store, StoreError};

/// The objects below `prefix/` in one bucket, as a [`Store`].
#[derive(Debug)]
pub struct S3Store {
    client: S3Client,
    writable: bool,
}

impl S3Store {
    /// A store for `url` (any form [`S3Url::parse`] takes), with the environment's and AWS
    /// profile's credentials.
    ///
    /// # Errors
    /// As [`S3Url::parse`].
    pub fn open(url: &str, writable: bool) -> Result<S3Store> {
        Ok(S3Store {
            client: S3Client::from_url(url)?,
            writable,
        })
    }

    /// A store over a client configured by the caller.
    pub fn with_client(client: S3Client, writable: bool) -> S3Store {
        S3Store { client, writable }
    }

    /// A store for a parsed URL with explicit credentials and settings.
    pub fn with_credentials(
        url: S3Url,
        credentials: Option<super::Credentials>,
        settings: HttpSettings,
        writable: bool,
    ) -> S3Store {
        S3Store::with_client(S3Client::new(url, credentials, settings), writable)
    }

    /// The client (for the byte-range reader and tests).
    pub fn client(&self) -> &S3Client {
        &self.client
    }

    fn object_key(&self, key: &str) -> Result<String> {
        check_key(key)?;
        Ok(self.client.url().child(key))
    }

    fn check_writable(&self, key: &str) -> Result<()> {
        if self.writable {
            Ok(())
        } else {
            Err(StoreError::ReadOnly(key.to_string()))
        }
    }

    /// `prefix/` of the object key of `key` (the empty key: the dataset's own prefix).
    fn dir_prefix(&self, key: &str) -> Result<String> {
        let k = self.object_key(key)?;
        Ok(if k.is_empty() { k } else { format!("{k}/") })
    }
}

impl Store for S3Store {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        if key.is_empty() {
            return Ok(None);
        }
        self.client.get(&self.object_key(key)?)
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>> {
        let base = self.dir_prefix(prefix)?;
        let listing = self.client.list(&base, Some("/"))?;
        let mut names: Vec<String> = listing
            .keys
            .iter()
            .chain(&listing.prefixes)
            .filter_map(|k| k.strip_prefix(base.as_str()))
            .map(|rest| rest.trim_end_matches('/'))
            .filter(|n| !n.is_empty() && !n.contains('/'))
            .map(str::to_string)
            .collect();
        names.sort();
        names.dedup();
        Ok(names)
    }

    fn set(&self, key: &str, value: &[u8]) -> Result<()> {
        self.check_writable(key)?;
        if key.is_empty() {
            return Err(StoreError::BadKey(key.to_string()));
        }
        self.client.put(&self.object_key(key)?, value)
    }

    fn erase(&self, key: &str) -> Result<()> {
        self.check_writable(key)?;
        let below = self.dir_prefix(key)?;
        let listing = self.client.list(&below, None)?;
        let mut doomed = listing.keys;
        if !key.is_empty() {
            doomed.push(self.object_key(key)?);
        }
        // Deletes in parallel: one request each.
        let errors: Vec<StoreError> = std::thread::scope(|s| {
            let workers: Vec<_> = doomed
                .chunks(doomed.len().div_ceil(8).max(1))
                .map(|part| {
                    s.spawn(move || {
                        part.iter()
                            .map(|k| self.client.delete(k))
                            .find_map(Result::err)
                    })
                })
                .collect();
            workers
                .into_iter()
                .filter_map(|w| w.join().ok().flatten())
                .collect()
        });
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn get_range(&self, key: &str, range: crate::ByteRange) -> Result<Option<(Vec<u8>, u64)>> {
        if key.is_empty() {
            return Ok(None);
        }
        self.client.get_part(&self.object_key(key)?, range)
    }

    fn reads_parts(&self) -> bool {
        true
    }

    fn exists(&self, key: &str) -> Result<bool> {
        if key.is_empty() {
            return Ok(!self.list("")?.is_empty());
        }
        self.client.exists(&self.object_key(key)?)
    }
}
