//! The netCDF-4 properties of each output variable, decided exactly as netcdf-c 4.9.0's
//! `nccopy.c` decides them (`copy_var_specials`, `copy_chunking`, `copy_var_filter`), with the
//! library calls in the same order so that the library's own rules (a filter switches a
//! contiguous variable to chunked storage with the chunk sizes it last had, for instance) give
//! the same result:
//!
//! 1. chunking (non-scalar variables): contiguous when a `var:` or `/` spec says so; else the
//!    per-variable spec's layout, or the input's; chunked when deflation is asked for, when an
//!    output dimension is unlimited or a `dim/n` spec names one of its dimensions. Chunk sizes
//!    come, per dimension, from the variable's spec, the dimension spec, the input's chunks,
//!    netcdf-c's defaults, then the dimension length (an unlimited one capped at 4 MiB worth).
//!    A chunk smaller than `-M` bytes (8192 by default) makes a variable without unlimited
//!    dimensions contiguous after all;
//! 2. deflation and shuffle: the input's, or `-d`/`-s`'s (`-d 0` turns both off);
//! 3. the input's fletcher32 checksum;
//! 4. the input's byte order (netcdf-c reports an explicit order for every number type);
//! 5. when nothing was deflated, the `-F` filters for the variable, else the input's (`-d 0` or
//!    a `none` for it: none).
//!
//! Nothing of this happens for classic-family output.

use purecdf::{Chunking, Error, ErrorKind, VarId};

use super::chunkspec::VarLayout;
use super::filters;
use super::options::Kind;
use super::schema::Ctx;
use super::{At, Failure};

/// HDF5 filter ids netcdf-c reports through `nc_inq_var_deflate`/`nc_inq_var_fletcher32`.
const DEFLATE: u32 = 1;
const SHUFFLE: u32 = 2;
const FLETCHER32: u32 = 3;
/// Variables whose chunks would be smaller than this many bytes are not chunked (`-M`).
pub(crate) const CHUNK_THRESHOLD: u64 = 8192;
/// Default chunk length in bytes along an unlimited dimension (`DFALTUNLIMSIZE`).
const DFALTUNLIMSIZE: u64 = 4 << 20;

/// `NC_CONTIGUOUS`, `NC_CHUNKED` or `NC_COMPACT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Contiguous,
    Chunked,
    Compact,
}

fn is_nc4(k: Kind) -> bool {
    matches!(k, Kind::Netcdf4 | Kind::Netcdf4Classic)
}

/// `copy_var_specials`: the storage, compression, checksum, byte order and filters of output
/// variable `ov`, copied from input variable `iv` and adjusted by the options.
pub(crate) fn copy_var_specials(c: &mut Ctx<'_>, iv: VarId, ov: VarId) -> Result<(), Failure> {
    if !is_nc4(c.outkind) {
        return Ok(());
    }
    let innc4 = is_nc4(c.inkind);
    let ivar = c.s.var(iv);
    let ndims = ivar.dims.len();
    if ndims > 0 {
        copy_chunking(c, iv, ov)?;
    }
    let ofqn = filters::fqn(c.out.schema(), ov);
    let nofilters = filters::suppressed(&c.o.filters, c.o.suppress_filters, &ofqn);
    let in_filters = if innc4 {
        ivar.storage.filters.clone()
    } else {
        Vec::new()
    };
    let has = |id: u32| in_filters.iter().find(|f| f.0 == id);
    let mut deflated = false;
    if ndims > 0 && !nofilters {
        let shuffle_in = has(SHUFFLE).is_some();
        let level_in = has(DEFLATE).map(|f| f.1.first().copied().unwrap_or(0));
        let (shuffle, level) = match c.o.deflate {
            None => (shuffle_in, level_in),
            Some(0) => (false, None),
            Some(l) => (c.o.shuffle, Some(u32::from(l))),
        };
        if shuffle || level.is_some() {
            c.out.def_var_deflate(ov, shuffle, level).at(1152)?;
        }
        deflated = level.is_some();
    }
    if !nofilters && innc4 && ndims > 0 && has(FLETCHER32).is_some() {
        c.out.def_var_fletcher32(ov, true).at(1161)?;
    }
    if innc4 {
        if let Some(big) = ivar.storage.big_endian {
            c.out.def_var_endian(ov, Some(big)).at(1169)?;
        }
    }
    if !nofilters && !deflated && ndims > 0 {
        copy_var_filter(c, &ofqn, &in_filters, ov)?;
    }
    Ok(())
}

/// `copy_var_filter`, reached with no `none` for the variable and nothing deflated: the `-F`
/// filters for the variable when there are any, else the input's (all of its filters), unless
/// `-d 0` turns filters off (rows 2 and 4–8 of netcdf-c's table; global `none` never gets here).
fn copy_var_filter(
    c: &mut Ctx<'_>,
    ofqn: &str,
    in_filters: &[(u32, Vec<u32>)],
    ov: VarId,
) -> Result<(), Failure> {
    if c.o.deflate == Some(0) {
        return Ok(());
    }
    let ospecs = filters::for_var(&c.o.filters, ofqn);
    let actual: Vec<(u32, Vec<u32>)> = if !ospecs.is_empty() {
        ospecs.iter().map(|f| (f.id, f.params.clone())).collect()
    } else {
        in_filters.to_vec()
    };
    for (id, params) in &actual {
        // netcdf-c prints the bare message for a filter it has no plugin for: so do we.
        c.out
            .def_var_filter(ov, *id, params)
            .map_err(|e| match e.kind() {
                ErrorKind::NoFilter => Error::new(ErrorKind::NoFilter),
                _ => e,
            })
            .at(1175)?;
    }
    Ok(())
}

/// `copy_chunking`: decides and sets the output variable's storage.
fn copy_chunking(c: &mut Ctx<'_>, iv: VarId, ov: VarId) -> Result<(), Failure> {
    let ivar = c.s.var(iv);
    let ndims = ivar.dims.len();
    let (icontig, ichunks) = if is_nc4(c.inkind) {
        match &ivar.storage.chunk_sizes {
            Some(cs) => (Layout::Chunked, cs.clone()),
            None if ivar.storage.compact => (Layout::Compact, vec![0; ndims]),
            None => (Layout::Contiguous, vec![0; ndims]),
        }
    } else {
        (Layout::Contiguous, vec![0; ndims])
    };
    let spec = c.specs.var(iv).cloned();
    let mut ocontig = if c.specs.var_omit(iv) {
        Layout::Contiguous
    } else {
        match &spec {
            Some(s) => match s.layout {
                VarLayout::Chunked(_) => Layout::Chunked,
                VarLayout::Contiguous => Layout::Contiguous,
                VarLayout::Compact => Layout::Compact,
            },
            None => icontig,
        }
    };
    let mut ochunks = match &spec {
        Some(s) => match &s.layout {
            VarLayout::Chunked(cs) => cs.clone(),
            _ => vec![0; ndims],
        },
        None => vec![0; ndims],
    };
    let ofqn = filters::fqn(c.out.schema(), ov);
    if !filters::suppressed(&c.o.filters, c.o.suppress_filters, &ofqn)
        && (c.o.deflate.is_some_and(|d| d > 0) || filters::active(&c.o.filters, &ofqn))
    {
        ocontig = Layout::Chunked;
    }
    if !c.specs.omit {
        let typesize = (c.s.type_size(ivar.typ) as u64).max(1);
        let mut csprod = typesize;
        let mut is_unlimited = false;
        let mut perdim = vec![0u64; ndims];
        let mut dimlens = vec![0u64; ndims];
        for (i, d) in ivar.dims.iter().enumerate() {
            dimlens[i] = c.s.dim(*d).len;
            if c.dims.get(d).is_some_and(|m| m.1) {
                is_unlimited = true;
                ocontig = Layout::Chunked;
            }
            if let Some(n) = c.specs.dim(*d) {
                perdim[i] = n;
                ocontig = Layout::Chunked;
            }
            // netcdf-c never resets the flag: every later dimension is capped too.
            if is_unlimited {
                dimlens[i] = dimlens[i].min(DFALTUNLIMSIZE / typesize);
            }
        }
        let mut dfalt = vec![0u64; ndims];
        if ocontig == Layout::Chunked
            && c.out
                .def_var_chunking(ov, Chunking::Chunked(vec![0; ndims]))
                .is_ok()
        {
            match &c.out.schema().var(ov).storage.chunk_sizes {
                Some(cs) => dfalt.clone_from(cs),
                None => return Err(internal(1118)),
            }
        }
        for i in 0..ndims {
            let pick = [ochunks[i], perdim[i], ichunks[i], dfalt[i], dimlens[i]]
                .into_iter()
                .find(|x| *x != 0);
            let Some(n) = pick else {
                return Err(internal(1118));
            };
            ochunks[i] = n;
            csprod = csprod.wrapping_mul(n);
        }
        if csprod < c.min_chunk && !is_unlimited {
            ocontig = Layout::Contiguous;
        }
    } else {
        ocontig = Layout::Contiguous;
    }
    match ocontig {
        Layout::Chunked => c
            .out
            .def_var_chunking(ov, Chunking::Chunked(ochunks))
            .at(1062),
        Layout::Contiguous => c.out.def_var_chunking(ov, Chunking::Contiguous).at(1066),
        Layout::Compact => c.out.def_var_chunking(ov, Chunking::Compact).at(1066),
    }
}

/// NC_EINTERNAL, which purecdf's error kinds do not name.
fn internal(line: u32) -> Failure {
    Failure::Code {
        message: "NetCDF: internal library error; Please contact Unidata support",
        detail: "no chunk size could be chosen".into(),
        line,
    }
}

/// A library error at an `nccopy.c` line (for errors raised here rather than by a call).
pub(crate) fn nc_error(kind: ErrorKind, detail: String, line: u32) -> Failure {
    Failure::Nc {
        err: Error::with_detail(kind, detail),
        line,
    }
}
