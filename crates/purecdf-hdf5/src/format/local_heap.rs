//! Local heap (HDF5 File Format Specification v3.0, section III.D "Disk Format: Level 1D — Local
//! Heaps"): the name store of an old-style group.

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::object_header::read_block;
use crate::io::ByteSource;

/// A loaded local heap data segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalHeap {
    /// Address of the heap header.
    pub address: u64,
    /// The data segment.
    pub data: Vec<u8>,
}

impl LocalHeap {
    /// Reads the heap header at `address` and its data segment.
    pub fn read(
        source: &dyn ByteSource,
        address: u64,
        sizes: SizeParams,
    ) -> FormatResult<LocalHeap> {
        let hlen = 8 + 2 * u64::from(sizes.length_size) + u64::from(sizes.offset_size);
        let head = read_block(source, address, hlen, "local heap")?;
        let mut c = Cursor::new(&head, address, "local heap");
        c.signature(b"HEAP")?;
        let version = c.u8()?;
        if version != 0 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        c.skip(3)?;
        let size = c.length(sizes)?;
        let _free = c.length(sizes)?;
        let at = c.offset();
        let data_addr = c.addr(sizes)?.ok_or_else(|| {
            FormatError::new(FormatErrorKind::InvalidValue(u64::MAX), at, "local heap")
        })?;
        let data = read_block(source, data_addr, size, "local heap data")?;
        Ok(LocalHeap { address, data })
    }

    /// The NUL-terminated string at `offset` in the data segment.
    pub fn string_at(&self, offset: u64) -> FormatResult<&[u8]> {
        let err = || {
            FormatError::new(
                FormatErrorKind::InvalidValue(offset),
                self.address,
                "local heap",
            )
        };
        let start = usize::try_from(offset).map_err(|_| err())?;
        let rest = self.data.get(start..).ok_or_else(err)?;
        let end = rest.iter().position(|&b| b == 0).ok_or_else(err)?;
        Ok(&rest[..end])
    }
}
