//! Truncated and corrupted classic files must give errors, never panics or hangs: every prefix of
//! each fixture, and byte flips all over each header, are opened and (where they open) read.

use std::path::Path;

use purecdf::ErrorKind;

const FIXTURES: [&str; 4] = [
    "cdf1_all.nc",
    "cdf1_empty_rec.nc",
    "cdf2_onerec.nc",
    "cdf5_all.nc",
];

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/classic")
            .join(name),
    )
    .unwrap()
}

/// Opens an image and reads every variable small enough to read (a corrupted dimension length
/// can claim gigabytes; that is the caller's allocation, not the reader's).
fn exercise(img: Vec<u8>) -> Result<(), purecdf::Error> {
    let f = purecdf::open_bytes(img)?;
    for v in f.variables() {
        let size = v.len().saturating_mul(8);
        if size <= 1 << 20 {
            // Errors are fine; panics are not.
            let _ = v.get_typed_values(..);
            let _ = v.get_values::<f64, _>(..);
        }
    }
    Ok(())
}

#[test]
fn every_truncation_errors_or_reads_zeros() {
    for name in FIXTURES {
        let img = bytes(name);
        let full = purecdf::open_bytes(img.clone()).unwrap();
        let mut first_ok = None;
        for n in 0..img.len() {
            match exercise(img[..n].to_vec()) {
                Ok(()) => {
                    first_ok.get_or_insert(n);
                }
                Err(e) => {
                    assert!(
                        first_ok.is_none(),
                        "{name}: prefix {n} fails ({e}) after a shorter one opened"
                    );
                    assert!(
                        matches!(e.kind(), ErrorKind::Trunc | ErrorKind::NotNc),
                        "{name}: prefix {n}: {e}"
                    );
                    if n >= 4 {
                        assert!(e.context().offset.is_some(), "{name}: prefix {n}: {e}");
                    }
                }
            }
        }
        // A file cut inside its data still opens; the missing bytes read as zeros, as netcdf-c.
        assert!(first_ok.is_some(), "{name}");
        drop(full);
    }
}

#[test]
fn byte_flips_in_headers_never_panic() {
    for name in FIXTURES {
        let img = bytes(name);
        // The fixtures are small: flip bytes throughout (header and data).
        for i in 0..img.len() {
            for x in [0x00u8, 0xFF, 0x80, 0x7F, 0x01] {
                let mut bad = img.clone();
                bad[i] ^= x;
                let _ = exercise(bad);
            }
        }
    }
}

#[test]
fn specific_corruptions_name_their_kind() {
    let img = bytes("cdf1_all.nc");
    let mut bad = img.clone();
    bad[3] = 3;
    assert_eq!(
        purecdf::open_bytes(bad).unwrap_err().kind(),
        ErrorKind::NotNc
    );
    // The dimension list tag.
    let mut bad = img.clone();
    bad[11] = 0x0B;
    let e = purecdf::open_bytes(bad).unwrap_err();
    assert_eq!((e.kind(), e.context().offset), (ErrorKind::NotNc, Some(8)));
    // A dimension count far beyond the file.
    let mut bad = img.clone();
    bad[12..16].copy_from_slice(&0x7FFF_FFFFu32.to_be_bytes());
    let e = purecdf::open_bytes(bad).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Trunc | ErrorKind::NotNc),
        "{e}"
    );
    assert_eq!(
        purecdf::open_bytes(Vec::new()).unwrap_err().kind(),
        ErrorKind::NotNc
    );
}
