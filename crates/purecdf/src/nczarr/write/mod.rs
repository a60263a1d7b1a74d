//! Writing NCZarr and Zarr stores: the netCDF-4 definitions (`crate::nc4def`) kept as Zarr
//! metadata (see [`json`]) and chunks (see [`chunks`]).
//!
//! At `enddef` (or the first data access) each new variable's array is fixed: shape, chunks
//! (netcdf-c's default chunk sizes, or the variable's shape for contiguous storage), dtype, fill
//! value and codecs (its filters: the last is the `compressor`, the rest `filters`). A chunk
//! one write covers whole is encoded and stored in the background at once; other chunks written
//! are kept decoded in memory and encoded in parallel when the cache grows large, on `sync` and
//! on `close`. Metadata is written after the chunks it describes, so a store never
//! shows an array larger than the chunks written for it. Pure Zarr stores also get their
//! metadata consolidated in `.zmetadata` (written last).

mod background;
mod chunks;
mod json;

use crate::json::{json, Map, Value};

use super::meta::ArrayMeta;
use super::url::{Location, Modes, StoreKind};
use crate::backend::{Backend, Chunking, Format};
use crate::error::{fail, Error, ErrorKind, Result};
use crate::model::{DimId, GroupId, NcType, Schema, Values, VarId, ROOT};
use crate::nc4def::{nc4_backend_mut, Defs, Host};
use crate::selection::Hyperslab;
use purecdf_store::{join_key, Store};

/// An NCZarr or Zarr store being written.
pub(crate) struct NczarrWriter {
    defs: Defs,
    store: std::sync::Arc<dyn Store>,
    modes: Modes,
    /// The array of each variable, once its storage is fixed.
    arrays: Vec<Option<ArrayMeta>>,
    /// Chunks written and not yet stored.
    cache: chunks::ChunkCache,
    closed: bool,
    /// The definitions of an opened store as read: its metadata is rewritten only when they
    /// change.
    loaded: Option<Schema>,
    /// Write metadata only when flushing, after the chunks (S3): a failed upload leaves no
    /// metadata describing chunks that are not there, and a new store without its root
    /// `.zgroup` does not open at all.
    defer_metadata: bool,
}

impl std::fmt::Debug for NczarrWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NczarrWriter")
            .field("store", &self.store)
            .finish()
    }
}

impl Drop for NczarrWriter {
    /// Closes a store that was not closed explicitly; errors are lost here. The encoders' kept
    /// buffers are freed.
    fn drop(&mut self) {
        if !self.closed {
            let _ = self.store_close();
        }
        purecdf_codecs::buffers::release();
    }
}

impl NczarrWriter {
    /// Creates a new store at a parsed location (clobbering unless `noclobber`), in define mode.
    ///
    /// # Errors
    /// NC_EEXIST with `noclobber` when something exists there; system errors.
    pub(crate) fn create(loc: &Location, noclobber: bool) -> Result<NczarrWriter> {
        if noclobber && loc.path.exists() {
            return Err(Error::new(ErrorKind::Exist));
        }
        let store = super::location_store(loc, super::Access::Create)?;
        let mut w = Self::new(store, loc.modes);
        w.defer_metadata = loc.kind == StoreKind::S3;
        Ok(w)
    }

    /// Opens an existing store for writing (data mode), its definitions as [`super::NczarrFile`]
    /// reads them; arrays already stored keep their encoding.
    ///
    /// # Errors
    /// As reading the store; NC_EPERM for NCZarr version 1 stores (read-only, as in netcdf-c).
    pub(crate) fn open(loc: &Location) -> Result<NczarrWriter> {
        let store = super::location_store(loc, super::Access::Write)?;
        let built = super::read_metadata(store.as_ref(), loc.modes)?;
        if built.flavour == super::build::Flavour::V1 {
            return fail(ErrorKind::Perm, "NCZarr version 1 stores are read-only");
        }
        if let Some(a) = built.arrays.iter().find(|a| a.sharding.is_some()) {
            return fail(
                ErrorKind::Perm,
                format!("{}: sharded Zarr v3 arrays are read-only", a.key),
            );
        }
        let mut schema = built.schema;
        schema.groups[ROOT.0]
            .atts
            .retain(|a| !matches!(a.name.as_str(), "_SuperblockVersion" | "_IsNetcdf4"));
        let vars = schema
            .vars
            .iter()
            .map(|v| settings_of(&v.storage))
            .collect();
        let open_lens = schema.dims.iter().map(|d| d.len).collect();
        let defs = Defs {
            schema,
            format: Format::Netcdf4,
            define: false,
            fill: true,
            vars,
            open_lens,
        };
        let modes = Modes {
            zarr: loc.modes.zarr || built.flavour == super::build::Flavour::Pure,
            noxarray: loc.modes.noxarray,
            nc410: loc.modes.nc410 || built.attrs_410,
            named: loc.modes.named,
        };
        Ok(NczarrWriter {
            loaded: Some(defs.schema.clone()),
            defs,
            store: store.into(),
            modes,
            arrays: built.arrays.into_iter().map(Some).collect(),
            cache: chunks::ChunkCache::default(),
            closed: false,
            defer_metadata: loc.kind == StoreKind::S3,
        })
    }

    /// A writer creating a dataset in an empty store; `modes.zarr` writes pure Zarr.
    pub(crate) fn new(store: Box<dyn Store>, modes: Modes) -> NczarrWriter {
        NczarrWriter {
            defs: Defs::new(Format::Netcdf4),
            store: store.into(),
            modes,
            arrays: Vec::new(),
            cache: chunks::ChunkCache::default(),
            closed: false,
            loaded: None,
            defer_metadata: false,
        }
    }

    fn nczarr(&self) -> bool {
        !self.modes.zarr
    }

    /// Where `.zattrs` records attribute types: netcdf-c 4.9.0's key unless the URL asked for
    /// 4.10's (`mode=nc410`) or the store being appended to uses it.
    fn attr_types(&self) -> json::AttrTypes {
        match (self.nczarr(), self.modes.nc410) {
            (false, _) => json::AttrTypes::None,
            (true, false) => json::AttrTypes::Nc490,
            (true, true) => json::AttrTypes::Nc410,
        }
    }

    /// The key prefix of a group (`""` for the root, `"g/h"`).
    fn group_key(&self, g: GroupId) -> String {
        let s = &self.defs.schema;
        let mut parts = Vec::new();
        let mut cur = g;
        while let Some(p) = s.group(cur).parent {
            parts.push(s.group(cur).name.clone());
            cur = p;
        }
        parts.reverse();
        parts.join("/")
    }

    fn var_key(&self, v: VarId) -> String {
        let var = self.defs.schema.var(v);
        join_key(&self.group_key(var.group), &var.name)
    }

    /// The full path of a dimension (`/g/x`), as NCZarr's `dimrefs` name it.
    fn dim_path(&self, d: DimId) -> String {
        let dim = self.defs.schema.dim(d);
        format!("/{}", join_key(&self.group_key(dim.group), &dim.name))
    }

    /// The `.zarray` object of a variable (its current shape). An array already stored keeps
    /// its object, shape aside.
    fn zarray(&self, v: VarId) -> Result<Map> {
        let s = &self.defs.schema;
        let var = s.var(v);
        if let Some(meta) = self.arrays.get(v.0).and_then(Option::as_ref) {
            let mut m = meta.zarray.clone();
            if !var.dims.is_empty() {
                let shape: Vec<u64> = var.dims.iter().map(|d| s.dim(*d).len).collect();
                m.insert("shape".into(), json!(shape));
            }
            // netcdf-c 4.10 keeps its array keys in `.zattrs`, which is written anew without
            // them: they go into `.zarray` (4.10 cannot open the store without them).
            if !m.contains_key("_NCZARR_ARRAY") && !m.contains_key("_nczarr_array") {
                self.nczarr_array_keys(v, &mut m);
            }
            return Ok(m);
        }
        let settings = &self.defs.vars[v.0];
        let big = settings.big_endian == Some(true) && var.typ.atomic_size().is_some_and(|n| n > 1);
        // netcdf-c 4.10 cannot open stores holding vlen-utf8 or `<U1` arrays; in its layout
        // strings are fixed-size bytes and chars `>S1`, as it writes them.
        let nc410 = self.attr_types() == json::AttrTypes::Nc410;
        let fixed_strings = var.typ == NcType::String && nc410;
        let dtype = if fixed_strings {
            format!("|S{}", json::NC410_STRING_BYTES)
        } else if var.typ == NcType::Char && nc410 {
            ">S1".to_string()
        } else {
            json::dtype(var.typ, big)
                .ok_or_else(|| Error::with_detail(ErrorKind::BadType, "user types in NCZarr"))?
        };
        let scalar = var.dims.is_empty();
        let shape: Vec<u64> = if scalar {
            vec![1]
        } else {
            var.dims.iter().map(|d| s.dim(*d).len).collect()
        };
        let chunks: Vec<u64> = match self.defs.effective_chunking(v) {
            Chunking::Chunked(c) if !scalar => c.iter().map(|c| (*c).max(1)).collect(),
            _ => shape.iter().map(|n| (*n).max(1)).collect(),
        };
        let elem = match fixed_strings {
            true => json::NC410_STRING_BYTES,
            false => var.typ.atomic_size().unwrap_or(16),
        };
        let chunk_bytes = chunks.iter().product::<u64>() as usize * elem;
        let mut codecs = Vec::new();
        if var.typ == NcType::String && !fixed_strings {
            codecs.push(super::codecs::Codec::from_config(
                &json!({"id": "vlen-utf8"}),
                elem,
                chunk_bytes,
                "",
            )?);
        }
        for (id, params) in self.defs.filter_list(v) {
            let c = super::codecs::Codec::from_filter(id, &params, elem, chunk_bytes).ok_or_else(
                || Error::with_detail(ErrorKind::NoFilter, format!("filter {id} in NCZarr")),
            )?;
            codecs.push(c);
        }
        let chain = super::codecs::Chain { codecs };
        let (filters, compressor) = chain.zarray_entries();
        let fill = if var.no_fill {
            Value::Null
        } else {
            var.att("_FillValue")
                .map(|a| a.values.clone())
                .or_else(|| crate::convert::default_fill(var.typ))
                .map_or(Value::Null, |f| json::values(&f))
        };
        let mut m = Map::new();
        m.insert("zarr_format".into(), json!(2));
        m.insert("shape".into(), json!(shape));
        m.insert("dtype".into(), json!(dtype));
        m.insert("chunks".into(), json!(chunks));
        m.insert("fill_value".into(), fill);
        m.insert("order".into(), json!("C"));
        m.insert("compressor".into(), compressor);
        m.insert("filters".into(), filters);
        m.insert("dimension_separator".into(), json!("."));
        self.nczarr_array_keys(v, &mut m);
        Ok(m)
    }

    /// Adds a variable's NCZarr array keys to its `.zarray` (none in pure Zarr).
    fn nczarr_array_keys(&self, v: VarId, m: &mut Map) {
        if !self.nczarr() {
            return;
        }
        let var = self.defs.schema.var(v);
        let scalar = var.dims.is_empty();
        let refs: Vec<String> = var.dims.iter().map(|d| self.dim_path(*d)).collect();
        // Zarr arrays are always chunked (a contiguous variable is one chunk), as netcdf-c
        // 4.9.0 records them.
        let storage = if scalar { "scalar" } else { "chunked" };
        m.insert(
            "_NCZARR_ARRAY".into(),
            json!({"dimrefs": refs, "storage": storage}),
        );
        // netcdf-c 4.10 looks for its lower-case keys here too (4.9.0 ignores them).
        let a410 = if scalar {
            json!({"dimension_references": refs, "storage": "chunked", "scalar": 1})
        } else {
            json!({"dimension_references": refs, "storage": "chunked"})
        };
        m.insert("_nczarr_array".into(), a410);
    }

    /// Fixes the arrays of variables defined since the last call.
    fn fix_arrays(&mut self) -> Result<()> {
        for v in 0..self.defs.schema.vars.len() {
            if self.arrays[v].is_none() {
                let key = self.var_key(VarId(v));
                let z = self.zarray(VarId(v))?;
                let meta = ArrayMeta::parse(&z, &key, &join_key(&key, ".zarray"), true)?;
                self.arrays[v] = Some(meta);
            }
        }
        Ok(())
    }

    /// Writes every group's and variable's metadata.
    fn write_metadata(&mut self) -> Result<()> {
        let s = &self.defs.schema;
        // Pure Zarr stores get every object consolidated in `.zmetadata` too, written last
        // (zarr-python's and xarray's `consolidated` form). NCZarr stores do not, unless they
        // have one already: netcdf-c 4.9 would leave it stale when it writes the store.
        // Every object is stored below; the root `.zattrs` and `.zgroup` (which make the store a
        // dataset) and `.zmetadata` go last.
        let consolidated = std::cell::RefCell::new(Map::new());
        let put = |key: String, v: &Value| {
            consolidated.borrow_mut().insert(key, v.clone());
            Ok::<(), Error>(())
        };
        for g in 0..s.groups.len() {
            let gid = GroupId(g);
            let grp = s.group(gid);
            let prefix = self.group_key(gid);
            let mut zgroup = Map::new();
            zgroup.insert("zarr_format".into(), json!(2));
            if self.nczarr() {
                if gid == ROOT {
                    zgroup.insert("_NCZARR_SUPERBLOCK".into(), json!({"version": "2.0.0"}));
                }
                // netcdf-c 4.9.0 has no unlimited dimensions in NCZarr and crashes on the
                // object form: its keys get the current length, 4.10's keep the object.
                let mut dims = Map::new();
                let mut dims_410 = Map::new();
                for d in &grp.dims {
                    let dim = s.dim(*d);
                    let len = if dim.unlimited {
                        json!({"size": dim.len, "unlimited": 1})
                    } else {
                        json!(dim.len)
                    };
                    dims.insert(dim.name.clone(), json!(dim.len));
                    dims_410.insert(dim.name.clone(), len);
                }
                let vars: Vec<&str> = grp.vars.iter().map(|v| s.var(*v).name.as_str()).collect();
                let groups: Vec<&str> = grp
                    .groups
                    .iter()
                    .map(|c| s.group(*c).name.as_str())
                    .collect();
                zgroup.insert(
                    "_NCZARR_GROUP".into(),
                    json!({"dims": dims, "vars": vars, "groups": groups}),
                );
                // The same for netcdf-c 4.10, which reads its keys from `.zgroup` too.
                if gid == ROOT {
                    zgroup.insert("_nczarr_superblock".into(), json!({"version": "2.0.0"}));
                }
                zgroup.insert(
                    "_nczarr_group".into(),
                    json!({"dimensions": dims_410, "arrays": vars, "groups": groups}),
                );
            }
            put(join_key(&prefix, ".zgroup"), &Value::Object(zgroup))?;
            let mut atts = grp.atts.clone();
            // Written in pure Zarr too, as netcdf-c does: readers know the store's `<U1` arrays
            // as netcdf-c's one-byte characters by it.
            if gid == ROOT && !atts.iter().any(|a| a.name == "_NCProperties") {
                atts.push(crate::model::Attribute {
                    name: "_NCProperties".into(),
                    values: Values::Char(crate::nc4def::provenance().into_bytes()),
                });
            }
            put(
                join_key(&prefix, ".zattrs"),
                &json::zattrs(&atts, None, self.attr_types()),
            )?;
        }
        for v in 0..s.vars.len() {
            let vid = VarId(v);
            let key = self.var_key(vid);
            put(join_key(&key, ".zarray"), &Value::Object(self.zarray(vid)?))?;
            let var = s.var(vid);
            let xarray = (!self.modes.noxarray)
                .then(|| var.dims.iter().map(|d| s.dim(*d).name.clone()).collect());
            put(
                join_key(&key, ".zattrs"),
                &json::zattrs(&var.atts, xarray, self.attr_types()),
            )?;
        }
        let consolidated = consolidated.into_inner();
        // Either root object makes a store open by URL in netcdf-c 4.10 (`.zgroup` in 4.9.0):
        // both come after everything else, `.zgroup` last.
        let is_root = |k: &str| k == ".zgroup" || k == ".zattrs";
        let root_last = consolidated
            .iter()
            .filter(|(k, _)| !is_root(k))
            .chain(consolidated.get_key_value(".zattrs"))
            .chain(consolidated.get_key_value(".zgroup"));
        for (key, v) in root_last {
            self.store
                .set(key, &json::text(v))
                .map_err(super::store_err)?;
        }
        // An NCZarr store that already has a `.zmetadata` (another tool consolidated it) gets
        // it rewritten as well: zarr-python would read the old one and miss what changed.
        let keep_current =
            self.modes.zarr || self.store.exists(".zmetadata").map_err(super::store_err)?;
        if keep_current {
            let zmetadata = json!({
                "metadata": Value::Object(consolidated),
                "zarr_consolidated_format": 1,
            });
            self.store
                .set(".zmetadata", &json::text(&zmetadata))
                .map_err(super::store_err)?;
        }
        Ok(())
    }

    /// Leaves define mode for a data access, as netCDF-4 does by itself.
    fn data_mode(&mut self) -> Result<()> {
        if self.defs.define {
            self.materialize()?;
            self.defs.define = false;
        }
        Ok(())
    }

    /// Stores every cached chunk, then the metadata describing them, then flushes the store
    /// (`durable`: synced to the disk, as `nc_sync`; otherwise as `nc_close`, written out).
    fn flush_all(&mut self, durable: bool) -> Result<()> {
        self.fix_arrays()?;
        self.cache.flush(self.store.as_ref(), &self.arrays)?;
        if self.loaded.as_ref() != Some(&self.defs.schema) {
            self.write_metadata()?;
            self.loaded = None;
        }
        if durable {
            self.store.sync().map_err(super::store_err)
        } else {
            self.store.flush().map_err(super::store_err)
        }
    }
}

impl Backend for NczarrWriter {
    fn format(&self) -> Format {
        Format::Netcdf4
    }

    fn schema(&self) -> &Schema {
        &self.defs.schema
    }

    fn extended_format(&self) -> crate::ExtendedFormat {
        crate::ExtendedFormat::Nczarr
    }

    fn read_raw(&self, var: VarId, slab: &Hyperslab, out: &mut [u8]) -> Result<()> {
        let Some(meta) = self.arrays.get(var.0).and_then(Option::as_ref) else {
            // Not stored yet (define mode): the fill value throughout, zeros without one.
            let def = self.defs.schema.var(var);
            let fill = def
                .att("_FillValue")
                .map(|a| a.values.clone())
                .or_else(|| crate::convert::default_fill(def.typ))
                .filter(|_| !def.no_fill);
            match fill
                .map(|f| crate::convert::values_to_ne_bytes(&f))
                .transpose()?
            {
                Some(one) if !one.is_empty() => {
                    for e in out.chunks_exact_mut(one.len()) {
                        e.copy_from_slice(&one);
                    }
                }
                _ => out.fill(0),
            }
            return Ok(());
        };
        self.cache
            .read_raw(self.store.as_ref(), var, meta, slab, out)
    }

    fn read_values(&self, var: VarId, slab: &Hyperslab) -> Result<Values> {
        if self.defs.schema.var(var).typ == NcType::String {
            let Some(meta) = self.arrays.get(var.0).and_then(Option::as_ref) else {
                let n = slab.num_elements() as usize;
                return Ok(Values::String(vec![Some(String::new()); n]));
            };
            return self
                .cache
                .read_strings(self.store.as_ref(), var, meta, slab)
                .map(Values::String);
        }
        crate::backend::read_atomic_values(self, var, slab)
    }
}

impl Host for NczarrWriter {
    fn defs(&self) -> &Defs {
        &self.defs
    }

    fn defs_mut(&mut self) -> &mut Defs {
        &mut self.defs
    }

    fn created(&self, var: VarId) -> bool {
        self.arrays.get(var.0).is_some_and(Option::is_some)
    }

    fn materialize(&mut self) -> Result<()> {
        self.fix_arrays()?;
        if self.defer_metadata {
            return Ok(());
        }
        self.write_metadata()
    }

    fn added_var(&mut self, _var: VarId) {
        self.arrays.push(None);
    }

    fn store_rename_dim(&mut self, dim: DimId, new: &str) -> Result<()> {
        self.defs.schema.dims[dim.0].name = new.to_string();
        Ok(())
    }

    fn store_rename_var(&mut self, var: VarId, new: &str) -> Result<()> {
        if self.created(var) {
            return fail(ErrorKind::NotBuilt, "renaming a stored NCZarr variable");
        }
        self.defs.schema.vars[var.0].name = new.to_string();
        Ok(())
    }

    fn store_rename_grp(&mut self, group: GroupId, new: &str) -> Result<()> {
        if self.arrays.iter().any(Option::is_some) {
            return fail(
                ErrorKind::NotBuilt,
                "renaming a group of a stored NCZarr dataset",
            );
        }
        self.defs.schema.groups[group.0].name = new.to_string();
        Ok(())
    }

    fn filter_writable(&self, id: u32) -> bool {
        // A user filter needs both halves, as in netcdf-c: the filter and its Zarr form.
        let user = || {
            crate::filters::zarr_codec(id).is_some()
                && u16::try_from(id).is_ok_and(purecdf_hdf5::filter::is_available)
        };
        super::codecs::Codec::from_filter(id, &[], 4, 4).is_some() || user()
    }

    fn store_write_raw(&mut self, var: VarId, slab: &Hyperslab, data: &[u8]) -> Result<()> {
        self.data_mode()?;
        self.grow(var, slab)?;
        let meta = self.arrays[var.0].as_ref().ok_or(ErrorKind::NotVar)?;
        self.cache.write_raw(&self.store, var, meta, slab, data)?;
        if self.cache.is_full() {
            self.cache.flush(self.store.as_ref(), &self.arrays)?;
        }
        Ok(())
    }

    fn store_write_values(&mut self, var: VarId, slab: &Hyperslab, values: &Values) -> Result<()> {
        match values {
            Values::String(s) => {
                self.data_mode()?;
                self.grow(var, slab)?;
                let meta = self.arrays[var.0].as_ref().ok_or(ErrorKind::NotVar)?;
                self.cache
                    .write_strings(self.store.as_ref(), var, meta, slab, s)
            }
            Values::User(..) => fail(ErrorKind::BadType, "user types in NCZarr"),
            other => {
                let raw = crate::convert::values_to_ne_bytes(other)?;
                self.store_write_raw(var, slab, &raw)
            }
        }
    }

    fn store_sync(&mut self) -> Result<()> {
        self.flush_all(true)
    }

    fn store_close(&mut self) -> Result<()> {
        if self.closed {
            return Ok(());
        }
        self.closed = true;
        self.flush_all(false)
    }
}

/// The storage settings an opened variable had: chunked, with its filters.
fn settings_of(st: &crate::model::StorageInfo) -> crate::nc4def::VarSettings {
    let mut s = crate::nc4def::VarSettings {
        storage: Some(crate::nc4def::StorageKind::Chunked),
        chunks: st.chunk_sizes.clone(),
        big_endian: st.big_endian,
        ..Default::default()
    };
    for (id, params) in &st.filters {
        match id {
            1 => {
                s.deflate_pos = s.filters.len();
                s.deflate = Some(params.first().copied().unwrap_or(1));
            }
            2 => s.shuffle = true,
            3 => s.fletcher32 = true,
            _ => s.filters.push((*id, params.clone())),
        }
    }
    s
}

impl NczarrWriter {
    /// Extends unlimited dimensions a write reaches past, and the arrays that use them.
    fn grow(&mut self, var: VarId, slab: &Hyperslab) -> Result<()> {
        let dims = self.defs.schema.var(var).dims.clone();
        for (i, d) in dims.iter().enumerate() {
            if !self.defs.schema.dim(*d).unlimited || slab.count[i] == 0 {
                continue;
            }
            let end = slab.start[i] + (slab.count[i] - 1) * slab.stride[i].max(1) + 1;
            if end > self.defs.schema.dims[d.0].len {
                self.defs.schema.dims[d.0].len = end;
            }
        }
        for (v, meta) in self.arrays.iter_mut().enumerate() {
            if let Some(meta) = meta {
                let vd = &self.defs.schema.vars[v].dims;
                if !vd.is_empty() {
                    meta.shape = vd.iter().map(|d| self.defs.schema.dims[d.0].len).collect();
                }
            }
        }
        Ok(())
    }
}

nc4_backend_mut!(NczarrWriter);

#[cfg(test)]
mod tests;
