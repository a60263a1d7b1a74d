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
//!
//! A file not on the local file system (a remote object, bytes in memory) finds the files it
//! names through a [`RelatedOpener`] set with [`Hdf5File::set_related_opener`], and *only*
//! through it: a remote file must not read local files, so none of the steps above that name a
//! local path applies. Of HDF5's order there remains: an absolute name is reduced to its last
//! component (step 1 without its local attempt); the prefix variables are ignored (they name
//! local directories); the name is then resolved relative to the "directory" of the file naming
//! it (step 4), by the opener. The files reached keep the opener of their own location, so a
//! chain of links stays on the opener's side. (A file opened from a byte source *without* an
//! opener has no directory: its names are tried as HDF5 tries them, less steps 4 and 6, so
//! relative to the working directory; set an opener for bytes from an untrusted place.)

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::superblock::Superblock;
use crate::io::{ByteSource, FileSource};
use crate::read::{Hdf5File, SharedMessages};

/// Most files one family holds (the first included).
pub const MAX_FAMILY_FILES: usize = 256;

/// Opens the files named by the external links and virtual datasets of a file that is not on
/// the local file system (a remote object, a file in memory): how an HDF5 file opened from a
/// byte source finds its siblings. See [`Hdf5File::set_related_opener`].
pub trait RelatedOpener: Send + Sync + std::fmt::Debug {
    /// The identity of the file `name` (a relative name: see the [module](self) for how
    /// absolute ones are reduced) names relative to this opener's file, for example its
    /// sibling's URL; `None` when `name` reaches nothing this opener can open. No I/O: the family
    /// looks the identity up among its open files before asking to open it.
    fn resolve(&self, name: &str) -> Option<String>;

    /// Opens the file `key` (from [`RelatedOpener::resolve`]) identifies: its bytes and the
    /// opener for names relative to it; `Ok(None)` when there is no such file (then, as for a
    /// missing local file, a link to it does not resolve and a virtual dataset reads fill values
    /// there).
    ///
    /// # Errors
    /// When the file cannot be read for another reason (a refused or failed request): the link
    /// or dataset naming it then fails instead of reading as missing.
    fn open(&self, key: &str) -> std::io::Result<Option<RelatedFile>>;
}

/// A file a [`RelatedOpener`] opened.
pub struct RelatedFile {
    /// Its bytes.
    pub source: Arc<dyn ByteSource>,
    /// The opener for the names it holds.
    pub opener: Arc<dyn RelatedOpener>,
}

/// A file's identity in its family.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    /// A local file: its canonical path.
    Path(PathBuf),
    /// A file a [`RelatedOpener`] reaches: the key it gave.
    Key(String),
}

/// Where a file was opened from.
#[derive(Debug)]
pub(crate) struct Origin {
    /// The directory of the file as it was named, absolute.
    dir: Option<PathBuf>,
    /// The directory of the file with symbolic links resolved.
    real_dir: Option<PathBuf>,
    /// The file's identity.
    key: Option<Identity>,
    /// How a file not on the local file system opens the files it names.
    opener: Option<Arc<dyn RelatedOpener>>,
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
            key: key.map(Identity::Path),
            opener: None,
        }
    }

    fn opened_by(key: String, opener: Arc<dyn RelatedOpener>) -> Origin {
        Origin {
            dir: None,
            real_dir: None,
            key: Some(Identity::Key(key)),
            opener: Some(opener),
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
    members: Mutex<Vec<(Option<Identity>, Member)>>,
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

    /// Makes this file (opened from a byte source) find the files its external links and
    /// virtual datasets name through `opener`, and only through it: never on the local file
    /// system, whatever the names say, so that a file from elsewhere cannot make its reader open
    /// local files. Starts the file's family anew, with `key` (as the opener's
    /// [`RelatedOpener::resolve`] would name this file) as its identity.
    pub fn set_related_opener(&mut self, key: &str, opener: Arc<dyn RelatedOpener>) {
        self.origin = Some(Arc::new(Origin::opened_by(key.to_string(), opener)));
        self.number = 0;
        self.family = Family::first(self.member());
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
        if let Some(opener) = self.origin.as_ref().and_then(|o| o.opener.clone()) {
            return self.open_with_opener(opener.as_ref(), name, at);
        }
        for cand in self.candidates(name, referrer) {
            // Regular files only: a FIFO or a device named by a hostile file could block.
            if !std::fs::metadata(&cand).is_ok_and(|m| m.is_file()) {
                continue;
            }
            let key = std::fs::canonicalize(&cand).ok().map(Identity::Path);
            if let Some(f) = self.family_member(key.as_ref()) {
                return Ok(Some(f));
            }
            let Ok(src) = FileSource::open(&cand) else {
                continue;
            };
            let Ok(f) = Hdf5File::open(Arc::new(src)) else {
                continue;
            };
            return self.adopt(f, Origin::of(&cand), at).map(Some);
        }
        Ok(None)
    }

    /// [`Hdf5File::open_related`] for a file with an opener: the name (an absolute one reduced
    /// to its last component) relative to this file, as the opener resolves it.
    fn open_with_opener(
        &self,
        opener: &dyn RelatedOpener,
        name: &str,
        at: u64,
    ) -> FormatResult<Option<Hdf5File>> {
        let rel = if name.starts_with('/') {
            name.rsplit('/').next().unwrap_or_default()
        } else {
            name
        };
        if rel.is_empty() {
            return Ok(None);
        }
        let Some(key) = opener.resolve(rel) else {
            return Ok(None);
        };
        if let Some(f) = self.family_member(Some(&Identity::Key(key.clone()))) {
            return Ok(Some(f));
        }
        let opened = opener.open(&key).map_err(|_| {
            FormatError::new(
                FormatErrorKind::InvalidValue(1),
                at,
                "unreadable external file",
            )
        })?;
        let Some(file) = opened else {
            return Ok(None);
        };
        let Ok(f) = Hdf5File::open(file.source) else {
            return Ok(None);
        };
        self.adopt(f, Origin::opened_by(key, file.opener), at)
            .map(Some)
    }

    /// Makes `f`, newly opened from `origin`, a member of this file's family.
    fn adopt(&self, mut f: Hdf5File, origin: Origin, at: u64) -> FormatResult<Hdf5File> {
        let key = origin.key.clone();
        f.origin = Some(Arc::new(origin));
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
        Ok(f)
    }

    fn family_member(&self, key: Option<&Identity>) -> Option<Hdf5File> {
        let key = key?;
        let members = self.family.members.lock().ok()?;
        let (i, (_, m)) = members
            .iter()
            .enumerate()
            .find(|(_, (k, _))| k.as_ref() == Some(key))?;
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
