//! What the `hdf5_open` fuzz target does with one input, shared with the library's hostile-input
//! test (`crates/purecdf/tests/bad_input/hdf5.rs`), which replays the committed fuzz findings
//! through it. Walks every group, reads every attribute, enumerates chunks and reads datasets
//! with little data (HDF5 File Format Specification v3.0: the dataspace and datatype messages
//! give the sizes; virtual datasets read their sources), following soft and external links, then
//! opens the same bytes as a netCDF file and reads its small variables.
//! Errors are fine; panics, hangs and unbounded allocations are not.

use std::collections::HashSet;
use std::sync::Arc;

use purecdf_hdf5::read::{Dataset, Group, Hdf5File};

/// Datasets and variables with more data than this are not read whole.
const READ_LIMIT: u64 = 1 << 20;

/// Groups nested deeper than this are not walked.
const MAX_DEPTH: usize = 8;

/// Members of one group visited at most.
const MAX_MEMBERS: usize = 64;

/// Reads `data` through the HDF5 layer and then as a netCDF file.
pub(crate) fn read_everything(data: &[u8]) {
    if let Ok(f) = Hdf5File::open(Arc::new(data.to_vec())) {
        if let Ok(root) = f.root() {
            walk(&f, &root, 0, &mut HashSet::new());
        }
    }
    if let Ok(file) = purecdf::open_bytes(data.to_vec()) {
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
}

/// Walks `g`, each object once: links (soft ones especially) can reach a group from many
/// places, and a walk that followed every path would be exponential in the depth.
fn walk(f: &Hdf5File, g: &Group, depth: usize, seen: &mut HashSet<(u32, u64)>) {
    if depth > MAX_DEPTH || !seen.insert((f.file_number(), g.header().address)) {
        return;
    }
    let _ = g.attributes();
    let Ok(members) = g.members() else { return };
    for m in members.into_iter().take(MAX_MEMBERS) {
        // Soft and external links too (external targets and virtual dataset sources are looked
        // for relative to the working directory: the input has no path).
        let Ok((f, addr)) = f.follow_link(g.header().address, &m.target) else {
            continue;
        };
        let f = &f;
        if seen.contains(&(f.file_number(), addr)) {
            continue;
        }
        if let Ok(ds) = Dataset::load(f, addr) {
            seen.insert((f.file_number(), addr));
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
            walk(f, &child, depth + 1, seen);
        }
    }
}
