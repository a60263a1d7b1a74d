//! Define mode and the life cycle of a writable classic file: `def_dim`, `def_var`, attributes,
//! renames, `enddef` (laying out the data, moving it when the header grew, filling new
//! variables), `sync` and `close`, with the checks and error kinds of netcdf-c 4.9 (libsrc/dim.c,
//! var.c, attr.m4, nc3internal.c). The format constraints are those of the file format spec, "The
//! NetCDF Classic Format Specification" (one unlimited dimension, first in a variable's shape;
//! six types in CDF-1/CDF-2, eleven in CDF-5; the size limits of "Note on vsize").

use unicode_normalization::UnicodeNormalization;

use crate::backend::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{normalize_name, Attribute, DimId, GroupId, NcType, Values, VarId, ROOT};
use crate::selection::Hyperslab;

use super::header::{self, NameKey};
use super::layout::{self, Prior};
use super::{ClassicFile, OldState};

fn fail<T>(kind: ErrorKind, detail: impl Into<String>) -> Result<T> {
    Err(Error::with_detail(kind, detail))
}

fn need_define(f: &ClassicFile, what: &str) -> Result<()> {
    if !f.define {
        return fail(ErrorKind::NotInDefine, format!("{what} needs define mode"));
    }
    Ok(())
}

fn need_writable(f: &ClassicFile) -> Result<()> {
    if !f.writable {
        return fail(ErrorKind::Perm, "file is open read-only");
    }
    if f.closed {
        return fail(ErrorKind::BadId, "file is closed");
    }
    Ok(())
}

fn check_group(g: GroupId) -> Result<()> {
    if g != ROOT {
        return fail(
            ErrorKind::BadGrpId,
            "classic files have only the root group",
        );
    }
    Ok(())
}

/// True when the format can hold values of this type (netcdf-c's `nc3_cktype`).
fn type_ok(format: Format, t: NcType) -> bool {
    match format {
        Format::Cdf5 => t.is_cdf5(),
        _ => t.is_classic(),
    }
}

fn nfc(name: &str) -> String {
    name.nfc().collect()
}

/// `nc_redef`.
pub(crate) fn redef(f: &mut ClassicFile) -> Result<()> {
    need_writable(f)?;
    if f.define {
        return fail(ErrorKind::InDefine, "already in define mode");
    }
    let s = &f.schema;
    f.old = Some(OldState {
        layout: f.layout.clone(),
        was_rec: (0..s.vars.len())
            .map(|i| s.is_record_var(VarId(i)))
            .collect(),
        nvars: s.vars.len(),
        numrecs: f.numrecs,
    });
    f.define = true;
    Ok(())
}

/// `nc_def_dim`; a length of 0 means unlimited, as in netcdf-c.
pub(crate) fn def_dim(
    f: &mut ClassicFile,
    g: GroupId,
    name: &str,
    len: u64,
    unlimited: bool,
) -> Result<DimId> {
    check_group(g)?;
    need_define(f, "nc_def_dim")?;
    let name = normalize_name(name)?;
    let len = if unlimited { 0 } else { len };
    let max = match f.format {
        Format::Cdf5 => u64::MAX - 3,
        Format::Offset64 => u32::MAX as u64 - 3,
        _ => i32::MAX as u64 - 3,
    };
    if len > max {
        return fail(
            ErrorKind::DimSize,
            format!("dimension {name} of length {len}"),
        );
    }
    if len == 0 && f.schema.dims.iter().any(|d| d.unlimited) {
        return fail(
            ErrorKind::Unlimit,
            format!("{name}: there is already an unlimited dimension"),
        );
    }
    let id = std::sync::Arc::make_mut(&mut f.schema).add_dim(ROOT, &name, len, len == 0)?;
    if len == 0 {
        std::sync::Arc::make_mut(&mut f.schema).dims[id.0].len = f.numrecs;
    }
    Ok(id)
}

/// `nc_def_var`.
pub(crate) fn def_var(
    f: &mut ClassicFile,
    g: GroupId,
    name: &str,
    typ: NcType,
    dims: &[DimId],
) -> Result<VarId> {
    check_group(g)?;
    need_define(f, "nc_def_var")?;
    let name = normalize_name(name)?;
    if !type_ok(f.format, typ) {
        return fail(
            ErrorKind::BadType,
            format!(
                "variable {name}: type not allowed in the {} format",
                f.format.kind_name()
            ),
        );
    }
    if dims.len() > 1024 {
        return fail(ErrorKind::MaxDims, format!("variable {name}"));
    }
    if f.schema.find_var(ROOT, &name).is_some() {
        return fail(ErrorKind::NameInUse, format!("variable {name}"));
    }
    for (i, d) in dims.iter().enumerate() {
        let Some(dim) = f.schema.dims.get(d.0) else {
            return fail(
                ErrorKind::BadDim,
                format!("variable {name}: dimension id {}", d.0),
            );
        };
        if dim.unlimited && i > 0 {
            return fail(
                ErrorKind::UnlimPos,
                format!("variable {name}: unlimited dimension must be first"),
            );
        }
    }
    let id = std::sync::Arc::make_mut(&mut f.schema).add_var(ROOT, &name, typ, dims)?;
    std::sync::Arc::make_mut(&mut f.schema).vars[id.0].no_fill = !f.fill;
    Ok(id)
}

fn check_att_target(f: &ClassicFile, g: GroupId, var: Option<VarId>) -> Result<()> {
    check_group(g)?;
    if let Some(v) = var {
        if v.0 >= f.schema.vars.len() {
            return fail(ErrorKind::NotVar, format!("variable id {}", v.0));
        }
    }
    Ok(())
}

/// Size of an attribute's values in the header, padded.
fn att_xsz(v: &Values) -> u64 {
    let size = header::ext_size(v.nc_type()).unwrap_or(1) as u64;
    header::rnd4(v.len() as u64 * size).unwrap_or(u64::MAX)
}

/// `nc_put_att`.
pub(crate) fn put_att(
    f: &mut ClassicFile,
    g: GroupId,
    var: Option<VarId>,
    name: &str,
    values: Values,
) -> Result<()> {
    need_writable(f)?;
    check_att_target(f, g, var)?;
    if !type_ok(f.format, values.nc_type()) {
        return fail(
            ErrorKind::BadType,
            format!(
                "attribute {name}: type not allowed in the {} format",
                f.format.kind_name()
            ),
        );
    }
    if values.len() > i32::MAX as usize {
        return fail(
            ErrorKind::Inval,
            format!("attribute {name}: too many values"),
        );
    }
    let key = nfc(name);
    let define = f.define;
    let atts = std::sync::Arc::make_mut(&mut f.schema).atts_mut(g, var);
    match atts.iter().position(|a| a.name == key) {
        Some(i) if !define => {
            if att_xsz(&values) > att_xsz(&atts[i].values) {
                return fail(
                    ErrorKind::NotInDefine,
                    format!("attribute {key} grows: needs define mode"),
                );
            }
            atts[i].values = values;
            f.hdirty = true;
            Ok(())
        }
        Some(i) => {
            normalize_name(name)?;
            atts[i].values = values;
            f.name_lens.remove(&NameKey::Att(var.map(|v| v.0), key));
            Ok(())
        }
        None if !define => fail(
            ErrorKind::NotInDefine,
            format!("new attribute {key} needs define mode"),
        ),
        None => {
            let name = normalize_name(name)?;
            atts.push(Attribute { name, values });
            Ok(())
        }
    }
}

/// `nc_del_att`.
pub(crate) fn del_att(
    f: &mut ClassicFile,
    g: GroupId,
    var: Option<VarId>,
    name: &str,
) -> Result<()> {
    need_define(f, "nc_del_att")?;
    check_att_target(f, g, var)?;
    let key = nfc(name);
    let atts = std::sync::Arc::make_mut(&mut f.schema).atts_mut(g, var);
    match atts.iter().position(|a| a.name == key) {
        Some(i) => {
            atts.remove(i);
            f.name_lens.remove(&NameKey::Att(var.map(|v| v.0), key));
            Ok(())
        }
        None => fail(ErrorKind::NotAtt, format!("attribute {key}")),
    }
}

/// Applies a rename: in define mode the stored name becomes the new one; in data mode the new
/// name must fit in the stored bytes, which keep their length (padded with NULs), as
/// netcdf-c's `set_NC_string`.
fn rename_stored(f: &mut ClassicFile, key: NameKey, old: &str, new: &str) -> Result<()> {
    if f.define {
        f.name_lens.remove(&key);
        return Ok(());
    }
    let stored = f.name_lens.get(&key).copied().unwrap_or(0).max(old.len());
    if new.len() > stored {
        return fail(
            ErrorKind::NotInDefine,
            format!("renaming {old} to the longer {new} needs define mode"),
        );
    }
    if stored != new.len() {
        f.name_lens.insert(key, stored);
    } else {
        f.name_lens.remove(&key);
    }
    f.hdirty = true;
    Ok(())
}

/// `nc_rename_dim`.
pub(crate) fn rename_dim(f: &mut ClassicFile, dim: DimId, name: &str) -> Result<()> {
    need_writable(f)?;
    let new = normalize_name(name)?;
    if f.schema.find_dim(ROOT, &new).is_some() {
        return fail(ErrorKind::NameInUse, format!("dimension {new}"));
    }
    let Some(d) = f.schema.dims.get(dim.0) else {
        return fail(ErrorKind::BadDim, format!("dimension id {}", dim.0));
    };
    let old = d.name.clone();
    rename_stored(f, NameKey::Dim(dim.0), &old, &new)?;
    std::sync::Arc::make_mut(&mut f.schema).dims[dim.0].name = new;
    Ok(())
}

/// `nc_rename_var`.
pub(crate) fn rename_var(f: &mut ClassicFile, var: VarId, name: &str) -> Result<()> {
    need_writable(f)?;
    let new = normalize_name(name)?;
    if f.schema.find_var(ROOT, &new).is_some() {
        return fail(ErrorKind::NameInUse, format!("variable {new}"));
    }
    let Some(v) = f.schema.vars.get(var.0) else {
        return fail(ErrorKind::NotVar, format!("variable id {}", var.0));
    };
    let old = v.name.clone();
    rename_stored(f, NameKey::Var(var.0), &old, &new)?;
    std::sync::Arc::make_mut(&mut f.schema).vars[var.0].name = new;
    Ok(())
}

/// `nc_rename_att`.
pub(crate) fn rename_att(
    f: &mut ClassicFile,
    g: GroupId,
    var: Option<VarId>,
    old: &str,
    new: &str,
) -> Result<()> {
    need_writable(f)?;
    check_att_target(f, g, var)?;
    let new = normalize_name(new)?;
    let old = nfc(old);
    let atts = f.schema.atts(g, var);
    let Some(i) = atts.iter().position(|a| a.name == old) else {
        return fail(ErrorKind::NotAtt, format!("attribute {old}"));
    };
    if atts.iter().any(|a| a.name == new) {
        return fail(ErrorKind::NameInUse, format!("attribute {new}"));
    }
    let vi = var.map(|v| v.0);
    rename_stored(f, NameKey::Att(vi, old.clone()), &old, &new)?;
    if let Some(len) = f.name_lens.remove(&NameKey::Att(vi, old)) {
        f.name_lens.insert(NameKey::Att(vi, new.clone()), len);
    }
    std::sync::Arc::make_mut(&mut f.schema).atts_mut(g, var)[i].name = new;
    Ok(())
}

/// `nc_set_fill`: returns the previous mode; applies the new one to every variable.
pub(crate) fn set_fill(f: &mut ClassicFile, fill: bool) -> Result<bool> {
    need_writable(f)?;
    let old = f.fill;
    if fill && !old && !f.define {
        write_dirty(f)?;
    }
    f.fill = fill;
    for v in &mut std::sync::Arc::make_mut(&mut f.schema).vars {
        v.no_fill = !fill;
    }
    Ok(old)
}

/// `nc_def_var_fill` for netCDF-3 (netcdf-c `NC3_def_var_fill`): a per-variable no-fill flag,
/// settable only in define mode; not stored in the file, it decides what `enddef` and record
/// growth write into the variable's space.
pub(crate) fn def_var_fill(f: &mut ClassicFile, var: VarId, no_fill: bool) -> Result<()> {
    need_writable(f)?;
    if !f.define {
        return fail(
            ErrorKind::NotInDefine,
            "nc_def_var_fill outside define mode",
        );
    }
    let Some(v) = std::sync::Arc::make_mut(&mut f.schema).vars.get_mut(var.0) else {
        return fail(ErrorKind::NotVar, format!("variable id {}", var.0));
    };
    v.no_fill = no_fill;
    Ok(())
}

/// Writes the header or just numrecs if either changed (netcdf-c's `NC_sync`).
fn write_dirty(f: &mut ClassicFile) -> Result<()> {
    if f.hdirty {
        f.write_header()?;
    } else if f.ndirty {
        let b = if f.format == Format::Cdf5 {
            f.numrecs.to_be_bytes().to_vec()
        } else {
            (f.numrecs as u32).to_be_bytes().to_vec()
        };
        f.io()?.write_numrecs(&b)?;
    }
    f.hdirty = false;
    f.ndirty = false;
    Ok(())
}

/// `nc_enddef`.
pub(crate) fn enddef(f: &mut ClassicFile) -> Result<()> {
    need_define(f, "nc_enddef")?;
    layout::check_vlens(f.format, &f.schema)?;
    if f.is_new {
        f.set_numrecs(0);
    }
    // The header size depends only on the definitions, not on the begins.
    let n = f.schema.vars.len();
    let probe = header::encode(&header::HeaderOut {
        format: f.format,
        numrecs: f.numrecs,
        schema: &f.schema,
        vsizes: &vec![0; n],
        begins: &vec![0; n],
        name_lens: &f.name_lens,
    });
    let xsz = probe.len() as u64;
    let old = f.old.take();
    let prior = old.as_ref().map(|o| Prior {
        layout: &o.layout,
        was_rec: &o.was_rec,
    });
    let new = match layout::begins(f.format, &f.schema, xsz, &f.layout, prior.as_ref()) {
        Ok(l) => l,
        Err(e) => {
            f.old = old;
            return Err(e);
        }
    };
    if let Err(e) = layout::check_voffs(&f.schema, &new) {
        f.old = old;
        return Err(e);
    }
    let old_layout = std::mem::replace(&mut f.layout, new);
    if let Some(o) = &old {
        if n != 0 {
            move_data(f, o, &old_layout)?;
        }
    }
    f.write_header()?;
    f.hdirty = false;
    f.ndirty = false;
    if f.is_new {
        for i in 0..n {
            let v = VarId(i);
            if !f.schema.var(v).no_fill && !f.schema.is_record_var(v) {
                f.fill_var(v, layout::var_len(&f.schema, v), 0)?;
            }
        }
    } else if let Some(o) = &old {
        fill_added(f, o)?;
    }
    f.define = false;
    f.is_new = false;
    f.io()?.sync()
}

/// netcdf-c's `move_recs_r` / `move_vars_r` as `NC_endef` chooses them.
fn move_data(f: &mut ClassicFile, o: &OldState, old_layout: &layout::Layout) -> Result<()> {
    let (begin_rec, begin_var, recsize) =
        (f.layout.begin_rec, f.layout.begin_var, f.layout.recsize);
    if begin_rec > old_layout.begin_rec {
        move_recs(f, o, old_layout)?;
        if begin_var > old_layout.begin_var {
            move_vars(f, o, old_layout)?;
        }
    } else {
        if begin_var > old_layout.begin_var {
            move_vars(f, o, old_layout)?;
        }
        if recsize > old_layout.recsize {
            move_recs(f, o, old_layout)?;
        }
    }
    Ok(())
}

fn move_recs(f: &mut ClassicFile, o: &OldState, ol: &layout::Layout) -> Result<()> {
    for r in (0..o.numrecs).rev() {
        for v in (0..o.nvars).rev() {
            if !o.was_rec[v] {
                continue;
            }
            let to = f.layout.begins[v] + f.layout.recsize * r;
            let from = ol.begins[v] + ol.recsize * r;
            if to != from {
                let n = layout::var_len(&f.schema, VarId(v));
                f.io()?.move_bytes(to, from, n)?;
            }
        }
    }
    Ok(())
}

fn move_vars(f: &mut ClassicFile, o: &OldState, ol: &layout::Layout) -> Result<()> {
    for v in (0..o.nvars).rev() {
        if o.was_rec[v] {
            continue;
        }
        let (to, from) = (f.layout.begins[v], ol.begins[v]);
        if to > from {
            let n = layout::var_len(&f.schema, VarId(v));
            f.io()?.move_bytes(to, from, n)?;
        }
    }
    Ok(())
}

/// netcdf-c's `fill_added` and `fill_added_recs`: fill variables defined since `redef`.
fn fill_added(f: &mut ClassicFile, o: &OldState) -> Result<()> {
    let s = &f.schema;
    let n = s.vars.len();
    if n <= o.nvars {
        return Ok(());
    }
    let mut fills = Vec::new();
    for i in o.nvars..n {
        let v = VarId(i);
        if !s.var(v).no_fill && !s.is_record_var(v) {
            fills.push((v, layout::var_len(s, v), 0));
        }
    }
    let nrec = (0..n).filter(|i| s.is_record_var(VarId(*i))).count();
    for r in 0..o.numrecs {
        for i in o.nvars..n {
            let v = VarId(i);
            if s.var(v).no_fill || !s.is_record_var(v) {
                continue;
            }
            let size = if nrec == 1 {
                f.layout.recsize
            } else {
                layout::var_len(s, v)
            };
            fills.push((v, size, r));
        }
    }
    for (v, size, r) in fills {
        f.fill_var(v, size, r)?;
    }
    Ok(())
}

/// Data write entry point: checks mode and variable, then writes.
pub(crate) fn write_raw(
    f: &mut ClassicFile,
    var: VarId,
    slab: &Hyperslab,
    data: &[u8],
) -> Result<()> {
    need_writable(f)?;
    if f.define {
        return fail(ErrorKind::InDefine, "data cannot be written in define mode");
    }
    f.check_var(var)?;
    let xsz = header::ext_size(f.schema.var(var).typ).unwrap_or(1) as u64;
    if slab.num_elements().checked_mul(xsz) != Some(data.len() as u64) {
        return fail(ErrorKind::Inval, "data length does not match the selection");
    }
    super::putget::put(f, var, slab, data)
}

/// `nc_sync`: writes what changed in the header, then flushes to stable storage.
pub(crate) fn sync(f: &mut ClassicFile) -> Result<()> {
    if f.define {
        return fail(ErrorKind::InDefine, "nc_sync in define mode");
    }
    if !f.writable {
        return Ok(());
    }
    write_dirty(f)?;
    let io = f.io()?;
    io.sync()?;
    io.sync_all()
}

/// `nc_close`: ends define mode if needed, writes what changed, and extends a file left short by
/// no-fill writes to the length its header implies (netcdf-c's `NC3_close`).
pub(crate) fn close(f: &mut ClassicFile) -> Result<()> {
    if !f.writable || f.closed {
        return Ok(());
    }
    f.closed = true;
    if f.define {
        enddef(f)?;
    } else {
        write_dirty(f)?;
        f.io()?.sync()?;
    }
    let size = layout::calcsize(&f.schema, &f.layout, f.numrecs);
    let io = f.io()?;
    if io.len() < size {
        io.pad_length(size)?;
    }
    io.close()
}
