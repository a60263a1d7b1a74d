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

/// Smallest collection libhdf5 reads (it first reads this many bytes, then the real size).
pub const MIN_COLLECTION_SIZE: usize = 4096;

/// Bytes a collection holding objects of these sizes needs (header and object headers
/// included, before the free-space object).
pub fn collection_used(sizes: impl Iterator<Item = usize>) -> usize {
    16 + sizes.map(|n| 16 + n.div_ceil(8) * 8).sum::<usize>()
}

/// Encodes a global heap collection (section III.E) holding `objects` as indexes 1, 2, ...,
/// each padded to 8 bytes, followed by the free-space object (index 0) that fills the
/// collection up to `min_size` (rounded up to a multiple of 8) or [`MIN_COLLECTION_SIZE`],
/// whichever is larger. Lengths are 8 bytes.
pub fn encode_collection(objects: &[Vec<u8>], min_size: usize) -> Vec<u8> {
    let sizes = SizeParams {
        offset_size: 8,
        length_size: 8,
    };
    let used = collection_used(objects.iter().map(Vec::len));
    let total = used.max(MIN_COLLECTION_SIZE).max(min_size.div_ceil(8) * 8);
    let mut e = crate::format::encode::Encoder::new(sizes);
    e.bytes(b"GCOL").u8(1).zeros(3).length(total as u64);
    for (i, o) in objects.iter().enumerate() {
        e.u16(i as u16 + 1)
            .u16(0)
            .u32(0)
            .length(o.len() as u64)
            .bytes(o)
            .pad_to(8);
    }
    let free = total - used;
    if free >= 16 {
        e.u16(0).u16(0).u32(0).length(free as u64).zeros(free - 16);
    } else {
        e.zeros(free);
    }
    e.finish()
}

/// Objects one collection may hold (indexes are 16-bit).
pub const MAX_OBJECTS: usize = 0xffff;

#[cfg(test)]
mod encode_tests {
    use super::*;

    #[test]
    fn collection_round_trips() {
        let objs = vec![b"abc".to_vec(), vec![], vec![7u8; 5000]];
        let b = encode_collection(&objs, 0);
        assert_eq!(b.len() % 8, 0);
        assert!(b.len() > 5000);
        let small = encode_collection(&[b"x".to_vec()], 100);
        assert_eq!(small.len(), MIN_COLLECTION_SIZE);
        let sizes = SizeParams::new(8, 8, 0).unwrap();
        let c = GlobalHeapCollection::read(&b, 0, sizes).unwrap();
        assert_eq!(c.object(1), Some(&b"abc"[..]));
        assert_eq!(c.object(2), Some(&[][..]));
        assert_eq!(c.object(3).map(|o| o.len()), Some(5000));
        let c = GlobalHeapCollection::read(&small, 0, sizes).unwrap();
        assert_eq!(c.object(1), Some(&b"x"[..]));
    }
}
