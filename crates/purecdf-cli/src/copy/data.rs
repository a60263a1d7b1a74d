//! The data copy, in netcdf-c 4.9.0's order (`nccopy.c` `copy`): when the input (or else the
//! output) is a classic-family file with a record variable in the root group
//! (`nc3_special_case`), the fixed-size variables one after another, then the record variables a
//! record at a time (`copy_fixed_size_data`, `copy_record_data`); otherwise variable by variable,
//! group by group in preorder (`copy_data`, with `-v` and `-g`/`-G` picking what is copied).
//! The record-at-a-time order is kept for classic-family output only, where it decides the bytes
//! written; a netCDF-4 output holds the same whatever the order.
//!
//! How one variable is moved differs from netcdf-c only in the sizes of the pieces, which the
//! output cannot show: into contiguous storage, pieces of at most `-m` bytes (`nc_get_iter`);
//! into chunked netCDF-4 storage, blocks aligned to the output's chunks and as long as
//! [`BLOCK_BYTES`] allows along the innermost dimensions, so that every write completes its
//! chunks and each chunk is compressed once, in parallel, whatever `-m` says (netcdf-c writes
//! `-m`-sized pieces through the HDF5 chunk cache, compressing chunks again and again).

use purecdf::model::{GroupId, ROOT};
use purecdf::{Error, ErrorKind, NcType, Values, VarId};

use super::plan::{self, Piece};
use super::progress::Progress;
use super::schema::Ctx;
use super::{At, Failure, MAX_PIECE_BYTES};

/// Largest block read and written at once for chunked output (input bytes).
pub const BLOCK_BYTES: u64 = 64 << 20;

/// Copies all the data.
pub(crate) fn copy_data(c: &mut Ctx<'_>) -> Result<(), Failure> {
    let total = total_bytes(c, ROOT);
    let mut p = Progress::new(total);
    let r = if let Some(order) = special_case(c) {
        copy_special(c, &order, &mut p)
    } else {
        copy_group_data(c, ROOT, &mut p)
    };
    p.finish();
    r
}

/// Bytes of data under group `g`, for the progress bar.
fn total_bytes(c: &Ctx<'_>, g: GroupId) -> u64 {
    let s = c.s;
    let own = s.group(g).vars.iter().fold(0u64, |a, &v| {
        let n = s
            .shape(v)
            .iter()
            .fold(elem_size(c, v), |x, &l| x.saturating_mul(l));
        a.saturating_add(n)
    });
    s.group(g)
        .groups
        .iter()
        .fold(own, |a, &k| a.saturating_add(total_bytes(c, k)))
}

/// Size in bytes of one value of an input variable (at least 1).
fn elem_size(c: &Ctx<'_>, v: VarId) -> u64 {
    (c.s.type_size(c.s.var(v).typ) as u64).max(1)
}

/// The root-group variables to copy whole and those to copy a record at a time, with the number
/// of records, when `nc3_special_case` holds for the input or the output.
struct Special {
    whole: Vec<VarId>,
    by_record: Vec<VarId>,
    nrecs: u64,
}

fn special_case(c: &Ctx<'_>) -> Option<Special> {
    // Into netCDF-4 the order cannot show, and whole variables give the writer whole chunks to
    // compress in parallel (a record is often exactly one chunk).
    if !c.outkind.is_classic_family() {
        return None;
    }
    let s = c.s;
    let root = &s.group(ROOT).vars;
    let listed = |names: &[String], find: &dyn Fn(&str) -> Option<VarId>| -> Vec<VarId> {
        names.iter().filter_map(|n| find(n)).collect()
    };
    let nrecs = || s.unlimited_dims(ROOT).first().map_or(0, |d| s.dim(*d).len);
    if c.inkind.is_classic_family() {
        let recdim = s.unlimited_dims(ROOT).into_iter().next()?;
        if !root.iter().any(|v| s.var(*v).dims.first() == Some(&recdim)) {
            return None;
        }
        let vars = if c.o.vars.is_empty() {
            root.clone()
        } else {
            listed(&c.o.vars, &|n| s.find_var(ROOT, n))
        };
        let (by_record, whole) = vars.into_iter().partition(|v| s.is_record_var(*v));
        return Some(Special {
            whole,
            by_record,
            nrecs: nrecs(),
        });
    }
    if !c.outkind.is_classic_family() {
        return None;
    }
    // The output's record variables decide, and their ids (positions in the output's root
    // group) are used as input ids, as netcdf-c does.
    let os = c.out.schema();
    let orecdim = os.unlimited_dims(ROOT).into_iter().next()?;
    let oroot = &os.group(ROOT).vars;
    if !oroot
        .iter()
        .any(|v| os.var(*v).dims.first() == Some(&orecdim))
    {
        return None;
    }
    let ovars = if c.o.vars.is_empty() {
        oroot.clone()
    } else {
        listed(&c.o.vars, &|n| os.find_var(ROOT, n))
    };
    let (orec, ofixed): (Vec<VarId>, Vec<VarId>) = ovars
        .into_iter()
        .partition(|v| os.var(*v).dims.iter().any(|d| os.dim(*d).unlimited));
    let pos = |ov: VarId| oroot.iter().position(|x| *x == ov);
    let to_input = |ids: Vec<VarId>| -> Vec<VarId> {
        ids.into_iter()
            .filter_map(|ov| pos(ov).and_then(|i| root.get(i).copied()))
            .collect()
    };
    Some(Special {
        whole: to_input(ofixed),
        by_record: to_input(orec),
        nrecs: nrecs(),
    })
}

fn copy_special(c: &mut Ctx<'_>, sp: &Special, p: &mut Progress) -> Result<(), Failure> {
    for &v in &sp.whole {
        copy_var_data(c, v, ROOT, p)?;
    }
    let s = c.s;
    let mut outs = Vec::with_capacity(sp.by_record.len());
    for &v in &sp.by_record {
        let name = &s.var(v).name;
        match c.out.schema().find_var(ROOT, name) {
            Some(ov) => outs.push(ov),
            None => {
                let err = Error::new(ErrorKind::NotVar).object(name.clone());
                return Err(Failure::Nc { err, line: 1960 });
            }
        }
    }
    // netcdf-c copies a record of a variable in one call whatever `-m` says.
    let mut m = Mover::new(MAX_PIECE_BYTES);
    for rec in 0..sp.nrecs {
        for (&v, &ov) in sp.by_record.iter().zip(&outs) {
            let mut count = s.shape(v);
            let mut start = vec![0; count.len()];
            if let Some(first) = count.first_mut() {
                *first = 1;
                start[0] = rec;
            }
            m.pieces(c, v, ov, &start, &count, (1908, 1909), p)?;
        }
    }
    Ok(())
}

/// `copy_data`: the variables of `ig` (when the group is wanted), then its subgroups.
fn copy_group_data(c: &mut Ctx<'_>, ig: GroupId, p: &mut Progress) -> Result<(), Failure> {
    let s = c.s;
    let listed = plan::listed_vars(s, ig, &c.o.vars);
    for &v in &s.group(ig).vars {
        if !c.o.vars.is_empty() && !listed.contains(&v) {
            continue;
        }
        if !c.group_wanted(ig) {
            continue;
        }
        copy_var_data(c, v, ig, p)?;
    }
    for &k in &s.group(ig).groups {
        if !c.o.group_struct && !c.group_wanted(k) {
            continue;
        }
        copy_group_data(c, k, p)?;
    }
    Ok(())
}

/// `copy_var_data`: one whole variable.
fn copy_var_data(c: &mut Ctx<'_>, v: VarId, ig: GroupId, p: &mut Progress) -> Result<(), Failure> {
    let s = c.s;
    let shape = s.shape(v);
    if shape.contains(&0) {
        return Ok(());
    }
    let name = &s.var(v).name;
    let og = c.groups.get(&ig).copied().unwrap_or(ROOT);
    let Some(ov) = c.out.schema().find_var(og, name) else {
        let err = Error::new(ErrorKind::NotVar).object(name.clone());
        return Err(Failure::Nc { err, line: 1616 });
    };
    let start = vec![0; shape.len()];
    let chunks = c.out.schema().var(ov).storage.chunk_sizes.clone();
    match chunks {
        Some(cs) if !c.outkind.is_classic_family() => {
            let block = block_shape(&shape, &cs, elem_size(c, v), BLOCK_BYTES);
            let mut m = Mover::new(u64::MAX);
            for piece in blocks(&shape, &block) {
                m.transfer(c, v, ov, &piece, (1681, 1685), p)?;
            }
            Ok(())
        }
        _ => {
            let limit = c.o.buffer.max(elem_size(c, v)).min(MAX_PIECE_BYTES);
            Mover::new(limit).pieces(c, v, ov, &start, &shape, (1681, 1685), p)
        }
    }
}

/// Moves pieces of data through one reused buffer.
struct Mover {
    /// Largest piece in bytes for [`Mover::pieces`].
    limit: u64,
    buf: Vec<u8>,
}

impl Mover {
    fn new(limit: u64) -> Mover {
        Mover {
            limit,
            buf: Vec::new(),
        }
    }

    /// Copies a region cut into pieces of at most `limit` bytes (`nc_get_iter` order).
    #[allow(clippy::too_many_arguments)]
    fn pieces(
        &mut self,
        c: &mut Ctx<'_>,
        v: VarId,
        ov: VarId,
        start: &[u64],
        count: &[u64],
        lines: (u32, u32),
        p: &mut Progress,
    ) -> Result<(), Failure> {
        for piece in plan::pieces(start, count, elem_size(c, v), self.limit) {
            self.transfer(c, v, ov, &piece, lines, p)?;
        }
        Ok(())
    }

    /// Reads one piece of input variable `v` and writes it to output variable `ov`.
    fn transfer(
        &mut self,
        c: &mut Ctx<'_>,
        v: VarId,
        ov: VarId,
        piece: &Piece,
        lines: (u32, u32),
        p: &mut Progress,
    ) -> Result<(), Failure> {
        let var = c.input.variable_by_id(v);
        let typ = var.nc_type();
        let sel = (piece.start.as_slice(), piece.count.as_slice());
        if typ.is_numeric() || typ == NcType::Char {
            var.get_raw_bytes(sel, &mut self.buf).at(lines.0)?;
            c.out.put_raw_bytes(ov, &self.buf, sel).at(lines.1)?;
            p.advance(self.buf.len() as u64);
        } else {
            let values = var.get_typed_values(sel).at(lines.0)?;
            let n = values.len() as u64;
            let values = match values {
                Values::User(_, vals) => match c.out.schema().var(ov).typ {
                    NcType::User(ot) => Values::User(ot, vals),
                    _ => Values::User(purecdf::TypeId(usize::MAX), vals),
                },
                other => other,
            };
            c.out.put_raw_values(ov, &values, sel).at(lines.1)?;
            p.advance(n * elem_size(c, v));
        }
        Ok(())
    }
}

/// The block shape for copying a variable of `shape` into chunks `cs`: whole chunks, extended
/// to whole dimensions from the innermost outwards while the block stays within `budget` bytes,
/// then by as many chunks as fit along the first dimension that cannot be whole.
pub fn block_shape(shape: &[u64], cs: &[u64], elem: u64, budget: u64) -> Vec<u64> {
    let mut block: Vec<u64> = shape
        .iter()
        .zip(cs)
        .map(|(&l, &c)| c.clamp(1, l.max(1)))
        .collect();
    for d in (0..shape.len()).rev() {
        let per: u64 = block
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != d)
            .fold(elem, |a, (_, &b)| a.saturating_mul(b));
        let step = block[d];
        let fit = (budget / per.saturating_mul(step).max(1)).max(1);
        if fit.saturating_mul(step) >= shape[d] {
            block[d] = shape[d].max(1);
        } else {
            block[d] = fit * step;
            break;
        }
    }
    block
}

/// The blocks of `block` shape covering `shape`, in row-major order.
pub fn blocks(shape: &[u64], block: &[u64]) -> Blocks {
    Blocks {
        shape: shape.to_vec(),
        block: block.to_vec(),
        idx: vec![0; shape.len()],
        done: shape.contains(&0) || block.contains(&0),
    }
}

/// Iterator over the blocks of a variable; see [`blocks`].
#[derive(Debug, Clone)]
pub struct Blocks {
    shape: Vec<u64>,
    block: Vec<u64>,
    idx: Vec<u64>,
    done: bool,
}

impl Iterator for Blocks {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        if self.done {
            return None;
        }
        let start: Vec<u64> = self
            .idx
            .iter()
            .zip(&self.block)
            .map(|(i, b)| i * b)
            .collect();
        let count: Vec<u64> = start
            .iter()
            .zip(&self.block)
            .zip(&self.shape)
            .map(|((s, b), l)| (*b).min(l - s))
            .collect();
        let mut d = self.shape.len();
        loop {
            if d == 0 {
                self.done = true;
                break;
            }
            d -= 1;
            self.idx[d] += 1;
            if self.idx[d] * self.block[d] < self.shape[d] {
                break;
            }
            self.idx[d] = 0;
        }
        Some(Piece { start, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_follow_chunks_and_fill_the_budget() {
        // 64 x 2048 x 2048 floats in 13 x 410 x 410 chunks: whole rows of chunks.
        let b = block_shape(&[64, 2048, 2048], &[13, 410, 410], 4, 64 << 20);
        assert_eq!(b, vec![13, 410, 2048]);
        // Small variable: one block.
        assert_eq!(block_shape(&[3, 5], &[1, 5], 4, 1 << 20), vec![3, 5]);
        // Chunks bigger than the budget: one chunk at a time.
        assert_eq!(block_shape(&[100, 100], &[50, 50], 8, 10), vec![50, 50]);
        let got: Vec<_> = blocks(&[5, 3], &[2, 3])
            .map(|p| (p.start, p.count))
            .collect();
        assert_eq!(
            got,
            vec![
                (vec![0, 0], vec![2, 3]),
                (vec![2, 0], vec![2, 3]),
                (vec![4, 0], vec![1, 3])
            ]
        );
        assert_eq!(blocks(&[], &[]).count(), 1);
        assert_eq!(blocks(&[0, 3], &[1, 3]).count(), 0);
    }
}
