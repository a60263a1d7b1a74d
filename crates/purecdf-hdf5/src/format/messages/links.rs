//! Group structure messages (HDF5 File Format Specification v3.0, section IV.A.2): link info
//! (0x0002, IV.A.2.c), link (0x0006, IV.A.2.g), group info (0x000A, IV.A.2.k), attribute info
//! (0x0015, IV.A.2.v) and symbol table (0x0011, IV.A.2.r).

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};

/// Where a new-style group keeps its links (or an object its attributes) once stored densely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DenseStorageInfo {
    /// True when creation order is tracked.
    pub tracks_order: bool,
    /// True when creation order is indexed.
    pub indexes_order: bool,
    /// Highest creation index assigned so far.
    pub max_creation_index: Option<u64>,
    /// Fractal heap holding the links/attributes (`None`: compact storage).
    pub fractal_heap: Option<u64>,
    /// v2 B-tree indexing names.
    pub name_index: Option<u64>,
    /// v2 B-tree indexing creation order.
    pub order_index: Option<u64>,
}

impl DenseStorageInfo {
    /// Decodes a link info message.
    pub fn parse_link_info(mut c: Cursor<'_>, sizes: SizeParams) -> FormatResult<DenseStorageInfo> {
        Self::parse(&mut c, sizes, 8)
    }

    /// Decodes an attribute info message.
    pub fn parse_attribute_info(
        mut c: Cursor<'_>,
        sizes: SizeParams,
    ) -> FormatResult<DenseStorageInfo> {
        Self::parse(&mut c, sizes, 2)
    }

    fn parse(
        c: &mut Cursor<'_>,
        sizes: SizeParams,
        index_width: u8,
    ) -> FormatResult<DenseStorageInfo> {
        let version = c.u8()?;
        if version != 0 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let flags = c.u8()?;
        let max_creation_index = if flags & 1 != 0 {
            Some(c.uint(index_width)?)
        } else {
            None
        };
        let fractal_heap = c.addr(sizes)?;
        let name_index = c.addr(sizes)?;
        let order_index = if flags & 2 != 0 { c.addr(sizes)? } else { None };
        Ok(DenseStorageInfo {
            tracks_order: flags & 1 != 0,
            indexes_order: flags & 2 != 0,
            max_creation_index,
            fractal_heap,
            name_index,
            order_index,
        })
    }
}

/// What a link points to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// A hard link: an object header address.
    Hard(u64),
    /// A soft link: a path.
    Soft(String),
    /// An external link: file name and object path.
    External(String, String),
    /// A user-defined link type.
    Other(u8),
}

/// A link message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Link name (UTF-8 or ASCII).
    pub name: String,
    /// Creation order, when tracked.
    pub creation_order: Option<u64>,
    /// Target.
    pub target: LinkTarget,
}

impl Link {
    /// Decodes a link message body.
    pub fn parse(mut c: Cursor<'_>, sizes: SizeParams) -> FormatResult<Link> {
        let version = c.u8()?;
        if version != 1 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let flags = c.u8()?;
        let link_type = if flags & 0x08 != 0 { c.u8()? } else { 0 };
        let creation_order = if flags & 0x04 != 0 {
            Some(c.u64()?)
        } else {
            None
        };
        if flags & 0x10 != 0 {
            let _charset = c.u8()?;
        }
        let name_len = c.uint(1 << (flags & 0x03))?;
        if name_len == 0 || name_len > c.remaining() as u64 {
            return Err(c.error(FormatErrorKind::InvalidValue(name_len)));
        }
        let name = String::from_utf8_lossy(c.bytes(name_len as usize)?).into_owned();
        let target = match link_type {
            0 => LinkTarget::Hard(c.uint(sizes.offset_size)?),
            1 => {
                let n = usize::from(c.u16()?);
                LinkTarget::Soft(String::from_utf8_lossy(c.bytes(n)?).into_owned())
            }
            64 => {
                let n = usize::from(c.u16()?);
                let raw = c.bytes(n)?;
                let body = raw.get(1..).unwrap_or_default();
                let mut parts = body.split(|&b| b == 0);
                let file = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
                let path = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
                LinkTarget::External(file, path)
            }
            t => LinkTarget::Other(t),
        };
        Ok(Link {
            name,
            creation_order,
            target,
        })
    }
}

/// The symbol table message of an old-style group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SymbolTable {
    /// Address of the group's v1 B-tree.
    pub btree: u64,
    /// Address of the group's local heap.
    pub heap: u64,
}

impl SymbolTable {
    /// Decodes the message body.
    pub fn parse(mut c: Cursor<'_>, sizes: SizeParams) -> FormatResult<SymbolTable> {
        Ok(SymbolTable {
            btree: c.uint(sizes.offset_size)?,
            heap: c.uint(sizes.offset_size)?,
        })
    }
}
