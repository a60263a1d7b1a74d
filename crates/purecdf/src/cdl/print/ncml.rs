//! `ncdump -x`: NcML output for classic-model datasets (ncdump-conventions.md §9; netcdf-c
//! `ncdump/ncdump.c` `do_ncdumpx`, `pr_attx`, `pr_att_valsx`, `pr_shape`). Names are written
//! without XML escaping, as netcdf-c does; values carry no data section.

use std::io::Write;

use super::names;
use super::number::{fmt_g, tztrim};
use super::select;
use super::DumpOptions;
use crate::error::{Error, Result};
use crate::file::File;
use crate::model::{Attribute, Values, ROOT};

/// Writes the NcML form of `file` to `w`; `location` is the path as given on the command line.
/// Returns the warnings ncdump prints on standard error (a text attribute holding NUL bytes
/// gives `Attribute: '<name>'; value contains nul characters; producing illegal xml`).
///
/// # Errors
/// Write errors from `w`.
pub fn write_ncml<W: Write>(
    file: &File,
    opts: &DumpOptions,
    location: &str,
    mut w: W,
) -> Result<Vec<String>> {
    let mut warnings = Vec::new();
    let r = ncml(file, opts, location, &mut w, &mut warnings);
    let f = w.flush().map_err(Error::io);
    r.and(f).map(|()| warnings)
}

fn ncml<W: Write>(
    file: &File,
    opts: &DumpOptions,
    location: &str,
    w: &mut W,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let s = file.schema();
    let mut o: Vec<u8> = Vec::with_capacity(4096);
    o.extend_from_slice(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<netcdf xmlns=\"https://www.unidata.ucar.edu/namespaces/netcdf/ncml-2.2\" location=\"");
    o.extend_from_slice(location.as_bytes());
    o.extend_from_slice(b"\">\n");
    let root = s.group(ROOT);
    for &d in &root.dims {
        let dim = s.dim(d);
        // netcdf-c prints the length with %d of an int.
        let len = dim.len as i32;
        if dim.unlimited {
            o.extend_from_slice(
                format!(
                    "  <dimension name=\"{}\" length=\"{len}\" isUnlimited=\"true\" />\n",
                    dim.name
                )
                .as_bytes(),
            );
        } else {
            o.extend_from_slice(
                format!("  <dimension name=\"{}\" length=\"{len}\" />\n", dim.name).as_bytes(),
            );
        }
    }
    let hidden = !file.format().is_classic_family();
    for a in &root.atts {
        // netCDF-4's hidden attributes are not in netcdf-c's attribute count, so never shown;
        // a real `_NCProperties` of a classic file only with -s (and not -Xp).
        if hidden
            && matches!(
                a.name.as_str(),
                "_NCProperties" | "_SuperblockVersion" | "_IsNetcdf4"
            )
        {
            continue;
        }
        if a.name == "_NCProperties" && (!opts.special_atts || opts.suppress_properties) {
            continue;
        }
        attx(a, false, opts, &mut o, warnings);
    }
    for &v in &root.vars {
        let var = s.var(v);
        o.extend_from_slice(format!("  <variable name=\"{}\"", var.name).as_bytes());
        if !var.dims.is_empty() {
            let shape: Vec<&str> = var.dims.iter().map(|d| s.dim(*d).name.as_str()).collect();
            o.extend_from_slice(format!(" shape=\"{}\"", shape.join(" ")).as_bytes());
        }
        let tname = s.type_name(var.typ).to_string();
        if var.atts.is_empty() {
            let unlisted = !opts.vars.is_empty()
                && !opts
                    .vars
                    .iter()
                    .any(|n| select::gvarid(s, ROOT, n) == Some(v));
            let not_coord = opts.coord_vals && !select::is_coord_var(s, ROOT, v);
            let empty_rec = s.is_record_var(v) && s.shape(v).first() == Some(&0);
            if opts.header_only || unlisted || not_coord || empty_rec {
                o.extend_from_slice(format!(" type=\"{tname}\" />\n").as_bytes());
                continue;
            }
        }
        o.extend_from_slice(format!(" type=\"{tname}\">\n").as_bytes());
        for a in &var.atts {
            attx(a, true, opts, &mut o, warnings);
        }
        o.extend_from_slice(b"  </variable>\n");
        if o.len() > 1 << 16 {
            w.write_all(&o).map_err(Error::io)?;
            o.clear();
        }
    }
    o.extend_from_slice(b"</netcdf>\n");
    w.write_all(&o).map_err(Error::io)
}

fn attx(
    a: &Attribute,
    in_var: bool,
    opts: &DumpOptions,
    o: &mut Vec<u8>,
    warnings: &mut Vec<String>,
) {
    let lead: &[u8] = if in_var { b"    " } else { b"  " };
    o.extend_from_slice(lead);
    if let Values::Char(c) = &a.values {
        if names::trim_nuls(c).contains(&0) {
            warnings.push(format!(
                "Attribute: '{}'; value contains nul characters; producing illegal xml",
                a.name
            ));
        }
        o.extend_from_slice(format!("<attribute name=\"{}\" value=", a.name).as_bytes());
        names::push_xml_string(c, o);
        o.extend_from_slice(b" />\n");
        return;
    }
    let tname = a.values.nc_type().cdl_name().unwrap_or("?");
    o.extend_from_slice(
        format!("<attribute name=\"{}\" type=\"{tname}\" value=\"", a.name).as_bytes(),
    );
    let n = a.values.len();
    for i in 0..n {
        // netcdf-c reads the values as doubles first.
        let d = a.values.get_f64(i).unwrap_or(0.0);
        match &a.values {
            Values::Byte(_) | Values::Short(_) | Values::Int(_) => {
                o.extend_from_slice(x86_i32(d).to_string().as_bytes())
            }
            Values::UByte(_) | Values::UShort(_) | Values::UInt(_) => {
                o.extend_from_slice((x86_i64(d) as u32).to_string().as_bytes())
            }
            Values::Int64(_) => o.extend_from_slice(x86_i64(d).to_string().as_bytes()),
            Values::UInt64(_) => o.extend_from_slice(x86_u64(d).to_string().as_bytes()),
            Values::Float(_) => push_attx_float(f64::from(d as f32), opts.float_digits, o),
            _ => push_attx_float(d, opts.double_digits, o),
        }
        if i + 1 < n {
            o.push(b' ');
        }
    }
    o.extend_from_slice(b"\" />\n");
}

fn push_attx_float(v: f64, digits: usize, o: &mut Vec<u8>) {
    if v.is_nan() {
        o.extend_from_slice(if v.is_sign_negative() {
            b"-nan"
        } else {
            b"nan"
        });
        return;
    }
    if v.is_infinite() {
        o.extend_from_slice(if v < 0.0 { b"-inf" } else { b"inf" });
        return;
    }
    let mut t = Vec::new();
    if v.is_sign_negative() {
        t.push(b'-');
    }
    fmt_g(v.abs(), digits, true, false, &mut t);
    tztrim(&mut t);
    o.extend_from_slice(&t);
}

// netcdf-c converts the doubles back with C casts; out-of-range values give what x86-64's
// conversion instructions give (the "integer indefinite" value), which these reproduce.

/// 2^63 as a double.
const TWO63: f64 = 9_223_372_036_854_775_808.0;

fn x86_i32(d: f64) -> i32 {
    if d > -2147483649.0 && d < 2147483648.0 {
        d as i32
    } else {
        i32::MIN
    }
}

fn x86_i64(d: f64) -> i64 {
    if (-TWO63..TWO63).contains(&d) {
        d as i64
    } else {
        i64::MIN
    }
}

fn x86_u64(d: f64) -> u64 {
    if d < TWO63 {
        x86_i64(d) as u64
    } else {
        (x86_i64(d - TWO63) as u64) ^ (1 << 63)
    }
}
