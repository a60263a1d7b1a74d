//! [`Group`] and [`GroupMut`]: handles on one group of a netCDF-4 dataset (the root group of
//! any), with georust `netcdf`'s names for what a group holds and what can be added to it.

use super::{Dimension, DimensionIdentifier, File, FileMut, Variable, VariableMut};
use crate::attribute::Attribute;
use crate::error::Result;
use crate::model::{GroupId, NcType};
use crate::types::{NcTypeDescriptor, NcVariableType};
use crate::AttributeValue;

/// A group, read-only.
#[derive(Clone, Copy)]
pub struct Group<'f> {
    file: &'f File,
    id: GroupId,
}

impl std::fmt::Debug for Group<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Group")
            .field("path", &self.file.schema().group_path(self.id))
            .finish()
    }
}

impl<'f> Group<'f> {
    pub(crate) fn new(file: &'f File, id: GroupId) -> Self {
        Group { file, id }
    }

    /// The group's definition: names and ids only, so read from
    /// [`File::schema_for_names`] (no copy per record written).
    fn def(&self) -> &'f crate::model::Group {
        self.file.schema_for_names().group(self.id)
    }

    /// The group's id.
    pub fn id(&self) -> GroupId {
        self.id
    }

    /// The group's name (`/` for the root; a `String`, as georust `netcdf` returns it, see
    /// [`Group::name_str`]).
    pub fn name(&self) -> String {
        self.def().name.clone()
    }

    /// The group's name, borrowed.
    pub fn name_str(&self) -> &'f str {
        &self.def().name
    }

    /// A variable of this group by name, or by path below it (`a/b/var`).
    pub fn variable(&self, name: &str) -> Option<Variable<'f>> {
        let (g, leaf) = self.file.resolve_path_from(self.id, name)?;
        let id = self.file.schema_for_names().find_var(g, leaf)?;
        Some(Variable::new(self.file, id))
    }

    /// The group's variables, in definition order.
    pub fn variables(&self) -> impl Iterator<Item = Variable<'f>> {
        self.file.group_variables(self.id)
    }

    /// An attribute of the group by name, or of a group below it by path (`a/b/att`).
    pub fn attribute(&self, name: &str) -> Option<Attribute<'f>> {
        let (g, leaf) = self.file.resolve_path_from(self.id, name)?;
        let atts = &self.file.schema_for_names().group(g).atts;
        atts.iter()
            .find(|a| a.name == leaf)
            .map(Attribute::borrowed)
    }

    /// The group's attributes in creation order (without netcdf-c's hidden ones).
    pub fn attributes(&self) -> impl Iterator<Item = Attribute<'f>> {
        crate::attribute::listed(&self.def().atts)
    }

    /// An attribute's value by name: `None` when there is no such attribute.
    pub fn attribute_value(&self, name: &str) -> Option<Result<AttributeValue>> {
        self.attribute(name).map(|a| a.value())
    }

    /// A dimension by name, of this group or an enclosing one (as netcdf-c finds it), or by
    /// path below this group.
    pub fn dimension(&self, name: &str) -> Option<Dimension<'f>> {
        let (g, leaf) = self.file.resolve_path_from(self.id, name)?;
        let d = self.file.schema_for_names().find_dim_visible(g, leaf)?;
        Some(Dimension::new(self.file, d))
    }

    /// The dimensions defined in this group, in definition order.
    pub fn dimensions(&self) -> impl Iterator<Item = Dimension<'f>> {
        let file = self.file;
        self.def()
            .dims
            .iter()
            .map(move |&d| Dimension::new(file, d))
    }

    /// A child group by name, or a path below this group (`a/b`).
    pub fn group(&self, name: &str) -> Option<Group<'f>> {
        let s = self.file.schema();
        let g = name
            .split('/')
            .filter(|p| !p.is_empty())
            .try_fold(self.id, |g, p| s.find_group(g, p))?;
        Some(Group::new(self.file, g))
    }

    /// The child groups, in definition order.
    pub fn groups(&self) -> impl Iterator<Item = Group<'f>> {
        let file = self.file;
        self.def().groups.iter().map(move |&g| Group::new(file, g))
    }

    /// The user-defined types defined in this group, described.
    pub fn types(&self) -> impl Iterator<Item = NcVariableType> + 'f {
        let s = self.file.schema();
        self.def()
            .types
            .iter()
            .map(move |t| crate::types::describe(s, NcType::User(*t)))
    }
}

/// A group open for writing. Derefs to [`Group`] for everything that reads (as georust
/// `netcdf`'s does). Handles share their [`FileMut`], so several may be open at once (see
/// [`FileMut::groups_mut`]).
pub struct GroupMut<'f> {
    group: Group<'f>,
    file: &'f FileMut,
}

impl std::fmt::Debug for GroupMut<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.group.fmt(f)
    }
}

impl<'f> std::ops::Deref for GroupMut<'f> {
    type Target = Group<'f>;
    fn deref(&self) -> &Group<'f> {
        &self.group
    }
}

impl<'f> GroupMut<'f> {
    pub(crate) fn new(file: &'f FileMut, id: GroupId) -> Self {
        GroupMut {
            group: Group::new(file, id),
            file,
        }
    }

    /// The group read-only (what the handle derefs to).
    pub fn view(&self) -> Group<'f> {
        self.group
    }

    /// A variable of this group by name, for writing.
    pub fn variable_mut(&mut self, name: &str) -> Option<VariableMut<'_>> {
        let (g, leaf) = self.file.resolve_path_from(self.id(), name)?;
        let id = self.file.live(|s| s.find_var(g, leaf))?;
        Some(VariableMut::new(self.file, id))
    }

    /// The group's variables for writing, in definition order: an [`Iterator`] (see
    /// [`FileMut::variables_mut`]).
    pub fn variables_mut(&mut self) -> crate::VariablesMut<'_> {
        let ids = self.file.live(|s| s.group(self.id()).vars.clone());
        crate::VariablesMut::new(self.file, ids)
    }

    /// The child groups for writing, in definition order: an [`Iterator`] (see
    /// [`FileMut::groups_mut`]).
    pub fn groups_mut(&mut self) -> crate::GroupsMut<'_> {
        let ids = self.file.live(|s| s.group(self.id()).groups.clone());
        crate::GroupsMut::new(self.file, ids)
    }

    /// A child group by name or path, for writing.
    pub fn group_mut(&mut self, name: &str) -> Option<GroupMut<'_>> {
        let id = self.file.live(|s| {
            name.split('/')
                .filter(|p| !p.is_empty())
                .try_fold(self.id(), |g, p| s.find_group(g, p))
        })?;
        Some(GroupMut::new(self.file, id))
    }

    /// Sets an attribute of the group, returning (a copy of) it as written.
    ///
    /// # Errors
    /// As netcdf-c's `nc_put_att`.
    pub fn add_attribute(
        &mut self,
        name: &str,
        value: impl crate::IntoAttributeValues,
    ) -> Result<Attribute<'static>> {
        self.file
            .add_attribute_at(self.group.id, name, value.into_attribute_values())
            .map(Attribute::owned)
    }

    /// Adds a fixed-length dimension to the group (length 0: unlimited), returning it.
    ///
    /// # Errors
    /// As netcdf-c's `nc_def_dim`.
    pub fn add_dimension(&mut self, name: &str, len: usize) -> Result<Dimension<'_>> {
        self.file
            .add_dimension_at(self.group.id, name, len as u64, false)
    }

    /// Adds an unlimited dimension to the group, returning it.
    ///
    /// # Errors
    /// As netcdf-c's `nc_def_dim`.
    pub fn add_unlimited_dimension(&mut self, name: &str) -> Result<Dimension<'_>> {
        self.file.add_dimension_at(self.group.id, name, 0, true)
    }

    /// Adds a child group.
    ///
    /// # Errors
    /// NC_ENAMEINUSE for a name taken.
    pub fn add_group(&mut self, name: &str) -> Result<GroupMut<'_>> {
        self.file.add_group_at(self.group.id, name)
    }

    /// Adds a variable of memory type `T` over dimensions named as seen from this group.
    ///
    /// # Errors
    /// NC_EBADDIM for an unknown dimension; as netcdf-c's `nc_def_var` otherwise.
    ///
    /// A derived user type ([`crate::types`]) is defined in this group first unless a type of
    /// its name is visible here already.
    pub fn add_variable<T: NcTypeDescriptor>(
        &mut self,
        name: &str,
        dims: &[&str],
    ) -> Result<VariableMut<'_>> {
        self.file
            .add_variable_at(self.group.id, name, dims, T::purecdf_nc_type)
    }

    /// Adds a variable of memory type `T` to this group over dimensions given by
    /// [`DimensionIdentifier`]s (see [`FileMut::add_variable_from_identifiers`]).
    ///
    /// # Errors
    /// As [`FileMut::add_variable_from_identifiers`].
    pub fn add_variable_from_identifiers<T: NcTypeDescriptor>(
        &mut self,
        name: &str,
        dims: &[DimensionIdentifier],
    ) -> Result<VariableMut<'_>> {
        self.file
            .add_variable_from_ids_at(self.group.id, name, dims, T::purecdf_nc_type)
    }

    /// As [`GroupMut::add_variable_from_identifiers`], of a described type (see
    /// [`GroupMut::add_variable_with_type`]).
    ///
    /// # Errors
    /// As [`FileMut::add_variable_from_identifiers`].
    pub fn add_variable_from_identifiers_with_type(
        &mut self,
        name: &str,
        dims: &[DimensionIdentifier],
        xtype: &NcVariableType,
    ) -> Result<VariableMut<'_>> {
        self.file
            .add_variable_from_ids_at(self.group.id, name, dims, |f: &FileMut, g| {
                crate::types::add_descriptor(f, g, xtype)
            })
    }

    /// Adds a variable whose type is given by a description (as georust's
    /// `add_variable_with_type`): an atomic type, a string, or a user type, which is looked up
    /// by name in this group and its ancestors and defined in this group when it is not found.
    ///
    /// # Errors
    /// As [`GroupMut::add_variable`]; NC_ENAMEINUSE when a different type has the user type's
    /// name.
    pub fn add_variable_with_type(
        &mut self,
        name: &str,
        dims: &[&str],
        xtype: &NcVariableType,
    ) -> Result<VariableMut<'_>> {
        self.file
            .add_variable_at(self.group.id, name, dims, |f: &FileMut, g| {
                crate::types::add_descriptor(f, g, xtype)
            })
    }

    /// Defines the type `T` stands for in this group (the user types it uses must be defined
    /// already, as in georust).
    ///
    /// # Errors
    /// As [`FileMut::add_type`].
    pub fn add_type<T: NcTypeDescriptor>(&mut self) -> Result<crate::TypeId> {
        self.add_type_from_descriptor(T::type_descriptor())
    }

    /// Defines a described type in this group.
    ///
    /// # Errors
    /// As [`FileMut::add_type`].
    pub fn add_type_from_descriptor(&mut self, typ: NcVariableType) -> Result<crate::TypeId> {
        self.file.add_type_in(self.group.id, &typ)
    }

    /// Adds a string variable over dimensions named as seen from this group.
    ///
    /// # Errors
    /// As [`GroupMut::add_variable`].
    pub fn add_string_variable(&mut self, name: &str, dims: &[&str]) -> Result<VariableMut<'_>> {
        self.add_variable_of_type(name, NcType::String, dims)
    }

    /// Adds a variable of any [`NcType`](enum@NcType) over dimensions named as seen from this
    /// group.
    ///
    /// # Errors
    /// As [`GroupMut::add_variable`].
    pub fn add_variable_of_type(
        &mut self,
        name: &str,
        typ: NcType,
        dims: &[&str],
    ) -> Result<VariableMut<'_>> {
        self.file
            .add_variable_at(self.group.id, name, dims, |_: &FileMut, _| Ok(typ))
    }
}
