//! `ncgen` against netcdf-c 4.9.0's: committed fixtures (no reference tool needed), the
//! conformance CDL corpus and error cases side by side with `/usr/bin/ncgen` (skipped when it is
//! not installed, unless `PURECDF_REQUIRE_REFERENCE=1`, which turns a missing tool into a failure).

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

const OURS: &str = env!("CARGO_BIN_EXE_ncgen");
const REFERENCE: &str = "/usr/bin/ncgen";

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ncgen")
}

/// True when the reference tool can be used; panics when it is required but missing.
fn reference_available() -> bool {
    let have = Path::new(REFERENCE).exists();
    if !have && std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() == Ok("1") {
        panic!("{REFERENCE} is required (PURECDF_REQUIRE_REFERENCE=1) but not installed");
    }
    have
}

struct Run {
    code: Option<i32>,
    stderr: String,
    /// The output file, when the run made one.
    output: Option<std::path::PathBuf>,
}

impl Run {
    fn first_line(&self) -> &str {
        self.stderr.lines().next().unwrap_or("")
    }

    /// The output file's bytes.
    fn bytes(&self) -> Option<Vec<u8>> {
        std::fs::read(self.output.as_ref()?).ok()
    }

    /// Whether both runs made output files with the same bytes, read 1 MiB at a time (the
    /// corpus makes files of 4 GB); files that match are deleted.
    fn same_output(&self, other: &Run) -> bool {
        use std::io::Read;
        let (Some(a), Some(b)) = (&self.output, &other.output) else {
            return self.output.is_none() && other.output.is_none();
        };
        let same = (|| -> std::io::Result<bool> {
            let (mut fa, mut fb) = (std::fs::File::open(a)?, std::fs::File::open(b)?);
            if fa.metadata()?.len() != fb.metadata()?.len() {
                return Ok(false);
            }
            let (mut ba, mut bb) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
            loop {
                let n = fa.read(&mut ba)?;
                if n == 0 {
                    return Ok(true);
                }
                fb.read_exact(&mut bb[..n])?;
                if ba[..n] != bb[..n] {
                    return Ok(false);
                }
            }
        })()
        .unwrap_or(false);
        // Files that differ stay for a look.
        if same {
            let _ = std::fs::remove_file(a);
            let _ = std::fs::remove_file(b);
        }
        same
    }
}

/// Runs `tool args... input` in `dir` with `-o out.nc` appended when `out` is given.
fn run(tool: &str, dir: &Path, args: &[&str], input: &str, out: Option<&str>) -> Run {
    let mut cmd = Command::new(tool);
    cmd.current_dir(dir).args(args);
    if let Some(o) = out {
        let _ = std::fs::remove_file(dir.join(o));
        cmd.args(["-o", o]);
    }
    cmd.arg(input);
    let r = cmd.output().expect("run ncgen");
    Run {
        code: r.status.code(),
        stderr: String::from_utf8_lossy(&r.stderr).into_owned(),
        output: out.map(|o| dir.join(o)).filter(|p| p.exists()),
    }
}

/// (input CDL, ncgen options, committed output made by netcdf-c's ncgen)
const FIXTURES: &[(&str, &[&str], &str)] = &[
    ("types.cdl", &["-b"], "types.nc"),
    ("types.cdl", &["-k", "nc6", "-b"], "types_nc6.nc"),
    ("chars.cdl", &["-b"], "chars.nc"),
    ("names.cdl", &["-b"], "names.nc"),
    ("records.cdl", &["-b"], "records.nc"),
    ("records.cdl", &["-x", "-b"], "records_nofill.nc"),
    ("format_attr.cdl", &["-b"], "format_attr.nc"),
    ("cdf5.cdl", &["-k", "nc5", "-b"], "cdf5.nc"),
];

#[test]
fn fixtures_byte_identical_to_committed_reference_output() {
    let tmp = tempfile::tempdir().unwrap();
    for (cdl, args, expected) in FIXTURES {
        let input = data_dir().join(cdl);
        let r = run(
            OURS,
            tmp.path(),
            args,
            input.to_str().unwrap(),
            Some("out.nc"),
        );
        assert_eq!(r.code, Some(0), "{cdl} {args:?}: {}", r.stderr);
        let want = std::fs::read(data_dir().join(expected)).unwrap();
        assert!(
            r.bytes().as_deref() == Some(&want[..]),
            "{cdl} {args:?} differs from {expected}"
        );
    }
}

#[test]
fn fixtures_match_reference_tool() {
    if !reference_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for (cdl, args, expected) in FIXTURES {
        let input = data_dir().join(cdl);
        let r = run(
            REFERENCE,
            tmp.path(),
            args,
            input.to_str().unwrap(),
            Some("ref.nc"),
        );
        let want = std::fs::read(data_dir().join(expected)).unwrap();
        assert!(
            r.bytes().as_deref() == Some(&want[..]),
            "fixture {expected} is stale"
        );
    }
}

/// Every CDL file of netcdf-c's test data, syntax-checked and written as classic (with and
/// without `-x`), 64-bit offset and CDF-5: same exit code, same first message line, and the same
/// bytes when a file is written.
#[test]
fn conformance_corpus_matches_reference() {
    if !reference_available() {
        return;
    }
    let Some(root) = support::netcdf_c_data() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    support::cdl_files(&root, &mut files);
    files.sort();
    assert!(files.len() > 150);
    let mut compared = 0;
    for f in &files {
        let input = f.to_str().unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        // bigf3/bigr3 make 4 GB files as 64-bit offset or CDF-5, ref_tst_http_nc4* hundreds of
        // MB: syntax and classic only for those.
        let big = name.starts_with("big");
        let huge = name.starts_with("ref_tst_http_nc4") || name == "tst_diskless5.cdl";
        for (kind, nofill) in [
            ("", false),
            ("classic", false),
            ("classic", true),
            ("nc6", false),
            ("nc5", true),
        ] {
            if (big && kind != "classic" && !kind.is_empty()) || (huge && !kind.is_empty()) {
                continue;
            }
            let mut args = Vec::new();
            if !kind.is_empty() {
                args.extend(["-k", kind, "-b"]);
            }
            if nofill {
                args.push("-x");
            }
            let out = |n| (!kind.is_empty()).then_some(n);
            let want = run(REFERENCE, tmp.path(), &args, input, out("ref.nc"));
            if want.code.is_none_or(|c| c >= 128) {
                continue; // netcdf-c crashed
            }
            let got = run(OURS, tmp.path(), &args, input, out("our.nc"));
            let what = format!("{input} {args:?}");
            assert_eq!(
                got.code, want.code,
                "{what}: exit code; ours: {}",
                got.stderr
            );
            assert_eq!(got.first_line(), want.first_line(), "{what}: message");
            if want.code == Some(0) && !kind.is_empty() {
                assert!(got.same_output(&want), "{what}: bytes differ");
                compared += 1;
            }
        }
    }
    assert!(compared > 150, "only {compared} files compared");
}

/// Bad CDL and the first line and exit status netcdf-c 4.9.0's ncgen gives for it.
const ERRORS: &[(&str, i32, &str)] = &[
    ("netcdf x {", 1, "ncgen: in.cdl line 1: syntax error, unexpected end of file, expecting GROUP or '}'"),
    ("netcdf x { dimensions: d = 2 e = 3 ; }", 1, "ncgen: in.cdl line 1: syntax error, unexpected IDENT, expecting ';'"),
    ("netcdf x { variables: int v ; v:a = 1 }", 1, "ncgen: in.cdl line 1: syntax error, unexpected '}', expecting ';'"),
    ("netcdf x {\n dimensions: d = 2 ;\n variables: int v(d ; }", 1, "ncgen: in.cdl line 3: syntax error, unexpected ';', expecting ',' or ')'"),
    ("netcdf x { variables: foo x ; }", 1, "Undefined name (line 1): foo"),
    ("netcdf x { variables: int v; data: w = 1; }", 1, "Undefined name (line 1): w"),
    ("netcdf x { variables: int 3 ; }", 1, "ncgen: in.cdl line 1: syntax error, unexpected INT_CONST"),
    ("netcdf x { dimensions: d = 2 ; d = 3 ; }", 1, "ncgen: in.cdl line 1: Duplicate dimension declaration for d"),
    ("netcdf x { variables: int v, v ; }", 1, "ncgen: in.cdl line 1: Duplicate variable declaration for v"),
    ("x\n", 1, "ncgen: in.cdl line 1: syntax error, unexpected IDENT, expecting NETCDF"),
    // A one-byte file is consumed by ncgen's BOM check.
    ("x", 1, "ncgen: in.cdl line 1: syntax error, unexpected end of file, expecting NETCDF"),
    ("netcdf x { :a = 1, \"b\" ; }", 1, "ncgen: in.cdl line 1: Non-simple list of values for untyped attribute: /a"),
    ("netcdf x { :a = 99999999999999999999 ; }", 1, "ncgen: in.cdl line 1: integer constant out of range: 99999999999999999999"),
    ("netcdf x { :a = -1u ; }", 1, "ncgen: in.cdl line 1: Unsigned integer cannot be signed: -1"),
    ("netcdf x { :a = 256ub ; }", 1, "ncgen: in.cdl line 1: Value out of range"),
    ("netcdf x { variables: int v ; v:_FillValue = 1, 2 ; }", 1, "_FillValue: must be a single (possibly compound) value"),
    ("netcdf x { } junk", 1, "ncgen: in.cdl line 1: syntax error, unexpected IDENT, expecting end of file"),
    ("netcdf x { :a = _ ; }", 1, "Attribute data may not contain fill values (i.e. _ ): a"),
    ("netcdf x { dimensions: d = 2 ; variables: int v(q) ; }", 1, "Undefined or forward referenced dimension: q"),
    ("netcdf x { :a = 3000000000 ; }", 1, "ncgen: NetCDF: Not a valid data type or _FillValue type mismatch"),
    ("netcdf x { variables: ubyte v ; }", 1, "ncgen: NetCDF: Not a valid data type or _FillValue type mismatch"),
    ("netcdf x { variables: int v ; v:_Storage = \"weird\" ; }", 1, "_Storage: illegal value: weird"),
    ("netcdf x { :_Format = \"nonsense\" ; }", 1, "_Format: illegal value: nonsense"),
    ("netcdf x { dimensions: d = 2 ; variables: int v(d) ; data: v = {1, 2} ; }", 1, "ncgen: in.cdl line 1: Expected primitive found {..}"),
    ("netcdf x { dimensions: d = unlimited ; e = unlimited ; variables: int v(d, e) ; }", 1, "ncgen: in.cdl line 1: Variable: /v: UNLIMITED must be in first dimension only"),
    ("netcdf x { variables: int v ; data: v = foo(1) ; }", 1, "Unknown function name: foo"),
    ("netcdf x { dimensions: d = 2, e ; }", 1, "ncgen: in.cdl line 1: syntax error, unexpected ';', expecting '='"),
    ("netcdf x { variables: int v( ; }", 1, "ncgen: in.cdl line 1: syntax error, unexpected ';', expecting IDENT or PATH"),
    ("netcdf x { variables: double v ; v:_DeflateLevel = \"x\" ; }", 1, "ncgen: in.cdl line 1: syntax error, unexpected TERMSTRING, expecting INT_CONST or INT64_CONST or UINT_CONST or UINT64_CONST"),
    ("netcdf x { variables: int v ; v:_Shuffle = 2 ; }", 1, "_Shuffle: illegal value"),
    ("netcdf x { :a = 1 , ; }", 1, "ncgen: in.cdl line 1: syntax error, unexpected ';'"),
    ("netcdf x { :a = 'ab' ; }", 1, "ncgen: in.cdl line 1: syntax error, unexpected invalid token, expecting ';'"),
    ("netcdf x { variables: int v ; v:_Storage = \"contiguous\" ; }", 0, ""),
    ("netcdf x { variables: int v ; v:_Endianness = \"big\" ; }", 0, ""),
    ("netcdf x { group: g { } }", 0, ""),
    ("netcdf x { types: int enum e { a = 1 } ; }", 0, ""),
    ("netcdf x { variables: int v ; v:_Storage = \"contiguous\" ; :_Format = \"classic\" ; }", 1, "ncgen: NetCDF: Attempting netcdf-4 operation on netcdf-3 file"),
    ("netcdf x { group: g { } :_Format = \"classic\" ; }", 0, "-k or _Format conflicts with enhanced CDL input"),
    ("\u{feff}netcdf x { }", 0, ""),
    // netcdf-c drops string attributes from netCDF-3 output; int64 ones fail with a line.
    ("netcdf x { variables: int v ; string v:a = \"x\" ; string :g = \"y\" ; }", 0, ""),
    ("netcdf x { variables: int v ; int64 v:a = 1 ; }", 1, "ncgen: cdl line 1; NetCDF: Not a valid data type or _FillValue type mismatch"),
];

#[test]
fn error_cases() {
    let tmp = tempfile::tempdir().unwrap();
    let have_ref = reference_available();
    for (cdl, code, first) in ERRORS {
        std::fs::write(tmp.path().join("in.cdl"), cdl).unwrap();
        let got = run(OURS, tmp.path(), &["-b"], "in.cdl", Some("o.nc"));
        assert_eq!(got.first_line(), *first, "{cdl}");
        assert_eq!(got.code, Some(*code), "{cdl}");
        if have_ref {
            let want = run(REFERENCE, tmp.path(), &["-b"], "in.cdl", Some("o.nc"));
            assert_eq!(want.first_line(), *first, "reference changed for {cdl}");
            assert_eq!(want.code, Some(*code), "reference exit code for {cdl}");
        }
    }
}

#[test]
fn command_line_behaviour() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(
        d.join("good.data.cdl"),
        "netcdf named { dimensions: n = 1 ; }",
    )
    .unwrap();
    let ours = |args: &[&str]| {
        let r = Command::new(OURS)
            .current_dir(d)
            .args(args)
            .output()
            .unwrap();
        (
            r.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&r.stderr).into_owned(),
        )
    };
    // Syntax check only: no -b/-k/-o/-l, no file written.
    assert_eq!(ours(&["good.data.cdl"]).0, 0);
    assert!(!d.join("good.data.nc").exists());
    // -k alone writes, named after the input without its last extension.
    assert_eq!(ours(&["-k", "nc3", "good.data.cdl"]).0, 0);
    assert!(d.join("good.data.nc").exists());
    // -n uses the legacy .cdf extension.
    assert_eq!(ours(&["-n", "good.data.cdl"]).0, 0);
    assert!(d.join("good.data.cdf").exists());
    // Standard input: the dataset name (or -N) names the output.
    let r = Command::new(OURS)
        .current_dir(d)
        .args(["-b", "-N", "other"])
        .stdin(std::fs::File::open(d.join("good.data.cdl")).unwrap())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0));
    assert!(d.join("other.nc").exists());
    assert_eq!(
        ours(&["-k", "foo", "good.data.cdl"]),
        (2, "Invalid format: foo\n".into())
    );
    assert_eq!(
        ours(&["a.cdl", "b.cdl"]),
        (6, "ncgen: only one input file argument permitted\n".into())
    );
    assert_eq!(
        ours(&["-b", "missing.cdl"]),
        (
            7,
            "can't open file missing.cdl for reading: \nNo such file or directory\n".into()
        )
    );
    // C generation prints the program on standard output (tests/ncgen_codegen.rs).
    assert_eq!(ours(&["-l", "c", "good.data.cdl"]), (0, String::new()));
    assert_eq!(
        ours(&["-l", "cobol", "good.data.cdl"]),
        (1, "ncgen: output language cobol not implemented\n".into())
    );
    assert_eq!(ours(&["-b", "-lb", "good.data.cdl"]).0, 1);
    assert_eq!(ours(&["-Z", "good.data.cdl"]).0, 8);
    assert_eq!(ours(&["-k", "nc4", "good.data.cdl"]).0, 0);
    std::fs::write(d.join("utf16.cdl"), b"\xff\xfenetcdf x { }").unwrap();
    assert_eq!(
        ours(&["-b", "utf16.cdl"]),
        (
            1,
            "Input file contains a BOM indicating a non-UTF8 encoding\n".into()
        )
    );
}

#[test]
fn header_only_writes_no_data() {
    if !reference_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let input = data_dir().join("records.cdl");
    for args in [&["-H", "-b"][..], &["-H", "-x", "-b"][..]] {
        let want = run(
            REFERENCE,
            tmp.path(),
            args,
            input.to_str().unwrap(),
            Some("r.nc"),
        );
        let got = run(
            OURS,
            tmp.path(),
            args,
            input.to_str().unwrap(),
            Some("o.nc"),
        );
        assert_eq!(got.code, want.code);
        assert!(got.same_output(&want), "{args:?}");
    }
}

/// `_Filter` parameters written in hexadecimal: netcdf-c reads a parameter whose last character
/// is a float or double tag (`f`, `.`, `d`) with `sscanf("%lf")`, which takes C99 hex floats —
/// and the tag can be a hex digit of the constant itself (`0x1f` is the float 31, `0x1d` the
/// double 29) — while integer tags read decimal only (`0x10` is 0). Our ncgen must record the
/// same words: `ncdump -s -h` of both files equal, exit codes and first messages equal. Filter
/// 307 (bzip2) with hdf5plugin's plugins for the reference; no data, so nothing is compressed.
#[test]
fn hex_filter_parameters_match_reference() {
    if !reference_available() {
        return;
    }
    let Some(plugins) = support::hdf5_plugin_path() else {
        return;
    };
    let env = [("HDF5_PLUGIN_PATH", plugins.as_str())];
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let params = [
        "9,0x1f",
        "9,0X1F,0x10,0X10",
        "9,0x1fu,0x1fb,0x1fs,0x1fll",
        "9,0x1d,0xAp2d,0X.1D",
        "9,-0x.8f,+0x1.8p1f,0x1P-2.,0xf.",
        "9,0x1pf,0x.,0x1e1f",
        "9,0x1p-149f,0x1p-150f,0x1.000001p-150f,0x1p128f",
        "9,0x1.fffffffffffff7p1023d,0x1p-1075d,0x1.8p-1075d",
        "9,0x0.0000000000000000000000001p0f,0x1000000000000000000000000000000000001p-144f",
        "9,0xp1f",
        "9,0x1e",
        "9,infinif",
    ];
    let mut diffs = Vec::new();
    for p in params {
        let cdl = format!(
            "netcdf x {{ dimensions: n = 4 ; variables: float v(n) ; v:_Filter = \"307,{p}\" ; }}\n"
        );
        std::fs::write(d.join("f.cdl"), cdl).unwrap();
        let mut got = Vec::new();
        for (tool, out) in [(REFERENCE, "r.nc"), (OURS, "o.nc")] {
            let _ = std::fs::remove_file(d.join(out));
            let made = support::run_env(tool, ["-k", "nc4", "-o", out, "f.cdl"], d, &env);
            let dump = support::run(support::REF_NCDUMP, ["-n", "x", "-s", "-h", out], d);
            let text: String = String::from_utf8_lossy(&dump.stdout)
                .lines()
                .filter(|l| !l.contains("_NCProperties"))
                .map(|l| format!("{l}\n"))
                .collect();
            let first = String::from_utf8_lossy(&made.stderr)
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            got.push((made.code, first, text));
        }
        if got[0] != got[1] {
            diffs.push(format!("307,{p}: netcdf-c {:?}\nours {:?}", got[0], got[1]));
        }
        if p == "9,0x1f" {
            // The bits of 31.0f.
            assert!(
                got[1].2.contains("v:_Filter = \"307,9,1106771968\""),
                "{}",
                got[1].2
            );
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}
