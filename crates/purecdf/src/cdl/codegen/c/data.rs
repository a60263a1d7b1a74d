//! The data half of `ncgen -l c`: attribute blocks, variable data cut into `nc_put_vara`
//! calls, and constants as netcdf-c 4.9 spells them (netcdf-c `ncgen/genc.c`
//! `genc_writeattr`/`genc_writevar`, `generate.c` `generate_array`, `cdata.c`).
use super::{lossy, CGen, INDENT};
use crate::cdl::codegen::{
    attribute_decl, attribute_sections, c_g, commify, declared_text, escape_byte, escape_str,
    nc_type_macro,
};
use crate::model::{GroupId, NcType, UserTypeKind, Value, Values, VarId};

/// The `nc_put_att_` suffix of an atomic type.
fn put_att_suffix(t: NcType) -> &'static str {
    match t {
        NcType::Char => "text",
        NcType::Byte => "schar",
        NcType::Short => "short",
        NcType::Int => "int",
        NcType::Float => "float",
        NcType::Double => "double",
        NcType::UByte => "ubyte",
        NcType::UShort => "ushort",
        NcType::UInt => "uint",
        NcType::Int64 => "longlong",
        NcType::UInt64 => "ulonglong",
        NcType::String => "string",
        NcType::User(_) => "",
    }
}

impl CGen<'_> {
    pub(super) fn attributes(&mut self) -> Result<(), crate::cdl::CdlError> {
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
                    self.attribute(a.group, a.var, a.name, a.values);
                }
            }
            self.line("");
        }
        Ok(())
    }

    /// One attribute's block (`genc_defineattr` and `genc_writeattr`).
    fn attribute(&mut self, g: GroupId, var: Option<VarId>, name: &str, values: &Values) {
        let typ = values.nc_type();
        let code = self.type_code(typ);
        let ident = self.names.attribute(g, name);
        let grp = self.group_id(g);
        let target = match var {
            Some(v) => format!("{}_id", self.var_name(v)),
            None => "NC_GLOBAL".into(),
        };
        let ename = lossy(&escape_str(self.ds.spelled(name).as_bytes()));
        self.vlen_decls.clear();
        self.line("");
        self.indented("{");
        let n = values.len();
        if let Values::Char(bytes) = values {
            let bytes = declared_text(bytes);
            let len = bytes.len().max(1);
            self.text(&format!(
                "    stat = nc_put_att_text({grp}, {target}, \"{ename}\", {len}, \""
            ));
            self.out.extend_from_slice(&escape_str(bytes));
            self.line("\");");
            self.check();
            self.indented("}");
            return;
        }
        self.uid += 1;
        let mut raw = Vec::new();
        for i in 0..n {
            if i > 0 {
                raw.extend_from_slice(b", ");
            }
            let v = values.value(i).unwrap_or(Value::Enum(0));
            self.value(typ, &v, &mut raw);
        }
        self.dump_vlen_decls();
        let ctype = self.type_name(typ);
        self.out.extend_from_slice(
            format!("    static const {ctype} {ident}_att[{n}] = {{").as_bytes(),
        );
        self.out.extend_from_slice(&commify(&raw));
        self.line("} ;");
        let not_classic = match code {
            NcType::String => self.classic,
            NcType::UByte | NcType::UShort | NcType::UInt | NcType::Int64 | NcType::UInt64 => {
                matches!(
                    self.ds.format,
                    crate::Format::Classic | crate::Format::Offset64
                )
            }
            _ => false,
        };
        if not_classic {
            // ncgen's `verror`: the block is left open and generation goes on.
            self.messages.extend_from_slice(
                format!(
                    "netCDF classic: not supported: Non-classic type: {}\n",
                    nc_type_macro(code)
                )
                .as_bytes(),
            );
            return;
        }
        let tid = self.type_id(typ);
        match code {
            NcType::Byte | NcType::Short | NcType::Int | NcType::Float | NcType::Double => {
                self.line(&format!(
                    "    stat = nc_put_att_{}({grp}, {target}, \"{ename}\", {tid}, {n}, {ident}_att);",
                    put_att_suffix(code)
                ));
            }
            NcType::UByte | NcType::UShort | NcType::UInt | NcType::Int64 | NcType::UInt64 => {
                self.text(&format!(
                    "    stat = nc_put_att_{}({grp}, {target}, \"{ename}\", {tid}, {n}, {ident}_att);",
                    put_att_suffix(code)
                ));
            }
            NcType::String => {
                self.text(&format!(
                    "    stat = nc_put_att_string({grp}, {target}, \"{ename}\", {n}, {ident}_att);"
                ));
            }
            _ => {
                if self.classic {
                    let class = match code {
                        NcType::User(id) => match self.ds.schema.user_type(id).kind {
                            UserTypeKind::Compound { .. } => "NC_COMPOUND",
                            UserTypeKind::Vlen { .. } => "NC_VLEN",
                            UserTypeKind::Opaque { .. } => "NC_OPAQUE",
                            UserTypeKind::Enum { .. } => "NC_ENUM",
                        },
                        _ => "NC_NAT",
                    };
                    self.messages.extend_from_slice(
                        format!("netCDF classic: not supported: Non-classic type: {class}\n")
                            .as_bytes(),
                    );
                }
                self.line(&format!(
                    "    stat = nc_put_att({grp}, {target}, \"{ename}\", {tid}, {n}, {ident}_att);"
                ));
            }
        }
        self.check();
        self.indented("}");
    }

    fn dump_vlen_decls(&mut self) {
        for decl in std::mem::take(&mut self.vlen_decls) {
            self.out.extend_from_slice(INDENT);
            self.out.extend_from_slice(&decl);
            self.out.push(b'\n');
        }
    }

    /// A variable's data (`genc_definevardata`, `generate_array`).
    pub(super) fn var_data(&mut self, v: VarId) -> Result<(), crate::cdl::CdlError> {
        let ds = self.ds;
        let var = ds.schema.var(v);
        let mut fill = ds.fill_value(v);
        if var.typ == NcType::String && var.att("_FillValue").is_none() {
            // ncgen's default string fill is one NUL character, printed "\000".
            fill = Value::String(Some("\0".into()));
        }
        self.messages
            .extend_from_slice(ds.data_warnings(v, &self.opts.input_name).as_bytes());
        let Some(values) = ds.var_values_filled(v, fill)? else {
            return Ok(());
        };
        let shape = ds.shape(v);
        self.vlen_decls.clear();
        if shape.is_empty() {
            let mut raw = Vec::new();
            let value = values.value(0).unwrap_or(Value::Enum(0));
            self.value(var.typ, &value, &mut raw);
            self.write_scalar(v, &raw);
            return Ok(());
        }
        if let Values::Char(bytes) = &values {
            let start = vec![0u64; shape.len()];
            self.write_block(v, Block::Text(bytes), &start, &shape);
            return Ok(());
        }
        let total: u64 = shape.iter().product();
        let unlimited = var.dims.iter().any(|d| ds.schema.dim(*d).unlimited);
        if total <= self.opts.whole_var_size && !unlimited {
            self.uid += 1;
            let mut raw = Vec::new();
            for i in 0..values.len() {
                let value = values.value(i).unwrap_or(Value::Enum(0));
                self.value(var.typ, &value, &mut raw);
                raw.push(b' ');
            }
            let start = vec![0u64; shape.len()];
            self.write_block(v, Block::List(&raw), &start, &shape);
            return Ok(());
        }
        // A row along the last dimension at a time, in row-major order.
        let rank = shape.len();
        let row = shape[rank - 1] as usize;
        let rows: u64 = shape[..rank - 1].iter().product();
        let mut index = vec![0u64; rank];
        let mut count = vec![1u64; rank];
        count[rank - 1] = row as u64;
        for r in 0..rows {
            self.uid += 1;
            let mut raw = Vec::new();
            for i in 0..row {
                let value = values.value(r as usize * row + i).unwrap_or(Value::Enum(0));
                self.value(var.typ, &value, &mut raw);
                raw.push(b' ');
            }
            self.write_block(v, Block::List(&raw), &index, &count);
            for d in (0..rank - 1).rev() {
                index[d] += 1;
                if index[d] < shape[d] {
                    break;
                }
                index[d] = 0;
            }
        }
        Ok(())
    }

    /// Opens a variable's data block: returns its identifier stem and its group's id.
    fn open_block(&mut self, v: VarId) -> (String, String) {
        let var = self.ds.schema.var(v);
        let name = self.var_name(v);
        let grp = self.group_id(var.group);
        self.line("");
        self.indented("{");
        self.dump_vlen_decls();
        (name, grp)
    }

    fn write_scalar(&mut self, v: VarId, raw: &[u8]) {
        let (name, grp) = self.open_block(v);
        self.indented("size_t count = 0;");
        let ctype = self.type_name(self.ds.schema.var(v).typ);
        self.out
            .extend_from_slice(format!("    static {ctype} {name}_data[1] = {{").as_bytes());
        self.out.extend_from_slice(&commify(raw));
        self.line("};");
        self.line(&format!(
            "    stat = nc_put_var1({grp}, {name}_id, &count, {name}_data);"
        ));
        self.check();
        self.indented("}");
        self.line("");
    }

    /// One `nc_put_vara` block (`genc_writevar` for rank > 0).
    fn write_block(&mut self, v: VarId, data: Block<'_>, start: &[u64], count: &[u64]) {
        let (name, grp) = self.open_block(v);
        let var = self.ds.schema.var(v);
        match data {
            Block::Text(bytes) => {
                self.out
                    .extend_from_slice(format!("    char* {name}_data = \"").as_bytes());
                self.out.extend_from_slice(&escape_str(bytes));
                self.line("\" ;");
            }
            Block::List(raw) => {
                let n: u64 = count.iter().product();
                let ctype = self.type_name(var.typ);
                self.out
                    .extend_from_slice(format!("    {ctype} {name}_data[{n}] = {{").as_bytes());
                self.out.extend_from_slice(&commify(raw));
                self.line("} ;");
            }
        }
        let join = |v: &[u64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let rank = start.len();
        self.line(&format!(
            "    size_t {name}_startset[{rank}] = {{{}}} ;",
            join(start)
        ));
        self.line(&format!(
            "    size_t {name}_countset[{rank}] = {{{}}};",
            join(count)
        ));
        self.line(&format!(
            "    stat = nc_put_vara({grp}, {name}_id, {name}_startset, {name}_countset, {name}_data);"
        ));
        self.check();
        self.indented("}");
        self.line("");
    }

    /// One value of type `t` as ncgen's C generator spells it (`generate_basetype` with
    /// `c_constant`), list punctuation included, into `buf`.
    fn value(&mut self, t: NcType, v: &Value, buf: &mut Vec<u8>) {
        let ds = self.ds;
        let NcType::User(id) = t else {
            constant(v, buf);
            return;
        };
        match &ds.schema.user_type(id).kind {
            UserTypeKind::Enum { base, .. } => match v {
                Value::Enum(n) => self.enum_constant(*base, *n, buf),
                other => constant(other, buf),
            },
            UserTypeKind::Opaque { .. } => {
                if let Value::Opaque(bytes) = v {
                    opaque_constant(bytes, buf);
                }
            }
            UserTypeKind::Compound { fields, .. } => {
                self.uid += 1;
                buf.push(b'{');
                let items: &[Value] = match v {
                    Value::Compound(items) => items,
                    _ => &[],
                };
                for (f, item) in fields.iter().zip(items) {
                    buf.push(b' ');
                    if f.dims.is_empty() {
                        self.value(f.typ, item, buf);
                        continue;
                    }
                    let elems: &[Value] = match item {
                        Value::Array(e) => e,
                        _ => &[],
                    };
                    if f.typ == NcType::Char {
                        buf.extend(elems.iter().map(|e| match e {
                            Value::Char(c) => *c,
                            _ => 0,
                        }));
                    } else {
                        self.uid += 1;
                        buf.push(b'{');
                        for e in elems {
                            buf.push(b' ');
                            self.value(f.typ, e, buf);
                        }
                        buf.push(b'}');
                    }
                }
                buf.push(b'}');
            }
            UserTypeKind::Vlen { base } => {
                let elems: &[Value] = match v {
                    Value::Vlen(e) => e,
                    _ => &[],
                };
                self.uid += 1;
                let uid = self.uid;
                let mut inner = Vec::new();
                if *base == NcType::Char {
                    inner.extend(elems.iter().map(|e| match e {
                        Value::Char(c) => *c,
                        _ => 0,
                    }));
                } else {
                    for (i, e) in elems.iter().enumerate() {
                        if i > 0 {
                            inner.extend_from_slice(b", ");
                        }
                        self.value(*base, e, &mut inner);
                    }
                }
                let mut decl = format!("static const {} vlen_{uid}[] = {{", self.type_name(*base))
                    .into_bytes();
                decl.extend_from_slice(&commify(&inner));
                decl.extend_from_slice(b"} ;");
                self.vlen_decls.push(decl);
                buf.extend_from_slice(format!("{{{},(void*)vlen_{uid}}}", elems.len()).as_bytes());
            }
        }
    }

    /// An enum value spelled as a constant of its base type.
    pub(super) fn enum_constant(&self, base: NcType, n: i128, buf: &mut Vec<u8>) {
        let v = match base {
            NcType::Byte => Value::Byte(n as i8),
            NcType::Short => Value::Short(n as i16),
            NcType::Int => Value::Int(n as i32),
            NcType::UByte => Value::UByte(n as u8),
            NcType::UShort => Value::UShort(n as u16),
            NcType::UInt => Value::UInt(n as u32),
            NcType::Int64 => Value::Int64(n as i64),
            _ => Value::UInt64(n as u64),
        };
        constant(&v, buf);
    }
}

/// What one `nc_put_vara` block writes.
enum Block<'a> {
    /// Character data, written as one string constant.
    Text(&'a [u8]),
    /// A generated list, to be re-punctuated.
    List(&'a [u8]),
}

/// An atomic value as `c_constant` prints it.
fn constant(v: &Value, buf: &mut Vec<u8>) {
    let text = match v {
        Value::Char(b'\'') => "'\\''".to_string(),
        Value::Char(c) => {
            buf.push(b'\'');
            escape_byte(*c, b'\'', buf);
            buf.push(b'\'');
            return;
        }
        Value::Byte(x) => x.to_string(),
        Value::Short(x) => x.to_string(),
        Value::Int(x) => x.to_string(),
        Value::Float(x) if x.is_nan() => "nanf".into(),
        Value::Float(x) => {
            buf.extend_from_slice(b"((float)");
            buf.extend_from_slice(c_g(f64::from(*x), 8).as_bytes());
            buf.push(b')');
            return;
        }
        Value::Double(x) if x.is_nan() => "nan".into(),
        Value::Double(x) => {
            buf.extend_from_slice(b"((double)");
            buf.extend_from_slice(c_g(*x, 16).as_bytes());
            buf.push(b')');
            return;
        }
        Value::UByte(x) => format!("{x}U"),
        Value::UShort(x) => format!("{x}U"),
        Value::UInt(x) => format!("{x}U"),
        Value::Int64(x) => format!("{x}LL"),
        Value::UInt64(x) => format!("{x}ULL"),
        Value::String(None) => "NULL".into(),
        Value::String(Some(s)) => {
            buf.push(b'"');
            buf.extend_from_slice(&escape_str(s.as_bytes()));
            buf.push(b'"');
            return;
        }
        Value::Enum(n) => n.to_string(),
        Value::Opaque(bytes) => {
            opaque_constant(bytes, buf);
            return;
        }
        Value::Compound(_) | Value::Array(_) | Value::Vlen(_) => String::new(),
    };
    buf.extend_from_slice(text.as_bytes());
}

/// An opaque constant as netcdf-c 4.9 prints it: after each `\x` the whole rest of the hex
/// digits, the string cut at 8 × size + 2 characters (its buffer).
fn opaque_constant(bytes: &[u8], buf: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hex: Vec<u8> = bytes
        .iter()
        .flat_map(|b| [HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])
        .collect();
    let limit = 8 * bytes.len() + 2;
    let mut s = vec![b'"'];
    for i in 0..bytes.len() {
        s.extend_from_slice(b"\\x");
        s.extend_from_slice(&hex[2 * i..]);
    }
    s.push(b'"');
    s.truncate(limit);
    buf.extend_from_slice(&s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_constants_repeat_their_tails() {
        let mut b = Vec::new();
        opaque_constant(&[0xab, 0xcd, 0xef], &mut b);
        assert_eq!(b, b"\"\\xabcdef\\xcdef\\xef\"");
    }

    #[test]
    fn constants() {
        let mut b = Vec::new();
        constant(&Value::Float(0.01), &mut b);
        assert_eq!(b, b"((float)0.0099999998)");
        b.clear();
        constant(&Value::Double(f64::NEG_INFINITY), &mut b);
        assert_eq!(b, b"((double)-inf)");
        b.clear();
        constant(&Value::Char(b'\''), &mut b);
        constant(&Value::Char(0), &mut b);
        assert_eq!(b, b"'\\'''\\000'");
    }
}
