//! The coders of compressed elements (`hcomp.c`, `HCPdecode_header`; `crle.c`, `cdeflate.c`):
//! after a 2-byte model type (always 0, "standard") comes a 2-byte coder type and its
//! parameters: n-bit (2) number type, sign-extend and fill-one flags, bit offset and length;
//! skipping Huffman (3) skip size and a byte count; deflate (4) a level; szip (5) pixels, pixels
//! per scanline, options mask, bits per pixel and pixels per block. RLE (1) and none (0) have
//! none.
//!
//! RLE: a control byte with bit 0x80 set starts a run of `(c & 0x7f) + 3` copies of the next
//! byte; otherwise `c + 1` literal bytes follow. Deflate: a zlib stream.
//!
//! N-bit (`cnbit.c`): of each value (the number type's size in bytes, big-endian), the
//! `bit_len` bits ending at bit `start_bit` (bit 0 the least significant) are stored, most
//! significant first, packed with no padding between values. Decoding puts them back; the other
//! bits are ones when `fill_one`, else zeros, except that with `sign_extend` the bits above the
//! field repeat its top bit.
//!
//! szip (`cszip.c`): since HDF 4.2r1 (options bit 0x10000) the stored bytes start with a flag
//! byte (1: the data follows uncompressed) and a 4-byte big-endian count of the coded bytes
//! that follow; HDF 4.2r0 stored the coded bytes alone. The coded stream is plain CCSDS 121.0
//! as szlib writes it, decoded by purecdf-hdf5's szip filter.
//!
//! Skipping Huffman (`cskphuff.c`): one adaptive prefix code per byte position modulo the skip
//! size, each a splay tree over the 256 byte values (Jones's splay-tree compression): internal
//! nodes 0–255 (0 the root, node `i`'s children `2i` and `2i+1` at the start), leaves
//! 256–511. Bits, most significant first, walk from the root to a leaf; the byte is the leaf
//! less 256, and the tree is then splayed around that leaf by semi-rotating pairs up to the
//! root.

use std::io::Read;

use crate::error::{Error, Reader, Result};

/// A compression coder and its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coder {
    /// Stored as is (`COMP_CODE_NONE`).
    None,
    /// Run-length encoding (`COMP_CODE_RLE`).
    Rle,
    /// N-bit packing (`COMP_CODE_NBIT`).
    Nbit {
        /// Number type of the values.
        number_type: i32,
        /// Extend the sign bit.
        sign_extend: bool,
        /// Fill the other bits with ones.
        fill_one: bool,
        /// Offset of the highest stored bit.
        start_bit: i32,
        /// Number of stored bits.
        bit_len: i32,
    },
    /// Skipping Huffman (`COMP_CODE_SKPHUFF`).
    SkippingHuffman {
        /// Bytes per element skipped over.
        skip_size: u32,
    },
    /// zlib deflate (`COMP_CODE_DEFLATE`).
    Deflate {
        /// The level it was written with.
        level: u16,
    },
    /// szip (`COMP_CODE_SZIP`).
    Szip {
        /// Pixels.
        pixels: u32,
        /// Pixels per scanline.
        pixels_per_scanline: u32,
        /// Options mask.
        options_mask: u32,
        /// Bits per pixel.
        bits_per_pixel: u8,
        /// Pixels per block.
        pixels_per_block: u8,
    },
}

impl Coder {
    /// Parses a model type, a coder type and the coder's parameters.
    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<Coder> {
        let at = r.offset();
        let _model = r.u16()?;
        Ok(match r.u16()? {
            0 => Coder::None,
            1 => Coder::Rle,
            2 => Coder::Nbit {
                number_type: r.i32()?,
                sign_extend: r.u16()? != 0,
                fill_one: r.u16()? != 0,
                start_bit: r.i32()?,
                bit_len: r.i32()?,
            },
            3 => {
                let skip_size = r.u32()?;
                let _count = r.u32()?;
                Coder::SkippingHuffman { skip_size }
            }
            4 => Coder::Deflate { level: r.u16()? },
            5 => Coder::Szip {
                pixels: r.u32()?,
                pixels_per_scanline: r.u32()?,
                options_mask: r.u32()?,
                bits_per_pixel: r.u8()?,
                pixels_per_block: r.u8()?,
            },
            c => return Err(Error::at(at, format!("unknown compression coder {c}"))),
        })
    }

    /// Decodes `stored` to exactly `length` bytes (a short stream is an error).
    pub fn decode_bytes(&self, stored: &[u8], length: usize) -> Result<Vec<u8>> {
        let out = match self {
            Coder::None => stored.get(..length).map(<[u8]>::to_vec),
            Coder::Rle => rle(stored, length),
            Coder::Deflate { .. } => inflate(stored, length),
            Coder::SkippingHuffman { skip_size } => skipping_huffman(stored, length, *skip_size),
            Coder::Nbit {
                number_type,
                sign_extend,
                fill_one,
                start_bit,
                bit_len,
            } => {
                let size = crate::types::NumberType::from_code(*number_type as u16)
                    .map(|t| t.size())
                    .ok_or_else(|| Error::new(format!("n-bit number type {number_type}")))?;
                let field = NbitField {
                    size,
                    sign_extend: *sign_extend,
                    fill_one: *fill_one,
                    start_bit: *start_bit,
                    bit_len: *bit_len,
                };
                nbit(stored, length, &field)
            }
            Coder::Szip {
                pixels_per_scanline,
                options_mask,
                bits_per_pixel,
                pixels_per_block,
                ..
            } => {
                let params = [
                    options_mask & !SZ_H4_REV_2,
                    u32::from(*pixels_per_block),
                    u32::from(*bits_per_pixel),
                    *pixels_per_scanline,
                ];
                return szip(stored, length, options_mask & SZ_H4_REV_2 != 0, &params);
            }
        };
        out.ok_or_else(|| Error::new("compressed data ends early or is corrupt"))
    }
}

fn rle(mut s: &[u8], length: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(length.min(1 << 24));
    while out.len() < length {
        let (&c, rest) = s.split_first()?;
        if c & 0x80 != 0 {
            let (&b, rest) = rest.split_first()?;
            let n = usize::from(c & 0x7f) + 3;
            out.resize(out.len() + n.min(length - out.len()), b);
            s = rest;
        } else {
            let n = usize::from(c) + 1;
            let lit = rest.get(..n)?;
            out.extend_from_slice(&lit[..n.min(length - out.len())]);
            s = &rest[n..];
        }
    }
    Some(out)
}

/// The parameters of n-bit data.
struct NbitField {
    size: usize,
    sign_extend: bool,
    fill_one: bool,
    start_bit: i32,
    bit_len: i32,
}

fn nbit(s: &[u8], length: usize, f: &NbitField) -> Option<Vec<u8>> {
    let bits = f.size * 8;
    let (top, len) = (
        usize::try_from(f.start_bit).ok()?,
        usize::try_from(f.bit_len).ok()?,
    );
    if f.size == 0
        || f.size > 8
        || len == 0
        || top >= bits
        || len > top + 1
        || !length.is_multiple_of(f.size)
    {
        return None;
    }
    let all: u64 = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let low = top + 1 - len;
    let field_mask: u64 = (if len == 64 { u64::MAX } else { (1 << len) - 1 }) << low;
    let above: u64 = all
        & !(if top + 1 >= 64 {
            u64::MAX
        } else {
            (1u64 << (top + 1)) - 1
        });
    let base = if f.fill_one { all & !field_mask } else { 0 };
    let mut out = Vec::with_capacity(length.min(1 << 24));
    let mut bit = 0usize;
    let total = s.len() * 8;
    while out.len() < length {
        if bit + len > total {
            return None;
        }
        let mut field = 0u64;
        for _ in 0..len {
            field = (field << 1) | u64::from((s[bit / 8] >> (7 - bit % 8)) & 1);
            bit += 1;
        }
        let mut v = base | (field << low);
        if f.sign_extend {
            if field >> (len - 1) & 1 == 1 {
                v |= above;
            } else {
                v &= !above;
            }
        }
        out.extend_from_slice(&v.to_be_bytes()[8 - f.size..]);
    }
    Some(out)
}

/// The options bit that marks HDF 4.2r1's framing of szip data (`SZ_H4_REV_2`).
const SZ_H4_REV_2: u32 = 0x10000;

fn szip(stored: &[u8], length: usize, framed: bool, params: &[u32; 4]) -> Result<Vec<u8>> {
    let coded = if framed {
        let (&flag, rest) = stored
            .split_first()
            .ok_or_else(|| Error::new("szip data is empty"))?;
        let n = rest
            .get(..4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or_else(|| Error::new("szip data ends early"))?;
        let body = rest
            .get(4..4 + n)
            .ok_or_else(|| Error::new("szip data ends early"))?;
        if flag == 1 {
            let mut out = body
                .get(..length.min(body.len()))
                .unwrap_or_default()
                .to_vec();
            out.resize(length, 0);
            return Ok(out);
        }
        body
    } else {
        stored
    };
    // purecdf-hdf5's filter takes HDF5's framing: the decoded size (little-endian), then the
    // coded stream.
    let mut hdf5 = Vec::with_capacity(coded.len() + 4);
    hdf5.extend_from_slice(&(length as u32).to_le_bytes());
    hdf5.extend_from_slice(coded);
    let f = purecdf_hdf5::filter::build(purecdf_hdf5::filter::SZIP, params, 1)
        .map_err(|e| Error::new(format!("szip: {e}")))?;
    let out = f
        .decode(hdf5, length)
        .map_err(|e| Error::new(format!("szip: {e}")))?;
    if out.len() != length {
        return Err(Error::new("szip data decodes to the wrong size"));
    }
    Ok(out)
}

/// One splay tree of the skipping Huffman code.
struct SplayTree {
    left: [u16; 256],
    right: [u16; 256],
    up: [u8; 513],
}

impl SplayTree {
    fn new() -> SplayTree {
        let mut t = SplayTree {
            left: [0; 256],
            right: [0; 256],
            up: [0; 513],
        };
        for (i, u) in t.up.iter_mut().enumerate() {
            *u = (i >> 1) as u8;
        }
        for j in 0..256 {
            t.left[j] = (2 * j) as u16;
            t.right[j] = (2 * j + 1) as u16;
        }
        t
    }

    /// Moves the leaf of `plain` up the tree.
    fn splay(&mut self, plain: u8) {
        let mut a = usize::from(plain) + 256;
        loop {
            let c = usize::from(self.up[a]);
            if c == 0 {
                return;
            }
            let d = usize::from(self.up[c]);
            let mut b = usize::from(self.left[d]);
            if c == b {
                b = usize::from(self.right[d]);
                self.right[d] = a as u16;
            } else {
                self.left[d] = a as u16;
            }
            if a == usize::from(self.left[c]) {
                self.left[c] = b as u16;
            } else {
                self.right[c] = b as u16;
            }
            self.up[a] = d as u8;
            self.up[b] = c as u8;
            a = d;
            if a == 0 {
                return;
            }
        }
    }
}

fn skipping_huffman(s: &[u8], length: usize, skip_size: u32) -> Option<Vec<u8>> {
    let skip = skip_size as usize;
    if skip == 0 || skip > 1 << 16 {
        return None;
    }
    let mut trees: Vec<SplayTree> = (0..skip.min(length.max(1)))
        .map(|_| SplayTree::new())
        .collect();
    let mut out = Vec::with_capacity(length.min(1 << 24));
    let mut bit = 0usize;
    let total_bits = s.len() * 8;
    while out.len() < length {
        let t = &mut trees[out.len() % skip];
        let mut a = 0usize;
        while a < 256 {
            if bit >= total_bits {
                return None;
            }
            let b = (s[bit / 8] >> (7 - bit % 8)) & 1;
            bit += 1;
            a = usize::from(if b == 0 { t.left[a] } else { t.right[a] });
        }
        let plain = (a - 256) as u8;
        t.splay(plain);
        out.push(plain);
    }
    Some(out)
}

fn inflate(s: &[u8], length: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(length.min(1 << 24));
    let d = flate2::read::ZlibDecoder::new(s);
    d.take(length as u64).read_to_end(&mut out).ok()?;
    (out.len() == length).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn szip_in_hdf4_framing() {
        // Coded by purecdf-hdf5's szip encoder, framed as HDF 4.2r1 frames it.
        let values: Vec<u8> = (0..256u32)
            .flat_map(|i| ((i * 7) % 300).to_be_bytes())
            .collect();
        let params = [16 | 32, 8, 32, 64];
        let f = purecdf_hdf5::filter::build(purecdf_hdf5::filter::SZIP, &params, 4).unwrap();
        let hdf5 = f.encode(values.clone()).unwrap();
        let coded = &hdf5[4..];
        let mut stored = vec![0u8];
        stored.extend_from_slice(&(coded.len() as u32).to_be_bytes());
        stored.extend_from_slice(coded);
        let coder = Coder::Szip {
            pixels: 256,
            pixels_per_scanline: 64,
            options_mask: 16 | 32 | SZ_H4_REV_2,
            bits_per_pixel: 32,
            pixels_per_block: 8,
        };
        assert_eq!(coder.decode_bytes(&stored, values.len()).unwrap(), values);
        // The uncompressed escape.
        let mut raw = vec![1u8];
        raw.extend_from_slice(&4u32.to_be_bytes());
        raw.extend_from_slice(b"abcd");
        assert_eq!(coder.decode_bytes(&raw, 4).unwrap(), b"abcd");
    }

    #[test]
    fn nbit_fields() {
        // 16-bit values, 4 bits ending at bit 5, sign-extended: fields 0b1010, 0b0101 packed
        // as 1010_0101.
        let f = NbitField {
            size: 2,
            sign_extend: true,
            fill_one: false,
            start_bit: 5,
            bit_len: 4,
        };
        let out = nbit(&[0b1010_0101], 4, &f).unwrap();
        assert_eq!(out, [0xff, 0xe8, 0x00, 0x14]);
    }

    #[test]
    fn rle_runs_and_literals() {
        // A run of 5 'a', then 2 literals.
        let s = [0x80 | 2, b'a', 1, b'x', b'y'];
        assert_eq!(rle(&s, 7).unwrap(), b"aaaaaxy");
        assert!(rle(&s, 8).is_none());
    }
}
