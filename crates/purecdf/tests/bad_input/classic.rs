//! Malformed classic files ("The NetCDF Classic Format Specification", header grammar).

use std::path::{Path, PathBuf};

use purecdf::{ErrorKind, NcType};

use crate::{data_dir, require_reference, run_cases, seed};

/// Opens a byte image in memory (`open_mem`, as the fuzz target does).
fn open_bytes(bytes: &[u8]) -> purecdf::Result<purecdf::File> {
    purecdf::open_mem(bytes.to_vec())
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
        let size = v.vartype().atomic_size().unwrap_or(1) as u64;
        let bytes = shape
            .iter()
            .try_fold(size, |acc, &d| acc.checked_mul(d))
            .unwrap_or(u64::MAX);
        if bytes <= READ_WHOLE_LIMIT {
            let _ = v.get_raw_values(..);
        } else if shape.iter().all(|&d| d > 0) {
            let ones = vec![1u64; shape.len()];
            let first = vec![0u64; shape.len()];
            let last: Vec<u64> = shape.iter().map(|d| d - 1).collect();
            let _ = v.get_raw_values((first.as_slice(), ones.as_slice()));
            let _ = v.get_raw_values((last.as_slice(), ones.as_slice()));
        }
        if v.vartype() == NcType::Char && bytes <= READ_WHOLE_LIMIT {
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
// Locating header fields in the (trusted) seed files.

/// Byte offsets of the header fields of a classic file, found by walking a known-good header.
#[derive(Debug, Default)]
struct HeaderMap {
    /// Width of `nelems`, names' lengths, dimension lengths, dimension ids, `vsize` (8 in CDF-5).
    count: usize,
    /// Width of `begin` (4 in CDF-1, else 8).
    offset: usize,
    numrecs: usize,
    dim_tag: usize,
    dim_count: usize,
    dim_len: Vec<usize>,
    name_len: Vec<usize>,
    att_tag: Vec<usize>,
    att_count: Vec<usize>,
    att_type: Vec<usize>,
    att_nelems: Vec<usize>,
    var_tag: usize,
    var_count: usize,
    var_ndims: Vec<usize>,
    dim_id: Vec<usize>,
    var_type: Vec<usize>,
    vsize: Vec<usize>,
    begin: Vec<usize>,
    /// Where the header ends (the first data byte).
    end: usize,
}

impl HeaderMap {
    /// Walks a header; panics on anything unexpected (the seeds are known good).
    fn of(b: &[u8]) -> HeaderMap {
        let version = b[3];
        let count = if version == 5 { 8 } else { 4 };
        let offset = if version == 1 { 4 } else { 8 };
        let mut m = HeaderMap {
            count,
            offset,
            ..HeaderMap::default()
        };
        let read = |p: usize, w: usize| -> usize {
            b[p..p + w]
                .iter()
                .fold(0usize, |acc, &x| (acc << 8) | usize::from(x))
        };
        let mut p = 4;
        m.numrecs = p;
        p += count;
        let name = |m: &mut HeaderMap, p: &mut usize| {
            m.name_len.push(*p);
            let n = read(*p, count);
            *p += count + n.div_ceil(4) * 4;
        };
        let atts = |m: &mut HeaderMap, p: &mut usize| {
            m.att_tag.push(*p);
            m.att_count.push(*p + 4);
            let n = read(*p + 4, count);
            *p += 4 + count;
            for _ in 0..n {
                name(m, p);
                m.att_type.push(*p);
                let t = read(*p, 4);
                m.att_nelems.push(*p + 4);
                let ne = read(*p + 4, count);
                *p += 4 + count;
                let size = match t {
                    1 | 2 | 7 => 1,
                    3 | 8 => 2,
                    4 | 5 | 9 => 4,
                    _ => 8,
                };
                *p += (ne * size).div_ceil(4) * 4;
            }
        };
        m.dim_tag = p;
        m.dim_count = p + 4;
        let ndims = read(p + 4, count);
        p += 4 + count;
        for _ in 0..ndims {
            name(&mut m, &mut p);
            m.dim_len.push(p);
            p += count;
        }
        atts(&mut m, &mut p);
        m.var_tag = p;
        m.var_count = p + 4;
        let nvars = read(p + 4, count);
        p += 4 + count;
        for _ in 0..nvars {
            name(&mut m, &mut p);
            m.var_ndims.push(p);
            let n = read(p, count);
            p += count;
            for _ in 0..n {
                m.dim_id.push(p);
                p += count;
            }
            atts(&mut m, &mut p);
            m.var_type.push(p);
            m.vsize.push(p + 4);
            m.begin.push(p + 4 + count);
            p += 4 + count + offset;
        }
        m.end = p;
        m
    }
}

/// A copy of `b` with the big-endian `width`-byte field at `at` set to `value` (truncated to
/// the width: `u64::MAX` in a 4-byte field is `0xFFFFFFFF`, i.e. -1).
fn with_field(b: &[u8], at: usize, width: usize, value: u64) -> Vec<u8> {
    let mut out = b.to_vec();
    let bytes = value.to_be_bytes();
    out[at..at + width].copy_from_slice(&bytes[8 - width..]);
    out
}

fn field(b: &[u8], at: usize, width: usize) -> u64 {
    b[at..at + width]
        .iter()
        .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
}

// -------------------------------------------------------------------------------------------
// Tests.

use ErrorKind as K;

/// Structural damage: what a corrupt header may be reported as.
const STRUCTURE: &[ErrorKind] = &[K::NotNc, K::Trunc, K::Inval, K::BadMeta];

/// `STRUCTURE` plus `extra`.
fn structure_or(extra: &[ErrorKind]) -> Vec<ErrorKind> {
    STRUCTURE.iter().chain(extra).copied().collect()
}

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
            fixed.get_values::<i32>(..).expect("read fixed"),
            [10, 20, 30]
        );
        let rec = file.variable("rec_f").expect("variable rec_f");
        assert_eq!(
            rec.get_values::<f32>(..).expect("read rec_f"),
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
        let cases: Vec<(String, Vec<u8>)> = (0..b.len())
            .map(|len| {
                (
                    format!("seed_cdf{version}.nc cut to {len} bytes"),
                    b[..len].to_vec(),
                )
            })
            .collect();
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
        let end = HeaderMap::of(&b).end;
        let mut cases = Vec::new();
        for at in 0..end {
            for mask in [0x01u8, 0x80, 0xFF] {
                let mut c = b.clone();
                c[at] ^= mask;
                cases.push((format!("seed_cdf{version}.nc byte {at} ^ {mask:#04x}"), c));
            }
        }
        run_cases(
            &format!("byte flips of seed_cdf{version}.nc"),
            cases,
            |_, bytes| expect_no_misbehaviour(&bytes),
        );
    }
}

/// What a targeted corruption must produce.
enum Expect {
    /// An error of one of these kinds.
    Error(Vec<ErrorKind>),
    /// netcdf-c accepts it: open may succeed, but must not misbehave.
    Tolerated,
}

/// Overwrites of individual header fields with huge, negative, zero and out-of-range values.
fn targeted_cases(version: u8) -> Vec<(String, (Vec<u8>, Expect))> {
    let b = seed(version);
    let m = HeaderMap::of(&b);
    let (w, ow) = (m.count, m.offset);
    let huge = 0x7FFF_FFFF_u64;
    let neg = u64::MAX;
    let set = |at: usize, width: usize, v: u64| with_field(&b, at, width, v);
    let err = |kinds: &[ErrorKind]| Expect::Error(structure_or(kinds));
    let mut c: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "magic CDF\\x03",
            set(0, 4, 0x4344_4603),
            Expect::Error(vec![K::NotNc]),
        ),
        (
            "magic XDF\\x01",
            set(0, 4, 0x5844_4601),
            Expect::Error(vec![K::NotNc]),
        ),
        (
            "numrecs STREAMING",
            set(m.numrecs, w, neg),
            Expect::Tolerated,
        ),
        (
            "numrecs 1000 (past EOF)",
            set(m.numrecs, w, 1000),
            Expect::Tolerated,
        ),
        ("numrecs 2^31-1", set(m.numrecs, w, huge), Expect::Tolerated),
        (
            "dim count 2^31-1",
            set(m.dim_count, w, huge),
            err(&[K::MaxDims, K::NoMem]),
        ),
        (
            "dim count -1",
            set(m.dim_count, w, neg),
            err(&[K::MaxDims, K::NoMem]),
        ),
        (
            "fixed dim length 2^31-1",
            set(m.dim_len[1], w, huge),
            err(&[K::VarSize, K::DimSize]),
        ),
        (
            "fixed dim length -1",
            set(m.dim_len[1], w, neg),
            err(&[K::VarSize, K::DimSize]),
        ),
        (
            "fixed dim length 0",
            set(m.dim_len[1], w, 0),
            err(&[K::UnlimPos, K::Unlimit]),
        ),
        ("record dim length 5", set(m.dim_len[0], w, 5), err(&[])),
        (
            "name length 2^31-1",
            set(m.name_len[0], w, huge),
            err(&[K::MaxName]),
        ),
        (
            "name length -1",
            set(m.name_len[0], w, neg),
            err(&[K::MaxName]),
        ),
        (
            "name length 0",
            set(m.name_len[0], w, 0),
            err(&[K::BadName]),
        ),
        (
            "global att count 2^31-1",
            set(m.att_count[0], w, huge),
            err(&[K::MaxAtts, K::NoMem]),
        ),
        ("att nelems 2^31-1", set(m.att_nelems[0], w, huge), err(&[])),
        ("att nelems -1", set(m.att_nelems[0], w, neg), err(&[])),
        ("att type 99", set(m.att_type[0], 4, 99), err(&[K::BadType])),
        ("att type 0", set(m.att_type[0], 4, 0), err(&[K::BadType])),
        (
            "var count 2^31-1",
            set(m.var_count, w, huge),
            err(&[K::MaxVars, K::NoMem]),
        ),
        (
            "var ndims 2^31-1",
            set(m.var_ndims[0], w, huge),
            err(&[K::MaxDims]),
        ),
        ("dim id 7", set(m.dim_id[0], w, 7), err(&[K::BadDim])),
        (
            "dim id -1",
            set(m.dim_id[0], w, neg),
            err(&[K::BadDim, K::Range]),
        ),
        (
            "record dim not first",
            set(m.dim_id[2], w, 0),
            err(&[K::UnlimPos]),
        ),
        ("var type 99", set(m.var_type[0], 4, 99), err(&[K::BadType])),
        (
            "var type 12 (string)",
            set(m.var_type[0], 4, 12),
            err(&[K::BadType]),
        ),
        (
            "vsize 2^31-16",
            set(m.vsize[0], w, huge - 15),
            Expect::Tolerated,
        ),
        ("vsize 1", set(m.vsize[0], w, 1), Expect::Tolerated),
        ("begin past EOF", set(m.begin[0], ow, huge - 15), err(&[])),
        ("begin 0 (inside header)", set(m.begin[0], ow, 0), err(&[])),
        ("dim tag NC_VARIABLE", set(m.dim_tag, 4, 0x0B), err(&[])),
        ("dim tag 0x1234", set(m.dim_tag, 4, 0x1234), err(&[])),
        ("dim tag ABSENT with count", set(m.dim_tag, 4, 0), err(&[])),
        (
            "global att tag NC_DIMENSION",
            set(m.att_tag[0], 4, 0x0A),
            err(&[]),
        ),
        ("var tag NC_ATTRIBUTE", set(m.var_tag, 4, 0x0C), err(&[])),
    ];
    let b0 = field(&b, m.begin[0], ow);
    let b1 = field(&b, m.begin[1], ow);
    c.push((
        "overlapping fixed begins",
        set(m.begin[3], ow, b0),
        err(&[]),
    ));
    c.push((
        "overlapping record begins",
        set(m.begin[2], ow, b1),
        err(&[]),
    ));
    c.into_iter()
        .map(|(label, bytes, expect)| (format!("seed_cdf{version}.nc: {label}"), (bytes, expect)))
        .collect()
}

/// Huge counts and lengths, negative lengths, bad tags and types, `STREAMING` and oversized
/// `numrecs`, bad and overlapping `begin`s, in each of CDF-1, CDF-2 and CDF-5.
#[test]
fn targeted_header_corruptions() {
    for version in [1u8, 2, 5] {
        run_cases(
            &format!("targeted corruptions of seed_cdf{version}.nc"),
            targeted_cases(version),
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
    let shared = match std::env::var_os("PURECDF_SHARED_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let path = shared.join("conformance/netcdf-c/nc_test/bad_cdf5_begin.nc");
    let Ok(bytes) = std::fs::read(&path) else {
        if require_reference() {
            panic!(
                "{} is required (PURECDF_REQUIRE_REFERENCE=1)",
                path.display()
            );
        }
        eprintln!("skipping: {} not available", path.display());
        return;
    };
    run_cases(
        "bad_cdf5_begin.nc",
        vec![("bad_cdf5_begin.nc".into(), bytes)],
        |_, b| expect_error(&b, STRUCTURE),
    );
}
