//! Corruptions of the classic seed files ("The NetCDF Classic Format Specification", header
//! grammar), shared by the library's hostile-input tests (`tests/bad_input/classic.rs`) and the
//! command-line comparison with netcdf-c's `ncdump` (`purecdf-cli/tests/ncdump_bad_input.rs`,
//! which includes this file by path).

#![allow(dead_code)]

use purecdf::ErrorKind;

use ErrorKind as K;

/// Structural damage: what a corrupt header may be reported as.
pub(crate) const STRUCTURE: &[ErrorKind] = &[K::NotNc, K::Trunc, K::Inval, K::BadMeta];

/// `STRUCTURE` plus `extra`.
pub(crate) fn structure_or(extra: &[ErrorKind]) -> Vec<ErrorKind> {
    STRUCTURE.iter().chain(extra).copied().collect()
}

/// Every proper prefix of `seed` (cut to `len` bytes for each `len` below its length).
pub(crate) fn truncations(seed: &[u8], name: &str) -> Vec<(String, Vec<u8>)> {
    (0..seed.len())
        .map(|len| (format!("{name} cut to {len} bytes"), seed[..len].to_vec()))
        .collect()
}

/// Every header byte of `seed` XOR-ed with 0x01, 0x80 and 0xFF.
pub(crate) fn byte_flips(seed: &[u8], name: &str) -> Vec<(String, Vec<u8>)> {
    let end = HeaderMap::of(seed).end;
    let mut cases = Vec::new();
    for at in 0..end {
        for mask in [0x01u8, 0x80, 0xFF] {
            let mut c = seed.to_vec();
            c[at] ^= mask;
            cases.push((format!("{name} byte {at} ^ {mask:#04x}"), c));
        }
    }
    cases
}

/// Byte offsets of the header fields of a classic file, found by walking a known-good header.
#[derive(Debug, Default)]
pub(crate) struct HeaderMap {
    /// Width of `nelems`, names' lengths, dimension lengths, dimension ids, `vsize` (8 in CDF-5).
    pub(crate) count: usize,
    /// Width of `begin` (4 in CDF-1, else 8).
    pub(crate) offset: usize,
    pub(crate) numrecs: usize,
    pub(crate) dim_tag: usize,
    pub(crate) dim_count: usize,
    pub(crate) dim_len: Vec<usize>,
    pub(crate) name_len: Vec<usize>,
    /// The bytes of each name (without padding).
    pub(crate) names: Vec<(usize, usize)>,
    pub(crate) att_tag: Vec<usize>,
    pub(crate) att_count: Vec<usize>,
    pub(crate) att_type: Vec<usize>,
    pub(crate) att_nelems: Vec<usize>,
    pub(crate) var_tag: usize,
    pub(crate) var_count: usize,
    pub(crate) var_ndims: Vec<usize>,
    pub(crate) dim_id: Vec<usize>,
    pub(crate) var_type: Vec<usize>,
    pub(crate) vsize: Vec<usize>,
    pub(crate) begin: Vec<usize>,
    /// Where the header ends (the first data byte).
    pub(crate) end: usize,
}

impl HeaderMap {
    /// Walks a header; panics on anything unexpected (the seeds are known good).
    pub(crate) fn of(b: &[u8]) -> HeaderMap {
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
            m.names.push((*p + count, *p + count + n));
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
pub(crate) fn with_field(b: &[u8], at: usize, width: usize, value: u64) -> Vec<u8> {
    let mut out = b.to_vec();
    let bytes = value.to_be_bytes();
    out[at..at + width].copy_from_slice(&bytes[8 - width..]);
    out
}

pub(crate) fn field(b: &[u8], at: usize, width: usize) -> u64 {
    b[at..at + width]
        .iter()
        .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
}

/// What a targeted corruption must produce.
pub(crate) enum Expect {
    /// An error of one of these kinds.
    Error(Vec<ErrorKind>),
    /// netcdf-c accepts it: open may succeed, but must not misbehave.
    Tolerated,
}

/// Overwrites of individual header fields with huge, negative, zero and out-of-range values.
pub(crate) fn targeted_cases(seed: &[u8], version: u8) -> Vec<(String, (Vec<u8>, Expect))> {
    let b = seed.to_vec();
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
