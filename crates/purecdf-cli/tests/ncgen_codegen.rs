//! `ncgen -l c`: the generated C program, its diagnostics and exit status equal netcdf-c 4.9.0's.
//!
//! - Fixtures: `tests/data/codegen/*.c` are what netcdf-c 4.9.0's `ncgen -l c` printed for the
//!   CDL files beside them (and for `samples/sample.cdl`); they run without the reference tools.
//! - The corpus: every CDL file of `shared/conformance/netcdf-c`, under several flag sets,
//!   against `/usr/bin/ncgen` (required with `PURECDF_REQUIRE_REFERENCE=1`).

mod support;

use std::path::{Path, PathBuf};

use support::{netcdf_c_data, reference_tools, run};

const OURS: &str = env!("CARGO_BIN_EXE_ncgen");
const REFERENCE: &str = "/usr/bin/ncgen";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/codegen")
}

/// Runs our ncgen in the fixture directory; compares standard output with `expected` and
/// standard error with `stderr`.
fn check_fixture(args: &[&str], expected: &str, stderr: &str) {
    let dir = fixtures();
    let out = run(OURS, args, &dir);
    assert_eq!(
        out.code,
        Some(0),
        "ncgen {args:?}: {}",
        out.failure("ncgen")
    );
    let want = std::fs::read(dir.join(expected)).unwrap();
    if out.stdout != want {
        let diff = support::diff_bw(&want, &out.stdout)
            .err()
            .unwrap_or_default();
        panic!("ncgen {args:?} differs from {expected}:\n{diff}");
    }
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        stderr,
        "ncgen {args:?}"
    );
}

#[test]
fn classic_records_and_names() {
    check_fixture(&["-l", "c", "records.cdl"], "records.c", "");
}

#[test]
fn header_only_nofill_and_main_name() {
    check_fixture(
        &["-l", "c", "-x", "-H", "-M", "make_records", "records.cdl"],
        "records.xH.c",
        "",
    );
}

#[test]
fn rows_when_wider_than_whole_var_size() {
    check_fixture(
        &[
            "-l",
            "c",
            "-W",
            "4",
            "-k",
            "nc4",
            "-o",
            "made.nc",
            "records.cdl",
        ],
        "records.W4.c",
        "",
    );
}

#[test]
fn netcdf4_groups_types_and_specials() {
    check_fixture(&["-l", "c", "types.cdl"], "types.c", "");
}

#[test]
fn cdf5_with_user_types() {
    // netcdf-c 4.9's generator knows no CDF-5 create mode: it says so and creates a classic
    // file.
    check_fixture(
        &["-l", "c", "-k5", "types.cdl"],
        "types.k5.c",
        "unknown cmode modifier\n",
    );
}

#[test]
fn names_as_spelled() {
    // An NFD name (`cafe` + U+0301) makes identifiers from its spelling, not its NFC form.
    check_fixture(&["-l", "c", "../ncgen/names.cdl"], "names.c", "");
}

#[test]
fn readme_sample() {
    check_fixture(
        &["-l", "c", "../../../../../samples/sample.cdl"],
        "sample.c",
        "",
    );
}

/// Cases netcdf-c itself gets wrong in ways that cannot be reproduced.
const SKIP: &[(&str, &str)] = &[
    (
        "ref_tst_opaque_data.cdl",
        "netcdf-c reads past the buffer of an 11-byte opaque constant and prints what it finds",
    ),
    (
        "ref_tst_vlen_data2.cdl",
        "the error names the line where the compound opens; ours, as our binary output's, the \
         line where it closes",
    ),
];

#[test]
fn corpus_matches_netcdf_c() {
    let (Some(data), Some(())) = (netcdf_c_data(), reference_tools()) else {
        return;
    };
    let mut files = Vec::new();
    support::cdl_files(&data, &mut files);
    assert!(files.len() > 200, "only {} CDL files", files.len());
    let flag_sets: &[&[&str]] = &[
        &[],
        &["-k", "nc4"],
        &["-k", "nc7"],
        &["-k5"],
        &["-x", "-H"],
        &["-W", "10", "-M", "foo"],
    ];
    let mut failures = Vec::new();
    let mut compared = 0;
    for flags in flag_sets {
        for cdl in &files {
            let name = cdl.file_name().unwrap().to_str().unwrap();
            if SKIP.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let dir = cdl.parent().unwrap();
            let mut args = vec!["-l", "c"];
            args.extend_from_slice(flags);
            args.push(name);
            let want = run(REFERENCE, &args, dir);
            let Some(code) = want.code else {
                continue; // netcdf-c crashed
            };
            let got = run(OURS, &args, dir);
            compared += 1;
            let first = |e: &[u8]| {
                String::from_utf8_lossy(e)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string()
            };
            let same = if code == 0 {
                got.code == Some(0) && got.stdout == want.stdout && got.stderr == want.stderr
            } else {
                got.code == Some(code) && first(&got.stderr) == first(&want.stderr)
            };
            if !same {
                let detail = support::diff_bw(&want.stdout, &got.stdout)
                    .err()
                    .unwrap_or_else(|| {
                        format!(
                            "status {:?} vs {:?}; stderr {:?} vs {:?}",
                            want.code,
                            got.code,
                            first(&want.stderr),
                            first(&got.stderr)
                        )
                    });
                let detail: String = detail.lines().take(6).collect::<Vec<_>>().join("\n    ");
                failures.push(format!("{} {flags:?}:\n    {detail}", cdl.display()));
            }
        }
    }
    eprintln!(
        "ncgen -l c: {compared} runs compared, {} differ",
        failures.len()
    );
    support::assert_no_failures("ncgen -l c against netcdf-c", &failures);
}
