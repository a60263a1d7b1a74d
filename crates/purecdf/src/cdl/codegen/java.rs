//! `ncgen -l java`: a Java program that makes the dataset with the netCDF-Java (`ucar.nc2`)
//! API, as netcdf-c 4.9's ncgen writes it (netcdf-c `ncgen/genj.c` for the program, `jdata.c`
//! for constants, `escapes.c` for `jescapify`, `data.c` for ncgen's own printf, `generate.c`
//! for how data is cut into writes).
//!
//! ncgen forces the classic format for this language (see [`super::parse_classic_model`]), so
//! every object is known by its own name. The text is reproduced byte for byte, quirks
//! included:
//! - floating-point constants come out of ncgen's printf, whose `%f` prints `((float)%.8g)`
//!   and `%lf` `((double)%.16g)`; unsigned and 64-bit constants keep C suffixes (`7U`, `7LL`);
//! - a scalar character is quoted twice (`''x''`);
//! - string escapes go through UTF-16 and leave backslashes alone; text that is not UTF-8 or
//!   leaves the BMP is reported and becomes empty;
//! - attributes of types other than byte, short, int, float, double and char are left out,
//!   their comment only printed;
//! - an unlimited dimension that has data is declared with its current length, and each
//!   write's array has the whole variable's shape, whatever part it holds.
//!
//! Where netcdf-c crashes — a name it cannot escape — this module stops with ncgen's message.
use super::{
    attribute_decl, attribute_sections, c_g, c_identifier, commify, declared_text, escape_str,
    java_escape, CodegenOptions, Generated,
};
use crate::cdl::{CdlDataset, CdlError, ErrorStyle};
use crate::model::{NcType, Value, Values, VarId};

/// Generates the Java program for `ds`.
pub fn generate(ds: &CdlDataset, opts: &CodegenOptions) -> Generated {
    let mut g = JGen {
        ds,
        opts,
        buf: Vec::with_capacity(4096),
        out: Vec::with_capacity(4096),
        messages: Vec::new(),
    };
    let error = g.program().err();
    Generated {
        code: g.out,
        messages: g.messages,
        error,
    }
}

struct JGen<'a> {
    ds: &'a CdlDataset,
    opts: &'a CodegenOptions,
    /// Text not yet written (ncgen's `codebuffer`).
    buf: Vec<u8>,
    /// What ncgen has written to standard output.
    out: Vec<u8>,
    /// Standard error, byte for byte.
    messages: Vec<u8>,
}

/// The `DataType` constant of a type (`jtypeallcaps`).
fn type_caps(t: NcType) -> &'static str {
    match t {
        NcType::Char => "CHAR",
        NcType::Byte => "BYTE",
        NcType::Short => "SHORT",
        NcType::Int => "INT",
        NcType::Float => "FLOAT",
        NcType::Double => "DOUBLE",
        NcType::String => "STRING",
        _ => "LONG",
    }
}

/// The capitalised type in `ArrayX` and `setXNext` (`jtypecap`).
fn type_cap(t: NcType) -> &'static str {
    match t {
        NcType::Char => "Char",
        NcType::Byte => "Byte",
        NcType::Short => "Short",
        NcType::Int => "Int",
        NcType::Float => "Float",
        NcType::Double => "Double",
        NcType::String => "String",
        _ => "Long",
    }
}

/// The Java type of a type's values (`jtype`).
fn java_type(t: NcType) -> &'static str {
    match t {
        NcType::Char => "char",
        NcType::Byte => "byte",
        NcType::Short => "short",
        NcType::Int => "int",
        NcType::Float => "float",
        NcType::Double => "double",
        NcType::String => "String",
        _ => "long",
    }
}

/// An atomic value as `j_constant` writes it through ncgen's printf.
fn constant(v: &Value) -> Vec<u8> {
    let text = match v {
        Value::Char(b'\'') => "'\\''".to_string(),
        Value::Char(c) => return vec![b'\'', *c, b'\''],
        Value::Byte(x) => x.to_string(),
        Value::Short(x) => x.to_string(),
        Value::Int(x) => x.to_string(),
        Value::Float(x) if x.is_nan() => "Float.NaN".into(),
        Value::Float(x) => format!("((float){})", c_g(f64::from(*x), 8)),
        Value::Double(x) if x.is_nan() => "Double.NaN".into(),
        Value::Double(x) => format!("((double){})", c_g(*x, 16)),
        Value::UByte(x) => x.to_string(),
        Value::UShort(x) => x.to_string(),
        Value::UInt(x) => format!("{x}U"),
        Value::Int64(x) => format!("{x}LL"),
        Value::UInt64(x) => format!("{x}LLU"),
        Value::String(s) => {
            let mut q = vec![b'"'];
            q.extend_from_slice(&escape_str(s.as_deref().unwrap_or("").as_bytes()));
            q.push(b'"');
            return q;
        }
        _ => String::new(),
    };
    text.into_bytes()
}

/// Four spaces: ncgen's `indented(1)`.
const INDENT: &str = "    ";

impl JGen<'_> {
    fn put(&mut self, text: &str) {
        self.buf.extend_from_slice(text.as_bytes());
    }

    fn line(&mut self, text: &str) {
        self.put(text);
        self.buf.push(b'\n');
    }

    fn indented(&mut self, text: &str) {
        self.put(INDENT);
        self.line(text);
    }

    /// `codeflush`: the collected text goes out, as far as its first NUL (`fputs`).
    fn flush(&mut self) {
        let end = self
            .buf
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.buf.len());
        self.out.extend_from_slice(&self.buf[..end]);
        self.buf.clear();
    }

    /// A name inside a string literal (`jescapifyname`). ncgen dereferences the null it gets
    /// for a name it cannot convert; this stops with the message it prints first.
    fn jname_str(&self, name: &str) -> Result<String, CdlError> {
        java_escape(name.as_bytes()).ok_or_else(|| CdlError {
            message: format!("Cannot convert UTF8 string to UTF16: {name}"),
            style: ErrorStyle::Plain,
            file: String::new(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
            preamble: String::new(),
        })
    }

    /// Text quoted with `quote` (`jquotestring`); text ncgen cannot convert is reported and
    /// left empty.
    fn quoted(&mut self, bytes: &[u8], quote: char) -> String {
        let inner = java_escape(bytes).unwrap_or_else(|| {
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            self.messages
                .extend_from_slice(b"Cannot convert UTF8 string to UTF16: ");
            self.messages.extend_from_slice(&bytes[..end]);
            self.messages.push(b'\n');
            String::new()
        });
        format!("{quote}{inner}{quote}")
    }

    fn var_name(&self, v: VarId) -> String {
        c_identifier(&self.ds.schema.var(v).name)
    }

    fn program(&mut self) -> Result<(), CdlError> {
        let ds = self.ds;
        let s = &ds.schema;
        for text in [
            "import java.util.*;",
            "import ucar.ma2.*;",
            "import ucar.nc2.*;",
            "import ucar.nc2.NetcdfFile.*;",
            "",
        ] {
            self.line(text);
        }
        self.line(&format!("public class {}", self.opts.main_name));
        self.line("{");
        self.line("");
        self.line("static public void main(String[] argv) throws Exception");
        self.line("{");
        let dims: Vec<String> = s.dims.iter().map(|d| c_identifier(&d.name)).collect();
        // A dimension is "unlimited" here only while no data has sized it.
        let open = |d: &crate::model::Dimension| d.unlimited && d.len == 0;
        if !dims.is_empty() {
            self.line("");
            self.indented("/* dimension lengths */");
            for (d, name) in s.dims.iter().zip(&dims) {
                let len = if open(d) { 0 } else { d.len };
                self.indented(&format!("final int {name}_len = {len};"));
            }
        }
        self.flush();
        self.line("");
        self.line("");
        self.indented("/* enter define mode */");
        self.indented(&format!(
            "NetcdfFileWriteable ncfile = NetcdfFileWriteable.createNew(\"{}\", {});",
            self.opts.file_name, !self.opts.no_fill
        ));
        self.flush();
        if !dims.is_empty() {
            self.line("");
            self.indented("/* define dimensions */");
            for (d, name) in s.dims.iter().zip(&dims) {
                let ename = self.jname_str(&d.name)?;
                if open(d) {
                    self.indented(&format!(
                        "Dimension {name}_dim = ncfile.addUnlimitedDimension(\"{ename}\");"
                    ));
                } else {
                    self.indented(&format!(
                        "Dimension {name}_dim = ncfile.addDimension(\"{ename}\", {name}_len);"
                    ));
                }
            }
            self.flush();
        }
        if !s.vars.is_empty() {
            self.line("");
            self.indented("/* define variables */");
            for (v, var) in s.vars.iter().enumerate() {
                let name = self.var_name(VarId(v));
                self.line("");
                self.indented(&format!("ArrayList {name}_dimlist = new ArrayList();"));
                for d in &var.dims {
                    self.indented(&format!("{name}_dimlist.add({}_dim);", dims[d.0]));
                }
                let ename = self.jname_str(&var.name)?;
                self.indented(&format!(
                    "ncfile.addVariable(\"{ename}\", DataType.{}, {name}_dimlist);",
                    type_caps(var.typ)
                ));
            }
            self.flush();
        }
        self.attributes()?;
        self.indented("ncfile.create();");
        if !self.opts.header_only && !s.vars.is_empty() {
            self.line("");
            self.indented("/* assign variable data */");
            for v in 0..s.vars.len() {
                self.var_data(VarId(v))?;
            }
            self.line("");
        }
        self.flush();
        self.indented("ncfile.close();");
        self.line("");
        self.indented("}");
        self.line("}");
        self.flush();
        Ok(())
    }

    fn attributes(&mut self) -> Result<(), CdlError> {
        let ds = self.ds;
        let titles = [
            "/* assign global attributes */",
            "/* assign per-variable attributes */",
        ];
        for (title, range) in titles.into_iter().zip(attribute_sections(ds)) {
            if range.is_empty() {
                continue;
            }
            self.line("");
            self.indented(title);
            for i in range {
                if let Some(a) = attribute_decl(ds, i)? {
                    self.attribute(a.var, a.name, a.values)?;
                }
            }
            self.line("");
            self.flush();
        }
        Ok(())
    }

    /// One attribute (`genj_writeattr`).
    fn attribute(
        &mut self,
        var: Option<VarId>,
        name: &str,
        values: &Values,
    ) -> Result<(), CdlError> {
        self.indented(&format!("/* attribute: {name} */"));
        let typ = values.nc_type();
        let data = match values {
            Values::Char(bytes) => {
                if declared_text(bytes).is_empty() {
                    "\"\"".to_string()
                } else {
                    self.quoted(bytes, '"')
                }
            }
            _ => {
                let mut raw = Vec::new();
                for i in 0..values.len() {
                    if i > 0 {
                        raw.extend_from_slice(b", ");
                    }
                    if let Some(v) = values.value(i) {
                        raw.extend_from_slice(&constant(&v));
                    }
                }
                format!(
                    "new {}[]{{{}}}",
                    java_type(typ),
                    String::from_utf8_lossy(&commify(&raw))
                )
            }
        };
        let supported = matches!(
            typ,
            NcType::Byte | NcType::Short | NcType::Int | NcType::Float | NcType::Double
        );
        if !supported && typ != NcType::Char {
            self.flush();
            return Ok(());
        }
        let ename = self.jname_str(name)?;
        let target = match var {
            Some(v) => {
                let vname = self.jname_str(&self.ds.schema.var(v).name)?;
                format!("ncfile.addVariableAttribute(\"{vname}\",\"{ename}\",")
            }
            None => format!("ncfile.addGlobalAttribute(\"{ename}\","),
        };
        if typ == NcType::Char {
            self.indented(&format!("{target}{data});"));
        } else {
            self.indented("{");
            self.indented(&format!(
                "Array data = Array.factory({}.class, new int[]{{{}}}, {data});",
                java_type(typ),
                values.len()
            ));
            self.indented(&format!("{target}data);"));
            self.indented("}");
        }
        self.flush();
        Ok(())
    }

    /// A variable's data (`genj_definevardata`, `generate_array`).
    fn var_data(&mut self, v: VarId) -> Result<(), CdlError> {
        let ds = self.ds;
        let var = ds.schema.var(v);
        let Some(values) = ds.var_values(v)? else {
            return Ok(());
        };
        let shape = ds.shape(v);
        let rank = shape.len();
        if rank == 0 {
            let c = values.value(0).map(|c| constant(&c)).unwrap_or_default();
            let cap = type_cap(var.typ);
            self.line("");
            self.indented("{");
            self.indented(&format!("Array{cap}.D0 data = new Array{cap}.D0();"));
            if var.typ == NcType::Char {
                let q = self.quoted(&c, '\'');
                self.indented(&format!("data.set((char){q});"));
            } else {
                let c = String::from_utf8_lossy(&commify(&c)).into_owned();
                self.indented(&format!("data.set(({}){c});", java_type(var.typ)));
            }
            let ename = self.jname_str(&var.name)?;
            self.indented(&format!("ncfile.write(\"{ename}\",data);"));
            self.indented("}");
            self.flush();
            return Ok(());
        }
        let start = vec![0u64; rank];
        if let Values::Char(bytes) = &values {
            let warnings = ds.data_warnings(v, &self.opts.input_name);
            self.messages.extend_from_slice(warnings.as_bytes());
            let text = self.quoted(bytes, '"');
            return self.write_block(v, &format!("String contents = {text};"), &start);
        }
        let total: u64 = shape.iter().product();
        let unlimited = var.dims.iter().any(|d| ds.schema.dim(*d).unlimited);
        let row = if total <= self.opts.whole_var_size && !unlimited {
            total as usize
        } else {
            shape[rank - 1] as usize
        };
        let rows = values.len().checked_div(row).unwrap_or(0);
        let jt = java_type(var.typ);
        let mut start = start;
        for r in 0..rows {
            let mut raw = Vec::new();
            for i in 0..row {
                if let Some(x) = values.value(r * row + i) {
                    raw.extend_from_slice(&constant(&x));
                }
                raw.push(b' ');
            }
            let list = String::from_utf8_lossy(&commify(&raw)).into_owned();
            self.write_block(
                v,
                &format!("{jt}[] contents = new {jt}[] {{{list}}};"),
                &start,
            )?;
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

    /// One write of an array variable (`genj_writevar` for rank > 0): `contents` declares the
    /// values, `start` is where they go.
    fn write_block(&mut self, v: VarId, contents: &str, start: &[u64]) -> Result<(), CdlError> {
        let ds = self.ds;
        let var = ds.schema.var(v);
        let cap = type_cap(var.typ);
        let dims: Vec<String> = var
            .dims
            .iter()
            .map(|d| ds.schema.dim(*d).len.to_string())
            .collect();
        self.line("");
        self.indented("{");
        self.indented(contents);
        self.indented(&format!(
            "Array{cap} data = new Array{cap}(new int[]{{{}}});",
            dims.join(", ")
        ));
        self.indented("IndexIterator iter = data.getIndexIterator();");
        self.indented("int count = 0;");
        self.indented("while(iter.hasNext())");
        if var.typ == NcType::Char {
            self.indented("    iter.setCharNext(contents.charAt(count++));");
        } else {
            self.indented(&format!("    iter.set{cap}Next(contents[count++]);"));
        }
        let origin: Vec<String> = start.iter().map(|s| s.to_string()).collect();
        self.indented(&format!(
            "int[] origin = new int[]{{{}}};",
            origin.join(", ")
        ));
        let ename = self.jname_str(&var.name)?;
        self.indented(&format!("ncfile.write(\"{ename}\",origin,data);"));
        self.indented("}");
        self.flush();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        assert_eq!(constant(&Value::Float(42.0)), b"((float)42)");
        assert_eq!(constant(&Value::Double(f64::NAN)), b"Double.NaN");
        assert_eq!(constant(&Value::UInt(7)), b"7U");
        assert_eq!(constant(&Value::UInt64(7)), b"7LLU");
        assert_eq!(constant(&Value::Char(b'\'')), b"'\\''");
    }
}
