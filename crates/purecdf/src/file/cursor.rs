//! [`HandlesMut`]: the variables or child groups of a group, handed out for writing
//! ([`VariablesMut`], [`GroupsMut`]): georust `netcdf`'s `variables_mut` and `groups_mut`.

use super::{FileMut, GroupMut, VariableMut};
use crate::model::{GroupId, VarId};

/// Handles for writing, in definition order: an [`Iterator`] of [`VariableMut`]s or
/// [`GroupMut`]s (georust's `variables_mut` and `groups_mut`). The handles share the file, so
/// they may be kept side by side (`collect` them, or write in a `for` loop).
pub struct HandlesMut<'f, Id> {
    file: &'f FileMut,
    ids: std::vec::IntoIter<Id>,
}

/// The variables of a group, for writing (from [`FileMut::variables_mut`] and
/// [`GroupMut::variables_mut`]).
pub type VariablesMut<'f> = HandlesMut<'f, VarId>;

/// The child groups of a group, for writing (from [`FileMut::groups_mut`] and
/// [`GroupMut::groups_mut`]).
pub type GroupsMut<'f> = HandlesMut<'f, GroupId>;

impl<Id: std::fmt::Debug> std::fmt::Debug for HandlesMut<'_, Id> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandlesMut")
            .field("remaining", &self.ids.as_slice())
            .finish()
    }
}

impl<'f, Id> HandlesMut<'f, Id> {
    pub(crate) fn new(file: &'f FileMut, ids: Vec<Id>) -> Self {
        HandlesMut {
            file,
            ids: ids.into_iter(),
        }
    }
}

impl<'f> Iterator for HandlesMut<'f, VarId> {
    type Item = VariableMut<'f>;

    fn next(&mut self) -> Option<VariableMut<'f>> {
        let id = self.ids.next()?;
        Some(VariableMut::new(self.file, id))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ids.size_hint()
    }
}

impl<'f> Iterator for HandlesMut<'f, GroupId> {
    type Item = GroupMut<'f>;

    fn next(&mut self) -> Option<GroupMut<'f>> {
        let id = self.ids.next()?;
        Some(GroupMut::new(self.file, id))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ids.size_hint()
    }
}

impl ExactSizeIterator for HandlesMut<'_, VarId> {}
impl ExactSizeIterator for HandlesMut<'_, GroupId> {}
