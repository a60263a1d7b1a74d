//! Test stores that wrap another store (field `.0`) to watch or break some of its reads.
// Each test uses its own part of this shared module.
#![allow(unused_macros)]

/// The `list`, `set` and `erase` methods of a `Store` impl, handed to the wrapped store `self.0`
/// (for wrappers that only change reads).
macro_rules! delegate_listing_and_writes {
    () => {
        fn list(&self, prefix: &str) -> purecdf::store::Result<Vec<String>> {
            self.0.list(prefix)
        }
        fn set(&self, key: &str, value: &[u8]) -> purecdf::store::Result<()> {
            self.0.set(key, value)
        }
        fn erase(&self, key: &str) -> purecdf::store::Result<()> {
            self.0.erase(key)
        }
    };
}
