//! The definitions of a netCDF-4 dataset being written, whatever stores it (HDF5 or NCZarr):
//! `nc_def_*`, `nc_put_att`, renames, fill and storage settings, with netcdf-c's checks and
//! error codes (`libhdf5/hdf5var.c` `nc_def_var_extra`, `hdf5dim.c`, `hdf5attr.c`; the classic
//! model's restrictions give NC_ESTRICTNC3).
//!
//! [`Defs`] holds the schema and each variable's storage settings; a storage layer implements
//! [`Host`] (create objects, rename them, write data, flush) and gets its `BackendMut` from
//! `nc4_backend_mut!`.

pub(crate) mod chunking;
mod host;
pub(crate) mod quantize;

pub(crate) use host::{nc4_backend_mut, Host};

use crate::backend::{Chunking, Format};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{normalize_name, DimId, GroupId, NcType, Schema, UserType, Values, VarId};

/// Largest compact dataset netcdf-c allows (`SIXTY_FOUR_KB`).
const MAX_COMPACT: u64 = 65536;
/// HDF5 filter ids netcdf-c handles itself.
const DEFLATE: u32 = 1;
const SHUFFLE: u32 = 2;
const FLETCHER32: u32 = 3;
const SZIP: u32 = 4;
/// Largest szip block (`NC_MAX_PIXELS_PER_BLOCK`).
const MAX_PIXELS_PER_BLOCK: u32 = 32;

/// The `_NCProperties` text of files we write.
pub(crate) fn provenance() -> String {
    format!("version=2,purecdf={}", env!("CARGO_PKG_VERSION"))
}

/// The storage class of a variable (`NC_CONTIGUOUS`, `NC_COMPACT`, `NC_CHUNKED`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StorageKind {
    Contiguous,
    Compact,
    Chunked,
}

/// A variable's storage settings.
#[derive(Debug, Clone, Default)]
pub(crate) struct VarSettings {
    /// netcdf-c's `var->storage` once set explicitly or by a filter (`None`: the choice
    /// `nc_def_var` makes, chunked when a dimension is unlimited, else contiguous).
    pub(crate) storage: Option<StorageKind>,
    /// Explicit chunk sizes (`None`: netcdf-c's defaults). Kept while the storage is switched
    /// to contiguous or compact, as netcdf-c keeps `var->chunksizes`.
    pub(crate) chunks: Option<Vec<u64>>,
    pub(crate) shuffle: bool,
    pub(crate) deflate: Option<u32>,
    /// How many of [`VarSettings::filters`] were defined before deflate: the pipeline is
    /// Fletcher-32, shuffle, then deflate and the other filters in definition order (netcdf-c
    /// 4.9.0), a redefinition keeping the first position.
    pub(crate) deflate_pos: usize,
    pub(crate) fletcher32: bool,
    /// Other filters, in definition order.
    pub(crate) filters: Vec<(u32, Vec<u32>)>,
    /// Explicit byte order.
    pub(crate) big_endian: Option<bool>,
    /// Quantization of float data (method and number of significant digits or bits).
    pub(crate) quantize: Option<(crate::backend::Quantize, i32)>,
}

/// The definitions of a dataset being written.
#[derive(Debug)]
pub(crate) struct Defs {
    pub(crate) schema: Schema,
    pub(crate) format: Format,
    /// In define mode.
    pub(crate) define: bool,
    /// File-wide fill mode for variables defined from now on.
    pub(crate) fill: bool,
    /// Storage settings, by variable.
    pub(crate) vars: Vec<VarSettings>,
    /// The length netcdf-c gives each loaded unlimited dimension at open (its coordinate
    /// variable's extent then, or 0 for a dimension without one), which its default chunk
    /// sizes use; dimensions defined since count as 0, as in netcdf-c (writes never update it).
    pub(crate) open_lens: Vec<u64>,
}

impl Defs {
    /// Empty definitions of a new dataset, in define mode.
    pub(crate) fn new(format: Format) -> Defs {
        Defs {
            schema: Schema::default(),
            format,
            define: true,
            fill: true,
            vars: Vec::new(),
            open_lens: Vec::new(),
        }
    }

    fn classic_model(&self) -> bool {
        self.format == Format::Netcdf4Classic
    }

    /// Enters define mode for a definition: netCDF-4 files do so by themselves, classic-model
    /// files must already be there (NC_ENOTINDEFINE).
    fn need_define(&mut self) -> Result<()> {
        if !self.define {
            if self.classic_model() {
                return Err(Error::new(ErrorKind::NotInDefine));
            }
            self.define = true;
        }
        Ok(())
    }

    fn check_group(&self, g: GroupId) -> Result<()> {
        if g.0 >= self.schema.groups.len() {
            return Err(Error::new(ErrorKind::BadGrpId));
        }
        Ok(())
    }

    fn check_var(&self, var: VarId) -> Result<()> {
        if var.0 >= self.schema.vars.len() {
            return Err(Error::new(ErrorKind::NotVar));
        }
        Ok(())
    }

    /// Storage settings may change only before the variable's storage exists (NC_ELATEDEF);
    /// `created` says whether it does.
    fn settable(&mut self, var: VarId, created: bool) -> Result<&mut VarSettings> {
        self.check_var(var)?;
        if created {
            return Err(Error::new(ErrorKind::LateDef));
        }
        Ok(&mut self.vars[var.0])
    }

    /// True when a name is free for a new object in group `g` (variables, groups and types
    /// share one namespace).
    fn name_free(&self, g: GroupId, name: &str) -> bool {
        let grp = self.schema.group(g);
        !(grp.vars.iter().any(|v| self.schema.var(*v).name == name)
            || grp
                .groups
                .iter()
                .any(|c| self.schema.group(*c).name == name)
            || grp
                .types
                .iter()
                .any(|t| self.schema.user_type(*t).name == name))
    }

    fn has_filters(&self, var: VarId) -> bool {
        let v = &self.vars[var.0];
        v.shuffle || v.fletcher32 || v.deflate.is_some() || !v.filters.is_empty()
    }

    /// The storage a variable gets, as netcdf-c's `var->storage` and `var->chunksizes` decide
    /// it: what was set explicitly (a filter switches to chunked), else chunked when a dimension
    /// is unlimited and contiguous otherwise; chunk sizes explicit or netcdf-c's defaults.
    pub(crate) fn effective_chunking(&self, var: VarId) -> Chunking {
        let def = self.schema.var(var);
        let st = &self.vars[var.0];
        let unlimited = def.dims.iter().any(|d| self.schema.dim(*d).unlimited);
        let kind = st.storage.unwrap_or(if unlimited {
            StorageKind::Chunked
        } else {
            StorageKind::Contiguous
        });
        match kind {
            StorageKind::Compact => Chunking::Compact,
            StorageKind::Chunked if !def.dims.is_empty() => Chunking::Chunked(
                st.chunks
                    .clone()
                    .unwrap_or_else(|| self.default_chunks(var)),
            ),
            _ => Chunking::Contiguous,
        }
    }

    fn default_chunks(&self, var: VarId) -> Vec<u64> {
        let def = self.schema.var(var);
        let lens: Vec<u64> = def
            .dims
            .iter()
            .map(|d| match self.schema.dim(*d) {
                dim if dim.unlimited => self.open_lens.get(d.0).copied().unwrap_or(0),
                dim => dim.len,
            })
            .collect();
        let unl: Vec<bool> = def
            .dims
            .iter()
            .map(|d| self.schema.dim(*d).unlimited)
            .collect();
        let ts = match def.typ {
            NcType::String => 8,
            NcType::User(t) => match self.schema.user_type(t).kind {
                crate::model::UserTypeKind::Vlen { .. } => 16,
                _ => self.schema.type_size(def.typ) as u64,
            },
            t => t.atomic_size().unwrap_or(1) as u64,
        };
        chunking::default_chunk_sizes(&lens, &unl, ts)
    }

    /// The filters in pipeline order, as netcdf-c reports them: fletcher32, shuffle, deflate,
    /// then the others in definition order.
    pub(crate) fn filter_list(&self, var: VarId) -> Vec<(u32, Vec<u32>)> {
        let v = &self.vars[var.0];
        let mut out = Vec::new();
        if v.fletcher32 {
            out.push((FLETCHER32, Vec::new()));
        }
        if v.shuffle {
            out.push((SHUFFLE, Vec::new()));
        }
        let at = v.deflate_pos.min(v.filters.len());
        out.extend(v.filters[..at].iter().cloned());
        if let Some(l) = v.deflate {
            out.push((DEFLATE, vec![l]));
        }
        out.extend(v.filters[at..].iter().cloned());
        out
    }

    /// Refreshes the storage description the schema reports for a variable.
    pub(crate) fn update_storage_info(&mut self, var: VarId) {
        let chunking = self.effective_chunking(var);
        let filters = self.filter_list(var);
        let typ = self.schema.var(var).typ;
        let be = self.vars[var.0].big_endian;
        let info = &mut self.schema.vars[var.0].storage;
        info.chunk_sizes = match &chunking {
            Chunking::Chunked(c) => Some(c.clone()),
            _ => None,
        };
        info.compact = chunking == Chunking::Compact;
        info.filters = filters;
        info.big_endian = (typ.is_numeric() && typ.atomic_size().is_some_and(|s| s > 0))
            .then_some(be.unwrap_or(false));
    }

    pub(crate) fn redef(&mut self) -> Result<()> {
        if self.define {
            return Err(Error::new(ErrorKind::InDefine));
        }
        self.define = true;
        Ok(())
    }

    pub(crate) fn def_dim(
        &mut self,
        g: GroupId,
        name: &str,
        len: u64,
        unlimited: bool,
    ) -> Result<DimId> {
        self.check_group(g)?;
        self.need_define()?;
        let unlimited = unlimited || len == 0;
        if unlimited && self.classic_model() && self.schema.dims.iter().any(|d| d.unlimited) {
            return fail(
                ErrorKind::Unlimit,
                format!("{name}: one unlimited dimension only"),
            );
        }
        // The classic model keeps the 64-bit offset format's 32-bit lengths (hdf5dim.c).
        if self.classic_model() && !unlimited && len > u64::from(u32::MAX) {
            return fail(ErrorKind::DimSize, format!("dimension {name}"));
        }
        if len > u64::from(u32::MAX) * 2 && !unlimited {
            return fail(ErrorKind::DimSize, format!("dimension {name}"));
        }
        let id = self
            .schema
            .add_dim(g, name, if unlimited { 0 } else { len }, unlimited)?;
        Ok(id)
    }

    pub(crate) fn def_var(
        &mut self,
        g: GroupId,
        name: &str,
        typ: NcType,
        dims: &[DimId],
    ) -> Result<VarId> {
        self.check_group(g)?;
        self.need_define()?;
        let name = normalize_name(name)?;
        if self.classic_model() && !typ.is_classic() {
            return fail(ErrorKind::StrictNc3, format!("variable {name}"));
        }
        if let NcType::User(t) = typ {
            if t.0 >= self.schema.types.len() {
                return fail(ErrorKind::BadType, format!("variable {name}"));
            }
        }
        if dims.len() > 1024 {
            return fail(ErrorKind::MaxDims, format!("variable {name}"));
        }
        // netcdf-c 4.9 accepts any dimension of the file, visible from the group or not.
        if dims.iter().any(|d| d.0 >= self.schema.dims.len()) {
            return fail(ErrorKind::BadDim, format!("variable {name}"));
        }
        if !self.name_free(g, &name) {
            return fail(ErrorKind::NameInUse, format!("variable {name}"));
        }
        let id = self.schema.add_var(g, &name, typ, dims)?;
        // The file's fill mode reaches only the atomic non-string types (netcdf-c NC4_def_var).
        let atomic = typ.atomic_size().is_some() && typ != NcType::String;
        self.schema.vars[id.0].no_fill = atomic && !self.fill;
        self.vars.push(VarSettings::default());
        self.update_storage_info(id);
        Ok(id)
    }

    /// `nc_put_att`; `created` says whether the variable's storage exists (a `_FillValue` is
    /// then too late).
    pub(crate) fn put_att(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        values: Values,
        created: bool,
    ) -> Result<()> {
        self.check_group(g)?;
        if let Some(v) = var {
            self.check_var(v)?;
        }
        let key = normalize_name(name)?;
        let t = values.nc_type();
        if self.classic_model() && !t.is_classic() {
            return fail(ErrorKind::StrictNc3, format!("attribute {key}"));
        }
        if let NcType::User(id) = t {
            if id.0 >= self.schema.types.len() {
                return fail(ErrorKind::BadType, format!("attribute {key}"));
            }
        }
        let exists = self.schema.atts(g, var).iter().any(|a| a.name == key);
        if !exists && !self.define && self.classic_model() {
            return fail(ErrorKind::NotInDefine, format!("attribute {key}"));
        }
        if let (Some(v), "_FillValue") = (var, key.as_str()) {
            if created {
                return Err(Error::new(ErrorKind::LateFill));
            }
            if t != self.schema.var(v).typ {
                return fail(ErrorKind::BadType, "_FillValue type mismatch");
            }
            if values.len() != 1 {
                return fail(ErrorKind::Inval, "_FillValue must hold one value");
            }
        }
        if values.len() > i32::MAX as usize {
            return fail(
                ErrorKind::Inval,
                format!("attribute {key}: too many values"),
            );
        }
        self.schema.put_att(g, var, &key, values)
    }

    /// `nc_del_att`; `created` as for [`Defs::put_att`].
    pub(crate) fn del_att(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        created: bool,
    ) -> Result<()> {
        self.check_group(g)?;
        if self.classic_model() && !self.define {
            return Err(Error::new(ErrorKind::NotInDefine));
        }
        if let Some(v) = var {
            self.check_var(v)?;
            if name == "_FillValue" && created {
                return Err(Error::new(ErrorKind::LateFill));
            }
        }
        let key = normalize_name(name).unwrap_or_else(|_| name.to_string());
        let atts = self.schema.atts_mut(g, var);
        match atts.iter().position(|a| a.name == key) {
            Some(i) => {
                atts.remove(i);
                Ok(())
            }
            None => fail(ErrorKind::NotAtt, format!("attribute {key}")),
        }
    }

    /// Checks `nc_rename_dim`; returns the normalised new name.
    pub(crate) fn check_rename_dim(&self, dim: DimId, name: &str) -> Result<String> {
        let new = normalize_name(name)?;
        let Some(d) = self.schema.dims.get(dim.0) else {
            return Err(Error::new(ErrorKind::BadDim));
        };
        if self.schema.find_dim(d.group, &new).is_some() {
            return fail(ErrorKind::NameInUse, format!("dimension {new}"));
        }
        Ok(new)
    }

    /// Checks `nc_rename_var`; returns the normalised new name.
    pub(crate) fn check_rename_var(&self, var: VarId, name: &str) -> Result<String> {
        self.check_var(var)?;
        let new = normalize_name(name)?;
        let g = self.schema.var(var).group;
        if !self.name_free(g, &new) {
            return fail(ErrorKind::NameInUse, format!("variable {new}"));
        }
        Ok(new)
    }

    pub(crate) fn rename_att(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        old: &str,
        new: &str,
    ) -> Result<()> {
        self.check_group(g)?;
        let new = normalize_name(new)?;
        let atts = self.schema.atts_mut(g, var);
        if atts.iter().any(|a| a.name == new) {
            return fail(ErrorKind::NameInUse, format!("attribute {new}"));
        }
        match atts.iter_mut().find(|a| a.name == old) {
            Some(a) => {
                a.name = new;
                Ok(())
            }
            None => fail(ErrorKind::NotAtt, format!("attribute {old}")),
        }
    }

    /// `nc_def_var_fill` without a value.
    pub(crate) fn def_var_fill(&mut self, var: VarId, no_fill: bool, created: bool) -> Result<()> {
        let typ = {
            self.settable(var, created)?;
            self.schema.var(var).typ
        };
        if no_fill && typ == NcType::String {
            return Err(Error::new(ErrorKind::Inval));
        }
        self.schema.vars[var.0].no_fill = no_fill;
        Ok(())
    }

    pub(crate) fn set_fill(&mut self, fill: bool) -> Result<bool> {
        Ok(std::mem::replace(&mut self.fill, fill))
    }

    pub(crate) fn def_grp(&mut self, parent: GroupId, name: &str) -> Result<GroupId> {
        self.check_group(parent)?;
        if self.classic_model() {
            return Err(Error::new(ErrorKind::StrictNc3));
        }
        self.need_define()?;
        let name = normalize_name(name)?;
        if !self.name_free(parent, &name) {
            return fail(ErrorKind::NameInUse, format!("group {name}"));
        }
        self.schema.add_group(parent, &name)
    }

    /// Checks `nc_rename_grp`; returns the normalised new name.
    pub(crate) fn check_rename_grp(&self, group: GroupId, name: &str) -> Result<String> {
        self.check_group(group)?;
        let Some(parent) = self.schema.group(group).parent else {
            return Err(Error::new(ErrorKind::BadGrpId));
        };
        let new = normalize_name(name)?;
        if !self.name_free(parent, &new) {
            return fail(ErrorKind::NameInUse, format!("group {new}"));
        }
        Ok(new)
    }

    pub(crate) fn def_type(&mut self, group: GroupId, t: UserType) -> Result<crate::model::TypeId> {
        self.check_group(group)?;
        if self.classic_model() {
            return Err(Error::new(ErrorKind::StrictNc3));
        }
        self.need_define()?;
        if !self.name_free(group, &t.name) {
            return fail(ErrorKind::NameInUse, format!("type {}", t.name));
        }
        self.schema.add_type(group, t)
    }

    pub(crate) fn def_var_chunking(
        &mut self,
        created: bool,
        var: VarId,
        chunking: Chunking,
    ) -> Result<()> {
        self.settable(var, created)?;
        let has_filters = self.has_filters(var);
        let def = self.schema.var(var);
        let unlimited = def.dims.iter().any(|d| self.schema.dim(*d).unlimited);
        let (kind, chunks) = match &chunking {
            Chunking::Contiguous | Chunking::Compact if has_filters || unlimited => {
                return Err(Error::new(ErrorKind::Inval));
            }
            Chunking::Contiguous => (StorageKind::Contiguous, None),
            Chunking::Compact => {
                let n: u64 = def.dims.iter().map(|d| self.schema.dim(*d).len).product();
                let size = self.schema.type_size(def.typ) as u64;
                if n.saturating_mul(size) > MAX_COMPACT {
                    return Err(Error::new(ErrorKind::VarSize));
                }
                (StorageKind::Compact, None)
            }
            Chunking::Chunked(_) if def.dims.is_empty() => {
                return Err(Error::new(ErrorKind::Inval));
            }
            // No sizes, or a first size of 0: netcdf-c's defaults (`nc_def_var_extra` then
            // `nc4_find_default_chunksizes2`).
            Chunking::Chunked(c) if c.first().is_none_or(|c0| *c0 == 0) => {
                (StorageKind::Chunked, Some(None))
            }
            Chunking::Chunked(c) => {
                if c.len() != def.dims.len() || c.contains(&0) {
                    return Err(Error::new(ErrorKind::BadChunk));
                }
                let size = self.schema.type_size(def.typ).max(1) as u64;
                let bytes = c.iter().try_fold(size, |a, x| a.checked_mul(*x));
                if bytes.is_none_or(|b| b > u64::from(u32::MAX)) {
                    return Err(Error::new(ErrorKind::BadChunk));
                }
                for (d, cs) in def.dims.iter().zip(c) {
                    let dim = self.schema.dim(*d);
                    if !dim.unlimited && dim.len > 0 && *cs > dim.len {
                        return Err(Error::new(ErrorKind::BadChunk));
                    }
                }
                (StorageKind::Chunked, Some(Some(c.clone())))
            }
        };
        let st = &mut self.vars[var.0];
        st.storage = Some(kind);
        if let Some(c) = chunks {
            st.chunks = c;
        }
        self.update_storage_info(var);
        Ok(())
    }

    pub(crate) fn def_var_deflate(
        &mut self,
        created: bool,
        var: VarId,
        shuffle: bool,
        level: Option<u32>,
    ) -> Result<()> {
        self.settable(var, created)?;
        if level.is_some_and(|l| l > 9) {
            return Err(Error::new(ErrorKind::Inval));
        }
        self.filters_allowed(var, shuffle || level.is_some_and(|l| l > 0))?;
        if let Some(l) = level.filter(|l| *l > 0) {
            self.check_new_filter(var, DEFLATE, &[l])?;
        }
        let st = &mut self.vars[var.0];
        if shuffle {
            st.shuffle = true;
            st.storage = Some(StorageKind::Chunked);
        }
        if let Some(l) = level.filter(|l| *l > 0) {
            if st.deflate.is_none() {
                st.deflate_pos = st.filters.len();
            }
            st.deflate = Some(l);
            st.storage = Some(StorageKind::Chunked);
        }
        self.update_storage_info(var);
        Ok(())
    }

    pub(crate) fn def_var_fletcher32(&mut self, created: bool, var: VarId, on: bool) -> Result<()> {
        self.settable(var, created)?;
        self.filters_allowed(var, on)?;
        if on {
            self.vars[var.0].fletcher32 = true;
            self.vars[var.0].storage = Some(StorageKind::Chunked);
        }
        self.update_storage_info(var);
        Ok(())
    }

    pub(crate) fn def_var_endian(
        &mut self,
        created: bool,
        var: VarId,
        big: Option<bool>,
    ) -> Result<()> {
        self.settable(var, created)?;
        let t = self.schema.var(var).typ;
        if !(t.is_numeric() && t.atomic_size().is_some()) {
            return Err(Error::new(ErrorKind::Inval));
        }
        self.vars[var.0].big_endian = big;
        self.update_storage_info(var);
        Ok(())
    }

    pub(crate) fn def_var_quantize(
        &mut self,
        created: bool,
        var: VarId,
        q: Option<(crate::backend::Quantize, i32)>,
    ) -> Result<()> {
        self.settable(var, created)?;
        if let Some((mode, nsd)) = q {
            let double = match self.schema.var(var).typ {
                NcType::Float => false,
                NcType::Double => true,
                _ => return Err(Error::new(ErrorKind::Inval)),
            };
            if nsd <= 0 || nsd > quantize::max_nsd(mode, double) {
                return Err(Error::new(ErrorKind::Inval));
            }
        }
        self.vars[var.0].quantize = q;
        Ok(())
    }

    /// `nc_def_var_filter`; `writable` says whether the storage can apply filter `id`.
    pub(crate) fn def_var_filter(
        &mut self,
        created: bool,
        var: VarId,
        id: u32,
        params: &[u32],
        writable: bool,
    ) -> Result<()> {
        self.settable(var, created)?;
        self.filters_allowed(var, true)?;
        if id == 0 || id > 65535 {
            return Err(Error::new(ErrorKind::Filter));
        }
        // Only the filters the storage can apply are available (netcdf-c: H5Zfilter_avail).
        if !writable {
            return fail(ErrorKind::NoFilter, format!("filter {id}"));
        }
        self.check_new_filter(var, id, params)?;
        let st = &mut self.vars[var.0];
        st.storage = Some(StorageKind::Chunked);
        match id {
            DEFLATE => {
                if st.deflate.is_none() {
                    st.deflate_pos = st.filters.len();
                }
                st.deflate = Some(params.first().copied().unwrap_or(1));
            }
            SHUFFLE => st.shuffle = true,
            FLETCHER32 => st.fletcher32 = true,
            _ => {
                if let Some(f) = st.filters.iter_mut().find(|f| f.0 == id) {
                    f.1 = params.to_vec();
                } else {
                    st.filters.push((id, params.to_vec()));
                }
            }
        }
        self.update_storage_info(var);
        Ok(())
    }

    /// netcdf-c's checks for a filter not yet on the variable (`NC4_hdf5_def_var_filter`):
    /// deflate takes one level 0..=9 and excludes szip; szip takes an options mask and an even
    /// block size up to 32 (and no more than the variable's elements), and excludes deflate.
    fn check_new_filter(&self, var: VarId, id: u32, params: &[u32]) -> Result<()> {
        let st = &self.vars[var.0];
        let have_szip = st.filters.iter().any(|f| f.0 == SZIP);
        match id {
            DEFLATE if st.deflate.is_none() => {
                let [level] = params else {
                    return fail(ErrorKind::Filter, "deflate takes one parameter");
                };
                if *level > 9 || have_szip {
                    return Err(Error::new(ErrorKind::Inval));
                }
            }
            SZIP if !have_szip => {
                let [_, ppb] = params else {
                    return fail(ErrorKind::Filter, "szip takes two parameters");
                };
                if ppb % 2 != 0 || *ppb > MAX_PIXELS_PER_BLOCK || st.deflate.is_some() {
                    return Err(Error::new(ErrorKind::Inval));
                }
                let def = self.schema.var(var);
                let elems: u64 = def
                    .dims
                    .iter()
                    .map(|d| self.schema.dim(*d).len)
                    .filter(|l| *l > 0)
                    .product();
                if u64::from(*ppb) > elems {
                    return Err(Error::new(ErrorKind::Inval));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Filters are refused on scalars (NC_EINVAL) and on variable-size types (NC_EFILTER).
    fn filters_allowed(&self, var: VarId, adding: bool) -> Result<()> {
        if !adding {
            return Ok(());
        }
        let def = self.schema.var(var);
        if def.dims.is_empty() {
            return Err(Error::new(ErrorKind::Inval));
        }
        if self.variable_size(def.typ) {
            return Err(Error::new(ErrorKind::Filter));
        }
        Ok(())
    }

    fn variable_size(&self, t: NcType) -> bool {
        use crate::model::UserTypeKind;
        match t {
            NcType::String => true,
            NcType::User(id) => match &self.schema.user_type(id).kind {
                UserTypeKind::Vlen { .. } => true,
                UserTypeKind::Compound { fields, .. } => {
                    fields.iter().any(|f| self.variable_size(f.typ))
                }
                _ => false,
            },
            _ => false,
        }
    }
}
