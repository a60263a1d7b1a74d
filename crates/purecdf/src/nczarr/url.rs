//! Where a Zarr dataset is and how to read it: netcdf-c's URL form
//! (`../shared/spec/nczarr.md`, "URL Format" and "Client Parameters"), e.g.
//! `file:///abs/x.zarr#mode=nczarr,file` or `file:///abs/x.zip#mode=zarr,zip`, and plain paths
//! of a store directory or zip file.
//!
//! Mode words: `nczarr`, `zarr` (pure Zarr), `xarray`/`noxarray` (use `_ARRAY_DIMENSIONS` or not),
//! and the storage `file`, `zip` or `s3`. As netcdf-c infers them: `xarray` and `noxarray` imply
//! `zarr`, `zarr` implies `nczarr`; with no storage word, a `file:` URL is a directory unless its
//! path ends in `.zip`. purecdf adds `nc410`: write NCZarr in netcdf-c 4.10's layout (attribute
//! types in `_nczarr_attr`, chars `>S1`, strings `|S128`; see `write::json::AttrTypes`);
//! netcdf-c ignores the word.

use std::path::PathBuf;

use crate::error::{Error, ErrorKind, Result};

/// The storage a Zarr dataset lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StoreKind {
    /// A directory tree (`mode=file`).
    Directory,
    /// A zip archive (`mode=zip`).
    Zip,
    /// An S3 bucket (`mode=s3`).
    S3,
}

/// The mode words of a URL's fragment, after netcdf-c's inferences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Modes {
    /// `zarr`: pure Zarr, no NCZarr extensions (on write; reading ignores them too).
    pub(crate) zarr: bool,
    /// `noxarray`: do not use (read or write) `_ARRAY_DIMENSIONS`.
    pub(crate) noxarray: bool,
    /// `nc410` (purecdf's own word, not netcdf-c's): write NCZarr in netcdf-c 4.10's layout
    /// (attribute types in `_nczarr_attr` rather than 4.9.0's `_NCZARR_ATTR`, chars `>S1`,
    /// strings `|S128`).
    pub(crate) nc410: bool,
    /// The location was a URL with mode words: netcdf-c 4.10 then reads a store whose root has
    /// `.zattrs` or `.zarray` but no `.zgroup` (a lone root array) as a group, with `.zattrs`'s
    /// attributes and whatever arrays and groups lie below, where a plain path is refused as an
    /// unknown format. A root with no Zarr object at all (an empty directory) is not netCDF.
    pub(crate) named: bool,
}

/// A parsed dataset location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Location {
    /// The local path of the store (directory or zip file); for S3 the URL's path.
    pub(crate) path: PathBuf,
    /// The storage.
    pub(crate) kind: StoreKind,
    /// The mode words.
    pub(crate) modes: Modes,
}

/// Splits the `mode=` words out of a URL fragment (`key=value&key=value`).
pub(crate) fn mode_words(fragment: &str) -> Vec<String> {
    fragment
        .split('&')
        .filter_map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k.trim().eq_ignore_ascii_case("mode")).then_some(v)
        })
        .flat_map(|v| v.split(','))
        .map(|w| w.trim().to_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Parses `s` when it is a URL (`scheme://...`) or carries a `#mode=` fragment; `None` for a
/// plain path.
///
/// # Errors
/// NC_EINVAL for a URL this library cannot address (an unknown scheme or storage word),
/// NC_ENOTBUILT for storage not implemented yet.
pub(crate) fn parse(s: &str) -> Option<Result<Location>> {
    let (body, fragment) = match s.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (s, None),
    };
    let scheme = body
        .split_once("://")
        .map(|(sc, _)| sc)
        .filter(|sc| !sc.is_empty() && sc.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'+'));
    if scheme.is_none() && fragment.is_none_or(|f| mode_words(f).is_empty()) {
        return None;
    }
    Some(parse_url(body, scheme, fragment.unwrap_or("")))
}

fn parse_url(body: &str, scheme: Option<&str>, fragment: &str) -> Result<Location> {
    let bad = |why: &str| {
        Err(Error::with_detail(
            ErrorKind::Inval,
            format!("{why}: {body}"),
        ))
    };
    let words = mode_words(fragment);
    let mut kind = None;
    let mut modes = Modes {
        named: true,
        ..Modes::default()
    };
    let mut nczarr = false;
    for w in &words {
        match w.as_str() {
            "nczarr" => nczarr = true,
            "nc410" => {
                nczarr = true;
                modes.nc410 = true;
            }
            "zarr" => modes.zarr = true,
            "xarray" => modes.zarr = true,
            "noxarray" => {
                modes.zarr = true;
                modes.noxarray = true;
            }
            "file" => kind = Some(StoreKind::Directory),
            "zip" => kind = Some(StoreKind::Zip),
            "s3" => kind = Some(StoreKind::S3),
            "bytes" => {
                return Err(Error::with_detail(
                    ErrorKind::Inval,
                    "a byte-range URL (mode=bytes) names a netCDF file to read, not a Zarr store",
                ))
            }
            // Modes of other dispatchers and future ones: netcdf-c ignores unknown words too.
            _ => {}
        }
    }
    let _ = nczarr; // `zarr` implies `nczarr`; either way the Zarr dispatcher reads it.
    let path = match scheme.map(str::to_ascii_lowercase).as_deref() {
        None => body.to_string(),
        Some("file") => {
            let rest = &body["file://".len()..];
            // `file:///abs` has an empty host; `file://localhost/abs` names this machine.
            // `file://x.zip` (netcdf-c's tests write these) is a path relative to the current
            // directory.
            let rest = if rest.starts_with("localhost/") {
                &rest["localhost".len()..]
            } else {
                rest
            };
            if rest.is_empty() {
                return bad("a file URL without a path");
            }
            purecdf_store::percent_decode(rest)
        }
        Some("s3") => {
            kind = Some(StoreKind::S3);
            body.to_string()
        }
        Some("http" | "https") => {
            if words.is_empty() {
                return Err(Error::with_detail(
                    ErrorKind::NotBuilt,
                    format!("OPeNDAP (DAP2/DAP4) access is not implemented; add #mode=bytes to read a file with HTTP range requests: {body}"),
                ));
            }
            kind.get_or_insert(StoreKind::S3);
            body.to_string()
        }
        Some(_) => return bad("unsupported URL scheme"),
    };
    let kind = kind.unwrap_or(if path.ends_with(".zip") {
        StoreKind::Zip
    } else {
        StoreKind::Directory
    });
    Ok(Location {
        path: PathBuf::from(path),
        kind,
        modes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(s: &str) -> Location {
        parse(s).expect("a URL").expect("valid")
    }

    #[test]
    fn urls_and_modes() {
        let l = loc("file:///tmp/x.zarr#mode=nczarr,file");
        assert_eq!(l.path, PathBuf::from("/tmp/x.zarr"));
        assert_eq!(l.kind, StoreKind::Directory);
        assert!(l.modes.named && !l.modes.zarr && !l.modes.noxarray && !l.modes.nc410);
        let l = loc("file:///tmp/x.zip#mode=noxarray,zip");
        assert_eq!(l.kind, StoreKind::Zip);
        assert!(l.modes.zarr && l.modes.noxarray);
        assert_eq!(loc("file:///tmp/x.zip#mode=zarr").kind, StoreKind::Zip);
        assert!(loc("file:///a%20b#mode=xarray&log").modes.zarr);
        assert_eq!(loc("file:///a%20b#mode=xarray").path, PathBuf::from("/a b"));
        assert_eq!(
            loc("file://localhost/d#mode=nczarr").path,
            PathBuf::from("/d")
        );
        assert_eq!(
            loc("rel/x.zarr#mode=nczarr,file").path,
            PathBuf::from("rel/x.zarr")
        );
        assert!(parse("plain/path.nc").is_none());
        assert!(parse("x.nc#frag").is_none());
        assert_eq!(
            loc("file://rel.zip#mode=zarr,zip").path,
            PathBuf::from("rel.zip")
        );
        assert!(parse("file://#mode=file").unwrap().is_err());
        assert!(parse("gopher://h/x#mode=nczarr").unwrap().is_err());
        let l = loc("s3://bucket/key#mode=nczarr,s3");
        assert_eq!(
            (l.kind, l.path),
            (StoreKind::S3, PathBuf::from("s3://bucket/key"))
        );
        let l = loc("http://127.0.0.1:9/b/k#mode=zarr");
        assert_eq!(l.kind, StoreKind::S3);
        assert!(l.modes.zarr);
        let dap = parse("https://host/x.nc").unwrap().unwrap_err();
        assert_eq!(dap.kind(), ErrorKind::NotBuilt);
        let bytes = parse("https://host/x.nc#mode=bytes").unwrap().unwrap_err();
        assert_eq!(bytes.kind(), ErrorKind::Inval);
    }
}
