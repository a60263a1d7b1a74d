//! Byte sources: positional, exact-length reads that name the offset when they fail.
//!
//! A [`ByteSource`] has a length and reads at an offset; it takes `&self`, so one source serves
//! many threads at once (on Unix, `pread`; no shared cursor, no lock).

use std::io;

/// Something that can be read at an offset: a file, a memory buffer, later a remote object.
pub trait ByteSource: Send + Sync {
    /// Total length in bytes.
    fn len(&self) -> u64;

    /// True when the source holds no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `buf` from `offset`; fails with `UnexpectedEof` (naming offset, length and size) when
    /// the source ends first.
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()>;

    /// Reads `len` bytes at `offset` into a new vector, checking the range against [`len`] before
    /// allocating.
    ///
    /// [`len`]: ByteSource::len
    fn read_range(&self, offset: u64, len: u64) -> io::Result<Vec<u8>> {
        check_range(offset, len, self.len())?;
        let mut buf = vec![0u8; len as usize];
        self.read_at(offset, &mut buf)?;
        Ok(buf)
    }
}

/// Fails with `UnexpectedEof` unless `offset + len <= size`.
pub fn check_range(offset: u64, len: u64, size: u64) -> io::Result<()> {
    match offset.checked_add(len) {
        Some(end) if end <= size => Ok(()),
        _ => Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "read of {len} bytes at offset {offset} runs past the end of a {size}-byte source"
            ),
        )),
    }
}

/// A file read with positional reads.
#[derive(Debug)]
pub struct FileSource {
    file: std::fs::File,
    len: u64,
}

impl FileSource {
    /// Wraps an open file, taking its current length.
    pub fn new(file: std::fs::File) -> io::Result<FileSource> {
        let len = file.metadata()?.len();
        Ok(FileSource { file, len })
    }

    /// Opens a file by path.
    pub fn open(path: impl AsRef<std::path::Path>) -> io::Result<FileSource> {
        FileSource::new(std::fs::File::open(path)?)
    }

    /// The underlying file.
    pub fn file(&self) -> &std::fs::File {
        &self.file
    }
}

impl ByteSource for FileSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        check_range(offset, buf.len() as u64, self.len)?;
        read_exact_at(&self.file, offset, buf)
    }
}

/// Positional exact read on a file, without moving any shared cursor.
pub fn read_exact_at(file: &std::fs::File, offset: u64, buf: &mut [u8]) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0usize;
        while done < buf.len() {
            let n = std::os::windows::fs::FileExt::seek_read(
                file,
                &mut buf[done..],
                offset + done as u64,
            )?;
            if n == 0 {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "short read"));
            }
            done += n;
        }
        Ok(())
    }
}

impl ByteSource for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        check_range(offset, buf.len() as u64, self.as_slice().len() as u64)?;
        let start = offset as usize;
        buf.copy_from_slice(&self[start..start + buf.len()]);
        Ok(())
    }
}

/// A view of a source that starts `base` bytes in: HDF5 addresses are relative to the superblock's
/// base address (non-zero when the file has a user block).
#[derive(Debug)]
pub struct Shifted<S> {
    inner: S,
    base: u64,
}

impl<S: ByteSource> Shifted<S> {
    /// Views `inner` from `base` on (clamped to its length).
    pub fn new(inner: S, base: u64) -> Self {
        let base = base.min(inner.len());
        Shifted { inner, base }
    }
}

impl<S: ByteSource> ByteSource for Shifted<S> {
    fn len(&self) -> u64 {
        self.inner.len() - self.base
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        check_range(offset, buf.len() as u64, self.len())?;
        self.inner.read_at(self.base + offset, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reads() {
        let v: Vec<u8> = (0..10).collect();
        assert_eq!(v.read_range(2, 3).unwrap(), vec![2, 3, 4]);
        let e = v.read_range(8, 3).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        assert!(v.read_range(u64::MAX, 2).is_err());
    }
}
