//! The one error type of purecdf: a netCDF error kind (named after netcdf-c's `NC_E*` codes) plus
//! context (file, variable or attribute, byte offset, free text).
//!
//! `ErrorKind::nc_code` gives the C library's numeric code and `ErrorKind::nc_message` the message
//! netcdf-c's `nc_strerror` prints, which the command-line tools need to reproduce netcdf-c's output.

use std::fmt;
use std::path::PathBuf;

/// Result alias used throughout purecdf.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong, named after netcdf-c's error codes (`NC_EBADID` → `BadId`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// NC_EBADID: not a valid ID.
    BadId,
    /// NC_EEXIST: file exists and NC_NOCLOBBER was given.
    Exist,
    /// NC_EINVAL: invalid argument.
    Inval,
    /// NC_EPERM: write to a read-only file.
    Perm,
    /// NC_ENOTINDEFINE: operation needs define mode.
    NotInDefine,
    /// NC_EINDEFINE: operation not allowed in define mode.
    InDefine,
    /// NC_EINVALCOORDS: index exceeds dimension bound.
    InvalidCoords,
    /// NC_EMAXDIMS: too many dimensions.
    MaxDims,
    /// NC_ENAMEINUSE: name already in use.
    NameInUse,
    /// NC_ENOTATT: attribute not found.
    NotAtt,
    /// NC_EMAXATTS: too many attributes.
    MaxAtts,
    /// NC_EBADTYPE: not a valid data type or _FillValue type mismatch.
    BadType,
    /// NC_EBADDIM: invalid dimension ID or name.
    BadDim,
    /// NC_EUNLIMPOS: NC_UNLIMITED in the wrong index.
    UnlimPos,
    /// NC_EMAXVARS: too many variables.
    MaxVars,
    /// NC_ENOTVAR: variable not found.
    NotVar,
    /// NC_EGLOBAL: action prohibited on the NC_GLOBAL varid.
    Global,
    /// NC_ENOTNC: unknown file format.
    NotNc,
    /// NC_ESTS: in Fortran, string too short.
    Sts,
    /// NC_EMAXNAME: name too long.
    MaxName,
    /// NC_EUNLIMIT: NC_UNLIMITED size already in use.
    Unlimit,
    /// NC_ENORECVARS: nc_rec op when there are no record vars.
    NoRecVars,
    /// NC_ECHAR: attempt to convert between text and numbers.
    Char,
    /// NC_EEDGE: start + count exceeds dimension bound.
    Edge,
    /// NC_ESTRIDE: illegal stride.
    Stride,
    /// NC_EBADNAME: name contains illegal characters.
    BadName,
    /// NC_ERANGE: numeric conversion not representable.
    Range,
    /// NC_ENOMEM: memory allocation failure.
    NoMem,
    /// NC_EVARSIZE: one or more variable sizes violate format constraints.
    VarSize,
    /// NC_EDIMSIZE: invalid dimension size.
    DimSize,
    /// NC_ETRUNC: file likely truncated or possibly corrupted.
    Trunc,
    /// NC_EAXISTYPE: unknown axis type.
    AxisType,
    /// NC_ENOTBUILT: the format or filter was not built into this library.
    NotBuilt,
    /// NC_EHDFERR: error in the HDF5 layer.
    Hdf,
    /// NC_ECANTREAD: can't read.
    CantRead,
    /// NC_ECANTWRITE: can't write.
    CantWrite,
    /// NC_ECANTCREATE: can't create.
    CantCreate,
    /// NC_ENOGRP: no group found.
    NoGrp,
    /// NC_ESTRICTNC3: attempting a netCDF-4 operation on a strict netCDF-3 file.
    StrictNc3,
    /// NC_ENOTNC4: attempting a netCDF-4 operation on a netCDF-3 file.
    NotNc4,
    /// NC_EBADGRPID: bad group ID.
    BadGrpId,
    /// NC_EBADTYPID: bad type ID.
    BadTypeId,
    /// NC_EBADFIELD: bad field ID.
    BadField,
    /// NC_EFILTER: filter operation failed.
    Filter,
    /// NC_ENOFILTER: filter not defined on variable.
    NoFilter,
    /// NC_ENOTFOUND: no such file.
    NotFound,
    /// NC_EIO: generic I/O error.
    Io,
    /// NC_ELATEFILL: attempt to define fill value when data already exists.
    LateFill,
    /// NC_ELATEDEF: attempt to define variable properties after enddef.
    LateDef,
    /// NC_ESTORAGE: contiguous and chunked storage both asked for.
    Storage,
    /// NC_EBADCHUNK: bad chunk sizes.
    BadChunk,
    /// NC_EDIMMETA / NC_EVARMETA and friends: malformed metadata.
    BadMeta,
    /// NC_EATTMETA: an attribute could not be read (an HDF5 attribute netCDF cannot represent,
    /// such as a numeric one of more than one dimension).
    AttMeta,
    /// NC_ENCZARR: malformed NCZarr or Zarr metadata or data.
    Nczarr,
    /// NC_ES3: an S3 request failed.
    S3,
    /// NC_EACCESS: a remote object (`#mode=bytes`) could not be read.
    Access,
    /// NC_ENOOBJECT: a store named by a Zarr URL does not exist.
    NoObject,
}

/// Each kind with its netcdf-c code, once: the exhaustive match of [`ErrorKind::nc_code`]
/// (the compiler checks that every kind is there) and [`ErrorKind::ALL`], its inverse's table,
/// both come from this list.
macro_rules! nc_codes {
    ($($kind:ident => $code:expr,)*) => {
        impl ErrorKind {
            /// Every kind, in the order of the code table.
            const ALL: &'static [ErrorKind] = &[$(ErrorKind::$kind),*];

            /// The numeric code netcdf-c uses for this error (`NC_ENOTVAR` = -49, ...).
            pub fn nc_code(self) -> i32 {
                match self {
                    $(ErrorKind::$kind => $code,)*
                }
            }
        }
    };
}

nc_codes! {
    BadId => -33,
    Exist => -35,
    Inval => -36,
    Perm => -37,
    NotInDefine => -38,
    InDefine => -39,
    InvalidCoords => -40,
    MaxDims => -41,
    NameInUse => -42,
    NotAtt => -43,
    MaxAtts => -44,
    BadType => -45,
    BadDim => -46,
    UnlimPos => -47,
    MaxVars => -48,
    NotVar => -49,
    Global => -50,
    NotNc => -51,
    Sts => -52,
    MaxName => -53,
    Unlimit => -54,
    NoRecVars => -55,
    Char => -56,
    Edge => -57,
    Stride => -58,
    BadName => -59,
    Range => -60,
    NoMem => -61,
    VarSize => -62,
    DimSize => -63,
    Trunc => -64,
    AxisType => -65,
    NotBuilt => -128,
    Hdf => -101,
    CantRead => -102,
    CantWrite => -103,
    CantCreate => -104,
    NoGrp => -125,
    StrictNc3 => -112,
    NotNc4 => -111,
    BadGrpId => -116,
    BadTypeId => -117,
    BadField => -119,
    Filter => -132,
    NoFilter => -136,
    NotFound => -90,
    Io => -68,
    LateFill => -122,
    LateDef => -123,
    Storage => -126,
    BadChunk => -127,
    BadMeta => -108,
    AttMeta => -107,
    Nczarr => -137,
    S3 => -138,
    NoObject => -141,
    Access => -77,
}

impl ErrorKind {
    /// The kind of a netcdf-c error code (the inverse of [`ErrorKind::nc_code`]); `None` for
    /// codes purecdf has no kind for.
    pub fn from_nc_code(code: i32) -> Option<ErrorKind> {
        ErrorKind::ALL.iter().copied().find(|k| k.nc_code() == code)
    }

    /// The text netcdf-c's `nc_strerror` gives for this code.
    pub fn nc_message(self) -> &'static str {
        use ErrorKind::*;
        match self {
            BadId => "NetCDF: Not a valid ID",
            Exist => "NetCDF: File exists && NC_NOCLOBBER",
            Inval => "NetCDF: Invalid argument",
            Perm => "NetCDF: Write to read only",
            NotInDefine => "NetCDF: Operation not allowed in data mode",
            InDefine => "NetCDF: Operation not allowed in define mode",
            InvalidCoords => "NetCDF: Index exceeds dimension bound",
            MaxDims => "NetCDF: NC_MAX_DIMS exceeded",
            NameInUse => "NetCDF: String match to name in use",
            NotAtt => "NetCDF: Attribute not found",
            MaxAtts => "NetCDF: NC_MAX_ATTRS exceeded",
            BadType => "NetCDF: Not a valid data type or _FillValue type mismatch",
            BadDim => "NetCDF: Invalid dimension ID or name",
            UnlimPos => "NetCDF: NC_UNLIMITED in the wrong index",
            MaxVars => "NetCDF: NC_MAX_VARS exceeded",
            NotVar => "NetCDF: Variable not found",
            Global => "NetCDF: Action prohibited on NC_GLOBAL varid",
            NotNc => "NetCDF: Unknown file format",
            Sts => "NetCDF: In Fortran, string too short",
            MaxName => "NetCDF: NC_MAX_NAME exceeded",
            Unlimit => "NetCDF: NC_UNLIMITED size already in use",
            NoRecVars => "NetCDF: nc_rec op when there are no record vars",
            Char => "NetCDF: Attempt to convert between text & numbers",
            Edge => "NetCDF: Start+count exceeds dimension bound",
            Stride => "NetCDF: Illegal stride",
            BadName => "NetCDF: Name contains illegal characters",
            Range => "NetCDF: Numeric conversion not representable",
            NoMem => "NetCDF: Memory allocation (malloc) failure",
            VarSize => "NetCDF: One or more variable sizes violate format constraints",
            DimSize => "NetCDF: Invalid dimension size",
            Trunc => "NetCDF: File likely truncated or possibly corrupted",
            AxisType => "NetCDF: Illegal axis type",
            NotBuilt => {
                "NetCDF: Attempt to use feature that was not turned on when netCDF was built."
            }
            Hdf => "NetCDF: HDF error",
            CantRead => "NetCDF: Can't read file",
            CantWrite => "NetCDF: Can't write file",
            CantCreate => "NetCDF: Can't create file",
            NoGrp => "NetCDF: No group found.",
            StrictNc3 => "NetCDF: Attempting netcdf-4 operation on strict nc3 netcdf-4 file",
            NotNc4 => "NetCDF: Attempting netcdf-4 operation on netcdf-3 file",
            BadGrpId => "NetCDF: Bad group ID",
            BadTypeId => "NetCDF: Bad type ID",
            BadField => "NetCDF: Bad field ID",
            Filter => "NetCDF: Filter error: bad id or parameters or duplicate filter",
            NoFilter => "NetCDF: Filter error: undefined filter encountered",
            NotFound => "No such file or directory",
            Io => "NetCDF: I/O failure",
            LateFill => "NetCDF: Attempt to define fill value when data already exists.",
            LateDef => "NetCDF: Attempt to define var properties, like deflate, after enddef.",
            Storage => "NetCDF: Cannot specify both contiguous and chunking.",
            BadChunk => "NetCDF: Bad chunk sizes.",
            BadMeta => "NetCDF: Problem with variable metadata.",
            AttMeta => "NetCDF: Can't open HDF5 attribute",
            Nczarr => "NetCDF: NCZarr error",
            S3 => "NetCDF: AWS S3 error",
            NoObject => "NetCDF: Some object not found",
            Access => "NetCDF: Access failure",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.nc_message())
    }
}

/// Where an error happened: as much of file, object and offset as is known.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Context {
    /// The file being read or written.
    pub path: Option<PathBuf>,
    /// Variable, dimension, attribute or group the operation concerned.
    pub object: Option<String>,
    /// Byte offset in the file.
    pub offset: Option<u64>,
    /// Free text: what was being done or parsed.
    pub detail: Option<String>,
    /// The library call that failed, for tools that report it as netcdf-c's do
    /// (`"nc_get_vara"` for a read of variable data).
    pub operation: Option<&'static str>,
    /// georust `netcdf`'s variant for this failure, when it has its own (see
    /// [`Error::as_georust`]).
    pub(crate) georust: Option<crate::GeorustError>,
}

/// A purecdf error: a kind plus context and an optional underlying I/O error.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    context: Box<Context>,
    source: Option<std::io::Error>,
    /// What netcdf-c itself returns for this failure, when that is not `kind`'s code.
    status: Option<i32>,
}

impl Error {
    /// A bare error of the given kind.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            context: Box::default(),
            source: None,
            status: None,
        }
    }

    /// An error of the given kind with an explanation.
    pub fn with_detail(kind: ErrorKind, detail: impl Into<String>) -> Self {
        Error::new(kind).detail(detail)
    }

    /// The netCDF error kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// netcdf-c's numeric code for this error.
    pub fn nc_code(&self) -> i32 {
        self.kind.nc_code()
    }

    /// The context recorded so far.
    pub fn context(&self) -> &Context {
        &self.context
    }

    pub(crate) fn context_mut(&mut self) -> &mut Context {
        &mut self.context
    }

    /// netcdf-c's status as georust `netcdf` reports it: the system error number of a failed
    /// file operation (2 for a missing file), else [`Error::nc_status`].
    pub(crate) fn georust_status(&self) -> i32 {
        match (self.status, &self.source) {
            (None, Some(e)) => e.raw_os_error().unwrap_or(self.nc_status()),
            _ => self.nc_status(),
        }
    }

    /// Adds (or replaces) the file path.
    pub fn path(mut self, path: impl Into<PathBuf>) -> Self {
        self.context.path = Some(path.into());
        self
    }

    /// Records the library call that failed (see [`Context::operation`]), unless one is set.
    pub fn during(mut self, operation: &'static str) -> Self {
        if self.context.operation.is_none() {
            self.context.operation = Some(operation);
        }
        self
    }

    /// Adds the object (variable, attribute, dimension) concerned, unless one is already set.
    pub fn object(mut self, object: impl Into<String>) -> Self {
        if self.context.object.is_none() {
            self.context.object = Some(object.into());
        }
        self
    }

    /// Adds the byte offset concerned, unless one is already set.
    pub fn offset(mut self, offset: u64) -> Self {
        if self.context.offset.is_none() {
            self.context.offset = Some(offset);
        }
        self
    }

    /// Adds an explanation, unless one is already set.
    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        if self.context.detail.is_none() {
            self.context.detail = Some(detail.into());
        }
        self
    }

    /// Wraps an I/O error.
    pub fn io(err: std::io::Error) -> Self {
        let kind = match err.kind() {
            std::io::ErrorKind::NotFound => ErrorKind::NotFound,
            std::io::ErrorKind::UnexpectedEof => ErrorKind::Trunc,
            std::io::ErrorKind::PermissionDenied => ErrorKind::Perm,
            std::io::ErrorKind::AlreadyExists => ErrorKind::Exist,
            _ => ErrorKind::Io,
        };
        Error {
            kind,
            context: Box::default(),
            source: Some(err),
            status: None,
        }
    }

    /// Records the status netcdf-c 4.9 returns for the same failure when it differs from this
    /// error's kind (a negative `NC_E*` code, or a positive system error number such as 22,
    /// `EINVAL`); [`Error::nc_message`] then gives netcdf-c's text. purecdf's reader often
    /// notices damage earlier and more precisely than netcdf-c, whose tools report it otherwise.
    pub fn netcdf_c_status(mut self, status: i32) -> Self {
        self.status = (status != self.kind.nc_code()).then_some(status);
        self
    }

    /// The status netcdf-c returns for this failure: the recorded one, else the kind's code.
    pub fn nc_status(&self) -> i32 {
        self.status.unwrap_or(self.kind.nc_code())
    }

    /// The message netcdf-c's tools print for this error (the `nc_strerror` text, or the OS error
    /// text for system errors, as netcdf-c does for positive errno codes).
    pub fn nc_message(&self) -> String {
        if let Some(status) = self.status {
            if status > 0 {
                let s = std::io::Error::from_raw_os_error(status).to_string();
                return match s.find(" (os error") {
                    Some(i) => s[..i].to_string(),
                    None => s,
                };
            }
            if let Some(kind) = ErrorKind::from_nc_code(status) {
                return kind.nc_message().to_string();
            }
        }
        self.own_message()
    }

    /// The message of this error's own kind (or the OS error text).
    fn own_message(&self) -> String {
        match (&self.source, self.kind) {
            (Some(e), ErrorKind::NotFound | ErrorKind::Perm | ErrorKind::Io) => {
                let s = e.to_string();
                // std appends " (os error N)"; netcdf-c prints strerror() alone.
                match s.find(" (os error") {
                    Some(i) => s[..i].to_string(),
                    None => s,
                }
            }
            _ => self.kind.nc_message().to_string(),
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        Error::io(err)
    }
}

impl From<std::convert::Infallible> for Error {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl From<&str> for Error {
    /// An error of kind [`ErrorKind::Inval`] with this text as its detail (georust `netcdf`
    /// makes errors from text too).
    fn from(detail: &str) -> Self {
        Error::with_detail(ErrorKind::Inval, detail)
    }
}

impl From<String> for Error {
    /// As `From<&str>`.
    fn from(detail: String) -> Self {
        Error::with_detail(ErrorKind::Inval, detail)
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.own_message())?;
        let c = &self.context;
        if let Some(p) = &c.path {
            write!(f, " [file {}]", p.display())?;
        }
        if let Some(o) = &c.object {
            write!(f, " [{o}]")?;
        }
        if let Some(off) = c.offset {
            write!(f, " [offset {off}]")?;
        }
        if let Some(d) = &c.detail {
            write!(f, ": {d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}

/// Shorthand for `Err(Error::with_detail(kind, detail))`.
pub(crate) fn fail<T>(kind: ErrorKind, detail: impl Into<String>) -> Result<T> {
    Err(Error::with_detail(kind, detail))
}

#[cfg(test)]
mod tests {
    use super::ErrorKind;

    /// `from_nc_code` inverts `nc_code` for every kind (each kind has a code of its own), and
    /// codes keep netcdf-c's numbers (`netcdf.h`).
    #[test]
    fn codes_round_trip() {
        for &k in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_nc_code(k.nc_code()), Some(k), "{k:?}");
        }
        for (code, k) in [
            (-112, ErrorKind::StrictNc3),
            (-122, ErrorKind::LateFill),
            (-126, ErrorKind::Storage),
            (-141, ErrorKind::NoObject),
        ] {
            assert_eq!(ErrorKind::from_nc_code(code), Some(k));
        }
        assert_eq!(ErrorKind::from_nc_code(-1000), None);
    }
}
