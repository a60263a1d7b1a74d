//! A file opened from bytes finds the files its external links name through a
//! `RelatedOpener` (here one serving files from memory, as a remote server would), and never on
//! the local file system, even when a name is an absolute path to a local HDF5 file.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use purecdf_hdf5::read::family::{RelatedFile, RelatedOpener};
use purecdf_hdf5::read::{Dataset, Hdf5File};
use purecdf_hdf5::write::{Hdf5Writer, Target};

const DIR: &str = "mem://host/a/";

/// Files in memory by key, a directory `DIR`; records every name it resolves and key it opens.
#[derive(Debug, Clone, Default)]
struct MemOpener {
    files: Arc<HashMap<String, Vec<u8>>>,
    resolved: Arc<Mutex<Vec<String>>>,
    opened: Arc<Mutex<Vec<String>>>,
}

impl RelatedOpener for MemOpener {
    fn resolve(&self, name: &str) -> Option<String> {
        self.resolved.lock().unwrap().push(name.to_string());
        Some(format!("{DIR}{name}"))
    }

    fn open(&self, key: &str) -> std::io::Result<Option<RelatedFile>> {
        self.opened.lock().unwrap().push(key.to_string());
        if key.ends_with("broken.h5") {
            return Err(std::io::Error::other("refused"));
        }
        Ok(self.files.get(key).map(|b| RelatedFile {
            source: Arc::new(b.clone()),
            opener: Arc::new(self.clone()),
        }))
    }
}

fn fixture(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vds")
        .join(name);
    std::fs::read(p).unwrap()
}

fn floats(f: &Hdf5File, path: &str) -> Vec<f32> {
    let root = f.superblock().root_object_header;
    let (file, addr) = f.resolve_object(root, path).unwrap();
    Dataset::load(&file, addr)
        .unwrap()
        .read_raw()
        .unwrap()
        .chunks(4)
        .map(|x| f32::from_le_bytes(x.try_into().unwrap()))
        .collect()
}

/// `bytes` opened as the file `DIR/name`, with `opener`.
fn open(bytes: Vec<u8>, name: &str, opener: &MemOpener) -> Hdf5File {
    let mut f = Hdf5File::open(Arc::new(bytes)).unwrap();
    f.set_related_opener(&format!("{DIR}{name}"), Arc::new(opener.clone()));
    f
}

#[test]
fn links_resolve_through_the_opener_and_never_locally() {
    let tmp = tempfile::tempdir().unwrap();
    // A valid HDF5 file on the local disk, which an absolute link name points at.
    let local = tmp.path().join("local_only.h5");
    std::fs::write(&local, fixture("elink_chain_c.h5")).unwrap();
    let linking = tmp.path().join("remote.h5");
    let mut w = Hdf5Writer::create(&linking).unwrap();
    let root = w.root();
    let ext = |file: &str, path: &str| Target::External(file.to_string(), path.to_string());
    let links = [
        ("near", ext("elink_chain_c.h5", "/v")),
        ("near_again", ext("elink_chain_c.h5", "/v")),
        ("far", ext("/elsewhere/dir/elink_chain_c.h5", "/v")),
        ("self", ext("remote.h5", "/")),
        ("local", ext(local.to_str().unwrap(), "/v")),
        ("hostname", ext("/etc/hostname", "/")),
        ("missing", ext("missing.h5", "/")),
        ("broken", ext("broken.h5", "/")),
    ];
    for (name, target) in links {
        w.link(root, name, target).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let opener = MemOpener {
        files: Arc::new(HashMap::from([(
            format!("{DIR}elink_chain_c.h5"),
            fixture("elink_chain_c.h5"),
        )])),
        ..MemOpener::default()
    };
    let f = open(std::fs::read(&linking).unwrap(), "remote.h5", &opener);
    let root = f.superblock().root_object_header;

    // A relative name, and an absolute one by its last component: one file, opened once.
    for p in ["/near", "/near_again", "/far"] {
        assert_eq!(floats(&f, p), [1.5, 2.5], "{p}");
        assert_eq!(f.resolve_object(root, p).unwrap().0.file_number(), 1);
    }
    // The file's own key is its identity: a link to itself stays in file 0.
    let (me, addr) = f.resolve_object(root, "/self").unwrap();
    assert_eq!((me.file_number(), addr), (0, root));
    assert_eq!(
        *opener.opened.lock().unwrap(),
        [format!("{DIR}elink_chain_c.h5")]
    );

    // An absolute path to a local HDF5 file (or any local file) is not opened: only its last
    // component is asked of the opener, which has no such file.
    assert!(f.resolve_object(root, "/local").is_err());
    assert!(f.resolve_object(root, "/hostname").is_err());
    let resolved = opener.resolved.lock().unwrap().clone();
    assert!(resolved.contains(&"local_only.h5".to_string()));
    assert!(resolved.contains(&"hostname".to_string()));
    assert!(resolved.iter().all(|n| !n.contains('/')), "{resolved:?}");

    // A missing file does not resolve; a file the opener fails to read is an error too.
    assert!(f.resolve_object(root, "/missing").is_err());
    assert!(f.resolve_object(root, "/broken").is_err());
}

#[test]
fn a_chain_of_links_keeps_to_the_opener() {
    let opener = MemOpener {
        files: Arc::new(HashMap::from([
            (
                format!("{DIR}elink_chain_b.h5"),
                fixture("elink_chain_b.h5"),
            ),
            (
                format!("{DIR}elink_chain_c.h5"),
                fixture("elink_chain_c.h5"),
            ),
        ])),
        ..MemOpener::default()
    };
    let f = open(fixture("elink_chain_a.h5"), "elink_chain_a.h5", &opener);
    // hop -> b:/g; its soft link -> /g/last -> c:/v, each opened through the opener.
    assert_eq!(floats(&f, "/hop/soft"), [1.5, 2.5]);
    assert_eq!(floats(&f, "/hop/last"), [1.5, 2.5]);
    assert_eq!(opener.opened.lock().unwrap().len(), 2);
}
