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
        let name = crate::format::name::name_from_bytes(c.bytes(name_len as usize)?);
        let target = match link_type {
            0 => LinkTarget::Hard(c.uint(sizes.offset_size)?),
            1 => {
                let n = usize::from(c.u16()?);
                LinkTarget::Soft(crate::format::name::name_from_bytes(c.bytes(n)?))
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

impl DenseStorageInfo {
    /// Encodes a link info message body (section IV.A.2.c): version 0, creation-order flags,
    /// the highest creation index (8 bytes) when tracked, then the dense storage addresses.
    pub fn encode_link_info(&self, e: &mut crate::format::encode::Encoder) {
        self.encode(e, 8);
    }

    /// Encodes an attribute info message body (section IV.A.2.v): as link info, with a 2-byte
    /// highest creation index.
    pub fn encode_attribute_info(&self, e: &mut crate::format::encode::Encoder) {
        self.encode(e, 2);
    }

    fn encode(&self, e: &mut crate::format::encode::Encoder, index_width: u8) {
        let flags = u8::from(self.tracks_order) | (u8::from(self.indexes_order) << 1);
        e.u8(0).u8(flags);
        if self.tracks_order {
            e.uint(self.max_creation_index.unwrap_or(0), index_width);
        }
        e.addr(self.fractal_heap).addr(self.name_index);
        if self.indexes_order {
            e.addr(self.order_index);
        }
    }
}

/// Encodes an empty group info message body (section IV.A.2.k): version 0, no flags, so the
/// library's default phase-change values and estimates apply.
pub fn encode_group_info(e: &mut crate::format::encode::Encoder) {
    e.u8(0).u8(0);
}

impl Link {
    /// Encodes a link message body (section IV.A.2.g), version 1: the creation order when
    /// tracked, the UTF-8 character set when the name is not ASCII, the narrowest name length.
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        let width = crate::format::encode::width_of(self.name.len() as u64);
        let size_bits = match width {
            1 => 0u8,
            2 => 1,
            3 | 4 => 2,
            _ => 3,
        };
        let link_type = match &self.target {
            LinkTarget::Hard(_) => 0u8,
            LinkTarget::Soft(_) => 1,
            LinkTarget::External(..) => 64,
            LinkTarget::Other(t) => *t,
        };
        let utf8 = !self.name.is_ascii();
        let mut flags = size_bits;
        if link_type != 0 {
            flags |= 0x08;
        }
        if self.creation_order.is_some() {
            flags |= 0x04;
        }
        if utf8 {
            flags |= 0x10;
        }
        e.u8(1).u8(flags);
        if link_type != 0 {
            e.u8(link_type);
        }
        if let Some(o) = self.creation_order {
            e.u64(o);
        }
        if utf8 {
            e.u8(1);
        }
        let name = crate::format::name::name_to_bytes(&self.name);
        e.uint(name.len() as u64, 1 << size_bits).bytes(&name);
        match &self.target {
            LinkTarget::Hard(a) => {
                e.addr(Some(*a));
            }
            LinkTarget::Soft(p) => {
                let p = crate::format::name::name_to_bytes(p);
                e.u16(p.len() as u16).bytes(&p);
            }
            LinkTarget::External(file, path) => {
                e.u16((file.len() + path.len() + 3) as u16)
                    .u8(0)
                    .bytes(file.as_bytes())
                    .u8(0)
                    .bytes(path.as_bytes())
                    .u8(0);
            }
            LinkTarget::Other(_) => {
                e.u16(0);
            }
        }
    }
}

#[cfg(test)]
mod encode_tests {
    use super::*;
    use crate::format::encode::Encoder;

    #[test]
    fn links_and_info_round_trip() {
        let s = SizeParams::new(8, 8, 0).unwrap();
        for link in [
            Link {
                name: "x".into(),
                creation_order: Some(1),
                target: LinkTarget::Hard(316),
            },
            Link {
                name: "ünïcode".into(),
                creation_order: None,
                target: LinkTarget::Soft("/a/b".into()),
            },
            Link {
                name: "e".repeat(300),
                creation_order: Some(7),
                target: LinkTarget::External("f.h5".into(), "/g".into()),
            },
        ] {
            let mut e = Encoder::new(s);
            link.encode(&mut e);
            let b = e.finish();
            assert_eq!(Link::parse(Cursor::new(&b, 0, "t"), s).unwrap(), link);
        }
        // The bytes libhdf5 writes for netcdf-c's first link (creation order tracked, "x").
        let mut e = Encoder::new(s);
        Link {
            name: "x".into(),
            creation_order: Some(1),
            target: LinkTarget::Hard(316),
        }
        .encode(&mut e);
        assert_eq!(
            &e.as_slice()[..12],
            &[1, 4, 1, 0, 0, 0, 0, 0, 0, 0, 1, b'x']
        );
        let info = DenseStorageInfo {
            tracks_order: true,
            indexes_order: true,
            max_creation_index: Some(7),
            fractal_heap: None,
            name_index: None,
            order_index: None,
        };
        let mut e = Encoder::new(s);
        info.encode_link_info(&mut e);
        let b = e.finish();
        assert_eq!(b.len(), 34);
        assert_eq!(
            DenseStorageInfo::parse_link_info(Cursor::new(&b, 0, "t"), s).unwrap(),
            info
        );
        let mut e = Encoder::new(s);
        info.encode_attribute_info(&mut e);
        let b = e.finish();
        assert_eq!(b.len(), 28);
        assert_eq!(
            DenseStorageInfo::parse_attribute_info(Cursor::new(&b, 0, "t"), s).unwrap(),
            info
        );
    }
}
