//! Variable-length data and object references in element data: [`Piece`]s, their encoding into
//! file bytes, and the global heap collections (HDF5 File Format Specification v3.0, section
//! III.E) that hold the variable-length parts. A collection is reserved at a fixed capacity
//! when its first object is stored; each object is written as it is stored; after a flush a
//! new collection is started, so a collection is never changed once a synced header can
//! reach it.

use crate::format::global_heap::{collection_used, MAX_OBJECTS, MIN_COLLECTION_SIZE};
use crate::write::io::{Allocator, RwFile};
use crate::write::{ObjId, WriteResult};

/// One part of element data, as given to [`Hdf5Writer`](crate::write::Hdf5Writer).
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    /// Fixed-size bytes in file byte order.
    Bytes(Vec<u8>),
    /// A variable-length sequence or string of `count` elements whose data is `content`
    /// (pieces again, for nested sequences and references); stored in the global heap. A
    /// sequence with no content pieces at all is stored as the null reference; an empty one
    /// with content (`[Bytes([])]`, an empty string) as an empty heap object, as libhdf5 does.
    Vlen {
        /// Number of elements (characters for a string).
        count: u32,
        /// The elements' data.
        content: Vec<Piece>,
    },
    /// An object reference to an object of the file being written.
    Ref(ObjId),
    /// An object reference kept as an address (an object the writer does not track).
    Address(u64),
}

impl Piece {
    /// Appends fixed-size bytes to `pieces`, joining them to a last [`Piece::Bytes`] so runs of
    /// fixed-size data stay one piece.
    pub fn push_bytes(pieces: &mut Vec<Piece>, b: &[u8]) {
        if b.is_empty() {
            return;
        }
        if let Some(Piece::Bytes(last)) = pieces.last_mut() {
            last.extend_from_slice(b);
        } else {
            pieces.push(Piece::Bytes(b.to_vec()));
        }
    }

    /// True when this piece (or one inside it) refers to an object.
    pub fn has_refs(&self) -> bool {
        match self {
            Piece::Ref(_) => true,
            Piece::Vlen { content, .. } => content.iter().any(Piece::has_refs),
            Piece::Bytes(_) | Piece::Address(_) => false,
        }
    }
}

/// Resolves what pieces need while they are encoded.
pub(crate) trait PieceSink {
    /// The address an object will have.
    fn address_of(&mut self, id: ObjId) -> WriteResult<u64>;
    /// Stores a heap object, returning its collection address and index.
    fn store(&mut self, data: Vec<u8>) -> WriteResult<(u64, u32)>;
    /// Reserves `len` bytes of file space for a structure (dense link or attribute storage)
    /// and returns their address; `None` when only sizing headers (nothing is written then).
    fn reserve(&mut self, _len: u64) -> WriteResult<Option<u64>> {
        Ok(None)
    }
    /// Writes a structure into space [`reserve`](PieceSink::reserve) returned.
    fn write(&mut self, _at: u64, _data: &[u8]) -> WriteResult<()> {
        Ok(())
    }
}

/// Appends the file bytes of `pieces` to `out`.
pub(crate) fn encode_pieces(
    pieces: &[Piece],
    out: &mut Vec<u8>,
    sink: &mut dyn PieceSink,
) -> WriteResult<()> {
    for p in pieces {
        match p {
            Piece::Bytes(b) => out.extend_from_slice(b),
            Piece::Address(a) => out.extend_from_slice(&a.to_le_bytes()),
            Piece::Ref(id) => {
                let a = sink.address_of(*id)?;
                out.extend_from_slice(&a.to_le_bytes());
            }
            Piece::Vlen { count, content } => {
                let (addr, index) = if *count == 0 && content.is_empty() {
                    (0, 0)
                } else {
                    let mut inner = Vec::new();
                    encode_pieces(content, &mut inner, sink)?;
                    sink.store(inner)?
                };
                out.extend_from_slice(&count.to_le_bytes());
                out.extend_from_slice(&addr.to_le_bytes());
                out.extend_from_slice(&index.to_le_bytes());
            }
        }
    }
    Ok(())
}

/// The size pieces occupy once encoded (every reference 8 bytes, every vlen 16).
pub(crate) fn encoded_len(pieces: &[Piece]) -> usize {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Bytes(b) => b.len(),
            Piece::Address(_) | Piece::Ref(_) => 8,
            Piece::Vlen { .. } => 16,
        })
        .sum()
}

/// Capacity of the first collection a writer starts; each later one doubles it, up to
/// [`MAX_CAPACITY`] (an object larger than that gets a collection of its own size).
const FIRST_CAPACITY: usize = MIN_COLLECTION_SIZE;
/// Largest capacity reserved ahead.
const MAX_CAPACITY: usize = 1 << 20;

#[derive(Debug)]
struct OpenCollection {
    addr: u64,
    capacity: usize,
    count: usize,
    used: usize,
}

/// The collection being filled.
#[derive(Debug, Default)]
pub(crate) struct HeapWriter {
    open: Option<OpenCollection>,
    /// Capacity of the next collection (0: not started yet).
    next_capacity: usize,
}

/// A collection's 16-byte header: signature, version, reserved, size.
fn collection_header(capacity: usize) -> [u8; 16] {
    let mut h = [0u8; 16];
    h[..4].copy_from_slice(b"GCOL");
    h[4] = 1;
    h[8..].copy_from_slice(&(capacity as u64).to_le_bytes());
    h
}

/// The free-space object (index 0) covering `[used, capacity)`, when a header fits there.
fn free_space(c: &OpenCollection, io: &RwFile) -> WriteResult<()> {
    let free = c.capacity - c.used;
    if free >= 16 {
        let mut h = [0u8; 16];
        h[8..].copy_from_slice(&(free as u64).to_le_bytes());
        io.write_at(c.addr + c.used as u64, &h)?;
    }
    Ok(())
}

impl HeapWriter {
    /// Stores one heap object, returning the collection address and object index. The object
    /// is written at once, followed by the free-space object, so the collection on disk is
    /// always complete; a collection is only ever extended before the flush that first makes
    /// it reachable.
    pub(crate) fn store(
        &mut self,
        data: Vec<u8>,
        alloc: &mut Allocator,
        io: &RwFile,
    ) -> WriteResult<(u64, u32)> {
        let need = collection_used(std::iter::once(data.len())) - 16;
        if let Some(c) = &self.open {
            // Keep room for the free-space object's header.
            if c.used + need + 16 > c.capacity || c.count >= MAX_OBJECTS {
                self.close(alloc, io)?;
            }
        }
        let c = match &mut self.open {
            Some(c) => c,
            None => {
                let planned = self.next_capacity.max(FIRST_CAPACITY);
                self.next_capacity = (planned * 2).min(MAX_CAPACITY);
                let capacity = planned.max(16 + need + 16).div_ceil(8) * 8;
                let addr = alloc.alloc(capacity as u64, io);
                io.write_at(addr, &collection_header(capacity))?;
                self.open.insert(OpenCollection {
                    addr,
                    capacity,
                    count: 0,
                    used: 16,
                })
            }
        };
        c.count += 1;
        let mut obj = Vec::with_capacity(need);
        obj.extend_from_slice(&(c.count as u16).to_le_bytes());
        obj.extend_from_slice(&[0u8; 6]);
        obj.extend_from_slice(&(data.len() as u64).to_le_bytes());
        obj.extend_from_slice(&data);
        obj.resize(need, 0);
        io.write_at(c.addr + c.used as u64, &obj)?;
        c.used += need;
        free_space(c, io)?;
        Ok((c.addr, c.count as u32))
    }

    /// Ends the collection being filled, if any; the next object starts a new one. A
    /// collection that is the last thing allocated gives back the room it did not use.
    pub(crate) fn close(&mut self, alloc: &mut Allocator, io: &RwFile) -> WriteResult<()> {
        if let Some(mut c) = self.open.take() {
            if alloc.eoa == c.addr + c.capacity as u64 {
                let fit = (c.used + 16).max(MIN_COLLECTION_SIZE).div_ceil(8) * 8;
                if fit < c.capacity {
                    c.capacity = fit;
                    alloc.shrink_to(c.addr + fit as u64, io);
                    io.write_at(c.addr, &collection_header(fit))?;
                    free_space(&c, io)?;
                }
            }
        }
        Ok(())
    }
}

/// A sink for sizing: every address and heap id is zero, nothing is stored.
pub(crate) struct SizingSink;

impl PieceSink for SizingSink {
    fn address_of(&mut self, _id: ObjId) -> WriteResult<u64> {
        Ok(0)
    }
    fn store(&mut self, _data: Vec<u8>) -> WriteResult<(u64, u32)> {
        Ok((0, 0))
    }
}
