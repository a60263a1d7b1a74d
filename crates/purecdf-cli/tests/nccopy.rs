//! `nccopy` tests that need neither the reference tools nor `../shared`: our copies of the
//! committed fixtures must equal the committed outputs of netcdf-c 4.9.0's `nccopy`
//! (`tests/data/nccopy/expected`, made by `tests/data/nccopy/make.sh`), and bad command lines and
//! netCDF-4 requests must fail with netcdf-c's messages and exit status 1.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/nccopy")
        .join(name)
}

/// Exit code, stdout and stderr of our `nccopy`, run as `nccopy` (argv\[0\]) in `dir`.
fn ours(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nccopy"))
        .arg0("nccopy")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run nccopy");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each case: input fixture, expected output (in `expected/`), options.
const CASES: &[(&str, &str, &[&str])] = &[
    ("types.nc", "types.nc", &[]),
    ("types.nc", "types_nc6_u.nc", &["-k", "nc6", "-u"]),
    (
        "types.nc",
        "types_cdf5_V.nc",
        &["-k", "cdf5", "-V", "sh,c,rc"],
    ),
    ("types.nc", "types_v.nc", &["-v", "i,rc,d"]),
    ("types64.nc", "types64_3_u.nc", &["-3", "-u", "-m", "7"]),
    ("emptyrec.nc", "emptyrec_u.nc", &["-u"]),
    ("onerec.nc", "onerec_6.nc", &["-6", "-m", "3"]),
    ("norec.nc", "norec_5.nc", &["-k", "cdf5"]),
    ("cdf5.nc", "cdf5_m5.nc", &["-m", "5"]),
    ("cdf5.nc", "cdf5_V.nc", &["-V", "i64,us"]),
];

#[test]
fn copies_equal_committed_reference_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (i, (input, expected, opts)) in CASES.iter().enumerate() {
        let out = tmp.path().join(format!("out{i}.nc"));
        let inp = data(input);
        let mut args: Vec<&str> = opts.to_vec();
        args.push(inp.to_str().unwrap());
        args.push(out.to_str().unwrap());
        let (code, _, err) = ours(&args, tmp.path());
        let want = std::fs::read(data("expected").join(expected)).unwrap();
        let got = std::fs::read(&out).unwrap_or_default();
        let case = format!("nccopy {} {input} -> {expected}", opts.join(" "));
        if code != 0 {
            failures.push(format!("{case}: exit {code}: {err}"));
        } else if got != want {
            let at = got.iter().zip(&want).position(|(a, b)| a != b);
            failures.push(format!(
                "{case}: {} bytes vs {} expected, first difference at {at:?}",
                got.len(),
                want.len()
            ));
        } else {
            eprintln!("ok: {case}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs a failing case; returns stderr after checking exit status 1 and that no output appeared.
fn fails(args: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(data("types.nc"), tmp.path().join("in.nc")).unwrap();
    std::fs::copy(data("cdf5.nc"), tmp.path().join("in5.nc")).unwrap();
    let (code, out, err) = ours(args, tmp.path());
    assert_eq!(code, 1, "nccopy {args:?}: {err}");
    assert_eq!(out, "");
    err
}

#[test]
fn command_line_errors_match_netcdf_c() {
    let usage_head = "nccopy: nccopy [-k kind] [-[3|4|6|7]] [-d n] [-s] [-c chunkspec] [-u] [-w] \
                      [-[v|V] varlist] [-[g|G] grplist] [-m n] [-h n] [-e n] [-r] [-F filterspec] \
                      [-Ln] [-Mn] infile outfile\n  [-k kind] specify kind";
    assert!(fails(&[]).starts_with(usage_head));
    let e = fails(&["-Z", "in.nc", "out.nc"]);
    assert!(
        e.starts_with(&format!("nccopy: invalid option -- 'Z'\n{usage_head}")),
        "{e}"
    );
    // netcdf-c's option string has no 5, whatever its usage text says.
    assert!(fails(&["-5", "in.nc", "out.nc"]).starts_with("nccopy: invalid option -- '5'\n"));
    assert!(fails(&["in.nc", "out.nc", "-k"])
        .starts_with("nccopy: option requires an argument -- 'k'\n"));
    let cases: &[(&[&str], &str)] = &[
        (
            &["in.nc"],
            "nccopy: one input file and one output file required\n",
        ),
        (
            &["in.nc", "in.nc"],
            "nccopy: output would overwrite input\n",
        ),
        (
            &["-k", "nc9", "in.nc", "o.nc"],
            "nccopy: invalid output format: nc9\n",
        ),
        (
            &["-d", "10", "in.nc", "o.nc"],
            "nccopy: invalid deflation level: 10\n",
        ),
        (
            &["-m", "3X", "in.nc", "o.nc"],
            "nccopy: Suffix used for '-m' option value must be K, M, G, T, or P\n",
        ),
        (
            &["-L", "2", "in.nc", "o.nc"],
            "nccopy: -L specified, but logging support not enabled\n",
        ),
        (
            &["-V", "sh,nope", "in.nc", "o.nc"],
            "nccopy: nope: No such variable\n",
        ),
        (
            &["-v", "/sh", "in.nc", "o.nc"],
            "nccopy: /sh: No such variable\n",
        ),
        (
            &["-g", "grp", "in.nc", "o.nc"],
            "nccopy: Group list (-g ...) only permitted for netCDF-4 file\n",
        ),
        (
            &["missing.nc", "o.nc"],
            "No such file or directory\nLocation: file ; line 2016\n",
        ),
        (
            &["-k", "classic", "in5.nc", "o.nc"],
            "NetCDF: Not a valid data type or _FillValue type mismatch\n\
             Location: file ; line 1408\n",
        ),
    ];
    for (args, want) in cases {
        let got = fails(args);
        assert!(
            got.starts_with(want),
            "nccopy {args:?}:\n{got}\nwanted:\n{want}"
        );
    }
}

#[test]
fn netcdf4_output_holds_the_same_data() {
    let dump = |p: &std::path::Path| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ncdump"))
            .arg(p)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        text.split_once('\n')
            .map(|(_, body)| body.to_string())
            .unwrap()
    };
    for opts in [
        &["-4"][..],
        &["-7"],
        &["-k", "nc4"],
        &["-k", "netCDF-4 classic model"],
    ] {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::copy(data("types.nc"), tmp.path().join("in.nc")).unwrap();
        let mut args = opts.to_vec();
        args.extend(["in.nc", "out.nc"]);
        let (code, _, err) = ours(&args, tmp.path());
        assert_eq!(code, 0, "nccopy {args:?}: {err}");
        assert_eq!(
            dump(&tmp.path().join("in.nc")),
            dump(&tmp.path().join("out.nc")),
            "nccopy {args:?}"
        );
    }
}

#[test]
fn netcdf4_only_options_are_harmless_for_classic_output() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = data("types.nc");
    let out = tmp.path().join("o.nc");
    let (code, _, err) = ours(
        &[
            "-3",
            "-d",
            "5",
            "-s",
            "-c",
            "x/2,time/",
            "-h",
            "1M",
            "-e",
            "10",
            "-M",
            "0",
            "-x",
            "-F",
            "none",
            inp.to_str().unwrap(),
            out.to_str().unwrap(),
        ],
        tmp.path(),
    );
    assert_eq!(code, 0, "{err}");
    let want = std::fs::read(data("expected/types.nc")).unwrap();
    assert_eq!(std::fs::read(out).unwrap(), want);
}

#[test]
fn bad_chunk_spec_fails_like_netcdf_c() {
    let e = fails(&["-3", "-c", "nodim/3", "in.nc", "out.nc"]);
    assert!(e.starts_with("NetCDF: Invalid dimension ID or name\nLocation: file ; line 2051\n"));
    let e = fails(&["-3", "-c", "x", "in.nc", "out.nc"]);
    assert!(e.starts_with("NetCDF: Invalid argument\nLocation: file ; line 2051\n"));
}

#[test]
fn corrupt_input_is_an_error_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let good = std::fs::read(data("types.nc")).unwrap();
    for cut in [0usize, 3, 4, 12, 40, 200, 700, good.len() - 1] {
        let p = tmp.path().join(format!("cut{cut}.nc"));
        std::fs::write(&p, &good[..cut]).unwrap();
        let (code, _, err) = ours(&[p.to_str().unwrap(), "o.nc"], tmp.path());
        // netcdf-c itself accepts some truncations (it reads zeros past the end); what matters
        // is a clean exit with a message, never a panic.
        assert!(code == 0 || code == 1, "cut at {cut}: exit {code}: {err}");
        assert!(
            code == 0 || err.contains("Location: file ;"),
            "cut at {cut}: {err}"
        );
        assert!(!err.contains("panicked"), "cut at {cut}: {err}");
    }
}

#[test]
fn in_memory_read_and_deferred_write_give_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let inp = data("types.nc");
    let want = std::fs::read(data("expected/types_nc6_u.nc")).unwrap();
    for opts in [&["-r"][..], &["-w"], &["-r", "-w", "-m", "2"]] {
        let out = tmp.path().join("o.nc");
        let mut args = opts.to_vec();
        args.extend([
            "-k",
            "nc6",
            "-u",
            inp.to_str().unwrap(),
            out.to_str().unwrap(),
        ]);
        let (code, _, err) = ours(&args, tmp.path());
        assert_eq!(code, 0, "nccopy {args:?}: {err}");
        assert_eq!(std::fs::read(&out).unwrap(), want, "nccopy {args:?}");
        // -w leaves nothing but the output behind.
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "nccopy {args:?}: {names:?}");
    }
    // A failed -w copy leaves no file at all.
    let (code, _, _) = ours(
        &["-w", "-V", "nosuch", inp.to_str().unwrap(), "x.nc"],
        tmp.path(),
    );
    assert_eq!(code, 1);
    assert!(!tmp.path().join("x.nc").exists());
}

#[test]
fn absurd_record_count_fails_fast() {
    let tmp = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(data("types.nc")).unwrap();
    // numrecs (bytes 4..8 of a CDF-1 header) set to 2^31 - 1.
    bytes[4..8].copy_from_slice(&[0x7f, 0xff, 0xff, 0xff]);
    let p = tmp.path().join("huge.nc");
    std::fs::write(&p, &bytes).unwrap();
    let t0 = std::time::Instant::now();
    let (code, _, err) = ours(&[p.to_str().unwrap(), "o.nc"], tmp.path());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(
            "NetCDF: File likely truncated or possibly corrupted\nLocation: file ; line 2016\n"
        ),
        "{err}"
    );
    assert!(
        err.contains("bytes of data but the file has only 1160 bytes"),
        "{err}"
    );
    assert!(t0.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn input_under_another_name_is_not_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(data("types.nc"), tmp.path().join("in.nc")).unwrap();
    let (code, _, err) = ours(&["in.nc", "./in.nc"], tmp.path());
    assert_eq!(code, 1);
    assert_eq!(err, "nccopy: output would overwrite input\n");
    let after = std::fs::read(tmp.path().join("in.nc")).unwrap();
    assert_eq!(after, std::fs::read(data("types.nc")).unwrap());
}
