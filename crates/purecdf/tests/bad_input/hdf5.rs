//! HDF5 inputs found by the `hdf5_open` and `hdf5_update` fuzz targets (`tests/data/read_bad`,
//! `tests/data/update_bad`), replayed under this binary's capped allocator: walking every group
//! and attribute, reading every dataset whose data is small (HDF5 File Format Specification v3.0,
//! datatype and dataspace messages give the sizes), then reading every small netCDF variable.
//! Errors are fine; a panic, a hang or an allocation beyond [`crate::ALLOC_LIMIT`] fails.

use std::path::Path;
use std::sync::Arc;

use purecdf_hdf5::read::{Dataset, Group, Hdf5File};

/// Datasets and variables with more data than this are not read whole (as in the fuzz target).
const READ_LIMIT: u64 = 1 << 20;

fn walk(f: &Hdf5File, g: &Group, depth: usize) {
    if depth > 8 {
        return;
    }
    let _ = g.attributes();
    let Ok(members) = g.members() else { return };
    for m in members {
        let Some(addr) = m.address else { continue };
        if let Ok(ds) = Dataset::load(f, addr) {
            let _ = ds.attributes();
            let _ = ds.chunks();
            let small = ds
                .space
                .num_elements()
                .and_then(|n| n.checked_mul(ds.element_size()))
                .is_some_and(|b| b <= READ_LIMIT);
            if small {
                let _ = ds.read_raw();
            }
        } else if let Ok(child) = Group::load(f, addr) {
            walk(f, &child, depth + 1);
        }
    }
}

fn replay(bytes: Vec<u8>) -> Result<(), String> {
    if let Ok(f) = Hdf5File::open(Arc::new(bytes.clone())) {
        if let Ok(root) = f.root() {
            walk(&f, &root, 0);
        }
    }
    if let Ok(file) = purecdf::open_mem(bytes) {
        for v in file.variables() {
            let bytes = v
                .shape()
                .iter()
                .try_fold(8u64, |a, d| a.checked_mul(*d))
                .unwrap_or(u64::MAX);
            if bytes <= READ_LIMIT {
                let _ = v.get_raw_values(..);
            }
        }
    }
    Ok(())
}

/// Every committed fuzz finding behaves.
#[test]
fn fuzz_findings_read_within_bounds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut cases = Vec::new();
    for dir in ["read_bad", "update_bad"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "h5" || x == "nc"))
            .collect();
        files.sort();
        for p in files {
            let label = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            cases.push((label, std::fs::read(&p).unwrap()));
        }
    }
    assert!(cases.len() >= 2, "fuzz findings missing: {}", cases.len());
    crate::run_cases("hdf5 fuzz findings", cases, |_, bytes| replay(bytes));
}

/// The dataset of `empty_dataset_huge_element.h5` has no elements and a datatype of about 1 GB:
/// reading it whole gives no bytes, without building a fill value of that size.
#[test]
fn empty_dataset_of_huge_element_reads_nothing() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/read_bad/empty_dataset_huge_element.h5");
    let f = Hdf5File::open(Arc::new(std::fs::read(&p).unwrap())).unwrap();
    let mut found = 0;
    let root = f.root().unwrap();
    for m in root.members().unwrap() {
        let Some(addr) = m.address else { continue };
        let Ok(ds) = Dataset::load(&f, addr) else {
            continue;
        };
        if ds.space.num_elements() == Some(0) && ds.element_size() > crate::ALLOC_LIMIT as u64 {
            assert_eq!(ds.read_raw().unwrap(), Vec::<u8>::new());
            found += 1;
        }
    }
    assert_eq!(found, 1, "the damaged dataset is in the fixture");
}
