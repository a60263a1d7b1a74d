//! Shared object header messages (HDF5 File Format Specification v3.0: section II.C "Superblock
//! Extension" holds the shared message table message, IV.A.2.p; section III.I "Shared Object
//! Header Message Table" describes the master table `SMTB`, its list indexes `SMLI` and the
//! version 2 B-tree (record type 7) indexes).
//!
//! Each index covers some message types (a bit mask of `1 << type`: dataspace, datatype, fill
//! value, filter pipeline, attribute) and keeps their shared bodies in a fractal heap; a
//! message shared through the table carries that heap's 8-byte id. Reading needs only the heap;
//! the list or B-tree records (hash, location, reference count) are parsed for inspection and
//! checking. Every structure is read with its length checked against the file and its checksum
//! verified.

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::btree_v2::BTreeV2;
use crate::format::checksum::lookup3;
use crate::format::cursor::{Cursor, SizeParams};
use crate::format::object_header::{read_block, MessageType};
use crate::io::ByteSource;

/// The shared message table message (type 0x000F) of a superblock extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedTableMessage {
    /// Address of the master table.
    pub address: u64,
    /// Number of indexes in it.
    pub num_indexes: u8,
}

impl SharedTableMessage {
    /// Decodes the message body (version 0).
    pub fn parse(mut c: Cursor<'_>, sizes: SizeParams) -> FormatResult<SharedTableMessage> {
        let version = c.u8()?;
        if version != 0 {
            return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
        }
        let address = c
            .addr(sizes)?
            .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(u64::MAX)))?;
        let num_indexes = c.u8()?;
        if num_indexes == 0 {
            return Err(c.error(FormatErrorKind::InvalidValue(0)));
        }
        Ok(SharedTableMessage {
            address,
            num_indexes,
        })
    }
}

/// One index of the master table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SohmIndex {
    /// True for a v2 B-tree index, false for a list.
    pub btree: bool,
    /// Message types covered (bit mask, see [`type_flag`]).
    pub message_types: u16,
    /// Smallest message body shared.
    pub min_size: u32,
    /// Most messages kept as a list.
    pub list_max: u16,
    /// Fewest messages kept as a B-tree.
    pub btree_min: u16,
    /// Messages in the index.
    pub num_messages: u16,
    /// Address of the list or B-tree.
    pub index_address: u64,
    /// Address of the fractal heap holding the shared bodies.
    pub heap_address: u64,
}

/// One index record: where a shared message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SohmRecord {
    /// In the index's fractal heap.
    Heap {
        /// Hash of the message body.
        hash: u32,
        /// Number of objects sharing it.
        reference_count: u32,
        /// Fractal heap id.
        heap_id: [u8; 8],
    },
    /// Still in the object header of the one object using it.
    ObjectHeader {
        /// Hash of the message body.
        hash: u32,
        /// Message type.
        message_type: u8,
        /// Index of the message in that header.
        index: u16,
        /// Object header address.
        address: u64,
    },
}

/// The master table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SohmTable {
    /// Address of the table.
    pub address: u64,
    /// Its indexes.
    pub indexes: Vec<SohmIndex>,
}

/// The index bit of a message type (`1 << type`, old fill values counting as new ones); 0 for
/// types that cannot be shared through the table.
pub fn type_flag(t: MessageType) -> u16 {
    match t {
        MessageType::DATASPACE
        | MessageType::DATATYPE
        | MessageType::FILL_VALUE
        | MessageType::FILTER_PIPELINE
        | MessageType::ATTRIBUTE => 1 << t.0,
        MessageType::FILL_VALUE_OLD => 1 << MessageType::FILL_VALUE.0,
        _ => 0,
    }
}

/// Bytes of one record: location, hash, then the larger of the two location forms.
fn record_len(sizes: SizeParams) -> usize {
    5 + 12usize.max(4 + usize::from(sizes.offset_size))
}

fn parse_record(r: &[u8], at: u64, sizes: SizeParams) -> FormatResult<SohmRecord> {
    let mut c = Cursor::new(r, at, "shared message record");
    let location = c.u8()?;
    let hash = c.u32()?;
    match location {
        0 => Ok(SohmRecord::Heap {
            hash,
            reference_count: c.u32()?,
            heap_id: c.array()?,
        }),
        1 => {
            c.skip(1)?;
            let message_type = c.u8()?;
            let index = c.u16()?;
            Ok(SohmRecord::ObjectHeader {
                hash,
                message_type,
                index,
                address: c.uint(sizes.offset_size)?,
            })
        }
        v => Err(c.error(FormatErrorKind::InvalidValue(u64::from(v)))),
    }
}

fn checksum(block: &[u8], addr: u64, what: &'static str) -> FormatResult<()> {
    let n = block.len();
    let stored = u32::from_le_bytes([block[n - 4], block[n - 3], block[n - 2], block[n - 1]]);
    let actual = lookup3(&block[..n - 4]);
    if stored != actual {
        return Err(FormatError::new(
            FormatErrorKind::ChecksumMismatch {
                expected: stored,
                actual,
            },
            addr + n as u64 - 4,
            what,
        ));
    }
    Ok(())
}

impl SohmTable {
    /// Reads the master table described by a shared table message.
    pub fn read(
        source: &dyn ByteSource,
        msg: SharedTableMessage,
        sizes: SizeParams,
    ) -> FormatResult<SohmTable> {
        let entry = 14 + 2 * u64::from(sizes.offset_size);
        let len = 8 + entry * u64::from(msg.num_indexes);
        let block = read_block(source, msg.address, len, "shared message table")?;
        let mut c = Cursor::new(&block, msg.address, "shared message table");
        c.signature(b"SMTB")?;
        checksum(&block, msg.address, "shared message table")?;
        let mut indexes = Vec::with_capacity(usize::from(msg.num_indexes));
        for _ in 0..msg.num_indexes {
            let version = c.u8()?;
            if version != 0 {
                return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
            }
            let kind = c.u8()?;
            if kind > 1 {
                return Err(c.error(FormatErrorKind::InvalidValue(u64::from(kind))));
            }
            indexes.push(SohmIndex {
                btree: kind == 1,
                message_types: c.u16()?,
                min_size: c.u32()?,
                list_max: c.u16()?,
                btree_min: c.u16()?,
                num_messages: c.u16()?,
                index_address: c.uint(sizes.offset_size)?,
                heap_address: c.uint(sizes.offset_size)?,
            });
        }
        Ok(SohmTable {
            address: msg.address,
            indexes,
        })
    }

    /// The index that holds messages of type `t`.
    pub fn index_for(&self, t: MessageType) -> Option<&SohmIndex> {
        let flag = type_flag(t);
        (flag != 0)
            .then(|| self.indexes.iter().find(|i| i.message_types & flag != 0))
            .flatten()
    }
}

impl SohmIndex {
    /// The index's records, from its list or its B-tree.
    pub fn records(
        &self,
        source: &dyn ByteSource,
        sizes: SizeParams,
    ) -> FormatResult<Vec<SohmRecord>> {
        let rl = record_len(sizes);
        if self.btree {
            let tree = BTreeV2::read(source, self.index_address, sizes)?;
            if tree.tree_type != 7 {
                return Err(FormatError::new(
                    FormatErrorKind::InvalidValue(u64::from(tree.tree_type)),
                    self.index_address,
                    "shared message index",
                ));
            }
            return tree
                .records(source, sizes)?
                .iter()
                .map(|r| parse_record(r, self.index_address, sizes))
                .collect();
        }
        let n = usize::from(self.num_messages);
        let len = 8 + (n * rl) as u64;
        let block = read_block(source, self.index_address, len, "shared message list")?;
        let mut c = Cursor::new(&block, self.index_address, "shared message list");
        c.signature(b"SMLI")?;
        checksum(&block, self.index_address, "shared message list")?;
        (0..n)
            .map(|_| {
                let at = c.offset();
                parse_record(c.bytes(rl)?, at, sizes)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_list_parse_and_check() {
        let sizes = SizeParams::new(8, 8, 0).unwrap();
        // A table of one list index for attributes, at address 0, list at 64.
        let mut t = b"SMTB".to_vec();
        t.extend([0, 0, 0, 0x10, 4, 0, 0, 0, 50, 0, 40, 0, 1, 0]);
        t.extend(64u64.to_le_bytes());
        t.extend(200u64.to_le_bytes());
        let ck = lookup3(&t);
        t.extend(ck.to_le_bytes());
        let mut file = t.clone();
        file.resize(64, 0);
        let mut l = b"SMLI".to_vec();
        l.push(0);
        l.extend(0xdead_beefu32.to_le_bytes());
        l.extend(3u32.to_le_bytes());
        l.extend([1, 2, 3, 4, 5, 6, 7, 8]);
        let ck = lookup3(&l);
        l.extend(ck.to_le_bytes());
        file.extend(&l);
        let msg = SharedTableMessage {
            address: 0,
            num_indexes: 1,
        };
        let table = SohmTable::read(&file, msg, sizes).unwrap();
        assert_eq!(table.indexes[0].heap_address, 200);
        assert!(table.index_for(MessageType::ATTRIBUTE).is_some());
        assert!(table.index_for(MessageType::DATATYPE).is_none());
        let recs = table.indexes[0].records(&file, sizes).unwrap();
        assert_eq!(
            recs,
            [SohmRecord::Heap {
                hash: 0xdead_beef,
                reference_count: 3,
                heap_id: [1, 2, 3, 4, 5, 6, 7, 8]
            }]
        );
        // Any flipped byte is caught; more indexes than the file holds is an error.
        for i in 0..file.len() {
            let mut bad = file.clone();
            bad[i] ^= 0x10;
            let ok = SohmTable::read(&bad, msg, sizes)
                .and_then(|t| t.indexes[0].records(&bad, sizes))
                .is_ok();
            assert_eq!(ok, (38..64).contains(&i), "byte {i}");
        }
        let many = SharedTableMessage {
            address: 0,
            num_indexes: 200,
        };
        assert!(SohmTable::read(&file, many, sizes).is_err());
    }
}
