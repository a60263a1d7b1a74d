//! Where the bytes of a classic file opened for reading live: a file on disk (positional reads,
//! no shared cursor, so reads from many threads need no lock), a memory image or any byte source.
//! Writable files are written (and read) through [`super::ncio`].
//!
//! Data reads past the end of the file return zero bytes, as netcdf-c's `posixio.c` does for a
//! short read (a file written in no-fill mode and never closed is shorter than its header says);
//! header reads use [`Storage::read_exact_at`], which fails instead.

use std::fs::File;

use crate::error::{Error, ErrorKind, Result};

/// The bytes of a classic file.
pub(crate) enum Storage {
    /// A file opened read-only or read-write.
    File(File),
    /// An in-memory image (read-only).
    Mem(Vec<u8>),
    /// Any other byte source (read-only; `#mode=bytes`).
    #[cfg(feature = "remote")]
    Source(Box<dyn purecdf_hdf5::io::ByteSource>),
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Storage::File(file) => write!(f, "Storage::File({file:?})"),
            Storage::Mem(v) => write!(f, "Storage::Mem({} bytes)", v.len()),
            #[cfg(feature = "remote")]
            Storage::Source(s) => write!(f, "Storage::Source({} bytes)", s.len()),
        }
    }
}

fn pread(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        std::os::windows::fs::FileExt::seek_read(file, buf, offset)
    }
}

impl Storage {
    /// Current length in bytes.
    pub(crate) fn len(&self) -> Result<u64> {
        match self {
            Storage::File(f) => Ok(f.metadata()?.len()),
            Storage::Mem(v) => Ok(v.len() as u64),
            #[cfg(feature = "remote")]
            Storage::Source(s) => Ok(s.len()),
        }
    }

    /// netcdf-c's I/O block size for this file (`blksize()` in posixio.c: the file system's
    /// preferred size, at least 8192; 8192 for memory images).
    pub(crate) fn blksize(&self) -> u64 {
        #[cfg(unix)]
        if let Storage::File(f) = self {
            use std::os::unix::fs::MetadataExt;
            if let Ok(m) = f.metadata() {
                return m.blksize().max(8192);
            }
        }
        8192
    }

    /// Fills `buf` from `offset`; NC_ETRUNC naming the offset when the bytes are not all there.
    pub(crate) fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let n = self.read_at(offset, buf)?;
        if n < buf.len() {
            return Err(Error::with_detail(
                ErrorKind::Trunc,
                format!(
                    "{} bytes wanted at offset {offset}, only {n} present",
                    buf.len()
                ),
            )
            .offset(offset + n as u64));
        }
        Ok(())
    }

    /// Fills `buf` from `offset`, zero-filling whatever lies past the end of the file.
    pub(crate) fn read_zero_fill(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let n = self.read_at(offset, buf)?;
        buf[n..].fill(0);
        Ok(())
    }

    /// Reads as much of `buf` as the file holds; returns the count.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize> {
        match self {
            Storage::File(f) => {
                let mut done = 0;
                while done < buf.len() {
                    let at = offset
                        .checked_add(done as u64)
                        .ok_or_else(|| Error::new(ErrorKind::Trunc).offset(offset))?;
                    match pread(f, &mut buf[done..], at) {
                        Ok(0) => break,
                        Ok(k) => done += k,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(Error::io(e).offset(at)),
                    }
                }
                Ok(done)
            }
            Storage::Mem(v) => {
                let len = v.len() as u64;
                if offset >= len {
                    return Ok(0);
                }
                let start = offset as usize;
                let n = buf.len().min(v.len() - start);
                buf[..n].copy_from_slice(&v[start..start + n]);
                Ok(n)
            }
            #[cfg(feature = "remote")]
            Storage::Source(s) => {
                let len = s.len();
                if offset >= len {
                    return Ok(0);
                }
                let n = (buf.len() as u64).min(len - offset) as usize;
                s.read_at(offset, &mut buf[..n])
                    .map_err(|e| Error::io(e).offset(offset))?;
                Ok(n)
            }
        }
    }
}
