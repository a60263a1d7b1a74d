//! Our own bzip2 stream decoder, for speed: the chunks of a file read in parallel spend nearly
//! all their time here. The format is bzip2 1.0's: a stream is `BZh` and the block size digit,
//! then blocks, each behind the 48-bit magic 0x314159265359 (block CRC, a "randomised" bit, the
//! 24-bit origin pointer, the map of bytes in use, 2-6 Huffman tables with their selectors, the
//! Huffman-coded move-to-front values with RUNA/RUNB zero runs), then the end magic
//! 0x177245385090 with the combined CRC, padded to a byte. A block's symbols undo the
//! move-to-front, the Burrows-Wheeler transform and the initial run-length step (four equal
//! bytes then a count of more) to give the block's bytes, checked against its CRC.
//!
//! Faster than a port of the C decoder where it matters: Huffman codes up to [`LUT_BITS`] long
//! are decoded by one table lookup instead of a bit at a time, and the inverse transform, the
//! run-length step and the CRC run in one pass straight into the caller's buffer.
//!
//! Anything unusual (randomised blocks, which no bzip2 since 0.9.5 writes; code lengths that do
//! not form a prefix code) is [`Fail::Unsupported`], and the caller hands such streams to the
//! reference decoder; so are streams this decoder finds corrupt, so that every verdict on a
//! corrupt stream is the reference decoder's.

/// Why a stream was not decoded here.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fail {
    /// Not a valid stream (the text says where).
    Corrupt(&'static str),
    /// The stream decodes to more than the buffer holds.
    TooLarge,
    /// A valid stream using something this decoder leaves to the reference one.
    Unsupported,
}

type Res<T> = Result<T, Fail>;

/// Huffman codes this long or shorter decode by one lookup.
const LUT_BITS: u32 = 10;
const MAX_CODE_LEN: u32 = 20;
const MAX_GROUPS: usize = 6;
/// The most selectors kept (bzip2 1.0.8 reads more and ignores the rest).
const MAX_SELECTORS: usize = 18_002;
const GROUP_SIZE: usize = 50;
const BLOCK_MAGIC: u64 = 0x3141_5926_5359;
const END_MAGIC: u64 = 0x1772_4538_5090;

/// Reads bits most significant first.
struct Bits<'a> {
    src: &'a [u8],
    pos: usize,
    buf: u64,
    count: u32,
}

impl<'a> Bits<'a> {
    fn new(src: &'a [u8]) -> Self {
        Bits {
            src,
            pos: 0,
            buf: 0,
            count: 0,
        }
    }

    /// Makes at least 32 bits available when the input has them (zeros past its end, which
    /// [`Bits::take`] refuses to consume).
    #[inline(always)]
    fn refill(&mut self) {
        while self.count <= 56 {
            let b = self.src.get(self.pos).copied().unwrap_or(0);
            self.pos += 1;
            self.buf |= u64::from(b) << (56 - self.count);
            self.count += 8;
        }
    }

    /// The next `n` bits (1..=32) without consuming them.
    #[inline(always)]
    fn peek(&mut self, n: u32) -> u32 {
        if self.count < n {
            self.refill();
        }
        (self.buf >> (64 - n)) as u32
    }

    /// Consumes `n` bits (already peeked).
    #[inline(always)]
    fn skip(&mut self, n: u32) -> Res<()> {
        self.buf <<= n;
        self.count -= n;
        // Bits consumed past the end of the input are an error.
        if self.pos > self.src.len() && (self.pos - self.src.len()) * 8 > self.count as usize {
            return Err(Fail::Corrupt("bzip2: truncated stream"));
        }
        Ok(())
    }

    #[inline(always)]
    fn take(&mut self, n: u32) -> Res<u32> {
        let v = self.peek(n);
        self.skip(n)?;
        Ok(v)
    }

    fn bit(&mut self) -> Res<bool> {
        Ok(self.take(1)? == 1)
    }

    /// Whole bytes consumed so far (the position after the padding of the current byte).
    fn byte_pos(&self) -> usize {
        let bytes_left_in_buf = (self.count / 8) as usize;
        self.pos - bytes_left_in_buf
    }
}

/// A canonical Huffman code's decoding tables: a lookup for short codes, and for longer ones
/// the first code and first symbol index of each length.
struct Decoder {
    /// Per [`LUT_BITS`]-bit prefix: symbol << 8 | code length, or 0 for a longer code.
    lut: Vec<u32>,
    /// Per length: the largest code of that length plus one (left-aligned to the length), the
    /// first code, and where its symbols start in `sorted`.
    limit: [u32; MAX_CODE_LEN as usize + 2],
    first: [u32; MAX_CODE_LEN as usize + 2],
    start: [u32; MAX_CODE_LEN as usize + 2],
    sorted: Vec<u16>,
    max_len: u32,
}

impl Decoder {
    /// Builds the tables for `lens` (1..=20 each); a set of lengths that is not a prefix code
    /// (over-subscribed) is left to the reference decoder.
    // Several tables indexed by code length side by side read best as plain index loops.
    #[allow(clippy::needless_range_loop)]
    fn new(lens: &[u8]) -> Res<Decoder> {
        let mut count = [0u32; MAX_CODE_LEN as usize + 2];
        for &l in lens {
            count[l as usize] += 1;
        }
        let max_len = lens.iter().copied().max().unwrap_or(1) as u32;
        let mut d = Decoder {
            lut: vec![0; 1 << LUT_BITS],
            limit: [0; MAX_CODE_LEN as usize + 2],
            first: [0; MAX_CODE_LEN as usize + 2],
            start: [0; MAX_CODE_LEN as usize + 2],
            sorted: Vec::with_capacity(lens.len()),
            max_len,
        };
        for len in 1..=max_len {
            for (sym, &l) in lens.iter().enumerate() {
                if u32::from(l) == len {
                    d.sorted.push(sym as u16);
                }
            }
        }
        let mut code = 0u32;
        let mut at = 0u32;
        for len in 1..=max_len as usize {
            d.first[len] = code;
            d.start[len] = at;
            code += count[len];
            at += count[len];
            if code > 1 << len {
                return Err(Fail::Unsupported);
            }
            d.limit[len] = code;
            code <<= 1;
        }
        // Short codes into the lookup table.
        for len in 1..=max_len.min(LUT_BITS) as usize {
            for k in 0..count[len] {
                let c = d.first[len] + k;
                let sym = u32::from(d.sorted[(d.start[len] + k) as usize]);
                let shift = LUT_BITS as usize - len;
                let base = (c as usize) << shift;
                for e in &mut d.lut[base..base + (1 << shift)] {
                    *e = sym << 8 | len as u32;
                }
            }
        }
        Ok(d)
    }

    #[inline(always)]
    fn symbol(&self, bits: &mut Bits) -> Res<u32> {
        let e = self.lut[bits.peek(LUT_BITS) as usize];
        if e != 0 {
            bits.skip(e & 0xFF)?;
            return Ok(e >> 8);
        }
        let all = bits.peek(MAX_CODE_LEN);
        for len in LUT_BITS + 1..=self.max_len {
            let c = all >> (MAX_CODE_LEN - len);
            if c < self.limit[len as usize] {
                bits.skip(len)?;
                let i = self.start[len as usize] + c - self.first[len as usize];
                return Ok(u32::from(self.sorted[i as usize]));
            }
        }
        Err(Fail::Corrupt("bzip2: bad Huffman code"))
    }
}

/// CRC-32 as bzip2 computes it (polynomial 0x04C11DB7, most significant bit first), with its
/// table built at compile time.
struct Crc {
    table: [u32; 256],
}

/// The one table every decode uses.
static CRC: Crc = Crc::new();

impl Crc {
    const fn new() -> Crc {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = (i as u32) << 24;
            let mut bit = 0;
            while bit < 8 {
                c = if c & 0x8000_0000 != 0 {
                    c << 1 ^ 0x04C1_1DB7
                } else {
                    c << 1
                };
                bit += 1;
            }
            table[i] = c;
            i += 1;
        }
        Crc { table }
    }

    #[inline(always)]
    fn byte(&self, crc: u32, b: u8) -> u32 {
        crc << 8 ^ self.table[((crc >> 24) ^ u32::from(b)) as usize]
    }
}

/// Decodes the bzip2 streams of `input` (one or more, concatenated) into the start of `dst`;
/// returns the decoded size.
pub(crate) fn decode_into(input: &[u8], dst: &mut [u8]) -> Res<usize> {
    TT.with(|cell| match cell.try_borrow_mut() {
        Ok(mut tt) => decode_streams(input, dst, &mut tt),
        Err(_) => decode_streams(input, dst, &mut Vec::new()),
    })
}

thread_local! {
    /// Each thread's block of transform entries (3.6 MB for the largest blocks), kept from
    /// chunk to chunk.
    static TT: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn decode_streams(input: &[u8], dst: &mut [u8], tt: &mut Vec<u32>) -> Res<usize> {
    let crc = &CRC;
    let mut rest = input;
    let mut done = 0;
    loop {
        let used = decode_stream(rest, dst, &mut done, crc, tt)?;
        rest = &rest[used..];
        if rest.is_empty() {
            return Ok(done);
        }
    }
}

/// Decodes one stream at the start of `input` onto `dst[*done..]`; returns the bytes of input
/// it took.
fn decode_stream(
    input: &[u8],
    dst: &mut [u8],
    done: &mut usize,
    crc: &Crc,
    tt: &mut Vec<u32>,
) -> Res<usize> {
    if input.len() < 4 || &input[..3] != b"BZh" || !(b'1'..=b'9').contains(&input[3]) {
        return Err(Fail::Corrupt("bzip2: not a bzip2 stream"));
    }
    let max_block = usize::from(input[3] - b'0') * 100_000;
    let mut bits = Bits::new(&input[4..]);
    let mut combined = 0u32;
    loop {
        let magic = u64::from(bits.take(24)?) << 24 | u64::from(bits.take(24)?);
        match magic {
            BLOCK_MAGIC => {
                let stored = bits.take(32)?;
                let got = decode_block(&mut bits, max_block, dst, done, crc, tt)?;
                if got != stored {
                    return Err(Fail::Corrupt("bzip2: block CRC mismatch"));
                }
                combined = combined.rotate_left(1) ^ got;
            }
            END_MAGIC => {
                if bits.take(32)? != combined {
                    return Err(Fail::Corrupt("bzip2: stream CRC mismatch"));
                }
                return Ok(4 + bits.byte_pos());
            }
            _ => return Err(Fail::Corrupt("bzip2: bad block magic")),
        }
    }
}

/// Decodes one block (after its CRC) onto `dst[*done..]`; returns the CRC of its bytes.
fn decode_block(
    bits: &mut Bits,
    max_block: usize,
    dst: &mut [u8],
    done: &mut usize,
    crc: &Crc,
    tt: &mut Vec<u32>,
) -> Res<u32> {
    if bits.bit()? {
        return Err(Fail::Unsupported);
    }
    let orig = bits.take(24)? as usize;
    // The bytes in use.
    let used16 = bits.take(16)?;
    let mut in_use: Vec<u8> = Vec::with_capacity(256);
    for i in 0..16 {
        if used16 & (0x8000 >> i) != 0 {
            let row = bits.take(16)?;
            for j in 0..16 {
                if row & (0x8000 >> j) != 0 {
                    in_use.push((i * 16 + j) as u8);
                }
            }
        }
    }
    if in_use.is_empty() {
        return Err(Fail::Corrupt("bzip2: a block uses no bytes"));
    }
    let alpha = in_use.len() + 2;
    let groups = bits.take(3)? as usize;
    if !(2..=MAX_GROUPS).contains(&groups) {
        return Err(Fail::Corrupt("bzip2: bad number of Huffman tables"));
    }
    let nsel = bits.take(15)? as usize;
    if nsel == 0 {
        return Err(Fail::Corrupt("bzip2: no selectors"));
    }
    // Selectors, move-to-front coded in unary.
    let mut mtf_groups: Vec<u8> = (0..groups as u8).collect();
    let mut selectors = Vec::with_capacity(nsel.min(MAX_SELECTORS));
    for _ in 0..nsel {
        let mut j = 0;
        while bits.bit()? {
            j += 1;
            if j >= groups {
                return Err(Fail::Corrupt("bzip2: bad selector"));
            }
        }
        let g = mtf_groups[j];
        mtf_groups.copy_within(0..j, 1);
        mtf_groups[0] = g;
        if selectors.len() < MAX_SELECTORS {
            selectors.push(g);
        }
    }
    // Code lengths, delta coded.
    let mut tables = Vec::with_capacity(groups);
    let mut lens = vec![0u8; alpha];
    for _ in 0..groups {
        let mut cur = bits.take(5)?;
        for l in lens.iter_mut() {
            loop {
                if !(1..=MAX_CODE_LEN).contains(&cur) {
                    return Err(Fail::Corrupt("bzip2: bad code length"));
                }
                if !bits.bit()? {
                    break;
                }
                if bits.bit()? {
                    cur -= 1;
                } else {
                    cur += 1;
                }
            }
            *l = cur as u8;
        }
        tables.push(Decoder::new(&lens)?);
    }
    // The symbols: move-to-front indices with zero runs, up to the end-of-block symbol.
    let eob = (alpha - 1) as u32;
    let mut mtf: Vec<u8> = in_use.clone();
    let mut counts = [0u32; 256];
    tt.clear();
    tt.reserve(max_block);
    let (mut group_left, mut sel_at) = (0usize, 0usize);
    let mut table = &tables[0];
    let (mut run, mut run_bit) = (0usize, 1usize);
    loop {
        if group_left == 0 {
            let Some(&g) = selectors.get(sel_at) else {
                return Err(Fail::Corrupt("bzip2: out of selectors"));
            };
            table = &tables[g as usize];
            sel_at += 1;
            group_left = GROUP_SIZE;
        }
        group_left -= 1;
        let sym = table.symbol(bits)?;
        if sym <= 1 {
            // RUNA adds 1, RUNB 2, times the place value.
            run += run_bit << sym;
            run_bit <<= 1;
            if run_bit > 1 << 21 {
                return Err(Fail::Corrupt("bzip2: run too long"));
            }
            continue;
        }
        if run > 0 {
            let b = mtf[0];
            if tt.len() + run > max_block {
                return Err(Fail::Corrupt("bzip2: block too large"));
            }
            counts[b as usize] += run as u32;
            tt.resize(tt.len() + run, u32::from(b));
            run = 0;
            run_bit = 1;
        }
        if sym == eob {
            break;
        }
        let k = (sym - 1) as usize;
        if k >= mtf.len() {
            return Err(Fail::Corrupt("bzip2: bad move-to-front index"));
        }
        let b = mtf[k];
        mtf.copy_within(0..k, 1);
        mtf[0] = b;
        if tt.len() >= max_block {
            return Err(Fail::Corrupt("bzip2: block too large"));
        }
        counts[b as usize] += 1;
        tt.push(u32::from(b));
    }
    let n = tt.len();
    if orig >= n {
        return Err(Fail::Corrupt("bzip2: origin pointer out of the block"));
    }
    // Undo the transform: link each position to the next, the byte in the low 8 bits.
    let mut next = [0u32; 256];
    let mut sum = 0u32;
    for (c, &k) in next.iter_mut().zip(&counts) {
        *c = sum;
        sum += k;
    }
    for i in 0..n {
        let b = (tt[i] & 0xFF) as usize;
        let at = next[b] as usize;
        tt[at] |= (i as u32) << 8;
        next[b] += 1;
    }
    // Walk it, undoing the run-length step, into `dst`, with the CRC.
    let mut pos = tt[orig] >> 8;
    let mut block_crc = u32::MAX;
    let mut out = *done;
    let (mut last, mut same) = (256u32, 0u32);
    let mut left = n;
    while left > 0 {
        let e = tt[pos as usize];
        let b = e & 0xFF;
        pos = e >> 8;
        left -= 1;
        if same == 4 {
            // A count of more copies of the last byte.
            let k = b as usize;
            let Some(span) = dst.get_mut(out..out + k) else {
                return Err(Fail::TooLarge);
            };
            span.fill(last as u8);
            for _ in 0..k {
                block_crc = crc.byte(block_crc, last as u8);
            }
            out += k;
            same = 0;
            last = 256;
            continue;
        }
        if b == last {
            same += 1;
        } else {
            same = 1;
            last = b;
        }
        let Some(slot) = dst.get_mut(out) else {
            return Err(Fail::TooLarge);
        };
        *slot = b as u8;
        block_crc = crc.byte(block_crc, b as u8);
        out += 1;
    }
    *done = out;
    Ok(!block_crc)
}

#[cfg(test)]
mod tests {
    use super::{decode_into, Fail};

    fn reference_encode(data: &[u8], level: u32) -> Vec<u8> {
        crate::bzip2::encode(data, level).unwrap()
    }

    /// Inputs that reach every path: empty, one byte, long runs (run-length counts of 255,
    /// RUNA/RUNB runs, several blocks), text, noise, and floats with noise.
    fn inputs() -> Vec<Vec<u8>> {
        let mut x = 0x9E37_79B9u32;
        let mut noise = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut v = vec![
            Vec::new(),
            vec![42],
            vec![7; 4],
            vec![7; 5],
            vec![0; 2_500_000],
        ];
        v.push(
            (0..300_000)
                .map(|i| b"the quick brown fox "[i % 20])
                .collect(),
        );
        v.push((0..250_000).map(|_| noise() as u8).collect());
        v.push(
            (0..300_000u32)
                .flat_map(|i| (i as f32 * 0.01 + (noise() % 1000) as f32 * 1e-5).to_le_bytes())
                .collect(),
        );
        let mut runs = Vec::new();
        for i in 0..20_000u32 {
            let n = (noise() % 300) as usize;
            runs.extend(std::iter::repeat_n((i % 7) as u8, n));
        }
        v.push(runs);
        v
    }

    #[test]
    fn decodes_what_the_reference_encodes() {
        for data in inputs() {
            for level in [1, 9] {
                let enc = reference_encode(&data, level);
                let mut out = vec![0xAAu8; data.len() + 10];
                assert_eq!(
                    decode_into(&enc, &mut out),
                    Ok(data.len()),
                    "{} bytes, level {level}",
                    data.len()
                );
                assert!(out[..data.len()] == data[..]);
                // Too small a buffer.
                if !data.is_empty() {
                    let mut short = vec![0u8; data.len() - 1];
                    assert_eq!(decode_into(&enc, &mut short), Err(Fail::TooLarge));
                }
            }
        }
        // Concatenated streams.
        let (a, b) = (b"first stream ".repeat(1000), vec![9u8; 70_000]);
        let mut both = reference_encode(&a, 3);
        both.extend(reference_encode(&b, 5));
        let mut out = vec![0u8; a.len() + b.len()];
        assert_eq!(decode_into(&both, &mut out), Ok(a.len() + b.len()));
        assert!(out[..a.len()] == a[..] && out[a.len()..] == b[..]);
    }

    /// Truncated and corrupted streams give an error or, where the reference decoder accepts
    /// them too, the reference decoder's bytes; never a panic.
    #[test]
    fn corrupt_streams_never_panic_nor_differ_from_the_reference() {
        let data: Vec<u8> = (0..20_000u32)
            .map(|i| (i / 3 % 251) as u8 ^ (i % 7) as u8)
            .collect();
        let enc = reference_encode(&data, 1);
        let mut cases: Vec<Vec<u8>> = (0..enc.len())
            .step_by(7)
            .map(|n| enc[..n].to_vec())
            .collect();
        for i in (0..enc.len()).step_by(3) {
            for flip in [1u8, 0x10, 0x80, 0xFF] {
                let mut c = enc.clone();
                c[i] ^= flip;
                cases.push(c);
            }
        }
        let mut accepted = 0;
        for c in &cases {
            let mut ours = vec![0u8; data.len() + 100];
            let mut theirs = vec![0u8; data.len() + 100];
            if let Ok(n) = decode_into(c, &mut ours) {
                accepted += 1;
                let m = crate::bzip2::decode_into_reference(c, &mut theirs).expect("reference");
                assert_eq!(n, m);
                assert!(ours[..n] == theirs[..n]);
            }
        }
        // Flips in the padding after the end CRC and in the stored length-free parts are the
        // only ones accepted.
        assert!(accepted < cases.len() / 10, "{accepted} of {}", cases.len());
    }
}
