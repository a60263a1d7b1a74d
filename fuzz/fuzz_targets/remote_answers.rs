//! Fuzzes what a byte-range reader (`#mode=bytes`) does with a hostile or broken server: each
//! request's answer (status, `Content-Range`, body length) is taken from the input, checked as
//! an HTTP answer is, and fed to a `RangeReader`, whose reads (offsets and lengths also from
//! the input) must either fill the buffer with the object's bytes or fail. Errors are fine;
//! panics, hangs, wrong bytes and unbounded allocations are not.
#![no_main]

use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;
use purecdf::store::remote::range::Fetched;
use purecdf::store::remote::{fuzzing, RangeFetch, RangeReader};

/// The object a well-behaved server would serve: byte `i` is `i * 7 % 251`.
fn byte(i: u64) -> u8 {
    (i * 7 % 251) as u8
}

/// A server whose answers come from the fuzzer's bytes.
#[derive(Debug)]
struct Script {
    bytes: Mutex<(Vec<u8>, usize)>,
    total: u64,
}

impl Script {
    fn next(&self, n: usize) -> Vec<u8> {
        let mut g = self.bytes.lock().unwrap();
        let (data, at) = &mut *g;
        let out: Vec<u8> = data.iter().skip(*at).take(n).copied().collect();
        *at += out.len();
        out
    }
}

impl RangeFetch for Script {
    fn fetch(&self, start: u64, end: u64) -> purecdf::store::Result<Fetched> {
        // Ten bytes per answer: the kind, then a (how, how much) pair for each skewed number.
        let b = self.next(10);
        let get = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
        // The answer: a faithful 206, a whole 200, a 206 with a skewed range or length, 416, 500.
        let skew = |x: u64, k: usize| match get(k) % 4 {
            0 => x,
            1 => x.wrapping_add(get(k + 1)),
            2 => x.saturating_sub(get(k + 1)),
            _ => u64::MAX - get(k + 1),
        };
        let stop = end.min(self.total).max(start);
        let (status, cr, body) = match get(0) % 6 {
            0 | 1 => {
                let cr = format!("bytes {start}-{}/{}", stop.saturating_sub(1), self.total);
                (206, Some(cr), (start..stop).map(byte).collect())
            }
            2 => (200, None, (0..self.total.min(1 << 16)).map(byte).collect()),
            3 => {
                let (a, last, total) = (
                    skew(start, 1),
                    skew(stop.saturating_sub(1), 3),
                    skew(self.total, 5),
                );
                let len = skew(stop - start, 7).min(1 << 16);
                (
                    206,
                    Some(format!("bytes {a}-{last}/{total}")),
                    (start..start + len).map(byte).collect(),
                )
            }
            4 => (416, Some(format!("bytes */{}", get(9))), Vec::new()),
            _ => (500, None, Vec::new()),
        };
        fuzzing::range_answer(status, cr, body, start, end)
    }

    fn url(&self) -> String {
        "http://127.0.0.1/fuzz".into()
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let total = u64::from(u16::from_le_bytes([data[0], data[1]])) * 97;
    let (reads, answers) = data[2..].split_at((data.len() - 2) / 2);
    let server = Script {
        bytes: Mutex::new((answers.to_vec(), 0)),
        total,
    };
    let Ok(reader) = RangeReader::open(Box::new(server)) else {
        return;
    };
    for r in reads.chunks(4) {
        let offset = u64::from(u16::from_le_bytes([r[0], *r.get(1).unwrap_or(&0)])) * 31;
        let len = usize::from(*r.get(2).unwrap_or(&1)) * usize::from(*r.get(3).unwrap_or(&1));
        let mut buf = vec![0u8; len];
        if reader.read_at(offset, &mut buf).is_ok() {
            // Whatever the server said, bytes handed out are the object's own.
            for (k, b) in buf.iter().enumerate() {
                assert_eq!(
                    *b,
                    byte(offset + k as u64),
                    "wrong byte at {}",
                    offset + k as u64
                );
            }
        }
    }
});
