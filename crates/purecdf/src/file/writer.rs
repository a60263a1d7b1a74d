//! [`Writer`]: the write backend of a [`FileMut`](super::FileMut), shared by all its handles.
//!
//! georust `netcdf` hands out several write handles on one file at once (`variables_mut()` is an
//! [`Iterator`] of [`VariableMut`](super::VariableMut)s, and a `VariableMut` derefs to a
//! [`Variable`](super::Variable)), so writes go through `&FileMut`: the backend sits behind a
//! [`Mutex`], locked for each call.
//!
//! Reads of the metadata hand out plain references (`&Schema`, `&Attribute`, `&str`) that live
//! as long as the borrow of the file, while a handle may change the metadata meanwhile. So they
//! read a *published* copy of the schema: an `Arc<Schema>` taken from the backend the first time
//! the metadata is read after a change, and kept, never changed, until the file is next borrowed
//! mutably (`&mut FileMut`, when no reference into the copies can be left). Backends that keep
//! their schema copy-on-write ([`BackendMut::schema_arc`]) make publishing a reference count;
//! for the others, the schema is copied when it differs from the newest copy.
//!
//! A file open for reading has no [`Writer`], no lock and no copy: its reads are as before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use crate::backend::BackendMut;
use crate::model::Schema;

/// The write backend behind its lock, and the schema copies published from it.
pub(crate) struct Writer {
    backend: Mutex<Box<dyn BackendMut>>,
    published: Published,
    /// Set (under the lock, before the change) when the backend's schema may have changed since
    /// the newest published copy.
    stale: AtomicBool,
    /// Set (likewise) when a data write may have changed lengths (and only lengths) since the
    /// newest published copy.
    grown: AtomicBool,
}

impl Writer {
    pub(crate) fn new(backend: Box<dyn BackendMut>) -> Self {
        Writer {
            backend: Mutex::new(backend),
            published: Published::default(),
            stale: AtomicBool::new(true),
            grown: AtomicBool::new(false),
        }
    }

    /// The backend, locked (a panic in another handle's call does not lock it for good).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Box<dyn BackendMut>> {
        self.backend.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs a call that may change the dataset, through a shared handle.
    pub(crate) fn change<T>(&self, f: impl FnOnce(&mut dyn BackendMut) -> T) -> T {
        let mut b = self.lock();
        self.stale.store(true, Ordering::Release);
        f(b.as_mut())
    }

    /// Runs a data write through a shared handle: it may change lengths (records written), and
    /// nothing else a name, attribute or type read sees.
    pub(crate) fn change_data<T>(&self, f: impl FnOnce(&mut dyn BackendMut) -> T) -> T {
        let mut b = self.lock();
        self.grown.store(true, Ordering::Release);
        f(b.as_mut())
    }

    /// The backend, with no lock: `&mut self` proves no handle is left, so the published
    /// copies are dropped too.
    pub(crate) fn get_mut(&mut self) -> &mut dyn BackendMut {
        self.published.clear();
        *self.stale.get_mut() = true;
        *self.grown.get_mut() = false;
        self.backend
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .as_mut()
    }

    /// Runs `f` on the schema as it is now, under the lock, publishing no copy: for reads that
    /// return owned values (lengths, shapes), so a loop that writes records and asks for them
    /// makes no copies.
    pub(crate) fn with_live_schema<T>(&self, f: impl FnOnce(&Schema) -> T) -> T {
        let b = self.lock();
        f(b.schema())
    }

    /// The schema as it is now, published if it changed since the newest copy.
    pub(crate) fn schema(&self) -> &Schema {
        self.published_schema(true)
    }

    /// The schema for reads of names, attributes, types and ids: the newest copy unless one of
    /// those may have changed since. Lengths in it may be behind the data writes since (they
    /// are read live, [`Writer::with_live_schema`]), so a loop that writes records and reads an
    /// attribute by reference publishes no copy per record.
    pub(crate) fn schema_for_names(&self) -> &Schema {
        self.published_schema(false)
    }

    fn published_schema(&self, exact_lengths: bool) -> &Schema {
        let behind = self.stale.load(Ordering::Acquire)
            || (exact_lengths && self.grown.load(Ordering::Acquire));
        if !behind {
            if let Some(s) = self.published.last() {
                return s;
            }
        }
        let b = self.lock();
        let last = self.published.last();
        let s = match (b.schema_arc(), last) {
            (Some(now), Some(last)) if Arc::ptr_eq(last, &now) => last,
            (Some(now), _) => self.published.push(now),
            (None, Some(last)) if **last == *b.schema() => last,
            (None, _) => self.published.push(Arc::new(b.schema().clone())),
        };
        self.stale.store(false, Ordering::Release);
        self.grown.store(false, Ordering::Release);
        s
    }
}

/// Published schema copies, oldest first: a list that only grows while the file is borrowed
/// (each node set once), so a reference to any copy lives as long as the borrow.
#[derive(Default)]
struct Published {
    head: OnceLock<Box<Node>>,
}

struct Node {
    schema: Arc<Schema>,
    next: OnceLock<Box<Node>>,
}

impl Published {
    /// The newest copy.
    fn last(&self) -> Option<&Arc<Schema>> {
        let mut n = self.head.get()?;
        while let Some(next) = n.next.get() {
            n = next;
        }
        Some(&n.schema)
    }

    /// Adds the newest copy (the caller holds the backend's lock, so pushes do not race).
    fn push(&self, schema: Arc<Schema>) -> &Arc<Schema> {
        let mut slot = &self.head;
        while let Some(n) = slot.get() {
            slot = &n.next;
        }
        let node = slot.get_or_init(|| {
            Box::new(Node {
                schema,
                next: OnceLock::new(),
            })
        });
        &node.schema
    }

    /// How many copies are kept.
    #[cfg(test)]
    fn count(&self) -> usize {
        let mut n = 0;
        let mut at = self.head.get();
        while let Some(node) = at {
            n += 1;
            at = node.next.get();
        }
        n
    }

    /// Drops every copy (one node after another, not recursively).
    fn clear(&mut self) {
        let mut next = self.head.take();
        while let Some(mut n) = next {
            next = n.next.take();
        }
    }
}

impl Drop for Published {
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use crate::{create, create_with, Options};

    /// References read through one handle outlive changes made through another, which the next
    /// read sees; an unchanged schema is not published again.
    fn shared_handles(mut file: crate::FileMut) {
        file.add_dimension("x", 2).unwrap();
        for name in ["a", "b"] {
            file.add_variable::<i32>(name, &["x"]).unwrap();
        }
        let mut vars: Vec<_> = file.variables_mut().collect();
        let name: &str = vars[0].name_str();
        let first = std::ptr::from_ref(vars[0].file.schema());
        assert_eq!(std::ptr::from_ref(vars[1].file.schema()), first);
        vars[1].put_attribute("units", "m").unwrap();
        vars[1].rename("c").unwrap();
        assert_eq!(name, "a");
        assert_eq!(vars[1].name_str(), "c");
        assert!(vars[1].attribute("units").is_some());
        assert!(vars[0].attribute("units").is_none());
        drop(vars);
        file.enddef().unwrap();
        let mut vars: Vec<_> = file.variables_mut().collect();
        vars[0].put_values(&[1, 2], ..).unwrap();
        vars[1].put_values(&[3, 4], ..).unwrap();
        assert_eq!(vars[0].get_values::<i32, _>(..).unwrap(), [1, 2]);
        assert_eq!(vars[1].get_values::<i32, _>(..).unwrap(), [3, 4]);
        drop(vars);
        let names: Vec<String> = file.variables().map(|v| v.name()).collect();
        assert_eq!(names, ["a", "c"]);
        file.close().unwrap();
    }

    #[test]
    fn classic_and_netcdf4_handles_share_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let classic = create_with(dir.path().join("c.nc"), Options::CLASSIC).unwrap();
        shared_handles(classic);
        shared_handles(create(dir.path().join("n.nc")).unwrap());
    }

    /// Writing records through a handle and asking for lengths and shapes after each (reads
    /// of owned values) publishes no schema copy, so memory does not grow with the records.
    #[test]
    fn record_loops_asking_for_lengths_publish_no_copies() {
        let dir = tempfile::tempdir().unwrap();
        for opts in [Options::CLASSIC, Options::NETCDF4] {
            let mut f = create_with(dir.path().join("r.nc"), opts).unwrap();
            f.add_unlimited_dimension("t").unwrap();
            f.add_dimension("x", 2).unwrap();
            f.add_variable::<f64>("v", &["t", "x"])
                .unwrap()
                .put_attribute("units", "K")
                .unwrap();
            f.enddef().unwrap();
            let mut v = f.variable_mut("v").unwrap();
            let before = match &v.file.handle {
                crate::file::Handle::Write(w) => w.published.count(),
                crate::file::Handle::Read(_) => unreachable!(),
            };
            for i in 0..200usize {
                v.put_values(&[1.0, 2.0], (i, ..)).unwrap();
                assert_eq!(v.len(), 2 * (i + 1));
                assert_eq!(v.dimensions()[0].len(), i + 1);
                assert_eq!(v.shape(), [i as u64 + 1, 2]);
                // Reads of names and attributes by reference.
                assert_eq!(v.name_str(), "v");
                assert!(v.attribute("units").is_some());
                assert_eq!(v.dimensions()[0].name_str(), "t");
                assert!(v.file.variable("v").is_some());
            }
            let after = match &v.file.handle {
                crate::file::Handle::Write(w) => w.published.count(),
                crate::file::Handle::Read(_) => unreachable!(),
            };
            assert!(after <= before + 2, "{before} -> {after} schema copies");
            // The whole schema, asked for, has every record.
            let t = v.file.schema().find_dim(crate::model::ROOT, "t").unwrap();
            assert_eq!(v.file.schema().dim(t).len(), 200);
        }
    }
}
