//! `#mode=bytes` (issue 11): netCDF files read over HTTP `Range` requests from a counting server
//! on 127.0.0.1 (`support/http_server.rs`).
//!
//! - every classic, netCDF-4 and HDF5 file of netcdf-c's test data and of `hdf5-wild` dumps
//!   over HTTP exactly as it dumps from disk (plain and `-s`), those whose external links and
//!   virtual datasets name sibling files included (served beside them, as on disk);
//! - request counts at the server: `ncdump -h` of a netCDF-4 file with 200 variables in at most
//!   10 requests, `ncdump -v` of a record variable of a 10,000-record classic file in at most 20;
//! - the chunks of a netCDF-4 variable fetched in parallel (more than one request in flight);
//! - faults (404, 403, 500 then success, truncated bodies, slow answers, a server that stops):
//!   clean errors naming the URL, no hang, no credential printed.

mod support;

use std::path::{Path, PathBuf};

use support::http_server::{Faults, TestServer};
use support::{run, run_env, run_plain, OURS, REF_NCGEN};

/// Every netCDF/HDF5 file of the shared corpora, relative to `shared/conformance`.
fn corpus() -> Option<(PathBuf, Vec<PathBuf>)> {
    let netcdf_c = support::netcdf_c_data()?;
    let root = netcdf_c.parent().unwrap().to_path_buf();
    let mut files = Vec::new();
    let mut stack = vec![root.join("netcdf-c"), root.join("hdf5-wild")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("nc" | "h5" | "hdf5" | "nc4" | "hdf4")
            ) {
                files.push(p.strip_prefix(&root).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    Some((root, files))
}

#[test]
fn corpus_dumps_over_http_as_from_disk() {
    let Some((root, files)) = corpus() else {
        return;
    };
    assert!(files.len() > 50, "only {} corpus files", files.len());
    let server = TestServer::start();
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    // Every file is served before any is read: links and virtual datasets name their siblings.
    for rel in &files {
        server.put(
            &format!("/c/{}", rel.display()),
            std::fs::read(root.join(rel)).unwrap(),
        );
    }
    for rel in &files {
        let local = root.join(rel);
        let served = format!("/c/{}", rel.display());
        let url = format!("{}{served}#mode=bytes", server.base());
        for flags in [&[][..], &["-s"][..]] {
            let mut a: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            a.push(local.display().to_string());
            let here = run(OURS.ncdump, &a, work.path());
            *a.last_mut().unwrap() = url.clone();
            let there = run(OURS.ncdump, &a, work.path());
            if here.code != there.code || here.stdout != there.stdout {
                failures.push(format!(
                    "{} {flags:?}: exit {:?} locally, {:?} over HTTP; {}",
                    rel.display(),
                    here.code,
                    there.code,
                    String::from_utf8_lossy(&there.stderr)
                ));
            }
        }
    }
    support::assert_no_failures("remote dumps", &failures);
}

/// Siblings missing at the server read as siblings missing on disk: a virtual dataset without
/// one of its sources (fill values there), an external link without its target.
#[test]
fn missing_siblings_over_http_as_on_disk() {
    let Some((root, _)) = corpus() else {
        return;
    };
    let wild = root.join("hdf5-wild");
    let work = tempfile::tempdir().unwrap();
    let server = TestServer::start();
    for stem in ["vds_stack", "vds_src_0", "vds_src_2", "elink_group"] {
        let name = format!("{stem}.h5");
        std::fs::copy(wild.join(&name), work.path().join(&name)).unwrap();
        server.put(
            &format!("/w/{name}"),
            std::fs::read(wild.join(&name)).unwrap(),
        );
    }
    for stem in ["vds_stack", "elink_group"] {
        let local = work.path().join(format!("{stem}.h5"));
        let url = format!("{}/w/{stem}.h5#mode=bytes", server.base());
        let here = run(OURS.ncdump, ["-s", local.to_str().unwrap()], work.path());
        let there = run(OURS.ncdump, ["-s", url.as_str()], work.path());
        assert_eq!(
            here.code,
            there.code,
            "{stem}: {}",
            String::from_utf8_lossy(&there.stderr)
        );
        assert!(here.stdout == there.stdout, "{stem}: dumps differ");
    }
}

/// A file made by netcdf-c's `ncgen` from `cdl` (ours when the reference is missing and not
/// required).
fn generate(cdl: &str, kind: &str, dir: &Path, name: &str) -> PathBuf {
    let cdl_path = dir.join(format!("{name}.cdl"));
    std::fs::write(&cdl_path, cdl).unwrap();
    let out = dir.join(name);
    let ncgen = if Path::new(REF_NCGEN).is_file() {
        REF_NCGEN
    } else {
        support::unavailable::<()>("/usr/bin/ncgen");
        OURS.ncgen
    };
    let r = run(
        ncgen,
        [
            "-k",
            kind,
            "-o",
            out.to_str().unwrap(),
            cdl_path.to_str().unwrap(),
        ],
        dir,
    );
    assert!(r.success, "{}", r.failure("ncgen"));
    out
}

fn count(server: &TestServer) -> usize {
    server.take_seen().len()
}

#[test]
fn header_of_200_variable_netcdf4_file_in_few_requests() {
    let work = tempfile::tempdir().unwrap();
    let mut cdl =
        String::from("netcdf many {\ndimensions:\n  x = 1000 ;\n  t = UNLIMITED ;\nvariables:\n");
    for i in 0..200 {
        cdl.push_str(&format!(
            "  float v{i}(t, x) ;\n    v{i}:units = \"m\" ;\n    v{i}:long_name = \"variable {i}\" ;\n"
        ));
    }
    cdl.push_str("data:\n");
    // 5 records of every variable: 4 MB of data among the metadata.
    for i in 0..200 {
        cdl.push_str(&format!(
            " v{i} = {} ;\n",
            vec![format!("{i}.5"); 5000].join(", ")
        ));
    }
    cdl.push_str("}\n");
    let file = generate(&cdl, "nc4", work.path(), "many.nc");
    let server = TestServer::start();
    server.put("/many.nc", std::fs::read(&file).unwrap());
    let local = run(OURS.ncdump, ["-h", file.to_str().unwrap()], work.path());
    let url = format!("{}/many.nc#mode=bytes", server.base());
    let remote = run(OURS.ncdump, ["-h", url.as_str()], work.path());
    assert!(remote.success, "{}", remote.failure("ncdump"));
    assert!(local.stdout == remote.stdout, "remote dump differs");
    let n = count(&server);
    eprintln!(
        "ncdump -h of a {}-byte netCDF-4 file with 200 variables: {n} requests",
        std::fs::metadata(&file).unwrap().len()
    );
    assert!(n <= 10, "{n} requests");
    // The data too, in few requests.
    let remote = run(OURS.ncdump, [url.as_str()], work.path());
    let local = run(OURS.ncdump, [file.to_str().unwrap()], work.path());
    assert!(local.stdout == remote.stdout, "remote dump differs");
    eprintln!("whole ncdump: {} requests", count(&server));

    // netCDF4-python writes each variable's data before defining the next, so the object
    // headers lie between data chunks through the whole file.
    let Some(py) = support::python() else { return };
    let spread = work.path().join("spread.nc");
    let code = format!(
        "import netCDF4, numpy as np\n\
         with netCDF4.Dataset({:?}, 'w') as f:\n\
         \x20   f.createDimension('t', None); f.createDimension('x', 2000)\n\
         \x20   for i in range(200):\n\
         \x20       v = f.createVariable(f'v{{i}}', 'f8', ('t', 'x'), chunksizes=(1, 2000))\n\
         \x20       v.units = 'K'\n\
         \x20       v[:] = np.arange(10000.0).reshape(5, 2000) + i\n",
        spread.to_str().unwrap()
    );
    let r = run_plain(py.to_str().unwrap(), ["-c", code.as_str()], work.path());
    assert!(r.success, "{}", r.failure("python"));
    server.put("/spread.nc", std::fs::read(&spread).unwrap());
    let url = format!("{}/spread.nc#mode=bytes", server.base());
    let remote = run(OURS.ncdump, ["-h", url.as_str()], work.path());
    let local = run(OURS.ncdump, ["-h", spread.to_str().unwrap()], work.path());
    assert!(remote.success, "{}", remote.failure("ncdump"));
    assert!(local.stdout == remote.stdout, "remote dump differs");
    let n = count(&server);
    eprintln!(
        "ncdump -h of a {}-byte netCDF-4 file with 200 variables between their data: {n} requests",
        std::fs::metadata(&spread).unwrap().len()
    );
    assert!(n <= 10, "{n} requests");
}

#[test]
fn record_variable_of_10000_records_in_few_requests() {
    let work = tempfile::tempdir().unwrap();
    let n = 10_000;
    let mut cdl = String::from(
        "netcdf recs {\ndimensions:\n  t = UNLIMITED ;\n  x = 3 ;\n  y = 100 ;\nvariables:\n  int t(t) ;\n  double a(t, x) ;\n  float b(t) ;\n  double c(t, y) ;\ndata:\n",
    );
    let t: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    cdl.push_str(&format!(" t = {} ;\n", t.join(", ")));
    let a: Vec<String> = (0..3 * n).map(|i| format!("{}.25", i % 1000)).collect();
    cdl.push_str(&format!(" a = {} ;\n", a.join(", ")));
    let b: Vec<String> = (0..n).map(|i| format!("{}", i % 77)).collect();
    cdl.push_str(&format!(" b = {} ;\n}}\n", b.join(", ")));
    let file = generate(&cdl, "classic", work.path(), "recs.nc");
    let server = TestServer::start();
    server.put("/recs.nc", std::fs::read(&file).unwrap());
    let url = format!("{}/recs.nc#mode=bytes", server.base());
    for var in ["b", "a"] {
        let local = run(
            OURS.ncdump,
            ["-v", var, file.to_str().unwrap()],
            work.path(),
        );
        let remote = run(OURS.ncdump, ["-v", var, url.as_str()], work.path());
        assert!(remote.success, "{}", remote.failure("ncdump"));
        assert!(local.stdout == remote.stdout, "remote dump differs");
        let requests = count(&server);
        eprintln!("ncdump -v {var} of a 10,000-record classic file: {requests} requests");
        assert!(requests <= 20, "{requests} requests for -v {var}");
    }
}

/// A small classic file to serve in the fault tests.
fn small_file(dir: &Path) -> PathBuf {
    generate(
        "netcdf small {\ndimensions:\n  x = 4 ;\nvariables:\n  int v(x) ;\ndata:\n v = 1, 2, 3, 4 ;\n}\n",
        "classic",
        dir,
        "small.nc",
    )
}

const QUICK: [(&str, &str); 2] = [("PURECDF_HTTP_TIMEOUT", "1"), ("PURECDF_HTTP_RETRIES", "2")];

#[test]
fn faults_give_clean_errors() {
    let work = tempfile::tempdir().unwrap();
    let file = small_file(work.path());
    let server = TestServer::start();
    server.put("/f/small.nc", std::fs::read(&file).unwrap());
    let url = format!("{}/f/small.nc#mode=bytes", server.base());
    let expected = run(OURS.ncdump, [file.to_str().unwrap()], work.path()).stdout;
    let dump = |env: &[(&str, &str)]| run_env(OURS.ncdump, [url.as_str()], work.path(), env);
    let secret = [
        ("AWS_ACCESS_KEY_ID", "AKIDSECRETTEST"),
        ("AWS_SECRET_ACCESS_KEY", "TOPSECRETVALUE123"),
        ("PURECDF_HTTP_TIMEOUT", "1"),
        ("PURECDF_HTTP_RETRIES", "2"),
    ];

    // 500 twice, then success: retried.
    server.set_faults(Faults {
        fail_next: 2,
        ..Faults::default()
    });
    let r = dump(&QUICK);
    assert!(r.success, "{}", r.failure("ncdump"));
    assert!(r.stdout == expected, "remote dump differs");

    // 404, 403 and 500 for good: an error naming the URL, exit status 1.
    for (status, word) in [(404, "404"), (403, "403"), (500, "500")] {
        server.set_faults(Faults {
            status: vec![("/f/".into(), status)],
            ..Faults::default()
        });
        let t0 = std::time::Instant::now();
        let r = dump(&secret);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.code, Some(1), "{status}: {err}");
        assert!(err.contains("/f/small.nc"), "{status}: {err}");
        assert!(!err.contains("TOPSECRET"), "{err}");
        assert!(
            t0.elapsed().as_secs() < 10,
            "{status} took {:?}",
            t0.elapsed()
        );
        // The library's error says what the server answered.
        let e = purecdf::open(&url).unwrap_err().to_string();
        assert!(
            e.contains("/f/small.nc") && e.contains(word),
            "{status}: {e}"
        );
    }

    // Truncated bodies: retried, then an error.
    server.set_faults(Faults {
        truncate: true,
        ..Faults::default()
    });
    let r = dump(&QUICK);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.code, Some(1), "{err}");
    assert!(err.contains("small.nc"), "{err}");

    // A server that ignores Range still works.
    server.set_faults(Faults {
        ignore_range: true,
        ..Faults::default()
    });
    let r = dump(&QUICK);
    assert!(r.success, "{}", r.failure("ncdump"));
    assert!(r.stdout == expected, "remote dump differs");

    // Slow answers: a time-out, not a hang.
    server.set_faults(Faults {
        delay: Some(std::time::Duration::from_secs(5)),
        ..Faults::default()
    });
    let t0 = std::time::Instant::now();
    let r = run_env(
        OURS.ncdump,
        [url.as_str()],
        work.path(),
        &[
            ("PURECDF_HTTP_TIMEOUT", "0.5"),
            ("PURECDF_HTTP_RETRIES", "1"),
        ],
    );
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.code, Some(1), "{err}");
    assert!(err.contains("small.nc"), "{err}");
    assert!(t0.elapsed().as_secs() < 15, "took {:?}", t0.elapsed());

    // Nothing listening.
    server.set_faults(Faults::default());
    server.stop();
    let r = dump(&QUICK);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.code, Some(1), "{err}");
    assert!(err.contains("small.nc"), "{err}");
}

/// The library: a server that stops while a big variable is being read gives an error, and a
/// bad URL an error naming it.
#[test]
fn server_stopping_mid_read() {
    let work = tempfile::tempdir().unwrap();
    let mut cdl =
        String::from("netcdf big {\ndimensions:\n  x = 4000000 ;\nvariables:\n  int v(x) ;\n}\n");
    cdl.push('\n');
    let file = generate(&cdl, "classic", work.path(), "big.nc");
    let server = TestServer::start();
    server.put("/big.nc", std::fs::read(&file).unwrap());
    let url = format!("{}/big.nc#mode=bytes", server.base());
    let f = purecdf::open(&url).expect("open over HTTP");
    let v = f.variable("v").unwrap();
    let first: Vec<i32> = v.get_values((&[0u64][..], &[10u64][..])).unwrap();
    assert_eq!(first, vec![-2147483647; 10]);
    server.stop();
    let t0 = std::time::Instant::now();
    let all: purecdf::Result<Vec<i32>> = v.get_values(..);
    let err = all.unwrap_err();
    assert!(err.to_string().contains("big.nc"), "{err}");
    assert!(t0.elapsed().as_secs() < 20, "took {:?}", t0.elapsed());
    let err = purecdf::open("http://127.0.0.1:1/nothing.nc#mode=bytes").unwrap_err();
    assert!(err.to_string().contains("nothing.nc"), "{err}");
}

/// The chunks of a netCDF-4 variable are fetched in parallel: reading a variable of eight 1 MiB
/// chunks through the library, with every answer delayed, has several requests in flight at
/// the server at once (the chunks are read on rayon's pool, which needs two cores or more).
#[test]
fn chunks_are_fetched_in_parallel() {
    let Some(py) = support::python() else { return };
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("chunky.nc");
    let code = format!(
        "import netCDF4, numpy as np\n\
         with netCDF4.Dataset({:?}, 'w') as f:\n\
         \x20   f.createDimension('y', 8); f.createDimension('x', 262144)\n\
         \x20   v = f.createVariable('v', 'f4', ('y', 'x'), chunksizes=(1, 262144))\n\
         \x20   v[:] = np.arange(8 * 262144, dtype='f4').reshape(8, 262144)\n",
        file.to_str().unwrap()
    );
    let r = run_plain(py.to_str().unwrap(), ["-c", code.as_str()], work.path());
    assert!(r.success, "{}", r.failure("python"));
    let server = TestServer::start();
    server.put("/chunky.nc", std::fs::read(&file).unwrap());
    let url = format!("{}/chunky.nc#mode=bytes", server.base());
    let f = purecdf::open(&url).expect("open over HTTP");
    let v = f.variable("v").unwrap();
    server.set_faults(Faults {
        delay: Some(std::time::Duration::from_millis(300)),
        ..Faults::default()
    });
    server.take_max_in_flight();
    count(&server);
    let values: Vec<f32> = v.get_values(..).unwrap();
    assert!(values.iter().enumerate().all(|(i, &x)| x == i as f32));
    let most = server.take_max_in_flight();
    let gets = count(&server);
    eprintln!("8 chunks of 1 MiB: {gets} requests, at most {most} at once");
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if cores >= 2 {
        assert!(
            most > 1,
            "{most} request(s) in flight at once, {gets} in all"
        );
    }
}

/// netCDF4-python (netcdf-c 4.10, which has byte-range reading) reads the same files over the
/// same server: every value as it reads them from disk (and ours over HTTP are ours from disk,
/// which the other tests hold to netcdf-c's). Prints both sides' request counts and times for
/// reading every variable.
#[test]
fn netcdf4_python_reads_the_same_over_http() {
    let Some(py) = support::python() else { return };
    let work = tempfile::tempdir().unwrap();
    let mut cdl =
        String::from("netcdf wide {\ndimensions:\n  x = 2000 ;\n  t = UNLIMITED ;\nvariables:\n");
    for i in 0..50 {
        cdl.push_str(&format!(
            "  double v{i}(t, x) ;\n    v{i}:units = \"K\" ;\n"
        ));
    }
    cdl.push_str("data:\n");
    for i in 0..50 {
        let vals: Vec<String> = (0..4000)
            .map(|j| format!("{}.{}", i * 7 + j % 13, j % 10))
            .collect();
        cdl.push_str(&format!(" v{i} = {} ;\n", vals.join(", ")));
    }
    cdl.push_str("}\n");
    let wide = generate(&cdl, "nc4", work.path(), "wide.nc");
    let mut recs = String::from("netcdf recs {\ndimensions:\n  t = UNLIMITED ;\n  y = 50 ;\nvariables:\n  float b(t) ;\n  double c(t, y) ;\ndata:\n");
    let b: Vec<String> = (0..2_000).map(|i| format!("{}", i % 97)).collect();
    recs.push_str(&format!(" b = {} ;\n}}\n", b.join(", ")));
    let recs = generate(&recs, "classic", work.path(), "recs.nc");
    let server = TestServer::start();
    let mut urls = Vec::new();
    let mut locals = Vec::new();
    for f in [&wide, &recs] {
        let name = f.file_name().unwrap().to_str().unwrap();
        server.put(&format!("/{name}"), std::fs::read(f).unwrap());
        urls.push(PathBuf::from(format!(
            "{}/{name}#mode=bytes",
            server.base()
        )));
        locals.push(f.clone());
    }
    let remote = support::python_dump(&py, "nc", &urls, work.path());
    let local = support::python_dump(&py, "nc", &locals, work.path());
    for (u, l) in urls.iter().zip(&locals) {
        let (r, l) = (&remote[u], &local[l]);
        assert!(
            r.len() > 3 && !r.iter().any(|x| x.starts_with("ERROR")),
            "{u:?}: {r:?}"
        );
        assert!(r == l, "{u:?}: netCDF4-python reads other values over HTTP");
    }
    // Reading every variable: netCDF4-python against our nccopy (which reads them all too).
    server.take_seen();
    for url in &urls {
        let url = url.to_str().unwrap();
        let t0 = std::time::Instant::now();
        let code = format!(
            "import netCDF4\nd = netCDF4.Dataset({url:?})\nfor v in d.variables.values():\n    v[...]\n"
        );
        let r = run_plain(py.to_str().unwrap(), ["-c", code.as_str()], work.path());
        assert!(r.success, "{}", r.failure("python"));
        let theirs = (t0.elapsed(), server.take_seen().len());
        let t0 = std::time::Instant::now();
        let out = work.path().join("copy.nc");
        let r = run(
            env!("CARGO_BIN_EXE_nccopy"),
            [url, out.to_str().unwrap()],
            work.path(),
        );
        assert!(r.success, "{}", r.failure("nccopy"));
        let ours = (t0.elapsed(), server.take_seen().len());
        eprintln!(
            "{url}: netCDF4-python {} requests in {:.2?}; purecdf nccopy {} requests in {:.2?}",
            theirs.1, theirs.0, ours.1, ours.0
        );
        assert!(ours.1 <= theirs.1, "more requests than netCDF4-python");
    }
}

/// `https://`: a server whose certificate a private authority signed, trusted through
/// `PURECDF_CA_BUNDLE` (as curl's `CURL_CA_BUNDLE`), and refused without it.
#[test]
fn https_with_a_private_authority() {
    let Some(py) = support::python() else { return };
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    let openssl = |args: &[&str]| {
        let r = run("openssl", args, dir);
        if r.code.is_none() && !r.success {
            return support::unavailable::<()>("openssl").is_some();
        }
        assert!(r.success, "{}", r.failure("openssl"));
        true
    };
    let ext = dir.join("leaf.ext");
    std::fs::write(
        &ext,
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    let made = openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=purecdf test authority",
    ]) && openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]) && openssl(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "leaf.pem",
        "-days",
        "2",
        "-extfile",
        "leaf.ext",
    ]);
    if !made {
        return;
    }
    let file = small_file(dir);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/range_server.py");
    let mut server = std::process::Command::new(&py)
        .args([
            script.as_os_str(),
            dir.as_os_str(),
            "leaf.pem".as_ref(),
            "leaf.key".as_ref(),
        ])
        .current_dir(dir)
        .env("LATENCY_MS", "0")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut port = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(server.stdout.take().unwrap()),
        &mut port,
    )
    .unwrap();
    let url = format!("https://127.0.0.1:{}/small.nc#mode=bytes", port.trim());
    let ca = dir.join("ca.pem");
    let expected = run(OURS.ncdump, [file.to_str().unwrap()], dir).stdout;
    let trusted = run_env(
        OURS.ncdump,
        [url.as_str()],
        dir,
        &[("PURECDF_CA_BUNDLE", ca.to_str().unwrap())],
    );
    let untrusted = run_env(OURS.ncdump, [url.as_str()], dir, &QUICK);
    let _ = server.kill();
    let _ = server.wait();
    assert!(trusted.success, "{}", trusted.failure("ncdump"));
    assert!(trusted.stdout == expected, "dump over HTTPS differs");
    assert_eq!(untrusted.code, Some(1), "an unknown authority was accepted");
}
