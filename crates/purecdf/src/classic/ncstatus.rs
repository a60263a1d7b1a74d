//! What netcdf-c 4.9 reports when it opens a damaged classic file: the status its header reader
//! (`nc_get_NC` in libsrc/v1hpg.c, then `NC_computeshapes`, `NC_check_vlens`, `NC_check_voffs`)
//! returns, so that the tools print netcdf-c's message where purecdf's own reader, which checks
//! more and earlier, reports its richer error. The header grammar is that of the file format spec,
//! "The NetCDF Classic Format Specification".
//!
//! netcdf-c reads the header through its page buffer: bytes past the end of the file read as
//! zeros, and a field is only fetched once a window of at least its size is got, which fails
//! with `E2BIG` when the window would exceed the two-block buffer. Its lists are allocated at the
//! counts read, so whether a huge count fails with `NC_ENOMEM` or is read on (as zeros) depends on
//! the memory netcdf-c may use: [`alloc_limit`] models Linux's default overcommit rule and the
//! process's address-space limit. Outcomes netcdf-c does not survive (it crashes) or that cannot
//! be predicted are `None`.

use std::sync::OnceLock;

use super::storage::Storage;

const NC_EINVAL: i32 = -36;
const NC_EBADDIM: i32 = -46;
const NC_EUNLIMPOS: i32 = -47;
const NC_ENOTNC: i32 = -51;
const NC_ERANGE: i32 = -60;
const NC_ENOMEM: i32 = -61;
const NC_EVARSIZE: i32 = -62;
/// The system error `EINVAL` (a list tag that is not the list's).
const SYS_EINVAL: i32 = 22;
/// The system error `E2BIG` (a header field larger than netcdf-c's buffer).
const SYS_E2BIG: i32 = 7;

/// Why the walk stopped early.
enum Stop {
    /// netcdf-c returns this status.
    Status(i32),
    /// netcdf-c crashes, or its outcome cannot be predicted.
    Unknown,
}

type Walk<T> = Result<T, Stop>;

/// Address space netcdf-c's tools use before reading a header (shared libraries, stack, heap).
const BASELINE: u64 = 128 << 20;

/// Largest single allocation assumed to succeed: Linux's heuristic overcommit refuses more than
/// physical memory plus swap, and the address-space limit (`ulimit -v`) caps the rest.
pub(crate) fn alloc_limit() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let mut limit = u64::MAX;
        if let Ok(s) = std::fs::read_to_string("/proc/meminfo") {
            let kib = |key: &str| -> Option<u64> {
                s.lines()
                    .find(|l| l.starts_with(key))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<u64>().ok())
            };
            if let Some(total) = kib("MemTotal:") {
                limit = (total + kib("SwapTotal:").unwrap_or(0)).saturating_mul(1024);
            }
        } else {
            limit = 8 << 30;
        }
        if let Ok(s) = std::fs::read_to_string("/proc/self/limits") {
            let soft = s
                .lines()
                .find(|l| l.starts_with("Max address space"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|v| v.parse::<u64>().ok());
            if let Some(bytes) = soft {
                limit = limit.min(bytes.saturating_sub(BASELINE));
            }
        }
        limit
    })
}

/// Sizes beyond which a heap pointer plus the size wraps round the address space (user-space
/// addresses stay below 2^48).
const WRAPS: u64 = u64::MAX - (1 << 48);

/// netcdf-c's view of the header: a cursor over the file with its window (`v1hs`).
struct Stream<'a> {
    src: &'a Storage,
    blksz: u64,
    /// Window start and extent.
    woff: u64,
    wext: u64,
    pos: u64,
    /// Width of counts: 4, or 8 in CDF-5.
    w: u64,
    /// A size wrapped round without stopping netcdf-c's reader.
    poisoned: bool,
}

impl Stream<'_> {
    /// `ncio_get` of a window: fails where `px_get` would.
    fn get(&self, off: u64, ext: u64) -> Walk<()> {
        let blkoff = off / self.blksz * self.blksz;
        let diff = off - blkoff;
        let blkext = (diff.wrapping_add(ext))
            .wrapping_add(self.blksz - 1)
            .wrapping_div(self.blksz)
            .wrapping_mul(self.blksz);
        if blkext > 2 * self.blksz {
            return Err(Stop::Status(SYS_E2BIG));
        }
        if ext > 2 * self.blksz {
            // The size wrapped round: netcdf-c copies far past its buffer.
            return Err(Stop::Unknown);
        }
        Ok(())
    }

    /// `check_v1hs`: makes `n` bytes available at the current position.
    fn check(&mut self, n: u64) -> Walk<()> {
        if n > WRAPS {
            // The buffer pointer plus this wraps round: netcdf-c then copies past its buffer.
            return Err(Stop::Unknown);
        }
        if self.pos + n <= self.woff + self.wext {
            return Ok(());
        }
        self.woff = self.pos;
        self.wext = self.wext.max(n);
        self.get(self.woff, self.wext)
    }

    /// Reads `n` (at most 8) bytes big-endian at the position, zeros past the end of the file.
    fn raw(&mut self, n: u64) -> Walk<u64> {
        let mut b = [0u8; 8];
        let k = n as usize;
        self.src
            .read_zero_fill(self.pos, &mut b[..k])
            .map_err(|_| Stop::Unknown)?;
        self.pos += n;
        Ok(b[..k].iter().fold(0u64, |a, &x| (a << 8) | u64::from(x)))
    }

    fn u32(&mut self) -> Walk<u64> {
        self.check(4)?;
        self.raw(4)
    }

    fn size(&mut self) -> Walk<u64> {
        self.check(self.w)?;
        self.raw(self.w)
    }

    /// `v1h_get_NC_string`: the name's length, then its padded bytes.
    fn name(&mut self) -> Walk<()> {
        let n = self.size()?;
        alloc(n.wrapping_add(17))?;
        if n.checked_add(17).is_none() {
            // new_NC_string's size wrapped round: netcdf-c copies the name past it.
            return Err(Stop::Unknown);
        }
        let padded = n.wrapping_add(3) & !3;
        self.check(padded)?;
        if padded < n {
            return Err(Stop::Unknown);
        }
        self.pos = self.pos.checked_add(padded).ok_or(Stop::Unknown)?;
        Ok(())
    }
}

/// Whether netcdf-c's `malloc` of `n` bytes succeeds (`NC_ENOMEM` if not).
fn alloc(n: u64) -> Walk<()> {
    if n > alloc_limit() {
        return Err(Stop::Status(NC_ENOMEM));
    }
    Ok(())
}

/// A list count's allocation (`n` pointers, a size that wraps as in C) and its name table
/// (`NC_hashmapnew`).
fn alloc_list(n: u64, hashed: bool) -> Walk<()> {
    alloc(n.wrapping_mul(8))?;
    if n.checked_mul(8).is_none() {
        // The size wrapped round to something small: netcdf-c writes past it.
        return Err(Stop::Unknown);
    }
    if hashed {
        let slots = n.saturating_mul(4) / 3;
        if slots >= 0xFFFF_FFFF || slots.saturating_mul(40) > alloc_limit() {
            // No table: netcdf-c crashes on the first named entry.
            return Err(Stop::Unknown);
        }
    }
    Ok(())
}

/// External size of one value of a type netcdf-c's reader accepts, 0 for `NC_STRING`.
fn type_size(t: u64) -> u64 {
    match t {
        1 | 2 | 7 => 1,
        3 | 8 => 2,
        4 | 5 | 9 => 4,
        6 | 10 | 11 => 8,
        _ => 0,
    }
}

/// `v1h_get_nc_type`.
fn nc_type(s: &mut Stream<'_>) -> Walk<u64> {
    let t = s.u32()?;
    if t == 0 || t > 12 {
        return Err(Stop::Status(NC_EINVAL));
    }
    Ok(t)
}

/// A list header: tag and count; `EINVAL` when a non-empty list has another tag.
fn list(s: &mut Stream<'_>, tag: u64) -> Walk<u64> {
    let t = s.u32()?;
    let n = s.size()?;
    if n != 0 && t != tag {
        return Err(Stop::Status(SYS_EINVAL));
    }
    Ok(n)
}

/// Most entries of one list read from past the end of the file before giving up on predicting
/// (netcdf-c reads them all as zeros).
const MAX_ENTRIES: u64 = 1 << 20;

fn atts(s: &mut Stream<'_>) -> Walk<()> {
    let n = list(s, 0x0C)?;
    if n == 0 {
        return Ok(());
    }
    alloc_list(n, false)?;
    for _ in 0..n.min(MAX_ENTRIES + 1) {
        s.name()?;
        let t = nc_type(s)?;
        let nelems = s.size()?;
        // ncx_len_NC_attrV, in C's wrapping arithmetic.
        let xsz = nelems.wrapping_mul(type_size(t)).wrapping_add(3) & !3;
        alloc(xsz.wrapping_add(40))?;
        if nelems
            .checked_mul(type_size(t))
            .and_then(|x| x.checked_add(3))
            .is_none()
        {
            // The values' size wrapped round: netcdf-c reads on from the wrong place, and should
            // it open the file, its tools read the values past their buffer.
            s.poisoned = true;
        }
        // v1h_get_NC_attrV: pieces of the window's extent.
        let per = s.wext;
        let mut left = xsz;
        loop {
            let k = per.min(left);
            s.check(k)?;
            s.pos = s.pos.checked_add(k).ok_or(Stop::Unknown)?;
            left -= k;
            if left == 0 {
                break;
            }
        }
    }
    if n > MAX_ENTRIES {
        return Err(Stop::Unknown);
    }
    Ok(())
}

/// One variable as `NC_computeshapes` needs it.
struct Var {
    dimids: Vec<i64>,
    typ: u64,
    begin: i64,
}

/// The status netcdf-c 4.9's `nc_open` returns for this classic file (0 when it opens it), or
/// `None` when netcdf-c crashes on it or its outcome cannot be predicted.
pub(crate) fn open_status(src: &Storage) -> Option<i32> {
    let Ok(len) = src.len() else {
        return None;
    };
    status_of(src, len, src.blksize())
}

/// [`open_status`] for a header purecdf has read: its bytes, the file's length and its I/O
/// block size. Memory-dependent failures (`NC_ENOMEM`) are left out: purecdf does not need the
/// memory netcdf-c asks for.
pub(crate) fn header_status(header: Vec<u8>, file_len: u64, blksz: u64) -> Option<i32> {
    match status_of(&Storage::Mem(header), file_len, blksz) {
        Some(NC_ENOMEM) => None,
        s => s,
    }
}

fn status_of(src: &Storage, len: u64, blksz: u64) -> Option<i32> {
    match walk(src, len, blksz) {
        Ok(()) => Some(0),
        Err(Stop::Status(s)) => Some(s),
        Err(Stop::Unknown) => None,
    }
}

fn walk(src: &Storage, len: u64, blksz: u64) -> Walk<()> {
    // check_file_type reads an 8-byte magic number first.
    if len < 8 {
        return Err(Stop::Status(NC_ENOTNC));
    }
    let mut magic = [0u8; 4];
    src.read_zero_fill(0, &mut magic)
        .map_err(|_| Stop::Unknown)?;
    let version = match magic {
        [b'C', b'D', b'F', v @ (1 | 2 | 5)] => v,
        _ => return Err(Stop::Status(NC_ENOTNC)),
    };
    let mut s = Stream {
        src,
        blksz,
        woff: 0,
        wext: blksz.min(4096).min(len),
        pos: 4,
        w: if version == 5 { 8 } else { 4 },
        poisoned: false,
    };
    let ow = if version == 1 { 4 } else { 8 };
    s.raw(s.w)?; // numrecs, read without a check
                 // Dimensions.
    let ndims = list(&mut s, 0x0A)?;
    let mut dims = Vec::new();
    if ndims != 0 {
        alloc_list(ndims, true)?;
        for _ in 0..ndims.min(MAX_ENTRIES + 1) {
            s.name()?;
            dims.push(s.size()?);
        }
        if ndims > MAX_ENTRIES {
            return Err(Stop::Unknown);
        }
    }
    atts(&mut s)?;
    // Variables.
    let nvars = list(&mut s, 0x0B)?;
    let mut vars = Vec::new();
    if nvars != 0 {
        alloc_list(nvars, true)?;
        for _ in 0..nvars.min(MAX_ENTRIES + 1) {
            s.name()?;
            let nd = s.size()?;
            // ncx_len_int / ncx_len_int64, wrapping as in C.
            let ids_len = nd.wrapping_mul(s.w);
            s.check(ids_len)?;
            if nd.checked_mul(s.w).is_none() {
                // Wrapped round to a size the window holds: netcdf-c reads the ids past it.
                return Err(Stop::Unknown);
            }
            if nd.saturating_mul(8) > alloc_limit() {
                // new_x_NC_var does not check its allocations: the ids go nowhere.
                return Err(Stop::Unknown);
            }
            let mut dimids = Vec::new();
            for _ in 0..nd {
                let id = s.raw(s.w)?;
                let id = if s.w == 8 {
                    let v = id as i64;
                    if i32::try_from(v).is_err() {
                        return Err(Stop::Status(NC_ERANGE));
                    }
                    v
                } else {
                    i64::from(id as u32 as i32)
                };
                dimids.push(id);
            }
            atts(&mut s)?;
            let typ = nc_type(&mut s)?;
            s.size()?; // vsize: recomputed below
            s.check(ow)?;
            let b = s.raw(ow)?;
            let begin = if ow == 4 {
                i64::from(b as u32 as i32)
            } else {
                b as i64
            };
            vars.push(Var { dimids, typ, begin });
        }
        if nvars > MAX_ENTRIES {
            return Err(Stop::Unknown);
        }
    }
    // ncx_len_NC of what was read is where the stream stopped.
    shapes(version, s.pos, &dims, &vars)?;
    if s.poisoned {
        return Err(Stop::Unknown);
    }
    Ok(())
}

/// `NC_computeshapes`, `NC_check_vlens` and `NC_check_voffs`.
fn shapes(version: u8, xsz: u64, dims: &[u64], vars: &[Var]) -> Walk<()> {
    if vars.is_empty() {
        return Ok(());
    }
    let off_max = i64::MAX;
    let mut lens = Vec::new();
    let mut recs = Vec::new();
    for v in vars {
        let xs = type_size(v.typ) as i64;
        let mut shape = Vec::new();
        for (i, &id) in v.dimids.iter().enumerate() {
            if id < 0 || id as u64 >= dims.len() as u64 {
                return Err(Stop::Status(NC_EBADDIM));
            }
            let size = dims[id as usize];
            if size == 0 && i != 0 {
                return Err(Stop::Status(NC_EUNLIMPOS));
            }
            shape.push(size);
        }
        let rec = shape.first() == Some(&0);
        let mut product: i64 = 1;
        for (i, &sz) in shape.iter().enumerate().rev() {
            if !(i == 0 && rec) {
                // `(off_t)size <= OFF_T_MAX / product`, then `product *= size` unsigned.
                if (sz as i64) <= off_max / product {
                    product = product.wrapping_mul(if sz > 0 { sz as i64 } else { 1 });
                } else {
                    product = off_max;
                }
            }
        }
        let mut len = product.wrapping_mul(xs);
        if len % 4 > 0 {
            len = len.wrapping_add(4 - len % 4);
        }
        lens.push(len);
        recs.push(rec);
    }
    let xsz = xsz as i64;
    let mut begin_rec = xsz;
    let mut recsize: i64 = 0;
    let mut first_var = None;
    let mut first_rec = None;
    for (i, v) in vars.iter().enumerate() {
        if recs[i] {
            first_rec.get_or_insert(i);
            recsize = recsize.wrapping_add(lens[i]);
        } else {
            first_var.get_or_insert(i);
            begin_rec = v.begin.wrapping_add(lens[i]);
        }
    }
    if let Some(r) = first_rec {
        if begin_rec > vars[r].begin {
            return Err(Stop::Status(NC_ENOTNC));
        }
        begin_rec = vars[r].begin;
    }
    let begin_var = first_var.map_or(begin_rec, |i| vars[i].begin);
    if begin_var <= 0 || xsz > begin_var || begin_rec <= 0 || begin_var > begin_rec {
        return Err(Stop::Status(NC_ENOTNC));
    }
    check_vlens(version, dims, vars, &recs)?;
    // NC_check_voffs.
    let mut prev = begin_var;
    for (i, v) in vars.iter().enumerate() {
        if recs[i] {
            continue;
        }
        if v.begin < prev {
            return Err(Stop::Status(NC_ENOTNC));
        }
        prev = v.begin.wrapping_add(lens[i]);
    }
    if begin_rec < prev {
        return Err(Stop::Status(NC_ENOTNC));
    }
    let mut prev = begin_rec;
    for (i, v) in vars.iter().enumerate() {
        if !recs[i] {
            continue;
        }
        if v.begin < prev {
            return Err(Stop::Status(NC_ENOTNC));
        }
        prev = v.begin.wrapping_add(lens[i]);
    }
    Ok(())
}

/// `NC_check_vlens`.
fn check_vlens(version: u8, dims: &[u64], vars: &[Var], recs: &[bool]) -> Walk<()> {
    let vlen_max: i64 = match version {
        5 => i64::MAX - 3,
        2 => u32::MAX as i64 - 3,
        _ => i32::MAX as i64 - 3,
    };
    // NC_check_vlen: 0 when too large; netcdf-c divides by a zero type size (NC_STRING).
    let fits = |v: &Var, rec: bool| -> Walk<bool> {
        let mut prod = type_size(v.typ) as i64;
        for (i, &id) in v.dimids.iter().enumerate() {
            if i == 0 && rec {
                continue;
            }
            if prod == 0 {
                return Err(Stop::Unknown);
            }
            let sz = dims[id as usize] as i64;
            if sz > vlen_max / prod {
                return Ok(false);
            }
            prod = prod.wrapping_mul(sz);
        }
        Ok(true)
    };
    for pass_rec in [false, true] {
        if pass_rec && !recs.contains(&true) {
            break;
        }
        let (mut large, mut last) = (0, false);
        for (i, v) in vars.iter().enumerate() {
            if recs[i] != pass_rec {
                continue;
            }
            last = false;
            if !fits(v, recs[i])? {
                if version == 5 {
                    return Err(Stop::Status(NC_EVARSIZE));
                }
                large += 1;
                last = true;
            }
        }
        if large > 1 || (large == 1 && !last) {
            return Err(Stop::Status(NC_EVARSIZE));
        }
        if !pass_rec && recs.contains(&true) && large == 1 && last {
            return Err(Stop::Status(NC_EVARSIZE));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(version: u8) -> Vec<u8> {
        let p = format!(
            "{}/tests/data/bad/seed/seed_cdf{version}.nc",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read(p).unwrap()
    }

    fn status(b: &[u8]) -> Option<i32> {
        status_of(&Storage::Mem(b.to_vec()), b.len() as u64, 8192)
    }

    fn set(b: &[u8], at: usize, bytes: &[u8]) -> Vec<u8> {
        let mut c = b.to_vec();
        c[at..at + bytes.len()].copy_from_slice(bytes);
        c
    }

    #[test]
    fn good_files_open() {
        for v in [1, 2, 5] {
            assert_eq!(status(&seed(v)), Some(0), "seed_cdf{v}.nc");
        }
    }

    #[test]
    fn statuses_of_netcdf_c_reader() {
        let b = seed(1);
        // Fewer than 8 bytes, or a bad magic number: NC_ENOTNC.
        assert_eq!(status(&b[..7]), Some(NC_ENOTNC));
        assert_eq!(status(&set(&b, 3, &[3])), Some(NC_ENOTNC));
        // The header cut after numrecs: the rest reads as zeros, an empty dataset.
        assert_eq!(status(&b[..8]), Some(0));
        // Dimension list tag 0x1234 with a count: the system error EINVAL.
        assert_eq!(status(&set(&b, 8, &[0, 0, 0x12, 0x34])), Some(SYS_EINVAL));
        // First dimension's name length 0x7FFFFFFF: the window exceeds the buffer, E2BIG.
        assert_eq!(
            status(&set(&b, 16, &[0x7F, 0xFF, 0xFF, 0xFF])),
            Some(SYS_E2BIG)
        );
        // The global attribute `title`'s type 0: NC_EINVAL.
        assert_eq!(status(&set(&b, 0x48, &[0, 0, 0, 0])), Some(NC_EINVAL));
        // `fixed`'s dimension id 7: NC_EBADDIM.
        assert_eq!(status(&set(&b, 0x88, &[0, 0, 0, 7])), Some(NC_EBADDIM));
        // `rec_c`'s begin 0x800001A8 is negative to netcdf-c: NC_ENOTNC.
        assert_eq!(
            status(&set(&b, 0x140, &[0x80, 0, 1, 0xA8])),
            Some(NC_ENOTNC)
        );
    }

    #[test]
    fn cdf5_sizes_wrap_as_in_c() {
        let b = seed(5);
        // Dimension count 0xFF00000000000003: calloc of a wrapped size fails, NC_ENOMEM.
        assert_eq!(status(&set(&b, 0x10, &[0xFF])), Some(NC_ENOMEM));
        // A dimension id out of int range: NC_ERANGE.
        let map_dimid = 0xC8;
        assert_eq!(
            status(&set(&b, map_dimid, &[0, 0, 0, 1, 0, 0, 0, 0])),
            Some(NC_ERANGE)
        );
    }
}
