//! netcdf-c's CDL suite written as netCDF-4 files: `tst_ncgen4.sh` runs
//! `ncdump/tst_ncgen4_diff.sh` and `tst_ncgen4_cycle.sh` with `-k3` (netCDF-4: the classic cases,
//! `NONCLASSIC3`, `TESTS4` and the expected failures) and `-k4` (netCDF-4 classic model: the
//! classic cases and `ref_tst_special_atts3`); the special-attribute cases are dumped with
//! `-h -s`. Our ncgen and ncdump must pass every case netcdf-c 4.9.0 passes; for netcdf-c's
//! expected failures our output must equal netcdf-c's own (less the `_NCProperties` line, which
//! names the library that wrote the file).
//!
//! Beyond the suite, every CDL file of the corpus that netcdf-c's ncgen can write as netCDF-4 and
//! netCDF-4 classic model is written by both ncgens, and **netcdf-c's** `ncdump -s` must print the
//! same for our file as for netcdf-c's, and h5dump must read our file.

mod support;

use std::ffi::OsStr;
use std::path::Path;

use support::*;

/// `NONCLASSIC3` of `tst_ncgen_shared.sh`.
const NONCLASSIC3: &[&str] = &[
    "test0",
    "sfc_pres_temp",
    "fills",
    "c0",
    "example_good",
    "pres_temp_4D",
    "ref_nctst",
    "ref_nctst_64bit_offset",
    "ref_ctest1_nc4",
    "ref_ctest1_nc4c",
    "ref_nctst_netcdf4",
    "ref_nctst_netcdf4_classic",
    "ref_tst_unlim2",
    "ref_tst_names",
];

/// `TESTS4` of `tst_ncgen_shared.sh`.
const TESTS4: &[&str] = &[
    "ref_dimscope",
    "ref_typescope",
    "ref_tst_string_data",
    "ref_tst_comp",
    "ref_tst_comp2",
    "ref_tst_comp3",
    "ref_tst_group_data",
    "ref_tst_opaque_data",
    "ref_tst_solar_1",
    "ref_tst_solar_2",
    "ref_tst_enum_data",
    "ref_tst_special_atts",
    "ref_tst_nans",
    "ref_solar",
    "unlimtest2",
    "ref_niltest",
    "ref_tst_h_scalar",
    "ref_tst_nul4",
    "ref_tst_econst",
    "ref_tst_econst2",
    "ref_tst_vlen_data2",
];

/// `XFAILTESTS`: netcdf-c 4.9.0 does not reproduce their expected dumps.
const XFAILTESTS: &[&str] = &["ref_tst_unlim2", "ref_const_test", "ref_tst_chardata"];
/// `SPECIALTESTS`: dumped with `-h -s`; also expected failures (their expected dumps predate
/// `_NCProperties`, `_SuperblockVersion` and `_IsNetcdf4`).
const SPECIALTESTS: &[&str] = &["ref_tst_special_atts3", "ref_tst_special_atts"];
/// `BIGTESTS` (cycle test only).
const BIGTESTS: &[&str] = &["bigf1", "bigf2", "bigr1", "bigr2", "ref_tst_solar_1"];
/// `NOCYCLE`.
const NOCYCLE: &[&str] = &["ref_tst_econst"];

fn flags_for(name: &str) -> &'static [&'static str] {
    if SPECIALTESTS.contains(&name) {
        &["-h", "-s"]
    } else {
        &[]
    }
}

/// The diff set of `tst_ncgen4_diff.sh` for a `-k` flag (3 or 4).
fn diff_set(kflag: u8) -> Vec<&'static str> {
    if kflag == 4 {
        CLASSIC3.iter().chain(&SPECIALTESTS[..1]).copied().collect()
    } else {
        CLASSIC3
            .iter()
            .chain(NONCLASSIC3)
            .chain(TESTS4)
            .chain(XFAILTESTS)
            .chain(SPECIALTESTS)
            .copied()
            .collect()
    }
}

/// The cycle set of `tst_ncgen4_cycle.sh` (expected failures and `NOCYCLE` left out).
fn cycle_set(kflag: u8) -> Vec<&'static str> {
    let all: Vec<&str> = if kflag == 4 {
        CLASSIC3
            .iter()
            .chain(&BIGTESTS[..4])
            .chain(&SPECIALTESTS[..1])
            .copied()
            .collect()
    } else {
        CLASSIC3
            .iter()
            .chain(NONCLASSIC3)
            .chain(TESTS4)
            .chain(BIGTESTS)
            .chain(SPECIALTESTS)
            .copied()
            .collect()
    };
    all.into_iter()
        .filter(|c| !XFAILTESTS.contains(c) && !NOCYCLE.contains(c))
        .collect()
}

/// Drops `_NCProperties` lines (they name the writing library).
fn without_properties(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for line in text.split_inclusive(|&b| b == b'\n') {
        if !line.windows(13).any(|w| w == b"_NCProperties") {
            out.extend_from_slice(line);
        }
    }
    out
}

fn diff_suite(kflag: u8) {
    let Some(data) = netcdf_c_data() else { return };
    let kind = if kflag == 4 { "nc7" } else { "nc4" };
    let title = format!("CDL suite -k{kflag} (ours)");
    let have_reference = Path::new(REF_NCGEN).is_file() && Path::new(REF_NCDUMP).is_file();
    let expected_failures: Vec<&str> = XFAILTESTS.iter().chain(SPECIALTESTS).copied().collect();
    let xfail: &[&str] = if have_reference {
        &[]
    } else {
        &expected_failures
    };
    let failures = run_suite(&title, &diff_set(kflag), xfail, |name, work| {
        let flags = flags_for(name);
        if expected_failures.contains(&name) && have_reference {
            let cdl = data.join("ncdump/cdl").join(format!("{name}.cdl"));
            let theirs = generate_and_dump(REFERENCE, kind, flags, name, &cdl, work);
            let ours = generate_and_dump(OURS, kind, flags, name, &cdl, work);
            match (theirs, ours) {
                (Ok(t), Ok(o)) if without_properties(&t) == without_properties(&o) => Outcome::Pass,
                (Ok(t), Ok(o)) => Outcome::Fail(match diff_bw(&t, &o) {
                    Err(d) => format!("differs from netcdf-c 4.9.0's own output: {d}"),
                    Ok(()) => "differs from netcdf-c's output in white space".into(),
                }),
                (Err(e), _) => Outcome::Fail(format!("netcdf-c: {e}")),
                (_, Err(e)) => Outcome::Fail(e),
            }
        } else {
            diff_case(OURS, kind, flags, &data, name, work)
        }
    });
    assert_no_failures(&title, &failures);
}

#[test]
fn cdl_suite_netcdf4() {
    diff_suite(3);
}

#[test]
fn cdl_suite_netcdf4_classic() {
    diff_suite(4);
}

fn cycle_suite(kflag: u8) {
    let Some(data) = netcdf_c_data() else { return };
    let kind = if kflag == 4 { "nc7" } else { "nc4" };
    let title = format!("CDL cycle -k{kflag} (ours)");
    let failures = run_suite(&title, &cycle_set(kflag), &[], |name, work| {
        cycle_case(OURS, kind, &data, name, work)
    });
    assert_no_failures(&title, &failures);
}

#[test]
fn cdl_cycle_netcdf4() {
    cycle_suite(3);
}

#[test]
fn cdl_cycle_netcdf4_classic() {
    cycle_suite(4);
}

/// Cases whose data netcdf-c prints from uninitialised memory: compared by header (`-h -s`).
const GARBAGE_DATA: &[&str] = &[
    "ref_tst_ncf213",
    "ref_tst_special_atts",
    "ref_tst_special_atts3",
];

/// Every CDL of the corpus, written by both ncgens; netcdf-c's `ncdump -s` must print the same
/// for both files (less `_NCProperties` and the name line) and h5dump must read ours.
fn reference_reads_ours(kind: &str) {
    let Some(data) = netcdf_c_data() else { return };
    let Some(()) = reference_tools() else { return };
    let have_h5dump = Path::new("/usr/bin/h5dump").is_file();
    if !have_h5dump && unavailable::<()>("/usr/bin/h5dump").is_none() {
        return;
    }
    let mut cdls = Vec::new();
    for dir in ["ncdump/cdl", "ncdump"] {
        if let Ok(rd) = std::fs::read_dir(data.join(dir)) {
            cdls.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "cdl")),
            );
        }
    }
    cdls.sort();
    let work = tempfile::tempdir().expect("temporary directory");
    let (mut pass, mut skipped, mut failures) = (0, 0, Vec::new());
    for cdl in &cdls {
        let name = cdl
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if name.starts_with("bigf") || name.starts_with("bigr") {
            continue; // dumps of several GB
        }
        let theirs_nc = work.path().join("theirs.nc");
        let ours_nc = work.path().join("ours.nc");
        let gen = |tool: &str, out: &Path| {
            run(
                tool,
                [
                    OsStr::new("-k"),
                    OsStr::new(kind),
                    OsStr::new("-o"),
                    out.as_os_str(),
                    cdl.as_os_str(),
                ],
                work.path(),
            )
        };
        let _ = std::fs::remove_file(&theirs_nc);
        let _ = std::fs::remove_file(&ours_nc);
        let label = format!("{name} -k {kind}");
        let theirs = gen(REF_NCGEN, &theirs_nc);
        let ours = gen(OURS.ncgen, &ours_nc);
        if !theirs.success || !theirs_nc.exists() {
            // netcdf-c refuses the CDL (exit status 1, or 0 and no file): so must we.
            let same = ours.success == theirs.success && ours_nc.exists() == theirs_nc.exists();
            if !same {
                let why = format!(
                    "netcdf-c refuses (status {:?}, file {}), we give status {:?}, file {}",
                    theirs.code,
                    theirs_nc.exists(),
                    ours.code,
                    ours_nc.exists()
                );
                println!("FAIL  {label}: {why}");
                failures.push(format!("{label}: {why}"));
            }
            skipped += 1;
            continue;
        }
        if !ours.success {
            println!("FAIL  {label}: {}", ours.failure("our ncgen"));
            failures.push(format!("{label}: {}", ours.failure("our ncgen")));
            continue;
        }
        let flags: &[&str] = if GARBAGE_DATA.contains(&name.as_str()) {
            &["-h", "-s"]
        } else {
            &["-s"]
        };
        let dump = |nc: &Path| {
            let args = flags.iter().map(OsStr::new).chain([
                OsStr::new("-n"),
                OsStr::new("x"),
                nc.as_os_str(),
            ]);
            run(REF_NCDUMP, args, work.path())
        };
        let (t, o) = (dump(&theirs_nc), dump(&ours_nc));
        let verdict = if !o.success {
            Some(o.failure("netcdf-c's ncdump on our file"))
        } else if without_properties(&t.stdout) != without_properties(&o.stdout) {
            Some(
                match diff_bw(
                    &without_properties(&t.stdout),
                    &without_properties(&o.stdout),
                ) {
                    Err(d) => d,
                    Ok(()) => "differs in white space".into(),
                },
            )
        } else if have_h5dump {
            let h = run("/usr/bin/h5dump", [ours_nc.as_os_str()], work.path());
            (!h.success).then(|| h.failure("h5dump"))
        } else {
            None
        };
        match verdict {
            None => {
                pass += 1;
                println!("PASS  {label}");
            }
            Some(why) => {
                println!("FAIL  {label}: {why}");
                failures.push(format!("{label}: {why}"));
            }
        }
    }
    println!(
        "netcdf-c reads our -k {kind} files: {pass} passed, {} failed, {skipped} CDLs netcdf-c's ncgen refuses",
        failures.len()
    );
    assert!(pass >= 60, "only {pass} cases ran");
    assert_no_failures(&format!("netcdf-c reads our -k {kind} files"), &failures);
}

#[test]
fn netcdf_c_reads_our_netcdf4_files() {
    reference_reads_ours("nc4");
}

#[test]
fn netcdf_c_reads_our_netcdf4_classic_files() {
    reference_reads_ours("nc7");
}
