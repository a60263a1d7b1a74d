//! `nccopy`: copy a netCDF file, optionally changing its format, fixing its unlimited dimension or
//! keeping only some variables; a clone of netcdf-c 4.9.0's `nccopy` built on the purecdf API.
//!
//! For classic-family copies (CDF-1, CDF-2, CDF-5 in and out) the output bytes equal the reference
//! tool's: definitions are made in its order with fill mode off (`nc_set_fill(NC_NOFILL)`), see
//! [`plan`]. Data is streamed through a bounded buffer (`-m`, default 5,000,000 bytes): no read is
//! larger than the buffer or one element. netCDF-4 output (`-4`, `-7`, `-k nc4`, and `-d`/`-s`/`-c`/
//! `-F` when they imply it) fails with a clear "not supported yet" error (the library returns
//! `NotBuilt`). Formats: the classic format spec, "The NetCDF Classic Format Specification".
//!
//! Messages and exit codes follow the reference: usage errors print `progname: message` (or the
//! usage text), library errors print the `nc_strerror` text and netcdf-c's
//! `Location: file ; line N` line, then purecdf's context when it has some; every failure exits 1.
//!
//! `-w` writes the output as netcdf-c's in-memory store would (`NC_DISKLESS`, see
//! `purecdf::CreateOptions::diskless`), but builds it in a temporary file beside the destination
//! (purecdf has no in-memory writer yet) and reports a failure to write it, where netcdf-c silently
//! drops it. Other deliberate differences from the reference: a header claiming far more data than
//! the file holds is refused (NC_ETRUNC) instead of copied as zeros for hours; an output that is
//! the input under another name is refused as netcdf-c refuses the same name; an empty `-v`/`-V`
//! item is an error (netcdf-c reads uninitialised memory); a record of one variable larger than
//! 256 MiB ([`MAX_PIECE_BYTES`]) is copied in pieces (netcdf-c copies each record whole, whatever
//! `-m` says, as we do below that size), which can change the bytes netcdf-c's page buffer leaves
//! in no-fill record padding of such files.

pub mod chunkspec;
pub mod options;
pub mod plan;
pub mod progress;

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use purecdf::model::ROOT;
use purecdf::{CreateOptions, Error, ErrorKind, File, FileMut, NcType, VarId};

use options::{ArgError, Kind, Options};
use plan::{DataOrder, Piece};
use progress::Progress;

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
    check_plausible_size(&input, o).at(2016)?;
    let s = input.schema();
    let in_kind = Kind::of_format(input.format());
    let out_kind = plan::output_kind(in_kind, o);
    for spec in &o.chunkspecs {
        match chunkspec::check(s, spec) {
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
    if !o.groups.is_empty() && in_kind != Kind::Netcdf4 {
        return Err(Failure::Message(
            "Group list (-g ...) only permitted for netCDF-4 file".into(),
        ));
    }
    if s.groups.len() > 1 {
        return Err(Failure::Message(
            "copying groups is not supported yet".into(),
        ));
    }
    if same_file(&o.input, &o.output) {
        // netcdf-c compares the names only, and truncates its own input when they differ.
        return Err(Failure::Message("output would overwrite input".into()));
    }
    if !o.write_diskless {
        return write_output(&input, o, out_kind, &o.output);
    }
    // -w: purecdf has no in-memory writer yet, so the output is built in a temporary file beside
    // the destination and moved into place at close; the destination only ever holds a whole copy.
    let mut tmp = o.output.clone().into_os_string();
    tmp.push(format!(".nccopy-{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let r = write_output(&input, o, out_kind, &tmp).and_then(|()| {
        std::fs::rename(&tmp, &o.output)
            .map_err(|e| Error::io(e).path(&o.output))
            .at(2145)
    });
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// True when both paths name one existing file (`in.nc` and `./in.nc`, hard links).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Creates `path` and copies definitions and data into it.
fn write_output(input: &File, o: &Options, out_kind: Kind, path: &Path) -> Result<(), Failure> {
    let create = CreateOptions {
        format: out_kind.format(),
        noclobber: false,
        diskless: o.write_diskless,
    };
    let mut out = match purecdf::create_with(path, create) {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotBuilt => {
            return Err(Failure::Message(format!(
                "{} output is not supported yet{}: {e}",
                out_kind.format().kind_name(),
                netcdf4_reason(o)
            )))
        }
        Err(e) => return Err(Failure::Nc { err: e, line: 2104 }),
    };
    out.set_fill(false).at(2105)?;
    let varmap = copy_schema(input, &mut out, o, out_kind)?;
    out.enddef().at(2119)?;
    copy_data(input, &mut out, o, &varmap)?;
    out.close().at(2145)
}

/// Opens the input: from disk, or with `-r` read whole into memory first (netcdf-c's
/// `NC_DISKLESS` open).
fn open_input(o: &Options) -> purecdf::Result<File> {
    if o.read_diskless {
        let bytes = std::fs::read(&o.input).map_err(|e| Error::io(e).path(&o.input))?;
        purecdf::open_mem(bytes).map_err(|e| e.path(&o.input))
    } else {
        purecdf::open(&o.input)
    }
}

/// Refuses inputs whose header claims far more data than the file holds (a corrupt or hostile
/// `numrecs` or dimension length), which would otherwise make the copy run for hours writing
/// zeros. netcdf-c reads missing data as zeros, and so do we for a modest shortfall (a file cut
/// short in its last records still copies as the reference copies it); the limit is the file's
/// own length again, and at least 16 MiB.
fn check_plausible_size(input: &File, o: &Options) -> purecdf::Result<()> {
    let Ok(meta) = std::fs::metadata(&o.input) else {
        return Ok(());
    };
    let file_len = meta.len();
    let s = input.schema();
    let claimed = (0..s.vars.len())
        .map(|v| {
            let v = VarId(v);
            s.shape(v)
                .iter()
                .fold(elem_size(input, v), |a, &n| a.saturating_mul(n))
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

/// Which options asked for netCDF-4 output, for the "not supported" message.
fn netcdf4_reason(o: &Options) -> &'static str {
    if !o.filters.is_empty() {
        " (-F needs netCDF-4 output)"
    } else if o.kind.is_none() {
        " (-d, -s and -c need netCDF-4 output)"
    } else {
        ""
    }
}

/// Defines dimensions, global attributes and variables (with their attributes) in netcdf-c's
/// order; returns the output id of each defined input variable.
fn copy_schema(
    input: &File,
    out: &mut FileMut,
    o: &Options,
    kind: Kind,
) -> Result<HashMap<VarId, VarId>, Failure> {
    let s = input.schema();
    let mut dimmap = HashMap::new();
    for d in plan::dim_defs(s, ROOT, o.fix_unlimited) {
        let line = if d.unlimited { 1375 } else { 1377 };
        let len = if d.unlimited { 0 } else { d.len };
        let id = out
            .add_dimension_in(ROOT, &d.name, len, d.unlimited)
            .at(line)?;
        dimmap.insert(d.src, id);
    }
    for a in &s.group(ROOT).atts {
        put_att(out, None, kind, &a.name, &a.values)?;
    }
    let mut varmap = HashMap::new();
    for v in plan::vars_to_define(s, ROOT, o) {
        let var = s.var(v);
        let dims: Vec<_> = var.dims.iter().map(|d| dimmap[d]).collect();
        let ov = match plan::type_allowed(kind, var.typ) {
            Ok(()) => out
                .add_variable_in(ROOT, &var.name, var.typ, &dims)
                .at(1452)?,
            Err(k) => {
                let err = Error::new(k).object(var.name.clone());
                return Err(Failure::Nc { err, line: 1452 });
            }
        };
        for a in &var.atts {
            put_att(out, Some(ov), kind, &a.name, &a.values)?;
        }
        varmap.insert(v, ov);
    }
    Ok(varmap)
}

/// `nc_copy_att`, with the output format's type check.
fn put_att(
    out: &mut FileMut,
    var: Option<VarId>,
    kind: Kind,
    name: &str,
    values: &purecdf::Values,
) -> Result<(), Failure> {
    if let Err(k) = plan::type_allowed(kind, values.nc_type()) {
        let err = Error::new(k).object(name.to_string());
        return Err(Failure::Nc { err, line: 1408 });
    }
    out.put_attribute(ROOT, var, name, values.clone()).at(1408)
}

/// Size in bytes of one element of a variable (at least 1).
fn elem_size(input: &File, v: VarId) -> u64 {
    let s = input.schema();
    (s.type_size(s.var(v).typ) as u64).max(1)
}

/// Copies the data in netcdf-c's order, piece by piece through the bounded buffer.
fn copy_data(
    input: &File,
    out: &mut FileMut,
    o: &Options,
    varmap: &HashMap<VarId, VarId>,
) -> Result<(), Failure> {
    let s = input.schema();
    let order: DataOrder = plan::data_order(s, o);
    let var_bytes = |v: VarId| -> u64 {
        s.shape(v)
            .iter()
            .fold(elem_size(input, v), |a, &n| a.saturating_mul(n))
    };
    let total = order
        .whole
        .iter()
        .chain(&order.by_record)
        .fold(0u64, |a, &v| a.saturating_add(var_bytes(v)));
    let mut c = Copier {
        input,
        out,
        varmap,
        limit: o.buffer.min(MAX_PIECE_BYTES),
        buf: Vec::new(),
        progress: Progress::new(total),
    };
    for &v in &order.whole {
        let shape = s.shape(v);
        let start = vec![0; shape.len()];
        let limit = c.limit;
        c.region(v, &start, &shape, (1681, 1685), limit)?;
    }
    for rec in 0..order.nrecs {
        for &v in &order.by_record {
            let mut count = s.shape(v);
            let mut start = vec![0; count.len()];
            if let Some(first) = count.first_mut() {
                *first = 1;
                start[0] = rec;
            }
            // netcdf-c copies a record of a variable in one call whatever `-m` says.
            c.region(v, &start, &count, (1908, 1909), MAX_PIECE_BYTES)?;
        }
    }
    c.progress.finish();
    Ok(())
}

/// The state of the data copy: both files, the variable map and one reused buffer.
struct Copier<'a> {
    input: &'a File,
    out: &'a mut FileMut,
    varmap: &'a HashMap<VarId, VarId>,
    /// Largest piece of a fixed-size variable in bytes (`-m`, capped at [`MAX_PIECE_BYTES`]).
    limit: u64,
    /// The copy buffer, reused for every piece.
    buf: Vec<u8>,
    progress: Progress,
}

impl Copier<'_> {
    /// Copies one region of variable `v`, cut into pieces of at most `limit` bytes; `lines` are
    /// the `nccopy.c` lines of netcdf-c's get and put calls.
    fn region(
        &mut self,
        v: VarId,
        start: &[u64],
        count: &[u64],
        lines: (u32, u32),
        limit: u64,
    ) -> Result<(), Failure> {
        let Some(&ov) = self.varmap.get(&v) else {
            // netcdf-c looks the output variable up by name and fails with NC_ENOTVAR.
            let name = self.input.schema().var(v).name.clone();
            let err = Error::new(ErrorKind::NotVar).object(name);
            return Err(Failure::Nc { err, line: 1616 });
        };
        let elem = elem_size(self.input, v);
        let var = self.input.variable_by_id(v);
        let fixed_size = var.vartype().is_numeric() || var.vartype() == NcType::Char;
        for Piece { start, count } in plan::pieces(start, count, elem, limit) {
            let sel = (start.as_slice(), count.as_slice());
            if fixed_size {
                var.get_raw_bytes(sel, &mut self.buf).at(lines.0)?;
                self.out.put_raw_bytes(ov, &self.buf, sel).at(lines.1)?;
                self.progress.advance(self.buf.len() as u64);
            } else {
                let values = var.get_raw_values(sel).at(lines.0)?;
                self.out.put_raw_values(ov, &values, sel).at(lines.1)?;
                self.progress.advance(values.len() as u64 * elem);
            }
        }
        Ok(())
    }
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
