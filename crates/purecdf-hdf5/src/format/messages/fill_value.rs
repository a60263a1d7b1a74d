//! Fill value messages: the old one, type 0x0004 (section IV.A.2.e), and the current one, type
//! 0x0005, versions 1–3 (section IV.A.2.f) of the HDF5 File Format Specification v3.0.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::Cursor;

/// When fill values are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillTime {
    /// On allocation.
    OnAlloc,
    /// Never.
    Never,
    /// Only if a fill value was set by the user.
    IfSet,
}

/// A fill value property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FillValue {
    /// Space allocation time (1 early, 2 late, 3 incremental).
    pub alloc_time: u8,
    /// Fill value write time.
    pub fill_time: FillTime,
    /// The user-defined fill value bytes; `None` when the fill value is undefined or the library
    /// default (a "defined" flag with size 0 means the default, as HDF5 reads it).
    pub value: Option<Vec<u8>>,
}

impl FillValue {
    /// Decodes the current (type 0x0005) message.
    pub fn parse(mut c: Cursor<'_>) -> FormatResult<FillValue> {
        let version = c.u8()?;
        match version {
            1 | 2 => {
                let alloc_time = c.u8()?;
                let fill_time = fill_time(c.u8()?);
                let defined = c.u8()? != 0;
                let value = if version == 1 || defined {
                    if c.remaining() >= 4 {
                        let n = c.u32()? as usize;
                        let v = c.bytes(n)?.to_vec();
                        (defined && !v.is_empty()).then_some(v)
                    } else {
                        None
                    }
                } else {
                    None
                };
                Ok(FillValue {
                    alloc_time,
                    fill_time,
                    value,
                })
            }
            3 => {
                let flags = c.u8()?;
                let alloc_time = flags & 0x03;
                let fill_time = fill_time((flags >> 2) & 0x03);
                let value = if flags & 0x20 != 0 {
                    let n = c.u32()? as usize;
                    Some(c.bytes(n)?.to_vec()).filter(|v| !v.is_empty())
                } else {
                    None
                };
                Ok(FillValue {
                    alloc_time,
                    fill_time,
                    value,
                })
            }
            v => Err(c.error(FormatErrorKind::UnsupportedVersion(v))),
        }
    }

    /// Decodes the old (type 0x0004) message: a size and the value.
    pub fn parse_old(mut c: Cursor<'_>) -> FormatResult<FillValue> {
        let n = c.u32()? as usize;
        let v = c.bytes(n)?.to_vec();
        Ok(FillValue {
            alloc_time: 2,
            fill_time: FillTime::IfSet,
            value: Some(v),
        })
    }
}

fn fill_time(v: u8) -> FillTime {
    match v {
        0 => FillTime::OnAlloc,
        1 => FillTime::Never,
        _ => FillTime::IfSet,
    }
}

impl FillValue {
    /// Encodes a version 3 fill value message body (section IV.A.2.f): allocation and fill times
    /// in the flags, then the value when one is defined.
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        let fill_time = match self.fill_time {
            FillTime::OnAlloc => 0u8,
            FillTime::Never => 1,
            FillTime::IfSet => 2,
        };
        let mut flags = (self.alloc_time & 0x03) | (fill_time << 2);
        if self.value.is_some() {
            flags |= 0x20;
        }
        e.u8(3).u8(flags);
        if let Some(v) = &self.value {
            e.u32(v.len() as u32).bytes(v);
        }
    }
}
