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

bitflags::bitflags! {
    /// netcdf-c's mode flags as georust `netcdf` names them, for [`crate::create_with`] and
    /// [`crate::open_with`]: `Options::NETCDF4 | Options::NOCLOBBER`. The empty set creates a
    /// classic (CDF-1) file. A `bitflags` type, as georust's: `insert`, `remove`, `contains`,
    /// `union`, `from_bits`, `is_empty` and the operators work the same, and unknown bits are
    /// kept.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
    pub struct Options: i32 {
        /// Open with write permission (`NC_WRITE`; use [`crate::append`] for a writable file).
        const WRITE = 0x0001;
        /// Fail if the file exists (`NC_NOCLOBBER`).
        const NOCLOBBER = 0x0004;
        /// Keep the file in memory until it is closed (`NC_DISKLESS`).
        const DISKLESS = 0x0008;
        /// The CDF-5 format (`NC_64BIT_DATA`).
        const _64BIT_DATA = 0x0020;
        /// The CDF-2 format (`NC_64BIT_OFFSET`).
        const _64BIT_OFFSET = 0x0200;
        /// With `NETCDF4`: the netCDF-4 classic model (`NC_CLASSIC_MODEL`).
        const CLASSIC = 0x0100;
        /// Limit buffering (`NC_SHARE`; no effect here).
        const SHARE = 0x0800;
        /// The netCDF-4 (HDF5) format (`NC_NETCDF4`).
        const NETCDF4 = 0x1000;
        /// Read from memory (`NC_INMEMORY`; use [`crate::open_mem`]).
        const INMEMORY = 0x8000;
        /// No attribute creation order in netCDF-4 files (`NC_NOATTCREORD`; purecdf always
        /// tracks it, as netcdf-c does by default).
        const NOATTCREORD = 0x20000;
        /// No dimension scales attached to variables (`NC_NODIMSCALE_ATTACH`; purecdf always
        /// attaches them, as netcdf-c does by default).
        const NODIMSCALE_ATTACH = 0x40000;

        // Other netcdf-c mode bits are kept as they are.
        const _ = !0;
    }
}

impl Options {
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
