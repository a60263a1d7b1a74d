//! External data files message, type 0x0007 (HDF5 File Format Specification v3.0, section
//! IV.A.2.h): a contiguous dataset's raw data kept in other files, as a list of segments (file
//! name in a local heap, offset in that file, size), concatenated in order.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::local_heap::LocalHeap;
use crate::io::ByteSource;

/// One segment of the dataset's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalSegment {
    /// File name, as stored (resolved by the reader).
    pub name: String,
    /// Where the segment starts in that file.
    pub offset: u64,
    /// Bytes in the segment (the last may be "unlimited", all ones).
    pub size: u64,
}

/// The decoded message: segments in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalFiles {
    /// The segments.
    pub segments: Vec<ExternalSegment>,
}

impl ExternalFiles {
    /// Decodes the message body (version 1), reading the names from its local heap.
    pub fn parse(
        mut c: Cursor<'_>,
        source: &dyn ByteSource,
        sizes: SizeParams,
    ) -> FormatResult<ExternalFiles> {
        let version = c.u8()?;
        if version != 1 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        c.skip(3)?;
        let allocated = c.u16()?;
        let used = c.u16()?;
        if used > allocated {
            return Err(c.error(FormatErrorKind::InvalidValue(u64::from(used))));
        }
        let at = c.offset();
        let heap = c
            .addr(sizes)?
            .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(at)))?;
        let heap = LocalHeap::read(source, heap, sizes)?;
        let mut segments = Vec::with_capacity(usize::from(used).min(c.remaining()));
        for _ in 0..used {
            let name_off = c.length(sizes)?;
            let offset = c.length(sizes)?;
            let size = c.length(sizes)?;
            let name = String::from_utf8_lossy(heap.string_at(name_off)?).into_owned();
            segments.push(ExternalSegment { name, offset, size });
        }
        Ok(ExternalFiles { segments })
    }
}
