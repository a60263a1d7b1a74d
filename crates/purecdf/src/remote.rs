//! Remote netCDF files read with HTTP `Range` requests: netcdf-c's `#mode=bytes`
//! (`../shared/spec/nczarr.md`, Appendix D "Alternative Mechanisms for Accessing Remote
//! Datasets"). `https://host/path/file.nc#mode=bytes` is read with plain range requests;
//! S3 forms (`s3://bucket/key`, AWS host names, or any URL with the mode word `s3`) with signed
//! ones, using the credentials of the environment or AWS profile. The object is then opened as
//! a classic, netCDF-4 or HDF4 file over a cached, read-ahead byte source
//! ([`purecdf_store::remote::RangeReader`]).
//!
//! The files a remote HDF5 file's external links and virtual datasets name are looked for
//! beside it, where HDF5 looks for them beside a local file: a relative name is resolved against
//! the URL's directory (same scheme, host and bucket; `..` may climb as far as the server's or
//! bucket's root), an absolute one by its last component. Never on the local disk: a remote file
//! must not make its reader open local files ([`purecdf_hdf5::read::family`]). A missing
//! sibling (404) reads as a missing local file does.

use crate::error::{Error, ErrorKind, Result};
use crate::file::File;

/// The URL (without its fragment) when `s` is a byte-range URL: a `scheme://` URL whose
/// fragment has the mode word `bytes` (`#mode=bytes`, `#mode=bytes,s3`) or the key `bytes`.
pub(crate) fn bytes_url(s: &str) -> Option<(&str, bool)> {
    let (body, fragment) = s.split_once('#')?;
    if !body.contains("://") {
        return None;
    }
    let words = crate::nczarr::url::mode_words(fragment);
    let bytes = words.iter().any(|w| w == "bytes")
        || fragment
            .split('&')
            .any(|kv| kv.trim().eq_ignore_ascii_case("bytes"));
    bytes.then(|| (body, words.iter().any(|w| w == "s3")))
}

/// Opens a remote classic or netCDF-4 file read-only.
///
/// # Errors
/// NC_EACCESS when the object cannot be read, NC_ENOTNC when it is not a netCDF file, and the
/// format's errors for a malformed one.
#[cfg(feature = "remote")]
pub(crate) fn open_bytes(url: &str, s3_mode: bool) -> Result<File> {
    use purecdf_store::remote::{HttpObject, HttpSettings, RangeFetch, RangeReader, S3Client};
    use std::sync::Arc;

    use crate::dispatch::{sniff, Magic};

    let access =
        |e: purecdf_store::StoreError| Error::with_detail(ErrorKind::Access, e.to_string());
    let lower = url.to_ascii_lowercase();
    let is_s3 = s3_mode
        || lower.starts_with("s3://")
        || lower
            .split("://")
            .nth(1)
            .and_then(|r| r.split(['/', ':']).next())
            .is_some_and(|host| host.ends_with(".amazonaws.com"));
    let at = if is_s3 {
        Location::S3(Box::new(S3Client::from_url(url).map_err(access)?))
    } else {
        Location::Http(url.split('?').next().unwrap_or(url).to_string())
    };
    let fetch: Box<dyn RangeFetch> = match &at {
        Location::S3(_) => at.fetch(),
        // The URL as given, query (a signature, say) included.
        Location::Http(_) => Box::new(HttpObject::new(url, HttpSettings::default())),
    };
    let reader = Arc::new(RangeReader::open(fetch).map_err(access)?);
    let mut head = [0u8; 8];
    let n = head.len().min(reader.len() as usize);
    reader.read_at(0, &mut head[..n]).map_err(access)?;
    let path = std::path::PathBuf::from(url);
    let source = RemoteSource(reader);
    match sniff(&head[..n]) {
        Magic::Classic(_) => {
            let b = crate::classic::ClassicFile::open_source(Box::new(source))?;
            Ok(File::from_backend(Box::new(b), path))
        }
        Magic::Hdf5 => {
            let key = at.identity();
            let opener = Arc::new(Siblings { at });
            let b =
                crate::netcdf4::Netcdf4File::from_source_related(Arc::new(source), &key, opener)?;
            Ok(File::from_backend(Box::new(b), path))
        }
        Magic::Hdf4 => {
            let b = crate::hdf4::Hdf4Backend::from_source(Arc::new(source))?;
            Ok(File::from_backend(Box::new(b), path))
        }
        Magic::Zip => Err(Error::with_detail(
            ErrorKind::NotBuilt,
            "a zipped Zarr store is read with mode=zip, not mode=bytes",
        )),
        Magic::Unknown => Err(Error::new(ErrorKind::NotNc)),
    }
}

#[cfg(not(feature = "remote"))]
pub(crate) fn open_bytes(_url: &str, _s3: bool) -> Result<File> {
    Err(Error::with_detail(
        ErrorKind::NotBuilt,
        "byte-range access (mode=bytes) needs purecdf's `remote` feature",
    ))
}

/// A [`purecdf_store::remote::RangeReader`] as the formats' byte source.
#[cfg(feature = "remote")]
#[derive(Debug)]
struct RemoteSource(std::sync::Arc<purecdf_store::remote::RangeReader>);

#[cfg(feature = "remote")]
impl purecdf_hdf5::io::ByteSource for RemoteSource {
    fn len(&self) -> u64 {
        self.0.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.0.read_at(offset, buf).map_err(std::io::Error::other)
    }
}

/// Where a remote file is: what its siblings are found relative to.
#[cfg(feature = "remote")]
#[derive(Debug, Clone)]
enum Location {
    /// A plain `http(s)://` URL, without query or fragment.
    Http(String),
    /// An object of an S3 bucket.
    S3(Box<purecdf_store::remote::S3Client>),
}

#[cfg(feature = "remote")]
impl Location {
    /// The identity of the file in its HDF5 family: the URL, or the key in the bucket (every
    /// file of a family is in the same bucket).
    fn identity(&self) -> String {
        match self {
            Location::Http(u) => u.clone(),
            Location::S3(c) => c.url().key.clone(),
        }
    }

    /// The file `identity` names, of the same kind and place as this one.
    fn at(&self, identity: &str) -> Location {
        match self {
            Location::Http(_) => Location::Http(identity.to_string()),
            Location::S3(c) => Location::S3(Box::new(c.with_key(identity))),
        }
    }

    /// The identity of the file the relative name `name` names beside this one.
    fn sibling(&self, name: &str) -> Option<String> {
        use purecdf_store::remote::sigv4::uri_encode;
        match self {
            Location::Http(u) => {
                let rest = u.find("://").map(|i| i + 3)?;
                let path = u[rest..].find('/').map_or(u.len(), |i| rest + i);
                let dir = &u[path..u.rfind('/').filter(|&i| i >= path).unwrap_or(path)];
                let joined = join_relative(dir, name, |seg| uri_encode(seg, false))?;
                Some(format!("{}/{joined}", &u[..path]))
            }
            Location::S3(c) => {
                let key = &c.url().key;
                let dir = &key[..key.rfind('/').unwrap_or(0)];
                join_relative(dir, name, str::to_string)
            }
        }
    }

    fn fetch(&self) -> Box<dyn purecdf_store::remote::RangeFetch> {
        use purecdf_store::remote::{HttpObject, HttpSettings, S3Object};
        match self {
            Location::Http(u) => Box::new(HttpObject::new(u, HttpSettings::default())),
            Location::S3(c) => Box::new(S3Object::new((**c).clone())),
        }
    }
}

#[cfg(feature = "remote")]
/// `name` (`/`-separated, relative) in the directory `dir`, its segments passed through
/// `encode`, with `.` and `..` resolved; `None` when `..` climbs above the root or the name
/// ends in no file name.
fn join_relative(dir: &str, name: &str, encode: impl Fn(&str) -> String) -> Option<String> {
    let mut segs: Vec<String> = dir
        .split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if matches!(name.rsplit('/').next(), None | Some("" | "." | "..")) {
        return None;
    }
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                segs.pop()?;
            }
            p => segs.push(encode(p)),
        }
    }
    Some(segs.join("/"))
}

/// Opens the files a remote HDF5 file names, beside it at the same server or bucket.
#[cfg(feature = "remote")]
#[derive(Debug)]
struct Siblings {
    at: Location,
}

#[cfg(feature = "remote")]
impl purecdf_hdf5::read::family::RelatedOpener for Siblings {
    fn resolve(&self, name: &str) -> Option<String> {
        self.at.sibling(name)
    }

    fn open(&self, key: &str) -> std::io::Result<Option<purecdf_hdf5::read::family::RelatedFile>> {
        use purecdf_store::StoreError;
        let at = self.at.at(key);
        match purecdf_store::remote::RangeReader::open(at.fetch()) {
            Ok(r) => Ok(Some(purecdf_hdf5::read::family::RelatedFile {
                source: std::sync::Arc::new(RemoteSource(std::sync::Arc::new(r))),
                opener: std::sync::Arc::new(Siblings { at }),
            })),
            Err(StoreError::Remote {
                status: Some(404 | 410),
                ..
            }) => Ok(None),
            Err(e) => Err(std::io::Error::other(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_range_urls() {
        assert_eq!(
            bytes_url("https://h/x.nc#mode=bytes"),
            Some(("https://h/x.nc", false))
        );
        assert_eq!(
            bytes_url("http://127.0.0.1:9/b/x.nc#mode=bytes,s3"),
            Some(("http://127.0.0.1:9/b/x.nc", true))
        );
        assert_eq!(
            bytes_url("https://h/f/x.nc#bytes"),
            Some(("https://h/f/x.nc", false))
        );
        assert_eq!(bytes_url("https://h/x.zarr#mode=nczarr,s3"), None);
        assert_eq!(bytes_url("x.nc#mode=bytes"), None);
        assert_eq!(bytes_url("https://h/x.nc"), None);
    }

    #[cfg(feature = "remote")]
    #[test]
    fn relative_names_join_a_directory() {
        let id = |s: &str| s.to_string();
        assert_eq!(
            join_relative("/a/b/", "c.h5", id).as_deref(),
            Some("a/b/c.h5")
        );
        assert_eq!(
            join_relative("a/b", "./x/../c.h5", id).as_deref(),
            Some("a/b/c.h5")
        );
        assert_eq!(
            join_relative("a/b", "../../c.h5", id).as_deref(),
            Some("c.h5")
        );
        assert_eq!(join_relative("a/b", "../../../c.h5", id), None);
        assert_eq!(join_relative("a", "x/..", id), None);
        assert_eq!(join_relative("", "", id), None);
    }

    #[cfg(feature = "remote")]
    #[test]
    fn siblings_of_a_url() {
        let at = Location::Http("http://h:8/d/e/f.h5".into());
        assert_eq!(
            at.sibling("g h.h5").as_deref(),
            Some("http://h:8/d/e/g%20h.h5")
        );
        assert_eq!(
            at.sibling("../x#1.h5").as_deref(),
            Some("http://h:8/d/x%231.h5")
        );
        assert_eq!(at.sibling("../../../x.h5"), None);
        let top = Location::Http("https://h/f.h5".into());
        assert_eq!(top.sibling("g.h5").as_deref(), Some("https://h/g.h5"));
        let bare = Location::Http("https://h".into());
        assert_eq!(bare.sibling("g.h5").as_deref(), Some("https://h/g.h5"));
    }
}
