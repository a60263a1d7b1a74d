//! Moving selected elements between a selection-shaped buffer (row-major over start / count /
//! stride) and a block of the dataset (a chunk, or the whole dataset): the inverse of what
//! reading does, for writes, and the same direction for reading back cached chunks.

pub(crate) use crate::read::slab::for_each_run;
use crate::read::Slab;

/// Copies the selected elements of `data` (selection-shaped) that fall in the block into it.
pub(crate) fn scatter(
    block: &mut [u8],
    block_dims: &[u64],
    origin: &[u64],
    slab: &Slab,
    esize: usize,
    data: &[u8],
) {
    for_each_run(block_dims, origin, slab, esize, |b, s, n, step| {
        if step == esize {
            let len = n * esize;
            if let (Some(to), Some(from)) = (block.get_mut(b..b + len), data.get(s..s + len)) {
                to.copy_from_slice(from);
            }
        } else {
            for i in 0..n {
                let (bt, st) = (b + i * step, s + i * esize);
                if let (Some(to), Some(from)) =
                    (block.get_mut(bt..bt + esize), data.get(st..st + esize))
                {
                    to.copy_from_slice(from);
                }
            }
        }
    });
}

/// Copies the selected elements that fall in the block into the selection-shaped `out`.
pub(crate) fn gather(
    block: &[u8],
    block_dims: &[u64],
    origin: &[u64],
    slab: &Slab,
    esize: usize,
    out: &mut [u8],
) {
    for_each_run(block_dims, origin, slab, esize, |b, s, n, step| {
        for i in 0..n {
            let (bt, st) = (b + i * step, s + i * esize);
            if let (Some(from), Some(to)) = (block.get(bt..bt + esize), out.get_mut(st..st + esize))
            {
                to.copy_from_slice(from);
            }
        }
    });
}

/// True when the selection covers every element of the block that lies inside the dataset.
pub(crate) fn covers(block_dims: &[u64], origin: &[u64], dims: &[u64], slab: &Slab) -> bool {
    (0..block_dims.len()).all(|d| {
        let lo = origin[d];
        let hi = (origin[d] + block_dims[d]).min(dims[d]);
        let (start, count, stride) = (slab.start[d], slab.count[d], slab.stride[d]);
        if hi <= lo {
            return true;
        }
        if hi - lo == 1 {
            // One position: selected when some k < count lands on it.
            return lo >= start
                && (lo - start).is_multiple_of(stride)
                && (lo - start) / stride < count;
        }
        stride == 1 && start <= lo && start + count >= hi
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scatter_then_gather() {
        // A 5 x 7 block at (5, 7) of a 10 x 14 dataset; select every second column of rows 4..9.
        let slab = Slab {
            start: vec![4, 1],
            count: vec![5, 7],
            stride: vec![1, 2],
        };
        let data: Vec<u8> = (0..35u8).collect();
        let mut block = vec![0xffu8; 35];
        scatter(&mut block, &[5, 7], &[5, 7], &slab, 1, &data);
        // Row 5 of the dataset is selection row 1; columns 7, 9, 11, 13 are k = 3..6.
        assert_eq!(&block[..7], &[10, 255, 11, 255, 12, 255, 13]);
        let mut back = vec![0u8; 35];
        gather(&block, &[5, 7], &[5, 7], &slab, 1, &mut back);
        assert_eq!(back[7 + 3..7 + 7], [10, 11, 12, 13]);
        assert_eq!(back[0], 0);
        assert!(!covers(&[5, 7], &[5, 7], &[10, 14], &slab));
        let whole = Slab {
            start: vec![0, 0],
            count: vec![10, 14],
            stride: vec![1, 1],
        };
        assert!(covers(&[5, 7], &[5, 7], &[10, 14], &whole));
        // An edge block sticking out of the dataset is covered by what lies inside.
        assert!(covers(
            &[5, 7],
            &[5, 7],
            &[8, 9],
            &Slab {
                start: vec![5, 7],
                count: vec![3, 2],
                stride: vec![1, 1],
            }
        ));
    }
}
