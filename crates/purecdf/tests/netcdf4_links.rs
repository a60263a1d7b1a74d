//! Virtual datasets and external links through the netCDF API (fixtures from
//! `crates/purecdf-hdf5/tests/data/vds/gen_vds_fixtures.py`): virtual datasets are variables
//! with the values HDF5 reads, external links show their target's objects as if they were in
//! the linking file, and hostile links fail cleanly.

use purecdf::model::ROOT;

fn path(name: &str) -> String {
    format!(
        "{}/../purecdf-hdf5/tests/data/vds/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn virtual_datasets_are_variables() {
    let f = purecdf::open(path("printf.h5")).unwrap();
    let v = f.variable("frames").unwrap();
    assert_eq!(v.shape(), [6, 4]);
    let all = v.get_values::<i32, _>(..).unwrap();
    assert_eq!(&all[8..12], [100, 101, 102, 103]);
    assert!(f.schema().var(v.id()).storage.is_virtual);
    let (start, count): (&[u64], &[u64]) = (&[5, 1], &[1, 2]);
    assert_eq!(v.get_values::<i32, _>((start, count)).unwrap(), [205, 206]);

    let f = purecdf::open(path("unlim.h5")).unwrap();
    let v = f.variable("grow").unwrap();
    assert_eq!(
        v.get_values::<i16, _>(..).unwrap(),
        [10, 20, 11, 21, 12, 22, 13, -9, 14]
    );
    let f = purecdf::open(path("missing.h5")).unwrap();
    assert_eq!(
        f.variable("part")
            .unwrap()
            .get_values::<i64, _>(..)
            .unwrap(),
        [1, 2, 7, 7, 7, 7, 1, 2]
    );
}

#[test]
fn external_links_show_their_targets() {
    let f = purecdf::open(path("elink_chain_a.h5")).unwrap();
    let s = f.schema();
    let hop = s.find_group(ROOT, "hop").unwrap();
    for name in ["last", "soft"] {
        let id = s.find_var(hop, name).unwrap();
        assert_eq!(
            f.variable_by_id(id).get_values::<f32, _>(..).unwrap(),
            [1.5, 2.5]
        );
    }
}

/// A netCDF-4 file behind an external link: its dimensions and variables appear in the link's
/// group; its bookkeeping attributes do not count for `_IsNetcdf4` (netcdf-c's `NC4_walk`
/// follows hard links only).
#[test]
fn netcdf4_target_behind_a_link() {
    let f = purecdf::open(path("elink_nc4.h5")).unwrap();
    let s = f.schema();
    let ext = s.find_group(ROOT, "ext").unwrap();
    let w = s.find_var(ext, "w").unwrap();
    assert_eq!(
        f.variable_by_id(w).get_values::<i32, _>(..).unwrap(),
        [4, 5, 6]
    );
    assert_eq!(s.dim(s.var(w).dims[0]).name, "x");
    let is_nc4 = f.attribute("_IsNetcdf4").unwrap();
    assert_eq!(is_nc4.values, purecdf::Values::Int(vec![0]));
}

#[test]
fn hostile_links_and_sources_fail_cleanly() {
    // A link to a missing file: the open fails, as netcdf-c's does.
    let e = purecdf::open(path("elink_missing.h5")).unwrap_err();
    assert_eq!(e.kind(), purecdf::ErrorKind::Hdf);
    // A cycle of external links: refused, where netcdf-c loops.
    assert!(purecdf::open(path("bad/elink_cycle_a.h5")).is_err());
    // A virtual dataset reading itself: the read fails, where HDF5 overflows its stack.
    let f = purecdf::open(path("bad/self_ref.h5")).unwrap();
    assert!(f
        .variable("loop")
        .unwrap()
        .get_values::<i32, _>(..)
        .is_err());
}
