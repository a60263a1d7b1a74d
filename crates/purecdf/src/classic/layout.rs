//! Where each variable's data lives: `vsize`, `begin`, the record size and the checks on them, per
//! the file format spec, "Note on vsize", "Note on padding" and "Notes on Computing File Offsets",
//! computed exactly as netcdf-c's `NC_var_shape`, `NC_computeshapes`, `NC_begins`,
//! `NC_check_vlens`, `NC_check_voffs` and `NC_calcsize` do (libsrc/var.c, v1hpg.c, nc3internal.c).

use crate::backend::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Schema, VarId};

use super::header::ext_size;

/// The file offsets of a classic dataset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Header size in bytes (netcdf-c's `xsz`).
    pub xsz: u64,
    /// Start of the fixed-size data.
    pub begin_var: u64,
    /// Start of the record data.
    pub begin_rec: u64,
    /// Bytes per record (all record variables; unpadded when there is only one).
    pub recsize: u64,
    /// `begin` of each variable.
    pub begins: Vec<u64>,
}

/// Elements in a variable (per record for a record variable), saturating at `i64::MAX`.
pub(crate) fn var_product(s: &Schema, v: VarId) -> u64 {
    let rec = s.is_record_var(v);
    let mut p: u64 = 1;
    for (i, d) in s.var(v).dims.iter().enumerate() {
        if i == 0 && rec {
            continue;
        }
        let len = s.dim(*d).len.max(1);
        p = match p.checked_mul(len) {
            Some(x) if x <= i64::MAX as u64 => x,
            _ => i64::MAX as u64,
        };
    }
    p
}

/// netcdf-c's `len` (the `vsize` value): product times type size, rounded up to 4, saturating.
pub(crate) fn var_len(s: &Schema, v: VarId) -> u64 {
    let xsz = ext_size(s.var(v).typ).unwrap_or(1) as u64;
    var_product(s, v)
        .checked_mul(xsz)
        .and_then(super::header::rnd4)
        .unwrap_or(!3)
}

/// The vsize of every variable, in order.
pub(crate) fn var_lens(s: &Schema) -> Vec<u64> {
    (0..s.vars.len()).map(|i| var_len(s, VarId(i))).collect()
}

/// The record size: the sum of the record variables' `vsize`, or the unpadded size when there is
/// exactly one record variable.
pub(crate) fn recsize(s: &Schema) -> u64 {
    let mut total: u64 = 0;
    let mut nrec = 0;
    let mut last = None;
    for i in 0..s.vars.len() {
        let v = VarId(i);
        if s.is_record_var(v) {
            total = total.saturating_add(var_len(s, v));
            nrec += 1;
            last = Some(v);
        }
    }
    match (nrec, last) {
        (1, Some(v)) => {
            let xsz = ext_size(s.var(v).typ).unwrap_or(1) as u64;
            var_product(s, v).saturating_mul(xsz)
        }
        _ => total,
    }
}

fn corrupt(detail: String) -> Error {
    Error::with_detail(ErrorKind::NotNc, detail)
}

/// netcdf-c's `NC_computeshapes` for a header just read: derives `begin_var`, `begin_rec` and the
/// record size from the stored begins (call [`check_vlens`] and [`check_voffs`] next, as
/// `nc_get_NC` does).
pub(crate) fn from_header(s: &Schema, xsz: u64, begins: Vec<u64>) -> Result<Layout> {
    let mut l = Layout {
        xsz,
        begin_var: xsz,
        begin_rec: xsz,
        recsize: 0,
        begins,
    };
    if s.vars.is_empty() {
        return Ok(l);
    }
    let mut first_var = None;
    let mut first_rec = None;
    for i in 0..s.vars.len() {
        let v = VarId(i);
        if s.is_record_var(v) {
            first_rec.get_or_insert(i);
        } else {
            first_var.get_or_insert(i);
            l.begin_rec = l.begins[i].saturating_add(var_len(s, v));
        }
    }
    l.recsize = recsize(s);
    if let Some(r) = first_rec {
        if l.begin_rec > l.begins[r] {
            return Err(corrupt(format!(
                "record data at {} overlaps fixed-size data ending at {}",
                l.begins[r], l.begin_rec
            )));
        }
        l.begin_rec = l.begins[r];
    }
    l.begin_var = match first_var {
        Some(f) => l.begins[f],
        None => l.begin_rec,
    };
    if l.begin_var == 0 || xsz > l.begin_var || l.begin_rec == 0 || l.begin_var > l.begin_rec {
        return Err(corrupt(format!(
            "data begins at {} inside the {}-byte header",
            l.begin_var, xsz
        )));
    }
    Ok(l)
}

/// netcdf-c's `NC_check_voffs`: begins increase in definition order within each section.
pub(crate) fn check_voffs(s: &Schema, l: &Layout) -> Result<()> {
    if s.vars.is_empty() {
        return Ok(());
    }
    let mut prev = l.begin_var;
    for rec in [false, true] {
        if rec {
            if l.begin_rec < prev {
                return Err(corrupt(format!(
                    "record data at {} overlaps fixed-size data ending at {prev}",
                    l.begin_rec
                )));
            }
            prev = l.begin_rec;
        }
        for i in 0..s.vars.len() {
            let v = VarId(i);
            if s.is_record_var(v) != rec {
                continue;
            }
            if l.begins[i] < prev {
                return Err(corrupt(format!(
                    "variable {} begins at {} before the previous one ends at {prev}",
                    s.var(v).name,
                    l.begins[i]
                )));
            }
            prev = l.begins[i].saturating_add(var_len(s, v));
        }
    }
    Ok(())
}

/// netcdf-c's `NC_check_vlen`: the variable's size (per record) is at most `max` bytes.
fn vlen_ok(s: &Schema, v: VarId, max: u64) -> bool {
    let var = s.var(v);
    let mut prod = ext_size(var.typ).unwrap_or(1) as u64;
    let rec = s.is_record_var(v);
    for (i, d) in var.dims.iter().enumerate() {
        if i == 0 && rec {
            continue;
        }
        let len = s.dim(*d).len;
        if len > max / prod {
            return false;
        }
        prod *= len;
    }
    true
}

/// netcdf-c's `NC_check_vlens`: NC_EVARSIZE when a variable is too large for the format (CDF-1 and
/// CDF-2 allow one over-size variable, the last fixed one when there are no record variables, or
/// the last record variable).
pub(crate) fn check_vlens(format: Format, s: &Schema) -> Result<()> {
    if s.vars.is_empty() {
        return Ok(());
    }
    let max: u64 = match format {
        Format::Cdf5 => i64::MAX as u64 - 3,
        Format::Offset64 => u32::MAX as u64 - 3,
        _ => i32::MAX as u64 - 3,
    };
    let err = |v: VarId| {
        Err(Error::with_detail(
            ErrorKind::VarSize,
            format!("variable {} is too large for this format", s.var(v).name),
        ))
    };
    let mut nrec = 0;
    for rec in [false, true] {
        let mut large = 0;
        let mut last = false;
        let mut culprit = None;
        for i in 0..s.vars.len() {
            let v = VarId(i);
            if s.is_record_var(v) != rec {
                if !rec {
                    nrec += 1;
                }
                continue;
            }
            last = false;
            if !vlen_ok(s, v, max) {
                if format == Format::Cdf5 {
                    return err(v);
                }
                large += 1;
                last = true;
                culprit = Some(v);
            }
        }
        if let Some(v) = culprit {
            if large > 1 || !last {
                return err(v);
            }
            if !rec && nrec > 0 {
                return err(v);
            }
        }
        if nrec == 0 {
            break;
        }
    }
    Ok(())
}

/// The current `begin_var`/`begin_rec` and the previous layout when re-entering define mode.
pub(crate) struct Prior<'a> {
    /// The layout before `redef` (begins of the variables that existed then).
    pub layout: &'a Layout,
    /// Which of the old variables were record variables.
    pub was_rec: &'a [bool],
}

/// netcdf-c's `NC_begins` with `nc_enddef`'s defaults (h_minfree 0, v_align 1, v_minfree 0,
/// r_align 1): lays out the variables after a header of `xsz` bytes. `cur` is the layout in
/// force (zero for a new file); `old` the layout at `redef`.
pub(crate) fn begins(
    format: Format,
    s: &Schema,
    xsz: u64,
    cur: &Layout,
    old: Option<&Prior<'_>>,
) -> Result<Layout> {
    let small = format == Format::Classic;
    let mut l = Layout {
        xsz,
        begin_var: cur.begin_var,
        begin_rec: cur.begin_rec,
        recsize: cur.recsize,
        begins: vec![0; s.vars.len()],
    };
    if s.vars.is_empty() {
        return Ok(l);
    }
    let too_big = || {
        Err(Error::with_detail(
            ErrorKind::VarSize,
            "data offsets exceed the 2 GiB limit of CDF-1",
        ))
    };
    if l.begin_var < xsz {
        l.begin_var = xsz;
    }
    if let Some(o) = old {
        l.begin_var = l.begin_var.max(o.layout.begin_var);
    }
    let mut index = l.begin_var;
    let mut first_var = None;
    let mut j = 0;
    for i in 0..s.vars.len() {
        let v = VarId(i);
        if s.is_record_var(v) {
            continue;
        }
        first_var.get_or_insert(i);
        if small && index > i32::MAX as u64 {
            return too_big();
        }
        l.begins[i] = index;
        if let Some(o) = old {
            while j < o.was_rec.len() && o.was_rec[j] {
                j += 1;
            }
            if j < o.was_rec.len() {
                if l.begins[i] < o.layout.begins[j] {
                    l.begins[i] = o.layout.begins[j];
                    index = l.begins[i];
                }
                j += 1;
            }
        }
        index = index.saturating_add(var_len(s, v));
    }
    if let Some(o) = old {
        l.begin_rec = l.begin_rec.max(o.layout.begin_rec);
    }
    if l.begin_rec < index {
        l.begin_rec = index;
    }
    l.begin_var = match first_var {
        Some(f) => l.begins[f],
        None => l.begin_rec,
    };
    let mut index = l.begin_rec;
    let mut j = 0;
    for i in 0..s.vars.len() {
        let v = VarId(i);
        if !s.is_record_var(v) {
            continue;
        }
        if small && index > i32::MAX as u64 {
            return too_big();
        }
        l.begins[i] = index;
        if let Some(o) = old {
            while j < o.was_rec.len() && !o.was_rec[j] {
                j += 1;
            }
            if j < o.was_rec.len() {
                if l.begins[i] < o.layout.begins[j] {
                    l.begins[i] = o.layout.begins[j];
                }
                j += 1;
            }
        }
        index = index.saturating_add(var_len(s, v));
    }
    l.recsize = recsize(s);
    Ok(l)
}

/// netcdf-c's `NC_calcsize`: the length the file should have.
pub(crate) fn calcsize(s: &Schema, l: &Layout, numrecs: u64) -> u64 {
    if s.vars.is_empty() {
        return l.xsz;
    }
    let any_rec = (0..s.vars.len()).any(|i| s.is_record_var(VarId(i)));
    if any_rec {
        return l
            .begin_rec
            .saturating_add(numrecs.saturating_mul(l.recsize));
    }
    let last = (0..s.vars.len())
        .rev()
        .find(|i| !s.is_record_var(VarId(*i)));
    match last {
        Some(i) => l.begins[i].saturating_add(var_len(s, VarId(i))),
        None => l.xsz,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{NcType, ROOT};

    fn schema(dims: &[(u64, bool)], vars: &[(NcType, &[usize])]) -> Schema {
        let mut s = Schema::default();
        for (i, (len, unl)) in dims.iter().enumerate() {
            s.add_dim(ROOT, &format!("d{i}"), *len, *unl).unwrap();
        }
        for (i, (t, d)) in vars.iter().enumerate() {
            let ids: Vec<_> = d.iter().map(|k| crate::DimId(*k)).collect();
            s.add_var(ROOT, &format!("v{i}"), *t, &ids).unwrap();
        }
        s
    }

    #[test]
    fn vsize_and_recsize() {
        // short(3): 6 bytes padded to 8; a lone byte record variable of 3 is not padded.
        let s = schema(
            &[(0, true), (3, false)],
            &[(NcType::Short, &[1]), (NcType::Byte, &[0, 1])],
        );
        assert_eq!(var_len(&s, VarId(0)), 8);
        assert_eq!(var_len(&s, VarId(1)), 4);
        assert_eq!(recsize(&s), 3);
        let s = schema(
            &[(0, true), (3, false)],
            &[(NcType::Byte, &[0, 1]), (NcType::Short, &[0])],
        );
        assert_eq!(recsize(&s), 8);
    }

    #[test]
    fn size_limits_per_format() {
        // Two variables over 2 GiB: too large for CDF-1, fine for CDF-2 (under 4 GiB each, last
        // one may be larger), both fine for CDF-5.
        let big = schema(
            &[(600_000_000, false)],
            &[(NcType::Float, &[0]), (NcType::Float, &[0])],
        );
        assert_eq!(
            check_vlens(Format::Classic, &big).unwrap_err().kind(),
            ErrorKind::VarSize
        );
        check_vlens(Format::Offset64, &big).unwrap();
        check_vlens(Format::Cdf5, &big).unwrap();
        // One over-size variable is allowed if it is the last fixed one and there are no records.
        let last = schema(
            &[(3, false), (1_200_000_000, false)],
            &[(NcType::Int, &[0]), (NcType::Float, &[1])],
        );
        check_vlens(Format::Offset64, &last).unwrap();
        let first = schema(
            &[(3, false), (1_200_000_000, false)],
            &[(NcType::Float, &[1]), (NcType::Int, &[0])],
        );
        assert_eq!(
            check_vlens(Format::Offset64, &first).unwrap_err().kind(),
            ErrorKind::VarSize
        );
        let with_rec = schema(
            &[(0, true), (1_200_000_000, false)],
            &[(NcType::Int, &[0]), (NcType::Float, &[1])],
        );
        assert_eq!(
            check_vlens(Format::Offset64, &with_rec).unwrap_err().kind(),
            ErrorKind::VarSize
        );
        // CDF-1 offsets must stay under 2 GiB.
        let far = schema(
            &[(1_000_000_000, false), (2, false)],
            &[
                (NcType::Short, &[0]),
                (NcType::Short, &[0]),
                (NcType::Int, &[1]),
            ],
        );
        let l = begins(Format::Classic, &far, 100, &Layout::default(), None);
        assert_eq!(l.unwrap_err().kind(), ErrorKind::VarSize);
        let l = begins(Format::Offset64, &far, 100, &Layout::default(), None).unwrap();
        assert_eq!(l.begins, vec![100, 2_000_000_100, 4_000_000_100]);
    }
}
