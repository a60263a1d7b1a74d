//! Zarr v2 `dtype` strings (NumPy array-protocol type strings, Zarr v2 spec "Data type
//! encoding") and the netCDF types they read as, as netcdf-c 4.9/4.10 map them
//! (`../shared/spec/nczarr.md`, "Zarr vs NCZarr"), plus the string types netcdf-c does not read.

use crate::model::NcType;

/// How the elements of an array are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dtype {
    /// A fixed-size number: `<i4`, `>f8`, `|u1`, ...; `big_endian` is false for `|`.
    Number {
        /// The netCDF type.
        typ: NcType,
        /// True for `>`.
        big_endian: bool,
    },
    /// `|b1`: one byte, 0 or 1; read as NC_UBYTE.
    Bool,
    /// An NCZarr character: netcdf-c writes NC_CHAR as `<U1`/`>U1` (4.8, 4.9) or `>S1` (4.10),
    /// one byte per element whatever the spelling says.
    Char,
    /// `|Sn`: fixed-length byte strings of `n` bytes, NUL-padded; read as NC_STRING.
    FixedBytes(usize),
    /// `<Un` / `>Un`: fixed-length UTF-32 strings of `n` code points; read as NC_STRING.
    FixedUnicode {
        /// Code points per element.
        len: usize,
        /// True for `>`.
        big_endian: bool,
    },
    /// `|O` with the `vlen-utf8` codec: variable-length UTF-8 strings; read as NC_STRING.
    VlenUtf8,
}

impl Dtype {
    /// Parses a dtype string. `nczarr` selects netcdf-c's NCZarr reading of one-character
    /// types as NC_CHAR. `None` for types netCDF cannot hold (complex, datetime, structured).
    pub(crate) fn parse(s: &str, nczarr: bool) -> Option<Dtype> {
        let b = s.as_bytes();
        let (big, rest) = match b.first()? {
            b'<' => (false, &s[1..]),
            b'>' => (true, &s[1..]),
            b'|' | b'=' => (false, &s[1..]),
            _ => (false, s),
        };
        if rest == "O" {
            return Some(Dtype::VlenUtf8);
        }
        let mut chars = rest.chars();
        let kind = chars.next()?;
        let size: usize = chars.as_str().parse().ok()?;
        Some(match (kind, size) {
            ('i', 1) => num(NcType::Byte, big),
            ('i', 2) => num(NcType::Short, big),
            ('i', 4) => num(NcType::Int, big),
            ('i', 8) => num(NcType::Int64, big),
            ('u', 1) => num(NcType::UByte, big),
            ('u', 2) => num(NcType::UShort, big),
            ('u', 4) => num(NcType::UInt, big),
            ('u', 8) => num(NcType::UInt64, big),
            ('f', 4) => num(NcType::Float, big),
            ('f', 8) => num(NcType::Double, big),
            ('b', 1) => Dtype::Bool,
            ('U', 1) if nczarr => Dtype::Char,
            ('S', 1) if nczarr && big => Dtype::Char,
            ('S', n) if n > 0 => Dtype::FixedBytes(n),
            ('U', n) if n > 0 => Dtype::FixedUnicode {
                len: n,
                big_endian: big,
            },
            ('O', _) => Dtype::VlenUtf8,
            _ => return None,
        })
    }

    /// The netCDF type of the values.
    pub(crate) fn nc_type(self) -> NcType {
        match self {
            Dtype::Number { typ, .. } => typ,
            Dtype::Bool => NcType::UByte,
            Dtype::Char => NcType::Char,
            Dtype::FixedBytes(_) | Dtype::FixedUnicode { .. } | Dtype::VlenUtf8 => NcType::String,
        }
    }

    /// Bytes per stored element; `None` for variable-length strings.
    pub(crate) fn stored_size(self) -> Option<usize> {
        match self {
            Dtype::Number { typ, .. } => typ.atomic_size(),
            Dtype::Bool | Dtype::Char => Some(1),
            Dtype::FixedBytes(n) => Some(n),
            Dtype::FixedUnicode { len, .. } => len.checked_mul(4),
            Dtype::VlenUtf8 => None,
        }
    }

    /// True when stored elements are big-endian numbers (the reader swaps them).
    pub(crate) fn is_big_endian(self) -> bool {
        matches!(
            self,
            Dtype::Number {
                big_endian: true,
                ..
            }
        )
    }
}

fn num(typ: NcType, big_endian: bool) -> Dtype {
    Dtype::Number { typ, big_endian }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtypes() {
        assert_eq!(Dtype::parse("<i4", true), Some(num(NcType::Int, false)));
        assert_eq!(Dtype::parse(">f8", false), Some(num(NcType::Double, true)));
        assert_eq!(Dtype::parse("|u1", false), Some(num(NcType::UByte, false)));
        assert_eq!(Dtype::parse("<U1", true), Some(Dtype::Char));
        assert_eq!(
            Dtype::parse("<U1", false),
            Some(Dtype::FixedUnicode {
                len: 1,
                big_endian: false
            })
        );
        assert_eq!(Dtype::parse(">S1", true), Some(Dtype::Char));
        assert_eq!(Dtype::parse("|S5", true), Some(Dtype::FixedBytes(5)));
        assert_eq!(Dtype::parse("|O", false), Some(Dtype::VlenUtf8));
        assert_eq!(Dtype::parse("|b1", false), Some(Dtype::Bool));
        for bad in ["", "<", "<c8", "<M8[ns]", "<i3", "<S0", "<i"] {
            assert_eq!(Dtype::parse(bad, true), None, "{bad}");
        }
    }
}
