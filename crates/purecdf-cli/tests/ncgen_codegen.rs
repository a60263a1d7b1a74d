//! `ncgen -l c|java|f77`: the generated program, its diagnostics and exit status equal netcdf-c
//! 4.9.0's.
//!
//! - Fixtures: `tests/data/codegen/*.{c,java,f}` are what netcdf-c 4.9.0's ncgen printed for the
//!   CDL files beside them (and for `samples/sample.cdl`); they run without the reference tools.
//! - The corpus: every CDL file of `shared/conformance/netcdf-c`, under several flag sets,
//!   against `/usr/bin/ncgen` (required with `PURECDF_REQUIRE_REFERENCE=1`).
//! - Fortran is compared after [`f77_comparable`]: netcdf-c prints stack garbage into each
//!   `call write_...` statement.

mod support;

use std::path::{Path, PathBuf};

use support::{netcdf_c_data, reference_tools, run};

const OURS: &str = env!("CARGO_BIN_EXE_ncgen");
const REFERENCE: &str = "/usr/bin/ncgen";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/codegen")
}

/// netcdf-c 4.9's Fortran generator formats each `call write_NAME_K(ncid,NAME_id...)` with
/// one argument too few, so an unpredictable number follows `_id`. The statement's
/// continuation lines are joined and a `_<number>` before its closing parenthesis dropped;
/// the rest of the text is left as it is.
fn f77_comparable(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut lines = text.split_inclusive(|b| *b == b'\n').peekable();
    while let Some(line) = lines.next() {
        if !line.starts_with(b"      call write_") {
            out.extend_from_slice(line);
            continue;
        }
        let mut stmt = line.strip_suffix(b"\n").unwrap_or(line).to_vec();
        while let Some(next) = lines.next_if(|l| l.starts_with(b"     1")) {
            let next = next.strip_suffix(b"\n").unwrap_or(next);
            stmt.extend_from_slice(&next[6..]);
        }
        if stmt.ends_with(b")") {
            let body = &stmt[..stmt.len() - 1];
            let digits = body.iter().rev().take_while(|b| b.is_ascii_digit()).count();
            let mut cut = body.len() - digits;
            if digits > 0 && cut > 0 && body[cut - 1] == b'-' {
                cut -= 1;
            }
            if digits > 0 && body[..cut].ends_with(b"_id_") {
                let end = body.len();
                stmt.drain(cut - 1..end);
            }
        }
        out.extend_from_slice(&stmt);
        out.push(b'\n');
    }
    out
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
    let got = if args.contains(&"f77") {
        f77_comparable(&out.stdout)
    } else {
        out.stdout.clone()
    };
    if got != want {
        let diff = support::diff_bw(&want, &got).err().unwrap_or_default();
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
fn java_program() {
    check_fixture(&["-l", "java", "records.cdl"], "records.java", "");
    check_fixture(
        &["-l", "java", "-x", "-H", "-M", "Make", "records.cdl"],
        "records.xH.java",
        "",
    );
}

#[test]
fn fortran_program() {
    check_fixture(&["-l", "f77", "records.cdl"], "records.f", "");
}

#[test]
fn fortran_and_java_refuse_netcdf4_input() {
    for lang in ["f77", "java"] {
        let out = run(OURS, ["-l", lang, "types.cdl"], &fixtures());
        assert_eq!(out.code, Some(0), "-l {lang}");
        assert!(out.stdout.is_empty(), "-l {lang}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "Java or Fortran requires classic model CDL input\n"
        );
    }
}

#[test]
fn f77_comparable_drops_the_garbage_argument() {
    let text = b"x\n      call write_'t'_0(ncid,'t'_id_32612\n     15328)\n      call write_'u'_1(ncid,'u'_id)\n";
    assert_eq!(
        f77_comparable(text),
        b"x\n      call write_'t'_0(ncid,'t'_id)\n      call write_'u'_1(ncid,'u'_id)\n".to_vec()
    );
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
    let flag_sets: &[(&str, &[&str])] = &[
        ("c", &[]),
        ("c", &["-k", "nc4"]),
        ("c", &["-k", "nc7"]),
        ("c", &["-k5"]),
        ("c", &["-x", "-H"]),
        ("c", &["-W", "10", "-M", "foo"]),
        ("java", &[]),
        ("java", &["-k", "nc4", "-x", "-H"]),
        ("java", &["-W", "1", "-M", "main"]),
        ("f77", &[]),
        ("f77", &["-k", "nc4", "-x", "-H"]),
        ("f77", &["-W", "1", "-k", "nc6"]),
    ];
    let mut failures = Vec::new();
    let mut compared = 0;
    for (lang, flags) in flag_sets {
        for cdl in &files {
            let name = cdl.file_name().unwrap().to_str().unwrap();
            if SKIP.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let dir = cdl.parent().unwrap();
            let mut args = vec!["-l", lang];
            args.extend_from_slice(flags);
            args.push(name);
            let mut want = run(REFERENCE, &args, dir);
            let Some(code) = want.code else {
                continue; // netcdf-c crashed
            };
            let mut got = run(OURS, &args, dir);
            if *lang == "f77" {
                want.stdout = f77_comparable(&want.stdout);
                got.stdout = f77_comparable(&got.stdout);
            }
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
                failures.push(format!(
                    "{} -l {lang} {flags:?}:\n    {detail}",
                    cdl.display()
                ));
            }
        }
    }
    eprintln!(
        "ncgen -l c: {compared} runs compared, {} differ",
        failures.len()
    );
    support::assert_no_failures("ncgen -l c against netcdf-c", &failures);
}

/// The C programs we generate, compiled against netcdf-c and run, make files that netcdf-c's
/// `ncdump` prints exactly as it prints what netcdf-c's own `ncgen -b` makes of the same CDL:
/// the values themselves, not only the program text, are checked through an independent
/// implementation. (netcdf-c 4.9 prints some programs that do not compile, such as char arrays
/// in compounds; those are counted and left out.)
#[test]
fn generated_c_programs_write_what_ncgen_writes() {
    let (Some(data), Some(())) = (netcdf_c_data(), reference_tools()) else {
        return;
    };
    // Where netcdf-c's own program and its `ncgen -b` part ways.
    const DIFFERENT: &[(&str, &str)] = &[
        (
            "records.cdl",
            "`-0.` is printed `((float)-0)`, an integer expression: the program writes +0",
        ),
        (
            "ref_tst_special_atts.cdl",
            "no-fill variables without data: ncdump prints uninitialised memory",
        ),
        (
            "ref_tst_special_atts3.cdl",
            "no-fill variables without data: ncdump prints uninitialised memory",
        ),
    ];
    let mut cdls: Vec<PathBuf> = ["records.cdl", "types.cdl"]
        .iter()
        .map(|n| fixtures().join(n))
        .collect();
    cdls.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/sample.cdl"));
    support::cdl_files(&data.join("ncdump/cdl"), &mut cdls);
    cdls.retain(|p| !DIFFERENT.iter().any(|(n, _)| p.ends_with(n)));
    let tmp = tempfile::tempdir().unwrap();
    let (mut matched, mut not_compiled, mut failures) = (0, 0, Vec::new());
    for (i, cdl) in cdls.iter().enumerate() {
        let dir = tmp.path().join(i.to_string());
        let (ours, theirs) = (dir.join("ours"), dir.join("ref"));
        std::fs::create_dir_all(&ours).unwrap();
        std::fs::create_dir_all(&theirs).unwrap();
        let cdl_arg = cdl.to_str().unwrap();
        let reference = run(REFERENCE, ["-b", "-o", "x.nc", cdl_arg], &theirs);
        if reference.code != Some(0) {
            continue;
        }
        let program = run(OURS, ["-l", "c", "-o", "x.nc", cdl_arg], &ours);
        assert_eq!(program.code, Some(0), "{}", cdl.display());
        std::fs::write(ours.join("x.c"), &program.stdout).unwrap();
        let built = std::process::Command::new("cc")
            .current_dir(&ours)
            .args(["-w", "-o", "x", "x.c", "-lnetcdf"])
            .output()
            .expect("cc");
        if !built.status.success() {
            not_compiled += 1;
            continue;
        }
        let ran = run(ours.join("x").to_str().unwrap(), Vec::<&str>::new(), &ours);
        let dump = |d: &Path| run("/usr/bin/ncdump", ["x.nc"], d).stdout;
        if ran.code != Some(0) {
            failures.push(format!("{}: {}", cdl.display(), ran.failure("program")));
        } else if dump(&ours) != dump(&theirs) {
            failures.push(format!(
                "{}: the program's file dumps differently",
                cdl.display()
            ));
        } else {
            matched += 1;
        }
    }
    eprintln!("generated C programs: {matched} files as ncgen -b's, {not_compiled} not compiled");
    assert!(matched >= 40, "only {matched} programs checked");
    support::assert_no_failures("generated C programs", &failures);
}
