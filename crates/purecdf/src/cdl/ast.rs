//! What the CDL parser produces: constants and data lists as written (`ncgen-features.md` §4–5),
//! the parsed dataset ([`CdlDataset`]: a [`Schema`] plus per-variable data lists), the special
//! (virtual) attributes of §3, and the error type that reproduces ncgen's messages.

use crate::backend::Format;
use crate::model::{GroupId, NcType, Schema, TypeId, Values, VarId};

/// A constant in a data list, with the line it was read on.
#[derive(Debug, Clone, PartialEq)]
pub struct Const {
    /// The value.
    pub kind: ConstKind,
    /// Source line (1-based).
    pub line: u32,
}

/// The kinds of CDL constants (ncgen's `NCConstant` classes).
#[derive(Debug, Clone, PartialEq)]
pub enum ConstKind {
    /// `1b`, `'a'` (character constants are byte constants).
    Byte(i8),
    /// `1s`.
    Short(i16),
    /// `1`, `1l`.
    Int(i32),
    /// `1ub`.
    UByte(u8),
    /// `1us`.
    UShort(u16),
    /// `1u`, `3000000000`, `0x1Fs`.
    UInt(u32),
    /// `1ll`, `-3000000000`.
    Int64(i64),
    /// `1ull`.
    UInt64(u64),
    /// `1.5f`, `NaNf`.
    Float(f32),
    /// `1.5`, `NaN`, `time("...")`.
    Double(f64),
    /// A string constant, escapes removed.
    Str(Vec<u8>),
    /// `0x..` without suffix: lower-case hex digits, even length.
    Opaque(String),
    /// `_`: the fill value.
    Fill,
    /// `NIL`: the null string.
    Nil,
    /// A reference to an enum constant, as written (`RED`, `color.RED`, `/g/color.RED`), and the
    /// group it was written in.
    EnumRef {
        /// Group prefix of a `/g/...` path (empty for a plain name).
        path: Option<Vec<String>>,
        /// The last component (may contain `enum.const`).
        name: String,
        /// Group where the reference appears.
        group: GroupId,
    },
    /// A resolved enum constant: the enum type and the member's value.
    Enum(TypeId, i128),
    /// `{ ... }`.
    List(Vec<Const>),
}

impl ConstKind {
    /// True for the integer kinds.
    pub fn is_integer(&self) -> bool {
        matches!(
            self,
            ConstKind::Byte(_)
                | ConstKind::Short(_)
                | ConstKind::Int(_)
                | ConstKind::UByte(_)
                | ConstKind::UShort(_)
                | ConstKind::UInt(_)
                | ConstKind::Int64(_)
                | ConstKind::UInt64(_)
        )
    }

    /// The integer value of an integer kind.
    pub fn as_i128(&self) -> Option<i128> {
        Some(match self {
            ConstKind::Byte(v) => i128::from(*v),
            ConstKind::Short(v) => i128::from(*v),
            ConstKind::Int(v) => i128::from(*v),
            ConstKind::UByte(v) => i128::from(*v),
            ConstKind::UShort(v) => i128::from(*v),
            ConstKind::UInt(v) => i128::from(*v),
            ConstKind::Int64(v) => i128::from(*v),
            ConstKind::UInt64(v) => i128::from(*v),
            _ => return None,
        })
    }
}

/// `_Storage` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageKind {
    /// `"contiguous"`
    Contiguous,
    /// `"compact"`
    Compact,
    /// `"chunked"`
    Chunked,
}

/// Quantization algorithm chosen by a `_Quantize*` attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantize {
    /// `_QuantizeGranularBitRoundNumberOfSignificantDigits`
    GranularBitRound,
    /// `_QuantizeBitRoundNumberOfSignificantBits`
    BitRound,
}

/// The special attributes given for one variable (`ncgen-features.md` §3).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VarSpecials {
    /// `_Storage`.
    pub storage: Option<StorageKind>,
    /// `_ChunkSizes` (implies chunked storage).
    pub chunk_sizes: Option<Vec<u64>>,
    /// `_Fletcher32`.
    pub fletcher32: Option<bool>,
    /// `_DeflateLevel`.
    pub deflate_level: Option<i32>,
    /// `_Shuffle`.
    pub shuffle: Option<bool>,
    /// `_Endianness`: `Some(true)` big, `Some(false)` little.
    pub big_endian: Option<bool>,
    /// `_NoFill`.
    pub no_fill: Option<bool>,
    /// `_Filter`: HDF5 filter ids and parameters in order.
    pub filters: Vec<(u32, Vec<u32>)>,
    /// `_Codecs` JSON text.
    pub codecs: Option<String>,
    /// `_Quantize*`: algorithm and number of significant digits/bits.
    pub quantize: Option<(Quantize, i32)>,
    /// The character ncgen pads char data with: the first character of a string `_FillValue`,
    /// else NUL (netcdf-c `getfillchar` looks at the constant as written).
    pub fill_char: u8,
}

/// Dataset-wide special attributes that are accepted but not written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GlobalSpecials {
    /// `_Format`, when given.
    pub format: Option<Format>,
    /// `_NCProperties`.
    pub nc_properties: Option<String>,
    /// `_IsNetcdf4`.
    pub is_netcdf4: Option<bool>,
    /// `_SuperblockVersion`.
    pub superblock: Option<i32>,
}

/// A parsed CDL dataset: metadata, data lists and everything ncgen needs to write it.
#[derive(Debug, Clone, PartialEq)]
pub struct CdlDataset {
    /// The name after `netcdf` (or the `-N` override).
    pub name: String,
    /// Groups, types, dimensions (unlimited lengths computed from the data), variables and
    /// attributes (typed and converted).
    pub schema: Schema,
    /// Each variable's data list as written (indexed by [`VarId`]); `None` without a `data:` entry.
    pub data: Vec<Option<Vec<Const>>>,
    /// Special attributes per variable (indexed by [`VarId`]).
    pub specials: Vec<VarSpecials>,
    /// Dataset-wide specials.
    pub globals: GlobalSpecials,
    /// The format the dataset is written in (from `-k`, `_Format` or inference).
    pub format: Format,
    /// Why the input needs netCDF-4 (first enhanced construct), if it does.
    pub enhanced: Option<String>,
    /// Number of special attributes other than `_FillValue` / `_Format`.
    pub special_count: usize,
    /// Diagnostics netcdf-c prints to standard error without failing (exactly as printed).
    pub warnings: String,
    /// Every attribute declaration in the order ncgen writes them (global attributes, then
    /// variable attributes, each in declaration order): group, variable, name and the line of
    /// the name.
    pub attribute_order: Vec<(GroupId, Option<VarId>, String, u32)>,
    /// The values of declarations a later one of the same attribute replaced, with their
    /// index in `attribute_order` (the schema holds only the last; generated programs put
    /// each in turn).
    pub superseded_attributes: Vec<(usize, Values)>,
    /// How many constants each declaration of `attribute_order` listed (the Fortran generator
    /// sizes its attribute vectors by it; text attributes are held joined).
    pub attribute_constants: Vec<usize>,
    /// Attribute values that could not be made, with their index in `attribute_order`; ncgen
    /// reports the first one when it reaches that attribute.
    pub deferred_errors: Vec<(usize, CdlError)>,
    /// User types in the order ncgen defines them (dependencies first; see `processtypes`).
    pub type_order: Vec<TypeId>,
    /// The text spelled a NaN or an infinity somewhere (ncgen's `specialconstants`: generated
    /// C code then defines `nan`, `inf` and their kin).
    pub special_constants: bool,
    /// Names the text spelled other than in NFC, the form they are stored in: (NFC form,
    /// spelling). Generated programs use the spelling, as ncgen does.
    pub spellings: Vec<(String, String)>,
}

impl CdlDataset {
    /// The first error that ncgen would report for this dataset after parsing (a deferred
    /// attribute error), if any.
    ///
    /// # Errors
    /// The first of [`CdlDataset::deferred_errors`].
    pub fn check(&self) -> Result<(), CdlError> {
        match self.deferred_errors.first() {
            Some((_, e)) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// A name as the text spelled it (the stored NFC form unless the text used another).
    pub fn spelled<'a>(&'a self, name: &'a str) -> &'a str {
        spelling(&self.spellings, name)
    }

    /// The data list of a variable.
    pub fn var_data(&self, v: VarId) -> Option<&[Const]> {
        self.data.get(v.0).and_then(|d| d.as_deref())
    }
}

/// An attribute as declared, before type inference and conversion.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PendingAtt {
    pub group: GroupId,
    pub var: Option<VarId>,
    pub name: String,
    pub typ: Option<NcType>,
    pub data: Vec<Const>,
    pub line: u32,
}

/// How a [`CdlError`] is printed, following the netcdf-c routine that reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorStyle {
    /// `yyerror`/`semerror`: `ncgen: FILE line N: message`.
    Located(u32),
    /// `derror`: the message alone.
    Plain,
    /// A netCDF library call failed: `ncgen: message`.
    Library,
}

/// A CDL error carrying netcdf-c's message text.
#[derive(Debug, Clone, PartialEq)]
pub struct CdlError {
    /// The message without any prefix.
    pub message: String,
    /// How ncgen prints it.
    pub style: ErrorStyle,
    /// Input file name as ncgen names it.
    pub file: String,
    /// The netCDF error kind behind it (`Inval` for CDL errors).
    pub kind: crate::ErrorKind,
    /// The exit status ncgen ends with after this error (1, or 0 for the few errors netcdf-c's
    /// `main` reports and then returns 0 for).
    pub exit_code: i32,
    /// Text netcdf-c prints just before the message, without a newline (the scanner's
    /// `unterminated /**/ comment`).
    pub preamble: String,
}

impl CdlError {
    /// The line ncgen prints for this error, with `progname` (normally `ncgen`).
    pub fn ncgen_line(&self, progname: &str) -> String {
        match self.style {
            ErrorStyle::Located(n) => format!(
                "{}{progname}: {} line {n}: {}",
                self.preamble, self.file, self.message
            ),
            ErrorStyle::Plain => format!("{}{}", self.preamble, self.message),
            ErrorStyle::Library => format!("{}{progname}: {}", self.preamble, self.message),
        }
    }
}

impl std::fmt::Display for CdlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.style {
            ErrorStyle::Located(n) => write!(f, "{} line {n}: {}", self.file, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for CdlError {}

impl From<CdlError> for crate::Error {
    fn from(e: CdlError) -> Self {
        crate::Error::with_detail(e.kind, e.to_string())
    }
}

/// `name` as spelled in a list of (NFC form, spelling) pairs, or `name` itself.
pub(crate) fn spelling<'a>(spellings: &'a [(String, String)], name: &'a str) -> &'a str {
    spellings
        .iter()
        .find(|(n, _)| n == name)
        .map_or(name, |(_, s)| s.as_str())
}
