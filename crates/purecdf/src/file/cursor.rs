//! [`HandlesMut`]: the variables or child groups of a group, handed out for writing one at a
//! time ([`VariablesMut`], [`GroupsMut`]).

use super::{FileMut, GroupMut, VariableMut};
use crate::model::{GroupId, VarId};

/// Handles for writing, handed out one at a time (georust's `variables_mut` and `groups_mut`,
/// as a lending cursor rather than an [`Iterator`]).
///
/// A [`VariableMut`] or [`GroupMut`] borrows the whole file mutably, so each handle `next`
/// returns must be dropped before the next call, as in
/// `while let Some(mut var) = vars.next() { ... }`.
pub struct HandlesMut<'f, Id> {
    file: &'f mut FileMut,
    ids: std::vec::IntoIter<Id>,
}

/// The variables of a group, for writing one after another (from [`FileMut::variables_mut`]
/// and [`GroupMut::variables_mut`]).
pub type VariablesMut<'f> = HandlesMut<'f, VarId>;

/// The child groups of a group, for writing one after another (from [`FileMut::groups_mut`]
/// and [`GroupMut::groups_mut`]).
pub type GroupsMut<'f> = HandlesMut<'f, GroupId>;

impl<Id: std::fmt::Debug> std::fmt::Debug for HandlesMut<'_, Id> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HandlesMut")
            .field("remaining", &self.ids.as_slice())
            .finish()
    }
}

impl<'f, Id> HandlesMut<'f, Id> {
    pub(crate) fn new(file: &'f mut FileMut, ids: Vec<Id>) -> Self {
        HandlesMut {
            file,
            ids: ids.into_iter(),
        }
    }

    /// How many are left.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when none are left.
    pub fn is_empty(&self) -> bool {
        self.ids.len() == 0
    }
}

impl HandlesMut<'_, VarId> {
    /// The next variable for writing, in definition order; `None` after the last.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<VariableMut<'_>> {
        let id = self.ids.next()?;
        Some(VariableMut::new(self.file, id))
    }
}

impl HandlesMut<'_, GroupId> {
    /// The next child group for writing, in definition order; `None` after the last.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<GroupMut<'_>> {
        let id = self.ids.next()?;
        Some(GroupMut::new(self.file, id))
    }
}
