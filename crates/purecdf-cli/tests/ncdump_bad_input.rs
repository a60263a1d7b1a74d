//! Corrupt classic files through our `ncdump` and netcdf-c 4.9.0's `/usr/bin/ncdump`, side by
//! side: standard error, exit status and standard output must be equal. The files are the
//! generated corruptions of the library's hostile-input tests (every truncation, byte flips of
//! every header byte, targeted field overwrites of `purecdf/tests/data/bad/seed/*.nc`, made by
//! `purecdf/tests/bad_input/corrupt.rs`), so the messages checked are those of netcdf-c's header
//! reader (`nc_get_NC`, libsrc/v1hpg.c) for each kind of damage.
//!
//! Cases where netcdf-c itself crashes (a signal) are counted, not compared: we fail cleanly.
//! Four kinds of damage netcdf-c's reader takes where purecdf's refuses it or reads it otherwise
//! are counted and listed, not compared, each recognised from the damage itself and the observed
//! difference ([`Known`]); every other case must be identical.
//! Skips when the reference is not installed, unless `PURECDF_REQUIRE_REFERENCE=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../purecdf/tests/bad_input/corrupt.rs"]
mod corrupt;

const REFERENCE: &str = "/usr/bin/ncdump";

fn reference() -> bool {
    let have = Path::new(REFERENCE).exists();
    if !have && std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() == Ok("1") {
        panic!("PURECDF_REQUIRE_REFERENCE=1 but {REFERENCE} is not installed");
    }
    have
}

fn seed(version: u8) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../purecdf/tests/data/bad/seed/seed_cdf{version}.nc"
    ));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// What one run printed.
#[derive(PartialEq, Eq)]
struct Run {
    code: Option<i32>,
    stderr: String,
    stdout: Vec<u8>,
}

/// Address space each run may use: netcdf-c allocates (and clears) whatever a corrupt length
/// asks for, so whether it fails with NC_ENOMEM or goes on depends on the memory it may use.
const MEMORY_LIMIT_KIB: u64 = 1 << 20;

/// Runs `bin` as `ncdump -h FILE` (argv[0] is "ncdump" for both programs) in `dir`, limited to
/// [`MEMORY_LIMIT_KIB`] of address space and 60 s of CPU time. Only the header is dumped: a
/// damaged `numrecs` would otherwise make both print millions of records.
fn run(bin: &Path, dir: &Path, file: &str) -> Run {
    let script = format!("ulimit -v {MEMORY_LIMIT_KIB} -t 60; exec -a ncdump \"$0\" -h \"$1\"");
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .arg(file)
        .current_dir(dir)
        .output()
        .expect("run ncdump");
    Run {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        stdout: out.stdout,
    }
}

/// Damage where purecdf deliberately differs from netcdf-c (see the classic reader's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Known {
    /// A header that runs past the end of the file (cut short, or a count grown by the damage):
    /// netcdf-c reads the missing bytes as zeros, which often make a valid header; purecdf
    /// reports NC_ETRUNC.
    HeaderPastEnd,
    /// A name that is not UTF-8: purecdf's names are text (the bad bytes read as U+FFFD), where
    /// netcdf-c keeps the bytes and then cannot look an attribute up by them.
    NonUtf8Name,
    /// A CDF-5 dimension of 2^63 or more, which netcdf-c takes as a negative size and accepts.
    HugeCdf5Dimension,
    /// `numrecs` of STREAMING: purecdf counts the records in the file, as the format spec says;
    /// netcdf-c 4.9 takes the number as it is.
    Streaming,
}

impl Known {
    /// Whether this kind of damage explains the observed difference (ours, netcdf-c's).
    fn explains(self, got: &Run, want: &Run) -> bool {
        let refused = |r: &Run, msg: &str| r.code == Some(1) && r.stderr.ends_with(msg);
        match self {
            Known::HeaderPastEnd => {
                want.code == Some(0)
                    && want.stderr.is_empty()
                    && refused(got, "NetCDF: File likely truncated or possibly corrupted\n")
            }
            Known::NonUtf8Name => true,
            Known::HugeCdf5Dimension => {
                want.code == Some(0)
                    && refused(
                        got,
                        "NetCDF: One or more variable sizes violate format constraints\n",
                    )
            }
            Known::Streaming => want.code == Some(0) && got.code == Some(0),
        }
    }
}

/// One corrupt file: label, bytes, and the known difference its damage may cause.
type Case = (String, Vec<u8>, Option<Known>);

/// Writes each case to a file of the same name in a scratch directory and compares the two
/// programs on it; returns the unexplained differences, the explained ones by kind, and how many
/// cases netcdf-c crashed on.
fn compare_all(cases: Vec<Case>) -> (Vec<String>, Vec<(Known, String)>, usize) {
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_ncdump"));
    let dir = tempfile::tempdir().unwrap();
    let (mut diffs, mut known, mut crashed) = (Vec::new(), Vec::new(), 0);
    for (label, bytes, why) in cases {
        std::fs::write(dir.path().join("case.nc"), &bytes).unwrap();
        let want = run(Path::new(REFERENCE), dir.path(), "case.nc");
        let got = run(&ours, dir.path(), "case.nc");
        if want.code.is_none() {
            crashed += 1;
            if got.code != Some(1) {
                diffs.push(format!("{label}: netcdf-c crashed, we exit {:?}", got.code));
            }
            continue;
        }
        if got == want {
            continue;
        }
        if let Some(k) = why.filter(|k| k.explains(&got, &want)) {
            known.push((k, label));
            continue;
        }
        let what = if got.stderr != want.stderr || got.code != want.code {
            format!(
                "stderr {:?} (exit {:?}) vs netcdf-c's {:?} (exit {:?})",
                got.stderr, got.code, want.stderr, want.code
            )
        } else {
            "standard output differs".to_string()
        };
        diffs.push(format!("{label}: {what}"));
    }
    (diffs, known, crashed)
}

fn check(what: &str, cases: Vec<Case>) {
    let n = cases.len();
    let (diffs, known, crashed) = compare_all(cases);
    let mut kinds: Vec<Known> = known.iter().map(|k| k.0).collect();
    kinds.sort();
    kinds.dedup();
    let counts: Vec<String> = kinds
        .iter()
        .map(|k| format!("{k:?} {}", known.iter().filter(|x| x.0 == *k).count()))
        .collect();
    eprintln!(
        "{what}: {n} files, netcdf-c crashed on {crashed}, known differences [{}], {} other differences",
        counts.join(", "),
        diffs.len()
    );
    assert!(
        diffs.is_empty(),
        "{what}: {} of {n} differ:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

fn big_endian(b: &[u8]) -> u64 {
    b.iter().fold(0u64, |a, &x| (a << 8) | u64::from(x))
}

/// The known difference a change of header byte `at` (new value `x`) may cause.
fn damage(seed: &[u8], map: &corrupt::HeaderMap, version: u8, at: usize, x: u8) -> Option<Known> {
    let mut b = seed.to_vec();
    b[at] = x;
    if let Some(&(s, e)) = map.names.iter().find(|(s, e)| (*s..*e).contains(&at)) {
        if std::str::from_utf8(&b[s..e]).is_err() {
            return Some(Known::NonUtf8Name);
        }
    }
    if version == 5 {
        if let Some(&p) = map.dim_len.iter().find(|p| (**p..**p + 8).contains(&at)) {
            if big_endian(&b[p..p + 8]) >= 1 << 63 {
                return Some(Known::HugeCdf5Dimension);
            }
        }
    }
    None
}

/// Each seed with its header map.
fn seeds() -> Vec<(u8, Vec<u8>, corrupt::HeaderMap)> {
    [1u8, 2, 5]
        .into_iter()
        .map(|v| {
            let b = seed(v);
            let m = corrupt::HeaderMap::of(&b);
            (v, b, m)
        })
        .collect()
}

#[test]
fn truncated_headers_fail_like_reference() {
    if !reference() {
        return;
    }
    let mut cases = Vec::new();
    for (v, b, m) in seeds() {
        for (label, bytes) in corrupt::truncations(&b, &format!("seed_cdf{v}.nc")) {
            let why = (bytes.len() < m.end).then_some(Known::HeaderPastEnd);
            cases.push((label, bytes, why));
        }
    }
    check("truncations", cases);
}

#[test]
fn header_byte_flips_dump_like_reference() {
    if !reference() {
        return;
    }
    let mut cases = Vec::new();
    for (v, b, m) in seeds() {
        for at in 0..m.end {
            for mask in [0x01u8, 0x80, 0xFF] {
                let mut c = b.clone();
                c[at] ^= mask;
                let why = damage(&b, &m, v, at, c[at]).or(Some(Known::HeaderPastEnd));
                cases.push((format!("seed_cdf{v}.nc byte {at} ^ {mask:#04x}"), c, why));
            }
        }
    }
    check("byte flips", cases);
}

#[test]
fn targeted_header_corruptions_fail_like_reference() {
    if !reference() {
        return;
    }
    let mut cases = Vec::new();
    for (v, b, m) in seeds() {
        for (label, (bytes, _)) in corrupt::targeted_cases(&b, v) {
            let why = if label.ends_with("numrecs STREAMING") {
                Some(Known::Streaming)
            } else {
                (0..m.end)
                    .filter(|&i| bytes.get(i) != b.get(i))
                    .find_map(|i| damage(&b, &m, v, i, bytes[i]))
            };
            cases.push((label, bytes, why));
        }
    }
    check("targeted corruptions", cases);
}
