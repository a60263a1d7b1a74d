//! Crash safety of the netCDF-4 writer: a writer process is killed with SIGKILL at random points,
//! and every file it leaves must either open — with purecdf and with netcdf-c's `ncdump` — and
//! hold at least everything the writer had synced before it died, or be refused with a clean
//! error (only possible before the first sync). Never a panic or a hang.
//!
//! This is a test binary without the libtest harness: run plainly it is the driver; with
//! `PURECDF_CRASH_WRITER=SEED:PATH` it is the writer, which follows a plan made from the seed
//! (records of a chunked deflate+shuffle variable and of others, attributes and variables added
//! in redef, syncs at seed-chosen points) and prints `synced K` after its K-th sync returns.
//! The driver first times one whole writer run, then for each seed kills a writer after a
//! seed-chosen fraction of that time and checks the file against the state of the plan at the
//! last `synced` line it read. `PURECDF_CRASH_ITERATIONS` sets the number of seeds (default 40).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use purecdf::{Format, GroupId, NcType, Values};

const ROOT: GroupId = GroupId(0);
const NY: usize = 16;
const NX: usize = 32;
/// Longest a check may take before it counts as a hang.
const HANG: Duration = Duration::from_secs(60);

/// splitmix64: the deterministic randomness of plans and kill times.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One step of a writer's plan.
#[derive(Debug, Clone, PartialEq)]
enum Op {
    /// Write record `r` of temp(time, y, x) and count(time).
    Record(usize),
    /// redef, a global attribute `step_K` = K and a variable `v_K(time)` of ints, enddef, then
    /// `v_K` gets `7 * i` for its first `K` records.
    Define(usize),
    /// `sync`.
    Sync,
}

struct Plan {
    format: Format,
    /// Filters on temp: deflate level, shuffle, fletcher32.
    deflate: Option<u32>,
    shuffle: bool,
    fletcher32: bool,
    ops: Vec<Op>,
}

fn plan(seed: u64) -> Plan {
    let mut rng = Rng(seed);
    let format = if rng.below(4) == 0 {
        Format::Netcdf4Classic
    } else {
        Format::Netcdf4
    };
    let deflate = [None, Some(1), Some(5)][rng.below(3) as usize];
    let shuffle = rng.below(2) == 0;
    let fletcher32 = rng.below(3) == 0;
    let records = 60 + rng.below(60) as usize;
    let mut ops = vec![Op::Sync];
    for r in 0..records {
        ops.push(Op::Record(r));
        if rng.below(6) == 0 {
            ops.push(Op::Sync);
        }
        if rng.below(20) == 0 {
            ops.push(Op::Define(r + 1));
        }
    }
    ops.push(Op::Sync);
    Plan {
        format,
        deflate,
        shuffle,
        fletcher32,
        ops,
    }
}

fn temp_record(seed: u64, r: usize) -> Vec<f32> {
    (0..NY * NX)
        .map(|i| ((seed % 97) * 100_000 + r as u64 * 1000 + i as u64) as f32)
        .collect()
}

fn fixed_values(seed: u64) -> Vec<f64> {
    (0..NY * NX).map(|i| seed as f64 + i as f64 * 0.5).collect()
}

fn rec(r: usize, shape: &[u64]) -> purecdf::Extents {
    let start: Vec<u64> = std::iter::once(r as u64)
        .chain(shape.iter().map(|_| 0))
        .collect();
    let count: Vec<u64> = std::iter::once(1).chain(shape.iter().copied()).collect();
    purecdf::Extents::try_from((&start[..], &count[..])).expect("same lengths")
}

/// The writer: follows the plan, printing `synced K` after each sync.
fn writer(seed: u64, path: &Path) -> purecdf::Result<()> {
    let p = plan(seed);
    let mut out = std::io::stdout().lock();
    let mut f = purecdf::create_with(path, p.format)?;
    f.add_unlimited_dimension("time")?;
    f.add_dimension("y", NY)?;
    f.add_dimension("x", NX)?;
    let temp = f.add_variable::<f32>("temp", &["time", "y", "x"])?.id();
    f.def_var_chunking(
        temp,
        purecdf::Chunking::Chunked(vec![1, NY as u64, NX as u64]),
    )?;
    f.def_var_deflate(temp, p.shuffle, p.deflate)?;
    f.def_var_fletcher32(temp, p.fletcher32)?;
    let count = f.add_variable::<i32>("count", &["time"])?.id();
    let fixed = f.add_variable::<f64>("fixed", &["y", "x"])?.id();
    f.add_attribute("title", format!("crash test seed {seed}"))?;
    f.enddef()?;
    f.put_values(fixed, &fixed_values(seed), ..)?;
    let mut syncs = 0;
    for op in &p.ops {
        match *op {
            Op::Record(r) => {
                f.put_values(temp, &temp_record(seed, r), rec(r, &[NY as u64, NX as u64]))?;
                f.put_values(count, &[r as i32], rec(r, &[]))?;
            }
            Op::Define(k) => {
                f.redef()?;
                f.put_attribute(
                    ROOT,
                    None,
                    &format!("step_{k}"),
                    Values::Int(vec![k as i32]),
                )?;
                let v =
                    f.add_variable_in(ROOT, &format!("v_{k}"), NcType::Int, &[purecdf::DimId(0)])?;
                f.enddef()?;
                let vals: Vec<i32> = (0..k as i32).map(|i| 7 * i).collect();
                f.put_values(v, &vals, (&[0u64][..], &[k as u64][..]))?;
            }
            Op::Sync => {
                f.sync()?;
                syncs += 1;
                writeln!(out, "synced {syncs}").and_then(|()| out.flush())?;
            }
        }
    }
    f.close()
}

/// What the file holds at least after the plan's `k`-th sync: records, and the `Define`s.
fn state_at(p: &Plan, k: usize) -> (usize, Vec<usize>) {
    let (mut records, mut defines, mut syncs) = (0, Vec::new(), 0);
    for op in &p.ops {
        match *op {
            Op::Record(r) => records = r + 1,
            Op::Define(k) => defines.push(k),
            Op::Sync => {
                syncs += 1;
                if syncs == k {
                    break;
                }
            }
        }
    }
    (records, defines)
}

fn check_file(seed: u64, path: &Path, synced: usize) -> Result<String, String> {
    let p = plan(seed);
    let f = match purecdf::open(path) {
        Ok(f) => f,
        Err(e) if synced == 0 => return Ok(format!("refused before the first sync: {e}")),
        Err(e) => return Err(format!("purecdf refuses the file after sync {synced}: {e}")),
    };
    if synced == 0 {
        return Ok("opened (a sync finished but was not reported)".into());
    }
    let (records, defines) = state_at(&p, synced);
    let e = |x: purecdf::Error| x.to_string();
    let have = f.dimension("time").ok_or("no dimension time")?.len as usize;
    if have < records {
        return Err(format!("{have} records, {records} were synced"));
    }
    let temp = f.variable("temp").ok_or("no variable temp")?;
    let count = f.variable("count").ok_or("no variable count")?;
    for r in 0..records {
        let got: Vec<f32> = temp
            .get_values(rec(r, &[NY as u64, NX as u64]))
            .map_err(e)?;
        if got != temp_record(seed, r) {
            return Err(format!("temp record {r} differs"));
        }
        let c: Vec<i32> = count.get_values(rec(r, &[])).map_err(e)?;
        if c != [r as i32] {
            return Err(format!("count[{r}] = {c:?}"));
        }
    }
    let fixed: Vec<f64> = f
        .variable("fixed")
        .ok_or("no fixed")?
        .get_values(..)
        .map_err(e)?;
    if fixed != fixed_values(seed) {
        return Err("fixed differs".into());
    }
    for k in defines {
        let a = f
            .attribute(&format!("step_{k}"))
            .ok_or(format!("no step_{k}"))?;
        if a.values != Values::Int(vec![k as i32]) {
            return Err(format!("step_{k} = {:?}", a.values));
        }
        let v = f.variable(&format!("v_{k}")).ok_or(format!("no v_{k}"))?;
        let got: Vec<i32> = v.get_values((&[0u64][..], &[k as u64][..])).map_err(e)?;
        if got != (0..k as i32).map(|i| 7 * i).collect::<Vec<_>>() {
            return Err(format!("v_{k} differs"));
        }
    }
    Ok(format!("{records} records synced, {have} present"))
}

/// netcdf-c's ncdump on the file: it must finish; after a sync it must succeed.
fn check_ncdump(path: &Path, synced: usize) -> Result<(), String> {
    let mut child = Command::new("/usr/bin/ncdump")
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run ncdump: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            return Err("ncdump hangs".into());
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut err = String::new();
    if let Some(mut s) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut s, &mut err);
    }
    match status.code() {
        Some(0) => Ok(()),
        Some(1) if synced == 0 => Ok(()),
        Some(c) => Err(format!(
            "ncdump exits with {c} after sync {synced}: {}",
            err.trim()
        )),
        None => Err(format!("ncdump dies of a signal: {}", err.trim())),
    }
}

/// Runs one writer, killing it after `kill_after` (never, if `None`); returns the last sync it
/// reported.
fn run_writer(seed: u64, path: &Path, kill_after: Option<Duration>) -> usize {
    let exe = std::env::current_exe().expect("test binary path");
    let mut child = Command::new(exe)
        .env("PURECDF_CRASH_WRITER", format!("{seed}:{}", path.display()))
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn the writer");
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(k) = line.strip_prefix("synced ") {
                let _ = tx.send(k.parse::<usize>().unwrap_or(0));
            }
        }
    });
    if let Some(t) = kill_after {
        std::thread::sleep(t);
        let _ = child.kill(); // SIGKILL
    }
    let status = child.wait().expect("wait for the writer");
    let _ = reader.join();
    if kill_after.is_none() {
        assert!(status.success(), "writer {seed} failed: {status}");
    }
    rx.try_iter().last().unwrap_or(0)
}

fn require() -> bool {
    std::env::var("PURECDF_REQUIRE_REFERENCE").is_ok_and(|v| v == "1")
}

fn main() {
    if let Ok(spec) = std::env::var("PURECDF_CRASH_WRITER") {
        let (seed, path) = spec.split_once(':').expect("SEED:PATH");
        if let Err(e) = writer(seed.parse().expect("seed"), Path::new(path)) {
            eprintln!("writer: {e}");
            std::process::exit(1);
        }
        return;
    }
    const NAME: &str = "sigkill_at_random_points";
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        println!("{NAME}: test");
        return;
    }
    // Honour a name filter the way libtest does (substring), ignoring flags.
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if !filters.is_empty() && !filters.iter().any(|f| NAME.contains(f.as_str())) {
        println!("running 0 tests");
        return;
    }
    let have_ncdump = Path::new("/usr/bin/ncdump").is_file();
    if !have_ncdump {
        assert!(
            !require(),
            "/usr/bin/ncdump is required (PURECDF_REQUIRE_REFERENCE=1)"
        );
        eprintln!("ncdump not available: checking with purecdf only");
    }
    let iterations: u64 = std::env::var("PURECDF_CRASH_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let dir = tempfile::tempdir().expect("temporary directory");
    // Time one full run (and check the complete file).
    let full = dir.path().join("full.nc");
    let t0 = Instant::now();
    let syncs = run_writer(1, &full, None);
    let total = t0.elapsed();
    check_file(1, &full, syncs).expect("the complete file");
    println!("running 1 test\nfull writer run: {total:?}, {syncs} syncs");
    let mut failures = Vec::new();
    let mut outcomes = [0usize; 3]; // refused, opened before a sync, opened after syncs
    for i in 0..iterations {
        let seed = 1000 + i;
        let path = dir.path().join(format!("crash_{seed}.nc"));
        let mut rng = Rng(seed ^ 0x5eed);
        // Kill somewhere in [0, 1.2 × a full run): some writers finish.
        let at = total.mul_f64(rng.below(1200) as f64 / 1000.0);
        let synced = run_writer(seed, &path, Some(at));
        let (tx, rx) = mpsc::channel();
        let p2 = path.clone();
        std::thread::spawn(move || {
            let r = std::panic::catch_unwind(|| check_file(seed, &p2, synced));
            let _ = tx.send(r);
        });
        let verdict = match rx.recv_timeout(HANG) {
            Ok(Ok(r)) => r,
            Ok(Err(_)) => Err("purecdf panics".to_string()),
            Err(_) => Err("purecdf hangs".to_string()),
        };
        let verdict = verdict.and_then(|how| {
            if have_ncdump {
                check_ncdump(&path, synced)?;
            }
            Ok(how)
        });
        match verdict {
            Ok(how) => {
                let kind = if how.starts_with("refused") {
                    0
                } else if synced == 0 {
                    1
                } else {
                    2
                };
                outcomes[kind] += 1;
                println!("seed {seed}: killed after {at:?}, synced {synced}: {how}");
            }
            Err(why) => {
                println!("seed {seed}: killed after {at:?}, synced {synced}: FAIL {why}");
                let keep = std::env::temp_dir().join(format!("purecdf_crash_{seed}.nc"));
                let _ = std::fs::copy(&path, &keep);
                failures.push(format!("seed {seed} ({}): {why}", keep.display()));
            }
        }
        let _ = std::fs::remove_file(&path);
    }
    println!(
        "{iterations} kills: {} refused before any sync, {} opened before a reported sync, {} \
         opened with the synced data",
        outcomes[0], outcomes[1], outcomes[2]
    );
    if !failures.is_empty() {
        println!("test {NAME} ... FAILED");
        eprintln!("{}", failures.join("\n"));
        std::process::exit(1);
    }
    println!("test {NAME} ... ok");
}
