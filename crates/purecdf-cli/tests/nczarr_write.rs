//! Stores our `ncgen` and `nccopy` write, dumped by our `ncdump` and by netcdf-c 4.9.0's (issue
//! 10): for each CDL netcdf-c 4.9.0 wrote a store of (`purecdf/tests/data/nczarr/cdl`,
//! `nc490/`), our `ncgen -4 -o file://…#mode=nczarr,file` gives a store that both `ncdump`s print
//! exactly as 4.9.0 prints its own store of the same CDL (plain, `-s`, `-h`), but for the
//! provenance line of `-s` and the digits 4.9.0 loses (`EVERY_DIGIT`). `nccopy` to NCZarr and back again gives the file it started from.
//!
//! Without `/usr/bin/ncdump` only our `ncdump` is checked (the expected text is committed),
//! unless `PURECDF_REQUIRE_REFERENCE=1`.

mod support;

use std::path::{Path, PathBuf};

use support::{run, OURS, REF_NCDUMP};

fn nczarr_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf/tests/data/nczarr")
}

/// Where our stores deliberately differ from 4.9.0's own: 4.9.0 writes numbers with `%g`,
/// losing digits (a float attribute's 3.4028235e38 becomes 3.40282e+38, the default fill value
/// 9.969209968386869e36 becomes 9.96921e+36, so 4.9.0's never-written values no longer read as
/// the fill value); we keep every digit.
const EVERY_DIGIT: [(&str, &str); 2] = [
    (
        ":att_float = 1.5f, -0.25f, 3.40282e+38f ;",
        ":att_float = 1.5f, -0.25f, 3.402823e+38f ;",
    ),
    (
        "b = 9.96921e+36, 9.96921e+36, 9.96921e+36, 9.96921e+36 ;",
        "b = _, _, _, _ ;",
    ),
];

/// The expected text with 4.9.0's provenance replaced by ours and its lost digits restored.
fn as_we_write_it(text: &[u8]) -> Vec<u8> {
    let mut t = String::from_utf8_lossy(text).replace(
        "version=2,netcdf=4.9.0,nczarr=2.0.0",
        &format!("version=2,purecdf={}", env!("CARGO_PKG_VERSION")),
    );
    for (theirs, ours) in EVERY_DIGIT {
        t = t.replace(theirs, ours);
    }
    t.into_bytes()
}

fn check(label: &str, got: &support::Output, want: &[u8], failures: &mut Vec<String>) {
    if !got.success {
        failures.push(format!(
            "{label} failed ({:?}): {}",
            got.code,
            String::from_utf8_lossy(&got.stderr).trim()
        ));
    } else if got.stdout != want {
        let d = support::diff_bw(want, &got.stdout)
            .err()
            .unwrap_or_else(|| "differs in white space".into());
        failures.push(format!("{label}: {d}"));
    }
}

#[test]
fn our_ncgen_stores_dump_as_netcdf_c_4_9_0_stores_do() {
    let data = nczarr_data();
    let work = tempfile::tempdir().unwrap();
    let live = Path::new(REF_NCDUMP).is_file();
    if !live {
        support::unavailable::<()>("the reference ncdump");
    }
    let mut cdls: Vec<PathBuf> = std::fs::read_dir(data.join("cdl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cdl"))
        .collect();
    cdls.sort();
    assert!(cdls.len() >= 3, "CDL fixtures missing");
    let mut failures = Vec::new();
    for cdl in &cdls {
        let stem = cdl.file_stem().unwrap().to_string_lossy().into_owned();
        let name = format!("{stem}_nczarr.zarr");
        let store = work.path().join(&name);
        let url = format!("file://{}#mode=nczarr,file", store.display());
        let gen = run(
            OURS.ncgen,
            ["-4", "-o", url.as_str(), &cdl.to_string_lossy()],
            work.path(),
        );
        if !gen.success {
            failures.push(format!(
                "ncgen {stem}: {}",
                String::from_utf8_lossy(&gen.stderr)
            ));
            continue;
        }
        for (flags, suffix) in [(&[][..], ""), (&["-s"][..], ".s"), (&["-h"][..], ".h")] {
            let expected = data
                .join("nc490/expected")
                .join(format!("{name}{suffix}.cdl"));
            let want = as_we_write_it(&std::fs::read(&expected).unwrap());
            let mut args: Vec<&str> = flags.to_vec();
            args.push(&url);
            check(
                &format!("our ncdump {} of our {name}", flags.join(" ")),
                &run(OURS.ncdump, &args, work.path()),
                &want,
                &mut failures,
            );
            if live {
                check(
                    &format!("netcdf-c ncdump {} of our {name}", flags.join(" ")),
                    &run(REF_NCDUMP, &args, work.path()),
                    &want,
                    &mut failures,
                );
            }
        }
    }
    support::assert_no_failures("stores written by our ncgen", &failures);
}

#[test]
fn nccopy_to_nczarr_and_back_keeps_the_data() {
    let data = nczarr_data();
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for stem in ["types", "groups"] {
        let cdl = data.join("cdl").join(format!("{stem}.cdl"));
        let nc = work.path().join(format!("{stem}.nc"));
        let gen = run(
            OURS.ncgen,
            ["-4", "-o", &nc.to_string_lossy(), &cdl.to_string_lossy()],
            work.path(),
        );
        assert!(
            gen.success,
            "ncgen {stem}: {}",
            String::from_utf8_lossy(&gen.stderr)
        );
        let store = work.path().join(format!("{stem}.zarr"));
        let url = format!("file://{}#mode=nczarr,file", store.display());
        let back = work.path().join(format!("{stem}_back.nc"));
        for (from, to) in [
            (nc.to_string_lossy().into_owned(), url.clone()),
            (url.clone(), back.to_string_lossy().into_owned()),
        ] {
            let c = run(
                env!("CARGO_BIN_EXE_nccopy"),
                [from.as_str(), to.as_str()],
                work.path(),
            );
            if !c.success {
                failures.push(format!(
                    "nccopy {from} {to}: {}",
                    String::from_utf8_lossy(&c.stderr)
                ));
            }
        }
        let a = run(OURS.ncdump, ["-n", "x", &nc.to_string_lossy()], work.path());
        let b = run(
            OURS.ncdump,
            ["-n", "x", &back.to_string_lossy()],
            work.path(),
        );
        if a.stdout != b.stdout || !a.success {
            let d = support::diff_bw(&a.stdout, &b.stdout)
                .err()
                .unwrap_or_default();
            failures.push(format!("{stem}: after NCZarr and back: {d}"));
        }
    }
    support::assert_no_failures("nccopy through NCZarr", &failures);
}

/// netcdf-c 4.9.0 has no unlimited dimensions in NCZarr (its `ncgen` refuses them) and crashed on
/// the `{"size": n, "unlimited": 1}` form that 4.10 reads: our stores give 4.9.0's keys the
/// current length, so 4.9.0 reads the dimension as fixed, and keep the object in 4.10's keys,
/// which our reader and 4.10 follow.
#[test]
fn unlimited_dimensions_read_by_netcdf_c_4_9_0_as_fixed() {
    let work = tempfile::tempdir().unwrap();
    let cdl = work.path().join("unlim.cdl");
    std::fs::write(
        &cdl,
        "netcdf unlim {\ndimensions:\n\tx = 3 ;\n\tt = UNLIMITED ;\nvariables:\n\
         \tint rec(t, x) ;\n\tfloat v(x) ;\ndata:\n\trec = 1, 2, 3, 4, 5, 6 ;\n\
         \tv = 0.5, 1.5, 2.5 ;\n}\n",
    )
    .unwrap();
    let store = work.path().join("unlim.zarr");
    let url = format!("file://{}#mode=nczarr,file", store.display());
    let gen = run(
        OURS.ncgen,
        ["-4", "-o", url.as_str(), &cdl.to_string_lossy()],
        work.path(),
    );
    assert!(gen.success, "{}", String::from_utf8_lossy(&gen.stderr));
    let ours = run(OURS.ncdump, [url.as_str()], work.path());
    assert!(ours.success, "{}", String::from_utf8_lossy(&ours.stderr));
    let text = String::from_utf8_lossy(&ours.stdout).into_owned();
    assert!(text.contains("t = UNLIMITED ; // (2 currently)"), "{text}");
    if !Path::new(REF_NCDUMP).is_file() {
        support::unavailable::<()>("the reference ncdump");
        return;
    }
    let mut failures = Vec::new();
    let want = text.replace("t = UNLIMITED ; // (2 currently)", "t = 2 ;");
    check(
        "netcdf-c ncdump of a store with an unlimited dimension",
        &run(REF_NCDUMP, [url.as_str()], work.path()),
        want.as_bytes(),
        &mut failures,
    );
    support::assert_no_failures("unlimited dimensions for netcdf-c 4.9.0", &failures);
}
