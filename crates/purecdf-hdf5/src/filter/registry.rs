//! Filters added by users: a process-wide table from HDF5 filter id to a [`FilterFactory`],
//! which [`super::build`] and [`super::is_available`] consult for every id that is not built in.
//!
//! Only ids from [`FIRST_USER_ID`] (256) to 65535 can be registered (HDF5 keeps 0–255 for its
//! own filters), and never the id of a built-in filter: data that a built-in filter wrote is
//! always read by that filter, never silently by another implementation.
//!
//! A user filter runs behind a guard: its output is checked against the bound the pipeline
//! gives (a decoder that returns more bytes than allowed gives [`FilterError::Corrupt`], and the
//! oversized buffer is dropped at once), and a panic inside it becomes an error of that chunk
//! instead of unwinding through the reader or the writer.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use super::{Filter, FilterError};

/// The lowest id a user filter may take (HDF5 keeps the ids below it for its own filters).
pub const FIRST_USER_ID: u16 = 256;

/// Builds a user filter from a variable's parameters, as the built-in filters are built: the
/// filter's client data (the parameters stored in the file's filter pipeline, or given when
/// the filter is defined on a variable) and the size in bytes of one element of the data.
///
/// The filter is built once per chunk and per thread, on rayon's pool when chunks are encoded
/// or decoded in parallel, hence `Send + Sync`. Any function or closure with the signature of
/// [`FilterFactory::build`] is a factory.
pub trait FilterFactory: Send + Sync {
    /// The filter for these parameters; [`FilterError::BadParams`] when they are not valid.
    fn build(
        &self,
        client_data: &[u32],
        element_size: usize,
    ) -> Result<Box<dyn Filter>, FilterError>;
}

impl<F> FilterFactory for F
where
    F: Fn(&[u32], usize) -> Result<Box<dyn Filter>, FilterError> + Send + Sync,
{
    fn build(
        &self,
        client_data: &[u32],
        element_size: usize,
    ) -> Result<Box<dyn Filter>, FilterError> {
        self(client_data, element_size)
    }
}

/// Why a filter could not be registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegisterError {
    /// The id is below [`FIRST_USER_ID`]: HDF5 keeps it for its own filters.
    Reserved(u16),
    /// A built-in filter has this id.
    BuiltIn(u16),
}

impl std::fmt::Display for RegisterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegisterError::Reserved(id) => write!(
                f,
                "filter id {id} is reserved for HDF5 (user filters take {FIRST_USER_ID} to 65535)"
            ),
            RegisterError::BuiltIn(id) => {
                write!(f, "filter id {id} is built in and cannot be replaced")
            }
        }
    }
}

impl std::error::Error for RegisterError {}

type Table = HashMap<u16, Arc<dyn FilterFactory>>;

fn table() -> &'static RwLock<Table> {
    static TABLE: OnceLock<RwLock<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

/// Registers `factory` for filter `id`, for every file this process reads or writes from now
/// on; a filter registered before under the same id is replaced.
///
/// What the filter must honour:
/// - [`Filter::decode`] returns at most `max_out` bytes (the chunk's unfiltered size, plus a
///   few bytes of slack for the stages of a chain). Longer output is refused as corrupt data.
///   A decoder should stop as soon as its output would pass the bound rather than build a
///   larger buffer first: the guard can refuse the buffer, not prevent its allocation.
/// - [`Filter::decode_into`], when implemented, returns true only when it wrote exactly
///   `dst.len()` bytes.
/// - [`Filter::encode`] output is stored as the chunk (up to 4 GiB less one byte) and must
///   decode back to its input.
/// - The filter is deterministic and keeps no state between chunks: chunks are encoded and
///   decoded in parallel, in any order.
///
/// # Errors
/// [`RegisterError::Reserved`] for ids below [`FIRST_USER_ID`]; [`RegisterError::BuiltIn`] for
/// the id of a built-in filter.
pub fn register(id: u16, factory: impl FilterFactory + 'static) -> Result<(), RegisterError> {
    if id < FIRST_USER_ID {
        return Err(RegisterError::Reserved(id));
    }
    if super::is_builtin(id) {
        return Err(RegisterError::BuiltIn(id));
    }
    table()
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(id, Arc::new(factory));
    Ok(())
}

/// Removes the filter registered for `id`; true when there was one. Built-in filters are not
/// affected. Reads of data with that filter then fail as for any unknown filter.
pub fn unregister(id: u16) -> bool {
    table()
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&id)
        .is_some()
}

/// True when a user filter is registered for `id`.
pub fn is_registered(id: u16) -> bool {
    table()
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .contains_key(&id)
}

/// The ids of the registered user filters, in increasing order.
pub fn registered() -> Vec<u16> {
    let mut ids: Vec<u16> = table()
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .keys()
        .copied()
        .collect();
    ids.sort_unstable();
    ids
}

/// The registered filter for `id`, guarded; `None` when none is registered.
pub(super) fn build(
    id: u16,
    client_data: &[u32],
    element_size: usize,
) -> Option<Result<Box<dyn Filter>, FilterError>> {
    // The lock is held only to clone the factory: building may take time, and may register.
    let factory = table()
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&id)
        .cloned()?;
    let built = catch_unwind(AssertUnwindSafe(|| {
        factory.build(client_data, element_size)
    }))
    .unwrap_or_else(|_| Err(panicked(id)));
    Some(built.map(|inner| Box::new(Guarded { id, inner }) as Box<dyn Filter>))
}

fn panicked(id: u16) -> FilterError {
    FilterError::Corrupt(id, "the user filter panicked".into())
}

/// A user filter with its output bounded and its panics caught.
struct Guarded {
    id: u16,
    inner: Box<dyn Filter>,
}

impl Guarded {
    fn run<T>(&self, f: impl FnOnce() -> Result<T, FilterError>) -> Result<T, FilterError> {
        catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| Err(panicked(self.id)))
    }
}

impl Filter for Guarded {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        let out = self.run(|| self.inner.decode(input, max_out))?;
        if out.len() > max_out {
            return Err(FilterError::Corrupt(
                self.id,
                format!("decoded {} bytes, more than {max_out}", out.len()),
            ));
        }
        Ok(out)
    }
    fn decode_into(&self, input: &[u8], dst: &mut [u8]) -> bool {
        catch_unwind(AssertUnwindSafe(|| self.inner.decode_into(input, dst))).unwrap_or(false)
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        self.run(|| self.inner.encode(input))
    }
    fn encode_slice(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        self.run(|| self.inner.encode_slice(input))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::{build, is_available, BZIP2, DEFLATE, ZSTD};

    /// Adds `key` to every byte; decoding gives `extra` more bytes than it should.
    struct Add {
        key: u8,
        extra: usize,
    }

    impl Filter for Add {
        fn decode(&self, input: Vec<u8>, _max_out: usize) -> Result<Vec<u8>, FilterError> {
            let mut out: Vec<u8> = input.iter().map(|b| b.wrapping_sub(self.key)).collect();
            out.resize(out.len() + self.extra, 0);
            Ok(out)
        }
        fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
            Ok(input.iter().map(|b| b.wrapping_add(self.key)).collect())
        }
    }

    fn add(extra: usize) -> impl FilterFactory {
        move |cd: &[u32], _: usize| -> Result<Box<dyn Filter>, FilterError> {
            let key = *cd.first().ok_or(FilterError::BadParams(0))? as u8;
            Ok(Box::new(Add { key, extra }))
        }
    }

    // Each test uses its own ids: the registry is shared by the tests of this binary.

    #[test]
    fn register_build_unregister() {
        assert!(!is_available(41001));
        assert_eq!(
            build(41001, &[3], 1).err(),
            Some(FilterError::Unknown(41001))
        );
        register(41001, add(0)).unwrap();
        assert!(is_available(41001) && is_registered(41001));
        assert!(registered().contains(&41001));
        let f = build(41001, &[3], 1).unwrap();
        let enc = f.encode(vec![1, 2, 255]).unwrap();
        assert_eq!(enc, [4, 5, 2]);
        assert_eq!(f.decode(enc, 3).unwrap(), [1, 2, 255]);
        assert_eq!(build(41001, &[], 1).err(), Some(FilterError::BadParams(0)));
        assert!(unregister(41001));
        assert!(!unregister(41001));
        assert!(!is_available(41001));
    }

    #[test]
    fn built_in_and_reserved_ids_are_refused() {
        for id in [BZIP2, ZSTD, super::super::BLOSC, super::super::LZF] {
            assert_eq!(register(id, add(0)), Err(RegisterError::BuiltIn(id)));
        }
        for id in [0, DEFLATE, 255] {
            assert_eq!(register(id, add(0)), Err(RegisterError::Reserved(id)));
        }
        assert!(!is_registered(BZIP2));
    }

    #[test]
    fn oversized_output_and_panics_are_errors() {
        register(41002, add(1)).unwrap();
        let f = build(41002, &[1], 1).unwrap();
        assert!(matches!(
            f.decode(vec![1, 2, 3], 3),
            Err(FilterError::Corrupt(41002, _))
        ));
        assert_eq!(f.decode(vec![1, 2, 3], 4).unwrap(), [0, 1, 2, 0]);
        let boom =
            |_: &[u32], _: usize| -> Result<Box<dyn Filter>, FilterError> { panic!("factory bug") };
        register(41003, boom).unwrap();
        assert!(matches!(
            build(41003, &[], 1),
            Err(FilterError::Corrupt(41003, _))
        ));
    }
}
