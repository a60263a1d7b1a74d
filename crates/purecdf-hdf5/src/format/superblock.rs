//! The superblock (HDF5 File Format Specification v3.0, section II.A "Disk Format: Level 0A —
//! Format Signature and Superblock"), versions 0, 1, 2 and 3, found at offset 0 or at a user-block
//! offset of 512 · 2ⁿ bytes.

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::io::ByteSource;

/// The 8-byte format signature.
pub const SIGNATURE: [u8; 8] = [0x89, b'H', b'D', b'F', b'\r', b'\n', 0x1a, b'\n'];

/// A v0/v1 root group symbol table entry's cached B-tree and heap addresses (cache type 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SymbolTableCache {
    /// Address of the group's v1 B-tree.
    pub btree: u64,
    /// Address of the group's local heap.
    pub heap: u64,
}

/// A parsed superblock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Superblock {
    /// Where the signature was found (the user block size).
    pub location: u64,
    /// Superblock version (0 to 3).
    pub version: u8,
    /// Offset and length widths.
    pub sizes: SizeParams,
    /// Base address: file addresses are relative to it.
    pub base_address: u64,
    /// End-of-file address (relative to the base).
    pub eof_address: u64,
    /// Address of the root group's object header.
    pub root_object_header: u64,
    /// The root symbol table entry's cached B-tree/heap (v0/v1 with cache type 1).
    pub root_cache: Option<SymbolTableCache>,
    /// Superblock extension object header (v2/v3).
    pub extension: Option<u64>,
    /// Group leaf node K (v0/v1).
    pub group_leaf_k: u16,
    /// Group internal node K (v0/v1).
    pub group_internal_k: u16,
    /// Indexed storage internal node K (v1; 32 by default otherwise).
    pub indexed_storage_k: u16,
    /// File consistency flags.
    pub consistency_flags: u32,
}

/// Largest superblock encoding: v1 with 8-byte widths.
const MAX_SUPERBLOCK_LEN: u64 = 8 + 16 + 4 + 4 * 8 + (2 * 8 + 8 + 16);

impl Superblock {
    /// Finds and parses the superblock of `source`.
    ///
    /// # Errors
    /// `NoSuperblock` when no signature is found at 0, 512, 1024, ...; otherwise the first problem in it.
    pub fn read(source: &dyn ByteSource) -> FormatResult<Superblock> {
        let len = source.len();
        let mut at = 0u64;
        while at + 8 <= len {
            let mut sig = [0u8; 8];
            source
                .read_at(at, &mut sig)
                .map_err(|_| FormatError::new(FormatErrorKind::NoSuperblock, at, "superblock"))?;
            if sig == SIGNATURE {
                let n = MAX_SUPERBLOCK_LEN.min(len - at);
                let mut buf = vec![0u8; n as usize];
                source.read_at(at, &mut buf).map_err(|_| {
                    FormatError::new(FormatErrorKind::NoSuperblock, at, "superblock")
                })?;
                return Superblock::parse(&buf, at);
            }
            at = if at == 0 { 512 } else { at * 2 };
        }
        Err(FormatError::new(
            FormatErrorKind::NoSuperblock,
            0,
            "superblock",
        ))
    }

    /// Parses a superblock from bytes starting at its signature, located at file offset `location`.
    pub fn parse(bytes: &[u8], location: u64) -> FormatResult<Superblock> {
        let mut c = Cursor::new(bytes, location, "superblock");
        let sig: [u8; 8] = c.array()?;
        if sig != SIGNATURE {
            return Err(FormatError::new(
                FormatErrorKind::NoSuperblock,
                location,
                "superblock",
            ));
        }
        let version = c.u8()?;
        match version {
            0 | 1 => Self::parse_v0_v1(c, version, location),
            2 | 3 => Self::parse_v2_v3(c, version, location),
            v => Err(c.error(FormatErrorKind::UnsupportedVersion(v))),
        }
    }

    fn parse_v0_v1(mut c: Cursor<'_>, version: u8, location: u64) -> FormatResult<Superblock> {
        // Free-space, root symbol table entry and shared header message format versions, each 0.
        let _free_space_version = c.u8()?;
        let _root_entry_version = c.u8()?;
        c.skip(1)?;
        let _shared_header_version = c.u8()?;
        let at = c.offset();
        let sizes = SizeParams::new(c.u8()?, c.u8()?, at)?;
        c.skip(1)?;
        let group_leaf_k = c.u16()?;
        let group_internal_k = c.u16()?;
        let consistency_flags = c.u32()?;
        let mut indexed_storage_k = 32;
        if version == 1 {
            indexed_storage_k = c.u16()?;
            c.skip(2)?;
        }
        let base_address = c.uint(sizes.offset_size)?;
        let _free_space = c.addr(sizes)?;
        let eof_address = c.uint(sizes.offset_size)?;
        let _driver_info = c.addr(sizes)?;
        // Root group symbol table entry.
        let _link_name_offset = c.uint(sizes.offset_size)?;
        let root_object_header = root_address(&mut c, sizes)?;
        let cache_type = c.u32()?;
        c.skip(4)?;
        let mut scratch = c.split(16)?;
        let root_cache = if cache_type == 1 {
            Some(SymbolTableCache {
                btree: scratch.uint(sizes.offset_size)?,
                heap: scratch.uint(sizes.offset_size)?,
            })
        } else {
            None
        };
        Ok(Superblock {
            location,
            version,
            sizes,
            base_address,
            eof_address,
            root_object_header,
            root_cache,
            extension: None,
            group_leaf_k,
            group_internal_k,
            indexed_storage_k,
            consistency_flags,
        })
    }

    fn parse_v2_v3(mut c: Cursor<'_>, version: u8, location: u64) -> FormatResult<Superblock> {
        let at = c.offset();
        let sizes = SizeParams::new(c.u8()?, c.u8()?, at)?;
        let consistency_flags = u32::from(c.u8()?);
        let base_address = c.uint(sizes.offset_size)?;
        let extension = c.addr(sizes)?;
        let eof_address = c.uint(sizes.offset_size)?;
        let root_object_header = root_address(&mut c, sizes)?;
        c.verify_checksum()?;
        Ok(Superblock {
            location,
            version,
            sizes,
            base_address,
            eof_address,
            root_object_header,
            root_cache: None,
            extension,
            group_leaf_k: 4,
            group_internal_k: 16,
            indexed_storage_k: 32,
            consistency_flags,
        })
    }
}

/// The root group's object header address; the undefined address is an error.
fn root_address(c: &mut Cursor<'_>, sizes: SizeParams) -> FormatResult<u64> {
    let at = c.offset();
    c.addr(sizes)?
        .ok_or_else(|| FormatError::new(FormatErrorKind::InvalidValue(u64::MAX), at, "superblock"))
}

/// Encodes a version 2 superblock (section II.A, "Superblock version 2"): 8-byte addresses and
/// lengths, no superblock extension unless given, and the checksum. `base_address` is the
/// absolute offset of the superblock (the user block size); the other addresses are relative.
pub fn encode_v2(
    base_address: u64,
    extension: Option<u64>,
    eof_address: u64,
    root_object_header: u64,
) -> Vec<u8> {
    let sizes = SizeParams {
        offset_size: 8,
        length_size: 8,
    };
    let mut e = crate::format::encode::Encoder::new(sizes);
    e.bytes(&SIGNATURE)
        .u8(2)
        .u8(8)
        .u8(8)
        .u8(0)
        .addr(Some(base_address))
        .addr(extension)
        .addr(Some(eof_address))
        .addr(Some(root_object_header))
        .checksum_from(0);
    e.finish()
}

#[cfg(test)]
mod encode_tests {
    use super::*;

    #[test]
    fn v2_round_trips() {
        let b = encode_v2(0, None, 14350, 48);
        assert_eq!(b.len(), 48);
        let s = Superblock::parse(&b, 0).unwrap();
        assert_eq!(
            (s.version, s.eof_address, s.root_object_header, s.extension),
            (2, 14350, 48, None)
        );
        let mut bad = b.clone();
        bad[30] ^= 1;
        assert!(Superblock::parse(&bad, 0).is_err());
    }
}
