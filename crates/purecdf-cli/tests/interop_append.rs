//! Modifying netCDF-4 files in turns with other libraries:
//!
//! - `python_and_purecdf_take_turns`: purecdf creates a file with a record variable;
//!   netCDF4-python appends records, an attribute and a variable; purecdf (`append`) appends a
//!   record, attributes and a variable; h5py adds attributes (enough for libhdf5's dense
//!   storage), changes a value and adds a plain group and dataset; purecdf appends again;
//!   netCDF4-python appends once more. After every turn netcdf-c's `ncdump` must print exactly
//!   the expected CDL (and ours the same), and `h5dump` must read the file.
//! - `purecdf_appends_to_netcdf_c_files`: every CDL of netcdf-c's corpus written by netcdf-c's
//!   ncgen (`-k nc4` and `-k nc7`) is changed once by netcdf-c (`tests/c/nc4_append.c`) and once
//!   by purecdf in the same way (attributes, a new variable, a record of every record
//!   variable); netcdf-c's `ncdump` must print the same for both files.

mod support;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use purecdf::{Format, GroupId, NcType, Values, VarId};
use support::*;

const ROOT: GroupId = GroupId(0);

/// netcdf-c's ncdump of `path` as `-n name`, checked against ours and h5dump.
fn dump(path: &Path, name: &str) -> String {
    let dir = path.parent().unwrap();
    let args = [OsStr::new("-n"), OsStr::new(name), path.as_os_str()];
    let theirs = run(REF_NCDUMP, args, dir);
    assert!(theirs.success, "{}", theirs.failure("ncdump"));
    let ours = run(OURS.ncdump, args, dir);
    assert!(ours.success, "{}", ours.failure("our ncdump"));
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&theirs.stdout),
        "our ncdump differs from netcdf-c's on {}",
        path.display()
    );
    let h = run("/usr/bin/h5dump", [path.as_os_str()], dir);
    assert!(h.success, "{}", h.failure("h5dump"));
    String::from_utf8(theirs.stdout).unwrap()
}

/// `count` elements of a one-dimensional variable from `start`.
fn span(start: u64, count: u64) -> purecdf::Extents {
    purecdf::Extents::try_from((&[start][..], &[count][..])).expect("one extent")
}

fn python_step(py: &Path, step: &str, path: &Path) {
    let script = python_script("modify.py");
    let out = run_plain(
        py.to_str().unwrap(),
        [script.as_os_str(), OsStr::new(step), path.as_os_str()],
        path.parent().unwrap(),
    );
    assert!(
        out.success,
        "modify.py {step}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check(step: &str, got: &str, want: &str) {
    assert!(
        got == want,
        "after {step}: netcdf-c's ncdump printed\n{got}\nexpected\n{want}\n{}",
        diff_bw(want.as_bytes(), got.as_bytes())
            .err()
            .unwrap_or_default()
    );
}

/// After: purecdf creates.
const STEP1: &str = r#"netcdf turns {
dimensions:
	time = UNLIMITED ; // (2 currently)
	x = 3 ;
variables:
	double time(time) ;
		time:units = "days" ;
	float temp(time, x) ;
		temp:_FillValue = -999.f ;

// global attributes:
		:title = "turns" ;
data:

 time = 0, 1 ;

 temp =
  1, 2, 3,
  4, 5, 6 ;
}
"#;
/// After: netCDF4-python appends.
const STEP2: &str = r#"netcdf turns {
dimensions:
	time = UNLIMITED ; // (4 currently)
	x = 3 ;
variables:
	double time(time) ;
		time:units = "days" ;
	float temp(time, x) ;
		temp:_FillValue = -999.f ;
		temp:comment = "py" ;
	short extra(x) ;

// global attributes:
		:title = "turns" ;
		:history = "records 2-3 by netCDF4-python" ;
data:

 time = 0, 1, 2, 3 ;

 temp =
  1, 2, 3,
  4, 5, 6,
  7, 8, 9,
  10, 11, 12 ;

 extra = 1, 2, 3 ;
}
"#;
/// After: purecdf appends.
const STEP3: &str = r#"netcdf turns {
dimensions:
	time = UNLIMITED ; // (5 currently)
	x = 3 ;
variables:
	double time(time) ;
		time:units = "days" ;
	float temp(time, x) ;
		temp:_FillValue = -999.f ;
		temp:comment = "py" ;
		temp:valid_max = 100.f ;
	short extra(x) ;
	int count(time) ;

// global attributes:
		:title = "turns" ;
		:history = "records 2-3 by netCDF4-python" ;
		:appended = "purecdf" ;
data:

 time = 0, 1, 2, 3, 4 ;

 temp =
  1, 2, 3,
  4, 5, 6,
  7, 8, 9,
  10, 11, 12,
  13, 14, 15 ;

 extra = 1, 2, 3 ;

 count = 0, 1, 2, 3, 4 ;
}
"#;
/// After: h5py modifies.
const STEP4: &str = r#"netcdf turns {
dimensions:
	time = UNLIMITED ; // (5 currently)
	x = 3 ;
variables:
	double time(time) ;
		time:units = "days" ;
	float temp(time, x) ;
		temp:_FillValue = -999.f ;
		temp:comment = "py" ;
		temp:valid_max = 100.f ;
		temp:h5_note = 7s ;
	short extra(x) ;
	int count(time) ;

// global attributes:
		:title = "turns" ;
		:history = "records 2-3 by netCDF4-python" ;
		:appended = "purecdf" ;
		:a0 = 0 ;
		:a1 = 1 ;
		:a2 = 2 ;
		:a3 = 3 ;
		:a4 = 4 ;
		:a5 = 5 ;
		:a6 = 6 ;
		:a7 = 7 ;
		:a8 = 8 ;
		:a9 = 9 ;
data:

 time = 0, 1, 2, 3, 4 ;

 temp =
  1, 2, 3,
  4, 5, 6,
  7, 8, 9,
  10, 11, 12,
  13, 14, 15 ;

 extra = 1, 20, 3 ;

 count = 0, 1, 2, 3, 4 ;
}
"#;
/// After: purecdf appends again.
const STEP5: &str = r#"netcdf turns {
dimensions:
	time = UNLIMITED ; // (6 currently)
	x = 3 ;
variables:
	double time(time) ;
		time:units = "days" ;
	float temp(time, x) ;
		temp:_FillValue = -999.f ;
		temp:comment = "py" ;
		temp:valid_max = 100.f ;
		temp:h5_note = 7s ;
	short extra(x) ;
	int count(time) ;
	ubyte flag ;

// global attributes:
		:title = "turns" ;
		:history = "records 2-3 by netCDF4-python" ;
		:appended = "purecdf" ;
		:a0 = 0 ;
		:a1 = 1 ;
		:a2 = 2 ;
		:a3 = 3 ;
		:a4 = 4 ;
		:a5 = 5 ;
		:a6 = 6 ;
		:a7 = 7 ;
		:a8 = 8 ;
		:a9 = 9 ;
data:

 time = 0, 1, 2, 3, 4, 5 ;

 temp =
  1, 2, 3,
  4, 5, 6,
  7, 8, 9,
  10, 11, 12,
  13, 14, 15,
  _, _, _ ;

 extra = 1, 20, 3 ;

 count = 0, 1, 2, 3, 4, 5 ;

 flag = 1 ;
}
"#;
/// After: netCDF4-python appends again.
const STEP6: &str = r#"netcdf turns {
dimensions:
	time = UNLIMITED ; // (7 currently)
	x = 3 ;
variables:
	double time(time) ;
		time:units = "days" ;
	float temp(time, x) ;
		temp:_FillValue = -999.f ;
		temp:comment = "py" ;
		temp:valid_max = 100.f ;
		temp:h5_note = 7s ;
	short extra(x) ;
	int count(time) ;
	ubyte flag ;

// global attributes:
		:title = "turns" ;
		:history = "records 2-3 by netCDF4-python" ;
		:appended = "purecdf" ;
		:a0 = 0 ;
		:a1 = 1 ;
		:a2 = 2 ;
		:a3 = 3 ;
		:a4 = 4 ;
		:a5 = 5 ;
		:a6 = 6 ;
		:a7 = 7 ;
		:a8 = 8 ;
		:a9 = 9 ;
		:last = "netCDF4-python" ;
data:

 time = 0, 1, 2, 3, 4, 5, 6 ;

 temp =
  1, 2, 3,
  4, 5, 6,
  7, 8, 9,
  10, 11, 12,
  13, 14, 15,
  _, _, _,
  6, 6.5, 6.25 ;

 extra = 1, 20, 3 ;

 count = 0, 1, 2, 3, 4, 5, 106 ;

 flag = 1 ;
}
"#;
/// After: h5py adds a plain dataset, purecdf writes.
const STEP8: &str = r#"netcdf turns {
dimensions:
	time = UNLIMITED ; // (8 currently)
	x = 3 ;
variables:
	double time(time) ;
		time:units = "days" ;
	float temp(time, x) ;
		temp:_FillValue = -999.f ;
		temp:comment = "py" ;
		temp:valid_max = 100.f ;
		temp:h5_note = 7s ;
	short extra(x) ;
	int count(time) ;
	ubyte flag ;

// global attributes:
		:title = "turns" ;
		:history = "records 2-3 by netCDF4-python" ;
		:appended = "purecdf" ;
		:a0 = 0 ;
		:a1 = 1 ;
		:a2 = 2 ;
		:a3 = 3 ;
		:a4 = 4 ;
		:a5 = 5 ;
		:a6 = 6 ;
		:a7 = 7 ;
		:a8 = 8 ;
		:a9 = 9 ;
		:last = "netCDF4-python" ;
data:

 time = 0, 1, 2, 3, 4, 5, 6, 7 ;

 temp =
  1, 2, 3,
  4, 5, 6,
  7, 8, 9,
  10, 11, 12,
  13, 14, 15,
  _, _, _,
  6, 6.5, 6.25,
  _, _, _ ;

 extra = 1, 20, 3 ;

 count = 0, 1, 2, 3, 4, 5, 106, _ ;

 flag = 1 ;

group: h5grp {
  dimensions:
  	phony_dim_2 = 2 ;
  variables:
  	int plain(phony_dim_2) ;

  // group attributes:
  		:seen_by = "purecdf" ;
  data:

   plain = 5, 50 ;
  } // group h5grp
}
"#;

#[test]
fn python_and_purecdf_take_turns() {
    let Some(()) = reference_tools() else { return };
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("turns.nc");

    // 1. purecdf creates the file.
    let mut f = purecdf::create_with(&p, Format::Netcdf4).unwrap();
    f.add_unlimited_dimension("time").unwrap();
    f.add_dimension("x", 3).unwrap();
    let time = f.add_variable::<f64>("time", &["time"]).unwrap().id();
    let temp = f.add_variable::<f32>("temp", &["time", "x"]).unwrap().id();
    f.put_attribute(ROOT, Some(time), "units", "days").unwrap();
    f.put_attribute(ROOT, Some(temp), "_FillValue", Values::Float(vec![-999.0]))
        .unwrap();
    f.add_attribute("title", "turns").unwrap();
    f.enddef().unwrap();
    f.put_values(time, &[0.0, 1.0], [..2usize]).unwrap();
    f.put_values(
        temp,
        &[1f32, 2., 3., 4., 5., 6.],
        (&[0u64, 0][..], &[2u64, 3][..]),
    )
    .unwrap();
    f.close().unwrap();
    check("purecdf creates", &dump(&p, "turns"), STEP1);

    // 2. netCDF4-python appends.
    python_step(&py, "nc-records", &p);
    check("netCDF4-python appends", &dump(&p, "turns"), STEP2);

    // 3. purecdf appends a record, attributes and a variable.
    let mut f = purecdf::append(&p).unwrap();
    let time = f.variable("time").unwrap().id();
    let temp = f.variable("temp").unwrap().id();
    let n = f.dimension("time").unwrap().len;
    assert_eq!(n, 4);
    f.put_values(time, &[4.0], span(4, 1)).unwrap();
    f.put_values(temp, &[13f32, 14., 15.], (&[4u64, 0][..], &[1u64, 3][..]))
        .unwrap();
    f.add_attribute("appended", "purecdf").unwrap();
    f.redef().unwrap();
    f.put_attribute(ROOT, Some(temp), "valid_max", Values::Float(vec![100.0]))
        .unwrap();
    let count = f.add_variable::<i32>("count", &["time"]).unwrap().id();
    f.enddef().unwrap();
    f.put_values(count, &[0, 1, 2, 3, 4], [..5usize]).unwrap();
    f.close().unwrap();
    check("purecdf appends", &dump(&p, "turns"), STEP3);

    // 4. h5py modifies.
    python_step(&py, "h5-modify", &p);
    check("h5py modifies", &dump(&p, "turns"), STEP4);

    // 5. purecdf again: a record, a variable.
    let mut f = purecdf::append(&p).unwrap();
    let time = f.variable("time").unwrap().id();
    let count = f.variable("count").unwrap().id();
    f.put_values(time, &[5.0], span(5, 1)).unwrap();
    f.put_values(count, &[5], span(5, 1)).unwrap();
    f.redef().unwrap();
    let flag = f.add_variable_of_type("flag", NcType::UByte, &[]).unwrap();
    f.enddef().unwrap();
    f.put_values(flag, &[1u8], ..).unwrap();
    f.close().unwrap();
    check("purecdf appends again", &dump(&p, "turns"), STEP5);

    // 6. netCDF4-python once more.
    python_step(&py, "nc-more", &p);
    check("netCDF4-python appends again", &dump(&p, "turns"), STEP6);

    // 7. h5py adds a dataset without dimension scales (netcdf-c can no longer open the file
    //    for writing); 8. purecdf writes to it, appends a record and a group attribute.
    python_step(&py, "h5-plain", &p);
    let f = purecdf::append(&p).unwrap();
    let plain = VarId(
        f.schema()
            .vars
            .iter()
            .position(|v| v.name == "plain")
            .unwrap(),
    );
    f.put_values(plain, &[50i32], span(1, 1)).unwrap();
    let time = f.variable("time").unwrap().id();
    f.put_values(time, &[7.0], span(7, 1)).unwrap();
    let h5grp = f.schema().vars[plain.0].group;
    f.put_attribute(h5grp, None, "seen_by", "purecdf").unwrap();
    f.close().unwrap();
    check(
        "h5py adds a plain dataset, purecdf writes",
        &dump(&p, "turns"),
        STEP8,
    );
}

/// Attributes over 64 KiB (dense attribute storage): our ncgen and netcdf-c's write the same
/// CDL, netCDF4-python adds attributes to both (libhdf5 extends the dense storage), purecdf
/// appends to both; netcdf-c's `ncdump -s` must print the same for both files at every step and
/// h5dump must read ours.
#[test]
fn large_attributes_in_dense_storage() {
    let Some(()) = reference_tools() else { return };
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ints: Vec<String> = (0..20_000).map(|i| i.to_string()).collect();
    let doubles: Vec<String> = (0..17_000).map(|i| format!("{}.5", i % 100)).collect();
    let cdl = format!(
        "netcdf big {{ dimensions: n = 2 ; variables: int v(n) ; v:a1 = 1 ; v:big = {} ; \
         v:small = \"x\" ; :gbig = {} ; :g2 = \"after\" ; data: v = 1, 2 ; }}",
        ints.join(", "),
        doubles.join(", ")
    );
    let cdl_path = dir.path().join("big.cdl");
    std::fs::write(&cdl_path, cdl).unwrap();
    let ours = dir.path().join("ours.nc");
    let theirs = dir.path().join("theirs.nc");
    for (tool, out) in [(OURS.ncgen, &ours), (REF_NCGEN, &theirs)] {
        let args = [OsStr::new("-k"), OsStr::new("nc4"), OsStr::new("-o")];
        let g = run(
            tool,
            args.iter()
                .copied()
                .chain([out.as_os_str(), cdl_path.as_os_str()]),
            dir.path(),
        );
        assert!(g.success, "{}", g.failure(tool));
    }
    let same = |step: &str| {
        let d = |p: &Path| {
            let o = run(
                REF_NCDUMP,
                [
                    OsStr::new("-s"),
                    OsStr::new("-n"),
                    OsStr::new("big"),
                    p.as_os_str(),
                ],
                dir.path(),
            );
            assert!(o.success, "{step}: {}", o.failure("ncdump"));
            String::from_utf8(o.stdout)
                .unwrap()
                .lines()
                .filter(|l| !l.contains("_NCProperties"))
                .map(|l| format!("{l}\n"))
                .collect::<String>()
        };
        let (o, t) = (d(&ours), d(&theirs));
        assert!(
            o == t,
            "{step}: {}",
            diff_bw(t.as_bytes(), o.as_bytes())
                .err()
                .unwrap_or_default()
        );
        assert!(
            o.contains("19998, 19999 ;"),
            "{step}: the large attribute is missing"
        );
        let h = run("/usr/bin/h5dump", [ours.as_os_str()], dir.path());
        assert!(h.success, "{step}: {}", h.failure("h5dump"));
        // Our reader reads the dense storage we wrote.
        let args = [OsStr::new("-n"), OsStr::new("big"), ours.as_os_str()];
        let (a, b) = (
            run(OURS.ncdump, args, dir.path()),
            run(REF_NCDUMP, args, dir.path()),
        );
        assert!(
            a.success && a.stdout == b.stdout,
            "{step}: our ncdump differs"
        );
    };
    same("ncgen");
    python_step(&py, "nc-attrs", &ours);
    python_step(&py, "nc-attrs", &theirs);
    same("netCDF4-python adds attributes");
    for p in [&ours, &theirs] {
        let mut f = purecdf::append(p).unwrap();
        f.add_attribute("ours", "appended").unwrap();
        let v = f.variable("v").unwrap().id();
        f.put_values(v, &[7i32], span(1, 1)).unwrap();
        f.close().unwrap();
    }
    same("purecdf appends");
}

/// Builds tests/c/nc4_append.c once.
fn driver() -> Option<&'static Path> {
    static EXE: OnceLock<Option<PathBuf>> = OnceLock::new();
    EXE.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/nc4_append.c");
        let out = std::env::temp_dir().join(format!("purecdf_nc4_append_{}", std::process::id()));
        let ok = std::process::Command::new("cc")
            .arg("-o")
            .arg(&out)
            .arg(&src)
            .arg("-lnetcdf")
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            Some(out)
        } else {
            unavailable("cc and libnetcdf (to build tests/c/nc4_append.c)")
        }
    })
    .as_deref()
}

/// What nc4_append.c does, through purecdf.
fn purecdf_append(path: &Path) -> purecdf::Result<()> {
    let mut f = purecdf::append(path)?;
    let s = f.schema().clone();
    let root = &s.groups[0];
    let unlim = root.dims.iter().copied().find(|d| s.dims[d.0].unlimited);
    f.redef()?;
    f.add_attribute("appended", "purecd")?;
    if let Some(first) = root.vars.first() {
        f.put_attribute(ROOT, Some(*first), "touched", Values::Int(vec![1]))?;
    }
    let dims: Vec<_> = unlim.into_iter().collect();
    let newv = f.add_variable_in(ROOT, "added_by_test", NcType::Int, &dims)?;
    f.enddef()?;
    let reclen = unlim.map_or(0, |d| f.schema().dims[d.0].len);
    for &v in &root.vars {
        let def = &s.vars[v.0];
        let Some(u) = unlim else { break };
        if def.dims.first() != Some(&u)
            || matches!(def.typ, NcType::String | NcType::User(_))
            || def.dims[1..].iter().any(|d| s.dims[d.0].unlimited)
        {
            continue;
        }
        let mut start = vec![reclen];
        let mut count = vec![1u64];
        for d in &def.dims[1..] {
            start.push(0);
            count.push(f.schema().dims[d.0].len);
        }
        let n: u64 = count.iter().product();
        if n == 0 {
            continue;
        }
        if def.typ == NcType::Char {
            let text: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            f.put_values(v, &text, (&start[..], &count[..]))?;
        } else {
            let vals: Vec<f64> = (0..n).map(|i| (i % 100) as f64).collect();
            f.put_values(v, &vals, (&start[..], &count[..]))?;
        }
    }
    if unlim.is_some() {
        let vals: Vec<i32> = (0..=reclen as i32).map(|i| 3 * i).collect();
        f.put_values(newv, &vals, [..vals.len()])?;
    } else {
        f.put_values(newv, &[7i32], ..)?;
    }
    f.close()
}

/// Cases with variables whose unwritten data netcdf-c reads from uninitialised memory.
const GARBAGE_DATA: &[&str] = &[
    "ref_tst_ncf213",
    "ref_tst_special_atts",
    "ref_tst_special_atts3",
];

#[test]
fn purecdf_appends_to_netcdf_c_files() {
    let Some(data) = netcdf_c_data() else { return };
    let Some(()) = reference_tools() else { return };
    let Some(exe) = driver() else { return };
    let mut cdls = Vec::new();
    for d in ["ncdump/cdl", "ncdump"] {
        if let Ok(rd) = std::fs::read_dir(data.join(d)) {
            cdls.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "cdl")),
            );
        }
    }
    cdls.sort();
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let (mut pass, mut failures) = (0, Vec::new());
    for kind in ["nc4", "nc7"] {
        for cdl in &cdls {
            let name = cdl.file_stem().unwrap().to_string_lossy().to_string();
            if name.starts_with("bigf") || name.starts_with("bigr") {
                continue;
            }
            let label = format!("{name} -k {kind}");
            let theirs = dir.join("theirs.nc");
            let ours = dir.join("ours.nc");
            let _ = std::fs::remove_file(&theirs);
            let gen = run(
                REF_NCGEN,
                [
                    OsStr::new("-k"),
                    OsStr::new(kind),
                    OsStr::new("-o"),
                    theirs.as_os_str(),
                    cdl.as_os_str(),
                ],
                dir,
            );
            if !gen.success || !theirs.exists() {
                continue;
            }
            std::fs::copy(&theirs, &ours).unwrap();
            let c = run(exe.to_str().unwrap(), [theirs.as_os_str()], dir);
            let r = purecdf_append(&ours);
            let verdict = match (c.success, r) {
                (false, Err(_)) => None, // both refuse (e.g. a name clash)
                (false, Ok(())) => Some(format!(
                    "netcdf-c refuses ({}) but purecdf does not",
                    String::from_utf8_lossy(&c.stderr).trim()
                )),
                (true, Err(e)) => Some(format!("purecdf: {e}")),
                (true, Ok(())) => {
                    // `-s`: the storage settings of the new variable must match too. netcdf-c
                    // prints some cases' unfilled data from uninitialised memory: headers only.
                    let flags: &[&str] = if GARBAGE_DATA.contains(&name.as_str()) {
                        &["-s", "-h"]
                    } else {
                        &["-s"]
                    };
                    let d = |p: &Path| {
                        let args = flags.iter().map(OsStr::new).chain([
                            OsStr::new("-n"),
                            OsStr::new("x"),
                            p.as_os_str(),
                        ]);
                        run(REF_NCDUMP, args, dir)
                    };
                    let (t, o) = (d(&theirs), d(&ours));
                    let h = run("/usr/bin/h5dump", [ours.as_os_str()], dir);
                    if !o.success {
                        Some(o.failure("netcdf-c's ncdump on our file"))
                    } else if t.stdout != o.stdout {
                        Some(
                            diff_bw(&t.stdout, &o.stdout)
                                .err()
                                .unwrap_or_else(|| "differs in white space".into()),
                        )
                    } else if !h.success {
                        Some(h.failure("h5dump"))
                    } else {
                        None
                    }
                }
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
    }
    println!(
        "purecdf appends to netcdf-c's files: {pass} passed, {} failed",
        failures.len()
    );
    assert!(pass >= 150, "only {pass} cases passed");
    assert_no_failures("purecdf appends to netcdf-c's files", &failures);
}
