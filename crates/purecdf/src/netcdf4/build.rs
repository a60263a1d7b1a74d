//! Builds the netCDF data model of an HDF5 file: walks groups in link order (creation order when
//! tracked), turns dimension scales into dimensions, datasets into variables, committed datatypes
//! into user types and attributes into attributes, hiding netCDF-4's bookkeeping attributes.
//! Dimension references are resolved after every group is read, since a variable may use a
//! dimension of an ancestor group.
//!
//! As netcdf-c 4.9.0 (`libhdf5/hdf5open.c`) does: names are taken from the file unchecked and
//! unnormalised (any bytes, see `purecdf_hdf5::format::name`), at most `NC_MAX_NAME` bytes of
//! a dataset name are kept, and a group name longer than that fails the open. A dataset's
//! `DIMENSION_LIST` counts only when axis 0 has a scale; each axis takes its last scale,
//! matched by object address against the dimensions of the dataset's group and then of its
//! ancestors (an axis left unmatched makes ncdump fail at it). Datasets without scales reuse the
//! group's first dimension, phony or not, of the same length and kind.

use std::collections::HashMap;

use purecdf_hdf5::format::cursor::Cursor;
use purecdf_hdf5::format::messages::attribute::{AttributeMessage, TypeRef};
use purecdf_hdf5::format::messages::dataspace::Dataspace;
use purecdf_hdf5::format::messages::datatype::Datatype;
use purecdf_hdf5::format::messages::layout::Layout;
use purecdf_hdf5::format::messages::links::LinkTarget;
use purecdf_hdf5::format::messages::shared::SharedRef;
use purecdf_hdf5::format::name::{name_from_bytes, name_to_bytes};
use purecdf_hdf5::format::object_header::{flags, MessageType, ObjectHeader};
use purecdf_hdf5::read::{Dataset, Group, Hdf5File};

mod dims;

use super::types::{self, HeapReader, TypeTable};
use super::{hdf, VarData};
use crate::backend::Format;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{
    DimId, GroupId, NcType, Schema, StorageInfo, Value, Values, VarId, MAX_NAME, ROOT,
};

/// The NAME a pure dimension's scale carries.
const PURE_DIM: &str = "This is a netCDF dimension but not a netCDF variable";
/// Prefix of a variable named like a dimension it is not the coordinate of.
pub(crate) const NON_COORD: &str = "_nc4_non_coord_";
/// Attribute names netcdf-c 4.9.0 reserves (`NC_reserved`). Reading a file it skips attributes
/// of these names (`att_read_callbk`; the root's `_NCProperties` is read as provenance and
/// `_nc3_strict` marks the classic model), and a file whose datasets carry two or more of them
/// counts as netCDF-4 for `_IsNetcdf4` (`NC4_isnetcdf4`, which also counts a dataset named
/// `phony_dim`).
pub(crate) const RESERVED: [&str; 14] = [
    "CLASS",
    "DIMENSION_LIST",
    "NAME",
    "REFERENCE_LIST",
    "_ARRAY_DIMENSIONS",
    "_Codecs",
    "_Format",
    "_IsNetcdf4",
    "_NCProperties",
    "_NCZARR_ATTR",
    "_Netcdf4Coordinates",
    "_Netcdf4Dimid",
    "_SuperblockVersion",
    "_nc3_strict",
];
/// Deepest group nesting accepted.
const MAX_GROUP_DEPTH: usize = 256;
/// Most group visits in one file (a group linked from several places is visited each time).
const MAX_GROUP_VISITS: usize = 1 << 16;

struct PendingVar {
    group: GroupId,
    name: String,
    dataset: Dataset,
    atts: Vec<AttributeMessage>,
    /// The dimension this dataset is the scale of, for coordinate variables.
    own_dim: Option<DimId>,
    /// True when the name lost a `_nc4_non_coord_` prefix.
    renamed: bool,
    /// User types registered when netcdf-c would have read this dataset.
    types_known: usize,
}

/// Where the netCDF objects of a file are: HDF5 object header addresses by netCDF id, for a
/// writer that updates the file.
#[derive(Debug, Default)]
pub(crate) struct Located {
    /// Group header address, by [`GroupId`].
    pub(crate) groups: Vec<u64>,
    /// Dimension-scale dataset address, by [`DimId`] (`None`: a phony dimension).
    pub(crate) scales: Vec<Option<u64>>,
    /// netCDF dimension id, by [`DimId`].
    pub(crate) dimids: Vec<i64>,
    /// Committed datatype address, by type id.
    pub(crate) types: Vec<u64>,
}

struct Builder<'a> {
    /// The file being read, or the one the object being read is in (external links lead to
    /// other files; object keys are (file number, address)).
    h5: Hdf5File,
    group_addrs: Vec<u64>,
    /// True when some object comes from another file (through an external link).
    foreign: bool,
    schema: Schema,
    types: TypeTable,
    /// The dimension-scale dataset of each dimension made from one (several dimensions may
    /// share a dataset reached through several hard links).
    scale_addr: HashMap<DimId, (u32, u64)>,
    /// Each dimension's length when it was made, which phony-dimension matching compares.
    made_len: HashMap<DimId, u64>,
    /// Variables with an axis whose dimension scale is in no group netcdf-c searches: the axis.
    dim_errors: Vec<(VarId, usize)>,
    dimids: HashMap<i64, DimId>,
    nc_dimid: HashMap<DimId, i64>,
    next_dimid: i64,
    pending: Vec<PendingVar>,
    /// Groups on the path from the root to the one being read.
    visited: Vec<(u32, u64)>,
    /// Groups and variables whose attributes netcdf-c cannot read.
    att_errors: Vec<(GroupId, Option<VarId>)>,
    group_visits: usize,
    markers: usize,
    /// True while the group being read was reached from the root by hard links only: netcdf-c
    /// counts the markers of `_IsNetcdf4` only there (`NC4_walk` does not follow soft or
    /// external links).
    hard: bool,
    heaps: &'a super::HeapCache,
}

/// What [`build`] makes of a file.
pub(crate) struct Built {
    pub(crate) schema: Schema,
    pub(crate) vars: Vec<Option<VarData>>,
    pub(crate) format: Format,
    /// Groups and variables whose attributes netcdf-c fails to read (NC_EATTMETA).
    pub(crate) att_errors: Vec<(GroupId, Option<VarId>)>,
    /// Variables whose dimension at an axis netcdf-c cannot find (NC_EBADDIM when asked).
    pub(crate) dim_errors: Vec<(VarId, usize)>,
    /// Where each object is in the file (for a writer updating it).
    pub(crate) located: Located,
    /// True when some objects are in other files, reached through external links (a writer
    /// cannot update those).
    pub(crate) foreign: bool,
}

/// Reads the whole model of `h5`.
pub(crate) fn build(h5: &Hdf5File, heaps: &super::HeapCache) -> Result<Built> {
    let mut b = Builder {
        h5: h5.clone(),
        group_addrs: Vec::new(),
        foreign: false,
        schema: Schema::default(),
        types: TypeTable::default(),
        scale_addr: HashMap::new(),
        made_len: HashMap::new(),
        dim_errors: Vec::new(),
        dimids: HashMap::new(),
        nc_dimid: HashMap::new(),
        next_dimid: 0,
        pending: Vec::new(),
        visited: Vec::new(),
        att_errors: Vec::new(),
        group_visits: 0,
        markers: 0,
        hard: true,
        heaps,
    };
    let root = h5.superblock().root_object_header;
    b.group(h5.clone(), root, ROOT, 0)?;
    let vars = b.resolve_vars()?;
    b.finish_dims();
    let strict = b
        .schema
        .group(ROOT)
        .atts
        .iter()
        .any(|a| a.name == "_nc3_strict");
    b.schema.groups[ROOT.0]
        .atts
        .retain(|a| a.name != "_nc3_strict");
    let format = if strict {
        Format::Netcdf4Classic
    } else {
        Format::Netcdf4
    };
    // The virtual global attributes `ncdump -s` shows; the printer hides them otherwise.
    let is_nc4 = !strict && b.markers >= 2;
    let sbv = i32::from(h5.superblock().version);
    let atts = &mut b.schema.groups[ROOT.0].atts;
    atts.push(crate::model::Attribute {
        name: "_SuperblockVersion".into(),
        values: Values::Int(vec![sbv]),
    });
    atts.push(crate::model::Attribute {
        name: "_IsNetcdf4".into(),
        values: Values::Int(vec![i32::from(is_nc4)]),
    });
    let mut located = Located {
        groups: b.group_addrs,
        scales: vec![None; b.schema.dims.len()],
        dimids: (0..b.schema.dims.len())
            .map(|d| b.nc_dimid.get(&DimId(d)).copied().unwrap_or(d as i64))
            .collect(),
        types: vec![0; b.schema.types.len()],
    };
    for (d, (_, addr)) in &b.scale_addr {
        located.scales[d.0] = Some(*addr);
    }
    for ((_, addr), t) in &b.types.by_address {
        located.types[t.0] = *addr;
    }
    Ok(Built {
        schema: b.schema,
        vars,
        format,
        att_errors: b.att_errors,
        dim_errors: b.dim_errors,
        located,
        foreign: b.foreign,
    })
}

/// The parameters netcdf-c reports for a filter. For szip (id 4) HDF5 stores four values (options
/// with the library's own bits added, pixels per block, bits per pixel, pixels per scanline);
/// netcdf-c reports what the user set: the coding option (NN or EC bit) and pixels per block.
fn netcdf_filter_params(id: u16, cd: &[u32]) -> Vec<u32> {
    // netcdf-c's H5_SZIP_ALL_MASKS: CHIP | EC | NN.
    const SZ_ALL_MASKS: u32 = 2 | 4 | 32;
    match (id, cd) {
        (4, [options, ppb, ..]) => vec![options & SZ_ALL_MASKS, *ppb],
        _ => cd.to_vec(),
    }
}

/// The filter list netcdf-c reports for a pipeline (`NC4_hdf5_addfilter` called in pipeline
/// order): a filter already listed keeps its place and takes the new parameters; fletcher32 is
/// put first, shuffle first or right after a leading fletcher32, any other filter last.
fn netcdf_filter_list(pipeline: impl Iterator<Item = (u32, Vec<u32>)>) -> Vec<(u32, Vec<u32>)> {
    const SHUFFLE: u32 = 2;
    const FLETCHER32: u32 = 3;
    let mut list: Vec<(u32, Vec<u32>)> = Vec::new();
    for (id, params) in pipeline {
        if let Some(f) = list.iter_mut().find(|f| f.0 == id) {
            f.1 = params;
            continue;
        }
        let pos = match id {
            FLETCHER32 => 0,
            SHUFFLE => usize::from(list.first().is_some_and(|f| f.0 == FLETCHER32)),
            _ => list.len(),
        };
        list.insert(pos.min(list.len()), (id, params));
    }
    list
}

/// The name netcdf-c keeps for a dataset: it copies at most [`MAX_NAME`] bytes of the link name
/// (`read_hdf5_obj`), so longer names lose the rest (what follows in its buffer is not
/// initialised; it is taken here as the end of the name).
fn dataset_name(name: &str) -> std::borrow::Cow<'_, str> {
    let raw = name_to_bytes(name);
    if raw.len() <= MAX_NAME {
        return std::borrow::Cow::Borrowed(name);
    }
    std::borrow::Cow::Owned(name_from_bytes(&raw[..MAX_NAME]))
}

fn text_of(a: &AttributeMessage) -> String {
    let end = a.data.iter().position(|&c| c == 0).unwrap_or(a.data.len());
    String::from_utf8_lossy(&a.data[..end]).into_owned()
}

fn ints_of(a: &AttributeMessage) -> Vec<i64> {
    match &a.dtype {
        TypeRef::Inline(
            dt @ Datatype::FixedPoint {
                size,
                signed,
                big_endian,
                ..
            },
        ) => {
            let s = *size as usize;
            let _ = dt;
            a.data
                .chunks_exact(s.max(1))
                .map(|c| types::int_value(c, *big_endian, *signed) as i64)
                .collect()
        }
        _ => Vec::new(),
    }
}

impl Builder<'_> {
    fn group(&mut self, file: Hdf5File, address: u64, gid: GroupId, depth: usize) -> Result<()> {
        // A group may be reached by several links (netcdf-c shows it under each name), but not
        // from inside itself; the total number of group visits is bounded too.
        self.group_visits += 1;
        let key = (file.file_number(), address);
        self.foreign |= key.0 != 0;
        if depth > MAX_GROUP_DEPTH
            || self.visited.contains(&key)
            || self.group_visits > MAX_GROUP_VISITS
        {
            return Err(Error::with_detail(
                ErrorKind::BadMeta,
                "group cycle, or groups nested or linked too much",
            )
            .offset(address));
        }
        self.visited.push(key);
        if self.group_addrs.len() <= gid.0 {
            self.group_addrs.resize(gid.0 + 1, 0);
        }
        self.group_addrs[gid.0] = address;
        let outer = std::mem::replace(&mut self.h5, file);
        let result = self.group_members(address, gid, depth);
        self.h5 = outer;
        self.visited.pop();
        result
    }

    fn group_members(&mut self, address: u64, gid: GroupId, depth: usize) -> Result<()> {
        let group = Group::load(&self.h5, address).map_err(hdf)?;
        // Types first (attributes and variables may use them), then attributes, then the rest.
        let mut objects = Vec::new();
        for m in group.members().map_err(hdf)? {
            // netcdf-c opens every link: soft links lead to their object (relative to this
            // group), external links to the object in their target file (HDF5 opens it), and
            // a link that leads nowhere makes the open fail.
            let (file, addr) = match &m.target {
                LinkTarget::Hard(a) => (self.h5.clone(), *a),
                // Objects behind soft and external links do not count for `_IsNetcdf4`.
                t => self.h5.follow_link(address, t).map_err(|e| {
                    Error::with_detail(
                        ErrorKind::Hdf,
                        format!("link {} leads to no object: {e}", m.name),
                    )
                })?,
            };
            let header = file.object_header(addr).map_err(hdf)?;
            let is_dataset = header.message(MessageType::LAYOUT).is_some();
            let is_group = header.message(MessageType::LINK_INFO).is_some()
                || header.message(MessageType::SYMBOL_TABLE).is_some();
            match header.message(MessageType::DATATYPE) {
                Some(mm) if !is_dataset && !is_group => {
                    let dt = Datatype::parse(&mut Cursor::new(&mm.data, mm.offset, "datatype"))
                        .map_err(hdf)?;
                    let key = (file.file_number(), addr);
                    self.types
                        .register(&mut self.schema, gid, &m.name, key, &dt)?;
                }
                _ => objects.push((
                    m.name,
                    file,
                    addr,
                    is_dataset.then_some(header),
                    self.types.entries.len(),
                    self.hard && matches!(m.target, LinkTarget::Hard(_)),
                )),
            }
        }
        let atts = group.attributes().map_err(hdf)?;
        if self.unreadable_atts(&atts) {
            self.att_errors.push((gid, None));
        } else {
            for a in atts {
                // The root keeps `_NCProperties` (provenance) and `_nc3_strict` (read by
                // `build`); the other reserved names are netcdf-c's own.
                let kept =
                    gid == ROOT && matches!(a.name.as_str(), "_NCProperties" | "_nc3_strict");
                if RESERVED.contains(&a.name.as_str()) && !kept {
                    continue;
                }
                self.raw_put_att(gid, None, &a.name, &a)?;
            }
        }
        let mut children = Vec::new();
        for (name, file, addr, header, known, hard) in objects {
            match header {
                Some(h) => self.dataset(gid, &name, &file, h, known, hard)?,
                None => children.push((name, file, addr, hard)),
            }
        }
        for (name, file, addr, hard) in children {
            // netcdf-c copies at most NC_MAX_NAME bytes of a link name and then opens the group
            // by that copy, which names no link when the name was longer.
            if name_to_bytes(&name).len() > MAX_NAME {
                return Err(Error::with_detail(
                    ErrorKind::Hdf,
                    format!("group name of {} bytes", name.len()),
                )
                .offset(addr));
            }
            let child = self.schema.add_group_unchecked(gid, name);
            let outer = std::mem::replace(&mut self.hard, hard);
            let r = self.group(file, addr, child, depth + 1);
            self.hard = outer;
            r?;
        }
        Ok(())
    }

    fn dataset(
        &mut self,
        gid: GroupId,
        name: &str,
        file: &Hdf5File,
        header: ObjectHeader,
        types_known: usize,
        counted: bool,
    ) -> Result<()> {
        let name = &*dataset_name(name);
        let addr = (file.file_number(), header.address);
        self.foreign |= addr.0 != 0;
        let ds = Dataset::from_header(file, header).map_err(hdf)?;
        let atts = ds.attributes().map_err(hdf)?;
        if counted {
            self.markers += atts
                .iter()
                .filter(|a| RESERVED.contains(&a.name.as_str()))
                .count();
            self.markers += usize::from(name == "phony_dim");
        }
        let class = atts.iter().find(|a| a.name == "CLASS").map(text_of);
        let mut own_dim = None;
        if class.as_deref() == Some("DIMENSION_SCALE") {
            let pure = atts
                .iter()
                .find(|a| a.name == "NAME")
                .is_some_and(|a| text_of(a).starts_with(PURE_DIM));
            let (len, unlimited) = match &ds.space {
                Dataspace::Simple { dims, max_dims } => (
                    dims.first().copied().unwrap_or(0),
                    max_dims.first().is_some_and(Option::is_none),
                ),
                _ => (0, false),
            };
            let dimid = atts
                .iter()
                .find(|a| a.name == "_Netcdf4Dimid")
                .and_then(|a| ints_of(a).first().copied());
            let id = self
                .schema
                .add_dim_unchecked(gid, name.to_string(), len, unlimited);
            self.made_len.insert(id, len);
            let nc = dimid.unwrap_or(self.next_dimid);
            self.next_dimid = self.next_dimid.max(nc + 1);
            self.dimids.insert(nc, id);
            self.nc_dimid.insert(id, nc);
            self.scale_addr.insert(id, addr);
            if pure {
                return Ok(());
            }
            own_dim = Some(id);
        }
        // netcdf-c strips the prefix from a longer name only, and takes the name as it is.
        let stripped = name.strip_prefix(NON_COORD).filter(|rest| !rest.is_empty());
        let renamed = stripped.is_some();
        let name = stripped.unwrap_or(name).to_string();
        self.pending.push(PendingVar {
            group: gid,
            name,
            dataset: ds,
            atts,
            own_dim,
            renamed,
            types_known,
        });
        Ok(())
    }

    fn resolve_vars(&mut self) -> Result<Vec<Option<VarData>>> {
        let mut pending = std::mem::take(&mut self.pending);
        // netcdf-c matches dimension scales (creating phony dimensions) children first: order
        // the variables by a post-order walk of the groups, keeping each group's own order.
        let rank = self.group_post_order();
        pending.sort_by_key(|p| rank[p.group.0]);
        let mut vars: Vec<Option<VarData>> = Vec::new();
        for p in pending {
            // Committed types, dimension scales and vlen data are looked up in the dataset's
            // own file.
            self.h5 = p.dataset.file().clone();
            // netcdf-c leaves out datasets whose type has no netCDF equivalent (an inline
            // compound or enum in a plain HDF5 file, a bitfield, a reference, ...).
            let Ok(typ) = self.var_type(&p.dataset, p.types_known) else {
                continue;
            };

            let rank = p.dataset.space.dims().len();
            let coords = p
                .atts
                .iter()
                .find(|a| a.name == "_Netcdf4Coordinates")
                .map(ints_of);
            let dims: Vec<DimId> = if let Some(c) = coords.filter(|c| c.len() == rank) {
                c.iter()
                    .map(|i| {
                        self.dimids.get(i).copied().ok_or_else(|| {
                            Error::with_detail(
                                ErrorKind::BadDim,
                                format!("_Netcdf4Coordinates of {} names dimid {i}", p.name),
                            )
                        })
                    })
                    .collect::<Result<_>>()?
            } else if let Some(d) = p.own_dim.filter(|_| rank == 1) {
                vec![d]
            } else if let Some(found) = p
                .atts
                .iter()
                .find(|a| a.name == "DIMENSION_LIST")
                .map(|list| self.dimension_list(p.group, list, rank, &p.name))
                .transpose()?
                .flatten()
            {
                let mut dims = Vec::with_capacity(found.len());
                for (axis, d) in found.into_iter().enumerate() {
                    match d {
                        Some(d) => dims.push(d),
                        None => {
                            // No dimension of this scale in the group or an ancestor: netcdf-c
                            // leaves the axis without a dimension (asking for it fails). A
                            // dimension in no group stands in, so shapes and reads still work.
                            let len = p.dataset.space.dims().get(axis).copied().unwrap_or(0);
                            self.dim_errors.push((VarId(self.schema.vars.len()), axis));
                            dims.push(DimId(self.schema.dims.len()));
                            self.schema.dims.push(crate::model::Dimension {
                                name: String::new(),
                                len,
                                unlimited: false,
                                group: p.group,
                            });
                        }
                    }
                }
                dims
            } else {
                self.phony_dims(p.group, &p.dataset)?
            };
            // HDF5 link names are unique within a group; only a stripped `_nc4_non_coord_` prefix
            // could collide, so check just that case.
            if p.renamed && self.schema.find_var(p.group, &p.name).is_some() {
                return Err(Error::with_detail(
                    ErrorKind::NameInUse,
                    format!("variable {}", p.name),
                ));
            }
            let id = self
                .schema
                .add_var_unchecked(p.group, p.name.clone(), typ, &dims);
            if self.unreadable_atts(&p.atts) {
                self.att_errors.push((p.group, Some(id)));
                continue;
            }
            for a in &p.atts {
                if RESERVED.contains(&a.name.as_str()) {
                    continue;
                }
                self.raw_put_att(p.group, Some(id), &a.name, a)?;
            }
            let ds = &p.dataset;
            let var = &mut self.schema.vars[id.0];
            var.storage = StorageInfo {
                chunk_sizes: match &ds.layout {
                    Layout::Chunked { chunk_dims, .. } => Some(chunk_dims.clone()),
                    _ => None,
                },
                compact: matches!(ds.layout, Layout::Compact { .. }),
                is_virtual: matches!(ds.layout, Layout::Virtual { .. }),
                filters: netcdf_filter_list(
                    ds.filters
                        .filters
                        .iter()
                        .map(|f| (u32::from(f.id), netcdf_filter_params(f.id, &f.client_data))),
                ),
                // netcdf-c records a byte order only for integer and floating-point types.
                big_endian: matches!(
                    ds.dtype,
                    Datatype::FixedPoint { .. } | Datatype::FloatingPoint { .. }
                )
                .then(|| types::is_big_endian(&ds.dtype)),
            };
            // netcdf-c: fill mode is on only when the dataset has a user-defined fill value.
            var.no_fill = ds.fill.as_ref().is_none_or(|f| f.value.is_none());
            // Unlimited dimensions are as long as the longest variable along them.
            let cur = ds.space.dims().to_vec();
            for (d, len) in dims.iter().zip(cur) {
                let dim = &mut self.schema.dims[d.0];
                if dim.unlimited && len > dim.len {
                    dim.len = len;
                }
            }
            if vars.len() <= id.0 {
                vars.resize_with(id.0 + 1, || None);
            }
            vars[id.0] = Some(VarData { dataset: p.dataset });
        }
        Ok(vars)
    }

    /// Position of each group in a post-order walk (children before their parent).
    fn group_post_order(&self) -> Vec<usize> {
        fn walk(s: &Schema, g: GroupId, out: &mut Vec<usize>, next: &mut usize) {
            for &c in &s.group(g).groups {
                walk(s, c, out, next);
            }
            out[g.0] = *next;
            *next += 1;
        }
        let mut out = vec![0; self.schema.groups.len()];
        let mut next = 0;
        walk(&self.schema, ROOT, &mut out, &mut next);
        out
    }

    /// Sorts each group's dimensions by netCDF dimid, as `nc_inq_dimids` reports them.
    fn finish_dims(&mut self) {
        for g in &mut self.schema.groups {
            g.dims
                .sort_by_key(|d| self.nc_dimid.get(d).copied().unwrap_or(i64::MAX));
        }
    }

    /// A dataset's netCDF type, among the first `known` user types (netcdf-c leaves out a
    /// dataset whose user type it has not met yet).
    fn var_type(&self, ds: &Dataset, known: usize) -> Result<NcType> {
        if let Some(m) = ds.header().message(MessageType::DATATYPE) {
            if m.flags & flags::SHARED != 0 {
                if let Ok(SharedRef::ObjectHeader(a)) = SharedRef::parse(
                    &mut Cursor::new(&m.data, m.offset, "shared"),
                    self.h5.sizes(),
                ) {
                    let key = (ds.file().file_number(), a);
                    if let Some(t) = self.types.by_address_among(key, known) {
                        return Ok(NcType::User(t));
                    }
                }
            }
        }
        match ds.dtype {
            // A fixed-length string dataset longer than one character is NC_STRING to netcdf-c
            // (NC_CHAR data is stored as 1-byte strings).
            Datatype::String { size, .. } if size > 1 => Ok(NcType::String),
            _ => self.types.nc_type_among(&ds.dtype, known),
        }
    }

    fn att_type(&self, a: &AttributeMessage) -> Result<(Datatype, NcType)> {
        match &a.dtype {
            TypeRef::Inline(dt) => Ok((dt.clone(), self.types.nc_type(dt)?)),
            TypeRef::Shared(SharedRef::ObjectHeader(addr)) => {
                let t = self
                    .types
                    .by_address((self.h5.file_number(), *addr))
                    .ok_or_else(|| {
                        Error::with_detail(
                            ErrorKind::BadType,
                            format!("attribute {} uses an unknown committed type", a.name),
                        )
                    })?;
                let oh = self.h5.object_header(*addr).map_err(hdf)?;
                let m = oh
                    .message(MessageType::DATATYPE)
                    .ok_or(ErrorKind::BadType)?;
                let dt = Datatype::parse(&mut Cursor::new(&m.data, m.offset, "datatype"))
                    .map_err(hdf)?;
                Ok((dt, NcType::User(t)))
            }
            TypeRef::Shared(_) => Err(Error::with_detail(
                ErrorKind::BadType,
                "attribute type in the shared message heap",
            )),
        }
    }

    /// True when netcdf-c fails reading this set of attributes (NC_EATTMETA): one has a type
    /// netCDF represents, is not a string, and has more than one dimension.
    fn unreadable_atts(&self, atts: &[AttributeMessage]) -> bool {
        atts.iter().any(|a| {
            let multi = matches!(&a.space, Dataspace::Simple { dims, .. } if dims.len() > 1);
            multi
                && self
                    .att_type(a)
                    .is_ok_and(|(_, t)| !matches!(t, NcType::Char | NcType::String))
        })
    }

    /// An attribute's values; `None` for attributes netCDF does not show.
    fn att_values(&self, a: &AttributeMessage) -> Result<Option<Values>> {
        // Attributes of types netCDF cannot represent are not shown, as netcdf-c skips them.
        let Ok((dt, typ)) = self.att_type(a) else {
            return Ok(None);
        };
        let n = a.space.num_elements().unwrap_or(0) as usize;
        let es = dt.size() as usize;
        if a.data.len() < n.saturating_mul(es) {
            return Err(Error::with_detail(
                ErrorKind::Hdf,
                format!("attribute {} holds fewer bytes than its shape", a.name),
            ));
        }
        let reader = HeapOnly {
            h5: &self.h5,
            cache: self.heaps,
        };
        Ok(Some(match (&dt, typ) {
            (Datatype::String { size, .. }, _) if matches!(a.space, Dataspace::Simple { .. }) => {
                // netcdf-c reads an array of fixed-length strings as NC_STRING: each element up
                // to its first NUL.
                let size = (*size as usize).max(1);
                Values::String(
                    a.data[..n * size]
                        .chunks_exact(size)
                        .map(|e| {
                            let end = e.iter().position(|&c| c == 0).unwrap_or(e.len());
                            Some(String::from_utf8_lossy(&e[..end]).into_owned())
                        })
                        .collect(),
                )
            }
            (Datatype::String { size, .. }, _) => {
                // A scalar fixed-length string is NC_CHAR text: all its characters.
                Values::Char(a.data[..n * *size as usize].to_vec())
            }
            (_, NcType::String) | (_, NcType::User(_)) => {
                let mut out = Values::with_capacity(typ, n);
                for i in 0..n {
                    let v = types::decode_value(&dt, &a.data[i * es..], &reader, 0)?;
                    match (&mut out, v) {
                        (Values::String(s), Value::String(x)) => s.push(x),
                        (Values::User(_, u), v) => u.push(v),
                        _ => return Err(Error::new(ErrorKind::BadType)),
                    }
                }
                out
            }
            (dt, typ) if types::needs_conversion(dt) => {
                let mut raw = vec![0u8; n * typ.atomic_size().ok_or(ErrorKind::BadType)?];
                types::convert_to_native(dt, typ, &a.data[..n * es], &mut raw)?;
                crate::convert::values_from_ne_bytes(typ, &raw)?
            }
            _ => {
                let mut raw = a.data[..n * es].to_vec();
                if types::is_big_endian(&dt) == cfg!(target_endian = "little") && es > 1 {
                    for e in raw.chunks_exact_mut(es) {
                        e.reverse();
                    }
                }
                crate::convert::values_from_ne_bytes(typ, &raw)?
            }
        }))
    }

    /// Stores an attribute whose name the model's rules reject, as netcdf-c still shows it.
    fn raw_put_att(
        &mut self,
        g: GroupId,
        var: Option<crate::model::VarId>,
        name: &str,
        a: &AttributeMessage,
    ) -> Result<()> {
        if let Some(values) = self.att_values(a)? {
            self.schema.atts_mut(g, var).push(crate::model::Attribute {
                name: name.to_string(),
                values,
            });
        }
        Ok(())
    }
}

/// Global heap access through the heap cache, in one file.
pub(crate) struct HeapOnly<'a> {
    pub(crate) h5: &'a Hdf5File,
    pub(crate) cache: &'a super::HeapCache,
}

impl HeapReader for HeapOnly<'_> {
    fn vlen_bytes(&self, element: &[u8]) -> Result<Option<(u32, Vec<u8>)>> {
        self.cache.vlen_bytes(self.h5, element)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_list_in_netcdf_c_order() {
        let pipeline =
            |ids: &[(u32, &[u32])]| netcdf_filter_list(ids.iter().map(|(i, p)| (*i, p.to_vec())));
        // deflate, shuffle, fletcher32 as stored: fletcher32 first, then shuffle.
        assert_eq!(
            pipeline(&[(1, &[6]), (2, &[4]), (3, &[])]),
            [(3, vec![]), (2, vec![4]), (1, vec![6])]
        );
        // A repeated filter keeps its place and takes the last parameters.
        assert_eq!(
            pipeline(&[(2, &[4]), (1, &[2]), (2, &[8]), (32000, &[1, 2])]),
            [(2, vec![8]), (1, vec![2]), (32000, vec![1, 2])]
        );
        assert_eq!(
            netcdf_filter_params(4, &[1 | 2 | 32 | 128, 8, 32, 8]),
            [34, 8]
        );
    }
}
