//! How a file is created or opened: purecdf's [`CreateOptions`] and georust `netcdf`'s
//! [`Options`] flags (netcdf-c's mode bits), which convert into it.

use crate::backend::Format;
use crate::dispatch::OpenOptions;

/// Options for creating a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreateOptions {
    /// The format to write.
    pub format: Format,
    /// Fail with NC_EEXIST if the file exists (NC_NOCLOBBER).
    pub noclobber: bool,
    /// Write the file as netcdf-c does for `NC_DISKLESS | NC_PERSIST` (an in-memory file
    /// written out at close, `nccopy -w`), whose bytes can differ from a file written through
    /// netcdf-c's page buffer: its length is the end of every region ever accessed and its
    /// unwritten space is zeros.
    pub diskless: bool,
}

impl Default for CreateOptions {
    fn default() -> Self {
        CreateOptions {
            format: Format::Classic,
            noclobber: false,
            diskless: false,
        }
    }
}

impl From<Format> for CreateOptions {
    /// Options that create a file of this format, clobbering any file there.
    fn from(format: Format) -> Self {
        CreateOptions {
            format,
            ..CreateOptions::default()
        }
    }
}

/// netcdf-c's mode flags as georust `netcdf` names them, for [`crate::create_with`] and
/// [`crate::open_with`]: `Options::NETCDF4 | Options::NOCLOBBER`. The empty set creates a
/// classic (CDF-1) file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Options(i32);

impl Options {
    /// Open with write permission (`NC_WRITE`; use [`crate::append`] for a writable file).
    pub const WRITE: Options = Options(0x0001);
    /// Fail if the file exists (`NC_NOCLOBBER`).
    pub const NOCLOBBER: Options = Options(0x0004);
    /// Keep the file in memory until it is closed (`NC_DISKLESS`).
    pub const DISKLESS: Options = Options(0x0008);
    /// The CDF-5 format (`NC_64BIT_DATA`).
    pub const _64BIT_DATA: Options = Options(0x0020);
    /// The CDF-2 format (`NC_64BIT_OFFSET`).
    pub const _64BIT_OFFSET: Options = Options(0x0200);
    /// With `NETCDF4`: the netCDF-4 classic model (`NC_CLASSIC_MODEL`).
    pub const CLASSIC: Options = Options(0x0100);
    /// Limit buffering (`NC_SHARE`; no effect here).
    pub const SHARE: Options = Options(0x0800);
    /// The netCDF-4 (HDF5) format (`NC_NETCDF4`).
    pub const NETCDF4: Options = Options(0x1000);
    /// Read from memory (`NC_INMEMORY`; use [`crate::open_mem`]).
    pub const INMEMORY: Options = Options(0x8000);

    /// No flags.
    pub const fn empty() -> Options {
        Options(0)
    }

    /// The netcdf-c mode bits.
    pub const fn bits(self) -> i32 {
        self.0
    }

    /// True when every flag of `other` is set.
    pub const fn contains(self, other: Options) -> bool {
        self.0 & other.0 == other.0
    }

    /// The format these flags create, as `nc_create` picks it.
    pub fn format(self) -> Format {
        match (
            self.contains(Options::NETCDF4),
            self.contains(Options::CLASSIC),
        ) {
            (true, true) => Format::Netcdf4Classic,
            (true, false) => Format::Netcdf4,
            _ if self.contains(Options::_64BIT_DATA) => Format::Cdf5,
            _ if self.contains(Options::_64BIT_OFFSET) => Format::Offset64,
            _ => Format::Classic,
        }
    }
}

impl std::ops::BitOr for Options {
    type Output = Options;
    fn bitor(self, rhs: Options) -> Options {
        Options(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Options {
    fn bitor_assign(&mut self, rhs: Options) {
        self.0 |= rhs.0;
    }
}

impl From<Options> for CreateOptions {
    fn from(o: Options) -> Self {
        CreateOptions {
            format: o.format(),
            noclobber: o.contains(Options::NOCLOBBER),
            diskless: false,
        }
    }
}

impl From<Options> for OpenOptions {
    /// netcdf-c's flags change nothing in how purecdf reads: the default options.
    fn from(_: Options) -> Self {
        OpenOptions::default()
    }
}

/// Opens a dataset for writing, as [`crate::append`] (georust's `append_with`; netcdf-c's flags
/// change nothing here).
///
/// # Errors
/// As [`crate::append`].
pub fn append_with(
    path: impl AsRef<std::path::Path>,
    _options: Options,
) -> crate::Result<crate::FileMut> {
    crate::append(path)
}
