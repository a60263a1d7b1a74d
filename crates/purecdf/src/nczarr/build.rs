//! Reading a store's metadata into the netCDF data model (`../shared/spec/nczarr.md`, "The
//! NCZarr Data Model", "Zarr vs NCZarr" and Appendix E).
//!
//! Three NCZarr layouts are read, plus pure Zarr:
//! - netcdf-c 4.8/4.9: `_NCZARR_SUPERBLOCK` and `_NCZARR_GROUP` (`dims`, `vars`, `groups`) in
//!   `.zgroup`, `_NCZARR_ARRAY` (`dimrefs`, `storage`) in `.zarray`, `_NCZARR_ATTR` (`types`) in
//!   `.zattrs`;
//! - netcdf-c 4.9.1+/4.10: the same in lower case (`_nczarr_group` with `dimensions`,
//!   `arrays`, `groups`; `_nczarr_array` with `dimension_references`) found in `.zattrs` (or
//!   in `.zgroup`/`.zarray`);
//! - version 1 (Appendix E): separate `.nczarr`, `.nczgroup`, `.nczarray` and `.nczattr`
//!   objects;
//! - pure Zarr: groups and arrays found by listing, dimensions from xarray's
//!   `_ARRAY_DIMENSIONS` (defined in the array's group) or else anonymous ones named
//!   `_Anonymous_Dim_<len>` in the root group, as netcdf-c 4.10 names them.

use crate::json::{Map, Value};

use super::meta::{ArrayMeta, Fill};
use super::source::MetaSource;
use super::url::Modes;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{
    normalize_name, Attribute, DimId, Dimension, Group, GroupId, Schema, StorageInfo, Values,
    VarId, Variable, ROOT,
};
use purecdf_store::join_key;

/// Attributes netcdf-c keeps out of the attribute list.
const RESERVED: [&str; 9] = [
    "_NCZARR_ATTR",
    "_NCZARR_GROUP",
    "_NCZARR_ARRAY",
    "_NCZARR_SUPERBLOCK",
    "_nczarr_attr",
    "_nczarr_group",
    "_nczarr_array",
    "_nczarr_superblock",
    "_ARRAY_DIMENSIONS",
];

/// What kind of store this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flavour {
    /// NCZarr version 1 (separate `.ncz*` objects).
    V1,
    /// NCZarr version 2 (keys inside the Zarr objects).
    V2,
    /// Pure Zarr.
    Pure,
}

/// The schema and each variable's array.
pub(crate) struct Built {
    pub(crate) schema: Schema,
    pub(crate) arrays: Vec<ArrayMeta>,
    /// Which NCZarr keys the store uses.
    pub(crate) flavour: Flavour,
    /// The root's attribute types are in netcdf-c 4.10's `_nczarr_attr` alone (a store 4.10
    /// wrote, or ours with `mode=nc410`): writers keep that layout.
    pub(crate) attrs_410: bool,
}

fn bad(key: &str, what: impl std::fmt::Display) -> Error {
    Error::with_detail(ErrorKind::Nczarr, format!("{key}: {what}"))
}

/// An NCZarr key looked up in several objects, upper- and lower-case spellings alike.
fn nc_key<'a>(objs: &[Option<&'a Map>], names: &[&str]) -> Option<&'a Value> {
    objs.iter()
        .flatten()
        .find_map(|o| names.iter().find_map(|n| o.get(n)))
}

struct Builder<'a> {
    src: &'a MetaSource<'a>,
    flavour: Flavour,
    /// True when netcdf-c wrote the store (`_NCProperties` at the root): its `<U1` arrays are
    /// one byte per character, even in pure Zarr mode.
    by_netcdf_c: bool,
    modes: Modes,
    schema: Schema,
    arrays: Vec<ArrayMeta>,
}

/// Reads the whole hierarchy.
///
/// # Errors
/// NC_ENOTNC when the root is neither a Zarr group nor an NCZarr dataset (with a URL mode, see
/// [`Modes::named`], a root holding `.zattrs` or `.zarray` is read as a group), NC_ENCZARR naming
/// the key for malformed metadata.
pub(crate) fn build(src: &MetaSource<'_>, modes: Modes) -> Result<Built> {
    let v1 = src.object(".nczarr")?;
    let zgroup = src.object(".zgroup")?;
    let zattrs = src.object(".zattrs")?;
    // With a URL mode, netcdf-c (4.10, and master's `NCZ_infer_zarr_format`) takes a root
    // holding any Zarr object as a group, `.zgroup` or not.
    let zarr_root = || -> Result<bool> { Ok(zattrs.is_some() || src.object(".zarray")?.is_some()) };
    if zgroup.is_none() && v1.is_none() && !(modes.named && zarr_root()?) {
        return Err(Error::with_detail(
            ErrorKind::NotNc,
            "no .zgroup at the root: not a Zarr version 2 group",
        ));
    }
    let superblock = nc_key(
        &[zgroup.as_ref(), zattrs.as_ref()],
        &["_NCZARR_SUPERBLOCK", "_nczarr_superblock"],
    );
    let flavour = if modes.zarr {
        Flavour::Pure
    } else if v1.is_some() {
        Flavour::V1
    } else if superblock.is_some() {
        Flavour::V2
    } else {
        Flavour::Pure
    };
    let by_netcdf_c = zattrs
        .as_ref()
        .is_some_and(|a| a.contains_key("_NCProperties"));
    let attrs_410 = zattrs
        .as_ref()
        .is_some_and(|a| a.contains_key("_nczarr_attr") && !a.contains_key("_NCZARR_ATTR"));
    let mut b = Builder {
        src,
        flavour,
        by_netcdf_c,
        modes,
        schema: Schema::default(),
        arrays: Vec::new(),
    };
    b.group("", ROOT)?;
    let atts = &mut b.schema.groups[ROOT.0].atts;
    if flavour == Flavour::Pure {
        // netcdf-c 4.10 shows no provenance for pure Zarr, even where `.zattrs` holds one.
        atts.retain(|a| a.name != "_NCProperties");
        return Ok(Built {
            schema: b.schema,
            arrays: b.arrays,
            flavour,
            attrs_410,
        });
    }
    atts.push(Attribute {
        name: "_SuperblockVersion".into(),
        values: Values::Int(vec![2]),
    });
    atts.push(Attribute {
        name: "_IsNetcdf4".into(),
        values: Values::Int(vec![1]),
    });
    Ok(Built {
        schema: b.schema,
        arrays: b.arrays,
        flavour,
        attrs_410,
    })
}

impl Builder<'_> {
    fn group(&mut self, prefix: &str, gid: GroupId) -> Result<()> {
        let zgroup_key = join_key(prefix, ".zgroup");
        let zgroup = self.src.object(&zgroup_key)?;
        let zattrs_key = join_key(prefix, ".zattrs");
        let zattrs = self.src.object(&zattrs_key)?;
        let content = match self.flavour {
            Flavour::Pure => None,
            Flavour::V1 => self
                .src
                .object(&join_key(prefix, ".nczgroup"))?
                .map(Value::Object),
            Flavour::V2 => nc_key(
                &[zgroup.as_ref(), zattrs.as_ref()],
                // 4.10's key first: where we write both, only it marks unlimited dimensions.
                &["_nczarr_group", "_NCZARR_GROUP"],
            )
            .cloned(),
        };
        let (vars, groups) = match &content {
            Some(c) => {
                self.define_dims(c, gid, &zgroup_key)?;
                (
                    names(c, &["vars", "arrays"], &zgroup_key)?,
                    names(c, &["groups"], &zgroup_key)?,
                )
            }
            None => self.search(prefix)?,
        };
        self.prefetch_children(prefix, &vars, &groups);
        let types = self.attr_types(prefix, zattrs.as_ref())?;
        self.schema.groups[gid.0].atts = attributes(zattrs.as_ref(), &types, &zattrs_key, None)?;
        for v in vars {
            self.variable(prefix, gid, &v)?;
        }
        for g in groups {
            let name =
                normalize_name(&g).map_err(|e| bad(&zgroup_key, format!("group {g:?}: {e}")))?;
            let child = GroupId(self.schema.groups.len());
            self.schema.groups.push(Group {
                name: name.clone(),
                parent: Some(gid),
                ..Group::default()
            });
            self.schema.groups[gid.0].groups.push(child);
            self.group(&join_key(prefix, &g), child)?;
        }
        Ok(())
    }

    /// Reads the metadata of a group's variables and subgroups in parallel.
    fn prefetch_children(&self, prefix: &str, vars: &[String], groups: &[String]) {
        let (var_objs, group_objs): (&[&str], &[&str]) = match self.flavour {
            Flavour::V1 => (
                &[".zarray", ".zattrs", ".nczarray", ".nczattr"],
                &[".zgroup", ".zattrs", ".nczgroup"],
            ),
            _ => (&[".zarray", ".zattrs"], &[".zgroup", ".zattrs"]),
        };
        let keys = vars
            .iter()
            .flat_map(|v| var_objs.iter().map(move |o| (v, o)))
            .chain(
                groups
                    .iter()
                    .flat_map(|g| group_objs.iter().map(move |o| (g, o))),
            )
            .map(|(child, obj)| join_key(&join_key(prefix, child), obj))
            .collect();
        self.src.prefetch(keys);
    }

    /// Children of a group found by listing: arrays (a `.zarray` below) and groups (a `.zgroup`).
    fn search(&self, prefix: &str) -> Result<(Vec<String>, Vec<String>)> {
        let mut vars = Vec::new();
        let mut groups = Vec::new();
        let names: Vec<String> = self
            .src
            .list(prefix)?
            .into_iter()
            .filter(|n| !n.starts_with('.'))
            .collect();
        self.src.prefetch(
            names
                .iter()
                .flat_map(|n| {
                    let child = join_key(prefix, n);
                    [join_key(&child, ".zarray"), join_key(&child, ".zgroup")]
                })
                .collect(),
        );
        for name in names {
            let child = join_key(prefix, &name);
            if self.src.exists(&join_key(&child, ".zarray"))? {
                vars.push(name);
            } else if self.src.exists(&join_key(&child, ".zgroup"))? {
                groups.push(name);
            }
        }
        Ok((vars, groups))
    }

    fn define_dims(&mut self, content: &Value, gid: GroupId, key: &str) -> Result<()> {
        let Some(dims) = content.get("dims").or_else(|| content.get("dimensions")) else {
            return Ok(());
        };
        let dims = dims
            .as_object()
            .ok_or_else(|| bad(key, "dimensions are not an object"))?;
        for (name, v) in dims {
            let (len, unlimited) = match v {
                Value::Object(o) => (
                    o.get("size").and_then(Value::as_u64),
                    o.get("unlimited").and_then(Value::as_u64).unwrap_or(0) != 0,
                ),
                other => (other.as_u64(), false),
            };
            let len = len.ok_or_else(|| bad(key, format!("dimension {name}: bad size {v}")))?;
            let name =
                normalize_name(name).map_err(|e| bad(key, format!("dimension {name:?}: {e}")))?;
            self.add_dim(gid, name, len, unlimited);
        }
        Ok(())
    }

    fn add_dim(&mut self, gid: GroupId, name: String, len: u64, unlimited: bool) -> DimId {
        let id = DimId(self.schema.dims.len());
        self.schema.dims.push(Dimension {
            name,
            len,
            unlimited,
            group: gid,
        });
        self.schema.groups[gid.0].dims.push(id);
        id
    }

    /// The NCZarr attribute types of an object: name → dtype.
    fn attr_types(&self, prefix: &str, zattrs: Option<&Map>) -> Result<Map> {
        let holder = match self.flavour {
            Flavour::V1 => self
                .src
                .object(&join_key(prefix, ".nczattr"))?
                .map(Value::Object),
            _ => nc_key(&[zattrs], &["_NCZARR_ATTR", "_nczarr_attr"]).cloned(),
        };
        Ok(holder
            .and_then(|h| h.get("types").and_then(Value::as_object).cloned())
            .unwrap_or_default())
    }

    fn variable(&mut self, prefix: &str, gid: GroupId, name: &str) -> Result<()> {
        let vprefix = join_key(prefix, name);
        let zarray_key = join_key(&vprefix, ".zarray");
        let zarray = self
            .src
            .object(&zarray_key)?
            .ok_or_else(|| bad(&zarray_key, "missing"))?;
        let zattrs_key = join_key(&vprefix, ".zattrs");
        let zattrs = self.src.object(&zattrs_key)?;
        let nczarr = self.flavour != Flavour::Pure
            || self.by_netcdf_c
            || nc_key(&[zattrs.as_ref()], &["_NCZARR_ATTR", "_nczarr_attr"]).is_some();
        let shown = self.src.shown_key(&zarray_key);
        let meta = ArrayMeta::parse(&zarray, &vprefix, &shown, nczarr)?;
        let ncarray = match self.flavour {
            Flavour::Pure => None,
            Flavour::V1 => self
                .src
                .object(&join_key(&vprefix, ".nczarray"))?
                .map(Value::Object),
            Flavour::V2 => nc_key(
                &[Some(&zarray), zattrs.as_ref()],
                &["_NCZARR_ARRAY", "_nczarr_array"],
            )
            .cloned(),
        };
        // An array with no shape but dimension names contradicts itself: netcdf-c leaves it
        // out of the dataset (a warning in its log), and so do we; a 0-d array (no shape and no
        // names) is read as a scalar.
        let named = |a: &Map| {
            a.get("_ARRAY_DIMENSIONS")
                .and_then(Value::as_array)
                .is_some_and(|n| !n.is_empty())
        };
        if meta.shape.is_empty() && ncarray.is_none() && zattrs.as_ref().is_some_and(named) {
            return Ok(());
        }
        let storage = ncarray
            .as_ref()
            .and_then(|a| a.get("storage"))
            .and_then(Value::as_str);
        // 4.8/4.9 mark a scalar by its storage, 4.10 by `"scalar": 1`; in pure Zarr netcdf-c
        // writes one as shape [1] with no dimension names.
        let pure_scalar = ncarray.is_none()
            && !self.modes.noxarray
            && meta.shape == [1]
            && zattrs
                .as_ref()
                .and_then(|a| a.get("_ARRAY_DIMENSIONS"))
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty);
        let scalar = pure_scalar
            || storage == Some("scalar")
            || ncarray
                .as_ref()
                .and_then(|a| a.get("scalar"))
                .is_some_and(|s| s.as_u64() == Some(1) || s.as_bool() == Some(true))
            || meta.shape.is_empty();
        let rank = if scalar { 0 } else { meta.shape.len() };
        if scalar && meta.shape.iter().product::<u64>() != 1 {
            return Err(bad(&zarray_key, "a scalar whose shape is not [1]"));
        }
        let dims = if scalar {
            Vec::new()
        } else if let Some(refs) = ncarray
            .as_ref()
            .and_then(|a| a.get("dimrefs").or_else(|| a.get("dimension_references")))
        {
            self.dimrefs(refs, &meta.shape, &zarray_key)?
        } else {
            self.pure_dims(gid, zattrs.as_ref(), &meta.shape, &zattrs_key)?
        };
        debug_assert_eq!(dims.len(), rank);
        let types = self.attr_types(&vprefix, zattrs.as_ref())?;
        // netcdf-c shows no `_FillValue` for a `fill_value` without the attribute (4.9.0 means to
        // add one but never does); missing chunks still read as the fill value.
        let atts = attributes(
            zattrs.as_ref(),
            &types,
            &zattrs_key,
            Some(meta.dtype.nc_type()),
        )?;
        let typ = meta.dtype.nc_type();
        let vname = normalize_name(name)
            .map_err(|e| bad(&zarray_key, format!("variable {name:?}: {e}")))?;
        let storage_info = StorageInfo {
            chunk_sizes: (!scalar).then(|| meta.chunks.clone()),
            compact: false,
            is_virtual: false,
            filters: meta
                .chain
                .codecs
                .iter()
                .filter_map(|c| c.hdf5_filter())
                .collect(),
            // As for netCDF-4 files: an endianness for numeric types only.
            big_endian: typ.is_numeric().then(|| meta.dtype.is_big_endian()),
        };
        let id = VarId(self.schema.vars.len());
        self.schema.vars.push(Variable {
            name: vname,
            typ,
            dims,
            atts,
            group: gid,
            no_fill: meta.fill == Fill::None,
            storage: storage_info,
        });
        self.schema.groups[gid.0].vars.push(id);
        self.arrays.push(meta);
        Ok(())
    }

    /// Dimensions named by full paths (`/g/x`), each checked against the array's shape.
    fn dimrefs(&mut self, refs: &Value, shape: &[u64], key: &str) -> Result<Vec<DimId>> {
        let refs = refs
            .as_array()
            .ok_or_else(|| bad(key, "dimension references are not a list"))?;
        if refs.len() != shape.len() {
            return Err(bad(key, "dimension references and shape differ in rank"));
        }
        let mut dims = Vec::new();
        for (r, &len) in refs.iter().zip(shape) {
            let path = r
                .as_str()
                .ok_or_else(|| bad(key, format!("dimension reference {r}")))?;
            let mut segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
            let dname = segs
                .pop()
                .ok_or_else(|| bad(key, format!("dimension reference {path:?}")))?;
            let mut g = ROOT;
            for s in segs {
                g = self
                    .schema
                    .find_group(g, s)
                    .ok_or_else(|| bad(key, format!("no group for dimension {path:?}")))?;
            }
            // 4.9.0 leaves out dimensions it never defined; define them where named.
            let d = self.dim_of_length(g, dname, len, key)?;
            dims.push(d);
        }
        Ok(dims)
    }

    /// The dimension `name` of group `g`, defined with length `len` when missing; an
    /// existing one must have that length (or be unlimited).
    fn dim_of_length(&mut self, g: GroupId, name: &str, len: u64, key: &str) -> Result<DimId> {
        let d = match self.schema.find_dim(g, name) {
            Some(d) => d,
            None => self.add_dim(g, name.to_string(), len, false),
        };
        let dim = self.schema.dim(d);
        if dim.len != len && !dim.unlimited {
            return Err(bad(
                key,
                format!("dimension {name} has length {}, not {len}", dim.len),
            ));
        }
        Ok(d)
    }

    /// Dimensions of a pure Zarr array: `_ARRAY_DIMENSIONS` names in the array's group, or
    /// anonymous ones in the root group.
    fn pure_dims(
        &mut self,
        gid: GroupId,
        zattrs: Option<&Map>,
        shape: &[u64],
        key: &str,
    ) -> Result<Vec<DimId>> {
        let xarray = if self.modes.noxarray {
            None
        } else {
            zattrs
                .and_then(|a| a.get("_ARRAY_DIMENSIONS"))
                .and_then(Value::as_array)
        };
        let mut dims = Vec::new();
        match xarray {
            Some(names) if names.len() == shape.len() => {
                for (n, &len) in names.iter().zip(shape) {
                    let n = n
                        .as_str()
                        .ok_or_else(|| bad(key, format!("_ARRAY_DIMENSIONS holds {n}")))?;
                    let n =
                        normalize_name(n).map_err(|e| bad(key, format!("dimension {n:?}: {e}")))?;
                    let d = self.dim_of_length(gid, &n, len, key)?;
                    dims.push(d);
                }
            }
            Some(_) => return Err(bad(key, "_ARRAY_DIMENSIONS and shape differ in rank")),
            None => {
                for &len in shape {
                    let n = format!("_Anonymous_Dim_{len}");
                    let d = match self.schema.find_dim(ROOT, &n) {
                        Some(d) => d,
                        None => self.add_dim(ROOT, n, len, false),
                    };
                    dims.push(d);
                }
            }
        }
        Ok(dims)
    }
}

/// Names in a group's content list (`vars`/`arrays`, `groups`).
fn names(content: &Value, keys: &[&str], key: &str) -> Result<Vec<String>> {
    let Some(list) = keys.iter().find_map(|k| content.get(k)) else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| bad(key, format!("{} is not a list", keys[0])))?;
    list.iter()
        .map(|n| {
            n.as_str()
                .map(str::to_string)
                .ok_or_else(|| bad(key, format!("name {n} is not a string")))
        })
        .collect()
}

/// The attributes of an object's `.zattrs`, typed by NCZarr's types where given.
/// An untyped `_FillValue` takes its variable's type (`fill_type`), as netcdf-c's type hint
/// gives it.
fn attributes(
    zattrs: Option<&Map>,
    types: &Map,
    key: &str,
    fill_type: Option<crate::model::NcType>,
) -> Result<Vec<Attribute>> {
    let mut out = Vec::new();
    let Some(zattrs) = zattrs else {
        return Ok(out);
    };
    for (name, value) in zattrs {
        if RESERVED.contains(&name.as_str()) {
            continue;
        }
        let values = match types.get(name).and_then(Value::as_str) {
            Some(dtype) => super::attrs::typed(name, value, dtype, key)?,
            None => match fill_type.filter(|_| name == "_FillValue") {
                Some(t) if t.atomic_size().is_some() && t != crate::model::NcType::Char => {
                    super::attrs::numbers(t, std::slice::from_ref(value))
                        .unwrap_or_else(|| super::attrs::inferred(value))
                }
                _ => super::attrs::inferred(value),
            },
        };
        let name =
            normalize_name(name).map_err(|e| bad(key, format!("attribute {name:?}: {e}")))?;
        out.push(Attribute { name, values });
    }
    Ok(out)
}
