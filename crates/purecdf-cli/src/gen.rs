//! `ncgen`: CDL text to a netCDF file, a clone of netcdf-c 4.9's tool for binary output
//! (`ncgen-features.md` §6–7; netcdf-c `ncgen/main.c`, `genbin.c`).
//!
//! Command line as netcdf-c's `getopt("134567bcdD:fhHk:l:M:no:Pv:xL:N:B:W:")`. Without `-b`, `-l`,
//! `-k` or `-o` the input is only syntax-checked. The file is written through purecdf's public
//! API in ncgen's order (dimensions, variables, global attributes, variable attributes, end of
//! define mode, then each variable's data), so classic files are byte-identical to netcdf-c's.
//! Binary output and `-l c|f77|java` (`purecdf::cdl::codegen`) exist; netCDF-4 output fails
//! with NC_ENOTBUILT until the library can write it.

use std::ffi::OsString;
use std::io::{Read, Write};

use purecdf::cdl::{parse_with, CdlDataset, ParseOptions};
use purecdf::{CreateOptions, Format, NcType, VarId};

const PROGNAME: &str = "ncgen";

#[derive(Debug, Default)]
struct Args {
    binary: bool,
    language: Option<String>,
    kind: Option<Format>,
    output: Option<String>,
    cdf_ext: bool,
    nofill: bool,
    header_only: bool,
    dataset_name: Option<String>,
    main_name: Option<String>,
    log_level: Option<i32>,
    whole_var_size: Option<u64>,
    help: bool,
    inputs: Vec<String>,
}

/// Result of argument parsing: the arguments, or an exit status after printing a message.
enum Parsed {
    Run(Args),
    Exit(i32),
}

fn usage(err: &mut dyn Write) {
    let _ = writeln!(
        err,
        "Usage: {PROGNAME} [-1] [-3] [-4] [-5] [-6] [-7] [-b] [-d] [-D debuglevel] [-h] \
         [-k kind ] [-l language=b|c|f77|java] [-M <name>] [-n] [-o outfile] [-P] [-x] \
         [-N datasetname] [-L loglevel] [-H] [-W generate whole var upload] [file ... ]"
    );
    let _ = writeln!(
        err,
        "netcdf library version purecdf {}",
        env!("CARGO_PKG_VERSION")
    );
}

fn set_language(a: &mut Args, lang: &str, err: &mut dyn Write) -> Option<i32> {
    if a.language.is_some() || a.binary {
        let _ = writeln!(err, "Please specify only one language");
        return Some(1);
    }
    a.language = Some(lang.to_string());
    None
}

/// getopt-style parsing: clustered flags, option arguments attached or separate, `--` ends.
fn parse_args(argv: &[String], err: &mut dyn Write) -> Parsed {
    const WITH_ARG: &[u8] = b"DklMovLNBW";
    const FLAGS: &[u8] = b"134567bcdfhHnPx";
    let mut a = Args::default();
    let mut i = 1;
    while i < argv.len() {
        let arg = argv[i].as_bytes();
        if arg == b"--" {
            i += 1;
            break;
        }
        if arg.len() < 2 || arg[0] != b'-' {
            break;
        }
        let mut j = 1;
        while j < arg.len() {
            let c = arg[j];
            if WITH_ARG.contains(&c) {
                let val = if j + 1 < arg.len() {
                    String::from_utf8_lossy(&arg[j + 1..]).into_owned()
                } else {
                    i += 1;
                    match argv.get(i) {
                        Some(v) => v.clone(),
                        None => {
                            let _ = writeln!(
                                err,
                                "{PROGNAME}: option requires an argument -- '{}'",
                                c as char
                            );
                            usage(err);
                            return Parsed::Exit(8);
                        }
                    }
                };
                match c {
                    b'k' | b'v' => match purecdf::cdl::format_from_kind_name(&val) {
                        Some(f) => a.kind = Some(f),
                        None => {
                            let _ = writeln!(err, "Invalid format: {val}");
                            return Parsed::Exit(2);
                        }
                    },
                    b'l' => {
                        if let Some(code) = set_language(&mut a, &val, err) {
                            return Parsed::Exit(code);
                        }
                        let known = ["b", "c", "C", "f77", "fortran77", "Fortran77", "j", "java"];
                        if !known.contains(&val.as_str()) {
                            let _ =
                                writeln!(err, "{PROGNAME}: output language {val} not implemented");
                            return Parsed::Exit(1);
                        }
                    }
                    b'o' => a.output = Some(val),
                    b'N' => a.dataset_name = Some(val),
                    b'M' => a.main_name = Some(val),
                    b'L' => a.log_level = Some(crate::copy::options::strtol(&val) as i32),
                    b'W' => a.whole_var_size = Some(crate::copy::options::strtol(&val) as u64),
                    _ => {} // -D -B: accepted, no effect
                }
                break;
            }
            if !FLAGS.contains(&c) {
                let _ = writeln!(err, "{PROGNAME}: invalid option -- '{}'", c as char);
                usage(err);
                return Parsed::Exit(8);
            }
            match c {
                b'b' | b'n' => {
                    if a.language.is_some() || a.binary {
                        let _ = writeln!(err, "Please specify only one language");
                        return Parsed::Exit(1);
                    }
                    a.binary = true;
                    a.cdf_ext = c == b'n';
                }
                b'c' | b'f' => {
                    let lang = if c == b'c' { "c" } else { "f77" };
                    if let Some(code) = set_language(&mut a, lang, err) {
                        return Parsed::Exit(code);
                    }
                    let _ = writeln!(err, "-{} is deprecated: please use -l{lang}", c as char);
                }
                b'h' => a.help = true,
                b'H' => a.header_only = true,
                b'x' => a.nofill = true,
                b'3' => a.kind = Some(Format::Classic),
                b'6' => a.kind = Some(Format::Offset64),
                b'4' => a.kind = Some(Format::Netcdf4),
                b'5' => a.kind = Some(Format::Cdf5),
                b'7' => a.kind = Some(Format::Netcdf4Classic),
                _ => {} // -1 -d -P
            }
            if a.help {
                usage(err);
                return Parsed::Exit(0);
            }
            j += 1;
        }
        i += 1;
    }
    a.inputs = argv[i.min(argv.len())..].to_vec();
    Parsed::Run(a)
}

/// The default output name (netcdf-c `createfilename`): the input's base name with its last
/// extension replaced, or the dataset name for standard input.
fn output_name(a: &Args, input: Option<&str>, ds: &CdlDataset) -> String {
    if let Some(o) = &a.output {
        return o.clone();
    }
    let ext = if a.cdf_ext { ".cdf" } else { ".nc" };
    let mut base = match input {
        Some(p) if p != "-" => p.to_string(),
        _ => return format!("{}{ext}", ds.name),
    };
    if let Some(dot) = base.rfind('.') {
        base.truncate(dot);
    }
    if let Some(slash) = base.rfind('/') {
        base = base[slash + 1..].to_string();
    }
    format!("{base}{ext}")
}

/// Runs ncgen with `argv` (program name first); returns the exit status.
pub fn main_with_args(argv: Vec<OsString>) -> i32 {
    let argv: Vec<String> = argv
        .into_iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    run(&argv, &mut err)
}

fn run(argv: &[String], err: &mut dyn Write) -> i32 {
    let a = match parse_args(argv, err) {
        Parsed::Run(a) => a,
        Parsed::Exit(code) => return code,
    };
    let program = match a.language.as_deref() {
        Some("c" | "C") => Some(Language::C),
        Some("f77" | "fortran77" | "Fortran77") => Some(Language::F77),
        Some("j" | "java") => Some(Language::Java),
        _ => None,
    };
    let syntax_only = !a.binary && a.language.is_none() && a.kind.is_none() && a.output.is_none();
    if a.inputs.len() > 1 {
        let _ = writeln!(err, "{PROGNAME}: only one input file argument permitted");
        return 6;
    }
    let input = a.inputs.first().map(String::as_str);
    let mut src = Vec::new();
    match input {
        Some(p) if p != "-" => {
            match std::fs::File::open(p).and_then(|mut f| f.read_to_end(&mut src)) {
                Ok(_) => {}
                Err(e) => {
                    let msg = e.to_string();
                    let msg = msg.split(" (os error").next().unwrap_or(&msg).to_string();
                    let _ = writeln!(err, "can't open file {p} for reading: ");
                    let _ = writeln!(err, "{msg}");
                    return 7;
                }
            }
        }
        _ => {
            if std::io::stdin().read_to_end(&mut src).is_err() {
                return 7;
            }
        }
    }
    let mut file_name = input.unwrap_or("(null)").to_string();
    if file_name.len() > 256 {
        let mut cut = 256;
        while !file_name.is_char_boundary(cut) {
            cut -= 1;
        }
        file_name.truncate(cut);
    }
    let opts = ParseOptions {
        file_name: file_name.clone(),
        kind: a.kind,
        dataset_name: a.dataset_name.clone(),
    };
    // Fortran and Java are generated from the classic model only (netcdf-c main.c).
    let parsed = match program {
        Some(Language::F77 | Language::Java) => {
            purecdf::cdl::codegen::parse_classic_model(&src, &opts)
        }
        _ => parse_with(&src, &opts),
    };
    let ds = match parsed {
        Ok(ds) => {
            let _ = write!(err, "{}", ds.warnings);
            ds
        }
        Err(e) => {
            let _ = writeln!(err, "{}", e.ncgen_line(PROGNAME));
            return e.exit_code;
        }
    };
    if syntax_only {
        return 0;
    }
    let path = output_name(&a, input, &ds);
    if let Some(lang) = program {
        return generate_program(lang, &a, &ds, path, &file_name, err);
    }
    match write(&ds, &path, &a, &file_name) {
        Ok(()) => 0,
        Err(msg) => {
            let _ = writeln!(err, "{PROGNAME}: {msg}");
            1
        }
    }
}

/// The languages ncgen writes programs in.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Language {
    C,
    F77,
    Java,
}

/// `-l c|f77|java`: the program on standard output, ncgen's diagnostics on standard error;
/// `input` names the CDL. Java's class is `Main` unless `-M` names another (netcdf-c also
/// turns `-M main` into `Main`).
fn generate_program(
    lang: Language,
    a: &Args,
    ds: &CdlDataset,
    file_name: String,
    input: &str,
    err: &mut dyn Write,
) -> i32 {
    use purecdf::cdl::codegen::{c, f77, java, CodegenOptions};
    let main_name = match (lang, a.main_name.as_deref()) {
        (Language::Java, None | Some("main")) => "Main".to_string(),
        (_, Some(m)) => m.to_string(),
        (_, None) => "main".to_string(),
    };
    let opts = CodegenOptions {
        file_name,
        main_name,
        header_only: a.header_only,
        no_fill: a.nofill,
        whole_var_size: a.whole_var_size.unwrap_or(1024),
        log_level: a.log_level,
        input_name: input.to_string(),
    };
    let out = match lang {
        Language::C => c::generate(ds, &opts),
        Language::F77 => f77::generate(ds, &opts),
        Language::Java => java::generate(ds, &opts),
    };
    let stdout = std::io::stdout();
    let mut o = stdout.lock();
    let _ = o.write_all(&out.code);
    let _ = o.flush();
    let _ = err.write_all(&out.messages);
    match out.error {
        Some(mut e) => {
            e.file = input.to_string();
            let _ = writeln!(err, "{}", e.ncgen_line(PROGNAME));
            e.exit_code
        }
        None => 0,
    }
}

/// True when the variable has a special attribute that needs netCDF-4 (`genbin` calls
/// `nc_def_var_chunking`, `_fletcher32`, `_deflate`, `_endian`, `_filter` or `_quantize`).
fn needs_netcdf4(ds: &CdlDataset, v: VarId) -> bool {
    let s = &ds.specials[v.0];
    s.storage.is_some()
        || s.fletcher32.is_some()
        || s.deflate_level.is_some()
        || s.shuffle.is_some()
        || s.big_endian.is_some()
        || !s.filters.is_empty()
        || s.quantize.is_some()
}

/// A CDL error reported during writing, printed as ncgen prints it (the caller adds `ncgen: `).
struct DeferredCdl(purecdf::cdl::CdlError);

impl std::fmt::Display for DeferredCdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let line = self.0.ncgen_line(PROGNAME);
        f.write_str(line.strip_prefix("ncgen: ").unwrap_or(&line))
    }
}

fn lib_msg(e: &purecdf::Error) -> String {
    e.nc_message()
}

/// genbin's `genbin_definespecialattributes`: storage, fletcher32, deflate/shuffle, byte order,
/// fill, filters, in that order.
fn define_specials(
    f: &mut purecdf::FileMut,
    v: VarId,
    sp: &purecdf::cdl::VarSpecials,
) -> purecdf::Result<()> {
    use purecdf::cdl::StorageKind;
    match (sp.storage, &sp.chunk_sizes) {
        (Some(StorageKind::Contiguous), _) => {
            f.def_var_chunking(v, purecdf::Chunking::Contiguous)?
        }
        (Some(StorageKind::Compact), _) => f.def_var_chunking(v, purecdf::Chunking::Compact)?,
        (Some(StorageKind::Chunked), Some(c)) | (None, Some(c)) => {
            f.def_var_chunking(v, purecdf::Chunking::Chunked(c.clone()))?
        }
        (Some(StorageKind::Chunked), None) => {
            f.def_var_chunking(v, purecdf::Chunking::Chunked(Vec::new()))?
        }
        (None, None) => {}
    }
    if sp.fletcher32 == Some(true) {
        f.def_var_fletcher32(v, true)?;
    }
    if sp.deflate_level.is_some() || sp.shuffle.is_some() {
        let level = sp.deflate_level.filter(|l| *l >= 0).map(|l| l as u32);
        f.def_var_deflate(v, sp.shuffle == Some(true), level)?;
    }
    if let Some(big) = sp.big_endian {
        f.def_var_endian(v, Some(big))?;
    }
    if let Some(no_fill) = sp.no_fill {
        f.def_var_fill(v, no_fill)?;
    }
    for (id, params) in &sp.filters {
        f.def_var_filter(v, *id, params)?;
    }
    if let Some((q, nsd)) = sp.quantize {
        let mode = match q {
            purecdf::cdl::Quantize::GranularBitRound => purecdf::Quantize::GranularBitRound,
            purecdf::cdl::Quantize::BitRound => purecdf::Quantize::BitRound,
        };
        f.def_var_quantize(v, Some((mode, nsd)))?;
    }
    Ok(())
}

/// A user type whose member types name the ids the writer gave to types defined earlier.
fn remap_type(
    t: &purecdf::model::UserType,
    ids: &[Option<purecdf::TypeId>],
) -> purecdf::model::UserType {
    use purecdf::model::UserTypeKind;
    let m = |t: NcType| match t {
        NcType::User(id) => ids.get(id.0).copied().flatten().map_or(t, NcType::User),
        t => t,
    };
    let kind = match &t.kind {
        UserTypeKind::Compound { size, fields } => UserTypeKind::Compound {
            size: *size,
            fields: fields
                .iter()
                .map(|f| purecdf::model::CompoundField {
                    typ: m(f.typ),
                    ..f.clone()
                })
                .collect(),
        },
        UserTypeKind::Vlen { base } => UserTypeKind::Vlen { base: m(*base) },
        UserTypeKind::Enum { base, members } => UserTypeKind::Enum {
            base: m(*base),
            members: members.clone(),
        },
        other => other.clone(),
    };
    purecdf::model::UserType {
        name: t.name.clone(),
        kind,
    }
}

/// Values of a user type, relabelled with the writer's id for that type.
fn remap_values(v: &purecdf::Values, ids: &[Option<purecdf::TypeId>]) -> purecdf::Values {
    match v {
        purecdf::Values::User(t, items) => match ids.get(t.0).copied().flatten() {
            Some(n) => purecdf::Values::User(n, items.clone()),
            None => v.clone(),
        },
        _ => v.clone(),
    }
}

/// Writes the dataset in ncgen's `genbin_netcdf` order; `file` is the input's name for messages.
fn write(ds: &CdlDataset, path: &str, a: &Args, file: &str) -> Result<(), String> {
    let mut f = purecdf::create_with(
        path,
        CreateOptions {
            format: ds.format,
            noclobber: false,
            ..Default::default()
        },
    )
    .map_err(|e| {
        if e.kind() == purecdf::ErrorKind::NotBuilt {
            format!(
                "{}\n\t(purecdf cannot write {} files yet)",
                lib_msg(&e),
                ds.format.kind_name()
            )
        } else {
            lib_msg(&e)
        }
    })?;
    if a.nofill {
        f.set_fill(false).map_err(|e| lib_msg(&e))?;
    }
    let s = &ds.schema;
    let nc4 = !ds.format.is_classic_family();
    if !nc4 && (s.groups.len() > 1 || !s.types.is_empty()) {
        return Err(purecdf::ErrorKind::NotNc4.nc_message().to_string());
    }
    // Groups in preorder (the order they were declared), then types in ncgen's order.
    let mut group_ids = vec![purecdf::GroupId(0); s.groups.len()];
    for (i, g) in s.groups.iter().enumerate().skip(1) {
        let parent = group_ids[g.parent.map_or(0, |p| p.0)];
        group_ids[i] = f.add_group_in(parent, &g.name).map_err(|e| lib_msg(&e))?;
    }
    let mut type_ids: Vec<Option<purecdf::TypeId>> = vec![None; s.types.len()];
    for t in &ds.type_order {
        let (g, ut) = &s.types[t.0];
        let ut = remap_type(ut, &type_ids);
        type_ids[t.0] = Some(f.def_type(group_ids[g.0], ut).map_err(|e| lib_msg(&e))?);
    }
    let typ_of = |t: NcType| match t {
        NcType::User(id) => type_ids[id.0].map_or(t, NcType::User),
        t => t,
    };
    let mut dim_ids = Vec::with_capacity(s.dims.len());
    for d in &s.dims {
        let len = if d.unlimited { 0 } else { d.len };
        let id = f
            .add_dimension_in(group_ids[d.group.0], &d.name, len, d.unlimited)
            .map_err(|e| lib_msg(&e))?;
        dim_ids.push(id);
    }
    let mut var_ids = Vec::with_capacity(s.vars.len());
    for v in &s.vars {
        let dims: Vec<_> = v.dims.iter().map(|d| dim_ids[d.0]).collect();
        let id = f
            .add_variable_in(group_ids[v.group.0], &v.name, typ_of(v.typ), &dims)
            .map_err(|e| lib_msg(&e))?;
        var_ids.push(id);
    }
    for (i, _) in s.vars.iter().enumerate() {
        if !nc4 && needs_netcdf4(ds, VarId(i)) {
            return Err(purecdf::ErrorKind::NotNc4.nc_message().to_string());
        }
        if nc4 {
            define_specials(&mut f, var_ids[i], &ds.specials[i]).map_err(|e| lib_msg(&e))?;
        } else if let Some(no_fill) = ds.specials[i].no_fill {
            // genbin's special per-variable properties: `_NoFill` is nc_def_var_fill, which
            // netCDF-3 files support too.
            f.def_var_fill(var_ids[i], no_fill)
                .map_err(|e| lib_msg(&e))?;
        }
    }
    // Attributes in ncgen's order; a value ncgen could not make is reported when reached.
    for (i, (g, var, name, line)) in ds.attribute_order.iter().enumerate() {
        if let Some((_, e)) = ds.deferred_errors.iter().find(|(k, _)| *k == i) {
            let mut e = e.clone();
            e.file = file.to_string();
            return Err(DeferredCdl(e).to_string());
        }
        let Some(att) = s.atts(*g, *var).iter().find(|x| x.name == *name) else {
            continue;
        };
        let typ = att.values.nc_type();
        if typ == NcType::String && ds.format.is_classic_model() {
            // netcdf-c 4.9's ncgen drops string attributes from netCDF-3 output silently.
            continue;
        }
        let target_var = var.map(|v| var_ids[v.0]);
        f.put_attribute(
            group_ids[g.0],
            target_var,
            &att.name,
            remap_values(&att.values, &type_ids),
        )
        .map_err(|e| {
            if typ == NcType::Int64 {
                // genbin uses CHECK_ERR2 for 64-bit integer attributes.
                format!("cdl line {line}; {}", lib_msg(&e))
            } else {
                lib_msg(&e)
            }
        })?;
    }
    if a.nofill {
        f.set_fill(false).map_err(|e| lib_msg(&e))?;
    }
    f.enddef().map_err(|e| lib_msg(&e))?;
    if !a.header_only {
        for (i, out_id) in var_ids.iter().enumerate() {
            let v = VarId(i);
            eprint!("{}", ds.data_warnings(v, file));
            let values = match ds.var_values(v) {
                Ok(Some(vals)) => vals,
                Ok(None) => continue,
                Err(mut e) => {
                    e.file = file.to_string();
                    return Err(DeferredCdl(e).to_string());
                }
            };
            let shape = ds.shape(v);
            if shape.contains(&0) {
                continue;
            }
            let start = vec![0u64; shape.len()];
            let ext = (start.as_slice(), shape.as_slice());
            f.put_raw_values(*out_id, &remap_values(&values, &type_ids), ext)
                .map_err(|e| lib_msg(&e))?;
        }
    }
    f.close().map_err(|e| lib_msg(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Args {
        let argv: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        match parse_args(&argv, &mut Vec::new()) {
            Parsed::Run(a) => a,
            Parsed::Exit(c) => panic!("exit {c}"),
        }
    }

    #[test]
    fn getopt_forms() {
        let a = args(&["ncgen", "-bx", "-knc6", "-o", "out.nc", "in.cdl"]);
        assert!(a.binary && a.nofill);
        assert_eq!(a.kind, Some(Format::Offset64));
        assert_eq!(a.output.as_deref(), Some("out.nc"));
        assert_eq!(a.inputs, vec!["in.cdl".to_string()]);
        let a = args(&["ncgen", "-k", "64-bit data", "-lb", "x.cdl"]);
        assert_eq!(a.kind, Some(Format::Cdf5));
        assert_eq!(a.language.as_deref(), Some("b"));
        let mut e = Vec::new();
        let argv: Vec<String> = ["ncgen", "-k", "foo"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(matches!(parse_args(&argv, &mut e), Parsed::Exit(2)));
        assert_eq!(String::from_utf8(e).unwrap(), "Invalid format: foo\n");
    }
}
