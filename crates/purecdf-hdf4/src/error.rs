//! The one error type of this crate: what is wrong, and where in the file when known.

use std::fmt;

/// A malformed, truncated or unsupported HDF4 file, or an I/O failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub message: String,
    /// The file offset of the structure at fault, when known.
    pub offset: Option<u64>,
}

impl Error {
    /// An error with a message and no offset.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            offset: None,
        }
    }

    /// An error at a file offset.
    pub fn at(offset: u64, message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            offset: Some(offset),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(o) => write!(f, "{} (at offset {o})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::new(e.to_string())
    }
}

/// This crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// Big-endian reads from a byte slice that fail cleanly at its end.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// File offset of `data[0]`, for messages.
    base: u64,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8], base: u64) -> Reader<'a> {
        Reader { data, pos: 0, base }
    }

    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        match end {
            Some(end) => {
                let s = &self.data[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(Error::at(
                self.base + self.pos as u64,
                format!("structure ends early (wanted {n} more bytes)"),
            )),
        }
    }

    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self) -> Result<u32> {
        let b = self.bytes(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn i32(&mut self) -> Result<i32> {
        Ok(self.u32()? as i32)
    }

    /// A string of `n` bytes, cut at its first NUL as HDF4 copies names.
    pub(crate) fn string(&mut self, n: usize) -> Result<String> {
        let b = self.bytes(n)?;
        let b = b.split(|&c| c == 0).next().unwrap_or(b);
        Ok(String::from_utf8_lossy(b).into_owned())
    }

    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }
}
