//! Format detection and the top-level `open` / `create` / `append`: sniff the magic number and
//! hand the file to the backend that understands it.

use std::path::Path;

use crate::backend::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::file::{CreateOptions, File, FileMem, FileMut};
use crate::nczarr::url::{Location, Modes, StoreKind};
use crate::nczarr::NczarrFile;

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Magic {
    /// `CDF\x01`, `CDF\x02` or `CDF\x05`.
    Classic(Format),
    /// `\x89HDF\r\n\x1a\n` at offset 0 or at a user-block offset 512, 1024, 2048, ...
    Hdf5,
    /// `\x0e\x03\x13\x01`: HDF4.
    Hdf4,
    /// `PK\x03\x04` or `PK\x05\x06`: a zip archive (a Zarr store).
    Zip,
    /// Anything else.
    Unknown,
}

/// Classifies the first bytes of a file.
pub(crate) fn sniff(head: &[u8]) -> Magic {
    match head {
        [b'C', b'D', b'F', 1, ..] => Magic::Classic(Format::Classic),
        [b'C', b'D', b'F', 2, ..] => Magic::Classic(Format::Offset64),
        [b'C', b'D', b'F', 5, ..] => Magic::Classic(Format::Cdf5),
        [0x89, b'H', b'D', b'F', b'\r', b'\n', 0x1a, b'\n', ..] => Magic::Hdf5,
        [0x0e, 0x03, 0x13, 0x01, ..] => Magic::Hdf4,
        [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => Magic::Zip,
        _ => Magic::Unknown,
    }
}

fn read_magic(path: &Path) -> Result<Magic> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| Error::io(e).path(path))?;
    let mut head = [0u8; 8];
    let mut n = 0;
    while n < head.len() {
        match f.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) => return Err(Error::io(e).path(path)),
        }
    }
    let magic = sniff(&head[..n]);
    if magic != Magic::Unknown {
        return Ok(magic);
    }
    // An HDF5 file may start with a user block of 512 · 2ⁿ bytes before its signature.
    let len = f.metadata().map_err(|e| Error::io(e).path(path))?.len();
    let mut at = 512u64;
    while at + 8 <= len {
        let mut sig = [0u8; 8];
        if purecdf_hdf5::io::read_exact_at(&f, at, &mut sig).is_ok() && sniff(&sig) == Magic::Hdf5 {
            return Ok(Magic::Hdf5);
        }
        at *= 2;
    }
    Ok(Magic::Unknown)
}

/// Options for opening a file read-only ([`open_with`]). The default is netcdf-c's behaviour.
///
/// HDF5 (so netcdf-c) refuses a netCDF-4 file whose writer still has it open or died before
/// closing it (status flags in a version 3 superblock), and any read past the superblock's
/// end-of-allocation address. The `h5clear` tool resets those before HDF5 can open such a file;
/// these options let a program read what a crashed writer left without changing the file. What
/// it reads may be inconsistent. Classic files ignore them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Open a netCDF-4 file even when its superblock says a writer has it open.
    pub ignore_hdf5_status_flags: bool,
    /// Read a netCDF-4 file up to its end rather than its recorded end of allocation.
    pub ignore_hdf5_end_of_allocation: bool,
}

/// Opens a dataset read-only, whatever its format.
///
/// # Errors
/// NC_ENOTNC for an unknown format, NC_ENOTBUILT for a format not implemented yet, NC_ETRUNC or
/// NC_ENOTNC for a malformed header, system errors for a missing or unreadable file, NC_EHDFERR
/// for a netCDF-4 file HDF5 would refuse (see [`OpenOptions`]).
pub fn open(path: impl AsRef<Path>) -> Result<File> {
    open_with(path, OpenOptions::default())
}

/// Opens a dataset read-only with options relaxing what netcdf-c refuses.
///
/// # Errors
/// As [`open`].
pub fn open_with(path: impl AsRef<Path>, options: impl Into<OpenOptions>) -> Result<File> {
    let path = path.as_ref();
    let options = options.into();
    if let Some((url, s3)) = path.to_str().and_then(crate::remote::bytes_url) {
        return crate::remote::open_bytes(url, s3).map_err(|e| e.path(path));
    }
    if let Some(b) = open_zarr(path)? {
        return Ok(File::from_backend(Box::new(b), path.to_path_buf()));
    }
    if path.is_dir() {
        // netcdf-c's nc_open of a directory: NC_ENOTNC, not the system's EISDIR.
        return Err(Error::new(ErrorKind::NotNc)
            .detail("a directory holding no Zarr store")
            .path(path));
    }
    match read_magic(path)? {
        Magic::Classic(_) => {
            let b = crate::classic::ClassicFile::open(path, false).map_err(|e| e.path(path))?;
            Ok(File::from_backend(Box::new(b), path.to_path_buf()))
        }
        Magic::Hdf5 => {
            let b =
                crate::netcdf4::Netcdf4File::open_with(path, options).map_err(|e| e.path(path))?;
            Ok(File::from_backend(Box::new(b), path.to_path_buf()))
        }
        Magic::Hdf4 => {
            let b = crate::hdf4::Hdf4Backend::open(path).map_err(|e| e.path(path))?;
            Ok(File::from_backend(Box::new(b), path.to_path_buf()))
        }
        Magic::Zip => {
            let loc = Location {
                path: path.to_path_buf(),
                kind: StoreKind::Zip,
                modes: Modes::default(),
            };
            let b = NczarrFile::open(&loc).map_err(|e| e.path(path))?;
            Ok(File::from_backend(Box::new(b), path.to_path_buf()))
        }
        Magic::Unknown => Err(Error::new(ErrorKind::NotNc).path(path)),
    }
}

/// Opens a Zarr store named by a URL (`file:///x.zarr#mode=nczarr,file`) or by the path of a
/// store directory; `None` for anything else.
fn open_zarr(path: &Path) -> Result<Option<NczarrFile>> {
    match open_zarr_location(path)? {
        Some(loc) => NczarrFile::open(&loc).map(Some).map_err(|e| e.path(path)),
        None => Ok(None),
    }
}

/// The Zarr store a URL or store directory names.
fn open_zarr_location(path: &Path) -> Result<Option<Location>> {
    let loc = match path.to_str().and_then(crate::nczarr::url::parse) {
        Some(loc) => loc.map_err(|e| e.path(path))?,
        None if crate::nczarr::is_store_directory(path) => Location {
            path: path.to_path_buf(),
            kind: StoreKind::Directory,
            modes: Modes::default(),
        },
        None => return Ok(None),
    };
    Ok(Some(loc))
}

/// Opens a Zarr dataset (NCZarr or pure Zarr version 2) held in any key/value store, read-only:
/// a [`purecdf_store::DirectoryStore`], [`purecdf_store::ZipStore`],
/// [`purecdf_store::MemoryStore`] or a store of your own.
///
/// # Errors
/// NC_ENOTNC when the store's root is not a Zarr group, NC_ENCZARR for malformed metadata.
pub fn open_store(store: Box<dyn purecdf_store::Store>) -> Result<File> {
    let b = NczarrFile::from_store(store, false)?;
    Ok(File::from_backend(Box::new(b), std::path::PathBuf::new()))
}

/// Opens a dataset held in memory, read-only, as georust `netcdf`'s `open_mem` does: `name`
/// is what [`File::path`] gives, and the bytes are copied (see [`open_bytes`], which takes them
/// over).
///
/// # Errors
/// As [`open_bytes`].
pub fn open_mem<'m>(name: Option<&str>, mem: &'m [u8]) -> Result<FileMem<'m>> {
    let file = open_bytes(mem.to_vec())?;
    Ok(FileMem::new(file, name.map(std::path::PathBuf::from)))
}

/// Opens a dataset held in memory, read-only: classic, netCDF-4 and HDF4.
///
/// # Errors
/// NC_ENOTNC for an unknown format, NC_ETRUNC or NC_ENOTNC for a
/// malformed header.
pub fn open_bytes(bytes: Vec<u8>) -> Result<File> {
    match sniff(&bytes[..bytes.len().min(8)]) {
        Magic::Classic(_) => {
            let b = crate::classic::ClassicFile::open_mem(bytes)?;
            Ok(File::from_backend(Box::new(b), std::path::PathBuf::new()))
        }
        Magic::Hdf5 => {
            let b = crate::netcdf4::Netcdf4File::from_source(std::sync::Arc::new(bytes))?;
            Ok(File::from_backend(Box::new(b), std::path::PathBuf::new()))
        }
        Magic::Hdf4 => {
            let b = crate::hdf4::Hdf4Backend::from_bytes(bytes)?;
            Ok(File::from_backend(Box::new(b), std::path::PathBuf::new()))
        }
        Magic::Zip => Err(Error::with_detail(
            ErrorKind::NotBuilt,
            "reading a zipped Zarr store from memory is not implemented yet",
        )),
        Magic::Unknown => Err(Error::new(ErrorKind::NotNc)),
    }
}

/// Opens an existing dataset for writing (data mode; call `redef` to add definitions).
///
/// # Errors
/// As [`open`], plus NC_EPERM when the file cannot be opened for writing.
pub fn append(path: impl AsRef<Path>) -> Result<FileMut> {
    let path = path.as_ref();
    if let Some(loc) = open_zarr_location(path)? {
        let b = crate::nczarr::NczarrWriter::open(&loc).map_err(|e| e.path(path))?;
        return Ok(FileMut::from_backend(Box::new(b), path.to_path_buf()));
    }
    match read_magic(path)? {
        Magic::Classic(_) => {
            let b = crate::classic::ClassicFile::open(path, true).map_err(|e| e.path(path))?;
            Ok(FileMut::from_backend(Box::new(b), path.to_path_buf()))
        }
        Magic::Hdf5 => {
            let b = crate::netcdf4::Netcdf4Writer::open(path).map_err(|e| e.path(path))?;
            Ok(FileMut::from_backend(Box::new(b), path.to_path_buf()))
        }
        Magic::Hdf4 => Err(Error::with_detail(
            ErrorKind::NotBuilt,
            "writing HDF4 files is not supported (HDF4 is read-only)",
        )
        .path(path)),
        Magic::Zip => {
            let loc = Location {
                path: path.to_path_buf(),
                kind: StoreKind::Zip,
                modes: Modes::default(),
            };
            let b = crate::nczarr::NczarrWriter::open(&loc).map_err(|e| e.path(path))?;
            Ok(FileMut::from_backend(Box::new(b), path.to_path_buf()))
        }
        Magic::Unknown => Err(Error::new(ErrorKind::NotNc).path(path)),
    }
}

/// Creates (clobbering) a netCDF-4 dataset, in define mode, as georust `netcdf` does; see
/// [`create_with`] for the other formats.
///
/// # Errors
/// System errors when the file cannot be created.
pub fn create(path: impl AsRef<Path>) -> Result<FileMut> {
    create_with(path, Format::Netcdf4)
}

/// Creates a dataset with options: a [`Format`], [`CreateOptions`] (format, no-clobber) or
/// georust's [`crate::Options`] flags.
///
/// # Errors
/// As [`create`], plus NC_EEXIST with `noclobber` when the file exists.
pub fn create_with(path: impl AsRef<Path>, options: impl Into<CreateOptions>) -> Result<FileMut> {
    let path = path.as_ref();
    let options: CreateOptions = options.into();
    // A URL (`file:///x.zarr#mode=nczarr,file`) names a Zarr store, whatever the format asked.
    if let Some(loc) = path.to_str().and_then(crate::nczarr::url::parse) {
        let loc = loc.map_err(|e| e.path(path))?;
        let b = crate::nczarr::NczarrWriter::create(&loc, options.noclobber)
            .map_err(|e| e.path(path))?;
        return Ok(FileMut::from_backend(Box::new(b), path.to_path_buf()));
    }
    if !options.format.is_classic_family() {
        let b = crate::netcdf4::Netcdf4Writer::create(path, options.format, options.noclobber)
            .map_err(|e| e.path(path))?;
        return Ok(FileMut::from_backend(Box::new(b), path.to_path_buf()));
    }
    let b = crate::classic::ClassicFile::create(
        path,
        options.format,
        options.noclobber,
        options.diskless,
    )
    .map_err(|e| e.path(path))?;
    Ok(FileMut::from_backend(Box::new(b), path.to_path_buf()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers() {
        assert_eq!(sniff(b"CDF\x01\0\0\0\0"), Magic::Classic(Format::Classic));
        assert_eq!(sniff(b"CDF\x02"), Magic::Classic(Format::Offset64));
        assert_eq!(sniff(b"CDF\x05"), Magic::Classic(Format::Cdf5));
        assert_eq!(sniff(b"CDF\x03"), Magic::Unknown);
        assert_eq!(sniff(b"\x89HDF\r\n\x1a\n"), Magic::Hdf5);
        assert_eq!(sniff(b""), Magic::Unknown);
    }
}
