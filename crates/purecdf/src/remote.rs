//! Remote netCDF files read with HTTP `Range` requests: netcdf-c's `#mode=bytes`
//! (`../shared/spec/nczarr.md`, Appendix D "Alternative Mechanisms for Accessing Remote
//! Datasets"). `https://host/path/file.nc#mode=bytes` is read with plain range requests;
//! S3 forms (`s3://bucket/key`, AWS host names, or any URL with the mode word `s3`) with signed
//! ones, using the credentials of the environment or AWS profile. The object is then opened as
//! a classic, netCDF-4 or HDF4 file over a cached, read-ahead byte source
//! ([`purecdf_store::remote::RangeReader`]).

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
    let fetch: Box<dyn RangeFetch> = if is_s3 {
        Box::new(purecdf_store::remote::S3Object::new(
            S3Client::from_url(url).map_err(access)?,
        ))
    } else {
        Box::new(HttpObject::new(url, HttpSettings::default()))
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
            let b = crate::netcdf4::Netcdf4File::from_source(Arc::new(source))?;
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
impl crate::io::ByteSource for RemoteSource {
    fn len(&self) -> u64 {
        self.0.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.0.read_at(offset, buf).map_err(std::io::Error::other)
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
}
