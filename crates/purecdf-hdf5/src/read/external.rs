//! Raw data in external files (HDF5 File Format Specification v3.0, section IV.A.2.h): the
//! segments of an external data files message seen as one byte source. Names are resolved as
//! HDF5 1.10 resolves them: absolute names as they are, relative ones against
//! `$HDF5_EXTFILE_PREFIX` when set, else the current directory. Reading past a file's end gives
//! zeros, as HDF5 does; a missing file, or one that is not a regular file, is an error when the
//! data is read.

use std::path::PathBuf;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::messages::external::ExternalFiles;
use crate::io::{read_exact_at, ByteSource};

/// The concatenated segments, files opened.
pub(crate) struct ExternalSource {
    segments: Vec<(std::fs::File, u64, u64)>,
    len: u64,
}

fn resolve(name: &str) -> PathBuf {
    let p = PathBuf::from(name);
    match std::env::var("HDF5_EXTFILE_PREFIX") {
        Ok(prefix) if !prefix.is_empty() && p.is_relative() => PathBuf::from(prefix).join(p),
        _ => p,
    }
}

impl ExternalSource {
    /// Opens every segment's file; `at` names the dataset in errors.
    pub(crate) fn open(files: &ExternalFiles, at: u64) -> FormatResult<ExternalSource> {
        let mut segments = Vec::with_capacity(files.segments.len());
        let mut len = 0u64;
        let missing =
            || FormatError::new(FormatErrorKind::InvalidValue(0), at, "external data file");
        for s in &files.segments {
            let path = resolve(&s.name);
            // Regular files only: opening a FIFO or a device named by a hostile file could block.
            if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                return Err(missing());
            }
            let f = std::fs::File::open(path).map_err(|_| missing())?;
            len = len.saturating_add(s.size);
            segments.push((f, s.offset, s.size));
        }
        Ok(ExternalSource { segments, len })
    }
}

impl ByteSource for ExternalSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let mut pos = offset;
        let mut done = 0usize;
        let mut seg_start = 0u64;
        for (file, file_off, size) in &self.segments {
            if done == buf.len() {
                break;
            }
            let seg_end = seg_start.saturating_add(*size);
            if pos < seg_end {
                let within = pos - seg_start;
                let n = ((seg_end - pos).min((buf.len() - done) as u64)) as usize;
                let part = &mut buf[done..done + n];
                let at = file_off.saturating_add(within);
                let file_len = file.metadata()?.len();
                // Bytes past the file's end read as zeros.
                let avail = file_len.saturating_sub(at).min(n as u64) as usize;
                read_exact_at(file, at, &mut part[..avail])?;
                part[avail..].fill(0);
                done += n;
                pos += n as u64;
            }
            seg_start = seg_end;
        }
        if done < buf.len() {
            return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof));
        }
        Ok(())
    }
}
