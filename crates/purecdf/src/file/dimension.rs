//! [`Dimension`]: a handle on one dimension of an open dataset (georust `netcdf`'s), and
//! [`DimensionIdentifier`], which names a dimension across groups for
//! [`FileMut::add_variable_from_identifiers`](super::FileMut::add_variable_from_identifiers).

use super::File;
use crate::model::{self, DimId, GroupId};

/// A dimension of an open dataset. Derefs to the data model's [`model::Dimension`] (its
/// `name`, `len`, `unlimited` and `group` fields).
#[derive(Clone, Copy)]
pub struct Dimension<'f> {
    file: &'f File,
    id: DimId,
}

/// Names one dimension of one open dataset, wherever its group is (georust `netcdf`'s): from
/// [`Dimension::identifier`], for
/// [`FileMut::add_variable_from_identifiers`](super::FileMut::add_variable_from_identifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DimensionIdentifier {
    pub(crate) dataset: u64,
    pub(crate) dim: DimId,
}

impl DimensionIdentifier {
    /// The dimension's id in its dataset.
    pub fn dim_id(&self) -> DimId {
        self.dim
    }
}

impl std::fmt::Debug for Dimension<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.def().fmt(f)
    }
}

impl std::ops::Deref for Dimension<'_> {
    type Target = model::Dimension;
    fn deref(&self) -> &model::Dimension {
        self.def()
    }
}

impl<'f> Dimension<'f> {
    pub(crate) fn new(file: &'f File, id: DimId) -> Self {
        Dimension { file, id }
    }

    /// The dimension as the data model holds it.
    pub fn def(&self) -> &'f model::Dimension {
        self.file.schema().dim(self.id)
    }

    /// The definition for reads of the name and group (see [`File::schema_for_names`]; its
    /// length may be behind the records written since).
    fn def_names(&self) -> &'f model::Dimension {
        self.file.schema_for_names().dim(self.id)
    }

    /// The dimension's id.
    pub fn id(&self) -> DimId {
        self.id
    }

    /// The group that defines the dimension.
    pub fn group_id(&self) -> GroupId {
        self.def_names().group
    }

    /// The dimension's name (a `String`, as georust `netcdf` returns it; see
    /// [`Dimension::name_str`]).
    pub fn name(&self) -> String {
        self.def_names().name.clone()
    }

    /// The dimension's name, borrowed.
    pub fn name_str(&self) -> &'f str {
        &self.def_names().name
    }

    /// Current length (for an unlimited dimension, the records written so far).
    pub fn len(&self) -> usize {
        self.file.with_schema(|s| s.dim(self.id).len())
    }

    /// True when the dimension has length 0.
    pub fn is_empty(&self) -> bool {
        self.file.with_schema(|s| s.dim(self.id).is_empty())
    }

    /// True for an unlimited (record) dimension.
    pub fn is_unlimited(&self) -> bool {
        self.file.with_schema(|s| s.dim(self.id).unlimited)
    }

    /// Names this dimension for
    /// [`FileMut::add_variable_from_identifiers`](super::FileMut::add_variable_from_identifiers),
    /// from any group of the same dataset.
    pub fn identifier(&self) -> DimensionIdentifier {
        DimensionIdentifier {
            dataset: self.file.dataset,
            dim: self.id,
        }
    }
}
