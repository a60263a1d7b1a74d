//! The file under a writer: positional reads and writes relative to the HDF5 base address, a
//! length that grows as space is allocated, and an append-only allocator. Nothing is ever
//! written over space that the last synced superblock can reach, except raw data the caller
//! overwrites on purpose (see the crate-level "Nothing lost" notes in [`super`]).

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::io::{check_range, read_exact_at, ByteSource};

/// A read-write file addressed relative to the superblock's base address.
#[derive(Debug)]
pub(crate) struct RwFile {
    file: std::fs::File,
    base: u64,
    /// Relative length: everything below it is allocated (written, or a hole reading as zeros).
    len: AtomicU64,
    /// Absolute physical length of the file.
    phys: AtomicU64,
}

impl RwFile {
    /// Wraps an open read-write file whose HDF5 addresses start at `base`.
    pub(crate) fn new(file: std::fs::File, base: u64) -> io::Result<RwFile> {
        let total = file.metadata()?.len();
        Ok(RwFile {
            file,
            base,
            len: AtomicU64::new(total.saturating_sub(base)),
            phys: AtomicU64::new(total),
        })
    }

    /// Writes `data` at relative address `at`, extending the length if needed.
    pub(crate) fn write_at(&self, at: u64, data: &[u8]) -> io::Result<()> {
        let abs = at
            .checked_add(self.base)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "address overflow"))?;
        write_all_at(&self.file, abs, data)?;
        self.len.fetch_max(at + data.len() as u64, Ordering::AcqRel);
        self.phys
            .fetch_max(abs + data.len() as u64, Ordering::AcqRel);
        Ok(())
    }

    /// Writes at an absolute file offset (the superblock lives at the base address itself).
    pub(crate) fn write_absolute(&self, abs: u64, data: &[u8]) -> io::Result<()> {
        write_all_at(&self.file, abs, data)?;
        self.phys
            .fetch_max(abs + data.len() as u64, Ordering::AcqRel);
        Ok(())
    }

    /// Sets the allocated length to `end` (a reserved region not written yet reads as zeros).
    pub(crate) fn set_allocated(&self, end: u64) {
        self.len.store(end, Ordering::Release);
    }

    /// Makes the file at least `eoa` (relative) bytes long, so that the end-of-file address a
    /// superblock records is never past the file's end, then (when `durable`) flushes file data
    /// and metadata to stable storage.
    pub(crate) fn sync(&self, eoa: u64, durable: bool) -> io::Result<()> {
        let want = self.base + eoa;
        if self.phys.load(Ordering::Acquire) < want {
            self.file.set_len(want)?;
            self.phys.fetch_max(want, Ordering::AcqRel);
        }
        if durable {
            self.file.sync_all()?;
        }
        Ok(())
    }
}

impl ByteSource for RwFile {
    fn len(&self) -> u64 {
        self.len.load(Ordering::Acquire)
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        check_range(offset, buf.len() as u64, self.len())?;
        let abs = self.base + offset;
        // A reserved region past the physical end reads as zeros.
        let phys = self.phys.load(Ordering::Acquire);
        if abs + buf.len() as u64 <= phys {
            return read_exact_at(&self.file, abs, buf);
        }
        buf.fill(0);
        if abs < phys {
            let n = (phys - abs) as usize;
            read_exact_at(&self.file, abs, &mut buf[..n])?;
        }
        Ok(())
    }
}

fn write_all_at(file: &std::fs::File, offset: u64, data: &[u8]) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(file, data, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0usize;
        while done < data.len() {
            let n = std::os::windows::fs::FileExt::seek_write(
                file,
                &data[done..],
                offset + done as u64,
            )?;
            if n == 0 {
                return Err(io::Error::new(io::ErrorKind::WriteZero, "short write"));
            }
            done += n;
        }
        Ok(())
    }
}

/// Append-only space allocation: every block goes at the end of what is allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Allocator {
    /// The next free relative address (the end of allocated space).
    pub(crate) eoa: u64,
}

impl Allocator {
    /// Allocates `len` bytes, returning their address, and tells the file how far allocated
    /// space now reaches.
    pub(crate) fn alloc(&mut self, len: u64, io: &RwFile) -> u64 {
        let at = self.eoa;
        self.eoa += len;
        io.set_allocated(self.eoa);
        at
    }

    /// Gives back the tail `[end, eoa)` (only ever the last allocation's unused room).
    pub(crate) fn shrink_to(&mut self, end: u64, io: &RwFile) {
        self.eoa = end;
        io.set_allocated(end);
    }
}
