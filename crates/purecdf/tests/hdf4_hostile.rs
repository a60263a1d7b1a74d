//! Damaged HDF4 files give errors, never panics or unbounded allocations: every fixture of
//! `tests/data/hdf4/` truncated at many lengths and with bytes changed at many places is opened
//! from memory and every small variable read.

use std::path::Path;

fn read_everything(bytes: Vec<u8>) {
    if let Ok(f) = purecdf::open_bytes(bytes) {
        for v in f.variables() {
            let _ = v.attributes().count();
            if v.len() <= 1 << 16 {
                let _ = v.get_typed_values(..);
            }
        }
    }
}

fn fixtures() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hdf4");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "hdf") {
            out.push(std::fs::read(p).unwrap());
        }
    }
    assert!(out.len() >= 7);
    out
}

#[test]
fn truncated_files() {
    for bytes in fixtures() {
        let step = (bytes.len() / 97).max(1);
        for n in (0..bytes.len()).step_by(step) {
            read_everything(bytes[..n].to_vec());
        }
    }
}

#[test]
fn changed_bytes() {
    for bytes in fixtures() {
        let step = (bytes.len() / 150).max(1);
        for (k, at) in (0..bytes.len()).step_by(step).enumerate() {
            for v in [0x00, 0xff, bytes[at] ^ (1 << (k % 8))] {
                let mut b = bytes.clone();
                b[at] = v;
                read_everything(b);
            }
        }
    }
}
