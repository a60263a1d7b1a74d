//! The harness shared by the conformance tests: running a tool with a time limit, comparing
//! dumps the way netcdf-c's scripts do (`sed 's/e+0/e+/g'`, `diff -b -w`), finding netcdf-c's
//! test data and the reference tools, and running a table of cases with a per-case report.

#![allow(dead_code, unreachable_pub)]

pub mod http_server;

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// netcdf-c's `CLASSIC3` list in `ncdump/tst_ncgen_shared.sh`: the cases it runs with `-k1`.
pub const CLASSIC3: &[&str] = &[
    "nc_enddef",
    "ref_tst_unicode",
    "ref_tst_utf8",
    "simple_xy",
    "small",
    "nc_sync",
    "ref_tst_small",
    "small2",
    "tst_ncml",
    "n3time",
    "ref_tst_chardata",
    "ref_tst_nul3",
    "ref_tst_long_charconst",
    "tst_chararray",
    "unlimtest1",
    "ref_keyword",
];

/// Longest any one tool run may take before it counts as a hang.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(120);

/// The reference tools (netcdf-c 4.9.0).
pub const REF_NCGEN: &str = "/usr/bin/ncgen";
pub const REF_NCDUMP: &str = "/usr/bin/ncdump";

/// Which ncgen/ncdump pair runs the suite.
#[derive(Clone, Copy)]
pub struct Tools {
    pub ncgen: &'static str,
    pub ncdump: &'static str,
}

pub const OURS: Tools = Tools {
    ncgen: env!("CARGO_BIN_EXE_ncgen"),
    ncdump: env!("CARGO_BIN_EXE_ncdump"),
};

pub const REFERENCE: Tools = Tools {
    ncgen: REF_NCGEN,
    ncdump: REF_NCDUMP,
};

pub fn require_reference() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

/// Skips (returns `None`) or, under `PURECDF_REQUIRE_REFERENCE=1`, fails.
pub fn unavailable<T>(what: &str) -> Option<T> {
    if require_reference() {
        panic!("{what} is required (PURECDF_REQUIRE_REFERENCE=1) but not available");
    }
    eprintln!("skipping: {what} not available");
    None
}

/// The shared reference material: `$PURECDF_SHARED_DIR`, by default `../shared` beside the
/// repository root.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("PURECDF_SHARED_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// netcdf-c's test data: `conformance/netcdf-c` of [`shared_dir`].
pub fn netcdf_c_data() -> Option<PathBuf> {
    conformance_data("netcdf-c", "ncdump/cdl", "netcdf-c test data")
}

/// The HDF5 files of other writers: `conformance/hdf5-wild` of [`shared_dir`].
pub fn hdf5_wild_data() -> Option<PathBuf> {
    conformance_data("hdf5-wild", "README.md", "the hdf5-wild files")
}

/// `conformance/<sub>` of [`shared_dir`] when `marker` exists inside it, else unavailable
/// (a failure under `PURECDF_REQUIRE_REFERENCE=1`) with `what` named.
fn conformance_data(sub: &str, marker: &str, what: &str) -> Option<PathBuf> {
    let dir = shared_dir().join("conformance").join(sub);
    if dir.join(marker).exists() {
        Some(dir)
    } else {
        unavailable(&format!("{what} ({})", dir.display()))
    }
}

pub fn reference_tools() -> Option<()> {
    if Path::new(REF_NCGEN).is_file() && Path::new(REF_NCDUMP).is_file() {
        Some(())
    } else {
        unavailable("the reference tools (/usr/bin/ncgen, /usr/bin/ncdump)")
    }
}

/// A Python that imports h5py, netCDF4 and numpy: `$PURECDF_PYTHON` (CI exports its venv's),
/// else `python3` from the path. Skips, or fails under `PURECDF_REQUIRE_REFERENCE=1`, without one.
pub fn python() -> Option<PathBuf> {
    let candidate = std::env::var_os("PURECDF_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("python3"));
    let ok = Command::new(&candidate)
        .args(["-c", "import h5py, netCDF4, numpy"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Some(candidate)
    } else {
        unavailable(&format!(
            "a Python with h5py, netCDF4 and numpy ({}; set PURECDF_PYTHON)",
            candidate.display()
        ))
    }
}

/// The folder of hdf5plugin's HDF5 filter plugins (bzip2, blosc, lz4, zstd, ...), for the
/// reference tools' `HDF5_PLUGIN_PATH`: set explicitly, so that a run does not depend on which
/// plugins the system's HDF5 happens to find. Skips, or fails under
/// `PURECDF_REQUIRE_REFERENCE=1`, without a Python that imports hdf5plugin.
pub fn hdf5_plugin_path() -> Option<String> {
    let python = python()?;
    let out = run_plain(
        python.to_str().expect("UTF-8 path"),
        ["-c", "import hdf5plugin; print(hdf5plugin.PLUGINS_PATH)"],
        Path::new("."),
    );
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if out.success && Path::new(&dir).is_dir() {
        Some(dir)
    } else {
        unavailable("hdf5plugin's filter plugins (pip install hdf5plugin)")
    }
}

/// The committed Python helpers of the interop tests.
pub fn python_script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(name)
}

/// Runs `dump_values.py VIEW FILES...` and splits its output by file: for each file, its lines
/// (see the script's docs for the format).
pub fn python_dump(
    python: &Path,
    view: &str,
    files: &[PathBuf],
    dir: &Path,
) -> std::collections::BTreeMap<PathBuf, Vec<String>> {
    let script = python_script("dump_values.py");
    let mut args = vec![script.into_os_string(), view.into()];
    args.extend(files.iter().map(|f| f.clone().into_os_string()));
    let out = run_plain(python.to_str().expect("UTF-8 path"), &args, dir);
    assert!(
        out.success,
        "dump_values.py {view}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("dump_values.py prints UTF-8");
    let mut map = std::collections::BTreeMap::new();
    let mut current: Option<PathBuf> = None;
    for line in text.lines() {
        if let Some(f) = line.strip_prefix("== ") {
            current = Some(PathBuf::from(f));
            map.insert(PathBuf::from(f), Vec::new());
        } else if let Some(f) = &current {
            map.get_mut(f).expect("file seen").push(line.to_string());
        }
    }
    map
}

/// What one tool run produced.
pub struct Output {
    pub success: bool,
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Output {
    /// A one-line description of a failed run, for the case report.
    pub fn failure(&self, tool: &str) -> String {
        let err = String::from_utf8_lossy(&self.stderr);
        let first = err.lines().next().unwrap_or("").trim();
        match self.code {
            Some(c) => format!("{tool} exited with {c}: {first}"),
            None => format!("{tool} was killed (signal or timeout): {first}"),
        }
    }
}

/// Runs `program args` in `dir` with a time limit; a run that overstays is killed and reported as
/// a failure rather than hanging the test.
pub fn run<I, S>(program: &str, args: I, dir: &Path) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_env(program, args, dir, &[])
}

/// As [`run`], with these environment variables set for the tool.
pub fn run_env<I, S>(program: &str, args: I, dir: &Path, env: &[(&str, &str)]) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    use std::os::unix::process::CommandExt;
    // argv[0] is the bare tool name, so messages that start with it compare equal.
    let name = Path::new(program)
        .file_name()
        .unwrap_or(OsStr::new(program));
    let mut cmd = Command::new(program);
    cmd.arg0(name);
    cmd.envs(env.iter().copied());
    run_command(cmd, program, args, dir)
}

/// As [`run`], with argv[0] the program's path as given (a venv's Python finds its packages
/// through it).
pub fn run_plain<I, S>(program: &str, args: I, dir: &Path) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_command(Command::new(program), program, args, dir)
}

fn run_command<I, S>(mut cmd: Command, program: &str, args: I, dir: &Path) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = match cmd
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            return Output {
                success: false,
                code: None,
                stdout: Vec::new(),
                stderr: format!("cannot run {program}: {e}").into_bytes(),
            }
        }
    };
    // Drain both pipes on threads so a chatty child cannot block on a full pipe.
    let mut out_pipe = child.stdout.take().expect("stdout is piped");
    let mut err_pipe = child.stderr.take().expect("stderr is piped");
    let out_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > TOOL_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let stdout = out_thread.join().unwrap_or_default();
    let mut stderr = err_thread.join().unwrap_or_default();
    if status.is_none() {
        stderr.extend_from_slice(format!("[killed after {TOOL_TIMEOUT:?}]").as_bytes());
    }
    Output {
        success: status.is_some_and(|s| s.success()),
        code: status.and_then(|s| s.code()),
        stdout,
        stderr,
    }
}

/// `sed 's/e+0/e+/g'`: netcdf-c's scripts strip a leading zero from exponents (for Windows).
pub fn strip_exponent_zero(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(b"e+0") {
            out.extend_from_slice(b"e+");
            i += 3;
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

/// The lines of `text`, as diff sees them (a final newline does not start another line).
pub fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if text.ends_with(b"\n") || text.is_empty() {
        lines.pop();
    }
    lines
}

/// Lines with every white-space byte removed: what `diff -b -w` compares.
pub fn squeezed_lines(text: &[u8]) -> Vec<Vec<u8>> {
    lines(text)
        .into_iter()
        .map(|l| {
            l.iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace() && *b != 0x0b)
                .collect()
        })
        .collect()
}

/// Compares as `diff -b -w expected actual` does; on a difference, describes the first one.
pub fn diff_bw(expected: &[u8], actual: &[u8]) -> Result<(), String> {
    let (e, a) = (squeezed_lines(expected), squeezed_lines(actual));
    let (exp_lines, act_lines) = (lines(expected), lines(actual));
    for i in 0..e.len().max(a.len()) {
        if e.get(i) != a.get(i) {
            let show = |lines: &[&[u8]]| match lines.get(i) {
                Some(l) => format!("{:?}", String::from_utf8_lossy(l)),
                None => "<end of output>".to_string(),
            };
            return Err(format!(
                "line {}: expected {} got {}",
                i + 1,
                show(&exp_lines),
                show(&act_lines)
            ));
        }
    }
    Ok(())
}

/// How one case went.
pub enum Outcome {
    Pass,
    Fail(String),
}

/// Runs every case, prints a line per case and a count, and returns the unexpected failures.
pub fn run_suite(
    title: &str,
    cases: &[&str],
    xfail: &[&str],
    mut one: impl FnMut(&str, &Path) -> Outcome,
) -> Vec<String> {
    let work = tempfile::tempdir().expect("temporary directory");
    let (mut pass, mut xfails, mut failures) = (0, 0, Vec::new());
    for &name in cases {
        let expected_to_fail = xfail.contains(&name);
        match (one(name, work.path()), expected_to_fail) {
            (Outcome::Pass, false) => {
                pass += 1;
                println!("PASS  {name}");
            }
            (Outcome::Pass, true) => {
                pass += 1;
                println!("XPASS {name} (netcdf-c itself fails this one)");
            }
            (Outcome::Fail(why), true) => {
                xfails += 1;
                println!("XFAIL {name}: {why}");
            }
            (Outcome::Fail(why), false) => {
                println!("FAIL  {name}: {why}");
                failures.push(format!("{name}: {why}"));
            }
        }
    }
    println!(
        "{title}: {pass}/{} passed, {xfails} expected failures, {} unexpected failures",
        cases.len(),
        failures.len()
    );
    failures
}

pub fn assert_no_failures(title: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{title}: {} failing cases:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// `ncgen -b -k KIND -o X.nc cdl` then `ncdump [flags] -n X X.nc`, with the exponent fix-up
/// applied.
pub fn generate_and_dump(
    tools: Tools,
    kind: &str,
    flags: &[&str],
    name: &str,
    cdl: &Path,
    work: &Path,
) -> Result<Vec<u8>, String> {
    let nc = work.join(format!("{name}.nc"));
    let _ = std::fs::remove_file(&nc);
    let gen = run(
        tools.ncgen,
        [
            OsStr::new("-b"),
            OsStr::new("-k"),
            OsStr::new(kind),
            OsStr::new("-o"),
            nc.as_os_str(),
            cdl.as_os_str(),
        ],
        work,
    );
    if !gen.success {
        return Err(gen.failure("ncgen"));
    }
    let args =
        flags
            .iter()
            .map(OsStr::new)
            .chain([OsStr::new("-n"), OsStr::new(name), nc.as_os_str()]);
    let dump = run(tools.ncdump, args, work);
    if !dump.success {
        return Err(dump.failure("ncdump"));
    }
    Ok(strip_exponent_zero(&dump.stdout))
}

/// One case of `tst_ncgen4_diff.sh` with `-k KIND` (and ncdump `flags`).
pub fn diff_case(
    tools: Tools,
    kind: &str,
    flags: &[&str],
    data: &Path,
    name: &str,
    work: &Path,
) -> Outcome {
    let cdl = data.join("ncdump/cdl").join(format!("{name}.cdl"));
    let expected_path = data.join("ncdump/expected").join(format!("{name}.dmp"));
    let expected = match std::fs::read(&expected_path) {
        Ok(e) => e,
        Err(e) => return Outcome::Fail(format!("cannot read {}: {e}", expected_path.display())),
    };
    match generate_and_dump(tools, kind, flags, name, &cdl, work) {
        Ok(dump) => match diff_bw(&expected, &dump) {
            Ok(()) => Outcome::Pass,
            Err(d) => Outcome::Fail(d),
        },
        Err(e) => Outcome::Fail(e),
    }
}

/// For netcdf-c's expected failures: our pipeline's output equals netcdf-c's, byte for byte.
pub fn same_as_reference(
    kind: &str,
    flags: &[&str],
    data: &Path,
    name: &str,
    work: &Path,
) -> Outcome {
    let cdl = data.join("ncdump/cdl").join(format!("{name}.cdl"));
    let theirs = match generate_and_dump(REFERENCE, kind, flags, name, &cdl, work) {
        Ok(d) => d,
        Err(e) => return Outcome::Fail(format!("netcdf-c: {e}")),
    };
    match generate_and_dump(OURS, kind, flags, name, &cdl, work) {
        Ok(ours) if ours == theirs => Outcome::Pass,
        Ok(ours) => Outcome::Fail(match diff_bw(&theirs, &ours) {
            Err(d) => format!("differs from netcdf-c 4.9.0's own output: {d}"),
            Ok(()) => "differs from netcdf-c 4.9.0's own output in white space".into(),
        }),
        Err(e) => Outcome::Fail(e),
    }
}

/// One case of `tst_ncgen4_cycle.sh`: the dump of the dump must equal the dump.
pub fn cycle_case(tools: Tools, kind: &str, data: &Path, name: &str, work: &Path) -> Outcome {
    let cdl = data.join("ncdump/cdl").join(format!("{name}.cdl"));
    let first = match generate_and_dump(tools, kind, &[], name, &cdl, work) {
        Ok(d) => d,
        Err(e) => return Outcome::Fail(format!("first pass: {e}")),
    };
    let dumped = work.join(format!("{name}.dmp"));
    if let Err(e) = std::fs::write(&dumped, &first) {
        return Outcome::Fail(format!("cannot write {}: {e}", dumped.display()));
    }
    match generate_and_dump(tools, kind, &[], name, &dumped, work) {
        Ok(second) => match diff_bw(&first, &second) {
            Ok(()) => Outcome::Pass,
            Err(d) => Outcome::Fail(format!("dump of the dump differs: {d}")),
        },
        Err(e) => Outcome::Fail(format!("second pass: {e}")),
    }
}

/// Every `.cdl` file below `dir`, in path order, appended to `out`.
pub fn cdl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            cdl_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cdl") {
            out.push(p);
        }
    }
}
