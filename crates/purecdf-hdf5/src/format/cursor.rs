//! A bounded little-endian cursor over one structure's bytes (HDF5 is little-endian throughout),
//! aware of the file's offset and length widths. Reading past the end is an error naming the
//! file offset; `split` hands out a sub-cursor over exactly the next `len` bytes.

use crate::error::{FormatError, FormatErrorKind, FormatResult};

/// The superblock's width parameters, validated once (2, 4 or 8 bytes each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeParams {
    /// Size of offsets (addresses) in bytes.
    pub offset_size: u8,
    /// Size of lengths in bytes.
    pub length_size: u8,
}

impl SizeParams {
    /// Validates the widths.
    pub fn new(offset_size: u8, length_size: u8, at: u64) -> FormatResult<SizeParams> {
        for v in [offset_size, length_size] {
            if !matches!(v, 2 | 4 | 8) {
                return Err(FormatError::new(
                    FormatErrorKind::BadSizeField(v),
                    at,
                    "superblock",
                ));
            }
        }
        Ok(SizeParams {
            offset_size,
            length_size,
        })
    }
}

/// The undefined address (all bits set) becomes `None`.
pub fn defined(addr: u64, size: u8) -> Option<u64> {
    let undef = if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (u32::from(size) * 8)) - 1
    };
    (addr != undef).then_some(addr)
}

/// A cursor over `data`, whose first byte is at file address `base`.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
    structure: &'static str,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data` located at file address `base`, parsing `structure`.
    pub fn new(data: &'a [u8], base: u64, structure: &'static str) -> Self {
        Cursor {
            data,
            pos: 0,
            base,
            structure,
        }
    }

    /// File address of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Position relative to the start of this cursor.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The bytes consumed so far (for checksums).
    pub fn consumed(&self) -> &'a [u8] {
        &self.data[..self.pos]
    }

    /// An error of `kind` at the current offset.
    pub fn error(&self, kind: FormatErrorKind) -> FormatError {
        FormatError::new(kind, self.offset(), self.structure)
    }

    /// Takes the next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> FormatResult<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(FormatErrorKind::UnexpectedEof {
                wanted: n as u64,
                available: self.remaining() as u64,
            }));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> FormatResult<()> {
        self.bytes(n).map(|_| ())
    }

    /// A sub-cursor over the next `len` bytes; this cursor moves past them.
    pub fn split(&mut self, len: usize) -> FormatResult<Cursor<'a>> {
        let base = self.offset();
        let data = self.bytes(len)?;
        Ok(Cursor {
            data,
            pos: 0,
            base,
            structure: self.structure,
        })
    }

    /// Same bytes, another structure name for errors.
    pub fn named(mut self, structure: &'static str) -> Self {
        self.structure = structure;
        self
    }

    /// Reads one byte.
    pub fn u8(&mut self) -> FormatResult<u8> {
        Ok(self.bytes(1)?[0])
    }

    /// Reads a little-endian u16.
    pub fn u16(&mut self) -> FormatResult<u16> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian u32.
    pub fn u32(&mut self) -> FormatResult<u32> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// Reads a little-endian u64.
    pub fn u64(&mut self) -> FormatResult<u64> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// Reads a fixed-size array.
    pub fn array<const N: usize>(&mut self) -> FormatResult<[u8; N]> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.bytes(N)?);
        Ok(a)
    }

    /// Reads a little-endian unsigned integer of `size` bytes (1..=8).
    pub fn uint(&mut self, size: u8) -> FormatResult<u64> {
        let b = self.bytes(usize::from(size))?;
        if size > 8 {
            return Err(self.error(FormatErrorKind::BadSizeField(size)));
        }
        Ok(b.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
    }

    /// Reads an address of the file's offset width; the undefined address gives `None`.
    pub fn addr(&mut self, p: SizeParams) -> FormatResult<Option<u64>> {
        Ok(defined(self.uint(p.offset_size)?, p.offset_size))
    }

    /// Reads a length of the file's length width.
    pub fn length(&mut self, p: SizeParams) -> FormatResult<u64> {
        self.uint(p.length_size)
    }

    /// Reads a length and converts it to `usize`, failing if it exceeds what remains.
    pub fn length_within(&mut self, p: SizeParams) -> FormatResult<usize> {
        let at = self.offset();
        let n = self.length(p)?;
        if n > self.remaining() as u64 {
            return Err(FormatError::new(
                FormatErrorKind::UnexpectedEof {
                    wanted: n,
                    available: self.remaining() as u64,
                },
                at,
                self.structure,
            ));
        }
        Ok(n as usize)
    }

    /// Expects the given signature.
    pub fn signature(&mut self, sig: &[u8; 4]) -> FormatResult<()> {
        let at = self.offset();
        let got: [u8; 4] = self.array()?;
        if &got != sig {
            return Err(FormatError::new(
                FormatErrorKind::BadSignature(got),
                at,
                self.structure,
            ));
        }
        Ok(())
    }

    /// Reads a NUL-terminated string (the NUL is consumed, not returned).
    pub fn cstr(&mut self) -> FormatResult<&'a [u8]> {
        let rest = &self.data[self.pos..];
        match rest.iter().position(|&b| b == 0) {
            Some(n) => {
                self.pos += n + 1;
                Ok(&rest[..n])
            }
            None => Err(self.error(FormatErrorKind::UnexpectedEof {
                wanted: rest.len() as u64 + 1,
                available: rest.len() as u64,
            })),
        }
    }

    /// Reads and checks a trailing lookup3 checksum over everything consumed so far.
    pub fn verify_checksum(&mut self) -> FormatResult<()> {
        let computed = crate::format::checksum::lookup3(self.consumed());
        let at = self.offset();
        let stored = self.u32()?;
        if stored != computed {
            return Err(FormatError::new(
                FormatErrorKind::ChecksumMismatch {
                    expected: stored,
                    actual: computed,
                },
                at,
                self.structure,
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reads_and_widths() {
        let data = [1u8, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, b'a', 0];
        let mut c = Cursor::new(&data, 100, "test");
        assert_eq!(c.u16().unwrap(), 0x0201);
        let p = SizeParams::new(4, 4, 0).unwrap();
        assert_eq!(c.uint(2).unwrap(), 0x0403);
        assert_eq!(c.addr(p).unwrap(), None);
        assert_eq!(c.cstr().unwrap(), b"a");
        let e = c.u8().unwrap_err();
        assert_eq!(e.offset, 110);
        assert!(matches!(
            e.kind,
            FormatErrorKind::UnexpectedEof {
                wanted: 1,
                available: 0
            }
        ));
        assert!(SizeParams::new(3, 8, 0).is_err());
        let mut c = Cursor::new(&data, 0, "test");
        let mut sub = c.split(3).unwrap();
        assert_eq!(sub.offset(), 0);
        assert!(sub.u32().is_err());
        assert_eq!(c.offset(), 3);
    }
}
