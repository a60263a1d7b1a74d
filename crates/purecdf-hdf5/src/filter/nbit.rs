//! The n-bit filter (id 5; HDF5 File Format Specification v3.0, section IV.A.2.l lists the id;
//! the parameter layout is what HDF5's `H5Z_FILTER_NBIT` "set local" callback stores in the
//! filter pipeline message).
//!
//! Client data: `[n_params, no_op, n_elements, class, size, ...]` where the datatype is described
//! recursively by its class code — 1 atomic (`size, order (0 LE / 1 BE), precision, offset`),
//! 2 array (`size, base class, base…`), 3 compound (`size, n_members`, then per member
//! `offset, class, member…`), 4 other (`size`: bytes copied whole). The packed chunk is one bit
//! stream, most significant bit first: for each element, each atomic value's `precision`
//! significant bits from the highest down, and all 8 bits of every byte of an "other" member.
//! Bits outside the precision unpack as zero.

use super::{Filter, FilterError, NBIT};

const ATOMIC: u32 = 1;
const ARRAY: u32 = 2;
const COMPOUND: u32 = 3;
const NOOP: u32 = 4;
/// Deepest nesting of array/compound descriptions accepted.
const MAX_DEPTH: u32 = 32;

/// How one (part of an) element is packed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    Atomic {
        size: usize,
        big_endian: bool,
        precision: u32,
        offset: u32,
    },
    Array {
        size: usize,
        base: Box<Node>,
    },
    Compound {
        size: usize,
        members: Vec<(usize, Node)>,
    },
    NoOp {
        size: usize,
    },
}

impl Node {
    fn size(&self) -> usize {
        match self {
            Node::Atomic { size, .. }
            | Node::Array { size, .. }
            | Node::Compound { size, .. }
            | Node::NoOp { size } => *size,
        }
    }
}

fn bad() -> FilterError {
    FilterError::BadParams(NBIT)
}

fn next(p: &[u32], i: &mut usize) -> Result<u32, FilterError> {
    let v = p.get(*i).copied().ok_or_else(bad)?;
    *i += 1;
    Ok(v)
}

/// Reads a datatype description of class `class` whose parameters start at `p[*i]`.
fn parse(class: u32, p: &[u32], i: &mut usize, depth: u32) -> Result<Node, FilterError> {
    if depth > MAX_DEPTH {
        return Err(bad());
    }
    let size = next(p, i)? as usize;
    if size == 0 {
        return Err(bad());
    }
    Ok(match class {
        ATOMIC => {
            let order = next(p, i)?;
            let precision = next(p, i)?;
            let offset = next(p, i)?;
            let bits = size as u64 * 8;
            if order > 1 || precision == 0 || u64::from(precision) + u64::from(offset) > bits {
                return Err(bad());
            }
            Node::Atomic {
                size,
                big_endian: order == 1,
                precision,
                offset,
            }
        }
        ARRAY => {
            let base_class = next(p, i)?;
            let base = parse(base_class, p, i, depth + 1)?;
            if !size.is_multiple_of(base.size()) {
                return Err(bad());
            }
            Node::Array {
                size,
                base: Box::new(base),
            }
        }
        COMPOUND => {
            let n = next(p, i)? as usize;
            // Each member takes at least three parameters.
            if n > p.len() / 3 {
                return Err(bad());
            }
            let mut members = Vec::with_capacity(n);
            let mut used = 0usize;
            for _ in 0..n {
                let offset = next(p, i)? as usize;
                let class = next(p, i)?;
                let m = parse(class, p, i, depth + 1)?;
                used = used.checked_add(m.size()).ok_or_else(bad)?;
                if used > size || offset.checked_add(m.size()).is_none_or(|e| e > size) {
                    return Err(bad());
                }
                members.push((offset, m));
            }
            Node::Compound { size, members }
        }
        NOOP => Node::NoOp { size },
        _ => return Err(bad()),
    })
}

/// A most-significant-bit-first reader over the packed chunk.
struct BitReader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl BitReader<'_> {
    /// The next `n` (at most 64) bits as an integer.
    fn read(&mut self, n: u32) -> Result<u64, FilterError> {
        let end = self.pos + n as usize;
        if end > self.data.len() * 8 {
            return Err(FilterError::Corrupt(NBIT, "packed chunk too short".into()));
        }
        let byte = self.pos / 8;
        if n > 0 && byte + 9 <= self.data.len() {
            // Nine bytes hold any 64 bits starting at any bit of the first one.
            let mut w = [0u8; 16];
            w[7..16].copy_from_slice(&self.data[byte..byte + 9]);
            let word = u128::from_be_bytes(w);
            let shift = 72 - (self.pos % 8) as u32 - n;
            self.pos = end;
            return Ok(((word >> shift) & ((1u128 << n) - 1)) as u64);
        }
        let mut v = 0u64;
        let mut left = n;
        while left > 0 {
            let byte = self.data[self.pos / 8];
            let used = (self.pos % 8) as u32;
            let take = (8 - used).min(left);
            let bits = (byte >> (8 - used - take)) & (((1u16 << take) - 1) as u8);
            v = (v << take) | u64::from(bits);
            self.pos += take as usize;
            left -= take;
        }
        Ok(v)
    }
}

/// A most-significant-bit-first writer.
struct BitWriter {
    out: Vec<u8>,
    bits: usize,
}

impl BitWriter {
    fn write(&mut self, v: u64, n: u32) {
        for k in (0..n).rev() {
            if self.bits.is_multiple_of(8) {
                self.out.push(0);
            }
            if (v >> k) & 1 == 1 {
                let last = self.out.len() - 1;
                self.out[last] |= 0x80 >> (self.bits % 8);
            }
            self.bits += 1;
        }
    }
}

/// Bit `b` (0 = least significant) of an element stored in `e`.
fn byte_of(size: usize, big_endian: bool, b: u32) -> (usize, u32) {
    let byte = (b / 8) as usize;
    (if big_endian { size - 1 - byte } else { byte }, b % 8)
}

fn unpack(node: &Node, out: &mut [u8], r: &mut BitReader<'_>) -> Result<(), FilterError> {
    match node {
        Node::Atomic {
            size,
            big_endian,
            precision,
            offset,
        } if *size <= 16 => {
            // The value's bits, highest first, placed at the offset in a 128-bit word.
            let mut v = 0u128;
            let mut left = *precision;
            while left > 0 {
                let n = left.min(64);
                v = (v << n) | u128::from(r.read(n)?);
                left -= n;
            }
            let word = v << offset;
            for (k, b) in word.to_le_bytes()[..*size].iter().enumerate() {
                out[if *big_endian { size - 1 - k } else { k }] |= b;
            }
        }
        Node::Atomic {
            size,
            big_endian,
            precision,
            offset,
        } => {
            // Wider than 16 bytes: significant bits from the highest down, in pieces of 64.
            let mut hi = offset + precision;
            while hi > *offset {
                let n = (hi - offset).min(64);
                let v = r.read(n)?;
                let lo = hi - n;
                for k in 0..n {
                    if (v >> k) & 1 == 1 {
                        let (byte, bit) = byte_of(*size, *big_endian, lo + k);
                        out[byte] |= 1 << bit;
                    }
                }
                hi = lo;
            }
        }
        Node::Array { size, base } => {
            let bs = base.size();
            for k in 0..size / bs {
                unpack(base, &mut out[k * bs..(k + 1) * bs], r)?;
            }
        }
        Node::Compound { members, .. } => {
            for (offset, m) in members {
                unpack(m, &mut out[*offset..*offset + m.size()], r)?;
            }
        }
        Node::NoOp { size } => {
            for b in out.iter_mut().take(*size) {
                *b = r.read(8)? as u8;
            }
        }
    }
    Ok(())
}

fn pack(node: &Node, e: &[u8], w: &mut BitWriter) {
    match node {
        Node::Atomic {
            size,
            big_endian,
            precision,
            offset,
        } => {
            for b in (*offset..offset + precision).rev() {
                let (byte, bit) = byte_of(*size, *big_endian, b);
                w.write(u64::from((e[byte] >> bit) & 1), 1);
            }
        }
        Node::Array { size, base } => {
            let bs = base.size();
            for k in 0..size / bs {
                pack(base, &e[k * bs..(k + 1) * bs], w);
            }
        }
        Node::Compound { members, .. } => {
            for (offset, m) in members {
                pack(m, &e[*offset..*offset + m.size()], w);
            }
        }
        Node::NoOp { size } => {
            for &b in e.iter().take(*size) {
                w.write(u64::from(b), 8);
            }
        }
    }
}

/// The filter with its parsed parameters; `None` when the filter has nothing to do.
pub(super) struct Nbit {
    plan: Option<(usize, Node)>,
}

/// Builds the filter from its client data.
pub(super) fn build(cd: &[u32]) -> Result<Box<dyn Filter>, FilterError> {
    if cd.len() < 2 || cd[0] as usize != cd.len() {
        return Err(bad());
    }
    if cd[1] != 0 {
        // Every value is full precision: the data is stored as it is.
        return Ok(Box::new(Nbit { plan: None }));
    }
    if cd.len() < 5 {
        return Err(bad());
    }
    let mut i = 4;
    let node = parse(cd[3], cd, &mut i, 0)?;
    if matches!(node, Node::NoOp { .. }) {
        return Err(bad());
    }
    Ok(Box::new(Nbit {
        plan: Some((cd[2] as usize, node)),
    }))
}

impl Filter for Nbit {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        let Some((n, node)) = &self.plan else {
            return Ok(input);
        };
        let size = node.size();
        let total = n
            .checked_mul(size)
            .filter(|t| *t <= max_out)
            .ok_or_else(|| {
                FilterError::Corrupt(NBIT, "more elements than the chunk holds".into())
            })?;
        let mut out = vec![0u8; total];
        let mut r = BitReader {
            data: &input,
            pos: 0,
        };
        for e in out.chunks_exact_mut(size) {
            unpack(node, e, &mut r)?;
        }
        Ok(out)
    }

    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        let Some((n, node)) = &self.plan else {
            return Ok(input);
        };
        let size = node.size();
        if input.len() != n.saturating_mul(size) {
            return Err(FilterError::Corrupt(NBIT, "chunk size mismatch".into()));
        }
        let mut w = BitWriter {
            out: Vec::with_capacity(input.len()),
            bits: 0,
        };
        for e in input.chunks_exact(size) {
            pack(node, e, &mut w);
        }
        Ok(w.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_little_and_big_endian() {
        // 3 int32 elements, precision 12 at offset 4, little-endian: 0x0123 << 4 etc.
        let cd = [8, 0, 3, ATOMIC, 4, 0, 12, 4];
        let f = build(&cd).unwrap();
        let raw: Vec<u8> = [0x123u32, 0xfff, 0x800]
            .iter()
            .flat_map(|v| (v << 4).to_le_bytes())
            .collect();
        let packed = f.encode(raw.clone()).unwrap();
        // 36 bits: 0001 0010 0011 | 1111 1111 1111 | 1000 0000 0000.
        assert_eq!(packed, [0x12, 0x3f, 0xff, 0x80, 0x00]);
        assert_eq!(f.decode(packed.clone(), 12).unwrap(), raw);
        // More elements than the chunk holds, and a stream cut short, are errors.
        assert!(f.decode(packed.clone(), 11).is_err());
        assert!(f.decode(packed[..4].to_vec(), 12).is_err());
        let be = build(&[8, 0, 3, ATOMIC, 4, 1, 12, 4]).unwrap();
        let raw_be: Vec<u8> = raw
            .chunks(4)
            .flat_map(|c| c.iter().rev().copied())
            .collect();
        assert_eq!(be.decode(packed, 12).unwrap(), raw_be);
    }

    #[test]
    fn wide_atomic_values() {
        // 17-byte elements (the bit-by-bit path) and 16-byte ones (the word path), both orders.
        for (size, prec, off) in [(17u32, 100u32, 20u32), (16, 121, 7)] {
            for order in [0, 1] {
                let f = build(&[8, 0, 2, ATOMIC, size, order, prec, off]).unwrap();
                let mut raw = vec![0u8; 2 * size as usize];
                for (i, b) in raw.iter_mut().enumerate() {
                    *b = (i as u8).wrapping_mul(73).wrapping_add(5);
                }
                // Clear the bits outside the precision: they unpack as zero.
                for e in raw.chunks_mut(size as usize) {
                    for bit in (0..size * 8).filter(|b| *b < off || *b >= off + prec) {
                        let (byte, k) = byte_of(size as usize, order == 1, bit);
                        e[byte] &= !(1 << k);
                    }
                }
                let packed = f.encode(raw.clone()).unwrap();
                assert_eq!(packed.len(), (2 * prec as usize).div_ceil(8));
                assert_eq!(f.decode(packed, raw.len()).unwrap(), raw);
            }
        }
    }

    #[test]
    fn compound_with_array_and_noop() {
        // Compound of 8 bytes: u16 (9 bits at 3) at 0, a 2-byte "other" at 2, an array of two
        // u16 (5 bits at 0) at 4.
        let cd = [
            23, 0, 2, COMPOUND, 8, 3, 0, ATOMIC, 2, 0, 9, 3, 2, NOOP, 2, 4, ARRAY, 4, ATOMIC, 2, 0,
            5, 0,
        ];
        let f = build(&cd).unwrap();
        let e1 = [0xf8u8, 0x0f, b'a', b'b', 0x1f, 0, 0x01, 0];
        let e2 = [0x08u8, 0x00, 0xff, 0x00, 0x10, 0, 0x02, 0];
        let raw = [e1, e2].concat();
        let packed = f.encode(raw.clone()).unwrap();
        assert_eq!(packed.len(), 9); // 70 bits
        assert_eq!(f.decode(packed, 16).unwrap(), raw);
    }

    #[test]
    fn bad_parameters() {
        for cd in [
            &[][..],
            &[3, 0, 1],                                // count does not match
            &[8, 0, 3, ATOMIC, 4, 0, 30, 4],           // precision + offset beyond the size
            &[8, 0, 3, ATOMIC, 0, 0, 1, 0],            // zero size
            &[8, 0, 3, 9, 4, 0, 12, 4],                // unknown class
            &[7, 0, 3, ATOMIC, 4, 0, 12],              // truncated
            &[7, 0, 3, COMPOUND, 4, 1000, 0],          // too many members
            &[10, 0, 3, ARRAY, 6, ATOMIC, 4, 0, 8, 0], // array size not a multiple
            &[5, 0, 3, NOOP, 4],                       // nothing to pack at the top
        ] {
            assert!(build(cd).is_err(), "{cd:?}");
        }
        // Member beyond the compound's size.
        let cd = [12, 0, 1, COMPOUND, 4, 1, 2, ATOMIC, 4, 0, 8, 0];
        assert!(build(&cd).is_err());
        // Nesting is bounded.
        let mut cd = vec![0, 0, 1];
        for _ in 0..100 {
            cd.extend([ARRAY, 4]);
        }
        cd.extend([ATOMIC, 4, 0, 8, 0]);
        cd[0] = cd.len() as u32;
        assert!(build(&cd).is_err());
        // The no-op flag stores data as it is.
        let f = build(&[8, 1, 3, ATOMIC, 4, 0, 32, 0]).unwrap();
        assert_eq!(f.decode(vec![1, 2, 3], 3).unwrap(), [1, 2, 3]);
    }
}
