//! Parse errors of the HDF5 layer: a small `Copy` kind that carries the offending value, the file
//! offset where it was found and the structure being parsed (as gimli's errors do).

use std::fmt;

/// What was wrong with the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatErrorKind {
    /// The structure runs past the end of its enclosing block or of the file.
    UnexpectedEof {
        /// Bytes wanted.
        wanted: u64,
        /// Bytes available.
        available: u64,
    },
    /// A signature (magic bytes) did not match.
    BadSignature([u8; 4]),
    /// No HDF5 file signature at any of the allowed superblock offsets.
    NoSuperblock,
    /// A version number this reader does not know.
    UnsupportedVersion(u8),
    /// A size field (offset or length width) outside 2, 4, 8.
    BadSizeField(u8),
    /// A Jenkins lookup3 checksum did not match.
    ChecksumMismatch {
        /// Stored checksum.
        expected: u32,
        /// Computed checksum.
        actual: u32,
    },
    /// A value that cannot be valid in this field.
    InvalidValue(u64),
    /// An address pointing outside the file.
    AddressOutOfRange(u64),
    /// A cycle in structures that must form a tree or chain (continuations, B-tree nodes).
    Cycle(u64),
    /// A configured limit was exceeded (message count, depth, size).
    LimitExceeded(u64),
    /// An unknown message that is marked "fail if unknown".
    UnknownMessage(u16),
    /// The superblock's status flags (version 3) say a writer has the file open, or died with
    /// it open: HDF5 refuses to open it until `h5clear` resets them.
    OpenForWriting(u32),
}

/// A parse error: kind, file offset and the structure being parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatError {
    /// What was wrong.
    pub kind: FormatErrorKind,
    /// File offset (address) where it was found.
    pub offset: u64,
    /// Which structure was being parsed ("superblock", "object header", ...).
    pub structure: &'static str,
}

impl FormatError {
    /// A new error.
    pub fn new(kind: FormatErrorKind, offset: u64, structure: &'static str) -> Self {
        FormatError {
            kind,
            offset,
            structure,
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {:#x}: ", self.structure, self.offset)?;
        match self.kind {
            FormatErrorKind::UnexpectedEof { wanted, available } => {
                write!(f, "needs {wanted} bytes, only {available} remain")
            }
            FormatErrorKind::BadSignature(s) => {
                write!(f, "bad signature {:?}", String::from_utf8_lossy(&s))
            }
            FormatErrorKind::NoSuperblock => write!(f, "no HDF5 superblock found"),
            FormatErrorKind::UnsupportedVersion(v) => write!(f, "unsupported version {v}"),
            FormatErrorKind::BadSizeField(v) => write!(f, "invalid size field {v}"),
            FormatErrorKind::ChecksumMismatch { expected, actual } => {
                write!(
                    f,
                    "checksum mismatch (stored {expected:#010x}, computed {actual:#010x})"
                )
            }
            FormatErrorKind::InvalidValue(v) => write!(f, "invalid value {v}"),
            FormatErrorKind::AddressOutOfRange(a) => {
                write!(f, "address {a:#x} is outside the file")
            }
            FormatErrorKind::Cycle(a) => write!(f, "cycle through address {a:#x}"),
            FormatErrorKind::LimitExceeded(v) => write!(f, "limit exceeded ({v})"),
            FormatErrorKind::UnknownMessage(t) => {
                write!(f, "unknown message type {t} marked fail-if-unknown")
            }
            FormatErrorKind::OpenForWriting(flags) => write!(
                f,
                "file is open for writing, or its writer did not close it (status flags {flags:#04x})"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// Result alias of the format layer.
pub type FormatResult<T> = Result<T, FormatError>;
