//! A netCDF-4 file written with a user filter (`purecdf::filters`, id 40000), dumped by our
//! `ncdump` (which does not register it) and by netcdf-c's `/usr/bin/ncdump` (which has no
//! such plugin): `-h -s` prints the same header with `_Filter = "40000,…"`, and dumping the
//! data fails with the same message and exit status (NC_ENOFILTER).
//!
//! Skips when the reference is not installed, unless `PURECDF_REQUIRE_REFERENCE=1`.

mod support;

use std::path::Path;

use purecdf::filters::{register_filter, Filter, FilterError};
use support::{reference_tools, run, OURS, REFERENCE};

/// XORs every byte with the key (the filter's first parameter).
struct Xor(u8);

impl Filter for Xor {
    fn decode(&self, input: Vec<u8>, _max_out: usize) -> Result<Vec<u8>, FilterError> {
        self.encode(input)
    }
    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        Ok(input.into_iter().map(|b| b ^ self.0).collect())
    }
}

fn write(path: &Path) {
    register_filter(40000, |params: &[u32], _: usize| match params {
        [key, ..] => Ok(Box::new(Xor(*key as u8)) as Box<dyn Filter>),
        [] => Err(FilterError::BadParams(40000)),
    })
    .unwrap();
    let mut f = purecdf::create(path).unwrap();
    f.add_dimension("t", 0).unwrap();
    f.add_dimension("x", 30).unwrap();
    let mut v = f.add_variable::<f32>("v", &["t", "x"]).unwrap();
    v.set_chunking(&[2, 10]).unwrap();
    v.set_filter(40000, &[0x3c, 7, 4294967295]).unwrap();
    let data: Vec<f32> = (0..120).map(|i| i as f32 * 0.5).collect();
    v.put_values(&data, [0..4usize, 0..30]).unwrap();
    let mut w = f.add_variable::<i16>("w", &["x"]).unwrap();
    w.set_filter(2, &[]).unwrap();
    w.set_filter(40000, &[1]).unwrap();
    w.put_values(&[3i16; 30], ..).unwrap();
    f.close().unwrap();
}

#[test]
fn ncdump_of_user_filter_matches_netcdf_c() {
    if reference_tools().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("user.nc"));
    for args in [
        &["-h", "-s", "user.nc"][..],
        &["-s", "user.nc"],
        &["user.nc"],
        &["-v", "w", "user.nc"],
    ] {
        let ours = run(OURS.ncdump, args, dir.path());
        let theirs = run(REFERENCE.ncdump, args, dir.path());
        let show = |o: &support::Output| {
            format!(
                "status {:?}\n--- stdout\n{}--- stderr\n{}",
                o.code,
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        };
        assert_eq!(show(&ours), show(&theirs), "ncdump {args:?}");
        assert!(ours.stdout == theirs.stdout && ours.stderr == theirs.stderr);
        // Headers print; data with the filter is refused with netcdf-c's message and status.
        if args[0] == "-h" {
            assert_eq!(ours.code, Some(0));
            let header = String::from_utf8_lossy(&ours.stdout);
            assert!(header.contains("v:_Filter = \"40000,60,7,4294967295\" ;"));
            assert!(header.contains("w:_Filter = \"40000,1\" ;"));
        } else {
            assert_eq!(ours.code, Some(1));
            assert!(String::from_utf8_lossy(&ours.stderr)
                .starts_with("NetCDF: Filter error: undefined filter encountered"));
        }
    }
}
