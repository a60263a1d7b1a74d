//! What the adders of [`FileMut`] and [`GroupMut`] share: as in georust `netcdf`, the name of
//! what is added may be a path below the group it is added from (`a/b/name`), and a
//! variable's dimensions are found from the group it goes in.

use super::{Dimension, DimensionIdentifier, FileMut, GroupMut, VariableMut};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{Attribute, GroupId, NcType, Values};

/// How an adder finds the type of a variable, given the group the variable goes in.
pub(crate) trait TypeIn: FnOnce(&FileMut, GroupId) -> Result<NcType> {}
impl<F: FnOnce(&FileMut, GroupId) -> Result<NcType>> TypeIn for F {}

/// The parts of a path: the groups on the way and the last part (the name itself).
fn split(path: &str) -> (impl Iterator<Item = &str>, &str) {
    match path.rsplit_once('/') {
        Some((groups, stem)) => (Some(groups.split('/')).into_iter().flatten(), stem),
        None => (None.into_iter().flatten(), path),
    }
}

impl FileMut {
    /// The group the groups of `path` lead to from group `g`, and the last part of `path`.
    ///
    /// # Errors
    /// NC_EBADNAME when a group on the way is missing (netcdf-c's error for a name with `/`).
    pub(crate) fn parent_and_stem<'n>(
        &self,
        g: GroupId,
        path: &'n str,
    ) -> Result<(GroupId, &'n str)> {
        let (groups, stem) = split(path);
        self.live(|s| {
            let mut at = g;
            for p in groups {
                at = s.find_group(at, p).ok_or_else(|| {
                    Error::with_detail(ErrorKind::BadName, format!("{path}: no group {p}"))
                })?;
            }
            Ok((at, stem))
        })
    }

    pub(crate) fn add_attribute_at(
        &self,
        g: GroupId,
        name: &str,
        values: Values,
    ) -> Result<Attribute> {
        let (g, stem) = self.parent_and_stem(g, name)?;
        self.put_attribute_returned(g, None, stem, values)
    }

    pub(crate) fn add_dimension_at(
        &self,
        g: GroupId,
        name: &str,
        len: u64,
        unlimited: bool,
    ) -> Result<Dimension<'_>> {
        let (g, stem) = self.parent_and_stem(g, name)?;
        let d = self.add_dimension_in(g, stem, len, unlimited)?;
        Ok(Dimension::new(self, d))
    }

    /// Adds the group `path` names below group `g`, and the groups on the way that are missing.
    pub(crate) fn add_group_at(&self, g: GroupId, path: &str) -> Result<GroupMut<'_>> {
        let (groups, stem) = split(path);
        let mut at = g;
        for p in groups {
            at = match self.live(|s| s.find_group(at, p)) {
                Some(child) => child,
                None => self.add_group_in(at, p)?,
            };
        }
        let id = self.add_group_in(at, stem)?;
        Ok(GroupMut::new(self, id))
    }

    pub(crate) fn add_variable_at(
        &self,
        g: GroupId,
        name: &str,
        dims: &[&str],
        typ: impl TypeIn,
    ) -> Result<VariableMut<'_>> {
        let (g, stem) = self.parent_and_stem(g, name)?;
        let typ = typ(self, g)?;
        let ids = self.dim_ids(g, dims)?;
        let id = self.add_variable_in(g, stem, typ, &ids)?;
        Ok(VariableMut::new(self, id))
    }

    pub(crate) fn add_variable_from_ids_at(
        &self,
        g: GroupId,
        name: &str,
        dims: &[DimensionIdentifier],
        typ: impl TypeIn,
    ) -> Result<VariableMut<'_>> {
        let (g, stem) = self.parent_and_stem(g, name)?;
        let mut ids = Vec::with_capacity(dims.len());
        for d in dims {
            if d.dataset != self.dataset {
                let e = Error::with_detail(
                    ErrorKind::BadDim,
                    format!("{name}: a dimension identifier of another dataset"),
                );
                return Err(e.georust(crate::GeorustError::WrongDataset));
            }
            ids.push(d.dim);
        }
        let typ = typ(self, g)?;
        let id = self.add_variable_in(g, stem, typ, &ids)?;
        Ok(VariableMut::new(self, id))
    }
}
