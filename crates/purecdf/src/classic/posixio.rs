//! netcdf-c's `posixio` page buffer (libsrc/posixio.c, the `ncio_px_*` functions of netcdf-c
//! 4.9), emulated so that the files we write are byte-identical to netcdf-c's even where the
//! buffer, not the file format, decides the bytes: in unwritten no-fill space and in the file's
//! length. The format spec leaves those bytes undefined ("The NetCDF Classic Format
//! Specification", "Note on padding": padding in no-fill mode is not specified).
//!
//! netcdf-c reads and writes a classic file only through one buffer of two blocks (`blksz` is
//! the file system's preferred I/O size, at least 8192 bytes): every access is a `get` of a
//! region of at most one block, then a `rel`; the buffer is written back (`pgout`) when it
//! moves, at sync and at close. Its observable quirks, all reproduced here:
//!
//! - when the buffer slides up one block ("hit in upper half"), only the valid part of the upper
//!   block is copied down but the whole lower block is then counted valid, so bytes of the block
//!   below (those `blksz` earlier in the file) are later written where nothing was written;
//! - a region is counted valid up to the end of what was requested, so a header window that ends
//!   past the header makes the file that long once written back;
//! - a sync of an unmodified buffer opened read-write with nothing written discards it.
//!
//! [`Buf`] follows `px_get` branch for branch. To keep large writes as fast as plain positional
//! writes, a buffer's bytes are kept lazily: a byte range may stand for "what the file holds here"
//! (nothing is read until needed), for zeros, or for a range of the caller's staging area (data
//! already converted to the external format); write-backs of staging ranges that follow each
//! other in the file are gathered into one write. Every other byte is held for real.

use std::fs::File;

use crate::error::{Error, ErrorKind, Result};

/// What one range of buffer bytes holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The bytes are in [`Buf::bytes`] at the same positions.
    Real,
    /// Zero bytes.
    Zero,
    /// What the file holds at the same file position (never read yet).
    Disk,
    /// Staging bytes from this staging offset on.
    Staged(usize),
    /// Bytes netcdf-c can never write or return (left from an older buffer position).
    Junk,
}

/// Ranges a buffer's map may hold before everything is held for real.
const MAX_SEGS: usize = 64;

#[derive(Clone, Copy, Debug)]
struct Seg {
    start: usize,
    end: usize,
    kind: Kind,
}

fn shifted(k: Kind, by: usize) -> Kind {
    match k {
        Kind::Staged(o) => Kind::Staged(o + by),
        k => k,
    }
}

/// A buffer's content map: sorted, contiguous ranges covering `0..cap`.
#[derive(Debug)]
struct Map {
    segs: Vec<Seg>,
    scratch: Vec<Seg>,
}

impl Map {
    fn new(cap: usize, kind: Kind) -> Map {
        Map {
            segs: vec![Seg {
                start: 0,
                end: cap,
                kind,
            }],
            scratch: Vec::new(),
        }
    }

    /// Marks `a..b` as `kind`.
    fn set(&mut self, a: usize, b: usize, kind: Kind) {
        if a >= b {
            return;
        }
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut placed = false;
        for s in &self.segs {
            if s.end <= a || s.start >= b {
                if !placed && s.start >= b {
                    push_merged(
                        &mut out,
                        Seg {
                            start: a,
                            end: b,
                            kind,
                        },
                    );
                    placed = true;
                }
                push_merged(&mut out, *s);
                continue;
            }
            if s.start < a {
                push_merged(
                    &mut out,
                    Seg {
                        start: s.start,
                        end: a,
                        kind: s.kind,
                    },
                );
            }
            if !placed {
                push_merged(
                    &mut out,
                    Seg {
                        start: a,
                        end: b,
                        kind,
                    },
                );
                placed = true;
            }
            if s.end > b {
                let kind = shifted(s.kind, b - s.start);
                push_merged(
                    &mut out,
                    Seg {
                        start: b,
                        end: s.end,
                        kind,
                    },
                );
            }
        }
        if !placed {
            push_merged(
                &mut out,
                Seg {
                    start: a,
                    end: b,
                    kind,
                },
            );
        }
        self.scratch = std::mem::replace(&mut self.segs, out);
    }

    /// The ranges of `a..b`, each clipped, with staging offsets adjusted to the clipped start.
    fn ranges(&self, a: usize, b: usize) -> Vec<Seg> {
        self.segs
            .iter()
            .filter(|s| s.end > a && s.start < b)
            .map(|s| {
                let start = s.start.max(a);
                Seg {
                    start,
                    end: s.end.min(b),
                    kind: shifted(s.kind, start - s.start),
                }
            })
            .collect()
    }
}

fn push_merged(out: &mut Vec<Seg>, s: Seg) {
    if s.start >= s.end {
        return;
    }
    if let Some(last) = out.last_mut() {
        let joins = match (last.kind, s.kind) {
            (Kind::Staged(o1), Kind::Staged(o2)) => o2 == o1 + (last.end - last.start),
            (k1, k2) => k1 == k2,
        };
        if joins && last.end == s.start {
            last.end = s.end;
            return;
        }
    }
    out.push(s);
}

/// The shared part of a buffer's surroundings: the file, its length as netcdf-c would have it,
/// the staging area and the gathered write-back.
#[derive(Debug)]
pub(crate) struct Disk {
    /// The file.
    pub(crate) file: File,
    /// The file's length as netcdf-c's would be now.
    pub(crate) len: u64,
    /// Data in external format, referenced by `Kind::Staged` ranges.
    pub(crate) staging: Vec<u8>,
    /// A gathered write of staging bytes: file offset, staging offset, length.
    pending: (u64, usize, usize),
}

impl Disk {
    /// A disk view of `file`, whose netcdf-c length is `len`.
    pub(crate) fn new(file: File, len: u64) -> Disk {
        Disk {
            file,
            len,
            staging: Vec::new(),
            pending: (0, 0, 0),
        }
    }

    /// Writes out the gathered staging bytes.
    pub(crate) fn flush(&mut self) -> Result<()> {
        let (off, src, n) = self.pending;
        if n > 0 {
            self.pending.2 = 0;
            pwrite_all(&self.file, &self.staging[src..src + n], off)?;
        }
        Ok(())
    }

    /// Writes `buf` at `off` after what is gathered.
    pub(crate) fn write(&mut self, off: u64, buf: &[u8]) -> Result<()> {
        self.flush()?;
        pwrite_all(&self.file, buf, off)
    }

    /// Writes staging bytes `src..src + n` at `off`, gathering them with the previous ones when
    /// they follow on in both the file and the staging area.
    pub(crate) fn write_staged(&mut self, off: u64, src: usize, n: usize) -> Result<()> {
        let (poff, psrc, pn) = self.pending;
        if pn > 0 && poff + pn as u64 == off && psrc + pn == src {
            self.pending.2 += n;
            return Ok(());
        }
        self.flush()?;
        self.pending = (off, src, n);
        Ok(())
    }

    /// Writes `n` zero bytes at `off`.
    pub(crate) fn write_zeros(&mut self, mut off: u64, mut n: usize) -> Result<()> {
        const Z: [u8; 4096] = [0; 4096];
        self.flush()?;
        while n > 0 {
            let k = n.min(Z.len());
            pwrite_all(&self.file, &Z[..k], off)?;
            off += k as u64;
            n -= k;
        }
        Ok(())
    }

    /// Fills `buf` from `off`; bytes past the end of the file read as zeros.
    pub(crate) fn read(&mut self, off: u64, buf: &mut [u8]) -> Result<()> {
        self.flush()?;
        let mut done = 0;
        while done < buf.len() {
            match pread(&self.file, &mut buf[done..], off + done as u64) {
                Ok(0) => break,
                Ok(k) => done += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::io(e).offset(off + done as u64)),
            }
        }
        buf[done..].fill(0);
        Ok(())
    }

    /// Makes the file on disk exactly as long as netcdf-c's would be (after a flush).
    pub(crate) fn settle(&mut self) -> Result<()> {
        self.flush()?;
        if self.file.metadata()?.len() < self.len {
            self.file.set_len(self.len)?;
        }
        Ok(())
    }
}

fn pread(file: &File, buf: &mut [u8], off: u64) -> std::io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_at(file, buf, off)
    }
    #[cfg(windows)]
    {
        std::os::windows::fs::FileExt::seek_read(file, buf, off)
    }
}

fn pwrite_all(file: &File, mut buf: &[u8], mut off: u64) -> Result<()> {
    while !buf.is_empty() {
        #[cfg(unix)]
        let r = std::os::unix::fs::FileExt::write_at(file, buf, off);
        #[cfg(windows)]
        let r = std::os::windows::fs::FileExt::seek_write(file, buf, off);
        match r {
            Ok(0) => {
                return Err(Error::io(std::io::ErrorKind::WriteZero.into()).offset(off));
            }
            Ok(k) => {
                buf = &buf[k..];
                off += k as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(e).offset(off)),
        }
    }
    Ok(())
}

/// One `ncio_px` buffer: `bf_offset`, `bf_extent`, `bf_cnt`, `bf_rflags` and the bytes.
#[derive(Debug)]
pub(crate) struct Buf {
    blksz: usize,
    /// `bf_offset`; `None` is `OFF_NONE`.
    pub(crate) off: Option<u64>,
    /// `bf_extent`.
    pub(crate) ext: usize,
    /// `bf_cnt`: the bytes counted valid from the start of the buffer.
    pub(crate) cnt: usize,
    /// `RGN_WRITE` in `bf_rflags`.
    pub(crate) write: bool,
    /// `RGN_MODIFIED` in `bf_rflags`.
    pub(crate) modified: bool,
    bytes: Vec<u8>,
    map: Map,
    /// Pages in by reading (the double-buffering slave) rather than lazily.
    eager: bool,
}

impl Buf {
    /// The buffer of a file just created (`ncio_px_init2` with `isNew`: zeroed, at offset 0,
    /// both blocks, nothing valid).
    pub(crate) fn created(blksz: usize) -> Buf {
        Buf {
            blksz,
            off: Some(0),
            ext: 2 * blksz,
            cnt: 0,
            write: false,
            modified: false,
            bytes: vec![0; 2 * blksz],
            map: Map::new(2 * blksz, Kind::Zero),
            eager: false,
        }
    }

    /// The buffer of a file opened (nothing in it).
    pub(crate) fn opened(blksz: usize) -> Buf {
        Buf {
            blksz,
            off: None,
            ext: 0,
            cnt: 0,
            write: false,
            modified: false,
            bytes: vec![0; 2 * blksz],
            map: Map::new(2 * blksz, Kind::Junk),
            eager: false,
        }
    }

    /// `px_double_buffer`'s slave: a copy of this buffer's state and first `ext` bytes.
    pub(crate) fn slave_of(&mut self, disk: &mut Disk) -> Result<Buf> {
        let ext = self.ext;
        self.materialize(disk, 0, ext)?;
        let mut b = Buf {
            blksz: self.blksz,
            off: self.off,
            ext,
            cnt: self.cnt,
            write: false,
            modified: false,
            bytes: vec![0; 2 * self.blksz],
            map: Map::new(2 * self.blksz, Kind::Junk),
            eager: true,
        };
        b.bytes[..ext].copy_from_slice(&self.bytes[..ext]);
        b.map.set(0, ext, Kind::Real);
        Ok(b)
    }

    fn file_pos(&self, pos: usize) -> u64 {
        self.off.unwrap_or(0) + pos as u64
    }

    /// `px_pgin`: reads `extent` bytes at `offset` into `pos`; returns how many the file had.
    fn pgin(&mut self, disk: &mut Disk, offset: u64, pos: usize, extent: usize) -> Result<usize> {
        let n = disk.len.saturating_sub(offset).min(extent as u64) as usize;
        if self.eager {
            disk.read(offset, &mut self.bytes[pos..pos + n])?;
            self.bytes[pos + n..pos + extent].fill(0);
            self.map.set(pos, pos + extent, Kind::Real);
        } else {
            self.map.set(pos, pos + n, Kind::Disk);
            self.map.set(pos + n, pos + extent, Kind::Zero);
        }
        Ok(n)
    }

    /// `px_pgout`: writes buffer bytes `pos..pos + extent` at file `offset`.
    fn pgout(&mut self, disk: &mut Disk, offset: u64, pos: usize, extent: usize) -> Result<()> {
        disk.len = disk.len.max(offset + extent as u64);
        for s in self.map.ranges(pos, pos + extent) {
            let at = offset + (s.start - pos) as u64;
            let n = s.end - s.start;
            match s.kind {
                Kind::Real => disk.write(at, &self.bytes[s.start..s.end])?,
                Kind::Zero => disk.write_zeros(at, n)?,
                // The file already holds these bytes (or the gathered write does).
                Kind::Disk => {}
                Kind::Staged(o) => disk.write_staged(at, o, n)?,
                Kind::Junk => {
                    debug_assert!(false, "posixio emulation: unobservable bytes written");
                    disk.write_zeros(at, n)?;
                }
            }
        }
        Ok(())
    }

    /// Holds bytes `a..b` for real.
    pub(crate) fn materialize(&mut self, disk: &mut Disk, a: usize, b: usize) -> Result<()> {
        for s in self.map.ranges(a, b) {
            match s.kind {
                Kind::Real => continue,
                Kind::Zero => self.bytes[s.start..s.end].fill(0),
                Kind::Disk => {
                    let at = self.file_pos(s.start);
                    disk.read(at, &mut self.bytes[s.start..s.end])?;
                }
                Kind::Staged(o) => {
                    let n = s.end - s.start;
                    self.bytes[s.start..s.end].copy_from_slice(&disk.staging[o..o + n]);
                }
                Kind::Junk => {
                    // Only the slave copies these, and never uses them.
                    self.bytes[s.start..s.end].fill(0);
                }
            }
            self.map.set(s.start, s.end, Kind::Real);
        }
        Ok(())
    }

    /// Holds every staging range for real (before the staging area is reused).
    pub(crate) fn unstage(&mut self, disk: &mut Disk) -> Result<()> {
        let staged: Vec<Seg> = self
            .map
            .segs
            .iter()
            .filter(|s| matches!(s.kind, Kind::Staged(_)))
            .copied()
            .collect();
        for s in staged {
            self.materialize(disk, s.start, s.end)?;
        }
        Ok(())
    }

    /// `memcpy`/`memmove` of `n` buffer bytes from `src` to `dst`. `same_file_pos`: the buffer
    /// moves with the copy, so each byte keeps its file position (file-backed ranges stay lazy).
    fn copy(
        &mut self,
        disk: &mut Disk,
        src: usize,
        dst: usize,
        n: usize,
        same_file_pos: bool,
    ) -> Result<()> {
        if n == 0 || src == dst {
            return Ok(());
        }
        if !same_file_pos {
            let segs = self.map.ranges(src, src + n);
            for s in segs.iter().filter(|s| s.kind == Kind::Disk) {
                self.materialize(disk, s.start, s.end)?;
            }
        }
        let mut segs = self.map.ranges(src, src + n);
        if dst > src {
            segs.reverse();
        }
        for s in &segs {
            if s.kind == Kind::Real {
                self.bytes.copy_within(s.start..s.end, s.start - src + dst);
            }
        }
        for s in &segs {
            self.map.set(s.start - src + dst, s.end - src + dst, s.kind);
        }
        Ok(())
    }

    /// Bytes `a..b` keep their place while the buffer moves `blksz` up the file, so each now
    /// stands for the byte `blksz` further on: hold them for real, except within `hint`, which
    /// the caller is about to overwrite.
    fn stale(
        &mut self,
        disk: &mut Disk,
        a: usize,
        b: usize,
        hint: Option<(usize, usize)>,
    ) -> Result<()> {
        let (h0, h1) = hint.unwrap_or((0, 0));
        for (x, y) in [(a, b.min(h0)), (a.max(h1), b)] {
            if x < y {
                let disk_ranges: Vec<Seg> = self
                    .map
                    .ranges(x, y)
                    .into_iter()
                    .filter(|s| s.kind == Kind::Disk)
                    .collect();
                for s in disk_ranges {
                    self.materialize(disk, s.start, s.end)?;
                }
            }
        }
        if h0 < h1 {
            self.map.set(a.max(h0), b.min(h1), Kind::Junk);
        }
        Ok(())
    }

    /// `px_get`: makes file bytes `offset .. offset + extent` available; returns their position
    /// in the buffer. `write` is `RGN_WRITE`; `full` promises the caller writes every byte of the
    /// region before anything else reads the buffer (lets stale bytes stay unread).
    pub(crate) fn get(
        &mut self,
        disk: &mut Disk,
        offset: u64,
        extent: usize,
        write: bool,
        full: bool,
    ) -> Result<usize> {
        let blk = self.blksz;
        let blk64 = blk as u64;
        let blkoffset = offset / blk64 * blk64;
        let mut diff = (offset - blkoffset) as usize;
        let blkextent = (diff + extent).div_ceil(blk) * blk;
        if blkextent > 2 * blk {
            return Err(Error::with_detail(
                ErrorKind::Inval,
                "posixio: region larger than the buffer (E2BIG)",
            ));
        }
        let hint = full.then_some((diff, diff + extent));
        match self.off {
            None => self.fresh(disk, blkoffset, blkextent)?,
            Some(off) if blkoffset == off => {
                if blkextent > self.ext {
                    // Hit: page in the upper block.
                    let n = self.pgin(disk, off + blk64, blk, blk)?;
                    self.ext = 2 * blk;
                    self.cnt = n + blk;
                }
            }
            Some(off) if self.ext > blk && blkoffset == off + blk64 => {
                if blkextent == blk {
                    // All in the upper half.
                    diff += blk;
                } else {
                    if self.modified {
                        self.pgout(disk, off, 0, blk)?;
                    }
                    if self.cnt > blk {
                        self.cnt -= blk;
                        let c = self.cnt;
                        self.copy(disk, blk, 0, c, true)?;
                        self.stale(disk, c, blk, hint)?;
                    } else {
                        // netcdf-c's "added to fix nofill bug": nothing is copied down.
                        self.stale(disk, 0, blk, hint)?;
                    }
                    self.off = Some(blkoffset);
                    let n = self.pgin(disk, blkoffset + blk64, blk, blk)?;
                    self.ext = 2 * blk;
                    self.cnt = n + blk;
                }
            }
            Some(off) if off >= blk64 && blkoffset == off - blk64 => {
                let mut upper_cnt = 0;
                if self.cnt > blk {
                    if self.modified {
                        let c = self.cnt - blk;
                        self.pgout(disk, off + blk64, blk, c)?;
                    }
                    self.cnt = blk;
                    self.ext = blk;
                }
                if self.cnt > 0 {
                    self.copy(disk, 0, blk, blk, true)?;
                    upper_cnt = self.cnt;
                } else {
                    self.map.set(blk, 2 * blk, Kind::Junk);
                }
                self.cnt = self.pgin(disk, blkoffset, 0, blk)?;
                self.off = Some(blkoffset);
                if upper_cnt != 0 {
                    self.ext = 2 * blk;
                    self.cnt = blk + upper_cnt;
                } else {
                    self.ext = blk;
                }
            }
            Some(off) => {
                if self.modified {
                    let c = self.cnt;
                    self.pgout(disk, off, 0, c)?;
                    self.write = false;
                    self.modified = false;
                }
                self.fresh(disk, blkoffset, blkextent)?;
            }
        }
        self.cnt = self.cnt.max(diff + extent);
        self.write |= write;
        Ok(diff)
    }

    /// The `pgin:` label of `px_get`.
    fn fresh(&mut self, disk: &mut Disk, blkoffset: u64, blkextent: usize) -> Result<()> {
        self.cnt = self.pgin(disk, blkoffset, 0, blkextent)?;
        self.map.set(blkextent, 2 * self.blksz, Kind::Junk);
        self.off = Some(blkoffset);
        self.ext = blkextent;
        Ok(())
    }

    /// `px_rel`.
    pub(crate) fn rel(&mut self, modified: bool) {
        self.modified |= modified;
    }

    /// `ncio_px_sync`: writes the buffer back if modified, else forgets it if read-only.
    pub(crate) fn sync(&mut self, disk: &mut Disk) -> Result<()> {
        if self.modified {
            let (off, c) = (self.off.unwrap_or(0), self.cnt);
            self.pgout(disk, off, 0, c)?;
            self.write = false;
            self.modified = false;
        } else if !self.write {
            self.off = None;
            self.cnt = 0;
        }
        disk.flush()
    }

    /// Copies `data` into the buffer at `pos`.
    pub(crate) fn put(&mut self, disk: &mut Disk, pos: usize, data: &[u8]) -> Result<()> {
        self.bytes[pos..pos + data.len()].copy_from_slice(data);
        self.map.set(pos, pos + data.len(), Kind::Real);
        if self.map.segs.len() > MAX_SEGS {
            // Many small writes between unwritten bytes (a strided write): hold everything for
            // real so the map stays short.
            let junk: Vec<Seg> = self
                .map
                .segs
                .iter()
                .filter(|s| s.kind == Kind::Junk)
                .copied()
                .collect();
            let cap = 2 * self.blksz;
            let mut at = 0;
            for j in junk.iter().chain(std::iter::once(&Seg {
                start: cap,
                end: cap,
                kind: Kind::Junk,
            })) {
                self.materialize(disk, at, j.start)?;
                at = j.end;
            }
        }
        Ok(())
    }

    /// Stands staging bytes `src..src + n` at `pos`.
    pub(crate) fn put_staged(&mut self, pos: usize, n: usize, src: usize) {
        self.map.set(pos, pos + n, Kind::Staged(src));
    }

    /// Copies buffer bytes `pos..pos + out.len()` out. File-backed ranges touched are read
    /// whole (as netcdf-c's buffer holds them), so small reads that follow cost no more I/O.
    pub(crate) fn take(&mut self, disk: &mut Disk, pos: usize, out: &mut [u8]) -> Result<()> {
        let end = pos + out.len();
        let backed: Vec<Seg> = self
            .map
            .segs
            .iter()
            .filter(|s| s.kind == Kind::Disk && s.end > pos && s.start < end)
            .copied()
            .collect();
        for s in backed {
            self.materialize(disk, s.start, s.end)?;
        }
        for s in self.map.ranges(pos, end) {
            let dst = &mut out[s.start - pos..s.end - pos];
            match s.kind {
                Kind::Real => dst.copy_from_slice(&self.bytes[s.start..s.end]),
                Kind::Zero => dst.fill(0),
                Kind::Disk => disk.read(self.file_pos(s.start), dst)?,
                Kind::Staged(o) => dst.copy_from_slice(&disk.staging[o..o + dst.len()]),
                Kind::Junk => {
                    debug_assert!(false, "posixio emulation: unobservable bytes read");
                    dst.fill(0);
                }
            }
        }
        Ok(())
    }

    /// `memmove` within the buffer (`ncio_px_move`'s small case).
    pub(crate) fn memmove(
        &mut self,
        disk: &mut Disk,
        src: usize,
        dst: usize,
        n: usize,
    ) -> Result<()> {
        self.copy(disk, src, dst, n, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(m: &Map) -> Vec<(usize, usize, Kind)> {
        m.segs.iter().map(|s| (s.start, s.end, s.kind)).collect()
    }

    #[test]
    fn map_splits_and_merges() {
        let mut m = Map::new(100, Kind::Zero);
        m.set(10, 20, Kind::Staged(0));
        m.set(20, 30, Kind::Staged(10));
        assert_eq!(
            kinds(&m),
            vec![
                (0, 10, Kind::Zero),
                (10, 30, Kind::Staged(0)),
                (30, 100, Kind::Zero)
            ]
        );
        m.set(15, 40, Kind::Real);
        assert_eq!(
            kinds(&m),
            vec![
                (0, 10, Kind::Zero),
                (10, 15, Kind::Staged(0)),
                (15, 40, Kind::Real),
                (40, 100, Kind::Zero)
            ]
        );
        m.set(0, 12, Kind::Real);
        assert_eq!(
            kinds(&m),
            vec![
                (0, 12, Kind::Real),
                (12, 15, Kind::Staged(2)),
                (15, 40, Kind::Real),
                (40, 100, Kind::Zero)
            ]
        );
        let r = m.ranges(13, 20);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].start, r[0].end, r[0].kind), (13, 15, Kind::Staged(3)));
    }
}
