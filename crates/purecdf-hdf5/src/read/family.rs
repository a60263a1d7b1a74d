//! Files reached from an open file: the targets of external links (HDF5 File Format
//! Specification v3.0, section IV.A.2.g, the Link message, link type 64) and the source files of
//! virtual datasets (section IV.A.2.i, the Data Layout message, layout class 3).
//!
//! Every file opened from a first one belongs to its *family*: a file reached twice (under any
//! name leading to the same file) is opened once and keeps one identity, so that object
//! addresses can be told apart by file. A family holds a bounded number of files.
//!
//! Names are resolved as HDF5 1.10 resolves them (`H5F_prefix_open_file`), first success wins:
//! 1. an absolute name as it is; if that fails, only its last component is used below;
//! 2. each non-empty entry of the colon-separated `HDF5_EXT_PREFIX` (external links) or
//!    `HDF5_VDS_PREFIX` (virtual dataset sources), joined with the name;
//! 3. for virtual dataset sources, `HDF5_VDS_PREFIX` once more as a whole, with a leading
//!    `${ORIGIN}` replaced by the directory of the file holding the dataset;
//! 4. the directory of the file holding the link or dataset, as that file was named when opened
//!    (made absolute against the working directory at that time);
//! 5. the name relative to the working directory;
//! 6. the directory of that file with symbolic links resolved.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::superblock::Superblock;
use crate::io::{ByteSource, FileSource};
use crate::read::{Hdf5File, SharedMessages};

/// Most files one family holds (the first included).
pub const MAX_FAMILY_FILES: usize = 256;

/// Where a file was opened from.
#[derive(Debug)]
pub(crate) struct Origin {
    /// The directory of the file as it was named, absolute.
    dir: Option<PathBuf>,
    /// The directory of the file with symbolic links resolved.
    real_dir: Option<PathBuf>,
    /// The file's identity: its canonical path.
    key: Option<PathBuf>,
}

impl Origin {
    fn of(path: &Path) -> Origin {
        let abs = if path.is_absolute() {
            Some(path.to_path_buf())
        } else {
            std::env::current_dir().ok().map(|d| d.join(path))
        };
        let key = std::fs::canonicalize(path).ok();
        Origin {
            dir: abs.as_deref().and_then(Path::parent).map(Path::to_path_buf),
            real_dir: key.as_deref().and_then(Path::parent).map(Path::to_path_buf),
            key,
        }
    }
}

/// One member of a family: what an [`Hdf5File`] is made of.
#[derive(Clone)]
pub(crate) struct Member {
    pub(crate) source: Arc<dyn ByteSource>,
    pub(crate) superblock: Arc<Superblock>,
    pub(crate) shared: Arc<OnceLock<FormatResult<Option<SharedMessages>>>>,
    pub(crate) origin: Option<Arc<Origin>>,
    pub(crate) cache_image: bool,
}

/// The files opened from one first file, by identity; index 0 is the first file.
#[derive(Default)]
pub(crate) struct Family {
    members: Mutex<Vec<(Option<PathBuf>, Member)>>,
}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Family")
    }
}

/// Which kind of reference a file name comes from (they use different environment variables).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Referrer {
    /// The target file of an external link.
    ExternalLink,
    /// The source file of a virtual dataset.
    VirtualSource,
}

impl Family {
    /// A family whose first file is `m`.
    pub(crate) fn first(m: Member) -> Arc<Family> {
        let key = m.origin.as_ref().and_then(|o| o.key.clone());
        Arc::new(Family {
            members: Mutex::new(vec![(key, m)]),
        })
    }
}

fn not_found(at: u64) -> FormatError {
    FormatError::new(FormatErrorKind::InvalidValue(0), at, "external file")
}

/// `prefix` joined with `name` (HDF5 adds a separator unless the prefix ends with one).
fn join(prefix: &Path, name: &str) -> PathBuf {
    prefix.join(name)
}

impl Hdf5File {
    /// Opens an HDF5 file by path: as [`Hdf5File::open`], and the file remembers where it is, so
    /// that external links and virtual dataset sources named relative to it are found.
    pub fn open_path(path: &Path) -> FormatResult<Hdf5File> {
        Self::open_path_with(path, super::OpenOptions::default())
    }

    /// Opens an HDF5 file by path as [`Hdf5File::open_path`], with `options` relaxing HDF5's
    /// rules for this file (not for the files its links and virtual datasets reach).
    pub fn open_path_with(path: &Path, options: super::OpenOptions) -> FormatResult<Hdf5File> {
        let src = FileSource::open(path).map_err(|_| not_found(0))?;
        let mut f = Hdf5File::open_with(Arc::new(src), options)?;
        let origin = Arc::new(Origin::of(path));
        f.origin = Some(origin.clone());
        f.family = Family::first(f.member());
        Ok(f)
    }

    pub(crate) fn member(&self) -> Member {
        Member {
            source: self.source.clone(),
            superblock: self.superblock.clone(),
            shared: self.shared.clone(),
            origin: self.origin.clone(),
            cache_image: self.cache_image,
        }
    }

    /// This file's number in its family: 0 for the file first opened, distinct for every other
    /// file reached from it. Object addresses are unique only together with this number.
    pub fn file_number(&self) -> u32 {
        self.number
    }

    /// The file a link or virtual dataset names, opened (or found already open in this file's
    /// family); `Ok(None)` when no candidate name leads to a readable HDF5 file. `at` names the
    /// referring structure in errors.
    pub fn open_related(
        &self,
        name: &str,
        referrer: Referrer,
        at: u64,
    ) -> FormatResult<Option<Hdf5File>> {
        for cand in self.candidates(name, referrer) {
            // Regular files only: a FIFO or a device named by a hostile file could block.
            if !std::fs::metadata(&cand).is_ok_and(|m| m.is_file()) {
                continue;
            }
            let key = std::fs::canonicalize(&cand).ok();
            if let Some(f) = self.family_member(key.as_deref()) {
                return Ok(Some(f));
            }
            let Ok(src) = FileSource::open(&cand) else {
                continue;
            };
            let Ok(mut f) = Hdf5File::open(Arc::new(src)) else {
                continue;
            };
            f.origin = Some(Arc::new(Origin::of(&cand)));
            let mut members = self.family.members.lock().map_err(|_| not_found(at))?;
            if members.len() >= MAX_FAMILY_FILES {
                return Err(FormatError::new(
                    FormatErrorKind::LimitExceeded(MAX_FAMILY_FILES as u64),
                    at,
                    "external files",
                ));
            }
            if members.is_empty() {
                // A file opened without a path starts its family when it first needs it.
                members.push((None, self.member()));
            }
            f.number = members.len() as u32;
            f.family = self.family.clone();
            members.push((key, f.member()));
            return Ok(Some(f));
        }
        Ok(None)
    }

    fn family_member(&self, key: Option<&Path>) -> Option<Hdf5File> {
        let key = key?;
        let members = self.family.members.lock().ok()?;
        let (i, (_, m)) = members
            .iter()
            .enumerate()
            .find(|(_, (k, _))| k.as_deref() == Some(key))?;
        Some(Hdf5File {
            source: m.source.clone(),
            superblock: m.superblock.clone(),
            shared: m.shared.clone(),
            origin: m.origin.clone(),
            family: self.family.clone(),
            number: i as u32,
            cache_image: m.cache_image,
        })
    }

    /// The names tried for `name`, in HDF5's order.
    fn candidates(&self, name: &str, referrer: Referrer) -> Vec<PathBuf> {
        let mut out = Vec::new();
        if name.is_empty() {
            return out;
        }
        let p = Path::new(name);
        let mut rel = name.to_string();
        if p.is_absolute() {
            out.push(p.to_path_buf());
            rel = match name.rfind('/') {
                Some(i) => name[i + 1..].to_string(),
                None => name.to_string(),
            };
        }
        let var = match referrer {
            Referrer::ExternalLink => "HDF5_EXT_PREFIX",
            Referrer::VirtualSource => "HDF5_VDS_PREFIX",
        };
        let dir = self.origin.as_ref().and_then(|o| o.dir.clone());
        if let Ok(env) = std::env::var(var) {
            for prefix in env.split(':').filter(|s| !s.is_empty()) {
                out.push(join(Path::new(prefix), &rel));
            }
            if referrer == Referrer::VirtualSource && !env.is_empty() && env != "." {
                match env.strip_prefix("${ORIGIN}") {
                    Some(rest) => {
                        if let Some(d) = &dir {
                            let mut s = d.as_os_str().to_os_string();
                            s.push(rest);
                            out.push(join(Path::new(&s), &rel));
                        }
                    }
                    None => out.push(join(Path::new(&env), &rel)),
                }
            }
        }
        if let Some(d) = &dir {
            out.push(join(d, &rel));
        }
        out.push(PathBuf::from(&rel));
        if let Some(d) = self.origin.as_ref().and_then(|o| o.real_dir.clone()) {
            out.push(join(&d, &rel));
        }
        out
    }
}
