//! Metadata cache images (HDF5 1.10 and later, written when a file is closed with
//! `H5Pset_mdc_image_config` asking for one).
//!
//! The superblock extension (section II.B "Superblock Extension") then holds a message of type
//! 0x0018 (a version byte, then the address and length of the image block). The image block
//! holds serialized copies of metadata entries — object headers, continuation blocks, heaps,
//! B-tree nodes — as they would appear on disk, each with its file address. HDF5 loads the block
//! when it opens the file and serves those addresses from it; the file's own bytes there may
//! never have been written (entries flagged dirty), so a reader must do the same.
//!
//! The layout of the block (HDF5 1.10 "MDCI" version 0), all little-endian:
//!
//! | field | size |
//! |---|---|
//! | signature `MDCI` | 4 |
//! | version (0) | 1 |
//! | flags (bit 0: adaptive resize status follows — never written, refused) | 1 |
//! | image data length (the whole block, checksum included) | length size |
//! | number of entries (at least 1) | 4 |
//! | entries | … |
//! | lookup3 checksum of everything before it | 4 |
//!
//! Each entry: type id (1), flags (1: dirty, in LRU, flush-dependency parent, child), ring (1),
//! age (1), flush-dependency child count (2), dirty child count (2, at most the child count),
//! parent count (2), LRU rank (4), address (offset size, defined), length (length size,
//! non-zero), one address per parent, then `length` bytes of the entry's on-disk image.

use std::io;
use std::sync::Arc;

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::checksum::lookup3;
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::object_header::{read_block, MessageType};
use crate::io::{check_range, ByteSource};

/// The superblock extension message naming the cache image block.
pub const MESSAGE_TYPE: MessageType = MessageType(0x18);

/// Largest image block read into memory (HDF5 keeps the whole block in memory too).
const MAX_IMAGE_LEN: u64 = 1 << 30;

/// Where the image block is: the body of a [`MESSAGE_TYPE`] message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLocation {
    /// Address of the block.
    pub address: u64,
    /// Length of the block in bytes.
    pub length: u64,
}

impl ImageLocation {
    /// Decodes the message body (version 0, address, length).
    pub fn parse(data: &[u8], offset: u64, sizes: SizeParams) -> FormatResult<ImageLocation> {
        let mut c = Cursor::new(data, offset, "cache image message");
        let version = c.u8()?;
        if version != 0 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let at = c.offset();
        let address = c.addr(sizes)?.ok_or_else(|| {
            FormatError::new(
                FormatErrorKind::InvalidValue(u64::MAX),
                at,
                "cache image message",
            )
        })?;
        let length = c.length(sizes)?;
        Ok(ImageLocation { address, length })
    }
}

/// One entry of the image: the on-disk bytes of a metadata structure at `address`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageEntry {
    /// HDF5's metadata cache class id of the entry (object header, heap, B-tree node, …).
    pub type_id: u8,
    /// File address of the entry.
    pub address: u64,
    /// The entry's on-disk image.
    pub bytes: Vec<u8>,
}

/// A decoded cache image: its entries, sorted by address and not overlapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheImage {
    /// The entries.
    pub entries: Vec<ImageEntry>,
}

impl CacheImage {
    /// Reads and decodes the image block named by `loc`.
    ///
    /// # Errors
    /// A block past the end of the file or over 1 GiB, a bad signature, version, flag, length,
    /// count or checksum, an undefined address, an empty or overlapping entry.
    pub fn read(
        source: &dyn ByteSource,
        loc: ImageLocation,
        sizes: SizeParams,
    ) -> FormatResult<CacheImage> {
        if loc.length > MAX_IMAGE_LEN {
            return Err(FormatError::new(
                FormatErrorKind::LimitExceeded(loc.length),
                loc.address,
                "cache image",
            ));
        }
        let block = read_block(source, loc.address, loc.length, "cache image")?;
        Self::parse(&block, loc.address, sizes)
    }

    /// Decodes an image block held in memory, located at file address `address`.
    pub fn parse(block: &[u8], address: u64, sizes: SizeParams) -> FormatResult<CacheImage> {
        let mut c = Cursor::new(block, address, "cache image");
        c.signature(b"MDCI")?;
        let version = c.u8()?;
        if version != 0 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let flags = c.u8()?;
        if flags & 0x01 != 0 {
            return Err(c.error(FormatErrorKind::InvalidValue(u64::from(flags))));
        }
        let at = c.offset();
        let data_len = c.length(sizes)?;
        if data_len != block.len() as u64 || block.len() < 4 {
            return Err(FormatError::new(
                FormatErrorKind::InvalidValue(data_len),
                at,
                "cache image",
            ));
        }
        let count = c.u32()?;
        if count == 0 {
            return Err(c.error(FormatErrorKind::InvalidValue(0)));
        }
        let mut body = Cursor::new(&block[..block.len() - 4], address, "cache image");
        body.skip(c.position())?;
        // Every entry takes at least 14 bytes plus an address and a length.
        let min_entry = 14 + usize::from(sizes.offset_size) + usize::from(sizes.length_size);
        if count as usize > body.remaining() / min_entry {
            return Err(c.error(FormatErrorKind::InvalidValue(u64::from(count))));
        }
        let mut entries = Vec::with_capacity(count as usize);
        for _ in 0..count {
            entries.push(parse_entry(&mut body, sizes)?);
        }
        if body.remaining() != 0 {
            return Err(body.error(FormatErrorKind::InvalidValue(body.remaining() as u64)));
        }
        let (data, tail) = block.split_at(block.len() - 4);
        let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        let actual = lookup3(data);
        if stored != actual {
            return Err(FormatError::new(
                FormatErrorKind::ChecksumMismatch {
                    expected: stored,
                    actual,
                },
                address + data.len() as u64,
                "cache image",
            ));
        }
        entries.sort_by_key(|e| e.address);
        for w in entries.windows(2) {
            if w[0].address + w[0].bytes.len() as u64 > w[1].address {
                return Err(FormatError::new(
                    FormatErrorKind::InvalidValue(w[1].address),
                    address,
                    "cache image entry",
                ));
            }
        }
        Ok(CacheImage { entries })
    }
}

fn parse_entry(c: &mut Cursor<'_>, sizes: SizeParams) -> FormatResult<ImageEntry> {
    let start = c.offset();
    let bad = |v| FormatError::new(FormatErrorKind::InvalidValue(v), start, "cache image entry");
    let type_id = c.u8()?;
    let _flags = c.u8()?;
    let _ring = c.u8()?;
    let _age = c.u8()?;
    let children = c.u16()?;
    let dirty_children = c.u16()?;
    if dirty_children > children {
        return Err(bad(u64::from(dirty_children)));
    }
    let parents = c.u16()?;
    let _lru_rank = c.u32()?;
    let address = c.addr(sizes)?.ok_or_else(|| bad(u64::MAX))?;
    let len = c.length_within(sizes)?;
    if len == 0 {
        return Err(bad(0));
    }
    address
        .checked_add(len as u64)
        .ok_or_else(|| bad(address))?;
    for _ in 0..parents {
        c.addr(sizes)?.ok_or_else(|| bad(u64::MAX))?;
    }
    let bytes = c.bytes(len)?.to_vec();
    Ok(ImageEntry {
        type_id,
        address,
        bytes,
    })
}

/// A byte source whose bytes at the image entries' addresses come from the image, as HDF5 serves
/// them once it has loaded the image; everything else comes from `inner`.
pub struct ImageOverlay {
    inner: Arc<dyn ByteSource>,
    image: CacheImage,
}

impl ImageOverlay {
    /// Lays `image` over `inner`.
    pub fn new(inner: Arc<dyn ByteSource>, image: CacheImage) -> ImageOverlay {
        ImageOverlay { inner, image }
    }
}

impl ByteSource for ImageOverlay {
    fn len(&self) -> u64 {
        self.inner.len()
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        check_range(offset, buf.len() as u64, self.len())?;
        self.inner.read_at(offset, buf)?;
        let end = offset + buf.len() as u64;
        let entries = &self.image.entries;
        // Entries are sorted and disjoint, so their ends are sorted too.
        let first = entries.partition_point(|e| e.address + e.bytes.len() as u64 <= offset);
        for e in entries[first..].iter().take_while(|e| e.address < end) {
            let lo = e.address.max(offset);
            let hi = (e.address + e.bytes.len() as u64).min(end);
            buf[(lo - offset) as usize..(hi - offset) as usize]
                .copy_from_slice(&e.bytes[(lo - e.address) as usize..(hi - e.address) as usize]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZES: SizeParams = SizeParams {
        offset_size: 8,
        length_size: 8,
    };

    fn block(entries: &[(u64, &[u8])], flags: u8) -> Vec<u8> {
        let mut b = b"MDCI".to_vec();
        b.extend([0, flags]);
        b.extend(0u64.to_le_bytes());
        b.extend((entries.len() as u32).to_le_bytes());
        for (addr, bytes) in entries {
            b.extend([5, 1, 1, 0, 0, 0, 0, 0, 0, 0]);
            b.extend((-1i32).to_le_bytes());
            b.extend(addr.to_le_bytes());
            b.extend((bytes.len() as u64).to_le_bytes());
            b.extend_from_slice(bytes);
        }
        let n = b.len() as u64 + 4;
        b[6..14].copy_from_slice(&n.to_le_bytes());
        let sum = lookup3(&b);
        b.extend(sum.to_le_bytes());
        b
    }

    #[test]
    fn overlays_entries_on_the_file() {
        let img = CacheImage::parse(&block(&[(6, b"xyz"), (1, b"ab")], 0), 100, SIZES).unwrap();
        assert_eq!(img.entries[0].address, 1);
        let file: Vec<u8> = vec![b'.'; 10];
        let o = ImageOverlay::new(Arc::new(file), img);
        let mut buf = [0u8; 10];
        o.read_at(0, &mut buf).unwrap();
        assert_eq!(&buf, b".ab...xyz.");
        let mut buf = [0u8; 3];
        o.read_at(2, &mut buf).unwrap();
        assert_eq!(&buf, b"b..");
        assert!(o.read_at(8, &mut buf).is_err());
    }

    #[test]
    fn refuses_malformed_blocks() {
        let good = block(&[(1, b"ab")], 0);
        assert!(CacheImage::parse(&good, 0, SIZES).is_ok());
        assert!(CacheImage::parse(&block(&[(1, b"ab")], 1), 0, SIZES).is_err());
        assert!(CacheImage::parse(&block(&[], 0), 0, SIZES).is_err());
        assert!(CacheImage::parse(&block(&[(1, b"ab"), (2, b"c")], 0), 0, SIZES).is_err());
        assert!(CacheImage::parse(&block(&[(1, b"")], 0), 0, SIZES).is_err());
        let mut bad = good.clone();
        bad[30] ^= 1;
        assert!(CacheImage::parse(&bad, 0, SIZES).is_err());
        for n in 0..good.len() {
            assert!(CacheImage::parse(&good[..n], 0, SIZES).is_err());
        }
    }
}
