//! The I/O layer under a writable classic file, as netcdf-c's `ncio` (libsrc/ncio.h): regions
//! are got and released, moved, synced and padded exactly as netcdf-c 4.9's library code asks its
//! I/O layer to (libsrc/v1hpg.c, nc3internal.c, putget.m4), so that the bytes reaching the file
//! and the file's length are netcdf-c's. Two layers are emulated:
//!
//! - `posixio` (the default; see [`super::posixio`]): a two-block page buffer;
//! - `memio` (`NC_DISKLESS`, as `nccopy -w` creates): the whole file in memory, which grows to the
//!   end of every region got and is written out at close; its pages are 4096 bytes.
//!
//! Data already in external format is passed through a staging area (see [`Io::stage`]) so that
//! large writes cost one copy and a few large positional writes, whatever the buffer does.

use std::fs::File;

use crate::error::Result;

use super::header::HItem;
use super::posixio::{Buf, Disk};

/// netcdf-c's `memio` page size (its `pagesize`, which is the system's page size).
const MEM_PAGE: usize = 4096;

/// Staging area size (a multiple of the chunk size is used).
const STAGING: usize = 4 << 20;

/// Which netcdf-c I/O layer to emulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `posixio.c` (files on disk).
    Posix,
    /// `memio.c` (`NC_DISKLESS`, persisted at close).
    Memory,
}

/// The ncio of one writable classic file.
#[derive(Debug)]
pub(crate) struct Io {
    mode: Mode,
    /// netcdf-c's `ncp->chunk` (the block size for posixio, the page size for memio).
    chunk: usize,
    disk: Disk,
    master: Buf,
    slave: Option<Buf>,
    /// File offset of the region last got (memio).
    cur: u64,
    /// Staging bytes that buffer ranges or the gathered write may refer to.
    staged: usize,
    /// The fill pattern the staging area starts with, and for how many bytes.
    pattern: Option<(Vec<u8>, usize)>,
}

/// netcdf-c's `blksize()`: the file system's preferred I/O size, at least 8192.
fn blksize(file: &File) -> usize {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(m) = file.metadata() {
            return usize::try_from(m.blksize()).unwrap_or(8192).max(8192);
        }
    }
    let _ = file;
    8192
}

impl Io {
    /// `ncio_create` of a new file followed by `NC3_create`'s first header write: the file grows
    /// to `header.len()` bytes, then the minimal header is put into the first region.
    pub(crate) fn create(file: File, mode: Mode, header: &[u8]) -> Result<Io> {
        let (chunk, len) = match mode {
            Mode::Posix => (blksize(&file), header.len() as u64),
            Mode::Memory => (MEM_PAGE, 0),
        };
        if mode == Mode::Posix {
            // fgrow(): the file is extended at once.
            file.set_len(len)?;
        }
        let mut io = Io {
            mode,
            chunk,
            disk: Disk::new(file, len),
            master: Buf::created(chunk),
            slave: None,
            cur: 0,
            staged: 0,
            pattern: None,
        };
        let pos = io.get(0, header.len(), true, true)?;
        io.put(pos, header)?;
        io.rel(true);
        Ok(io)
    }

    /// `ncio_open` of an existing file for writing (posixio).
    pub(crate) fn open(file: File) -> Result<Io> {
        let len = file.metadata()?.len();
        let chunk = blksize(&file);
        Ok(Io {
            mode: Mode::Posix,
            chunk,
            disk: Disk::new(file, len),
            master: Buf::opened(chunk),
            slave: None,
            cur: 0,
            staged: 0,
            pattern: None,
        })
    }

    /// The file's length as netcdf-c's would be (`ncio_filesize`).
    pub(crate) fn len(&self) -> u64 {
        self.disk.len
    }

    /// `ncio_get`: makes `extent` bytes at `offset` available; returns their buffer position.
    /// `full`: the caller will write every one of them.
    pub(crate) fn get(
        &mut self,
        offset: u64,
        extent: usize,
        write: bool,
        full: bool,
    ) -> Result<usize> {
        // ncio_px_get reclaims the double-buffering slave first.
        self.slave = None;
        match self.mode {
            Mode::Posix => self.master.get(&mut self.disk, offset, extent, write, full),
            Mode::Memory => {
                self.disk.len = self.disk.len.max(offset + extent as u64);
                self.cur = offset;
                Ok(0)
            }
        }
    }

    /// Copies `data` into the region got, at `pos`.
    pub(crate) fn put(&mut self, pos: usize, data: &[u8]) -> Result<()> {
        match self.mode {
            Mode::Posix => self.master.put(&mut self.disk, pos, data),
            Mode::Memory => self.disk.write(self.cur + pos as u64, data),
        }
    }

    /// Puts staging bytes `src..src + n` into the region got, at `pos`.
    fn put_staged(&mut self, pos: usize, n: usize, src: usize) -> Result<()> {
        match self.mode {
            Mode::Posix => {
                self.master.put_staged(pos, n, src);
                Ok(())
            }
            Mode::Memory => self.disk.write_staged(self.cur + pos as u64, src, n),
        }
    }

    /// Copies bytes of the region got, from `pos`, into `out`.
    pub(crate) fn take(&mut self, pos: usize, out: &mut [u8]) -> Result<()> {
        match self.mode {
            Mode::Posix => self.master.take(&mut self.disk, pos, out),
            Mode::Memory => self.disk.read(self.cur + pos as u64, out),
        }
    }

    /// `ncio_rel`.
    pub(crate) fn rel(&mut self, modified: bool) {
        self.master.rel(modified);
    }

    /// `ncio_sync`.
    pub(crate) fn sync(&mut self) -> Result<()> {
        match self.mode {
            Mode::Posix => self.master.sync(&mut self.disk),
            Mode::Memory => self.disk.flush(),
        }
    }

    /// Flushes the file to stable storage (what `nc_sync` adds with `fsync`).
    pub(crate) fn sync_all(&mut self) -> Result<()> {
        self.disk.flush()?;
        Ok(self.disk.file.sync_all()?)
    }

    /// `ncio_pad_length`: syncs, then grows the file to `len`.
    pub(crate) fn pad_length(&mut self, len: u64) -> Result<()> {
        self.sync()?;
        match self.mode {
            Mode::Posix => self.disk.len = self.disk.len.max(len),
            Mode::Memory => self.disk.len = len,
        }
        self.disk.settle()
    }

    /// `ncio_close` (the sync; the file itself is closed when dropped): leaves the file exactly
    /// as netcdf-c's.
    pub(crate) fn close(&mut self) -> Result<()> {
        self.sync()?;
        self.disk.settle()
    }

    /// Staging bytes `at..at + n` to write into, `at` from [`Io::stage_at`].
    pub(crate) fn stage(&mut self, at: usize, n: usize) -> &mut [u8] {
        if self.disk.staging.len() < at + n {
            self.disk.staging.resize(at + n, 0);
        }
        &mut self.disk.staging[at..at + n]
    }

    /// Where `n` more staging bytes can go (at most [`Io::staging_cap`]): after those in use, or
    /// at 0 once the buffer no longer refers to any.
    pub(crate) fn stage_at(&mut self, n: usize) -> Result<usize> {
        if self.staged + n > self.staging_cap() {
            self.unstage()?;
        }
        let at = self.staged;
        self.staged += n;
        if self.pattern.as_ref().is_some_and(|p| at < p.1) {
            self.pattern = None;
        }
        Ok(at)
    }

    /// Largest staging run: a multiple of the chunk size.
    pub(crate) fn staging_cap(&self) -> usize {
        (STAGING / self.chunk).max(1) * self.chunk
    }

    /// Writes out everything that refers to the staging area, so that it can be reused.
    pub(crate) fn unstage(&mut self) -> Result<()> {
        self.disk.flush()?;
        if self.mode == Mode::Posix {
            self.master.unstage(&mut self.disk)?;
        }
        self.staged = 0;
        Ok(())
    }

    /// `putNCvx`: writes `n` staged bytes (from staging offset `src`) at `offset`, one region of
    /// at most a chunk at a time.
    pub(crate) fn write_staged(&mut self, mut offset: u64, n: usize, mut src: usize) -> Result<()> {
        let mut left = n;
        while left > 0 {
            let e = left.min(self.chunk);
            let pos = self.get(offset, e, true, true)?;
            self.put_staged(pos, e, src)?;
            self.rel(true);
            left -= e;
            offset += e as u64;
            src += e;
        }
        Ok(())
    }

    /// Writes `data` (external format) at `offset` as `putNCvx` does.
    pub(crate) fn write_bytes(&mut self, mut offset: u64, data: &[u8]) -> Result<()> {
        for piece in data.chunks(self.chunk) {
            let pos = self.get(offset, piece.len(), true, true)?;
            self.put(pos, piece)?;
            self.rel(true);
            offset += piece.len() as u64;
        }
        Ok(())
    }

    /// `getNCvx`: reads `out.len()` bytes at `offset` (external format), a chunk at a time.
    pub(crate) fn read_bytes(&mut self, mut offset: u64, out: &mut [u8]) -> Result<()> {
        let chunk = self.chunk;
        for piece in out.chunks_mut(chunk) {
            let pos = self.get(offset, piece.len(), false, false)?;
            self.take(pos, piece)?;
            self.rel(false);
            offset += piece.len() as u64;
        }
        Ok(())
    }

    /// `fill_NC_var`'s copy-out: `size` bytes of the repeated `pattern` (one external value) at
    /// `offset`, each region of at most a chunk starting the pattern afresh.
    pub(crate) fn fill(&mut self, mut offset: u64, size: u64, pattern: &[u8]) -> Result<()> {
        let chunk = self.chunk;
        let want = usize::try_from(size)
            .unwrap_or(usize::MAX)
            .div_ceil(chunk)
            .saturating_mul(chunk)
            .min(self.staging_cap());
        let have = match &self.pattern {
            Some((p, n)) if p == pattern && *n >= want => *n,
            _ => 0,
        };
        let region = if have > 0 {
            // The pattern's bytes are in use again: keep later staging after them.
            self.staged = self.staged.max(have);
            have
        } else {
            if self.staged > 0 {
                self.unstage()?;
            }
            let buf = self.stage(0, want);
            for (i, b) in buf.iter_mut().enumerate() {
                *b = pattern[i % pattern.len()];
            }
            self.staged = want;
            self.pattern = Some((pattern.to_vec(), want));
            want
        };
        // A region restarts the pattern; staging offsets stay in phase only when a chunk holds
        // whole values.
        let in_phase = chunk.is_multiple_of(pattern.len());
        let mut left = size;
        let mut k = 0usize;
        while left > 0 {
            let e = left.min(chunk as u64) as usize;
            let src = if in_phase { (k * chunk) % region } else { 0 };
            let pos = self.get(offset, e, true, true)?;
            self.put_staged(pos, e, src)?;
            self.rel(true);
            left -= e as u64;
            offset += e as u64;
            k += 1;
        }
        Ok(())
    }

    /// `write_numrecs`.
    pub(crate) fn write_numrecs(&mut self, bytes: &[u8]) -> Result<()> {
        let pos = self.get(4, bytes.len(), true, true)?;
        self.put(pos, bytes)?;
        self.rel(true);
        Ok(())
    }

    /// `ncx_put_NC` without a region given: the header through windows of `min(xsz, chunk)`
    /// bytes (4096 for a minimal header), a new window opening at the current position whenever
    /// the next item does not fit (`fault_v1hs`). `min_xsz` is 32, or 48 for CDF-5.
    pub(crate) fn write_header(
        &mut self,
        bytes: &[u8],
        items: &[HItem],
        min_xsz: usize,
    ) -> Result<()> {
        let xsz = bytes.len();
        let extent = if xsz <= min_xsz {
            self.chunk.min(4096)
        } else {
            xsz.min(self.chunk)
        };
        let mut windows = Vec::new();
        walk_windows(items, extent, &mut windows);
        for (i, &(ws, ext)) in windows.iter().enumerate() {
            let we = windows.get(i + 1).map_or(xsz, |w| w.0);
            let pos = self.get(ws as u64, ext, true, false)?;
            self.put(pos, &bytes[ws..we])?;
            self.rel(true);
        }
        Ok(())
    }

    /// What `nc_get_NC` does to the buffer when a file is opened: a sync, then the header read
    /// through windows of `min(chunk, 4096, file size)` bytes.
    pub(crate) fn replay_header_read(&mut self, items: &[HItem]) -> Result<()> {
        self.sync()?;
        let extent = self
            .chunk
            .min(4096)
            .min(usize::try_from(self.disk.len).unwrap_or(usize::MAX));
        let mut windows = Vec::new();
        walk_windows(items, extent, &mut windows);
        for (ws, ext) in windows {
            self.get(ws as u64, ext, false, false)?;
            self.rel(false);
        }
        Ok(())
    }

    /// `ncio_move`: copies `n` bytes from `from` to `to` within the file.
    pub(crate) fn move_bytes(&mut self, to: u64, from: u64, n: u64) -> Result<()> {
        if to == from || n == 0 {
            return Ok(());
        }
        let n =
            usize::try_from(n).map_err(|_| crate::error::Error::new(crate::ErrorKind::NoMem))?;
        match self.mode {
            Mode::Posix => self.px_move(to, from, n),
            Mode::Memory => {
                if from < to {
                    self.disk.len = self.disk.len.max(to + n as u64);
                }
                let mut buf = vec![0u8; n.min(1 << 20)];
                let step = buf.len();
                let mut done = 0;
                while done < n {
                    let k = (n - done).min(step);
                    // Overlapping ranges: copy from the far end first when moving up.
                    let at = if to > from { n - done - k } else { done };
                    self.disk.read(from + at as u64, &mut buf[..k])?;
                    self.disk.write(to + at as u64, &buf[..k])?;
                    done += k;
                }
                Ok(())
            }
        }
    }

    /// `ncio_px_move`.
    fn px_move(&mut self, to: u64, from: u64, n: usize) -> Result<()> {
        let blk = self.chunk;
        let (lower, upper) = if to > from { (from, to) } else { (to, from) };
        let diff = (upper - lower) as usize;
        let extent = diff + n;
        if extent > blk {
            let mut remaining = n;
            let (mut to, mut from) = (to, from);
            if to > from {
                let mut frm = from + n as u64;
                let mut toh = to + n as u64;
                while remaining > 0 {
                    let e = remaining.min(blk);
                    frm -= e as u64;
                    toh -= e as u64;
                    self.double_buffer(toh, frm, e)?;
                    remaining -= e;
                }
            } else {
                while remaining > 0 {
                    let e = remaining.min(blk);
                    self.double_buffer(to, from, e)?;
                    remaining -= e;
                    to += e as u64;
                    from += e as u64;
                }
            }
            return Ok(());
        }
        let base = self
            .master
            .get(&mut self.disk, lower, extent, true, false)?;
        if to > from {
            self.master.memmove(&mut self.disk, base, base + diff, n)?;
        } else {
            self.master.memmove(&mut self.disk, base + diff, base, n)?;
        }
        self.master.rel(true);
        Ok(())
    }

    /// `px_double_buffer`: one piece of a move through the slave buffer.
    fn double_buffer(&mut self, to: u64, from: u64, n: usize) -> Result<()> {
        // No write promise: the slave copies the destination's old bytes, stale ones included.
        let dest = self.master.get(&mut self.disk, to, n, true, false)?;
        let mut slave = match self.slave.take() {
            Some(s) => s,
            None => self.master.slave_of(&mut self.disk)?,
        };
        let src = slave.get(&mut self.disk, from, n, false, false)?;
        let mut data = vec![0u8; n];
        slave.take(&mut self.disk, src, &mut data)?;
        slave.rel(false);
        self.slave = Some(slave);
        self.master.put(&mut self.disk, dest, &data)?;
        self.master.rel(true);
        Ok(())
    }
}

/// The windows `(start, extent)` that `fault_v1hs` opens for a header of these items, the first
/// at 0 with `extent`.
fn walk_windows(items: &[HItem], extent: usize, out: &mut Vec<(usize, usize)>) {
    let mut ext = extent;
    let mut ws = 0usize;
    out.push((ws, ext));
    let mut pos = match items.first() {
        Some(HItem::Start(n)) => *n,
        _ => 0,
    };
    let mut check = |n: usize, pos: &mut usize, ws: &mut usize, ext: &mut usize| {
        if *pos + n > *ws + *ext {
            *ws = *pos;
            *ext = (*ext).max(n);
            out.push((*ws, *ext));
        }
        *pos += n;
    };
    for it in items {
        match *it {
            HItem::Start(_) => {}
            HItem::Check(n) => check(n, &mut pos, &mut ws, &mut ext),
            HItem::Values(total) => {
                let perchunk = ext;
                let mut left = total;
                loop {
                    let n = perchunk.min(left);
                    check(n, &mut pos, &mut ws, &mut ext);
                    left -= n;
                    if left == 0 {
                        break;
                    }
                }
            }
        }
    }
}
