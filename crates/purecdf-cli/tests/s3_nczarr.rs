//! NCZarr on S3 (issue 11) against a real S3 server on 127.0.0.1: moto's, started by
//! `python/s3_server.py` with SigV4 checked (a wrong secret is refused), and our counting test
//! server for request counts and failed uploads.
//!
//! - every NCZarr test store (netcdf-c 4.9.0's and 4.10's fixtures, netcdf-c's own zip stores),
//!   uploaded object by object, dumps from S3 as from disk;
//! - `nccopy` to S3 writes the very objects it writes to a directory (as boto3 lists them), and
//!   the S3 copy dumps as the source; `ncgen -o` an S3 URL likewise; pure Zarr too;
//! - URL forms (`http://127.0.0.1:PORT/bucket/key`, `s3://bucket/key` with
//!   `AWS_ENDPOINT_URL`), credentials from the environment and from `~/.aws` profiles, refused
//!   credentials and anonymous access giving clean errors that never print the secret;
//! - `#mode=bytes,s3` reading of netCDF-4 and classic objects with signed range requests, and of
//!   HDF5 files whose external links and virtual datasets name objects beside them;
//! - request counts (no `HEAD`, one `LIST` per listing) and a failed upload leaving no store
//!   that opens.

mod support;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use support::http_server::{Faults, TestServer};
use support::{run_env, run_plain, OURS};

const NCCOPY: &str = env!("CARGO_BIN_EXE_nccopy");

/// moto's server, stopped when dropped.
struct Moto {
    child: Child,
    endpoint: String,
    key: String,
    secret: String,
    bucket: String,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_moto() -> Option<Moto> {
    let python = support::python()?;
    let has_moto = Command::new(&python)
        .args(["-c", "import moto.server, boto3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !has_moto {
        return support::unavailable("moto[server] in the test Python");
    }
    let mut child = Command::new(&python)
        .arg(support::python_script("s3_server.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start moto");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("moto's first line");
    let v: serde_json::Value = serde_json::from_str(&line)
        .unwrap_or_else(|e| panic!("moto did not start ({e}): {line:?}"));
    let s = |k: &str| v[k].as_str().unwrap().to_string();
    Some(Moto {
        endpoint: s("endpoint"),
        key: s("access_key_id"),
        secret: s("secret_access_key"),
        bucket: s("bucket"),
        child,
    })
}

impl Moto {
    /// `http://127.0.0.1:PORT/bucket/name#mode=...`.
    fn url(&self, name: &str, mode: &str) -> String {
        format!("{}/{}/{name}#mode={mode}", self.endpoint, self.bucket)
    }

    /// The environment a tool needs: the keys, a region, and a `HOME` without `.aws`.
    fn env<'a>(&'a self, home: &'a str) -> Vec<(&'a str, &'a str)> {
        vec![
            ("AWS_ACCESS_KEY_ID", &self.key),
            ("AWS_SECRET_ACCESS_KEY", &self.secret),
            ("AWS_REGION", "us-east-1"),
            ("HOME", home),
        ]
    }

    fn client(&self, key: &str) -> purecdf::store::remote::S3Client {
        use purecdf::store::remote::{AwsProfile, Credentials, HttpSettings, S3Client, S3Url};
        let url = format!("{}/{}/{key}", self.endpoint, self.bucket);
        S3Client::new(
            S3Url::parse(&url, &AwsProfile::default()).unwrap(),
            Some(Credentials {
                access_key_id: self.key.clone(),
                secret_access_key: self.secret.clone(),
                session_token: None,
            }),
            HttpSettings::default(),
        )
    }

    /// Uploads every file below `dir` as `prefix/relative/path`.
    fn upload_tree(&self, dir: &Path, prefix: &str) {
        let client = self.client(prefix);
        for (rel, bytes) in tree(dir) {
            client.put(&format!("{prefix}/{rel}"), &bytes).unwrap();
        }
    }

    /// `key → sha256` of every object below `prefix`, as boto3 sees them.
    fn listing(&self, prefix: &str, dir: &Path) -> BTreeMap<String, String> {
        let python = support::python().unwrap();
        let r = run_plain(
            python.to_str().unwrap(),
            [
                support::python_script("s3_server.py").to_str().unwrap(),
                "list",
                &self.endpoint,
                &self.key,
                &self.secret,
                &self.bucket,
                &format!("{prefix}/"),
            ],
            dir,
        );
        assert!(r.success, "{}", r.failure("s3_server.py list"));
        String::from_utf8(r.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let (k, h) = l.split_once('\t').unwrap();
                (
                    k.strip_prefix(prefix).unwrap()[1..].to_string(),
                    h.to_string(),
                )
            })
            .collect()
    }
}

/// Every file below `dir`: relative path → bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn sha256_tree(dir: &Path) -> BTreeMap<String, String> {
    use sha2::{Digest, Sha256};
    tree(dir)
        .into_iter()
        .map(|(k, v)| {
            let h = Sha256::digest(&v);
            (k, h.iter().map(|b| format!("{b:02x}")).collect())
        })
        .collect()
}

fn nczarr_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../purecdf/tests/data/nczarr")
}

/// The directory stores of the previous issue's fixtures: netcdf-c 4.9.0's and 4.10's.
fn fixture_stores() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for set in ["nc490", "nc410"] {
        for e in std::fs::read_dir(nczarr_data().join(set))
            .unwrap()
            .flatten()
        {
            if e.path().is_dir() && e.path().extension().is_some_and(|x| x == "zarr") {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

fn dump(args: &[&str], env: &[(&str, &str)], dir: &Path) -> (Option<i32>, String, String) {
    let r = run_env(OURS.ncdump, args, dir, env);
    (
        r.code,
        String::from_utf8_lossy(&r.stdout).into_owned(),
        String::from_utf8_lossy(&r.stderr).into_owned(),
    )
}

#[test]
fn fixture_stores_read_from_s3_as_from_disk() {
    let Some(moto) = start_moto() else { return };
    let work = tempfile::tempdir().unwrap();
    let home = work.path().to_str().unwrap();
    let env = moto.env(home);
    let stores = fixture_stores();
    assert!(stores.len() >= 6, "{stores:?}");
    let mut failures = Vec::new();
    for store in &stores {
        let set = store
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let name = store.file_name().unwrap().to_str().unwrap();
        let prefix = format!("read/{set}/{name}");
        moto.upload_tree(store, &prefix);
        for mode in ["nczarr,s3", "zarr,s3"] {
            let local = format!(
                "file://{}#mode={}",
                store.display(),
                mode.replace("s3", "file")
            );
            let remote = moto.url(&prefix, mode);
            for flags in [&[][..], &["-h", "-s"][..]] {
                let mut a: Vec<&str> = flags.to_vec();
                a.push(&local);
                let here = dump(&a, &env, work.path());
                *a.last_mut().unwrap() = &remote;
                let there = dump(&a, &env, work.path());
                if here.0 != Some(0) || here.0 != there.0 || here.1 != there.1 {
                    failures.push(format!(
                        "{set}/{name} {mode} {flags:?}: exit {:?} / {:?}: {}",
                        here.0, there.0, there.2
                    ));
                }
            }
        }
    }
    support::assert_no_failures("stores read from S3", &failures);
}

/// A Zarr v3 store of sharded arrays (index at the start and at the end, missing shards and
/// inner chunks) reads from S3, where each shard's index and inner chunks are fetched with range
/// requests, as from disk.
#[test]
fn sharded_zarr_v3_reads_from_s3_with_ranges() {
    let Some(moto) = start_moto() else { return };
    let work = tempfile::tempdir().unwrap();
    let env = moto.env(work.path().to_str().unwrap());
    let store = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../purecdf/tests/data/zarr_v3_sharded/sharded.zarr");
    moto.upload_tree(&store, "read/v3/sharded.zarr");
    let local = format!("file://{}#mode=zarr,file", store.display());
    let remote = moto.url("read/v3/sharded.zarr", "zarr,s3");
    for flags in [&[][..], &["-h", "-s"][..]] {
        let mut a: Vec<&str> = flags.to_vec();
        a.push(&local);
        let here = dump(&a, &env, work.path());
        *a.last_mut().unwrap() = &remote;
        let there = dump(&a, &env, work.path());
        assert_eq!(here.0, Some(0), "{flags:?}: {}", here.2);
        assert_eq!(there.0, Some(0), "{flags:?}: {}", there.2);
        assert!(
            here.1 == there.1,
            "{flags:?}: S3 dump differs:\n{}",
            there.1
        );
        assert!(here.1.contains("data:") || !flags.is_empty());
    }
}

#[test]
fn nccopy_and_ncgen_write_to_s3() {
    let Some(moto) = start_moto() else { return };
    let work = tempfile::tempdir().unwrap();
    let home = work.path().to_str().unwrap();
    let env = moto.env(home);
    let mut failures = Vec::new();
    for store in fixture_stores() {
        let name = store.file_name().unwrap().to_str().unwrap().to_string();
        let source = format!("file://{}#mode=nczarr,file", store.display());
        for mode in ["nczarr", "zarr"] {
            let prefix = format!("copy/{mode}/{name}");
            let to_s3 = moto.url(&prefix, &format!("{mode},s3"));
            let dir = work.path().join(mode).join(&name);
            std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
            let to_dir = format!("file://{}#mode={mode},file", dir.display());
            for target in [&to_s3, &to_dir] {
                let r = run_env(
                    NCCOPY,
                    [source.as_str(), target.as_str()],
                    work.path(),
                    &env,
                );
                assert!(r.success, "{name} → {target}: {}", r.failure("nccopy"));
            }
            // The same objects, byte for byte, but for the provenance (it names no time, so
            // it is the same too).
            let s3 = moto.listing(&prefix, work.path());
            let disk = sha256_tree(&dir);
            if s3 != disk {
                failures.push(format!(
                    "{name} {mode}: S3 objects {s3:?} ≠ directory {disk:?}"
                ));
            }
            let here = dump(&[&to_dir], &env, work.path());
            let there = dump(&[&to_s3], &env, work.path());
            if here.1 != there.1 || there.0 != Some(0) || here.0 != Some(0) {
                failures.push(format!("{name} {mode}: dumps differ: {}", there.2));
            }
        }
    }
    // ncgen straight to S3, pure Zarr and NCZarr, and an s3:// URL through AWS_ENDPOINT_URL.
    let cdl = nczarr_data().join("cdl/types.cdl");
    let mut env_endpoint = env.clone();
    env_endpoint.push(("AWS_ENDPOINT_URL", &moto.endpoint));
    for (url, local) in [
        (moto.url("gen/types", "nczarr,s3"), "types-nczarr"),
        (
            format!("s3://{}/gen/types-s3#mode=zarr,s3", moto.bucket),
            "types-zarr",
        ),
    ] {
        let mode = if url.contains("zarr,s3") && !url.contains("nczarr") {
            "zarr"
        } else {
            "nczarr"
        };
        let dir = work.path().join(local);
        let file_url = format!("file://{}#mode={mode},file", dir.display());
        for target in [&url, &file_url] {
            let r = run_env(
                OURS.ncgen,
                ["-4", "-o", target.as_str(), cdl.to_str().unwrap()],
                work.path(),
                &env_endpoint,
            );
            assert!(r.success, "{}", r.failure("ncgen"));
        }
        let here = dump(&[&file_url], &env_endpoint, work.path());
        let there = dump(&[&url], &env_endpoint, work.path());
        assert_eq!(there.0, Some(0), "{}", there.2);
        assert_eq!(
            here.1.lines().skip(1).collect::<Vec<_>>(),
            there.1.lines().skip(1).collect::<Vec<_>>()
        );
    }
    // netcdf-c's own zipped test stores (those our ncdump reads), copied to S3 and back.
    let Some(data) = support::netcdf_c_data() else {
        return;
    };
    let mut copied = 0;
    for e in std::fs::read_dir(data.join("nczarr_test"))
        .unwrap()
        .flatten()
    {
        let p = e.path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".zip") {
            continue;
        }
        let source = format!("file://{}#mode=nczarr,zip", p.display());
        let here = dump(&[&source], &env, work.path());
        if here.0 != Some(0) {
            continue;
        }
        let stem = name
            .trim_end_matches(".zip")
            .trim_end_matches(".zarr")
            .trim_end_matches(".file");
        let url = moto.url(&format!("zips/{stem}"), "nczarr,s3");
        let r = run_env(NCCOPY, [source.as_str(), url.as_str()], work.path(), &env);
        assert!(r.success, "{name}: {}", r.failure("nccopy"));
        let there = dump(&[&url], &env, work.path());
        let body = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
        if there.0 != Some(0) || body(&here.1) != body(&there.1) {
            failures.push(format!("{name}: S3 copy dumps differently: {}", there.2));
        }
        copied += 1;
    }
    assert!(copied >= 3, "only {copied} of netcdf-c's zip stores copied");
    support::assert_no_failures("stores written to S3", &failures);
}

#[test]
fn credentials_profiles_and_refusals() {
    let Some(moto) = start_moto() else { return };
    let work = tempfile::tempdir().unwrap();
    let store = nczarr_data().join("nc490/groups_nczarr.zarr");
    moto.upload_tree(&store, "creds/groups_nczarr.zarr");
    let url = moto.url("creds/groups_nczarr.zarr", "nczarr,s3");
    let local = format!("file://{}#mode=nczarr,file", store.display());
    let expected = dump(&[&local], &[], work.path()).1;

    // A profile in ~/.aws, chosen by AWS_PROFILE.
    let aws = work.path().join(".aws");
    std::fs::create_dir_all(&aws).unwrap();
    std::fs::write(
        aws.join("credentials"),
        format!(
            "[default]\naws_access_key_id = WRONG\naws_secret_access_key = WRONG\n\n[tests]\naws_access_key_id = {}\naws_secret_access_key = {}\n",
            moto.key, moto.secret
        ),
    )
    .unwrap();
    std::fs::write(aws.join("config"), "[profile tests]\nregion = us-east-1\n").unwrap();
    let home = work.path().to_str().unwrap();
    let r = dump(
        &[&url],
        &[("HOME", home), ("AWS_PROFILE", "tests")],
        work.path(),
    );
    assert_eq!(r.0, Some(0), "{}", r.2);
    assert_eq!(r.1, expected);

    // The default profile's key does not exist; a wrong secret does not sign right; no
    // credentials at all is anonymous access, which this bucket refuses.
    let wrong_secret = [
        ("HOME", "/nonexistent"),
        ("AWS_ACCESS_KEY_ID", moto.key.as_str()),
        ("AWS_SECRET_ACCESS_KEY", "NOTTHESECRETxyz123"),
    ];
    for env in [
        &[("HOME", home)][..],
        &wrong_secret[..],
        &[("HOME", "/nonexistent")][..],
    ] {
        let t0 = std::time::Instant::now();
        let r = dump(&[&url], env, work.path());
        assert_eq!(r.0, Some(1), "{env:?}: {}", r.2);
        assert!(r.2.contains("creds/groups"), "{}", r.2);
        assert!(
            !r.2.contains("NOTTHESECRET") && !r.2.contains(&moto.secret),
            "{}",
            r.2
        );
        assert!(t0.elapsed().as_secs() < 30);
    }
    // The library says what S3 answered.
    let client = moto.client("x");
    drop(client);
    let bad = purecdf::store::remote::S3Store::with_credentials(
        purecdf::store::remote::S3Url::parse(&url, &Default::default()).unwrap(),
        Some(purecdf::store::remote::Credentials {
            access_key_id: moto.key.clone(),
            secret_access_key: "NOTTHESECRETxyz123".into(),
            session_token: None,
        }),
        Default::default(),
        false,
    );
    let e = purecdf::open_store(Box::new(bad)).unwrap_err().to_string();
    assert!(
        e.contains("403") && e.contains("SignatureDoesNotMatch"),
        "{e}"
    );
    assert!(!e.contains("NOTTHESECRET"), "{e}");
}

#[test]
fn byte_range_reading_from_s3() {
    let Some(moto) = start_moto() else { return };
    let work = tempfile::tempdir().unwrap();
    let home = work.path().to_str().unwrap();
    let env = moto.env(home);
    let Some(data) = support::netcdf_c_data() else {
        return;
    };
    let client = moto.client("bytes");
    for rel in [
        "ncdump/ref_tst_comp.nc",
        "nc_test4/ref_tst_compounds.nc",
        "ncdump/small.nc",
    ] {
        let path = data.join(rel);
        if !path.is_file() {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        client
            .put(&format!("bytes/{name}"), &std::fs::read(&path).unwrap())
            .unwrap();
        let url = moto.url(&format!("bytes/{name}"), "bytes,s3");
        let here = dump(&[path.to_str().unwrap()], &env, work.path());
        let there = dump(&[&url], &env, work.path());
        assert_eq!(there.0, here.0, "{rel}: {}", there.2);
        assert_eq!(there.1, here.1, "{rel}");
    }
    // Files whose external links and virtual datasets name siblings, found in the same bucket.
    let wild = data.parent().unwrap().join("hdf5-wild");
    let linked = [
        "vds_stack",
        "vds_src_0",
        "vds_src_1",
        "vds_src_2",
        "elink_group",
    ];
    for stem in linked.iter().chain(&["elink_target"]) {
        let path = wild.join(format!("{stem}.h5"));
        client
            .put(
                &format!("bytes/wild/{stem}.h5"),
                &std::fs::read(&path).unwrap(),
            )
            .unwrap();
    }
    for stem in linked {
        let path = wild.join(format!("{stem}.h5"));
        let url = moto.url(&format!("bytes/wild/{stem}.h5"), "bytes,s3");
        let here = dump(&["-s", path.to_str().unwrap()], &env, work.path());
        let there = dump(&["-s", &url], &env, work.path());
        assert_eq!(there.0, here.0, "{stem}: {}", there.2);
        assert_eq!(there.1, here.1, "{stem}");
    }
}

/// Serves fixture store `nc490/{name}.zarr` from the test server under `/bkt`, with `faults`;
/// checks that `ncdump` of it in `mode` (`nczarr` or `zarr`) prints what it prints for the store
/// on disk, and returns the requests that dump made.
fn dump_served_store(
    server: &TestServer,
    work: &Path,
    name: &str,
    mode: &str,
    faults: Faults,
) -> Vec<support::http_server::Seen> {
    let store = nczarr_data().join(format!("nc490/{name}.zarr"));
    for (rel, bytes) in tree(&store) {
        server.put(&format!("/bkt/{name}.zarr/{rel}"), bytes);
    }
    server.set_faults(faults);
    let env = [("HOME", "/nonexistent"), ("PURECDF_HTTP_RETRIES", "1")];
    let url = format!("{}/bkt/{name}.zarr#mode={mode},s3", server.base());
    let local = format!("file://{}#mode={mode},file", store.display());
    server.take_seen();
    let there = dump(&[&url], &env, work);
    assert_eq!(there.0, Some(0), "{}", there.2);
    let seen = server.take_seen();
    assert_eq!(there.1, dump(&[&local], &env, work).1);
    seen
}

#[test]
fn few_requests_and_failed_uploads() {
    let server = TestServer::start();
    let work = tempfile::tempdir().unwrap();
    let seen = dump_served_store(
        &server,
        work.path(),
        "groups_nczarr",
        "nczarr",
        Faults::default(),
    );
    let store = nczarr_data().join("nc490/groups_nczarr.zarr");
    let env = [("HOME", "/nonexistent"), ("PURECDF_HTTP_RETRIES", "1")];
    let local = format!("file://{}#mode=nczarr,file", store.display());
    let heads = seen.iter().filter(|s| s.method == "HEAD").count();
    let lists = seen
        .iter()
        .filter(|s| s.query.contains("list-type=2"))
        .count();
    let gets = seen.len() - heads - lists;
    eprintln!("ncdump of an NCZarr store on S3: {gets} GET, {lists} LIST, {heads} HEAD");
    assert_eq!(heads, 0, "{seen:?}");
    let groups = tree(&store)
        .keys()
        .filter(|k| k.ends_with(".zgroup"))
        .count();
    assert!(lists <= groups, "{lists} listings for {groups} groups");

    // An upload that fails: nccopy fails, and no store opens there.
    server.set_faults(Faults {
        fail_put_containing: Some("/0".into()),
        ..Faults::default()
    });
    let target = format!("{}/bkt/failed#mode=nczarr,s3", server.base());
    let r = run_env(NCCOPY, [local.as_str(), target.as_str()], work.path(), &env);
    assert!(!r.success, "nccopy reported success");
    let objects = server.objects();
    assert!(
        !objects.contains_key("/bkt/failed/.zgroup"),
        "{:?}",
        objects.keys().collect::<Vec<_>>()
    );
    let after = dump(&[&target], &env, work.path());
    assert_eq!(after.0, Some(1), "{}", after.1);
}

/// A server whose listings never end, their continuation tokens going round A, B, A: each
/// listing (a pure Zarr store is found by listing) stops at the first token seen before (three
/// pages), and the store dumps as on disk.
#[test]
fn listings_whose_tokens_go_round_end() {
    let server = TestServer::start();
    let work = tempfile::tempdir().unwrap();
    let faults = Faults {
        cycle_list_tokens: true,
        ..Faults::default()
    };
    let seen = dump_served_store(&server, work.path(), "groups_zarr", "zarr", faults);
    let lists = seen
        .iter()
        .filter(|s| s.query.contains("list-type=2"))
        .count();
    let firsts = seen
        .iter()
        .filter(|s| s.query.contains("list-type=2") && !s.query.contains("continuation-token"))
        .count();
    assert!(firsts > 0, "no listing: {seen:?}");
    assert_eq!(lists, 3 * firsts, "{seen:?}");
}

/// Shards on S3 are read with range requests (the index, then the inner chunks), and read the
/// same from a server that ignores `Range` and sends whole objects.
#[test]
fn shards_on_s3_are_read_by_ranges() {
    let server = TestServer::start();
    let work = tempfile::tempdir().unwrap();
    let store = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../purecdf/tests/data/zarr_v3_sharded/sharded.zarr");
    let objects = tree(&store);
    for (rel, bytes) in &objects {
        server.put(&format!("/bkt/sharded.zarr/{rel}"), bytes.clone());
    }
    let env = [("HOME", "/nonexistent"), ("PURECDF_HTTP_RETRIES", "1")];
    let url = format!("{}/bkt/sharded.zarr#mode=zarr,s3", server.base());
    let local = dump(
        &[&format!("file://{}#mode=zarr,file", store.display())],
        &env,
        work.path(),
    );
    assert_eq!(local.0, Some(0), "{}", local.2);
    server.take_seen();
    let there = dump(&[&url], &env, work.path());
    assert_eq!(there.0, Some(0), "{}", there.2);
    assert!(there.1 == local.1, "S3 dump differs:\n{}", there.1);
    // Shards (keys `.../c/i/j`) are fetched by ranges only.
    let seen = server.take_seen();
    let chunk_gets: Vec<&support::http_server::Seen> = seen
        .iter()
        .filter(|s| s.method == "GET" && s.path.contains("/c/"))
        .collect();
    assert!(!chunk_gets.is_empty(), "{seen:?}");
    assert!(
        chunk_gets.iter().all(|s| s.range.is_some()),
        "whole-object GETs of shards: {chunk_gets:?}"
    );
    server.set_faults(Faults {
        ignore_range: true,
        ..Faults::default()
    });
    let whole = dump(&[&url], &env, work.path());
    assert_eq!(whole.0, Some(0), "{}", whole.2);
    assert!(
        whole.1 == local.1,
        "S3 dump without ranges differs:\n{}",
        whole.1
    );
}
