//! The coders of compressed elements (`hcomp.c`, `HCPdecode_header`; `crle.c`, `cdeflate.c`):
//! after a 2-byte model type (always 0, "standard") comes a 2-byte coder type and its
//! parameters: n-bit (2) number type, sign-extend and fill-one flags, bit offset and length;
//! skipping Huffman (3) skip size and a byte count; deflate (4) a level; szip (5) pixels, pixels
//! per scanline, options mask, bits per pixel and pixels per block. RLE (1) and none (0) have
//! none.
//!
//! RLE: a control byte with bit 0x80 set starts a run of `(c & 0x7f) + 3` copies of the next
//! byte; otherwise `c + 1` literal bytes follow. Deflate: a zlib stream.

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
            Coder::SkippingHuffman { .. } => {
                return Err(Error::new(
                    "skipping Huffman decoding is not implemented yet",
                ))
            }
            Coder::Nbit { .. } => return Err(Error::new("n-bit decoding is not implemented yet")),
            Coder::Szip { .. } => return Err(Error::new("szip decoding is not implemented yet")),
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
    fn rle_runs_and_literals() {
        // A run of 5 'a', then 2 literals.
        let s = [0x80 | 2, b'a', 1, b'x', b'y'];
        assert_eq!(rle(&s, 7).unwrap(), b"aaaaaxy");
        assert!(rle(&s, 8).is_none());
    }
}
