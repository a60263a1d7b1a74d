//! Golden tests for `ncdump`: every fixture in `tests/data/ncdump/` dumped in every option mode
//! must equal the output netcdf-c 4.9.0's `ncdump` gave (committed as `<fixture>.<mode>.cdl`).
//!
//! `UPDATE_GOLDEN=1` with the reference tools installed rebuilds the `.nc` fixtures from their
//! CDL with `/usr/bin/ncgen` and rewrites the goldens from `/usr/bin/ncdump`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Fixture name, `ncgen -k` kind, and the `-v` list used for the `v` mode. The `nc4` ones need
/// the netCDF-4 reader: while `purecdf::open` reports NC_ENOTBUILT for them they are skipped.
const FIXTURES: &[(&str, &str, &str)] = &[
    ("classic_types", "nc3", "c,rec,a b:c"),
    ("cdf5_types", "nc5", "u64,cube"),
    ("offset64_records", "nc6", "temp,label"),
    ("times", "nc3", "time,time_bnds"),
    ("times_bounds", "nc3", "tb,z"),
    ("nc4_groups", "nc4", "cm,sub/x,/sub/deeper/z"),
    ("nc4_unlimited", "nc4", "fu,st"),
    ("nc7_types", "nc7", "c,rec,a b:c"),
    ("nc4_compound", "nc4", "r,pf"),
];

/// Option modes: slug and arguments (`{V}` is replaced by the fixture's `-v` list).
const MODES: &[(&str, &[&str])] = &[
    ("plain", &[]),
    ("h", &["-h"]),
    ("c", &["-c"]),
    ("v", &["-v", "{V}"]),
    ("b_c", &["-b", "c"]),
    ("b_f", &["-bf"]),
    ("f_c", &["-f", "c"]),
    ("f_f", &["-f", "F"]),
    ("l30", &["-l", "30"]),
    ("l10", &["-l10"]),
    ("p", &["-p", "3,5"]),
    ("p_float", &["-p", "4"]),
    ("d", &["-d", "4,6"]),
    ("t", &["-t"]),
    ("i", &["-i"]),
    ("s", &["-s"]),
    ("k", &["-k"]),
    ("kx", &["-K"]),
    ("x", &["-x"]),
    ("xh", &["-x", "-h"]),
    ("n", &["-n", "other name"]),
    ("cbf", &["-c", "-b", "c", "-f", "c", "-l", "40"]),
];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ncdump")
}

/// The arguments of a mode for a fixture.
fn mode_args(args: &[&str], vlist: &str) -> Vec<String> {
    args.iter()
        .map(|a| {
            if *a == "{V}" {
                vlist.to_string()
            } else {
                a.to_string()
            }
        })
        .collect()
}

/// Runs an ncdump binary in the fixture directory on `file` (a relative name, so that names and
/// NcML locations don't depend on where the repository is).
fn run(bin: &Path, args: &[String], file: &str) -> (Vec<u8>, Vec<u8>, i32) {
    let out = Command::new(bin)
        .current_dir(data_dir())
        .args(args)
        .arg(file)
        .output()
        .expect("run ncdump");
    (out.stdout, out.stderr, out.status.code().unwrap_or(-1))
}

fn ours() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ncdump"))
}

fn reference_available() -> bool {
    Path::new("/usr/bin/ncdump").exists() && Path::new("/usr/bin/ncgen").exists()
}

fn regenerate() {
    let dir = data_dir();
    for (name, kind, vlist) in FIXTURES {
        let st = Command::new("/usr/bin/ncgen")
            .current_dir(&dir)
            .args([
                "-k",
                kind,
                "-o",
                &format!("{name}.nc"),
                &format!("{name}.cdl"),
            ])
            .status()
            .expect("ncgen");
        assert!(st.success(), "ncgen {name}");
        for (slug, args) in MODES {
            let args = mode_args(args, vlist);
            let (stdout, _, code) = run(Path::new("/usr/bin/ncdump"), &args, &format!("{name}.nc"));
            std::fs::write(dir.join(format!("{name}.{slug}.out")), &stdout).unwrap();
            let rc = dir.join(format!("{name}.{slug}.rc"));
            if code != 0 {
                std::fs::write(&rc, format!("{code}\n")).unwrap();
            } else if rc.exists() {
                std::fs::remove_file(&rc).unwrap();
            }
        }
    }
}

#[test]
fn goldens() {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        assert!(
            reference_available(),
            "UPDATE_GOLDEN needs /usr/bin/ncgen and ncdump"
        );
        regenerate();
    }
    let dir = data_dir();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, kind, vlist) in FIXTURES {
        for (slug, args) in MODES {
            let args = mode_args(args, vlist);
            let golden = std::fs::read(dir.join(format!("{name}.{slug}.out")))
                .unwrap_or_else(|e| panic!("golden {name}.{slug}.out: {e}"));
            let want_rc: i32 = std::fs::read_to_string(dir.join(format!("{name}.{slug}.rc")))
                .map(|s| s.trim().parse().unwrap())
                .unwrap_or(0);
            let (stdout, stderr, code) = run(&ours(), &args, &format!("{name}.nc"));
            if (kind.starts_with("nc4") || kind.starts_with("nc7"))
                && String::from_utf8_lossy(&stderr).contains("was not turned on")
            {
                eprintln!("skipping {name} {args:?}: netCDF-4 reading not built");
                continue;
            }
            checked += 1;
            if stdout != golden || code != want_rc {
                failures.push(format!(
                    "{name} {args:?}: exit {code} (want {want_rc}), stderr {}\n--- ours\n{}\n--- golden\n{}",
                    String::from_utf8_lossy(&stderr),
                    String::from_utf8_lossy(&stdout),
                    String::from_utf8_lossy(&golden)
                ));
            }
        }
    }
    assert!(checked >= 80, "only {checked} cases checked");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn usage_without_arguments() {
    let out = Command::new(ours()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("[-c|-h] [-v ...] [[-b|-f] [c|f]] [-l len]"),
        "{err}"
    );
    assert!(err.ends_with("netcdf library version 4.9.0 of Aug  7 2022 23:41:41 $\n"));
}

#[test]
fn command_line_errors() {
    let cases: &[(&[&str], &str, i32)] = &[
        (
            &["-l", "5", "x.nc"],
            "unreasonably small line length specified: 5\n",
            1,
        ),
        (&["-b", "z", "x.nc"], "invalid value for -b option: z\n", 1),
        (
            &["-p", "0", "x.nc"],
            "unreasonable value for float significant digits: 0\n",
            1,
        ),
        (
            &["-p", "3,x", "x.nc"],
            "unreasonable value for double significant digits: 0\n",
            1,
        ),
        (&["-Xz", "x.nc"], "invalid value for -X option: z\n", 1),
        (&["nosuch.nc"], "nosuch.nc: No such file or directory\n", 1),
        (&["-v", "nope", "times.nc"], "nope: No such variable\n", 1),
        (
            &["times.cdl"],
            "times.cdl: NetCDF: Unknown file format\n",
            1,
        ),
    ];
    for (args, msg, rc) in cases {
        let out = Command::new(ours())
            .current_dir(data_dir())
            .args(*args)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        let tail = err.split_once(": ").map(|x| x.1).unwrap_or("");
        assert_eq!(tail, *msg, "{args:?}");
        assert_eq!(out.status.code(), Some(*rc), "{args:?}");
    }
    // -g on a classic file: silent failure.
    let out = Command::new(ours())
        .current_dir(data_dir())
        .args(["-g", "g", "times.nc"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    // getopt's own messages, then the usage.
    let out = Command::new(ours()).args(["-Q", "x.nc"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(": invalid option -- 'Q'\n"), "{err}");
    assert_eq!(out.status.code(), Some(1));
    let out = Command::new(ours()).args(["x.nc", "-l"]).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(": option requires an argument -- 'l'\n"),
        "{err}"
    );
    // Two files: usage.
    let out = Command::new(ours())
        .args(["a.nc", "b.nc"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn options_after_the_file_are_permuted() {
    let (a, _, ca) = run(&ours(), &["-h".into()], "times.nc");
    let out = Command::new(ours())
        .current_dir(data_dir())
        .args(["times.nc", "-h"])
        .output()
        .unwrap();
    assert_eq!(ca, 0);
    assert_eq!(out.stdout, a);
}

#[test]
fn dataset_name_from_path_as_netcdf_c() {
    use purecdf::cdl::print::name_from_path;
    assert_eq!(name_from_path("dir/x.y.nc"), "x.y");
    assert_eq!(name_from_path("x"), "x");
    assert_eq!(name_from_path("a\\b.nc"), "b");
    assert_eq!(name_from_path("dir/"), "");
    assert_eq!(name_from_path(".hidden"), "");
}
