//! Where a classic file's bytes live: a file on disk (positional reads and writes, no shared
//! cursor, so reads from many threads need no lock) or a read-only byte source (memory).
//!
//! Data reads past the end of the file return zero bytes, as netcdf-c's `posixio.c` does for a
//! short read (a file written in no-fill mode and never closed is shorter than its header says);
//! header reads use [`Storage::read_exact_at`], which fails instead.

use std::fs::File;

use crate::error::{Error, ErrorKind, Result};
use crate::io::ByteSource;

/// The bytes of a classic file.
pub(crate) enum Storage {
    /// A file opened read-only or read-write.
    File(File),
    /// An in-memory image (read-only).
    Mem(Vec<u8>),
    /// Any other byte source (read-only).
    Source(Box<dyn ByteSource>),
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Storage::File(file) => write!(f, "Storage::File({file:?})"),
            Storage::Mem(v) => write!(f, "Storage::Mem({} bytes)", v.len()),
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

fn pwrite_all(file: &File, mut buf: &[u8], mut offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let _ = &mut buf;
        let _ = &mut offset;
        std::os::unix::fs::FileExt::write_all_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        while !buf.is_empty() {
            let n = std::os::windows::fs::FileExt::seek_write(file, buf, offset)?;
            if n == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            buf = &buf[n..];
            offset += n as u64;
        }
        Ok(())
    }
}

impl Storage {
    /// Current length in bytes.
    pub(crate) fn len(&self) -> Result<u64> {
        match self {
            Storage::File(f) => Ok(f.metadata()?.len()),
            Storage::Mem(v) => Ok(v.len() as u64),
            Storage::Source(s) => Ok(s.len()),
        }
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

    /// Writes `buf` at `offset` (files only).
    pub(crate) fn write_at(&self, offset: u64, buf: &[u8]) -> Result<()> {
        match self {
            Storage::File(f) => pwrite_all(f, buf, offset).map_err(|e| Error::io(e).offset(offset)),
            _ => Err(Error::with_detail(ErrorKind::Perm, "in-memory dataset")),
        }
    }

    /// Extends the file with zero bytes up to `len` (never shrinks it).
    pub(crate) fn extend_to(&self, len: u64) -> Result<()> {
        match self {
            Storage::File(f) => {
                if f.metadata()?.len() < len {
                    f.set_len(len)?;
                }
                Ok(())
            }
            _ => Err(Error::with_detail(ErrorKind::Perm, "in-memory dataset")),
        }
    }

    /// Flushes to stable storage.
    pub(crate) fn sync(&self) -> Result<()> {
        match self {
            Storage::File(f) => Ok(f.sync_all()?),
            _ => Ok(()),
        }
    }

    /// Copies `n` bytes from `src` to `dst` within the file with `memmove` semantics (bytes past
    /// the end read as zeros), as netcdf-c's `ncio_move`.
    pub(crate) fn move_bytes(&self, dst: u64, src: u64, n: u64) -> Result<()> {
        const CHUNK: u64 = 1 << 20;
        let mut buf = vec![0u8; CHUNK.min(n) as usize];
        if dst > src {
            // Copy from the high end down so overlapping ranges survive.
            let mut left = n;
            while left > 0 {
                let k = left.min(CHUNK);
                left -= k;
                let b = &mut buf[..k as usize];
                self.read_zero_fill(src + left, b)?;
                self.write_at(dst + left, b)?;
            }
        } else {
            let mut done = 0;
            while done < n {
                let k = (n - done).min(CHUNK);
                let b = &mut buf[..k as usize];
                self.read_zero_fill(src + done, b)?;
                self.write_at(dst + done, b)?;
                done += k;
            }
        }
        Ok(())
    }
}
