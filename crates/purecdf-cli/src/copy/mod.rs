//! `nccopy`: copy a netCDF file between any two of the formats (CDF-1, CDF-2, CDF-5, netCDF-4,
//! netCDF-4 classic model), optionally compressing, rechunking, fixing unlimited dimensions or
//! keeping only some variables or groups; a clone of netcdf-c 4.9.0's `nccopy` built on the
//! purecdf API, following its `ncdump/nccopy.c` step by step.
//!
//! Definitions are made in the reference's order with fill mode off (`nc_set_fill(NC_NOFILL)`):
//! groups, user types, then per group dimensions, attributes and variables (`schema`), each
//! output variable's storage, compression, checksum, byte order and filters decided by
//! `copy_var_specials`' rules (`specials`), `-c` specs resolved as `chunkspec.c` resolves them
//! ([`chunkspec`]). For classic-family copies the output bytes equal the reference tool's; for
//! netCDF-4 output, `ncdump -s` prints the same. Data is copied in the reference's order
//! ([`data`]): through a bounded buffer (`-m`, default 5,000,000 bytes) into contiguous storage,
//! in blocks of whole output chunks into chunked storage. Formats: the classic format spec, "The
//! NetCDF Classic Format Specification", and its "NetCDF-4 Format" section.
//!
//! Messages and exit codes follow the reference: usage errors print `progname: message` (or the
//! usage text), library errors print the `nc_strerror` text and netcdf-c's
//! `Location: file ; line N` line (the line of the failing `NC_CHECK` in `nccopy.c`), then
//! purecdf's context when it has some (not for a filter without a plugin, where the reference's
//! two lines are all); every failure exits 1. A netCDF-4 output that fails before its
//! definitions end is left as netcdf-c leaves it: an HDF5 file with an empty root group.
//!
//! `-w` writes the output as netcdf-c's in-memory store would (`NC_DISKLESS`, see
//! `purecdf::CreateOptions::diskless`), but builds it in a temporary file beside the destination
//! (purecdf has no in-memory writer yet) and reports a failure to write it, where netcdf-c silently
//! drops it. Other deliberate differences from the reference: a classic header claiming far more
//! data than the file holds is refused (NC_ETRUNC) instead of copied as zeros for hours; an output
//! that is the input under another name is refused as netcdf-c refuses the same name; an empty
//! `-v`/`-V` item is an error (netcdf-c reads uninitialised memory); a record of one variable
//! larger than 256 MiB ([`MAX_PIECE_BYTES`]) is copied in pieces (netcdf-c copies each record
//! whole, whatever `-m` says, as we do below that size), which can change the bytes netcdf-c's page
//! buffer leaves in no-fill record padding of such files. `-F` follows netcdf-c 4.9.0's
//! `nccopy.c` where its behaviour differs from its documentation ([`filters`]).
//! netcdf-c bugs not reproduced: a never-written `_NoFill` netCDF-4 variable is copied as zeros
//! (netcdf-c copies whatever its buffer held before); a chunked variable named like a dimension it
//! does not start with is written to its own dataset (netcdf-c's `nc_set_var_chunk_cache`
//! reopens the dimension's dataset by name, then fails or writes there).

pub mod chunkspec;
pub mod data;
pub mod filters;
pub mod options;
pub mod plan;
pub mod progress;
mod schema;
mod specials;

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use purecdf::model::{GroupId, ROOT};
use purecdf::{CreateOptions, Error, ErrorKind, File, VarId};

use chunkspec::ChunkSpecs;
use options::{ArgError, Kind, Options};
use schema::Ctx;

/// Largest piece read at once, whatever `-m` says: a bigger buffer only saves system calls, and
/// this bounds what a lying header can make us allocate.
pub const MAX_PIECE_BYTES: u64 = 256 << 20;

/// Why a copy stopped.
#[derive(Debug)]
pub enum Failure {
    /// Bad command line: `getopt`'s complaint (if any) and the usage text.
    Usage(Option<String>),
    /// `progname: message`.
    Message(String),
    /// A library call failed at the place netcdf-c's `NC_CHECK` on source line `line` would.
    Nc {
        /// The error.
        err: Error,
        /// The matching line of netcdf-c 4.9.0's `ncdump/nccopy.c`.
        line: u32,
    },
    /// A netcdf-c error that purecdf's [`ErrorKind`] does not name (NC_EBADCHUNK).
    Code {
        /// The `nc_strerror` text.
        message: &'static str,
        /// What was wrong.
        detail: String,
        /// The matching line of netcdf-c 4.9.0's `ncdump/nccopy.c`.
        line: u32,
    },
}

impl From<ArgError> for Failure {
    fn from(e: ArgError) -> Self {
        match e {
            ArgError::Usage(m) => Failure::Usage(m),
            ArgError::Message(m) => Failure::Message(m),
            ArgError::Nc(kind, line) => Failure::Nc {
                err: Error::new(kind),
                line,
            },
        }
    }
}

/// Attaches the `nccopy.c` line of the equivalent `NC_CHECK` to a library result.
trait At<T> {
    fn at(self, line: u32) -> Result<T, Failure>;
}

impl<T> At<T> for purecdf::Result<T> {
    fn at(self, line: u32) -> Result<T, Failure> {
        self.map_err(|err| Failure::Nc { err, line })
    }
}

/// Writes a failure to `w` the way netcdf-c's `nccopy` does.
pub fn report(w: &mut dyn Write, progname: &str, f: &Failure) -> std::io::Result<()> {
    match f {
        Failure::Usage(m) => {
            if let Some(m) = m {
                writeln!(w, "{progname}: {m}")?;
            }
            writeln!(w, "{progname}: {}", options::usage_text(progname))
        }
        Failure::Message(m) => writeln!(w, "{progname}: {m}"),
        Failure::Code {
            message,
            detail,
            line,
        } => {
            writeln!(w, "{message}")?;
            writeln!(w, "Location: file ; line {line}")?;
            writeln!(w, "{progname}: {message}: {detail}")
        }
        Failure::Nc { err, line } => {
            writeln!(w, "{}", err.nc_message())?;
            writeln!(w, "Location: file ; line {line}")?;
            let c = err.context();
            if c.object.is_some() || c.offset.is_some() || c.detail.is_some() {
                writeln!(w, "{progname}: {err}")?;
            }
            Ok(())
        }
    }
}

/// Runs `nccopy` with `args` (the first is the program name); returns the exit status.
pub fn main_with_args(args: Vec<OsString>) -> i32 {
    let progname = args.first().map_or_else(
        || "nccopy".to_string(),
        |a| a.to_string_lossy().into_owned(),
    );
    let rest = args.get(1..).unwrap_or(&[]);
    let result = options::parse(rest)
        .map_err(Failure::from)
        .and_then(|o| copy(&o));
    match result {
        Ok(()) => 0,
        Err(f) => {
            let _ = std::io::stdout().flush();
            let _ = report(&mut std::io::stderr().lock(), &progname, &f);
            1
        }
    }
}

/// Copies `o.input` to `o.output` as the options say.
///
/// # Errors
/// A [`Failure`] describing the first problem, in the order netcdf-c meets them.
pub fn copy(o: &Options) -> Result<(), Failure> {
    let input = open_input(o).at(2016)?;
    let in_kind = Kind::of_format(input.format());
    if in_kind.is_classic_family() {
        check_plausible_size(&input, o).at(2016)?;
    }
    let s = input.schema();
    let out_kind = plan::output_kind(in_kind, o);
    let mut specs = ChunkSpecs::default();
    for spec in &o.chunkspecs {
        match specs.add(s, in_kind.is_classic_family(), spec) {
            Ok(()) => {}
            Err(chunkspec::SpecError::Kind(kind, detail)) => {
                let err = Error::with_detail(kind, detail);
                return Err(Failure::Nc { err, line: 2051 });
            }
            Err(chunkspec::SpecError::BadChunk(detail)) => {
                return Err(Failure::Code {
                    message: "NetCDF: Bad chunk sizes.",
                    detail,
                    line: 2051,
                })
            }
        }
    }
    if let Some(name) = plan::first_missing_var(s, &o.vars) {
        return Err(Failure::Message(format!("{name}: No such variable")));
    }
    let wanted = if o.groups.is_empty() {
        None
    } else {
        if in_kind != Kind::Netcdf4 {
            return Err(Failure::Message(
                "Group list (-g ...) only permitted for netCDF-4 file".into(),
            ));
        }
        Some(plan::group_matches(s, &o.groups).map_err(Failure::Message)?)
    };
    if same_file(&o.input, &o.output) {
        // netcdf-c compares the names only, and truncates its own input when they differ.
        return Err(Failure::Message("output would overwrite input".into()));
    }
    let job = Job {
        input: &input,
        o,
        in_kind,
        out_kind,
        specs: &specs,
        wanted,
    };
    if !o.write_diskless {
        return job.write_output(&o.output);
    }
    // -w: the output is built in a temporary file beside the destination and moved into place
    // at close; the destination only ever holds a whole copy.
    let mut tmp = o.output.clone().into_os_string();
    tmp.push(format!(".nccopy-{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let r = job.write_output(&tmp).and_then(|()| {
        std::fs::rename(&tmp, &o.output)
            .map_err(|e| Error::io(e).path(&o.output))
            .at(2145)
    });
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// What [`copy`] decided before creating the output.
struct Job<'a> {
    input: &'a File,
    o: &'a Options,
    in_kind: Kind,
    out_kind: Kind,
    specs: &'a ChunkSpecs,
    wanted: Option<Vec<GroupId>>,
}

impl Job<'_> {
    /// Creates `path`, defines everything, copies the data and closes (`copy` after
    /// `nc_create`).
    fn write_output(&self, path: &Path) -> Result<(), Failure> {
        let create = CreateOptions {
            format: self.out_kind.format(),
            noclobber: false,
            diskless: self.o.write_diskless,
        };
        let mut out = purecdf::create_with(path, create).at(2104)?;
        out.set_fill(false).at(2105)?;
        let mut c = Ctx {
            input: self.input,
            s: self.input.schema(),
            out: &mut out,
            o: self.o,
            inkind: self.in_kind,
            outkind: self.out_kind,
            specs: self.specs,
            wanted: self.wanted.clone(),
            min_chunk: self
                .o
                .min_chunk
                .map_or(specials::CHUNK_THRESHOLD, |m| m as u64),
            groups: HashMap::new(),
            dims: HashMap::new(),
            vars: HashMap::new(),
        };
        let defined = (|| {
            if self.in_kind == Kind::Netcdf4 {
                c.copy_groups()?;
                c.copy_types(ROOT)?;
            } else {
                c.groups.insert(ROOT, ROOT);
            }
            c.copy_schema(ROOT)?;
            c.out.enddef().at(2119)
        })();
        if let Err(f) = defined {
            drop(c);
            // What netcdf-c's nccopy leaves when it fails before `nc_enddef`: it exits without
            // closing (a netCDF-4 output then holds an empty HDF5 root group).
            if !self.out_kind.is_classic_family() && !self.o.write_diskless {
                let _ = out.abandon();
            }
            return Err(f);
        }
        data::copy_data(&mut c)?;
        out.close().at(2145)
    }
}

/// True when both paths name one existing file (`in.nc` and `./in.nc`, hard links).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Opens the input: from disk, or with `-r` read whole into memory first (netcdf-c's
/// `NC_DISKLESS` open).
fn open_input(o: &Options) -> purecdf::Result<File> {
    if o.read_diskless {
        let bytes = std::fs::read(&o.input).map_err(|e| Error::io(e).path(&o.input))?;
        purecdf::open_bytes(bytes).map_err(|e| e.path(&o.input))
    } else {
        purecdf::open(&o.input)
    }
}

/// Refuses classic inputs whose header claims far more data than the file holds (a corrupt or
/// hostile `numrecs` or dimension length), which would otherwise make the copy run for hours
/// writing zeros. netcdf-c reads missing data as zeros, and so do we for a modest shortfall (a
/// file cut short in its last records still copies as the reference copies it); the limit is
/// the file's own length again, and at least 16 MiB.
fn check_plausible_size(input: &File, o: &Options) -> purecdf::Result<()> {
    let Ok(meta) = std::fs::metadata(&o.input) else {
        return Ok(());
    };
    let file_len = meta.len();
    let s = input.schema();
    let claimed = (0..s.vars.len())
        .map(|v| {
            let v = VarId(v);
            let size = (s.type_size(s.var(v).typ) as u64).max(1);
            s.shape(v).iter().fold(size, |a, &n| a.saturating_mul(n))
        })
        .fold(0u64, u64::saturating_add);
    let limit = file_len.saturating_add(file_len.max(16 << 20));
    if claimed > limit {
        return Err(Error::with_detail(
            ErrorKind::Trunc,
            format!(
                "the header describes {claimed} bytes of data but the file has only {file_len} bytes"
            ),
        )
        .path(&o.input));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: &Failure) -> String {
        let mut v = Vec::new();
        report(&mut v, "nccopy", f).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn reports_like_netcdf_c() {
        let f = Failure::Message("w: No such variable".into());
        assert_eq!(text(&f), "nccopy: w: No such variable\n");
        let f = Failure::Nc {
            err: Error::new(ErrorKind::NotNc),
            line: 2016,
        };
        assert_eq!(
            text(&f),
            "NetCDF: Unknown file format\nLocation: file ; line 2016\n"
        );
        let f = Failure::Usage(Some("invalid option -- 'Z'".into()));
        let t = text(&f);
        assert!(t.starts_with("nccopy: invalid option -- 'Z'\nnccopy: nccopy [-k kind]"));
        assert!(t.ends_with(")\n"));
    }

    #[test]
    fn missing_input_fails_at_open() {
        let o = Options {
            input: "/nonexistent/in.nc".into(),
            output: "/nonexistent/out.nc".into(),
            ..Options::default()
        };
        let f = copy(&o).unwrap_err();
        assert_eq!(
            text(&f),
            "No such file or directory\nLocation: file ; line 2016\n"
        );
    }
}
