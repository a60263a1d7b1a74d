//! Shared message references (HDF5 File Format Specification v3.0, section IV.A.2 "Shared
//! Messages"): a message whose flags have the shared bit holds, instead of its body, where the
//! body is — another object header (a committed datatype) or the shared message heap.

use crate::error::{FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};

/// Where a shared message's body lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedRef {
    /// In the object header at this address (e.g. a committed datatype).
    ObjectHeader(u64),
    /// In the shared object header message heap, by fractal heap id.
    Heap([u8; 8]),
}

impl SharedRef {
    /// Decodes a shared message body (versions 1–3).
    pub fn parse(c: &mut Cursor<'_>, sizes: SizeParams) -> FormatResult<SharedRef> {
        let version = c.u8()?;
        let kind = c.u8()?;
        match version {
            1 => {
                // Six reserved bytes, then a symbol table entry of which HDF5 reads the object
                // header address: its first field (the link name offset, a length-sized field)
                // is skipped.
                c.skip(6)?;
                c.skip(usize::from(sizes.length_size))?;
                Ok(SharedRef::ObjectHeader(c.uint(sizes.offset_size)?))
            }
            2 => Ok(SharedRef::ObjectHeader(c.uint(sizes.offset_size)?)),
            3 if kind == 1 => Ok(SharedRef::Heap(c.array()?)),
            3 => Ok(SharedRef::ObjectHeader(c.uint(sizes.offset_size)?)),
            v => Err(c.error(FormatErrorKind::UnsupportedVersion(v))),
        }
    }
}

impl SharedRef {
    /// Encodes a version 3 shared message (section IV.A.2 "Shared Messages"): type 2 (in another
    /// object header) with its address, or type 1 (in the shared message heap) with the heap id.
    pub fn encode(&self, e: &mut crate::format::encode::Encoder) {
        match self {
            SharedRef::ObjectHeader(a) => {
                e.u8(3).u8(2).addr(Some(*a));
            }
            SharedRef::Heap(id) => {
                e.u8(3).u8(1).bytes(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_one_to_three() {
        let sizes = SizeParams::new(8, 8, 0).unwrap();
        let parse = |b: &[u8]| SharedRef::parse(&mut Cursor::new(b, 0, "t"), sizes);
        let addr = 0x1234u64.to_le_bytes();
        // Version 1: type byte ignored, 6 reserved bytes, a symbol table entry's name offset
        // (length-sized), then the address.
        let v1 = [&[1u8, 0, 0, 0, 0, 0, 0, 0][..], &7u64.to_le_bytes(), &addr].concat();
        assert_eq!(parse(&v1).unwrap(), SharedRef::ObjectHeader(0x1234));
        let v2 = [&[2u8, 0][..], &addr].concat();
        assert_eq!(parse(&v2).unwrap(), SharedRef::ObjectHeader(0x1234));
        // Version 3: type 1 is a shared-heap id, type 2 a committed message's header.
        let v3 = [3u8, 1, 9, 8, 7, 6, 5, 4, 3, 2];
        assert_eq!(
            parse(&v3).unwrap(),
            SharedRef::Heap([9, 8, 7, 6, 5, 4, 3, 2])
        );
        let v3c = [&[3u8, 2][..], &addr].concat();
        assert_eq!(parse(&v3c).unwrap(), SharedRef::ObjectHeader(0x1234));
        assert!(parse(&[4, 1]).is_err());
        assert!(parse(&v3[..6]).is_err());
    }
}
