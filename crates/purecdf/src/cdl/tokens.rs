//! CDL token kinds and the special attribute names (netcdf-c `ncgen/ncgen.l` token list and
//! `specials` table), with the names bison's verbose syntax errors give them
//! (`ncgen-features.md` §1, §3).

use super::ast::ConstKind;

/// Special (virtual) attribute names recognised by the scanner (ncgen.l `SPECIAL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// `_FillValue`
    FillValue,
    /// `_Format`
    Format,
    /// `_Storage`
    Storage,
    /// `_ChunkSizes`
    ChunkSizes,
    /// `_Fletcher32`
    Fletcher32,
    /// `_DeflateLevel`
    DeflateLevel,
    /// `_Shuffle`
    Shuffle,
    /// `_Endianness`
    Endianness,
    /// `_NoFill`
    NoFill,
    /// `_NCProperties`
    NcProperties,
    /// `_IsNetcdf4`
    IsNetcdf4,
    /// `_SuperblockVersion`
    Superblock,
    /// `_Filter`
    Filter,
    /// `_Codecs`
    Codecs,
    /// `_QuantizeGranularBitRoundNumberOfSignificantDigits`
    QuantizeGbr,
    /// `_QuantizeBitRoundNumberOfSignificantBits`
    QuantizeBr,
}

impl Special {
    /// The attribute name as written in CDL.
    pub fn name(self) -> &'static str {
        match self {
            Special::FillValue => "_FillValue",
            Special::Format => "_Format",
            Special::Storage => "_Storage",
            Special::ChunkSizes => "_ChunkSizes",
            Special::Fletcher32 => "_Fletcher32",
            Special::DeflateLevel => "_DeflateLevel",
            Special::Shuffle => "_Shuffle",
            Special::Endianness => "_Endianness",
            Special::NoFill => "_NoFill",
            Special::NcProperties => "_NCProperties",
            Special::IsNetcdf4 => "_IsNetcdf4",
            Special::Superblock => "_SuperblockVersion",
            Special::Filter => "_Filter",
            Special::Codecs => "_Codecs",
            Special::QuantizeGbr => "_QuantizeGranularBitRoundNumberOfSignificantDigits",
            Special::QuantizeBr => "_QuantizeBitRoundNumberOfSignificantDigits",
        }
    }
}

pub(crate) const SPECIALS: [Special; 16] = [
    Special::FillValue,
    Special::Format,
    Special::Storage,
    Special::ChunkSizes,
    Special::Fletcher32,
    Special::DeflateLevel,
    Special::Shuffle,
    Special::Endianness,
    Special::NoFill,
    Special::NcProperties,
    Special::IsNetcdf4,
    Special::Superblock,
    Special::Filter,
    Special::Codecs,
    Special::QuantizeGbr,
    Special::QuantizeBr,
];

/// The misspelled name in ncgen.l's SPECIAL pattern: it scans as a special whose table lookup
/// fails, and the scanner then returns end of input.
pub(crate) const BROKEN_SPECIAL: &str = "_QuantizeBitgroomNumberOfSignificantDIgits";

/// A CDL token.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Netcdf,
    DatasetId(String),
    Types,
    Dimensions,
    Variables,
    Data,
    Group,
    Compound,
    Enum,
    Opaque,
    /// A primitive type keyword.
    TypeKw(crate::NcType),
    Unlimited,
    Ident(String),
    /// An absolute path `/a/b` (components unescaped); `/` alone is an empty vector.
    Path(Vec<String>),
    /// A constant (numbers, strings, char constants, opaque hex, NaN...).
    Const(ConstKind),
    FillMarker,
    Nil,
    Special(Special),
    /// Any other single byte (`{ } ( ) = , ; : *` ...).
    Punct(u8),
    Eof,
}

impl Tok {
    /// The name bison's verbose messages give this token.
    pub(crate) fn bison_name(&self) -> String {
        use ConstKind as C;
        match self {
            Tok::Netcdf => "NETCDF".into(),
            Tok::DatasetId(_) => "DATASETID".into(),
            Tok::Types => "TYPES".into(),
            Tok::Dimensions => "DIMENSIONS".into(),
            Tok::Variables => "VARIABLES".into(),
            Tok::Data => "DATA".into(),
            Tok::Group => "GROUP".into(),
            Tok::Compound => "COMPOUND".into(),
            Tok::Enum => "ENUM".into(),
            Tok::Opaque => "OPAQUE_".into(),
            Tok::TypeKw(t) => match t {
                crate::NcType::Char => "CHAR_K",
                crate::NcType::Byte => "BYTE_K",
                crate::NcType::Short => "SHORT_K",
                crate::NcType::Int => "INT_K",
                crate::NcType::Float => "FLOAT_K",
                crate::NcType::Double => "DOUBLE_K",
                crate::NcType::UByte => "UBYTE_K",
                crate::NcType::UShort => "USHORT_K",
                crate::NcType::UInt => "UINT_K",
                crate::NcType::Int64 => "INT64_K",
                crate::NcType::UInt64 => "UINT64_K",
                _ => "STRING_K",
            }
            .into(),
            Tok::Unlimited => "NC_UNLIMITED_K".into(),
            Tok::Ident(_) => "IDENT".into(),
            Tok::Path(_) => "PATH".into(),
            Tok::Const(c) => match c {
                C::Byte(_) => "BYTE_CONST",
                C::Short(_) => "SHORT_CONST",
                C::Int(_) => "INT_CONST",
                C::UByte(_) => "UBYTE_CONST",
                C::UShort(_) => "USHORT_CONST",
                C::UInt(_) => "UINT_CONST",
                C::Int64(_) => "INT64_CONST",
                C::UInt64(_) => "UINT64_CONST",
                C::Float(_) => "FLOAT_CONST",
                C::Double(_) => "DOUBLE_CONST",
                C::Str(_) => "TERMSTRING",
                C::Opaque(_) => "OPAQUESTRING",
                _ => "CHAR_CONST",
            }
            .into(),
            Tok::FillMarker => "FILLMARKER".into(),
            Tok::Nil => "NIL".into(),
            Tok::Special(s) => match s {
                Special::FillValue => "_FILLVALUE",
                Special::Format => "_FORMAT",
                Special::Storage => "_STORAGE",
                Special::ChunkSizes => "_CHUNKSIZES",
                Special::Fletcher32 => "_FLETCHER32",
                Special::DeflateLevel => "_DEFLATELEVEL",
                Special::Shuffle => "_SHUFFLE",
                Special::Endianness => "_ENDIANNESS",
                Special::NoFill => "_NOFILL",
                Special::NcProperties => "_NCPROPS",
                Special::IsNetcdf4 => "_ISNETCDF4",
                Special::Superblock => "_SUPERBLOCK",
                Special::Filter => "_FILTER",
                Special::Codecs => "_CODECS",
                Special::QuantizeGbr => "_QUANTIZEGBR",
                Special::QuantizeBr => "_QUANTIZEBR",
            }
            .into(),
            Tok::Punct(b) if b"{};,=()*:".contains(b) => format!("'{}'", *b as char),
            Tok::Punct(_) => "invalid token".into(),
            Tok::Eof => "end of file".into(),
        }
    }
}
