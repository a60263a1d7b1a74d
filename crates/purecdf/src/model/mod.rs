//! The netCDF enhanced data model as plain data, no I/O: a tree of groups holding dimensions,
//! variables, attributes and user-defined types. Classic files use the root group only.
//!
//! Objects live in arenas inside [`Schema`] and are named by small index newtypes
//! ([`GroupId`], [`DimId`], [`VarId`], [`TypeId`]); for classic files a `DimId`/`VarId` index equals
//! netcdf-c's dimid/varid. See the file format spec (`../shared/spec/file-format-specifications.md`)
//! for the classic model and "NetCDF-4 Format" for the enhanced one.

mod name;
mod types;
mod values;

pub(crate) use name::{lookup_name, record_name, stored_name_key};
pub use name::{normalize_name, MAX_NAME};
pub(crate) use purecdf_hdf5::format::name::is_utf8;
/// Names read from HDF5 files keep bytes that are not UTF-8; see `purecdf_hdf5::format::name`.
pub use purecdf_hdf5::format::name::{name_from_bytes, name_to_bytes};
pub use types::{CompoundField, NcType, UserType, UserTypeKind};
pub use values::{Value, Values};

use crate::error::{fail, ErrorKind, Result};

/// Index of a group in a [`Schema`]; the root group is `GroupId(0)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupId(pub usize);
/// Index of a dimension in a [`Schema`] (netcdf-c's dimid for classic files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DimId(pub usize);
/// Index of a variable in a [`Schema`] (netcdf-c's varid for classic files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub usize);
/// Index of a user-defined type in a [`Schema`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub usize);

/// An attribute: a name and typed values.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Attribute name (NFC-normalised).
    pub name: String,
    /// The values; their variant gives the attribute's type.
    pub values: Values,
}

/// A dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct Dimension {
    /// Dimension name (NFC-normalised).
    pub name: String,
    /// Current length (for an unlimited dimension, the number of records written so far).
    pub len: u64,
    /// True for an unlimited (record) dimension.
    pub unlimited: bool,
    /// The group that defines the dimension.
    pub group: GroupId,
}

impl Dimension {
    /// The dimension's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Current length (records written so far for an unlimited dimension).
    pub fn len(&self) -> usize {
        usize::try_from(self.len).unwrap_or(usize::MAX)
    }

    /// True when the dimension has length 0.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True for an unlimited (record) dimension.
    pub fn is_unlimited(&self) -> bool {
        self.unlimited
    }
}

/// How a variable's data is stored (netCDF-4 only; classic variables are always contiguous).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StorageInfo {
    /// Chunk sizes when chunked; `None` for contiguous or compact storage.
    pub chunk_sizes: Option<Vec<u64>>,
    /// True for compact storage.
    pub compact: bool,
    /// True for an HDF5 virtual dataset (its data comes from other datasets; netcdf-c reports
    /// such storage as unknown).
    pub is_virtual: bool,
    /// Filters in pipeline order: HDF5 filter id and parameters.
    pub filters: Vec<(u32, Vec<u32>)>,
    /// Explicit endianness: `Some(true)` big-endian, `Some(false)` little-endian.
    pub big_endian: Option<bool>,
}

/// A variable: name, type, shape and attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Variable name (NFC-normalised).
    pub name: String,
    /// Element type.
    pub typ: NcType,
    /// Shape, outermost first.
    pub dims: Vec<DimId>,
    /// Attributes in creation order.
    pub atts: Vec<Attribute>,
    /// The group that holds the variable.
    pub group: GroupId,
    /// True when fill mode is off for this variable (`_NoFill`).
    pub no_fill: bool,
    /// Storage layout and filters (netCDF-4).
    pub storage: StorageInfo,
}

impl Variable {
    /// The attribute with this name.
    pub fn att(&self, name: &str) -> Option<&Attribute> {
        self.atts.iter().find(|a| a.name == name)
    }
}

/// A group: named container of dimensions, variables, attributes, types and subgroups.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Group {
    /// Group name; the root group's name is `"/"`.
    pub name: String,
    /// Parent group; `None` for the root.
    pub parent: Option<GroupId>,
    /// Dimensions defined here, in definition order.
    pub dims: Vec<DimId>,
    /// Variables defined here, in definition order.
    pub vars: Vec<VarId>,
    /// Group (global, at the root) attributes in creation order.
    pub atts: Vec<Attribute>,
    /// User-defined types defined here, in definition order.
    pub types: Vec<TypeId>,
    /// Child groups in definition order.
    pub groups: Vec<GroupId>,
}

/// The metadata of a whole dataset: arenas of groups, dimensions, variables and types.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    /// All groups; index 0 is the root.
    pub groups: Vec<Group>,
    /// All dimensions.
    pub dims: Vec<Dimension>,
    /// All variables.
    pub vars: Vec<Variable>,
    /// All user-defined types, with the group that defines each.
    pub types: Vec<(GroupId, UserType)>,
}

impl Default for Schema {
    fn default() -> Self {
        Schema {
            groups: vec![Group {
                name: "/".into(),
                ..Group::default()
            }],
            dims: Vec::new(),
            vars: Vec::new(),
            types: Vec::new(),
        }
    }
}

/// The root group's id.
pub const ROOT: GroupId = GroupId(0);

impl Schema {
    /// The group with this id.
    pub fn group(&self, id: GroupId) -> &Group {
        &self.groups[id.0]
    }

    /// The dimension with this id.
    pub fn dim(&self, id: DimId) -> &Dimension {
        &self.dims[id.0]
    }

    /// The variable with this id.
    pub fn var(&self, id: VarId) -> &Variable {
        &self.vars[id.0]
    }

    /// The user-defined type with this id.
    pub fn user_type(&self, id: TypeId) -> &UserType {
        &self.types[id.0].1
    }

    /// Variable named `name` directly in group `g`.
    pub fn find_var(&self, g: GroupId, name: &str) -> Option<VarId> {
        self.group(g)
            .vars
            .iter()
            .copied()
            .find(|v| self.var(*v).name == name)
    }

    /// Dimension named `name` defined directly in group `g`.
    pub fn find_dim(&self, g: GroupId, name: &str) -> Option<DimId> {
        self.group(g)
            .dims
            .iter()
            .copied()
            .find(|d| self.dim(*d).name == name)
    }

    /// Dimension named `name` visible from group `g` (searching `g` then its ancestors).
    pub fn find_dim_visible(&self, g: GroupId, name: &str) -> Option<DimId> {
        let mut cur = Some(g);
        while let Some(id) = cur {
            if let Some(d) = self.find_dim(id, name) {
                return Some(d);
            }
            cur = self.group(id).parent;
        }
        None
    }

    /// Subgroup named `name` of group `g`.
    pub fn find_group(&self, g: GroupId, name: &str) -> Option<GroupId> {
        self.group(g)
            .groups
            .iter()
            .copied()
            .find(|c| self.group(*c).name == name)
    }

    /// User type named `name` defined directly in group `g`.
    pub fn find_type(&self, g: GroupId, name: &str) -> Option<TypeId> {
        self.group(g)
            .types
            .iter()
            .copied()
            .find(|t| self.user_type(*t).name == name)
    }

    /// The shape of a variable: current length of each dimension.
    pub fn shape(&self, v: VarId) -> Vec<u64> {
        self.var(v).dims.iter().map(|d| self.dim(*d).len).collect()
    }

    /// True when the variable's first dimension is unlimited (a record variable).
    pub fn is_record_var(&self, v: VarId) -> bool {
        self.var(v)
            .dims
            .first()
            .is_some_and(|d| self.dim(*d).unlimited)
    }

    /// The unlimited dimensions of group `g`.
    pub fn unlimited_dims(&self, g: GroupId) -> Vec<DimId> {
        self.group(g)
            .dims
            .iter()
            .copied()
            .filter(|d| self.dim(*d).unlimited)
            .collect()
    }

    /// Full path of a group: `/` for the root, `/a/b` otherwise.
    pub fn group_path(&self, g: GroupId) -> String {
        let mut parts = Vec::new();
        let mut cur = g;
        while let Some(p) = self.group(cur).parent {
            parts.push(self.group(cur).name.as_str());
            cur = p;
        }
        if parts.is_empty() {
            return "/".into();
        }
        parts.reverse();
        format!("/{}", parts.join("/"))
    }

    /// Size in bytes of one value of `t` in memory (compound: its declared size; vlen and string:
    /// one 16-/8-byte handle as netcdf-c's `nc_vlen_t`/`char*`).
    pub fn type_size(&self, t: NcType) -> usize {
        match t {
            NcType::User(id) => match &self.user_type(id).kind {
                UserTypeKind::Compound { size, .. } => *size,
                UserTypeKind::Vlen { .. } => 16,
                UserTypeKind::Enum { base, .. } => self.type_size(*base),
                UserTypeKind::Opaque { size } => *size,
            },
            other => other.atomic_size().unwrap_or(0),
        }
    }

    /// Alignment of a type in memory as a C compiler lays out netCDF's in-memory types
    /// (netcdf-c `ncaux_class_alignment`): atomic types their size (strings are pointers),
    /// vlens 8 (`nc_vlen_t`), opaque 1, enums their base, compounds their strictest field.
    pub fn type_align(&self, t: NcType) -> usize {
        self.type_align_depth(t, 0)
    }

    fn type_align_depth(&self, t: NcType, depth: u32) -> usize {
        match t {
            NcType::User(id) if depth < 64 => match self.types.get(id.0).map(|(_, u)| &u.kind) {
                Some(UserTypeKind::Compound { fields, .. }) => fields
                    .iter()
                    .map(|f| self.type_align_depth(f.typ, depth + 1))
                    .max()
                    .unwrap_or(1),
                Some(UserTypeKind::Vlen { .. }) => 8,
                Some(UserTypeKind::Enum { base, .. }) => base.atomic_size().unwrap_or(1),
                _ => 1,
            },
            NcType::User(_) => 1,
            other => other.atomic_size().unwrap_or(1),
        }
    }

    /// Name of a type as CDL spells it: the keyword for atomic types, the type's name otherwise.
    pub fn type_name(&self, t: NcType) -> &str {
        match t {
            NcType::User(id) => &self.user_type(id).name,
            other => other.cdl_name().unwrap_or("?"),
        }
    }

    /// Adds a group under `parent`; fails with NC_ENAMEINUSE if the name is taken.
    pub fn add_group(&mut self, parent: GroupId, name: &str) -> Result<GroupId> {
        let name = normalize_name(name)?;
        self.check_free_name(parent, &name)?;
        let id = GroupId(self.groups.len());
        self.groups.push(Group {
            name,
            parent: Some(parent),
            ..Group::default()
        });
        self.groups[parent.0].groups.push(id);
        Ok(id)
    }

    /// Adds a group whose name comes from a file as it is: no name rules, no normalisation and
    /// no duplicate search (netcdf-c takes HDF5 link names unchecked; links are unique).
    pub(crate) fn add_group_unchecked(&mut self, parent: GroupId, name: String) -> GroupId {
        let id = GroupId(self.groups.len());
        self.groups.push(Group {
            name,
            parent: Some(parent),
            ..Group::default()
        });
        self.groups[parent.0].groups.push(id);
        id
    }

    /// Adds a dimension named as in a file, unchecked (see [`Schema::add_group_unchecked`]).
    pub(crate) fn add_dim_unchecked(
        &mut self,
        g: GroupId,
        name: String,
        len: u64,
        unlimited: bool,
    ) -> DimId {
        let id = DimId(self.dims.len());
        self.dims.push(Dimension {
            name,
            len,
            unlimited,
            group: g,
        });
        self.groups[g.0].dims.push(id);
        id
    }

    /// Adds a dimension to group `g`; fails with NC_ENAMEINUSE if the name is taken there.
    pub fn add_dim(&mut self, g: GroupId, name: &str, len: u64, unlimited: bool) -> Result<DimId> {
        let name = normalize_name(name)?;
        if self.find_dim(g, &name).is_some() {
            return fail(ErrorKind::NameInUse, format!("dimension {name}"));
        }
        let id = DimId(self.dims.len());
        self.dims.push(Dimension {
            name,
            len,
            unlimited,
            group: g,
        });
        self.groups[g.0].dims.push(id);
        Ok(id)
    }

    /// Adds a variable to group `g`; fails with NC_ENAMEINUSE if a variable there has the name.
    pub fn add_var(
        &mut self,
        g: GroupId,
        name: &str,
        typ: NcType,
        dims: &[DimId],
    ) -> Result<VarId> {
        let name = normalize_name(name)?;
        if self.find_var(g, &name).is_some() {
            return fail(ErrorKind::NameInUse, format!("variable {name}"));
        }
        if dims.iter().any(|d| d.0 >= self.dims.len()) {
            return fail(ErrorKind::BadDim, format!("variable {name}"));
        }
        Ok(self.add_var_unchecked(g, name, typ, dims))
    }

    /// Adds a variable whose name the caller knows to be free and normalised (e.g. read from a
    /// file whose format already guarantees unique names): no duplicate search, so building a
    /// group of n variables stays linear.
    pub(crate) fn add_var_unchecked(
        &mut self,
        g: GroupId,
        name: String,
        typ: NcType,
        dims: &[DimId],
    ) -> VarId {
        let id = VarId(self.vars.len());
        self.vars.push(Variable {
            name,
            typ,
            dims: dims.to_vec(),
            atts: Vec::new(),
            group: g,
            no_fill: false,
            storage: StorageInfo::default(),
        });
        self.groups[g.0].vars.push(id);
        id
    }

    /// Adds a user-defined type to group `g`.
    pub fn add_type(&mut self, g: GroupId, ut: UserType) -> Result<TypeId> {
        let name = normalize_name(&ut.name)?;
        self.check_free_name(g, &name)?;
        let id = TypeId(self.types.len());
        self.types.push((
            g,
            UserType {
                name,
                kind: ut.kind,
            },
        ));
        self.groups[g.0].types.push(id);
        Ok(id)
    }

    /// Adds a user type named as in a file, unchecked (see [`Schema::add_group_unchecked`]).
    pub(crate) fn add_type_unchecked(&mut self, g: GroupId, ut: UserType) -> TypeId {
        let id = TypeId(self.types.len());
        self.types.push((g, ut));
        self.groups[g.0].types.push(id);
        id
    }

    /// The attribute list of a variable, or of group `g` when `var` is `None`.
    pub fn atts(&self, g: GroupId, var: Option<VarId>) -> &[Attribute] {
        match var {
            Some(v) => &self.var(v).atts,
            None => &self.group(g).atts,
        }
    }

    /// Mutable attribute list of a variable, or of group `g` when `var` is `None`.
    pub fn atts_mut(&mut self, g: GroupId, var: Option<VarId>) -> &mut Vec<Attribute> {
        match var {
            Some(v) => &mut self.vars[v.0].atts,
            None => &mut self.groups[g.0].atts,
        }
    }

    /// Sets (adds or replaces, keeping its position) an attribute.
    pub fn put_att(
        &mut self,
        g: GroupId,
        var: Option<VarId>,
        name: &str,
        values: Values,
    ) -> Result<()> {
        let name = normalize_name(name)?;
        let atts = self.atts_mut(g, var);
        match atts.iter_mut().find(|a| a.name == name) {
            Some(a) => a.values = values,
            None => atts.push(Attribute { name, values }),
        }
        Ok(())
    }

    fn check_free_name(&self, g: GroupId, name: &str) -> Result<()> {
        let grp = self.group(g);
        let taken = grp.groups.iter().any(|c| self.group(*c).name == name)
            || grp.types.iter().any(|t| self.user_type(*t).name == name)
            || grp.vars.iter().any(|v| self.var(*v).name == name);
        if taken {
            return fail(ErrorKind::NameInUse, name.to_string());
        }
        Ok(())
    }
}
