//! Malformed classic files ("The NetCDF Classic Format Specification", header grammar).

use std::path::Path;

use purecdf::{ErrorKind, NcType};

use crate::corrupt::{byte_flips, targeted_cases, truncations, Expect, HeaderMap, STRUCTURE};
use crate::{data_dir, require_reference, run_cases, seed};

/// Opens a byte image in memory (`open_mem`, as the fuzz target does).
fn open_bytes(bytes: &[u8]) -> purecdf::Result<purecdf::File> {
    purecdf::open_bytes(bytes.to_vec())
}

/// Largest selection read whole; bigger variables are probed at their first and last element.
const READ_WHOLE_LIMIT: u64 = 1 << 20;

/// Reads every attribute and variable of an opened file. Read errors are fine (the data may be
/// truncated); panics, hangs and huge allocations are not.
fn exercise(file: &purecdf::File) {
    for a in file.attributes() {
        let _ = a.values.len();
    }
    for v in file.variables() {
        for a in v.attributes() {
            let _ = a.values.len();
        }
        let shape = v.shape();
        let size = v.nc_type().atomic_size().unwrap_or(1) as u64;
        let bytes = shape
            .iter()
            .try_fold(size, |acc, &d| acc.checked_mul(d))
            .unwrap_or(u64::MAX);
        if bytes <= READ_WHOLE_LIMIT {
            let _ = v.get_typed_values(..);
        } else if shape.iter().all(|&d| d > 0) {
            let ones = vec![1u64; shape.len()];
            let first = vec![0u64; shape.len()];
            let last: Vec<u64> = shape.iter().map(|d| d - 1).collect();
            let _ = v.get_typed_values((first.as_slice(), ones.as_slice()));
            let _ = v.get_typed_values((last.as_slice(), ones.as_slice()));
        }
        if v.nc_type() == NcType::Char && bytes <= READ_WHOLE_LIMIT {
            let _ = v.get_text(..);
        }
    }
}

/// Opening must fail with one of `kinds`.
fn expect_error(bytes: &[u8], kinds: &[ErrorKind]) -> Result<(), String> {
    match open_bytes(bytes) {
        Ok(file) => {
            exercise(&file);
            Err(format!("opened without error (expected one of {kinds:?})"))
        }
        Err(e) if kinds.contains(&e.kind()) => Ok(()),
        Err(e) => Err(format!(
            "error kind {:?} ({e}), expected one of {kinds:?}",
            e.kind()
        )),
    }
}

/// Opening may succeed or fail (netcdf-c accepts some of these), but a success must survive
/// reading everything.
fn expect_no_misbehaviour(bytes: &[u8]) -> Result<(), String> {
    if let Ok(file) = open_bytes(bytes) {
        exercise(&file);
    }
    Ok(())
}

// -------------------------------------------------------------------------------------------
// Tests.

use ErrorKind as K;

/// The seeds themselves open and read (so every failure below is caused by the corruption).
#[test]
fn seeds_are_good() {
    for version in [1, 2, 5] {
        let b = seed(version);
        let file = open_bytes(&b).unwrap_or_else(|e| panic!("seed_cdf{version}.nc: {e}"));
        assert_eq!(
            file.variables().count(),
            4,
            "seed_cdf{version}.nc variables"
        );
        let fixed = file.variable("fixed").expect("variable fixed");
        assert_eq!(
            fixed.get_values::<i32, _>(..).expect("read fixed"),
            [10, 20, 30]
        );
        let rec = file.variable("rec_f").expect("variable rec_f");
        assert_eq!(
            rec.get_values::<f32, _>(..).expect("read rec_f"),
            [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
        assert_eq!(HeaderMap::of(&b).end, header_len(version));
    }
}

/// Header lengths of the seeds (checked in [`seeds_are_good`]).
fn header_len(version: u8) -> usize {
    match version {
        1 => 392,
        2 => 408,
        _ => 580,
    }
}

/// Every proper prefix of the header is an error; every prefix cutting into the data opens (as
/// in netcdf-c, which reads missing data as fill) or fails, and reads never misbehave.
#[test]
fn every_truncation() {
    for version in [1u8, 2, 5] {
        let b = seed(version);
        let end = HeaderMap::of(&b).end;
        let cases = truncations(&b, &format!("seed_cdf{version}.nc"));
        run_cases(
            &format!("truncations of seed_cdf{version}.nc"),
            cases,
            move |_, bytes| {
                if bytes.len() < end {
                    expect_error(&bytes, STRUCTURE)
                } else {
                    expect_no_misbehaviour(&bytes)
                }
            },
        );
    }
}

/// Every header byte XOR-ed with 0x01, 0x80 and 0xFF: anything may happen except misbehaviour.
#[test]
fn byte_flips_in_header() {
    for version in [1u8, 2, 5] {
        let b = seed(version);
        let cases = byte_flips(&b, &format!("seed_cdf{version}.nc"));
        run_cases(
            &format!("byte flips of seed_cdf{version}.nc"),
            cases,
            |_, bytes| expect_no_misbehaviour(&bytes),
        );
    }
}

/// Huge counts and lengths, negative lengths, bad tags and types, `STREAMING` and oversized
/// `numrecs`, bad and overlapping `begin`s, in each of CDF-1, CDF-2 and CDF-5.
#[test]
fn targeted_header_corruptions() {
    for version in [1u8, 2, 5] {
        run_cases(
            &format!("targeted corruptions of seed_cdf{version}.nc"),
            targeted_cases(&seed(version), version),
            |_, (bytes, expect)| match expect {
                Expect::Error(kinds) => expect_error(&bytes, &kinds),
                Expect::Tolerated => expect_no_misbehaviour(&bytes),
            },
        );
    }
}

/// The committed corpus: every file in `tests/data/bad/` with its expected error kinds.
const INVENTORY: &[(&str, &[ErrorKind])] = &[
    ("bad_magic_version.nc", &[K::NotNc]),
    ("empty.nc", &[K::NotNc, K::Trunc]),
    ("truncated_in_var_list.nc", STRUCTURE),
    (
        "huge_dim_count.nc",
        &[
            K::NotNc,
            K::Trunc,
            K::Inval,
            K::BadMeta,
            K::MaxDims,
            K::NoMem,
        ],
    ),
    (
        "negative_name_len.nc",
        &[K::NotNc, K::Trunc, K::Inval, K::BadMeta, K::MaxName],
    ),
    ("huge_att_nelems.nc", STRUCTURE),
    (
        "bad_att_type.nc",
        &[K::NotNc, K::Trunc, K::Inval, K::BadMeta, K::BadType],
    ),
    (
        "bad_dim_id.nc",
        &[K::NotNc, K::Trunc, K::Inval, K::BadMeta, K::BadDim],
    ),
    (
        "unlimited_not_first.nc",
        &[K::NotNc, K::Inval, K::BadMeta, K::UnlimPos],
    ),
    ("overlapping_begins.nc", STRUCTURE),
    ("begin_in_header.nc", STRUCTURE),
    ("bad_list_tag.nc", STRUCTURE),
    (
        "huge_dim_len_cdf5.nc",
        &[
            K::NotNc,
            K::Trunc,
            K::Inval,
            K::BadMeta,
            K::VarSize,
            K::DimSize,
        ],
    ),
];

/// A file's bytes and the error kinds it may produce.
type BytesAndKinds = (Vec<u8>, Vec<ErrorKind>);

/// Each committed bad file fails with a listed kind, and no file is missing from the list.
#[test]
fn committed_corpus_inventory() {
    let dir = data_dir();
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/data/bad")
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".nc"))
        .collect();
    on_disk.sort();
    let listed: Vec<&str> = INVENTORY.iter().map(|(n, _)| *n).collect();
    let unlisted: Vec<&String> = on_disk
        .iter()
        .filter(|n| !listed.contains(&n.as_str()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "files in tests/data/bad/ without an expected error: {unlisted:?}"
    );
    let cases: Vec<(String, BytesAndKinds)> = INVENTORY
        .iter()
        .map(|(name, kinds)| {
            let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name.to_string(), (bytes, kinds.to_vec()))
        })
        .collect();
    run_cases("committed bad corpus", cases, |_, (bytes, kinds)| {
        expect_error(&bytes, &kinds)
    });
}

/// netcdf-c's ncdump rejects every committed bad file too (so the corpus holds only files that
/// are bad for the reference, not just for us).
#[test]
fn committed_corpus_rejected_by_reference() {
    let ncdump = Path::new("/usr/bin/ncdump");
    if !ncdump.is_file() {
        if require_reference() {
            panic!("/usr/bin/ncdump is required (PURECDF_REQUIRE_REFERENCE=1)");
        }
        eprintln!("skipping: /usr/bin/ncdump not installed");
        return;
    }
    let mut accepted = Vec::new();
    for (name, _) in INVENTORY {
        let out = std::process::Command::new(ncdump)
            .arg("-h")
            .arg(data_dir().join(name))
            .output()
            .expect("run ncdump");
        if out.status.success() {
            accepted.push(*name);
        }
    }
    assert!(accepted.is_empty(), "netcdf-c accepts {accepted:?}");
}

/// netcdf-c's own corrupt classic file (a CDF-5 `begin` inside the header), read in place.
#[test]
fn netcdf_c_bad_cdf5_begin() {
    let Some(data) = crate::shared::netcdf_c_data() else {
        return;
    };
    let path = data.join("nc_test/bad_cdf5_begin.nc");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    run_cases(
        "bad_cdf5_begin.nc",
        vec![("bad_cdf5_begin.nc".into(), bytes)],
        |_, b| expect_error(&b, STRUCTURE),
    );
}
