//! `ncdump` against the reference netcdf-c 4.9.0 `/usr/bin/ncdump`, run side by side: our
//! fixtures in every option mode, failing command lines, every classic-format file of netcdf-c's
//! test data (`conformance/netcdf-c` under `../shared` or `$PURECDF_SHARED_DIR`, found by magic
//! number) and the malformed
//! classic corpus of `purecdf/tests/data/bad`. Standard output and exit status must be equal; so
//! must standard error, once the program name is normalised (where netcdf-c prints source line
//! numbers of its own code, only the first line is compared).
//!
//! Skips when the reference is not installed, unless `PURECDF_REQUIRE_REFERENCE=1`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

const REFERENCE: &str = "/usr/bin/ncdump";

fn reference() -> bool {
    let have = Path::new(REFERENCE).exists();
    if !have && std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() == Ok("1") {
        panic!("PURECDF_REQUIRE_REFERENCE=1 but {REFERENCE} is not installed");
    }
    have
}

fn ours() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ncdump"))
}

struct Run {
    stdout: Vec<u8>,
    stderr: String,
    code: Option<i32>,
}

fn run(bin: &Path, dir: &Path, args: &[String]) -> Run {
    let out = Command::new(bin)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run ncdump");
    // Normalise the program name (argv[0]) at the start of lines.
    let prog = bin.to_string_lossy().into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|l| {
            l.strip_prefix(prog.as_str())
                .map_or(l.to_string(), |r| format!("ncdump{r}"))
        })
        .collect::<Vec<_>>()
        .join("\n");
    Run {
        stdout: out.stdout,
        stderr,
        code: out.status.code(),
    }
}

/// Compares one invocation; returns a description of the difference, if any.
fn compare(dir: &Path, args: &[String]) -> Option<String> {
    let a = run(&ours(), dir, args);
    let b = run(Path::new(REFERENCE), dir, args);
    let (ea, eb) = if b.stderr.contains("\nLocation: file") {
        (
            a.stderr.lines().next().unwrap_or("").to_string(),
            b.stderr.lines().next().unwrap_or("").to_string(),
        )
    } else {
        (a.stderr.clone(), b.stderr.clone())
    };
    if a.stdout == b.stdout && a.code == b.code && ea == eb {
        return None;
    }
    let first_diff = a
        .stdout
        .iter()
        .zip(&b.stdout)
        .position(|(x, y)| x != y)
        .unwrap_or(a.stdout.len().min(b.stdout.len()));
    let from = first_diff.saturating_sub(120);
    Some(format!(
        "{args:?} in {}: exit {:?} vs {:?}; stderr {ea:?} vs {eb:?}; stdout differs at byte {first_diff}:\n  ours: {:?}\n  ref:  {:?}",
        dir.display(),
        a.code,
        b.code,
        String::from_utf8_lossy(&a.stdout[from.min(a.stdout.len())..(first_diff + 80).min(a.stdout.len())]),
        String::from_utf8_lossy(&b.stdout[from.min(b.stdout.len())..(first_diff + 80).min(b.stdout.len())]),
    ))
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ncdump")
}

#[test]
fn fixtures_in_every_mode_match_reference() {
    if !reference() {
        return;
    }
    let fixtures = [
        ("classic_types.nc", "c,rec,a b:c"),
        ("cdf5_types.nc", "u64,cube"),
        ("offset64_records.nc", "temp,label"),
        ("times.nc", "time,time_bnds"),
        ("times_bounds.nc", "tb,z"),
        ("nc4_groups.nc", "cm,sub/x,/sub/deeper/z"),
        ("nc4_unlimited.nc", "fu,st"),
        ("nc7_types.nc", "c,rec,a b:c"),
        ("nc4_compound.nc", "r,pf"),
    ];
    let modes: &[&[&str]] = &[
        &[],
        &["-h"],
        &["-c"],
        &["-v", "{V}"],
        &["-b", "c"],
        &["-b", "f"],
        &["-f", "c"],
        &["-f", "f"],
        &["-f", "c", "-b", "f"],
        &["-l", "10"],
        &["-l", "25"],
        &["-l", "0x30"],
        &["-l", "200"],
        &["-p", "1"],
        &["-p", "9,17"],
        &["-p", ",5"],
        &["-p", "2,20"],
        &["-d", "3"],
        &["-t"],
        &["-i", "-l", "40"],
        &["-s"],
        &["-s", "-F"],
        &["-k"],
        &["-K"],
        &["-x"],
        &["-x", "-c"],
        &["-x", "-v", "{V}"],
        &["-n", "x y"],
        &["-n", "1st"],
        &["-hc"],
        // (-L is accepted too, but turns on netcdf-c logging, whose AWS-config warnings are
        // not reproduced.)
        &["-w", "-Xp", "-Xm"],
    ];
    let mut diffs = Vec::new();
    for (file, vlist) in fixtures {
        for m in modes {
            let mut args: Vec<String> = m
                .iter()
                .map(|a| {
                    if *a == "{V}" {
                        vlist.to_string()
                    } else {
                        a.to_string()
                    }
                })
                .collect();
            args.push(file.to_string());
            diffs.extend(compare(&fixture_dir(), &args));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

#[test]
fn failing_command_lines_match_reference() {
    if !reference() {
        return;
    }
    let cases: &[&[&str]] = &[
        &["-Q", "times.nc"],
        &["times.nc", "-l"],
        &["-l", "9", "times.nc"],
        &["-b", "x", "times.nc"],
        &["-f", "", "times.nc"],
        &["-p", "21", "times.nc"],
        &["-p", "5,", "times.nc"],
        &["-d", "x", "times.nc"],
        &["-X", "q", "times.nc"],
        &["times.nc", "cdf5_types.nc"],
        &["nosuch.nc"],
        &["README.md"],
        &["."],
        &["-v", "time,nosuch", "times.nc"],
        &["-v", "/time", "times.nc"],
        &["-g", "/", "times.nc"],
        &["-k", "nosuch.nc"],
        &["--", "times.nc"],
        &["-"],
    ];
    let mut diffs = Vec::new();
    for c in cases {
        diffs.extend(compare(&fixture_dir(), &strings(c)));
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

#[test]
fn group_and_variable_selection_matches_reference() {
    if !reference() {
        return;
    }
    let probe = run(&ours(), &fixture_dir(), &strings(&["-h", "nc4_groups.nc"]));
    if probe.stderr.contains("was not turned on") {
        eprintln!("netCDF-4 reading not built: skipped");
        return;
    }
    let cases: &[&[&str]] = &[
        &["-g", "sub"],
        &["-g", "/sub/deeper"],
        &["-g", "deeper,sub"],
        &["-g", "nosuch"],
        &["-g", "/"],
        &["-v", "x"],
        &["-v", "/sub/x"],
        &["-v", "sub/x"],
        &["-v", "ub/x"],
        &["-v", "/x"],
        &["-v", "deeper/z"],
        &["-h", "-g", "sub"],
        &["-v", "gc", "-c"],
        &["-x"],
    ];
    let mut diffs = Vec::new();
    for c in cases {
        let mut args = strings(c);
        args.push("nc4_groups.nc".into());
        diffs.extend(compare(&fixture_dir(), &args));
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

/// Every CDL of netcdf-c's test suite that `ncgen` can make into a classic (`nc3`) and a CDF-5
/// (`nc5`) file dumps like netcdf-c in several modes. netcdf-c's `bigf*`/`bigr*` tests (gigabytes
/// of fill values) are left out, and so are files over 2 MB.
#[test]
fn netcdf_c_cdl_suite_as_classic_matches_reference() {
    if !reference() || !Path::new("/usr/bin/ncgen").exists() {
        return;
    }
    let Some(root) = support::netcdf_c_data() else {
        return;
    };
    let mut cdls = Vec::new();
    for sub in ["ncdump/cdl", "ncdump", "ncgen"] {
        if let Ok(rd) = std::fs::read_dir(root.join(sub)) {
            cdls.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "cdl")),
            );
        }
    }
    cdls.sort();
    if std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() == Ok("1") {
        assert!(cdls.len() > 50, "conformance CDLs missing");
    }
    let dir = tempfile::tempdir().unwrap();
    let modes: &[&[&str]] = &[&[], &["-b", "c"], &["-x"], &["-t"], &["-s"], &["-l", "33"]];
    let mut diffs = Vec::new();
    let mut compared = 0;
    for cdl in &cdls {
        let stem = cdl.file_stem().unwrap().to_string_lossy().into_owned();
        // bigf1/2 and bigr1/2 are gigabytes of fill values (and bigf3/bigr3 more).
        if stem.starts_with("bigf") || stem.starts_with("bigr") {
            continue;
        }
        for kind in ["nc3", "nc5"] {
            let nc = format!("{stem}.{kind}.nc");
            let made = Command::new("/usr/bin/ncgen")
                .current_dir(dir.path())
                .args(["-k", kind, "-o", &nc])
                .arg(cdl)
                .output()
                .is_ok_and(|o| o.status.success());
            let small = std::fs::metadata(dir.path().join(&nc)).is_ok_and(|m| m.len() < 2 << 20);
            if made && small {
                for m in modes {
                    let mut args = strings(m);
                    args.push(nc.clone());
                    compared += 1;
                    diffs.extend(compare(dir.path(), &args));
                }
            }
            // Each file goes as soon as it is compared: other tests of this binary run beside
            // this one and need the disk too.
            let _ = std::fs::remove_file(dir.path().join(&nc));
        }
    }
    eprintln!("{compared} dumps compared");
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

/// `-t`/`-i` over odd time units and calendars (`time_units.cdl`, made into a classic file by the
/// reference ncgen): the dates and the `CDMS error:` lines on standard error must match.
#[test]
fn odd_time_units_match_reference() {
    if !reference() || !Path::new("/usr/bin/ncgen").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ok = Command::new("/usr/bin/ncgen")
        .current_dir(dir.path())
        .args(["-o", "time_units.nc"])
        .arg(fixture_dir().join("time_units.cdl"))
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "ncgen time_units.cdl");
    let mut diffs = Vec::new();
    for m in [&["-t"][..], &["-i"], &["-t", "-l", "40", "-v", "v3,v40"]] {
        let mut args = strings(m);
        args.push("time_units.nc".into());
        diffs.extend(compare(dir.path(), &args));
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

/// Every file under `root` whose first four bytes are a classic magic number.
fn classic_files(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            classic_files(&p, out);
        } else if let Ok(mut f) = std::fs::File::open(&p) {
            use std::io::Read;
            let mut m = [0u8; 4];
            if f.read_exact(&mut m).is_ok() && &m[..3] == b"CDF" && matches!(m[3], 1 | 2 | 5) {
                out.push(p);
            }
        }
    }
}

#[test]
fn netcdf_c_classic_test_files_match_reference() {
    if !reference() {
        return;
    }
    let Some(root) = support::netcdf_c_data() else {
        return;
    };
    let mut files = Vec::new();
    classic_files(&root, &mut files);
    if std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() == Ok("1") {
        assert!(files.len() >= 8, "conformance data missing");
    }
    let modes: &[&[&str]] = &[
        &[],
        &["-h"],
        &["-s"],
        &["-x"],
        &["-t"],
        &["-b", "c"],
        &["-f", "f"],
        &["-k"],
        &["-p", "4,8"],
    ];
    let mut diffs = Vec::new();
    for f in &files {
        for m in modes {
            // netcdf-c prints an uninitialised buffer for a time it cannot convert (the
            // 1e20 fill value of a time attribute here): not reproducible.
            if m == &["-t"] && f.ends_with("ref_null_byte_padding_test.nc") {
                continue;
            }
            let dir = f.parent().unwrap();
            let mut args = strings(m);
            args.push(f.file_name().unwrap().to_string_lossy().into_owned());
            diffs.extend(compare(dir, &args));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}

/// The committed malformed corpus, plus netcdf-c's own `bad_cdf5_begin.nc`: same output, exit
/// status and messages (netcdf-c's outcome for huge lengths depends on whether its allocations
/// succeed, which purecdf predicts from the machine's memory).
#[test]
fn malformed_classic_files_fail_like_reference() {
    if !reference() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf/tests/data/bad");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut names: Vec<String> = rd
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".nc"))
        .collect();
    names.sort();
    let mut files: Vec<(PathBuf, String)> = names.into_iter().map(|n| (dir.clone(), n)).collect();
    if let Some(nc_test) = support::netcdf_c_data().map(|d| d.join("nc_test")) {
        assert!(
            nc_test.join("bad_cdf5_begin.nc").is_file(),
            "{}/bad_cdf5_begin.nc missing",
            nc_test.display()
        );
        files.push((nc_test, "bad_cdf5_begin.nc".to_string()));
    }
    let mut diffs = Vec::new();
    for (dir, n) in files {
        let ours_run = run(&ours(), &dir, std::slice::from_ref(&n));
        let refr = run(Path::new(REFERENCE), &dir, std::slice::from_ref(&n));
        if refr.code.is_none() {
            // The reference crashed (a signal); we must fail cleanly instead.
            assert_eq!(ours_run.code, Some(1), "{n}: {}", ours_run.stderr);
            continue;
        }
        // Messages are netcdf-c's (purecdf's reader keeps its own, richer error for library
        // users; the tool prints what netcdf-c's header reader reports for the damage).
        if ours_run.stdout != refr.stdout
            || ours_run.code != refr.code
            || ours_run.stderr != refr.stderr
        {
            diffs.push(format!(
                "{n}: exit {:?} vs {:?}, stderr {:?} vs {:?}",
                ours_run.code, refr.code, ours_run.stderr, refr.stderr
            ));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n\n"));
}
