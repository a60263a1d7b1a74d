//! HDF4 number types (`hntdefs.h`): `DFNT_*` codes, with bit 0x4000 for little-endian storage
//! (`DFNT_LITEND`) and 0x1000 for native (`DFNT_NATIVE`).

/// An HDF4 number type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberType {
    /// The base code (`DFNT_FLOAT32`, `DFNT_INT16`, ...), without format bits.
    pub base: u16,
    /// True when values are stored little-endian.
    pub little_endian: bool,
}

/// `DFNT_UCHAR8`.
pub const DFNT_UCHAR8: u16 = 3;
/// `DFNT_CHAR8`.
pub const DFNT_CHAR8: u16 = 4;
/// `DFNT_FLOAT32`.
pub const DFNT_FLOAT32: u16 = 5;
/// `DFNT_FLOAT64`.
pub const DFNT_FLOAT64: u16 = 6;
/// `DFNT_INT8`.
pub const DFNT_INT8: u16 = 20;
/// `DFNT_UINT8`.
pub const DFNT_UINT8: u16 = 21;
/// `DFNT_INT16`.
pub const DFNT_INT16: u16 = 22;
/// `DFNT_UINT16`.
pub const DFNT_UINT16: u16 = 23;
/// `DFNT_INT32`.
pub const DFNT_INT32: u16 = 24;
/// `DFNT_UINT32`.
pub const DFNT_UINT32: u16 = 25;
/// `DFNT_INT64`.
pub const DFNT_INT64: u16 = 26;
/// `DFNT_UINT64`.
pub const DFNT_UINT64: u16 = 27;

impl NumberType {
    /// The number type of a code; `None` for codes this reader does not know.
    pub fn from_code(code: u16) -> Option<NumberType> {
        let base = code & 0x0fff;
        let nt = NumberType {
            base,
            little_endian: code & 0x4000 != 0,
        };
        (nt.size_of_base() != 0).then_some(nt)
    }

    fn size_of_base(self) -> usize {
        match self.base {
            DFNT_UCHAR8 | DFNT_CHAR8 | DFNT_INT8 | DFNT_UINT8 => 1,
            DFNT_INT16 | DFNT_UINT16 => 2,
            DFNT_FLOAT32 | DFNT_INT32 | DFNT_UINT32 => 4,
            DFNT_FLOAT64 | DFNT_INT64 | DFNT_UINT64 => 8,
            _ => 0,
        }
    }

    /// Bytes per value.
    pub fn size(self) -> usize {
        self.size_of_base()
    }

    /// The code with format bits, as `SDgetinfo` reports it.
    pub fn code(self) -> u16 {
        self.base | if self.little_endian { 0x4000 } else { 0 }
    }
}
