//! Rust types that stand for netCDF types, as in georust `netcdf`'s `types` module: the
//! [`NcTypeDescriptor`] trait, implemented for the ten numeric types and derived for
//! `#[repr(C)]` structs and integer-`repr` enums with `#[derive(purecdf::NcType)]` (feature
//! `derive`), and [`NcVariableType`], the description of a type it returns.
//!
//! ```
//! # #[cfg(feature = "derive")] {
//! # let dir = tempfile::tempdir()?;
//! # let path = dir.path().join("obs.nc");
//! #[repr(C)]
//! #[derive(purecdf::NcType, Debug, Clone, Copy, PartialEq)]
//! struct Obs {
//!     station: u16,
//!     flags: [u8; 2],
//!     temp: f32,
//! }
//!
//! let mut file = purecdf::create(&path)?;
//! file.add_dimension("n", 2)?;
//! file.add_type::<Obs>()?;
//! let mut var = file.add_variable::<Obs>("obs", &["n"])?;
//! let data = [
//!     Obs { station: 7, flags: [1, 0], temp: 12.5 },
//!     Obs { station: 9, flags: [0, 1], temp: -3.0 },
//! ];
//! var.put_values(&data, ..)?;
//! file.close()?;
//!
//! let file = purecdf::open(&path)?;
//! let back = file.variable("obs").unwrap().get_values::<Obs, _>(..)?;
//! assert_eq!(back, data);
//! # }
//! # Ok::<(), purecdf::Error>(())
//! ```

mod io;

pub(crate) use io::{
    add_descriptor, add_descriptor_here, describe, fill_attribute_user, fill_user, read_user,
    write_user,
};

use crate::convert::NcElement;
use crate::error::Result;
use crate::file::{FileMut, Variable};
use crate::model::{GroupId, NcType, Values, VarId};
use crate::selection::Extents;

/// A Rust type whose values are laid out in memory as one value of a netCDF type.
///
/// Implemented for `i8`…`u64`, `f32` and `f64`, and by `#[derive(NcType)]` (feature `derive`)
/// for `#[repr(C)]` structs without padding whose fields implement it (numbers, nested derived
/// types, arrays of numbers of up to three dimensions) — netCDF compound types — and for enums
/// with an integer `repr` — netCDF enum types. `#[netcdf(rename = "name")]` on the type, a
/// field or a variant sets the name used in the file.
///
/// Reading checks that the variable's type has the same fields (names, types and array
/// shapes), and that every enum value read is one of the Rust enum's discriminants, so a file
/// can never produce an invalid value.
///
/// # Safety
/// [`NcTypeDescriptor::type_descriptor`] must describe `Self` exactly: its size, each field at
/// its offset with its type, no padding bytes, and (for enums) every discriminant; any bit
/// pattern of the described fields must then be a valid `Self`. The derive macro checks this
/// for the types it accepts.
pub unsafe trait NcTypeDescriptor: Sized {
    /// The netCDF type this Rust type stands for.
    fn type_descriptor() -> NcVariableType;

    /// The shape of an array used as a compound field (`[[u8; 4]; 5]` is `[4, 5]`, innermost
    /// first, as georust lists it); none for a scalar.
    #[doc(hidden)]
    const ARRAY_ELEMENTS: ArrayElements = ArrayElements::None;

    /// The netCDF type of `Self` in group `g`, defining it (and the types it uses) there when
    /// no type of that name is visible yet.
    #[doc(hidden)]
    fn purecdf_nc_type(file: &FileMut, g: GroupId) -> Result<NcType> {
        add_descriptor(file, g, &Self::type_descriptor())
    }

    /// Reads a selection of a variable as values of `Self`.
    #[doc(hidden)]
    fn purecdf_read(var: &Variable<'_>, extents: &Extents) -> Result<Vec<Self>> {
        read_user::<Self>(var, extents)
    }

    /// Reads a selection of a variable into `out`, which must hold exactly the selection.
    #[doc(hidden)]
    fn purecdf_read_into(var: &Variable<'_>, extents: &Extents, out: &mut [Self]) -> Result<()>
    where
        Self: Copy,
    {
        let v = Self::purecdf_read(var, extents)?;
        if v.len() != out.len() {
            return Err(crate::file::buffer_len(v.len() as u64, out.len()));
        }
        out.copy_from_slice(&v);
        Ok(())
    }

    /// Writes values of `Self` into a selection of a variable.
    #[doc(hidden)]
    fn purecdf_write(file: &FileMut, var: VarId, values: &[Self], ext: Extents) -> Result<()> {
        write_user::<Self>(file, var, values, ext)
    }

    /// The variable's fill value as `Self` (fill mode on).
    #[doc(hidden)]
    fn purecdf_fill_value(var: &Variable<'_>) -> Result<Option<Self>> {
        fill_user::<Self>(var)
    }

    /// `value` as the variable's `_FillValue` attribute.
    #[doc(hidden)]
    fn purecdf_fill_attribute(var: &Variable<'_>, value: Self) -> Result<Values> {
        fill_attribute_user::<Self>(var, &value)
    }
}

/// A description of a netCDF type (georust's `NcVariableType`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NcVariableType {
    /// A compound (struct) type.
    Compound(CompoundType),
    /// An opaque type: a fixed number of bytes.
    Opaque(OpaqueType),
    /// An enum type over an integer type.
    Enum(EnumType),
    /// A variable-length sequence.
    Vlen(VlenType),
    /// NC_STRING.
    String,
    /// An integer type.
    Int(IntType),
    /// A floating-point type.
    Float(FloatType),
    /// NC_CHAR.
    Char,
}

impl NcVariableType {
    /// Size in bytes of one value in memory (a string or vlen counts as netcdf-c's in-memory
    /// handle: a pointer, or a length and a pointer).
    pub fn size(&self) -> usize {
        match self {
            Self::Compound(c) => c.size,
            Self::Opaque(o) => o.size,
            Self::Enum(e) => e.fieldvalues.int_type().size(),
            Self::Vlen(_) => 2 * std::mem::size_of::<usize>(),
            Self::String => std::mem::size_of::<usize>(),
            Self::Int(i) => i.size(),
            Self::Float(f) => f.size(),
            Self::Char => 1,
        }
    }
}

/// An integer type.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum IntType {
    /// NC_UBYTE.
    U8,
    /// NC_USHORT.
    U16,
    /// NC_UINT.
    U32,
    /// NC_UINT64.
    U64,
    /// NC_BYTE.
    I8,
    /// NC_SHORT.
    I16,
    /// NC_INT.
    I32,
    /// NC_INT64.
    I64,
}

impl IntType {
    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            Self::U8 | Self::I8 => 1,
            Self::U16 | Self::I16 => 2,
            Self::U32 | Self::I32 => 4,
            Self::U64 | Self::I64 => 8,
        }
    }

    pub(crate) fn nc_type(self) -> NcType {
        match self {
            Self::U8 => NcType::UByte,
            Self::U16 => NcType::UShort,
            Self::U32 => NcType::UInt,
            Self::U64 => NcType::UInt64,
            Self::I8 => NcType::Byte,
            Self::I16 => NcType::Short,
            Self::I32 => NcType::Int,
            Self::I64 => NcType::Int64,
        }
    }
}

/// A floating-point type.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FloatType {
    /// NC_FLOAT.
    F32,
    /// NC_DOUBLE.
    F64,
}

impl FloatType {
    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            Self::F32 => 4,
            Self::F64 => 8,
        }
    }
}

/// An opaque type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OpaqueType {
    /// The type's name.
    pub name: String,
    /// Bytes per value.
    pub size: usize,
}

/// A variable-length type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VlenType {
    /// The type's name.
    pub name: String,
    /// The element type.
    pub basetype: Box<NcVariableType>,
}

/// One field of a compound type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CompoundTypeField {
    /// The field's name.
    pub name: String,
    /// The field's (element) type.
    pub basetype: NcVariableType,
    /// The shape of an array field, as georust lists it; `None` for a scalar field.
    pub arraydims: Option<Vec<usize>>,
    /// Byte offset of the field in a value.
    pub offset: usize,
}

/// A compound type. Two compound types are equal when they have the same name and size and
/// the same fields in any order.
#[derive(Clone, Debug)]
pub struct CompoundType {
    /// The type's name.
    pub name: String,
    /// Bytes per value.
    pub size: usize,
    /// The fields.
    pub fields: Vec<CompoundTypeField>,
}

impl PartialEq for CompoundType {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.size == other.size
            && self.fields.len() == other.fields.len()
            && self.fields.iter().all(|f| other.fields.contains(f))
    }
}
impl Eq for CompoundType {}

/// The member values of an enum type, in the enum's integer type.
#[derive(Clone, PartialEq, Eq, Debug)]
#[allow(missing_docs)]
pub enum EnumTypeValues {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
}

macro_rules! enum_values {
    ($($t:ty => $v:ident),*) => {
        $(impl From<Vec<$t>> for EnumTypeValues {
            fn from(v: Vec<$t>) -> Self {
                EnumTypeValues::$v(v)
            }
        })*
        impl EnumTypeValues {
            /// The enum's integer type.
            pub fn int_type(&self) -> IntType {
                match self {
                    $(EnumTypeValues::$v(_) => IntType::$v,)*
                }
            }

            /// The values widened to `i128`.
            pub(crate) fn widened(&self) -> Vec<i128> {
                match self {
                    $(EnumTypeValues::$v(v) => v.iter().map(|&x| i128::from(x)).collect(),)*
                }
            }
        }
    };
}
enum_values!(u8 => U8, u16 => U16, u32 => U32, u64 => U64, i8 => I8, i16 => I16, i32 => I32, i64 => I64);

/// An enum type: named values of an integer type. Two enum types are equal when they have the
/// same name and the same (name, value) members in any order.
#[derive(Clone, Debug)]
pub struct EnumType {
    /// The type's name.
    pub name: String,
    /// The members' names.
    pub fieldnames: Vec<String>,
    /// The members' values, in the order of `fieldnames`.
    pub fieldvalues: EnumTypeValues,
}

impl EnumType {
    fn members(&self) -> Vec<(&str, i128)> {
        let mut m: Vec<_> = self
            .fieldnames
            .iter()
            .map(String::as_str)
            .zip(self.fieldvalues.widened())
            .collect();
        m.sort();
        m
    }
}

impl PartialEq for EnumType {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.fieldvalues.int_type() == other.fieldvalues.int_type()
            && self.members() == other.members()
    }
}
impl Eq for EnumType {}

/// The shape of an array compound field (used by the derive macro).
#[doc(hidden)]
#[derive(Copy, Clone, Debug)]
#[allow(missing_docs)]
pub enum ArrayElements {
    None,
    One([usize; 1]),
    Two([usize; 2]),
    Three([usize; 3]),
}

impl ArrayElements {
    /// The shape as a slice; `None` for a scalar.
    pub fn as_dims(&self) -> Option<&[usize]> {
        match self {
            Self::None => None,
            Self::One(x) => Some(x),
            Self::Two(x) => Some(x),
            Self::Three(x) => Some(x),
        }
    }
}

macro_rules! numeric {
    ($($t:ty => $d:expr),*) => {$(
        // SAFETY: a number of this type is one value of the atomic type described.
        unsafe impl NcTypeDescriptor for $t {
            fn type_descriptor() -> NcVariableType {
                $d
            }
            fn purecdf_nc_type(_: &FileMut, _: GroupId) -> Result<NcType> {
                Ok(<$t as NcElement>::NC_TYPE)
            }
            fn purecdf_read(var: &Variable<'_>, extents: &Extents) -> Result<Vec<Self>> {
                var.read_values::<$t>(extents)
            }
            fn purecdf_read_into(
                var: &Variable<'_>,
                extents: &Extents,
                out: &mut [Self],
            ) -> Result<()> {
                var.read_values_into::<$t>(extents, out)
            }
            fn purecdf_write(
                file: &FileMut,
                var: VarId,
                values: &[Self],
                ext: Extents,
            ) -> Result<()> {
                file.put_values(var, values, ext)
            }
            fn purecdf_fill_value(var: &Variable<'_>) -> Result<Option<Self>> {
                var.fill_number::<$t>()
            }
            fn purecdf_fill_attribute(var: &Variable<'_>, value: Self) -> Result<Values> {
                if <$t as NcElement>::NC_TYPE != var.nc_type() {
                    return crate::error::fail(
                        crate::ErrorKind::BadType,
                        format!(
                            "a {:?} fill value for {} of type {:?}",
                            <$t as NcElement>::NC_TYPE,
                            var.name_str(),
                            var.nc_type()
                        ),
                    );
                }
                Ok(<$t as NcElement>::into_values(vec![value]))
            }
        }
        // SAFETY: arrays of numbers have no padding; each element is one value.
        unsafe impl<const N: usize> NcTypeDescriptor for [$t; N] {
            fn type_descriptor() -> NcVariableType {
                $d
            }
            const ARRAY_ELEMENTS: ArrayElements = ArrayElements::One([N]);
        }
        // SAFETY: as above.
        unsafe impl<const N: usize, const M: usize> NcTypeDescriptor for [[$t; N]; M] {
            fn type_descriptor() -> NcVariableType {
                $d
            }
            const ARRAY_ELEMENTS: ArrayElements = ArrayElements::Two([N, M]);
        }
        // SAFETY: as above.
        unsafe impl<const N: usize, const M: usize, const L: usize> NcTypeDescriptor
            for [[[$t; N]; M]; L]
        {
            fn type_descriptor() -> NcVariableType {
                $d
            }
            const ARRAY_ELEMENTS: ArrayElements = ArrayElements::Three([N, M, L]);
        }
    )*};
}

numeric!(
    u8 => NcVariableType::Int(IntType::U8),
    u16 => NcVariableType::Int(IntType::U16),
    u32 => NcVariableType::Int(IntType::U32),
    u64 => NcVariableType::Int(IntType::U64),
    i8 => NcVariableType::Int(IntType::I8),
    i16 => NcVariableType::Int(IntType::I16),
    i32 => NcVariableType::Int(IntType::I32),
    i64 => NcVariableType::Int(IntType::I64),
    f32 => NcVariableType::Float(FloatType::F32),
    f64 => NcVariableType::Float(FloatType::F64)
);
