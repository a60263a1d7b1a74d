//! blosc1 frames, as c-blosc 1.x writes and reads them (c-blosc's `README_HEADER.rst` and
//! `blosc.c`): a 16-byte header, then (unless the frame is a plain copy) one little-endian i32
//! per block with the block's offset in the frame, then the blocks.
//!
//! The header: format version (2), the internal compressor's format version, flags (bit 0: byte
//! shuffle, bit 1: plain copy ("memcpyed": the data follows the header as it is), bit 2: bit
//! shuffle, bit 4: blocks are not split, bits 5-7: compressor format: 0 blosclz, 1 lz4 and lz4hc,
//! 2 snappy, 3 zlib, 4 zstd), type size, then little-endian u32s: decoded size, block size,
//! frame size. A block holds `blocksize` bytes (the last one the rest) shuffled as a whole, then
//! cut into `typesize` equal streams when split (never the last, short block; only when the type
//! size is at most 16 and the block holds at least 128 elements), each stream stored as an i32
//! length and the compressed bytes, or the bytes themselves when the length equals the stream's
//! decoded size. zlib streams carry zlib headers; zstd streams are frames; lz4 ones raw blocks.

use rayon::prelude::*;

use crate::shuffle::{bitshuffle, bitunshuffle, shuffle, unshuffle, unshuffle_planes};
use crate::{corrupt, le32, CodecError, Result};

/// Size of the frame header.
pub const HEADER: usize = 16;
const MEMCPYED: u8 = 0x2;
const DOSHUFFLE: u8 = 0x1;
const DOBITSHUFFLE: u8 = 0x4;
const DONT_SPLIT: u8 = 0x10;
const MAX_SPLITS: usize = 16;
const MIN_BUFFERSIZE: usize = 128;
/// The largest buffer c-blosc 1.x compresses.
pub const MAX_BUFFERSIZE: usize = i32::MAX as usize - HEADER;
/// Blocks in parallel only when a frame has at least this many bytes.
const PARALLEL_BYTES: usize = 1 << 20;
/// From one of rayon's pool threads, blocks in parallel only when a frame has this many bytes.
const POOL_PARALLEL_BYTES: usize = 8 << 20;

/// blosc's internal compressors, numbered as c-blosc's compressor codes (`BLOSC_BLOSCLZ`..., the
/// numbers HDF5's blosc filter keeps in its seventh client datum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compressor {
    /// blosclz (code 0).
    BloscLz = 0,
    /// lz4 (code 1).
    Lz4 = 1,
    /// lz4hc (code 2): the lz4 format; encoded here with lz4's (faster, larger) compressor.
    Lz4Hc = 2,
    /// snappy (code 3): not implemented.
    Snappy = 3,
    /// zlib (code 4).
    Zlib = 4,
    /// zstd (code 5).
    Zstd = 5,
}

impl Compressor {
    /// The compressor of a c-blosc compressor code.
    pub fn from_code(code: u32) -> Option<Compressor> {
        Some(match code {
            0 => Compressor::BloscLz,
            1 => Compressor::Lz4,
            2 => Compressor::Lz4Hc,
            3 => Compressor::Snappy,
            4 => Compressor::Zlib,
            5 => Compressor::Zstd,
            _ => return None,
        })
    }

    /// The format number in bits 5-7 of the header flags.
    fn format(self) -> u8 {
        match self {
            Compressor::BloscLz => 0,
            Compressor::Lz4 | Compressor::Lz4Hc => 1,
            Compressor::Snappy => 2,
            Compressor::Zlib => 3,
            Compressor::Zstd => 4,
        }
    }

    /// Compressors meant for high compression ratios get larger blocks.
    fn hcr(self) -> bool {
        matches!(
            self,
            Compressor::Lz4Hc | Compressor::Zlib | Compressor::Zstd
        )
    }
}

/// Shuffle applied before compressing (c-blosc's `BLOSC_NOSHUFFLE`, `BLOSC_SHUFFLE`,
/// `BLOSC_BITSHUFFLE`: 0, 1, 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shuffle {
    /// No shuffle.
    None = 0,
    /// Byte shuffle.
    Byte = 1,
    /// Bit shuffle.
    Bit = 2,
}

impl Shuffle {
    /// The shuffle of a c-blosc shuffle code.
    pub fn from_code(code: u32) -> Option<Shuffle> {
        Some(match code {
            0 => Shuffle::None,
            1 => Shuffle::Byte,
            2 => Shuffle::Bit,
            _ => return None,
        })
    }
}

/// What a frame header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Format version (2 for c-blosc 1.x).
    pub version: u8,
    /// Flags byte.
    pub flags: u8,
    /// Element size the shuffles used.
    pub typesize: usize,
    /// Decoded size.
    pub nbytes: usize,
    /// Block size.
    pub blocksize: usize,
    /// Frame size.
    pub cbytes: usize,
}

/// Reads a frame header.
pub fn header(src: &[u8]) -> Result<Header> {
    if src.len() < HEADER {
        return corrupt("blosc: frame shorter than its header");
    }
    let (Some(nbytes), Some(blocksize), Some(cbytes)) = (le32(src, 4), le32(src, 8), le32(src, 12))
    else {
        return corrupt("blosc: short header");
    };
    Ok(Header {
        version: src[0],
        flags: src[2],
        typesize: src[3] as usize,
        nbytes: nbytes as usize,
        blocksize: blocksize as usize,
        cbytes: cbytes as usize,
    })
}

/// Decodes a blosc1 frame of at most `max_out` bytes (blocks decoded in parallel when the frame
/// is large). The output is allocated only once the frame's streams are long enough to decode to
/// the size its header claims, so a short hostile frame cannot make it allocate much.
pub fn decode(src: &[u8], max_out: usize) -> Result<Vec<u8>> {
    let h = header(src)?;
    if h.nbytes > max_out {
        return Err(CodecError::TooLarge(max_out));
    }
    check_frame(&h, src)?;
    check_stream_sizes(&h, src)?;
    let mut out = vec![0u8; h.nbytes];
    decode_into(src, &mut out)?;
    Ok(out)
}

/// Checks what the header says against the frame: its size, a plain copy's length, the block
/// and type sizes, the compressor format and room for the block offsets.
fn check_frame(h: &Header, src: &[u8]) -> Result<()> {
    if h.cbytes > src.len() || h.cbytes < HEADER {
        return corrupt("blosc: frame size beyond the data");
    }
    if h.flags & MEMCPYED != 0 {
        if HEADER + h.nbytes > h.cbytes {
            return corrupt("blosc: copied frame shorter than its size");
        }
        return Ok(());
    }
    if h.nbytes == 0 {
        return Ok(());
    }
    if h.blocksize == 0 || h.typesize == 0 {
        return corrupt("blosc: zero block or type size");
    }
    let format = h.flags >> 5;
    if format > 4 {
        return corrupt(format!("blosc: compressor format {format}"));
    }
    if format == 2 {
        return Err(CodecError::Unsupported(
            "blosc frames compressed with snappy".into(),
        ));
    }
    if HEADER + 4 * h.nbytes.div_ceil(h.blocksize) > h.cbytes {
        return corrupt("blosc: block offsets beyond the frame");
    }
    Ok(())
}

/// The most bytes `len` compressed bytes of compressor format `format` can decode to: each
/// extra length byte of blosclz and lz4 adds at most 255 to a match, deflate peaks at 1032:1,
/// and a zstd block of at most 128 KiB takes at least 4 bytes (RFC 8878 section 3.1.1.2).
fn max_decoded(format: u8, len: usize) -> usize {
    let ratio = match format {
        0 | 1 => 256,
        3 => 1100,
        _ => 1 << 15,
    };
    len.saturating_mul(ratio).saturating_add(64)
}

/// Walks the blocks' stream lengths (no decoding) and refuses a frame whose streams are too
/// short to decode to the sizes the header claims.
fn check_stream_sizes(h: &Header, src: &[u8]) -> Result<()> {
    if h.flags & MEMCPYED != 0 || h.nbytes == 0 {
        return Ok(());
    }
    let src = &src[..h.cbytes];
    let format = h.flags >> 5;
    for j in 0..h.nbytes.div_ceil(h.blocksize) {
        let bsize = h.blocksize.min(h.nbytes - j * h.blocksize);
        let leftover = bsize < h.blocksize;
        let nsplits = if splits(h.flags, h.typesize, bsize, leftover) {
            h.typesize
        } else {
            1
        };
        let neblock = bsize / nsplits;
        let mut at = le32(src, HEADER + 4 * j).unwrap_or(u32::MAX) as usize;
        for _ in 0..nsplits {
            let Some(cb) = le32(src, at) else {
                return corrupt("blosc: truncated stream length");
            };
            let cb = cb as usize;
            at = at.saturating_add(4).saturating_add(cb);
            if at > src.len() {
                return corrupt("blosc: truncated stream");
            }
            if cb != neblock && max_decoded(format, cb) < neblock {
                return corrupt(format!(
                    "blosc: a stream of {cb} bytes cannot decode to {neblock}"
                ));
            }
        }
    }
    Ok(())
}

/// Decodes a blosc1 frame into the start of `dst`, each block straight into its place (the
/// unshuffle reads the decompressed block from a buffer each thread keeps); returns the decoded
/// size. A frame that decodes to more than `dst.len()` bytes is refused before anything is
/// written. Blocks are decoded in parallel when the frame is large.
pub fn decode_into(src: &[u8], dst: &mut [u8]) -> Result<usize> {
    let h = header(src)?;
    if h.nbytes > dst.len() {
        return Err(CodecError::TooLarge(dst.len()));
    }
    check_frame(&h, src)?;
    let src = &src[..h.cbytes];
    let out = &mut dst[..h.nbytes];
    if h.flags & MEMCPYED != 0 {
        out.copy_from_slice(&src[HEADER..HEADER + h.nbytes]);
        return Ok(h.nbytes);
    }
    if h.nbytes == 0 {
        return Ok(0);
    }
    let nblocks = h.nbytes.div_ceil(h.blocksize);
    let work = |(j, dst): (usize, &mut [u8])| -> Result<()> {
        let start = le32(src, HEADER + 4 * j).unwrap_or(u32::MAX) as usize;
        let Some(block) = src.get(start..) else {
            return corrupt("blosc: block offset beyond the frame");
        };
        let leftover = dst.len() < h.blocksize;
        decode_block(&h, block, leftover, dst)
    };
    if h.nbytes >= PARALLEL_BYTES && nblocks > 1 {
        out.par_chunks_mut(h.blocksize)
            .enumerate()
            .try_for_each(work)?;
    } else {
        out.chunks_mut(h.blocksize).enumerate().try_for_each(work)?;
    }
    Ok(h.nbytes)
}

thread_local! {
    /// A block on its way through a shuffle, reused by each thread from block to block.
    static BLOCK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` on a buffer of `len` bytes of this thread's (contents unspecified).
fn with_block<T>(len: usize, f: impl FnOnce(&mut [u8]) -> T) -> T {
    BLOCK.with(|b| match b.try_borrow_mut() {
        Ok(mut b) => {
            if b.len() < len {
                b.resize(len, 0);
            }
            f(&mut b[..len])
        }
        // Only a re-entrant call finds it taken (a rayon worker that picks up another block
        // while waiting); it gets a buffer of its own.
        Err(_) => f(&mut vec![0u8; len]),
    })
}

/// Whether a block of `bsize` bytes is cut into `typesize` streams.
fn splits(flags: u8, typesize: usize, bsize: usize, leftover: bool) -> bool {
    flags & DONT_SPLIT == 0
        && typesize <= MAX_SPLITS
        && bsize / typesize >= MIN_BUFFERSIZE
        && !leftover
}

fn decode_block(h: &Header, src: &[u8], leftover: bool, dst: &mut [u8]) -> Result<()> {
    let bsize = dst.len();
    let ts = h.typesize;
    let byte = h.flags & DOSHUFFLE != 0 && ts > 1;
    let bit = !byte && h.flags & DOBITSHUFFLE != 0;
    if !(byte || bit) {
        return decompress_block(h, src, leftover, dst, None).map(drop);
    }
    with_block(bsize, |tmp| {
        if byte && ts <= MAX_SPLITS {
            return unshuffle_block(h, src, leftover, tmp, dst);
        }
        decompress_block(h, src, leftover, tmp, None)?;
        if byte {
            unshuffle(tmp, dst, ts);
            return Ok(());
        }
        let n = bsize / ts;
        // Newer frames bit-shuffle the whole multiple of 8 elements, leaving the rest; format
        // 2 bit-shuffles only blocks of a multiple of 8 elements.
        let whole = if h.version >= 3 || n.is_multiple_of(8) {
            n - n % 8
        } else {
            0
        };
        bitunshuffle(tmp, dst, ts, whole);
        dst[whole * ts..].copy_from_slice(&tmp[whole * ts..]);
        Ok(())
    })
}

/// Decodes a byte-shuffled block into `dst`: streams stored uncompressed are unshuffled
/// straight from the frame, the others after decompressing into `tmp` (the block's size).
fn unshuffle_block(
    h: &Header,
    src: &[u8],
    leftover: bool,
    tmp: &mut [u8],
    dst: &mut [u8],
) -> Result<()> {
    let (bsize, ts) = (dst.len(), h.typesize);
    let mut raw = [const { None }; MAX_SPLITS];
    let nsplits = decompress_block(h, src, leftover, tmp, Some(&mut raw))?;
    let neblock = bsize / nsplits;
    let stream = |j: usize| match &raw[j] {
        Some(r) => &src[r.clone()],
        None => &tmp[j * neblock..(j + 1) * neblock],
    };
    let n = bsize / ts;
    let mut planes = [&src[..0]; MAX_SPLITS];
    if nsplits == ts {
        // One stream per byte plane; bytes no stream covers read as zeros.
        for (j, p) in planes[..ts].iter_mut().enumerate() {
            *p = stream(j);
        }
        dst[n * ts..].fill(0);
    } else {
        // One stream of the whole block, its bytes past the last whole element kept as they are.
        let whole = stream(0);
        for (j, p) in planes[..ts].iter_mut().enumerate() {
            *p = &whole[j * n..(j + 1) * n];
        }
        dst[n * ts..].copy_from_slice(&whole[n * ts..]);
    }
    unshuffle_planes(&planes[..ts], &mut dst[..n * ts]);
    Ok(())
}

/// Decompresses the streams of one block into `out` (the block's size), still shuffled; returns
/// how many streams the block has. With `raw`, a stream stored uncompressed is not copied:
/// its range in `src` is put in `raw` instead.
fn decompress_block(
    h: &Header,
    src: &[u8],
    leftover: bool,
    out: &mut [u8],
    mut raw: Option<&mut [Option<std::ops::Range<usize>>; MAX_SPLITS]>,
) -> Result<usize> {
    let bsize = out.len();
    let nsplits = if splits(h.flags, h.typesize, bsize, leftover) {
        h.typesize
    } else {
        1
    };
    let neblock = bsize / nsplits;
    let mut at = 0usize;
    for (j, part) in out.chunks_exact_mut(neblock).take(nsplits).enumerate() {
        let Some(cb) = le32(src, at) else {
            return corrupt("blosc: truncated stream length");
        };
        at += 4;
        let cb = cb as usize;
        let Some(data) = src.get(at..at.saturating_add(cb)) else {
            return corrupt("blosc: truncated stream");
        };
        if cb == neblock {
            match raw.as_deref_mut() {
                Some(raw) => raw[j] = Some(at..at + cb),
                None => part.copy_from_slice(data),
            }
        } else if decompress(h.flags >> 5, data, part)? != neblock {
            return corrupt("blosc: stream decodes to the wrong size");
        }
        at += cb;
    }
    // Bytes no stream covers (a split block not a multiple of the type size, in a frame
    // c-blosc would not write) read as zeros, whatever the buffer held before.
    out[nsplits * neblock..].fill(0);
    Ok(nsplits)
}

/// Decodes one stream of compressor format `format` into `out`, returning its decoded length.
fn decompress(format: u8, data: &[u8], out: &mut [u8]) -> Result<usize> {
    match format {
        0 => crate::blosclz::decode_into(data, out)
            .ok_or_else(|| CodecError::Corrupt("blosc: bad blosclz stream".into())),
        1 => crate::lz4_block::decode_block_into(data, out)
            .ok_or_else(|| CodecError::Corrupt("blosc: bad lz4 stream".into())),
        3 => {
            use flate2::{Decompress, FlushDecompress, Status};
            let mut d = Decompress::new(true);
            match d.decompress(data, out, FlushDecompress::Finish) {
                Ok(Status::StreamEnd) => Ok(d.total_out() as usize),
                _ => corrupt("blosc: bad zlib stream"),
            }
        }
        4 => crate::zstd::decode_into(data, out),
        _ => Err(CodecError::Unsupported(format!(
            "blosc compressor format {format}"
        ))),
    }
}

/// How to encode a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// Compression level 0-9 (0: a plain copy).
    pub clevel: u8,
    /// Shuffle before compressing.
    pub shuffle: Shuffle,
    /// Element size for the shuffles (above 255: treated as 1, as c-blosc does).
    pub typesize: usize,
    /// Internal compressor.
    pub compressor: Compressor,
    /// Block size; 0 lets c-blosc's rule choose from the level, compressor and size.
    pub blocksize: usize,
}

/// c-blosc 1.21's automatic block size (`compute_blocksize`): 32 KiB (64 KiB for the high-ratio
/// compressors lz4hc, zlib and zstd) scaled by the level; for a compressor whose blocks are split
/// into streams ([`splits_blocks`]), at most 256 KiB per stream, times the type size, kept within
/// 64 KiB..1 MiB; then capped by the buffer and made a multiple of the type size.
fn compute_blocksize(p: &Params, typesize: usize, nbytes: usize) -> usize {
    if nbytes < typesize {
        return 1;
    }
    let mut bs = nbytes;
    if p.blocksize != 0 {
        bs = p.blocksize.max(MIN_BUFFERSIZE);
    } else if nbytes >= 32 * 1024 {
        bs = 32 * 1024;
        if p.compressor.hcr() {
            bs *= 2;
        }
        bs = match p.clevel {
            0 => bs / 4,
            1 => bs / 2,
            2 => bs,
            3 => bs * 2,
            4..=5 => bs * 4,
            6..=8 => bs * 8,
            _ if p.compressor.hcr() => bs * 16,
            _ => bs * 8,
        };
    }
    if p.clevel > 0 && splits_blocks(p.compressor, typesize, bs) {
        bs = (bs.min(1 << 18) * typesize).clamp(1 << 16, 1 << 20);
    }
    bs = bs.min(nbytes);
    if bs > typesize {
        bs = bs / typesize * typesize;
    }
    bs
}

/// Whether c-blosc 1.21 (in its default, forward-compatible split mode) cuts the blocks of a
/// frame into `typesize` streams: for every compressor but zstd, when the type size is at most
/// 16 and a block holds at least 128 elements.
fn splits_blocks(c: Compressor, typesize: usize, blocksize: usize) -> bool {
    c != Compressor::Zstd && typesize <= MAX_SPLITS && blocksize / typesize >= MIN_BUFFERSIZE
}

/// Encodes `src` as a blosc1 frame that c-blosc 1.x reads (a plain-copy frame when compression
/// does not shrink it), with c-blosc 1.21's block sizes, stream splits and lz4 acceleration.
/// Blocks are compressed in parallel when the buffer is large and the caller is not one of
/// rayon's pool threads. The frame's buffer comes from [`crate::buffers`]: give it back once
/// stored.
pub fn encode(src: &[u8], p: &Params) -> Result<Vec<u8>> {
    if src.len() > MAX_BUFFERSIZE {
        return Err(CodecError::BadParams(format!(
            "blosc buffer of {} bytes",
            src.len()
        )));
    }
    if p.clevel > 9 {
        return Err(CodecError::BadParams(format!("blosc level {}", p.clevel)));
    }
    if p.compressor == Compressor::Snappy {
        return Err(CodecError::Unsupported("blosc with snappy".into()));
    }
    let ts = if (1..=255).contains(&p.typesize) {
        p.typesize
    } else {
        1
    };
    let nbytes = src.len();
    let blocksize = compute_blocksize(p, ts, nbytes).max(1);
    let nblocks = nbytes.div_ceil(blocksize);
    let mut flags = p.compressor.format() << 5;
    match p.shuffle {
        Shuffle::Byte => flags |= DOSHUFFLE,
        Shuffle::Bit => flags |= DOBITSHUFFLE,
        Shuffle::None => {}
    }
    if !splits_blocks(p.compressor, ts, blocksize) {
        flags |= DONT_SPLIT;
    }
    let mut head = [0u8; HEADER];
    head[0] = 2;
    head[1] = 1;
    head[3] = ts as u8;
    head[4..8].copy_from_slice(&(nbytes as u32).to_le_bytes());
    head[8..12].copy_from_slice(&(blocksize as u32).to_le_bytes());
    let copy = |mut head: [u8; HEADER]| {
        head[2] = flags | MEMCPYED;
        head[12..16].copy_from_slice(&((nbytes + HEADER) as u32).to_le_bytes());
        let mut out = crate::buffers::take(nbytes + HEADER);
        out.extend_from_slice(&head);
        out.extend_from_slice(src);
        out
    };
    if p.clevel == 0 || nbytes < MIN_BUFFERSIZE {
        return Ok(copy(head));
    }
    head[2] = flags;
    let h = Header {
        version: 2,
        flags,
        typesize: ts,
        nbytes,
        blocksize,
        cbytes: 0,
    };
    let leftover = |j: usize, block: &[u8]| j + 1 == nblocks && block.len() < blocksize;
    let starts = HEADER + 4 * nblocks;
    // Blocks in parallel for a large frame, unless this is already one of the pool's jobs (a
    // chunk among others) and not very large: there each block goes straight into the frame.
    let parallel = nblocks > 1
        && (nbytes >= POOL_PARALLEL_BYTES
            || (nbytes >= PARALLEL_BYTES && rayon::current_thread_index().is_none()));
    let mut out = crate::buffers::take(nbytes + starts + crate::lz4_block::APPEND_SLACK);
    out.extend_from_slice(&head);
    out.resize(starts, 0);
    let mut offsets = Vec::with_capacity(nblocks);
    if parallel {
        let blocks: Vec<Vec<u8>> = src
            .par_chunks(blocksize)
            .enumerate()
            .map(|(j, block)| {
                // Room for every stream stored whole: appending never reallocates.
                let room = block.len() + 4 * MAX_SPLITS + 2 * crate::lz4_block::APPEND_SLACK;
                let mut b = Vec::with_capacity(room);
                encode_block(&h, p, block, leftover(j, block), &mut b).map(|()| b)
            })
            .collect::<Result<_>>()?;
        for b in blocks {
            offsets.push(out.len());
            out.extend_from_slice(&b);
            if out.len() >= nbytes + HEADER {
                break;
            }
        }
    } else {
        for (j, block) in src.chunks(blocksize).enumerate() {
            offsets.push(out.len());
            encode_block(&h, p, block, leftover(j, block), &mut out)?;
            if out.len() >= nbytes + HEADER {
                break;
            }
        }
    }
    let total = out.len();
    if total >= nbytes + HEADER {
        crate::buffers::give(out);
        return Ok(copy(head));
    }
    out[12..16].copy_from_slice(&(total as u32).to_le_bytes());
    for (j, at) in offsets.into_iter().enumerate() {
        out[HEADER + 4 * j..HEADER + 4 * j + 4].copy_from_slice(&(at as u32).to_le_bytes());
    }
    Ok(out)
}

/// Appends one block, shuffled as the flags say and compressed, to `out`.
fn encode_block(
    h: &Header,
    p: &Params,
    src: &[u8],
    leftover: bool,
    out: &mut Vec<u8>,
) -> Result<()> {
    let bsize = src.len();
    let ts = h.typesize;
    let n = bsize / ts;
    if h.flags & DOSHUFFLE != 0 && ts > 1 {
        with_block(bsize, |tmp| {
            shuffle(src, tmp, ts);
            compress_block(h, p, tmp, leftover, out)
        })
    } else if h.flags & DOBITSHUFFLE != 0 && n.is_multiple_of(8) {
        // Format 2 bit-shuffles a block only when it holds a multiple of 8 elements.
        with_block(bsize, |tmp| {
            bitshuffle(src, tmp, ts, n);
            tmp[n * ts..].copy_from_slice(&src[n * ts..]);
            compress_block(h, p, tmp, leftover, out)
        })
    } else {
        compress_block(h, p, src, leftover, out)
    }
}

/// Appends a (shuffled) block to `out` as its streams, each behind its length.
fn compress_block(
    h: &Header,
    p: &Params,
    data: &[u8],
    leftover: bool,
    out: &mut Vec<u8>,
) -> Result<()> {
    let bsize = data.len();
    let nsplits = if splits(h.flags, h.typesize, bsize, leftover) {
        h.typesize
    } else {
        1
    };
    let neblock = bsize / nsplits;
    for part in data.chunks_exact(neblock).take(nsplits) {
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        let n = if compress_onto(p, part, out)? {
            out.len() - at - 4
        } else {
            out.truncate(at + 4);
            out.extend_from_slice(part);
            neblock
        };
        out[at..at + 4].copy_from_slice(&(n as u32).to_le_bytes());
    }
    Ok(())
}

/// Appends one compressed stream to `out`; false (with `out` holding whatever was appended)
/// when it does not shrink.
fn compress_onto(p: &Params, part: &[u8], out: &mut Vec<u8>) -> Result<bool> {
    let stream = match p.compressor {
        Compressor::Lz4 | Compressor::Lz4Hc => {
            // c-blosc's acceleration for lz4 (`get_accel`); lz4hc gets lz4's default.
            let accel = match p.compressor {
                Compressor::Lz4 => 10 - u32::from(p.clevel),
                _ => 1,
            };
            // Straight onto `out`, no longer than the part less a byte: one that does not
            // shrink stops early.
            let limit = part.len().saturating_sub(1);
            let at = out.len();
            return Ok(
                crate::lz4_block::compress_block_append(part, out, limit, accel) && out.len() > at,
            );
        }
        Compressor::BloscLz => crate::blosclz::encode(part, part.len()),
        Compressor::Zlib => {
            use std::io::Write;
            let mut e = flate2::write::ZlibEncoder::new(
                Vec::with_capacity(part.len() / 2),
                flate2::Compression::new(u32::from(p.clevel)),
            );
            e.write_all(part)
                .map_err(|e| CodecError::Corrupt(e.to_string()))?;
            Some(e.finish().map_err(|e| CodecError::Corrupt(e.to_string()))?)
        }
        Compressor::Zstd => {
            // c-blosc's mapping of its levels to zstd's.
            let level = if p.clevel < 9 {
                2 * i32::from(p.clevel) - 1
            } else {
                22
            };
            Some(crate::zstd::encode(part, level)?)
        }
        Compressor::Snappy => return Err(CodecError::Unsupported("blosc with snappy".into())),
    };
    let shrank = match &stream {
        Some(c) if !c.is_empty() && c.len() < part.len() => {
            out.extend_from_slice(c);
            true
        }
        _ => false,
    };
    // zstd's frames come from the kept buffers: back they go.
    if let Some(c) = stream {
        crate::buffers::give(c);
    }
    Ok(shrank)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let raw: Vec<u8> = (0..70_001u32)
            .flat_map(|v| ((v as f32).sin() * 100.0).to_le_bytes())
            .collect();
        for c in [
            Compressor::BloscLz,
            Compressor::Lz4,
            Compressor::Lz4Hc,
            Compressor::Zlib,
            Compressor::Zstd,
        ] {
            for s in [Shuffle::None, Shuffle::Byte, Shuffle::Bit] {
                for ts in [1, 2, 4, 8, 3] {
                    for clevel in [0, 1, 5, 9] {
                        let p = Params {
                            clevel,
                            shuffle: s,
                            typesize: ts,
                            compressor: c,
                            blocksize: 0,
                        };
                        let enc = encode(&raw, &p).unwrap();
                        let dec = decode(&enc, raw.len()).unwrap();
                        assert!(dec == raw, "{c:?} {s:?} {ts} {clevel}");
                        assert!(decode(&enc, raw.len() - 1).is_err());
                        crate::check_decode_into(decode_into, &enc, &raw);
                        for cut in [0, 10, enc.len() / 2] {
                            let _ = decode(&enc[..cut], raw.len());
                        }
                    }
                }
            }
        }
        let small = encode(
            b"abc",
            &Params {
                clevel: 5,
                shuffle: Shuffle::Byte,
                typesize: 1,
                compressor: Compressor::Lz4,
                blocksize: 0,
            },
        )
        .unwrap();
        assert_eq!(decode(&small, 3).unwrap(), b"abc");
    }

    /// Blocks whose byte planes are partly stored uncompressed (noise) and partly compressed
    /// (constant), split into one stream per plane (lz4) or kept whole (zstd), for type sizes
    /// up to 16 and lengths that leave a short last block and bytes past the last element.
    #[test]
    fn mixed_stored_and_compressed_planes_unshuffle() {
        let mut x = 0x9E37_79B9u32;
        for ts in [2usize, 3, 4, 8, 16] {
            for len in [1000 * ts + 3, (300_000 / ts) * ts + 1] {
                let raw: Vec<u8> = (0..len)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 17;
                        x ^= x << 5;
                        // Low half of each element noise, high half constant.
                        if i % ts < ts / 2 {
                            x as u8
                        } else {
                            7
                        }
                    })
                    .collect();
                for c in [Compressor::Lz4, Compressor::Zstd, Compressor::BloscLz] {
                    for clevel in [1, 9] {
                        let p = Params {
                            clevel,
                            shuffle: Shuffle::Byte,
                            typesize: ts,
                            compressor: c,
                            blocksize: 0,
                        };
                        let enc = encode(&raw, &p).unwrap();
                        assert!(
                            enc.len() < raw.len(),
                            "{c:?} {ts}: the constant planes shrink"
                        );
                        assert!(decode(&enc, raw.len()).unwrap() == raw, "{c:?} {ts} {len}");
                        crate::check_decode_into(decode_into, &enc, &raw);
                    }
                }
            }
        }
    }

    /// Blocks kept whole (zstd blocks are not split into streams) that do not compress are
    /// stored as they are, among blocks that do: the first block and the short last one (whose
    /// bytes past its last whole element stay as they are) are unshuffled from the frame.
    #[test]
    fn whole_blocks_stored_uncompressed_unshuffle() {
        let mut x = 0x1234_5678u32;
        let mut noise = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    x as u8
                })
                .collect()
        };
        for ts in [4usize, 8, 3] {
            let bsize = 4096 / ts * ts;
            let mut raw = noise(bsize);
            raw.resize(15 * bsize, 5);
            raw.extend(noise(bsize - 5));
            let p = Params {
                clevel: 5,
                shuffle: Shuffle::Byte,
                typesize: ts,
                compressor: Compressor::Zstd,
                blocksize: bsize,
            };
            let enc = encode(&raw, &p).unwrap();
            let h = header(&enc).unwrap();
            assert_eq!(
                (h.flags & (MEMCPYED | DONT_SPLIT), h.blocksize),
                (DONT_SPLIT, bsize)
            );
            let start = |j: usize| le32(&enc, HEADER + 4 * j).unwrap() as usize;
            assert_eq!(
                le32(&enc, start(0)),
                Some(bsize as u32),
                "block 0 stored whole"
            );
            assert_eq!(
                le32(&enc, start(15)),
                Some(bsize as u32 - 5),
                "last block stored"
            );
            assert!(decode(&enc, raw.len()).unwrap() == raw, "type size {ts}");
            crate::check_decode_into(decode_into, &enc, &raw);
        }
    }

    #[test]
    fn the_most_compressible_data_decodes_and_short_streams_claiming_more_are_refused() {
        let zeros = vec![0u8; 4 << 20];
        for c in [
            Compressor::BloscLz,
            Compressor::Lz4,
            Compressor::Zlib,
            Compressor::Zstd,
        ] {
            for blocksize in [0, 4 << 20] {
                let p = Params {
                    clevel: 9,
                    shuffle: Shuffle::None,
                    typesize: 1,
                    compressor: c,
                    blocksize,
                };
                let enc = encode(&zeros, &p).unwrap();
                assert!(decode(&enc, zeros.len()).unwrap() == zeros, "{c:?}");
            }
        }
        // One unsplit lz4 block claiming 700 MB from a 10-byte stream.
        let claim = 700_000_000u32;
        let mut frame = vec![2, 1, (1 << 5) | DONT_SPLIT, 1];
        for v in [claim, claim, 34, 20, 10] {
            frame.extend_from_slice(&v.to_le_bytes());
        }
        frame.extend_from_slice(&[0; 10]);
        let err = decode(&frame, 1 << 30).unwrap_err().to_string();
        assert!(
            err.contains("a stream of 10 bytes cannot decode to 700000000"),
            "{err}"
        );
    }
}
