//! Data access to a writable classic file, cut into the same I/O regions, in the same order, as
//! netcdf-c 4.9's `NC3_put_vara` / `NC3_get_vara` (libsrc/putget.m4: `NCiocount`, the `odo1`
//! odometer, `putNCvx` / `getNCvx`) and, for strided accesses, `NCDEFAULT_put_vars` /
//! `NCDEFAULT_get_vars` (libdispatch: one element per call). Offsets follow the file format spec,
//! "Notes on Computing File Offsets". The order matters because netcdf-c's page buffer (see
//! [`super::posixio`]) decides the bytes of unwritten no-fill space from the order of accesses.

use crate::error::{Error, ErrorKind, Result};
use crate::model::VarId;
use crate::selection::Hyperslab;

use super::layout::var_len;
use super::ncio::Io;
use super::read::{swap_in_place, VarGeom};
use super::ClassicFile;

/// The shape facts `NCiocount` needs.
struct Shape {
    /// Dimension lengths (the record dimension's is unused).
    lens: Vec<u64>,
    /// A record variable.
    rec: bool,
    /// One-dimensional and alone in the record (`recsize <= len`): records are contiguous.
    packed_1d: bool,
}

fn shape(f: &ClassicFile, var: VarId) -> Shape {
    let s = &f.schema;
    let v = s.var(var);
    let rec = s.is_record_var(var);
    Shape {
        lens: v.dims.iter().map(|d| s.dim(*d).len).collect(),
        rec,
        packed_1d: rec && v.dims.len() == 1 && f.layout.recsize <= var_len(s, var),
    }
}

fn overflow() -> Error {
    Error::with_detail(ErrorKind::Edge, "selection offset overflows")
}

fn offset_of(g: &VarGeom, coord: &[u64]) -> Result<u64> {
    let mut off = g.begin;
    for (c, step) in coord.iter().zip(&g.step) {
        off = c
            .checked_mul(*step)
            .and_then(|x| x.checked_add(off))
            .ok_or_else(overflow)?;
    }
    Ok(off)
}

/// Calls `f(file_offset, elements)` for each contiguous run of a stride-1 access, as
/// `NC3_put_vara` / `NC3_get_vara` cut it.
fn vara_runs(
    g: &VarGeom,
    sh: &Shape,
    start: &[u64],
    count: &[u64],
    mut f: impl FnMut(u64, u64) -> Result<()>,
) -> Result<()> {
    let n = sh.lens.len();
    if n == 0 {
        return f(g.begin, 1);
    }
    if sh.packed_1d {
        return f(offset_of(g, start)?, count[0]);
    }
    // NCiocount: the rightmost dimension not taken whole, and the run below it.
    let edp0 = usize::from(sh.rec);
    let mut edp = n;
    while edp > edp0 {
        edp -= 1;
        if count[edp] < sh.lens[edp] {
            if count[edp0..=edp].contains(&0) {
                return Ok(());
            }
            break;
        }
    }
    let iocount: u64 = count[edp..].iter().product();
    if edp == 0 {
        return f(offset_of(g, start)?, iocount);
    }
    let index = edp - 1;
    let upper: Vec<u64> = start.iter().zip(count).map(|(s, c)| s + c).collect();
    let mut coord = start.to_vec();
    while coord[0] < upper[0] {
        f(offset_of(g, &coord)?, iocount)?;
        // odo1: increment coord[index], carrying to the left.
        let mut k = index;
        loop {
            coord[k] += 1;
            if k == 0 || coord[k] < upper[k] {
                break;
            }
            coord[k] = start[k];
            k -= 1;
        }
    }
    Ok(())
}

/// Calls `f(coord)` for each element of a strided selection, in row-major order.
fn each_element(slab: &Hyperslab, mut f: impl FnMut(&[u64]) -> Result<()>) -> Result<()> {
    let n = slab.count.len();
    let mut idx = vec![0u64; n];
    let mut coord = slab.start.clone();
    loop {
        for i in 0..n {
            coord[i] = idx[i]
                .checked_mul(slab.stride[i])
                .and_then(|x| x.checked_add(slab.start[i]))
                .ok_or_else(overflow)?;
        }
        f(&coord)?;
        let mut d = n;
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < slab.count[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

fn check_records(f: &ClassicFile, last: u64) -> Result<()> {
    if f.format != crate::Format::Cdf5 && last > u32::MAX as u64 {
        return Err(Error::with_detail(
            ErrorKind::InvalidCoords,
            "record index beyond the 32-bit record count",
        ));
    }
    Ok(())
}

/// Writes native-endian values into a selection (`nc_put_vara` / `nc_put_vars`).
pub(crate) fn put(f: &mut ClassicFile, var: VarId, slab: &Hyperslab, data: &[u8]) -> Result<()> {
    let rec = f.schema.is_record_var(var);
    let strided = slab.stride.iter().any(|s| *s != 1);
    if strided {
        if slab.count.contains(&0) {
            return Ok(());
        }
        let last = (slab.count[0] - 1)
            .checked_mul(slab.stride[0])
            .and_then(|x| x.checked_add(slab.start[0]))
            .and_then(|x| x.checked_add(1))
            .ok_or_else(|| Error::new(ErrorKind::Edge))?;
        if rec {
            check_records(f, last)?;
        }
        let g = f.geom(var);
        let xsz = g.xsz;
        let mut e = 0usize;
        let mut elem = [0u8; 8];
        return each_element(slab, |coord| {
            if rec {
                f.grow_records(coord[0] + 1)?;
            }
            let off = offset_of(&g, coord)?;
            let x = &mut elem[..xsz];
            x.copy_from_slice(&data[e * xsz..(e + 1) * xsz]);
            swap_in_place(x, xsz);
            f.io()?.write_bytes(off, x)?;
            e += 1;
            Ok(())
        });
    }
    if rec && !slab.start.is_empty() {
        let last = slab.start[0]
            .checked_add(slab.count[0])
            .ok_or_else(|| Error::new(ErrorKind::Edge))?;
        check_records(f, last)?;
        f.grow_records(last)?;
    }
    if slab.count.contains(&0) && !slab.count.is_empty() {
        return Ok(());
    }
    let g = f.geom(var);
    let sh = shape(f, var);
    let xsz = g.xsz;
    let io = f.io()?;
    let cap = io.staging_cap();
    let mut pos = 0usize;
    vara_runs(&g, &sh, &slab.start, &slab.count, |off, nelems| {
        let bytes = usize::try_from(nelems)
            .ok()
            .and_then(|n| n.checked_mul(xsz))
            .ok_or_else(|| Error::new(ErrorKind::NoMem))?;
        let src = &data[pos..pos + bytes];
        pos += bytes;
        let mut done = 0;
        while done < bytes {
            let k = (bytes - done).min(cap);
            let at = io.stage_at(k)?;
            let st = io.stage(at, k);
            st.copy_from_slice(&src[done..done + k]);
            swap_in_place(st, xsz);
            io.write_staged(off + done as u64, k, at)?;
            done += k;
        }
        Ok(())
    })
}

/// Reads a selection of a writable file as native-endian values, through its I/O layer.
pub(crate) fn get(
    f: &ClassicFile,
    io: &mut Io,
    var: VarId,
    g: &VarGeom,
    slab: &Hyperslab,
    out: &mut [u8],
) -> Result<()> {
    let xsz = g.xsz;
    if slab.stride.iter().any(|s| *s != 1) {
        if slab.count.contains(&0) {
            return Ok(());
        }
        let mut e = 0usize;
        each_element(slab, |coord| {
            let off = offset_of(g, coord)?;
            io.read_bytes(off, &mut out[e * xsz..(e + 1) * xsz])?;
            e += 1;
            Ok(())
        })?;
    } else {
        if slab.count.contains(&0) && !slab.count.is_empty() {
            return Ok(());
        }
        let sh = shape(f, var);
        let mut pos = 0usize;
        vara_runs(g, &sh, &slab.start, &slab.count, |off, nelems| {
            let bytes = usize::try_from(nelems)
                .ok()
                .and_then(|n| n.checked_mul(xsz))
                .ok_or_else(|| Error::new(ErrorKind::NoMem))?;
            io.read_bytes(off, &mut out[pos..pos + bytes])?;
            pos += bytes;
            Ok(())
        })?;
    }
    swap_in_place(out, xsz);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(g: &VarGeom, sh: &Shape, start: &[u64], count: &[u64]) -> Vec<(u64, u64)> {
        let mut v = Vec::new();
        vara_runs(g, sh, start, count, |o, n| {
            v.push((o, n));
            Ok(())
        })
        .unwrap();
        v
    }

    #[test]
    fn runs_follow_nciocount() {
        // Fixed float[4][5]: whole rows merge; a partial last dimension iterates rows.
        let g = VarGeom {
            begin: 100,
            xsz: 4,
            step: vec![20, 4],
        };
        let sh = Shape {
            lens: vec![4, 5],
            rec: false,
            packed_1d: false,
        };
        assert_eq!(runs(&g, &sh, &[1, 0], &[2, 5]), vec![(120, 10)]);
        assert_eq!(runs(&g, &sh, &[1, 1], &[2, 3]), vec![(124, 3), (144, 3)]);
        // Record float[rec][5], record size 28: never merged across records.
        let g = VarGeom {
            begin: 200,
            xsz: 4,
            step: vec![28, 4],
        };
        let sh = Shape {
            lens: vec![0, 5],
            rec: true,
            packed_1d: false,
        };
        assert_eq!(runs(&g, &sh, &[2, 0], &[2, 5]), vec![(256, 5), (284, 5)]);
        // A lone one-dimensional record variable: one run across records.
        let g = VarGeom {
            begin: 200,
            xsz: 2,
            step: vec![2],
        };
        let sh = Shape {
            lens: vec![0],
            rec: true,
            packed_1d: true,
        };
        assert_eq!(runs(&g, &sh, &[3], &[4]), vec![(206, 4)]);
    }
}
