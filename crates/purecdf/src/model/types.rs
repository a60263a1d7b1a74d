//! netCDF data types: the 12 atomic types and user-defined compound, vlen, enum and opaque types
//! (netCDF data model; type codes as in netcdf-c's `netcdf.h`, classic codes per the file format
//! spec's `nc_type` grammar).

use crate::model::TypeId;

/// A netCDF data type: one of the 12 atomic types, or a user-defined type by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NcType {
    /// NC_BYTE: signed 8-bit integer.
    Byte,
    /// NC_CHAR: 8-bit character.
    Char,
    /// NC_SHORT: signed 16-bit integer.
    Short,
    /// NC_INT: signed 32-bit integer.
    Int,
    /// NC_FLOAT: 32-bit IEEE float.
    Float,
    /// NC_DOUBLE: 64-bit IEEE float.
    Double,
    /// NC_UBYTE: unsigned 8-bit integer.
    UByte,
    /// NC_USHORT: unsigned 16-bit integer.
    UShort,
    /// NC_UINT: unsigned 32-bit integer.
    UInt,
    /// NC_INT64: signed 64-bit integer.
    Int64,
    /// NC_UINT64: unsigned 64-bit integer.
    UInt64,
    /// NC_STRING: variable-length string.
    String,
    /// A user-defined type (compound, vlen, enum, opaque), by id in the dataset's type table.
    User(TypeId),
}

impl NcType {
    /// All atomic types in netCDF code order (NC_BYTE = 1 ... NC_STRING = 12).
    pub const ATOMIC: [NcType; 12] = [
        NcType::Byte,
        NcType::Char,
        NcType::Short,
        NcType::Int,
        NcType::Float,
        NcType::Double,
        NcType::UByte,
        NcType::UShort,
        NcType::UInt,
        NcType::Int64,
        NcType::UInt64,
        NcType::String,
    ];

    /// The netCDF type code (`NC_BYTE` = 1, ..., `NC_STRING` = 12); `None` for user types.
    pub fn code(self) -> Option<i32> {
        Some(match self {
            NcType::Byte => 1,
            NcType::Char => 2,
            NcType::Short => 3,
            NcType::Int => 4,
            NcType::Float => 5,
            NcType::Double => 6,
            NcType::UByte => 7,
            NcType::UShort => 8,
            NcType::UInt => 9,
            NcType::Int64 => 10,
            NcType::UInt64 => 11,
            NcType::String => 12,
            NcType::User(_) => return None,
        })
    }

    /// The atomic type with the given netCDF code.
    pub fn from_code(code: i32) -> Option<NcType> {
        if (1..=12).contains(&code) {
            Some(Self::ATOMIC[(code - 1) as usize])
        } else {
            None
        }
    }

    /// The CDL keyword for an atomic type (`"byte"`, `"int64"`, ...); `None` for user types.
    pub fn cdl_name(self) -> Option<&'static str> {
        Some(match self {
            NcType::Byte => "byte",
            NcType::Char => "char",
            NcType::Short => "short",
            NcType::Int => "int",
            NcType::Float => "float",
            NcType::Double => "double",
            NcType::UByte => "ubyte",
            NcType::UShort => "ushort",
            NcType::UInt => "uint",
            NcType::Int64 => "int64",
            NcType::UInt64 => "uint64",
            NcType::String => "string",
            NcType::User(_) => return None,
        })
    }

    /// The atomic type named by a CDL keyword.
    pub fn from_cdl_name(name: &str) -> Option<NcType> {
        Self::ATOMIC
            .iter()
            .copied()
            .find(|t| t.cdl_name() == Some(name))
    }

    /// Size in bytes of one value of an atomic type on disk and in memory (`String` counts as one
    /// pointer-sized slot, 8); `None` for user types (ask the type table).
    pub fn atomic_size(self) -> Option<usize> {
        Some(match self {
            NcType::Byte | NcType::Char | NcType::UByte => 1,
            NcType::Short | NcType::UShort => 2,
            NcType::Int | NcType::UInt | NcType::Float => 4,
            NcType::Double | NcType::Int64 | NcType::UInt64 | NcType::String => 8,
            NcType::User(_) => return None,
        })
    }

    /// True for the six types the classic (CDF-1/CDF-2) format can hold.
    pub fn is_classic(self) -> bool {
        matches!(
            self,
            NcType::Byte
                | NcType::Char
                | NcType::Short
                | NcType::Int
                | NcType::Float
                | NcType::Double
        )
    }

    /// True for the types CDF-5 can hold (classic plus unsigned and 64-bit integers).
    pub fn is_cdf5(self) -> bool {
        self.is_classic()
            || matches!(
                self,
                NcType::UByte | NcType::UShort | NcType::UInt | NcType::Int64 | NcType::UInt64
            )
    }

    /// True for integer and floating-point atomic types (everything but char, string, user types).
    pub fn is_numeric(self) -> bool {
        !matches!(self, NcType::Char | NcType::String | NcType::User(_))
    }

    /// True for the integer atomic types.
    pub fn is_integer(self) -> bool {
        self.is_numeric() && !matches!(self, NcType::Float | NcType::Double)
    }
}

/// A user-defined type: a name, the group that defines it and its class.
#[derive(Debug, Clone, PartialEq)]
pub struct UserType {
    /// The type's name within its group.
    pub name: String,
    /// What kind of type it is.
    pub kind: UserTypeKind,
}

/// The class of a user-defined type.
#[derive(Debug, Clone, PartialEq)]
pub enum UserTypeKind {
    /// A compound (struct) type of `size` bytes in memory.
    Compound {
        /// Total size in bytes of one value (with padding), as netcdf-c lays it out in memory.
        size: usize,
        /// The fields, in order.
        fields: Vec<CompoundField>,
    },
    /// A variable-length sequence of `base` values.
    Vlen {
        /// Element type.
        base: NcType,
    },
    /// An enumeration over an integer base type.
    Enum {
        /// Integer base type.
        base: NcType,
        /// Members: name and value (stored widened to i128 so every base fits).
        members: Vec<(String, i128)>,
    },
    /// An opaque blob of `size` bytes.
    Opaque {
        /// Size in bytes of one value.
        size: usize,
    },
}

/// One field of a compound type.
#[derive(Debug, Clone, PartialEq)]
pub struct CompoundField {
    /// Field name.
    pub name: String,
    /// Byte offset of the field within the compound value.
    pub offset: usize,
    /// Field type.
    pub typ: NcType,
    /// Array dimensions of the field (empty for a scalar field).
    pub dims: Vec<usize>,
}
