//! Debug aid: prints an HDF5 file's superblock and, for every object reachable from the root,
//! its object header (version, flags) and messages (type, flags, size, version byte), so that the
//! files we write can be compared structurally with those written by libhdf5.
use std::collections::HashSet;
use std::sync::Arc;

use purecdf_hdf5::format::object_header::MessageType;
use purecdf_hdf5::read::{Group, Hdf5File};

fn main() {
    let path = std::env::args().nth(1).expect("usage: h5structure FILE");
    let src = purecdf_hdf5::io::FileSource::open(&path).expect("open");
    let f = Hdf5File::open(Arc::new(src)).expect("superblock");
    println!("{:?}", f.superblock());
    let mut seen = HashSet::new();
    walk(&f, "/", f.superblock().root_object_header, &mut seen);
}

fn walk(f: &Hdf5File, path: &str, addr: u64, seen: &mut HashSet<u64>) {
    if !seen.insert(addr) {
        println!("{path} -> {addr} (seen)");
        return;
    }
    let oh = match f.object_header(addr) {
        Ok(oh) => oh,
        Err(e) => {
            println!("{path} @{addr}: {e}");
            return;
        }
    };
    println!(
        "{path} @{addr}: v{} flags {:#x} mtime {:?}",
        oh.version, oh.flags, oh.mtime
    );
    for m in &oh.messages {
        println!(
            "   type {:#04x} flags {:#x} order {:?} size {} @{} first {:02x?}",
            m.mtype.0,
            m.flags,
            m.creation_order,
            m.data.len(),
            m.offset,
            &m.data[..m.data.len().min(if std::env::var("FULL").is_ok() {
                4096
            } else {
                12
            })]
        );
    }
    let is_group = oh.message(MessageType::SYMBOL_TABLE).is_some()
        || oh.message(MessageType::LINK_INFO).is_some()
        || oh.message(MessageType::LINK).is_some();
    if is_group {
        let g = Group::load(f, addr).expect("group");
        for m in g.members().expect("members") {
            if let Some(a) = m.address {
                let p = format!("{}{}/", path, m.name);
                walk(f, &p, a, seen);
            }
        }
    }
}
