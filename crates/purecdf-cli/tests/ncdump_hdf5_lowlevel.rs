//! ncdump on HDF5 files HDF5 1.10.8 reads or refuses for low-level reasons (fixtures in
//! crates/purecdf/tests/data/netcdf4/lowlevel): the messages and exit statuses of netcdf-c
//! 4.9.0's ncdump, written out here so they are checked without the reference tools too.

use std::process::Command;

fn fixture(name: &str) -> String {
    format!(
        "{}/../purecdf/tests/data/netcdf4/lowlevel/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn ncdump(args: &[&str]) -> (String, String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_ncdump"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

#[test]
fn a_failed_data_read_is_reported_at_ncdumps_nc_get_vara() {
    let f = fixture("corrupt_chunk.h5");
    let (out, err, code) = ncdump(&[&f]);
    assert_eq!(code, 1);
    assert_eq!(err, "NetCDF: HDF error\nLocation: file ; line 478\n");
    assert!(out.ends_with("\n v = "), "{out}");
    let (_, err, code) = ncdump(&["-h", &f]);
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn refused_files_fail_at_open_in_every_mode() {
    for name in ["status_write.h5", "status_swmr.h5", "eoa_meta.h5"] {
        let f = fixture(name);
        for mode in [&["-k"][..], &["-h"], &["-s"]] {
            let mut args = mode.to_vec();
            args.push(&f);
            let (out, err, code) = ncdump(&args);
            assert_eq!(out, "", "{name} {mode:?}");
            assert!(
                err.ends_with(": NetCDF: HDF error\n"),
                "{name} {mode:?}: {err}"
            );
            assert_eq!(code, 1, "{name} {mode:?}");
        }
    }
}
