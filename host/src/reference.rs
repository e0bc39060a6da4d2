//! The CPU reference every GPU sum is checked against, and the rule that
//! decides when that check can be `==`.

// ANCHOR: kahan
/// The Kahan-compensated sum of `values`, accumulated in `f64`.
///
/// For the exact input the `f64` sum is exact on its own; the compensation
/// matters for the inexact input, where it keeps the reference closer to the
/// true sum than any `f32` ordering the GPU might choose.
pub fn kahan_sum(values: &[f32]) -> f64 {
    let mut sum = 0.0f64;
    let mut compensation = 0.0f64;
    for &v in values {
        let y = f64::from(v) - compensation;
        let t = sum + y;
        compensation = (t - sum) - y;
        sum = t;
    }
    sum
}
// ANCHOR_END: kahan

/// The largest value of the exact input ([`crate::input::exact`]): the
/// elements cycle through 0 to 3.
pub const EXACT_MAX: f32 = 3.0;

// ANCHOR: fits_exactly
/// 2^24: above it, consecutive integers are not all representable in `f32`.
pub const F32_EXACT_INTEGER_LIMIT: u64 = 1 << 24;

/// Whether every partial sum of `n` elements of the exact input (values 0 to
/// 3) is an integer below 2^24, and so exact in `f32` in any order.
///
/// The bound is the worst case, `3 * n`, not the actual total, so it also holds
/// for any subset a kernel might add first.
pub const fn fits_exactly(n: usize) -> bool {
    (n as u64).saturating_mul(EXACT_MAX as u64) < F32_EXACT_INTEGER_LIMIT
}
// ANCHOR_END: fits_exactly

/// The largest `n` that [`fits_exactly`] accepts.
pub const MAX_EXACT_N: usize = ((F32_EXACT_INTEGER_LIMIT - 1) / EXACT_MAX as u64) as usize;

// ANCHOR: bit_exact
/// Whether a GPU sum equals the reference bit for bit: the reference rounded to
/// `f32` and compared as bits, so `-0.0` and `0.0`, or two NaNs, are not
/// confused with each other.
pub fn bit_exact(found: f32, reference: f64) -> bool {
    found.to_bits() == (reference as f32).to_bits()
}
// ANCHOR_END: bit_exact

/// The CPU histogram every GPU histogram is checked against: exact counts of
/// each value in `0..bins`.
pub fn histogram(values: &[u32], bins: u32) -> Vec<u32> {
    let mut counts = vec![0u32; bins as usize];
    for &v in values {
        counts[v as usize] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{MAX_SPARSE_N, fits_exactly_sparse};

    #[test]
    fn kahan_keeps_what_a_plain_sum_drops() {
        // 2^-53 is half an ulp of 1.0 in f64: a plain f64 sum rounds every one
        // of these adds away, while the compensation carries them.
        let tiny = 2f32.powi(-53);
        let mut values = vec![1.0f32];
        values.extend(std::iter::repeat_n(tiny, 1_000_000));
        let plain: f64 = values.iter().map(|&v| f64::from(v)).sum();
        let exact = 1.0 + 1_000_000.0 * f64::from(tiny);
        assert_eq!(plain, 1.0);
        assert!((kahan_sum(&values) - exact).abs() <= f64::EPSILON, "{}", kahan_sum(&values));
    }

    #[test]
    fn kahan_of_the_exact_input_is_the_closed_form() {
        let n = 4_194_304;
        assert_eq!(kahan_sum(&crate::input::exact(n)), 6.0 * (n / 4) as f64);
        assert_eq!(kahan_sum(&crate::input::exact(7)), 9.0);
        assert_eq!(kahan_sum(&[]), 0.0);
    }

    #[test]
    fn the_guard_sits_just_below_two_to_the_24() {
        assert_eq!(MAX_EXACT_N, 5_592_405);
        assert!(fits_exactly(MAX_EXACT_N));
        assert!(!fits_exactly(MAX_EXACT_N + 1));
        assert!(fits_exactly(4_194_304));
        assert!(!fits_exactly(usize::MAX));
    }

    #[test]
    fn histogram_counts_each_value() {
        assert_eq!(histogram(&[0, 2, 2, 3, 2], 4), [1, 0, 3, 1]);
        assert_eq!(histogram(&[], 2), [0, 0]);
    }

    #[test]
    fn the_sparse_guard_admits_every_bench_size() {
        for n in [1, 1 << 28, MAX_SPARSE_N, MAX_SPARSE_N + 1, 1 << 31] {
            assert!(fits_exactly_sparse(n), "{n}");
        }
        let n = 1 << 20;
        let exact = crate::input::sparse_exact(n);
        assert_eq!(kahan_sum(&exact), 1.5 * (n / 64) as f64);
    }

    #[test]
    fn bit_exact_is_equality_of_bits() {
        assert!(bit_exact(6.0, 6.0));
        assert!(!bit_exact(6.0, 6.000_001));
        assert!(!bit_exact(-0.0, 0.0));
    }
}
