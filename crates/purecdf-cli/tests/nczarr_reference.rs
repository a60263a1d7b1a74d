//! NCZarr through our `ncdump`, against netcdf-c's own output (issue 10).
//!
//! * `nc490_stores_dump_as_netcdf_c_4_9_0_does`: every store in
//!   `crates/purecdf/tests/data/nczarr/nc490/`, written by netcdf-c 4.9.0's `ncgen` from
//!   `nczarr/cdl/*.cdl` (`nczarr/make_nc490.sh`), dumped plain, with `-s` and with `-h`, once
//!   through the `file://<abs>#mode=<mode>,file` URL it was written with and once as a plain
//!   directory path; each output must equal 4.9.0's committed `nc490/expected/<store>[.s|.h].cdl`
//!   byte for byte. 4.9.0 names the dataset after the last path component up to its last dot, for
//!   URLs and paths alike; it cannot open a plain directory path at all, so the path form expects
//!   the URL form's output. Where 4.9.0 could not read a store it wrote
//!   (`expected/<store>.fails`, e.g. `types_zarr.zarr`: NC_ERANGE on its own attributes), there is
//!   nothing to compare and the store is listed as such.
//!
//! * `netcdf_c_nczarr_test_stores_dump_as_expected`: netcdf-c's NCZarr test data in
//!   `../shared/conformance/netcdf-c/nczarr_test`, which stores go with which expected output and
//!   how netcdf-c's scripts (netcdf-c `nczarr_test/run_*.sh`, commit 2ed1b285) run ncdump on them:
//!
//!   | store                                 | expected                         | netcdf-c's invocation |
//!   |---------------------------------------|----------------------------------|-----------------------|
//!   | `ref_byte.zarr.zip` (unzipped)        | `ref_byte.cdl`                   | run_nczarr_fill.sh testcase2062: `ncdump -s "file://ref_byte.zarr#mode=zarr,file"`, `sclean`, `diff -wb` |
//!   | `ref_byte_fill_value_null.zarr.zip` (unzipped) | `ref_byte_fill_value_null.cdl` | run_nczarr_fill.sh testcase2063: the same |
//!   | `ref_oldkeys.file.zip` (unzipped)     | `ref_oldkeys.cdl`                | run_oldkeys.sh: `ncdump "file://ref_oldkeys.file#mode=nczarr,file"`, `diff -b` (and `ref_oldkeys.zmap` from `zmapio -t int`) |
//!   | `ref_power_901_constants_orig.zip` (unzipped, renamed `ref_power_901_constants.file`) | `ref_power_901_constants.cdl` | run_interop.sh testcasefile: `ncdump -h "file://…/ref_power_901_constants.file#mode=zarr,file"`, `diff -b` |
//!   | `ref_quotes_orig.zip` (as a zip)      | `ref_quotes.cdl`                 | run_interop.sh testcasezip: `ncdump -h "file://ref_quotes.zip#mode=zarr,zip"`, `diff -b` |
//!   | `ref_oldformat.zip` (as a zip)        | `ref_oldformat.cdl`              | run_newformat.sh testcaseold: `ncdump -n ref_oldformat "file://ref_oldformat.zip#mode=nczarr,zip"`, `diff -w` |
//!   | `ref_data.zarr` (a directory)         | none                             | run_filter_errors.sh: renames its blosc codec and expects ncdump's "unsupported codec" message |
//!   | `ref_noshape.file.zip`                | none                             | run_corrupt.sh: `ncdump` of `#mode=zarr,file` must not fail (no shape in `.zarray`); `netcdf_c_noshape_store_dumps` |
//!   | `ref_notzarr.tar.gz`                  | none                             | run_notzarr.sh: `test_notzarr` must get NC_ENOTZARR for an empty or non-Zarr directory or zip; `netcdf_c_notzarr_stores_are_not_netcdf` |
//!
//!   `sclean` (test_nczarr.sh) deletes the lines with `:_IsNetcdf4`, `:_Endianness`,
//!   `_NCProperties` and `_SuperblockVersion`. The other `ref_*.cdl`/`.dmp`/`.txt` files there are
//!   inputs of `ncgen` (their stores are made by the scripts) or unit-test outputs.
//!
//!   These expected dumps are netcdf-c 2ed1b285's (4.10 behaviour). netcdf-c 4.9.0 itself matches
//!   only `ref_byte_fill_value_null`: it names anonymous dimensions `_zdim_<len>` (ref_byte,
//!   ref_quotes, ref_oldformat), types the JSON integer `ID = 68` as byte (`68b`,
//!   ref_power_901_constants) and does not know the lower-case `_nczarr_attr` key (ref_oldkeys
//!   shows it as an attribute).
//!
//!   The zip archives are unpacked into a scratch directory (Python's `zipfile`, as netcdf-c's
//!   scripts `unzip`) and the directory stores dumped as netcdf-c's scripts do, compared as their
//!   `diff` does; the rows whose scripts read a zip archive itself (`#mode=...,zip`, see
//!   `Case::as_zip`) dump the archive the same way.
//!   `ref_data.zarr`, for which netcdf-c has no expected dump, is compared with 4.9.0's
//!   `ncdump -h` of it (its data 4.9.0 reads wrong: without a blosc codec it returns the
//!   compressed bytes).
//!
//! The first test needs nothing but the committed files; without `../shared` or a
//! Python to unpack zips the second test skips, unless `PURECDF_REQUIRE_REFERENCE=1`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{diff_bw, run, OURS, REF_NCDUMP};

fn nc490() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../purecdf/tests/data/nczarr/nc490")
        .canonicalize()
        .unwrap()
}

/// Our ncdump with `flags` on `target`: stdout, or a description of the failure.
fn our_dump(flags: &[&str], target: &str, dir: &Path) -> Result<Vec<u8>, String> {
    let mut args: Vec<&str> = flags.to_vec();
    args.push(target);
    let out = run(OURS.ncdump, &args, dir);
    if out.success {
        Ok(out.stdout)
    } else {
        Err(format!(
            "ncdump {} failed ({:?}): {}",
            args.join(" "),
            out.code,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

#[test]
fn nc490_stores_dump_as_netcdf_c_4_9_0_does() {
    let dir = nc490();
    let mut stores: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && p.extension().is_some_and(|e| e == "zarr"))
        .collect();
    stores.sort();
    assert!(
        stores.len() >= 6,
        "{} stores in {}",
        stores.len(),
        dir.display()
    );
    let (mut failures, mut compared, mut not_read) = (Vec::new(), 0, Vec::new());
    for store in &stores {
        let name = store.file_name().unwrap().to_string_lossy().into_owned();
        let mode = if name.ends_with("_nczarr.zarr") {
            "nczarr"
        } else {
            "zarr"
        };
        let fails = dir.join("expected").join(format!("{name}.fails"));
        if fails.is_file() {
            not_read.push(format!(
                "{name}: {}",
                std::fs::read_to_string(&fails).unwrap().trim()
            ));
            continue;
        }
        let url = format!("file://{}#mode={mode},file", store.display());
        let path = store.to_string_lossy().into_owned();
        for (flags, suffix) in [(&[][..], ""), (&["-s"][..], ".s"), (&["-h"][..], ".h")] {
            let expected_file = dir.join("expected").join(format!("{name}{suffix}.cdl"));
            let mut expected = std::fs::read(&expected_file).unwrap();
            if mode == "zarr" {
                expected = as_netcdf_c_4_10_shows_pure_zarr(&expected);
            }
            for target in [&url, &path] {
                compared += 1;
                match our_dump(flags, target, &dir) {
                    Ok(out) if out == expected => {}
                    Ok(out) => failures.push(format!(
                        "ncdump {} {target}: differs from {} ({})",
                        flags.join(" "),
                        expected_file.display(),
                        diff_bw(&expected, &out)
                            .err()
                            .unwrap_or_else(|| "in white space".into())
                    )),
                    Err(e) => failures.push(e),
                }
            }
        }
    }
    println!(
        "{compared} dumps compared; not read by netcdf-c 4.9.0, so not compared:\n  {}",
        not_read.join("\n  ")
    );
    support::assert_no_failures("nc490 NCZarr stores", &failures);
}

/// One of netcdf-c's NCZarr test stores and its expected dump.
struct Case {
    /// The archive in `nczarr_test`, or the directory store itself.
    store: &'static str,
    /// The directory the archive unpacks to (netcdf-c's scripts rename one of them).
    unpacked: &'static str,
    /// What the scripts name it before dumping.
    renamed: &'static str,
    mode: &'static str,
    flags: &'static [&'static str],
    expected: &'static str,
    /// Apply test_nczarr.sh's `sclean` to our output.
    sclean: bool,
    /// For the rows netcdf-c's scripts read as a zip archive (`#mode=...,zip`): the name they
    /// copy the archive to, dumped as `file://<name>#mode=<mode>,zip` from its folder.
    as_zip: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        store: "ref_byte.zarr.zip",
        unpacked: "ref_byte.zarr",
        renamed: "ref_byte.zarr",
        mode: "zarr",
        flags: &["-s"],
        expected: "ref_byte.cdl",
        sclean: true,
        as_zip: None,
    },
    Case {
        store: "ref_byte_fill_value_null.zarr.zip",
        unpacked: "ref_byte_fill_value_null.zarr",
        renamed: "ref_byte_fill_value_null.zarr",
        mode: "zarr",
        flags: &["-s"],
        expected: "ref_byte_fill_value_null.cdl",
        sclean: true,
        as_zip: None,
    },
    Case {
        store: "ref_oldkeys.file.zip",
        unpacked: "ref_oldkeys.file",
        renamed: "ref_oldkeys.file",
        mode: "nczarr",
        flags: &[],
        expected: "ref_oldkeys.cdl",
        sclean: false,
        as_zip: None,
    },
    Case {
        store: "ref_power_901_constants_orig.zip",
        unpacked: "ref_power_901_constants",
        renamed: "ref_power_901_constants.file",
        mode: "zarr",
        flags: &["-h"],
        expected: "ref_power_901_constants.cdl",
        sclean: false,
        as_zip: None,
    },
    Case {
        store: "ref_quotes_orig.zip",
        unpacked: "ref_quotes",
        renamed: "ref_quotes",
        mode: "zarr",
        flags: &["-h"],
        expected: "ref_quotes.cdl",
        sclean: false,
        as_zip: Some("ref_quotes.zip"),
    },
    Case {
        store: "ref_oldformat.zip",
        unpacked: "ref_oldformat",
        renamed: "ref_oldformat",
        mode: "nczarr",
        flags: &["-n", "ref_oldformat"],
        expected: "ref_oldformat.cdl",
        sclean: false,
        as_zip: Some("ref_oldformat.zip"),
    },
];

/// A 4.9.0 dump of a pure Zarr store as netcdf-c 4.10 shows it, which is what we follow for
/// pure Zarr (issue 10): anonymous dimensions are `_Anonymous_Dim_<len>` (4.9.0: `_zdim_<len>`)
/// and the provenance attributes `ncdump -s` shows for NCZarr are not shown.
/// Untyped integer attributes are int, not 4.9.0's smallest type, and an untyped `_FillValue`
/// takes its variable's type: the cases in these fixtures.
fn as_netcdf_c_4_10_shows_pure_zarr(text: &[u8]) -> Vec<u8> {
    const TYPING: [(&str, &str); 3] = [
        (":version = 2b ;", ":version = 2 ;"),
        ("a:_FillValue = -1b ;", "a:_FillValue = -1s ;"),
        (":levels = 1b, 2b, 3b ;", ":levels = 1, 2, 3 ;"),
    ];
    let mut text = String::from_utf8_lossy(text).replace("_zdim_", "_Anonymous_Dim_");
    for (old, new) in TYPING {
        text = text.replace(old, new);
    }
    let hidden = [
        "\t\t:_NCProperties = ",
        "\t\t:_SuperblockVersion = ",
        "\t\t:_IsNetcdf4 = ",
    ];
    text.split_inclusive('\n')
        .filter(|l| !hidden.iter().any(|h| l.starts_with(h)))
        .collect::<String>()
        .into_bytes()
}

/// test_nczarr.sh's `sclean`.
fn sclean(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.split_inclusive(|b| *b == b'\n') {
        let l = String::from_utf8_lossy(line);
        if [
            ":_IsNetcdf4",
            ":_Endianness",
            "_NCProperties",
            "_SuperblockVersion",
        ]
        .iter()
        .any(|k| l.contains(k))
        {
            continue;
        }
        out.extend_from_slice(line);
    }
    out
}

fn unzip(python: &Path, zip: &Path, into: &Path) -> Result<(), String> {
    let out = Command::new(python)
        .args(["-m", "zipfile", "-e"])
        .arg(zip)
        .arg(into)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn netcdf_c_nczarr_test_stores_dump_as_expected() {
    let Some(data) = support::netcdf_c_data() else {
        return;
    };
    let src = data.join("nczarr_test");
    let python: PathBuf =
        std::env::var_os("PURECDF_PYTHON").map_or_else(|| "python3".into(), PathBuf::from);
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for case in CASES {
        let label = case.store.to_owned();
        let url = if let Some(name) = case.as_zip {
            std::fs::copy(src.join(case.store), work.path().join(name)).unwrap();
            format!("file://{name}#mode={},zip", case.mode)
        } else {
            if let Err(e) = unzip(&python, &src.join(case.store), work.path()) {
                if support::require_reference() {
                    failures.push(format!("{label}: cannot unpack: {e}"));
                } else {
                    eprintln!("skipping {label}: cannot unpack: {e}");
                }
                continue;
            }
            if case.renamed != case.unpacked {
                std::fs::rename(
                    work.path().join(case.unpacked),
                    work.path().join(case.renamed),
                )
                .unwrap();
            }
            format!(
                "file://{}#mode={},file",
                work.path().join(case.renamed).display(),
                case.mode
            )
        };
        let expected = std::fs::read(src.join(case.expected)).unwrap();
        match our_dump(case.flags, &url, work.path()) {
            Ok(out) => {
                let out = if case.sclean { sclean(&out) } else { out };
                if let Err(d) = diff_bw(&expected, &out) {
                    failures.push(format!("{label} vs {}: {d}", case.expected));
                }
            }
            Err(e) => failures.push(format!("{label}: {e}")),
        }
    }
    // ref_data.zarr: netcdf-c has no expected dump; 4.9.0's header, with the dimension named as
    // netcdf-c 4.10 names it (4.9.0: `_zdim_10`, 4.10: `_Anonymous_Dim_10`).
    if Path::new(REF_NCDUMP).is_file() {
        let url = format!(
            "file://{}#mode=zarr,file",
            src.join("ref_data.zarr").display()
        );
        let reference = run(REF_NCDUMP, ["-h", url.as_str()], work.path());
        let expected =
            String::from_utf8_lossy(&reference.stdout).replace("_zdim_", "_Anonymous_Dim_");
        match our_dump(&["-h"], &url, work.path()) {
            Ok(out) if out == expected.as_bytes() => {}
            Ok(out) => failures.push(format!(
                "ref_data.zarr -h: {}",
                diff_bw(expected.as_bytes(), &out)
                    .err()
                    .unwrap_or_else(|| "differs in white space".into())
            )),
            Err(e) => failures.push(format!("ref_data.zarr: {e}")),
        }
    } else {
        support::unavailable::<()>("the reference ncdump");
    }
    support::assert_no_failures("netcdf-c nczarr_test stores", &failures);
}

/// Hostile Zarr stores in a directory (a `.zgroup` and one array `v` whose `.zarray` is bad):
/// `(name, .zarray text, the detail our ncdump's second line ends with)`.
const HOSTILE: [(&str, &str, &str); 3] = [
    (
        "h_json",
        r#"{"zarr_format": 2, "shape": [4"#,
        "v/.zarray: malformed JSON: EOF while parsing a list at line 1 column 31",
    ),
    (
        "h_shape",
        r#"{"zarr_format": 2, "order": "C", "compressor": null, "filters": null, "shape": [1e18, 1e18], "chunks": [1, 1], "dtype": "<i4", "fill_value": 0}"#,
        r#"v/.zarray: "shape" holds 1e+18, not a size"#,
    ),
    (
        "h_chunks",
        r#"{"zarr_format": 2, "order": "C", "compressor": null, "filters": null, "shape": [4, 3], "chunks": [0, 3], "dtype": "<i4", "fill_value": 0}"#,
        "v/.zarray: a chunk size of 0",
    ),
];

/// Our ncdump on a hostile store, as a plain directory path and as `#mode=zarr,file` and
/// `#mode=nczarr,file` URLs: netcdf-c's line `ncdump: <target>: NetCDF: NCZarr error`, then one
/// naming the key at fault (as nccopy adds the library's error after netcdf-c's lines), exit 1.
///
/// netcdf-c 4.9.0 on the same stores: any plain directory path is "NetCDF: Unknown file format"
/// (it does not sniff directories; reading them is our extension, so the Zarr error is ours);
/// through a URL it crashes on the malformed JSON, dumps the 10^18 × 10^18 shape as valid and
/// refuses the zero chunk with the same first line as ours. The reference runs pin that.
#[test]
fn hostile_stores_are_nczarr_errors_naming_the_key() {
    let work = tempfile::tempdir().unwrap();
    let reference = Path::new(REF_NCDUMP).is_file();
    if !reference {
        support::unavailable::<()>("the reference ncdump");
    }
    let mut failures = Vec::new();
    for (name, zarray, detail) in HOSTILE {
        let root = work.path().join(format!("{name}.zarr"));
        std::fs::create_dir_all(root.join("v")).unwrap();
        std::fs::write(root.join(".zgroup"), r#"{"zarr_format": 2}"#).unwrap();
        std::fs::write(root.join("v/.zarray"), zarray).unwrap();
        let plain = root.to_string_lossy().into_owned();
        let targets = [
            plain.clone(),
            format!("file://{plain}#mode=zarr,file"),
            format!("file://{plain}#mode=nczarr,file"),
        ];
        for target in &targets {
            let out = run(OURS.ncdump, ["-h", target.as_str()], work.path());
            let want = format!(
                "ncdump: {target}: NetCDF: NCZarr error\n\
                 ncdump: NetCDF: NCZarr error [file {target}]: {detail}\n"
            );
            let got = String::from_utf8_lossy(&out.stderr);
            if got != want || out.code != Some(1) || !out.stdout.is_empty() {
                failures.push(format!(
                    "{target}: exit {:?}, stderr {got:?}, want {want:?}",
                    out.code
                ));
            }
        }
        if !reference {
            continue;
        }
        // What netcdf-c 4.9.0 does with the same store.
        let theirs = run(REF_NCDUMP, ["-h", plain.as_str()], work.path());
        let want = format!("ncdump: {plain}: NetCDF: Unknown file format\n");
        if theirs.stderr != want.as_bytes() || theirs.code != Some(1) {
            failures.push(format!(
                "netcdf-c on {plain}: {}",
                String::from_utf8_lossy(&theirs.stderr)
            ));
        }
        let url = &targets[2];
        let theirs = run(REF_NCDUMP, ["-h", url.as_str()], work.path());
        let ok = match name {
            "h_json" => !theirs.success && theirs.code != Some(1),
            "h_shape" => theirs.success && theirs.stdout.starts_with(b"netcdf h_shape {\n"),
            _ => {
                theirs.code == Some(1)
                    && theirs.stderr == format!("ncdump: {url}: NetCDF: NCZarr error\n").as_bytes()
            }
        };
        if !ok {
            failures.push(format!(
                "netcdf-c on {url}: exit {:?}, {}",
                theirs.code,
                String::from_utf8_lossy(&theirs.stderr)
            ));
        }
    }
    support::assert_no_failures("hostile Zarr stores", &failures);
}

/// Unpacks `archive` (a `.tar.gz` or `.zip` in netcdf-c's `nczarr_test`) into `into` with the
/// test Python; `None` (after reporting) when there is no data or no Python.
fn unpack_nczarr_test(archive: &str, into: &Path) -> Option<()> {
    let data = support::netcdf_c_data()?;
    let python: PathBuf =
        std::env::var_os("PURECDF_PYTHON").map_or_else(|| "python3".into(), PathBuf::from);
    let module = if archive.ends_with(".zip") {
        "zipfile"
    } else {
        "tarfile"
    };
    let out = Command::new(&python)
        .args(["-m", module, "-e"])
        .arg(data.join("nczarr_test").join(archive))
        .arg(into)
        .output();
    match out {
        Ok(o) if o.status.success() => Some(()),
        _ => support::unavailable(&format!("a Python to unpack {archive}")),
    }
}

/// netcdf-c's run_notzarr.sh: `test_notzarr` on each of `ref_notzarr.tar.gz`'s stores (an empty
/// directory, a directory holding only a text file, an empty zip, a zip of a text file) must
/// get -51 (NC_ENOTNC, which NC_ENOTZARR aliases) from `nc_open`. Our ncdump says so with
/// nc_strerror(-51) and exit 1. (netcdf-c 4.9.0, older than that test, dumps the two directories
/// as empty datasets.)
#[test]
fn netcdf_c_notzarr_stores_are_not_netcdf() {
    let work = tempfile::tempdir().unwrap();
    if unpack_nczarr_test("ref_notzarr.tar.gz", work.path()).is_none() {
        return;
    }
    let mut failures = Vec::new();
    for (name, storage) in [
        ("empty.file", "file"),
        ("notzarr.file", "file"),
        ("empty.zip", "zip"),
        ("notzarr.zip", "zip"),
    ] {
        let path = work.path().join(name);
        assert!(path.exists(), "{name} not in ref_notzarr.tar.gz");
        let url = format!("file://{}#mode=zarr,{storage}", path.display());
        let out = run(OURS.ncdump, ["-h", url.as_str()], work.path());
        let want = format!("ncdump: {url}: NetCDF: Unknown file format\n");
        if out.code != Some(1) || out.stderr != want.as_bytes() || !out.stdout.is_empty() {
            failures.push(format!(
                "{url}: exit {:?}, {}",
                out.code,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    support::assert_no_failures("ref_notzarr stores", &failures);
}

/// netcdf-c's run_corrupt.sh testnoshape1: `ncdump "file://ref_noshape.file#mode=zarr,file"`
/// must succeed (the script runs under `set -e`; it compares nothing). The array `v` has
/// `"shape": []` but `_ARRAY_DIMENSIONS: ["d0"]` (and a chunk of six ints): netcdf-c since
/// 1552d894 leaves such a variable out and dumps the rest (4.9.0 crashes), and so do we (0-d
/// arrays with no names are still read, beyond netcdf-c).
#[test]
fn netcdf_c_noshape_store_dumps() {
    let work = tempfile::tempdir().unwrap();
    if unpack_nczarr_test("ref_noshape.file.zip", work.path()).is_none() {
        return;
    }
    let url = format!(
        "file://{}#mode=zarr,file",
        work.path().join("ref_noshape.file").display()
    );
    let out = run(OURS.ncdump, [url.as_str()], work.path());
    assert!(out.success, "{}", out.failure("ncdump"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("netcdf ref_noshape {"), "{text}");
    assert!(
        !text.contains("int v") && !text.contains("d0") && !text.contains("data:"),
        "{text}"
    );
}
