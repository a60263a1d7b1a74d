//! The data section (ncdump-conventions.md §4–§7; netcdf-c `ncdump/vardata.c` `vardata`,
//! `print_rows`, `lput`, `annotate`, `annotate_brief`, and `dumplib.c` value formatting and the
//! approximate fill-value test).
//!
//! Values are read in slabs of about [`CHUNK_BYTES`] (whole outer records when they fit) and fed
//! element by element through a row state machine, so memory stays bounded whatever the shape
//! and every value is formatted into one reused buffer.

use std::io::Write;

use super::attrs::{enum_value, special, time_text};
use super::names;
use super::number::{push_g, push_int, push_uint, Arg, CFormat};
use super::time::TimeUnits;
use super::{IndexLang, Printer, DATA_READ};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{GroupId, NcType, Schema, UserTypeKind, Value, Values, VarId};

/// Target size of one read.
const CHUNK_BYTES: u64 = 4 << 20;

/// How each value of a variable is turned into text.
struct ElemFmt {
    typ: NcType,
    cfmt: Option<CFormat>,
    fd: usize,
    dd: usize,
    fill: Option<Values>,
    time: Option<TimeUnits>,
    sep: u8,
}

/// Position of the printer within the variable's rows.
struct Rows {
    rank: usize,
    dims: Vec<u64>,
    /// Index of the current row along every dimension but the last.
    idx: Vec<u64>,
    col: u64,
    ncols: u64,
    /// Per level, true when the level's dimension is unlimited (levels > 0 get `{ }`).
    marks: Vec<bool>,
    text: bool,
    pending_nuls: usize,
    /// The formatted last value of the current row (printed at row end with its braces).
    last: Vec<u8>,
}

impl<W: Write> Printer<'_, W> {
    /// Prints the data of one variable (`vardata`).
    pub(crate) fn var_data(&mut self, _g: GroupId, v: VarId) -> Result<()> {
        let s = self.s;
        let var = s.var(v);
        let shape = s.shape(v);
        let rank = shape.len();
        let ef = self.elem_fmt(v);
        let text = var.typ == NcType::Char
            && match self.c_format(v) {
                None => true,
                Some(f) => CFormat::is_plain_string(&f),
            };
        let ncols = if rank == 0 { 1 } else { shape[rank - 1] };
        let marks = var
            .dims
            .iter()
            .enumerate()
            .map(|(l, d)| l > 0 && s.dim(*d).unlimited)
            .collect();
        let mut rows = Rows {
            rank,
            dims: shape.clone(),
            idx: vec![0; rank.saturating_sub(1)],
            col: 0,
            ncols,
            marks,
            text,
            pending_nuls: 0,
            last: Vec::new(),
        };
        self.out.put(b"\n")?;
        self.out.indent_out()?;
        self.out.put(b" ")?;
        let shown = self.var_name(v);
        self.name(&shown)?;
        if rank <= 1 {
            self.out.put(b" = ")?;
            self.out
                .set_linep(names::raw_name(&shown).len() + 4 + self.out.indent);
        } else {
            self.out.put(b" =\n  ")?;
            self.out.set_linep(2 + self.out.indent);
        }
        let ef = ElemFmt {
            cfmt: if text { None } else { ef.cfmt },
            ..ef
        };
        self.for_each_chunk(v, &shape, |p, vals| p.chunk(v, &ef, &mut rows, vals))
    }

    /// Reads variable `v` in slabs and calls `f` on each, in row-major order. A failed read is
    /// marked [`DATA_READ`], the call ncdump makes there.
    fn for_each_chunk(
        &mut self,
        v: VarId,
        shape: &[u64],
        mut f: impl FnMut(&mut Self, &Values) -> Result<()>,
    ) -> Result<()> {
        let var = self.file.variable_by_id(v);
        let size = self.s.type_size(self.s.var(v).typ).max(1) as u64;
        let budget = (CHUNK_BYTES / size).max(1);
        let rank = shape.len();
        if rank == 0 {
            let vals = var.get_typed_values(()).map_err(|e| e.during(DATA_READ))?;
            return f(self, &vals);
        }
        // Split level: the outermost level whose inner block fits the budget.
        let mut level = rank - 1;
        let mut inner: u64 = 1;
        while level > 0 {
            let next = inner.saturating_mul(shape[level]);
            if next > budget {
                break;
            }
            inner = next;
            level -= 1;
        }
        let step = (budget / inner).max(1);
        let mut start = vec![0u64; rank];
        let mut count: Vec<u64> = shape.to_vec();
        for c in count.iter_mut().take(level) {
            *c = 1;
        }
        loop {
            let mut pos = 0;
            while pos < shape[level] {
                let k = step.min(shape[level] - pos);
                start[level] = pos;
                count[level] = k;
                let vals = var
                    .get_typed_values((&start[..], &count[..]))
                    .map_err(|e| e.during(DATA_READ))?;
                if vals.len() as u64 != count.iter().product::<u64>() {
                    return Err(Error::with_detail(
                        ErrorKind::Trunc,
                        "short read of variable data",
                    ));
                }
                f(self, &vals)?;
                pos += k;
            }
            start[level] = 0;
            // Advance the odometer over the levels above the split.
            let mut l = level;
            loop {
                if l == 0 {
                    return Ok(());
                }
                l -= 1;
                start[l] += 1;
                if start[l] < shape[l] {
                    break;
                }
                start[l] = 0;
            }
        }
    }

    /// The text of a `C_format` attribute, when ncdump would use it.
    fn c_format(&self, v: VarId) -> Option<Vec<u8>> {
        match &self.s.var(v).att("C_format")?.values {
            Values::Char(c) if !c.is_empty() && c.len() < 100 => {
                Some(c[..c.iter().position(|&b| b == 0).unwrap_or(c.len())].to_vec())
            }
            _ => None,
        }
    }

    fn elem_fmt(&self, v: VarId) -> ElemFmt {
        let var = self.s.var(v);
        let typ = var.typ;
        let overridden = (self.opts.float_override && typ == NcType::Float)
            || (self.opts.double_override && typ == NcType::Double);
        let cfmt = if overridden {
            None
        } else {
            self.c_format(v).map(|f| CFormat::parse(&f))
        };
        let fill = match var.att("_FillValue") {
            Some(a) if a.values.nc_type() == typ && a.values.len() == 1 => Some(a.values.clone()),
            _ => match typ {
                NcType::Byte | NcType::UByte | NcType::User(_) => None,
                NcType::String => Some(Values::String(vec![Some(String::new())])),
                t => crate::convert::default_fill(t),
            },
        };
        // Every type gets the time conversion (`set_tostring_func`), which fails on the first
        // value that is not numeric; char rows printed as text never reach it.
        let time = if self.opts.string_times {
            self.time_units(v, true)
        } else {
            None
        };
        ElemFmt {
            typ,
            cfmt,
            fd: self.opts.float_digits,
            dd: self.opts.double_digits,
            fill,
            time,
            sep: if self.opts.iso_separator { b'T' } else { b' ' },
        }
    }

    fn chunk(&mut self, v: VarId, ef: &ElemFmt, rows: &mut Rows, vals: &Values) -> Result<()> {
        let n = vals.len();
        let full = self.opts.full;
        let mut buf = std::mem::take(&mut self.buf);
        for i in 0..n {
            if rows.col == 0 {
                self.begin_row(v, rows)?;
            }
            let last = rows.col + 1 == rows.ncols;
            if rows.text {
                let c = match vals {
                    Values::Char(c) => c[i],
                    _ => 0,
                };
                if c == 0 {
                    rows.pending_nuls += 1;
                } else {
                    buf.clear();
                    for _ in 0..rows.pending_nuls {
                        buf.extend_from_slice(b"\\000");
                    }
                    rows.pending_nuls = 0;
                    names::push_char_row_byte(c, &mut buf);
                    self.out.put(&buf)?;
                }
            } else {
                buf.clear();
                self.elem_text(ef, vals, i, &mut buf)?;
                if last {
                    rows.last.clear();
                    rows.last.extend_from_slice(&buf);
                } else if full {
                    buf.extend_from_slice(b", ");
                    self.out.put(&buf)?;
                    self.annotate(v, rows, rows.col)?;
                } else {
                    buf.extend_from_slice(b", ");
                    self.out.lput(&buf)?;
                }
            }
            rows.col += 1;
            if last {
                self.end_row(v, rows)?;
                rows.col = 0;
                for l in (0..rows.idx.len()).rev() {
                    rows.idx[l] += 1;
                    if rows.idx[l] < rows.dims[l] || l == 0 {
                        break;
                    }
                    rows.idx[l] = 0;
                }
            }
        }
        self.buf = buf;
        self.flush_diag();
        Ok(())
    }

    fn begin_row(&mut self, v: VarId, rows: &mut Rows) -> Result<()> {
        let r = rows.rank;
        for l in 1..r {
            if rows.marks[l] && rows.idx[l..].iter().all(|&i| i == 0) {
                self.out.lput(b"{")?;
            }
        }
        if self.opts.brief && r > 1 && rows.ncols > 0 {
            let mut t = b"// ".to_vec();
            names::push_escaped_name(&names::raw_name(&self.var_name(v)), &mut t)?;
            t.push(b'(');
            match self.opts.lang {
                IndexLang::C => {
                    for i in &rows.idx {
                        t.extend_from_slice(format!("{i},").as_bytes());
                    }
                    if rows.ncols == 1 {
                        t.push(b'0');
                    } else {
                        t.extend_from_slice(format!(" 0-{}", rows.ncols - 1).as_bytes());
                    }
                }
                IndexLang::Fortran => {
                    if rows.ncols == 1 {
                        t.push(b'1');
                    } else {
                        t.extend_from_slice(format!("1-{} ", rows.ncols).as_bytes());
                    }
                    for i in rows.idx.iter().rev() {
                        t.extend_from_slice(format!(",{}", i + 1).as_bytes());
                    }
                }
            }
            t.extend_from_slice(b")\n");
            self.out.put(&t)?;
            self.out.indent_out()?;
            self.out.put(b"    ")?;
            self.out.set_linep(4 + self.out.indent);
        }
        if rows.text {
            rows.pending_nuls = 0;
            self.out.put(b"\"")?;
        }
        Ok(())
    }

    fn end_row(&mut self, v: VarId, rows: &mut Rows) -> Result<()> {
        let r = rows.rank;
        if rows.text {
            self.out.put(b"\"")?;
            rows.last.clear();
        }
        let nidx = rows.idx.len();
        let closes = (1..r)
            .filter(|&l| rows.marks[l] && (l..nidx).all(|k| rows.idx[k] + 1 == rows.dims[k]))
            .count();
        for _ in 0..closes {
            rows.last.push(b'}');
        }
        let lastrow = (0..nidx).all(|k| rows.idx[k] + 1 == rows.dims[k]);
        if self.opts.full {
            self.out.put(&rows.last)?;
            self.out.put(if lastrow { b";" } else { b"," })?;
            self.annotate(v, rows, rows.ncols.saturating_sub(1))?;
        } else {
            let last = std::mem::take(&mut rows.last);
            self.out.lput(&last)?;
            rows.last = last;
            if lastrow {
                self.out.lput(b" ;")?;
                self.out.lput(b"\n")?;
            } else {
                self.out.lput(b",\n")?;
                self.out.lput(b"  ")?;
            }
        }
        Ok(())
    }

    /// `annotate`: `  // v(i,j,k)` and a new line indented by 4.
    fn annotate(&mut self, v: VarId, rows: &Rows, col: u64) -> Result<()> {
        let mut t = b"  // ".to_vec();
        names::push_escaped_name(&names::raw_name(&self.var_name(v)), &mut t)?;
        t.push(b'(');
        match self.opts.lang {
            IndexLang::C => {
                for i in &rows.idx {
                    t.extend_from_slice(format!("{i},").as_bytes());
                }
                t.extend_from_slice(col.to_string().as_bytes());
            }
            IndexLang::Fortran => {
                // For a scalar, netcdf-c reads cor[-1], the glibc malloc chunk header of its
                // 8-byte index array (0x21 = 33), and prints 33 + col + 1.
                let base = if rows.rank == 0 { 33 } else { 0 };
                t.extend_from_slice((base + col + 1).to_string().as_bytes());
                for i in rows.idx.iter().rev() {
                    t.extend_from_slice(format!(",{}", i + 1).as_bytes());
                }
            }
        }
        t.extend_from_slice(b")\n    ");
        self.out.put(&t)
    }

    /// One data value, or `_` when it equals the fill value.
    fn elem_text(&self, ef: &ElemFmt, vals: &Values, i: usize, out: &mut Vec<u8>) -> Result<()> {
        if let Some(fill) = &ef.fill {
            if is_fill(self, fill, vals, i) {
                out.push(b'_');
                return Ok(());
            }
        }
        if let Some(tu) = &ef.time {
            if !ef.typ.is_numeric() {
                return Err(Error::with_detail(ErrorKind::Inval, super::NOT_NUMERIC));
            }
            let x = vals.get_f64(i).unwrap_or(0.0);
            let t = time_text(tu, x, ef.sep, &mut self.diag.borrow_mut());
            out.extend_from_slice(t.as_bytes());
            return Ok(());
        }
        if let Some(cf) = &ef.cfmt {
            let arg = match vals {
                Values::Float(v) if !v[i].is_finite() => {
                    out.extend_from_slice(special(f64::from(v[i]), true));
                    return Ok(());
                }
                Values::Double(v) if !v[i].is_finite() => {
                    out.extend_from_slice(special(v[i], false));
                    return Ok(());
                }
                Values::Float(v) => Arg::Double(f64::from(v[i])),
                Values::Double(v) => Arg::Double(v[i]),
                Values::Char(v) => Arg::Int(i64::from(v[i] as i8)),
                Values::UInt64(v) => Arg::UInt(v[i]),
                Values::String(_) | Values::User(..) => {
                    return self.default_text(ef, vals, i, out);
                }
                other => match other.get_i128(i) {
                    Some(x) => Arg::Int(x as i64),
                    None => return self.default_text(ef, vals, i, out),
                },
            };
            let start = out.len();
            cf.format(arg, out);
            // netcdf-c formats into a 100-byte buffer (PRIM_LEN) with snprintf.
            out.truncate(start + (out.len() - start).min(99));
            return Ok(());
        }
        self.default_text(ef, vals, i, out)
    }

    fn default_text(&self, ef: &ElemFmt, vals: &Values, i: usize, out: &mut Vec<u8>) -> Result<()> {
        match vals {
            Values::Byte(v) => push_int(i64::from(v[i]), out),
            Values::Char(v) => out.push(v[i]),
            Values::Short(v) => push_int(i64::from(v[i]), out),
            Values::Int(v) => push_int(i64::from(v[i]), out),
            Values::Float(v) => {
                let x = v[i];
                if x.is_finite() {
                    push_g(f64::from(x), ef.fd, out);
                } else {
                    out.extend_from_slice(special(f64::from(x), true));
                }
            }
            Values::Double(v) => {
                let x = v[i];
                if x.is_finite() {
                    push_g(x, ef.dd, out);
                } else {
                    out.extend_from_slice(special(x, false));
                }
            }
            Values::UByte(v) => push_uint(u64::from(v[i]), out),
            Values::UShort(v) => push_uint(u64::from(v[i]), out),
            Values::UInt(v) => push_uint(u64::from(v[i]), out),
            Values::Int64(v) => push_int(v[i], out),
            Values::UInt64(v) => push_uint(v[i], out),
            Values::String(v) => names::push_string_value(v[i].as_deref().map(str::as_bytes), out),
            Values::User(t, v) => self.value_text(NcType::User(*t), &v[i], out)?,
        }
        let _ = ef.typ;
        Ok(())
    }

    /// A value of any type as `typ_tostring` writes it (used inside user-type values and for
    /// user-type attributes): default formats, no fill test.
    pub(crate) fn value_text(&self, typ: NcType, v: &Value, out: &mut Vec<u8>) -> Result<()> {
        let fd = self.opts.float_digits;
        let dd = self.opts.double_digits;
        match v {
            Value::Byte(x) => push_int(i64::from(*x), out),
            Value::Char(c) => out.push(*c),
            Value::Short(x) => push_int(i64::from(*x), out),
            Value::Int(x) => push_int(i64::from(*x), out),
            Value::Float(x) if x.is_finite() => push_g(f64::from(*x), fd, out),
            Value::Float(x) => out.extend_from_slice(special(f64::from(*x), true)),
            Value::Double(x) if x.is_finite() => push_g(*x, dd, out),
            Value::Double(x) => out.extend_from_slice(special(*x, false)),
            Value::UByte(x) => push_uint(u64::from(*x), out),
            Value::UShort(x) => push_uint(u64::from(*x), out),
            Value::UInt(x) => push_uint(u64::from(*x), out),
            Value::Int64(x) => push_int(*x, out),
            Value::UInt64(x) => push_uint(*x, out),
            Value::String(s) => names::push_string_value(s.as_deref().map(str::as_bytes), out),
            Value::Opaque(b) => {
                out.extend_from_slice(b"0X");
                for x in b {
                    out.extend_from_slice(format!("{x:02X}").as_bytes());
                }
            }
            Value::Enum(_) => {
                let n = enum_value(v);
                let name = match typ {
                    NcType::User(t) => match &self.s.user_type(t).kind {
                        UserTypeKind::Enum { members, .. } => {
                            members.iter().find(|m| m.1 == n).map(|m| m.0.clone())
                        }
                        _ => None,
                    },
                    _ => None,
                };
                match name {
                    Some(nm) => out.extend_from_slice(nm.as_bytes()),
                    None => {
                        return Err(Error::with_detail(
                            ErrorKind::Inval,
                            format!("enum value {n} has no name"),
                        ))
                    }
                }
            }
            Value::Vlen(items) => {
                let base = match typ {
                    NcType::User(t) => match &self.s.user_type(t).kind {
                        UserTypeKind::Vlen { base } => *base,
                        _ => typ,
                    },
                    _ => typ,
                };
                out.push(b'{');
                for (k, it) in items.iter().enumerate() {
                    if k > 0 {
                        out.extend_from_slice(b", ");
                    }
                    self.value_text(base, it, out)?;
                }
                out.push(b'}');
            }
            Value::Compound(fields) => {
                let defs = match typ {
                    NcType::User(t) => match &self.s.user_type(t).kind {
                        UserTypeKind::Compound { fields, .. } => Some(fields),
                        _ => None,
                    },
                    _ => None,
                };
                out.push(b'{');
                for (k, f) in fields.iter().enumerate() {
                    if k > 0 {
                        out.extend_from_slice(b", ");
                    }
                    let fdef = defs.and_then(|d| d.get(k));
                    let ftyp = fdef.map_or(NcType::Int, |d| d.typ);
                    match f {
                        Value::Array(elems) => {
                            out.push(b'{');
                            if ftyp == NcType::Char {
                                let dims = fdef.map(|d| d.dims.clone()).unwrap_or_default();
                                let slen = dims.last().copied().unwrap_or(1).max(1);
                                let bytes: Vec<u8> = elems
                                    .iter()
                                    .map(|e| if let Value::Char(c) = e { *c } else { 0 })
                                    .collect();
                                for (j, chunk) in bytes.chunks(slen).enumerate() {
                                    if j > 0 {
                                        out.extend_from_slice(b", ");
                                    }
                                    names::push_compound_chars(chunk, out);
                                }
                            } else {
                                for (j, e) in elems.iter().enumerate() {
                                    if j > 0 {
                                        out.extend_from_slice(b", ");
                                    }
                                    self.value_text(ftyp, e, out)?;
                                }
                            }
                            out.push(b'}');
                        }
                        Value::Char(c) => names::push_compound_chars(&[*c], out),
                        other => self.value_text(ftyp, other, out)?,
                    }
                }
                out.push(b'}');
            }
            Value::Array(items) => {
                out.push(b'{');
                for (k, it) in items.iter().enumerate() {
                    if k > 0 {
                        out.extend_from_slice(b", ");
                    }
                    self.value_text(typ, it, out)?;
                }
                out.push(b'}');
            }
        }
        Ok(())
    }
}

/// ncdump's float equality for fill detection: same sign, and within machine epsilon of the fill
/// (relative), or both NaN, or both infinite.
fn f32_eq(fill: f32, v: f32) -> bool {
    if (fill > 0.0) != (v > 0.0) {
        return false;
    }
    if fill.is_finite() && v.is_finite() {
        return (fill - v).abs() <= (f32::EPSILON * v).abs();
    }
    (fill.is_nan() && v.is_nan()) || (fill.is_infinite() && v.is_infinite())
}

fn f64_eq(fill: f64, v: f64) -> bool {
    if (fill > 0.0) != (v > 0.0) {
        return false;
    }
    if fill.is_finite() && v.is_finite() {
        return (fill - v).abs() <= (f64::EPSILON * v).abs();
    }
    (fill.is_nan() && v.is_nan()) || (fill.is_infinite() && v.is_infinite())
}

/// ncdump's equality of a value of type `t` with the fill value (`*_val_equals`). For a vlen,
/// `ncvlen_val_equals` steps through both element arrays by the vlen's own in-memory size
/// (16 bytes, `sizeof(nc_vlen_t)`) instead of the base type's: with two or more elements of a
/// base narrower than that it compares bytes past the end of both arrays, which in practice
/// differ, so such values never count as fill; with wider bases it still compares equal arrays
/// as equal (taken here as all elements equal).
fn value_eq(s: &Schema, t: NcType, a: &Value, b: &Value) -> bool {
    let kind = match t {
        NcType::User(id) => s.types.get(id.0).map(|(_, u)| &u.kind),
        _ => None,
    };
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => f32_eq(*x, *y),
        (Value::Double(x), Value::Double(y)) => f64_eq(*x, *y),
        (Value::Vlen(x), Value::Vlen(y)) => {
            let base = match kind {
                Some(UserTypeKind::Vlen { base }) => *base,
                _ => return false,
            };
            x.len() == y.len()
                && (x.len() < 2 || s.type_size(base) >= 16)
                && x.iter().zip(y).all(|(p, q)| value_eq(s, base, p, q))
        }
        (Value::Compound(x), Value::Compound(y)) => {
            let Some(UserTypeKind::Compound { fields, .. }) = kind else {
                return false;
            };
            // `nccomp_val_equals` looks for the array rank of a field in the field type's own
            // table, which atomic types lack: only the first element of an array field counts.
            fn first(v: &Value) -> Option<&Value> {
                match v {
                    Value::Array(items) => items.first(),
                    other => Some(other),
                }
            }
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .zip(fields)
                    .all(|((p, q), f)| match (first(p), first(q)) {
                        (Some(p), Some(q)) => value_eq(s, f.typ, p, q),
                        (None, None) => true,
                        _ => false,
                    })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| value_eq(s, t, p, q))
        }
        (Value::Enum(_), _) | (_, Value::Enum(_)) => enum_value(a) == enum_value(b),
        _ => a == b,
    }
}

fn is_fill<W: Write>(_p: &Printer<'_, W>, fill: &Values, vals: &Values, i: usize) -> bool {
    match (fill, vals) {
        (Values::Float(f), Values::Float(v)) => f32_eq(f[0], v[i]),
        (Values::Double(f), Values::Double(v)) => f64_eq(f[0], v[i]),
        (Values::Byte(f), Values::Byte(v)) => f[0] == v[i],
        (Values::Char(f), Values::Char(v)) => f[0] == v[i],
        (Values::Short(f), Values::Short(v)) => f[0] == v[i],
        (Values::Int(f), Values::Int(v)) => f[0] == v[i],
        (Values::UByte(f), Values::UByte(v)) => f[0] == v[i],
        (Values::UShort(f), Values::UShort(v)) => f[0] == v[i],
        (Values::UInt(f), Values::UInt(v)) => f[0] == v[i],
        (Values::Int64(f), Values::Int64(v)) => f[0] == v[i],
        (Values::UInt64(f), Values::UInt64(v)) => f[0] == v[i],
        (Values::String(f), Values::String(v)) => f[0] == v[i],
        (Values::User(t, f), Values::User(_, v)) => value_eq(_p.s, NcType::User(*t), &f[0], &v[i]),
        _ => false,
    }
}
