//! Bad CDL (the language of `../shared/spec/ncgen-features.md`), through `purecdf::cdl::parse`.

use std::path::Path;

use purecdf::ErrorKind;
use ErrorKind as K;

use crate::{require_reference, run_cases};

/// Snippets netcdf-c 4.9.0's ncgen rejects while parsing.
fn bad_cdl() -> Vec<(&'static str, Vec<u8>)> {
    let mut v: Vec<(&str, Vec<u8>)> = [
        ("empty input", &b""[..]),
        ("keyword only", b"netcdf"),
        ("unterminated body", b"netcdf x {"),
        ("missing dimension size", b"netcdf x { dimensions: d = ; }"),
        (
            "dimension size overflow",
            b"netcdf x { dimensions: d = 99999999999999999999 ; }",
        ),
        (
            "duplicate dimension",
            b"netcdf x { dimensions: d = 2 ; d = 3 ; }",
        ),
        (
            "undefined dimension",
            b"netcdf x { variables: int v(nodim) ; }",
        ),
        ("unknown type", b"netcdf x { variables: badtype v ; }"),
        (
            "unterminated string",
            b"netcdf x { variables: int v ; data: v = \"text ; }",
        ),
        (
            "data for undefined variable",
            b"netcdf x { variables: int v ; data: w = 1 ; }",
        ),
        (
            "invalid UTF-8 name",
            b"netcdf x { dimensions: \xff\xfe\xfd = 1 ; }",
        ),
        ("NUL inside a name", b"netcdf x { dimensions: d\x00 = 1 ; }"),
        (
            "unbalanced braces",
            b"netcdf x { types: compound c { int a ; } ; variables: c v ; data: v = {1 ; }",
        ),
        (
            "unterminated char constant",
            b"netcdf x { dimensions: d = 2 ; variables: char c(d) ; data: c = 'ab ; }",
        ),
        (
            "bad _Storage value",
            b"netcdf x { variables: int v ; v:_Storage = \"bogus\" ; }",
        ),
        ("lone backslash name", b"netcdf x { dimensions: \\ = 1 ; }"),
    ]
    .into_iter()
    .map(|(l, b)| (l, b.to_vec()))
    .collect();
    let mut deep = b"netcdf x { ".to_vec();
    deep.extend(b"group: g { ".repeat(100_000));
    v.push(("100000 unclosed nested groups", deep));
    let mut deep = b"netcdf x { ".to_vec();
    deep.extend(b"group: g { ".repeat(20_000));
    deep.extend(b"}".repeat(20_001));
    v.push(("20000 nested groups", deep));
    let mut dims = b"netcdf x { dimensions: d = 1 ; variables: int v(".to_vec();
    dims.extend(vec!["d"; 2000].join(",").as_bytes());
    dims.extend(b") ; }");
    v.push(("2000 dimensions on one variable", dims));
    v.push(("all 256 byte values", (0..=255u8).collect()));
    v
}

/// Snippets ncgen accepts or fails on only later (or crashes on): parsing may succeed or fail.
fn odd_cdl() -> Vec<(&'static str, Vec<u8>)> {
    let mut v: Vec<(&str, Vec<u8>)> = [
        (
            "negative dimension",
            &b"netcdf x { dimensions: d = -1 ; }"[..],
        ),
        (
            "empty attribute",
            b"netcdf x { variables: int v ; v:att = ; }",
        ),
        (
            "too many values",
            b"netcdf x { dimensions: d = 2 ; variables: int v(d) ; data: v = 1, 2, 3 ; }",
        ),
        (
            "two values for a scalar",
            b"netcdf x { variables: int v ; data: v = 1, 2 ; }",
        ),
        (
            "1e999 for an int",
            b"netcdf x { variables: int v ; data: v = 1e999 ; }",
        ),
        (
            "text _FillValue for an int",
            b"netcdf x { variables: int v ; v:_FillValue = \"x\" ; }",
        ),
    ]
    .into_iter()
    .map(|(l, b)| (l, b.to_vec()))
    .collect();
    let mut name = b"netcdf x { dimensions: ".to_vec();
    name.extend(b"n".repeat(300));
    name.extend(b" = 1 ; }");
    v.push(("300-byte name", name));
    let mut many = b"netcdf x { variables: int v ; data: v = ".to_vec();
    many.extend(b"1,".repeat(200_000));
    many.extend(b"1 ; }");
    v.push(("200001 values for a scalar", many));
    v
}

/// What a bad CDL snippet may be reported as (ncgen's parse errors are NC_EINVAL-like).
const CDL_KINDS: &[ErrorKind] = &[
    K::Inval,
    K::BadName,
    K::MaxName,
    K::MaxDims,
    K::NameInUse,
    K::BadDim,
    K::BadType,
    K::Range,
    K::NotVar,
];

/// Every bad snippet gives an error of an expected kind with a message, quickly and without
/// exhausting the stack (the nested-group cases) or memory.
#[test]
fn bad_cdl_is_rejected() {
    let cases = bad_cdl()
        .into_iter()
        .map(|(l, b)| (l.to_string(), b))
        .collect();
    run_cases("bad CDL", cases, |_, src| match purecdf::cdl::parse(&src) {
        Ok(_) => Err("parsed without error".into()),
        Err(e) if !CDL_KINDS.contains(&e.kind()) => Err(format!(
            "error kind {:?} ({e}), expected one of {CDL_KINDS:?}",
            e.kind()
        )),
        Err(e) if e.to_string().is_empty() => Err("empty error message".into()),
        Err(_) => Ok(()),
    });
}

/// Snippets ncgen accepts, or rejects only when writing, parse or fail without misbehaving.
#[test]
fn odd_cdl_does_not_misbehave() {
    let cases = odd_cdl()
        .into_iter()
        .map(|(l, b)| (l.to_string(), b))
        .collect();
    run_cases("odd CDL", cases, |_, src| {
        let _ = purecdf::cdl::parse(&src);
        Ok(())
    });
}

/// netcdf-c's ncgen rejects every snippet of [`bad_cdl`] too.
#[test]
fn bad_cdl_rejected_by_reference() {
    let ncgen = Path::new("/usr/bin/ncgen");
    if !ncgen.is_file() {
        if require_reference() {
            panic!("/usr/bin/ncgen is required (PURECDF_REQUIRE_REFERENCE=1)");
        }
        eprintln!("skipping: /usr/bin/ncgen not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut accepted = Vec::new();
    for (i, (label, src)) in bad_cdl().into_iter().enumerate() {
        let cdl = dir.path().join(format!("case{i}.cdl"));
        std::fs::write(&cdl, &src).expect("write case");
        let out = std::process::Command::new(ncgen)
            .args(["-b", "-k", "nc4", "-o"])
            .arg(dir.path().join(format!("case{i}.nc")))
            .arg(&cdl)
            .output()
            .expect("run ncgen");
        if out.status.success() {
            accepted.push(label);
        }
    }
    assert!(accepted.is_empty(), "netcdf-c's ncgen accepts {accepted:?}");
}
