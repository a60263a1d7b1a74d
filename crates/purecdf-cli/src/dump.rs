//! `ncdump`: netcdf-c 4.9's command line (`ncdump/ncdump.c` `main`), usage text, messages and
//! exit codes, over the library's CDL printer (`purecdf::cdl::print`); see
//! `shared/spec/ncdump-conventions.md` §9.
//!
//! Arguments are parsed by a small getopt clone instead of clap: netcdf-c relies on GNU `getopt`
//! semantics that clap does not reproduce (grouped flags with an attached argument as in
//! `-hl80`, `-Ln` taking the rest of the word, argument permutation, `--`, and getopt's own
//! `invalid option -- 'Q'` / `option requires an argument -- 'l'` messages followed by
//! ncdump's usage text).

use std::io::Write;

use purecdf::cdl::print::{self, DumpOptions, IndexLang};
use purecdf::{ErrorKind, Format};

/// The option string of ncdump's `getopt` call.
const OPTSTRING: &[u8] = b"b:cd:f:g:hikl:n:p:stv:xwFKL:X:";

/// The usage text after the first line.
const USAGE: &str = "  [-c]             Coordinate variable data and header information
  [-h]             Header information only, no data
  [-v var1[,...]]  Data for variable(s) <var1>,... only
  [-b [c|f]]       Brief annotations for C or Fortran indices in data
  [-f [c|f]]       Full annotations for C or Fortran indices in data
  [-l len]         Line length maximum in data section (default 80)
  [-n name]        Name for netCDF (default derived from file name)
  [-p n[,n]]       Display floating-point values with less precision
  [-k]             Output kind of netCDF file
  [-s]             Output special (virtual) attributes
  [-t]             Output time data as date-time strings
  [-i]             Output time data as date-time strings with ISO-8601 'T' separator
  [-g grp1[,...]]  Data and metadata for group(s) <grp1>,... only
  [-w]             With client-side caching of variables for DAP URLs
  [-x]             Output XML (NcML) instead of CDL
  [-F]             Output _Filter and _Codecs instead of _Fletcher32, _Shuffle, and _Deflate
  [-Xp]            Unconditionally suppress output of the properties attribute
  [-Ln]            Set log level to n (>= 0); ignore if logging not enabled.
  file             Name of netCDF file (or URL if DAP access enabled)
";

/// The library version line of the usage message: the reference tool's, so that the output is
/// byte-identical to netcdf-c 4.9.0's.
const LIB_VERSION: &str = "netcdf library version 4.9.0 of Aug  7 2022 23:41:41 $";

fn usage(progname: &str) {
    let mut e = std::io::stderr().lock();
    let _ = write!(
        e,
        "{progname} [-c|-h] [-v ...] [[-b|-f] [c|f]] [-l len] [-n name] [-p n[,n]] [-k] [-x] [-s] [-t|-i] [-g ...] [-w] [-F] [-Ln] file\n{USAGE}{LIB_VERSION}\n"
    );
}

/// One getopt result.
#[derive(Debug, PartialEq, Eq)]
enum Opt {
    /// A known option and its argument, if it takes one.
    Flag(u8, Option<String>),
    /// `invalid option -- 'c'`.
    Invalid(u8),
    /// `option requires an argument -- 'c'`.
    Missing(u8),
}

/// GNU getopt over `args` (without argv[0]): options in order, then the operands (permuted to
/// the end, as glibc does unless `POSIXLY_CORRECT` is set).
fn getopt(args: &[String]) -> (Vec<Opt>, Vec<String>) {
    let posix = std::env::var_os("POSIXLY_CORRECT").is_some();
    let mut opts = Vec::new();
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_bytes();
        i += 1;
        if a == b"--" {
            operands.extend(args[i..].iter().cloned());
            break;
        }
        if a.len() < 2 || a[0] != b'-' {
            operands.push(args[i - 1].clone());
            if posix {
                operands.extend(args[i..].iter().cloned());
                break;
            }
            continue;
        }
        let mut k = 1;
        while k < a.len() {
            let c = a[k];
            k += 1;
            let pos = OPTSTRING.iter().position(|&o| o == c && c != b':');
            let Some(pos) = pos else {
                opts.push(Opt::Invalid(c));
                continue;
            };
            if OPTSTRING.get(pos + 1) == Some(&b':') {
                if k < a.len() {
                    let rest = String::from_utf8_lossy(&a[k..]).into_owned();
                    opts.push(Opt::Flag(c, Some(rest)));
                } else if i < args.len() {
                    opts.push(Opt::Flag(c, Some(args[i].clone())));
                    i += 1;
                } else {
                    opts.push(Opt::Missing(c));
                }
                break;
            }
            opts.push(Opt::Flag(c, None));
        }
    }
    (opts, operands)
}

/// C `strtol(s, &end, base)`: value and the number of bytes consumed (0 when no digits).
fn strtol(s: &str, base: u32) -> (i64, usize) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && (b[i] == b' ' || (9..=13).contains(&b[i])) {
        i += 1;
    }
    let mut neg = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        neg = b[i] == b'-';
        i += 1;
    }
    let mut radix = base;
    if (base == 0 || base == 16)
        && b.get(i) == Some(&b'0')
        && matches!(b.get(i + 1), Some(b'x' | b'X'))
        && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        i += 2;
        radix = 16;
    } else if base == 0 && b.get(i) == Some(&b'0') {
        radix = 8;
    } else if base == 0 {
        radix = 10;
    }
    let st = i;
    let mut v: i64 = 0;
    while let Some(d) = b.get(i).and_then(|c| (*c as char).to_digit(radix)) {
        v = v
            .saturating_mul(i64::from(radix))
            .saturating_add(i64::from(d));
        i += 1;
    }
    if i == st {
        return (0, 0);
    }
    (if neg { -v } else { v }, i)
}

/// What the command line asked for.
struct Cmd {
    opts: DumpOptions,
    name_given: bool,
    kind: bool,
    kind_ext: bool,
    xml: bool,
    vars: Vec<String>,
    groups: Vec<String>,
}

/// Prints `ncdump: <msg>` and returns exit status 1 (netcdf-c's `error()`).
fn fail(progname: &str, msg: &str) -> i32 {
    // Names and paths in the message are written with their own bytes.
    let line = format!("{progname}: {msg}\n");
    let _ = std::io::stderr().write_all(&purecdf::model::name_to_bytes(&line));
    1
}

/// The file system path an argument names (its raw bytes on Unix).
fn os_path(path: &str) -> std::path::PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let raw = purecdf::model::name_to_bytes(path);
        std::path::PathBuf::from(std::ffi::OsStr::from_bytes(&raw))
    }
    #[cfg(not(unix))]
    {
        std::path::PathBuf::from(path)
    }
}

/// `-p` / `-d` digits; `Err` with ncdump's message.
fn parse_precision(arg: &str, opts: &mut DumpOptions, overrides: bool) -> Result<(), String> {
    let mut fd: i64 = 7;
    let mut dd: i64 = 15;
    let mut rest: Option<&str> = None;
    if !arg.is_empty() && !arg.starts_with(',') {
        let (v, used) = strtol(arg, 10);
        fd = v;
        rest = Some(&arg[used..]);
        if overrides {
            opts.float_override = true;
        }
    }
    if !(1..=20).contains(&fd) {
        return Err(format!(
            "unreasonable value for float significant digits: {}",
            fd as i32
        ));
    }
    if let Some(r) = rest.and_then(|r| r.strip_prefix(',')) {
        let (v, used) = strtol(r, 10);
        dd = v;
        if overrides {
            opts.double_override = true;
        }
        if used == 0 || !(1..=20).contains(&dd) {
            return Err(format!(
                "unreasonable value for double significant digits: {}",
                dd as i32
            ));
        }
    }
    opts.float_digits = fd as usize;
    opts.double_digits = dd as usize;
    Ok(())
}

fn split_list(arg: &str) -> Vec<String> {
    arg.split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// Parses options; `Err(status)` when ncdump would already have exited.
fn parse(progname: &str, args: &[String]) -> Result<(Cmd, Vec<String>), i32> {
    let (list, operands) = getopt(args);
    let mut cmd = Cmd {
        opts: DumpOptions::new(""),
        name_given: false,
        kind: false,
        kind_ext: false,
        xml: false,
        vars: Vec::new(),
        groups: Vec::new(),
    };
    let o = &mut cmd.opts;
    for opt in list {
        let (c, arg) = match opt {
            Opt::Invalid(c) => {
                eprintln!("{progname}: invalid option -- '{}'", c as char);
                usage(progname);
                return Err(1);
            }
            Opt::Missing(c) => {
                eprintln!("{progname}: option requires an argument -- '{}'", c as char);
                usage(progname);
                return Err(1);
            }
            Opt::Flag(c, a) => (c, a.unwrap_or_default()),
        };
        match c {
            b'h' => o.header_only = true,
            b'c' => o.coord_vals = true,
            b'n' => {
                o.name = arg;
                cmd.name_given = true;
            }
            b'b' | b'f' => {
                if c == b'b' {
                    o.brief = true;
                } else {
                    o.full = true;
                }
                match arg.as_bytes().first().map(u8::to_ascii_lowercase) {
                    Some(b'c') => o.lang = IndexLang::C,
                    Some(b'f') => o.lang = IndexLang::Fortran,
                    _ => {
                        let m = format!("invalid value for -{} option: {arg}", c as char);
                        return Err(fail(progname, &m));
                    }
                }
            }
            b'l' => {
                let v = strtol(&arg, 0).0 as i32;
                if v < 10 {
                    let m = format!("unreasonably small line length specified: {v}");
                    return Err(fail(progname, &m));
                }
                o.line_len = v as usize;
            }
            b'v' => cmd.vars = split_list(&arg),
            b'g' => {
                cmd.groups = split_list(&arg);
                o.groups_given = true;
            }
            b'd' | b'p' => {
                if let Err(m) = parse_precision(&arg, o, c == b'p') {
                    return Err(fail(progname, &m));
                }
            }
            b'x' => cmd.xml = true,
            b'k' => cmd.kind = true,
            b'K' => cmd.kind_ext = true,
            b't' => {
                o.string_times = true;
                o.iso_separator = false;
            }
            b'i' => {
                o.string_times = true;
                o.iso_separator = true;
            }
            b's' => o.special_atts = true,
            b'F' => o.filter_atts = true,
            b'X' => match arg.as_bytes().first().map(u8::to_ascii_lowercase) {
                Some(b'm') => {}
                Some(b'p') => o.suppress_properties = true,
                _ => {
                    let m = format!("invalid value for -X option: {arg}");
                    return Err(fail(progname, &m));
                }
            },
            _ => {} // -w, -L: accepted, nothing to do here
        }
    }
    Ok((cmd, operands))
}

/// `NC_shellUnescape`: `\#` becomes `#`; every other byte, backslashes included, is kept.
fn shell_unescape(s: &str) -> String {
    s.replace("\\#", "#")
}

fn extended_kind(f: Format) -> &'static str {
    match f {
        Format::Classic => "classic mode=00000000",
        Format::Offset64 => "64-bit offset mode=00000200",
        Format::Cdf5 => "64-bit data mode=00000020",
        Format::Netcdf4 | Format::Netcdf4Classic => "HDF5 mode=00001000",
    }
}

/// Runs ncdump with `argv` (including `argv[0]`); returns the exit status.
pub fn run(argv: &[String]) -> i32 {
    let progname = argv.first().map_or("ncdump", String::as_str);
    if argv.len() <= 1 {
        usage(progname);
        return 0;
    }
    let (mut cmd, operands) = match parse(progname, &argv[1..]) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if operands.len() != 1 {
        usage(progname);
        return 1;
    }
    let path = shell_unescape(&operands[0]);
    if !cmd.name_given {
        cmd.opts.name = print::name_from_path(&path);
    }
    let file = match purecdf::open(os_path(&path)) {
        Ok(f) => f,
        Err(e) => {
            let code = fail(progname, &format!("{path}: {}", e.nc_message()));
            // NC_ENCZARR says nothing of what is wrong: name the key, as nccopy adds the
            // library's error after netcdf-c's lines.
            if e.kind() == ErrorKind::Nczarr && e.context().detail.is_some() {
                fail(progname, &e.to_string());
            }
            return code;
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    if cmd.kind {
        let _ = writeln!(out, "{}", file.format().kind_name());
        return finish(out);
    }
    if cmd.kind_ext {
        if file.extended_format() == purecdf::ExtendedFormat::Nczarr {
            // ncdump 4.9.0 has no name for NC_FORMATX_NCZARR (10).
            return fail(progname, "unrecognized extended format: 10");
        }
        let kind = if file.extended_format() == purecdf::ExtendedFormat::Hdf4 {
            "HDF4 mode=00001000"
        } else {
            extended_kind(file.format())
        };
        let _ = writeln!(out, "{kind}");
        return finish(out);
    }
    let schema = file.schema();
    if let Some(v) = print::missing_variable(schema, &cmd.vars) {
        return fail(progname, &format!("{v}: No such variable"));
    }
    cmd.opts.vars = cmd.vars.clone();
    if cmd.opts.groups_given {
        if file.format() != Format::Netcdf4 {
            return 1;
        }
        match print::match_groups(schema, &cmd.groups) {
            Ok(g) => cmd.opts.groups = g,
            Err(e) => return fail(progname, &e.message()),
        }
    }
    let r = if cmd.xml {
        if file.format() == Format::Netcdf4 {
            return fail(
                progname,
                "NcML output (-x) currently only permitted for netCDF classic model",
            );
        }
        print::write_ncml(&file, &cmd.opts, &path, &mut out).map(|warnings| {
            for w in warnings {
                eprintln!("{w}");
            }
        })
    } else {
        let mut err = std::io::stderr().lock();
        print::write_cdl_with_diagnostics(&file, &cmd.opts, &mut out, &mut err)
    };
    match r {
        Ok(()) => finish(out),
        Err(e) => {
            let _ = out.flush();
            report(progname, &e)
        }
    }
}

fn finish(mut out: impl Write) -> i32 {
    match out.flush() {
        Ok(()) => 0,
        Err(_) => 1,
    }
}

/// Reports a failure during the dump as netcdf-c does for a failed library call (`check()`:
/// the `nc_strerror` text, then where it happened).
fn report(progname: &str, e: &purecdf::Error) -> i32 {
    if let Some(src) = std::error::Error::source(e) {
        if let Some(io) = src.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::BrokenPipe {
                return 1;
            }
        }
    }
    if let Some(m) = print::ncdump_message(e) {
        return fail(progname, m);
    }
    // ncdump's own `error()` for a type code beyond the file's format.
    let detail = e.context().detail.clone().unwrap_or_default();
    if e.kind() == ErrorKind::BadType && detail.ends_with("is an invalid type id") {
        return fail(progname, &detail);
    }
    eprintln!("{}", e.nc_message());
    match print::ncdump_location(e) {
        Some(line) => eprintln!("Location: file ; line {line}"),
        None => eprintln!("Location: {e}"),
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn getopt_like_glibc() {
        let (o, rest) = getopt(&args(&["x.nc", "-hl80", "-v", "a,b", "-Lq", "--", "-k"]));
        assert_eq!(
            o,
            vec![
                Opt::Flag(b'h', None),
                Opt::Flag(b'l', Some("80".into())),
                Opt::Flag(b'v', Some("a,b".into())),
                Opt::Flag(b'L', Some("q".into())),
            ]
        );
        assert_eq!(rest, args(&["x.nc", "-k"]));
        let (o, rest) = getopt(&args(&["-Q", "-", "-p"]));
        assert_eq!(o, vec![Opt::Invalid(b'Q'), Opt::Missing(b'p')]);
        assert_eq!(rest, args(&["-"]));
        let (o, _) = getopt(&args(&["-:"]));
        assert_eq!(o, vec![Opt::Invalid(b':')]);
    }

    #[test]
    fn strtol_like_c() {
        assert_eq!(strtol("80", 0), (80, 2));
        assert_eq!(strtol("0x50", 0), (80, 4));
        assert_eq!(strtol("010", 0), (8, 3));
        assert_eq!(strtol("  -7x", 10), (-7, 4));
        assert_eq!(strtol("x", 10), (0, 0));
        assert_eq!(strtol("99999999999999999999", 10).0, i64::MAX);
    }

    #[test]
    fn precision_arguments() {
        let mut o = DumpOptions::new("x");
        parse_precision("3,9", &mut o, true).unwrap();
        assert_eq!((o.float_digits, o.double_digits), (3, 9));
        assert!(o.float_override && o.double_override);
        let mut o = DumpOptions::new("x");
        parse_precision(",9", &mut o, true).unwrap();
        assert_eq!((o.float_digits, o.double_digits), (7, 15));
        assert!(!o.float_override && !o.double_override);
        let mut o = DumpOptions::new("x");
        parse_precision("4", &mut o, false).unwrap();
        assert!(!o.float_override);
        assert_eq!(
            parse_precision("21", &mut o, true).unwrap_err(),
            "unreasonable value for float significant digits: 21"
        );
        assert_eq!(
            parse_precision("5,", &mut o, true).unwrap_err(),
            "unreasonable value for double significant digits: 0"
        );
        assert_eq!(shell_unescape("a\\#b\\c"), "a#b\\c");
    }
}
