//! Turning the netCDF definitions into HDF5 objects, in netcdf-c 4.9.0's order and with its
//! bookkeeping attributes (file format spec, "NetCDF-4 Format"; netcdf-c `nc4hdf.c`
//! `nc4_rec_write_groups_types`, `nc4_rec_write_metadata`, `var_create_dataset`,
//! `nc4_create_dim_wo_var`, `attach_dimscales`), and loading an existing file's objects.

use std::collections::{HashMap, HashSet};

use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::{CompoundMember, Datatype};
use purecdf_hdf5::format::messages::fill_value::{FillTime, FillValue};
use purecdf_hdf5::format::messages::filter_pipeline::{FilterDesc, FilterPipeline};
use purecdf_hdf5::format::messages::layout::Layout;
use purecdf_hdf5::write::{AttrSpec, DatasetSpec, Hdf5Writer, ObjId, Piece, StorageSpec, TypeSpec};

use super::types::{attribute_parts, fill_pieces, fixed_string, hdf_type};
use super::{hw, Netcdf4Writer};
use crate::backend::{Chunking, Format};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{Attribute, DimId, GroupId, NcType, Schema, VarId, ROOT};
use crate::nc4def::{Defs, StorageKind, VarSettings};

/// The NAME of a pure dimension's scale, before its length.
const PURE_DIM: &str = "This is a netCDF dimension but not a netCDF variable.";
use super::super::build::{NON_COORD, RESERVED};

/// Attributes netCDF-4 keeps for itself (netcdf-c's reserved names); never reconciled with
/// the user's.
fn hidden(name: &str) -> bool {
    RESERVED.contains(&name)
}

fn i32_attr(name: &str, values: &[i32], scalar: bool) -> AttrSpec {
    AttrSpec {
        name: name.into(),
        dtype: TypeSpec::Inline(Datatype::integer(4, true, false)),
        space: if scalar {
            Dataspace::Scalar
        } else {
            Dataspace::Simple {
                dims: vec![values.len() as u64],
                max_dims: vec![Some(values.len() as u64)],
            }
        },
        data: vec![Piece::Bytes(
            values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        )],
    }
}

/// A scalar NUL-terminated fixed string attribute (as HDF5's dimension-scale API writes them:
/// the NUL is stored and counted).
fn text_attr(name: &str, text: &str, with_nul: bool) -> AttrSpec {
    let mut b = text.as_bytes().to_vec();
    if with_nul {
        b.push(0);
    }
    AttrSpec {
        name: name.into(),
        dtype: TypeSpec::Inline(fixed_string(b.len() as u32)),
        space: Dataspace::Scalar,
        data: vec![Piece::Bytes(b)],
    }
}

fn put(w: &mut Hdf5Writer, obj: ObjId, a: AttrSpec) -> Result<()> {
    w.put_attribute(obj, a).map_err(hw)
}

/// The coordinate variable of a dimension: a variable of the dimension's group with its name
/// whose first dimension it is.
pub(crate) fn coord_var(s: &Schema, d: DimId) -> Option<VarId> {
    let dim = s.dim(d);
    s.group(dim.group)
        .vars
        .iter()
        .copied()
        .find(|v| s.var(*v).name == dim.name && s.var(*v).dims.first() == Some(&d))
}

/// The dataset name of a variable: its own, or prefixed when a dimension of its group has the
/// name without the variable being its coordinate.
pub(crate) fn hdf_name(s: &Schema, v: VarId) -> String {
    let var = s.var(v);
    match s.find_dim(var.group, &var.name) {
        Some(d) if coord_var(s, d) != Some(v) => format!("{NON_COORD}{}", var.name),
        _ => var.name.clone(),
    }
}

fn preorder(s: &Schema) -> Vec<GroupId> {
    let mut out = Vec::with_capacity(s.groups.len());
    let mut stack = vec![ROOT];
    while let Some(g) = stack.pop() {
        out.push(g);
        stack.extend(s.group(g).groups.iter().rev().copied());
    }
    out
}

/// Creates every HDF5 object the definitions need and reconciles attributes; idempotent.
pub(crate) fn materialize(nw: &mut Netcdf4Writer) -> Result<()> {
    let order = preorder(&nw.defs.schema);
    // 1. Groups and committed types, preorder (netcdf-c `nc4_rec_write_groups_types`).
    for &g in &order {
        if nw.groups[g.0].is_none() {
            let parent = nw.defs.schema.group(g).parent.ok_or(ErrorKind::BadGrpId)?;
            let p = nw.groups[parent.0].ok_or(ErrorKind::BadGrpId)?;
            let name = nw.defs.schema.group(g).name.clone();
            nw.groups[g.0] = Some(nw.w.create_group(p, &name).map_err(hw)?);
        }
        let gobj = nw.groups[g.0].ok_or(ErrorKind::BadGrpId)?;
        if g == ROOT && nw.defs.format == Format::Netcdf4Classic {
            let has =
                nw.w.attributes(gobj)
                    .map_err(hw)?
                    .iter()
                    .any(|a| a.name == "_nc3_strict");
            if !has {
                put(&mut nw.w, gobj, i32_attr("_nc3_strict", &[1], true))?;
            }
        }
        for t in nw.defs.schema.group(g).types.clone() {
            if nw.types[t.0].is_none() {
                let dt = hdf_type(&nw.defs.schema, NcType::User(t), false)?;
                let name = nw.defs.schema.user_type(t).name.clone();
                nw.types[t.0] = Some(nw.w.commit_datatype(gobj, &name, dt).map_err(hw)?);
            }
        }
    }
    // 2. Per group: attributes, then dimensions and variables interleaved.
    for &g in &order {
        let gobj = nw.groups[g.0].ok_or(ErrorKind::BadGrpId)?;
        let atts = nw.defs.schema.group(g).atts.clone();
        reconcile(nw, gobj, &atts)?;
        let dims = nw.defs.schema.group(g).dims.clone();
        let vars = nw.defs.schema.group(g).vars.clone();
        let mut next_var = 0usize;
        for d in dims {
            match coord_var(&nw.defs.schema, d) {
                Some(c) => {
                    if let Some(pos) = vars.iter().position(|v| *v == c) {
                        while next_var <= pos {
                            create_var(nw, vars[next_var])?;
                            next_var += 1;
                        }
                    }
                }
                None => create_pure_dim(nw, d)?,
            }
        }
        while next_var < vars.len() {
            create_var(nw, vars[next_var])?;
            next_var += 1;
        }
    }
    // 3. Attributes of variables created before (new ones come after the dimension lists).
    for v in 0..nw.defs.schema.vars.len() {
        if let Some(ds) = nw.h5vars[v].ds {
            let atts = nw.defs.schema.vars[v].atts.clone();
            reconcile(nw, ds, &atts)?;
        }
    }
    attach_scales(nw)?;
    // 4. Provenance, once, last.
    if !nw.wrote_properties {
        let root = nw.groups[ROOT.0].ok_or(ErrorKind::BadGrpId)?;
        put(
            &mut nw.w,
            root,
            text_attr("_NCProperties", &crate::nc4def::provenance(), false),
        )?;
        nw.wrote_properties = true;
    }
    Ok(())
}

/// Makes the object's user attributes those of `want`, in order: removed ones are deleted,
/// changed ones deleted and added again (at the end, as netcdf-c rewrites them), new ones added.
fn reconcile(nw: &mut Netcdf4Writer, obj: ObjId, want: &[Attribute]) -> Result<()> {
    let current: Vec<AttrSpec> =
        nw.w.attributes(obj)
            .map_err(hw)?
            .into_iter()
            .filter(|a| !hidden(&a.name))
            .cloned()
            .collect();
    let wanted: HashSet<&str> = want.iter().map(|a| a.name.as_str()).collect();
    for a in &current {
        if !wanted.contains(a.name.as_str()) {
            nw.w.delete_attribute(obj, &a.name).map_err(hw)?;
        }
    }
    for a in want {
        if hidden(&a.name) {
            continue;
        }
        let (dt, space, data) = attribute_parts(&nw.defs.schema, &a.values)?;
        let spec = AttrSpec {
            name: a.name.clone(),
            dtype: TypeSpec::Inline(dt),
            space,
            data,
        };
        match current.iter().find(|c| c.name == a.name) {
            Some(c) if *c == spec => {}
            Some(_) => {
                nw.w.delete_attribute(obj, &a.name).map_err(hw)?;
                put(&mut nw.w, obj, spec)?;
            }
            None => put(&mut nw.w, obj, spec)?,
        }
    }
    Ok(())
}

fn create_pure_dim(nw: &mut Netcdf4Writer, d: DimId) -> Result<()> {
    if nw.dims[d.0].is_some() || d.0 < nw.loaded_dims {
        return Ok(());
    }
    let dim = nw.defs.schema.dim(d).clone();
    let g = nw.groups[dim.group.0].ok_or(ErrorKind::BadGrpId)?;
    let f32be = Datatype::ieee_f32(true);
    let (space, storage, alloc) = if dim.unlimited {
        (
            Dataspace::Simple {
                dims: vec![dim.len],
                max_dims: vec![None],
            },
            StorageSpec::Chunked(vec![1]),
            3,
        )
    } else {
        (
            Dataspace::Simple {
                dims: vec![dim.len],
                max_dims: vec![Some(dim.len)],
            },
            StorageSpec::Contiguous,
            2,
        )
    };
    let ds =
        nw.w.create_dataset(
            g,
            &dim.name,
            DatasetSpec {
                dtype: TypeSpec::Inline(f32be),
                space,
                storage,
                filters: FilterPipeline::default(),
                fill: FillValue {
                    alloc_time: alloc,
                    fill_time: FillTime::IfSet,
                    value: None,
                },
            },
        )
        .map_err(hw)?;
    put(&mut nw.w, ds, text_attr("CLASS", "DIMENSION_SCALE", true))?;
    let name = format!("{PURE_DIM}{:>10}", dim.len as i32);
    put(&mut nw.w, ds, text_attr("NAME", &name, true))?;
    let id = nw.dimids[d.0];
    put(&mut nw.w, ds, i32_attr("_Netcdf4Dimid", &[id], true))?;
    nw.dims[d.0] = Some(ds);
    Ok(())
}

fn filter_pipeline(
    nw: &Netcdf4Writer,
    v: VarId,
    dt: &Datatype,
    chunking: &Chunking,
) -> Result<FilterPipeline> {
    let esize = dt.size();
    let mut filters = Vec::new();
    for (id, params) in nw.defs.filter_list(v) {
        filters.push(match id {
            // Shuffle carries the element size (libhdf5 adds it); it and deflate are optional.
            2 => FilterDesc {
                id: 2,
                name: None,
                flags: 1,
                client_data: vec![esize],
            },
            1 => FilterDesc {
                id: 1,
                name: None,
                flags: 1,
                client_data: params,
            },
            // netcdf-c sets szip with H5Pset_szip (optional), HDF5 completes its parameters.
            4 => FilterDesc {
                id: 4,
                name: None,
                flags: 1,
                client_data: szip_client_data(&params, dt, chunking)?,
            },
            _ => FilterDesc {
                id: id as u16,
                name: None,
                flags: 0,
                client_data: params,
            },
        });
    }
    Ok(FilterPipeline { filters })
}

/// The four szip parameters HDF5 stores (`H5Pset_szip` then `H5Z_set_local_szip` of HDF5
/// 1.10): options with K13 (1), byte order (LSB 8 / MSB 16) and raw (128) added, pixels per
/// block, bits per pixel (the type's precision, 25–32 as 32, over 32 as 64), pixels per
/// scanline (the chunk's fastest dimension, at most 128 blocks, or the whole chunk when a
/// scanline is shorter than a block).
fn szip_client_data(params: &[u32], dt: &Datatype, chunking: &Chunking) -> Result<Vec<u32>> {
    const K13: u32 = 1;
    const CHIP: u32 = 2;
    const LSB: u32 = 8;
    const MSB: u32 = 16;
    const RAW: u32 = 128;
    const MAX_BLOCKS_PER_SCANLINE: u64 = 128;
    const MAX_PIXELS_PER_SCANLINE: u64 = 4096;
    let bad = |why: &str| Error::with_detail(ErrorKind::Hdf, format!("szip: {why}"));
    let (Some(&mask), Some(&ppb)) = (params.first(), params.get(1)) else {
        return Err(bad("two parameters needed"));
    };
    let (precision, big) = match dt {
        Datatype::FixedPoint {
            size, big_endian, ..
        } => (size * 8, *big_endian),
        Datatype::FloatingPoint {
            size, big_endian, ..
        } => (size * 8, *big_endian),
        _ => return Err(bad("only integer and floating-point data")),
    };
    let bpp = match precision {
        p if p > 32 => 64,
        p if p > 24 => 32,
        p => p,
    };
    let Chunking::Chunked(cd) = chunking else {
        return Err(bad("needs chunked storage"));
    };
    let ppb64 = u64::from(ppb);
    let mut scanline = cd.last().copied().unwrap_or(1);
    if scanline < ppb64 {
        // HDF5 hands set_local a dataspace of the chunk's shape, not the dataset's.
        let npoints = cd.iter().product::<u64>();
        if npoints < ppb64 {
            return Err(bad("more pixels per block than elements"));
        }
        scanline = (ppb64 * MAX_BLOCKS_PER_SCANLINE).min(npoints);
    } else if scanline <= MAX_PIXELS_PER_SCANLINE {
        scanline = (ppb64 * MAX_BLOCKS_PER_SCANLINE).min(scanline);
    } else {
        scanline = ppb64 * MAX_BLOCKS_PER_SCANLINE;
    }
    let options = ((mask | K13) & !CHIP) | if big { MSB } else { LSB } | RAW;
    Ok(vec![options, ppb, bpp, scanline as u32])
}

fn create_var(nw: &mut Netcdf4Writer, v: VarId) -> Result<()> {
    if nw.h5vars[v.0].ds.is_some() {
        return Ok(());
    }
    let def = nw.defs.schema.var(v).clone();
    let g = nw.groups[def.group.0].ok_or(ErrorKind::BadGrpId)?;
    // A coordinate variable defined after its dimension was written out without one (data
    // written in between ended define mode): its dataset replaces the dimension's own scale,
    // as netcdf-c deletes that dataset for a variable that "became a coordinate variable".
    if let Some(&d) = def.dims.first() {
        if coord_var(&nw.defs.schema, d) == Some(v) && nw.dims[d.0].take().is_some() {
            let name = nw.defs.schema.dim(d).name.clone();
            nw.w.unlink(g, &name).map_err(hw)?;
        }
    }
    let be = nw.defs.vars[v.0].big_endian.unwrap_or(false);
    let dt = hdf_type(&nw.defs.schema, def.typ, be)?;
    let space = if def.dims.is_empty() {
        Dataspace::Scalar
    } else {
        let (mut cur, mut max) = (Vec::new(), Vec::new());
        for d in &def.dims {
            let dim = nw.defs.schema.dim(*d);
            cur.push(if dim.unlimited { 0 } else { dim.len });
            max.push((!dim.unlimited).then_some(dim.len));
        }
        Dataspace::Simple {
            dims: cur,
            max_dims: max,
        }
    };
    let chunking = nw.defs.effective_chunking(v);
    let (storage, alloc) = match &chunking {
        Chunking::Contiguous => (StorageSpec::Contiguous, 2),
        Chunking::Compact => (StorageSpec::Compact, 1),
        Chunking::Chunked(c) => (StorageSpec::Chunked(c.clone()), 3),
    };
    let fill = if def.no_fill {
        FillValue {
            alloc_time: alloc,
            fill_time: FillTime::Never,
            value: None,
        }
    } else {
        let user = def.att("_FillValue").map(|a| a.values.clone());
        let pieces = fill_pieces(&nw.defs.schema, def.typ, user.as_ref(), be)?;
        FillValue {
            alloc_time: alloc,
            fill_time: FillTime::IfSet,
            value: Some(nw.w.encode_pieces(&pieces).map_err(hw)?),
        }
    };
    let filters = filter_pipeline(nw, v, &dt, &chunking)?;
    let name = hdf_name(&nw.defs.schema, v);
    let ds =
        nw.w.create_dataset(
            g,
            &name,
            DatasetSpec {
                dtype: TypeSpec::Inline(dt.clone()),
                space,
                storage,
                filters,
                fill,
            },
        )
        .map_err(hw)?;
    nw.h5vars[v.0] = super::H5Var {
        ds: Some(ds),
        dtype: Some(dt),
    };
    if !def.dims.is_empty() {
        let ids: Vec<i32> = def.dims.iter().map(|d| nw.dimids[d.0]).collect();
        put(&mut nw.w, ds, i32_attr("_Netcdf4Coordinates", &ids, false))?;
    }
    if let Some(d0) = def.dims.first() {
        if coord_var(&nw.defs.schema, *d0) == Some(v) {
            put(&mut nw.w, ds, text_attr("CLASS", "DIMENSION_SCALE", true))?;
            put(&mut nw.w, ds, text_attr("NAME", &def.name, true))?;
            let id = nw.dimids[d0.0];
            put(&mut nw.w, ds, i32_attr("_Netcdf4Dimid", &[id], true))?;
        }
    }
    reconcile(nw, ds, &def.atts)?;
    // netcdf-c records the quantization after the user's attributes, as an ordinary one.
    if let Some((mode, nsd)) = nw.defs.vars[v.0].quantize {
        let name = crate::nc4def::quantize::attribute_name(mode);
        nw.defs.schema.vars[v.0].atts.retain(|a| a.name != name);
        nw.defs.schema.vars[v.0].atts.push(crate::model::Attribute {
            name: name.to_string(),
            values: crate::model::Values::Int(vec![nsd]),
        });
        let atts = nw.defs.schema.vars[v.0].atts.clone();
        reconcile(nw, ds, &atts)?;
    }
    Ok(())
}

/// The dataset that is the dimension scale of `d`.
fn scale_of(nw: &Netcdf4Writer, d: DimId) -> Option<ObjId> {
    match coord_var(&nw.defs.schema, d) {
        Some(c) => nw.h5vars[c.0].ds,
        None => nw.dims[d.0],
    }
}

/// `DIMENSION_LIST` on every variable that is not a scale, `REFERENCE_LIST` on every scale
/// (entries in preorder of groups, variable order within a group), written when changed.
fn attach_scales(nw: &mut Netcdf4Writer) -> Result<()> {
    let reference = Datatype::Reference { size: 8, kind: 0 };
    let dim_list_type = Datatype::VarLen {
        base: Box::new(reference.clone()),
        is_string: false,
        padding: purecdf_hdf5::format::messages::datatype::StringPadding::NullTerminate,
        charset: purecdf_hdf5::format::messages::datatype::Charset::Ascii,
    };
    let ref_list_type = Datatype::Compound {
        size: 16,
        members: vec![
            CompoundMember {
                name: "dataset".into(),
                offset: 0,
                dtype: reference,
            },
            CompoundMember {
                name: "dimension".into(),
                offset: 8,
                dtype: Datatype::integer(4, true, false),
            },
        ],
    };
    let mut refs: HashMap<ObjId, Vec<Piece>> = HashMap::new();
    let mut counts: HashMap<ObjId, u64> = HashMap::new();
    let mut scales: Vec<ObjId> = Vec::new();
    for g in preorder(&nw.defs.schema) {
        for v in nw.defs.schema.group(g).vars.clone() {
            let def = nw.defs.schema.var(v);
            let Some(ds) = nw.h5vars[v.0].ds else {
                continue;
            };
            if def.dims.is_empty()
                || def
                    .dims
                    .first()
                    .and_then(|d| coord_var(&nw.defs.schema, *d))
                    == Some(v)
            {
                continue;
            }
            let targets: Vec<Option<ObjId>> = def.dims.iter().map(|d| scale_of(nw, *d)).collect();
            if targets.iter().any(Option::is_none) {
                continue; // a dimension without a scale (phony, from a loaded file)
            }
            let mut list = Vec::with_capacity(targets.len());
            for (i, t) in targets.into_iter().flatten().enumerate() {
                list.push(Piece::Vlen {
                    count: 1,
                    content: vec![Piece::Ref(t)],
                });
                let e = refs.entry(t).or_default();
                e.push(Piece::Ref(ds));
                let mut tail = (i as i32).to_le_bytes().to_vec();
                tail.extend_from_slice(&[0; 4]);
                e.push(Piece::Bytes(tail));
                *counts.entry(t).or_default() += 1;
                if !scales.contains(&t) {
                    scales.push(t);
                }
            }
            let n = list.len() as u64;
            put_if_changed(
                &mut nw.w,
                ds,
                AttrSpec {
                    name: "DIMENSION_LIST".into(),
                    dtype: TypeSpec::Inline(dim_list_type.clone()),
                    space: Dataspace::Simple {
                        dims: vec![n],
                        max_dims: vec![Some(n)],
                    },
                    data: list,
                },
            )?;
        }
    }
    for s in scales {
        let n = counts[&s];
        put_if_changed(
            &mut nw.w,
            s,
            AttrSpec {
                name: "REFERENCE_LIST".into(),
                dtype: TypeSpec::Inline(ref_list_type.clone()),
                space: Dataspace::Simple {
                    dims: vec![n],
                    max_dims: vec![Some(n)],
                },
                data: refs.remove(&s).unwrap_or_default(),
            },
        )?;
    }
    Ok(())
}

fn put_if_changed(w: &mut Hdf5Writer, obj: ObjId, spec: AttrSpec) -> Result<()> {
    let same = w.attributes(obj).map_err(hw)?.iter().any(|a| **a == spec);
    if !same {
        put(w, obj, spec)?;
    }
    Ok(())
}

/// `nc_rename_var` on a file being written.
pub(crate) fn rename_var(nw: &mut Netcdf4Writer, var: VarId, new: &str) -> Result<()> {
    let Some(ds) = nw.h5vars[var.0].ds else {
        nw.defs.schema.vars[var.0].name = new.to_string();
        nw.defs.update_storage_info(var);
        return Ok(());
    };
    let was_coord = is_coord(&nw.defs.schema, var);
    let old_hdf = hdf_name(&nw.defs.schema, var);
    let old = std::mem::replace(&mut nw.defs.schema.vars[var.0].name, new.to_string());
    if is_coord(&nw.defs.schema, var) != was_coord || was_coord {
        nw.defs.schema.vars[var.0].name = old;
        return fail(
            ErrorKind::NotBuilt,
            "renaming a variable that is, or would become, a coordinate variable",
        );
    }
    let g = nw.groups[nw.defs.schema.var(var).group.0].ok_or(ErrorKind::BadGrpId)?;
    let new_hdf = hdf_name(&nw.defs.schema, var);
    let _ = ds;
    nw.w.rename_link(g, &old_hdf, &new_hdf).map_err(hw)
}

fn is_coord(s: &Schema, v: VarId) -> bool {
    s.var(v).dims.first().and_then(|d| coord_var(s, *d)) == Some(v)
}

/// `nc_rename_dim` on a file being written.
pub(crate) fn rename_dim(nw: &mut Netcdf4Writer, dim: DimId, new: &str) -> Result<()> {
    let before = coord_var(&nw.defs.schema, dim);
    let old = std::mem::replace(&mut nw.defs.schema.dims[dim.0].name, new.to_string());
    let after = coord_var(&nw.defs.schema, dim);
    let vars_named = |s: &Schema, n: &str| s.find_var(s.dim(dim).group, n);
    let touches_var =
        vars_named(&nw.defs.schema, new).is_some() || vars_named(&nw.defs.schema, &old).is_some();
    let created = nw.dims[dim.0].is_some() || before.is_some_and(|c| nw.h5vars[c.0].ds.is_some());
    if !created {
        return Ok(());
    }
    if before.is_some() || after.is_some() || touches_var {
        nw.defs.schema.dims[dim.0].name = old;
        return fail(
            ErrorKind::NotBuilt,
            "renaming a dimension that has, or would get, a coordinate variable",
        );
    }
    let g = nw.groups[nw.defs.schema.dim(dim).group.0].ok_or(ErrorKind::BadGrpId)?;
    nw.w.rename_link(g, &old, new).map_err(hw)
}

/// A writer over an existing file: the definitions as netCDF reads them, tied to the HDF5
/// objects they come from.
pub(crate) fn load(w: Hdf5Writer) -> Result<Netcdf4Writer> {
    let heaps = super::super::HeapCache::default();
    let built = super::super::build::build(w.reader(), &heaps)?;
    if built.foreign {
        return fail(
            ErrorKind::NotBuilt,
            "updating a file whose external links lead to objects in other files",
        );
    }
    let (mut schema, vars, format, located) =
        (built.schema, built.vars, built.format, built.located);
    let by_addr = w.objects_by_address();
    let obj = |a: u64| -> Result<ObjId> {
        by_addr.get(&a).copied().ok_or_else(|| {
            Error::with_detail(ErrorKind::Hdf, "an object the writer did not load").offset(a)
        })
    };
    let root_atts = &mut schema.groups[ROOT.0].atts;
    let had_properties = root_atts.iter().any(|a| a.name == "_NCProperties");
    root_atts.retain(|a| {
        !matches!(
            a.name.as_str(),
            "_NCProperties" | "_SuperblockVersion" | "_IsNetcdf4"
        )
    });
    let groups = located
        .groups
        .iter()
        .map(|a| obj(*a).map(Some))
        .collect::<Result<Vec<_>>>()?;
    let types = located
        .types
        .iter()
        .map(|a| obj(*a).map(Some))
        .collect::<Result<Vec<_>>>()?;
    let mut states = Vec::with_capacity(schema.vars.len());
    let mut h5vars = Vec::with_capacity(schema.vars.len());
    let mut var_addr: HashSet<u64> = HashSet::new();
    for i in 0..schema.vars.len() {
        let Some(vd) = vars.get(i).and_then(Option::as_ref) else {
            return fail(ErrorKind::Hdf, format!("variable {i} has no dataset"));
        };
        let ds = &vd.dataset;
        let addr = ds.header().address;
        var_addr.insert(addr);
        let (storage, chunks) = match &ds.layout {
            Layout::Compact { .. } => (StorageKind::Compact, None),
            Layout::Chunked { chunk_dims, .. } => (StorageKind::Chunked, Some(chunk_dims.clone())),
            _ => (StorageKind::Contiguous, None),
        };
        states.push(VarSettings {
            storage: Some(storage),
            chunks,
            big_endian: Some(super::super::types::is_big_endian(&ds.dtype)),
            ..VarSettings::default()
        });
        h5vars.push(super::H5Var {
            ds: Some(obj(addr)?),
            dtype: Some(ds.dtype.clone()),
        });
    }
    // netcdf-c's length of each unlimited dimension at open: the extent of its scale dataset
    // when that is a coordinate variable (pure dimension datasets are never extended).
    let extents: HashMap<u64, u64> = vars
        .iter()
        .flatten()
        .map(|vd| {
            let ds = &vd.dataset;
            (
                ds.header().address,
                ds.space.dims().first().copied().unwrap_or(0),
            )
        })
        .collect();
    let open_lens: Vec<u64> = located
        .scales
        .iter()
        .zip(&schema.dims)
        .map(|(s, d)| match s {
            Some(a) if d.unlimited => extents.get(a).copied().unwrap_or(0),
            _ if d.unlimited => 0,
            _ => d.len,
        })
        .collect();
    let mut dims = Vec::with_capacity(schema.dims.len());
    for s in &located.scales {
        dims.push(match s {
            Some(a) if !var_addr.contains(a) => Some(obj(*a)?),
            _ => None,
        });
    }
    let n_dims = schema.dims.len();
    let defs = Defs {
        schema,
        format,
        define: false,
        fill: true,
        vars: states,
        open_lens,
    };
    Ok(Netcdf4Writer {
        w,
        defs,
        groups,
        types,
        dims,
        h5vars,
        dimids: located.dimids.iter().map(|d| *d as i32).collect(),
        closed: false,
        wrote_properties: had_properties,
        loaded_dims: n_dims,
    })
}
