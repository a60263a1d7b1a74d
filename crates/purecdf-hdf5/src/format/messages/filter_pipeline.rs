//! Filter pipeline message, type 0x000B (HDF5 File Format Specification v3.0, section
//! IV.A.2.l), versions 1 and 2.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::Cursor;

/// One filter of a pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterDesc {
    /// Filter id (1 deflate, 2 shuffle, 3 fletcher32, 4 szip, 5 nbit, 6 scale-offset, others registered).
    pub id: u16,
    /// Optional filter name.
    pub name: Option<String>,
    /// Flags (bit 0: optional filter).
    pub flags: u16,
    /// Client data (parameters).
    pub client_data: Vec<u32>,
}

impl FilterDesc {
    /// True when the filter may be skipped if it fails.
    pub fn optional(&self) -> bool {
        self.flags & 1 != 0
    }
}

/// Filters in the order they are applied when writing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilterPipeline {
    /// The filters.
    pub filters: Vec<FilterDesc>,
}

impl FilterPipeline {
    /// Decodes the message body.
    pub fn parse(mut c: Cursor<'_>) -> FormatResult<FilterPipeline> {
        let version = c.u8()?;
        let n = c.u8()?;
        if n > 32 {
            return Err(c.error(FormatErrorKind::InvalidValue(u64::from(n))));
        }
        match version {
            1 => c.skip(6)?,
            2 => {}
            v => return Err(c.error(FormatErrorKind::UnsupportedVersion(v))),
        }
        let mut filters = Vec::with_capacity(usize::from(n));
        for _ in 0..n {
            let id = c.u16()?;
            let name_len = if version == 1 || id >= 256 {
                usize::from(c.u16()?)
            } else {
                0
            };
            let flags = c.u16()?;
            let nvalues = usize::from(c.u16()?);
            let name = if name_len > 0 {
                let raw = c.bytes(name_len)?;
                let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
                // Version 1 names are padded to a multiple of 8 (the length includes the padding).
                Some(String::from_utf8_lossy(&raw[..end]).into_owned())
            } else {
                None
            };
            let mut client_data = Vec::with_capacity(nvalues.min(c.remaining() / 4));
            for _ in 0..nvalues {
                client_data.push(c.u32()?);
            }
            if version == 1 && nvalues % 2 == 1 {
                c.skip(4)?;
            }
            filters.push(FilterDesc {
                id,
                name,
                flags,
                client_data,
            });
        }
        Ok(FilterPipeline { filters })
    }
}
