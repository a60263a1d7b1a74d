//! Global heap collections (HDF5 File Format Specification v3.0, section III.E "Disk Format:
//! Level 1E — Global Heap"): where variable-length data and vlen strings live.

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::object_header::read_block;
use crate::io::ByteSource;

/// A reference to a global heap object: collection address and object index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GlobalHeapId {
    /// Address of the collection.
    pub collection: u64,
    /// Index of the object within it.
    pub index: u32,
}

impl GlobalHeapId {
    /// Decodes an id (collection address, 4-byte index).
    pub fn parse(c: &mut Cursor<'_>, sizes: SizeParams) -> FormatResult<GlobalHeapId> {
        Ok(GlobalHeapId {
            collection: c.uint(sizes.offset_size)?,
            index: c.u32()?,
        })
    }
}

/// A loaded collection: its objects by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalHeapCollection {
    /// Address of the collection.
    pub address: u64,
    objects: Vec<(u16, Vec<u8>)>,
}

impl GlobalHeapCollection {
    /// Reads the collection at `address`.
    pub fn read(
        source: &dyn ByteSource,
        address: u64,
        sizes: SizeParams,
    ) -> FormatResult<GlobalHeapCollection> {
        let head = read_block(
            source,
            address,
            8 + u64::from(sizes.length_size),
            "global heap",
        )?;
        let mut c = Cursor::new(&head, address, "global heap");
        c.signature(b"GCOL")?;
        let version = c.u8()?;
        if version != 1 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        c.skip(3)?;
        let size = c.length(sizes)?;
        let block = read_block(source, address, size, "global heap")?;
        let mut c = Cursor::new(&block, address, "global heap");
        c.skip(head.len())?;
        let mut objects = Vec::new();
        // Each object: index (2), reference count (2), reserved (4), size (L), data padded to 8.
        let obj_head = 8 + usize::from(sizes.length_size);
        while c.remaining() >= obj_head {
            let index = c.u16()?;
            let _refs = c.u16()?;
            c.skip(4)?;
            let at = c.offset();
            let n = c.length(sizes)?;
            if index == 0 {
                break; // free space
            }
            let padded = n
                .div_ceil(8)
                .checked_mul(8)
                .filter(|p| *p <= c.remaining() as u64);
            let Some(padded) = padded else {
                return Err(FormatError::new(
                    FormatErrorKind::UnexpectedEof {
                        wanted: n,
                        available: c.remaining() as u64,
                    },
                    at,
                    "global heap object",
                ));
            };
            let data = c.bytes(padded as usize)?[..n as usize].to_vec();
            objects.push((index, data));
        }
        Ok(GlobalHeapCollection { address, objects })
    }

    /// The object with this index.
    pub fn object(&self, index: u32) -> Option<&[u8]> {
        self.objects
            .iter()
            .find(|(i, _)| u32::from(*i) == index)
            .map(|(_, d)| d.as_slice())
    }
}
