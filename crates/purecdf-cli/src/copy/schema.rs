//! The definitions of the copy, made in netcdf-c 4.9.0's `nccopy.c` order with its lookups:
//! every group first (`copy_groups`, preorder), then every user type (`copy_types`, a group's
//! types before its subgroups'), then per group (`copy_schema`, preorder) its dimensions, its
//! attributes and its variables, each variable followed by its attributes and its netCDF-4
//! properties ([`super::specials`]). `-g`/`-G` pick the groups, `-V` the variables.
//!
//! Output types are found by name as `nc_inq_typeid` finds them (the group, its ancestors, then
//! the whole file in preorder); attribute types of user-defined type as `nc_copy_att` finds them
//! (a structurally equal type in the group, its ancestors, then the file breadth-first).

use std::collections::HashMap;

use purecdf::model::{CompoundField, GroupId, UserType, UserTypeKind, ROOT};
use purecdf::{DimId, ErrorKind, File, FileMut, NcType, Schema, TypeId, Values, VarId};

use super::chunkspec::ChunkSpecs;
use super::options::{Kind, Options};
use super::specials::{copy_var_specials, nc_error};
use super::{plan, At, Failure};

/// Everything the copy needs while it defines and copies.
pub(crate) struct Ctx<'a> {
    /// The input file.
    pub(crate) input: &'a File,
    /// Its metadata.
    pub(crate) s: &'a Schema,
    /// The output file.
    pub(crate) out: &'a mut FileMut,
    /// The command line.
    pub(crate) o: &'a Options,
    /// Input and output kinds.
    pub(crate) inkind: Kind,
    pub(crate) outkind: Kind,
    /// The `-c` specs.
    pub(crate) specs: &'a ChunkSpecs,
    /// The `-g`/`-G` groups (`None`: every group is wanted).
    pub(crate) wanted: Option<Vec<GroupId>>,
    /// `-M`: the smallest chunk in bytes worth chunking.
    pub(crate) min_chunk: u64,
    /// Output group of each input group defined so far.
    pub(crate) groups: HashMap<GroupId, GroupId>,
    /// Output dimension of each input dimension, and whether it is unlimited in the output.
    pub(crate) dims: HashMap<DimId, (DimId, bool)>,
    /// Output variable of each input variable defined.
    pub(crate) vars: HashMap<VarId, VarId>,
}

impl Ctx<'_> {
    /// `group_wanted`.
    pub(crate) fn group_wanted(&self, g: GroupId) -> bool {
        self.wanted.as_ref().is_none_or(|w| w.contains(&g))
    }

    /// `-g` (structure of every group) rather than `-G`.
    fn grpstruct(&self) -> bool {
        self.o.group_struct
    }

    /// `copy_groups`: every wanted group, in preorder.
    pub(crate) fn copy_groups(&mut self) -> Result<(), Failure> {
        self.groups.insert(ROOT, ROOT);
        let mut order = Vec::new();
        preorder(self.s, ROOT, &mut order);
        for &g in &order[1..] {
            if !(self.grpstruct() || self.group_wanted(g)) {
                continue;
            }
            let parent = self.s.group(g).parent.unwrap_or(ROOT);
            if !self.grpstruct() && !self.group_wanted(parent) && parent != ROOT {
                return Err(Failure::Message(format!(
                    "ERROR: trying to copy a group but not the parent: {}",
                    self.s.group_path(g)
                )));
            }
            // nc_inq_parid looks the parent up by its full name, which a classic file refuses.
            let parent_out = if self.outkind.is_classic_family() {
                None
            } else {
                self.groups.get(&parent)
            };
            let Some(&oparent) = parent_out else {
                let detail = format!("no output group for {}", self.s.group_path(parent));
                return Err(nc_error(ErrorKind::NoGrp, detail, 210));
            };
            let og = self
                .out
                .add_group_in(oparent, &self.s.group(g).name)
                .at(717)?;
            self.groups.insert(g, og);
        }
        Ok(())
    }

    /// `copy_types`: the types of `ig` and then of its wanted subgroups.
    pub(crate) fn copy_types(&mut self, ig: GroupId) -> Result<(), Failure> {
        let og = self.groups[&ig];
        for &t in &self.s.group(ig).types {
            self.copy_type(t, og)?;
        }
        for &c in &self.s.group(ig).groups {
            if self.grpstruct() || self.group_wanted(c) {
                self.copy_types(c)?;
            }
        }
        Ok(())
    }

    /// `copy_type`: one type into output group `og`.
    fn copy_type(&mut self, t: TypeId, og: GroupId) -> Result<(), Failure> {
        let ut = self.s.user_type(t).clone();
        let nc4 = self.outkind == Kind::Netcdf4;
        let (kind, line) = match &ut.kind {
            UserTypeKind::Vlen { base } => {
                let basename = self.s.type_name(*base).to_string();
                let mut found = find_typeid(self.out.schema(), og, &basename);
                if found.is_none() && nc4 {
                    if let NcType::User(bt) = base {
                        self.copy_type(*bt, og)?;
                        found = find_typeid(self.out.schema(), og, &basename);
                    }
                }
                let base = match found {
                    Some(b) => b,
                    None if nc4 => return Err(nc_error(ErrorKind::BadType, basename, 551)),
                    None => *base,
                };
                (UserTypeKind::Vlen { base }, 554)
            }
            UserTypeKind::Opaque { size } => (UserTypeKind::Opaque { size: *size }, 571),
            UserTypeKind::Enum { base, members } => (
                UserTypeKind::Enum {
                    base: *base,
                    members: members.clone(),
                },
                591,
            ),
            UserTypeKind::Compound { size, fields } => {
                let mut out = Vec::with_capacity(fields.len());
                for f in fields {
                    let name = self.s.type_name(f.typ).to_string();
                    let typ = match find_typeid(self.out.schema(), og, &name) {
                        Some(t) => t,
                        None if nc4 => return Err(nc_error(ErrorKind::BadType, name, 629)),
                        None => f.typ,
                    };
                    out.push(CompoundField {
                        name: f.name.clone(),
                        offset: f.offset,
                        typ,
                        dims: f.dims.clone(),
                    });
                }
                (
                    UserTypeKind::Compound {
                        size: *size,
                        fields: out,
                    },
                    615,
                )
            }
        };
        let def = UserType {
            name: ut.name.clone(),
            kind,
        };
        self.out.def_type(og, def).at(line)?;
        Ok(())
    }

    /// `copy_schema`: dimensions, attributes and variables of `ig`, then its wanted subgroups.
    pub(crate) fn copy_schema(&mut self, ig: GroupId) -> Result<(), Failure> {
        let og = match self.groups.get(&ig) {
            Some(g) => *g,
            None => {
                let detail = format!("no output group {}", self.s.group_path(ig));
                return Err(nc_error(ErrorKind::NoGrp, detail, 170));
            }
        };
        self.copy_dims(ig, og)?;
        self.copy_atts(ig, None, og, None)?;
        self.copy_vars(ig, og)?;
        for &c in &self.s.group(ig).groups {
            if self.grpstruct() || self.group_wanted(c) {
                self.copy_schema(c)?;
            }
        }
        Ok(())
    }

    /// `copy_dims`: with `-u` an unlimited dimension becomes fixed at its current length
    /// (netcdf-c still calls a length of 0 unlimited, yet treats it as fixed afterwards).
    fn copy_dims(&mut self, ig: GroupId, og: GroupId) -> Result<(), Failure> {
        for d in plan::dim_defs(self.s, ig, self.o.fix_unlimited) {
            let line = if d.mapped_unlimited { 1375 } else { 1377 };
            let len = if d.unlimited { 0 } else { d.len };
            let od = self
                .out
                .add_dimension_in(og, &d.name, len, d.unlimited)
                .at(line)?;
            self.dims.insert(d.src, (od, d.mapped_unlimited));
        }
        Ok(())
    }

    /// `copy_atts`: the attributes of a variable (or of the group when `iv` is `None`), up to
    /// one named `_NCProperties`, where netcdf-c stops. netcdf-c does not list a netCDF-4 file's
    /// `_NCProperties`, `_SuperblockVersion` and `_IsNetcdf4`, so they are passed over.
    fn copy_atts(
        &mut self,
        ig: GroupId,
        iv: Option<VarId>,
        og: GroupId,
        ov: Option<VarId>,
    ) -> Result<(), Failure> {
        let hidden = iv.is_none() && ig == ROOT && !self.inkind.is_classic_family();
        for a in self.s.atts(ig, iv) {
            if hidden
                && matches!(
                    a.name.as_str(),
                    "_NCProperties" | "_SuperblockVersion" | "_IsNetcdf4"
                )
            {
                continue;
            }
            if a.name == "_NCProperties" {
                return Ok(());
            }
            let values = self.att_values(&a.values, og)?;
            if let Err(k) = plan::type_allowed(self.outkind, values.nc_type()) {
                return Err(nc_error(k, a.name.clone(), 1408));
            }
            self.out.put_attribute(og, ov, &a.name, values).at(1408)?;
        }
        Ok(())
    }

    /// The values of an attribute with their type mapped to the output (`NC_find_equal_type`).
    fn att_values(&self, v: &Values, og: GroupId) -> Result<Values, Failure> {
        let Values::User(t, vals) = v else {
            return Ok(v.clone());
        };
        match find_equal_type(self.s, *t, self.out.schema(), og) {
            Some(ot) => Ok(Values::User(ot, vals.clone())),
            None => {
                let name = self.s.user_type(*t).name.clone();
                Err(nc_error(ErrorKind::BadType, name, 1408))
            }
        }
    }

    /// `copy_vars`: every variable of `ig` (only the listed ones with `-V`).
    fn copy_vars(&mut self, ig: GroupId, og: GroupId) -> Result<(), Failure> {
        for v in plan::vars_to_define(self.s, ig, self.o) {
            self.copy_var(v, og)?;
        }
        Ok(())
    }

    /// `copy_var`: defines one variable, copies its attributes and its netCDF-4 properties.
    fn copy_var(&mut self, iv: VarId, og: GroupId) -> Result<(), Failure> {
        let var = self.s.var(iv);
        let typ = match var.typ {
            NcType::User(t) => {
                let name = &self.s.user_type(t).name;
                match find_typeid(self.out.schema(), og, name) {
                    Some(t) => t,
                    None => return Err(nc_error(ErrorKind::BadType, name.clone(), 1438)),
                }
            }
            t => t,
        };
        // netcdf-c defines the variable, then fails asking the length of the dimension it
        // could not find (`copy_chunking`).
        if let Some((_, e)) = self.input.dimension_error(iv) {
            return Err(Failure::Nc { err: e, line: 996 });
        }
        let mut dims = Vec::with_capacity(var.dims.len());
        for d in &var.dims {
            match self.dims.get(d) {
                Some(m) => dims.push(m.0),
                None => {
                    return Err(Failure::Message(format!(
                        "Oops, no dimension in output associated with input dimid {}",
                        d.0
                    )))
                }
            }
        }
        if let Err(k) = plan::type_allowed(self.outkind, typ) {
            return Err(nc_error(k, var.name.clone(), 1452));
        }
        let ov = self
            .out
            .add_variable_in(og, &var.name, typ, &dims)
            .at(1452)?;
        self.vars.insert(iv, ov);
        self.copy_atts(var.group, Some(iv), og, Some(ov))?;
        copy_var_specials(self, iv, ov)
    }
}

/// Groups of the tree under `g` in preorder (`nc_inq_grps_full`).
pub(crate) fn preorder(s: &Schema, g: GroupId, out: &mut Vec<GroupId>) {
    out.push(g);
    for &c in &s.group(g).groups {
        preorder(s, c, out);
    }
}

/// `nc_inq_typeid(g, name)` in the output: an atomic type name, else a type of `g` or one of
/// its ancestors, else the first of that name in preorder.
pub(crate) fn find_typeid(s: &Schema, g: GroupId, name: &str) -> Option<NcType> {
    if let Some(t) = NcType::from_cdl_name(name) {
        return Some(t);
    }
    let mut cur = Some(g);
    while let Some(c) = cur {
        if let Some(t) = s.find_type(c, name) {
            return Some(NcType::User(t));
        }
        cur = s.group(c).parent;
    }
    let mut all = Vec::new();
    preorder(s, ROOT, &mut all);
    all.into_iter()
        .find_map(|c| s.find_type(c, name))
        .map(NcType::User)
}

/// `NC_find_equal_type`: a type of output group `g`, its ancestors, then the whole output
/// breadth-first, equal to input type `t` as `NC_compare_nc_types` sees it.
fn find_equal_type(si: &Schema, t: TypeId, so: &Schema, g: GroupId) -> Option<TypeId> {
    let search = |grp: GroupId| {
        so.group(grp)
            .types
            .iter()
            .copied()
            .find(|&ot| types_equal(si, NcType::User(t), so, NcType::User(ot)))
    };
    let mut cur = Some(g);
    while let Some(c) = cur {
        if let Some(x) = search(c) {
            return Some(x);
        }
        cur = so.group(c).parent;
    }
    let mut queue = std::collections::VecDeque::from([ROOT]);
    while let Some(c) = queue.pop_front() {
        if let Some(x) = search(c) {
            return Some(x);
        }
        queue.extend(so.group(c).groups.iter().copied());
    }
    None
}

/// `NC_compare_nc_types`: same name, class and size, and the same base, members or fields (field
/// names are not compared).
fn types_equal(si: &Schema, a: NcType, so: &Schema, b: NcType) -> bool {
    let (NcType::User(ta), NcType::User(tb)) = (a, b) else {
        return a == b;
    };
    let (ua, ub) = (si.user_type(ta), so.user_type(tb));
    if ua.name != ub.name || si.type_size(a) != so.type_size(b) {
        return false;
    }
    match (&ua.kind, &ub.kind) {
        (UserTypeKind::Vlen { base: x }, UserTypeKind::Vlen { base: y }) => {
            types_equal(si, *x, so, *y)
        }
        (UserTypeKind::Opaque { .. }, UserTypeKind::Opaque { .. }) => true,
        (
            UserTypeKind::Enum {
                base: x,
                members: m,
            },
            UserTypeKind::Enum {
                base: y,
                members: n,
            },
        ) => x == y && m == n,
        (UserTypeKind::Compound { fields: f, .. }, UserTypeKind::Compound { fields: g, .. }) => {
            f.len() == g.len()
                && f.iter()
                    .zip(g)
                    .all(|(x, y)| x.dims == y.dims && types_equal(si, x.typ, so, y.typ))
        }
        _ => false,
    }
}
