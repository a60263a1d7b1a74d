//! NCZarr and Zarr version 2 datasets (`../shared/spec/nczarr.md`), read from a key/value store
//! (`purecdf-store`): a directory tree or a zip archive.
//!
//! A store is addressed by netcdf-c's URL form (`file:///abs/x.zarr#mode=nczarr,file`, see
//! `url`) or by the plain path of a store directory or zip file. netcdf-c reports NCZarr
//! datasets as netCDF-4 ([`Format::Netcdf4`]); [`NczarrFile::is_pure_zarr`] tells NCZarr from
//! pure Zarr.

mod attrs;
mod build;
mod codecs;
pub(crate) use codecs::BUILT_IN_CODECS;
mod dtype;
mod json;
mod meta;
mod read;
mod shard;
mod source;
mod strings;
pub(crate) mod url;
mod v3;
mod write;

pub(crate) use write::NczarrWriter;

use std::path::Path;

use purecdf_store::{DirectoryStore, Store, StoreError, ZipStore};

use crate::backend::{Backend, Format};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{NcType, Schema, Values, VarId};
use crate::selection::Hyperslab;
use meta::ArrayMeta;
use url::{Location, Modes, StoreKind};

/// Converts a store error into a netCDF one: I/O errors keep their system status, malformed
/// containers are NC_ENCZARR.
pub(crate) fn store_err(e: StoreError) -> Error {
    match e {
        StoreError::Io { key, source } => Error::io(source).detail(key),
        e @ StoreError::Remote { .. } => Error::with_detail(ErrorKind::S3, e.to_string()),
        other => Error::with_detail(ErrorKind::Nczarr, other.to_string()),
    }
}

/// An open Zarr dataset.
pub(crate) struct NczarrFile {
    store: Box<dyn Store>,
    schema: Schema,
    arrays: Vec<ArrayMeta>,
    pure: bool,
}

impl std::fmt::Debug for NczarrFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NczarrFile")
            .field("store", &self.store)
            .field("pure", &self.pure)
            .finish()
    }
}

/// How a store is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// An existing store, read-only.
    Read,
    /// An existing store, for writing.
    Write,
    /// A new store (replacing whatever is there).
    Create,
}

/// The store at a location.
///
/// # Errors
/// System errors; NC_ENOTBUILT for S3.
pub(crate) fn location_store(loc: &Location, access: Access) -> Result<Box<dyn Store>> {
    let writable = access != Access::Read;
    let store: Box<dyn Store> = match (loc.kind, access) {
        (StoreKind::Directory, Access::Create) => {
            Box::new(DirectoryStore::create(&loc.path, true).map_err(store_err)?)
        }
        // netcdf-c: a directory store that is not there is an object not found.
        (StoreKind::Directory, _) if !loc.path.exists() => {
            return Err(Error::with_detail(
                ErrorKind::NoObject,
                loc.path.display().to_string(),
            ))
        }
        (StoreKind::Directory, _) => {
            Box::new(DirectoryStore::open(&loc.path, writable).map_err(store_err)?)
        }
        (StoreKind::Zip, Access::Create) => {
            Box::new(ZipStore::create(&loc.path, true).map_err(store_err)?)
        }
        (StoreKind::Zip, _) => Box::new(ZipStore::open(&loc.path, writable).map_err(store_err)?),
        (StoreKind::S3, _) => s3_store(loc, access)?,
    };
    Ok(store)
}

/// The S3 store of a location; creating one erases what its prefix held (as netcdf-c's
/// `NC_CLOBBER` does).
#[cfg(feature = "remote")]
fn s3_store(loc: &Location, access: Access) -> Result<Box<dyn Store>> {
    let url = loc.path.to_string_lossy();
    let store =
        purecdf_store::remote::S3Store::open(&url, access != Access::Read).map_err(store_err)?;
    if access == Access::Create {
        store.erase("").map_err(store_err)?;
    }
    Ok(Box::new(store))
}

#[cfg(not(feature = "remote"))]
fn s3_store(_: &Location, _: Access) -> Result<Box<dyn Store>> {
    Err(Error::with_detail(
        ErrorKind::NotBuilt,
        "S3 storage needs purecdf's `remote` feature",
    ))
}

/// A store's metadata as the netCDF data model (consolidated metadata used where trusted).
///
/// # Errors
/// As [`build::build`].
pub(crate) fn read_metadata(store: &dyn Store, modes: Modes) -> Result<build::Built> {
    let src = source::MetaSource::new(store, true)?;
    build::build(&src, modes)
}

/// True when a plain path names a Zarr store: a directory holding Zarr metadata at its root.
pub(crate) fn is_store_directory(path: &Path) -> bool {
    path.is_dir()
        && [
            ".zgroup",
            ".zarray",
            ".zattrs",
            ".zmetadata",
            ".nczarr",
            "zarr.json",
        ]
        .iter()
        .any(|m| path.join(m).is_file())
}

impl NczarrFile {
    /// Opens the dataset at a parsed location, read-only.
    ///
    /// # Errors
    /// System errors for a missing store, NC_ENOTNC when it holds no Zarr group, NC_ENCZARR for
    /// malformed metadata.
    pub(crate) fn open(loc: &Location) -> Result<NczarrFile> {
        let store = location_store(loc, Access::Read)?;
        Self::from_store_modes(store, loc.modes)
    }

    /// Opens a dataset in any store; `zarr_only` reads it as pure Zarr (`mode=zarr`), ignoring
    /// NCZarr metadata.
    ///
    /// # Errors
    /// As `NczarrFile::open`.
    pub(crate) fn from_store(store: Box<dyn Store>, zarr_only: bool) -> Result<NczarrFile> {
        let modes = Modes {
            zarr: zarr_only,
            ..Modes::default()
        };
        Self::from_store_modes(store, modes)
    }

    fn from_store_modes(store: Box<dyn Store>, modes: Modes) -> Result<NczarrFile> {
        let built = read_metadata(store.as_ref(), modes)?;
        Ok(NczarrFile {
            store,
            schema: built.schema,
            arrays: built.arrays,
            pure: built.flavour == build::Flavour::Pure,
        })
    }

    /// The `_Codecs` text of a variable as netcdf-c builds it: each codec's configuration, in
    /// chain order (`filters`, then `compressor`), as netcdf-c's JSON printer writes it (keys in
    /// stored order), joined by `,` inside `[...]`.
    fn codecs(&self, var: VarId) -> Option<String> {
        let a = self.arrays.get(var.0)?;
        if a.chain.codecs.is_empty() {
            return None;
        }
        let mut text = String::from("[");
        for (i, c) in a.chain.codecs.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            attrs::nc_json(&c.config, &mut text);
        }
        text.push(']');
        Some(text)
    }
}

impl Backend for NczarrFile {
    fn format(&self) -> Format {
        Format::Netcdf4
    }

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn extended_format(&self) -> crate::ExtendedFormat {
        crate::ExtendedFormat::Nczarr
    }

    fn codecs_json(&self, var: VarId) -> Option<String> {
        self.codecs(var)
    }

    fn read_raw(&self, var: VarId, slab: &Hyperslab, out: &mut [u8]) -> Result<()> {
        let meta = self
            .arrays
            .get(var.0)
            .ok_or_else(|| Error::new(ErrorKind::NotVar))?;
        let store = self.store.as_ref();
        read::read_raw(meta, &zarr_slab(meta, slab), out, |c, dst| {
            meta.read_chunk_into(store, c, dst)
        })
    }

    fn read_values(&self, var: VarId, slab: &Hyperslab) -> Result<Values> {
        let meta = self
            .arrays
            .get(var.0)
            .ok_or_else(|| Error::new(ErrorKind::NotVar))?;
        if self.schema.var(var).typ == NcType::String {
            let store = self.store.as_ref();
            let s = strings::read_strings(meta, &zarr_slab(meta, slab), |c| {
                strings::read_string_chunk(store, meta, c)
            })?;
            return Ok(Values::String(s));
        }
        crate::backend::read_atomic_values(self, var, slab)
    }
}

/// A netCDF hyperslab in the array's Zarr shape (an NCZarr scalar is a one-element array).
pub(crate) fn zarr_slab(meta: &ArrayMeta, slab: &Hyperslab) -> Hyperslab {
    if slab.start.is_empty() && !meta.shape.is_empty() {
        let rank = meta.shape.len();
        Hyperslab {
            start: vec![0; rank],
            count: vec![1; rank],
            stride: vec![1; rank],
        }
    } else {
        slab.clone()
    }
}
