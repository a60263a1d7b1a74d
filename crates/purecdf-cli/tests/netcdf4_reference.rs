//! netCDF-4 reading against netcdf-c 4.9.0, table-driven: every row is one file and one
//! `ncdump` command line, run with our `ncdump` and with `/usr/bin/ncdump`; standard output,
//! exit status and standard error must be equal (the program name normalised; where netcdf-c
//! prints its own source location after a library error, only the first line of standard error
//! is compared). Each test prints a per-mode pass table.
//!
//! The files:
//! * every HDF5 file in `../shared/conformance/netcdf-c`, `../shared/conformance/hdf5-wild`
//!   (files of other writers) and in this repository's test data
//!   (netCDF-4, netCDF-4 classic model, plain HDF5 with phony dimensions, h5py files, and
//!   `tests/data/netcdf4_modes/filters.h5` with unusual filter pipelines and reserved
//!   attribute names);
//! * netcdf-c's CDL files (`ncdump/cdl/*.cdl`, `ncdump/*.cdl`) and ours
//!   (`tests/data/netcdf4_modes/*.cdl`: times and calendars in groups, times of non-numeric
//!   types, user types and repeated names in nested groups) made into `-k nc4` and `-k nc7`
//!   files by the reference `ncgen`. netCDF-4 classic files get the rows whose output differs
//!   from netCDF-4's (`-s`, `-x`, `-k`, `-K`, `-g`); the data layout modes would repeat the
//!   nc4 rows.
//!
//! The modes: plain, `-s`, `-F` with and without `-s`, `-h`, `-c`, `-x` (NcML, refused for
//! netCDF-4, printed for netCDF-4 classic), `-w`, `-k`, `-K`, `-t`/`-i`, `-b c|f`, `-f c|fortran`,
//! `-l`, `-p`, and the selections `-v` (plain, relative and absolute group-qualified names, lists,
//! unknown names, an NFD spelling of an NFC name) and `-g` (names, paths, lists, `/`, `//`,
//! unknown names).
//!
//! Without `../shared` or the reference tools the tests skip, unless
//! `PURECDF_REQUIRE_REFERENCE=1`, when they fail.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use purecdf::model::ROOT;

mod support;

/// Variables whose data netcdf-c 4.9.0 prints from memory it never initialised, so that its
/// output changes from run to run or with the heap's history; rows that print data leave them
/// out (with `-v` naming every other variable). (file stem, root variable)
///
/// * no-fill variables whose chunks were never written: netcdf-c returns its read buffer as
///   it found it;
/// * `plain_dtypes` `fixstr` and the fixed-length string datasets of `h5py_fixed_strings`:
///   `NC4_get_vars` reads a row of fixed-length strings into one malloc'd string and leaves the
///   other pointers of ncdump's buffer as they were (or crashes freeing them).
const GARBAGE: &[(&str, &str)] = &[
    ("f03tst_open_mem", "var2"),
    ("ref_tst_special_atts", "var4"),
    ("ref_tst_special_atts", "var5"),
    ("ref_tst_special_atts3", "var4"),
    ("ref_tst_ncf213", "var4"),
    ("ref_tst_ncf213", "var5"),
    ("plain_dtypes", "fixstr"),
    ("h5py_fixed_strings", "s3_2d"),
    ("h5py_fixed_strings", "s4_scalar"),
    ("h5py_fixed_strings", "s5"),
];

/// With `-f fortran` netcdf-c annotates a scalar with `cor[-1] + 1`: `cor` is an 8-byte
/// malloc'd array and `cor[-1]` the glibc chunk header before it, `0x21` or `0x20` as the
/// previous chunk is in use or free, which in netCDF-4 files depends on the HDF5 library's
/// earlier allocations. Those rows leave scalars out (we print the `0x21` case).
fn fortran_rows(args: &[String]) -> bool {
    args.windows(2)
        .any(|w| w[0] == "-f" && w[1].starts_with(['f', 'F']))
}

/// What a mode row needs of the file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kinds {
    /// Every file.
    All,
    /// Not netCDF-4 classic files made from CDL (their output equals the nc4 file's).
    Nc4,
    /// Those of [`Kinds::Nc4`] with groups below the root.
    Groups,
    /// Those of [`Kinds::Nc4`] with a variable whose `units` has `since`.
    Times,
}

/// Files whose reference dump is slow (a tenth of a second or more): the plain and `-s` rows only.
const SLOW: &[&str] = &["ref_hdf5_compat1"];

/// (table key, arguments, which files).
type Mode = (&'static str, &'static [&'static str], Kinds);

const SPECIAL_MODES: &[Mode] = &[
    ("plain", &[], Kinds::All),
    ("-s", &["-s"], Kinds::All),
    ("-s -F", &["-s", "-F"], Kinds::All),
    ("-F", &["-F"], Kinds::Nc4),
    ("-h -s -F", &["-h", "-s", "-F"], Kinds::All),
    ("-k", &["-k"], Kinds::All),
    ("-K", &["-K"], Kinds::All),
];

const HEADER_MODES: &[Mode] = &[
    ("-h", &["-h"], Kinds::Nc4),
    ("-c", &["-c"], Kinds::Nc4),
    ("-x", &["-x"], Kinds::All),
    ("-x -h -s", &["-x", "-h", "-s"], Kinds::All),
    ("-w", &["-w"], Kinds::Groups),
];

const TIME_MODES: &[Mode] = &[
    ("-t", &["-t"], Kinds::Nc4),
    ("-i", &["-i"], Kinds::Times),
    ("-t -s -c", &["-t", "-s", "-c"], Kinds::Times),
    ("-i -h", &["-i", "-h"], Kinds::Times),
];

const LAYOUT_MODES: &[Mode] = &[
    ("-b c", &["-b", "c"], Kinds::Nc4),
    ("-b f", &["-b", "f"], Kinds::Nc4),
    ("-f c", &["-f", "c"], Kinds::Nc4),
    ("-f fortran", &["-f", "fortran"], Kinds::Nc4),
    ("-l 10", &["-l", "10"], Kinds::Nc4),
    ("-l 40", &["-l", "40"], Kinds::Nc4),
    ("-p 3,5", &["-p", "3,5"], Kinds::Nc4),
    ("-p 12", &["-p", "12"], Kinds::Nc4),
];

const SELECTION_MODES: &[Mode] = &[
    ("-g /", &["-g", "/"], Kinds::All),
    ("-g //", &["-g", "//"], Kinds::Groups),
    ("-g unknown", &["-g", "nosuch"], Kinds::Groups),
    ("-v unknown", &["-v", "nosuch"], Kinds::Groups),
];

/// Rows added for one fixture: an NFD spelling of NFC names (netcdf-c normalises the names it
/// looks up) and selections of repeated names.
const EXTRA_ROWS: &[(&str, &[&str])] = &[
    ("groups_types", &["-v", "cafe\u{301}"]),
    ("groups_types", &["-g", "grpe\u{301}"]),
    ("groups_types", &["-g", "/grpe\u{301}"]),
    ("groups_types", &["-v", "sub/m,/g1/café"]),
    ("groups_types", &["-c", "-g", "g1"]),
    ("groups_types", &["-g", "/g1//sub/"]),
    ("groups_types", &["-g", "/g1/ sub"]),
];

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

fn shared() -> Option<PathBuf> {
    let p = std::env::var("PURECDF_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    p.join("conformance/netcdf-c").is_dir().then_some(p)
}

/// One file of the corpus.
struct Entry {
    path: PathBuf,
    /// Short name for the report.
    label: String,
    /// The file's stem, or the CDL's name.
    stem: String,
    /// A netCDF-4 classic file made from CDL.
    nc7: bool,
    /// Variables: (group path, name); the root's path is `/`.
    vars: Vec<(String, String)>,
    /// The scalars among `vars`.
    scalars: Vec<(String, String)>,
    /// Group paths below the root.
    groups: Vec<String>,
    /// Some variable has a `units` attribute with `since` in it.
    times: bool,
}

impl Entry {
    fn has(&self, kinds: Kinds) -> bool {
        let nc4 = !self.nc7;
        match kinds {
            Kinds::All => true,
            Kinds::Nc4 => nc4,
            Kinds::Groups => nc4 && !self.groups.is_empty(),
            Kinds::Times => nc4 && self.times,
        }
    }
}

fn is_hdf5(p: &Path) -> bool {
    let mut head = [0u8; 8];
    std::fs::File::open(p)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && head == *b"\x89HDF\r\n\x1a\n"
}

/// Fixtures with filters netcdf-c reads only through libhdf5 plugins that Debian does not ship
/// (zstd, bitshuffle): netcdf-c refuses their variables where purecdf reads them
/// (`purecdf-hdf5/tests/filters_interop.rs` checks their values against h5py + hdf5plugin).
const NEEDS_PLUGINS: &[&str] = &["filters_plugins.h5"];

/// Fixtures in HDF5 2.0's own format (layout message version 5, complex numbers), which the
/// HDF5 1.10 under netcdf-c 4.9.0 refuses ("NetCDF: HDF error") and purecdf reads
/// (`purecdf-hdf5/tests/hdf5_2.rs`, and the h5py oracle under libver "latest").
const NEEDS_HDF5_2: &[&str] = &["h5py_latest.h5"];

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            // Hostile inputs (read_bad, update_bad, bad) crash netcdf-c; they are
            // tested for clean errors elsewhere.
            let skip = ["target", "bad", "read_bad", "update_bad"];
            if p.file_name().is_some_and(|n| !skip.iter().any(|s| n == *s)) {
                walk(&p, out);
            }
        } else if is_hdf5(&p)
            && !NEEDS_PLUGINS
                .iter()
                .chain(NEEDS_HDF5_2)
                .any(|n| p.ends_with(n))
        {
            out.push(p);
        }
    }
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Variables and groups of a file, and whether it has time units, as our library reads them
/// (the rows only name them; the comparison is with the reference).
fn contents(path: &Path) -> Contents {
    let Ok(f) = purecdf::open(path) else {
        return Contents::default();
    };
    let s = f.schema();
    let mut c = Contents::default();
    let mut todo = vec![ROOT];
    while let Some(g) = todo.pop() {
        let path = s.group_path(g);
        if g != ROOT {
            c.groups.push(path.clone());
        }
        for &v in &s.group(g).vars {
            let var = (path.clone(), s.var(v).name.clone());
            if s.var(v).dims.is_empty() {
                c.scalars.push(var.clone());
            }
            c.vars.push(var);
        }
        todo.extend(s.group(g).groups.iter().rev());
    }
    c.times = s.vars.iter().any(|v| {
        v.att("units").is_some_and(|a| match &a.values {
            purecdf::model::Values::Char(c) => c.windows(5).any(|w| w == b"since"),
            _ => false,
        })
    });
    c
}

/// What the rows need to know of a file.
#[derive(Default)]
struct Contents {
    vars: Vec<(String, String)>,
    scalars: Vec<(String, String)>,
    groups: Vec<String>,
    times: bool,
}

fn entry(path: PathBuf, label: String, stem: String, nc7: bool) -> Entry {
    let c = contents(&path);
    Entry {
        path,
        label,
        stem,
        nc7,
        vars: c.vars,
        scalars: c.scalars,
        groups: c.groups,
        times: c.times,
    }
}

/// The corpus, built once per test binary; `None` when skipping.
fn corpus() -> Option<&'static [Entry]> {
    static CORPUS: OnceLock<Option<Vec<Entry>>> = OnceLock::new();
    CORPUS.get_or_init(build_corpus).as_deref()
}

fn build_corpus() -> Option<Vec<Entry>> {
    let have_tools = Path::new("/usr/bin/ncdump").exists() && Path::new("/usr/bin/ncgen").exists();
    let shared = match (shared(), have_tools) {
        (Some(s), true) => s,
        _ if require() => {
            panic!("PURECDF_REQUIRE_REFERENCE=1 but ../shared or the reference tools are missing")
        }
        _ => {
            eprintln!("skipped: needs ../shared and netcdf-c's tools");
            return None;
        }
    };
    let netcdf_c = shared.join("conformance/netcdf-c");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    walk(&netcdf_c, &mut files);
    // HDF5 files from other writers; VDS sources and external-link targets beside them.
    let wild = shared.join("conformance/hdf5-wild");
    walk(&wild, &mut files);
    for c in ["purecdf", "purecdf-hdf5", "purecdf-cli"] {
        walk(&repo.join(c).join("tests/data"), &mut files);
    }
    files.sort();
    let mut out: Vec<Entry> = files
        .into_iter()
        .map(|p| {
            let label = p
                .strip_prefix(&netcdf_c)
                .or_else(|_| p.strip_prefix(&wild))
                .or_else(|_| p.strip_prefix(&repo))
                .unwrap_or(&p)
                .display()
                .to_string();
            let s = stem(&p);
            entry(p, label, s, false)
        })
        .collect();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/netcdf4_modes");
    let mut cdls = Vec::new();
    for dir in [
        netcdf_c.join("ncdump/cdl"),
        netcdf_c.join("ncdump"),
        fixtures,
    ] {
        let mut here: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        here.retain(|p| p.extension().is_some_and(|x| x == "cdl"));
        here.sort();
        cdls.extend(here);
    }
    // The same text under two names is made once; the big* cases take minutes in the
    // reference tools and add nothing here.
    let mut seen = std::collections::HashSet::new();
    cdls.retain(|p| {
        !stem(p).starts_with("big") && seen.insert(std::fs::read(p).unwrap_or_default())
    });
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("netcdf4_modes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let made = Mutex::new(Vec::new());
    let jobs: Vec<(usize, &PathBuf, &str)> = cdls
        .iter()
        .enumerate()
        .flat_map(|(i, c)| [(i, c, "nc4"), (i, c, "nc7")])
        .collect();
    parallel(jobs.len(), |j| {
        let (i, cdl, kind) = jobs[j];
        let name = stem(cdl);
        let nc = dir.join(format!("{i:03}_{name}_{kind}.nc"));
        let ok = Command::new("/usr/bin/ncgen")
            .args(["-k", kind, "-o"])
            .arg(&nc)
            .arg(cdl)
            .output()
            .is_ok_and(|o| o.status.success());
        // Enhanced CDL under -k nc7 is refused by the reference too.
        if ok && nc.exists() {
            let label = format!(
                "{kind} {}",
                cdl.strip_prefix(&netcdf_c).unwrap_or(cdl).display()
            );
            let e = entry(nc, label, name, kind == "nc7");
            made.lock().unwrap().push((j, e));
        }
    });
    let mut made = made.into_inner().unwrap();
    made.sort_by_key(|(j, _)| *j);
    out.extend(made.into_iter().map(|(_, e)| e));
    assert!(
        out.len() > 150,
        "too few files in the corpus: {}",
        out.len()
    );
    Some(out)
}

/// Runs `f(0..n)` on two threads.
fn parallel(n: usize, f: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                f(i);
            });
        }
    });
}

/// One (file, command line) row.
struct Row<'a> {
    entry: &'a Entry,
    key: String,
    args: Vec<String>,
}

/// Whether `args` print any variable's data.
fn prints_data(args: &[String]) -> bool {
    !args
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "-x" | "-k" | "-K" | "-v"))
}

/// The name `-v` uses for a variable: the plain name in the root group (netcdf-c matches
/// `/name` against the root's path `/` plus `/` and never finds it), else the full path.
fn var_arg(group: &str, name: &str) -> String {
    if group == "/" {
        name.to_string()
    } else {
        format!("{group}/{name}")
    }
}

/// Variables a row must leave out of the data, as (group path, name).
fn excluded(e: &Entry, args: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = GARBAGE
        .iter()
        .filter(|(s, _)| *s == e.stem)
        .map(|(_, v)| ("/".to_string(), v.to_string()))
        .collect();
    if fortran_rows(args) {
        out.extend(e.scalars.iter().cloned());
    }
    out
}

/// `args`, narrowed with `-v` (or to `-h`) when they would print an excluded variable's data.
fn restrict(e: &Entry, mut args: Vec<String>) -> Vec<String> {
    let bad = excluded(e, &args);
    if bad.is_empty() || !prints_data(&args) {
        return args;
    }
    let keep: Vec<String> = e
        .vars
        .iter()
        .filter(|gv| !bad.contains(gv))
        .map(|(g, v)| var_arg(g, v))
        .collect();
    if keep.is_empty() {
        args.push("-h".into());
    } else {
        args.push("-v".into());
        args.push(keep.join(","));
    }
    args
}

fn mode_rows<'a>(corpus: &'a [Entry], modes: &[Mode]) -> Vec<Row<'a>> {
    let mut rows = Vec::new();
    for e in corpus {
        for (key, args, kinds) in modes {
            let slow_skip = SLOW.contains(&e.stem.as_str()) && !matches!(*key, "plain" | "-s");
            if !e.has(*kinds) || slow_skip {
                continue;
            }
            let args = args.iter().map(|a| a.to_string()).collect();
            rows.push(Row {
                entry: e,
                key: key.to_string(),
                args: restrict(e, args),
            });
        }
    }
    rows
}

/// `-v` and `-g` rows built from each file's own variables and groups.
fn selection_rows(corpus: &[Entry]) -> Vec<Row<'_>> {
    let mut rows = mode_rows(corpus, SELECTION_MODES);
    let mut push = |e, key: &str, args: Vec<String>| {
        rows.push(Row {
            entry: e,
            key: key.to_string(),
            args: restrict(e, args),
        })
    };
    for e in corpus.iter().filter(|e| !SLOW.contains(&e.stem.as_str())) {
        let garbage = excluded(e, &[]);
        let usable: Vec<&(String, String)> =
            e.vars.iter().filter(|gv| !garbage.contains(gv)).collect();
        // The first two variables of the root and the first of each of up to three groups.
        let mut picked: Vec<&(String, String)> = usable
            .iter()
            .filter(|(g, _)| g == "/")
            .take(2)
            .copied()
            .collect();
        for g in e.groups.iter().take(3) {
            picked.extend(usable.iter().find(|(vg, _)| vg == g).copied());
        }
        if e.nc7 {
            picked.truncate(1);
        }
        for (g, v) in &picked {
            push(e, "-v name", vec!["-v".into(), v.clone()]);
            if g != "/" {
                push(e, "-v path", vec!["-v".into(), format!("{g}/{v}")]);
                let rel = g.trim_start_matches('/');
                push(e, "-v rel", vec!["-v".into(), format!("{rel}/{v}")]);
            }
        }
        if picked.len() > 1 && !e.nc7 {
            let list: Vec<String> = picked.iter().map(|(g, v)| var_arg(g, v)).collect();
            push(e, "-v list", vec!["-v".into(), list.join(",")]);
        }
        for g in e.groups.iter().take(4) {
            let name = g.rsplit('/').next().unwrap_or(g);
            push(e, "-g name", vec!["-g".into(), name.to_string()]);
            push(e, "-g path", vec!["-g".into(), g.clone()]);
        }
        if e.groups.len() > 1 {
            let names: Vec<&str> = e
                .groups
                .iter()
                .map(|g| g.rsplit('/').next().unwrap_or(g))
                .collect();
            push(e, "-g list", vec!["-g".into(), names.join(",")]);
            push(
                e,
                "-g -h",
                vec!["-h".into(), "-g".into(), e.groups[1].clone()],
            );
        }
        for (s, args) in EXTRA_ROWS {
            if *s == e.stem && !e.nc7 {
                push(e, "extra", args.iter().map(|a| a.to_string()).collect());
            }
        }
    }
    rows
}

/// Runs `bin` on `file` from the file's folder (where HDF5 looks for external links' targets,
/// VDS sources and external raw data).
fn run(bin: &str, args: &[String], file: &Path) -> Output {
    let (dir, name) = (
        file.parent().unwrap_or(Path::new(".")),
        file.file_name().unwrap(),
    );
    reference_env(Command::new(bin))
        .args(args)
        .arg(name)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("running {bin}: {e}"))
}

/// The command with hdf5plugin's filter plugins on `HDF5_PLUGIN_PATH`, so that netcdf-c reads
/// the fixtures whose filters (bzip2, lz4, blosc) it reads only through libhdf5 plugins whether
/// or not Debian's `hdf5-filter-plugin` is installed (purecdf has them built in). Without the
/// Python venv the plugins are not there (a failure under `PURECDF_REQUIRE_REFERENCE=1`).
fn reference_env(mut cmd: Command) -> Command {
    static PLUGINS: OnceLock<Option<String>> = OnceLock::new();
    if let Some(dir) = PLUGINS.get_or_init(support::hdf5_plugin_path) {
        cmd.env("HDF5_PLUGIN_PATH", dir);
    }
    cmd
}

/// Standard error with the program name at line starts normalised.
fn stderr_of(o: &Output, bin: &str) -> String {
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .map(|l| {
            l.strip_prefix(bin)
                .map_or(l.to_string(), |r| format!("ncdump{r}"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Compares one row; a description of the difference, if any.
fn compare(row: &Row) -> Option<String> {
    let file = &row.entry.path;
    let ours_bin = env!("CARGO_BIN_EXE_ncdump");
    let theirs_bin = "/usr/bin/ncdump";
    let ours = run(ours_bin, &row.args, file);
    let theirs = run(theirs_bin, &row.args, file);
    let (mut ea, mut eb) = (stderr_of(&ours, ours_bin), stderr_of(&theirs, theirs_bin));
    if eb.contains("\nLocation: file") {
        ea = ea.lines().next().unwrap_or("").to_string();
        eb = eb.lines().next().unwrap_or("").to_string();
    }
    let (a, b) = (&ours.stdout, &theirs.stdout);
    if a == b && ours.status.code() == theirs.status.code() && ea == eb {
        return None;
    }
    let at = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = at.saturating_sub(100);
    let show = |v: &[u8]| {
        String::from_utf8_lossy(&v[from.min(v.len())..(at + 100).min(v.len())]).into_owned()
    };
    Some(format!(
        "{} {:?}: exit {:?} vs {:?}; stderr {ea:?} vs {eb:?}; stdout differs at byte {at}:\n  ours: {:?}\n  ref:  {:?}",
        row.entry.label,
        row.args,
        ours.status.code(),
        theirs.status.code(),
        show(a),
        show(b)
    ))
}

/// Runs the rows, prints the per-mode table and fails on any difference.
fn check(name: &str, rows: Vec<Row>, min_rows: usize) {
    let results: Mutex<Vec<(usize, Option<String>)>> = Mutex::new(Vec::new());
    parallel(rows.len(), |i| {
        let r = compare(&rows[i]);
        results.lock().unwrap().push((i, r));
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    let mut table: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failed = Vec::new();
    for (i, r) in results {
        let t = table.entry(rows[i].key.as_str()).or_default();
        match r {
            None => t.0 += 1,
            Some(d) => {
                t.1 += 1;
                failed.push(d);
            }
        }
    }
    println!("{name}: mode, passed, failed");
    for (k, (p, f)) in &table {
        println!("  {k:<12} {p:>5} {f:>5}");
    }
    let passed: usize = table.values().map(|t| t.0).sum();
    println!("{passed} passed, {} failed", failed.len());
    assert!(rows.len() >= min_rows, "too few rows ran: {}", rows.len());
    assert!(
        failed.is_empty(),
        "differences from netcdf-c's ncdump:\n{}",
        failed.join("\n")
    );
}

#[test]
fn plain_special_and_kind_modes_match_netcdf_c() {
    let Some(c) = corpus() else { return };
    check("plain/-s/-F/-k/-K", mode_rows(c, SPECIAL_MODES), 1500);
}

#[test]
fn header_coordinate_and_ncml_modes_match_netcdf_c() {
    let Some(c) = corpus() else { return };
    check("-h/-c/-x/-w", mode_rows(c, HEADER_MODES), 800);
}

#[test]
fn time_modes_match_netcdf_c() {
    let Some(c) = corpus() else { return };
    check("-t/-i", mode_rows(c, TIME_MODES), 200);
}

#[test]
fn annotation_width_and_precision_modes_match_netcdf_c() {
    let Some(c) = corpus() else { return };
    check("-b/-f/-l/-p", mode_rows(c, LAYOUT_MODES), 1200);
}

#[test]
fn variable_and_group_selections_match_netcdf_c() {
    let Some(c) = corpus() else { return };
    check("-v/-g", selection_rows(c), 900);
}

/// Fixture files of this repository whose data netcdf-c's ncdump cannot print reproducibly, so
/// only their header (`-h`) is compared: netcdf-c 4.9.0 reads a fixed-length string dataset into a
/// buffer one string long (hdf5var.c, NC4_get_vars), printing the first string then NIL, or
/// crashing on the overflow.
const HEADER_ONLY: &[&str] = &["plain_dtypes", "h5py_fixed_strings"];

/// Our `ncdump` (plain and `-s`) against netcdf-c's on every HDF5 fixture of this repository
/// (crates/purecdf-hdf5/tests/data: h5py and C-made files with n-bit, scale-offset, szip, shared
/// messages, references…; crates/purecdf/tests/data/netcdf4): same output and same exit code,
/// including where netcdf-c refuses a file.
#[test]
fn repository_hdf5_fixtures_dump_like_netcdf_c() {
    if !Path::new("/usr/bin/ncdump").is_file() {
        assert!(
            !require(),
            "/usr/bin/ncdump is required (PURECDF_REQUIRE_REFERENCE=1)"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    walk(&root.join("purecdf-hdf5/tests/data"), &mut files);
    walk(&root.join("purecdf/tests/data/netcdf4"), &mut files);
    files.sort();
    assert!(files.len() >= 15, "found {} fixtures", files.len());
    let (mut passed, mut failed) = (0, Vec::new());
    for f in &files {
        let header_only = HEADER_ONLY.contains(&stem(f).as_str());
        let runs: [&[&str]; 2] = if header_only {
            [&["-h"], &["-h", "-s"]]
        } else {
            [&[], &["-s"]]
        };
        for opts in runs {
            // Both run from the fixture's directory, where HDF5 looks for external raw data.
            let dir = f.parent().unwrap();
            let theirs = reference_env(Command::new("/usr/bin/ncdump"))
                .args(opts)
                .arg(f)
                .current_dir(dir)
                .output()
                .unwrap();
            let ours = Command::new(env!("CARGO_BIN_EXE_ncdump"))
                .args(opts)
                .arg(f)
                .current_dir(dir)
                .output()
                .unwrap();
            if theirs.stdout == ours.stdout && theirs.status.code() == ours.status.code() {
                passed += 1;
            } else {
                failed.push(format!("{} {}", f.display(), opts.join(" ")));
            }
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    assert!(
        failed.is_empty(),
        "differences from netcdf-c's ncdump:\n{}",
        failed.join("\n")
    );
}
