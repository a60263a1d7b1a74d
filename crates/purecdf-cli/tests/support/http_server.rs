//! A small HTTP/1.1 server on 127.0.0.1 for the remote-access tests: it serves objects from
//! memory with `Range` support (`HEAD`, `GET`, 206 and `Content-Range`), accepts `PUT` and
//! `DELETE`, answers S3's `ListObjectsV2` (`?list-type=2&prefix=&delimiter=`), counts every
//! request, and injects faults: a fixed status for some paths, failures of the first N
//! requests, truncated bodies, slow answers, and stopping while a client is reading. It checks
//! no signature (the S3 protocol with SigV4 is tested against moto's server).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub query: String,
    pub range: Option<String>,
}

/// Faults to inject.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// Paths (prefix match) answered with this status.
    pub status: Vec<(String, u16)>,
    /// Answer the next N requests with 500.
    pub fail_next: u32,
    /// Send only half the body of every `GET` (with the full `Content-Length`).
    pub truncate: bool,
    /// Wait this long before answering.
    pub delay: Option<Duration>,
    /// `PUT`s to keys containing this text fail with 500 (an upload that does not complete).
    pub fail_put_containing: Option<String>,
    /// Ignore `Range` (answer 200 with the whole object), as some servers do.
    pub ignore_range: bool,
    /// Answer every listing "truncated", with continuation tokens going round A, B, A, ...
    pub cycle_list_tokens: bool,
}

#[derive(Default)]
struct State {
    objects: BTreeMap<String, Vec<u8>>,
    seen: Vec<Seen>,
    faults: Faults,
    in_flight: usize,
    max_in_flight: usize,
}

/// A request in flight, from the end of its header until its answer is written.
struct InFlight<'a>(&'a Mutex<State>);

impl InFlight<'_> {
    fn start(state: &Mutex<State>) -> InFlight<'_> {
        let mut st = state.lock().unwrap();
        st.in_flight += 1;
        st.max_in_flight = st.max_in_flight.max(st.in_flight);
        InFlight(state)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Ok(mut st) = self.0.lock() {
            st.in_flight -= 1;
        }
    }
}

/// The running server; stopped when dropped.
pub struct TestServer {
    pub port: u16,
    state: Arc<Mutex<State>>,
    stopped: Arc<AtomicBool>,
}

impl TestServer {
    pub fn start() -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State::default()));
        let stopped = Arc::new(AtomicBool::new(false));
        let (s, st) = (state.clone(), stopped.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if st.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (s, st) = (s.clone(), st.clone());
                std::thread::spawn(move || serve(conn, &s, &st));
            }
        });
        TestServer {
            port,
            state,
            stopped,
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Serves `bytes` at `path` (starting with `/`).
    pub fn put(&self, path: &str, bytes: Vec<u8>) {
        self.state
            .lock()
            .unwrap()
            .objects
            .insert(path.to_string(), bytes);
    }

    /// The objects held (e.g. what a client uploaded).
    pub fn objects(&self) -> BTreeMap<String, Vec<u8>> {
        self.state.lock().unwrap().objects.clone()
    }

    pub fn set_faults(&self, faults: Faults) {
        self.state.lock().unwrap().faults = faults;
    }

    /// The requests seen since the last call, which forgets them.
    pub fn take_seen(&self) -> Vec<Seen> {
        std::mem::take(&mut self.state.lock().unwrap().seen)
    }

    /// The most requests in flight at once since the last call, which resets the count.
    pub fn take_max_in_flight(&self) -> usize {
        let mut st = self.state.lock().unwrap();
        let now = st.in_flight;
        std::mem::replace(&mut st.max_in_flight, now)
    }

    /// Stops accepting and answering: open connections are closed at their next request.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn serve(conn: TcpStream, state: &Mutex<State>, stopped: &AtomicBool) {
    let _ = conn.set_read_timeout(Some(Duration::from_secs(30)));
    let _ = conn.set_nodelay(true);
    let mut reader = BufReader::new(conn.try_clone().expect("clone socket"));
    let mut out = conn;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || stopped.load(Ordering::SeqCst) {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, target) = (
            parts.next().unwrap_or("").to_string(),
            parts.next().unwrap_or("/").to_string(),
        );
        let mut headers = BTreeMap::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        let len: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0u8; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let (path, query) = target.split_once('?').unwrap_or((&target, ""));
        let seen = Seen {
            method: method.clone(),
            path: purecdf::store::percent_decode(path),
            query: query.to_string(),
            range: headers.get("range").cloned(),
        };
        let _flight = InFlight::start(state);
        let (status, extra, payload, truncate, delay) = respond(state, &seen, body);
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
        if stopped.load(Ordering::SeqCst) {
            return;
        }
        let mut head = format!(
            "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\n",
            payload.len()
        );
        for (k, v) in extra {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let send = if method == "HEAD" {
            &payload[..0]
        } else if truncate {
            &payload[..payload.len() / 2]
        } else {
            &payload[..]
        };
        let mut message = head.into_bytes();
        message.extend_from_slice(send);
        if out.write_all(&message).is_err() {
            return;
        }
        if truncate && method != "HEAD" {
            return; // close: the client sees a short body
        }
    }
}

type Answer = (u16, Vec<(String, String)>, Vec<u8>, bool, Option<Duration>);

fn respond(state: &Mutex<State>, req: &Seen, body: Vec<u8>) -> Answer {
    let mut st = state.lock().unwrap();
    st.seen.push(req.clone());
    let delay = st.faults.delay;
    if st.faults.fail_next > 0 {
        st.faults.fail_next -= 1;
        return (
            500,
            vec![],
            b"<Error><Code>InternalError</Code></Error>".to_vec(),
            false,
            delay,
        );
    }
    if let Some((_, code)) = st
        .faults
        .status
        .iter()
        .find(|(p, _)| req.path.starts_with(p.as_str()))
    {
        return (
            *code,
            vec![],
            b"<Error><Code>Injected</Code></Error>".to_vec(),
            false,
            delay,
        );
    }
    let truncate = st.faults.truncate && req.method == "GET";
    match req.method.as_str() {
        "PUT" => {
            let fail = st
                .faults
                .fail_put_containing
                .as_ref()
                .is_some_and(|t| req.path.contains(t.as_str()));
            if fail {
                return (500, vec![], Vec::new(), false, delay);
            }
            st.objects.insert(req.path.clone(), body);
            (200, vec![], Vec::new(), false, delay)
        }
        "DELETE" => {
            st.objects.remove(&req.path);
            (204, vec![], Vec::new(), false, delay)
        }
        "GET" if req.query.contains("list-type=2") => {
            let cycle = st.faults.cycle_list_tokens;
            (200, vec![], list(&st.objects, req, cycle), false, delay)
        }
        "GET" | "HEAD" => {
            let Some(obj) = st.objects.get(&req.path) else {
                return (
                    404,
                    vec![],
                    b"<Error><Code>NoSuchKey</Code></Error>".to_vec(),
                    false,
                    delay,
                );
            };
            let total = obj.len() as u64;
            let range = req
                .range
                .as_deref()
                .filter(|_| !st.faults.ignore_range)
                .and_then(|r| parse_range(r, total));
            match range {
                Some((a, b)) => (
                    206,
                    vec![("Content-Range".into(), format!("bytes {a}-{b}/{total}"))],
                    obj[a as usize..=b as usize].to_vec(),
                    truncate,
                    delay,
                ),
                None => (200, vec![], obj.clone(), truncate, delay),
            }
        }
        _ => (405, vec![], Vec::new(), false, delay),
    }
}

/// `bytes=a-b`, `bytes=a-`, `bytes=-n`, clipped to the object.
fn parse_range(r: &str, total: u64) -> Option<(u64, u64)> {
    let spec = r.strip_prefix("bytes=")?;
    let (a, b) = spec.split_once('-')?;
    let (a, b) = match (a.parse::<u64>().ok(), b.parse::<u64>().ok()) {
        (Some(a), Some(b)) => (a, b.min(total.saturating_sub(1))),
        (Some(a), None) => (a, total.saturating_sub(1)),
        (None, Some(n)) => (total.saturating_sub(n), total.saturating_sub(1)),
        _ => return None,
    };
    (a <= b && b < total).then_some((a, b))
}

/// S3's `ListObjectsV2` over the objects of one bucket (`/bucket` is the request's path); with
/// `cycle`, every page says it is truncated and names the next token of the round A, B, A.
fn list(objects: &BTreeMap<String, Vec<u8>>, req: &Seen, cycle: bool) -> Vec<u8> {
    let q: BTreeMap<String, String> = req
        .query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), purecdf::store::percent_decode(v)))
        .collect();
    let prefix = q.get("prefix").cloned().unwrap_or_default();
    let delimiter = q.get("delimiter").cloned().unwrap_or_default();
    let bucket = format!("{}/", req.path.trim_end_matches('/'));
    let mut keys = Vec::new();
    let mut prefixes = std::collections::BTreeSet::new();
    for path in objects.keys() {
        let Some(key) = path.strip_prefix(&bucket) else {
            continue;
        };
        let Some(rest) = key.strip_prefix(&prefix) else {
            continue;
        };
        match rest
            .find(delimiter.as_str())
            .filter(|_| !delimiter.is_empty())
        {
            Some(i) => {
                prefixes.insert(format!("{prefix}{}", &rest[..i + delimiter.len()]));
            }
            None => keys.push(key.to_string()),
        }
    }
    let mut xml = String::from("<?xml version=\"1.0\"?><ListBucketResult>");
    if cycle {
        let next = if q.get("continuation-token").map(String::as_str) == Some("A") {
            "B"
        } else {
            "A"
        };
        xml.push_str(&format!(
            "<IsTruncated>true</IsTruncated><NextContinuationToken>{next}</NextContinuationToken>"
        ));
    } else {
        xml.push_str("<IsTruncated>false</IsTruncated>");
    }
    for k in keys {
        xml.push_str(&format!("<Contents><Key>{}</Key></Contents>", escape(&k)));
    }
    for p in prefixes {
        xml.push_str(&format!(
            "<CommonPrefixes><Prefix>{}</Prefix></CommonPrefixes>",
            escape(&p)
        ));
    }
    xml.push_str("</ListBucketResult>");
    xml.into_bytes()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
