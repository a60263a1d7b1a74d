//! Differential tests against netcdf-c 4.9.0's `/usr/bin/ncgen`: randomly generated classic CDL
//! (types, tagged/octal/hex constants, char data, fill markers, unlimited dimensions) and random
//! mutations of real CDL, with a fixed seed. Both tools must agree on exit status, the first line
//! of standard error, and the bytes written. Cases where netcdf-c itself crashes are skipped.
//! Runs only when the reference tool is installed (required with `PURECDF_REQUIRE_REFERENCE=1`).

mod support;

use std::path::Path;
use std::process::Command;

const OURS: &str = env!("CARGO_BIN_EXE_ncgen");
const REFERENCE: &str = "/usr/bin/ncgen";

fn reference_available() -> bool {
    let have = Path::new(REFERENCE).exists();
    if !have && std::env::var("PURECDF_REQUIRE_REFERENCE").as_deref() == Ok("1") {
        panic!("{REFERENCE} is required (PURECDF_REQUIRE_REFERENCE=1) but not installed");
    }
    have
}

/// xorshift64: small, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() % 1000) as f64 / 1000.0 < p
    }
}

fn int_const(r: &mut Rng) -> String {
    if r.chance(0.1) {
        return r
            .pick(&[
                "1ub",
                "255ub",
                "65535us",
                "4294967295u",
                "1ull",
                "-1ll",
                "18446744073709551615ull",
                "9223372036854775807ll",
            ])
            .to_string();
    }
    let v = r.pick(&[
        "0",
        "1",
        "-1",
        "7",
        "127",
        "128",
        "255",
        "256",
        "-128",
        "-129",
        "32767",
        "32768",
        "65535",
        "-32769",
        "2147483647",
        "-2147483648",
        "2147483648",
        "4294967295",
        "8",
    ]);
    match r.below(10) {
        0 if !v.starts_with('-') => format!("0{:o}", v.parse::<u64>().unwrap_or(0)),
        1 => format!("{v}{}", r.pick(&["b", "s", "l", "B", "S", "L"])),
        2 if !v.starts_with('-') => format!("0x{:x}", v.parse::<u64>().unwrap_or(0)),
        _ => v.to_string(),
    }
}

fn float_const(r: &mut Rng) -> String {
    r.pick(&[
        "1.5",
        "-2.25",
        "1e10",
        "1.e-5",
        "3.f",
        "2.5e3F",
        "NaN",
        "-Infinity",
        "Infinityf",
        "NaNf",
        "1e39",
        "1e-320",
        "0.1",
        "123456789.123",
        ".5",
        "5.",
    ])
    .to_string()
}

fn str_const(r: &mut Rng) -> String {
    let body = r.pick(&[
        "", "a", "ab", "abc", "hello", "x y", "\\t", "\\n\\101", "\u{e9}", "abcdefgh",
    ]);
    format!("\"{body}\"")
}

fn char_const(r: &mut Rng) -> String {
    r.pick(&[
        "'a'", "'\\n'", "'\\101'", "'\\x41'", "'z'", "'\\0'", "'\\xff'",
    ])
    .to_string()
}

fn any_const(r: &mut Rng) -> String {
    match r.below(20) {
        0..=9 => int_const(r),
        10..=14 => float_const(r),
        15..=17 => str_const(r),
        _ => char_const(r),
    }
}

/// A random classic-model CDL text (with CDF-5's unsigned and 64-bit types when `cdf5`).
fn generate(r: &mut Rng, cdf5: bool) -> String {
    let classic = ["byte", "char", "short", "int", "float", "double"];
    let all = [
        "byte", "char", "short", "int", "float", "double", "ubyte", "ushort", "uint", "int64",
        "uint64",
    ];
    let types: &[&str] = if cdf5 { &all } else { &classic };
    let mut dims: Vec<(String, String)> = Vec::new();
    if r.chance(0.5) {
        dims.push(("r".into(), "UNLIMITED".into()));
    }
    for k in 0..r.below(4) {
        dims.push((format!("d{k}"), (1 + r.below(4)).to_string()));
    }
    let mut out = vec!["netcdf g {".to_string()];
    if !dims.is_empty() {
        out.push("dimensions:".into());
        for (n, v) in &dims {
            out.push(format!("\t{n} = {v} ;"));
        }
    }
    out.push("variables:".into());
    let mut vars = Vec::new();
    for k in 0..1 + r.below(5) {
        let t = r.pick(types);
        let mut ds: Vec<String> = Vec::new();
        for i in 0..r.below(dims.len().min(3) + 1) {
            let (n, v) = &dims[r.below(dims.len())];
            if (v == "UNLIMITED" && i > 0) || ds.contains(n) {
                continue;
            }
            ds.push(n.clone());
        }
        let name = format!("v{k}");
        let shape = if ds.is_empty() {
            String::new()
        } else {
            format!("({})", ds.join(", "))
        };
        out.push(format!("\t{t} {name}{shape} ;"));
        for a in 0..r.below(3) {
            let n = 1 + r.below(3);
            let vals: Vec<String> = (0..n).map(|_| any_const(r)).collect();
            if r.chance(0.3) {
                let at = r.pick(types);
                out.push(format!("\t\t{at} {name}:t{a} = {} ;", vals.join(", ")));
            } else {
                out.push(format!("\t\t{name}:a{a} = {} ;", vals.join(", ")));
            }
        }
        if r.chance(0.3) {
            let fv = if t == "char" {
                if r.chance(0.5) {
                    str_const(r)
                } else {
                    char_const(r)
                }
            } else if r.chance(0.5) {
                int_const(r)
            } else {
                float_const(r)
            };
            out.push(format!("\t\t{name}:_FillValue = {fv} ;"));
        }
        vars.push((name, t));
    }
    for a in 0..r.below(4) {
        let n = r.below(4);
        let vals: Vec<String> = (0..n).map(|_| any_const(r)).collect();
        out.push(format!("\t\t:g{a} = {} ;", vals.join(", ")));
    }
    out.push("data:".into());
    for (name, t) in &vars {
        if r.chance(0.3) {
            continue;
        }
        let n = 1 + r.below(8);
        let items: Vec<String> = (0..n)
            .map(|_| match (r.below(10), *t) {
                (0, _) => "_".to_string(),
                (_, "char") => {
                    if r.chance(0.6) {
                        str_const(r)
                    } else {
                        char_const(r)
                    }
                }
                (k, _) if k < 7 => int_const(r),
                _ => float_const(r),
            })
            .collect();
        out.push(format!(" {name} = {} ;", items.join(", ")));
    }
    out.push("}".into());
    out.join("\n") + "\n"
}

struct Outcome {
    code: Option<i32>,
    first: String,
    bytes: Option<Vec<u8>>,
}

fn run(tool: &str, dir: &Path, args: &[&str], out: &str) -> Outcome {
    let _ = std::fs::remove_file(dir.join(out));
    let r = Command::new(tool)
        .current_dir(dir)
        .args(args)
        .args(["-o", out, "in.cdl"])
        .output()
        .unwrap();
    Outcome {
        code: r.status.code(),
        first: String::from_utf8_lossy(&r.stderr)
            .lines()
            .next()
            .unwrap_or("")
            .to_string(),
        bytes: std::fs::read(dir.join(out)).ok(),
    }
}

fn compare(dir: &Path, src: &[u8], args: &[&str]) -> Option<String> {
    std::fs::write(dir.join("in.cdl"), src).unwrap();
    let want = run(REFERENCE, dir, args, "ref.nc");
    if want.code.is_none_or(|c| c >= 128) {
        return None; // netcdf-c crashed on this input
    }
    let got = run(OURS, dir, args, "our.nc");
    if got.code != want.code || got.first != want.first {
        return Some(format!(
            "{args:?}\nreference: {:?} {}\nours:      {:?} {}\n{}",
            want.code,
            want.first,
            got.code,
            got.first,
            String::from_utf8_lossy(src)
        ));
    }
    if want.code == Some(0) && got.bytes != want.bytes {
        // netCDF-4 files are not byte-identical to libhdf5's: netcdf-c's ncdump -s must print
        // the same for both (less the _NCProperties line naming the writer).
        if want
            .bytes
            .as_deref()
            .is_some_and(|b| b.starts_with(b"\x89HDF"))
        {
            let (a, b) = (nc4_dump(&dir.join("ref.nc")), nc4_dump(&dir.join("our.nc")));
            if a == b {
                return None;
            }
            return Some(format!(
                "{args:?}: ncdump -s differs\n{a}\n---\n{b}\n{}",
                String::from_utf8_lossy(src)
            ));
        }
        return Some(format!(
            "{args:?}: bytes differ\n{}",
            String::from_utf8_lossy(src)
        ));
    }
    None
}

/// netcdf-c's `ncdump -s` of a netCDF-4 file, less the name line and `_NCProperties`.
fn nc4_dump(p: &Path) -> String {
    let out = Command::new("/usr/bin/ncdump")
        .arg("-s")
        .arg(p)
        .output()
        .unwrap();
    format!(
        "{:?}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .skip(1)
            .filter(|l| !l.contains("_NCProperties"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}

#[test]
fn generated_classic_cdl() {
    if !reference_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut r = Rng(0x5eed_cafe_f00d_0001);
    for i in 0..200 {
        let kind = r.pick(&["nc3", "nc6", "nc5"]);
        let src = generate(&mut r, kind == "nc5");
        let mut args = vec!["-k", kind, "-b"];
        if r.chance(0.3) {
            args.push("-x");
        }
        if let Some(diff) = compare(tmp.path(), src.as_bytes(), &args) {
            panic!("case {i}: {diff}");
        }
    }
}

/// `ncgen -l c ARGS -o prog.nc in.cdl` by both tools: the same status, standard error and
/// program text.
fn compare_c(dir: &Path, src: &[u8], args: &[&str]) -> Option<String> {
    std::fs::write(dir.join("in.cdl"), src).unwrap();
    let run_c = |tool: &str| {
        Command::new(tool)
            .current_dir(dir)
            .args(["-l", "c"])
            .args(args)
            .args(["-o", "prog.nc", "in.cdl"])
            .output()
            .unwrap()
    };
    let want = run_c(REFERENCE);
    if want.status.code().is_none_or(|c| c >= 128) {
        return None; // netcdf-c crashed on this input
    }
    let got = run_c(OURS);
    // A failing ncgen goes on reporting; as for binary output, its first message is compared.
    let first = |e: &[u8]| e.split(|b| *b == b'\n').next().unwrap_or_default().to_vec();
    let same = got.status.code() == want.status.code()
        && if want.status.code() == Some(0) {
            got.stderr == want.stderr && got.stdout == want.stdout
        } else {
            first(&got.stderr) == first(&want.stderr)
        };
    (!same).then(|| {
        let first_difference = want
            .stdout
            .split(|b| *b == b'\n')
            .zip(got.stdout.split(|b| *b == b'\n'))
            .find(|(a, b)| a != b)
            .map(|(a, b)| {
                format!(
                    "{}\n{}",
                    String::from_utf8_lossy(a),
                    String::from_utf8_lossy(b)
                )
            })
            .unwrap_or_default();
        format!(
            "-l c {args:?}: status {:?} / {:?}, stderr {:?} / {:?}\n{first_difference}\n{}",
            want.status.code(),
            got.status.code(),
            String::from_utf8_lossy(&want.stderr),
            String::from_utf8_lossy(&got.stderr),
            String::from_utf8_lossy(src)
        )
    })
}

/// The same random classic CDL as [`generated_classic_cdl`], as C programs (`ncgen -l c`).
#[test]
fn generated_classic_cdl_as_c() {
    if !reference_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut r = Rng(0x5eed_cafe_f00d_0001);
    for i in 0..200 {
        let kind = r.pick(&["nc3", "nc6", "nc5", "nc4", "nc7"]);
        let src = generate(&mut r, kind == "nc5");
        let mut args = vec!["-k", kind];
        if r.chance(0.2) {
            args.push("-x");
        }
        if r.chance(0.2) {
            args.extend(["-W", "3"]);
        }
        if let Some(diff) = compare_c(tmp.path(), src.as_bytes(), &args) {
            panic!("case {i}: {diff}");
        }
    }
}

#[test]
fn mutated_cdl() {
    if !reference_available() {
        return;
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ncgen");
    let mut sources: Vec<Vec<u8>> = Vec::new();
    let corpus = support::netcdf_c_data().map(|d| d.join("ncdump/cdl"));
    for dir in std::iter::once(data.as_path()).chain(corpus.as_deref()) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut paths: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let big = p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("big"));
            if p.extension().is_some_and(|x| x == "cdl") && !big {
                sources.push(std::fs::read(&p).unwrap());
            }
        }
    }
    let pieces: &[&[u8]] = &[
        b";",
        b",",
        b"{",
        b"}",
        b"(",
        b")",
        b"=",
        b":",
        b"_",
        b"\"x\"",
        b"'a'",
        b"1",
        b"-1",
        b"1.5",
        b"0x1f",
        b"1b",
        b"1u",
        b"NaN",
        b"int",
        b"char",
        b"ubyte",
        b"string",
        b"data:",
        b"variables:",
        b"dimensions:",
        b"unlimited",
        b"_FillValue",
        b"/",
        b"\\",
        b"\n",
        b"x",
        b"010",
        b"1e",
        b".",
        b"NIL",
        b"\"",
        b"'",
        b"//",
        b"/*",
    ];
    let tmp = tempfile::tempdir().unwrap();
    let mut r = Rng(0x5eed_cafe_f00d_0002);
    for i in 0..150 {
        let mut s = sources[r.below(sources.len())].clone();
        for _ in 0..1 + r.below(3) {
            let p = r.below(s.len() + 1);
            match r.below(10) {
                0..=3 => {
                    let piece = pieces[r.below(pieces.len())];
                    let mut ins = vec![b' '];
                    ins.extend_from_slice(piece);
                    ins.push(b' ');
                    s.splice(p..p, ins);
                }
                4..=7 => {
                    let q = (p + 1 + r.below(8)).min(s.len());
                    s.drain(p.min(q)..q);
                }
                _ => {
                    let q = (p + 1 + r.below(20)).min(s.len());
                    let dup = s[p.min(q)..q].to_vec();
                    s.splice(p..p, dup);
                }
            }
        }
        let args: &[&str] = match r.below(3) {
            0 => &["-k", "nc3", "-b"],
            1 => &["-k", "nc6", "-b"],
            _ => &["-b"],
        };
        if let Some(diff) = compare(tmp.path(), &s, args) {
            panic!("case {i}: {diff}");
        }
        if let Some(diff) = compare_c(tmp.path(), &s, &[]) {
            panic!("case {i}: {diff}");
        }
    }
}
