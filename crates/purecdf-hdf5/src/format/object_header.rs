//! Object headers, versions 1 and 2, with their continuation blocks (HDF5 File Format
//! Specification v3.0, section IV.A "Disk Format: Level 2A — Data Object Headers": IV.A.1.a
//! version 1 prefix, IV.A.1.b version 2 prefix, IV.A.2.q header continuation message).
//!
//! Parsing yields the raw messages (type, flags, bytes); the message bodies are decoded by
//! `format::messages`. Every block is read with one positional read whose length was checked
//! against the file size; continuation chains are cycle-checked and capped.

use std::collections::{HashSet, VecDeque};

use crate::error::{FormatError, FormatErrorKind, FormatResult};
use crate::format::cursor::{Cursor, SizeParams};
use crate::io::ByteSource;

/// Message type numbers (section IV.A.2), as an open newtype: unknown values survive parsing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MessageType(pub u16);

impl MessageType {
    /// NIL (padding).
    pub const NIL: MessageType = MessageType(0x00);
    /// Dataspace.
    pub const DATASPACE: MessageType = MessageType(0x01);
    /// Link info.
    pub const LINK_INFO: MessageType = MessageType(0x02);
    /// Datatype.
    pub const DATATYPE: MessageType = MessageType(0x03);
    /// Fill value (old).
    pub const FILL_VALUE_OLD: MessageType = MessageType(0x04);
    /// Fill value.
    pub const FILL_VALUE: MessageType = MessageType(0x05);
    /// Link.
    pub const LINK: MessageType = MessageType(0x06);
    /// External data files.
    pub const EXTERNAL_FILES: MessageType = MessageType(0x07);
    /// Data layout.
    pub const LAYOUT: MessageType = MessageType(0x08);
    /// Bogus (testing).
    pub const BOGUS: MessageType = MessageType(0x09);
    /// Group info.
    pub const GROUP_INFO: MessageType = MessageType(0x0A);
    /// Filter pipeline.
    pub const FILTER_PIPELINE: MessageType = MessageType(0x0B);
    /// Attribute.
    pub const ATTRIBUTE: MessageType = MessageType(0x0C);
    /// Object comment.
    pub const COMMENT: MessageType = MessageType(0x0D);
    /// Object modification time (old).
    pub const MODIFICATION_TIME_OLD: MessageType = MessageType(0x0E);
    /// Shared message table.
    pub const SHARED_MESSAGE_TABLE: MessageType = MessageType(0x0F);
    /// Object header continuation.
    pub const CONTINUATION: MessageType = MessageType(0x10);
    /// Symbol table (old-style group).
    pub const SYMBOL_TABLE: MessageType = MessageType(0x11);
    /// Object modification time.
    pub const MODIFICATION_TIME: MessageType = MessageType(0x12);
    /// B-tree 'K' values.
    pub const BTREE_K: MessageType = MessageType(0x13);
    /// Driver info.
    pub const DRIVER_INFO: MessageType = MessageType(0x14);
    /// Attribute info.
    pub const ATTRIBUTE_INFO: MessageType = MessageType(0x15);
    /// Object reference count.
    pub const REFERENCE_COUNT: MessageType = MessageType(0x16);
}

/// Message flag bits (section IV.A.1).
pub mod flags {
    /// The message is constant.
    pub const CONSTANT: u8 = 0x01;
    /// The message is stored in the shared message heap / another object header.
    pub const SHARED: u8 = 0x02;
    /// Fail to open for writing if the message type is unknown.
    pub const FAIL_IF_UNKNOWN_WRITE: u8 = 0x08;
    /// Fail to open at all if the message type is unknown.
    pub const FAIL_IF_UNKNOWN_ALWAYS: u8 = 0x80;
}

/// One header message, undecoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawMessage {
    /// Message type.
    pub mtype: MessageType,
    /// Message flags.
    pub flags: u8,
    /// Creation order (v2 headers that track it).
    pub creation_order: Option<u16>,
    /// File address of the message body.
    pub offset: u64,
    /// The message body.
    pub data: Vec<u8>,
}

/// A parsed object header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectHeader {
    /// Address of the header.
    pub address: u64,
    /// Header version (1 or 2).
    pub version: u8,
    /// v2 header flags.
    pub flags: u8,
    /// Modification time (v2 with times stored, or from a modification time message), seconds.
    pub mtime: Option<u32>,
    /// All messages in order (continuation and NIL messages removed).
    pub messages: Vec<RawMessage>,
}

/// Caps on what one object header may hold.
const MAX_MESSAGES: usize = 1 << 16;
const MAX_BLOCKS: usize = 1 << 12;

impl ObjectHeader {
    /// Reads the object header at `address`.
    ///
    /// # Errors
    /// Any malformed prefix, message or continuation; a continuation cycle; more than 65536
    /// messages or 4096 blocks; an unknown message marked fail-if-unknown-always.
    pub fn read(
        source: &dyn ByteSource,
        address: u64,
        sizes: SizeParams,
    ) -> FormatResult<ObjectHeader> {
        let file_len = source.len();
        let head = read_block(
            source,
            address,
            16.min(file_len.saturating_sub(address)),
            "object header",
        )?;
        let mut oh = ObjectHeader {
            address,
            version: 0,
            flags: 0,
            mtime: None,
            messages: Vec::new(),
        };
        // First in, first out: HDF5 loads continuation blocks in the order their messages appear,
        // those found in later blocks after the ones already known.
        let mut pending: VecDeque<(u64, u64)> = VecDeque::new();
        if head.len() >= 4 && &head[..4] == b"OHDR" {
            oh.version = 2;
            // Prefix length is at most 4+1+1+16+4+8 bytes; read generously, bounded by the file.
            let pre = read_block(source, address, 34.min(file_len - address), "object header")?;
            let mut c = Cursor::new(&pre, address, "object header");
            c.skip(4)?;
            let version = c.u8()?;
            if version != 2 {
                return Err(c.error(FormatErrorKind::UnsupportedVersion(version)));
            }
            oh.flags = c.u8()?;
            if oh.flags & 0x20 != 0 {
                let _access = c.u32()?;
                oh.mtime = Some(c.u32()?);
                c.skip(8)?;
            }
            if oh.flags & 0x10 != 0 {
                c.skip(4)?;
            }
            let chunk_size = c.uint(1 << (oh.flags & 0x03))?;
            let prefix_len = c.position() as u64;
            let total = prefix_len
                .checked_add(chunk_size)
                .and_then(|x| x.checked_add(4))
                .ok_or_else(|| c.error(FormatErrorKind::InvalidValue(chunk_size)))?;
            let block = read_block(source, address, total, "object header")?;
            let mut bc = Cursor::new(&block, address, "object header");
            bc.skip(prefix_len as usize)?;
            let body = bc.split(chunk_size as usize)?;
            verify_block_checksum(&block, address)?;
            parse_v2_messages(body, oh.flags, &mut oh.messages, &mut pending, sizes)?;
        } else {
            let mut c = Cursor::new(&head, address, "object header");
            let version = c.u8()?;
            if version != 1 {
                return Err(FormatError::new(
                    FormatErrorKind::UnsupportedVersion(version),
                    address,
                    "object header",
                ));
            }
            oh.version = 1;
            c.skip(1)?;
            let _nmessages = c.u16()?;
            let _refcount = c.u32()?;
            let size = u64::from(c.u32()?);
            // The v1 prefix is 12 bytes, padded to 16; messages follow.
            let block = read_block(source, address + 16, size, "object header")?;
            parse_v1_messages(
                Cursor::new(&block, address + 16, "object header"),
                &mut oh.messages,
                &mut pending,
                sizes,
            )?;
        }
        let mut seen: HashSet<u64> = HashSet::new();
        seen.insert(address);
        let mut blocks = 0;
        while let Some((addr, len)) = pending.pop_front() {
            blocks += 1;
            if blocks > MAX_BLOCKS {
                return Err(FormatError::new(
                    FormatErrorKind::LimitExceeded(MAX_BLOCKS as u64),
                    addr,
                    "object header continuation",
                ));
            }
            if !seen.insert(addr) {
                return Err(FormatError::new(
                    FormatErrorKind::Cycle(addr),
                    addr,
                    "object header continuation",
                ));
            }
            let block = read_block(source, addr, len, "object header continuation")?;
            let mut more = VecDeque::new();
            if oh.version == 2 {
                let mut c = Cursor::new(&block, addr, "object header continuation");
                c.signature(b"OCHK")?;
                if block.len() < 8 {
                    return Err(c.error(FormatErrorKind::InvalidValue(len)));
                }
                let body = c.split(block.len() - 8)?;
                verify_block_checksum(&block, addr)?;
                parse_v2_messages(body, oh.flags, &mut oh.messages, &mut more, sizes)?;
            } else {
                parse_v1_messages(
                    Cursor::new(&block, addr, "object header continuation"),
                    &mut oh.messages,
                    &mut more,
                    sizes,
                )?;
            }
            pending.extend(more);
            if oh.messages.len() > MAX_MESSAGES {
                return Err(FormatError::new(
                    FormatErrorKind::LimitExceeded(MAX_MESSAGES as u64),
                    addr,
                    "object header",
                ));
            }
        }
        if oh.mtime.is_none() {
            oh.mtime = oh
                .messages
                .iter()
                .find(|m| m.mtype == MessageType::MODIFICATION_TIME)
                .and_then(|m| m.data.get(4..8))
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        }
        Ok(oh)
    }

    /// The first message of a type.
    pub fn message(&self, t: MessageType) -> Option<&RawMessage> {
        self.messages.iter().find(|m| m.mtype == t)
    }

    /// All messages of a type.
    pub fn messages_of(&self, t: MessageType) -> impl Iterator<Item = &RawMessage> {
        self.messages.iter().filter(move |m| m.mtype == t)
    }
}

/// Reads `len` bytes at `addr` after checking the range against the file.
pub fn read_block(
    source: &dyn ByteSource,
    addr: u64,
    len: u64,
    structure: &'static str,
) -> FormatResult<Vec<u8>> {
    let file_len = source.len();
    match addr.checked_add(len) {
        Some(end) if end <= file_len => {}
        _ => {
            return Err(FormatError::new(
                FormatErrorKind::UnexpectedEof {
                    wanted: len,
                    available: file_len.saturating_sub(addr),
                },
                addr,
                structure,
            ))
        }
    }
    let mut buf = vec![0u8; len as usize];
    source.read_at(addr, &mut buf).map_err(|_| {
        FormatError::new(
            FormatErrorKind::UnexpectedEof {
                wanted: len,
                available: 0,
            },
            addr,
            structure,
        )
    })?;
    Ok(buf)
}

fn verify_block_checksum(block: &[u8], addr: u64) -> FormatResult<()> {
    let n = block.len();
    if n < 4 {
        return Err(FormatError::new(
            FormatErrorKind::UnexpectedEof {
                wanted: 4,
                available: n as u64,
            },
            addr,
            "object header",
        ));
    }
    let mut c = Cursor::new(&block[..n], addr, "object header");
    c.skip(n - 4)?;
    // Recompute over the bytes before the checksum.
    let computed = crate::format::checksum::lookup3(&block[..n - 4]);
    let stored = c.u32()?;
    if stored != computed {
        return Err(FormatError::new(
            FormatErrorKind::ChecksumMismatch {
                expected: stored,
                actual: computed,
            },
            addr + n as u64 - 4,
            "object header",
        ));
    }
    Ok(())
}

fn push_message(
    m: RawMessage,
    out: &mut Vec<RawMessage>,
    pending: &mut VecDeque<(u64, u64)>,
    sizes: SizeParams,
) -> FormatResult<()> {
    if m.mtype == MessageType::CONTINUATION {
        let mut c = Cursor::new(&m.data, m.offset, "continuation message");
        let addr = c.uint(sizes.offset_size)?;
        let len = c.length(sizes)?;
        pending.push_back((addr, len));
        return Ok(());
    }
    if m.mtype == MessageType::NIL {
        return Ok(());
    }
    if m.mtype.0 > 0x18 && m.flags & flags::FAIL_IF_UNKNOWN_ALWAYS != 0 {
        return Err(FormatError::new(
            FormatErrorKind::UnknownMessage(m.mtype.0),
            m.offset,
            "object header",
        ));
    }
    if out.len() >= MAX_MESSAGES {
        return Err(FormatError::new(
            FormatErrorKind::LimitExceeded(MAX_MESSAGES as u64),
            m.offset,
            "object header",
        ));
    }
    out.push(m);
    Ok(())
}

fn parse_v1_messages(
    mut c: Cursor<'_>,
    out: &mut Vec<RawMessage>,
    pending: &mut VecDeque<(u64, u64)>,
    sizes: SizeParams,
) -> FormatResult<()> {
    // Each message: type (2), size (2), flags (1), reserved (3), body padded to 8 bytes.
    while c.remaining() >= 8 {
        let mtype = MessageType(c.u16()?);
        let size = usize::from(c.u16()?);
        let mflags = c.u8()?;
        c.skip(3)?;
        let offset = c.offset();
        let data = c.bytes(size)?.to_vec();
        push_message(
            RawMessage {
                mtype,
                flags: mflags,
                creation_order: None,
                offset,
                data,
            },
            out,
            pending,
            sizes,
        )?;
    }
    Ok(())
}

fn parse_v2_messages(
    mut c: Cursor<'_>,
    header_flags: u8,
    out: &mut Vec<RawMessage>,
    pending: &mut VecDeque<(u64, u64)>,
    sizes: SizeParams,
) -> FormatResult<()> {
    let tracks_order = header_flags & 0x04 != 0;
    let header_len = if tracks_order { 6 } else { 4 };
    // Messages until fewer bytes remain than a message header (the rest is a gap).
    while c.remaining() >= header_len {
        let mtype = MessageType(u16::from(c.u8()?));
        let size = usize::from(c.u16()?);
        let mflags = c.u8()?;
        let creation_order = if tracks_order { Some(c.u16()?) } else { None };
        let offset = c.offset();
        let data = c.bytes(size)?.to_vec();
        push_message(
            RawMessage {
                mtype,
                flags: mflags,
                creation_order,
                offset,
                data,
            },
            out,
            pending,
            sizes,
        )?;
    }
    Ok(())
}

/// One message to encode into a version 2 object header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageOut {
    /// Message type.
    pub mtype: MessageType,
    /// Message flags (section IV.A.1.b).
    pub flags: u8,
    /// Creation order (attribute messages; written only when the header tracks it).
    pub creation_order: u16,
    /// The message body.
    pub body: Vec<u8>,
}

/// Version 2 object header options (section IV.A.1.b, "Version 2 Object Header").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HeaderOptions {
    /// Attribute creation order tracked (flag bit 2): every message carries a creation order.
    pub track_attr_order: bool,
    /// Attribute creation order indexed (flag bit 3).
    pub index_attr_order: bool,
    /// Access, modification, change and birth times (flag bit 5), seconds since the epoch.
    pub times: Option<[u32; 4]>,
}

/// Size in bytes of a version 2 object header holding messages with these body sizes.
pub fn encoded_v2_len(bodies: impl Iterator<Item = usize>, opts: HeaderOptions) -> u64 {
    let per = if opts.track_attr_order { 6 } else { 4 };
    let chunk: u64 = bodies.map(|b| (per + b) as u64).sum();
    prefix_len(chunk, opts) + chunk + 4
}

fn chunk_width_bits(chunk: u64) -> u8 {
    match chunk {
        0..=0xff => 0,
        0x100..=0xffff => 1,
        0x1_0000..=0xffff_ffff => 2,
        _ => 3,
    }
}

fn prefix_len(chunk: u64, opts: HeaderOptions) -> u64 {
    6 + if opts.times.is_some() { 16 } else { 0 } + (1u64 << chunk_width_bits(chunk))
}

/// Encodes a version 2 object header with every message in its first chunk (no continuation),
/// ending with the chunk's checksum.
pub fn encode_v2(messages: &[MessageOut], opts: HeaderOptions) -> Vec<u8> {
    let per = if opts.track_attr_order { 6 } else { 4 };
    let chunk: u64 = messages.iter().map(|m| (per + m.body.len()) as u64).sum();
    let bits = chunk_width_bits(chunk);
    let mut flags = bits;
    if opts.track_attr_order {
        flags |= 0x04;
    }
    if opts.index_attr_order {
        flags |= 0x08;
    }
    if opts.times.is_some() {
        flags |= 0x20;
    }
    let sizes = SizeParams {
        offset_size: 8,
        length_size: 8,
    };
    let mut e = crate::format::encode::Encoder::new(sizes);
    e.bytes(b"OHDR").u8(2).u8(flags);
    if let Some(t) = opts.times {
        for v in t {
            e.u32(v);
        }
    }
    e.uint(chunk, 1 << bits);
    for m in messages {
        e.u8(m.mtype.0 as u8).u16(m.body.len() as u16).u8(m.flags);
        if opts.track_attr_order {
            e.u16(m.creation_order);
        }
        e.bytes(&m.body);
    }
    e.checksum_from(0);
    e.finish()
}

#[cfg(test)]
mod encode_tests {
    use super::*;

    #[test]
    fn v2_header_round_trips() {
        let opts = HeaderOptions {
            track_attr_order: true,
            index_attr_order: true,
            times: None,
        };
        let msgs = vec![
            MessageOut {
                mtype: MessageType::DATASPACE,
                flags: 0,
                creation_order: 0,
                body: vec![2, 0, 0, 0],
            },
            MessageOut {
                mtype: MessageType::ATTRIBUTE,
                flags: 0,
                creation_order: 3,
                body: vec![9; 300],
            },
        ];
        let b = encode_v2(&msgs, opts);
        assert_eq!(
            b.len() as u64,
            encoded_v2_len(msgs.iter().map(|m| m.body.len()), opts)
        );
        let src = b.clone();
        let sizes = SizeParams::new(8, 8, 0).unwrap();
        let oh = ObjectHeader::read(&src, 0, sizes).unwrap();
        assert_eq!(oh.version, 2);
        assert_eq!(oh.flags, 0x0d);
        assert_eq!(oh.messages.len(), 2);
        assert_eq!(oh.messages[1].creation_order, Some(3));
        assert_eq!(oh.messages[1].data, vec![9; 300]);
        let mut bad = b;
        bad[20] ^= 1;
        assert!(ObjectHeader::read(&bad, 0, sizes).is_err());
    }
}
