//! Reading one remote object as if it were a local file, with HTTP `Range` requests (netcdf-c's
//! `#mode=bytes`, `../shared/spec/nczarr.md`, Appendix D), fast where netcdf-c is slow: it asks
//! the server for exactly what each read wants, so a record variable costs one request per
//! record. Here reads go through a cache of fetched segments:
//!
//! - the first request takes the object's head (1 MiB) and learns its length from
//!   `Content-Range`, so no `HEAD` is needed;
//! - a miss fetches whole 64 KiB blocks, at least 256 KiB, stopping at the next cached segment;
//!   each further miss doubles that least amount, up to 4 MiB (a ranged GET size S3 serves
//!   efficiently), so metadata spread through a file (netCDF-4 object headers between data
//!   chunks) costs a logarithmic number of requests;
//! - reads that move forward through the object double the read-ahead (up to 32 MiB), so a
//!   scan of record data costs a handful of requests whatever the record count;
//! - reads of 8 MiB and more bypass the cache and are split into parts fetched in parallel;
//! - the cache holds at most 256 MiB, dropping the least recently used segments.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::http::{status_error, HttpClient, HttpRequest, HttpResponse, HttpSettings};
use super::s3::S3Client;
use crate::{Result, StoreError};

const BLOCK: u64 = 64 << 10;
const HEAD: u64 = 1 << 20;
const MIN_FETCH: u64 = 256 << 10;
const MAX_RANDOM_FETCH: u64 = 4 << 20;
const MAX_MERGED: u64 = 64 << 20;
const MAX_READ_AHEAD: u64 = 32 << 20;
const DIRECT: u64 = 8 << 20;
const BUDGET: u64 = 256 << 20;

/// Bytes a range request returned: where they start, and the object's whole length.
#[derive(Debug)]
pub struct Fetched {
    /// Offset of `bytes[0]` in the object (0 when the server ignored `Range`).
    pub start: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The object's length.
    pub total: u64,
}

/// Something that answers range requests: a plain HTTP(S) URL or an S3 object.
pub trait RangeFetch: Send + Sync + std::fmt::Debug {
    /// Bytes `start..end` (or more: a server may send the whole object).
    ///
    /// # Errors
    /// [`StoreError::Remote`] naming the URL.
    fn fetch(&self, start: u64, end: u64) -> Result<Fetched>;

    /// The URL, for messages.
    fn url(&self) -> String;
}

/// A plain `http://` or `https://` URL.
#[derive(Debug, Clone)]
pub struct HttpObject {
    client: HttpClient,
    url: String,
}

impl HttpObject {
    /// The object at `url` (fragment removed by the caller).
    pub fn new(url: &str, settings: HttpSettings) -> HttpObject {
        HttpObject {
            client: HttpClient::new(settings),
            url: url.to_string(),
        }
    }
}

impl RangeFetch for HttpObject {
    fn fetch(&self, start: u64, end: u64) -> Result<Fetched> {
        let request = HttpRequest {
            method: "GET",
            url: self.url.clone(),
            headers: vec![("range".into(), format!("bytes={start}-{}", end - 1))],
            body: &[],
        };
        let r = self.client.send(&request, &|_| Vec::new())?;
        check_range_response(&request, r, start, end)
    }

    fn url(&self) -> String {
        super::http::printable_url(&self.url).to_string()
    }
}

/// An object in S3, read with signed range requests.
#[derive(Debug, Clone)]
pub struct S3Object {
    client: S3Client,
}

impl S3Object {
    /// The object the client's URL names.
    pub fn new(client: S3Client) -> S3Object {
        S3Object { client }
    }
}

impl RangeFetch for S3Object {
    fn fetch(&self, start: u64, end: u64) -> Result<Fetched> {
        self.client.get_range(&self.client.url().key, start, end)
    }

    fn url(&self) -> String {
        self.client.object_url(&self.client.url().key)
    }
}

/// The first and last byte and the object's length of a `Content-Range: bytes a-b/total` header
/// (RFC 9110, section 14.4).
pub(crate) fn parse_content_range(cr: &str) -> Option<(u64, u64, u64)> {
    let (range, total) = cr.strip_prefix("bytes ")?.split_once('/')?;
    let (a, b) = range.split_once('-')?;
    Some((
        a.trim().parse().ok()?,
        b.trim().parse().ok()?,
        total.trim().parse().ok()?,
    ))
}

/// Checks a range response: 206 with a `Content-Range` matching what was asked (a last range
/// may stop at the object's end), or 200 with the whole object; 416 for an empty object.
/// Returns the bytes, where they start (0 when the server sent the whole object) and the
/// object's length.
///
/// # Errors
/// [`StoreError::Remote`] for another status or a range other than the one asked.
pub(crate) fn check_range_response(
    request: &HttpRequest<'_>,
    r: HttpResponse,
    start: u64,
    end: u64,
) -> Result<Fetched> {
    let bad = |what: String| StoreError::Remote {
        url: super::http::printable_url(&request.url).to_string(),
        what,
        status: Some(r.status),
    };
    match r.status {
        206 => {
            let cr = r.content_range.as_deref().unwrap_or("");
            let Some((a, b, total)) = parse_content_range(cr) else {
                return Err(bad(format!("bad Content-Range {cr:?}")));
            };
            let want_end = end.min(total);
            // Checked: the numbers are the server's (a last byte of u64::MAX, a total before
            // the start asked for).
            if a != start
                || b.checked_add(1) != Some(want_end)
                || want_end.checked_sub(start) != Some(r.body.len() as u64)
            {
                return Err(bad(format!(
                    "asked for bytes {start}-{}, got {cr:?} with {} bytes",
                    end.saturating_sub(1),
                    r.body.len()
                )));
            }
            Ok(Fetched {
                start,
                bytes: r.body,
                total,
            })
        }
        200 => Ok(Fetched {
            start: 0,
            total: r.body.len() as u64,
            bytes: r.body,
        }),
        416 => {
            let total = r
                .content_range
                .as_deref()
                .and_then(|c| c.rsplit('/').next())
                .and_then(|t| t.trim().parse::<u64>().ok())
                .unwrap_or(0);
            if total == 0 {
                Ok(Fetched::empty())
            } else {
                Err(status_error(request, &r))
            }
        }
        _ => Err(status_error(request, &r)),
    }
}

#[derive(Debug)]
struct Segment {
    bytes: Arc<Vec<u8>>,
    used: u64,
}

#[derive(Debug, Default)]
struct Cache {
    /// Fetched segments by start offset; they never overlap.
    segments: BTreeMap<u64, Segment>,
    held: u64,
    tick: u64,
    /// End of the last fetch and the read-ahead it used.
    last_end: u64,
    read_ahead: u64,
    /// Misses so far.
    misses: u32,
}

impl Cache {
    /// Copies what the cache holds of `[off, off + buf.len())` into `buf`, returning the first
    /// offset it could not serve (`off + len` when it served everything).
    fn serve(&mut self, off: u64, buf: &mut [u8]) -> u64 {
        let end = off + buf.len() as u64;
        let mut at = off;
        self.tick += 1;
        while at < end {
            let Some((&s, seg)) = self.segments.range_mut(..=at).next_back() else {
                break;
            };
            let seg_end = s + seg.bytes.len() as u64;
            if seg_end <= at {
                break;
            }
            seg.used = self.tick;
            let n = (seg_end.min(end) - at) as usize;
            let from = (at - s) as usize;
            let to = (at - off) as usize;
            buf[to..to + n].copy_from_slice(&seg.bytes[from..from + n]);
            at += n as u64;
        }
        at
    }

    /// The start and end of the first cached segment after `at`.
    fn next_segment(&self, at: u64) -> Option<(u64, u64)> {
        self.segments
            .range(at + 1..)
            .next()
            .map(|(&s, seg)| (s, s + seg.bytes.len() as u64))
    }

    /// The end of the last cached segment that ends at or before `at`.
    fn prev_end(&self, at: u64) -> Option<u64> {
        self.segments
            .range(..at)
            .next_back()
            .map(|(&s, seg)| s + seg.bytes.len() as u64)
            .filter(|&e| e <= at)
    }

    fn insert(&mut self, mut start: u64, mut bytes: Vec<u8>) {
        // Keep segments disjoint: merge the new one with those it overlaps or touches (up to
        // MAX_MERGED bytes in all), else drop those it overlaps.
        let end = start + bytes.len() as u64;
        let neighbours: Vec<(u64, u64)> = self
            .segments
            .range(..=end)
            .map(|(&s, seg)| (s, s + seg.bytes.len() as u64))
            .filter(|&(_, e)| e >= start)
            .collect();
        let merged_start = neighbours.first().map_or(start, |n| n.0.min(start));
        let merged_end = neighbours.last().map_or(end, |n| n.1.max(end));
        let merge = merged_end - merged_start <= MAX_MERGED;
        if merge && !neighbours.is_empty() {
            let mut whole = vec![0u8; (merged_end - merged_start) as usize];
            for &(s, _) in &neighbours {
                let seg = &self.segments[&s].bytes;
                let at = (s - merged_start) as usize;
                whole[at..at + seg.len()].copy_from_slice(seg);
            }
            let at = (start - merged_start) as usize;
            whole[at..at + bytes.len()].copy_from_slice(&bytes);
            start = merged_start;
            bytes = whole;
        }
        for (s, e) in neighbours {
            if merge || (e > start && s < end) {
                if let Some(seg) = self.segments.remove(&s) {
                    self.held -= seg.bytes.len() as u64;
                }
            }
        }
        self.tick += 1;
        self.held += bytes.len() as u64;
        self.segments.insert(
            start,
            Segment {
                bytes: Arc::new(bytes),
                used: self.tick,
            },
        );
        while self.held > BUDGET && self.segments.len() > 1 {
            let Some((&oldest, _)) = self.segments.iter().min_by_key(|(_, seg)| seg.used) else {
                break;
            };
            if let Some(seg) = self.segments.remove(&oldest) {
                self.held -= seg.bytes.len() as u64;
            }
        }
    }
}

/// A remote object read through a cache, with positional reads from any thread.
#[derive(Debug)]
pub struct RangeReader {
    fetch: Box<dyn RangeFetch>,
    len: u64,
    cache: Mutex<Cache>,
    requests: AtomicU64,
}

impl RangeReader {
    /// Opens the object: one request fetches its head and learns its length.
    ///
    /// # Errors
    /// [`StoreError::Remote`] when the object cannot be read.
    pub fn open(fetch: Box<dyn RangeFetch>) -> Result<RangeReader> {
        let first = fetch.fetch(0, HEAD)?;
        let reader = RangeReader {
            len: first.total,
            cache: Mutex::new(Cache {
                last_end: first.start + first.bytes.len() as u64,
                read_ahead: MIN_FETCH,
                ..Cache::default()
            }),
            fetch,
            requests: AtomicU64::new(1),
        };
        reader.lock().insert(first.start, first.bytes);
        Ok(reader)
    }

    /// The object's length.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty object.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many requests this reader has sent.
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }

    /// The URL, for messages.
    pub fn url(&self) -> String {
        self.fetch.url()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn fetch(&self, start: u64, end: u64) -> Result<Fetched> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.fetch.fetch(start, end)
    }

    /// Fills `buf` with the bytes at `offset`.
    ///
    /// # Errors
    /// [`StoreError::Remote`] when a request fails; [`StoreError::Corrupt`] for a read past the
    /// end of the object.
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let end = offset
            .checked_add(buf.len() as u64)
            .filter(|&e| e <= self.len)
            .ok_or_else(|| StoreError::Corrupt {
                what: format!("read of {} bytes past the end ({})", buf.len(), self.len),
                place: format!("{} at offset {offset}", self.url()),
            })?;
        if buf.is_empty() {
            return Ok(());
        }
        if buf.len() as u64 >= DIRECT {
            let served = self.lock().serve(offset, buf);
            if served == end {
                return Ok(());
            }
            return self.read_direct(offset, buf);
        }
        loop {
            let (missing, fetch_end) = {
                let mut cache = self.lock();
                let missing = cache.serve(offset, buf);
                if missing == end {
                    return Ok(());
                }
                let start = missing / BLOCK * BLOCK;
                let sequential = start >= cache.last_end.saturating_sub(BLOCK)
                    && start <= cache.last_end + cache.read_ahead.max(HEAD);
                cache.misses = cache.misses.saturating_add(1);
                let least = (MIN_FETCH << cache.misses.min(8)).min(MAX_RANDOM_FETCH);
                cache.read_ahead = if sequential {
                    (cache.read_ahead * 2).min(MAX_READ_AHEAD)
                } else {
                    least
                };
                // A small hole after the previous segment is fetched with this miss.
                let from = match cache.prev_end(start) {
                    Some(prev) if !sequential && start - prev <= least / 2 => prev,
                    _ => start,
                }
                .min(missing);
                let mut fetch_end = (from + cache.read_ahead).max(end.div_ceil(BLOCK) * BLOCK);
                // Stop at the next cached segment when the fetch would only go on through it.
                if let Some((next, next_end)) = cache.next_segment(missing) {
                    if next >= end && next < fetch_end && next_end >= fetch_end {
                        fetch_end = next;
                    }
                }
                let fetch_end = fetch_end.min(self.len);
                cache.last_end = fetch_end;
                (from, fetch_end)
            };
            let got = self.fetch(missing, fetch_end)?;
            self.check_length(&got)?;
            let got_end = got.start + got.bytes.len() as u64;
            if got.start > missing || got_end <= missing {
                return Err(self.short(missing, &got));
            }
            self.lock().insert(got.start, got.bytes);
        }
    }

    /// A large read: parts of 8 MiB fetched in parallel (at most 8 at a time), not cached.
    fn read_direct(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let parts: Vec<(u64, &mut [u8])> = buf
            .chunks_mut(DIRECT as usize)
            .enumerate()
            .map(|(i, b)| (offset + i as u64 * DIRECT, b))
            .collect();
        let mut groups: Vec<Vec<(u64, &mut [u8])>> = (0..8).map(|_| Vec::new()).collect();
        for (i, p) in parts.into_iter().enumerate() {
            groups[i % 8].push(p);
        }
        std::thread::scope(|s| {
            let workers: Vec<_> = groups
                .into_iter()
                .filter(|g| !g.is_empty())
                .map(|group| {
                    s.spawn(move || -> Result<()> {
                        for (at, part) in group {
                            let end = at + part.len() as u64;
                            let got = self.fetch(at, end)?;
                            self.check_length(&got)?;
                            let got_end = got.start + got.bytes.len() as u64;
                            if got.start > at || got_end < end {
                                return Err(self.short(at, &got));
                            }
                            let from = (at - got.start) as usize;
                            part.copy_from_slice(&got.bytes[from..from + part.len()]);
                        }
                        Ok(())
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| {
                    w.join()
                        .unwrap_or_else(|_| Err(self.short(offset, &Fetched::empty())))
                })
                .collect::<Result<Vec<()>>>()
        })?;
        Ok(())
    }

    fn check_length(&self, got: &Fetched) -> Result<()> {
        if got.total != self.len {
            return Err(StoreError::Remote {
                url: self.url(),
                what: format!(
                    "the object changed length while being read ({} then {} bytes)",
                    self.len, got.total
                ),
                status: None,
            });
        }
        Ok(())
    }

    fn short(&self, at: u64, got: &Fetched) -> StoreError {
        StoreError::Remote {
            url: self.url(),
            what: format!(
                "asked for bytes from {at}, got {} bytes from {}",
                got.bytes.len(),
                got.start
            ),
            status: None,
        }
    }
}

impl Fetched {
    fn empty() -> Fetched {
        Fetched {
            start: 0,
            bytes: Vec::new(),
            total: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers whose numbers cannot be what was asked (a last byte of u64::MAX, a total before
    /// the start, a body of the wrong length) are errors, never an overflow.
    #[test]
    fn impossible_content_ranges_are_errors() {
        let check = |cr: &str, body: usize, start: u64, end: u64| {
            crate::remote::fuzzing::range_answer(206, Some(cr.into()), vec![7; body], start, end)
        };
        assert_eq!(check("bytes 2-4/10", 3, 2, 5).unwrap().bytes, [7; 3]);
        for (cr, body, start, end) in [
            ("bytes 0-18446744073709551615/5", 5, 0, 5),
            ("bytes 8-9/4", 2, 8, 10),
            ("bytes 8-3/4", 0, 8, 10),
            ("bytes 0-4/10", 4, 0, 5),
            ("bytes 5-4/10", 0, 5, 0),
        ] {
            let e = check(cr, body, start, end).unwrap_err().to_string();
            assert!(e.contains("asked for bytes"), "{cr}: {e}");
        }
    }

    /// An in-memory object that counts requests and may ignore `Range`.
    #[derive(Debug)]
    struct Fake {
        data: Vec<u8>,
        whole: bool,
    }

    impl RangeFetch for Fake {
        fn fetch(&self, start: u64, end: u64) -> Result<Fetched> {
            let total = self.data.len() as u64;
            if self.whole {
                return Ok(Fetched {
                    start: 0,
                    bytes: self.data.clone(),
                    total,
                });
            }
            let end = end.min(total);
            Ok(Fetched {
                start,
                bytes: self.data[start as usize..end as usize].to_vec(),
                total,
            })
        }

        fn url(&self) -> String {
            "fake".into()
        }
    }

    fn data(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn reads_match_and_requests_stay_few() {
        for whole in [false, true] {
            let d = data(40 << 20);
            let r = RangeReader::open(Box::new(Fake {
                data: d.clone(),
                whole,
            }))
            .unwrap();
            assert_eq!(r.len(), d.len() as u64);
            // A strided forward scan of 4-byte values every 4 KiB: 10,240 reads.
            let mut v = [0u8; 4];
            for i in 0..10_240u64 {
                let at = i * 4096;
                r.read_at(at, &mut v).unwrap();
                assert_eq!(&v, &d[at as usize..at as usize + 4]);
            }
            assert!(r.requests() <= 12, "{} requests", r.requests());
            // Random small reads and a big direct read.
            for at in [39 << 20, 7, 20 << 20, (40 << 20) - 3] {
                let mut b = [0u8; 3];
                r.read_at(at, &mut b).unwrap();
                assert_eq!(&b, &d[at as usize..at as usize + 3]);
            }
            let mut big = vec![0u8; 17 << 20];
            r.read_at(1 << 20, &mut big).unwrap();
            assert!(big == d[1 << 20..18 << 20]);
            assert!(r.read_at((40 << 20) - 1, &mut [0u8; 2]).is_err());
        }
    }
}
