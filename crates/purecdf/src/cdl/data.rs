//! Expanding a variable's CDL data list into its values (`ncgen-features.md` §5; netcdf-c
//! `ncgen/generate.c`, `genchar.c`, `semantics.c` `processvardata`): the list is flat in row-major
//! order, missing values are the fill value, each instance of a non-first unlimited dimension is
//! a `{...}` sublist, and char variables follow ncgen's padding rules (each string padded with the
//! fill character to a multiple of the last dimension, then the whole to the variable's size).
//!
//! Nothing is expanded until asked for, and a variable larger than [`MAX_EXPAND`] elements is
//! refused, so a hostile dimension size cannot cause a huge allocation.

use super::ast::{CdlDataset, CdlError, Const, ConstKind, ErrorStyle};
use super::constants::{convert_any, default_fill, pack};
use crate::model::{NcType, Value, Values, VarId};

/// Largest number of elements [`CdlDataset::var_values`] expands.
pub const MAX_EXPAND: u64 = 1 << 26;

/// Flattens nested lists.
fn flatten<'c>(data: &'c [Const], out: &mut Vec<&'c Const>, depth: usize) {
    for c in data {
        match &c.kind {
            ConstKind::List(l) if depth < 256 => flatten(l, out, depth + 1),
            ConstKind::List(_) => {}
            _ => out.push(c),
        }
    }
}

/// `rebuildsingletons`: runs of single-character constants become one string (and, as in
/// netcdf-c, the constant that ends a run is dropped).
fn rebuild_singletons(data: &[Const]) -> Vec<Const> {
    let singles = data
        .iter()
        .filter(|c| matches!(c.kind, ConstKind::Byte(_)))
        .count();
    let mut rebuilt: Vec<Const> = Vec::with_capacity(data.len());
    if singles > 1 {
        let mut run: Option<(Vec<u8>, u32)> = None;
        for c in data {
            if let ConstKind::Byte(b) = c.kind {
                run.get_or_insert_with(|| (Vec::new(), c.line))
                    .0
                    .push(b as u8);
            } else if let Some((s, line)) = run.take() {
                // netcdf-c replaces the constant that ends a run with the run itself, so that
                // constant is lost (genchar.c rebuildsingletons).
                rebuilt.push(Const {
                    kind: ConstKind::Str(s),
                    line,
                });
            } else {
                rebuilt.push(c.clone());
            }
        }
        if let Some((s, line)) = run.take() {
            rebuilt.push(Const {
                kind: ConstKind::Str(s),
                line,
            });
        }
    } else {
        rebuilt.extend_from_slice(data);
    }
    rebuilt
}

/// The character buffer ncgen builds for char data over `dims` (`gen_leafchararray`, the
/// netCDF-3 case). The result may be longer than the variable (ncgen warns) or shorter (only
/// when empty).
///
/// At most `limit` bytes are produced (callers use only the variable's size), so a huge
/// dimension cannot make a huge padding.
pub(crate) fn char_buffer(
    data: &[Const],
    dims: &[u64],
    fillchar: u8,
    last_unlimited: bool,
    limit: usize,
) -> Vec<u8> {
    let rank = dims.len();
    let rebuilt = rebuild_singletons(data);
    let xproduct: u64 = dims[..rank.saturating_sub(1)]
        .iter()
        .fold(1u64, |a, d| a.saturating_mul(*d));
    let last = dims.last().copied().unwrap_or(1);
    let (unit, expected) = if rank <= 1 || last_unlimited {
        (1, xproduct.saturating_mul(last))
    } else {
        (last, xproduct.saturating_mul(last))
    };
    let mut flat = Vec::new();
    flatten(&rebuilt, &mut flat, 0);
    let mut buf: Vec<u8> = Vec::new();
    let cap = usize::try_from(expected.saturating_add(unit))
        .unwrap_or(usize::MAX)
        .min(limit);
    let pad_to = |buf: &mut Vec<u8>, pad: u64| {
        let room = cap.saturating_sub(buf.len());
        let n = usize::try_from(pad).unwrap_or(usize::MAX).min(room);
        buf.extend(std::iter::repeat_n(fillchar, n));
    };
    for c in flat {
        let size = match &c.kind {
            ConstKind::Str(s) => {
                buf.extend_from_slice(s);
                s.len() as u64
            }
            ConstKind::Byte(b) => {
                buf.push(*b as u8);
                1
            }
            ConstKind::UByte(b) => {
                buf.push(*b);
                1
            }
            // `_` adds no character but counts as one, so it pads to the end of the row
            // (netcdf-c 4.9 behaviour, checked against its ncgen).
            ConstKind::Fill => 1,
            _ => continue, // ncgen warns and ignores it
        };
        if size == 0 || size % unit > 0 {
            pad_to(&mut buf, unit - size % unit);
        }
        if buf.len() >= cap {
            buf.truncate(cap);
            return buf;
        }
    }
    let len = buf.len() as u64;
    if !(len == 0 && expected == 1)
        && len <= expected
        && expected > 0
        && !len.is_multiple_of(expected)
    {
        pad_to(&mut buf, expected - len % expected);
    }
    buf
}

impl CdlDataset {
    fn data_err(&self, line: u32, msg: impl Into<String>) -> CdlError {
        CdlError {
            message: msg.into(),
            style: ErrorStyle::Located(line),
            file: String::new(),
            kind: crate::ErrorKind::Inval,
            exit_code: 1,
            preamble: String::new(),
        }
    }

    /// The fill value used for `_` in a variable's data: its `_FillValue` or the type default.
    pub fn fill_value(&self, v: VarId) -> Value {
        let var = self.schema.var(v);
        if value_weight(&self.schema, var.typ) > MAX_EXPAND {
            // Too big to build (nested arrays); callers refuse such variables anyway.
            return Value::Compound(Vec::new());
        }
        if let Some(a) = var.att("_FillValue") {
            if let Some(x) = first_value(&a.values) {
                return x;
            }
        }
        default_fill(&self.schema, var.typ)
    }

    /// The warnings ncgen prints while generating a char variable's data
    /// (`Encountered non-string and non-char constant in datalist; ignored`), one line each.
    pub fn data_warnings(&self, v: VarId, file: &str) -> String {
        let var = self.schema.var(v);
        let mut out = String::new();
        let Some(data) = self.var_data(v) else {
            return out;
        };
        if var.typ != NcType::Char || var.dims.is_empty() {
            return out;
        }
        let rebuilt = rebuild_singletons(data);
        let mut flat = Vec::new();
        flatten(&rebuilt, &mut flat, 0);
        for c in flat {
            if !matches!(
                c.kind,
                ConstKind::Str(_) | ConstKind::Byte(_) | ConstKind::UByte(_) | ConstKind::Fill
            ) {
                out.push_str(&format!(
                    "ncgen: {file} line {}: Encountered non-string and non-char constant in \
                     datalist; ignored\n",
                    c.line
                ));
            }
        }
        out
    }

    /// The current shape of a variable (unlimited dimensions sized from the data).
    pub fn shape(&self, v: VarId) -> Vec<u64> {
        self.schema.shape(v)
    }

    /// All values of a variable in its own type, missing ones filled; `None` when the CDL gives
    /// no data for it.
    ///
    /// # Errors
    /// ncgen's message for data that does not fit the type (`Expected primitive found {..}`,
    /// ...), or NC_ENOMEM when the variable has more than [`MAX_EXPAND`] elements.
    pub fn var_values(&self, v: VarId) -> Result<Option<Values>, CdlError> {
        self.var_values_filled(v, self.fill_value(v))
    }

    /// [`CdlDataset::var_values`] with `fill` for the missing values.
    pub(crate) fn var_values_filled(
        &self,
        v: VarId,
        fill: Value,
    ) -> Result<Option<Values>, CdlError> {
        let Some(data) = self.var_data(v) else {
            return Ok(None);
        };
        let var = self.schema.var(v);
        let shape = self.shape(v);
        // Each element of a compound type holds many values: bound the whole tree.
        let weight = value_weight(&self.schema, var.typ);
        let total = shape
            .iter()
            .try_fold(1u64, |a, d| a.checked_mul(*d))
            .filter(|t| t.saturating_mul(weight) <= MAX_EXPAND);
        let total = match total {
            Some(t) if t <= MAX_EXPAND => t as usize,
            _ => {
                return Err(CdlError {
                    kind: crate::ErrorKind::NoMem,
                    ..self.data_err(0, format!("{}: too much data to expand", var.name))
                })
            }
        };
        if total == 0 {
            return Ok(Some(pack(var.typ, Vec::new())));
        }
        if var.typ == NcType::Char && !shape.is_empty() {
            let fc = self.specials.get(v.0).map_or(0, |s| s.fill_char);
            let last_unlim = var
                .dims
                .last()
                .is_some_and(|d| self.schema.dim(*d).unlimited)
                && var.dims.len() > 1;
            let mut buf = char_buffer(data, &shape, fc, last_unlim, total);
            buf.resize(total, fc);
            return Ok(Some(Values::Char(buf)));
        }
        let mut out = Values::with_capacity(var.typ, total);
        let mut emit = |e: Option<&Const>| -> Result<(), CdlError> {
            let val = match e {
                None => fill.clone(),
                Some(c) => convert_any(&self.schema, &c.kind, var.typ, Some(&fill), 0)
                    .map_err(|m| self.data_err(c.line, m))?,
            };
            push_value(&mut out, val);
            Ok(())
        };
        if shape.is_empty() {
            emit(data.first())?;
        } else {
            let unlim: Vec<bool> = var
                .dims
                .iter()
                .map(|d| self.schema.dim(*d).unlimited)
                .collect();
            self.walk(0, data, &shape, &unlim, &mut emit)?;
        }
        Ok(Some(out))
    }

    /// Visits, in row-major order, the elements of the block of dimensions `level..` that
    /// `data` gives (`None` for a missing one).
    fn walk<'c>(
        &self,
        level: usize,
        data: &'c [Const],
        shape: &[u64],
        unlim: &[bool],
        emit: &mut dyn FnMut(Option<&'c Const>) -> Result<(), CdlError>,
    ) -> Result<(), CdlError> {
        let rank = shape.len();
        let next = (level + 1..rank).find(|i| unlim[*i]).unwrap_or(rank);
        let count: u64 = shape[level..next]
            .iter()
            .fold(1u64, |a, d| a.saturating_mul(*d));
        if next == rank {
            for i in 0..count as usize {
                emit(data.get(i))?;
            }
            return Ok(());
        }
        let sub: u64 = shape[next..].iter().fold(1u64, |a, d| a.saturating_mul(*d));
        for i in 0..count as usize {
            match data.get(i) {
                Some(Const {
                    kind: ConstKind::List(l),
                    ..
                }) => self.walk(next, l, shape, unlim, emit)?,
                Some(c) => {
                    return Err(self.data_err(
                        c.line,
                        "UNLIMITED dimension (other than first) must be enclosed in {}",
                    ))
                }
                None => {
                    for _ in 0..sub {
                        emit(None)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// How many scalar values one element of `t` holds (compound arrays multiplied out), saturating.
/// Types only refer to types defined before them, so one pass in arena order suffices.
pub(crate) fn value_weight(s: &crate::model::Schema, t: NcType) -> u64 {
    let NcType::User(id) = t else {
        return 1;
    };
    let mut w: Vec<u64> = Vec::with_capacity(id.0 + 1);
    for (_, ut) in s.types.iter().take(id.0 + 1) {
        let x = match &ut.kind {
            crate::model::UserTypeKind::Compound { fields, .. } => {
                fields.iter().fold(0u64, |acc, f| {
                    let one = match f.typ {
                        NcType::User(fid) => w.get(fid.0).copied().unwrap_or(1),
                        _ => 1,
                    };
                    let n = f.dims.iter().fold(1u64, |a, d| a.saturating_mul(*d as u64));
                    acc.saturating_add(one.saturating_mul(n))
                })
            }
            _ => 1,
        };
        w.push(x.max(1));
    }
    w.get(id.0).copied().unwrap_or(1)
}

/// Appends one value (of the vector's own type) to a typed vector.
fn push_value(out: &mut Values, v: Value) {
    match (out, v) {
        (Values::Byte(x), Value::Byte(b)) => x.push(b),
        (Values::Char(x), Value::Char(b)) => x.push(b),
        (Values::Short(x), Value::Short(b)) => x.push(b),
        (Values::Int(x), Value::Int(b)) => x.push(b),
        (Values::Float(x), Value::Float(b)) => x.push(b),
        (Values::Double(x), Value::Double(b)) => x.push(b),
        (Values::UByte(x), Value::UByte(b)) => x.push(b),
        (Values::UShort(x), Value::UShort(b)) => x.push(b),
        (Values::UInt(x), Value::UInt(b)) => x.push(b),
        (Values::Int64(x), Value::Int64(b)) => x.push(b),
        (Values::UInt64(x), Value::UInt64(b)) => x.push(b),
        (Values::String(x), Value::String(b)) => x.push(b),
        (Values::User(_, x), v) => x.push(v),
        _ => {}
    }
}

fn first_value(v: &Values) -> Option<Value> {
    v.value(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Const {
        Const {
            kind: ConstKind::Str(x.as_bytes().to_vec()),
            line: 1,
        }
    }

    #[test]
    fn char_padding() {
        // char var(4,5) = "1","two","three" -> rows "1","two","three",""
        let b = char_buffer(&[s("1"), s("two"), s("three")], &[4, 5], 0, false, 20);
        assert_eq!(b, b"1\0\0\0\0two\0\0three\0\0\0\0\0".to_vec());
        // 1-D: concatenation, then padded to the length.
        let b = char_buffer(&[s("ab"), s("cd")], &[6], 0, false, 6);
        assert_eq!(b, b"abcd\0\0".to_vec());
        // An empty string still takes one unit.
        let b = char_buffer(&[s("")], &[3], 0, false, 3);
        assert_eq!(b, b"\0\0\0".to_vec());
        // Single characters are merged into one string before padding.
        let ch = |c: u8| Const {
            kind: ConstKind::Byte(c as i8),
            line: 1,
        };
        let b = char_buffer(&[ch(b'a'), ch(b'b')], &[2, 3], 0, false, 6);
        assert_eq!(b, b"ab\0\0\0\0".to_vec());
    }
}
