//! Command-line parsing for `nccopy`, following netcdf-c 4.9.0's `ncdump/nccopy.c` (`main`, its
//! `legalkinds` table and `double_with_suffix`) and GNU `getopt` conventions: option string
//! `k:3467d:sum:c:h:e:rwxg:G:v:V:F:L:M:`, clustered flags (`-uk nc6`), attached arguments
//! (`-knc6`), options after the operands (argument permutation), `--` to end the options.
//!
//! Quirks kept from the reference: `-5` is *not* an accepted flag (netcdf-c's option string lacks
//! it even though the usage text lists it; use `-k cdf5`); `-F` forces netCDF-4 output unless the
//! spec is `none` or `*,none`; `-L` fails because logging is not built in.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;

/// The output format requested with `-k` or one of `-3 -4 -6 -7` (netcdf-c's `NC_FORMAT_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// CDF-1 (`classic`, `nc3`, `1`).
    Classic,
    /// CDF-2 (`64-bit offset`, `nc6`, `2`).
    Offset64,
    /// CDF-5 (`cdf5`, `nc5`, `5`, `64-bit data`).
    Cdf5,
    /// netCDF-4 (`netCDF-4`, `nc4`, `3`).
    Netcdf4,
    /// netCDF-4 classic model (`netCDF-4 classic model`, `nc7`, `4`).
    Netcdf4Classic,
}

impl Kind {
    /// Every `-k` argument netcdf-c 4.9.0 accepts, compared case-sensitively.
    pub const NAMES: [(&'static str, Kind); 26] = [
        ("classic", Kind::Classic),
        ("nc3", Kind::Classic),
        ("1", Kind::Classic),
        ("64-bit offset", Kind::Offset64),
        ("nc6", Kind::Offset64),
        ("2", Kind::Offset64),
        ("64-bit-offset", Kind::Offset64),
        ("netCDF-4", Kind::Netcdf4),
        ("nc4", Kind::Netcdf4),
        ("3", Kind::Netcdf4),
        ("netCDF4", Kind::Netcdf4),
        ("hdf5", Kind::Netcdf4),
        ("enhanced", Kind::Netcdf4),
        ("netCDF-4 classic model", Kind::Netcdf4Classic),
        ("nc7", Kind::Netcdf4Classic),
        ("4", Kind::Netcdf4Classic),
        ("netCDF-4-classic", Kind::Netcdf4Classic),
        ("netCDF-4_classic", Kind::Netcdf4Classic),
        ("netCDF4_classic", Kind::Netcdf4Classic),
        ("hdf5-nc3", Kind::Netcdf4Classic),
        ("enhanced-nc3", Kind::Netcdf4Classic),
        ("5", Kind::Cdf5),
        ("64-bit-data", Kind::Cdf5),
        ("64-bit data", Kind::Cdf5),
        ("nc5", Kind::Cdf5),
        ("cdf5", Kind::Cdf5),
    ];

    /// The kind named by a `-k` argument.
    pub fn from_name(name: &str) -> Option<Kind> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
    }

    /// The library format this kind writes.
    pub fn format(self) -> purecdf::Format {
        match self {
            Kind::Classic => purecdf::Format::Classic,
            Kind::Offset64 => purecdf::Format::Offset64,
            Kind::Cdf5 => purecdf::Format::Cdf5,
            Kind::Netcdf4 => purecdf::Format::Netcdf4,
            Kind::Netcdf4Classic => purecdf::Format::Netcdf4Classic,
        }
    }

    /// True for CDF-1, CDF-2 and CDF-5.
    pub fn is_classic_family(self) -> bool {
        matches!(self, Kind::Classic | Kind::Offset64 | Kind::Cdf5)
    }

    /// The kind of an existing file's format.
    pub fn of_format(format: purecdf::Format) -> Kind {
        match format {
            purecdf::Format::Classic => Kind::Classic,
            purecdf::Format::Offset64 => Kind::Offset64,
            purecdf::Format::Cdf5 => Kind::Cdf5,
            purecdf::Format::Netcdf4 => Kind::Netcdf4,
            purecdf::Format::Netcdf4Classic => Kind::Netcdf4Classic,
        }
    }
}

/// netcdf-c's default copy buffer: 5,000,000 bytes.
pub const DEFAULT_BUFFER: u64 = 5_000_000;

/// Everything the command line asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `-k`/`-3`/`-4`/`-6`/`-7` (and `-F`): output kind; `None` means same as input.
    pub kind: Option<Kind>,
    /// `-d`: deflate level 0..=9; `None` means same as input.
    pub deflate: Option<u8>,
    /// `-s`: shuffle.
    pub shuffle: bool,
    /// `-c`: chunk specs, unparsed, in order.
    pub chunkspecs: Vec<String>,
    /// `-u`: make unlimited dimensions fixed.
    pub fix_unlimited: bool,
    /// `-w`: build the output in memory, write it at close.
    pub write_diskless: bool,
    /// `-r`: read the whole input into memory on open.
    pub read_diskless: bool,
    /// `-v`/`-V`: variable names, as given.
    pub vars: Vec<String>,
    /// True for `-v` (definitions of all variables, data of the listed ones); false for `-V`.
    pub var_struct: bool,
    /// `-g`/`-G`: group names, as given.
    pub groups: Vec<String>,
    /// True for `-g`, false for `-G`.
    pub group_struct: bool,
    /// `-m`: copy buffer size in bytes.
    pub buffer: u64,
    /// `-h`: chunk cache size (netCDF-4 only; accepted and unused).
    pub chunk_cache: Option<u64>,
    /// `-e`: chunk cache element count (netCDF-4 only; accepted and unused).
    pub chunk_cache_nelems: Option<u64>,
    /// `-M`: minimum chunk size (netCDF-4 only; accepted and unused).
    pub min_chunk: Option<i64>,
    /// `-F`: filter specs other than `none`, one entry per variable and filter (they make the
    /// output netCDF-4).
    pub filters: Vec<super::filters::FilterOption>,
    /// `-F none` / `-F '*,none'`: suppress output filters.
    pub suppress_filters: bool,
    /// `-x`: experimental per-variable chunk caches (accepted and unused).
    pub compute_chunk_caches: bool,
    /// Input path (after netcdf-c's shell unescaping of `\#`), bytes as given.
    pub input: PathBuf,
    /// Output path (after netcdf-c's shell unescaping of `\#`), bytes as given.
    pub output: PathBuf,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            kind: None,
            deflate: None,
            shuffle: false,
            chunkspecs: Vec::new(),
            fix_unlimited: false,
            write_diskless: false,
            read_diskless: false,
            vars: Vec::new(),
            var_struct: false,
            groups: Vec::new(),
            group_struct: false,
            buffer: DEFAULT_BUFFER,
            chunk_cache: None,
            chunk_cache_nelems: None,
            min_chunk: None,
            filters: Vec::new(),
            suppress_filters: false,
            compute_chunk_caches: false,
            input: PathBuf::new(),
            output: PathBuf::new(),
        }
    }
}

/// Why the command line was rejected; the tool prints it and exits with status 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgError {
    /// Print `getopt`'s complaint (if any), then the usage text.
    Usage(Option<String>),
    /// Print `progname: message`.
    Message(String),
    /// A netcdf-c error at an `NC_CHECK` in the option loop (its source line).
    Nc(purecdf::ErrorKind, u32),
}

/// The usage text after the synopsis line (netcdf-c 4.9.0's `USAGE`).
pub const USAGE_BODY: &str = "  [-k kind] specify kind of netCDF format for output file, default same as input
\t    kind strings: 'classic', '64-bit offset', 'cdf5',
                          'netCDF-4', 'netCDF-4 classic model'
  [-3]      netCDF classic output (same as -k 'classic')
  [-6]      64-bit-offset output (same as -k '64-bit offset')
  [-4]      netCDF-4 output (same as -k 'netCDF-4')
  [-7]      netCDF-4-classic output (same as -k 'netCDF-4 classic model')
  [-5]      CDF5 output (same as -k 'cdf5)
  [-d n]    set output deflation compression level, default same as input (0=none 9=max)
  [-s]      add shuffle option to deflation compression
  [-c chunkspec] specify chunking for variable and dimensions, e.g. \"var:N1,N2,...\" or \"dim1/N1,dim2/N2,...\"
  [-u]      convert unlimited dimensions to fixed-size dimensions in output copy
  [-w]      write whole output file from diskless netCDF on close
  [-v var1,...] include data for only listed variables, but definitions for all variables
  [-V var1,...] include definitions and data for only listed variables
  [-g grp1,...] include data for only variables in listed groups, but all definitions
  [-G grp1,...] include definitions and data only for variables in listed groups
  [-m n]    set size in bytes of copy buffer, default is 5000000 bytes
  [-h n]    set size in bytes of chunk_cache for chunked variables
  [-e n]    set number of elements that chunk_cache can hold
  [-r]      read whole input file into diskless file on open (classic or 64-bit offset or cdf5 formats only)
  [-F filterspec] specify a compression algorithm to apply to an output variable (may be repeated).
  [-Ln]     set log level to n (>= 0); ignored if logging isn't enabled.
  [-Mn]     set minimum chunk size to n bytes (n >= 0)
  infile    name of netCDF input file
  outfile   name for netCDF output file
";

/// The library version line printed at the end of the usage text.
pub const LIBRARY_VERSION: &str = concat!(
    "netCDF library version 4.9.0 (purecdf ",
    env!("CARGO_PKG_VERSION"),
    ")"
);

/// The full usage message, without the leading `progname: `.
pub fn usage_text(progname: &str) -> String {
    format!(
        "{progname} [-k kind] [-[3|4|6|7]] [-d n] [-s] [-c chunkspec] [-u] [-w] [-[v|V] varlist] \
         [-[g|G] grplist] [-m n] [-h n] [-e n] [-r] [-F filterspec] [-Ln] [-Mn] infile outfile\n\
         {USAGE_BODY}\n{LIBRARY_VERSION}"
    )
}

/// Options that take an argument, per netcdf-c's option string.
const WITH_ARG: &[u8] = b"kdmchegGvVFLM";
/// Options that are plain flags.
const FLAGS: &[u8] = b"3467surwx";

/// Parses the arguments after the program name.
///
/// # Errors
/// [`ArgError`] with netcdf-c's message for a bad option, option argument or operand count.
pub fn parse(args: &[OsString]) -> Result<Options, ArgError> {
    if args.is_empty() {
        return Err(ArgError::Usage(None));
    }
    let mut o = Options::default();
    let mut operands: Vec<&OsStr> = Vec::new();
    let mut i = 0;
    let mut only_operands = false;
    while i < args.len() {
        let raw = args[i].as_os_str();
        let arg = os_to_string(&args[i]);
        i += 1;
        if only_operands || arg == "-" || !arg.starts_with('-') {
            operands.push(raw);
            continue;
        }
        if arg == "--" {
            only_operands = true;
            continue;
        }
        let bytes = arg.as_bytes();
        let mut j = 1;
        while j < bytes.len() {
            let c = bytes[j];
            j += 1;
            if WITH_ARG.contains(&c) {
                let value = if j < bytes.len() {
                    let v = arg[j..].to_string();
                    j = bytes.len();
                    v
                } else if i < args.len() {
                    i += 1;
                    os_to_string(&args[i - 1])
                } else {
                    return Err(ArgError::Usage(Some(format!(
                        "option requires an argument -- '{}'",
                        c as char
                    ))));
                };
                apply_with_arg(&mut o, c, value)?;
            } else if FLAGS.contains(&c) {
                apply_flag(&mut o, c);
            } else {
                let shown = arg[j - 1..].chars().next().unwrap_or('?');
                return Err(ArgError::Usage(Some(format!(
                    "invalid option -- '{shown}'"
                ))));
            }
        }
    }
    if operands.len() != 2 {
        return Err(ArgError::Message(
            "one input file and one output file required".into(),
        ));
    }
    o.input = shell_unescape(operands[0]);
    o.output = shell_unescape(operands[1]);
    if o.input.as_os_str() == o.output.as_os_str() {
        return Err(ArgError::Message("output would overwrite input".into()));
    }
    Ok(o)
}

fn os_to_string(s: &OsString) -> String {
    s.to_string_lossy().into_owned()
}

fn apply_flag(o: &mut Options, c: u8) {
    match c {
        b'3' => o.kind = Some(Kind::Classic),
        b'4' => o.kind = Some(Kind::Netcdf4),
        b'6' => o.kind = Some(Kind::Offset64),
        b'7' => o.kind = Some(Kind::Netcdf4Classic),
        b's' => o.shuffle = true,
        b'u' => o.fix_unlimited = true,
        b'r' => o.read_diskless = true,
        b'w' => o.write_diskless = true,
        _ => o.compute_chunk_caches = true, // 'x'
    }
}

fn apply_with_arg(o: &mut Options, c: u8, v: String) -> Result<(), ArgError> {
    let suffix_err = |opt: char| {
        ArgError::Message(format!(
            "Suffix used for '-{opt}' option value must be K, M, G, T, or P"
        ))
    };
    match c {
        b'k' => match Kind::from_name(&v) {
            Some(k) => o.kind = Some(k),
            None => return Err(ArgError::Message(format!("invalid output format: {v}"))),
        },
        b'd' => {
            let level = strtol(&v);
            if !(0..=9).contains(&level) {
                return Err(ArgError::Message(format!(
                    "invalid deflation level: {}",
                    level.clamp(i64::from(i32::MIN), i64::from(i32::MAX))
                )));
            }
            o.deflate = u8::try_from(level).ok();
        }
        b'm' => o.buffer = double_with_suffix(&v).ok_or_else(|| suffix_err('m'))?,
        b'h' => o.chunk_cache = Some(double_with_suffix(&v).ok_or_else(|| suffix_err('h'))?),
        b'e' => o.chunk_cache_nelems = Some(double_with_suffix(&v).ok_or_else(|| suffix_err('e'))?),
        b'c' => o.chunkspecs.push(v),
        b'g' | b'G' => {
            o.groups = split_list(&v);
            o.group_struct = c == b'g';
        }
        b'v' | b'V' => {
            if v.is_empty() || v.split(',').skip(1).any(str::is_empty) {
                // netcdf-c reads uninitialised memory (and usually crashes) here.
                return Err(ArgError::Message(format!(
                    "-{} {v:?}: empty variable name in list",
                    c as char
                )));
            }
            o.vars = split_list(&v);
            o.var_struct = c == b'v';
        }
        b'L' => {
            return Err(ArgError::Message(
                "-L specified, but logging support not enabled".into(),
            ))
        }
        b'F' => {
            if v == "none" || v.eq_ignore_ascii_case("*,none") {
                o.suppress_filters = true;
            } else {
                super::filters::parse_option(&v, &mut o.filters)
                    .map_err(|k| ArgError::Nc(k, 2386))?;
                o.kind = Some(Kind::Netcdf4);
            }
        }
        _ => o.min_chunk = Some(strtol(&v)), // 'M'
    }
    Ok(())
}

/// Splits a comma-separated list as `strtok` does (empty items vanish).
fn split_list(v: &str) -> Vec<String> {
    v.split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// C `strtol(s, NULL, 10)`: leading blanks, optional sign, digits; 0 when there are none;
/// saturates on overflow.
pub fn strtol(s: &str) -> i64 {
    let s = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut v: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        let d = i64::from(b - b'0');
        v = v
            .saturating_mul(10)
            .saturating_add(if neg { -d } else { d });
    }
    v
}

/// netcdf-c's `double_with_suffix`: a non-negative decimal number (as `strtod` reads it) with an
/// optional multiplier whose first character is K, M, G, T or P (either case; powers of 1000).
/// Returns the value in bytes (truncated, saturating), or `None` for a bad number or suffix.
pub fn double_with_suffix(s: &str) -> Option<u64> {
    let (value, rest) = strtod_prefix(s);
    if value.is_nan() || value < 0.0 {
        return None;
    }
    let mult = match rest.chars().next() {
        None => 1.0,
        Some('k' | 'K') => 1e3,
        Some('m' | 'M') => 1e6,
        Some('g' | 'G') => 1e9,
        Some('t' | 'T') => 1e12,
        Some('p' | 'P') => 1e15,
        Some(_) => return None,
    };
    let v = value * mult;
    // `as` saturates for floats; that is the intent (a huge buffer is capped later anyway).
    Some(v as u64)
}

/// The longest prefix of `s` that C `strtod` reads as a decimal number, and the rest. An empty
/// or unreadable prefix reads as 0 with the whole string left over.
fn strtod_prefix(s: &str) -> (f64, &str) {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let b = t.as_bytes();
    let mut k = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        k += 1;
    }
    let int_start = k;
    while b.get(k).is_some_and(u8::is_ascii_digit) {
        k += 1;
    }
    let mut mantissa_digits = k - int_start;
    if b.get(k) == Some(&b'.') {
        let frac_start = k + 1;
        let mut e = frac_start;
        while b.get(e).is_some_and(u8::is_ascii_digit) {
            e += 1;
        }
        mantissa_digits += e - frac_start;
        if mantissa_digits > 0 {
            k = e;
        }
    }
    if mantissa_digits == 0 {
        let lower = t.to_ascii_lowercase();
        let unsigned = lower.trim_start_matches(['+', '-']);
        let sign = if lower.starts_with('-') { -1.0 } else { 1.0 };
        let skip = lower.len() - unsigned.len();
        for (word, val) in [
            ("infinity", f64::INFINITY),
            ("inf", f64::INFINITY),
            ("nan", f64::NAN),
        ] {
            if unsigned.starts_with(word) {
                return (sign * val, &t[skip + word.len()..]);
            }
        }
        return (0.0, s);
    }
    if matches!(b.get(k), Some(b'e' | b'E')) {
        let mut e = k + 1;
        if matches!(b.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        let exp_start = e;
        while b.get(e).is_some_and(u8::is_ascii_digit) {
            e += 1;
        }
        if e > exp_start {
            k = e;
        }
    }
    (t[..k].parse().unwrap_or(0.0), &t[k..])
}

/// netcdf-c's `NC_shellUnescape`: drops a backslash that precedes `#` (on the raw bytes, so
/// names that are not UTF-8 survive).
pub fn shell_unescape(s: &OsStr) -> PathBuf {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'\\' && b.get(k + 1) == Some(&b'#') {
            k += 1;
        }
        out.push(b[k]);
        k += 1;
    }
    PathBuf::from(OsString::from_vec(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn every_kind_name() {
        assert_eq!(Kind::from_name("classic"), Some(Kind::Classic));
        assert_eq!(Kind::from_name("1"), Some(Kind::Classic));
        assert_eq!(Kind::from_name("64-bit-offset"), Some(Kind::Offset64));
        assert_eq!(Kind::from_name("3"), Some(Kind::Netcdf4));
        assert_eq!(Kind::from_name("enhanced-nc3"), Some(Kind::Netcdf4Classic));
        assert_eq!(Kind::from_name("64-bit data"), Some(Kind::Cdf5));
        assert_eq!(Kind::from_name("Classic"), None);
        assert_eq!(Kind::from_name(""), None);
        assert_eq!(Kind::NAMES.len(), 26);
    }

    #[test]
    fn flags_cluster_and_permute() {
        let o = parse(&args(&["in.nc", "-uknc6", "out.nc", "-m", "1.5k"])).unwrap();
        assert!(o.fix_unlimited);
        assert_eq!(o.kind, Some(Kind::Offset64));
        assert_eq!(o.buffer, 1500);
        assert_eq!(
            (o.input.to_str(), o.output.to_str()),
            (Some("in.nc"), Some("out.nc"))
        );
        let o = parse(&args(&["-3", "-6", "--", "-a", "b\\#c"])).unwrap();
        assert_eq!(o.kind, Some(Kind::Offset64));
        assert_eq!(
            (o.input.to_str(), o.output.to_str()),
            (Some("-a"), Some("b#c"))
        );
        // Not UTF-8: the bytes go through untouched.
        let raw = vec![
            OsString::from_vec(b"in\xff.nc".to_vec()),
            OsString::from("o\\#.nc"),
        ];
        let o = parse(&raw).unwrap();
        assert_eq!(o.input.as_os_str().as_bytes(), b"in\xff.nc");
        assert_eq!(o.output.as_os_str().as_bytes(), b"o#.nc");
    }

    #[test]
    fn getopt_complaints() {
        assert_eq!(parse(&[]), Err(ArgError::Usage(None)));
        assert_eq!(
            parse(&args(&["-5", "a", "b"])),
            Err(ArgError::Usage(Some("invalid option -- '5'".into())))
        );
        assert_eq!(
            parse(&args(&["a", "b", "-k"])),
            Err(ArgError::Usage(Some(
                "option requires an argument -- 'k'".into()
            )))
        );
        assert_eq!(
            parse(&args(&["a"])),
            Err(ArgError::Message(
                "one input file and one output file required".into()
            ))
        );
        assert_eq!(
            parse(&args(&["a", "a"])),
            Err(ArgError::Message("output would overwrite input".into()))
        );
        assert_eq!(
            parse(&args(&["-k", "foo", "a", "b"])),
            Err(ArgError::Message("invalid output format: foo".into()))
        );
        assert_eq!(
            parse(&args(&["-d", "12", "a", "b"])),
            Err(ArgError::Message("invalid deflation level: 12".into()))
        );
        assert_eq!(
            parse(&args(&["-L", "1", "a", "b"])),
            Err(ArgError::Message(
                "-L specified, but logging support not enabled".into()
            ))
        );
        assert!(matches!(
            parse(&args(&["-V", "t,", "a", "b"])),
            Err(ArgError::Message(_))
        ));
    }

    #[test]
    fn lists_and_netcdf4_options() {
        let o = parse(&args(&[
            "-v", ",t,lat", "-d", "abc", "-F", "v,1,2", "a", "b",
        ]))
        .unwrap();
        assert_eq!(o.vars, vec!["t".to_string(), "lat".to_string()]);
        assert!(o.var_struct);
        assert_eq!(o.deflate, Some(0));
        assert_eq!(o.kind, Some(Kind::Netcdf4));
        let o = parse(&args(&["-F", "*,NONE", "-V", "x", "-G", "g1,g2", "a", "b"])).unwrap();
        assert!(o.suppress_filters && !o.var_struct && !o.group_struct);
        assert_eq!(o.kind, None);
        assert_eq!(o.groups.len(), 2);
    }

    #[test]
    fn suffixes_like_strtod() {
        assert_eq!(double_with_suffix("5000000"), Some(5_000_000));
        assert_eq!(double_with_suffix("2K"), Some(2000));
        assert_eq!(double_with_suffix("1.5m"), Some(1_500_000));
        assert_eq!(double_with_suffix("3Gbytes"), Some(3_000_000_000));
        assert_eq!(double_with_suffix("1e3"), Some(1000));
        assert_eq!(double_with_suffix("1e"), None); // "e" left over: not a multiplier
        assert_eq!(double_with_suffix(""), Some(0));
        assert_eq!(double_with_suffix("  7"), Some(7));
        assert_eq!(double_with_suffix("-1"), None);
        assert_eq!(double_with_suffix("1X"), None);
        assert_eq!(double_with_suffix("nan"), None);
        assert_eq!(double_with_suffix("abc"), None);
        assert_eq!(double_with_suffix("inf"), Some(u64::MAX));
    }

    #[test]
    fn strtol_like_c() {
        assert_eq!(strtol(" -12x"), -12);
        assert_eq!(strtol("abc"), 0);
        assert_eq!(strtol("+9"), 9);
        assert_eq!(strtol("99999999999999999999999"), i64::MAX);
    }

    #[test]
    fn usage_matches_reference_layout() {
        let u = usage_text("nccopy");
        assert!(u.starts_with("nccopy [-k kind] [-[3|4|6|7]] [-d n] [-s] [-c chunkspec] [-u] [-w] [-[v|V] varlist] [-[g|G] grplist] [-m n] [-h n] [-e n] [-r] [-F filterspec] [-Ln] [-Mn] infile outfile\n  [-k kind] specify"));
        assert!(u.ends_with("  outfile   name for netCDF output file\n\nnetCDF library version 4.9.0 (purecdf 0.1.0)"));
    }
}
