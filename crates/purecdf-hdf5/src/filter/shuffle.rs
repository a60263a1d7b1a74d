//! The shuffle filter (id 2): byte planes of `element_size`-byte elements stored one after the
//! other; trailing bytes that do not make a whole element are left in place.

use super::{Filter, FilterError};

pub(super) struct Shuffle {
    pub(super) element_size: usize,
}

impl Filter for Shuffle {
    fn decode(&self, input: Vec<u8>, max_out: usize) -> Result<Vec<u8>, FilterError> {
        if input.len() > max_out {
            return Err(FilterError::Corrupt(
                super::SHUFFLE,
                "shuffled chunk larger than expected".into(),
            ));
        }
        let s = self.element_size;
        if s <= 1 || input.len() < s {
            return Ok(input);
        }
        let n = input.len() / s;
        // Written element by element (sequential stores), reading one byte from each plane.
        let mut out = vec![0u8; input.len()];
        let (body, tail) = out.split_at_mut(n * s);
        let p = |b: usize| &input[b * n..(b + 1) * n];
        match s {
            4 => {
                let (p0, p1, p2, p3) = (p(0), p(1), p(2), p(3));
                for ((((e, a), b), c), d) in
                    body.chunks_exact_mut(4).zip(p0).zip(p1).zip(p2).zip(p3)
                {
                    e.copy_from_slice(&[*a, *b, *c, *d]);
                }
            }
            8 => {
                let planes: [&[u8]; 8] = std::array::from_fn(p);
                for (i, e) in body.chunks_exact_mut(8).enumerate() {
                    for (b, plane) in planes.iter().enumerate() {
                        e[b] = plane[i];
                    }
                }
            }
            _ => {
                for (i, e) in body.chunks_exact_mut(s).enumerate() {
                    for (b, v) in e.iter_mut().enumerate() {
                        *v = input[b * n + i];
                    }
                }
            }
        }
        // Trailing bytes that do not make a whole element are stored as they are.
        tail.copy_from_slice(&input[n * s..]);
        Ok(out)
    }

    fn encode(&self, input: Vec<u8>) -> Result<Vec<u8>, FilterError> {
        let s = self.element_size;
        if s <= 1 || input.len() < s {
            return Ok(input);
        }
        let n = input.len() / s;
        // Plane by plane (sequential stores), reading one byte of each element.
        let mut out = vec![0u8; input.len()];
        let (body, tail) = out.split_at_mut(n * s);
        let elems = input[..n * s].chunks_exact(s);
        match s {
            4 => {
                let (p0, rest) = body.split_at_mut(n);
                let (p1, rest) = rest.split_at_mut(n);
                let (p2, p3) = rest.split_at_mut(n);
                for ((((e, a), b), c), d) in elems
                    .zip(p0.iter_mut())
                    .zip(p1.iter_mut())
                    .zip(p2.iter_mut())
                    .zip(p3.iter_mut())
                {
                    (*a, *b, *c, *d) = (e[0], e[1], e[2], e[3]);
                }
            }
            _ => {
                for (b, plane) in body.chunks_exact_mut(n).enumerate() {
                    for (v, e) in plane.iter_mut().zip(input.chunks_exact(s)) {
                        *v = e[b];
                    }
                }
            }
        }
        // Trailing bytes that do not make a whole element are stored as they are.
        tail.copy_from_slice(&input[n * s..]);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_and_tail_round_trip() {
        // Element sizes with a special case (4) and without, with and without trailing bytes.
        for s in [2usize, 3, 4, 8] {
            for len in [0usize, 1, s, 5 * s, 5 * s + 1, 7 * s + s - 1] {
                let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
                let f = Shuffle { element_size: s };
                let enc = f.encode(data.clone()).unwrap();
                let n = len / s;
                if n > 0 {
                    // Byte b of element i lands at b * n + i; the tail stays in place.
                    for i in 0..n {
                        for b in 0..s {
                            assert_eq!(enc[b * n + i], data[i * s + b], "s {s} len {len}");
                        }
                    }
                    assert_eq!(enc[n * s..], data[n * s..]);
                } else {
                    assert_eq!(enc, data);
                }
                assert_eq!(f.decode(enc, len).unwrap(), data, "s {s} len {len}");
            }
        }
    }
}
