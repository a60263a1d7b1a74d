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

impl FilterPipeline {
    /// Encodes a version 2 filter pipeline message body (section IV.A.2.l): names only for
    /// filters outside the library's reserved range (id ≥ 256), as libhdf5 writes them.
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        e.u8(2).u8(self.filters.len() as u8);
        for f in &self.filters {
            e.u16(f.id);
            let name = f.name.as_deref().filter(|_| f.id >= 256);
            if f.id >= 256 {
                let n = name.map_or(0, |s| (s.len() + 1).div_ceil(8) * 8);
                e.u16(n as u16);
            }
            e.u16(f.flags).u16(f.client_data.len() as u16);
            if let Some(s) = name {
                let n = (s.len() + 1).div_ceil(8) * 8;
                e.bytes(s.as_bytes()).zeros(n - s.len());
            }
            for v in &f.client_data {
                e.u32(*v);
            }
        }
    }
}
