//! [`GeorustError`]: georust `netcdf`'s `Error` enum, as a view of purecdf's [`Error`] to match
//! on.
//!
//! georust's `Error` is an enum whose variants carry no context (`Error::Netcdf(2)`,
//! `Error::AlreadyExists`); purecdf's is a struct holding the netCDF error kind and where it
//! happened (file, variable, byte offset), which a unit variant could not carry. So a program
//! written for georust matches `e.as_georust()` where it matched `e`:
//!
//! ```
//! # let d = tempfile::tempdir().unwrap();
//! let mut file = purecdf::create(d.path().join("a.nc")).unwrap();
//! file.add_dimension("x", 10).unwrap();
//! let e = file.add_dimension("x", 11).unwrap_err();
//! assert!(matches!(e.as_georust(), purecdf::GeorustError::AlreadyExists));
//! ```

use crate::error::{Error, ErrorKind};

/// georust `netcdf`'s `Error` variants (those without a foreign error inside), from
/// [`Error::as_georust`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GeorustError {
    /// An error of the netCDF library, by its status: a negative `NC_E*` code, or a positive
    /// system error number (2 for a file that is not there).
    Netcdf(i32),
    /// Other errors, described.
    Str(String),
    /// The number of indices differs from the variable's dimensions.
    IndexLen,
    /// The number of slice lengths (chunk sizes) differs from the variable's dimensions.
    SliceLen,
    /// A buffer does not hold exactly the selection.
    BufferLen {
        /// The selection's number of elements.
        wanted: usize,
        /// The buffer's.
        actual: usize,
    },
    /// A selection has a different number of extents than the variable has dimensions.
    DimensionMismatch {
        /// The variable's dimensions.
        wanted: usize,
        /// The selection's extents.
        actual: usize,
    },
    /// An index is out of range.
    IndexMismatch,
    /// A selection does not fit.
    SliceMismatch,
    /// A selection of nothing.
    ZeroSlice,
    /// A stride below 1.
    Stride,
    /// The memory type is not the variable's.
    TypeMismatch,
    /// A type the library does not know.
    TypeUnknown(i32),
    /// A variable, dimension, attribute or group of that name exists.
    AlreadyExists,
    /// Something named was not found.
    NotFound(String),
    /// Lengths that leave the selection ambiguous.
    Ambiguous,
    /// A length overflows.
    Overflow,
    /// A dimension identifier of another dataset.
    WrongDataset,
}

impl Error {
    /// This error as georust `netcdf`'s `Error` (see [`GeorustError`]): its own variant where
    /// georust has one for this failure (`SliceLen`, `WrongDataset`, `BufferLen`, ...),
    /// `AlreadyExists` for a name in use, else `Netcdf` with netcdf-c's status.
    pub fn as_georust(&self) -> GeorustError {
        if let Some(g) = &self.context().georust {
            return g.clone();
        }
        match self.kind() {
            ErrorKind::Exist | ErrorKind::NameInUse => GeorustError::AlreadyExists,
            _ => GeorustError::Netcdf(self.georust_status()),
        }
    }

    /// Whether georust would call this error ambiguous (its `is_ambiguous`).
    pub fn is_ambiguous(&self) -> bool {
        self.as_georust() == GeorustError::Ambiguous
    }

    /// Marks the error as georust's variant `g` (see [`Error::as_georust`]).
    pub(crate) fn georust(mut self, g: GeorustError) -> Self {
        self.context_mut().georust = Some(g);
        self
    }
}
