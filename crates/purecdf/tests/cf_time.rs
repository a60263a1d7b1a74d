//! `Variable::get_datetimes` against cftime's `num2date` (netCDF4-python's) and xarray's time
//! decoding, and `Variable::get_char_strings` against netCDF4-python's `chartostring` and
//! xarray, on a file written here with several calendars, units, zones and fractional values.
//!
//! Needs a Python with xarray, netCDF4 and cftime (`$PURECDF_PYTHON`); the test skips without
//! it, unless PURECDF_REQUIRE_REFERENCE=1, when it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> Option<PathBuf> {
    let py = std::env::var_os("PURECDF_PYTHON").map_or_else(|| "python3".into(), PathBuf::from);
    let ok = Command::new(&py)
        .args(["-c", "import xarray, netCDF4, cftime"])
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1");
    assert!(
        ok || !required,
        "PURECDF_REQUIRE_REFERENCE=1 but Python with xarray, netCDF4 and cftime is missing"
    );
    ok.then_some(py)
}

/// (units, calendar) of each time variable.
const TIMES: &[(&str, &str)] = &[
    ("days since 2000-01-01", "standard"),
    ("days since 1582-10-01 12:00:00", "gregorian"),
    ("hours since 1900-02-27T06:30:00Z", "proleptic_gregorian"),
    ("minutes since 1800-03-01 00:00 +05:30", "julian"),
    ("seconds since 1970-01-01 00:00:00 -0600", "noleap"),
    ("milliseconds since 2001-02-28 23:59:59.5", "365_day"),
    ("microseconds since 2004-02-29", "all_leap"),
    ("days since 0001-01-01", "366_day"),
    ("hours since 1999-12-30 12:00", "360_day"),
    ("days since 1000-06-15", "standard"),
];

const VALUES: [f64; 9] = [0.0, 1.0, -1.0, 0.5, 1.25, 59.75, 36_525.0, -7_305.3, 1e-3];

fn write(path: &Path) -> purecdf::Result<()> {
    let mut f = purecdf::create(path)?;
    f.add_dimension("n", VALUES.len() + 1)?;
    for (i, (units, cal)) in TIMES.iter().enumerate() {
        let mut v = f.add_variable::<f64>(&format!("t{i}"), &["n"])?;
        v.put_attribute("units", *units)?;
        v.put_attribute("calendar", *cal)?;
        v.put_attribute("_FillValue", -9999.0)?;
        let mut vals = VALUES.to_vec();
        vals.push(-9999.0);
        v.put_values(&vals, ..)?;
    }
    f.add_dimension("s", 3)?;
    f.add_dimension("len", 8)?;
    for (name, enc) in [("utf", Some("utf-8")), ("plain", None)] {
        f.add_variable_of_type(name, purecdf::NcType::Char, &["s", "len"])?;
        let mut v = f.variable_mut(name).unwrap();
        if let Some(e) = enc {
            v.put_attribute("_Encoding", e)?;
        }
        let mut text = Vec::new();
        for s in ["Zürich", "a\0b", ""] {
            let mut b = s.as_bytes().to_vec();
            b.resize(8, 0);
            text.extend(b);
        }
        v.put_values(&text, ..)?;
    }
    f.close()
}

const SCRIPT: &str = r#"
import sys, json
import numpy as np, xarray as xr, netCDF4, cftime
nc = netCDF4.Dataset(sys.argv[1])
nc.set_auto_mask(True)
out = {"cftime": {}, "xarray": {}, "chars": {}}
def parts(d):
    return None if d is None or d is np.ma.masked else [d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond]
for name, v in nc.variables.items():
    if name.startswith("t"):
        raw = v[:]
        dates = cftime.num2date(raw, v.units, v.calendar)
        dates = np.ma.asarray(dates)
        out["cftime"][name] = [None if m else parts(d) for d, m in zip(np.ma.getdata(dates).tolist(), np.ma.getmaskarray(dates).tolist())]
ds = xr.open_dataset(sys.argv[1], use_cftime=True)
for name in ds.variables:
    if name.startswith("t"):
        # Masking is cftime's part above: xarray's filler for masked times varies by version.
        masked = np.ma.getmaskarray(nc[name][:]).tolist()
        out["xarray"][name] = [None if m else parts(x) for x, m in zip(ds[name].values.tolist(), masked)]
raw = netCDF4.Dataset(sys.argv[1])
raw.set_auto_chartostring(False)
for name in ["utf", "plain"]:
    out["chars"][name] = [str(s) for s in netCDF4.chartostring(raw[name][:], encoding="utf-8")]
    vals = xr.open_dataset(sys.argv[1])[name].values.tolist()
    out["chars"][name + "_xarray"] = [s.decode("utf-8") if isinstance(s, bytes) else s for s in vals]
print(json.dumps(out))
"#;

fn parts(d: &Option<purecdf::cf::CfDateTime>) -> String {
    match d {
        None => "null".into(),
        Some(d) => format!(
            "[{},{},{},{},{},{},{}]",
            d.year,
            d.month,
            d.day,
            d.hour,
            d.minute,
            d.second,
            d.nanosecond / 1000
        ),
    }
}

/// The JSON array text of `key` in `obj` from Python's `json.dumps` (no nesting beyond lists).
fn field<'a>(json: &'a str, section: &str, key: &str) -> &'a str {
    let s = &json[json.find(&format!("\"{section}\": {{")).unwrap()..];
    let s = &s[s.find(&format!("\"{key}\": [")).unwrap() + key.len() + 4..];
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 1 => return &s[..=i],
            ']' => depth -= 1,
            _ => {}
        }
    }
    panic!("no end of {key}");
}

#[test]
fn dates_and_char_strings_as_cftime_and_xarray_decode_them() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("times.nc");
    write(&path).unwrap();
    let out = Command::new(py).arg("-c").arg(SCRIPT).arg(&path).output();
    let out = out.expect("python runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the reference script failed: {err}");
    let json = String::from_utf8(out.stdout).unwrap();
    let file = purecdf::open(&path).unwrap();
    for (i, t) in TIMES.iter().enumerate() {
        let name = format!("t{i}");
        let ours = file.variable(&name).unwrap().get_datetimes(..).unwrap();
        let text = format!(
            "[{}]",
            ours.iter().map(parts).collect::<Vec<_>>().join(", ")
        );
        let theirs = field(&json, "cftime", &name)
            .replace(", ", ",")
            .replace(",[", ", [");
        let text = text.replace(", ", ",").replace(",[", ", [");
        assert_eq!(text, theirs, "{name}: {t:?} vs cftime");
        let xr = field(&json, "xarray", &name)
            .replace(", ", ",")
            .replace(",[", ", [");
        assert_eq!(text, xr, "{name}: {t:?} vs xarray");
    }
    for name in ["utf", "plain"] {
        let ours = file.variable(name).unwrap().get_char_strings(..).unwrap();
        let ours = format!(
            "[{}]",
            ours.iter()
                .map(|s| format!("\"{}\"", s.escape_default()))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let ours = ours
            .replace("\\u{fc}", "\\u00fc")
            .replace("\\u{0}", "\\u0000");
        assert_eq!(ours, field(&json, "chars", name), "{name} vs chartostring");
        assert_eq!(
            ours,
            field(&json, "chars", &format!("{name}_xarray")),
            "{name} vs xarray"
        );
    }
    // Selections cover the leading dimensions.
    let v = file.variable("utf").unwrap();
    assert_eq!(v.get_char_strings(1..).unwrap(), ["a\0b", ""]);
}

#[test]
fn bad_time_attributes_are_errors_that_name_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.nc");
    let mut f = purecdf::create(&path).unwrap();
    f.add_dimension("n", 2).unwrap();
    let cases = [
        ("a", Some("fortnights since 2000-01-01"), None),
        ("b", Some("days since 2000-02-30"), None),
        ("c", Some("days since 2000-01-01"), Some("none")),
        ("d", Some("days since 2000-01-01"), Some("martian")),
        ("e", None, None),
        ("f", Some("days since 2000-01-01 25:00"), None),
        ("g", Some("days since 2000-01-01 +99:00"), None),
        ("h", Some("days since \u{0}\u{ff}-1-1"), None),
    ];
    for (name, units, cal) in cases {
        let mut v = f.add_variable::<f64>(name, &["n"]).unwrap();
        if let Some(u) = units {
            v.put_attribute("units", u).unwrap();
        }
        if let Some(c) = cal {
            v.put_attribute("calendar", c).unwrap();
        }
        v.put_values(&[0.0, 1e300], ..).unwrap();
    }
    let mut v = f.add_variable::<f64>("huge", &["n"]).unwrap();
    v.put_attribute("units", "days since 2000-01-01").unwrap();
    v.put_values(&[0.0, 1e300], ..).unwrap();
    f.close().unwrap();
    let file = purecdf::open(&path).unwrap();
    for (name, _, cal) in cases {
        let err = file
            .variable(name)
            .unwrap()
            .get_datetimes(..)
            .unwrap_err()
            .to_string();
        let att = if cal.is_some() { "calendar" } else { "units" };
        assert!(err.contains(name) && err.contains(att), "{name}: {err}");
    }
    let err = file
        .variable("huge")
        .unwrap()
        .get_datetimes(..)
        .unwrap_err();
    assert!(err.to_string().contains("huge"), "{err}");
}
