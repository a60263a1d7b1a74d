//! Fast, exact decimal digits for `%e`/`%g` (ncdump-conventions.md §3–§4 number formats).
//!
//! A finite double is `m · 2^e` exactly. Its first `p` significant digits, rounded half to even
//! on that exact value (what glibc's `printf` does), are `round(m · 2^e · 10^s)` with
//! `s = p - 1 - X` and `X` the decimal exponent. Powers of ten are split into powers of five
//! and two, so the quotient is one `u128` division whenever numerator and denominator fit in
//! 128 bits, which covers the values data files usually hold. Otherwise this returns `None` and
//! the caller falls back to the standard library's (slower, bignum) exact formatting.

/// `5^k` for `k <= 54` (fits in 128 bits).
fn pow5(k: u32) -> Option<u128> {
    if k > 54 {
        return None;
    }
    Some(5u128.pow(k))
}

/// `round_half_even(m · 2^e · 10^s)` and whether it is exact, or `None` when out of reach.
fn scaled(m: u64, e: i32, s: i32) -> Option<(u128, u128, u128)> {
    // Returns (quotient, remainder, denominator).
    let (num5, den5) = if s >= 0 {
        (pow5(s as u32)?, 1u128)
    } else {
        (1u128, pow5((-s) as u32)?)
    };
    let t = e + s; // net power of two
    let mut num = u128::from(m).checked_mul(num5)?;
    let mut den = den5;
    if t >= 0 {
        if t > 127 || num.leading_zeros() < t as u32 + 1 {
            return None;
        }
        num <<= t;
    } else {
        let k = (-t) as u32;
        if k > 126 || den.leading_zeros() < k + 1 {
            return None;
        }
        den <<= k;
    }
    Some((num / den, num % den, den))
}

/// The `p` (1..=17) significant digits of `v > 0` as an integer `q` with
/// `10^(p-1) <= q < 10^p`, and the decimal exponent of the first digit.
pub(crate) fn exact(v: f64, p: usize) -> Option<(u64, i32)> {
    if !(v > 0.0 && v.is_finite()) || p == 0 || p > 17 {
        return None;
    }
    let bits = v.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp_bits == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_bits - 1075)
    };
    let p = p as i32;
    let lo = 10u128.pow(p as u32 - 1);
    let hi = lo * 10;
    let mut x = v.log10().floor() as i32;
    for _ in 0..3 {
        let (q, r, den) = scaled(m, e, p - 1 - x)?;
        if q >= hi {
            x += 1;
            continue;
        }
        if q < lo {
            x -= 1;
            continue;
        }
        let twice = r * 2;
        let up = twice > den || (twice == den && q & 1 == 1);
        let mut q = q + u128::from(up);
        if q == hi {
            q = lo;
            x += 1;
        }
        return Some((q as u64, x));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn via_std(v: f64, p: usize) -> (u64, i32) {
        let s = format!("{:.*e}", p - 1, v);
        let (mant, exp) = s.split_once('e').unwrap();
        (mant.replace('.', "").parse().unwrap(), exp.parse().unwrap())
    }

    #[test]
    fn agrees_with_std_exact_formatting() {
        let mut x: u64 = 0x1234_5678_9abc_def0;
        let mut checked = 0;
        for i in 0..200_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = match i % 4 {
                0 => f64::from(((x >> 40) as f32) / 16777216.0 * 1000.0),
                1 => (x >> 11) as f64 / (1u64 << 53) as f64 * 1e6,
                2 => f64::from_bits(x >> 2),
                _ => ((x >> 44) as f64) * 0.5,
            };
            if !(v > 0.0 && v.is_finite()) {
                continue;
            }
            for p in [1, 3, 7, 15, 17] {
                if let Some(got) = exact(v, p) {
                    assert_eq!(got, via_std(v, p), "{v:e} p={p}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 400_000);
        // Ties round to even, and a carry moves to the next power of ten.
        assert_eq!(exact(2.5, 1), Some((2, 0)));
        assert_eq!(exact(3.5, 1), Some((4, 0)));
        assert_eq!(exact(9999999.5, 7), Some((1000000, 7)));
        assert_eq!(exact(1e-300, 7), None);
    }
}
