//! Attribute lines (ncdump-conventions.md §3, §3a; netcdf-c `ncdump.c` `pr_att`,
//! `pr_att_valgs`, and `nctime0.c` `print_att_times` for the `-t` comments).

use std::io::Write;

use super::names;
use super::number::{push_att_float, push_int, push_uint};
use super::time::TimeUnits;
use super::Printer;
use crate::backend::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Attribute, GroupId, NcType, UserTypeKind, Values, VarId};

impl<W: Write> Printer<'_, W> {
    /// Prints one attribute line of variable `var` (or of group `g` when `None`).
    pub(crate) fn att(&mut self, g: GroupId, var: Option<VarId>, a: &Attribute) -> Result<()> {
        let s = self.s;
        // ncdump looks the attribute up by the name `nc_inq_attname` gave, normalised: that can
        // fail, or find another attribute whose name is that NFC form.
        let a = match crate::model::stored_name_key(&a.name)? {
            None => a,
            Some(nfc) => {
                let found = s.atts(g, var).iter().find(|x| x.name == nfc);
                let Some(found) = found else {
                    return Err(Error::with_detail(
                        ErrorKind::NotAtt,
                        format!("attribute {:?} looked up as {nfc:?}", a.name),
                    ));
                };
                &Attribute {
                    name: a.name.clone(),
                    values: found.values.clone(),
                }
            }
        };
        self.check_type_id(a.values.nc_type())?;
        self.out.indent_out()?;
        self.out.put(b"\t\t")?;
        let typ = a.values.nc_type();
        if matches!(typ, NcType::String | NcType::User(_)) {
            self.type_name(g, typ)?;
            self.out.put(b" ")?;
        }
        let varname = var.map_or(std::borrow::Cow::Borrowed(""), |v| self.var_name(v));
        self.name(&varname)?;
        if Self::is_keyword(&varname) {
            self.out.put(b" ")?;
        }
        self.out.put(b":")?;
        let code = u64::from(typ.code().unwrap_or(0) as u32);
        self.name(&crate::model::record_name(&a.name, code))?;
        self.out.put(b" = ")?;
        if names::raw_name(&a.name).len() >= crate::model::MAX_NAME {
            // ncdump's record now holds the name followed by the type code, which the
            // lookup of the values refuses as too long.
            return Err(Error::with_detail(
                ErrorKind::MaxName,
                format!("attribute name of {} bytes", a.name.len()),
            ));
        }
        if a.values.is_empty() {
            self.out.put(b"\"\" ;")?;
            if self.opts.string_times && a.name == "bounds" {
                if let Some(v) = var {
                    self.bounds.clear();
                    self.bounds.push((Vec::new(), g, v));
                }
            }
            return self.out.put(b"\n");
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let r = self.att_values(g, a, &mut buf);
        self.buf = buf;
        r?;
        if !matches!(typ, NcType::User(_)) && self.opts.string_times {
            {
                if let Some(v) = var {
                    self.att_times(g, v, &a.values)?;
                    if a.name == "bounds" {
                        if let Values::Char(c) = &a.values {
                            let name =
                                c[..c.iter().position(|&b| b == 0).unwrap_or(c.len())].to_vec();
                            self.bounds.clear();
                            self.bounds.push((name, g, v));
                        }
                    }
                }
            }
        }
        self.flush_diag();
        self.out.put(b"\n")
    }

    /// The values and the ` ;` terminator.
    fn att_values(&mut self, g: GroupId, a: &Attribute, buf: &mut Vec<u8>) -> Result<()> {
        let split = self.format != Format::Netcdf4;
        let (fd, dd) = (self.opts.float_digits, self.opts.double_digits);
        macro_rules! list {
            ($v:expr, $x:ident => $body:expr) => {
                for (i, &$x) in $v.iter().enumerate() {
                    if i > 0 {
                        buf.extend_from_slice(b", ");
                    }
                    $body;
                }
            };
        }
        match &a.values {
            Values::Char(c) => names::push_att_string(c, split, buf),
            Values::Byte(v) => list!(v, x => { push_int(i64::from(x), buf); buf.push(b'b') }),
            Values::Short(v) => list!(v, x => { push_int(i64::from(x), buf); buf.push(b's') }),
            Values::Int(v) => list!(v, x => push_int(i64::from(x), buf)),
            Values::Float(v) => list!(v, x => {
                if x.is_finite() {
                    push_att_float(f64::from(x), fd, buf);
                    buf.push(b'f');
                } else {
                    buf.extend_from_slice(special(f64::from(x), true));
                }
            }),
            Values::Double(v) => list!(v, x => {
                if x.is_finite() {
                    push_att_float(x, dd, buf);
                } else {
                    buf.extend_from_slice(special(x, false));
                }
            }),
            Values::UByte(v) => {
                list!(v, x => { push_uint(u64::from(x), buf); buf.extend_from_slice(b"UB") })
            }
            Values::UShort(v) => {
                list!(v, x => { push_uint(u64::from(x), buf); buf.extend_from_slice(b"US") })
            }
            Values::UInt(v) => list!(v, x => { push_uint(u64::from(x), buf); buf.push(b'U') }),
            Values::Int64(v) => list!(v, x => { push_int(x, buf); buf.extend_from_slice(b"LL") }),
            Values::UInt64(v) => {
                list!(v, x => { push_uint(x, buf); buf.extend_from_slice(b"ULL") })
            }
            Values::String(v) => {
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        buf.extend_from_slice(b", ");
                    }
                    match x {
                        Some(t) => {
                            let b = t.as_bytes();
                            let b = &b[..b.iter().position(|&c| c == 0).unwrap_or(b.len())];
                            names::push_att_string(b, split, buf);
                        }
                        None => buf.extend_from_slice(b"NIL"),
                    }
                }
            }
            Values::User(t, vals) => {
                self.out.put(buf)?;
                buf.clear();
                return self.user_att_values(g, *t, vals);
            }
        }
        buf.extend_from_slice(b" ;");
        self.out.put(buf)
    }

    fn user_att_values(
        &mut self,
        _g: GroupId,
        t: crate::model::TypeId,
        vals: &[crate::model::Value],
    ) -> Result<()> {
        let s = self.s;
        let typ = NcType::User(t);
        let mut item = Vec::new();
        match &s.user_type(t).kind {
            UserTypeKind::Enum { members, .. } => {
                for (i, v) in vals.iter().enumerate() {
                    item.clear();
                    let n = enum_value(v);
                    match members.iter().find(|m| m.1 == n) {
                        Some(m) => names::push_escaped_name(&names::raw_name(&m.0), &mut item)?,
                        None => {
                            return Err(crate::Error::with_detail(
                                crate::ErrorKind::Inval,
                                format!("enum value {n} has no name"),
                            ))
                        }
                    }
                    if i + 1 < vals.len() {
                        item.extend_from_slice(b", ");
                    }
                    self.out.put(&item)?;
                }
            }
            UserTypeKind::Opaque { .. } => {
                for (i, v) in vals.iter().enumerate() {
                    item.clear();
                    self.value_text(typ, v, &mut item)?;
                    if i + 1 < vals.len() {
                        item.extend_from_slice(b", ");
                    }
                    self.out.put(&item)?;
                }
            }
            _ => {
                for (i, v) in vals.iter().enumerate() {
                    item.clear();
                    self.value_text(typ, v, &mut item)?;
                    if i + 1 < vals.len() {
                        item.extend_from_slice(b", ");
                    }
                    self.out.lput(&item)?;
                }
            }
        }
        self.out.put(b" ;")
    }

    /// The parsed time units of variable `v` (`get_timeinfo`); a bounds variable borrows its
    /// parent's. `None` when the variable is not a time variable.
    ///
    /// For attribute comments netcdf-c looks the bounds list up with an empty name (its fake
    /// variable is zeroed), so `as_bounds` is false there and only an empty bounds name matches.
    pub(crate) fn time_units(&self, v: VarId, as_bounds: bool) -> Option<TimeUnits> {
        let s = self.s;
        let name: &[u8] = if as_bounds {
            s.var(v).name.as_bytes()
        } else {
            b""
        };
        let owner = self
            .bounds
            .iter()
            .rev()
            .find(|b| b.0 == name)
            .map_or(v, |b| b.2);
        let var = s.var(owner);
        let Values::Char(units) = &var.att("units")?.values else {
            return None;
        };
        let units = &units[..units.iter().position(|&c| c == 0).unwrap_or(units.len())];
        if !super::time::is_valid_time_unit(units) {
            return None;
        }
        let cal = match var.att("calendar").map(|a| &a.values) {
            Some(Values::Char(c)) if !c.is_empty() => super::time::Calendar::from_attribute(c),
            _ => super::time::Calendar::MIXED,
        };
        TimeUnits::parse(cal, units)
    }

    /// `print_att_times`: ` // "date", ...` after a numeric attribute of a time variable.
    fn att_times(&mut self, _g: GroupId, v: VarId, values: &Values) -> Result<()> {
        if matches!(
            values,
            Values::Char(_) | Values::String(_) | Values::User(..)
        ) {
            return Ok(());
        }
        let Some(tu) = self.time_units(v, false) else {
            return Ok(());
        };
        let n = values.len();
        let wrap = n > 2;
        let sep = if self.opts.iso_separator { b'T' } else { b' ' };
        let max = self.out.max_line_len();
        let mut linep: isize = 0;
        for i in 0..n {
            let x = values.get_f64(i).unwrap_or(0.0);
            let mut item = time_text(&tu, x, sep, self.diag.get_mut());
            if i + 1 < n {
                item.push(',');
            }
            let first = i == 0;
            let len1 = item.len() as isize;
            linep += 1 + len1;
            let newline = wrap && (first || linep > max + 2);
            if newline {
                self.out.put(b"\n")?;
                self.out.indent_out()?;
                self.out.put(b"\t\t  ")?;
                linep = 18 + len1;
            } else {
                self.out.put(b" ")?;
            }
            if first || newline {
                self.out.put(b"// ")?;
                linep += 3;
            }
            self.out.put(item.as_bytes())?;
        }
        Ok(())
    }
}

/// A time value as ncdump -t prints it: `"2000-01-01"`, or the NaN/Infinity token.
pub(crate) fn time_text(tu: &TimeUnits, x: f64, sep: u8, diag: &mut Vec<String>) -> String {
    if !x.is_finite() {
        return String::from_utf8_lossy(special(x, false)).into_owned();
    }
    format!("\"{}\"", tu.to_iso(x, sep, diag).unwrap_or_default())
}

/// CDL tokens for non-finite values (`NaNf`, `-Infinityf`, `NaN`, ...).
pub(crate) fn special(x: f64, float: bool) -> &'static [u8] {
    match (x.is_nan(), x < 0.0, float) {
        (true, _, true) => b"NaNf",
        (true, _, false) => b"NaN",
        (false, true, true) => b"-Infinityf",
        (false, false, true) => b"Infinityf",
        (false, true, false) => b"-Infinity",
        (false, false, false) => b"Infinity",
    }
}

/// The integer of an enum value (also accepting a plain integer value).
pub(crate) fn enum_value(v: &crate::model::Value) -> i128 {
    use crate::model::Value as V;
    match v {
        V::Enum(n) => *n,
        V::Byte(x) => i128::from(*x),
        V::UByte(x) => i128::from(*x),
        V::Short(x) => i128::from(*x),
        V::UShort(x) => i128::from(*x),
        V::Int(x) => i128::from(*x),
        V::UInt(x) => i128::from(*x),
        V::Int64(x) => i128::from(*x),
        V::UInt64(x) => i128::from(*x),
        _ => 0,
    }
}
