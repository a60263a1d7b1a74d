//! A store held in memory: for tests, fuzzing and data built on the fly.

use std::collections::BTreeMap;
use std::sync::RwLock;

use crate::key::{check_key, immediate_children};
use crate::{Result, Store, StoreError};

/// Objects in a sorted map in memory.
#[derive(Debug, Default)]
pub struct MemoryStore {
    objects: RwLock<BTreeMap<String, Vec<u8>>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// A store holding these objects (keys are checked).
    ///
    /// # Errors
    /// [`StoreError::BadKey`] for a key that is not a plain relative path.
    pub fn from_objects(
        objects: impl IntoIterator<Item = (String, Vec<u8>)>,
    ) -> Result<MemoryStore> {
        let mut map = BTreeMap::new();
        for (k, v) in objects {
            check_key(&k)?;
            if k.is_empty() {
                return Err(StoreError::BadKey(k));
            }
            map.insert(k, v);
        }
        Ok(MemoryStore {
            objects: RwLock::new(map),
        })
    }
}

impl Store for MemoryStore {
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        check_key(key)?;
        Ok(self.objects.read().ok().and_then(|m| m.get(key).cloned()))
    }

    fn list(&self, prefix: &str) -> Result<Vec<String>> {
        check_key(prefix)?;
        let Ok(m) = self.objects.read() else {
            return Ok(Vec::new());
        };
        Ok(immediate_children(m.keys().map(String::as_str), prefix))
    }

    fn set(&self, key: &str, value: &[u8]) -> Result<()> {
        check_key(key)?;
        if key.is_empty() {
            return Err(StoreError::BadKey(String::new()));
        }
        if let Ok(mut m) = self.objects.write() {
            m.insert(key.to_string(), value.to_vec());
        }
        Ok(())
    }

    fn erase(&self, key: &str) -> Result<()> {
        check_key(key)?;
        let below = format!("{key}/");
        if let Ok(mut m) = self.objects.write() {
            m.retain(|k, _| !(key.is_empty() || k == key || k.starts_with(&below)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_children() {
        let s = MemoryStore::from_objects([
            (".zgroup".to_string(), b"{}".to_vec()),
            ("a/.zarray".to_string(), Vec::new()),
            ("a/0".to_string(), Vec::new()),
            ("ab".to_string(), Vec::new()),
        ])
        .unwrap();
        assert_eq!(s.list("").unwrap(), vec![".zgroup", "a", "ab"]);
        assert_eq!(s.list("a").unwrap(), vec![".zarray", "0"]);
        s.erase("a").unwrap();
        assert_eq!(s.list("").unwrap(), vec![".zgroup", "ab"]);
        assert!(MemoryStore::from_objects([("/x".to_string(), Vec::new())]).is_err());
    }
}
