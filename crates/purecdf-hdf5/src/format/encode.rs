//! The write side of [`Cursor`](crate::format::cursor::Cursor): a little-endian byte builder
//! that knows the file's offset and length widths, used by every structure's `encode`.
//! HDF5 stores every multi-byte field little-endian (HDF5 File Format Specification v3.0,
//! section I "Introduction", conventions).

use crate::format::cursor::SizeParams;

/// Appends little-endian fields to a byte vector.
#[derive(Debug, Clone)]
pub struct Encoder {
    buf: Vec<u8>,
    sizes: SizeParams,
}

impl Encoder {
    /// An empty encoder for a file with these widths.
    pub fn new(sizes: SizeParams) -> Encoder {
        Encoder {
            buf: Vec::new(),
            sizes,
        }
    }

    /// The widths.
    pub fn sizes(&self) -> SizeParams {
        self.sizes
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    /// Two bytes.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// Four bytes.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// Eight bytes.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// The low `width` bytes of `v` (1 to 8).
    pub fn uint(&mut self, v: u64, width: u8) -> &mut Self {
        let b = v.to_le_bytes();
        self.buf.extend_from_slice(&b[..usize::from(width.min(8))]);
        self
    }

    /// An address (`None`: the undefined address, all bits set).
    pub fn addr(&mut self, a: Option<u64>) -> &mut Self {
        let w = self.sizes.offset_size;
        self.uint(a.unwrap_or(u64::MAX), w)
    }

    /// A length.
    pub fn length(&mut self, v: u64) -> &mut Self {
        let w = self.sizes.length_size;
        self.uint(v, w)
    }

    /// Raw bytes.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// `n` zero bytes.
    pub fn zeros(&mut self, n: usize) -> &mut Self {
        self.buf.resize(self.buf.len() + n, 0);
        self
    }

    /// Zero bytes up to the next multiple of `align` (counted from the start of the buffer).
    pub fn pad_to(&mut self, align: usize) -> &mut Self {
        let rem = self.buf.len() % align;
        if rem != 0 {
            self.zeros(align - rem);
        }
        self
    }

    /// Overwrites four bytes at `at` (for sizes known only after the body).
    pub fn patch_u32(&mut self, at: usize, v: u32) {
        self.buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// Appends the lookup3 checksum of everything written since `from`.
    pub fn checksum_from(&mut self, from: usize) -> &mut Self {
        let sum = crate::format::checksum::lookup3(&self.buf[from..]);
        self.u32(sum)
    }
}

/// The fewest bytes (1 to 8) that can hold `v`.
pub fn width_of(v: u64) -> u8 {
    let bits = 64 - v.leading_zeros();
    (bits.div_ceil(8)).max(1) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_widths() {
        let s = SizeParams::new(8, 4, 0).unwrap();
        let mut e = Encoder::new(s);
        e.u8(1).u16(0x0302).addr(None).length(7).uint(0x0a0b0c, 3);
        assert_eq!(
            e.as_slice(),
            &[1, 2, 3, 255, 255, 255, 255, 255, 255, 255, 255, 7, 0, 0, 0, 0x0c, 0x0b, 0x0a]
        );
        assert_eq!(width_of(0), 1);
        assert_eq!(width_of(255), 1);
        assert_eq!(width_of(256), 2);
        assert_eq!(width_of(u64::MAX), 8);
    }
}
