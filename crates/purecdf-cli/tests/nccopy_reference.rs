//! Our `nccopy` against netcdf-c 4.9.0's `/usr/bin/nccopy`, case by case: same exit status; on
//! success the same output bytes; on failure the reference's stderr is how ours begins (we may add
//! one line of context after netcdf-c's `Location:` line).
//!
//! * every `-k` pair among classic, 64-bit offset and CDF-5 (plus same-as-input, `-3`, `-6`), with
//!   and without `-u`, `-v`, `-V` and tiny `-m` buffers, over the fixtures in
//!   `tests/data/nccopy` (see its README);
//! * the classic-format binary files in netcdf-c's test data (`../shared/conformance/netcdf-c`);
//! * every CDL file of netcdf-c's `ncdump/cdl` that the reference `ncgen -k classic` accepts,
//!   turned into a file by the reference `ncgen` and then copied;
//! * command lines that fail.
//!
//! Without `/usr/bin/nccopy` (or `../shared`, for the corpus tests) the tests skip, unless
//! `PURECDF_REQUIRE_REFERENCE=1`, when they fail.

mod support;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REF_NCCOPY: &str = "/usr/bin/nccopy";
const REF_NCGEN: &str = "/usr/bin/ncgen";
const TIMEOUT: Duration = Duration::from_secs(120);

fn require_reference() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

/// Skips (returns `None`) or, under `PURECDF_REQUIRE_REFERENCE=1`, fails.
fn unavailable<T>(what: &str) -> Option<T> {
    if require_reference() {
        panic!("{what} is required (PURECDF_REQUIRE_REFERENCE=1) but not available");
    }
    eprintln!("skipping: {what} not available");
    None
}

fn reference_tools() -> Option<()> {
    if Path::new(REF_NCCOPY).is_file() && Path::new(REF_NCGEN).is_file() {
        Some(())
    } else {
        unavailable("the reference tools (/usr/bin/nccopy, /usr/bin/ncgen)")
    }
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/nccopy")
        .join(name)
}

/// Exit status and stderr of one run (killed after [`TIMEOUT`]).
fn run(program: &str, args: &[String], dir: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(program)
        .arg0(Path::new(program).file_name().unwrap())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            if let Some(mut s) = child.stderr.take() {
                use std::io::Read;
                let _ = s.read_to_string(&mut err);
            }
            return (status.code(), err);
        }
        if t0.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return (None, format!("{program} timed out after {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Copies `input` with both tools and compares; `Err` describes the difference.
fn compare(input: &Path, opts: &[&str], work: &Path) -> Result<(), String> {
    let case = format!("nccopy {} {}", opts.join(" "), input.display());
    let mut outs = Vec::new();
    for (tool, name) in [
        (REF_NCCOPY, "ref.nc"),
        (env!("CARGO_BIN_EXE_nccopy"), "ours.nc"),
    ] {
        let out = work.join(name);
        let _ = std::fs::remove_file(&out);
        let mut args: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
        args.push(input.display().to_string());
        args.push(out.display().to_string());
        let (code, err) = run(tool, &args, work);
        // The two programs have different argv[0] paths; compare messages without them.
        // The usage text ends with the library version, which is ours, not netcdf-c's.
        let err = err.replace(tool, "nccopy");
        let err: String = err
            .lines()
            .map(|l| {
                if l.starts_with("netCDF library version") {
                    "netCDF library version (any)\n".to_string()
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        outs.push((code, err, std::fs::read(&out).ok()));
    }
    let (ref_code, ref_err, ref_bytes) = &outs[0];
    let (code, err, bytes) = &outs[1];
    if code != ref_code {
        return Err(format!(
            "{case}: exit {code:?}, reference {ref_code:?}\n ours: {err}\n reference: {ref_err}"
        ));
    }
    if *ref_code == Some(0) {
        if bytes != ref_bytes {
            let (a, b) = (
                bytes.as_deref().unwrap_or_default(),
                ref_bytes.as_deref().unwrap_or_default(),
            );
            let at = a.iter().zip(b).position(|(x, y)| x != y);
            return Err(format!(
                "{case}: {} bytes, reference {}; first difference at {at:?}",
                a.len(),
                b.len()
            ));
        }
    } else if !err.starts_with(ref_err.as_str()) {
        return Err(format!(
            "{case}: stderr differs\n ours: {err}\n reference: {ref_err}"
        ));
    }
    Ok(())
}

/// Runs every case, prints a summary and fails listing the failures.
fn check_all(title: &str, cases: &[(PathBuf, Vec<&str>)]) {
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (input, opts) in cases {
        if let Err(e) = compare(input, opts, work.path()) {
            failures.push(e);
        }
    }
    eprintln!(
        "{title}: {} of {} cases match the reference",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{title}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Output kind options: same as input and every classic-family spelling we test.
const KINDS: &[&[&str]] = &[
    &[],
    &["-k", "classic"],
    &["-k", "64-bit offset"],
    &["-k", "cdf5"],
    &["-3"],
    &["-6"],
    &["-k", "nc5"],
];

#[test]
fn fixture_matrix_matches_reference() {
    if reference_tools().is_none() {
        return;
    }
    // (fixture, a -v list, a -V list)
    let fixtures: &[(&str, &str, &str)] = &[
        ("types.nc", "i,rc,d", "sh,c,rc"),
        ("types64.nc", "time,scalar", "f,rb"),
        ("emptyrec.nc", "r", "label,fixed"),
        ("onerec.nc", "v", "fixed"),
        ("norec.nc", "grid", "flag,name"),
        ("cdf5.nc", "u64,us", "i64,plain"),
    ];
    let mut cases = Vec::new();
    for (name, vlist, vlist_def) in fixtures {
        let variants: Vec<Vec<&str>> = vec![
            vec![],
            vec!["-u"],
            vec!["-v", vlist],
            vec!["-V", vlist_def],
            vec!["-u", "-V", vlist_def],
            vec!["-m", "1"],
            vec!["-m", "10", "-u"],
            vec!["-r", "-w"],
        ];
        for kind in KINDS {
            for v in &variants {
                let mut opts = kind.to_vec();
                opts.extend(v.iter().copied());
                cases.push((fixture(name), opts));
            }
        }
    }
    check_all("fixture matrix", &cases);
}

/// Classic-format files (magic `CDF\x01`, `\x02`, `\x05`) under `dir`, sorted.
fn classic_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            classic_files(&p, found);
        } else if let Ok(mut f) = std::fs::File::open(&p) {
            use std::io::Read;
            let mut head = [0u8; 4];
            let small = e.metadata().is_ok_and(|m| m.len() < (32 << 20));
            if small
                && f.read_exact(&mut head).is_ok()
                && matches!(head, [b'C', b'D', b'F', 1 | 2 | 5])
            {
                found.push(p);
            }
        }
    }
    found.sort();
}

#[test]
fn corpus_files_copy_like_reference() {
    if reference_tools().is_none() {
        return;
    }
    let Some(data) = support::netcdf_c_data() else {
        return;
    };
    let mut files = Vec::new();
    classic_files(&data, &mut files);
    assert!(
        !files.is_empty(),
        "no classic files under {}",
        data.display()
    );
    let mut cases = Vec::new();
    for f in &files {
        for opts in [
            &[][..],
            &["-k", "classic"],
            &["-k", "nc6"],
            &["-k", "cdf5"],
            &["-u"],
            &["-m", "100"],
        ] {
            cases.push((f.clone(), opts.to_vec()));
        }
    }
    check_all("classic corpus", &cases);
}

#[test]
fn cdl_suite_copies_like_reference() {
    if reference_tools().is_none() {
        return;
    }
    let Some(data) = support::netcdf_c_data() else {
        return;
    };
    let cdl_dir = data.join("ncdump/cdl");
    let mut cdls: Vec<PathBuf> = std::fs::read_dir(&cdl_dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    cdls.retain(|p| p.extension().is_some_and(|e| e == "cdl"));
    cdls.sort();
    let gen = tempfile::tempdir().unwrap();
    let mut cases = Vec::new();
    for cdl in &cdls {
        let stem = cdl.file_stem().unwrap().to_string_lossy().into_owned();
        let nc = gen.path().join(format!("{stem}.nc"));
        let args = vec![
            "-k".to_string(),
            "classic".to_string(),
            "-o".to_string(),
            nc.display().to_string(),
            cdl.display().to_string(),
        ];
        let (code, _) = run(REF_NCGEN, &args, gen.path());
        if code != Some(0) || !nc.is_file() {
            continue; // not a classic-model CDL
        }
        for opts in [&[][..], &["-k", "nc6"], &["-k", "cdf5"], &["-u"]] {
            cases.push((nc.clone(), opts.to_vec()));
        }
    }
    assert!(!cases.is_empty(), "no classic CDL in {}", cdl_dir.display());
    check_all("CDL suite", &cases);
}

#[test]
fn failing_command_lines_match_reference() {
    if reference_tools().is_none() {
        return;
    }
    let types = fixture("types.nc");
    let cdf5 = fixture("cdf5.nc");
    let cases: Vec<(PathBuf, Vec<&str>)> = vec![
        (types.clone(), vec!["-V", "nosuch"]),
        (types.clone(), vec!["-v", "i,/i"]),
        (types.clone(), vec!["-k", "bogus"]),
        (types.clone(), vec!["-d", "-1"]),
        (types.clone(), vec!["-m", "1Q"]),
        (types.clone(), vec!["-h", "x"]),
        (types.clone(), vec!["-e", "-5"]),
        (types.clone(), vec!["-L", "0"]),
        (types.clone(), vec!["-G", "g"]),
        (types.clone(), vec!["-Q"]),
        (types.clone(), vec!["-5"]),
        (types.clone(), vec!["-3", "-c", "nodim/2"]),
        (types.clone(), vec!["-3", "-c", "x/0"]),
        (cdf5.clone(), vec!["-k", "classic"]),
        (cdf5.clone(), vec!["-6", "-V", "u64"]),
        (PathBuf::from("/nonexistent/in.nc"), vec![]),
        (fixture("README.md"), vec![]),
    ];
    check_all("failing command lines", &cases);
}

#[test]
fn chunk_specs_match_reference() {
    if reference_tools().is_none() {
        return;
    }
    let specs = [
        "x/2",
        "x/2,time/",
        "x/0x2",
        "x/08",
        "/",
        "//",
        "x/0",
        "x/abc",
        "x/2,,y/1",
        "x/2,y",
        "nodim/1",
        "sh:",
        "sh:1,2",
        "sh:1,2,",
        "sh:contiguous",
        "sh:1",
        "sh:5,5",
        "sh:-1,1",
        "sh:1,,2",
        "nosuch:1",
        "f:2,3",
    ];
    let cases: Vec<(PathBuf, Vec<&str>)> = specs
        .iter()
        .map(|spec| (fixture("types.nc"), vec!["-k", "classic", "-c", spec]))
        .collect();
    check_all("chunk specs", &cases);
}

/// Writes a CDF-1 file whose records end in a one-byte variable (three padding bytes per record)
/// and span several 4 KiB pages: `r(time, n)` floats and `rb(time)` bytes.
fn write_padded_records(path: &Path, n: usize, nrecs: usize) {
    let mut f = purecdf::create_with(path, purecdf::Format::Classic).unwrap();
    f.add_unlimited_dimension("time").unwrap();
    f.add_dimension("n", n).unwrap();
    let r = f.add_variable::<f32>("r", &["time", "n"]).unwrap().id();
    let rb = f.add_variable::<i8>("rb", &["time"]).unwrap().id();
    f.enddef().unwrap();
    for t in 0..nrecs {
        let row: Vec<f32> = (0..n).map(|j| t as f32 + j as f32 * 0.5).collect();
        let t = t as u64;
        f.put_values(r, &row, (&[t, 0][..], &[1, n as u64][..]))
            .unwrap();
        f.put_values(rb, &[t as i8], (&[t][..], &[1][..])).unwrap();
    }
    f.close().unwrap();
}

/// In no-fill mode netcdf-c never writes record padding, and its `posixio` double buffer
/// (`px_get`, "hit in upper half": only `bf_cnt` bytes are moved down, then the whole lower half
/// is counted valid) leaves stale bytes of an earlier block there once a file spans several
/// blocks; the classic writer reproduces them.
#[test]
fn multi_page_record_padding_matches_reference() {
    if reference_tools().is_none() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("padded.nc");
    write_padded_records(&input, 3000, 10);
    check_all(
        "multi-page record padding",
        &[
            (input.clone(), vec![]),
            (input.clone(), vec!["-k", "nc6"]),
            (input.clone(), vec!["-w"]),
            // Records of 12004 bytes, more than -m: netcdf-c still copies each one whole.
            (input, vec!["-m", "5000"]),
        ],
    );
}

#[test]
fn single_page_record_padding_matches_reference() {
    if reference_tools().is_none() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("padded.nc");
    write_padded_records(&input, 100, 20);
    check_all(
        "single-page record padding",
        &[
            (input.clone(), vec![]),
            (input, vec!["-k", "cdf5", "-m", "64"]),
        ],
    );
}

/// Makes `name.nc` from CDL text with the reference `ncgen -k classic`.
fn reference_ncgen(dir: &Path, name: &str, cdl: &str) -> PathBuf {
    let cdl_path = dir.join(format!("{name}.cdl"));
    std::fs::write(&cdl_path, cdl).unwrap();
    let nc = dir.join(format!("{name}.nc"));
    let args: Vec<String> = ["-k", "classic", "-o"]
        .iter()
        .map(|s| s.to_string())
        .chain([nc.display().to_string(), cdl_path.display().to_string()])
        .collect();
    let (code, err) = run(REF_NCGEN, &args, dir);
    assert_eq!(code, Some(0), "reference ncgen failed: {err}");
    nc
}

/// netcdf-c writes the header through windows of `min(header size, chunk)` bytes
/// (`ncx_put_NC`/`fault_v1hs`, chunk 8192 here), and the last window is counted whole, so a header
/// longer than one chunk can leave the file longer than its data (here 16324 bytes instead of
/// 10416: the window opened at 8132 for an attribute value that did not fit ends at 8132 + 8192);
/// with `-w` (memio, 4096-byte chunks) the windows are smaller.
#[test]
fn header_longer_than_a_chunk_matches_reference() {
    if reference_tools().is_none() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let mut cdl =
        String::from("netcdf big_header {\ndimensions:\n t = UNLIMITED ;\n s = 3 ;\nvariables:\n");
    for i in 0..70 {
        cdl += &format!(
            " char v{i}(t, s) ;\n  v{i}:long_name = \"variable number {i} with a long attribute to grow the header past a page\" ;\n"
        );
    }
    cdl += "data:\n";
    for i in 0..70 {
        cdl += &format!(" v{i} = \"abc\", \"cde\", \"fgh\" ;\n");
    }
    cdl += "}\n";
    let input = reference_ncgen(work.path(), "big_header", &cdl);
    let mut cases = vec![
        (input.clone(), vec![]),
        (input.clone(), vec!["-k", "cdf5"]),
        (input, vec!["-w"]),
    ];
    // netcdf-c's tst_nccopy3_subset.sh: with `-v` no record is written, so the file would end
    // at the first record (54684) but for the last header window (49056 + 8192 = 57248).
    if let Some(data) = support::netcdf_c_data() {
        let subset = data.join("ncdump/ref_nccopy3_subset.nc");
        cases.push((subset.clone(), vec!["-v", "lat"]));
        cases.push((subset, vec!["-v", "lat_2D_rct"]));
    }
    check_all("header longer than a chunk", &cases);
}

/// A dataset with no dimensions, variables or attributes is written by netcdf-c as 4096 bytes
/// (its first header window is `min(chunk, 4096)` when the header is minimal), not 32.
#[test]
fn empty_dataset_matches_reference() {
    if reference_tools().is_none() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let input = reference_ncgen(work.path(), "empty", "netcdf empty {\n}\n");
    check_all(
        "empty dataset",
        &[
            (input.clone(), vec![]),
            (input.clone(), vec!["-k", "cdf5"]),
            (input, vec!["-w"]),
        ],
    );
}

#[test]
fn small_edge_datasets_match_reference() {
    if reference_tools().is_none() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let dims_only = reference_ncgen(
        work.path(),
        "dims_only",
        "netcdf dims_only {\ndimensions:\n d = 3 ;\n u = UNLIMITED ;\n// global attributes:\n :a = \"x\" ;\n}\n",
    );
    let utf8 = reference_ncgen(
        work.path(),
        "utf8",
        "netcdf utf8 {\ndimensions:\n d\u{e9} = 2 ;\nvariables:\n int \u{e9}t\u{e9}(d\u{e9}) ;\n  \u{e9}t\u{e9}:n\u{f6}te = \"\u{fc}\" ;\ndata:\n \u{e9}t\u{e9} = 1, 2 ;\n}\n",
    );
    let mut cases = Vec::new();
    for opts in [&[][..], &["-k", "nc6"], &["-k", "cdf5"], &["-u"]] {
        cases.push((dims_only.clone(), opts.to_vec()));
        cases.push((utf8.clone(), opts.to_vec()));
    }
    cases.push((utf8, vec!["-V", "\u{e9}t\u{e9}"]));
    check_all("small edge datasets", &cases);
}

/// The classic cases of netcdf-c's own nccopy scripts: `tst_nccopy3_subset.sh` (`-v`/`-V` on
/// `ref_nccopy3_subset.nc`) and `tst_nccopy_w3.sh` (`-w` on a file made from `ref_nccopy_w.cdl`).
#[test]
fn netcdf_c_nccopy_scripts_match_reference() {
    if reference_tools().is_none() {
        return;
    }
    let Some(data) = support::netcdf_c_data() else {
        return;
    };
    let subset = data.join("ncdump/ref_nccopy3_subset.nc");
    let work = tempfile::tempdir().unwrap();
    let cdl = std::fs::read_to_string(data.join("ncdump/ref_nccopy_w.cdl")).unwrap();
    let w3 = reference_ncgen(work.path(), "nccopy_w3", &cdl);
    let cases: Vec<(PathBuf, Vec<&str>)> = vec![
        // `-v lat` and `-v lat_2D_rct` are in `header_longer_than_a_chunk_matches_reference`.
        (subset.clone(), vec!["-V", "lat"]),
        (subset.clone(), vec!["-V", "lat_2D_rct"]),
        (subset, vec!["-u", "-V", "lat_2D_rct,lat"]),
        (w3.clone(), vec!["-w"]),
        (w3, vec!["-w", "-k", "cdf5"]),
    ];
    check_all("netcdf-c nccopy scripts", &cases);
}
