//! HDF5 inputs found by the `hdf5_open` and `hdf5_update` fuzz targets (`tests/data/read_bad`,
//! `tests/data/update_bad`), replayed under this binary's capped allocator through what the
//! `hdf5_open` target does (`fuzz/common/hdf5_read.rs`). Errors are fine; a panic, a hang or an
//! allocation beyond [`crate::ALLOC_LIMIT`] fails.

use std::path::Path;
use std::sync::Arc;

use purecdf_hdf5::read::{Dataset, Hdf5File};

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
    crate::run_cases("hdf5 fuzz findings", cases, |_, bytes| {
        crate::hdf5_read::read_everything(&bytes);
        Ok(())
    });
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

/// The virtual dataset fixtures (`crates/purecdf-hdf5/tests/data/vds`) with every 4-byte word of
/// their mapping heap block set in turn to values that make counts, ranks, strides, lengths and
/// name offsets absurd (the block's checksum recomputed so that the damage is read), and the
/// hostile fixtures as they are (a dataset reading itself, a cycle of external links): read as
/// the `hdf5_open` fuzz target reads, within the allocation cap, without a panic or a hang.
#[test]
fn damaged_virtual_dataset_mappings_read_within_bounds() {
    use purecdf_hdf5::format::checksum::lookup3;
    use purecdf_hdf5::format::global_heap::GlobalHeapCollection;
    use purecdf_hdf5::format::messages::layout::Layout;

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf-hdf5/tests/data/vds");
    let mut cases = Vec::new();
    for name in [
        "missing.h5",
        "printf.h5",
        "unlim.h5",
        "shapes.h5",
        "nested.h5",
        "bad/self_ref.h5",
        "bad/heap_v1.h5",
        "bad/elink_cycle_a.h5",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        cases.push((name.to_string(), bytes.clone()));
        let f = Hdf5File::open(Arc::new(bytes.clone())).unwrap();
        let root = f.root().unwrap();
        for m in root.members().unwrap() {
            let Some(addr) = m.address else { continue };
            let Ok(ds) = Dataset::load(&f, addr) else {
                continue;
            };
            let Layout::Virtual { heap } = ds.layout else {
                continue;
            };
            let col = GlobalHeapCollection::read(f.source(), heap.collection, f.sizes()).unwrap();
            let obj = col.object(heap.index).unwrap().to_vec();
            let at = bytes
                .windows(obj.len())
                .position(|w| w == obj.as_slice())
                .expect("heap object in the file");
            let body = obj.len() - 4;
            for word in (0..body.saturating_sub(3)).step_by(4) {
                for v in [u32::MAX, 0x7fff_ffff, 0x0001_0000, 0] {
                    let mut b = bytes.clone();
                    b[at + word..at + word + 4].copy_from_slice(&v.to_le_bytes());
                    let sum = lookup3(&b[at..at + body]);
                    b[at + body..at + body + 4].copy_from_slice(&sum.to_le_bytes());
                    cases.push((format!("{name} {}+{word}={v:#x}", m.name), b));
                }
            }
        }
    }
    assert!(cases.len() > 100, "only {} cases", cases.len());
    crate::run_cases("damaged virtual datasets", cases, |_, bytes| {
        crate::hdf5_read::read_everything(&bytes);
        Ok(())
    });
}
