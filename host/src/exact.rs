//! The exact reference: the sum of a whole `f32` array, exact, rounded once
//! to the nearest `f32`. It is `layout::exact::sum`, the same limbs and the
//! same rounding as the GPU's correctly rounded sum, run on one CPU core fast
//! enough for 2^28 floats in about a second. It lives in `layout` beside the
//! code it shares with the kernel; it is tested here, where `std` and a
//! big-integer crate are at hand, against a slow model that shares none of its
//! code.

pub use layout::exact::sum;

#[cfg(test)]
mod tests {
    use num_bigint::BigInt;
    use num_traits::{One, Signed, Zero};

    use super::*;
    use crate::input;

    /// `x` as an exact integer number of 2^-149 units, by a route that shares
    /// nothing with `layout::exact`: the float's own decoding.
    fn units(x: f32) -> BigInt {
        let bits = x.to_bits();
        let exponent = ((bits >> 23) & 0xFF) as i32;
        let fraction = BigInt::from(bits & 0x7F_FFFF);
        let magnitude =
            if exponent == 0 { fraction } else { (fraction + BigInt::from(1u32 << 23)) << (exponent - 1) as usize };
        if bits >> 31 == 1 { -magnitude } else { magnitude }
    }

    /// The model: the exact integer sum, then the nearest `f32` found by
    /// search, not by bit arithmetic. The two finite floats around the exact
    /// value are compared with it exactly; the nearer wins, the even one on a
    /// tie; past the largest finite float by half an ulp or more, infinity.
    fn model(values: &[f32]) -> f32 {
        let exact: BigInt = values.iter().map(|&x| units(x)).sum();
        if exact.is_zero() {
            return 0.0;
        }
        let negative = exact.is_negative();
        let magnitude = exact.abs();
        // The largest finite float at or below the magnitude, by bisection on
        // the ordered bit patterns of the non-negative floats.
        let (mut lo, mut hi) = (0u32, 0x7F7F_FFFFu32);
        if units(f32::from_bits(hi)) <= magnitude {
            lo = hi;
        } else {
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if units(f32::from_bits(mid)) <= magnitude { lo = mid } else { hi = mid }
            }
        }
        let below = units(f32::from_bits(lo));
        // The next float up; past the largest finite, where infinity would
        // start rounding: MAX + half its ulp, counted as one more "float".
        let above =
            if lo == 0x7F7F_FFFF { below.clone() + (BigInt::one() << 253usize) } else { units(f32::from_bits(lo + 1)) };
        let (down, up) = (&magnitude - &below, &above - &magnitude);
        let chosen = if down < up || (down == up && lo % 2 == 0) { lo } else { lo + 1 };
        let result = if chosen > 0x7F7F_FFFF { f32::INFINITY } else { f32::from_bits(chosen) };
        if negative { -result } else { result }
    }

    fn check(values: &[f32]) {
        let (fast, slow) = (sum(values), model(values));
        assert_eq!(fast.to_bits(), slow.to_bits(), "fast {fast:e}, model {slow:e} for {} values", values.len());
    }

    #[test]
    fn agrees_with_the_model_on_hard_cases() {
        let tiny = f32::from_bits(1);
        let max = f32::MAX;
        for case in [
            vec![1e30, 1.0, -1e30],
            vec![max, tiny, -max],
            vec![16_777_216.0, 1.0],
            vec![16_777_216.0, 1.0, tiny],
            vec![16_777_218.0, 1.0],
            vec![f32::from_bits(0x007F_FFFF), tiny],
            vec![max, max],
            vec![-max, -max, 3.0],
            vec![max, f32::from_bits((127 + 103) << 23)],
            vec![max, f32::from_bits((127 + 103) << 23), -tiny],
            vec![1.0, -3.0, 0.5],
            vec![0.1; 1000],
            vec![-0.0, 0.0, -0.0],
        ] {
            check(&case);
        }
    }

    #[test]
    fn agrees_with_the_model_on_every_generated_spread_and_random_bits() {
        for spread in input::Spread::ALL {
            for n in [1, 2, 3, 5, 127, 128, 509, 4096, 10_007] {
                check(&input::spread(spread, n, 7));
            }
        }
        // Random finite bit patterns: every exponent, both signs, subnormals.
        for (seed, n) in [1, 2, 10, 1000, 5000].into_iter().enumerate() {
            check(&input::random_finite(n, 99 + seed as u64));
        }
    }

    #[test]
    fn specials_as_ieee_addition() {
        assert!(sum(&[1.0, f32::NAN, 2.0]).is_nan());
        assert!(sum(&[f32::INFINITY, 1.0, f32::NEG_INFINITY]).is_nan());
        assert_eq!(sum(&[f32::NEG_INFINITY, 1.0, 2.0, 3.0, 4.0]), f32::NEG_INFINITY);
    }

    #[test]
    fn lanes_and_blocks_do_not_change_the_result() {
        // The same multiset in different orders and lengths around the
        // lane and block boundaries gives the same bits.
        let values = input::spread(input::Spread::Wide, 4 * 127 * 3 + 5, 3);
        let mut reversed = values.clone();
        reversed.reverse();
        assert_eq!(sum(&values).to_bits(), sum(&reversed).to_bits());
        check(&values);
    }
}
