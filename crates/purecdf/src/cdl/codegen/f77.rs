//! `ncgen -l f77`: a Fortran 77 program that makes the dataset with the netCDF Fortran API, as
//! netcdf-c 4.9's ncgen writes it (netcdf-c `ncgen/genf77.c` for the program, `f77data.c` for
//! constants, `escapes.c` for `f77quotestring`/`f77codify`, `generate.c` for how data is cut
//! into writes).
//!
//! ncgen forces the classic format for this language (see [`super::parse_classic_model`]), so
//! every object is known by its own name. The text is reproduced byte for byte, quirks
//! included:
//! - identifiers are the names *quoted* (`'x'_len`), because `f77codify` quotes like a string;
//! - text is collected and, at fixed points, folded to 72 columns (continuation `     1`), and
//!   each folded block first loses its leading blank lines;
//! - `-H` also leaves out the closing `nf_close` and `end`;
//! - an unlimited dimension that has data is declared with its current length;
//! - attribute vectors are sized by the number of constants declared, which for text is
//!   not the length (`CdlDataset::attribute_constants` holds the counts).
//!
//! Where netcdf-c reads uninitialised memory or crashes, this module does something sensible:
//! the call of each write subroutine passes `NAME_id` (ncgen appends an uninitialised
//! integer), the calls are made even when no attribute or scalar preceded them (ncgen fails an
//! assertion), and a variable of a type Fortran 77 lacks stops generation with an error (ncgen
//! dereferences a null type name).
use super::{
    attribute_decl, attribute_sections, c_g, commify, declared_text, f77_identifier, f77_quote,
    AttDecl, CodegenOptions, Generated,
};
use crate::cdl::{CdlDataset, CdlError, ErrorStyle};
use crate::model::{NcType, Value, Values, VarId};

/// The longest statement line before folding (`F77_MAX_STMT`).
const MAX_STMT: usize = 66;

/// Generates the Fortran 77 program for `ds`.
pub fn generate(ds: &CdlDataset, opts: &CodegenOptions) -> Generated {
    let mut g = F77Gen {
        ds,
        opts,
        buf: Vec::with_capacity(4096),
        out: Vec::with_capacity(4096),
        procs: Vec::new(),
        calls: Vec::new(),
        messages: String::new(),
    };
    let error = g.program().err();
    Generated {
        code: g.out,
        messages: g.messages.into_bytes(),
        error,
    }
}

struct F77Gen<'a> {
    ds: &'a CdlDataset,
    opts: &'a CodegenOptions,
    /// Text not yet folded (ncgen's `codebuffer`).
    buf: Vec<u8>,
    /// Folded text: what ncgen has written to standard output.
    out: Vec<u8>,
    /// The bodies of the write subroutines, unfolded.
    procs: Vec<Vec<u8>>,
    /// The subroutine calls of the variable being written.
    calls: Vec<String>,
    messages: String,
}

/// The Fortran API's name of an atomic classic type (`nftype`).
fn nf_type(t: NcType) -> Option<&'static str> {
    Some(match t {
        NcType::Char => "nf_char",
        NcType::Byte => "nf_byte",
        NcType::Short => "nf_short",
        NcType::Int => "nf_int",
        NcType::Float => "nf_float",
        NcType::Double => "nf_double",
        _ => return None,
    })
}

/// The Fortran type a variable is declared with (`nfdtype`; `real` has a trailing space).
fn decl_type(t: NcType) -> Option<&'static str> {
    Some(match t {
        NcType::Char | NcType::Byte | NcType::Short | NcType::Int => "integer",
        NcType::Float => "real ",
        NcType::Double => "double precision",
        _ => return None,
    })
}

/// The `nf_put_var_`/`nf_put_att_` suffix of a type (`nfstype`).
fn put_suffix(t: NcType) -> &'static str {
    match t {
        NcType::Char => "text",
        NcType::Byte | NcType::Short | NcType::Int => "int",
        NcType::Float => "real",
        _ => "double",
    }
}

/// The stem of a type's attribute vector (`ncftype`): `int1` makes `int1val`.
fn vector_stem(t: NcType) -> &'static str {
    match t {
        NcType::Char => "text",
        NcType::Byte => "int1",
        NcType::Short => "int2",
        NcType::Int => "int",
        NcType::Float => "real",
        _ => "double",
    }
}

/// Folds collected text as `f77fold` does, appending it to `out`: leading blanks and empty
/// lines go, an unterminated last line goes, comment and empty lines pass unchanged, other
/// lines are indented six columns and cut into 66-character pieces with continuation marks.
fn fold(text: &[u8], out: &mut Vec<u8>) {
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    let text = &text[..end];
    let start = text
        .iter()
        .position(|b| !b" \t\r\n".contains(b))
        .unwrap_or(text.len());
    let mut rest = &text[start..];
    while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
        let (mut line, tail) = rest.split_at(nl + 1);
        rest = tail;
        if line[0] == b'*' || line.len() == 1 {
            out.extend_from_slice(line);
            continue;
        }
        out.extend_from_slice(b"      ");
        if line.len() > MAX_STMT + 1 {
            while line.len() > MAX_STMT {
                // A piece may not end in a backslash.
                let cut = if line[MAX_STMT - 1] == b'\\' {
                    MAX_STMT - 1
                } else {
                    MAX_STMT
                };
                out.extend_from_slice(&line[..cut]);
                out.extend_from_slice(b"\n     1");
                line = &line[cut..];
            }
        }
        out.extend_from_slice(line);
    }
}

/// An atomic value as `f77_constant` writes it (`None` for types it cannot write).
fn constant(v: &Value) -> Option<Vec<u8>> {
    Some(match v {
        Value::Char(b'\'') => b"'\\''".to_vec(),
        // sprintf's "'%c'" of a NUL leaves only the opening quote in the C string.
        Value::Char(0) => b"'".to_vec(),
        Value::Char(c) => vec![b'\'', *c, b'\''],
        Value::Byte(x) => x.to_string().into_bytes(),
        Value::Short(x) => x.to_string().into_bytes(),
        Value::Int(x) => x.to_string().into_bytes(),
        Value::Float(x) => c_g(f64::from(*x), 8).into_bytes(),
        // Fortran spells the exponent of a double precision constant with D.
        Value::Double(x) => c_g(*x, 16).replace(['e', 'E'], "D").into_bytes(),
        Value::String(s) => f77_quote(s.as_deref().unwrap_or("").as_bytes()),
        _ => return None,
    })
}

impl<'a> F77Gen<'a> {
    fn put(&mut self, text: &str) {
        self.buf.extend_from_slice(text.as_bytes());
    }

    fn line(&mut self, text: &str) {
        self.put(text);
        self.buf.push(b'\n');
    }

    fn skip(&mut self) {
        self.buf.push(b'\n');
    }

    fn comment(&mut self, text: &str) {
        self.put("* ");
        self.line(text);
    }

    fn check(&mut self) {
        self.line("call check_err(stat)");
    }

    /// `f77flush`: the collected text, folded, goes out.
    fn flush(&mut self) {
        if !self.buf.is_empty() {
            fold(&self.buf, &mut self.out);
            self.buf.clear();
        }
    }

    fn name(&self, v: VarId) -> String {
        f77_identifier(&self.ds.schema.var(v).name)
    }

    /// What stands in for a netcdf-c crash on a type Fortran 77 lacks.
    fn no_type(&self, v: VarId) -> CdlError {
        let var = self.ds.schema.var(v);
        CdlError {
            message: format!(
                "Fortran 77 has no type for variable {} ({})",
                var.name,
                super::nc_type_macro(var.typ)
            ),
            style: ErrorStyle::Library,
            file: String::new(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
            preamble: String::new(),
        }
    }

    fn program(&mut self) -> Result<(), CdlError> {
        let ds = self.ds;
        let s = &ds.schema;
        self.skip();
        self.line(&format!("program {}", self.opts.main_name));
        self.line("include 'netcdf.inc'");
        self.comment("error status return");
        self.line("integer stat");
        self.comment("netCDF ncid");
        self.line("integer  ncid");
        let dims: Vec<String> = s.dims.iter().map(|d| f77_identifier(&d.name)).collect();
        if !dims.is_empty() {
            self.skip();
            self.comment("dimension lengths");
            for (d, name) in s.dims.iter().zip(&dims) {
                self.line(&format!("integer {name}_len"));
                // A dimension is "unlimited" here only while no data has sized it.
                if d.unlimited && d.len == 0 {
                    self.line(&format!("parameter ({name}_len = NF_UNLIMITED)"));
                } else {
                    self.line(&format!("parameter ({name}_len = {})", d.len));
                }
            }
        }
        self.flush();
        if !dims.is_empty() {
            self.skip();
            self.comment("dimension ids");
            for name in &dims {
                self.line(&format!("integer {name}_dim"));
            }
        }
        if !s.vars.is_empty() {
            self.declarations()?;
        }
        self.flush();
        self.attribute_vectors();
        self.skip();
        self.skip();
        self.comment("enter define mode");
        self.line(&format!(
            "stat = nf_create('{}', nf_clobber, ncid);",
            self.opts.file_name
        ));
        self.check();
        self.flush();
        if !dims.is_empty() {
            self.skip();
            self.comment("define dimensions");
            for name in &dims {
                self.line(&format!(
                    "stat = nf_def_dim(ncid, {name}, {name}_len, {name}_dim);"
                ));
                self.check();
            }
        }
        self.flush();
        if !s.vars.is_empty() {
            self.skip();
            self.comment("define variables");
            for (v, var) in s.vars.iter().enumerate() {
                let name = self.name(VarId(v));
                self.skip();
                for (i, d) in var.dims.iter().rev().enumerate() {
                    self.line(&format!("{name}_dims({}) = {}_dim", i + 1, dims[d.0]));
                }
                let typ = nf_type(var.typ).ok_or_else(|| self.no_type(VarId(v)))?;
                let shape = if var.dims.is_empty() {
                    "0".to_string()
                } else {
                    format!("{name}_dims")
                };
                self.line(&format!(
                    "stat = nf_def_var(ncid, {name}, {typ}, {name}_rank, {shape}, {name}_id);"
                ));
                self.check();
            }
        }
        self.flush();
        self.attributes()?;
        if self.opts.no_fill {
            self.comment("don't initialize variables with fill values");
            self.line("stat = nf_set_fill(ncid, NC_NOFILL, 0);");
            self.check();
        }
        self.skip();
        self.comment("leave define mode");
        self.line("stat = nf_enddef(ncid);");
        self.check();
        self.skip();
        self.flush();
        if !self.opts.header_only {
            self.data()?;
        }
        self.flush();
        self.skip();
        for text in [
            "subroutine check_err(stat)",
            "integer stat",
            "include 'netcdf.inc'",
            "if (stat .ne. NF_NOERR) then",
            "print *, nf_strerror(stat)",
            "stop",
            "endif",
            "end",
        ] {
            self.line(text);
        }
        self.flush();
        Ok(())
    }

    /// Variable ids, ranks, shapes and the arrays holding scalar and fixed-size data.
    fn declarations(&mut self) -> Result<(), CdlError> {
        let ds = self.ds;
        let vars = &ds.schema.vars;
        let names: Vec<String> = (0..vars.len()).map(|v| self.name(VarId(v))).collect();
        self.skip();
        self.comment("variable ids");
        for name in &names {
            self.line(&format!("integer {name}_id;"));
        }
        self.skip();
        self.comment("rank (number of dimensions) for each variable");
        for (var, name) in vars.iter().zip(&names) {
            self.line(&format!("integer {name}_rank"));
            self.line(&format!("parameter ({name}_rank = {})", var.dims.len()));
        }
        self.skip();
        self.comment("variable shapes");
        for (var, name) in vars.iter().zip(&names) {
            if !var.dims.is_empty() {
                self.line(&format!("integer {name}_dims({name}_rank)"));
            }
        }
        self.skip();
        self.comment("variable declarations");
        for (v, (var, name)) in vars.iter().zip(&names).enumerate() {
            if ds.var_data(VarId(v)).is_none() || var.typ == NcType::Char {
                continue;
            }
            let typ = decl_type(var.typ).ok_or_else(|| self.no_type(VarId(v)))?;
            match var.dims.first() {
                None => self.line(&format!("{typ} {name}")),
                Some(d) if ds.schema.dim(*d).len != 0 => {
                    // Fortran arrays list their dimensions fastest first.
                    let lens: String = var
                        .dims
                        .iter()
                        .rev()
                        .map(|d| format!(" {}", ds.schema.dim(*d).len))
                        .collect();
                    let lens = String::from_utf8_lossy(&commify(lens.as_bytes())).into_owned();
                    self.line(&format!("{typ} {name}({lens})"));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// The per-type vectors attribute values are put from, each as long as its longest use.
    fn attribute_vectors(&mut self) {
        if self.ds.attribute_order.is_empty() {
            return;
        }
        let order = [
            NcType::Byte,
            NcType::Char,
            NcType::Short,
            NcType::Int,
            NcType::Float,
            NcType::Double,
        ];
        let mut sizes = [0usize; 6];
        for i in 0..self.ds.attribute_order.len() {
            let Ok(Some(AttDecl { values, .. })) = attribute_decl(self.ds, i) else {
                continue;
            };
            let typ = values.nc_type();
            let Some(k) = order.iter().position(|t| *t == typ) else {
                continue;
            };
            // ncgen counts the constants of the declaration; without the count, one per
            // text attribute.
            let n = match self.ds.attribute_constants.get(i) {
                Some(n) => *n,
                None if typ == NcType::Char => 1,
                None => values.len(),
            };
            sizes[k] = sizes[k].max(n);
        }
        self.skip();
        self.comment("attribute vectors");
        for (t, n) in order.iter().zip(sizes) {
            if n > 0 {
                let base = match t {
                    NcType::Float => "real",
                    NcType::Double => "double precision",
                    _ => "integer",
                };
                self.line(&format!("{base} {}val({n})", vector_stem(*t)));
            }
        }
    }

    fn attributes(&mut self) -> Result<(), CdlError> {
        let ds = self.ds;
        let titles = ["assign global attributes", "assign per-variable attributes"];
        for (title, range) in titles.into_iter().zip(attribute_sections(ds)) {
            if range.is_empty() {
                continue;
            }
            self.skip();
            self.comment(title);
            for i in range {
                if let Some(a) = attribute_decl(ds, i)? {
                    self.attribute(a.var, a.name, a.values);
                }
            }
            self.skip();
            self.flush();
        }
        Ok(())
    }

    /// One attribute (`genf77_writeattr`).
    fn attribute(&mut self, var: Option<VarId>, name: &str, values: &Values) {
        self.line(&format!("* define {name}"));
        let target = match var {
            Some(v) => format!("{}_id", self.name(v)),
            None => "NF_GLOBAL".into(),
        };
        let ename = f77_identifier(name);
        let typ = values.nc_type();
        match values {
            Values::Char(bytes) => {
                let bytes = declared_text(bytes);
                let len = bytes.len().max(1);
                self.put(&format!(
                    "stat = nf_put_att_text(ncid, {target}, {ename}, {len}, "
                ));
                self.buf.extend_from_slice(&f77_quote(bytes));
                self.line(")");
            }
            _ if nf_type(typ).is_some() => {
                let stem = vector_stem(typ);
                for i in 0..values.len() {
                    let c = values
                        .value(i)
                        .and_then(|v| constant(&v))
                        .unwrap_or_default();
                    self.put(&format!("{stem}val({}) = ", i + 1));
                    self.buf.extend_from_slice(&c);
                    self.skip();
                }
                self.line(&format!(
                    "stat = nf_put_att_{}(ncid, {target}, {ename}, {}, {}, {stem}val)",
                    put_suffix(typ),
                    nf_type(typ).unwrap_or_default(),
                    values.len()
                ));
            }
            _ => {
                // ncgen's `verror`: reported, and the statement left out.
                self.messages.push_str(&format!(
                    "netCDF classic: not supported: Non-classic type: {}\n",
                    super::nc_type_macro(typ)
                ));
            }
        }
        self.check();
    }

    /// Scalars are written in the main program; arrays by subroutines called from it.
    fn data(&mut self) -> Result<(), CdlError> {
        let ds = self.ds;
        let vars = &ds.schema.vars;
        if !vars.is_empty() {
            self.skip();
            self.skip();
            self.comment("assign scalar and fixed dimension variable data");
            for (v, var) in vars.iter().enumerate() {
                if var.dims.is_empty() {
                    self.var_data(VarId(v))?;
                }
            }
            self.skip();
            self.skip();
            self.skip();
            self.comment("perform variable data writes");
            for (v, var) in vars.iter().enumerate() {
                if !var.dims.is_empty() {
                    self.var_data(VarId(v))?;
                }
                for call in std::mem::take(&mut self.calls) {
                    self.line(&call);
                }
            }
        }
        self.line("stat = nf_close(ncid)");
        self.check();
        self.line("end");
        if !self.procs.is_empty() {
            self.skip();
            for proc in std::mem::take(&mut self.procs) {
                self.buf.extend_from_slice(&proc);
            }
            self.skip();
        }
        Ok(())
    }

    /// A variable's data (`genf77_definevardata`, `generate_array`).
    fn var_data(&mut self, v: VarId) -> Result<(), CdlError> {
        let ds = self.ds;
        let var = ds.schema.var(v);
        let Some(values) = ds.var_values(v)? else {
            return Ok(());
        };
        let name = self.name(v);
        if var.typ == NcType::Char {
            self.messages
                .push_str(&ds.data_warnings(v, &self.opts.input_name));
            let text = match &values {
                Values::Char(bytes) if !var.dims.is_empty() => f77_quote(bytes),
                _ => {
                    let c = values.value(0).and_then(|c| constant(&c));
                    f77_quote(&c.unwrap_or_default())
                }
            };
            self.put(&format!("stat = nf_put_var_text(ncid, {name}_id, "));
            self.buf.extend_from_slice(&text);
            self.line(")");
            self.check();
            self.skip();
            return Ok(());
        }
        if var.dims.is_empty() {
            let c = values.value(0).and_then(|c| constant(&c));
            self.put(&format!("data {name} /"));
            self.buf.extend_from_slice(&commify(&c.unwrap_or_default()));
            self.line("/");
            self.line(&format!(
                "stat = nf_put_var_{}(ncid, {name}_id, {name})",
                put_suffix(var.typ)
            ));
            self.check();
            self.skip();
            return Ok(());
        }
        let shape = ds.shape(v);
        let rank = shape.len();
        let total: u64 = shape.iter().product();
        let unlimited = var.dims.iter().any(|d| ds.schema.dim(*d).unlimited);
        let row = if total <= self.opts.whole_var_size && !unlimited {
            total as usize
        } else {
            shape[rank - 1] as usize
        };
        let mut start = vec![0u64; rank];
        let count: Vec<u64> = if row == total as usize {
            shape.clone()
        } else {
            let mut c = vec![1u64; rank];
            c[rank - 1] = shape[rank - 1];
            c
        };
        let rows = values.len().checked_div(row).unwrap_or(0);
        for r in 0..rows {
            let mut raw = Vec::new();
            for i in 0..row {
                if let Some(c) = values.value(r * row + i).and_then(|x| constant(&x)) {
                    raw.extend_from_slice(&c);
                }
                raw.push(b' ');
            }
            self.write_proc(v, &name, &commify(&raw), &start, &count);
            for d in (0..rank - 1).rev() {
                start[d] += 1;
                if start[d] < shape[d] {
                    break;
                }
                start[d] = 0;
            }
        }
        Ok(())
    }

    /// One write subroutine and its call (`genf77_writevar` for arrays).
    fn write_proc(&mut self, v: VarId, name: &str, list: &[u8], start: &[u64], count: &[u64]) {
        let typ = self.ds.schema.var(v).typ;
        let index = self.procs.len();
        // ncgen's format asks for one integer more than it passes: the call names
        // `NAME_id_<garbage>`; this writes the argument it meant.
        self.calls
            .push(format!("call write_{name}_{index}(ncid,{name}_id)\n"));
        let mut p = Vec::new();
        let mut line = |text: &str| {
            p.extend_from_slice(text.as_bytes());
            p.push(b'\n');
        };
        line("");
        line(&format!("subroutine write_{name}_{index}(ncid,{name}_id)"));
        line("integer ncid");
        line(&format!("integer {name}_id"));
        line("include 'netcdf.inc'");
        line("integer stat");
        line("");
        let rank = count.len();
        line(&format!("integer {name}_start({rank})"));
        line(&format!("integer {name}_count({rank})"));
        line("");
        let lens: Vec<String> = count.iter().rev().map(|c| c.to_string()).collect();
        line(&format!(
            "{} {name}({})",
            decl_type(typ).unwrap_or_default(),
            lens.join(",")
        ));
        line(&format!("data {name} /{}/", String::from_utf8_lossy(list)));
        for (i, s) in start.iter().rev().enumerate() {
            line(&format!("{name}_start({}) = {}", i + 1, s + 1));
        }
        for (i, c) in count.iter().rev().enumerate() {
            line(&format!("{name}_count({}) = {c}", i + 1));
        }
        line(&format!(
            "stat = nf_put_vara_{}(ncid, {name}_id, {name}_start, {name}_count, {name})",
            put_suffix(typ)
        ));
        line("call check_err(stat)");
        line("end");
        self.procs.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        let mut out = Vec::new();
        let long = format!("x = {}\n", "1".repeat(70));
        fold(
            format!("\n\n* c\n\nshort\n{long}partial").as_bytes(),
            &mut out,
        );
        let want = format!(
            "* c\n\n      short\n      x = {}\n     1{}\n",
            "1".repeat(62),
            "1".repeat(8)
        );
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }

    #[test]
    fn constants() {
        assert_eq!(constant(&Value::Double(1e308)).unwrap(), b"1D+308");
        assert_eq!(constant(&Value::Float(1e36)).unwrap(), b"9.9999996e+35");
        assert_eq!(constant(&Value::Char(b'\'')).unwrap(), b"'\\''");
        assert_eq!(f77_quote(b"'\\''"), b"'''\\'''''");
        assert!(constant(&Value::UByte(1)).is_none());
    }
}
