//! The CDL printer: writes a dataset as `ncdump` (netcdf-c 4.9) does, byte for byte.
//!
//! Layout rules follow `shared/spec/ncdump-conventions.md` (§1 overall layout, §2 names, §3
//! attributes, §4–§7 data, §8 `-s` virtual attributes, §9 options), which cites netcdf-c's
//! `ncdump/ncdump.c`, `vardata.c`, `dumplib.c` and `utils.c`. Sub-modules (private):
//! `number` (C `printf` formatting), `names` (escaping), `attrs` (attribute lines),
//! `data` (the data section), `time` (`-t` calendars) and `ncml` (`-x`).
//!
//! Besides the printers, ncdump's own rules are here for the `ncdump` tool and for programs
//! that print as it does: the dataset name it derives from a path ([`name_from_path`]), how it
//! resolves `-v` and `-g` ([`missing_variable`], [`match_groups`]), and the messages and
//! locations it prints for errors ([`ncdump_message`], [`ncdump_location`]).
//!
//! netcdf-c's quirks are reproduced where they are deterministic (stale `lput` line positions,
//! the Fortran annotation of scalars reading glibc's malloc header, x86-64 conversions of
//! out-of-range doubles in NcML, the single-entry `-t` bounds list, `-s` failing on CDF-5).
//! Where netcdf-c prints uninitialised memory (a time it cannot convert) or crashes (`-v ""`),
//! the output differs: an empty string, or a normal dump.
//!
//! ```no_run
//! let file = purecdf::open("x.nc")?;
//! let opts = purecdf::cdl::print::DumpOptions::new("x");
//! let stdout = std::io::stdout();
//! purecdf::cdl::print::write_cdl(&file, &opts, std::io::BufWriter::new(stdout.lock()))?;
//! # Ok::<(), purecdf::Error>(())
//! ```

mod attrs;
mod data;
mod digits;
pub(crate) mod names;
mod ncml;
pub(crate) mod number;
mod out;
mod select;
#[cfg(test)]
mod tests;
pub(crate) mod time;

use std::io::Write;

use crate::backend::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::file::File;
use crate::model::{DimId, GroupId, NcType, Schema, TypeId, UserTypeKind, VarId, ROOT};

pub use ncml::write_ncml;
pub use select::{match_groups, missing_variable, GroupMatchError};

use out::Out;

/// ncdump's message when `-t`/`-i` meets a time variable (or a bounds variable of one) whose
/// type is not numeric (`dumplib.c` `to_double`).
const NOT_NUMERIC: &str = "to_double: type not numeric primitive";

/// The operation (see [`crate::Context::operation`]) of an error in reading a variable's data
/// while printing it: ncdump's `nc_get_vara` call in `vardata.c`.
pub(crate) const DATA_READ: &str = "nc_get_vara";

/// Where netcdf-c 4.9.0's ncdump reports a failed library call (`Location: file ; line N`, its
/// `NC_CHECK` with an empty file name), when the failure is one whose place is known.
pub fn ncdump_location(e: &Error) -> Option<u32> {
    (e.context().operation == Some(DATA_READ)).then_some(478)
}

/// The message ncdump itself prints (as `ncdump: <message>`, exit status 1) for an error of the
/// printer, rather than a netCDF library error with its location: a name it refuses to print,
/// or a time conversion of a value that is not a number.
pub fn ncdump_message(e: &Error) -> Option<&str> {
    let detail = e.context().detail.as_deref()?;
    let own = match e.kind() {
        ErrorKind::BadName => detail.starts_with(names::NAME_BEGINS),
        ErrorKind::Inval => detail == NOT_NUMERIC,
        _ => false,
    };
    own.then_some(detail)
}

/// Index convention for `-b`/`-f` annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexLang {
    /// C: zero-based, last index varies fastest (`v(0,1, 0-2)`).
    C,
    /// Fortran: one-based, reversed (`v(1-3 ,2,1)`).
    Fortran,
}

/// What and how to print: the `ncdump` command-line options.
#[derive(Debug, Clone)]
pub struct DumpOptions {
    /// Dataset name on the `netcdf NAME {` line (`-n`, else derived from the file name).
    pub name: String,
    /// `-h`: header only.
    pub header_only: bool,
    /// `-c`: data of coordinate variables only.
    pub coord_vals: bool,
    /// `-v`: data only for these variables (names, relative or absolute paths).
    pub vars: Vec<String>,
    /// `-g`: data and metadata only for these groups; resolved with [`match_groups`].
    pub groups: Vec<GroupId>,
    /// True when `-g` was given (even if it matched nothing).
    pub groups_given: bool,
    /// `-b`: brief annotations.
    pub brief: bool,
    /// `-f`: full annotations.
    pub full: bool,
    /// Index convention of annotations.
    pub lang: IndexLang,
    /// `-l`: maximum line length (default 80).
    pub line_len: usize,
    /// Significant digits for float values (default 7; `-p`/`-d`).
    pub float_digits: usize,
    /// Significant digits for double values (default 15; `-p`/`-d`).
    pub double_digits: usize,
    /// `-p` gave a float precision: it overrides `C_format`.
    pub float_override: bool,
    /// `-p` gave a double precision: it overrides `C_format`.
    pub double_override: bool,
    /// `-t`/`-i`: time values as date-time strings.
    pub string_times: bool,
    /// `-i`: `T` between date and time.
    pub iso_separator: bool,
    /// `-s`: special virtual attributes.
    pub special_atts: bool,
    /// `-F`: `_Filter` syntax for all filters.
    pub filter_atts: bool,
    /// `-Xp`: never show `_NCProperties` (affects NcML output only, as in netcdf-c).
    pub suppress_properties: bool,
}

impl DumpOptions {
    /// Defaults for a dataset called `name` (what `ncdump file` does).
    pub fn new(name: impl Into<String>) -> Self {
        DumpOptions {
            name: name.into(),
            header_only: false,
            coord_vals: false,
            vars: Vec::new(),
            groups: Vec::new(),
            groups_given: false,
            brief: false,
            full: false,
            lang: IndexLang::C,
            line_len: 80,
            float_digits: 7,
            double_digits: 15,
            float_override: false,
            double_override: false,
            string_times: false,
            iso_separator: false,
            special_atts: false,
            filter_atts: false,
            suppress_properties: false,
        }
    }
}

/// The CDL dataset name ncdump derives from a path: last component without its last extension.
/// As netcdf-c canonicalises the path first, a backslash also separates components.
pub fn name_from_path(path: &str) -> String {
    // A URL names the dataset by its path's last segment (netcdf-c's `nc__testurl`); a URL
    // without a path (`file://x.zip#mode=zarr,zip`) falls through to the file-path rule.
    if let Some((scheme, rest)) = path.split_once("://") {
        let url_like = !scheme.is_empty() && scheme.bytes().all(|c| c.is_ascii_alphanumeric());
        let rest = rest.split(['#', '?']).next().unwrap_or("");
        if let (true, Some(i)) = (url_like, rest.find('/')) {
            let seg = rest[i..].rsplit('/').next().unwrap_or("");
            let seg = seg.rfind('.').map_or(seg, |d| &seg[..d]);
            if !seg.is_empty() {
                return seg.to_string();
            }
        }
    }
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match base.rfind('.') {
        Some(i) => base[..i].to_string(),
        None => base.to_string(),
    }
}

/// Writes `file` as CDL to `w`, as `ncdump` with `opts` does. Output written before an error is
/// flushed too (ncdump's partial output on a failing read).
///
/// # Errors
/// Read errors from the file, write errors from `w`, and names ncdump refuses to print.
pub fn write_cdl<W: Write>(file: &File, opts: &DumpOptions, w: W) -> Result<()> {
    write_cdl_with_diagnostics(file, opts, w, &mut std::io::sink())
}

/// As [`write_cdl`], also writing to `diag` the diagnostics ncdump prints on standard error
/// while dumping (`CDMS error: ...` lines for times `-t` cannot convert).
///
/// # Errors
/// As [`write_cdl`].
pub fn write_cdl_with_diagnostics<W: Write>(
    file: &File,
    opts: &DumpOptions,
    w: W,
    diag: &mut dyn Write,
) -> Result<()> {
    let mut p = Printer::new(file, opts, w, diag);
    let r = p.dump();
    let f = p.out.flush();
    p.flush_diag();
    r.and(f)
}

/// Shared state of one dump.
pub(crate) struct Printer<'a, W: Write> {
    pub(crate) file: &'a File,
    pub(crate) s: &'a Schema,
    pub(crate) opts: &'a DumpOptions,
    pub(crate) out: Out<W>,
    pub(crate) format: Format,
    /// `bounds` attributes seen with `-t`: (bounds variable name, group, parent variable).
    pub(crate) bounds: Vec<(Vec<u8>, GroupId, VarId)>,
    /// Scratch buffer reused for every formatted item.
    pub(crate) buf: Vec<u8>,
    /// Diagnostics not yet written to `diag_out`.
    pub(crate) diag: std::cell::RefCell<Vec<String>>,
    diag_out: &'a mut dyn Write,
}

/// Names that get a space before `:` in attribute lines (ncdump.c `keywords`).
const KEYWORDS: [&str; 5] = ["variables", "dimensions", "data", "group", "types"];

impl<'a, W: Write> Printer<'a, W> {
    fn new(file: &'a File, opts: &'a DumpOptions, w: W, diag_out: &'a mut dyn Write) -> Self {
        Printer {
            file,
            s: file.schema(),
            opts,
            out: Out::new(w, opts.line_len),
            format: file.format(),
            bounds: Vec::new(),
            buf: Vec::with_capacity(256),
            diag: std::cell::RefCell::new(Vec::new()),
            diag_out,
        }
    }

    /// Writes pending diagnostics (best effort: a failing stderr must not stop the dump).
    pub(crate) fn flush_diag(&mut self) {
        for m in self.diag.get_mut().drain(..) {
            let _ = writeln!(self.diag_out, "CDMS error: {m}");
        }
        let _ = self.diag_out.flush();
    }

    pub(crate) fn name(&mut self, name: &str) -> Result<()> {
        self.buf.clear();
        names::push_escaped_name(&names::raw_name(name), &mut self.buf)?;
        self.out.put(&self.buf)
    }

    fn dump(&mut self) -> Result<()> {
        self.out.indent = 0;
        // The name is escaped (and may be refused) before anything is printed.
        let mut line = b"netcdf ".to_vec();
        names::push_escaped_name(&names::raw_name(&self.opts.name), &mut line)?;
        line.extend_from_slice(b" {\n");
        self.out.put(&line)?;
        self.group(ROOT)?;
        self.out.indent_out()?;
        self.out.put(b"}\n")
    }

    /// A variable's name as ncdump prints it (from its `ncvar_t` record, see
    /// [`crate::model::record_name`]).
    pub(crate) fn var_name(&self, v: VarId) -> std::borrow::Cow<'a, str> {
        let var = self.s.var(v);
        let code = var.typ.code().unwrap_or(0);
        crate::model::record_name(&var.name, u64::from(code as u32))
    }

    /// True when a root attribute is one of netCDF-4's hidden ones (only shown by `-s`).
    pub(crate) fn is_hidden_global(&self, g: GroupId, name: &str) -> bool {
        g == ROOT
            && !self.format.is_classic_family()
            && matches!(name, "_NCProperties" | "_SuperblockVersion" | "_IsNetcdf4")
    }

    fn group(&mut self, g: GroupId) -> Result<()> {
        let s = self.s;
        let grp = s.group(g);
        if !grp.types.is_empty() {
            self.out.indent_out()?;
            self.out.put(b"types:\n")?;
            self.out.indent += 2;
            for &t in &grp.types {
                self.type_decl(g, t)?;
            }
            self.out.indent -= 2;
        }
        // ncdump's nc_inq on the group reads its attributes: where netcdf-c cannot, it stops here.
        if let Some(e) = self.file.with_backend(|b| b.attributes_error(g, None)) {
            return Err(e);
        }
        if !grp.dims.is_empty() {
            self.out.indent_out()?;
            self.out.put(b"dimensions:\n")?;
        }
        for &d in &grp.dims {
            let dim = s.dim(d);
            self.out.indent_out()?;
            self.out.put(b"\t")?;
            self.name(&crate::model::record_name(&dim.name, dim.len))?;
            let line = if dim.unlimited {
                format!(" = UNLIMITED ; // ({} currently)\n", dim.len)
            } else {
                format!(" = {} ;\n", dim.len)
            };
            self.out.put(line.as_bytes())?;
        }
        if !grp.vars.is_empty() {
            self.out.indent_out()?;
            self.out.put(b"variables:\n")?;
        }
        for &v in &grp.vars {
            // Likewise nc_inq_var reads the variable's attributes before its line is printed.
            if let Some(e) = self.file.with_backend(|b| b.attributes_error(g, Some(v))) {
                return Err(e);
            }
            self.var_decl(g, v)?;
        }
        let ngatts = grp
            .atts
            .iter()
            .filter(|a| !self.is_hidden_global(g, &a.name))
            .count();
        if ngatts > 0 || self.opts.special_atts {
            self.out.put(b"\n")?;
            self.out.indent_out()?;
            if g == ROOT {
                self.out.put(b"// global attributes:\n")?;
            } else {
                self.out.put(b"// group attributes:\n")?;
            }
        }
        for a in &grp.atts {
            if self.is_hidden_global(g, &a.name) || (g == ROOT && a.name == "_NCProperties") {
                continue;
            }
            self.att(g, None, a)?;
        }
        if g == ROOT && self.opts.special_atts {
            self.global_specials()?;
        }
        let wanted = !self.opts.groups_given || self.opts.groups.contains(&g);
        if !self.opts.header_only && wanted {
            if !grp.vars.is_empty() {
                self.out.indent_out()?;
                self.out.put(b"data:\n")?;
            }
            for &v in &grp.vars {
                if !self.data_wanted(g, v) {
                    continue;
                }
                if s.shape(v).contains(&0) {
                    continue;
                }
                self.var_data(g, v)?;
            }
        }
        for &c in &grp.groups {
            self.out.put(b"\n")?;
            self.out.indent_out()?;
            self.out.put(b"group: ")?;
            let name = &s.group(c).name;
            self.name(name)?;
            self.out.put(b" {\n")?;
            self.out.indent += 2;
            self.group(c)?;
            self.out.indent_out()?;
            self.out.put(b"} // group ")?;
            self.name(name)?;
            self.out.put(b"\n")?;
            self.out.indent = self.out.indent.saturating_sub(2);
        }
        Ok(())
    }

    /// Whether the data of `v` is printed (`-v` and `-c` filters).
    fn data_wanted(&self, g: GroupId, v: VarId) -> bool {
        if !self.opts.vars.is_empty()
            && !self
                .opts
                .vars
                .iter()
                .any(|n| select::gvarid(self.s, g, n) == Some(v))
        {
            return false;
        }
        if self.opts.coord_vals && !select::is_coord_var(self.s, g, v) {
            return false;
        }
        true
    }

    /// Prints a type name as referenced from group `g` (`print_type_name`): user types not
    /// defined (by name) in `g` or an ancestor get their group's path as a prefix.
    pub(crate) fn type_name(&mut self, g: GroupId, t: NcType) -> Result<()> {
        let s = self.s;
        let NcType::User(id) = t else {
            return self.out.put(t.cdl_name().unwrap_or("bogus").as_bytes());
        };
        let name = &s.user_type(id).name;
        let mut cur = Some(g);
        let mut inherited = false;
        while let Some(c) = cur {
            if s.find_type(c, name).is_some() {
                inherited = true;
                break;
            }
            cur = s.group(c).parent;
        }
        if !inherited {
            let path = s.group_path(s.types[id.0].0);
            self.name(&path)?;
            self.out.put(b"/")?;
        }
        self.name(name)
    }

    fn type_decl(&mut self, g: GroupId, t: TypeId) -> Result<()> {
        let s = self.s;
        let ut = s.user_type(t);
        match &ut.kind {
            UserTypeKind::Vlen { base } => {
                self.out.indent_out()?;
                self.type_name(g, *base)?;
                self.out.put(b"(*) ")?;
                self.type_name(g, NcType::User(t))?;
                self.out.put(b" ;\n")
            }
            UserTypeKind::Opaque { size } => {
                self.out.indent_out()?;
                self.out.put(format!("opaque({size}) ").as_bytes())?;
                self.type_name(g, NcType::User(t))?;
                self.out.put(b" ;\n")
            }
            UserTypeKind::Enum { base, members } => {
                self.out.indent_out()?;
                let mut line = names::escaped_name(base.cdl_name().unwrap_or("bogus"))?;
                line.extend_from_slice(b" enum ");
                names::push_escaped_name(&names::raw_name(&ut.name), &mut line)?;
                line.extend_from_slice(b" {");
                self.out.lput(&line)?;
                for (i, (m, v)) in members.iter().enumerate() {
                    line.clear();
                    names::push_escaped_name(&names::raw_name(m), &mut line)?;
                    line.extend_from_slice(format!(" = {}", *v as i64).as_bytes());
                    let delim: &[u8] = if i + 1 == members.len() {
                        b"} ;\n"
                    } else {
                        b", "
                    };
                    line.extend_from_slice(delim);
                    self.out.lput(&line)?;
                }
                Ok(())
            }
            UserTypeKind::Compound { fields, .. } => {
                self.out.indent_out()?;
                self.out.put(b"compound ")?;
                self.type_name(g, NcType::User(t))?;
                self.out.put(b" {\n")?;
                for f in fields {
                    self.out.indent_out()?;
                    self.out.put(b"  ")?;
                    self.type_name(g, f.typ)?;
                    self.out.put(b" ")?;
                    self.name(&f.name)?;
                    if !f.dims.is_empty() {
                        let d: Vec<String> = f.dims.iter().map(|d| d.to_string()).collect();
                        self.out.put(format!("({})", d.join(", ")).as_bytes())?;
                    }
                    self.out.put(b" ;\n")?;
                }
                self.out.indent_out()?;
                self.out.put(b"}; // ")?;
                self.type_name(g, NcType::User(t))?;
                self.out.put(b"\n")
            }
        }
    }

    /// ncdump's `get_typeinfo`: a classic file's header may hold type codes beyond its format's
    /// (netcdf-c's reader accepts them), which ncdump refuses where it first meets them.
    pub(crate) fn check_type_id(&self, t: NcType) -> Result<()> {
        let max = match self.format {
            Format::Classic | Format::Offset64 => 6,
            Format::Cdf5 => 11,
            _ => return Ok(()),
        };
        match t.code() {
            Some(code) if code > max => Err(crate::Error::with_detail(
                crate::ErrorKind::BadType,
                format!("ncdump: {code} is an invalid type id"),
            )),
            _ => Ok(()),
        }
    }

    fn var_decl(&mut self, g: GroupId, v: VarId) -> Result<()> {
        let s = self.s;
        let var = s.var(v);
        self.check_type_id(var.typ)?;
        self.out.indent_out()?;
        self.out.put(b"\t")?;
        self.type_name(g, var.typ)?;
        self.out.put(b" ")?;
        self.name(&self.var_name(v))?;
        if !var.dims.is_empty() {
            self.out.put(b"(")?;
        }
        // nc_inq_dimname fails for an axis whose dimension netcdf-c did not find.
        let mut missing = self.file.dimension_error(v);
        for (i, &d) in var.dims.iter().enumerate() {
            if missing.as_ref().is_some_and(|(axis, _)| *axis == i) {
                if let Some((_, e)) = missing.take() {
                    return Err(e);
                }
            }
            self.dim_ref(g, d)?;
            let sep: &[u8] = if i + 1 < var.dims.len() { b", " } else { b")" };
            self.out.put(sep)?;
        }
        self.out.put(b" ;\n")?;
        for a in &var.atts {
            self.att(g, Some(v), a)?;
        }
        if self.opts.special_atts {
            self.var_specials(v)?;
        }
        Ok(())
    }

    /// A dimension as named in a variable declaration: the simple name, or the full path when an
    /// ancestor's dimension of the same name would shadow it or it is not in an ancestor.
    fn dim_ref(&mut self, g: GroupId, d: DimId) -> Result<()> {
        let s = self.s;
        let name = s.dim(d).name.clone();
        // ncdump looks the name up (`nc_inq_dimid`), normalised, in each ancestor.
        let key = crate::model::stored_name_key(&name)?;
        let key = key.as_deref().unwrap_or(&name);
        let mut duplicate = false;
        let mut found = None;
        let mut cur = Some(g);
        while let Some(c) = cur {
            match s.find_dim(c, key) {
                Some(x) if x == d => {
                    found = Some(c);
                    break;
                }
                Some(_) => duplicate = true,
                None => {}
            }
            cur = s.group(c).parent;
        }
        let (usefqn, dimgrp) = match found {
            Some(c) => (duplicate, c),
            None => (true, s.dim(d).group),
        };
        if usefqn {
            let path = s.group_path(dimgrp);
            self.name(&path)?;
            if path != "/" {
                self.out.put(b"/")?;
            }
        }
        self.name(&name)
    }

    fn var_specials(&mut self, v: VarId) -> Result<()> {
        if matches!(self.format, Format::Classic | Format::Offset64) {
            return Ok(());
        }
        let s = self.s;
        let var = s.var(v);
        let name = self.var_name(v).into_owned();
        let st = &var.storage;
        let storage: &str = if self.format == Format::Cdf5 || st.chunk_sizes.is_none() {
            if st.compact {
                "compact"
            } else if st.is_virtual {
                "unknown"
            } else {
                "contiguous"
            }
        } else {
            "chunked"
        };
        self.special_line(&name, "_Storage", &format!("\"{storage}\""))?;
        if let (Some(cs), false) = (&st.chunk_sizes, self.format == Format::Cdf5) {
            let c: Vec<String> = cs.iter().map(|x| x.to_string()).collect();
            self.special_line(&name, "_ChunkSizes", &c.join(", "))?;
        }
        let has = |id: u32| st.filters.iter().find(|f| f.0 == id);
        if !self.opts.filter_atts {
            if has(3).is_some() {
                self.special_line(&name, "_Fletcher32", "\"true\"")?;
            }
            if has(2).is_some() {
                self.special_line(&name, "_Shuffle", "\"true\"")?;
            }
            if let Some(f) = has(1) {
                let level = f.1.first().map_or(-1, |&l| l as i64);
                self.special_line(&name, "_DeflateLevel", &level.to_string())?;
            }
        }
        let shown: Vec<String> = st
            .filters
            .iter()
            .filter(|f| self.opts.filter_atts || !matches!(f.0, 1..=3))
            .map(|(id, params)| {
                let mut t = id.to_string();
                for p in params {
                    t.push_str(&format!(",{p}"));
                }
                t
            })
            .collect();
        if !shown.is_empty() {
            self.special_line(&name, "_Filter", &format!("\"{}\"", shown.join("|")))?;
        }
        // An NCZarr variable's codecs (netcdf-c answers `_Codecs` for them), else a stored
        // `_Codecs` attribute.
        let codecs = self
            .file
            .codecs_json(v)
            .map(String::into_bytes)
            .or_else(|| match var.att("_Codecs").map(|a| &a.values) {
                Some(crate::model::Values::Char(c)) => Some(c.clone()),
                _ => None,
            });
        if let Some(c) = codecs.filter(|c| !c.is_empty()) {
            let mut t = b"\"".to_vec();
            names::push_escaped_string(&c, &mut t);
            t.push(b'"');
            self.special_line(&name, "_Codecs", &String::from_utf8_lossy(&t))?;
        }
        // netcdf-c reports an endianness only for atomic numeric types; strings and user types
        // (enums included) are "native" and print nothing.
        let endian_type = match var.typ {
            NcType::User(_) | NcType::String => None,
            t => Some(t),
        };
        if endian_type.is_some_and(|t| s.type_size(t) > 1) {
            if self.format == Format::Cdf5 {
                // netcdf-c 4.9 asks a CDF-5 file for its endianness and fails (ncdump.c
                // pr_att_specials does not exclude kind 5); reproduce the failure.
                return Err(Error::with_detail(
                    ErrorKind::NotNc4,
                    "ncdump -s on a CDF-5 file",
                ));
            }
            let e = if st.big_endian == Some(true) {
                "\"big\""
            } else {
                "\"little\""
            };
            self.special_line(&name, "_Endianness", e)?;
        }
        if var.no_fill {
            self.special_line(&name, "_NoFill", "\"true\"")?;
        }
        Ok(())
    }

    /// `pr_att_name` + ` = value ;\n`.
    fn special_line(&mut self, var: &str, att: &str, value: &str) -> Result<()> {
        self.out.indent_out()?;
        self.out.put(b"\t\t")?;
        self.name(var)?;
        self.out.put(b":")?;
        self.name(att)?;
        self.out.put(b" = ")?;
        self.out.put(value.as_bytes())?;
        self.out.put(b" ;\n")
    }

    fn global_specials(&mut self) -> Result<()> {
        let s = self.s;
        let atts = &s.group(ROOT).atts;
        if let Some(a) = atts.iter().find(|a| a.name == "_NCProperties") {
            if let crate::model::Values::Char(c) = &a.values {
                let t = String::from_utf8_lossy(names::trim_nuls(c)).into_owned();
                self.special_line("", "_NCProperties", &format!("\"{t}\""))?;
            }
        }
        if !self.format.is_classic_family() {
            for key in ["_SuperblockVersion", "_IsNetcdf4"] {
                if let Some(a) = atts.iter().find(|a| a.name == key) {
                    if a.values.len() == 1 {
                        let mut v = a.values.get_i128(0).unwrap_or(0);
                        if key == "_IsNetcdf4" {
                            v = i128::from(v != 0);
                        }
                        self.special_line("", key, &v.to_string())?;
                    }
                }
            }
        }
        let kind = format!("\"{}\"", self.format.kind_name());
        self.special_line("", "_Format", &kind)
    }

    /// True when `name` is one of the CDL section keywords.
    pub(crate) fn is_keyword(name: &str) -> bool {
        KEYWORDS.contains(&name)
    }
}
